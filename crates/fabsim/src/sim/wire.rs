//! A link's wire: each port keeps its packets accepted and not yet arrived (serialized or
//! waiting, with their arrival times) in a ring of its own, in arrival order, and only the
//! ring's head has an event in the global queue. Strict priority for control packets
//! rearranges a ring ([`jump_queue`]).

use std::collections::VecDeque;

use crate::engine::Time;
use crate::net::{Packet, PacketKind, WireSize};
use crate::theory::LinkModel;
use crate::workload::FlowSpec;

/// Whether a packet travels in the strict-priority class (trimmed headers, ACKs, NACKs,
/// PFC frames): the size classes other than data.
#[inline]
pub(super) fn is_control(p: &Packet) -> bool {
    matches!(
        p.size(),
        WireSize::Control | WireSize::Header | WireSize::Frame
    )
}

/// A packet's bytes on the wire, by its size class: a short last packet's payload is its
/// flow's remainder (cut as its sender cuts it).
#[inline]
pub(super) fn wire_bytes(p: &Packet, link: &LinkModel, specs: &[FlowSpec]) -> u32 {
    match p.size() {
        WireSize::Control => link.ack_bytes,
        WireSize::Header => link.header_bytes,
        WireSize::Frame => crate::net::pfc::FRAME_BYTES,
        WireSize::FullData => link.header_bytes + link.payload_bytes,
        WireSize::ShortData => {
            let bytes = specs[p.flow as usize].bytes;
            link.header_bytes + crate::transport::payload(bytes, link.payload_bytes, p.seq)
        }
    }
}

/// A packet on a link's wire or in its queue: arrival time at the far end, the low 32 bits
/// of its port's number for it (its tie-breaking key), the packet. 32 bytes: these are most
/// of a large run's memory.
pub(super) type Slot = (Time, u32, Packet);

/// One port's packets accepted and not yet arrived, in arrival order.
///
/// The port numbers its packets with a counter of its own: below the port's id, that is
/// the events' tie-breaking key (`Tickets` in `sim.rs`), which depends on nothing but the
/// port's own history (so it is the same whichever partition, thread or order simulates
/// the fabric). `newest` is the last number taken or pushed.
///
/// Slots keep only the low half of their numbers; the full one is read against `newest`,
/// exact while every slot's number is within 2^32 of it. `since` is a number no slot is
/// older than (the first push after the ring was last empty, moved up to the oldest slot's
/// whenever it falls 2^31 behind), so the bound is checked at every push, not assumed.
///
/// `remote`: the far end belongs to another partition. The sender's ring is then the
/// port's queue only: its packets carry no event here, and move to the far partition's ring
/// of the same port (with their numbers) once their last bit has left
/// ([`super::Sim::ship`]).
///
/// With the port's [`crate::net::PortStats`], one of the two cache lines a hop touches at
/// its port (so `from` is here too).
#[derive(Clone, Default)]
#[repr(align(64))]
pub(super) struct Ring {
    pub(super) slots: VecDeque<Slot>,
    newest: u64,
    since: u64,
    pub(super) remote: bool,
    /// `remote`: when the last packet shipped to the far partition arrives there.
    pub(super) flying_until: Time,
    /// A fabric port: the node it leaves (a host's NIC, or a switch: `hosts + switch`).
    pub(super) from: u32,
}

impl Ring {
    /// The full number of a slot's low half.
    #[inline]
    pub(super) fn ticket(&self, low: u32) -> u64 {
        self.newest - (self.newest as u32).wrapping_sub(low) as u64
    }

    /// How many slots at the front keep their place (control packets do not overtake them,
    /// a full port does not trim them): the packet whose arrival event is queued, if it is
    /// here. A remote ring's packets have no event here; its head is the one whose arrival
    /// is next only once every packet shipped has arrived.
    #[inline]
    pub(super) fn fixed(&self, now: Time) -> usize {
        usize::from(!self.remote || self.flying_until <= now)
    }

    /// The port's next number.
    #[inline]
    pub(super) fn take(&mut self) -> u64 {
        self.newest += 1;
        self.newest
    }

    /// Records that the slot numbered `ticket` is pushed next (before it goes in). A port's
    /// own pushes come in number order; packets shipped from another partition come in
    /// ring order, where a control packet may be ahead of older data.
    #[inline]
    pub(super) fn note_push(&mut self, ticket: u64) {
        if self.slots.is_empty() {
            self.since = ticket;
        } else {
            self.since = self.since.min(ticket);
            if ticket.saturating_sub(self.since) >= 1 << 31 {
                self.refresh_since(ticket);
            }
        }
        self.newest = self.newest.max(ticket);
    }

    #[cold]
    fn refresh_since(&mut self, ticket: u64) {
        self.since = self
            .slots
            .iter()
            .map(|&(_, low, _)| self.ticket(low))
            .min()
            .expect("a non-empty ring");
        assert!(
            ticket - self.since < 1 << 32,
            "a packet waited on one link while it scheduled 2^32 events: more than a \
             link's ring can order"
        );
    }
}

/// Strict priority for a control packet on a port whose wire ring already holds packets
/// (`entry` carries its FIFO arrival time, as if it had queued behind all of them). A PFC
/// frame's class is the frames alone; any other control packet's, every control packet.
///
/// Non-preemptive: the packet in service (and any earlier control packet still waiting)
/// keeps its place; the control packet takes the slot of the first data packet still
/// waiting for the serializer, and every waiting data packet leaves `ser_ps` later. The
/// port's busy time, backlog and statistics are those of the FIFO order (the same bytes
/// drain at the same rate), so only the ring is rearranged. The first `fixed` slots keep
/// their place ([`Ring::fixed`]: the ring head, whose event is queued; it is in service or on
/// the wire, or waits for a PAUSE to end (Fastroute's optical mode), which holds the control
/// packet back too). Returns the slot it took.
pub(super) fn jump_queue(
    wire: &mut VecDeque<Slot>,
    fixed: usize,
    entry: Slot,
    ser_ps: Time,
    now: Time,
    delay_ps: Time,
    mut ser_of: impl FnMut(&Packet) -> Time,
) -> usize {
    // A PFC frame overtakes everything else waiting (ACKs travel with data under PFC).
    let frame = entry.2.kind() == PacketKind::Pfc;
    let mut slot = wire.len();
    while slot > fixed {
        let (arrive, _, p) = &wire[slot - 1];
        let start = *arrive - delay_ps - ser_of(p);
        let ahead = if frame {
            p.kind() == PacketKind::Pfc
        } else {
            is_control(p)
        };
        if ahead || start <= now {
            break;
        }
        slot -= 1;
    }
    let mut entry = entry;
    if slot < wire.len() {
        let (arrive, _, p) = &wire[slot];
        entry.0 = *arrive - ser_of(p) + ser_ps;
        for e in wire.range_mut(slot..) {
            e.0 += ser_ps;
        }
    }
    wire.insert(slot, entry);
    slot
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pkt(seq: u32, kind: PacketKind) -> Packet {
        Packet::new(0, seq, kind, 0)
    }

    /// A slot per packet per link is most of a large run's memory (k = 64: 19.6 M of them).
    #[test]
    fn a_ring_slot_is_32_bytes() {
        assert_eq!(std::mem::size_of::<Slot>(), 32);
    }

    /// A hop touches two lines of its port's state: the ring and the statistics.
    #[test]
    fn a_port_is_two_cache_lines() {
        assert_eq!(std::mem::size_of::<Ring>(), 64);
        assert_eq!(std::mem::size_of::<crate::net::PortStats>(), 64);
    }

    /// 1 byte per ps, 100 ps of delay, 1000 B payloads without header, 64 B ACKs.
    fn link_of_a_byte_per_ps() -> LinkModel {
        LinkModel {
            rate_bps: 8_000_000_000_000,
            delay_ps: Time::from_ps(100),
            payload_bytes: 1000,
            header_bytes: 0,
            ack_bytes: 64,
            floor_ns: false,
        }
    }

    #[test]
    fn control_overtakes_waiting_data_only() {
        // 1 byte per ps, 100 ps of delay: three 1000-byte data packets queued at t = 0 leave
        // at [0, 1000), [1000, 2000), [2000, 3000).
        let ps = Time::from_ps;
        let link = link_of_a_byte_per_ps();
        let ser = |p: &Packet| ps(wire_bytes(p, &link, &[]) as u64);
        let delay = ps(100);
        let mut wire: VecDeque<Slot> = (0..3)
            .map(|i| {
                (
                    ps(1000 * (i + 1)) + delay,
                    i as u32,
                    pkt(i as u32, PacketKind::Data),
                )
            })
            .collect();
        // At t = 500 an ACK of 64 bytes arrives: it waits for packet 0 (in service) only.
        jump_queue(
            &mut wire,
            1,
            (ps(3164), 3, pkt(9, PacketKind::Ack)),
            ps(64),
            ps(500),
            delay,
            ser,
        );
        let order: Vec<(u32, Time)> = wire.iter().map(|e| (e.2.seq, e.0)).collect();
        assert_eq!(
            order,
            vec![(0, ps(1100)), (9, ps(1164)), (1, ps(2164)), (2, ps(3164))],
            "the ACK goes right after the packet in service; waiting data moves back"
        );
        // A second control packet at t = 1030 (the ACK in service) queues behind the first (FIFO within the class)
        // but ahead of the data still waiting.
        jump_queue(
            &mut wire,
            1,
            (ps(3228), 4, pkt(10, PacketKind::Nack)),
            ps(64),
            ps(1030),
            delay,
            ser,
        );
        let order: Vec<u32> = wire.iter().map(|e| e.2.seq).collect();
        assert_eq!(order, vec![0, 9, 10, 1, 2]);
        assert_eq!(wire[2].0, ps(1228));
        assert_eq!(
            wire.back().unwrap().0,
            ps(3228),
            "the last bit leaves as in FIFO order"
        );
        // Once every data packet has started, a control packet simply goes last.
        jump_queue(
            &mut wire,
            1,
            (ps(3292), 5, pkt(11, PacketKind::Ack)),
            ps(64),
            ps(2300),
            delay,
            ser,
        );
        assert_eq!(wire.back().unwrap().2.seq, 11);
        assert_eq!(wire.back().unwrap().0, ps(3292));
    }
}

//! Egress ports: the queue discipline a packet meets when it is offered to a port (the data
//! buffer, trimming or dropping when full, strict priority for control packets, ECN marking
//! on arrival or at dequeue), and the wire it then waits on.

use super::multi_asic::Chassis;
use super::wire::{is_control, jump_queue, wire_bytes, Ring};
use super::{Event, Sim};
use crate::engine::{EventQueue, Time};
use crate::net::{Enqueue, Overflow, Packet, PacketKind};

/// `switch.ecn_at = "dequeue"`, per egress port: of the data packets in its ring (FIFO among
/// themselves), the first `decided` have left the serializer and had their mark decided, the
/// next `undecided` wait for it; `armed`: a `Dequeue` event is pending (at most one).
#[derive(Clone, Copy, Default)]
pub(super) struct DequeueMarks {
    decided: u32,
    undecided: u32,
    pub(super) armed: bool,
}

/// What an egress port does with a packet offered to it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Discipline {
    /// A switch port, and a NIC with `host.nic = "fifo"`: data is held to the buffer
    /// (`switch.buffer_bytes`: trimmed or dropped when full) and ECN-marked.
    Buffered,
    /// A NIC in pull mode (it takes a data packet only when free, so an ACK waits at most for
    /// the packet in service), and a header just trimmed at this port: no limit, no mark.
    Unbuffered,
}

impl<A: Chassis> Sim<'_, A> {
    /// `pkt`'s bytes on the wire.
    #[inline]
    pub(super) fn wire_bytes(&self, pkt: &Packet) -> u32 {
        wire_bytes(pkt, &self.p.link, self.specs)
    }

    /// Puts an accepted packet on port `port`'s wire, arriving at `t` in FIFO order, or
    /// ahead of the waiting data if it is `control` (strict priority, egress ports only).
    #[inline]
    pub(super) fn push_wire(&mut self, port: u32, t: Time, pkt: Packet, control: bool) {
        let now = self.now;
        let ring = &mut self.wire[port as usize];
        let ticket = ring.take();
        let fixed = ring.fixed(now);
        ring.note_push(ticket);
        let remote = ring.remote;
        let wire = &mut ring.slots;
        let slot = (t, ticket as u32, pkt);
        if wire.len() == wire.capacity() {
            // Rings keep their largest size (the sum over links is most of a large run's
            // memory): grow by half instead of doubling, a third less slack for a few more
            // reallocations per link in a run.
            wire.reserve_exact((wire.len() / 2).max(4));
        }
        if wire.is_empty() {
            wire.push_back(slot);
            if remote {
                self.outgoing.push(port);
            } else {
                self.queue.push_ticketed(
                    t,
                    self.tickets.port(ticket, port),
                    Event::Arrive { port },
                );
            }
        } else if control {
            let (ports, link, flows) = (&mut self.ports, &self.p.link, self.specs);
            let ser = ports.serialization(wire_bytes(&pkt, link, flows));
            let delay = ports.delay_ps();
            jump_queue(wire, fixed, slot, ser, now, delay, |q| {
                ports.serialization(wire_bytes(q, link, flows))
            });
        } else {
            debug_assert!(
                wire.back().is_none_or(|b| b.0 <= t),
                "port {port}: a packet arriving at {t:?} queued behind one arriving at {:?}",
                wire.back().map(|b| b.0)
            );
            wire.push_back(slot);
        }
    }

    /// Schedules `port`'s `Dequeue` event at `at`, numbered by the port.
    fn dequeue_at(&mut self, port: u32, at: Time) {
        let ticket = self.wire[port as usize].take();
        self.queue
            .push_ticketed(at, self.tickets.port(ticket, port), Event::Dequeue { port });
    }

    /// A switch offers a routed packet to its egress port `port`.
    #[inline]
    pub(super) fn switch_send(&mut self, port: u32, pkt: Packet) {
        self.offer(port, pkt, Discipline::Buffered);
    }

    /// Host `host` hands a packet to its NIC.
    #[inline]
    pub(super) fn nic_send(&mut self, host: u32, pkt: Packet) {
        let d = if self.p.host.nic_fifo {
            Discipline::Buffered
        } else {
            Discipline::Unbuffered
        };
        self.offer(self.fabric.nic(host).port(), pkt, d);
    }

    /// Offers `pkt` to egress port `port` under discipline `d`.
    #[inline]
    fn offer(&mut self, port: u32, mut pkt: Packet, d: Discipline) {
        #[cfg(target_arch = "x86_64")]
        if let Some(ring) = self.wire.get(port as usize) {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            // SAFETY: a prefetch is a hint that never faults, and SSE is x86_64 baseline.
            unsafe { _mm_prefetch::<_MM_HINT_T0>((ring as *const Ring).cast()) };
        }
        let control = self.priority(&pkt);
        let buffered = d == Discipline::Buffered;
        let limit = if buffered && !control {
            self.p.switch.buffer_bytes
        } else {
            None
        };
        let ecn = buffered && pkt.kind() == PacketKind::Data && self.p.switch.ecn.is_some();
        let at_dequeue = ecn && !self.dequeue_marks.is_empty() && !pkt.trimmed();
        let node = self.from_node[port as usize];
        if ecn && !at_dequeue {
            let backlog = self.ports.backlog_bytes(port, self.now);
            self.mark_ecn(node, backlog, &mut pkt);
        }
        let bytes = self.wire_bytes(&pkt);
        match self.ports.enqueue(port, bytes, self.now, limit) {
            Enqueue::Arrives(t) => {
                self.lb.on_transmit(port, bytes, self.now);
                self.c.packet_hops += 1;
                self.push_wire(port, t, pkt, control);
                if at_dequeue {
                    let m = &mut self.dequeue_marks[port as usize];
                    m.undecided += 1;
                    if !m.armed {
                        m.armed = true;
                        let leaves = t - self.ports.delay_ps();
                        self.dequeue_at(port, leaves);
                    }
                }
            }
            Enqueue::Overflow => {
                // With trimming, the tail may make room first (one coin per arrival); if it
                // was not enough, the arriving packet is cut too.
                if self.p.switch.trim_tail
                    && self.p.switch.overflow == Overflow::Trim
                    && !is_control(&pkt)
                    && self.coins[node as usize].below(2) == 0
                    && self.trim_tail(port)
                    && self.ports.fits(port, bytes, self.now, limit)
                {
                    return self.offer(port, pkt, d);
                }
                if let Some(header) = self.cut_or_drop(pkt) {
                    // Headers bypass the data buffer (they would use the priority queue).
                    self.offer(port, header, Discipline::Unbuffered);
                }
            }
        }
    }

    /// Whether `pkt` travels in the strict-priority class: with trimming, headers, ACKs and
    /// NACKs overtake waiting data and are not held to the data buffer (a header trimmed at
    /// an earlier hop too: it must not be dropped later).
    #[inline]
    pub(super) fn priority(&self, pkt: &Packet) -> bool {
        self.p.switch.overflow == Overflow::Trim && is_control(pkt)
    }

    /// A packet its buffer (an egress port's or an internal link's) has no room for: with
    /// trimming, a data packet is cut to its header, which the caller sends on outside the
    /// data buffer; anything else is dropped (`None`).
    #[inline]
    pub(super) fn cut_or_drop(&mut self, mut pkt: Packet) -> Option<Packet> {
        if self.p.switch.overflow == Overflow::Trim && !is_control(&pkt) {
            pkt.trim();
            self.c.trims += 1;
            Some(pkt)
        } else {
            self.c.dropped += 1;
            None
        }
    }

    /// `switch.trim_victim = "random"`: cuts the last packet waiting at `port` to its header
    /// and sends the header on in the priority class, if that packet is data still waiting
    /// for the serializer (never the ring's head, whose event is queued: [`Ring::fixed`]).
    /// Returns whether it did.
    fn trim_tail(&mut self, port: u32) -> bool {
        let ring = &self.wire[port as usize];
        let wire = &ring.slots;
        let Some(&(arrive, _, mut q)) = wire.back() else {
            return false;
        };
        if wire.len() <= ring.fixed(self.now) || is_control(&q) {
            return false;
        }
        let ser = self.ports.serialization(self.wire_bytes(&q));
        if arrive - self.ports.delay_ps() - ser <= self.now {
            return false;
        }
        self.wire[port as usize].slots.pop_back();
        if let Some(m) = self.dequeue_marks.get_mut(port as usize) {
            // Still waiting, so undecided (and data, so counted if this port marks).
            m.undecided = m.undecided.saturating_sub(1);
        }
        self.ports.unqueue_tail(port, ser, self.now);
        q.trim();
        self.c.trims += 1;
        // Still the same hop: `offer` counts it again.
        self.c.packet_hops -= 1;
        self.offer(port, q, Discipline::Unbuffered);
        true
    }

    /// `switch.ecn_at = "dequeue"`: decides the marks of `port`'s data packets whose last bit
    /// has left by now, in ring order, each by the data waiting behind it (with trimming, the
    /// priority class waiting right behind it is not data and is not counted); then waits for
    /// the next one. Control packets that jumped ahead of waiting data delay it, so an event
    /// may find its packet not done yet and wait again.
    pub(super) fn decide_dequeue_marks(&mut self, port: u32) {
        let delay = self.ports.delay_ps();
        let priority = self.p.switch.overflow == Overflow::Trim;
        loop {
            let m = self.dequeue_marks[port as usize];
            if m.undecided == 0 {
                return;
            }
            let wire = &self.wire[port as usize].slots;
            let i = wire
                .iter()
                .enumerate()
                .filter(|(_, e)| !is_control(&e.2))
                .nth(m.decided as usize)
                .map(|(i, _)| i)
                .expect("an undecided data packet is in the ring");
            let leaves = wire[i].0 - delay;
            if leaves > self.now {
                let m = &mut self.dequeue_marks[port as usize];
                if !m.armed {
                    m.armed = true;
                    self.dequeue_at(port, leaves);
                }
                return;
            }
            let behind: u64 = if priority {
                wire.range(i + 1..)
                    .take_while(|e| is_control(&e.2))
                    .map(|e| self.wire_bytes(&e.2) as u64)
                    .sum()
            } else {
                0
            };
            let waiting = self
                .ports
                .backlog_bytes(port, self.now)
                .saturating_sub(behind);
            let mut pkt = wire[i].2;
            self.mark_ecn(self.from_node[port as usize], waiting, &mut pkt);
            self.wire[port as usize].slots[i].2 = pkt;
            let m = &mut self.dequeue_marks[port as usize];
            m.decided += 1;
            m.undecided -= 1;
        }
    }

    /// Before `port`'s ring head arrives: its mark is decided (with zero propagation delay
    /// the arrival may come before its `Dequeue` event), and it leaves the decided count.
    #[inline]
    pub(super) fn dequeue_arrival(&mut self, port: u32) {
        let Some(&(_, _, head)) = self.wire[port as usize].slots.front() else {
            return;
        };
        if is_control(&head) {
            return;
        }
        let Some(&m) = self.dequeue_marks.get(port as usize) else {
            return;
        };
        if m.decided == 0 && m.undecided > 0 {
            self.decide_dequeue_marks(port);
        }
        let m = &mut self.dequeue_marks[port as usize];
        m.decided = m.decided.saturating_sub(1);
    }

    /// ECN: mark a data packet by the `backlog` bytes it finds (RED-like ramp from kmin to
    /// kmax) at node `node` (whose coin it tosses).
    #[inline]
    pub(super) fn mark_ecn(&mut self, node: u32, backlog: u64, pkt: &mut Packet) {
        let Some((kmin, kmax)) = self.p.switch.ecn else {
            return;
        };
        let mark = if backlog >= kmax {
            true
        } else if backlog > kmin {
            self.coins[node as usize].below(kmax - kmin) < backlog - kmin
        } else {
            false
        };
        if mark && !pkt.ecn() {
            pkt.mark_ecn();
            self.c.ecn_marks += 1;
        }
    }
}

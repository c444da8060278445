//! Priority flow control at run time (`switch.pfc`, D81): each switch's MMU
//! ([`crate::net::pfc::Mmu`]) admits or drops what arrives at its ingress ports and says when
//! an ingress port PAUSEs or RESUMEs its upstream neighbour; the frames travel as packets
//! on the link back (43 bytes, ahead of the waiting data: strict priority); the port a
//! PAUSE reaches stops after the packet it is serializing.
//!
//! A port's packets have their leave times from their enqueue, so a paused port keeps out
//! of its wire ring what has not started: at the PAUSE the packets still waiting for the
//! serializer leave the ring's back (and the port's busy time), and what is offered while
//! paused waits beside the ring (`held`). At the RESUME they are enqueued again in order,
//! from the RESUME on: a packet held was enqueued before the RESUME, so it starts when the
//! one before it ends, which is what its FIFO would have done. No leave time is ever moved
//! but by a frame jumping the queue, as ACKs do under trimming.
//!
//! The MMU releases a packet's bytes when it starts leaving its egress port: each switch
//! port keeps its accepted packets not yet started (`departing`, FIFO like its ring) and
//! one `Depart` event for the first of them. A frame that jumps the queue moves the waiting
//! ones' starts as it moves their slots; a PAUSE takes them out with their slots.
//!
//! Architecture Invariant: with `switch.pfc` off nothing here runs: `Sim::pfc` is `None`,
//! and the hot path pays one test of it per switch hop and per packet a NIC is handed
//! (D81 measures it: under 1% of the instructions).

use std::collections::VecDeque;

use super::multi_asic::Chassis;
use super::wire::{wire_bytes, Slot};
use super::{Event, Sim};
use crate::engine::{EventQueue, Time};
use crate::net::pfc::{Admit, Mmu};
use crate::net::{Backlog, Enqueue, Fabric, Packet, PacketKind};

/// A port's PFC counters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PortPfc {
    /// Frames this port sent upstream (a switch port: its ingress's PAUSEs and RESUMEs).
    pub pauses_sent: u64,
    pub resumes_sent: u64,
    /// Frames that reached this port's sender from the port's far end: PAUSEs and RESUMEs
    /// of this port.
    pub pauses_received: u64,
    pub resumes_received: u64,
    /// Time this port was paused.
    pub paused_ps: Time,
    /// Packets dropped at this port's ingress with its headroom exhausted.
    pub headroom_drops: u64,
}

/// One port's pause state.
#[derive(Clone, Default)]
struct PausePort {
    /// Paused since.
    paused: Option<Time>,
    /// Packets not started when the PAUSE came, and offered since, in FIFO order, each with
    /// the local ingress port it came in at (a switch port's), and their serialization.
    held: VecDeque<(Packet, u32)>,
    held_ps: Time,
    /// A switch port: its packets accepted and not started, as (start, local ingress port,
    /// bytes), in ring order.
    departing: VecDeque<(Time, u32, u32)>,
    /// When its live `Depart` event is due (`Time::MAX`: none).
    depart_at: Time,
    stats: PortPfc,
}

/// Every switch's MMU and every port's pause state.
pub(super) struct Pfc {
    mmu: Mmu,
    ports: Vec<PausePort>,
    /// Per host: its NIC became free while its port was paused (it takes its next packet at
    /// the RESUME).
    parked: Vec<bool>,
}

impl Pfc {
    /// With `buffer` (`switch.pfc` on), the state of PFC over `fabric`.
    pub(super) fn of(buffer: Option<u64>, fabric: &Fabric) -> Option<Box<Self>> {
        buffer.map(|b| Box::new(Pfc::new(b, fabric)))
    }

    /// Switches with `buffer` bytes each, over `fabric`'s ports.
    fn new(buffer: u64, fabric: &Fabric) -> Self {
        let rates: Vec<Vec<u64>> = fabric
            .switches
            .iter()
            .map(|s| {
                (0..s.ports)
                    .map(|l| fabric.port_rate_bps(s.port_base + l))
                    .collect()
            })
            .collect();
        Pfc {
            mmu: Mmu::new(buffer, fabric.rate_bps, fabric.delay_ps, &rates),
            ports: vec![
                PausePort {
                    depart_at: Time::MAX,
                    ..PausePort::default()
                };
                fabric.ports()
            ],
            parked: vec![false; fabric.hosts as usize],
        }
    }

    /// Whether `port` is paused.
    #[inline]
    pub(super) fn paused(&self, port: u32) -> bool {
        self.ports[port as usize].paused.is_some()
    }

    /// Whether `port` is paused, and its held packets' serialization.
    pub(super) fn held_at(&self, port: usize) -> (bool, Time) {
        let p = &self.ports[port];
        (p.paused.is_some(), p.held_ps)
    }

    /// Packets held at paused ports.
    pub(super) fn held(&self) -> u64 {
        self.ports.iter().map(|p| p.held.len() as u64).sum()
    }

    /// Host `host`'s NIC is free: `false` (and it waits for the RESUME) if its port is
    /// paused.
    #[inline]
    pub(super) fn nic_may_send(&mut self, host: u32) -> bool {
        let paused = self.paused(host);
        self.parked[host as usize] |= paused;
        !paused
    }

    /// The ports' counters up to `end` (a pause still on counts to it).
    pub(super) fn finish(&mut self, end: Time) -> Vec<PortPfc> {
        self.ports
            .iter_mut()
            .map(|p| {
                if let Some(since) = p.paused.take() {
                    p.stats.paused_ps += end.saturating_sub(since);
                }
                p.stats
            })
            .collect()
    }

    /// Takes in partition `other`'s ports (those `port_theirs` selects) and its switches'
    /// MMUs (those `switch_theirs` selects).
    pub(super) fn absorb(
        &mut self,
        mut other: Pfc,
        port_theirs: impl Fn(usize) -> bool,
        switch_theirs: impl Fn(u32) -> bool,
    ) {
        for (g, (mine, o)) in self.ports.iter_mut().zip(&mut other.ports).enumerate() {
            if port_theirs(g) {
                *mine = std::mem::take(o);
            }
        }
        self.mmu.absorb(&other.mmu, switch_theirs);
    }

    /// Notes in `waits` (one entry per port) each port this partition holds paused, with
    /// the local ingress ports (of the port's switch) its held packets came in at.
    pub(super) fn note_waits(&self, waits: &mut [Option<Vec<u32>>]) {
        for (w, p) in waits.iter_mut().zip(&self.ports) {
            if p.paused.is_some() {
                let mut from: Vec<u32> = p.held.iter().map(|&(_, local)| local).collect();
                from.sort_unstable();
                from.dedup();
                *w = Some(from);
            }
        }
    }

    /// Whether every switch's MMU holds nothing.
    pub(super) fn drained(&self) -> bool {
        self.mmu.is_empty()
    }
}

impl<A: Chassis> Sim<'_, A> {
    /// With PFC, a deadlock among the ports paused in any of `parts` (the run's partitions,
    /// this one among them).
    pub(super) fn pfc_deadlock<'s>(
        &self,
        parts: impl IntoIterator<Item = &'s Self>,
    ) -> Option<String>
    where
        Self: 's,
    {
        self.pfc.as_ref()?;
        let mut waits = vec![None; self.fabric.ports()];
        for s in parts {
            s.pfc.as_ref().expect("PFC is on").note_waits(&mut waits);
        }
        deadlock(&waits, &self.fabric)
    }

    /// With PFC, a packet reached switch `sw` at local port `in_local`: a frame pauses or
    /// resumes the port back (which it came in at), anything else is routed on through the
    /// switch's MMU (PFC runs on ideal switches only).
    #[inline(never)]
    pub(super) fn pfc_arrival(&mut self, sw: u32, in_local: u32, pkt: Packet) {
        if pkt.kind() == PacketKind::Pfc {
            let port = self.fabric.switches[sw as usize].port_base + in_local;
            return self.pfc_frame(port, pkt);
        }
        debug_assert!(A::IDEAL, "PFC on a multi-ASIC switch");
        self.forward::<true>(sw, in_local, pkt);
    }

    /// A switch offers a routed packet, which came in at global port `gin`, to its egress
    /// port `gout`, through its MMU.
    pub(super) fn pfc_send(&mut self, sw: u32, gin: u32, gout: u32, pkt: Packet) {
        let bytes = self.wire_bytes(&pkt);
        let local = gin - self.fabric.switches[sw as usize].port_base;
        let pfc = self.pfc.as_mut().expect("PFC is on");
        match pfc.mmu.admit(sw, local, bytes) {
            Admit::Drop => {
                pfc.ports[gin as usize].stats.headroom_drops += 1;
                self.c.dropped += 1;
                return;
            }
            Admit::Accept { pause } => {
                if pause {
                    self.send_frame(gin, true);
                }
            }
        }
        if self.hold(gout, pkt, local, true) {
            return;
        }
        self.switch_send(gout, pkt);
        let ser = self.ports.serialization(gout, bytes);
        let start = self.ports.stats[gout as usize].busy_until - ser;
        self.departs(gout, start, local, bytes);
    }

    /// If `port` is paused, `pkt` (which came in at local port `local` of a switch) waits
    /// beside its ring, marked by the backlog it finds (held packets included) if it is
    /// `buffered` data; returns whether it waits.
    #[inline(never)]
    pub(super) fn hold(&mut self, port: u32, mut pkt: Packet, local: u32, buffered: bool) -> bool {
        let Some(pfc) = self.pfc.as_ref().filter(|p| p.paused(port)) else {
            return false;
        };
        let held_ps = pfc.ports[port as usize].held_ps;
        // With marks decided at dequeue, it is marked when it leaves, after the RESUME.
        if buffered
            && pkt.kind() == PacketKind::Data
            && self.p.switch.ecn.is_some()
            && !self.marks.on
        {
            let ps = self.ports.backlog_ps(port, self.now) + held_ps;
            let backlog = Backlog::new(ps, self.ports.rate_of(port));
            self.mark_ecn(self.wire[port as usize].from, backlog, &mut pkt);
        }
        let ser = self.ports.serialization(port, self.wire_bytes(&pkt));
        let pp = &mut self.pfc.as_mut().expect("PFC is on").ports[port as usize];
        pp.held.push_back((pkt, local));
        pp.held_ps += ser;
        true
    }

    /// Switch port `port` accepted a packet of `bytes` that came in at local port `local`
    /// and starts leaving at `start`.
    fn departs(&mut self, port: u32, start: Time, local: u32, bytes: u32) {
        let d = &mut self.pfc.as_mut().expect("PFC is on").ports[port as usize].departing;
        d.push_back((start, local, bytes));
        if d.len() == 1 {
            self.schedule_depart(port);
        }
    }

    /// Makes sure `port`'s `Depart` event is due when its first packet not started starts.
    fn schedule_depart(&mut self, port: u32) {
        let pp = &mut self.pfc.as_mut().expect("PFC is on").ports[port as usize];
        let Some(&(at, _, _)) = pp.departing.front() else {
            return;
        };
        if pp.depart_at == at {
            return;
        }
        pp.depart_at = at;
        let ticket = self.wire[port as usize].take();
        let key = self.tickets.port(ticket, port);
        self.queue.push_ticketed(at, key, Event::Depart { port });
    }

    /// `Depart`: switch port `port`'s first packet not started starts leaving: its bytes
    /// leave its ingress port's count, which may RESUME that port's upstream neighbour.
    pub(super) fn depart(&mut self, port: u32) {
        let now = self.now;
        let pp = &mut self.pfc.as_mut().expect("PFC is on").ports[port as usize];
        if pp.depart_at != now {
            // Moved by a frame that jumped the queue, or taken out by a PAUSE.
            return;
        }
        pp.depart_at = Time::MAX;
        let (start, local, bytes) = pp.departing.pop_front().expect("a departure");
        debug_assert_eq!(start, now, "port {port}: a departure out of time");
        let sw = self.fabric.switch_of(self.wire[port as usize].from);
        let pfc = self.pfc.as_mut().expect("PFC is on");
        if pfc.mmu.release(sw, local, bytes) {
            let gin = self.fabric.switches[sw as usize].port_base + local;
            self.send_frame(gin, false);
        }
        self.schedule_depart(port);
    }

    /// A switch sends a PAUSE (`pause`) or a RESUME out of its port `port`, ahead of the
    /// data waiting there (which then starts a frame's serialization later).
    #[cold]
    fn send_frame(&mut self, port: u32, pause: bool) {
        let now = self.now;
        // The marks of what left by now are decided before the frame changes the port.
        self.settle_marks(port);
        let frame = Packet::new(0, pause as u32, PacketKind::Pfc, 0);
        let bytes = self.wire_bytes(&frame);
        let ser = self.ports.serialization(port, bytes);
        let Enqueue::Arrives(t) = self.ports.enqueue(port, bytes, now, None) else {
            unreachable!("an unbounded enqueue");
        };
        self.c.pfc_frames += 1;
        self.push_wire(port, t, frame, true);
        let pp = &mut self.pfc.as_mut().expect("PFC is on").ports[port as usize];
        if pause {
            pp.stats.pauses_sent += 1;
        } else {
            pp.stats.resumes_sent += 1;
        }
        for d in pp.departing.iter_mut().filter(|d| d.0 > now) {
            d.0 += ser;
        }
        self.schedule_depart(port);
    }

    /// A PFC frame reaches the sender of port `port` (the port it pauses or resumes).
    #[cold]
    pub(super) fn pfc_frame(&mut self, port: u32, frame: Packet) {
        self.c.pfc_frames_received += 1;
        if frame.seq == 1 {
            self.pause(port);
        } else {
            self.resume(port);
        }
    }

    /// A PAUSE reaches `port`'s sender: the packets still waiting for its serializer (not
    /// frames) leave its ring for the held line, and it sends no more until a RESUME.
    #[cold]
    fn pause(&mut self, port: u32) {
        let (now, delay) = (self.now, self.ports.delay_ps());
        let pp = &mut self.pfc.as_mut().expect("PFC is on").ports[port as usize];
        pp.stats.pauses_received += 1;
        // Frames alternate per link: the MMU PAUSEs only a port it has not, and frames keep
        // their order on the wire.
        debug_assert!(pp.paused.is_none(), "port {port}: two PAUSEs in a row");
        if pp.paused.is_some() {
            return;
        }
        pp.paused = Some(now);
        // The marks of what left by now are decided before the port changes.
        self.settle_marks(port);
        let hosts = self.fabric.hosts;
        loop {
            let ring = &mut self.wire[port as usize];
            let fixed = ring.fixed(now);
            let (ports, link, specs) = (&mut self.ports, &self.p.link, self.specs);
            let ser_of = |q: &Packet| ports.serialization(port, wire_bytes(q, link, specs));
            let Some(((arrive, _, q), ser)) =
                pop_waiting(&mut ring.slots, fixed, now, delay, ser_of)
            else {
                break;
            };
            self.ports.unqueue_tail(port, ser, now);
            self.c.packet_hops -= 1;
            if self.counts_mark(port, &q) {
                // Waiting, so undecided: decided when it leaves after the RESUME.
                let m = &mut self.ports.stats[port as usize].marks;
                m.undecided -= 1;
            }
            let pp = &mut self.pfc.as_mut().expect("PFC is on").ports[port as usize];
            let local = if port >= hosts {
                let (s, local, _) = pp.departing.pop_back().expect("a departure per packet");
                debug_assert_eq!(
                    s,
                    arrive - delay - ser,
                    "port {port}: departures out of step"
                );
                local
            } else {
                0
            };
            pp.held.push_front((q, local));
            pp.held_ps += ser;
        }
        let pp = &mut self.pfc.as_mut().expect("PFC is on").ports[port as usize];
        if pp.departing.is_empty() {
            // Its first packet not started was taken: its `Depart` event is void.
            pp.depart_at = Time::MAX;
        }
    }

    /// A RESUME reaches `port`'s sender: its held packets go on the wire in order from now,
    /// and a NIC that became free meanwhile takes its next packet when they are through.
    #[cold]
    fn resume(&mut self, port: u32) {
        let now = self.now;
        let pp = &mut self.pfc.as_mut().expect("PFC is on").ports[port as usize];
        pp.stats.resumes_received += 1;
        debug_assert!(pp.paused.is_some(), "port {port}: a RESUME without a PAUSE");
        let Some(since) = pp.paused.take() else {
            return;
        };
        pp.stats.paused_ps += now - since;
        pp.held_ps = Time::ZERO;
        let mut held = std::mem::take(&mut pp.held);
        self.settle_marks(port);
        for (pkt, local) in held.drain(..) {
            let bytes = self.wire_bytes(&pkt);
            let Enqueue::Arrives(t) = self.ports.enqueue(port, bytes, now, None) else {
                unreachable!("an unbounded enqueue");
            };
            self.c.packet_hops += 1;
            self.push_wire(port, t, pkt, false);
            if self.counts_mark(port, &pkt) {
                self.undecided_at_back(port, t);
            }
            if port >= self.fabric.hosts {
                let start = t - self.ports.delay_ps() - self.ports.serialization(port, bytes);
                self.departs(port, start, local, bytes);
            }
        }
        let pfc = self.pfc.as_mut().expect("PFC is on");
        pfc.ports[port as usize].held = held;
        if port < self.fabric.hosts && std::mem::take(&mut pfc.parked[port as usize]) {
            self.arm_nic(port);
        }
    }
}

/// A PFC deadlock among the paused ports of `waits` (per port: paused, with the local
/// ingress ports its held packets came in at): a cycle of paused ports, each leading to a
/// switch whose next port in the cycle is paused and holds packets that came in by the one
/// before (so neither drains until the other does), named by the graph's nodes at each
/// port's ends; `None` if the paused ports wait in no cycle.
pub(super) fn deadlock(waits: &[Option<Vec<u32>>], fabric: &Fabric) -> Option<String> {
    // Per port: 0 unvisited, 1 on the current path, 2 done (no cycle through it).
    let mut state = vec![0u8; waits.len()];
    let next = |g: usize| -> Vec<usize> {
        let far = fabric.port_to_node[g];
        let Some(sw) = far.checked_sub(fabric.hosts) else {
            return Vec::new();
        };
        let s = &fabric.switches[sw as usize];
        let came_in = fabric.port_to_local[g];
        let ports = s.port_base as usize..(s.port_base + s.ports) as usize;
        let holds = |h: &usize| waits[*h].as_ref().is_some_and(|w| w.contains(&came_in));
        ports.filter(holds).collect()
    };
    for start in (0..waits.len()).filter(|&g| waits[g].is_some()) {
        if state[start] != 0 {
            continue;
        }
        // Depth first, with an explicit stack of (port, its successors left).
        let mut path = vec![(start, next(start))];
        state[start] = 1;
        while let Some((g, succ)) = path.last_mut() {
            let g = *g;
            match succ.pop() {
                Some(h) if state[h] == 1 => {
                    let at = path.iter().position(|&(p, _)| p == h).expect("on the path");
                    let cycle: Vec<String> = path[at..]
                        .iter()
                        .map(|&(p, _)| {
                            let (a, b) = fabric.port_ends(p as u32);
                            format!("{a}->{b}")
                        })
                        .collect();
                    return Some(format!(
                        "PFC deadlock: a cycle of {} paused ports (by the topology's node \
                         ids) {}",
                        cycle.len(),
                        cycle.join(", ")
                    ));
                }
                Some(h) if state[h] == 0 => {
                    state[h] = 1;
                    path.push((h, next(h)));
                }
                Some(_) => {}
                None => {
                    state[g] = 2;
                    path.pop();
                }
            }
        }
    }
    None
}

/// The packet at the back of a port's ring if it still waits for the serializer at `now`
/// (behind the ring's first `fixed` slots, and not a PFC frame, which a PAUSE does not
/// stop), taken off with its serialization (`ser_of`). Frames jump ahead of waiting data,
/// so what waits behind the packet in service is the ring's back up to the last frame.
fn pop_waiting(
    wire: &mut VecDeque<Slot>,
    fixed: usize,
    now: Time,
    delay: Time,
    mut ser_of: impl FnMut(&Packet) -> Time,
) -> Option<(Slot, Time)> {
    let &(arrive, _, q) = wire.back()?;
    if wire.len() <= fixed || q.kind() == PacketKind::Pfc {
        return None;
    }
    let ser = ser_of(&q);
    (arrive - delay - ser > now).then(|| (wire.pop_back().expect("the back"), ser))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::Ports;

    /// A hand trace. A port at 8 Gb/s (a byte per ns) with 100 ns links takes three
    /// 1,000 B packets at t = 0: they would leave [0, 1), [1, 2), [2, 3) us. A RESUME sent
    /// upstream at 0.2 us jumps the queue: 43 ns, after packet 0. A PAUSE at 0.5 us stops
    /// the port after packet 0 and the frame (in service, and started before the data
    /// waiting): packets 1 and 2 are held, and the serializer is free at 1.043 us. A packet
    /// offered at 1.5 us is held behind them. The RESUME at 4 us sends them in order from
    /// 4 us: 4-5, 5-6, 6-7 us, arriving 100 ns later.
    #[test]
    fn a_pause_holds_what_waits_and_the_resume_sends_it_from_then_on() {
        let ps = Time::from_ps;
        let us = |n: u64| ps(n * 1_000_000);
        let ns = |n: u64| ps(n * 1_000);
        let delay = ns(100);
        let mut ports = Ports::new(1, 8_000_000_000, delay);
        let data = |seq| Packet::new(0, seq, PacketKind::Data, 0);
        let frame = Packet::new(0, 0, PacketKind::Pfc, 0);
        let ser_of = |p: &Packet| {
            if p.kind() == PacketKind::Pfc {
                ns(43)
            } else {
                us(1)
            }
        };
        let mut wire: VecDeque<Slot> = VecDeque::new();
        for seq in 0..3 {
            let Enqueue::Arrives(t) = ports.enqueue(0, 1000, Time::ZERO, None) else {
                unreachable!()
            };
            wire.push_back((t, seq, data(seq)));
        }
        let Enqueue::Arrives(t) = ports.enqueue(0, 43, ns(200), None) else {
            unreachable!()
        };
        let at = super::super::wire::jump_queue(
            &mut wire,
            1,
            (t, 3, frame),
            ns(43),
            ns(200),
            delay,
            ser_of,
        );
        assert_eq!(at, 1, "the frame goes right after the packet in service");
        let arrivals = |w: &VecDeque<Slot>| w.iter().map(|s| (s.2.seq, s.0)).collect::<Vec<_>>();
        assert_eq!(
            arrivals(&wire),
            vec![(0, ns(1100)), (0, ns(1143)), (1, ns(2143)), (2, ns(3143))]
        );
        // The PAUSE at 0.5 us.
        let now = ns(500);
        let mut held = VecDeque::new();
        while let Some((slot, ser)) = pop_waiting(&mut wire, 1, now, delay, ser_of) {
            ports.unqueue_tail(0, ser, now);
            held.push_front(slot.2);
        }
        assert_eq!(arrivals(&wire), vec![(0, ns(1100)), (0, ns(1143))]);
        assert_eq!(held.iter().map(|p| p.seq).collect::<Vec<_>>(), vec![1, 2]);
        assert_eq!(ports.stats[0].busy_until, ns(1043));
        assert_eq!(ports.backlog_ps(0, us(2)), Time::ZERO, "idle while paused");
        held.push_back(data(3));
        // The RESUME at 4 us.
        let resumed: Vec<Time> = held
            .iter()
            .map(|_| match ports.enqueue(0, 1000, us(4), None) {
                Enqueue::Arrives(t) => t,
                Enqueue::Overflow => unreachable!(),
            })
            .collect();
        assert_eq!(resumed, vec![ns(5100), ns(6100), ns(7100)]);
        // The port served every byte once: 3 x 1,000 + 43 + 1,000 ns of link time.
        assert_eq!(ports.stats[0].busy_ps, ns(4043));
    }

    /// Nothing is held that started: a packet starting exactly at the PAUSE goes, as does
    /// a waiting frame; the ring's fixed head stays.
    #[test]
    fn a_pause_takes_only_what_has_not_started() {
        let ns = |n: u64| Time::from_ps(n * 1_000);
        let d = |seq| Packet::new(0, seq, PacketKind::Data, 0);
        let ser_of = |_: &Packet| ns(10);
        // Starts 0, 10, 20 (arrivals at start + 10 + 5 of delay).
        let mut wire: VecDeque<Slot> = (0..3u32)
            .map(|i| (ns(10 * i as u64 + 15), i, d(i)))
            .collect();
        assert!(pop_waiting(&mut wire, 1, ns(20), ns(5), ser_of).is_none());
        let (slot, ser) = pop_waiting(&mut wire, 1, ns(19), ns(5), ser_of).unwrap();
        assert_eq!((slot.2.seq, ser), (2, ns(10)));
        assert!(pop_waiting(&mut wire, 2, Time::ZERO, ns(5), ser_of).is_none());
        wire.push_back((ns(45), 9, Packet::new(0, 1, PacketKind::Pfc, 0)));
        assert!(pop_waiting(&mut wire, 1, Time::ZERO, ns(5), ser_of).is_none());
    }
}

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
//! and the hot path pays one test of it per switch hop.

use std::collections::VecDeque;

use super::multi_asic::Chassis;
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
    /// Switches with `buffer` bytes each, over `fabric`'s ports.
    pub(super) fn new(buffer: u64, fabric: &Fabric) -> Self {
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

    /// Whether every switch's MMU holds nothing.
    pub(super) fn drained(&self) -> bool {
        self.mmu.is_empty()
    }
}

impl<A: Chassis> Sim<'_, A> {
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
    pub(super) fn hold(&mut self, port: u32, mut pkt: Packet, local: u32, buffered: bool) -> bool {
        let Some(pfc) = self.pfc.as_ref().filter(|p| p.paused(port)) else {
            return false;
        };
        let held_ps = pfc.ports[port as usize].held_ps;
        if buffered && pkt.kind() == PacketKind::Data && self.p.switch.ecn.is_some() {
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
    fn send_frame(&mut self, port: u32, pause: bool) {
        let now = self.now;
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
    fn pause(&mut self, port: u32) {
        let (now, delay) = (self.now, self.ports.delay_ps());
        let pp = &mut self.pfc.as_mut().expect("PFC is on").ports[port as usize];
        pp.stats.pauses_received += 1;
        if pp.paused.is_some() {
            return;
        }
        pp.paused = Some(now);
        loop {
            let ring = &self.wire[port as usize];
            let Some(&(arrive, _, q)) = ring.slots.back() else {
                break;
            };
            if ring.slots.len() <= ring.fixed(now) || q.kind() == PacketKind::Pfc {
                break;
            }
            let ser = self.ports.serialization(port, self.wire_bytes(&q));
            let start = arrive - delay - ser;
            if start <= now {
                break;
            }
            self.wire[port as usize].slots.pop_back();
            self.ports.unqueue_tail(port, ser, now);
            self.c.packet_hops -= 1;
            let switch_port = port >= self.fabric.hosts;
            let pp = &mut self.pfc.as_mut().expect("PFC is on").ports[port as usize];
            let local = if switch_port {
                let (s, local, _) = pp.departing.pop_back().expect("a departure per packet");
                debug_assert_eq!(s, start, "port {port}: departures out of step");
                local
            } else {
                0
            };
            pp.held.push_front((q, local));
            pp.held_ps += ser;
        }
    }

    /// A RESUME reaches `port`'s sender: its held packets go on the wire in order from now,
    /// and a NIC that became free meanwhile takes its next packet when they are through.
    fn resume(&mut self, port: u32) {
        let now = self.now;
        let pp = &mut self.pfc.as_mut().expect("PFC is on").ports[port as usize];
        pp.stats.resumes_received += 1;
        let Some(since) = pp.paused.take() else {
            return;
        };
        pp.stats.paused_ps += now - since;
        pp.held_ps = Time::ZERO;
        let mut held = std::mem::take(&mut pp.held);
        for (pkt, local) in held.drain(..) {
            let bytes = self.wire_bytes(&pkt);
            let Enqueue::Arrives(t) = self.ports.enqueue(port, bytes, now, None) else {
                unreachable!("an unbounded enqueue");
            };
            self.c.packet_hops += 1;
            self.push_wire(port, t, pkt, false);
            if port >= self.fabric.hosts {
                let start = t - self.ports.delay_ps() - self.ports.serialization(port, bytes);
                self.departs(port, start, local, bytes);
            }
        }
        let pfc = self.pfc.as_mut().expect("PFC is on");
        pfc.ports[port as usize].held = held;
        if port < self.fabric.hosts && std::mem::take(&mut pfc.parked[port as usize]) {
            let at = self.ports.stats[port as usize].busy_until.max(now);
            self.at_host(port, at, Event::NicFree { host: port });
        }
    }
}

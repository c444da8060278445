//! Egress ports: the queue discipline a packet meets when it is offered to a port (the data
//! buffer, trimming or dropping when full, strict priority for control packets, ECN marking
//! on arrival or at dequeue), and the wire it then waits on.

use super::multi_asic::Chassis;
use super::wire::{is_control, jump_queue, wire_bytes, Ring};
use super::{Event, Sim};
use crate::engine::rng::keyed_below;
use crate::engine::{EventQueue, Time};
use crate::net::{Backlog, Enqueue, Overflow, Packet, PacketKind, PendingMarks, PortStats};
use crate::transport::Nic;

/// `switch.ecn_at = "dequeue"`: whether fabric ports decide their marks when a packet's
/// last bit leaves, and the key of their coins ([`keyed_below`]). Each port's marks still
/// to decide are on its [`crate::net::PortStats`] line ([`PendingMarks`]).
///
/// Architecture Invariant: a port's undecided packets are data, FIFO among themselves, the
/// first at ring slot `next`; a mark is decided before anything changes the port's backlog
/// or its ring behind the packet, so it is the same whenever it is decided.
pub(super) struct DequeueMarks {
    pub(super) on: bool,
    key: u64,
}

impl DequeueMarks {
    pub(super) fn new(on: bool, seed: u64) -> Self {
        DequeueMarks {
            on,
            key: crate::engine::rng::draw_key(seed, "dequeue-marks"),
        }
    }
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
    // Always inlined: PFC's frames and resumes call it too, and an out-of-line call on every
    // hop cost 4% of the instructions with PFC off (callgrind, k = 8).
    #[inline(always)]
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
                self.post.waits(port);
            } else {
                self.queue.push_ticketed(
                    t,
                    self.tickets.port(ticket, port),
                    Event::Arrive { port },
                );
            }
        } else if control {
            let (ports, link, flows) = (&mut self.ports, &self.p.link, self.specs);
            let ser = ports.serialization(port, wire_bytes(&pkt, link, flows));
            let delay = ports.delay_ps();
            let at = jump_queue(wire, fixed, slot, ser, now, delay, |q| {
                ports.serialization(port, wire_bytes(q, link, flows))
            });
            if let Some(PortStats { marks: m, .. }) = self.ports.stats.get_mut(port as usize) {
                if m.undecided > 0 && at <= m.next as usize {
                    // It went ahead of the first undecided packet, which leaves `ser` later.
                    m.next += 1;
                    m.leaves += ser;
                }
            }
        } else {
            debug_assert!(
                wire.back().is_none_or(|b| b.0 <= t),
                "port {port}: a packet arriving at {t:?} queued behind one arriving at {:?}",
                wire.back().map(|b| b.0)
            );
            wire.push_back(slot);
        }
    }

    /// A switch offers a routed packet to its egress port `port`.
    #[inline]
    pub(super) fn switch_send(&mut self, port: u32, pkt: Packet) {
        self.offer(port, pkt, Discipline::Buffered);
    }

    /// Host `host` hands a packet to its NIC.
    #[inline]
    pub(super) fn nic_send(&mut self, host: u32, pkt: Packet) {
        let d = if self.p.host.nic == Nic::Fifo {
            Discipline::Buffered
        } else {
            Discipline::Unbuffered
        };
        let port = self.fabric.nic(host).port();
        if self.pfc.is_some() && self.hold(port, pkt, 0, d == Discipline::Buffered) {
            return;
        }
        self.offer(port, pkt, d);
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
        self.settle_marks(port);
        let control = self.priority(&pkt);
        let buffered = d == Discipline::Buffered;
        let limit = if buffered && !control {
            self.p.switch.buffer_bytes
        } else {
            None
        };
        let ecn = buffered && pkt.kind() == PacketKind::Data && self.p.switch.ecn.is_some();
        let at_dequeue = ecn && self.marks.on && !pkt.trimmed();
        let node = self.wire[port as usize].from;
        if ecn && !at_dequeue {
            let backlog = self.ports.backlog(port, self.now);
            self.mark_ecn(node, backlog, &mut pkt);
        }
        let bytes = self.wire_bytes(&pkt);
        match self.ports.enqueue(port, bytes, self.now, limit) {
            Enqueue::Arrives(t) => {
                if self.int.is_some() {
                    self.stamp(port, &pkt, bytes, t);
                }
                self.lb.on_transmit(port, bytes, self.now);
                self.c.packet_hops += 1;
                self.push_wire(port, t, pkt, control);
                if at_dequeue {
                    self.undecided_at_back(port, t);
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

    /// HPCC: packet `pkt` of `bytes` was accepted at port `port` and arrives at `t`: a
    /// switch port counts its bytes and stamps its data (the bytes ahead of it are those its
    /// serializer sends before it starts).
    #[cold]
    fn stamp(&mut self, port: u32, pkt: &Packet, bytes: u32, t: Time) {
        if self.wire[port as usize].from < self.fabric.hosts {
            return;
        }
        let start = t - self.ports.delay_ps() - self.ports.serialization(port, bytes);
        let ahead = self.ports.bytes_in(port, start.saturating_sub(self.now));
        let data =
            (pkt.kind() == PacketKind::Data && !pkt.trimmed()).then_some((pkt.flow, pkt.seq));
        let rate = self.ports.rate_of(port);
        let int = self.int.as_mut().expect("HPCC's telemetry");
        int.offered(port, bytes, data, start, ahead, rate);
    }

    /// `switch.ecn_at = "dequeue"`: the data packet just pushed to the back of `port`'s ring,
    /// arriving at `t`, waits for its mark.
    #[inline]
    pub(super) fn undecided_at_back(&mut self, port: u32, t: Time) {
        let back = self.wire[port as usize].slots.len() as u32 - 1;
        let delay = self.ports.delay_ps();
        let m = &mut self.ports.stats[port as usize].marks;
        if m.undecided == 0 {
            m.next = back;
            m.leaves = t - delay;
        }
        m.undecided += 1;
    }

    /// Whether `port` decides `pkt`'s mark at dequeue (as `offer` counts it): marks at
    /// dequeue, a buffered port (a switch's, or a FIFO NIC's), untrimmed data.
    pub(super) fn counts_mark(&self, port: u32, pkt: &Packet) -> bool {
        let buffered = port >= self.fabric.hosts || self.p.host.nic == Nic::Fifo;
        self.marks.on && buffered && pkt.kind() == PacketKind::Data && !pkt.trimmed()
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
        let ser = self.ports.serialization(port, self.wire_bytes(&q));
        if arrive - self.ports.delay_ps() - ser <= self.now {
            return false;
        }
        self.wire[port as usize].slots.pop_back();
        if self.marks.on {
            let m = &mut self.ports.stats[port as usize].marks;
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
    /// has left by now, in ring order, each by the data that waited behind it when it left
    /// (with trimming, the priority class right behind it is not data and is not counted).
    ///
    /// Lazily: this runs before anything changes the port's backlog or its ring behind those
    /// packets (an offer to the port, its head's arrival or shipping, a PAUSE, the run's end),
    /// so the backlog at a packet's leave time is still read from the port's state. The coin
    /// on the ramp is keyed by the port and the packet's number ([`keyed_below`]): a decision
    /// is the same whenever it is made.
    #[inline]
    pub(super) fn settle_marks(&mut self, port: u32) {
        if let Some(&PortStats { marks: m, .. }) = self.ports.stats.get(port as usize) {
            if self.marks.on && m.undecided > 0 && m.leaves <= self.now {
                self.decide_marks(port, m, self.now);
            }
        }
    }

    /// The marks of `port`'s packets that left by `by`.
    fn decide_marks(&mut self, port: u32, mut m: PendingMarks, by: Time) {
        let delay = self.ports.delay_ps();
        let priority = self.p.switch.overflow == Overflow::Trim;
        let ecn = self.p.switch.ecn.expect("dequeue marks need ECN");
        let pmax = self.p.switch.ecn_pmax_ppm;
        while m.undecided > 0 && m.leaves <= by {
            let i = m.next as usize;
            let ring = &self.wire[port as usize];
            let (arrive, low, pkt) = ring.slots[i];
            debug_assert!(!is_control(&pkt), "port {port}: slot {i} is not data");
            let leaves = arrive - delay;
            debug_assert_eq!(leaves, m.leaves, "port {port}: slot {i} moved");
            debug_assert!(
                self.ports.stats[port as usize].last_ps <= leaves,
                "port {port} changed after its packet left, before its mark was decided"
            );
            let mut behind = 0u64;
            let mut j = i + 1;
            while let Some((_, _, q)) = ring.slots.get(j).filter(|e| is_control(&e.2)) {
                if priority {
                    behind += self.wire_bytes(q) as u64;
                }
                j += 1;
            }
            let backlog = self.ports.backlog(port, leaves);
            let (key, ticket) = (self.marks.key, ring.ticket(low));
            if ecn_mark(ecn, pmax, backlog, behind, |n| {
                keyed_below(key, port as u64, ticket, n)
            }) {
                let mut pkt = pkt;
                self.set_ecn(&mut pkt);
                self.wire[port as usize].slots[i].2 = pkt;
            }
            m.undecided -= 1;
            m.next = j as u32;
            if m.undecided > 0 {
                m.leaves = self.wire[port as usize].slots[j].0 - delay;
            }
        }
        self.ports.stats[port as usize].marks = m;
    }

    /// Before `port`'s ring head arrives (or is shipped to another partition, which may be
    /// before the partition's clock reaches its last bit): the marks decided up to the
    /// head's last bit (its own among them, if it is data), and the head leaves the ring.
    #[inline]
    pub(super) fn head_leaves(&mut self, port: u32) {
        // Internal ports of a multi-ASIC switch (past the fabric's) decide no marks.
        let Some(&PortStats { marks: m, .. }) = self.ports.stats.get(port as usize) else {
            return;
        };
        if !self.marks.on || m.undecided == 0 {
            return;
        }
        let left = self.wire[port as usize].slots[0].0 - self.ports.delay_ps();
        if self.p.run.stop_ps.is_some_and(|stop| left > stop) {
            // Shipped to another partition, and the run stops before it leaves: neither its
            // mark nor those behind it (later still) are decided, as in one partition, where
            // the run's end leaves them undecided ([`Self::settle_all_marks`]).
            self.ports.stats[port as usize].marks.undecided = 0;
            return;
        }
        if m.leaves <= left {
            self.decide_marks(port, m, left);
        }
        let m = &mut self.ports.stats[port as usize].marks;
        if m.undecided > 0 {
            debug_assert!(m.next > 0, "port {port}: its head leaves undecided");
            m.next -= 1;
        }
    }

    /// The run's end at `at`: the marks of the packets that left by then.
    pub(super) fn settle_all_marks(&mut self, at: Time) {
        if !self.marks.on {
            return;
        }
        for port in 0..self.ports.stats.len() {
            let m = self.ports.stats[port].marks;
            if m.undecided > 0 && m.leaves <= at {
                self.decide_marks(port as u32, m, at);
            }
        }
    }

    /// ECN: mark a data packet by the `backlog` bytes it finds at node `node` (whose coin it
    /// tosses on the ramp).
    #[inline]
    pub(super) fn mark_ecn(&mut self, node: u32, backlog: Backlog, pkt: &mut Packet) {
        let Some(ecn) = self.p.switch.ecn else {
            return;
        };
        let coin = &mut self.coins[node as usize];
        if ecn_mark(ecn, self.p.switch.ecn_pmax_ppm, backlog, 0, |n| {
            coin.below(n)
        }) {
            self.set_ecn(pkt);
        }
    }

    #[inline]
    fn set_ecn(&mut self, pkt: &mut Packet) {
        if !pkt.ecn() {
            pkt.mark_ecn();
            self.c.ecn_marks += 1;
        }
    }
}

/// Whether a data packet is marked that finds `backlog` less `behind` bytes (saturating)
/// waiting: a RED-like ramp from 0 at `kmin` to `pmax` (millionths) just below `kmax`, every
/// packet from `kmax` on (`coin(n)`: uniform in `0..n`, tossed only on the ramp). Only a
/// packet on the ramp reads the backlog's bytes; the rest compare.
#[inline]
fn ecn_mark(
    (kmin, kmax): (u64, u64),
    pmax_ppm: u64,
    backlog: Backlog,
    behind: u64,
    coin: impl FnOnce(u64) -> u64,
) -> bool {
    // waiting >= k, for waiting = bytes - behind saturating: k = 0, or bytes >= k + behind.
    let at_least = |k: u64| k == 0 || backlog.at_least(k + behind);
    if at_least(kmax) {
        true
    } else if at_least(kmin + 1) {
        let waiting = backlog.bytes() - behind;
        if pmax_ppm == PPM {
            coin(kmax - kmin) < waiting - kmin
        } else {
            coin((kmax - kmin) * PPM) < (waiting - kmin) * pmax_ppm
        }
    } else {
        false
    }
}

/// A probability of 1 in millionths.
const PPM: u64 = 1_000_000;

//! The switch build as the event loop sees it: the ideal switch (one ASIC, nothing between
//! the routing decision and the egress port) or multi-ASIC switches ([`Asics`]), whose
//! internal ports (inter-ASIC links, fabric up- and downlinks, Fastroute's hold FIFOs)
//! follow the fabric's ports in the wire array. The simulator is generic over [`Chassis`],
//! so the ideal switch's loop has no multi-ASIC branch, and the multi-ASIC code always has
//! its state: no internal port exists without it.
//!
//! Architecture Invariant: a [`Chassis`] never sees the simulator. It answers what a packet
//! does next ([`Hop`], [`Next`], a hold) and keeps its own internal state; the event loop
//! (`Sim::forward`, `Sim::cross`) turns the answer into packets on wires.

use std::convert::Infallible;

use super::Sim;
use crate::engine::Time;
use crate::net::asic::{AsicStats, Asics, Hop, Internal, Link};
use crate::net::{Backlog, Fabric, Packet, PacketKind};
use crate::params::SimParams;

/// What a packet does once it reached the end of an internal port.
pub(super) enum Next<L> {
    /// Out of a hold FIFO: the switch routes it now, as arriving at `in_local`.
    Forward { sw: u32, in_local: u32 },
    /// On into another internal link (a fabric downlink after the fabric).
    Cross { link: L, gin: u32, gout: u32 },
    /// To its egress port.
    Send { gout: u32 },
}

/// A switch build.
pub(super) trait Chassis: Sized {
    /// What an internal port is ([`Infallible`] for the ideal switch: it has none).
    type Internal: Copy + Send;
    /// An internal link a packet may be offered to ([`Infallible`] for the ideal switch).
    type Link: Copy;
    /// The ideal switch: nothing between the routing decision and the egress port (the
    /// event loop then skips the questions below, and the packet's size they take).
    const IDEAL: bool;

    /// The internal ports, in wire order after the fabric's.
    fn internal_ports(&self) -> impl Iterator<Item = Self::Internal> + '_;

    /// How a packet of `bytes` routed at switch `sw` from port `gin` reaches its egress
    /// port `gout`: directly, or across an internal link first.
    fn egress(&mut self, sw: u32, gin: u32, gout: u32, bytes: u32) -> Hop<Self::Link>;

    /// A packet of `bytes` reaches switch port `gin` at `now`: if it waits in the port's hold
    /// FIFO instead of being forwarded now, the FIFO's wire port and when it leaves it.
    /// `idle(id)`: that FIFO's wire holds nothing.
    fn hold(
        &mut self,
        gin: u32,
        bytes: u32,
        now: Time,
        idle: impl FnOnce(u32) -> bool,
    ) -> Option<(u32, Time)>;

    /// A packet of `bytes` reached the end of internal port `kind` at `now`: what it does
    /// next.
    fn internal_arrival(&mut self, kind: Self::Internal, bytes: u32, now: Time)
        -> Next<Self::Link>;

    /// The bytes waiting at internal link `link` at `now` (for its ECN mark).
    fn link_backlog(&self, link: Self::Link, now: Time) -> Backlog;

    /// Offers a packet of `bytes` to internal link `link` (held to its buffer if
    /// `buffered`): when it reaches the link's end and its wire port, or `None` if the buffer
    /// has no room.
    fn enqueue_link(
        &mut self,
        link: Self::Link,
        gin: u32,
        gout: u32,
        bytes: u32,
        now: Time,
        buffered: bool,
    ) -> Option<(Time, u32)>;

    /// A packet dropped inside a switch.
    fn dropped_inside(&mut self);

    /// Fastroute's controller reads the traffic matrices of the switches `owns` selects;
    /// returns whether one has a mapping to apply.
    fn control(&mut self, p: &SimParams, fabric: &Fabric, owns: impl Fn(usize) -> bool) -> bool;

    /// Applies the mappings the controller computed at `now`; each PAUSEd upstream port goes
    /// to `pauses` with the time its sender may resume (it may belong to another partition).
    fn apply(&mut self, p: &SimParams, fabric: &Fabric, now: Time, pauses: &mut Vec<(u32, Time)>);

    /// Closes the internal ports' statistics at `end`.
    fn finish(&mut self, end: Time);

    /// Adds another partition's counts (of its own switches).
    fn absorb(&mut self, other: Self);

    fn into_stats(self) -> Option<AsicStats>;
}

/// One ASIC per switch.
pub(super) struct Ideal;

impl Chassis for Ideal {
    type Internal = Infallible;
    type Link = Infallible;
    const IDEAL: bool = true;

    fn internal_ports(&self) -> impl Iterator<Item = Infallible> + '_ {
        std::iter::empty()
    }

    #[inline(always)]
    fn egress(&mut self, _: u32, _: u32, _: u32, _: u32) -> Hop<Infallible> {
        Hop::Direct
    }

    #[inline(always)]
    fn hold(
        &mut self,
        _: u32,
        _: u32,
        _: Time,
        _: impl FnOnce(u32) -> bool,
    ) -> Option<(u32, Time)> {
        None
    }

    fn internal_arrival(&mut self, kind: Infallible, _: u32, _: Time) -> Next<Infallible> {
        match kind {}
    }

    fn link_backlog(&self, link: Infallible, _: Time) -> Backlog {
        match link {}
    }

    fn enqueue_link(
        &mut self,
        link: Infallible,
        _: u32,
        _: u32,
        _: u32,
        _: Time,
        _: bool,
    ) -> Option<(Time, u32)> {
        match link {}
    }

    fn dropped_inside(&mut self) {
        unreachable!("an ideal switch has no internal link to drop at")
    }

    /// Ideal switches have no circuit layer: nothing calls its controller.
    fn control(&mut self, _: &SimParams, _: &Fabric, _: impl Fn(usize) -> bool) -> bool {
        false
    }

    fn apply(&mut self, _: &SimParams, _: &Fabric, _: Time, _: &mut Vec<(u32, Time)>) {}

    fn finish(&mut self, _: Time) {}

    fn absorb(&mut self, _: Self) {}

    fn into_stats(self) -> Option<AsicStats> {
        None
    }
}

impl Chassis for Asics {
    type Internal = Internal;
    type Link = Link;
    const IDEAL: bool = false;

    fn internal_ports(&self) -> impl Iterator<Item = Internal> + '_ {
        self.internal_kinds().iter().copied()
    }

    #[inline(never)]
    fn egress(&mut self, sw: u32, gin: u32, gout: u32, bytes: u32) -> Hop<Link> {
        self.route(sw, gin, gout, bytes)
    }

    /// Fastroute: a packet arriving at a dark moved port, or behind packets still held
    /// there, waits in the port's hold FIFO.
    #[inline(never)]
    fn hold(
        &mut self,
        gin: u32,
        bytes: u32,
        now: Time,
        idle: impl FnOnce(u32) -> bool,
    ) -> Option<(u32, Time)> {
        let (id, busy) = self.hold_of(gin, now)?;
        if !busy && idle(id) {
            self.hold_idle(gin);
            return None;
        }
        Some((id, self.enqueue_hold(gin, bytes, now)))
    }

    /// The egress ASIC (or the fabric's downlink) after a link, or the ingress ASIC after
    /// waiting in a moved port's hold FIFO.
    #[inline(never)]
    fn internal_arrival(&mut self, kind: Internal, bytes: u32, now: Time) -> Next<Link> {
        match kind {
            Internal::Hold { port } => {
                let (sw, in_local) = self.owner(port);
                Next::Forward { sw, in_local }
            }
            Internal::Link(link) => match self.link_arrival(link) {
                (gout, gin, Some(link)) => Next::Cross { link, gin, gout },
                (gout, _, None) => {
                    // Across: counted now, so a packet dropped on the way is not.
                    self.count_crossed(bytes, now);
                    Next::Send { gout }
                }
            },
        }
    }

    fn link_backlog(&self, link: Link, now: Time) -> Backlog {
        Asics::link_backlog(self, link, now)
    }

    fn enqueue_link(
        &mut self,
        link: Link,
        gin: u32,
        gout: u32,
        bytes: u32,
        now: Time,
        buffered: bool,
    ) -> Option<(Time, u32)> {
        Asics::enqueue_link(self, link, gin, gout, bytes, now, buffered).map(|t| (t, link.id))
    }

    fn dropped_inside(&mut self) {
        self.stats.drops += 1;
    }

    fn control(&mut self, p: &SimParams, fabric: &Fabric, owns: impl Fn(usize) -> bool) -> bool {
        // Only Fastroute (a circuit layer) runs a controller.
        p.arch
            .circuit
            .as_ref()
            .is_some_and(|c| Asics::control(self, c, fabric, owns))
    }

    fn apply(&mut self, p: &SimParams, fabric: &Fabric, now: Time, pauses: &mut Vec<(u32, Time)>) {
        if let Some(c) = &p.arch.circuit {
            // PAUSE: the sender starts nothing that would reach the dark port.
            Asics::apply(self, c, fabric, now, |feeder, resume| {
                pauses.push((feeder, resume))
            });
        }
    }

    fn finish(&mut self, end: Time) {
        Asics::finish(self, end);
    }

    fn absorb(&mut self, other: Self) {
        self.stats.absorb(&other.stats);
    }

    fn into_stats(self) -> Option<AsicStats> {
        Some(self.stats)
    }
}

impl<A: Chassis> Sim<'_, A> {
    /// A packet reached switch `sw` at local port `in_local`: unless it waits in the port's
    /// hold FIFO, the switch routes it on.
    #[inline(always)]
    pub(super) fn switch_arrival(&mut self, sw: u32, in_local: u32, pkt: Packet) {
        if self.pfc.is_some() {
            return self.pfc_arrival(sw, in_local, pkt);
        }
        if A::IDEAL {
            return self.forward::<false>(sw, in_local, pkt);
        }
        let gin = self.fabric.switches[sw as usize].port_base + in_local;
        let (bytes, now, wire) = (self.wire_bytes(&pkt), self.now, &self.wire);
        match self
            .asic
            .hold(gin, bytes, now, |id| wire[id as usize].slots.is_empty())
        {
            Some((id, t)) => self.push_wire(id, t, pkt, false),
            None => self.forward::<false>(sw, in_local, pkt),
        }
    }

    /// A packet reached the end of an internal port.
    pub(super) fn internal_arrival(&mut self, kind: A::Internal, pkt: Packet) {
        let bytes = self.wire_bytes(&pkt);
        match self.asic.internal_arrival(kind, bytes, self.now) {
            Next::Forward { sw, in_local } => self.forward::<false>(sw, in_local, pkt),
            Next::Cross { link, gin, gout } => self.cross(link, gin, gout, pkt),
            Next::Send { gout } => self.switch_send(gout, pkt),
        }
    }

    /// Takes a routed packet to its egress port `gout`, across an internal link first if
    /// the switch's build says so; through the switch's MMU with `PFC` (ideal switches).
    #[inline(always)]
    pub(super) fn egress<const PFC: bool>(&mut self, sw: u32, gin: u32, gout: u32, pkt: Packet) {
        if A::IDEAL {
            if PFC {
                return self.pfc_send(sw, gin, gout, pkt);
            }
            return self.switch_send(gout, pkt);
        }
        let bytes = self.wire_bytes(&pkt);
        match self.asic.egress(sw, gin, gout, bytes) {
            Hop::Direct => self.switch_send(gout, pkt),
            Hop::Internal(link) => self.cross(link, gin, gout, pkt),
        }
    }

    /// Offers a packet to the internal link `link` (inter-ASIC link or fabric).
    #[inline(never)]
    fn cross(&mut self, link: A::Link, gin: u32, gout: u32, mut pkt: Packet) {
        // As at egress ports: the priority class bypasses the buffer and a data packet that
        // does not fit is cut to its header (with trimming) or dropped.
        let control = self.priority(&pkt);
        if pkt.kind() == PacketKind::Data && self.p.switch.ecn.is_some() {
            let backlog = self.asic.link_backlog(link, self.now);
            self.mark_ecn(self.wire[gout as usize].from, backlog, &mut pkt);
        }
        let bytes = self.wire_bytes(&pkt);
        match self
            .asic
            .enqueue_link(link, gin, gout, bytes, self.now, !control)
        {
            Some((t, id)) => {
                self.c.packet_hops += 1;
                // Internal links are FIFO: strict priority is modelled at egress ports.
                self.push_wire(id, t, pkt, false);
            }
            None => match self.cut_or_drop(pkt) {
                Some(header) => self.cross(link, gin, gout, header),
                None => self.asic.dropped_inside(),
            },
        }
    }

    /// Fastroute's controller reads this partition's switches' traffic matrices; returns
    /// whether one has a mapping to apply.
    pub(super) fn control(&mut self) -> bool {
        let (owner, me, hosts) = (self.owner, self.me, self.fabric.hosts as usize);
        self.asic
            .control(self.p, &self.fabric, |sw| owner[hosts + sw] == me)
    }

    /// Applies the mappings the controller computed (PAUSEs to `pauses`).
    pub(super) fn apply(&mut self, pauses: &mut Vec<(u32, Time)>) {
        self.asic.apply(self.p, &self.fabric, self.now, pauses);
    }
}

//! The switch build as the event loop sees it: the ideal switch (one ASIC, nothing between
//! the routing decision and the egress port) or multi-ASIC switches ([`Asics`]), whose
//! internal ports (inter-ASIC links, fabric up- and downlinks, Fastroute's hold FIFOs)
//! follow the fabric's ports in the wire array. The simulator is generic over [`Chassis`],
//! so the ideal switch's loop has no multi-ASIC branch, and the multi-ASIC code always has
//! its state: no internal port exists without it.

use std::convert::Infallible;

use super::Sim;
use crate::engine::Time;
use crate::net::asic::{AsicStats, Asics, Hop, Internal, Link};
use crate::net::{Packet, PacketKind};

/// A switch build.
pub(super) trait Chassis: Sized {
    /// What an internal port is ([`Infallible`] for the ideal switch: it has none).
    type Internal: Copy + Send;

    /// The internal ports, in wire order after the fabric's.
    fn internal_ports(&self) -> impl Iterator<Item = Self::Internal> + '_;

    /// Takes a routed packet to its egress port `gout`, across ASICs if it entered at port
    /// `gin` on another one.
    fn egress(sim: &mut Sim<'_, Self>, sw: u32, gin: u32, gout: u32, p: Packet);

    /// A packet reaches switch `sw` at local port `in_local`: returns whether it waits in
    /// the port's hold FIFO instead of being forwarded now.
    fn held(sim: &mut Sim<'_, Self>, sw: u32, in_local: u32, p: Packet) -> bool;

    /// A packet reached the end of an internal port.
    fn internal_arrival(sim: &mut Sim<'_, Self>, kind: Self::Internal, p: Packet);

    /// Fastroute's controller reads the traffic matrices of the partition's switches;
    /// returns whether one has a mapping to apply.
    fn control(sim: &mut Sim<'_, Self>) -> bool;

    /// Applies the mappings the controller computed; each PAUSEd upstream port goes to
    /// `pauses` with the time its sender may resume (it may belong to another partition).
    fn apply(sim: &mut Sim<'_, Self>, pauses: &mut Vec<(u32, Time)>);

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

    fn internal_ports(&self) -> impl Iterator<Item = Infallible> + '_ {
        std::iter::empty()
    }

    #[inline(always)]
    fn egress(sim: &mut Sim<'_, Self>, _: u32, _: u32, gout: u32, p: Packet) {
        sim.switch_send(gout, p);
    }

    #[inline(always)]
    fn held(_: &mut Sim<'_, Self>, _: u32, _: u32, _: Packet) -> bool {
        false
    }

    fn internal_arrival(_: &mut Sim<'_, Self>, kind: Infallible, _: Packet) {
        match kind {}
    }

    /// Ideal switches have no circuit layer: nothing calls its controller.
    fn control(_: &mut Sim<'_, Self>) -> bool {
        false
    }

    fn apply(_: &mut Sim<'_, Self>, _: &mut Vec<(u32, Time)>) {}

    fn finish(&mut self, _: Time) {}

    fn absorb(&mut self, _: Self) {}

    fn into_stats(self) -> Option<AsicStats> {
        None
    }
}

impl Chassis for Asics {
    type Internal = Internal;

    fn internal_ports(&self) -> impl Iterator<Item = Internal> + '_ {
        self.internal_kinds().iter().copied()
    }

    #[inline(never)]
    fn egress(sim: &mut Sim<'_, Self>, sw: u32, gin: u32, gout: u32, p: Packet) {
        match sim.asic.route(sw, gin, gout, sim.wire_bytes(&p)) {
            Hop::Direct => sim.switch_send(gout, p),
            Hop::Internal(link) => cross(sim, link, gin, gout, p),
        }
    }

    /// Fastroute: a packet arriving at a dark moved port, or behind packets still held
    /// there, waits in the port's hold FIFO.
    #[inline(never)]
    fn held(sim: &mut Sim<'_, Self>, sw: u32, in_local: u32, pkt: Packet) -> bool {
        let gin = sim.fabric.switches[sw as usize].port_base + in_local;
        let Some((id, busy)) = sim.asic.hold_of(gin, sim.now) else {
            return false;
        };
        if !busy && sim.wire[id as usize].slots.is_empty() {
            sim.asic.hold_idle(gin);
            return false;
        }
        let t = sim.asic.enqueue_hold(gin, sim.wire_bytes(&pkt), sim.now);
        sim.push_wire(id, t, pkt, false);
        true
    }

    /// The egress ASIC (or the fabric's downlink) after a link, or the ingress ASIC after
    /// waiting in a moved port's hold FIFO.
    #[inline(never)]
    fn internal_arrival(sim: &mut Sim<'_, Self>, kind: Internal, pkt: Packet) {
        match kind {
            Internal::Hold { port } => {
                let (sw, in_local) = sim.asic.owner(port);
                sim.forward(sw, in_local, pkt);
            }
            Internal::Link(link) => match sim.asic.link_arrival(link) {
                (gout, gin, Some(down)) => cross(sim, down, gin, gout, pkt),
                (gout, _, None) => {
                    // Across: counted now, so a packet dropped on the way is not.
                    sim.asic.count_crossed(sim.wire_bytes(&pkt), sim.now);
                    sim.switch_send(gout, pkt)
                }
            },
        }
    }

    fn control(sim: &mut Sim<'_, Self>) -> bool {
        // Only Fastroute (a circuit layer) runs a controller.
        let Some(c) = &sim.p.arch.circuit else {
            return false;
        };
        let (owner, me, hosts) = (sim.owner, sim.me, sim.fabric.hosts as usize);
        sim.asic
            .control(c, &sim.fabric, |sw| owner[hosts + sw] == me)
    }

    fn apply(sim: &mut Sim<'_, Self>, pauses: &mut Vec<(u32, Time)>) {
        let Some(c) = &sim.p.arch.circuit else {
            return;
        };
        // PAUSE: the sender starts nothing that would reach the dark port.
        sim.asic.apply(c, &sim.fabric, sim.now, |feeder, resume| {
            pauses.push((feeder, resume))
        });
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

/// Offers a packet to the internal link `link` (inter-ASIC link or fabric).
#[inline(never)]
fn cross(sim: &mut Sim<'_, Asics>, link: Link, gin: u32, gout: u32, mut pkt: Packet) {
    // As at egress ports: the priority class bypasses the buffer and a data packet that does
    // not fit is cut to its header (with trimming) or dropped.
    let control = sim.priority(&pkt);
    if pkt.kind() == PacketKind::Data && sim.p.switch.ecn.is_some() {
        let backlog = sim.asic.link_backlog_bytes(link, sim.now);
        sim.mark_ecn(sim.from_node[gout as usize], backlog, &mut pkt);
    }
    let bytes = sim.wire_bytes(&pkt);
    match sim
        .asic
        .enqueue_link(link, gin, gout, bytes, sim.now, !control)
    {
        Some(t) => {
            sim.c.packet_hops += 1;
            // Internal links are FIFO: strict priority is modelled at egress ports.
            sim.push_wire(link.id, t, pkt, false);
        }
        None => match sim.cut_or_drop(pkt) {
            Some(header) => cross(sim, link, gin, gout, header),
            None => sim.asic.stats.drops += 1,
        },
    }
}

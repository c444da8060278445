//! CONGA (Alizadeh et al., SIGCOMM 2014) for 2-tier leaf-spine fabrics.
//!
//! - Every leaf uplink and spine downlink keeps a DRE: a byte counter that decays
//!   exponentially with time constant `TAU`, quantized to 3 bits against what the link can
//!   carry in `TAU`.
//! - A packet leaving its source leaf carries the uplink it took (`tag`) and that uplink's
//!   metric (`ce`); the spine raises `ce` to its downlink's metric if higher. The destination
//!   leaf stores `ce` as the congestion *from* that source leaf over that uplink, and
//!   piggybacks one stored entry (round-robin) on every packet it sends back to that leaf,
//!   which stores it as the congestion *to* the destination.
//! - Flowlets: a flow's packets keep their uplink until the flow pauses for longer than
//!   `FLOWLET_GAP`; a new flowlet takes the uplink minimizing
//!   max(local DRE, congestion to the destination leaf), ties at random.

use crate::engine::{Rng, Time};
use crate::net::{Fabric, Packet};

/// DRE time constant.
const TAU_PS: Time = Time::from_us(1);
/// Idle gap that starts a new flowlet.
const FLOWLET_GAP_PS: Time = Time::from_us(1);
/// Flowlet table slots per leaf (flows hash into them).
const FLOWLET_SLOTS: usize = 4096;

#[derive(Clone, Copy, Default)]
struct Flowlet {
    uplink: u8,
    last_ps: Time,
    used: bool,
}

pub struct Conga {
    leaves: usize,
    uplinks: usize,
    /// DRE per global port: (bytes, last update).
    dre: Vec<(f64, Time)>,
    /// Bytes a port carries in TAU.
    capacity_bytes: f64,
    /// [leaf][other leaf][uplink]: congestion to / from the other leaf.
    to_leaf: Vec<u8>,
    from_leaf: Vec<u8>,
    /// [leaf][other leaf]: next `from_leaf` entry to feed back.
    feedback_next: Vec<u8>,
    flowlets: Vec<Flowlet>,
    /// Per leaf: its draws among equally congested uplinks.
    rng: Vec<Rng>,
}

impl Conga {
    pub fn new(fabric: &Fabric, seed: u64) -> Self {
        let leaves = fabric.edge_keys as usize;
        let uplinks = fabric.uplinks_of(crate::net::Tier::Edge) as usize;
        Self {
            leaves,
            uplinks,
            dre: vec![(0.0, Time::ZERO); fabric.ports()],
            capacity_bytes: Time::bytes_per_ps(fabric.rate_bps) * TAU_PS.as_ps_f64(),
            to_leaf: vec![0; leaves * leaves * uplinks],
            from_leaf: vec![0; leaves * leaves * uplinks],
            feedback_next: vec![0; leaves * leaves],
            flowlets: vec![Flowlet::default(); leaves * FLOWLET_SLOTS],
            rng: Rng::per_node(seed, "conga", leaves),
        }
    }

    fn decayed(&self, port: u32, now: Time) -> f64 {
        let (x, t) = self.dre[port as usize];
        x * (-(now - t).as_ps_f64() / TAU_PS.as_ps_f64()).exp()
    }

    /// The 3-bit congestion metric of `port` at `now`.
    pub fn metric(&self, port: u32, now: Time) -> u8 {
        (8.0 * self.decayed(port, now) / self.capacity_bytes).min(7.0) as u8
    }

    /// A packet of `bytes` leaves `port`.
    pub fn on_transmit(&mut self, port: u32, bytes: u32, now: Time) {
        let x = self.decayed(port, now) + bytes as f64;
        self.dre[port as usize] = (x, now);
    }

    /// Source leaf: the uplink (index) for `pkt`, headed to leaf `dst_leaf`; stamps the
    /// packet's CONGA fields. `first_up` is the leaf's first uplink port.
    pub fn at_source_leaf(
        &mut self,
        leaf: u32,
        dst_leaf: u32,
        first_up: u32,
        flow_hash: u64,
        pkt: &mut Packet,
        now: Time,
    ) -> u32 {
        let (l, d, w) = (leaf as usize, dst_leaf as usize, self.uplinks);
        let slot = l * FLOWLET_SLOTS
            + (crate::engine::rng::splitmix64(flow_hash) as usize % FLOWLET_SLOTS);
        let f = self.flowlets[slot];
        let uplink = if f.used && now - f.last_ps <= FLOWLET_GAP_PS {
            f.uplink as u32
        } else {
            let mut best = (u8::MAX, 0u32, 0u64);
            for u in 0..w {
                let c = self
                    .metric(first_up + u as u32, now)
                    .max(self.to_leaf[(l * self.leaves + d) * w + u]);
                if c < best.0 {
                    best = (c, u as u32, 1);
                } else if c == best.0 {
                    best.2 += 1;
                    if self.rng[l].below(best.2) == 0 {
                        best.1 = u as u32;
                    }
                }
            }
            best.1
        };
        self.flowlets[slot] = Flowlet {
            uplink: uplink as u8,
            last_ps: now,
            used: true,
        };
        pkt.conga.tag = uplink as u8;
        pkt.conga.set_ce(self.metric(first_up + uplink, now));
        // Piggyback one entry of what this leaf knows about traffic from `dst_leaf`.
        let next = &mut self.feedback_next[l * self.leaves + d];
        pkt.conga.fb_tag = *next;
        pkt.conga
            .set_fb_metric(self.from_leaf[(l * self.leaves + d) * w + *next as usize]);
        *next = ((*next as usize + 1) % w) as u8;
        uplink
    }

    /// Spine: the packet leaves by downlink `port`.
    pub fn at_spine(&self, port: u32, pkt: &mut Packet, now: Time) {
        let ce = pkt.conga.ce().max(self.metric(port, now));
        pkt.conga.set_ce(ce);
    }

    /// Destination leaf: a packet from `src_leaf` arrived over the spines.
    pub fn at_destination_leaf(&mut self, leaf: u32, src_leaf: u32, pkt: &Packet) {
        let (l, s, w) = (leaf as usize, src_leaf as usize, self.uplinks);
        let c = pkt.conga;
        self.from_leaf[(l * self.leaves + s) * w + c.tag as usize] = c.ce();
        self.to_leaf[(l * self.leaves + s) * w + c.fb_tag as usize] = c.fb_metric();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::{PacketKind, TopologySpec};

    fn packet() -> Packet {
        Packet::new(0, 0, PacketKind::Data, 0)
    }

    #[test]
    fn dre_rises_with_traffic_and_decays() {
        let fabric = Fabric::new(
            &TopologySpec::LeafSpine {
                leaves: 2,
                hosts_per_leaf: 2,
                uplinks: 2,
            },
            800_000_000_000,
            Time::from_ps(1),
        );
        let mut c = Conga::new(&fabric, 1);
        for i in 0..40 {
            c.on_transmit(7, 4160, Time::from_ps(i * 5_200));
        }
        assert_eq!(
            c.metric(7, Time::from_ps(40 * 5_200)),
            7,
            "a saturated link"
        );
        assert!(
            c.metric(7, Time::from_ps(40 * 5_200) + 3 * TAU_PS) < 2,
            "decays within a few TAU"
        );
    }

    #[test]
    fn flowlets_stick_then_move_to_the_least_congested_uplink() {
        let fabric = Fabric::new(
            &TopologySpec::LeafSpine {
                leaves: 2,
                hosts_per_leaf: 2,
                uplinks: 4,
            },
            800_000_000_000,
            Time::from_ps(1),
        );
        let mut c = Conga::new(&fabric, 1);
        let first_up = fabric.switches[0].port_base + fabric.switches[0].down;
        let u0 = c.at_source_leaf(0, 1, first_up, 42, &mut packet(), Time::ZERO);
        // Load every uplink but one; within the gap the flowlet keeps its uplink.
        let free = (u0 + 1) % 4;
        for u in (0..4).filter(|&u| u != free) {
            for i in 0..40 {
                c.on_transmit(first_up + u, 4160, Time::from_ps(i * 100));
            }
        }
        assert_eq!(
            c.at_source_leaf(0, 1, first_up, 42, &mut packet(), Time::from_ps(4_000)),
            u0
        );
        // After an idle gap the new flowlet takes the free uplink.
        let later = Time::from_ps(4_000 + 1) + FLOWLET_GAP_PS;
        assert_eq!(
            c.at_source_leaf(0, 1, first_up, 42, &mut packet(), later),
            free
        );
    }
}

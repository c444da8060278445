//! The switch: how a switch picks the egress port of a packet, in one place
//! ([`SwitchLb::egress`]). In a fat tree the way down is unique (Ofan paper section 3.1), so
//! the choice is among the uplinks toward the destination's key: a source-routed packet's
//! own up path if it is still valid, else the switch's scheme. CONGA also reads and stamps
//! the packet's overlay fields on its way down.
//!
//! [`SwitchLbKind`] names a scheme (scenario names: `ALL`, `name`); at run time each scheme
//! the switches run is a `Scheme` carrying its own state (RR's counters, AR's levels, Ofan's
//! pointers, CONGA's tables), so no scheme runs without its state, and `SwitchLb::choose` is
//! the one dispatch over them. Adding a stateless scheme: a variant of both enums, its name,
//! and one arm of that match (its logic inline or in a file of its own under `lb/`).

mod conga;
pub mod deploy;
mod host;
mod hpcc;
mod ofan;

pub use conga::Conga;
pub use deploy::{Deployment, Strategy};
pub use host::{HostLb, HostLbKind};
pub use hpcc::HpccEcmp;

pub use ofan::{OfanPointers, PortOrders};

use crate::engine::{Rng, Time};
use crate::hw::{CycleStats, SwitchCycles};
pub use crate::net::ALL_UPLINKS;
use crate::net::{Fabric, Failures, Packet, PacketKind, Ports, Route, Tier};

named_enum! {
    /// The switch-side schemes, by their scenario names.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum SwitchLbKind {
        /// Hash of the flow (and direction) with a per-switch salt.
        Ecmp => "ecmp",
        /// Random Switch Queue: a uniformly random uplink per packet.
        Rsq => "rsq",
        /// SIMPLE RR: one round-robin counter per switch (and size class) shared by all
        /// destinations.
        Rr => "rr",
        /// Join the shortest queue (ties at random).
        Jsq => "jsq",
        /// Adaptive routing on quantized queue levels (htsim's switch AR).
        Ar => "ar",
        /// pOfan: Ofan with one pointer per ingress pipe.
        Pofan => "pofan",
        /// Ofan: per-destination rotation pointers shared by every ingress port.
        Ofan => "ofan",
        /// CONGA (leaf-spine only): flowlets on leaf-to-leaf congestion feedback.
        Conga => "conga",
    }
}

/// AR's queue-level thresholds as fractions of the buffer (htsim's fat-tree switch).
const AR_LEVELS: [f64; 3] = [0.05, 0.10, 0.20];
/// Buffer that AR's levels refer to when buffers are unbounded (the Ofan default buffer).
pub const AR_REFERENCE_BUFFER_BYTES: u64 = 800_000;

/// What a switch sees of the network when it picks an egress port.
#[derive(Clone, Copy)]
pub struct View<'a> {
    pub fabric: &'a Fabric,
    /// Every flow's `[sender, receiver]` (a packet's source: [`Packet::src`]).
    pub ends: &'a [[u32; 2]],
    pub ports: &'a Ports,
    pub failures: Option<&'a Failures>,
    pub now: Time,
}

impl View<'_> {
    /// Uplinks of `sw` valid toward `key`: on a shortest path where the fabric is not a
    /// Clos, alive under failures (a Clos only), else all.
    #[inline]
    fn valid_uplinks(&self, sw: u32, key: u32) -> u64 {
        match self.failures {
            Some(f) => f.valid(sw, key),
            None => self.fabric.next_hops(sw, key),
        }
    }
}

/// What the scheme needs to know about one packet at one switch.
#[derive(Clone, Copy, Debug)]
struct Decision {
    sw: u32,
    /// Ofan key: destination edge (edge switches) or pod (aggregation switches).
    key: u32,
    kind: PacketKind,
    /// Local index of the port the packet came in on (pOfan's pipe).
    in_local: u32,
    /// Per-flow hash input for ECMP and CONGA's flowlets (flow, direction, host entropy).
    flow_hash: u64,
    /// Bitmask of the uplinks the packet may take ([`ALL_UPLINKS`] without failures).
    valid: u64,
}

/// The `n`-th set bit of `mask` (counting from 0).
#[inline]
fn nth_set_bit(mut mask: u64, n: u32) -> u32 {
    for _ in 0..n {
        mask &= mask - 1;
    }
    mask.trailing_zeros()
}

named_enum! {
    /// How ECMP hashes a flow onto an uplink (`switch.ecmp_hash`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum EcmpHash {
        /// fabsim's: the flow, its entropy and the packet's direction, salted by the seed.
        Fabsim => "fabsim",
        /// HPCC's ns-3's: MurmurHash3 of the addresses and ports, seeded by the switch's node
        /// id, over the next hops in node-id order.
        HpccNs3 => "hpcc-ns3",
    }
}

/// ECMP's uplink for packet `p` (described by `d`) among the `count` uplinks set in `valid`
/// (`u64::MAX`: all): fabsim's hash salted by the run, or HPCC's ns-3's.
#[inline]
fn ecmp(
    hpcc: Option<&HpccEcmp>,
    salt: u64,
    d: &Decision,
    p: &Packet,
    valid: u64,
    count: u32,
) -> u32 {
    let valid = (valid != u64::MAX).then_some(valid);
    if let Some(hpcc) = hpcc {
        let ack = d.kind != PacketKind::Data;
        return hpcc.pick(d.sw, p.flow, p.entropy, ack, valid, count);
    }
    let h = crate::engine::rng::splitmix64(d.flow_hash ^ salt ^ d.sw as u64);
    let i = ((h as u128 * count as u128) >> 64) as u32;
    valid.map_or(i, |v| nth_set_bit(v, i))
}

/// A scheme some switches run, with its run-time state. A run holds one to three of them,
/// so the variants' sizes do not matter, and unboxed state saves a load per packet.
#[allow(clippy::large_enum_variant)]
enum Scheme {
    /// Per-flow hashing: fabsim's own, or HPCC's ns-3's (`switch.ecmp_hash`).
    Ecmp(Option<HpccEcmp>),
    Rsq,
    /// SIMPLE RR counters, one per (switch, size class). A single counter shared by data
    /// and ACKs balances packet *counts*, not bytes: in lockstep the 64 B ACKs settle on some
    /// uplinks and the 4 KB data packets on the others, which overloads those uplinks and
    /// grows their queues linearly (measured: edge-up max queue slope 1.42, 2.6 MB at 4096
    /// packets, k = 8). Size classes, as in Ofan, remove that artefact.
    Rr(Vec<u32>),
    Jsq,
    /// AR thresholds in ps of link time.
    Ar([Time; 3]),
    /// Ofan or pOfan pointers, stepped through the combining pipeline when
    /// `switch.combining` is on.
    Ofan(OfanPointers, Option<SwitchCycles>),
    Conga(Conga),
}

pub struct SwitchLb {
    /// The distinct schemes the switches run (one unless incremental deployment mixes them),
    /// and per switch its scheme's index.
    schemes: Vec<Scheme>,
    scheme_of: Vec<u8>,
    /// Per switch: its random draws (RSQ, JSQ's and AR's ties).
    rng: Vec<Rng>,
    salt: u64,
    /// CONGA runs (alone: the scenario refuses to mix it), and its DREs count every packet
    /// sent: the one flag the other schemes pay per hop.
    conga: bool,
}

impl SwitchLb {
    /// Every switch runs `kind`, except those `deployment` gives another scheme.
    pub fn new(
        kind: SwitchLbKind,
        deployment: &Deployment,
        fabric: &Fabric,
        buffer_bytes: Option<u64>,
        pipe_ports: u32,
        combining_width: Option<u32>,
        seed: u64,
    ) -> Self {
        let mut rng = Rng::stream(seed, "switch-lb");
        let salt = rng.next_u64();
        let per_switch = if deployment.is_uniform() {
            vec![kind; fabric.switches.len()]
        } else {
            deployment.per_switch(kind, fabric, seed)
        };
        // The distinct kinds, `kind` first (a pointer-drawing Ofan base draws even where
        // every switch overrides it), and per switch the index of its kind among them.
        let mut kinds = vec![kind];
        let scheme_of = per_switch
            .iter()
            .map(|&k| match kinds.iter().position(|&x| x == k) {
                Some(i) => i as u8,
                None => {
                    kinds.push(k);
                    (kinds.len() - 1) as u8
                }
            })
            .collect();
        // Mixed deployments hold one Ofan flavour at most (the scenario checks), so the
        // pointers draw from the stream once at most.
        let schemes: Vec<Scheme> = kinds
            .into_iter()
            .map(|k| match k {
                SwitchLbKind::Ecmp => Scheme::Ecmp(None),
                SwitchLbKind::Rsq => Scheme::Rsq,
                SwitchLbKind::Rr => Scheme::Rr(vec![0; 2 * fabric.switches.len()]),
                SwitchLbKind::Jsq => Scheme::Jsq,
                SwitchLbKind::Ar => {
                    let reference = buffer_bytes.unwrap_or(AR_REFERENCE_BUFFER_BYTES) as f64;
                    Scheme::Ar(AR_LEVELS.map(|f| {
                        let bytes = reference * f;
                        Time::from_ps((bytes * 8.0 * 1e12 / fabric.rate_bps as f64) as u64)
                    }))
                }
                SwitchLbKind::Ofan | SwitchLbKind::Pofan => {
                    let pipes = (k == SwitchLbKind::Pofan).then_some(pipe_ports);
                    Scheme::Ofan(
                        OfanPointers::new(fabric, pipes, &mut rng),
                        combining_width
                            .map(|w| SwitchCycles::new(fabric.switches.len(), w as usize)),
                    )
                }
                SwitchLbKind::Conga => Scheme::Conga(Conga::new(fabric, seed)),
            })
            .collect();
        Self {
            conga: matches!(schemes.first(), Some(Scheme::Conga(_))),
            schemes,
            scheme_of,
            rng: Rng::per_node(seed, "switch-lb-draws", fabric.switches.len()),
            salt,
        }
    }

    /// ECMP hashes as HPCC's ns-3 does (`switch.ecmp_hash = "hpcc-ns3"`).
    pub fn with_hpcc_ecmp(mut self, hash: HpccEcmp) -> Self {
        // The schemes are distinct: ECMP is one of them at most.
        if let Some(Scheme::Ecmp(h)) =
            (self.schemes.iter_mut()).find(|s| matches!(s, Scheme::Ecmp(_)))
        {
            *h = Some(hash);
        }
        self
    }

    /// Ofan/pOfan with the dynamic first pointer of paper F.5 (`switch.ofan_first`).
    pub fn with_dynamic_first(mut self, on: bool) -> Self {
        for s in &mut self.schemes {
            if let (true, Scheme::Ofan(ofan, _)) = (on, s) {
                ofan.dynamic_first();
            }
        }
        self
    }

    /// Counts of the combining pipeline, when Ofan/pOfan steps go through it.
    pub fn combining_stats(&self) -> Option<CycleStats> {
        self.schemes.iter().find_map(|s| match s {
            Scheme::Ofan(_, cycles) => cycles.as_ref().map(|c| c.stats()),
            _ => None,
        })
    }

    /// A packet of `bytes` leaves global port `port` (CONGA's DREs count every port).
    #[inline(always)]
    pub fn on_transmit(&mut self, port: u32, bytes: u32, now: Time) {
        if self.conga {
            self.conga_transmit(port, bytes, now);
        }
    }

    #[inline(never)]
    fn conga_transmit(&mut self, port: u32, bytes: u32, now: Time) {
        if let Some(Scheme::Conga(conga)) = self.schemes.first_mut() {
            conga.on_transmit(port, bytes, now);
        }
    }

    /// The local egress port for packet `p`, which entered switch `sw` at local port
    /// `in_local`: down along the route, or up by the packet's source-routed up path when
    /// that uplink is valid toward the destination, else by the switch's scheme.
    #[inline(always)]
    pub fn egress(&mut self, v: View, sw: u32, in_local: u32, p: &mut Packet) -> u32 {
        let info = v.fabric.switches[sw as usize];
        match v.fabric.route(sw, p.dst(v.ends)) {
            Route::Down(l) => {
                if let Scheme::Conga(conga) =
                    &mut self.schemes[self.scheme_of[sw as usize] as usize]
                {
                    match info.tier {
                        Tier::Core => conga.at_spine(info.port_base + l, p, v.now),
                        _ if in_local >= info.down => {
                            conga.at_destination_leaf(sw, v.fabric.edge_of(p.src(v.ends)), p)
                        }
                        _ => {}
                    }
                }
                l
            }
            Route::Up { key }
                if !p.up.is_none() && v.valid_uplinks(sw, key) >> p.up.at(info.tier) & 1 == 1 =>
            {
                info.down + p.up.at(info.tier)
            }
            Route::Up { key } => {
                let d = Decision {
                    sw,
                    key,
                    kind: p.kind(),
                    in_local,
                    flow_hash: (p.flow as u64) << 17
                        | (p.entropy as u64) << 1
                        | (p.kind() == PacketKind::Ack) as u64,
                    valid: v.valid_uplinks(sw, key),
                };
                info.down + self.choose(v, d, p)
            }
        }
    }

    /// Picks an uplink (an index in `0..uplinks`) for the packet described by `d`.
    #[inline(always)]
    fn choose(&mut self, v: View, d: Decision, p: &mut Packet) -> u32 {
        let (ports, now) = (v.ports, v.now);
        let info = v.fabric.switches[d.sw as usize];
        let w = info.uplinks();
        let first_up = info.port_base + info.down;
        // With failures, schemes that pick by index choose among the valid uplinks only;
        // rotating schemes (RR, Ofan) step past invalid ones; JSQ/AR ignore them.
        let all = d.valid == ALL_UPLINKS;
        let (valid, count) = if all {
            (u64::MAX, w)
        } else {
            (d.valid, d.valid.count_ones())
        };
        debug_assert!(count > 0, "no valid uplink");
        // The mask has 64 bits: a switch with more uplinks has no failed ones (`all`).
        let ok = |u: u32| all || valid.checked_shr(u).is_some_and(|v| v & 1 == 1);
        let pick = |i: u32| if all { i } else { nth_set_bit(valid, i) };
        let rng = &mut self.rng[d.sw as usize];
        match &mut self.schemes[self.scheme_of[d.sw as usize] as usize] {
            Scheme::Ecmp(hash) => ecmp(hash.as_ref(), self.salt, &d, p, valid, count),
            Scheme::Rsq => pick(rng.below(count as u64) as u32),
            Scheme::Rr(counters) => {
                let c = &mut counters[2 * d.sw as usize + (d.kind != PacketKind::Data) as usize];
                loop {
                    let u = *c % w;
                    *c = c.wrapping_add(1);
                    if ok(u) {
                        break u;
                    }
                }
            }
            Scheme::Jsq => argmin_random_ties(rng, w, |u| {
                if ok(u) {
                    ports.backlog_ps(first_up + u, now).ps()
                } else {
                    u64::MAX
                }
            }),
            Scheme::Ar(levels) => {
                let levels = *levels;
                argmin_random_ties(rng, w, |u| {
                    let b = ports.backlog_ps(first_up + u, now);
                    if ok(u) {
                        levels.iter().take_while(|&&l| b >= l).count() as u64
                    } else {
                        u64::MAX
                    }
                })
            }
            Scheme::Ofan(ofan, cycles) => {
                debug_assert!(matches!(info.tier, Tier::Edge | Tier::Agg));
                let step = (d.sw, info.tier, d.key, d.kind, d.in_local);
                if ofan.is_dynamic_first() {
                    let shortest = || {
                        (0..w)
                            .filter(|&u| ok(u))
                            .min_by_key(|&u| (ports.backlog_ps(first_up + u, now), u))
                            .expect("a valid uplink")
                    };
                    loop {
                        let u = ofan.next_uplink_dynamic(step, w, shortest);
                        if ok(u) {
                            break u;
                        }
                    }
                } else {
                    loop {
                        let u = match cycles {
                            None => ofan.next_uplink(d.sw, info.tier, d.key, d.kind, d.in_local),
                            Some(cycles) => ofan.next_uplink_combining(cycles, now, step),
                        };
                        if ok(u) {
                            break u;
                        }
                    }
                }
            }
            // Leaf-spine without failures only (the scenario checks): every uplink is valid.
            Scheme::Conga(conga) => {
                conga.at_source_leaf(d.sw, d.key, first_up, d.flow_hash, p, now)
            }
        }
    }
}

/// The uplink minimizing `cost`, ties broken uniformly at random (reservoir sampling).
#[inline(always)]
fn argmin_random_ties(rng: &mut Rng, w: u32, cost: impl Fn(u32) -> u64) -> u32 {
    let mut best = 0;
    let mut best_cost = u64::MAX;
    let mut ties = 0u64;
    for u in 0..w {
        let c = cost(u);
        if c < best_cost {
            best_cost = c;
            best = u;
            ties = 1;
        } else if c == best_cost {
            ties += 1;
            if rng.below(ties) == 0 {
                best = u;
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::{TopologySpec, UpPath};

    /// A leaf-spine fabric (2 leaves, 2 hosts and 4 uplinks each), its ports, and a switch
    /// running `kind` everywhere.
    fn setup(kind: SwitchLbKind) -> (Fabric, Ports, SwitchLb) {
        let spec = TopologySpec::LeafSpine {
            leaves: 2,
            hosts_per_leaf: 2,
            uplinks: 4,
        };
        let fabric = Fabric::new(&spec, 800_000_000_000, Time::from_ps(1));
        let ports = Ports::new(fabric.ports(), fabric.rate_bps, Time::from_ps(1));
        let lb = SwitchLb::new(kind, &Deployment::default(), &fabric, None, 2, None, 7);
        (fabric, ports, lb)
    }

    #[test]
    fn every_scheme_sends_cross_leaf_packets_up_and_local_ones_down() {
        for kind in SwitchLbKind::ALL {
            let (fabric, ports, mut lb) = setup(kind);
            // Flow 0 runs from host 0 to host 2 (the other leaf), flow 1 to host 1.
            let v = View {
                ends: &[[0, 2], [0, 1]],
                fabric: &fabric,
                ports: &ports,
                failures: None,
                now: Time::ZERO,
            };
            let leaf = fabric.switches[0];
            for seq in 0..8 {
                // Host 0 to host 2 (the other leaf): one of the leaf's uplinks.
                let mut p = Packet::new(0, seq, PacketKind::Data, 0);
                let out = lb.egress(v, 0, 0, &mut p);
                assert!(
                    (leaf.down..leaf.ports).contains(&out),
                    "{}: egress {out} is not an uplink",
                    kind.name()
                );
                // Host 0 to host 1 (same leaf): its downlink.
                let mut p = Packet::new(1, seq, PacketKind::Data, 0);
                assert_eq!(lb.egress(v, 0, 0, &mut p), 1, "{}", kind.name());
            }
        }
    }

    #[test]
    fn a_source_routed_packet_takes_its_up_path() {
        for kind in SwitchLbKind::ALL {
            let (fabric, ports, mut lb) = setup(kind);
            let v = View {
                ends: &[[0, 3]],
                fabric: &fabric,
                ports: &ports,
                failures: None,
                now: Time::ZERO,
            };
            for u in 0..4 {
                let mut p = Packet::new(0, 0, PacketKind::Data, 0);
                p.up = UpPath::new(u, 0);
                let out = lb.egress(v, 0, 0, &mut p);
                assert_eq!(out, fabric.switches[0].down + u, "{}", kind.name());
            }
        }
    }

    #[test]
    fn a_mixed_deployment_runs_each_switch_on_its_own_scheme() {
        let fabric = Fabric::new(
            &TopologySpec::FatTree { k: 4 },
            800_000_000_000,
            Time::from_ps(1),
        );
        let deployment = Deployment {
            edge: Some(SwitchLbKind::Rr),
            ..Deployment::default()
        };
        let lb = SwitchLb::new(
            SwitchLbKind::Ofan,
            &deployment,
            &fabric,
            None,
            2,
            Some(4),
            1,
        );
        let per_switch = deployment.per_switch(SwitchLbKind::Ofan, &fabric, 1);
        for (sw, kind) in per_switch.iter().enumerate() {
            let scheme = &lb.schemes[lb.scheme_of[sw] as usize];
            let expect_rr = *kind == SwitchLbKind::Rr;
            assert_eq!(matches!(scheme, Scheme::Rr(_)), expect_rr, "switch {sw}");
            assert_eq!(
                matches!(scheme, Scheme::Ofan(..)),
                !expect_rr,
                "switch {sw}"
            );
        }
        assert!(
            lb.combining_stats().is_some(),
            "Ofan's switches step through the pipeline"
        );
    }
}

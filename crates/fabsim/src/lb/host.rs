//! Host-side load balancers (Ofan paper sections 3.1 and 3.4).
//!
//! The sender stamps every data packet with an *entropy* that switches running `ecmp` hash
//! together with the flow, or with an explicit *up path* (source routing) that every switch
//! follows on the way up. ACKs echo the entropy of the packet they acknowledge.
//!
//! - `host-ecmp`: one random entropy per flow.
//! - `rps`: a random entropy per packet.
//! - `oblivious`: randomized round-robin: entropy `(i XOR mask) mod P` over a power-of-two
//!   set of P entropies; `i` counts packets and the mask is redrawn each time `i` wraps.
//! - `reps` (recycled entropies, after the UEC htsim `uec_mp.cpp`): a circular buffer of 8
//!   entropies whose ACKs came back without ECN; a packet reuses the oldest such entropy not
//!   yet reused, else explores with a random one. After a retransmission timeout it freezes:
//!   it cycles through the buffered entropies, fresh or not, for 10 ms, then clears the
//!   buffer and explores with 16 random entropies.
//! - `drb` (digit-reversal bouncing, Cao et al. 2013): a counter per (sender, destination);
//!   packet c bounces at the switch whose index is c's digits (base w) reversed, so
//!   consecutive packets leave by different first uplinks: edge uplink `c mod w`, then
//!   aggregation uplink `(c / w) mod w`.
//! - `ethereal`: a flow is split into path-pinned subflows, one per path, sent round-robin;
//!   path p leaves by edge uplink `p / w` and aggregation uplink `p mod w`, so every uplink
//!   carries the same share but consecutive packets may share an edge uplink (appendix E).

use std::collections::BTreeMap;

use crate::engine::{Rng, Time};
use crate::flow::FlowSpec;
use crate::net::{Fabric, Tier, UpPath};

named_enum! {
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum HostLbKind {
        /// No host-side choice: entropy 0, the switches decide.
        None => "none",
        /// One random entropy per flow: the switches' ECMP hash spreads flows.
        HostEcmp => "host-ecmp",
        /// Random packet spraying: a random entropy per packet.
        Rps => "rps",
        /// Randomized round-robin over a power-of-two set of entropies per flow.
        Oblivious => "oblivious",
        /// REPS: reuses entropies ACKed without ECN, else explores with a random one.
        Reps => "reps",
        /// Digit-reversal bouncing: consecutive packets take different up paths (source-routed).
        Drb => "drb",
        /// Ethereal: a subflow pinned to each up path, sent round-robin (source-routed).
        Ethereal => "ethereal",
    }
}

/// Entropies `oblivious` cycles through by default (a power of two).
const OBLIVIOUS_SET: u32 = 256;
/// Entropies the random choices draw from by default (all 16 bits).
const ALL_LABELS: u32 = 1 << 16;
/// REPS's buffer of recycled entropies.
const REPS_BUFFER: usize = 8;
/// How long REPS stays frozen after a timeout (htsim's default).
const REPS_FREEZE_PS: Time = Time::from_us(10_000);
/// Random entropies REPS explores with after a freeze.
const REPS_EXPLORE: u8 = 16;

/// REPS state of one flow: a ring of entropies acknowledged without ECN.
#[derive(Clone, Copy, Debug, Default)]
struct Reps {
    ring: [u16; REPS_BUFFER],
    /// Entries `head .. head + fresh` (mod 8) are acknowledged and not yet reused.
    head: u8,
    fresh: u8,
    /// Slots ever filled (the freezing mode cycles through them).
    valid: u8,
    /// Freezing mode until this time (0: not frozen); the next slot it replays.
    frozen_until: Time,
    replay: u8,
    /// Random entropies still to send before reusing the buffer.
    explore: u8,
}

impl Reps {
    /// The buffered entropy to send now, if the rules pick one (else: a random one).
    fn take(&mut self, now: Time) -> Option<u16> {
        if self.frozen_until != Time::ZERO {
            if now < self.frozen_until && self.valid > 0 {
                self.replay = (self.replay + 1) % self.valid;
                return Some(self.ring[self.replay as usize]);
            }
            if now >= self.frozen_until {
                // Thaw: forget the buffer and explore.
                *self = Reps {
                    explore: REPS_EXPLORE,
                    ..Reps::default()
                };
            }
        }
        if self.explore > 0 {
            self.explore -= 1;
            return None;
        }
        if self.fresh == 0 {
            return None;
        }
        let e = self.ring[self.head as usize];
        self.head = (self.head + 1) % REPS_BUFFER as u8;
        self.fresh -= 1;
        Some(e)
    }

    fn recycle(&mut self, entropy: u16) {
        let tail = (self.head + self.fresh) as usize % REPS_BUFFER;
        self.ring[tail] = entropy;
        self.valid = (self.valid + 1).min(REPS_BUFFER as u8);
        if self.fresh as usize == REPS_BUFFER {
            // Full: the oldest entry is overwritten.
            self.head = (self.head + 1) % REPS_BUFFER as u8;
        } else {
            self.fresh += 1;
        }
    }
}

/// Per-flow state of the host-side scheme.
#[derive(Clone, Copy, Debug, Default)]
struct FlowLb {
    /// host-ecmp: the flow's entropy; oblivious: the mask; ethereal: the first subflow.
    base: u32,
    /// oblivious, ethereal: packets sent; drb: index of the (src, dst) counter.
    count: u32,
    reps: Reps,
}

pub struct HostLb {
    kind: HostLbKind,
    /// Per host: its random draws (RPS, oblivious cycles, REPS when it has no entropy).
    rng: Vec<Rng>,
    /// Entropies per flow: random choices draw below it, oblivious cycles through it.
    labels: u32,
    flows: Vec<FlowLb>,
    /// DRB counters, one per (sender, destination) pair.
    drb: Vec<u32>,
    /// Uplinks of edge (leaf) and aggregation switches.
    w_edge: u32,
    w_agg: u32,
}

impl HostLb {
    /// `labels`: entropies per flow (`host.path_labels`; 0: the scheme's default). Oblivious
    /// needs a power of two.
    pub fn new(
        kind: HostLbKind,
        labels: u32,
        fabric: &Fabric,
        flows: &[FlowSpec],
        seed: u64,
    ) -> Self {
        let labels = match (labels, kind) {
            (0, HostLbKind::Oblivious) => OBLIVIOUS_SET,
            (0, _) => ALL_LABELS,
            (n, _) => n,
        };
        debug_assert!(kind != HostLbKind::Oblivious || labels.is_power_of_two());
        let mut rng = Rng::stream(seed, "host-lb");
        let mut pairs = BTreeMap::new();
        // Schemes that keep nothing per flow hold no table (a Web run has millions of flows).
        let stateless = match kind {
            HostLbKind::None | HostLbKind::Rps => true,
            HostLbKind::HostEcmp
            | HostLbKind::Oblivious
            | HostLbKind::Reps
            | HostLbKind::Drb
            | HostLbKind::Ethereal => false,
        };
        let states = flows
            .iter()
            .take(if stateless { 0 } else { flows.len() })
            .map(|f| {
                let pair = if kind == HostLbKind::Drb {
                    let n = pairs.len() as u32;
                    *pairs.entry((f.src, f.dst)).or_insert(n)
                } else {
                    0
                };
                match kind {
                    HostLbKind::HostEcmp => FlowLb {
                        base: rng.below(labels as u64) as u32,
                        ..FlowLb::default()
                    },
                    HostLbKind::Oblivious => FlowLb {
                        base: rng.below(labels as u64) as u32,
                        ..FlowLb::default()
                    },
                    HostLbKind::Ethereal => FlowLb {
                        base: rng.below(1 << 16) as u32,
                        ..FlowLb::default()
                    },
                    HostLbKind::Drb => FlowLb {
                        count: pair,
                        ..FlowLb::default()
                    },
                    HostLbKind::None | HostLbKind::Rps | HostLbKind::Reps => FlowLb::default(),
                }
            })
            .collect();
        // DRB counters start at random points so senders do not bounce in lockstep.
        let drb = (0..pairs.len())
            .map(|_| rng.below(1 << 16) as u32)
            .collect();
        Self {
            kind,
            rng: Rng::per_node(seed, "host-lb-draws", fabric.hosts as usize),
            labels,
            flows: states,
            drb,
            w_edge: fabric.uplinks_of(Tier::Edge),
            w_agg: fabric.uplinks_of(Tier::Agg),
        }
    }

    pub fn kind(&self) -> HostLbKind {
        self.kind
    }

    /// Entropy and up path of the next data packet of `flow`, sent by `host` over `hops`
    /// links.
    #[inline]
    pub fn stamp(&mut self, flow: u32, host: u32, hops: u32, now: Time) -> (u16, UpPath) {
        let (w_e, w_a, labels) = (self.w_edge, self.w_agg, self.labels);
        let rng = &mut self.rng[host as usize];
        match self.kind {
            HostLbKind::None => return (0, UpPath::NONE),
            HostLbKind::Rps => return (rng.below(labels as u64) as u16, UpPath::NONE),
            _ => {}
        }
        let f = &mut self.flows[flow as usize];
        match self.kind {
            HostLbKind::None | HostLbKind::Rps => unreachable!("answered above"),
            HostLbKind::HostEcmp => (f.base as u16, UpPath::NONE),
            HostLbKind::Oblivious => {
                let e = (f.count ^ f.base) % labels;
                f.count += 1;
                if f.count == labels {
                    f.count = 0;
                    f.base = rng.below(labels as u64) as u32;
                }
                (e as u16, UpPath::NONE)
            }
            HostLbKind::Reps => {
                let e = f
                    .reps
                    .take(now)
                    .unwrap_or_else(|| rng.below(labels as u64) as u16);
                (e, UpPath::NONE)
            }
            HostLbKind::Drb => {
                let c = &mut self.drb[f.count as usize];
                *c = c.wrapping_add(1);
                // Digit reversal: the first uplink varies fastest.
                let up = UpPath::new(*c % w_e, (*c / w_e) % w_a);
                (*c as u16, Self::trim(up, hops))
            }
            HostLbKind::Ethereal => {
                let paths = if hops == 6 { w_e * w_a } else { w_e };
                let p = f.base.wrapping_add(f.count) % paths;
                f.count = f.count.wrapping_add(1);
                let up = if hops == 6 {
                    UpPath::new(p / w_a, p % w_a)
                } else {
                    UpPath::new(p, 0)
                };
                (p as u16, Self::trim(up, hops))
            }
        }
    }

    /// Paths within one edge switch have no choice to make.
    fn trim(up: UpPath, hops: u32) -> UpPath {
        if hops <= 2 {
            UpPath::NONE
        } else {
            up
        }
    }

    /// `flow`'s retransmission timer fired: REPS freezes its choices.
    pub fn on_timeout(&mut self, flow: u32, now: Time) {
        if self.kind == HostLbKind::Reps {
            let reps = &mut self.flows[flow as usize].reps;
            reps.frozen_until = now + REPS_FREEZE_PS;
        }
    }

    /// An ACK for `flow` came back with `entropy`; `ecn` says whether it was marked.
    #[inline]
    pub fn on_ack(&mut self, flow: u32, entropy: u16, ecn: bool) {
        if self.kind == HostLbKind::Reps && !ecn {
            self.flows[flow as usize].reps.recycle(entropy);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::TopologySpec;
    use std::collections::BTreeSet;

    fn one_flow(kind: HostLbKind) -> HostLb {
        let fabric = Fabric::new(&TopologySpec::FatTree { k: 8 }, 1, Time::from_ps(1));
        let flows = [FlowSpec {
            src: 0,
            dst: 127,
            bytes: 1,
            start_ps: Time::ZERO,
        }];
        HostLb::new(kind, 0, &fabric, &flows, 3)
    }

    #[test]
    fn drb_visits_every_core_once_per_round_with_changing_first_uplinks() {
        let mut lb = one_flow(HostLbKind::Drb);
        let ups: Vec<UpPath> = (0..16).map(|_| lb.stamp(0, 0, 6, Time::ZERO).1).collect();
        let cores: BTreeSet<(u32, u32)> = ups.iter().map(|u| (u.edge(), u.agg())).collect();
        assert_eq!(cores.len(), 16);
        assert!(ups.windows(2).all(|w| w[0].edge() != w[1].edge()));
    }

    #[test]
    fn ethereal_spreads_paths_evenly() {
        let mut lb = one_flow(HostLbKind::Ethereal);
        let mut per_uplink = [0; 4];
        let mut paths = BTreeSet::new();
        for _ in 0..16 {
            let up = lb.stamp(0, 0, 6, Time::ZERO).1;
            per_uplink[up.edge() as usize] += 1;
            paths.insert((up.edge(), up.agg()));
        }
        assert_eq!(per_uplink, [4; 4]);
        assert_eq!(paths.len(), 16);
    }

    #[test]
    fn reps_recycles_unmarked_entropies_oldest_first() {
        let mut lb = one_flow(HostLbKind::Reps);
        let first: Vec<u16> = (0..3).map(|_| lb.stamp(0, 0, 6, Time::ZERO).0).collect();
        lb.on_ack(0, first[0], false);
        lb.on_ack(0, first[1], true); // ECN-marked: not recycled
        lb.on_ack(0, first[2], false);
        assert_eq!(lb.stamp(0, 0, 6, Time::ZERO).0, first[0]);
        assert_eq!(lb.stamp(0, 0, 6, Time::ZERO).0, first[2]);
        // Nothing fresh left: explore.
        let e = lb.stamp(0, 0, 6, Time::ZERO).0;
        assert!(!first.contains(&e) || e == first[1]);
    }

    #[test]
    fn oblivious_covers_the_entropy_set_each_round() {
        let mut lb = one_flow(HostLbKind::Oblivious);
        for _ in 0..3 {
            let round: BTreeSet<u16> = (0..OBLIVIOUS_SET)
                .map(|_| lb.stamp(0, 0, 6, Time::ZERO).0)
                .collect();
            assert_eq!(round.len(), OBLIVIOUS_SET as usize);
        }
    }

    #[test]
    fn reps_freezes_on_timeout_then_explores() {
        let mut lb = one_flow(HostLbKind::Reps);
        let sent: Vec<u16> = (0..3).map(|_| lb.stamp(0, 0, 6, Time::ZERO).0).collect();
        for &e in &sent {
            lb.on_ack(0, e, false);
        }
        lb.on_timeout(0, Time::from_ps(1_000));
        // Frozen: only buffered entropies, over and over, fresh or not.
        let frozen: Vec<u16> = (0..9)
            .map(|_| lb.stamp(0, 0, 6, Time::from_ps(2_000)).0)
            .collect();
        assert!(
            frozen.iter().all(|e| sent.contains(e)),
            "{frozen:?} {sent:?}"
        );
        // Thawed: the buffer is gone; even a fresh ACK waits behind 16 explorations.
        let after = Time::from_ps(1_000) + REPS_FREEZE_PS;
        let first = lb.stamp(0, 0, 6, after).0;
        lb.on_ack(0, first, false);
        let explored: Vec<u16> = (0..15).map(|_| lb.stamp(0, 0, 6, after).0).collect();
        assert!(!explored.contains(&first));
        assert_eq!(lb.stamp(0, 0, 6, after).0, first);
    }
}

//! Switch-side load balancers: the switch picks one of its uplinks toward the destination;
//! the way down is unique in a fat tree (DESIGN.md section 4, Ofan paper section 3.1).
//!
//! One enum chooses the scheme; per-scheme state lives in flat vectors indexed by switch.

mod conga;
pub mod deploy;
mod host;
mod ofan;

pub use conga::Conga;
pub use deploy::{Deployment, Strategy};
pub use host::{HostLb, HostLbKind};

pub use ofan::{OfanPointers, PortOrders};

use crate::engine::{Rng, Time};
use crate::hw::{CycleStats, SwitchCycles};
use crate::net::{Fabric, PacketKind, Ports, Tier};

/// The switch-side schemes, by their scenario names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SwitchLbKind {
    /// Hash of the flow (and direction) with a per-switch salt.
    Ecmp,
    /// Random Switch Queue: a uniformly random uplink per packet.
    Rsq,
    /// SIMPLE RR: one round-robin counter per switch (and size class) shared by all
    /// destinations.
    Rr,
    /// Join the shortest queue (ties at random).
    Jsq,
    /// Adaptive routing on quantized queue levels (htsim's switch AR).
    Ar,
    /// Ofan: per-destination rotation pointers shared by every ingress port.
    Ofan,
    /// pOfan: Ofan with one pointer per ingress pipe.
    Pofan,
    /// CONGA (leaf-spine only): flowlets on leaf-to-leaf congestion feedback. Its state
    /// lives in [`Conga`], which the simulator consults directly: it needs to stamp and read
    /// the packet's overlay fields.
    Conga,
}

impl SwitchLbKind {
    pub const ALL: [SwitchLbKind; 8] = [
        SwitchLbKind::Ecmp,
        SwitchLbKind::Rsq,
        SwitchLbKind::Rr,
        SwitchLbKind::Jsq,
        SwitchLbKind::Ar,
        SwitchLbKind::Pofan,
        SwitchLbKind::Ofan,
        SwitchLbKind::Conga,
    ];

    pub fn name(self) -> &'static str {
        match self {
            SwitchLbKind::Ecmp => "ecmp",
            SwitchLbKind::Rsq => "rsq",
            SwitchLbKind::Rr => "rr",
            SwitchLbKind::Jsq => "jsq",
            SwitchLbKind::Ar => "ar",
            SwitchLbKind::Ofan => "ofan",
            SwitchLbKind::Pofan => "pofan",
            SwitchLbKind::Conga => "conga",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// AR's queue-level thresholds as fractions of the buffer (htsim's fat-tree switch).
const AR_LEVELS: [f64; 3] = [0.05, 0.10, 0.20];
/// Buffer that AR's levels refer to when buffers are unbounded (the Ofan default buffer).
pub const AR_REFERENCE_BUFFER_BYTES: u64 = 800_000;

/// What the load balancer needs to know about one packet at one switch.
#[derive(Clone, Copy, Debug)]
pub struct Decision {
    pub sw: u32,
    /// Ofan key: destination edge (edge switches) or pod (aggregation switches).
    pub key: u32,
    pub kind: PacketKind,
    /// Local index of the port the packet came in on (pOfan's pipe).
    pub in_local: u32,
    /// Per-flow hash input for ECMP (flow, direction and host entropy).
    pub flow_hash: u64,
    /// Bitmask of the uplinks the packet may take ([`ALL_UPLINKS`] without failures).
    pub valid: u64,
}

/// Every uplink valid (no link failures).
pub const ALL_UPLINKS: u64 = u64::MAX;

/// The `n`-th set bit of `mask` (counting from 0).
#[inline]
fn nth_set_bit(mut mask: u64, n: u32) -> u32 {
    for _ in 0..n {
        mask &= mask - 1;
    }
    mask.trailing_zeros()
}

pub struct SwitchLb {
    kind: SwitchLbKind,
    /// Per switch, when switches differ (incremental deployment, [`Deployment`]).
    per_switch: Option<Vec<SwitchLbKind>>,
    rng: Rng,
    salt: u64,
    /// SIMPLE RR counters, one per (switch, size class). A single counter shared by data
    /// and ACKs balances packet *counts*, not bytes: in lockstep the 64 B ACKs settle on some
    /// uplinks and the 4 KB data packets on the others, which overloads those uplinks and
    /// grows their queues linearly (measured: edge-up max queue slope 1.42, 2.6 MB at 4096
    /// packets, k = 8). Size classes, as in Ofan, remove that artefact.
    rr: Vec<u32>,
    ofan: Option<OfanPointers>,
    /// Ofan/pOfan pointer steps through the combining pipeline (`switch.combining`).
    cycles: Option<SwitchCycles>,
    /// AR thresholds in ps of link time.
    ar_levels_ps: [Time; 3],
}

impl SwitchLb {
    pub fn new(
        kind: SwitchLbKind,
        fabric: &Fabric,
        buffer_bytes: Option<u64>,
        pipe_ports: u32,
        combining_width: Option<u32>,
        per_switch: Option<Vec<SwitchLbKind>>,
        seed: u64,
    ) -> Self {
        let mut rng = Rng::stream(seed, "switch-lb");
        let salt = rng.next_u64();
        // Mixed deployments hold one Ofan flavour at most (the scenario checks).
        let ofan_kind = std::iter::once(kind)
            .chain(per_switch.iter().flatten().copied())
            .find(|k| matches!(k, SwitchLbKind::Ofan | SwitchLbKind::Pofan));
        let ofan = match ofan_kind {
            Some(SwitchLbKind::Ofan) => Some(OfanPointers::new(fabric, None, &mut rng)),
            Some(_) => Some(OfanPointers::new(fabric, Some(pipe_ports), &mut rng)),
            None => None,
        };
        let cycles = ofan
            .as_ref()
            .and(combining_width)
            .map(|w| SwitchCycles::new(fabric.switches.len(), w as usize));
        let reference = buffer_bytes.unwrap_or(AR_REFERENCE_BUFFER_BYTES) as f64;
        let ar_levels_ps = AR_LEVELS.map(|f| {
            let bytes = reference * f;
            (bytes * 8.0 * 1e12 / fabric.rate_bps as f64) as Time
        });
        Self {
            kind,
            per_switch,
            rng,
            salt,
            rr: vec![0; 2 * fabric.switches.len()],
            ofan,
            cycles,
            ar_levels_ps,
        }
    }

    /// Ofan/pOfan with the dynamic first pointer of paper F.5 (`switch.ofan_first`).
    pub fn with_dynamic_first(mut self, on: bool) -> Self {
        if let (true, Some(ofan)) = (on, &mut self.ofan) {
            ofan.dynamic_first();
        }
        self
    }

    /// Counts of the combining pipeline, when Ofan/pOfan steps go through it.
    pub fn combining_stats(&self) -> Option<CycleStats> {
        self.cycles.as_ref().map(|c| c.stats())
    }

    pub fn kind(&self) -> SwitchLbKind {
        self.kind
    }

    /// Picks an uplink (an index in `0..uplinks`) for the packet described by `d`.
    #[inline(always)]
    pub fn choose(&mut self, fabric: &Fabric, ports: &Ports, d: Decision, now: Time) -> u32 {
        let info = fabric.switches[d.sw as usize];
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
        let ok = |u: u32| valid >> u & 1 == 1;
        let pick = |i: u32| if all { i } else { nth_set_bit(valid, i) };
        let kind = match &self.per_switch {
            None => self.kind,
            Some(kinds) => kinds[d.sw as usize],
        };
        match kind {
            SwitchLbKind::Ecmp => {
                let h = crate::engine::rng::splitmix64(d.flow_hash ^ self.salt ^ d.sw as u64);
                pick(((h as u128 * count as u128) >> 64) as u32)
            }
            SwitchLbKind::Rsq => pick(self.rng.below(count as u64) as u32),
            SwitchLbKind::Rr => {
                let c = &mut self.rr[2 * d.sw as usize + (d.kind != PacketKind::Data) as usize];
                loop {
                    let u = *c % w;
                    *c = c.wrapping_add(1);
                    if ok(u) {
                        break u;
                    }
                }
            }
            SwitchLbKind::Jsq => self.argmin_random_ties(w, |u| {
                if ok(u) {
                    ports.backlog_ps(first_up + u, now)
                } else {
                    Time::MAX
                }
            }),
            SwitchLbKind::Ar => {
                let levels = self.ar_levels_ps;
                self.argmin_random_ties(w, |u| {
                    let b = ports.backlog_ps(first_up + u, now);
                    if ok(u) {
                        levels.iter().take_while(|&&l| b >= l).count() as Time
                    } else {
                        Time::MAX
                    }
                })
            }
            SwitchLbKind::Ofan | SwitchLbKind::Pofan => {
                let ofan = self.ofan.as_mut().expect("ofan state");
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
                        let u = match &mut self.cycles {
                            None => ofan.next_uplink(d.sw, info.tier, d.key, d.kind, d.in_local),
                            Some(cycles) => ofan.next_uplink_combining(
                                cycles,
                                now,
                                (d.sw, info.tier, d.key, d.kind, d.in_local),
                            ),
                        };
                        if ok(u) {
                            break u;
                        }
                    }
                }
            }
            SwitchLbKind::Conga => unreachable!("CONGA's uplinks are chosen by lb::Conga"),
        }
    }

    /// The uplink minimizing `cost`, ties broken uniformly at random (reservoir sampling).
    #[inline]
    fn argmin_random_ties(&mut self, w: u32, cost: impl Fn(u32) -> Time) -> u32 {
        let mut best = 0;
        let mut best_cost = Time::MAX;
        let mut ties = 0u64;
        for u in 0..w {
            let c = cost(u);
            if c < best_cost {
                best_cost = c;
                best = u;
                ties = 1;
            } else if c == best_cost {
                ties += 1;
                if self.rng.below(ties) == 0 {
                    best = u;
                }
            }
        }
        best
    }
}

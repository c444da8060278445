//! Fastroute's workloads (paper sections 6.1, 6.2 and 6.4).
//!
//! - `stride`: host i sends to i + s mod H.
//! - `shuffle`: host i sends to i + j s mod H for j = 1..k.
//! - `ring`: hosts split at random into groups of 16, each a logical ring (i sends to its
//!   successor), regrouped every `regroup` (0.5 ms).
//! - `web`, `hadoop`: Poisson flow arrivals at `load` of the hosts' capacity, sizes from the
//!   Facebook Web / Hadoop CDFs (Roy et al., SIGCOMM 2015; shipped in `data/flow-sizes/`)
//!   or the CDF given (`workload.cdf`), a fraction `intra_rack` of the flows inside the
//!   source's rack, and `skew`: that fraction of flows goes to a hot tenth of the hosts.
//! - `fast`: the worst case for the circuit layer: phases of `phase` alternate between fully
//!   inter-rack (i to the same position one rack over) and fully intra-rack (i to its
//!   neighbour in its rack); by default each flow carries what a link moves in one phase.
//!
//! Every pattern but web and hadoop sends `message_bytes` per flow (for ring and fast it may
//! be given as a fraction of a period at line rate, `workload.phase_fill`); with
//! `run.duration_us` the run stops at that time and throughput counts the bytes acknowledged
//! so far.

use super::{FlowSpec, SizeCdf, WorkloadSize};
use crate::engine::{Rng, Time};

/// Group size of the ring workload (paper section 6.1).
pub const RING_GROUP: u32 = 16;
/// Ring regrouping period (paper section 6.1).
pub const RING_REGROUP_PS: Time = Time::from_us(500);

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Pattern {
    Stride,
    Shuffle { k: u32 },
    Ring,
    Web,
    Hadoop,
    Fast { phase_ps: Time },
}

named_enum! {
    /// A [`Pattern`] without its parameters: what `workload.kind` names.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum PatternKind {
        /// Fastroute: host i sends to i + workload.stride mod hosts.
        Stride => "stride",
        /// Fastroute: host i sends to i + j x stride mod hosts for j = 1..workload.shuffle_k.
        Shuffle => "shuffle",
        /// Fastroute: random rings of 16 hosts, regrouped every 0.5 ms.
        Ring => "ring",
        /// Fastroute: Poisson arrivals of Facebook Web flow sizes at workload.load.
        Web => "web",
        /// Fastroute: Poisson arrivals of Facebook Hadoop flow sizes at workload.load.
        Hadoop => "hadoop",
        /// Fastroute: phases alternating between all inter-rack and all intra-rack flows.
        Fast => "fast",
    }
}

impl Pattern {
    pub fn kind(self) -> PatternKind {
        match self {
            Pattern::Stride => PatternKind::Stride,
            Pattern::Shuffle { .. } => PatternKind::Shuffle,
            Pattern::Ring => PatternKind::Ring,
            Pattern::Web => PatternKind::Web,
            Pattern::Hadoop => PatternKind::Hadoop,
            Pattern::Fast { .. } => PatternKind::Fast,
        }
    }

    pub fn name(self) -> &'static str {
        self.kind().name()
    }

    /// The period of a phased pattern: Ring's regrouping, Fast's phase.
    pub fn period_ps(self) -> Option<Time> {
        match self {
            Pattern::Ring => Some(RING_REGROUP_PS),
            Pattern::Fast { phase_ps } => Some(phase_ps),
            Pattern::Stride | Pattern::Shuffle { .. } | Pattern::Web | Pattern::Hadoop => None,
        }
    }
}

// What each pattern is, one exhaustive match per question, so that a new pattern answers
// each (the scenario parse, the size estimate and the reports read them).
impl PatternKind {
    /// Poisson arrivals until `run.duration_us`, with sizes from this CDF unless
    /// `workload.cdf` gives one; `None`: the pattern's flows are fixed by its shape.
    pub fn poisson_sizes(self) -> Option<fn() -> SizeCdf> {
        match self {
            PatternKind::Web => Some(SizeCdf::web),
            PatternKind::Hadoop => Some(SizeCdf::hadoop),
            PatternKind::Stride | PatternKind::Shuffle | PatternKind::Ring | PatternKind::Fast => {
                None
            }
        }
    }

    pub fn poisson(self) -> bool {
        self.poisson_sizes().is_some()
    }

    /// The fraction of a period each flow carries when `workload.phase_fill` is not given;
    /// `None`: `workload.message_bytes` sizes the flows.
    pub fn default_fill(self) -> Option<f64> {
        match self {
            PatternKind::Fast => Some(1.0),
            PatternKind::Stride
            | PatternKind::Shuffle
            | PatternKind::Ring
            | PatternKind::Web
            | PatternKind::Hadoop => None,
        }
    }

    /// Flows that last: without `workload.message_bytes`, each carries what a host port
    /// moves in a millisecond (the schema's 1 MiB would end before the first mapping).
    pub fn long_lived(self) -> bool {
        match self {
            PatternKind::Stride | PatternKind::Shuffle | PatternKind::Ring => true,
            PatternKind::Web | PatternKind::Hadoop | PatternKind::Fast => false,
        }
    }

    /// Host i's peers are i + j x `workload.stride`: the stride must give distinct peers.
    pub fn strided(self) -> bool {
        match self {
            PatternKind::Stride | PatternKind::Shuffle => true,
            PatternKind::Ring | PatternKind::Web | PatternKind::Hadoop | PatternKind::Fast => false,
        }
    }

    /// The fraction of flows inside the rack when `workload.intra_rack` is not given: the
    /// Facebook traces' (Fastroute section 5.1); patterns that place no flow at random do
    /// not read it.
    pub fn default_intra_rack(self) -> f64 {
        match self {
            PatternKind::Hadoop => 0.14,
            PatternKind::Web => 0.18,
            PatternKind::Stride | PatternKind::Shuffle | PatternKind::Ring | PatternKind::Fast => {
                0.18
            }
        }
    }
}

/// A Fastroute workload, validated.
#[derive(Clone, Debug, PartialEq)]
pub struct FastrouteWorkload {
    pub pattern: Pattern,
    pub message_bytes: u64,
    pub stride: u32,
    /// Hosts per rack (edge switch / leaf): places `r*hpr .. (r+1)*hpr` share rack `r`.
    pub hosts_per_rack: u32,
    /// Place `i`'s host, where racks are not runs of consecutive hosts (a rail-optimized
    /// numbering, planes, a file's); `None`: host `i`.
    pub racks: Option<std::sync::Arc<[u32]>>,
    /// Host link rate, for the offered load and `fast` flow sizes.
    pub rate_bps: u64,
    /// How long to generate arrivals (`run.duration_us`); `None`: one round.
    pub duration_ps: Option<Time>,
    pub load: f64,
    pub intra_rack: f64,
    pub skew: f64,
    /// Web and Hadoop: the flow sizes, when not the pattern's Facebook CDF.
    pub cdf: Option<SizeCdf>,
}

impl FastrouteWorkload {
    /// The size distribution of Web and Hadoop flows: `cdf`, else the pattern's.
    pub fn sizes(&self) -> SizeCdf {
        match (&self.cdf, self.pattern.kind().poisson_sizes()) {
            (Some(cdf), _) => cdf.clone(),
            (None, Some(sizes)) => sizes(),
            (None, None) => panic!("{} has no flow sizes to draw", self.pattern.name()),
        }
    }

    /// The pattern's flows among `hosts` hosts, placed rack by rack.
    pub fn flows(&self, hosts: u32, rng: &mut Rng) -> Vec<FlowSpec> {
        let mut flows = self.places(hosts, rng);
        if let Some(racks) = &self.racks {
            for f in &mut flows {
                (f.src, f.dst) = (racks[f.src as usize], racks[f.dst as usize]);
            }
        }
        flows
    }

    /// The pattern's flows among places `0..hosts`, rack `r` being places `r*hpr ..`.
    fn places(&self, hosts: u32, rng: &mut Rng) -> Vec<FlowSpec> {
        let flow = |src: u32, dst: u32, bytes: u64, start_ps: Time| FlowSpec {
            src,
            dst,
            bytes,
            start_ps,
        };
        let (h, s, m) = (hosts, self.stride, self.message_bytes);
        match self.pattern {
            Pattern::Stride => (0..h)
                .map(|i| flow(i, (i + s) % h, m, Time::ZERO))
                .collect(),
            Pattern::Shuffle { k } => (0..h)
                .flat_map(|i| {
                    (1..=k).map(move |j| (i, (i as u64 + j as u64 * s as u64) % h as u64))
                })
                .filter(|&(i, d)| d != i as u64)
                .map(|(i, d)| flow(i, d as u32, m, Time::ZERO))
                .collect(),
            Pattern::Ring => {
                let mut out = Vec::new();
                let mut order: Vec<u32> = (0..h).collect();
                let mut t = Time::ZERO;
                loop {
                    rng.shuffle(&mut order);
                    for group in order.chunks(RING_GROUP as usize).filter(|g| g.len() > 1) {
                        for (j, &src) in group.iter().enumerate() {
                            out.push(flow(src, group[(j + 1) % group.len()], m, t));
                        }
                    }
                    t += RING_REGROUP_PS;
                    if self.duration_ps.is_none_or(|d| t >= d) {
                        return out;
                    }
                }
            }
            Pattern::Fast { phase_ps } => {
                let hpr = self.hosts_per_rack;
                let mut out = Vec::new();
                let mut t = Time::ZERO;
                for phase in 0.. {
                    for i in 0..h {
                        let dst = if phase % 2 == 0 {
                            (i + hpr) % h
                        } else {
                            i - i % hpr + (i % hpr + 1) % hpr
                        };
                        if dst != i {
                            out.push(flow(i, dst, m, t));
                        }
                    }
                    t += phase_ps;
                    if self.duration_ps.is_none_or(|d| t >= d) {
                        break;
                    }
                }
                out
            }
            Pattern::Web | Pattern::Hadoop => self.poisson(h, &self.sizes(), rng),
        }
    }

    /// Poisson arrivals over the whole fabric: `load` x hosts x link rate in bytes per second
    /// on average.
    fn poisson(&self, h: u32, cdf: &SizeCdf, rng: &mut Rng) -> Vec<FlowSpec> {
        let end = self.duration_ps.expect("web/hadoop need run.duration_us");
        let bytes_per_ps =
            self.load * h as f64 * self.rate_bps as f64 / crate::engine::BIT_PS_PER_BYTE_S as f64;
        let mean_gap_ps = cdf.mean() / bytes_per_ps;
        let hpr = self.hosts_per_rack;
        let racks = h / hpr;
        let hot = (h / 10).max(1);
        let mut out = Vec::new();
        let mut t = 0.0;
        loop {
            t += -mean_gap_ps * (1.0 - rng.unit()).ln();
            if t >= end.as_ps_f64() {
                return out;
            }
            let src = rng.below(h as u64) as u32;
            let rack = src / hpr;
            let dst = if racks < 2 || (hpr > 1 && rng.unit() < self.intra_rack) {
                // Another host of the source's rack.
                rack * hpr + (src % hpr + 1 + rng.below(hpr as u64 - 1) as u32) % hpr
            } else if rng.unit() < self.skew {
                // A hot host outside the source's rack (or any other host if all are local).
                let d = rng.below(hot as u64) as u32 * 10 % h;
                if d / hpr == rack {
                    (d + hpr) % h
                } else {
                    d
                }
            } else {
                let other = (rack + 1 + rng.below(racks as u64 - 1) as u32) % racks;
                other * hpr + rng.below(hpr as u64) as u32
            };
            if dst == src {
                continue;
            }
            let bytes = cdf.quantile(rng.unit()).round().max(1.0) as u64;
            out.push(FlowSpec {
                src,
                dst,
                bytes,
                start_ps: Time::from_ps(t as u64),
            });
        }
    }

    /// The size of the traffic on `hosts` hosts. Stride and Shuffle send one message per host
    /// and peer; Ring regroups every [`RING_REGROUP_PS`], Fast starts a phase's flows every
    /// phase; Web and Hadoop arrive at `load` of the line rate with the CDF's mean size. What is
    /// sent stops at the run's duration.
    pub fn size(&self, hosts: u64) -> WorkloadSize {
        let w = self;
        let duration = w.duration_ps;
        let rounds =
            |period: Time| duration.map_or(1, |d| d.div_ceil(period.max(Time::from_ps(1))).max(1));
        let line = |d: Time| d.bytes_at(w.rate_bps).saturating_mul(hosts);
        let (flows, flow_bytes) = match w.pattern {
            Pattern::Stride => (hosts, w.message_bytes),
            Pattern::Shuffle { k } => (hosts * k as u64, w.message_bytes),
            Pattern::Ring => (hosts * rounds(RING_REGROUP_PS), w.message_bytes),
            Pattern::Fast { phase_ps } => (hosts * rounds(phase_ps), w.message_bytes),
            Pattern::Web | Pattern::Hadoop => {
                let cdf = w.sizes();
                let offered = duration.map_or(0, |d| (line(d) as f64 * w.load) as u64);
                // Poisson arrivals: the count is near its mean; twice it bounds it.
                let flows = 2 * (offered as f64 / cdf.mean()) as u64 + hosts;
                // No flow is larger than the distribution's largest size.
                let largest = cdf.max_bytes();
                // Below the line rate, a host's flows in progress scale as a
                // processor-sharing queue's, load / (1 - load) on average; the most in
                // progress at once was 9-10 times that (23 per host at 70% on 256 hosts,
                // 36 at 80% on 2,048, Netbench's stack), counted at 16 times, plus one, each at
                // the largest size. From 95% of the line rate on, counted as at 95%, plus the
                // excess arrivals, which pile up.
                let rho = w.load.min(0.95);
                let per_host = (16.0 * rho / (1.0 - rho)).ceil() as u64 + 1;
                let excess = (flows as f64 * (1.0 - 0.95 / w.load.max(0.95))) as u64;
                let live = flows.min(per_host.saturating_mul(hosts).saturating_add(excess));
                return WorkloadSize {
                    flows,
                    sent_bytes: offered,
                    max_flow_bytes: largest,
                    live_flows: live,
                    live_bytes: offered.min(live.saturating_mul(largest)),
                };
            }
        };
        let allocated = flows.saturating_mul(flow_bytes);
        let sent = duration.map_or(allocated, |d| allocated.min(line(d)));
        WorkloadSize::all_live(flows, allocated, sent, flow_bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(pattern: Pattern) -> FastrouteWorkload {
        FastrouteWorkload {
            pattern,
            message_bytes: 1000,
            stride: 3,
            hosts_per_rack: 4,
            racks: None,
            rate_bps: 100_000_000_000,
            duration_ps: Some(Time::from_us(2_000)),
            load: 0.5,
            intra_rack: 0.2,
            skew: 0.0,
            cdf: None,
        }
    }

    #[test]
    fn stride_and_shuffle_use_constant_offsets() {
        let mut rng = Rng::new(1);
        let f = spec(Pattern::Stride).flows(16, &mut rng);
        assert!(f.iter().all(|f| f.dst == (f.src + 3) % 16));
        let f = spec(Pattern::Shuffle { k: 2 }).flows(16, &mut rng);
        assert_eq!(f.len(), 32);
        assert!(f.iter().filter(|f| f.src == 15).map(|f| f.dst).eq([2, 5]));
    }

    #[test]
    fn ring_groups_of_sixteen_regroup_every_half_millisecond() {
        let f = spec(Pattern::Ring).flows(64, &mut Rng::new(2));
        // 2 ms: epochs at 0, 0.5, 1, 1.5 ms; every host sends once per epoch.
        assert_eq!(f.len(), 4 * 64);
        let first: Vec<_> = f.iter().filter(|f| f.start_ps == Time::ZERO).collect();
        let mut dst: Vec<u32> = first.iter().map(|f| f.dst).collect();
        dst.sort();
        assert_eq!(dst, (0..64).collect::<Vec<_>>());
        // Following successors from any host closes a ring of 16.
        let next = |h: u32| first.iter().find(|f| f.src == h).unwrap().dst;
        let mut h = next(0);
        let mut len = 1;
        while h != 0 {
            h = next(h);
            len += 1;
        }
        assert_eq!(len, 16);
        assert!(f.iter().any(|f| f.start_ps == RING_REGROUP_PS));
    }

    #[test]
    fn poisson_load_and_intra_rack_fraction() {
        let mut w = spec(Pattern::Web);
        w.duration_ps = Some(Time::from_us(20_000));
        let f = w.flows(64, &mut Rng::new(3));
        let bytes: u64 = f.iter().map(|f| f.bytes).sum();
        let offered = 0.5 * 64.0 * 100e9 / 8.0 * 0.02;
        let ratio = bytes as f64 / offered;
        assert!((0.9..1.1).contains(&ratio), "offered load ratio {ratio}");
        let intra = f.iter().filter(|f| f.src / 4 == f.dst / 4).count() as f64 / f.len() as f64;
        assert!((0.17..0.23).contains(&intra), "intra-rack {intra}");
        assert!(f.iter().all(|f| f.src != f.dst && f.dst < 64));
        assert!(f.windows(2).all(|p| p[0].start_ps <= p[1].start_ps));
    }

    #[test]
    fn fast_alternates_inter_and_intra_rack_phases() {
        let mut w = spec(Pattern::Fast {
            phase_ps: Time::from_us(100),
        });
        w.duration_ps = Some(Time::from_us(400));
        let f = w.flows(16, &mut Rng::new(4));
        for flow in &f {
            let phase = flow.start_ps / Time::from_us(100);
            assert_eq!(flow.src / 4 == flow.dst / 4, phase % 2 == 1, "{flow:?}");
        }
        assert_eq!(f.len(), 4 * 16);
        assert!(f.iter().all(|x| x.bytes == w.message_bytes));
    }
}

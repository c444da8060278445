//! Traffic: which messages start, between whom, how big.
//!
//! A message (flow) is `bytes` from `src` to `dst` starting at `start_ps`. The flows of one
//! workload that start together form a collective; its CCT runs from the first packet sent
//! to the last ACK received. Collectives, FSDP, MoE and htsim files also give flows
//! dependencies ([`deps`]): a flow may wait for other flows to complete. HPCC's flow files
//! give independent flows, each at its own start time.
//!
//! Architecture Invariant: `workload` depends only on `engine` and `flow`.
//!
//! Architecture Invariant: it never opens a file. It parses the text formats of the data it
//! owns, each behind one entry point that takes the text: flow-size CDFs
//! ([`SizeCdf::parse`], whose [`cdf::CdfError`] names the line), htsim connection
//! matrices ([`HtsimMatrix::parse`], whose [`htsim::HtsimError`] names the line and the
//! field) and HPCC's flow files ([`HpccFlows::parse`], whose [`hpcc::HpccError`] names the
//! line, the field and the values allowed). `scenario` reads the file and adds its name and
//! key to the message.
//!
//! Architecture Invariant: its random draws come from named streams of the run seed
//! (`workload`, and `ranks` for a shuffled rank order).

pub mod cdf;
pub mod collective;
pub mod deps;
pub mod fastroute;
pub mod fsdp;
pub mod hpcc;
pub mod htsim;
pub mod moe;

pub use cdf::SizeCdf;
pub use collective::{
    Algorithm, Collective, CollectiveKind, Group, Order, PlaneScheme, Ranks, Traffic,
    TrafficBuilder,
};
pub use fastroute::{FastrouteWorkload, Pattern, PatternKind};
pub use fsdp::{ModelShape, Part as FsdpPart};
pub use hpcc::HpccFlows;
pub use htsim::{HtsimMatrix, StartUnit};

pub use crate::flow::FlowSpec;

use crate::engine::{Rng, Time};

named_enum! {
    /// The workload kinds that are neither a collective nor a Fastroute pattern.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum SimpleKind {
        /// A random derangement: every host sends one message and receives one.
        Permutation => "permutation",
        /// A random half of the hosts each send one message to a host of the other half.
        Bipartite => "bipartite",
        /// Hosts 1..=workload.senders send one message each to host 0.
        Incast => "incast",
        /// An FSDP2 training iteration of a transformer (or one block of it).
        Fsdp => "fsdp",
        /// Mixture-of-experts all-to-all-v with Zipf expert popularity.
        Moe => "moe",
        /// The connections of an htsim connection matrix (workload.file).
        Htsim => "htsim",
        /// The flows of an HPCC ns-3 flow file (workload.file).
        Hpcc => "hpcc",
    }
}

/// The workload kinds, by their scenario names (`workload.kind`); a [`WorkloadSpec`] is one
/// with its parameters ([`WorkloadSpec::kind`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WorkloadKind {
    Simple(SimpleKind),
    Collective(CollectiveKind),
    Fastroute(PatternKind),
}

const KINDS: usize = SimpleKind::ALL.len() + CollectiveKind::ALL.len() + PatternKind::ALL.len();

impl WorkloadKind {
    /// Every kind: the simple ones, the collectives, the Fastroute patterns, each in its
    /// enum's order (so a variant added to any of the three is a kind).
    pub const ALL: [WorkloadKind; KINDS] = {
        let mut all = [WorkloadKind::Simple(SimpleKind::Permutation); KINDS];
        let mut n = 0;
        let mut i = 0;
        while i < SimpleKind::ALL.len() {
            all[n] = WorkloadKind::Simple(SimpleKind::ALL[i]);
            (n, i) = (n + 1, i + 1);
        }
        let mut i = 0;
        while i < CollectiveKind::ALL.len() {
            all[n] = WorkloadKind::Collective(CollectiveKind::ALL[i]);
            (n, i) = (n + 1, i + 1);
        }
        let mut i = 0;
        while i < PatternKind::ALL.len() {
            all[n] = WorkloadKind::Fastroute(PatternKind::ALL[i]);
            (n, i) = (n + 1, i + 1);
        }
        all
    };

    /// Its name in scenarios and reports (`workload.kind`).
    pub fn name(self) -> &'static str {
        match self {
            WorkloadKind::Simple(s) => s.name(),
            WorkloadKind::Collective(c) => c.name(),
            WorkloadKind::Fastroute(p) => p.name(),
        }
    }

    /// What it is: its variant's `///` line.
    pub fn meaning(self) -> &'static str {
        match self {
            WorkloadKind::Simple(s) => s.meaning(),
            WorkloadKind::Collective(c) => c.meaning(),
            WorkloadKind::Fastroute(p) => p.meaning(),
        }
    }
}

/// A workload's size: its flows, the bytes sent before the run stops, its largest flow, and
/// the most flows (and their bytes) in progress at once, whose sender and receiver state the
/// simulator holds.
pub struct WorkloadSize {
    pub flows: u64,
    pub sent_bytes: u64,
    pub max_flow_bytes: u64,
    pub live_flows: u64,
    pub live_bytes: u64,
}

impl WorkloadSize {
    /// A workload whose flows may all be in progress at once.
    pub fn all_live(flows: u64, bytes: u64, sent_bytes: u64, max_flow_bytes: u64) -> Self {
        WorkloadSize {
            flows,
            sent_bytes,
            max_flow_bytes,
            live_flows: flows,
            live_bytes: bytes,
        }
    }

    /// The size with each flow striped over `planes` planes ([`PlaneScheme::Stripe`]): at
    /// most `planes` flows for one, the largest split.
    pub fn striped(self, planes: u64) -> Self {
        WorkloadSize {
            flows: self.flows.saturating_mul(planes),
            max_flow_bytes: self.max_flow_bytes.div_ceil(planes),
            live_flows: self.live_flows.saturating_mul(planes),
            ..self
        }
    }
}

/// Workload shapes of the foundation.
#[derive(Clone, Debug, PartialEq)]
pub enum WorkloadSpec {
    /// A uniformly random derangement: every host sends one message and receives one.
    Permutation { message_bytes: u64 },
    /// Half the hosts (a random half) each send one message to one host of the other half:
    /// senders never receive (no ACK shares a sender's uplink), the setting of the Ofan
    /// paper's SIMPLE RR lockstep (Sec. 3.3).
    Bipartite { message_bytes: u64 },
    /// Every host sends to every other host: `message_bytes` per host split evenly over the
    /// others, or `flow_bytes` per flow when given.
    AllToAll {
        message_bytes: u64,
        flow_bytes: Option<u64>,
    },
    /// Incast: hosts `1..=senders` each send `message_bytes` to host 0.
    Incast { message_bytes: u64, senders: u32 },
    /// Fastroute's patterns: stride, shuffle, ring, web, hadoop, fast.
    Fastroute(FastrouteWorkload),
    /// One collective over a group (`workload.kind` = its name).
    Collective {
        kind: CollectiveKind,
        algorithm: Algorithm,
        message_bytes: u64,
        group: Group,
        ranks: Ranks,
    },
    /// One FSDP2 training iteration's collectives over the data-parallel group, or one
    /// block of it (`part`).
    Fsdp {
        model: ModelShape,
        part: FsdpPart,
        layers: u32,
        size_scale: f64,
        algorithm: Algorithm,
        group: Group,
        ranks: Ranks,
    },
    /// MoE dispatch: an all-to-all-v skewed by expert popularity.
    Moe {
        message_bytes: u64,
        skew: f64,
        balance: bool,
        experts_per_host: u32,
        group: Group,
    },
    /// An htsim connection matrix (`workload.file`), parsed by the scenario layer.
    Htsim { file: String, matrix: HtsimMatrix },
    /// An HPCC flow file (`workload.file`), parsed by the scenario layer (which maps its
    /// node ids to hosts).
    Hpcc { file: String, flows: HpccFlows },
}

/// Which lower bound on the CCT a workload's runs are judged against
/// (`metrics::lower_bound_ps`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoundKind {
    /// Ofan appendix A: a permutation of messages of this many bytes.
    Permutation { message_bytes: u64 },
    /// The naive bound: the busiest NIC's bytes (data and ACKs) at line rate.
    Nic,
    /// Workloads with dependencies: the largest of the chain of collective bounds, the flow
    /// dependency chain and the naive NIC bound.
    Dependencies,
}

impl WorkloadSpec {
    /// The lower bound its runs are judged against.
    pub fn bound_kind(&self) -> BoundKind {
        match *self {
            WorkloadSpec::Permutation { message_bytes } => BoundKind::Permutation { message_bytes },
            WorkloadSpec::AllToAll { .. }
            | WorkloadSpec::Bipartite { .. }
            | WorkloadSpec::Incast { .. }
            | WorkloadSpec::Fastroute(_) => BoundKind::Nic,
            WorkloadSpec::Collective { .. }
            | WorkloadSpec::Fsdp { .. }
            | WorkloadSpec::Moe { .. }
            | WorkloadSpec::Htsim { .. }
            | WorkloadSpec::Hpcc { .. } => BoundKind::Dependencies,
        }
    }

    pub fn kind_name(&self) -> &'static str {
        self.kind().name()
    }

    /// Flow `i`'s destination port as HPCC's ns-3 names it: its flow file's, else the one
    /// HPCC's traffic generator writes.
    pub fn hpcc_dport(&self, i: usize) -> u16 {
        match self {
            WorkloadSpec::Hpcc { flows, .. } => flows.dports[i],
            _ => crate::flow::hpcc::DPORT,
        }
    }

    /// The kind it is.
    pub fn kind(&self) -> WorkloadKind {
        match self {
            WorkloadSpec::Permutation { .. } => WorkloadKind::Simple(SimpleKind::Permutation),
            WorkloadSpec::Bipartite { .. } => WorkloadKind::Simple(SimpleKind::Bipartite),
            WorkloadSpec::AllToAll { .. } => WorkloadKind::Collective(CollectiveKind::AllToAll),
            WorkloadSpec::Incast { .. } => WorkloadKind::Simple(SimpleKind::Incast),
            WorkloadSpec::Fastroute(w) => WorkloadKind::Fastroute(w.pattern.kind()),
            WorkloadSpec::Collective { kind, .. } => WorkloadKind::Collective(*kind),
            WorkloadSpec::Fsdp { .. } => WorkloadKind::Simple(SimpleKind::Fsdp),
            WorkloadSpec::Moe { .. } => WorkloadKind::Simple(SimpleKind::Moe),
            WorkloadSpec::Htsim { .. } => WorkloadKind::Simple(SimpleKind::Htsim),
            WorkloadSpec::Hpcc { .. } => WorkloadKind::Simple(SimpleKind::Hpcc),
        }
    }

    /// The per-host message (FSDP: one block's parameter bytes; htsim and HPCC files: all
    /// bytes).
    pub fn message_bytes(&self) -> u64 {
        match self {
            WorkloadSpec::Permutation { message_bytes }
            | WorkloadSpec::Bipartite { message_bytes }
            | WorkloadSpec::AllToAll { message_bytes, .. }
            | WorkloadSpec::Incast { message_bytes, .. }
            | WorkloadSpec::Collective { message_bytes, .. }
            | WorkloadSpec::Moe { message_bytes, .. } => *message_bytes,
            WorkloadSpec::Fastroute(w) => w.message_bytes,
            WorkloadSpec::Fsdp {
                model, size_scale, ..
            } => {
                ((model.block_params() * model.bytes_per_param) as f64 * size_scale).round() as u64
            }
            WorkloadSpec::Htsim { matrix, .. } => matrix.total_bytes(),
            WorkloadSpec::Hpcc { flows, .. } => flows.total_bytes(),
        }
    }

    /// The smallest message for which every flow of a workload that splits one carries at
    /// least one byte on `hosts` hosts: all-to-all's per-host message (without `flow_bytes`)
    /// goes to its `hosts - 1` peers; a collective's message, and FSDP's smallest unit
    /// ([`fsdp::smallest_unit_bytes`]), split into a shard per member of the group, every
    /// shard sent by some flow (in every step kept). `None` where no flow can be empty: the
    /// other workloads send a message whole, MoE's dispatch gives every flow a byte at least,
    /// Web and Hadoop draw at least one, and htsim and HPCC files refuse a size of 0. A flow of 0
    /// bytes would never complete (its empty packet's ACK acknowledges nothing new): the
    /// scenario refuses smaller messages, and the simulator any flow of 0 bytes.
    pub fn min_flow_bytes(&self, hosts: u64) -> Option<u64> {
        let group = |g: &Group| {
            g.hosts(hosts.min(u32::MAX as u64) as u32)
                .map_or(hosts, |h| h.len() as u64)
        };
        match self {
            WorkloadSpec::AllToAll {
                flow_bytes: None, ..
            } => Some(hosts.saturating_sub(1)),
            WorkloadSpec::Collective { group: g, .. } | WorkloadSpec::Fsdp { group: g, .. } => {
                Some(group(g))
            }
            WorkloadSpec::Permutation { .. }
            | WorkloadSpec::Bipartite { .. }
            | WorkloadSpec::AllToAll { .. }
            | WorkloadSpec::Incast { .. }
            | WorkloadSpec::Fastroute(_)
            | WorkloadSpec::Moe { .. }
            | WorkloadSpec::Htsim { .. }
            | WorkloadSpec::Hpcc { .. } => None,
        }
    }

    /// The workload's size on `hosts` hosts, from closed forms (for the up-front cost
    /// estimate: upper-ish, never off by orders of magnitude).
    pub fn size(&self, hosts: u64) -> WorkloadSize {
        let group = |g: &Group| {
            g.hosts(hosts.min(u32::MAX as u64) as u32)
                .map_or(hosts, |h| h.len() as u64)
        };
        let (flows, bytes, max_flow_bytes) = match self {
            WorkloadSpec::Permutation { message_bytes } => {
                (hosts, hosts.saturating_mul(*message_bytes), *message_bytes)
            }
            WorkloadSpec::Bipartite { message_bytes } => (
                hosts / 2,
                (hosts / 2).saturating_mul(*message_bytes),
                *message_bytes,
            ),
            WorkloadSpec::AllToAll {
                message_bytes,
                flow_bytes,
            } => {
                let flows = hosts * (hosts - 1);
                match flow_bytes {
                    Some(f) => (flows, flows.saturating_mul(*f), *f),
                    None => (flows, hosts.saturating_mul(*message_bytes), *message_bytes),
                }
            }
            WorkloadSpec::Incast {
                message_bytes,
                senders,
            } => {
                let flows = (*senders as u64).min(hosts - 1);
                (flows, flows.saturating_mul(*message_bytes), *message_bytes)
            }
            // One collective: all its flows may be in progress at once.
            WorkloadSpec::Collective {
                kind,
                algorithm,
                message_bytes,
                group: g,
                ranks,
            } => {
                let (flows, shard) = collective::flow_count(
                    *kind,
                    *algorithm,
                    *message_bytes,
                    group(g),
                    ranks.steps,
                );
                let bytes = flows.saturating_mul(shard);
                (flows, bytes, shard)
            }
            // At most two flows per pair of members, twice each member's message.
            WorkloadSpec::Moe {
                message_bytes,
                group: g,
                ..
            } => {
                let n = group(g);
                (
                    2 * n * n,
                    (2 * n).saturating_mul(*message_bytes),
                    *message_bytes,
                )
            }
            // Collectives of a block's and of the root's size (all-gathers and
            // reduce-scatters send as many shards), of which `part.concurrent()` are in
            // progress at once.
            WorkloadSpec::Fsdp {
                model,
                part,
                layers,
                size_scale,
                algorithm,
                group: g,
                ranks,
            } => {
                let n = group(g);
                let (block, root) = fsdp::unit_bytes(model, *size_scale);
                let count = |bytes| {
                    collective::flow_count(
                        CollectiveKind::AllGather,
                        *algorithm,
                        bytes,
                        n,
                        ranks.steps,
                    )
                };
                let ((per, block_shard), (_, root_shard)) = (count(block), count(root));
                let (blocks, roots) = part.collectives(*layers);
                let bytes = (blocks * per)
                    .saturating_mul(block_shard)
                    .saturating_add((roots * per).saturating_mul(root_shard));
                let largest = if roots > 0 {
                    block_shard.max(root_shard)
                } else {
                    block_shard
                };
                let live = part.concurrent() * per;
                return WorkloadSize {
                    flows: (blocks + roots) * per,
                    sent_bytes: bytes,
                    max_flow_bytes: largest,
                    live_flows: live,
                    live_bytes: live.saturating_mul(largest),
                };
            }
            WorkloadSpec::Htsim { matrix, .. } => matrix.size(),
            WorkloadSpec::Hpcc { flows, .. } => flows.size(),
            WorkloadSpec::Fastroute(w) => return w.size(hosts),
        };
        WorkloadSize::all_live(flows, bytes, bytes, max_flow_bytes)
    }

    /// The flows, dependencies and collectives of this workload on `hosts` hosts.
    pub fn traffic(&self, hosts: u32, seed: u64) -> Traffic {
        let group = |g: &Group| g.hosts(hosts).expect("the scenario checks the group");
        let mut b = TrafficBuilder::default();
        match self {
            WorkloadSpec::Collective {
                kind,
                algorithm,
                message_bytes,
                group: g,
                ranks,
            } => {
                b.steps = ranks.steps;
                b.collective(
                    kind.name().into(),
                    *kind,
                    *algorithm,
                    *message_bytes,
                    &ranks.order(group(g), seed),
                    &[],
                );
            }
            WorkloadSpec::Fsdp {
                model,
                part,
                layers,
                size_scale,
                algorithm,
                group: g,
                ranks,
            } => {
                b.steps = ranks.steps;
                let hosts = ranks.order(group(g), seed);
                fsdp::append(
                    &mut b,
                    model,
                    *part,
                    *layers,
                    *size_scale,
                    &hosts,
                    *algorithm,
                )
            }
            WorkloadSpec::Moe {
                message_bytes,
                skew,
                balance,
                experts_per_host,
                group: g,
            } => moe_dispatch(
                &mut b,
                &group(g),
                *message_bytes,
                *skew,
                *balance,
                *experts_per_host,
                seed,
            ),
            WorkloadSpec::Htsim { matrix, .. } => return matrix.traffic(),
            WorkloadSpec::Permutation { .. }
            | WorkloadSpec::Bipartite { .. }
            | WorkloadSpec::AllToAll { .. }
            | WorkloadSpec::Incast { .. }
            | WorkloadSpec::Fastroute(_)
            | WorkloadSpec::Hpcc { .. } => return Traffic::independent(self.flows(hosts, seed)),
        }
        b.build()
    }

    /// The flows of a workload without dependencies on `hosts` hosts, drawn from the run's
    /// workload stream (see [`WorkloadSpec::traffic`] for every workload).
    pub fn flows(&self, hosts: u32, seed: u64) -> Vec<FlowSpec> {
        let mut rng = Rng::stream(seed, "workload");
        match *self {
            WorkloadSpec::Permutation { message_bytes } => derangement(hosts, &mut rng)
                .into_iter()
                .enumerate()
                .map(|(src, dst)| FlowSpec {
                    src: src as u32,
                    dst,
                    bytes: message_bytes,
                    start_ps: Time::ZERO,
                })
                .collect(),
            WorkloadSpec::AllToAll {
                message_bytes,
                flow_bytes,
            } => {
                let peers = hosts as u64 - 1;
                let mut flows = Vec::with_capacity((hosts as u64 * peers) as usize);
                for src in 0..hosts {
                    // Destinations in a shifted order so hosts do not all start on host 0.
                    for (i, shift) in (1..hosts).enumerate() {
                        let bytes = flow_bytes.unwrap_or_else(|| {
                            // Split evenly; the first `rem` flows carry one extra byte.
                            let rem = message_bytes % peers;
                            message_bytes / peers + u64::from((i as u64) < rem)
                        });
                        flows.push(FlowSpec {
                            src,
                            dst: (src + shift) % hosts,
                            bytes,
                            start_ps: Time::ZERO,
                        });
                    }
                }
                flows
            }
            WorkloadSpec::Incast {
                message_bytes,
                senders,
            } => (1..=senders.min(hosts - 1))
                .map(|src| FlowSpec {
                    src,
                    dst: 0,
                    bytes: message_bytes,
                    start_ps: Time::ZERO,
                })
                .collect(),
            WorkloadSpec::Bipartite { message_bytes } => {
                let mut p: Vec<u32> = (0..hosts).collect();
                rng.shuffle(&mut p);
                let half = hosts as usize / 2;
                (0..half)
                    .map(|i| FlowSpec {
                        src: p[i],
                        dst: p[half + i],
                        bytes: message_bytes,
                        start_ps: Time::ZERO,
                    })
                    .collect()
            }
            WorkloadSpec::Fastroute(ref w) => w.flows(hosts, &mut rng),
            WorkloadSpec::Hpcc { ref flows, .. } => flows.flows.clone(),
            WorkloadSpec::Collective { .. }
            | WorkloadSpec::Fsdp { .. }
            | WorkloadSpec::Moe { .. }
            | WorkloadSpec::Htsim { .. } => self.traffic(hosts, seed).flows,
        }
    }
}

/// A uniformly random permutation without fixed points (rejection sampling; about e tries).
pub fn derangement(n: u32, rng: &mut Rng) -> Vec<u32> {
    assert!(n >= 2, "a derangement needs two hosts");
    let mut p: Vec<u32> = (0..n).collect();
    loop {
        rng.shuffle(&mut p);
        if p.iter().enumerate().all(|(i, &d)| i as u32 != d) {
            return p;
        }
    }
}

/// MoE: one all-to-all-v dispatch over `hosts`, whose per-host loads are drawn from the
/// run's workload stream.
fn moe_dispatch(
    b: &mut TrafficBuilder,
    hosts: &[u32],
    message_bytes: u64,
    skew: f64,
    balance: bool,
    experts_per_host: u32,
    seed: u64,
) {
    let mut rng = Rng::stream(seed, "workload");
    let loads = moe::host_loads(
        hosts.len(),
        experts_per_host as usize,
        skew,
        balance,
        &mut rng,
    );
    b.custom(
        "all-to-all-v".into(),
        vec![moe::dispatch(&loads, message_bytes)],
        hosts,
        &[],
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bipartite_senders_never_receive() {
        let flows = WorkloadSpec::Bipartite { message_bytes: 10 }.flows(17, 3);
        assert_eq!(flows.len(), 8);
        let mut hosts: Vec<u32> = flows.iter().flat_map(|f| [f.src, f.dst]).collect();
        hosts.sort();
        hosts.dedup();
        assert_eq!(hosts.len(), 16, "every host in at most one flow");
        assert_ne!(
            flows,
            WorkloadSpec::Bipartite { message_bytes: 10 }.flows(17, 4)
        );
    }

    #[test]
    fn permutation_is_a_derangement() {
        let flows = WorkloadSpec::Permutation { message_bytes: 10 }.flows(16, 3);
        let mut dsts: Vec<u32> = flows.iter().map(|f| f.dst).collect();
        assert!(flows.iter().all(|f| f.src != f.dst));
        dsts.sort();
        assert_eq!(dsts, (0..16).collect::<Vec<_>>());
    }

    #[test]
    fn all_to_all_splits_the_message() {
        let w = WorkloadSpec::AllToAll {
            message_bytes: 100,
            flow_bytes: None,
        };
        let flows = w.flows(4, 1);
        assert_eq!(flows.len(), 12);
        for src in 0..4 {
            let total: u64 = flows.iter().filter(|f| f.src == src).map(|f| f.bytes).sum();
            assert_eq!(total, 100);
        }
    }
}

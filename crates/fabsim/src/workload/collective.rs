//! Collectives (all-gather, reduce-scatter, all-reduce, all-to-all) as steps of flows with
//! dependencies, and the [`Traffic`] every workload produces.
//!
//! Sizes. `bytes` is the per-host buffer: the gathered output of an all-gather, the input of
//! a reduce-scatter, the vector of an all-reduce, the send buffer of an all-to-all. It splits
//! into N shards (the first `bytes % N` one byte larger); a host keeps its own shard local.
//!
//! Algorithms over the group's hosts `g[0..N]`:
//! - ring: N-1 steps (2(N-1) for all-reduce: a reduce-scatter then an all-gather), in each
//!   step host `g[i]` sends one shard to `g[i+1]`; an all-to-all's step s is the shift
//!   permutation `g[i] -> g[i+s]`.
//! - direct: one step in which every host sends its shards straight to their owners (two
//!   steps for all-reduce).
//!
//! Ranks ([`Ranks`]): rank i is the group's i-th host (`workload.order = "host"`), or the
//! group is shuffled once per run from its own RNG stream (`"random"`), the same order for
//! every collective of the run (one process group). In host order a ring's neighbours share
//! an edge switch, so five of six ring flows of a k = 12 fat tree never leave it and each
//! cross-edge flow is alone on its links: no contention. `workload.steps = N` keeps only the
//! first N steps of every collective (a slice of a long ring at full message size).
//!
//! A host starts step s+1 once every step-s flow into it has been received (it forwards or
//! reduces that data; as with RDMA writes, it does not wait for the ACKs of its own sends).
//! Ring all-reduce thus moves 2(N-1)/N of the buffer out of every host.

use std::ops::Range;

use super::deps::{Deps, DepsBuilder, Signal};
use super::FlowSpec;
use crate::engine::{Rng, Time};

/// A workload's flows, their dependencies, and the collectives they form.
#[derive(Clone, Debug, Default)]
pub struct Traffic {
    pub flows: Vec<FlowSpec>,
    pub deps: Deps,
    pub collectives: Vec<Collective>,
}

named_enum! {
    /// How a message between two servers uses their NICs, one per plane (`host.planes`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum PlaneScheme {
        /// Each message whole on one plane drawn from the seed (a per-flow hash).
        Hash => "hash",
        /// Each message split evenly over every plane, a flow per plane (NCCL's channel per
        /// NIC).
        Stripe => "stripe",
    }
}

impl Traffic {
    /// The flows between endpoints moved onto `planes` planes, endpoint `e` on plane `q`
    /// being host `e * planes + q` (see [`PlaneScheme`]).
    pub fn onto_planes(mut self, planes: u32, scheme: PlaneScheme, seed: u64) -> Self {
        if planes == 1 {
            return self;
        }
        match scheme {
            PlaneScheme::Hash => {
                let mut rng = Rng::stream(seed, "planes");
                for f in &mut self.flows {
                    let q = rng.below(planes as u64) as u32;
                    (f.src, f.dst) = (f.src * planes + q, f.dst * planes + q);
                }
                self
            }
            PlaneScheme::Stripe => self.striped(planes),
        }
    }

    /// Each flow split into `planes` parts, part `q` on plane `q`, all starting at the
    /// flow's time: [`shard`]s of its bytes (the first `bytes % planes` one byte larger; a
    /// flow of fewer bytes than planes takes a plane per byte). A flow's parts are
    /// consecutive, so collectives' steps stay ranges, and the dependencies are the flows'
    /// ([`Deps::split`]): what waited for a flow waits for all its parts.
    fn striped(self, planes: u32) -> Self {
        let mut first = Vec::with_capacity(self.flows.len() + 1);
        let mut flows = Vec::with_capacity(self.flows.len() * planes as usize);
        for f in &self.flows {
            first.push(flows.len() as u32);
            let parts = f.bytes.clamp(1, planes as u64) as u32;
            flows.extend((0..parts).map(|q| FlowSpec {
                src: f.src * planes + q,
                dst: f.dst * planes + q,
                bytes: shard(f.bytes, parts as usize, q as usize),
                start_ps: f.start_ps,
            }));
        }
        first.push(flows.len() as u32);
        flows.shrink_to_fit();
        let at = |r: &Range<u32>| first[r.start as usize]..first[r.end as usize];
        Traffic {
            deps: self.deps.split(&first),
            collectives: (self.collectives.into_iter())
                .map(|c| Collective {
                    steps: c.steps.iter().map(at).collect(),
                    ..c
                })
                .collect(),
            flows,
        }
    }

    /// Flows that each start at their own time.
    pub fn independent(mut flows: Vec<FlowSpec>) -> Self {
        // The table is kept for the whole run: no growth slack (a Web run's is 75%).
        flows.shrink_to_fit();
        let deps = DepsBuilder::default().build(flows.len());
        Traffic {
            flows,
            deps,
            collectives: Vec::new(),
        }
    }
}

/// One collective: its name, its steps (contiguous flow index ranges) and the collectives
/// that must complete before it starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Collective {
    pub name: String,
    pub steps: Vec<Range<u32>>,
    pub after: Vec<u32>,
}

impl Collective {
    pub fn flows(&self) -> Range<u32> {
        self.steps.first().map_or(0, |s| s.start)..self.steps.last().map_or(0, |s| s.end)
    }
}

named_enum! {
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum CollectiveKind {
        /// Each member's shard goes to every other member (ring or direct).
        AllGather => "all-gather",
        /// Each member ends with one shard reduced over all members (ring or direct).
        ReduceScatter => "reduce-scatter",
        /// A reduce-scatter followed by an all-gather.
        AllReduce => "all-reduce",
        /// Every host sends to every other host; with workload.algorithm or workload.group
        /// the collective, else one flow per pair, all at once.
        AllToAll => "all-to-all",
    }
}

named_enum! {
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Algorithm {
        Ring => "ring",
        Direct => "direct",
    }
}

/// The hosts taking part: all, or `count` hosts from `first` every `stride`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    All,
    Hosts { first: u32, count: u32, stride: u32 },
}

impl Group {
    /// Parses `"all"`, `"A-B"` (hosts A to B inclusive) or `"A-B:S"` (every S-th).
    pub fn parse(s: &str) -> Option<Self> {
        if s == "all" {
            return Some(Group::All);
        }
        let (range, stride) = match s.split_once(':') {
            Some((r, st)) => (r, st.trim().parse().ok()?),
            None => (s, 1),
        };
        let (a, b) = range.split_once('-')?;
        let (first, last): (u32, u32) = (a.trim().parse().ok()?, b.trim().parse().ok()?);
        // Lazily: `last - first` must not be computed for a reversed range.
        (last >= first && stride >= 1).then(|| Group::Hosts {
            first,
            count: (last - first) / stride + 1,
            stride,
        })
    }

    /// The group's hosts on a fabric of `hosts` hosts, or `None` if it does not fit.
    pub fn hosts(&self, hosts: u32) -> Option<Vec<u32>> {
        match *self {
            Group::All => Some((0..hosts).collect()),
            Group::Hosts {
                first,
                count,
                stride,
            } => {
                let last = first as u64 + (count as u64 - 1) * stride as u64;
                (last < hosts as u64).then(|| (0..count).map(|i| first + i * stride).collect())
            }
        }
    }
}

named_enum! {
    /// The order of a group's ranks (`workload.order`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Order {
        /// Rank i is the group's i-th host.
        Host => "host",
        /// A uniformly random order, drawn once per run from the `ranks` RNG stream.
        Random => "random",
        /// Ranks alternate between the group's halves: rank 2i is the i-th host of the first
        /// half, rank 2i + 1 the i-th of the second (with the halves on two ASICs of one switch,
        /// every ring neighbour is on the other ASIC, as the Fastroute testbed placed them).
        Alternate => "alternate",
        /// Rail by rail, as NCCL places multi-node rings on rail-optimized fabrics: the
        /// group's GPUs of rail 0 in server order, then those of rail 1, ..., so every ring
        /// neighbour shares a rail but at the rail changes (needs a rail-numbered fabric).
        Rail => "rail",
    }
}

/// How a run lays out its collectives' ranks and how many steps of each it keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ranks {
    pub order: Order,
    /// GPUs per server of a rail-numbered fabric (`Order::Rail`; 1 otherwise).
    pub rails: u32,
    /// Steps kept of every collective (`None`: all).
    pub steps: Option<u32>,
}

impl Ranks {
    /// Host order, every step: the collectives as built before either key existed.
    pub const HOST_ORDER: Ranks = Ranks {
        order: Order::Host,
        rails: 1,
        steps: None,
    };

    /// The group's `hosts` in rank order for the run of `seed`.
    pub fn order(&self, mut hosts: Vec<u32>, seed: u64) -> Vec<u32> {
        match self.order {
            Order::Host => hosts,
            Order::Random => {
                Rng::stream(seed, "ranks").shuffle(&mut hosts);
                hosts
            }
            Order::Alternate => {
                let (a, b) = hosts.split_at(hosts.len().div_ceil(2));
                (0..a.len())
                    .flat_map(|i| std::iter::once(a[i]).chain(b.get(i).copied()))
                    .collect()
            }
            Order::Rail => {
                hosts.sort_by_key(|&h| (h % self.rails, h / self.rails));
                hosts
            }
        }
    }
}

/// Shard `j` of `bytes` split `n` ways.
pub fn shard(bytes: u64, n: usize, j: usize) -> u64 {
    bytes / n as u64 + u64::from((j as u64) < bytes % n as u64)
}

/// Flows of a collective of `kind` over `n` members keeping its first `kept` steps (all:
/// `None`), and the largest of them in bytes, without building it: every algorithm sends
/// `n(n - 1)` shards (all-reduce twice that), a ring's step carries `n` of them and a direct
/// step all `n(n - 1)`.
pub fn flow_count(
    kind: CollectiveKind,
    alg: Algorithm,
    bytes: u64,
    n: u64,
    kept: Option<u32>,
) -> (u64, u64) {
    let rounds = if kind == CollectiveKind::AllReduce {
        2
    } else {
        1
    };
    let (steps, per_step) = match alg {
        Algorithm::Ring => (rounds * n.saturating_sub(1), n),
        Algorithm::Direct => (rounds, n * n.saturating_sub(1)),
    };
    let steps = kept.map_or(steps, |k| steps.min(k as u64));
    (steps * per_step, bytes.div_ceil(n.max(1)))
}

/// The steps of a collective as `(src index, dst index, bytes)` in group positions.
fn steps(
    kind: CollectiveKind,
    alg: Algorithm,
    bytes: u64,
    n: usize,
) -> Vec<Vec<(usize, usize, u64)>> {
    let ring = |chunk: &dyn Fn(usize, usize) -> usize, count: usize| -> Vec<Vec<_>> {
        (0..count)
            .map(|s| {
                (0..n)
                    .map(|i| (i, (i + 1) % n, shard(bytes, n, chunk(i, s) % n)))
                    .collect()
            })
            .collect()
    };
    // Direct: every host sends shard `block(i, j)` to every other host j.
    let direct = |block: &dyn Fn(usize, usize) -> usize| -> Vec<_> {
        (0..n)
            .flat_map(|i| {
                (1..n)
                    .map(move |d| (i + d) % n)
                    .map(move |j| (i, j, shard(bytes, n, block(i, j))))
            })
            .collect()
    };
    match (kind, alg) {
        // Step s: host i forwards the shard it got in step s-1 (its own in step 0).
        (CollectiveKind::AllGather, Algorithm::Ring) => ring(&|i, s| i + n - s, n - 1),
        (CollectiveKind::ReduceScatter, Algorithm::Ring) => ring(&|i, s| i + 2 * n - s - 1, n - 1),
        (CollectiveKind::AllReduce, Algorithm::Ring) => {
            let mut v = ring(&|i, s| i + 2 * n - s - 1, n - 1);
            // After the reduce-scatter host i owns shard i+1; the all-gather spreads it.
            v.extend(ring(&|i, s| i + 1 + n - s, n - 1));
            v
        }
        (CollectiveKind::AllToAll, Algorithm::Ring) => (1..n)
            .map(|s| {
                (0..n)
                    .map(|i| (i, (i + s) % n, shard(bytes, n, (i + s) % n)))
                    .collect()
            })
            .collect(),
        (CollectiveKind::AllGather, Algorithm::Direct) => vec![direct(&|i, _| i)],
        (CollectiveKind::ReduceScatter | CollectiveKind::AllToAll, Algorithm::Direct) => {
            vec![direct(&|_, j| j)]
        }
        (CollectiveKind::AllReduce, Algorithm::Direct) => {
            vec![direct(&|_, j| j), direct(&|i, _| i)]
        }
    }
}

/// Builds a [`Traffic`] collective by collective.
#[derive(Debug, Default)]
pub struct TrafficBuilder {
    pub flows: Vec<FlowSpec>,
    pub deps: DepsBuilder,
    pub collectives: Vec<Collective>,
    /// Steps kept of every collective appended (`None`: all).
    pub steps: Option<u32>,
}

impl TrafficBuilder {
    /// Appends a collective over `hosts` that starts once every collective in `after` has
    /// completed (at time 0 if `after` is empty); returns its index.
    pub fn collective(
        &mut self,
        name: String,
        kind: CollectiveKind,
        alg: Algorithm,
        bytes: u64,
        hosts: &[u32],
        after: &[u32],
    ) -> u32 {
        let mut all = steps(kind, alg, bytes, hosts.len());
        if let Some(kept) = self.steps {
            all.truncate(kept as usize);
        }
        self.custom(name, all, hosts, after)
    }

    /// Appends a collective given as steps of `(src index, dst index, bytes)` over `hosts`.
    pub fn custom(
        &mut self,
        name: String,
        steps: Vec<Vec<(usize, usize, u64)>>,
        hosts: &[u32],
        after: &[u32],
    ) -> u32 {
        let mut ranges: Vec<Range<u32>> = Vec::with_capacity(steps.len());
        for step in &steps {
            let start = self.flows.len() as u32;
            self.flows
                .extend(step.iter().map(|&(s, d, bytes)| FlowSpec {
                    src: hosts[s],
                    dst: hosts[d],
                    bytes,
                    start_ps: Time::ZERO,
                }));
            ranges.push(start..self.flows.len() as u32);
        }
        if !after.is_empty() {
            let signals: Vec<(u32, Signal)> = after
                .iter()
                .flat_map(|&c| self.collectives[c as usize].flows())
                .map(|f| (f, Signal::SendDone))
                .collect();
            let first: Vec<u32> = ranges.first().cloned().unwrap_or_default().collect();
            self.deps.after_all(&signals, &first);
        }
        // Step s+1 at host h: after the step-s flows into h are received.
        for pair in ranges.windows(2) {
            for &h in hosts {
                let flows = |r: &Range<u32>| r.clone().map(|f| (f, self.flows[f as usize]));
                let signals: Vec<(u32, Signal)> = flows(&pair[0])
                    .filter(|(_, f)| f.dst == h)
                    .map(|(i, _)| (i, Signal::RecvDone))
                    .collect();
                let targets: Vec<u32> = flows(&pair[1])
                    .filter(|(_, f)| f.src == h)
                    .map(|(i, _)| i)
                    .collect();
                if !targets.is_empty() {
                    self.deps.after_all(&signals, &targets);
                }
            }
        }
        self.collectives.push(Collective {
            name,
            steps: ranges,
            after: after.to_vec(),
        });
        self.collectives.len() as u32 - 1
    }

    pub fn build(mut self) -> Traffic {
        self.flows.shrink_to_fit();
        Traffic {
            deps: self.deps.build(self.flows.len()),
            flows: self.flows,
            collectives: self.collectives,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sent_per_host(kind: CollectiveKind, alg: Algorithm, bytes: u64, n: u32) -> Vec<u64> {
        let mut b = TrafficBuilder::default();
        let hosts: Vec<u32> = (0..n).collect();
        b.collective("c".into(), kind, alg, bytes, &hosts, &[]);
        let t = b.build();
        let mut out = vec![0; n as usize];
        for f in &t.flows {
            assert_ne!(f.src, f.dst);
            out[f.src as usize] += f.bytes;
        }
        out
    }

    #[test]
    fn the_flow_count_is_what_the_builder_makes() {
        use CollectiveKind::*;
        for kind in [AllGather, ReduceScatter, AllReduce, AllToAll] {
            for alg in Algorithm::ALL {
                for (n, kept) in [(2u32, None), (5, None), (6, Some(3)), (4, Some(1))] {
                    let hosts: Vec<u32> = (0..n).collect();
                    let mut b = TrafficBuilder {
                        steps: kept,
                        ..Default::default()
                    };
                    b.collective("c".into(), kind, alg, 1001, &hosts, &[]);
                    let t = b.build();
                    let largest = t.flows.iter().map(|f| f.bytes).max().unwrap_or(0);
                    assert_eq!(
                        flow_count(kind, alg, 1001, n as u64, kept),
                        (t.flows.len() as u64, largest),
                        "{kind:?} {alg:?} n = {n}, kept {kept:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn ring_all_reduce_moves_two_n_minus_one_over_n() {
        for n in [2u32, 3, 8] {
            let d = 1024 * n as u64;
            for sent in sent_per_host(CollectiveKind::AllReduce, Algorithm::Ring, d, n) {
                assert_eq!(sent, 2 * (n as u64 - 1) * d / n as u64, "n = {n}");
            }
        }
    }

    #[test]
    fn every_algorithm_moves_the_shards_it_must() {
        let (n, d) = (5u32, 5000u64);
        let per = d / n as u64;
        for alg in Algorithm::ALL {
            for (kind, expect) in [
                (CollectiveKind::AllGather, (n as u64 - 1) * per),
                (CollectiveKind::ReduceScatter, (n as u64 - 1) * per),
                (CollectiveKind::AllReduce, 2 * (n as u64 - 1) * per),
                (CollectiveKind::AllToAll, (n as u64 - 1) * per),
            ] {
                let sent = sent_per_host(kind, alg, d, n);
                assert!(
                    sent.iter().all(|&s| s == expect),
                    "{kind:?} {alg:?} {sent:?}"
                );
            }
        }
    }

    #[test]
    fn ring_steps_chain_through_each_host() {
        let mut b = TrafficBuilder::default();
        b.collective(
            "ag".into(),
            CollectiveKind::AllGather,
            Algorithm::Ring,
            400,
            &[0, 1, 2, 3],
            &[],
        );
        let t = b.build();
        let c = &t.collectives[0];
        assert_eq!(c.steps.len(), 3);
        // First-step flows start free; each later one waits for the flow into its host.
        for f in c.steps[0].clone() {
            assert_eq!(t.deps.waits[f as usize], 0);
        }
        for f in c.steps[1].start..c.steps[2].end {
            assert_eq!(t.deps.waits[f as usize], 1);
        }
        assert!(t.deps.need.iter().all(|&n| n == 1));
        // Host 1's step-1 flow waits for host 0's step-0 flow (0 -> 1) to be received.
        assert_eq!(t.deps.recv_done.row(0), &[1]);
        assert_eq!(t.deps.targets.row(1), &[c.steps[1].start + 1]);
    }

    /// A ring reduce-scatter, then a ring all-reduce after it, of 4 endpoints on 2 planes:
    /// each message becomes a flow per plane, between the two servers' NICs of that plane,
    /// and every gate waits for all the parts of what it waited for.
    #[test]
    fn striping_splits_every_message_and_what_waits_for_it() {
        let (n, planes) = (4u32, 2u32);
        let mut b = TrafficBuilder::default();
        let hosts: Vec<u32> = (0..n).collect();
        use CollectiveKind::*;
        let rs = b.collective(
            "rs".into(),
            ReduceScatter,
            Algorithm::Ring,
            4003,
            &hosts,
            &[],
        );
        b.collective("ar".into(), AllReduce, Algorithm::Ring, 4003, &hosts, &[rs]);
        let t = b.build();
        let s = t.clone().onto_planes(planes, PlaneScheme::Stripe, 1);
        assert_eq!(s.flows.len(), 2 * t.flows.len());
        for (m, f) in t.flows.iter().enumerate() {
            let parts = &s.flows[2 * m..2 * m + 2];
            assert_eq!(parts.iter().map(|p| p.bytes).sum::<u64>(), f.bytes);
            assert_eq!(
                parts[0].bytes,
                f.bytes.div_ceil(2),
                "the first part the larger"
            );
            for (q, p) in parts.iter().enumerate() {
                let q = q as u32;
                assert_eq!((p.src, p.dst), (f.src * 2 + q, f.dst * 2 + q), "plane {q}");
                assert_eq!(p.start_ps, f.start_ps);
                // Each part waits for what its message waited for and signals what it did.
                let x = 2 * m as u32 + q;
                assert_eq!(s.deps.waits[x as usize], t.deps.waits[m]);
                assert_eq!(s.deps.send_done.row(x), t.deps.send_done.row(m as u32));
                assert_eq!(s.deps.recv_done.row(x), t.deps.recv_done.row(m as u32));
            }
        }
        // The gates: each releases both parts of its flows, and needs the signals of both
        // parts of the flows it needed (the all-reduce's first step waits for every flow of
        // the reduce-scatter).
        assert_eq!(s.deps.need.len(), t.deps.need.len());
        assert!(t.deps.need.iter().any(|&need| need == 4 * (n - 1)));
        for g in 0..t.deps.need.len() {
            assert_eq!(s.deps.need[g], 2 * t.deps.need[g], "gate {g}");
            let released: Vec<u32> = (t.deps.targets.row(g as u32).iter())
                .flat_map(|&x| [2 * x, 2 * x + 1])
                .collect();
            assert_eq!(s.deps.targets.row(g as u32), released, "gate {g}");
        }
        assert_eq!(s.deps.delay_ps, t.deps.delay_ps);
        // The collectives cover their parts, step by step.
        for (c, sc) in t.collectives.iter().zip(&s.collectives) {
            let doubled: Vec<Range<u32>> = c.steps.iter().map(|r| 2 * r.start..2 * r.end).collect();
            assert_eq!(
                (&sc.name, &sc.steps, &sc.after),
                (&c.name, &doubled, &c.after)
            );
        }
        // One plane: nothing to split.
        let one = t.clone().onto_planes(1, PlaneScheme::Stripe, 1);
        assert_eq!((one.flows, one.deps), (t.flows.clone(), t.deps.clone()));
    }

    /// A message of fewer bytes than planes takes a plane per byte; the gate waiting for it
    /// counts its parts only.
    #[test]
    fn a_message_smaller_than_the_planes_takes_a_plane_per_byte() {
        let mut b = TrafficBuilder::default();
        // Step 0: 0 -> 1 (2 bytes), 1 -> 2 (9 bytes); step 1: 2 -> 3, after 1 -> 2 arrived.
        let steps = vec![vec![(0, 1, 2), (1, 2, 9)], vec![(2, 3, 5)]];
        b.custom("c".into(), steps, &[0, 1, 2, 3], &[]);
        let s = b.build().onto_planes(4, PlaneScheme::Stripe, 1);
        let sizes: Vec<u64> = s.flows.iter().map(|f| f.bytes).collect();
        assert_eq!(sizes, [1, 1, 3, 2, 2, 2, 2, 1, 1, 1]);
        let planes: Vec<u32> = s.flows.iter().map(|f| f.src % 4).collect();
        assert_eq!(planes, [0, 1, 0, 1, 2, 3, 0, 1, 2, 3]);
        assert_eq!(s.deps.need, [4], "the 9-byte message's four parts");
        assert_eq!(s.deps.targets.row(0), [6, 7, 8, 9]);
        assert_eq!(s.collectives[0].steps, [0..6, 6..10]);
    }

    #[test]
    fn alternate_ranks_interleave_the_group_halves() {
        let r = Ranks {
            order: Order::Alternate,
            rails: 1,
            steps: None,
        };
        assert_eq!(r.order((0..8).collect(), 1), [0, 4, 1, 5, 2, 6, 3, 7]);
        assert_eq!(r.order((0..5).collect(), 1), [0, 3, 1, 4, 2]);
    }

    #[test]
    fn rail_ranks_go_rail_by_rail() {
        let r = Ranks {
            order: Order::Rail,
            rails: 4,
            steps: None,
        };
        // Servers 0-2 of 4 GPUs: rail 0's GPUs 0, 4, 8, then rail 1's, ...
        let ranks = r.order((0..12).collect(), 1);
        assert_eq!(ranks, [0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11]);
        let same_rail = ranks.windows(2).filter(|w| w[0] % 4 == w[1] % 4).count();
        assert_eq!(same_rail, 8, "all neighbours but the 3 rail changes");
    }

    #[test]
    fn random_ranks_are_a_seeded_permutation() {
        let r = Ranks {
            order: Order::Random,
            rails: 1,
            steps: None,
        };
        let hosts: Vec<u32> = (0..64).collect();
        let a = r.order(hosts.clone(), 1);
        let mut sorted = a.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, hosts, "a permutation of the group");
        assert_eq!(a, r.order(hosts.clone(), 1), "the same for a seed");
        assert_ne!(a, r.order(hosts.clone(), 2), "another for another seed");
        assert_ne!(a, hosts);
        assert_eq!(Ranks::HOST_ORDER.order(hosts.clone(), 1), hosts);
    }

    #[test]
    fn steps_keeps_the_first_steps_and_their_chain() {
        let build = |steps| {
            let mut b = TrafficBuilder {
                steps,
                ..Default::default()
            };
            let hosts: Vec<u32> = (0..8).collect();
            b.collective(
                "ag".into(),
                CollectiveKind::AllGather,
                Algorithm::Ring,
                8000,
                &hosts,
                &[],
            );
            b.build()
        };
        let (all, two) = (build(None), build(Some(2)));
        assert_eq!(all.collectives[0].steps.len(), 7);
        assert_eq!(two.collectives[0].steps.len(), 2);
        assert_eq!(two.flows[..], all.flows[..16], "the first two steps' flows");
        assert_eq!(two.deps.waits[..], all.deps.waits[..16]);
        assert_eq!(
            build(Some(100)).flows,
            all.flows,
            "more steps than there are"
        );
    }

    #[test]
    fn groups_parse_and_check_the_fabric() {
        assert_eq!(Group::parse("all"), Some(Group::All));
        assert_eq!(
            Group::parse("4-7").unwrap().hosts(16),
            Some(vec![4, 5, 6, 7])
        );
        assert_eq!(
            Group::parse("0-15:4").unwrap().hosts(16),
            Some(vec![0, 4, 8, 12])
        );
        assert_eq!(Group::parse("0-16").unwrap().hosts(16), None);
        assert_eq!(Group::parse("7-4"), None);
        assert_eq!(Group::parse("x"), None);
    }
}

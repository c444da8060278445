//! A run's outcome turned into the reported numbers: CCT against the lower bound, queues and
//! utilization per link stage.
//!
//! Queue bytes at a port = bytes not yet on the wire, including the untransmitted part of the
//! packet in service. `max_queue_bytes` is its largest value; `mean_queue_bytes` its time
//! average over the collective, averaged over the stage's ports. Queue metrics cover switch
//! egress ports (host NICs hold at most their ACKs and one data packet); utilization covers
//! every stage, host NICs included.
//!
//! Architecture Invariant: `metrics` writes no file and prints nothing: [`columns::table`]
//! hands each row to its caller. Its one clock reading is a run's wall time, which goes only
//! to `perf`.

mod bound;
pub mod columns;
mod flows;
pub mod stats;
mod trace;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::engine::Time;
use crate::net::Fabric;
use crate::net::Stage;
use crate::params::SimParams;
use crate::sim::{simulate_traced, RunOutcome};
use crate::workload::{FlowSpec, WorkloadSpec};
pub use bound::{
    collective_bound_ps, critical_path_ps, dependency_terms, lower_bound_ps, DependencyTerms, Gates,
};
pub use flows::{FlowRecord, FlowTable};
use stats::{mean, quantile};
use std::sync::atomic::{AtomicBool, Ordering};
pub use trace::{trace_records, TraceRecord};

/// The reported numbers of one run. Everything but `perf` is a pure function of the params.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RunReport {
    pub lb: String,
    pub host_lb: String,
    pub cc: String,
    pub workload: String,
    pub seed: u64,
    pub message_bytes: u64,
    pub hosts: u32,
    /// `None` when some flow did not complete (e.g. drops without retransmission).
    pub cct_us: Option<f64>,
    /// `None` for a run with no flows (nothing to bound).
    pub lower_bound_us: Option<f64>,
    pub cct_inflation: Option<f64>,
    pub max_queue_bytes: BTreeMap<String, u64>,
    pub mean_queue_bytes: BTreeMap<String, f64>,
    pub utilization: BTreeMap<String, f64>,
    pub drops: u64,
    pub trims: u64,
    pub retransmits: u64,
    pub timeouts: u64,
    pub duplicates: u64,
    /// Data packets first received after a later one of their flow.
    #[serde(default)]
    pub reordered: u64,
    pub ecn_marks: u64,
    pub flows_completed: u64,
    pub flows_total: u64,
    /// Flow completion times of the completed flows.
    pub fct_mean_us: Option<f64>,
    pub fct_p99_us: Option<f64>,
    #[serde(default)]
    pub fct_p50_us: Option<f64>,
    /// FCTs of the completed flows by size bucket (`run.fct_buckets`, by default `<10KB`,
    /// `10KB-100KB`, `100KB-1MB`, `>=1MB`; only buckets with flows).
    #[serde(default)]
    pub fct_by_size: BTreeMap<String, FctStats>,
    /// Mean over started flows of payload acknowledged / (finish or stop - start).
    #[serde(default)]
    pub mean_throughput_gbps: Option<f64>,
    /// Netbench's mean throughput (its analysis's `throughput_mean_Gbps`): over the completed
    /// flows that started after `run.warmup_us`, the mean of size x 8 / FCT; unfinished flows
    /// are left out (the Fastroute paper's metric).
    #[serde(default)]
    pub thrp_completed_gbps: Option<f64>,
    /// [`RunReport::thrp_completed_gbps`] of the flows between racks (different edge
    /// switches) and of those inside one.
    #[serde(default)]
    pub thrp_inter_rack_gbps: Option<f64>,
    #[serde(default)]
    pub thrp_intra_rack_gbps: Option<f64>,
    /// Aggregate goodput: payload bytes acknowledged over the run, over its length, summed
    /// over hosts.
    #[serde(default)]
    pub goodput_gbps: Option<f64>,
    /// The same over the run's second half (halfway from `run.warmup_us` to
    /// `run.duration_us`), beside `offered_gbps`: in a steady state the fabric delivers what
    /// arrives, in an overload less.
    #[serde(default)]
    pub goodput_late_gbps: Option<f64>,
    /// Poisson arrivals (Fastroute's web and hadoop): the payload of the flows that arrive
    /// before the run's end, over its length (`workload.load` x hosts x host link rate, as
    /// drawn).
    #[serde(default)]
    pub offered_gbps: Option<f64>,
    /// Phased workloads (Fastroute's ring and fast): over the phases that end by the run's
    /// end, the smallest share (%) of a phase's flows completed by the phase's end.
    #[serde(default)]
    pub phase_done_pct: Option<f64>,
    /// `run.start_bins_us`: mean flow throughput (as `mean_throughput_gbps`) of the flows
    /// starting in each bin, keyed by the bin's start in µs (zero-padded, so in time order).
    #[serde(default)]
    pub thrp_by_start: BTreeMap<String, f64>,
    /// The flows of each bin of `thrp_by_start`.
    #[serde(default)]
    pub flows_by_start: BTreeMap<String, u64>,
    /// The switches' architecture and the port speed it leaves.
    #[serde(default)]
    pub arch: String,
    #[serde(default)]
    pub port_gbps: f64,
    /// Bytes that crossed to another ASIC inside a switch (once per packet and switch; a
    /// packet dropped on the way does not count).
    #[serde(default)]
    pub inter_asic_bytes: u64,
    /// Packets dropped by full inter-ASIC buffers (included in `drops`).
    #[serde(default)]
    pub inter_asic_drops: u64,
    /// Fastroute: switch reconfigurations applied, ports moved, total time moved ports held
    /// their packets (downtime plus ordering barrier).
    #[serde(default)]
    pub reconfigurations: u64,
    #[serde(default)]
    pub ports_moved: u64,
    #[serde(default)]
    pub dark_us: f64,
    /// Inter-ASIC utilization (all switches: bytes crossing / capacity leaving the ASICs)
    /// per `inter_asic_sample_us`, from time 0 (empty for the ideal switch).
    #[serde(default)]
    pub inter_asic_util: Vec<f64>,
    #[serde(default)]
    pub inter_asic_sample_us: f64,
    pub events: u64,
    pub packet_hops: u64,
    /// Per collective (collective workloads, FSDP, MoE): CCT from its first packet to its
    /// last ACK, and its lower bound.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub collectives: Vec<CollectiveReport>,
    /// With `failures.links`: the largest uniform host rate the surviving valid shortest
    /// paths carry, perfectly balanced (`net::failures`), and the failed links. The CCT
    /// inflation stays measured against the failure-free lower bound.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rho_max: Option<f64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub failed_links: Vec<String>,
    /// Incremental deployment: the load balancer of every switch that differs from `lb`, as
    /// "tier index=scheme" counts, e.g. `{"edge:pofan": 36}`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub deployment: BTreeMap<String, u32>,
    /// Combining-pipeline counts, present when `switch.combining = true` (ofan, pofan).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub combining: Option<crate::hw::CycleStats>,
    /// `switch.pfc`: the PFC frames and pauses over every port (absent without PFC).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pfc: Option<PfcReport>,
    /// `switch.pfc`: each port that sent, received or dropped anything of PFC, in port
    /// order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pfc_ports: Vec<PfcPort>,
    /// Why the no-progress watchdog ended the run, if it did (absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stalled: Option<String>,
    /// What in the scenario likely defeats its purpose (absent when nothing does).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    pub perf: Perf,
}

/// `switch.pfc`: a run's PFC counts over every port.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PfcReport {
    /// PAUSE and RESUME frames the switches sent.
    pub pauses_sent: u64,
    pub resumes_sent: u64,
    /// PAUSE and RESUME frames that reached their port's sender (switches and NICs).
    pub pauses_received: u64,
    pub resumes_received: u64,
    /// Time ports were paused, summed over ports.
    pub paused_us: f64,
    /// The longest any one port was paused in total.
    pub max_port_paused_us: f64,
    /// Packets dropped at an ingress port whose headroom was exhausted (in `drops`).
    pub headroom_drops: u64,
}

/// One port's PFC counts (`RunReport::pfc_ports`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PfcPort {
    /// The port's index (as in the trace) and the nodes at its ends, as the topology file
    /// numbers them.
    pub port: u32,
    pub from_node: u64,
    pub to_node: u64,
    /// Frames the port sent (its switch's PAUSEs and RESUMEs of the upstream neighbour).
    pub pauses_sent: u64,
    pub resumes_sent: u64,
    /// Frames that paused and resumed the port.
    pub pauses_received: u64,
    pub resumes_received: u64,
    pub paused_us: f64,
    /// Packets dropped at the port's switch end as they came in, its headroom exhausted.
    pub headroom_drops: u64,
}

/// The ports of `o` with any PFC count, in port order.
fn pfc_ports(params: &SimParams, o: &RunOutcome) -> Vec<PfcPort> {
    let idle = crate::sim::PortPfc::default();
    o.pfc
        .iter()
        .enumerate()
        .filter(|(_, p)| **p != idle)
        .map(|(g, p)| {
            let (from, to) = o.fabric.port_ends(g as u32);
            PfcPort {
                port: g as u32,
                from_node: params.topology.node_id(from),
                to_node: params.topology.node_id(to),
                pauses_sent: p.pauses_sent,
                resumes_sent: p.resumes_sent,
                pauses_received: p.pauses_received,
                resumes_received: p.resumes_received,
                paused_us: p.paused_ps.as_us_f64(),
                headroom_drops: p.headroom_drops,
            }
        })
        .collect()
}

impl PfcReport {
    /// The totals of the ports' counters.
    pub fn of(ports: &[crate::sim::PortPfc]) -> Self {
        let sum = |f: fn(&crate::sim::PortPfc) -> u64| ports.iter().map(f).sum();
        let paused = |p: &crate::sim::PortPfc| p.paused_ps;
        PfcReport {
            pauses_sent: sum(|p| p.pauses_sent),
            resumes_sent: sum(|p| p.resumes_sent),
            pauses_received: sum(|p| p.pauses_received),
            resumes_received: sum(|p| p.resumes_received),
            paused_us: ports
                .iter()
                .map(paused)
                .fold(Time::ZERO, |a, b| a + b)
                .as_us_f64(),
            max_port_paused_us: ports
                .iter()
                .map(paused)
                .max()
                .unwrap_or(Time::ZERO)
                .as_us_f64(),
            headroom_drops: sum(|p| p.headroom_drops),
        }
    }
}

/// Completion times of one size bucket.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FctStats {
    pub flows: u64,
    pub mean_us: f64,
    pub p50_us: f64,
    pub p99_us: f64,
}

/// The size buckets of ascending `boundaries`: (lower bound, upper bound (exclusive), name),
/// e.g. `<10KB`, `10KB-100KB`, `>=100KB` for `[10000, 100000]`.
pub fn size_buckets(boundaries: &[u64]) -> Vec<(u64, u64, String)> {
    let name = |b: u64| match b {
        _ if b.is_multiple_of(1_000_000_000) => format!("{}GB", b / 1_000_000_000),
        _ if b.is_multiple_of(1_000_000) => format!("{}MB", b / 1_000_000),
        _ if b.is_multiple_of(1_000) => format!("{}KB", b / 1_000),
        _ => format!("{b}B"),
    };
    let mut out = Vec::with_capacity(boundaries.len() + 1);
    let mut lower = 0;
    for &b in boundaries {
        let label = if lower == 0 {
            format!("<{}", name(b))
        } else {
            format!("{}-{}", name(lower), name(b))
        };
        out.push((lower, b, label));
        lower = b;
    }
    let last = if lower == 0 {
        "all".to_string()
    } else {
        format!(">={}", name(lower))
    };
    out.push((lower, u64::MAX, last));
    out
}

fn fct_stats(sorted: &[f64]) -> FctStats {
    FctStats {
        flows: sorted.len() as u64,
        mean_us: mean(sorted).unwrap_or(0.0),
        p50_us: quantile(sorted, 0.5).unwrap_or(0.0),
        p99_us: quantile(sorted, 0.99).unwrap_or(0.0),
    }
}

/// Per-flow throughput in Gb/s of the flows that started in [from, to) and before `stop_ps`:
/// payload acknowledged over the time to the flow's finish or the run's end.
fn flow_rates_gbps(o: &RunOutcome, from: Time, to: Time) -> Vec<f64> {
    o.flows
        .iter()
        .zip(o.fcts())
        .zip(&o.results)
        .filter(|((f, _), _)| f.start_ps >= from && f.start_ps < to.min(o.stop_ps))
        .map(|((f, fct), r)| {
            let bytes = r.acked_bytes;
            let span = fct.unwrap_or(o.stop_ps - f.start_ps).max(Time::from_ps(1));
            bytes as f64 * 8.0 / span.as_ps_f64() * 1e3
        })
        .collect()
}

/// Netbench's mean throughput in Gb/s ([`RunReport::thrp_completed_gbps`]) of the flows
/// that started at `from` or later and `keep` accepts.
fn completed_thrp_gbps(
    o: &RunOutcome,
    from: Time,
    keep: impl Fn(&FlowSpec) -> bool,
) -> Option<f64> {
    let rates: Vec<f64> = o
        .flows
        .iter()
        .zip(o.fcts())
        .filter(|(f, _)| f.start_ps >= from && keep(f))
        .filter_map(|(f, fct)| Some(f.bytes as f64 * 8.0 / fct?.as_ps_f64().max(1.0) * 1e3))
        .collect();
    mean(&rates)
}

/// Payload bytes over `span` in Gb/s (`None` for an empty span).
fn gbps(bytes: u64, span: Time) -> Option<f64> {
    (span > Time::ZERO).then(|| bytes as f64 * 8.0 / span.as_ps_f64() * 1e3)
}

/// The mean of [`flow_rates_gbps`] and the flow count per bin of flow start times: `[0, b0)`,
/// `[b0, b1)`, ..., up to the run's end, keyed by the bin's start in µs (bins without flows
/// are left out).
fn by_start(o: &RunOutcome, bins: &[Time]) -> (BTreeMap<String, f64>, BTreeMap<String, u64>) {
    let (mut thrp, mut flows) = (BTreeMap::new(), BTreeMap::new());
    let mut from = Time::ZERO;
    let ends = bins.iter().copied().chain(std::iter::once(Time::MAX));
    for to in ends.take(if bins.is_empty() { 0 } else { bins.len() + 1 }) {
        let rates = flow_rates_gbps(o, from, to);
        if let Some(x) = mean(&rates) {
            let key = format!("{:07.1}", from.as_us_f64());
            thrp.insert(key.clone(), x);
            flows.insert(key, rates.len() as u64);
        }
        from = to;
    }
    (thrp, flows)
}

/// Whether the workload is Poisson arrivals (Fastroute's web and hadoop).
fn poisson(params: &SimParams) -> bool {
    matches!(&params.workload, WorkloadSpec::Fastroute(w) if w.pattern.kind().poisson())
}

/// [`RunReport::phase_done_pct`]: `None` unless the workload has phases and one ends by the
/// run's end.
fn phase_done_pct(params: &SimParams, o: &RunOutcome) -> Option<f64> {
    let WorkloadSpec::Fastroute(w) = &params.workload else {
        return None;
    };
    let period = w.pattern.period_ps()?;
    let phases = (o.stop_ps / period) as usize;
    let mut done = vec![(0u64, 0u64); phases];
    for (f, fct) in o.flows.iter().zip(o.fcts()) {
        let p = (f.start_ps / period) as usize;
        if let Some(d) = done.get_mut(p) {
            d.1 += 1;
            let end = period.saturating_mul(p as u64 + 1);
            d.0 += u64::from(fct.is_some_and(|t| f.start_ps + t <= end));
        }
    }
    done.iter()
        .filter(|d| d.1 > 0)
        .map(|&(k, n)| 100.0 * k as f64 / n as f64)
        .min_by(f64::total_cmp)
}

/// One collective of a run.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CollectiveReport {
    pub name: String,
    /// `None` if some flow of it did not complete.
    pub cct_us: Option<f64>,
    pub lower_bound_us: f64,
    /// Bytes its flows carry.
    pub bytes: u64,
}

/// Wall-clock measurements: the only part of a report that may differ between two runs.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize)]
pub struct Perf {
    pub wall_s: f64,
    pub packet_hops_per_s: f64,
    /// Partitions (threads) the run was simulated on: `run.threads`, or 1 where the run's
    /// parts are not independent (see `run.threads`).
    #[serde(default)]
    pub partitions: u32,
}

/// Runs the simulation and reports it.
pub fn run(params: &SimParams) -> RunReport {
    run_with(params, Extras::default()).report
}

/// What a run returns besides its report, when asked for.
#[derive(Clone, Copy, Debug, Default)]
pub struct Extras {
    /// Per-flow rows ([`FlowTable`]).
    pub flows: bool,
    /// Per-port samples every `trace_interval_ps` ([`TraceRecord`]).
    pub trace: bool,
}

/// A run's report, and its flows and trace when asked for.
#[derive(Clone, Debug)]
pub struct RunResult {
    pub report: RunReport,
    pub flows: Option<FlowTable>,
    pub trace: Option<Vec<TraceRecord>>,
}

/// Runs the simulation and reports it, with the `extras` asked for (the report is the same
/// with or without them).
pub fn run_with(params: &SimParams, extras: Extras) -> RunResult {
    run_cancellable(params, extras, None)
}

/// [`run_with`], stopping early once `cancel` is set (the report then says so in `stalled`).
fn run_cancellable(params: &SimParams, extras: Extras, cancel: Option<&AtomicBool>) -> RunResult {
    let start = std::time::Instant::now();
    let trace = extras.trace.then_some(params.run.trace_interval_ps);
    let outcome = simulate_traced(params, trace, cancel);
    let wall_s = start.elapsed().as_secs_f64();
    let mut report = report(params, &outcome);
    report.perf = Perf {
        wall_s,
        packet_hops_per_s: outcome.counters.packet_hops as f64 / wall_s.max(1e-9),
        partitions: outcome.partitions,
    };
    let trace = extras.trace.then(|| trace_records(params, &outcome));
    RunResult {
        report,
        flows: extras.flows.then(|| FlowTable::new(params, outcome)),
        trace,
    }
}

/// Runs every one of `runs` on a pool of `jobs` threads (`None`: one per core), keeping the
/// input order (`fabsim run`, the Python package); `done` is called after each run with its
/// index and result, on the thread that ran it (it may take the result's extras, e.g. to
/// write a run's flows as soon as it finishes rather than hold every run's). Once
/// `cancel` is set, runs in progress stop within a few milliseconds, no other starts, and the
/// result is `Ok(None)`.
pub fn run_parallel(
    runs: &[&SimParams],
    jobs: Option<usize>,
    extras: Extras,
    done: &(dyn Fn(usize, &mut RunResult) + Sync),
    cancel: Option<&AtomicBool>,
) -> Result<Option<Vec<RunResult>>, String> {
    use rayon::prelude::*;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.unwrap_or(0))
        .build()
        .map_err(|e| format!("thread pool: {e}"))?;
    let cancelled = || cancel.is_some_and(|c| c.load(Ordering::Relaxed));
    Ok(pool.install(|| {
        runs.par_iter()
            .enumerate()
            .map(|(i, p)| {
                if cancelled() {
                    return None;
                }
                let mut r = run_cancellable(p, extras, cancel);
                done(i, &mut r);
                (!cancelled()).then_some(r)
            })
            .collect()
    }))
}

/// Switches per (tier, scheme) whose scheme differs from `switch.lb`.
fn deployment_counts(params: &SimParams, f: &Fabric) -> BTreeMap<String, u32> {
    let mut out = BTreeMap::new();
    if params.switch.deployment.is_uniform() {
        return out;
    }
    let kinds = params
        .switch
        .deployment
        .per_switch(params.switch.lb, f, params.run.seed);
    for (s, k) in f.switches.iter().zip(kinds) {
        if k != params.switch.lb {
            let tier = Stage::name(
                match s.tier {
                    crate::net::Tier::Edge => Stage::EdgeUp,
                    crate::net::Tier::Agg => Stage::AggUp,
                    crate::net::Tier::Core => Stage::CoreDown,
                },
                f.tiers,
            )
            .split('-')
            .next()
            .unwrap_or("")
            .to_string();
            *out.entry(format!("{tier}:{}", k.name())).or_insert(0) += 1;
        }
    }
    out
}

/// Each collective's CCT and bytes beside its lower bound (`bounds`, in order).
fn collective_reports(o: &RunOutcome, bounds: &[Time]) -> Vec<CollectiveReport> {
    o.collectives
        .iter()
        .zip(bounds)
        .map(|(c, bound)| {
            let ids = c.flows();
            let ids = ids.start as usize..ids.end as usize;
            let first = o.results[ids.clone()]
                .iter()
                .filter_map(|r| r.first_tx_ps())
                .min();
            let done: Option<Vec<Time>> = o.results[ids.clone()]
                .iter()
                .map(|r| r.finish_ps())
                .collect();
            let end = done.and_then(|d| d.into_iter().max());
            let cct = match (first, end) {
                (Some(a), Some(b)) => Some((b - a).as_us_f64()),
                _ => None,
            };
            CollectiveReport {
                name: c.name.clone(),
                cct_us: cct,
                lower_bound_us: bound.as_us_f64(),
                bytes: o.flows[ids].iter().map(|f| f.bytes).sum(),
            }
        })
        .collect()
}

/// Per stage name and over `all`: the largest queue (bytes), the mean queue over `span` ps
/// (bytes) and the utilization, of the ports of a run's outcome.
type PortStats = (
    BTreeMap<String, u64>,
    BTreeMap<String, f64>,
    BTreeMap<String, f64>,
);

/// [`PortStats`] of `o` over `span` ps (queues leave out the hosts' uplinks).
fn port_stats(o: &RunOutcome, span: f64) -> PortStats {
    let tiers = o.fabric.tiers;
    let mut max_q = BTreeMap::new();
    let mut mean_q = BTreeMap::new();
    let mut util = BTreeMap::new();
    let (mut all_max, mut all_integral, mut all_queue_ports) = (0u64, 0f64, 0usize);
    let (mut all_busy, mut all_ports) = (0f64, 0usize);
    for stage in Stage::ALL {
        let ids: Vec<usize> = (0..o.fabric.ports())
            .filter(|&i| o.fabric.port_stage[i] == stage)
            .collect();
        if ids.is_empty() {
            continue;
        }
        let name = stage.name(tiers).to_string();
        let busy: f64 = ids
            .iter()
            .map(|&i| o.ports.stats[i].busy_ps.as_ps_f64())
            .sum();
        util.insert(name.clone(), busy / (ids.len() as f64 * span));
        all_busy += busy;
        all_ports += ids.len();
        if stage == Stage::HostUp {
            continue;
        }
        let max = ids
            .iter()
            .map(|&i| o.ports.bytes_in(i as u32, o.ports.stats[i].max_backlog_ps))
            .max()
            .unwrap_or(0);
        // Integral in (ps of link time) x ps, each port's link time at its rate relative to
        // the NICs': to bytes x time, then averaged over the span.
        let integral: f64 = ids
            .iter()
            .map(|&i| o.ports.stats[i].backlog_integral as f64 * o.ports.relative_rate(i as u32))
            .sum();
        let mean = o.ports.bytes_per_ps() * integral / (ids.len() as f64 * span);
        max_q.insert(name.clone(), max);
        mean_q.insert(name, mean);
        all_max = all_max.max(max);
        all_integral += integral;
        all_queue_ports += ids.len();
    }
    max_q.insert("all".into(), all_max);
    mean_q.insert(
        "all".into(),
        o.ports.bytes_per_ps() * all_integral / (all_queue_ports.max(1) as f64 * span),
    );
    util.insert("all".into(), all_busy / (all_ports as f64 * span));
    (max_q, mean_q, util)
}

/// The FCTs (µs) of the flows past the warm-up, sorted, and their statistics per size bucket.
fn steady_fcts(params: &SimParams, o: &RunOutcome) -> (Vec<f64>, BTreeMap<String, FctStats>) {
    // Flows past the warm-up (`run.warmup_us`; all of them by default), with their FCTs.
    let steady = || {
        o.flows
            .iter()
            .zip(o.fcts())
            .filter(|(f, _)| f.start_ps >= params.run.warmup_ps)
    };
    let mut fcts: Vec<f64> = steady()
        .filter_map(|(_, t)| t.map(Time::as_us_f64))
        .collect();
    fcts.sort_by(f64::total_cmp);
    let mut fct_by_size = BTreeMap::new();
    for (lower, upper, name) in size_buckets(&params.run.fct_buckets) {
        let mut xs: Vec<f64> = steady()
            .filter(|(f, _)| (lower..upper).contains(&f.bytes))
            .filter_map(|(_, t)| t.map(Time::as_us_f64))
            .collect();
        if xs.is_empty() {
            continue;
        }
        xs.sort_by(f64::total_cmp);
        fct_by_size.insert(name, fct_stats(&xs));
    }
    (fcts, fct_by_size)
}

fn report(params: &SimParams, o: &RunOutcome) -> RunReport {
    let (bound, collective_bounds) = bound::lower_bounds(params, o);
    let cct = o.end_ps.map(|e| e - o.start_ps);
    let span = cct.unwrap_or(o.stop_ps.saturating_sub(o.start_ps));
    let span = span.max(Time::from_ps(1)).as_ps_f64();
    let (max_q, mean_q, util) = port_stats(o, span);
    let (fcts, fct_by_size) = steady_fcts(params, o);
    let asic = o.asic.clone().unwrap_or_default();
    let sample_ps = params.arch.sample_ps;
    let inter_asic_util = asic
        .series_bytes
        .iter()
        .map(|&b| b as f64 * 8.0 / (asic.capacity_bps * sample_ps.as_ps_f64() / 1e12))
        .collect();
    let c = &o.counters;
    let (thrp_by_start, flows_by_start) = by_start(o, &params.run.start_bins_ps);
    RunReport {
        lb: params.switch.lb.name().to_string(),
        host_lb: params.host.lb.name().to_string(),
        cc: params.host.transport.cc.kind.name().to_string(),
        workload: params.workload.kind_name().to_string(),
        seed: params.run.seed,
        message_bytes: params.workload.message_bytes(),
        hosts: o.fabric.hosts,
        cct_us: cct.map(Time::as_us_f64),
        lower_bound_us: (o.flows_total > 0).then(|| bound.as_us_f64()),
        cct_inflation: cct.map(|c| (c.as_ps_f64() - bound.as_ps_f64()) / bound.as_ps_f64()),
        max_queue_bytes: max_q,
        mean_queue_bytes: mean_q,
        utilization: util,
        drops: c.dropped,
        trims: c.trims,
        retransmits: c.retransmits,
        timeouts: c.timeouts,
        duplicates: c.duplicates,
        reordered: c.reordered,
        ecn_marks: c.ecn_marks,
        fct_mean_us: mean(&fcts),
        fct_p99_us: quantile(&fcts, 0.99),
        fct_p50_us: quantile(&fcts, 0.5),
        fct_by_size,
        mean_throughput_gbps: mean(&flow_rates_gbps(o, params.run.warmup_ps, Time::MAX)),
        thrp_completed_gbps: completed_thrp_gbps(o, params.run.warmup_ps, |_| true),
        thrp_inter_rack_gbps: completed_thrp_gbps(o, params.run.warmup_ps, |f| {
            o.fabric.edge_of(f.src) != o.fabric.edge_of(f.dst)
        }),
        thrp_intra_rack_gbps: completed_thrp_gbps(o, params.run.warmup_ps, |f| {
            o.fabric.edge_of(f.src) == o.fabric.edge_of(f.dst)
        }),
        goodput_gbps: gbps(o.results.iter().map(|r| r.acked_bytes).sum(), o.stop_ps),
        goodput_late_gbps: params.run.stop_ps.and_then(|_| {
            let from = params.run.second_half_ps().min(o.stop_ps);
            gbps(c.acked_late_bytes, o.stop_ps - from)
        }),
        offered_gbps: poisson(params)
            .then_some(params.run.stop_ps)
            .flatten()
            .and_then(|stop| {
                let offered = o
                    .flows
                    .iter()
                    .filter(|f| f.start_ps < stop)
                    .map(|f| f.bytes);
                gbps(offered.sum(), stop)
            }),
        phase_done_pct: phase_done_pct(params, o),
        thrp_by_start,
        flows_by_start,
        arch: params.arch.arch.name().to_string(),
        port_gbps: params.link.rate_bps as f64 / 1e9,
        inter_asic_bytes: asic.inter_asic_bytes,
        inter_asic_drops: asic.drops,
        reconfigurations: asic.reconfigurations,
        ports_moved: asic.ports_moved,
        dark_us: asic.dark_ps.as_us_f64(),
        inter_asic_util,
        inter_asic_sample_us: o.asic.as_ref().map_or(0.0, |_| sample_ps.as_us_f64()),
        flows_completed: o.flows_completed,
        flows_total: o.flows_total,
        events: c.events,
        packet_hops: c.packet_hops,
        collectives: collective_reports(o, &collective_bounds),
        rho_max: o.failures.as_ref().map(|f| f.1),
        deployment: deployment_counts(params, &o.fabric),
        failed_links: o
            .failures
            .as_ref()
            .map_or(Vec::new(), |f| f.0.names.clone()),
        combining: o.combining,
        pfc: params.switch.pfc_buffer.map(|_| PfcReport::of(&o.pfc)),
        pfc_ports: pfc_ports(params, o),
        stalled: o.stalled.clone(),
        warnings: warnings(params),
        perf: Perf::default(),
    }
}

/// What a run's outcome says to warn of (without the `warning: ` prefix): why the watchdog
/// stopped it, and a Fastroute run whose flows all ended before its first mapping could
/// apply. `label`: the run's swept keys, to name it.
pub fn run_warnings(label: &[(String, String)], p: &SimParams, r: &RunReport) -> Vec<String> {
    let at = run_name(label, r);
    let mut w = Vec::new();
    if let Some(why) = &r.stalled {
        w.push(format!("{at} stopped: {why}"));
    }
    if let Some(c) = p.arch.circuit.as_ref() {
        let first_us = (c.interval_ps + c.compute_delay_ps).as_us_f64();
        if r.cct_us.is_some_and(|t| t < first_us) {
            w.push(format!(
                "{at}: every flow ended ({} us) before Fastroute's first mapping \
                 could apply ({} us = switch.reconfig_interval_us + switch.compute_delay_us): \
                 it measures the initial mapping; use longer messages or a shorter interval",
                r.cct_us.unwrap_or_default(),
                first_us
            ));
        }
    }
    w
}

/// How messages name a run: `run` with its swept keys and its seed
/// (`run workload.load=0.2 (seed 1)`).
pub fn run_name(label: &[(String, String)], r: &RunReport) -> String {
    let at: String = label.iter().map(|(k, v)| format!(" {k}={v}")).collect();
    format!("run{at} (seed {})", r.seed)
}

/// A run as [`sweep_warnings`] reads it: its label (swept keys), parameters and report.
pub type LabelledRun<'a> = (&'a [(String, String)], &'a SimParams, &'a RunReport);

/// Everything a sweep warns of, in the order `fabsim run` prints it: each run's
/// [`run_warnings`], then each of the scenario's [`RunReport::warnings`] once, with how many
/// runs it concerns.
pub fn sweep_warnings(runs: &[LabelledRun]) -> Vec<String> {
    let mut lines: Vec<String> = (runs.iter())
        .flat_map(|&(label, p, r)| run_warnings(label, p, r))
        .collect();
    let mut warned = std::collections::BTreeMap::<&str, usize>::new();
    for w in runs.iter().flat_map(|r| &r.2.warnings) {
        *warned.entry(w).or_default() += 1;
    }
    for (w, n) in warned {
        lines.push(format!("{w} ({n} of {} runs)", runs.len()));
    }
    lines
}

/// Settings that run without error but likely not as meant.
fn warnings(params: &SimParams) -> Vec<String> {
    let cc = params.host.transport.cc.kind;
    let mut w = Vec::new();
    let (ecn, delay) = cc.signals();
    if ecn && params.switch.ecn.is_none() {
        w.push(format!(
            "host.cc = \"{}\" reacts to ECN marks, but no port marks (switch.ecn_kmin_bytes / ecn_kmax_bytes unset, switch.ecn_default = \"none\"){}",
            cc.name(),
            if delay {
                ": it acts on delay alone"
            } else {
                ": it never cuts its window"
            }
        ));
    }
    w
}

#[cfg(test)]
mod tests {
    use super::size_buckets;

    #[test]
    fn size_bucket_names() {
        let names =
            |b: &[u64]| -> Vec<String> { size_buckets(b).into_iter().map(|(_, _, n)| n).collect() };
        // run.fct_buckets' default: the names the reports always had.
        assert_eq!(
            names(&[10_000, 100_000, 1_000_000]),
            ["<10KB", "10KB-100KB", "100KB-1MB", ">=1MB"]
        );
        assert_eq!(
            names(&[1500, 2_000_000_000]),
            ["<1500B", "1500B-2GB", ">=2GB"]
        );
        let b = size_buckets(&[1500]);
        assert_eq!((b[0].0, b[0].1, b[1].0, b[1].1), (0, 1500, 1500, u64::MAX));
    }
}

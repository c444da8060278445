//! A run's outcome turned into the reported numbers: CCT against the lower bound, queues and
//! utilization per link stage.
//!
//! Queue bytes at a port = bytes not yet on the wire, including the untransmitted part of the
//! packet in service. `max_queue_bytes` is its largest value; `mean_queue_bytes` its time
//! average over the collective, averaged over the stage's ports. Queue metrics cover switch
//! egress ports (host NICs hold at most their ACKs and one data packet); utilization covers
//! every stage, host NICs included.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::engine::{ps_to_us, Time};
use crate::net::Stage;
use crate::sim::{simulate, RunOutcome, SimParams};
use crate::theory::{naive_bound_ps, permutation_bound_ps};
use crate::workload::WorkloadSpec;

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
    pub lower_bound_us: f64,
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
    /// FCTs of the completed flows by size bucket (`<10KB`, `10KB-100KB`, `100KB-1MB`,
    /// `>=1MB`; only buckets with flows).
    #[serde(default)]
    pub fct_by_size: BTreeMap<String, FctStats>,
    /// Mean over started flows of payload acknowledged / (finish or stop - start).
    #[serde(default)]
    pub mean_throughput_gbps: Option<f64>,
    /// The switches' architecture and the port speed it leaves.
    #[serde(default)]
    pub arch: String,
    #[serde(default)]
    pub port_gbps: f64,
    /// Bytes that crossed to another ASIC inside a switch (once per packet and switch).
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
    /// Combining-pipeline counts, present when `switch.combining = true` (ofan, pofan).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub combining: Option<crate::hw::CycleStats>,
    pub perf: Perf,
}

/// Completion times of one size bucket.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FctStats {
    pub flows: u64,
    pub mean_us: f64,
    pub p50_us: f64,
    pub p99_us: f64,
}

/// Size buckets for [`RunReport::fct_by_size`]: upper bounds (exclusive) and names.
const SIZE_BUCKETS: [(u64, &str); 4] = [
    (10_000, "<10KB"),
    (100_000, "10KB-100KB"),
    (1_000_000, "100KB-1MB"),
    (u64::MAX, ">=1MB"),
];

/// The `q`-quantile (nearest rank) of sorted `xs`.
fn quantile(xs: &[f64], q: f64) -> Option<f64> {
    let rank = ((xs.len() as f64 * q).ceil() as usize).saturating_sub(1);
    xs.get(rank).copied()
}

fn fct_stats(sorted: &[f64]) -> FctStats {
    FctStats {
        flows: sorted.len() as u64,
        mean_us: sorted.iter().sum::<f64>() / sorted.len() as f64,
        p50_us: quantile(sorted, 0.5).unwrap_or(0.0),
        p99_us: quantile(sorted, 0.99).unwrap_or(0.0),
    }
}

/// Mean per-flow throughput in Gb/s over the flows that started before `stop_ps`.
fn mean_throughput_gbps(o: &RunOutcome) -> Option<f64> {
    let rates: Vec<f64> = o
        .flows
        .iter()
        .zip(&o.fct_ps)
        .zip(&o.acked_bytes)
        .filter(|((f, _), _)| f.start_ps < o.stop_ps)
        .map(|((f, fct), &bytes)| {
            let span = fct.unwrap_or(o.stop_ps - f.start_ps).max(1);
            bytes as f64 * 8.0 / span as f64 * 1e3
        })
        .collect();
    (!rates.is_empty()).then(|| rates.iter().sum::<f64>() / rates.len() as f64)
}

/// Wall-clock measurements: the only part of a report that may differ between two runs.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize)]
pub struct Perf {
    pub wall_s: f64,
    pub packet_hops_per_s: f64,
}

/// Runs the simulation and reports it.
pub fn run(params: &SimParams) -> RunReport {
    let start = std::time::Instant::now();
    let outcome = simulate(params);
    let wall_s = start.elapsed().as_secs_f64();
    let mut report = report(params, &outcome);
    report.perf = Perf {
        wall_s,
        packet_hops_per_s: outcome.counters.packet_hops as f64 / wall_s.max(1e-9),
    };
    report
}

/// The CCT lower bound of the workload (Ofan appendix A for permutations, naive otherwise).
pub fn lower_bound_ps(params: &SimParams, outcome: &RunOutcome) -> Time {
    let f = &outcome.fabric;
    let link = &params.link;
    match params.workload {
        WorkloadSpec::Permutation { message_bytes } => {
            let hops = outcome.flows.iter().map(|fl| f.hops(fl.src, fl.dst)).max();
            permutation_bound_ps(link, message_bytes, hops.unwrap_or(2))
        }
        WorkloadSpec::AllToAll { .. }
        | WorkloadSpec::Incast { .. }
        | WorkloadSpec::Fastroute(_) => {
            // Per host and direction: its NIC sends its data and the ACKs it owes; its
            // downlink brings the data sent to it and the ACKs of its own data.
            let mut out = vec![0u64; f.hosts as usize];
            let mut into = vec![0u64; f.hosts as usize];
            let mut min_data = u32::MAX;
            for fl in &outcome.flows {
                for size in link.packet_sizes(fl.bytes) {
                    out[fl.src as usize] += size as u64;
                    out[fl.dst as usize] += link.ack_bytes as u64;
                    into[fl.dst as usize] += size as u64;
                    into[fl.src as usize] += link.ack_bytes as u64;
                    min_data = min_data.min(size);
                }
            }
            let nic = out.into_iter().chain(into);
            let min_hops = outcome.flows.iter().map(|fl| f.hops(fl.src, fl.dst)).min();
            naive_bound_ps(
                link,
                nic.max().unwrap_or(0),
                min_data,
                min_hops.unwrap_or(2),
            )
        }
    }
}

fn report(params: &SimParams, o: &RunOutcome) -> RunReport {
    let bound = lower_bound_ps(params, o);
    let cct = o.end_ps.map(|e| e - o.start_ps);
    let span = cct.unwrap_or(o.stop_ps - o.start_ps).max(1);
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
        let busy: f64 = ids.iter().map(|&i| o.ports.stats[i].busy_ps as f64).sum();
        util.insert(name.clone(), busy / (ids.len() as f64 * span as f64));
        all_busy += busy;
        all_ports += ids.len();
        if stage == Stage::HostUp {
            continue;
        }
        let max = ids
            .iter()
            .map(|&i| o.ports.ps_to_bytes(o.ports.stats[i].max_backlog_ps))
            .max()
            .unwrap_or(0);
        // Integral in (ps of link time) x ps: to bytes x time, then averaged over the span.
        let integral: f64 = ids
            .iter()
            .map(|&i| o.ports.stats[i].backlog_integral as f64)
            .sum();
        let mean = o.ports.bytes_per_ps() * integral / (ids.len() as f64 * span as f64);
        max_q.insert(name.clone(), max);
        mean_q.insert(name, mean);
        all_max = all_max.max(max);
        all_integral += integral;
        all_queue_ports += ids.len();
    }
    max_q.insert("all".into(), all_max);
    mean_q.insert(
        "all".into(),
        o.ports.bytes_per_ps() * all_integral / (all_queue_ports.max(1) as f64 * span as f64),
    );
    util.insert("all".into(), all_busy / (all_ports as f64 * span as f64));
    let mut fcts: Vec<f64> = o.fct_ps.iter().flatten().map(|&t| ps_to_us(t)).collect();
    fcts.sort_by(f64::total_cmp);
    let mut fct_by_size = BTreeMap::new();
    let mut lower = 0;
    for (upper, name) in SIZE_BUCKETS {
        let mut xs: Vec<f64> = o
            .flows
            .iter()
            .zip(&o.fct_ps)
            .filter(|(f, _)| (lower..upper).contains(&f.bytes))
            .filter_map(|(_, t)| t.map(ps_to_us))
            .collect();
        lower = upper;
        if xs.is_empty() {
            continue;
        }
        xs.sort_by(f64::total_cmp);
        fct_by_size.insert(name.to_string(), fct_stats(&xs));
    }
    let asic = o.asic.clone().unwrap_or_default();
    let sample_ps = params.arch.sample_ps;
    let inter_asic_util = asic
        .series_bytes
        .iter()
        .map(|&b| b as f64 * 8.0 / (asic.capacity_bps * sample_ps as f64 / 1e12))
        .collect();
    let c = &o.counters;
    RunReport {
        lb: params.lb.name().to_string(),
        host_lb: params.host_lb.name().to_string(),
        cc: params.cc.kind.name().to_string(),
        workload: params.workload.kind_name().to_string(),
        seed: params.seed,
        message_bytes: params.workload.message_bytes(),
        hosts: o.fabric.hosts,
        cct_us: cct.map(ps_to_us),
        lower_bound_us: ps_to_us(bound),
        cct_inflation: cct.map(|c| (c as f64 - bound as f64) / bound as f64),
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
        fct_mean_us: (!fcts.is_empty()).then(|| fcts.iter().sum::<f64>() / fcts.len() as f64),
        fct_p99_us: fcts
            .get((fcts.len() * 99).div_ceil(100).saturating_sub(1))
            .copied(),
        fct_p50_us: quantile(&fcts, 0.5),
        fct_by_size,
        mean_throughput_gbps: mean_throughput_gbps(o),
        arch: params.arch.arch.name().to_string(),
        port_gbps: params.link.rate_bps as f64 / 1e9,
        inter_asic_bytes: asic.inter_asic_bytes,
        inter_asic_drops: asic.drops,
        reconfigurations: asic.reconfigurations,
        ports_moved: asic.ports_moved,
        dark_us: ps_to_us(asic.dark_ps),
        inter_asic_util,
        inter_asic_sample_us: if o.asic.is_some() {
            ps_to_us(sample_ps)
        } else {
            0.0
        },
        flows_completed: o.flows_completed,
        flows_total: o.flows_total,
        events: c.events,
        packet_hops: c.packet_hops,
        combining: o.combining,
        perf: Perf::default(),
    }
}

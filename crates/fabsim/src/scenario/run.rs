//! `run.*`: seeds and the run length.

use super::keys::{
    fmt_num, int, keys, number, positive, Key, Keys, Kind, ScenarioError, MAX_BYTES,
};
use super::{link, trace, workload};
use crate::engine::Time;
use crate::params::{RunParams, SimParams};
use crate::workload::WorkloadSpec;

/// The most seeds one scenario may repeat each point with.
pub const MAX_SEEDS: u64 = 10_000;

keys! {
    SEED: Key {
        name: "run.seed",
        kind: int(0, i64::MAX as u64),
        default: Some("1"),
        unit: "",
        meaning: "seed of the first run of every point",
    },
    SEEDS: Key {
        name: "run.seeds",
        kind: int(1, MAX_SEEDS),
        default: Some("1"),
        unit: "",
        meaning: "runs per point, with seeds run.seed, run.seed + 1, ... (the last at most 2^63 - 1)",
    },
    DURATION_US: Key {
        name: "run.duration_us",
        kind: positive(1e7),
        default: None,
        unit: "us",
        meaning: "stop the run at this time (required by web and hadoop; up to 10 s)",
    },
    WARMUP_US: Key {
        name: "run.warmup_us",
        kind: number(0.0, 1e7),
        default: Some("0"),
        unit: "us",
        meaning: "flows that start before this time are left out of the FCT statistics and the mean throughput (the start-up transient; CCT and per-flow output keep every flow); below run.duration_us when that is given",
    },
    THREADS: Key {
        name: "run.threads",
        kind: int(1, 256),
        default: Some("1"),
        unit: "",
        meaning: "threads one run uses: the fabric is cut into this many partitions (by pod or leaf group) simulated in parallel; the output is byte-identical for every count (traced runs, gated workloads, the combining pipeline and links whose delay is shorter than a full packet's serialization use one)",
    },
    SHARE_CORES: Key {
        name: "run.share_cores",
        kind: Kind::Bool,
        default: Some("true"),
        unit: "",
        meaning: "run.threads is the most partitions a run takes: fewer when other running tasks hold the cores at its start (Linux: /proc/loadavg), since partitions that wait for a core are slower than one thread; perf.partitions says how many ran, and the output is the same; false: exactly run.threads",
    },
    MAX_MEMORY_GIB: Key {
        name: "run.max_memory_gib",
        kind: positive(1e6),
        default: None,
        unit: "GiB",
        meaning: "refuse a run whose estimated memory exceeds this (default 16)",
    },
    MAX_PACKET_HOPS: Key {
        name: "run.max_packet_hops",
        kind: positive(1e15),
        default: None,
        unit: "",
        meaning: "refuse a run whose estimated packet-hops exceed this (default 1e10: about half an hour of CPU)",
    },
    FCT_BUCKETS: Key {
        name: "run.fct_buckets",
        kind: Kind::Other {
            allowed: "a list of 1 to 16 ascending integers from 1 to 2^40 bytes (a list of lists sweeps)",
            check: buckets,
        },
        default: Some("[10000, 100000, 1000000]"),
        unit: "",
        meaning: "boundaries of the size buckets of the report's fct_by_size (N boundaries: N + 1 buckets)",
    },
    START_BINS_US: Key {
        name: "run.start_bins_us",
        kind: Kind::Other {
            allowed: "a list of 1 to 64 ascending numbers of us > 0 (a list of lists sweeps)",
            check: valid_start_bins,
        },
        default: None,
        unit: "us",
        meaning: "boundaries of flow start time bins: the report's thrp_by_start gives the mean flow throughput of the flows starting in each bin, to show start-up apart from steady state (default: none)",
    },
}

/// The run keys (with the trace's interval); `seed`: the point's first. Refuses seeds past
/// the largest a run spec holds, and a warm-up that leaves out every flow of a run with a
/// duration.
pub fn parse(k: &Keys) -> Result<RunParams, ScenarioError> {
    let (seed, seeds) = (k.int(SEED), k.int(SEEDS));
    let last = i64::MAX as u64;
    if seed + (seeds - 1) > last {
        return Err(k.invalid(
            SEEDS,
            &format!(
                "at most {}: the seeds run.seed ({seed}), run.seed + 1, ... stay at most {last}",
                last - seed + 1
            ),
        ));
    }
    let (stop_ps, warmup_ps) = (k.opt_us(DURATION_US), k.us(WARMUP_US));
    if let Some(stop) = stop_ps.filter(|&stop| warmup_ps >= stop) {
        return Err(k.invalid(
            WARMUP_US,
            &format!(
                "below run.duration_us ({} us): flows that start before the warm-up ends are left out, and none starts after the run's end",
                fmt_num(stop.as_us_f64())
            ),
        ));
    }
    Ok(RunParams {
        seed,
        threads: k.int(THREADS) as u32,
        share_cores: k.bool(SHARE_CORES),
        stop_ps,
        warmup_ps,
        max_memory_bytes: max_memory_bytes(k),
        fct_buckets: fct_buckets(k),
        start_bins_ps: start_bins(k),
        trace_interval_ps: trace::interval(k),
    })
}

/// Most start-time bin boundaries.
const MAX_START_BINS: usize = 64;

fn valid_start_bins(v: &toml::Value) -> bool {
    let Some(items) = v.as_array() else {
        return false;
    };
    let us: Vec<Option<f64>> = items
        .iter()
        .map(|x| x.as_float().or_else(|| x.as_integer().map(|i| i as f64)))
        .collect();
    (1..=MAX_START_BINS).contains(&items.len())
        && us.iter().all(|b| b.is_some_and(|b| b > 0.0 && b <= 1e9))
        && us.windows(2).all(|w| w[0] < w[1])
}

/// `run.start_bins_us` (checked; empty when not given).
fn start_bins(k: &Keys) -> Vec<Time> {
    k.get(START_BINS_US)
        .and_then(toml::Value::as_array)
        .map_or(vec![], |v| {
            v.iter()
                .map(|x| {
                    let us = x.as_float().or_else(|| x.as_integer().map(|i| i as f64));
                    Time::from_us_f64(us.expect("checked bin"))
                })
                .collect()
        })
}

/// Most FCT bucket boundaries.
const MAX_BUCKETS: usize = 16;

fn buckets(v: &toml::Value) -> bool {
    let Some(items) = v.as_array() else {
        return false;
    };
    let bytes: Vec<Option<i64>> = items.iter().map(toml::Value::as_integer).collect();
    (1..=MAX_BUCKETS).contains(&items.len())
        && bytes
            .iter()
            .all(|b| b.is_some_and(|b| (1..=MAX_BYTES as i64).contains(&b)))
        && bytes.windows(2).all(|w| w[0] < w[1])
}

/// `run.fct_buckets` (checked).
fn fct_buckets(k: &Keys) -> Vec<u64> {
    let v = k.get(FCT_BUCKETS).and_then(toml::Value::as_array);
    v.expect("run.fct_buckets has a default")
        .iter()
        .map(|b| b.as_integer().expect("checked bucket") as u64)
        .collect()
}

const DEFAULT_MAX_MEMORY_GIB: f64 = 16.0;
const GIB: f64 = (1u64 << 30) as f64;

/// `run.max_memory_gib` in bytes.
fn max_memory_bytes(k: &Keys) -> u64 {
    let gib = k
        .opt_float(MAX_MEMORY_GIB)
        .unwrap_or(DEFAULT_MAX_MEMORY_GIB);
    (gib * GIB) as u64
}
const DEFAULT_MAX_PACKET_HOPS: f64 = 1e10;

/// Refuses a run the simulator cannot hold (a flow over 2^32 - 1 packets) or whose estimate
/// exceeds the limits, before anything is allocated.
pub fn check_cost(k: &Keys, p: &SimParams) -> Result<(), ScenarioError> {
    let e = p.estimate();
    if e.max_flow_packets > u32::MAX as u64 {
        let key = match &p.workload {
            WorkloadSpec::Htsim { .. } | WorkloadSpec::Hpcc { .. } => workload::FILE,
            WorkloadSpec::Fsdp { .. } => workload::SIZE_SCALE,
            // Web and Hadoop draw their sizes: message_bytes does not apply to them.
            WorkloadSpec::Fastroute(w) if w.pattern.kind().poisson() => {
                if w.cdf.is_some() {
                    workload::CDF
                } else {
                    link::PAYLOAD_BYTES
                }
            }
            _ if k.given(workload::FLOW_BYTES) => workload::FLOW_BYTES,
            _ => workload::MESSAGE_BYTES,
        };
        return Err(k.invalid(
            key,
            &format!(
                "a flow of at most 2^32 - 1 packets; the largest here has {} packets of {} bytes (raise packet.payload_bytes)",
                e.max_flow_packets, p.link.payload_bytes
            ),
        ));
    }
    // Three significant digits (a small run's "0.0 GiB" read as nothing), and the limit as
    // given (its bytes, divided back, printed 0.0099999997 for 0.01).
    let gib = e.memory_bytes as f64 / GIB;
    let gib = match gib {
        0.0 => "0".to_string(),
        g => {
            let scale = 10f64.powi(2 - g.log10().floor() as i32);
            fmt_num((g * scale).round() / scale)
        }
    };
    let max_gib = k
        .opt_float(MAX_MEMORY_GIB)
        .unwrap_or(DEFAULT_MAX_MEMORY_GIB);
    let max_hops = k
        .opt_float(MAX_PACKET_HOPS)
        .unwrap_or(DEFAULT_MAX_PACKET_HOPS);
    let what = format!(
        "the run is estimated at {} flows, {} packets, {:.3e} packet-hops and {gib} GiB",
        e.flows, e.packets, e.packet_hops as f64
    );
    if e.memory_bytes > p.run.max_memory_bytes {
        return Err(k.err(
            MAX_MEMORY_GIB,
            format!(
                "{what}: over the {} GiB limit; make it smaller, or raise run.max_memory_gib",
                fmt_num(max_gib)
            ),
        ));
    }
    if e.packet_hops as f64 > max_hops {
        return Err(k.err(
            MAX_PACKET_HOPS,
            format!("{what}: over the {max_hops:e} packet-hop limit; make it smaller, or raise run.max_packet_hops"),
        ));
    }
    Ok(())
}

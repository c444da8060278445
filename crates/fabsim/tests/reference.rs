//! Differential tests against the reference simulators: fabsim under `host.profile = "htsim"`
//! and `"netbench"`, on the traffic files in `reference/`, against the results htsim (UEC)
//! and Netbench produced from the same files (`reference/README.md` has their provenance).
//!
//! Bands, on each scenario's CCT, median FCT and p99 FCT: 3%, 2% and 5% of the reference.
//! htsim's numbers are means over its seeds (3 to 12; more where its own spread is large:
//! per-flow ECMP, where hashing decides), and fabsim runs as many. Where the two means' noise
//! is still larger, the band widens to twice the standard error of their difference (each
//! side's seed-to-seed standard deviation over the root of its seed count), but never past
//! [`MAX_BAND`]. The band used is printed with every comparison.
//!
//! Netbench's ECMP hash reads switch, flow and flowlet ids but not its seed, so a replay has
//! one draw. Its web-search replays are compared per flow-size bucket (means 5%, p99 10%),
//! fabsim over 10 seeds and the reference as one more draw with fabsim's seed-to-seed spread
//! (see `netbench_websearch`).

use std::path::PathBuf;

use fabsim::metrics::{run, run_with, Extras, RunReport};
use fabsim::scenario::Scenario;

fn reference() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../reference")
}

/// fabsim's runs of `toml` (a file in `reference/`) with `sets` on top.
fn fabsim(toml: &str, sets: &[String]) -> Vec<RunReport> {
    let path = reference().join(toml);
    let text = std::fs::read_to_string(&path).unwrap();
    let mut s = Scenario::parse(&text, path.to_str().unwrap()).unwrap();
    for a in sets {
        s.set(a).unwrap();
    }
    s.expand().unwrap().iter().map(|r| run(&r.params)).collect()
}

/// A CSV file of `reference/` as rows of named fields (no quoting in these files).
fn csv(file: &str) -> Vec<Vec<(String, String)>> {
    let text = std::fs::read_to_string(reference().join(file)).unwrap();
    let mut lines = text.lines();
    let head: Vec<String> = lines.next().unwrap().split(',').map(String::from).collect();
    lines
        .map(|l| {
            head.iter()
                .cloned()
                .zip(l.split(',').map(String::from))
                .collect()
        })
        .collect()
}

fn field(row: &[(String, String)], name: &str) -> f64 {
    let v = &row.iter().find(|(k, _)| k == name).unwrap().1;
    v.parse().unwrap_or_else(|_| panic!("{name} = {v}"))
}

fn text<'r>(row: &'r [(String, String)], name: &str) -> &'r str {
    &row.iter().find(|(k, _)| k == name).unwrap().1
}

fn mean(xs: &[f64]) -> f64 {
    xs.iter().sum::<f64>() / xs.len() as f64
}

/// Standard error of the mean of `xs` (sample standard deviation over the root of n).
fn stderr(xs: &[f64]) -> f64 {
    let m = mean(xs);
    let var = xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (xs.len() - 1).max(1) as f64;
    (var / xs.len() as f64).sqrt()
}

/// Nearest-rank quantile, as fabsim's reports compute it.
fn quantile(xs: &[f64], q: f64) -> f64 {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    v[((v.len() as f64 * q).ceil() as usize).max(1) - 1]
}

/// The nominal bands of the three statistics compared: 3%, 2% and 5%.
const BANDS: [f64; 3] = [0.03, 0.02, 0.05];

/// The statistics of the htsim and Netbench comparisons: the CCT, the median and p99 FCT.
const CCT_P50_P99: [&str; 3] = ["cct", "p50", "p99"];

/// The widest band noise may open.
const MAX_BAND: f64 = 0.10;

/// The relative gap of fabsim's mean to the reference's per statistic, and the band each is
/// held to: the nominal one, or two standard errors of the difference where that is wider.
/// A single reference run has no spread of its own: it is taken to vary from draw to draw as
/// much as fabsim's runs do.
fn gaps(reference: &[[f64; 3]], fabsim: &[[f64; 3]]) -> [(f64, f64); 3] {
    std::array::from_fn(|i| {
        let r: Vec<f64> = reference.iter().map(|s| s[i]).collect();
        let f: Vec<f64> = fabsim.iter().map(|s| s[i]).collect();
        let se_f = stderr(&f);
        let se_r = if r.len() > 1 {
            stderr(&r)
        } else {
            se_f * (f.len() as f64).sqrt()
        };
        let noise = (se_r.powi(2) + se_f.powi(2)).sqrt() * 2.0 / mean(&r);
        (
            (mean(&f) - mean(&r)) / mean(&r),
            BANDS[i].max(noise.min(MAX_BAND)),
        )
    })
}

fn report(name: &str, stats: [&str; 3], g: &[(f64, f64); 3]) {
    for (stat, (gap, band)) in stats.iter().zip(g) {
        eprintln!(
            "{name} {stat}: {:+.2}% (band {:.2}%)",
            gap * 100.0,
            band * 100.0
        );
    }
}

fn stats(r: &RunReport) -> [f64; 3] {
    [
        r.cct_us.unwrap(),
        r.fct_p50_us.unwrap(),
        r.fct_p99_us.unwrap(),
    ]
}

/// An htsim case of `reference/htsim/htsim_runs.csv` against fabsim's runs with the same
/// seeds under the htsim profile; returns the gaps and bands.
fn htsim_case(name: &str, k: u32, lb: &str, file: &str, extra: &[&str]) -> [(f64, f64); 3] {
    let rows = csv("htsim/htsim_runs.csv");
    let reference: Vec<[f64; 3]> = rows
        .iter()
        .filter(|r| text(r, "run").rsplit_once("_s").unwrap().0 == name)
        .map(|r| {
            [
                field(r, "cct_us"),
                field(r, "fct_p50_us"),
                field(r, "fct_p99_us"),
            ]
        })
        .collect();
    assert!(reference.len() >= 3, "{name}: {} seeds", reference.len());
    let mut sets = vec![
        "host.profile=\"htsim\"".to_string(),
        format!("topology.k={k}"),
        format!("host.lb=\"{lb}\""),
        format!("workload.file=\"{file}\""),
        format!("run.seeds={}", reference.len()),
    ];
    sets.extend(extra.iter().map(|s| s.to_string()));
    let fab: Vec<[f64; 3]> = fabsim("htsim/uec.toml", &sets).iter().map(stats).collect();
    let g = gaps(&reference, &fab);
    report(name, CCT_P50_P99, &g);
    g
}

fn assert_within(name: &str, stats: [&str; 3], g: [(f64, f64); 3]) {
    for (stat, (gap, band)) in stats.iter().zip(g) {
        assert!(
            gap.abs() <= band,
            "{name} {stat}: {:+.2}% is outside {:.2}%",
            gap * 100.0,
            band * 100.0
        );
    }
}

#[test]
fn htsim_spraying_with_nscc_on_1mib_permutations() {
    for (k, file) in [(8, "perm128_1MiB.cm"), (12, "perm432_1MiB.cm")] {
        for lb in ["reps", "oblivious"] {
            let name = format!("k{k}_perm1MiB_{lb}");
            assert_within(&name, CCT_P50_P99, htsim_case(&name, k, lb, file, &[]));
        }
    }
    // 1,024 hosts (5 Dec 2026), spraying only.
    let name = "k16_perm1MiB_reps";
    assert_within(
        name,
        CCT_P50_P99,
        htsim_case(name, 16, "reps", "perm1024_1MiB.cm", &[]),
    );
}

#[test]
fn htsim_spraying_on_a_4mib_permutation() {
    let name = "k8_perm4MiB_reps";
    assert_within(
        name,
        CCT_P50_P99,
        htsim_case(name, 8, "reps", "perm128_4MiB.cm", &[]),
    );
}

/// htsim's `-paths 1`: one entropy per flow, hashed by the switches.
#[test]
fn htsim_per_flow_ecmp() {
    let name = "k8_perm1MiB_ecmp";
    let g = htsim_case(
        name,
        8,
        "host-ecmp",
        "perm128_1MiB.cm",
        &["host.path_labels=1"],
    );
    assert_within(name, CCT_P50_P99, g);
}

/// 32 senders of 256 KiB into one host. The median agrees once full ports trim their queue's
/// tail or the arriving packet at random as htsim does (`switch.trim_victim`, set by the
/// profile): trimming only the arriving packet left the median 5.7% low.
#[test]
fn htsim_incast() {
    let name = "k8_incast32_reps";
    assert_within(
        name,
        CCT_P50_P99,
        htsim_case(name, 8, "reps", "incast128_32to1_256KiB.cm", &[]),
    );
}

/// 64 senders of 256 KiB into one host.
#[test]
fn htsim_incast_of_64() {
    let name = "k8_incast64_reps";
    assert_within(
        name,
        CCT_P50_P99,
        htsim_case(name, 8, "reps", "incast128_64to1_256KiB.cm", &[]),
    );
}

/// htsim's UEC DCTCP (`-sender_cc_algo dctcp`) with its default marking, over 10 seeds.
#[test]
fn htsim_dctcp_permutation() {
    let name = "k8_perm1MiB_dctcp_reps";
    let g = htsim_case(name, 8, "reps", "perm128_1MiB.cm", &["host.cc=\"dctcp\""]);
    assert_within(name, CCT_P50_P99, g);
}

#[test]
fn htsim_spraying_on_a_16mib_permutation() {
    let name = "k8_perm16MiB_reps";
    assert_within(
        name,
        CCT_P50_P99,
        htsim_case(name, 8, "reps", "perm128_16MiB.cm", &[]),
    );
}

/// Every pair of 128 hosts exchanging 64 KiB at once under REPS and NSCC: 127 flows per NIC.
/// Long a known gap (CCT +11.8%, median +8.0%, p99 +8.9% with 18,300 timeouts, 17,600
/// duplicates and 32,900 trims per run against htsim's 10,200 timer resends and 21,000
/// NACKs), closed by two things htsim's UEC source and NIC do (uec.cpp) that fabsim did not:
/// - its NIC serves the flows waiting to send first come, first served (`host.nic =
///   "pull-fifo"`), where fabsim's went round-robin over its 127 flows: a flow whose window
///   opened could jump the line (alone: +4.2 / +3.7 / +3.0%, trims 17,500);
/// - a packet the timer gave up on whose coalesced ACK arrives before its NIC turn is not
///   resent (alone: +4.6 / +5.9 / +6.4%, duplicates 11,700).
///
/// With both: 20,400 timeouts per run, half of them ACKed before their resend and the other
/// half (10,400) resent though they had arrived (their ACKs held for coalescing), 17,100 trims
/// (htsim: 10,200 timer resends, 21,000 NACKs), and the gaps within the bands.
#[test]
fn htsim_all_to_all() {
    let name = "k8_a2a64KiB_reps";
    assert_within(
        name,
        CCT_P50_P99,
        htsim_case(name, 8, "reps", "a2a128_64KiB.cm", &[]),
    );
}

/// Netbench's statistics of one of its runs in `netbench_flows.csv`: CCT (the last end),
/// median and p99 FCT.
fn netbench_run(run: &str) -> [f64; 3] {
    let rows: Vec<_> = csv("netbench/netbench_flows.csv")
        .into_iter()
        .filter(|r| text(r, "run") == run)
        .collect();
    assert!(rows.iter().all(|r| field(r, "completed") == 1.0), "{run}");
    let fct: Vec<f64> = rows.iter().map(|r| field(r, "fct_ns") / 1e3).collect();
    let end = rows.iter().map(|r| field(r, "end_ns") / 1e3);
    [
        end.fold(0.0, f64::max),
        quantile(&fct, 0.5),
        quantile(&fct, 0.99),
    ]
}

/// A Netbench run against fabsim's runs of the same flows under the netbench profile, over
/// `seeds` seeds (ECMP draws); returns the gaps and bands.
fn netbench_case(run: &str, seeds: u32) -> [(f64, f64); 3] {
    let reports = fabsim(
        "netbench/leafspine.toml",
        &[
            "host.profile=\"netbench\"".into(),
            format!("workload.file=\"{run}.cm\""),
            format!("run.seeds={seeds}"),
        ],
    );
    for r in &reports {
        assert_eq!(r.flows_completed, r.flows_total, "{run}");
    }
    let fab: Vec<[f64; 3]> = reports.iter().map(stats).collect();
    let g = gaps(&[netbench_run(run)], &fab);
    report(&format!("netbench {run}"), CCT_P50_P99, &g);
    assert_within(run, CCT_P50_P99, g);
    g
}

/// Flows of 1 B to 10 MB one at a time on an idle fabric: SYN, slow start from 3 MSS, the
/// 64 KB window, every byte of header and every hop: they agree to 0.05%.
#[test]
fn netbench_idle_flows() {
    for (gap, _) in netbench_case("idle_single", 1) {
        assert!(gap.abs() < 5e-4, "{:+.4}%", gap * 100.0);
    }
}

#[test]
fn netbench_incast() {
    netbench_case("incast16", 1);
}

/// A statistic of a bucket's FCTs: its name, nominal band and function.
type Stat = (&'static str, f64, fn(&[f64]) -> f64);

/// Flow-size buckets of the web-search comparisons, as the README's table has them.
const BUCKETS: [(f64, f64, &str); 4] = [
    (0.0, 1e4, "<10KB"),
    (1e4, 1e5, "10KB-100KB"),
    (1e5, 1e6, "100KB-1MB"),
    (1e6, f64::INFINITY, ">=1MB"),
];

/// The pFabric web-search replays at 60% load (253 flows) and 50% load (209 flows, another
/// draw of Netbench's generator), ECMP with each simulator's own hash, per size bucket:
/// the mean FCT within 5% and the p99 within 10%, each widened to the noise of one draw
/// (twice fabsim's seed-to-seed standard deviation of the bucket's statistic, times
/// sqrt(1 + 1/10) for fabsim's own mean), at most 10%. The p99 is compared only in buckets of
/// at least 100 flows: in smaller ones it is one of the two slowest flows.
#[test]
fn netbench_websearch() {
    const SEEDS: u32 = 10;
    for run in ["websearch_replay", "websearch50_replay"] {
        let netbench: Vec<(f64, f64)> = csv("netbench/netbench_flows.csv")
            .into_iter()
            .filter(|r| text(r, "run") == run)
            .map(|r| (field(&r, "size_bytes"), field(&r, "fct_ns") / 1e3))
            .collect();
        let path = reference().join("netbench/leafspine.toml");
        let text_ = std::fs::read_to_string(&path).unwrap();
        let mut s = Scenario::parse(&text_, path.to_str().unwrap()).unwrap();
        for a in [
            "host.profile=\"netbench\"".to_string(),
            format!("workload.file=\"{run}.cm\""),
            format!("run.seeds={SEEDS}"),
        ] {
            s.set(&a).unwrap();
        }
        let seeds: Vec<Vec<(f64, f64)>> = s
            .expand()
            .unwrap()
            .iter()
            .map(|r| {
                let out = run_with(
                    &r.params,
                    Extras {
                        flows: true,
                        trace: false,
                    },
                );
                let flows: Vec<_> = out.flows.unwrap().records().collect();
                assert!(flows.iter().all(|f| f.fct_us.is_some()), "{run}");
                flows
                    .iter()
                    .map(|f| (f.size_bytes as f64, f.fct_us.unwrap()))
                    .collect()
            })
            .collect();
        for (lo, hi, name) in BUCKETS {
            let pick = |flows: &[(f64, f64)]| -> Vec<f64> {
                flows
                    .iter()
                    .filter(|(b, _)| (lo..hi).contains(b))
                    .map(|&(_, t)| t)
                    .collect()
            };
            let r = pick(&netbench);
            let per_seed: Vec<Vec<f64>> = seeds.iter().map(|f| pick(f)).collect();
            let mut stats: Vec<Stat> = vec![("mean", 0.05, mean)];
            if r.len() >= 100 {
                stats.push(("p99", 0.10, |x: &[f64]| quantile(x, 0.99)));
            }
            for (stat, nominal, f) in stats {
                let each: Vec<f64> = per_seed.iter().map(|x| f(x)).collect();
                let fab = mean(&each);
                let sd = stderr(&each) * (each.len() as f64).sqrt();
                let noise = 2.0 * sd * (1.0 + 1.0 / SEEDS as f64).sqrt() / f(&r);
                let band = nominal.max(noise.min(MAX_BAND));
                let gap = fab / f(&r) - 1.0;
                eprintln!(
                    "netbench {run} {name} ({} flows) {stat}: {:+.2}% (band {:.2}%)",
                    r.len(),
                    gap * 100.0,
                    band * 100.0
                );
                assert!(
                    gap.abs() <= band,
                    "{run} {name} {stat}: {:+.2}% is outside {:.2}%",
                    gap * 100.0,
                    band * 100.0
                );
            }
        }
    }
}

/// The statistics of the HPCC comparisons: the FCT's mean, median and p99.
const FCT_MEAN_P50_P99: [&str; 3] = ["mean", "p50", "p99"];

/// Seeds of fabsim's runs of HPCC's cases under ECN-driven controllers (the seed draws the
/// ECN coins; the hash is the reference's, seedless). HPCC reads no mark: one seed.
const HPCC_SEEDS: u32 = 5;

/// A k = 8 web-search case of HPCC's ns-3 (`reference/hpcc/<case>/fct.txt`, one run) against
/// fabsim's runs of the same topology and flows under the hpcc-ns3 profile with `sets` on
/// top, over [`HPCC_SEEDS`] seeds: FCT mean, median and p99 within 3%, 2% and 5% (widened to
/// the seeds' noise as [`gaps`] does). Mean FCT by size bucket is printed beside them.
fn hpcc_case(case: &str, seeds: u32, sets: &[&str]) {
    assert_within(case, FCT_MEAN_P50_P99, hpcc_gaps(case, seeds, sets));
}

/// [`hpcc_case`]'s gaps and bands, printed.
fn hpcc_gaps(case: &str, seeds: u32, sets: &[&str]) -> [(f64, f64); 3] {
    hpcc_runs(case, seeds, sets).0
}

/// [`hpcc_case`]'s gaps and bands, and fabsim's reports.
fn hpcc_runs(case: &str, seeds: u32, sets: &[&str]) -> ([(f64, f64); 3], Vec<RunReport>) {
    let text =
        std::fs::read_to_string(reference().join("hpcc").join(case).join("fct.txt")).unwrap();
    let rows: Vec<Vec<f64>> = text
        .lines()
        .map(|l| {
            l.split_whitespace()
                .skip(4)
                .map(|x| x.parse().unwrap())
                .collect()
        })
        .collect();
    let fct: Vec<f64> = rows.iter().map(|r| r[2] / 1e3).collect();
    let reference = [mean(&fct), quantile(&fct, 0.5), quantile(&fct, 0.99)];
    let mut all: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
    all.push(format!("run.seeds={seeds}"));
    let reports = fabsim("hpcc/ft8_websearch.toml", &all);
    let fab: Vec<[f64; 3]> = (reports.iter())
        .map(|r| {
            assert_eq!(r.flows_completed as usize, rows.len(), "{case}");
            [
                r.fct_mean_us.unwrap(),
                r.fct_p50_us.unwrap(),
                r.fct_p99_us.unwrap(),
            ]
        })
        .collect();
    for (lo, hi, bucket) in BUCKETS {
        let r: Vec<f64> = (rows.iter())
            .filter(|r| (lo..hi).contains(&r[0]))
            .map(|r| r[2] / 1e3)
            .collect();
        if let Some(s) = reports[0].fct_by_size.get(bucket) {
            eprintln!(
                "hpcc {case} {bucket} ({} flows): mean FCT {:.1} us, fabsim (seed 1) {:.1} us",
                r.len(),
                mean(&r),
                s.mean_us
            );
        }
    }
    let g = gaps(&[reference], &fab);
    report(&format!("hpcc {case}"), FCT_MEAN_P50_P99, &g);
    (g, reports)
}

/// DCQCN at HPCC's example configuration: rate-based, its window scaled by the rate.
#[test]
fn hpcc_websearch_dcqcn() {
    hpcc_case("ft8_websearch_dcqcn", HPCC_SEEDS, &[]);
}

/// DCTCP as HPCC's NICs run it (a rate), at the example configuration.
#[test]
fn hpcc_websearch_dctcp() {
    hpcc_case(
        "ft8_websearch_dctcp",
        HPCC_SEEDS,
        &["host.cc=\"dctcp-rate\""],
    );
}

/// DCTCP at run.py's configuration: gain 1/16, 615 Mb/s per round, a 1 Gb/s floor, every
/// packet past 300 KB marked.
#[test]
fn hpcc_websearch_dctcp_runpy() {
    hpcc_case(
        "ft8_websearch_dctcp_runpy",
        HPCC_SEEDS,
        &[
            "host.cc=\"dctcp-rate\"",
            "host.dctcp_g=0.0625",
            "host.dctcp_rate_ai_mbps=615",
            "host.min_rate_mbps=1000",
            "switch.ecn_kmin_bytes=300000",
            "switch.ecn_kmax_bytes=300000",
            "switch.ecn_pmax=1",
        ],
    );
}

/// HPCC's own data packets and ACKs carry its INT header: 42 B more each.
const HPCC_INT: [&str; 3] = [
    "host.cc=\"hpcc\"",
    "packet.header_bytes=90",
    "packet.ack_bytes=88",
];

/// HPCC at the example configuration: eta 0.95, MI_THRESH 0, fast reaction, 50 Mb/s steps.
#[test]
fn hpcc_websearch_hpcc() {
    hpcc_case("ft8_websearch_hpcc", 1, &HPCC_INT);
}

/// HPCC at run.py's configuration: 40 Mb/s steps and a 1 Gb/s floor. (Its INT_MULTI of 4,
/// coarser units in the stamps, is not modelled: the units stay 128 B and 80 B.)
#[test]
fn hpcc_websearch_hpcc_runpy() {
    let mut sets = HPCC_INT.to_vec();
    sets.extend(["host.rate_ai_mbps=40", "host.min_rate_mbps=1000"]);
    hpcc_case("ft8_websearch_hpcc_runpy", 1, &sets);
}

/// The comparison has the power to see a 5% regression: HPCC's case with every data packet
/// 5% longer on the wire (53 B more header: 1,143 B against 1,090 B) moves the mean FCT out
/// of its band.
#[test]
fn hpcc_a_5_percent_regression_fails_the_band() {
    let mut sets = HPCC_INT.to_vec();
    sets.push("packet.header_bytes=143");
    let [(mean, band), ..] = hpcc_gaps("ft8_websearch_hpcc", 1, &sets);
    assert!(
        mean.abs() > band,
        "a 5% longer packet moved the mean FCT by {:+.2}%, inside its {:.2}% band",
        mean * 100.0,
        band * 100.0
    );
}

/// HPCC's incasts with PFC (4 MB switch buffers, DCQCN) on their own topology and flow files:
/// FCTs in their bands, and PAUSE frames within 10% of the reference's (`hpcc_runs.csv`). The
/// reference is one draw: where fabsim's seeds spread the count more than that (twice its
/// seed-to-seed standard deviation, as [`gaps`] takes it), the count is held to that band
/// instead and the verdict printed as inside the noise.
fn hpcc_pfc_case(case: &str, sets: &[&str]) {
    let files = [
        format!("topology.file=\"{case}/topology.txt\""),
        format!("workload.file=\"{case}/flow.txt\""),
    ];
    let mut all: Vec<&str> = vec!["switch.pfc=true", "switch.pfc_buffer_bytes=4194304"];
    all.extend(files.iter().map(String::as_str));
    all.extend(sets);
    let (g, reports) = hpcc_runs(case, HPCC_SEEDS, &all);
    let row = csv("hpcc/hpcc_runs.csv")
        .into_iter()
        .find(|r| text(r, "case") == case)
        .unwrap();
    let reference = field(&row, "pause_frames");
    let pauses: Vec<f64> = (reports.iter())
        .map(|r| {
            let p = r.pfc.as_ref().unwrap();
            assert_eq!(r.drops, 0, "{case}: PFC drops nothing");
            assert_eq!(p.pauses_sent, p.resumes_sent, "{case}");
            p.pauses_sent as f64
        })
        .collect();
    let n = pauses.len() as f64;
    let noise = 2.0 * stderr(&pauses) * n.sqrt() * (1.0 + 1.0 / n).sqrt() / reference;
    let band = MAX_BAND.max(noise);
    let gap = mean(&pauses) / reference - 1.0;
    eprintln!(
        "hpcc {case} PAUSEs: {pauses:?} against {reference} ({:+.1}%, band {:.1}%{})",
        gap * 100.0,
        band * 100.0,
        if noise > MAX_BAND {
            ": inside the seeds' noise, wider than 10%"
        } else {
            ""
        }
    );
    assert!(
        gap.abs() <= band,
        "{case}: PAUSE frames {:+.1}%",
        gap * 100.0
    );
    assert_within(case, FCT_MEAN_P50_P99, g);
}

/// 64 senders into one host through one switch, DCQCN at the example configuration.
#[test]
fn hpcc_incast_with_pfc() {
    hpcc_pfc_case("incast64", &[]);
}

/// 112 senders of the other pods into one host of a k = 8 fat tree, DCQCN at run.py's
/// configuration: PAUSEs at every tier.
#[test]
fn hpcc_multi_tier_incast_with_pfc() {
    hpcc_pfc_case(
        "ft8_pfc_multitier_runpy_dcqcn",
        &[
            "host.dcqcn_rp_timer_us=300",
            "host.rate_ai_mbps=20",
            "host.rate_hai_mbps=200",
            "host.min_rate_mbps=1000",
            "host.rate_window=\"off\"",
        ],
    );
}

/// The multi-tier incast at the example configuration (its window scaled by the rate).
#[test]
fn hpcc_multi_tier_incast_with_pfc_example_config() {
    hpcc_pfc_case("ft8_pfc_multitier", &[]);
}

/// The 64-to-1 incast at run.py's configuration (no window, a 1 Gb/s floor).
#[test]
fn hpcc_incast_with_pfc_runpy() {
    hpcc_pfc_case(
        "incast64_runpy_dcqcn",
        &[
            "host.dcqcn_rp_timer_us=300",
            "host.rate_ai_mbps=20",
            "host.rate_hai_mbps=200",
            "host.min_rate_mbps=1000",
            "host.rate_window=\"off\"",
        ],
    );
}

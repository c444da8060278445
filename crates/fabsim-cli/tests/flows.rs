//! `fabsim run --flows`: one CSV row per flow of every run of a sweep, consistent with the
//! JSON reports (flow counts, FCT mean and quantiles recomputed exactly, per-flow counters
//! summing to the run's), and deterministic.

use std::collections::HashMap;

use fabsim::metrics::stats::{mean, quantile};

mod common;
use common::{fabsim, ok};

/// A lossy sweep: 2 load balancers x 2 seeds of Poisson web flows on an 8-host leaf-spine
/// with 12 KB drop-tail buffers (drops, retransmits, timeouts, flows left unfinished).
const SWEEP: &[&str] = &[
    "--set",
    "topology.tiers=2",
    "--set",
    "topology.k=4",
    "--set",
    "link.rate_gbps=100",
    "--set",
    "workload.kind=web",
    "--set",
    "workload.load=0.9",
    "--set",
    "run.duration_us=300",
    "--set",
    "switch.buffer_bytes=12000",
    "--set",
    "switch.lb=ecmp,ofan",
    "--set",
    "run.seeds=2",
];

/// The sweep on `jobs` threads: runs finish out of order, and their rows are written as they
/// do (`FlowsCsv`), still in run order.
fn run(dir: &std::path::Path, name: &str, jobs: &str) -> (serde_json::Value, String) {
    let (json, flows) = (
        dir.join(format!("{name}.json")),
        dir.join(format!("{name}.csv")),
    );
    let mut args = vec!["run"];
    args.extend(SWEEP);
    args.extend([
        "--jobs",
        jobs,
        "--json",
        json.to_str().unwrap(),
        "--flows",
        flows.to_str().unwrap(),
    ]);
    ok(&args);
    let json = serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap();
    (json, std::fs::read_to_string(flows).unwrap())
}

#[test]
fn flow_rows_reproduce_the_reports() {
    let dir = std::env::temp_dir().join(format!("fabsim-flows-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (json, text) = run(&dir, "a", "3");
    let runs = json["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 4);
    let mut csv = csv::Reader::from_reader(text.as_bytes());
    let header: Vec<String> = csv.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(&header[..3], ["run", "switch.lb", "seed"]);
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let rows: Vec<csv::StringRecord> = csv.records().map(Result::unwrap).collect();
    let num = |r: &csv::StringRecord, c: &str| -> Option<f64> {
        let cell = &r[col(c)];
        (!cell.is_empty()).then(|| cell.parse().unwrap())
    };
    let order: Vec<usize> = rows.iter().map(|r| r[0].parse().unwrap()).collect();
    assert!(order.windows(2).all(|w| w[0] <= w[1]), "rows in run order");
    let mut by_run: HashMap<usize, Vec<&csv::StringRecord>> = HashMap::new();
    for r in &rows {
        by_run.entry(r[0].parse().unwrap()).or_default().push(r);
    }
    let mut unfinished = 0;
    for (i, report) in runs.iter().enumerate() {
        let flows = &by_run[&i];
        let int = |k: &str| report[k].as_u64().unwrap();
        assert_eq!(flows.len() as u64, int("flows_total"), "run {i}");
        assert!(flows
            .iter()
            .all(|r| r[1] == *report["lb"].as_str().unwrap()));
        assert!(flows
            .iter()
            .all(|r| num(r, "seed") == report["seed"].as_f64()));
        let mut fcts: Vec<f64> = flows.iter().filter_map(|r| num(r, "fct_us")).collect();
        assert_eq!(fcts.len() as u64, int("flows_completed"));
        unfinished += flows.len() - fcts.len();
        fcts.sort_by(f64::total_cmp);
        // Exactly the report's numbers: same values, same order, same nearest rank.
        assert_eq!(mean(&fcts), report["fct_mean_us"].as_f64(), "run {i}");
        assert_eq!(quantile(&fcts, 0.99), report["fct_p99_us"].as_f64());
        assert_eq!(quantile(&fcts, 0.5), report["fct_p50_us"].as_f64());
        let sum = |c: &str| flows.iter().map(|r| num(r, c).unwrap() as u64).sum::<u64>();
        assert_eq!(sum("retransmits"), int("retransmits"));
        assert_eq!(sum("timeouts"), int("timeouts"));
        assert!(int("timeouts") > 0 && int("retransmits") > 0, "a lossy run");
        for r in flows {
            let (Some(fct), Some(start), Some(finish)) =
                (num(r, "fct_us"), num(r, "start_us"), num(r, "finish_us"))
            else {
                continue;
            };
            assert!((finish - start - fct).abs() < 1e-6, "{r:?}");
            let ideal = num(r, "ideal_fct_us").unwrap();
            let slowdown = num(r, "slowdown").unwrap();
            assert!((slowdown - fct / ideal).abs() < 1e-12, "{r:?}");
            assert!(
                fct >= ideal * (1.0 - 1e-12),
                "faster than alone on the fabric: {r:?}"
            );
        }
    }
    assert!(
        unfinished > 0,
        "some flows were still running at the stop time"
    );
    // Byte-identical on a second run, with the runs one at a time.
    assert_eq!(run(&dir, "b", "1").1, text);
    plots_of_flows_and_reports(&dir);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `fabsim plot` on the files of [`flow_rows_reproduce_the_reports`]: SVGs with one series
/// per load balancer; a file of neither kind is refused naming it and what was expected.
fn plots_of_flows_and_reports(dir: &std::path::Path) {
    let out = dir.join("plots");
    for (input, files) in [
        (
            "a.csv",
            &[
                "fct_cdf.svg",
                "fct_cdf_lt10KB.svg",
                "slowdown_vs_size.svg",
                "slowdown_p99_vs_size.svg",
            ][..],
        ),
        (
            "a.json",
            &["fct_mean_by_size.svg", "fct_p99_by_size.svg"][..],
        ),
    ] {
        let input = dir.join(input);
        let listed = ok(&[
            "plot",
            input.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        for f in files {
            assert!(listed.contains(f), "{f} not in {listed}");
            let svg = std::fs::read_to_string(out.join(f)).unwrap();
            assert!(svg.starts_with("<svg"), "{f}");
            for lb in [">ecmp<", ">ofan<"] {
                assert!(
                    svg.replace(char::is_whitespace, "").contains(lb),
                    "{f}: {lb}"
                );
            }
        }
    }
    // The second plot into the directory leaves none of the first's behind.
    let mut left: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["fct_mean_by_size.svg", "fct_p99_by_size.svg"]);
    let bad = dir.join("bad.csv");
    std::fs::write(&bad, "a,b\n1,2\n").unwrap();
    let o = fabsim(&[
        "plot",
        bad.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("bad.csv: not a flow table") && err.contains("fct_us"),
        "{err}"
    );
}

#[test]
fn collective_flows_name_their_collective_and_step() {
    let out = ok(&[
        "run",
        "--set",
        "topology.k=4",
        "--set",
        "workload.kind=all-gather",
        "--set",
        "workload.message_bytes=65536",
        "--set",
        "switch.lb=ofan",
        "--flows",
        "-",
    ]);
    let mut csv = csv::Reader::from_reader(out.as_bytes());
    let header: Vec<String> = csv.headers().unwrap().iter().map(String::from).collect();
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let rows: Vec<csv::StringRecord> = csv.records().map(Result::unwrap).collect();
    // A ring all-gather on 16 hosts: 15 steps of 16 flows.
    assert_eq!(rows.len(), 15 * 16);
    assert!(rows.iter().all(|r| &r[col("collective")] == "all-gather"));
    let steps: Vec<u32> = rows
        .iter()
        .map(|r| r[col("step")].parse().unwrap())
        .collect();
    assert_eq!(steps.iter().max(), Some(&14));
    assert!(steps.windows(2).all(|w| w[0] <= w[1]));
    // A later step starts when the data of the one before it has arrived.
    let start = |r: &csv::StringRecord| r[col("start_us")].parse::<f64>().unwrap();
    assert!(start(&rows[16 * 14]) > start(&rows[0]));
}

/// `fabsim run --trace`: every port at every multiple of `trace.interval_us`, queues never
/// above the report's maxima, utilizations in [0, 1] adding up to at most the busy time; the
/// reports are the same with or without it.
#[test]
fn trace_samples_every_port_and_leaves_the_run_unchanged() {
    let dir = std::env::temp_dir().join(format!("fabsim-trace-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (json, trace) = (dir.join("t.json"), dir.join("t.csv"));
    let plain = dir.join("plain.json");
    let mut args = vec!["run"];
    args.extend(SWEEP);
    args.extend(["--set", "trace.interval_us=5", "--json"]);
    ok(&[&args[..], &[plain.to_str().unwrap()]].concat());
    ok(&[
        &args[..],
        &[json.to_str().unwrap(), "--trace", trace.to_str().unwrap()],
    ]
    .concat());
    let read = |p: &std::path::Path| {
        let mut v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap();
        for r in v["runs"].as_array_mut().unwrap() {
            r.as_object_mut().unwrap().remove("perf");
        }
        v
    };
    let reports = read(&json);
    assert_eq!(reports, read(&plain), "a trace changes nothing");
    let text = std::fs::read_to_string(&trace).unwrap();
    let mut csv = csv::Reader::from_reader(text.as_bytes());
    let header: Vec<String> = csv.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(
        header,
        [
            "run",
            "switch.lb",
            "seed",
            "time_us",
            "port",
            "stage",
            "queue_bytes",
            "utilization"
        ]
    );
    let rows: Vec<csv::StringRecord> = csv.records().map(Result::unwrap).collect();
    // 8 hosts on 4 leaves with 2 spines: 8 NICs, 4 x (2 down + 2 up), 2 x 4 down.
    let ports = 8 + 4 * 4 + 2 * 4;
    for (i, r) in reports["runs"].as_array().unwrap().iter().enumerate() {
        let mine: Vec<_> = rows.iter().filter(|x| x[0] == *i.to_string()).collect();
        assert!(
            !mine.is_empty() && mine.len() % ports == 0,
            "run {i}: {}",
            mine.len()
        );
        let samples = mine.len() / ports;
        for (j, x) in mine.iter().enumerate() {
            assert_eq!(x[3].parse::<f64>().unwrap(), 5.0 * (j / ports + 1) as f64);
            assert_eq!(x[4].parse::<usize>().unwrap(), j % ports);
            let util: f64 = x[7].parse().unwrap();
            assert!((0.0..=1.0 + 1e-9).contains(&util), "{x:?}");
            let stage = &x[5];
            if stage != "host-up" {
                let q: u64 = x[6].parse().unwrap();
                assert!(q <= r["max_queue_bytes"][stage].as_u64().unwrap(), "{x:?}");
            }
        }
        // Busy time: what the samples saw served is at most what the run served in all.
        let served: f64 = mine
            .iter()
            .map(|x| x[7].parse::<f64>().unwrap() * 5.0)
            .sum();
        let span = r["cct_us"].as_f64().unwrap_or(300.0);
        let busy = r["utilization"]["all"].as_f64().unwrap() * ports as f64 * span;
        assert!(
            served > 0.0 && served <= busy * (1.0 + 1e-9),
            "{served} vs {busy}"
        );
        assert!(samples >= 50, "samples up to the stop time");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

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

/// The trimmed contents of every `<text>` element of an SVG.
fn svg_texts(svg: &str) -> Vec<String> {
    svg.split("<text")
        .skip(1)
        .map(|el| {
            let start = el.find('>').unwrap() + 1;
            let end = el.find("</text>").unwrap();
            el[start..end].trim().to_string()
        })
        .collect()
}

/// The README's Fig. 1 example, small (k = 8, 2 seeds): FCTs of 13-50 µs and slowdowns of
/// 1-3, less than a decade each, read on their axes: every value axis has numbers inside
/// the data's range, the title is written once, and a `run.fct_buckets` sweep gives a
/// series per bucketing.
#[test]
fn plots_without_numbers() {
    let dir = std::env::temp_dir().join(format!("fabsim-plotnum-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = |f: &str| dir.join(f).to_str().unwrap().to_string();
    let fig1 = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/fig1.toml");
    let small = [
        "--set",
        "topology.k=8",
        "--set",
        "run.seeds=2",
        "--set",
        "switch.lb=ecmp,ofan",
    ];
    ok(&[
        &["run", fig1][..],
        &small,
        &["--flows", &p("f.csv"), "--json", &p("r.json")],
    ]
    .concat());
    ok(&[
        "run",
        fig1,
        "--set",
        "topology.k=8",
        "--set",
        "switch.lb=ecmp",
        "--set",
        "run.fct_buckets=[[1000000], [1100000, 2000000]]",
        "--json",
        &p("s.json"),
    ]);
    let flows = std::fs::read_to_string(dir.join("f.csv")).unwrap();
    let mut csv = csv::Reader::from_reader(flows.as_bytes());
    let header: Vec<String> = csv.headers().unwrap().iter().map(String::from).collect();
    let col = |c: &str| header.iter().position(|h| h == c).unwrap();
    let (mut fct, mut slow) = (vec![], vec![]);
    for r in csv.records().map(Result::unwrap) {
        fct.push(r[col("fct_us")].parse::<f64>().unwrap());
        slow.push(r[col("slowdown")].parse::<f64>().unwrap());
    }
    let span = |v: &[f64]| {
        let lo = v.iter().cloned().fold(f64::INFINITY, f64::min);
        let hi = v.iter().cloned().fold(0.0, f64::max);
        (lo, hi)
    };
    let (fct_lo, fct_hi) = span(&fct);
    let (slow_lo, slow_hi) = span(&slow);
    assert!(fct_hi < 10.0 * fct_lo && fct_lo > 1.0, "{fct_lo}-{fct_hi}");
    // Numbers written in the plot within [lo, hi] widened by the axis margin.
    let ticks_within = |svg: &str, (lo, hi): (f64, f64)| {
        svg_texts(svg)
            .iter()
            .filter_map(|t| t.parse::<f64>().ok())
            .filter(|v| *v >= lo / 1.3 && *v <= hi * 1.3)
            .count()
    };
    let plot = |input: &str, out: &str, file: &str| {
        ok(&["plot", &p(input), "--out", &p(out)]);
        std::fs::read_to_string(dir.join(out).join(file)).unwrap()
    };
    let cdf = plot("f.csv", "pf", "fct_cdf.svg");
    // Fractions 0-1 are the y axis; the FCT axis' ticks lie above 1.
    assert!(
        ticks_within(&cdf, (fct_lo.max(1.5), fct_hi)) >= 2,
        "{:?}",
        svg_texts(&cdf)
    );
    let slowdown = std::fs::read_to_string(dir.join("pf/slowdown_vs_size.svg")).unwrap();
    assert!(
        ticks_within(&slowdown, (slow_lo, slow_hi)) >= 2,
        "{:?}",
        svg_texts(&slowdown)
    );
    // Flows of 1 MiB: the size axis shows numbers around it.
    assert!(
        ticks_within(&slowdown, (1048576.0, 1048576.0)) >= 1,
        "{:?}",
        svg_texts(&slowdown)
    );
    for (name, text) in [("fct_cdf.svg", &cdf), ("slowdown_vs_size.svg", &slowdown)] {
        let texts = svg_texts(text);
        let title = &texts[0];
        assert_eq!(
            texts.iter().filter(|t| *t == title).count(),
            1,
            "{name}: {texts:?}"
        );
    }
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("r.json")).unwrap()).unwrap();
    let means: Vec<f64> = (doc["runs"].as_array().unwrap().iter())
        .map(|r| r["fct_by_size"][">=1MB"]["mean_us"].as_f64().unwrap())
        .collect();
    let mean = plot("r.json", "pj", "fct_mean_by_size.svg");
    assert!(
        ticks_within(&mean, span(&means)) >= 2,
        "{:?}",
        svg_texts(&mean)
    );
    let sweep = plot("s.json", "ps", "fct_mean_by_size.svg");
    let texts = svg_texts(&sweep);
    let series: Vec<&String> = texts.iter().filter(|t| t.starts_with("ecmp")).collect();
    assert_eq!(
        series.len(),
        2,
        "one series per fct_buckets value: {texts:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A flow table whose FCT is beyond any run's clock, negative or not a number, or whose
/// slowdown is not its FCT over its ideal FCT, is refused naming the file, line and column,
/// and no plot is written.
#[test]
fn plot_of_a_malformed_flow_table() {
    let dir = std::env::temp_dir().join(format!("fabsim-plotbad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let head = "run,seed,size_bytes,fct_us,ideal_fct_us,slowdown\n0,1,1000,10,5,2\n";
    for (row, column) in [
        ("0,1,1000,1e300,5,2e299", "fct_us"),
        ("0,1,1000,-3,5,", "fct_us"),
        ("0,1,1000,NaN,5,", "fct_us"),
        ("0,1,1000,10,5,7", "slowdown"),
        ("0,1,1000,10,1e300,", "ideal_fct_us"),
    ] {
        let input = dir.join("bad.csv");
        std::fs::write(&input, format!("{head}{row}\n")).unwrap();
        let out = dir.join("plots");
        let o = fabsim(&[
            "plot",
            input.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{row}: {err}");
        assert!(
            err.contains("bad.csv")
                && err.contains("line 3")
                && err.contains(&format!("column {column}")),
            "{row}: {err}"
        );
        assert!(!out.exists(), "{row}: nothing written");
    }
    std::fs::remove_dir_all(&dir).unwrap();
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
            "utilization",
            "from_node",
            "to_node",
            "pfc_paused"
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
            // Ends as the graph numbers nodes: hosts 0-7, leaves 8-11 (host h under leaf
            // 8 + h / 2), spines 12-13.
            let (from, to): (u32, u32) = (x[8].parse().unwrap(), x[9].parse().unwrap());
            let want = match &x[5] {
                "host-up" => from == j as u32 % ports as u32 && to == 8 + from / 2,
                "leaf-down" => (8..12).contains(&from) && to / 2 + 8 == from,
                "leaf-up" => (8..12).contains(&from) && (12..14).contains(&to),
                _ => (12..14).contains(&from) && (8..12).contains(&to),
            };
            assert!(want, "{x:?}");
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

/// `fabsim run --fct` on HPCC's inputs (`scenarios/hpcc.toml`: a leaf-spine whose switches
/// are nodes 0 to 3 and hosts 4 to 7, three flows into node 6): every flow completes, and
/// its line reads back as HPCC's `fct.txt` with the file's sources, destination ports, sizes
/// and start times, in the order the flows completed. The standalone FCT is HPCC's formula
/// (computed here from the topology by hand): on an idle path it exceeds the FCT (it charges
/// a full payload at every link on top of all the bytes), so it is held below the FCT only
/// here, where the three flows share their receiver's link. A sweep writes the same
/// lines per run, each ending with the run's index.
#[test]
fn hpcc_inputs_write_hpcc_fct_lines() {
    let scenario = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/hpcc.toml");
    let out = ok(&["run", scenario, "--fct", "-"]);
    let lines: Vec<Vec<&str>> = out.lines().map(|l| l.split(' ').collect()).collect();
    assert_eq!(lines.len(), 3, "{out}");
    // The flow file: (node, dport, size, start ns), to node 6; hops: 2 on its leaf, else 4.
    let file = [
        (4, 100, 200_000, 2_000_000_000, 4),
        (5, 101, 100_000, 2_000_001_000, 4),
        (7, 102, 50_000, 2_000_002_500, 2),
    ];
    let mut ends = vec![];
    for l in &lines {
        assert_eq!(l.len(), 8, "{l:?}");
        let n = |i: usize| l[i].parse::<u64>().unwrap();
        let sip = u32::from_str_radix(l[0], 16).unwrap();
        let node = u64::from((sip >> 8) & 0xffff);
        let &(_, dport, size, start, hops) = file.iter().find(|f| f.0 == node).unwrap();
        assert_eq!(l[1], "0b000601");
        assert_eq!(
            (n(2), n(3), n(4), n(5)),
            (10000, dport, size, start),
            "{l:?}"
        );
        // 1 us per link both ways, 1000 B at 100 Gb/s per link, the bytes with 48 B per
        // packet at 100 Gb/s.
        let standalone = 2 * 1000 * hops + 80 * hops + (size + size / 1000 * 48) * 8 / 100;
        assert_eq!(n(7), standalone, "{l:?}");
        assert!(n(7) <= n(6), "{l:?}");
        ends.push(n(5) + n(6));
    }
    assert!(ends.windows(2).all(|w| w[0] <= w[1]), "{ends:?}");
    let sweep = ok(&[
        "run",
        scenario,
        "--set",
        "switch.lb=ecmp,ofan",
        "--fct",
        "-",
    ]);
    let runs: Vec<&str> = sweep.lines().map(|l| &l[l.len() - 1..]).collect();
    assert_eq!(runs, ["0", "0", "0", "1", "1", "1"]);
    let first: Vec<&str> = sweep.lines().take(3).map(|l| &l[..l.len() - 2]).collect();
    assert_eq!(first, out.lines().collect::<Vec<_>>(), "run 0 is ecmp's");
}

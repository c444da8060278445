//! The CLI contract: exit status 2 with a clear message on bad input, JSON shape, determinism.

use std::process::Output;

mod common;
use common::{fabsim, ok};

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn bad_input_exits_2_naming_key_value_and_allowed() {
    let dir = std::env::temp_dir().join(format!("fabsim-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad_toml = dir.join("bad.toml");
    std::fs::write(&bad_toml, "[topology\nk = 4").unwrap();
    let bad_toml = bad_toml.to_str().unwrap();
    let bad_tm = dir.join("bad.tm");
    std::fs::write(
        &bad_tm,
        "Nodes 16\nConnections 1\n0->1 id 1 start 0 size 10 trigger 3\n",
    )
    .unwrap();
    let bad_tm = format!("workload.file={}", bad_tm.to_str().unwrap());
    let cases: [(&[&str], &[&str]); 15] = [
        (
            &[
                "run",
                "--set",
                "topology.k=4",
                "--set",
                "workload.kind=htsim",
                "--set",
                &bad_tm,
            ],
            &["workload.file", "bad.tm", "line 3", "trigger"],
        ),
        (
            &[
                "run",
                "--set",
                "topology.k=4",
                "--set",
                "failures.links=edge0-agg0,edge0-agg1",
            ],
            &["failures.links", "edge0-agg1", "cut"],
        ),
        (
            &[
                "run",
                "--set",
                "workload.kind=all-reduce",
                "--set",
                "workload.group=0-999",
            ],
            &["workload.group", "0-999", "432 hosts"],
        ),
        (
            &["run", "--set", "topology.kk=4"],
            &["topology.kk", "did you mean `topology.k`?"],
        ),
        (
            &["run", "--set", "switch.lb=conga"],
            &["switch.lb", "2-tier"],
        ),
        (
            &[
                "run",
                "--set",
                "switch.ecn_kmin_bytes=9",
                "--set",
                "switch.ecn_kmax_bytes=5",
            ],
            &[
                "switch.ecn_kmax_bytes",
                "5",
                "at least switch.ecn_kmin_bytes",
            ],
        ),
        (
            &["run", "--set", "host.cc=cubic"],
            &["host.cc", "cubic", "dctcp"],
        ),
        (
            &["run", "--set", "switch.lb=magic"],
            &["switch.lb", "magic", "ofan"],
        ),
        (
            &["run", "--set", "topology.k=7"],
            &["topology.k", "7", "even"],
        ),
        (
            &["run", "--set", "workload.message_bytes=-1"],
            &["workload.message_bytes", "-1", "from 1"],
        ),
        (&["run", bad_toml], &[bad_toml, "malformed TOML"]),
        (
            &["run", "/nonexistent/x.toml"],
            &["/nonexistent/x.toml", "cannot read"],
        ),
        (
            &["reproduce", "ofan-bound", "--quick", "--out", "/dev/null/x"],
            &["--out /dev/null/x", "cannot create directory"],
        ),
        (
            &["run", "--set", "host.rto_us=2"],
            &["host.rto_us", "base RTT"],
        ),
        (
            &["run", "--set", "switch.buffer_bytes=4159"],
            &["switch.buffer_bytes", "4160-byte data packet"],
        ),
    ];
    for (args, needles) in cases {
        let o = fabsim(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        for n in needles {
            assert!(
                stderr(&o).contains(n),
                "{args:?}: missing {n:?} in {}",
                stderr(&o)
            );
        }
        assert!(o.stdout.is_empty(), "{args:?}: no partial output");
    }
}

#[test]
fn json_has_the_promised_fields_and_is_deterministic() {
    let args = [
        "run",
        "--set",
        "topology.k=4",
        "--set",
        "switch.lb=ecmp,ofan",
        "--set",
        "workload.message_bytes=65536",
        "--json",
        "-",
    ];
    let strip = |o: Output| {
        assert!(o.status.success(), "{}", stderr(&o));
        let mut v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        for run in v["runs"].as_array_mut().unwrap() {
            let perf = run.as_object_mut().unwrap().remove("perf").unwrap();
            assert!(perf["wall_s"].is_number() && perf["packet_hops_per_s"].is_number());
        }
        v
    };
    let a = strip(fabsim(&args));
    let runs = a["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 2);
    for key in [
        "lb",
        "seed",
        "message_bytes",
        "cct_us",
        "lower_bound_us",
        "cct_inflation",
        "drops",
        "events",
        "packet_hops",
    ] {
        assert!(runs[0].get(key).is_some(), "missing {key}");
    }
    for key in ["max_queue_bytes", "mean_queue_bytes", "utilization"] {
        for stage in [
            "all",
            "edge-up",
            "agg-up",
            "core-down",
            "agg-down",
            "edge-down",
        ] {
            assert!(runs[1][key][stage].is_number(), "missing {key}.{stage}");
        }
    }
    assert_eq!(a, strip(fabsim(&args)));
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn hw_pipeline_memory_and_orders() {
    let o = fabsim(&["hw", "pipeline", "--cycles", "20000"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("20000 cycles") && out.contains(" 0 mismatches"),
        "{out}"
    );
    assert!(
        out.contains("model throughput:") && out.contains("packets/s"),
        "{out}"
    );

    let o = fabsim(&[
        "hw",
        "memory",
        "--k",
        "64",
        "--tiers",
        "3",
        "--pipe-ports",
        "4",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    for row in [
        "SRAM budget per pipe",
        "edge      2048   32   2048     16",
        "agg       2048   32     64     16",
        "20480",
        "dominates",
    ] {
        assert!(out.contains(row), "missing {row:?} in\n{out}");
    }
    let o = fabsim(&["hw", "memory", "--k", "8", "--tiers", "2"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("leaf"));

    let o = fabsim(&["hw", "orders"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("  6   8 "), "{}", stdout(&o));
}

#[test]
fn hw_bad_input_exits_2() {
    let cases: [(&[&str], &str); 9] = [
        (&["hw", "memory", "--k", "7"], "k = 7"),
        (&["hw", "memory", "--tiers", "4"], "tiers = 4"),
        (&["hw", "memory", "--pipe-ports", "0"], "pipe ports = 0"),
        // Issue 48, case 15: more pipe ports than the switch has, an absurd ASIC.
        (
            &["hw", "memory", "--k", "8", "--pipe-ports", "1000"],
            "pipe ports = 1000: allowed: 1 to the switch's 8 ports",
        ),
        (&["power", "--asic-tbps", "1e-300"], "--asic-tbps = 1e-300"),
        (
            &["power", "--asic-watts", "1e-10"],
            "allowed: a number from 1e-3",
        ),
        (&["hw", "memory", "--k", "abc"], "abc"),
        (&["hw", "pipeline", "--width", "0"], "--width 0"),
        (&["hw", "pipeline", "--max-w", "0"], "--max-w 0"),
    ];
    for (args, needle) in cases {
        let o = fabsim(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
        assert!(o.stdout.is_empty(), "{args:?}: no partial output");
    }
}

#[test]
fn multi_asic_keys_exit_2_and_json_has_fastroute_fields() {
    for (args, needles) in [
        (
            &["run", "--set", "switch.arch=chiplet"][..],
            &["switch.arch", "chiplet", "fastroute"][..],
        ),
        (
            &[
                "run",
                "--set",
                "switch.arch=sota",
                "--set",
                "switch.asics=5",
            ],
            &["switch.asics", "5"],
        ),
        (
            &["run", "--set", "workload.kind=web"],
            &["run.duration_us", "web"],
        ),
    ] {
        let o = fabsim(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        for n in needles {
            assert!(
                stderr(&o).contains(n),
                "{args:?}: missing {n:?} in {}",
                stderr(&o)
            );
        }
    }
    let scenario = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../scenarios/fastroute-small.toml"
    );
    let o = fabsim(&[
        "run",
        scenario,
        "--set",
        "run.duration_us=200",
        "--json",
        "-",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let runs = v["runs"].as_array().unwrap();
    let archs: Vec<&str> = runs.iter().map(|r| r["arch"].as_str().unwrap()).collect();
    assert_eq!(archs, ["ideal", "sota", "oversubscribed", "fastroute"]);
    for key in [
        "mean_throughput_gbps",
        "fct_mean_us",
        "fct_p99_us",
        "inter_asic_bytes",
        "reconfigurations",
        "inter_asic_util",
    ] {
        assert!(runs[3].get(key).is_some(), "missing {key}");
    }
    assert!(runs[3]["reconfigurations"].as_u64().unwrap() > 0);
    assert_eq!(runs[0]["inter_asic_bytes"].as_u64(), Some(0));
    // The table gains the Fastroute columns, not the time series.
    assert!(stderr(&o).contains("inter_asic_MB") && !stderr(&o).contains("inter_asic_util"));
}

/// The benchmark suite runs each case in a child process at each thread count and reports a
/// row per case and count with its own peak memory and the same packet-hops (numbers are
/// not asserted: speed is measured, not tested).
#[test]
fn bench_suite_reports_each_case() {
    let out = ok(&["bench", "--suite", "--case", "default", "--threads", "1,2"]);
    let rows: Vec<Vec<&str>> = out
        .lines()
        .filter(|l| l.starts_with("default "))
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(rows.len(), 2, "{out}");
    for (row, threads) in rows.iter().zip(["1", "2"]) {
        assert_eq!((row[1], row[2]), (threads, "432"), "{out}");
        assert_eq!(row[3], rows[0][3], "the same packet-hops: {out}");
        let peak: f64 = row[9].parse().unwrap();
        assert!(peak > 1.0, "{out}");
    }
    let o = fabsim(&["bench", "--suite", "--case", "k128"]);
    assert_eq!(o.status.code(), Some(2));
}

/// A Fastroute run whose flows all end before the controller's first mapping applies says
/// so: it measured the initial mapping, not the circuit layer.
#[test]
fn fastroute_runs_too_short_for_the_controller_are_flagged() {
    let args = |bytes: &str| {
        vec![
            "run".to_string(),
            "../../scenarios/fastroute-small.toml".into(),
            "--set".into(),
            "switch.arch=fastroute".into(),
            "--set".into(),
            format!("workload.message_bytes={bytes}"),
        ]
    };
    let short: Vec<String> = args("100000");
    let o = fabsim(&short.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("before Fastroute's first mapping could apply (110 us"),
        "{}",
        stderr(&o)
    );
    let long: Vec<String> = args("4000000");
    let o = fabsim(&long.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stderr(&o).contains("first mapping"), "{}", stderr(&o));
}

/// Bad input to `power`, `plot` and `sweep plan` is a usage error naming what is wrong.
#[test]
fn out_of_range_powers_empty_tables_and_file_outputs_are_usage_errors() {
    let dir = std::env::temp_dir().join(format!("fabsim-cli-bad-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("a-file");
    std::fs::write(&file, "").unwrap();
    let header = dir.join("header.csv");
    std::fs::write(
        &header,
        "run,seed,flow,src,dst,size_bytes,start_us,finish_us,fct_us,ideal_fct_us,slowdown\n",
    )
    .unwrap();
    let negative = dir.join("negative.csv");
    std::fs::write(
        &negative,
        "run,seed,flow,src,dst,size_bytes,start_us,finish_us,fct_us,ideal_fct_us,slowdown\n\
         0,1,0,0,1,1000,0,1,-1,1,1\n",
    )
    .unwrap();
    let plots = dir.join("plots");
    let scenario = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/fig1.toml");
    let cases: [(&[&str], &str); 4] = [
        (
            &["power", "--asic-watts", "1e308"],
            "allowed: a number from 1e-3 to 1e9",
        ),
        (
            &[
                "plot",
                header.to_str().unwrap(),
                "--out",
                plots.to_str().unwrap(),
            ],
            "no flows",
        ),
        (
            &[
                "plot",
                negative.to_str().unwrap(),
                "--out",
                plots.to_str().unwrap(),
            ],
            "is not a finite number >= 0",
        ),
        (
            &["sweep", "plan", scenario, "--out", file.to_str().unwrap()],
            "not a directory",
        ),
    ];
    for (args, why) in cases {
        let o = fabsim(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(why), "{args:?}: {}", stderr(&o));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A run that ends before its first flow arrives completed with nothing to bound: no
/// `lower_bound_us` in the JSON, "no flows" in the table (not "0/1 runs done").
#[test]
fn a_run_with_no_flows_reports_no_bound() {
    let json = std::env::temp_dir().join(format!("fabsim-noflows-{}.json", std::process::id()));
    let j = json.to_str().unwrap();
    let run = |duration: &str| {
        let out = ok(&[
            "run",
            "--set",
            "workload.kind=web",
            "--set",
            "switch.lb=ofan",
            "--set",
            &format!("run.duration_us={duration}"),
            "--json",
            j,
        ]);
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        (out, v["runs"][0].clone())
    };
    let (out, r) = run("0.000001");
    assert_eq!(r["flows_total"], 0);
    assert!(r["lower_bound_us"].is_null(), "{r}");
    assert!(
        out.contains("no flows") && !out.contains("runs done"),
        "{out}"
    );
    // One flow that could not finish in time: a bound, and the run reported unfinished.
    let (out, r) = run("0.001");
    assert_eq!(r["flows_total"], 1);
    assert!(r["lower_bound_us"].as_f64().unwrap() > 0.0, "{r}");
    assert!(out.contains("0/1 runs done"), "{out}");
    let _ = std::fs::remove_file(&json);
}

/// The CLI is argument parsing over library calls: no command's module reaches into another
/// command's (shared code belongs in `fabsim` or `fabsim-lab`).
#[test]
fn commands_do_not_import_each_other() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let modules: Vec<String> = std::fs::read_dir(&src)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap() != "main.rs")
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    assert!(modules.len() >= 6, "{modules:?}");
    for m in &modules {
        let text = std::fs::read_to_string(src.join(format!("{m}.rs"))).unwrap();
        for other in modules.iter().filter(|o| *o != m) {
            assert!(
                !text.contains(&format!("crate::{other}")),
                "{m}.rs uses crate::{other}"
            );
        }
    }
}

#[test]
fn an_exported_topology_runs_as_the_scenario_it_came_from() {
    let dir = std::env::temp_dir().join(format!("fabsim-cli-topology-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let shape = ["--set", "topology.k=4", "--set", "link.rate_gbps=100"];
    let run = [
        "--set",
        "switch.lb=ofan,ecmp",
        "--set",
        "workload.message_bytes=65536",
    ];
    let built_in = ok(&[&["run"][..], &shape, &run].concat());
    for (name, format) in [("ft4.toml", "toml"), ("ft4.txt", "hpcc")] {
        let file = dir.join(name);
        let file = file.to_str().unwrap();
        let o = fabsim(
            &[
                &["topology"][..],
                &shape,
                &["--export", file, "--format", format],
            ]
            .concat(),
        );
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(
            stderr(&o).contains(&format!("wrote {file}")),
            "{}",
            stderr(&o)
        );
        assert!(
            stderr(&o).contains("16 hosts, 20 switches, 48 links"),
            "{}",
            stderr(&o)
        );
        let from_file = ok(&[
            &["run", "--set", &format!("topology.file={file}")][..],
            &run,
        ]
        .concat());
        assert_eq!(from_file, built_in, "{format}");
    }
    // A missing directory: an error, and no file.
    let missing = dir.join("no/such/dir.toml");
    let o = fabsim(&["topology", "--export", missing.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(!missing.exists());
    std::fs::remove_dir_all(dir).unwrap();
}

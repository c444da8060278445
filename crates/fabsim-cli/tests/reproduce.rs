//! `fabsim reproduce` end to end on its smallest experiment: outputs exist, verdicts are
//! computed from the runs, a rerun resumes without redoing finished runs.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

mod common;
use common::{fabsim, ok};

fn result_files(dir: &Path) -> Vec<(PathBuf, SystemTime)> {
    let mut v = vec![];
    for sweep in std::fs::read_dir(dir.join("runs")).unwrap().flatten() {
        for f in std::fs::read_dir(sweep.path().join("results"))
            .unwrap()
            .flatten()
        {
            if f.path().extension().is_some_and(|e| e == "json") {
                v.push((f.path(), f.metadata().unwrap().modified().unwrap()));
            }
        }
    }
    v.sort();
    v
}

#[test]
fn reproduce_runs_writes_outputs_computes_verdicts_and_resumes() {
    let out = std::env::temp_dir().join(format!("fabsim-reproduce-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let o = out.to_str().unwrap();
    let args = [
        "reproduce",
        "ofan-bound",
        "--quick",
        "--seeds",
        "1",
        "--out",
        o,
    ];
    ok(&args);
    let dir = out.join("ofan-bound");
    for f in ["results.csv", "claims.json", "plot.svg", "report.md"] {
        assert!(dir.join(f).is_file(), "{f} missing");
    }
    // 2 fabric sizes x 3 schemes x 1 seed.
    let csv = std::fs::read_to_string(dir.join("results.csv")).unwrap();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 6);
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let claims: Vec<serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(dir.join("claims.json")).unwrap()).unwrap();
    assert_eq!(claims.len(), 3);
    for c in &claims {
        let verdict = c["verdict"].as_str().unwrap();
        match verdict {
            "holds" | "differs" => {
                assert!(c["fabsim"].is_f64() && c["margin"].is_f64());
                assert_eq!(c["holds"].as_bool(), Some(verdict == "holds"));
            }
            "inconclusive" => assert!(c["holds"].is_boolean() && c["se"].is_f64()),
            "not comparable" => assert!(c["holds"].is_null()),
            v => panic!("verdict {v}"),
        }
        for key in ["claim", "paper", "tolerance"] {
            assert!(!c[key].is_null(), "{key} missing");
        }
    }
    // The bound claim's number is the runs' bound at k = 4 (16 hosts).
    let bound: f64 = rows
        .iter()
        .find(|r| r[col("hosts")] == "16")
        .map(|r| r[col("lower_bound_us")].parse().unwrap())
        .unwrap();
    assert_eq!(claims[0]["fabsim"].as_f64(), Some(bound));
    let holds = (bound - claims[0]["paper"].as_f64().unwrap()).abs() <= 0.01;
    assert_eq!(claims[0]["holds"].as_bool(), Some(holds));
    let report = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(report.contains("![ofan-bound](plot.svg)") && report.contains("| claim"));
    assert!(std::fs::read_to_string(dir.join("plot.svg"))
        .unwrap()
        .contains("<circle"));

    // Resume: only the missing run is redone, and the claims come out the same.
    let before = result_files(&dir);
    assert_eq!(before.len(), 6);
    std::fs::remove_file(&before[2].0).unwrap();
    let claims_before = std::fs::read_to_string(dir.join("claims.json")).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    ok(&args);
    let after = result_files(&dir);
    assert_eq!(after.len(), 6);
    for (i, (b, a)) in before.iter().zip(&after).enumerate() {
        assert_eq!(b.0, a.0);
        assert_eq!(b.1 == a.1, i != 2, "run {i} rerun = {}", b.1 != a.1);
    }
    assert_eq!(
        std::fs::read_to_string(dir.join("claims.json")).unwrap(),
        claims_before
    );

    // Re-scoring reads results.csv alone: without the runs, the same claims, and a report
    // naming the runs' build and the re-scoring one.
    std::fs::remove_dir_all(dir.join("runs")).unwrap();
    let size = |r: &str| {
        r.lines()
            .find(|l| l.starts_with("Size: "))
            .unwrap()
            .to_string()
    };
    let ran = size(&std::fs::read_to_string(dir.join("report.md")).unwrap());
    let printed = ok(&["reproduce", "ofan-bound", "--rescore", "--out", o]);
    assert!(
        printed.contains("ofan-bound: re-scored 6 rows"),
        "{printed}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("claims.json")).unwrap(),
        claims_before
    );
    let report = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert_eq!(size(&report), ran);
    assert!(
        report.contains("`fabsim reproduce ofan-bound --rescore`"),
        "{report}"
    );
    assert!(report.contains("simulator sources") && report.contains(": the runs'"));
    // An experiment without results is an error naming the file.
    let o2 = fabsim(&["reproduce", "ofan-fig1", "--rescore", "--out", o]);
    let err = String::from_utf8_lossy(&o2.stderr);
    assert!(!o2.status.success() && err.contains("results.csv"), "{err}");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn reproduce_plan_writes_sweeps_that_fabsim_sweep_runs_and_reproduce_collects() {
    let out = std::env::temp_dir().join(format!("fabsim-plan-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let o = out.to_str().unwrap();
    let plan = [
        "reproduce",
        "ofan-bound",
        "--quick",
        "--seeds",
        "1",
        "--plan",
        "--out",
        o,
    ];
    let printed = ok(&plan);
    let dirs: Vec<(PathBuf, String)> = printed
        .lines()
        .map(|l| {
            let (d, counts) = l.rsplit_once(": ").unwrap();
            (PathBuf::from(d), counts.to_string())
        })
        .collect();
    assert_eq!(dirs.len(), 1, "{printed}");
    assert_eq!(dirs[0].1, "6 runs, 6 to run");
    let dir = out.join("ofan-bound");
    assert!(result_files(&dir).is_empty() && !dir.join("claims.json").exists());
    // Run them elsewhere (here: locally), then plan again and collect.
    ok(&["sweep", "run", "--all", dirs[0].0.to_str().unwrap()]);
    assert!(ok(&plan).ends_with(": 6 runs, 0 to run\n"));
    let ran = result_files(&dir);
    assert_eq!(ran.len(), 6);
    ok(&[
        "reproduce",
        "ofan-bound",
        "--quick",
        "--seeds",
        "1",
        "--out",
        o,
    ]);
    assert_eq!(result_files(&dir), ran, "collecting reran a planned run");
    assert!(dir.join("claims.json").is_file());
    // A computed experiment has nothing to plan.
    let computed = ok(&["reproduce", "fastroute-table2", "--plan", "--out", o]);
    assert!(computed.contains("no sweep to plan"), "{computed}");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn reproduce_lists_experiments_and_rejects_unknown_ids() {
    let list = ok(&["reproduce", "--list"]);
    for id in [
        "ofan-fig1",
        "ofan-bound",
        "fastroute-table2",
        "fastroute-fig20",
    ] {
        assert!(list.contains(id), "{id} not listed");
    }
    assert!(list.contains("claim:"));
    for args in [
        &["reproduce", "ofan-fig99"][..],
        &["reproduce", "--list", "ofan-fig99"],
    ] {
        let o = fabsim(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("ofan-fig99") && err.contains("ofan-fig1"),
            "{err}"
        );
    }
    // `--list ID`: that experiment alone, with its readings.
    let one = ok(&["reproduce", "--list", "fastroute-fig17"]);
    assert!(one.starts_with("fastroute-fig17") && !one.contains("ofan-fig1"));
    assert!(
        one.contains("reading quarter: workload.phase_fill=0.25"),
        "{one}"
    );
}

/// A truncated computation cache is computed again, not read as the results.
#[test]
fn a_damaged_computation_cache_is_computed_again() {
    let out = std::env::temp_dir().join(format!("fabsim-cache-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let o = out.to_str().unwrap();
    let whole = ok(&["reproduce", "fastroute-table2", "--quick", "--out", o]);
    let dir = out.join("fastroute-table2");
    let cache = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| {
            p.extension().is_some_and(|x| x == "csv") && p.to_string_lossy().contains("computed-")
        })
        .expect("a computation cache");
    let text = std::fs::read_to_string(&cache).unwrap();
    std::fs::write(&cache, &text[..text.len() / 3]).unwrap();
    let o2 = fabsim(&["reproduce", "fastroute-table2", "--quick", "--out", o]);
    assert!(o2.status.success());
    assert!(String::from_utf8_lossy(&o2.stderr).contains("computing it again"));
    let again = String::from_utf8_lossy(&o2.stdout);
    // The line without its wall time and path (`..., 0.0 s -> DIR`).
    let tally = |s: &str| s.rsplit_once(", ").map(|x| x.0.to_string());
    assert_eq!(tally(&again), tally(&whole));
    assert_eq!(std::fs::read_to_string(&cache).unwrap(), text);
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn rescore_of_partial_results_is_refused() {
    let out = std::env::temp_dir().join(format!("fabsim-rescore-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let o = out.to_str().unwrap();
    ok(&["reproduce", "ofan-bound", "--quick", "--out", o]);
    let csv = out.join("ofan-bound").join("results.csv");
    let text = std::fs::read_to_string(&csv).unwrap();
    let rows = text.lines().count() - 1;
    let report = std::fs::read_to_string(out.join("ofan-bound").join("report.md")).unwrap();
    assert!(report.contains(&format!("{rows} result rows")), "{report}");
    // The whole table re-scores, and the report says how many rows it judged.
    ok(&["reproduce", "ofan-bound", "--rescore", "--out", o]);
    let report = std::fs::read_to_string(out.join("ofan-bound").join("report.md")).unwrap();
    assert!(
        report.contains(&format!("this results.csv ({rows} rows)")),
        "{report}"
    );
    // Two thirds of the rows deleted: refused, naming how many are missing.
    let kept: String = text
        .lines()
        .take(1 + rows / 3)
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&csv, kept).unwrap();
    let claims = std::fs::read(out.join("ofan-bound").join("claims.json")).unwrap();
    let r = fabsim(&["reproduce", "ofan-bound", "--rescore", "--out", o]);
    let err = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.status.code(), Some(2), "{err}");
    let missing = rows - rows / 3;
    assert!(
        err.contains(&format!("holds {} rows", rows / 3))
            && err.contains(&format!("the runs gave {rows}"))
            && err.contains(&format!("{missing} rows are missing")),
        "{err}"
    );
    // The earlier verdicts stay.
    assert_eq!(
        claims,
        std::fs::read(out.join("ofan-bound").join("claims.json")).unwrap()
    );
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn verdicts_from_unfinished_runs_are_not_comparable() {
    let out = std::env::temp_dir().join(format!("fabsim-unfinished-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let o = out.to_str().unwrap();
    // 10 us: no flow of a 1 MiB permutation completes.
    ok(&[
        "reproduce",
        "ofan-fig1",
        "--quick",
        "--set",
        "run.duration_us=10",
        "--out",
        o,
    ]);
    let claims: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("ofan-fig1").join("claims.json")).unwrap(),
    )
    .unwrap();
    let claims = claims.as_array().unwrap();
    assert!(!claims.is_empty());
    for c in claims {
        assert_eq!(c["verdict"], "not comparable", "{c}");
        assert!(
            c["why"]
                .as_str()
                .unwrap()
                .contains("did not complete their flows"),
            "{c}"
        );
    }
    std::fs::remove_dir_all(&out).unwrap();
}

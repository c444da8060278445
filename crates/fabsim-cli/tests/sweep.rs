//! `fabsim sweep`: plan, run by index / from the environment / all, skip on rerun, recover
//! from killed tasks and failures, Slurm script, status, and a merge identical to `fabsim run`.

use std::path::{Path, PathBuf};

mod common;
use common::{fabsim, fabsim_cmd, ok};

fn fails(args: &[&str], code: i32, needles: &[&str]) {
    let o = fabsim(args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(code), "{args:?}: {err}");
    for n in needles {
        assert!(err.contains(n), "{args:?}: missing {n:?} in {err}");
    }
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("fabsim-sweep-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Sorted names of the files in `dir`, hidden ones included.
fn listing(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

fn without_perf(json: &str) -> String {
    json.lines()
        .filter(|l| !l.contains("\"wall_s\"") && !l.contains("\"packet_hops_per_s\""))
        .collect::<Vec<_>>()
        .join("\n")
}

fn manifest_hash(manifest: &str) -> String {
    let v: serde_json::Value = serde_json::from_str(manifest).unwrap();
    v["hash"].as_str().unwrap().to_string()
}

const SCENARIO: &str = "[topology]\nk = 4\n\n[switch]\nlb = [\"ecmp\", \"ofan\"]\n\n\
                        [workload]\nmessage_bytes = 65536\n\n[run]\nseeds = 2\n";

#[test]
fn sweep_plans_runs_resumes_and_merges_like_fabsim_run() {
    let tmp = temp_dir("main");
    let scenario = tmp.join("s.toml");
    std::fs::write(&scenario, SCENARIO).unwrap();
    let s = scenario.to_str().unwrap();
    let dir = tmp.join("sweep");
    let d = dir.to_str().unwrap();
    let results = dir.join("results");
    // Exactly these result files, and no temporary file left behind.
    let done = |names: &[&str]| {
        let mut expected: Vec<String> = names.iter().map(|n| n.to_string()).collect();
        expected.insert(0, ".tmp".into());
        assert_eq!(listing(&results), expected);
        assert!(listing(&results.join(".tmp")).is_empty());
    };

    // Plan: 2 schemes x 2 seeds; planning again is a no-op, a different plan is refused.
    ok(&["sweep", "plan", s, "--out", d]);
    assert_eq!(
        listing(&dir.join("runs")),
        ["000000.toml", "000001.toml", "000002.toml", "000003.toml"]
    );
    let spec = std::fs::read_to_string(dir.join("runs/000003.toml")).unwrap();
    assert!(
        spec.contains("lb = \"ofan\"") && spec.contains("seed = 2"),
        "{spec}"
    );
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("sweep.json")).unwrap()).unwrap();
    assert_eq!(manifest["runs"], 4);
    assert!(ok(&["sweep", "plan", s, "--out", d]).contains("already planned"));
    fails(
        &["sweep", "plan", s, "--set", "run.seeds=3", "--out", d],
        2,
        &["different sweep"],
    );
    fails(
        &[
            "sweep",
            "plan",
            s,
            "--set",
            "switch.lb=magic",
            "--out",
            "unused",
        ],
        2,
        &["switch.lb", "magic", "ofan"],
    );
    fails(
        &["sweep", "run", "/nonexistent", "--all"],
        2,
        &["sweep.json"],
    );
    assert!(ok(&["sweep", "status", d]).contains("missing: 4"));

    // Slurm script over the remaining tasks.
    ok(&[
        "sweep",
        "slurm",
        d,
        "--chunk",
        "3",
        "--max-parallel",
        "2",
        "--partition",
        "short",
        "--time",
        "5:00",
    ]);
    let sbatch = std::fs::read_to_string(dir.join("sweep.sbatch")).unwrap();
    for needle in [
        "#SBATCH --array=0-1%2",
        "#SBATCH --partition=short",
        "#SBATCH --time=5:00",
        "sweep run '/",
        "--index-from-env --chunk 3",
    ] {
        assert!(sbatch.contains(needle), "missing {needle:?} in\n{sbatch}");
    }
    fails(&["sweep", "slurm", d, "--time", "5 min"], 2, &["--time"]);
    // Issue 48, case 15: a time Slurm cannot read was written into the script.
    for bad in ["abc", "1:2:3:4", "x-5", "1-", "5:", "1.5"] {
        fails(
            &["sweep", "slurm", d, "--time", bad],
            2,
            &["not a Slurm time limit", "DAYS-HOURS"],
        );
    }
    for good in [
        "30",
        "30:00",
        "2:30:00",
        "1-12",
        "1-0:30",
        "1-00:00:00",
        "UNLIMITED",
    ] {
        ok(&["sweep", "slurm", d, "--time", good]);
    }

    // Nothing to merge yet: a clear error and no partial file.
    fails(&["sweep", "merge", d], 1, &["missing: 0-3"]);
    assert!(!dir.join("merged.json").exists());

    // One by one; a finished index is skipped (its file, perf included, stays as it was).
    ok(&["sweep", "run", d, "--index", "0"]);
    ok(&["sweep", "run", d, "--index", "1"]);
    let first = std::fs::read_to_string(results.join("000000.json")).unwrap();
    assert!(ok(&["sweep", "run", d, "--index", "0"]).contains("1 already done"));
    assert_eq!(
        std::fs::read_to_string(results.join("000000.json")).unwrap(),
        first
    );
    fails(&["sweep", "run", d, "--index", "4"], 2, &["out of range"]);
    fails(
        &["sweep", "run", d, "--index-from-env"],
        2,
        &["SLURM_ARRAY_TASK_ID"],
    );
    done(&["000000.json", "000001.json"]);

    // A Slurm array task with chunks of 2: task 1 covers runs 2 and 3.
    let o = fabsim_cmd(&["sweep", "run", d, "--index-from-env", "--chunk", "2"])
        .env("SLURM_ARRAY_TASK_ID", "1")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    done(&["000000.json", "000001.json", "000002.json", "000003.json"]);
    assert!(ok(&["sweep", "status", d]).contains("done: 4"));
    assert!(ok(&["sweep", "slurm", d]).contains("nothing to submit"));

    // A killed task: no result, a torn temporary file. A Kubernetes indexed job redoes it.
    std::fs::remove_file(results.join("000002.json")).unwrap();
    std::fs::write(results.join(".tmp/000002.json.node7.4242"), &first[..50]).unwrap();
    fails(&["sweep", "merge", d], 1, &["missing: 2"]);
    assert!(ok(&["sweep", "status", d]).contains("1 temporary files"));
    let o = fabsim_cmd(&["sweep", "run", d, "--index-from-env"])
        .env("JOB_COMPLETION_INDEX", "2")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    done(&["000000.json", "000001.json", "000002.json", "000003.json"]);

    // A failing run leaves its message in NNNNNN.err, shown by status and merge; fixing the
    // cause and running --all completes the sweep and removes the .err.
    let spec1 = dir.join("runs/000001.toml");
    let good = std::fs::read_to_string(&spec1).unwrap();
    std::fs::remove_file(results.join("000001.json")).unwrap();
    std::fs::remove_file(results.join("000003.json")).unwrap();
    std::fs::write(&spec1, good.replace("k = 4", "k = 5")).unwrap();
    // (An edited spec is refused before it runs: it is not the planned run.)
    fails(
        &["sweep", "run", d, "--all"],
        1,
        &["run 000001", "differs from the run spec planned"],
    );
    done(&["000000.json", "000001.err", "000002.json", "000003.json"]);
    let status = ok(&["sweep", "status", d]);
    assert!(
        status.contains("failed: 1") && status.contains("000001: ") && status.contains("differs"),
        "{status}"
    );
    fails(&["sweep", "merge", d], 1, &["failed: 1"]);
    std::fs::write(&spec1, good).unwrap();
    assert!(ok(&["sweep", "run", d, "--all", "--jobs", "2"]).contains("1 ran, 0 already done"));
    done(&["000000.json", "000001.json", "000002.json", "000003.json"]);

    // Merge: identical to a local `fabsim run --json` apart from perf.
    ok(&["sweep", "merge", d]);
    let merged = std::fs::read_to_string(dir.join("merged.json")).unwrap();
    let local = ok(&["run", s, "--json", "-"]);
    assert_eq!(without_perf(&merged), without_perf(local.trim_end()));
    assert!(merged.contains("\"wall_s\""));
    let csv = std::fs::read_to_string(dir.join("merged.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 5, "{csv}");
    assert!(lines[0].starts_with("index,switch.lb,lb,host_lb,cc,workload,seed,"));
    assert!(
        lines[0].contains(",max_queue_bytes.all,") && lines[0].contains(",utilization.host-up,")
    );
    assert!(lines[4].starts_with("3,ofan,ofan,none,none,permutation,2,65536,16,"));

    // A manifest whose scenario no longer expands to the planned specs is refused.
    let manifest_path = dir.join("sweep.json");
    let manifest = std::fs::read_to_string(&manifest_path).unwrap();
    let hash = manifest_hash(&manifest);
    std::fs::write(&manifest_path, manifest.replace(&hash, "0123456789abcdef")).unwrap();
    fails(
        &["sweep", "merge", d],
        1,
        &["plan it again into a new directory"],
    );
    std::fs::write(&manifest_path, manifest).unwrap();
    ok(&["sweep", "merge", d]);

    std::fs::remove_dir_all(&tmp).unwrap();
}

#[test]
fn a_task_killed_mid_run_leaves_no_result_and_reruns_cleanly() {
    let tmp = temp_dir("kill");
    let scenario = tmp.join("s.toml");
    std::fs::write(
        &scenario,
        "[topology]\nk = 8\n[workload]\nmessage_bytes = 4194304\n",
    )
    .unwrap();
    let dir = tmp.join("sweep");
    let d = dir.to_str().unwrap();
    ok(&["sweep", "plan", scenario.to_str().unwrap(), "--out", d]);
    let mut child = fabsim_cmd(&["sweep", "run", d, "--index", "0"])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(30));
    child.kill().unwrap();
    child.wait().unwrap();
    // Killed (or, on a very fast machine, finished): never a torn result.
    let result = dir.join("results/000000.json");
    if let Ok(text) = std::fs::read_to_string(&result) {
        serde_json::from_str::<serde_json::Value>(&text).expect("a complete result");
    }
    ok(&["sweep", "run", d, "--all"]);
    assert_eq!(listing(&dir.join("results")), [".tmp", "000000.json"]);
    assert!(listing(&dir.join("results/.tmp")).is_empty());
    ok(&["sweep", "merge", d]);
    std::fs::remove_dir_all(&tmp).unwrap();
}

/// A result must answer its own run spec and input files; stray files are not runs; a
/// directory planned or run by another process is refused.
#[test]
fn results_answer_their_specs_and_a_busy_directory_is_refused() {
    let tmp = temp_dir("integrity");
    let cdf = tmp.join("sizes.cdf");
    std::fs::write(&cdf, "1000 0.5\n2000 1\n").unwrap();
    let scenario = tmp.join("s.toml");
    std::fs::write(
        &scenario,
        format!(
            "[topology]\ntiers = 2\nk = 4\n[workload]\nkind = \"web\"\ncdf = {:?}\n\
             [run]\nduration_us = 20\nseeds = 2\n",
            cdf.display()
        ),
    )
    .unwrap();
    let dir = tmp.join("sweep");
    let d = dir.to_str().unwrap();
    let s = scenario.to_str().unwrap();
    ok(&["sweep", "plan", s, "--out", d]);
    ok(&["sweep", "run", d, "--all"]);
    ok(&["sweep", "merge", d]);
    let result = |i: u32| dir.join("results").join(format!("{i:06}.json"));

    // A result copied over another run's is refused, naming it.
    let first = std::fs::read(result(0)).unwrap();
    let second = std::fs::read(result(1)).unwrap();
    std::fs::write(result(1), &first).unwrap();
    for cmd in ["merge", "status"] {
        fails(
            &["sweep", cmd, d],
            1,
            &["000001.json", "answers another run spec"],
        );
    }
    std::fs::write(result(1), &second).unwrap();
    // A stray `5.json` is not run 5.
    std::fs::write(dir.join("results").join("5.json"), &first).unwrap();
    let status = ok(&["sweep", "status", d]);
    assert!(status.contains("done: 2"), "{status}");
    ok(&["sweep", "merge", d]);

    // An edited input file: the plan no longer matches, merge and re-planning refuse.
    std::fs::write(&cdf, "1000 0.9\n2000 1\n").unwrap();
    fails(&["sweep", "merge", d], 1, &["an input file it reads"]);
    fails(&["sweep", "status", d], 1, &["an input file it reads"]);
    fails(
        &["sweep", "plan", s, "--out", d],
        2,
        &["holds a different sweep"],
    );

    // A directory locked by another writer.
    let lock = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(dir.join(".lock"))
        .unwrap();
    lock.lock().unwrap();
    fails(&["sweep", "run", d, "--all"], 2, &["in use by"]);
    drop(lock);
    std::fs::remove_dir_all(&tmp).unwrap();
}

#[test]
fn sweep_run_reruns_results_that_do_not_answer_their_spec_and_refuses_an_edited_spec() {
    let tmp = temp_dir("trusts");
    let scenario = tmp.join("s.toml");
    std::fs::write(&scenario, SCENARIO).unwrap();
    let dir = tmp.join("sweep");
    let d = dir.to_str().unwrap();
    ok(&["sweep", "plan", scenario.to_str().unwrap(), "--out", d]);
    ok(&["sweep", "run", d, "--all"]);
    let result = |i: u32| dir.join("results").join(format!("{i:06}.json"));
    let good: Vec<Vec<u8>> = (0..4).map(|i| std::fs::read(result(i)).unwrap()).collect();
    // An empty result and one copied from another run are run again, not counted done.
    std::fs::write(result(0), "{}").unwrap();
    std::fs::write(result(1), &good[2]).unwrap();
    let out = ok(&["sweep", "run", d, "--all"]);
    assert!(out.contains("2 ran, 0 already done, 0 failed"), "{out}");
    let out = ok(&["sweep", "run", d, "--index", "1"]);
    assert!(out.contains("0 ran, 1 already done"), "{out}");
    for i in 0..4 {
        let now = String::from_utf8(std::fs::read(result(i)).unwrap()).unwrap();
        let was = String::from_utf8(good[i as usize].clone()).unwrap();
        assert_eq!(without_perf(&now), without_perf(&was), "run {i}");
    }
    ok(&["sweep", "merge", d]);
    // An edited spec is refused, not simulated; status names it.
    let spec = dir.join("runs").join("000003.toml");
    let text = std::fs::read_to_string(&spec).unwrap();
    std::fs::write(&spec, text.replace("65536", "131072")).unwrap();
    std::fs::remove_file(result(3)).unwrap();
    fails(
        &["sweep", "run", d, "--index", "3"],
        1,
        &["000003.toml", "differs from the run spec planned"],
    );
    assert!(!result(3).exists());
    fails(&["sweep", "run", d, "--all"], 1, &["000003.toml"]);
    assert!(!result(3).exists());
    let status = ok(&["sweep", "status", d]);
    assert!(
        status.contains("failed: 1") && status.contains("000003: ") && status.contains("differs"),
        "{status}"
    );
    std::fs::remove_dir_all(&tmp).unwrap();
}

#[test]
fn sweep_status_and_merge_work_from_any_directory() {
    let tmp = temp_dir("anywhere");
    let (a, b) = (tmp.join("a"), tmp.join("b"));
    std::fs::create_dir_all(&a).unwrap();
    std::fs::create_dir_all(&b).unwrap();
    std::fs::write(a.join("r.cdf"), "1000 0.5\n2000 1\n").unwrap();
    std::fs::write(
        a.join("s.toml"),
        "[topology]\ntiers = 2\nk = 4\n[workload]\nkind = \"web\"\n[run]\nduration_us = 20\n",
    )
    .unwrap();
    // Planned in a/ with paths relative to it, run and merged from b/.
    let sweep = |dir: &Path, args: &[&str]| {
        let o = fabsim_cmd(&[&["sweep"], args].concat())
            .current_dir(dir)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert!(o.status.success(), "{args:?} in {}: {err}", dir.display());
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    sweep(
        &a,
        &[
            "plan",
            "s.toml",
            "--set",
            "workload.cdf=r.cdf",
            "--out",
            "../sw",
        ],
    );
    sweep(&b, &["run", "../sw", "--all"]);
    let status = sweep(&b, &["status", "../sw"]);
    assert!(status.contains("done: 1"), "{status}");
    sweep(&b, &["merge", "../sw"]);
    assert!(tmp.join("sw").join("merged.json").exists());
    std::fs::remove_dir_all(&tmp).unwrap();
}

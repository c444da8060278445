//! What the CLI writes and how much it accepts: a closed or full stdout ends without a panic,
//! output files are checked before simulating and never replace a symlink or a FIFO, sweep
//! manifests and thread/seed counts are bounded, a run says what it simulates (on stderr).

use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::{fabsim, fabsim_cmd, ok};

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A fresh directory for one test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fabsim-io-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn repo(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path)
        .display()
        .to_string()
}

const SMALL: &[&str] = &["run", "--set", "topology.k=4"];

/// Every subcommand that prints, each small.
fn printing_commands(dir: &Path) -> Vec<Vec<String>> {
    let sweep = dir.join("sweep");
    ok(&[
        "sweep",
        "plan",
        &repo("scenarios/bound-k4.toml"),
        "--out",
        sweep.to_str().unwrap(),
    ]);
    let sweep = sweep.to_str().unwrap().to_string();
    let tm = repo("scenarios/tm-16x4.csv");
    [
        &["reproduce", "--list"][..],
        SMALL,
        &["run", "--set", "topology.k=4", "--json", "-"],
        &["run", "--set", "topology.k=4", "--flows", "-"],
        &["bench", "--set", "topology.k=4", "--set", "switch.lb=ecmp"],
        &["portmap", &tm, "--asics", "4"],
        &["portmap", &tm, "--asics", "4", "--json", "-"],
        &["power"],
        &["keys"],
        &["hw", "orders"],
        &["hw", "memory"],
        &["sweep", "status", &sweep],
    ]
    .iter()
    .map(|a| a.iter().map(|s| s.to_string()).collect())
    .collect()
}

#[test]
fn closed_stdout_ends_quietly_and_a_full_one_is_an_error() {
    let dir = temp_dir("stdout");
    for args in printing_commands(&dir) {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        // A pipe whose reading end is closed before the first write: EPIPE.
        let mut child = fabsim_cmd(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let o = child.wait_with_output().unwrap();
        assert_eq!(
            o.status.code(),
            Some(0),
            "{args:?} | closed: {}",
            stderr(&o)
        );
        assert!(!stderr(&o).contains("panicked"), "{args:?}: {}", stderr(&o));
        // ENOSPC: one line, status 1.
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let o = fabsim_cmd(&args).stdout(full).output().unwrap();
        assert_eq!(
            o.status.code(),
            Some(1),
            "{args:?} > /dev/full: {}",
            stderr(&o)
        );
        let err = stderr(&o);
        assert!(
            err.contains("error: cannot write to stdout") && !err.contains("panicked"),
            "{args:?} > /dev/full: {err}"
        );
    }
}

#[test]
fn output_paths_are_checked_before_simulating() {
    let dir = temp_dir("check");
    let missing = dir.join("no-such-dir").join("x.json");
    let missing = missing.to_str().unwrap();
    let d = dir.to_str().unwrap();
    let tm = repo("scenarios/tm-16x4.csv");
    let slow = repo("scenarios/fastroute-default.toml");
    // A symlink into a directory that does not exist.
    let dangling = dir.parent().unwrap().join(format!(
        "{}-dangling.json",
        dir.file_name().unwrap().to_string_lossy()
    ));
    let _ = std::fs::remove_file(&dangling);
    std::os::unix::fs::symlink(dir.join("gone").join("x.json"), &dangling).unwrap();
    let dangling = dangling.to_str().unwrap().to_string();
    let cases: [(&[&str], &str); 7] = [
        (&["run", &slow, "--json", &dangling], "a symlink to"),
        // The paper's 2048 hosts: minutes of simulation if it started.
        (&["run", &slow, "--json", missing], "no directory"),
        (&["run", &slow, "--json", d], "is a directory"),
        (&["run", &slow, "--flows", missing], "no directory"),
        (&["run", &slow, "--flows", d], "is a directory"),
        (
            &["portmap", &tm, "--asics", "4", "--json", missing],
            "no directory",
        ),
        (
            &["portmap", &tm, "--asics", "4", "--json", d],
            "is a directory",
        ),
    ];
    for (args, why) in cases {
        let start = Instant::now();
        let o = fabsim(args);
        assert!(start.elapsed() < Duration::from_secs(10), "{args:?}");
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        let path = args.last().unwrap();
        assert!(
            stderr(&o).contains(&format!("{path}: cannot write output: {why}")),
            "{args:?}: {}",
            stderr(&o)
        );
    }
    // Nothing left beside the directory or in it.
    let parent: Vec<_> = std::fs::read_dir(dir.parent().unwrap())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(dir.file_name().unwrap().to_str().unwrap()) && n.ends_with("tmp"))
        .collect();
    assert!(parent.is_empty(), "{parent:?}");
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
    let _ = std::fs::remove_file(&dangling);
    // A partial output of a killed fabsim (a process that no longer exists) is removed.
    if let Ok(host) = std::fs::read_to_string("/proc/sys/kernel/hostname") {
        // As fabsim names the host in temporary files.
        let host = host.trim();
        let host =
            match !host.is_empty() && host.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
                true => host,
                false => "host",
            };
        let stale = dir.join(format!(".out.json.{host}.99999999.tmp"));
        std::fs::write(&stale, "partial").unwrap();
        let out = dir.join("out.json");
        let o = fabsim(&[
            "run",
            "--set",
            "topology.k=4",
            "--set",
            "switch.lb=ecmp",
            "--json",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(
            !stale.exists() && stderr(&o).contains("was killed"),
            "{}",
            stderr(&o)
        );
        std::fs::remove_file(&out).unwrap();
    }
    // A file that cannot be replaced names the directory a new file could not go to.
    let o = fabsim(&["run", "--json", "/proc/version"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("cannot create a file in /proc"),
        "{}",
        stderr(&o)
    );
    // A trace over the memory limit is refused before simulating.
    let o = fabsim(&[
        "run",
        "--set",
        "topology.k=16",
        "--set",
        "trace.interval_us=0.01",
        "--set",
        "run.max_memory_gib=1",
        "--set",
        "run.duration_us=100",
        "--trace",
        dir.join("t.csv").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("over run.max_memory_gib"),
        "{}",
        stderr(&o)
    );
    // Two outputs into one file.
    let same = dir.join("out.csv");
    let same = same.to_str().unwrap();
    let o = fabsim(&["run", &slow, "--json", same, "--flows", same]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("--json and --flows both write"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn outputs_replace_regular_files_and_write_through_links_and_fifos() {
    let dir = temp_dir("dest");
    let json = |path: &Path| {
        let mut args = SMALL.to_vec();
        args.extend(["--json", path.to_str().unwrap()]);
        ok(&args);
    };
    // A regular file is replaced, no temporary file is left.
    let file = dir.join("out.json");
    std::fs::write(&file, "old").unwrap();
    json(&file);
    assert!(std::fs::read_to_string(&file)
        .unwrap()
        .starts_with("{\n  \"runs\""));
    // A symlink stays a symlink; its target gets the JSON.
    let target = dir.join("target.json");
    std::fs::write(&target, "old").unwrap();
    let link = dir.join("link.json");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    json(&link);
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(std::fs::read_to_string(&target)
        .unwrap()
        .starts_with("{\n  \"runs\""));
    // A FIFO stays a FIFO; its reader gets the JSON.
    let fifo = dir.join("fifo");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    json(&fifo);
    assert!(reader.join().unwrap().starts_with("{\n  \"runs\""));
    assert!(std::fs::symlink_metadata(&fifo)
        .unwrap()
        .file_type()
        .is_fifo());
    // Devices are written in place, never replaced (as root a rename would replace them).
    json(Path::new("/dev/null"));
    assert!(std::fs::metadata("/dev/null")
        .unwrap()
        .file_type()
        .is_char_device());
    let mut args = SMALL.to_vec();
    args.extend(["--json", "/dev/full"]);
    let o = fabsim(&args);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("/dev/full: cannot write: No space left on device"),
        "{}",
        stderr(&o)
    );
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["fifo", "link.json", "out.json", "target.json"]);
}

#[test]
fn edited_sweep_manifests_are_refused_at_once() {
    let dir = temp_dir("manifest");
    let sweep = dir.join("sweep");
    let s = sweep.to_str().unwrap();
    ok(&[
        "sweep",
        "plan",
        &repo("scenarios/bound-k4.toml"),
        "--out",
        s,
    ]);
    let manifest = sweep.join("sweep.json");
    let text = std::fs::read_to_string(&manifest).unwrap();
    assert!(text.contains("\"runs\": 30,"));
    for (runs, why) in [
        ("1e15", "not a sweep manifest"),
        (
            "1000000000000000",
            "\"runs\": 1000000000000000: expected 1 to 1000000",
        ),
        ("0", "\"runs\": 0: expected 1 to 1000000"),
        ("5", "says 5 runs, but"),
        ("31", "says 31 runs, but"),
    ] {
        std::fs::write(&manifest, text.replace("30,", &format!("{runs},"))).unwrap();
        for cmd in [&["sweep", "status", s][..], &["sweep", "run", s, "--all"]] {
            let start = Instant::now();
            let o = fabsim(cmd);
            assert!(start.elapsed() < Duration::from_secs(10), "{cmd:?}");
            assert_eq!(o.status.code(), Some(2), "{runs}: {cmd:?}: {}", stderr(&o));
            assert!(stderr(&o).contains(why), "{runs}: {cmd:?}: {}", stderr(&o));
        }
    }
}

#[test]
fn thread_and_seed_counts_are_bounded() {
    let dir = temp_dir("bounds");
    let s = dir.to_str().unwrap();
    let cases: [(&[&str], &str); 5] = [
        (&["run", "--jobs", "100000"], "100000 is not in 1..=1024"),
        (&["run", "--jobs", "0"], "0 is not in 1..=1024"),
        (
            &["sweep", "run", s, "--all", "--jobs", "5000"],
            "5000 is not in 1..=1024",
        ),
        (
            &["reproduce", "ofan-bound", "--jobs", "2000"],
            "2000 is not in 1..=1024",
        ),
        (
            &["reproduce", "ofan-bound", "--quick", "--seeds", "100000000"],
            "100000000 is not in 1..=1000",
        ),
    ];
    for (args, why) in cases {
        let o = fabsim(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(why), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn a_run_says_what_it_simulates_on_stderr_only() {
    let o = fabsim(SMALL);
    assert!(o.status.success());
    let (out, err) = (String::from_utf8_lossy(&o.stdout), stderr(&o));
    assert!(out.trim_start().starts_with("lb ") && !out.contains("fabsim run"));
    assert!(
        err.starts_with(
            "fabsim run: 7 runs of 3-tier fat tree k=4 (16 hosts, 800 Gb/s); \
             workload permutation; lb ecmp, rsq, rr, jsq, ar, pofan, ofan; seed 1\n"
        ),
        "{err}"
    );
    assert!(
        err.ends_with(" s with the outputs written)\n") && err.contains("7 runs in "),
        "{err}"
    );
    // A run stopped before its flows finish counts runs, not flows.
    let o = fabsim(&["run", "--set", "topology.k=4", "--set", "run.duration_us=1"]);
    assert!(String::from_utf8_lossy(&o.stdout).contains("0/1 runs done"));
}

#[test]
fn readme_examples_use_shipped_files() {
    let dir = temp_dir("readme");
    let out = ok(&[
        "portmap",
        &repo("scenarios/tm-16x4.csv"),
        "--asics",
        "4",
        "--solver",
        "exact",
    ]);
    assert!(out.contains("inter-ASIC bytes"), "{out}");
    let sweep = dir.join("runs");
    let out = ok(&[
        "sweep",
        "plan",
        &repo("scenarios/bound-k4.toml"),
        "--out",
        sweep.to_str().unwrap(),
    ]);
    assert!(out.contains("planned 30 runs"), "{out}");
}

/// SIGTERM while a large output is being written leaves nothing partial, hidden or not: the
/// temporary file is removed (or was already renamed whole: a write to a file is not
/// interrupted, so the signal's handler often runs after the rename) and fabsim exits with
/// 130. The signal is sent once the temporary file has data (polled), so that it lands
/// mid-write. Without the handler the process dies between the write and the rename and
/// leaves the temporary file.
#[test]
fn a_signal_mid_write_leaves_no_partial_output() {
    let dir = temp_dir("sigterm");
    let trace = dir.join("t.csv");
    // A 65 MB trace (the write takes tens of milliseconds).
    let args = [
        "run",
        "--set",
        "switch.lb=ofan",
        "--set",
        "trace.interval_us=0.02",
        "--trace",
        trace.to_str().unwrap(),
    ];
    let listing = || -> Vec<String> {
        std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect()
    };
    // The whole output, for comparison.
    ok(&args);
    let whole = std::fs::read(&trace).unwrap();
    std::fs::remove_file(&trace).unwrap();
    const ATTEMPTS: u32 = 20;
    for _attempt in 0..ATTEMPTS {
        let mut child = fabsim_cmd(&args)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // A shell ready to signal it on a line of input: no process to start once the write
        // is seen (on a loaded machine that took longer than the write).
        let mut killer = std::process::Command::new("sh")
            .args(["-c", &format!("read _; kill -TERM {}", child.id())])
            .stdin(Stdio::piped())
            .spawn()
            .unwrap();
        // (Before simulating, fabsim creates and removes an empty one to check the directory.)
        let writing = || {
            std::fs::read_dir(&dir).unwrap().flatten().any(|e| {
                e.file_name().to_string_lossy().ends_with(".tmp")
                    && e.metadata().is_ok_and(|m| m.len() > 0)
            })
        };
        let caught = loop {
            if writing() {
                break true;
            }
            if child.try_wait().unwrap().is_some() {
                break false;
            }
            std::thread::sleep(Duration::from_micros(200));
        };
        if !caught {
            // The write finished between two polls: try again.
            drop(killer.stdin.take());
            let _ = killer.wait();
            std::fs::remove_file(&trace).unwrap();
            continue;
        }
        {
            use std::io::Write as _;
            let mut stdin = killer.stdin.take().unwrap();
            stdin.write_all(b"\n").unwrap();
        }
        assert!(killer.wait().unwrap().success());
        let o = child.wait_with_output().unwrap();
        assert!(
            !listing().iter().any(|n| n.ends_with(".tmp")),
            "left behind: {:?}",
            listing()
        );
        // (0: the run ended between the poll and the signal.)
        assert!(
            matches!(o.status.code(), Some(130 | 0)),
            "{:?}: {}",
            o.status,
            stderr(&o)
        );
        if trace.exists() {
            assert!(std::fs::read(&trace).unwrap() == whole, "a partial output");
        }
        let _ = std::fs::remove_dir_all(&dir);
        return;
    }
    panic!("in {ATTEMPTS} attempts, never caught the write in progress");
}

/// Runs `fabsim args` and asserts it exits with status 2 saying `needle` on stderr.
fn refused(args: &[&str], needle: &str) -> Output {
    let o = fabsim(args);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
    assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
    o
}

#[test]
fn an_output_that_is_an_input_is_refused() {
    let dir = temp_dir("input-output");
    let at = |f: &str| dir.join(f).to_str().unwrap().to_string();
    let scenario = at("s.toml");
    let text = "[topology]\nk = 4\n[switch]\nlb = \"ecmp\"\n";
    std::fs::write(&scenario, text).unwrap();
    let cm = at("x.cm");
    std::fs::copy(repo("scenarios/htsim-ring.tm"), &cm).unwrap();
    let cdf = at("w.cdf");
    std::fs::write(&cdf, "1000 0.5\n2000 1\n").unwrap();
    let tm = at("tm.csv");
    std::fs::copy(repo("scenarios/tm-16x4.csv"), &tm).unwrap();
    let flow = at("flow.txt");
    std::fs::copy(repo("scenarios/hpcc-flow.txt"), &flow).unwrap();
    // The same file by another name: a symlink to the matrix.
    let link = at("link.csv");
    std::os::unix::fs::symlink(&tm, &link).unwrap();
    let before: Vec<Vec<u8>> = [&scenario, &cm, &cdf, &tm, &flow]
        .iter()
        .map(|p| std::fs::read(p).unwrap())
        .collect();
    let htsim = ["workload.kind=htsim", &format!("workload.file={cm}")];
    let web = [
        "topology.tiers=2",
        "workload.kind=web",
        &format!("workload.cdf={cdf}"),
        "run.duration_us=20",
    ];
    let sets = |kv: &[&str]| -> Vec<String> {
        ["run", "--set", "topology.k=4"]
            .iter()
            .map(|s| s.to_string())
            .chain(kv.iter().flat_map(|s| ["--set".to_string(), s.to_string()]))
            .collect()
    };
    let mut flows_over_cm = sets(&htsim);
    flows_over_cm.extend(["--flows".into(), cm.clone()]);
    let mut json_over_cdf = sets(&web);
    json_over_cdf.extend(["--json".into(), cdf.clone()]);
    let mut fct_over_flows = sets(&["workload.kind=hpcc", &format!("workload.file={flow}")]);
    fct_over_flows.extend(["--fct".into(), flow.clone()]);
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec![
                "run".into(),
                scenario.clone(),
                "--json".into(),
                scenario.clone(),
            ],
            "is the scenario file",
        ),
        (flows_over_cm, "is the workload.file of the scenario"),
        (json_over_cdf, "is the workload.cdf of the scenario"),
        (fct_over_flows, "is the workload.file of the scenario"),
        (
            ["portmap", &tm, "--asics", "4", "--json", &link]
                .map(String::from)
                .to_vec(),
            "is the traffic matrix",
        ),
    ];
    for (args, why) in &cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        refused(&args, why);
    }
    let after: Vec<Vec<u8>> = [&scenario, &cm, &cdf, &tm, &flow]
        .iter()
        .map(|p| std::fs::read(p).unwrap())
        .collect();
    assert_eq!(before, after, "an input was overwritten");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_output_path_ending_in_a_slash_is_refused_before_simulating() {
    let dir = temp_dir("slash");
    let out = format!("{}/out.json/", dir.display());
    let slow = repo("scenarios/fastroute-default.toml");
    let start = Instant::now();
    for flag in ["--json", "--flows", "--trace", "--fct"] {
        refused(
            &["run", &slow, flag, &out],
            "cannot write output: ends in `/`",
        );
    }
    refused(
        &[
            "portmap",
            &repo("scenarios/tm-16x4.csv"),
            "--asics",
            "4",
            "--json",
            &out,
        ],
        "ends in `/`",
    );
    // Refused before the paper's 2048 hosts were simulated (minutes).
    assert!(start.elapsed() < Duration::from_secs(20));
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn endless_or_special_input_files_are_refused_at_once() {
    let dir = temp_dir("endless");
    let start = Instant::now();
    let zero = "/dev/zero";
    refused(&["run", zero], "/dev/zero: cannot read: not a regular file");
    refused(&["run", dir.to_str().unwrap()], "is a directory");
    refused(&["portmap", zero, "--asics", "4"], "not a regular file");
    refused(
        &["plot", zero, "--out", dir.to_str().unwrap()],
        "not a regular file",
    );
    refused(
        &[
            "run",
            "--set",
            "workload.kind=htsim",
            "--set",
            "workload.file=/dev/zero",
        ],
        "not a regular file",
    );
    refused(
        &[
            "run",
            "--set",
            "topology.tiers=2",
            "--set",
            "workload.kind=web",
            "--set",
            "workload.cdf=/dev/zero",
        ],
        "not a regular file",
    );
    // A sparse file over the limit: refused by its size, not read.
    let big = dir.join("big.toml");
    let f = std::fs::File::create(&big).unwrap();
    f.set_len((1 << 30) + 1).unwrap();
    refused(
        &["run", big.to_str().unwrap()],
        "over the 1 GiB limit of an input file",
    );
    assert!(start.elapsed() < Duration::from_secs(10));
    // A pipe ends: it is read (`fabsim run <(...)`).
    let mut child = fabsim_cmd(&["run", "/dev/stdin"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let scenario = b"[topology]\nk = 4\n[switch]\nlb = \"ecmp\"\n";
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), scenario).unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("k=4 (16 hosts"), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `fabsim args` under an address-space limit of `kib` KiB (`ulimit -v`).
fn under_ulimit(kib: u64, args: &[&str]) -> Output {
    let mut sh = std::process::Command::new("sh");
    sh.arg("-c")
        .arg(format!("ulimit -v {kib} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_fabsim"))
        .args(args);
    sh.output().unwrap()
}

#[test]
fn a_run_over_the_memory_it_may_allocate_is_refused() {
    // A k = 16 all-to-all: about 1.5 GiB, under a 300 MB address-space limit.
    let args = [
        "run",
        "--set",
        "topology.k=16",
        "--set",
        "workload.kind=all-to-all",
        "--set",
        "switch.lb=ecmp",
    ];
    let o = under_ulimit(300_000, &args);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("the run is estimated at 1.5")
            && err.contains("address-space limit (ulimit -v) of 0.29 GiB")
            && err.contains("run.max_memory_gib"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn a_trace_over_the_memory_limit_is_refused() {
    let dir = temp_dir("trace-memory");
    let trace = dir.join("t.csv");
    let trace = trace.to_str().unwrap();
    let k8 = [
        "run",
        "--set",
        "topology.k=8",
        "--set",
        "switch.lb=ecmp",
        "--set",
        "trace.interval_us=0.01",
        "--set",
        "run.max_memory_gib=0.05",
        "--trace",
        trace,
    ];
    // Without run.duration_us: the run stops once its trace outgrows the limit, and
    // nothing is written.
    let o = refused(&k8, "the trace outgrew run.max_memory_gib");
    assert!(stderr(&o).contains("set run.duration_us"), "{}", stderr(&o));
    assert!(!Path::new(trace).exists());
    // With it: the trace beside the run's own estimate, refused before simulating.
    let mut timed = k8.to_vec();
    timed.extend(["--set", "run.duration_us=30"]);
    let o = refused(&timed, "beside the run's");
    assert!(!stderr(&o).contains("fabsim run:"), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).unwrap();
}

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

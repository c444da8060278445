//! Golden outputs: the run JSON (without the wall-clock `perf`) of the default scenario, of
//! every file in `scenarios/` that runs in seconds, of two reference stacks and of multi-ASIC
//! switches, held byte for byte against `tests/golden/NAME.json`. A refactor keeps them; a
//! change meant to move a model regenerates them, and its commit says which moved and why:
//!
//! ```sh
//! FABSIM_BLESS=1 cargo test -p fabsim-cli --test golden
//! ```

use std::path::{Path, PathBuf};

mod common;
use common::ok;

/// (name, arguments after `fabsim run`).
const CASES: &[(&str, &[&str])] = &[
    ("default", &[]),
    ("all-to-all", &["scenarios/all-to-all.toml"]),
    ("bound-k4", &["scenarios/bound-k4.toml"]),
    ("cc-incast", &["scenarios/cc-incast.toml"]),
    ("collectives", &["scenarios/collectives.toml"]),
    ("dctcp-fig1", &["scenarios/dctcp-fig1.toml"]),
    ("failures", &["scenarios/failures.toml"]),
    ("fastroute-ofan", &["scenarios/fastroute-ofan.toml"]),
    ("fastroute-small", &["scenarios/fastroute-small.toml"]),
    ("htsim-file", &["scenarios/htsim.toml"]),
    ("hpcc-file", &["scenarios/hpcc.toml"]),
    ("incremental", &["scenarios/incremental.toml"]),
    ("moe", &["scenarios/moe.toml"]),
    ("packet-size", &["scenarios/packet-size.toml"]),
    ("torus", &["scenarios/torus.toml"]),
    (
        "profile-htsim",
        &[
            "--set",
            "topology.k=4",
            "--set",
            "host.profile=htsim",
            "--set",
            "switch.lb=ofan,ecmp",
            "--set",
            "host.cc=nscc",
        ],
    ),
    (
        "profile-netbench-multi-asic",
        &[
            "scenarios/fastroute-small.toml",
            "--set",
            "host.profile=netbench",
            "--set",
            "switch.arch=oversubscribed,fastroute",
        ],
    ),
];

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The run JSON of `args` with each run's `perf` removed, pretty-printed (keys sorted).
fn output(args: &[&str]) -> String {
    let json = std::env::temp_dir().join(format!(
        "fabsim-golden-{}-{}.json",
        std::process::id(),
        args.join("_").replace(['/', '=', ','], "-")
    ));
    let mut full: Vec<String> = vec!["run".into()];
    for a in args {
        // Scenario paths are relative to the repository.
        full.push(match a.starts_with("scenarios/") {
            true => repo().join(a).display().to_string(),
            false => a.to_string(),
        });
    }
    full.extend(["--json".into(), json.display().to_string()]);
    ok(&full.iter().map(String::as_str).collect::<Vec<_>>());
    let text = std::fs::read_to_string(&json).unwrap();
    let _ = std::fs::remove_file(&json);
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    for run in v["runs"].as_array_mut().unwrap() {
        run.as_object_mut().unwrap().remove("perf");
    }
    serde_json::to_string_pretty(&v).unwrap() + "\n"
}

#[test]
fn outputs_match_the_golden_files() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let bless = std::env::var_os("FABSIM_BLESS").is_some();
    let mut moved = vec![];
    for (name, args) in CASES {
        let path = dir.join(format!("{name}.json"));
        let got = output(args);
        if bless {
            std::fs::write(&path, &got).unwrap();
            continue;
        }
        let want = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e} (FABSIM_BLESS=1 writes it)", path.display()));
        if got != want {
            moved.push(name.to_string());
        }
    }
    assert!(
        moved.is_empty(),
        "outputs moved: {moved:?}. If the change is meant to move them: \
         FABSIM_BLESS=1 cargo test -p fabsim-cli --test golden, review the diff and say so in \
         the commit"
    );
}

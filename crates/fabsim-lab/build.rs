//! Captures which code this binary was built from, for `fabsim reproduce`'s cache keys: the
//! git commit, plus a hash of uncommitted changes to the code (tracked diffs and untracked
//! files under `crates/` and `data/`). Without git (a source tarball) it records nothing and
//! the binary fingerprints itself at run time (see `reproduce::code_id`).
//!
//! It also hashes the content of the sources a simulation run's result depends on (the
//! simulator library, its data, the locked dependencies, and the CLI's scenario loading and
//! run execution), so a finished run is reused by any build whose simulator is the same,
//! whatever else changed (see `reproduce::sim_id`). This needs no git.

use std::io::Write as _;
use std::process::{Command, Stdio};

fn git(args: &[&str]) -> Option<Vec<u8>> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status.success().then_some(out.stdout)
}

fn text(bytes: Vec<u8>) -> String {
    String::from_utf8_lossy(&bytes).trim().to_string()
}

/// Git's object hash of `bytes` (`git hash-object --stdin`).
fn hash_object(bytes: &[u8]) -> Option<String> {
    let mut child = Command::new("git")
        .args(["hash-object", "--stdin"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .ok()?;
    child.stdin.take()?.write_all(bytes).ok()?;
    let out = child.wait_with_output().ok()?;
    out.status.success().then(|| text(out.stdout))
}

/// What a simulation run's result depends on: the simulator library, its data, the locked
/// dependencies, and the CLI's scenario loading and run execution.
const SIM_SOURCES: &[&str] = &[
    "../fabsim/src",
    "../fabsim/Cargo.toml",
    "../../data",
    "../../Cargo.lock",
    "src/runs.rs",
    "src/sweep",
];

/// The files under `path` (or `path` itself), sorted.
fn files(path: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    match std::fs::read_dir(path) {
        Ok(dir) => {
            let mut entries: Vec<_> = dir.filter_map(|e| e.ok()).map(|e| e.path()).collect();
            entries.sort();
            for e in entries {
                files(&e, out);
            }
        }
        Err(_) if path.is_file() => out.push(path.to_path_buf()),
        Err(_) => {}
    }
}

/// FNV-1a (64-bit) over each file's path (relative to this crate) and content.
fn content_hash(paths: &[&str]) -> String {
    let mut all = vec![];
    for p in paths {
        // A moved or renamed source must be named here again, not silently left out.
        assert!(
            std::path::Path::new(p).exists(),
            "build.rs: {p} does not exist (a listed source moved?)"
        );
        files(std::path::Path::new(p), &mut all);
    }
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for f in &all {
        let bytes = std::fs::read(f).unwrap_or_default();
        let name = f.to_string_lossy();
        for b in name.as_bytes().iter().chain([0u8].iter()).chain(&bytes) {
            h = (h ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}

// Cargo reads its directives from this script's stdout (clippy.toml forbids println!
// in the binary, not here).
#[allow(clippy::disallowed_macros)]
fn main() {
    // The code: every crate's sources, the data compiled in, the locked dependencies.
    for p in ["build.rs", "src", "../portmap/src"]
        .iter()
        .chain(SIM_SOURCES)
    {
        println!("cargo:rerun-if-changed={p}");
    }
    let code = ["../../crates", "../../data", "../../Cargo.lock"];
    let id = match git(&["rev-parse", "--short=12", "HEAD"]).map(text) {
        Some(commit) if !commit.is_empty() => {
            // A commit or a checkout changes these.
            for p in ["HEAD", "index", "logs/HEAD"] {
                if let Some(path) = git(&["rev-parse", "--git-path", p]).map(text) {
                    println!("cargo:rerun-if-changed={path}");
                }
            }
            // Uncommitted changes: the diff against HEAD, then each untracked file's name
            // and content hash.
            let mut args = vec!["diff", "HEAD", "--"];
            args.extend(code);
            let mut changes = git(&args).unwrap_or_default();
            let mut args = vec!["ls-files", "--others", "--exclude-standard", "--"];
            args.extend(code);
            for file in git(&args).map(text).unwrap_or_default().lines() {
                let blob = git(&["hash-object", file]).unwrap_or_default();
                changes.extend(file.as_bytes().iter().chain(&blob));
            }
            match changes.is_empty() {
                true => commit,
                false => match hash_object(&changes) {
                    Some(h) => format!("{commit}-dirty-{}", &h[..12.min(h.len())]),
                    None => String::new(),
                },
            }
        }
        _ => String::new(),
    };
    println!("cargo:rustc-env=FABSIM_GIT_ID={id}");
    let sim = content_hash(SIM_SOURCES);
    println!("cargo:rustc-env=FABSIM_SIM_ID={sim}");
}

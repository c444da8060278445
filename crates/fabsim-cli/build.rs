//! Captures which code this binary was built from, for `fabsim reproduce`'s cache keys: the
//! git commit, plus a hash of uncommitted changes to the code (tracked diffs and untracked
//! files under `crates/` and `data/`). Without git (a source tarball) it records nothing and
//! the binary fingerprints itself at run time (see `reproduce::code_id`).

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

// Cargo reads its directives from this script's stdout (clippy.toml forbids println!
// in the binary, not here).
#[allow(clippy::disallowed_macros)]
fn main() {
    // The code: every crate's sources, the data compiled in, the locked dependencies.
    for p in [
        "build.rs",
        "src",
        "../fabsim/src",
        "../portmap/src",
        "../../data",
        "../../Cargo.lock",
    ] {
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
}

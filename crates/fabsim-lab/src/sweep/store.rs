//! A sweep directory on disk: the paths of its specs, results and errors, the manifest, the
//! identities that tie a result to its spec (and its input files), atomic result writes and
//! the directory lock.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::output::{temp_name, write_atomic};
use crate::Error;

/// The swept keys of one run and their values.
pub type Labels = Vec<(String, String)>;

/// DIR/sweep.json.
#[derive(Serialize, Deserialize)]
pub struct Manifest {
    pub(super) fabsim_version: String,
    /// The scenario file as given to `plan` (names it in errors).
    pub scenario_path: String,
    pub scenario_text: String,
    pub set: Vec<String>,
    pub(super) runs: u64,
    /// [`fnv1a64`] of the run specs' [`identities`]: two plans are the same sweep iff equal.
    pub(super) hash: String,
}

pub(super) fn spec_path(dir: &Path, i: u64) -> PathBuf {
    dir.join("runs").join(format!("{i:06}.toml"))
}

pub(super) fn result_path(dir: &Path, i: u64) -> PathBuf {
    dir.join("results").join(format!("{i:06}.json"))
}

pub(super) fn err_path(dir: &Path, i: u64) -> PathBuf {
    dir.join("results").join(format!("{i:06}.err"))
}

/// Results (and `.err` files) are written via `DIR/results/.tmp/NAME.HOST.PID`: that
/// directory holds only writes in flight or interrupted, so cleaning up after a killed task
/// does not scan all results.
pub(super) fn temp_for_result(path: &Path) -> PathBuf {
    let dir = path.parent().unwrap_or(Path::new(".")).join(".tmp");
    dir.join(temp_name(path))
}

/// Writes a result or `.err` file, durably.
pub(super) fn write_result(path: &Path, contents: &str) -> Result<(), Error> {
    write_atomic(path, &temp_for_result(path), contents, true)
}

/// Removes leftover temporary files of run `i` (from killed tasks).
pub(super) fn remove_stale_temps(dir: &Path, i: u64) {
    let Ok(entries) = std::fs::read_dir(dir.join("results").join(".tmp")) else {
        return;
    };
    let prefix = format!("{i:06}.json.");
    for e in entries.flatten() {
        if e.file_name().to_string_lossy().starts_with(&prefix) {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

pub fn fnv1a64(parts: &[String]) -> String {
    let bytes: Vec<u8> = parts
        .iter()
        .flat_map(|p| p.as_bytes().iter().copied().chain([0u8]))
        .collect();
    fnv1a64_bytes(&bytes)
}

/// FNV-1a (64-bit) of `bytes`, as 16 hex digits.
pub fn fnv1a64_bytes(bytes: &[u8]) -> String {
    format!("{:016x}", fabsim::engine::rng::fnv1a64(bytes))
}

/// The keys whose value names a file a run reads (a run spec holds its absolute path).
pub(super) const INPUT_FILE_KEYS: [(&str, &str); 2] = [("workload", "cdf"), ("workload", "file")];

/// Content hashes of input files by path (`None`: not a readable file), each file read once
/// however many run specs name it.
pub(super) type FileHashes = BTreeMap<String, Option<String>>;

/// The identity of a run spec: a hash of its text and of the contents of every input file it
/// names (a flow-size CDF, an htsim traffic file), so an edited input makes another run.
pub(super) fn identity(spec_text: &str, files: &mut FileHashes) -> String {
    let mut parts = vec![spec_text.to_string()];
    if let Ok(doc) = spec_text.parse::<toml::Table>() {
        for (section, key) in INPUT_FILE_KEYS {
            let Some(path) = doc
                .get(section)
                .and_then(|t| t.get(key))
                .and_then(|v| v.as_str())
            else {
                continue;
            };
            // A shipped CDF is named, not a file: the binary's sources cover it.
            let hash = files
                .entry(path.to_string())
                .or_insert_with(|| std::fs::read(path).ok().map(|b| fnv1a64_bytes(&b)));
            if let Some(h) = hash {
                parts.push(path.to_string());
                parts.push(h.clone());
            }
        }
    }
    fnv1a64(&parts)
}

/// [`identity`] of each run spec, in order; a plan's hash is [`fnv1a64`] of them, so two plans
/// are the same sweep iff equal.
pub(super) fn identities(tomls: &[String]) -> Vec<String> {
    let mut files = FileHashes::new();
    tomls.iter().map(|t| identity(t, &mut files)).collect()
}

/// [`identity`] of run spec `i` as it is now on disk.
pub(super) fn spec_identity(dir: &Path, i: u64) -> Result<String, String> {
    let path = spec_path(dir, i);
    std::fs::read_to_string(&path)
        .map(|t| identity(&t, &mut FileHashes::new()))
        .map_err(|e| format!("{}: cannot read: {e}", path.display()))
}

/// The field of a result file naming the run spec it was made from ([`identity`]).
pub(super) const SPEC_FIELD: &str = "spec";

/// A result file's text: `report` with the identity of the spec it answers.
pub(super) fn result_json(report: serde_json::Value, spec: String) -> Result<String, String> {
    let mut v = report;
    let obj = v.as_object_mut().ok_or("a run report is a JSON object")?;
    obj.insert(SPEC_FIELD.into(), serde_json::Value::String(spec));
    serde_json::to_string_pretty(&v).map_err(|e| e.to_string())
}

/// A lock on a sweep directory (`DIR/.lock`): planning and `run --all` hold it alone, single
/// runs (Slurm array tasks) share it; released when dropped.
pub struct DirLock {
    pub(super) _file: std::fs::File,
}

impl DirLock {
    /// Takes the lock, or names who holds it.
    pub fn take(dir: &Path, exclusive: bool) -> Result<DirLock, Error> {
        if dir.exists() && !dir.is_dir() {
            return Err(Error::Usage(format!(
                "{}: not a directory; give --out a directory (new or a sweep's)",
                dir.display()
            )));
        }
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, "create directory", e))?;
        let path = dir.join(".lock");
        let f = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|e| Error::io(&path, "open", e))?;
        let got = if exclusive {
            f.try_lock()
        } else {
            f.try_lock_shared()
        };
        match got {
            Ok(()) => {
                if exclusive {
                    // Who holds it, for the next one refused.
                    let _ = f.set_len(0);
                    let _ = std::io::Write::write_all(
                        &mut &f,
                        format!("{}\n", std::process::id()).as_bytes(),
                    );
                }
                Ok(DirLock { _file: f })
            }
            Err(std::fs::TryLockError::WouldBlock) => {
                let holder = std::fs::read_to_string(&path).unwrap_or_default();
                let holder = match holder.trim() {
                    "" => "another fabsim process".to_string(),
                    pid => format!("fabsim process {pid} (or its array tasks)"),
                };
                Err(Error::Usage(format!(
                    "{}: in use by {holder}, which plans or runs this sweep; wait for it to \
                     finish (single runs, as Slurm array tasks, may share a directory; \
                     planning and `run --all` may not)",
                    dir.display()
                )))
            }
            Err(std::fs::TryLockError::Error(e)) => Err(Error::io(&path, "lock", e)),
        }
    }
}

pub(super) fn read_manifest(dir: &Path) -> Result<Manifest, Error> {
    let path = dir.join("sweep.json");
    let text = std::fs::read_to_string(&path).map_err(|e| {
        Error::Usage(format!(
            "{}: cannot read: {e} (is {} a sweep directory made by `fabsim sweep plan`?)",
            path.display(),
            dir.display()
        ))
    })?;
    let m = parse_manifest(&text, &path)?;
    // The run specs match the count (the last one exists, the next does not): catches an
    // edited count before `status` or `run --all` walks it.
    let (last, next) = (spec_path(dir, m.runs - 1), spec_path(dir, m.runs));
    let wrong = if next.exists() {
        Some((next, "exists"))
    } else if !last.exists() {
        Some((last, "is missing"))
    } else {
        None
    };
    if let Some((spec, what)) = wrong {
        return Err(Error::Usage(format!(
            "{}: says {} runs, but {} {what}; plan the sweep again into a new directory",
            path.display(),
            m.runs,
            spec.display()
        )));
    }
    Ok(m)
}

/// The most runs one sweep may have: as many as a scenario may expand to (every command
/// walks all indices).
pub(super) const MAX_RUNS: u64 = fabsim::scenario::MAX_RUNS as u64;

/// Parses the text of a `sweep.json` (named `path` in errors) and checks its run count.
pub fn parse_manifest(text: &str, path: &Path) -> Result<Manifest, Error> {
    let m: Manifest = serde_json::from_str(text)
        .map_err(|e| Error::Usage(format!("{}: not a sweep manifest: {e}", path.display())))?;
    if !(1..=MAX_RUNS).contains(&m.runs) {
        return Err(Error::Usage(format!(
            "{}: \"runs\": {}: expected 1 to {MAX_RUNS}",
            path.display(),
            m.runs
        )));
    }
    Ok(m)
}

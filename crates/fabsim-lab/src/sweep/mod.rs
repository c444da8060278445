//! `fabsim sweep`: a sweep as a directory of numbered run specs and results, run by index
//! (one by one, locally on all cores, or as a Slurm job array), resumable, and merged into the
//! same JSON `fabsim run --json` writes.
//!
//! Layout of a sweep directory:
//!
//! ```text
//! DIR/sweep.json          the scenario text, its --set overrides, the run count, a hash
//! DIR/runs/000123.toml    run 123 as a single-point scenario (parsed like `fabsim run`)
//! DIR/results/000123.json run 123's report (written atomically: temp file, then rename)
//! DIR/results/000123.err  why run 123 failed (removed when it later succeeds)
//! DIR/sweep.sbatch        the Slurm job array script (`fabsim sweep slurm`)
//! DIR/merged.json, .csv   all results in index order (`fabsim sweep merge`)
//! ```
//!
//! A result file exists only complete (written to `DIR/results/.tmp/`, then renamed), so
//! "done" is "the file exists"; re-running an index that is done does nothing, and a killed
//! task leaves at most a temporary file in `results/.tmp/`, which the next successful run of
//! that index removes.
//!
//! Architecture Invariant: `run`, `status`, `merge` and `reproduce` accept a result as a
//! run's answer only through one check (`answer`): a result that answers another spec than
//! the planned one, as it is on disk, is refused with its file named.
//!
//! Architecture Invariant: every result and `.err` file is written through
//! `store::write_result` (a temporary file in `results/.tmp/`, fsynced, then renamed).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

use fabsim::metrics::{self, RunReport};
use rayon::prelude::*;

use crate::output::write_output;
use crate::report_csv;
use crate::runs::{self as runcmd, progress_bar, runs_json};
use crate::Error;

mod store;
pub use store::*;

/// Whether [`plan_dir`] wrote a new plan or found the same one.
pub enum Planned {
    New,
    Unchanged,
}

/// Plans the sweep of scenario `text` (named `source` in errors) with overrides `set` into
/// `dir`: numbered run specs, then `sweep.json`. A directory already holding the same sweep is
/// left alone (so finished results are kept); one holding another sweep is an error.
pub fn plan_dir(
    dir: &Path,
    text: &str,
    source: &str,
    set: &[String],
) -> Result<(Planned, u64, String), Error> {
    let runs = expand(text, source, set)?;
    let manifest = Manifest {
        fabsim_version: env!("CARGO_PKG_VERSION").into(),
        scenario_path: source.to_string(),
        scenario_text: text.to_string(),
        set: set.to_vec(),
        runs: runs.tomls.len() as u64,
        hash: fnv1a64(&runs.ids),
    };
    let _lock = DirLock::take(dir, true)?;
    if dir.join("sweep.json").exists() {
        let old = read_manifest(dir)?;
        if old.hash == manifest.hash && old.runs == manifest.runs {
            return Ok((Planned::Unchanged, old.runs, old.hash));
        }
        return Err(Error::Usage(format!(
            "{}: holds a different sweep ({} runs, hash {}; this plan: {} runs, hash {}); \
             use a new --out directory",
            dir.display(),
            old.runs,
            old.hash,
            manifest.runs,
            manifest.hash
        )));
    }
    let results = dir.join("results");
    if std::fs::read_dir(&results).is_ok_and(|mut d| d.next().is_some()) {
        return Err(Error::Usage(format!(
            "{}: has results but no sweep.json; use a new --out directory",
            dir.display()
        )));
    }
    for sub in ["runs", "results"] {
        let p = dir.join(sub);
        std::fs::create_dir_all(&p).map_err(|e| Error::io(&p, "create directory", e))?;
    }
    for (i, t) in runs.tomls.iter().enumerate() {
        write_output(&spec_path(dir, i as u64), t)?;
    }
    // The manifest last: a directory with sweep.json is completely planned.
    let json =
        serde_json::to_string_pretty(&manifest).map_err(|e| Error::Runtime(e.to_string()))?;
    write_output(&dir.join("sweep.json"), &json)?;
    Ok((Planned::New, manifest.runs, manifest.hash))
}

/// `fabsim sweep plan`: expands the scenario file `scenario` with `--set` overrides `set`
/// into the sweep directory `dir` (kept as it is when the same plan is there).
pub fn plan(scenario: &Path, set: &[String], dir: &Path) -> Result<(), Error> {
    let start = std::time::Instant::now();
    let text = runcmd::read_file(scenario)?;
    // Relative paths (the scenario's, the files `--set` names) as found from here: `status`,
    // `merge` and `run` expand the plan again, from any directory.
    let source = std::path::absolute(scenario)
        .unwrap_or_else(|_| scenario.to_path_buf())
        .display()
        .to_string();
    let set: Vec<String> = set
        .iter()
        .map(|a| fabsim::scenario::absolute_set(a))
        .collect();
    let (planned, runs, hash) = plan_dir(dir, &text, &source, &set)?;
    match planned {
        Planned::Unchanged => outln!(
            "{}: already planned ({runs} runs, hash {hash}); nothing changed",
            dir.display()
        ),
        Planned::New => outln!(
            "planned {runs} runs in {} (hash {hash}) in {:.3} s",
            dir.display(),
            start.elapsed().as_secs_f64()
        ),
    }
    Ok(())
}

/// What became of one run.
pub enum Outcome {
    Ran,
    AlreadyDone,
    Failed(String),
}

fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into())
}

/// The parameters of run spec `i`, or why not.
pub fn spec_params(dir: &Path, i: u64) -> Result<fabsim::params::SimParams, String> {
    let path = spec_path(dir, i);
    let specs = runcmd::load(Some(&path), &[]).map_err(|e| e.to_string())?;
    let [spec] = specs.as_slice() else {
        return Err(format!(
            "{}: expands to {} runs, expected exactly 1",
            path.display(),
            specs.len()
        ));
    };
    Ok(spec.params.clone())
}

/// Loads run spec `i` and simulates it: its report as JSON with the identity of the spec
/// (and input files) it ran, or why not.
fn execute(dir: &Path, i: u64) -> Result<String, String> {
    let spec = spec_identity(dir, i)?;
    let params = spec_params(dir, i)?;
    runcmd::check_memory(params.estimate().memory_bytes, &format!("run {i:06} is"))
        .map_err(|e| e.to_string())?;
    let report = std::panic::catch_unwind(|| metrics::run(&params))
        .map_err(|p| format!("run {i:06} panicked: {}", panic_message(p.as_ref())))?;
    result_json(
        serde_json::to_value(&report).map_err(|e| e.to_string())?,
        spec,
    )
}

/// Gives run `i` of `dir` the result of run `from_i` of `from_dir`, which simulated the same
/// parameters (their reports are the same bytes: runs are deterministic), marked as the
/// answer to run `i`'s spec.
pub fn copy_result(from_dir: &Path, from_i: u64, dir: &Path, i: u64) -> Result<(), Error> {
    let path = result_path(from_dir, from_i);
    let text = runcmd::read_file(&path)?;
    let report: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| Error::Runtime(format!("{}: {e}", path.display())))?;
    let json = spec_identity(dir, i)
        .and_then(|spec| result_json(report, spec))
        .map_err(Error::Runtime)?;
    write_result(&result_path(dir, i), &json)
}

/// A sweep's planned runs, as its manifest and input files give them now (`planned`):
/// what every result is held to, by `status`, `merge`, `run` and `reproduce` alike.
pub struct Plan {
    runs: PlannedRuns,
}

impl Plan {
    /// The plan of sweep `dir`; an error if the scenario, an input file or fabsim changed.
    pub fn of(dir: &Path) -> Result<Plan, Error> {
        let m = read_manifest(dir)?;
        Ok(Plan {
            runs: planned(dir, &m)?,
        })
    }

    /// The runs without a result that answers their spec: missing, or a result that does
    /// not answer (made by hand, copied from another run, or its spec edited since).
    pub fn todo(&self, dir: &Path) -> Vec<u64> {
        (0..self.runs.tomls.len() as u64)
            .filter(|&i| self.answer(dir, i).is_err())
            .collect()
    }

    fn answer(&self, dir: &Path, i: u64) -> Result<RunReport, Error> {
        let i_ = i as usize;
        answer(dir, i, &self.runs.tomls[i_], &self.runs.ids[i_])
    }

    /// Runs run `i` unless it has a result that answers its spec (one that does not is
    /// replaced); a spec edited since the plan is refused. Failures are recorded in
    /// `NNNNNN.err`.
    pub fn run_one(&self, dir: &Path, i: u64) -> Outcome {
        let result = result_path(dir, i);
        let edited = spec_as_planned(dir, i, &self.runs.tomls[i as usize]);
        if edited.is_ok() && result.exists() {
            match self.answer(dir, i) {
                Ok(_) => return Outcome::AlreadyDone,
                Err(e) => eprintln!("note: {e}"),
            }
        }
        let written = edited
            .map_err(|e| e.to_string())
            .and_then(|()| execute(dir, i))
            .and_then(|json| write_result(&result, &json).map_err(|e| e.to_string()));
        match written {
            Ok(()) => {
                let _ = std::fs::remove_file(err_path(dir, i));
                remove_stale_temps(dir, i);
                Outcome::Ran
            }
            // Another task finished the same run meanwhile (e.g. a resubmitted array).
            Err(_) if self.answer(dir, i).is_ok() => Outcome::AlreadyDone,
            Err(msg) => {
                let _ = write_result(&err_path(dir, i), &msg);
                Outcome::Failed(msg)
            }
        }
    }
}

fn index_from_env() -> Result<u64, Error> {
    for var in ["SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"] {
        if let Ok(v) = std::env::var(var) {
            return v.trim().parse().map_err(|_| {
                Error::Usage(format!("{var}={v:?} is not an index (an integer >= 0)"))
            });
        }
    }
    Err(Error::Usage(
        "--index-from-env: neither SLURM_ARRAY_TASK_ID nor JOB_COMPLETION_INDEX is set".into(),
    ))
}

fn summarize(outcomes: &[(u64, Outcome)], what: &str) -> Result<(), Error> {
    let ran = outcomes
        .iter()
        .filter(|(_, o)| matches!(o, Outcome::Ran))
        .count();
    let skipped = outcomes
        .iter()
        .filter(|(_, o)| matches!(o, Outcome::AlreadyDone))
        .count();
    let failed: Vec<String> = outcomes
        .iter()
        .filter_map(|(i, o)| match o {
            Outcome::Failed(m) => Some(format!("run {i:06}: {m}")),
            _ => None,
        })
        .collect();
    outln!(
        "{what}: {ran} ran, {skipped} already done, {} failed",
        failed.len()
    );
    if failed.is_empty() {
        Ok(())
    } else {
        Err(Error::Runtime(failed.join("\n")))
    }
}

/// Which runs of a sweep [`run`] runs.
pub enum Which {
    /// Every missing run, on `jobs` threads (`None`: all cores), with a progress bar.
    All { jobs: Option<usize> },
    /// Index `i` (runs `i * chunk ..= i * chunk + chunk - 1`).
    Index(u64),
    /// The index in SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX (Kubernetes).
    FromEnv,
}

/// `fabsim sweep run`: runs the runs of sweep `dir` that `which` names, `chunk` per index.
pub fn run(dir: &Path, which: Which, chunk: u64) -> Result<(), Error> {
    let m = read_manifest(dir)?;
    let _lock = DirLock::take(dir, matches!(which, Which::All { .. }))?;
    let plan = Plan::of(dir)?;
    if let Which::All { jobs } = which {
        let missing = plan.todo(dir);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(jobs.unwrap_or(0))
            .build()
            .map_err(|e| Error::Runtime(format!("thread pool: {e}")))?;
        let bar = progress_bar(missing.len());
        let outcomes: Vec<(u64, Outcome)> = pool.install(|| {
            missing
                .par_iter()
                .map(|&i| {
                    let o = plan.run_one(dir, i);
                    bar.inc(1);
                    (i, o)
                })
                .collect()
        });
        bar.finish_and_clear();
        let done = m.runs - missing.len() as u64;
        return summarize(&outcomes, &format!("{} runs ({done} done before)", m.runs));
    }
    let index = match which {
        Which::Index(i) => i,
        _ => index_from_env()?,
    };
    let first = index.checked_mul(chunk).filter(|&f| f < m.runs);
    let Some(first) = first else {
        return Err(Error::Usage(format!(
            "--index {index} with --chunk {}: out of range; the sweep has {} runs, \
             so indices 0..={}",
            chunk,
            m.runs,
            m.runs.div_ceil(chunk).saturating_sub(1)
        )));
    };
    let last = first.saturating_add(chunk).min(m.runs);
    let outcomes: Vec<(u64, Outcome)> = (first..last).map(|i| (i, plan.run_one(dir, i))).collect();
    summarize(&outcomes, &format!("runs {first}..={}", last - 1))
}

/// The runs of a sweep of `runs` runs in `dir` that have no result yet.
pub fn missing_runs(dir: &Path, runs: u64) -> Vec<u64> {
    (0..runs)
        .filter(|&i| !result_path(dir, i).exists())
        .collect()
}

/// The state of every run, from one directory listing.
struct State {
    done: BTreeSet<u64>,
    failed: BTreeMap<u64, String>,
    missing: Vec<u64>,
    temps: usize,
}

fn state(dir: &Path, runs: u64) -> Result<State, Error> {
    let results = dir.join("results");
    let mut done = BTreeSet::new();
    let mut errs = BTreeSet::new();
    let mut temps = 0;
    let entries = std::fs::read_dir(&results).map_err(|e| Error::io(&results, "list", e))?;
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some((stem, ext)) = name.split_once('.') else {
            continue;
        };
        // Only the names the sweep writes (NNNNNN.json): a stray `5.json` is not run 5.
        let Ok(i) = stem.parse::<u64>() else {
            continue;
        };
        if stem.len() != 6 || i >= runs {
            continue;
        }
        match ext {
            "json" => {
                done.insert(i);
            }
            "err" => {
                errs.insert(i);
            }
            _ => {}
        }
    }
    if let Ok(entries) = std::fs::read_dir(results.join(".tmp")) {
        temps = entries.count();
    }
    let mut failed = BTreeMap::new();
    for i in errs.difference(&done) {
        let msg = std::fs::read_to_string(err_path(dir, *i)).unwrap_or_default();
        failed.insert(*i, msg);
    }
    let missing = (0..runs)
        .filter(|i| !done.contains(i) && !failed.contains_key(i))
        .collect();
    Ok(State {
        done,
        failed,
        missing,
        temps,
    })
}

/// `0-3,5,7-9`: sorted indices as ranges (Slurm's `--array` syntax).
fn ranges(xs: &[u64]) -> String {
    let mut out = String::new();
    let mut i = 0;
    while i < xs.len() {
        let mut j = i;
        while j + 1 < xs.len() && xs[j + 1] == xs[j] + 1 {
            j += 1;
        }
        if !out.is_empty() {
            out.push(',');
        }
        if i == j {
            let _ = write!(out, "{}", xs[i]);
        } else {
            let _ = write!(out, "{}-{}", xs[i], xs[j]);
        }
        i = j + 1;
    }
    out
}

/// `fabsim sweep status`: which runs are done, missing or failed.
pub fn status(dir: &Path) -> Result<(), Error> {
    let m = read_manifest(dir)?;
    let s = state(dir, m.runs)?;
    outln!(
        "{}: {} runs (hash {}) from {}",
        dir.display(),
        m.runs,
        m.hash,
        m.scenario_path
    );
    outln!("done: {}", s.done.len());
    outln!("missing: {}", s.missing.len());
    if !s.missing.is_empty() {
        outln!("  {}", ranges(&s.missing));
    }
    outln!("failed: {}", s.failed.len());
    for (i, msg) in &s.failed {
        outln!("  {i:06}: {}", msg.trim().replace('\n', "\n          "));
    }
    if s.temps > 0 {
        outln!(
            "({} temporary files of interrupted or running tasks)",
            s.temps
        );
    }
    // Every result must answer its planned spec, as merge requires.
    let PlannedRuns { tomls, ids, .. } = planned(dir, &m)?;
    let wrong: Vec<String> = s
        .done
        .iter()
        .filter_map(|&i| answer(dir, i, &tomls[i as usize], &ids[i as usize]).err())
        .map(|e| e.to_string())
        .collect();
    if !wrong.is_empty() {
        return Err(Error::Runtime(format!(
            "{} of {} results do not answer their planned run spec:\n  {}",
            wrong.len(),
            s.done.len(),
            wrong.join("\n  ")
        )));
    }
    Ok(())
}

/// `'...'` for sh.
fn sh_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// What `fabsim sweep slurm` writes into the job array script.
pub struct Slurm {
    /// Slurm partition (`None`: the cluster's default).
    pub partition: Option<String>,
    /// Time limit per array task, in Slurm syntax.
    pub time: Option<String>,
    /// Runs per array task.
    pub chunk: u64,
    /// At most this many array tasks at once (the `%M` throttle).
    pub max_parallel: Option<u64>,
    /// Submit the script with `sbatch` and print the job id.
    pub submit: bool,
}

/// Whether `t` is a time limit in one of sbatch's formats (`man sbatch`, `--time`): minutes,
/// minutes:seconds, hours:minutes:seconds, days-hours, days-hours:minutes,
/// days-hours:minutes:seconds, or no limit.
fn slurm_time(t: &str) -> bool {
    if matches!(t, "INFINITE" | "UNLIMITED" | "infinite" | "unlimited") {
        return true;
    }
    let number = |p: &str| !p.is_empty() && p.len() <= 9 && p.bytes().all(|b| b.is_ascii_digit());
    let (days, rest) = match t.split_once('-') {
        Some((d, rest)) => (Some(d), rest),
        None => (None, t),
    };
    let parts: Vec<&str> = rest.split(':').collect();
    days.is_none_or(number) && parts.len() <= 3 && parts.iter().all(|p| number(p))
}

/// `fabsim sweep slurm`: writes DIR/sweep.sbatch, a job array over the remaining runs.
pub fn slurm(dir: &Path, a: &Slurm) -> Result<(), Error> {
    let m = read_manifest(dir)?;
    for (flag, v) in [("--partition", &a.partition), ("--time", &a.time)] {
        if let Some(v) = v {
            if v.is_empty() || v.chars().any(|c| c.is_whitespace() || c.is_control()) {
                return Err(Error::Usage(format!(
                    "{flag} {v:?}: expected a non-empty value without spaces"
                )));
            }
        }
    }
    if let Some(t) = a.time.as_deref().filter(|t| !slurm_time(t)) {
        return Err(Error::Usage(format!(
            "--time {t:?}: not a Slurm time limit; allowed: MINUTES, MINUTES:SECONDS, HOURS:MINUTES:SECONDS, DAYS-HOURS, DAYS-HOURS:MINUTES, DAYS-HOURS:MINUTES:SECONDS (e.g. 30:00, 1-00:00:00) or UNLIMITED"
        )));
    }
    let dir = std::fs::canonicalize(dir).map_err(|e| Error::io(dir, "resolve", e))?;
    let s = state(&dir, m.runs)?;
    let done = |i: u64| s.done.contains(&i);
    let tasks: Vec<u64> = (0..m.runs.div_ceil(a.chunk))
        .filter(|t| {
            let first = t * a.chunk;
            (first..first.saturating_add(a.chunk).min(m.runs)).any(|i| !done(i))
        })
        .collect();
    if tasks.is_empty() {
        outln!(
            "{}: all {} runs are done; nothing to submit",
            dir.display(),
            m.runs
        );
        return Ok(());
    }
    let exe = std::env::current_exe()
        .and_then(std::fs::canonicalize)
        .map_err(|e| Error::Runtime(format!("cannot locate the fabsim binary: {e}")))?;
    let mut array = ranges(&tasks);
    if let Some(mp) = a.max_parallel {
        let _ = write!(array, "%{mp}");
    }
    if tasks.last().is_some_and(|&t| t >= 1001) {
        eprintln!(
            "warning: array index {} exceeds Slurm's default MaxArraySize (1001); \
             consider a larger --chunk",
            tasks.last().unwrap_or(&0)
        );
    }
    let logs = dir.join("slurm");
    std::fs::create_dir_all(&logs).map_err(|e| Error::io(&logs, "create directory", e))?;
    let mut script = String::from("#!/bin/sh\n");
    let _ = writeln!(script, "#SBATCH --job-name=fabsim-sweep");
    let _ = writeln!(script, "#SBATCH --array={array}");
    let _ = writeln!(script, "#SBATCH --output={}/%A_%a.out", logs.display());
    let _ = writeln!(script, "#SBATCH --ntasks=1");
    let _ = writeln!(script, "#SBATCH --cpus-per-task=1");
    if let Some(p) = &a.partition {
        let _ = writeln!(script, "#SBATCH --partition={p}");
    }
    if let Some(t) = &a.time {
        let _ = writeln!(script, "#SBATCH --time={t}");
    }
    let _ = writeln!(
        script,
        "# {} runs, {} per task; {} tasks remaining.",
        m.runs,
        a.chunk,
        tasks.len()
    );
    let _ = writeln!(
        script,
        "exec {} sweep run {} --index-from-env --chunk {}",
        sh_quote(&exe.to_string_lossy()),
        sh_quote(&dir.to_string_lossy()),
        a.chunk
    );
    let path = dir.join("sweep.sbatch");
    write_output(&path, &script)?;
    if !a.submit {
        outln!(
            "wrote {} (array {array}); submit with: sbatch {}",
            path.display(),
            path.display()
        );
        return Ok(());
    }
    let out = Command::new("sbatch")
        .arg("--parsable")
        .arg(&path)
        .output()
        .map_err(|e| Error::Runtime(format!("cannot run sbatch (is Slurm installed?): {e}")))?;
    if !out.status.success() {
        return Err(Error::Runtime(format!(
            "sbatch {} failed ({}): {}",
            path.display(),
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    let job = stdout.trim().split(';').next().unwrap_or("").to_string();
    eprintln!("submitted {} (array {array}) as job {job}", path.display());
    outln!("{job}");
    Ok(())
}

/// The runs a sweep was planned with: their specs, spec texts and identities, in index order.
struct PlannedRuns {
    specs: Vec<fabsim::scenario::RunSpec>,
    tomls: Vec<String>,
    ids: Vec<String>,
}

/// The runs of scenario `text` (named `source`) with overrides `set`: what a plan writes.
/// (`expand` refuses more than MAX_RUNS runs.)
fn expand(text: &str, source: &str, set: &[String]) -> Result<PlannedRuns, Error> {
    let specs = runcmd::scenario(Some(text), source, set)?.expand()?;
    let tomls = specs
        .iter()
        .map(|s| s.to_toml())
        .collect::<Result<Vec<_>, _>>()?;
    let ids = identities(&tomls);
    Ok(PlannedRuns { specs, tomls, ids })
}

/// The runs a sweep was planned with, from its manifest; an error if the scenario or an input
/// file it reads changed since.
fn planned(dir: &Path, m: &Manifest) -> Result<PlannedRuns, Error> {
    // Labels (the swept keys of each run) come from the scenario the sweep was planned from.
    let runs = expand(&m.scenario_text, &m.scenario_path, &m.set)?;
    let hash = fnv1a64(&runs.ids);
    if runs.specs.len() as u64 != m.runs || hash != m.hash {
        return Err(Error::Runtime(format!(
            "{}: the scenario and its input files now give {} runs (hash {hash}), but {} runs \
             (hash {}) were planned: the scenario, an input file it reads or fabsim changed \
             since; plan it again into a new directory",
            dir.join("sweep.json").display(),
            runs.specs.len(),
            m.runs,
            m.hash
        )));
    }
    Ok(runs)
}

/// Whether run spec `i` on disk is the planned one (`toml`), or an error naming it.
fn spec_as_planned(dir: &Path, i: u64, toml: &str) -> Result<(), Error> {
    let spec = spec_path(dir, i);
    let on_disk = std::fs::read_to_string(&spec).map_err(|e| Error::io(&spec, "read", e))?;
    if on_disk != toml {
        return Err(Error::Runtime(format!(
            "{}: differs from the run spec planned from sweep.json (edited since?); plan the \
             sweep again into a new directory",
            spec.display()
        )));
    }
    Ok(())
}

/// Run `i`'s report if its result answers the planned spec `toml` (identity `id`), as the
/// spec is on disk; else an error naming the file and what to do.
fn answer(dir: &Path, i: u64, toml: &str, id: &str) -> Result<RunReport, Error> {
    let path = result_path(dir, i);
    let text = std::fs::read_to_string(&path).map_err(|e| Error::io(&path, "read", e))?;
    let bad = |why: String| {
        Error::Runtime(format!(
            "{}: {why}; `fabsim sweep run` runs index {i} again",
            path.display()
        ))
    };
    let v: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| bad(format!("not a run report ({e})")))?;
    // The result must answer this run's spec: the planned one, as it is on disk.
    spec_as_planned(dir, i, toml)?;
    let spec = spec_path(dir, i);
    match v.get(SPEC_FIELD).and_then(|x| x.as_str()) {
        Some(x) if x == id => {
            serde_json::from_value(v).map_err(|e| bad(format!("not a run report ({e})")))
        }
        Some(_) => Err(bad(format!(
            "answers another run spec than {} (the spec or an input file changed since it \
             ran, or the file was copied from another run)",
            spec.display()
        ))),
        None => Err(bad(
            "names no run spec (made by an older fabsim, or not by `sweep run`)".into(),
        )),
    }
}

/// The labels (swept keys) and reports of every run of a finished sweep, in index order;
/// an error naming what is missing unless every run is done.
pub fn load_results(dir: &Path) -> Result<(Vec<Labels>, Vec<RunReport>), Error> {
    let m = read_manifest(dir)?;
    let s = state(dir, m.runs)?;
    if s.done.len() as u64 != m.runs {
        let mut msg = format!(
            "{}: cannot merge: {} of {} runs have no result",
            dir.display(),
            m.runs - s.done.len() as u64,
            m.runs
        );
        if !s.missing.is_empty() {
            let _ = write!(msg, "; missing: {}", ranges(&s.missing));
        }
        if !s.failed.is_empty() {
            let failed: Vec<u64> = s.failed.keys().copied().collect();
            let _ = write!(msg, "; failed: {}", ranges(&failed));
        }
        let _ = write!(
            msg,
            "; see `fabsim sweep status`, then `fabsim sweep run {0} --all` or \
             `fabsim sweep slurm {0} --submit`",
            dir.display()
        );
        return Err(Error::Runtime(msg));
    }
    let PlannedRuns { specs, tomls, ids } = planned(dir, &m)?;
    let mut reports = Vec::with_capacity(specs.len());
    for ((i, toml), id) in (0..m.runs).zip(&tomls).zip(&ids) {
        reports.push(answer(dir, i, toml, id)?);
    }
    let labels: Vec<Vec<(String, String)>> = specs.into_iter().map(|s| s.label).collect();
    Ok((labels, reports))
}

/// `fabsim sweep merge`: every result into DIR/merged.json and DIR/merged.csv.
pub fn merge(dir: &Path) -> Result<(), Error> {
    let m = read_manifest(dir)?;
    let (labels, reports) = load_results(dir)?;
    let json = runs_json(&reports)?;
    let csv = report_csv::csv(&labels, &reports);
    write_output(&dir.join("merged.json"), &json)?;
    write_output(&dir.join("merged.csv"), &csv)?;
    outln!(
        "merged {} runs into {} and {}",
        m.runs,
        dir.join("merged.json").display(),
        dir.join("merged.csv").display()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_compress_runs_of_indices() {
        assert_eq!(ranges(&[]), "");
        assert_eq!(ranges(&[3]), "3");
        assert_eq!(ranges(&[0, 1, 2, 3, 5, 7, 8, 9]), "0-3,5,7-9");
    }

    #[test]
    fn sh_quote_escapes_single_quotes() {
        assert_eq!(sh_quote("/a b/it's"), r"'/a b/it'\''s'");
    }
}

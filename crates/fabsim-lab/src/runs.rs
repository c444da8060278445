//! Scenarios into run specs (a file or the built-in default, with `--set` overrides), and
//! running them in parallel over cores.

use std::path::{Path, PathBuf};

use fabsim::metrics::{self, Extras, RunReport, RunResult};
use fabsim::scenario::{RunSpec, Scenario};
use indicatif::{ProgressBar, ProgressStyle};

use crate::Error;

/// Reads an input file (a scenario, run spec, flow table or report; see
/// [`fabsim::scenario::read_input`]); an unreadable, special or oversized file is a usage
/// error naming it.
pub fn read_file(path: &Path) -> Result<String, Error> {
    fabsim::scenario::read_input(path)
        .map_err(|e| Error::Usage(format!("{}: cannot read: {e}", path.display())))
}

/// Parses scenario `text` (`None`: the built-in default) named `source` in errors, and applies
/// `--set` overrides.
pub fn scenario(text: Option<&str>, source: &str, set: &[String]) -> Result<Scenario, Error> {
    let mut scenario = match text {
        None => Scenario::default_scenario(),
        Some(text) => Scenario::parse(text, source)?,
    };
    if text.is_some() && scenario.is_empty() {
        eprintln!("note: {source} sets no key: every key not given with --set takes its schema default (`fabsim keys` lists them)");
    }
    for s in set {
        scenario.set(s)?;
    }
    Ok(scenario)
}

/// Loads the scenario file (or the default), applies `--set` overrides and expands the sweep.
pub fn load(path: Option<&PathBuf>, set: &[String]) -> Result<Vec<RunSpec>, Error> {
    let text = path.map(|p| read_file(p)).transpose()?;
    let source = path.map_or(String::new(), |p| p.display().to_string());
    Ok(scenario(text.as_deref(), &source, set)?.expand()?)
}

/// The first number after `prefix` on the line of `path` (a /proc file) that starts with it.
fn proc_number(path: &str, prefix: &str) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    let rest = text.lines().find_map(|l| l.strip_prefix(prefix))?;
    rest.split_whitespace().next()?.parse().ok()
}

/// What this process may still allocate, and why: the room its address-space limit leaves
/// (`ulimit -v`, RLIMIT_AS, less what it maps already) and the memory available on the
/// machine (MemAvailable), the smaller; `None` where neither is known (not Linux).
fn memory_room() -> Option<(u64, String)> {
    let gib = |b: u64| b as f64 / (1u64 << 30) as f64;
    let mut room: Option<(u64, String)> = None;
    let mut offer = |bytes: u64, why: String| {
        if room.as_ref().is_none_or(|(r, _)| bytes < *r) {
            room = Some((bytes, why));
        }
    };
    // `Max address space  LIMIT  HARD  bytes` (or `unlimited`).
    if let Some(limit) = proc_number("/proc/self/limits", "Max address space") {
        // `VmSize:  N kB`: what the process maps already counts against the limit.
        let used = proc_number("/proc/self/status", "VmSize:").map_or(0, |kb| kb * 1024);
        offer(
            limit.saturating_sub(used),
            format!(
                "the address-space limit (ulimit -v) of {:.2} GiB leaves {:.2} GiB",
                gib(limit),
                gib(limit.saturating_sub(used))
            ),
        );
    }
    if let Some(kb) = proc_number("/proc/meminfo", "MemAvailable:") {
        offer(
            kb * 1024,
            format!(
                "the machine has {:.2} GiB available (MemAvailable)",
                gib(kb * 1024)
            ),
        );
    }
    room
}

/// Refuses, before anything is allocated, runs whose memory estimate (`bytes`, of `what`:
/// the runs held at once, a trace included) exceeds what this process can allocate
/// (`memory_room`): they would abort on a failed allocation. `run.max_memory_gib` caps the
/// estimate, whatever the machine; this holds it to the machine and the process's limits.
pub fn check_memory(bytes: u64, what: &str) -> Result<(), Error> {
    let gib = |b: u64| b as f64 / (1u64 << 30) as f64;
    match memory_room() {
        Some((room, why)) if bytes > room => Err(Error::Usage(format!(
            "{what} estimated at {:.2} GiB, more than this process can allocate: {why}; make \
             the run smaller, or raise the limit or free memory (run.max_memory_gib only caps \
             the estimate, it gives no memory)",
            gib(bytes)
        ))),
        _ => Ok(()),
    }
}

/// A progress bar over `len` runs on stderr, drawn only when stderr is a terminal (a single
/// run: a spinner with the time elapsed).
pub fn progress_bar(len: usize) -> ProgressBar {
    let bar = ProgressBar::new(len as u64);
    let template = if len == 1 {
        "{spinner} 1 run, {elapsed} elapsed"
    } else {
        "{bar:40} {pos}/{len} runs, {elapsed} elapsed, eta {eta}"
    };
    bar.set_style(ProgressStyle::with_template(template).expect("valid template"));
    if len == 1 {
        bar.enable_steady_tick(std::time::Duration::from_millis(250));
    }
    // Off a terminal (a log file, a batch job) the bar is not drawn: a line a minute instead.
    if !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        let b = bar.clone();
        std::thread::spawn(move || {
            let start = std::time::Instant::now();
            let mut next = PLAIN_PROGRESS;
            while !b.is_finished() {
                std::thread::sleep(std::time::Duration::from_secs(1));
                if start.elapsed() >= next && !b.is_finished() {
                    eprintln!(
                        "fabsim: {}/{} runs done, {:.0} s elapsed",
                        b.position(),
                        b.length().unwrap_or(0),
                        start.elapsed().as_secs_f64()
                    );
                    next += PLAIN_PROGRESS;
                }
            }
        });
    }
    bar
}

/// How often progress is printed off a terminal.
const PLAIN_PROGRESS: std::time::Duration = std::time::Duration::from_secs(60);

/// The `--json` document: `{"runs": [...]}`, pretty-printed.
pub fn runs_json(reports: &[RunReport]) -> Result<String, Error> {
    serde_json::to_string_pretty(&serde_json::json!({ "runs": reports }))
        .map_err(|e| Error::Runtime(e.to_string()))
}

/// Runs every spec, in parallel over cores, keeping the input order, with the `extras`
/// asked for; `each` sees every run's index and result as it finishes (see
/// [`metrics::run_parallel`]).
pub fn run_all(
    specs: &[RunSpec],
    jobs: Option<usize>,
    extras: Extras,
    each: &(dyn Fn(usize, &mut RunResult) + Sync),
) -> Result<Vec<RunResult>, Error> {
    let bar = progress_bar(specs.len());
    let params: Vec<_> = specs.iter().map(|s| &s.params).collect();
    let done = |i: usize, r: &mut RunResult| {
        each(i, r);
        bar.inc(1);
    };
    let done = metrics::run_parallel(&params, jobs, extras, &done, None)
        .map_err(Error::Runtime)?
        .expect("never cancelled");
    bar.finish_and_clear();
    Ok(done)
}

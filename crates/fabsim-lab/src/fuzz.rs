//! A seeded fuzzer over every text input fabsim parses: scenario TOML, `--set` strings, htsim
//! connection matrices, HPCC flow files, portmap traffic-matrix CSV and sweep manifests (`sweep.json`),
//! mutated from a seed corpus (the files in `scenarios/`). Property: each input ends in `Ok`
//! or an error, never a panic (test builds check arithmetic overflow too); traffic matrices
//! are solved only at small sizes.
//!
//! Two targets simulate what they generate. `Simulate`: a corpus scenario with one to four
//! keys of the schema set to values it allows (every scheme, stack, workload and switch
//! build), made small (k = 4, one seed, at most [`SIM_HOPS`] packet-hops by the estimate),
//! then run: no panic (the engine asserts packet conservation, and in debug builds queues
//! and time), a report consistent with itself (CCT at least the lower bound, completed flows
//! at most the flows) and the same report twice, the second time on another thread count.
//! `Sweep`: such a scenario swept over two values and two seeds, planned, run and merged
//! once without a break and once with an interruption (some runs done, a killed task's
//! partial result and a failed run's `.err` left behind, the plan repeated), then resumed:
//! the merged files must be the same bytes.
//!
//! `cargo test -p fabsim-cli fuzz` runs the smoke runs, fixed seed: 30,000 inputs of each
//! parse test, 1,000 simulated cases and 60 sweeps (seconds; about 20 s in a debug build).
//! `FABSIM_FUZZ_SIM_CASES` and `FABSIM_FUZZ_SWEEP_CASES` set the counts of the simulating
//! targets. Longer runs: `FABSIM_FUZZ_CASES=1000000 FABSIM_FUZZ_SEED=7` (the cases run
//! are printed with `--nocapture`; a failure lists the inputs that panicked), best under
//! `ulimit -v` so that an input that exhausts memory aborts only this process.
//! `FABSIM_FUZZ_TRACE=1` prints each input before it runs, to find one that hangs or aborts.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use std::sync::atomic::{AtomicU64, Ordering};

use fabsim::engine::Rng;
use fabsim::metrics::{self, RunReport};
use fabsim::scenario::{schema, Key, Kind as KeyKind, Scenario};
use fabsim::workload::{HpccFlows, HtsimMatrix, StartUnit};
use portmap::{solve, Constraints, Solver, TrafficMatrix, Workspace};

use crate::output::temp_name;
use crate::runs::scenario;
use crate::sweep::{load_results, missing_runs, parse_manifest, plan_dir, Outcome, Plan};

/// The most packet-hops a simulated case may have by the up-front estimate (a few
/// milliseconds of a release build).
const SIM_HOPS: u64 = 200_000;

/// What makes a generated scenario small; applied last, so that it wins.
const SMALL: &[&str] = &["topology.k=4", "run.seeds=1", "run.max_packet_hops=200000"];

/// Values that sit on a boundary somewhere: zero, signs, integer widths, float extremes,
/// sizes just below a packet, strings the schema knows.
const INTERESTING: &[&str] = &[
    "0",
    "1",
    "2",
    "-1",
    "3",
    "4159",
    "65536",
    "0.5",
    "1e-12",
    "1e-9",
    "1e300",
    "-1e300",
    "nan",
    "inf",
    "-inf",
    "4294967295",
    "4294967296",
    "17592186044416",
    "9223372036854775807",
    "-9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "1e15",
    "\"\"",
    "\"a\"",
    "[]",
    "[1, 2]",
    "[[]]",
    "{}",
    "true",
    "false",
    "\"unbounded\"",
    "\"auto\"",
    "\"off\"",
    "\"all\"",
    "\"0-3\"",
    "\"0-3:2\"",
    "\"edge0-agg1\"",
    "\"ofan\"",
    "\"ecmp\"",
    "\"conga\"",
    "\"trim\"",
    "\"htsim\"",
    "\"moe\"",
    "\"fsdp\"",
    "\"web\"",
    "\"sota\"",
    "\"fastroute\"",
    "\"oversubscribed\"",
    "\"nscc\"",
    "\"/nonexistent\"",
    "\"htsim-ring.tm\"",
    "->",
    "id",
    "start",
    "size",
    "trigger",
    "barrier",
    "count",
    "oneshot",
    "Nodes",
    "Connections",
    "Triggers",
    ",",
    "=",
    "#",
    "\n",
    "[run]",
    "[workload]",
    "é",
    "\u{feff}",
    "\t",
];

/// Characters that separate tokens in all five formats (kept as tokens of their own).
fn is_sep(c: char) -> bool {
    c.is_whitespace() || ",=[]{}\"'#:".contains(c)
}

fn tokens(text: &str) -> Vec<&str> {
    let mut out = vec![];
    let mut start = 0;
    for (i, c) in text.char_indices() {
        if is_sep(c) {
            if start < i {
                out.push(&text[start..i]);
            }
            out.push(&text[i..i + c.len_utf8()]);
            start = i + c.len_utf8();
        }
    }
    if start < text.len() {
        out.push(&text[start..]);
    }
    out
}

/// The seed corpus: the files of `scenarios/`.
struct Corpus {
    /// Scenario files: (path, text).
    scenarios: Vec<(PathBuf, String)>,
    /// Every `section.key` the corpus uses.
    keys: Vec<String>,
    htsim: Vec<String>,
    /// HPCC flow files (`*.txt`).
    hpcc: Vec<String>,
    /// Traffic matrices (portmap CSV).
    csv: Vec<String>,
}

impl Corpus {
    fn load() -> Self {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .expect("scenarios/ exists")
            .map(|e| e.expect("listable").path())
            .collect();
        files.sort();
        let read = |p: &Path| std::fs::read_to_string(p).expect("readable corpus file");
        let scenarios: Vec<(PathBuf, String)> = files
            .iter()
            .filter(|p| p.extension().is_some_and(|e| e == "toml"))
            .map(|p| (p.clone(), read(p)))
            .collect();
        let with_ext = |ext: &str| -> Vec<String> {
            files
                .iter()
                .filter(|p| p.extension().is_some_and(|e| e == ext))
                .map(|p| read(p))
                .collect()
        };
        let (htsim, hpcc, csv) = (with_ext("tm"), with_ext("txt"), with_ext("csv"));
        let mut keys = vec![];
        for (_, text) in &scenarios {
            let mut section = String::new();
            for line in text.lines().map(str::trim) {
                if let Some(s) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
                    section = s.to_string();
                } else if let Some((k, _)) = line.split_once('=') {
                    let key = format!("{section}.{}", k.trim());
                    if !line.starts_with('#') && !keys.contains(&key) {
                        keys.push(key);
                    }
                }
            }
        }
        Corpus {
            scenarios,
            keys,
            htsim,
            hpcc,
            csv,
        }
    }
}

/// Random choices and edits.
struct Gen {
    rng: Rng,
}

impl Gen {
    fn below(&mut self, n: usize) -> usize {
        self.rng.below(n as u64) as usize
    }

    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }

    fn interesting(&mut self) -> String {
        self.pick(INTERESTING).to_string()
    }

    /// 1 to 4 edits of `text`: a token replaced, deleted, duplicated or inserted, a line
    /// deleted, duplicated or moved, or the text cut short.
    fn mutate(&mut self, text: &str) -> String {
        let mut toks: Vec<String> = tokens(text).into_iter().map(String::from).collect();
        for _ in 0..1 + self.below(4) {
            if toks.is_empty() {
                toks.push(self.interesting());
                continue;
            }
            let i = self.below(toks.len());
            match self.below(8) {
                0..=2 => toks[i] = self.interesting(),
                3 => {
                    toks.remove(i);
                }
                4 => toks.insert(i, toks[i].clone()),
                5 => {
                    let t = self.interesting();
                    toks.insert(i, t);
                }
                6 => {
                    let joined = toks.concat();
                    let mut lines: Vec<&str> = joined.lines().collect();
                    let (a, b) = (self.below(lines.len()), self.below(lines.len()));
                    let line = lines.remove(a);
                    lines.insert(b.min(lines.len()), line);
                    toks = tokens(&lines.join("\n"))
                        .into_iter()
                        .map(String::from)
                        .collect();
                }
                _ => toks.truncate(i),
            }
        }
        toks.concat()
    }

    /// A value `key` allows, as `--set` reads it (small numbers, any name of a choice), or
    /// now and then one of [`INTERESTING`].
    fn value_for(&mut self, key: &Key) -> String {
        if self.below(8) == 0 {
            return self.interesting().trim_matches('"').to_string();
        }
        match key.kind {
            KeyKind::Int { min, max, even } => {
                let small = [min, min + 1, 2, 3, 4, 8, 16, 100, 1000, 4096, 65536];
                let v = *self.pick(&small).clamp(&min, &max);
                let v = if even { (v & !1).max(min) } else { v };
                v.to_string()
            }
            KeyKind::Float { min, max, open } => {
                let small: [f64; 12] = [
                    0.0, 0.001, 0.01, 0.1, 0.25, 0.5, 0.9, 1.0, 2.0, 10.0, 100.0, 1e3,
                ];
                let v = self.pick(&small).max(min).min(max);
                let v = match open && v <= min {
                    true if max.is_finite() => (min + max) / 2.0,
                    true => min + 1.0,
                    false => v,
                };
                format!("{v:?}")
            }
            KeyKind::Bool => self.pick(&["true", "false"]).to_string(),
            KeyKind::Choice(names) => self.pick(&names()).to_string(),
            KeyKind::Other { .. } => match key.default {
                Some(d) if self.below(2) == 0 => d.trim_matches('"').to_string(),
                _ => self.interesting().trim_matches('"').to_string(),
            },
        }
    }

    /// One to four `--set` strings of schema keys with values they allow, then [`SMALL`]
    /// (but `topology.k` where the scenario `text` reads its fabric from a file, which
    /// refuses it: the corpus's files are small).
    fn small_sets(&mut self, text: &str) -> Vec<String> {
        let keys: Vec<&Key> = schema().collect();
        let mut set: Vec<String> = (0..1 + self.below(4))
            .map(|_| {
                let key = *self.pick(&keys);
                format!("{}={}", key.name, self.value_for(key))
            })
            .collect();
        let file = toml::from_str::<toml::Table>(text)
            .ok()
            .is_some_and(|t| t.get("topology").and_then(|t| t.get("file")).is_some());
        set.extend(
            (SMALL.iter())
                .filter(|s| !(file && s.starts_with("topology.k=")))
                .map(|s| s.to_string()),
        );
        set
    }

    fn set_string(&mut self, keys: &[String]) -> String {
        let key = self.pick(keys).clone();
        let value = match self.below(3) {
            0 => format!("{},{}", self.interesting(), self.interesting()),
            _ => self.interesting(),
        };
        let s = format!("{key}={}", value.trim_matches('"'));
        if self.below(8) == 0 {
            self.mutate(&s)
        } else {
            s
        }
    }

    fn csv(&mut self) -> String {
        let (rows, cols) = (1 + self.below(8), 1 + self.below(4));
        let mut text = String::new();
        if self.below(2) == 0 {
            text.push_str("asic0,asic1\n");
        }
        for _ in 0..rows {
            let row: Vec<String> = (0..cols)
                .map(|_| match self.below(4) {
                    0 => self.interesting(),
                    _ => self.rng.below(1000).to_string(),
                })
                .collect();
            text.push_str(&row.join(","));
            text.push('\n');
        }
        text
    }
}

/// The five input formats, and the two targets that simulate.
#[derive(Clone, Copy)]
enum Kind {
    Scenario,
    Set,
    Htsim,
    Hpcc,
    Csv,
    Manifest,
    Simulate,
    Sweep,
}

thread_local! {
    /// Runs simulated by this thread's fuzz test (reported with the case count: a generator
    /// that stops producing valid scenarios shows).
    static SIMULATED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

fn simulated() {
    SIMULATED.with(|n| n.set(n.get() + 1));
}

/// A report as JSON without its wall-clock part (`perf`): what two runs must agree on.
fn without_perf(r: &RunReport) -> serde_json::Value {
    let mut v = serde_json::to_value(r).expect("a report serializes");
    v.as_object_mut().expect("an object").remove("perf");
    v
}

/// What every report must say of itself.
fn check_report(r: &RunReport) {
    assert!(r.flows_completed <= r.flows_total, "{r:?}");
    if let Some(cct) = r.cct_us {
        assert_eq!(
            r.flows_completed, r.flows_total,
            "a CCT with flows unfinished"
        );
        let bound = r
            .lower_bound_us
            .expect("a run with a CCT has flows and a bound");
        assert!(
            cct >= bound * (1.0 - 1e-9),
            "CCT {cct} us below the lower bound {bound} us"
        );
    }
}

/// Simulates the runs of `text` with `set` (at most four; nothing if it does not parse or
/// is over [`SMALL`]'s limits), checking each report, and the first one against a rerun on
/// another thread count.
fn simulate(text: &str, source: &str, set: &[String]) {
    let Ok(specs) = scenario(Some(text), source, set).and_then(|s| Ok(s.expand()?)) else {
        return;
    };
    for (i, spec) in specs.iter().take(4).enumerate() {
        debug_assert!(spec.params.estimate().packet_hops <= SIM_HOPS);
        let r = metrics::run(&spec.params);
        simulated();
        check_report(&r);
        if i == 0 {
            // The rerun on another thread count: the output may depend on neither.
            let mut again = spec.params.clone();
            again.run.threads = if again.run.threads == 1 { 3 } else { 1 };
            again.run.share_cores = false;
            assert_eq!(
                without_perf(&r),
                without_perf(&metrics::run(&again)),
                "rerun on {} threads differs",
                again.run.threads
            );
        }
    }
}

/// A fresh directory for one sweep case.
fn case_dir() -> PathBuf {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("fabsim-fuzz-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Runs every run of the sweep in `dir` not done yet; none may fail.
fn run_missing(dir: &Path) {
    let plan = Plan::of(dir).expect("planned");
    for i in plan.todo(dir) {
        match plan.run_one(dir, i) {
            Outcome::Failed(why) => panic!("run {i} failed: {why}"),
            _ => simulated(),
        };
    }
}

/// The sweep of `text` with `set` planned, run and loaded in one go into `dir/whole`, and
/// with an interruption into `dir/broken`: the runs in `done` first, a killed task's partial
/// result and a failed run's `.err` left behind, the plan repeated, then the rest. Both must
/// load the same labels and reports (apart from `perf`).
fn sweep_interrupted(text: &str, source: &str, set: &[String], done: &[bool], dir: &Path) {
    let whole = dir.join("whole");
    let Ok((_, runs, _)) = plan_dir(&whole, text, source, set) else {
        return;
    };
    run_missing(&whole);
    let broken = dir.join("broken");
    plan_dir(&broken, text, source, set).expect("planned once, plans again");
    let plan = Plan::of(&broken).expect("planned");
    for i in (0..runs).filter(|&i| done[i as usize % done.len()]) {
        plan.run_one(&broken, i);
    }
    if let Some(&i) = missing_runs(&broken, runs).first() {
        let results = broken.join("results");
        let tmp = results.join(".tmp");
        std::fs::create_dir_all(&tmp).expect("writable");
        let partial = temp_name(&results.join(format!("{i:06}.json")));
        std::fs::write(tmp.join(partial), "{\"lb\": \"ec").expect("writable");
        std::fs::write(results.join(format!("{i:06}.err")), "killed").expect("writable");
    }
    plan_dir(&broken, text, source, set).expect("the same plan again");
    run_missing(&broken);
    let (la, ra) = load_results(&whole).expect("the whole sweep loads");
    let (lb, rb) = load_results(&broken).expect("the resumed sweep loads");
    assert_eq!(la, lb, "labels differ");
    let strip = |rs: &[RunReport]| rs.iter().map(without_perf).collect::<Vec<_>>();
    assert_eq!(strip(&ra), strip(&rb), "the resumed sweep's reports differ");
}

/// A mutated file of `corpus` (shown on a failure as `what`) and `parse` of it.
fn file_case(
    corpus: &[String],
    g: &mut Gen,
    what: &str,
    parse: fn(&str),
) -> (String, Box<dyn FnOnce()>) {
    let base = g.pick(corpus);
    let text = g.mutate(base);
    let t = text.clone();
    (format!("{what}:\n{text}"), Box::new(move || parse(&t)))
}

fn parse_htsim(text: &str) {
    for unit in StartUnit::ALL {
        if let Ok(m) = HtsimMatrix::parse(text, unit) {
            let _ = (m.total_bytes(), m.traffic());
        }
    }
}

fn parse_hpcc(text: &str) {
    // Node ids 0 to 15 are hosts, as on a k = 4 fat tree.
    let host = |id: u64| {
        u32::try_from(id)
            .ok()
            .filter(|&h| h < 16)
            .ok_or_else(String::new)
    };
    if let Ok(f) = HpccFlows::parse(text, host) {
        let _ = f.size();
    }
}

/// One input of `kind` (shown on a failure) and the parse it is fed to.
fn case(c: &Corpus, g: &mut Gen, kind: Kind) -> (String, Box<dyn FnOnce()>) {
    match kind {
        Kind::Scenario => {
            let (path, text) = g.pick(&c.scenarios).clone();
            let text = g.mutate(&text);
            let source = path.display().to_string();
            let t = text.clone();
            (
                format!("scenario ({source}):\n{text}"),
                Box::new(move || {
                    let _ = Scenario::parse(&t, &source).and_then(|s| s.expand());
                }),
            )
        }
        Kind::Set => {
            let (path, text) = g.pick(&c.scenarios).clone();
            let set: Vec<String> = (0..1 + g.below(3)).map(|_| g.set_string(&c.keys)).collect();
            let source = path.display().to_string();
            (
                format!("{source} --set {}", set.join(" --set ")),
                Box::new(move || {
                    let _ = scenario(Some(&text), &source, &set).map(|s| s.expand());
                }),
            )
        }
        Kind::Htsim => file_case(&c.htsim, g, "htsim", parse_htsim),
        Kind::Hpcc => file_case(&c.hpcc, g, "HPCC flow file", parse_hpcc),
        Kind::Csv => {
            let text = match g.below(3) {
                0 => g.csv(),
                1 => {
                    let csv = g.csv();
                    g.mutate(&csv)
                }
                _ => {
                    let base = g.pick(&c.csv);
                    g.mutate(base)
                }
            };
            let asics = g.below(6);
            let t = text.clone();
            (
                format!("portmap CSV (--asics {asics}):\n{text}"),
                Box::new(move || {
                    if let Ok(tm) = TrafficMatrix::from_csv_str(&t, Some(asics)) {
                        for solver in [Solver::Greedy, Solver::Exact] {
                            let (c, mut ws, mut out) =
                                (Constraints::default(), Workspace::new(), vec![]);
                            let _ = solve(tm.view(), &c, solver, &mut ws, &mut out);
                        }
                    }
                }),
            )
        }
        Kind::Manifest => {
            let (path, text) = g.pick(&c.scenarios).clone();
            let manifest = serde_json::to_string_pretty(&serde_json::json!({
                "fabsim_version": "0.1.0",
                "scenario_path": path.display().to_string(),
                "scenario_text": text,
                "set": ["run.seeds=2"],
                "runs": 1 + g.rng.below(100),
                "hash": "0123456789abcdef",
            }))
            .expect("serializable");
            let text = g.mutate(&manifest);
            let t = text.clone();
            (
                format!("sweep.json:\n{text}"),
                // The scenario it holds is the Scenario kind's input.
                Box::new(move || {
                    let _ = parse_manifest(&t, Path::new("sweep.json"));
                }),
            )
        }
        Kind::Simulate => {
            let (path, text) = g.pick(&c.scenarios).clone();
            let set = g.small_sets(&text);
            let source = path.display().to_string();
            (
                format!("{source} --set {}", set.join(" --set ")),
                Box::new(move || simulate(&text, &source, &set)),
            )
        }
        Kind::Sweep => {
            let (path, text) = g.pick(&c.scenarios).clone();
            let mut set = g.small_sets(&text);
            // Two values of a choice key, two seeds: a sweep of up to four runs.
            let choices: Vec<&Key> = schema()
                .filter(|k| matches!(k.kind, KeyKind::Choice(_)))
                .collect();
            let key = *g.pick(&choices);
            let (a, b) = (g.value_for(key), g.value_for(key));
            set.push(format!("{}={a},{b}", key.name));
            set.push("run.seeds=2".into());
            let done: Vec<bool> = (0..4).map(|_| g.below(2) == 0).collect();
            let source = path.display().to_string();
            (
                format!(
                    "sweep of {source} --set {} (done first: {done:?})",
                    set.join(" --set ")
                ),
                Box::new(move || {
                    let dir = case_dir();
                    let result = catch_unwind(AssertUnwindSafe(|| {
                        sweep_interrupted(&text, &source, &set, &done, &dir)
                    }));
                    let _ = std::fs::remove_dir_all(&dir);
                    if let Err(p) = result {
                        std::panic::resume_unwind(p);
                    }
                }),
            )
        }
    }
}

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name).map_or(default, |v| {
        v.parse()
            .unwrap_or_else(|_| panic!("{name}={v:?}: expected an integer"))
    })
}

/// Runs `FABSIM_FUZZ_CASES` (default `cases`) inputs, cycling through `kinds`, from seed
/// `FABSIM_FUZZ_SEED` (default 1); fails listing the inputs that panicked.
fn fuzz(kinds: &[Kind], cases: u64) {
    fuzz_env(kinds, "FABSIM_FUZZ_CASES", cases)
}

/// [`fuzz`], with the number of cases from the variable `cases_var`.
fn fuzz_env(kinds: &[Kind], cases_var: &str, cases: u64) {
    let seed = env_u64("FABSIM_FUZZ_SEED", 1);
    let cases = env_u64(cases_var, cases);
    let trace = std::env::var_os("FABSIM_FUZZ_TRACE").is_some();
    let corpus = Corpus::load();
    let mut gen = Gen {
        rng: Rng::new(seed),
    };
    let start = std::time::Instant::now();
    let mut crashes = vec![];
    for i in 0..cases {
        let (input, run) = case(&corpus, &mut gen, kinds[i as usize % kinds.len()]);
        if trace {
            eprintln!("case {i}: {input}");
        }
        if let Err(p) = catch_unwind(AssertUnwindSafe(run)) {
            let msg = p
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            crashes.push(format!("panic: {msg}\ninput: {input}"));
        }
    }
    // println!: the test harness captures it.
    #[allow(clippy::disallowed_macros)]
    {
        println!(
            "fuzz: {cases} cases (seed {seed}) in {:.1} s, {} panicked, {} runs simulated",
            start.elapsed().as_secs_f64(),
            crashes.len(),
            SIMULATED.with(|n| n.get())
        );
    }
    assert!(
        crashes.is_empty(),
        "{} of {cases} inputs panicked; the first:\n\n{}",
        crashes.len(),
        crashes[..crashes.len().min(10)].join("\n\n")
    );
}

/// htsim connection matrices, HPCC flow files, traffic-matrix CSV and sweep manifests: the
/// smoke run of every `cargo test`.
#[test]
fn fuzz_htsim_portmap_and_sweep_manifests() {
    fuzz(
        &[Kind::Htsim, Kind::Hpcc, Kind::Csv, Kind::Manifest],
        30_000,
    );
}

/// Scenario TOML and `--set` strings, parsed and expanded (never simulated): the smoke run of
/// every `cargo test`.
#[test]
fn fuzz_scenarios_and_set_strings() {
    fuzz(&[Kind::Scenario, Kind::Set], 30_000);
}

/// Generated small scenarios, simulated with their reports checked: the smoke run of every
/// `cargo test` (`FABSIM_FUZZ_SIM_CASES` for longer runs).
#[test]
fn fuzz_simulations() {
    fuzz_env(&[Kind::Simulate], "FABSIM_FUZZ_SIM_CASES", 1000);
}

/// Generated small sweeps, run whole and interrupted then resumed, with the same results:
/// the smoke run of every `cargo test` (`FABSIM_FUZZ_SWEEP_CASES` for longer runs).
#[test]
fn fuzz_sweeps_resumed_equal_whole() {
    fuzz_env(&[Kind::Sweep], "FABSIM_FUZZ_SWEEP_CASES", 60);
}

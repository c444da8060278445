//! A seeded fuzzer over every text input fabsim parses: scenario TOML, `--set` strings, htsim
//! connection matrices, portmap traffic-matrix CSV and sweep manifests (`sweep.json`),
//! mutated from a seed corpus (the files in `scenarios/`). Property: each input ends in `Ok`
//! or an error, never a panic (test builds check arithmetic overflow too). Parsing and
//! validation only: nothing is simulated, traffic matrices are solved only at small sizes.
//!
//! `cargo test -p fabsim-cli fuzz` runs the smoke run: 30,000 inputs of each test, fixed seed,
//! a few seconds. Longer runs: `FABSIM_FUZZ_CASES=1000000 FABSIM_FUZZ_SEED=7` (the cases run
//! are printed with `--nocapture`; a failure lists the inputs that panicked), best under
//! `ulimit -v` so that an input that exhausts memory aborts only this process.
//! `FABSIM_FUZZ_TRACE=1` prints each input before it runs, to find one that hangs or aborts.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use fabsim::engine::Rng;
use fabsim::scenario::Scenario;
use fabsim::workload::HtsimMatrix;
use portmap::{solve, Constraints, Solver, TrafficMatrix, Workspace};

use crate::cmd_sweep::parse_manifest;
use crate::run::scenario;

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
        let (htsim, csv) = (with_ext("tm"), with_ext("csv"));
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

/// The five input formats.
#[derive(Clone, Copy)]
enum Kind {
    Scenario,
    Set,
    Htsim,
    Csv,
    Manifest,
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
        Kind::Htsim => {
            let base = g.pick(&c.htsim);
            let text = g.mutate(base);
            let t = text.clone();
            (
                format!("htsim:\n{text}"),
                Box::new(move || {
                    if let Ok(m) = HtsimMatrix::parse(&t) {
                        let _ = (m.total_bytes(), m.traffic());
                    }
                }),
            )
        }
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
    let seed = env_u64("FABSIM_FUZZ_SEED", 1);
    let cases = env_u64("FABSIM_FUZZ_CASES", cases);
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
            "fuzz: {cases} cases (seed {seed}) in {:.1} s, {} panicked",
            start.elapsed().as_secs_f64(),
            crashes.len()
        );
    }
    assert!(
        crashes.is_empty(),
        "{} of {cases} inputs panicked; the first:\n\n{}",
        crashes.len(),
        crashes[..crashes.len().min(10)].join("\n\n")
    );
}

/// htsim connection matrices, traffic-matrix CSV and sweep manifests: the smoke run of every
/// `cargo test`.
#[test]
fn fuzz_htsim_portmap_and_sweep_manifests() {
    fuzz(&[Kind::Htsim, Kind::Csv, Kind::Manifest], 30_000);
}

/// Scenario TOML and `--set` strings, parsed and expanded (never simulated): the smoke run of
/// every `cargo test`.
#[test]
fn fuzz_scenarios_and_set_strings() {
    fuzz(&[Kind::Scenario, Kind::Set], 30_000);
}

//! A seeded fuzzer over every text input fabsim parses: scenario TOML, `--set` strings, htsim
//! connection matrices, portmap traffic-matrix CSV and sweep manifests (`sweep.json`),
//! mutated from a seed corpus (the files in `scenarios/`). Property: each input ends in `Ok`
//! or an error, never a panic (test builds check arithmetic overflow too). Parsing and
//! validation only: nothing is simulated, traffic matrices are solved only at small sizes.
//!
//! `cargo test -p fabsim-cli fuzz` runs the smoke run (a fixed seed, a few seconds). A longer
//! run: `FABSIM_FUZZ_CASES=200000 FABSIM_FUZZ_SEED=7 cargo test -p fabsim-cli fuzz --
//! --nocapture` (prints the cases run; a failure lists the inputs that panicked).
//! `FABSIM_FUZZ_TRACE=1` prints each input before it runs (to find one that hangs or
//! exhausts memory).

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
        let htsim = files
            .iter()
            .filter(|p| p.extension().is_some_and(|e| e == "tm"))
            .map(|p| read(p))
            .collect();
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

/// Input number `case` (of kind `case % 5`), fed to its parser. `Err`: the input (shown on a
/// failure) and the panic message.
fn case(c: &Corpus, g: &mut Gen, case: u64) -> Result<(), (String, String)> {
    {
        let (input, run): (String, Box<dyn FnOnce()>) = match case % 5 {
            0 => {
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
            1 => {
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
            2 => {
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
            3 => {
                let csv = g.csv();
                let text = if g.below(2) == 0 { g.mutate(&csv) } else { csv };
                let asics = g.below(6);
                let t = text.clone();
                (
                    format!("portmap CSV (asics {asics}):\n{text}"),
                    Box::new(move || {
                        if let Ok(tm) = TrafficMatrix::from_csv_str(&t, Some(asics)) {
                            for solver in [Solver::Greedy, Solver::Exact] {
                                let mut out = vec![];
                                let c = Constraints::default();
                                let _ =
                                    solve(tm.view(), &c, solver, &mut Workspace::new(), &mut out);
                            }
                        }
                    }),
                )
            }
            _ => {
                let (path, text) = g.pick(&c.scenarios).clone();
                let set: Vec<String> = (0..g.below(2)).map(|_| g.set_string(&c.keys)).collect();
                let manifest = serde_json::to_string_pretty(&serde_json::json!({
                    "fabsim_version": "0.1.0",
                    "scenario_path": path.display().to_string(),
                    "scenario_text": text,
                    "set": set,
                    "runs": 1 + g.rng.below(100),
                    "hash": "0123456789abcdef",
                }))
                .expect("serializable");
                let text = g.mutate(&manifest);
                let t = text.clone();
                (
                    format!("sweep.json:\n{text}"),
                    Box::new(move || {
                        if let Ok(m) = parse_manifest(&t, Path::new("sweep.json")) {
                            let s = scenario(Some(&m.scenario_text), &m.scenario_path, &m.set);
                            let _ = s.map(|s| s.expand());
                        }
                    }),
                )
            }
        };
        if std::env::var_os("FABSIM_FUZZ_TRACE").is_some() {
            eprintln!("case {case}: {input}");
        }
        catch_unwind(AssertUnwindSafe(run)).map_err(|p| {
            let msg = p
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            (input, msg)
        })
    }
}

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name).map_or(default, |v| {
        v.parse()
            .unwrap_or_else(|_| panic!("{name}={v:?}: expected an integer"))
    })
}

#[test]
fn fuzz_parsers_never_panic() {
    let seed = env_u64("FABSIM_FUZZ_SEED", 1);
    let cases = env_u64("FABSIM_FUZZ_CASES", 3000);
    let corpus = Corpus::load();
    let mut gen = Gen {
        rng: Rng::new(seed),
    };
    let start = std::time::Instant::now();
    let crashes: Vec<(String, String)> = (0..cases)
        .filter_map(|i| case(&corpus, &mut gen, i).err())
        .collect();
    println!(
        "fuzz: {cases} cases (seed {seed}) in {:.1} s, {} panicked",
        start.elapsed().as_secs_f64(),
        crashes.len()
    );
    let shown: Vec<String> = crashes
        .iter()
        .take(10)
        .map(|(input, msg)| format!("panic: {msg}\ninput: {input}"))
        .collect();
    assert!(
        crashes.is_empty(),
        "{} of {cases} inputs panicked; the first:\n\n{}",
        crashes.len(),
        shown.join("\n\n")
    );
}

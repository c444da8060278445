//! `fabsim reproduce`: one command per figure and table of the two papers.
//!
//! An experiment is one declarative [`Experiment`] entry (see `ofan.rs`, `fastroute.rs`): what
//! it varies, the scenario of each sweep at full and `--quick` size (or a computation, for the
//! control-plane and power-model results), the plot, and its claims, each with the paper's
//! number, a tolerance and the function computing fabsim's number from the results table.
//! Verdicts are computed, never written by hand.
//!
//! Simulation sweeps reuse `fabsim sweep`'s machinery: each sweep is planned into
//! `DIR/ID/runs/NAME-SIZE-HASH/` (numbered run specs, atomic per-run result files), so an
//! interrupted `reproduce` resumes where it stopped and finished runs are never rerun.
//! HASH covers the sweep's definition and the simulator's sources ([`sim_id`]): a build whose
//! simulator differs never reuses a run, while one that changed only the claims, plots or
//! reports does. A computation is keyed by the whole build ([`code_id`]).

mod cols;
mod fastroute;
mod ofan;
pub mod plot;
mod scen;
mod table;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Instant;

use clap::Args;
use rayon::prelude::*;
use serde::Serialize;

use crate::cmd_sweep::{self, Outcome};
use crate::run::progress_bar;
use crate::{write_output, CliError};
use cols::Col;
pub use table::{Metric, Row, Table};

#[derive(Args)]
pub struct ReproduceArgs {
    /// Experiment id (see `--list`), or `all`.
    #[arg(required_unless_present = "list")]
    pub id: Option<String>,
    /// List the experiments, their claims and what they vary.
    #[arg(long)]
    pub list: bool,
    /// Smaller fabric, fewer points and seeds: seconds per experiment (at most about 20 s of
    /// CPU; `all --quick` about 170 s).
    #[arg(long)]
    pub quick: bool,
    /// Seeds per point (default: the experiment's, 10 at full size as in the papers; at most
    /// 1000).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub seeds: Option<u64>,
    /// Output directory; each experiment writes DIR/ID/.
    #[arg(long, default_value = "reproduce-out")]
    pub out: PathBuf,
    /// Worker threads (default: all cores; at most 1024).
    #[arg(long, value_parser = crate::run::jobs_parser())]
    pub jobs: Option<usize>,
    /// Override a scenario key in every run of the experiment (repeatable), e.g.
    /// `--set host.profile=htsim` to run it with the reference simulator's host stack.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// Plan the experiment's sweeps into DIR/ID/runs/ and print their directories, without
    /// running them: run them with `fabsim sweep run` (e.g. as a Slurm array), then rerun
    /// without --plan to collect the results.
    #[arg(long)]
    pub plan: bool,
}

/// Which paper an experiment reproduces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Paper {
    Ofan,
    Fastroute,
}

impl Paper {
    pub fn name(self) -> &'static str {
        match self {
            Paper::Ofan => "Ofan",
            Paper::Fastroute => "Fastroute",
        }
    }
}

/// One simulation sweep of an experiment: a scenario (TOML, lists are sweep axes) at the
/// paper's size, and the `--set` overrides that shrink it for `--quick`.
pub struct Sweep {
    pub name: String,
    pub scenario: String,
    pub quick: Vec<String>,
    /// Left out of `--quick` (a point that needs a larger fabric than `--quick` runs).
    pub full_only: bool,
}

/// Run-time options an experiment's points depend on.
#[derive(Clone, Debug, Default)]
pub struct Ctx {
    pub quick: bool,
    /// `--seeds`, when given.
    pub seeds: Option<u64>,
    /// `--set` overrides, applied to every run after the experiment's own keys.
    pub set: Vec<String>,
}

impl Ctx {
    fn size(&self) -> String {
        let size = if self.quick { "quick" } else { "full" };
        match self.seeds {
            Some(n) => format!("{size}-s{n}"),
            None => size.into(),
        }
    }
}

/// Where an experiment's rows come from.
pub enum Source {
    /// Simulation sweeps (one results row per run).
    Sim(Vec<Sweep>),
    /// A computation outside the simulator (power model, solver timings), one row per point.
    Compute(fn(&Ctx) -> Table),
}

/// The plot: `y` against column `x`, one line per `series`, mean and error bar (one standard
/// deviation) over the rows sharing a series and an x. A non-numeric `x` is categorical.
#[derive(Clone, Copy)]
pub struct Plot {
    pub x: Col,
    pub x_label: &'static str,
    pub x_log: bool,
    pub y: Metric,
    pub y_label: &'static str,
    pub y_log: bool,
    /// The y axis covers at least this range (the paper's 0-100% axes).
    pub y_span: Option<(f64, f64)>,
    /// Numeric x values are multiplied by this (a load fraction shown in %).
    pub x_scale: f64,
    pub series: fn(&Row) -> String,
}

/// How fabsim's number is compared with the paper's. Which kind a claim uses follows its
/// wording; each kind's width is stated once, in [`TOLERANCES`] and the constants below.
#[derive(Clone, Copy, Debug)]
pub enum Tol {
    /// |fabsim - paper| <= the given absolute difference: a printed number (half a unit of
    /// its last digit) or an 'about' (the kinds below).
    Abs(f64),
    /// fabsim < paper: 'under', 'less than', or a stated direction (< 0).
    Below,
    /// fabsim > paper: 'over', 'more than', or a stated direction (> 0).
    Above,
    /// fabsim <= paper + the printed limit's rounding: 'up to', 'within'.
    AtMost(f64),
    /// fabsim >= paper - the printed limit's rounding: 'at least'.
    AtLeast(f64),
    /// paper / f <= fabsim <= paper * f (timings on another machine and implementation).
    Factor(f64),
}

/// 'About / around / roughly X%' of a percentage (and 'within about 1%'): ± 1 pp.
pub const ABOUT_PCT: Tol = Tol::Abs(1.0);
/// 'Roughly half': ± 5 pp.
pub const ROUGHLY_HALF: Tol = Tol::Abs(5.0);
/// 'Around N orders of magnitude', on log10 values: ± 0.5 (the value rounds to N).
pub const DECADES: Tol = Tol::Abs(0.5);
/// An asymptotic class (Θ(m^a), on a fitted log-log slope): ± 0.15 of the exponent a.
pub const SLOPE: Tol = Tol::Abs(0.15);
/// A printed whole number ('3x', '15x', '4 ASICs'): ± 0.5, its rounding.
pub const PRINTED_INT: Tol = Tol::Abs(0.5);
/// A one-sided limit printed as a whole number ('up to 64x', 'at least 16x'): its rounding.
pub const INT_LIMIT: f64 = 0.5;
/// Absolute solver runtimes on another machine and implementation: within a factor 2.
pub const TIMING: Tol = Tol::Factor(2.0);

/// How each kind of tolerance was chosen (report.md of `reproduce all` and of each
/// experiment).
pub const TOLERANCES: &str = "\
Tolerances follow each claim's wording, one rule per kind. A printed number is compared \
within half a unit of its last printed digit (its rounding). 'About', 'around', 'roughly' \
and 'within about' X% of a percentage: ± 1 pp (the paper rounds to whole percent, and one \
more point allows for seeds; 'within about 1% of Ideal' is 99 ± 1, i.e. 98-100%). 'Roughly \
half': ± 5 pp. 'Around N orders of magnitude': log10 within ± 0.5 (the value rounds to N). \
Asymptotic classes (Θ(1), Θ(√m), Θ(m), Θ(p^3)) are fitted log-log slopes within ± 0.15 of \
the exponent: classes 0.5 apart keep a gap of 0.2 in which neither holds. Printed whole \
multiples ('3x', '15x') are ± 0.5. 'Up to', 'within' and 'at least' are one-sided limits, \
allowing only the rounding of the printed limit; 'under', 'over', 'more than' and stated \
directions ('grows', 'beats': a difference > 0 or < 0) are strict. 'Versus A and B' \
checks both (the worse of the two). Absolute solver runtimes (another machine, another \
implementation) are within a factor 2, measured as medians of repeated solves; a solver's \
scaling and runtime ratios are computed on its count of elementary operations (inner-loop \
iterations: the same on every machine and run). A claim whose premise did not occur in the run \
(congestion control that never changed a run) is `not comparable`, not `holds`. Claims \
labelled `theory` evaluate a closed form and are not counted as simulation results.";

impl Tol {
    fn holds(self, paper: f64, fabsim: f64) -> bool {
        match self {
            Tol::Abs(d) => (fabsim - paper).abs() <= d,
            Tol::Below => fabsim < paper,
            Tol::Above => fabsim > paper,
            Tol::AtMost(r) => fabsim <= paper + r,
            Tol::AtLeast(r) => fabsim >= paper - r,
            Tol::Factor(f) => fabsim >= paper / f && fabsim <= paper * f,
        }
    }

    fn describe(self, unit: &str) -> String {
        let plus = |r: f64, sign: &str| {
            if r == 0.0 {
                String::new()
            } else {
                format!(" {sign} {}", fmt_num(r))
            }
        };
        match self {
            Tol::Abs(d) => format!("± {} {unit}", fmt_num(d)).trim_end().into(),
            Tol::Below => "fabsim < paper".into(),
            Tol::Above => "fabsim > paper".into(),
            Tol::AtMost(r) => format!("fabsim <= paper{}", plus(r, "+")),
            Tol::AtLeast(r) => format!("fabsim >= paper{}", plus(r, "-")),
            Tol::Factor(f) => format!("within a factor {}", fmt_num(f)),
        }
    }
}

/// How a claim is shown to be able to fail: the test `every_claim_can_fail` evaluates each
/// claim on its experiment's [`Experiment::synthetic`] table (a table that agrees with the
/// paper: the verdict must be `holds`) and on that table rewritten by the claim's `Table`
/// function (one that contradicts the paper: `differs`).
#[derive(Clone, Copy)]
pub enum Contra {
    /// Rewrites the agreeing synthetic table into one that contradicts the claim (read by
    /// the tests only).
    Table(#[cfg_attr(not(test), allow(dead_code))] fn(&mut Table)),
    /// Closed-form theory: the claim's number does not come from the results (labelled
    /// `theory`, not counted as a simulation result).
    Theory,
    /// fabsim has no number for the claim (always `not comparable`, with the reason).
    Unmeasured,
}

/// A claim of the paper and how fabsim's number for it is computed.
pub struct Claim {
    /// The claim as the paper states it.
    pub text: &'static str,
    pub paper: f64,
    pub unit: &'static str,
    pub tol: Tol,
    /// fabsim's number from the results, or why there is none (-> `not comparable`).
    pub fabsim: fn(&Table) -> Result<f64, String>,
    /// The known reason when the claim does not hold (a modelling gap, an unstated
    /// parameter, or a real disagreement); shown only when the verdict is `differs`.
    pub differs: &'static str,
    /// What would contradict it (see [`Contra`]).
    pub contra: Contra,
}

/// One figure or table of a paper.
pub struct Experiment {
    pub id: &'static str,
    pub paper: Paper,
    pub figure: &'static str,
    pub title: &'static str,
    pub varies: &'static str,
    /// The setup, with every modelling choice the paper leaves open (markdown).
    pub setup: &'static str,
    pub source: Source,
    pub plot: Plot,
    /// Further panels, drawn right of `plot` in the same SVG (the paper's side-by-side
    /// panels).
    pub panels: Vec<Plot>,
    pub claims: Vec<Claim>,
    /// A synthetic results table (the columns the claims read, at the `--quick` points)
    /// on which every claim agrees with the paper; each claim's [`Contra`] rewrites it into
    /// one that contradicts it (read by the tests only).
    #[cfg_attr(not(test), allow(dead_code))]
    pub synthetic: fn() -> Table,
}

/// Every experiment, in the papers' order.
pub fn registry() -> Vec<Experiment> {
    let mut v = ofan::experiments();
    v.extend(fastroute::experiments());
    v
}

/// A claim's outcome, as written to `claims.json`.
#[derive(Clone, Debug, Serialize)]
pub struct ClaimResult {
    pub claim: String,
    pub paper: f64,
    pub fabsim: Option<f64>,
    pub holds: Option<bool>,
    pub unit: String,
    pub tolerance: String,
    pub verdict: String,
    /// `simulation`, `computation` (power model, solver timings) or `theory` (a closed
    /// form: not a simulation result).
    pub basis: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub why: String,
}

/// Evaluates `claim` on `table`.
pub fn evaluate(claim: &Claim, table: &Table) -> ClaimResult {
    let (fabsim, holds, verdict, why) = match (claim.fabsim)(table) {
        Ok(v) if v.is_finite() => {
            let holds = claim.tol.holds(claim.paper, v);
            let why = if holds {
                String::new()
            } else {
                let reason = if claim.differs.is_empty() {
                    "no reason identified yet"
                } else {
                    claim.differs
                };
                format!(
                    "fabsim's {} is outside the tolerance ({}) of the paper's {}: {reason}",
                    fmt_num(v),
                    claim.tol.describe(claim.unit),
                    fmt_num(claim.paper)
                )
            };
            let verdict = if holds { "holds" } else { "differs" };
            (Some(v), Some(holds), verdict, why)
        }
        Ok(v) => (
            None,
            None,
            "not comparable",
            format!("fabsim's number is {v}"),
        ),
        Err(why) => (None, None, "not comparable", why),
    };
    ClaimResult {
        claim: claim.text.into(),
        paper: claim.paper,
        fabsim,
        holds,
        unit: claim.unit.into(),
        tolerance: claim.tol.describe(claim.unit),
        verdict: verdict.into(),
        basis: String::new(),
        why,
    }
}

/// Where a claim's number comes from: `theory`, `simulation` or `computation`.
pub fn basis(exp: &Experiment, claim: &Claim) -> &'static str {
    match (claim.contra, &exp.source) {
        (Contra::Theory, _) => "theory",
        (_, Source::Sim(_)) => "simulation",
        (_, Source::Compute(_)) => "computation",
    }
}

/// Evaluates every claim of `exp` on `table`.
pub fn evaluate_all(exp: &Experiment, table: &Table) -> Vec<ClaimResult> {
    exp.claims
        .iter()
        .map(|c| ClaimResult {
            basis: basis(exp, c).into(),
            ..evaluate(c, table)
        })
        .collect()
}

/// Seven significant digits, without trailing zeros.
pub fn fmt_num(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    let digits = (6 - x.abs().log10().floor() as i32).clamp(0, 9) as usize;
    let s = format!("{x:.digits$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').into()
    } else {
        s
    }
}

fn io_err(path: &Path, what: &str, e: std::io::Error) -> CliError {
    CliError::Runtime(format!("{}: cannot {what}: {e}", path.display()))
}

/// Which code produced a result: the crate version and the git commit the binary was built
/// from (`-dirty-HASH` when it had uncommitted changes under `crates/` or `data/`; captured
/// by `build.rs`), or, built without git, a hash of this executable.
pub fn code_id() -> &'static str {
    static ID: OnceLock<String> = OnceLock::new();
    ID.get_or_init(|| {
        let version = env!("CARGO_PKG_VERSION");
        match env!("FABSIM_GIT_ID") {
            "" => {
                let exe = std::env::current_exe()
                    .and_then(std::fs::read)
                    .unwrap_or_default();
                let hash = cmd_sweep::fnv1a64_bytes(&exe);
                format!("{version} exe-{}", &hash[..12])
            }
            git => format!("{version} {git}"),
        }
    })
}

/// Which simulator produced a run: the crate version and a hash of the content of the sources
/// a run's result depends on (the simulator library, its data, `Cargo.lock`, and the CLI's
/// scenario loading and run execution; computed by `build.rs`).
pub fn sim_id() -> String {
    format!(
        "{} sim-{}",
        env!("CARGO_PKG_VERSION"),
        env!("FABSIM_SIM_ID")
    )
}

/// The sweeps of an experiment that run at the size of `ctx`.
fn sweeps_of<'a>(sweeps: &'a [Sweep], ctx: &Ctx) -> Vec<&'a Sweep> {
    sweeps
        .iter()
        .filter(|s| !ctx.quick || !s.full_only)
        .collect()
}

/// Plans each sweep into `dir/runs/NAME-SIZE-HASH/` (kept as it is when already planned) and
/// returns the directories and their run counts.
fn plan_sweeps(
    exp: &Experiment,
    sweeps: &[&Sweep],
    ctx: &Ctx,
    dir: &Path,
) -> Result<Vec<(PathBuf, u64)>, CliError> {
    let mut dirs = vec![];
    for s in sweeps {
        let mut set: Vec<String> = if ctx.quick { s.quick.clone() } else { vec![] };
        if let Some(n) = ctx.seeds {
            set.push(format!("run.seeds={n}"));
        }
        set.extend(ctx.set.iter().cloned());
        // Named by its definition and the simulator: an edited experiment or another
        // simulator gets a fresh directory instead of reusing the old results.
        let mut def = vec![s.scenario.to_string()];
        def.extend(set.iter().cloned());
        def.push(sim_id());
        let hash = cmd_sweep::fnv1a64(&def);
        let d = dir
            .join("runs")
            .join(format!("{}-{}-{}", s.name, ctx.size(), &hash[..8]));
        std::fs::create_dir_all(&d).map_err(|e| io_err(&d, "create directory", e))?;
        let source = format!("{} ({})", exp.id, s.name);
        let (_, runs, _) = cmd_sweep::plan_dir(&d, &s.scenario, &source, &set)?;
        dirs.push((d, runs));
    }
    Ok(dirs)
}

/// `--plan`: plans the sweeps of `exp` into `out/ID/runs/` without running them and prints
/// each sweep directory with its run counts, to be run by `fabsim sweep run` (locally or as a
/// Slurm array); `fabsim reproduce ID` then collects the results.
fn plan_only(exp: &Experiment, ctx: &Ctx, out: &Path) -> Result<(), CliError> {
    let Source::Sim(sweeps) = &exp.source else {
        outln!("{}: computed in-process (no sweep to plan)", exp.id);
        return Ok(());
    };
    let dir = out.join(exp.id);
    for (d, runs) in plan_sweeps(exp, &sweeps_of(sweeps, ctx), ctx, &dir)? {
        let missing = cmd_sweep::missing_runs(&d, runs).len();
        outln!("{}: {runs} runs, {missing} to run", d.display());
    }
    Ok(())
}

/// Runs (or resumes) every missing point of `exp` and returns its results table.
fn results(
    exp: &Experiment,
    ctx: &Ctx,
    dir: &Path,
    jobs: Option<usize>,
) -> Result<Table, CliError> {
    match &exp.source {
        Source::Compute(f) => {
            // A finished computation is kept, like a finished run, per build of fabsim.
            let code = cmd_sweep::fnv1a64(&[code_id().to_string()]);
            let path = dir.join(format!("computed-{}-{}.csv", ctx.size(), &code[..8]));
            if let Ok(text) = std::fs::read_to_string(&path) {
                return Ok(Table::from_csv(&text));
            }
            let t = f(ctx);
            write_output(&path, &t.to_csv())?;
            Ok(t)
        }
        Source::Sim(sweeps) => {
            let sweeps = sweeps_of(sweeps, ctx);
            let dirs = plan_sweeps(exp, &sweeps, ctx, dir)?;
            let todo: Vec<(usize, u64)> = dirs
                .iter()
                .enumerate()
                .flat_map(|(k, (d, runs))| {
                    cmd_sweep::missing_runs(d, *runs)
                        .into_iter()
                        .map(move |i| (k, i))
                })
                .collect();
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(jobs.unwrap_or(0))
                .build()
                .map_err(|e| CliError::Runtime(format!("thread pool: {e}")))?;
            let bar = progress_bar(todo.len());
            let failures: Vec<String> = pool.install(|| {
                todo.par_iter()
                    .filter_map(|&(k, i)| {
                        let o = cmd_sweep::run_one(&dirs[k].0, i);
                        bar.inc(1);
                        match o {
                            Outcome::Failed(m) => {
                                Some(format!("{}: run {i}: {m}", dirs[k].0.display()))
                            }
                            Outcome::Ran | Outcome::AlreadyDone => None,
                        }
                    })
                    .collect()
            });
            bar.finish_and_clear();
            if !failures.is_empty() {
                return Err(CliError::Runtime(failures.join("\n")));
            }
            let mut table = Table::default();
            for ((d, _), s) in dirs.iter().zip(&sweeps) {
                let (labels, reports) = cmd_sweep::load_results(d)?;
                let mut t = Table::from_csv(&crate::report_csv::csv(&labels, &reports));
                let keys: Vec<String> = labels
                    .first()
                    .map(|l| l.iter().map(|(k, _)| k.clone()).collect())
                    .unwrap_or_default();
                t.normalize_to_ideal(&keys);
                t.header.insert(0, cols::SWEEP.name().into());
                for r in &mut t.rows {
                    r.insert(0, s.name.clone());
                }
                table.append(t);
            }
            let schemes: Vec<String> = table.iter().map(|r| scheme_name(&r)).collect();
            table.header.push(cols::SCHEME.name().into());
            for (row, s) in table.rows.iter_mut().zip(schemes) {
                row.push(s);
            }
            Ok(table)
        }
    }
}

/// The load-balancing scheme of a run as the papers name it: the host scheme when one runs,
/// `4ofan` for pOfan with 4-port pipes (`Pofan` = pOfan with P-port pipes; 4 is
/// `switch.pipe_ports`' default), else the switch scheme.
fn scheme_name(r: &Row) -> String {
    match (r.get(cols::HOST_LB), r.get(cols::LB)) {
        (Some(h), _) if h != "none" => h.into(),
        (_, Some("pofan")) => format!("{}ofan", r.get(cols::key::PIPE_PORTS).unwrap_or("4")),
        (_, Some(lb)) => lb.into(),
        _ => "?".into(),
    }
}

/// Runs experiment `exp` into `out/ID/` and returns its claims' outcomes.
pub fn reproduce_one(
    exp: &Experiment,
    ctx: &Ctx,
    out: &Path,
    jobs: Option<usize>,
) -> Result<Vec<ClaimResult>, CliError> {
    let start = Instant::now();
    let dir = out.join(exp.id);
    std::fs::create_dir_all(&dir).map_err(|e| io_err(&dir, "create directory", e))?;
    let table = results(exp, ctx, &dir, jobs)?;
    let claims = evaluate_all(exp, &table);
    let svg = plot::render(exp, &table)
        .map_err(|e| CliError::Runtime(format!("{}: plot: {e}", exp.id)))?;
    write_output(&dir.join("results.csv"), &table.to_csv())?;
    let json =
        serde_json::to_string_pretty(&claims).map_err(|e| CliError::Runtime(e.to_string()))?;
    write_output(&dir.join("claims.json"), &json)?;
    write_output(&dir.join("plot.svg"), &svg)?;
    let wall = start.elapsed().as_secs_f64();
    write_output(
        &dir.join("report.md"),
        &report(exp, ctx, &table, &claims, wall),
    )?;
    let held = claims.iter().filter(|c| c.holds == Some(true)).count();
    outln!(
        "{}: {} runs/rows, {held}/{} claims hold, {:.1} s -> {}",
        exp.id,
        table.rows.len(),
        claims.len(),
        wall,
        dir.join("report.md").display()
    );
    Ok(claims)
}

fn claims_table(out: &mut String, claims: &[ClaimResult], id: Option<&str>) {
    let lead = if id.is_some() { "| experiment " } else { "" };
    let _ = writeln!(
        out,
        "{lead}| claim (as the paper states it) | paper | fabsim | tolerance | verdict | why |"
    );
    let _ = writeln!(
        out,
        "{}|---|---|---|---|---|---|",
        if id.is_some() { "|---" } else { "" }
    );
    for c in claims {
        let cell = |s: &str| s.replace('|', "\\|");
        let _ = writeln!(
            out,
            "{}| {} | {} {} | {} | {} | **{}**{} | {} |",
            id.map_or(String::new(), |i| format!("| {i} ")),
            cell(&c.claim),
            fmt_num(c.paper),
            c.unit,
            c.fabsim.map_or("-".into(), fmt_num),
            cell(&c.tolerance),
            c.verdict,
            if c.basis == "theory" { " (theory)" } else { "" },
            cell(&c.why)
        );
    }
}

/// What a simulation's runs took, summed over their rows (`perf.wall_s`, one core each):
/// the wall time of a `reproduce` that reused finished runs says nothing about them.
fn runs_took(table: &Table) -> String {
    let s: f64 = table.iter().filter_map(|r| r.num(cols::PERF_WALL_S)).sum();
    if s > 0.0 {
        format!(" (runs: {s:.0} s of single-core time in all)")
    } else {
        String::new()
    }
}

fn report(exp: &Experiment, ctx: &Ctx, table: &Table, claims: &[ClaimResult], wall: f64) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# {}: {} {}, {}\n",
        exp.id,
        exp.paper.name(),
        exp.figure,
        exp.title
    );
    let _ =
        writeln!(
        s,
        "Size: **{}** (`fabsim reproduce {}{}{}{}`), {} result rows{}, {:.1} s wall, fabsim {} (simulator sources {}).\n",
        ctx.size(),
        exp.id,
        if ctx.quick { " --quick" } else { "" },
        ctx.seeds.map_or(String::new(), |n| format!(" --seeds {n}")),
        ctx.set.iter().map(|a| format!(" --set {a}")).collect::<String>(),
        table.rows.len(),
        runs_took(table),
        wall,
        code_id(),
        env!("FABSIM_SIM_ID")
    );
    let common = match exp.paper {
        Paper::Ofan => ofan::COMMON_SETUP,
        Paper::Fastroute => fastroute::COMMON_SETUP,
    };
    let _ = writeln!(
        s,
        "Varies: {}\n\n## Setup\n\n{}\n\n{}\n",
        exp.varies,
        exp.setup.trim(),
        common
    );
    if let Source::Sim(sweeps) = &exp.source {
        for sw in sweeps {
            let _ = writeln!(
                s,
                "Sweep `{}` (full size):\n\n```toml\n{}\n```\n",
                sw.name,
                sw.scenario.trim()
            );
            if sw.full_only {
                let _ = writeln!(s, "Not run with `--quick`.\n");
            } else if !sw.quick.is_empty() {
                let _ = writeln!(s, "`--quick` overrides: `{}`\n", sw.quick.join("`, `"));
            }
        }
    }
    let _ = writeln!(s, "## Plot\n\n![{}](plot.svg)\n\n## Claims\n", exp.id);
    claims_table(&mut s, claims, None);
    let _ = writeln!(
        s,
        "\n{TOLERANCES}\n\nEvery run: `results.csv`; claims as JSON: `claims.json`."
    );
    s
}

/// Verdict counts of `claims`: (holds, differs, not comparable) over the claims that are
/// not theory, and (theory claims, theory claims that hold).
pub fn tally<'a>(claims: impl Iterator<Item = &'a ClaimResult>) -> ([usize; 3], [usize; 2]) {
    let (mut v, mut th) = ([0; 3], [0; 2]);
    for c in claims {
        if c.basis == "theory" {
            th[0] += 1;
            th[1] += usize::from(c.verdict == "holds");
            continue;
        }
        match c.verdict.as_str() {
            "holds" => v[0] += 1,
            "differs" => v[1] += 1,
            _ => v[2] += 1,
        }
    }
    (v, th)
}

/// `N claims: a hold, b differ, c not comparable (+ t theory)`.
fn tally_text(([h, d, n], [t, th]): ([usize; 3], [usize; 2])) -> String {
    let theory = if t > 0 {
        format!(" (and {t} theory: {th} hold)")
    } else {
        String::new()
    };
    format!(
        "{} claims: {h} hold, {d} differ, {n} not comparable{theory}",
        h + d + n
    )
}

fn list(exps: &[Experiment]) {
    for e in exps {
        outln!("{:<22} {} {}: {}", e.id, e.paper.name(), e.figure, e.title);
        outln!("{:<22} varies: {}", "", e.varies);
        for c in &e.claims {
            let paper = format!("{} {}", fmt_num(c.paper), c.unit);
            outln!(
                "{:<22}   claim: {} (paper {}, {})",
                "",
                c.text,
                paper.trim_end(),
                c.tol.describe(c.unit)
            );
        }
    }
}

/// An output directory that cannot be made is bad input, found before any run.
fn make_out(out: &Path) -> Result<(), CliError> {
    std::fs::create_dir_all(out).map_err(|e| {
        CliError::Usage(format!(
            "--out {}: cannot create directory: {e}",
            out.display()
        ))
    })
}

pub fn reproduce(args: &ReproduceArgs) -> Result<(), CliError> {
    let exps = registry();
    if args.list {
        list(&exps);
        return Ok(());
    }
    let id = args.id.as_deref().unwrap_or_default();
    let ctx = Ctx {
        quick: args.quick,
        seeds: args.seeds,
        set: args.set.clone(),
    };
    if id != "all" {
        let exp = exps.iter().find(|e| e.id == id).ok_or_else(|| {
            let ids: Vec<&str> = exps.iter().map(|e| e.id).collect();
            CliError::Usage(format!(
                "unknown experiment {id:?}; allowed: all, {}",
                ids.join(", ")
            ))
        })?;
        make_out(&args.out)?;
        if args.plan {
            return plan_only(exp, &ctx, &args.out);
        }
        reproduce_one(exp, &ctx, &args.out, args.jobs)?;
        return Ok(());
    }
    make_out(&args.out)?;
    if args.plan {
        return exps.iter().try_for_each(|e| plan_only(e, &ctx, &args.out));
    }
    let start = Instant::now();
    let mut index = String::new();
    let mut all = vec![];
    let mut failed = vec![];
    for e in &exps {
        let t = Instant::now();
        // One failing experiment does not stop the others; `all` fails at the end.
        match reproduce_one(e, &ctx, &args.out, args.jobs) {
            Ok(claims) => all.push((e, claims, t.elapsed().as_secs_f64())),
            Err(CliError::Usage(m) | CliError::Runtime(m)) => {
                eprintln!("{}: failed: {m}", e.id);
                failed.push(e.id);
            }
        }
    }
    let total = tally(all.iter().flat_map(|(_, c, _)| c));
    let _ = writeln!(
        index,
        "# fabsim reproduce all ({})\n\n{} experiments, {}; {:.0} s wall.\n",
        ctx.size(),
        all.len(),
        tally_text(total),
        start.elapsed().as_secs_f64()
    );
    for paper in [Paper::Ofan, Paper::Fastroute] {
        let t = tally(
            all.iter()
                .filter(|(e, _, _)| e.paper == paper)
                .flat_map(|(_, c, _)| c),
        );
        let _ = writeln!(index, "- {}: {}", paper.name(), tally_text(t));
    }
    let _ = writeln!(index, "\n{TOLERANCES}\n");
    let _ = writeln!(
        index,
        "| experiment | paper | figure | wall s | claims held |\n|---|---|---|---|---|"
    );
    for (e, c, w) in &all {
        let held = c.iter().filter(|c| c.holds == Some(true)).count();
        let _ = writeln!(
            index,
            "| [{0}]({0}/report.md) | {1} | {2} | {w:.1} | {held}/{3} |",
            e.id,
            e.paper.name(),
            e.figure,
            c.len()
        );
    }
    let _ = writeln!(index, "\n## Claims\n");
    for (e, c, _) in &all {
        let mut part = String::new();
        claims_table(&mut part, c, Some(e.id));
        // One header for the whole index.
        let skip = if index.contains("| experiment | claim") {
            2
        } else {
            0
        };
        for line in part.lines().skip(skip) {
            let _ = writeln!(index, "{line}");
        }
    }
    if !failed.is_empty() {
        let _ = writeln!(index, "\nFailed (rerun to resume): {}", failed.join(", "));
    }
    let path = args.out.join("report.md");
    write_output(&path, &index)?;
    outln!("{} -> {}", tally_text(total), path.display());
    if failed.is_empty() {
        Ok(())
    } else {
        Err(CliError::Runtime(format!(
            "{} experiments failed: {}",
            failed.len(),
            failed.join(", ")
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tolerances_decide_verdicts() {
        assert!(Tol::Abs(1.0).holds(99.0, 98.2));
        assert!(!Tol::Abs(1.0).holds(99.0, 97.9));
        assert!(Tol::Below.holds(95.0, 94.9) && !Tol::Below.holds(95.0, 95.0));
        assert!(Tol::Above.holds(11.0, 11.5) && !Tol::Above.holds(11.0, 10.0));
        assert!(Tol::Factor(10.0).holds(28.0, 2.9) && !Tol::Factor(10.0).holds(28.0, 2.7));
        assert!(Tol::AtMost(0.5).holds(64.0, 64.5) && !Tol::AtMost(0.5).holds(64.0, 64.6));
        assert!(Tol::AtLeast(0.5).holds(16.0, 15.5) && !Tol::AtLeast(0.5).holds(16.0, 15.4));
    }

    /// Every claim can fail: on its experiment's synthetic table (numbers that agree with
    /// the paper) it holds, on the table its `contra` rewrites (numbers that contradict the
    /// paper) it differs. A claim cannot be added without its `contra` (a required field),
    /// and a `contra` that does not contradict fails here. `Theory` claims (closed forms)
    /// must not change with the table; `Unmeasured` ones are never comparable.
    #[test]
    fn every_claim_can_fail() {
        let mut failures = vec![];
        let (mut tested, mut theory) = (0, 0);
        for e in registry() {
            let agree = (e.synthetic)();
            for c in &e.claims {
                let on = |t: &Table| evaluate(c, t);
                let (verdict, want) = match c.contra {
                    Contra::Table(contra) => {
                        let mut against = agree.clone();
                        contra(&mut against);
                        tested += 1;
                        let (a, d) = (on(&agree), on(&against));
                        if a.verdict != "holds" {
                            failures.push(format!("{}: {}: agreeing table: {a:?}", e.id, c.text));
                        }
                        (d, "differs")
                    }
                    Contra::Theory => {
                        theory += 1;
                        (on(&agree), "holds")
                    }
                    Contra::Unmeasured => (on(&agree), "not comparable"),
                };
                if verdict.verdict != want {
                    failures.push(format!("{}: {}: want {want}: {verdict:?}", e.id, c.text));
                }
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
        assert!(tested > 100 && theory >= 1, "{tested} {theory}");
    }

    #[test]
    fn claims_are_evaluated_from_the_table() {
        let t = Table::from_csv("lb,x\nofan,3\nofan,5\n");
        let mut c = Claim {
            text: "x is 4",
            paper: 4.0,
            unit: "",
            tol: Tol::Abs(0.5),
            fabsim: |t| t.mean(&[(cols::LB, "ofan")], |r| r.num(Col::derived("x"))),
            differs: "",
            contra: Contra::Unmeasured,
        };
        let r = evaluate(&c, &t);
        assert_eq!(
            (r.fabsim, r.holds, r.verdict.as_str()),
            (Some(4.0), Some(true), "holds")
        );
        c.paper = 6.0;
        let r = evaluate(&c, &t);
        assert_eq!((r.holds, r.verdict.as_str()), (Some(false), "differs"));
        assert!(r.why.contains("outside"), "{}", r.why);
        c.fabsim = |t| t.mean(&[(cols::LB, "ar")], |r| r.num(Col::derived("x")));
        let r = evaluate(&c, &t);
        assert_eq!((r.holds, r.verdict.as_str()), (None, "not comparable"));
        assert!(r.why.contains("lb=ar"));
    }

    /// Two consecutive runs into fresh directories give the same verdicts and numbers, on a
    /// subset of `all --quick` with one seed: simulations (fabsim is deterministic), a
    /// simulation run in-process (Fig. 10), the power model and the control plane's solver
    /// scaling and ratios (Figs. 20 and 22: on operation counts). Only the claims on an
    /// absolute wall-clock runtime ([`TIMING`], a factor around the paper's printed time) are
    /// left out: they measure the machine, and their verdicts are as stable as their distance
    /// to the tolerance.
    #[test]
    fn verdicts_are_the_same_in_two_runs() {
        let ctx = Ctx {
            quick: true,
            seeds: Some(1),
            set: vec![],
        };
        let ids = [
            "ofan-bound",
            "fastroute-fig9",
            "fastroute-fig10",
            "fastroute-fig2",
            "fastroute-table2",
            "fastroute-fig20",
            "fastroute-fig22",
        ];
        let exps = registry();
        let run = |n: u32| -> Vec<(String, String, Option<f64>)> {
            let out =
                std::env::temp_dir().join(format!("fabsim-stable-{}-{n}", std::process::id()));
            let _ = std::fs::remove_dir_all(&out);
            let mut v = vec![];
            for id in ids {
                let e = exps.iter().find(|e| e.id == id).expect("registered");
                let results = reproduce_one(e, &ctx, &out, Some(1)).expect("runs");
                for (claim, c) in e.claims.iter().zip(results) {
                    if !matches!(claim.tol, Tol::Factor(_)) {
                        v.push((format!("{id}: {}", c.claim), c.verdict, c.fabsim));
                    }
                }
            }
            let _ = std::fs::remove_dir_all(&out);
            v
        };
        let first = run(1);
        assert!(first.len() >= 27, "{first:?}");
        // The solver claims are among those compared: both slopes and both RDC ratios.
        for id in ["fastroute-fig20", "fastroute-fig22"] {
            let n = first.iter().filter(|(c, _, _)| c.starts_with(id)).count();
            assert!(n >= 2, "{id}: {n} claims compared");
        }
        assert_eq!(first, run(2));
    }

    /// `results/full/experiments.txt`, which `results/full/make_index.py` reads to name the
    /// experiments without a full-size result, is the registry's ids in `--list` order; every
    /// folder of committed results is a registered experiment, and so is every folder of
    /// unfinished runs under `results/full/pending/`, which is never one already finished.
    #[test]
    fn full_results_list_every_experiment() {
        let full = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../results/full");
        let text = std::fs::read_to_string(full.join("experiments.txt")).expect("committed");
        let ids: Vec<&str> = registry().iter().map(|e| e.id).collect();
        assert_eq!(
            text.split_whitespace().collect::<Vec<_>>(),
            ids,
            "regenerate with: fabsim reproduce --list | grep -v '^ ' | cut -d' ' -f1"
        );
        let folders = |dir: &Path| -> Vec<String> {
            let Ok(entries) = std::fs::read_dir(dir) else {
                return Vec::new();
            };
            entries
                .map(|e| e.expect("readable").path())
                .filter(|p| p.is_dir())
                .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
                .collect()
        };
        for name in folders(&full).iter().filter(|n| *n != "pending") {
            assert!(ids.contains(&name.as_str()), "results/full/{name}");
        }
        for name in folders(&full.join("pending")) {
            assert!(ids.contains(&name.as_str()), "results/full/pending/{name}");
            assert!(
                !full.join(&name).exists(),
                "results/full/pending/{name}: finished, so delete it"
            );
        }
    }

    #[test]
    fn code_id_names_the_version_and_the_build() {
        let id = code_id();
        let rest = id
            .strip_prefix(concat!(env!("CARGO_PKG_VERSION"), " "))
            .unwrap_or_else(|| panic!("{id}"));
        assert!(rest.len() >= 12, "{id}");
        assert_eq!(id, code_id());
        let sim = sim_id();
        let hash = sim
            .strip_prefix(concat!(env!("CARGO_PKG_VERSION"), " sim-"))
            .unwrap_or_else(|| panic!("{sim}"));
        assert!(
            hash.len() == 16 && hash.chars().all(|c| c.is_ascii_hexdigit()),
            "{sim}"
        );
    }

    #[test]
    fn registry_ids_are_unique_and_every_experiment_has_claims() {
        let exps = registry();
        let mut ids: Vec<&str> = exps.iter().map(|e| e.id).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), exps.len());
        assert!(exps.iter().all(|e| !e.claims.is_empty()));
    }

    /// Claims read swept keys by typed handles ([`cols::key`]); each must be a key some
    /// sweep varies (a results column) at `--quick` size, or the claims reading it could
    /// never match a row.
    #[test]
    fn every_key_handle_is_a_swept_key() {
        let mut swept = std::collections::BTreeSet::new();
        for e in registry() {
            if let Source::Sim(sweeps) = &e.source {
                for s in sweeps {
                    let specs = crate::run::scenario(Some(&s.scenario), e.id, &s.quick)
                        .and_then(|sc| Ok(sc.expand()?))
                        .unwrap_or_else(|_| panic!("{} {}", e.id, s.name));
                    swept.extend(specs.into_iter().flat_map(|sp| sp.label).map(|l| l.0));
                }
            }
        }
        for k in cols::key::ALL {
            assert!(swept.contains(k.name()), "{} is swept nowhere", k.name());
        }
    }

    #[test]
    /// Every sweep expands at `--quick` size; at full size it expands too, or is refused by
    /// the up-front cost limits only (the full FSDP iteration: estimated at hundreds of GiB).
    fn every_sweep_parses_at_both_sizes() {
        let mut refused = Vec::new();
        for e in registry() {
            if let Source::Sim(sweeps) = &e.source {
                for s in sweeps {
                    for quick in [false, true] {
                        let set: Vec<String> = if quick { s.quick.clone() } else { vec![] };
                        let specs = fabsim::scenario::Scenario::parse(&s.scenario, e.id).and_then(
                            |mut sc| {
                                set.iter().try_for_each(|a| sc.set(a))?;
                                sc.expand()
                            },
                        );
                        match specs {
                            Ok(_) => {}
                            Err(err) if !quick && err.key.starts_with("run.max_") => {
                                refused.push(e.id)
                            }
                            Err(err) => panic!("{} {} quick={quick}: {err}", e.id, s.name),
                        }
                    }
                }
            }
        }
        assert_eq!(refused, ["ofan-fsdp", "ofan-fsdp"], "refused at full size");
    }
}

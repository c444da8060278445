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
mod start;
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
    /// Re-evaluate the claims of results already in --out (DIR/ID/results.csv, e.g.
    /// `--out results/full`) with this build's claims and tolerances, without running
    /// anything: rewrites claims.json, plot.svg and report.md, which names the build and
    /// simulator of the runs and of the re-scoring (the runs are kept even when the
    /// simulator's sources have changed since).
    #[arg(long, conflicts_with_all = ["plan", "quick", "seeds", "set", "jobs", "no_readings"])]
    pub rescore: bool,
    /// Run only each experiment's primary reading, not its other readings (a full-size
    /// experiment then costs one reading's runs); the report names the readings left out.
    #[arg(long)]
    pub no_readings: bool,
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
#[derive(Clone)]
pub struct Sweep {
    pub name: String,
    pub scenario: String,
    pub quick: Vec<String>,
    /// `--set` overrides at every size, after `quick` (a [`Reading`]'s).
    pub set: Vec<String>,
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
    /// Simulate each distinct run once ([`distinct_runs`]; the CLI always does, a test
    /// compares with simulating every run).
    pub dedupe: bool,
    /// `--no-readings`: only the primary reading's sweeps.
    pub no_readings: bool,
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
    /// A computation outside the simulator (solver timings, an in-process simulation), one
    /// row per point.
    Compute(fn(&Ctx) -> Table),
    /// A closed form of the paper's own parameters (Fastroute's power and radix model), one
    /// row per point: its claims recompute the paper's arithmetic, so they are `theory`,
    /// tallied apart from measurements.
    ClosedForm(fn(&Ctx) -> Table),
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
/// wording; each kind's width is stated once, in [`tolerances`] and the constants below.
#[derive(Clone, Copy, Debug)]
pub enum Tol {
    /// |fabsim - paper| <= the given absolute difference: a printed number (half a unit of
    /// its last digit) or an 'about' (the kinds below).
    Abs(f64),
    /// fabsim < paper: 'under', 'less than', or a stated direction (< 0).
    Below,
    /// fabsim > paper: 'over', 'more than', or a stated direction (> 0).
    Above,
    /// fabsim <= paper + the printed limit's rounding: 'within', a bound.
    AtMost(f64),
    /// fabsim >= paper - the printed limit's rounding: 'at least'.
    AtLeast(f64),
    /// paper / 2 <= fabsim <= paper + the printed limit's rounding: 'up to X' where X is a
    /// peak the paper reaches (a range's end, a best case), so a number far below it does not
    /// hold.
    UpTo(f64),
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

/// How each kind of tolerance was chosen, how noise and premises decide a verdict, and what
/// is tallied apart (report.md of `reproduce all` and of each experiment).
pub fn tolerances() -> String {
    format!(
        "\
Tolerances follow each claim's wording, one rule per kind. A printed number is compared \
within half a unit of its last printed digit (its rounding). 'About', 'around', 'roughly' \
and 'within about' X% of a percentage: ± 1 pp (the paper rounds to whole percent, and one \
more point allows for seeds; 'within about 1% of Ideal' is 99 ± 1, i.e. 98-100%). 'Roughly \
half': ± 5 pp. 'Around N orders of magnitude': log10 within ± 0.5 (the value rounds to N). \
Asymptotic classes (Θ(1), Θ(√m), Θ(m), Θ(p^3)) are fitted log-log slopes within ± 0.15 of \
the exponent: classes 0.5 apart keep a gap of 0.2 in which neither holds. Printed whole \
multiples ('3x', '15x') are ± 0.5. 'Within', 'at least' and bounds are one-sided limits, \
allowing only the rounding of the printed limit; 'up to X' where X is a peak the paper \
reaches (a range's end, a best case) is two-sided: X / 2 <= fabsim <= X + its rounding, \
so a number far below the peak does not hold. 'Under', 'over', 'more than' and stated \
directions ('grows', 'beats': a difference > 0 or < 0) are strict. 'Versus A and B' \
checks both (the worse of the two). Absolute solver runtimes (another machine, another \
implementation) are within a factor 2, measured as medians of repeated solves; a solver's \
scaling and runtime ratios are computed on its count of elementary operations (inner-loop \
iterations: the same on every machine and run). Noise: a claim's margin is the distance of \
fabsim's number from its tolerance's edge (positive inside; for a factor, in log space), and \
where the results have a seed column its standard error (SE) is a delete-one-seed \
jackknife: the claim evaluated on the results without seed s, for each of the n seeds, SE = \
sqrt((n-1)/n Σ (θ_s - θ̄)^2). A verdict whose margin is within one SE is `inconclusive` \
(its why says on which side it falls); with one seed the noise is not estimated and the \
verdict stays plain. A claim whose premise did not occur in the run is `not comparable`, \
not `holds`: congestion control acted only if it changed AR's or REPS's mean CCT by at \
least {cc}% against the runs without it (every congestion-control claim states the measured \
change and its margin; a change within one SE of {cc}% makes the claim `inconclusive`). \
Claims labelled `theory` evaluate a closed form (of fabsim's theory, or the paper's own \
arithmetic on its own parameters: Fastroute's power and radix model) and are tallied apart \
from simulation and measured results.",
        cc = fmt_num(ofan::CC_ACTS_PCT)
    )
}

impl Tol {
    fn holds(self, paper: f64, fabsim: f64) -> bool {
        match self {
            Tol::Abs(d) => (fabsim - paper).abs() <= d,
            Tol::Below => fabsim < paper,
            Tol::Above => fabsim > paper,
            Tol::AtMost(r) => fabsim <= paper + r,
            Tol::AtLeast(r) => fabsim >= paper - r,
            Tol::UpTo(r) => fabsim >= paper / 2.0 && fabsim <= paper + r,
            Tol::Factor(f) => fabsim >= paper / f && fabsim <= paper * f,
        }
    }

    /// The scale margins and their noise are measured on: log for a factor, else linear.
    fn scale(self, fabsim: f64) -> f64 {
        match self {
            Tol::Factor(_) => fabsim.ln(),
            _ => fabsim,
        }
    }

    /// How far `fabsim` is inside the tolerance (negative: outside), on [`Tol::scale`]: the
    /// distance to the nearer edge.
    fn margin(self, paper: f64, fabsim: f64) -> f64 {
        match self {
            Tol::Abs(d) => d - (fabsim - paper).abs(),
            Tol::Below => paper - fabsim,
            Tol::Above => fabsim - paper,
            Tol::AtMost(r) => paper + r - fabsim,
            Tol::AtLeast(r) => fabsim - (paper - r),
            Tol::UpTo(r) => (fabsim - paper / 2.0).min(paper + r - fabsim),
            Tol::Factor(f) => f.ln() - (fabsim.ln() - paper.ln()).abs(),
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
            Tol::UpTo(r) => format!("paper / 2 <= fabsim <= paper{}", plus(r, "+")),
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

/// Another reading of an experiment's setup (a choice the paper leaves open, or a modelling
/// variant such as another host stack): every sweep runs again with `set` added, as sweep
/// `PREFIX-NAME`; the claims are judged on those rows apart, and the report shows where a
/// verdict differs from the primary reading's. Plots show the primary reading.
pub struct Reading {
    pub prefix: &'static str,
    /// What the reading is and why it is run (markdown, one sentence or two).
    pub about: &'static str,
    pub set: &'static [&'static str],
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
    /// Other readings of the setup, each run and judged beside the primary one.
    pub readings: Vec<Reading>,
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
    /// Whether fabsim's number is within the tolerance (`None` when there is none); for an
    /// `inconclusive` verdict, the side it falls on.
    pub holds: Option<bool>,
    pub unit: String,
    pub tolerance: String,
    /// `holds`, `differs`, `inconclusive` (the margin or the claim's premise is within the
    /// seeds' standard error) or `not comparable`.
    pub verdict: String,
    /// `simulation`, `computation` (solver timings, an in-process simulation) or `theory` (a
    /// closed form: fabsim's theory or the paper's own arithmetic; not a simulation result).
    pub basis: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub why: String,
    /// How far fabsim's number is inside the tolerance (negative: outside), in the claim's
    /// unit (a factor: in natural log).
    pub margin: Option<f64>,
    /// The standard error of the margin over seeds (a delete-one-seed jackknife), when the
    /// results have two or more seeds.
    pub se: Option<f64>,
    /// What the claim's premises measured (congestion control acting), and why the noise
    /// was not estimated, if it was not.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub note: String,
}

/// A premise of a claim, as measured on the results (see [`premise`]).
struct Premise {
    text: String,
    /// Within the seeds' standard error of its threshold.
    uncertain: bool,
}

/// What is being evaluated on this thread: the premises [`premise`] reports go to the claim
/// evaluated on the whole results (`Claim`); a resample of the jackknife only measures the
/// claim's number (`Resample`: premises are judged on the whole results).
enum Evaluating {
    Nothing,
    Claim(Vec<Premise>),
    Resample,
}

thread_local! {
    static EVALUATING: std::cell::RefCell<Evaluating> =
        const { std::cell::RefCell::new(Evaluating::Nothing) };
}

/// Runs `f` as `mode` (restoring the previous one) and returns its value and the premises
/// it reported.
fn evaluating<T>(mode: Evaluating, f: impl FnOnce() -> T) -> (T, Vec<Premise>) {
    let prev = EVALUATING.with(|e| e.replace(mode));
    let v = f();
    let mode = EVALUATING.with(|e| e.replace(prev));
    match mode {
        Evaluating::Claim(p) => (v, p),
        _ => (v, vec![]),
    }
}

/// A claim's premise (an event the claim presupposes, such as congestion control acting),
/// checked on the results `t` and stated in the claim's result. `margin(t)` is how far the
/// premise is met, in `unit` (>= 0: it occurred); `stated` says what was measured. A premise
/// that clearly did not occur is an error (the claim is `not comparable`, with the
/// statement); one within the seeds' standard error of its threshold makes the claim
/// `inconclusive`; otherwise the statement becomes the claim's `note`. In a resample of the
/// jackknife it is not checked (it is judged once, on all seeds).
pub fn premise(
    t: &Table,
    unit: &str,
    margin: impl Fn(&Table) -> Result<f64, String>,
    stated: impl FnOnce() -> Result<String, String>,
) -> Result<(), String> {
    if EVALUATING.with(|e| matches!(*e.borrow(), Evaluating::Resample)) {
        return Ok(());
    }
    let m = margin(t)?;
    let noise = jackknife(t, &margin);
    let uncertain = noise.covers(m);
    let mut text = format!("{}; premise margin {}", stated()?, noise.margin(m, unit));
    if uncertain {
        text += ": within one standard error of its threshold, so whether the premise \
                 occurred is uncertain";
    } else if m < 0.0 {
        return Err(format!(
            "{text}: the claim's premise did not occur, so the claim would be decided without it"
        ));
    }
    EVALUATING.with(|e| {
        if let Evaluating::Claim(p) = &mut *e.borrow_mut() {
            p.push(Premise { text, uncertain });
        }
    });
    Ok(())
}

/// States `text` (what was measured beside the claim's number, such as whether a workload's
/// phases completed) in the claim's note, without touching its verdict.
pub fn note(text: String) {
    EVALUATING.with(|e| {
        if let Evaluating::Claim(p) = &mut *e.borrow_mut() {
            p.push(Premise {
                text,
                uncertain: false,
            });
        }
    });
}

/// The noise of a number computed from a results table, over its seeds.
enum Noise {
    /// The table has no seed column (a computation).
    NoSeeds,
    /// One seed: no spread to estimate.
    OneSeed,
    /// A resample had no number.
    Failed(String),
    /// The delete-one-seed jackknife's standard error over `seeds` seeds.
    Se { se: f64, seeds: usize },
}

impl Noise {
    fn se(&self) -> Option<f64> {
        match *self {
            Noise::Se { se, .. } => Some(se),
            _ => None,
        }
    }

    /// Whether margin `m` is within one standard error (a positive one) of 0.
    fn covers(&self, m: f64) -> bool {
        self.se().is_some_and(|se| se > 0.0 && m.abs() <= se)
    }

    /// Why the noise was not estimated (empty when it was, or when there are no seeds).
    fn remark(&self) -> String {
        match self {
            Noise::OneSeed => "1 seed: noise not estimated".into(),
            Noise::Failed(why) => format!("noise not estimated: {why}"),
            Noise::NoSeeds | Noise::Se { .. } => String::new(),
        }
    }

    /// `+1.2 pp, SE 0.3 over 10 seeds` (or `+1.2 pp (1 seed: noise not estimated)`).
    fn margin(&self, m: f64, unit: &str) -> String {
        let m = format!("{} {unit}", fmt_signed(m));
        let m = m.trim_end();
        match self {
            Noise::Se { se, seeds } => format!("{m}, SE {} over {seeds} seeds", fmt_sig(*se)),
            Noise::NoSeeds => m.into(),
            Noise::OneSeed | Noise::Failed(_) => format!("{m} ({})", self.remark()),
        }
    }
}

/// The delete-one-seed jackknife of `f` over the seeds of `t`: `f` on `t` without seed s, for
/// each of its n seeds, SE = sqrt((n-1)/n Σ (θ_s - θ̄)^2). Resamples run as
/// [`Evaluating::Resample`].
fn jackknife(t: &Table, f: impl Fn(&Table) -> Result<f64, String>) -> Noise {
    let Some(seeds) = t.distinct(cols::SEED) else {
        return Noise::NoSeeds;
    };
    if seeds.len() < 2 {
        return Noise::OneSeed;
    }
    let mut theta = vec![];
    for s in &seeds {
        let sub = t.filtered(|r| r.get(cols::SEED) != Some(s.as_str()));
        match evaluating(Evaluating::Resample, || f(&sub)).0 {
            Ok(v) if v.is_finite() => theta.push(v),
            Ok(v) => return Noise::Failed(format!("without seed {s}: {v}")),
            Err(e) => return Noise::Failed(format!("without seed {s}: {e}")),
        }
    }
    let n = theta.len() as f64;
    let mean = theta.iter().sum::<f64>() / n;
    let ss: f64 = theta.iter().map(|x| (x - mean).powi(2)).sum();
    Noise::Se {
        se: ((n - 1.0) / n * ss).sqrt(),
        seeds: seeds.len(),
    }
}

/// Evaluates `claim` on `table`.
pub fn evaluate(claim: &Claim, table: &Table) -> ClaimResult {
    let (value, premises) = evaluating(Evaluating::Claim(vec![]), || (claim.fabsim)(table));
    // A premise checked twice (by a claim and a helper it calls) is stated once.
    let mut notes: Vec<String> = vec![];
    for p in &premises {
        if !notes.contains(&p.text) {
            notes.push(p.text.clone());
        }
    }
    let mut r = ClaimResult {
        claim: claim.text.into(),
        paper: claim.paper,
        fabsim: None,
        holds: None,
        unit: claim.unit.into(),
        tolerance: claim.tol.describe(claim.unit),
        verdict: "not comparable".into(),
        basis: String::new(),
        why: String::new(),
        margin: None,
        se: None,
        note: String::new(),
    };
    match value {
        Ok(v) if v.is_finite() => {
            let (tol, paper) = (claim.tol, claim.paper);
            let holds = tol.holds(paper, v);
            let margin = tol.margin(paper, v);
            let noise = jackknife(table, |t| Ok(tol.scale((claim.fabsim)(t)?)));
            let near = noise.covers(margin);
            let premise_uncertain = premises.iter().any(|p| p.uncertain);
            let side = if holds { "inside" } else { "outside" };
            let unit = if matches!(tol, Tol::Factor(_)) {
                "(natural log)"
            } else {
                claim.unit
            };
            r.why = if near {
                format!(
                    "fabsim's {} is {side} the tolerance ({}) of the paper's {} by a margin of \
                     {}: within one standard error, so noise could move it",
                    fmt_num(v),
                    r.tolerance,
                    fmt_num(paper),
                    noise.margin(margin, unit)
                )
            } else if premise_uncertain {
                format!(
                    "fabsim's {} is {side} the tolerance ({}) of the paper's {}, but the \
                     claim's premise is within noise (note)",
                    fmt_num(v),
                    r.tolerance,
                    fmt_num(paper)
                )
            } else if !holds {
                let reason = if claim.differs.is_empty() {
                    "no reason identified yet"
                } else {
                    claim.differs
                };
                format!(
                    "fabsim's {} is outside the tolerance ({}) of the paper's {}: {reason}",
                    fmt_num(v),
                    r.tolerance,
                    fmt_num(paper)
                )
            } else {
                String::new()
            };
            r.verdict = if near || premise_uncertain {
                "inconclusive"
            } else if holds {
                "holds"
            } else {
                "differs"
            }
            .into();
            // Said once: a premise's note already names the same missing noise.
            let remark = noise.remark();
            if !notes.iter().any(|n| n.contains(&remark)) {
                notes.push(remark);
            }
            (r.fabsim, r.holds, r.margin, r.se) = (Some(v), Some(holds), Some(margin), noise.se());
        }
        Ok(v) => r.why = format!("fabsim's number is {v}"),
        Err(why) => r.why = why,
    }
    r.note = notes
        .into_iter()
        .filter(|n| !n.is_empty())
        .collect::<Vec<_>>()
        .join("; ");
    r
}

/// Where a claim's number comes from: `theory`, `simulation` or `computation`.
pub fn basis(exp: &Experiment, claim: &Claim) -> &'static str {
    match (claim.contra, &exp.source) {
        (Contra::Theory, _) | (_, Source::ClosedForm(_)) => "theory",
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

/// A signed number to three significant digits (`+1.23`, `-0.0456`).
fn fmt_signed(x: f64) -> String {
    let s = fmt_sig(x);
    if x >= 0.0 {
        format!("+{s}")
    } else {
        s
    }
}

/// Three significant digits.
fn fmt_sig(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    let digits = (2 - x.abs().log10().floor() as i32).clamp(0, 9) as usize;
    format!("{x:.digits$}")
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

/// The sweeps of an experiment that run at the size of `ctx`: its own, then each again per
/// [`Reading`].
fn sweeps_of(exp: &Experiment, ctx: &Ctx) -> Vec<Sweep> {
    let Source::Sim(sweeps) = &exp.source else {
        return vec![];
    };
    let own: Vec<&Sweep> = sweeps
        .iter()
        .filter(|s| !ctx.quick || !s.full_only)
        .collect();
    let mut v: Vec<Sweep> = own.iter().map(|&s| s.clone()).collect();
    for r in exp.readings.iter().filter(|_| !ctx.no_readings) {
        v.extend(own.iter().map(|s| {
            Sweep {
                name: format!("{}-{}", r.prefix, s.name),
                set: s
                    .set
                    .iter()
                    .cloned()
                    .chain(r.set.iter().map(|x| x.to_string()))
                    .collect(),
                ..(*s).clone()
            }
        }));
    }
    v
}

/// The rows of `table` from the runs of `reading` (`None`: the primary reading), their
/// sweep named as in the experiment (without the reading's prefix).
fn reading_rows(exp: &Experiment, table: &Table, reading: Option<&Reading>) -> Table {
    let of = |r: &Row| {
        let sweep = r.get(cols::SWEEP).unwrap_or_default();
        exp.readings
            .iter()
            .position(|x| sweep.starts_with(&format!("{}-", x.prefix)))
    };
    let want = reading.and_then(|w| exp.readings.iter().position(|x| std::ptr::eq(x, w)));
    let mut t = table.filtered(|r| of(r) == want);
    if let (Some(w), Some(i)) = (
        reading,
        t.header.iter().position(|h| h == cols::SWEEP.name()),
    ) {
        for row in &mut t.rows {
            row[i] = row[i][w.prefix.len() + 1..].to_string();
        }
    }
    t
}

/// Plans each sweep into `dir/runs/NAME-SIZE-HASH/` (kept as it is when already planned) and
/// returns the directories and their run counts.
fn plan_sweeps(
    exp: &Experiment,
    sweeps: &[Sweep],
    ctx: &Ctx,
    dir: &Path,
) -> Result<Vec<(PathBuf, u64)>, CliError> {
    let mut dirs = vec![];
    for s in sweeps {
        let mut set: Vec<String> = if ctx.quick { s.quick.clone() } else { vec![] };
        set.extend(s.set.iter().cloned());
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
    let Source::Sim(_) = &exp.source else {
        outln!("{}: computed in-process (no sweep to plan)", exp.id);
        return Ok(());
    };
    let dir = out.join(exp.id);
    for (d, runs) in plan_sweeps(exp, &sweeps_of(exp, ctx), ctx, &dir)? {
        let missing = cmd_sweep::missing_runs(&d, runs).len();
        outln!("{}: {runs} runs, {missing} to run", d.display());
    }
    Ok(())
}

/// A run of an experiment: its sweep's index and its index in the sweep.
type RunId = (usize, u64);

/// A run that gets another's result: (the run, the run simulated for it).
type CopiedRun = (RunId, RunId);

/// Splits the runs to do into the distinct ones and the copies: each run whose parameters
/// equal those of an earlier run on the list, with that run.
fn distinct_runs(
    dirs: &[(std::path::PathBuf, u64)],
    todo: Vec<RunId>,
) -> Result<(Vec<RunId>, Vec<CopiedRun>), CliError> {
    let mut first: Vec<(RunId, fabsim::params::SimParams)> = vec![];
    let mut copies = vec![];
    for (k, i) in todo {
        let p = cmd_sweep::spec_params(&dirs[k].0, i).map_err(CliError::Runtime)?;
        match first.iter().find(|(_, q)| *q == p) {
            Some(&(from, _)) => copies.push(((k, i), from)),
            None => first.push(((k, i), p)),
        }
    }
    Ok((first.into_iter().map(|(r, _)| r).collect(), copies))
}

/// Runs (or resumes) every missing point of `exp` and returns its results table.
fn results(
    exp: &Experiment,
    ctx: &Ctx,
    dir: &Path,
    jobs: Option<usize>,
) -> Result<Table, CliError> {
    match &exp.source {
        Source::Compute(f) | Source::ClosedForm(f) => {
            // A finished computation is kept, like a finished run, per build of fabsim.
            let code = cmd_sweep::fnv1a64(&[code_id().to_string()]);
            let path = dir.join(format!("computed-{}-{}.csv", ctx.size(), &code[..8]));
            // Reused only whole: its checksum (written after it) must match, else a
            // truncated or edited cache is computed again.
            let sum = path.with_extension("csv.fnv");
            if let Ok(text) = std::fs::read_to_string(&path) {
                let want = std::fs::read_to_string(&sum).unwrap_or_default();
                if want.trim() == cmd_sweep::fnv1a64_bytes(text.as_bytes()) {
                    return Ok(Table::from_csv(&text));
                }
                eprintln!(
                    "{}: does not match its checksum {}: computing it again",
                    path.display(),
                    sum.display()
                );
            }
            let t = f(ctx);
            let csv = t.to_csv();
            write_output(&path, &csv)?;
            write_output(&sum, &cmd_sweep::fnv1a64_bytes(csv.as_bytes()))?;
            Ok(t)
        }
        Source::Sim(_) => {
            let sweeps = sweeps_of(exp, ctx);
            let dirs = plan_sweeps(exp, &sweeps, ctx, dir)?;
            // Held while the runs go on: another `reproduce` or `sweep run --all` on these
            // sweeps is refused.
            let _locks = dirs
                .iter()
                .map(|(d, _)| cmd_sweep::DirLock::take(d, true))
                .collect::<Result<Vec<_>, _>>()?;
            let todo: Vec<(usize, u64)> = dirs
                .iter()
                .enumerate()
                .flat_map(|(k, (d, runs))| {
                    cmd_sweep::missing_runs(d, *runs)
                        .into_iter()
                        .map(move |i| (k, i))
                })
                .collect();
            // A run whose parameters equal an earlier one's (its architecture ignores the
            // keys they differ in) is not simulated again: it gets that run's result.
            let (todo, copies) = if ctx.dedupe {
                distinct_runs(&dirs, todo)?
            } else {
                (todo, vec![])
            };
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
            for ((k, i), (from_k, from_i)) in copies {
                cmd_sweep::copy_result(&dirs[from_k].0, from_i, &dirs[k].0, i)?;
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
    let scored = score(exp, &table)?;
    write_output(&dir.join("results.csv"), &table.to_csv())?;
    let wall = start.elapsed().as_secs_f64();
    let size =
        format!(
        "Size: **{}** (`fabsim reproduce {}{}{}{}{}`), {} result rows{}, {:.1} s wall, fabsim {} \
         (simulator sources {}).",
        ctx.size(),
        exp.id,
        if ctx.quick { " --quick" } else { "" },
        if ctx.no_readings { " --no-readings" } else { "" },
        ctx.seeds.map_or(String::new(), |n| format!(" --seeds {n}")),
        ctx.set.iter().map(|a| format!(" --set {a}")).collect::<String>(),
        table.rows.len(),
        runs_took(&table),
        wall,
        code_id(),
        env!("FABSIM_SIM_ID")
    );
    write_claims(exp, &dir, &scored, &size)?;
    outln!(
        "{}: {} runs/rows, {}, {:.1} s -> {}",
        exp.id,
        table.rows.len(),
        tally_text(tally(scored.claims.iter())),
        wall,
        dir.join("report.md").display()
    );
    Ok(scored.claims)
}

/// An experiment's claims judged on its results: the primary reading's, each other
/// [`Reading`]'s, and the plot (of the primary reading).
struct Scored {
    claims: Vec<ClaimResult>,
    readings: Vec<ReadingResult>,
    /// The readings without results (`--no-readings`).
    not_run: Vec<&'static str>,
    svg: String,
    /// The report's section on throughput by flow start time ([`start::section`]).
    by_start: String,
}

/// The claims judged under one other [`Reading`] (`readings.json`).
#[derive(Serialize)]
struct ReadingResult {
    reading: String,
    about: String,
    claims: Vec<ClaimResult>,
}

fn score(exp: &Experiment, table: &Table) -> Result<Scored, CliError> {
    let primary = reading_rows(exp, table, None);
    let svg = plot::render(exp, &primary)
        .map_err(|e| CliError::Runtime(format!("{}: plot: {e}", exp.id)))?;
    let (mut readings, mut not_run) = (vec![], vec![]);
    for r in &exp.readings {
        let rows = reading_rows(exp, table, Some(r));
        if rows.rows.is_empty() {
            not_run.push(r.prefix);
            continue;
        }
        readings.push(ReadingResult {
            reading: r.prefix.into(),
            about: r.about.into(),
            claims: evaluate_all(exp, &rows),
        });
    }
    Ok(Scored {
        claims: evaluate_all(exp, &primary),
        readings,
        not_run,
        svg,
        by_start: start::section(exp, &primary),
    })
}

/// Writes an experiment's claims.json, readings.json (when it has other readings), plot.svg
/// and report.md (`provenance`: the lines naming how its results were produced).
fn write_claims(
    exp: &Experiment,
    dir: &Path,
    scored: &Scored,
    provenance: &str,
) -> Result<(), CliError> {
    fn json<T: Serialize>(v: &T) -> Result<String, CliError> {
        serde_json::to_string_pretty(v).map_err(|e| CliError::Runtime(e.to_string()))
    }
    write_output(&dir.join("claims.json"), &json(&scored.claims)?)?;
    if !scored.readings.is_empty() {
        write_output(&dir.join("readings.json"), &json(&scored.readings)?)?;
    }
    write_output(&dir.join("plot.svg"), &scored.svg)?;
    write_output(&dir.join("report.md"), &report(exp, provenance, scored))
}

/// `--rescore`: evaluates the claims of `exp` on the results an earlier `reproduce` left in
/// `out/ID/results.csv`, without running anything, and rewrites its claims.json, plot.svg
/// and report.md. The report keeps the earlier report's `Size:` line (the runs' command,
/// build and simulator) and adds one naming this build and whether its simulator's sources
/// are the runs' (they may differ: the runs are not repeated).
pub fn rescore_one(exp: &Experiment, out: &Path) -> Result<Vec<ClaimResult>, CliError> {
    let dir = out.join(exp.id);
    let read = |f: &str| {
        let p = dir.join(f);
        std::fs::read_to_string(&p).map_err(|e| io_err(&p, "read (--rescore needs it)", e))
    };
    let table = Table::from_csv(&read("results.csv")?);
    let old = read("report.md")?;
    let ran = old
        .lines()
        .find(|l| l.starts_with("Size: "))
        .ok_or_else(|| {
            CliError::Runtime(format!(
                "{}: no `Size:` line naming the build that produced the runs",
                dir.join("report.md").display()
            ))
        })?;
    let sim = env!("FABSIM_SIM_ID");
    let same = ran.contains(&format!("simulator sources {sim})"));
    let scored = score(exp, &table)?;
    let provenance = format!(
        "{ran}\n\nClaims re-scored from this results.csv, without rerunning, by `fabsim reproduce \
         {} --rescore`, fabsim {} (simulator sources {sim}: {}).",
        exp.id,
        code_id(),
        if same {
            "the runs'"
        } else {
            "not the runs' (above): the simulator changed since, and the runs were not \
             repeated with it"
        }
    );
    write_claims(exp, &dir, &scored, &provenance)?;
    outln!(
        "{}: re-scored {} rows, {} -> {}",
        exp.id,
        table.rows.len(),
        tally_text(tally(scored.claims.iter())),
        dir.join("report.md").display()
    );
    Ok(scored.claims)
}

fn claims_table(out: &mut String, claims: &[ClaimResult], id: Option<&str>) {
    let lead = if id.is_some() { "| experiment " } else { "" };
    let _ = writeln!(
        out,
        "{lead}| claim (as the paper states it) | paper | fabsim | tolerance | margin (SE) | \
         verdict | why | note |"
    );
    let _ = writeln!(
        out,
        "{}|---|---|---|---|---|---|---|---|",
        if id.is_some() { "|---" } else { "" }
    );
    for c in claims {
        let cell = |s: &str| s.replace('|', "\\|");
        let margin = match (c.margin, c.se) {
            (Some(m), Some(se)) => format!("{} ({})", fmt_signed(m), fmt_sig(se)),
            (Some(m), None) => fmt_signed(m),
            (None, _) => "-".into(),
        };
        let _ = writeln!(
            out,
            "{}| {} | {} {} | {} | {} | {margin} | **{}**{} | {} | {} |",
            id.map_or(String::new(), |i| format!("| {i} ")),
            cell(&c.claim),
            fmt_num(c.paper),
            c.unit,
            c.fabsim.map_or("-".into(), fmt_num),
            cell(&c.tolerance),
            c.verdict,
            if c.basis == "theory" { " (theory)" } else { "" },
            cell(&c.why),
            cell(&c.note)
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

fn report(exp: &Experiment, provenance: &str, scored: &Scored) -> String {
    let claims = &scored.claims;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# {}: {} {}, {}\n\n{provenance}\n",
        exp.id,
        exp.paper.name(),
        exp.figure,
        exp.title
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
    for r in &scored.readings {
        readings_section(&mut s, &r.reading, &r.about, claims, &r.claims);
    }
    if !scored.not_run.is_empty() {
        let _ = writeln!(
            s,
            "\nNot run here (`--no-readings`), so not judged: the reading{} `{}`.",
            if scored.not_run.len() > 1 { "s" } else { "" },
            scored.not_run.join("`, `")
        );
    }
    let _ = writeln!(
        s,
        "\n{}\n\nEvery run: `results.csv`; claims as JSON: `claims.json`{}.",
        tolerances(),
        if scored.readings.is_empty() {
            ""
        } else {
            ", under the other readings: `readings.json`"
        }
    );
    s + &scored.by_start
}

/// The report's section on another reading: the claims whose verdict it moves, in full.
fn readings_section(
    s: &mut String,
    name: &str,
    about: &str,
    primary: &[ClaimResult],
    claims: &[ClaimResult],
) {
    let moved: Vec<ClaimResult> = claims
        .iter()
        .zip(primary)
        .filter(|(c, p)| c.verdict != p.verdict)
        .map(|(c, p)| ClaimResult {
            claim: format!("{} (primary reading: {})", c.claim, p.verdict),
            ..c.clone()
        })
        .collect();
    let _ = writeln!(
        s,
        "\n### Reading `{name}`\n\n{about} Its runs are the sweeps named `{name}-*` in \
         `results.csv`. It moves {} of {} verdicts{}",
        moved.len(),
        claims.len(),
        if moved.is_empty() { "." } else { ":\n" }
    );
    if !moved.is_empty() {
        claims_table(s, &moved, None);
    }
}

/// The verdicts tallied, in this order (theory claims apart).
const VERDICTS: [&str; 4] = ["holds", "differs", "inconclusive", "not comparable"];

/// Verdict counts of `claims`: per [`VERDICTS`] over the claims that are not theory, and
/// (theory claims, theory claims that hold).
pub fn tally<'a>(claims: impl Iterator<Item = &'a ClaimResult>) -> ([usize; 4], [usize; 2]) {
    let (mut v, mut th) = ([0; 4], [0; 2]);
    for c in claims {
        if c.basis == "theory" {
            th[0] += 1;
            th[1] += usize::from(c.verdict == "holds");
            continue;
        }
        let i = VERDICTS.iter().position(|v| *v == c.verdict);
        v[i.expect("a verdict of VERDICTS")] += 1;
    }
    (v, th)
}

/// `N claims: a hold, b differ, c inconclusive, d not comparable (+ t theory)`.
fn tally_text(([h, d, i, n], [t, th]): ([usize; 4], [usize; 2])) -> String {
    let theory = if t > 0 {
        format!(" (and {t} theory: {th} hold)")
    } else {
        String::new()
    };
    format!(
        "{} claims: {h} hold, {d} differ, {i} inconclusive, {n} not comparable{theory}",
        h + d + i + n
    )
}

fn list(exps: &[Experiment]) {
    for e in exps {
        outln!("{:<22} {} {}: {}", e.id, e.paper.name(), e.figure, e.title);
        outln!("{:<22} varies: {}", "", e.varies);
        for r in &e.readings {
            outln!("{:<22} reading {}: {}", "", r.prefix, r.set.join(", "));
        }
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

/// `all --rescore`: re-scores every experiment with results in `out` (see [`rescore_one`])
/// and prints the tallies; the experiments without results are named, not an error.
fn rescore_all(exps: &[Experiment], out: &Path) -> Result<(), CliError> {
    let (have, missing): (Vec<&Experiment>, Vec<&Experiment>) = exps
        .iter()
        .partition(|e| out.join(e.id).join("results.csv").is_file());
    if have.is_empty() {
        return Err(CliError::Usage(format!(
            "--rescore: no experiment has results in {}",
            out.display()
        )));
    }
    let mut all = vec![];
    for e in have {
        all.push((e, rescore_one(e, out)?));
    }
    for paper in [Paper::Ofan, Paper::Fastroute] {
        let t = tally(
            all.iter()
                .filter(|(e, _)| e.paper == paper)
                .flat_map(|(_, c)| c),
        );
        outln!("{}: {}", paper.name(), tally_text(t));
    }
    outln!(
        "{} experiments re-scored: {}",
        all.len(),
        tally_text(tally(all.iter().flat_map(|(_, c)| c)))
    );
    if !missing.is_empty() {
        let ids: Vec<&str> = missing.iter().map(|e| e.id).collect();
        outln!("without results in {}: {}", out.display(), ids.join(", "));
    }
    Ok(())
}

pub fn reproduce(args: &ReproduceArgs) -> Result<(), CliError> {
    let exps = registry();
    let id = args.id.as_deref().unwrap_or_default();
    let find = || {
        exps.iter().find(|e| e.id == id).ok_or_else(|| {
            let ids: Vec<&str> = exps.iter().map(|e| e.id).collect();
            CliError::Usage(format!(
                "unknown experiment {id:?}; allowed: all, {}",
                ids.join(", ")
            ))
        })
    };
    if args.list {
        // `--list ID` lists that experiment alone.
        match id {
            "" | "all" => list(&exps),
            _ => list(std::slice::from_ref(find()?)),
        }
        return Ok(());
    }
    let ctx = Ctx {
        quick: args.quick,
        seeds: args.seeds,
        set: args.set.clone(),
        dedupe: true,
        no_readings: args.no_readings,
    };
    if id != "all" {
        let exp = find()?;
        if args.rescore {
            return rescore_one(exp, &args.out).map(drop);
        }
        make_out(&args.out)?;
        if args.plan {
            return plan_only(exp, &ctx, &args.out);
        }
        reproduce_one(exp, &ctx, &args.out, args.jobs)?;
        return Ok(());
    }
    if args.rescore {
        return rescore_all(&exps, &args.out);
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
    let _ = writeln!(index, "\n{}\n", tolerances());
    let _ = writeln!(
        index,
        "| experiment | paper | figure | wall s | claims | holds | differs | inconclusive | not \
         comparable | theory |\n|---|---|---|---|---|---|---|---|---|---|"
    );
    for (e, c, w) in &all {
        let ([h, d, i, n], [t, _]) = tally(c.iter());
        let _ = writeln!(
            index,
            "| [{0}]({0}/report.md) | {1} | {2} | {w:.1} | {3} | {h} | {d} | {i} | {n} | {t} |",
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
        // 'Up to 64x' is reached: a ratio of 1 (or anything under half the peak) differs.
        assert!(Tol::UpTo(0.5).holds(64.0, 64.5) && !Tol::UpTo(0.5).holds(64.0, 64.6));
        assert!(Tol::UpTo(0.5).holds(64.0, 32.0) && !Tol::UpTo(0.5).holds(64.0, 1.0));
    }

    /// The margin is the distance to the tolerance's nearer edge, positive inside, and its
    /// sign agrees with `holds` away from the edge.
    #[test]
    fn margins_measure_the_distance_to_the_edge() {
        let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
        assert!(close(Tol::Abs(1.0).margin(99.0, 98.5), 0.5));
        assert!(close(Tol::Below.margin(1.0, 1.25), -0.25));
        assert!(close(Tol::Above.margin(11.0, 10.94), -0.06));
        assert!(close(Tol::AtMost(0.5).margin(64.0, 60.0), 4.5));
        assert!(close(Tol::AtLeast(0.5).margin(16.0, 15.0), -0.5));
        assert!(close(Tol::UpTo(0.5).margin(64.0, 40.0), 8.0));
        assert!(close(Tol::Factor(2.0).margin(28.0, 56.0), 0.0));
        assert!(close(
            Tol::Factor(2.0).margin(28.0, 14.0 / 2.0),
            -(2f64.ln())
        ));
        for tol in [Tol::Abs(1.0), Tol::Below, Tol::UpTo(0.5), Tol::Factor(2.0)] {
            for v in [0.5, 3.0, 10.0, 31.0, 40.0, 64.2, 70.0] {
                assert_eq!(tol.holds(64.0, v), tol.margin(64.0, v) > 0.0, "{tol:?} {v}");
            }
        }
    }

    /// A claim of the mean of `x` over the rows of scheme `ofan`.
    fn mean_claim(paper: f64, tol: Tol) -> Claim {
        Claim {
            text: "x",
            paper,
            unit: "",
            tol,
            fabsim: |t| t.mean(&[(cols::LB, "ofan")], |r| r.num(Col::derived("x"))),
            differs: "",
            contra: Contra::Unmeasured,
        }
    }

    /// A margin within the seeds' jackknife standard error is `inconclusive`, saying on
    /// which side it falls; outside it the verdict is plain; one seed estimates no noise.
    #[test]
    fn verdicts_within_the_noise_are_inconclusive() {
        let t = Table::from_csv("lb,seed,x\nofan,1,10\nofan,2,12\nofan,3,14\nar,1,0\n");
        // Mean 12; without each seed 13, 12, 11: SE = sqrt(2/3 * 2) = 1.1547.
        let r = evaluate(&mean_claim(11.5, Tol::Above), &t);
        assert_eq!(r.verdict, "inconclusive", "{r:?}");
        assert_eq!((r.holds, r.margin), (Some(true), Some(0.5)));
        assert!((r.se.unwrap() - (4.0f64 / 3.0).sqrt()).abs() < 1e-12);
        assert!(r.why.contains("inside") && r.why.contains("SE 1.15 over 3 seeds"));
        let r = evaluate(&mean_claim(12.5, Tol::Above), &t);
        assert_eq!((r.verdict.as_str(), r.holds), ("inconclusive", Some(false)));
        assert!(r.why.contains("outside"), "{}", r.why);
        let r = evaluate(&mean_claim(9.0, Tol::Above), &t);
        assert_eq!((r.verdict.as_str(), r.why.as_str()), ("holds", ""));
        assert_eq!(
            evaluate(&mean_claim(15.0, Tol::Above), &t).verdict,
            "differs"
        );
        let one = t.filtered(|r| r.get(cols::SEED) == Some("1"));
        let r = evaluate(&mean_claim(9.5, Tol::Above), &one);
        assert_eq!((r.verdict.as_str(), r.se), ("holds", None));
        assert_eq!(r.note, "1 seed: noise not estimated");
        // Without a seed column (a computation) there is nothing to say.
        let computed = Table::from_csv("lb,x\nofan,10\n");
        let r = evaluate(&mean_claim(9.5, Tol::Above), &computed);
        assert_eq!((r.verdict.as_str(), r.note.as_str()), ("holds", ""));
    }

    /// A results table of congestion control `cc` against none: AR's and REPS's CCT change
    /// by `ar`% and `reps`% (the last seed's by `last`% instead), OFAN's by 2%.
    fn cc_table(ar: f64, reps: f64, last: f64) -> Table {
        let mut csv = String::from("scheme,cc,seed,cct_us,lower_bound_us,cct_inflation\n");
        for seed in 1..=4 {
            for (s, pct) in [("ar", ar), ("reps", reps), ("ofan", 2.0)] {
                let pct = if seed == 4 && s != "ofan" { last } else { pct };
                let cct = 100.0 * (1.0 + pct / 100.0);
                csv += &format!("{s},none,{seed},100,90,0.1\n{s},x,{seed},{cct},90,0.1\n");
            }
        }
        Table::from_csv(&csv)
    }

    /// The congestion-control premise: stated with its margin whether the claim holds or
    /// not, not comparable when the control clearly did nothing, inconclusive when its
    /// change is within a standard error of the threshold.
    #[test]
    fn congestion_control_claims_state_whether_it_acted() {
        let claim = Claim {
            text: "OFAN's CCT increases by under 5% under x",
            paper: 5.0,
            unit: "%",
            tol: Tol::Below,
            fabsim: |t| {
                ofan::cc_acts(t, "x")?;
                t.mean(&[(cols::SCHEME, "ofan"), (cols::CC, "x")], |r| {
                    Some(r.num(cols::CCT_US)? - 100.0)
                })
            },
            differs: "",
            contra: Contra::Unmeasured,
        };
        let r = evaluate(&claim, &cc_table(250.0, 240.0, 250.0));
        assert_eq!(r.verdict, "holds", "{r:?}");
        assert!(
            r.note
                .starts_with("x changed AR's mean CCT by +250.0% and REPS's by +242.5%"),
            "{}",
            r.note
        );
        assert!(
            r.note
                .ends_with("premise margin +240 pp, SE 0 over 4 seeds"),
            "{}",
            r.note
        );
        let r = evaluate(&claim, &cc_table(0.1, 0.2, 0.3));
        assert_eq!(r.verdict, "not comparable", "{r:?}");
        assert!(r.why.contains("premise did not occur"), "{}", r.why);
        // REPS at +9.5% on three seeds and +12.5% on the fourth: 10.25% on average, the
        // margin (+0.25 pp) within its SE (0.75 pp).
        let r = evaluate(&claim, &cc_table(0.0, 9.5, 12.5));
        assert_eq!(r.verdict, "inconclusive", "{r:?}");
        assert!(r.note.contains("within one standard error"), "{}", r.note);
        assert!(r.why.contains("premise is within noise"), "{}", r.why);
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
            dedupe: true,
            no_readings: false,
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

    /// The registered experiment `id` (for tests of this module and its children).
    pub(super) fn experiment(id: &str) -> Experiment {
        registry()
            .into_iter()
            .find(|e| e.id == id)
            .expect("registered")
    }

    /// A reading's sweeps carry its keys after the experiment's, and its rows come back
    /// apart from the primary ones, named as in the experiment.
    #[test]
    fn readings_run_again_with_their_keys_and_are_judged_apart() {
        let e = experiment("fastroute-fig17");
        let ctx = Ctx {
            quick: true,
            ..Ctx::default()
        };
        let sweeps = sweeps_of(&e, &ctx);
        let names: Vec<&str> = sweeps.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["phase", "fabsim-phase", "quarter-phase"]);
        assert_eq!(sweeps[2].set, ["workload.phase_fill=0.25"]);
        let primary_only = Ctx {
            no_readings: true,
            ..ctx.clone()
        };
        assert_eq!(sweeps_of(&e, &primary_only).len(), 1);
        let t = Table::from_csv(
            "sweep,arch,thrp_pct\nphase,ideal,100\nfabsim-phase,ideal,100\n\
             quarter-phase,fastroute,80\nphase,fastroute,90\n",
        );
        let primary = reading_rows(&e, &t, None);
        assert_eq!(primary.rows.len(), 2);
        let quarter = reading_rows(&e, &t, Some(&e.readings[1]));
        assert_eq!(quarter.rows, [["phase", "fastroute", "80"]]);
    }

    /// Runs whose parameters are equal (the keys they differ in are ignored by their
    /// architecture: Ideal's downtime, here) are simulated once, and the results are the same
    /// bytes as when every run is simulated (but the wall-clock columns).
    #[test]
    fn identical_runs_are_simulated_once_with_the_same_results() {
        let e = experiment("fastroute-fig19");
        let results = |dedupe: bool| {
            let ctx = Ctx {
                quick: true,
                seeds: Some(1),
                dedupe,
                ..Ctx::default()
            };
            let out =
                std::env::temp_dir().join(format!("fabsim-dedupe-{}-{dedupe}", std::process::id()));
            let _ = std::fs::remove_dir_all(&out);
            let dirs =
                plan_sweeps(&e, &sweeps_of(&e, &ctx), &ctx, &out.join(e.id)).expect("planned");
            let todo: Vec<(usize, u64)> = dirs
                .iter()
                .enumerate()
                .flat_map(|(k, (_, runs))| (0..*runs).map(move |i| (k, i)))
                .collect();
            let distinct = distinct_runs(&dirs, todo.clone()).expect("specs").0.len();
            let t = results(&e, &ctx, &out.join(e.id), Some(1)).expect("runs");
            let _ = std::fs::remove_dir_all(&out);
            // Everything but the wall-clock columns (`perf.*`), which measure the machine.
            let keep: Vec<bool> = t.header.iter().map(|h| !h.starts_with("perf.")).collect();
            let cells = |r: &Vec<String>| -> Vec<String> {
                r.iter()
                    .zip(&keep)
                    .filter(|(_, k)| **k)
                    .map(|(c, _)| c.clone())
                    .collect()
            };
            let rows: Vec<Vec<String>> = std::iter::once(&t.header)
                .chain(&t.rows)
                .map(cells)
                .collect();
            (todo.len(), distinct, rows)
        };
        let (runs, distinct, with) = results(true);
        assert!(distinct < runs, "{distinct} of {runs} runs distinct");
        assert_eq!(with, results(false).2);
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

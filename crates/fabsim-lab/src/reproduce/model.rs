//! The registry's model: an experiment (what it varies, its sweeps or computation, its
//! plot, readings and claims), a claim (the paper's number, a tolerance, fabsim's number as
//! a function of the results table) and the tolerances.

use super::cols::Col;
use super::report::fmt_num;
use super::table::{Metric, Row, Table};
use super::{fastroute, ofan};

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
    /// Simulate each distinct run once (`runner::distinct_runs`; the CLI always does, a test
    /// compares with simulating every run).
    pub dedupe: bool,
    /// `--no-readings`: only the primary reading's sweeps.
    pub no_readings: bool,
}

impl Ctx {
    pub(super) fn size(&self) -> String {
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

/// `leak(format!(..))`: the texts of a claim family, built once per member, live as long as
/// the registry (a few hundred bytes per call).
pub fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

/// 'About / around / roughly X%' of a percentage (and 'within about 1%'): ± 1 pp.
pub const ABOUT_PCT: Tol = Tol::Abs(1.0);
/// 'Roughly half': ± 5 pp.
pub const ROUGHLY_HALF: Tol = Tol::Abs(5.0);
/// 'Around N orders of magnitude', on log10 values: ± 0.5 (the value rounds to N).
pub const DECADES: Tol = Tol::Abs(0.5);
/// An asymptotic class (Θ(m^a), on a growth exponent fitted with an offset): ± 0.25 of the
/// exponent a, the nearest of classes 0.5 apart.
pub const SLOPE: Tol = Tol::Abs(0.25);
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
more point allows for seeds); 'within about 1% of Ideal' and 'closely matches Ideal' are \
one-sided, at least 99 - 1 = 98% (a switch faster than the ideal one is no miss). 'Roughly \
half': ± 5 pp. 'Around N orders of magnitude': log10 within ± 0.5 (the value rounds to N). \
Asymptotic classes (Θ(1), Θ(√m), Θ(m), Θ(p^3)) are growth exponents s of the least-squares \
fit y = a + b x^s (a, b >= 0: a constant part, as a standing backlog or a solver's set-up, \
plus a growing one; a plain log-log slope bends towards 0 under a constant part) within \
± 0.25 of the class's exponent: the paper names classes 0.5 apart (Θ(1), Θ(√m), Θ(m)) and \
a fitted exponent is read as the class it is nearest to; a gap in which neither holds would \
turn a four-point fit's noise into a difference. Printed whole \
multiples ('3x', '15x') are ± 0.5. 'Within', 'at least' and bounds are one-sided limits, \
allowing only the rounding of the printed limit; 'up to X' where X is a peak the paper \
reaches (a range's end, a best case) is two-sided: X / 2 <= fabsim <= X + its rounding, \
so a number far below the peak does not hold. 'Under', 'below', 'over', 'more than' and \
'exceed' a number the paper prints are one-sided limits too, allowing its rounding ('over \
11%': at least 10.5), never a strict limit at the paper's own value; stated directions \
('grows', 'beats': a difference > 0 or < 0), comparisons of two measured numbers (a ratio \
> 1) and limits that are fabsim's reading of a word ('more than half', 'mostly') are \
strict. 'Versus A and B' \
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
    pub(super) fn holds(self, paper: f64, fabsim: f64) -> bool {
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
    pub(super) fn scale(self, fabsim: f64) -> f64 {
        match self {
            Tol::Factor(_) => fabsim.ln(),
            _ => fabsim,
        }
    }

    /// How far `fabsim` is inside the tolerance (negative: outside), on [`Tol::scale`]: the
    /// distance to the nearer edge.
    pub(super) fn margin(self, paper: f64, fabsim: f64) -> f64 {
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

    pub(super) fn describe(self, unit: &str) -> String {
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
#[derive(Clone, Copy)]
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

/// Another reading of one claim: the paper's sentence judged on the runs of a setup it
/// leaves open (another message size, DCTCP rule), with the claim's paper number and
/// tolerance. The claim itself is the primary reading, fixed from the paper's words before
/// any verdict; the others are shown beside it and not tallied.
pub struct ClaimReading {
    /// The claim's text ([`Claim::text`]).
    pub of: &'static str,
    /// What this reading sets ("4 MiB, DCTCP as RFC 8257").
    pub reading: &'static str,
    pub fabsim: fn(&Table) -> Result<f64, String>,
}

/// Another reading of every claim of an experiment on the same runs: `table` rewrites the
/// results (another metric in the primary's column) and each claim whose number it moves is
/// shown judged on that, beside the primary reading and not tallied.
pub struct TableReading {
    /// What the reading measures ("aggregate goodput").
    pub reading: &'static str,
    pub table: fn(&Table) -> Table,
}

/// A control of a claim: a scheme or setting of the experiment's own runs that must fail
/// it. `table` rewrites the results so that the control stands where the claim reads its
/// subject (e.g. [`Table::stand_in`]: RSQ's rows as OFAN's), and the claim is evaluated
/// on that. A claim that holds while its control holds too does not discriminate: a wrong
/// simulator would pass it as well.
pub struct Control {
    /// The claim's text ([`Claim::text`]).
    pub claim: &'static str,
    /// The control, as the report names it ("RSQ (destination-oblivious) as OFAN").
    pub what: &'static str,
    pub table: fn(&Table) -> Table,
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
    /// A control reading, named as the Controls table shows it: its setting must fail every
    /// claim that has a [`Control`] (e.g. Fastroute with its controller frozen must not match
    /// Ideal); the report shows its verdicts beside the claims' own controls.
    pub control: Option<&'static str>,
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
    /// Controls of comparative claims (at most one per claim), judged on the same rows.
    pub controls: Vec<Control>,
    /// Other readings of single claims, judged on the same rows beside them.
    pub claim_readings: Vec<ClaimReading>,
    /// Other readings of every claim on the same rows (another metric).
    pub table_readings: Vec<TableReading>,
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

//! Verdicts: a claim evaluated on a results table (its premises, the seed noise by
//! jackknife), and the tallies.

use serde::Serialize;

use super::cols;
use super::model::{Claim, Contra, Experiment, Source, Tol};
use super::report::{fmt_num, fmt_sig, fmt_signed, VERDICTS};
use super::table::Table;

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
    /// The claim evaluated with its control in the subject's place ([`Control`](super::model::Control)).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub control: Option<ControlResult>,
    /// The claim judged under each control reading ([`super::Reading::control`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reading_controls: Vec<ControlResult>,
    /// The claim under its other readings ([`ClaimReading`](super::model::ClaimReading)), not tallied.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub readings: Vec<ReadingResult>,
}

/// A claim under another reading.
#[derive(Clone, Debug, Serialize)]
pub struct ReadingResult {
    pub reading: String,
    pub fabsim: Option<f64>,
    pub verdict: String,
    pub margin: Option<f64>,
    pub se: Option<f64>,
}

/// What a claim's control gave: the claim discriminates when the control `differs`, does
/// not when it `holds`, and is not known to otherwise (`None`: inconclusive, not comparable).
#[derive(Clone, Debug, Serialize)]
pub struct ControlResult {
    pub what: String,
    pub fabsim: Option<f64>,
    pub verdict: String,
    pub discriminates: Option<bool>,
}

/// A premise of a claim, as measured on the results (see [`premise`]).
pub(super) struct Premise {
    text: String,
    /// Within the seeds' standard error of its threshold.
    uncertain: bool,
}

/// What is being evaluated on this thread: the premises [`premise`] reports go to the claim
/// evaluated on the whole results (`Claim`); a resample of the jackknife only measures the
/// claim's number (`Resample`: premises are judged on the whole results).
pub(super) enum Evaluating {
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
pub(super) fn evaluating<T>(mode: Evaluating, f: impl FnOnce() -> T) -> (T, Vec<Premise>) {
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
pub(super) enum Noise {
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
    pub(super) fn margin(&self, m: f64, unit: &str) -> String {
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
pub(super) fn jackknife(t: &Table, f: impl Fn(&Table) -> Result<f64, String>) -> Noise {
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

/// Why the runs of `t` cannot stand for the paper's: some did not complete every flow of a
/// workload that runs until its flows complete (all but Fastroute's patterns, which run for
/// `run.duration_us` by design), so their queues, utilization and times are those of a run
/// cut short (by `run.duration_us`) or stalled. `None` for a table without the flow counts
/// (a computation, a synthetic table).
pub(super) fn unfinished(t: &Table) -> Option<String> {
    use fabsim::workload::fastroute::PatternKind;
    let (mut cut, mut runs, mut done, mut flows) = (0, 0, 0.0, 0.0);
    for r in t.iter() {
        let (Some(c), Some(n)) = (r.num(cols::FLOWS_COMPLETED), r.num(cols::FLOWS_TOTAL)) else {
            continue;
        };
        if r.get(cols::WORKLOAD)
            .is_some_and(|w| PatternKind::from_name(w).is_some())
        {
            continue;
        }
        runs += 1;
        if c < n {
            cut += 1;
            (done, flows) = (done + c, flows + n);
        }
    }
    (cut > 0).then(|| {
        format!(
            "{cut} of {runs} runs did not complete their flows ({done} of their {flows} flows \
             done: cut short by run.duration_us, or stalled): what they measured is not the \
             finished workload the claim is about"
        )
    })
}

/// Evaluates `claim` on `table`.
pub fn evaluate(claim: &Claim, table: &Table) -> ClaimResult {
    let (value, premises) = evaluating(Evaluating::Claim(vec![]), || (claim.fabsim)(table));
    // Runs that did not finish make any number of theirs not comparable.
    let value = match unfinished(table) {
        Some(why) => Err(why),
        None => value,
    };
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
        control: None,
        reading_controls: vec![],
        readings: vec![],
    };
    match value {
        Ok(v) if v.is_finite() => score(&mut r, &mut notes, claim, table, v, &premises),
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

/// Scores `claim`'s finite number `v` from `table` into `r`: verdict, why, margin and
/// standard error; `notes` gets the noise remark unless a premise's note already has it.
fn score(
    r: &mut ClaimResult,
    notes: &mut Vec<String>,
    claim: &Claim,
    table: &Table,
    v: f64,
    premises: &[Premise],
) {
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
        .map(|c| {
            let mut r = ClaimResult {
                basis: basis(exp, c).into(),
                ..evaluate(c, table)
            };
            if let Some(k) = exp.controls.iter().find(|k| k.claim == c.text) {
                let by = evaluate(c, &(k.table)(table));
                r.control = Some(control_result(&mut r, k.what, &by));
            }
            for a in exp.claim_readings.iter().filter(|a| a.of == c.text) {
                let on = evaluate(
                    &Claim {
                        fabsim: a.fabsim,
                        ..*c
                    },
                    table,
                );
                r.readings.push(ReadingResult {
                    reading: a.reading.into(),
                    fabsim: on.fabsim,
                    verdict: on.verdict,
                    margin: on.margin,
                    se: on.se,
                });
            }
            for m in &exp.table_readings {
                let on = evaluate(c, &(m.table)(table));
                if on.fabsim != r.fabsim || on.verdict != r.verdict {
                    r.readings.push(ReadingResult {
                        reading: m.reading.into(),
                        fabsim: on.fabsim,
                        verdict: on.verdict,
                        margin: on.margin,
                        se: on.se,
                    });
                }
            }
            r
        })
        .collect()
}

/// What control `what` gave claim result `r` (`by`: the claim judged with the control in
/// its subject's place); notes in `r` when a claim that holds does not discriminate.
pub(super) fn control_result(r: &mut ClaimResult, what: &str, by: &ClaimResult) -> ControlResult {
    let discriminates = match by.verdict.as_str() {
        "differs" => Some(true),
        "holds" => Some(false),
        _ => None,
    };
    if r.verdict == "holds" && discriminates != Some(true) {
        let sep = if r.note.is_empty() { "" } else { "; " };
        r.note = match discriminates {
            Some(_) => format!(
                "{}{sep}not discriminating: its control ({what}) holds too",
                r.note
            ),
            None => format!(
                "{}{sep}its control ({what}) is {}: whether the claim discriminates is not \
                 known",
                r.note, by.verdict
            ),
        };
    }
    ControlResult {
        what: what.into(),
        fabsim: by.fabsim,
        verdict: by.verdict.clone(),
        discriminates,
    }
}

/// Verdict counts of `claims`: per `VERDICTS` over the claims that are not theory, and
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

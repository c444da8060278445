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
//!
//! Architecture Invariant: every claim can fail. Each experiment has a synthetic table that
//! agrees with its paper and each claim a `contra` that contradicts it; the test
//! `every_claim_can_fail` wants `holds` on the first and `differs` on the second.
//!
//! Architecture Invariant: simulated results are read through the sweep's plan, so a run is
//! never scored against a spec it does not answer.

/// The control of claim `$claim`: `$control`'s runs standing as `$subject`'s in the scheme
/// column (or in column `$col`: `stand_in!(col::ARCH; ...)`), named `$what` in the report
/// ([`Table::stand_in`]).
macro_rules! stand_in {
    ($claim:expr, $what:expr, $subject:expr, $control:expr) => {
        stand_in!(crate::reproduce::cols::SCHEME; $claim, $what, $subject, $control)
    };
    ($col:expr; $claim:expr, $what:expr, $subject:expr, $control:expr) => {
        crate::reproduce::Control {
            claim: $claim,
            what: $what,
            table: |t| t.stand_in($col, $subject, $control),
        }
    };
}

mod cols;
mod fastroute;
mod identity;
mod model;
mod ofan;
pub mod plot;
mod report;
mod runner;
mod scen;
mod start;
mod table;
mod verdict;

use std::fmt::Write as _;
use std::path::Path;
use std::time::Instant;

use crate::{write_output, Error};
pub use identity::*;
pub use model::*;
use report::*;
use runner::*;
pub use table::{Metric, Row, Table};
pub use verdict::*;

/// An output directory that cannot be made is bad input, found before any run.
fn make_out(out: &Path) -> Result<(), Error> {
    std::fs::create_dir_all(out).map_err(|e| {
        Error::Usage(format!(
            "--out {}: cannot create directory: {e}",
            out.display()
        ))
    })
}

/// `all --rescore`: re-scores every experiment with results in `out` (see [`rescore_one`])
/// and prints the tallies; the experiments without results are named, not an error.
fn rescore_all(exps: &[Experiment], out: &Path) -> Result<(), Error> {
    let (have, missing): (Vec<&Experiment>, Vec<&Experiment>) = exps
        .iter()
        .partition(|e| out.join(e.id).join("results.csv").is_file());
    if have.is_empty() {
        return Err(Error::Usage(format!(
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

/// The experiment `id` (`all`: every one), or an error naming the allowed ids.
fn find<'a>(exps: &'a [Experiment], id: &str) -> Result<&'a [Experiment], Error> {
    if id == "all" {
        return Ok(exps);
    }
    match exps.iter().position(|e| e.id == id) {
        Some(i) => Ok(&exps[i..=i]),
        None => {
            let ids: Vec<&str> = exps.iter().map(|e| e.id).collect();
            Err(Error::Usage(format!(
                "unknown experiment {id:?}; allowed: all, {}",
                ids.join(", ")
            )))
        }
    }
}

/// `--list`: the experiments `id` names (`None` or `all`: every one), their claims and what
/// they vary.
pub fn list_experiments(id: Option<&str>) -> Result<(), Error> {
    let exps = registry();
    list(find(&exps, id.unwrap_or("all"))?);
    Ok(())
}

/// `--rescore`: re-scores the results already in `out` of experiment `id` (`all`: of every
/// experiment with results there) with this build's claims.
pub fn rescore(id: &str, out: &Path) -> Result<(), Error> {
    let exps = registry();
    match find(&exps, id)? {
        [exp] if id != "all" => rescore_one(exp, out).map(drop),
        all => rescore_all(all, out),
    }
}

/// `--plan`: plans the sweeps of experiment `id` (`all`: of every one) into `out/ID/runs/`
/// without running them.
pub fn plan(id: &str, ctx: &Ctx, out: &Path) -> Result<(), Error> {
    let exps = registry();
    let exps = find(&exps, id)?;
    make_out(out)?;
    exps.iter().try_for_each(|e| plan_only(e, ctx, out))
}

/// Reproduces experiment `id` into `out/ID/` on `jobs` threads (`None`: all cores); `all`:
/// every experiment, then `out/report.md` indexing them.
pub fn reproduce(id: &str, ctx: &Ctx, out: &Path, jobs: Option<usize>) -> Result<(), Error> {
    let all_exps = registry();
    let exps = find(&all_exps, id)?;
    make_out(out)?;
    if id != "all" {
        return reproduce_one(&exps[0], ctx, out, jobs).map(drop);
    }
    let start = Instant::now();
    let mut index = String::new();
    let mut all = vec![];
    let mut failed = vec![];
    for e in exps {
        let t = Instant::now();
        // One failing experiment does not stop the others; `all` fails at the end.
        match reproduce_one(e, ctx, out, jobs) {
            Ok(claims) => all.push((e, claims, t.elapsed().as_secs_f64())),
            Err(err) => {
                eprintln!("{}: failed: {err}", e.id);
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
    let path = out.join("report.md");
    write_output(&path, &index)?;
    outln!("{} -> {}", tally_text(total), path.display());
    if failed.is_empty() {
        Ok(())
    } else {
        Err(Error::Runtime(format!(
            "{} experiments failed: {}",
            failed.len(),
            failed.join(", ")
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::cols::Col;
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

    /// A control names one of its experiment's claims (a renamed claim cannot lose its
    /// control unnoticed), a claim has at most one, and on a table where the control's rows
    /// equal the subject's the control gives the claim's own verdict (the stand-in keeps
    /// every other row).
    #[test]
    fn controls_name_their_claims_and_stand_in_for_the_subject() {
        let mut n = 0;
        for e in registry() {
            for k in &e.controls {
                let same = e.controls.iter().filter(|o| o.claim == k.claim).count();
                assert_eq!(same, 1, "{}: {} has {same} controls", e.id, k.claim);
                assert!(
                    e.claims.iter().any(|c| c.text == k.claim),
                    "{}: no claim {:?}",
                    e.id,
                    k.claim
                );
                n += 1;
            }
        }
        assert!(n >= 20, "{n} controls");
        let t = Table::from_csv("scheme,x\nofan,1\nrsq,2\nar,3\n");
        let s = t.stand_in(cols::SCHEME, "ofan", "rsq");
        assert_eq!(s.to_csv(), "scheme,x\nrsq,2\nar,3\nofan,2\n");
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
        assert_eq!(
            names,
            [
                "phase",
                "fabsim-phase",
                "frozen-phase",
                "interleaved-phase",
                "quarter-phase"
            ]
        );
        assert_eq!(sweeps[4].set, ["workload.phase_fill=0.25"]);
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
        let quarter = reading_rows(&e, &t, Some(&e.readings[3]));
        assert_eq!(quarter.rows, [["phase", "fastroute", "80"]]);
    }

    /// `--rescore` computes the normalized columns again with this build's metric: results
    /// of a build before Netbench's metric keep their former one only as a reading.
    #[test]
    fn rescoring_normalizes_with_this_builds_metric() {
        let t = Table::from_csv(
            "sweep,index,switch.arch,lb,seed,arch,mean_throughput_gbps,thrp_pct\n\
             l,0,ideal,ecmp,1,ideal,10,100\nl,1,fastroute,ecmp,1,fastroute,9,90\n",
        );
        let t = runner::renormalized(t);
        let get = |c: Col| t.iter().map(|r| r.num(c)).collect::<Vec<_>>();
        assert_eq!(get(cols::THRP_PCT), [None, None]);
        assert_eq!(get(cols::THRP_ALL_PCT), [Some(100.0), Some(90.0)]);
        assert_eq!(t.iter().filter_map(|r| r.get(cols::SWEEP)).count(), 2);
    }

    /// A control reading's verdicts join the Controls of the claims that have a control: a
    /// frozen controller that matches Ideal as well makes the claim not discriminating.
    #[test]
    fn control_readings_join_the_claims_controls() {
        let e = experiment("fastroute-fig8");
        let synthetic = (e.synthetic)();
        let mut t = synthetic.clone().with(cols::SWEEP, |_| 0.0);
        // The frozen reading's rows: the synthetic (agreeing) rows again, as sweep frozen-0.
        let frozen = synthetic.with(cols::SWEEP, |_| 0.0);
        let i = frozen
            .header
            .iter()
            .position(|h| h == cols::SWEEP.name())
            .unwrap();
        let mut frozen = frozen;
        frozen
            .rows
            .iter_mut()
            .for_each(|r| r[i] = "frozen-0".into());
        t.append(frozen);
        let scored = runner::score(&e, &t).expect("scored");
        let with: Vec<&ClaimResult> = scored
            .claims
            .iter()
            .filter(|c| c.control.is_some())
            .collect();
        assert!(!with.is_empty());
        for c in with {
            let k = &c.reading_controls;
            assert_eq!(k.len(), 1, "{}", c.claim);
            assert!(k[0].what.contains("frozen"), "{}", k[0].what);
            if c.verdict == "holds" {
                assert_eq!(k[0].discriminates, Some(false), "{}", c.claim);
                assert!(c.note.contains("not discriminating"), "{}", c.note);
            }
        }
        let claims = scored.claims.iter().filter(|c| c.control.is_none());
        assert!(claims.into_iter().all(|c| c.reading_controls.is_empty()));
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
                    let specs = crate::runs::scenario(Some(&s.scenario), e.id, &s.quick)
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

//! Running an experiment: its sweeps planned through `fabsim sweep`'s machinery (resumable,
//! cached by simulator identity), the results table collected, the claims scored and
//! written; re-scoring results already on disk.

use std::path::{Path, PathBuf};
use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;

use super::identity::{code_id, sim_id};
use super::model::{Ctx, Experiment, Reading, Source, Sweep};
use super::report::{runs_took, tally_text};
use super::table::{Row, Table};
use super::verdict::{control_result, evaluate_all, tally, ClaimResult};
use super::{cols, plot, report, start};
use crate::runs::progress_bar;
use crate::sweep::Outcome;
use crate::{sweep, write_output, Error};

/// The sweeps of an experiment that run at the size of `ctx`: its own, then each again per
/// [`Reading`].
pub(super) fn sweeps_of(exp: &Experiment, ctx: &Ctx) -> Vec<Sweep> {
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
pub(super) fn reading_rows(exp: &Experiment, table: &Table, reading: Option<&Reading>) -> Table {
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
pub(super) fn plan_sweeps(
    exp: &Experiment,
    sweeps: &[Sweep],
    ctx: &Ctx,
    dir: &Path,
) -> Result<Vec<(PathBuf, u64)>, Error> {
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
        let hash = sweep::fnv1a64(&def);
        let d = dir
            .join("runs")
            .join(format!("{}-{}-{}", s.name, ctx.size(), &hash[..8]));
        std::fs::create_dir_all(&d).map_err(|e| Error::io(&d, "create directory", e))?;
        let source = format!("{} ({})", exp.id, s.name);
        let (_, runs, _) = sweep::plan_dir(&d, &s.scenario, &source, &set)?;
        dirs.push((d, runs));
    }
    Ok(dirs)
}

/// `--plan`: plans the sweeps of `exp` into `out/ID/runs/` without running them and prints
/// each sweep directory with its run counts, to be run by `fabsim sweep run` (locally or as a
/// Slurm array); `fabsim reproduce ID` then collects the results.
pub(super) fn plan_only(exp: &Experiment, ctx: &Ctx, out: &Path) -> Result<(), Error> {
    let Source::Sim(_) = &exp.source else {
        outln!("{}: computed in-process (no sweep to plan)", exp.id);
        return Ok(());
    };
    let dir = out.join(exp.id);
    for (d, runs) in plan_sweeps(exp, &sweeps_of(exp, ctx), ctx, &dir)? {
        let missing = sweep::missing_runs(&d, runs).len();
        outln!("{}: {runs} runs, {missing} to run", d.display());
    }
    Ok(())
}

/// A run of an experiment: its sweep's index and its index in the sweep.
pub(super) type RunId = (usize, u64);

/// A run that gets another's result: (the run, the run simulated for it).
pub(super) type CopiedRun = (RunId, RunId);

/// Splits the runs to do into the distinct ones and the copies: each run whose parameters
/// equal those of an earlier run on the list, with that run.
pub(super) fn distinct_runs(
    dirs: &[(std::path::PathBuf, u64)],
    todo: Vec<RunId>,
) -> Result<(Vec<RunId>, Vec<CopiedRun>), Error> {
    let mut first: Vec<(RunId, fabsim::params::SimParams)> = vec![];
    let mut copies = vec![];
    for (k, i) in todo {
        let p = sweep::spec_params(&dirs[k].0, i).map_err(Error::Runtime)?;
        match first.iter().find(|(_, q)| *q == p) {
            Some(&(from, _)) => copies.push(((k, i), from)),
            None => first.push(((k, i), p)),
        }
    }
    Ok((first.into_iter().map(|(r, _)| r).collect(), copies))
}

/// Runs (or resumes) every missing point of `exp` and returns its results table.
pub(super) fn results(
    exp: &Experiment,
    ctx: &Ctx,
    dir: &Path,
    jobs: Option<usize>,
) -> Result<Table, Error> {
    match &exp.source {
        Source::Compute(f) | Source::ClosedForm(f) => computed(*f, ctx, dir),
        Source::Sim(_) => simulated(exp, ctx, dir, jobs),
    }
}

/// The table `f` computes at the size of `ctx`, reused from `dir` when a complete one is
/// there for this build.
fn computed(f: fn(&Ctx) -> Table, ctx: &Ctx, dir: &Path) -> Result<Table, Error> {
    // A finished computation is kept, like a finished run, per build of fabsim.
    let code = sweep::fnv1a64(&[code_id().to_string()]);
    let path = dir.join(format!("computed-{}-{}.csv", ctx.size(), &code[..8]));
    // Reused only whole: its checksum (written after it) must match, else a
    // truncated or edited cache is computed again.
    let sum = path.with_extension("csv.fnv");
    if let Ok(text) = std::fs::read_to_string(&path) {
        let want = std::fs::read_to_string(&sum).unwrap_or_default();
        if want.trim() == sweep::fnv1a64_bytes(text.as_bytes()) {
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
    write_output(&sum, &sweep::fnv1a64_bytes(csv.as_bytes()))?;
    Ok(t)
}

/// The runs of `exp`'s sweeps at the size of `ctx`, planned into `dir`, simulated where not
/// done yet, as one table.
fn simulated(exp: &Experiment, ctx: &Ctx, dir: &Path, jobs: Option<usize>) -> Result<Table, Error> {
    let sweeps = sweeps_of(exp, ctx);
    let dirs = plan_sweeps(exp, &sweeps, ctx, dir)?;
    // Held while the runs go on: another `reproduce` or `sweep run --all` on these
    // sweeps is refused.
    let _locks = dirs
        .iter()
        .map(|(d, _)| sweep::DirLock::take(d, true))
        .collect::<Result<Vec<_>, _>>()?;
    let plans = dirs
        .iter()
        .map(|(d, _)| sweep::Plan::of(d))
        .collect::<Result<Vec<_>, _>>()?;
    let todo: Vec<(usize, u64)> = dirs
        .iter()
        .zip(&plans)
        .enumerate()
        .flat_map(|(k, ((d, _), plan))| plan.todo(d).into_iter().map(move |i| (k, i)))
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
        .map_err(|e| Error::Runtime(format!("thread pool: {e}")))?;
    let bar = progress_bar(todo.len());
    let failures: Vec<String> = pool.install(|| {
        todo.par_iter()
            .filter_map(|&(k, i)| {
                let o = plans[k].run_one(&dirs[k].0, i);
                bar.inc(1);
                match o {
                    Outcome::Failed(m) => Some(format!("{}: run {i}: {m}", dirs[k].0.display())),
                    Outcome::Ran | Outcome::AlreadyDone => None,
                }
            })
            .collect()
    });
    bar.finish_and_clear();
    if !failures.is_empty() {
        return Err(Error::Runtime(failures.join("\n")));
    }
    for ((k, i), (from_k, from_i)) in copies {
        sweep::copy_result(&dirs[from_k].0, from_i, &dirs[k].0, i)?;
    }
    sweeps_table(&dirs, &sweeps)
}

/// The results of the sweeps planned in `dirs`, one table: a `sweep` column first, the
/// Fastroute paper's readings and the `scheme` column added.
fn sweeps_table(dirs: &[(PathBuf, u64)], sweeps: &[Sweep]) -> Result<Table, Error> {
    let mut table = Table::default();
    for ((d, _), s) in dirs.iter().zip(sweeps) {
        let (labels, reports) = sweep::load_results(d)?;
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

/// The load-balancing scheme of a run as the papers name it: the host scheme when one runs,
/// `4ofan` for pOfan with 4-port pipes (`Pofan` = pOfan with P-port pipes; 4 is
/// `switch.pipe_ports`' default), else the switch scheme.
pub(super) fn scheme_name(r: &Row) -> String {
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
) -> Result<Vec<ClaimResult>, Error> {
    let start = Instant::now();
    let dir = out.join(exp.id);
    std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, "create directory", e))?;
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
pub(super) struct Scored {
    pub(super) claims: Vec<ClaimResult>,
    pub(super) readings: Vec<ReadingResult>,
    /// The readings without results (`--no-readings`).
    pub(super) not_run: Vec<&'static str>,
    svg: String,
    /// The report's section on throughput by flow start time ([`start::section`]).
    pub(super) by_start: String,
}

/// The claims judged under one other [`Reading`] (`readings.json`).
#[derive(Serialize)]
pub(super) struct ReadingResult {
    pub(super) reading: String,
    pub(super) about: String,
    pub(super) claims: Vec<ClaimResult>,
}

pub(super) fn score(exp: &Experiment, table: &Table) -> Result<Scored, Error> {
    let primary = reading_rows(exp, table, None);
    let svg = plot::render(exp, &primary)
        .map_err(|e| Error::Runtime(format!("{}: plot: {e}", exp.id)))?;
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
    let mut claims = evaluate_all(exp, &primary);
    // Control readings: each claim that has a control is judged under them as well.
    for (what, on) in exp.readings.iter().filter_map(|r| {
        let on = readings.iter().find(|x| x.reading == r.prefix)?;
        Some((r.control?, on))
    }) {
        for c in claims.iter_mut().filter(|c| c.control.is_some()) {
            if let Some(by) = on.claims.iter().find(|x| x.claim == c.claim) {
                let k = control_result(c, what, by);
                c.reading_controls.push(k);
            }
        }
    }
    Ok(Scored {
        claims,
        readings,
        not_run,
        svg,
        by_start: start::readings_section(exp, &primary) + &start::section(exp, &primary),
    })
}

/// Writes an experiment's claims.json, readings.json (when it has other readings), plot.svg
/// and report.md (`provenance`: the lines naming how its results were produced).
pub(super) fn write_claims(
    exp: &Experiment,
    dir: &Path,
    scored: &Scored,
    provenance: &str,
) -> Result<(), Error> {
    fn json<T: Serialize>(v: &T) -> Result<String, Error> {
        serde_json::to_string_pretty(v).map_err(|e| Error::Runtime(e.to_string()))
    }
    write_output(&dir.join("claims.json"), &json(&scored.claims)?)?;
    if !scored.readings.is_empty() {
        write_output(&dir.join("readings.json"), &json(&scored.readings)?)?;
    }
    write_output(&dir.join("plot.svg"), &scored.svg)?;
    write_output(&dir.join("report.md"), &report(exp, provenance, scored))
}

/// `results` (a results.csv) with the columns [`Table::normalize_to_ideal`] adds computed
/// again by this build, sweep by sweep (the swept keys are the columns between `index` and
/// the first report column): results of an earlier build are judged by this build's
/// metric, and columns its reports lacked stay empty.
pub(super) fn renormalized(results: Table) -> Table {
    let derived: Vec<&str> = cols::NORMALIZED
        .iter()
        .map(|(c, _)| c.name())
        .chain([cols::IDEAL_DELIVERED_PCT.name(), cols::IDEAL_STEADY.name()])
        .collect();
    let keep: Vec<usize> = (0..results.header.len())
        .filter(|&i| !derived.contains(&results.header[i].as_str()))
        .collect();
    let pick = |row: &[String]| keep.iter().map(|&i| row[i].clone()).collect::<Vec<_>>();
    let header = pick(&results.header);
    let first = |name: &str| header.iter().position(|h| h == name);
    let keys: Vec<String> = match (
        first("index"),
        first(fabsim::metrics::columns::COLUMNS[0].name),
    ) {
        (Some(a), Some(b)) if a < b => header[a + 1..b].to_vec(),
        _ => vec![],
    };
    let mut sweeps: Vec<String> = vec![];
    for r in results.iter() {
        let s = r.get(cols::SWEEP).unwrap_or_default().to_string();
        if !sweeps.contains(&s) {
            sweeps.push(s);
        }
    }
    let mut out = Table::default();
    for s in &sweeps {
        let mut t = Table {
            header: header.clone(),
            rows: results
                .iter()
                .zip(&results.rows)
                .filter(|(r, _)| r.get(cols::SWEEP).unwrap_or_default() == s)
                .map(|(_, raw)| pick(raw))
                .collect(),
        };
        t.normalize_to_ideal(&keys);
        out.append(t);
    }
    out
}

/// `--rescore`: evaluates the claims of `exp` on the results an earlier `reproduce` left in
/// `out/ID/results.csv`, without running anything, and rewrites its claims.json, plot.svg
/// and report.md. The report keeps the earlier report's `Size:` line (the runs' command,
/// build and simulator) and adds one naming this build and whether its simulator's sources
/// are the runs' (they may differ: the runs are not repeated).
pub fn rescore_one(exp: &Experiment, out: &Path) -> Result<Vec<ClaimResult>, Error> {
    let dir = out.join(exp.id);
    let read = |f: &str| {
        let p = dir.join(f);
        fabsim::scenario::read_input(&p).map_err(|e| {
            Error::Usage(format!(
                "{}: cannot read (--rescore needs it): {e}",
                p.display()
            ))
        })
    };
    let table = renormalized(Table::from_csv(&read("results.csv")?));
    let old = read("report.md")?;
    let ran = old
        .lines()
        .find(|l| l.starts_with("Size: "))
        .ok_or_else(|| {
            Error::Runtime(format!(
                "{}: no `Size:` line naming the build that produced the runs",
                dir.join("report.md").display()
            ))
        })?;
    // The runs gave `N result rows` (the Size line): fewer or more now is not their results.
    let rows = table.rows.len();
    let gave = ran
        .split(", ")
        .find_map(|part| part.split_once(" result rows")?.0.parse::<usize>().ok());
    if let Some(gave) = gave.filter(|&g| g != rows) {
        let seeds = table.distinct(cols::SEED).map_or(String::new(), |s| {
            format!(" (seeds left: {})", s.join(", "))
        });
        let command = ran.split('`').nth(1).unwrap_or("fabsim reproduce");
        return Err(Error::Usage(format!(
            "{}: holds {rows} rows{seeds}, but the runs gave {gave} (report.md's Size line): \
             {} rows {}; re-scoring would judge other results than the report's runs. Run \
             `{command}` again (finished runs are reused) or restore results.csv",
            dir.join("results.csv").display(),
            rows.abs_diff(gave),
            if rows < gave {
                "are missing"
            } else {
                "were added"
            }
        )));
    }
    let sim = env!("FABSIM_SIM_ID");
    let same = ran.contains(&format!("simulator sources {sim})"));
    let scored = score(exp, &table)?;
    let provenance = format!(
        "{ran}\n\nClaims re-scored from this results.csv ({rows} rows), without rerunning, by \
         `fabsim reproduce {} --rescore`, fabsim {} (simulator sources {sim}: {}).",
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

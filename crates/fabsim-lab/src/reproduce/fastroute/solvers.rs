//! Fastroute's control plane measured: the solvers' runtimes and operation counts on random
//! traffic matrices (timed as interleaved medians), the mapping quality of bundled ports,
//! and the table accessors and perturbations the claims of Figs. 20-22 use.

use std::time::Instant;

use portmap::gen::{random_tm, SplitMix64, TmKind};
use portmap::{inter_asic_bytes, solve, static_inter_asic_bytes, Constraints, Solver, Workspace};

use crate::reproduce::cols::{computed, Col};
use crate::reproduce::{fmt_num, Ctx, Row, Table, Tol};

/// Runtime and elementary operations of every solver in `solvers` (and the greedy's gap to
/// the exact optimum) on `reps` random matrices per (ports, ASICs).
pub(super) fn solver_runtimes(ctx: &Ctx, solvers: &[Solver]) -> Table {
    let reps = ctx.seeds.unwrap_or(if ctx.quick { 5 } else { 1000 });
    let ports = [64usize, 128, 256, 512];
    let mut t = Table {
        header: computed::header(&[
            computed::SOLVER,
            computed::ASICS,
            computed::PORTS,
            computed::TM,
            computed::RUNTIME_US,
            computed::OPS,
            computed::INTER_ASIC_BYTES,
            computed::GAP_PCT,
        ]),
        rows: vec![],
    };
    let mut ws = Workspace::new();
    let mut out = vec![];
    let none = Constraints::default();
    for &n in &[2usize, 4, 8] {
        for &p in &ports {
            let mut rng = SplitMix64::new((p * 1000 + n) as u64);
            let mut warmed = false;
            for rep in 0..reps {
                let tm = random_tm(&mut rng, p, n, TmKind::Uniform, 1 << 24);
                if !warmed {
                    for &s in solvers {
                        solve(tm.view(), &none, s, &mut ws, &mut out).expect("valid shape");
                    }
                    warmed = true;
                }
                solve(tm.view(), &none, Solver::Exact, &mut ws, &mut out).expect("valid shape");
                let opt = inter_asic_bytes(tm.view(), &out);
                // The solvers take turns, so that a ratio of their runtimes compares solves
                // made under the same machine load.
                let (mut bytes, mut ops) = (vec![0; solvers.len()], vec![0; solvers.len()]);
                let us = interleaved_medians_us(solvers.len(), |i| {
                    let us = time_us(|| {
                        solve(tm.view(), &none, solvers[i], &mut ws, &mut out)
                            .expect("valid shape");
                    });
                    bytes[i] = inter_asic_bytes(tm.view(), &out);
                    ops[i] = ws.ops();
                    us
                });
                for (i, &s) in solvers.iter().enumerate() {
                    let gap = 100.0 * (bytes[i] as f64 - opt as f64) / (opt as f64).max(1.0);
                    t.rows.push(vec![
                        s.name().into(),
                        n.to_string(),
                        p.to_string(),
                        rep.to_string(),
                        us[i].to_string(),
                        ops[i].to_string(),
                        bytes[i].to_string(),
                        gap.to_string(),
                    ]);
                }
            }
        }
    }
    t
}

/// The indirection layer with port bundles: for each bundle size, the inter-ASIC share of
/// the optimal mapping (exact solver) and the static mapping, and the Hungarian solver's
/// runtime and elementary operations, on skewed random matrices (every port sends most of
/// its bytes to one hot ASIC: localizable traffic).
pub(super) fn bundled(ctx: &Ctx, asics: usize, bundles: &[usize]) -> Table {
    let reps = ctx.seeds.unwrap_or(if ctx.quick { 3 } else { 100 });
    let ports = 256;
    let mut t = Table {
        header: computed::header(&[
            computed::BUNDLE,
            computed::TM,
            computed::OPTIMAL_SHARE_PCT,
            computed::STATIC_SHARE_PCT,
            computed::HUNGARIAN_US,
            computed::HUNGARIAN_OPS,
        ]),
        rows: vec![],
    };
    let mut ws = Workspace::new();
    let mut out = vec![];
    let mut rng = SplitMix64::new(ports as u64 * 1000 + asics as u64);
    for rep in 0..reps {
        let tm = random_tm(&mut rng, ports, asics, TmKind::Skewed, 1 << 24);
        let total = tm.total_bytes().max(1) as f64;
        let cons = |b| Constraints {
            bundle: b,
            circuit_switches: 1,
        };
        let (mut opt, mut ops) = (vec![0.0; bundles.len()], vec![0; bundles.len()]);
        for (i, &b) in bundles.iter().enumerate() {
            solve(tm.view(), &cons(b), Solver::Exact, &mut ws, &mut out)
                .expect("valid constraints");
            opt[i] = inter_asic_bytes(tm.view(), &out) as f64;
            // Warms up the Hungarian workspace at this size, and counts its operations.
            solve(tm.view(), &cons(b), Solver::Hungarian, &mut ws, &mut out)
                .expect("valid constraints");
            ops[i] = ws.ops();
        }
        // The bundle sizes take turns (a ratio of runtimes under the same machine load).
        let us = interleaved_medians_us(bundles.len(), |i| {
            time_us(|| {
                solve(
                    tm.view(),
                    &cons(bundles[i]),
                    Solver::Hungarian,
                    &mut ws,
                    &mut out,
                )
                .expect("valid constraints");
            })
        });
        for (i, &b) in bundles.iter().enumerate() {
            t.rows.push(vec![
                b.to_string(),
                rep.to_string(),
                (100.0 * opt[i] / total).to_string(),
                (100.0 * static_inter_asic_bytes(tm.view()) as f64 / total).to_string(),
                us[i].to_string(),
                ops[i].to_string(),
            ]);
        }
    }
    t
}

/// Solves timed per measurement: a row's runtime is their median, so one descheduled solve
/// on a shared machine does not move a verdict.
pub(super) const TIMED_SOLVES: usize = 7;

/// The wall time of `f` in microseconds.
pub(super) fn time_us(f: impl FnOnce()) -> f64 {
    let start = Instant::now();
    f();
    start.elapsed().as_secs_f64() * 1e6
}

/// The median of each of `n` measurements over [`TIMED_SOLVES`] rounds, each round calling
/// `f(0)`, ..., `f(n - 1)` in turn (`f(i)` returns measurement i's time in µs). Each turn
/// calls `f(i)` twice and keeps the second time: a solve timed right after another
/// solver's would start on that solver's cache contents.
pub(super) fn interleaved_medians_us(n: usize, mut f: impl FnMut(usize) -> f64) -> Vec<f64> {
    let mut us = vec![Vec::with_capacity(TIMED_SOLVES); n];
    for _ in 0..TIMED_SOLVES {
        for (i, v) in us.iter_mut().enumerate() {
            f(i);
            v.push(f(i));
        }
    }
    us.into_iter()
        .map(|mut v| {
            v.sort_by(f64::total_cmp);
            v[TIMED_SOLVES / 2]
        })
        .collect()
}

/// The inter-ASIC share of the optimal mapping.
pub(super) fn share(r: &Row) -> Option<f64> {
    r.num(computed::OPTIMAL_SHARE_PCT)
}

pub(super) fn runtime(r: &Row) -> Option<f64> {
    r.num(computed::RUNTIME_US)
}

pub(super) fn ops(r: &Row) -> Option<f64> {
    r.num(computed::OPS)
}

pub(super) fn solver_series(r: &Row) -> String {
    let name = match r.get(computed::SOLVER) {
        Some("greedy") => "Heur.",
        Some("greedy-select") => "Heur. (selection)",
        Some("hungarian") => "Opt. (Hungarian)",
        Some("exact") => "Opt. (fabsim exact)",
        Some("rdc") => "RDC",
        _ => "?",
    };
    format!("{name} {}", r.get(computed::ASICS).unwrap_or("?"))
}

/// The median of `metric` (a runtime: each row is already the median of [`TIMED_SOLVES`]
/// solves of one matrix; or the operation count) of `solver` over the matrices at
/// (`asics`, `ports`).
pub(super) fn median_at(
    t: &Table,
    metric: crate::reproduce::Metric,
    solver: &str,
    asics: &str,
    ports: &str,
) -> Result<f64, String> {
    t.median(
        &[
            (computed::SOLVER, solver),
            (computed::ASICS, asics),
            (computed::PORTS, ports),
        ],
        metric,
    )
}

/// The median runtime of `solver` at (`asics`, `ports`), in µs.
pub(super) fn median_runtime(
    t: &Table,
    solver: &str,
    asics: &str,
    ports: &str,
) -> Result<f64, String> {
    median_at(t, runtime, solver, asics, ports)
}

/// The growth exponent (`table::growth_fit`) of `solver`'s median operation count against
/// the port count at 8 ASICs: the scaling of the work, the same on every machine and run (a
/// wall-clock fit of few-microsecond solves moves with the machine's load).
pub(super) fn ops_slope(t: &Table, solver: &str) -> Result<f64, String> {
    let f = [(computed::SOLVER, solver), (computed::ASICS, "8")];
    let pts = t.median_by(&f, computed::PORTS, ops)?;
    super::super::table::growth_fit(&f, pts)
}

/// A worst-case bound Θ(p^3) holds over the measured port counts if the worst operation
/// count over p^3 grows by at most (512 / 64)^0.25 = 1.68x from its value at 64 ports: a
/// quarter of an exponent over the range, the allowance [`SLOPE`] gives asymptotic classes
/// (a Θ(p^3.5) count would grow 2.8x).
pub(super) const CUBIC_BOUND: Tol = Tol::AtMost(0.68);

/// `solver`'s worst (largest) operation count over the matrices at each port count, at 8
/// ASICs, divided by p^3, as a multiple of its value at the fewest ports: the largest of
/// these multiples (1 or below: a constant times p^3 bounds every measured count). The
/// multiples at every port count are the claim's note.
pub(super) fn cubic_bound_growth(t: &Table, solver: &str) -> Result<f64, String> {
    let mut per_p = vec![];
    for p in t.distinct(computed::PORTS).unwrap_or_default() {
        let f = [
            (computed::SOLVER, solver),
            (computed::ASICS, "8"),
            (computed::PORTS, p.as_str()),
        ];
        let worst = t.values(&f, ops)?.into_iter().fold(0.0, f64::max);
        let x: f64 = p.parse().map_err(|_| format!("port count {p:?}"))?;
        per_p.push((x, worst / x.powi(3)));
    }
    per_p.sort_by(|a, b| a.0.total_cmp(&b.0));
    let &(_, base) = per_p
        .first()
        .ok_or_else(|| format!("no {solver} operation counts"))?;
    let multiples: Vec<String> = per_p
        .iter()
        .map(|&(x, c)| format!("{x}: {}", fmt_num(c / base)))
        .collect();
    super::super::note(format!(
        "worst count / p^3 relative to the fewest ports: {}",
        multiples.join(", ")
    ));
    Ok(per_p.iter().map(|&(_, c)| c / base).fold(0.0, f64::max))
}

/// The median runtime of Listing 1 (`greedy`) at (`asics`, 512 ports), in µs; the claim's
/// note gives the selection variant's (`greedy-select`, the same mapping) beside it.
pub(super) fn listing1_runtime(t: &Table, asics: &str) -> Result<f64, String> {
    let listing1 = median_runtime(t, "greedy", asics, "512")?;
    if let Ok(select) = median_runtime(t, "greedy-select", asics, "512") {
        super::super::note(format!(
            "greedy-select (Listing 1's mapping by selections instead of the sort): {} µs, {}x \
             faster",
            fmt_num(select),
            fmt_num(listing1 / select)
        ));
    }
    Ok(listing1)
}

/// log10 of RDC's median operation count over the greedy's at (`asics`, 512 ports).
pub(super) fn rdc_decades(t: &Table, asics: &str) -> Result<f64, String> {
    let at = |s| median_at(t, ops, s, asics, "512");
    Ok((at("rdc")? / at("greedy")?).log10())
}

/// Adds 1 to `quantity` at `asics` ASICs (a printed number missed by more than its rounding).
pub(super) fn bump(t: &mut Table, asics: &str, quantity: &str) {
    let f = [(computed::ASICS, asics), (computed::QUANTITY, quantity)];
    t.map(&f, computed::VALUE, |x| x + 1.0);
}

/// Multiplies column `c` (runtime or operations) of `solver` at (`asics`, `ports`) by `by`.
pub(super) fn scale(t: &mut Table, c: Col, solver: &str, asics: &str, ports: &str, by: f64) {
    let f = [
        (computed::SOLVER, solver),
        (computed::ASICS, asics),
        (computed::PORTS, ports),
    ];
    t.map(&f, c, |x| x * by);
}

/// Multiplies `solver`'s runtimes at (`asics`, `ports`) by `by`.
pub(super) fn slower(t: &mut Table, solver: &str, asics: &str, ports: &str, by: f64) {
    scale(t, computed::RUNTIME_US, solver, asics, ports, by);
}

/// Multiplies `solver`'s operation counts at (`asics`, `ports`) by `by`.
pub(super) fn more_ops(t: &mut Table, solver: &str, asics: &str, ports: &str, by: f64) {
    scale(t, computed::OPS, solver, asics, ports, by);
}

//! Runtime of the mapping solvers for p = 64..512 ports and n = 2, 4, 8
//! ASICs (paper Fig. 20 and Fig. 22). Run with `cargo bench -p portmap`;
//! filter by a substring of the case name, e.g. `cargo bench -p portmap -- greedy`.
//!
//! Inputs: skewed random traffic matrices (every port favours one random
//! ASIC; entries below 2^24 bytes, about 100 us of an 800G port), one fixed
//! seed per size, plus uniform ones for `*_uniform`; the workspace is reused
//! across iterations as in the simulator.
//!
//! A plain `main` (no benchmark framework, so `cargo test` builds no extra dependency):
//! each case solves until its time budget is spent, in samples of a batch of solves, and
//! prints the median and the fastest sample's time per solve.

use portmap::gen::{random_tm, SplitMix64, TmKind};
use portmap::{solve, Constraints, Solver, TrafficMatrix, Workspace};
use std::hint::black_box;
use std::time::{Duration, Instant};

const PORTS: &[usize] = &[64, 128, 256, 512];
const ASICS: &[usize] = &[2, 4, 8];

fn input(p: usize, n: usize, kind: TmKind) -> TrafficMatrix {
    let mut rng = SplitMix64::new(0xFA57_0000 + (p * 16 + n) as u64);
    random_tm(&mut rng, p, n, kind, 1 << 24)
}

/// One benchmark: its name, its time budget per size, and how it builds a solve of a
/// matrix of `p` ports and `n` ASICs (set-up outside the timing).
struct Case {
    name: &'static str,
    budget: Duration,
    make: fn(usize, usize) -> Box<dyn FnMut()>,
}

/// `solver` on a matrix of `kind`, with `c`'s constraints.
fn solver_case(
    p: usize,
    n: usize,
    solver: Solver,
    kind: TmKind,
    c: Constraints,
) -> Box<dyn FnMut()> {
    let tm = input(p, n, kind);
    let mut ws = Workspace::new();
    let mut out = Vec::new();
    Box::new(move || {
        solve(black_box(tm.view()), &c, solver, &mut ws, &mut out).unwrap();
        black_box(&out);
    })
}

fn skewed(p: usize, n: usize, solver: Solver) -> Box<dyn FnMut()> {
    solver_case(p, n, solver, TmKind::Skewed, Constraints::default())
}

const SHORT: Duration = Duration::from_millis(500);
const LONG: Duration = Duration::from_secs(1);

const CASES: &[Case] = &[
    Case {
        name: "greedy",
        budget: SHORT,
        make: |p, n| skewed(p, n, Solver::Greedy),
    },
    // Listing 1's mapping by selections instead of the sort.
    Case {
        name: "greedy_select",
        budget: SHORT,
        make: |p, n| skewed(p, n, Solver::GreedySelect),
    },
    Case {
        name: "exact",
        budget: SHORT,
        make: |p, n| skewed(p, n, Solver::Exact),
    },
    Case {
        name: "hungarian",
        budget: LONG,
        make: |p, n| skewed(p, n, Solver::Hungarian),
    },
    Case {
        name: "rdc",
        budget: LONG,
        make: |p, n| skewed(p, n, Solver::Rdc),
    },
    // Uniform random matrices: greedy is further from the optimum, so the exact solver
    // needs more cycle cancellations than on skewed inputs.
    Case {
        name: "exact_uniform",
        budget: SHORT,
        make: |p, n| solver_case(p, n, Solver::Exact, TmKind::Uniform, Constraints::default()),
    },
    Case {
        name: "greedy_uniform",
        budget: SHORT,
        make: |p, n| {
            solver_case(
                p,
                n,
                Solver::Greedy,
                TmKind::Uniform,
                Constraints::default(),
            )
        },
    },
    // The exact solver's polynomial fallback, successive shortest paths, alone.
    Case {
        name: "exact_ssp_only",
        budget: SHORT,
        make: |p, n| {
            let tm = input(p, n, TmKind::Skewed);
            let mut ws = portmap::exact::ExactWorkspace::default();
            let mut out = vec![0; p];
            Box::new(move || {
                portmap::exact::successive_shortest_paths(black_box(tm.view()), &mut ws, &mut out);
            })
        },
    },
    // Bundles of 4 ports (paper section A.1) with the exact solver.
    Case {
        name: "exact_bundle4",
        budget: SHORT,
        make: |p, n| {
            let c = Constraints {
                bundle: 4,
                circuit_switches: 1,
            };
            solver_case(p, n, Solver::Exact, TmKind::Skewed, c)
        },
    },
];

/// Median and minimum time per call of `f` in µs: one call to warm up, then samples of a
/// batch sized to about 1 ms each until `budget` is spent (at least 10 samples).
fn measure(f: &mut dyn FnMut(), budget: Duration) -> (f64, f64) {
    let t = Instant::now();
    f();
    let once = t.elapsed().max(Duration::from_nanos(1));
    let batch = (Duration::from_millis(1).as_nanos() / once.as_nanos()).max(1) as u32;
    let start = Instant::now();
    let mut per_call = vec![];
    while per_call.len() < 10 || start.elapsed() < budget {
        let t = Instant::now();
        for _ in 0..batch {
            f();
        }
        per_call.push(t.elapsed().as_secs_f64() * 1e6 / f64::from(batch));
    }
    per_call.sort_by(f64::total_cmp);
    (per_call[per_call.len() / 2], per_call[0])
}

fn main() {
    // `cargo bench` passes `--bench`; any other argument is a name filter.
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    println!(
        "{:<16} {:>5} {:>5} {:>12} {:>12}",
        "case", "ASICs", "ports", "median µs", "fastest µs"
    );
    for case in CASES {
        if !filters.is_empty() && !filters.iter().any(|f| case.name.contains(f.as_str())) {
            continue;
        }
        for &n in ASICS {
            for &p in PORTS {
                let mut f = (case.make)(p, n);
                let (median, fastest) = measure(&mut *f, case.budget);
                println!(
                    "{:<16} {n:>5} {p:>5} {median:>12.2} {fastest:>12.2}",
                    case.name
                );
            }
        }
    }
}

//! Runtime of the mapping solvers for p = 64..512 ports and n = 2, 4, 8
//! ASICs (paper Fig. 20 and Fig. 22). Run with `cargo bench -p portmap`;
//! filter e.g. `cargo bench -p portmap -- greedy`.
//!
//! Inputs: skewed random traffic matrices (every port favours one random
//! ASIC; entries below 2^24 bytes, about 100 us of an 800G port), one fixed
//! seed per size, plus uniform ones for `*_uniform`; the workspace is reused
//! across iterations as in the simulator.

use divan::Bencher;
use portmap::gen::{random_tm, SplitMix64, TmKind};
use portmap::{solve, Constraints, Solver, TrafficMatrix, Workspace};

fn main() {
    divan::main();
}

const PORTS: &[usize] = &[64, 128, 256, 512];

fn input(p: usize, n: usize, kind: TmKind) -> TrafficMatrix {
    let mut rng = SplitMix64::new(0xFA57_0000 + (p * 16 + n) as u64);
    random_tm(&mut rng, p, n, kind, 1 << 24)
}

fn bench_solver(bencher: Bencher, p: usize, n: usize, solver: Solver) {
    bench_kind(bencher, p, n, solver, TmKind::Skewed);
}

fn bench_kind(bencher: Bencher, p: usize, n: usize, solver: Solver, kind: TmKind) {
    let tm = input(p, n, kind);
    let mut ws = Workspace::new();
    let mut out = Vec::new();
    let c = Constraints::default();
    bencher.bench_local(|| {
        solve(divan::black_box(tm.view()), &c, solver, &mut ws, &mut out).unwrap();
        divan::black_box(&out);
    });
}

#[divan::bench(consts = [2, 4, 8], args = PORTS, max_time = 0.5)]
fn greedy<const N: usize>(bencher: Bencher, p: usize) {
    bench_solver(bencher, p, N, Solver::Greedy);
}

/// Listing 1's mapping by selections instead of the sort.
#[divan::bench(consts = [2, 4, 8], args = PORTS, max_time = 0.5)]
fn greedy_select<const N: usize>(bencher: Bencher, p: usize) {
    bench_solver(bencher, p, N, Solver::GreedySelect);
}

#[divan::bench(consts = [2, 4, 8], args = PORTS, max_time = 0.5)]
fn exact<const N: usize>(bencher: Bencher, p: usize) {
    bench_solver(bencher, p, N, Solver::Exact);
}

#[divan::bench(consts = [2, 4, 8], args = PORTS, max_time = 1, sample_count = 10, sample_size = 1)]
fn hungarian<const N: usize>(bencher: Bencher, p: usize) {
    bench_solver(bencher, p, N, Solver::Hungarian);
}

#[divan::bench(consts = [2, 4, 8], args = PORTS, max_time = 1, sample_count = 10, sample_size = 1)]
fn rdc<const N: usize>(bencher: Bencher, p: usize) {
    bench_solver(bencher, p, N, Solver::Rdc);
}

/// Uniform random matrices: greedy is further from the optimum, so the
/// exact solver needs more cycle cancellations than on skewed inputs.
#[divan::bench(consts = [2, 4, 8], args = PORTS, max_time = 0.5)]
fn exact_uniform<const N: usize>(bencher: Bencher, p: usize) {
    bench_kind(bencher, p, N, Solver::Exact, TmKind::Uniform);
}

/// Greedy on uniform random matrices.
#[divan::bench(consts = [2, 4, 8], args = PORTS, max_time = 0.5)]
fn greedy_uniform<const N: usize>(bencher: Bencher, p: usize) {
    bench_kind(bencher, p, N, Solver::Greedy, TmKind::Uniform);
}

/// The exact solver's polynomial fallback, successive shortest paths, alone.
#[divan::bench(consts = [2, 4, 8], args = PORTS, max_time = 0.5)]
fn exact_ssp_only<const N: usize>(bencher: Bencher, p: usize) {
    let tm = input(p, N, TmKind::Skewed);
    let mut ws = portmap::exact::ExactWorkspace::default();
    let mut out = vec![0; p];
    bencher.bench_local(|| {
        portmap::exact::successive_shortest_paths(divan::black_box(tm.view()), &mut ws, &mut out);
    });
}

/// Bundles of 4 ports (paper section A.1) with the exact solver.
#[divan::bench(consts = [2, 4, 8], args = PORTS, max_time = 0.5)]
fn exact_bundle4<const N: usize>(bencher: Bencher, p: usize) {
    let tm = input(p, N, TmKind::Skewed);
    let mut ws = Workspace::new();
    let mut out = Vec::new();
    let c = Constraints {
        bundle: 4,
        circuit_switches: 1,
    };
    bencher.bench_local(|| {
        solve(
            divan::black_box(tm.view()),
            &c,
            Solver::Exact,
            &mut ws,
            &mut out,
        )
        .unwrap();
    });
}

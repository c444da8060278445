//! Solver correctness: optimality, agreement between solvers, Listing 1
//! semantics, constraints, determinism.

use portmap::gen::{random_tm, SplitMix64, TmKind};
use portmap::{
    inter_asic_bytes, solve, Constraints, Mapping, Solver, TmView, TrafficMatrix, Workspace,
};

fn run(tm: &TrafficMatrix, c: &Constraints, s: Solver, ws: &mut Workspace) -> Vec<usize> {
    let mut out = Vec::new();
    solve(tm.view(), c, s, ws, &mut out).unwrap();
    Mapping::from_vec(out.clone())
        .validate(tm.ports(), tm.asics())
        .unwrap();
    out
}

fn cost(tm: &TrafficMatrix, m: &[usize]) -> u64 {
    inter_asic_bytes(tm.view(), m)
}

/// Listing 1 as printed: all p*n net gains, one full sort, one pass.
fn listing1(tm: TmView<'_>) -> Vec<usize> {
    let (p, n) = (tm.ports(), tm.asics());
    let mut pairs = Vec::new();
    for i in 0..p {
        let sum: u64 = tm.row(i).iter().sum();
        for j in 0..n {
            let gain = tm.get(i, j) as i64 - (sum - tm.get(i, j)) as i64;
            pairs.push((std::cmp::Reverse(gain), i, j));
        }
    }
    pairs.sort();
    let mut out = vec![usize::MAX; p];
    let mut free = vec![p / n; n];
    for (_, i, j) in pairs {
        if out[i] == usize::MAX && free[j] > 0 {
            out[i] = j;
            free[j] -= 1;
        }
    }
    out
}

/// Brute force over all balanced mappings (tiny instances only).
fn brute_force(tm: &TrafficMatrix) -> u64 {
    fn rec(tm: &TrafficMatrix, i: usize, free: &mut [usize], m: &mut Vec<usize>, best: &mut u64) {
        if i == tm.ports() {
            *best = (*best).min(inter_asic_bytes(tm.view(), m));
            return;
        }
        for j in 0..tm.asics() {
            if free[j] > 0 {
                free[j] -= 1;
                m.push(j);
                rec(tm, i + 1, free, m, best);
                m.pop();
                free[j] += 1;
            }
        }
    }
    let mut best = u64::MAX;
    let mut free = vec![tm.ports() / tm.asics(); tm.asics()];
    rec(tm, 0, &mut free, &mut Vec::new(), &mut best);
    best
}

const KINDS: [TmKind; 2] = [TmKind::Uniform, TmKind::Skewed];

/// The reference greedy is Listing 1 as printed (the transcription above), including its
/// tie order.
#[test]
fn greedy_is_listing1() {
    let mut rng = SplitMix64::new(1);
    let mut ws = Workspace::new();
    for case in 0..600 {
        let n = 1 + rng.below(8) as usize;
        let p = n * (1 + rng.below(24) as usize);
        // Small values force many ties; huge ones exercise 128-bit keys.
        let max = [3, 1000, 1 << 40, portmap::MAX_TOTAL_BYTES][case % 4] / (p * n) as u64;
        let tm = random_tm(&mut rng, p, n, KINDS[case % 2], max.max(1));
        let got = run(&tm, &Constraints::default(), Solver::Greedy, &mut ws);
        assert_eq!(got, listing1(tm.view()), "case {case}: p={p} n={n}");
    }
}

/// The selection-based greedy gives Listing 1's mapping, port for port: 4,000 random
/// matrices of 2 to 8 ASICs and up to 256 ports, entries from 0..2 (mostly ties) to the
/// largest total allowed, uniform and skewed, with and without bundles and circuit switches;
/// both solvers share one workspace, as the simulator's controller would.
#[test]
fn greedy_select_maps_like_listing1() {
    let mut rng = SplitMix64::new(13);
    let mut ws = Workspace::new();
    let (mut ties, mut constrained) = (0, 0);
    for case in 0..4000 {
        let n = 2 + rng.below(7) as usize;
        let (b, cs) = if case % 2 == 0 {
            (1, 1)
        } else {
            (1 + rng.below(4) as usize, 1 + rng.below(3) as usize)
        };
        let p = n * b * cs * (1 + rng.below((256 / (n * b * cs)) as u64) as usize);
        let max = [
            2,
            3,
            5,
            1000,
            1 << 24,
            portmap::MAX_TOTAL_BYTES / (p * n) as u64,
        ][case % 6];
        let tm = random_tm(&mut rng, p, n, KINDS[case / 2 % 2], max.max(1));
        let c = Constraints {
            bundle: b,
            circuit_switches: cs,
        };
        let reference = run(&tm, &c, Solver::Greedy, &mut ws);
        let select = run(&tm, &c, Solver::GreedySelect, &mut ws);
        assert_eq!(select, reference, "case {case}: p={p} n={n} b={b} cs={cs}");
        ties += usize::from(max <= 5);
        constrained += usize::from(b * cs > 1);
    }
    assert!(ties > 1500 && constrained > 1000, "{ties} {constrained}");
}

#[test]
fn greedy_is_optimal_for_two_asics() {
    let mut rng = SplitMix64::new(2);
    let mut ws = Workspace::new();
    for case in 0..2000 {
        let p = 2 * (1 + rng.below(64) as usize);
        let max = [4, 100, 1 << 30][case % 3];
        let tm = random_tm(&mut rng, p, 2, KINDS[case % 2], max);
        let g = run(&tm, &Constraints::default(), Solver::Greedy, &mut ws);
        let e = run(&tm, &Constraints::default(), Solver::Exact, &mut ws);
        assert_eq!(cost(&tm, &g), cost(&tm, &e), "case {case}");
    }
}

#[test]
fn exact_matches_brute_force() {
    let mut rng = SplitMix64::new(3);
    let mut ws = Workspace::new();
    for case in 0..300 {
        let n = 1 + rng.below(4) as usize;
        let p = n * (1 + rng.below((8 / n) as u64) as usize);
        let tm = random_tm(&mut rng, p, n, KINDS[case % 2], [5, 1000][case % 2]);
        let best = brute_force(&tm);
        for s in [Solver::Exact, Solver::Hungarian] {
            let m = run(&tm, &Constraints::default(), s, &mut ws);
            assert_eq!(cost(&tm, &m), best, "case {case} solver {s}");
        }
    }
}

#[test]
fn exact_matches_hungarian() {
    let mut rng = SplitMix64::new(4);
    let mut ws = Workspace::new();
    for case in 0..400 {
        let n = 1 + rng.below(8) as usize;
        let p = n * (1 + rng.below(96 / n as u64) as usize);
        let max = [3, 1000, portmap::MAX_TOTAL_BYTES][case % 3] / (p * n) as u64;
        let tm = random_tm(&mut rng, p, n, KINDS[case % 2], max.max(1));
        let c = Constraints::default();
        let e = run(&tm, &c, Solver::Exact, &mut ws);
        let h = run(&tm, &c, Solver::Hungarian, &mut ws);
        assert_eq!(cost(&tm, &e), cost(&tm, &h), "case {case}: p={p} n={n}");
        // Heuristics are never better than the optimum.
        for s in [Solver::Greedy, Solver::Rdc] {
            assert!(cost(&tm, &run(&tm, &c, s, &mut ws)) >= cost(&tm, &e));
        }
    }
}

#[test]
fn constraints_exact_matches_hungarian_and_are_respected() {
    let mut rng = SplitMix64::new(5);
    let mut ws = Workspace::new();
    for case in 0..300 {
        let n = 1 + rng.below(4) as usize;
        let b = 1 + rng.below(4) as usize;
        let cs = 1 + rng.below(3) as usize;
        let p = n * b * cs * (1 + rng.below(4) as usize);
        let tm = random_tm(&mut rng, p, n, KINDS[case % 2], 1000);
        let c = Constraints {
            bundle: b,
            circuit_switches: cs,
        };
        let e = run(&tm, &c, Solver::Exact, &mut ws);
        let h = run(&tm, &c, Solver::Hungarian, &mut ws);
        assert_eq!(cost(&tm, &e), cost(&tm, &h), "case {case}");
        for s in portmap::Solver::ALL {
            let m = run(&tm, &c, s, &mut ws);
            assert!(cost(&tm, &m) >= cost(&tm, &e));
            // Bundles move together.
            for chunk in m.chunks(b) {
                assert!(chunk.iter().all(|&a| a == chunk[0]), "{s}: bundle split");
            }
            // Each circuit switch is balanced on its own.
            for sw in m.chunks(p / cs) {
                let mut count = vec![0; n];
                sw.iter().for_each(|&a| count[a] += 1);
                assert!(
                    count.iter().all(|&x| x == p / cs / n),
                    "{s}: switch unbalanced"
                );
            }
        }
        // For 2 ASICs greedy stays optimal under constraints.
        if n == 2 {
            let g = run(&tm, &c, Solver::Greedy, &mut ws);
            assert_eq!(cost(&tm, &g), cost(&tm, &e));
        }
    }
}

#[test]
fn constraints_equal_explicit_reduction() {
    // Bundled optimum == optimum of the aggregated matrix.
    let mut rng = SplitMix64::new(6);
    let tm = random_tm(&mut rng, 48, 4, TmKind::Skewed, 1 << 20);
    let agg: Vec<Vec<u64>> = (0..12)
        .map(|r| {
            (0..4)
                .map(|j| (0..4).map(|q| tm.get(4 * r + q, j)).sum())
                .collect()
        })
        .collect();
    let agg = TrafficMatrix::from_rows(&agg).unwrap();
    let mut ws = Workspace::new();
    let bundled = run(
        &tm,
        &Constraints {
            bundle: 4,
            circuit_switches: 1,
        },
        Solver::Exact,
        &mut ws,
    );
    let direct = run(&agg, &Constraints::default(), Solver::Exact, &mut ws);
    assert_eq!(cost(&tm, &bundled), cost(&agg, &direct));
}

#[test]
fn workspace_reuse_and_determinism() {
    let mut rng = SplitMix64::new(7);
    let tms: Vec<_> = (0..20)
        .map(|i| random_tm(&mut rng, 8 * (1 + i % 8), 8, KINDS[i % 2], 1 << 20))
        .collect();
    for s in Solver::ALL {
        let mut shared = Workspace::new();
        for tm in &tms {
            let a = run(tm, &Constraints::default(), s, &mut shared);
            let b = run(tm, &Constraints::default(), s, &mut Workspace::new());
            assert_eq!(a, b, "{s}");
        }
    }
}

#[test]
fn localisable_traffic_is_fully_localised() {
    // A permutation of the identity layout: every port sends only to one
    // ASIC and each ASIC is wanted by exactly p/n ports.
    let (p, n) = (64, 8);
    let mut rng = SplitMix64::new(8);
    let mut want: Vec<usize> = (0..p).map(|i| i / (p / n)).collect();
    for i in (1..p).rev() {
        want.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let mut data = vec![0u64; p * n];
    for (i, &w) in want.iter().enumerate() {
        data[i * n + w] = 1000 + i as u64;
    }
    let tm = TrafficMatrix::new(p, n, data).unwrap();
    let mut ws = Workspace::new();
    for s in Solver::ALL {
        let m = run(&tm, &Constraints::default(), s, &mut ws);
        assert_eq!(cost(&tm, &m), 0, "{s}");
    }
    assert!(portmap::static_inter_asic_bytes(tm.view()) > 0);
}

#[test]
fn ssp_fallback_matches_hungarian() {
    let mut rng = SplitMix64::new(9);
    let mut ws = portmap::exact::ExactWorkspace::default();
    let mut hw = Workspace::new();
    for case in 0..300 {
        let n = 1 + rng.below(8) as usize;
        let p = n * (1 + rng.below(64 / n as u64) as usize);
        let max = [3, 1000, portmap::MAX_TOTAL_BYTES][case % 3] / (p * n) as u64;
        let tm = random_tm(&mut rng, p, n, KINDS[case % 2], max.max(1));
        let mut out = vec![0; p];
        portmap::exact::successive_shortest_paths(tm.view(), &mut ws, &mut out);
        Mapping::from_vec(out.clone()).validate(p, n).unwrap();
        let h = run(&tm, &Constraints::default(), Solver::Hungarian, &mut hw);
        assert_eq!(cost(&tm, &out), cost(&tm, &h), "case {case}: p={p} n={n}");
    }
}

#[test]
fn exact_matches_ssp_on_large_inputs() {
    // Large uniform inputs need dozens of cycle cancellations, so this
    // covers the heap-based edge costs of the cycle-canceling stage.
    let mut rng = SplitMix64::new(10);
    let mut ws = portmap::exact::ExactWorkspace::default();
    let mut sw = Workspace::new();
    for case in 0..40 {
        let n = [3, 4, 6, 8][case % 4];
        let p = n * 64;
        let max = [1 << 24, portmap::MAX_TOTAL_BYTES / (p * n) as u64][case / 20];
        let tm = random_tm(&mut rng, p, n, KINDS[case % 2], max);
        let mut ssp = vec![0; p];
        portmap::exact::successive_shortest_paths(tm.view(), &mut ws, &mut ssp);
        let e = run(&tm, &Constraints::default(), Solver::Exact, &mut sw);
        assert_eq!(cost(&tm, &e), cost(&tm, &ssp), "case {case}");
    }
}

#[test]
fn greedy_with_wide_keys_is_listing1() {
    // Row sums too large for 64-bit keys force the 128-bit key path.
    let mut rng = SplitMix64::new(11);
    let mut ws = Workspace::new();
    for (p, n) in [(4096, 2), (2048, 8)] {
        let mut data: Vec<u64> = (0..p * n).map(|_| rng.below(1000)).collect();
        data[0] = 1 << 50;
        data[n + 1] = (1 << 50) - 7;
        let tm = TrafficMatrix::new(p, n, data).unwrap();
        for s in [Solver::Greedy, Solver::GreedySelect] {
            let got = run(&tm, &Constraints::default(), s, &mut ws);
            assert_eq!(got, listing1(tm.view()), "{s}: p={p} n={n}");
        }
    }
}

/// `Workspace::ops` counts the last solve's elementary operations: the same for the same
/// input whatever the workspace held before, summed over the sub-problems of a constraint,
/// and growing with the work (the greedy about linearly in ports, the Hungarian method
/// about cubically, the Kernighan-Lin baseline far above the greedy).
#[test]
fn operation_counts_are_deterministic_and_follow_the_work() {
    let mut rng = SplitMix64::new(12);
    let tm = |rng: &mut SplitMix64, p| random_tm(rng, p, 8, TmKind::Uniform, 1 << 24);
    let (small, large) = (tm(&mut rng, 64), tm(&mut rng, 256));
    let ops = |tm: &TrafficMatrix, c: &Constraints, s: Solver, ws: &mut Workspace| {
        run(tm, c, s, ws);
        ws.ops()
    };
    let none = Constraints::default();
    let mut shared = Workspace::new();
    let mut count = |tm: &TrafficMatrix, s| ops(tm, &none, s, &mut shared);
    let mut at = std::collections::HashMap::new();
    for s in Solver::ALL {
        let (a, b) = (count(&small, s), count(&large, s));
        assert!(a > 0 && b > a, "{s}: {a} {b}");
        // Another solve in between, then the same input again: the same count, and the
        // same as a fresh workspace's.
        assert_eq!(count(&small, s), a, "{s}");
        assert_eq!(ops(&small, &none, s, &mut Workspace::new()), a, "{s}");
        at.insert(s, (a as f64, b as f64));
    }
    let slope = |s| {
        let (a, b): (f64, f64) = at[&s];
        (b / a).ln() / 4f64.ln()
    };
    // Listing 1's sort makes it p log p, the selection linear; the selection does less.
    for s in [Solver::Greedy, Solver::GreedySelect] {
        assert!((0.8..1.3).contains(&slope(s)), "{s}: {}", slope(s));
    }
    assert!(at[&Solver::GreedySelect].1 < at[&Solver::Greedy].1);
    assert!(
        slope(Solver::Hungarian) > 2.0,
        "{}",
        slope(Solver::Hungarian)
    );
    assert!(at[&Solver::Rdc].1 > 50.0 * at[&Solver::Greedy].1);
    // A bundle of 4 is one sub-problem of a quarter of the rows: the Hungarian method's
    // count drops by far more than 4x, and equals that of the aggregated matrix.
    let bundled = Constraints {
        bundle: 4,
        circuit_switches: 1,
    };
    let b4 = ops(&large, &bundled, Solver::Hungarian, &mut shared);
    assert!(b4 as f64 * 16.0 < at[&Solver::Hungarian].1, "{b4}");
    let rows: Vec<Vec<u64>> = (0..64)
        .map(|r| {
            (0..8)
                .map(|j| (0..4).map(|q| large.view().get(4 * r + q, j)).sum())
                .collect()
        })
        .collect();
    let agg = TrafficMatrix::from_rows(&rows).unwrap();
    assert_eq!(ops(&agg, &none, Solver::Hungarian, &mut shared), b4);
}

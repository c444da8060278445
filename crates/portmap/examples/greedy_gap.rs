//! Gap of the greedy heuristic to the optimum for 4 and 8 ASICs (paper
//! section 4.3: "within 0.5 % of the optimal solution"; section 6.4: "< 1 %
//! additional inter-ASIC traffic on average across 1k random traffic
//! matrices").
//!
//! For every (ports, ASICs, kind) it solves 1000 random traffic matrices
//! (deterministic SplitMix64 seeds) with the greedy and the exact solver and
//! prints the mean and worst relative excess of greedy's inter-ASIC bytes
//! over the optimum, plus how often greedy was optimal.
//!
//! Run: `cargo run --release -p portmap --example greedy_gap [trials]`

use portmap::gen::{random_tm, SplitMix64, TmKind};
use portmap::{inter_asic_bytes, solve, Constraints, Solver, Workspace};

fn main() {
    let trials: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1000);
    let mut ws = Workspace::new();
    let (mut g, mut e) = (Vec::new(), Vec::new());
    let c = Constraints::default();
    println!("greedy gap to optimum over {trials} random TMs per row (entries < 2^24 bytes)");
    println!(
        "{:>6} {:>6} {:>8} {:>11} {:>11} {:>10}",
        "ports", "asics", "kind", "mean gap %", "worst gap %", "optimal %"
    );
    for n in [4usize, 8] {
        for p in [64usize, 128, 512] {
            for kind in [TmKind::Uniform, TmKind::Skewed] {
                let mut rng =
                    SplitMix64::new(0x6A9 ^ ((p as u64) << 8) ^ n as u64 ^ ((kind as u64) << 20));
                let (mut sum, mut worst, mut optimal) = (0.0f64, 0.0f64, 0usize);
                for _ in 0..trials {
                    let tm = random_tm(&mut rng, p, n, kind, 1 << 24);
                    solve(tm.view(), &c, Solver::Greedy, &mut ws, &mut g).expect("valid input");
                    solve(tm.view(), &c, Solver::Exact, &mut ws, &mut e).expect("valid input");
                    let (cg, ce) = (
                        inter_asic_bytes(tm.view(), &g),
                        inter_asic_bytes(tm.view(), &e),
                    );
                    assert!(cg >= ce, "greedy beat the exact solver");
                    let gap = if ce == 0 {
                        if cg == 0 {
                            0.0
                        } else {
                            f64::INFINITY
                        }
                    } else {
                        (cg - ce) as f64 / ce as f64
                    };
                    sum += gap;
                    worst = worst.max(gap);
                    optimal += (cg == ce) as usize;
                }
                println!(
                    "{:>6} {:>6} {:>8} {:>11.4} {:>11.4} {:>10.1}",
                    p,
                    n,
                    format!("{kind:?}").to_lowercase(),
                    100.0 * sum / trials as f64,
                    100.0 * worst,
                    100.0 * optimal as f64 / trials as f64
                );
            }
        }
    }
}

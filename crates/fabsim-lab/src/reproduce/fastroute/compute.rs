//! Fastroute's computed results: the power model (Tables 2-3) and the control plane's solver
//! runtimes and mapping quality (Figs. 20-22).

use portmap::power::PowerModel;
use portmap::Solver;

use super::solvers::*;
use super::synth;
use crate::reproduce::cols::computed;
use crate::reproduce::{
    Claim, Contra, Ctx, Experiment, Paper, Plot, Row, Source, Table, Tol, ABOUT_PCT, DECADES,
    INT_LIMIT, SLOPE, TIMING,
};

const ASICS: [usize; 4] = [2, 4, 6, 8];

/// Long-form table: one row per (asics, quantity).
fn long(rows: Vec<(usize, &str, f64)>) -> Table {
    Table {
        header: computed::header(&[computed::ASICS, computed::QUANTITY, computed::VALUE]),
        rows: rows
            .into_iter()
            .map(|(n, q, v)| vec![n.to_string(), q.to_string(), v.to_string()])
            .collect(),
    }
}

fn table2_rows(_: &Ctx) -> Table {
    let m = PowerModel::default();
    let mut rows = vec![];
    for n in ASICS {
        let s = m.savings(n);
        rows.extend([
            (n, "throughput Tb/s", s.throughput_tbps),
            (n, "inter-ASIC links", s.inter_asic),
            (n, "fabric", s.fabric),
            (n, "buffer", s.buffer),
            (n, "indirection layer", s.indirection),
            (n, "total", s.total),
        ]);
    }
    long(rows)
}

fn table3_rows(_: &Ctx) -> Table {
    let m = PowerModel::default();
    let mut rows = vec![];
    for n in ASICS {
        rows.push((
            n,
            "switch without oversubscription",
            m.switch_power_without_oversubscription(n),
        ));
        rows.push((n, "Fastroute savings", m.savings(n).total));
    }
    long(rows)
}

/// Fig. 2's quantities per ASIC count (2 to 8): the usable bandwidth of State-of-the-Art and
/// Fastroute switches from the same ASICs, and what the larger radix buys in fat-tree hosts.
fn fig2_rows(_: &Ctx) -> Table {
    let m = PowerModel::default();
    let mut rows = vec![];
    for n in 2..=8 {
        rows.extend([
            (n, "State-of-the-Art Tb/s", m.sota_throughput_tbps(n)),
            (n, "Fastroute Tb/s", m.fastroute_throughput_tbps(n)),
            (n, "bandwidth gain %", 100.0 * m.bandwidth_gain(n)),
            (n, "2-layer hosts gain %", 100.0 * m.host_gain(n, 2)),
            (n, "3-layer hosts gain %", 100.0 * m.host_gain(n, 3)),
        ]);
    }
    long(rows)
}

/// The smallest and largest of `quantity` over 2 to 4 ASICs (the paper's "2-4 ASIC regime").
fn range_2_to_4(t: &Table, quantity: &str) -> Result<(f64, f64), String> {
    let v = ["2", "3", "4"]
        .into_iter()
        .map(|n| value(t, n, quantity))
        .collect::<Result<Vec<f64>, String>>()?;
    Ok((
        v.iter().copied().fold(f64::INFINITY, f64::min),
        v.iter().copied().fold(f64::NEG_INFINITY, f64::max),
    ))
}

fn value(t: &Table, asics: &str, quantity: &str) -> Result<f64, String> {
    t.mean(
        &[(computed::ASICS, asics), (computed::QUANTITY, quantity)],
        |r| r.num(computed::VALUE),
    )
}

fn watts(r: &Row) -> Option<f64> {
    (r.get(computed::QUANTITY)? != "throughput Tb/s").then(|| r.num(computed::VALUE))?
}

/// The solver-runtime figures' plot: runtime per solve against the port count, a series
/// per solver.
fn runtime_plot() -> Plot {
    Plot {
        x: computed::PORTS,
        x_label: "packet switch ports",
        x_log: true,
        y: runtime,
        y_label: "runtime per solve [µs]",
        y_log: true,
        y_span: None,
        x_scale: 1.0,
        series: solver_series,
    }
}

/// [`runtime_plot`] with the elementary operations per solve instead of the runtime.
fn ops_plot() -> Plot {
    Plot {
        y: ops,
        y_label: "elementary operations per solve",
        ..runtime_plot()
    }
}

pub fn experiments() -> Vec<Experiment> {
    vec![
        fig2(),
        table2(),
        table3(),
        fig21_runtime(),
        fig20(),
        fig22(),
    ]
}

/// `fastroute-fig2`, Fig. 2: usable bandwidth and radix of multi-ASIC switches, and the
/// fat-tree hosts it buys.
fn fig2() -> Experiment {
    Experiment {
        id: "fastroute-fig2",
        paper: Paper::Fastroute,
        figure: "Fig. 2",
        title: "usable bandwidth and radix of multi-ASIC switches, and the fat-tree hosts it buys",
        varies: "number of ASICs (2 to 8)",
        setup: "The model of `portmap::power` (also `fabsim power`): State-of-the-Art \
                spends ASIC capacity on a non-blocking internal fabric, Fastroute on an \
                oversubscribed one; at the same port speed the radix is proportional to \
                the usable bandwidth, and a fat tree of radix R holds R^2/2 hosts in 2 \
                layers and R^3/4 in 3. Tolerances: the stated ranges' ends as one-sided \
                limits ('at least', 'up to', rounded to whole percent), ± 1 pp on the \
                intro's \"around 30%\".",
        source: Source::ClosedForm(fig2_rows),
        plot: Plot {
            x: computed::ASICS,
            x_label: "ASICs per switch",
            x_log: false,
            y: |r| {
                r.get(computed::QUANTITY)?
                    .ends_with('%')
                    .then(|| r.num(computed::VALUE))?
            },
            y_label: "Fastroute over State-of-the-Art [%]",
            y_log: false,
            y_span: None,
            x_scale: 1.0,
            series: |r| r.get(computed::QUANTITY).unwrap_or("?").to_string(),
        },
        panels: vec![],
        synthetic: synth::fig2,
        table_readings: vec![],
        claim_readings: vec![],
        controls: vec![],
        readings: vec![],
        claims: fig2_claims(),
    }
}

/// The claims of [`fig2`].
fn fig2_claims() -> Vec<Claim> {
    vec![
        Claim {
            text: "Fastroute extracts around 30% more bandwidth and radix from the \
                   same ASICs (2 ASICs)",
            paper: 30.0,
            unit: "%",
            tol: ABOUT_PCT,
            fabsim: |t| value(t, "2", "bandwidth gain %"),
            differs: "portmap::power's model gives one third more at 2 ASICs; the intro's \
                      'around 30%' is read as ± 1 pp by the tolerance rule and the paper \
                      prints no exact value for it",
            contra: Contra::Table(|t| {
                t.map(
                    &[
                        (computed::ASICS, "2"),
                        (computed::QUANTITY, "bandwidth gain %"),
                    ],
                    computed::VALUE,
                    |_| 35.0,
                )
            }),
        },
        Claim {
            text: "2-4 ASICs: a 2-layer fat tree holds at least 30% more hosts",
            paper: 30.0,
            unit: "%",
            tol: Tol::AtLeast(INT_LIMIT),
            fabsim: |t| Ok(range_2_to_4(t, "2-layer hosts gain %")?.0),
            differs: "",
            contra: Contra::Table(|t| {
                t.map(
                    &[
                        (computed::ASICS, "2"),
                        (computed::QUANTITY, "2-layer hosts gain %"),
                    ],
                    computed::VALUE,
                    |_| 25.0,
                )
            }),
        },
        Claim {
            text: "2-4 ASICs: a 2-layer fat tree holds up to 78% more hosts",
            paper: 78.0,
            unit: "%",
            tol: Tol::UpTo(INT_LIMIT),
            fabsim: |t| Ok(range_2_to_4(t, "2-layer hosts gain %")?.1),
            differs: "",
            contra: Contra::Table(|t| {
                t.map(
                    &[
                        (computed::ASICS, "4"),
                        (computed::QUANTITY, "2-layer hosts gain %"),
                    ],
                    computed::VALUE,
                    |_| 85.0,
                )
            }),
        },
        Claim {
            text: "2-4 ASICs: a 3-layer fat tree holds at least 49% more hosts",
            paper: 49.0,
            unit: "%",
            tol: Tol::AtLeast(INT_LIMIT),
            fabsim: |t| Ok(range_2_to_4(t, "3-layer hosts gain %")?.0),
            differs: "",
            contra: Contra::Table(|t| {
                t.map(
                    &[
                        (computed::ASICS, "2"),
                        (computed::QUANTITY, "3-layer hosts gain %"),
                    ],
                    computed::VALUE,
                    |_| 40.0,
                )
            }),
        },
        Claim {
            text: "2-4 ASICs: a 3-layer fat tree holds up to 138% more hosts",
            paper: 138.0,
            unit: "%",
            tol: Tol::UpTo(INT_LIMIT),
            fabsim: |t| Ok(range_2_to_4(t, "3-layer hosts gain %")?.1),
            differs: "",
            contra: Contra::Table(|t| {
                t.map(
                    &[
                        (computed::ASICS, "4"),
                        (computed::QUANTITY, "3-layer hosts gain %"),
                    ],
                    computed::VALUE,
                    |_| 150.0,
                )
            }),
        },
    ]
}

/// `fastroute-table2`, Table 2: power savings against a non-oversubscribed n-ASIC switch.
fn table2() -> Experiment {
    Experiment {
        id: "fastroute-table2",
        paper: Paper::Fastroute,
        figure: "Table 2",
        title: "power savings against a non-oversubscribed n-ASIC switch",
        varies: "number of ASICs (2, 4, 6, 8)",
        setup: "The model of `portmap::power` (also `fabsim power`).",
        source: Source::ClosedForm(table2_rows),
        plot: Plot {
            x: computed::ASICS,
            x_label: "ASICs per switch",
            x_log: false,
            y: watts,
            y_label: "power saved [W]",
            y_log: false,
            y_span: None,
            x_scale: 1.0,
            series: |r| r.get(computed::QUANTITY).unwrap_or("?").to_string(),
        },
        panels: vec![],
        synthetic: synth::table2,
        table_readings: vec![],
        claim_readings: vec![],
        controls: vec![],
        readings: vec![],
        claims: table2_claims(),
    }
}

/// The claims of [`table2`].
fn table2_claims() -> Vec<Claim> {
    vec![
        Claim {
            text: "2 ASICs: total throughput 136.5 Tb/s",
            paper: 136.5,
            unit: "Tb/s",
            tol: Tol::Abs(0.05),
            fabsim: |t| value(t, "2", "throughput Tb/s"),
            differs: "",
            contra: Contra::Table(|t| bump(t, "2", "throughput Tb/s")),
        },
        Claim {
            text: "8 ASICs: total throughput 436.9 Tb/s",
            paper: 436.9,
            unit: "Tb/s",
            tol: Tol::Abs(0.05),
            fabsim: |t| value(t, "8", "throughput Tb/s"),
            differs: "",
            contra: Contra::Table(|t| bump(t, "8", "throughput Tb/s")),
        },
        Claim {
            text: "2 ASICs: total power savings 172.7 W (173 W in the text)",
            paper: 172.7,
            unit: "W",
            tol: Tol::Abs(0.05),
            fabsim: |t| value(t, "2", "total"),
            differs: "",
            contra: Contra::Table(|t| bump(t, "2", "total")),
        },
        Claim {
            text: "4 ASICs: total power savings 444.1 W",
            paper: 444.1,
            unit: "W",
            tol: Tol::Abs(0.05),
            fabsim: |t| value(t, "4", "total"),
            differs: "",
            contra: Contra::Table(|t| bump(t, "4", "total")),
        },
        Claim {
            text: "6 ASICs: total power savings 420.0 W",
            paper: 420.0,
            unit: "W",
            tol: Tol::Abs(0.05),
            fabsim: |t| value(t, "6", "total"),
            differs: "",
            contra: Contra::Table(|t| bump(t, "6", "total")),
        },
        Claim {
            text: "8 ASICs: total power savings 406.9 W (407 W in the text)",
            paper: 406.9,
            unit: "W",
            tol: Tol::Abs(0.05),
            fabsim: |t| value(t, "8", "total"),
            differs: "",
            contra: Contra::Table(|t| bump(t, "8", "total")),
        },
        Claim {
            text: "4 ASICs: fabric savings about 300 W",
            paper: 300.2,
            unit: "W",
            tol: Tol::Abs(0.5),
            fabsim: |t| value(t, "4", "fabric"),
            differs: "",
            contra: Contra::Table(|t| bump(t, "4", "fabric")),
        },
        Claim {
            text: "the peak power savings occur at 4 ASICs",
            paper: 4.0,
            unit: "ASICs",
            tol: Tol::Abs(0.0),
            fabsim: |t| {
                let best = ["2", "4", "6", "8"]
                    .into_iter()
                    .map(|n| Ok((value(t, n, "total")?, n)))
                    .collect::<Result<Vec<_>, String>>()?
                    .into_iter()
                    .max_by(|a, b| a.0.total_cmp(&b.0))
                    .ok_or("no rows")?;
                best.1.parse::<f64>().map_err(|e| e.to_string())
            },
            differs: "",
            contra: Contra::Table(|t| {
                t.map(
                    &[(computed::ASICS, "6"), (computed::QUANTITY, "total")],
                    computed::VALUE,
                    |_| 500.0,
                )
            }),
        },
    ]
}

/// `fastroute-table3`, Table 3: power of a non-oversubscribed n-ASIC switch with Fastroute's
/// throughput.
fn table3() -> Experiment {
    Experiment {
        id: "fastroute-table3",
        paper: Paper::Fastroute,
        figure: "Table 3",
        title: "power of a non-oversubscribed n-ASIC switch with Fastroute's throughput",
        varies: "number of ASICs (2, 4, 6, 8)",
        setup: "Eq. 3: throughput x (inter-ASIC + fabric (n > 2) + buffer + ASIC energy per \
                bit), the ASIC's 7.32 pJ/bit rounded as the paper quotes it.",
        source: Source::ClosedForm(table3_rows),
        plot: Plot {
            x: computed::ASICS,
            x_label: "ASICs per switch",
            x_log: false,
            y: |r| r.num(computed::VALUE),
            y_label: "power [W]",
            y_log: false,
            y_span: None,
            x_scale: 1.0,
            series: |r| r.get(computed::QUANTITY).unwrap_or("?").to_string(),
        },
        panels: vec![],
        synthetic: synth::table3,
        table_readings: vec![],
        claim_readings: vec![],
        controls: vec![],
        readings: vec![],
        claims: vec![
            Claim {
                text: "2 ASICs: 1354 W",
                paper: 1354.0,
                unit: "W",
                tol: Tol::Abs(0.5),
                fabsim: |t| value(t, "2", "switch without oversubscription"),
                differs: "",
                contra: Contra::Table(|t| bump(t, "2", "switch without oversubscription")),
            },
            Claim {
                text: "4 ASICs: 3523 W",
                paper: 3523.0,
                unit: "W",
                tol: Tol::Abs(0.5),
                fabsim: |t| value(t, "4", "switch without oversubscription"),
                differs: "",
                contra: Contra::Table(|t| bump(t, "4", "switch without oversubscription")),
            },
            Claim {
                text: "6 ASICs: 5044 W",
                paper: 5044.0,
                unit: "W",
                tol: Tol::Abs(0.5),
                fabsim: |t| value(t, "6", "switch without oversubscription"),
                differs: "",
                contra: Contra::Table(|t| bump(t, "6", "switch without oversubscription")),
            },
            Claim {
                text: "8 ASICs: 6575 W",
                paper: 6575.0,
                unit: "W",
                tol: Tol::Abs(0.5),
                fabsim: |t| value(t, "8", "switch without oversubscription"),
                differs: "",
                contra: Contra::Table(|t| bump(t, "8", "switch without oversubscription")),
            },
        ],
    }
}

/// `fastroute-fig21-runtime`, Fig. 21 (sec. A.1): port bundling: control-plane runtime and
/// localization.
fn fig21_runtime() -> Experiment {
    Experiment {
        id: "fastroute-fig21-runtime",
        paper: Paper::Fastroute,
        figure: "Fig. 21 (sec. A.1)",
        title: "port bundling: control-plane runtime and localization",
        varies: "ports per bundle (1, 2, 4, 8) at 4 ASICs",
        setup: "256 ports, 4 ASICs, skewed random traffic matrices; bundles of b \
                consecutive ports move together (their hot ASICs are drawn independently: \
                the worst case for bundling). Plotted: the inter-ASIC share under the \
                optimal mapping; the runtime claim is on the paper's optimal algorithm (the \
                Hungarian method on the bundled p/b x p/b problem): the ratio of its median \
                counts of elementary operations (`portmap::Workspace::ops`, the inner-loop \
                iterations: the same on every machine and run); its wall-clock runtimes \
                (medians of 7 timed solves, the bundle sizes taking turns) are in \
                results.csv. 100 matrices (--quick: 3). The packet-level throughput claim \
                is `fastroute-fig21`.",
        source: Source::Compute(|ctx| bundled(ctx, 4, &[1, 2, 4, 8])),
        plot: Plot {
            x: computed::BUNDLE,
            x_label: "ports per bundle",
            x_log: true,
            y: share,
            y_label: "inter-ASIC share of traffic, optimal mapping [%]",
            y_log: false,
            y_span: None,
            x_scale: 1.0,
            series: |_| "Fastroute (optimal mapping)".into(),
        },
        panels: vec![],
        synthetic: synth::fig21_runtime,
        table_readings: vec![],
        claim_readings: vec![],
        controls: vec![],
        readings: vec![],
        claims: vec![Claim {
            text: "bundling four ports lowers the optimal algorithm's runtime by up to 64x \
                   (p^3 scaling; ratio of the median counts of elementary operations)",
            paper: 64.0,
            unit: "x",
            tol: Tol::UpTo(INT_LIMIT),
            fabsim: |t| {
                let ops =
                    |b| t.median(&[(computed::BUNDLE, b)], |r| r.num(computed::HUNGARIAN_OPS));
                Ok(ops("1")? / ops("4")?)
            },
            differs: "",
            // Bundling that saves nothing (a ratio of 1) does not reach 'up to 64x'.
            contra: Contra::Table(|t| {
                let one = t.median(&[(computed::BUNDLE, "1")], |r| {
                    r.num(computed::HUNGARIAN_OPS)
                });
                let one = one.expect("bundle 1 in the synthetic table");
                t.map(&[(computed::BUNDLE, "4")], computed::HUNGARIAN_OPS, |_| one)
            }),
        }],
    }
}

/// `fastroute-fig20`, Fig. 20: control-plane runtime: optimal matching against the greedy
/// heuristic.
fn fig20() -> Experiment {
    Experiment {
        id: "fastroute-fig20",
        paper: Paper::Fastroute,
        figure: "Fig. 20",
        title: "control-plane runtime: optimal matching against the greedy heuristic",
        varies: "switch ports (64 to 512) x ASICs (2, 4, 8) x solver",
        setup: "The paper's optimal algorithm is the Hungarian method on the p x p matrix \
                (fabsim's plain O(p^3) reference); fabsim's own exact solver (a \
                transportation problem over the ASIC nodes) is plotted too. Full size: \
                1,000 random matrices per point as in the paper; --quick: 5 (--seeds N: N). \
                Each solve is measured twice: its wall-clock time (the median of 7 timed \
                solves, the solvers taking turns; left panel, and the claims that print a \
                time) and its elementary operations, the inner-loop iterations the solver \
                counts (`portmap::Workspace::ops`: one per traffic-matrix entry, key, \
                column or pair visited; right panel). The scaling claims fit the operation \
                counts, which are the same on every machine and run.",
        source: Source::Compute(|ctx| {
            solver_runtimes(
                ctx,
                &[
                    Solver::Greedy,
                    Solver::GreedySelect,
                    Solver::Exact,
                    Solver::Hungarian,
                ],
            )
        }),
        plot: runtime_plot(),
        panels: vec![ops_plot()],
        synthetic: synth::runtimes,
        table_readings: vec![],
        claim_readings: vec![],
        controls: vec![],
        readings: vec![],
        claims: fig20_claims(),
    }
}

/// The claims of [`fig20`].
fn fig20_claims() -> Vec<Claim> {
    vec![
        Claim {
            text: "the optimal algorithm reaches 3.5 ms for 512 ports and 8 ASICs",
            paper: 3500.0,
            unit: "µs",
            tol: TIMING,
            fabsim: |t| median_runtime(t, "hungarian", "8", "512"),
            differs: "fabsim's Hungarian is a plain O(p^3) reference without the \
                      paper's implementation's optimizations; fabsim's exact \
                      transportation solver finds the same optimum about 1000x faster",
            contra: Contra::Table(|t| slower(t, "hungarian", "8", "512", 3.0)),
        },
        Claim {
            text: "the heuristic takes 28 µs for 512 ports and 2 ASICs",
            paper: 28.0,
            unit: "µs",
            tol: TIMING,
            fabsim: |t| listing1_runtime(t, "2"),
            differs: "",
            contra: Contra::Table(|t| slower(t, "greedy", "2", "512", 3.0)),
        },
        Claim {
            text: "the heuristic takes 127 µs for 512 ports and 8 ASICs",
            paper: 127.0,
            unit: "µs",
            tol: TIMING,
            fabsim: |t| listing1_runtime(t, "8"),
            differs: "",
            contra: Contra::Table(|t| slower(t, "greedy", "8", "512", 3.0)),
        },
        Claim {
            text: "the heuristic scales almost linearly with ports (growth exponent of \
                   the median count of elementary operations, 64 to 512 ports, 8 ASICs)",
            paper: 1.0,
            unit: "",
            tol: SLOPE,
            fabsim: |t| ops_slope(t, "greedy"),
            differs: "",
            contra: Contra::Table(|t| more_ops(t, "greedy", "8", "512", 4.0)),
        },
        Claim {
            text: "the optimal algorithm's worst-case complexity is Θ(p^3): its \
                   operation count stays within a constant times p^3 (8 ASICs, 64 to \
                   512 ports; the largest ratio of the worst count over p^3 to its value \
                   at 64 ports)",
            paper: 1.0,
            unit: "x",
            tol: CUBIC_BOUND,
            fabsim: |t| cubic_bound_growth(t, "hungarian"),
            differs: "",
            contra: Contra::Table(|t| more_ops(t, "hungarian", "8", "512", 4.0)),
        },
        Claim {
            text: "for more than 2 ASICs the heuristic incurs < 1% additional inter-ASIC \
                   traffic on average (8 ASICs, all port counts)",
            paper: 1.0,
            unit: "%",
            tol: Tol::AtMost(INT_LIMIT),
            fabsim: |t| {
                t.mean(
                    &[(computed::SOLVER, "greedy"), (computed::ASICS, "8")],
                    |r| r.num(computed::GAP_PCT),
                )
            },
            differs: "",
            contra: Contra::Table(|t| {
                t.map(
                    &[(computed::SOLVER, "greedy"), (computed::ASICS, "8")],
                    computed::GAP_PCT,
                    |_| 2.0,
                )
            }),
        },
        Claim {
            text: "for 2 ASICs the heuristic is optimal (mean gap 0%)",
            paper: 0.0,
            unit: "%",
            tol: Tol::Abs(1e-9),
            fabsim: |t| {
                t.mean(
                    &[(computed::SOLVER, "greedy"), (computed::ASICS, "2")],
                    |r| r.num(computed::GAP_PCT),
                )
            },
            differs: "",
            contra: Contra::Table(|t| {
                t.map(
                    &[(computed::SOLVER, "greedy"), (computed::ASICS, "2")],
                    computed::GAP_PCT,
                    |_| 0.1,
                )
            }),
        },
    ]
}

/// `fastroute-fig22`, Fig. 22: runtime of the RDC heuristic against Fastroute's.
fn fig22() -> Experiment {
    Experiment {
        id: "fastroute-fig22",
        paper: Paper::Fastroute,
        figure: "Fig. 22",
        title: "runtime of the RDC heuristic against Fastroute's",
        varies: "switch ports (64 to 512) x ASICs (2, 4, 8) x solver (greedy, greedy-select, \
                 RDC)",
        setup: "RDC = fabsim's RDC-style balanced partitioning (recursive bisection with \
                Kernighan-Lin swaps). fabsim's number is log10 of the ratio of the two \
                solvers' median counts of elementary operations (the inner-loop \
                iterations each counts, `portmap::Workspace::ops`: the same on every \
                machine and run; one operation is a few instructions in either solver); \
                the wall-clock runtimes (medians of 7 timed solves, the solvers taking \
                turns) are plotted and in results.csv. Full size: 1,000 random matrices \
                per point; --quick: 5.",
        source: Source::Compute(|ctx| {
            solver_runtimes(ctx, &[Solver::Greedy, Solver::GreedySelect, Solver::Rdc])
        }),
        plot: runtime_plot(),
        panels: vec![ops_plot()],
        synthetic: synth::runtimes,
        table_readings: vec![],
        claim_readings: vec![],
        controls: vec![],
        readings: vec![],
        claims: vec![
            Claim {
                text: "RDC is around three orders of magnitude slower than the heuristic \
                       (512 ports, 8 ASICs; log10 of the ratio of elementary operations)",
                paper: 3.0,
                unit: "decades",
                tol: DECADES,
                fabsim: |t| rdc_decades(t, "8"),
                differs: "the RDC-style baseline is fabsim's own Kernighan-Lin \
                          implementation from the RDC paper's description; the heuristic is \
                          Listing 1 as written (greedy-select, the same mapping by \
                          selections, does several times fewer operations)",
                contra: Contra::Table(|t| more_ops(t, "rdc", "8", "512", 30.0)),
            },
            Claim {
                text: "RDC is around three orders of magnitude slower (512 ports, 2 ASICs; \
                       log10 of the ratio of elementary operations)",
                paper: 3.0,
                unit: "decades",
                tol: DECADES,
                fabsim: |t| rdc_decades(t, "2"),
                differs: "as at 8 ASICs; RDC's single bisection of 512 ports is cubic in \
                          its side",
                contra: Contra::Table(|t| more_ops(t, "rdc", "2", "512", 30.0)),
            },
        ],
    }
}

//! Fastroute simulations: traffic patterns, datacenter traces, ASIC counts and circuit
//! switches (Figs. 8, 10-16).

use super::{
    archs, base, by_arch, by_arch_and_workload, fastroute_thrp, highest_steady_load, ideal_phases,
    margin, min_over, most_asics, norm, p99_us, quick, quick16, ring, set_thrp, spread, synth,
    thrp_plot, two_ms, util_after_first_mapping, util_series, web80, FIG10_NEAR_ZERO, NEAR_IDEAL,
    SHORT_RUN,
};
use crate::reproduce::cols::{self as col, computed, key};
use crate::reproduce::scen::{full_only, sweep, Scen};
use crate::reproduce::{leak, Claim, Contra, Experiment, Paper, Plot, Source, Tol, INT_LIMIT};

pub fn experiments() -> Vec<Experiment> {
    vec![
        fig8(),
        fig10(),
        fig11(),
        fig12(),
        fig13(),
        n_asics("fastroute-fig14", "Fig. 14", true),
        n_asics("fastroute-fig15", "Fig. 15", false),
        fig16(),
    ]
}

/// `fastroute-fig8`, Fig. 8: application-oriented traffic: Shuffle, Stride, Ring All-Reduce.
fn fig8() -> Experiment {
    Experiment {
        id: "fastroute-fig8",
        paper: Paper::Fastroute,
        figure: "Fig. 8",
        title: "application-oriented traffic: Shuffle, Stride, Ring All-Reduce",
        varies: "traffic pattern x switch architecture",
        setup: "Stride and Shuffle (k = 4 peers) with offset = hosts per rack (every flow \
                leaves its rack), long-lived flows cut at 5 ms. Ring All-Reduce: random \
                groups of 16 hosts, each a logical ring, regrouped every 0.5 ms; each flow \
                carries what a link moves in 0.5 ms (50 MB at 800 Gb/s; --quick 6.25 MB at \
                100 Gb/s).",
        source: Source::Sim(vec![
            sweep(
                "pattern",
                archs(base())
                    .text("workload.kind", &["shuffle", "stride"])
                    .set("workload.message_bytes", 10_000_000_000u64)
                    .set("run.duration_us", 5000),
                &quick(&["workload.message_bytes=1000000000"]),
            ),
            sweep("ring", ring(archs(base())), &quick(&[] as &[&str])),
        ]),
        plot: thrp_plot(col::WORKLOAD, "traffic pattern", by_arch),
        panels: vec![],
        synthetic: synth::fig8,
        table_readings: vec![],
        claim_readings: vec![],
        controls: vec![
            // The static, oversubscribed switch in Fastroute's place must fail a 'matches Ideal'.
            stand_in!(col::ARCH; "Stride: Fastroute achieves near-single-ASIC performance (within about 1% of Ideal)", "Oversubscribed as Fastroute", "fastroute", "oversubscribed"),
            stand_in!(col::ARCH; "Shuffle: Fastroute achieves near-single-ASIC performance (within about 1% of Ideal)", "Oversubscribed as Fastroute", "fastroute", "oversubscribed"),
            stand_in!(col::ARCH; "Ring All-Reduce: Fastroute sustains performance within < 0.5% of the Ideal", "Oversubscribed as Fastroute", "fastroute", "oversubscribed"),
        ],
        readings: vec![],
        claims: fig8_claims(),
    }
}

/// The claims of [`fig8`].
fn fig8_claims() -> Vec<Claim> {
    vec![
        near_single_asic::<0>(),
        near_single_asic::<1>(),
        Claim {
            text: "Ring All-Reduce: Fastroute sustains performance within < 0.5% of \
                   the Ideal",
            paper: 99.5,
            unit: "%",
            tol: Tol::AtLeast(0.05),
            fabsim: |t| {
                let ring = [(col::WORKLOAD, "ring")];
                ideal_phases(t, &ring, norm(t, "fastroute", &ring))
            },
            differs: "each regrouping (every 0.5 ms) puts the new rings on the static \
                      or last mapping for up to one interval plus the compute delay \
                      (110 us), about a fifth of each group's lifetime",
            contra: Contra::Table(|t| set_thrp(t, "fastroute", &[(col::WORKLOAD, "ring")], 99.2)),
        },
        Claim {
            text: "Oversubscribed and State-of-the-Art suffer significant degradation \
                   while Fastroute adapts (Fastroute's margin over the better of the \
                   two, pp of Ideal, worst pattern)",
            paper: 0.0,
            unit: "pp",
            tol: Tol::Above,
            fabsim: |t| min_over(t, col::WORKLOAD, |w| margin(t, &[(col::WORKLOAD, w)])),
            differs: "",
            contra: Contra::Table(|t| {
                set_thrp(t, "oversubscribed", &[(col::WORKLOAD, "ring")], 99.9)
            }),
        },
    ]
}

/// `fastroute-fig10`, Fig. 10: inter-ASIC link utilization over time during LLM training (the
/// testbed).
fn fig10() -> Experiment {
    Experiment {
        id: "fastroute-fig10",
        paper: Paper::Fastroute,
        figure: "Fig. 10",
        title: "inter-ASIC link utilization over time during LLM training (the testbed)",
        varies: "time x switch architecture",
        setup: "The paper measures its hardware testbed during LLM training: inter-ASIC \
                link utilization in 10 ms intervals, the indirection layer updated every \
                500 us. fabsim runs the testbed analogue of Fig. 9 (`fastroute-fig9`: one \
                switch of 2 ASICs at 2:1 with 8 hosts at 100 Gb/s, one FSDP iteration, \
                ranks alternating ASICs so that every ring flow crosses the ASICs under \
                the static mapping), one seed, with the testbed's reconfiguration interval \
                (`switch.reconfig_interval_us = 500`, the greedy heuristic, 10 us compute \
                delay) and the utilization of the inter-ASIC links (mean over both \
                directions) in bins of the paper's 10 ms (`switch.util_sample_us`; the \
                iteration lasts about 150 ms on Ideal). --quick: Fig. 9's quick iteration \
                (2 blocks at 1/1000 of the message size: 1/40 of the bytes), and bins \
                shrunk with it to 250 us. fabsim's numbers: each architecture's mean \
                utilization over the bins from Fastroute's first mapping (510 us) on.",
        source: Source::Compute(util_series),
        plot: Plot {
            x: computed::TIME_US,
            x_label: "time [µs]",
            x_log: false,
            y: |r| r.num(computed::UTIL_PCT),
            y_label: "inter-ASIC link utilization [%]",
            y_log: false,
            y_span: None,
            x_scale: 1.0,
            series: by_arch,
        },
        panels: vec![],
        synthetic: synth::fig10,
        table_readings: vec![],
        claim_readings: vec![],
        controls: vec![
            // The static, oversubscribed switch in Fastroute's place must not read 'almost zero'.
            stand_in!(col::ARCH; FIG10_NEAR_ZERO, "Oversubscribed as Fastroute", "fastroute", "oversubscribed"),
        ],
        readings: vec![],
        claims: vec![
            Claim {
                text: FIG10_NEAR_ZERO,
                paper: 0.0,
                unit: "%",
                tol: Tol::Abs(5.0),
                fabsim: |t| util_after_first_mapping(t, "fastroute"),
                differs: "",
                contra: Contra::Table(|t| {
                    t.map(&[(col::ARCH, "fastroute")], computed::UTIL_PCT, |_| 20.0)
                }),
            },
            Claim {
                text: "for Oversubscribed the link utilization does not appear congested \
                       on average (mean utilization of its bins below 100%)",
                paper: 100.0,
                unit: "%",
                tol: Tol::Below,
                fabsim: |t| util_after_first_mapping(t, "oversubscribed"),
                differs: "",
                contra: Contra::Table(|t| {
                    t.map(&[(col::ARCH, "oversubscribed")], computed::UTIL_PCT, |_| {
                        100.0
                    })
                }),
            },
        ],
    }
}

/// `fastroute-fig11`, Fig. 11: datacenter traffic (Web, Hadoop) against network load.
fn fig11() -> Experiment {
    Experiment {
        id: "fastroute-fig11",
        paper: Paper::Fastroute,
        figure: "Fig. 11",
        title: "datacenter traffic (Web, Hadoop) against network load",
        varies: "load (20-100%) x trace x switch architecture",
        setup: "Facebook Web and Hadoop flow sizes (82% / 86% inter-rack), Poisson \
                arrivals at the given fraction of host capacity in flow payload, 2 ms \
                (Netbench takes an arrival rate, not a load; the paper 'scales up the flow \
                inter-arrival time': payload at the load times the hosts' rate is that \
                conversion). Headers and ACKs come on top, so Ideal may not keep up near \
                100%: the report's last sections flag each point where it does not reach \
                a steady state, and the claims leave those out. --quick: loads 20, 60, \
                100%.",
        source: Source::Sim({
            let s = two_ms(archs(base()))
                .text("workload.kind", &["web", "hadoop"])
                .set("workload.load", "[0.2, 0.4, 0.6, 0.8, 1.0]");
            vec![sweep("load", s, &quick(&["workload.load=0.2,0.6,1.0"]))]
        }),
        plot: Plot {
            x_scale: 100.0,
            ..thrp_plot(key::LOAD, "network load [%]", by_arch_and_workload)
        },
        panels: vec![],
        synthetic: synth::fig11,
        table_readings: vec![],
        claim_readings: vec![],
        controls: vec![
            // The static, oversubscribed switch in Fastroute's place must fail a 'matches Ideal'.
            stand_in!(col::ARCH; "Fastroute closely matches Ideal across the load range, a penalty of around 1% (Web, worst load)", "Oversubscribed as Fastroute", "fastroute", "oversubscribed"),
            stand_in!(col::ARCH; "Fastroute closely matches Ideal across the load range (Hadoop, worst load)", "Oversubscribed as Fastroute", "fastroute", "oversubscribed"),
        ],
        readings: vec![],
        claims: fig11_claims(),
    }
}

/// The claims of [`fig11`].
fn fig11_claims() -> Vec<Claim> {
    vec![
        Claim {
            text: "Fastroute closely matches Ideal across the load range, a penalty of \
                   around 1% (Web, worst load)",
            paper: 99.0,
            unit: "%",
            tol: NEAR_IDEAL,
            fabsim: |t| {
                min_over(t, key::LOAD, |l| {
                    norm(t, "fastroute", &[(col::WORKLOAD, "web"), (key::LOAD, l)])
                })
            },
            differs: "Fastroute runs about 2 pp below Ideal at every Web load at the --quick \
                      size (its Hadoop runs are closer); this held under the former ± 2 pp \
                      tolerance, not under 'about 1%'; cause not identified",
            contra: Contra::Table(|t| {
                set_thrp(
                    t,
                    "fastroute",
                    &[(col::WORKLOAD, "web"), (key::LOAD, "0.6")],
                    97.0,
                )
            }),
        },
        Claim {
            text: "Fastroute closely matches Ideal across the load range (Hadoop, \
                   worst load)",
            paper: 99.0,
            unit: "%",
            tol: NEAR_IDEAL,
            fabsim: |t| {
                min_over(t, key::LOAD, |l| {
                    norm(t, "fastroute", &[(col::WORKLOAD, "hadoop"), (key::LOAD, l)])
                })
            },
            differs: "",
            contra: Contra::Table(|t| {
                set_thrp(
                    t,
                    "fastroute",
                    &[(col::WORKLOAD, "hadoop"), (key::LOAD, "0.6")],
                    97.0,
                )
            }),
        },
        Claim {
            text: "above 60% load Oversubscribed's throughput is reduced by more than \
                   half (Web, the highest load above 60% where Ideal is in a steady state)",
            paper: 50.0,
            unit: "%",
            tol: Tol::Below,
            fabsim: |t| highest_steady_load(t, "oversubscribed", "web", 0.6),
            differs: "the 2:1 inter-ASIC link halves the flows between racks (the \
                      table of readings per point: inter-rack), but that unloads the \
                      hosts and the flows inside a rack, which never cross in this \
                      layout, run faster than on Ideal; a mean over flows weighs both",
            contra: Contra::Table(|t| {
                set_thrp(
                    t,
                    "oversubscribed",
                    &[(col::WORKLOAD, "web"), (key::LOAD, "1.0")],
                    60.0,
                )
            }),
        },
    ]
}

/// `fastroute-fig12`, Fig. 12: Web traffic against the intra-rack fraction.
fn fig12() -> Experiment {
    Experiment {
        id: "fastroute-fig12",
        paper: Paper::Fastroute,
        figure: "Fig. 12",
        title: "Web traffic against the intra-rack fraction",
        varies: "intra-rack fraction (0-100%) x switch architecture",
        setup: "Facebook Web flow sizes at 80% load, the given fraction of flows inside \
                the source's rack, 2 ms. --quick: 0, 50, 100%.",
        source: Source::Sim({
            let s = web80(archs(base())).set("workload.intra_rack", "[0.0, 0.25, 0.5, 0.75, 1.0]");
            vec![sweep(
                "intra",
                s,
                &quick(&["workload.intra_rack=0.0,0.5,1.0"]),
            )]
        }),
        plot: thrp_plot(key::INTRA_RACK, "intra-rack traffic fraction", by_arch),
        panels: vec![],
        synthetic: synth::fig12,
        table_readings: vec![],
        claim_readings: vec![],
        controls: vec![
            // The static, oversubscribed switch in Fastroute's place must fail a 'matches Ideal'.
            stand_in!(col::ARCH; "the gap between Fastroute and Ideal is small even at very low intra-rack traffic (0%)", "Oversubscribed as Fastroute", "fastroute", "oversubscribed"),
        ],
        readings: vec![],
        claims: vec![
            Claim {
                text: "the Oversubscribed architecture performs worse at low intra-rack \
                       traffic (normalized throughput at 0% minus at 100%)",
                paper: 0.0,
                unit: "pp",
                tol: Tol::Below,
                fabsim: |t| {
                    Ok(norm(t, "oversubscribed", &[(key::INTRA_RACK, "0.0")])?
                        - norm(t, "oversubscribed", &[(key::INTRA_RACK, "1.0")])?)
                },
                differs: "",
                contra: Contra::Table(|t| {
                    set_thrp(t, "oversubscribed", &[(key::INTRA_RACK, "0.0")], 100.0)
                }),
            },
            Claim {
                text: "the gap between Fastroute and Ideal is small even at very low \
                       intra-rack traffic (0%)",
                paper: 99.0,
                unit: "%",
                tol: NEAR_IDEAL,
                fabsim: |t| norm(t, "fastroute", &[(key::INTRA_RACK, "0.0")]),
                differs: "cause not identified: Fastroute has no inter-ASIC drops in these \
                          runs (results.csv), so the loss is in flows that start on a \
                          mapping computed from the previous interval's Web traffic",
                contra: Contra::Table(|t| {
                    set_thrp(t, "fastroute", &[(key::INTRA_RACK, "0.0")], 97.0)
                }),
            },
        ],
    }
}

/// `fastroute-fig13`, Fig. 13: Fastroute against the inter-ASIC oversubscription, 2 to 8 ASICs.
fn fig13() -> Experiment {
    Experiment {
        id: "fastroute-fig13",
        paper: Paper::Fastroute,
        figure: "Fig. 13",
        title: "Fastroute against the inter-ASIC oversubscription, 2 to 8 ASICs",
        varies: "inter-ASIC oversubscription (2 to 1.2) x ASICs (2, 4, 8)",
        setup: "Facebook Web at 80% load, 2 ms, Fastroute and Ideal. 6 ASICs are left \
                out: 6 does not divide the 64-port radix. --quick: 16-port switches \
                (128 hosts) with 2 and 4 ASICs (4 ports per ASIC at least; 8 ASICs would \
                hold 2), oversubscription 2, 1.6, 1.2, one seed; the claims on 8 ASICs \
                read the largest ASIC count run.",
        source: Source::Sim({
            let s = base()
                .text("switch.arch", &["ideal", "fastroute"])
                .set("switch.asics", "[2, 4, 8]")
                .set("switch.inter_asic_oversub", "[2.0, 1.8, 1.6, 1.4, 1.2]");
            let q = quick16(&["switch.asics=2,4", "switch.inter_asic_oversub=2.0,1.6,1.2"]);
            vec![sweep("oversub", web80(s), &q)]
        }),
        plot: Plot {
            y: fastroute_thrp,
            ..thrp_plot(
                key::INTER_ASIC_OVERSUB,
                "inter-ASIC oversubscription",
                |r| format!("Fastroute {}-ASIC", r.get(key::ASICS).unwrap_or("?")),
            )
        },
        panels: vec![],
        synthetic: synth::fig13,
        table_readings: vec![],
        claim_readings: vec![],
        controls: vec![],
        readings: vec![],
        claims: fig13_claims(),
    }
}

/// The claims of [`fig13`].
fn fig13_claims() -> Vec<Claim> {
    vec![
        Claim {
            text: "2 ASICs at 2:1: single-ASIC-like performance (within about 1%)",
            paper: 99.0,
            unit: "%",
            tol: NEAR_IDEAL,
            fabsim: |t| {
                norm(
                    t,
                    "fastroute",
                    &[(key::ASICS, "2"), (key::INTER_ASIC_OVERSUB, "2.0")],
                )
            },
            differs: "",
            contra: Contra::Table(|t| {
                set_thrp(
                    t,
                    "fastroute",
                    &[(key::ASICS, "2"), (key::INTER_ASIC_OVERSUB, "2.0")],
                    97.0,
                )
            }),
        },
        Claim {
            text: "more ASICs need a lower oversubscription (at 2:1, 2 ASICs minus \
                   8 ASICs (--quick: 4), pp of Ideal)",
            paper: 0.0,
            unit: "pp",
            tol: Tol::Above,
            fabsim: |t| {
                let at = |n| {
                    norm(
                        t,
                        "fastroute",
                        &[(key::ASICS, n), (key::INTER_ASIC_OVERSUB, "2.0")],
                    )
                };
                Ok(at("2")? - at(&most_asics(t, key::ASICS)?)?)
            },
            differs: "",
            contra: Contra::Table(|t| {
                set_thrp(
                    t,
                    "fastroute",
                    &[(key::ASICS, "8"), (key::INTER_ASIC_OVERSUB, "2.0")],
                    99.9,
                )
            }),
        },
        Claim {
            text: "decreasing the oversubscription restores single-ASIC-like \
                   performance (8 ASICs (--quick: 4) at 1.2)",
            paper: 99.0,
            unit: "%",
            tol: NEAR_IDEAL,
            fabsim: |t| {
                norm(
                    t,
                    "fastroute",
                    &[
                        (key::ASICS, &most_asics(t, key::ASICS)?),
                        (key::INTER_ASIC_OVERSUB, "1.2"),
                    ],
                )
            },
            differs: "cause not identified: at the --quick size the largest ASIC count is 4 \
                      with 4 ports each; the full-size 8-ASIC point has not been run",
            contra: Contra::Table(|t| {
                set_thrp(
                    t,
                    "fastroute",
                    &[(key::ASICS, "8"), (key::INTER_ASIC_OVERSUB, "1.2")],
                    97.0,
                )
            }),
        },
    ]
}

/// `fastroute-fig16`, Fig. 16: several independent circuit switches.
fn fig16() -> Experiment {
    Experiment {
        id: "fastroute-fig16",
        paper: Paper::Fastroute,
        figure: "Fig. 16",
        title: "several independent circuit switches",
        varies: "independent circuit switches (1, 2, 4, 8) x trace (Web, ML) at 8 ASICs",
        setup: "8 ASICs at 8/7 oversubscription (section 6.3's formula), Web at 80% load \
                and Ring All-Reduce, 2 ms; circuit switch c takes every C-th bundle of the \
                front panel. --quick: 2 ASICs at 2:1 and 1, 2, 4 circuit switches (a \
                32-host fabric's 8-port switches hold no more).",
        source: Source::Sim({
            let s = base()
                .text("switch.arch", &["ideal", "fastroute"])
                .set("switch.asics", 8)
                .set("switch.inter_asic_oversub", "1.142857")
                .set("switch.circuit_switches", "[1, 2, 4, 8]")
                .text("workload.kind", &["web", "ring"])
                .set("workload.load", "0.8")
                .set("workload.phase_fill", 1);
            let q = quick(&[
                "switch.asics=2",
                "switch.inter_asic_oversub=2",
                "switch.circuit_switches=1,2,4",
            ]);
            vec![sweep("cs", two_ms(s), &q)]
        }),
        plot: Plot {
            y: fastroute_thrp,
            x_log: true,
            ..thrp_plot(key::CIRCUIT_SWITCHES, "independent circuit switches", |r| {
                format!("Fastroute ({})", r.get(col::WORKLOAD).unwrap_or("?"))
            })
        },
        panels: vec![],
        synthetic: synth::fig16,
        table_readings: vec![],
        claim_readings: vec![],
        controls: vec![],
        readings: vec![],
        claims: fig16_claims(),
    }
}

/// The claims of [`fig16`].
fn fig16_claims() -> Vec<Claim> {
    vec![
        Claim {
            text: "the performance delta between numbers of independent circuit \
                   switches is < 1% (Web; max - min of normalized throughput)",
            paper: 1.0,
            unit: "pp",
            tol: Tol::AtMost(INT_LIMIT),
            fabsim: |t| {
                spread(
                    t,
                    "fastroute",
                    key::CIRCUIT_SWITCHES,
                    &[(col::WORKLOAD, "web")],
                )
            },
            differs: "",
            contra: Contra::Table(|t| {
                set_thrp(
                    t,
                    "fastroute",
                    &[(key::CIRCUIT_SWITCHES, "4"), (col::WORKLOAD, "web")],
                    97.0,
                )
            }),
        },
        Claim {
            text: "the performance delta between numbers of independent circuit \
                   switches is < 1% (ML)",
            paper: 1.0,
            unit: "pp",
            tol: Tol::AtMost(INT_LIMIT),
            fabsim: |t| {
                let ring = [(col::WORKLOAD, "ring")];
                ideal_phases(
                    t,
                    &ring,
                    spread(t, "fastroute", key::CIRCUIT_SWITCHES, &ring),
                )
            },
            differs: "",
            contra: Contra::Table(|t| {
                set_thrp(
                    t,
                    "fastroute",
                    &[(key::CIRCUIT_SWITCHES, "4"), (col::WORKLOAD, "ring")],
                    97.0,
                )
            }),
        },
    ]
}

/// Figs. 14 and 15: 2, 4 and 8 ASICs, each at the oversubscription n / (n - 1) (section
/// 6.3's formula), one sweep per ASIC count; Web at 80% load or Ring All-Reduce.
fn n_asics(id: &'static str, figure: &'static str, web: bool) -> Experiment {
    let wl = |s: Scen| if web { web80(s) } else { ring(s) };
    let q = quick16(&[]);
    let sweeps = [(2, "2"), (4, "1.333333"), (8, "1.142857")]
        .into_iter()
        .map(|(n, oversub)| {
            let s = archs(base())
                .set("switch.asics", n)
                .set("switch.inter_asic_oversub", oversub);
            if n == 8 {
                full_only(&n.to_string(), wl(s))
            } else {
                sweep(&n.to_string(), wl(s), &q)
            }
        })
        .collect();
    let claims = if web {
        vec![
            Claim {
                text: "Web, 8 ASICs (--quick: 4): Fastroute is within 2% of the throughput of \
                       Ideal",
                paper: 98.0,
                unit: "%",
                tol: Tol::AtLeast(INT_LIMIT),
                fabsim: |t| norm(t, "fastroute", &[(col::SWEEP, &most_asics(t, col::SWEEP)?)]),
                differs: "crossing cost plus downtime (docs/decisions.md, Fig. 14's 8-ASIC \
                          gap): at full size (seed 1, Netbench's stack) the 8-ASIC Fastroute \
                          switch carries 95.6-97.2% of Ideal's throughput in every flow-start \
                          bin (steady state 95.8%: not start-up), without a drop, moving 75% \
                          of the ports every 100 us; on 512 hosts at 800 Gb/s a non-blocking \
                          static crossing gets 96.6%, Fastroute 94.8%, with 0 us downtime or \
                          a single mapping 96.7-96.8%",
                contra: Contra::Table(|t| set_thrp(t, "fastroute", &[(col::SWEEP, "8")], 96.0)),
            },
            Claim {
                text: "Web, 8 ASICs (--quick: 4): Fastroute is within 1% of Ideal's tail FCT \
                       (p99 ratio)",
                paper: 1.01,
                unit: "x",
                tol: Tol::AtMost(0.005),
                fabsim: |t| {
                    let n = most_asics(t, col::SWEEP)?;
                    let f = |a| t.mean(&[(col::ARCH, a), (col::SWEEP, &n)], p99_us);
                    Ok(f("fastroute")? / f("ideal")?)
                },
                differs: "as for the throughput claim: at full size 193 against 187 us \
                          without a drop; at the --quick size retransmission timeouts in the \
                          4-ASIC runs (timeouts in results.csv)",
                contra: Contra::Table(|t| {
                    t.map(
                        &[(col::ARCH, "fastroute"), (col::SWEEP, "8")],
                        col::FCT_P99_US,
                        |_| 103.0,
                    )
                }),
            },
        ]
    } else {
        vec![
            Claim {
                text: "ML: Fastroute's performance is close to a single ASIC (8 ASICs, \
                       --quick: 4; within about 1%)",
                paper: 99.0,
                unit: "%",
                tol: NEAR_IDEAL,
                fabsim: |t| {
                    let n = [(col::SWEEP, most_asics(t, col::SWEEP)?)];
                    let n = [(n[0].0, n[0].1.as_str())];
                    ideal_phases(t, &n, norm(t, "fastroute", &n))
                },
                differs: "each ring regrouping runs up to one interval on the old mapping \
                          (fastroute-fig8)",
                contra: Contra::Table(|t| set_thrp(t, "fastroute", &[(col::SWEEP, "8")], 97.0)),
            },
            Claim {
                text: "ML: Fastroute outperforms State-of-the-Art and Oversubscribed (margin \
                       over the better, worst ASIC count, pp)",
                paper: 0.0,
                unit: "pp",
                tol: Tol::Above,
                fabsim: |t| {
                    ideal_phases(
                        t,
                        &[],
                        min_over(t, col::SWEEP, |n| margin(t, &[(col::SWEEP, n)])),
                    )
                },
                differs: "",
                contra: Contra::Table(|t| {
                    set_thrp(t, "oversubscribed", &[(col::SWEEP, "8")], 99.9)
                }),
            },
        ]
    };
    Experiment {
        id,
        paper: Paper::Fastroute,
        figure,
        title: if web {
            "n ASICs, Web traffic"
        } else {
            "n ASICs, ML traffic (Ring All-Reduce)"
        },
        varies: "ASICs (2, 4, 8, oversubscription n/(n-1)) x switch architecture",
        setup: if web {
            "Facebook Web at 80% load, 2 ms; 2, 4 and 8 ASICs at inter-ASIC oversubscription \
             2, 4/3 and 8/7 (section 6.3). 6 ASICs do not divide the 64-port radix. --quick: \
             16-port switches (128 hosts), 2 and 4 ASICs (4 ports per ASIC at least; 8 ASICs \
             run at full size only), one seed; the 8-ASIC claims read the largest count run."
        } else {
            "Ring All-Reduce (groups of 16, regrouped every 0.5 ms), 2 ms; 2, 4 and 8 ASICs at \
             inter-ASIC oversubscription 2, 4/3 and 8/7 (section 6.3). --quick: as for Web \
             (fastroute-fig14)."
        },
        source: Source::Sim(sweeps),
        plot: thrp_plot(col::SWEEP, "ASICs per switch", by_arch),
        claims,
        panels: vec![],
        synthetic: synth::n_asics,
        table_readings: vec![],
        claim_readings: vec![],
        controls: vec![],
        readings: vec![],
    }
}

/// Fig. 8's family: under Stride (`P` = 0) or Shuffle, Fastroute is within about 1% of Ideal.
fn near_single_asic<const P: usize>() -> Claim {
    const PATTERNS: [(&str, &str); 2] = [("Stride", "stride"), ("Shuffle", "shuffle")];
    Claim {
        text: leak(format!(
            "{}: Fastroute achieves near-single-ASIC performance (within about 1% of Ideal)",
            PATTERNS[P].0
        )),
        paper: 99.0,
        unit: "%",
        tol: NEAR_IDEAL,
        fabsim: |t| norm(t, "fastroute", &[(col::WORKLOAD, PATTERNS[P].1)]),
        differs: SHORT_RUN,
        contra: Contra::Table(|t| {
            set_thrp(t, "fastroute", &[(col::WORKLOAD, PATTERNS[P].1)], 97.0)
        }),
    }
}

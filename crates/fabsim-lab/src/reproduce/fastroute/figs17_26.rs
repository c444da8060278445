//! Fastroute simulations: traffic stability, buffers, reconfiguration overhead, bundles,
//! host count, skew, the testbed analogue, failures and core oversubscription (Figs. 9,
//! 17-19, 21, 23-26).

use super::{
    arch_name, archs, base, by_arch, by_arch_and_workload, failed, fastroute_thrp, fig9_bound,
    fig9_scen, hadoop80, ideal_phases, margin, min_over, norm, p99_us, quick, quick16, rate_pct,
    set_thrp, spread, synth, thrp_plot, two_ms, web80, CLOSE_RATIO, FIG9_QUICK, FIG9_SETUP,
    NEAR_IDEAL,
};
use crate::reproduce::cols::{self as col, key};
use crate::reproduce::scen::sweep;
use crate::reproduce::{
    Claim, Contra, Experiment, Paper, Plot, Source, Sweep, Tol, INT_LIMIT, PRINTED_INT,
};

pub fn experiments() -> Vec<Experiment> {
    vec![
        fig17(),
        fig18(),
        fig19(),
        fig21(),
        fig23(),
        fig25(),
        fig9(),
        fig24(),
        fig26(),
    ]
}

/// `fastroute-fig17`, Fig. 17: traffic stability: the Fast pattern's phase interval.
fn fig17() -> Experiment {
    Experiment {
        id: "fastroute-fig17",
        paper: Paper::Fastroute,
        figure: "Fig. 17",
        title: "traffic stability: the Fast pattern's phase interval",
        varies: "traffic phase interval (100-800 us) x switch architecture",
        setup: "Fast: phases alternate between fully inter-rack (each host to the same \
                position one rack over) and fully intra-rack (to its neighbour in the \
                rack); each flow carries what a link moves in one phase; 2 ms (--quick: \
                the same). Fastroute reconfigures every 100 us.",
        source: Source::Sim({
            let s = two_ms(archs(base()))
                .text("workload.kind", &["fast"])
                .set("workload.phase_us", "[100, 200, 400, 800]");
            vec![sweep("phase", s, &quick(&[]))]
        }),
        plot: thrp_plot(key::PHASE_US, "traffic phase interval [µs]", by_arch),
        panels: vec![],
        synthetic: synth::fig17,
        table_readings: vec![],
        claim_readings: vec![],
        controls: vec![
            // The static, oversubscribed switch in Fastroute's place must fail a 'matches Ideal'.
            stand_in!(col::ARCH; "Fastroute closely matches Ideal when it adapts at least 4x faster than the traffic changes (400 us phases)", "Oversubscribed as Fastroute", "fastroute", "oversubscribed"),
        ],
        readings: vec![],
        claims: vec![
            Claim {
                text: "Fastroute closely matches Ideal when it adapts at least 4x faster \
                       than the traffic changes (400 us phases)",
                paper: 99.0,
                unit: "%",
                tol: NEAR_IDEAL,
                fabsim: |t| {
                    let at = [(key::PHASE_US, "400")];
                    ideal_phases(t, &at, norm(t, "fastroute", &at))
                },
                differs: "not controller lag (a 4x faster controller, 25 us interval and \
                          2.5 us compute, moved the full-size number by under 1 pp): \
                          flows that carry a whole phase at line rate outlast it even on \
                          Ideal (note), so each phase's leftovers share the next phase \
                          with its new traffic and no one mapping localizes both; with \
                          phase-sized flows (reading `quarter`) a phase's flows last about \
                          as long as the controller takes to follow the change (110 us) \
                          and mostly run on the previous phase's mapping",
                contra: Contra::Table(|t| {
                    set_thrp(t, "fastroute", &[(key::PHASE_US, "400")], 97.0)
                }),
            },
            Claim {
                text: "Fastroute outperforms both Oversubscribed and State-of-the-Art over \
                       the whole range (margin over the better, worst phase, pp)",
                paper: 0.0,
                unit: "pp",
                tol: Tol::Above,
                fabsim: |t| {
                    let m = min_over(t, key::PHASE_US, |p| margin(t, &[(key::PHASE_US, p)]));
                    ideal_phases(t, &[], m)
                },
                differs: "at 100-200 us phases Fastroute falls below Oversubscribed, \
                          which there matches or beats Ideal under both host stacks while \
                          the flows outlast their phases (note); cause not identified",
                contra: Contra::Table(|t| {
                    set_thrp(t, "oversubscribed", &[(key::PHASE_US, "100")], 99.9)
                }),
            },
        ],
    }
}

/// `fastroute-fig18`, Fig. 18: inter-ASIC buffer size.
fn fig18() -> Experiment {
    Experiment {
        id: "fastroute-fig18",
        paper: Paper::Fastroute,
        figure: "Fig. 18",
        title: "inter-ASIC buffer size",
        varies: "inter-ASIC buffer (0.05-0.6 MB per 100 Gb/s) x switch architecture",
        setup: "Facebook Hadoop at 80% load, 2 ms. The buffer is set per 100 Gb/s of \
                inter-ASIC rate (`switch.inter_asic_buffer_bytes`; Table 1: 0.3 MB): at \
                full size (32 x 800 Gb/s per ASIC at 2:1) 0.05-0.6 MB per 100 Gb/s is \
                6.4-76.8 MB per switch, the paper's x-axis range. x = MB per 100 Gb/s. \
                --quick: 0.05, 0.3, 0.6.",
        source: Source::Sim({
            let buffers = "[50000, 100000, 200000, 300000, 450000, 600000]";
            let s = archs(base()).set("switch.inter_asic_buffer_bytes", buffers);
            let q = quick(&["switch.inter_asic_buffer_bytes=50000,300000,600000"]);
            vec![sweep("buffer", hadoop80(s), &q)]
        }),
        plot: Plot {
            x_log: true,
            ..thrp_plot(
                key::INTER_ASIC_BUFFER_BYTES,
                "inter-ASIC buffer [bytes per 100 Gb/s]",
                by_arch,
            )
        },
        panels: vec![],
        synthetic: synth::fig18,
        table_readings: vec![],
        claim_readings: vec![],
        controls: vec![],
        readings: vec![],
        claims: fig18_claims(),
    }
}

/// The claims of [`fig18`].
fn fig18_claims() -> Vec<Claim> {
    vec![
        Claim {
            text: "Fastroute is mostly agnostic to the buffer size (spread of its \
                   normalized throughput over buffer sizes; 'mostly' read as < 2 pp)",
            paper: 2.0,
            unit: "pp",
            tol: Tol::Below,
            fabsim: |t| spread(t, "fastroute", key::INTER_ASIC_BUFFER_BYTES, &[]),
            differs: "",
            contra: Contra::Table(|t| {
                set_thrp(
                    t,
                    "fastroute",
                    &[(key::INTER_ASIC_BUFFER_BYTES, "600000")],
                    95.0,
                )
            }),
        },
        Claim {
            text: "State-of-the-Art is mostly agnostic to the buffer size (spread, \
                   < 2 pp)",
            paper: 2.0,
            unit: "pp",
            tol: Tol::Below,
            fabsim: |t| spread(t, "sota", key::INTER_ASIC_BUFFER_BYTES, &[]),
            differs: "",
            contra: Contra::Table(|t| {
                set_thrp(t, "sota", &[(key::INTER_ASIC_BUFFER_BYTES, "600000")], 80.0)
            }),
        },
        Claim {
            text: "a smaller buffer slightly improves Oversubscribed's mean throughput \
                   (smallest buffer minus Table 1's 0.3 MB, pp of Ideal)",
            paper: 0.0,
            unit: "pp",
            tol: Tol::Above,
            fabsim: |t| {
                let at =
                    |b| norm(t, "oversubscribed", &[(key::INTER_ASIC_BUFFER_BYTES, b)]);
                Ok(at("50000")? - at("300000")?)
            },
            differs: "under Netbench's stack (full size, seed 1) no inter-ASIC \
                      buffer ever fills: DCTCP, marked at 400 KB, keeps every queue \
                      far below the smallest buffer (6.4 MB on a 12.8 Tb/s link), so every buffer size gives the same run (0 inter-ASIC \
                      drops, see results.csv); under fabsim's stack the small \
                      buffer's drops cost retransmission timeouts (about 20x more \
                      than at 0.3 MB) that outweigh the shorter queues",
            contra: Contra::Table(|t| {
                set_thrp(
                    t,
                    "oversubscribed",
                    &[(key::INTER_ASIC_BUFFER_BYTES, "50000")],
                    58.0,
                )
            }),
        },
    ]
}

/// `fastroute-fig19`, Fig. 19: reconfiguration overhead (downtime / interval).
fn fig19() -> Experiment {
    Experiment {
        id: "fastroute-fig19",
        paper: Paper::Fastroute,
        figure: "Fig. 19",
        title: "reconfiguration overhead (downtime / interval)",
        varies: "circuit downtime (0.5-20 us at a 100 us interval = 0.5-20% overhead)",
        setup: "Facebook Web at 80% load, 2 ms, Fastroute and Ideal; only the downtime \
                varies, as in the paper. --quick: 1, 5, 20 us.",
        source: Source::Sim({
            let s = base()
                .text("switch.arch", &["ideal", "fastroute"])
                .set("switch.downtime_us", "[0.5, 1, 2, 5, 10, 20]");
            vec![sweep(
                "downtime",
                web80(s),
                &quick(&["switch.downtime_us=1,5,20"]),
            )]
        }),
        plot: Plot {
            y: fastroute_thrp,
            ..thrp_plot(
                key::DOWNTIME_US,
                "reconfiguration overhead [%] (= downtime [µs] at a 100 µs interval)",
                |_| "Fastroute".into(),
            )
        },
        panels: vec![],
        synthetic: synth::fig19,
        table_readings: vec![],
        claim_readings: vec![],
        controls: vec![],
        readings: vec![],
        claims: vec![
            Claim {
                text: "the performance impact is negligible when the overhead is around 1%",
                paper: 99.0,
                unit: "%",
                tol: NEAR_IDEAL,
                fabsim: |t| norm(t, "fastroute", &[(key::DOWNTIME_US, "1")]),
                differs: "",
                contra: Contra::Table(|t| {
                    set_thrp(t, "fastroute", &[(key::DOWNTIME_US, "1")], 97.0)
                }),
            },
            Claim {
                text: "the performance degrades at higher reconfiguration overhead (1% \
                       minus 20%, pp of Ideal)",
                paper: 0.0,
                unit: "pp",
                tol: Tol::Above,
                fabsim: |t| {
                    Ok(norm(t, "fastroute", &[(key::DOWNTIME_US, "1")])?
                        - norm(t, "fastroute", &[(key::DOWNTIME_US, "20")])?)
                },
                differs: "",
                contra: Contra::Table(|t| {
                    set_thrp(t, "fastroute", &[(key::DOWNTIME_US, "20")], 99.9)
                }),
            },
        ],
    }
}

/// `fastroute-fig21`, Fig. 21: port bundling against the inter-ASIC oversubscription.
fn fig21() -> Experiment {
    Experiment {
        id: "fastroute-fig21",
        paper: Paper::Fastroute,
        figure: "Fig. 21",
        title: "port bundling against the inter-ASIC oversubscription",
        varies: "ports per bundle (1, 2, 4, 8) x oversubscription (2, 3, 4)",
        setup: "Facebook Web at 80% load, 2 ms, 2 ASICs, Fastroute, Oversubscribed and \
                Ideal; b consecutive front-panel ports move together. --quick: 16-port \
                switches (128 hosts: 8 ports per ASIC, so a bundle of 4 still leaves 2 \
                bundles per ASIC), bundles 1, 2, 4, oversubscription 2 and 4, one seed.",
        source: Source::Sim({
            let s = base()
                .text("switch.arch", &["ideal", "oversubscribed", "fastroute"])
                .set("switch.bundle", "[1, 2, 4, 8]")
                .set("switch.inter_asic_oversub", "[2, 3, 4]");
            let small = quick16(&["switch.bundle=1,2,4", "switch.inter_asic_oversub=2,4"]);
            vec![sweep("bundle", web80(s), &small)]
        }),
        plot: Plot {
            x_log: true,
            ..thrp_plot(key::BUNDLE, "ports per bundle", |r| {
                format!(
                    "{} {}:1",
                    arch_name(r),
                    r.get(key::INTER_ASIC_OVERSUB).unwrap_or("?")
                )
            })
        },
        panels: vec![],
        synthetic: synth::fig21,
        table_readings: vec![],
        claim_readings: vec![],
        controls: vec![],
        readings: vec![],
        claims: fig21_claims(),
    }
}

/// The claims of [`fig21`].
fn fig21_claims() -> Vec<Claim> {
    vec![
        Claim {
            text: "at 2:1 oversubscription, bundling four ports results in < 1% \
                   performance loss compared to the Ideal baseline (100 - normalized \
                   throughput)",
            paper: 1.0,
            unit: "pp",
            tol: Tol::AtMost(INT_LIMIT),
            fabsim: |t| {
                Ok(100.0
                    - norm(
                        t,
                        "fastroute",
                        &[(key::BUNDLE, "4"), (key::INTER_ASIC_OVERSUB, "2")],
                    )?)
            },
            differs: "",
            contra: Contra::Table(|t| {
                set_thrp(
                    t,
                    "fastroute",
                    &[(key::BUNDLE, "4"), (key::INTER_ASIC_OVERSUB, "2")],
                    98.0,
                )
            }),
        },
        Claim {
            text: "with bundles Fastroute is still better than Oversubscribed (worst \
                   bundle size at 4:1, pp of Ideal)",
            paper: 0.0,
            unit: "pp",
            tol: Tol::Above,
            fabsim: |t| {
                min_over(t, key::BUNDLE, |b| {
                    let f = [(key::BUNDLE, b), (key::INTER_ASIC_OVERSUB, "4")];
                    Ok(norm(t, "fastroute", &f)? - norm(t, "oversubscribed", &f)?)
                })
            },
            differs: "",
            contra: Contra::Table(|t| {
                set_thrp(
                    t,
                    "oversubscribed",
                    &[(key::BUNDLE, "4"), (key::INTER_ASIC_OVERSUB, "4")],
                    99.9,
                )
            }),
        },
    ]
}

/// `fastroute-fig23`, Fig. 23 (sec. A.2): variable host count.
fn fig23() -> Experiment {
    Experiment {
        id: "fastroute-fig23",
        paper: Paper::Fastroute,
        figure: "Fig. 23 (sec. A.2)",
        title: "variable host count",
        varies: "host count (fixed, variable) x switch architecture",
        setup: "Facebook Web at 80% load, 2 ms. Variable host count (A.2): every design \
                keeps the Ideal port speed, so State-of-the-Art's switches have fewer ports \
                and its fat tree fewer hosts. The paper's metric as in every other figure: \
                mean flow throughput normalized to the Ideal run of the same host-count \
                mode and seed. Fastroute's and Oversubscribed's fabrics are the same in both \
                modes (their radix equals Ideal's), so only State-of-the-Art's runs change.",
        source: Source::Sim({
            let s = archs(base()).text("switch.host_count", &["fixed", "variable"]);
            vec![sweep("hosts", web80(s), &quick(&[]))]
        }),
        plot: thrp_plot(key::HOST_COUNT, "host count", by_arch),
        panels: vec![],
        synthetic: synth::fig23,
        table_readings: vec![],
        claim_readings: vec![],
        controls: vec![],
        readings: vec![],
        claims: vec![Claim {
            text: "adapting the host count to each architecture's radix hurts \
                   State-of-the-Art (its normalized throughput with the fixed host count \
                   minus with the variable one, pp)",
            paper: 0.0,
            unit: "pp",
            tol: Tol::Above,
            fabsim: |t| {
                Ok(norm(t, "sota", &[(key::HOST_COUNT, "fixed")])?
                    - norm(t, "sota", &[(key::HOST_COUNT, "variable")])?)
            },
            differs: "with the variable host count State-of-the-Art's fat tree has fewer \
                      hosts at the full port speed, and fabsim's per-flow mean throughput of \
                      those hosts rises against Ideal's instead of falling; the paper \
                      attributes its loss to the smaller radix, which fabsim's metric (mean \
                      flow throughput) does not charge: its flows are as fast as Ideal's",
            contra: Contra::Table(|t| set_thrp(t, "sota", &[(key::HOST_COUNT, "variable")], 80.0)),
        }],
    }
}

/// `fastroute-fig25`, Fig. 25 (sec. A.5): traffic skewness.
fn fig25() -> Experiment {
    Experiment {
        id: "fastroute-fig25",
        paper: Paper::Fastroute,
        figure: "Fig. 25 (sec. A.5)",
        title: "traffic skewness",
        varies: "skewness (0-80%) x trace (Web, Hadoop) x switch architecture",
        setup: "80% load, 2 ms; skewness = the fraction of flows sent to a hot tenth of \
                the hosts (the paper does not define its skew; this is fabsim's choice). \
                --quick: 0, 40, 80%.",
        source: Source::Sim({
            let s = two_ms(archs(base()))
                .text("workload.kind", &["web", "hadoop"])
                .set("workload.load", "0.8")
                .set("workload.skew", "[0.0, 0.2, 0.4, 0.6, 0.8]");
            vec![sweep("skew", s, &quick(&["workload.skew=0.0,0.4,0.8"]))]
        }),
        plot: thrp_plot(key::SKEW, "skewness", by_arch_and_workload),
        panels: vec![],
        synthetic: synth::fig25,
        table_readings: vec![],
        claim_readings: vec![],
        controls: vec![
            // The static, oversubscribed switch in Fastroute's place must fail a 'matches Ideal'.
            stand_in!(col::ARCH; "Fastroute closely matches the Ideal across skewness (Web, worst skew)", "Oversubscribed as Fastroute", "fastroute", "oversubscribed"),
        ],
        readings: vec![],
        claims: fig25_claims(),
    }
}

/// The claims of [`fig25`].
fn fig25_claims() -> Vec<Claim> {
    vec![
        Claim {
            text: "Fastroute closely matches the Ideal across skewness (Web, worst \
                   skew)",
            paper: 99.0,
            unit: "%",
            tol: NEAR_IDEAL,
            fabsim: |t| {
                min_over(t, key::SKEW, |k| {
                    norm(t, "fastroute", &[(col::WORKLOAD, "web"), (key::SKEW, k)])
                })
            },
            differs: "start-up, not steady state: at full size (seed 1) the worst \
                      point is skew 0, and from 500 us on Fastroute is at 99.2-99.5% \
                      of Ideal at every skew (table by flow start time, both traces); \
                      the claim reads every flow, as the paper's mean throughput",
            contra: Contra::Table(|t| {
                set_thrp(
                    t,
                    "fastroute",
                    &[(col::WORKLOAD, "web"), (key::SKEW, "0.8")],
                    97.0,
                )
            }),
        },
        Claim {
            text: "Oversubscribed and State-of-the-Art struggle over the whole range \
                   while Fastroute does not (margin over the better, worst skew and \
                   trace, pp)",
            paper: 0.0,
            unit: "pp",
            tol: Tol::Above,
            fabsim: |t| {
                min_over(t, key::SKEW, |k| {
                    Ok(margin(t, &[(col::WORKLOAD, "web"), (key::SKEW, k)])?
                        .min(margin(t, &[(col::WORKLOAD, "hadoop"), (key::SKEW, k)])?))
                })
            },
            differs: "Oversubscribed runs above Ideal on Hadoop at low skew (full size, \
                      seed 1: 108.7% at skew 0, no drops on either): its fabric's queues \
                      are shorter (mean leaf-down queue 21.8 against 60.6 KB, p50 FCT \
                      10.8 against 16.6 us), as if its inter-ASIC links paced the \
                      traffic entering the fabric, and the mean flow throughput, \
                      dominated by small flows, rewards that; the mechanism is not \
                      established",
            contra: Contra::Table(|t| {
                set_thrp(
                    t,
                    "oversubscribed",
                    &[(col::WORKLOAD, "hadoop"), (key::SKEW, "0.4")],
                    99.9,
                )
            }),
        },
    ]
}

/// `fastroute-fig9`, Fig. 9: LLM training on 8 hosts: FSDP iteration rate.
fn fig9() -> Experiment {
    Experiment {
        id: "fastroute-fig9",
        paper: Paper::Fastroute,
        figure: "Fig. 9",
        title: "LLM training on 8 hosts: FSDP iteration rate",
        varies: "switch architecture",
        setup: FIG9_SETUP,
        source: Source::Sim(vec![sweep("fsdp", fig9_scen(), &FIG9_QUICK[..])]),
        plot: Plot {
            x: col::WORKLOAD,
            x_label: "workload",
            x_log: false,
            y: |r| Some(1e6 / r.num(col::CCT_US)?),
            y_label: "training iterations per second [1/s]",
            y_log: false,
            y_span: None,
            x_scale: 1.0,
            series: by_arch,
        },
        panels: vec![],
        synthetic: synth::fig9,
        table_readings: vec![],
        claim_readings: vec![],
        controls: vec![
            // The static, oversubscribed switch in Fastroute's place must fail a 'matches Ideal'.
            stand_in!(col::ARCH; "the performance of Fastroute closely matches that of the Ideal architecture (iteration rate, % of Ideal)", "Oversubscribed as Fastroute", "fastroute", "oversubscribed"),
        ],
        readings: vec![],
        claims: fig9_claims(),
    }
}

/// The claims of [`fig9`].
fn fig9_claims() -> Vec<Claim> {
    vec![
        Claim {
            text: "the performance of Fastroute closely matches that of the Ideal \
                   architecture (iteration rate, % of Ideal)",
            paper: 99.0,
            unit: "%",
            tol: NEAR_IDEAL,
            fabsim: |t| rate_pct(t, "fastroute"),
            differs: "Fastroute runs its first interval (110 us) on the static \
                      mapping, where every ring flow crosses the ASICs at half rate, \
                      and the iteration is short (about 5 ms at --quick's 1/1000 of \
                      the message size)",
            contra: Contra::Table(|t| t.map(&[(col::ARCH, "fastroute")], col::CCT_US, |_| 105.0)),
        },
        Claim {
            text: "compared to the Oversubscribed architecture, Fastroute has a 3x \
                   higher token throughput",
            paper: 3.0,
            unit: "x",
            tol: PRINTED_INT,
            fabsim: |t| {
                fig9_bound(t, "oversubscribed", 3.0)?;
                Ok(rate_pct(t, "fastroute")? / rate_pct(t, "oversubscribed")?)
            },
            differs: "the bandwidth bound (note): with every ring flow crossing the \
                      ASICs, a 2:1 inter-ASIC link halves a flow's rate, so a \
                      bandwidth-bound iteration runs at most 2x slower; fabsim's \
                      ratio goes past it only where congestion control leaves the \
                      inter-ASIC link partly idle. The testbed's 3x needs more than \
                      the paper's stated 2:1 bandwidth (its inter-ASIC links and \
                      collective sizes are not stated)",
            contra: Contra::Table(|t| {
                t.map(&[(col::ARCH, "oversubscribed")], col::CCT_US, |_| 200.0)
            }),
        },
        Claim {
            text: "compared to the State-of-the-Art architecture, Fastroute has a 3x \
                   higher token throughput",
            paper: 3.0,
            unit: "x",
            tol: PRINTED_INT,
            fabsim: |t| {
                fig9_bound(t, "sota", 3.0)?;
                Ok(rate_pct(t, "fastroute")? / rate_pct(t, "sota")?)
            },
            differs: "the bandwidth bound (note): State-of-the-Art is non-blocking \
                      and loses only port speed (75 of 100 Gb/s at 2:1, section 5.1's \
                      fixed radix), so a bandwidth-bound iteration runs at most 1.33x \
                      slower; the testbed emulated it by changing the number and speed \
                      of its inter-ASIC links, which the paper does not state",
            contra: Contra::Table(|t| t.map(&[(col::ARCH, "sota")], col::CCT_US, |_| 200.0)),
        },
    ]
}

/// `fastroute-fig24`, Fig. 24: link failures against network load.
fn fig24() -> Experiment {
    Experiment {
        id: "fastroute-fig24",
        paper: Paper::Fastroute,
        figure: "Fig. 24",
        title: "link failures against network load",
        varies: "load (20-100%) x failed links (0, 64) x switch architecture",
        setup: "Facebook Web at the given load, 2 ms, with 0 or 64 random switch-to-switch \
                links down (seeded per run). The paper disables 64 of its 4096 links; \
                fabsim fails only fabric links, 64 of its 2048 (3.1%); hosts are not \
                paced (failures.pace = false: DCTCP reacts to the lost capacity). \
                --quick: 1 of the 32 fabric links (3.1%), loads 20, 60, 100%.",
        source: Source::Sim({
            let s = two_ms(archs(base()))
                .text("workload.kind", &["web"])
                .set("workload.load", "[0.2, 0.4, 0.6, 0.8, 1.0]")
                .set("failures.links", "[0, 64]")
                .set("failures.pace", false);
            let q = quick(&["workload.load=0.2,0.6,1.0", "failures.links=0,1"]);
            vec![sweep("failures", s, &q)]
        }),
        plot: Plot {
            x_scale: 100.0,
            ..thrp_plot(key::LOAD, "network load [%]", |r| {
                format!(
                    "{}, {} failed",
                    arch_name(r),
                    r.get(key::LINKS).unwrap_or("?")
                )
            })
        },
        panels: vec![Plot {
            y: p99_us,
            y_label: "99th percentile FCT [µs]",
            y_log: true,
            y_span: None,
            x_scale: 100.0,
            ..thrp_plot(key::LOAD, "network load [%]", |r| {
                format!(
                    "{}, {} failed",
                    arch_name(r),
                    r.get(key::LINKS).unwrap_or("?")
                )
            })
        }],
        synthetic: synth::fig24,
        table_readings: vec![],
        claim_readings: vec![],
        controls: vec![],
        readings: vec![],
        claims: fig24_claims(),
    }
}

/// The claims of [`fig24`].
fn fig24_claims() -> Vec<Claim> {
    vec![
        Claim {
            text: "with failed links Fastroute still closely matches the performance \
                   of Ideal (mean throughput, worst load)",
            paper: 99.0,
            unit: "%",
            tol: NEAR_IDEAL,
            fabsim: |t| {
                let f = failed(t)?;
                min_over(t, key::LOAD, |l| {
                    norm(t, "fastroute", &[(key::LOAD, l), (key::LINKS, &f)])
                })
            },
            differs: "the penalty is not caused by the failures: without failed links \
                      Fastroute is as far below Ideal (about 2 pp on Web, as in \
                      fastroute-fig11)",
            contra: Contra::Table(|t| {
                set_thrp(
                    t,
                    "fastroute",
                    &[(key::LOAD, "0.6"), (key::LINKS, "1")],
                    97.0,
                )
            }),
        },
        Claim {
            text: "with failed links Fastroute's tail FCT closely matches Ideal's \
                   (p99 ratio, mean over loads)",
            paper: 1.0,
            unit: "x",
            tol: CLOSE_RATIO,
            fabsim: |t| {
                let f = failed(t)?;
                let p = |a| t.mean(&[(col::ARCH, a), (key::LINKS, &f)], p99_us);
                Ok(p("fastroute")? / p("ideal")?)
            },
            differs: "the gap is not caused by the failures: Fastroute's p99 is above \
                      Ideal's at mid load without failed links as well \
                      (failures.links = 0 in results.csv); see the next claim",
            contra: Contra::Table(|t| {
                t.map(
                    &[(col::ARCH, "fastroute"), (key::LINKS, "1")],
                    col::FCT_P99_US,
                    |_| 130.0,
                )
            }),
        },
        Claim {
            text: "Fastroute and Ideal are equally affected by the bandwidth loss \
                   (Fastroute's p99 increase from the failures over Ideal's, mean over \
                   loads)",
            paper: 1.0,
            unit: "x",
            tol: CLOSE_RATIO,
            fabsim: |t| {
                let f = failed(t)?;
                let p = |a, n| t.mean(&[(col::ARCH, a), (key::LINKS, n)], p99_us);
                Ok((p("fastroute", &f)? / p("fastroute", "0")?)
                    / (p("ideal", &f)? / p("ideal", "0")?))
            },
            differs: "",
            contra: Contra::Table(|t| {
                t.map(
                    &[(col::ARCH, "fastroute"), (key::LINKS, "1")],
                    col::FCT_P99_US,
                    |_| 130.0,
                )
            }),
        },
        Claim {
            text: "the reduced network capacity slightly increases FCTs for Ideal \
                   (p99 with failures over p99 without, mean over loads)",
            paper: 1.0,
            unit: "x",
            tol: Tol::Above,
            fabsim: |t| {
                let f = failed(t)?;
                let p = |n| t.mean(&[(col::ARCH, "ideal"), (key::LINKS, n)], p99_us);
                Ok(p(&f)? / p("0")?)
            },
            differs: "",
            contra: Contra::Table(|t| {
                t.map(
                    &[(col::ARCH, "ideal"), (key::LINKS, "1")],
                    col::FCT_P99_US,
                    |_| 95.0,
                )
            }),
        },
    ]
}

/// `fastroute-fig26`, Fig. 26: core oversubscription, 2-stage and 3-stage networks.
fn fig26() -> Experiment {
    Experiment {
        id: "fastroute-fig26",
        paper: Paper::Fastroute,
        figure: "Fig. 26",
        title: "core oversubscription, 2-stage and 3-stage networks",
        varies: "core oversubscription (2-stage: 1:1, 3:1, 7:1, 15:1; 3-stage: 1:1) x \
                 switch architecture",
        setup: "Facebook Hadoop at 80% load, 2 ms. 2-stage: 64 leaves of radix 64, u \
                uplinks and 64 - u hosts each (u = 32, 16, 8, 4: (64 - u):u). 3-stage: a \
                k = 16 fat tree (1024 hosts; the paper's size is not stated, and k = 64 \
                would be 65,536 hosts), not oversubscribed: fabsim's 3-tier fat tree \
                has no oversubscription key (topology.uplinks is 2-tier only), so the \
                paper's oversubscribed 3-stage points are not reproduced. --quick: 8 \
                leaves of radix 8 (u = 4, 2, 1) and, for 15:1, 15 hosts and 1 uplink; a \
                k = 8 fat tree (128 hosts) for 3-stage.",
        source: Source::Sim({
            // 2-stage: (full size, --quick) hosts and uplinks per leaf.
            let two = [
                ("2-stage 1:1", (32, 32), (4, 4)),
                ("2-stage 3:1", (48, 16), (6, 2)),
                ("2-stage 7:1", (56, 8), (7, 1)),
                ("2-stage 15:1", (60, 4), (15, 1)),
            ];
            let mut v: Vec<Sweep> = two
                .into_iter()
                .map(|(name, (h, u), (qh, qu))| {
                    let s = archs(base())
                        .set("topology.leaves", 64)
                        .set("topology.hosts_per_leaf", h)
                        .set("topology.uplinks", u);
                    let q = quick(&["topology.leaves=8"]).into_iter().chain([
                        format!("topology.hosts_per_leaf={qh}"),
                        format!("topology.uplinks={qu}"),
                    ]);
                    sweep(name, hadoop80(s), &q.collect::<Vec<_>>())
                })
                .collect();
            let three = archs(base()).set("topology.tiers", 3).set("topology.k", 16);
            v.push(sweep("3-stage 1:1", hadoop80(three), &quick(&[])));
            v
        }),
        plot: thrp_plot(col::SWEEP, "topology and core oversubscription", by_arch),
        panels: vec![],
        synthetic: synth::fig26,
        table_readings: vec![],
        claim_readings: vec![],
        controls: vec![
            // The static, oversubscribed switch in Fastroute's place must fail a 'matches Ideal'.
            stand_in!(col::ARCH; "2-stage: the performance of Fastroute is unaffected w.r.t. the Ideal across the oversubscription ratios (worst ratio)", "Oversubscribed as Fastroute", "fastroute", "oversubscribed"),
            stand_in!(col::ARCH; "3-stage: the performance of Fastroute is unaffected w.r.t. the Ideal", "Oversubscribed as Fastroute", "fastroute", "oversubscribed"),
        ],
        readings: vec![],
        claims: fig26_claims(),
    }
}

/// The claims of [`fig26`].
fn fig26_claims() -> Vec<Claim> {
    vec![
        Claim {
            text: "2-stage: the performance of Fastroute is unaffected w.r.t. the \
                   Ideal across the oversubscription ratios (worst ratio)",
            paper: 99.0,
            unit: "%",
            tol: NEAR_IDEAL,
            fabsim: |t| {
                min_over(t, col::SWEEP, |s| {
                    if s.starts_with("2-stage") {
                        norm(t, "fastroute", &[(col::SWEEP, s)])
                    } else {
                        Ok(f64::INFINITY)
                    }
                })
            },
            differs: "the worst point is the 7:1 fabric (7 hosts and 1 uplink per leaf at \
                      the --quick size), about 2.5 pp below Ideal; cause not identified",
            contra: Contra::Table(|t| {
                set_thrp(t, "fastroute", &[(col::SWEEP, "2-stage 7:1")], 97.0)
            }),
        },
        Claim {
            text: "3-stage: the performance of Fastroute is unaffected w.r.t. the Ideal",
            paper: 99.0,
            unit: "%",
            tol: NEAR_IDEAL,
            fabsim: |t| norm(t, "fastroute", &[(col::SWEEP, "3-stage 1:1")]),
            differs: "",
            contra: Contra::Table(|t| {
                set_thrp(t, "fastroute", &[(col::SWEEP, "3-stage 1:1")], 97.0)
            }),
        },
        Claim {
            text: "the Oversubscribed architecture's problem is not prevalent in a \
                   2-stage topology but significant in a 3-stage one (its throughput \
                   at 2-stage 1:1 minus at 3-stage 1:1, pp of Ideal)",
            paper: 0.0,
            unit: "pp",
            tol: Tol::Above,
            fabsim: |t| {
                Ok(norm(t, "oversubscribed", &[(col::SWEEP, "2-stage 1:1")])?
                    - norm(t, "oversubscribed", &[(col::SWEEP, "3-stage 1:1")])?)
            },
            differs: "Oversubscribed loses about as much in the 3-stage fat tree as in \
                      the 2-stage 1:1 fabric: fabsim puts every switch's down ports \
                      on its first ASIC and its up ports on the last, so an \
                      aggregation switch's inter-pod traffic crosses once, like a \
                      leaf's; the paper does not state how its 3-stage switches place \
                      ports on ASICs, and its oversubscribed 3-stage points are not \
                      expressible (see setup)",
            contra: Contra::Table(|t| {
                set_thrp(t, "oversubscribed", &[(col::SWEEP, "3-stage 1:1")], 95.0)
            }),
        },
        Claim {
            text: "the State-of-the-Art struggles to keep up across the whole range \
                   (Fastroute minus State-of-the-Art, worst point, pp of Ideal)",
            paper: 0.0,
            unit: "pp",
            tol: Tol::Above,
            fabsim: |t| {
                min_over(t, col::SWEEP, |s| {
                    Ok(norm(t, "fastroute", &[(col::SWEEP, s)])?
                        - norm(t, "sota", &[(col::SWEEP, s)])?)
                })
            },
            differs: "",
            contra: Contra::Table(|t| set_thrp(t, "sota", &[(col::SWEEP, "2-stage 3:1")], 99.9)),
        },
    ]
}

//! Ofan in practice: link failures, a 2-tier fabric, incremental deployment, congestion
//! control, MoE and FSDP training (Figs. 9-13, Sec. 6.7).

use super::{
    base, cc, cc_plot, cct_cut_pct, cct_us, inflation_pct, largest, max_queue_kb, moe_gap,
    paper_name, scheme, set_infl, synth, win_share, with_cc, FSDP_DIFFERS, MAIN, UPGRADES,
};
use crate::reproduce::cols::{self as col, key};
use crate::reproduce::scen::{by_scheme, by_scheme_named, sweep};
use crate::reproduce::{leak, Claim, Contra, Experiment, Paper, Plot, Source, Tol, INT_LIMIT};

pub fn experiments() -> Vec<Experiment> {
    vec![
        fig9(),
        fig10(),
        fig11(),
        cc::fig12(),
        fig13(),
        fsdp(),
        cc::fsdp_block(),
    ]
}

/// `ofan-fig9`, Fig. 9: link failures: CCT increase over the failure-free bound.
fn fig9() -> Experiment {
    Experiment {
        id: "ofan-fig9",
        paper: Paper::Ofan,
        figure: "Fig. 9",
        title: "link failures: CCT increase over the failure-free bound",
        varies: "failed switch-to-switch links (0, 2, 4, 8) x scheme (AR, REPS, 4OFAN, OFAN)",
        setup: "432-host fat tree (k = 12), permutation, 1 MiB per host, 0, 2, 4 and 8 \
                random switch-to-switch links down (the paper's failure counts are not \
                stated; fabsim draws them from the seed, never disconnecting two edges). \
                Every scheme uses only uplinks from which a shortest path still reaches \
                the destination; hosts are paced at rho_max of each failed fabric (the \
                paper's 'feasible rate'). 'CCT increase' = CCT over the failure-free \
                appendix-A bound. --quick: k = 8 (128 hosts), 2 seeds.",
        source: Source::Sim(by_scheme(
            &base().set("failures.links", "[0, 2, 4, 8]"),
            MAIN,
            &["topology.k=8", "run.seeds=2"],
        )),
        plot: Plot {
            x: key::LINKS,
            x_label: "failed links",
            x_log: false,
            y: inflation_pct,
            y_label: "CCT increase over the failure-free bound [%]",
            y_log: false,
            y_span: None,
            x_scale: 1.0,
            series: scheme,
        },
        panels: vec![],
        synthetic: synth::fig9,
        table_readings: vec![],
        claim_readings: vec![],
        controls: vec![
            stand_in!("with random link failures OFAN continues to outperform REPS and AR (share of failure counts where OFAN's CCT is below both)", "AR as OFAN", "ofan", "ar"),
            stand_in!("OFAN retains its relative ordering: both OFAN variants ahead of REPS and AR (share of failure counts where the slower of OFAN and 4OFAN beats the faster of AR and REPS)", "REPS as 4OFAN", "4ofan", "reps"),
        ],
        readings: vec![],
        claims: vec![
            Claim {
                text: "with random link failures OFAN continues to outperform REPS and AR \
                       (share of failure counts where OFAN's CCT is below both)",
                paper: 100.0,
                unit: "%",
                tol: Tol::Abs(0.0),
                fabsim: |t| win_share(t, key::LINKS, &["ofan"], &["ar", "reps"]),
                differs: "",
                contra: Contra::Table(|t| {
                    set_infl(t, &[(col::SCHEME, "ofan"), (key::LINKS, "8")], 50.0)
                }),
            },
            Claim {
                text: "OFAN retains its relative ordering: both OFAN variants ahead of REPS \
                       and AR (share of failure counts where the slower of OFAN and 4OFAN \
                       beats the faster of AR and REPS)",
                paper: 100.0,
                unit: "%",
                tol: Tol::Abs(0.0),
                fabsim: |t| win_share(t, key::LINKS, &["ofan", "4ofan"], &["ar", "reps"]),
                differs: "",
                contra: Contra::Table(|t| {
                    set_infl(t, &[(col::SCHEME, "4ofan"), (key::LINKS, "8")], 50.0)
                }),
            },
        ],
    }
}

/// `ofan-fig10`, Fig. 10: 2-tier fat tree (leaf-spine), 2,048 hosts.
fn fig10() -> Experiment {
    Experiment {
        id: "ofan-fig10",
        paper: Paper::Ofan,
        figure: "Fig. 10",
        title: "2-tier fat tree (leaf-spine), 2,048 hosts",
        varies: "the scheme (AR, REPS, 4OFAN, OFAN)",
        setup: "2-tier fat tree of radix 64 (64 leaves x 32 hosts, 32 spines), permutation, \
                1 MiB per host. CCT reduction = 1 - CCT(OFAN variant) / CCT(other), in %. \
                --quick: 1 seed.",
        source: Source::Sim(by_scheme(
            &base().set("topology.tiers", 2).set("topology.k", 64),
            MAIN,
            &["run.seeds=1"],
        )),
        plot: Plot {
            x: col::SCHEME,
            x_label: "load-balancing scheme",
            x_log: false,
            y: inflation_pct,
            y_label: "CCT inflation over the lower bound [%]",
            y_log: false,
            y_span: None,
            x_scale: 1.0,
            series: |_| "mean ± sd over seeds".into(),
        },
        panels: vec![],
        synthetic: synth::fig10,
        table_readings: vec![],
        claim_readings: vec![],
        controls: vec![
            // A destination-oblivious scheme in the OFAN variant's place.
            stand_in!(
                "OFAN reduces CCT by over 11% versus AR",
                "REPS as OFAN",
                "ofan",
                "reps"
            ),
            stand_in!(
                "OFAN reduces CCT by over 11% versus REPS",
                "AR as OFAN",
                "ofan",
                "ar"
            ),
            stand_in!(
                "4OFAN reduces CCT by over 11% versus AR",
                "REPS as 4OFAN",
                "4ofan",
                "reps"
            ),
            stand_in!(
                "4OFAN reduces CCT by over 11% versus REPS",
                "AR as 4OFAN",
                "4ofan",
                "ar"
            ),
        ],
        readings: vec![],
        claims: vec![
            cut_over_11::<0, 0>(),
            cut_over_11::<0, 1>(),
            cut_over_11::<1, 0>(),
            cut_over_11::<1, 1>(),
        ],
    }
}

/// `ofan-fig11`, Fig. 11: incremental deployment: half the switches upgraded from AR to 4OFAN.
fn fig11() -> Experiment {
    Experiment {
        id: "ofan-fig11",
        paper: Paper::Ofan,
        figure: "Fig. 11",
        title: "incremental deployment: half the switches upgraded from AR to 4OFAN",
        varies: "which half of the edge and aggregation switches runs 4OFAN (all edges, all \
                 aggregation switches, whole pods, a random half), with all-AR and all-4OFAN",
        setup: "432-host fat tree (k = 12), permutation, 1 MiB per host. An AR fabric in \
                which exactly half of the edge and aggregation switches run 4OFAN \
                (`switch.upgrade`); cores stay AR. The paper's summary does not name its \
                four selection strategies: fabsim's are every edge switch, every \
                aggregation switch, the switches of half of the pods, and a seeded random \
                half. 'Less than proportional' is read as: the best half-upgrade recovers \
                under half of the inflation the full upgrade removes. --quick: 2 seeds.",
        source: Source::Sim({
            let q = ["run.seeds=2"];
            let ar = base().schemes(&["ar"]);
            let mut v = vec![sweep("all AR", ar.clone(), &q)];
            for u in UPGRADES {
                let half = ar.clone().text("switch.upgrade", &[u]);
                v.push(sweep(u, half.text("switch.upgrade_lb", &["pofan"]), &q));
            }
            v.push(sweep("all 4OFAN", base().schemes(&["pofan"]), &q));
            v
        }),
        plot: Plot {
            x: col::SWEEP,
            x_label: "switches running 4OFAN",
            x_log: false,
            y: inflation_pct,
            y_label: "CCT inflation over the lower bound [%]",
            y_log: false,
            y_span: None,
            x_scale: 1.0,
            series: |_| "mean ± sd over seeds".into(),
        },
        panels: vec![],
        synthetic: synth::fig11,
        table_readings: vec![],
        claim_readings: vec![],
        controls: vec![],
        readings: vec![],
        claims: fig11_claims(),
    }
}

/// The claims of [`fig11`].
fn fig11_claims() -> Vec<Claim> {
    vec![
        Claim {
            text: "mixing 4OFAN and AR switches decreases CCT (share of the four \
                   strategies faster than the all-AR fabric)",
            paper: 100.0,
            unit: "%",
            tol: Tol::Abs(0.0),
            fabsim: |t| {
                let ar = t.mean(&[(col::SWEEP, "all AR")], cct_us)?;
                let mut wins = 0;
                for s in UPGRADES {
                    wins += usize::from(t.mean(&[(col::SWEEP, s)], cct_us)? < ar);
                }
                Ok(100.0 * wins as f64 / UPGRADES.len() as f64)
            },
            differs: "",
            contra: Contra::Table(|t| set_infl(t, &[(col::SWEEP, "random")], 22.0)),
        },
        Claim {
            text: "the reduction is less than proportional to the upgraded fraction \
                   (the best half-upgrade's share of the full upgrade's inflation \
                   reduction, < 50%)",
            paper: 50.0,
            unit: "%",
            tol: Tol::Below,
            fabsim: |t| {
                let f = |s: &str| t.mean(&[(col::SWEEP, s)], inflation_pct);
                let best = UPGRADES
                    .iter()
                    .map(|s| f(s))
                    .collect::<Result<Vec<_>, _>>()?;
                let best = best.into_iter().fold(f64::INFINITY, f64::min);
                let ar = f("all AR")?;
                Ok(100.0 * (ar - best) / (ar - f("all 4OFAN")?))
            },
            differs: "",
            contra: Contra::Table(|t| set_infl(t, &[(col::SWEEP, "edge")], 5.0)),
        },
        Claim {
            text: "edge-switch deployment performs best (its inflation minus the best \
                   other strategy's, < 0 pp)",
            paper: 0.0,
            unit: "pp",
            tol: Tol::Below,
            fabsim: |t| {
                let f = |s: &str| t.mean(&[(col::SWEEP, s)], inflation_pct);
                let others = UPGRADES[1..]
                    .iter()
                    .map(|s| f(s))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(f(UPGRADES[0])? - others.into_iter().fold(f64::INFINITY, f64::min))
            },
            differs: "the paper's four strategies are not named in its summary; with \
                      fabsim's, upgrading whole pods (both levels on a path's first \
                      and last hops) gains more than upgrading every edge switch",
            contra: Contra::Table(|t| set_infl(t, &[(col::SWEEP, "pods")], 10.0)),
        },
    ]
}

/// `ofan-fig13`, Fig. 13: MoE all-to-all-v with and without expert balancing.
fn fig13() -> Experiment {
    Experiment {
        id: "ofan-fig13",
        paper: Paper::Ofan,
        figure: "Fig. 13",
        title: "MoE all-to-all-v with and without expert balancing",
        varies: "congestion control (none, NSCC) x expert balancing x scheme (AR, REPS, \
                 4OFAN, OFAN), at k = 12 and the paper's k = 8 remark",
        setup: "3-tier fat trees k = 12 (432 hosts) and k = 8 (128 hosts). MoE dispatch: \
                each host sends 1 MiB of tokens, split over 4 experts per host by Zipf \
                popularity with exponent 1 (the paper states neither the token volume nor \
                the skew); 'balanced' = hot experts replicated into the redundant slots and \
                placed greedily (EPLB-like, `workload.balance`). Without congestion \
                control: unbounded buffers (the paper reports buffers beyond 100 MB). With \
                NSCC: Fig. 12's setting (800 KB buffers with trimming, ECN at 30 KB). \
                'Clearly outperforms' is read as a positive CCT gap of the better of AR \
                and REPS over OFAN; 'small impact' as under 5% between the fastest and \
                slowest scheme; 'equivalent' as within 1%. --quick: k = 8, 1 seed.",
        source: Source::Sim({
            let q = ["topology.k=8", "run.seeds=1"];
            let moe = base()
                .set("topology.k", "[8, 12]")
                .text("workload.kind", &["moe"])
                .set("workload.skew", "1.0")
                .set("workload.experts_per_host", 4)
                .set("workload.balance", "[false, true]");
            let nscc = with_cc(moe.clone()).text("host.cc", &["nscc"]);
            let mut v = by_scheme_named(["switch-none", "host-none"], &moe, MAIN, &q);
            v.extend(by_scheme_named(
                ["switch-nscc", "host-nscc"],
                &nscc,
                MAIN,
                &q,
            ));
            v
        }),
        plot: Plot {
            x: col::SCHEME,
            x_label: "load-balancing scheme",
            x_log: false,
            y: cct_us,
            y_label: "CCT [µs]",
            y_log: false,
            y_span: None,
            x_scale: 1.0,
            series: |r| {
                let bal = if r.get(key::BALANCE) == Some("true") {
                    "balanced"
                } else {
                    "unbalanced"
                };
                format!(
                    "{}, {bal}, {} hosts",
                    r.get(col::CC).unwrap_or("?"),
                    r.get(col::HOSTS).unwrap_or("?")
                )
            },
        },
        panels: vec![],
        synthetic: synth::fig13,
        table_readings: vec![],
        claim_readings: vec![],
        controls: vec![stand_in!(
            "with k = 8, OFAN and 4OFAN are equivalent (|4OFAN's mean CCT over OFAN's - 1|, %)",
            "AR as 4OFAN",
            "4ofan",
            "ar"
        )],
        readings: vec![],
        claims: fig13_claims(),
    }
}

/// The claims of [`fig13`].
fn fig13_claims() -> Vec<Claim> {
    vec![
        Claim {
            text: "under NSCC with expert balancing, OFAN clearly outperforms AR and \
                   REPS (better of their CCTs over OFAN's, minus 1, > 0%)",
            paper: 0.0,
            unit: "%",
            tol: Tol::Above,
            fabsim: |t| moe_gap(t, "nscc", "true"),
            differs: "",
            contra: Contra::Table(|t| {
                t.map(
                    &[
                        (col::SCHEME, "ofan"),
                        (col::CC, "nscc"),
                        (key::BALANCE, "true"),
                    ],
                    col::CCT_US,
                    |_| 125.0,
                )
            }),
        },
        Claim {
            text: "OFAN's advantage under NSCC is larger with expert balancing (gap \
                   balanced minus gap unbalanced, > 0 pp)",
            paper: 0.0,
            unit: "pp",
            tol: Tol::Above,
            fabsim: |t| Ok(moe_gap(t, "nscc", "true")? - moe_gap(t, "nscc", "false")?),
            differs: "",
            contra: Contra::Table(|t| {
                for s in ["ar", "reps"] {
                    let f = [(col::SCHEME, s), (col::CC, "nscc"), (key::BALANCE, "false")];
                    t.map(&f, col::CCT_US, |_| 130.0);
                }
            }),
        },
        Claim {
            text: "without congestion control and without balancing, receiver incast \
                   dominates and load balancing matters little (slowest over fastest \
                   scheme's CCT, minus 1, < 5%)",
            paper: 5.0,
            unit: "%",
            tol: Tol::Below,
            fabsim: |t| {
                let h = largest(t)?;
                let c = |s: &str| {
                    t.mean(
                        &[
                            (col::SCHEME, s),
                            (col::CC, "none"),
                            (key::BALANCE, "false"),
                            (col::HOSTS, &h),
                        ],
                        cct_us,
                    )
                };
                let v = ["ar", "reps", "4ofan", "ofan"]
                    .iter()
                    .map(|s| c(s))
                    .collect::<Result<Vec<_>, _>>()?;
                let hi = v.iter().copied().fold(0.0, f64::max);
                Ok(100.0 * (hi / v.into_iter().fold(f64::INFINITY, f64::min) - 1.0))
            },
            differs: "",
            contra: Contra::Table(|t| {
                t.map(
                    &[
                        (col::SCHEME, "ar"),
                        (col::CC, "none"),
                        (key::BALANCE, "false"),
                    ],
                    col::CCT_US,
                    |_| 230.0,
                )
            }),
        },
        Claim {
            text: "without congestion control, buffers exceed 100 MB (largest max \
                   queue, MB)",
            paper: 100.0,
            unit: "MB",
            tol: Tol::AtLeast(INT_LIMIT),
            fabsim: |t| {
                t.values(&[(col::CC, "none")], max_queue_kb)
                    .map(|v| v.into_iter().fold(0.0, f64::max) / 1e3)
            },
            differs: "the paper's token volume per host is not stated: fabsim's 1 MiB \
                      per host puts at most 128 MiB (k = 8) or 432 MiB (k = 12) in \
                      flight in all, spread over many receivers",
            contra: Contra::Table(|t| {
                t.map(
                    &[(col::CC, "none")],
                    col::MAX_QUEUE_BYTES.at(col::stage::ALL),
                    |_| 50e6,
                )
            }),
        },
        Claim {
            text: "with k = 8, OFAN and 4OFAN are equivalent (|4OFAN's mean CCT over \
                   OFAN's - 1|, %)",
            paper: 0.0,
            unit: "%",
            tol: Tol::Abs(1.0),
            fabsim: |t| {
                Ok(100.0
                    * (t.mean(&[(col::SCHEME, "4ofan"), (col::HOSTS, "128")], cct_us)?
                        / t.mean(&[(col::SCHEME, "ofan"), (col::HOSTS, "128")], cct_us)?
                        - 1.0)
                        .abs())
            },
            differs: "",
            contra: Contra::Table(|t| {
                t.map(
                    &[(col::SCHEME, "4ofan"), (col::HOSTS, "128")],
                    col::CCT_US,
                    |x| x * 1.05,
                )
            }),
        },
    ]
}

/// `ofan-fsdp`, Sec. 6.7: FSDP2 training of Llama-3 405B, the whole iteration.
fn fsdp() -> Experiment {
    Experiment {
        id: "ofan-fsdp",
        paper: Paper::Ofan,
        figure: "Sec. 6.7",
        title: "FSDP2 training of Llama-3 405B, the whole iteration in host rank order \
                (no contention: see ofan-fsdp-block)",
        varies: "congestion control (none, NSCC, MSwift) x scheme (AR, REPS, 4OFAN, OFAN)",
        setup: "One FSDP2 iteration of Llama-3 405B (126 blocks, bf16, root unit = \
                embedding + output head + final norm) over a 432-host data-parallel group \
                (k = 12) with ring collectives in host rank order: five of six ring flows \
                stay inside an edge switch and each cross-edge flow is alone on its links, \
                so the fabric sees no contention and this experiment cannot show the \
                paper's mechanism (ofan-fsdp-block runs blocks at full size with a random \
                rank order). No compute (collectives back to back: \
                forward all-gathers, then backward all-gathers overlapping reduce-scatters; \
                the paper states neither its schedule nor its compute overlap). 'CCT \
                increase beyond the lower bound' = the iteration's CCT over its \
                dependency-chain bound, minus 1; the reduction factor = the smaller of AR's \
                and REPS's increase over OFAN's (or 4OFAN's). Congestion control as in \
                Fig. 12 (800 KB buffers with trimming, ECN at 30 KB). The full size runs \
                for days and has not been run. --quick: k = 8 (128 hosts), 2 blocks, \
                every message at 1/1000 of its size, 1 seed.",
        source: Source::Sim({
            let fsdp = with_cc(base())
                .unset("workload.message_bytes")
                .text("host.cc", &["none", "nscc", "mswift"])
                .text("workload.kind", &["fsdp"])
                .text("workload.model", &["llama3-405b"])
                .set("workload.layers", 126)
                .set("workload.size_scale", "1.0")
                .text("workload.algorithm", &["ring"]);
            let q = [
                "topology.k=8",
                "workload.layers=2",
                "workload.size_scale=0.001",
                "run.seeds=1",
            ];
            by_scheme(&fsdp, MAIN, &q)
        }),
        plot: cc_plot(scheme),
        panels: vec![],
        synthetic: synth::fsdp,
        table_readings: vec![],
        claim_readings: vec![],
        controls: vec![],
        readings: vec![],
        claims: cc::fsdp_claims::<2>("", FSDP_DIFFERS),
    }
}

/// Fig. 10's family: OFAN (`A` = 0) or 4OFAN reduces CCT by over 11% versus AR (`B` = 0) or
/// REPS.
fn cut_over_11<const A: usize, const B: usize>() -> Claim {
    use cc::{ESCAPING as OURS, THROTTLED as OTHERS};
    Claim {
        text: leak(format!(
            "{} reduces CCT by over 11% versus {}",
            paper_name(OURS[A]),
            paper_name(OTHERS[B])
        )),
        paper: 11.0,
        unit: "%",
        tol: Tol::AtLeast(INT_LIMIT),
        fabsim: |t| cct_cut_pct(t, OURS[A], OTHERS[B]),
        differs: match OTHERS[B] {
            "reps" => {
                "fabsim's REPS on the 2-tier fabric comes closer to Ofan than the paper's; the \
                 paper does not state REPS's settings (entropy pool, freezing), which decide how \
                 evenly it sprays"
            }
            _ => "",
        },
        contra: Contra::Table(|t| set_infl(t, &[(col::SCHEME, OTHERS[B])], 5.0)),
    }
}

//! Validation against theory and the Ofan paper (sections 3.3-3.5, 4, appendix A).

use fabsim::metrics::{run, RunReport};
use fabsim::params::SimParams;
use fabsim::scenario::Scenario;

/// Expands a scenario built from the default plus `--set`-style overrides.
fn specs(sets: &[&str]) -> Vec<SimParams> {
    let mut s = Scenario::default_scenario();
    for a in sets {
        s.set(a).unwrap();
    }
    s.expand().unwrap().into_iter().map(|r| r.params).collect()
}

fn run_all(sets: &[&str]) -> Vec<RunReport> {
    specs(sets).iter().map(run).collect()
}

fn mean(xs: impl Iterator<Item = f64>) -> f64 {
    let v: Vec<f64> = xs.collect();
    v.iter().sum::<f64>() / v.len() as f64
}

/// Least-squares slope of log(y) against log(x).
fn log_log_slope(points: &[(f64, f64)]) -> f64 {
    let xs: Vec<f64> = points.iter().map(|p| p.0.ln()).collect();
    let ys: Vec<f64> = points.iter().map(|p| p.1.max(1.0).ln()).collect();
    let (mx, my) = (mean(xs.iter().copied()), mean(ys.iter().copied()));
    let num: f64 = xs.iter().zip(&ys).map(|(x, y)| (x - mx) * (y - my)).sum();
    num / xs.iter().map(|x| (x - mx).powi(2)).sum::<f64>()
}

/// Log-log slope, against message size, of the mean max queue at `stage` of the runs of one
/// scheme (`of` picks its runs).
fn max_queue_slope(reports: &[RunReport], of: impl Fn(&RunReport) -> bool, stage: &str) -> f64 {
    let mut sizes: Vec<u64> = reports.iter().map(|r| r.message_bytes).collect();
    sizes.sort_unstable();
    sizes.dedup();
    let points: Vec<(f64, f64)> = sizes
        .iter()
        .map(|&m| {
            let q = reports
                .iter()
                .filter(|r| of(r) && r.message_bytes == m)
                .map(|r| r.max_queue_bytes[stage] as f64);
            (m as f64, mean(q))
        })
        .collect();
    log_log_slope(&points)
}

/// Appendix A: the permutation bound is a lower bound for every scheme; all-to-all against
/// its naive bound too, and on a 2-tier fabric.
#[test]
fn lower_bound_never_exceeds_cct() {
    let cases: [&[&str]; 3] = [
        &["topology.k=4", "run.seeds=3"],
        &[
            "topology.k=4",
            "workload.kind=all-to-all",
            "workload.message_bytes=61440",
        ],
        &["topology.tiers=2", "topology.k=8", "run.seeds=2"],
    ];
    for sets in cases {
        for r in run_all(&[sets, &["switch.lb=ecmp,rsq,rr,jsq,ar,ofan,pofan"]].concat()) {
            let cct = r
                .cct_us
                .expect("every flow completes with unbounded buffers");
            assert!(
                cct >= r.lower_bound_us.unwrap(),
                "{sets:?} {} seed {}: CCT {cct} < bound {}",
                r.lb,
                r.seed,
                r.lower_bound_us.unwrap()
            );
            assert_eq!(r.flows_completed, r.flows_total);
        }
    }
}

/// The bound is tight: two hosts on a line-rate path (no load balancing to do) meet it
/// exactly for whole packets; with a short last packet within one ACK serialization (0.64 ns).
#[test]
fn bound_is_met_when_nothing_collides() {
    for (m, slack_us) in [("4096", 0.0), ("1048576", 0.0), ("1000000", 0.00064)] {
        let r = run(&specs(&[
            "topology.tiers=2",
            "topology.leaves=2",
            "topology.hosts_per_leaf=1",
            "topology.uplinks=1",
            "switch.lb=ofan",
            &format!("workload.message_bytes={m}"),
        ])[0]);
        let cct = r.cct_us.unwrap();
        assert!(
            cct >= r.lower_bound_us.unwrap() && cct - r.lower_bound_us.unwrap() <= slack_us + 1e-9,
            "m = {m}: {cct} vs {}",
            r.lower_bound_us.unwrap()
        );
    }
}

/// k = 4, 256-packet messages (paper: Ofan 17.0587 us against a 17.05694 us bound). fabsim's
/// Ofan lands within 1% of its bound and beats every destination-oblivious scheme.
#[test]
fn ofan_is_close_to_the_bound_at_k4() {
    let reports = run_all(&["topology.k=4", "run.seeds=5", "switch.lb=rsq,jsq,ar,ofan"]);
    let inflation = |lb: &str| {
        mean(
            reports
                .iter()
                .filter(|r| r.lb == lb)
                .map(|r| r.cct_inflation.unwrap()),
        )
    };
    let ofan = inflation("ofan");
    assert!(ofan < 0.01, "ofan inflation {ofan}");
    for other in ["rsq", "jsq", "ar"] {
        assert!(
            ofan < inflation(other),
            "ofan {ofan} vs {other} {}",
            inflation(other)
        );
    }
}

/// Appendix A's measured minimum, as fabsim finds it (issue 46, docs/decisions.md): OFAN's
/// excess over the bound is a fixed start-up cost (its first, randomly started pointer
/// round collides, and at load 1 the backlog never drains), so the least excess over 10
/// seeds is held to what was measured (k = 4: 77 ns; k = 8: 291 ns, where the paper's OFAN
/// is 85 ns above fabsim's bound) and, at k = 8, is the same for 64 and 1,024 packets. A
/// change to Ofan, the ports or the bound that moves these fails here and must say why.
#[test]
fn ofan_excess_over_the_bound_is_a_fixed_start_up_cost() {
    let least_excess_ns = |k: u32, message_bytes: u64| {
        run_all(&[
            &format!("topology.k={k}"),
            "switch.lb=ofan",
            &format!("workload.message_bytes={message_bytes}"),
            "run.seeds=10",
        ])
        .iter()
        .map(|r| (r.cct_us.unwrap() - r.lower_bound_us.unwrap()) * 1e3)
        .fold(f64::INFINITY, f64::min)
    };
    let k4 = least_excess_ns(4, 1 << 20);
    assert!((60.0..95.0).contains(&k4), "k = 4: {k4} ns");
    let k8 = least_excess_ns(8, 1 << 20);
    assert!((250.0..320.0).contains(&k8), "k = 8: {k8} ns");
    let (short, long) = (least_excess_ns(8, 1 << 18), least_excess_ns(8, 1 << 22));
    assert!(
        (short / long - 1.0).abs() < 0.2,
        "k = 8: {short} ns at 64 packets, {long} ns at 1,024"
    );
}

/// Sections 3.3-3.5: max queue growth with message size m (k = 8, m = 64 .. 4096 packets).
/// SIMPLE RR and JSQ: flat uplinks, linear downlinks; RSQ and AR: about sqrt(m); Ofan and
/// pOfan: flat.
#[test]
fn queue_growth_has_the_papers_shape() {
    let reports = run_all(&[
        "topology.k=8",
        "switch.lb=rr,jsq,rsq,ar,ofan,pofan",
        "workload.message_bytes=262144,1048576,4194304,16777216",
        "run.seeds=2",
    ]);
    let slope = |lb: &str, stage: &str| max_queue_slope(&reports, |r| r.lb == lb, stage);
    for lb in ["rr", "jsq"] {
        let down = slope(lb, "edge-down");
        let up = slope(lb, "edge-up").max(slope(lb, "agg-up"));
        assert!(
            down > 0.8,
            "{lb}: edge-down slope {down}, expected about linear"
        );
        assert!(up < 0.3, "{lb}: uplink slope {up}, expected flat");
    }
    for lb in ["rsq", "ar"] {
        let s = slope(lb, "all");
        assert!(
            (0.3..0.8).contains(&s),
            "{lb}: slope {s}, expected about 0.5"
        );
    }
    for lb in ["ofan", "pofan"] {
        let s = slope(lb, "all");
        assert!(s < 0.15, "{lb}: slope {s}, expected flat");
    }
}

/// Fig. 1 (the built-in default): Ofan and pOfan have the smallest CCT inflation and max queue.
#[test]
fn ofan_and_pofan_lead_on_the_default_scenario() {
    let reports = run_all(&[]);
    let worst_of_ofans = |f: &dyn Fn(&RunReport) -> f64| {
        reports
            .iter()
            .filter(|r| r.lb.ends_with("ofan"))
            .map(f)
            .fold(f64::MIN, f64::max)
    };
    let best_of_others = |f: &dyn Fn(&RunReport) -> f64| {
        reports
            .iter()
            .filter(|r| !r.lb.ends_with("ofan"))
            .map(f)
            .fold(f64::MAX, f64::min)
    };
    let inflation = |r: &RunReport| r.cct_inflation.unwrap();
    let max_q = |r: &RunReport| r.max_queue_bytes["all"] as f64;
    assert!(worst_of_ofans(&inflation) < best_of_others(&inflation));
    assert!(worst_of_ofans(&max_q) < best_of_others(&max_q));
}

/// Fig. 1: Ofan keeps the network near full utilization at load 1, REPS and AR do not.
/// Utilization here is the lower bound over the CCT: the share of the collective's time an
/// ideally balanced fabric would need (the paper: ofan about 99%, REPS and AR below 95%).
#[test]
fn fig1_utilization_ofan_high_reps_and_ar_below_95() {
    let mut reports = run_all(&["switch.lb = [\"ofan\", \"ar\"]"]);
    reports.extend(run_all(&["switch.lb = \"ecmp\"", "host.lb = \"reps\""]));
    let util = |r: &RunReport| r.lower_bound_us.unwrap() / r.cct_us.unwrap();
    for r in &reports {
        let u = util(r);
        match (r.lb.as_str(), r.host_lb.as_str()) {
            ("ofan", _) => assert!(u > 0.97, "ofan utilization {u}"),
            _ => assert!(u < 0.95, "{} / {} utilization {u}", r.lb, r.host_lb),
        }
    }
}

/// Same scenario and seed: identical reports apart from `perf`.
#[test]
fn runs_are_deterministic() {
    let p = &specs(&["topology.k=4", "switch.lb=rsq", "run.seed=9"])[0];
    let json = |r: RunReport| {
        let mut v = serde_json::to_value(r).unwrap();
        v.as_object_mut().unwrap().remove("perf");
        v.to_string()
    };
    assert_eq!(json(run(p)), json(run(p)));
    let other = &specs(&["topology.k=4", "switch.lb=rsq", "run.seed=10"])[0];
    assert_ne!(json(run(p)), json(run(other)));
}

/// Finite buffers: trimming recovers every packet through NACKs; drop-tail through the
/// retransmission timeout, and without it flows stay incomplete. Packet conservation is
/// asserted inside every run.
#[test]
fn finite_buffers_trim_or_drop() {
    let base = [
        "topology.k=4",
        "switch.lb=ecmp",
        "switch.buffer_bytes=20000",
    ];
    let trim = run(&specs(&[&base[..], &["switch.overflow=trim"]].concat())[0]);
    assert!(trim.trims > 0);
    assert_eq!(trim.retransmits, trim.trims);
    assert_eq!((trim.timeouts, trim.duplicates), (0, 0));
    assert_eq!(trim.flows_completed, trim.flows_total);
    assert!(trim.cct_us.unwrap() > trim.lower_bound_us.unwrap());
    // Data respects the buffer; ACKs and headers (the priority queue) may add a few 64 B.
    assert!(
        trim.max_queue_bytes["all"] <= 20000 + 16 * 64,
        "{}",
        trim.max_queue_bytes["all"]
    );

    let drop = run(&specs(&[&base[..], &["switch.overflow=drop"]].concat())[0]);
    assert!(drop.drops > 0 && drop.timeouts > 0);
    assert!(drop.retransmits >= drop.drops);
    assert_eq!(drop.flows_completed, drop.flows_total);
    assert!(drop.cct_us.unwrap() > drop.lower_bound_us.unwrap());

    let no_rto =
        run(&specs(&[&base[..], &["switch.overflow=drop", "host.rto_us=off"]].concat())[0]);
    assert!(no_rto.drops > 0);
    assert!(no_rto.flows_completed < no_rto.flows_total);
    assert_eq!(no_rto.cct_us, None);
}

/// A timeout shorter than the queueing delay fires while the packets are still on their
/// way: the resent copies arrive as duplicates, are ACKed again and counted once.
#[test]
fn spurious_timeouts_make_duplicates_not_double_counts() {
    // Just above the base RTT (6.25 us): queueing delay alone fires the timer.
    let r = run(&specs(&["topology.k=4", "switch.lb=ecmp", "host.rto_us=7"])[0]);
    assert!(r.timeouts > 0 && r.duplicates > 0);
    assert_eq!(r.flows_completed, r.flows_total);
    assert!(r.cct_us.unwrap() >= r.lower_bound_us.unwrap());
}

/// Section 3.5 for host-side schemes over switch ECMP (k = 8, m = 64 .. 4096 packets): DRB
/// and ETHEREAL keep flat max queues, like Ofan; RPS and REPS grow about as sqrt(m).
#[test]
fn host_side_queue_growth() {
    let reports = run_all(&[
        "topology.k=8",
        "switch.lb=ecmp",
        "host.lb=rps,reps,drb,ethereal",
        "workload.message_bytes=262144,1048576,4194304,16777216",
        "run.seeds=2",
    ]);
    let slope = |lb: &str| max_queue_slope(&reports, |r| r.host_lb == lb, "all");
    for lb in ["drb", "ethereal"] {
        let s = slope(lb);
        assert!(s < 0.15, "{lb}: slope {s}, expected flat");
    }
    // Appendix E: ETHEREAL's edge uplinks never hold more than k^2/4 + 1 packets.
    let bound = (8 * 8 / 4 + 1) as u64 * (4096 + 64);
    for r in reports.iter().filter(|r| r.host_lb == "ethereal") {
        let q = r.max_queue_bytes["edge-up"];
        assert!(q <= bound, "ethereal edge-up queue {q} B above {bound} B");
    }
    for lb in ["rps", "reps"] {
        let s = slope(lb);
        assert!(
            (0.25..0.75).contains(&s),
            "{lb}: slope {s}, expected about 0.5"
        );
    }
}

/// ECN marks appear only above kmin, and REPS's ACKs carry them back.
#[test]
fn ecn_marks_congested_ports_only() {
    let base = ["topology.k=4", "switch.lb=ecmp", "host.lb=reps"];
    let high = run(&specs(
        &[
            &base[..],
            &[
                "switch.ecn_kmin_bytes=100000000",
                "switch.ecn_kmax_bytes=100000000",
            ],
        ]
        .concat(),
    )[0]);
    assert_eq!(high.ecn_marks, 0);
    let low = run(&specs(
        &[
            &base[..],
            &["switch.ecn_kmin_bytes=0", "switch.ecn_kmax_bytes=8320"],
        ]
        .concat(),
    )[0]);
    assert!(low.ecn_marks > 0);
    assert_eq!(low.flows_completed, low.flows_total);
}

/// Section 3.5: CONGA's flowlets never break in gapless collective traffic, so flows stick to
/// their first uplink and max queues grow about linearly (leaf-spine, k = 8); Ofan on the
/// same fabric stays flat.
#[test]
fn conga_queues_grow_linearly_on_leaf_spine() {
    let reports = run_all(&[
        "topology.tiers=2",
        "topology.k=8",
        "switch.lb=conga,ofan",
        "workload.message_bytes=262144,1048576,4194304,16777216",
        "run.seeds=2",
    ]);
    let slope = |lb: &str| max_queue_slope(&reports, |r| r.lb == lb, "all");
    let (conga, ofan) = (slope("conga"), slope("ofan"));
    assert!(conga > 0.8, "conga slope {conga}, expected about linear");
    assert!(ofan < 0.15, "ofan slope {ofan}, expected flat");
}

/// Ofan's pointers are kept per destination edge and pod, read from the fabric's tables, so
/// they do not assume a rack numbering or one plane. On rail-optimized fabrics (a server's
/// GPUs on its pod's rail switches: 3 tiers, k = 8, and 2 tiers with 8 leaves as rails)
/// Ofan's max queue stays flat in message size and RSQ's grows about as sqrt(m). A random
/// permutation is the same traffic, relabelled, under either numbering; what this checks is
/// that routing and the pointers follow the hosts' placement.
///
/// On a 2-plane k = 8 fat tree each flow of the permutation takes a plane drawn for it, so a
/// plane's NICs no longer all send and receive. A NIC that sends without receiving has no
/// ACKs to interleave and sends its data at full line rate; its receiver, if it sends a flow
/// too, gets that data plus its own flow's ACKs, 1.5% over line rate. The last hops to such
/// hosts (agg-down, edge-down) then grow linearly under any scheme (measured: edge-down
/// 267 KB at 16 MiB). The uplinks and the core stay Ofan's: flat.
#[test]
fn ofan_stays_flat_on_rail_optimized_and_multi_plane_fabrics() {
    let size = "workload.message_bytes=262144,1048576,4194304,16777216";
    for tiers in ["topology.tiers=3", "topology.tiers=2"] {
        let reports = run_all(&[
            tiers,
            "topology.k=8",
            "topology.layout=rail",
            "switch.lb=rsq,ofan",
            size,
            "run.seeds=2",
        ]);
        let slope = |lb: &str| max_queue_slope(&reports, |r| r.lb == lb, "all");
        let (rsq, ofan) = (slope("rsq"), slope("ofan"));
        assert!(ofan < 0.15, "{tiers}: ofan slope {ofan}, expected flat");
        assert!(
            (0.3..0.8).contains(&rsq),
            "{tiers}: rsq slope {rsq}, expected about 0.5"
        );
    }
    let reports = run_all(&[
        "topology.k=8",
        "topology.planes=2",
        "switch.lb=ofan",
        size,
        "run.seeds=2",
    ]);
    for stage in ["edge-up", "agg-up", "core-down"] {
        let s = max_queue_slope(&reports, |_| true, stage);
        assert!(s < 0.15, "2 planes, {stage}: ofan slope {s}, expected flat");
    }
    let down = max_queue_slope(&reports, |_| true, "edge-down");
    assert!(
        down > 0.5,
        "2 planes, edge-down: slope {down}, expected the ACKs' growth"
    );
}

/// Striped (`host.planes = "stripe"`), each message of a permutation on a 2-plane k = 8 fat
/// tree is a flow per plane, half its bytes each: every NIC of a plane sends and receives
/// one part, a permutation in each plane, and appendix A's bound holds again (on the parts).
/// Ofan sits at it as on one plane (measured: 2.5% over it, 11.86 us), where hashing each
/// message onto one plane leaves it 35% over the NICs' bound (17.15 us; that bound, the
/// busiest NIC's load, is looser than appendix A's, so part of the gap is the bound's). The
/// CCT itself falls by a third: each server sends over both its NICs.
#[test]
fn striping_brings_a_multi_plane_permutation_back_to_its_bound() {
    let reports = run_all(&[
        "topology.k=8",
        "topology.planes=2",
        "host.planes=hash,stripe",
        "switch.lb=ofan",
        "workload.message_bytes=1048576",
        "run.seeds=2",
    ]);
    let striped = |r: &&RunReport| r.flows_total == 2 * 128;
    let over = |r: &RunReport| {
        let (cct, bound) = (r.cct_us.expect("completes"), r.lower_bound_us.unwrap());
        assert!(cct >= bound, "CCT {cct} us under the bound {bound} us");
        assert_eq!(r.flows_completed, r.flows_total);
        assert_eq!(r.drops, 0);
        cct / bound - 1.0
    };
    let (stripe, hash): (Vec<&RunReport>, Vec<&RunReport>) = reports.iter().partition(striped);
    assert_eq!((stripe.len(), hash.len()), (2, 2));
    for (s, h) in stripe.iter().zip(&hash) {
        let (so, ho) = (over(s), over(h));
        assert!(so < 0.05, "stripe: {:.1}% over the bound", 100.0 * so);
        assert!(ho > 0.2, "hash: {:.1}% over the bound", 100.0 * ho);
        let (sc, hc) = (s.cct_us.unwrap(), h.cct_us.unwrap());
        assert!(sc < 0.8 * hc, "stripe CCT {sc} us, hash {hc} us");
    }
}

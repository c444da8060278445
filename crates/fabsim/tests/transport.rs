//! Congestion control in the simulator: a two-flow incast ("dumbbell") under DCTCP.

use fabsim::metrics::run;
use fabsim::scenario::Scenario;
use fabsim::sim::{simulate, SimParams};

fn params(sets: &[&str]) -> SimParams {
    let mut s = Scenario::default_scenario();
    for a in sets {
        s.set(a).unwrap();
    }
    s.expand().unwrap().remove(0).params
}

const INCAST: [&str; 7] = [
    "topology.k=4",
    "switch.lb=ecmp",
    "workload.kind=incast",
    "workload.senders=2",
    "workload.message_bytes=4194304",
    "switch.ecn_kmin_bytes=100000",
    "switch.ecn_kmax_bytes=100000",
];

/// Two DCTCP flows into one host share its link fairly, keep the queue near the marking
/// threshold instead of the message size, and keep the link busy.
#[test]
fn dctcp_incast_is_fair_efficient_and_keeps_queues_short() {
    let none = run(&params(&[&INCAST[..], &["host.cc=none"]].concat()));
    let p = params(&[&INCAST[..], &["host.cc=dctcp"]].concat());
    let dctcp = run(&p);
    // Without congestion control the excess of two line-rate senders piles up.
    assert!(none.max_queue_bytes["edge-down"] > 3_000_000);
    // DCTCP: the queue stays within a few thresholds (the first round trip overshoots).
    assert!(
        dctcp.max_queue_bytes["edge-down"] < 700_000,
        "{:?}",
        dctcp.max_queue_bytes
    );
    assert!(dctcp.ecn_marks > 0);
    // Efficiency: within 15% of the receiver-link bound.
    let cct = dctcp.cct_us.unwrap();
    assert!(
        cct < 1.15 * dctcp.lower_bound_us,
        "{cct} vs {}",
        dctcp.lower_bound_us
    );
    // Fairness: the two flows finish close together.
    let fct: Vec<u64> = simulate(&p)
        .fct_ps
        .into_iter()
        .map(Option::unwrap)
        .collect();
    let (lo, hi) = (fct[0].min(fct[1]) as f64, fct[0].max(fct[1]) as f64);
    assert!(hi / lo < 1.1, "FCTs {fct:?}");
}

/// With congestion control on and nothing congested, a permutation still completes near its
/// bound (the window starts at one bandwidth-delay product).
#[test]
fn dctcp_does_not_throttle_an_uncongested_permutation() {
    let r = run(&params(&[
        "topology.k=4",
        "switch.lb=ofan",
        "host.cc=dctcp",
        "switch.ecn_kmin_bytes=100000",
        "switch.ecn_kmax_bytes=100000",
    ]));
    assert_eq!(r.flows_completed, r.flows_total);
    assert!(r.cct_inflation.unwrap() < 0.02, "{:?}", r.cct_inflation);
}

//! Congestion control in the simulator: a two-flow incast ("dumbbell") under each algorithm.
//!
//! In the k = 4 incast, host 1 shares host 0's edge switch (a 2-hop path) and host 2 sits in
//! another edge of the pod (4 hops): the two flows have different base RTTs (2.08 and
//! 4.17 us; the fabric's longest-path base RTT is 6.25 us, one BDP 625 KB). Numbers over
//! 32 MiB flows are in docs/decisions.md.

use fabsim::engine::Time;
use fabsim::metrics::{run, RunReport};
use fabsim::params::SimParams;
use fabsim::scenario::Scenario;
use fabsim::sim::simulate;
use fabsim::transport::{Rto, RtoRule, RtoTimer};

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

/// Two DCTCP flows into one host share its link roughly fairly, keep the queue near the
/// marking threshold instead of the message size, and keep the link busy.
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
    // Efficiency: within 20% of the receiver-link bound. Alpha starts at 1 and holds for
    // the whole first round trip (`host.dctcp_first_window = "round-trip"`), so the first
    // cuts are deep: 19.2% over the bound, where closing the first window at the first ACK
    // (RFC 8257 read literally) gave 11.9%.
    let cct = dctcp.cct_us.unwrap();
    assert!(
        cct < 1.20 * dctcp.lower_bound_us.unwrap(),
        "{cct} vs {}",
        dctcp.lower_bound_us.unwrap()
    );
    // Fairness: the two flows finish close together.
    let fct: Vec<Time> = simulate(&p).fcts().map(Option::unwrap).collect();
    let (lo, hi) = (
        fct[0].min(fct[1]).as_ps_f64(),
        fct[0].max(fct[1]).as_ps_f64(),
    );
    // Four round trips of marks decide who is ahead: the flow whose ACK is marked first
    // halves first. 103.99 against 80.55 us (1.29) with one cut per round trip from the
    // start; 97.64 against 91.43 (1.07) when the first ACK closes the first window and a
    // second cut can follow within the first RTT (`host.dctcp_first_window = "first-ack"`).
    assert!(hi / lo < 1.35, "FCTs {fct:?}");
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

/// One incast run under `cc` (plus `extra` keys): its report and the ratio of the two FCTs.
fn incast(cc: &str, extra: &[&str]) -> (RunReport, f64) {
    let cc = format!("host.cc={cc}");
    // Windows start at one fabric BDP (the default is 1.5 BDP), which sets the first round
    // trip's burst that the queue assertions below account for.
    let one_bdp = "host.init_window_bytes=625000";
    let p = params(&[&INCAST[..], &[cc.as_str(), one_bdp], extra].concat());
    let r = run(&p);
    let fct: Vec<f64> = simulate(&p)
        .fcts()
        .map(|f| f.unwrap().as_ps_f64())
        .collect();
    let ratio = fct[0].max(fct[1]) / fct[0].min(fct[1]);
    eprintln!(
        "{}: CCT {:.2} us vs bound {:.2} (+{:.1}%), edge-down max queue {} B, mean {:.0} B, \
         FCTs {:.2} / {:.2} us (ratio {ratio:.3})",
        r.cc,
        r.cct_us.unwrap(),
        r.lower_bound_us.unwrap(),
        100.0 * (r.cct_us.unwrap() / r.lower_bound_us.unwrap() - 1.0),
        r.max_queue_bytes["edge-down"],
        r.mean_queue_bytes["edge-down"],
        fct[0] / 1e6,
        fct[1] / 1e6,
    );
    (r, ratio)
}

/// The no-CC baseline the delay-based algorithms are compared with.
fn no_cc() -> RunReport {
    incast("none", &[]).0
}

/// Both flows complete, the CCT stays near the bound, and the receiver's downlink queue, both
/// its peak and its time average, stays far below the no-CC case.
fn assert_efficient_and_short_queues(r: &RunReport, none: &RunReport) {
    assert_eq!(r.flows_completed, 2);
    let cct = r.cct_us.unwrap();
    assert!(
        cct < 1.15 * r.lower_bound_us.unwrap(),
        "{cct} vs {}",
        r.lower_bound_us.unwrap()
    );
    // The peak is the first round trip: both senders start at one fabric BDP (625 KB) and
    // send at line rate until the window fills, whatever the algorithm decides meanwhile.
    let (q, q0) = (
        r.max_queue_bytes["edge-down"],
        none.max_queue_bytes["edge-down"],
    );
    assert!(
        q < 1_000_000 && q < q0 / 4,
        "max queue {q} vs {q0} without CC"
    );
    let (m, m0) = (
        r.mean_queue_bytes["edge-down"],
        none.mean_queue_bytes["edge-down"],
    );
    assert!(m < m0 / 4.0, "mean queue {m} vs {m0} without CC");
}

/// Swift: delay-based AIMD keeps the queue near its target and shares the link fairly.
#[test]
fn swift_incast_is_fair_efficient_and_keeps_queues_short() {
    let (r, ratio) = incast("swift", &[]);
    assert_efficient_and_short_queues(&r, &no_cc());
    assert!(ratio < 1.1, "FCT ratio {ratio}");
}

/// MSwift (median of 8 samples): the same, with a smoothed delay signal.
#[test]
fn mswift_incast_is_fair_efficient_and_keeps_queues_short() {
    let (r, ratio) = incast("mswift", &[]);
    assert_efficient_and_short_queues(&r, &no_cc());
    assert!(ratio < 1.1, "FCT ratio {ratio}");
}

/// NSCC with its defaults (target queueing delay = the fabric's base RTT, 6.3 us; window cap
/// 1.5 x the flow's own path BDP) is efficient and keeps queues short, but does not share
/// fairly here: both windows sit at their caps (312 and 625 KB), which together hold a queue
/// of about 6.0 us, just below the target, so the decrease quadrant never fires and the shares
/// follow the caps (the 4-hop flow finishes about 17% earlier). No fairness assertion.
#[test]
fn nscc_incast_is_efficient_and_keeps_queues_short() {
    let (r, _ratio) = incast("nscc", &[]);
    assert_efficient_and_short_queues(&r, &no_cc());
    assert!(r.ecn_marks > 0);
}

/// With a target the capped windows do reach (3 us), the ECN-and-above-target quadrant
/// engages and the two flows share the link fairly.
#[test]
fn nscc_incast_with_a_reachable_target_is_fair() {
    let (r, ratio) = incast("nscc", &["host.nscc_target_ns=3000"]);
    assert_efficient_and_short_queues(&r, &no_cc());
    assert!(ratio < 1.1, "FCT ratio {ratio}");
}

/// No algorithm throttles an uncongested permutation (every window starts at one BDP or
/// more and grows while delay stays at the base).
#[test]
fn delay_based_cc_does_not_throttle_an_uncongested_permutation() {
    for cc in ["swift", "mswift", "nscc"] {
        let cc = format!("host.cc={cc}");
        let r = run(&params(&[
            "topology.k=4",
            "switch.lb=ofan",
            &cc,
            "switch.ecn_kmin_bytes=100000",
            "switch.ecn_kmax_bytes=100000",
        ]));
        assert_eq!(r.flows_completed, r.flows_total);
        assert!(
            r.cct_inflation.unwrap() < 0.02,
            "{cc}: {:?}",
            r.cct_inflation
        );
    }
}

/// With small trimming buffers every flow completes under every algorithm: trimmed headers are
/// never dropped at a later hop, every NACK leads to a retransmission.
#[test]
fn every_cc_completes_an_8_sender_incast_with_trimming() {
    for cc in ["none", "dctcp", "swift", "mswift", "nscc"] {
        let cc = format!("host.cc={cc}");
        let r = run(&params(&[
            "topology.k=4",
            "switch.lb=ecmp",
            "workload.kind=incast",
            "workload.senders=8",
            "switch.buffer_bytes=200000",
            "switch.overflow=trim",
            "switch.ecn_kmin_bytes=50000",
            "switch.ecn_kmax_bytes=150000",
            &cc,
        ]));
        assert_eq!(r.flows_completed, r.flows_total, "{cc}");
        assert_eq!(r.drops, 0, "{cc}");
        assert!(r.trims > 0, "{cc}");
        assert_eq!(r.retransmits, r.trims, "{cc}");
    }
}

/// The watchdog: a timer far below the round trip (which the scenario layer refuses, so the
/// parameters are set directly) resends everything in flight before any ACK can return; the
/// run ends with a diagnosis instead of spinning.
#[test]
fn a_livelocked_run_is_stopped_with_a_diagnosis() {
    let mut p = params(&["topology.k=4", "switch.lb=ecmp", "host.rto_us=off"]);
    p.host.transport.rto = Some(Rto {
        initial: Time::from_ps(10),
        rule: RtoRule::Fixed,
        min: Time::from_ps(10),
        timer: RtoTimer::Progress,
    });
    let o = simulate(&p);
    let why = o.stalled.expect("the watchdog stops the run");
    assert!(
        why.contains("no progress") && why.contains("timeouts"),
        "{why}"
    );
    assert!(o.flows_completed < o.flows_total);
    // The report carries the diagnosis (and the JSON omits it for a healthy run).
    let r = run(&p);
    assert_eq!(r.stalled.as_deref(), Some(why.as_str()));
    assert!(r.cct_us.is_none());
    // A healthy run never trips it.
    let p = params(&["topology.k=4", "switch.lb=ecmp"]);
    assert!(simulate(&p).stalled.is_none());
}

/// Drop-tail with small buffers under DCTCP (k = 8, 4 MiB permutation, 40 KB buffers): every
/// flow completes and every drop is resent. A timeout that raced an ACK used to resend an
/// ACKed packet whose second ACK was ignored, so its bytes stayed "in flight" forever and
/// shut the window: one flow then retransmitted for ever (stopped by the watchdog).
#[test]
fn small_buffers_lose_packets_but_every_flow_completes() {
    let p = params(&[
        "topology.k=8",
        "switch.lb=ecmp",
        "switch.buffer_bytes=40000",
        "host.cc=dctcp",
        "switch.ecn_kmin_bytes=20000",
        "switch.ecn_kmax_bytes=20000",
        "workload.message_bytes=4194304",
    ]);
    let r = run(&p);
    assert!(r.stalled.is_none(), "{:?}", r.stalled);
    assert_eq!(r.flows_completed, r.flows_total);
    assert!(
        r.drops > 0 && r.retransmits >= r.drops,
        "{} drops, {} retransmits",
        r.drops,
        r.retransmits
    );
    assert!(r.cct_us.unwrap() >= r.lower_bound_us.unwrap());
}

/// `host.loss_recovery = "dupack"` repairs a hole once three later packets are ACKed, while
/// the flow goes on: on the lossy k = 8 permutation (1 MiB, 100 KB drop-tail buffers, DCTCP)
/// it needs fewer timeouts than timeouts alone, every drop is still resent, every flow ends.
#[test]
fn dupack_recovery_repairs_holes_without_waiting_for_the_timer() {
    let lossy = |lr: &str| {
        let p = params(&[
            "topology.k=8",
            "switch.lb=ecmp",
            "switch.buffer_bytes=100000",
            "host.cc=dctcp",
            "switch.ecn_kmin_bytes=30000",
            "switch.ecn_kmax_bytes=30000",
            &format!("host.loss_recovery={lr}"),
        ]);
        let o = simulate(&p);
        assert_eq!(o.flows_completed, o.flows_total, "{lr}");
        assert!(o.counters.retransmits >= o.counters.dropped, "{lr}");
        o.counters
    };
    let (rto, dupack) = (lossy("rto"), lossy("dupack"));
    assert_eq!(rto.fast_retransmits, 0);
    assert!(dupack.fast_retransmits > 0);
    assert!(
        dupack.timeouts * 2 < rto.timeouts,
        "timeouts: dupack {} vs rto {}",
        dupack.timeouts,
        rto.timeouts
    );
}

/// A TCP-like stack on small drop-tail buffers: Netbench's NewReno DCTCP (slow start from
/// 3 MSS, fast retransmit, RFC 6298 timer; window cap lifted) on a k = 8 permutation of
/// 4 MiB with 40 KB buffers. Every flow completes, every drop is resent, and holes are
/// repaired by fast retransmit while the flows go on: at most one timeout per run (a lost
/// tail), against over a hundred under fabsim's own stack on the same fabric.
#[test]
fn newreno_dctcp_repairs_drops_on_small_buffers_without_timeouts() {
    let lossy = |profile: &str| {
        let p = params(&[
            "topology.k=8",
            "switch.lb=ecmp",
            "host.lb=none",
            "host.cc=dctcp",
            "switch.overflow=drop",
            "switch.buffer_bytes=40000",
            "switch.ecn_kmin_bytes=20000",
            "switch.ecn_kmax_bytes=20000",
            "workload.message_bytes=4194304",
            &format!("host.profile=\"{profile}\""),
            "host.max_window_bytes=100000000",
        ]);
        let o = simulate(&p);
        assert_eq!(o.flows_completed, o.flows_total, "{profile}");
        assert!(o.counters.dropped > 0, "{profile}");
        assert!(o.counters.retransmits >= o.counters.dropped, "{profile}");
        o.counters
    };
    let (old, own, newreno) = (lossy("fabsim-rto"), lossy("fabsim"), lossy("netbench"));
    assert!(newreno.timeouts <= 1, "{} timeouts", newreno.timeouts);
    assert!(
        newreno.fast_retransmits >= newreno.dropped - newreno.timeouts,
        "{newreno:?}"
    );
    // Go-back-N after a fixed timer waits on timeouts; the default stack (RACK) mostly not.
    assert!(old.timeouts > 100, "{old:?}");
    assert!(own.timeouts * 4 < old.timeouts, "{own:?}");
}

/// Fastroute's Oversubscribed switch with 100 KB drop-tail buffers, 4 MB Stride flows: with
/// fast retransmit and the RFC 6298 timer no flow waits for a timeout, every drop is resent;
/// the fixed timer alone (`host.profile = "fabsim-rto"`) needs timeouts and finishes later.
#[test]
fn oversubscribed_fastroute_losses_are_repaired_by_fast_retransmit() {
    let run_with = |extra: &[&str]| {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../scenarios/fastroute-small.toml"
        );
        let mut s = Scenario::parse(&std::fs::read_to_string(path).unwrap(), path).unwrap();
        for a in [
            "switch.arch=\"oversubscribed\"",
            "switch.buffer_bytes=100000",
            "switch.overflow=\"drop\"",
            "workload.message_bytes=4000000",
            "run.duration_us=5000",
        ]
        .iter()
        .chain(extra)
        {
            s.set(a).unwrap();
        }
        let o = simulate(&s.expand().unwrap()[0].params);
        assert_eq!(o.flows_completed, o.flows_total, "{extra:?}");
        assert!(o.counters.dropped > 0, "{extra:?}");
        assert_eq!(o.counters.retransmits, o.counters.dropped, "{extra:?}");
        o
    };
    let fixed = run_with(&["host.profile=\"fabsim-rto\""]);
    let repaired = run_with(&["host.loss_recovery=\"dupack\"", "host.rto=\"rfc6298\""]);
    assert_eq!(repaired.counters.timeouts, 0);
    assert!(fixed.counters.timeouts > 0);
    let end = |o: &fabsim::sim::RunOutcome| o.fcts().flatten().max();
    assert!(end(&repaired) < end(&fixed));
}

/// `host.ack_every_bytes`: an ACK per 16,384 B (four 4,160 B packets) instead of one per
/// packet carries the same information: every flow completes with nothing resent, and the
/// fabric carries about a quarter of the ACKs.
#[test]
fn coalesced_acks_cover_every_packet_with_a_quarter_of_the_acks() {
    let with = |every: u32| {
        let p = params(&[
            "topology.k=4",
            "switch.lb=ecmp",
            "host.lb=rps",
            "host.cc=nscc",
            &format!("host.ack_every_bytes={every}"),
            // Longer than any round trip here: the timer only ends stalls.
            "host.ack_delay_us=50",
        ]);
        let o = simulate(&p);
        assert_eq!(o.flows_completed, o.flows_total, "{every}");
        assert_eq!(o.counters.retransmits, 0, "{every}");
        o.counters
    };
    let (each, coalesced) = (with(0), with(16_384));
    let data = each.created / 2;
    let acks = coalesced.created - data;
    assert!(
        acks * 10 < data * 4 && acks * 10 > data * 2,
        "{acks} ACKs for {data} data packets"
    );
}

/// `switch.ecn_at = "dequeue"`: without congestion control the marks do not change the
/// traffic, and for a FIFO whose queue starts and ends empty every arrival that finds `q`
/// packets is matched by a departure that leaves `q` behind (level crossings up and down
/// pair off), so a step threshold marks as many packets at dequeue as at enqueue; the two
/// differ only by the part of the packet in service an arrival also counts.
#[test]
fn dequeue_marking_marks_as_many_packets_as_enqueue_marking_without_cc() {
    for senders in ["workload.senders=2", "workload.senders=8"] {
        let marks = |at: &str| {
            run(&params(
                &[&INCAST[..], &["host.cc=none", senders, at]].concat(),
            ))
            .ecn_marks
        };
        let (enq, deq) = (
            marks("switch.ecn_at=enqueue"),
            marks("switch.ecn_at=dequeue"),
        );
        assert!(enq > 1_000, "{senders}: {enq} marks");
        assert!(
            (deq as f64 - enq as f64).abs() <= 0.002 * enq as f64,
            "{senders}: {enq} marks at enqueue, {deq} at dequeue"
        );
    }
}

/// Marking at dequeue tells the sender about the queue a queueing delay sooner than marking
/// on arrival: DCTCP's incast queue peaks lower.
#[test]
fn dequeue_marking_feeds_dctcp_back_sooner() {
    for senders in ["workload.senders=2", "workload.senders=8"] {
        let peak = |at: &str| {
            run(&params(
                &[&INCAST[..], &["host.cc=dctcp", senders, at]].concat(),
            ))
            .max_queue_bytes["edge-down"]
        };
        let (enq, deq) = (peak("switch.ecn_at=enqueue"), peak("switch.ecn_at=dequeue"));
        assert!(
            deq < enq,
            "{senders}: peak queue {enq} B at enqueue, {deq} at dequeue"
        );
    }
}

/// A coalescing receiver holds its ACK until more data comes; a sender whose window shrank
/// (NACKs, marks) below the packets in flight sends none. In this incast (32 x 256 KiB into
/// one host, htsim's stack, trimming, no retransmission timer) some flow ends up holding one
/// unrequested packet's ACK at each end: the delayed-ACK timer ends that stall, and a run
/// with neither timer is refused.
#[test]
fn the_delayed_ack_timer_ends_a_coalescing_stall() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../reference/htsim/incast128_32to1_256KiB.cm"
    );
    let base = [
        "host.profile=htsim",
        "host.rto_us=off",
        "topology.k=8",
        "link.rate_gbps=100",
        "packet.payload_bytes=4096",
        "packet.header_bytes=64",
        "switch.lb=ecmp",
        "switch.overflow=trim",
        "switch.buffer_bytes=178880",
        "switch.ecn_kmin_bytes=37440",
        "switch.ecn_kmax_bytes=145600",
        "host.lb=reps",
        "host.cc=nscc",
        "workload.kind=htsim",
    ];
    let mut s = Scenario::default_scenario();
    for a in base {
        s.set(a).unwrap();
    }
    s.set(&format!("workload.file=\"{file}\"")).unwrap();
    let err = s.expand().unwrap_err().to_string();
    assert!(
        err.contains("host.ack_every_bytes") && err.contains("host.ack_delay_us"),
        "{err}"
    );
    // With a 5 us timer every seed ends near the receiver link's 671 us; with a 100 ms one
    // some seed's stall shows.
    let ccts = |delay: &str| -> Vec<f64> {
        let mut s = s.clone();
        s.set(&format!("host.ack_delay_us={delay}")).unwrap();
        s.set("run.seeds=3").unwrap();
        s.expand()
            .unwrap()
            .iter()
            .map(|r| run(&r.params).cct_us.expect("every flow completes"))
            .collect()
    };
    let (short, long) = (ccts("5"), ccts("100000"));
    assert!(short.iter().all(|&c| c < 1_000.0), "{short:?}");
    assert!(long.iter().any(|&c| c > 100_000.0), "{long:?}");
}

/// htsim's UEC DCTCP (a third of each marked ACK's bytes off the window, capped at the
/// start): two senders into one host keep a fraction of the queue no CC builds, and the
/// link busy.
#[test]
fn htsim_dctcp_holds_the_incast_queue_down_and_the_link_busy() {
    let none = run(&params(&[&INCAST[..], &["host.cc=none"]].concat()));
    let r = run(&params(
        &[&INCAST[..], &["host.cc=dctcp", "host.dctcp_rules=htsim"]].concat(),
    ));
    assert!(r.ecn_marks > 0);
    assert!(
        r.max_queue_bytes["edge-down"] * 2 < none.max_queue_bytes["edge-down"],
        "{} vs {} B without CC",
        r.max_queue_bytes["edge-down"],
        none.max_queue_bytes["edge-down"]
    );
    let cct = r.cct_us.unwrap();
    assert!(
        cct < 1.15 * r.lower_bound_us.unwrap(),
        "{cct} vs {}",
        r.lower_bound_us.unwrap()
    );
}

/// A k = 8 permutation of 1 MiB messages into 100 KB drop-tail buffers under DCTCP, marking
/// at 30 KB, over `lb`.
fn drop_tail(lb: &str, extra: &[&str]) -> RunReport {
    let sets = [
        "topology.k=8",
        "workload.kind=permutation",
        "workload.message_bytes=1048576",
        "switch.overflow=drop",
        "switch.buffer_bytes=100000",
        "host.cc=dctcp",
        "switch.ecn_kmin_bytes=30000",
        "switch.ecn_kmax_bytes=30000",
    ];
    let lb = format!("switch.lb={lb}");
    run(&params(&[&sets[..], &[lb.as_str()], extra].concat()))
}

/// The default stack repairs drops while flows go on (RACK with the RFC 6298 timer behind
/// it): far sooner than the old stack's go-back-N after a fixed timer, which `fabsim-rto`
/// keeps; and where nothing is dropped it resends nothing, though spraying reorders.
#[test]
fn default_loss_recovery_repairs_drops_without_resending_reordered_packets() {
    let new = drop_tail("ecmp", &[]);
    let old = drop_tail("ecmp", &["host.profile=fabsim-rto"]);
    assert!(new.drops > 1000 && old.drops > 1000);
    assert_eq!(new.flows_completed, new.flows_total);
    assert!(
        new.timeouts * 2 < old.timeouts,
        "{} vs {}",
        new.timeouts,
        old.timeouts
    );
    let (n, o) = (new.cct_us.unwrap(), old.cct_us.unwrap());
    assert!(n < 0.6 * o, "{n} vs {o}");
    // Packet spraying in the same buffers drops nothing, and nothing is resent.
    let spray = drop_tail("ofan", &[]);
    assert_eq!(spray.drops, 0);
    assert!(spray.reordered > 0, "the test needs reordering");
    assert_eq!((spray.retransmits, spray.duplicates), (0, 0));
    // Duplicate ACKs in packets cannot tell reordering from loss: they resend in vain.
    let dupack = drop_tail("ofan", &["host.loss_recovery=dupack"]);
    assert!(dupack.duplicates > 100, "{}", dupack.duplicates);
}

/// htsim's timer (`host.rto_timer = "oldest"`) presumes one packet lost per expiry, so with
/// no other recovery every resend is a timeout; the progress timer resends all in flight.
#[test]
fn the_oldest_packet_timer_resends_one_packet_per_expiry() {
    let only_timer = ["host.loss_recovery=rto", "host.rto=fixed"];
    let oldest = drop_tail(
        "ecmp",
        &[&only_timer[..], &["host.rto_timer=oldest"]].concat(),
    );
    assert!(oldest.timeouts > 100);
    assert_eq!(oldest.retransmits, oldest.timeouts);
    assert_eq!(oldest.flows_completed, oldest.flows_total);
    let progress = drop_tail("ecmp", &only_timer);
    assert!(progress.retransmits > 2 * progress.timeouts);
}

/// `switch.ecn_default = "htsim"` marks from ceil(0.2 BDP) to ceil(0.8 BDP) packets, as
/// htsim_uec printed on its 128-host fat tree: 43 packets of 4,160 B at 100 Gb/s and 1 us
/// hops (37,440 / 145,600 B), 79 at 2 us hops (66,560 / 266,240 B), 151 at 400 Gb/s
/// (128,960 / 503,360 B); thresholds given by hand win.
#[test]
fn htsim_default_ecn_thresholds_follow_the_bdp() {
    let base = [
        "topology.k=8",
        "packet.payload_bytes=4096",
        "packet.header_bytes=64",
        "switch.ecn_default=htsim",
    ];
    for (extra, want) in [
        (
            ["link.rate_gbps=100", "link.delay_ns=1000"],
            (37_440, 145_600),
        ),
        (
            ["link.rate_gbps=100", "link.delay_ns=2000"],
            (66_560, 266_240),
        ),
        (
            ["link.rate_gbps=400", "link.delay_ns=1000"],
            (128_960, 503_360),
        ),
    ] {
        let p = params(&[&base[..], &extra[..]].concat());
        assert_eq!(p.switch.ecn, Some(want), "{extra:?}");
    }
    let given = params(
        &[
            &base[..],
            &["switch.ecn_kmin_bytes=1000", "switch.ecn_kmax_bytes=2000"],
        ]
        .concat(),
    );
    assert_eq!(given.switch.ecn, Some((1000, 2000)));
    assert_eq!(params(&["topology.k=8"]).switch.ecn, None);
}

/// An ECN-driven controller on a fabric that marks nothing runs, with a warning.
#[test]
fn ecn_control_without_marking_warns() {
    let quiet = run(&params(&["topology.k=4", "host.cc=dctcp"]));
    assert!(quiet.warnings.iter().any(|w| w.contains("never cuts")));
    let marked = run(&params(&[
        "topology.k=4",
        "host.cc=dctcp",
        "switch.ecn_default=htsim",
    ]));
    assert!(marked.warnings.is_empty());
}

/// A run whose events run out with flows unfinished says why: here drops with no timer to
/// resend them.
#[test]
fn a_run_that_cannot_finish_says_why() {
    let mut s = Scenario::default_scenario();
    for a in [
        "topology.k=4",
        "switch.lb=\"ecmp\"",
        "switch.overflow=\"drop\"",
        "switch.buffer_bytes=20000",
        "host.rto_us=\"off\"",
        "host.loss_recovery=\"rto\"",
        "workload.kind=\"incast\"",
        "workload.senders=8",
        "workload.message_bytes=1000000",
    ] {
        s.set(a).unwrap();
    }
    let r = run(&s.expand().unwrap()[0].params);
    assert!(r.cct_us.is_none());
    let why = r.stalled.expect("a reason");
    assert!(
        why.contains("no retransmission timer") && !why.contains("never started"),
        "{why}"
    );
    // The stalled flows are named by their index in the flow table, with their hosts.
    let named = why.split("(flows ").nth(1).expect("flows named");
    assert!(named.contains("->"), "{why}");
}

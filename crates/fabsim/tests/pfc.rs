//! Priority flow control (`switch.pfc`): lossless where the same buffer drops, frames that
//! alternate per link, a switch's buffer never overrun, and the combinations refused.

use fabsim::engine::Time;
use fabsim::params::SimParams;
use fabsim::scenario::Scenario;
use fabsim::sim::{simulate, RunOutcome};

fn params(sets: &[&str]) -> SimParams {
    let mut s = Scenario::default_scenario();
    for a in sets {
        s.set(a).unwrap();
    }
    s.expand()
        .unwrap_or_else(|e| panic!("{sets:?}: {e}"))
        .remove(0)
        .params
}

fn run(sets: &[&str]) -> RunOutcome {
    simulate(&params(sets))
}

/// A 16-to-1 incast on one switch (a leaf-spine of one leaf), 100 Gb/s links of 1 us: a
/// port's headroom is 3 x 100 Gb/s x 1 us = 37,500 B.
const INCAST: [&str; 11] = [
    "topology.tiers=2",
    "topology.leaves=1",
    "topology.uplinks=0",
    "topology.hosts_per_leaf=17",
    "link.rate_gbps=100",
    "link.delay_ns=1000",
    "switch.lb=ecmp",
    "host.cc=none",
    "workload.kind=incast",
    "workload.senders=16",
    "workload.message_bytes=262144",
];

/// The switch's buffer: 17 x (37,500 + 4,096) = 707,132 B of headrooms and reserves, and a
/// shared pool of 292,868 B.
const BUFFER: u64 = 1_000_000;

#[test]
fn pfc_makes_an_incast_lossless_where_the_same_buffer_drops() {
    let lossy = run(&[
        &INCAST[..],
        &["switch.buffer_bytes=300000", "host.rto_us=100"],
    ]
    .concat());
    assert!(
        lossy.counters.dropped > 0,
        "the incast must overflow a 300 KB port"
    );
    assert!(lossy.pfc.is_empty());
    let buffer = format!("switch.pfc_buffer_bytes={BUFFER}");
    let o = run(&[&INCAST[..], &["switch.pfc=true", &buffer]].concat());
    assert_eq!(o.stalled, None);
    assert_eq!(o.flows_completed, o.flows_total);
    assert_eq!(o.counters.dropped, 0);
    assert_eq!(o.counters.retransmits, 0);
    assert_eq!(o.counters.timeouts, 0);
    let pauses: u64 = o.pfc.iter().map(|p| p.pauses_sent).sum();
    assert!(pauses > 0, "the incast must pause its senders");
    // Every frame sent was received; every port resumed as often as it was paused (the
    // run drained), and a PAUSE reached a NIC only from its switch port.
    let (sent, received) = o.pfc.iter().fold((0, 0), |(s, r), p| {
        (
            s + p.pauses_sent + p.resumes_sent,
            r + p.pauses_received + p.resumes_received,
        )
    });
    assert_eq!(sent, received);
    assert_eq!(sent, o.counters.pfc_frames);
    let hosts = o.fabric.hosts as usize;
    for (g, p) in o.pfc.iter().enumerate() {
        assert_eq!(p.pauses_sent, p.resumes_sent, "port {g}");
        assert_eq!(p.pauses_received, p.resumes_received, "port {g}");
        if g >= hosts {
            // A switch port to a host: what it sends, the host's NIC receives.
            let host = o.fabric.port_to_node[g] as usize;
            assert_eq!(p.pauses_sent, o.pfc[host].pauses_received, "port {g}");
            assert_eq!(p.pauses_received, 0, "hosts never send PFC");
        } else {
            assert_eq!(p.pauses_sent, 0, "hosts never send PFC");
        }
    }
    // Paused NICs: each sender was paused for some time, the receiver never.
    let receiver = o.flows[0].dst as usize;
    assert_eq!(o.pfc[receiver].pauses_received, 0);
    assert!(
        o.pfc[..hosts]
            .iter()
            .filter(|p| p.paused_ps > Time::ZERO)
            .count()
            >= 16
    );
    // The switch's one congested port never held more than the switch's buffer.
    let most = o
        .ports
        .stats
        .iter()
        .map(|s| s.max_backlog_ps)
        .max()
        .unwrap();
    assert!(most.bytes_at(100_000_000_000) <= BUFFER, "{most:?}");
    // The report's per-port rows are the ports with any PFC count.
    let report = fabsim::metrics::run(&params(
        &[&INCAST[..], &["switch.pfc=true", &buffer]].concat(),
    ));
    let active = o
        .pfc
        .iter()
        .filter(|p| **p != fabsim::sim::PortPfc::default());
    assert_eq!(report.pfc_ports.len(), active.count());
    let total = report.pfc.expect("a PFC run reports PFC");
    assert_eq!(total.pauses_sent, pauses);
    assert_eq!(
        report.pfc_ports.iter().map(|p| p.pauses_sent).sum::<u64>(),
        pauses
    );
    // Without the buffer's pressure, no PAUSE at all.
    let roomy = run(&[&INCAST[..], &["switch.pfc=true"]].concat());
    assert_eq!(roomy.pfc.iter().map(|p| p.pauses_sent).sum::<u64>(), 0);
    assert_eq!(
        roomy.end_ps,
        run(&INCAST).end_ps,
        "PFC that never pauses changes nothing"
    );
}

/// Headroom exhausted: with a shared pool of 1,000 B and 100 ns links, a port's headroom
/// (3,750 B) is less than what is on its way while the PAUSE travels (a packet in service
/// at each end, the frame and 200 ns of wire): packets drop, and are counted as such.
#[test]
fn an_exhausted_headroom_drops_and_counts() {
    let short = [
        "switch.pfc=true",
        "packet.payload_bytes=1000",
        "host.rto_us=50",
    ];
    // 17 x (3,750 + 4,096) bytes of headrooms and reserves, and 1,000 more.
    let at_100ns = ["link.delay_ns=100", "switch.pfc_buffer_bytes=134382"];
    let o = run(&[&INCAST[..], &short, &at_100ns].concat());
    let headroom: u64 = o.pfc.iter().map(|p| p.headroom_drops).sum();
    assert!(headroom > 0);
    assert_eq!(headroom, o.counters.dropped);
    assert_eq!(o.flows_completed, o.flows_total, "retransmissions recover");
    // Twice the delay, twice the headroom: enough (17 x (7,500 + 4,096) + 1,000 bytes).
    let at_200ns = ["link.delay_ns=200", "switch.pfc_buffer_bytes=198132"];
    let o = run(&[&INCAST[..], &short, &at_200ns].concat());
    assert_eq!(o.counters.dropped, 0);
    assert!(o.pfc.iter().map(|p| p.pauses_sent).sum::<u64>() > 0);
}

#[test]
fn pfc_refuses_what_it_does_not_model() {
    for (set, key) in [
        ("switch.overflow=trim", "switch.overflow"),
        ("switch.buffer_bytes=100000", "switch.buffer_bytes"),
        ("switch.arch=sota", "switch.arch"),
        // 8 ports at 800 Gb/s, 500 ns: 8 x (150,000 + 4,096) bytes of headroom and reserve.
        ("switch.pfc_buffer_bytes=1232768", "switch.pfc_buffer_bytes"),
    ] {
        let mut s = Scenario::default_scenario();
        s.set("switch.pfc=true").unwrap();
        s.set(set).unwrap();
        let e = s
            .expand()
            .err()
            .unwrap_or_else(|| panic!("{set} accepted"))
            .to_string();
        assert!(e.contains(key) && e.contains("pfc"), "{set}: {e}");
    }
}

/// A 4 x 4 torus routed on shortest paths has cyclic buffer dependencies: with small
/// buffers a permutation deadlocks, and the run's end names the cycle of paused ports
/// (each holding packets that came in by the one before) instead of blaming lost packets;
/// with room enough it completes.
#[test]
fn a_pfc_deadlock_is_named() {
    let torus = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../scenarios/topologies/torus-4x4.toml"
    );
    let torus = format!("topology.file=\"{torus}\"");
    let base = [
        torus.as_str(),
        "switch.lb=ecmp",
        "switch.pfc=true",
        "workload.message_bytes=262144",
    ];
    let o = run(&[&base[..], &["switch.pfc_buffer_bytes=1300000"]].concat());
    let why = o.stalled.expect("the permutation deadlocks");
    assert!(why.starts_with("PFC deadlock: a cycle of "), "{why}");
    assert!(o.flows_completed < o.flows_total);
    let o = run(&[&base[..], &["switch.pfc_buffer_bytes=4000000"]].concat());
    assert_eq!(o.stalled, None);
    assert_eq!(o.flows_completed, o.flows_total);
    assert!(o.pfc.iter().map(|p| p.pauses_sent).sum::<u64>() > 0);
}

/// The trace shows each port's pause state per sample: paused samples only at ports that
/// were paused, some at every sender's NIC; the traced run is the untraced one.
#[test]
fn the_trace_shows_the_pause_state_per_sample() {
    let buffer = format!("switch.pfc_buffer_bytes={BUFFER}");
    let p = params(&[&INCAST[..], &["switch.pfc=true", &buffer]].concat());
    let traced = fabsim::sim::simulate_traced(&p, Some(Time::from_ps(1_000_000)), None);
    let plain = simulate(&p);
    assert_eq!(traced.counters, plain.counters);
    assert_eq!(traced.end_ps, plain.end_ps);
    assert_eq!(traced.pfc, plain.pfc);
    let paused: Vec<u32> = traced
        .trace
        .iter()
        .filter(|s| s.paused)
        .map(|s| s.port)
        .collect();
    assert!(!paused.is_empty());
    for &port in &paused {
        assert!(traced.pfc[port as usize].pauses_received > 0, "port {port}");
    }
    let senders = traced.flows.iter().map(|f| f.src);
    for src in senders {
        assert!(
            paused.contains(&src),
            "sender {src}'s NIC is never seen paused"
        );
    }
}

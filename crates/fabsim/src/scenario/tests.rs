//! Scenario parsing and validation: defaults, sweeps, derived parameters and errors.

use super::*;
use crate::engine::Time;
use crate::net::asic::{Controller, PortLayout};
use crate::net::TopologySpec;
use crate::transport::CcKind;
use portmap::Solver;

#[test]
fn default_scenario_expands_to_seven_schemes() {
    let runs = Scenario::default_scenario().expand().unwrap();
    assert_eq!(runs.len(), 7);
    assert_eq!(runs[6].params.switch.lb, SwitchLbKind::Ofan);
    assert_eq!(runs[0].params.topology, TopologySpec::FatTree { k: 12 });
    assert_eq!(runs[0].params.switch.buffer_bytes, None);
    assert_eq!(runs[0].params.switch.combining, None);
}

#[test]
fn combining_carries_the_pipeline_width() {
    let mut s = Scenario::default_scenario();
    s.set("switch.combining=true").unwrap();
    s.set("switch.pipeline_width=4").unwrap();
    assert_eq!(s.expand().unwrap()[0].params.switch.combining, Some(4));
}

#[test]
fn lists_sweep_the_cartesian_product_with_seeds() {
    let mut s = Scenario::parse("[switch]\nlb = [\"ecmp\", \"ofan\"]\n", "t.toml").unwrap();
    s.set("workload.message_bytes=[1000, 2000, 3000]").unwrap();
    s.set("run.seeds=2").unwrap();
    let runs = s.expand().unwrap();
    assert_eq!(runs.len(), 12);
    assert_eq!(runs[1].params.run.seed, 2);
    assert_eq!(runs[2].params.workload.message_bytes(), 2000);
    assert_eq!(runs[6].params.switch.lb, SwitchLbKind::Ofan);
    assert_eq!(runs[0].label.len(), 2);
}

#[test]
fn each_run_written_as_toml_expands_to_exactly_that_run() {
    let mut s = Scenario::parse(
        "[topology]\ntiers = 2\nk = [4, 6]\nuplinks = 2\n[link]\nrate_gbps = 10.5\ndelay_ns = [0.3, 7]\n",
        "t.toml",
    )
    .unwrap();
    s.set("switch.lb=ofan,ecmp").unwrap();
    s.set("switch.buffer_bytes=[\"unbounded\", 9000]").unwrap();
    s.set("run.seed=41").unwrap();
    s.set("run.seeds=3").unwrap();
    // A profile's values are part of the spec, not lost to the schema defaults.
    s.set("host.profile=[\"fabsim\", \"htsim\"]").unwrap();
    let runs = s.expand().unwrap();
    assert_eq!(runs.len(), 2 * 2 * 2 * 2 * 2 * 3);
    assert!(runs
        .iter()
        .any(|r| r.params.host.transport.ack_every_bytes == 16_384));
    for run in &runs {
        let text = run.to_toml().unwrap();
        let again = Scenario::parse(&text, "spec").unwrap().expand().unwrap();
        assert_eq!(again.len(), 1, "{text}");
        assert_eq!(again[0].params, run.params, "{text}");
        assert_eq!(again[0].to_toml().unwrap(), text);
    }
    assert_eq!(runs[2].params.run.seed, 43);

    // Issue 48, case 15: seeds past the largest a run spec holds were run and reported.
    let mut s = Scenario::default_scenario();
    s.set(&format!("run.seed={}", i64::MAX)).unwrap();
    s.set("run.seeds=2").unwrap();
    let e = s.expand().unwrap_err();
    assert_eq!(e.key, "run.seeds");
    assert!(
        e.to_string()
            .contains("invalid value 2; allowed: at most 1:"),
        "{e}"
    );
    s.set("run.seeds=1").unwrap();
    assert!(s.expand().unwrap()[0].to_toml().is_ok());
}

#[test]
fn cc_parameters_default_from_the_base_rtt_and_can_be_set() {
    let cc = |sets: &[&str]| {
        let mut s = Scenario::default_scenario();
        s.set("switch.lb=ofan").unwrap();
        for a in sets {
            s.set(a).unwrap();
        }
        s.expand().unwrap().remove(0).params.host.transport.cc
    };
    let d = cc(&["host.cc=mswift"]);
    assert_eq!(d.kind, CcKind::Mswift);
    assert_eq!(d.swift.margin_ps, d.base_rtt_ps / 4);
    assert_eq!(d.swift.ai_bytes, 4096.0, "1 MSS per RTT");
    assert_eq!(d.mswift_samples, 8);
    assert_eq!(d.nscc.target_ps, d.base_rtt_ps);
    assert_eq!(d.init_window_bytes, d.bdp_bytes * 3 / 2);
    assert_eq!(
        cc(&["switch.overflow=trim"]).nscc.target_ps,
        d.base_rtt_ps * 3 / 4
    );
    let set = cc(&[
        "host.swift_margin_ns=2",
        "host.nscc_target_ns=3000",
        "host.mswift_samples=64",
    ]);
    assert_eq!(set.swift.margin_ps, Time::from_ns(2));
    assert_eq!(set.nscc.target_ps, Time::from_us(3));
    assert_eq!(set.mswift_samples, 64);
    for bad in [
        "host.cc=cubic",
        "host.swift_max_mdf=1",
        "host.mswift_samples=65",
        "host.mswift_samples=0",
        "host.nscc_target_ns=0",
        "host.swift_beta=-1",
    ] {
        let mut s = Scenario::default_scenario();
        s.set(bad).unwrap();
        let key = bad.split('=').next().unwrap();
        assert_eq!(s.expand().unwrap_err().key, key, "{bad}");
    }
}

#[test]
fn multi_asic_port_speeds_and_errors() {
    let params = |sets: &[&str]| {
        let mut s = Scenario::default_scenario();
        s.set("switch.lb=ecmp").unwrap();
        for a in sets {
            s.set(a).unwrap();
        }
        s.expand().map(|mut r| r.remove(0).params)
    };
    // Fixed radix (Fastroute A.2): oversubscribed ports keep the ideal speed; State-of-the-
    // Art spends half of each ASIC on the non-blocking fabric: 800 * (1 + 1/2) / 2 = 600.
    let rate = |sets: &[&str]| params(sets).unwrap().link.rate_bps;
    assert_eq!(rate(&["switch.arch=oversubscribed"]), 800_000_000_000);
    assert_eq!(rate(&["switch.arch=sota"]), 600_000_000_000);
    assert_eq!(
        rate(&["switch.arch=sota", "switch.inter_asic_oversub=4"]),
        500_000_000_000
    );
    // An explicit ASIC capacity sets the ports of every multi-ASIC design: k = 12, 2 ASICs,
    // 6 ports per ASIC: 3.6 Tb/s / (6 * 1.5) = 400 Gb/s with 2:1 oversubscription.
    assert_eq!(
        rate(&["switch.arch=fastroute", "switch.asic_capacity_gbps=3600"]),
        400_000_000_000
    );
    let p = params(&["switch.arch=fastroute", "switch.solver=exact"]).unwrap();
    let c = p.arch.circuit.unwrap();
    assert_eq!(
        (c.interval_ps, c.compute_delay_ps, c.downtime_ps),
        (Time::from_us(100), Time::from_us(10), Time::from_us(1))
    );
    assert_eq!(c.solver, Solver::Exact);
    assert!(params(&["switch.arch=oversubscribed"])
        .unwrap()
        .arch
        .circuit
        .is_none());
    assert!(
        p.host.transport.rto.is_some(),
        "inter-ASIC buffers can drop"
    );
    // The RTO covers a full inter-ASIC buffer at every hop: 10x the buffer, a longer RTO.
    let big = params(&[
        "switch.arch=fastroute",
        "switch.inter_asic_buffer_bytes=3000000",
    ]);
    assert!(
        big.unwrap().host.transport.rto.map(|r| r.initial)
            > p.host.transport.rto.map(|r| r.initial)
    );
    assert_eq!(p.arch.buffer_per_100g, 300_000);
    // The single ASIC ignores the multi-ASIC keys: its runs are equal whatever they say, so
    // a sweep over them simulates Ideal once.
    let ideal = |sets: &[&str]| params(&[&["switch.arch=ideal"], sets].concat()).unwrap();
    assert_eq!(
        ideal(&["switch.asics=2", "switch.inter_asic_oversub=2"]),
        ideal(&[
            "switch.asics=4",
            "switch.inter_asic_oversub=1.5",
            "switch.inter_asic_buffer_bytes=50000",
            "switch.port_layout=interleaved",
            "switch.controller=frozen"
        ])
    );
    // The controller key is Fastroute's: other designs ignore it (equal runs).
    let over = |sets: &[&str]| params(&[&["switch.arch=oversubscribed"], sets].concat()).unwrap();
    assert_eq!(over(&[]), over(&["switch.controller=frozen"]));
    let layout = over(&["switch.port_layout=interleaved"]).arch.layout;
    assert_eq!(layout, PortLayout::Interleaved);
    assert_eq!(p.arch.layout, PortLayout::Blocks);
    assert_eq!(c.controller, Controller::Dynamic);
    // Interleaving splits bundles across ASICs: refused, naming the layout.
    let e = params(&[
        "switch.arch=fastroute",
        "switch.port_layout=interleaved",
        "switch.bundle=2",
    ])
    .unwrap_err();
    assert_eq!(e.key, "switch.bundle", "{e}");
    assert!(e.to_string().contains("interleaved"), "{e}");
    // Without a circuit layer there are no bundles: accepted.
    over(&["switch.port_layout=interleaved", "switch.bundle=2"]);
    // A.2: the same ASICs with 800 Gb/s ports give State-of-the-Art 3/4 of the radix
    // (k = 12 -> 9, rounded down to a multiple of 2 x asics = 8).
    let v = params(&["switch.arch=sota", "switch.host_count=variable"]).unwrap();
    assert_eq!(
        (v.topology, v.link.rate_bps),
        (TopologySpec::FatTree { k: 8 }, 800_000_000_000)
    );
    let v = params(&["switch.arch=fastroute", "switch.host_count=variable"]).unwrap();
    assert_eq!(v.topology, TopologySpec::FatTree { k: 12 });
    for (bad, key) in [
        ("switch.arch=chiplet", "switch.arch"),
        ("switch.asics=5", "switch.asics"),
        ("switch.asics=1", "switch.asics"),
        ("switch.inter_asic_oversub=0.5", "switch.inter_asic_oversub"),
        ("switch.compute_delay_us=100", "switch.compute_delay_us"),
        ("switch.solver=hungarian", "switch.solver"),
        ("switch.circuit_mode=magic", "switch.circuit_mode"),
        ("switch.port_layout=random", "switch.port_layout"),
        ("switch.controller=static", "switch.controller"),
        ("workload.kind=web", "run.duration_us"),
        ("workload.intra_rack=2", "workload.intra_rack"),
        ("switch.bundle=4", "switch.bundle"),
        ("switch.circuit_switches=5", "switch.circuit_switches"),
        ("switch.host_count=some", "switch.host_count"),
        (
            "switch.inter_asic_buffer_bytes=0",
            "switch.inter_asic_buffer_bytes",
        ),
    ] {
        let sets = ["switch.arch=fastroute", "workload.kind=stride", bad];
        let e = params(&sets).unwrap_err();
        assert_eq!(e.key, key, "{bad}: {e}");
        let value = bad.split('=').nth(1).unwrap();
        assert!(
            key == "run.duration_us" || e.to_string().contains(value),
            "{e}"
        );
    }
}

#[test]
fn set_accepts_bare_words_and_comma_lists() {
    let mut s = Scenario::default_scenario();
    s.set("switch.lb=ofan,pofan").unwrap();
    s.set("switch.buffer_bytes=unbounded").unwrap();
    assert_eq!(s.expand().unwrap().len(), 2);
}

#[test]
fn errors_name_source_key_value_and_allowed() {
    let e = Scenario::parse("[topology]\nk = 7\n", "a.toml")
        .unwrap()
        .expand()
        .unwrap_err();
    assert_eq!(
        (e.source.as_str(), e.key.as_str()),
        ("a.toml", "topology.k")
    );
    assert!(
        e.to_string().contains("7") && e.to_string().contains("even"),
        "{e}"
    );

    let e = Scenario::parse("[topology]\nkk = 4\n", "a.toml").unwrap_err();
    assert!(
        e.to_string().contains("topology.kk")
            && e.to_string().contains("did you mean `topology.k`?"),
        "{e}"
    );

    let mut s = Scenario::default_scenario();
    let e = s
        .set("switch.lb=magic")
        .and_then(|_| s.expand().map(|_| ()))
        .unwrap_err();
    assert!(
        e.to_string().contains("magic") && e.to_string().contains("ofan"),
        "{e}"
    );

    let mut s = Scenario::default_scenario();
    s.set("workload.message_bytes=-5").unwrap();
    assert!(s.expand().unwrap_err().to_string().contains("-5"));

    for bad in [
        "switch.combining=yes",
        "switch.pipeline_width=0",
        "switch.pipeline_width=5000",
    ] {
        let mut s = Scenario::default_scenario();
        s.set(bad).unwrap();
        let e = s.expand().unwrap_err().to_string();
        assert!(e.contains(bad.split('=').nth(1).unwrap()), "{e}");
    }

    assert!(Scenario::parse("[link\nrate = 1", "b.toml")
        .unwrap_err()
        .to_string()
        .contains("malformed"));
}

/// Issue reproducers: each bad value ends in an error naming the key (and `--set`), before
/// anything is simulated or allocated.
#[test]
fn out_of_range_values_are_refused_up_front() {
    for (sets, key) in [
        (
            &["workload.message_bytes=17592186044416"][..],
            "workload.message_bytes",
        ),
        (&["link.rate_gbps=1e-12"], "link.rate_gbps"),
        (
            &["switch.arch=sota", "switch.util_sample_us=1e-9"],
            "switch.util_sample_us",
        ),
        (
            &["topology.tiers=2", "topology.uplinks=4294967296"],
            "topology.uplinks",
        ),
        (&["switch.buffer_bytes=4159"], "switch.buffer_bytes"),
        (&["host.rto_us=2"], "host.rto_us"),
        (
            &[
                "switch.arch=oversubscribed",
                "switch.inter_asic_oversub=1e308",
            ],
            "switch.inter_asic_oversub",
        ),
        (&["link.delay_ns=1e300"], "link.delay_ns"),
        (&["packet.header_bytes=4294967295"], "packet.header_bytes"),
        (&["packet.payload_bytes=2147483648"], "packet.payload_bytes"),
        (&["host.swift_margin_ns=1e300"], "host.swift_margin_ns"),
        (&["workload.balance=conga"], "workload.balance"),
        (&["workload.load=-1"], "workload.load"),
        (&["workload.model=gpt5"], "workload.model"),
        (&["workload.file=/nonexistent.tm"], "workload.file"),
        (&["workload.senders=-1"], "workload.senders"),
        (
            &["workload.kind=moe", "workload.experts_per_host=100000000"],
            "workload.experts_per_host",
        ),
        (&["workload.shuffle_k=1000000"], "workload.shuffle_k"),
        (
            &["switch.arch=sota", "switch.asic_capacity_gbps=1e-9"],
            "switch.asic_capacity_gbps",
        ),
        (&["topology.k=1000"], "topology.k"),
        (
            &["topology.tiers=2", "topology.leaves=1000000000"],
            "topology.leaves",
        ),
        (&["run.seeds=1000000000"], "run.seeds"),
        (
            &["topology.k=64", "workload.kind=all-to-all"],
            "run.max_memory_gib",
        ),
        (
            &["topology.k=4", "workload.message_bytes=1099511627776"],
            "run.max_packet_hops",
        ),
        (
            &[
                "packet.payload_bytes=1",
                "workload.message_bytes=8589934592",
            ],
            "workload.message_bytes",
        ),
    ] {
        let mut s = Scenario::default_scenario();
        s.set("switch.lb=ofan").unwrap();
        for a in sets {
            s.set(a).unwrap();
        }
        let e = s.expand().unwrap_err();
        assert_eq!(e.key, key, "{sets:?}: {e}");
    }
}

#[test]
fn errors_blame_the_source_of_the_value() {
    let mut s = Scenario::parse("[topology]\nk = 4\n", "bound-k4.toml").unwrap();
    s.set("topology.k=3").unwrap();
    let e = s.expand().unwrap_err();
    assert_eq!((e.source.as_str(), e.key.as_str()), ("--set", "topology.k"));
    let e = Scenario::parse("[topology]\nk = 3\n", "a.toml")
        .unwrap()
        .expand()
        .unwrap_err();
    assert_eq!(e.source, "a.toml");
    // A value that is only wrong given another key blames the key whose value it is.
    let mut s = Scenario::parse("[switch]\nbuffer_bytes = 5000\n", "b.toml").unwrap();
    s.set("packet.payload_bytes=8192").unwrap();
    let e = s.expand().unwrap_err();
    assert_eq!(
        (e.source.as_str(), e.key.as_str()),
        ("b.toml", "switch.buffer_bytes")
    );
    let e = Scenario::parse("[swich]\nlb = \"ofan\"\n", "c.toml").unwrap_err();
    assert!(e.to_string().contains("did you mean"), "{e}");
}

#[test]
fn the_cost_estimate_counts_what_the_run_allocates() {
    let mut s = Scenario::default_scenario();
    s.set("switch.lb=ofan").unwrap();
    let p = s.expand().unwrap().remove(0).params;
    let e = p.estimate();
    // 432 hosts, one 1 MiB message each: 256 packets per flow (plus one for rounding).
    assert_eq!(e.flows, 432);
    assert_eq!(e.max_flow_packets, 256);
    assert_eq!(e.packets, 432 * 257);
    assert_eq!(e.packet_hops, e.packets * 12);
    // A raised limit lets a large run through.
    let mut s = Scenario::default_scenario();
    s.set("topology.k=4").unwrap();
    s.set("workload.message_bytes=1099511627776").unwrap();
    s.set("run.max_packet_hops=1e15").unwrap();
    assert!(s.expand().is_ok());
}

/// `host.planes`: striping multiplies the flows by the planes (one plane: no change), an
/// unknown scheme is refused naming the allowed ones, and an htsim trigger that fires on
/// some of its connections cannot count striped ones.
#[test]
fn striping_over_planes_is_checked_and_estimated() {
    let expand = |sets: &[&str]| {
        let mut s = Scenario::default_scenario();
        for a in ["topology.k=4", "switch.lb=ofan"].iter().chain(sets) {
            s.set(a).unwrap();
        }
        s.expand().map(|v| v[0].params.clone())
    };
    let flows = |sets: &[&str]| expand(sets).unwrap().estimate().flows;
    assert_eq!(flows(&["host.planes=stripe"]), 16);
    assert_eq!(flows(&["topology.planes=2", "host.planes=hash"]), 16);
    assert_eq!(flows(&["topology.planes=2", "host.planes=stripe"]), 32);
    let p = expand(&["topology.planes=2", "host.planes=stripe"]).unwrap();
    assert_eq!(p.traffic().flows.len(), 32);
    let e = expand(&["host.planes=spray"]).unwrap_err().to_string();
    assert!(
        e.contains("host.planes") && e.contains("spray") && e.contains("one of hash, stripe"),
        "{e}"
    );
    let dir = std::env::temp_dir().join(format!("fabsim-planes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("first-of-two.tm");
    std::fs::write(
        &file,
        "Nodes 4\n0->1 id 1 start 0 size 8 send_done_trigger 3\n\
         1->2 id 2 start 0 size 8 recv_done_trigger 3\n2->3 id 3 trigger 3 size 8\n\
         trigger id 3 oneshot\n",
    )
    .unwrap();
    let htsim = format!("workload.file=\"{}\"", file.display());
    let with =
        |planes: &str, scheme: &str| expand(&["workload.kind=htsim", &htsim, planes, scheme]);
    let e = with("topology.planes=2", "host.planes=stripe")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("host.planes") && e.contains("trigger 3 fires on 1 of the 2 signals"),
        "{e}"
    );
    assert!(with("topology.planes=2", "host.planes=hash").is_ok());
    assert!(with("topology.planes=1", "host.planes=stripe").is_ok());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn every_profile_value_passes_its_keys_check() {
    for p in Profile::ALL {
        for (k, v) in p.settings() {
            assert!(
                k.check(&parse_value(v)).is_ok(),
                "{} sets {} = {v}",
                p.name(),
                k.name
            );
        }
    }
}

#[test]
fn a_profile_sets_the_keys_left_unset_and_given_keys_win() {
    let mut s = Scenario::default_scenario();
    s.set("switch.lb=ecmp").unwrap();
    s.set("host.profile=\"netbench\"").unwrap();
    s.set("host.init_window_bytes=9000").unwrap();
    let p = &s.expand().unwrap()[0].params;
    assert!(p.host.transport.handshake);
    assert_eq!(
        p.host.transport.loss_recovery,
        crate::transport::LossRecovery::Dupack
    );
    let rto = p.host.transport.rto.expect("netbench sets an RTO");
    assert_eq!(rto.initial, Time::from_us(300));
    assert_eq!(rto.rule, crate::transport::RtoRule::Rfc6298);
    assert_eq!(
        p.host.transport.cc.init_window_bytes, 9000,
        "the given key wins"
    );
    assert_eq!(p.host.transport.cc.dctcp.max_window_bytes, Some(65_535));
    // Netbench's windows are in segments of its MSS: here the scenario's payload.
    assert_eq!(
        p.host.transport.cc.dctcp.ssthresh_bytes,
        Some(30 * p.host.transport.cc.mss_bytes)
    );
    let mut s = Scenario::default_scenario();
    s.set("host.profile=\"netbench\"").unwrap();
    s.set("packet.payload_bytes=1380").unwrap();
    let p = &s.expand().unwrap()[0].params;
    assert_eq!(
        p.host.transport.cc.init_window_bytes, 4140,
        "3 MSS of 1,380 B"
    );
    // A bad value the profile brings in is blamed on the profile.
    let mut s = Scenario::default_scenario();
    s.set("host.profile=\"netbench\"").unwrap();
    s.set("link.rate_gbps=0.001").unwrap();
    s.set("topology.k=4").unwrap();
    let e = s.expand().unwrap_err().to_string();
    assert!(
        e.contains("host.profile \"netbench\"") && e.contains("host.rto_us"),
        "{e}"
    );
    // htsim: coalesced ACKs and 64 labels; the default profile changes nothing.
    let mut s = Scenario::default_scenario();
    s.set("host.profile=\"htsim\"").unwrap();
    let p = &s.expand().unwrap()[0].params;
    assert_eq!(
        (p.host.transport.ack_every_bytes, p.host.path_labels),
        (16_384, 64)
    );
    let p = &Scenario::default_scenario().expand().unwrap()[0].params;
    assert_eq!(
        (
            p.host.transport.ack_every_bytes,
            p.host.path_labels,
            p.host.transport.handshake
        ),
        (0, 0, false)
    );
}

#[test]
fn fct_buckets_are_one_list_and_a_list_of_lists_sweeps() {
    let buckets = |set: &str| -> Result<Vec<Vec<u64>>, ScenarioError> {
        let mut s = Scenario::default_scenario();
        s.set("switch.lb=ofan").unwrap();
        s.set(set)?;
        Ok(s.expand()?
            .into_iter()
            .map(|r| r.params.run.fct_buckets)
            .collect())
    };
    assert_eq!(
        buckets("run.seeds=1").unwrap(),
        [vec![10_000, 100_000, 1_000_000]]
    );
    assert_eq!(
        buckets("run.fct_buckets=[1000, 5000]").unwrap(),
        [vec![1000, 5000]]
    );
    assert_eq!(
        buckets("run.fct_buckets=1000,5000").unwrap(),
        [vec![1000, 5000]]
    );
    assert_eq!(
        buckets("run.fct_buckets=[[1000], [2000, 3000]]").unwrap(),
        [vec![1000], vec![2000, 3000]]
    );
    for bad in ["[5000, 1000]", "[0]", "\"big\"", "[1.5]", "[[]]"] {
        let e = buckets(&format!("run.fct_buckets={bad}")).unwrap_err();
        assert_eq!(e.key, "run.fct_buckets", "{bad}");
        assert!(e.message.contains("ascending integers"), "{bad}: {e}");
    }
    // A run spec written as TOML keeps the list as one value.
    let mut s = Scenario::default_scenario();
    s.set("run.fct_buckets=[1000, 5000]").unwrap();
    let toml = s.expand().unwrap()[0].to_toml().unwrap();
    let again = Scenario::parse(&toml, "spec.toml")
        .unwrap()
        .expand()
        .unwrap();
    assert_eq!(again[0].params.run.fct_buckets, [1000, 5000]);
}

#[test]
fn cdf_files_are_found_beside_the_scenario_and_errors_name_file_and_line() {
    let dir = std::env::temp_dir().join(format!("fabsim-cdf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("sizes.csv"), "1000,0\n2000,0.5\n3000,1\n").unwrap();
    std::fs::write(dir.join("bad.txt"), "1000 10\n2000 50\n1500 100\n").unwrap();
    let scenario = dir.join("s.toml");
    let text = "[topology]\ntiers = 2\nk = 4\n[workload]\nkind = \"hadoop\"\ncdf = \"sizes.csv\"\n[run]\nduration_us = 100\n";
    let runs = Scenario::parse(text, scenario.to_str().unwrap())
        .unwrap()
        .expand()
        .unwrap();
    let WorkloadSpec::Fastroute(w) = &runs[0].params.workload else {
        panic!("hadoop is a Fastroute workload");
    };
    assert_eq!(w.sizes().mean(), 2000.0);
    assert_eq!(w.intra_rack, 0.14, "the kind keeps its intra-rack default");
    // A run spec names the file by its absolute path; a shipped name stays a name.
    let spec = runs[0].to_toml().unwrap();
    let abs = std::fs::canonicalize(dir.join("sizes.csv")).unwrap();
    assert!(
        spec.contains(&format!("cdf = {:?}", abs.display().to_string())),
        "{spec}"
    );
    let again = Scenario::parse(&spec, "elsewhere/spec.toml")
        .unwrap()
        .expand()
        .unwrap();
    assert_eq!(again[0].params, runs[0].params);
    let mut s = Scenario::parse(text, scenario.to_str().unwrap()).unwrap();
    s.set("workload.cdf=websearch").unwrap();
    assert!(s.expand().unwrap()[0]
        .to_toml()
        .unwrap()
        .contains("cdf = \"websearch\""));
    // Errors: the file, the line and what was expected; unknown names get a suggestion.
    for (value, words) in [
        (
            "bad.txt",
            &["`workload.cdf`", "bad.txt: line 3", "ascending sizes"][..],
        ),
        (
            "datamning",
            &["datamning", "allowed: a path or one of", "`datamining`"][..],
        ),
    ] {
        let mut s = Scenario::parse(text, scenario.to_str().unwrap()).unwrap();
        s.set(&format!("workload.cdf={value}")).unwrap();
        let e = s.expand().unwrap_err().to_string();
        assert!(words.iter().all(|w| e.contains(w)), "{e}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn phased_flows_are_sized_by_their_period() {
    let bytes = |sets: &[&str]| {
        let mut s = Scenario::default_scenario();
        for a in ["topology.k=4", "link.rate_gbps=100", "run.duration_us=1000"]
            .iter()
            .chain(sets)
        {
            s.set(a).unwrap();
        }
        s.expand().unwrap()[0].params.workload.message_bytes()
    };
    // Fast: a phase at line rate by default (100 us at 100 Gb/s), or the given fraction.
    assert_eq!(bytes(&["workload.kind=\"fast\""]), 1_250_000);
    assert_eq!(
        bytes(&["workload.kind=\"fast\"", "workload.phase_fill=0.25"]),
        312_500
    );
    // Ring: its 0.5 ms regrouping period, over message_bytes when both are given.
    assert_eq!(
        bytes(&[
            "workload.kind=\"ring\"",
            "workload.message_bytes=1000",
            "workload.phase_fill=0.5"
        ]),
        3_125_000
    );
    assert_eq!(
        bytes(&["workload.kind=\"ring\"", "workload.message_bytes=1000"]),
        1000
    );
}

#[test]
fn a_single_switch_has_one_leaf_and_no_uplinks() {
    let with = |sets: &[&str]| {
        let mut s = Scenario::default_scenario();
        s.set("topology.tiers=2").unwrap();
        for a in sets {
            s.set(a).unwrap();
        }
        s.expand().map(|v| v[0].params.topology.clone())
    };
    let one = with(&[
        "topology.leaves=1",
        "topology.hosts_per_leaf=8",
        "topology.uplinks=0",
    ])
    .expect("a single switch");
    assert_eq!(one.hosts(), 8);
    assert_eq!(one.longest_path_hops(), 2);
    for bad in [
        &["topology.leaves=1", "topology.uplinks=2"][..],
        &["topology.leaves=4", "topology.uplinks=0"][..],
    ] {
        let e = with(bad).unwrap_err().to_string();
        assert!(e.contains("topology.uplinks"), "{e}");
    }
}

#[test]
fn numbers_of_the_wrong_type_and_missing_keys_are_named() {
    let err = |a: &str| {
        let mut s = Scenario::default_scenario();
        match s.set(a) {
            Err(e) => e.to_string(),
            Ok(()) => s.expand().map(|_| ()).unwrap_err().to_string(),
        }
    };
    let e = err("topology.k=4.0");
    assert!(e.contains("4.0 (a float: write an integer"), "{e}");
    let e = err("switch.buffer_bytes=1e6");
    assert!(e.contains("1000000.0 (a float"), "{e}");
    let e = err("topology.k=\"4\"");
    assert!(
        e.contains("(a string: write the number without quotes)"),
        "{e}"
    );
    let e = err("=4");
    assert!(e.contains("no key before `=`"), "{e}");
}

#[test]
fn a_web_flow_too_large_is_blamed_on_its_size_distribution() {
    let path = std::env::temp_dir().join(format!("fabsim-huge-{}.cdf", std::process::id()));
    std::fs::write(&path, "1e15 0.5\n2e15 1\n").unwrap();
    let mut s = Scenario::default_scenario();
    for a in [
        "topology.tiers=2".to_string(),
        "topology.k=4".into(),
        "workload.kind=\"web\"".into(),
        format!("workload.cdf={:?}", path.display().to_string()),
        "run.duration_us=10".into(),
    ] {
        s.set(&a).unwrap();
    }
    let e = s.expand().map(|_| ()).unwrap_err().to_string();
    let _ = std::fs::remove_file(&path);
    assert!(
        e.contains("workload.cdf") && e.contains("2^32 - 1 packets"),
        "{e}"
    );
}

/// A run spec names an input file by its absolute path even where its run does not read the
/// key (every value is checked when the spec is loaded elsewhere): found by the sweep fuzzer,
/// an htsim scenario swept over other workloads wrote `htsim-ring.tm` relative and its runs
/// failed in the sweep directory.
#[test]
fn run_specs_name_unread_input_files_by_absolute_path() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/htsim.toml");
    let text = std::fs::read_to_string(path).unwrap();
    let mut s = Scenario::parse(&text, path).unwrap();
    s.set("workload.kind=ring,htsim").unwrap();
    for run in s.expand().unwrap() {
        let spec = run.to_toml().unwrap();
        let file: toml::Table = toml::from_str(&spec).unwrap();
        let file = file["workload"]["file"].as_str().unwrap().to_string();
        assert!(std::path::Path::new(&file).is_absolute(), "{file}");
        // The spec loads from anywhere.
        Scenario::parse(&spec, "/elsewhere/spec.toml")
            .and_then(|s| s.expand())
            .unwrap();
    }
}

/// Issue 48, case 2: a stride that is a multiple of the host count sends every flow to its
/// own source (given, or the default hosts per rack on a single switch); shuffle peers that
/// come back to the sender or repeat are refused like it (shuffle drops a self-pair, but a
/// stride of a multiple leaves it no flow).
#[test]
fn stride_to_itself_is_refused() {
    let expand = |sets: &[&str]| {
        let mut s = Scenario::default_scenario();
        s.set("switch.lb=ecmp").unwrap();
        for a in sets {
            s.set(a).unwrap();
        }
        s.expand().map(|v| v[0].params.workload.clone())
    };
    let one_switch = [
        "topology.tiers=2",
        "topology.leaves=1",
        "topology.hosts_per_leaf=16",
        "topology.uplinks=0",
    ];
    for (sets, says) in [
        (
            &["topology.k=4", "workload.kind=stride", "workload.stride=16"][..],
            "invalid value 16; allowed: an integer from 1 to 2^20 that is not a multiple of the fabric's 16 hosts",
        ),
        (
            &["topology.k=4", "workload.kind=shuffle", "workload.stride=32"],
            "invalid value 32",
        ),
        (
            &[&one_switch[..], &["workload.kind=stride"]].concat(),
            "the default, hosts per rack (16), is a multiple of the fabric's 16 hosts",
        ),
        (
            &[&one_switch[..], &["workload.kind=shuffle"]].concat(),
            "every shuffle flow would go from a host to itself",
        ),
    ] {
        let e = expand(sets).unwrap_err();
        assert_eq!(e.key, "workload.stride", "{sets:?}: {e}");
        assert!(e.to_string().contains(says), "{sets:?}: {e}");
    }
    // Any other stride sends to another host, and a single switch takes a given one.
    for sets in [
        &["topology.k=4", "workload.kind=stride", "workload.stride=17"][..],
        &[
            &one_switch[..],
            &["workload.kind=stride", "workload.stride=3"],
        ]
        .concat(),
    ] {
        let w = expand(sets).unwrap_or_else(|e| panic!("{sets:?}: {e}"));
        assert!(w.flows(16, 1).iter().all(|f| f.src != f.dst), "{sets:?}");
    }
}

/// Issue 48, case 5: incast senders and shuffle peers beyond the fabric's other hosts are
/// refused (they were cut to 15 flows, or repeated peers), naming the maximum.
#[test]
fn counts_beyond_the_fabric_are_refused() {
    let expand = |sets: &[&str]| {
        let mut s = Scenario::default_scenario();
        for a in ["topology.k=4", "switch.lb=ecmp"].iter().chain(sets) {
            s.set(a).unwrap();
        }
        s.expand().map(|v| v[0].params.workload.clone())
    };
    for (sets, key, says) in [
        (
            &["workload.kind=incast", "workload.senders=1000"][..],
            "workload.senders",
            "invalid value 1000; allowed: at most 15",
        ),
        (
            &["workload.kind=incast", "workload.senders=16"],
            "workload.senders",
            "at most 15",
        ),
        (
            &[
                "workload.kind=shuffle",
                "workload.stride=1",
                "workload.shuffle_k=100",
            ],
            "workload.shuffle_k",
            "invalid value 100; allowed: at most 15",
        ),
        // The default stride, 2 hosts per rack, returns to the sender after 8 peers.
        (
            &["workload.kind=shuffle", "workload.shuffle_k=8"],
            "workload.shuffle_k",
            "at most 7",
        ),
    ] {
        let e = expand(sets).unwrap_err();
        assert_eq!(e.key, key, "{sets:?}: {e}");
        assert!(e.to_string().contains(says), "{sets:?}: {e}");
    }
    // At the maximum: every host sends to distinct peers other than itself.
    for (sets, flows) in [
        (&["workload.kind=incast", "workload.senders=15"][..], 15),
        (
            &[
                "workload.kind=shuffle",
                "workload.stride=1",
                "workload.shuffle_k=15",
            ],
            16 * 15,
        ),
        (&["workload.kind=shuffle", "workload.shuffle_k=7"], 16 * 7),
    ] {
        let w = expand(sets).unwrap_or_else(|e| panic!("{sets:?}: {e}"));
        let mut pairs: Vec<(u32, u32)> = w.flows(16, 1).iter().map(|f| (f.src, f.dst)).collect();
        assert!(pairs.iter().all(|p| p.0 != p.1), "{sets:?}");
        pairs.sort();
        pairs.dedup();
        assert_eq!(pairs.len(), flows, "{sets:?}");
    }
}

/// Issue 48, case 18: a fabric of one host (one leaf of one host) panicked in the
/// permutation's derangement, and web's draw; every workload needs a peer, so the topology
/// is refused before any workload is built.
#[test]
fn a_one_host_fabric_is_refused() {
    for kind in [
        "permutation",
        "web",
        "stride",
        "incast",
        "all-gather",
        "moe",
    ] {
        let mut s = Scenario::default_scenario();
        for a in [
            "topology.tiers=2",
            "topology.leaves=1",
            "topology.hosts_per_leaf=1",
            "topology.uplinks=0",
            "switch.lb=ecmp",
            "run.duration_us=100",
            &format!("workload.kind={kind}"),
        ] {
            s.set(a).unwrap();
        }
        let e = s.expand().unwrap_err();
        assert_eq!(e.key, "topology.hosts_per_leaf", "{kind}: {e}");
        assert!(e.to_string().contains("at least 2 hosts"), "{kind}: {e}");
    }
}

/// Issue 48, case 3: a count of failed links above what can fail without cutting edge
/// switches apart (20 of 32 at k = 4) is refused, naming that number; and (case 15) a link
/// named twice.
#[test]
fn failure_count_above_what_can_fail_is_refused() {
    let expand = |sets: &[&str]| {
        let mut s = Scenario::default_scenario();
        for a in ["topology.k=4", "switch.lb=ecmp"].iter().chain(sets) {
            s.set(a).unwrap();
        }
        s.expand()
    };
    for n in [21, 25, 32] {
        let e = expand(&[&format!("failures.links={n}")]).unwrap_err();
        assert_eq!(e.key, "failures.links");
        let says = format!("invalid value {n}; allowed: at most 20: of the fabric's 32");
        assert!(e.to_string().contains(&says), "{e}");
    }
    // 20 can fail, and every seed's draw reaches them.
    let runs = expand(&["failures.links=20", "run.seeds=20"]).unwrap();
    for r in &runs {
        let f = crate::net::Fabric::new(&r.params.topology, 1, Time::from_ps(1));
        let spec = r.params.failures.as_ref().unwrap();
        let fs = crate::net::Failures::new(&f, spec, r.params.run.seed).unwrap();
        assert_eq!(fs.names.len(), 20, "seed {}", r.params.run.seed);
    }
    // k = 6: 108 links, 18 edges' uplinks and 6 pods' to one core stay up.
    let mut s = Scenario::default_scenario();
    for a in ["topology.k=6", "switch.lb=ecmp", "failures.links=84,85"] {
        s.set(a).unwrap();
    }
    assert!(s.expand().unwrap_err().to_string().contains("at most 84"));
    s.set("failures.links=84").unwrap();
    s.set("run.seeds=5").unwrap();
    for r in s.expand().unwrap() {
        let f = crate::net::Fabric::new(&r.params.topology, 1, Time::from_ps(1));
        let spec = r.params.failures.as_ref().unwrap();
        let fs = crate::net::Failures::new(&f, spec, r.params.run.seed).unwrap();
        assert_eq!(fs.names.len(), 84, "seed {}", r.params.run.seed);
    }
    let e = expand(&["failures.links=edge0-agg0,edge0-agg0"]).unwrap_err();
    assert_eq!(e.key, "failures.links");
    assert!(e.to_string().contains("named twice"), "{e}");
    // Leaf-spine: every leaf keeps one uplink.
    let mut s = Scenario::default_scenario();
    for a in [
        "topology.tiers=2",
        "topology.k=4",
        "switch.lb=ecmp",
        "failures.links=5",
    ] {
        s.set(a).unwrap();
    }
    let e = s.expand().unwrap_err();
    assert!(
        e.to_string().contains("at most 4: of the fabric's 8"),
        "{e}"
    );
}

/// Issue 48, case 14: errors name the user's key and the real cause, and echo values
/// legibly: a slow rate was blamed on the default delay; a seed past 64 bits was "a string";
/// a TOML datetime showed as `$__toml_private_datetime`; a memory limit of 0.01 GiB as
/// 0.0099999997 against "0.0 GiB"; a long value was echoed whole, a control character
/// invisibly; a byte-order mark broke a scenario file.
#[test]
fn misleading_messages_name_the_real_cause() {
    let err = |sets: &[&str]| {
        let mut s = Scenario::default_scenario();
        for a in sets {
            s.set(a).unwrap();
        }
        s.expand().unwrap_err()
    };
    let e = err(&["link.rate_gbps=0.001"]);
    assert_eq!(e.key, "link.rate_gbps", "{e}");
    assert!(
        e.to_string()
            .contains("invalid value 0.001; allowed: a rate"),
        "{e}"
    );
    // A long delay is still the delay's.
    assert_eq!(err(&["link.delay_ns=1e7"]).key, "link.delay_ns");
    let e = err(&["run.seed=18446744073709551615"]).to_string();
    assert!(e.contains("beyond the largest integer"), "{e}");
    assert!(!e.contains("a string"), "{e}");
    let e = Scenario::parse("[workload]\nkind = 1979-05-27\n", "f.toml")
        .unwrap()
        .expand()
        .unwrap_err()
        .to_string();
    assert!(e.contains("invalid value 1979-05-27 (a datetime)"), "{e}");
    assert!(!e.contains("toml_private"), "{e}");
    let e = err(&[
        "run.max_memory_gib=0.01",
        "topology.k=8",
        "workload.kind=all-to-all",
    ]);
    let e = e.to_string();
    assert!(e.contains("over the 0.01 GiB limit"), "{e}");
    // The estimate with three significant digits (it read "0.0 GiB").
    let est = e
        .split("packet-hops and ")
        .nth(1)
        .and_then(|r| r.split(' ').next());
    let est: f64 = est
        .and_then(|g| g.parse().ok())
        .unwrap_or_else(|| panic!("{e}"));
    assert!(est > 0.01 && est < 1.0, "{e}");
    let long = "x".repeat(700_000);
    let e = err(&[&format!("workload.kind={long}")]).to_string();
    assert!(e.len() < 1_000, "{} bytes", e.len());
    assert!(e.contains("... (700000 characters)"), "{e}");
    let e = err(&["workload.kind=perm\u{1}x\u{200b}"]).to_string();
    assert!(e.contains("invalid value perm\\u{1}x\\u{200b};"), "{e}");
    let s = Scenario::parse("\u{feff}[workload]\nkind = \"incast\"\n", "bom.toml").unwrap();
    assert!(s.expand().is_ok());
    let cdf = crate::workload::SizeCdf::parse("\u{feff}100 0.5\n300 1\n").unwrap();
    assert_eq!(
        cdf,
        crate::workload::SizeCdf::parse("100 0.5\n300 1\n").unwrap()
    );
}

/// Issue 48, case 15: a warm-up past the run's end left every flow out, and an inter-ASIC
/// buffer below one packet dropped everything until the watchdog; both are refused, naming
/// the limit.
#[test]
fn silent_acceptance_is_refused() {
    let err = |sets: &[&str]| {
        let mut s = Scenario::default_scenario();
        for a in ["topology.k=4", "switch.lb=ecmp"].iter().chain(sets) {
            s.set(a).unwrap();
        }
        s.expand().unwrap_err()
    };
    let e = err(&["run.duration_us=100", "run.warmup_us=100"]);
    assert_eq!(e.key, "run.warmup_us");
    assert!(
        e.to_string()
            .contains("allowed: below run.duration_us (100 us)"),
        "{e}"
    );
    let e = err(&[
        "switch.arch=oversubscribed",
        "switch.inter_asic_buffer_bytes=1",
    ]);
    assert_eq!(e.key, "switch.inter_asic_buffer_bytes");
    let says = e.to_string();
    let least: u64 = says
        .split("at least ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{says}"));
    // The least allowed is accepted, one byte less is not.
    let mut s = Scenario::default_scenario();
    for a in [
        "topology.k=4",
        "switch.lb=ecmp",
        "switch.arch=oversubscribed",
    ] {
        s.set(a).unwrap();
    }
    s.set(&format!("switch.inter_asic_buffer_bytes={least}"))
        .unwrap();
    assert!(s.expand().is_ok());
    s.set(&format!("switch.inter_asic_buffer_bytes={}", least - 1))
        .unwrap();
    assert!(s.expand().is_err());
}

/// The rail-optimized cluster's keys, and what a rail numbering refuses, each blamed on its key.
#[test]
fn rail_cluster_keys_are_checked() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["topology.servers=10", "topology.servers_per_group=4"],
            "topology.servers_per_group",
        ),
        (&["topology.servers=8", "topology.k=8"], "topology.k"),
        (
            &["topology.servers=8", "topology.layout=rail"],
            "topology.layout",
        ),
        (&["topology.gpus_per_server=4"], "topology.gpus_per_server"),
        (
            &["topology.servers=4", "topology.uplinks=0"],
            "topology.uplinks",
        ),
        (
            &["topology.servers=1", "topology.gpus_per_server=1"],
            "topology.servers",
        ),
        (
            &["topology.servers=1048576", "topology.gpus_per_server=2"],
            "topology.servers",
        ),
        (
            &[
                "topology.servers=8",
                "switch.arch=sota",
                "switch.host_count=variable",
            ],
            "switch.host_count",
        ),
        (
            &["workload.kind=all-reduce", "workload.order=rail"],
            "workload.order",
        ),
    ];
    for (sets, key) in cases {
        let mut s = Scenario::default_scenario();
        for a in *sets {
            s.set(a).unwrap();
        }
        let e = s.expand().unwrap_err();
        assert_eq!(e.key, *key, "{sets:?}: {e}");
    }
}

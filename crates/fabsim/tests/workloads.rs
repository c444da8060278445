//! Workloads with dependencies: collectives, FSDP2, MoE and htsim traffic files; HPCC's flow
//! files; flow-size CDFs of the Poisson workloads.

use fabsim::engine::Time;
use fabsim::metrics::{lower_bound_ps, run};
use fabsim::params::SimParams;
use fabsim::scenario::Scenario;
use fabsim::sim::simulate;
use fabsim::theory::flow_time_ps;

fn params(sets: &[&str]) -> Vec<SimParams> {
    let mut s = Scenario::default_scenario();
    s.set("topology.k=4").unwrap();
    for a in sets {
        s.set(a).unwrap();
    }
    s.expand().unwrap().into_iter().map(|r| r.params).collect()
}

/// Ring all-reduce: every host sends 2(N-1)/N of the buffer, and no scheme beats the bound.
#[test]
fn ring_all_reduce_moves_its_share_and_respects_the_bound() {
    let n = 8u64;
    let d = 512 * 1024u64;
    for p in params(&[
        "workload.kind=all-reduce",
        "workload.group=0-7",
        &format!("workload.message_bytes={d}"),
        "switch.lb=ecmp,ofan",
    ]) {
        let o = simulate(&p);
        let mut sent = [0u64; 16];
        for f in &o.flows {
            sent[f.src as usize] += f.bytes;
        }
        for (h, &bytes) in sent.iter().enumerate() {
            let expect = if h < n as usize {
                2 * (n - 1) * d / n
            } else {
                0
            };
            assert_eq!(bytes, expect, "host {h}");
        }
        let r = run(&p);
        let c = &r.collectives[0];
        assert_eq!(c.name, "all-reduce");
        let cct = c.cct_us.expect("completes");
        assert!(cct >= c.lower_bound_us, "{cct} < {}", c.lower_bound_us);
        // The bound is the ring's 2(N-1) dependent steps, not the NIC time alone: each step
        // costs at least a shard and a path.
        let link = p.link;
        let step = flow_time_ps(&link, d / n, 2).as_us_f64();
        assert!(
            c.lower_bound_us >= 2.0 * (n - 1) as f64 * step,
            "{}",
            c.lower_bound_us
        );
        assert!(r.cct_us.unwrap() >= c.lower_bound_us);
        assert!(lower_bound_ps(&p, &o).as_us_f64() <= r.cct_us.unwrap());
    }
}

/// Every collective and algorithm completes and stays above its bound.
#[test]
fn every_collective_completes_above_its_bound() {
    for p in params(&[
        "workload.kind=all-gather,reduce-scatter,all-reduce,all-to-all",
        "workload.algorithm=ring,direct",
        "workload.message_bytes=262144",
        "switch.lb=ofan",
    ]) {
        let r = run(&p);
        assert_eq!(r.flows_completed, r.flows_total, "{}", r.workload);
        let c = &r.collectives[0];
        assert!(
            c.cct_us.unwrap() >= c.lower_bound_us,
            "{}: {c:?}",
            r.workload
        );
    }
}

/// FSDP2: one iteration of 2 scaled-down Llama-3 405B blocks completes; every collective
/// starts after the ones it depends on and stays above its bound.
#[test]
fn fsdp_iteration_runs_in_order() {
    let p = &params(&[
        "workload.kind=fsdp",
        "workload.layers=2",
        "workload.size_scale=0.0001",
        "switch.lb=ofan",
    ])[0];
    let o = simulate(p);
    assert_eq!(o.flows_completed, o.flows_total);
    let names: Vec<&str> = o.collectives.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "fwd-ag-root",
            "fwd-ag-0",
            "fwd-ag-1",
            "bwd-ag-1",
            "bwd-rs-1",
            "bwd-ag-0",
            "bwd-rs-0",
            "bwd-rs-root"
        ]
    );
    for c in &o.collectives {
        let first = c
            .flows()
            .filter_map(|f| o.results[f as usize].first_tx_ps())
            .min()
            .unwrap();
        for &a in &c.after {
            let done = o.collectives[a as usize]
                .flows()
                .map(|f| o.results[f as usize].finish_ps().unwrap())
                .max()
                .unwrap();
            assert!(
                first >= done,
                "{} starts before {} ends",
                c.name,
                o.collectives[a as usize].name
            );
        }
    }
    let r = run(p);
    for c in &r.collectives {
        assert!(c.cct_us.unwrap() >= c.lower_bound_us, "{c:?}");
    }
    assert!(r.cct_us.unwrap() >= r.lower_bound_us.unwrap());
}

/// MoE: skew concentrates traffic on popular hosts, balancing spreads it again.
#[test]
fn moe_balancing_shortens_a_skewed_dispatch() {
    let cct = |sets: &[&str]| {
        let mut v = vec![
            "workload.kind=moe",
            "workload.message_bytes=262144",
            "switch.lb=ofan",
        ];
        v.extend_from_slice(sets);
        run(&params(&v)[0]).cct_us.unwrap()
    };
    let uniform = cct(&["workload.skew=0"]);
    let skewed = cct(&["workload.skew=1.5"]);
    let balanced = cct(&["workload.skew=1.5", "workload.balance=true"]);
    assert!(skewed > 1.5 * uniform, "{skewed} vs {uniform}");
    assert!(balanced < skewed, "{balanced} vs {skewed}");
}

/// htsim files: triggered flows start only after their trigger fired.
#[test]
fn htsim_triggers_are_respected() {
    let text = "# send_done, recv_done and a barrier\nNodes 16\nConnections 5\nTriggers 3\n\
        0->15 id 1 start 0 size 200000 send_done_trigger 1\n\
        1->14 id 2 start 1 size 50000 send_done_trigger 3\n\
        15->3 id 3 trigger 1 size 30000 recv_done_trigger 2\n\
        3->8 id 4 trigger 2 size 30000 send_done_trigger 3\n\
        9->0 id 5 trigger 3 size 4096\n\
        trigger id 1 oneshot\ntrigger id 2 multishot\ntrigger id 3 barrier count 2\n";
    let path = std::env::temp_dir().join(format!("fabsim-htsim-{}.tm", std::process::id()));
    std::fs::write(&path, text).unwrap();
    let p = &params(&[
        "workload.kind=htsim",
        &format!("workload.file=\"{}\"", path.display()),
        "switch.lb=ofan,ecmp",
    ]);
    // A run spec names the resolved file and expands to the same run.
    let mut s = Scenario::default_scenario();
    s.set("topology.k=4").unwrap();
    s.set("workload.kind=htsim").unwrap();
    s.set(&format!("workload.file=\"{}\"", path.display()))
        .unwrap();
    let run0 = s.expand().unwrap().remove(0);
    let again = Scenario::parse(&run0.to_toml().unwrap(), "spec")
        .unwrap()
        .expand()
        .unwrap();
    assert_eq!(again[0].params, run0.params);
    std::fs::remove_file(&path).unwrap();
    for p in p {
        let o = simulate(p);
        assert_eq!(o.flows_completed, 5);
        let first: Vec<_> = o.results.iter().map(|r| r.first_tx_ps()).collect();
        let fin: Vec<_> = o.results.iter().map(|r| r.finish_ps()).collect();
        assert_eq!(first[1], Some(Time::from_us(1)), "start is in microseconds");
        // send_done: flow 3 after flow 1's last ACK.
        assert!(first[2].unwrap() >= fin[0].unwrap());
        // recv_done: flow 4 no earlier than flow 3's data could have arrived.
        let hops = o.fabric.hops(15, 3);
        assert!(first[3].unwrap() >= first[2].unwrap() + flow_time_ps(&p.link, 30000, hops));
        assert!(
            first[3].unwrap() < fin[2].unwrap(),
            "recv done precedes the last ACK"
        );
        // Barrier of two: after both flow 2 and flow 4 completed.
        assert!(first[4].unwrap() >= fin[1].unwrap().max(fin[3].unwrap()));
    }
}

/// `scenarios/hpcc.toml`, with `sets`.
fn hpcc(sets: &[&str]) -> Result<Vec<SimParams>, fabsim::scenario::ScenarioError> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/hpcc.toml");
    let mut s = Scenario::parse(&std::fs::read_to_string(path).unwrap(), path).unwrap();
    for a in sets {
        s.set(a).unwrap();
    }
    Ok(s.expand()?.into_iter().map(|r| r.params).collect())
}

/// HPCC's flow files: node ids as the topology file numbers them (its switches are nodes 0
/// to 3, its hosts 4 to 7, fabsim's hosts 0 to 3), start times in seconds kept as given,
/// and the run ends when the last flow does, its CCT from the first start (2 s).
#[test]
fn hpcc_flow_files_name_hosts_as_the_topology_file_does() {
    let p = &hpcc(&[]).unwrap()[0];
    let flows = p.traffic().flows;
    let got: Vec<_> = (flows.iter())
        .map(|f| (f.src, f.dst, f.bytes, f.start_ps))
        .collect();
    let s = |ns: u64| Time::from_ps(2_000_000_000_000 + ns * 1000);
    let want = [
        (0, 2, 200_000, s(0)),
        (1, 2, 100_000, s(1000)),
        (3, 2, 50_000, s(2500)),
    ];
    assert_eq!(got, want);
    let o = simulate(p);
    assert_eq!(o.flows_completed, 3);
    for (r, f) in o.results.iter().zip(&flows) {
        assert_eq!(r.start_ps(), Some(f.start_ps));
    }
    let cct = run(p).cct_us.unwrap();
    assert!(cct > 0.0 && cct < 100.0, "{cct} us, from the first start");
    assert_eq!(o.stop_ps, o.end_ps.unwrap(), "no run past the last flow");
}

/// Bad HPCC flow files and scenarios around them: the error names the key, the file, the
/// line and the field, with what is allowed.
#[test]
fn hpcc_flow_file_errors_name_file_line_field_and_allowed_values() {
    let path = std::env::temp_dir().join(format!("fabsim-hpcc-{}.txt", std::process::id()));
    let file = format!("workload.file=\"{}\"", path.display());
    let name = path.display().to_string();
    let cases: [(&str, &[&str], &[&str]); 5] = [
        // A switch and an id past the fabric, as the topology file numbers them.
        (
            "2\n4 6 3 100 1000 2\n0 6 3 100 1000 2\n",
            &[],
            &[
                "workload.file",
                &name,
                "line 3: src: got 0 (a switch); allowed: the node id of one of the 4 hosts",
            ],
        ),
        (
            "1\n4 8 3 100 1000 2\n",
            &[],
            &["line 2: dst: got 8 (no node of the fabric)"],
        ),
        // The file's format against the kind, and htsim's start unit.
        (
            "Nodes 4\n0->1 start 0 size 1000\n",
            &[],
            &[
                "workload.kind",
                "is an htsim connection matrix; allowed: workload.kind = \"htsim\"",
            ],
        ),
        (
            "1\n4 6 3 100 1000 2\n",
            &["workload.kind=htsim"],
            &[
                "workload.kind",
                "is an HPCC flow file",
                "allowed: workload.kind = \"hpcc\"",
            ],
        ),
        (
            "1\n4 6 3 100 1000 2\n",
            &["workload.start_unit=ps"],
            &[
                "workload.start_unit",
                "applies to htsim connection matrices",
            ],
        ),
    ];
    for (text, sets, parts) in cases {
        std::fs::write(&path, text).unwrap();
        let e = hpcc(&[&[file.as_str()], sets].concat())
            .unwrap_err()
            .to_string();
        for part in parts {
            assert!(e.contains(part), "{text:?}: {e}");
        }
    }
    std::fs::remove_file(&path).unwrap();
}

/// htsim's drivers read a connection's `start` in whole microseconds
/// (`timeFromUs((uint32_t)crt->start)`), so staggered starts are microseconds by default: a
/// flow starting at 50 cannot finish before 50 us. `workload.start_unit = "ps"` reads
/// picoseconds, and a fraction of a microsecond is refused in microseconds.
#[test]
fn htsim_starts_are_in_microseconds() {
    let text =
        "Nodes 16\n0->15 start 0 size 4096\n1->14 start 50 size 4096\n2->13 start 100 size 4096\n";
    let path = std::env::temp_dir().join(format!("fabsim-stagger-{}.tm", std::process::id()));
    std::fs::write(&path, text).unwrap();
    let file = format!("workload.file=\"{}\"", path.display());
    let us = &params(&["workload.kind=htsim", &file, "switch.lb=ecmp"])[0];
    let ps = &params(&[
        "workload.kind=htsim",
        &file,
        "switch.lb=ecmp",
        "workload.start_unit=ps",
    ])[0];
    std::fs::write(&path, "Nodes 16\n0->15 start 2.5 size 4096\n").unwrap();
    let mut s = Scenario::default_scenario();
    s.set("topology.k=4").unwrap();
    s.set("workload.kind=htsim").unwrap();
    s.set(&file).unwrap();
    let fraction = s.expand().unwrap_err().to_string();
    std::fs::remove_file(&path).unwrap();
    assert!(
        fraction.contains("line 2")
            && fraction.contains("start")
            && fraction.contains("whole microseconds")
            && fraction.contains("workload.start_unit"),
        "{fraction}"
    );
    let o = simulate(us);
    assert_eq!(o.flows_completed, 3);
    for (r, start_us) in o.results.iter().zip([0, 50, 100]) {
        assert_eq!(r.first_tx_ps(), Some(Time::from_us(start_us)));
        assert!(r.finish_ps().unwrap() > Time::from_us(start_us));
    }
    let o = simulate(ps);
    for (r, start_ps) in o.results.iter().zip([0, 50, 100]) {
        assert_eq!(r.first_tx_ps(), Some(Time::from_ps(start_ps)));
        assert!(r.finish_ps().unwrap() < Time::from_us(50), "picoseconds");
    }
}

/// Bad htsim files fail with the file, line and field.
#[test]
fn htsim_errors_name_file_line_and_field() {
    let path = std::env::temp_dir().join(format!("fabsim-bad-{}.tm", std::process::id()));
    std::fs::write(&path, "Nodes 16\n0->1 start 0 size big\n").unwrap();
    let mut s = Scenario::default_scenario();
    s.set("workload.kind=htsim").unwrap();
    s.set(&format!("workload.file=\"{}\"", path.display()))
        .unwrap();
    s.set("topology.k=4").unwrap();
    let e = s.expand().unwrap_err().to_string();
    std::fs::remove_file(&path).unwrap();
    assert!(
        e.contains("workload.file")
            && e.contains("line 2")
            && e.contains("size")
            && e.contains("fabsim-bad"),
        "{e}"
    );
    let mut s = Scenario::default_scenario();
    s.set("workload.kind=htsim").unwrap();
    s.set("workload.file=/nonexistent.tm").unwrap();
    assert!(s.expand().unwrap_err().to_string().contains("nonexistent"));
    let mut s = Scenario::default_scenario();
    s.set("workload.kind=all-reduce").unwrap();
    s.set("workload.group=0-9999").unwrap();
    assert_eq!(s.expand().unwrap_err().key, "workload.group");
}

/// A message split over more flows than it has bytes would give a flow 0 bytes, which never
/// completes: the scenario refuses it, naming the file, the key, the value and the smallest
/// value allowed; the simulator refuses a 0-byte flow from a caller that builds its own.
#[test]
fn messages_too_small_for_a_byte_per_flow_are_refused() {
    let expand = |text: &str| {
        let text = format!("[topology]\nk = 4\n[switch]\nlb = \"ecmp\"\n[workload]\n{text}");
        Scenario::parse(&text, "small.toml").unwrap().expand()
    };
    // All-to-all: each host's message over its 15 peers; a sweep point too small fails the
    // sweep.
    for (text, value, floor) in [
        ("kind = \"all-to-all\"\nmessage_bytes = 14", 14, 15),
        (
            "kind = \"all-to-all\"\nmessage_bytes = [1048576, 10]",
            10,
            15,
        ),
        ("kind = \"all-reduce\"\nmessage_bytes = 15", 15, 16),
        (
            "kind = \"all-gather\"\ngroup = \"0-7\"\nmessage_bytes = 1",
            1,
            8,
        ),
    ] {
        let e = expand(text).unwrap_err();
        assert_eq!(e.key, "workload.message_bytes", "{text}");
        let says = format!(
            "small.toml: `workload.message_bytes`: invalid value {value}; allowed: at least {floor} bytes"
        );
        assert!(e.to_string().starts_with(&says), "{text}: {e}");
        assert!(e.to_string().contains("0 bytes never completes"), "{e}");
    }
    // Exactly the floor runs, every flow complete.
    for text in [
        "kind = \"all-to-all\"\nmessage_bytes = 15",
        "kind = \"all-reduce\"\nmessage_bytes = 16",
    ] {
        let p = &expand(text).unwrap()[0].params;
        let r = run(p);
        assert_eq!(r.flows_completed, r.flows_total, "{text}");
    }
    // A size per flow splits nothing.
    assert!(expand("kind = \"all-to-all\"\nmessage_bytes = 1\nflow_bytes = 1").is_ok());
    // FSDP: the scale's smallest unit (a block) shards over the group's 16 hosts.
    let e = expand("kind = \"fsdp\"\nlayers = 1\nsize_scale = 1e-12")
        .unwrap_err()
        .to_string();
    let floor = fabsim::workload::fsdp::min_scale(
        &fabsim::workload::fsdp::LLAMA3_405B,
        fabsim::workload::FsdpPart::Iteration,
        1,
        16,
    );
    assert!(floor > 2.4e-9 && floor < 2.5e-9, "{floor}");
    assert!(
        e.starts_with(&format!(
            "small.toml: `workload.size_scale`: invalid value 1e-12; allowed: at least {floor:e}:"
        )),
        "{e}"
    );
    assert!(expand(&format!(
        "kind = \"fsdp\"\nlayers = 1\nsize_scale = {floor:e}"
    ))
    .is_ok());
}

/// A library caller that builds a workload past the scenario gets a panic, not a run that
/// never ends.
#[test]
#[should_panic(expected = "has 0 bytes and would never complete")]
fn a_flow_of_zero_bytes_is_refused_by_the_simulator() {
    let mut p = params(&["switch.lb=ecmp"]).remove(0);
    p.workload = fabsim::workload::WorkloadSpec::AllToAll {
        message_bytes: 14,
        flow_bytes: None,
    };
    simulate(&p);
}

/// Link failures: no scheme ever sends on a dead link, every flow completes, and paced
/// hosts stay within rho_max.
#[test]
fn failed_links_carry_nothing_and_hosts_keep_to_rho_max() {
    let failed = "failures.links=[\"edge0-agg0\", \"agg5-core2\", \"edge6-agg6\"]";
    let mut cases: Vec<SimParams> = params(&[failed, "switch.lb=ecmp,rsq,rr,jsq,ar,ofan,pofan"]);
    cases.extend(params(&[
        failed,
        "switch.lb=ecmp",
        "host.lb=rps,reps,drb,ethereal",
    ]));
    cases.extend(params(&[
        "failures.links=5",
        "switch.lb=ofan,ecmp",
        "run.seeds=2",
    ]));
    for p in &cases {
        let o = simulate(p);
        let name = format!("{:?}/{:?}/{:?}", p.switch.lb, p.host.lb, p.failures);
        assert_eq!(o.flows_completed, o.flows_total, "{name}");
        let (f, rho) = o.failures.as_ref().unwrap();
        assert_eq!(f.dead.iter().filter(|&&d| d).count(), 2 * f.names.len());
        for (port, &dead) in f.dead.iter().enumerate() {
            if dead {
                assert_eq!(
                    o.ports.stats[port].busy_ps,
                    Time::ZERO,
                    "{name}: port {port} is dead"
                );
            }
        }
        assert!(*rho > 0.0 && *rho <= 1.0);
        if f.names.iter().any(|n| n == "edge0-agg0") {
            // Hosts 0 and 1 share edge 0's one surviving uplink.
            assert!((*rho - 0.5).abs() < 1e-9, "{name}: {rho}");
        }
        // Each flow's data rate, first packet to last ACK, stays below rho_max x line rate.
        for (i, fl) in o.flows.iter().enumerate() {
            let span = (o.results[i].finish_ps().unwrap() - o.results[i].first_tx_ps().unwrap())
                .as_ps_f64();
            let wire: u64 = p.link.packet_sizes(fl.bytes).map(|s| s as u64).sum();
            let rate = wire as f64 * 8.0 / (span * 1e-12);
            assert!(
                rate <= rho * p.link.rate_bps as f64 * 1.0001,
                "{name}: {rate}"
            );
        }
        let r = run(p);
        assert_eq!(r.rho_max, Some(*rho));
        assert!(r.cct_inflation.unwrap() > 0.0);
    }
}

/// Failure and workload keys validate, and a run spec with them round-trips.
#[test]
fn new_keys_validate_and_round_trip() {
    let bad = [
        ("failures.links=[\"edge0-agg0\", \"edge0-agg1\"]", "cut"),
        ("failures.links=edge0-agg9", "unknown link"),
        ("failures.links=999", "at most"),
        ("workload.algorithm=tree", "one of ring, direct"),
        ("workload.layers=127", "layers"),
        ("workload.skew=-1", "-1"),
    ];
    for (set, says) in bad {
        let mut s = Scenario::default_scenario();
        s.set("topology.k=4").unwrap();
        s.set(if set.starts_with("workload.layers") {
            "workload.kind=fsdp"
        } else {
            "workload.kind=moe"
        })
        .unwrap();
        s.set(set).unwrap();
        let e = s.expand().unwrap_err();
        assert_eq!(e.key, set.split('=').next().unwrap());
        assert!(e.to_string().contains(says), "{e}");
    }
    // Valid uplinks are a 64-bit mask: failures on a wider leaf are refused, naming why,
    // and a leaf with 1,024 uplinks and no failures runs (it once shifted past the mask).
    let wide = |extra: &[&str]| {
        let mut s = Scenario::default_scenario();
        for set in [
            &["topology.tiers=2", "topology.k=4", "topology.uplinks=100"][..],
            extra,
        ]
        .concat()
        {
            s.set(set).unwrap();
        }
        s.expand()
    };
    let e = wide(&["failures.links=2"]).unwrap_err();
    assert_eq!(e.key, "failures.links");
    assert!(e.to_string().contains("at most 64 uplinks"), "{e}");
    let runs = wide(&["switch.lb=ecmp,rsq,rr,jsq,ar,ofan", "topology.uplinks=1024"]).unwrap();
    for r in &runs {
        let report = fabsim::metrics::run(&r.params);
        assert_eq!(report.flows_completed, report.flows_total, "{}", report.lb);
    }
    let mut s = Scenario::default_scenario();
    for set in [
        "topology.k=4",
        "switch.lb=ofan,ar",
        "failures.links=edge0-agg0,agg5-core2",
        "failures.pace=false",
        "workload.kind=reduce-scatter",
        "workload.group=0-15:2",
        "workload.algorithm=direct",
    ] {
        s.set(set).unwrap();
    }
    let runs = s.expand().unwrap();
    assert_eq!(runs.len(), 2, "a list of link names is one failure set");
    for r in &runs {
        let again = Scenario::parse(&r.to_toml().unwrap(), "spec")
            .unwrap()
            .expand()
            .unwrap();
        assert_eq!(again.len(), 1);
        assert_eq!(again[0].params, r.params);
    }
}

/// Incremental deployment: per-tier schemes that cover every choosing switch equal the
/// uniform fabric; upgrading half the switches lands between the two uniform fabrics.
#[test]
fn per_tier_load_balancers_compose() {
    let cct = |sets: &[&str]| run(&params(sets)[0]).cct_us.unwrap();
    let ofan = cct(&["switch.lb=ofan"]);
    assert_eq!(
        cct(&["switch.lb=ar", "switch.lb_edge=ofan", "switch.lb_agg=ofan"]),
        ofan
    );
    let ecmp = cct(&["switch.lb=ecmp"]);
    let half = cct(&[
        "switch.lb=ecmp",
        "switch.upgrade=edge",
        "switch.upgrade_lb=ofan",
    ]);
    assert!(half < ecmp && half >= ofan, "{ofan} <= {half} < {ecmp}");
}

/// F.5: the dynamic first pointer completes every flow above the bound, on its own and
/// with failed links (the rotation skips invalid uplinks).
#[test]
fn dynamic_first_pointer_runs() {
    for p in params(&[
        "switch.lb=ofan,pofan",
        "switch.ofan_first=shortest",
        "failures.links=0,3",
    ]) {
        let o = simulate(&p);
        assert_eq!(o.flows_completed, o.flows_total);
        let (f, _) = o.failures.as_ref().unwrap();
        for (port, &dead) in f.dead.iter().enumerate() {
            assert!(!dead || o.ports.stats[port].busy_ps == Time::ZERO);
        }
        let r = run(&p);
        assert!(r.cct_us.unwrap() >= r.lower_bound_us.unwrap());
    }
}

/// pFabric's web search sizes (`workload.cdf = "websearch"`) at 70% load on a 128-host
/// leaf-spine (16 leaves of 8 hosts, 100 Gb/s): the generated flows' mean size and offered
/// load are within 2% of the distribution's mean and of 70% (about 100,000 flows in 135 ms;
/// the flow list only, nothing is simulated).
#[test]
fn websearch_cdf_gives_its_mean_size_and_the_offered_load() {
    let mut s = fabsim::scenario::Scenario::default_scenario();
    for set in [
        "topology.tiers=2",
        "topology.k=16",
        "link.rate_gbps=100",
        "switch.lb=ofan",
        "workload.kind=web",
        "workload.cdf=websearch",
        "workload.load=0.7",
        "run.duration_us=135000",
        "run.max_packet_hops=1e15",
    ] {
        s.set(set).unwrap();
    }
    let p = s.expand().unwrap().remove(0).params;
    let hosts = p.topology.hosts();
    assert_eq!(hosts, 128);
    let fabsim::workload::WorkloadSpec::Fastroute(w) = &p.workload else {
        panic!("web is a Fastroute workload");
    };
    let dist_mean = fabsim::workload::SizeCdf::built_in("websearch")
        .unwrap()
        .mean();
    assert_eq!(w.sizes().mean(), dist_mean);
    let flows = p.workload.traffic(hosts as u32, p.run.seed).flows;
    let bytes: u64 = flows.iter().map(|f| f.bytes).sum();
    let mean = bytes as f64 / flows.len() as f64;
    let capacity = hosts as f64 * p.link.rate_bps as f64 / 8.0 * 0.135;
    let load = bytes as f64 / capacity;
    eprintln!(
        "{} flows, mean {mean:.0} B vs {dist_mean:.0} B ({:+.2}%), load {load:.4} ({:+.2}%)",
        flows.len(),
        100.0 * (mean / dist_mean - 1.0),
        100.0 * (load / 0.7 - 1.0)
    );
    assert!(flows.len() > 90_000, "{} flows", flows.len());
    assert!(
        (mean / dist_mean - 1.0).abs() < 0.02,
        "mean {mean} vs {dist_mean}"
    );
    assert!((load / 0.7 - 1.0).abs() < 0.02, "load {load}");
}

/// Rack-local patterns place flows by edge switch, whatever the host numbering: Web traffic
/// on a rail-numbered fat tree (racks not runs of hosts) and on 2 planes (racks runs of
/// endpoints) is the rack-numbered fabric's, each place moved to its host, so a flow is
/// intra-rack (same edge switch) exactly when it is there.
#[test]
fn rack_patterns_place_flows_by_edge_switch_under_any_numbering() {
    let web = ["workload.kind=web", "run.duration_us=200"];
    let rack = &params(&web)[0];
    let same_edge = |p: &SimParams| -> Vec<bool> {
        let f = fabsim::net::Fabric::new(&p.topology, 1, Time::from_ps(1));
        (p.traffic().flows.iter())
            .map(|fl| f.edge_of(fl.src) == f.edge_of(fl.dst))
            .collect()
    };
    let local = same_edge(rack);
    assert!(local.iter().any(|&l| l) && local.iter().any(|&l| !l));
    for (shape, moved) in [("topology.layout=rail", true), ("topology.planes=2", false)] {
        let other = &params(&[web[0], web[1], shape])[0];
        assert_eq!(other.topology.rack_order().is_some(), moved, "{shape}");
        assert_eq!(same_edge(other), local, "{shape}");
    }
}

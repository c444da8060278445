//! Topology files (`topology.file`): the three readers' errors, the writers' round trips,
//! Netbench's leaf-spine file, and runs from an exported file equal to the built-in shape's.

use std::sync::Arc;

use fabsim::engine::Time;
use fabsim::lb::{HostLbKind, SwitchLbKind};
use fabsim::metrics::lower_bound_ps;
use fabsim::net::graph::{Graph, Layout};
use fabsim::net::{Fabric, Node, Topology, TopologySpec};
use fabsim::params::SimParams;
use fabsim::scenario::topofile::{read, to_hpcc, to_toml, Format};
use fabsim::scenario::Scenario;
use fabsim::sim::{simulate, RunOutcome};

/// `text` read as `format` fails with a message containing every one of `parts`.
fn refused(text: &str, format: Format, servers_per_tor: Option<u32>, parts: &[&str]) {
    let e = read(text, format, servers_per_tor).expect_err(text);
    for p in parts {
        assert!(e.contains(p), "{e:?} lacks {p:?}");
    }
}

#[test]
fn toml_errors_name_line_field_and_allowed_values() {
    let t = Format::Toml;
    refused(
        "hosts = 2\nswitches = 1\nlinks = [\n  [0, 2],\n  [1, 5],\n]\n",
        t,
        None,
        &["line 5: links[1]: got 5; allowed: a node id 0 to 2"],
    );
    refused(
        "hosts = 2\nswitches = 1\nspeed = 3\nlinks = []\n",
        t,
        None,
        &["line 3: key: got speed; allowed: hosts, switches, rate_gbps, delay_ns, links"],
    );
    refused(
        "hosts = 2.5\nswitches = 1\nlinks = []\n",
        t,
        None,
        &["line 1: hosts: got 2.5; allowed: an integer 1 to 16777216"],
    );
    refused(
        "hosts = 2\nswitches = 1\nrate_gbps = -1\nlinks = []\n",
        t,
        None,
        &["line 3: rate_gbps: got -1; allowed: a number 0.001 to 100000"],
    );
    refused(
        "hosts = 2\nlinks = [[0, 1, 2]]\n",
        t,
        None,
        &["line 1: switches: got nothing; allowed: a value (required)"],
    );
    refused(
        "hosts = 2\nswitches = 1\nlinks = [[0, 2]]\n",
        t,
        Some(4),
        &["topology.servers_per_tor", "Netbench"],
    );
}

const HPCC: &str = "3 1 2\n2\n0 2 100Gbps 0.001ms 0\n1 2 100Gbps 0.001ms 0\n\n";

#[test]
fn hpcc_errors_name_line_field_and_allowed_values() {
    let h = Format::Hpcc;
    let (g, ids) = read(HPCC, h, None).unwrap();
    assert_eq!(ids, [0, 1, 2]);
    assert_eq!((g.hosts, g.switches, g.links.len()), (2, 1, 2));
    // As HPCC, the header's link_num links are read and nothing after them (here a link
    // that would give a NIC a second rate).
    let more = format!("{HPCC}0 1 25Gbps 0.001ms 0\nanything\n");
    assert_eq!(read(&more, h, None).unwrap().0, g);
    assert_eq!(g.links[0].rate_bps, Some(100_000_000_000));
    assert_eq!(g.links[0].delay_ps, Some(Time::from_ps(1_000_000)));
    refused(
        &HPCC.replace("0.001ms 0\n1", "0.001ms 0.01\n1"),
        h,
        None,
        &["line 3: error_rate: got 0.01; allowed: 0 (fabsim models no random loss"],
    );
    refused(
        &HPCC.replace("1 2 100Gbps", "1 2 100Gb"),
        h,
        None,
        &["line 4: rate: got 100Gb; allowed: a non-negative number followed by one of Gbps, Mbps, Kbps, bps"],
    );
    refused(
        &HPCC.replace("1 2 100Gbps", "1 2 0Gbps"),
        h,
        None,
        &["line 4: rate: got 0Gbps; allowed: 1Mbps to 100000Gbps"],
    );
    refused(
        &HPCC.replace("0 2 100", "7 2 100"),
        h,
        None,
        &["line 3: src: got 7; allowed: an integer 0 to 2"],
    );
    refused(
        &HPCC.replace("3 1 2", "3 1 3"),
        h,
        None,
        &["line 4: link_num: got 2 link lines; allowed: 3 (the header's)"],
    );
}

/// A file's own node ids stay with its graph: HPCC's example numbers its switch 0 and its
/// hosts from 1, which become graph hosts from 0; flow files and `fct.txt` name them as the
/// file does.
#[test]
fn a_file_numbering_its_switch_first_keeps_its_ids() {
    let text = "4 1 3\n0\n0 1 100Gbps 0.001ms 0\n0 2 100Gbps 0.001ms 0\n3 0 100Gbps 0.001ms 0\n";
    let (g, ids) = read(text, Format::Hpcc, None).unwrap();
    assert_eq!((g.hosts, g.switches), (3, 1));
    assert_eq!(ids, [1, 2, 3, 0]);
    let t = Topology::new("star".into(), g).unwrap().with_ids(ids);
    let spec = TopologySpec::Graph(Arc::new(t));
    let hosts: Vec<u64> = (0..3).map(|h| spec.node_id(h)).collect();
    assert_eq!(hosts, [1, 2, 3]);
    let nodes: Vec<Node> = (0..5).map(|id| spec.node(id)).collect();
    let want = [
        Node::Switch,
        Node::Host(0),
        Node::Host(1),
        Node::Host(2),
        Node::Absent,
    ];
    assert_eq!(nodes, want);
    // Numbered as the graph (hosts first), a file keeps no ids; nor does a built-in shape.
    let (g, ids) = read(HPCC, Format::Hpcc, None).unwrap();
    assert_eq!(
        Topology::new("line".into(), g).unwrap().with_ids(ids).ids,
        None
    );
    let fat = TopologySpec::FatTree { k: 4 };
    assert_eq!(fat.node_id(15), 15);
    let nodes: Vec<Node> = [15, 16, 35, 36].map(|id| fat.node(id)).to_vec();
    assert_eq!(
        nodes,
        [Node::Host(15), Node::Switch, Node::Switch, Node::Absent]
    );
}

const NETBENCH: &str = include_str!("../../../reference/netbench/leafspine_4x8.topology");

#[test]
fn netbench_errors_name_line_field_and_allowed_values() {
    let n = Format::Netbench;
    refused(
        &NETBENCH.replace("\n4 0\n", "\n"),
        n,
        Some(8),
        &["line 3: |E|: got 63 edges; allowed: the number of edge lines"],
    );
    refused(
        &NETBENCH
            .replace("|E|=64", "|E|=63")
            .replace("\n4 0\n", "\n"),
        n,
        Some(8),
        &["line 8: edge: got 0 4; allowed: edges listed both ways (add `4 0`)"],
    );
    refused(
        NETBENCH,
        n,
        None,
        &["line 5: Servers: got incl_range(0,3); allowed: topology.servers_per_tor = N"],
    );
    refused(
        &NETBENCH.replace("ToRs=incl_range(0,3)", "ToRs=range(0,3)"),
        n,
        Some(8),
        &["line 4: ToRs: got range(0,3); allowed: set(a,b,...) or incl_range(a,b) of node ids 0 to 11"],
    );
}

/// `graph` with every link at `rate_bps` and `delay_ps`, as a file gives it.
fn with_link(graph: &Graph, rate_bps: u64, delay_ps: Time) -> Graph {
    let mut g = graph.clone();
    for l in &mut g.links {
        l.rate_bps = Some(rate_bps);
        l.delay_ps = Some(delay_ps);
    }
    g
}

#[test]
fn the_writers_read_back_to_the_same_graph() {
    let shapes = [
        (TopologySpec::FatTree { k: 4 }, Layout::Rack),
        (
            TopologySpec::LeafSpine {
                leaves: 3,
                hosts_per_leaf: 4,
                uplinks: 2,
            },
            Layout::Rack,
        ),
        (TopologySpec::FatTree { k: 4 }, Layout::Rail),
    ];
    for (spec, layout) in shapes {
        let g = Graph::generate(&spec, layout);
        for (rate, delay) in [(800_000_000_000, 500_250), (25_500_000, 3_000_000_001)] {
            let delay = Time::from_ps(delay);
            let want = with_link(&g, rate, delay);
            let toml = read(&to_toml(&g, rate, delay), Format::Toml, None)
                .unwrap()
                .0;
            assert_eq!(toml, want, "{spec:?} {layout:?} toml");
            let hpcc = read(&to_hpcc(&g, rate, delay), Format::Hpcc, None)
                .unwrap()
                .0;
            assert_eq!(hpcc, want, "{spec:?} {layout:?} hpcc");
        }
    }
}

#[test]
fn links_above_the_nics_keep_their_own_rate_in_both_writers() {
    let mut g = Graph::generate(&TopologySpec::FatTree { k: 4 }, Layout::Rack);
    let (nic, above, delay) = (100_000_000_000, 400_000_000_000, Time::from_ps(1_000_000));
    for l in &mut g.links {
        l.delay_ps = Some(delay);
        l.rate_bps = Some(if l.a.min(l.b) < g.hosts { nic } else { above });
    }
    let toml = to_toml(&g, nic, delay);
    assert!(toml.contains(", 400.0]"), "{toml}");
    assert_eq!(read(&toml, Format::Toml, None).unwrap().0, g);
    assert_eq!(
        read(&to_hpcc(&g, nic, delay), Format::Hpcc, None)
            .unwrap()
            .0,
        g
    );
    let e = read(
        "hosts = 2\nswitches = 1\nlinks = [[0, 2, -1], [1, 2]]\n",
        Format::Toml,
        None,
    );
    assert!(e.unwrap_err().contains("[a, b, rate_gbps]"));
}

#[test]
fn netbench_leaf_spine_is_the_built_in_leaf_spine() {
    let g = read(NETBENCH, Format::Netbench, Some(8)).unwrap().0;
    assert_eq!((g.hosts, g.switches, g.links.len()), (32, 12, 64));
    let file = TopologySpec::Graph(Arc::new(Topology::new("leafspine".into(), g).unwrap()));
    let built_in = TopologySpec::LeafSpine {
        leaves: 4,
        hosts_per_leaf: 8,
        uplinks: 8,
    };
    let (rate, delay) = (100_000_000_000, Time::from_ps(500_000));
    let (a, b) = (
        Fabric::new(&file, rate, delay),
        Fabric::new(&built_in, rate, delay),
    );
    assert_eq!(a.port_to_node, b.port_to_node);
    assert_eq!(a.port_to_local, b.port_to_local);
    assert_eq!(a.port_stage, b.port_stage);
}

fn params(text: &str, sets: &[&str]) -> Result<SimParams, String> {
    let mut s = Scenario::parse(text, "test").map_err(|e| e.to_string())?;
    for a in sets {
        s.set(a).map_err(|e| e.to_string())?;
    }
    Ok(s.expand().map_err(|e| e.to_string())?.remove(0).params)
}

/// Everything a run's reports are made of, as text (as tests/parallel.rs compares runs).
fn digest(o: &RunOutcome) -> String {
    format!(
        "{:?}\n{} {} {:?} {:?}\n{:?}\n{:?}\n{:?}",
        o.counters,
        o.flows_completed,
        o.in_flight,
        o.end_ps,
        o.stalled,
        o.fcts().collect::<Vec<_>>(),
        o.results,
        o.ports.stats,
    )
}

const COMMON: &str =
    "[link]\nrate_gbps = 100\n[workload]\nkind = \"permutation\"\nmessage_bytes = 65536\n";

/// A temporary directory of this test process.
fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("fabsim-topofile-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes the fabric of `shape` (a `[topology]` section) to `dir` and returns its path.
fn export(dir: &std::path::Path, shape: &str) -> std::path::PathBuf {
    let p = params(&format!("{shape}{COMMON}"), &[]).unwrap();
    let path = dir.join("fabric.toml");
    let graph = Graph::generate(&p.topology, Layout::Rack);
    std::fs::write(&path, to_toml(&graph, p.link.rate_bps, p.link.delay_ps)).unwrap();
    path
}

#[test]
fn a_run_from_an_exported_file_is_the_built_in_run() {
    let shapes = [
        ("ft4", "[topology]\ntiers = 3\nk = 4\n"),
        (
            "ls",
            "[topology]\ntiers = 2\nleaves = 4\nhosts_per_leaf = 4\nuplinks = 2\n",
        ),
    ];
    for (name, shape) in shapes {
        let dir = temp_dir(name);
        let file = export(&dir, shape);
        // Without link.rate_gbps: the file's 100 Gb/s, not the 800 Gb/s default.
        let common = COMMON.replace("rate_gbps = 100\n", "");
        let from_file = format!("[topology]\nfile = {:?}\n{common}", file.display());
        for lb in ["switch.lb=\"ofan\"", "switch.lb=\"ecmp\""] {
            let built_in = params(&format!("{shape}{COMMON}"), &[lb]).unwrap();
            let read = params(&from_file, &[lb]).unwrap();
            assert_eq!(read.link, built_in.link);
            let (a, b) = (simulate(&built_in), simulate(&read));
            assert!(a.flows_completed > 0);
            assert_eq!(digest(&a), digest(&b), "{name} {lb}");
        }
        std::fs::remove_dir_all(dir).unwrap();
    }
}

#[test]
fn topology_file_keys_refuse_what_does_not_apply() {
    let dir = temp_dir("keys");
    let file = export(&dir, "[topology]\ntiers = 3\nk = 4\n");
    let text = format!("[topology]\nfile = {:?}\n", file.display());
    let cases: [(&str, &[&str]); 4] = [
        (
            "topology.k=4",
            &["topology.k", "does not apply with topology.file"],
        ),
        (
            "link.rate_gbps=400",
            &[
                "link.rate_gbps",
                "400 disagrees with topology.file's links (100)",
            ],
        ),
        (
            "topology.servers_per_tor=8",
            &["topology.servers_per_tor", "only applies to Netbench files"],
        ),
        (
            "topology.file=\"/nonexistent/x.toml\"",
            &["topology.file", "cannot read topology file"],
        ),
    ];
    for (set, parts) in cases {
        let e = params(&text, &[set]).expect_err(set);
        for p in parts {
            assert!(e.contains(p), "{set}: {e:?} lacks {p:?}");
        }
    }
    let e = params("", &["topology.servers_per_tor=8"]).unwrap_err();
    assert!(e.contains("only applies with topology.file"), "{e}");
    assert_eq!(
        params(&text, &["link.rate_gbps=100"])
            .unwrap()
            .link
            .rate_bps,
        100_000_000_000
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_relative_topology_file_is_found_beside_the_scenario_and_named_absolutely() {
    let dir = temp_dir("relative");
    let file = export(&dir, "[topology]\ntiers = 3\nk = 4\n");
    let scenario = dir.join("scenario.toml");
    let s = Scenario::parse(
        "[topology]\nfile = \"fabric.toml\"\n",
        scenario.to_str().unwrap(),
    )
    .unwrap();
    let run = s.expand().unwrap().remove(0);
    let abs = std::fs::canonicalize(&file).unwrap();
    assert_eq!(run.input_files(), vec![("topology.file", abs.clone())]);
    assert!(run
        .to_toml()
        .unwrap()
        .contains(&format!("file = {:?}", abs.display().to_string())));
    assert_eq!(run.params.topology.hosts(), 16);
    std::fs::remove_dir_all(dir).unwrap();
}

/// A graph that is not a Clos (a 4 x 4 torus, scenarios/topologies/) runs on shortest
/// paths under every scheme that chooses among next hops: every flow completes, never
/// before the bound; what needs a Clos's up-down paths is refused, naming the key, and so
/// are rack-local patterns on racks of unlike sizes.
#[test]
fn a_graph_that_is_not_a_clos_runs_on_shortest_paths() {
    let torus = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../scenarios/topologies/torus-4x4.toml"
    );
    let text = format!("[topology]\nfile = {torus:?}\n{COMMON}");
    let switch = SwitchLbKind::ALL
        .into_iter()
        .filter(|&k| k != SwitchLbKind::Conga);
    let host = HostLbKind::ALL
        .into_iter()
        .filter(|k| !matches!(k, HostLbKind::Drb | HostLbKind::Ethereal));
    let sets = switch
        .map(|k| format!("switch.lb=\"{}\"", k.name()))
        .chain(host.map(|k| format!("host.lb=\"{}\"", k.name())));
    for set in sets {
        let p = params(&text, &[&set]).unwrap();
        let o = simulate(&p);
        assert_eq!(o.flows_completed, 64, "{set}");
        let cct = o.end_ps.expect("every flow ends");
        assert!(
            cct >= lower_bound_ps(&p, &o),
            "{set}: {cct:?} under the bound"
        );
    }
    // Racks of unlike sizes (3 hosts and 1): rack-local patterns have no racks to use.
    let dir = temp_dir("racks");
    let file = dir.join("racks.toml");
    let links = "links = [[0, 4], [1, 4], [2, 4], [3, 5], [4, 5]]\n";
    std::fs::write(&file, format!("hosts = 4\nswitches = 2\n{links}")).unwrap();
    let racks = format!("[topology]\nfile = {:?}\n{COMMON}", file.display());
    let e = params(&racks, &["workload.kind=\"web\"", "run.duration_us=10"]).unwrap_err();
    assert!(
        e.contains("workload.kind") && e.contains("unlike numbers of hosts"),
        "{e}"
    );
    std::fs::remove_dir_all(dir).unwrap();
    for (set, key) in [
        ("switch.lb=\"conga\"", "switch.lb"),
        ("host.lb=\"drb\"", "host.lb"),
        ("host.lb=\"ethereal\"", "host.lb"),
        ("switch.arch=\"fastroute\"", "switch.arch"),
        ("failures.links=1", "failures.links"),
    ] {
        let e = params(&text, &[set]).unwrap_err();
        let why = e.contains("not a Clos") || e.contains("2-tier leaf-spine");
        assert!(e.contains(key) && why, "{set}: {e}");
    }
}

/// A run spec (what `fabsim sweep` writes per run) of a scenario with a topology file
/// reads back to the same run: the shape keys' defaults, which a file replaces, are not
/// written (read back, they would be given beside the file, which is refused).
#[test]
fn a_run_spec_with_a_topology_file_reads_back() {
    let torus = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../scenarios/topologies/torus-4x4.toml"
    );
    // The torus gives no rate (the default stands); the HPCC sample gives 100 Gb/s and a
    // delay, which replace the defaults.
    let hpcc = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/hpcc.toml");
    let cases = [
        (format!("[topology]\nfile = {torus:?}\n{COMMON}"), "test"),
        (std::fs::read_to_string(hpcc).unwrap(), hpcc),
    ];
    for (text, source) in cases {
        let run = Scenario::parse(&text, source)
            .unwrap()
            .expand()
            .unwrap()
            .remove(0);
        let spec = run.to_toml().unwrap();
        assert!(!spec.contains("tiers"), "{spec}");
        let again = Scenario::parse(&spec, "spec")
            .unwrap()
            .expand()
            .unwrap()
            .remove(0);
        assert_eq!(again.params, run.params, "{source}");
    }
}

/// A trace names each port's ends as the topology file numbers its nodes: HPCC's sample
/// numbers its switches 0-3 (leaves 0 and 1) and its hosts 4-7 (hosts 4 and 5 under leaf 0).
#[test]
fn a_trace_names_nodes_as_the_topology_file_does() {
    let hpcc = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/hpcc.toml");
    let text = std::fs::read_to_string(hpcc).unwrap();
    let p = Scenario::parse(&text, hpcc)
        .unwrap()
        .expand()
        .unwrap()
        .remove(0)
        .params;
    let extras = fabsim::metrics::Extras {
        flows: false,
        trace: true,
    };
    let trace = fabsim::metrics::run_with(&p, extras).trace.unwrap();
    let ends = |port: u32| {
        let t = trace.iter().find(|t| t.port == port).unwrap();
        (t.from_node, t.to_node)
    };
    // The NICs of hosts 4 and 6 (the fabric's hosts 0 and 2), to their leaves.
    assert_eq!((ends(0), ends(2)), ((4, 0), (6, 1)));
    for t in &trace {
        let switch = |n: u64| n < 4;
        let host_side = matches!(t.stage, "host-up" | "leaf-down");
        assert_eq!(
            switch(t.from_node) && switch(t.to_node),
            !host_side,
            "{t:?}"
        );
    }
}

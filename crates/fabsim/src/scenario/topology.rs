//! `topology.*`: the fabric's shape.

use std::sync::Arc;

use super::keys::{int, keys, named, names, Key, Keys, Kind, Named, ScenarioError};
use super::topofile::{self, Format};
use super::workload::{find_file, path};
use crate::net::graph::{Graph, Layout};
use crate::net::{Topology, TopologySpec};

named!(Layout);

/// The largest fabric accepted (a 3-tier k = 128 fat tree has 524,288 hosts).
pub const MAX_HOSTS: u64 = 1 << 20;

keys! {
    TIERS: Key {
        name: "topology.tiers",
        kind: int(2, 3),
        default: Some("3"),
        unit: "",
        meaning: "3: k-ary fat tree; 2: leaf-spine",
    },
    K: Key {
        name: "topology.k",
        kind: Kind::Int {
            min: 2,
            max: 128,
            even: true,
        },
        default: Some("12"),
        unit: "",
        meaning: "switch radix (3 tiers: k^3/4 hosts; 2 tiers: k leaves of k/2 hosts)",
    },
    LEAVES: Key {
        name: "topology.leaves",
        kind: int(1, 16_384),
        default: None,
        unit: "",
        meaning: "2 tiers: number of leaves (default k; 1: a single switch, as a testbed, with topology.uplinks = 0)",
    },
    HOSTS_PER_LEAF: Key {
        name: "topology.hosts_per_leaf",
        kind: int(1, 1024),
        default: None,
        unit: "",
        meaning: "2 tiers: hosts per leaf (default k/2; at least 2 on a single switch: every workload needs two hosts)",
    },
    UPLINKS: Key {
        name: "topology.uplinks",
        kind: int(0, 1024),
        default: None,
        unit: "",
        meaning: "2 tiers: uplinks per leaf = spines (default k/2; hosts_per_leaf/uplinks = oversubscription)",
    },
    PLANES: Key {
        name: "topology.planes",
        kind: int(1, 16),
        default: Some("1"),
        unit: "",
        meaning: "parallel planes: copies of the fabric side by side, each server (GPU) with one NIC per plane (hosts server * planes + plane); a workload addresses hosts / planes endpoints, whose messages use the planes as host.planes says",
    },
    SERVERS: Key {
        name: "topology.servers",
        kind: int(1, MAX_HOSTS),
        default: None,
        unit: "",
        meaning: "a rail-optimized cluster of this many servers (instead of topology.tiers/k): GPU g of every server of a group on the group's rail switch g; one group: rails under topology.uplinks spines; more: each group a pod with topology.uplinks aggregation switches under a core tier",
    },
    GPUS: Key {
        name: "topology.gpus_per_server",
        kind: int(1, 64),
        default: None,
        unit: "",
        meaning: "topology.servers: GPUs per server, one NIC each = rails (default 8)",
    },
    GROUP: Key {
        name: "topology.servers_per_group",
        kind: int(1, 16_384),
        default: None,
        unit: "",
        meaning: "topology.servers: servers per rail group (a divisor of topology.servers; default the servers up to 32); topology.uplinks defaults to it (non-blocking rails)",
    },
    LAYOUT: Key {
        name: "topology.layout",
        kind: Kind::Choice(names::<Layout>),
        default: Some("\"rack\""),
        unit: "",
        meaning: "how hosts are numbered: rack (host h under edge h / hosts_per_edge) or rail (rail-optimized: a server's GPUs, one NIC each, are consecutive hosts on the rail switches of its pod, GPU i on rail i; a pod's edge switches are its rails, k/2 of them on 3 tiers, every leaf on 2)",
    },
    FILE: Key {
        name: "topology.file",
        kind: Kind::Other {
            allowed: "a path to a topology file",
            check: path,
        },
        default: None,
        unit: "",
        meaning: "the fabric from a file instead of the keys above (relative to the working directory or the scenario file): *.toml fabsim's own (hosts, switches, links, optional rate_gbps and delay_ns), *.topology Netbench's, anything else HPCC's ns-3 topology.txt; its link rate and delay, where given, are the run's; a 2- or 3-tier Clos is routed as one, any other connected graph on shortest paths",
    },
    SERVERS_PER_TOR: Key {
        name: "topology.servers_per_tor",
        kind: int(1, 1024),
        default: None,
        unit: "",
        meaning: "Netbench files whose ToRs stand for their servers (Servers = ToRs): servers added per ToR, numbered as Netbench's extend_with_servers=regular does",
    },
}

/// The leaf-spine keys that override the k-ary shape.
pub const EXPLICIT: [&Key; 3] = [LEAVES, HOSTS_PER_LEAF, UPLINKS];

pub fn parse(k: &Keys, dir: Option<&std::path::Path>) -> Result<TopologySpec, ScenarioError> {
    let spec = shape(k, dir)?;
    let planes = k.opt_u32(PLANES).unwrap_or(1);
    if planes == 1 {
        return Ok(spec);
    }
    if k.get(FILE).is_some() {
        return Err(k.err(
            PLANES,
            "a topology file gives its own planes (its connected parts); allowed: 1 with topology.file",
        ));
    }
    let hosts = spec.hosts() * planes as u64;
    if hosts > MAX_HOSTS {
        return Err(k.err(
            PLANES,
            format!("the fabric would have {hosts} hosts; at most {MAX_HOSTS} are supported"),
        ));
    }
    let rails = spec.rails();
    let (base, name) = match &spec {
        TopologySpec::Graph(t) => (t.graph.clone(), t.name.clone()),
        TopologySpec::FatTree { k } => (
            Graph::generate(&spec, Layout::Rack),
            format!("3-tier fat tree k={k}"),
        ),
        TopologySpec::LeafSpine {
            leaves, uplinks, ..
        } => (
            Graph::generate(&spec, Layout::Rack),
            format!("leaf-spine of {leaves} leaves, {uplinks} spines"),
        ),
    };
    let mut topology = Topology::new(format!("{planes} planes of a {name}"), base.planes(planes))
        .expect("planes of a Clos fabric are Clos fabrics");
    // Planes number NICs; endpoints keep the one plane's numbering.
    topology.rails = rails;
    Ok(TopologySpec::Graph(Arc::new(topology)))
}

/// One plane's fabric: a topology file, a rail-optimized cluster or a built-in shape.
fn shape(k: &Keys, dir: Option<&std::path::Path>) -> Result<TopologySpec, ScenarioError> {
    if k.get(FILE).is_some() {
        return from_file(k, dir);
    }
    if k.given(SERVERS) {
        return rail_cluster(k);
    }
    if let Some(key) = [GPUS, GROUP].into_iter().find(|key| k.given(key)) {
        return Err(k.err(
            key,
            "only applies to rail-optimized clusters (topology.servers)",
        ));
    }
    if k.given(SERVERS_PER_TOR) {
        return Err(k.err(
            SERVERS_PER_TOR,
            "only applies with topology.file = a Netbench *.topology file",
        ));
    }
    built_in(k)
}

/// The k-ary fat tree or the leaf-spine, numbered by `topology.layout`.
fn built_in(k: &Keys) -> Result<TopologySpec, ScenarioError> {
    let radix = k.u32(K);
    let spec = if k.u32(TIERS) == 3 {
        if let Some(key) = EXPLICIT.iter().find(|key| k.get(key).is_some()) {
            return Err(k.err(key, "only applies to 2-tier fabrics (topology.tiers = 2)"));
        }
        TopologySpec::FatTree { k: radix }
    } else {
        TopologySpec::LeafSpine {
            leaves: k.opt_u32(LEAVES).unwrap_or(radix),
            hosts_per_leaf: k.opt_u32(HOSTS_PER_LEAF).unwrap_or(radix / 2),
            uplinks: k.opt_u32(UPLINKS).unwrap_or(radix / 2),
        }
    };
    if let TopologySpec::LeafSpine {
        leaves, uplinks, ..
    } = spec
    {
        // One leaf has no use for spines; more leaves need them.
        if (leaves == 1) != (uplinks == 0) {
            return Err(k.invalid(
                UPLINKS,
                &format!(
                    "0 with topology.leaves = 1 (a single switch), else at least 1 (here {leaves} leaves)"
                ),
            ));
        }
    }
    let hosts = spec.hosts();
    if hosts < 2 {
        // Only one leaf of one host: every workload needs a peer.
        return Err(k.err(
            HOSTS_PER_LEAF,
            "the fabric would have 1 host (topology.leaves = 1 x topology.hosts_per_leaf = 1); allowed: at least 2 hosts, as every workload sends from one host to another",
        ));
    }
    if hosts > MAX_HOSTS {
        let key = if k.given(LEAVES) {
            LEAVES
        } else {
            HOSTS_PER_LEAF
        };
        return Err(k.err(
            key,
            format!("the fabric would have {hosts} hosts; at most {MAX_HOSTS} are supported"),
        ));
    }
    if k.choice::<Layout>(LAYOUT) == Layout::Rack {
        return Ok(spec);
    }
    let (name, rails) = match spec {
        TopologySpec::FatTree { k } => (format!("rail-optimized 3-tier fat tree k={k}"), k / 2),
        TopologySpec::LeafSpine { leaves, .. } => ("rail-optimized leaf-spine".into(), leaves),
        TopologySpec::Graph(_) => return Ok(spec),
    };
    let graph = Graph::generate(&spec, Layout::Rail);
    let topology = Topology::new(name, graph)
        .expect("the built-in shapes are Clos fabrics")
        .with_rails(rails);
    Ok(TopologySpec::Graph(Arc::new(topology)))
}

/// `topology.servers`: a rail-optimized cluster ([`Graph::rail`]).
fn rail_cluster(k: &Keys) -> Result<TopologySpec, ScenarioError> {
    // The built-in default's fat tree gives way; a shape the user chose is refused.
    if let Some(key) = [TIERS, K, LEAVES, HOSTS_PER_LEAF, LAYOUT]
        .into_iter()
        .find(|key| k.explicit(key))
    {
        return Err(k.err(
            key,
            "a rail-optimized cluster (topology.servers) has its own shape: leave this key out",
        ));
    }
    let servers = k.u32(SERVERS);
    let gpus = k.opt_u32(GPUS).unwrap_or(8);
    let group = k.opt_u32(GROUP).unwrap_or(servers.min(32));
    if !servers.is_multiple_of(group) {
        return Err(k.invalid(GROUP, &format!("a divisor of topology.servers ({servers})")));
    }
    let alone = servers == group && gpus == 1;
    let uplinks = k.opt_u32(UPLINKS).unwrap_or(if alone { 0 } else { group });
    if alone != (uplinks == 0) {
        return Err(k.invalid(
            UPLINKS,
            "0 for one group of one-GPU servers (a single switch), else at least 1",
        ));
    }
    let hosts = servers as u64 * gpus as u64;
    if !(2..=MAX_HOSTS).contains(&hosts) {
        return Err(k.err(
            SERVERS,
            format!("the cluster would have {hosts} GPUs (topology.servers x topology.gpus_per_server); allowed: 2 to {MAX_HOSTS}"),
        ));
    }
    let name = format!(
        "rail-optimized cluster of {servers} servers x {gpus} GPUs, groups of {group}, {uplinks} uplinks per rail switch"
    );
    let topology = Topology::new(name, Graph::rail(servers, gpus, group, uplinks))
        .expect("rail clusters are Clos fabrics")
        .with_rails(gpus);
    Ok(TopologySpec::Graph(Arc::new(topology)))
}

/// The fabric of `topology.file`.
/// The keys of the built-in shapes and rail clusters, which a topology file replaces: they
/// may not be given beside one.
const REPLACED: [&Key; 9] = [
    TIERS,
    K,
    LEAVES,
    HOSTS_PER_LEAF,
    UPLINKS,
    LAYOUT,
    SERVERS,
    GPUS,
    GROUP,
];

/// Whether `key` does not apply at this point because a topology file gives the fabric (a
/// run spec leaves out its default value, which would read back as given).
pub fn replaced_by_file(k: &Keys, key: &Key) -> bool {
    k.get(FILE).is_some() && REPLACED.contains(&key)
}

fn from_file(k: &Keys, dir: Option<&std::path::Path>) -> Result<TopologySpec, ScenarioError> {
    if let Some(key) = REPLACED.iter().find(|key| k.explicit(key)) {
        return Err(k.err(
            key,
            "does not apply with topology.file (the file gives the fabric); allowed: one of the two",
        ));
    }
    let file = k.get(FILE).and_then(|v| v.as_str()).expect("checked path");
    let path = find_file(file, dir);
    let format = Format::of(&path);
    let servers_per_tor = k.opt_u32(SERVERS_PER_TOR);
    if servers_per_tor.is_some() && format != Format::Netbench {
        return Err(k.err(
            SERVERS_PER_TOR,
            format!("only applies to Netbench files (*.topology), and topology.file is {file:?}"),
        ));
    }
    let text = super::read_input(&path)
        .map_err(|e| k.err(FILE, format!("cannot read topology file {file:?}: {e}")))?;
    let (graph, ids) = topofile::read(&text, format, servers_per_tor)
        .map_err(|e| k.err(FILE, format!("{file}: {e}")))?;
    if !(2..=MAX_HOSTS).contains(&(graph.hosts as u64)) {
        let hosts = graph.hosts;
        return Err(k.err(
            FILE,
            format!("{file}: {hosts} hosts; allowed: 2 to {MAX_HOSTS}"),
        ));
    }
    let name = path
        .file_name()
        .map_or(file.to_string(), |n| n.to_string_lossy().into_owned());
    let topology = Topology::new(name, graph).map_err(|e| k.err(FILE, format!("{file}: {e}")))?;
    Ok(TopologySpec::Graph(Arc::new(topology.with_ids(ids))))
}

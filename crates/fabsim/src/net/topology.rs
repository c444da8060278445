//! Fat-tree topologies: 3-tier k-ary fat trees and 2-tier leaf-spine.
//!
//! Numbering. Hosts are nodes `0..hosts`; switches follow. Every node owns a contiguous range
//! of egress ports; a host has exactly one (its NIC), so host `h`'s NIC is port `h`. On a
//! switch, local ports `0..down` face down (hosts or lower switches) and `down..ports` face up.
//!
//! 3 tiers, radix k (Al-Fares et al., SIGCOMM 2008): k pods, each with k/2 edge and k/2 aggregation
//! switches; (k/2)^2 cores; k/2 hosts per edge. Aggregation switch j of every pod connects
//! to cores j*k/2 .. j*k/2 + k/2 - 1, so an edge switch's uplink choice fixes the aggregation
//! switch used in the destination pod too, and the down path from any core is unique.
//!
//! Any other graph (a file's) is one tier of switches routed on shortest paths
//! ([`super::Shortest`]): a switch's hosts are its down ports, its links to other switches
//! its uplinks, and `Route::Up`'s key the destination's edge switch everywhere.

use std::borrow::Cow;
use std::sync::Arc;

use super::graph::{Clos, Graph, Layout};
use super::mesh::Shortest;
use crate::engine::Time;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tier {
    /// Edge (3 tiers) or leaf (2 tiers): hosts below.
    Edge,
    Agg,
    /// Core (3 tiers) or spine (2 tiers).
    Core,
}

/// Link stages, for per-stage reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stage {
    HostUp,
    EdgeUp,
    AggUp,
    CoreDown,
    AggDown,
    EdgeDown,
}

impl Stage {
    pub const ALL: [Stage; 6] = [
        Stage::HostUp,
        Stage::EdgeUp,
        Stage::AggUp,
        Stage::CoreDown,
        Stage::AggDown,
        Stage::EdgeDown,
    ];

    /// The stage of a port of a switch of `tier`, facing down or up.
    fn of(tier: Tier, down: bool) -> Stage {
        match (tier, down) {
            (Tier::Edge, true) => Stage::EdgeDown,
            (Tier::Edge, false) => Stage::EdgeUp,
            (Tier::Agg, true) => Stage::AggDown,
            (Tier::Agg, false) => Stage::AggUp,
            (Tier::Core, _) => Stage::CoreDown,
        }
    }

    /// The stage's report name; 2-tier fabrics use leaf/spine names, graphs routed on
    /// shortest paths (1 tier) name their switch-to-switch links `fabric`.
    pub fn name(self, tiers: u32) -> &'static str {
        match (self, tiers) {
            (Stage::HostUp, _) => "host-up",
            (Stage::EdgeUp, 1) => "fabric",
            (Stage::EdgeDown, 1) => "host-down",
            (Stage::EdgeUp, 2) => "leaf-up",
            (Stage::CoreDown, 2) => "spine-down",
            (Stage::EdgeDown, 2) => "leaf-down",
            (Stage::EdgeUp, _) => "edge-up",
            (Stage::AggUp, _) => "agg-up",
            (Stage::CoreDown, _) => "core-down",
            (Stage::AggDown, _) => "agg-down",
            (Stage::EdgeDown, _) => "edge-down",
        }
    }
}

/// Shape of the fabric, already validated by the scenario layer.
#[derive(Clone, Debug, PartialEq)]
pub enum TopologySpec {
    /// 3-tier k-ary fat tree.
    FatTree { k: u32 },
    /// 2-tier leaf-spine: `leaves` leaves with `hosts_per_leaf` hosts and `uplinks` uplinks
    /// each, one spine per uplink; each spine has one port per leaf.
    LeafSpine {
        leaves: u32,
        hosts_per_leaf: u32,
        uplinks: u32,
    },
    /// Any other fabric given as a graph (a topology file, or a built-in shape with another
    /// host numbering), already analysed as a Clos.
    Graph(Arc<Topology>),
}

/// A fabric given as a graph, with its analysis and the name reports give it.
#[derive(Clone, Debug, PartialEq)]
pub struct Topology {
    /// What the fabric is (a file's path, or the shape and its layout).
    pub name: String,
    pub graph: Graph,
    pub clos: Clos,
    /// GPUs per server where hosts are numbered rail-optimized (host `s * rails + g` is GPU
    /// `g` of server `s`, on rail `g`).
    pub rails: Option<u32>,
    /// The id a topology file gives each node (hosts, then switches, in the graph's order;
    /// each part ascending), where the file numbers its nodes otherwise than the graph
    /// (HPCC's and Netbench's formats); `None`: a node's id is the graph's.
    pub ids: Option<Vec<u64>>,
}

/// What a node id names ([`TopologySpec::node`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Node {
    /// A host a workload addresses, by its index.
    Host(u32),
    Switch,
    /// No node of the fabric (or, with planes, a NIC no workload addresses).
    Absent,
}

impl Topology {
    /// Analyses `graph`: as a Clos where it is one, else routed on shortest paths.
    pub fn new(name: String, graph: Graph) -> Result<Self, String> {
        let clos = graph.analyse()?;
        Ok(Topology {
            name,
            graph,
            clos,
            rails: None,
            ids: None,
        })
    }

    /// The same, its nodes numbered `ids` by the file it was read from (hosts, then
    /// switches, each ascending, as the graph numbers them); kept only where they differ
    /// from the graph's.
    pub fn with_ids(self, ids: Vec<u64>) -> Self {
        debug_assert_eq!(ids.len() as u64, self.graph.nodes() as u64);
        let own = ids.iter().enumerate().all(|(i, &id)| id == i as u64);
        Topology {
            ids: (!own).then_some(ids),
            ..self
        }
    }

    /// The same, its hosts numbered rail-optimized with `rails` GPUs per server.
    pub fn with_rails(self, rails: u32) -> Self {
        Topology {
            rails: Some(rails),
            ..self
        }
    }
}

impl TopologySpec {
    /// Number of hosts.
    pub fn hosts(&self) -> u64 {
        match *self {
            TopologySpec::FatTree { k } => k as u64 * k as u64 * k as u64 / 4,
            TopologySpec::LeafSpine {
                leaves,
                hosts_per_leaf,
                ..
            } => leaves as u64 * hosts_per_leaf as u64,
            TopologySpec::Graph(ref t) => t.graph.hosts as u64,
        }
    }

    /// Graph node `node`'s id (a host's, or a switch's as the graph numbers it) as the
    /// fabric's topology file numbers nodes (the graph's where it has no numbering of its
    /// own: hosts first, then switches).
    pub fn node_id(&self, node: u32) -> u64 {
        match self {
            TopologySpec::Graph(t) => t.ids.as_ref().map_or(node as u64, |ids| ids[node as usize]),
            _ => node as u64,
        }
    }

    /// What node `id` is, numbered as [`TopologySpec::node_id`] numbers hosts.
    pub fn node(&self, id: u64) -> Node {
        let (hosts, nodes) = match *self {
            TopologySpec::FatTree { k } => (self.hosts(), self.hosts() + 5 * (k as u64).pow(2) / 4),
            TopologySpec::LeafSpine {
                leaves, uplinks, ..
            } => (self.hosts(), self.hosts() + (leaves + uplinks) as u64),
            TopologySpec::Graph(ref t) => match &t.ids {
                Some(ids) => {
                    let (hosts, switches) = ids.split_at(t.graph.hosts as usize);
                    return match (hosts.binary_search(&id), switches.binary_search(&id)) {
                        (Ok(h), _) => Node::Host(h as u32),
                        (_, Ok(_)) => Node::Switch,
                        _ => Node::Absent,
                    };
                }
                None => (self.hosts(), t.graph.nodes() as u64),
            },
        };
        match id {
            _ if id < self.endpoints() => Node::Host(id as u32),
            _ if (hosts..nodes).contains(&id) => Node::Switch,
            _ => Node::Absent,
        }
    }

    /// Whether some switch-to-switch link runs at another rate than the NICs' `nic_bps` (a
    /// topology file's).
    pub fn mixed_rates(&self, nic_bps: u64) -> bool {
        match self {
            TopologySpec::Graph(t) => t.clos.mixed_rates(nic_bps),
            _ => false,
        }
    }

    /// GPUs per server of a rail-optimized numbering (`None` for the rack numbering or a
    /// file).
    pub fn rails(&self) -> Option<u32> {
        match self {
            TopologySpec::Graph(t) => t.rails,
            _ => None,
        }
    }

    /// The fabric's planes: connected parts, alike, each server a NIC in every one (1 for
    /// the built-in shapes).
    pub fn planes(&self) -> u32 {
        match self {
            TopologySpec::Graph(t) => t.clos.planes,
            _ => 1,
        }
    }

    /// The hosts a workload addresses: with planes, each server GPU's NICs (one per plane)
    /// are one endpoint, and each flow runs on one plane.
    pub fn endpoints(&self) -> u64 {
        self.hosts() / self.planes() as u64
    }

    /// Endpoints under one edge (leaf) switch, if every edge has as many.
    pub fn hosts_per_rack(&self) -> Option<u32> {
        match *self {
            TopologySpec::FatTree { k } => Some(k / 2),
            TopologySpec::LeafSpine { hosts_per_leaf, .. } => Some(hosts_per_leaf),
            TopologySpec::Graph(ref t) => t.clos.racks().map(|r| r.0),
        }
    }

    /// The endpoints rack by rack where they are not consecutive ids (a rail-optimized
    /// numbering, planes, a file's): what rack-local traffic patterns place flows by.
    pub fn rack_order(&self) -> Option<Vec<u32>> {
        let TopologySpec::Graph(t) = self else {
            return None;
        };
        let (_, order) = t.clos.racks()?;
        (!order.iter().copied().eq(0..order.len() as u32)).then_some(order)
    }

    /// Links on the longest host-to-host path.
    pub fn longest_path_hops(&self) -> u32 {
        match self {
            TopologySpec::FatTree { .. } => 6,
            // One leaf: a single switch.
            TopologySpec::LeafSpine { leaves: 1, .. } => 2,
            TopologySpec::LeafSpine { .. } => 4,
            TopologySpec::Graph(t) if t.clos.order.len() == 1 => 2,
            TopologySpec::Graph(t) => match &t.clos.shortest {
                Some(s) => 2 + s.diameter(),
                None => 2 * t.clos.tiers,
            },
        }
    }

    /// Port counts of the edge (leaf) switches and of the other switches (a single switch:
    /// its own twice).
    pub fn radixes(&self) -> (u32, u32) {
        match *self {
            TopologySpec::FatTree { k } => (k, k),
            TopologySpec::LeafSpine {
                leaves: 1,
                hosts_per_leaf,
                ..
            } => (hosts_per_leaf, hosts_per_leaf),
            TopologySpec::LeafSpine {
                leaves,
                hosts_per_leaf,
                uplinks,
            } => (hosts_per_leaf + uplinks, leaves),
            TopologySpec::Graph(ref t) => t.clos.radixes(),
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub struct SwitchInfo {
    pub tier: Tier,
    /// The edge index of an edge switch, the pod of an aggregation switch (0 for cores).
    pub group: u32,
    /// Global id of local port 0.
    pub port_base: u32,
    pub ports: u32,
    /// Local ports `0..down` face down; `down..ports` are the uplinks.
    pub down: u32,
}

impl SwitchInfo {
    #[inline]
    pub fn uplinks(&self) -> u32 {
        self.ports - self.down
    }
}

/// Where a switch sends a packet for a destination host.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Route {
    /// The unique down port (local index).
    Down(u32),
    /// Any uplink: the load balancer picks. `key` is the Ofan consolidation key: the
    /// destination edge switch at edge switches, the destination pod at aggregation switches.
    Up { key: u32 },
}

/// A host's place in the fabric: its edge switch and pod, its port on the edge switch, and
/// its edge switch's index within the pod (the aggregation switch's down port).
#[derive(Clone, Copy, Debug, Default)]
struct HostLoc {
    edge: u32,
    pod: u32,
    /// The pod's index in its plane (a core's down port to it).
    pod_in_plane: u32,
    port_on_edge: u32,
    edge_in_pod: u32,
}

/// Per port its rate, in the fabric's order, where some switch-to-switch link runs at
/// another than the NICs' `rate_bps` ([`Fabric::port_rate`]); empty otherwise.
fn port_rates(clos: &Clos, hosts: u32, rate_bps: u64) -> Vec<u64> {
    if !clos.mixed_rates(rate_bps) {
        return Vec::new();
    }
    let mut rates = vec![rate_bps; hosts as usize];
    for (ports, &me) in clos.ports.iter().zip(&clos.order) {
        rates.extend(ports.iter().map(|&n| {
            let link = (me.min(n), me.max(n));
            (n >= hosts)
                .then(|| clos.switch_rates.get(&link).copied())
                .flatten()
                .unwrap_or(rate_bps)
        }));
    }
    rates
}

impl HostLoc {
    /// Where every host of `clos` sits (an edge's down ports are its hosts).
    fn all(clos: &Clos, hosts: u32) -> Vec<HostLoc> {
        let mut loc = vec![HostLoc::default(); hosts as usize];
        for e in 0..clos.edges {
            let ports = &clos.ports[e as usize][..clos.down[e as usize] as usize];
            for (i, &h) in ports.iter().enumerate() {
                let pod = e / clos.edges_per_pod;
                loc[h as usize] = HostLoc {
                    edge: e,
                    pod,
                    pod_in_plane: pod % (clos.pods / clos.planes),
                    port_on_edge: i as u32,
                    edge_in_pod: e % clos.edges_per_pod,
                };
            }
        }
        loc
    }
}

/// The static fabric: nodes, ports and their wiring. Runtime state lives in [`super::Ports`].
#[derive(Clone, Debug)]
pub struct Fabric {
    pub tiers: u32,
    pub hosts: u32,
    /// Connected parts of the fabric (host `h` in plane `h % planes`); a flow stays in one.
    pub planes: u32,
    pub switches: Vec<SwitchInfo>,
    /// Per global port: receiving node, and the ingress local port index there.
    pub port_to_node: Vec<u32>,
    pub port_to_local: Vec<u32>,
    pub port_stage: Vec<Stage>,
    /// The NICs' rate, and every port's where the graph gives none.
    pub rate_bps: u64,
    /// Per port its rate, where the graph runs some switch-to-switch link at another rate
    /// than the NICs'; empty otherwise.
    pub port_rate: Vec<u64>,
    pub delay_ps: Time,
    /// Where each host sits.
    host_loc: Vec<HostLoc>,
    /// Number of Ofan keys at edge (destination edges) and aggregation (pods) switches.
    pub edge_keys: u32,
    pub agg_keys: u32,
    /// A graph that is not a Clos: its shortest-path next hops (every switch an edge
    /// switch, the destination's edge switch the key).
    pub shortest: Option<Arc<Shortest>>,
    /// Per switch: its node in the graph (as a topology file and `fabsim topology --export`
    /// number it).
    pub graph_node: Vec<u32>,
}

/// A host's NIC, as a port of the port array (host `h`'s is port `h`: see the numbering
/// above). Named by its own type so that a host id is never passed where a port is meant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NicPort(u32);

impl NicPort {
    #[inline]
    pub fn port(self) -> u32 {
        self.0
    }
}

impl Fabric {
    /// Host `host`'s NIC.
    #[inline]
    pub fn nic(&self, host: u32) -> NicPort {
        debug_assert!(host < self.hosts, "host {host} of {}", self.hosts);
        NicPort(host)
    }

    /// The fabric of `spec`, every link at `rate_bps` with `delay_ps`.
    pub fn new(spec: &TopologySpec, rate_bps: u64, delay_ps: Time) -> Self {
        let clos = match spec {
            TopologySpec::Graph(t) => Cow::Borrowed(&t.clos),
            _ => Cow::Owned(
                Graph::generate(spec, Layout::Rack)
                    .clos()
                    .expect("the built-in shapes are Clos fabrics"),
            ),
        };
        Self::from_clos(&clos, spec.hosts() as u32, rate_bps, delay_ps)
    }

    /// Numbers `clos`'s ports: host `h`'s NIC is port `h`; then each switch's ports in the
    /// canonical order, down ports first.
    fn from_clos(clos: &Clos, hosts: u32, rate_bps: u64, delay_ps: Time) -> Self {
        // Graph switch node -> its index in the fabric's order.
        let mut index = vec![0u32; clos.order.len()];
        for (i, &n) in clos.order.iter().enumerate() {
            index[(n - hosts) as usize] = i as u32;
        }
        let node = |n: u32| {
            if n < hosts {
                n
            } else {
                hosts + index[(n - hosts) as usize]
            }
        };
        // Per switch: (graph neighbour, local port), sorted, to find a link's far port.
        let back: Vec<Vec<(u32, u32)>> = clos
            .ports
            .iter()
            .map(|p| {
                let mut v: Vec<(u32, u32)> = p.iter().zip(0..).map(|(&n, l)| (n, l)).collect();
                v.sort_unstable();
                v
            })
            .collect();
        let local_at = |sw: usize, from: u32| {
            let v = &back[sw];
            v[v.partition_point(|&(n, _)| n < from)].1
        };
        let mut f = Self {
            tiers: clos.tiers,
            hosts,
            planes: clos.planes,
            switches: Vec::with_capacity(clos.order.len()),
            port_to_node: Vec::new(),
            port_to_local: Vec::new(),
            port_stage: Vec::new(),
            rate_bps,
            port_rate: Vec::new(),
            delay_ps,
            host_loc: HostLoc::all(clos, hosts),
            edge_keys: clos.edges,
            agg_keys: if clos.tiers == 3 { clos.pods } else { 0 },
            shortest: clos.shortest.clone(),
            graph_node: clos.order.clone(),
        };
        for h in 0..hosts {
            let at = f.host_loc[h as usize];
            f.push_port(hosts + at.edge, at.port_on_edge, Stage::HostUp);
        }
        for (sw, ports) in clos.ports.iter().enumerate() {
            let (tier, group) = clos.tier[sw];
            let down = clos.down[sw];
            f.push_switch(tier, group, ports.len() as u32, down);
            let me = clos.order[sw];
            for (local, &n) in ports.iter().enumerate() {
                let stage = Stage::of(tier, (local as u32) < down);
                let far = if n < hosts {
                    0
                } else {
                    local_at(index[(n - hosts) as usize] as usize, me)
                };
                f.push_port(node(n), far, stage);
            }
        }
        f.port_rate = port_rates(clos, hosts, rate_bps);
        f
    }

    fn push_port(&mut self, to_node: u32, to_local: u32, stage: Stage) {
        self.port_to_node.push(to_node);
        self.port_to_local.push(to_local);
        self.port_stage.push(stage);
    }

    fn push_switch(&mut self, tier: Tier, group: u32, ports: u32, down: u32) {
        let port_base = self.port_to_node.len() as u32;
        self.switches.push(SwitchInfo {
            tier,
            group,
            port_base,
            ports,
            down,
        });
    }

    /// The edge switch (leaf) of `host`, as an index among edge switches.
    #[inline]
    pub fn edge_of(&self, host: u32) -> u32 {
        self.host_loc[host as usize].edge
    }

    /// Uplinks of the switches of `tier`: the most any has (all equal in a Clos; 1 if the
    /// tier is absent).
    pub fn uplinks_of(&self, tier: Tier) -> u32 {
        self.switches
            .iter()
            .filter(|s| s.tier == tier)
            .map(|s| s.uplinks())
            .max()
            .map_or(1, |w| w.max(1))
    }

    /// The uplinks of switch `sw` a packet toward edge switch `key` may take (at an edge
    /// switch's `Route::Up`): all in a Clos, those on a shortest path otherwise.
    #[inline]
    pub fn next_hops(&self, sw: u32, key: u32) -> u64 {
        match &self.shortest {
            None => super::ALL_UPLINKS,
            Some(s) => s.next_hops(sw, key),
        }
    }

    pub fn ports(&self) -> usize {
        self.port_to_node.len()
    }

    /// Routing decision of switch `sw` (index into `switches`) for destination host `dst`.
    #[inline]
    pub fn route(&self, sw: u32, dst: u32) -> Route {
        let info = &self.switches[sw as usize];
        let to = self.host_loc[dst as usize];
        match info.tier {
            Tier::Edge if to.edge == info.group => Route::Down(to.port_on_edge),
            Tier::Edge => Route::Up { key: to.edge },
            Tier::Agg if to.pod == info.group => Route::Down(to.edge_in_pod),
            Tier::Agg => Route::Up { key: to.pod },
            Tier::Core if self.tiers == 3 => Route::Down(to.pod_in_plane),
            Tier::Core => Route::Down(to.edge_in_pod),
        }
    }

    /// The graph's nodes at the two ends of port `port`: the one it leaves and the one it
    /// leads to (hosts keep their ids; switches as the graph numbers them).
    pub fn port_ends(&self, port: u32) -> (u32, u32) {
        let from = match port.checked_sub(self.hosts) {
            None => port,
            Some(_) => {
                let sw = self.switches.partition_point(|s| s.port_base <= port) - 1;
                self.graph_node[sw]
            }
        };
        (from, self.graph_node_of(self.port_to_node[port as usize]))
    }

    /// The graph's node of fabric node `node` (a host, or switch `node - hosts`).
    pub fn graph_node_of(&self, node: u32) -> u32 {
        match node.checked_sub(self.hosts) {
            Some(sw) => self.graph_node[sw as usize],
            None => node,
        }
    }

    /// Switch index of the switch that node `node` is (`node >= hosts`).
    #[inline]
    pub fn switch_of(&self, node: u32) -> u32 {
        node - self.hosts
    }

    /// Number of links a packet from `src` to `dst` crosses.
    pub fn hops(&self, src: u32, dst: u32) -> u32 {
        let (a, b) = (self.host_loc[src as usize], self.host_loc[dst as usize]);
        if a.edge == b.edge {
            2
        } else if let Some(s) = &self.shortest {
            2 + s.distance(a.edge, b.edge)
        } else if self.tiers == 2 || a.pod == b.pod {
            4
        } else {
            6
        }
    }

    /// The rate of egress port `port`.
    pub fn port_rate_bps(&self, port: u32) -> u64 {
        self.port_rate
            .get(port as usize)
            .copied()
            .unwrap_or(self.rate_bps)
    }

    /// The egress ports a packet from `src` to `dst` leaves by, one per link, where every
    /// switch takes its first uplink allowed (the same links and rates as any other path
    /// where the links of a tier run at one rate).
    pub fn first_path(&self, src: u32, dst: u32) -> Vec<u32> {
        let mut port = self.nic(src).port();
        let mut path = vec![port];
        loop {
            let node = self.port_to_node[port as usize];
            if node < self.hosts {
                return path;
            }
            let sw = self.switch_of(node);
            let info = &self.switches[sw as usize];
            let local = match self.route(sw, dst) {
                Route::Down(l) => l,
                Route::Up { key } => match self.next_hops(sw, key) {
                    super::ALL_UPLINKS => info.down,
                    mask => info.down + mask.trailing_zeros(),
                },
            };
            port = info.port_base + local;
            path.push(port);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Following routes (taking the `up_choice`-th allowed uplink, modulo their number) from
    /// every host reaches every destination over the expected number of hops; with choice 0
    /// over the ports of [`Fabric::first_path`].
    fn check_reachability(f: &Fabric, up_choice: u32) {
        for src in 0..f.hosts {
            for dst in 0..f.hosts {
                if src == dst || src % f.planes != dst % f.planes {
                    continue;
                }
                let mut port = f.nic(src).port();
                assert_eq!(f.port_stage[port as usize], Stage::HostUp);
                let mut hops = 1;
                let mut path = vec![port];
                loop {
                    let node = f.port_to_node[port as usize];
                    if node < f.hosts {
                        assert_eq!(node, dst, "misrouted {src}->{dst}");
                        break;
                    }
                    let sw = f.switch_of(node);
                    let info = f.switches[sw as usize];
                    let local = match f.route(sw, dst) {
                        Route::Down(l) => l,
                        Route::Up { key } => match f.next_hops(sw, key) {
                            crate::net::ALL_UPLINKS => info.down + up_choice % info.uplinks(),
                            mask => {
                                let mut m = mask;
                                for _ in 0..up_choice % mask.count_ones() {
                                    m &= m - 1;
                                }
                                info.down + m.trailing_zeros()
                            }
                        },
                    };
                    port = info.port_base + local;
                    path.push(port);
                    hops += 1;
                    assert!(hops <= f.hops(src, dst), "{src}->{dst}: a longer path");
                }
                assert_eq!(hops, f.hops(src, dst));
                if up_choice == 0 {
                    assert_eq!(path, f.first_path(src, dst), "{src}->{dst}");
                }
            }
        }
    }

    #[test]
    fn fat_tree_routes_reach_destinations() {
        let f = Fabric::new(&TopologySpec::FatTree { k: 4 }, 1, Time::from_ps(1));
        assert_eq!(f.hosts, 16);
        assert_eq!(f.switches.len(), 20);
        assert_eq!(f.ports(), 16 + 20 * 4);
        for u in 0..2 {
            check_reachability(&f, u);
        }
    }

    #[test]
    fn ingress_ports_are_consistent() {
        // The ingress local port recorded for each link is the reverse link's local port.
        let f = Fabric::new(&TopologySpec::FatTree { k: 6 }, 1, Time::from_ps(1));
        for (p, &node) in f.port_to_node.iter().enumerate() {
            if node < f.hosts {
                continue;
            }
            let info = f.switches[f.switch_of(node) as usize];
            let back = info.port_base + f.port_to_local[p];
            let back_node = f.port_to_node[back as usize];
            // The reverse port leads back to the node owning port p.
            let owner = if p < f.hosts as usize {
                p as u32
            } else {
                let sw = f
                    .switches
                    .iter()
                    .position(|s| (s.port_base..s.port_base + s.ports).contains(&(p as u32)))
                    .unwrap();
                f.hosts + sw as u32
            };
            assert_eq!(back_node, owner, "port {p}");
        }
    }

    #[test]
    fn leaf_spine_routes_reach_destinations() {
        let f = Fabric::new(
            &TopologySpec::LeafSpine {
                leaves: 4,
                hosts_per_leaf: 3,
                uplinks: 2,
            },
            1,
            Time::from_ps(1),
        );
        for u in 0..2 {
            check_reachability(&f, u);
        }
    }

    /// The two fabrics' ports lead to the same nodes and ingress ports, at the same stages.
    fn same_ports(a: &Fabric, b: &Fabric) {
        assert_eq!(a.port_to_node, b.port_to_node);
        assert_eq!(a.port_to_local, b.port_to_local);
        assert_eq!(a.port_stage, b.port_stage);
    }

    fn graph_fabric(g: Graph) -> Fabric {
        let t = Topology::new("test".into(), g).unwrap();
        Fabric::new(&TopologySpec::Graph(Arc::new(t)), 1, Time::from_ps(1))
    }

    /// The same fabric with its links listed in another order, each from its other end, is
    /// numbered the same: the port arrays depend on the graph, not on how a file lists it.
    /// With its switches renumbered it is the same fabric up to that renumbering: every
    /// route still arrives, over as many hops.
    #[test]
    fn a_graph_listed_otherwise_gives_the_same_fabric() {
        for spec in [
            TopologySpec::FatTree { k: 6 },
            TopologySpec::LeafSpine {
                leaves: 5,
                hosts_per_leaf: 3,
                uplinks: 2,
            },
        ] {
            let want = Fabric::new(&spec, 1, Time::from_ps(1));
            let mut g = Graph::generate(&spec, Layout::Rack);
            for l in &mut g.links {
                (l.a, l.b) = (l.b, l.a);
            }
            g.links.reverse();
            let f = graph_fabric(g.clone());
            same_ports(&f, &want);
            for dst in 0..f.hosts {
                for sw in 0..f.switches.len() as u32 {
                    assert_eq!(f.route(sw, dst), want.route(sw, dst));
                }
            }
            // Switch s becomes switch (s * 11 + 3) mod n (11 is prime to these counts).
            let (hosts, n) = (g.hosts, g.switches);
            assert!(n % 11 != 0);
            let re = |v: u32| {
                if v < hosts {
                    v
                } else {
                    hosts + ((v - hosts) * 11 + 3) % n
                }
            };
            for l in &mut g.links {
                (l.a, l.b) = (re(l.a), re(l.b));
            }
            let f = graph_fabric(g);
            assert_ne!(f.port_to_node, want.port_to_node);
            check_reachability(&f, 1);
        }
    }

    /// Rail-optimized: GPU r of every server of a pod is on the pod's edge switch r, and
    /// routes reach every host.
    #[test]
    fn rail_layout_puts_each_gpu_on_its_rail() {
        let spec = TopologySpec::FatTree { k: 4 };
        let f = graph_fabric(Graph::generate(&spec, Layout::Rail));
        // k = 4: pods of 2 servers x 2 GPUs; host = server * 2 + rail.
        for host in 0..16 {
            let (server, rail) = (host / 2, host % 2);
            assert_eq!(f.edge_of(host), server / 2 * 2 + rail, "host {host}");
        }
        for u in 0..2 {
            check_reachability(&f, u);
        }
        let spec = TopologySpec::LeafSpine {
            leaves: 4,
            hosts_per_leaf: 3,
            uplinks: 2,
        };
        let f = graph_fabric(Graph::generate(&spec, Layout::Rail));
        for host in 0..12 {
            assert_eq!(f.edge_of(host), host % 4);
        }
        check_reachability(&f, 1);
    }

    /// A rail cluster of a k-ary fat tree's counts keeps the fat tree's switch layer port
    /// for port (only the hosts hang elsewhere); with one group it is a leaf-spine of rails.
    /// Other counts: every route arrives.
    #[test]
    fn a_rail_cluster_of_fat_tree_counts_has_the_fat_trees_switch_layer() {
        let switch_layer = |f: &Fabric| {
            let ports = f.hosts as usize..f.ports();
            let far = |g: usize| (f.port_to_node[g] >= f.hosts).then_some(g);
            ports
                .filter_map(far)
                .map(|g| (g, f.port_to_node[g], f.port_to_local[g], f.port_stage[g]))
                .collect::<Vec<_>>()
        };
        for (spec, rail) in [
            (TopologySpec::FatTree { k: 4 }, Graph::rail(8, 2, 2, 2)),
            (TopologySpec::FatTree { k: 8 }, Graph::rail(32, 4, 4, 4)),
            (
                TopologySpec::LeafSpine {
                    leaves: 8,
                    hosts_per_leaf: 6,
                    uplinks: 3,
                },
                Graph::rail(6, 8, 6, 3),
            ),
        ] {
            let rack = Fabric::new(&spec, 1, Time::from_ps(1));
            let rail = graph_fabric(rail);
            assert_eq!(switch_layer(&rail), switch_layer(&rack), "{spec:?}");
            assert_ne!(
                rail.port_to_node, rack.port_to_node,
                "{spec:?}: hosts moved"
            );
        }
        // 4 groups of 3 servers x 2 GPUs, 3 uplinks per rail switch: every route arrives.
        let f = graph_fabric(Graph::rail(12, 2, 3, 3));
        assert_eq!((f.hosts, f.tiers), (24, 3));
        for u in 0..3 {
            check_reachability(&f, u);
        }
    }

    /// P planes: P copies side by side, a server's NICs consecutive hosts, every route inside
    /// a plane arriving over the plane's hops; numbering the hosts otherwise is refused.
    #[test]
    fn planes_are_copies_side_by_side() {
        for spec in [
            TopologySpec::FatTree { k: 4 },
            TopologySpec::LeafSpine {
                leaves: 3,
                hosts_per_leaf: 2,
                uplinks: 2,
            },
        ] {
            let one = Fabric::new(&spec, 1, Time::from_ps(1));
            let g = Graph::generate(&spec, Layout::Rack).planes(2);
            let f = graph_fabric(g.clone());
            assert_eq!((f.planes, f.hosts), (2, 2 * one.hosts));
            assert_eq!(f.switches.len(), 2 * one.switches.len());
            for u in 0..2 {
                check_reachability(&f, u);
            }
            // Host 0 and host 1 (server 0's two NICs) swap places: refused.
            let mut g = g;
            for l in &mut g.links {
                for n in [&mut l.a, &mut l.b] {
                    *n = match *n {
                        0 => 1,
                        1 => 0,
                        n => n,
                    };
                }
            }
            let e = g.clos().unwrap_err();
            assert!(e.contains("host h is in plane h mod 2"), "{e}");
        }
    }

    /// Links above the NICs may run at their own rate: their ports do, both ways; the
    /// NICs and the ports down to hosts run at the NICs' rate.
    #[test]
    fn switch_links_run_at_their_own_rate() {
        let mut g = Graph::generate(&TopologySpec::FatTree { k: 4 }, Layout::Rack);
        for l in &mut g.links {
            l.rate_bps = Some(if l.a.min(l.b) < g.hosts { 100 } else { 400 });
        }
        let f = graph_fabric(g);
        assert_eq!(f.port_rate.len(), f.ports());
        for (port, &rate) in f.port_rate.iter().enumerate() {
            let host_side = port < 16 || f.port_to_node[port] < 16;
            assert_eq!(rate, if host_side { 1 } else { 400 }, "port {port}");
        }
        // At one rate (given or not) nothing is kept.
        let f = graph_fabric(Graph::generate(
            &TopologySpec::FatTree { k: 4 },
            Layout::Rack,
        ));
        assert!(f.port_rate.is_empty());
    }

    /// Graphs that are not a 2- or 3-tier Clos are refused, each with what is wrong.
    #[test]
    fn graphs_that_are_not_clos_fabrics_are_refused() {
        let base = Graph::generate(&TopologySpec::FatTree { k: 4 }, Layout::Rack);
        let refuse = |edit: &dyn Fn(&mut Graph), want: &str| {
            let mut g = base.clone();
            edit(&mut g);
            let e = g.clos().unwrap_err();
            assert!(e.contains(want), "{e:?} should say {want:?}");
        };
        let link = |a, b| super::super::graph::Link {
            a,
            b,
            rate_bps: None,
            delay_ps: None,
        };
        refuse(&|g| g.links.push(link(0, 17)), "host 0 has 2 links");
        refuse(&|g| g.links.push(link(0, 1)), "host 0 has 2 links");
        // An edge switch (node 16) that misses one aggregation switch of its pod.
        refuse(
            &|g| {
                let i = g.links.iter().position(|l| l.a == 16 && l.b >= 24).unwrap();
                g.links.remove(i);
            },
            "switch node 16 links to aggregation switches",
        );
        // An edge switch linked straight to a core.
        refuse(&|g| g.links.push(link(16, 35)), "joins tiers");
        refuse(
            &|g| {
                g.links[3].rate_bps = Some(10);
                g.links[4].rate_bps = Some(20);
            },
            "every NIC runs at one rate",
        );
        refuse(
            &|g| g.links.push(link(0, 99)),
            "allowed, two different nodes",
        );
        refuse(&|g| g.switches += 1, "is not connected to any host");
    }

    /// A `w` x `w` torus of switches, `per` hosts on each (switch `(x, y)` is node
    /// `hosts + y * w + x`).
    fn torus(w: u32, per: u32) -> Graph {
        let hosts = w * w * per;
        let link = |a, b| super::super::graph::Link {
            a,
            b,
            rate_bps: None,
            delay_ps: None,
        };
        let sw = |x: u32, y: u32| hosts + (y % w) * w + x % w;
        let mut links: Vec<_> = (0..hosts).map(|h| link(h, hosts + h / per)).collect();
        for y in 0..w {
            for x in 0..w {
                links.push(link(sw(x, y), sw(x + 1, y)));
                links.push(link(sw(x, y), sw(x, y + 1)));
            }
        }
        Graph {
            hosts,
            switches: w * w,
            links,
        }
    }

    /// Any other connected graph is routed on shortest paths: every route arrives over the
    /// fewest links, whichever next hop each switch takes; what no routing overcomes stays
    /// refused.
    #[test]
    fn graphs_that_are_not_clos_fabrics_are_routed_on_shortest_paths() {
        let t = graph_fabric(torus(4, 2));
        assert_eq!((t.tiers, t.edge_keys, t.switches.len()), (1, 16, 16));
        let s = t.shortest.as_ref().expect("a torus is not a Clos");
        assert!(s.why.contains("joins tiers"), "{}", s.why);
        // Switch (0, 0) to (2, 2): 4 links, and each of its 4 neighbours is one closer.
        assert_eq!((s.distance(0, 10), s.next_hops(0, 10).count_ones()), (4, 4));
        // To (1, 0): 1 link, by one neighbour.
        assert_eq!((s.distance(0, 1), s.next_hops(0, 1).count_ones()), (1, 1));
        assert_eq!((t.hops(0, 20), t.hops(0, 1), s.diameter()), (6, 2, 4));
        let base = Graph::generate(&TopologySpec::FatTree { k: 4 }, Layout::Rack);
        let mut shortcut = base.clone();
        shortcut.links.push(super::super::graph::Link {
            a: 16,
            b: 35,
            rate_bps: None,
            delay_ps: None,
        });
        let mut missing = base.clone();
        let i = missing.links.iter().position(|l| l.a == 16 && l.b >= 24);
        missing.links.remove(i.unwrap());
        for g in [torus(4, 2), torus(3, 1), shortcut, missing] {
            let f = graph_fabric(g);
            assert!(f.shortest.is_some());
            for u in 0..4 {
                check_reachability(&f, u);
            }
        }
        // The fabric's order and ports follow the graph, not how it lists its links.
        let mut shuffled = torus(4, 2);
        shuffled.links.reverse();
        let (a, b) = (graph_fabric(torus(4, 2)), graph_fabric(shuffled));
        assert_eq!(a.port_to_node, b.port_to_node);
        assert_eq!(a.port_to_local, b.port_to_local);
        let mut twice = torus(3, 1);
        twice.links.push(twice.links[9]);
        let e = twice.analyse().unwrap_err();
        assert!(e.contains("are linked twice"), "{e}");
        let mut two = base;
        two.links.push(super::super::graph::Link {
            a: 0,
            b: 17,
            rate_bps: None,
            delay_ps: None,
        });
        assert!(two.analyse().unwrap_err().contains("host 0 has 2 links"));
    }
}

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

    /// The stage's report name; 2-tier fabrics use leaf/spine names.
    pub fn name(self, tiers: u32) -> &'static str {
        match (self, tiers) {
            (Stage::HostUp, _) => "host-up",
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
        }
    }

    /// Hosts under one edge (leaf) switch.
    pub fn hosts_per_rack(&self) -> u32 {
        match *self {
            TopologySpec::FatTree { k } => k / 2,
            TopologySpec::LeafSpine { hosts_per_leaf, .. } => hosts_per_leaf,
        }
    }

    /// Links on the longest host-to-host path.
    pub fn longest_path_hops(&self) -> u32 {
        match self {
            TopologySpec::FatTree { .. } => 6,
            // One leaf: a single switch.
            TopologySpec::LeafSpine { leaves: 1, .. } => 2,
            TopologySpec::LeafSpine { .. } => 4,
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
#[derive(Clone, Copy, Debug)]
struct HostLoc {
    edge: u32,
    pod: u32,
    port_on_edge: u32,
    edge_in_pod: u32,
}

/// The static fabric: nodes, ports and their wiring. Runtime state lives in [`super::Ports`].
pub struct Fabric {
    pub tiers: u32,
    pub hosts: u32,
    pub switches: Vec<SwitchInfo>,
    /// Per global port: receiving node, and the ingress local port index there.
    pub port_to_node: Vec<u32>,
    pub port_to_local: Vec<u32>,
    pub port_stage: Vec<Stage>,
    pub rate_bps: u64,
    pub delay_ps: Time,
    /// Hosts under one edge switch, edge switches per pod, hosts per pod (3 tiers).
    hosts_per_edge: u32,
    edges_per_pod: u32,
    hosts_per_pod: u32,
    /// Where each host sits.
    host_loc: Vec<HostLoc>,
    /// Number of Ofan keys at edge (destination edges) and aggregation (pods) switches.
    pub edge_keys: u32,
    pub agg_keys: u32,
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

    pub fn new(spec: &TopologySpec, rate_bps: u64, delay_ps: Time) -> Self {
        let mut f = match *spec {
            TopologySpec::FatTree { k } => Self::fat_tree(k, rate_bps, delay_ps),
            TopologySpec::LeafSpine {
                leaves,
                hosts_per_leaf,
                uplinks,
            } => Self::leaf_spine(leaves, hosts_per_leaf, uplinks, rate_bps, delay_ps),
        };
        f.locate_hosts();
        f
    }

    fn empty(tiers: u32, hosts: u32, rate_bps: u64, delay_ps: Time) -> Self {
        Self {
            tiers,
            hosts,
            switches: Vec::new(),
            port_to_node: Vec::new(),
            port_to_local: Vec::new(),
            port_stage: Vec::new(),
            rate_bps,
            delay_ps,
            hosts_per_edge: 0,
            edges_per_pod: 0,
            hosts_per_pod: 0,
            host_loc: Vec::new(),
            edge_keys: 0,
            agg_keys: 0,
        }
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

    fn fat_tree(k: u32, rate_bps: u64, delay_ps: Time) -> Self {
        let h = k / 2;
        let hosts = k * h * h;
        let mut f = Self::empty(3, hosts, rate_bps, delay_ps);
        f.hosts_per_edge = h;
        f.edges_per_pod = h;
        f.hosts_per_pod = h * h;
        f.edge_keys = k * h;
        f.agg_keys = k;
        let edge_node = |e: u32| hosts + e;
        let agg_node = |a: u32| hosts + k * h + a;
        let core_node = |c: u32| hosts + 2 * k * h + c;
        // Host NICs.
        for host in 0..hosts {
            f.push_port(edge_node(host / h), host % h, Stage::HostUp);
        }
        // Edge switches (pod p = e / h): down to hosts, up to aggregation switches of pod p.
        for e in 0..k * h {
            f.push_switch(Tier::Edge, e, k, h);
            let pod = e / h;
            for i in 0..h {
                f.push_port(e * h + i, 0, Stage::EdgeDown);
            }
            for j in 0..h {
                f.push_port(agg_node(pod * h + j), e % h, Stage::EdgeUp);
            }
        }
        // Aggregation switches (pod p, index j): down to edges, up to cores j*h .. j*h+h-1.
        for a in 0..k * h {
            f.push_switch(Tier::Agg, a / h, k, h);
            let (pod, j) = (a / h, a % h);
            for i in 0..h {
                f.push_port(edge_node(pod * h + i), h + j, Stage::AggDown);
            }
            for u in 0..h {
                f.push_port(core_node(j * h + u), pod, Stage::AggUp);
            }
        }
        // Cores: port p goes down to pod p's aggregation switch j = c / h.
        for c in 0..h * h {
            f.push_switch(Tier::Core, 0, k, k);
            for pod in 0..k {
                f.push_port(agg_node(pod * h + c / h), h + c % h, Stage::CoreDown);
            }
        }
        f
    }

    fn leaf_spine(leaves: u32, hpl: u32, uplinks: u32, rate_bps: u64, delay_ps: Time) -> Self {
        let hosts = leaves * hpl;
        let mut f = Self::empty(2, hosts, rate_bps, delay_ps);
        f.hosts_per_edge = hpl;
        f.edges_per_pod = leaves;
        f.hosts_per_pod = hosts;
        f.edge_keys = leaves;
        for host in 0..hosts {
            f.push_port(hosts + host / hpl, host % hpl, Stage::HostUp);
        }
        for l in 0..leaves {
            f.push_switch(Tier::Edge, l, hpl + uplinks, hpl);
            for i in 0..hpl {
                f.push_port(l * hpl + i, 0, Stage::EdgeDown);
            }
            for s in 0..uplinks {
                f.push_port(hosts + leaves + s, l, Stage::EdgeUp);
            }
        }
        for s in 0..uplinks {
            f.push_switch(Tier::Core, 0, leaves, leaves);
            for l in 0..leaves {
                f.push_port(hosts + l, hpl + s, Stage::CoreDown);
            }
        }
        f
    }

    /// Fills the per-host location table (divisions done once, not per packet).
    fn locate_hosts(&mut self) {
        self.host_loc = (0..self.hosts)
            .map(|h| {
                let edge = h / self.hosts_per_edge;
                HostLoc {
                    edge,
                    pod: h / self.hosts_per_pod,
                    port_on_edge: h % self.hosts_per_edge,
                    edge_in_pod: edge % self.edges_per_pod,
                }
            })
            .collect();
    }

    /// The edge switch (leaf) of `host`, as an index among edge switches.
    #[inline]
    pub fn edge_of(&self, host: u32) -> u32 {
        self.host_loc[host as usize].edge
    }

    /// Uplinks of the switches of `tier` (all equal in a fat tree; 1 if the tier is absent).
    pub fn uplinks_of(&self, tier: Tier) -> u32 {
        self.switches
            .iter()
            .find(|s| s.tier == tier)
            .map_or(1, |s| s.uplinks().max(1))
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
            Tier::Core if self.tiers == 3 => Route::Down(to.pod),
            Tier::Core => Route::Down(to.edge),
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
        } else if self.tiers == 2 || a.pod == b.pod {
            4
        } else {
            6
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Following routes (always taking uplink 0) from every host reaches every destination
    /// over the expected number of hops.
    fn check_reachability(f: &Fabric, up_choice: u32) {
        for src in 0..f.hosts {
            for dst in 0..f.hosts {
                if src == dst {
                    continue;
                }
                let mut port = f.nic(src).port();
                assert_eq!(f.port_stage[port as usize], Stage::HostUp);
                let mut hops = 1;
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
                        Route::Up { .. } => info.down + up_choice % info.uplinks(),
                    };
                    port = info.port_base + local;
                    hops += 1;
                    assert!(hops <= 6);
                }
                assert_eq!(hops, f.hops(src, dst));
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
}

//! A fabric as data: hosts, switches and the links between them.
//!
//! Every fabric fabsim simulates is a [`Graph`] first. The built-in shapes (k-ary fat tree,
//! leaf-spine, single switch, and their rail-optimized numbering) are generators of one
//! ([`Graph::generate`]); a topology file is read into one (`scenario::topofile`). A graph
//! is then analysed as a Clos ([`Graph::clos`]): its tiers found from the hosts up, its pods,
//! and a canonical order of its switches and of every switch's ports, which is all the
//! routing needs ([`super::Fabric`]).
//!
//! Numbering. Hosts are nodes `0..hosts`, switches `hosts..hosts + switches`. A graph's own
//! switch numbering is free; the fabric renumbers switches tier by tier (edges, then
//! aggregation switches, then cores), pod by pod, keeping the graph's order within each.
//! Hosts keep their numbers, so a workload's host ids mean the same in the file and in the
//! run.

use std::collections::HashMap;
use std::sync::Arc;

use crate::engine::Time;

use super::mesh::Shortest;

use super::topology::{Tier, TopologySpec};

/// A bidirectional link between two nodes: one egress port at each end. Its rate and
/// delay where the graph says them (a file may; the generators leave them to `link.*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Link {
    pub a: u32,
    pub b: u32,
    pub rate_bps: Option<u64>,
    pub delay_ps: Option<Time>,
}

/// Hosts `0..hosts`, switches `hosts..hosts + switches`, and the links.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Graph {
    pub hosts: u32,
    pub switches: u32,
    pub links: Vec<Link>,
}

/// A graph analysed as a 2- or 3-tier Clos ([`Graph::clos`]), in the fabric's canonical
/// order; or, where it is not one, as one tier of switches routed on shortest paths
/// ([`Graph::analyse`], `shortest`).
///
/// Architecture Invariant: every host has one link, to an edge switch; an edge switch links
/// to every aggregation switch of its pod once (3 tiers) or to every spine once (2 tiers);
/// every core (spine) links to one aggregation switch of every pod (to every leaf) once. So
/// an uplink choice at an edge fixes the aggregation switch in the destination pod too, and
/// the down path from any switch to a host is unique. Without `shortest` only: with it,
/// every host still has one link, and a switch's next hops toward a host's edge switch are
/// its uplinks one link closer to it.
#[derive(Clone, Debug, PartialEq)]
pub struct Clos {
    /// 2 or 3 (a single switch: 2, with one edge and no spines); 1 for a graph routed on
    /// shortest paths.
    pub tiers: u32,
    /// The graph's switch nodes in the fabric's order (edges, aggregation switches, cores).
    pub order: Vec<u32>,
    /// Per switch of `order`: its tier, and its group (an edge's index among edges, an
    /// aggregation switch's pod, 0 for cores).
    pub tier: Vec<(Tier, u32)>,
    /// Per switch of `order`: the graph nodes its ports lead to, down ports first, each side
    /// in the fabric's order.
    pub ports: Vec<Vec<u32>>,
    /// Per switch of `order`: how many of its ports face down.
    pub down: Vec<u32>,
    /// Edge switches, pods (3 tiers; a plane's leaves otherwise), planes (the fabric's
    /// connected parts, alike), edge switches per pod.
    pub edges: u32,
    pub pods: u32,
    pub planes: u32,
    pub edges_per_pod: u32,
    /// The host links' rate (the NICs') and every link's delay, where the graph gives them
    /// (one of each).
    pub rate_bps: Option<u64>,
    pub delay_ps: Option<Time>,
    /// The rates the graph gives switch-to-switch links, by their ends (lower node first):
    /// the others run at the NICs' rate.
    pub switch_rates: HashMap<(u32, u32), u64>,
    /// A graph that is not a Clos: its shortest-path routing. Its switches are then one
    /// tier (`tiers` 1), edge switches (those with hosts) first, each a pod of its own.
    pub shortest: Option<Arc<Shortest>>,
}

impl Clos {
    /// Whether some switch-to-switch link runs at another rate than the NICs' `nic_bps`.
    pub fn mixed_rates(&self, nic_bps: u64) -> bool {
        self.switch_rates.values().any(|&r| r != nic_bps)
    }

    /// Hosts per edge switch, if every edge has the same number, and the endpoints rack by
    /// rack: a rack is the hosts of one edge switch of plane 0, each as its endpoint (host /
    /// planes; the other planes are copies).
    pub fn racks(&self) -> Option<(u32, Vec<u32>)> {
        let size = self.down[0];
        if self.down[..self.edges as usize].iter().any(|&d| d != size) {
            return None;
        }
        let order = (self.ports.iter().take((self.edges / self.planes) as usize))
            .flat_map(|p| p[..size as usize].iter().map(|&h| h / self.planes))
            .collect();
        Some((size, order))
    }

    /// Port counts of the edge switches and of the other switches (the largest of each).
    pub fn radixes(&self) -> (u32, u32) {
        let radix = |r: std::ops::Range<usize>| {
            self.ports[r]
                .iter()
                .map(|p| p.len() as u32)
                .max()
                .unwrap_or(0)
        };
        let e = self.edges as usize;
        let other = radix(e..self.ports.len());
        (radix(0..e), if other == 0 { radix(0..e) } else { other })
    }
}

impl Graph {
    /// The graph of a built-in shape, its hosts numbered by `layout` (rail-optimized: the
    /// rail cluster of the shape's counts, [`Graph::rail`]).
    pub fn generate(spec: &TopologySpec, layout: Layout) -> Graph {
        if layout == Layout::Rail {
            match *spec {
                TopologySpec::FatTree { k } => {
                    let h = k / 2;
                    return Graph::rail(k * h, h, h, h);
                }
                TopologySpec::LeafSpine {
                    leaves,
                    hosts_per_leaf,
                    uplinks,
                } => return Graph::rail(hosts_per_leaf, leaves, hosts_per_leaf, uplinks),
                TopologySpec::Graph(_) => {}
            }
        }
        let mut g = Graph {
            hosts: spec.hosts() as u32,
            switches: 0,
            links: Vec::new(),
        };
        let mut link = |a: u32, b: u32| {
            g.links.push(Link {
                a,
                b,
                rate_bps: None,
                delay_ps: None,
            })
        };
        match *spec {
            TopologySpec::FatTree { k } => {
                let h = k / 2;
                let hosts = k * h * h;
                let edge = |e: u32| hosts + e;
                let agg = |a: u32| hosts + k * h + a;
                let core = |c: u32| hosts + 2 * k * h + c;
                for host in 0..hosts {
                    link(host, edge(host / h));
                }
                for e in 0..k * h {
                    for j in 0..h {
                        link(edge(e), agg(e / h * h + j));
                    }
                }
                for a in 0..k * h {
                    for u in 0..h {
                        link(agg(a), core(a % h * h + u));
                    }
                }
                g.switches = 2 * k * h + h * h;
            }
            TopologySpec::LeafSpine {
                leaves,
                hosts_per_leaf,
                uplinks,
            } => {
                let hosts = leaves * hosts_per_leaf;
                for host in 0..hosts {
                    link(host, hosts + host / hosts_per_leaf);
                }
                for l in 0..leaves {
                    for s in 0..uplinks {
                        link(hosts + l, hosts + leaves + s);
                    }
                }
                g.switches = leaves + uplinks;
            }
            TopologySpec::Graph(ref t) => return t.graph.clone(),
        }
        g
    }

    /// A rail-optimized cluster: `servers` servers of `gpus` GPUs (one NIC each: hosts
    /// `s * gpus + g`), in groups of `group` servers. GPU `g` of every server of a group is on
    /// the group's rail switch `g`, which has `uplinks` uplinks. One group: the rail switches
    /// are leaves under `uplinks` spines. More: each group is a pod with `uplinks`
    /// aggregation switches (each linked to every rail switch of the group, and to `gpus`
    /// cores), and core `j * gpus + u` links aggregation switch `j` of every group.
    ///
    /// `rail(k k/2, k/2, k/2, k/2)` is the k-ary fat tree with rail-optimized numbering,
    /// `rail(hosts_per_leaf, leaves, hosts_per_leaf, uplinks)` the leaf-spine's.
    pub fn rail(servers: u32, gpus: u32, group: u32, uplinks: u32) -> Graph {
        let (hosts, pods) = (servers * gpus, servers / group);
        let mut links = Vec::new();
        let mut link = |a: u32, b: u32| {
            links.push(Link {
                a,
                b,
                rate_bps: None,
                delay_ps: None,
            })
        };
        let edge = |p: u32, g: u32| hosts + p * gpus + g;
        let above = hosts + pods * gpus;
        for h in 0..hosts {
            link(h, edge(h / gpus / group, h % gpus));
        }
        let switches = if pods == 1 {
            for g in 0..gpus {
                for u in 0..uplinks {
                    link(edge(0, g), above + u);
                }
            }
            gpus + uplinks
        } else {
            let agg = |p: u32, j: u32| above + p * uplinks + j;
            let core = |j: u32, u: u32| above + pods * uplinks + j * gpus + u;
            for p in 0..pods {
                for g in 0..gpus {
                    for j in 0..uplinks {
                        link(edge(p, g), agg(p, j));
                    }
                }
                for j in 0..uplinks {
                    for u in 0..gpus {
                        link(agg(p, j), core(j, u));
                    }
                }
            }
            pods * gpus + pods * uplinks + uplinks * gpus
        };
        Graph {
            hosts,
            switches,
            links,
        }
    }

    /// `planes` copies of this fabric, side by side: host `h` of plane `q` becomes host
    /// `h * planes + q` (a server's NICs, one per plane, are consecutive hosts), switch `s` of
    /// plane `q` the `q`-th copy of it.
    pub fn planes(&self, planes: u32) -> Graph {
        let switch = |n: u32, q: u32| self.hosts * planes + q * self.switches + (n - self.hosts);
        let node = |n: u32, q: u32| {
            if n < self.hosts {
                n * planes + q
            } else {
                switch(n, q)
            }
        };
        let links = (0..planes)
            .flat_map(|q| {
                self.links.iter().map(move |l| Link {
                    a: node(l.a, q),
                    b: node(l.b, q),
                    ..*l
                })
            })
            .collect();
        Graph {
            hosts: self.hosts * planes,
            switches: self.switches * planes,
            links,
        }
    }

    /// Nodes in all.
    pub fn nodes(&self) -> u32 {
        self.hosts + self.switches
    }

    /// The graph as a 2- or 3-tier Clos, or what keeps it from being one.
    pub fn clos(&self) -> Result<Clos, String> {
        super::clos::analyse(self, true)
    }

    /// The graph's routing: as a Clos where it is one, else on shortest paths; or what
    /// keeps any routing from it (a host with two links, a switch no host reaches).
    pub fn analyse(&self) -> Result<Clos, String> {
        super::clos::analyse(self, false)
    }
}

named_enum! {
    /// How hosts are numbered under the edge switches (`topology.layout`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Layout {
        /// Rack by rack: host `h` is under edge `h / hosts_per_edge`.
        Rack => "rack",
        /// Rail-optimized: a server's hosts (its GPUs, one NIC each) are consecutive ids and
        /// each hangs off another edge switch of the pod (its rail): host `s * rails + r`
        /// (server `s`, rail `r`) is on rail switch `r` of server `s`'s pod, where a pod's
        /// rails are its edge switches ([`Graph::rail`]).
        Rail => "rail",
    }
}

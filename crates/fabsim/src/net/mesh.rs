//! Any connected graph that is not a 2- or 3-tier Clos (a torus, a dragonfly, a jellyfish,
//! a tree with a missing link), routed on shortest paths: one tier of switches, each with
//! its hosts as down ports and its links to other switches as uplinks, and per (switch,
//! destination edge switch) the uplinks that lie on a shortest path to it ([`Shortest`]).
//!
//! The switches' schemes choose among those uplinks as they choose among the valid uplinks
//! under failures; a packet's path length falls by one at every hop, so no path loops.
//! Ofan's key is the destination edge switch at every switch: the one waypoint every path
//! to a host crosses. Tables take switches x edge switches x 9 bytes, built once per run.

use super::clos::{planes, Neighbours};
use super::graph::{Clos, Graph};
use super::topology::Tier;

/// Uplinks a switch of a general graph may have: the routing masks have 64 bits.
const MAX_UPLINKS: usize = 64;

/// Shortest-path routing of a graph that is not a Clos.
#[derive(Clone, Debug, PartialEq)]
pub struct Shortest {
    /// Why the graph is not a Clos (the Clos analysis's first failed check).
    pub why: String,
    /// Destination switches: the edge switches (those with hosts), `0..edges` in the
    /// fabric's order.
    edges: u32,
    /// Per (switch, destination edge): the uplinks on a shortest path, bit `u` for uplink
    /// `u` (the switch's local port `down + u`); 0 at the destination itself or where it is
    /// in another plane.
    next: Vec<u64>,
    /// Per (switch, destination edge): switch-to-switch links between them (`u8::MAX`: in
    /// another plane).
    dist: Vec<u8>,
}

impl Shortest {
    /// The uplinks of switch `sw` on a shortest path to edge switch `edge`.
    #[inline]
    pub fn next_hops(&self, sw: u32, edge: u32) -> u64 {
        self.next[(sw * self.edges + edge) as usize]
    }

    /// Switch-to-switch links from switch `sw` to edge switch `edge`.
    pub fn distance(&self, sw: u32, edge: u32) -> u32 {
        self.dist[(sw * self.edges + edge) as usize] as u32
    }

    /// The most switch-to-switch links between two edge switches of one plane.
    pub fn diameter(&self) -> u32 {
        (0..self.edges * self.edges)
            .map(|i| self.dist[i as usize])
            .filter(|&d| d != u8::MAX)
            .max()
            .unwrap_or(0) as u32
    }
}

/// `g` as one tier of switches routed on shortest paths; `why` says why it is not a Clos.
pub(super) fn analyse(g: &Graph, n: Neighbours, why: String) -> Result<Clos, String> {
    let (adj, rate_bps, delay_ps, switch_rates) = n;
    let (plane_of, planes) = planes(g, &adj)?;
    let has_hosts = |s: u32| adj[s as usize].iter().any(|&m| m < g.hosts);
    let mut order: Vec<u32> = (g.hosts..g.nodes()).collect();
    order.sort_by_key(|&s| (!has_hosts(s), plane_of[s as usize], s));
    let edges = order.iter().filter(|&&s| has_hosts(s)).count() as u32;
    // Per node: a switch's place in the fabric's order.
    let mut index = vec![0u32; g.nodes() as usize];
    for (i, &s) in order.iter().enumerate() {
        index[s as usize] = i as u32;
    }
    let mut c = Clos {
        tiers: 1,
        order: order.clone(),
        tier: Vec::with_capacity(order.len()),
        ports: Vec::with_capacity(order.len()),
        down: Vec::with_capacity(order.len()),
        edges,
        pods: edges,
        planes,
        edges_per_pod: 1,
        rate_bps,
        delay_ps,
        switch_rates,
        shortest: None,
    };
    for (i, &s) in order.iter().enumerate() {
        let (mut hosts, mut ups): (Vec<u32>, Vec<u32>) =
            adj[s as usize].iter().partition(|&&m| m < g.hosts);
        hosts.sort_unstable();
        ups.sort_unstable_by_key(|&m| index[m as usize]);
        if let Some(w) = ups.windows(2).find(|w| w[0] == w[1]) {
            return Err(format!(
                "switch nodes {s} and {} are linked twice: outside a Clos, two switches link once",
                w[0]
            ));
        }
        if ups.len() > MAX_UPLINKS {
            return Err(format!(
                "switch node {s} links to {} switches: outside a Clos, at most {MAX_UPLINKS}",
                ups.len()
            ));
        }
        let group = if (i as u32) < edges {
            i as u32
        } else {
            u32::MAX
        };
        c.tier.push((Tier::Edge, group));
        c.down.push(hosts.len() as u32);
        c.ports.push([hosts, ups].concat());
    }
    let (next, dist) = tables(&c, &index)?;
    c.shortest = Some(std::sync::Arc::new(Shortest {
        why,
        edges,
        next,
        dist,
    }));
    Ok(c)
}

/// Per (switch, destination edge) of `c`: the uplinks on a shortest path, and the distance,
/// by a breadth-first search from every edge switch.
fn tables(c: &Clos, index: &[u32]) -> Result<(Vec<u64>, Vec<u8>), String> {
    let (switches, edges) = (c.order.len(), c.edges as usize);
    // Per switch: its uplinks' far switches, as indices in the fabric's order.
    let ups: Vec<Vec<u32>> = (0..switches)
        .map(|s| {
            c.ports[s][c.down[s] as usize..]
                .iter()
                .map(|&m| index[m as usize])
                .collect()
        })
        .collect();
    let mut dist = vec![u8::MAX; switches * edges];
    let mut next = vec![0u64; switches * edges];
    let mut away = vec![u32::MAX; switches];
    let mut frontier = Vec::new();
    for e in 0..edges {
        away.fill(u32::MAX);
        away[e] = 0;
        frontier.clear();
        frontier.push(e as u32);
        let mut d = 0;
        while !frontier.is_empty() {
            d += 1;
            let mut reached = Vec::new();
            for &s in &frontier {
                for &m in &ups[s as usize] {
                    if away[m as usize] == u32::MAX {
                        away[m as usize] = d;
                        reached.push(m);
                    }
                }
            }
            frontier = reached;
        }
        for s in 0..switches {
            let Some(d) = (away[s] != u32::MAX).then_some(away[s]) else {
                continue;
            };
            dist[s * edges + e] =
                u8::try_from(d)
                    .ok()
                    .filter(|&d| d < u8::MAX)
                    .ok_or_else(|| {
                        format!(
                            "switch node {} is {d} links from switch node {}: allowed, at most 254",
                            c.order[s], c.order[e]
                        )
                    })?;
            next[s * edges + e] = (ups[s].iter().enumerate())
                .filter(|&(_, &m)| d > 0 && away[m as usize] + 1 == d)
                .fold(0, |mask, (u, _)| mask | 1 << u);
        }
    }
    Ok((next, dist))
}

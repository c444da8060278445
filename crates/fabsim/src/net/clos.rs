//! A [`Graph`] analysed as a 2- or 3-tier Clos: tiers found from the hosts up, pods as the
//! edge and aggregation switches linked together, and the canonical order of switches and
//! ports ([`Clos`]). Each check names the node or link that fails it.

use super::graph::{Clos, Graph};
use std::collections::HashMap;

use super::topology::Tier;
use crate::engine::Time;

/// The nodes each node links to, in link order; the host links' one rate and every link's
/// one delay, where the graph gives them; the switch-to-switch links' rates it gives.
pub(super) type Neighbours = (
    Vec<Vec<u32>>,
    Option<u64>,
    Option<Time>,
    HashMap<(u32, u32), u64>,
);

fn neighbours(g: &Graph) -> Result<Neighbours, String> {
    let n = g.nodes();
    let mut adj = vec![Vec::new(); n as usize];
    if g.links.is_empty() {
        return Err("the fabric has no links".into());
    }
    let (mut rate, mut delay) = (None, None);
    let mut rates = HashMap::new();
    for (i, l) in g.links.iter().enumerate() {
        if l.a >= n || l.b >= n || l.a == l.b {
            return Err(format!(
                "link {i} joins nodes {} and {}: allowed, two different nodes of 0..{n}",
                l.a, l.b
            ));
        }
        let host = l.a.min(l.b) < g.hosts;
        if l.delay_ps.is_some_and(|d| *delay.get_or_insert(d) != d) {
            return Err(format!(
                "link {i} has {:?} of delay, an earlier link {delay:?}: fabsim runs every link of a fabric with one delay",
                l.delay_ps
            ));
        }
        match l.rate_bps {
            Some(r) if host && *rate.get_or_insert(r) != r => {
                return Err(format!(
                    "host link {i} runs at {} Gb/s, an earlier one at {} Gb/s: every NIC runs at one rate (the links above may differ)",
                    r as f64 / 1e9,
                    rate.unwrap_or(r) as f64 / 1e9
                ))
            }
            Some(r) if !host => {
                rates.insert((l.a.min(l.b), l.a.max(l.b)), r);
            }
            _ => {}
        }
        adj[l.a as usize].push(l.b);
        adj[l.b as usize].push(l.a);
    }
    Ok((adj, rate, delay, rates))
}

/// Each switch's distance from the nearest host (1: an edge switch), by breadth-first search.
fn levels(g: &Graph, adj: &[Vec<u32>]) -> Result<Vec<u32>, String> {
    let mut level = vec![0u32; g.nodes() as usize];
    let mut frontier = Vec::new();
    for h in 0..g.hosts {
        match adj[h as usize][..] {
            [s] if s >= g.hosts => frontier.push(s),
            [s] => {
                return Err(format!(
                    "host {h} links to host {s}: hosts link to switches"
                ))
            }
            ref l => {
                return Err(format!(
                    "host {h} has {} links: allowed, one (its NIC, to an edge switch)",
                    l.len()
                ))
            }
        }
    }
    let mut d = 1;
    while !frontier.is_empty() {
        let mut next = Vec::new();
        for s in frontier {
            if level[s as usize] == 0 {
                level[s as usize] = d;
                next.extend(adj[s as usize].iter().filter(|&&t| t >= g.hosts));
            }
        }
        frontier = next;
        d += 1;
    }
    if let Some(s) = (g.hosts..g.nodes()).find(|&s| level[s as usize] == 0) {
        return Err(format!("switch node {s} is not connected to any host"));
    }
    Ok(level)
}

/// A Clos's links join adjacent tiers.
fn adjacent_tiers(g: &Graph, level: &[u32]) -> Result<(), String> {
    for l in &g.links {
        let (a, b) = (level[l.a as usize], level[l.b as usize]);
        if l.a >= g.hosts && l.b >= g.hosts && a.abs_diff(b) != 1 {
            return Err(format!(
                "the link between switch nodes {} and {} joins tiers {a} and {b} (counted from the hosts up): links join adjacent tiers",
                l.a, l.b
            ));
        }
    }
    Ok(())
}

/// Labels the components of `nodes` linked among themselves, numbered by first appearance.
fn components(nodes: &[u32], adj: &[Vec<u32>], inside: impl Fn(u32) -> bool) -> Vec<u32> {
    let mut label = vec![u32::MAX; adj.len()];
    let mut count = 0;
    for &start in nodes {
        if label[start as usize] != u32::MAX {
            continue;
        }
        let mut stack = vec![start];
        label[start as usize] = count;
        while let Some(n) = stack.pop() {
            for &m in &adj[n as usize] {
                if inside(m) && label[m as usize] == u32::MAX {
                    label[m as usize] = count;
                    stack.push(m);
                }
            }
        }
        count += 1;
    }
    label
}

/// `ports` must be exactly `want` (in any order, each once); returns them in `want`'s order.
fn exactly(node: u32, what: &str, ports: &[u32], want: &[u32]) -> Result<Vec<u32>, String> {
    let mut have = ports.to_vec();
    let mut sorted = want.to_vec();
    have.sort_unstable();
    sorted.sort_unstable();
    if have != sorted {
        return Err(format!(
            "switch node {node} links to {what} {have:?}; a Clos needs each of {sorted:?} once"
        ));
    }
    Ok(want.to_vec())
}

/// The switches tier by tier, pod by pod, in the fabric's order.
struct Tiers {
    /// Switch tiers: 1 (a single switch), 2 or 3.
    top: u32,
    edges: Vec<u32>,
    /// Aggregation switches (3 tiers; none otherwise).
    mid: Vec<u32>,
    /// Cores (3 tiers) or spines (2 tiers).
    cores: Vec<u32>,
    /// Per node: its pod (edge and aggregation switches on 3 tiers; every switch's plane on
    /// 2 tiers, where a plane's leaves are its one pod).
    pod_of: Vec<u32>,
    /// Per switch node: its plane (a connected part of the fabric).
    plane_of: Vec<u32>,
    pods: u32,
    planes: u32,
    /// Per pod: its edge and aggregation switches.
    edges_in: Vec<Vec<u32>>,
    mids_in: Vec<Vec<u32>>,
    /// Per plane: its cores (spines).
    cores_in: Vec<Vec<u32>>,
}

impl Tiers {
    fn new(g: &Graph, adj: &[Vec<u32>], level: &[u32]) -> Result<Self, String> {
        let top = (g.hosts..g.nodes())
            .map(|s| level[s as usize])
            .max()
            .unwrap_or(0);
        let at = |d: u32| -> Vec<u32> {
            (g.hosts..g.nodes())
                .filter(|&s| level[s as usize] == d)
                .collect()
        };
        let (edges, mid, cores) = match top {
            1 | 2 => (at(1), Vec::new(), at(2)),
            3 => (at(1), at(2), at(3)),
            _ => {
                return Err(format!(
                    "the fabric has {top} tiers of switches: allowed, 1 to 3"
                ))
            }
        };
        let (plane_of, planes) = planes(g, adj)?;
        let mut edges = edges;
        edges.sort_by_key(|&e| (plane_of[e as usize], e));
        // Pods: edge and aggregation switches linked together (3 tiers), numbered plane by
        // plane; a plane's leaves otherwise.
        let pod_of = if top == 3 {
            components(&edges, adj, |m| matches!(level[m as usize], 1 | 2))
        } else {
            plane_of.clone()
        };
        let pods = edges
            .iter()
            .map(|&e| pod_of[e as usize] + 1)
            .max()
            .unwrap_or(1);
        let by_pod = |v: Vec<u32>| {
            let mut v = v;
            v.sort_by_key(|&s| (pod_of[s as usize], s));
            let mut per = vec![Vec::new(); pods as usize];
            for &s in &v {
                per[pod_of[s as usize] as usize].push(s);
            }
            (v, per)
        };
        let ((edges, edges_in), (mid, mids_in)) = (by_pod(edges), by_pod(mid));
        let cores_in = alike(&edges_in, &mids_in, &cores, &plane_of, planes)?;
        Ok(Tiers {
            top,
            edges,
            mid,
            cores,
            pod_of,
            plane_of,
            pods,
            planes,
            edges_in,
            mids_in,
            cores_in,
        })
    }

    /// Per edge switch: its hosts by id, then its uplinks in the fabric's order.
    fn edge_ports(&self, g: &Graph, adj: &[Vec<u32>], c: &mut Clos) -> Result<(), String> {
        let up_of_edge = if self.top == 3 {
            &self.mids_in
        } else {
            &self.cores_in
        };
        let above = if self.top == 3 {
            "aggregation switches"
        } else {
            "spines"
        };
        for (i, &e) in self.edges.iter().enumerate() {
            let (mut hosts, ups): (Vec<u32>, Vec<u32>) =
                adj[e as usize].iter().partition(|&&n| n < g.hosts);
            hosts.sort_unstable();
            let want = &up_of_edge[self.pod_of[e as usize] as usize];
            c.down.push(hosts.len() as u32);
            c.tier.push((Tier::Edge, i as u32));
            c.ports
                .push([hosts, exactly(e, above, &ups, want)?].concat());
        }
        Ok(())
    }

    /// Per aggregation switch: its pod's edge switches, then its cores, in the fabric's order.
    fn agg_ports(&self, adj: &[Vec<u32>], level: &[u32], c: &mut Clos) -> Result<(), String> {
        let mut uplinks = None;
        for &a in &self.mid {
            let below = self.edges_in[self.pod_of[a as usize] as usize].clone();
            let mut ups: Vec<u32> = adj[a as usize]
                .iter()
                .copied()
                .filter(|&n| level[n as usize] == 3)
                .collect();
            ups.sort_unstable();
            if *uplinks.get_or_insert(ups.len()) != ups.len() || ups.is_empty() {
                return Err(format!(
                    "aggregation switch node {a} has {} core links, another {}: allowed, the same number (at least 1) on every one",
                    ups.len(),
                    uplinks.unwrap_or(0)
                ));
            }
            c.down.push(below.len() as u32);
            c.tier.push((Tier::Agg, self.pod_of[a as usize]));
            c.ports.push([below, ups].concat());
        }
        Ok(())
    }

    /// Per core (spine): one aggregation switch per pod (every leaf), in pod (leaf) order.
    fn core_ports(&self, adj: &[Vec<u32>], c: &mut Clos) -> Result<(), String> {
        for &core in &self.cores {
            let mut below = adj[core as usize].clone();
            below.sort_by_key(|&s| (self.pod_of[s as usize], s));
            let plane = self.plane_of[core as usize];
            let one_each = if self.top == 3 {
                let per = self.pods / self.planes;
                below
                    .iter()
                    .map(|&s| self.pod_of[s as usize])
                    .eq(plane * per..(plane + 1) * per)
            } else {
                below == self.edges_in[plane as usize]
            };
            if !one_each {
                let what = if self.top == 3 {
                    "one aggregation switch in each pod of its plane"
                } else {
                    "every leaf of its plane once"
                };
                return Err(format!(
                    "core node {core} links to {below:?}: a Clos needs {what}"
                ));
            }
            c.down.push(below.len() as u32);
            c.tier.push((Tier::Core, 0));
            c.ports.push(below);
        }
        Ok(())
    }
}

/// Checks that pods are alike (edge and aggregation switches per pod) and planes too
/// (pods and cores per plane); returns each plane's cores.
fn alike(
    edges_in: &[Vec<u32>],
    mids_in: &[Vec<u32>],
    cores: &[u32],
    plane_of: &[u32],
    planes: u32,
) -> Result<Vec<Vec<u32>>, String> {
    let (e0, m0) = (edges_in[0].len(), mids_in[0].len());
    for (p, (e, m)) in edges_in.iter().zip(mids_in).enumerate().skip(1) {
        if e.len() != e0 || m.len() != m0 {
            return Err(format!(
                "pod {p} has {} edge and {} aggregation switches, pod 0 {e0} and {m0}: pods are alike",
                e.len(),
                m.len()
            ));
        }
    }
    let mut cores_in = vec![Vec::new(); planes as usize];
    for &c in cores {
        cores_in[plane_of[c as usize] as usize].push(c);
    }
    let pods = edges_in.len() as u32;
    if !pods.is_multiple_of(planes) || cores_in.iter().any(|c| c.len() != cores_in[0].len()) {
        return Err(format!(
            "the fabric's {planes} planes differ ({pods} pods, cores per plane {:?}): planes are alike",
            cores_in.iter().map(Vec::len).collect::<Vec<_>>()
        ));
    }
    Ok(cores_in)
}

/// Planes: the fabric's connected parts, numbered by their first host. With several, host
/// `h` must be in plane `h % planes`: a server's NICs, one per plane, are consecutive hosts.
pub(super) fn planes(g: &Graph, adj: &[Vec<u32>]) -> Result<(Vec<u32>, u32), String> {
    let edge_of: Vec<u32> = (0..g.hosts).map(|h| adj[h as usize][0]).collect();
    let plane_of = components(&edge_of, adj, |m| m >= g.hosts);
    let plane = |h: u32| plane_of[edge_of[h as usize] as usize];
    let planes = (0..g.hosts).map(|h| plane(h) + 1).max().unwrap_or(1);
    if let Some(h) = (0..g.hosts).find(|&h| plane(h) != h % planes) {
        return Err(format!(
            "the fabric has {planes} disconnected planes and host {h} is in plane {}: with planes, host h is in plane h mod {planes} (a server's NICs, one per plane, are consecutive hosts)",
            plane(h)
        ));
    }
    Ok((plane_of, planes))
}

/// The graph's analysis: as a 2- or 3-tier Clos where it is one (`strict`: or the reason it
/// is not), else routed on shortest paths ([`super::mesh`]). Errors that no routing
/// overcomes (a host with two links, a switch no host reaches, unlike delays) come first.
pub(super) fn analyse(g: &Graph, strict: bool) -> Result<Clos, String> {
    let n = neighbours(g)?;
    let level = levels(g, &n.0)?;
    match clos(g, &n, &level) {
        Err(why) if !strict => super::mesh::analyse(g, n, why),
        c => c,
    }
}

fn clos(g: &Graph, n: &Neighbours, level: &[u32]) -> Result<Clos, String> {
    let (adj, rate_bps, delay_ps, rates) = n;
    let (adj, level) = (&adj[..], level);
    adjacent_tiers(g, level)?;
    let t = Tiers::new(g, adj, level)?;
    let mut c = Clos {
        tiers: t.top.max(2),
        order: [&t.edges[..], &t.mid, &t.cores].concat(),
        tier: Vec::new(),
        ports: Vec::new(),
        down: Vec::new(),
        edges: t.edges.len() as u32,
        pods: t.pods,
        planes: t.planes,
        edges_per_pod: t.edges_in[0].len() as u32,
        rate_bps: *rate_bps,
        delay_ps: *delay_ps,
        switch_rates: rates.clone(),
        shortest: None,
    };
    t.edge_ports(g, adj, &mut c)?;
    t.agg_ports(adj, level, &mut c)?;
    t.core_ports(adj, &mut c)?;
    Ok(c)
}

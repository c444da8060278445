//! Link failures: which switch-to-switch links are down, which uplinks stay valid, and the
//! rate `rho_max` hosts can sustain on what is left.
//!
//! Links are named by their upper end's tier and index within the tier: `edge5-agg3`,
//! `agg3-core7` (3 tiers), `leaf2-spine1` (2 tiers). A failed link is down in both
//! directions. Host links never fail.
//!
//! Valid uplinks. A switch may send a packet up only toward a shortest path that still
//! reaches the destination:
//! - an aggregation switch, for a destination pod: the uplink and the core's link down to
//!   that pod are alive (below that, the down path depends on the edge, which the edge
//!   switch already checked);
//! - an edge (leaf) switch, for a destination edge: the uplink is alive and from its far end
//!   some valid way down reaches the destination edge.
//!
//! Every load balancer picks among the valid uplinks only (and a source-routed up path that
//! hits an invalid uplink falls back to the switch's own choice), so no packet is ever sent
//! on a dead link. A failure set that leaves some edge without any valid uplink toward some
//! destination is refused.
//!
//! `rho_max`. Split each flow, at each switch, evenly over its valid uplinks toward the
//! destination (the perfectly balanced split Ofan's rotation produces; the down path is
//! unique), and let every host send at a common rate rho, shared by its flows in proportion
//! to their bytes. A switch-to-switch link then carries rho times the sum of its flows'
//! fractions; `rho_max = min(1, min over links of 1 / that sum)` is the largest rate no
//! link exceeds. Data packets only; exact for permutations, where each host has one flow.

use crate::engine::Rng;

use super::topology::{Fabric, Route, Tier, TopologySpec};
use crate::flow::FlowSpec;

/// Which links fail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FailureSpec {
    /// This many links, drawn at random from the run's `failures` stream (links whose
    /// failure would disconnect a pair of hosts are skipped; a draw stuck short of the count
    /// is drawn again keeping up the fewest links that connect every edge switch, so that any
    /// count [`FailureSpec::check`] allows fails).
    Count(u32),
    /// These links, by name.
    Links(Vec<String>),
}

impl FailureSpec {
    /// Checks the failure set against the fabric's wiring (rates do not matter): a count at
    /// most the fabric's switch-to-switch links, names that exist and do not disconnect it.
    pub fn check(&self, topology: &TopologySpec) -> Result<(), String> {
        let fabric = Fabric::new(topology, 1, crate::engine::Time::from_ps(1));
        if fabric.shortest.is_some() {
            // The valid-uplink masks follow a Clos's up-down paths.
            return Err(
                "link failures on a fabric routed on shortest paths (not a Clos) are not supported; allowed: a 2- or 3-tier Clos".into(),
            );
        }
        if fabric.planes > 1 {
            // The valid-uplink masks follow one plane's tree: not built across planes.
            return Err(format!(
                "link failures on a fabric of {} planes are not supported; allowed: a fabric of one plane (topology.planes = 1)",
                fabric.planes
            ));
        }
        // Valid uplinks are a 64-bit mask per (switch, key).
        let most = fabric
            .switches
            .iter()
            .map(|s| s.uplinks())
            .max()
            .unwrap_or(0);
        if most > u64::BITS {
            return Err(format!(
                "failures need at most {} uplinks per switch; this fabric has {most}",
                u64::BITS
            ));
        }
        match self {
            FailureSpec::Count(n) => {
                let links = links(&fabric).len();
                let (keep, how) = match (fabric.tiers, fabric.edge_keys) {
                    (3, edges) => (
                        (edges + fabric.agg_keys) as usize,
                        "every edge switch keeps an uplink, all to aggregation switches of one index, and each pod's one of them an uplink to one core",
                    ),
                    (_, leaves) if leaves > 1 => (
                        leaves as usize,
                        "every leaf keeps an uplink, all to one spine",
                    ),
                    _ => (0, "a single switch has none"),
                };
                let most = links - keep;
                if *n as usize > most {
                    return Err(format!(
                        "at most {most}: of the fabric's {links} switch-to-switch links, at least {keep} stay up so that every edge switch still reaches every other ({how})"
                    ));
                }
                Ok(())
            }
            FailureSpec::Links(_) => Failures::new(&fabric, self, 0).map(|_| ()),
        }
    }
}

/// The failed links of one run and the valid uplinks they leave.
#[derive(Debug)]
pub struct Failures {
    /// Per global port: the link is down.
    pub dead: Vec<bool>,
    /// Names of the failed links, in failing order.
    pub names: Vec<String>,
    /// Per switch, the offset of its keys in `valid`; `valid[off + key]` is the bitmask of
    /// valid uplinks toward the key.
    off: Vec<usize>,
    valid: Vec<u64>,
    /// A host under each edge switch, and in each pod (3 tiers), to route toward a key.
    rep_edge: Vec<Option<u32>>,
    rep_pod: Vec<Option<u32>>,
}

/// Every switch-to-switch link as (name, upward port).
pub fn links(f: &Fabric) -> Vec<(String, u32)> {
    let mut first = [None; 3];
    for (i, s) in f.switches.iter().enumerate() {
        let t = s.tier as usize;
        first[t] = first[t].or(Some(i as u32));
    }
    let name = |sw: u32| -> String {
        let s = &f.switches[sw as usize];
        let tier = match (s.tier, f.tiers) {
            (Tier::Edge, 2) => "leaf",
            (Tier::Core, 2) => "spine",
            (Tier::Edge, _) => "edge",
            (Tier::Agg, _) => "agg",
            (Tier::Core, _) => "core",
        };
        format!("{tier}{}", sw - first[s.tier as usize].unwrap())
    };
    let mut out = Vec::new();
    for (sw, s) in f.switches.iter().enumerate() {
        for u in 0..s.uplinks() {
            let port = s.port_base + s.down + u;
            let far = f.switch_of(f.port_to_node[port as usize]);
            out.push((format!("{}-{}", name(sw as u32), name(far)), port));
        }
    }
    out
}

impl Failures {
    /// The failures of `spec` on `f`; `Err` names an unknown link, or the hosts a named set
    /// disconnects.
    pub fn new(f: &Fabric, spec: &FailureSpec, seed: u64) -> Result<Self, String> {
        let all = links(f);
        let mut fs = Failures {
            dead: vec![false; f.ports()],
            names: Vec::new(),
            off: Vec::new(),
            valid: Vec::new(),
            rep_edge: vec![None; f.edge_keys as usize],
            rep_pod: vec![None; f.agg_keys as usize],
        };
        let core = f.switches.iter().position(|s| s.tier == Tier::Core);
        for h in (0..f.hosts).rev() {
            fs.rep_edge[f.edge_of(h) as usize] = Some(h);
            if let (3, Some(c)) = (f.tiers, core) {
                if let Route::Down(pod) = f.route(c as u32, h) {
                    fs.rep_pod[pod as usize] = Some(h);
                }
            }
        }
        let mut off = 0;
        for s in &f.switches {
            fs.off.push(off);
            off += match s.tier {
                Tier::Edge => f.edge_keys,
                Tier::Agg => f.agg_keys,
                Tier::Core => 0,
            } as usize;
        }
        fs.valid = vec![0; off];
        match spec {
            FailureSpec::Links(names) => {
                for (i, n) in names.iter().enumerate() {
                    if names[..i].contains(n) {
                        return Err(format!("each link once (link {n:?} is named twice)"));
                    }
                    let Some((_, port)) = all.iter().find(|(name, _)| name == n) else {
                        let some: Vec<&str> = all.iter().take(4).map(|l| l.0.as_str()).collect();
                        return Err(format!(
                            "unknown link {n:?}; links are named like {}",
                            some.join(", ")
                        ));
                    };
                    fs.kill(f, *port, true);
                    fs.names.push(n.clone());
                }
                fs.compute(f);
                if let Some((e, key)) = fs.disconnected(f) {
                    return Err(format!(
                        "these failures cut edge switch {e} off from edge switch {key}"
                    ));
                }
            }
            FailureSpec::Count(n) => {
                let mut order: Vec<usize> = (0..all.len()).collect();
                Rng::stream(seed, "failures").shuffle(&mut order);
                fs.draw(f, &all, &order, *n, &[]);
                if fs.names.len() < *n as usize {
                    // The draw can leave a set no further link can join (9 of 32 links at
                    // k = 4, seed 3) below the count `FailureSpec::check` allows: draw again
                    // in the same order, keeping up the fewest links that connect every edge
                    // switch (each one's first uplink, and their upper ends' first uplinks).
                    fs.dead.fill(false);
                    fs.names.clear();
                    let mut keep: Vec<u32> = Vec::new();
                    for s in f.switches.iter().filter(|s| s.tier == Tier::Edge) {
                        let up = s.port_base + s.down;
                        keep.push(up);
                        let agg = &f.switches[f.switch_of(f.port_to_node[up as usize]) as usize];
                        if agg.tier == Tier::Agg {
                            keep.push(agg.port_base + agg.down);
                        }
                    }
                    fs.draw(f, &all, &order, *n, &keep);
                }
                fs.compute(f);
            }
        }
        Ok(fs)
    }

    /// Fails the links of `all` in `order` until `n` failed, skipping those in `keep` (upward
    /// ports) and those whose failure would cut two edge switches apart.
    fn draw(&mut self, f: &Fabric, all: &[(String, u32)], order: &[usize], n: u32, keep: &[u32]) {
        for &i in order {
            if self.names.len() == n as usize {
                break;
            }
            if keep.contains(&all[i].1) {
                continue;
            }
            self.kill(f, all[i].1, true);
            self.compute(f);
            if self.disconnected(f).is_some() {
                self.kill(f, all[i].1, false);
            } else {
                self.names.push(all[i].0.clone());
            }
        }
    }

    /// Marks the link of upward `port` (both directions) down or up.
    fn kill(&mut self, f: &Fabric, port: u32, down: bool) {
        let far = f.switch_of(f.port_to_node[port as usize]);
        let back = f.switches[far as usize].port_base + f.port_to_local[port as usize];
        self.dead[port as usize] = down;
        self.dead[back as usize] = down;
    }

    fn compute(&mut self, f: &Fabric) {
        // Aggregation switches first: edge masks look through them.
        for tier in [Tier::Agg, Tier::Edge] {
            for (sw, s) in f.switches.iter().enumerate() {
                if s.tier != tier {
                    continue;
                }
                let keys = if tier == Tier::Edge {
                    f.edge_keys
                } else {
                    f.agg_keys
                };
                for key in 0..keys {
                    let mut mask = 0u64;
                    let rep = match tier {
                        Tier::Agg => self.rep_pod[key as usize],
                        _ => self.rep_edge[key as usize],
                    };
                    if let Some(rep) = rep.filter(|&h| f.route(sw as u32, h) == Route::Up { key }) {
                        for u in 0..s.uplinks() {
                            let port = s.port_base + s.down + u;
                            let far = f.port_to_node[port as usize];
                            let ok = !self.dead[port as usize]
                                && match tier {
                                    Tier::Agg => self.down_alive(f, far, rep),
                                    _ => self.reaches(f, far, rep),
                                };
                            mask |= u64::from(ok) << u;
                        }
                    }
                    self.valid[self.off[sw] + key as usize] = mask;
                }
            }
        }
    }

    /// The next hop down from `node` toward `dst` is alive.
    fn down_alive(&self, f: &Fabric, node: u32, dst: u32) -> bool {
        let sw = f.switch_of(node);
        match f.route(sw, dst) {
            Route::Down(l) => !self.dead[(f.switches[sw as usize].port_base + l) as usize],
            Route::Up { .. } => false,
        }
    }

    /// Some valid shortest path leads from `node` (a switch) to host `dst`.
    fn reaches(&self, f: &Fabric, node: u32, dst: u32) -> bool {
        if node < f.hosts {
            return node == dst;
        }
        let sw = f.switch_of(node);
        let s = &f.switches[sw as usize];
        match f.route(sw, dst) {
            Route::Down(l) => {
                let port = s.port_base + l;
                !self.dead[port as usize] && self.reaches(f, f.port_to_node[port as usize], dst)
            }
            Route::Up { key } => {
                let mask = self.valid[self.off[sw as usize] + key as usize];
                (0..s.uplinks()).any(|u| {
                    let port = s.port_base + s.down + u;
                    mask >> u & 1 == 1 && self.reaches(f, f.port_to_node[port as usize], dst)
                })
            }
        }
    }

    /// An edge switch and a destination edge it has no valid uplink toward.
    fn disconnected(&self, f: &Fabric) -> Option<(u32, u32)> {
        f.switches
            .iter()
            .enumerate()
            .filter(|(_, s)| s.tier == Tier::Edge)
            .find_map(|(sw, _)| {
                (0..f.edge_keys)
                    .filter(|&key| key != sw as u32)
                    .find(|&key| self.valid[self.off[sw] + key as usize] == 0)
                    .map(|key| (sw as u32, key))
            })
    }

    /// Bitmask of the uplinks of switch `sw` valid toward `key`.
    #[inline]
    pub fn valid(&self, sw: u32, key: u32) -> u64 {
        self.valid[self.off[sw as usize] + key as usize]
    }

    /// The largest common host rate (fraction of line rate) the links carry (see the module
    /// documentation).
    pub fn rho_max(&self, f: &Fabric, flows: &[FlowSpec]) -> f64 {
        let mut sent = vec![0u64; f.hosts as usize];
        for fl in flows {
            sent[fl.src as usize] += fl.bytes.max(1);
        }
        let mut load = vec![0f64; f.ports()];
        for fl in flows {
            let share = fl.bytes.max(1) as f64 / sent[fl.src as usize] as f64;
            self.spread(f, f.port_to_node[fl.src as usize], fl.dst, share, &mut load);
        }
        load.iter()
            .filter(|&&l| l > 0.0)
            .fold(1.0f64, |rho, &l| rho.min(1.0 / l))
    }

    fn spread(&self, f: &Fabric, node: u32, dst: u32, x: f64, load: &mut [f64]) {
        if node < f.hosts {
            return;
        }
        let sw = f.switch_of(node);
        let s = &f.switches[sw as usize];
        match f.route(sw, dst) {
            Route::Down(l) => {
                let port = s.port_base + l;
                let next = f.port_to_node[port as usize];
                if next >= f.hosts {
                    load[port as usize] += x;
                }
                self.spread(f, next, dst, x, load);
            }
            Route::Up { key } => {
                let mask = self.valid(sw, key);
                let share = x / mask.count_ones() as f64;
                for u in (0..s.uplinks()).filter(|u| mask >> u & 1 == 1) {
                    let port = s.port_base + s.down + u;
                    load[port as usize] += share;
                    self.spread(f, f.port_to_node[port as usize], dst, share, load);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Time;
    use crate::net::TopologySpec;

    fn k4() -> Fabric {
        Fabric::new(&TopologySpec::FatTree { k: 4 }, 1, Time::from_ps(1))
    }

    #[test]
    fn links_are_named_and_fail_both_ways() {
        let f = k4();
        let all = links(&f);
        // 8 edges x 2 uplinks + 8 aggregation switches x 2 uplinks.
        assert_eq!(all.len(), 32);
        assert_eq!(all[0].0, "edge0-agg0");
        assert!(all.iter().any(|l| l.0 == "agg7-core3"));
        let fs = Failures::new(&f, &FailureSpec::Links(vec!["edge0-agg0".into()]), 1).unwrap();
        assert_eq!(fs.dead.iter().filter(|&&d| d).count(), 2);
        // Edge 0 may only use uplink 1 toward every other edge.
        for key in 1..8 {
            assert_eq!(fs.valid(0, key), 0b10);
        }
        // Edge 2 (pod 1) avoids aggregation index 0 toward edge 0: agg0 cannot reach it.
        assert_eq!(fs.valid(2, 0), 0b10);
        assert_eq!(fs.valid(2, 1), 0b11);
        assert!(Failures::new(&f, &FailureSpec::Links(vec!["edge0-agg9".into()]), 1).is_err());
        let cut = FailureSpec::Links(vec!["edge0-agg0".into(), "edge0-agg1".into()]);
        assert!(Failures::new(&f, &cut, 1).unwrap_err().contains("cut"));
    }

    #[test]
    fn rho_max_follows_the_lost_capacity() {
        let f = k4();
        // Hosts 0, 1 under edge 0 send to pod 1: two flows over one surviving uplink.
        let flows: Vec<FlowSpec> = (0..2)
            .map(|src| FlowSpec {
                src,
                dst: 4 + src,
                bytes: 1000,
                start_ps: Time::ZERO,
            })
            .collect();
        let none = Failures::new(&f, &FailureSpec::Count(0), 1).unwrap();
        assert_eq!(none.rho_max(&f, &flows), 1.0);
        let one = Failures::new(&f, &FailureSpec::Links(vec!["edge0-agg0".into()]), 1).unwrap();
        assert!((one.rho_max(&f, &flows) - 0.5).abs() < 1e-12);
        // Random failures never disconnect and fail exactly the count asked.
        let many = Failures::new(&f, &FailureSpec::Count(6), 7).unwrap();
        assert_eq!(many.names.len(), 6);
        assert!(many.disconnected(&f).is_none());
    }
}

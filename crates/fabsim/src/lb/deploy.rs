//! Incremental deployment (Ofan section 6.4): a load balancer per switch tier, and a set of
//! upgraded switches running another one.
//!
//! Every switch starts with `switch.lb`; `switch.lb_edge` / `switch.lb_agg` override it per
//! tier; then, with `switch.upgrade`, exactly half of the edge and aggregation switches
//! (rounded down) run `switch.upgrade_lb`, selected by one of four strategies:
//! - `edge`: the edge switches first (all of them when edge and aggregation tiers are equal);
//! - `agg`: the aggregation switches first;
//! - `pods`: whole pods, pod 0 first (edge and aggregation switches of the first half of the
//!   pods);
//! - `random`: a uniformly random half, from the run's `upgrade` stream.
//!
//! The paper's summary does not name its four strategies; these are ours (see
//! docs/decisions.md).

use super::SwitchLbKind;
use crate::engine::Rng;
use crate::net::{Fabric, Tier};

named_enum! {
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Strategy {
        Edge => "edge",
        Agg => "agg",
        Pods => "pods",
        Random => "random",
    }
}

/// Which switches run which load balancer, beyond the fabric-wide `switch.lb`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Deployment {
    pub edge: Option<SwitchLbKind>,
    pub agg: Option<SwitchLbKind>,
    pub upgrade: Option<(Strategy, SwitchLbKind)>,
}

impl Deployment {
    pub fn is_uniform(&self) -> bool {
        *self == Deployment::default()
    }

    /// Every kind some switch may run, besides `base`.
    pub fn kinds(&self) -> impl Iterator<Item = SwitchLbKind> {
        self.edge
            .into_iter()
            .chain(self.agg)
            .chain(self.upgrade.map(|u| u.1))
    }

    /// The load balancer of every switch.
    pub fn per_switch(&self, base: SwitchLbKind, f: &Fabric, seed: u64) -> Vec<SwitchLbKind> {
        let mut kinds: Vec<SwitchLbKind> = f
            .switches
            .iter()
            .map(|s| match s.tier {
                Tier::Edge => self.edge.unwrap_or(base),
                Tier::Agg => self.agg.unwrap_or(base),
                Tier::Core => base,
            })
            .collect();
        if let Some((strategy, kind)) = self.upgrade {
            let mut lower: Vec<usize> = (0..f.switches.len())
                .filter(|&i| f.switches[i].tier != Tier::Core)
                .collect();
            let half = lower.len() / 2;
            let pod = |i: usize| {
                let s = &f.switches[i];
                // An edge switch's group is its edge index; its pod is the group of the
                // aggregation switch its first uplink reaches (leaves: all in pod 0).
                match s.tier {
                    Tier::Agg => s.group,
                    _ => {
                        let up = f.port_to_node[(s.port_base + s.down) as usize];
                        let far = &f.switches[f.switch_of(up) as usize];
                        if far.tier == Tier::Agg {
                            far.group
                        } else {
                            s.group
                        }
                    }
                }
            };
            match strategy {
                Strategy::Edge => lower.sort_by_key(|&i| f.switches[i].tier != Tier::Edge),
                Strategy::Agg => lower.sort_by_key(|&i| f.switches[i].tier != Tier::Agg),
                Strategy::Pods => lower.sort_by_key(|&i| pod(i)),
                Strategy::Random => Rng::stream(seed, "upgrade").shuffle(&mut lower),
            }
            for &i in &lower[..half] {
                kinds[i] = kind;
            }
        }
        kinds
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Time;
    use crate::net::TopologySpec;

    #[test]
    fn strategies_upgrade_exactly_half() {
        let f = Fabric::new(&TopologySpec::FatTree { k: 4 }, 1, Time::from_ps(1));
        for s in Strategy::ALL {
            let d = Deployment {
                edge: None,
                agg: None,
                upgrade: Some((s, SwitchLbKind::Pofan)),
            };
            let k = d.per_switch(SwitchLbKind::Ar, &f, 3);
            let up: Vec<usize> = (0..k.len())
                .filter(|&i| k[i] == SwitchLbKind::Pofan)
                .collect();
            assert_eq!(up.len(), 8, "{s:?}");
            let tiers: Vec<Tier> = up.iter().map(|&i| f.switches[i].tier).collect();
            match s {
                Strategy::Edge => assert!(tiers.iter().all(|&t| t == Tier::Edge)),
                Strategy::Agg => assert!(tiers.iter().all(|&t| t == Tier::Agg)),
                // Pods 0 and 1: edges 0-3 and aggregation switches 8-11.
                Strategy::Pods => assert_eq!(up, vec![0, 1, 2, 3, 8, 9, 10, 11]),
                Strategy::Random => assert!(tiers.iter().all(|&t| t != Tier::Core)),
            }
        }
        let tiers = Deployment {
            edge: Some(SwitchLbKind::Ofan),
            agg: None,
            upgrade: None,
        };
        let k = tiers.per_switch(SwitchLbKind::Ecmp, &f, 1);
        assert_eq!(k[0], SwitchLbKind::Ofan);
        assert_eq!(k[8], SwitchLbKind::Ecmp);
    }
}

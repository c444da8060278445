//! Ofan and pOfan pointers (Ofan paper sections 4.1 and 5.1, appendix F.2).
//!
//! Keys. An edge switch keeps one pointer per (destination edge switch, size class); an
//! aggregation switch one per (destination pod, size class). Size classes: data and ACK.
//! Those switches are mandatory waypoints toward the destination, so every flow to the same
//! edge (or pod) shares one pointer and the switch spreads that destination's packets evenly
//! over its uplinks. pOfan keeps one pointer per key and ingress pipe (`pipe_ports`
//! consecutive ports), so a pipe never needs another pipe's register.
//!
//! Port orders (F.2). If every pointer stepped through the uplinks in the same order, keys
//! that happen to be aligned would pick the same uplink at the same instant, the
//! synchronization the paper warns about. A pointer is a slot in `0..w`, starting at random;
//! the uplink for a slot is read from one of W*W cyclic orders derived from a single shared
//! random permutation `pi` of 0..W (W = w rounded up to a power of two) with one XOR and one
//! addition: `order_{x,y} = [((pi[i] ^ x) + y) mod W for i in 0..W if < w]`, where `(x, y)`
//! is a cheap hash of the pointer's index. No per-key state is stored beyond the pointer.
//!
//! Design note (measured, see docs/decisions.md, "Ofan port orders are per key"): re-deriving a key's order every time its
//! pointer wraps makes consecutive rounds disagree at the seam (the same uplink twice in a
//! row), which adds jitter; fixed per-key orders gave lower CCT at k = 4, 8 and 12
//! (0.73% vs 1.28%, 1.68% vs 2.28%, 2.33% vs 3.68% above the bound, 4 seeds), so the order
//! is per key, not per round.

use crate::engine::{Rng, Time};
use crate::hw::SwitchCycles;
use crate::net::{Fabric, PacketKind, Tier};

const CLASSES: u32 = 2;

/// The W*W port orders for `w` uplinks, flattened: `order(x, y)[slot]`.
pub struct PortOrders {
    w: u32,
    bits: u32,
    table: Vec<u16>,
}

impl PortOrders {
    pub fn new(w: u32, rng: &mut Rng) -> Self {
        let big = w.next_power_of_two();
        let mut pi: Vec<u32> = (0..big).collect();
        rng.shuffle(&mut pi);
        Self::from_permutation(w, &pi)
    }

    /// The orders derived from the shared permutation `pi` of `0..w.next_power_of_two()`.
    pub fn from_permutation(w: u32, pi: &[u32]) -> Self {
        let big = w.next_power_of_two();
        assert_eq!(pi.len() as u32, big);
        let mut table = Vec::with_capacity((big * big * w) as usize);
        for x in 0..big {
            for y in 0..big {
                table.extend(
                    pi.iter()
                        .map(|&p| ((p ^ x) + y) & (big - 1))
                        .filter(|&v| v < w)
                        .map(|v| v as u16),
                );
            }
        }
        Self {
            w,
            bits: big.trailing_zeros(),
            table,
        }
    }

    pub fn uplinks(&self) -> u32 {
        self.w
    }

    /// Number of distinct (x, y) orders.
    pub fn len(&self) -> usize {
        1 << (2 * self.bits)
    }

    pub fn is_empty(&self) -> bool {
        false
    }

    /// The `i`-th order as a slice of uplinks.
    pub fn order(&self, i: usize) -> &[u16] {
        let w = self.w as usize;
        &self.table[i * w..(i + 1) * w]
    }

    /// F.2: the number of distinct cyclic orders among the W*W `(x, y)` orders.
    pub fn distinct_cyclic_orders(&self) -> usize {
        crate::hw::distinct_cyclic_orders((0..self.len()).map(|i| self.order(i)))
    }

    /// F.2 over every shared permutation of `0..W` (W = `w` rounded up to a power of two),
    /// by exhaustive enumeration: how many permutations yield each number of distinct
    /// cyclic orders (`count -> permutations`). `None` when W > 8 (more than 8!
    /// permutations). The largest key is the "up to" figure of the paper.
    pub fn cyclic_order_histogram(w: u32) -> Option<std::collections::BTreeMap<usize, u64>> {
        let big = w.max(1).next_power_of_two();
        if big > 8 {
            return None;
        }
        let mut hist = std::collections::BTreeMap::new();
        let mut count = |pi: &[u32]| {
            *hist
                .entry(Self::from_permutation(w, pi).distinct_cyclic_orders())
                .or_insert(0) += 1;
        };
        // Heap's algorithm (iterative) over all permutations of 0..big.
        let mut pi: Vec<u32> = (0..big).collect();
        let mut c = vec![0usize; big as usize];
        count(&pi);
        let mut i = 0;
        while i < pi.len() {
            if c[i] < i {
                let j = if i % 2 == 0 { 0 } else { c[i] };
                pi.swap(j, i);
                count(&pi);
                c[i] += 1;
                i = 0;
            } else {
                c[i] = 0;
                i += 1;
            }
        }
        Some(hist)
    }

    /// Uplink for `slot` of the order chosen by hash `h`.
    #[inline]
    fn pick(&self, h: u32, slot: u32) -> u32 {
        let i = (h & ((1 << (2 * self.bits)) - 1)) as usize;
        self.table[i * self.w as usize + slot as usize] as u32
    }
}

/// All Ofan pointers of a fabric: one slot per (switch, key, class, pipe).
pub struct OfanPointers {
    ptr: Vec<u32>,
    /// First pointer of each switch (`u32::MAX` for switches without uplinks).
    base: Vec<u32>,
    /// Pipes per switch: 1 for Ofan.
    pipe_ports: Option<u32>,
    pipes: Vec<u32>,
    /// Port orders for edge and aggregation uplink counts.
    edge_orders: PortOrders,
    agg_orders: PortOrders,
    /// F.5's dynamic first pointer: per pointer, whether it has been used.
    started: Option<Vec<bool>>,
}

/// Chooses the port order of a pointer: a multiplicative hash of its index.
#[inline]
fn order_hash(ptr_index: u32) -> u32 {
    ((ptr_index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as u32
}

impl OfanPointers {
    pub fn new(fabric: &Fabric, pipe_ports: Option<u32>, rng: &mut Rng) -> Self {
        let mut ptr = Vec::new();
        let mut base = Vec::with_capacity(fabric.switches.len());
        let mut pipes = Vec::with_capacity(fabric.switches.len());
        for info in &fabric.switches {
            let keys = match info.tier {
                Tier::Edge => fabric.edge_keys,
                Tier::Agg => fabric.agg_keys,
                Tier::Core => 0,
            };
            let p = pipe_ports.map_or(1, |pp| info.ports.div_ceil(pp));
            pipes.push(p);
            if keys == 0 || info.uplinks() == 0 {
                base.push(u32::MAX);
                continue;
            }
            base.push(ptr.len() as u32);
            let w = info.uplinks();
            // Random starting points keep keys out of lockstep.
            for _ in 0..keys * CLASSES * p {
                ptr.push(rng.below(w as u64) as u32);
            }
        }
        let edge_orders = PortOrders::new(fabric.uplinks_of(Tier::Edge), rng);
        let agg_orders = PortOrders::new(fabric.uplinks_of(Tier::Agg), rng);
        Self {
            ptr,
            base,
            pipe_ports,
            pipes,
            edge_orders,
            agg_orders,
            started: None,
        }
    }

    /// Switches to the dynamic-first-pointer variant (paper F.5): a pointer's first packet
    /// takes the uplink with the shortest queue, and the pointer then cycles through the
    /// uplinks in plain (unshuffled) round-robin order from there.
    pub fn dynamic_first(&mut self) {
        self.started = Some(vec![false; self.ptr.len()]);
    }

    pub fn is_dynamic_first(&self) -> bool {
        self.started.is_some()
    }

    /// [`Self::next_uplink`] in the dynamic-first-pointer variant; `shortest` names the
    /// uplink with the shortest queue, asked only at the pointer's first use.
    pub fn next_uplink_dynamic(
        &mut self,
        d: (u32, Tier, u32, PacketKind, u32),
        w: u32,
        shortest: impl FnOnce() -> u32,
    ) -> u32 {
        let (sw, _, key, kind, in_local) = d;
        let i = self.index(sw, key, kind, in_local) as usize;
        let started = self.started.as_mut().expect("dynamic first pointer");
        if !started[i] {
            started[i] = true;
            self.ptr[i] = shortest();
        }
        let uplink = self.ptr[i];
        self.ptr[i] = if uplink + 1 == w { 0 } else { uplink + 1 };
        uplink
    }

    /// Index of the pointer for this key, class and ingress port at switch `sw`.
    #[inline]
    fn index(&self, sw: u32, key: u32, kind: PacketKind, in_local: u32) -> u32 {
        let class = match kind {
            PacketKind::Data => 0,
            // (PFC frames never reach a load balancer.)
            PacketKind::Ack
            | PacketKind::Nack
            | PacketKind::Syn
            | PacketKind::SynAck
            | PacketKind::Pfc => 1,
        };
        let pipe = self.pipe_ports.map_or(0, |pp| in_local / pp);
        let pipes = self.pipes[sw as usize];
        self.base[sw as usize] + (key * CLASSES + class) * pipes + pipe
    }

    /// Advances the pointer for this packet and returns its uplink.
    #[inline]
    pub fn next_uplink(
        &mut self,
        sw: u32,
        tier: Tier,
        key: u32,
        kind: PacketKind,
        in_local: u32,
    ) -> u32 {
        let i = self.index(sw, key, kind, in_local);
        let orders = orders_of(&self.edge_orders, &self.agg_orders, tier);
        let slot = &mut self.ptr[i as usize];
        let uplink = orders.pick(order_hash(i), *slot);
        *slot = if *slot + 1 == orders.w { 0 } else { *slot + 1 };
        uplink
    }

    /// [`Self::next_uplink`] with the pointer step taken through the combining pipeline, in
    /// the switch's cycle at time `now` (see [`crate::hw::cycles`]). Same uplinks.
    pub fn next_uplink_combining(
        &mut self,
        cycles: &mut SwitchCycles,
        now: Time,
        d: (u32, Tier, u32, PacketKind, u32),
    ) -> u32 {
        let (sw, tier, key, kind, in_local) = d;
        let i = self.index(sw, key, kind, in_local);
        let orders = orders_of(&self.edge_orders, &self.agg_orders, tier);
        let slot = cycles.step(sw, now, i, orders.w, &mut self.ptr);
        orders.pick(order_hash(i), slot)
    }
}

/// The port orders of a switch tier (aggregation switches use the second set).
#[inline]
fn orders_of<'a>(edge: &'a PortOrders, agg: &'a PortOrders, tier: Tier) -> &'a PortOrders {
    match tier {
        Tier::Edge => edge,
        _ => agg,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// F.2: distinct cyclic orders for w = 2..8 uplinks, max over every shared permutation.
    /// The paper says "up to 30 for w = 6"; this construction reaches 32 = W*W/2 (2.9% of
    /// permutations), and 30 is the most frequent value (see docs/decisions.md).
    #[test]
    fn f2_distinct_cyclic_orders() {
        let hists: Vec<_> = (2..=8)
            .map(|w| PortOrders::cyclic_order_histogram(w).unwrap())
            .collect();
        let max: Vec<usize> = hists.iter().map(|h| *h.keys().last().unwrap()).collect();
        assert_eq!(max, [1, 2, 4, 24, 32, 32, 32]);
        let six = &hists[4];
        assert_eq!(six.values().sum::<u64>(), 40_320);
        assert_eq!(six[&32], 1152);
        let mode = six.iter().max_by_key(|&(_, n)| *n).unwrap();
        assert_eq!(mode, (&30, &8576));
        assert_eq!(PortOrders::cyclic_order_histogram(9), None);
        // Why at most W*W/2: (x ^ W/2, y + W/2) gives the same order as (x, y), because
        // toggling the top bit twice (XOR, then adding W/2 mod W) is the identity.
        let mut rng = Rng::new(3);
        for w in 2..=16 {
            let o = PortOrders::new(w, &mut rng);
            let big = w.next_power_of_two() as usize;
            for x in 0..big {
                for y in 0..big {
                    let twin = (x ^ (big / 2)) * big + (y + big / 2) % big;
                    assert_eq!(o.order(x * big + y), o.order(twin));
                }
            }
        }
        // A seeded permutation never beats the maximum.
        let mut rng = Rng::new(1);
        for w in 2..=8 {
            let n = PortOrders::new(w, &mut rng).distinct_cyclic_orders();
            assert!(n >= 1 && n <= max[w as usize - 2], "w {w}: {n}");
        }
    }

    #[test]
    fn every_order_is_a_permutation() {
        let mut rng = Rng::new(1);
        for w in 1..=33 {
            let orders = PortOrders::new(w, &mut rng);
            for i in 0..orders.len() {
                let set: BTreeSet<u16> = orders.order(i).iter().copied().collect();
                assert_eq!(set.len(), w as usize);
                assert!(set.iter().all(|&u| (u as u32) < w));
            }
        }
    }

    /// One pointer spreads a key's packets evenly: every w consecutive packets of a round
    /// cover all w uplinks once.
    #[test]
    fn a_pointer_visits_every_uplink_once_per_round() {
        let fabric = Fabric::new(
            &crate::net::TopologySpec::FatTree { k: 12 },
            1,
            Time::from_ps(1),
        );
        let mut rng = Rng::new(5);
        let mut p = OfanPointers::new(&fabric, None, &mut rng);
        let w = 6;
        // Align to a round start first.
        while p.ptr[p.index(0, 3, PacketKind::Data, 0) as usize] != 0 {
            p.next_uplink(0, Tier::Edge, 3, PacketKind::Data, 0);
        }
        for _ in 0..50 {
            let round: BTreeSet<u32> = (0..w)
                .map(|_| p.next_uplink(0, Tier::Edge, 3, PacketKind::Data, 0))
                .collect();
            assert_eq!(round.len(), w as usize);
        }
    }
}

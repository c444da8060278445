//! `switch.ecmp_hash = "hpcc-ns3"`: ECMP as HPCC's ns-3 hashes, so that a flow takes the
//! path it takes there. A switch hashes the packet's addresses and ports, seeded by its own
//! node id, with 32-bit MurmurHash3 (x86 variant), and takes the hash modulo its next hops
//! toward the destination, listed in the order of their node ids (the order its route
//! computation finds them in on a fat tree). An ACK carries its flow's addresses and ports
//! swapped, so it hashes on its own. A host-side scheme's entropy (REPS, RPS, ...) is added
//! to the source port, the field RoCE NICs vary to spread a flow's packets.

use crate::flow::{hpcc, FlowSpec};
use crate::net::Fabric;

/// The hash's inputs: per flow its key words, per switch its seed and its uplinks in the
/// order of their far ends' node ids.
pub struct HpccEcmp {
    /// Per flow: source address, destination address, source port | destination port << 16.
    keys: Vec<[u32; 3]>,
    /// Per switch: its node id (the hash's seed).
    seeds: Vec<u32>,
    /// Per switch, from `rank_base[sw]`: its uplink indices by their far ends' node ids.
    ranked: Vec<u32>,
    rank_base: Vec<u32>,
}

impl HpccEcmp {
    /// `node_id`: a graph node's id as the topology file numbers it; `dports`: each flow's
    /// destination port.
    pub fn new(
        fabric: &Fabric,
        node_id: impl Fn(u32) -> u64,
        flows: &[FlowSpec],
        dports: impl Fn(usize) -> u16,
    ) -> Self {
        let node_id = |n: u32| node_id(fabric.graph_node_of(n));
        let sports = hpcc::sports(flows);
        let keys = (flows.iter().enumerate())
            .map(|(i, f)| {
                let ports = sports[i] as u32 | (dports(i) as u32) << 16;
                [hpcc::ip(node_id(f.src)), hpcc::ip(node_id(f.dst)), ports]
            })
            .collect();
        let mut ranked = Vec::new();
        let mut rank_base = Vec::with_capacity(fabric.switches.len());
        for s in &fabric.switches {
            rank_base.push(ranked.len() as u32);
            let mut ups: Vec<(u64, u32)> = (0..s.uplinks())
                .map(|u| {
                    let far = fabric.port_to_node[(s.port_base + s.down + u) as usize];
                    (node_id(far), u)
                })
                .collect();
            ups.sort_unstable_by(|a, b| b.cmp(a));
            ranked.extend(ups.into_iter().map(|(_, u)| u));
        }
        let hosts = fabric.hosts;
        HpccEcmp {
            keys,
            seeds: (0..fabric.switches.len() as u32)
                .map(|s| node_id(hosts + s) as u32)
                .collect(),
            ranked,
            rank_base,
        }
    }

    /// The uplink switch `sw` takes for flow `flow`'s packet (its ACK if `ack`), among the
    /// uplinks set in `valid` (all of its `count` if `None`). A host-side scheme's `entropy`
    /// moves the source port, as RoCE NICs vary the UDP source port to spread a flow.
    #[inline]
    pub fn pick(
        &self,
        sw: u32,
        flow: u32,
        entropy: u16,
        ack: bool,
        valid: Option<u64>,
        count: u32,
    ) -> u32 {
        let [sip, dip, ports] = self.keys[flow as usize];
        let sport = (ports as u16).wrapping_add(entropy) as u32;
        let ports = ports & 0xffff_0000 | sport;
        let key = if ack {
            [dip, sip, ports.rotate_left(16)]
        } else {
            [sip, dip, ports]
        };
        let h = murmur3_32(key, self.seeds[sw as usize]);
        let base = self.rank_base[sw as usize] as usize;
        let mut ranked = self.ranked[base..].iter().copied();
        let nth = (h % count) as usize;
        match valid {
            None => ranked.nth(nth),
            Some(mask) => ranked.filter(|&u| mask >> u & 1 == 1).nth(nth),
        }
        .expect("a hop among the switch's uplinks")
    }
}

/// 32-bit MurmurHash3 (Austin Appleby's public-domain x86_32 variant) of three
/// little-endian words.
fn murmur3_32(words: [u32; 3], seed: u32) -> u32 {
    const C1: u32 = 0xcc9e_2d51;
    const C2: u32 = 0x1b87_3593;
    let mut h = seed;
    for w in words {
        let k = w.wrapping_mul(C1).rotate_left(15).wrapping_mul(C2);
        h ^= k;
        h = h.rotate_left(13).wrapping_mul(5).wrapping_add(0xe654_6b64);
    }
    h ^= 12;
    h ^= h >> 16;
    h = h.wrapping_mul(0x85eb_ca6b);
    h ^= h >> 13;
    h = h.wrapping_mul(0xc2b2_ae35);
    h ^ h >> 16
}

#[cfg(test)]
mod tests {
    use super::*;

    /// MurmurHash3 x86_32 of a 12-byte key, as the `mmh3` Python package (a binding of the
    /// reference C++ implementation) computes it: `mmh3.hash(b"Hello, world", seed,
    /// signed=False)` for seeds 1234 and 0.
    #[test]
    fn murmur3_matches_known_values() {
        let words = |b: &[u8; 12]| {
            [0, 4, 8].map(|i| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]))
        };
        assert_eq!(murmur3_32(words(b"Hello, world"), 1234), 0x584d_5953);
        assert_eq!(murmur3_32(words(b"Hello, world"), 0), 0x6a72_8c54);
    }
}

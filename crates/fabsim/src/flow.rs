//! The flow description every layer above shares: a message of `bytes` from host `src` to
//! host `dst`, ready at `start_ps`. It sits below `net` and `lb` (failures' rho_max and the
//! host-side balancers read it) and below `workload`, which builds the flows.
//!
//! Architecture Invariant: `flow` depends only on `engine`.

use crate::engine::Time;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlowSpec {
    pub src: u32,
    pub dst: u32,
    pub bytes: u64,
    pub start_ps: Time,
}

/// How HPCC's ns-3 names a flow's packets: IPv4 addresses from the node ids, a source port
/// per (sender, receiver) pair, a destination port from its flow file. Its fct.txt and its
/// ECMP hash read them.
pub mod hpcc {
    use super::FlowSpec;
    use std::collections::HashMap;

    /// The destination port of a flow that an HPCC flow file does not give one: the port
    /// HPCC's traffic generator writes for every flow.
    pub const DPORT: u16 = 100;

    /// HPCC's first source port of every (sender, receiver) pair.
    const SPORT: u16 = 10000;

    /// The IPv4 address HPCC's ns-3 gives node `id`: `11.x.y.1` with `x.y` the id's two low
    /// bytes, high first (ids past 65535 wrap into the leading byte, as its 32-bit sum does).
    pub fn ip(id: u64) -> u32 {
        let id = id as u32;
        0x0b00_0001u32
            .wrapping_add((id / 256).wrapping_mul(0x1_0000))
            .wrapping_add(id % 256 * 0x100)
    }

    /// Every flow's source port: counted from 10000 per (sender, receiver) pair, in flow
    /// order (HPCC's flows are in start order).
    pub fn sports(flows: &[FlowSpec]) -> Vec<u16> {
        let mut next: HashMap<(u32, u32), u16> = HashMap::new();
        (flows.iter())
            .map(|f| {
                let port = next.entry((f.src, f.dst)).or_insert(SPORT);
                let sport = *port;
                *port = port.wrapping_add(1);
                sport
            })
            .collect()
    }
}

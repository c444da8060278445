//! Ofan in hardware terms (Ofan sections 5.2 and 7, appendices F.2 and I).
//!
//! - [`pipeline`]: the fixed-latency combining pipeline that serves every packet of a clock
//!   cycle with one read-modify-write per shared pointer, and the sequential reference it
//!   equals.
//! - [`cycles`]: how the simulator forms cycles and takes Ofan's pointer steps through the
//!   pipeline (`switch.combining = true`).
//! - [`memory`]: pOfan's pointer and address-to-pointer-map storage against a Tofino-class
//!   SRAM budget.
//!
//! The F.2 port-order count lives with the orders themselves (`lb::PortOrders`), on top of
//! [`distinct_cyclic_orders`] here.
//!
//! Architecture Invariant: this layer depends only on [`crate::engine`]. `lb`, `sim` and
//! `metrics` call it; it calls nothing of the simulator.

pub mod cycles;
pub mod memory;
pub mod pipeline;

pub use cycles::{CycleStats, SwitchCycles};
pub use memory::{pofan_memory, MemoryRow};
pub use pipeline::{check_random, sequential, CheckStats, CombiningPipeline};

/// Number of distinct cyclic orders among `orders` (each a sequence of the same length):
/// two orders are the same cyclic order when one is a rotation of the other, since a pointer
/// that starts at a random slot walks the order as a cycle.
pub fn distinct_cyclic_orders<'a>(orders: impl IntoIterator<Item = &'a [u16]>) -> usize {
    let mut seen: Vec<Vec<u16>> = Vec::new();
    for o in orders {
        // Canonical rotation: the one starting at uplink 0 (every order is a permutation).
        let start = o.iter().position(|&u| u == 0).unwrap_or(0);
        let canon: Vec<u16> = o[start..].iter().chain(&o[..start]).copied().collect();
        if let Err(pos) = seen.binary_search(&canon) {
            seen.insert(pos, canon);
        }
    }
    seen.len()
}

#[cfg(test)]
mod tests {
    #[test]
    fn rotations_are_one_cyclic_order() {
        let a: &[u16] = &[0, 1, 2];
        let b: &[u16] = &[1, 2, 0];
        let c: &[u16] = &[0, 2, 1];
        assert_eq!(super::distinct_cyclic_orders([a, b]), 1);
        assert_eq!(super::distinct_cyclic_orders([a, b, c]), 2);
    }
}

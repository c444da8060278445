//! pOfan's memory model (Ofan section 5.2): pointer registers and the address-to-pointer map
//! per pipe, for k-ary fat trees (3 tiers) and k-ary leaf-spines (2 tiers).
//!
//! Per switch with uplinks (edge and aggregation switches; leaves in 2 tiers):
//! - **keys**: destination edge switches (leaves) at edge switches, destination pods at
//!   aggregation switches, as in the simulator (`Fabric::edge_keys`, `agg_keys`);
//! - **pipes**: `ceil(k / pipe_ports)` (every port, up or down, belongs to one ingress pipe);
//! - **pointers per pipe**: `keys * classes`, each `ceil(log2 w)` bits for `w = k/2` uplinks,
//!   stored in the narrowest Tofino register cell that holds it (8, 16 or 32 bits);
//! - **map per pipe**: an exact-match table from a destination host's IPv4 address (32 bits)
//!   to its key (`ceil(log2 keys)` bits of action data), one entry per host of the fabric.
//!   Match-action tables are per pipe, so every pipe holds the whole map. (An LPM table on
//!   per-edge prefixes would need only `keys` entries; [`MemoryRow::prefix_map_bits`] gives
//!   that variant, which is still larger than the pointers.)
//!
//! SRAM is allocated in blocks of [`SRAM_BLOCK_BITS`]; the budget per pipe,
//! [`SRAM_BITS_PER_PIPE`], is the commonly cited Tofino 1 figure: 12 match-action stages per
//! pipe, 80 SRAM blocks of 1024 x 128 bits per stage (120 Mbit, 15 MiB per pipe). We assume a
//! pipe of `pipe_ports` ports has the same SRAM as a Tofino 1 pipe; only the ratios and the
//! order of magnitude matter here.

/// One SRAM block: 1024 words of 128 bits.
pub const SRAM_BLOCK_BITS: u64 = 1024 * 128;
/// SRAM blocks per pipe: 12 stages x 80 blocks.
pub const SRAM_BLOCKS_PER_PIPE: u64 = 12 * 80;
pub const SRAM_BITS_PER_PIPE: u64 = SRAM_BLOCKS_PER_PIPE * SRAM_BLOCK_BITS;
/// Bits of a destination address (IPv4).
pub const ADDRESS_BITS: u64 = 32;

/// The memory of one switch tier.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct MemoryRow {
    /// "edge", "agg" or "leaf".
    pub tier: &'static str,
    pub switches: u64,
    pub uplinks: u32,
    pub keys: u64,
    pub classes: u32,
    pub pipes: u32,
    /// Bits of one pointer, `ceil(log2 w)` (at least 1).
    pub pointer_bits: u32,
    /// Register cell that holds it.
    pub pointer_cell_bits: u32,
    pub pointers_per_pipe: u64,
    pub map_entries_per_pipe: u64,
    /// Address plus key index.
    pub map_entry_bits: u64,
}

fn ceil_log2(n: u64) -> u32 {
    n.max(1).next_power_of_two().trailing_zeros()
}

fn blocks(bits: u64) -> u64 {
    bits.div_ceil(SRAM_BLOCK_BITS)
}

impl MemoryRow {
    /// Ofan's single shared register file (no pipes, raw bits): the paper's ~20K bits at
    /// k = 64.
    pub fn ofan_register_bits(&self) -> u64 {
        self.keys * self.classes as u64 * self.pointer_bits as u64
    }
    pub fn pointer_bits_per_pipe(&self) -> u64 {
        self.pointers_per_pipe * self.pointer_cell_bits as u64
    }
    pub fn map_bits_per_pipe(&self) -> u64 {
        self.map_entries_per_pipe * self.map_entry_bits
    }
    /// The LPM variant: one entry per key (destination edge or pod prefix).
    pub fn prefix_map_bits(&self) -> u64 {
        self.keys * self.map_entry_bits
    }
    pub fn pointer_blocks_per_pipe(&self) -> u64 {
        blocks(self.pointer_bits_per_pipe())
    }
    pub fn map_blocks_per_pipe(&self) -> u64 {
        blocks(self.map_bits_per_pipe())
    }
    /// Share of the pipe's SRAM that pOfan's blocks take.
    pub fn budget_fraction(&self) -> f64 {
        (self.pointer_blocks_per_pipe() + self.map_blocks_per_pipe()) as f64
            / SRAM_BLOCKS_PER_PIPE as f64
    }
}

/// The rows for a fabric of radix `k` with `tiers` tiers (2 or 3), `pipe_ports` ports per pipe
/// and `classes` size classes. Errors name the offending parameter.
pub fn pofan_memory(
    k: u32,
    tiers: u32,
    pipe_ports: u32,
    classes: u32,
) -> Result<Vec<MemoryRow>, String> {
    if k < 2 || !k.is_multiple_of(2) {
        return Err(format!("k = {k}: allowed: an even radix >= 2"));
    }
    if k > 4096 {
        return Err(format!("k = {k}: allowed: at most 4096"));
    }
    if pipe_ports == 0 || pipe_ports > k {
        return Err(format!(
            "pipe ports = {pipe_ports}: allowed: 1 to the switch's {k} ports"
        ));
    }
    if classes == 0 {
        return Err("classes = 0: allowed: an integer >= 1".into());
    }
    let k64 = k as u64;
    let w = k / 2;
    let pipes = k.div_ceil(pipe_ports);
    let row = |tier, switches, keys: u64, hosts: u64| {
        let pointer_bits = ceil_log2(w as u64).max(1);
        MemoryRow {
            tier,
            switches,
            uplinks: w,
            keys,
            classes,
            pipes,
            pointer_bits,
            pointer_cell_bits: pointer_bits.next_power_of_two().max(8),
            pointers_per_pipe: keys * classes as u64,
            map_entries_per_pipe: hosts,
            map_entry_bits: ADDRESS_BITS + ceil_log2(keys).max(1) as u64,
        }
    };
    match tiers {
        3 => {
            let hosts = k64 * k64 * k64 / 4;
            Ok(vec![
                row("edge", k64 * k64 / 2, k64 * k64 / 2, hosts),
                row("agg", k64 * k64 / 2, k64, hosts),
            ])
        }
        2 => Ok(vec![row("leaf", k64, k64, k64 * k64 / 2)]),
        _ => Err(format!("tiers = {tiers}: allowed: 2 or 3")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Section 5.2: the map, not the pointers, dominates; for the paper's setups (k = 12 and
    /// k = 64 fat trees, 2-tier leaf-spines, 4-port pipes, data and ACK classes), in raw bits,
    /// in SRAM blocks and even for the per-prefix map.
    #[test]
    fn the_map_dominates_the_pointers() {
        for (k, tiers) in [(12, 3), (64, 3), (8, 3), (64, 2), (32, 2)] {
            for row in pofan_memory(k, tiers, 4, 2).unwrap() {
                let (p, m) = (row.pointer_bits_per_pipe(), row.map_bits_per_pipe());
                assert!(m > 4 * p, "k {k} {}: map {m} vs pointers {p}", row.tier);
                assert!(row.prefix_map_bits() > row.pointers_per_pipe * row.pointer_bits as u64);
                assert!(row.map_blocks_per_pipe() >= row.pointer_blocks_per_pipe());
                assert!(row.budget_fraction() < 1.0, "fits the assumed pipe SRAM");
            }
        }
    }

    /// k = 64, 3 tiers, 4-port pipes: the numbers printed by `fabsim hw memory`, and Ofan's
    /// shared register file is the ~20K bits of appendix I.
    #[test]
    fn k64_three_tiers() {
        let rows = pofan_memory(64, 3, 4, 2).unwrap();
        let edge = &rows[0];
        assert_eq!((edge.keys, edge.pipes, edge.pointer_bits), (2048, 16, 5));
        assert_eq!(edge.ofan_register_bits(), 20_480);
        assert_eq!(edge.pointer_bits_per_pipe(), 4096 * 8);
        assert_eq!(edge.map_entries_per_pipe, 65_536);
        assert_eq!(edge.map_bits_per_pipe(), 65_536 * 43);
        assert_eq!(rows[1].keys, 64);
        assert_eq!(rows[1].map_entry_bits, 38);
    }

    #[test]
    fn bad_parameters_are_errors() {
        assert!(pofan_memory(7, 3, 4, 2).unwrap_err().contains("k = 7"));
        assert!(pofan_memory(8, 4, 4, 2).unwrap_err().contains("tiers"));
        assert!(pofan_memory(8, 3, 0, 2).unwrap_err().contains("pipe ports"));
    }
}

//! `fabsim hw`: Ofan in hardware terms (the combining pipeline, pOfan's memory, F.2 orders).

use std::time::Instant;

use fabsim::engine::Rng;
use fabsim::hw::{self, memory, CombiningPipeline};
use fabsim::lb::PortOrders;

use fabsim_lab::Error;

#[derive(clap::Subcommand)]
pub enum HwCommand {
    /// Check the combining pipeline against sequential rotation on random cycles, then time
    /// the pipeline model (packets per second, this machine, one core).
    Pipeline {
        /// Random cycles to check.
        #[arg(long, default_value_t = 1_000_000)]
        cycles: u64,
        /// W: packets per cycle (batch sizes are uniform in 1..=W).
        #[arg(long, default_value_t = 8)]
        width: usize,
        /// Pointer registers the random keys are drawn from (few: many shared pointers).
        #[arg(long, default_value_t = 16)]
        keys: u32,
        /// Largest modulus w (uplinks); each cycle draws w uniform in 1..=max-w.
        #[arg(long, default_value_t = 32)]
        max_w: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// pOfan's pointer and address-to-pointer-map storage per pipe, next to the SRAM budget.
    Memory {
        /// Switch radix (even).
        #[arg(long, default_value_t = 64)]
        k: u32,
        /// 3: k-ary fat tree; 2: k-ary leaf-spine.
        #[arg(long, default_value_t = 3)]
        tiers: u32,
        /// Ports per pipe.
        #[arg(long, default_value_t = 4)]
        pipe_ports: u32,
        /// Size classes (data and ACK: 2).
        #[arg(long, default_value_t = 2)]
        classes: u32,
    },
    /// F.2: distinct cyclic port orders for w = 2..8 uplinks, over every shared permutation.
    Orders {
        /// Seed of the one "seeded" permutation also reported.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

pub fn run_hw(cmd: &HwCommand) -> Result<(), Error> {
    match *cmd {
        HwCommand::Pipeline {
            cycles,
            width,
            keys,
            max_w,
            seed,
        } => pipeline(cycles, width, keys, max_w, seed),
        HwCommand::Memory {
            k,
            tiers,
            pipe_ports,
            classes,
        } => memory_table(k, tiers, pipe_ports, classes),
        HwCommand::Orders { seed } => orders(seed),
    }
}

fn usage(ok: bool, msg: impl FnOnce() -> String) -> Result<(), Error> {
    if ok {
        Ok(())
    } else {
        Err(Error::Usage(msg()))
    }
}

fn pipeline(cycles: u64, width: usize, keys: u32, max_w: u32, seed: u64) -> Result<(), Error> {
    usage((1..=1_000_000_000).contains(&cycles), || {
        format!("--cycles {cycles}: allowed: 1 to 10^9")
    })?;
    usage((1..=1024).contains(&width), || {
        format!("--width {width}: allowed: 1 to 1024")
    })?;
    usage((1..=1 << 20).contains(&keys), || {
        format!("--keys {keys}: allowed: 1 to 2^20")
    })?;
    usage((1..=1 << 16).contains(&max_w), || {
        format!("--max-w {max_w}: allowed: 1 to 65536")
    })?;
    let mut rng = Rng::stream(seed, "hw-pipeline");
    let s = hw::check_random(&mut rng, cycles, width, keys, max_w);
    outln!(
        "equivalence: {} cycles, {} packets, {} register accesses (sequential: {}), {} mismatches",
        s.cycles,
        s.packets,
        s.requests,
        s.packets,
        s.mismatches
    );
    if s.mismatches > 0 {
        return Err(Error::Runtime(format!(
            "the pipeline disagreed with sequential rotation in {} cycles",
            s.mismatches
        )));
    }
    // Throughput of the model alone: pre-drawn full cycles, replayed through the pipeline.
    const BATCHES: usize = 4096;
    let w = max_w;
    let batches: Vec<u32> = (0..BATCHES * width)
        .map(|_| rng.below(keys as u64) as u32)
        .collect();
    let mut regs = vec![0u32; keys as usize];
    let mut out = vec![0u32; width];
    let mut pipe = CombiningPipeline::new(width);
    let start = Instant::now();
    let mut accesses = 0u64;
    for c in 0..cycles {
        let b = (c as usize % BATCHES) * width;
        accesses += pipe.cycle(&batches[b..b + width], &mut regs, w, &mut out) as u64;
    }
    let wall = start.elapsed().as_secs_f64().max(1e-9);
    let packets = cycles * width as u64;
    outln!(
        "model throughput: {:.1} M packets/s ({:.1} M cycles/s of W = {width}, {:.2} accesses per cycle) in {wall:.3} s on one core",
        packets as f64 / wall / 1e6,
        cycles as f64 / wall / 1e6,
        accesses as f64 / cycles as f64,
    );
    outln!(
        "hardware at 1 GHz, one cycle per clock: {:.1} G packets/s",
        width as f64
    );
    Ok(())
}

fn kbit(bits: u64) -> String {
    format!("{:.1}", bits as f64 / 1024.0)
}

fn memory_table(k: u32, tiers: u32, pipe_ports: u32, classes: u32) -> Result<(), Error> {
    let rows = hw::pofan_memory(k, tiers, pipe_ports, classes).map_err(Error::Usage)?;
    outln!("pOfan memory: k = {k}, {tiers} tiers, {pipe_ports}-port pipes, {classes} size classes");
    outln!(
        "SRAM budget per pipe (assumed Tofino 1): {} stages x 80 blocks x {} Kbit = {} Kbit",
        memory::SRAM_BLOCKS_PER_PIPE / 80,
        memory::SRAM_BLOCK_BITS / 1024,
        memory::SRAM_BITS_PER_PIPE / 1024
    );
    outln!(
        "{:<5} {:>8} {:>4} {:>6} {:>6} {:>9} {:>13} {:>13} {:>13} {:>13} {:>12} {:>8} {:>10} {:>12}",
        "tier",
        "switches",
        "w",
        "keys",
        "pipes",
        "ptr_bits",
        "pointers/pipe",
        "ptr_Kbit/pipe",
        "map_entries",
        "map_Kbit/pipe",
        "blocks/pipe",
        "budget%",
        "map/ptr",
        "ofan_regs_b"
    );
    for r in &rows {
        let (p, m) = (r.pointer_bits_per_pipe(), r.map_bits_per_pipe());
        outln!(
            "{:<5} {:>8} {:>4} {:>6} {:>6} {:>9} {:>13} {:>13} {:>13} {:>13} {:>12} {:>8.2} {:>10.1} {:>12}",
            r.tier,
            r.switches,
            r.uplinks,
            r.keys,
            r.pipes,
            format!("{}/{}", r.pointer_bits, r.pointer_cell_bits),
            r.pointers_per_pipe,
            kbit(p),
            r.map_entries_per_pipe,
            kbit(m),
            format!("{}+{}", r.pointer_blocks_per_pipe(), r.map_blocks_per_pipe()),
            100.0 * r.budget_fraction(),
            m as f64 / p as f64,
            r.ofan_register_bits()
        );
    }
    outln!(
        "ptr_bits: pointer bits / register cell bits; map: exact match, {}-bit address + key \
         index per destination host, in every pipe; ofan_regs_b: Ofan's one shared register \
         file per switch (raw bits). The map, not the pointers, dominates.",
        memory::ADDRESS_BITS
    );
    Ok(())
}

fn orders(seed: u64) -> Result<(), Error> {
    outln!(
        "{:>3} {:>3} {:>8} {:>5} {:>10} {:>6} {:>12}",
        "w",
        "W",
        "seeded",
        "max",
        "max_share%",
        "mode",
        "mode_share%"
    );
    let mut rng = Rng::stream(seed, "hw-orders");
    for w in 2..=8u32 {
        let seeded = PortOrders::new(w, &mut rng).distinct_cyclic_orders();
        let hist = PortOrders::cyclic_order_histogram(w).expect("W <= 8");
        let total: u64 = hist.values().sum();
        let (&max, &at_max) = hist.iter().next_back().expect("non-empty");
        let (&mode, &at_mode) = hist.iter().max_by_key(|&(_, n)| *n).expect("non-empty");
        outln!(
            "{w:>3} {:>3} {seeded:>8} {max:>5} {:>10.1} {mode:>6} {:>12.1}",
            w.next_power_of_two(),
            100.0 * at_max as f64 / total as f64,
            100.0 * at_mode as f64 / total as f64
        );
    }
    outln!(
        "orders: ((pi[i] ^ x) + y) mod W for i in 0..W, kept if < w, over all (x, y); cyclic \
         orders equal up to rotation; (x ^ W/2, y + W/2) repeats (x, y), so at most W*W/2."
    );
    Ok(())
}

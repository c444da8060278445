//! FSDP2 training of a transformer: one iteration's collectives over the data-parallel group.
//!
//! FSDP2 shards every parameter of a unit (one transformer block; the root unit holds the
//! embedding, the final norm and the output head) over the data-parallel group. One
//! iteration, communication only (compute is not modelled, so collectives run back to back):
//! - forward: all-gather the root, then each block in order, each after the previous one;
//! - backward: all-gather the blocks again in reverse order (each after the previous one),
//!   and reduce-scatter each block's gradients once its all-gather completed and the previous
//!   reduce-scatter finished (one reduce-scatter stream, overlapping the next all-gather);
//!   the root's reduce-scatter comes last.
//!
//! Message sizes are the unit's parameter bytes (bf16 parameters and gradients), times
//! `workload.size_scale`.
//!
//! One block of FSDP2's steady state instead of the iteration ([`Part`], `workload.fsdp_part`):
//! the forward all-gather of a block; or the backward all-gather of a block together with the
//! reduce-scatter of the block after it (FSDP2 prefetches the next all-gather while the last
//! block's gradients are reduced), both starting at once. An iteration has as many of each
//! as blocks, and with `workload.steps` a run keeps only the first steps of each ring.

use super::collective::{Algorithm, CollectiveKind, TrafficBuilder};

/// A decoder-only transformer's shape (Llama-style: GQA attention, gated MLP, RMS norms,
/// untied embedding and output head).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModelShape {
    pub name: &'static str,
    pub layers: u32,
    pub hidden: u64,
    pub ffn: u64,
    pub heads: u64,
    pub kv_heads: u64,
    pub vocab: u64,
    pub bytes_per_param: u64,
}

/// Llama 3.1 405B: 126 layers, hidden 16384, FFN 53248, 128 query / 8 KV heads, bf16.
pub const LLAMA3_405B: ModelShape = ModelShape {
    name: "llama3-405b",
    layers: 126,
    hidden: 16384,
    ffn: 53248,
    heads: 128,
    kv_heads: 8,
    vocab: 128256,
    bytes_per_param: 2,
};

impl ModelShape {
    /// Every model a scenario may name (`workload.model`).
    pub const ALL: [ModelShape; 1] = [LLAMA3_405B];

    pub fn name(&self) -> &'static str {
        self.name
    }

    pub fn from_name(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|m| m.name == s)
    }

    pub fn head_dim(&self) -> u64 {
        self.hidden / self.heads
    }

    /// Parameters of one block: Q and O projections (hidden x hidden), K and V (hidden x
    /// kv_heads x head_dim), gate, up and down projections (hidden x ffn), two norms.
    pub fn block_params(&self) -> u64 {
        let h = self.hidden;
        let kv = self.kv_heads * self.head_dim();
        2 * h * h + 2 * h * kv + 3 * h * self.ffn + 2 * h
    }

    /// Parameters of the root unit: embedding, output head, final norm.
    pub fn root_params(&self) -> u64 {
        2 * self.vocab * self.hidden + self.hidden
    }

    pub fn total_params(&self) -> u64 {
        self.layers as u64 * self.block_params() + self.root_params()
    }
}

named_enum! {
    /// What of an FSDP2 iteration a run simulates (`workload.fsdp_part`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Part {
        /// The whole iteration.
        Iteration => "iteration",
        /// One block's forward all-gather.
        ForwardBlock => "forward-block",
        /// One block's backward all-gather and the previous block's reduce-scatter, together.
        BackwardBlock => "backward-block",
    }
}

impl Part {
    /// Collectives of a block's size, and of the root unit's (the iteration: two
    /// all-gathers and a reduce-scatter per block, and the root's two).
    pub fn collectives(self, layers: u32) -> (u64, u64) {
        match self {
            Part::Iteration => (3 * layers as u64, 2),
            Part::ForwardBlock => (1, 0),
            Part::BackwardBlock => (2, 0),
        }
    }

    /// The most collectives with flows in progress at once: each starts once the flows of
    /// the ones it follows all had their last ACK, so the iteration runs one all-gather
    /// stream and one reduce-scatter stream.
    pub fn concurrent(self) -> u64 {
        match self {
            Part::ForwardBlock => 1,
            Part::Iteration | Part::BackwardBlock => 2,
        }
    }
}

/// The message of a block's collectives and of the root unit's: its parameter bytes times
/// `scale`, at least one byte.
pub fn unit_bytes(model: &ModelShape, scale: f64) -> (u64, u64) {
    let bytes = |params: u64| {
        ((params * model.bytes_per_param) as f64 * scale)
            .round()
            .max(1.0) as u64
    };
    (bytes(model.block_params()), bytes(model.root_params()))
}

/// The smallest message `part` of an iteration of `layers` blocks splits into shards at
/// `scale`: a block's or the root unit's, of those it has. A collective over N hosts gives
/// every flow a byte from N bytes on ([`super::WorkloadSpec::min_flow_bytes`]).
pub fn smallest_unit_bytes(model: &ModelShape, part: Part, layers: u32, scale: f64) -> u64 {
    let (block, root) = unit_bytes(model, scale);
    let (blocks, roots) = part.collectives(layers);
    let has = |n: u64, bytes: u64| if n > 0 { bytes } else { u64::MAX };
    has(blocks, block).min(has(roots, root))
}

/// The smallest scale at which [`smallest_unit_bytes`] is at least `bytes`, exactly: the
/// float just below it gives fewer. Any scale gives one byte, so 0 for `bytes` <= 1.
pub fn min_scale(model: &ModelShape, part: Part, layers: u32, bytes: u64) -> f64 {
    if bytes <= 1 {
        return 0.0;
    }
    let reaches = |s: f64| smallest_unit_bytes(model, part, layers, s) >= bytes;
    // A unit of u bytes at scale 1 rounds to at least `bytes` from u x s = bytes - 1/2 on;
    // the float arithmetic may put the first scale that does an ulp or two away.
    let unit = smallest_unit_bytes(model, part, layers, 1.0) as f64;
    let mut s = (bytes as f64 - 0.5) / unit;
    while !reaches(s) {
        s = s.next_up();
    }
    while reaches(s.next_down()) {
        s = s.next_down();
    }
    s
}

/// Appends `part` of one iteration over `hosts` (the iteration: with its first `layers`
/// blocks); sizes times `scale`.
pub fn append(
    b: &mut TrafficBuilder,
    model: &ModelShape,
    part: Part,
    layers: u32,
    scale: f64,
    hosts: &[u32],
    alg: Algorithm,
) {
    let (block, root) = unit_bytes(model, scale);
    let add = |b: &mut TrafficBuilder, name: String, kind, size, after: &[u32]| {
        b.collective(name, kind, alg, size, hosts, after)
    };
    let ag = CollectiveKind::AllGather;
    let rs = CollectiveKind::ReduceScatter;
    match part {
        Part::Iteration => {}
        Part::ForwardBlock => {
            add(b, "fwd-ag".into(), ag, block, &[]);
            return;
        }
        Part::BackwardBlock => {
            add(b, "bwd-ag".into(), ag, block, &[]);
            add(b, "bwd-rs".into(), rs, block, &[]);
            return;
        }
    }
    let mut prev = add(b, "fwd-ag-root".into(), ag, root, &[]);
    for l in 0..layers {
        prev = add(b, format!("fwd-ag-{l}"), ag, block, &[prev]);
    }
    let mut prev_rs: Option<u32> = None;
    for l in (0..layers).rev() {
        prev = add(b, format!("bwd-ag-{l}"), ag, block, &[prev]);
        let after: Vec<u32> = std::iter::once(prev).chain(prev_rs).collect();
        prev_rs = Some(add(b, format!("bwd-rs-{l}"), rs, block, &after));
    }
    let after: Vec<u32> = std::iter::once(prev).chain(prev_rs).collect();
    add(b, "bwd-rs-root".into(), rs, root, &after);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn llama3_405b_parameter_arithmetic() {
        let m = LLAMA3_405B;
        assert_eq!(m.head_dim(), 128);
        // Attention: 2 x 16384^2 + 2 x 16384 x 1024; MLP: 3 x 16384 x 53248; norms 2 x 16384.
        let attn = 2 * 16384u64 * 16384 + 2 * 16384 * 8 * 128;
        let mlp = 3 * 16384u64 * 53248;
        assert_eq!(m.block_params(), attn + mlp + 2 * 16384);
        assert_eq!(m.block_params(), 3_187_703_808);
        let total = m.total_params() as f64;
        assert!((total / 405e9 - 1.0).abs() < 0.01, "{total}");
    }

    #[test]
    fn messages_are_the_units_parameter_bytes() {
        let mut b = TrafficBuilder::default();
        let hosts: Vec<u32> = (0..4).collect();
        append(
            &mut b,
            &LLAMA3_405B,
            Part::Iteration,
            3,
            1.0,
            &hosts,
            Algorithm::Direct,
        );
        let t = b.build();
        // Root AG, 3 forward AGs, 3 backward AGs, 3 RSs, root RS.
        assert_eq!(t.collectives.len(), 11);
        assert_eq!(Part::Iteration.collectives(3), (9, 2));
        for c in &t.collectives {
            // Direct all-gather / reduce-scatter: each host sends 3 of its 4 shards.
            let sent: u64 = c.flows().map(|f| t.flows[f as usize].bytes).sum();
            let unit = if c.name.ends_with("root") {
                LLAMA3_405B.root_params()
            } else {
                LLAMA3_405B.block_params()
            };
            assert_eq!(sent, 4 * 3 * unit * 2 / 4, "{}", c.name);
        }
        let names: Vec<&str> = t.collectives.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(
            &names[..5],
            &[
                "fwd-ag-root",
                "fwd-ag-0",
                "fwd-ag-1",
                "fwd-ag-2",
                "bwd-ag-2"
            ]
        );
        assert_eq!(t.collectives[5].after, vec![4], "bwd-rs-2 after bwd-ag-2");
        assert_eq!(
            t.collectives[7].after,
            vec![6, 5],
            "bwd-rs-1 after its AG and bwd-rs-2"
        );
    }

    #[test]
    fn block_parts_are_one_blocks_collectives_starting_at_once() {
        let hosts: Vec<u32> = (0..4).collect();
        let build = |part| {
            let mut b = TrafficBuilder::default();
            append(
                &mut b,
                &LLAMA3_405B,
                part,
                126,
                1e-3,
                &hosts,
                Algorithm::Ring,
            );
            b.build()
        };
        let block = (LLAMA3_405B.block_params() as f64 * 2.0 * 1e-3).round() as u64;
        for (part, names) in [
            (Part::ForwardBlock, &["fwd-ag"][..]),
            (Part::BackwardBlock, &["bwd-ag", "bwd-rs"][..]),
        ] {
            let t = build(part);
            let got: Vec<&str> = t.collectives.iter().map(|c| c.name.as_str()).collect();
            assert_eq!(got, names);
            assert_eq!(part.collectives(126), (t.collectives.len() as u64, 0));
            for c in &t.collectives {
                assert!(c.after.is_empty(), "{} starts at once", c.name);
                assert_eq!(c.steps.len(), 3, "a ring of 4");
                // Each host sends 3 of its 4 shards.
                let sent: u64 = c.flows().map(|f| t.flows[f as usize].bytes).sum();
                assert_eq!(sent, 3 * block, "{}", c.name);
                // Only the first step waits for nothing.
                for f in c.flows() {
                    assert_eq!(t.deps.waits[f as usize] == 0, f < c.steps[0].end);
                }
            }
        }
    }
}

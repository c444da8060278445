//! The greedy heuristic of the paper (section 4.3, Listing 1), in two implementations that
//! compute the same mapping.
//!
//! Listing 1 computes the net gain `TM[i][j] - (rowsum_i - TM[i][j])` of every (port, ASIC)
//! pair, sorts all `p * n` pairs by net gain (largest first) and walks the sorted list once,
//! assigning a port to an ASIC if the port is still unassigned and the ASIC still has a free
//! slot. Both implementations share one definition of the walk order, `Ctx::key`: net gain
//! descending, then port ascending, then ASIC ascending (the listing's `argsort` leaves ties
//! open; this order makes them deterministic). Keys pack (net gain, port, ASIC) into a `u64`
//! when the row sums allow (any realistic byte counts), else into a `u128`.
//!
//! * [`solve_into`] ([`crate::Solver::Greedy`], the reference): Listing 1 as written, one key
//!   per pair, one sort, one pass over all `p * n` keys. `Θ(p n log(p n))`, the paper's bound.
//! * [`select_into`] ([`crate::Solver::GreedySelect`]): the same walk without sorting the
//!   `p * n` pairs.
//!   - Within a row, net gain orders ASICs like `TM[i][j]` does, so the sorted list is the
//!     merge of `p` per-port preference lists, and the walk only ever acts on the *head* of
//!     an unassigned port's list (the best ASIC that still has room); entries of assigned
//!     ports and of full ASICs are skipped by the walk anyway.
//!   - The walk falls into phases separated by "fill events" (an ASIC running out of slots,
//!     at most `n - 1` of them). Within a phase, only *which* heads come before the event
//!     matters, not their order, and that is a selection problem: for each ASIC `j`, the
//!     `free[j]`-th smallest head key pointing at `j` is where `j` would fill; the smallest
//!     of these is the event. Linear-time `select_nth_unstable` replaces the sort. After the
//!     event, heads that pointed at the full ASIC are re-keyed with their next choice; with
//!     one ASIC left, all remaining ports go there.
//!
//!   Cost: `O(p n)` expected (plus `O(p n)` per phase in the worst case). The test
//!   `greedy_select_maps_like_listing1` checks that both give identical mappings.
//!
//! For 2 ASICs the heuristic is optimal (paper section 4.3; property-tested against
//! [`crate::exact`]).

use crate::constraints::MAX_ASICS;
use crate::problem::TmView;

/// Reusable buffers for [`solve_into`] and [`select_into`]; keeps both allocation-free after
/// the first call of a given size.
#[derive(Debug, Default, Clone)]
pub struct GreedyWorkspace {
    /// Elementary operations of the last solve (see [`GreedyWorkspace::ops`]).
    ops: u64,
    sums: Vec<u64>,
    free: Vec<usize>,
    keys64: [Vec<u64>; 2],
    keys128: [Vec<u128>; 2],
}

impl GreedyWorkspace {
    /// Elementary operations of the last solve: one per traffic-matrix entry or key visited.
    /// Listing 1: the row sums and net gains (`2 p n`), every comparison of the sort, the
    /// `p n` keys of the pass. The selection: the row sums, the `n` entries of every head
    /// (re-)keyed, every bucket a selection partitions, every key compacted or assigned. A
    /// function of the input only (the sort is deterministic), so a machine-independent
    /// measure of the work.
    pub fn ops(&self) -> u64 {
        self.ops
    }
}

/// A sort key: (descending net gain, port, ASIC) packed so that ascending
/// integer order is the walk order of Listing 1.
trait Key: Copy + Ord {
    fn pack(desc_gain: u64, idx: u64, idx_bits: u32) -> Self;
    fn idx(self, idx_bits: u32) -> usize;
}

impl Key for u64 {
    #[inline]
    fn pack(desc_gain: u64, idx: u64, idx_bits: u32) -> Self {
        (desc_gain << idx_bits) | idx
    }
    #[inline]
    fn idx(self, idx_bits: u32) -> usize {
        (self & ((1u64 << idx_bits) - 1)) as usize
    }
}

impl Key for u128 {
    #[inline]
    fn pack(desc_gain: u64, idx: u64, _idx_bits: u32) -> Self {
        ((desc_gain as u128) << 64) | idx as u128
    }
    #[inline]
    fn idx(self, _idx_bits: u32) -> usize {
        self as u64 as usize
    }
}

/// Bits needed to represent `0..x`.
fn bits_for(x: usize) -> u32 {
    usize::BITS - x.saturating_sub(1).leading_zeros()
}

/// One walk of the greedy over the keys of type `K`, given the row sums: writes the ASIC of
/// every port into `out` and adds its elementary operations to `ops`.
trait Walk {
    fn walk<K: Key>(
        ctx: &Ctx<'_>,
        sums: &[u64],
        free: &mut [usize],
        bufs: &mut [Vec<K>; 2],
        out: &mut [usize],
        ops: &mut u64,
    );
}

/// Listing 1 as written ([`solve_into`]).
struct Listing1;
/// The selection-based walk ([`select_into`]).
struct Select;

/// Runs Listing 1 on `tm` (capacity `ports / asics` per ASIC) and writes the ASIC of every
/// port into `out` (length `tm.ports()`): the reference greedy.
pub fn solve_into(tm: TmView<'_>, ws: &mut GreedyWorkspace, out: &mut [usize]) {
    run::<Listing1>(tm, ws, out);
}

/// Computes [`solve_into`]'s mapping with selections instead of the sort (see the module
/// docs).
pub fn select_into(tm: TmView<'_>, ws: &mut GreedyWorkspace, out: &mut [usize]) {
    run::<Select>(tm, ws, out);
}

/// The row sums, then `W`'s walk on 64-bit keys if they fit, else on 128-bit keys.
fn run<W: Walk>(tm: TmView<'_>, ws: &mut GreedyWorkspace, out: &mut [usize]) {
    let (p, n) = (tm.ports(), tm.asics());
    debug_assert_eq!(out.len(), p);
    ws.sums.clear();
    ws.sums
        .extend((0..p).map(|i| tm.row(i).iter().sum::<u64>()));
    ws.ops = (p * n) as u64;
    let max_sum = ws.sums.iter().copied().max().unwrap_or(0);
    ws.free.clear();
    ws.free.resize(n, tm.capacity());
    let asic_bits = bits_for(n);
    let idx_bits = bits_for(p) + asic_bits;
    // |net gain| <= row sum, so 64-bit keys work if every row sum is below
    // 2^(62 - idx_bits), true for any realistic byte counts.
    let mut ctx = Ctx {
        tm,
        offset: 1 << 63,
        idx_bits,
        asic_bits,
    };
    if idx_bits < 62 && (max_sum as i128) < 1 << (62 - idx_bits) {
        ctx.offset = 1 << (62 - idx_bits);
        W::walk(
            &ctx,
            &ws.sums,
            &mut ws.free,
            &mut ws.keys64,
            out,
            &mut ws.ops,
        );
    } else {
        W::walk(
            &ctx,
            &ws.sums,
            &mut ws.free,
            &mut ws.keys128,
            out,
            &mut ws.ops,
        );
    }
}

struct Ctx<'a> {
    tm: TmView<'a>,
    /// Added to the negated net gain to make it a non-negative key; row
    /// sums must stay below it.
    offset: i128,
    idx_bits: u32,
    asic_bits: u32,
}

impl Ctx<'_> {
    /// The walk order of Listing 1, shared by both implementations: port `i`'s pair with
    /// ASIC `j` (`tm_ij = TM[i][j]`, `sum` = the row sum) as a key whose ascending order is
    /// net gain descending, then port ascending, then ASIC ascending.
    #[inline(always)]
    fn key<K: Key>(&self, i: usize, j: usize, tm_ij: u64, sum: u64) -> K {
        let gain = tm_ij as i64 - (sum - tm_ij) as i64;
        let desc = (self.offset - gain as i128) as u64;
        K::pack(desc, ((i << self.asic_bits) | j) as u64, self.idx_bits)
    }
    /// Key of port `i`'s best ASIC among those with a free slot (highest
    /// `TM[i][j]`, lowest `j` on ties): the head of its remaining list.
    #[inline]
    fn head<K: Key>(&self, i: usize, sum: u64, free: &[usize]) -> K {
        let row = self.tm.row(i);
        let mut best = usize::MAX;
        for (j, &v) in row.iter().enumerate() {
            if free[j] > 0 && (best == usize::MAX || v > row[best]) {
                best = j;
            }
        }
        self.key(i, best, row[best], sum)
    }
    #[inline(always)]
    fn decode<K: Key>(&self, key: K) -> (usize, usize) {
        let idx = key.idx(self.idx_bits);
        (idx >> self.asic_bits, idx & ((1 << self.asic_bits) - 1))
    }
}

impl Walk for Listing1 {
    /// Lines 3-6: the net gain of every pair; line 8: the sort; lines 8-11: one pass over
    /// all pairs, assigning a port if it is unassigned and its ASIC has a free slot.
    fn walk<K: Key>(
        ctx: &Ctx<'_>,
        sums: &[u64],
        free: &mut [usize],
        bufs: &mut [Vec<K>; 2],
        out: &mut [usize],
        ops: &mut u64,
    ) {
        let (p, n) = (ctx.tm.ports(), ctx.tm.asics());
        let keys = &mut bufs[0];
        keys.clear();
        for (i, &sum) in sums.iter().enumerate() {
            let row = ctx.tm.row(i);
            keys.extend(
                row.iter()
                    .enumerate()
                    .map(|(j, &v)| ctx.key::<K>(i, j, v, sum)),
            );
        }
        let mut comparisons = 0u64;
        keys.sort_unstable_by(|a, b| {
            comparisons += 1;
            a.cmp(b)
        });
        const UNASSIGNED: usize = usize::MAX;
        out.fill(UNASSIGNED);
        for &k in keys.iter() {
            let (i, j) = ctx.decode(k);
            if out[i] == UNASSIGNED && free[j] > 0 {
                out[i] = j;
                free[j] -= 1;
            }
        }
        *ops += (2 * p * n) as u64 + comparisons;
    }
}

impl Walk for Select {
    /// The one-pass walk, in phases separated by "fill events" (an ASIC running out of free
    /// slots, at most `n - 1` of them).
    ///
    /// While the set of ASICs with free slots does not change, the head of every unassigned
    /// port's list is valid, and the walk assigns heads in key order until the first ASIC
    /// fills. Which heads those are does not depend on their order: for every ASIC `j`, the
    /// `free[j]`-th smallest key among the heads pointing at `j` is where `j` would fill;
    /// the smallest of these thresholds, `T` (ASIC `f`), is the first fill event, and the
    /// walk assigns exactly the heads with key `<= T`. So a phase needs selections
    /// (`select_nth_unstable`, linear time), not a sort. The remaining heads that pointed
    /// at `f` are re-keyed with their next choice (the walk would skip their `f` entries);
    /// with one ASIC left, all remaining ports go there.
    ///
    /// Counts operations per loop, not per iteration: the counting costs nothing measurable.
    fn walk<K: Key>(
        ctx: &Ctx<'_>,
        sums: &[u64],
        free: &mut [usize],
        bufs: &mut [Vec<K>; 2],
        out: &mut [usize],
        ops: &mut u64,
    ) {
        let (p, n) = (ctx.tm.ports(), ctx.tm.asics());
        let [cur, flat] = bufs;
        // Bucket j of the current phase is flat[j * p..j * p + len[j]].
        let mut len = [0usize; MAX_ASICS];
        if flat.len() < n * p {
            flat.resize(n * p, K::pack(0, 0, ctx.idx_bits));
        }
        for (i, &sum) in sums.iter().enumerate() {
            let k: K = ctx.head(i, sum, free);
            let best = ctx.decode(k).1;
            flat[best * p + len[best]] = k;
            len[best] += 1;
        }
        *ops += (p * n) as u64;
        let mut live = n;
        while live > 1 {
            let mut first: Option<(K, usize)> = None;
            for j in 0..n {
                let bucket = &mut flat[j * p..j * p + len[j]];
                if free[j] > 0 && bucket.len() >= free[j] {
                    *ops += bucket.len() as u64;
                    let t = *bucket.select_nth_unstable(free[j] - 1).1;
                    if first.is_none_or(|(ft, _)| t < ft) {
                        first = Some((t, j));
                    }
                }
            }
            // Unassigned heads == free slots, so some ASIC always fills.
            let Some((_, f)) = first else { break };
            let t = flat[f * p + free[f] - 1];
            // Bucket f is partitioned by the selection: its first free[f] keys
            // (exactly those <= t) fill it; the rest need a new head.
            for &k in &flat[f * p..f * p + free[f]] {
                out[ctx.decode(k).0] = f;
            }
            cur.clear();
            cur.extend_from_slice(&flat[f * p + free[f]..f * p + len[f]]);
            *ops += len[f] as u64;
            free[f] = 0;
            len[f] = 0;
            live -= 1;
            if live == 1 {
                // Everything left goes to the last ASIC with room.
                let last = free.iter().position(|&x| x > 0).unwrap_or(0);
                for &k in cur.iter() {
                    out[ctx.decode(k).0] = last;
                }
                for j in 0..n {
                    for &k in &flat[j * p..j * p + len[j]] {
                        out[ctx.decode(k).0] = last;
                    }
                }
                *ops += (cur.len() + len[..n].iter().sum::<usize>()) as u64;
                return;
            }
            for j in 0..n {
                // Branch-free compaction: heads <= t are assigned to j, the
                // others are kept (writing `out` for a kept port is harmless,
                // it is overwritten when the port is finally assigned).
                let mut kept = 0;
                *ops += len[j] as u64;
                for q in 0..len[j] {
                    let k = flat[j * p + q];
                    out[ctx.decode(k).0] = j;
                    let assigned = (k <= t) as usize;
                    free[j] -= assigned;
                    flat[j * p + kept] = k;
                    kept += 1 - assigned;
                }
                len[j] = kept;
            }
            *ops += (cur.len() * n) as u64;
            for &k in cur.iter() {
                let i = ctx.decode(k).0;
                let nk: K = ctx.head(i, sums[i], free);
                let j = ctx.decode(nk).1;
                flat[j * p + len[j]] = nk;
                len[j] += 1;
            }
        }
        // One ASIC left: every remaining head points at it.
        *ops += len[..n].iter().sum::<usize>() as u64;
        for j in 0..n {
            for &k in &flat[j * p..j * p + len[j]] {
                out[ctx.decode(k).0] = j;
            }
        }
    }
}

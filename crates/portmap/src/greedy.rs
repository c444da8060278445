//! The greedy heuristic of the paper (section 4.3, Listing 1).
//!
//! Listing 1 computes the net gain `TM[i][j] - (rowsum_i - TM[i][j])` of
//! every (port, ASIC) pair, sorts all `p * n` pairs by net gain (largest
//! first) and walks the sorted list once, assigning a port to an ASIC if the
//! port is still unassigned and the ASIC still has a free slot.
//!
//! This module computes exactly the same mapping, with a deterministic tie
//! order (net gain descending, then port ascending, then ASIC ascending), but
//! without sorting all `p * n` pairs: the global sorted list is the merge of
//! the `p` per-port lists (each sorted by `TM[i][j]`, which orders net gains
//! within a row). The walk only ever looks at the head of each unassigned
//! port's list, so we sort the `p` heads once and merge the few ports whose
//! head ASIC is full, re-queued with their next choice, through a small heap.
//! Entries of already-assigned ports are never generated, and entries of
//! full ASICs are skipped, exactly as the one-pass walk skips them.
//!
//! For 2 ASICs the heuristic is optimal (paper section 4.3; property-tested
//! against [`crate::exact`]).

use crate::problem::TmView;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Reusable buffers for [`solve_into`]; keeps the solver allocation-free
/// after the first call of a given size.
#[derive(Debug, Default, Clone)]
pub struct GreedyWorkspace {
    pref: Vec<u8>,
    rank: Vec<u8>,
    free: Vec<usize>,
    keys64: Vec<u64>,
    heap64: BinaryHeap<Reverse<u64>>,
    keys128: Vec<u128>,
    heap128: BinaryHeap<Reverse<u128>>,
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

/// Runs the greedy heuristic on `tm` (capacity `ports / asics` per ASIC)
/// and writes the ASIC of every port into `out` (length `tm.ports()`).
///
/// `tm` must have at most 255 ASICs (checked by the caller, see
/// [`crate::solve`]).
pub fn solve_into(tm: TmView<'_>, ws: &mut GreedyWorkspace, out: &mut [usize]) {
    let (p, n) = (tm.ports(), tm.asics());
    debug_assert!(n <= 255 && out.len() == p);
    ws.pref.clear();
    ws.pref.resize(p * n, 0);
    ws.rank.clear();
    ws.rank.resize(p, 0);
    ws.free.clear();
    ws.free.resize(n, tm.capacity());

    // Per-port preference lists (TM descending, ASIC ascending) and the
    // range of net gains, to decide whether the keys fit in 64 bits.
    let mut max_gain = i64::MIN;
    let mut min_gain = i64::MAX;
    for i in 0..p {
        let row = tm.row(i);
        let pref = &mut ws.pref[i * n..(i + 1) * n];
        for (j, slot) in pref.iter_mut().enumerate() {
            *slot = j as u8;
        }
        // Insertion sort: n is small and rows are short.
        for a in 1..n {
            let mut b = a;
            while b > 0 && row[pref[b - 1] as usize] < row[pref[b] as usize] {
                pref.swap(b - 1, b);
                b -= 1;
            }
        }
        let sum: u64 = row.iter().sum();
        let best = 2 * row[pref[0] as usize] as i64 - sum as i64;
        let worst = 2 * row[pref[n - 1] as usize] as i64 - sum as i64;
        max_gain = max_gain.max(best);
        min_gain = min_gain.min(worst);
    }
    let idx_bits = usize::BITS - (p * n).leading_zeros();
    let range = (max_gain as i128 - min_gain as i128) as u128;
    if idx_bits < 64 && range < (1u128 << (64 - idx_bits)) {
        let (keys, heap) = (&mut ws.keys64, &mut ws.heap64);
        walk::<u64>(
            tm,
            max_gain,
            idx_bits,
            &ws.pref,
            &mut ws.rank,
            &mut ws.free,
            keys,
            heap,
            out,
        );
    } else {
        let (keys, heap) = (&mut ws.keys128, &mut ws.heap128);
        walk::<u128>(
            tm,
            max_gain,
            idx_bits,
            &ws.pref,
            &mut ws.rank,
            &mut ws.free,
            keys,
            heap,
            out,
        );
    }
}

#[allow(clippy::too_many_arguments)]
fn walk<K: Key>(
    tm: TmView<'_>,
    max_gain: i64,
    idx_bits: u32,
    pref: &[u8],
    rank: &mut [u8],
    free: &mut [usize],
    keys: &mut Vec<K>,
    heap: &mut BinaryHeap<Reverse<K>>,
    out: &mut [usize],
) {
    let (p, n) = (tm.ports(), tm.asics());
    let key_of = |i: usize, j: usize| -> K {
        let row = tm.row(i);
        let sum: u64 = row.iter().sum();
        let gain = 2 * row[j] as i64 - sum as i64;
        let desc = (max_gain as i128 - gain as i128) as u64;
        K::pack(desc, (i * n + j) as u64, idx_bits)
    };
    keys.clear();
    keys.extend((0..p).map(|i| key_of(i, pref[i * n] as usize)));
    keys.sort_unstable();
    heap.clear();

    let mut next = 0;
    let mut assigned = 0;
    while assigned < p {
        let key = match heap.peek() {
            Some(&Reverse(h)) if next >= p || h < keys[next] => {
                heap.pop();
                h
            }
            _ => {
                next += 1;
                keys[next - 1]
            }
        };
        let idx = key.idx(idx_bits);
        let (i, j) = (idx / n, idx % n);
        if free[j] > 0 {
            free[j] -= 1;
            out[i] = j;
            assigned += 1;
        } else {
            // Re-queue port i with its next choice among ASICs with room;
            // one exists because free slots == unassigned ports > 0.
            let mut r = rank[i] as usize + 1;
            while free[pref[i * n + r] as usize] == 0 {
                r += 1;
            }
            rank[i] = r as u8;
            heap.push(Reverse(key_of(i, pref[i * n + r] as usize)));
        }
    }
}

//! Fast exact solver: the mapping problem as a transportation problem.
//!
//! The paper (section 4.2) solves the problem optimally by replicating every
//! ASIC `p/n` times and running the Hungarian algorithm on the resulting
//! `p x p` matrix, in `Θ(p^3)`. But the `p/n` copies of an ASIC are
//! interchangeable, so the problem is really a *transportation problem*:
//! `p` sources (ports) of supply 1 and `n` sinks (ASICs) of capacity `p/n`,
//! cost `-TM[i][j]` (minimising the inter-ASIC bytes is maximising the bytes
//! that stay local, because the total is fixed).
//!
//! We solve it by successive shortest paths over the `n` ASIC nodes only.
//! Ports are inserted one at a time. In the residual graph, an edge `a -> b`
//! means "move some port currently on ASIC `a` to ASIC `b`", and its cost is
//! the cheapest such move, `min_{x on a} (TM[x][a] - TM[x][b])`; we keep one
//! lazy min-heap of ports per ordered ASIC pair so every edge cost is a heap
//! peek. Inserting port `i` is a shortest path from `i` (edges `i -> j` of
//! cost `-TM[i][j]`) through the `n`-node graph to any ASIC with a free slot
//! (Bellman-Ford on `n` nodes: edge costs can be negative but, as the current
//! partial assignment is optimal, there is no negative cycle). Augmenting
//! along the path inserts `i` and shifts one port along each edge.
//!
//! Shortcut: if port `i`'s favourite ASIC still has a free slot, assigning it
//! there is a shortest path (every detour `i -> b -> ... -> a` costs at least
//! `-TM[i][b] >= -TM[i][a]`, since a detour from `b` to a free ASIC `a` that
//! were negative would close a negative cycle through the sink), so no search
//! is needed.
//!
//! Complexity: `O(p * (n^3 + n log p))`, i.e. linear in `p` for a fixed
//! number of ASICs, against `O(p^3)` for the Hungarian algorithm.

use crate::problem::TmView;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

const NONE: usize = usize::MAX;

/// Reusable buffers for [`solve_into`].
#[derive(Debug, Default, Clone)]
pub struct ExactWorkspace {
    /// `heaps[a * n + b]`: ports on ASIC `a` keyed by the cost
    /// `TM[x][a] - TM[x][b]` of moving them to `b` (stale entries, of ports
    /// that have left `a`, are dropped lazily).
    heaps: Vec<BinaryHeap<Reverse<(i64, u32)>>>,
    count: Vec<usize>,
    dist: Vec<i64>,
    pred: Vec<usize>,
    edge: Vec<(i64, u32)>,
    order: Vec<u32>,
}

/// Cost of an absent edge.
const INF: i64 = i64::MAX / 4;

/// Solves the mapping problem on `tm` (capacity `ports / asics` per ASIC)
/// optimally and writes the ASIC of every port into `out`.
pub fn solve_into(tm: TmView<'_>, ws: &mut ExactWorkspace, out: &mut [usize]) {
    let (p, n, cap) = (tm.ports(), tm.asics(), tm.capacity());
    debug_assert_eq!(out.len(), p);
    if ws.heaps.len() < n * n {
        ws.heaps.resize_with(n * n, BinaryHeap::new);
    }
    for h in &mut ws.heaps[..n * n] {
        h.clear();
    }
    ws.count.clear();
    ws.count.resize(n, 0);
    ws.dist.clear();
    ws.dist.resize(n, 0);
    ws.pred.clear();
    ws.pred.resize(n, NONE);
    ws.edge.clear();
    ws.edge.resize(n * n, (INF, 0));
    out.fill(NONE);

    // Insertion order: ports with the most to lose first (largest gap
    // between their best and second-best ASIC). Any order is optimal; this
    // one lets the shortcut handle most ports.
    ws.order.clear();
    ws.order.extend(0..p as u32);
    if n > 1 {
        let regret = |i: u32| {
            let row = tm.row(i as usize);
            let (mut b1, mut b2) = (0u64, 0u64);
            for &v in row {
                if v > b1 {
                    b2 = b1;
                    b1 = v;
                } else if v > b2 {
                    b2 = v;
                }
            }
            b1 - b2
        };
        ws.order.sort_unstable_by_key(|&i| (Reverse(regret(i)), i));
    }

    for oi in 0..p {
        let i = ws.order[oi] as usize;
        let row = tm.row(i);
        // Favourite ASIC (lowest index on ties).
        let mut fav = 0;
        for j in 1..n {
            if row[j] > row[fav] {
                fav = j;
            }
        }
        if ws.count[fav] < cap {
            place(tm, ws, out, i, fav);
            ws.count[fav] += 1;
            continue;
        }
        augment(tm, ws, out, i, cap);
    }
}

/// Puts port `x` on ASIC `a` and registers its possible moves away from `a`.
#[inline]
fn place(tm: TmView<'_>, ws: &mut ExactWorkspace, out: &mut [usize], x: usize, a: usize) {
    let n = tm.asics();
    out[x] = a;
    let row = tm.row(x);
    let here = row[a] as i64;
    for (b, &v) in row.iter().enumerate() {
        if b != a {
            ws.heaps[a * n + b].push(Reverse((here - v as i64, x as u32)));
        }
    }
}

/// Inserts port `i` along a shortest augmenting path.
fn augment(tm: TmView<'_>, ws: &mut ExactWorkspace, out: &mut [usize], i: usize, cap: usize) {
    let n = tm.asics();
    // Current edge costs: cheapest valid move from a to b.
    for a in 0..n {
        for b in 0..n {
            if a == b {
                continue;
            }
            let h = &mut ws.heaps[a * n + b];
            ws.edge[a * n + b] = loop {
                match h.peek() {
                    Some(&Reverse((c, x))) if out[x as usize] == a => break (c, x),
                    Some(_) => {
                        h.pop();
                    }
                    None => break (INF, 0),
                }
            };
        }
    }
    let row = tm.row(i);
    for j in 0..n {
        ws.dist[j] = -(row[j] as i64);
        ws.pred[j] = NONE;
    }
    // Bellman-Ford on n nodes (no negative cycles).
    for _ in 1..n {
        let mut changed = false;
        for a in 0..n {
            let da = ws.dist[a];
            for b in 0..n {
                let (c, _) = ws.edge[a * n + b];
                if a != b && c < INF && da + c < ws.dist[b] {
                    ws.dist[b] = da + c;
                    ws.pred[b] = a;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    let mut t = NONE;
    for j in 0..n {
        if ws.count[j] < cap && (t == NONE || ws.dist[j] < ws.dist[t]) {
            t = j;
        }
    }
    ws.count[t] += 1;
    let mut cur = t;
    while ws.pred[cur] != NONE {
        let a = ws.pred[cur];
        let (_, x) = ws.edge[a * n + cur];
        place(tm, ws, out, x as usize, cur);
        cur = a;
    }
    place(tm, ws, out, i, cur);
}

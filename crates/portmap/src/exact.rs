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
//! The residual graph lives on the `n` ASIC nodes only: an edge `a -> b`
//! means "move some port currently on ASIC `a` to ASIC `b`", and its cost
//! is the cheapest such move, `min_{x on a} (TM[x][a] - TM[x][b])`.
//!
//! [`solve_into`] runs in two stages:
//! 1. **Warm start**: the greedy mapping ([`crate::greedy`]), which is
//!    optimal for 2 ASICs and within a fraction of a percent otherwise.
//! 2. **Negative cycle canceling**: a balanced assignment is optimal iff the
//!    ASIC graph has no negative cycle (a cycle of moves keeps every ASIC's
//!    port count). Bellman-Ford from a virtual source finds one (checking
//!    the predecessor graph for a cycle after every round); moving the
//!    ports along it lowers the cost. Edge costs come from a scan of all
//!    ports (`O(p n)`), or, when many rounds are needed on large inputs,
//!    from lazy per-ASIC-pair min-heaps of ports.
//!
//! Each cancellation lowers the integer cost by at least one, so this
//! terminates, but without a polynomial bound; after `p` cancellations
//! (never reached in our tests: a few to a few dozen are typical) it falls
//! back to [`successive_shortest_paths`], which is polynomial on every
//! input: ports are inserted one at a time, each along a shortest path from
//! the new port (edges `i -> j` of cost `-TM[i][j]`) through the ASIC graph
//! to an ASIC with a free slot (Bellman-Ford on `n` nodes; no negative
//! cycles as the partial assignment stays optimal), shifting one port along
//! every edge of the path. Shortcut: if the port's favourite ASIC has room,
//! placing it there is a shortest path (a detour `i -> b -> ... -> a` costs
//! at least `-TM[i][b] >= -TM[i][a]`, since a negative detour from `b` to a
//! free ASIC would close a negative cycle through the sink).
//!
//! Complexity: stage 2 is `O(n^3 + p n)` per cancellation; the fallback is
//! `O(p (n^3 + n log p))`, linear in `p` for a fixed number of ASICs,
//! against `O(p^3)` for the Hungarian algorithm.

use crate::greedy;
use crate::problem::TmView;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

const NONE: usize = usize::MAX;

/// Reusable buffers for [`solve_into`].
#[derive(Debug, Default, Clone)]
pub struct ExactWorkspace {
    /// Elementary operations of the last solve (see [`ExactWorkspace::ops`]).
    ops: u64,
    /// `heaps[a * n + b]`: ports on ASIC `a` keyed by the cost
    /// `TM[x][a] - TM[x][b]` of moving them to `b` (stale entries, of ports
    /// that have left `a`, are dropped lazily).
    heaps: Vec<BinaryHeap<Reverse<(i64, u32)>>>,
    count: Vec<usize>,
    dist: Vec<i64>,
    pred: Vec<usize>,
    edge: Vec<(i64, u32)>,
    order: Vec<u128>,
    bulk: Vec<Vec<Reverse<(i64, u32)>>>,
    seen: Vec<usize>,
    dirty: Vec<bool>,
    greedy: crate::greedy::GreedyWorkspace,
}

/// Cost of an absent edge.
const INF: i64 = i64::MAX / 4;

impl ExactWorkspace {
    /// Elementary operations of the last [`solve_into`] or [`successive_shortest_paths`]:
    /// the greedy warm start's ([`greedy::GreedyWorkspace::ops`]), then one per
    /// traffic-matrix entry scanned for edge costs, ASIC-graph edge relaxed or refreshed,
    /// heap push or pop, predecessor followed and port moved; a sort counts its input
    /// length. A function of the input only.
    pub fn ops(&self) -> u64 {
        self.ops
    }
}

/// Solves the mapping problem on `tm` (capacity `ports / asics` per ASIC)
/// optimally and writes the ASIC of every port into `out`.
///
/// Warm start: the greedy mapping, then cancel negative cycles until none
/// is left (optimal). If that takes more than `p` cancellations (each one
/// lowers the cost by at least one byte, but there is no better bound),
/// fall back to successive shortest paths, which is `O(p n^3)` always.
pub fn solve_into(tm: TmView<'_>, ws: &mut ExactWorkspace, out: &mut [usize]) {
    let (p, n) = (tm.ports(), tm.asics());
    debug_assert_eq!(out.len(), p);
    ws.ops = 0;
    reset(ws, n);
    if n == 1 {
        out.fill(0);
        return;
    }
    greedy::solve_into(tm, &mut ws.greedy, out);
    ws.ops += ws.greedy.ops();
    ws.dirty.fill(true);
    // Edge costs: rescanning all ports per round is cheapest when few
    // rounds are needed (greedy is often optimal already) or there are few
    // ports per ASIC; after a few rounds on larger inputs, switch to the
    // lazy move heaps.
    let mut use_heaps = false;
    for round in 0..p {
        if !use_heaps && round == SCAN_ROUNDS && p > SCAN_MAX_PORTS_PER_ASIC * n {
            build_heaps(tm, ws, out);
            use_heaps = true;
        }
        if !cancel_negative_cycle(tm, ws, out, use_heaps) {
            return;
        }
    }
    ssp(tm, ws, out);
}

/// Above this many ports per ASIC, cycle canceling switches to the move
/// heaps after [`SCAN_ROUNDS`] rounds.
const SCAN_MAX_PORTS_PER_ASIC: usize = 16;
/// Rounds of cycle canceling that always rescan.
const SCAN_ROUNDS: usize = 4;

/// Bulk-builds the move heaps of a full assignment (linear heapify),
/// reusing each heap's own buffer.
fn build_heaps(tm: TmView<'_>, ws: &mut ExactWorkspace, out: &[usize]) {
    let n = tm.asics();
    ws.ops += (out.len() * n) as u64;
    for (h, v) in ws.heaps[..n * n].iter_mut().zip(&mut ws.bulk[..n * n]) {
        *v = std::mem::take(h).into_vec();
        v.clear();
    }
    for (x, &a) in out.iter().enumerate() {
        let row = tm.row(x);
        for (b, &v) in row.iter().enumerate() {
            if b != a {
                ws.bulk[a * n + b].push(Reverse((row[a] as i64 - v as i64, x as u32)));
            }
        }
    }
    for (h, v) in ws.heaps[..n * n].iter_mut().zip(&mut ws.bulk[..n * n]) {
        *h = BinaryHeap::from(std::mem::take(v));
    }
}

fn reset(ws: &mut ExactWorkspace, n: usize) {
    if ws.heaps.len() < n * n {
        ws.heaps.resize_with(n * n, BinaryHeap::new);
        ws.bulk.resize_with(n * n, Vec::new);
    }
    for h in &mut ws.heaps[..n * n] {
        h.clear();
    }
    for v in &mut ws.bulk[..n * n] {
        v.clear();
    }
    ws.count.clear();
    ws.count.resize(n, 0);
    ws.dist.clear();
    ws.dist.resize(n, 0);
    ws.pred.clear();
    ws.pred.resize(n, NONE);
    ws.edge.clear();
    ws.edge.resize(n * n, (INF, 0));
    ws.dirty.clear();
    ws.dirty.resize(n, true);
}

/// Refreshes `ws.edge` with the cheapest valid move of every ASIC pair.
fn refresh_edges(n: usize, ws: &mut ExactWorkspace, out: &[usize]) {
    for a in 0..n {
        for b in 0..n {
            if a == b {
                continue;
            }
            let h = &mut ws.heaps[a * n + b];
            ws.ops += 1;
            ws.edge[a * n + b] = loop {
                match h.peek() {
                    Some(&Reverse((c, x))) if out[x as usize] == a => break (c, x),
                    Some(_) => {
                        ws.ops += 1;
                        h.pop();
                    }
                    None => break (INF, 0),
                }
            };
        }
    }
}

/// Recomputes the edges leaving the ASICs marked in `ws.dirty` (and clears
/// the marks) by scanning their ports: `O(p + d p)` for `d` dirty
/// ASICs, cheaper than maintaining heaps for the few rounds cycle canceling
/// usually needs.
fn scan_edges(tm: TmView<'_>, ws: &mut ExactWorkspace, out: &[usize]) {
    let n = tm.asics();
    for a in 0..n {
        if ws.dirty[a] {
            ws.edge[a * n..(a + 1) * n].fill((INF, 0));
        }
    }
    ws.ops += out.len() as u64;
    for (x, &a) in out.iter().enumerate() {
        if !ws.dirty[a] {
            continue;
        }
        ws.ops += n as u64;
        let row = tm.row(x);
        let here = row[a] as i64;
        let edges = &mut ws.edge[a * n..(a + 1) * n];
        for (e, &v) in edges.iter_mut().zip(row) {
            let c = here - v as i64;
            if c < e.0 {
                *e = (c, x as u32);
            }
        }
    }
    for a in 0..n {
        // No self-moves.
        ws.edge[a * n + a] = (INF, 0);
        ws.dirty[a] = false;
    }
}

/// Bellman-Ford relaxation rounds over the ASIC graph from the current
/// `ws.dist`; returns the last node relaxed in round `rounds` (if any).
fn bellman_ford(n: usize, ws: &mut ExactWorkspace, rounds: usize) -> Option<usize> {
    let mut last = None;
    for _ in 0..rounds {
        last = None;
        for a in 0..n {
            let da = ws.dist[a];
            if da >= INF {
                continue;
            }
            ws.ops += n as u64;
            for b in 0..n {
                let (c, _) = ws.edge[a * n + b];
                if a != b && c < INF && da + c < ws.dist[b] {
                    ws.dist[b] = da + c;
                    ws.pred[b] = a;
                    last = Some(b);
                }
            }
        }
        last?;
    }
    last
}

/// A node on a cycle of the predecessor graph `ws.pred`, if there is one
/// (such a cycle is always negative).
fn pred_cycle(n: usize, ws: &mut ExactWorkspace) -> Option<usize> {
    // seen[v] = the walk that first reached v (walks are numbered from 1).
    ws.seen.clear();
    ws.seen.resize(n, 0);
    for s in 0..n {
        let mut v = s;
        while v != NONE && ws.seen[v] == 0 {
            ws.ops += 1;
            ws.seen[v] = s + 1;
            v = ws.pred[v];
        }
        if v != NONE && ws.seen[v] == s + 1 {
            return Some(v);
        }
    }
    None
}

/// Finds a negative cycle of moves (port on `a` to `b`, port on `b` to
/// `c`, ..., back to `a`) and applies it. Returns false if there is none,
/// i.e. the mapping is optimal.
fn cancel_negative_cycle(
    tm: TmView<'_>,
    ws: &mut ExactWorkspace,
    out: &mut [usize],
    use_heaps: bool,
) -> bool {
    let n = tm.asics();
    if use_heaps {
        refresh_edges(n, ws, out);
    } else {
        scan_edges(tm, ws, out);
    }
    ws.dist.fill(0);
    ws.pred.fill(NONE);
    // Bellman-Ford from a virtual source at distance 0 to every node. Any
    // cycle of the predecessor graph is negative, and one appears within n
    // rounds iff a negative cycle exists; check after every round so most
    // cycles are found after two or three rounds instead of n.
    let mut found = None;
    for _ in 0..n {
        if bellman_ford(n, ws, 1).is_none() {
            return false;
        }
        found = pred_cycle(n, ws);
        if found.is_some() {
            break;
        }
    }
    let Some(start) = found else { return false };
    // Apply every move of the cycle. The moves leave distinct ASICs, hence
    // move distinct ports; port counts are unchanged.
    let mut v = start;
    loop {
        let a = ws.pred[v];
        let (_, x) = ws.edge[a * n + v];
        ws.ops += 1;
        if use_heaps {
            place(tm, ws, out, x as usize, v);
        } else {
            out[x as usize] = v;
            ws.dirty[a] = true;
        }
        v = a;
        if v == start {
            return true;
        }
    }
}

/// Successive shortest paths from scratch (see the module docs): the
/// fallback of [`solve_into`], `O(p (n^3 + n log p))` on every input.
/// Public so that tests and benchmarks can exercise it on its own.
pub fn successive_shortest_paths(tm: TmView<'_>, ws: &mut ExactWorkspace, out: &mut [usize]) {
    ws.ops = 0;
    ssp(tm, ws, out);
}

/// [`successive_shortest_paths`], adding to the operations counted so far.
fn ssp(tm: TmView<'_>, ws: &mut ExactWorkspace, out: &mut [usize]) {
    let (p, n, cap) = (tm.ports(), tm.asics(), tm.capacity());
    reset(ws, n);
    out.fill(NONE);

    // Insertion order: ports with the most to lose first (largest gap
    // between their best and second-best ASIC). Any order is optimal; this
    // one lets the shortcut handle most ports.
    ws.order.clear();
    if n > 1 {
        ws.order.extend((0..p).map(|i| {
            let row = tm.row(i);
            let (mut b1, mut b2) = (0u64, 0u64);
            for &v in row {
                if v > b1 {
                    b2 = b1;
                    b1 = v;
                } else if v > b2 {
                    b2 = v;
                }
            }
            // Regret descending, then port ascending.
            ((!(b1 - b2) as u128) << 64) | i as u128
        }));
        ws.order.sort_unstable();
        ws.ops += (p * n + p) as u64;
    } else {
        ws.order.extend(0..p as u128);
    }

    for oi in 0..p {
        let i = ws.order[oi] as u64 as usize;
        let row = tm.row(i);
        ws.ops += n as u64;
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
    ws.ops += n as u64;
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
    refresh_edges(n, ws, out);
    let row = tm.row(i);
    for (d, &v) in ws.dist.iter_mut().zip(row) {
        *d = -(v as i64);
    }
    ws.pred.fill(NONE);
    // No negative cycles: n - 1 rounds converge.
    bellman_ford(n, ws, n - 1);
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

//! RDC-style baseline: balanced graph partitioning by recursive bisection
//! with Kernighan-Lin refinement.
//!
//! RDC (NSDI 2022) and OSSV regroup servers across racks by solving a
//! *balanced graph partitioning* problem with a general-purpose heuristic;
//! the Fastroute paper (sections 4.4 and A.1, Fig. 22) runs that kind of
//! algorithm on its own inputs as the slow baseline. We reproduce the
//! approach rather than RDC's exact code, which is not available here:
//!
//! * Graph: one vertex per ingress port (movable) and one per ASIC (pinned to
//!   its own part); an edge port `i` -- ASIC `j` of weight `TM[i][j]`.
//!   Port-port edge weights are zero here, but the partitioner is the generic
//!   one and does not exploit that (which is why it is slow).
//! * Partitioning: recursive bisection. The ASICs of a part are split into
//!   two halves (`ceil(m/2)`, `floor(m/2)` ASICs), and the ports of the part
//!   into two sets sized `p/n` times the ASIC counts, starting from the
//!   static order and refined by Kernighan-Lin (1970): each pass swaps the
//!   best unlocked pair `(a, b)` by gain `D_a + D_b - 2 w(a, b)` (scanning
//!   all pairs), locks it, updates the `D` values of the remaining vertices,
//!   and finally keeps the prefix of swaps with the largest positive total
//!   gain. Passes repeat until no positive gain remains (at most
//!   [`MAX_PASSES`]).
//!
//! The result is balanced (exactly `p/n` ports per ASIC) but, like every
//! graph-partitioning heuristic, not guaranteed optimal.

use crate::problem::TmView;

/// Upper bound on Kernighan-Lin passes per bisection.
pub const MAX_PASSES: usize = 16;

/// Reusable buffers for [`solve_into`].
#[derive(Debug, Default, Clone)]
pub struct RdcWorkspace {
    /// Elementary operations of the last solve (see [`RdcWorkspace::ops`]).
    ops: u64,
    ports: Vec<usize>,
    d: Vec<i64>,
    locked: Vec<bool>,
    swaps: Vec<(usize, usize, i64)>,
}

impl RdcWorkspace {
    /// Elementary operations of the last [`solve_into`]: the inner-loop iterations of every
    /// Kernighan-Lin pass (one per traffic-matrix entry summed into a `D` value, per pair
    /// scanned for the best swap, per `D` value updated, per swap of the best prefix) and
    /// one per port placed. A function of the input only.
    pub fn ops(&self) -> u64 {
        self.ops
    }
}

/// Partitions the ports of `tm` into `asics` balanced parts and writes the
/// ASIC of every port into `out`.
pub fn solve_into(tm: TmView<'_>, ws: &mut RdcWorkspace, out: &mut [usize]) {
    let p = tm.ports();
    ws.ports.clear();
    ws.ports.extend(0..p);
    ws.ops = 0;
    bisect(tm, ws, 0, p, 0, tm.asics(), out);
}

/// Partitions `ws.ports[lo..hi]` among ASICs `a0..a1`.
fn bisect(
    tm: TmView<'_>,
    ws: &mut RdcWorkspace,
    lo: usize,
    hi: usize,
    a0: usize,
    a1: usize,
    out: &mut [usize],
) {
    if a1 - a0 == 1 {
        ws.ops += (hi - lo) as u64;
        for &x in &ws.ports[lo..hi] {
            out[x] = a0;
        }
        return;
    }
    let am = a0 + (a1 - a0).div_ceil(2);
    let mid = lo + (am - a0) * tm.capacity();
    kernighan_lin(tm, ws, lo, mid, hi, (a0, am, a1));
    bisect(tm, ws, lo, mid, a0, am, out);
    bisect(tm, ws, mid, hi, am, a1, out);
}

/// Weight of the edge between two port vertices: ports only talk to ASICs.
#[inline]
fn port_port_weight(_x: usize, _y: usize) -> i64 {
    0
}

/// Refines the bisection `ports[lo..mid]` (side A, ASICs `a0..am`) /
/// `ports[mid..hi]` (side B, ASICs `am..a1`).
fn kernighan_lin(
    tm: TmView<'_>,
    ws: &mut RdcWorkspace,
    lo: usize,
    mid: usize,
    hi: usize,
    (a0, am, a1): (usize, usize, usize),
) {
    let m = hi - lo;
    let side_sum = |x: usize, from: usize, to: usize| -> i64 {
        tm.row(x)[from..to].iter().map(|&v| v as i64).sum()
    };
    for _ in 0..MAX_PASSES {
        // D = external - internal cost of every vertex.
        ws.d.clear();
        ws.locked.clear();
        ws.locked.resize(m, false);
        ws.ops += (m * (a1 - a0)) as u64;
        for (k, &x) in ws.ports[lo..hi].iter().enumerate() {
            let (ia, ib) = (side_sum(x, a0, am), side_sum(x, am, a1));
            ws.d.push(if lo + k < mid { ib - ia } else { ia - ib });
        }
        ws.swaps.clear();
        for step in 0..(mid - lo).min(hi - mid) {
            // The pairs scanned: each of the side-A vertices still unlocked (`step` of them
            // are locked) against every side-B one (counted here, outside the scan).
            ws.ops += ((mid - lo - step) * (hi - mid)) as u64;
            let mut best: Option<(usize, usize, i64)> = None;
            for ka in 0..mid - lo {
                if ws.locked[ka] {
                    continue;
                }
                for kb in mid - lo..m {
                    if ws.locked[kb] {
                        continue;
                    }
                    let w = port_port_weight(ws.ports[lo + ka], ws.ports[lo + kb]);
                    let g = ws.d[ka] + ws.d[kb] - 2 * w;
                    if best.is_none_or(|(_, _, bg)| g > bg) {
                        best = Some((ka, kb, g));
                    }
                }
            }
            let Some((ka, kb, g)) = best else { break };
            ws.locked[ka] = true;
            ws.locked[kb] = true;
            ws.swaps.push((ka, kb, g));
            // D update: D_x += 2 w(x, a) - 2 w(x, b) for x on side A, and
            // symmetrically for side B.
            let (xa, xb) = (ws.ports[lo + ka], ws.ports[lo + kb]);
            ws.ops += m as u64;
            for k in 0..m {
                if !ws.locked[k] {
                    let x = ws.ports[lo + k];
                    let delta = 2 * port_port_weight(x, xa) - 2 * port_port_weight(x, xb);
                    ws.d[k] += if k < mid - lo { delta } else { -delta };
                }
            }
        }
        // Best prefix of the swap sequence.
        let (mut best_k, mut best_g, mut acc) = (0, 0i64, 0i64);
        for (k, &(_, _, g)) in ws.swaps.iter().enumerate() {
            acc += g;
            if acc > best_g {
                best_g = acc;
                best_k = k + 1;
            }
        }
        ws.ops += ws.swaps.len() as u64;
        if best_k == 0 {
            break;
        }
        ws.ops += best_k as u64;
        for s in 0..best_k {
            let (ka, kb, _) = ws.swaps[s];
            ws.ports.swap(lo + ka, lo + kb);
        }
    }
}

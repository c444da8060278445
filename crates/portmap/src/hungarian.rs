//! Reference exact solver: the Hungarian algorithm on the expanded `p x p`
//! matrix, as in the paper (section 4.2).
//!
//! Every ASIC is replicated `p/n` times ("slots"); slot `s` belongs to ASIC
//! `s / (p/n)`, and assigning port `i` to it costs `-TM[i][s / (p/n)]`.
//! The assignment is computed with the classic `O(p^3)` shortest augmenting
//! path formulation with row and column potentials (Kuhn-Munkres as refined
//! by Jonker-Volgenant / Tomizawa): rows are added one at a time, each by a
//! Dijkstra-like search over the columns. The expanded matrix is never
//! stored; its entries are computed from `TM` on the fly.
//!
//! This solver exists to check [`crate::exact`] and to reproduce the paper's
//! baseline runtime; it is much slower.

use crate::problem::TmView;

/// Reusable buffers for [`solve_into`].
#[derive(Debug, Default, Clone)]
pub struct HungarianWorkspace {
    /// Elementary operations of the last solve (see [`HungarianWorkspace::ops`]).
    ops: u64,
    u: Vec<i64>,
    v: Vec<i64>,
    row_of: Vec<usize>,
    way: Vec<usize>,
    minv: Vec<i64>,
    used: Vec<bool>,
}

const INF: i64 = i64::MAX / 4;

impl HungarianWorkspace {
    /// Elementary operations of the last [`solve_into`]: the inner-loop iterations, one per
    /// column relaxed or potential updated in every step of every row's search (`2p + 1`
    /// per step), plus the steps of the augmenting paths. A function of the input only.
    pub fn ops(&self) -> u64 {
        self.ops
    }
}

/// Solves the mapping problem on `tm` optimally and writes the ASIC of
/// every port into `out`.
pub fn solve_into(tm: TmView<'_>, ws: &mut HungarianWorkspace, out: &mut [usize]) {
    let p = tm.ports();
    let k = tm.capacity();
    ws.ops = 0;
    // 1-based indices, 0 is the virtual column / row.
    let reset = |v: &mut Vec<i64>, val: i64| {
        v.clear();
        v.resize(p + 1, val);
    };
    reset(&mut ws.u, 0);
    reset(&mut ws.v, 0);
    reset(&mut ws.minv, INF);
    ws.row_of.clear();
    ws.row_of.resize(p + 1, 0);
    ws.way.clear();
    ws.way.resize(p + 1, 0);
    ws.used.clear();
    ws.used.resize(p + 1, false);

    for i in 1..=p {
        ws.row_of[0] = i;
        let mut j0 = 0;
        ws.minv.fill(INF);
        ws.used.fill(false);
        loop {
            ws.used[j0] = true;
            let i0 = ws.row_of[j0];
            let mut delta = INF;
            let mut j1 = 0;
            let ui0 = ws.u[i0];
            let row = tm.row(i0 - 1);
            // Columns come in blocks of k slots of the same ASIC: walk them
            // block by block so the cost is read once per block.
            for (a, &bytes) in row.iter().enumerate() {
                let c = -(bytes as i64) - ui0;
                for j in a * k + 1..=(a + 1) * k {
                    if !ws.used[j] {
                        let cur = c - ws.v[j];
                        if cur < ws.minv[j] {
                            ws.minv[j] = cur;
                            ws.way[j] = j0;
                        }
                        if ws.minv[j] < delta {
                            delta = ws.minv[j];
                            j1 = j;
                        }
                    }
                }
            }
            for j in 0..=p {
                if ws.used[j] {
                    ws.u[ws.row_of[j]] += delta;
                    ws.v[j] -= delta;
                } else {
                    ws.minv[j] -= delta;
                }
            }
            ws.ops += (2 * p + 1) as u64;
            j0 = j1;
            if ws.row_of[j0] == 0 {
                break;
            }
        }
        loop {
            ws.ops += 1;
            let j1 = ws.way[j0];
            ws.row_of[j0] = ws.row_of[j1];
            j0 = j1;
            if j0 == 0 {
                break;
            }
        }
    }
    for j in 1..=p {
        out[ws.row_of[j] - 1] = (j - 1) / k;
    }
}

//! Port bundles and independent circuit switches, as a reduction shared by
//! every solver.
//!
//! * **Bundles** (paper section A.1): groups of `b` consecutive ports move
//!   together. A bundle behaves like one logical port whose TM row is the
//!   sum of its ports' rows, and every ASIC receives `p / (n b)` bundles.
//! * **Circuit switches** (paper sections 3.1 and 6.4, Fig. 16): the
//!   indirection layer is split into `C` independent circuit switches;
//!   switch `c` connects the contiguous ports `c p/C .. (c+1) p/C` to
//!   `p/(C n)` internal ports of every ASIC, so it balances only within
//!   itself and has its own controller.
//!
//! Both constraints therefore reduce to `C` independent, unconstrained
//! sub-problems of `p / (C b)` rows (aggregated bundle rows of one circuit
//! switch) on the same `n` ASICs; [`solve`] builds each sub-problem in a
//! reusable buffer, runs the chosen solver and expands the bundle mapping
//! back to ports. The solvers themselves know nothing about constraints.
//! Because the objective is linear, the optimum of the constrained problem
//! is the sum of the sub-problems' optima, so [`Solver::Exact`] and
//! [`Solver::Hungarian`] stay exact.

use crate::problem::{Error, TmView};
use crate::{exact, greedy, hungarian, rdc};
use std::fmt;
use std::str::FromStr;

/// The structural constraints of the indirection layer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Constraints {
    /// Ports per bundle (`b >= 1`; 1 = no bundling).
    pub bundle: usize,
    /// Number of independent circuit switches (`C >= 1`).
    pub circuit_switches: usize,
}

impl Default for Constraints {
    fn default() -> Self {
        Self {
            bundle: 1,
            circuit_switches: 1,
        }
    }
}

impl Constraints {
    /// Checks that `ports` ports on `asics` ASICs can be split into
    /// `circuit_switches` switches of whole bundles, with the same number of
    /// bundles per ASIC in every switch.
    pub fn check(&self, ports: usize, asics: usize) -> Result<(), Error> {
        if self.bundle == 0 {
            return Err(Error::Zero { field: "bundle" });
        }
        if self.circuit_switches == 0 {
            return Err(Error::Zero {
                field: "circuit_switches",
            });
        }
        if asics == 0 {
            return Err(Error::Zero { field: "asics" });
        }
        let not_div = |divisor: usize, desc: &str| Error::NotDivisible {
            field: "ports",
            value: ports,
            divisor,
            divisor_desc: desc.to_string(),
        };
        if !ports.is_multiple_of(self.bundle) {
            return Err(not_div(self.bundle, "the bundle size"));
        }
        if !ports.is_multiple_of(self.circuit_switches) {
            return Err(not_div(
                self.circuit_switches,
                "the number of circuit switches",
            ));
        }
        let unit = self
            .bundle
            .checked_mul(asics)
            .and_then(|x| x.checked_mul(self.circuit_switches))
            .ok_or(Error::TooMany {
                field: "bundle",
                max: ports,
                got: self.bundle,
            })?;
        if !ports.is_multiple_of(unit) {
            return Err(not_div(
                unit,
                "bundle x asics x circuit_switches, so every circuit switch gives each ASIC the same number of whole bundles",
            ));
        }
        Ok(())
    }
}

/// The mapping algorithms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Solver {
    /// The paper's greedy heuristic (section 4.3), Listing 1 as written: net gains, one sort
    /// of all pairs, one pass ([`crate::greedy::solve_into`]). The reference greedy.
    Greedy,
    /// Listing 1's mapping computed with linear-time selections instead of the sort
    /// ([`crate::greedy::select_into`]): the same mapping, several times faster.
    GreedySelect,
    /// Fast exact transportation-problem solver ([`crate::exact`]).
    Exact,
    /// Reference Hungarian algorithm on the `p x p` matrix (section 4.2).
    Hungarian,
    /// RDC-style balanced graph partitioning baseline ([`crate::rdc`]).
    Rdc,
}

impl Solver {
    /// All solvers.
    pub const ALL: [Solver; 5] = [
        Solver::Greedy,
        Solver::GreedySelect,
        Solver::Exact,
        Solver::Hungarian,
        Solver::Rdc,
    ];

    /// Name as used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Solver::Greedy => "greedy",
            Solver::GreedySelect => "greedy-select",
            Solver::Exact => "exact",
            Solver::Hungarian => "hungarian",
            Solver::Rdc => "rdc",
        }
    }
}

impl fmt::Display for Solver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Solver {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Solver::ALL
            .into_iter()
            .find(|x| x.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Solver::ALL.iter().map(|x| x.name()).collect();
                format!("unknown solver `{s}` (allowed: {})", names.join(", "))
            })
    }
}

/// Buffers of all solvers and of the reduction, reused across calls (the
/// simulator solves every reconfiguration interval).
#[derive(Debug, Default, Clone)]
pub struct Workspace {
    greedy: greedy::GreedyWorkspace,
    exact: exact::ExactWorkspace,
    hungarian: hungarian::HungarianWorkspace,
    rdc: rdc::RdcWorkspace,
    sub_tm: Vec<u64>,
    sub_out: Vec<usize>,
    ops: u64,
}

impl Workspace {
    /// An empty workspace; buffers grow on first use.
    pub fn new() -> Self {
        Self::default()
    }

    /// Elementary operations of the last [`solve`] (summed over its sub-problems): the
    /// solver's inner-loop iterations as each solver module counts them (`ops()` of its
    /// workspace). Unlike a wall-clock time, a function of the input and the solver only,
    /// the same on every machine and run; the counting is per loop, not per iteration, and
    /// costs nothing measurable.
    pub fn ops(&self) -> u64 {
        self.ops
    }
}

/// Largest supported number of ASICs.
pub const MAX_ASICS: usize = 255;

/// Solves the mapping problem for `tm` under `constraints` with `solver`,
/// writing the ASIC of every port into `out` (resized to `tm.ports()`).
///
/// Errors if the constraints do not fit the matrix' shape; never panics on
/// a valid [`TmView`] (one obtained from a [`crate::TrafficMatrix`]).
pub fn solve(
    tm: TmView<'_>,
    constraints: &Constraints,
    solver: Solver,
    ws: &mut Workspace,
    out: &mut Vec<usize>,
) -> Result<(), Error> {
    let (p, n) = (tm.ports(), tm.asics());
    if n > MAX_ASICS {
        return Err(Error::TooMany {
            field: "asics",
            max: MAX_ASICS,
            got: n,
        });
    }
    if p > u32::MAX as usize {
        return Err(Error::TooMany {
            field: "ports",
            max: u32::MAX as usize,
            got: p,
        });
    }
    constraints.check(p, n)?;
    // Every solver writes every entry; resizing (not clearing) avoids a
    // memset per call.
    out.resize(p, 0);
    let Workspace {
        greedy,
        exact,
        hungarian,
        rdc,
        sub_tm,
        sub_out,
        ops,
    } = ws;
    *ops = 0;
    let mut run = |view: TmView<'_>, dst: &mut [usize]| {
        *ops += match solver {
            Solver::Greedy => {
                greedy::solve_into(view, greedy, dst);
                greedy.ops()
            }
            Solver::GreedySelect => {
                greedy::select_into(view, greedy, dst);
                greedy.ops()
            }
            Solver::Exact => {
                exact::solve_into(view, exact, dst);
                exact.ops()
            }
            Solver::Hungarian => {
                hungarian::solve_into(view, hungarian, dst);
                hungarian.ops()
            }
            Solver::Rdc => {
                rdc::solve_into(view, rdc, dst);
                rdc.ops()
            }
        }
    };
    let (b, cs) = (constraints.bundle, constraints.circuit_switches);
    if b == 1 && cs == 1 {
        run(tm, out);
        return Ok(());
    }
    let per_switch = p / cs;
    let rows = per_switch / b;
    sub_out.clear();
    sub_out.resize(rows, 0);
    for c in 0..cs {
        sub_tm.clear();
        sub_tm.resize(rows * n, 0);
        for r in 0..rows {
            let acc = &mut sub_tm[r * n..(r + 1) * n];
            for q in 0..b {
                for (s, &v) in acc.iter_mut().zip(tm.row(c * per_switch + r * b + q)) {
                    *s += v;
                }
            }
        }
        let view = TmView {
            ports: rows,
            asics: n,
            data: sub_tm,
        };
        run(view, sub_out);
        for (r, &a) in sub_out.iter().enumerate() {
            let first = c * per_switch + r * b;
            out[first..first + b].fill(a);
        }
    }
    Ok(())
}

//! # portmap: Fastroute's control plane
//!
//! Fastroute ("The Power of Indirection: Scaling Switches Beyond Silicon
//! Boundaries") puts a circuit-switched indirection layer in front of the
//! `n` ASICs of a `p`-port multi-ASIC switch. Egress ports stay fixed (port
//! `e` belongs to ASIC `e / (p/n)`), but every reconfiguration interval the
//! controller may remap each *ingress* port to any ASIC, as long as every
//! ASIC keeps exactly `p/n` ingress ports. It reads the traffic matrix
//! `TM[port][asic]` (bytes from an ingress port to the egress ports of an
//! ASIC) and picks the mapping that minimises the bytes crossing ASICs
//! (paper section 4.1, eq. 1-2):
//!
//! ```text
//! minimise  sum_i (sum_j TM[i][j] - TM[i][a(i)])   s.t. |{i : a(i) = j}| = p/n for all j
//! ```
//!
//! ## Algorithms
//! * [`greedy`]: the paper's heuristic (section 4.3, Listing 1): net gain,
//!   sort, one pass; deterministic ties. Optimal for 2 ASICs. Listing 1 as
//!   written is [`Solver::Greedy`]; [`Solver::GreedySelect`] computes the same
//!   mapping with linear-time selections instead of the sort.
//! * [`exact`]: a fast exact solver. The problem is a transportation problem
//!   with `n` sinks of capacity `p/n` (each ASIC takes exactly its `p/n` ports), whose residual
//!   graph can be collapsed onto the `n` ASIC nodes. We warm-start from the
//!   greedy mapping and cancel negative cycles of port moves until none is
//!   left (optimality), with successive shortest paths over the ASIC nodes,
//!   `O(p (n^3 + n log p))`, as the guaranteed-polynomial fallback.
//! * [`hungarian`]: the paper's exact method (section 4.2): the Hungarian
//!   algorithm on the `p x p` matrix with every ASIC replicated `p/n` times,
//!   `O(p^3)`. Reference for tests and benchmarks.
//! * [`rdc`]: the RDC-style baseline (sections 4.4, A.1, Fig. 22): balanced
//!   graph partitioning by recursive bisection with Kernighan-Lin (1970)
//!   pairwise-swap refinement.
//! * [`constraints`]: port bundles (section A.1) and several independent
//!   circuit switches (sections 3.1, 6.4), expressed as one reduction to
//!   independent sub-problems that every solver shares ([`solve`]).
//! * [`power`]: the power and radix model (sections 1, 6.5, A.6; Tables 2
//!   and 3, Fig. 2).
//! * [`gen`]: deterministic (SplitMix64) random traffic matrices for tests,
//!   the `greedy_gap` example and the benchmarks.
//!
//! ## Checks and measurements
//! * `tests/power.rs` reproduces Tables 2 and 3 as printed, Fig. 2's +33 %
//!   and the section 1 host-count gains (within one percentage point: the
//!   continuous model gives +31-78 % and +49-137 %, the paper +30-78 % and
//!   +49-138 %).
//! * `tests/solvers.rs`: greedy == a literal Listing 1 transcription ==
//!   greedy-select;
//!   greedy optimal for 2 ASICs; exact == Hungarian == brute force, with and
//!   without bundles and circuit switches; heuristics never beat the optimum.
//! * `tests/input.rs`: malformed input gives an [`Error`], never a panic.
//! * `examples/greedy_gap.rs` and `benches/solvers.rs`; recorded numbers in
//!   `results/README.md`.
//!
//! ## Example
//! ```
//! use portmap::{solve, Constraints, Solver, TrafficMatrix, Workspace};
//! // 4 ports, 2 ASICs: ports 0 and 1 send everything to ASIC 1.
//! let tm = TrafficMatrix::from_rows(&[vec![0, 10], vec![0, 7], vec![5, 0], vec![3, 1]]).unwrap();
//! let mut ws = Workspace::new();
//! let mut mapping = Vec::new();
//! solve(tm.view(), &Constraints::default(), Solver::Exact, &mut ws, &mut mapping).unwrap();
//! assert_eq!(mapping, vec![1, 1, 0, 0]);
//! assert_eq!(portmap::inter_asic_bytes(tm.view(), &mapping), 1);
//! assert_eq!(portmap::static_inter_asic_bytes(tm.view()), 25);
//! ```
//!
//! Architecture Invariant: no solver allocates once its [`Workspace`] has grown to the
//! problem size (`tests/no_alloc.rs`).
//!
//! Architecture Invariant: portmap has no dependencies (its `Cargo.toml` lists none), so it
//! knows nothing of the simulator; the simulator re-exports its `splitmix64`.
//!
//! Architecture Invariant: input errors are typed ([`Error`]); each names the offending
//! field and, where it makes sense, the values that would be accepted.

pub mod constraints;
pub mod exact;
pub mod gen;
pub mod greedy;
pub mod hungarian;
pub mod power;
pub mod problem;
pub mod rdc;

pub use constraints::{solve, Constraints, Solver, Workspace, MAX_ASICS};
pub use problem::{
    inter_asic_bytes, static_inter_asic_bytes, Error, Mapping, TmView, TrafficMatrix,
    MAX_TOTAL_BYTES,
};

/// Convenience wrapper: solves `tm` with a fresh workspace and returns the
/// mapping.
pub fn solve_mapping(
    tm: &TrafficMatrix,
    constraints: &Constraints,
    solver: Solver,
) -> Result<Mapping, Error> {
    let mut out = Vec::new();
    solve(
        tm.view(),
        constraints,
        solver,
        &mut Workspace::new(),
        &mut out,
    )?;
    Ok(Mapping::from_vec(out))
}

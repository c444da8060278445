//! The flow description every layer above shares: a message of `bytes` from host `src` to
//! host `dst`, ready at `start_ps`. It sits below `net` and `lb` (failures' rho_max and the
//! host-side balancers read it) and below `workload`, which builds the flows.
//!
//! Architecture Invariant: `flow` depends only on `engine`.

use crate::engine::Time;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlowSpec {
    pub src: u32,
    pub dst: u32,
    pub bytes: u64,
    pub start_ps: Time,
}

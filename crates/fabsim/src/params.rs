//! The config contract: everything one run needs, validated. `scenario` builds it from
//! TOML; `sim` runs it; tests build it directly.

use crate::engine::Time;
use crate::lb::{Deployment, HostLbKind, SwitchLbKind};
use crate::net::asic::ArchParams;
use crate::net::{FailureSpec, Overflow, TopologySpec};
use crate::theory::LinkModel;
use crate::transport::CcParams;
use crate::workload::WorkloadSpec;

/// Everything one run needs, validated.
#[derive(Clone, Debug, PartialEq)]
pub struct SimParams {
    pub topology: TopologySpec,
    pub link: LinkModel,
    pub buffer_bytes: Option<u64>,
    pub overflow: Overflow,
    pub lb: SwitchLbKind,
    /// Per-tier and upgraded-switch load balancers (incremental deployment).
    pub deployment: Deployment,
    /// Ofan/pOfan pointers start at the shortest queue and rotate unshuffled (paper F.5,
    /// `switch.ofan_first = "shortest"`).
    pub ofan_dynamic_first: bool,
    pub pipe_ports: u32,
    /// Ofan/pOfan pointer steps through the combining pipeline of this width
    /// (`switch.combining = true`, `switch.pipeline_width`); `None`: plain stepping.
    pub combining: Option<u32>,
    /// Host-side load balancer (entropy or source routing); `None` leaves it to switches.
    pub host_lb: HostLbKind,
    /// ECN marking of data packets at switch ports: `(kmin, kmax)` bytes of backlog; the
    /// probability rises linearly from 0 at kmin to 1 at kmax.
    pub ecn: Option<(u64, u64)>,
    /// Congestion control of every flow (`host.cc`).
    pub cc: CcParams,
    /// Retransmission timeout (`host.rto_us`); `None`: no timer (nothing can be lost).
    pub rto_ps: Option<Time>,
    pub workload: WorkloadSpec,
    /// The switches' architecture (`switch.arch`): ideal, or multi-ASIC.
    pub arch: ArchParams,
    /// Stop the run at this time (`run.duration_us`); `None`: when nothing is left to do.
    pub stop_ps: Option<Time>,
    /// Failed links (`failures.links`), and whether hosts pace at rho_max
    /// (`failures.pace`).
    pub failures: Option<FailureSpec>,
    pub pace: bool,
    pub seed: u64,
}

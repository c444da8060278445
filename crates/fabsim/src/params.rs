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

/// An up-front estimate of what a run costs, from closed forms over the workload (flows and
/// bytes) and the fabric (hops). Upper-ish: it may overstate, never by orders of magnitude.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    pub flows: u64,
    /// Data packets of all flows (first transmissions).
    pub packets: u64,
    /// The largest flow, in packets.
    pub max_flow_packets: u64,
    /// Data and ACK packets crossing links, without retransmissions.
    pub packet_hops: u64,
    pub memory_bytes: u64,
}

/// Per-flow state of the simulator (window, timers, counters), rounded up.
const FLOW_STATE_BYTES: u64 = 320;
/// Per-host state (NIC, transmit lists), rounded up.
const HOST_STATE_BYTES: u64 = 256;

impl SimParams {
    /// What this run will cost (see [`Estimate`]).
    pub fn estimate(&self) -> Estimate {
        let hosts = self.topology.hosts();
        let size = self.workload_size(hosts);
        let payload = self.link.payload_bytes as u64;
        let packets = |bytes: u64| (bytes / payload).saturating_add(size.flows);
        let (allocated, sent) = (packets(size.allocated_bytes), packets(size.sent_bytes));
        let hops = self.topology.longest_path_hops() as u64;
        Estimate {
            flows: size.flows,
            packets: sent,
            max_flow_packets: size.max_flow_bytes.div_ceil(payload),
            packet_hops: sent.saturating_mul(2 * hops),
            // Three bits per packet of every flow (ACKed, in flight, received) and the
            // per-flow and per-host state.
            memory_bytes: (allocated / 8 * 3)
                .saturating_add(size.flows.saturating_mul(FLOW_STATE_BYTES))
                .saturating_add(hosts * HOST_STATE_BYTES),
        }
    }

    /// The workload's size on `hosts` hosts.
    fn workload_size(&self, hosts: u64) -> Size {
        let group = |g: &crate::workload::Group| {
            g.hosts(hosts.min(u32::MAX as u64) as u32)
                .map_or(hosts, |h| h.len() as u64)
        };
        let (flows, bytes, max_flow_bytes) = match &self.workload {
            WorkloadSpec::Permutation { message_bytes } => {
                (hosts, hosts.saturating_mul(*message_bytes), *message_bytes)
            }
            WorkloadSpec::AllToAll {
                message_bytes,
                flow_bytes,
            } => {
                let flows = hosts * (hosts - 1);
                match flow_bytes {
                    Some(f) => (flows, flows.saturating_mul(*f), *f),
                    None => (flows, hosts.saturating_mul(*message_bytes), *message_bytes),
                }
            }
            WorkloadSpec::Incast {
                message_bytes,
                senders,
            } => {
                let flows = (*senders as u64).min(hosts - 1);
                (flows, flows.saturating_mul(*message_bytes), *message_bytes)
            }
            // A collective moves at most twice each member's message (all-reduce), in at
            // most two flows per pair of members.
            WorkloadSpec::Collective {
                message_bytes,
                group: g,
                ..
            }
            | WorkloadSpec::Moe {
                message_bytes,
                group: g,
                ..
            } => {
                let n = group(g);
                (
                    2 * n * n,
                    (2 * n).saturating_mul(*message_bytes),
                    *message_bytes,
                )
            }
            // Per block: an all-gather forward, one backward, a reduce-scatter.
            WorkloadSpec::Fsdp {
                layers, group: g, ..
            } => {
                let n = group(g);
                let block = self.workload.message_bytes();
                let collectives = 3 * (*layers as u64).max(1);
                (
                    collectives * 2 * n * n,
                    (collectives * 2 * n).saturating_mul(block),
                    block,
                )
            }
            WorkloadSpec::Htsim { matrix, .. } => {
                let flows = matrix.traffic().flows;
                let total = flows.iter().fold(0u64, |s, f| s.saturating_add(f.bytes));
                let max = flows.iter().map(|f| f.bytes).max().unwrap_or(0);
                (flows.len() as u64, total, max)
            }
            WorkloadSpec::Fastroute(w) => return fastroute_size(w, hosts),
        };
        Size {
            flows,
            allocated_bytes: bytes,
            sent_bytes: bytes,
            max_flow_bytes,
        }
    }
}

/// A workload's size: flows, the bytes of all its flows (their state is allocated up front),
/// the bytes sent before the run stops, and its largest flow.
struct Size {
    flows: u64,
    allocated_bytes: u64,
    sent_bytes: u64,
    max_flow_bytes: u64,
}

/// Fastroute's patterns. Stride and Shuffle send one message per host and peer; Ring regroups
/// every [`RING_REGROUP_PS`], Fast starts a phase's flows every phase; Web and Hadoop arrive
/// at `load` of the line rate with the CDF's mean size. What
/// is sent stops at the run's duration.
fn fastroute_size(w: &crate::workload::FastrouteWorkload, hosts: u64) -> Size {
    use crate::workload::fastroute::SizeCdf;
    use crate::workload::fastroute::RING_REGROUP_PS;
    use crate::workload::Pattern;
    let duration = w.duration_ps;
    let rounds =
        |period: Time| duration.map_or(1, |d| d.div_ceil(period.max(Time::from_ps(1))).max(1));
    let line = |d: Time| d.bytes_at(w.rate_bps).saturating_mul(hosts);
    let (flows, flow_bytes) = match w.pattern {
        Pattern::Stride => (hosts, w.message_bytes),
        Pattern::Shuffle { k } => (hosts * k as u64, w.message_bytes),
        Pattern::Ring => (hosts * rounds(RING_REGROUP_PS), w.message_bytes),
        Pattern::Fast { phase_ps } => (
            hosts * rounds(phase_ps),
            phase_ps.bytes_at(w.rate_bps).max(1),
        ),
        Pattern::Web | Pattern::Hadoop => {
            let cdf = if w.pattern == Pattern::Web {
                SizeCdf::web()
            } else {
                SizeCdf::hadoop()
            };
            let offered = duration.map_or(0, |d| (line(d) as f64 * w.load) as u64);
            // Poisson arrivals: the count is near its mean; twice it bounds it.
            let flows = 2 * (offered as f64 / cdf.mean()) as u64 + hosts;
            return Size {
                flows,
                allocated_bytes: offered,
                sent_bytes: offered,
                max_flow_bytes: offered / hosts.max(1),
            };
        }
    };
    let allocated = flows.saturating_mul(flow_bytes);
    Size {
        flows,
        allocated_bytes: allocated,
        sent_bytes: duration.map_or(allocated, |d| allocated.min(line(d))),
        max_flow_bytes: flow_bytes,
    }
}

//! The config contract: everything one run needs, validated. `scenario` builds it from
//! TOML, a domain's parser its part; `sim` runs it.

use crate::engine::Time;
use crate::lb::{Deployment, HostLbKind, SwitchLbKind};
use crate::net::asic::ArchParams;
use crate::net::{FailureSpec, Overflow, TopologySpec};
use crate::theory::LinkModel;
use crate::transport::TransportParams;
use crate::workload::WorkloadSpec;

/// Everything one run needs, validated: a struct per domain, as the scenario's parsers
/// build them.
#[derive(Clone, Debug, PartialEq)]
pub struct SimParams {
    pub topology: TopologySpec,
    pub link: LinkModel,
    pub switch: SwitchParams,
    /// The switches' architecture (`switch.arch`): ideal, or multi-ASIC.
    pub arch: ArchParams,
    pub host: HostParams,
    pub workload: WorkloadSpec,
    /// Failed links (`failures.links`), and whether hosts pace at rho_max
    /// (`failures.pace`).
    pub failures: Option<FailureSpec>,
    pub pace: bool,
    pub run: RunParams,
}

/// The switches' egress ports and load balancing (`switch.*` but the multi-ASIC keys).
#[derive(Clone, Debug, PartialEq)]
pub struct SwitchParams {
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
    pub buffer_bytes: Option<u64>,
    pub overflow: Overflow,
    /// With trimming, a full port cuts its queue's last waiting data packet instead of the
    /// arriving one at even odds (`switch.trim_victim = "random"`, as htsim).
    pub trim_tail: bool,
    /// ECN marking of data packets at switch ports: `(kmin, kmax)` bytes of backlog; the
    /// probability rises linearly from 0 at kmin to 1 at kmax.
    pub ecn: Option<(u64, u64)>,
    /// Egress ports decide the mark when the packet's last bit leaves, by the data waiting
    /// behind it (`switch.ecn_at = "dequeue"`), instead of on arrival.
    pub ecn_dequeue: bool,
}

/// The hosts (`host.*`).
#[derive(Clone, Debug, PartialEq)]
pub struct HostParams {
    /// Host-side load balancer (entropy or source routing); `None` leaves it to switches.
    pub lb: HostLbKind,
    /// Entropies per flow of `host-ecmp`, `rps`, `oblivious` and `reps` (`host.path_labels`;
    /// 0: the scheme's own, 2^16 or 256 for oblivious).
    pub path_labels: u32,
    /// The host transport (congestion control, timers, loss recovery, ACKs).
    pub transport: TransportParams,
    /// `host.nic = "fifo"`: flows push their packets into the host's NIC queue as soon as
    /// their windows allow, and ACKs queue behind them; that queue has the switch ports'
    /// buffer and ECN marking. Otherwise (`pull`) the NIC takes one data packet when it is
    /// free, round-robin over its flows, and an ACK waits at most for the packet in service.
    pub nic_fifo: bool,
}

/// How the run goes and what it reports (`run.*`, `trace.*`).
#[derive(Clone, Debug, PartialEq)]
pub struct RunParams {
    pub seed: u64,
    /// Threads (partitions) of the run (`run.threads`); the output does not depend on it.
    pub threads: u32,
    /// Stop the run at this time (`run.duration_us`); `None`: when nothing is left to do.
    pub stop_ps: Option<Time>,
    /// Flows starting before this are left out of the FCT statistics and the mean
    /// throughput (`run.warmup_us`).
    pub warmup_ps: Time,
    /// The memory a run and its outputs may take (`run.max_memory_gib`), in bytes.
    pub max_memory_bytes: u64,
    /// Boundaries (bytes, ascending) of the FCT size buckets of the report
    /// (`run.fct_buckets`).
    pub fct_buckets: Vec<u64>,
    /// Boundaries of the flow start time bins of the report's `thrp_by_start`
    /// (`run.start_bins_us`; empty: none).
    pub start_bins_ps: Vec<Time>,
    /// Sampling period of a per-port trace (`trace.interval_us`; taken only when asked
    /// for: `fabsim run --trace`).
    pub trace_interval_ps: Time,
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

/// Bytes the simulator keeps per flow beside its sender, receiver and ACK log (sim.rs's
/// `Flow`: ends, hop count, start time, gates; its `[src, dst]`, its window-open bit), rounded
/// up. A test in sim.rs holds [`flow_state_bytes`] to the real layout.
const FLOW_WORDS_BYTES: u64 = 64;

/// Per-flow state of the simulator for the whole run (every flow's is allocated up front):
/// its sender, receiver and ACK log as laid out in memory, its description, and
/// [`FLOW_WORDS_BYTES`]; a boxed controller's state comes on top (`CcParams::boxed_bytes`).
pub fn flow_state_bytes() -> u64 {
    use crate::transport::{AckLog, Receiver, Sender};
    use std::mem::size_of;
    (size_of::<Sender>() + size_of::<Receiver>() + size_of::<AckLog>()) as u64
        + size_of::<crate::flow::FlowSpec>() as u64
        + FLOW_WORDS_BYTES
}
/// One trace sample held in memory: the raw sample, its record and its CSV row, rounded up.
const TRACE_SAMPLE_BYTES: u64 = 160;
/// Per-host state (NIC, transmit lists), rounded up.
const HOST_STATE_BYTES: u64 = 256;

impl SimParams {
    /// Bytes a `--trace` of this run holds before it is written: a sample per fabric port and
    /// `trace_interval_ps` until `stop_ps`, each kept as a sample, a record and a CSV row
    /// ([`TRACE_SAMPLE_BYTES`]). `None` without a stop time: the length is not known ahead.
    pub fn trace_bytes(&self) -> Option<u64> {
        let stop = self.run.stop_ps?;
        let fabric =
            crate::net::Fabric::new(&self.topology, self.link.rate_bps, self.link.delay_ps);
        let samples = stop / self.run.trace_interval_ps.max(Time::from_ps(1)) + 1;
        Some(
            (fabric.ports() as u64)
                .saturating_mul(samples)
                .saturating_mul(TRACE_SAMPLE_BYTES),
        )
    }

    /// What this run will cost (see [`Estimate`]).
    pub fn estimate(&self) -> Estimate {
        let hosts = self.topology.hosts();
        let size = self.workload.size(hosts);
        let payload = self.link.payload_bytes as u64;
        let packets = |bytes: u64| (bytes / payload).saturating_add(size.flows);
        let (allocated, sent) = (packets(size.allocated_bytes), packets(size.sent_bytes));
        let hops = self.topology.longest_path_hops() as u64;
        Estimate {
            flows: size.flows,
            packets: sent,
            max_flow_packets: size.max_flow_bytes.div_ceil(payload),
            packet_hops: sent.saturating_mul(2 * hops),
            // Three bits per packet of every flow (ACKed, in flight, received), a send time
            // per packet where the sender logs them (RACK, the oldest-packet timer), and the
            // per-flow and per-host state.
            memory_bytes: (allocated / 8 * 3)
                .saturating_add(if self.host.transport.logs_sends() {
                    allocated.saturating_mul(std::mem::size_of::<Time>() as u64)
                } else {
                    0
                })
                .saturating_add(
                    size.flows
                        .saturating_mul(flow_state_bytes() + self.host.transport.cc.boxed_bytes()),
                )
                .saturating_add(hosts * HOST_STATE_BYTES),
        }
    }
}

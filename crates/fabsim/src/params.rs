//! The config contract: everything one run needs, validated. `scenario` builds it from
//! TOML, a domain's parser its part; `sim` runs it.
//!
//! Architecture Invariant: [`SimParams`] is built only by the scenario parse (its one struct
//! literal in `src/` is in `scenario/mod.rs`). This module does no I/O and draws no random
//! number.

use crate::engine::Time;
use crate::lb::{Deployment, HostLbKind, SwitchLbKind};
use crate::net::asic::ArchParams;
use crate::net::{FailureSpec, Overflow, TopologySpec};
use crate::theory::LinkModel;
use crate::transport::{Nic, TransportParams};
use crate::workload::{PlaneScheme, WorkloadSpec};

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
    /// How ECMP hashes flows (`switch.ecmp_hash`).
    pub ecmp_hash: crate::lb::EcmpHash,
    /// The marking probability at kmax, in millionths (`switch.ecn_pmax`; a backlog past
    /// kmax is always marked).
    pub ecn_pmax_ppm: u64,
    /// Egress ports decide the mark when the packet's last bit leaves, by the data waiting
    /// behind it (`switch.ecn_at = "dequeue"`), instead of on arrival.
    pub ecn_dequeue: bool,
    /// `switch.pfc`: each switch's buffer in bytes (`switch.pfc_buffer_bytes`), shared by
    /// its ingress ports under the PFC MMU (`net::pfc`); `None`: no PFC.
    pub pfc_buffer: Option<u64>,
}

/// The hosts (`host.*`).
#[derive(Clone, Debug, PartialEq)]
pub struct HostParams {
    /// Host-side load balancer (entropy or source routing); `None` leaves it to switches.
    pub lb: HostLbKind,
    /// Entropies per flow of `host-ecmp`, `rps`, `oblivious` and `reps` (`host.path_labels`;
    /// 0: the scheme's own, 2^16 or 256 for oblivious).
    pub path_labels: u32,
    /// How a message between servers uses their NICs, one per plane (`host.planes`).
    pub planes: PlaneScheme,
    /// The host transport (congestion control, timers, loss recovery, ACKs).
    pub transport: TransportParams,
    /// `host.nic`. `fifo`: flows push their packets into the host's NIC queue as soon as
    /// their windows allow, and ACKs queue behind them; that queue has the switch ports'
    /// buffer and ECN marking. Otherwise (`pull`, `pull-fifo`) the NIC takes one data packet
    /// when it is free, round-robin over its flows or from the one waiting longest, and an
    /// ACK waits at most for the packet in service.
    pub nic: Nic,
}

/// How the run goes and what it reports (`run.*`, `trace.*`).
#[derive(Clone, Debug, PartialEq)]
pub struct RunParams {
    pub seed: u64,
    /// Threads (partitions) of the run (`run.threads`); the output does not depend on it.
    pub threads: u32,
    /// `run.share_cores`: take fewer partitions than `threads` where other running tasks
    /// hold the cores (the output does not depend on it either).
    pub share_cores: bool,
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

impl RunParams {
    /// Where the run's second half starts: halfway from `warmup_ps` to `stop_ps` (`Time::MAX`
    /// without `stop_ps`). The payload acknowledged from then on is the report's
    /// `goodput_late_gbps`, which tells a steady state from an overload.
    pub fn second_half_ps(&self) -> Time {
        self.stop_ps.map_or(Time::MAX, |stop| {
            let from = self.warmup_ps.min(stop);
            from + (stop - from) / 2
        })
    }
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

/// Bytes per flow of the workload, beside its description and the simulator's record of it:
/// its share of the dependency tables (a collective's flow waits on a gate and signals one),
/// of the simulator's per-flow arrays (ends, gate counts) and of what the reports build at the
/// end (the dependency-chain bound's schedule). Measured: 195 bytes per flow in all at the
/// peak of a gated run of 349,164 flows (in the report's bound), 127 of them here; rounded
/// up. `tests/estimate.rs` holds the estimate to what runs allocate.
const FLOW_TABLES_BYTES: u64 = 144;
/// Heap a flow in progress holds beside its slot and per-packet bits: its sender's and
/// receiver's buffers, its timers in the event queue, its packets in flight (measured: about
/// 480 bytes on an all-to-all of 16,256 flows of 33 KB), rounded up.
const LIVE_HEAP_BYTES: u64 = 512;
/// Heap per fabric port (measured: 265 bytes on fat trees of k = 16 and 24 with queues
/// nearly empty), rounded up; a port's queue grows with what it holds.
const PORT_STATE_BYTES: u64 = 320;

/// The simulator's record of a flow and its slot index (`sim/flows.rs`, whose tests hold
/// this to the layout).
pub const FLOW_RECORD_BYTES: u64 = 44;

/// Bytes kept for every flow of the workload while the run lasts, in progress or not.
pub fn kept_flow_bytes() -> u64 {
    std::mem::size_of::<crate::flow::FlowSpec>() as u64 + FLOW_RECORD_BYTES + FLOW_TABLES_BYTES
}

/// Bytes a flow in progress holds in the simulator beside its heap: its slot (its ends, hop
/// count, sender, receiver and ACK log; counted twice, as the slots grow by doubling) and a
/// free-list entry (`sim/flows.rs`, whose tests hold this to the layout).
pub fn live_flow_bytes() -> u64 {
    use crate::transport::{AckLog, Receiver, Sender};
    use std::mem::size_of;
    let slot = size_of::<Sender>() + size_of::<Receiver>() + size_of::<AckLog>() + 16;
    (2 * slot + size_of::<u32>()) as u64
}

/// One trace sample held in memory: the raw sample, its record and its CSV row, rounded up.
const TRACE_SAMPLE_BYTES: u64 = 160;
/// How the `stalled` reason of a run stopped by its trace ([`SimParams::trace_max_samples`])
/// begins.
pub const TRACE_FULL: &str = "the trace outgrew run.max_memory_gib";
/// Per-host state (NIC, transmit lists), rounded up.
const HOST_STATE_BYTES: u64 = 256;

impl SimParams {
    /// Bytes a `--trace` of this run holds before it is written: a sample per fabric port and
    /// `trace_interval_ps` until `stop_ps`, each kept as a sample, a record and a CSV row
    /// (`TRACE_SAMPLE_BYTES`). `None` without a stop time: the length is not known ahead.
    pub fn trace_bytes(&self) -> Option<u64> {
        let stop = self.run.stop_ps?;
        let fabric = self.fabric();
        let samples = stop / self.run.trace_interval_ps.max(Time::from_ps(1)) + 1;
        Some(
            (fabric.ports() as u64)
                .saturating_mul(samples)
                .saturating_mul(TRACE_SAMPLE_BYTES),
        )
    }

    /// The most trace samples this run may hold: what `run.max_memory_gib` leaves beside
    /// the run's own estimate, at `TRACE_SAMPLE_BYTES` each. A run without `run.duration_us`
    /// (its trace's length not known ahead) stops when its trace reaches it
    /// ([`TRACE_FULL`]).
    pub fn trace_max_samples(&self) -> u64 {
        self.run
            .max_memory_bytes
            .saturating_sub(self.estimate().memory_bytes)
            / TRACE_SAMPLE_BYTES
    }

    pub(crate) fn fabric(&self) -> crate::net::Fabric {
        crate::net::Fabric::new(&self.topology, self.link.rate_bps, self.link.delay_ps)
    }

    /// The run's flows: the workload over the fabric's endpoints, on its planes.
    pub fn traffic(&self) -> crate::workload::Traffic {
        let t = self
            .workload
            .traffic(self.topology.endpoints() as u32, self.run.seed);
        t.onto_planes(self.topology.planes(), self.host.planes, self.run.seed)
    }

    /// What this run will cost (see [`Estimate`]).
    pub fn estimate(&self) -> Estimate {
        let hosts = self.topology.endpoints();
        let size = self.workload.size(hosts);
        let planes = self.topology.planes() as u64;
        let size = match self.host.planes {
            PlaneScheme::Stripe if planes > 1 => size.striped(planes),
            _ => size,
        };
        let payload = self.link.payload_bytes as u64;
        let packets = |bytes: u64| (bytes / payload).saturating_add(size.flows);
        let sent = packets(size.sent_bytes);
        let live_packets = (size.live_bytes / payload).saturating_add(size.live_flows);
        let hops = self.topology.longest_path_hops() as u64;
        Estimate {
            flows: size.flows,
            packets: sent,
            max_flow_packets: size.max_flow_bytes.div_ceil(payload),
            packet_hops: sent.saturating_mul(2 * hops),
            // Per flow of the workload what is kept of it; per flow in progress its state
            // ([`live_flow_bytes`], a boxed controller's on top), three bits per packet
            // (ACKed, in flight, received) and a send time per packet where the sender logs
            // them (RACK, the oldest-packet timer); per host its NIC; per fabric port its
            // state.
            memory_bytes: size
                .flows
                .saturating_mul(kept_flow_bytes())
                .saturating_add(size.live_flows.saturating_mul(
                    live_flow_bytes() + LIVE_HEAP_BYTES + self.host.transport.cc.boxed_bytes(),
                ))
                .saturating_add(live_packets / 8 * 3)
                .saturating_add(if self.host.transport.logs_sends() {
                    live_packets.saturating_mul(std::mem::size_of::<Time>() as u64)
                } else {
                    0
                })
                .saturating_add(hosts * HOST_STATE_BYTES)
                .saturating_add(self.fabric().ports() as u64 * PORT_STATE_BYTES),
        }
    }
}

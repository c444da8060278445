//! What a run leaves behind: the packet counters, the per-flow results collected from the
//! senders once the event loop ends (with packet conservation checked), the trace samples,
//! and why a run stopped early.

use std::fmt::Write as _;

use super::multi_asic::Chassis;
use super::FlowResult;
use super::Sim;
use crate::engine::Time;
use crate::net::asic::AsicStats;
use crate::net::{Fabric, Failures, Ports};
use crate::workload::deps::Deps;
use crate::workload::{Collective, FlowSpec};

/// One port at one sample time: its queue (bytes not yet on the wire, held by a PAUSE
/// included), the link time it spent serializing since the previous sample (or since time
/// 0), and whether a PFC PAUSE holds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PortSample {
    pub time: Time,
    pub port: u32,
    pub queue_bytes: u64,
    pub served_ps: Time,
    pub paused: bool,
}

/// A run's trace: per port the link time served up to the last sample, and the samples.
pub(super) struct Trace {
    pub(super) served: Vec<Time>,
    pub(super) samples: Vec<PortSample>,
    /// The most samples it may hold ([`crate::params::SimParams::trace_max_samples`]).
    pub(super) max_samples: u64,
}

/// Packet life counters. Conservation: `created + pfc_frames = delivered + trimmed_delivered
/// + dropped + pfc_frames_received + in flight` (held at paused ports included).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    pub created: u64,
    /// Packets that reached their destination host intact (data, ACKs and NACKs).
    pub delivered: u64,
    /// Trimmed headers that reached their destination host.
    pub trimmed_delivered: u64,
    pub dropped: u64,
    /// Trimming events.
    pub trims: u64,
    pub retransmits: u64,
    /// Packets presumed lost by later ACKs (`host.loss_recovery = "dupack"`) and queued again.
    pub fast_retransmits: u64,
    /// Retransmission timeouts that fired.
    pub timeouts: u64,
    /// Data packets that reached their receiver a second time (ACKed again, not counted).
    pub duplicates: u64,
    /// Data packets that reached their receiver for the first time after a later sequence
    /// number of their flow (spraying, retransmissions, or a bug in a reconfiguration).
    pub reordered: u64,
    pub ecn_marks: u64,
    pub events: u64,
    /// One packet crossing one link.
    pub packet_hops: u64,
    /// Payload bytes first acknowledged at or after [`crate::params::RunParams::second_half_ps`].
    pub acked_late_bytes: u64,
    /// `switch.pfc`: PAUSE and RESUME frames sent, and received.
    pub pfc_frames: u64,
    pub pfc_frames_received: u64,
}

/// The outcome of a run, before formatting.
pub struct RunOutcome {
    pub fabric: Fabric,
    pub ports: Ports,
    pub counters: Counters,
    pub in_flight: u64,
    pub flows_total: u64,
    pub flows_completed: u64,
    /// First flow start and last flow finish (the collective), if every flow finished.
    pub start_ps: Time,
    pub end_ps: Option<Time>,
    /// The simulated time the run stopped at.
    pub stop_ps: Time,
    pub flows: Vec<FlowSpec>,
    /// Per flow: when it became ready, its first packet left and its last ACK arrived, its
    /// bytes acknowledged, packets resent and timeouts.
    pub results: Vec<FlowResult>,
    /// The workload's collectives (flow ranges into `flows`) and dependencies.
    pub collectives: Vec<Collective>,
    pub deps: Deps,
    /// Combining-pipeline counts (Ofan/pOfan with `switch.combining = true`).
    pub combining: Option<crate::hw::CycleStats>,
    /// Multi-ASIC counters (`None` for the ideal switch).
    pub asic: Option<AsicStats>,
    /// With failures: the failed links and rho_max (see `net::failures`).
    pub failures: Option<(Failures, f64)>,
    /// Why the watchdog ended the run early, if it did (see [`crate::sim::WATCHDOG_EVENTS`]).
    pub stalled: Option<String>,
    /// With a trace: every fabric port every interval, in time then port order.
    pub trace: Vec<PortSample>,
    /// Partitions the run was simulated on (the only part that depends on `run.threads`).
    pub partitions: u32,
    /// `switch.pfc`: per fabric port its PFC counters (empty without PFC).
    pub pfc: Vec<super::PortPfc>,
}

impl RunOutcome {
    /// Completion time of flow `i` (last ACK minus when it became ready), if it completed.
    pub fn fct_ps(&self, i: usize) -> Option<Time> {
        self.results[i].fct_ps()
    }

    /// Every flow's [`RunOutcome::fct_ps`], in flow order.
    pub fn fcts(&self) -> impl Iterator<Item = Option<Time>> + '_ {
        self.results.iter().map(FlowResult::fct_ps)
    }
}

impl Counters {
    /// Adds another partition's counts.
    pub(super) fn absorb(&mut self, o: &Counters) {
        self.created += o.created;
        self.delivered += o.delivered;
        self.trimmed_delivered += o.trimmed_delivered;
        self.dropped += o.dropped;
        self.trims += o.trims;
        self.retransmits += o.retransmits;
        self.fast_retransmits += o.fast_retransmits;
        self.timeouts += o.timeouts;
        self.duplicates += o.duplicates;
        self.reordered += o.reordered;
        self.ecn_marks += o.ecn_marks;
        self.events += o.events;
        self.packet_hops += o.packet_hops;
        self.acked_late_bytes += o.acked_late_bytes;
        self.pfc_frames += o.pfc_frames;
        self.pfc_frames_received += o.pfc_frames_received;
    }
}

impl<A: Chassis> Sim<'_, A> {
    /// Brings the records of the flows still live, whose senders this partition holds, up
    /// to date.
    pub(super) fn settle(&mut self) {
        let (owner, me) = (self.owner, self.me);
        self.flows.settle(|f| owner[f.src as usize] == me);
    }

    /// The run's outcome once its event loop ended (`stalled`: why it ended early): closes
    /// the ports' statistics, checks packet conservation and collects every flow's results.
    /// Its `flows`, `collectives` and `deps` are left empty: the caller owns the workload.
    pub(super) fn into_outcome(self, stalled: Option<String>) -> RunOutcome {
        let mut sim = self;
        sim.settle();
        let records = &sim.flows.records;
        let start_ps = records
            .iter()
            .zip(sim.specs)
            .map(|(r, f)| if r.started() { r.ready } else { f.start_ps })
            .min()
            .unwrap_or(Time::ZERO);
        let end_ps = if sim.completed == records.len() as u64 {
            records.iter().map(|r| r.finish).max()
        } else {
            None
        };
        let stop_ps = sim.now;
        sim.ports.finish(end_ps.unwrap_or(stop_ps));
        sim.asic.finish(end_ps.unwrap_or(stop_ps));
        // Packets still in a port's queue or on its wire.
        let in_flight = sim.pending_arrivals();
        let c = sim.c;
        assert_eq!(
            c.created + c.pfc_frames,
            c.delivered + c.trimmed_delivered + c.dropped + c.pfc_frames_received + in_flight,
            "packet conservation violated: {c:?}, in flight {in_flight}"
        );
        if let Some(pfc) = sim.pfc.as_ref().filter(|_| in_flight == 0) {
            assert!(pfc.drained(), "an MMU holds bytes with no packet in flight");
        }
        let pfc = sim
            .pfc
            .as_mut()
            .map_or(Vec::new(), |p| p.finish(end_ps.unwrap_or(stop_ps)));
        let records = &sim.flows.records;
        RunOutcome {
            flows_total: records.len() as u64,
            flows_completed: sim.completed,
            counters: c,
            in_flight,
            start_ps,
            end_ps,
            stop_ps,
            collectives: Vec::new(),
            flows: Vec::new(),
            combining: sim.lb.combining_stats(),
            partitions: sim.post.parts() as u32,
            results: std::mem::take(&mut sim.flows.records),
            deps: Deps::default(),
            fabric: sim.fabric,
            ports: sim.ports,
            asic: sim.asic.into_stats(),
            failures: sim.failures.zip(sim.rho_max),
            stalled,
            trace: sim.trace.map_or(Vec::new(), |t| t.samples),
            pfc,
        }
    }

    /// Why a run whose events ran out left flows unfinished (`None` if none is): those that
    /// never started wait on a dependency that never fired; those that started have data
    /// nothing will resend. Names the first few of each kind by their index in the flow table
    /// (the `flow` column of `--flows`; an htsim file's connections in file order).
    #[cold]
    pub(super) fn unfinished(&self) -> Option<String> {
        const NAMED: usize = 5;
        let records = &self.flows.records;
        let left = records.len() - self.completed as usize;
        if left == 0 {
            return None;
        }
        if let Some(d) = self.pfc_deadlock(std::slice::from_ref(self)) {
            return Some(format!(
                "{d}; nothing moves at {} us, with {left} of {} flows unfinished",
                self.now.as_us_f64(),
                records.len()
            ));
        }
        let name = |started: bool| {
            let of_kind = || {
                records
                    .iter()
                    .enumerate()
                    .filter(move |(_, r)| !r.finished() && r.started() == started)
            };
            let n = of_kind().count();
            let mut ids: Vec<String> = of_kind()
                .take(NAMED)
                .map(|(i, _)| format!("{i} ({}->{})", self.ends[i][0], self.ends[i][1]))
                .collect();
            if n > NAMED {
                ids.push(format!("{} more", n - NAMED));
            }
            (n, ids.join(", "))
        };
        let (waiting, waiting_ids) = name(false);
        let (held, held_ids) = name(true);
        let mut msg = format!(
            "nothing left to do at {} us with {left} of {} flows unfinished",
            self.now.as_us_f64(),
            records.len()
        );
        if waiting > 0 {
            let _ = write!(
                msg,
                "; {waiting} never started, waiting on a dependency that never fired (flows \
                 {waiting_ids})"
            );
        }
        if held > 0 {
            let _ = write!(
                msg,
                "; {held} started and hold data that no event will send or resend (packets \
                 lost with no retransmission timer: host.rto_us = \"off\"?) (flows {held_ids})"
            );
        }
        Some(msg)
    }

    /// Why the run must stop after its last sample: its trace holds more samples than
    /// `run.max_memory_gib` leaves room for.
    pub(super) fn trace_full(&self) -> Option<String> {
        let trace = self.trace.as_ref()?;
        let n = trace.samples.len() as u64;
        (n > trace.max_samples).then(|| {
            format!(
                "{}: {n} samples of every port every trace.interval_us by {} us, with no \
                 run.duration_us to size it ahead; set run.duration_us, sample less often, \
                 or raise run.max_memory_gib ({} GiB)",
                crate::params::TRACE_FULL,
                self.now.as_us_f64(),
                self.p.run.max_memory_bytes as f64 / (1u64 << 30) as f64
            )
        })
    }

    /// Records every fabric port at `t` (the earliest pending time: nothing happens between
    /// the clock and it).
    #[cold]
    pub(super) fn sample(&mut self, t: Time) {
        let Some(trace) = self.trace.as_mut() else {
            return;
        };
        for port in 0..trace.served.len() {
            let backlog = self.ports.backlog_ps(port as u32, t);
            // Link time committed so far, minus what is still waiting: served by `t`.
            // (A port held dark may owe more than it committed: never count back.)
            let served = self.ports.stats[port].busy_ps.saturating_sub(backlog);
            let (paused, held) = self
                .pfc
                .as_ref()
                .map_or((false, Time::ZERO), |p| p.held_at(port));
            trace.samples.push(PortSample {
                time: t,
                port: port as u32,
                queue_bytes: self.ports.backlog_bytes(port as u32, t)
                    + self.ports.bytes_in(port as u32, held),
                served_ps: served.saturating_sub(trace.served[port]),
                paused,
            });
            trace.served[port] = trace.served[port].max(served);
        }
    }
}

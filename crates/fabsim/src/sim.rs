//! One simulation run: the event loop, egress ports and packet conservation. The hosts'
//! side (NICs, ACKs, timeouts, gates) is in `host.rs`; a switch's egress choice is
//! [`crate::lb::SwitchLb::egress`]; multi-ASIC switches are in `multi_asic.rs`.
//!
//! Events (all `Copy`, a few bytes):
//! - `Arrive { port }`: the last bit of the packet at the head of `port`'s wire reaches the
//!   node at the far end (`Sim::far`). A switch routes it and offers it to an egress port; a
//!   host consumes it; an internal port of a multi-ASIC switch takes it on inside the switch.
//! - `NicFree { host }`: the host's NIC finished its data packet; the host hands it the next
//!   one (work-conserving, at line rate). ACKs go to the NIC as soon as they are generated and
//!   wait at most for the packet in service.
//! - `FlowStart { flow }`: a message becomes ready to send (at its start time, or when the
//!   gates it waits for fired: see `workload::deps`).
//! - `Timeout { flow }`: the flow's retransmission timer; `AckTimer { flow }`: its
//!   receiver's delayed-ACK timer; `Circuit`: Fastroute's controller.
//! - `Dequeue { port }`: with `switch.ecn_at = "dequeue"`, a data packet's last bit leaves
//!   the serializer: its ECN mark is decided by the data queued behind it.
//! - `Sample`: with a trace, every port's queue and the link time it served since the last
//!   sample (`fabsim run --trace`). It changes nothing: it does not count as an event, does
//!   not advance the clock, and is not rescheduled once nothing else is left.
//!
//! Hot-path rules: no allocation per packet or event, dispatch by `match`, no logging.
//!
//! A link delivers in FIFO order, so each port keeps its in-flight packets (already
//! serialized or waiting, with their arrival times) in a ring of its own, `wire`, and only
//! the head of each ring has an event in the global queue. The queue then holds about one
//! event per busy link instead of one per packet, and the packet data is read from a ring
//! that is walked in order instead of a slab slot written thousands of events earlier (a
//! cache miss per hop). Each packet keeps the insertion ticket it got when it was enqueued,
//! so ties still break in insertion order exactly as with one global queue.

mod host;
mod multi_asic;

use std::collections::VecDeque;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use crate::engine::Rng;
use crate::engine::{EventQueue, Time, TimingWheel};
use crate::lb::{HostLb, SwitchLb, View};
use crate::net::asic::{AsicStats, Asics};
use crate::net::{Enqueue, Fabric, Failures, Overflow, Packet, PacketKind, Ports, WireSize};
use crate::params::SimParams;
use crate::theory::LinkModel;
use crate::transport::{AckLog, Receiver, Sender};
use crate::workload::deps::Deps;
use crate::workload::{Collective, FlowSpec};
use multi_asic::{Chassis, Ideal};

#[derive(Clone, Copy, Debug)]
enum Event {
    Arrive {
        port: u32,
    },
    NicFree {
        host: u32,
    },
    FlowStart {
        flow: u32,
    },
    /// The flow's retransmission timer.
    Timeout {
        flow: u32,
    },
    /// The flow's receiver's delayed-ACK timer (`host.ack_delay_us`).
    AckTimer {
        flow: u32,
    },
    /// Fastroute's controller reads the traffic matrices (`apply = false`) or applies the
    /// mappings it computed (`apply = true`).
    Circuit {
        apply: bool,
    },
    /// Records a [`PortSample`] of every fabric port.
    Sample,
    /// `switch.ecn_at = "dequeue"`: the last bit of `port`'s next undecided data packet
    /// leaves; its mark is decided by the data waiting behind it.
    Dequeue {
        port: u32,
    },
}

/// `switch.ecn_at = "dequeue"`, per egress port: of the data packets in its ring (FIFO among
/// themselves), the first `decided` have left the serializer and had their mark decided, the
/// next `undecided` wait for it; `armed`: a `Dequeue` event is pending (at most one).
#[derive(Clone, Copy, Default)]
struct DequeueMarks {
    decided: u32,
    undecided: u32,
    armed: bool,
}

/// One port at one sample time: its queue (bytes not yet on the wire) and the link time it
/// spent serializing since the previous sample (or since time 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PortSample {
    pub time: Time,
    pub port: u32,
    pub queue_bytes: u64,
    pub served_ps: Time,
}

/// A run's trace: the sampling period, per port the link time served up to the last
/// sample, and the samples.
struct Trace {
    interval: Time,
    served: Vec<Time>,
    samples: Vec<PortSample>,
}

/// Packet life counters. Conservation: `created = delivered + trimmed_delivered + dropped +
/// in flight`.
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
}

/// One flow: its ends, its sender and receiver state machines, and when it started.
struct Flow {
    src: u32,
    dst: u32,
    /// Links between src and dst (fixed: the path length of a fat tree does not vary).
    hops: u32,
    /// Its start time; once its `FlowStart` ran, when it became ready.
    start_ps: Time,
    /// Its `FlowStart` ran.
    started: bool,
    /// Gates still to fire before the flow may start.
    waiting: u32,
    tx: Sender,
    rx: Receiver,
    /// What its coalesced ACKs carry.
    acks: AckLog,
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
    /// Completion time of each flow (last ACK minus start), if it completed.
    pub fct_ps: Vec<Option<Time>>,
    /// Per flow: when its first packet left, and when its last ACK arrived.
    pub first_tx_ps: Vec<Option<Time>>,
    pub finish_ps: Vec<Option<Time>>,
    /// The workload's collectives (flow ranges into `flows`) and dependencies.
    pub collectives: Vec<Collective>,
    pub deps: Deps,
    /// Combining-pipeline counts (Ofan/pOfan with `switch.combining = true`).
    pub combining: Option<crate::hw::CycleStats>,
    /// Payload bytes acknowledged per flow.
    pub acked_bytes: Vec<u64>,
    /// Per flow: when it became ready to send (its start time, or when its gates released
    /// it; `None`: it never started), the data packets it resent and its timeouts.
    pub flow_start_ps: Vec<Option<Time>>,
    pub retransmits: Vec<u32>,
    pub timeouts: Vec<u32>,
    /// Multi-ASIC counters (`None` for the ideal switch).
    pub asic: Option<AsicStats>,
    /// With failures: the failed links and rho_max (see `net::failures`).
    pub failures: Option<(Failures, f64)>,
    /// Why the watchdog ended the run early, if it did (see [`WATCHDOG_EVENTS`]).
    pub stalled: Option<String>,
    /// With a trace: every fabric port every interval, in time then port order.
    pub trace: Vec<PortSample>,
}

/// The watchdog ends a run after this many events without new data acknowledged: a fabric
/// moving packets that long without progress is livelocked (a steady run ACKs a packet every
/// few events; the first round trip of a 65,536-host fabric takes a few million events).
pub const WATCHDOG_EVENTS: u64 = 20_000_000;

/// A cancelled run stops within this many events (a few milliseconds).
const CANCEL_EVENTS: u64 = 1 << 14;

/// What is at the far end of a port of the wire array: a host, a switch's ingress port, or
/// (multi-ASIC switches only) one of the switch's internal ports.
#[derive(Clone, Copy)]
enum Far<I> {
    Host(u32),
    Switch { sw: u32, local: u32 },
    Internal(I),
}

struct Sim<'a, A: Chassis> {
    p: &'a SimParams,
    fabric: Fabric,
    /// Every flow's `[sender, receiver]`: packets do not carry their source.
    ends: Vec<[u32; 2]>,
    ports: Ports,
    /// The switches' egress choice (every scheme's state, CONGA's included).
    lb: SwitchLb,
    host_lb: HostLb,
    /// The switches' build: [`Ideal`] or multi-ASIC ([`Asics`]), whose internal ports
    /// follow the fabric's in `wire`.
    asic: A,
    /// Per port of `wire`: its far end.
    far: Vec<Far<A::Internal>>,
    ecn_rng: Rng,
    /// Per fabric port, with `switch.ecn_at = "dequeue"` and ECN (empty otherwise).
    dequeue_marks: Vec<DequeueMarks>,
    /// `switch.trim_victim = "random"`: the coin per trimmed arrival.
    trim_rng: Rng,
    queue: TimingWheel<Event>,
    /// Per port: packets accepted and not yet arrived.
    wire: Vec<Ring>,
    flows: Vec<Flow>,
    /// Per host: flows with something to send, round-robin cursor, NicFree pending.
    tx: Vec<Vec<u32>>,
    cursor: Vec<u32>,
    nic_armed: Vec<bool>,
    /// Per flow: [`Flow::window_open`] for a full data packet, kept beside the flows so the
    /// round robin skips window-blocked flows without loading each one (a cache miss per
    /// flow on a large fabric); refreshed wherever the window or the bytes in flight change.
    window_open: Vec<bool>,
    now: Time,
    c: Counters,
    /// `c.events` when a flow last had new data acknowledged (the watchdog's reference).
    progress_event: u64,
    completed: u64,
    /// Flow dependencies, and per gate the signals it still needs.
    deps: Deps,
    gate_left: Vec<u32>,
    failures: Option<Failures>,
    /// Pacing at rho_max: line-rate time over paced time, and per host the earliest next
    /// data packet.
    pace: Option<f64>,
    next_tx: Vec<Time>,
    trace: Option<Trace>,
}

/// Whether a packet travels in the strict-priority class (trimmed headers, ACKs, NACKs):
/// the size classes other than data.
#[inline]
fn is_control(p: &Packet) -> bool {
    matches!(p.size(), WireSize::Control | WireSize::Header)
}

/// A packet's bytes on the wire, by its size class: a short last packet's payload is its
/// flow's remainder.
#[inline]
fn wire_bytes(p: &Packet, link: &LinkModel, flows: &[Flow]) -> u32 {
    match p.size() {
        WireSize::Control => link.ack_bytes,
        WireSize::Header => link.header_bytes,
        WireSize::FullData => link.header_bytes + link.payload_bytes,
        WireSize::ShortData => link.header_bytes + flows[p.flow as usize].tx.payload(p.seq),
    }
}

/// A packet on a link's wire or in its queue: arrival time at the far end, the low 32 bits
/// of its insertion ticket, the packet. 32 bytes: these are most of a large run's memory.
type Slot = (Time, u32, Packet);

/// One port's packets accepted and not yet arrived, in arrival order.
///
/// Slots keep only the low half of their tickets; the full one is read against `newest`
/// (the last ticket pushed), exact while every slot's ticket is within 2^32 of it. `since`
/// is a ticket no slot is older than (the first push after the ring was last empty, moved
/// up to the oldest slot's whenever it falls 2^31 behind), so the bound is checked at every
/// push, not assumed.
#[derive(Clone, Default)]
struct Ring {
    slots: VecDeque<Slot>,
    newest: u64,
    since: u64,
}

impl Ring {
    /// The full ticket of a slot's low half.
    #[inline]
    fn ticket(&self, low: u32) -> u64 {
        self.newest - (self.newest as u32).wrapping_sub(low) as u64
    }

    /// Records that `ticket` is pushed next (before the slot goes in).
    #[inline]
    fn note_push(&mut self, ticket: u64) {
        if self.slots.is_empty() {
            self.since = ticket;
        } else if ticket - self.since >= 1 << 31 {
            self.refresh_since(ticket);
        }
        self.newest = ticket;
    }

    #[cold]
    fn refresh_since(&mut self, ticket: u64) {
        self.since = self
            .slots
            .iter()
            .map(|&(_, low, _)| self.ticket(low))
            .min()
            .expect("a non-empty ring");
        assert!(
            ticket - self.since < 1 << 32,
            "a packet waited on one link while 2^32 events were scheduled: more than a \
             link's ring can order"
        );
    }
}

/// Strict priority for a control packet on a port whose wire ring already holds packets
/// (`entry` carries its FIFO arrival time, as if it had queued behind all of them).
///
/// Non-preemptive: the packet in service (and any earlier control packet still waiting)
/// keeps its place; the control packet takes the slot of the first data packet still
/// waiting for the serializer, and every waiting data packet leaves `ser_ps` later. The
/// port's busy time, backlog and statistics are those of the FIFO order (the same bytes
/// drain at the same rate), so only the ring is rearranged. The ring head keeps its place:
/// its event is queued, and it is in service or on the wire, or waits for a PAUSE to end
/// (Fastroute's optical mode), which holds the control packet back too.
fn jump_queue(
    wire: &mut VecDeque<Slot>,
    entry: Slot,
    ser_ps: Time,
    now: Time,
    delay_ps: Time,
    mut ser_of: impl FnMut(&Packet) -> Time,
) {
    let mut slot = wire.len();
    while slot > 1 {
        let (arrive, _, p) = &wire[slot - 1];
        let start = *arrive - delay_ps - ser_of(p);
        if is_control(p) || start <= now {
            break;
        }
        slot -= 1;
    }
    let mut entry = entry;
    if slot < wire.len() {
        let (arrive, _, p) = &wire[slot];
        entry.0 = *arrive - ser_of(p) + ser_ps;
        for e in wire.range_mut(slot..) {
            e.0 += ser_ps;
        }
    }
    wire.insert(slot, entry);
}

/// Runs one simulation to completion (every flow acknowledged, or nothing left to do).
pub fn simulate(p: &SimParams) -> RunOutcome {
    simulate_traced(p, None, None)
}

/// [`simulate`], sampling every fabric port every `trace` (the outcome is otherwise the
/// same, to the bit), and stopping early (`stalled` says so) once `cancel` is set.
pub fn simulate_traced(
    p: &SimParams,
    trace: Option<Time>,
    cancel: Option<&AtomicBool>,
) -> RunOutcome {
    let fabric = Fabric::new(&p.topology, p.link.rate_bps, p.link.delay_ps);
    // One event loop per switch build: the ideal switch's has no multi-ASIC branch at all.
    match Asics::new(&p.arch, &fabric, p.link.rate_bps) {
        None => simulate_with(p, fabric, Ideal, trace, cancel),
        Some(asics) => simulate_with(p, fabric, asics, trace, cancel),
    }
}

fn simulate_with<A: Chassis>(
    p: &SimParams,
    fabric: Fabric,
    asic: A,
    trace: Option<Time>,
    cancel: Option<&AtomicBool>,
) -> RunOutcome {
    let ports = Ports::new(fabric.ports(), p.link.rate_bps, p.link.delay_ps);
    let lb = SwitchLb::new(
        p.lb,
        &p.deployment,
        &fabric,
        p.buffer_bytes,
        p.pipe_ports,
        p.combining,
        p.seed,
    )
    .with_dynamic_first(p.ofan_dynamic_first);
    let traffic = p.workload.traffic(fabric.hosts, p.seed);
    let specs = traffic.flows;
    let failures = p.failures.as_ref().map(|spec| {
        // The scenario layer validated named links; random ones never disconnect.
        let f = Failures::new(&fabric, spec, p.seed).expect("valid failures");
        let rho = f.rho_max(&fabric, &specs);
        (f, rho)
    });
    let rho_max = failures.as_ref().map(|f| f.1);
    let host_lb = HostLb::new(p.host_lb, p.path_labels, &fabric, &specs, p.seed);
    let hosts = fabric.hosts as usize;
    let far: Vec<_> = (0..fabric.ports())
        .map(|g| match fabric.port_to_node[g] {
            node if node < fabric.hosts => Far::Host(node),
            node => Far::Switch {
                sw: fabric.switch_of(node),
                local: fabric.port_to_local[g],
            },
        })
        .chain(asic.internal_ports().map(Far::Internal))
        .collect();
    let mut sim = Sim {
        p,
        ends: specs.iter().map(|f| [f.src, f.dst]).collect(),
        ports,
        lb,
        host_lb,
        asic,
        wire: vec![Ring::default(); far.len()],
        far,
        ecn_rng: Rng::stream(p.seed, "ecn"),
        dequeue_marks: if p.ecn_dequeue && p.ecn.is_some() {
            vec![DequeueMarks::default(); fabric.ports()]
        } else {
            Vec::new()
        },
        trim_rng: Rng::stream(p.seed, "trim"),
        queue: TimingWheel::default(),
        flows: Vec::with_capacity(specs.len()),
        tx: vec![Vec::new(); hosts],
        cursor: vec![0; hosts],
        nic_armed: vec![false; hosts],
        window_open: vec![true; specs.len()],
        now: Time::ZERO,
        c: Counters::default(),
        progress_event: 0,
        completed: 0,
        gate_left: traffic.deps.need.clone(),
        deps: traffic.deps,
        pace: rho_max.filter(|&r| p.pace && r < 1.0).map(|r| 1.0 / r),
        next_tx: vec![Time::ZERO; hosts],
        failures: failures.map(|f| f.0),
        trace: trace.map(|interval| Trace {
            interval,
            served: vec![Time::ZERO; fabric.ports()],
            samples: Vec::new(),
        }),
        fabric,
    };
    for (i, f) in specs.iter().enumerate() {
        let hops = sim.fabric.hops(f.src, f.dst);
        let tx = Sender::new(
            f.bytes,
            p.link.payload_bytes,
            &p.transport,
            p.link.base_rtt_ps(hops),
        );
        sim.flows.push(Flow {
            src: f.src,
            dst: f.dst,
            hops,
            start_ps: f.start_ps,
            started: false,
            waiting: sim.deps.waits[i],
            rx: Receiver::new(tx.packets()),
            tx,
            acks: AckLog::default(),
        });
        if sim.deps.waits[i] == 0 {
            sim.queue
                .push(f.start_ps, Event::FlowStart { flow: i as u32 });
        }
    }
    if let Some(c) = p.arch.circuit.as_ref() {
        sim.queue
            .push(c.interval_ps, Event::Circuit { apply: false });
    }
    if let Some(t) = &sim.trace {
        sim.queue.push(t.interval, Event::Sample);
    }
    let stalled = sim.run(cancel);
    let start_ps = sim
        .flows
        .iter()
        .map(|f| f.start_ps)
        .min()
        .unwrap_or(Time::ZERO);
    let end_ps = if sim.completed == sim.flows.len() as u64 {
        sim.flows.iter().filter_map(|f| f.tx.finish()).max()
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
        c.created,
        c.delivered + c.trimmed_delivered + c.dropped + in_flight,
        "packet conservation violated: {c:?}, in flight {in_flight}"
    );
    RunOutcome {
        flows_total: sim.flows.len() as u64,
        flows_completed: sim.completed,
        fabric: sim.fabric,
        ports: sim.ports,
        counters: c,
        in_flight,
        start_ps,
        end_ps,
        stop_ps,
        fct_ps: sim
            .flows
            .iter()
            .map(|f| f.tx.finish().map(|t| t - f.start_ps))
            .collect(),
        first_tx_ps: sim.flows.iter().map(|f| f.tx.first_tx()).collect(),
        finish_ps: sim.flows.iter().map(|f| f.tx.finish()).collect(),
        collectives: traffic.collectives,
        deps: sim.deps,
        flows: specs,
        combining: sim.lb.combining_stats(),
        acked_bytes: sim.flows.iter().map(|f| f.tx.acked_bytes()).collect(),
        flow_start_ps: sim
            .flows
            .iter()
            .map(|f| f.started.then_some(f.start_ps))
            .collect(),
        retransmits: sim.flows.iter().map(|f| f.tx.retransmits()).collect(),
        timeouts: sim.flows.iter().map(|f| f.tx.timeouts()).collect(),
        asic: sim.asic.into_stats(),
        failures: sim.failures.zip(rho_max),
        stalled,
        trace: sim.trace.map_or(Vec::new(), |t| t.samples),
    }
}

impl<A: Chassis> Sim<'_, A> {
    /// Runs events until none is left or the stop time; `Some(diagnosis)` if the watchdog
    /// ended it.
    fn run(&mut self, cancel: Option<&AtomicBool>) -> Option<String> {
        let stop = self.p.stop_ps.unwrap_or(Time::MAX);
        while let Some((t, ev)) = self.queue.peek() {
            if t > stop {
                return None;
            }
            if let Event::Sample = ev {
                self.queue.pop();
                if self.queue.is_empty() {
                    break;
                }
                self.sample(t);
                continue;
            }
            debug_assert!(t >= self.now, "time went backwards");
            self.now = t;
            self.c.events += 1;
            if self.c.events.is_multiple_of(CANCEL_EVENTS)
                && cancel.is_some_and(|c| c.load(Relaxed))
            {
                return Some(format!("cancelled at {} us", self.now.as_us_f64()));
            }
            if self.c.events - self.progress_event > WATCHDOG_EVENTS {
                return Some(format!(
                    "no progress: {WATCHDOG_EVENTS} events without new data acknowledged, stopped at {} us with {} of {} flows done ({} timeouts, {} retransmits, {} drops)",
                    self.now.as_us_f64(),
                    self.completed,
                    self.flows.len(),
                    self.c.timeouts,
                    self.c.retransmits,
                    self.c.dropped
                ));
            }
            match ev {
                Event::Arrive { port } => {
                    if !self.dequeue_marks.is_empty() {
                        self.dequeue_arrival(port);
                    }
                    let ring = &mut self.wire[port as usize];
                    let (_, _, pkt) = ring.slots.pop_front().expect("an arrival has a packet");
                    // The link's next packet takes the event's place in the queue.
                    match ring.slots.front() {
                        Some(&(t, low, _)) => {
                            let ticket = ring.ticket(low);
                            self.queue.replace_min(t, ticket, Event::Arrive { port })
                        }
                        None => {
                            self.queue.pop();
                        }
                    }
                    self.prefetch_next_arrival();
                    match self.far[port as usize] {
                        Far::Host(host) => self.host_receive(host, pkt),
                        Far::Switch { sw, local } => {
                            if !A::held(self, sw, local, pkt) {
                                self.forward(sw, local, pkt);
                            }
                        }
                        Far::Internal(kind) => A::internal_arrival(self, kind, pkt),
                    }
                }
                Event::NicFree { host } => {
                    self.queue.pop();
                    self.nic_free(host);
                }
                Event::FlowStart { flow } => {
                    self.queue.pop();
                    let f = &mut self.flows[flow as usize];
                    f.start_ps = self.now;
                    f.started = true;
                    if self.p.transport.handshake {
                        self.send_syn(flow);
                    } else {
                        self.open(flow);
                    }
                }
                Event::Timeout { flow } => {
                    self.queue.pop();
                    self.timeout(flow);
                }
                Event::AckTimer { flow } => {
                    self.queue.pop();
                    self.ack_timer(flow);
                }
                Event::Circuit { apply } => {
                    self.queue.pop();
                    A::circuit(self, apply);
                }
                Event::Dequeue { port } => {
                    self.queue.pop();
                    self.dequeue_marks[port as usize].armed = false;
                    self.decide_dequeue_marks(port);
                }
                Event::Sample => unreachable!("samples are taken before the clock moves"),
            }
        }
        self.unfinished()
    }

    /// Why a run whose events ran out left flows unfinished (`None` if none is): those that
    /// never started wait on a dependency that never fired; those that started have data
    /// nothing will resend. Names the first few of each kind by their index in the flow table
    /// (the `flow` column of `--flows`; an htsim file's connections in file order).
    #[cold]
    fn unfinished(&self) -> Option<String> {
        const NAMED: usize = 5;
        let left = self.flows.len() - self.completed as usize;
        if left == 0 {
            return None;
        }
        let name = |started: bool| {
            let of_kind = || {
                self.flows
                    .iter()
                    .enumerate()
                    .filter(move |(_, f)| f.tx.finish().is_none() && f.started == started)
            };
            let n = of_kind().count();
            let mut ids: Vec<String> = of_kind()
                .take(NAMED)
                .map(|(i, f)| format!("{i} ({}->{})", f.src, f.dst))
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
            self.flows.len()
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

    /// Records every fabric port at `t` (the earliest pending time: nothing happens between
    /// the clock and it) and schedules the next sample.
    #[cold]
    fn sample(&mut self, t: Time) {
        let Some(trace) = self.trace.as_mut() else {
            return;
        };
        for port in 0..trace.served.len() {
            let backlog = self.ports.backlog_ps(port as u32, t);
            // Link time committed so far, minus what is still waiting: served by `t`.
            // (A port held dark may owe more than it committed: never count back.)
            let served = self.ports.stats[port].busy_ps.saturating_sub(backlog);
            trace.samples.push(PortSample {
                time: t,
                port: port as u32,
                queue_bytes: self.ports.backlog_bytes(port as u32, t),
                served_ps: served.saturating_sub(trace.served[port]),
            });
            trace.served[port] = trace.served[port].max(served);
        }
        self.queue.push(t + trace.interval, Event::Sample);
    }

    /// Starts loading the packet of the next event while this one is processed: a link's
    /// ring head was written hundreds of events ago and is usually out of the L2 cache.
    #[inline]
    fn prefetch_next_arrival(&mut self) {
        #[cfg(target_arch = "x86_64")]
        if let Some((_, Event::Arrive { port })) = self.queue.peek() {
            if let Some(entry) = self.wire[port as usize].slots.front() {
                use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
                // SAFETY: a prefetch is a hint that never faults, and SSE is part of the
                // x86_64 baseline.
                unsafe { _mm_prefetch::<_MM_HINT_T0>((entry as *const Slot).cast()) };
            }
        }
    }

    fn pending_arrivals(&self) -> u64 {
        self.wire.iter().map(|w| w.slots.len() as u64).sum()
    }

    /// A switch routes a packet and offers it to the chosen egress port.
    #[inline(always)]
    fn forward(&mut self, sw: u32, in_local: u32, mut p: Packet) {
        let view = View {
            fabric: &self.fabric,
            ends: &self.ends,
            ports: &self.ports,
            failures: self.failures.as_ref(),
            now: self.now,
        };
        let local = self.lb.egress(view, sw, in_local, &mut p);
        let base = self.fabric.switches[sw as usize].port_base;
        A::egress(self, sw, base + in_local, base + local, p);
    }

    /// `pkt`'s bytes on the wire.
    #[inline]
    fn wire_bytes(&self, pkt: &Packet) -> u32 {
        wire_bytes(pkt, &self.p.link, &self.flows)
    }

    /// Puts an accepted packet on port `port`'s wire, arriving at `t` in FIFO order, or
    /// ahead of the waiting data if it is `control` (strict priority, egress ports only).
    #[inline]
    fn push_wire(&mut self, port: u32, t: Time, pkt: Packet, control: bool) {
        let ticket = self.queue.ticket();
        let ring = &mut self.wire[port as usize];
        ring.note_push(ticket);
        let wire = &mut ring.slots;
        let slot = (t, ticket as u32, pkt);
        if wire.len() == wire.capacity() {
            // Rings keep their largest size (the sum over links is most of a large run's
            // memory): grow by half instead of doubling, a third less slack for a few more
            // reallocations per link in a run.
            wire.reserve_exact((wire.len() / 2).max(4));
        }
        if wire.is_empty() {
            self.queue.push_ticketed(t, ticket, Event::Arrive { port });
            wire.push_back(slot);
        } else if control {
            let (ports, link, flows) = (&mut self.ports, &self.p.link, &self.flows);
            let ser = ports.serialization(wire_bytes(&pkt, link, flows));
            let delay = ports.delay_ps();
            jump_queue(wire, slot, ser, self.now, delay, |q| {
                ports.serialization(wire_bytes(q, link, flows))
            });
        } else {
            debug_assert!(
                wire.back().is_none_or(|b| b.0 <= t),
                "port {port}: a packet arriving at {t:?} queued behind one arriving at {:?}",
                wire.back().map(|b| b.0)
            );
            wire.push_back(slot);
        }
    }

    /// Uplinks of `sw` valid toward `key` (all without failures).
    #[inline]
    fn transmit(&mut self, port: u32, mut pkt: Packet, bounded: bool) {
        #[cfg(target_arch = "x86_64")]
        if let Some(ring) = self.wire.get(port as usize) {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            // SAFETY: a prefetch is a hint that never faults, and SSE is x86_64 baseline.
            unsafe { _mm_prefetch::<_MM_HINT_T0>((ring as *const Ring).cast()) };
        }
        // With trimming, headers, ACKs and NACKs travel in the strict-priority class: they
        // overtake waiting data and are not held to the data buffer. A header trimmed at an
        // earlier hop is control too (it must not be dropped later).
        let control = self.p.overflow == Overflow::Trim && is_control(&pkt);
        let limit = if bounded && !control {
            self.p.buffer_bytes
        } else {
            None
        };
        let ecn = bounded && pkt.kind() == PacketKind::Data && self.p.ecn.is_some();
        let at_dequeue = ecn && !self.dequeue_marks.is_empty() && !pkt.trimmed();
        if ecn && !at_dequeue {
            let backlog = self.ports.backlog_bytes(port, self.now);
            self.mark_ecn(backlog, &mut pkt);
        }
        let bytes = self.wire_bytes(&pkt);
        match self.ports.enqueue(port, bytes, self.now, limit) {
            Enqueue::Arrives(t) => {
                self.lb.on_transmit(port, bytes, self.now);
                self.c.packet_hops += 1;
                self.push_wire(port, t, pkt, control);
                if at_dequeue {
                    let m = &mut self.dequeue_marks[port as usize];
                    m.undecided += 1;
                    if !m.armed {
                        m.armed = true;
                        let leaves = t - self.ports.delay_ps();
                        self.queue.push(leaves, Event::Dequeue { port });
                    }
                }
            }
            Enqueue::Overflow => {
                if self.p.overflow == Overflow::Trim && !is_control(&pkt) {
                    // The tail made room; if it was not enough, the arriving packet is cut
                    // too (one coin per arrival).
                    if self.p.trim_tail
                        && self.trim_rng.below(2) == 0
                        && self.trim_tail(port)
                        && self.ports.fits(port, bytes, self.now, limit)
                    {
                        return self.transmit(port, pkt, bounded);
                    }
                    pkt.trim();
                    self.c.trims += 1;
                    // Headers bypass the data buffer (they would use the priority queue).
                    self.transmit(port, pkt, false);
                } else {
                    self.c.dropped += 1;
                }
            }
        }
    }

    /// `switch.trim_victim = "random"`: cuts the last packet waiting at `port` to its header
    /// and sends the header on in the priority class, if that packet is data still waiting
    /// for the serializer (never the ring's head, whose event is queued). Returns whether it
    /// did.
    fn trim_tail(&mut self, port: u32) -> bool {
        let wire = &self.wire[port as usize].slots;
        let Some(&(arrive, _, mut q)) = wire.back() else {
            return false;
        };
        if wire.len() < 2 || is_control(&q) {
            return false;
        }
        let ser = self.ports.serialization(self.wire_bytes(&q));
        if arrive - self.ports.delay_ps() - ser <= self.now {
            return false;
        }
        self.wire[port as usize].slots.pop_back();
        if let Some(m) = self.dequeue_marks.get_mut(port as usize) {
            // Still waiting, so undecided (and data, so counted if this port marks).
            m.undecided = m.undecided.saturating_sub(1);
        }
        self.ports.unqueue_tail(port, ser, self.now);
        q.trim();
        self.c.trims += 1;
        // Still the same hop: `transmit` counts it again.
        self.c.packet_hops -= 1;
        self.transmit(port, q, false);
        true
    }

    /// `switch.ecn_at = "dequeue"`: decides the marks of `port`'s data packets whose last bit
    /// has left by now, in ring order, each by the data waiting behind it (with trimming, the
    /// priority class waiting right behind it is not data and is not counted); then waits for
    /// the next one. Control packets that jumped ahead of waiting data delay it, so an event
    /// may find its packet not done yet and wait again.
    fn decide_dequeue_marks(&mut self, port: u32) {
        let delay = self.ports.delay_ps();
        let priority = self.p.overflow == Overflow::Trim;
        loop {
            let m = self.dequeue_marks[port as usize];
            if m.undecided == 0 {
                return;
            }
            let wire = &self.wire[port as usize].slots;
            let i = wire
                .iter()
                .enumerate()
                .filter(|(_, e)| !is_control(&e.2))
                .nth(m.decided as usize)
                .map(|(i, _)| i)
                .expect("an undecided data packet is in the ring");
            let leaves = wire[i].0 - delay;
            if leaves > self.now {
                let m = &mut self.dequeue_marks[port as usize];
                if !m.armed {
                    m.armed = true;
                    self.queue.push(leaves, Event::Dequeue { port });
                }
                return;
            }
            let behind: u64 = if priority {
                wire.range(i + 1..)
                    .take_while(|e| is_control(&e.2))
                    .map(|e| self.wire_bytes(&e.2) as u64)
                    .sum()
            } else {
                0
            };
            let waiting = self
                .ports
                .backlog_bytes(port, self.now)
                .saturating_sub(behind);
            let mut pkt = wire[i].2;
            self.mark_ecn(waiting, &mut pkt);
            self.wire[port as usize].slots[i].2 = pkt;
            let m = &mut self.dequeue_marks[port as usize];
            m.decided += 1;
            m.undecided -= 1;
        }
    }

    /// Before `port`'s ring head arrives: its mark is decided (with zero propagation delay
    /// the arrival may come before its `Dequeue` event), and it leaves the decided count.
    #[inline]
    fn dequeue_arrival(&mut self, port: u32) {
        let Some(&(_, _, head)) = self.wire[port as usize].slots.front() else {
            return;
        };
        if is_control(&head) {
            return;
        }
        let Some(&m) = self.dequeue_marks.get(port as usize) else {
            return;
        };
        if m.decided == 0 && m.undecided > 0 {
            self.decide_dequeue_marks(port);
        }
        let m = &mut self.dequeue_marks[port as usize];
        m.decided = m.decided.saturating_sub(1);
    }

    /// ECN: mark a data packet by the `backlog` bytes it finds (RED-like ramp from kmin to
    /// kmax).
    #[inline]
    fn mark_ecn(&mut self, backlog: u64, pkt: &mut Packet) {
        let Some((kmin, kmax)) = self.p.ecn else {
            return;
        };
        let mark = if backlog >= kmax {
            true
        } else if backlog > kmin {
            self.ecn_rng.below(kmax - kmin) < backlog - kmin
        } else {
            false
        };
        if mark && !pkt.ecn() {
            pkt.mark_ecn();
            self.c.ecn_marks += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pkt(seq: u32, kind: PacketKind) -> Packet {
        Packet::new(0, seq, kind, 0)
    }

    /// A slot per packet per link is most of a large run's memory (k = 64: 19.6 M of them).
    #[test]
    fn a_ring_slot_is_32_bytes() {
        assert_eq!(std::mem::size_of::<Slot>(), 32);
    }

    #[test]
    fn control_overtakes_waiting_data_only() {
        // 1 byte per ps, 100 ps of delay: three 1000-byte data packets queued at t = 0 leave
        // at [0, 1000), [1000, 2000), [2000, 3000).
        let ps = Time::from_ps;
        let link = LinkModel {
            rate_bps: 8_000_000_000_000,
            delay_ps: ps(100),
            payload_bytes: 1000,
            header_bytes: 0,
            ack_bytes: 64,
        };
        let ser = |p: &Packet| ps(wire_bytes(p, &link, &[]) as u64);
        let delay = ps(100);
        let mut wire: VecDeque<Slot> = (0..3)
            .map(|i| {
                (
                    ps(1000 * (i + 1)) + delay,
                    i as u32,
                    pkt(i as u32, PacketKind::Data),
                )
            })
            .collect();
        // At t = 500 an ACK of 64 bytes arrives: it waits for packet 0 (in service) only.
        jump_queue(
            &mut wire,
            (ps(3164), 3, pkt(9, PacketKind::Ack)),
            ps(64),
            ps(500),
            delay,
            ser,
        );
        let order: Vec<(u32, Time)> = wire.iter().map(|e| (e.2.seq, e.0)).collect();
        assert_eq!(
            order,
            vec![(0, ps(1100)), (9, ps(1164)), (1, ps(2164)), (2, ps(3164))],
            "the ACK goes right after the packet in service; waiting data moves back"
        );
        // A second control packet at t = 1030 (the ACK in service) queues behind the first (FIFO within the class)
        // but ahead of the data still waiting.
        jump_queue(
            &mut wire,
            (ps(3228), 4, pkt(10, PacketKind::Nack)),
            ps(64),
            ps(1030),
            delay,
            ser,
        );
        let order: Vec<u32> = wire.iter().map(|e| e.2.seq).collect();
        assert_eq!(order, vec![0, 9, 10, 1, 2]);
        assert_eq!(wire[2].0, ps(1228));
        assert_eq!(
            wire.back().unwrap().0,
            ps(3228),
            "the last bit leaves as in FIFO order"
        );
        // Once every data packet has started, a control packet simply goes last.
        jump_queue(
            &mut wire,
            (ps(3292), 5, pkt(11, PacketKind::Ack)),
            ps(64),
            ps(2300),
            delay,
            ser,
        );
        assert_eq!(wire.back().unwrap().2.seq, 11);
        assert_eq!(wire.back().unwrap().0, ps(3292));
    }
}

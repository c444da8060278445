//! One simulation run: building it, and the event loop. Its rooms: `host.rs` the hosts'
//! side (NICs, the transport's senders and receivers, timers, gates); `egress.rs` the egress
//! queue discipline (buffer, trimming, priority, ECN); `wire.rs` the links' rings;
//! `outcome.rs` the counters and results; `multi_asic.rs` multi-ASIC switches;
//! `parallel.rs` the partitions and the windows that run them on several threads. A
//! switch's egress choice is [`crate::lb::SwitchLb::egress`].
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
//!   receiver's delayed-ACK timer.
//! - `Depart { port }` (`switch.pfc` only): switch port `port`'s first packet not started
//!   starts leaving; its MMU releases the packet's bytes (`pfc.rs`).
//!
//! Fastroute's controller and the trace's samples touch every switch or port at once: they
//! are the run's global events, taken between windows (`parallel.rs`), before any event of
//! their picosecond.
//!
//! Hot-path rules: no allocation per packet or event, dispatch by `match`, no logging.
//!
//! A link delivers in FIFO order, so each port keeps its in-flight packets (already
//! serialized or waiting, with their arrival times) in a ring of its own, `wire`, and only
//! the head of each ring has an event in the global queue. The queue then holds about one
//! event per busy link instead of one per packet, and the packet data is read from a ring
//! that is walked in order instead of a slab slot written thousands of events earlier (a
//! cache miss per hop). Each packet keeps the number its port gave it when it was enqueued
//! (`Tickets`), so ties break exactly as if every packet had an event of its own.

mod egress;
mod flows;
mod gates;
mod host;
mod int;
mod multi_asic;
mod nic;
mod outcome;
mod parallel;
mod pfc;
mod sendlist;
mod wire;

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use crate::engine::Rng;
use crate::engine::{EventQueue, Time, TimingWheel};
use crate::lb::{EcmpHash, HostLb, HpccEcmp, SwitchLb, View};
use crate::net::asic::Asics;
use crate::net::{Fabric, Failures, Packet, Ports};
use crate::params::SimParams;
use crate::transport::{AckLog, Receiver, Sender};
use crate::workload::FlowSpec;
use egress::DequeueMarks;
pub use flows::FlowResult;
use flows::Flows;
use gates::Gates;
use multi_asic::{Chassis, Ideal};
use nic::Nics;
use outcome::Trace;
pub use outcome::{Counters, PortSample, RunOutcome};
pub use pfc::PortPfc;
use wire::{Ring, Slot};

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
    /// `switch.pfc`: the first packet of switch port `port` not started starts leaving
    /// (`pfc.rs`).
    Depart {
        port: u32,
    },
}

/// One live flow: its ends, its sender and receiver state machines (`flows.rs`).
struct Flow {
    src: u32,
    dst: u32,
    /// Links between src and dst (fixed: the path length of a fat tree does not vary).
    hops: u32,
    tx: Sender,
    rx: Receiver,
    /// What its coalesced ACKs carry.
    acks: AckLog,
}

/// The watchdog ends a run after this many events without new data acknowledged (counted
/// at the end of each window): a fabric moving packets that long without progress is
/// livelocked (a steady run ACKs a packet every few events; the first round trip of a
/// 65,536-host fabric takes a few million events).
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
    /// The workload's flows (sizes and start times).
    specs: &'a [FlowSpec],
    ports: Ports,
    /// The switches' egress choice (every scheme's state, CONGA's included).
    lb: SwitchLb,
    host_lb: HostLb,
    /// The switches' build: [`Ideal`] or multi-ASIC ([`Asics`]), whose internal ports
    /// follow the fabric's in `wire`.
    asic: A,
    /// Per port of `wire`: its far end.
    far: Vec<Far<A::Internal>>,
    /// Per node: its coin for ECN marks on the ramp and for `switch.trim_victim = "random"`.
    coins: Vec<Rng>,
    /// `switch.ecn_at = "dequeue"`: the marks still to decide.
    marks: DequeueMarks,
    queue: TimingWheel<Event>,
    /// The events' tie-breaking keys.
    tickets: Tickets,
    /// This partition and, per node, the partition that simulates it (`parallel.rs`).
    me: u16,
    owner: &'a [u16],
    /// The mail between this partition and the others.
    post: parallel::Post,
    /// Some flow had new data acknowledged in this window (the watchdog's progress).
    progressed: bool,
    /// Per port: packets accepted and not yet arrived.
    wire: Vec<Ring>,
    flows: Flows,
    /// The hosts' NICs and their queues of flows.
    nics: Nics,
    now: Time,
    c: Counters,
    /// [`crate::params::RunParams::second_half_ps`]: ACKs from then on count in
    /// `Counters::acked_late_bytes`.
    second_half: Time,
    completed: u64,
    /// Flow dependencies.
    gates: Gates<'a>,
    failures: Option<Failures>,
    /// With failures: rho_max (`net::failures`).
    rho_max: Option<f64>,
    trace: Option<Trace>,
    /// HPCC's in-band telemetry (`host.cc = "hpcc"`).
    int: Option<Box<int::Int>>,
    /// `switch.pfc`: the switches' MMUs and the ports' pause state.
    pfc: Option<Box<pfc::Pfc>>,
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
    if Asics::new(&p.arch, &fabric, p.link.rate_bps).is_none() {
        parallel::simulate_with(p, fabric, |_| Ideal, trace, cancel)
    } else {
        let asics = |f: &Fabric| Asics::new(&p.arch, f, p.link.rate_bps).expect("multi-ASIC");
        parallel::simulate_with(p, fabric, asics, trace, cancel)
    }
}

/// HPCC's telemetry tables, if the run's senders read them: a flow's packets in flight are
/// fewer than its window's packets (or 4,096 without a window).
fn int_table(p: &SimParams, fabric: &Fabric, flows: usize) -> Option<Box<int::Int>> {
    use crate::transport::{CcKind, RateWindow};
    let cc = &p.host.transport.cc;
    (cc.kind == CcKind::Hpcc).then(|| {
        let in_flight = match cc.rate.window {
            RateWindow::Off => 4096,
            _ => cc.rate.window_bytes / cc.rate.mss_bytes.max(1) + 2,
        };
        Box::new(int::Int::new(fabric.ports(), flows, in_flight))
    })
}

/// The switches' egress choice for the run of `p` over `fabric` carrying `flows`.
fn switch_lb(p: &SimParams, fabric: &Fabric, flows: &[FlowSpec]) -> SwitchLb {
    let lb = SwitchLb::new(
        p.switch.lb,
        &p.switch.deployment,
        fabric,
        p.switch.buffer_bytes,
        p.switch.pipe_ports,
        p.switch.combining,
        p.run.seed,
    )
    .with_dynamic_first(p.switch.ofan_dynamic_first);
    match p.switch.ecmp_hash {
        EcmpHash::Fabsim => lb,
        EcmpHash::HpccNs3 => lb.with_hpcc_ecmp(HpccEcmp::new(
            fabric,
            |node| p.topology.node_id(node),
            flows,
            |i| p.workload.hpcc_dport(i),
        )),
    }
}

/// The events' tie-breaking keys: the port or host that schedules an event numbers it with
/// a counter of its own; events of one picosecond run in the order of those ids (ports of
/// `wire` first, then hosts), and one id's events in the order it scheduled them. Ties
/// then break by what each node did, never by the order in which nodes were simulated (the
/// partitioned engine's output does not depend on its thread count), and a node that
/// schedules more events (a multi-ASIC switch's internal ports) does not reorder the others.
/// A port's counter lives in its ring ([`Ring::take`]).
struct Tickets {
    /// Per host: the last number it took.
    host: Vec<u64>,
    /// The first host's id (the number of ports of `wire`).
    host_base: u32,
    /// Bits of a counter (below the id).
    cbits: u32,
}

/// Bits of an event key (the timing wheel's ticket).
const KEY_BITS: u32 = 56;

impl Tickets {
    fn new(wire_ports: usize, hosts: u32) -> Self {
        let ids = wire_ports as u64 + hosts as u64;
        Self {
            host: vec![0; hosts as usize],
            host_base: wire_ports as u32,
            cbits: KEY_BITS - (64 - ids.leading_zeros()),
        }
    }

    /// The key of the next event host `h` schedules.
    #[inline]
    fn host(&mut self, h: u32) -> u64 {
        let c = &mut self.host[h as usize];
        *c += 1;
        let c = *c;
        self.port(c, self.host_base + h)
    }

    /// The key of number `counter` of port (or id) `id`.
    #[inline]
    fn port(&self, counter: u64, id: u32) -> u64 {
        assert!(
            counter >> self.cbits == 0,
            "a node scheduled more events than its key can number"
        );
        (id as u64) << self.cbits | counter
    }
}

impl<'a, A: Chassis> Sim<'a, A> {
    /// Partition `me` of a run: every node's state is built (so flow and port indices stay
    /// global), and only the flows whose sender `me` simulates are started.
    #[allow(clippy::too_many_arguments)]
    fn new(
        p: &'a SimParams,
        fabric: Fabric,
        asic: A,
        traffic: &'a crate::workload::Traffic,
        owner: &'a [u16],
        me: u16,
        parts: usize,
        trace: Option<Time>,
    ) -> Self {
        let specs = &traffic.flows;
        let failures = p.failures.as_ref().map(|spec| {
            // The scenario layer validated named links; random ones never disconnect.
            Failures::new(&fabric, spec, p.run.seed).expect("valid failures")
        });
        let rho_max = failures.as_ref().map(|f| f.rho_max(&fabric, specs));
        let host_lb = HostLb::new(p.host.lb, p.host.path_labels, &fabric, specs, p.run.seed);
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
        let mut from_node: Vec<u32> = (0..fabric.hosts).collect();
        for (s, info) in fabric.switches.iter().enumerate() {
            from_node.resize(
                (info.port_base + info.ports) as usize,
                fabric.hosts + s as u32,
            );
        }
        let mut wire = vec![Ring::default(); far.len()];
        for (g, ring) in wire.iter_mut().enumerate().take(fabric.ports()) {
            ring.from = from_node[g];
            ring.remote =
                owner[from_node[g] as usize] == me && owner[fabric.port_to_node[g] as usize] != me;
        }
        let nodes = fabric.hosts as usize + fabric.switches.len();
        let mut sim = Sim {
            lb: switch_lb(p, &fabric, specs),
            ports: Ports::of(&fabric).with_floor_ns(p.link.floor_ns),
            p,
            ends: specs.iter().map(|f| [f.src, f.dst]).collect(),
            host_lb,
            asic,
            tickets: Tickets::new(far.len(), fabric.hosts),
            wire,
            far,
            coins: Rng::per_node(p.run.seed, "coins", nodes),
            marks: DequeueMarks::new(p.switch.ecn_dequeue && p.switch.ecn.is_some(), p.run.seed),
            queue: TimingWheel::default(),
            me,
            owner,
            post: parallel::Post::new(parts),
            progressed: false,
            flows: Flows::new(specs.len()),
            specs,
            nics: Nics::new(
                p.host.nic,
                hosts,
                specs.len(),
                rho_max.filter(|&r| p.pace && r < 1.0).map(|r| 1.0 / r),
                p.host.transport.cc.kind.law().is_some(),
            ),
            now: Time::ZERO,
            c: Counters::default(),
            second_half: p.run.second_half_ps(),
            completed: 0,
            gates: Gates::new(&traffic.deps),
            rho_max,
            failures,
            trace: trace.map(|_| Trace {
                served: vec![Time::ZERO; fabric.ports()],
                samples: Vec::new(),
                max_samples: p.trace_max_samples(),
            }),
            int: int_table(p, &fabric, specs.len()),
            pfc: pfc::Pfc::of(p.switch.pfc_buffer, &fabric),
            fabric,
        };
        for (i, f) in specs.iter().enumerate() {
            if sim.gates.free(i) && sim.owns(f.src) {
                sim.at_host(f.src, f.start_ps, Event::FlowStart { flow: i as u32 });
            }
        }
        sim
    }

    /// Flow `id`'s state as it becomes live.
    fn make_flow(&self, id: u32) -> Flow {
        let f = &self.specs[id as usize];
        let hops = self.fabric.hops(f.src, f.dst);
        let tx = Sender::new(
            f.bytes,
            self.p.link.payload_bytes,
            &self.p.host.transport,
            self.p.link.base_rtt_ps(hops),
        );
        Flow {
            src: f.src,
            dst: f.dst,
            hops,
            rx: Receiver::new(tx.packets()),
            tx,
            acks: AckLog::default(),
        }
    }

    /// Whether this partition simulates node `node`.
    #[inline]
    fn owns(&self, node: u32) -> bool {
        self.owner[node as usize] == self.me
    }

    /// Schedules `ev` at `at` for host `host`, numbered by the host.
    #[inline]
    fn at_host(&mut self, host: u32, at: Time, ev: Event) {
        let key = self.tickets.host(host);
        self.queue.push_ticketed(at, key, ev);
    }
}

impl<A: Chassis> Sim<'_, A> {
    /// Runs this partition's events before `until` (and none after the run's stop time);
    /// `Some(why)` if `cancel` was set.
    fn run_window(&mut self, until: Time, cancel: Option<&AtomicBool>) -> Option<String> {
        let stop = self.p.run.stop_ps.unwrap_or(Time::MAX);
        while let Some((t, ev)) = self.queue.peek() {
            if t >= until || t > stop {
                break;
            }
            debug_assert!(t >= self.now, "time went backwards");
            self.now = t;
            self.c.events += 1;
            if self.c.events.is_multiple_of(CANCEL_EVENTS)
                && cancel.is_some_and(|c| c.load(Relaxed))
            {
                return Some(format!("cancelled at {} us", self.now.as_us_f64()));
            }
            match ev {
                Event::Arrive { port } => {
                    self.head_leaves(port);
                    let ring = &mut self.wire[port as usize];
                    let (_, _, pkt) = ring.slots.pop_front().expect("an arrival has a packet");
                    // The link's next packet takes the event's place in the queue.
                    match ring.slots.front() {
                        Some(&(t, low, _)) => {
                            let ticket = self.tickets.port(ring.ticket(low), port);
                            self.queue.replace_min(t, ticket, Event::Arrive { port })
                        }
                        None => {
                            self.queue.pop();
                        }
                    }
                    self.prefetch_next_arrival();
                    match self.far[port as usize] {
                        Far::Host(host) => self.host_receive(host, pkt),
                        Far::Switch { sw, local } => self.switch_arrival(sw, local, pkt),
                        Far::Internal(kind) => self.internal_arrival(kind, pkt),
                    }
                }
                Event::NicFree { host } => {
                    self.queue.pop();
                    self.nic_free(host);
                }
                Event::FlowStart { flow } => {
                    self.queue.pop();
                    let f = self.make_flow(flow);
                    self.flows.create(flow, f);
                    self.flows.records[flow as usize].ready = self.now;
                    if self.p.host.transport.handshake {
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
                Event::Depart { port } => {
                    self.queue.pop();
                    self.depart(port);
                }
            }
        }
        None
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

    /// Packets on a wire or in a queue (held at a paused port included).
    fn pending_arrivals(&self) -> u64 {
        let held = self.pfc.as_ref().map_or(0, |p| p.held());
        self.wire.iter().map(|w| w.slots.len() as u64).sum::<u64>() + held
    }

    /// A switch routes a packet and offers it to the chosen egress port (through its MMU
    /// with `PFC`).
    #[inline(always)]
    fn forward<const PFC: bool>(&mut self, sw: u32, in_local: u32, mut p: Packet) {
        let view = View {
            fabric: &self.fabric,
            ends: &self.ends,
            ports: &self.ports,
            failures: self.failures.as_ref(),
            now: self.now,
        };
        let local = self.lb.egress(view, sw, in_local, &mut p);
        let base = self.fabric.switches[sw as usize].port_base;
        self.egress::<PFC>(sw, base + in_local, base + local, p);
    }
}

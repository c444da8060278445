//! One simulation run: building it, and the event loop. Its rooms: `host.rs` the hosts'
//! side (NICs, the transport's senders and receivers, timers, gates); `egress.rs` the egress
//! queue discipline (buffer, trimming, priority, ECN); `wire.rs` the links' rings;
//! `outcome.rs` the counters and results; `multi_asic.rs` multi-ASIC switches. A switch's
//! egress choice is [`crate::lb::SwitchLb::egress`].
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

mod egress;
mod host;
mod multi_asic;
mod outcome;
mod wire;

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use crate::engine::Rng;
use crate::engine::{EventQueue, Time, TimingWheel};
use crate::lb::{HostLb, SwitchLb, View};
use crate::net::asic::Asics;
use crate::net::{Fabric, Failures, Packet, Ports};
use crate::params::SimParams;
use crate::transport::{AckLog, Receiver, Sender};
use crate::workload::deps::Deps;
use egress::DequeueMarks;
use multi_asic::{Chassis, Ideal};
use outcome::Trace;
pub use outcome::{Counters, PortSample, RunOutcome};
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
    /// Per flow: [`Sender::window_open`], kept beside the flows so the round robin skips
    /// window-blocked flows without loading each one (a cache miss per flow on a large
    /// fabric); refreshed wherever the window or the bytes in flight change.
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
        p.switch.lb,
        &p.switch.deployment,
        &fabric,
        p.switch.buffer_bytes,
        p.switch.pipe_ports,
        p.switch.combining,
        p.run.seed,
    )
    .with_dynamic_first(p.switch.ofan_dynamic_first);
    let traffic = p.workload.traffic(fabric.hosts, p.run.seed);
    let specs = traffic.flows;
    let failures = p.failures.as_ref().map(|spec| {
        // The scenario layer validated named links; random ones never disconnect.
        let f = Failures::new(&fabric, spec, p.run.seed).expect("valid failures");
        let rho = f.rho_max(&fabric, &specs);
        (f, rho)
    });
    let rho_max = failures.as_ref().map(|f| f.1);
    let host_lb = HostLb::new(p.host.lb, p.host.path_labels, &fabric, &specs, p.run.seed);
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
        ecn_rng: Rng::stream(p.run.seed, "ecn"),
        dequeue_marks: if p.switch.ecn_dequeue && p.switch.ecn.is_some() {
            vec![DequeueMarks::default(); fabric.ports()]
        } else {
            Vec::new()
        },
        trim_rng: Rng::stream(p.run.seed, "trim"),
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
            &p.host.transport,
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
    sim.into_outcome(stalled, specs, traffic.collectives, rho_max)
}

impl<A: Chassis> Sim<'_, A> {
    /// Runs events until none is left or the stop time; `Some(diagnosis)` if the watchdog
    /// ended it.
    fn run(&mut self, cancel: Option<&AtomicBool>) -> Option<String> {
        let stop = self.p.run.stop_ps.unwrap_or(Time::MAX);
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
}

#[cfg(test)]
mod tests {
    /// The cost estimate's per-flow state covers what a flow holds here (its `Flow`, its
    /// `[src, dst]` and its description) and overstates it by less than a cache line.
    #[test]
    fn the_estimate_counts_a_flows_state() {
        use std::mem::size_of;
        let held =
            size_of::<super::Flow>() + size_of::<[u32; 2]>() + size_of::<crate::flow::FlowSpec>();
        let counted = crate::params::flow_state_bytes() as usize;
        assert!(
            held <= counted && counted < held + 64,
            "{held} held, {counted} counted"
        );
    }
}

//! One simulation run: the event loop, hosts and switches.
//!
//! Events (both `Copy`, a few bytes):
//! - `Arrive { port }`: the last bit of the packet at the head of `port`'s wire reaches the
//!   node at the far end. A switch routes it and offers it to an egress port; a host
//!   consumes it.
//! - `NicFree { host }`: the host's NIC finished its data packet; the host hands it the next
//!   one (work-conserving, at line rate). ACKs go to the NIC as soon as they are generated and
//!   wait at most for the packet in service.
//! - `FlowStart { flow }`: a message becomes ready to send (at its start time, or when the
//!   gates it waits for fired: see `workload::deps`).
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

use std::collections::VecDeque;

use crate::engine::Rng;
use crate::engine::{EventQueue, Time, TimingWheel};
use crate::lb::{
    Conga, CongaTag, Decision, Deployment, HostLb, HostLbKind, SwitchLb, SwitchLbKind, ALL_UPLINKS,
};
use crate::net::{
    Enqueue, Fabric, FailureSpec, Failures, Packet, PacketKind, Ports, Route, Tier, TopologySpec,
    UpPath,
};
use crate::theory::LinkModel;
use crate::transport::{AckInfo, Cc, CcParams};
use crate::workload::deps::{Csr, Deps};
use crate::workload::{Collective, FlowSpec, WorkloadSpec};

/// What a port does with a packet its buffer cannot take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overflow {
    Drop,
    /// Cut the data packet to its header and forward the header (UEC-style trimming); the
    /// receiver NACKs it and the sender retransmits.
    Trim,
}

impl Overflow {
    pub fn name(self) -> &'static str {
        match self {
            Overflow::Drop => "drop",
            Overflow::Trim => "trim",
        }
    }
}

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
    /// Failed links (`failures.links`), and whether hosts pace at rho_max
    /// (`failures.pace`).
    pub failures: Option<FailureSpec>,
    pub pace: bool,
    pub seed: u64,
}

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
    /// Retransmission timeouts that fired.
    pub timeouts: u64,
    /// Data packets that reached their receiver a second time (ACKed again, not counted).
    pub duplicates: u64,
    pub ecn_marks: u64,
    pub events: u64,
    /// One packet crossing one link.
    pub packet_hops: u64,
}

struct Flow {
    src: u32,
    dst: u32,
    /// Links between src and dst (fixed: the path length of a fat tree does not vary).
    hops: u32,
    pkts: u32,
    /// Next never-sent sequence number.
    next_seq: u32,
    acked: u32,
    bytes: u64,
    start_ps: Time,
    finish_ps: Option<Time>,
    /// Sequence numbers NACKed and waiting for retransmission.
    retx: Vec<u32>,
    cc: Cc,
    /// Payload bytes sent and not yet ACKed or NACKed.
    inflight_bytes: u64,
    /// An ACK for this sequence number or later closes the congestion window's round.
    window_end: u32,
    /// Per sequence number: ACKed (sender), counted in flight (sender), received (receiver).
    acked_seqs: Bits,
    outstanding: Bits,
    received: Bits,
    /// A `Timeout` event is pending; the last time an ACK brought news.
    timer_armed: bool,
    last_progress_ps: Time,
    /// Gates still to fire before the flow may start.
    waiting: u32,
    /// Distinct data packets the receiver holds.
    recvd: u32,
    /// When its first data packet left the sender (`Time::MAX`: not yet).
    first_tx_ps: Time,
}

/// A fixed-size bit set, one bit per packet of a flow.
struct Bits(Vec<u64>);

impl Bits {
    fn new(n: u32) -> Self {
        Bits(vec![0; (n as usize).div_ceil(64)])
    }

    #[inline]
    fn get(&self, i: u32) -> bool {
        self.0[i as usize / 64] >> (i % 64) & 1 == 1
    }

    /// Sets bit `i` to `v`; returns its previous value.
    #[inline]
    fn set(&mut self, i: u32, v: bool) -> bool {
        let (w, b) = (i as usize / 64, i % 64);
        let old = self.0[w] >> b & 1 == 1;
        self.0[w] = self.0[w] & !(1 << b) | (v as u64) << b;
        old
    }
}

impl Flow {
    /// Payload bytes of packet `seq`.
    fn payload(&self, seq: u32, payload_bytes: u32) -> u64 {
        let p = payload_bytes as u64;
        (self.bytes - seq as u64 * p).min(p)
    }

    /// Has data to send (new or to retransmit).
    fn has_data(&self) -> bool {
        self.next_seq < self.pkts || !self.retx.is_empty()
    }

    /// May send one more packet now: the window has room (a flow with nothing in flight may
    /// always send one, so a window below one packet cannot stall it).
    fn window_open(&self, payload_bytes: u32) -> bool {
        self.inflight_bytes == 0 || self.inflight_bytes + payload_bytes as u64 <= self.cc.window()
    }
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
    /// With failures: the failed links and rho_max (see `net::failures`).
    pub failures: Option<(Failures, f64)>,
}

struct Sim<'a> {
    p: &'a SimParams,
    fabric: Fabric,
    ports: Ports,
    lb: SwitchLb,
    host_lb: HostLb,
    /// CONGA's DREs, congestion tables and flowlets (`switch.lb = "conga"`).
    conga: Option<Conga>,
    ecn_rng: Rng,
    queue: TimingWheel<Event>,
    /// Per port: packets accepted and not yet arrived, with (arrival time, ticket).
    wire: Vec<VecDeque<(Time, u64, Packet)>>,
    flows: Vec<Flow>,
    /// Per host: flows with something to send, round-robin cursor, NicFree pending.
    tx: Vec<Vec<u32>>,
    cursor: Vec<u32>,
    nic_armed: Vec<bool>,
    now: Time,
    c: Counters,
    completed: u64,
    /// Flow dependencies, and per gate the signals it still needs.
    deps: Deps,
    gate_left: Vec<u32>,
    failures: Option<Failures>,
    /// Pacing at rho_max: line-rate time over paced time, and per host the earliest next
    /// data packet.
    pace: Option<f64>,
    next_tx: Vec<Time>,
}

/// Runs one simulation to completion (every flow acknowledged, or nothing left to do).
pub fn simulate(p: &SimParams) -> RunOutcome {
    let fabric = Fabric::new(&p.topology, p.link.rate_bps, p.link.delay_ps);
    let ports = Ports::new(fabric.ports(), p.link.rate_bps, p.link.delay_ps);
    let lb = SwitchLb::new(
        p.lb,
        &fabric,
        p.buffer_bytes,
        p.pipe_ports,
        p.combining,
        (!p.deployment.is_uniform()).then(|| p.deployment.per_switch(p.lb, &fabric, p.seed)),
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
    let host_lb = HostLb::new(p.host_lb, &fabric, &specs, p.seed);
    let hosts = fabric.hosts as usize;
    let ports_count = fabric.ports();
    let mut sim = Sim {
        p,
        ports,
        lb,
        host_lb,
        conga: (p.lb == SwitchLbKind::Conga).then(|| Conga::new(&fabric, p.seed)),
        ecn_rng: Rng::stream(p.seed, "ecn"),
        queue: TimingWheel::default(),
        wire: vec![VecDeque::new(); ports_count],
        flows: Vec::with_capacity(specs.len()),
        tx: vec![Vec::new(); hosts],
        cursor: vec![0; hosts],
        nic_armed: vec![false; hosts],
        now: 0,
        c: Counters::default(),
        completed: 0,
        gate_left: traffic.deps.need.clone(),
        deps: traffic.deps,
        pace: rho_max.filter(|&r| p.pace && r < 1.0).map(|r| 1.0 / r),
        next_tx: vec![0; hosts],
        failures: failures.map(|f| f.0),
        fabric,
    };
    for (i, f) in specs.iter().enumerate() {
        let pkts = p.link.packet_sizes(f.bytes).count() as u32;
        let hops = sim.fabric.hops(f.src, f.dst);
        sim.flows.push(Flow {
            src: f.src,
            dst: f.dst,
            hops,
            pkts,
            next_seq: 0,
            acked: 0,
            bytes: f.bytes,
            start_ps: f.start_ps,
            finish_ps: None,
            retx: Vec::new(),
            cc: Cc::new(&p.cc, p.link.base_rtt_ps(hops)),
            inflight_bytes: 0,
            window_end: 0,
            acked_seqs: Bits::new(pkts),
            outstanding: Bits::new(pkts),
            received: Bits::new(pkts),
            timer_armed: false,
            last_progress_ps: 0,
            waiting: sim.deps.waits[i],
            recvd: 0,
            first_tx_ps: Time::MAX,
        });
        if sim.deps.waits[i] == 0 {
            sim.queue
                .push(f.start_ps, Event::FlowStart { flow: i as u32 });
        }
    }
    sim.run();
    let start_ps = sim.flows.iter().map(|f| f.start_ps).min().unwrap_or(0);
    let end_ps = if sim.completed == sim.flows.len() as u64 {
        sim.flows.iter().filter_map(|f| f.finish_ps).max()
    } else {
        None
    };
    let stop_ps = sim.now;
    sim.ports.finish(end_ps.unwrap_or(stop_ps));
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
            .map(|f| f.finish_ps.map(|t| t - f.start_ps))
            .collect(),
        first_tx_ps: sim
            .flows
            .iter()
            .map(|f| (f.first_tx_ps != Time::MAX).then_some(f.first_tx_ps))
            .collect(),
        finish_ps: sim.flows.iter().map(|f| f.finish_ps).collect(),
        collectives: traffic.collectives,
        deps: sim.deps,
        flows: specs,
        combining: sim.lb.combining_stats(),
        failures: sim.failures.zip(rho_max),
    }
}

impl Sim<'_> {
    fn run(&mut self) {
        while let Some((t, ev)) = self.queue.peek() {
            debug_assert!(t >= self.now, "time went backwards");
            self.now = t;
            self.c.events += 1;
            match ev {
                Event::Arrive { port } => {
                    let wire = &mut self.wire[port as usize];
                    let (_, _, pkt) = wire.pop_front().expect("an arrival has a packet");
                    // The link's next packet takes the event's place in the queue.
                    match wire.front() {
                        Some(&(t, ticket, _)) => {
                            self.queue.replace_min(t, ticket, Event::Arrive { port })
                        }
                        None => {
                            self.queue.pop();
                        }
                    }
                    self.prefetch_next_arrival();
                    let node = self.fabric.port_to_node[port as usize];
                    if node < self.fabric.hosts {
                        self.host_receive(node, pkt);
                    } else {
                        let in_local = self.fabric.port_to_local[port as usize];
                        self.forward(self.fabric.switch_of(node), in_local, pkt);
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
                    let src = f.src;
                    self.tx[src as usize].push(flow);
                    self.arm_nic(src);
                }
                Event::Timeout { flow } => {
                    self.queue.pop();
                    self.timeout(flow);
                }
            }
        }
    }

    /// Starts loading the packet of the next event while this one is processed: a link's
    /// ring head was written hundreds of events ago and is usually out of the L2 cache.
    #[inline]
    fn prefetch_next_arrival(&mut self) {
        #[cfg(target_arch = "x86_64")]
        if let Some((_, Event::Arrive { port })) = self.queue.peek() {
            if let Some(entry) = self.wire[port as usize].front() {
                use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
                // SAFETY: a prefetch is a hint that never faults, and SSE is part of the
                // x86_64 baseline.
                unsafe {
                    _mm_prefetch::<_MM_HINT_T0>((entry as *const (Time, u64, Packet)).cast())
                };
            }
        }
    }

    fn pending_arrivals(&self) -> u64 {
        self.wire.iter().map(|w| w.len() as u64).sum()
    }

    /// A switch routes a packet and offers it to the chosen egress port.
    #[inline]
    fn forward(&mut self, sw: u32, in_local: u32, mut p: Packet) {
        let info = self.fabric.switches[sw as usize];
        let flow_hash =
            (p.flow as u64) << 17 | (p.entropy as u64) << 1 | (p.kind == PacketKind::Ack) as u64;
        let local = match self.fabric.route(sw, p.dst) {
            Route::Down(l) => {
                if let Some(conga) = &mut self.conga {
                    match info.tier {
                        Tier::Core => conga.at_spine(info.port_base + l, &mut p, self.now),
                        _ if in_local >= info.down => {
                            conga.at_destination_leaf(sw, self.fabric.edge_of(p.src), &p)
                        }
                        _ => {}
                    }
                }
                l
            }
            Route::Up { key }
                if !p.up.is_none()
                    && self.valid_uplinks(sw, key) >> p.up.at(info.tier) & 1 == 1 =>
            {
                info.down + p.up.at(info.tier)
            }
            Route::Up { key } => match &mut self.conga {
                Some(conga) => {
                    let first_up = info.port_base + info.down;
                    let now = self.now;
                    info.down + conga.at_source_leaf(sw, key, first_up, flow_hash, &mut p, now)
                }
                None => {
                    let d = Decision {
                        sw,
                        key,
                        kind: p.kind,
                        in_local,
                        flow_hash,
                        valid: self.valid_uplinks(sw, key),
                    };
                    info.down + self.lb.choose(&self.fabric, &self.ports, d, self.now)
                }
            },
        };
        self.transmit(info.port_base + local, p, true);
    }

    /// Uplinks of `sw` valid toward `key` (all without failures).
    #[inline]
    fn valid_uplinks(&self, sw: u32, key: u32) -> u64 {
        self.failures
            .as_ref()
            .map_or(ALL_UPLINKS, |f| f.valid(sw, key))
    }

    /// Offers `pkt` to egress `port`; switch ports (`bounded`) apply the buffer.
    #[inline]
    fn transmit(&mut self, port: u32, mut pkt: Packet, bounded: bool) {
        // With trimming, headers, ACKs and NACKs would sit in the priority queue: they are not
        // held to the data buffer.
        // A header trimmed at an earlier hop is control too (it must not be dropped later).
        let control =
            self.p.overflow == Overflow::Trim && (pkt.kind != PacketKind::Data || pkt.trimmed);
        let limit = if bounded && !control {
            self.p.buffer_bytes
        } else {
            None
        };
        if bounded && pkt.kind == PacketKind::Data {
            self.mark_ecn(port, &mut pkt);
        }
        match self.ports.enqueue(port, pkt.bytes, self.now, limit) {
            Enqueue::Arrives(t) => {
                if let Some(conga) = &mut self.conga {
                    conga.on_transmit(port, pkt.bytes, self.now);
                }
                self.c.packet_hops += 1;
                let ticket = self.queue.ticket();
                let wire = &mut self.wire[port as usize];
                if wire.is_empty() {
                    self.queue.push_ticketed(t, ticket, Event::Arrive { port });
                }
                wire.push_back((t, ticket, pkt));
            }
            Enqueue::Overflow => {
                if self.p.overflow == Overflow::Trim && pkt.kind == PacketKind::Data && !pkt.trimmed
                {
                    pkt.trimmed = true;
                    pkt.bytes = self.p.link.header_bytes;
                    self.c.trims += 1;
                    // Headers bypass the data buffer (they would use the priority queue).
                    self.transmit(port, pkt, false);
                } else {
                    self.c.dropped += 1;
                }
            }
        }
    }

    /// ECN: mark a data packet by the backlog it finds (RED-like ramp from kmin to kmax).
    #[inline]
    fn mark_ecn(&mut self, port: u32, pkt: &mut Packet) {
        let Some((kmin, kmax)) = self.p.ecn else {
            return;
        };
        let backlog = self.ports.backlog_bytes(port, self.now);
        let mark = if backlog >= kmax {
            true
        } else if backlog > kmin {
            self.ecn_rng.below(kmax - kmin) < backlog - kmin
        } else {
            false
        };
        if mark && !pkt.ecn {
            pkt.ecn = true;
            self.c.ecn_marks += 1;
        }
    }

    fn host_receive(&mut self, host: u32, p: Packet) {
        debug_assert_eq!(p.dst, host);
        match p.kind {
            PacketKind::Data => {
                // ACK (or NACK, if trimmed) it at once; a duplicate is ACKed again.
                if p.trimmed {
                    self.c.trimmed_delivered += 1;
                } else {
                    self.c.delivered += 1;
                    let f = &mut self.flows[p.flow as usize];
                    if f.received.set(p.seq, true) {
                        self.c.duplicates += 1;
                    } else {
                        f.recvd += 1;
                        if f.recvd == f.pkts {
                            self.signal(|d| &d.recv_done, p.flow);
                        }
                    }
                }
                self.c.created += 1;
                let ack = Packet {
                    src: host,
                    dst: p.src,
                    bytes: self.p.link.ack_bytes,
                    kind: if p.trimmed {
                        PacketKind::Nack
                    } else {
                        PacketKind::Ack
                    },
                    trimmed: false,
                    up: UpPath::NONE,
                    ..p
                };
                self.transmit(host, ack, false);
            }
            PacketKind::Ack => {
                self.c.delivered += 1;
                let f = &mut self.flows[p.flow as usize];
                if f.acked_seqs.set(p.seq, true) {
                    // The ACK of a duplicate: nothing new.
                    return;
                }
                self.host_lb.on_ack(p.flow, p.entropy, p.ecn);
                let bytes = f.payload(p.seq, self.p.link.payload_bytes);
                if f.outstanding.set(p.seq, false) {
                    f.inflight_bytes -= bytes;
                }
                f.last_progress_ps = self.now;
                let window_done = p.seq >= f.window_end;
                if window_done {
                    f.window_end = f.next_seq;
                }
                f.cc.on_ack(&AckInfo {
                    bytes,
                    ecn: p.ecn,
                    rtt_ps: (self.now as u32).wrapping_sub(p.sent_ps) as Time,
                    window_done,
                    now: self.now,
                });
                f.acked += 1;
                debug_assert!(f.acked <= f.pkts);
                if f.acked == f.pkts {
                    f.finish_ps = Some(self.now);
                    self.completed += 1;
                    self.signal(|d| &d.send_done, p.flow);
                }
                // The window may have opened.
                self.arm_nic(host);
            }
            PacketKind::Nack => {
                self.c.delivered += 1;
                let payload_bytes = self.p.link.payload_bytes;
                let f = &mut self.flows[p.flow as usize];
                if f.acked_seqs.get(p.seq) || !f.outstanding.set(p.seq, false) {
                    // Already ACKed, or already given up on by a timeout.
                    return;
                }
                let bytes = f.payload(p.seq, payload_bytes);
                f.inflight_bytes -= bytes;
                f.cc.on_loss(bytes, self.now);
                self.requeue(p.flow, p.seq);
                self.arm_nic(host);
            }
        }
    }

    /// `flow` completed (sending or receiving, as `list` selects): signal its gates, and
    /// start the flows whose last gate fired.
    fn signal(&mut self, list: fn(&Deps) -> &Csr, flow: u32) {
        for &g in list(&self.deps).row(flow) {
            let left = &mut self.gate_left[g as usize];
            if *left == 0 {
                // A gate fires once (htsim's multishot triggers restart nothing here).
                continue;
            }
            *left -= 1;
            if *left > 0 {
                continue;
            }
            let delay = self.deps.delay_ps[g as usize];
            for &t in self.deps.targets.row(g) {
                let f = &mut self.flows[t as usize];
                f.waiting -= 1;
                if f.waiting == 0 {
                    let at = (self.now + delay).max(f.start_ps);
                    self.queue.push(at, Event::FlowStart { flow: t });
                }
            }
        }
    }

    /// Queues `seq` of `flow` for retransmission, putting the flow back on its host's send
    /// list if it had left it.
    fn requeue(&mut self, flow: u32, seq: u32) {
        let f = &mut self.flows[flow as usize];
        if !f.has_data() {
            self.tx[f.src as usize].push(flow);
        }
        f.retx.push(seq);
    }

    /// The retransmission timer of `flow` fired: if nothing was ACKed for a whole RTO, every
    /// packet still in flight is presumed lost and resent.
    fn timeout(&mut self, flow: u32) {
        let rto = self.p.rto_ps.expect("timers only run with an RTO");
        let payload_bytes = self.p.link.payload_bytes;
        let f = &mut self.flows[flow as usize];
        f.timer_armed = false;
        if f.finish_ps.is_some() || f.inflight_bytes == 0 {
            return;
        }
        if f.last_progress_ps + rto > self.now {
            // ACKs came since the timer was set: wait a full RTO from the last one.
            f.timer_armed = true;
            let at = f.last_progress_ps + rto;
            self.queue.push(at, Event::Timeout { flow });
            return;
        }
        self.c.timeouts += 1;
        self.host_lb.on_timeout(flow, self.now);
        let (src, sent) = (f.src, f.next_seq);
        let mut lost = 0;
        for seq in 0..sent {
            let f = &mut self.flows[flow as usize];
            if f.outstanding.get(seq) {
                f.outstanding.set(seq, false);
                lost += f.payload(seq, payload_bytes);
                self.requeue(flow, seq);
            }
        }
        let f = &mut self.flows[flow as usize];
        f.inflight_bytes -= lost;
        f.cc.on_loss(lost, self.now);
        f.last_progress_ps = self.now;
        self.arm_nic(src);
    }

    /// Makes sure a `NicFree` is pending for `host` if it has something to send.
    fn arm_nic(&mut self, host: u32) {
        if !self.nic_armed[host as usize] && !self.tx[host as usize].is_empty() {
            self.nic_armed[host as usize] = true;
            let at = self.ports.busy_until[host as usize]
                .max(self.now)
                .max(self.next_tx[host as usize]);
            self.queue.push(at, Event::NicFree { host });
        }
    }

    /// The NIC is free: hand it the next data packet, round-robin over the host's flows.
    fn nic_free(&mut self, host: u32) {
        let h = host as usize;
        self.nic_armed[h] = false;
        let list = &mut self.tx[h];
        if list.is_empty() {
            return;
        }
        // Round-robin over the host's flows, skipping those whose window is full.
        let payload_bytes = self.p.link.payload_bytes;
        let start = self.cursor[h] as usize % list.len();
        let Some(i) = (0..list.len())
            .map(|j| (start + j) % list.len())
            .find(|&j| self.flows[list[j] as usize].window_open(payload_bytes))
        else {
            // Every flow waits for ACKs; an ACK re-arms the NIC.
            return;
        };
        let fid = list[i];
        let f = &mut self.flows[fid as usize];
        let seq = match f.retx.pop() {
            Some(seq) => {
                self.c.retransmits += 1;
                seq
            }
            None => {
                if f.next_seq == 0 {
                    f.first_tx_ps = self.now;
                }
                f.next_seq += 1;
                f.next_seq - 1
            }
        };
        f.inflight_bytes += f.payload(seq, payload_bytes);
        f.outstanding.set(seq, true);
        if let (Some(rto), false) = (self.p.rto_ps, f.timer_armed) {
            f.timer_armed = true;
            f.last_progress_ps = self.now;
            self.queue
                .push(self.now + rto, Event::Timeout { flow: fid });
        }
        if !f.has_data() {
            list.remove(i);
            self.cursor[h] = i as u32;
        } else {
            self.cursor[h] = i as u32 + 1;
        }
        let wire = f.payload(seq, payload_bytes) as u32 + self.p.link.header_bytes;
        let (dst, hops) = (f.dst, f.hops);
        let (entropy, up) = self.host_lb.stamp(fid, hops, self.now);
        let pkt = Packet {
            flow: fid,
            seq,
            src: host,
            dst,
            bytes: wire,
            kind: PacketKind::Data,
            trimmed: false,
            entropy,
            up,
            ecn: false,
            sent_ps: self.now as u32,
            conga: CongaTag::default(),
        };
        self.c.created += 1;
        if let Some(stretch) = self.pace {
            // Paced at rho_max: the next data packet waits as if this one took 1/rho longer.
            let ser = crate::engine::serialization_ps(wire, self.p.link.rate_bps);
            self.next_tx[h] = self.now + (ser as f64 * stretch).round() as Time;
        }
        self.transmit(host, pkt, false);
        self.arm_nic(host);
    }
}

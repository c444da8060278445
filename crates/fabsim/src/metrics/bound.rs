//! The run's lower bound on the CCT: closed forms from `theory` applied to the run's flows,
//! fabric and dependencies (permutation, naive NIC bound with ACKs, chains of collective
//! bounds, the flow dependency critical path).

use crate::engine::Time;
use crate::net::Fabric;
use crate::params::SimParams;
use crate::sim::RunOutcome;
use crate::theory::{
    ack_return_ps, arrival_span_ps, flow_time_ps, naive_bound_ps, nic_readings_ps,
    permutation_bound_ps, LinkModel, NicEnds, NicLoad, Wire,
};
use crate::workload::deps::Deps;
use crate::workload::{BoundKind, Collective, FlowSpec, PlaneScheme};

/// The CCT lower bound of the workload: Ofan appendix A for permutations, naive for
/// bipartite traffic, all-to-all and incast; for workloads with dependencies (collectives, FSDP, MoE, htsim)
/// the largest of the chain of collective bounds ([`collective_bound_ps`]), the flow
/// dependency chain ([`critical_path_ps`]), the naive NIC bound and the release-time NIC
/// bound (`release_nic_bound_ps`).
pub fn lower_bound_ps(params: &SimParams, outcome: &RunOutcome) -> Time {
    lower_bounds(params, outcome).0
}

/// [`lower_bound_ps`], and each collective's bound ([`collective_bound_ps`], in order), from
/// one index of the gates.
pub(super) fn lower_bounds(params: &SimParams, outcome: &RunOutcome) -> (Time, Vec<Time>) {
    let o = outcome;
    let (bound, own, _) = workload_bounds(params, &o.fabric, &o.flows, &o.deps, &o.collectives);
    (bound, own)
}

/// The terms of a workload with dependencies' bound, each from the run's first start; the
/// bound is the largest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DependencyTerms {
    /// The longest chain of collective bounds.
    pub collectives: Time,
    /// The flow dependency chain ([`critical_path_ps`]).
    pub chain: Time,
    /// The busiest NIC over the whole run (`nic_bound_ps`).
    pub nic: Time,
    /// The busiest NIC after a release time (`release_nic_bound_ps`).
    pub release: Time,
}

impl DependencyTerms {
    /// The bound: the largest term.
    pub fn bound(&self) -> Time {
        self.collectives
            .max(self.chain)
            .max(self.nic)
            .max(self.release)
    }
}

/// The terms of the bound of `params`' workload ([`DependencyTerms`]) computed from its
/// flows and dependencies alone, without simulating it (the bound depends on nothing else):
/// `None` if the workload is not judged by its dependencies.
pub fn dependency_terms(params: &SimParams) -> Option<DependencyTerms> {
    let p = params;
    let f = Fabric::new(&p.topology, p.link.rate_bps, p.link.delay_ps);
    let t = p.traffic();
    workload_bounds(p, &f, &t.flows, &t.deps, &t.collectives).2
}

/// [`lower_bounds`] of a workload given as its fabric, flows, dependencies and collectives,
/// with the terms of its bound if it is judged by its dependencies.
fn workload_bounds(
    params: &SimParams,
    f: &Fabric,
    flows: &[FlowSpec],
    deps: &Deps,
    collectives: &[Collective],
) -> (Time, Vec<Time>, Option<DependencyTerms>) {
    let link = &params.link;
    let every = params.host.transport.ack_every_bytes;
    // With links above the NICs at other rates appendix A's per-hop terms do not hold, and
    // with planes and a message on one plane each (hash) a permutation of endpoints is not
    // one of NICs (a NIC may send without receiving, and so without ACKs to interleave):
    // each NIC's own load bounds it. Striped, every NIC of plane q sends and receives part
    // q of every message: a permutation in each plane, of parts (the largest bounds).
    let striped = f.planes > 1 && params.host.planes == PlaneScheme::Stripe;
    let kind = match params.workload.bound_kind() {
        BoundKind::Permutation { .. } if !f.port_rate.is_empty() => BoundKind::Nic,
        BoundKind::Permutation { .. } if striped => BoundKind::Permutation {
            message_bytes: flows.iter().map(|fl| fl.bytes).max().unwrap_or(0),
        },
        BoundKind::Permutation { .. } if f.planes > 1 => BoundKind::Nic,
        kind => kind,
    };
    let gates = (kind == BoundKind::Dependencies || !collectives.is_empty())
        .then(|| Gates::new(flows, deps, !striped));
    let own: Vec<Time> = (collectives.iter())
        .map(|c| collective_bound_ps(link, every, f, gates.as_ref().expect("indexed"), c))
        .collect();
    let (bound, terms) = match kind {
        BoundKind::Permutation { message_bytes } => {
            let hops = flows.iter().map(|fl| f.hops(fl.src, fl.dst)).max();
            // Packets of a flow may take different paths where a switch has two uplinks.
            let spray = f.switches.iter().any(|s| s.uplinks() > 1);
            let bound = permutation_bound_ps(link, message_bytes, hops.unwrap_or(2), every, spray);
            (bound, None)
        }
        BoundKind::Nic => (nic_bound_ps(link, every, f, flows), None),
        BoundKind::Dependencies => {
            let gates = gates.as_ref().expect("indexed");
            let terms = dependency_bound(link, every, f, gates, collectives, &own);
            (terms.bound(), Some(terms))
        }
    };
    (bound, own, terms)
}

/// The terms of a workload with dependencies' bound ([`DependencyTerms`]), from its
/// collectives' own bounds `own` (in order).
fn dependency_bound(
    link: &LinkModel,
    every: u32,
    f: &Fabric,
    gates: &Gates,
    collectives: &[Collective],
    own: &[Time],
) -> DependencyTerms {
    // Four lower bounds, the largest wins: the longest chain of collective bounds
    // (collectives come in dependency order: `after` points to earlier ones), the
    // flow-level dependency chain, the busiest NIC over the whole run (which alone sees
    // collectives that overlap share a NIC), and the busiest NIC after each of its flows'
    // earliest starts (which sees both).
    let mut path: Vec<Time> = Vec::with_capacity(collectives.len());
    for (c, own) in collectives.iter().zip(own) {
        let before = c
            .after
            .iter()
            .map(|&a| path[a as usize])
            .max()
            .unwrap_or(Time::ZERO);
        path.push(before + *own);
    }
    let flows = gates.flows;
    let all = 0..flows.len() as u32;
    let mut release = Time::ZERO;
    let chain = critical_path_with(link, every, f, gates, all, true, |start| {
        release = release_nic_bound_ps(link, every, f, flows, start);
    });
    // The CCT runs from the first start: the earliest flow waiting on nothing (the run's
    // origin is the earliest time a flow became ready, never later).
    let first = (flows.iter().zip(&gates.deps.waits))
        .filter(|(_, &w)| w == 0)
        .map(|(fl, _)| fl.start_ps)
        .min()
        .unwrap_or(Time::ZERO);
    DependencyTerms {
        collectives: path.into_iter().max().unwrap_or(Time::ZERO),
        chain: chain.saturating_sub(first),
        nic: nic_bound_ps(link, every, f, flows),
        release: release.saturating_sub(first),
    }
}

/// The dependency chain bound of the flows `subset`: the latest earliest completion (last
/// ACK back) when every flow takes at least [`flow_time_ps`] from its start to its last
/// byte and [`ack_return_ps`] more to its last ACK, and starts when its gates fired (a gate
/// fires at its `need`-th signal; signals of flows outside the subset count as time 0,
/// the subset's start). With `absolute`, flows also respect their own start times. Flows
/// that can never start are ignored.
///
/// The ACK a host owes when a gate releases its flow. If every signal of gate `g` is the
/// receive done of a flow into host `h` (`ack_gates`), the signal that fires `g` (at `A`)
/// is the arrival at `h` of some flow's last data packet, and `h` sends that packet's ACK
/// at once under every ACK policy (per packet, or coalesced: the last packet is always
/// ACKed). A flow `x` of `h` that `g` releases starts at `A + delay` or later, so each of
/// its data packets is handed to the NIC at or after the ACK (the `FlowStart` event comes
/// after the receive that queued the ACK, even at the same instant). The NIC serves an ACK
/// before any data packet handed to it later: a pulling NIC takes data only when its port
/// is free, a FIFO NIC queues it behind. So `x`'s first data bit leaves at `A + T_ack` or
/// later, and `x` starts, for its data, at `max(A + delay, A + T_ack)`.
///
/// The ACKs of the other packets a host receives while it sends (one per data packet in a
/// ring step, 1.5% of a step's NIC time with 64 B ACKs per 4,160 B packet) are charged as in
/// appendix A's permutation bound: in the schedule of perfect load balance, with no
/// queueing anywhere (`ack_charges`). That part is the bound of zero-queueing schedules,
/// not of every schedule (one that delays a flow's data in the fabric could receive it
/// while its NIC idles, paying in latency instead); `tests/bounds.rs` holds every run of
/// every profile, collective and load balancer to it. Striped over planes the charges are
/// left out ([`Gates::new`]): a server's step waits for parts arriving at each of its NICs,
/// so one NIC may idle, receiving and ACKing, while another's part is on its way (a run of
/// `tests/bounds.rs` finished 3 ACKs under the charged chain).
pub fn critical_path_ps(
    link: &LinkModel,
    ack_every_bytes: u32,
    f: &Fabric,
    gates: &Gates,
    subset: std::ops::Range<u32>,
    absolute: bool,
) -> Time {
    critical_path_with(link, ack_every_bytes, f, gates, subset, absolute, |_| {})
}

/// [`critical_path_ps`], handing `plain` the earliest starts of the subset's flows (in subset
/// order, `Time::MAX`: never started) in the schedule without the ACK charges: each flow's
/// first data bit can leave no earlier in any run.
fn critical_path_with(
    link: &LinkModel,
    ack_every_bytes: u32,
    f: &Fabric,
    gates: &Gates,
    subset: std::ops::Range<u32>,
    absolute: bool,
    on_plain: impl FnOnce(&[Time]),
) -> Time {
    let (end, plain) = chain_schedule(link, f, gates, subset.clone(), absolute, &[]);
    on_plain(&plain);
    if !gates.charge_acks {
        return end;
    }
    let extra = ack_charges(
        link,
        ack_every_bytes,
        f,
        gates.flows,
        subset.clone(),
        &plain,
    );
    // The plain schedule is not needed any more: the second one peaks lower without it.
    drop(plain);
    chain_schedule(link, f, gates, subset, absolute, &extra).0
}

/// A workload's flows and gates, indexed once for the dependency-chain bounds of all the
/// subsets a report bounds (each collective, then every flow): a subset's schedule then
/// costs what the subset holds, not what the workload does.
pub struct Gates<'a> {
    flows: &'a [FlowSpec],
    deps: &'a Deps,
    /// Per flow: the gates it waits for.
    waits_on: crate::workload::deps::Csr,
    /// Per gate: the signals it can receive (a flow's send done or receive done).
    signals: Vec<u32>,
    /// Per gate: the host owing an ACK when it fires (`ack_gates`).
    ack_host: Vec<u32>,
    /// Whether the chain charges the ACKs a sender owes ([`critical_path_ps`]).
    charge_acks: bool,
}

impl<'a> Gates<'a> {
    /// The index of `flows` and `deps`; `charge_acks` false for messages striped over
    /// planes ([`critical_path_ps`]).
    pub fn new(flows: &'a [FlowSpec], deps: &'a Deps, charge_acks: bool) -> Self {
        Gates {
            flows,
            deps,
            waits_on: deps.waits_on(),
            signals: deps.signals(),
            ack_host: ack_gates(flows, deps),
            charge_acks,
        }
    }
}

/// [`critical_path_ps`]'s schedule: its end and each flow's start in subset order
/// (`Time::MAX`: never started), each flow taking `extra[i]` (if given, in subset order)
/// longer to send. It touches only the subset's flows and the gates they signal or wait for.
pub(super) fn chain_schedule(
    link: &LinkModel,
    f: &Fabric,
    gates: &Gates,
    subset: std::ops::Range<u32>,
    absolute: bool,
    extra: &[Time],
) -> (Time, Vec<Time>) {
    let (flows, deps) = (gates.flows, gates.deps);
    let inside = |x: u32| subset.contains(&x);
    let local = |x: u32| (x - subset.start) as usize;
    let signalled = |x: u32| deps.send_done.row(x).iter().chain(deps.recv_done.row(x));
    // The gates the subset signals or waits for, by their index in `touched`.
    let gates_of = |x: u32| signalled(x).chain(gates.waits_on.row(x));
    let mut touched: Vec<u32> =
        Vec::with_capacity(subset.clone().map(|x| gates_of(x).count()).sum());
    touched.extend(subset.clone().flat_map(|x| gates_of(x).copied()));
    touched.sort_unstable();
    touched.dedup();
    let at = |g: u32| touched.binary_search(&g).expect("a touched gate");
    let t_ack = link.ack_ser_ps();
    // Per touched gate: the subset's signal times, `times[off[i]..off[i + 1]]`, of which
    // `got[i]` came so far; signals of flows outside the subset count as time 0, the
    // subset's start.
    let mut off = vec![0u32; touched.len() + 1];
    for x in subset.clone() {
        for &g in signalled(x) {
            off[at(g) + 1] += 1;
        }
    }
    for i in 0..touched.len() {
        off[i + 1] += off[i];
    }
    let mut times = vec![Time::ZERO; off[touched.len()] as usize];
    let mut got = vec![0u32; touched.len()];
    let all_in = |i: usize, got: &[u32]| off[i] + got[i] == off[i + 1];
    let mut waits: Vec<u32> = deps.waits[subset.start as usize..subset.end as usize].to_vec();
    let mut start: Vec<Time> = subset
        .clone()
        .map(|x| {
            if absolute {
                flows[x as usize].start_ps
            } else {
                Time::ZERO
            }
        })
        .collect();
    let mut ready: Vec<u32> = subset.clone().filter(|&x| waits[local(x)] == 0).collect();
    let mut end = Time::ZERO;
    // A gate fires at its `need`-th signal; one without enough signals never does.
    let fire = |i: usize,
                times: &mut [Time],
                waits: &mut Vec<u32>,
                start: &mut Vec<Time>,
                ready: &mut Vec<u32>| {
        let g = touched[i];
        // It fires once the subset's signals are all in: the others came at time 0.
        let times = &mut times[off[i] as usize..off[i + 1] as usize];
        let zeros = gates.signals[g as usize] as usize - times.len();
        let need = deps.need[g as usize].max(1) as usize;
        let fired = if need <= zeros {
            Some(Time::ZERO)
        } else {
            times.sort_unstable();
            times.get(need - zeros - 1).copied()
        };
        let Some(fired) = fired else {
            return;
        };
        for &x in deps.targets.row(g).iter().filter(|&&x| inside(x)) {
            let mut delay = deps.delay_ps[g as usize];
            if gates.ack_host[g as usize] == flows[x as usize].src {
                delay = delay.max(t_ack);
            }
            let s = &mut start[local(x)];
            *s = (*s).max(fired + delay);
            waits[local(x)] -= 1;
            if waits[local(x)] == 0 {
                ready.push(x);
            }
        }
    };
    // Gates with no signal from the subset fire at once.
    for i in 0..touched.len() {
        if all_in(i, &got) {
            fire(i, &mut times, &mut waits, &mut start, &mut ready);
        }
    }
    let mut started = vec![Time::MAX; subset.len()];
    while let Some(x) = ready.pop() {
        let fl = &flows[x as usize];
        let hops = f.hops(fl.src, fl.dst);
        let from = start[local(x)];
        started[local(x)] = from;
        let more = extra.get(local(x)).copied().unwrap_or(Time::ZERO);
        let recv = from + flow_time_ps(link, fl.bytes, hops) + more;
        let send = recv + ack_return_ps(link, hops);
        end = end.max(send);
        for (list, t) in [(&deps.send_done, send), (&deps.recv_done, recv)] {
            for &g in list.row(x) {
                let i = at(g);
                times[(off[i] + got[i]) as usize] = t;
                got[i] += 1;
                if all_in(i, &got) {
                    fire(i, &mut times, &mut waits, &mut start, &mut ready);
                }
            }
        }
    }
    (end, started)
}

/// Per flow of `subset`, in subset order: the NIC time of the ACKs its sender owes, in the
/// zero-queueing schedule `start` (in subset order, `Time::MAX`: never started), for the
/// data of the subset's other flows that reaches it while the flow is being sent (each
/// incoming flow's packets arriving evenly between its first and last arrival, its ACKs the
/// fewest its policy can send; rounded down). See [`critical_path_ps`].
pub(super) fn ack_charges(
    link: &LinkModel,
    ack_every_bytes: u32,
    f: &Fabric,
    flows: &[FlowSpec],
    subset: std::ops::Range<u32>,
    start: &[Time],
) -> Vec<Time> {
    // Per host: (first arrival, last arrival, ACKs) of each flow into it.
    let mut into: Vec<Vec<(Time, Time, u64)>> = vec![Vec::new(); f.hosts as usize];
    let local = |x: u32| (x - subset.start) as usize;
    for y in subset.clone() {
        let (fl, at) = (&flows[y as usize], start[local(y)]);
        if at == Time::MAX {
            continue;
        }
        let (first, last) = arrival_span_ps(link, fl.bytes, f.hops(fl.src, fl.dst));
        let acks = link.min_acks(fl.bytes, ack_every_bytes);
        into[fl.dst as usize].push((at + first, at + last, acks));
    }
    // Sorted by first arrival, with the latest last arrival up to each: a flow's window
    // [from, to) meets the arrivals that start before `to`, back to the first whose
    // running latest end falls before `from`.
    let reach: Vec<Vec<Time>> = into
        .iter_mut()
        .map(|v| {
            v.sort_unstable();
            v.iter()
                .scan(Time::ZERO, |m, &(_, last, _)| {
                    *m = (*m).max(last);
                    Some(*m)
                })
                .collect()
        })
        .collect();
    let t_ack = link.ack_ser_ps();
    let mut extra = vec![Time::ZERO; subset.len()];
    for x in subset.clone() {
        let (fl, from) = (&flows[x as usize], start[local(x)]);
        if from == Time::MAX {
            continue;
        }
        let to = from + link.serialization_ps(fl.bytes);
        let (arrivals, reach) = (&into[fl.src as usize], &reach[fl.src as usize]);
        let before = arrivals.partition_point(|&(first, _, _)| first < to);
        let after = reach[..before].partition_point(|&m| m < from);
        let mut acks = 0u64;
        for &(first, last, n) in &arrivals[after..before] {
            let (lo, hi) = (first.max(from), last.min(to));
            if last == first {
                acks += u64::from(first >= from && first < to) * n;
            } else if hi > lo {
                let share = (hi - lo).as_ps_f64() / (last - first).as_ps_f64();
                acks += (n as f64 * share).floor() as u64;
            }
        }
        extra[local(x)] = acks * t_ack;
    }
    extra
}

/// Per gate: the host `h` if every signal of the gate is the receive done of a flow into
/// `h` (and it needs one at least), else `u32::MAX` (no host). See [`critical_path_ps`].
pub(super) fn ack_gates(flows: &[FlowSpec], deps: &Deps) -> Vec<u32> {
    const UNSET: u32 = u32::MAX - 1;
    let mut host: Vec<u32> = deps
        .need
        .iter()
        .map(|&n| if n == 0 { u32::MAX } else { UNSET })
        .collect();
    for (fl, spec) in flows.iter().enumerate() {
        for &g in deps.send_done.row(fl as u32) {
            host[g as usize] = u32::MAX;
        }
        for &g in deps.recv_done.row(fl as u32) {
            let h = &mut host[g as usize];
            if *h == UNSET {
                *h = spec.dst;
            } else if *h != spec.dst {
                *h = u32::MAX;
            }
        }
    }
    for h in &mut host {
        if *h == UNSET {
            *h = u32::MAX;
        }
    }
    host
}

/// Naive bound: the busiest NIC sends its data and the ACKs it owes (or receives the data
/// sent to it and the ACKs of its own data), with a first or last packet crossing the
/// shortest path ([`naive_bound_ps`]). ACKs are counted as the fewest the policy can send
/// ([`LinkModel::min_acks`]: one per packet, or with `ack_every_bytes` coalescing).
pub(super) fn nic_bound_ps(
    link: &LinkModel,
    ack_every_bytes: u32,
    f: &Fabric,
    flows: &[FlowSpec],
) -> Time {
    if flows.is_empty() {
        return Time::ZERO;
    }
    let mut load = vec![NicLoad::default(); f.hosts as usize];
    let mut min_data = u32::MAX;
    for fl in flows {
        let (wire, acks) = wire_bytes(link, ack_every_bytes, fl);
        let src = &mut load[fl.src as usize];
        src.out_data += wire;
        src.into_acks += acks;
        let dst = &mut load[fl.dst as usize];
        dst.into_data += wire;
        dst.out_acks += acks;
        min_data = min_data.min(link.last_packet_bytes(fl.bytes));
    }
    let min_hops = flows
        .iter()
        .map(|fl| f.hops(fl.src, fl.dst))
        .min()
        .unwrap_or(2);
    load.into_iter()
        .map(|l| naive_bound_ps(link, l, min_data, min_hops))
        .max()
        .unwrap_or(Time::ZERO)
}

/// A flow's wire bytes and packets: its data packets (headers included), and the fewest ACKs its
/// receiver can send ([`LinkModel::min_acks`]). Closed forms over the flow's packets (a
/// Fastroute run schedules flows for far longer than it simulates: a loop over every packet
/// cost a fifth of a slice).
fn wire_bytes(link: &LinkModel, ack_every_bytes: u32, fl: &FlowSpec) -> (Wire, Wire) {
    let n = link.packets(fl.bytes);
    let acks = link.min_acks(fl.bytes, ack_every_bytes);
    (
        Wire {
            bytes: fl.bytes + n * link.header_bytes as u64,
            packets: n,
        },
        Wire {
            bytes: acks * link.ack_bytes as u64,
            packets: acks,
        },
    )
}

/// The release-time NIC bound: the latest end of [`nic_readings_ps`] over every host `h` and
/// every time `T` among the earliest starts of `h`'s flows, counting from `T` what `h`'s
/// NIC and link in must still carry. `start` holds each flow's earliest start, absolute
/// (`Time::MAX`: never started); so is the result.
///
/// Validity. A flow `x` puts no data bit on its sender's NIC before `start[x]`: the plain
/// schedule of [`critical_path_ps`] starts it when its gates can first fire, each flow
/// taking its least [`flow_time_ps`] and the ACK a gate's host owes going first, which holds
/// under every profile, controller, load balancer and ACK policy. Its receiver ACKs only
/// data that arrived, so after `start[x]` too. Of the flows of `h` (in or out) with
/// `start[x] >= T`, then, every data packet out of `h` and every ACK `h` owes for the data
/// into it (the fewest its policy sends) leaves `h`'s NIC after `T`, and every data packet
/// into `h` and ACK of `h`'s own data is created after `T`: that load is
/// [`naive_bound_ps`]'s, from `T` on, and its four readings hold with the shortest ends of
/// those flows (each flow's own path and smallest packet). At `h`'s earliest `T` this is
/// the naive bound with each host's own paths; at a later `T` the bytes before `T` are
/// traded for the chain's latency up to it: a host running two rings at once must still
/// send both rings' last steps after the steps that feed them, which neither the chain
/// (one flow per NIC) nor the whole-run NIC bound (no latency between steps) sees. Beyond
/// the plain schedule's starts nothing here assumes zero queueing.
///
/// Cost: two entries per flow, sorted by host and start, then one sweep per host, latest
/// start first.
pub(super) fn release_nic_bound_ps(
    link: &LinkModel,
    ack_every_bytes: u32,
    f: &Fabric,
    flows: &[FlowSpec],
    start: &[Time],
) -> Time {
    // (host, earliest start, flow << 1 | whether the host is the flow's receiver).
    let mut at: Vec<(u32, Time, u32)> = Vec::with_capacity(2 * flows.len());
    for (x, (fl, &s)) in flows.iter().zip(start).enumerate() {
        if s != Time::MAX {
            at.push((fl.src, s, (x as u32) << 1));
            at.push((fl.dst, s, (x as u32) << 1 | 1));
        }
    }
    at.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
    let ack = link.ack_bytes;
    let mut best = Time::ZERO;
    for host in at.chunk_by(|a, b| a.0 == b.0) {
        let (mut load, mut ends) = (NicLoad::default(), NicEnds::NONE);
        for same in host.chunk_by(|a, b| a.1 == b.1) {
            for &(_, _, e) in same {
                let fl = &flows[(e >> 1) as usize];
                let hops = f.hops(fl.src, fl.dst);
                let (wire, acks) = wire_bytes(link, ack_every_bytes, fl);
                let smallest = link.last_packet_bytes(fl.bytes);
                let before = |bytes| link.latency_after_send(bytes, hops) - link.delay_ps;
                let back = ack_return_ps(link, hops);
                ends = ends.min(if e & 1 == 0 {
                    // `h` sends the data and receives its ACKs.
                    load.out_data += wire;
                    load.into_acks += acks;
                    NicEnds {
                        data_last: link.latency_after_send(smallest, hops) + back,
                        before: before(ack),
                        ..NicEnds::NONE
                    }
                } else {
                    // `h` receives the data and sends its ACKs.
                    load.into_data += wire;
                    load.out_acks += acks;
                    NicEnds {
                        ack_last: link.latency_after_send(ack, hops),
                        before: before(smallest),
                        ack_back: back,
                        ..NicEnds::NONE
                    }
                });
            }
            best = best.max(same[0].1 + nic_readings_ps(link, load, ends));
        }
    }
    best
}

/// A collective's CCT lower bound, from its first packet: the larger of the naive NIC bound
/// of its flows and its dependency chain ([`critical_path_ps`]: a ring step waits for the
/// data of the previous one, so N-1 steps each cost at least a shard's serialization and
/// one path).
pub fn collective_bound_ps(
    link: &LinkModel,
    ack_every_bytes: u32,
    f: &Fabric,
    gates: &Gates,
    c: &Collective,
) -> Time {
    let all = c.flows();
    let chain = critical_path_ps(link, ack_every_bytes, f, gates, all.clone(), false);
    chain.max(nic_bound_ps(
        link,
        ack_every_bytes,
        f,
        &gates.flows[all.start as usize..all.end as usize],
    ))
}

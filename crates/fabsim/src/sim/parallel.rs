//! The partitioned engine: a run's fabric cut into partitions, each simulated by its own
//! thread, in windows, with an output that does not depend on how many there are.
//!
//! - **Partitions.** Every tier's switches are cut into `run.threads` contiguous groups (a
//!   fat tree's pods stay whole, a leaf-spine's leaves and spines are shared out), and a
//!   host goes with its edge switch. Everything an event touches then belongs to one
//!   partition: a flow's sender to its source host, its receiver to its destination,
//!   a switch's scheme state (Ofan's pointers, CONGA's tables) and its random draws to the
//!   switch. Each partition holds the whole run's state (indices stay global) and touches
//!   only its own part; the parts are put together when the run ends ([`Sim::absorb`]).
//! - **Windows.** A packet put on a link that crosses partitions arrives no sooner than a
//!   link delay after it left: within a window of one link delay, starting at the earliest
//!   pending event, no partition can affect another (conservative synchronization). Each
//!   partition runs its window's events on a thread of its own that lives for the whole run
//!   (the caller's runs partition 0; they meet at barriers that spin briefly, then sleep:
//!   `Crew`, [`barrier::Barrier`]); then the packets whose last bit left a crossing link in
//!   the window move to the far partition's ring of that link ([`Sim::ship`],
//!   [`Sim::receive`]), keeping their numbers. So do the entries
//!   of a receiver's ACK log (coalesced ACKs carry the log's length; the sender reads the
//!   entries), which reach the sender's copy before any ACK that covers them.
//! - **Ties.** Events of one picosecond run in the order of keys their scheduling port or
//!   host gave them ([`super::Tickets`]): the same in every partition. So the run is the same
//!   event by event for 1, 2 or n threads, and its output is byte-identical.
//! - **Global events.** Fastroute's controller and the trace's samples touch every switch
//!   or port: they end a window and run between windows, before any event of their
//!   picosecond. PAUSEs the controller sends reach the upstream port's partition there.
//! - **The watchdog** looks at the events of all partitions at each window's end.
//!
//! One partition (the same code, on the calling thread) is used where a run's parts are
//! not independent within a window: a traced run (samples read every port), flows gated on
//! others (a gate may start a flow at another host at once), the combining pipeline (its
//! counts are one pipeline's), HPCC (its senders read the stamps switches wrote); and links whose delay, the window, is shorter than a full
//! packet's serialization (zero included): a window would hold less than one packet per
//! port, and synchronizing the partitions every window costs more than they gain.

use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::atomic::Ordering::{Acquire, Release};
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::{Mutex, MutexGuard, PoisonError};

use super::host::SENDER_DONE;
use super::multi_asic::Chassis;
use super::RunOutcome;
use super::{Event, Sim, WATCHDOG_EVENTS};
use crate::engine::{EventQueue, Time};
use crate::net::{Fabric, Tier};
use crate::params::SimParams;
use crate::workload::Traffic;
use barrier::Barrier;
pub(super) use post::Post;
use post::{exchange, Mail};

mod barrier;
mod post;

/// How many partitions a run is cut into: `run.threads`, or one where its parts are not
/// independent within a window or its windows are too short to pay off (see the module's
/// notes), and no more than edge switches; and how long the barriers' waiters spin: longer
/// where each partition has a core of its own (the free cores are read once per run, and
/// only where it may take several).
fn partitions(p: &SimParams, fabric: &Fabric, traffic: &Traffic, traced: bool) -> (usize, u32) {
    let free = (p.run.threads > 1).then(free_cores);
    let mut want = p.run.threads.max(1) as usize;
    if let Some(free) = free.filter(|_| p.run.share_cores) {
        want = want.min(free);
    }
    let parts = cut(p, fabric, traffic, traced, want);
    let spins = if free.is_none_or(|f| f >= parts) {
        barrier::LONG_SPIN
    } else {
        barrier::SHORT_SPIN
    };
    (parts, spins)
}

/// [`partitions`]' count for `want` partitions.
fn cut(p: &SimParams, fabric: &Fabric, traffic: &Traffic, traced: bool, want: usize) -> usize {
    let gated = traffic.deps.gated();
    let int = p.host.transport.cc.kind == crate::transport::CcKind::Hpcc;
    if want == 1 || traced || gated || int || p.switch.combining.is_some() || short_windows(p) {
        return 1;
    }
    let edges = fabric
        .switches
        .iter()
        .filter(|s| s.tier == Tier::Edge)
        .count();
    want.min(edges).max(1)
}

/// `run.share_cores`: the cores this process may use that no other running task holds now
/// (at least 1). Partitions meet at every window's end, so one that waits for a core holds
/// the others back: on 2 cores with one other busy process, 2 partitions took 1.1-2x the wall
/// time of 1 (7 Dec 2026). Linux counts the running tasks in /proc/loadavg's fourth field
/// (`running/total`, this thread included); elsewhere every core counts as free.
fn free_cores() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let running = std::fs::read_to_string("/proc/loadavg").ok().and_then(|l| {
        let field = l.split_whitespace().nth(3)?;
        field.split('/').next()?.parse::<usize>().ok()
    });
    match running {
        Some(r) => cores.saturating_sub(r.saturating_sub(1)).max(1),
        None => cores,
    }
}

/// Whether a window (one link delay) is shorter than a full packet's serialization: then a
/// port sends less than one packet per window, every window costs a synchronization of all
/// partitions for a few events each, and the run is slower on several threads than on one
/// (k = 8 at 1 ps: 10 s against 0.2 s at 500 ns). Zero-delay links are the extreme case.
fn short_windows(p: &SimParams) -> bool {
    let l = &p.link;
    l.delay_ps < Time::serialization(l.payload_bytes + l.header_bytes, l.rate_bps)
}

/// Per node (hosts, then switches as `hosts + index`): its partition. The `i`-th of a
/// tier's `n` switches goes to partition `i * parts / n`; a host to its edge switch's.
fn owners(fabric: &Fabric, parts: usize) -> Vec<u16> {
    let hosts = fabric.hosts as usize;
    let mut owner = vec![0u16; hosts + fabric.switches.len()];
    for tier in [Tier::Edge, Tier::Agg, Tier::Core] {
        let of_tier: Vec<usize> = (0..fabric.switches.len())
            .filter(|&s| fabric.switches[s].tier == tier)
            .collect();
        for (i, &s) in of_tier.iter().enumerate() {
            owner[hosts + s] = (i * parts / of_tier.len()) as u16;
        }
    }
    for h in 0..hosts {
        // A host's NIC leads to its edge switch.
        owner[h] = owner[fabric.port_to_node[h] as usize];
    }
    owner
}

/// Why the window loop ended.
enum End {
    /// No event is left.
    Drained,
    /// The next event is after the stop time.
    Stopped,
    /// The watchdog or a cancel stopped the run.
    Stalled(String),
}

/// Runs one simulation on `run.threads` partitions; `make` builds a partition's switches.
pub(super) fn simulate_with<A: Chassis + Send>(
    p: &SimParams,
    fabric: Fabric,
    make: impl Fn(&Fabric) -> A + Sync,
    trace: Option<Time>,
    cancel: Option<&AtomicBool>,
) -> RunOutcome {
    let traffic = p.traffic();
    // A flow of 0 bytes never completes (its empty packet's ACK acknowledges no new byte):
    // the scenario refuses workloads that make one; a caller that builds its own must not.
    if let Some(i) = traffic.flows.iter().position(|f| f.bytes == 0) {
        let f = &traffic.flows[i];
        panic!(
            "{} workload: flow {i} (host {} -> {}) has 0 bytes and would never complete; every flow needs at least one byte (WorkloadSpec::min_flow_bytes gives the smallest message that splits into such flows)",
            p.workload.kind_name(),
            f.src,
            f.dst
        );
    }
    let (parts, spins) = partitions(p, &fabric, &traffic, trace.is_some());
    let owner = owners(&fabric, parts);
    // Each partition builds its own state (its flows' senders and receivers are most of
    // it) on its own thread.
    let sims: Vec<Sim<A>> = std::thread::scope(|scope| {
        let (owner, traffic, make) = (&owner, &traffic, &make);
        let rest: Vec<_> = (1..parts)
            .map(|me| {
                let f = fabric.clone(); // A copy: analysing the graph again is the same work.
                scope.spawn(move || {
                    let asic = make(&f);
                    Sim::new(p, f, asic, traffic, owner, me as u16, parts, trace)
                })
            })
            .collect();
        let asic = make(&fabric);
        let mut sims = vec![Sim::new(p, fabric, asic, traffic, owner, 0, parts, trace)];
        sims.extend(
            rest.into_iter()
                .map(|h| h.join().expect("a partition's build")),
        );
        sims
    });
    let (end, mut sims) = run_windows(p, sims, &owner, trace, cancel, spins);
    for s in &mut sims {
        // Packets shipped before the run stopped are still in flight.
        s.receive();
        s.settle();
        // The marks of packets that left before the run ended (none once events drained).
        let ended = match end {
            End::Stopped => p.run.stop_ps.expect("a stopped run has a stop time"),
            _ => s.now,
        };
        s.settle_all_marks(ended);
    }
    let mut sims = sims.into_iter();
    let mut sim = sims.next().expect("one partition at least");
    for other in sims {
        sim.absorb(other);
    }
    let stalled = match end {
        End::Drained => sim.unfinished(),
        End::Stopped => None,
        End::Stalled(why) => Some(why),
    };
    let mut outcome = sim.into_outcome(stalled);
    outcome.flows = traffic.flows;
    outcome.collectives = traffic.collectives;
    outcome.deps = traffic.deps;
    outcome
}

/// Runs the partitions to the end: partition 0's window on this thread, each other's on a
/// worker thread of its own for the whole run (`Crew`); returns why the loop ended and the
/// partitions.
fn run_windows<'a, A: Chassis + Send>(
    p: &SimParams,
    sims: Vec<Sim<'a, A>>,
    owner: &[u16],
    trace: Option<Time>,
    cancel: Option<&AtomicBool>,
    spins: u32,
) -> (End, Vec<Sim<'a, A>>) {
    let parties = sims.len();
    let crew = Crew {
        cells: sims.into_iter().map(Mutex::new).collect(),
        start: Barrier::new(parties, spins),
        end: Barrier::new(parties, spins),
        until: AtomicU64::new(0),
        quit: AtomicBool::new(false),
        why: Mutex::new(None),
        panic: Mutex::new(None),
        cancel,
    };
    let end = std::thread::scope(|scope| {
        for i in 1..crew.cells.len() {
            let crew = &crew;
            scope.spawn(move || crew.work(i));
        }
        // However the loop ends (a panic included), the workers are let go.
        let _let_go = LetGo(&crew);
        windows(p, &crew, owner, trace)
    });
    let sims = crew
        .cells
        .into_iter()
        .map(|c| c.into_inner().unwrap_or_else(PoisonError::into_inner))
        .collect();
    (end, sims)
}

/// The window loop: global events at their time, partitions' events in windows of one
/// link delay (on a thread each), packets shipped between them.
fn windows<A: Chassis + Send>(
    p: &SimParams,
    crew: &Crew<'_, '_, A>,
    owner: &[u16],
    trace: Option<Time>,
) -> End {
    let stop = p.run.stop_ps.unwrap_or(Time::MAX);
    // Without a link delay only one partition runs, and the window only paces the watchdog.
    let window = if p.link.delay_ps > Time::ZERO {
        p.link.delay_ps
    } else {
        Time::from_ps(1_000_000)
    };
    let circuit = p.arch.circuit.as_ref();
    let (mut control_at, mut apply_at) = (circuit.map(|c| c.interval_ps), None::<Time>);
    let mut sample_at = trace;
    let flows = crew.lock(0).flows.len() as u64;
    let mut events_at_progress = 0;
    let mut pauses = Vec::new();
    loop {
        let mut guards = crew.lock_all();
        let sims = &mut guards[..];
        // The next thing to happen: an event, a packet shipped to a partition, or a packet
        // still leaving a crossing link (no event marks its departure: without this, a run
        // whose last packet is on such a link when every queue is empty would end there).
        let next = sims
            .iter_mut()
            .map(|s| {
                let waiting = s.post.inbox_first.min(s.post.next_ship);
                s.queue.peek().map_or(waiting, |e| e.0.min(waiting))
            })
            .filter(|&t| t < Time::MAX)
            .min();
        // Fastroute's controller: before every other event of its picosecond; applying
        // before computing when both fall on one.
        let global = apply_at.into_iter().chain(control_at).min();
        if let Some(g) = global.filter(|&g| next.is_none_or(|n| g <= n)) {
            if g > stop {
                return End::Stopped;
            }
            let c = circuit.expect("only Fastroute's controller is scheduled");
            for s in sims.iter_mut() {
                s.now = g;
            }
            sims[0].c.events += 1;
            if apply_at == Some(g) {
                apply_at = None;
                for s in sims.iter_mut() {
                    s.apply(&mut pauses);
                }
                for (feeder, resume) in pauses.drain(..) {
                    let s = &mut sims[owner[sims[0].wire[feeder as usize].from as usize] as usize];
                    // The marks decided before the port's backlog jumps.
                    s.settle_marks(feeder);
                    let b = &mut s.ports.stats[feeder as usize].busy_until;
                    *b = (*b).max(resume.saturating_sub(p.link.delay_ps));
                }
            } else {
                control_at = None;
                let mut any = false;
                for s in sims.iter_mut() {
                    any |= s.control();
                }
                if any {
                    apply_at = Some(g + c.compute_delay_ps);
                }
                // The controller runs while traffic may still come: not after the last flow
                // ended (timers still pending then would keep it reconfiguring an idle
                // switch).
                let completed: u64 = sims.iter().map(|s| s.completed).sum();
                let pending = apply_at.is_some()
                    || sims
                        .iter()
                        .any(|s| !s.queue.is_empty() || s.post.inbox_first < Time::MAX);
                if completed < flows && pending {
                    control_at = Some(g + c.interval_ps);
                }
            }
            continue;
        }
        let Some(t) = next else {
            return End::Drained;
        };
        if let Some(at) = sample_at.filter(|&at| at <= t) {
            // A sample changes nothing: not an event, and none once nothing else is left.
            sims[0].sample(at);
            if let Some(why) = sims[0].trace_full() {
                return End::Stalled(why);
            }
            sample_at = Some(at + trace.expect("sampling"));
            continue;
        }
        if t > stop {
            return End::Stopped;
        }
        let shipping = sims.iter().map(|s| s.post.next_ship).min();
        let until = [Some(t + window), global, sample_at, shipping]
            .into_iter()
            .flatten()
            .min()
            .expect("a window end");
        drop(guards);
        let cancelled = crew.window(until);
        let mut guards = crew.lock_all();
        let sims = &mut guards[..];
        deliver(sims);
        if let Some(why) = cancelled {
            return End::Stalled(why);
        }
        let events: u64 = sims.iter().map(|s| s.c.events).sum();
        let progressed = sims
            .iter_mut()
            .fold(false, |any, s| std::mem::take(&mut s.progressed) | any);
        if progressed {
            events_at_progress = events;
        }
        if events - events_at_progress > WATCHDOG_EVENTS {
            return End::Stalled(stall(sims, flows));
        }
    }
}

/// One partition's window: what others shipped to it, its events before `until`, then what
/// it ships; `Some(why)` if `cancel` was set.
fn step<A: Chassis>(
    s: &mut Sim<'_, A>,
    until: Time,
    cancel: Option<&AtomicBool>,
) -> Option<String> {
    s.receive();
    let r = s.run_window(until, cancel);
    s.ship(until);
    r
}

/// The partitions and the threads that run them: worker `i` runs partition `i`'s windows
/// (`i >= 1`), between the two barriers of each window, while the caller runs partition 0's;
/// between windows the caller alone touches the partitions.
struct Crew<'c, 'a, A: Chassis> {
    cells: Vec<Mutex<Sim<'a, A>>>,
    start: Barrier,
    end: Barrier,
    /// The window's end, in ps.
    until: AtomicU64,
    quit: AtomicBool,
    /// A worker's partition was cancelled, or panicked (passed on to the caller).
    why: Mutex<Option<String>>,
    panic: Mutex<Option<Box<dyn std::any::Any + Send>>>,
    cancel: Option<&'c AtomicBool>,
}

impl<'a, A: Chassis + Send> Crew<'_, 'a, A> {
    fn lock(&self, i: usize) -> MutexGuard<'_, Sim<'a, A>> {
        self.cells[i].lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn lock_all(&self) -> Vec<MutexGuard<'_, Sim<'a, A>>> {
        (0..self.cells.len()).map(|i| self.lock(i)).collect()
    }

    /// A worker: partition `i`'s windows, until the caller lets it go.
    fn work(&self, i: usize) {
        loop {
            self.start.wait();
            if self.quit.load(Acquire) {
                return;
            }
            let until = Time::from_ps(self.until.load(Acquire));
            let r = catch_unwind(AssertUnwindSafe(|| {
                step(&mut self.lock(i), until, self.cancel)
            }));
            match r {
                Ok(Some(why)) => {
                    self.why
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .get_or_insert(why);
                }
                Ok(None) => {}
                Err(p) => *self.panic.lock().unwrap_or_else(PoisonError::into_inner) = Some(p),
            }
            self.end.wait();
        }
    }

    /// Every partition runs its window before `until`; `Some(why)` if one was cancelled. A
    /// panic in any partition is raised here, once every worker is back.
    fn window(&self, until: Time) -> Option<String> {
        self.until.store(until.ps(), Release);
        self.start.wait();
        let own = catch_unwind(AssertUnwindSafe(|| {
            step(&mut self.lock(0), until, self.cancel)
        }));
        self.end.wait();
        if let Some(p) = self
            .panic
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
        {
            resume_unwind(p);
        }
        let own = own.unwrap_or_else(|p| resume_unwind(p));
        own.or_else(|| {
            self.why
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .take()
        })
    }
}

/// Lets the workers go when the window loop ends, however it ends.
struct LetGo<'r, 'c, 'a, A: Chassis + Send>(&'r Crew<'c, 'a, A>);

impl<A: Chassis + Send> Drop for LetGo<'_, '_, '_, A> {
    fn drop(&mut self) {
        self.0.quit.store(true, Release);
        self.0.start.wait();
    }
}

/// What each partition shipped becomes its destination's inbox, received at the start of its
/// next window on its own thread.
fn deliver<A: Chassis>(sims: &mut [MutexGuard<'_, Sim<'_, A>>]) {
    for from in 0..sims.len() {
        for to in 0..sims.len() {
            if from == to {
                // (Nothing is shipped to oneself: its buffers stay as they are.)
                continue;
            }
            let (a, b) = if from < to {
                let (lo, hi) = sims.split_at_mut(to);
                (&mut lo[from], &mut hi[0])
            } else {
                let (lo, hi) = sims.split_at_mut(from);
                (&mut hi[0], &mut lo[to])
            };
            exchange(&mut a.post, &mut b.post, from, to);
        }
    }
}

/// The watchdog's diagnosis, over all partitions.
#[cold]
fn stall<A: Chassis>(sims: &[MutexGuard<'_, Sim<'_, A>>], flows: u64) -> String {
    let sum = |f: fn(&Sim<A>) -> u64| sims.iter().map(|s| f(s)).sum::<u64>();
    let now = sims.iter().map(|s| s.now).max().unwrap_or(Time::ZERO);
    let deadlock = sims[0].pfc_deadlock(sims.iter().map(|s| &**s));
    format!(
        "{}no progress: {WATCHDOG_EVENTS} events without new data acknowledged, stopped at {} us with {} of {flows} flows done ({} timeouts, {} retransmits, {} drops)",
        deadlock.map_or(String::new(), |d| d + "; "),
        now.as_us_f64(),
        sum(|s| s.completed),
        sum(|s| s.c.timeouts),
        sum(|s| s.c.retransmits),
        sum(|s| s.c.dropped),
    )
}

impl<A: Chassis> Sim<'_, A> {
    /// Moves the packets of this partition's crossing links whose last bit left before
    /// `until` to the far partition's outbox (they arrive a link delay later, in a later
    /// window). Until then they are part of the port's queue, as on any port. Notes when the
    /// first packet left to ship arrives (`next_ship`): a packet may leave between windows,
    /// when no event runs, so the next window must end by then.
    pub(super) fn ship(&mut self, until: Time) {
        let delay = self.ports.delay_ps();
        self.post.next_ship = Time::MAX;
        let mut i = 0;
        while i < self.post.outgoing.len() {
            let port = self.post.outgoing[i];
            let to = self.owner[self.fabric.port_to_node[port as usize] as usize] as usize;
            while let Some(&(arrive, _, _)) = self.wire[port as usize].slots.front() {
                if arrive - delay >= until {
                    break;
                }
                debug_assert!(
                    arrive >= until,
                    "a packet left a crossing link before the window"
                );
                // Its mark may be decided only now.
                self.head_leaves(port);
                let ring = &mut self.wire[port as usize];
                let (_, low, pkt) = ring.slots.pop_front().expect("the head");
                let ticket = ring.ticket(low);
                ring.flying_until = arrive;
                self.post.ship(
                    to,
                    Mail {
                        port,
                        ticket,
                        arrive,
                        pkt,
                    },
                );
            }
            match self.wire[port as usize].slots.front() {
                None => {
                    self.post.outgoing.swap_remove(i);
                }
                Some(&(arrive, _, _)) => {
                    self.post.next_ship = self.post.next_ship.min(arrive);
                    i += 1;
                }
            }
        }
    }

    /// Takes in what other partitions shipped to this one in the last window: packets join
    /// this partition's ring of their port, ACK log entries the senders' copies of the logs.
    pub(super) fn receive(&mut self) {
        for from in 0..self.post.inbox.len() {
            let mut mail = std::mem::take(&mut self.post.inbox[from]);
            for m in mail.drain(..) {
                let key = self.tickets.port(m.ticket, m.port);
                let ring = &mut self.wire[m.port as usize];
                if ring.slots.is_empty() {
                    self.queue
                        .push_ticketed(m.arrive, key, Event::Arrive { port: m.port });
                }
                ring.note_push(m.ticket);
                ring.slots.push_back((m.arrive, m.ticket as u32, m.pkt));
            }
            self.post.inbox[from] = mail;
            let mut logs = std::mem::take(&mut self.post.log_in[from]);
            for (flow, seq) in logs.drain(..) {
                if seq == SENDER_DONE {
                    self.flows.release(flow, false);
                } else if let Some(f) = self.flows.get_mut(flow) {
                    // (A sender done meanwhile needs no more entries.)
                    f.acks.receive(seq);
                }
            }
            self.post.log_in[from] = logs;
        }
        self.post.inbox_first = Time::MAX;
    }

    /// Takes in what partition `o` simulated: its senders, its ports' statistics, its
    /// counters, the packets in its rings and its switches' counts.
    pub(super) fn absorb(&mut self, o: Self) {
        let owner = self.owner;
        for (id, (mine, theirs)) in self
            .flows
            .records
            .iter_mut()
            .zip(&o.flows.records)
            .enumerate()
        {
            if owner[self.ends[id][0] as usize] == o.me {
                *mine = *theirs;
            }
        }
        for (g, stats) in o.ports.stats.iter().enumerate() {
            if owner[self.wire[g].from as usize] == o.me {
                self.ports.stats[g] = *stats;
            }
        }
        for (mine, mut theirs) in self.wire.iter_mut().zip(o.wire) {
            mine.slots.append(&mut theirs.slots);
        }
        if let (Some(mine), Some(theirs)) = (self.pfc.as_mut(), o.pfc) {
            let hosts = self.fabric.hosts as usize;
            let wire = &self.wire;
            mine.absorb(
                *theirs,
                |g| owner[wire[g].from as usize] == o.me,
                |sw| owner[hosts + sw as usize] == o.me,
            );
        }
        self.c.absorb(&o.c);
        self.completed += o.completed;
        self.now = self.now.max(o.now);
        A::absorb(&mut self.asic, o.asic);
    }
}

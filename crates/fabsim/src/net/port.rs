//! Egress ports: a FIFO with a byte buffer, a serializer at link rate, and a wire.
//!
//! A FIFO port with a fixed-rate serializer is fully described by the time its serializer
//! becomes free (`busy_until`): a packet enqueued at `now` starts at `max(now, busy_until)`
//! and its last bit reaches the far end `serialization + delay` after that. The simulator
//! therefore schedules the packet's arrival at the next node at enqueue time, and a packet
//! crossing a link costs exactly one event. The backlog (bytes not yet on the wire,
//! including the untransmitted part of the packet in service) is `busy_until - now` worth of
//! link time, so drops, JSQ/AR decisions and queue statistics need no per-packet queue.
//!
//! The queue statistics integrate the backlog exactly: between two enqueues it drains
//! linearly at link rate.

use crate::engine::{Time, BIT_PS_PER_BYTE_S};

/// Per-port state and counters for reports: one cache line per port, so a hop touches one
/// line of port state (at 10^5 ports and more these are cache misses, not hits). The
/// simulator's other line per port is its wire ring (`sim/wire.rs`).
#[derive(Clone, Copy, Debug, Default)]
#[repr(align(64))]
pub struct PortStats {
    /// When the serializer is free: all the FIFO's state.
    pub busy_until: Time,
    /// Largest backlog, in ps of link time, seen just after an enqueue.
    pub max_backlog_ps: Time,
    /// Integral of the backlog (ps of link time) over time (ps), up to `last_ps`.
    pub backlog_integral: u128,
    /// Total serialization time (busy time) in ps.
    pub busy_ps: Time,
    pub last_ps: Time,
    /// `switch.ecn_at = "dequeue"`: the marks the port still has to decide. Kept here, on
    /// the line an enqueue touches anyway, rather than in an array of their own.
    pub(crate) marks: PendingMarks,
}

/// `switch.ecn_at = "dequeue"`: a port's last `undecided` data packets (FIFO among
/// themselves; the first of them is its wire ring's slot `next`, whose last bit leaves at
/// `leaves`) still wait for their marks. The simulator's egress keeps them; `leaves` is
/// here so that a port with nothing to decide yet is told without reading its ring (whose
/// slot `next` was written long ago: a cache miss).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct PendingMarks {
    pub(crate) next: u32,
    pub(crate) undecided: u32,
    pub(crate) leaves: Time,
}

impl PortStats {
    /// Integrates the backlog up to `now`: it drained linearly since `last_ps`.
    #[inline]
    fn advance(&mut self, now: Time) {
        debug_assert!(now >= self.last_ps, "time went backwards at a port");
        let busy = self.busy_until.saturating_sub(self.last_ps);
        self.backlog_integral += drained_area(busy, now - self.last_ps);
        self.last_ps = now;
    }
}

/// A port's backlog: link time at the port's rate. Read as bytes ([`Backlog::bytes`], a
/// 128-bit division), or compared with a byte count exactly without one
/// ([`Backlog::at_least`]): the hot path only compares, except on an ECN ramp.
#[derive(Clone, Copy, Debug)]
pub struct Backlog {
    pub ps: Time,
    rate_bps: u64,
}

impl Backlog {
    pub fn new(ps: Time, rate_bps: u64) -> Self {
        Backlog { ps, rate_bps }
    }

    /// Its bytes, rounded down: `ps.bytes_at(rate)`.
    #[inline]
    pub fn bytes(self) -> u64 {
        self.ps.bytes_at(self.rate_bps)
    }

    /// Whether [`Backlog::bytes`] is at least `n`: `floor(ps * rate / D) >= n` holds exactly
    /// when `ps * rate >= n * D` (both below 2^128: `ps` and `n` below 2^64, the rate and
    /// `D` below 2^64 too).
    #[inline]
    pub fn at_least(self, n: u64) -> bool {
        n == 0 || self.ps.ps() as u128 * self.rate_bps as u128 >= n as u128 * BIT_PS_PER_BYTE_S
    }
}

/// Outcome of offering a packet to a port.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Enqueue {
    /// Accepted; the packet's last bit reaches the far end at this time.
    Arrives(Time),
    /// The buffer could not take it.
    Overflow,
}

named_enum! {
    /// What a port does with a packet its buffer cannot take (`switch.overflow`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Overflow {
        Drop => "drop",
        /// Cut the data packet to its header and forward the header (UEC-style trimming); the
        /// receiver NACKs it and the sender retransmits.
        Trim => "trim",
    }
}

named_enum! {
    /// Which data packet a full trimming port cuts (`switch.trim_victim`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum TrimVictim {
        Arriving => "arriving",
        /// At even odds the queue's last waiting data packet instead (htsim).
        Random => "random",
    }
}

named_enum! {
    /// When a port decides a data packet's ECN mark (`switch.ecn_at`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum EcnAt {
        /// On arrival, by the backlog the packet finds.
        Enqueue => "enqueue",
        /// When its last bit leaves, by the data still waiting behind it (htsim).
        Dequeue => "dequeue",
    }
}

/// Runtime state of every egress port, indexed by global port id.
pub struct Ports {
    /// Serialization time of the last two packet sizes seen at `rate_bps` (data and ACK, in
    /// practice): saves a 64-bit division per hop.
    ser_memo: [(u32, Time); 2],
    pub stats: Vec<PortStats>,
    rate_bps: u64,
    delay_ps: Time,
    /// Per port its rate, where some port runs at another than `rate_bps` (a fabric's
    /// links above its NICs, say); empty when every port runs at `rate_bps`.
    rates: Vec<u64>,
    /// Serialization times are rounded down to whole nanoseconds (`link.serialization`).
    floor_ns: bool,
}

/// Integral over `[0, dt]` of `max(0, b - t) dt`: a backlog of `b` draining for `dt`.
#[inline]
fn drained_area(b: Time, dt: Time) -> u128 {
    let (b, dt) = (b.ps() as u128, dt.ps() as u128);
    if dt >= b {
        b * b / 2
    } else {
        dt * (2 * b - dt) / 2
    }
}

impl Ports {
    pub fn new(count: usize, rate_bps: u64, delay_ps: Time) -> Self {
        Self {
            ser_memo: [(0, Time::ZERO); 2],
            stats: vec![PortStats::default(); count],
            rate_bps,
            delay_ps,
            rates: Vec::new(),
            floor_ns: false,
        }
    }

    /// Serialization times rounded down to whole nanoseconds, as ns-3 takes them.
    pub fn with_floor_ns(mut self, floor_ns: bool) -> Self {
        self.floor_ns = floor_ns;
        self
    }

    /// A serialization time at `rate`, rounded as these ports round them.
    #[inline]
    fn ser_at(&self, bytes: u32, rate: u64) -> Time {
        let t = Time::serialization(bytes, rate);
        if self.floor_ns {
            t.floor_ns()
        } else {
            t
        }
    }

    /// The egress ports of `fabric`, each at its link's rate.
    pub fn of(fabric: &super::Fabric) -> Self {
        Self::new(fabric.ports(), fabric.rate_bps, fabric.delay_ps).with_rates(&fabric.port_rate)
    }

    /// The ports with a rate each (`rates`, one per port, or none: all at the ports' own);
    /// kept only if some port's differs from the ports' own rate.
    fn with_rates(mut self, rates: &[u64]) -> Self {
        debug_assert!(rates.is_empty() || rates.len() == self.stats.len());
        if rates.iter().any(|&r| r != self.rate_bps) {
            self.rates = rates.to_vec();
        }
        self
    }

    /// The rate of `port`.
    #[inline]
    pub fn rate_of(&self, port: u32) -> u64 {
        self.rates
            .get(port as usize)
            .copied()
            .unwrap_or(self.rate_bps)
    }

    /// Backlog of `port` at `now` in ps of link time (what a packet arriving now waits).
    #[inline]
    pub fn backlog_ps(&self, port: u32, now: Time) -> Time {
        self.stats[port as usize].busy_until.saturating_sub(now)
    }

    /// Whether `bytes` more fit in `port`'s buffer of `limit` bytes (`None`: unbounded) at `now`.
    #[inline]
    pub fn fits(&self, port: u32, bytes: u32, now: Time, limit: Option<u64>) -> bool {
        // backlog + bytes <= l, that is backlog < l - bytes + 1, compared without a division.
        let bytes = bytes as u64;
        limit.is_none_or(|l| l >= bytes && !self.backlog(port, now).at_least(l - bytes + 1))
    }

    /// Backlog of `port` at `now`.
    #[inline]
    pub fn backlog(&self, port: u32, now: Time) -> Backlog {
        Backlog::new(self.backlog_ps(port, now), self.rate_of(port))
    }

    /// Backlog of `port` at `now` in bytes (rounded down).
    #[inline]
    pub fn backlog_bytes(&self, port: u32, now: Time) -> u64 {
        self.backlog(port, now).bytes()
    }

    /// Bytes the ports' own rate carries per picosecond.
    pub fn bytes_per_ps(&self) -> f64 {
        Time::bytes_per_ps(self.rate_bps)
    }

    /// `port`'s rate over the ports' own (exactly 1 where they are the same).
    pub fn relative_rate(&self, port: u32) -> f64 {
        self.rate_of(port) as f64 / self.rate_bps as f64
    }

    /// Bytes `port`'s link carries in `t`.
    #[inline]
    pub fn bytes_in(&self, port: u32, t: Time) -> u64 {
        t.bytes_at(self.rate_of(port))
    }

    /// Offers a packet of `bytes` to `port` at `now`.
    /// `limit` is the buffer in bytes, `None` for unbounded.
    // Always inlined: the multi-ASIC model calls it too, and an out-of-line call on every
    // hop cost the plain switch 5% of its instructions.
    #[inline(always)]
    pub fn enqueue(&mut self, port: u32, bytes: u32, now: Time, limit: Option<u64>) -> Enqueue {
        if !self.fits(port, bytes, now, limit) {
            return Enqueue::Overflow;
        }
        let ser = self.serialization(port, bytes);
        let s = &mut self.stats[port as usize];
        s.advance(now);
        let done = s.busy_until.max(now) + ser;
        s.busy_until = done;
        s.busy_ps += ser;
        s.max_backlog_ps = s.max_backlog_ps.max(done - now);
        Enqueue::Arrives(done + self.delay_ps)
    }

    /// Takes the waiting packet at the tail of `port`'s FIFO (`ser`: its serialization time)
    /// out at `now`: the serializer is free that much earlier.
    pub fn unqueue_tail(&mut self, port: u32, ser: Time, now: Time) {
        let s = &mut self.stats[port as usize];
        debug_assert!(s.busy_until >= now + ser, "the tail is still waiting");
        s.advance(now);
        s.busy_until = s.busy_until - ser;
        s.busy_ps = s.busy_ps - ser;
    }

    /// Propagation delay of every link.
    #[inline]
    pub fn delay_ps(&self) -> Time {
        self.delay_ps
    }

    /// Serialization time of a packet of `bytes` at `port`'s rate.
    #[inline(always)]
    pub fn serialization(&mut self, port: u32, bytes: u32) -> Time {
        if !self.rates.is_empty() {
            return self.serialization_at(port, bytes);
        }
        self.memo_serialization(bytes)
    }

    /// [`Ports::serialization`] where some port runs at its own rate.
    #[cold]
    fn serialization_at(&mut self, port: u32, bytes: u32) -> Time {
        match self.rate_of(port) {
            rate if rate != self.rate_bps => self.ser_at(bytes, rate),
            _ => self.memo_serialization(bytes),
        }
    }

    /// Serialization time of a packet of `bytes` at the ports' own rate.
    #[inline]
    fn memo_serialization(&mut self, bytes: u32) -> Time {
        match self.ser_memo {
            [(b, t), _] | [_, (b, t)] if b == bytes => t,
            _ => {
                let t = self.ser_at(bytes, self.rate_bps);
                self.ser_memo = [(bytes, t), self.ser_memo[0]];
                t
            }
        }
    }

    /// Closes the backlog integrals at `end` (the end of the measured interval), and drops
    /// the marks still pending: the statistics are now a report, whose content does not
    /// depend on how the run was partitioned (a pending mark's slot number does).
    pub fn finish(&mut self, end: Time) {
        for s in &mut self.stats {
            if end > s.last_ps {
                s.advance(end);
            }
            s.marks = PendingMarks::default();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ps(ps: u64) -> Time {
        Time::from_ps(ps)
    }

    #[test]
    fn fifo_timing_and_backlog() {
        // 8 Gb/s: one byte per ns.
        let mut p = Ports::new(1, 8_000_000_000, ps(500_000));
        let buf = Some(3000);
        assert_eq!(
            p.enqueue(0, 1000, Time::ZERO, buf),
            Enqueue::Arrives(ps(1_000_000 + 500_000))
        );
        assert_eq!(
            p.enqueue(0, 1000, Time::ZERO, buf),
            Enqueue::Arrives(ps(2_000_000 + 500_000))
        );
        assert_eq!(p.backlog_bytes(0, ps(500_000)), 1500);
        // 1500 + 1000 fits; then 2500 + 1000 > 3000 does not.
        assert!(matches!(
            p.enqueue(0, 1000, ps(500_000), buf),
            Enqueue::Arrives(_)
        ));
        assert_eq!(p.enqueue(0, 1000, ps(500_000), buf), Enqueue::Overflow);
        p.finish(ps(10_000_000));
        let s = p.stats[0];
        assert_eq!(s.busy_ps, ps(3_000_000));
        assert_eq!(s.max_backlog_ps, ps(2_500_000));
        // Backlog: 2 us at t=0 draining to 1.5 us at 0.5 us, jump to 2.5 us, drain to 0.
        let expected = (2_000_000u128 + 1_500_000) * 500_000 / 2 + 2_500_000u128 * 2_500_000 / 2;
        assert_eq!(s.backlog_integral, expected);
    }

    #[test]
    fn unqueueing_the_tail_frees_the_serializer_and_keeps_the_statistics_exact() {
        // 8 Gb/s: one byte per ns; three 1000 B packets at t = 0 end at 1, 2 and 3 us.
        let mut p = Ports::new(1, 8_000_000_000, ps(500_000));
        for _ in 0..3 {
            p.enqueue(0, 1000, Time::ZERO, None);
        }
        // At 0.5 us the third packet still waits: take it out.
        p.unqueue_tail(0, ps(1_000_000), ps(500_000));
        assert_eq!(p.stats[0].busy_until, ps(2_000_000));
        assert_eq!(p.backlog_bytes(0, ps(500_000)), 1500);
        p.finish(ps(10_000_000));
        let s = p.stats[0];
        assert_eq!(s.busy_ps, ps(2_000_000));
        // Backlog 3 us draining to 2.5 us over the first 0.5 us, then 1.5 us draining to 0.
        let expected = (3_000_000u128 + 2_500_000) * 500_000 / 2 + 1_500_000u128 * 1_500_000 / 2;
        assert_eq!(s.backlog_integral, expected);
    }

    /// The division-free comparison is the division's, at the boundaries and between them,
    /// for link rates that divide a byte's bit-picoseconds and rates that do not.
    #[test]
    fn backlog_comparisons_agree_with_its_bytes() {
        let mut rng = crate::engine::Rng::stream(7, "backlog");
        for rate in [
            10e9 as u64,
            25e9 as u64,
            100e9 as u64,
            400e9 as u64,
            3_000_000_007,
        ] {
            for _ in 0..2_000 {
                let ps = Time::from_ps(rng.below(50_000_000));
                let b = Backlog::new(ps, rate);
                let bytes = b.bytes();
                for n in [
                    0,
                    1,
                    bytes.saturating_sub(1),
                    bytes,
                    bytes + 1,
                    rng.below(10_000),
                ] {
                    assert_eq!(b.at_least(n), bytes >= n, "{ps:?} at {rate}: {n}");
                }
            }
        }
        let mut p = Ports::new(1, 100e9 as u64, Time::ZERO);
        assert_eq!(
            p.enqueue(0, 1500, ps(0), None),
            Enqueue::Arrives(ps(120_000))
        );
        let backlog = p.backlog_bytes(0, ps(0));
        assert_eq!(backlog, 1500);
        for (bytes, limit) in [(100, 1600), (101, 1600), (1500, 1499), (0, 1500), (0, 1499)] {
            assert_eq!(
                p.fits(0, bytes, ps(0), Some(limit)),
                backlog + bytes as u64 <= limit,
                "{bytes} more into {limit}"
            );
        }
    }

    /// A port at another rate serializes, counts its backlog and converts it at its own.
    #[test]
    fn a_port_at_another_rate_runs_at_its_own() {
        // Port 0 at 8 Gb/s (a byte per ns), port 1 at 32 Gb/s.
        let mut p =
            Ports::new(2, 8_000_000_000, ps(0)).with_rates(&[8_000_000_000, 32_000_000_000]);
        assert_eq!(
            p.enqueue(0, 1000, ps(0), None),
            Enqueue::Arrives(ps(1_000_000))
        );
        assert_eq!(
            p.enqueue(1, 1000, ps(0), None),
            Enqueue::Arrives(ps(250_000))
        );
        assert_eq!(
            p.enqueue(1, 1000, ps(0), None),
            Enqueue::Arrives(ps(500_000))
        );
        assert_eq!(p.backlog_bytes(1, ps(250_000)), 1000);
        assert_eq!(p.bytes_in(1, ps(1_000)), 4);
        assert!(!p.fits(1, 1000, ps(0), Some(2500)));
        // Every port at the ports' own rate: nothing kept.
        assert!(Ports::new(2, 8, ps(0)).with_rates(&[8, 8]).rates.is_empty());
    }
}

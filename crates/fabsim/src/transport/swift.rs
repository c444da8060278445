//! Swift (Kumar et al., SIGCOMM 2020, Algorithm 1) and MSwift (Gerstein,
//! Silberstein, Keslassy 2025): delay-based AIMD on a target delay.
//!
//! One implementation; only the delay signal differs:
//! - `swift`: each ACK's RTT sample drives the window;
//! - `mswift`: the median of the last N samples (a fixed ring, no allocation), so that one
//!   sprayed packet that met a congested path does not cut the window; a majority must.
//!
//! Rules (per ACK, `delay` = the signal above, `target` = flow base delay + margin):
//! - `delay < target`: additive increase of `ai` bytes per window, scaled per ACK:
//!   `cwnd += ai * acked / cwnd`;
//! - `delay >= target`, at most once per RTT (the current delay signal): multiplicative decrease
//!   `cwnd *= max(1 - beta * (delay - target) / delay, 1 - max_mdf)`;
//! - a loss (NACK of a trimmed packet) cuts `cwnd *= 1 - max_mdf`, under the same once-per-RTT
//!   rule, with the target standing in for the RTT (Swift's retransmission response);
//! - the window never falls below one MSS (Swift can go below one packet with pacing; the
//!   simulator's sender has no pacer, so the floor is one packet).
//!
//! Target: Swift scales its target with the hop count so that longer paths are not penalized
//! for their larger base delay. We make that exact: the target is the base RTT of the flow's
//! own path (from its hop count: serialization and propagation, no queueing) plus a fixed
//! margin (default: a quarter of the fabric's longest-path base RTT). Flows sharing one
//! bottleneck then compare the same queueing delay with the same margin. (Taking the base as
//! the smallest RTT sample instead biases the targets: a flow whose first packets already
//! queue behind another's keeps a base one packet too high, a higher target, and over a long
//! incast takes the link from the other flow; measured, 1.18 FCT ratio over 32 MiB.)

use super::{AckInfo, CongestionControl};
use crate::engine::Time;

/// Largest `mswift` sample count (the ring's fixed size).
pub const MAX_MEDIAN_SAMPLES: usize = 64;

/// The last N RTT samples; the signal is their lower median (a strict majority of samples must
/// be at or above it).
#[derive(Clone, Debug)]
pub struct MedianRing {
    samples: [Time; MAX_MEDIAN_SAMPLES],
    n: usize,
    len: usize,
    next: usize,
}

impl MedianRing {
    pub fn new(n: usize) -> Self {
        assert!(
            (1..=MAX_MEDIAN_SAMPLES).contains(&n),
            "median over {n} samples"
        );
        Self {
            samples: [Time::ZERO; MAX_MEDIAN_SAMPLES],
            n,
            len: 0,
            next: 0,
        }
    }

    /// Records `sample` and returns the lower median of the (up to N) most recent samples.
    pub fn push(&mut self, sample: Time) -> Time {
        self.samples[self.next] = sample;
        self.next = (self.next + 1) % self.n;
        self.len = (self.len + 1).min(self.n);
        let mut sorted = [Time::ZERO; MAX_MEDIAN_SAMPLES];
        sorted[..self.len].copy_from_slice(&self.samples[..self.len]);
        sorted[..self.len].sort_unstable();
        sorted[(self.len - 1) / 2]
    }
}

/// Where the delay signal comes from.
#[derive(Clone, Debug)]
pub enum DelaySignal {
    /// Each ACK's own sample (Swift).
    Sample,
    /// The median of recent samples (MSwift). Boxed once per flow at its creation (never on
    /// the per-ACK path) so that the other controllers' flows stay small.
    Median(Box<MedianRing>),
}

/// Swift's parameters (scenario keys `host.swift_*`, `host.mswift_samples`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SwiftParams {
    /// Additive increase per window of ACKs, bytes.
    pub ai_bytes: f64,
    /// Multiplicative-decrease gain.
    pub beta: f64,
    /// Largest fraction one decrease removes.
    pub max_mdf: f64,
    /// Target = the flow's base delay + this margin.
    pub margin_ps: Time,
}

#[derive(Clone, Debug)]
pub struct Swift {
    cwnd: f64,
    mss: f64,
    p: SwiftParams,
    /// The base RTT of the flow's path (propagation and serialization, no queueing).
    base_ps: Time,
    last_decrease_ps: Option<Time>,
    signal: DelaySignal,
}

impl Swift {
    pub fn new(
        init_window_bytes: u64,
        mss_bytes: u64,
        base_rtt_ps: Time,
        p: SwiftParams,
        signal: DelaySignal,
    ) -> Self {
        Self {
            cwnd: init_window_bytes.max(mss_bytes) as f64,
            mss: mss_bytes as f64,
            p,
            base_ps: base_rtt_ps,
            last_decrease_ps: None,
            signal,
        }
    }

    pub fn window(&self) -> u64 {
        self.cwnd as u64
    }

    pub fn target_ps(&self) -> Time {
        self.base_ps + self.p.margin_ps
    }

    /// May decrease now: the last decrease is at least one RTT (`rtt_ps`) old.
    fn can_decrease(&self, now: Time, rtt_ps: Time) -> bool {
        self.last_decrease_ps
            .is_none_or(|t| now.saturating_sub(t) >= rtt_ps)
    }

    pub fn on_ack(&mut self, bytes: u64, rtt_ps: Time, now: Time) {
        let delay = match &mut self.signal {
            DelaySignal::Sample => rtt_ps,
            DelaySignal::Median(ring) => ring.push(rtt_ps),
        };
        let target = self.target_ps();
        if delay < target {
            self.cwnd += self.p.ai_bytes * bytes as f64 / self.cwnd;
        } else if self.can_decrease(now, delay) {
            let excess = (delay - target).as_ps_f64() / delay.as_ps_f64();
            let factor = (1.0 - self.p.beta * excess).max(1.0 - self.p.max_mdf);
            self.cwnd = (self.cwnd * factor).max(self.mss);
            self.last_decrease_ps = Some(now);
        }
    }

    /// A NACK: cut by the largest decrease, at most once per (target) RTT.
    /// Takes `bytes` off the window, to no less than one MSS.
    pub fn shrink(&mut self, bytes: u64) {
        self.cwnd = (self.cwnd - bytes as f64).max(self.mss);
    }

    pub fn on_loss(&mut self, _bytes: u64, now: Time) {
        if self.can_decrease(now, self.target_ps()) {
            self.cwnd = (self.cwnd * (1.0 - self.p.max_mdf)).max(self.mss);
            self.last_decrease_ps = Some(now);
        }
    }
}

impl CongestionControl for Swift {
    fn window(&self) -> u64 {
        self.window()
    }

    fn on_ack(&mut self, a: &AckInfo) {
        self.on_ack(a.bytes, a.rtt_ps, a.now);
    }

    fn on_loss(&mut self, bytes: u64, _inflight: u64, now: Time) {
        self.on_loss(bytes, now);
    }

    fn on_packet_timeout(&mut self, bytes: u64) {
        self.shrink(bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const US: Time = Time::from_us(1);
    const P: SwiftParams = SwiftParams {
        ai_bytes: 1_000.0,
        beta: 0.8,
        max_mdf: 0.5,
        margin_ps: Time::from_us(2),
    };

    fn swift() -> Swift {
        // Base 10 us, target 12 us.
        Swift::new(100_000, 1_000, 10 * US, P, DelaySignal::Sample)
    }

    fn mswift(n: usize) -> Swift {
        Swift::new(
            100_000,
            1_000,
            10 * US,
            P,
            DelaySignal::Median(Box::new(MedianRing::new(n))),
        )
    }

    #[test]
    fn below_target_adds_ai_per_window() {
        let mut s = swift();
        s.on_ack(1_000, 11 * US, Time::ZERO);
        assert_eq!(s.window(), 100_010, "+ ai * acked / cwnd");
    }

    #[test]
    fn above_target_cuts_in_proportion_to_the_excess_once_per_rtt() {
        let mut s = swift();
        // delay 16 us, target 12: factor 1 - 0.8 * 4/16 = 0.8.
        s.on_ack(1_000, 16 * US, Time::ZERO);
        assert_eq!(s.window(), 80_000);
        // Within one RTT (16 us) of the cut: no second decrease.
        s.on_ack(1_000, 16 * US, 15 * US);
        assert_eq!(s.window(), 80_000);
        // An RTT later: cut again.
        s.on_ack(1_000, 16 * US, 16 * US);
        assert_eq!(s.window(), 64_000);
    }

    #[test]
    fn decrease_is_bounded_by_max_mdf_and_floored_at_one_mss() {
        let mut s = swift();
        // Huge delay: 1 - 0.8 * (1000 - 12)/1000 < 0.5, so the cut is 0.5.
        s.on_ack(1_000, 1_000 * US, Time::ZERO);
        assert_eq!(s.window(), 50_000);
        let mut t = Time::ZERO;
        for _ in 0..20 {
            t += 1_000 * US;
            s.on_ack(1_000, 1_000 * US, t);
        }
        assert_eq!(s.window(), 1_000, "floor: one MSS");
    }

    #[test]
    fn the_target_is_the_path_base_plus_the_margin() {
        let mut s = Swift::new(100_000, 1_000, 4 * US, P, DelaySignal::Sample);
        assert_eq!(s.target_ps(), 6 * US);
        // 7 us is below a 10 us path's 12 us target but above this 4 us path's 6 us.
        s.on_ack(1_000, 7 * US, Time::ZERO);
        assert!(s.window() < 100_000);
    }

    #[test]
    fn loss_halves_once_per_rtt() {
        let mut s = swift();
        s.on_loss(1_000, Time::ZERO);
        assert_eq!(s.window(), 50_000);
        s.on_loss(1_000, US);
        assert_eq!(s.window(), 50_000);
    }

    #[test]
    fn mswift_ignores_a_minority_of_high_samples() {
        let mut s = mswift(8);
        for i in 0..7 {
            s.on_ack(1_000, 11 * US, Time::from_ps(i));
        }
        let w = s.window();
        // One sample far above target among low ones: the median stays low, the window grows.
        s.on_ack(1_000, 100 * US, Time::from_ps(7));
        assert!(s.window() > w, "{} vs {w}", s.window());
        // Swift fed the same samples cuts.
        let mut plain = swift();
        plain.on_ack(1_000, 100 * US, Time::from_ps(7));
        assert!(plain.window() < 100_000);
    }

    #[test]
    fn mswift_cuts_when_a_majority_is_high() {
        let mut s = mswift(8);
        for i in 0..4 {
            s.on_ack(1_000, 11 * US, Time::from_ps(i));
        }
        // 4 of 8 high: the lower median is still low.
        for i in 4..8 {
            s.on_ack(1_000, 16 * US, Time::from_ps(i));
        }
        assert!(s.window() > 100_000);
        // The fifth high sample makes a majority: cut by 1 - 0.8 * 4/16.
        let w = s.window() as f64;
        s.on_ack(1_000, 16 * US, Time::from_ps(8));
        assert!(
            (s.window() as f64 - w * 0.8).abs() <= 1.0,
            "{} vs {w}",
            s.window()
        );
    }

    #[test]
    fn median_ring_wraps() {
        let mut r = MedianRing::new(3);
        let ps = Time::from_ps;
        assert_eq!(r.push(ps(5)), ps(5));
        assert_eq!(r.push(ps(1)), ps(1), "lower median of {{5, 1}}");
        assert_eq!(r.push(ps(9)), ps(5));
        // 5 drops out: {1, 9, 2}.
        assert_eq!(r.push(ps(2)), ps(2));
    }
}

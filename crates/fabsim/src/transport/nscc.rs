//! NSCC, the UEC network-signal congestion control (Ultra Ethernet specification 1.0; the
//! public UEC htsim `uec.cpp` is the reference we read). A window per flow, driven per ACK by
//! two signals: ECN, and the queueing delay `rtt - base` against a target.
//!
//! Per ACK, four quadrants of (ECN?, delay >= target?):
//! - no ECN, below target: proportional increase, more the further below, plus the fair
//!   increase;
//! - no ECN, above target: fair (additive) increase;
//! - ECN, above target: multiplicative decrease, at most once per base RTT:
//!   `cwnd *= max(1 - gamma * (delay - target) / delay, 0.5)`;
//! - ECN, below target: hold (the mark is blamed on the path, not the flow's rate).
//!
//! Increases accumulate (`inc += rate * acked`) and are applied every 8 MTUs of ACKs or once
//! per base RTT, whichever comes first: `cwnd += min(inc / cwnd, 8 MTU)`. Per window of ACKs
//! this adds `fi = 5 MSS * s` (fair) and `4 MSS * s * (target - delay) / 12 us`
//! (proportional), where `s = BDP / (100 Gb/s * 12 us)` scales htsim's reference network.
//!
//! Quick adapt: at the end of every `base + target` window, if a NACK arrived or the average
//! queueing delay exceeds 4x the target, the window drops to the bytes acknowledged during
//! that window (what the network actually delivered). ECN marks on packets sent before the cut
//! are ignored afterwards: they describe the old window. A NACK also subtracts its bytes.
//!
//! Window: floor one MTU, cap `max_bdp` (1.5) times the flow's BDP; initial = the cap. The
//! flow's base RTT starts as its path's (from the hop count, htsim's per-flow `peer_rtt`) and
//! drops to any smaller full-packet sample, its BDP and cap with it, as in htsim. The base
//! RTT, the decrease period and quick adapt's window are per flow; the increase constants,
//! the target and the adjustment cap come from the fabric (its longest-path RTT and BDP).
//!
//! Followed from htsim: the quadrant rules, gamma = 0.8, the 0.5 floor, the once-per-base-RTT
//! decrease, the 8-MTU / base-RTT adjustment period and cap, the scaling of the increase
//! constants, the default target (the fabric RTT; 0.75 of it with trimming), quick adapt's
//! window and 4x-target threshold, the average-delay EWMA gain 0.0125, initial = max = 1.5 BDP.
//! Simplified: the decrease factor uses the ACK's own delay sample (htsim: the EWMA); no
//! `eta` additive term; no fast increase; no quick-adapt gate; "bytes to ignore" after quick
//! adapt is expressed as "packets sent before the cut" (known from the RTT sample); htsim's
//! EWMA special case (pulling the average down on unmarked above-target ACKs) is left out.
//!
//! `host.nscc_rules = "htsim"` runs the rules as `uec.cpp` does instead of the simplified
//! ones above: the decrease needs the *averaged* delay above target and scales by it; an
//! unmarked above-target sample pulls the average toward a quarter of the base RTT; fast
//! increase (`cwnd += acked / 4 * s` once a window's worth of ACKs came with under 1 us of
//! delay) replaces the proportional one; quick adapt fires only when the window delivered
//! under 1/8 of the cap and a NACK came or the ACK's own delay exceeds 4 targets, and then
//! marked ACKs are skipped until the bytes in flight at the cut are acknowledged; increases
//! are applied uncapped, with `eta = 0.15 MSS * s` once per fabric RTT; a NACK also feeds
//! the average a sample of one fabric RTT.

use super::{AckInfo, CongestionControl};
use crate::engine::Time;

/// htsim's reference network for scaling the increase constants: 100 Gb/s, 12 us.
const REF_BDP_BYTES: f64 = 100e9 / 8.0 * 12e-6;
const REF_RTT_PS: f64 = 12e6;
/// Gain of the average queueing delay (htsim's `_delay_alpha`).
const DELAY_EWMA_GAIN: f64 = 0.0125;
/// Quick adapt fires when the average delay exceeds this many targets.
const QA_DELAY_TARGETS: f64 = 4.0;
/// Increases are applied after this many MTUs of ACKs, and at most this much at once.
const ADJUST_MTUS: f64 = 8.0;
/// The multiplicative decrease never cuts below this fraction.
const MD_FLOOR: f64 = 0.5;

named_enum! {
    /// Which rules NSCC follows (`host.nscc_rules`; module docs).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum NsccRules {
        Simple => "simple",
        Htsim => "htsim",
    }
}

/// htsim: fast increase runs while the delay stays under this.
const FAST_DELAY_PS: Time = Time::from_us(1);
/// htsim: quick adapt only cuts when the window delivered under `cap >> QA_GATE`.
const QA_GATE: u32 = 3;

/// NSCC's parameters (scenario keys `host.nscc_*`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NsccParams {
    /// Target queueing delay.
    pub target_ps: Time,
    /// Window cap in BDPs of the flow's path.
    pub max_bdp: f64,
    /// Multiplicative-decrease gain.
    pub gamma: f64,
    pub rules: NsccRules,
}

#[derive(Clone, Debug)]
pub struct Nscc {
    cwnd: f64,
    max_wnd: f64,
    mtu: f64,
    p: NsccParams,
    /// Link bytes per picosecond (the BDP of a delay).
    bytes_per_ps: f64,
    /// Fair increase per window of ACKs, bytes.
    fi_bytes: f64,
    /// Proportional increase per window of ACKs, bytes per picosecond below target.
    alpha: f64,
    base_ps: Time,
    avg_delay_ps: f64,
    /// Accumulated increase, bytes^2 (applied divided by cwnd).
    inc: f64,
    acked_since_adjust: f64,
    last_adjust_ps: Time,
    last_decrease_ps: Option<Time>,
    /// Quick adapt: bytes acknowledged in the current window, the window's end, a NACK seen.
    achieved_bytes: f64,
    qa_end_ps: Time,
    loss_seen: bool,
    /// Time of the last quick adapt: marks on packets sent before it are ignored.
    qa_cut_ps: Option<Time>,
    /// htsim rules: the fabric's RTT, eta and the fast-increase state, and the bytes of
    /// marked ACKs to skip after a quick adapt (`bytes_to_ignore` / `bytes_ignored`).
    network_rtt_ps: Time,
    eta: f64,
    fi_scale: f64,
    fi_count: f64,
    increasing: bool,
    to_ignore: f64,
    ignored: f64,
}

impl Nscc {
    /// `bdp_bytes` is the BDP of the fabric's base RTT `base_rtt_ps` (it scales the increase
    /// constants); `path_rtt_ps` the base RTT of the flow's path (its cap and start);
    /// `mtu_bytes` one full packet.
    pub fn new(
        mtu_bytes: u64,
        base_rtt_ps: Time,
        bdp_bytes: u64,
        path_rtt_ps: Time,
        p: NsccParams,
    ) -> Self {
        let s = bdp_bytes as f64 / REF_BDP_BYTES;
        let mss = mtu_bytes as f64;
        let bytes_per_ps = bdp_bytes as f64 / base_rtt_ps.max(Time::from_ps(1)).as_ps_f64();
        let max_wnd = (p.max_bdp * bytes_per_ps * path_rtt_ps.as_ps_f64()).max(mss);
        Self {
            cwnd: max_wnd,
            max_wnd,
            mtu: mss,
            p,
            bytes_per_ps,
            fi_bytes: 5.0 * mss * s,
            alpha: 4.0 * mss * s / REF_RTT_PS,
            base_ps: path_rtt_ps,
            avg_delay_ps: 0.0,
            inc: 0.0,
            acked_since_adjust: 0.0,
            last_adjust_ps: Time::ZERO,
            last_decrease_ps: None,
            achieved_bytes: 0.0,
            qa_end_ps: Time::ZERO,
            loss_seen: false,
            qa_cut_ps: None,
            network_rtt_ps: base_rtt_ps,
            eta: 0.15 * mss * s,
            fi_scale: 0.25 * s,
            fi_count: 0.0,
            increasing: false,
            to_ignore: 0.0,
            ignored: 0.0,
        }
    }

    pub fn window(&self) -> u64 {
        self.cwnd as u64
    }

    pub fn max_window(&self) -> u64 {
        self.max_wnd as u64
    }

    /// An ACK of `bytes` with its RTT sample; `inflight`: bytes still in flight.
    pub fn on_ack(&mut self, bytes: u64, ecn: bool, rtt_ps: Time, inflight: u64, now: Time) {
        if self.p.rules == NsccRules::Htsim {
            return self.on_ack_htsim(bytes as f64, ecn, rtt_ps, inflight as f64, now);
        }
        if bytes as f64 >= self.mtu {
            self.lower_base(rtt_ps);
        }
        let delay = rtt_ps.saturating_sub(self.base_ps);
        self.feed_delay(delay.as_ps_f64());
        let cut = self.quick_adapt(now);
        self.achieved_bytes += bytes as f64;
        let sent_ps = now.saturating_sub(rtt_ps);
        let stale_mark = ecn && self.qa_cut_ps.is_some_and(|cut| sent_ps < cut);
        if !cut && !stale_mark {
            self.quadrant(bytes as f64, ecn, delay, now);
            self.acked_since_adjust += bytes as f64;
            if self.acked_since_adjust >= ADJUST_MTUS * self.mtu
                || now.saturating_sub(self.last_adjust_ps) >= self.base_ps
            {
                self.cwnd += (self.inc / self.cwnd).min(ADJUST_MTUS * self.mtu);
                self.inc = 0.0;
                self.acked_since_adjust = 0.0;
                self.last_adjust_ps = now;
            }
        }
        self.clamp();
    }

    /// A smaller RTT sample lowers the flow's base RTT, and its BDP cap with it.
    fn lower_base(&mut self, rtt_ps: Time) {
        if rtt_ps < self.base_ps {
            self.base_ps = rtt_ps;
            self.max_wnd = (self.p.max_bdp * self.bytes_per_ps * rtt_ps.as_ps_f64()).max(self.mtu);
        }
    }

    /// One queueing-delay sample into the average (htsim's `_delay_alpha` EWMA).
    fn feed_delay(&mut self, sample_ps: f64) {
        self.avg_delay_ps =
            DELAY_EWMA_GAIN * sample_ps + (1.0 - DELAY_EWMA_GAIN) * self.avg_delay_ps;
    }

    fn quadrant(&mut self, bytes: f64, ecn: bool, delay: Time, now: Time) {
        let target = self.p.target_ps;
        match (ecn, delay >= target) {
            (false, false) => {
                let below = (target - delay).as_ps_f64();
                self.inc += (self.alpha * below + self.fi_bytes) * bytes;
            }
            (false, true) => self.inc += self.fi_bytes * bytes,
            (true, true) => {
                let due = self
                    .last_decrease_ps
                    .is_none_or(|t| now.saturating_sub(t) >= self.base_ps);
                if due {
                    let excess = (delay - target).as_ps_f64() / delay.as_ps_f64();
                    self.cwnd *= (1.0 - self.p.gamma * excess).max(MD_FLOOR);
                    self.last_decrease_ps = Some(now);
                }
            }
            (true, false) => {}
        }
    }

    /// At the end of each quick-adapt window: cut to what was delivered if a NACK came or the
    /// average delay is very high. Returns whether it cut.
    fn quick_adapt(&mut self, now: Time) -> bool {
        if now < self.qa_end_ps {
            return false;
        }
        let first = self.qa_end_ps == Time::ZERO;
        let high_delay = self.avg_delay_ps > QA_DELAY_TARGETS * self.p.target_ps.as_ps_f64();
        let cut = !first && (self.loss_seen || high_delay) && self.achieved_bytes < self.cwnd;
        if cut {
            self.cwnd = self.achieved_bytes.max(self.mtu);
            self.qa_cut_ps = Some(now);
            self.inc = 0.0;
        }
        self.loss_seen = false;
        self.achieved_bytes = 0.0;
        self.qa_end_ps = now + self.base_ps + self.p.target_ps;
        cut
    }

    fn on_ack_htsim(&mut self, bytes: f64, ecn: bool, rtt_ps: Time, inflight: f64, now: Time) {
        self.lower_base(rtt_ps);
        let target = self.p.target_ps;
        let delay = if rtt_ps >= self.base_ps {
            let d = rtt_ps - self.base_ps;
            let sample = if !ecn && d > target {
                self.base_ps.as_ps_f64() / 4.0
            } else {
                d.as_ps_f64()
            };
            self.feed_delay(sample);
            d
        } else {
            Time::from_ps(self.avg_delay_ps as u64)
        };
        self.achieved_bytes += bytes;
        self.acked_since_adjust += bytes;
        self.ignored += bytes;
        if self.quick_adapt_htsim(ecn, delay > target * 4, inflight, now) {
            self.clamp();
            return;
        }
        match (ecn, delay >= target) {
            (false, true) => self.inc += self.fi_bytes * bytes,
            (false, false) => {
                if delay < FAST_DELAY_PS {
                    self.fi_count += bytes;
                    if self.fi_count > self.cwnd || self.increasing {
                        self.cwnd += bytes * self.fi_scale;
                        self.increasing = true;
                    }
                } else {
                    self.fi_count = 0.0;
                    self.increasing = false;
                }
                if !self.increasing {
                    self.inc += self.alpha * bytes * (target - delay).as_ps_f64();
                }
            }
            (true, true) => {
                self.increasing = false;
                self.fi_count = 0.0;
                let avg = self.avg_delay_ps;
                let due = self
                    .last_decrease_ps
                    .is_none_or(|t| now.saturating_sub(t) > self.base_ps);
                if avg > target.as_ps_f64() && due {
                    let excess = (avg - target.as_ps_f64()) / avg;
                    self.cwnd *= (1.0 - self.p.gamma * excess).max(MD_FLOOR);
                    self.last_decrease_ps = Some(now);
                }
            }
            (true, false) => {}
        }
        self.clamp();
        let since = now.saturating_sub(self.last_adjust_ps);
        if self.acked_since_adjust > ADJUST_MTUS * self.mtu || since > self.network_rtt_ps {
            self.cwnd += self.inc / self.cwnd;
            if since >= self.network_rtt_ps {
                self.cwnd += self.eta;
                self.last_adjust_ps = now;
            }
            self.inc = 0.0;
            self.acked_since_adjust = 0.0;
        }
        self.clamp();
    }

    /// htsim's quick adapt (`skip`: the ACK was marked, or it is a NACK). Returns whether
    /// the ACK's adjustment is skipped.
    fn quick_adapt_htsim(
        &mut self,
        skip: bool,
        high_delay: bool,
        inflight: f64,
        now: Time,
    ) -> bool {
        let mut done = false;
        if self.ignored < self.to_ignore && skip {
            done = true;
        } else if now > self.qa_end_ps {
            let gate = self.max_wnd / (1u32 << QA_GATE) as f64;
            if self.qa_end_ps != Time::ZERO
                && (self.loss_seen || high_delay)
                && self.achieved_bytes < gate
            {
                self.cwnd = self.achieved_bytes.max(self.mtu);
                self.to_ignore = inflight;
                self.ignored = 0.0;
                self.loss_seen = false;
                done = true;
            }
            self.achieved_bytes = 0.0;
            self.qa_end_ps = now + self.base_ps + self.p.target_ps;
        }
        if done {
            self.inc = 0.0;
            self.acked_since_adjust = 0.0;
        }
        done
    }

    /// A NACK (trimmed packet): subtract its bytes and let the next quick-adapt check cut;
    /// `inflight`: bytes still in flight.
    pub fn on_loss(&mut self, bytes: u64, inflight: u64, now: Time) {
        if self.p.rules == NsccRules::Htsim {
            self.ignored += bytes as f64;
            let sample = self.network_rtt_ps.as_ps_f64();
            self.feed_delay(sample);
            self.loss_seen = true;
            if !self.quick_adapt_htsim(true, false, inflight as f64, now) {
                self.cwnd -= bytes as f64;
            }
            self.clamp();
            return;
        }
        self.cwnd -= bytes as f64;
        self.loss_seen = true;
        self.quick_adapt(now);
        self.clamp();
    }

    /// Takes `bytes` off the window, within its bounds.
    pub fn shrink(&mut self, bytes: u64) {
        self.cwnd -= bytes as f64;
        self.clamp();
    }

    fn clamp(&mut self) {
        self.cwnd = self.cwnd.clamp(self.mtu, self.max_wnd);
    }
}

impl CongestionControl for Nscc {
    fn window(&self) -> u64 {
        self.window()
    }

    fn on_ack(&mut self, a: &AckInfo) {
        self.on_ack(a.bytes, a.ecn, a.rtt_ps, a.inflight, a.now);
    }

    fn on_loss(&mut self, bytes: u64, inflight: u64, now: Time) {
        self.on_loss(bytes, inflight, now);
    }

    fn on_packet_timeout(&mut self, bytes: u64) {
        self.shrink(bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const US: Time = Time::from_us(1);
    /// 10 us base RTT, 1 MB BDP (800 Gb/s), 10 KB packets, target 5 us.
    const BASE: Time = Time::from_us(10);
    const BDP: u64 = 1_000_000;
    const MTU: u64 = 10_000;
    const P: NsccParams = NsccParams {
        target_ps: Time::from_us(5),
        max_bdp: 1.5,
        gamma: 0.8,
        rules: NsccRules::Simple,
    };

    /// A flow at `w` bytes, quick adapt's first window opened at time 0.
    fn nscc(w: f64) -> Nscc {
        let mut n = Nscc::new(MTU, BASE, BDP, BASE, P);
        n.cwnd = w;
        n.qa_end_ps = 1_000 * US;
        n.last_adjust_ps = Time::ZERO;
        n
    }

    #[test]
    fn starts_at_the_cap_of_one_and_a_half_bdp() {
        let n = Nscc::new(MTU, BASE, BDP, BASE, P);
        assert_eq!(n.window(), 1_500_000);
        assert_eq!(n.max_window(), 1_500_000);
    }

    #[test]
    fn a_shorter_path_has_a_lower_cap() {
        let n = Nscc::new(MTU, BASE, BDP, 4 * US, P);
        assert_eq!(n.max_window(), 600_000, "1.5 x the 4 us path's BDP");
        assert_eq!(n.window(), 600_000);
        // A smaller full-packet sample than the path's base lowers it further (htsim).
        let mut n = Nscc::new(MTU, BASE, BDP, BASE, P);
        n.on_ack(MTU, false, 4 * US, 0, Time::ZERO);
        assert_eq!(n.max_window(), 600_000);
    }

    /// The increase of one adjustment: 8 MTUs of ACKs at queueing delay `delay`.
    fn increase_after_8_mtus(delay: Time) -> f64 {
        let mut n = nscc(500_000.0);
        for i in 0..8 {
            n.on_ack(MTU, false, BASE + delay, 0, Time::from_ps(i));
        }
        n.cwnd - 500_000.0
    }

    #[test]
    fn no_ecn_below_target_increases_proportionally() {
        let s = BDP as f64 / REF_BDP_BYTES;
        let fi = 5.0 * MTU as f64 * s;
        let per_window = |d: Time| fi + 4.0 * MTU as f64 * s * (5 * US - d).as_ps_f64() / 12e6;
        // 8 MTUs of a 500 KB window = 16% of a window's increase.
        for d in [Time::ZERO, 2 * US] {
            let expect = (per_window(d) * 80_000.0 / 500_000.0).min(8.0 * MTU as f64);
            let got = increase_after_8_mtus(d);
            assert!((got - expect).abs() < 1.0, "delay {d:?}: {got} vs {expect}");
        }
        assert!(increase_after_8_mtus(Time::ZERO) > increase_after_8_mtus(2 * US));
        assert!(increase_after_8_mtus(2 * US) > increase_after_8_mtus(6 * US));
    }

    #[test]
    fn no_ecn_above_target_increases_fairly() {
        let fi = 5.0 * MTU as f64 * BDP as f64 / REF_BDP_BYTES;
        let got = increase_after_8_mtus(6 * US);
        assert!((got - fi * 80_000.0 / 500_000.0).abs() < 1.0, "{got}");
        assert_eq!(
            got,
            increase_after_8_mtus(20 * US),
            "independent of the delay"
        );
    }

    #[test]
    fn increases_wait_for_the_adjustment() {
        let mut n = nscc(500_000.0);
        n.on_ack(MTU, false, BASE, 0, Time::from_ps(1));
        assert_eq!(n.window(), 500_000, "accumulated, not applied");
        // A base RTT later the accumulated increase is applied even without 8 MTUs.
        n.on_ack(MTU, false, BASE, 0, BASE);
        assert!(n.window() > 500_000);
    }

    #[test]
    fn ecn_above_target_decreases_once_per_base_rtt() {
        let mut n = nscc(1_000_000.0);
        // Delay 10 us, target 5: factor 1 - 0.8 * 5/10.
        n.on_ack(MTU, true, BASE + 10 * US, 0, Time::ZERO);
        let expect = 1_000_000.0 * (1.0 - 0.8 * 5.0 / 10.0);
        assert!((n.cwnd - expect).abs() < 1.0, "{}", n.cwnd);
        n.on_ack(MTU, true, BASE + 10 * US, 0, BASE - Time::from_ps(1));
        assert!(
            (n.cwnd - expect).abs() < 1.0,
            "no second cut within a base RTT"
        );
        n.on_ack(MTU, true, BASE + 10 * US, 0, BASE);
        assert!(n.cwnd < expect - 1.0);
    }

    #[test]
    fn the_decrease_is_floored_at_one_half() {
        let mut n = nscc(1_000_000.0);
        n.on_ack(MTU, true, BASE + 500 * US, 0, Time::ZERO);
        assert_eq!(n.window(), 500_000);
    }

    #[test]
    fn ecn_below_target_holds() {
        let mut n = nscc(500_000.0);
        for i in 0..20 {
            n.on_ack(MTU, true, BASE + US, 0, i * US);
        }
        assert_eq!(n.window(), 500_000);
    }

    #[test]
    fn window_is_capped_and_floored() {
        let mut n = nscc(1_499_000.0);
        for i in 0..100 {
            n.on_ack(MTU, false, BASE, 0, Time::from_ps(i));
        }
        assert_eq!(n.window(), 1_500_000);
        let mut n = nscc(2.0 * MTU as f64);
        for _ in 0..5 {
            n.on_loss(MTU, 0, Time::ZERO);
        }
        assert_eq!(n.window(), MTU);
    }

    #[test]
    fn a_nack_subtracts_its_bytes() {
        let mut n = nscc(500_000.0);
        n.on_loss(MTU, 0, Time::from_ps(1));
        assert_eq!(n.window(), 490_000);
    }

    #[test]
    fn quick_adapt_after_loss_cuts_to_the_delivered_bytes() {
        let mut n = nscc(1_000_000.0);
        // Window [0, 1000 us): 20 packets delivered, then a NACK.
        for i in 0..20 {
            n.on_ack(MTU, false, BASE, 0, Time::from_ps(i));
        }
        n.on_loss(MTU, 0, 500 * US);
        // The first ACK after the window's end cuts to the 200 KB delivered.
        n.on_ack(MTU, false, BASE, 0, 1_000 * US);
        assert_eq!(n.window(), 200_000);
        // A mark on a packet sent before the cut is ignored.
        n.on_ack(MTU, true, BASE + 50 * US, 0, 1_001 * US);
        assert_eq!(n.window(), 200_000);
    }

    #[test]
    fn quick_adapt_on_persistent_high_delay() {
        let mut n = nscc(1_000_000.0);
        // Average delay above 4x target (20 us): 20 samples at 200 us.
        for i in 0..20 {
            n.on_ack(MTU, false, BASE + 200 * US, 0, Time::from_ps(i));
        }
        assert!(n.avg_delay_ps > 20e6);
        n.on_ack(MTU, false, BASE + 200 * US, 0, 1_000 * US);
        assert_eq!(n.window(), 200_000);
        // Without loss or high delay the window end passes without a cut.
        let mut m = nscc(1_000_000.0);
        m.on_ack(MTU, false, BASE, 0, 1_000 * US);
        assert!(m.window() >= 1_000_000);
    }
}

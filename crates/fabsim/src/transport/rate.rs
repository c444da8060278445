//! Rate-based congestion control, as RoCE NICs run it and HPCC's ns-3 models it: a flow
//! sends at its current rate (its NIC paces it: after each packet the flow waits the
//! packet's wire bits over that rate), from line rate at its start, never below a floor.
//! A window may sit on top: none, a fixed one, or one scaled by the rate over line rate.
//!
//! Three laws set the rate:
//! - **DCQCN** (Zhu et al., SIGCOMM 2015, the Mellanox NIC's variant): every ACK of an
//!   ECN-marked packet is a congestion notification. Timers drive the rest: alpha's EWMA
//!   every `alpha_interval`; at most one cut per `decrease_interval`,
//!   `Rc <- Rc (1 - alpha / 2)`, remembering the target `Rt`; after a cut, every `rp_timer`
//!   the rate climbs back halfway to the target, the target itself rising by `ai` once the
//!   fast-recovery stages are done and by `hai` after that.
//! - **DCTCP over RoCE**: once per round of data (the ACK of a byte sent after the last
//!   update), alpha takes the fraction of marked ACKs of the round; a marked ACK outside a
//!   cut-back period cuts `R <- R (1 - alpha / 2)` until the data sent so far is ACKed; a
//!   new round outside one adds `dctcp_ai`.
//! - **Timely** (Mittal et al., SIGCOMM 2015): once per round the RTT's gradient (an EWMA
//!   of its change over the minimum RTT): increase by `ai` (then `hai` after five
//!   increases in a row) below `t_low` or on a gradient of 0 or less; cut by `beta` times
//!   the gradient, or toward `t_high` above it.
//!
//! Timers are not events: the controller keeps each timer's next expiry and runs the ones
//! due whenever it is asked anything ([`RateCc::advance`]), in the order their events would
//! run (by time, then by when they were set), so a flow costs no event when it is idle.
//!
//! Rates are whole bits per second after every change, as the reference's rate type holds
//! them.

use super::{AckInfo, CongestionControl};
use crate::engine::Time;

named_enum! {
    /// The window on top of a rate (`host.rate_window`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum RateWindow {
        /// No window: the rate alone limits the flow.
        Off => "off",
        /// `host.rate_window_bytes` in flight at most.
        Fixed => "fixed",
        /// `host.rate_window_bytes` times the current rate over line rate (at least one
        /// byte), as HPCC's NICs scale it.
        Scaled => "scaled",
    }
}

/// DCQCN's timers and steps (`host.dcqcn_*`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DcqcnParams {
    /// EWMA gain g of alpha.
    pub g: f64,
    pub alpha_interval: Time,
    pub decrease_interval: Time,
    /// The rate-increase timer's period.
    pub rp_timer: Time,
    /// Fast-recovery stages before additive increase.
    pub fast_recovery: u32,
    /// Every cut first sets the target to the current rate (else only after an increase).
    pub clamp_target: bool,
}

/// Timely's constants (the Timely paper's, as HPCC's ns-3 sets them).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimelyParams {
    /// Weight of the new RTT difference in the EWMA.
    pub alpha: f64,
    pub beta: f64,
    pub t_low: Time,
    pub t_high: Time,
    pub min_rtt: Time,
}

impl TimelyParams {
    pub const PAPER: TimelyParams = TimelyParams {
        alpha: 0.875,
        beta: 0.8,
        t_low: Time::from_us(50),
        t_high: Time::from_us(500),
        min_rtt: Time::from_us(20),
    };
}

/// What every rate-based flow of a run shares.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RateParams {
    /// The NIC's line rate: every flow's start and ceiling.
    pub line_bps: u64,
    /// The floor of every law (`host.min_rate_mbps`).
    pub min_bps: u64,
    /// Additive and hyper-additive increase (DCQCN, Timely).
    pub ai_bps: u64,
    pub hai_bps: u64,
    /// DCTCP's increase per round.
    pub dctcp_ai_bps: u64,
    /// DCTCP's EWMA gain.
    pub dctcp_g: f64,
    pub window: RateWindow,
    /// The window's base, in payload bytes.
    pub window_bytes: u64,
    /// Payload bytes of a full packet.
    pub mss_bytes: u64,
    pub dcqcn: DcqcnParams,
    pub timely: TimelyParams,
}

/// The law that sets the rate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Law {
    Dcqcn,
    Dctcp,
    Timely,
}

/// One timer: when it fires next, and when that expiry was set (the tie-break between
/// timers due at the same time: the one set first runs first, as an event queue orders
/// them). `None`: not running.
type Timer = Option<(Time, Time)>;

/// One flow's rate-based controller.
#[derive(Clone, Debug)]
pub struct RateCc {
    p: RateParams,
    law: Law,
    /// The current rate `Rc` and DCQCN's target `Rt`, whole bits per second as f64.
    rate: f64,
    target: f64,
    alpha: f64,
    /// DCQCN: a notification came since the last alpha update / decrease.
    cnp_alpha: bool,
    cnp_dec: bool,
    /// DCQCN: increase stages since the last cut; Timely: increases in a row.
    stage: u32,
    alpha_timer: Timer,
    decrease_timer: Timer,
    increase_timer: Timer,
    /// DCTCP and Timely: a round ends with the ACK of a byte beyond this (0: none yet).
    round_end: u64,
    /// DCTCP: marked ACKs this round, the round's length in packets, cutting back until the
    /// ACK of a byte beyond `cwr_end`.
    marked: u64,
    batch: u64,
    cwr_end: Option<u64>,
    /// Timely: the last round's RTT and the EWMA of its change.
    last_rtt: Option<Time>,
    rtt_diff: f64,
}

impl RateCc {
    pub fn new(p: &RateParams, law: Law) -> Self {
        RateCc {
            p: *p,
            law,
            rate: p.line_bps as f64,
            target: p.line_bps as f64,
            alpha: 1.0,
            cnp_alpha: false,
            cnp_dec: false,
            stage: 0,
            alpha_timer: None,
            decrease_timer: None,
            increase_timer: None,
            round_end: 0,
            marked: 0,
            batch: 0,
            cwr_end: None,
            last_rtt: None,
            rtt_diff: 0.0,
        }
    }

    /// The current rate in bits per second.
    #[inline]
    pub fn rate_bps(&self) -> u64 {
        self.rate as u64
    }

    /// Bytes the flow may have in flight: it may send while fewer than the window's are, so
    /// in the sender's terms (room for one more full packet) the window is one packet less a
    /// byte larger.
    pub fn window(&self) -> u64 {
        let w = match self.p.window {
            RateWindow::Off => return u64::MAX,
            RateWindow::Fixed => self.p.window_bytes,
            RateWindow::Scaled => {
                let scaled =
                    self.p.window_bytes as u128 * self.rate_bps() as u128 / self.p.line_bps as u128;
                (scaled as u64).max(1)
            }
        };
        w + self.p.mss_bytes - 1
    }

    /// A new rate, whole bits per second, within the floor and line rate.
    fn set_rate(&mut self, r: f64) {
        self.rate = r
            .clamp(self.p.min_bps as f64, self.p.line_bps as f64)
            .floor();
    }

    /// Runs the timers due by `now`, in the order their events would run.
    pub fn advance(&mut self, now: Time) {
        if self.law != Law::Dcqcn {
            return;
        }
        loop {
            let due = [self.alpha_timer, self.decrease_timer, self.increase_timer]
                .into_iter()
                .enumerate()
                .filter_map(|(i, t)| t.filter(|&(at, _)| at <= now).map(|(at, set)| (at, set, i)))
                .min();
            match due {
                Some((at, _, 0)) => self.alpha_tick(at),
                Some((at, _, 1)) => self.decrease_tick(at),
                Some((at, _, _)) => self.increase_tick(at),
                None => return,
            }
        }
    }

    fn alpha_tick(&mut self, at: Time) {
        let d = &self.p.dcqcn;
        self.alpha_timer = Some((at + d.alpha_interval, at));
        self.alpha = if self.cnp_alpha {
            (1.0 - d.g) * self.alpha + d.g
        } else {
            (1.0 - d.g) * self.alpha
        };
        self.cnp_alpha = false;
    }

    fn decrease_tick(&mut self, at: Time) {
        let d = self.p.dcqcn;
        self.decrease_timer = Some((at + d.decrease_interval, at));
        if !self.cnp_dec {
            return;
        }
        if d.clamp_target || self.stage != 0 {
            self.target = self.rate;
        }
        self.set_rate(self.rate * (1.0 - self.alpha / 2.0));
        self.stage = 0;
        self.cnp_dec = false;
        self.increase_timer = Some((at + d.rp_timer, at));
    }

    fn increase_tick(&mut self, at: Time) {
        let d = self.p.dcqcn;
        self.increase_timer = Some((at + d.rp_timer, at));
        let line = self.p.line_bps as f64;
        if self.stage == d.fast_recovery {
            self.target = (self.target + self.p.ai_bps as f64).min(line).floor();
        } else if self.stage > d.fast_recovery {
            self.target = (self.target + self.p.hai_bps as f64).min(line).floor();
        }
        self.set_rate(self.rate / 2.0 + self.target / 2.0);
        self.stage += 1;
    }

    /// DCQCN: an ACK of a marked packet, a congestion notification. The first one starts
    /// the alpha and decrease timers (the decrease a nanosecond after the alpha update due
    /// at the same time).
    fn notified(&mut self, now: Time) {
        self.cnp_alpha = true;
        self.cnp_dec = true;
        if self.alpha_timer.is_none() {
            let d = &self.p.dcqcn;
            self.alpha = 1.0;
            self.cnp_alpha = false;
            self.alpha_timer = Some((now + d.alpha_interval, now));
            self.decrease_timer = Some((now + d.decrease_interval + Time::from_ns(1), now));
            self.target = self.rate;
        }
    }

    /// An ACK: `a.now` is its arrival (the timers due by then have run).
    pub fn on_ack(&mut self, a: &AckInfo) {
        match self.law {
            Law::Dcqcn => {
                if a.ecn {
                    self.notified(a.now);
                }
            }
            Law::Dctcp => self.dctcp_ack(a),
            Law::Timely => self.timely_ack(a),
        }
    }

    /// Whether the ACK ends a round: it covers a byte beyond the last round's end. The
    /// first ACK only starts the first round (returns `None`).
    fn new_round(&mut self, a: &AckInfo) -> Option<bool> {
        if a.snd_una <= self.round_end {
            return Some(false);
        }
        let first = self.round_end == 0;
        self.round_end = a.snd_nxt;
        (!first).then_some(true)
    }

    fn dctcp_ack(&mut self, a: &AckInfo) {
        self.marked += a.ecn as u64;
        let mss = self.p.mss_bytes;
        let round = match self.new_round(a) {
            None => {
                self.batch = a.snd_nxt / mss + 1;
                true
            }
            Some(true) => {
                let g = self.p.dctcp_g;
                let f = (self.marked as f64 / self.batch as f64).min(1.0);
                self.alpha = (1.0 - g) * self.alpha + g * f;
                self.marked = 0;
                self.batch = (a.snd_nxt - a.snd_una) / mss + 1;
                true
            }
            Some(false) => false,
        };
        if self.cwr_end.is_some_and(|end| a.snd_una > end) {
            self.cwr_end = None;
        }
        if a.ecn && self.cwr_end.is_none() {
            self.set_rate(self.rate * (1.0 - self.alpha / 2.0));
            self.cwr_end = Some(a.snd_nxt);
        } else if self.cwr_end.is_none() && round {
            self.set_rate(self.rate + self.p.dctcp_ai_bps as f64);
        }
    }

    fn timely_ack(&mut self, a: &AckInfo) {
        let t = self.p.timely;
        let rtt = a.rtt_ps;
        match self.new_round(a) {
            Some(true) => {}
            None => {
                self.last_rtt = Some(rtt);
                return;
            }
            Some(false) => return,
        }
        let last = self.last_rtt.replace(rtt).unwrap_or(rtt);
        let change = rtt.as_ps_f64() - last.as_ps_f64();
        self.rtt_diff = (1.0 - t.alpha) * self.rtt_diff + t.alpha * change;
        let gradient = self.rtt_diff / t.min_rtt.as_ps_f64();
        if rtt < t.t_low || (rtt <= t.t_high && gradient <= 0.0) {
            let step = if self.stage < 5 {
                self.p.ai_bps
            } else {
                self.p.hai_bps
            };
            self.stage += 1;
            self.set_rate(self.rate + step as f64);
        } else if rtt > t.t_high {
            self.stage = 0;
            let cut = 1.0 - t.beta * (1.0 - t.t_high.as_ps_f64() / rtt.as_ps_f64());
            self.set_rate(self.rate * cut);
        } else {
            self.stage = 0;
            self.set_rate(self.rate * (1.0 - t.beta * gradient).max(0.0));
        }
    }
}

/// Losses do not move the rate (a NACK's mark does, as an ACK's: the sender passes it on as
/// an ACK); a timeout neither.
impl CongestionControl for RateCc {
    fn window(&self) -> u64 {
        self.window()
    }

    fn on_ack(&mut self, a: &AckInfo) {
        self.on_ack(a);
    }

    fn on_loss(&mut self, _: u64, _: u64, _: Time) {}

    fn on_packet_timeout(&mut self, _: u64) {}

    fn advance(&mut self, now: Time) {
        self.advance(now);
    }

    fn rate_bps(&self) -> Option<u64> {
        Some(self.rate_bps())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const G: u64 = 1_000_000_000;

    fn params(window: RateWindow) -> RateParams {
        RateParams {
            line_bps: 100 * G,
            min_bps: G / 10,
            ai_bps: 50_000_000,
            hai_bps: 100_000_000,
            dctcp_ai_bps: G,
            dctcp_g: 1.0 / 16.0,
            window,
            window_bytes: 156_000,
            mss_bytes: 1000,
            dcqcn: DcqcnParams {
                g: 1.0 / 256.0,
                alpha_interval: Time::from_us(1),
                decrease_interval: Time::from_us(4),
                rp_timer: Time::from_us(900),
                fast_recovery: 1,
                clamp_target: false,
            },
            timely: TimelyParams::PAPER,
        }
    }

    fn ack(now: Time, ecn: bool, una: u64, nxt: u64) -> AckInfo {
        AckInfo {
            bytes: 1000,
            ecn,
            rtt_ps: Time::from_us(10),
            window_done: false,
            inflight: nxt - una,
            now,
            snd_una: una,
            snd_nxt: nxt,
        }
    }

    fn us(x: u64) -> Time {
        Time::from_us(x)
    }

    /// DCQCN by hand: a notification at 10 us starts the timers; alpha stays 1 at its first
    /// update (no notification since), so the cut at 14 us + 1 ns halves the rate; the
    /// increase timer, 900 us later, takes the rate halfway back to the target (fast
    /// recovery), and the next one, stage F = 1, raises the target by AI first.
    #[test]
    fn dcqcn_cuts_by_alpha_and_recovers_on_its_timers() {
        let mut c = RateCc::new(&params(RateWindow::Off), Law::Dcqcn);
        c.advance(us(10));
        c.on_ack(&ack(us(10), true, 1000, 2000));
        assert_eq!(c.rate_bps(), 100 * G, "the first notification does not cut");
        c.advance(us(14));
        assert_eq!(
            c.rate_bps(),
            100 * G,
            "the cut comes a nanosecond after 14 us"
        );
        // Alpha at 11, 12, 13, 14 us without notifications: (1 - g)^4.
        let alpha = (1.0f64 - 1.0 / 256.0).powi(4);
        c.advance(us(14) + Time::from_ns(1));
        let cut = (100e9 * (1.0 - alpha / 2.0)).floor();
        assert_eq!(c.rate_bps(), cut as u64);
        // No notification since: later decrease ticks change nothing.
        c.advance(us(500));
        assert_eq!(c.rate_bps(), cut as u64);
        let t0 = us(14) + Time::from_ns(1);
        c.advance(t0 + us(900));
        let r1 = (cut / 2.0 + 100e9 / 2.0).floor();
        assert_eq!(
            c.rate_bps(),
            r1 as u64,
            "fast recovery: halfway to the target"
        );
        c.advance(t0 + us(1800));
        // Stage 1 = F: the target rises by AI, capped at line rate.
        let r2 = (r1 / 2.0 + 100e9 / 2.0).floor();
        assert_eq!(c.rate_bps(), r2 as u64);
    }

    /// Notifications keep coming: one cut per decrease interval, never below the floor.
    #[test]
    fn dcqcn_cuts_once_per_interval_down_to_the_floor() {
        let mut c = RateCc::new(&params(RateWindow::Off), Law::Dcqcn);
        let mut now = us(1);
        let mut rates = vec![];
        for _ in 0..20_000 {
            c.advance(now);
            c.on_ack(&ack(now, true, 1000, 2000));
            rates.push(c.rate_bps());
            now += Time::from_ns(500);
        }
        // 10 ms of notifications every 0.5 us: 2,500 intervals, each a cut.
        assert_eq!(*rates.last().unwrap(), G / 10, "the floor holds");
        let cuts = rates.windows(2).filter(|w| w[1] < w[0]).count();
        assert!((10..=2500).contains(&cuts), "{cuts} cuts");
        // Between two cuts at least one decrease interval (8 samples) passes.
        let at: Vec<usize> = (1..rates.len())
            .filter(|&i| rates[i] < rates[i - 1])
            .collect();
        assert!(at.windows(2).all(|w| w[1] - w[0] >= 8), "{at:?}");
    }

    /// Timers due at the same time run in the order they were set.
    #[test]
    fn timers_due_together_run_in_the_order_they_were_set() {
        let mut p = params(RateWindow::Off);
        // An increase period that is a multiple of the decrease one: its expiry coincides
        // with a decrease tick; the increase (set at the cut) runs first.
        p.dcqcn.rp_timer = us(8);
        let mut c = RateCc::new(&p, Law::Dcqcn);
        c.on_ack(&ack(us(0), true, 1000, 2000));
        c.advance(us(4) + Time::from_ns(1));
        let cut = c.rate_bps();
        assert!(cut < 100 * G);
        // At 12 us + 1 ns the increase is due with a decrease tick; a notification before
        // makes that decrease cut again, after the increase.
        c.advance(us(12));
        c.on_ack(&ack(us(12), true, 1000, 2000));
        c.advance(us(12) + Time::from_ns(1));
        let up = (cut as f64 / 2.0 + 100e9 / 2.0).floor();
        let alpha = c.alpha;
        // The increase set stage 1; the decrease then clamps the target to the rate and cuts.
        assert_eq!(c.target as u64, up as u64);
        assert_eq!(c.rate_bps(), (up * (1.0 - alpha / 2.0)).floor() as u64);
    }

    /// The window follows the rate and is one packet less a byte larger in the sender's
    /// terms: the sender may send while fewer than the window's bytes are in flight.
    #[test]
    fn the_scaled_window_follows_the_rate() {
        let mut c = RateCc::new(&params(RateWindow::Scaled), Law::Dcqcn);
        assert_eq!(c.window(), 156_000 + 999);
        c.rate = 25e9;
        assert_eq!(c.window(), 39_000 + 999);
        let f = RateCc::new(&params(RateWindow::Fixed), Law::Dcqcn);
        assert_eq!(f.window(), 156_999);
        let o = RateCc::new(&params(RateWindow::Off), Law::Dcqcn);
        assert_eq!(o.window(), u64::MAX);
    }

    /// DCTCP over RoCE: a marked ACK cuts by alpha (1 at first) once per cut-back period;
    /// new rounds outside one add the increase.
    #[test]
    fn dctcp_cuts_once_per_round_and_adds_per_round() {
        let mut c = RateCc::new(&params(RateWindow::Off), Law::Dctcp);
        c.on_ack(&ack(us(1), false, 1000, 10_000));
        assert_eq!(c.rate_bps(), 100 * G, "the first round starts at line rate");
        c.on_ack(&ack(us(2), true, 2000, 11_000));
        assert_eq!(c.rate_bps(), 50 * G, "alpha 1 halves");
        c.on_ack(&ack(us(3), true, 3000, 12_000));
        assert_eq!(
            c.rate_bps(),
            50 * G,
            "one cut until the data sent by then is ACKed"
        );
        // Past 10,000 a new round: alpha = 15/16 + 1/16 * 2/11, not cutting (the mark count
        // restarts) and out of cut-back once past 11,000.
        c.on_ack(&ack(us(4), false, 11_000, 20_000));
        let alpha = 15.0 / 16.0 + (2.0 / 11.0) / 16.0;
        assert!((c.alpha - alpha).abs() < 1e-12);
        assert_eq!(c.rate_bps(), 50 * G, "still cutting back until past 11,000");
        c.on_ack(&ack(us(5), false, 20_001, 30_000));
        assert_eq!(c.rate_bps(), 51 * G, "a new round outside cut-back adds");
    }

    /// Timely: below t_low it adds AI five times, then HAI; above t_high it cuts.
    #[test]
    fn timely_follows_the_rtt() {
        let mut c = RateCc::new(&params(RateWindow::Off), Law::Timely);
        c.set_rate(50e9);
        let mut a = ack(us(1), false, 1000, 2000);
        c.on_ack(&a);
        // Seven rounds, each ACK covering a byte past the last round's end.
        for _ in 0..7 {
            a.snd_una = a.snd_nxt + 1;
            a.snd_nxt = a.snd_una + 1000;
            c.on_ack(&a);
        }
        let expect: f64 = 50e9 + 5.0 * 50e6 + 2.0 * 100e6;
        assert_eq!(c.rate_bps(), expect as u64);
        a.rtt_ps = us(1000);
        a.snd_una = a.snd_nxt + 1;
        a.snd_nxt += 2000;
        c.on_ack(&a);
        let cut = (expect * (1.0 - 0.8 * (1.0 - 0.5))).floor();
        assert_eq!(c.rate_bps(), cut as u64);
    }
}

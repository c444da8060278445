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
//! - **HPCC** (Li et al., SIGCOMM 2019): every switch a data packet leaves stamps its
//!   telemetry ([`IntHop`]: time, bytes sent, queue, rate), its ACK echoes it, and on every
//!   ACK the sender estimates each hop's utilization against the previous ACK's stamps
//!   (rate over line rate plus the queue over a window), takes the busiest, smooths it over
//!   the base RTT, and sets `R = Rc / (u / eta) + ai` (`Rc` the rate at the last update,
//!   once per round; in between the rate follows without moving `Rc`: fast reaction).
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

/// One switch hop's telemetry as HPCC's INT header carries it: when the packet left, the
/// bytes the port had sent before it (in units of 128 B), the bytes queued there (units of
/// 80 B), and the port's rate. Units and widths are the reference's (`int-header.h`): the
/// time wraps at 2^24 ns, the bytes at 2^20 units.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IntHop {
    ns: u32,
    bytes: u32,
    qlen: u32,
    /// Mb/s.
    rate_mbps: u32,
}

/// The hop records an INT header holds (a path of more switches overwrites the first).
pub const INT_HOPS: usize = 5;

impl IntHop {
    const TIME_WRAP: u32 = 1 << 24;
    const BYTES_WRAP: u32 = 1 << 20;
    const BYTE_UNIT: u64 = 128;
    const QLEN_UNIT: u64 = 80;

    /// A hop's stamp: the packet left at `at` after `tx_bytes` sent, with `qlen` bytes queued.
    pub fn new(at: Time, tx_bytes: u64, qlen: u64, rate_bps: u64) -> Self {
        IntHop {
            ns: (at.ps() / 1000) as u32 % Self::TIME_WRAP,
            bytes: (tx_bytes / Self::BYTE_UNIT) as u32 % Self::BYTES_WRAP,
            qlen: (qlen / Self::QLEN_UNIT).min(u32::MAX as u64) as u32,
            rate_mbps: (rate_bps / 1_000_000) as u32,
        }
    }

    fn ns_since(&self, before: &IntHop) -> u64 {
        (self.ns.wrapping_sub(before.ns) % Self::TIME_WRAP) as u64
    }

    fn bytes_since(&self, before: &IntHop) -> u64 {
        (self.bytes.wrapping_sub(before.bytes) % Self::BYTES_WRAP) as u64 * Self::BYTE_UNIT
    }

    fn qlen_bytes(&self) -> u64 {
        self.qlen as u64 * Self::QLEN_UNIT
    }

    fn rate_bps(&self) -> f64 {
        self.rate_mbps as f64 * 1e6
    }
}

/// HPCC's constants (`host.hpcc_*`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HpccParams {
    /// Target utilization eta (U_TARGET).
    pub eta: f64,
    /// Additive-increase stages before a multiplicative step (MI_THRESH).
    pub mi_thresh: u32,
    /// React on every ACK, not only once per round (FAST_REACT).
    pub fast_react: bool,
    /// The smoothing period T: the base RTT.
    pub base_rtt: Time,
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
    pub hpcc: HpccParams,
}

/// The law that sets the rate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Law {
    Dcqcn,
    Dctcp,
    Timely,
    Hpcc,
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
    /// HPCC: the last ACK's hop records (boxed: the other laws keep none).
    hops: Option<Box<[IntHop; INT_HOPS]>>,
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
            hops: None,
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
        debug_assert!(!r.is_nan(), "a rate is a number");
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
            Law::Hpcc => self.hpcc_ack(a),
        }
    }

    /// HPCC on an ACK: `alpha` holds the smoothed utilization u (from 1), `target` the
    /// reference rate Rc, `stage` the increase stage, `round_end` the last update's bytes
    /// sent (0 before the first ACK, which only keeps its stamps).
    fn hpcc_ack(&mut self, a: &AckInfo) {
        let h = self.p.hpcc;
        let n = a.int.len().min(INT_HOPS);
        let Some(prev) = self.hops.as_mut() else {
            let mut hops = Box::new([IntHop::default(); INT_HOPS]);
            hops[..n].copy_from_slice(&a.int[..n]);
            self.hops = Some(hops);
            self.round_end = a.snd_nxt;
            return;
        };
        let full = a.snd_una > self.round_end;
        if !full && !h.fast_react {
            return;
        }
        let w = self.p.window_bytes as f64;
        let (mut busiest, mut dt) = (0.0f64, 0u64);
        for (new, old) in a.int[..n].iter().zip(prev.iter_mut()) {
            let tau = new.ns_since(old);
            if tau == 0 {
                // Two stamps of one nanosecond (packets sprayed over several paths: hop i
                // of two packets is then not one port) give no rate.
                *old = *new;
                continue;
            }
            let tx = new.bytes_since(old) as f64 * 8.0 / (tau as f64 * 1e-9);
            let queue = new.qlen_bytes().min(old.qlen_bytes()) as f64;
            let u = tx / new.rate_bps() + queue * self.p.line_bps as f64 / new.rate_bps() / w;
            if u > busiest {
                (busiest, dt) = (u, tau);
            }
            *old = *new;
        }
        if n == 0 {
            return;
        }
        let t = (h.base_rtt.ps() / 1000).max(1);
        let dt = dt.min(t);
        self.alpha = (self.alpha * (t - dt) as f64 + busiest * dt as f64) / t as f64;
        let k = self.alpha / h.eta;
        let ai = self.p.ai_bps as f64;
        let (rate, stage) = if k >= 1.0 || self.stage >= h.mi_thresh {
            ((self.target / k).floor() + ai, 0)
        } else {
            (self.target + ai, self.stage + 1)
        };
        self.set_rate(rate);
        if full {
            self.target = self.rate;
            self.stage = stage;
            self.round_end = a.snd_nxt;
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
            hpcc: HpccParams {
                eta: 0.95,
                mi_thresh: 0,
                fast_react: true,
                base_rtt: Time::from_ns(12_480),
            },
        }
    }

    fn ack(now: Time, ecn: bool, una: u64, nxt: u64) -> AckInfo<'static> {
        AckInfo {
            bytes: 1000,
            ecn,
            rtt_ps: Time::from_us(10),
            window_done: false,
            inflight: nxt - una,
            now,
            snd_una: una,
            snd_nxt: nxt,
            int: &[],
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

    /// HPCC by hand: the first ACK keeps its stamps; the next, a round later, finds its one
    /// hop sent 97 units of 128 B in 1 us at 100 Gb/s (99.3% busy) with no queue: u moves
    /// from 1 toward 0.993 by dt / T, still above eta, and the rate is Rc / (u / eta) + AI.
    /// A queue of 10 KB on two ACKs in a row then adds 10 KB over the window to the hop's u.
    #[test]
    fn hpcc_sets_the_rate_from_the_hops_utilization() {
        let mut c = RateCc::new(&params(RateWindow::Scaled), Law::Hpcc);
        let hop = |ns: u64, bytes: u64, q: u64| IntHop::new(Time::from_ns(ns), bytes, q, 100 * G);
        let first = [hop(0, 0, 0)];
        let mut a = ack(us(20), false, 1000, 50_000);
        a.int = &first;
        c.on_ack(&a);
        assert_eq!(c.rate_bps(), 100 * G, "the first ACK only keeps its stamps");
        let second = [hop(1000, 12_500, 0)];
        let mut b = ack(us(21), false, 50_001, 60_000);
        b.int = &second;
        c.on_ack(&b);
        let t = 12_480.0;
        let busy = 97.0 * 128.0 * 8.0 / 1e-6 / 100e9;
        let u = (t - 1000.0 + busy * 1000.0) / t;
        assert!((c.alpha - u).abs() < 1e-12, "u = {} against {u}", c.alpha);
        // u stays above eta (0.95): the rate is cut to Rc / (u / eta) + AI.
        let r = (100e9 / (u / 0.95)).floor() + 50e6;
        assert_eq!(c.rate_bps(), r as u64);
        let third = [hop(2000, 25_000, 10_000)];
        let mut d = ack(us(22), false, 50_002, 60_000);
        d.int = &third;
        c.on_ack(&d);
        // A fast reaction (no new round): the queue term is min(10 KB, 0) = 0 here; the
        // fourth ACK sees 10 KB on both.
        let fourth = [hop(3000, 37_500, 10_000)];
        let mut e = ack(us(23), false, 60_001, 70_000);
        e.int = &fourth;
        c.on_ack(&e);
        // Third ACK: 98 units sent, the queue term min(10 KB, 0) = 0; fourth: 97 units and
        // min(10 KB, 10 KB) over the 156 KB window.
        let busy3 = 98.0 * 128.0 * 8.0 / 1e-6 / 100e9;
        let u3 = (u * (t - 1000.0) + busy3 * 1000.0) / t;
        let q = 10_000.0 / 156_000.0;
        let u4 = (u3 * (t - 1000.0) + (busy + q) * 1000.0) / t;
        assert!((c.alpha - u4).abs() < 1e-12, "u = {} against {u4}", c.alpha);
    }

    /// A stamp keeps the reference's units and widths: time in ns modulo 2^24, bytes in
    /// 128 B units modulo 2^20, the queue in 80 B units; differences wrap.
    #[test]
    fn int_stamps_wrap_as_the_reference_does() {
        let a = IntHop::new(Time::from_ns((1 << 24) - 10), (1 << 27) - 128, 799, 100 * G);
        let b = IntHop::new(Time::from_ns((1 << 24) + 20), (1 << 27) + 256, 800, 100 * G);
        assert_eq!(b.ns_since(&a), 30);
        assert_eq!(b.bytes_since(&a), 3 * 128);
        assert_eq!((a.qlen_bytes(), b.qlen_bytes()), (720, 800));
    }
}

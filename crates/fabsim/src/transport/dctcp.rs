//! DCTCP (Alizadeh et al., SIGCOMM 2010; RFC 8257), as Fastroute's simulations and the Ofan
//! paper's section 6.5 use it.
//!
//! Per observation window (one window of data, about one round trip): the fraction F of
//! acknowledged bytes that carried ECN updates `alpha <- (1 - g) alpha + g F`. The first
//! marked ACK of a window cuts `cwnd <- cwnd (1 - alpha / 2)` (floor: one MSS) and ends slow
//! start; unmarked ACKs grow the window, by the acknowledged bytes in slow start and by
//! `mss * bytes / cwnd` (one MSS per window) in congestion avoidance.
//!
//! `host.dctcp_rules = "netbench"` runs it as Netbench's NewReno-based DCTCP does: alpha
//! starts at 0, *every* marked ACK cuts `cwnd <- max(mss, cwnd (1 - alpha / 2))` and sets
//! ssthresh to the result (at least 2 MSS); a timeout sets ssthresh to half the flight (at
//! least 2 MSS) and the window to one MSS; a fast retransmit halves the flight into ssthresh
//! and the window. The initial ssthresh and a window cap are keys of their own
//! (`host.ssthresh_bytes`, `host.max_window_bytes`; Netbench: 30 MSS and 65,535 B).
//!
//! `host.dctcp_rules = "htsim"` runs it as htsim's UEC sources do (`uec.cpp`,
//! `-sender_cc_algo dctcp`, the transport the Ofan paper's spraying runs use): no alpha; each
//! marked ACK takes a third of the bytes it acknowledges off the window, each unmarked one
//! adds `mss * bytes / cwnd` (one MSS per window), a NACK takes the trimmed packet's bytes
//! off; the window stays between one MSS and its start (the cap, `host.max_window_bytes`,
//! defaults to the initial window), and a timeout leaves it as it is.

use super::{AckInfo, CongestionControl};
use crate::engine::Time;

named_enum! {
    /// How DCTCP reacts (`host.dctcp_rules`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum DctcpRules {
        /// RFC 8257: alpha starts at 1, one cut per window, a loss halves once per window.
        Rfc8257 => "rfc8257",
        /// Netbench's NewReno DCTCP (module docs).
        Netbench => "netbench",
        /// htsim's UEC DCTCP (module docs).
        Htsim => "htsim",
    }
}

named_enum! {
    /// Where DCTCP's first observation window ends (`host.dctcp_first_window`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum FirstWindow {
        /// At the first ACK, as RFC 8257's `WindowEnd = SND.NXT` at the start reads (and fabsim
        /// did before): a mark on it and another in the next window cut twice in the first RTT.
        FirstAck => "first-ack",
        /// A round trip later: the first ACK opens the first window, the ACK of a packet sent
        /// after it closes it.
        RoundTrip => "round-trip",
    }
}

/// DCTCP's parameters (`host.dctcp_*`, `host.ssthresh_bytes`, `host.max_window_bytes`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DctcpParams {
    pub rules: DctcpRules,
    /// EWMA gain g.
    pub g: f64,
    /// Initial slow start threshold (`None`: slow start until the first signal).
    pub ssthresh_bytes: Option<u64>,
    /// Cap on the window (`None`: none).
    pub max_window_bytes: Option<u64>,
    pub first_window: FirstWindow,
}

#[derive(Clone, Debug)]
pub struct Dctcp {
    cwnd: f64,
    ssthresh: f64,
    alpha: f64,
    g: f64,
    mss: f64,
    acked_bytes: u64,
    marked_bytes: u64,
    cut_this_window: bool,
    rules: DctcpRules,
    max_wnd: f64,
}

impl Dctcp {
    pub fn new(init_window_bytes: u64, mss_bytes: u64, p: &DctcpParams) -> Self {
        let max_wnd = match (p.max_window_bytes, p.rules) {
            (Some(w), _) => w as f64,
            // htsim's sources start at their maximum window.
            (None, DctcpRules::Htsim) => init_window_bytes.max(mss_bytes) as f64,
            (None, _) => f64::INFINITY,
        };
        Self {
            cwnd: (init_window_bytes.max(mss_bytes) as f64).min(max_wnd),
            ssthresh: p.ssthresh_bytes.map_or(f64::INFINITY, |b| b as f64),
            // RFC 8257: alpha starts at 1, so the first mark halves the window.
            alpha: match p.rules {
                DctcpRules::Rfc8257 => 1.0,
                DctcpRules::Netbench | DctcpRules::Htsim => 0.0,
            },
            g: p.g,
            mss: mss_bytes as f64,
            acked_bytes: 0,
            marked_bytes: 0,
            cut_this_window: false,
            rules: p.rules,
            max_wnd,
        }
    }

    pub fn window(&self) -> u64 {
        self.cwnd as u64
    }

    /// The retransmission timer fired with `inflight` bytes presumed lost.
    pub fn on_timeout(&mut self, inflight: u64, now: Time) {
        match self.rules {
            DctcpRules::Rfc8257 => self.on_loss(inflight, now),
            DctcpRules::Netbench => {
                self.ssthresh = (inflight as f64 / 2.0).max(2.0 * self.mss);
                self.cwnd = self.mss;
            }
            DctcpRules::Htsim => {}
        }
    }

    /// Takes `bytes` off the window, to no less than one MSS.
    pub fn shrink(&mut self, bytes: u64) {
        self.cwnd = (self.cwnd - bytes as f64).max(self.mss);
    }

    pub fn alpha(&self) -> f64 {
        self.alpha
    }

    /// A loss (NACK of a trimmed packet) is a congestion signal as strong as a mark: cut
    /// once per window, like TCP's fast recovery.
    pub fn on_loss(&mut self, bytes: u64, _now: Time) {
        match self.rules {
            DctcpRules::Netbench => {
                // NewReno's fast retransmit (without the window inflation of fast recovery).
                self.ssthresh = (self.cwnd / 2.0).max(2.0 * self.mss);
                self.cwnd = self.ssthresh;
                return;
            }
            DctcpRules::Htsim => {
                self.cwnd = (self.cwnd - bytes as f64).max(self.mss);
                return;
            }
            DctcpRules::Rfc8257 => {}
        }
        if !self.cut_this_window {
            self.cwnd = (self.cwnd / 2.0).max(self.mss);
            self.ssthresh = self.cwnd;
            self.cut_this_window = true;
        }
    }

    pub fn on_ack(&mut self, bytes: u64, ecn: bool, window_done: bool) {
        if self.rules == DctcpRules::Htsim {
            return self.on_ack_htsim(bytes, ecn);
        }
        self.acked_bytes += bytes;
        if ecn {
            self.marked_bytes += bytes;
            if self.rules == DctcpRules::Netbench {
                self.cwnd = (self.cwnd * (1.0 - self.alpha / 2.0)).max(self.mss);
                self.ssthresh = self.cwnd.max(2.0 * self.mss);
            } else if !self.cut_this_window {
                self.cwnd = (self.cwnd * (1.0 - self.alpha / 2.0)).max(self.mss);
                self.ssthresh = self.cwnd;
                self.cut_this_window = true;
            }
        } else if self.cwnd < self.ssthresh {
            self.cwnd += bytes as f64;
        } else {
            self.cwnd += self.mss * bytes as f64 / self.cwnd;
        }
        self.cwnd = self.cwnd.min(self.max_wnd);
        if window_done {
            let f = self.marked_bytes as f64 / self.acked_bytes.max(1) as f64;
            self.alpha = (1.0 - self.g) * self.alpha + self.g * f;
            self.acked_bytes = 0;
            self.marked_bytes = 0;
            self.cut_this_window = false;
        }
    }
}

impl Dctcp {
    fn on_ack_htsim(&mut self, bytes: u64, ecn: bool) {
        let b = bytes as f64;
        self.cwnd = if ecn {
            (self.cwnd - b / 3.0).max(self.mss)
        } else {
            (self.cwnd + self.mss * b / self.cwnd).min(self.max_wnd)
        };
    }
}

impl CongestionControl for Dctcp {
    fn window(&self) -> u64 {
        self.window()
    }

    fn on_ack(&mut self, a: &AckInfo) {
        self.on_ack(a.bytes, a.ecn, a.window_done);
    }

    fn on_loss(&mut self, bytes: u64, _inflight: u64, now: Time) {
        self.on_loss(bytes, now);
    }

    fn on_timeout(&mut self, bytes: u64, now: Time) {
        self.on_timeout(bytes, now);
    }

    fn on_packet_timeout(&mut self, bytes: u64) {
        self.shrink(bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RFC: DctcpParams = DctcpParams {
        rules: DctcpRules::Rfc8257,
        g: 1.0 / 16.0,
        ssthresh_bytes: None,
        max_window_bytes: None,
        first_window: FirstWindow::RoundTrip,
    };

    #[test]
    fn first_mark_halves_then_alpha_tracks_the_marked_fraction() {
        let mut d = Dctcp::new(100_000, 1_000, &RFC);
        d.on_ack(1_000, true, false);
        assert_eq!(d.window(), 50_000);
        // A second mark in the same window does not cut again.
        d.on_ack(1_000, true, false);
        assert_eq!(d.window(), 50_000);
        // Close the window: 2 of 4 KB marked, F = 0.5.
        d.on_ack(1_000, false, false);
        d.on_ack(1_000, false, true);
        assert!((d.alpha() - (15.0 / 16.0 + 0.5 / 16.0)).abs() < 1e-12);
    }

    #[test]
    fn unmarked_acks_grow_the_window() {
        let mut d = Dctcp::new(10_000, 1_000, &RFC);
        d.on_ack(1_000, false, false);
        assert_eq!(d.window(), 11_000, "slow start: + acked bytes");
        d.on_ack(1_000, true, true);
        let w = d.window() as f64;
        d.on_ack(1_000, false, false);
        let grown = d.window() as f64 - w;
        assert!(
            (grown - 1_000.0 * 1_000.0 / w).abs() < 1.0,
            "congestion avoidance: {grown}"
        );
    }

    #[test]
    fn netbench_rules_cut_on_every_mark_and_restart_from_one_mss_after_a_timeout() {
        let p = DctcpParams {
            rules: DctcpRules::Netbench,
            ssthresh_bytes: Some(30_000),
            max_window_bytes: Some(65_535),
            ..RFC
        };
        let mut d = Dctcp::new(3_000, 1_000, &p);
        // Slow start to ssthresh, then congestion avoidance up to the cap, never past it.
        for _ in 0..3_000 {
            d.on_ack(1_000, false, false);
        }
        assert_eq!(d.window(), 65_535);
        // alpha = 0: marks do not cut until a window raised it.
        d.on_ack(1_000, false, true);
        d.on_ack(1_000, true, true);
        assert_eq!(d.window(), 65_535);
        let a = d.alpha();
        assert!((a - 1.0 / 16.0).abs() < 1e-12, "{a}");
        d.on_ack(1_000, true, false);
        let once = d.window();
        d.on_ack(1_000, true, false);
        assert!(d.window() < once, "a second mark in the window cuts again");
        d.on_timeout(40_000, Time::ZERO);
        assert_eq!(d.window(), 1_000);
        // Slow start again up to ssthresh = 20 KB, then one MSS per window.
        for _ in 0..19 {
            d.on_ack(1_000, false, false);
        }
        assert_eq!(d.window(), 20_000);
        d.on_ack(1_000, false, false);
        assert_eq!(d.window(), 20_050);
    }

    #[test]
    fn htsim_rules_cut_a_third_of_each_marked_ack_and_never_pass_the_start() {
        let p = DctcpParams {
            rules: DctcpRules::Htsim,
            ..RFC
        };
        let mut d = Dctcp::new(10_000, 1_000, &p);
        d.on_ack(1_000, false, true);
        assert_eq!(d.window(), 10_000, "the initial window is the cap");
        d.on_ack(3_000, true, false);
        assert_eq!(d.window(), 9_000);
        d.on_ack(3_000, true, false);
        assert_eq!(
            d.window(),
            8_000,
            "every marked ACK cuts, no once-per-window rule"
        );
        d.on_ack(1_000, false, false);
        assert_eq!(d.window(), 8_125, "one MSS per window");
        d.on_loss(4_000, Time::ZERO);
        assert_eq!(d.window(), 4_125, "a NACK takes its bytes off");
        d.on_timeout(4_000, Time::ZERO);
        assert_eq!(d.window(), 4_125, "a timeout leaves the window");
        for _ in 0..30 {
            d.on_ack(3_000, true, false);
        }
        assert_eq!(d.window(), 1_000, "floor: one MSS");
    }
}

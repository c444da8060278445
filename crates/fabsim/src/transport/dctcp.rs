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
//! `host.dctcp_rules = "htsim"` runs it as htsim's `DCTCPSrc` over its `TcpSrc` does: alpha
//! starts at 0 and is updated once the ACKs since the last update cover the window of then
//! (the first after two packets); at each update with alpha > 0 the window is cut by
//! `1 - alpha / 2` (floor: one MSS) and ssthresh follows it, marked or not. A marked ACK
//! only ends slow start (ssthresh <- cwnd); every ACK grows the window as NewReno does (in
//! slow start up to ssthresh). A fast retransmit sets ssthresh to half the window (at least
//! 2 MSS) and the window to it; a timeout does the same to ssthresh and restarts from one
//! MSS.

use crate::engine::Time;

/// How DCTCP reacts (`host.dctcp_rules`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DctcpRules {
    /// RFC 8257: alpha starts at 1, one cut per window, a loss halves once per window.
    Rfc8257,
    /// Netbench's NewReno DCTCP (module docs).
    Netbench,
    /// htsim's DCTCP (module docs).
    Htsim,
}

impl DctcpRules {
    pub const ALL: [DctcpRules; 3] = [DctcpRules::Rfc8257, DctcpRules::Netbench, DctcpRules::Htsim];

    pub fn name(self) -> &'static str {
        match self {
            DctcpRules::Rfc8257 => "rfc8257",
            DctcpRules::Netbench => "netbench",
            DctcpRules::Htsim => "htsim",
        }
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
    /// htsim: the window at the last alpha update (the ACKed bytes that close the next).
    past_cwnd: f64,
}

impl Dctcp {
    pub fn new(init_window_bytes: u64, mss_bytes: u64, p: &DctcpParams) -> Self {
        let max_wnd = p.max_window_bytes.map_or(f64::INFINITY, |w| w as f64);
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
            past_cwnd: 2.0 * mss_bytes as f64,
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
            DctcpRules::Htsim => {
                self.on_loss(inflight, now);
                self.cwnd = self.mss;
            }
        }
    }

    pub fn alpha(&self) -> f64 {
        self.alpha
    }

    /// A loss (NACK of a trimmed packet) is a congestion signal as strong as a mark: cut
    /// once per window, like TCP's fast recovery.
    pub fn on_loss(&mut self, _bytes: u64, _now: Time) {
        if self.rules != DctcpRules::Rfc8257 {
            // NewReno's fast retransmit (without the window inflation of fast recovery).
            self.ssthresh = (self.cwnd / 2.0).max(2.0 * self.mss);
            self.cwnd = self.ssthresh;
            if self.rules == DctcpRules::Htsim {
                // deflate_window: a new observation window from here.
                self.past_cwnd = self.cwnd;
                self.acked_bytes = 0;
                self.marked_bytes = 0;
            }
            return;
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
        self.acked_bytes += bytes;
        if ecn {
            self.marked_bytes += bytes;
            self.ssthresh = self.ssthresh.min(self.cwnd);
        }
        if self.acked_bytes as f64 >= self.past_cwnd {
            let f = self.marked_bytes as f64 / self.acked_bytes as f64;
            self.alpha = (1.0 - self.g) * self.alpha + self.g * f;
            self.acked_bytes = 0;
            self.marked_bytes = 0;
            if self.alpha > 0.0 {
                self.cwnd = (self.cwnd * (1.0 - self.alpha / 2.0)).max(self.mss);
                self.ssthresh = self.cwnd;
            }
            self.past_cwnd = self.cwnd;
        }
        // TcpSrc: slow start up to ssthresh, then one MSS per window.
        if self.cwnd < self.ssthresh {
            self.cwnd = (self.cwnd + bytes as f64).min(self.ssthresh);
        } else {
            self.cwnd += self.mss * bytes as f64 / self.cwnd;
        }
        self.cwnd = self.cwnd.min(self.max_wnd);
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
    fn htsim_rules_cut_once_per_window_while_alpha_lasts_and_marks_only_end_slow_start() {
        let p = DctcpParams {
            rules: DctcpRules::Htsim,
            ..RFC
        };
        let mut d = Dctcp::new(10_000, 1_000, &p);
        // A marked ACK in slow start does not cut: it ends slow start, and the window still
        // grows (congestion avoidance now).
        d.on_ack(1_000, true, false);
        assert!(d.window() > 10_000 && d.window() < 10_200, "{}", d.window());
        // The second ACK closes the first window (two packets): F = 1/2, alpha = 1/32, cut.
        let before = d.window() as f64;
        d.on_ack(1_000, false, false);
        let a = d.alpha();
        assert!((a - 0.5 / 16.0).abs() < 1e-12, "{a}");
        let cut = before * (1.0 - a / 2.0);
        assert!((d.window() as f64 - (cut + 1_000.0 * 1_000.0 / cut)).abs() < 1.0);
        // Unmarked windows keep cutting while alpha decays above 0.
        let w = d.window();
        for _ in 0..11 {
            d.on_ack(1_000, false, false);
        }
        assert!(d.alpha() < a, "alpha decays");
        // Eleven ACKs of congestion avoidance add about 11 * 1000^2 / w; the cut at the
        // window's end takes about alpha / 2 of w (> 100 B) back.
        let grown = 11.0 * 1e6 / w as f64;
        assert!(
            (d.window() as f64) < w as f64 + grown - 100.0,
            "still cut: {} from {w}",
            d.window()
        );
        // A timeout halves ssthresh and restarts from one MSS.
        d.on_timeout(20_000, Time::ZERO);
        assert_eq!(d.window(), 1_000);
    }
}

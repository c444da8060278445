//! DCTCP (Alizadeh et al., SIGCOMM 2010; RFC 8257), as Fastroute's simulations and the Ofan
//! paper's section 6.5 use it.
//!
//! Per observation window (one window of data, about one round trip): the fraction F of
//! acknowledged bytes that carried ECN updates `alpha <- (1 - g) alpha + g F`. The first
//! marked ACK of a window cuts `cwnd <- cwnd (1 - alpha / 2)` (floor: one MSS) and ends slow
//! start; unmarked ACKs grow the window, by the acknowledged bytes in slow start and by
//! `mss * bytes / cwnd` (one MSS per window) in congestion avoidance.

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
}

impl Dctcp {
    pub fn new(init_window_bytes: u64, mss_bytes: u64, g: f64) -> Self {
        Self {
            cwnd: init_window_bytes.max(mss_bytes) as f64,
            ssthresh: f64::INFINITY,
            // RFC 8257: alpha starts at 1, so the first mark halves the window.
            alpha: 1.0,
            g,
            mss: mss_bytes as f64,
            acked_bytes: 0,
            marked_bytes: 0,
            cut_this_window: false,
        }
    }

    pub fn window(&self) -> u64 {
        self.cwnd as u64
    }

    pub fn alpha(&self) -> f64 {
        self.alpha
    }

    pub fn on_ack(&mut self, bytes: u64, ecn: bool, window_done: bool) {
        self.acked_bytes += bytes;
        if ecn {
            self.marked_bytes += bytes;
            if !self.cut_this_window {
                self.cwnd = (self.cwnd * (1.0 - self.alpha / 2.0)).max(self.mss);
                self.ssthresh = self.cwnd;
                self.cut_this_window = true;
            }
        } else if self.cwnd < self.ssthresh {
            self.cwnd += bytes as f64;
        } else {
            self.cwnd += self.mss * bytes as f64 / self.cwnd;
        }
        if window_done {
            let f = self.marked_bytes as f64 / self.acked_bytes.max(1) as f64;
            self.alpha = (1.0 - self.g) * self.alpha + self.g * f;
            self.acked_bytes = 0;
            self.marked_bytes = 0;
            self.cut_this_window = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_mark_halves_then_alpha_tracks_the_marked_fraction() {
        let mut d = Dctcp::new(100_000, 1_000, 1.0 / 16.0);
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
        let mut d = Dctcp::new(10_000, 1_000, 1.0 / 16.0);
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
}

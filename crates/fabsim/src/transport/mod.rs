//! Sender-side transport: congestion control, one enum over the algorithms (one file each).
//!
//! A flow may have at most `window` bytes of data in flight (sent, not yet ACKed or NACKed);
//! the host's NIC only takes packets from flows with room. `None` has no window: hosts send
//! at line rate, the Ofan paper's idealization (section 2.2).

mod dctcp;
mod nscc;
mod swift;

use crate::engine::Time;

pub use dctcp::Dctcp;
pub use nscc::{Nscc, NsccParams};
pub use swift::{DelaySignal, MedianRing, Swift, SwiftParams, MAX_MEDIAN_SAMPLES};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CcKind {
    None,
    Dctcp,
    Swift,
    Mswift,
    Nscc,
}

impl CcKind {
    pub const ALL: [CcKind; 5] = [
        CcKind::None,
        CcKind::Dctcp,
        CcKind::Swift,
        CcKind::Mswift,
        CcKind::Nscc,
    ];

    pub fn name(self) -> &'static str {
        match self {
            CcKind::None => "none",
            CcKind::Dctcp => "dctcp",
            CcKind::Swift => "swift",
            CcKind::Mswift => "mswift",
            CcKind::Nscc => "nscc",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// How a sender finds lost packets (`host.loss_recovery`). Every packet is ACKed on its own,
/// so the ACKs already say selectively what arrived; the choice is when a hole is presumed
/// lost. NACKs of trimmed packets are resent at once under both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LossRecovery {
    /// Only by the retransmission timeout: after an RTO without progress, everything in
    /// flight is resent.
    Rto,
    /// Also when [`DUPTHRESH`] later packets are ACKed (TCP's three duplicate ACKs, in
    /// selective form): the hole alone is resent while the flow goes on. The RTO stays the
    /// backstop (a lost retransmission, the tail of a flow).
    Dupack,
}

/// ACKs of later packets that make a missing packet lost under [`LossRecovery::Dupack`].
pub const DUPTHRESH: u32 = 3;

impl LossRecovery {
    pub const ALL: [LossRecovery; 2] = [LossRecovery::Rto, LossRecovery::Dupack];

    pub fn name(self) -> &'static str {
        match self {
            LossRecovery::Rto => "rto",
            LossRecovery::Dupack => "dupack",
        }
    }
}

/// What one ACK (or NACK) tells the sender's congestion controller.
#[derive(Clone, Copy, Debug)]
pub struct AckInfo {
    /// Payload bytes the ACK covers.
    pub bytes: u64,
    /// The data packet was ECN-marked on its way.
    pub ecn: bool,
    /// Round-trip sample: now minus the time the data packet left the sender's NIC queue.
    pub rtt_ps: Time,
    /// The ACK closes the current observation window (about one round trip of data).
    pub window_done: bool,
    pub now: Time,
}

/// Parameters of the congestion controllers, with defaults derived from the fabric.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CcParams {
    pub kind: CcKind,
    /// Round trip of a full packet and its ACK over the longest path, without queueing.
    pub base_rtt_ps: Time,
    /// Bandwidth-delay product of `base_rtt_ps` at the link rate.
    pub bdp_bytes: u64,
    /// Initial window in bytes of dctcp, swift and mswift (default: `bdp_bytes`; nscc starts
    /// at its cap).
    pub init_window_bytes: u64,
    /// Bytes of one full data packet on the wire (the MSS in window arithmetic).
    pub mss_bytes: u64,
    /// DCTCP's EWMA gain g.
    pub dctcp_g: f64,
    /// Swift's (and MSwift's) rule constants.
    pub swift: SwiftParams,
    /// MSwift: the delay signal is the median of this many recent samples.
    pub mswift_samples: u32,
    /// NSCC's target, cap and decrease gain.
    pub nscc: NsccParams,
}

impl CcParams {
    /// Default initial window: 1.5 BDP. The first round trip also carries ACK interleaving
    /// and a few packets of queueing; one bare BDP stalled Ofan's default run by 4%.
    pub fn default_init_window_bytes(bdp_bytes: u64) -> u64 {
        bdp_bytes * 3 / 2
    }

    /// The automatic retransmission timeout: the base RTT plus twice the time to drain a
    /// full buffer at every hop of the longest path, so that queueing alone never fires it.
    pub fn auto_rto(base_rtt: Time, hops: u32, drain_per_hop: Time) -> Time {
        base_rtt.saturating_add(drain_per_hop.saturating_mul(2 * hops as u64))
    }

    /// Default Swift/MSwift target margin over the flow's base RTT.
    pub fn default_swift_margin_ps(base_rtt_ps: Time) -> Time {
        base_rtt_ps / 4
    }

    /// Default NSCC target queueing delay: the base RTT, 0.75 of it with trimming (UEC).
    pub fn default_nscc_target_ps(base_rtt_ps: Time, trimming: bool) -> Time {
        if trimming {
            base_rtt_ps * 3 / 4
        } else {
            base_rtt_ps
        }
    }
}

/// One flow's congestion controller.
#[derive(Clone, Debug)]
pub enum Cc {
    None,
    Dctcp(Dctcp),
    /// Swift and MSwift (they differ in the delay signal only).
    Swift(Swift),
    Nscc(Nscc),
}

impl Cc {
    /// A flow's controller; `path_rtt_ps` is the base RTT of the flow's own path (from its hop
    /// count, Swift's per-hop target scaling made exact; htsim's per-flow `peer_rtt` for NSCC).
    pub fn new(p: &CcParams, path_rtt_ps: Time) -> Self {
        match p.kind {
            CcKind::None => Cc::None,
            CcKind::Dctcp => Cc::Dctcp(Dctcp::new(p.init_window_bytes, p.mss_bytes, p.dctcp_g)),
            CcKind::Swift | CcKind::Mswift => {
                let signal = if p.kind == CcKind::Mswift {
                    DelaySignal::Median(Box::new(MedianRing::new(p.mswift_samples as usize)))
                } else {
                    DelaySignal::Sample
                };
                Cc::Swift(Swift::new(
                    p.init_window_bytes,
                    p.mss_bytes,
                    path_rtt_ps,
                    p.swift,
                    signal,
                ))
            }
            CcKind::Nscc => Cc::Nscc(Nscc::new(
                p.mss_bytes,
                p.base_rtt_ps,
                p.bdp_bytes,
                path_rtt_ps,
                p.nscc,
            )),
        }
    }

    /// Bytes the flow may have in flight.
    #[inline]
    pub fn window(&self) -> u64 {
        match self {
            Cc::None => u64::MAX,
            Cc::Dctcp(d) => d.window(),
            Cc::Swift(s) => s.window(),
            Cc::Nscc(n) => n.window(),
        }
    }

    /// An ACK came back.
    #[inline]
    pub fn on_ack(&mut self, a: &AckInfo) {
        match self {
            Cc::None => {}
            Cc::Dctcp(d) => d.on_ack(a.bytes, a.ecn, a.window_done),
            Cc::Swift(s) => s.on_ack(a.bytes, a.rtt_ps, a.now),
            Cc::Nscc(n) => n.on_ack(a.bytes, a.ecn, a.rtt_ps, a.now),
        }
    }

    /// `bytes` of payload were lost (a NACK for a trimmed packet).
    #[inline]
    pub fn on_loss(&mut self, bytes: u64, now: Time) {
        match self {
            Cc::None => {}
            Cc::Dctcp(d) => d.on_loss(bytes, now),
            Cc::Swift(s) => s.on_loss(bytes, now),
            Cc::Nscc(n) => n.on_loss(bytes, now),
        }
    }
}

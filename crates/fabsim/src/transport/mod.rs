//! Sender-side transport: congestion control, one enum over the algorithms (one file each).
//!
//! A flow may have at most `window` bytes of data in flight (sent, not yet ACKed or NACKed);
//! the host's NIC only takes packets from flows with room. `None` has no window: hosts send
//! at line rate, the Ofan paper's idealization (section 2.2).

mod dctcp;

use crate::engine::Time;

pub use dctcp::Dctcp;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CcKind {
    None,
    Dctcp,
}

impl CcKind {
    pub const ALL: [CcKind; 2] = [CcKind::None, CcKind::Dctcp];

    pub fn name(self) -> &'static str {
        match self {
            CcKind::None => "none",
            CcKind::Dctcp => "dctcp",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == name)
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
    /// Initial window in bytes (default: one bandwidth-delay product of the longest path).
    pub init_window_bytes: u64,
    /// Bytes of one full data packet on the wire (the MSS in window arithmetic).
    pub mss_bytes: u64,
    /// DCTCP's EWMA gain g.
    pub dctcp_g: f64,
}

/// One flow's congestion controller.
#[derive(Clone, Debug)]
pub enum Cc {
    None,
    Dctcp(Dctcp),
}

impl Cc {
    pub fn new(p: &CcParams) -> Self {
        match p.kind {
            CcKind::None => Cc::None,
            CcKind::Dctcp => Cc::Dctcp(Dctcp::new(p.init_window_bytes, p.mss_bytes, p.dctcp_g)),
        }
    }

    /// Bytes the flow may have in flight.
    #[inline]
    pub fn window(&self) -> u64 {
        match self {
            Cc::None => u64::MAX,
            Cc::Dctcp(d) => d.window(),
        }
    }

    /// An ACK came back.
    #[inline]
    pub fn on_ack(&mut self, a: &AckInfo) {
        match self {
            Cc::None => {}
            Cc::Dctcp(d) => d.on_ack(a.bytes, a.ecn, a.window_done),
        }
    }

    /// `bytes` of payload were lost (a NACK for a trimmed packet).
    #[inline]
    pub fn on_loss(&mut self, bytes: u64, now: Time) {
        match self {
            Cc::None => {}
            Cc::Dctcp(d) => d.on_loss(bytes, now),
        }
    }
}

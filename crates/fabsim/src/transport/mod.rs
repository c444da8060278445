//! Sender-side transport: congestion control, one enum over the algorithms (one file each).
//!
//! A flow may have at most `window` bytes of data in flight (sent, not yet ACKed or NACKed);
//! the host's NIC only takes packets from flows with room. `None` has no window: hosts send
//! at line rate, the Ofan paper's idealization (section 2.2).

mod dctcp;

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

/// Parameters of the congestion controllers, with defaults derived from the fabric.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CcParams {
    pub kind: CcKind,
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

    /// An ACK for `bytes` of data came back, ECN-marked or not; `window_done` says the ACK
    /// closes the current observation window (one round trip of data).
    #[inline]
    pub fn on_ack(&mut self, bytes: u64, ecn: bool, window_done: bool) {
        match self {
            Cc::None => {}
            Cc::Dctcp(d) => d.on_ack(bytes, ecn, window_done),
        }
    }
}

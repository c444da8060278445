//! The host transport: each flow's [`Sender`] and [`Receiver`], state machines that do no
//! I/O (the simulator turns what they return into packets and events, and unit tests drive
//! them against each other), and congestion control behind [`CongestionControl`], one file
//! per algorithm.
//!
//! A flow may have at most `window` bytes of data in flight (sent, not yet ACKed or NACKed);
//! the host's NIC only takes packets from flows with room. [`Unlimited`] has no window: hosts
//! send at line rate, the Ofan paper's idealization (section 2.2).

mod dctcp;
mod nscc;
mod rate;
mod receiver;
mod sender;
mod swift;
#[cfg(test)]
mod tests;

use crate::engine::Time;

pub use dctcp::{Dctcp, DctcpParams, DctcpRules, FirstWindow};
pub use nscc::{Nscc, NsccParams, NsccRules};
pub use rate::{
    DcqcnParams, HpccParams, IntHop, Law, RateCc, RateParams, RateWindow, TimelyParams, INT_HOPS,
};
pub use receiver::{AckLog, Delivery, Receiver, Reply};
pub use sender::{Acked, Expiry, Ready, Send, Sender};
pub use swift::{DelaySignal, MedianRing, Swift, SwiftParams, MAX_MEDIAN_SAMPLES};

/// The host transport's rules, shared by every flow of a run (the `host.*` keys).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TransportParams {
    /// Congestion control of every flow (`host.cc`).
    pub cc: CcParams,
    /// Retransmission timer (`host.rto_us`, `host.rto`, `host.rto_min_us`); `None`: no timer
    /// (nothing can be lost).
    pub rto: Option<Rto>,
    /// When a sender presumes a packet lost (`host.loss_recovery`).
    pub loss_recovery: LossRecovery,
    /// `host.loss_recovery = "rack"`: how much later a packet ACKed must have been sent than
    /// a hole for the hole to count as lost (`host.reorder_us`); `None`: never (unbounded
    /// buffers let any packet overtake any other).
    pub reorder_ps: Option<Time>,
    /// Bytes a packet counts in its window beyond its payload: its header with
    /// `host.window_bytes = "wire"`, else 0.
    pub window_header_bytes: u32,
    /// Receivers ACK once this many wire bytes arrived unacknowledged (`host.ack_every_bytes`;
    /// 0: every packet), and at once on a mark, a request, the first packet or a duplicate.
    pub ack_every_bytes: u32,
    /// With coalescing, a held ACK leaves at the latest this long after the first packet it
    /// covers (`host.ack_delay_us`); `None`: no timer.
    pub ack_delay_ps: Option<Time>,
    /// Flows open with a SYN and its SYN-ACK before the data (`host.handshake`), inside the
    /// FCT.
    pub handshake: bool,
}

impl TransportParams {
    /// Senders keep every packet's send time: for RACK, or for a timer armed at the oldest
    /// packet in flight.
    pub fn logs_sends(&self) -> bool {
        self.loss_recovery == LossRecovery::Rack && self.reorder_ps.is_some()
            || self.rto.is_some_and(|r| r.timer == RtoTimer::Oldest)
    }
}

/// Packets of a message of `bytes` in packets of `mss` payload bytes (an empty message is
/// one packet).
pub fn packets(bytes: u64, mss: u32) -> u64 {
    bytes.div_ceil(mss as u64).max(1)
}

/// Payload bytes of packet `seq` of a flow of `bytes` cut into `mss`-byte packets (the last
/// one carries the remainder).
#[inline]
pub fn payload(bytes: u64, mss: u32, seq: u32) -> u32 {
    let p = mss as u64;
    (bytes - seq as u64 * p).min(p) as u32
}

/// A fixed-size bit set, one bit per packet of a flow.
struct Bits(Vec<u64>);

impl Bits {
    fn new(n: u32) -> Self {
        Bits(vec![0; (n as usize).div_ceil(64)])
    }

    #[inline]
    fn get(&self, i: u32) -> bool {
        self.0[i as usize / 64] >> (i % 64) & 1 == 1
    }

    /// Sets bit `i` to `v`; returns its previous value.
    #[inline]
    fn set(&mut self, i: u32, v: bool) -> bool {
        let (w, b) = (i as usize / 64, i % 64);
        let old = self.0[w] >> b & 1 == 1;
        self.0[w] = self.0[w] & !(1 << b) | (v as u64) << b;
        old
    }
}

named_enum! {
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum CcKind {
        /// No congestion control: a fixed window (host.max_window_bytes), else line rate.
        None => "none",
        /// DCTCP: the window shrinks by the fraction of ECN-marked packets.
        Dctcp => "dctcp",
        /// Swift: delay-based, the window follows the RTT against a target delay.
        Swift => "swift",
        /// MSwift: Swift with the median of recent RTT samples as its signal.
        Mswift => "mswift",
        /// UEC NSCC: ECN and delay together.
        Nscc => "nscc",
        /// DCQCN: rate-based, cut on ECN echoes, recovered by timers (RoCE NICs).
        Dcqcn => "dcqcn",
        /// DCTCP as RoCE NICs run it: a rate cut by the fraction of marks, once per round.
        DctcpRate => "dctcp-rate",
        /// Timely: rate-based, by the RTT's gradient.
        Timely => "timely",
        /// HPCC: rate-based, by the hops' telemetry (INT) each ACK echoes.
        Hpcc => "hpcc",
    }
}

impl CcKind {
    /// The congestion signals it reacts to besides loss: (ECN marks, delay).
    pub fn signals(self) -> (bool, bool) {
        match self {
            CcKind::None => (false, false),
            CcKind::Dctcp => (true, false),
            CcKind::Swift | CcKind::Mswift => (false, true),
            CcKind::Nscc => (true, true),
            CcKind::Dcqcn | CcKind::DctcpRate => (true, false),
            CcKind::Timely => (false, true),
            CcKind::Hpcc => (false, false),
        }
    }

    /// The rate law of a rate-based controller (its NIC paces its flows); `None` for a
    /// window-based one.
    pub fn law(self) -> Option<Law> {
        match self {
            CcKind::Dcqcn => Some(Law::Dcqcn),
            CcKind::DctcpRate => Some(Law::Dctcp),
            CcKind::Timely => Some(Law::Timely),
            CcKind::Hpcc => Some(Law::Hpcc),
            CcKind::None | CcKind::Dctcp | CcKind::Swift | CcKind::Mswift | CcKind::Nscc => None,
        }
    }
}

named_enum! {
    /// How a sender finds lost packets (`host.loss_recovery`). ACKs say selectively what arrived
    /// (each names its packet, or a coalesced ACK all it covers); the choice is when a hole is
    /// presumed lost. NACKs of trimmed packets are resent at once under all. The default is
    /// `Rack` where packets can be dropped, `Rto` elsewhere (no hole there is a loss).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum LossRecovery {
        /// Only by the retransmission timeout: after an RTO without progress, everything in
        /// flight is resent.
        Rto => "rto",
        /// Also when [`DUPTHRESH`] later packets are ACKed (TCP's three duplicate ACKs, in
        /// selective form): the hole alone is resent while the flow goes on. The RTO stays the
        /// backstop (a lost retransmission, the tail of a flow). Sprayed packets overtake each
        /// other, so under spraying most holes it resends were not lost.
        Dupack => "dupack",
        /// Also once a packet sent at least the reordering window after the hole was ACKed
        /// (RACK, RFC 8985, in time rather than in packets): the hole alone is resent while the
        /// flow goes on; the RTO stays the backstop. The default window is the longest a later
        /// packet can overtake an earlier one, the queueing delay of full buffers at every hop,
        /// so in a fabric that drops nothing no packet is resent.
        Rack => "rack",
    }
}

named_enum! {
    /// What the retransmission timer waits for, and what its expiry presumes lost
    /// (`host.rto_timer`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum RtoTimer {
        /// An RTO without an ACK that brings news: every packet in flight is presumed lost and
        /// the congestion controller sees a timeout (TCP).
        Progress => "progress",
        /// The oldest unACKed packet's send time plus the RTO: that packet alone is presumed lost,
        /// its bytes leave the window (at least one packet stays), and the timer moves on to the
        /// next oldest (htsim's UEC sources).
        Oldest => "oldest",
    }
}

named_enum! {
    /// How a host's NIC takes its flows' data (`host.nic`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Nic {
        /// One data packet when the NIC is free, round-robin over the host's flows.
        Pull => "pull",
        /// Flows push packets into one FIFO as their windows open (Netbench's sockets).
        Fifo => "fifo",
        /// One data packet when the NIC is free, from the flow that has waited longest: a
        /// flow joins the back of the line when its window lets it send and again after each
        /// packet if it still may, and leaves it when its turn finds its window shut (htsim's
        /// `UecNIC`: `requestSending`, `doNextEvent`, `cantSend` in uec.cpp).
        PullFifo => "pull-fifo",
    }
}

named_enum! {
    /// What a congestion window counts (`host.window_bytes`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum WindowBytes {
        /// Payload bytes in flight.
        Payload => "payload",
        /// Wire bytes (payload plus header) in flight, as htsim's UEC sources count.
        Wire => "wire",
    }
}

/// ACKs of later packets that make a missing packet lost under [`LossRecovery::Dupack`].
pub const DUPTHRESH: u32 = 3;

named_enum! {
    /// How the retransmission timer is set (`host.rto`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum RtoRule {
        /// Always `host.rto_us`.
        Fixed => "fixed",
        /// RFC 6298: `host.rto_us` until the first RTT sample, then `SRTT + 4 RTTVAR` (at least
        /// `host.rto_min_us`), doubled on each timeout until a new sample arrives.
        Rfc6298 => "rfc6298",
    }
}

/// The retransmission timer of every flow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rto {
    /// The timeout before any RTT sample (and always, with [`RtoRule::Fixed`]).
    pub initial: Time,
    pub rule: RtoRule,
    /// Floor of the computed timeout.
    pub min: Time,
    pub timer: RtoTimer,
}

/// The largest a backed-off RTO grows: this many times its value before the first timeout.
pub const MAX_RTO_BACKOFF: u64 = 64;

/// One flow's RFC 6298 estimator (integer picoseconds, so results are exact everywhere).
#[derive(Clone, Copy, Debug, Default)]
pub struct RttEstimator {
    srtt: Time,
    rttvar: Time,
    /// The current timeout, backoff included; zero until the flow starts.
    rto: Time,
    /// The timeout from the estimate alone (what backoff doubles from).
    base: Time,
}

impl RttEstimator {
    pub fn new(rto: &Rto) -> Self {
        Self {
            rto: rto.initial,
            base: rto.initial,
            ..Self::default()
        }
    }

    /// The timeout to wait now.
    pub fn rto(&self) -> Time {
        self.rto
    }

    /// A new RTT sample (RFC 6298 section 2); ends any backoff.
    pub fn sample(&mut self, r: &Rto, rtt: Time) {
        if r.rule == RtoRule::Fixed {
            return;
        }
        if self.srtt == Time::ZERO {
            self.srtt = rtt;
            self.rttvar = rtt / 2;
        } else {
            let diff = if self.srtt > rtt {
                self.srtt - rtt
            } else {
                rtt - self.srtt
            };
            self.rttvar = (self.rttvar * 3 + diff) / 4;
            self.srtt = (self.srtt * 7 + rtt) / 8;
        }
        self.base = (self.srtt + self.rttvar * 4).max(r.min);
        self.rto = self.base;
    }

    /// The timer fired: back off (RFC 6298 5.5), and start the estimate afresh from the next
    /// sample (as Netbench does; the old one is presumed stale).
    pub fn backoff(&mut self, r: &Rto) {
        if r.rule == RtoRule::Fixed {
            return;
        }
        self.rto = (self.rto * 2).min(self.base * MAX_RTO_BACKOFF);
        self.srtt = Time::ZERO;
    }
}

/// What one ACK (or NACK) tells the sender's congestion controller.
#[derive(Clone, Copy, Debug)]
pub struct AckInfo<'a> {
    /// Payload bytes the ACK covers.
    pub bytes: u64,
    /// The data packet was ECN-marked on its way.
    pub ecn: bool,
    /// Round-trip sample: now minus the time the data packet left the sender's NIC queue.
    pub rtt_ps: Time,
    /// The ACK closes the current observation window (about one round trip of data).
    pub window_done: bool,
    /// Payload bytes still in flight after it.
    pub inflight: u64,
    pub now: Time,
    /// Payload bytes ACKed in order from the flow's start (the cumulative ACK), and payload
    /// bytes sent (new data, from the start), after it: for rate-based controllers only (0
    /// for the others, which read neither).
    pub snd_una: u64,
    pub snd_nxt: u64,
    /// The hop records its data packet's switches stamped (HPCC), echoed; empty otherwise.
    pub int: &'a [IntHop],
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
    /// DCTCP's rules, gain, initial ssthresh and window cap.
    pub dctcp: DctcpParams,
    /// Swift's (and MSwift's) rule constants.
    pub swift: SwiftParams,
    /// MSwift: the delay signal is the median of this many recent samples.
    pub mswift_samples: u32,
    /// NSCC's target, cap and decrease gain.
    pub nscc: NsccParams,
    /// The rate-based controllers' rates, steps and window.
    pub rate: RateParams,
}

impl CcParams {
    /// Bytes a flow's controller keeps outside the flow (in its box: NSCC's state, MSwift's
    /// sample ring), for the cost estimate.
    pub fn boxed_bytes(&self) -> u64 {
        match self.kind {
            CcKind::Nscc => std::mem::size_of::<Nscc>() as u64,
            CcKind::Mswift => std::mem::size_of::<MedianRing>() as u64,
            CcKind::Dcqcn | CcKind::DctcpRate | CcKind::Timely | CcKind::Hpcc => {
                std::mem::size_of::<RateCc>() as u64
            }
            CcKind::None | CcKind::Dctcp | CcKind::Swift => 0,
        }
    }

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

/// What a sender asks of its congestion controller. An algorithm implements the four
/// required methods; a timeout is a loss unless it says otherwise.
pub trait CongestionControl {
    /// Bytes the flow may have in flight.
    fn window(&self) -> u64;

    /// An ACK brought news.
    fn on_ack(&mut self, a: &AckInfo);

    /// `bytes` of payload were lost (a NACK for a trimmed packet, or a hole found by later
    /// ACKs); `inflight`: payload bytes still in flight after the loss.
    fn on_loss(&mut self, bytes: u64, inflight: u64, now: Time);

    /// The retransmission timer fired; `bytes` were in flight and are presumed lost.
    fn on_timeout(&mut self, bytes: u64, now: Time) {
        self.on_loss(bytes, 0, now);
    }

    /// The timer presumed one packet of `bytes` lost ([`RtoTimer::Oldest`]): the window
    /// shrinks by its bytes, to no less than one packet, and nothing else moves (htsim's
    /// `mark_packet_for_retransmission`).
    fn on_packet_timeout(&mut self, bytes: u64);

    /// A rate-based controller: runs its timers due by `now`. The sender calls it before it
    /// reads the rate or tells the controller of an ACK, and only in calls whose answer tells
    /// the NIC that the window moved (a packet leaving, an ACK with news): lazily run timers
    /// give the same rates whenever they run.
    fn advance(&mut self, _now: Time) {}

    /// A rate-based controller's current rate, bits per second (its NIC paces the flow at
    /// it); `None` for a window-based one.
    fn rate_bps(&self) -> Option<u64> {
        None
    }
}

/// No congestion control: no window, hosts send at line rate (the Ofan paper's
/// idealization, section 2.2).
#[derive(Clone, Copy, Debug)]
pub struct Unlimited;

impl CongestionControl for Unlimited {
    fn window(&self) -> u64 {
        u64::MAX
    }

    fn on_ack(&mut self, _: &AckInfo) {}

    fn on_loss(&mut self, _: u64, _: u64, _: Time) {}

    fn on_packet_timeout(&mut self, _: u64) {}
}

/// One flow's congestion controller: the algorithms in one enum, so that a flow holds its
/// controller inline and calls it without an indirect jump.
#[derive(Clone, Debug)]
pub enum Cc {
    None(Unlimited),
    Dctcp(Dctcp),
    /// Swift and MSwift (they differ in the delay signal only).
    Swift(Swift),
    /// Boxed once per flow at its creation (never on the per-ACK path): NSCC's state is the
    /// largest (224 bytes against DCTCP's 72), and inline it would size every flow's `Cc`.
    Nscc(Box<Nscc>),
    /// DCQCN, DCTCP over RoCE and Timely (boxed, as NSCC).
    Rate(Box<RateCc>),
}

/// A boxed controller is the controller (NSCC's lives in a box, see [`Cc::Nscc`]); every
/// method forwards, its own `on_timeout` included.
impl<C: CongestionControl> CongestionControl for Box<C> {
    #[inline]
    fn window(&self) -> u64 {
        (**self).window()
    }

    #[inline]
    fn on_ack(&mut self, a: &AckInfo) {
        (**self).on_ack(a)
    }

    #[inline]
    fn on_loss(&mut self, bytes: u64, inflight: u64, now: Time) {
        (**self).on_loss(bytes, inflight, now)
    }

    #[inline]
    fn on_timeout(&mut self, bytes: u64, now: Time) {
        (**self).on_timeout(bytes, now)
    }

    #[inline]
    fn on_packet_timeout(&mut self, bytes: u64) {
        (**self).on_packet_timeout(bytes)
    }

    #[inline]
    fn advance(&mut self, now: Time) {
        (**self).advance(now)
    }

    #[inline]
    fn rate_bps(&self) -> Option<u64> {
        (**self).rate_bps()
    }
}

/// Runs `$body` with `$c` bound to the controller inside `$cc` (the one place that lists the
/// variants).
macro_rules! each_cc {
    ($cc:expr, $c:ident => $body:expr) => {
        match $cc {
            Cc::None($c) => $body,
            Cc::Dctcp($c) => $body,
            Cc::Swift($c) => $body,
            Cc::Nscc($c) => $body,
            Cc::Rate($c) => $body,
        }
    };
}

impl Cc {
    /// A flow's controller; `path_rtt_ps` is the base RTT of the flow's own path (from its hop
    /// count, Swift's per-hop target scaling made exact; htsim's per-flow `peer_rtt` for NSCC).
    pub fn new(p: &CcParams, path_rtt_ps: Time) -> Self {
        match p.kind {
            CcKind::None => Cc::None(Unlimited),
            CcKind::Dctcp => Cc::Dctcp(Dctcp::new(p.init_window_bytes, p.mss_bytes, &p.dctcp)),
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
            CcKind::Nscc => Cc::Nscc(Box::new(Nscc::new(
                p.mss_bytes,
                p.base_rtt_ps,
                p.bdp_bytes,
                path_rtt_ps,
                p.nscc,
            ))),
            CcKind::Dcqcn | CcKind::DctcpRate | CcKind::Timely | CcKind::Hpcc => {
                let law = p.kind.law().expect("a rate-based controller");
                Cc::Rate(Box::new(RateCc::new(&p.rate, law)))
            }
        }
    }
}

impl Cc {
    /// A rate-based controller ([`RateCc`]).
    #[inline]
    pub fn is_rate(&self) -> bool {
        matches!(self, Cc::Rate(_))
    }
}

impl CongestionControl for Cc {
    #[inline]
    fn window(&self) -> u64 {
        each_cc!(self, c => c.window())
    }

    #[inline]
    fn on_ack(&mut self, a: &AckInfo) {
        each_cc!(self, c => CongestionControl::on_ack(c, a))
    }

    #[inline]
    fn on_loss(&mut self, bytes: u64, inflight: u64, now: Time) {
        each_cc!(self, c => CongestionControl::on_loss(c, bytes, inflight, now))
    }

    #[inline]
    fn on_timeout(&mut self, bytes: u64, now: Time) {
        each_cc!(self, c => CongestionControl::on_timeout(c, bytes, now))
    }

    #[inline]
    fn on_packet_timeout(&mut self, bytes: u64) {
        each_cc!(self, c => c.on_packet_timeout(bytes))
    }

    #[inline]
    fn advance(&mut self, now: Time) {
        each_cc!(self, c => c.advance(now))
    }

    #[inline]
    fn rate_bps(&self) -> Option<u64> {
        each_cc!(self, c => c.rate_bps())
    }
}

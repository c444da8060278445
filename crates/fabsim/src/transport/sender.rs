//! One flow's sending end as a state machine: it owns the sequence space, the window, the
//! retransmission timer and loss recovery, and does no I/O. Each method takes the time and
//! what arrived, and returns what the host must do (send this sequence number, set the
//! timer for then, the flow is done); the simulator turns that into packets and events.

use std::collections::VecDeque;

use super::{
    AckInfo, AckLog, Bits, Cc, CongestionControl, FirstWindow, IntHop, LossRecovery, RttEstimator,
    TransportParams, DUPTHRESH,
};
use crate::engine::Time;
use crate::net::Packet;

/// One flow's sender.
pub struct Sender {
    bytes: u64,
    /// Payload bytes of a full packet.
    mss: u32,
    pkts: u32,
    /// Next never-sent sequence number.
    next_seq: u32,
    acked: u32,
    /// Every packet below it is ACKed (the cumulative ACK).
    cum_acked: u32,
    /// Sequence numbers presumed lost and waiting to be sent again.
    retx: Vec<u32>,
    cc: Cc,
    /// Bytes (as the window counts them, `host.window_bytes`) sent and not yet ACKed or
    /// presumed lost.
    inflight_bytes: u64,
    /// An ACK for this sequence number or later closes the congestion window's round
    /// (`None` until the first ACK opens the first round).
    round_end: Option<u32>,
    /// Per sequence number: ACKed; counted in flight.
    acked_seqs: Bits,
    outstanding: Bits,
    /// The retransmission timer is pending (its event is queued).
    timer_armed: bool,
    /// The last time an ACK brought news (or the timer was set or fired).
    last_progress: Time,
    /// The retransmission timeout's estimator (`host.rto`).
    rtt: RttEstimator,
    /// `host.handshake`: the SYN is out and its SYN-ACK not back yet.
    syn_pending: bool,
    /// `host.loss_recovery = "dupack"`: sequence numbers below this were checked for holes.
    hole_scan: u32,
    /// `host.loss_recovery = "rack"` and `host.rto_timer = "oldest"`: its send times (boxed:
    /// most runs have none, and the flow stays small).
    log: Option<Box<SendLog>>,
    /// When its first data packet left, and when its last ACK arrived.
    first_tx: Option<Time>,
    finish: Option<Time>,
    /// Data packets it resent, and retransmission timeouts that fired for it.
    retransmits: u32,
    timeouts: u32,
}

/// A flow's send times, for RACK and for a timer armed at the oldest packet in flight.
struct SendLog {
    /// Each packet's last send time.
    sent_at: Vec<Time>,
    /// (send time, sequence number) of every send in order; an entry whose packet left
    /// flight or was sent again since is stale.
    order: VecDeque<(Time, u32)>,
    /// RACK: the latest send time of a packet ACKed.
    rack: Time,
}

/// A data packet the sender hands its NIC.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Send {
    pub seq: u32,
    /// Payload bytes (less than a full packet for a flow's last one).
    pub payload: u32,
    /// It was sent before.
    pub retransmit: bool,
    /// With coalesced ACKs: the receiver should ACK it at once.
    pub ack_req: bool,
    /// The retransmission timer was started: it fires then.
    pub timer: Option<Time>,
    /// What the sender is ready to do after handing it over.
    pub ready: Ready,
}

/// What a sender is ready to do, as of the end of the call that answers it: every call
/// that changes its data or its window says so, and the host keeps its NIC's view of the
/// flow from these answers alone (it never asks the sender back).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ready {
    /// It has data to send (new, or presumed lost).
    pub data: bool,
    /// Its window has room for one more full packet (or nothing is in flight).
    pub window: bool,
}

/// What an ACK did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Acked {
    /// It covered data not ACKed before.
    pub news: bool,
    /// The window or the bytes in flight changed (the flow may send again).
    pub moved: bool,
    /// It ACKed the flow's last packet: the flow is done.
    pub done: bool,
    /// Packets presumed lost by loss recovery and queued again.
    pub presumed_lost: u32,
    /// What the sender is ready to do after it.
    pub ready: Ready,
}

/// What the retransmission timer's expiry did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expiry {
    /// Nothing was overdue (nothing in flight, or the flow is done); the timer stays off.
    Idle,
    /// Nothing was overdue yet: the timer is set again for then.
    Rearm(Time),
    /// The SYN or its SYN-ACK was lost: send the SYN again ([`Sender::send_syn`]).
    ResendSyn,
    /// Packets were presumed lost and queued again (the window moved); with `rearm`, the
    /// timer is set again for then.
    Expired { rearm: Option<Time>, ready: Ready },
}

impl Sender {
    /// A sender of `bytes` in packets of `mss` payload bytes; `path_rtt` is the base RTT of
    /// its path (see [`Cc::new`]).
    pub fn new(bytes: u64, mss: u32, t: &TransportParams, path_rtt: Time) -> Self {
        let pkts = super::packets(bytes, mss) as u32;
        Sender {
            bytes,
            mss,
            pkts,
            next_seq: 0,
            acked: 0,
            cum_acked: 0,
            retx: Vec::new(),
            cc: Cc::new(&t.cc, path_rtt),
            inflight_bytes: 0,
            round_end: match t.cc.dctcp.first_window {
                FirstWindow::FirstAck => Some(0),
                FirstWindow::RoundTrip => None,
            },
            acked_seqs: Bits::new(pkts),
            outstanding: Bits::new(pkts),
            timer_armed: false,
            last_progress: Time::ZERO,
            rtt: t.rto.as_ref().map(RttEstimator::new).unwrap_or_default(),
            syn_pending: false,
            hole_scan: 0,
            log: t.logs_sends().then(|| {
                Box::new(SendLog {
                    sent_at: vec![Time::ZERO; pkts as usize],
                    order: VecDeque::new(),
                    rack: Time::ZERO,
                })
            }),
            first_tx: None,
            finish: None,
            retransmits: 0,
            timeouts: 0,
        }
    }

    pub fn packets(&self) -> u32 {
        self.pkts
    }

    /// A rate-based controller's current rate (bits per second): its NIC paces the flow.
    #[inline]
    pub fn rate_bps(&self) -> Option<u64> {
        self.cc.rate_bps()
    }

    /// A rate-based controller's ACK (the others read neither): runs its timers due, where
    /// the answer tells the NIC the window moved (see `advance`), and returns the cumulative
    /// ACK and the bytes sent.
    #[inline]
    fn rate_ack(&mut self, now: Time) -> (u64, u64) {
        if !self.cc.is_rate() {
            return (0, 0);
        }
        self.cc.advance(now);
        (self.cumulative_ack(), self.sent_bytes(self.next_seq))
    }

    /// Payload bytes ACKed in order from the start (moving its mark up past the packets
    /// ACKed since).
    fn cumulative_ack(&mut self) -> u64 {
        while self.cum_acked < self.pkts && self.acked_seqs.get(self.cum_acked) {
            self.cum_acked += 1;
        }
        self.sent_bytes(self.cum_acked)
    }

    /// Payload bytes of the packets below `seq`.
    fn sent_bytes(&self, seq: u32) -> u64 {
        (seq as u64 * self.mss as u64).min(self.bytes)
    }

    /// Payload bytes of packet `seq`.
    #[inline]
    pub fn payload(&self, seq: u32) -> u32 {
        super::payload(self.bytes, self.mss, seq)
    }

    /// Bytes packet `seq` counts in the window (`host.window_bytes`).
    #[inline]
    fn charge(&self, seq: u32, t: &TransportParams) -> u64 {
        self.payload(seq) as u64 + t.window_header_bytes as u64
    }

    /// What it is ready to do now (as every call that changes it answers).
    #[inline]
    pub fn ready(&self, t: &TransportParams) -> Ready {
        Ready {
            data: self.has_data(),
            window: self.window_open(t),
        }
    }

    /// Has data to send (new, or presumed lost).
    #[inline]
    fn has_data(&self) -> bool {
        self.next_seq < self.pkts || !self.retx.is_empty()
    }

    /// Bytes a full packet counts in the window: what must fit for the window to be open.
    #[inline]
    fn full_charge(&self, t: &TransportParams) -> u64 {
        self.mss as u64 + t.window_header_bytes as u64
    }

    /// May send one more full packet now: the window has room for it (a flow with nothing
    /// in flight may always send one, so a window below one packet cannot stall it).
    #[inline]
    fn window_open(&self, t: &TransportParams) -> bool {
        self.inflight_bytes == 0 || self.inflight_bytes + self.full_charge(t) <= self.cc.window()
    }

    /// When its last packet was ACKed.
    pub fn finish(&self) -> Option<Time> {
        self.finish
    }

    /// When its first data packet left.
    pub fn first_tx(&self) -> Option<Time> {
        self.first_tx
    }

    pub fn retransmits(&self) -> u32 {
        self.retransmits
    }

    pub fn timeouts(&self) -> u32 {
        self.timeouts
    }

    /// Payload bytes ACKed.
    pub fn acked_bytes(&self) -> u64 {
        let last = self.pkts - 1;
        let short = if self.acked_seqs.get(last) {
            (self.mss - self.payload(last)) as u64
        } else {
            0
        };
        self.acked as u64 * self.mss as u64 - short
    }

    /// Starts the retransmission timer if the run has one and it is not running: returns
    /// when it fires.
    fn arm_timer(&mut self, t: &TransportParams, now: Time) -> Option<Time> {
        if t.rto.is_none() || self.timer_armed {
            return None;
        }
        self.timer_armed = true;
        self.last_progress = now;
        Some(now + self.rtt.rto())
    }

    /// `host.handshake`: the SYN goes out (again), under the retransmission timer: returns
    /// when the timer fires, if it was started.
    pub fn send_syn(&mut self, now: Time, t: &TransportParams) -> Option<Time> {
        self.syn_pending = true;
        self.arm_timer(t, now)
    }

    /// A SYN-ACK arrived: returns whether it opens the flow (the first one does).
    pub fn on_syn_ack(&mut self) -> bool {
        std::mem::replace(&mut self.syn_pending, false)
    }

    /// The NIC takes a data packet: the newest presumed lost, else the next new one. `None`
    /// if there is nothing to send (the window is the caller's to check).
    pub fn next_packet(&mut self, now: Time, t: &TransportParams) -> Option<Send> {
        if self.cc.is_rate() {
            self.cc.advance(now);
        }
        let retransmit = self.retx.pop();
        let seq = match retransmit {
            Some(seq) => {
                self.retransmits += 1;
                seq
            }
            None if self.next_seq < self.pkts => {
                self.first_tx.get_or_insert(now);
                self.next_seq += 1;
                self.next_seq - 1
            }
            None => return None,
        };
        self.inflight_bytes += self.charge(seq, t);
        self.outstanding.set(seq, true);
        if let Some(log) = self.log.as_mut() {
            log.sent_at[seq as usize] = now;
            log.order.push_back((now, seq));
        }
        // With coalesced ACKs, ask for one where waiting for more data would stall: the last
        // new packet, a retransmission, a packet that fills the window (as UEC's AR flag).
        let ack_req = t.ack_every_bytes > 0
            && (retransmit.is_some()
                || self.next_seq == self.pkts
                || self.inflight_bytes + self.full_charge(t) > self.cc.window());
        let timer = self.arm_timer(t, now);
        Some(Send {
            seq,
            payload: self.payload(seq),
            retransmit: retransmit.is_some(),
            ack_req,
            timer,
            ready: self.ready(t),
        })
    }

    /// An ACK arrived: per-packet ACKs name their packet; a coalesced one
    /// (`host.ack_every_bytes`) covers every entry of `log` up to its count. `int`: the hop
    /// records it echoes (HPCC), else empty.
    pub fn on_ack(
        &mut self,
        now: Time,
        ack: &Packet,
        log: &mut AckLog,
        t: &TransportParams,
        int: &[IntHop],
    ) -> Acked {
        let inflight = self.inflight_bytes;
        let (bytes, top) = self.take_acked(ack, log, t);
        if bytes == 0 {
            // Nothing new (the ACK of a duplicate), but a copy it took out of flight may
            // have opened the window.
            return Acked {
                moved: self.inflight_bytes < inflight,
                ready: self.ready(t),
                ..Acked::default()
            };
        }
        self.last_progress = now;
        // The first ACK opens the first round: it ends with the ACK of a packet sent from
        // now on.
        let end = *self.round_end.get_or_insert(self.next_seq);
        let window_done = top >= end;
        if window_done {
            self.round_end = Some(self.next_seq);
        }
        let rtt_ps = Time::from_ps((now.ps() as u32).wrapping_sub(ack.sent_ps) as u64);
        if let Some(rto) = &t.rto {
            self.rtt.sample(rto, rtt_ps);
        }
        let (snd_una, snd_nxt) = self.rate_ack(now);
        self.cc.on_ack(&AckInfo {
            bytes,
            ecn: ack.ecn(),
            rtt_ps,
            window_done,
            inflight: self.inflight_bytes,
            now,
            snd_una,
            snd_nxt,
            int,
        });
        let done = self.acked == self.pkts;
        if done {
            self.finish = Some(now);
        }
        let presumed_lost = match t.loss_recovery {
            LossRecovery::Dupack => self.repair_holes(top, now, t),
            LossRecovery::Rack => self.rack(now, t),
            LossRecovery::Rto => 0,
        };
        Acked {
            news: true,
            moved: true,
            done,
            presumed_lost,
            ready: self.ready(t),
        }
    }

    /// What an ACK covers that was not ACKed before: its window bytes and its highest
    /// sequence number. A per-packet ACK names its packet; a coalesced one
    /// (`host.ack_every_bytes`) every logged entry up to its count (none if a later ACK
    /// overtook it and took them already).
    fn take_acked(&mut self, ack: &Packet, log: &mut AckLog, t: &TransportParams) -> (u64, u32) {
        if t.ack_every_bytes == 0 {
            return (self.ack_seq(ack.seq, t), ack.seq);
        }
        let (mut bytes, mut top) = (0, 0);
        while let Some(seq) = log.take(ack.seq) {
            bytes += self.ack_seq(seq, t);
            top = top.max(seq);
        }
        (bytes, top)
    }

    /// Packet `seq` is known to have arrived: returns the bytes it counted in the window if
    /// that is news, 0 if it was ACKed before (then only a copy resent after the first ACK,
    /// when a timeout raced it, leaves flight). A packet presumed lost and not resent yet is
    /// not resent (as htsim's `UecSrc::handleAckno` takes it off its resend queue).
    fn ack_seq(&mut self, seq: u32, t: &TransportParams) -> u64 {
        let bytes = self.charge(seq, t);
        let in_flight = self.outstanding.set(seq, false);
        if in_flight {
            self.inflight_bytes -= bytes;
        }
        if self.acked_seqs.set(seq, true) {
            return 0;
        }
        if !in_flight {
            if let Some(i) = self.retx.iter().rposition(|&s| s == seq) {
                self.retx.remove(i);
            }
        }
        if let Some(log) = self.log.as_mut() {
            log.rack = log.rack.max(log.sent_at[seq as usize]);
        }
        self.acked += 1;
        debug_assert!(self.acked <= self.pkts);
        bytes
    }

    /// A NACK of `seq` (its packet was trimmed): if it was news (the packet is queued again
    /// and the window moved), what the sender is ready to do now; `None` if it was ACKed
    /// already or given up on by a timeout.
    pub fn on_nack(&mut self, now: Time, seq: u32, t: &TransportParams) -> Option<Ready> {
        if self.acked_seqs.get(seq) {
            return None;
        }
        let bytes = self.presume_lost(seq, t)?;
        self.inflight_bytes -= bytes;
        self.cc.on_loss(bytes, self.inflight_bytes, now);
        Some(self.ready(t))
    }

    /// If `seq` is in flight: takes it out of flight and queues it to be sent again, and
    /// returns the bytes it counted in the window (the caller takes them off
    /// `inflight_bytes` and tells the controller).
    #[inline]
    fn presume_lost(&mut self, seq: u32, t: &TransportParams) -> Option<u64> {
        if !self.outstanding.set(seq, false) {
            return None;
        }
        self.retx.push(seq);
        Some(self.charge(seq, t))
    }

    /// Takes `lost` bytes out of flight as a loss the controller sees.
    fn lose(&mut self, lost: u64, now: Time) {
        if lost > 0 {
            self.inflight_bytes -= lost;
            self.cc.on_loss(lost, self.inflight_bytes, now);
        }
    }

    /// `host.loss_recovery = "dupack"`: the ACK of `acked` makes every packet still in flight
    /// at least [`DUPTHRESH`] below it lost; each is resent once (a lost retransmission is
    /// left to the RTO). The scan only moves up, so it costs O(1) per packet. Returns how
    /// many it presumed lost.
    fn repair_holes(&mut self, acked: u32, now: Time, t: &TransportParams) -> u32 {
        let end = acked.saturating_sub(DUPTHRESH - 1);
        if self.hole_scan >= end {
            return 0;
        }
        let (mut lost, mut n) = (0, 0);
        for seq in self.hole_scan..end {
            if let Some(bytes) = self.presume_lost(seq, t) {
                lost += bytes;
                n += 1;
            }
        }
        self.hole_scan = end;
        self.lose(lost, now);
        n
    }

    /// With a send log: the send time and sequence number of the packet in flight sent
    /// longest ago, dropping the stale entries before it.
    fn oldest_in_flight(&mut self) -> Option<(Time, u32)> {
        let log = self.log.as_mut()?;
        while let Some(&(t, seq)) = log.order.front() {
            if self.outstanding.get(seq) && log.sent_at[seq as usize] == t {
                return Some((t, seq));
            }
            log.order.pop_front();
        }
        None
    }

    /// `host.loss_recovery = "rack"`: every packet in flight sent at least the reordering
    /// window before the latest-sent packet ACKed is presumed lost and resent once (a lost
    /// retransmission is left to the RTO). The send log is in time order, so the scan stops
    /// at the first packet that is not late and costs O(1) per packet. A packet sent again
    /// counts by its last send even if the ACK answers an earlier copy (RFC 8985 sets such
    /// ACKs aside); with the default window a hole is never resent before it could arrive, so
    /// only a timeout can make that ambiguity. Returns how many it presumed lost.
    fn rack(&mut self, now: Time, t: &TransportParams) -> u32 {
        let Some(window) = t.reorder_ps else {
            return 0;
        };
        let (mut lost, mut n) = (0, 0);
        while let Some((sent, seq)) = self.oldest_in_flight() {
            let log = self.log.as_mut().expect("rack keeps a send log");
            if sent + window > log.rack {
                break;
            }
            log.order.pop_front();
            lost += self
                .presume_lost(seq, t)
                .expect("the oldest in flight is in flight");
            n += 1;
        }
        self.lose(lost, now);
        n
    }

    /// The retransmission timer fired. Under [`super::RtoTimer::Progress`]: if nothing was
    /// ACKed for a whole RTO, every packet still in flight is presumed lost; under
    /// [`super::RtoTimer::Oldest`], the oldest packet in flight if it was sent an RTO ago.
    pub fn on_timeout(&mut self, now: Time, t: &TransportParams) -> Expiry {
        let rule = t.rto.expect("timers only run with an RTO");
        let rto = self.rtt.rto();
        self.timer_armed = false;
        if self.syn_pending && self.last_progress + rto <= now {
            self.timeouts += 1;
            self.rtt.backoff(&rule);
            return Expiry::ResendSyn;
        }
        if self.finish.is_some() || self.inflight_bytes == 0 {
            return Expiry::Idle;
        }
        match rule.timer {
            super::RtoTimer::Oldest => self.timeout_oldest(now, rto, t),
            super::RtoTimer::Progress => {
                if self.last_progress + rto > now {
                    // ACKs came since the timer was set: wait a full RTO from the last one.
                    self.timer_armed = true;
                    return Expiry::Rearm(self.last_progress + rto);
                }
                self.timeouts += 1;
                let sent = self.next_seq;
                let mut lost = 0;
                // The retransmission list is taken from its end: under RFC 6298 the oldest
                // hole goes first, as TCP resends after a timeout; the fixed timer keeps its
                // old order (newest first) so that earlier results reproduce.
                let oldest_first = rule.rule == super::RtoRule::Rfc6298;
                for i in 0..sent {
                    let seq = if oldest_first { sent - 1 - i } else { i };
                    lost += self.presume_lost(seq, t).unwrap_or(0);
                }
                self.inflight_bytes -= lost;
                self.cc.on_timeout(lost, now);
                self.rtt.backoff(&rule);
                self.last_progress = now;
                Expiry::Expired {
                    rearm: None,
                    ready: self.ready(t),
                }
            }
        }
    }

    /// `host.rto_timer = "oldest"`: if the oldest packet in flight was sent a whole `rto` ago
    /// it alone is presumed lost and leaves the window, and the timer moves on to the next
    /// oldest (at once if that one is overdue too).
    fn timeout_oldest(&mut self, now: Time, rto: Time, t: &TransportParams) -> Expiry {
        let Some((sent, seq)) = self.oldest_in_flight() else {
            return Expiry::Idle;
        };
        if sent + rto > now {
            self.timer_armed = true;
            return Expiry::Rearm(sent + rto);
        }
        self.log
            .as_mut()
            .expect("the oldest timer keeps a send log")
            .order
            .pop_front();
        let bytes = self
            .presume_lost(seq, t)
            .expect("the oldest in flight is in flight");
        self.inflight_bytes -= bytes;
        self.cc.on_packet_timeout(bytes);
        self.timeouts += 1;
        let next = self
            .oldest_in_flight()
            .map(|(next, _)| (next + rto).max(now));
        self.timer_armed = next.is_some();
        Expiry::Expired {
            rearm: next,
            ready: self.ready(t),
        }
    }
}

//! One flow's receiving end as a state machine: it records what arrived and decides when to
//! ACK (at once, or coalesced under `host.ack_every_bytes` with a delayed-ACK timer), and
//! does no I/O.

use std::collections::VecDeque;

use super::{Bits, TransportParams};
use crate::engine::Time;
use crate::net::Packet;

/// What coalesced ACKs carry (`host.ack_every_bytes`). The receiver logs each data packet's
/// sequence number; an ACK carries the log's length, and the sender takes every entry up to
/// it: a selective ACK of any length in a fixed-size packet. The deque holds the entries the
/// sender has not taken yet (those of ACKs in flight and of packets not yet ACKed), so it
/// stays about a window long.
#[derive(Default)]
pub struct AckLog {
    pending: VecDeque<u32>,
    /// Entries ever logged, and entries the sender took.
    logged: u32,
    taken: u32,
}

impl AckLog {
    /// Logs `seq`: returns the count an ACK sent now carries.
    fn record(&mut self, seq: u32) -> u32 {
        self.pending.push_back(seq);
        self.logged += 1;
        self.logged
    }

    /// The oldest entry not yet moved to the sender's copy of the log (the partitioned
    /// engine keeps a copy at each end when they are simulated apart).
    pub fn ship(&mut self) -> Option<u32> {
        self.pending.pop_front()
    }

    /// The sender's copy of the log receives an entry the receiver logged.
    pub fn receive(&mut self, seq: u32) {
        self.pending.push_back(seq);
    }

    /// The next entry an ACK carrying `count` covers that the sender has not taken yet.
    pub fn take(&mut self, count: u32) -> Option<u32> {
        if self.taken >= count {
            return None;
        }
        self.taken += 1;
        Some(self.pending.pop_front().expect("logged before ACKed"))
    }
}

/// One flow's receiver.
pub struct Receiver {
    pkts: u32,
    received: Bits,
    /// Distinct data packets received.
    count: u32,
    /// One past the highest sequence number received.
    next: u32,
    /// Wire bytes since the last ACK (with coalescing).
    unacked_bytes: u32,
    /// A packet asking for an ACK arrived while an earlier one was missing: ACK again once
    /// every packet below the highest one received has arrived (as htsim's UEC sink does).
    ack_request: bool,
    /// `host.ack_delay_us`: the last packet a held ACK answers (its entropy, path and send
    /// time), while one is held.
    held: Option<Packet>,
    /// The delayed-ACK timer is pending.
    timer_armed: bool,
}

/// What the receiver does about a data packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reply {
    /// ACK it now (a NACK if it was trimmed), carrying this sequence number (per-packet
    /// ACKs) or log count (coalesced).
    Now(u32),
    /// Hold the ACK; with `Some`, start the delayed-ACK timer to fire then.
    Later(Option<Time>),
}

/// A data packet's arrival, as the receiver saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Delivery {
    pub reply: Reply,
    /// It had arrived before (and is ACKed again).
    pub duplicate: bool,
    /// It arrived for the first time after a later sequence number.
    pub reordered: bool,
    /// It was the last one missing: the message is complete.
    pub complete: bool,
}

impl Receiver {
    pub fn new(pkts: u32) -> Self {
        Receiver {
            pkts,
            received: Bits::new(pkts),
            count: 0,
            next: 0,
            unacked_bytes: 0,
            ack_request: false,
            held: None,
            timer_armed: false,
        }
    }

    /// Distinct data packets received.
    pub fn received(&self) -> u32 {
        self.count
    }

    /// Data packet `p` of `wire` bytes arrived.
    pub fn on_data(
        &mut self,
        now: Time,
        p: &Packet,
        wire: u32,
        log: &mut AckLog,
        t: &TransportParams,
    ) -> Delivery {
        let mut d = Delivery {
            reply: Reply::Now(p.seq),
            duplicate: false,
            reordered: false,
            complete: false,
        };
        if p.trimmed() {
            // NACKed at once; nothing arrived.
            return d;
        }
        let first = self.count == 0;
        d.duplicate = self.received.set(p.seq, true);
        if !d.duplicate {
            if p.seq < self.next {
                d.reordered = true;
            } else {
                self.next = p.seq + 1;
            }
            self.count += 1;
            d.complete = self.count == self.pkts;
        }
        let every = t.ack_every_bytes;
        if every == 0 {
            return d;
        }
        let count = log.record(p.seq);
        self.unacked_bytes += wire;
        // Holes below the highest packet received: an ACK request then also asks for an ACK
        // once they are filled.
        let holes = self.count < self.next;
        let filled = self.ack_request && !holes;
        self.ack_request = holes && (p.ack_req() || self.ack_request);
        let at_once = d.duplicate
            || first
            || p.ecn()
            || p.ack_req()
            || filled
            || self.count == self.pkts
            || self.unacked_bytes >= every;
        d.reply = if at_once {
            self.unacked_bytes = 0;
            self.held = None;
            Reply::Now(count)
        } else {
            Reply::Later(t.ack_delay_ps.and_then(|delay| {
                // The held ACK will answer this packet.
                self.held = Some(*p);
                (!std::mem::replace(&mut self.timer_armed, true)).then_some(now + delay)
            }))
        };
        d
    }

    /// The delayed-ACK timer fired: the ACK still held, if any, goes out now, answering the
    /// last packet it covers and carrying the log's count.
    pub fn on_timer(&mut self, log: &AckLog) -> Option<(Packet, u32)> {
        self.timer_armed = false;
        let held = self.held.take()?;
        self.unacked_bytes = 0;
        Some((held, log.logged))
    }
}

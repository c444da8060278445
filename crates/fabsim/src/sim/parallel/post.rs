//! The mail between partitions: what one partition ships to the others within a window and
//! what they shipped to it, received at the start of its next window.
//!
//! Architecture Invariant: mail is exchanged only between windows ([`exchange`]), so a
//! partition never reads another's state while it runs; an ACK log entry reaches its
//! sender's copy before any ACK that covers it (both are shipped, the entry first).

use crate::engine::Time;
use crate::net::Packet;

/// A packet shipped to another partition: its port, its number there, its arrival time.
#[derive(Clone, Copy)]
pub(in crate::sim) struct Mail {
    pub(super) port: u32,
    pub(super) ticket: u64,
    pub(super) arrive: Time,
    pub(super) pkt: Packet,
}

/// One partition's post office.
pub(in crate::sim) struct Post {
    /// Remote ports ([`crate::sim::wire::Ring::remote`]) whose rings hold packets not yet
    /// shipped, and when the first of those arrives (as of the last window's end).
    pub(super) outgoing: Vec<u32>,
    pub(super) next_ship: Time,
    /// Per partition: packets shipped to it in this window (and the earliest arrival among
    /// them), and the ACK log entries (flow, sequence number) its senders' copies of their
    /// logs receive.
    pub(super) outbox: Vec<Vec<Mail>>,
    outbox_first: Vec<Time>,
    log_out: Vec<Vec<(u32, u32)>>,
    /// What other partitions shipped here, not yet received.
    pub(super) inbox: Vec<Vec<Mail>>,
    pub(super) inbox_first: Time,
    pub(super) log_in: Vec<Vec<(u32, u32)>>,
}

impl Post {
    pub(in crate::sim) fn new(parts: usize) -> Self {
        Post {
            outgoing: Vec::new(),
            next_ship: Time::MAX,
            outbox: vec![Vec::new(); parts],
            outbox_first: vec![Time::MAX; parts],
            log_out: vec![Vec::new(); parts],
            inbox: vec![Vec::new(); parts],
            inbox_first: Time::MAX,
            log_in: vec![Vec::new(); parts],
        }
    }

    /// How many partitions the run has.
    pub(in crate::sim) fn parts(&self) -> usize {
        self.outbox.len()
    }

    /// Crossing port `port`'s ring, empty until now, holds a packet to ship.
    #[inline]
    pub(in crate::sim) fn waits(&mut self, port: u32) {
        self.outgoing.push(port);
    }

    /// An ACK log entry (or [`crate::sim::host::SENDER_DONE`]) for partition `to`.
    #[inline]
    pub(in crate::sim) fn log(&mut self, to: u16, flow: u32, seq: u32) {
        self.log_out[to as usize].push((flow, seq));
    }

    /// A packet for partition `to`.
    pub(super) fn ship(&mut self, to: usize, m: Mail) {
        self.outbox_first[to] = self.outbox_first[to].min(m.arrive);
        self.outbox[to].push(m);
    }
}

/// Between windows: what partition `from` shipped to `to` becomes `to`'s inbox (and `from`
/// keeps the buffers `to` emptied, so that no window allocates).
pub(super) fn exchange(from: &mut Post, to: &mut Post, from_id: usize, to_id: usize) {
    debug_assert!(
        to.inbox[from_id].is_empty() && to.log_in[from_id].is_empty(),
        "partition {to_id} has not received partition {from_id}'s last mail"
    );
    let first = std::mem::replace(&mut from.outbox_first[to_id], Time::MAX);
    to.inbox_first = to.inbox_first.min(first);
    std::mem::swap(&mut from.outbox[to_id], &mut to.inbox[from_id]);
    std::mem::swap(&mut from.log_out[to_id], &mut to.log_in[from_id]);
}

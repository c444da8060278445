//! HPCC's in-band telemetry (`host.cc = "hpcc"`): every switch port a data packet leaves
//! stamps an [`IntHop`] into it, and its ACK carries the stamps back. A packet's 32-byte
//! ring slot has no room for five stamps, so they live here, per flow, in a ring indexed by
//! the packet's sequence number (a flow's packets in flight are fewer than its ring's
//! slots: the ring is sized from the window), from the flow's first packet until its sender
//! is done. One partition runs such a run (`parallel.rs`): a stamp written at a switch is
//! read at the sender.
//!
//! A stamp's queue is the bytes the packet found ahead of it at the port, where the
//! reference reads those behind it when it starts to leave (the two agree on a steady
//! queue; decision D82).

use crate::engine::Time;
use crate::transport::{IntHop, INT_HOPS};

/// One packet's stamps.
#[derive(Clone, Copy, Debug, Default)]
struct Stamps {
    seq: u32,
    n: u8,
    hops: [IntHop; INT_HOPS],
}

pub(super) struct Int {
    /// Per port: bytes it has sent (every packet, in the order offered).
    tx: Vec<u64>,
    /// Per flow: its packets' stamps, slot `seq % slots`.
    flows: Vec<Option<Box<[Stamps]>>>,
    slots: usize,
}

impl Int {
    /// Telemetry for `ports` ports and `flows` flows whose packets in flight are fewer than
    /// `in_flight`.
    pub(super) fn new(ports: usize, flows: usize, in_flight: u64) -> Self {
        Int {
            tx: vec![0; ports],
            flows: (0..flows).map(|_| None).collect(),
            slots: (in_flight.clamp(1, 1 << 16) as usize + 1).next_power_of_two(),
        }
    }

    /// Flow `flow`'s sender hands its NIC packet `seq`: its stamps start afresh.
    pub(super) fn sent(&mut self, flow: u32, seq: u32) {
        let slots = self.slots;
        let ring = self.flows[flow as usize]
            .get_or_insert_with(|| vec![Stamps::default(); slots].into_boxed_slice());
        ring[seq as usize % slots] = Stamps {
            seq,
            ..Stamps::default()
        };
    }

    /// A packet of `bytes` is accepted at switch port `port`; if it is flow `flow`'s data
    /// packet `seq` (`Some`), it leaves at `start` with `qlen` bytes ahead of it, at `rate`.
    pub(super) fn offered(
        &mut self,
        port: u32,
        bytes: u32,
        data: Option<(u32, u32)>,
        start: Time,
        qlen: u64,
        rate: u64,
    ) {
        let tx = &mut self.tx[port as usize];
        if let Some((flow, seq)) = data {
            let hop = IntHop::new(start, *tx, qlen, rate);
            if let Some(ring) = self.flows[flow as usize].as_mut() {
                let s = &mut ring[seq as usize % self.slots];
                if s.seq == seq {
                    s.hops[s.n as usize % INT_HOPS] = hop;
                    s.n = s.n.saturating_add(1);
                }
            }
        }
        *tx += bytes as u64;
    }

    /// The stamps data packet `seq` of flow `flow` collected (empty if they are gone).
    pub(super) fn echo(&self, flow: u32, seq: u32) -> &[IntHop] {
        match self.flows[flow as usize].as_ref() {
            Some(ring) => {
                let s = &ring[seq as usize % self.slots];
                if s.seq == seq {
                    &s.hops[..(s.n as usize).min(INT_HOPS)]
                } else {
                    &[]
                }
            }
            None => &[],
        }
    }

    /// Flow `flow`'s sender is done: its stamps go.
    pub(super) fn release(&mut self, flow: u32) {
        self.flows[flow as usize] = None;
    }
}

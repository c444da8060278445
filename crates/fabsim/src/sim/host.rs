//! The hosts as the event loop sees them: each flow's sender and receiver (state
//! machines in `transport`) are handed what arrives, and what they return becomes packets and
//! events here: the NIC's round-robin over its flows' data (pulled when the NIC is free, or
//! pushed into its queue as windows open: `host.nic`), ACKs and NACKs, timers, and the gates
//! that start dependent flows.

use super::multi_asic::Chassis;
use super::nic::Pick;
use super::{Event, Sim};
use crate::engine::{EventQueue, Time};
use crate::net::{Packet, PacketKind};
use crate::transport::{Expiry, Ready, Reply};
use crate::workload::deps::{Csr, Deps};

/// A log entry that is not one: the flow's sender is done, its receiver may go.
pub(super) const SENDER_DONE: u32 = u32::MAX;

impl<A: Chassis> Sim<'_, A> {
    pub(super) fn host_receive(&mut self, host: u32, p: Packet) {
        debug_assert!(p.kind() == PacketKind::Pfc || p.dst(&self.ends) == host);
        let (t, now, flow) = (&self.p.host.transport, self.now, p.flow);
        match p.kind() {
            PacketKind::Data => self.data_arrives(host, p),
            PacketKind::Ack => self.ack_arrives(p),
            PacketKind::Syn => {
                // The receiver answers every SYN (a resent one too).
                self.c.delivered += 1;
                self.c.created += 1;
                let syn_ack = p.answer(PacketKind::SynAck, p.seq);
                self.nic_send(host, syn_ack);
            }
            PacketKind::SynAck => {
                self.c.delivered += 1;
                if self.flows.get_mut(flow).is_some_and(|f| f.tx.on_syn_ack()) {
                    self.open(flow);
                }
            }
            PacketKind::Pfc => self.pfc_frame(self.fabric.nic(host).port(), p),
            PacketKind::Nack => {
                self.c.delivered += 1;
                let Some(f) = self.flows.get_mut(flow) else {
                    return;
                };
                if let Some(ready) = f.tx.on_nack(now, p.seq, t) {
                    let src = f.src;
                    self.answered(src, flow, ready, true);
                }
            }
        }
    }

    /// A data packet (or its trimmed header) reaches its receiver at `host`.
    #[inline]
    fn data_arrives(&mut self, host: u32, p: Packet) {
        let (t, now, flow) = (&self.p.host.transport, self.now, p.flow);
        if p.trimmed() {
            self.c.trimmed_delivered += 1;
        } else {
            self.c.delivered += 1;
        }
        let wire = self.wire_bytes(&p);
        if !self.receiver(flow) {
            // Released: its sender has every byte, so this is a duplicate (or its
            // trimmed header), answered at once as a complete receiver answers.
            self.c.duplicates += u64::from(!p.trimmed());
            return self.send_ack(host, &p, p.seq);
        }
        let to = self.owner[self.ends[flow as usize][0] as usize];
        let me = self.me;
        let f = self.flows.at(flow);
        let d = f.rx.on_data(now, &p, wire, &mut f.acks, t);
        if to != me {
            // The sender's copy of the log gets the entry at the window's end,
            // before the ACK that covers it can reach it.
            while let Some(seq) = f.acks.ship() {
                self.post.log(to, flow, seq);
            }
        }
        self.c.duplicates += d.duplicate as u64;
        self.c.reordered += d.reordered as u64;
        if d.complete {
            self.signal(|d| &d.recv_done, flow);
        }
        match d.reply {
            Reply::Now(seq) => self.send_ack(host, &p, seq),
            Reply::Later(Some(at)) => self.at_host(host, at, Event::AckTimer { flow }),
            Reply::Later(None) => {}
        }
    }

    /// An ACK reaches its sender.
    #[inline]
    fn ack_arrives(&mut self, p: Packet) {
        let (t, now, flow) = (&self.p.host.transport, self.now, p.flow);
        self.c.delivered += 1;
        let Some(f) = self.flows.get_mut(flow) else {
            // Released: every byte was acknowledged already.
            return;
        };
        let late = now >= self.second_half;
        let acked = if late { f.tx.acked_bytes() } else { 0 };
        let int = match &self.int {
            Some(int) => int.echo(flow, p.seq),
            None => &[],
        };
        let rate = self.int.as_ref().and(f.tx.rate_bps());
        let a = f.tx.on_ack(now, &p, &mut f.acks, t, int);
        if let (Some(old), Some(new)) = (rate, f.tx.rate_bps()) {
            if old != new {
                // HPCC moves the flow's next send by the change in its last gap.
                let (link, full) = (
                    &self.p.link,
                    self.p.link.payload_bytes + self.p.link.header_bytes,
                );
                self.nics
                    .repace(flow, link.gap(full, old), link.gap(full, new));
            }
        }
        if late {
            self.c.acked_late_bytes += f.tx.acked_bytes() - acked;
        }
        let src = f.src;
        if a.news {
            self.host_lb.on_ack(flow, p.entropy, p.ecn());
            self.progressed = true;
        }
        if a.done {
            self.completed += 1;
            self.signal(|d| &d.send_done, flow);
        }
        self.c.fast_retransmits += a.presumed_lost as u64;
        self.answered(src, flow, a.ready, a.moved);
        if a.done {
            self.release_sender(flow);
        }
    }

    /// Whether `flow`'s receiver is live at its destination (made live by its first packet
    /// in a partition that does not hold its sender); `false` once released.
    fn receiver(&mut self, flow: u32) -> bool {
        if self.flows.get(flow).is_none() && !self.flows.released(flow) {
            let f = self.make_flow(flow);
            self.flows.create(flow, f);
        }
        self.flows.get(flow).is_some()
    }

    /// `flow`'s sender has every byte acknowledged: its state goes, and the partition that
    /// holds its receiver (if another) releases that at the window's end.
    fn release_sender(&mut self, flow: u32) {
        let [src, dst] = self.ends[flow as usize];
        if let Some(int) = self.int.as_mut() {
            int.release(flow);
        }
        self.nics.release(src, flow);
        let to = self.owner[dst as usize];
        if to != self.me {
            self.post.log(to, flow, SENDER_DONE);
        }
        self.flows.release(flow, true);
    }

    /// Sends the ACK (or NACK, if `p` was trimmed) of data packet `p` from its receiver
    /// `host`: per-packet ACKs name their packet (`seq`), coalesced ones the log's length.
    fn send_ack(&mut self, host: u32, p: &Packet, seq: u32) {
        self.c.created += 1;
        let kind = if p.trimmed() {
            PacketKind::Nack
        } else {
            PacketKind::Ack
        };
        // A source-routed packet's ACK retraces its path: in a fat tree the same uplink
        // indices from the receiver's edge reach the same core (or aggregation switch), so
        // ACKs are spread exactly like the data.
        let ack = p.answer(kind, seq);
        self.nic_send(host, ack);
    }

    /// `host.ack_delay_us`: the receiver's delayed-ACK timer of `flow` fired.
    pub(super) fn ack_timer(&mut self, flow: u32) {
        let Some(f) = self.flows.get_mut(flow) else {
            // Released: a complete receiver holds no ACK.
            return;
        };
        if let Some((held, seq)) = f.rx.on_timer(&f.acks) {
            let dst = f.dst;
            self.send_ack(dst, &held, seq);
        }
    }

    /// `flow` may send: onto its host's send list.
    pub(super) fn open(&mut self, flow: u32) {
        let src = self.flows.at(flow).src;
        self.nics.open(src, flow);
        self.arm_nic(src);
    }

    /// `host.handshake`: sends (or resends) `flow`'s SYN, under the retransmission timer.
    pub(super) fn send_syn(&mut self, flow: u32) {
        let f = self.flows.at(flow);
        let src = f.src;
        if let Some(at) = f.tx.send_syn(self.now, &self.p.host.transport) {
            self.at_host(src, at, Event::Timeout { flow });
        }
        self.c.created += 1;
        let syn = Packet::new(flow, 0, PacketKind::Syn, self.now.ps() as u32);
        self.nic_send(src, syn);
    }

    /// `flow` completed (sending or receiving, as `list` selects): signal its gates, and
    /// start the flows whose last gate fired.
    fn signal(&mut self, list: fn(&Deps) -> &Csr, flow: u32) {
        let (specs, now, tickets, queue) =
            (self.specs, self.now, &mut self.tickets, &mut self.queue);
        self.gates.signal(list, flow, |t, delay| {
            let f = &specs[t as usize];
            let at = (now + delay).max(f.start_ps);
            queue.push_ticketed(at, tickets.host(f.src), Event::FlowStart { flow: t });
        });
    }

    /// The retransmission timer of `flow` fired.
    pub(super) fn timeout(&mut self, flow: u32) {
        let Some(f) = self.flows.get_mut(flow) else {
            // Released: a sender with every byte acknowledged is idle.
            return;
        };
        let src = f.src;
        match f.tx.on_timeout(self.now, &self.p.host.transport) {
            Expiry::Idle => {}
            Expiry::Rearm(at) => self.at_host(src, at, Event::Timeout { flow }),
            Expiry::ResendSyn => {
                self.c.timeouts += 1;
                self.send_syn(flow);
            }
            Expiry::Expired { rearm, ready } => {
                self.c.timeouts += 1;
                self.host_lb.on_timeout(flow, self.now);
                // The timer is scheduled before the NIC's wake-up, as the host numbers them.
                if let Some(at) = rearm {
                    self.at_host(src, at, Event::Timeout { flow });
                }
                self.answered(src, flow, ready, true);
            }
        }
    }

    /// `flow`'s sender at `host` answered `r`: the NIC takes it in and, if its window
    /// `moved`, is woken if it may send now.
    fn answered(&mut self, host: u32, flow: u32, r: Ready, moved: bool) {
        self.nics.answer(host, flow, r, moved);
        if moved {
            self.arm_nic(host);
        }
    }

    /// Makes sure a `NicFree` is pending for `host` if it has something to send.
    pub(super) fn arm_nic(&mut self, host: u32) {
        let busy = self.ports.stats[self.fabric.nic(host).port() as usize].busy_until;
        if let Some(at) = self.nics.wake_at(host, self.now, busy) {
            self.at_host(host, at, Event::NicFree { host });
        }
    }

    /// The NIC is free: hand it the next data packet, round-robin over the host's flows.
    pub(super) fn nic_free(&mut self, host: u32) {
        if !self.nics.due(host, self.now) {
            // Stale: a paced NIC was armed again for earlier.
            return;
        }
        if self.pfc.as_mut().is_some_and(|p| !p.nic_may_send(host)) {
            // Paused: the NIC takes its next packet at the RESUME.
            self.nics.disarm(host);
            return;
        }
        let fid = match self.nics.pick(host, self.now) {
            Pick::Flow(fid) => fid,
            Pick::Wait(at) => return self.at_host(host, at, Event::NicFree { host }),
            // Every flow waits for ACKs (or none has data); an answer re-arms the NIC.
            Pick::Idle => return,
        };
        let t = &self.p.host.transport;
        let f = self.flows.at(fid);
        debug_assert!(
            f.tx.ready(t)
                == (Ready {
                    data: true,
                    window: true
                }),
            "flow {fid}: the NIC picked a flow that cannot send"
        );
        let send =
            f.tx.next_packet(self.now, t)
                .expect("a flow on the send list has data");
        self.c.retransmits += send.retransmit as u64;
        if let Some(at) = send.timer {
            let key = self.tickets.host(host);
            self.queue
                .push_ticketed(at, key, Event::Timeout { flow: fid });
        }
        let wire = send.payload + self.p.link.header_bytes;
        let ser = if self.nics.paced() {
            Time::serialization(wire, self.p.link.rate_bps)
        } else {
            Time::ZERO
        };
        self.nics.served(host, fid, send.ready, self.now, ser);
        if let Some(rate) = self.nics.paces_flows().then(|| f.tx.rate_bps()).flatten() {
            self.nics
                .pace_flow(fid, self.now + self.p.link.gap(wire, rate));
        }
        let hops = f.hops;
        if let Some(int) = self.int.as_mut() {
            int.sent(fid, send.seq);
        }
        let mut pkt = Packet::new(fid, send.seq, PacketKind::Data, self.now.ps() as u32);
        (pkt.entropy, pkt.up) = self.host_lb.stamp(fid, host, hops, self.now);
        pkt.set_ack_req(send.ack_req);
        pkt.set_short(send.payload < self.p.link.payload_bytes);
        self.c.created += 1;
        self.nic_send(host, pkt);
        self.answered(host, fid, send.ready, true);
    }
}

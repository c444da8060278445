//! The hosts: the NIC's round-robin over its flows' data (pulled when the NIC is free, or
//! pushed into its queue as windows open: `host.nic`), receivers ACKing (or NACKing) data
//! packets, senders acting on ACKs, NACKs and retransmission timeouts, and the
//! gates that start dependent flows.

use super::multi_asic::Chassis;
use super::{Event, Sim};
use crate::engine::{EventQueue, Time};
use crate::net::{Packet, PacketKind};
use crate::transport::{AckInfo, LossRecovery, RtoRule, RtoTimer, DUPTHRESH};
use crate::workload::deps::{Csr, Deps};

impl<A: Chassis> Sim<'_, A> {
    pub(super) fn host_receive(&mut self, host: u32, p: Packet) {
        debug_assert_eq!(p.dst(&self.ends), host);
        match p.kind() {
            PacketKind::Data => {
                // ACK (or NACK, if trimmed) it, at once or coalesced; a duplicate is ACKed
                // again at once.
                let mut ack_now = true;
                let mut acked = p.seq;
                if p.trimmed() {
                    self.c.trimmed_delivered += 1;
                } else {
                    self.c.delivered += 1;
                    let every = self.p.ack_every_bytes;
                    let wire = self.wire_bytes(&p);
                    let f = &mut self.flows[p.flow as usize];
                    let first = f.recvd == 0;
                    let duplicate = f.received.set(p.seq, true);
                    if duplicate {
                        self.c.duplicates += 1;
                    } else {
                        if p.seq < f.rx_next {
                            self.c.reordered += 1;
                        } else {
                            f.rx_next = p.seq + 1;
                        }
                        f.recvd += 1;
                    }
                    if every > 0 {
                        f.rx_log.push_back(p.seq);
                        f.rx_logged += 1;
                        f.rx_unacked_bytes += wire;
                        // Holes below the highest packet received: an ACK request then
                        // also asks for an ACK once they are filled.
                        let holes = f.recvd < f.rx_next;
                        let filled = f.rx_ack_request && !holes;
                        f.rx_ack_request = holes && (p.ack_req() || f.rx_ack_request);
                        ack_now = duplicate
                            || first
                            || p.ecn()
                            || p.ack_req()
                            || filled
                            || f.recvd == f.pkts
                            || f.rx_unacked_bytes >= every;
                        if ack_now {
                            f.rx_unacked_bytes = 0;
                        }
                        acked = f.rx_logged;
                    }
                    if !duplicate && f.recvd == f.pkts {
                        self.signal(|d| &d.recv_done, p.flow);
                    }
                }
                if ack_now {
                    self.send_ack(host, &p, acked);
                } else if let Some(delay) = self.p.ack_delay_ps {
                    // The held ACK will answer this packet (its entropy, path and send time).
                    let f = &mut self.flows[p.flow as usize];
                    f.rx_held = p;
                    if !f.ack_timer_armed {
                        f.ack_timer_armed = true;
                        self.queue
                            .push(self.now + delay, Event::AckTimer { flow: p.flow });
                    }
                }
            }
            PacketKind::Ack => {
                self.c.delivered += 1;
                let flow = p.flow;
                let inflight = self.flows[flow as usize].inflight_bytes;
                let (bytes, top) = if self.p.ack_every_bytes == 0 {
                    (self.ack_seq(flow, p.seq), p.seq)
                } else {
                    // Every logged entry up to the ACK's count (none if a later ACK overtook
                    // this one and took them already).
                    let (mut bytes, mut top) = (0, 0);
                    while self.flows[flow as usize].tx_log_read < p.seq {
                        let f = &mut self.flows[flow as usize];
                        let seq = f.rx_log.pop_front().expect("logged before ACKed");
                        f.tx_log_read += 1;
                        bytes += self.ack_seq(flow, seq);
                        top = top.max(seq);
                    }
                    (bytes, top)
                };
                let f = &mut self.flows[flow as usize];
                if bytes == 0 {
                    // Nothing new (the ACK of a duplicate), but a copy it took out of flight
                    // may have opened the window.
                    if f.inflight_bytes < inflight {
                        self.window_moved(flow);
                    }
                    return;
                }
                self.host_lb.on_ack(flow, p.entropy, p.ecn());
                f.last_progress_ps = self.now;
                self.progress_event = self.c.events;
                if f.window_end == u32::MAX {
                    // The first ACK opens the first round: it ends with the ACK of a packet
                    // sent from now on.
                    f.window_end = f.next_seq;
                }
                let window_done = top >= f.window_end;
                if window_done {
                    f.window_end = f.next_seq;
                }
                let rtt_ps = Time::from_ps((self.now.ps() as u32).wrapping_sub(p.sent_ps) as u64);
                if let Some(rto) = &self.p.rto {
                    f.rtt.sample(rto, rtt_ps);
                }
                f.cc.on_ack(&AckInfo {
                    bytes,
                    ecn: p.ecn(),
                    rtt_ps,
                    window_done,
                    inflight: f.inflight_bytes,
                    now: self.now,
                });
                if f.acked == f.pkts {
                    f.finish_ps = Some(self.now);
                    self.completed += 1;
                    self.signal(|d| &d.send_done, flow);
                }
                match self.p.loss_recovery {
                    LossRecovery::Dupack => self.repair_holes(flow, top),
                    LossRecovery::Rack => self.rack(flow),
                    LossRecovery::Rto => {}
                }
                self.window_moved(flow);
            }
            PacketKind::Syn => {
                // The receiver answers every SYN (a resent one too).
                self.c.delivered += 1;
                self.c.created += 1;
                let syn_ack = p.answer(PacketKind::SynAck, p.seq);
                self.transmit(host, syn_ack, self.p.nic_fifo);
            }
            PacketKind::SynAck => {
                self.c.delivered += 1;
                let f = &mut self.flows[p.flow as usize];
                if f.syn_pending {
                    f.syn_pending = false;
                    self.open(p.flow);
                }
            }
            PacketKind::Nack => {
                self.c.delivered += 1;
                let f = &mut self.flows[p.flow as usize];
                if f.acked_seqs.get(p.seq) || !f.outstanding.set(p.seq, false) {
                    // Already ACKed, or already given up on by a timeout.
                    return;
                }
                let bytes = f.charge(p.seq, self.p);
                f.inflight_bytes -= bytes;
                f.cc.on_loss(bytes, f.inflight_bytes, self.now);
                self.requeue(p.flow, p.seq);
                self.window_moved(p.flow);
            }
        }
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
        self.transmit(host, ack, self.p.nic_fifo);
    }

    /// `host.ack_delay_us`: the receiver's delayed-ACK timer of `flow` fired; an ACK still
    /// held goes out now, covering every packet logged (answering the last one).
    pub(super) fn ack_timer(&mut self, flow: u32) {
        let f = &mut self.flows[flow as usize];
        f.ack_timer_armed = false;
        if f.rx_unacked_bytes == 0 {
            return;
        }
        f.rx_unacked_bytes = 0;
        let (held, seq, dst) = (f.rx_held, f.rx_logged, f.dst);
        self.send_ack(dst, &held, seq);
    }

    /// `flow` may send: onto its host's send list.
    pub(super) fn open(&mut self, flow: u32) {
        let src = self.flows[flow as usize].src;
        self.tx[src as usize].push(flow);
        self.arm_nic(src);
    }

    /// `host.handshake`: sends (or resends) `flow`'s SYN, under the retransmission timer.
    pub(super) fn send_syn(&mut self, flow: u32) {
        let f = &mut self.flows[flow as usize];
        f.syn_pending = true;
        let src = f.src;
        if let Some(at) = f.arm_timer(self.p, self.now) {
            self.queue.push(at, Event::Timeout { flow });
        }
        self.c.created += 1;
        let syn = Packet::new(flow, 0, PacketKind::Syn, self.now.ps() as u32);
        self.transmit(src, syn, self.p.nic_fifo);
    }

    /// The sender learns that `seq` of `flow` arrived: returns the bytes it counted in the
    /// window if that is news, 0 if it was ACKed before (then only a copy resent after the
    /// first ACK, when a timeout raced it, leaves flight).
    fn ack_seq(&mut self, flow: u32, seq: u32) -> u64 {
        let f = &mut self.flows[flow as usize];
        let bytes = f.charge(seq, self.p);
        let out = f.outstanding.set(seq, false);
        if out {
            f.inflight_bytes -= bytes;
        }
        if f.acked_seqs.set(seq, true) {
            return 0;
        }
        if let Some(log) = f.log.as_mut() {
            log.rack_ps = log.rack_ps.max(log.sent_at[seq as usize]);
        }
        f.acked += 1;
        debug_assert!(f.acked <= f.pkts);
        bytes
    }

    /// `flow` completed (sending or receiving, as `list` selects): signal its gates, and
    /// start the flows whose last gate fired.
    fn signal(&mut self, list: fn(&Deps) -> &Csr, flow: u32) {
        for &g in list(&self.deps).row(flow) {
            let left = &mut self.gate_left[g as usize];
            if *left == 0 {
                // A gate fires once (htsim's multishot triggers restart nothing here).
                continue;
            }
            *left -= 1;
            if *left > 0 {
                continue;
            }
            let delay = self.deps.delay_ps[g as usize];
            for &t in self.deps.targets.row(g) {
                let f = &mut self.flows[t as usize];
                f.waiting -= 1;
                if f.waiting == 0 {
                    let at = (self.now + delay).max(f.start_ps);
                    self.queue.push(at, Event::FlowStart { flow: t });
                }
            }
        }
    }

    /// `host.loss_recovery = "dupack"`: the ACK of `acked` makes every packet still in flight
    /// at least [`DUPTHRESH`] below it lost; each is resent once (a lost retransmission is
    /// left to the RTO). The scan only moves up, so it costs O(1) per packet.
    fn repair_holes(&mut self, flow: u32, acked: u32) {
        let p = self.p;
        let f = &mut self.flows[flow as usize];
        let end = acked.saturating_sub(DUPTHRESH - 1);
        if f.hole_scan >= end {
            return;
        }
        let mut lost = 0;
        for seq in f.hole_scan..end {
            let f = &mut self.flows[flow as usize];
            if f.outstanding.get(seq) {
                f.outstanding.set(seq, false);
                lost += f.charge(seq, p);
                self.c.fast_retransmits += 1;
                self.requeue(flow, seq);
            }
        }
        let f = &mut self.flows[flow as usize];
        f.hole_scan = end;
        if lost > 0 {
            f.inflight_bytes -= lost;
            f.cc.on_loss(lost, f.inflight_bytes, self.now);
        }
    }

    /// `host.loss_recovery = "rack"`: every packet in flight sent at least the reordering
    /// window before the latest-sent packet ACKed is presumed lost and resent once (a lost
    /// retransmission is left to the RTO). The send log is in time order, so the scan stops
    /// at the first packet that is not late and costs O(1) per packet. A packet sent again
    /// counts by its last send even if the ACK answers an earlier copy (RFC 8985 sets such
    /// ACKs aside); with the default window a hole is never resent before it could arrive, so
    /// only a timeout can make that ambiguity.
    fn rack(&mut self, flow: u32) {
        let Some(window) = self.p.reorder_ps else {
            return;
        };
        let p = self.p;
        let mut lost = 0;
        loop {
            let f = &mut self.flows[flow as usize];
            let Some((sent, seq)) = f.oldest_in_flight() else {
                break;
            };
            let log = f.log.as_mut().expect("rack keeps a send log");
            if sent + window > log.rack_ps {
                break;
            }
            log.order.pop_front();
            f.outstanding.set(seq, false);
            lost += f.charge(seq, p);
            self.c.fast_retransmits += 1;
            self.requeue(flow, seq);
        }
        if lost > 0 {
            let f = &mut self.flows[flow as usize];
            f.inflight_bytes -= lost;
            f.cc.on_loss(lost, f.inflight_bytes, self.now);
        }
    }

    /// Queues `seq` of `flow` for retransmission, putting the flow back on its host's send
    /// list if it had left it.
    fn requeue(&mut self, flow: u32, seq: u32) {
        let f = &mut self.flows[flow as usize];
        if !f.has_data() {
            self.tx[f.src as usize].push(flow);
        }
        f.retx.push(seq);
    }

    /// The retransmission timer of `flow` fired: if nothing was ACKed for a whole RTO, every
    /// packet still in flight is presumed lost and resent.
    pub(super) fn timeout(&mut self, flow: u32) {
        let rule = self.p.rto.expect("timers only run with an RTO");
        let p = self.p;
        let f = &mut self.flows[flow as usize];
        let rto = f.rtt.rto();
        f.timer_armed = false;
        if f.syn_pending && f.last_progress_ps + rto <= self.now {
            // The SYN or its SYN-ACK was lost.
            self.c.timeouts += 1;
            f.timeouts += 1;
            f.rtt.backoff(&rule);
            self.send_syn(flow);
            return;
        }
        if f.finish_ps.is_some() || f.inflight_bytes == 0 {
            return;
        }
        if rule.timer == RtoTimer::Oldest {
            self.timeout_oldest(flow, rto);
            return;
        }
        if f.last_progress_ps + rto > self.now {
            // ACKs came since the timer was set: wait a full RTO from the last one.
            f.timer_armed = true;
            let at = f.last_progress_ps + rto;
            self.queue.push(at, Event::Timeout { flow });
            return;
        }
        self.c.timeouts += 1;
        f.timeouts += 1;
        self.host_lb.on_timeout(flow, self.now);
        let sent = f.next_seq;
        let mut lost = 0;
        // The retransmission list is taken from its end: under RFC 6298 the oldest hole goes
        // first, as TCP resends after a timeout; the fixed timer keeps its old order (newest
        // first) so that earlier results reproduce.
        let oldest_first = rule.rule == RtoRule::Rfc6298;
        for i in 0..sent {
            let seq = if oldest_first { sent - 1 - i } else { i };
            let f = &mut self.flows[flow as usize];
            if f.outstanding.get(seq) {
                f.outstanding.set(seq, false);
                lost += f.charge(seq, p);
                self.requeue(flow, seq);
            }
        }
        let f = &mut self.flows[flow as usize];
        f.inflight_bytes -= lost;
        f.cc.on_timeout(lost, self.now);
        f.rtt.backoff(&rule);
        f.last_progress_ps = self.now;
        self.window_moved(flow);
    }

    /// `host.rto_timer = "oldest"`: the timer fired; if the oldest packet in flight was sent
    /// a whole `rto` ago it alone is presumed lost and leaves the window, and the timer moves
    /// on to the next oldest (at once if that one is overdue too).
    fn timeout_oldest(&mut self, flow: u32, rto: Time) {
        let p = self.p;
        let now = self.now;
        let f = &mut self.flows[flow as usize];
        let Some((sent, seq)) = f.oldest_in_flight() else {
            return;
        };
        if sent + rto > now {
            f.timer_armed = true;
            self.queue.push(sent + rto, Event::Timeout { flow });
            return;
        }
        f.log
            .as_mut()
            .expect("the oldest timer keeps a send log")
            .order
            .pop_front();
        f.outstanding.set(seq, false);
        let bytes = f.charge(seq, p);
        f.inflight_bytes -= bytes;
        f.cc.on_packet_timeout(bytes);
        f.timeouts += 1;
        self.c.timeouts += 1;
        self.host_lb.on_timeout(flow, now);
        self.requeue(flow, seq);
        let f = &mut self.flows[flow as usize];
        if let Some((next, _)) = f.oldest_in_flight() {
            f.timer_armed = true;
            self.queue
                .push((next + rto).max(now), Event::Timeout { flow });
        }
        self.window_moved(flow);
    }

    /// `flow`'s bytes in flight or its congestion window changed: refresh the copy of
    /// [`Flow::window_open`] the NIC's round robin reads (`Sim::window_open`), and make sure
    /// its NIC is armed (the window may have opened).
    fn window_moved(&mut self, flow: u32) {
        let f = &self.flows[flow as usize];
        self.window_open[flow as usize] = f.window_open(self.p.full_packet_charge());
        self.arm_nic(f.src);
    }

    /// Makes sure a `NicFree` is pending for `host` if it has something to send: when the
    /// NIC is free, or at once with `host.nic = "fifo"` (flows push into its queue).
    pub(super) fn arm_nic(&mut self, host: u32) {
        if !self.nic_armed[host as usize] && !self.tx[host as usize].is_empty() {
            self.nic_armed[host as usize] = true;
            let at = if self.p.nic_fifo {
                self.now
            } else {
                self.ports.stats[host as usize]
                    .busy_until
                    .max(self.now)
                    .max(self.next_tx[host as usize])
            };
            self.queue.push(at, Event::NicFree { host });
        }
    }

    /// The NIC is free: hand it the next data packet, round-robin over the host's flows.
    pub(super) fn nic_free(&mut self, host: u32) {
        let h = host as usize;
        self.nic_armed[h] = false;
        let list = &mut self.tx[h];
        if list.is_empty() {
            return;
        }
        // Round-robin over the host's flows, skipping those whose window is full.
        let payload_bytes = self.p.link.payload_bytes;
        let next_bytes = self.p.full_packet_charge();
        let start = self.cursor[h] as usize % list.len();
        let (flows, open) = (&self.flows, &self.window_open);
        let Some(i) = (0..list.len())
            .map(|j| (start + j) % list.len())
            .find(|&j| {
                let fid = list[j] as usize;
                debug_assert_eq!(open[fid], flows[fid].window_open(next_bytes), "flow {fid}");
                open[fid]
            })
        else {
            // Every flow waits for ACKs; an ACK re-arms the NIC.
            return;
        };
        let fid = list[i];
        let f = &mut self.flows[fid as usize];
        let retransmit = f.retx.pop();
        let seq = match retransmit {
            Some(seq) => {
                self.c.retransmits += 1;
                f.retransmits += 1;
                seq
            }
            None => {
                if f.next_seq == 0 {
                    f.first_tx_ps = self.now;
                }
                f.next_seq += 1;
                f.next_seq - 1
            }
        };
        f.inflight_bytes += f.charge(seq, self.p);
        f.outstanding.set(seq, true);
        if let Some(log) = f.log.as_mut() {
            log.sent_at[seq as usize] = self.now;
            log.order.push_back((self.now, seq));
        }
        // With coalesced ACKs, ask for one where waiting for more data would stall: the last
        // new packet, a retransmission, a packet that fills the window (as UEC's AR flag).
        let ack_req = self.p.ack_every_bytes > 0
            && (retransmit.is_some()
                || f.next_seq == f.pkts
                || f.inflight_bytes + next_bytes as u64 > f.cc.window());
        if let Some(at) = f.arm_timer(self.p, self.now) {
            self.queue.push(at, Event::Timeout { flow: fid });
        }
        if !f.has_data() {
            list.remove(i);
            self.cursor[h] = i as u32;
        } else {
            self.cursor[h] = i as u32 + 1;
        }
        let payload = f.payload(seq, payload_bytes) as u32;
        let wire = payload + self.p.link.header_bytes;
        let hops = f.hops;
        let mut pkt = Packet::new(fid, seq, PacketKind::Data, self.now.ps() as u32);
        (pkt.entropy, pkt.up) = self.host_lb.stamp(fid, hops, self.now);
        pkt.set_ack_req(ack_req);
        pkt.set_short(payload < payload_bytes);
        self.c.created += 1;
        if let Some(stretch) = self.pace {
            // Paced at rho_max: the next data packet waits as if this one took 1/rho longer.
            let ser = Time::serialization(wire, self.p.link.rate_bps);
            self.next_tx[h] = self.now + Time::from_ps_f64(ser.as_ps_f64() * stretch);
        }
        self.transmit(host, pkt, self.p.nic_fifo);
        self.window_moved(fid);
    }
}

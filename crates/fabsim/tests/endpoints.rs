//! The host transport's state machines without a fabric: a [`Sender`] and a [`Receiver`]
//! wired back to back, each test scripting what the network does to each packet (deliver,
//! trim, mark, reorder, lose) and checking what the endpoints decide.
use fabsim::engine::Time;
use fabsim::net::{Packet, PacketKind};
use fabsim::scenario::Scenario;
use fabsim::theory::LinkModel;
use fabsim::transport::{
    AckLog, Acked, Delivery, Expiry, Receiver, Reply, Send, Sender, TransportParams,
};

const US: Time = Time::from_us(1);

/// One flow of `bytes` over a fabric of 4,096-byte payloads, with host keys `host`.
struct Pair {
    t: TransportParams,
    link: LinkModel,
    tx: Sender,
    rx: Receiver,
    acks: AckLog,
    now: Time,
}

impl Pair {
    fn new(bytes: u64, host: &str) -> Self {
        let text = format!("[topology]\nk = 4\n[packet]\npayload_bytes = 4096\n[host]\n{host}\n");
        let p = Scenario::parse(&text, "t.toml").unwrap().expand().unwrap()[0]
            .params
            .clone();
        let tx = Sender::new(
            bytes,
            p.link.payload_bytes,
            &p.host.transport,
            p.link.base_rtt_ps(4),
        );
        Pair {
            rx: Receiver::new(tx.packets()),
            tx,
            t: p.host.transport,
            link: p.link,
            acks: AckLog::default(),
            now: Time::ZERO,
        }
    }

    /// Sends one data packet if the window is open: the packet as the NIC stamps it, and
    /// what the sender said about it.
    fn send_one(&mut self) -> Option<(Packet, Send)> {
        let r = self.tx.ready(&self.t);
        if !r.data || !r.window {
            return None;
        }
        let s = self.tx.next_packet(self.now, &self.t).unwrap();
        let mut p = Packet::new(0, s.seq, PacketKind::Data, self.now.ps() as u32);
        p.set_ack_req(s.ack_req);
        p.set_short(s.payload < self.link.payload_bytes);
        Some((p, s))
    }

    /// Sends while the window is open.
    fn send(&mut self) -> Vec<Packet> {
        std::iter::from_fn(|| self.send_one().map(|(p, _)| p)).collect()
    }

    /// `p` reaches the receiver: its delivery, and the ACK or NACK it sends now.
    fn deliver(&mut self, p: &Packet) -> (Delivery, Option<Packet>) {
        let wire = self.link.header_bytes + self.tx.payload(p.seq);
        let d = self.rx.on_data(self.now, p, wire, &mut self.acks, &self.t);
        let reply = match d.reply {
            Reply::Now(seq) => {
                let kind = if p.trimmed() {
                    PacketKind::Nack
                } else {
                    PacketKind::Ack
                };
                Some(p.answer(kind, seq))
            }
            Reply::Later(_) => None,
        };
        (d, reply)
    }

    fn ack(&mut self, a: &Packet) -> Acked {
        self.tx.on_ack(self.now, a, &mut self.acks, &self.t, &[])
    }

    /// Delivers each packet and hands its ACK straight back; the last ACK's outcome.
    fn round_trip(&mut self, pkts: &[Packet]) -> Acked {
        let mut last = Acked::default();
        for p in pkts {
            if let (_, Some(a)) = self.deliver(p) {
                last = self.ack(&a);
            }
        }
        last
    }
}

const PKT: u64 = 4096;

#[test]
fn an_in_order_transfer_completes_on_its_last_ack() {
    let mut e = Pair::new(10 * PKT - 100, "");
    let sent = e.send();
    assert_eq!(
        sent.len(),
        10,
        "no congestion control: the whole message at once"
    );
    assert!(sent[9].short() && !sent[8].short());
    e.now = 5 * US;
    let mut done = 0;
    for p in &sent {
        let (d, a) = e.deliver(p);
        assert!(!d.duplicate && !d.reordered);
        assert_eq!(d.complete, p.seq == 9);
        let r = e.ack(&a.unwrap());
        assert!(r.news && r.moved);
        done += r.done as u32;
    }
    assert_eq!(done, 1);
    assert_eq!(e.tx.finish(), Some(5 * US));
    assert_eq!(e.tx.first_tx(), Some(Time::ZERO));
    assert_eq!(e.tx.acked_bytes(), 10 * PKT - 100);
    assert_eq!(e.rx.received(), 10);
}

#[test]
fn reordering_and_duplicates_are_told_apart() {
    let mut e = Pair::new(4 * PKT, "");
    let sent = e.send();
    let reordered: Vec<bool> = sent
        .iter()
        .rev()
        .map(|p| e.deliver(p).0.reordered)
        .collect();
    assert_eq!(reordered, [false, true, true, true]);
    // A copy of packet 2 arrives again: ACKed again at once, no news to the sender.
    let (d, a) = e.deliver(&sent[2]);
    assert!(d.duplicate && !d.complete);
    let first = e.ack(&sent[2].answer(PacketKind::Ack, 2));
    assert!(first.news);
    let again = e.ack(&a.unwrap());
    assert_eq!(
        again,
        Acked {
            ready: e.tx.ready(&e.t),
            ..Acked::default()
        },
        "a second ACK of one packet changes nothing"
    );
}

#[test]
fn a_trimmed_packet_is_nacked_and_resent_once() {
    let mut e = Pair::new(3 * PKT, "");
    let mut sent = e.send();
    sent[1].trim();
    let (d, nack) = e.deliver(&sent[1]);
    assert_eq!(d.reply, Reply::Now(1));
    assert_eq!(e.rx.received(), 0, "a header carries no data");
    let nack = nack.unwrap();
    assert_eq!(nack.kind(), PacketKind::Nack);
    assert!(!e.tx.ready(&e.t).data);
    let ready = e.tx.on_nack(e.now, nack.seq, &e.t);
    assert_eq!(ready.map(|r| r.data), Some(true), "the NACKed packet waits");
    assert!(
        e.tx.on_nack(e.now, nack.seq, &e.t).is_none(),
        "a second NACK is not news"
    );
    let resend = e.send();
    assert_eq!(resend.len(), 1);
    assert_eq!(resend[0].seq, 1);
    assert_eq!(e.tx.retransmits(), 1);
    let last = e.round_trip(&[sent[0], sent[2], resend[0]]);
    assert!(last.done);
}

#[test]
fn coalesced_acks_cover_every_packet_logged() {
    // An ACK per 3 full packets (their wire bytes), with a timer as the backstop.
    let mut e = Pair::new(8 * PKT, "ack_every_bytes = 12480\nrto_us = 100");
    let sent = e.send();
    // Only the last new packet asks for an ACK (no window to fill).
    let asks: Vec<u32> = sent.iter().filter(|p| p.ack_req()).map(|p| p.seq).collect();
    assert_eq!(asks, [7]);
    let replies: Vec<Option<u32>> = sent.iter().map(|p| e.deliver(p).1.map(|a| a.seq)).collect();
    // The first packet at once; then every third; the last (asked, and complete).
    assert_eq!(
        replies,
        [Some(1), None, None, Some(4), None, None, Some(7), Some(8)]
    );
    // The ACK carrying count 4 covers packets 1-3; an older ACK arriving after it finds
    // nothing left to take.
    let a4 = sent[3].answer(PacketKind::Ack, 4);
    let r = e.ack(&a4);
    assert!(r.news);
    assert_eq!(e.tx.acked_bytes(), 4 * PKT);
    assert!(!e.ack(&sent[0].answer(PacketKind::Ack, 1)).news);
    assert!(e.ack(&sent[7].answer(PacketKind::Ack, 8)).done);
}

#[test]
fn a_held_ack_leaves_when_the_delayed_ack_timer_fires() {
    let mut e = Pair::new(4 * PKT, "ack_every_bytes = 100000\nack_delay_us = 2");
    let sent = e.send();
    assert!(
        e.deliver(&sent[0]).1.is_some(),
        "the first packet is ACKed at once"
    );
    e.now = US;
    let (d, _) = e.deliver(&sent[1]);
    assert_eq!(d.reply, Reply::Later(Some(3 * US)), "the timer starts");
    let (d, _) = e.deliver(&sent[2]);
    assert_eq!(d.reply, Reply::Later(None), "it is already running");
    let (held, count) = e.rx.on_timer(&e.acks).unwrap();
    assert_eq!(
        (held.seq, count),
        (2, 3),
        "answers the last packet, covers all three"
    );
    assert!(e.rx.on_timer(&e.acks).is_none(), "nothing held any more");
}

#[test]
fn ecn_marks_reach_dctcp_and_make_a_coalesced_ack_immediate() {
    let host = "cc = \"dctcp\"\ninit_window_bytes = 40960\nack_every_bytes = 100000\nrto_us = 100";
    let mut e = Pair::new(200 * PKT, host);
    let mut sent = e.send();
    let w0 = e.tx.ready(&e.t).window;
    assert!(!w0, "the initial window closed before the message was sent");
    for p in sent.iter_mut().skip(1) {
        p.mark_ecn();
    }
    // Every marked packet is ACKed at once despite the coalescing threshold.
    let replies = sent.iter().filter(|p| e.deliver(p).1.is_some()).count();
    assert_eq!(replies, sent.len());
    let mut clean = Pair::new(200 * PKT, host);
    let unmarked = clean.send();
    for (p, q) in sent.iter().zip(&unmarked) {
        e.ack(&p.answer(PacketKind::Ack, p.seq + 1));
        clean.round_trip(std::slice::from_ref(q));
    }
    assert!(
        e.send().len() < clean.send().len(),
        "marked ACKs leave a smaller window"
    );
}

#[test]
fn a_timeout_resends_everything_in_flight_and_waits_while_acks_bring_news() {
    let mut e = Pair::new(4 * PKT, "rto_us = 100\nrto = \"fixed\"");
    e.now = 10 * US;
    let sent = e.send();
    let (_, a) = e.deliver(&sent[0]);
    e.now = 60 * US;
    e.ack(&a.unwrap());
    // Armed at the first send, the timer finds news 50 us old: it waits a full RTO.
    e.now = 110 * US;
    assert_eq!(e.tx.on_timeout(e.now, &e.t), Expiry::Rearm(160 * US));
    e.now = 160 * US;
    assert!(matches!(
        e.tx.on_timeout(e.now, &e.t),
        Expiry::Expired { rearm: None, ready } if ready.data
    ));
    assert_eq!(e.tx.timeouts(), 1);
    let resent: Vec<u32> = e.send().iter().map(|p| p.seq).collect();
    assert_eq!(
        resent,
        [3, 2, 1],
        "packets 1-3 again (packet 0 was ACKed), newest first under the fixed timer"
    );
}

#[test]
fn three_later_acks_make_a_hole_lost_under_dupack() {
    let mut e = Pair::new(6 * PKT, "loss_recovery = \"dupack\"\nrto_us = 100");
    let sent = e.send();
    let lost: Vec<u32> = [0, 2, 3, 4]
        .iter()
        .map(|&i| e.round_trip(&[sent[i]]).presumed_lost)
        .collect();
    assert_eq!(
        lost,
        [0, 0, 0, 1],
        "packet 1 is lost once three later ones arrived"
    );
    let resent: Vec<u32> = e.send().iter().map(|p| p.seq).collect();
    assert_eq!(resent, [1]);
}

#[test]
fn rack_waits_for_the_reordering_window() {
    let mut e = Pair::new(
        4 * PKT,
        "loss_recovery = \"rack\"\nreorder_us = 1\nrto_us = 100",
    );
    let mut sent = Vec::new();
    for i in 0..4 {
        e.now = Time::from_ns(600 * i);
        sent.extend(e.send_one().map(|(p, _)| p));
    }
    // Packet 2 (sent 1.2 us) is ACKed: packet 0 (0 us) is a whole window older, packet 1
    // (0.6 us) is not.
    assert_eq!(e.round_trip(&[sent[2]]).presumed_lost, 1);
    let resent: Vec<u32> = e.send().iter().map(|p| p.seq).collect();
    assert_eq!(resent, [0]);
    // Packet 3 (1.8 us) makes packet 1 late too.
    assert_eq!(e.round_trip(&[sent[3]]).presumed_lost, 1);
}

#[test]
fn the_oldest_timer_gives_up_on_one_packet_at_a_time() {
    let mut e = Pair::new(
        3 * PKT,
        "rto_us = 100\nrto = \"fixed\"\nrto_timer = \"oldest\"",
    );
    let mut timers = Vec::new();
    for i in 0..3 {
        e.now = 10 * i * US;
        timers.extend(e.send_one().and_then(|(_, s)| s.timer));
    }
    assert_eq!(timers, [100 * US], "one timer, armed at the first send");
    e.now = 100 * US;
    assert!(matches!(
        e.tx.on_timeout(e.now, &e.t),
        Expiry::Expired { rearm: Some(at), ready } if at == 110 * US && ready.data
    ));
    let resent: Vec<u32> = e.send().iter().map(|p| p.seq).collect();
    assert_eq!(resent, [0], "only the oldest");
}

/// A packet the timer gave up on whose coalesced ACK then arrives is not sent again: it waited
/// to be resent (its window shut, or its NIC busy with other flows), and it arrived (as htsim's
/// UEC source takes it off its resend queue). Before, fabsim resent it all the same: about
/// 6,000 of the 17,600 duplicates per run of the all-to-all in `tests/reference.rs`.
#[test]
fn a_packet_acked_before_its_resend_is_not_resent() {
    let mut e = Pair::new(
        3 * PKT,
        "rto_us = 100\nrto = \"fixed\"\nrto_timer = \"oldest\"\nack_every_bytes = 16384",
    );
    let mut sent = Vec::new();
    for i in 0..3 {
        e.now = 10 * i * US;
        sent.extend(e.send_one().map(|(p, _)| p));
    }
    // Packet 0 is ACKed at once (the first), packet 1's ACK is held for coalescing.
    assert!(e.round_trip(&sent[..2]).news);
    e.now = 110 * US;
    assert!(matches!(
        e.tx.on_timeout(e.now, &e.t),
        Expiry::Expired { rearm: Some(at), ready } if at == 120 * US && ready.data
    ));
    assert!(e.tx.ready(&e.t).data, "packet 1 waits to be resent");
    // Packet 2, the last, asks for an ACK, which covers packet 1 too.
    assert!(e.round_trip(&sent[2..]).done);
    assert!(!e.tx.ready(&e.t).data, "nothing left to resend");
    assert!(e.send().is_empty());
    assert_eq!(e.tx.retransmits(), 0);
}

#[test]
fn the_handshake_resends_a_lost_syn_and_opens_once() {
    let mut e = Pair::new(PKT, "handshake = true\nrto_us = 100\nrto = \"rfc6298\"");
    assert_eq!(e.tx.send_syn(e.now, &e.t), Some(100 * US));
    e.now = 100 * US;
    assert_eq!(e.tx.on_timeout(e.now, &e.t), Expiry::ResendSyn);
    assert_eq!(e.tx.timeouts(), 1);
    assert_eq!(
        e.tx.send_syn(e.now, &e.t),
        Some(300 * US),
        "the timer backed off"
    );
    assert!(e.tx.on_syn_ack());
    assert!(!e.tx.on_syn_ack(), "a second SYN-ACK opens nothing");
}

#[test]
fn the_window_limits_what_is_in_flight() {
    let mut e = Pair::new(100 * PKT, "cc = \"dctcp\"\ninit_window_bytes = 20000");
    let sent = e.send();
    assert_eq!(sent.len(), 4, "four 4,096-byte packets fit in 20,000 bytes");
    e.round_trip(&sent[..1]);
    assert!(!e.send().is_empty(), "an ACK opens the window again");
}

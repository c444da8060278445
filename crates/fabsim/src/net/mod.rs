//! The network: packets, topologies and egress ports.

pub mod asic;
mod clos;
pub mod failures;
pub mod graph;
mod mesh;
pub mod pfc;
mod port;
mod topology;

pub use failures::{FailureSpec, Failures};
pub use mesh::Shortest;
pub(crate) use port::PendingMarks;
pub use port::{Backlog, EcnAt, Enqueue, Overflow, PortStats, Ports, TrimVictim};
pub use topology::{Fabric, NicPort, Node, Route, Stage, SwitchInfo, Tier, Topology, TopologySpec};

/// Every uplink valid: a Clos without link failures (a mask of valid uplinks otherwise).
pub const ALL_UPLINKS: u64 = u64::MAX;

/// What a packet is. ACKs are their own size class under Ofan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum PacketKind {
    Data = 0,
    Ack,
    /// Negative acknowledgement of a trimmed data packet.
    Nack,
    /// Connection set-up (`host.handshake`): the SYN to the receiver.
    Syn,
    /// The receiver's answer to a SYN.
    SynAck,
    /// A PFC frame from a switch to its upstream neighbour (`switch.pfc`): a PAUSE if its
    /// `seq` is 1, a RESUME if 0. It belongs to no flow.
    Pfc,
}

impl PacketKind {
    /// Goes from a flow's receiver back to its sender.
    #[inline]
    pub fn to_sender(self) -> bool {
        matches!(
            self,
            PacketKind::Ack | PacketKind::Nack | PacketKind::SynAck
        )
    }
}

/// A packet in flight. Lives in each link's ring of packets in flight (most of a large
/// run's memory), so it is 20 bytes: its kind and marks share one byte, and its size is not
/// stored but follows from them (`size`).
#[derive(Clone, Copy, Debug)]
pub struct Packet {
    pub flow: u32,
    pub seq: u32,
    /// When the data packet was handed to the sender's NIC, modulo 2^32 ps (echoed by its
    /// ACK): RTT samples, exact for round trips under 4.29 ms.
    pub sent_ps: u32,
    /// Host-side entropy, hashed by ECMP switches (echoed by ACKs).
    pub entropy: u16,
    /// Source-routed up path, if the sender chose one (DRB, ETHEREAL).
    pub up: UpPath,
    flags: Flags,
    /// CONGA's overlay fields (leaf-spine with `switch.lb = "conga"`).
    pub conga: CongaTag,
}

/// A packet's kind (3 bits) and its four marks, in one byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Flags(u8);

impl Flags {
    const KIND: u8 = 0b111;
    /// Cut to its header by a full buffer.
    const TRIMMED: u8 = 1 << 3;
    /// ECN: marked by a congested port (data), echoed (ACKs).
    const ECN: u8 = 1 << 4;
    /// Data: the sender asks for an ACK at once (`host.ack_every_bytes` coalescing: the last
    /// new packet, a retransmission, or one that fills the window).
    const ACK_REQ: u8 = 1 << 5;
    /// Data: its flow's last packet, with less than a full payload.
    const SHORT: u8 = 1 << 6;

    fn has(self, bit: u8) -> bool {
        self.0 & bit != 0
    }

    fn put(&mut self, bit: u8, on: bool) {
        self.0 = self.0 & !bit | if on { bit } else { 0 };
    }
}

/// The size classes of packets on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WireSize {
    /// ACK, NACK, SYN, SYN-ACK: all `packet.ack_bytes`.
    Control,
    /// A trimmed data packet: its header.
    Header,
    /// A PFC frame: [`pfc::FRAME_BYTES`]. (The classes that are not data come first: one
    /// comparison tells them.)
    Frame,
    /// A data packet with a full payload.
    FullData,
    /// A flow's last data packet, with less than a full payload.
    ShortData,
}

/// CONGA's overlay header (`switch.lb = "conga"`): the source leaf's uplink and the path's
/// congestion metric on the way out, one feedback entry for the reverse direction; the two
/// 3-bit metrics share a byte. `lb::Conga` writes and reads them; every other scheme leaves
/// them zero.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CongaTag {
    pub tag: u8,
    pub fb_tag: u8,
    metrics: u8,
}

impl CongaTag {
    /// The path's congestion metric (0..=7).
    pub fn ce(self) -> u8 {
        self.metrics & 0xF
    }

    pub fn set_ce(&mut self, m: u8) {
        debug_assert!(m < 8);
        self.metrics = self.metrics & 0xF0 | m;
    }

    /// The fed-back entry's metric (0..=7).
    pub fn fb_metric(self) -> u8 {
        self.metrics >> 4
    }

    pub fn set_fb_metric(&mut self, m: u8) {
        debug_assert!(m < 8);
        self.metrics = self.metrics & 0x0F | m << 4;
    }
}

impl Packet {
    /// A placeholder for a slot a real packet fills before it is read.
    pub const NONE: Packet = Packet::new(0, 0, PacketKind::Data, 0);

    /// A packet of `flow` with no entropy, up path, marks or overlay.
    pub const fn new(flow: u32, seq: u32, kind: PacketKind, sent_ps: u32) -> Self {
        Packet {
            flow,
            seq,
            sent_ps,
            entropy: 0,
            up: UpPath::NONE,
            flags: Flags(kind as u8),
            conga: CongaTag {
                tag: 0,
                fb_tag: 0,
                metrics: 0,
            },
        }
    }

    #[inline]
    pub fn kind(&self) -> PacketKind {
        // A table, not a match: a load on every hop instead of comparisons (the kind bits
        // only ever hold a `PacketKind`; the table's last entries are never read).
        const KINDS: [PacketKind; 8] = [
            PacketKind::Data,
            PacketKind::Ack,
            PacketKind::Nack,
            PacketKind::Syn,
            PacketKind::SynAck,
            PacketKind::Pfc,
            PacketKind::Pfc,
            PacketKind::Pfc,
        ];
        KINDS[(self.flags.0 & Flags::KIND) as usize]
    }

    /// This packet turned into a control packet of `kind` and sequence number `seq` (an ACK
    /// or NACK of a data packet, a SYN-ACK of a SYN): no longer trimmed, short or asking for
    /// an ACK; ECN, entropy, up path, send time and overlay stay (echoed).
    pub fn answer(&self, kind: PacketKind, seq: u32) -> Self {
        debug_assert!(kind != PacketKind::Data);
        Packet {
            seq,
            flags: Flags(kind as u8 | self.flags.0 & Flags::ECN),
            ..*self
        }
    }

    /// Cut to its header by a full buffer.
    #[inline]
    pub fn trimmed(&self) -> bool {
        self.flags.has(Flags::TRIMMED)
    }

    pub fn trim(&mut self) {
        self.flags.put(Flags::TRIMMED, true);
    }

    /// ECN: marked by a congested port (data), echoed (ACKs).
    #[inline]
    pub fn ecn(&self) -> bool {
        self.flags.has(Flags::ECN)
    }

    pub fn mark_ecn(&mut self) {
        self.flags.put(Flags::ECN, true);
    }

    /// Data: the sender asks for an ACK at once.
    #[inline]
    pub fn ack_req(&self) -> bool {
        self.flags.has(Flags::ACK_REQ)
    }

    pub fn set_ack_req(&mut self, on: bool) {
        self.flags.put(Flags::ACK_REQ, on);
    }

    /// Data: its flow's last packet, with less than a full payload (see `size`).
    #[inline]
    pub fn short(&self) -> bool {
        self.flags.has(Flags::SHORT)
    }

    pub fn set_short(&mut self, on: bool) {
        self.flags.put(Flags::SHORT, on);
    }

    /// Which of the sizes a packet can have on the wire it has (the simulator maps them to
    /// bytes: the link model's sizes, and for a short last packet its flow's remainder).
    #[inline]
    pub fn size(&self) -> WireSize {
        if self.kind() != PacketKind::Data {
            if self.kind() == PacketKind::Pfc {
                WireSize::Frame
            } else {
                WireSize::Control
            }
        } else if self.trimmed() {
            WireSize::Header
        } else if self.short() {
            WireSize::ShortData
        } else {
            WireSize::FullData
        }
    }

    /// The packet's destination host: of its flow's two ends (`ends[flow] = [sender,
    /// receiver]`), the one its kind goes to. Neither end is stored: the packet (and each
    /// link's ring of packets in flight) stays small.
    #[inline]
    pub fn dst(&self, ends: &[[u32; 2]]) -> u32 {
        ends[self.flow as usize][!self.kind().to_sender() as usize]
    }

    /// The packet's source host: the other end of its flow.
    #[inline]
    pub fn src(&self, ends: &[[u32; 2]]) -> u32 {
        ends[self.flow as usize][self.kind().to_sender() as usize]
    }
}

/// A source-routed up path: the uplink to take at the edge (leaf) switch and at the
/// aggregation switch, or none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UpPath(u16);

impl UpPath {
    pub const NONE: UpPath = UpPath(u16::MAX);

    pub fn new(edge: u32, agg: u32) -> Self {
        debug_assert!(edge < 255 && agg < 255);
        UpPath(edge as u16 | (agg as u16) << 8)
    }

    pub fn is_none(self) -> bool {
        self == Self::NONE
    }

    pub fn edge(self) -> u32 {
        (self.0 & 0xFF) as u32
    }

    pub fn agg(self) -> u32 {
        (self.0 >> 8) as u32
    }

    /// The uplink to take at a switch of `tier` (edge: the first, else the second).
    #[inline]
    pub fn at(self, tier: Tier) -> u32 {
        match tier {
            Tier::Edge => self.edge(),
            _ => self.agg(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Packets fill every link's ring of packets in flight (most of a large run's memory):
    /// a field more than fits in the padding makes every run bigger.
    #[test]
    fn a_packet_is_20_bytes() {
        assert_eq!(std::mem::size_of::<Packet>(), 20);
    }

    #[test]
    fn a_packets_size_follows_from_its_kind_and_marks() {
        let mut data = Packet::new(0, 5, PacketKind::Data, 7);
        assert_eq!(data.size(), WireSize::FullData);
        data.set_short(true);
        assert_eq!(data.size(), WireSize::ShortData);
        data.mark_ecn();
        data.set_ack_req(true);
        data.trim();
        assert!(data.trimmed() && data.ecn() && data.ack_req() && data.short());
        assert_eq!(data.kind(), PacketKind::Data);
        assert_eq!(
            data.size(),
            WireSize::Header,
            "a trimmed packet is its header"
        );
        let nack = data.answer(PacketKind::Nack, 9);
        assert_eq!(
            (nack.kind(), nack.seq, nack.sent_ps),
            (PacketKind::Nack, 9, 7)
        );
        assert!(nack.ecn(), "the mark is echoed");
        assert!(!nack.trimmed() && !nack.ack_req() && !nack.short());
        assert_eq!(nack.size(), WireSize::Control);
        for kind in [PacketKind::Ack, PacketKind::Syn, PacketKind::SynAck] {
            assert_eq!(Packet::new(0, 0, kind, 0).kind(), kind);
        }
        let mut tag = CongaTag::default();
        tag.set_ce(5);
        tag.set_fb_metric(7);
        tag.set_ce(3);
        assert_eq!((tag.ce(), tag.fb_metric()), (3, 7));
    }

    #[test]
    fn a_packets_ends_are_its_flows_by_its_kind() {
        let ends = [[3, 7]];
        let data = Packet::new(0, 0, PacketKind::Data, 0);
        let ack = Packet::new(0, 0, PacketKind::Ack, 0);
        let syn = Packet::new(0, 0, PacketKind::Syn, 0);
        let syn_ack = Packet::new(0, 0, PacketKind::SynAck, 0);
        assert_eq!((data.src(&ends), data.dst(&ends)), (3, 7));
        assert_eq!((ack.src(&ends), ack.dst(&ends)), (7, 3));
        assert_eq!((syn.dst(&ends), syn_ack.dst(&ends)), (7, 3));
    }
}

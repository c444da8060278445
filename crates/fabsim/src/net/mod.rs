//! The network: packets, topologies and egress ports.

pub mod asic;
pub mod failures;
mod port;
mod topology;

pub use failures::{FailureSpec, Failures};
pub use port::{EcnAt, Enqueue, Overflow, PortStats, Ports, TrimVictim};
pub use topology::{Fabric, Route, Stage, SwitchInfo, Tier, TopologySpec};

/// What a packet is. ACKs are their own size class under Ofan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PacketKind {
    Data,
    Ack,
    /// Negative acknowledgement of a trimmed data packet.
    Nack,
    /// Connection set-up (`host.handshake`): the SYN to the receiver.
    Syn,
    /// The receiver's answer to a SYN.
    SynAck,
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

/// A packet in flight. Lives in the simulator's slab; events carry its `u32` index.
#[derive(Clone, Copy, Debug)]
pub struct Packet {
    pub flow: u32,
    pub seq: u32,
    /// Bytes on the wire (payload plus header, or the ACK size).
    pub bytes: u32,
    pub kind: PacketKind,
    /// Cut to its header by a full buffer.
    pub trimmed: bool,
    /// Host-side entropy, hashed by ECMP switches (echoed by ACKs).
    pub entropy: u16,
    /// Source-routed up path, if the sender chose one (DRB, ETHEREAL).
    pub up: UpPath,
    /// ECN: marked by a congested port (data), echoed (ACKs).
    pub ecn: bool,
    /// Data: the sender asks for an ACK at once (`host.ack_every_bytes` coalescing: the
    /// last new packet, a retransmission, or one that fills the window).
    pub ack_req: bool,
    /// When the data packet was handed to the sender's NIC, modulo 2^32 ps (echoed by its
    /// ACK): RTT samples, exact for round trips under 4.29 ms. 32 bits keep the packet, and
    /// each link's ring of packets in flight, 8 bytes smaller.
    pub sent_ps: u32,
    /// CONGA's overlay fields (leaf-spine with `switch.lb = "conga"`).
    pub conga: CongaTag,
}

/// CONGA's overlay header (`switch.lb = "conga"`): the source leaf's uplink and the path's
/// congestion metric on the way out, one feedback entry for the reverse direction.
/// `lb::Conga` writes and reads them; every other scheme leaves them zero.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CongaTag {
    pub tag: u8,
    pub ce: u8,
    pub fb_tag: u8,
    pub fb_metric: u8,
}

impl Packet {
    /// A placeholder for a slot a real packet fills before it is read.
    pub const NONE: Packet = Packet {
        flow: 0,
        seq: 0,
        bytes: 0,
        kind: PacketKind::Data,
        trimmed: false,
        entropy: 0,
        up: UpPath::NONE,
        ecn: false,
        ack_req: false,
        sent_ps: 0,
        conga: CongaTag {
            tag: 0,
            ce: 0,
            fb_tag: 0,
            fb_metric: 0,
        },
    };

    /// The packet's destination host: of its flow's two ends (`ends[flow] = [sender,
    /// receiver]`), the one its kind goes to. Neither end is stored: the packet (and each
    /// link's ring of packets in flight) stays small.
    #[inline]
    pub fn dst(&self, ends: &[[u32; 2]]) -> u32 {
        ends[self.flow as usize][!self.kind.to_sender() as usize]
    }

    /// The packet's source host: the other end of its flow.
    #[inline]
    pub fn src(&self, ends: &[[u32; 2]]) -> u32 {
        ends[self.flow as usize][self.kind.to_sender() as usize]
    }
}

#[cfg(test)]
impl Packet {
    /// A fresh packet of `flow` for unit tests: no entropy, up path, marks or overlay.
    pub fn for_test(flow: u32, seq: u32, bytes: u32, kind: PacketKind) -> Self {
        Packet {
            flow,
            seq,
            bytes,
            kind,
            ..Packet::NONE
        }
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
    fn a_packet_is_28_bytes() {
        assert_eq!(std::mem::size_of::<Packet>(), 28);
    }

    #[test]
    fn a_packets_ends_are_its_flows_by_its_kind() {
        let ends = [[3, 7]];
        let data = Packet::for_test(0, 0, 4160, PacketKind::Data);
        let ack = Packet::for_test(0, 0, 64, PacketKind::Ack);
        let syn = Packet::for_test(0, 0, 64, PacketKind::Syn);
        let syn_ack = Packet::for_test(0, 0, 64, PacketKind::SynAck);
        assert_eq!((data.src(&ends), data.dst(&ends)), (3, 7));
        assert_eq!((ack.src(&ends), ack.dst(&ends)), (7, 3));
        assert_eq!((syn.dst(&ends), syn_ack.dst(&ends)), (7, 3));
    }
}

//! The network: packets, topologies and egress ports.

mod port;
mod topology;

pub use port::{Enqueue, PortStats, Ports};
pub use topology::{Fabric, Route, Stage, SwitchInfo, Tier, TopologySpec};

/// What a packet is. ACKs are their own size class under Ofan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PacketKind {
    Data,
    Ack,
    /// Negative acknowledgement of a trimmed data packet.
    Nack,
}

/// A packet in flight. Lives in the simulator's slab; events carry its `u32` index.
#[derive(Clone, Copy, Debug)]
pub struct Packet {
    pub flow: u32,
    pub seq: u32,
    /// Source and destination host of this packet (an ACK goes from the flow's receiver back).
    pub src: u32,
    pub dst: u32,
    /// Bytes on the wire (payload plus header, or the ACK size).
    pub bytes: u32,
    pub kind: PacketKind,
    /// Cut to its header by a full buffer.
    pub trimmed: bool,
}

//! `link.*` and `packet.*`: link speed and delay, packet sizes.

use super::keys::{int, keys, number, Key, Keys};
use crate::engine::Time;
use crate::theory::LinkModel;

keys! {
    RATE_GBPS: Key {
        name: "link.rate_gbps",
        kind: number(0.001, 100_000.0),
        default: Some("800"),
        unit: "Gb/s",
        meaning: "every link's rate (1 Mb/s to 100 Tb/s)",
    },
    DELAY_NS: Key {
        name: "link.delay_ns",
        kind: number(0.0, 1e9),
        default: Some("500"),
        unit: "ns",
        meaning: "every link's propagation delay (up to 1 s)",
    },
    PAYLOAD_BYTES: Key {
        name: "packet.payload_bytes",
        kind: int(1, 1 << 20),
        default: Some("4096"),
        unit: "bytes",
        meaning: "payload of a full data packet (up to 1 MiB)",
    },
    HEADER_BYTES: Key {
        name: "packet.header_bytes",
        kind: int(1, 65_536),
        default: Some("64"),
        unit: "bytes",
        meaning: "header of a data packet (a trimmed packet keeps only this)",
    },
    ACK_BYTES: Key {
        name: "packet.ack_bytes",
        kind: int(1, 65_536),
        default: Some("64"),
        unit: "bytes",
        meaning: "size of an ACK or NACK",
    },
}

pub fn parse(k: &Keys) -> LinkModel {
    LinkModel {
        rate_bps: (k.float(RATE_GBPS) * 1e9).round() as u64,
        delay_ps: Time::from_ns_f64(k.float(DELAY_NS)),
        payload_bytes: k.u32(PAYLOAD_BYTES),
        header_bytes: k.u32(HEADER_BYTES),
        ack_bytes: k.u32(ACK_BYTES),
    }
}

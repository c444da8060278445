//! `link.*` and `packet.*`: link speed and delay, packet sizes.

use super::keys::{int, number, Key, Keys};
use crate::engine::Time;
use crate::theory::LinkModel;

pub const KEYS: &[Key] = &[
    Key {
        name: "link.rate_gbps",
        kind: number(0.001, 100_000.0),
        default: Some("800"),
        unit: "Gb/s",
        meaning: "every link's rate (1 Mb/s to 100 Tb/s)",
    },
    Key {
        name: "link.delay_ns",
        kind: number(0.0, 1e9),
        default: Some("500"),
        unit: "ns",
        meaning: "every link's propagation delay (up to 1 s)",
    },
    Key {
        name: "packet.payload_bytes",
        kind: int(1, 1 << 20),
        default: Some("4096"),
        unit: "bytes",
        meaning: "payload of a full data packet (up to 1 MiB)",
    },
    Key {
        name: "packet.header_bytes",
        kind: int(1, 65_536),
        default: Some("64"),
        unit: "bytes",
        meaning: "header of a data packet (a trimmed packet keeps only this)",
    },
    Key {
        name: "packet.ack_bytes",
        kind: int(1, 65_536),
        default: Some("64"),
        unit: "bytes",
        meaning: "size of an ACK or NACK",
    },
];

pub fn parse(k: &Keys) -> LinkModel {
    LinkModel {
        rate_bps: (k.float("link.rate_gbps") * 1e9).round() as u64,
        delay_ps: Time::from_ns_f64(k.float("link.delay_ns")),
        payload_bytes: k.u32("packet.payload_bytes"),
        header_bytes: k.u32("packet.header_bytes"),
        ack_bytes: k.u32("packet.ack_bytes"),
    }
}

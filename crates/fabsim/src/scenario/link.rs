//! `link.*` and `packet.*`: link speed and delay, packet sizes.

use super::keys::{int, keys, named, names, number, Key, Keys, Kind, Named, ScenarioError};
use crate::engine::Time;
use crate::net::TopologySpec;
use crate::params::SimParams;
use crate::theory::{LinkModel, Serialization};
use toml::Value;

named!(Serialization);

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
    SERIALIZATION: Key {
        name: "link.serialization",
        kind: Kind::Choice(names::<Serialization>),
        default: Some("\"exact\""),
        unit: "",
        meaning: "a packet's serialization time: exact (to the picosecond, rounded up), or floor-ns (rounded down to a whole nanosecond, as ns-3 takes it: 83 ns for 1048 B at 100 Gb/s, not 83.84); pacing gaps are rounded alike",
    },
}

/// The link model; a topology file's link rate and delay, where it gives them, replace the
/// defaults of `link.rate_gbps` and `link.delay_ns`, and must agree with values given (but for the built-in default scenario's).
pub fn parse(k: &Keys, topology: &TopologySpec) -> Result<LinkModel, ScenarioError> {
    let rate_bps = (k.float(RATE_GBPS) * 1e9).round() as u64;
    let delay_ps = Time::from_ns_f64(k.float(DELAY_NS));
    let (file_rate, file_delay) = match topology {
        TopologySpec::Graph(t) => (t.clos.rate_bps, t.clos.delay_ps),
        _ => (None, None),
    };
    Ok(LinkModel {
        rate_bps: from_file(k, RATE_GBPS, rate_bps, file_rate, |r| r as f64 / 1e9)?,
        delay_ps: from_file(k, DELAY_NS, delay_ps, file_delay, |d| d.ps() as f64 / 1e3)?,
        payload_bytes: k.u32(PAYLOAD_BYTES),
        header_bytes: k.u32(HEADER_BYTES),
        ack_bytes: k.u32(ACK_BYTES),
        floor_ns: k.choice::<Serialization>(SERIALIZATION) == Serialization::FloorNs,
    })
}

/// What a run spec writes for `key` where the topology file of `p` gives its value: that
/// value (a default written instead would read back as given, and disagree with the file).
pub fn spec_value(key: &Key, p: &SimParams) -> Option<Value> {
    let TopologySpec::Graph(t) = &p.topology else {
        return None;
    };
    if key == RATE_GBPS {
        t.clos.rate_bps.map(|r| Value::Float(r as f64 / 1e9))
    } else if key == DELAY_NS {
        t.clos.delay_ps.map(|d| Value::Float(d.ps() as f64 / 1e3))
    } else {
        None
    }
}

/// `key`'s value: the topology file's where it gives one (which a value given must equal).
fn from_file<T: PartialEq + Copy>(
    k: &Keys,
    key: &Key,
    own: T,
    file: Option<T>,
    show: impl Fn(T) -> f64,
) -> Result<T, ScenarioError> {
    match file {
        Some(f) if k.explicit(key) && f != own => Err(k.err(
            key,
            format!(
                "{} disagrees with topology.file's links ({}); allowed: the file's value, or leave {} out",
                show(own),
                show(f),
                key.name
            ),
        )),
        Some(f) => Ok(f),
        None => Ok(own),
    }
}

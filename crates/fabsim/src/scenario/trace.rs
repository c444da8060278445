//! `trace.*`: the per-port time series of `fabsim run --trace`.

use super::keys::{keys, Key, Keys, Kind};
use crate::engine::Time;

keys! {
    INTERVAL_US: Key {
        name: "trace.interval_us",
        kind: Kind::Float {
            min: 0.01,
            max: 1e7,
            open: false,
        },
        default: Some("10"),
        unit: "us",
        meaning: "with fabsim run --trace: sample every port's queue and utilization this often (one row per port and sample)",
    },
}

/// The trace's sampling period.
pub fn interval(k: &Keys) -> Time {
    k.us(INTERVAL_US)
}

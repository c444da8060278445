//! The discrete-event core: time, the event queue and RNG streams.
//!
//! Architecture invariant: nothing in this module knows about networks. It deals in
//! integer picoseconds, opaque `Copy` events and seeds.

mod queue;
pub mod rng;

pub use queue::{EventQueue, HeapQueue, TimingWheel};
pub use rng::Rng;

/// Simulated time in integer picoseconds. A `u64` covers 213 days of simulated time.
pub type Time = u64;

pub const PS_PER_NS: u64 = 1_000;
pub const PS_PER_US: u64 = 1_000_000;

/// Serialization time of `bytes` on a link of `rate_bps`, rounded up to a whole picosecond.
#[inline]
pub fn serialization_ps(bytes: u32, rate_bps: u64) -> Time {
    (bytes as u64 * 8 * 1_000_000_000_000).div_ceil(rate_bps)
}

/// Picoseconds to microseconds, for reports.
pub fn ps_to_us(t: Time) -> f64 {
    t as f64 / PS_PER_US as f64
}

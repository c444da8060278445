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

/// Bits per byte times picoseconds per second: the one constant behind every byte/time
/// conversion at a rate in bit/s.
pub const BIT_PS_PER_BYTE_S: u128 = 8 * 1_000_000_000_000;

/// Serialization time of `bytes` on a link of `rate_bps`, rounded up to a whole picosecond.
#[inline]
pub fn serialization_ps(bytes: u32, rate_bps: u64) -> Time {
    (bytes as u64 * 8 * 1_000_000_000_000).div_ceil(rate_bps)
}

/// Time to send `bytes` at `rate_bps`, rounded down (saturating at `Time::MAX`).
pub fn bytes_to_ps(bytes: u64, rate_bps: u64) -> Time {
    let ps = bytes as u128 * BIT_PS_PER_BYTE_S / rate_bps as u128;
    ps.min(Time::MAX as u128) as Time
}

/// Bytes sent at `rate_bps` in `ps`, rounded down (saturating at `u64::MAX`).
pub fn ps_to_bytes(ps: Time, rate_bps: u64) -> u64 {
    let bytes = ps as u128 * rate_bps as u128 / BIT_PS_PER_BYTE_S;
    bytes.min(u64::MAX as u128) as u64
}

/// Bytes per picosecond at `rate_bps`, for fluid (floating-point) models.
pub fn bytes_per_ps(rate_bps: u64) -> f64 {
    rate_bps as f64 / BIT_PS_PER_BYTE_S as f64
}

/// Picoseconds to microseconds, for reports.
pub fn ps_to_us(t: Time) -> f64 {
    t as f64 / PS_PER_US as f64
}

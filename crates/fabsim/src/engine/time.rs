//! Simulated time: a count of integer picoseconds behind a type, so that a duration cannot
//! be mixed up with a byte count or a rate and every unit conversion has one name.

use std::ops::{Add, AddAssign, Div, Mul, Sub};

const PS_PER_NS: u64 = 1_000;
const PS_PER_US: u64 = 1_000_000;

/// Bits per byte times picoseconds per second: the one constant behind every byte/time
/// conversion at a rate in bit/s.
pub const BIT_PS_PER_BYTE_S: u128 = 8 * 1_000_000_000_000;

/// A simulated instant or duration in integer picoseconds. A `u64` covers 213 days.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Time(u64);

impl Time {
    pub const ZERO: Time = Time(0);
    pub const MAX: Time = Time(u64::MAX);

    #[inline]
    pub const fn from_ps(ps: u64) -> Time {
        Time(ps)
    }

    pub const fn from_ns(ns: u64) -> Time {
        Time(ns * PS_PER_NS)
    }

    pub const fn from_us(us: u64) -> Time {
        Time(us * PS_PER_US)
    }

    /// `ps` rounded to the nearest picosecond (saturating; NaN is zero).
    pub fn from_ps_f64(ps: f64) -> Time {
        Time(ps.round() as u64)
    }

    /// `ns` nanoseconds, rounded to the nearest picosecond (saturating; NaN is zero).
    pub fn from_ns_f64(ns: f64) -> Time {
        Time::from_ps_f64(ns * PS_PER_NS as f64)
    }

    /// `us` microseconds, rounded to the nearest picosecond (saturating; NaN is zero).
    pub fn from_us_f64(us: f64) -> Time {
        Time::from_ps_f64(us * PS_PER_US as f64)
    }

    /// The raw picosecond count, for formatting, hashing into keys and serialized output.
    #[inline]
    pub const fn ps(self) -> u64 {
        self.0
    }

    /// Picoseconds as a float, for fluid models.
    #[inline]
    pub fn as_ps_f64(self) -> f64 {
        self.0 as f64
    }

    /// Microseconds, for reports.
    pub fn as_us_f64(self) -> f64 {
        self.0 as f64 / PS_PER_US as f64
    }

    /// Serialization time of `bytes` on a link of `rate_bps`, rounded up to a whole picosecond.
    #[inline]
    pub fn serialization(bytes: u32, rate_bps: u64) -> Time {
        Time((bytes as u64 * 8 * 1_000_000_000_000).div_ceil(rate_bps))
    }

    /// Rounded down to a whole nanosecond, but at least a picosecond (as ns-3 takes a
    /// serialization time; a packet never crosses a link in no time).
    #[inline]
    pub fn floor_ns(self) -> Time {
        Time((self.0 / 1000 * 1000).max(1))
    }

    /// Time to send `bytes` at `rate_bps`, rounded down (saturating at `Time::MAX`).
    pub fn to_send(bytes: u64, rate_bps: u64) -> Time {
        let ps = bytes as u128 * BIT_PS_PER_BYTE_S / rate_bps as u128;
        Time(ps.min(u64::MAX as u128) as u64)
    }

    /// Bytes sent at `rate_bps` in this duration, rounded down (saturating at `u64::MAX`).
    pub fn bytes_at(self, rate_bps: u64) -> u64 {
        let bytes = self.0 as u128 * rate_bps as u128 / BIT_PS_PER_BYTE_S;
        bytes.min(u64::MAX as u128) as u64
    }

    /// Bytes per picosecond at `rate_bps`, for fluid (floating-point) models.
    pub fn bytes_per_ps(rate_bps: u64) -> f64 {
        rate_bps as f64 / BIT_PS_PER_BYTE_S as f64
    }

    #[inline]
    pub const fn saturating_add(self, d: Time) -> Time {
        Time(self.0.saturating_add(d.0))
    }

    #[inline]
    pub const fn saturating_sub(self, d: Time) -> Time {
        Time(self.0.saturating_sub(d.0))
    }

    pub const fn saturating_mul(self, n: u64) -> Time {
        Time(self.0.saturating_mul(n))
    }

    /// How many whole `period`s fit, rounding up.
    pub const fn div_ceil(self, period: Time) -> u64 {
        self.0.div_ceil(period.0)
    }
}

impl Add for Time {
    type Output = Time;
    #[inline]
    fn add(self, d: Time) -> Time {
        Time(self.0 + d.0)
    }
}

impl AddAssign for Time {
    #[inline]
    fn add_assign(&mut self, d: Time) {
        self.0 += d.0;
    }
}

impl Sub for Time {
    type Output = Time;
    #[inline]
    fn sub(self, d: Time) -> Time {
        Time(self.0 - d.0)
    }
}

/// A duration repeated `n` times.
impl Mul<u64> for Time {
    type Output = Time;
    #[inline]
    fn mul(self, n: u64) -> Time {
        Time(self.0 * n)
    }
}

/// A duration repeated `n` times.
impl Mul<Time> for u64 {
    type Output = Time;
    #[inline]
    fn mul(self, t: Time) -> Time {
        Time(self * t.0)
    }
}

/// A duration cut into `n` equal parts, rounded down.
impl Div<u64> for Time {
    type Output = Time;
    #[inline]
    fn div(self, n: u64) -> Time {
        Time(self.0 / n)
    }
}

/// How many whole `d`s fit in this duration.
impl Div for Time {
    type Output = u64;
    #[inline]
    fn div(self, d: Time) -> u64 {
        self.0 / d.0
    }
}

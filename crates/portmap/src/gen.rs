//! Deterministic random traffic matrices for tests, examples and benchmarks.
//!
//! Uses SplitMix64 (Steele, Lea and Flood 2014) so results never depend on
//! an external RNG crate's version.

use crate::problem::TrafficMatrix;

/// The splitmix64 mixer: the standard seeding and hashing function (also the simulator's,
/// `fabsim::engine::rng::splitmix64`, which re-exports this one).
#[inline]
pub fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// SplitMix64 pseudo-random generator.
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }
    /// Next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let z = splitmix64(self.0);
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z
    }
    /// Uniform in `0..bound` (`bound > 0`; negligible modulo bias).
    pub fn below(&mut self, bound: u64) -> u64 {
        ((self.next_u64() as u128 * bound as u128) >> 64) as u64
    }
}

/// Kind of random traffic matrix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TmKind {
    /// Every entry uniform in `0..max`.
    Uniform,
    /// Every port sends most of its bytes to one random "hot" ASIC (10-100x
    /// the other entries), and some entries are zero: the localisable
    /// pattern Fastroute exploits, with competition for the hot ASICs.
    Skewed,
}

/// A random `ports x asics` matrix of kind `kind` with entries below `max`
/// (`max >= 1`, `ports` a multiple of `asics`).
pub fn random_tm(
    rng: &mut SplitMix64,
    ports: usize,
    asics: usize,
    kind: TmKind,
    max: u64,
) -> TrafficMatrix {
    let mut data = Vec::with_capacity(ports * asics);
    for _ in 0..ports {
        match kind {
            TmKind::Uniform => data.extend((0..asics).map(|_| rng.below(max))),
            TmKind::Skewed => {
                let hot = rng.below(asics as u64) as usize;
                let small = (max / 100).max(1);
                for j in 0..asics {
                    let v = if j == hot {
                        small * (10 + rng.below(91))
                    } else if rng.below(4) == 0 {
                        0
                    } else {
                        rng.below(small)
                    };
                    data.push(v.min(max));
                }
            }
        }
    }
    TrafficMatrix::new(ports, asics, data).expect("valid random shape")
}

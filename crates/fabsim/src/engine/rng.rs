//! Seeded random streams.
//!
//! All randomness of a run flows from the scenario seed: each consumer takes its own stream
//! with [`Rng::stream`], so adding draws to one consumer never shifts another's. The
//! generator is xoshiro256++ seeded through splitmix64; both are fully specified, so the
//! same seed gives the same numbers on every machine and with every compiler.

#[derive(Clone, Debug)]
pub struct Rng {
    s: [u64; 4],
}

/// splitmix64: the standard seeding and hashing mixer. One implementation for the workspace,
/// in the dependency-free `portmap` crate (its traffic-matrix generator steps it too).
pub use portmap::gen::splitmix64;

/// FNV-1a (64-bit) of `bytes`: names random streams, and fingerprints sweep plans.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xCBF2_9CE4_8422_2325u64, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01B3)
    })
}

/// A uniform 64-bit `x` taken to `0..n` (Lemire's multiply-shift; the bias is below 2^-32
/// for our n).
#[inline]
fn scale(x: u64, n: u64) -> u64 {
    debug_assert!(n > 0);
    ((x as u128 * n as u128) >> 64) as u64
}

/// A counter-based draw, uniform in `0..n`: a function of `(key, a, b)` alone, so it is the
/// same whenever, and in whatever order with other draws, it is made (lazily decided ECN
/// marks). `key` names the consumer (as [`Rng::stream`] does: seed and name).
#[inline]
pub fn keyed_below(key: u64, a: u64, b: u64, n: u64) -> u64 {
    scale(splitmix64(splitmix64(key ^ a) ^ b), n)
}

/// The key of the consumer `name`'s counter-based draws under `seed` ([`keyed_below`]).
pub fn draw_key(seed: u64, name: &str) -> u64 {
    splitmix64(seed) ^ fnv1a64(name.as_bytes())
}

impl Rng {
    pub fn new(seed: u64) -> Self {
        let mut x = seed;
        let mut s = [0u64; 4];
        for v in &mut s {
            x = splitmix64(x);
            *v = x;
        }
        Self { s }
    }

    /// An independent stream for the consumer `name` under `seed`.
    pub fn stream(seed: u64, name: &str) -> Self {
        Self::new(draw_key(seed, name))
    }

    /// `n` independent streams for the consumer `name` under `seed`, one per node (switch,
    /// host or port): a node draws from its own, so the draws do not depend on the order in
    /// which nodes are simulated (the partitioned engine runs them on several threads).
    pub fn per_node(seed: u64, name: &str, n: usize) -> Vec<Self> {
        let mut root = Self::stream(seed, name);
        (0..n).map(|_| Self::new(root.next_u64())).collect()
    }

    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
        let result = (s[0].wrapping_add(s[3])).rotate_left(23).wrapping_add(s[0]);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// Uniform in `0..n`.
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        scale(self.next_u64(), n)
    }

    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Fisher-Yates shuffle.
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            v.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_reproducible_and_distinct() {
        let a: Vec<u64> = (0..4).map(|_| Rng::stream(1, "lb").next_u64()).collect();
        assert!(a.windows(2).all(|w| w[0] == w[1]));
        assert_ne!(
            Rng::stream(1, "lb").next_u64(),
            Rng::stream(1, "workload").next_u64()
        );
        assert_ne!(
            Rng::stream(1, "lb").next_u64(),
            Rng::stream(2, "lb").next_u64()
        );
    }

    #[test]
    fn keyed_draws_are_uniform_and_depend_on_every_input() {
        let key = draw_key(1, "marks");
        let mut counts = [0u32; 6];
        for b in 0..60_000 {
            counts[keyed_below(key, 7, b, 6) as usize] += 1;
        }
        assert!(
            counts.iter().all(|&c| (9_000..11_000).contains(&c)),
            "{counts:?}"
        );
        let draw = |key, a, b| keyed_below(key, a, b, 1 << 40);
        assert_eq!(draw(key, 7, 3), draw(key, 7, 3));
        assert_ne!(draw(key, 7, 3), draw(key, 8, 3));
        assert_ne!(draw(key, 7, 3), draw(key, 7, 4));
        assert_ne!(draw(key, 7, 3), draw(draw_key(2, "marks"), 7, 3));
    }

    #[test]
    fn below_is_roughly_uniform() {
        let mut r = Rng::new(3);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[r.below(6) as usize] += 1;
        }
        assert!(
            counts.iter().all(|&c| (9_000..11_000).contains(&c)),
            "{counts:?}"
        );
    }
}

//! Mixture-of-experts dispatch: an all-to-all-v whose per-pair sizes follow expert
//! popularity.
//!
//! The group hosts `experts_per_host x N` experts. Expert popularity is Zipf with exponent
//! `skew` over a seeded random ranking (skew 0: uniform). A host's load is the total
//! popularity of the experts it hosts. Every host dispatches `bytes` of tokens, split over
//! the other hosts in proportion to their load. Placement:
//! - without balancing, experts land on hosts in random order, `experts_per_host` each;
//! - with expert-parallel load balancing (as DeepSeek's EPLB), every host gets one
//!   redundant slot: the N extra replicas go, one by one, to the expert with the highest
//!   load per replica (a replica serves an equal share of its expert's tokens), then the
//!   most loaded replica goes first to the least loaded host with a free slot (greedy
//!   longest-processing-time).

use crate::engine::Rng;

/// Per-host load (sums to 1) for `n` hosts.
pub fn host_loads(
    n: usize,
    experts_per_host: usize,
    skew: f64,
    balance: bool,
    rng: &mut Rng,
) -> Vec<f64> {
    let e = n * experts_per_host;
    let mut rank: Vec<usize> = (0..e).collect();
    rng.shuffle(&mut rank);
    let pop: Vec<f64> = rank
        .iter()
        .map(|&r| 1.0 / ((r + 1) as f64).powf(skew))
        .collect();
    let total: f64 = pop.iter().sum();
    let mut load = vec![0.0f64; n];
    if balance {
        let mut replicas = vec![1usize; e];
        for _ in 0..n {
            let x = (0..e)
                .max_by(|&a, &b| {
                    let per = |x: usize| pop[x] / replicas[x] as f64;
                    per(a).total_cmp(&per(b)).then(b.cmp(&a))
                })
                .expect("experts");
            replicas[x] += 1;
        }
        let mut items: Vec<f64> = (0..e)
            .flat_map(|x| std::iter::repeat_n(pop[x] / replicas[x] as f64, replicas[x]))
            .collect();
        items.sort_by(|a, b| b.total_cmp(a));
        let mut slots = vec![experts_per_host + 1; n];
        for p in items {
            let h = (0..n)
                .filter(|&h| slots[h] > 0)
                .min_by(|&a, &b| load[a].total_cmp(&load[b]).then(a.cmp(&b)))
                .expect("a free slot");
            slots[h] -= 1;
            load[h] += p / total;
        }
    } else {
        for (x, p) in pop.iter().enumerate() {
            load[x / experts_per_host] += p / total;
        }
    }
    load
}

/// The dispatch as one step of `(src index, dst index, bytes)`.
pub fn dispatch(loads: &[f64], bytes: u64) -> Vec<(usize, usize, u64)> {
    let n = loads.len();
    let mut flows = Vec::with_capacity(n * (n - 1));
    for s in 0..n {
        let others: f64 = (0..n).filter(|&d| d != s).map(|d| loads[d]).sum();
        let mut left = bytes;
        let dsts: Vec<usize> = (1..n).map(|k| (s + k) % n).collect();
        for (i, &d) in dsts.iter().enumerate() {
            // The last destination takes the rounding remainder; every flow carries >= 1 byte.
            let b = if i + 1 == dsts.len() {
                left
            } else {
                ((bytes as f64 * loads[d] / others) as u64).min(left)
            };
            left -= b;
            flows.push((s, d, b.max(1)));
        }
    }
    flows
}

#[cfg(test)]
mod tests {
    use super::*;

    fn imbalance(loads: &[f64]) -> f64 {
        let max = loads.iter().cloned().fold(0.0, f64::max);
        max * loads.len() as f64
    }

    #[test]
    fn zero_skew_is_uniform_and_balancing_reduces_skew() {
        let mut rng = Rng::stream(1, "t");
        let flat = host_loads(16, 4, 0.0, false, &mut rng);
        assert!((imbalance(&flat) - 1.0).abs() < 1e-9);
        let (mut skewed, mut balanced) = (0.0, 0.0);
        for seed in 0..5 {
            skewed += imbalance(&host_loads(16, 4, 1.2, false, &mut Rng::stream(seed, "t")));
            balanced += imbalance(&host_loads(16, 4, 1.2, true, &mut Rng::stream(seed, "t")));
        }
        assert!(skewed > 1.5 * 5.0, "{skewed}");
        assert!(balanced < 0.5 * skewed, "{balanced} vs {skewed}");
        let sum: f64 = host_loads(16, 4, 1.2, true, &mut rng).iter().sum();
        assert!((sum - 1.0).abs() < 1e-9);
    }

    #[test]
    fn every_host_dispatches_its_bytes() {
        let loads = host_loads(8, 2, 1.0, false, &mut Rng::stream(3, "t"));
        let flows = dispatch(&loads, 100_000);
        for s in 0..8 {
            let sent: u64 = flows.iter().filter(|f| f.0 == s).map(|f| f.2).sum();
            assert_eq!(sent, 100_000);
        }
        assert!(flows.iter().all(|f| f.0 != f.1));
    }
}

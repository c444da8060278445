//! The combining pipeline of Ofan section 7 / appendix I.
//!
//! A switch handles up to `W` packets per clock cycle. Packets of one cycle that share a
//! pointer key would each need a read-modify-write of the same register (a fetch-and-add
//! hazard). The fixed-latency pipeline serves them with one access per register:
//!
//! 1. **sort** the cycle's packets by key (stable: ties keep arrival order);
//! 2. **combine** each run of equal keys into one request with a count;
//! 3. **read-modify-write** each register once: read `p`, write `(p + count) mod w`;
//! 4. **distribute** `p + rank` (mod `w`) to the packet of rank `rank` within its group, and
//!    **unsort** back to arrival order.
//!
//! Packet `i` thus gets exactly the slot that sequential rotation in arrival order would give
//! it (its rank is the number of earlier same-key packets of the cycle), and the register ends
//! where sequential rotation leaves it. [`sequential`] is that reference.

/// The pipeline's reusable buffers: running a cycle allocates nothing once warm.
#[derive(Clone, Debug)]
pub struct CombiningPipeline {
    width: usize,
    /// Stage 1: (key, arrival index), sorted.
    sorted: Vec<(u32, u32)>,
    /// Stage 2: combined requests (key, count, register value read in stage 3).
    requests: Vec<(u32, u32, u32)>,
}

impl CombiningPipeline {
    /// A pipeline for up to `width` packets per cycle (`width >= 1`).
    pub fn new(width: usize) -> Self {
        let width = width.max(1);
        Self {
            width,
            sorted: Vec::with_capacity(width),
            requests: Vec::with_capacity(width),
        }
    }

    pub fn width(&self) -> usize {
        self.width
    }

    /// Runs one cycle. `keys[i]` is the register index of the `i`-th packet (arrival order),
    /// `regs` the register file, `w` the modulus (the number of uplinks; every key of a cycle
    /// belongs to one switch). Writes each packet's slot to `out[i]` and advances every
    /// touched register once by its group's count. Returns the number of requests, i.e. of
    /// register accesses.
    ///
    /// Panics if the cycle holds more than `width` packets, `out` is shorter than `keys`, a
    /// key is out of range or `w == 0` (caller bugs, never user input).
    pub fn cycle(&mut self, keys: &[u32], regs: &mut [u32], w: u32, out: &mut [u32]) -> usize {
        assert!(keys.len() <= self.width, "a cycle holds at most W packets");
        assert!(w > 0 && out.len() >= keys.len());
        // 1. Sort by key; the arrival index breaks ties, so the sort is stable.
        self.sorted.clear();
        self.sorted
            .extend(keys.iter().enumerate().map(|(i, &k)| (k, i as u32)));
        self.sorted.sort_unstable();
        // 2. Combine runs of equal keys.
        self.requests.clear();
        for &(k, _) in &self.sorted {
            match self.requests.last_mut() {
                Some((last, count, _)) if *last == k => *count += 1,
                _ => self.requests.push((k, 1, 0)),
            }
        }
        // 3. One read-modify-write per register.
        for (k, count, read) in &mut self.requests {
            let r = &mut regs[*k as usize];
            *read = *r;
            *r = ((*r as u64 + *count as u64) % w as u64) as u32;
        }
        // 4. Distribute pointer + rank, written back at each packet's arrival index (unsort).
        let mut pos = 0;
        for &(_, count, read) in &self.requests {
            for rank in 0..count {
                let (_, i) = self.sorted[pos];
                out[i as usize] = ((read as u64 + rank as u64) % w as u64) as u32;
                pos += 1;
            }
        }
        self.requests.len()
    }
}

/// The reference: rotate one packet at a time in arrival order.
pub fn sequential(keys: &[u32], regs: &mut [u32], w: u32, out: &mut [u32]) {
    for (o, &k) in out.iter_mut().zip(keys) {
        let r = &mut regs[k as usize];
        *o = *r;
        *r = if *r + 1 >= w { 0 } else { *r + 1 };
    }
}

/// Totals of a random equivalence check ([`check_random`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CheckStats {
    pub cycles: u64,
    pub packets: u64,
    /// Register accesses the pipeline made (one per combined request).
    pub requests: u64,
    /// Cycle indices where pipeline and reference disagreed (slots or registers).
    pub mismatches: u64,
}

/// Runs `cycles` random cycles through the pipeline and the sequential reference, on two
/// copies of one register file, and counts disagreements. Per cycle: `w` uniform in
/// `1..=max_w`, a batch of `1..=width` packets, keys uniform among `keys` registers (few keys
/// make collisions frequent). Registers start at random values below `max_w`.
pub fn check_random(
    rng: &mut crate::engine::Rng,
    cycles: u64,
    width: usize,
    keys: u32,
    max_w: u32,
) -> CheckStats {
    let width = width.max(1);
    let (keys, max_w) = (keys.max(1), max_w.max(1));
    let mut pipe = CombiningPipeline::new(width);
    let mut a: Vec<u32> = (0..keys).map(|_| rng.below(max_w as u64) as u32).collect();
    let mut b = a.clone();
    let (mut batch, mut out_a, mut out_b) = (vec![0; width], vec![0; width], vec![0; width]);
    let mut s = CheckStats::default();
    for _ in 0..cycles {
        let w = 1 + rng.below(max_w as u64) as u32;
        // Registers hold values of the previous modulus: bring them into range, as a switch
        // with a fixed w would never need to.
        let n = 1 + rng.below(width as u64) as usize;
        for k in &mut batch[..n] {
            *k = rng.below(keys as u64) as u32;
            a[*k as usize] %= w;
            b[*k as usize] %= w;
        }
        s.requests += pipe.cycle(&batch[..n], &mut a, w, &mut out_a) as u64;
        sequential(&batch[..n], &mut b, w, &mut out_b);
        s.mismatches += (out_a[..n] != out_b[..n]
            || batch[..n].iter().any(|&k| a[k as usize] != b[k as usize]))
            as u64;
        s.cycles += 1;
        s.packets += n as u64;
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Rng;

    /// Appendix I: three packets sharing a pointer at 1 get ports 1, 2, 3; the pointer moves
    /// to 4 (mod 32), with a single register access.
    #[test]
    fn paper_worked_example() {
        let mut pipe = CombiningPipeline::new(8);
        let mut regs = vec![0u32; 4];
        regs[2] = 1;
        let mut out = [0u32; 3];
        let accesses = pipe.cycle(&[2, 2, 2], &mut regs, 32, &mut out);
        assert_eq!(out, [1, 2, 3]);
        assert_eq!(regs[2], 4);
        assert_eq!(accesses, 1);
    }

    /// Mixed keys, wrap-around and order restoration in one cycle.
    #[test]
    fn groups_wrap_and_order_is_restored() {
        let mut pipe = CombiningPipeline::new(8);
        let mut regs = vec![5, 0, 3];
        let mut out = [0u32; 6];
        let n = pipe.cycle(&[2, 0, 2, 0, 1, 0], &mut regs, 6, &mut out);
        assert_eq!(n, 3);
        assert_eq!(out, [3, 5, 4, 0, 0, 1]);
        assert_eq!(regs, vec![2, 1, 5]);
    }

    /// The equivalence, on 200,000 seeded random cycles (W up to 16, w up to 64, from heavy
    /// key sharing to almost none).
    #[test]
    fn pipeline_equals_sequential_rotation_on_random_cycles() {
        let mut rng = Rng::new(0x0FA4);
        let mut total = CheckStats::default();
        for (width, keys, max_w) in [(8, 3, 32), (16, 1, 7), (4, 64, 64), (1, 5, 2), (12, 20, 9)] {
            let s = check_random(&mut rng, 40_000, width, keys, max_w);
            assert_eq!(s.mismatches, 0, "W {width}, {keys} keys, w <= {max_w}");
            assert!(
                width == 1 || s.requests < s.packets,
                "some requests combined"
            );
            total.cycles += s.cycles;
        }
        assert!(total.cycles >= 100_000);
    }

    #[test]
    fn empty_cycle_touches_nothing() {
        let mut pipe = CombiningPipeline::new(2);
        let mut regs = vec![1u32];
        assert_eq!(pipe.cycle(&[], &mut regs, 4, &mut []), 0);
        assert_eq!(regs, vec![1]);
    }
}

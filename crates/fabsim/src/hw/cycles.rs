//! Cycles in the simulation: how Ofan's pointer steps go through the combining pipeline.
//!
//! **What a cycle is.** A switch's cycle is the set of pointer steps it takes at one
//! picosecond, in the order the event loop hands them over, at most `W` of them: the step
//! at a later time, or the `W + 1`-th at the same time, opens the switch's next cycle. Cycles
//! are per switch (each switch has its own registers), so steps of other switches in between
//! do not split a cycle.
//!
//! **Why prefixes.** The simulator handles one packet per event and the packet needs its
//! uplink while its event is handled, before the cycle's later packets are known. So when a
//! packet joins a cycle, the switch rewinds the cycle's registers to their values at the
//! cycle start and runs the pipeline on the cycle so far; the newest packet takes its slot
//! from that run and the registers end where the run leaves them. The last run of a cycle is
//! the run over the whole cycle. A packet's slot depends only on earlier packets of its
//! cycle, so every earlier packet's slot is unchanged by the re-run, and by the pipeline's
//! equivalence with sequential rotation a run with combining gives exactly the uplinks of
//! plain Ofan.

use super::pipeline::CombiningPipeline;
use crate::engine::Time;

/// The open cycle of one switch.
#[derive(Clone, Debug)]
struct Open {
    time: Time,
    /// Register index per packet, arrival order.
    keys: Vec<u32>,
    /// The value of that register at the cycle start.
    start: Vec<u32>,
}

/// Counts over a run (reported in the run JSON as `combining`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CycleStats {
    pub pipeline_width: u32,
    /// Pointer steps taken through the pipeline.
    pub steps: u64,
    pub cycles: u64,
    /// Largest number of steps in one cycle.
    pub max_cycle: u32,
    /// Steps that shared a register with an earlier step of their cycle (served by the same
    /// combined request instead of a second read-modify-write).
    pub combined: u64,
}

/// Per-switch cycle state plus one shared pipeline.
#[derive(Clone, Debug)]
pub struct SwitchCycles {
    pipeline: CombiningPipeline,
    open: Vec<Open>,
    out: Vec<u32>,
    stats: CycleStats,
}

impl SwitchCycles {
    pub fn new(switches: usize, width: usize) -> Self {
        let pipeline = CombiningPipeline::new(width);
        let width = pipeline.width();
        let open = Open {
            time: Time::MAX,
            keys: Vec::with_capacity(width),
            start: Vec::with_capacity(width),
        };
        Self {
            pipeline,
            open: vec![open; switches],
            out: vec![0; width],
            stats: CycleStats {
                pipeline_width: width as u32,
                ..CycleStats::default()
            },
        }
    }

    pub fn stats(&self) -> CycleStats {
        self.stats
    }

    /// Takes the pointer step of register `key` of switch `sw` at time `now` (modulus `w`)
    /// through the pipeline and returns the packet's slot.
    pub fn step(&mut self, sw: u32, now: Time, key: u32, w: u32, regs: &mut [u32]) -> u32 {
        let o = &mut self.open[sw as usize];
        if o.time != now || o.keys.len() == self.pipeline.width() {
            o.time = now;
            o.keys.clear();
            o.start.clear();
            self.stats.cycles += 1;
        }
        let start = match o.keys.iter().position(|&k| k == key) {
            Some(j) => {
                self.stats.combined += 1;
                o.start[j]
            }
            None => regs[key as usize],
        };
        o.keys.push(key);
        o.start.push(start);
        for (&k, &s) in o.keys.iter().zip(&o.start) {
            regs[k as usize] = s;
        }
        self.pipeline.cycle(&o.keys, regs, w, &mut self.out);
        let n = o.keys.len();
        self.stats.steps += 1;
        self.stats.max_cycle = self.stats.max_cycle.max(n as u32);
        self.out[n - 1]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Rng;

    /// Random steps of a few switches at a few times, interleaved: the slots and registers
    /// equal one-at-a-time rotation.
    #[test]
    fn interleaved_switch_cycles_equal_sequential_rotation() {
        let mut rng = Rng::new(9);
        let w = 6;
        let mut cycles = SwitchCycles::new(3, 4);
        let mut a: Vec<u32> = (0..30).map(|_| rng.below(w as u64) as u32).collect();
        let mut b = a.clone();
        let mut now = Time::ZERO;
        for _ in 0..20_000 {
            now += Time::from_ps(rng.below(2));
            let sw = rng.below(3) as u32;
            // Switch sw owns registers 10*sw .. 10*sw + 3 (few keys: many collisions).
            let key = 10 * sw + rng.below(3) as u32;
            let got = cycles.step(sw, now, key, w, &mut a);
            let mut want = [0];
            super::super::pipeline::sequential(&[key], &mut b, w, &mut want);
            assert_eq!(got, want[0]);
            assert_eq!(a, b);
        }
        let s = cycles.stats();
        assert_eq!(s.steps, 20_000);
        assert_eq!(s.max_cycle, 4);
        assert!(s.combined > 0 && s.cycles < s.steps);
    }
}

//! The barrier the partitioned engine's threads meet at between windows: it spins a little,
//! then sleeps.
//!
//! On an otherwise idle machine a window's partitions end within microseconds of each
//! other, and waking a sleeping thread costs tens of them: the short spin catches those.
//! On a machine with other work a partition's thread may be waiting for a core; a thread
//! that goes on spinning (or yielding, which still keeps its core busy) takes the core it
//! needs, and the window waits for the scheduler's next turn. A sleeping thread leaves its
//! core to it.

use std::sync::atomic::AtomicUsize;
use std::sync::atomic::Ordering::{AcqRel, Acquire, Relaxed, SeqCst};
use std::sync::{Condvar, Mutex, PoisonError};

/// Polls of the generation before a waiting thread sleeps, on a machine with other work:
/// about 5 us at the 50 ns a `spin_loop` hint takes on the machines measured (AMD EPYC under
/// KVM).
pub(super) const SHORT_SPIN: u32 = 100;

/// The same where every partition had a core of its own at the run's start: about 100 us,
/// beyond the few microseconds by which a window's partitions differ, so that a short
/// window (the 128-host Netbench web search: 2,000 windows of 3,100 events) rarely pays a
/// wake-up (with 100 spins it ran 1.35x faster on 2 threads than on 1, against 1.55x with
/// the old spinning barrier).
pub(super) const LONG_SPIN: u32 = 2_000;

/// A reusable barrier for a fixed number of threads. Whatever a thread wrote before its
/// [`Barrier::wait`] is seen by every thread after theirs.
pub(super) struct Barrier {
    parties: usize,
    /// Polls before sleeping.
    spins: u32,
    /// Threads arrived in this round.
    arrived: AtomicUsize,
    /// Rounds completed: a waiter leaves when it changes.
    generation: AtomicUsize,
    /// Threads asleep (or about to be) on `wake`: the last to arrive wakes them if any.
    sleepers: AtomicUsize,
    lock: Mutex<()>,
    wake: Condvar,
}

impl Barrier {
    pub(super) fn new(parties: usize, spins: u32) -> Self {
        assert!(parties > 0, "a barrier needs a party");
        Barrier {
            parties,
            spins,
            arrived: AtomicUsize::new(0),
            generation: AtomicUsize::new(0),
            sleepers: AtomicUsize::new(0),
            lock: Mutex::new(()),
            wake: Condvar::new(),
        }
    }

    /// Returns once all `parties` threads have called it in this round.
    pub(super) fn wait(&self) {
        let generation = self.generation.load(Acquire);
        // The arrivals form one chain of read-modify-writes: the last one acquires what every
        // thread wrote before arriving, and the generation's increment releases it to all.
        if self.arrived.fetch_add(1, AcqRel) + 1 == self.parties {
            self.arrived.store(0, Relaxed);
            // Sequentially consistent with `sleepers` (a waiter increments `sleepers`, then
            // reads the generation; this thread the other way round): either the waiter sees
            // the new generation and does not sleep, or this thread sees it asleep and wakes
            // it.
            self.generation.fetch_add(1, SeqCst);
            if self.sleepers.load(SeqCst) > 0 {
                // Taking the lock waits for a waiter between its check and its sleep.
                drop(self.lock.lock().unwrap_or_else(PoisonError::into_inner));
                self.wake.notify_all();
            }
            return;
        }
        for _ in 0..self.spins {
            if self.generation.load(Acquire) != generation {
                return;
            }
            std::hint::spin_loop();
        }
        let mut guard = self.lock.lock().unwrap_or_else(PoisonError::into_inner);
        self.sleepers.fetch_add(1, SeqCst);
        while self.generation.load(SeqCst) == generation {
            guard = self
                .wake
                .wait(guard)
                .unwrap_or_else(PoisonError::into_inner);
        }
        self.sleepers.fetch_sub(1, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU64;

    /// `threads` threads meet `rounds` times; in each round every thread writes its slot
    /// (plain relaxed stores), meets the others, checks every slot holds this round's value,
    /// then meets them again before the next round's writes.
    fn rounds(threads: usize, rounds: u64, spins: u32) {
        let barrier = Barrier::new(threads, spins);
        let slots: Vec<AtomicU64> = (0..threads).map(|_| AtomicU64::new(u64::MAX)).collect();
        std::thread::scope(|scope| {
            for me in 0..threads {
                let (barrier, slots) = (&barrier, &slots);
                scope.spawn(move || {
                    for round in 0..rounds {
                        slots[me].store(round * threads as u64 + me as u64, Relaxed);
                        barrier.wait();
                        for (other, slot) in slots.iter().enumerate() {
                            assert_eq!(
                                slot.load(Relaxed),
                                round * threads as u64 + other as u64,
                                "thread {me} in round {round} sees thread {other}'s slot stale"
                            );
                        }
                        barrier.wait();
                    }
                });
            }
        });
        assert_eq!(barrier.generation.load(Relaxed) as u64, 2 * rounds);
        assert_eq!(barrier.arrived.load(Relaxed), 0);
        assert_eq!(barrier.sleepers.load(Relaxed), 0);
    }

    #[test]
    fn one_party_never_waits() {
        rounds(1, 1000, SHORT_SPIN);
    }

    #[test]
    fn every_thread_sees_what_the_others_wrote_before_the_barrier() {
        for threads in [2, 3, 4, 8] {
            for spins in [0, SHORT_SPIN, LONG_SPIN] {
                rounds(threads, 2000, spins);
            }
        }
    }

    #[test]
    fn sleeping_waiters_are_woken() {
        // The last thread arrives only once the others are asleep (or about to be, between
        // their last look at the generation and the condition variable): its arrival must
        // wake them, in every round.
        let barrier = Barrier::new(3, SHORT_SPIN);
        let last = AtomicU64::new(0);
        std::thread::scope(|scope| {
            for me in 0..3 {
                let (barrier, last) = (&barrier, &last);
                scope.spawn(move || {
                    for round in 0..200 {
                        if me == 0 {
                            while barrier.sleepers.load(Acquire) < 2 {
                                std::thread::yield_now();
                            }
                            last.store(round + 1, Relaxed);
                        }
                        barrier.wait();
                        assert_eq!(last.load(Relaxed), round + 1);
                        barrier.wait();
                    }
                });
            }
        });
        assert_eq!(barrier.generation.load(Relaxed), 400);
        assert_eq!(barrier.sleepers.load(Relaxed), 0);
    }
}

//! The pending-event set.
//!
//! Events are ordered by `(time, seq)` where `seq` is the insertion counter, so events at the
//! same picosecond pop in the order they were pushed: runs are deterministic by construction.

use super::Time;

/// A monotone priority queue of events: `push` never receives a time earlier than the last
/// popped one (the simulator never schedules into the past).
pub trait EventQueue<E> {
    fn push(&mut self, time: Time, event: E);
    fn pop(&mut self) -> Option<(Time, E)>;
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A radix heap over 128-bit keys `time << 64 | seq`.
///
/// Bucket `i` holds keys whose highest bit differing from the last popped key is bit `i - 1`
/// (bucket 0: equal to it). Each entry moves to lower buckets at most 128 times over its life,
/// and in practice once or twice, which makes push O(1) and pop amortized O(1) for the
/// monotone workloads of a simulator. Buckets keep their capacity, so a warmed-up heap
/// does not allocate.
pub struct RadixHeap<E> {
    buckets: Vec<Vec<(u128, E)>>,
    last: u128,
    seq: u64,
    len: usize,
}

impl<E: Copy> Default for RadixHeap<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E: Copy> RadixHeap<E> {
    pub fn new() -> Self {
        Self {
            buckets: (0..129).map(|_| Vec::new()).collect(),
            last: 0,
            seq: 0,
            len: 0,
        }
    }

    #[inline]
    fn bucket_of(&self, key: u128) -> usize {
        (128 - (key ^ self.last).leading_zeros()) as usize
    }

    /// Moves the smallest non-empty bucket into lower buckets so that bucket 0 holds the minimum.
    fn refill(&mut self) {
        let i = match self.buckets.iter().position(|b| !b.is_empty()) {
            Some(i) => i,
            None => return,
        };
        if i == 0 {
            return;
        }
        let mut bucket = std::mem::take(&mut self.buckets[i]);
        self.last = bucket.iter().map(|e| e.0).min().expect("non-empty bucket");
        for entry in bucket.drain(..) {
            let b = self.bucket_of(entry.0);
            debug_assert!(b < i);
            self.buckets[b].push(entry);
        }
        // Give the allocation back so the bucket keeps its capacity.
        self.buckets[i] = bucket;
    }
}

impl<E: Copy> EventQueue<E> for RadixHeap<E> {
    #[inline]
    fn push(&mut self, time: Time, event: E) {
        let key = ((time as u128) << 64) | self.seq as u128;
        assert!(key >= self.last, "event scheduled in the past: {time} ps");
        self.seq += 1;
        let b = self.bucket_of(key);
        self.buckets[b].push((key, event));
        self.len += 1;
    }

    #[inline]
    fn pop(&mut self) -> Option<(Time, E)> {
        if self.buckets[0].is_empty() {
            self.refill();
        }
        // Bucket 0 holds exactly one key (seq makes keys unique).
        let (key, event) = self.buckets[0].pop()?;
        debug_assert!(self.buckets[0].is_empty());
        self.len -= 1;
        Some(((key >> 64) as Time, event))
    }

    fn len(&self) -> usize {
        self.len
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Rng;
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;

    /// The radix heap pops exactly what a binary heap ordered by (time, seq) pops.
    #[test]
    fn matches_binary_heap_with_fifo_ties() {
        let mut rng = Rng::new(7);
        let mut radix = RadixHeap::new();
        let mut reference = BinaryHeap::new();
        let mut now = 0u64;
        let mut seq = 0u64;
        for step in 0..200_000u64 {
            if rng.below(3) != 0 || radix.is_empty() {
                // Many ties: times drawn from a small window.
                let t = now + rng.below(50);
                radix.push(t, step);
                reference.push(Reverse((t, seq, step)));
                seq += 1;
            } else {
                let (t, e) = radix.pop().unwrap();
                let Reverse((rt, _, re)) = reference.pop().unwrap();
                assert_eq!((t, e), (rt, re));
                assert!(t >= now, "time went backwards");
                now = t;
            }
        }
        assert_eq!(radix.len(), reference.len());
    }
}

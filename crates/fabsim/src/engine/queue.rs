//! The pending-event set.
//!
//! Events are ordered by `(time, ticket)`, where the ticket is the tie-break the caller gives
//! each event (the simulator's: the scheduling node's id and its own counter), so events at
//! the same picosecond pop in an order that does not depend on the queue.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::Time;

/// A monotone priority queue of events: `push` never receives a time earlier than the last
/// popped one (the simulator never schedules into the past).
pub trait EventQueue<E> {
    /// Schedules `event`: events with equal times pop in ticket order (tickets below 2^56).
    fn push_ticketed(&mut self, time: Time, ticket: u64, event: E);
    fn pop(&mut self) -> Option<(Time, E)>;
    /// The earliest event, without removing it.
    fn peek(&mut self) -> Option<(Time, E)>;
    /// Removes the earliest event and schedules `event` in the same step (cheaper than a pop
    /// and a push: one sift instead of two).
    fn replace_min(&mut self, time: Time, ticket: u64, event: E);
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A binary min-heap on `(time, ticket)`: the reference implementation that the tests check
/// the [`TimingWheel`] against, and the simulator's queue before the wheel (docs/decisions.md,
/// "The event queue is a timing wheel", has the measurements).
pub struct HeapQueue<E> {
    heap: BinaryHeap<Reverse<Entry<E>>>,
    last: Time,
}

struct Entry<E> {
    time: Time,
    ticket: u64,
    event: E,
}

impl<E> PartialEq for Entry<E> {
    fn eq(&self, other: &Self) -> bool {
        (self.time, self.ticket) == (other.time, other.ticket)
    }
}
impl<E> Eq for Entry<E> {}
impl<E> PartialOrd for Entry<E> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl<E> Ord for Entry<E> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.time, self.ticket).cmp(&(other.time, other.ticket))
    }
}

impl<E> Default for HeapQueue<E> {
    fn default() -> Self {
        Self {
            heap: BinaryHeap::new(),
            last: Time::ZERO,
        }
    }
}

impl<E: Copy> EventQueue<E> for HeapQueue<E> {
    #[inline]
    fn push_ticketed(&mut self, time: Time, ticket: u64, event: E) {
        assert!(
            time >= self.last,
            "event scheduled in the past: {} ps",
            time.ps()
        );
        self.heap.push(Reverse(Entry {
            time,
            ticket,
            event,
        }));
    }

    #[inline]
    fn pop(&mut self) -> Option<(Time, E)> {
        let Reverse(e) = self.heap.pop()?;
        debug_assert!(e.time >= self.last, "time went backwards");
        self.last = e.time;
        Some((e.time, e.event))
    }

    #[inline]
    fn peek(&mut self) -> Option<(Time, E)> {
        self.heap.peek().map(|Reverse(e)| (e.time, e.event))
    }

    #[inline]
    fn replace_min(&mut self, time: Time, ticket: u64, event: E) {
        let mut top = self.heap.peek_mut().expect("replace_min on an empty queue");
        debug_assert!(top.0.time >= self.last, "time went backwards");
        self.last = top.0.time;
        assert!(
            time >= self.last,
            "event scheduled in the past: {} ps",
            time.ps()
        );
        top.0 = Entry {
            time,
            ticket,
            event,
        };
    }

    fn len(&self) -> usize {
        self.heap.len()
    }
}

/// Bucket width of the timing wheel: 2^8 ps, a few events at 800 Gb/s fabrics.
const WHEEL_SHIFT: u32 = 8;
/// Buckets in the wheel: a horizon of about 1 us. Later events wait in a heap.
const WHEEL_BUCKETS: u64 = 4096;
/// Capacity a bucket keeps after it is drained (larger ones are freed).
const MAX_KEPT_CAPACITY: usize = 256;
/// Most entries an insertion into the current bucket shifts; one that would shift more goes
/// to `late` (a heap), so a bucket of n events (n flows starting at once) costs
/// O(n log n), not O(n^2).
const MAX_SHIFT: usize = 64;
/// Bits of a wheel key below the time's offset in its bucket: the ticket's. Tickets beyond
/// them (7 * 10^16 events) are refused.
const TICKET_BITS: u32 = 64 - WHEEL_SHIFT;

/// A timing wheel on `(time, ticket)` keys: the simulator's event queue.
///
/// Time is cut into 256 ps buckets; the wheel holds the next ~1 us of them and a heap the
/// rest (in the simulator: flow starts and timers; every link head is due within one
/// serialization and one propagation delay). Push is an append to its bucket; pop drains
/// the earliest occupied bucket (found through a bitmap) into `current`, sorted once. Same
/// order as [`HeapQueue`] (a test checks it on random workloads). A drained bucket keeps
/// its allocation up to `MAX_KEPT_CAPACITY` entries, so memory stays near what is pending.
///
/// Within a bucket every time shares its high bits, so an entry's key is one `u64`: the
/// time's offset in the bucket above the ticket (16-byte entries, `u64` compares). An event
/// pushed for a bucket the wheel already left (a `peek` moved it on) waits in `early`.
pub struct TimingWheel<E> {
    /// The current bucket, sorted by key; `current[head..]` is still pending.
    current: Vec<(u64, E)>,
    head: usize,
    /// Events pushed into the current bucket before many of its pending ones, by key: the
    /// current bucket is `current[head..]` and `late` merged.
    late: BinaryHeap<Reverse<Keyed<E>>>,
    /// Absolute index (`time >> WHEEL_SHIFT`) of the current bucket.
    cur: u64,
    buckets: Vec<Vec<(u64, E)>>,
    /// Events earlier than the current bucket, in (time, ticket) order.
    early: Vec<Entry<E>>,
    occupied: [u64; (WHEEL_BUCKETS / 64) as usize],
    far: BinaryHeap<Reverse<Entry<E>>>,
    last: Time,
    len: usize,
}

impl<E> Default for TimingWheel<E> {
    fn default() -> Self {
        Self {
            current: Vec::new(),
            head: 0,
            late: BinaryHeap::new(),
            cur: 0,
            buckets: (0..WHEEL_BUCKETS).map(|_| Vec::new()).collect(),
            early: Vec::new(),
            occupied: [0; (WHEEL_BUCKETS / 64) as usize],
            far: BinaryHeap::new(),
            last: Time::ZERO,
            len: 0,
        }
    }
}

/// An event of the current bucket ordered by its key alone (keys are unique).
struct Keyed<E>(u64, E);

impl<E> PartialEq for Keyed<E> {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}
impl<E> Eq for Keyed<E> {}
impl<E> PartialOrd for Keyed<E> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl<E> Ord for Keyed<E> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.cmp(&other.0)
    }
}

#[inline]
fn wheel_key(time: Time, ticket: u64) -> u64 {
    (time.ps() & ((1 << WHEEL_SHIFT) - 1)) << TICKET_BITS | ticket
}

impl<E: Copy> TimingWheel<E> {
    /// The time of a key of the current bucket.
    #[inline]
    fn time_of(&self, key: u64) -> Time {
        Time::from_ps(self.cur << WHEEL_SHIFT | key >> TICKET_BITS)
    }

    /// The next occupied wheel bucket after `cur`, as an absolute index.
    fn next_occupied(&self) -> Option<u64> {
        let words = self.occupied.len() as u64;
        let start = (self.cur + 1) % WHEEL_BUCKETS;
        // Scan the words from `start`, wrapping once; mask the bits before `start` first.
        for step in 0..=words {
            let w = (start / 64 + step) % words;
            let mut bits = self.occupied[w as usize];
            if step == 0 {
                bits &= !0u64 << (start % 64);
            }
            if bits != 0 {
                let slot = w * 64 + bits.trailing_zeros() as u64;
                let ahead = (slot + WHEEL_BUCKETS - self.cur % WHEEL_BUCKETS) % WHEEL_BUCKETS;
                return Some(self.cur + if ahead == 0 { WHEEL_BUCKETS } else { ahead });
            }
        }
        None
    }

    /// The current bucket's next event: `current[head]` or the top of `late`, whichever has
    /// the smaller key (`true`: `late`'s). Moves the wheel on when the bucket is drained.
    #[inline]
    fn next_current(&mut self) -> Option<((u64, E), bool)> {
        if self.head == self.current.len() && self.late.is_empty() {
            self.advance();
        }
        let late = self.late.peek().map(|Reverse(k)| (k.0, k.1));
        match (self.current.get(self.head), late) {
            (Some(&c), Some(l)) if l.0 < c.0 => Some((l, true)),
            (Some(&c), _) => Some((c, false)),
            (None, Some(l)) => Some((l, true)),
            (None, None) => None,
        }
    }

    /// Makes `current` hold the earliest pending bucket.
    fn advance(&mut self) {
        debug_assert_eq!(self.head, self.current.len());
        debug_assert!(self.late.is_empty());
        self.current.clear();
        self.head = 0;
        let far_next = self.far.peek().map(|Reverse(e)| e.time.ps() >> WHEEL_SHIFT);
        let next = match (self.next_occupied(), far_next) {
            (Some(w), Some(f)) => w.min(f),
            (Some(w), None) => w,
            (None, Some(f)) => f,
            (None, None) => return,
        };
        self.cur = next;
        let slot = (next % WHEEL_BUCKETS) as usize;
        if self.occupied[slot / 64] & (1 << (slot % 64)) != 0 {
            let bucket = &mut self.buckets[slot];
            self.current.append(bucket);
            // A synchronized wave (every host's packet at the same instant) can fill one
            // bucket with thousands of events; do not keep that much capacity in all 4096.
            if bucket.capacity() > MAX_KEPT_CAPACITY {
                *bucket = Vec::new();
            }
            self.occupied[slot / 64] &= !(1 << (slot % 64));
        }
        while let Some(Reverse(e)) = self.far.peek() {
            if e.time.ps() >> WHEEL_SHIFT != next {
                break;
            }
            self.current.push((wheel_key(e.time, e.ticket), e.event));
            self.far.pop();
        }
        if self.current.len() > 1 {
            self.current.sort_unstable_by_key(|e| e.0);
        }
    }
}

impl<E: Copy> EventQueue<E> for TimingWheel<E> {
    #[inline]
    fn push_ticketed(&mut self, time: Time, ticket: u64, event: E) {
        assert!(
            time >= self.last,
            "event scheduled in the past: {} ps",
            time.ps()
        );
        debug_assert!(ticket >> TICKET_BITS == 0, "a ticket beyond 2^56");
        self.len += 1;
        let b = time.ps() >> WHEEL_SHIFT;
        let key = wheel_key(time, ticket);
        if b == self.cur {
            // Into the sorted current bucket; later keys, the usual case, shift little.
            let at = self.head + self.current[self.head..].partition_point(|e| e.0 < key);
            if self.current.len() - at <= MAX_SHIFT {
                self.current.insert(at, (key, event));
            } else {
                self.late.push(Reverse(Keyed(key, event)));
            }
        } else if b < self.cur {
            // A bucket the wheel left (a `peek` moved it on, then the event being processed
            // scheduled something at the current time): before everything in the wheel.
            let at = self
                .early
                .partition_point(|e| (e.time, e.ticket) < (time, ticket));
            self.early.insert(
                at,
                Entry {
                    time,
                    ticket,
                    event,
                },
            );
        } else if b < self.cur + WHEEL_BUCKETS {
            let slot = (b % WHEEL_BUCKETS) as usize;
            self.buckets[slot].push((key, event));
            self.occupied[slot / 64] |= 1 << (slot % 64);
        } else {
            self.far.push(Reverse(Entry {
                time,
                ticket,
                event,
            }));
        }
    }

    #[inline]
    fn pop(&mut self) -> Option<(Time, E)> {
        let (time, event) = if !self.early.is_empty() {
            let e = self.early.remove(0);
            (e.time, e.event)
        } else {
            let ((key, event), late) = self.next_current()?;
            if late {
                self.late.pop();
            } else {
                self.head += 1;
            }
            (self.time_of(key), event)
        };
        self.len -= 1;
        debug_assert!(time >= self.last, "time went backwards");
        self.last = time;
        Some((time, event))
    }

    #[inline]
    fn peek(&mut self) -> Option<(Time, E)> {
        if let Some(e) = self.early.first() {
            return Some((e.time, e.event));
        }
        let ((k, e), _) = self.next_current()?;
        Some((self.time_of(k), e))
    }

    #[inline]
    fn replace_min(&mut self, time: Time, ticket: u64, event: E) {
        self.pop().expect("replace_min on an empty queue");
        self.push_ticketed(time, ticket, event);
    }

    fn len(&self) -> usize {
        self.len
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Rng;

    /// Pops come out ordered by (time, ticket), whatever the push order, and time never
    /// goes backwards; deferred tickets keep their place among ties.
    #[test]
    fn pops_in_time_then_ticket_order() {
        let mut rng = Rng::new(7);
        let mut q = HeapQueue::default();
        let mut now = Time::ZERO;
        let mut last_key = (Time::ZERO, 0u64);
        let mut deferred = Vec::new();
        let mut tickets = 0u64..;
        for step in 0..200_000u64 {
            match rng.below(4) {
                0 if !q.is_empty() => {
                    let (t, (ticket, _)) = q.pop().unwrap();
                    assert!((t, ticket) > last_key || step == 0, "out of order");
                    assert!(t >= now);
                    now = t;
                    last_key = (t, ticket);
                }
                1 => deferred.push(tickets.next().unwrap()),
                3 if !q.is_empty() => {
                    // Pop and schedule in one step, as the simulator does for link heads.
                    let (t, (ticket, _)) = q.peek().unwrap();
                    assert!((t, ticket) > last_key || step == 0, "out of order");
                    now = t;
                    last_key = (t, ticket);
                    let next = tickets.next().unwrap();
                    q.replace_min(now + Time::from_ps(1 + rng.below(20)), next, (next, step));
                }
                2 if !deferred.is_empty() => {
                    // As in the simulator: a deferred event lies strictly in the future.
                    let ticket = deferred.swap_remove(0);
                    let t = now + Time::from_ps(1 + rng.below(20));
                    q.push_ticketed(t, ticket, (ticket, step));
                }
                _ => {
                    let t = now + Time::from_ps(rng.below(20));
                    let ticket = tickets.next().unwrap();
                    q.push_ticketed(t, ticket, (ticket, step));
                }
            }
        }
    }

    /// Many events in one bucket pushed out of key order (flows of many hosts starting at
    /// once), and more pushed into it while it drains: the same order as the heap, the
    /// out-of-order ones held in `late` rather than shifted in: no insertion shifts more than
    /// `MAX_SHIFT` entries, so N flows starting at once cost O(N log N), not O(N^2) (the
    /// issue's "quadratic cost in flows per host"; its CPU times are in docs/decisions.md,
    /// measured outside the tests).
    #[test]
    fn quadratic_cost_in_flows_per_host() {
        let mut rng = Rng::new(3);
        let mut wheel = TimingWheel::default();
        let mut heap = HeapQueue::default();
        let mut used_late = false;
        for step in 0..20_000u64 {
            let t = Time::from_ps(rng.below(200));
            let ticket = (rng.below(1 << 40) << 8) | (step % 256);
            wheel.push_ticketed(t, ticket, step);
            heap.push_ticketed(t, ticket, step);
        }
        let mut step = 20_000u64;
        while let Some(h) = heap.pop() {
            assert_eq!(wheel.pop(), Some(h));
            if rng.below(2) == 0 {
                let ticket = (rng.below(1 << 40) << 8) | 255;
                wheel.push_ticketed(h.0, ticket, step);
                heap.push_ticketed(h.0, ticket, step);
                step += 1;
            }
            used_late |= !wheel.late.is_empty();
        }
        assert!(wheel.is_empty() && used_late);
    }

    /// The wheel pops exactly what the heap pops, with events far beyond its horizon too.
    #[test]
    fn wheel_matches_heap() {
        let mut rng = Rng::new(11);
        let mut wheel = TimingWheel::default();
        let mut heap = HeapQueue::default();
        let mut now = Time::ZERO;
        let mut tickets = 0u64..;
        for step in 0..300_000u64 {
            if rng.below(2) == 0 || heap.is_empty() {
                let horizon = [10, 5_000, 2_000_000, 50_000_000][rng.below(4) as usize];
                let t = now + Time::from_ps(rng.below(horizon));
                let a = tickets.next().unwrap();
                wheel.push_ticketed(t, a, step);
                heap.push_ticketed(t, a, step);
            } else if rng.below(3) == 0 {
                let w = wheel.pop();
                assert_eq!(w, heap.pop());
                now = w.unwrap().0;
            } else if rng.below(2) == 0 {
                // As the simulator does: pop, peek ahead (which may move the wheel on), then
                // schedule something at the time just popped.
                let w = wheel.pop();
                assert_eq!(w, heap.pop());
                now = w.unwrap().0;
                assert_eq!(wheel.peek(), heap.peek());
                let a = tickets.next().unwrap();
                wheel.push_ticketed(now, a, step);
                heap.push_ticketed(now, a, step);
            } else {
                // Pop-and-push in one step, with a later time.
                let (w, h) = (wheel.peek(), heap.peek());
                assert_eq!(w, h);
                now = w.unwrap().0;
                let t = now + Time::from_ps(1 + rng.below(3_000));
                let a = tickets.next().unwrap();
                wheel.replace_min(t, a, step);
                heap.replace_min(t, a, step);
            }
            assert_eq!(wheel.len(), heap.len());
        }
        while let Some(h) = heap.pop() {
            assert_eq!(wheel.pop(), Some(h));
        }
        assert!(wheel.is_empty());
    }
}

//! Per host, the flows with data to send, in the order the NIC's round robin visits them: a
//! doubly linked list through per-flow links (push, removal and membership in O(1), whatever
//! the flows a host holds), with the round robin's cursor.
//!
//! The order is that of a vector the flows are pushed onto and removed from, read from a
//! cursor index onwards and around: a cursor past the end starts at the first flow, and the
//! next flow pushed is where it points.
//!
//! With `host.nic = "pull-fifo"` the NIC never calls [`SendLists::sent`]: it takes the flow
//! served off ([`SendLists::remove`]) and pushes it back if it has data, so the cursor stays
//! on the first flow and [`SendLists::find`] reads the list from the front, as a line.

/// No flow: a list's end, or a cursor past the end.
const NIL: u32 = u32::MAX;
/// `prev` of a flow on no list.
const OFF: u32 = u32::MAX - 1;

pub(super) struct SendLists {
    /// Per flow: (previous, next) on its host's list; `prev == OFF` when on none.
    link: Vec<[u32; 2]>,
    /// Per host: first and last flow.
    ends: Vec<[u32; 2]>,
    /// Per host: the flow the round robin tries first (`NIL`: past the end).
    cursor: Vec<u32>,
}

impl SendLists {
    pub(super) fn new(hosts: usize, flows: usize) -> Self {
        assert!(
            flows < OFF as usize,
            "{flows} flows: flow ids must stay below 2^32 - 2"
        );
        SendLists {
            link: vec![[OFF, NIL]; flows],
            ends: vec![[NIL, NIL]; hosts],
            cursor: vec![NIL; hosts],
        }
    }

    pub(super) fn is_empty(&self, host: u32) -> bool {
        self.ends[host as usize][0] == NIL
    }

    pub(super) fn contains(&self, flow: u32) -> bool {
        self.link[flow as usize][0] != OFF
    }

    /// Appends `flow` (on no list) to `host`'s list.
    pub(super) fn push(&mut self, host: u32, flow: u32) {
        debug_assert!(
            !self.contains(flow),
            "flow {flow} is on a send list already"
        );
        let (h, f) = (host as usize, flow as usize);
        let last = self.ends[h][1];
        self.link[f] = [last, NIL];
        match last {
            NIL => self.ends[h][0] = flow,
            l => self.link[l as usize][1] = flow,
        }
        self.ends[h][1] = flow;
        if self.cursor[h] == NIL {
            self.cursor[h] = flow;
        }
    }

    /// Takes `flow` off `host`'s list; a cursor on it moves to the flow after it.
    pub(super) fn remove(&mut self, host: u32, flow: u32) {
        let (h, f) = (host as usize, flow as usize);
        let [prev, next] = self.link[f];
        debug_assert!(prev != OFF, "flow {flow} is on no send list");
        match prev {
            NIL => self.ends[h][0] = next,
            p => self.link[p as usize][1] = next,
        }
        match next {
            NIL => self.ends[h][1] = prev,
            n => self.link[n as usize][0] = prev,
        }
        if self.cursor[h] == flow {
            self.cursor[h] = next;
        }
        self.link[f] = [OFF, NIL];
    }

    /// The first flow from the cursor onwards (and around) for which `open` holds; `open` is
    /// called on each flow in that order up to it (on every flow if none).
    pub(super) fn find(&self, host: u32, mut open: impl FnMut(u32) -> bool) -> Option<u32> {
        let h = host as usize;
        let first = self.ends[h][0];
        let start = match self.cursor[h] {
            NIL => first,
            c => c,
        };
        let mut f = start;
        while f != NIL {
            if open(f) {
                return Some(f);
            }
            f = match self.link[f as usize][1] {
                NIL => first,
                n => n,
            };
            if f == start {
                break;
            }
        }
        None
    }

    /// `flow` sent a packet: the round robin goes on after it. `done`: it has no more data,
    /// and leaves the list.
    pub(super) fn sent(&mut self, host: u32, flow: u32, done: bool) {
        let h = host as usize;
        if done {
            self.cursor[h] = flow;
            self.remove(host, flow);
        } else {
            self.cursor[h] = self.link[flow as usize][1];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference: a vector and a cursor index, as the round robin ran before.
    struct VecList {
        list: Vec<u32>,
        cursor: usize,
    }

    impl VecList {
        fn find(&self, open: impl Fn(u32) -> bool) -> Option<usize> {
            if self.list.is_empty() {
                return None;
            }
            let start = self.cursor % self.list.len();
            (0..self.list.len())
                .map(|j| (start + j) % self.list.len())
                .find(|&j| open(self.list[j]))
        }
        fn remove(&mut self, flow: u32) {
            if let Some(i) = self.list.iter().position(|&f| f == flow) {
                self.list.remove(i);
                if i < self.cursor {
                    self.cursor -= 1;
                }
            }
        }
        fn sent(&mut self, i: usize, done: bool) {
            if done {
                self.list.remove(i);
                self.cursor = i;
            } else {
                self.cursor = i + 1;
            }
        }
    }

    /// Random pushes, removals and sends (some flows' windows closed) visit the flows in the
    /// same order as the vector did.
    #[test]
    fn same_order_as_a_vector_with_a_cursor() {
        let mut rng = crate::engine::Rng::new(7);
        let flows = 64u32;
        let mut lists = SendLists::new(1, flows as usize);
        let mut v = VecList {
            list: vec![],
            cursor: 0,
        };
        for step in 0..20_000 {
            let closed = rng.next_u64();
            let open = |f: u32| (closed >> (f % 64)) & 3 != 0;
            match rng.next_u64() % 4 {
                0 => {
                    let f = (rng.next_u64() % flows as u64) as u32;
                    if !lists.contains(f) {
                        lists.push(0, f);
                        v.list.push(f);
                    }
                }
                1 => {
                    let f = (rng.next_u64() % flows as u64) as u32;
                    if lists.contains(f) {
                        lists.remove(0, f);
                    }
                    v.remove(f);
                }
                _ => {
                    let i = v.find(open);
                    let f = lists.find(0, open);
                    assert_eq!(i.map(|i| v.list[i]), f, "step {step}");
                    if let (Some(i), Some(f)) = (i, f) {
                        let done = rng.next_u64().is_multiple_of(3);
                        v.sent(i, done);
                        lists.sent(0, f, done);
                    }
                }
            }
            assert_eq!(lists.is_empty(0), v.list.is_empty());
        }
    }

    /// `host.nic = "pull-fifo"`'s line: the flows pushed at the back, moved to the back when
    /// their window opens, served from the front (those ahead with a shut window leave the
    /// line but stay listed), pushed back after each packet: the same flows in the same order
    /// as the vector read from its front.
    #[test]
    fn same_order_as_a_vector_read_from_the_front() {
        let mut rng = crate::engine::Rng::new(5);
        let flows = 64u32;
        let mut lists = SendLists::new(1, flows as usize);
        let mut v: Vec<u32> = vec![];
        for step in 0..20_000 {
            let closed = rng.next_u64();
            let open = |f: u32| (closed >> (f % 64)) & 3 != 0;
            let f = (rng.next_u64() % flows as u64) as u32;
            match rng.next_u64() % 4 {
                0 if !lists.contains(f) => {
                    lists.push(0, f);
                    v.push(f);
                }
                1 if lists.contains(f) => {
                    // Leaves (no data), or joins the back again (its window opened).
                    lists.remove(0, f);
                    v.retain(|&g| g != f);
                    if rng.next_u64().is_multiple_of(2) {
                        lists.push(0, f);
                        v.push(f);
                    }
                }
                _ => {
                    let mut seen = vec![];
                    let found = lists.find(0, |g| {
                        seen.push(g);
                        open(g)
                    });
                    let i = v.iter().position(|&g| open(g));
                    assert_eq!(i.map(|i| v[i]), found, "step {step}");
                    assert_eq!(seen, v[..i.map_or(v.len(), |i| i + 1)], "step {step}");
                    if let (Some(i), Some(g)) = (i, found) {
                        lists.remove(0, g);
                        v.remove(i);
                        if !rng.next_u64().is_multiple_of(3) {
                            lists.push(0, g);
                            v.push(g);
                        }
                    }
                }
            }
            assert_eq!(lists.is_empty(0), v.is_empty());
        }
    }
}

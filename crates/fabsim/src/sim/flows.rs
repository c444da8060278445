//! The flows' state, held while it is live: a flow's sender and receiver state machines
//! are made when it becomes ready (or, in a partition that holds only its receiver, when its
//! first packet arrives) and released once its sender has every byte acknowledged; what the
//! reports need of it stays in a 40-byte [`FlowResult`]. A run's memory then follows the
//! flows in progress, not every flow of its workload.
//!
//! After its release a flow's events and packets need no state: its timers find nothing to
//! do (a sender with every byte acknowledged is idle, a complete receiver holds no ACK), an
//! ACK or NACK reaching the sender changes nothing, and a data packet reaching the receiver
//! is a duplicate, answered at once (`Sim::host_receive`).

use super::Flow;
use crate::engine::Time;
use crate::transport::Sender;

/// A slot index that is not one: the flow was never live here.
const NEVER: u32 = u32::MAX;
/// The flow was live here and is released.
const RELEASED: u32 = u32::MAX - 1;

/// What stays of a flow for the reports (`Time::MAX`: not happened).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FlowResult {
    /// When it became ready (its start time, or when its gates released it).
    pub(super) ready: Time,
    pub(super) first_tx: Time,
    /// When its last ACK arrived.
    pub(super) finish: Time,
    /// Payload bytes acknowledged.
    pub acked_bytes: u64,
    /// Data packets resent, and timeouts.
    pub retransmits: u32,
    pub timeouts: u32,
}

impl Default for FlowResult {
    fn default() -> Self {
        Self {
            ready: Time::MAX,
            first_tx: Time::MAX,
            finish: Time::MAX,
            acked_bytes: 0,
            retransmits: 0,
            timeouts: 0,
        }
    }
}

impl FlowResult {
    /// Takes a sender's results.
    fn take(&mut self, tx: &Sender) {
        self.first_tx = tx.first_tx().unwrap_or(Time::MAX);
        self.finish = tx.finish().unwrap_or(Time::MAX);
        self.acked_bytes = tx.acked_bytes();
        self.retransmits = tx.retransmits();
        self.timeouts = tx.timeouts();
    }

    pub(super) fn started(&self) -> bool {
        self.ready < Time::MAX
    }

    pub(super) fn finished(&self) -> bool {
        self.finish < Time::MAX
    }

    /// When it became ready to send: its start time, or when its gates released it
    /// (`None`: it never started).
    pub fn start_ps(&self) -> Option<Time> {
        self.started().then_some(self.ready)
    }

    /// When its first packet left.
    pub fn first_tx_ps(&self) -> Option<Time> {
        (self.first_tx < Time::MAX).then_some(self.first_tx)
    }

    /// When its last ACK arrived.
    pub fn finish_ps(&self) -> Option<Time> {
        self.finished().then_some(self.finish)
    }

    /// Completion time: last ACK minus when it became ready.
    pub fn fct_ps(&self) -> Option<Time> {
        Some(self.finish_ps()? - self.start_ps()?)
    }
}

/// The live flows in slots, by flow id.
pub(super) struct Flows {
    live: Vec<Option<Flow>>,
    /// Per flow: its slot in `live`, [`NEVER`] or [`RELEASED`].
    slot: Vec<u32>,
    free: Vec<u32>,
    /// Per flow: its record (kept up to date at release and by [`Flows::settle`]).
    pub(super) records: Vec<FlowResult>,
}

impl Flows {
    pub(super) fn new(flows: usize) -> Self {
        Self {
            live: Vec::new(),
            slot: vec![NEVER; flows],
            free: Vec::new(),
            records: vec![FlowResult::default(); flows],
        }
    }

    /// Flows of the workload (live or not).
    pub(super) fn len(&self) -> usize {
        self.slot.len()
    }

    #[inline]
    pub(super) fn get(&self, id: u32) -> Option<&Flow> {
        let s = self.slot[id as usize];
        if s < RELEASED {
            self.live[s as usize].as_ref()
        } else {
            None
        }
    }

    #[inline]
    pub(super) fn get_mut(&mut self, id: u32) -> Option<&mut Flow> {
        let s = self.slot[id as usize];
        if s < RELEASED {
            self.live[s as usize].as_mut()
        } else {
            None
        }
    }

    /// The flow's state; it is live (a sender with data, or one whose timers run).
    #[inline]
    #[track_caller]
    pub(super) fn at(&mut self, id: u32) -> &mut Flow {
        self.get_mut(id).expect("a live flow")
    }

    /// Whether the flow was live here and is released.
    pub(super) fn released(&self, id: u32) -> bool {
        self.slot[id as usize] == RELEASED
    }

    /// Makes `flow` live as flow `id`.
    pub(super) fn create(&mut self, id: u32, flow: Flow) -> &mut Flow {
        debug_assert_eq!(self.slot[id as usize], NEVER, "flow {id} made twice");
        let s = match self.free.pop() {
            Some(s) => {
                self.live[s as usize] = Some(flow);
                s
            }
            None => {
                self.live.push(Some(flow));
                (self.live.len() - 1) as u32
            }
        };
        self.slot[id as usize] = s;
        self.live[s as usize].as_mut().expect("just made")
    }

    /// Releases flow `id`'s state, keeping its sender's results when `sender` (this
    /// partition holds its sender).
    pub(super) fn release(&mut self, id: u32, sender: bool) {
        let s = std::mem::replace(&mut self.slot[id as usize], RELEASED);
        debug_assert_ne!(s, RELEASED, "flow {id} released twice");
        if s == NEVER {
            // A receiver that never saw a packet here.
            return;
        }
        // The slot's allocations (per-packet bits, boxed CC state) go now.
        let flow = self.live[s as usize].take().expect("a live slot");
        if sender {
            self.records[id as usize].take(&flow.tx);
        }
        self.free.push(s);
    }

    /// Brings the records of the flows still live (with their senders here) up to date.
    pub(super) fn settle(&mut self, sender: impl Fn(&Flow) -> bool) {
        for (id, &s) in self.slot.iter().enumerate() {
            if let Some(f) = self.live.get(s as usize).and_then(Option::as_ref) {
                if sender(f) {
                    self.records[id].take(&f.tx);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::size_of;

    /// The cost estimate's per-flow sizes (`params`) are this module's layout.
    #[test]
    fn the_estimate_counts_a_flows_record_and_slot() {
        let record = size_of::<u32>() + size_of::<FlowResult>();
        assert_eq!(crate::params::FLOW_RECORD_BYTES as usize, record);
        let live = 2 * size_of::<Option<Flow>>() + size_of::<u32>();
        let counted = crate::params::live_flow_bytes() as usize;
        assert!(
            live <= counted && counted < live + 64,
            "{live} held, {counted} counted"
        );
    }
}

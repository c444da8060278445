//! Flow dependencies: gates (htsim's triggers).
//!
//! A gate fires after it received `need` signals; a signal is a flow's *send done* (its last
//! ACK reached the sender) or *receive done* (its receiver holds every data packet). When a
//! gate fires, each of its target flows loses one unmet prerequisite; a flow whose
//! prerequisites are all met starts `delay` after the firing (and not before its own
//! `start_ps`). A flow waiting on no gate starts at its `start_ps`.
//!
//! Everything is flat: per flow a count of gates it waits for, and CSR lists (flow -> gates it
//! signals, gate -> flows it releases), so the simulator neither allocates nor searches when a
//! flow completes.

use crate::engine::Time;

/// Compressed sparse rows: the items of row `i` are `items[off[i]..off[i + 1]]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Csr {
    off: Vec<u32>,
    items: Vec<u32>,
}

impl Csr {
    /// Rows `0..rows` from `(row, item)` pairs (items keep their order within a row).
    fn from_pairs(rows: usize, pairs: &[(u32, u32)]) -> Self {
        let mut off = vec![0u32; rows + 1];
        for &(r, _) in pairs {
            off[r as usize + 1] += 1;
        }
        for i in 0..rows {
            off[i + 1] += off[i];
        }
        let mut fill = off.clone();
        let mut items = vec![0; pairs.len()];
        for &(r, it) in pairs {
            items[fill[r as usize] as usize] = it;
            fill[r as usize] += 1;
        }
        Csr { off, items }
    }

    #[inline]
    pub fn row(&self, i: u32) -> &[u32] {
        &self.items[self.off[i as usize] as usize..self.off[i as usize + 1] as usize]
    }

    fn rows(&self) -> u32 {
        self.off.len().saturating_sub(1) as u32
    }

    /// Row `i` repeated `first[i + 1] - first[i]` times, for every row.
    fn repeat_rows(&self, first: &[u32]) -> Self {
        let mut off = Vec::with_capacity(first[first.len() - 1] as usize + 1);
        let mut items = Vec::new();
        off.push(0);
        for i in 0..self.rows() {
            for _ in first[i as usize]..first[i as usize + 1] {
                items.extend_from_slice(self.row(i));
                off.push(items.len() as u32);
            }
        }
        Csr { off, items }
    }

    /// Every item `x` replaced by the items `first[x]..first[x + 1]`.
    fn expand_items(&self, first: &[u32]) -> Self {
        let mut off = Vec::with_capacity(self.off.len());
        let mut items = Vec::new();
        off.push(0);
        for i in 0..self.rows() {
            for &x in self.row(i) {
                items.extend(first[x as usize]..first[x as usize + 1]);
            }
            off.push(items.len() as u32);
        }
        Csr { off, items }
    }
}

/// Which completion of a flow signals a gate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Signal {
    /// The sender received the last ACK.
    SendDone,
    /// The receiver holds every data packet.
    RecvDone,
}

/// The dependencies of a workload, ready for the simulator.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Deps {
    /// Per flow: gates that must fire before it starts.
    pub waits: Vec<u32>,
    /// Per flow: gates signalled by its send done / receive done.
    pub send_done: Csr,
    pub recv_done: Csr,
    /// Per gate: signals needed, and the delay from firing to releasing its targets.
    pub need: Vec<u32>,
    pub delay_ps: Vec<Time>,
    /// Per gate: the flows it releases.
    pub targets: Csr,
}

impl Deps {
    /// Whether any flow waits on a gate (else every flow starts at its own time).
    pub fn gated(&self) -> bool {
        !self.need.is_empty()
    }

    /// Per gate: the signals it can receive (its flows' send dones and receive dones).
    pub fn signals(&self) -> Vec<u32> {
        let mut signals = vec![0u32; self.need.len()];
        for fl in 0..self.waits.len() as u32 {
            for &g in self.send_done.row(fl).iter().chain(self.recv_done.row(fl)) {
                signals[g as usize] += 1;
            }
        }
        signals
    }

    /// The first gate that fires before every signal it can receive has come (it needs
    /// fewer): an htsim `oneshot` trigger signalled by several flows, or a `barrier` counting
    /// fewer than signal it.
    pub fn partial_gate(&self) -> Option<u32> {
        let signals = self.signals();
        (0..self.need.len())
            .find(|&g| self.need[g] < signals[g])
            .map(|g| g as u32)
    }

    /// The dependencies of the flows split into parts: flow `m` becomes the flows
    /// `first[m]..first[m + 1]` (`first` holds a start per flow and then the parts in all).
    /// Each part waits for the gates `m` waited for and signals those `m` signalled, and a
    /// gate needs the signals of all the parts of the flows it needed: it fires when they
    /// have completed whole, as before. Panics on a [`Deps::partial_gate`], which fires on
    /// some of its flows, not all: counting parts would fire it on parts of several.
    pub fn split(&self, first: &[u32]) -> Deps {
        assert_eq!(
            first.len(),
            self.waits.len() + 1,
            "a start per flow, then the end"
        );
        if let Some(g) = self.partial_gate() {
            panic!(
                "gate {g} fires on {} of its signals, not all: its flows cannot be split into parts (the scenario refuses host.planes = \"stripe\" with such a workload)",
                self.need[g as usize]
            );
        }
        let mut need = self.need.clone();
        for m in 0..self.waits.len() as u32 {
            let more = first[m as usize + 1] - first[m as usize] - 1;
            for &g in self.send_done.row(m).iter().chain(self.recv_done.row(m)) {
                need[g as usize] += more;
            }
        }
        Deps {
            waits: (self.waits.iter().enumerate())
                .flat_map(|(m, &w)| (first[m]..first[m + 1]).map(move |_| w))
                .collect(),
            send_done: self.send_done.repeat_rows(first),
            recv_done: self.recv_done.repeat_rows(first),
            need,
            delay_ps: self.delay_ps.clone(),
            targets: self.targets.expand_items(first),
        }
    }

    /// Per flow: the gates it waits for (`targets` turned around).
    pub fn waits_on(&self) -> Csr {
        let flows = self.waits.len();
        let pairs: Vec<(u32, u32)> = (0..self.need.len() as u32)
            .flat_map(|g| self.targets.row(g).iter().map(move |&x| (x, g)))
            .collect();
        Csr::from_pairs(flows, &pairs)
    }
}

/// Collects gates, signals and targets; [`DepsBuilder::build`] lays them out flat.
#[derive(Clone, Debug, Default)]
pub struct DepsBuilder {
    need: Vec<u32>,
    delay_ps: Vec<Time>,
    send_done: Vec<(u32, u32)>,
    recv_done: Vec<(u32, u32)>,
    targets: Vec<(u32, u32)>,
}

impl DepsBuilder {
    /// A new gate firing after `need` signals; returns its id.
    pub fn gate(&mut self, need: u32, delay_ps: Time) -> u32 {
        self.need.push(need);
        self.delay_ps.push(delay_ps);
        self.need.len() as u32 - 1
    }

    /// Sets the signal count of `gate` (htsim files may declare a barrier after using it).
    pub fn set_need(&mut self, gate: u32, need: u32) {
        self.need[gate as usize] = need;
    }

    pub fn signal(&mut self, flow: u32, on: Signal, gate: u32) {
        match on {
            Signal::SendDone => self.send_done.push((flow, gate)),
            Signal::RecvDone => self.recv_done.push((flow, gate)),
        }
    }

    /// `flow` waits for `gate`.
    pub fn release(&mut self, gate: u32, flow: u32) {
        self.targets.push((gate, flow));
    }

    /// A gate firing once every listed completion happened, releasing `targets` (nothing
    /// to wait for: no gate, the targets start on their own).
    pub fn after_all(&mut self, signals: &[(u32, Signal)], targets: &[u32]) {
        if signals.is_empty() {
            return;
        }
        let g = self.gate(signals.len() as u32, Time::ZERO);
        for &(flow, on) in signals {
            self.signal(flow, on, g);
        }
        for &t in targets {
            self.release(g, t);
        }
    }

    pub fn build(self, flows: usize) -> Deps {
        let mut waits = vec![0u32; flows];
        for &(_, f) in &self.targets {
            waits[f as usize] += 1;
        }
        let gates = self.need.len();
        Deps {
            waits,
            send_done: Csr::from_pairs(flows, &self.send_done),
            recv_done: Csr::from_pairs(flows, &self.recv_done),
            need: self.need,
            delay_ps: self.delay_ps,
            targets: Csr::from_pairs(gates, &self.targets),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csr_keeps_rows_and_order() {
        let c = Csr::from_pairs(3, &[(2, 7), (0, 1), (2, 5)]);
        assert_eq!(c.row(0), &[1]);
        assert_eq!(c.row(1), &[] as &[u32]);
        assert_eq!(c.row(2), &[7, 5]);
    }

    #[test]
    fn builder_counts_waits_per_flow() {
        let mut b = DepsBuilder::default();
        b.after_all(&[(0, Signal::SendDone), (1, Signal::RecvDone)], &[2, 3]);
        let g = b.gate(1, Time::from_ps(5));
        b.signal(2, Signal::SendDone, g);
        b.release(g, 3);
        let d = b.build(4);
        assert_eq!(d.waits, vec![0, 0, 1, 2]);
        let on = d.waits_on();
        assert_eq!(
            (on.row(1), on.row(2), on.row(3)),
            (&[][..], &[0][..], &[0, 1][..])
        );
        assert_eq!(d.need, vec![2, 1]);
        assert_eq!(d.send_done.row(0), &[0]);
        assert_eq!(d.recv_done.row(1), &[0]);
        assert_eq!(d.send_done.row(2), &[1]);
        assert_eq!(d.targets.row(0), &[2, 3]);
        assert_eq!(d.delay_ps[1], Time::from_ps(5));
        let mut b = DepsBuilder::default();
        b.after_all(&[], &[0]);
        assert_eq!(b.build(1).waits, vec![0], "nothing to wait for");
    }

    #[test]
    fn a_gate_firing_on_some_of_its_signals_is_partial() {
        let mut b = DepsBuilder::default();
        b.after_all(&[(0, Signal::SendDone), (1, Signal::RecvDone)], &[2]);
        let g = b.gate(1, Time::ZERO);
        b.signal(0, Signal::RecvDone, g);
        b.signal(1, Signal::SendDone, g);
        b.release(g, 3);
        let d = b.build(4);
        assert_eq!(d.signals(), [2, 2]);
        assert_eq!(d.partial_gate(), Some(1));
        let err = std::panic::catch_unwind(|| d.split(&[0, 2, 4, 6, 8])).unwrap_err();
        let msg = err.downcast_ref::<String>().unwrap();
        assert!(msg.contains("gate 1 fires on 1 of its signals"), "{msg}");
    }
}

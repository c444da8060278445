//! The hosts' NICs and their queues of flows: per host, the flows with data to send (a
//! [`SendLists`] list), whether each one's window lets it send, the line of `pull-fifo`,
//! whether a `NicFree` is pending, and pacing under failures.
//!
//! The NIC knows a flow only from its sender's answers ([`Ready`]): it never asks the
//! sender back, and the round robin skips a window-blocked flow without loading the flow
//! (a cache miss per flow on a large fabric).
//!
//! Architecture Invariant: a flow is on its host's list exactly while its sender has data to
//! send, from the moment it may send (its start, or its SYN-ACK) until its sender is done.
//! Architecture Invariant: nothing here schedules events or touches packets: the host code
//! (`host.rs`) asks [`Nics::wake_at`] when to wake the NIC and hands it what to send.

use super::sendlist::SendLists;
use crate::engine::Time;
use crate::transport::{Nic, Ready};

pub(super) struct Nics {
    mode: Nic,
    lists: SendLists,
    /// Per host: a `NicFree` is pending.
    armed: Vec<bool>,
    /// Per flow: its window had room at its sender's last answer.
    open: Vec<bool>,
    /// Per flow, with `host.nic = "pull-fifo"` (empty otherwise): it is in its NIC's line of
    /// flows waiting to send, which is the order of those flows in its host's list.
    in_line: Vec<bool>,
    /// Pacing at rho_max (failures): line-rate time over paced time, and per host the
    /// earliest next data packet.
    pace: Option<f64>,
    next_tx: Vec<Time>,
}

impl Nics {
    pub(super) fn new(mode: Nic, hosts: usize, flows: usize, pace: Option<f64>) -> Self {
        Nics {
            mode,
            lists: SendLists::new(hosts, flows),
            armed: vec![false; hosts],
            open: vec![true; flows],
            in_line: if mode == Nic::PullFifo {
                vec![false; flows]
            } else {
                Vec::new()
            },
            pace,
            next_tx: vec![Time::ZERO; hosts],
        }
    }

    /// `flow` may send (it started, or its SYN-ACK came): onto `host`'s list.
    pub(super) fn open(&mut self, host: u32, flow: u32) {
        self.lists.push(host, flow);
        if let Some(in_line) = self.in_line.get_mut(flow as usize) {
            *in_line = true;
        }
    }

    /// `flow`'s sender answered `r` (after an ACK, a NACK or a timeout). Back on its host's
    /// list if it has data again (packets presumed lost) after having none, off it if it
    /// has none left; and if its window `moved`, the NIC's view of it: `pull-fifo`'s line
    /// takes it at its back once it may send again.
    pub(super) fn answer(&mut self, host: u32, flow: u32, r: Ready, moved: bool) {
        let listed = self.lists.contains(flow);
        debug_assert!(
            self.in_line
                .get(flow as usize)
                .is_none_or(|&l| !l || listed),
            "flow {flow} is in its NIC's line but on no send list"
        );
        if r.data && !listed {
            self.lists.push(host, flow);
        } else if !r.data && listed {
            self.unlist(host, flow);
        }
        if !moved {
            return;
        }
        let f = flow as usize;
        self.open[f] = r.window;
        if r.window && self.in_line.get(f) == Some(&false) && r.data {
            assert!(
                self.lists.contains(flow),
                "flow {flow}: a flow with data is on the send list"
            );
            self.lists.remove(host, flow);
            self.lists.push(host, flow);
            self.in_line[f] = true;
        }
    }

    /// `flow`'s sender is done: it leaves the NIC.
    pub(super) fn release(&mut self, host: u32, flow: u32) {
        self.unlist(host, flow);
        self.open[flow as usize] = false;
    }

    /// Takes `flow` off `host`'s list, if it is there (a sender done may still hold packets
    /// it once presumed lost: it sends no more).
    fn unlist(&mut self, host: u32, flow: u32) {
        if self.lists.contains(flow) {
            self.lists.remove(host, flow);
        }
        if let Some(in_line) = self.in_line.get_mut(flow as usize) {
            *in_line = false;
        }
    }

    /// When the NIC of `host` should take its next packet, if it has something to send and
    /// no `NicFree` is pending (which the caller then schedules): when the NIC is free
    /// (`busy_until`, or the pace), or at once with `host.nic = "fifo"` (flows push into its
    /// queue).
    #[inline]
    pub(super) fn wake_at(&mut self, host: u32, now: Time, busy_until: Time) -> Option<Time> {
        let h = host as usize;
        if self.armed[h] || self.lists.is_empty(host) {
            return None;
        }
        self.armed[h] = true;
        Some(self.next_at(host, now, busy_until))
    }

    /// When the NIC of `host` takes its next packet, its serializer busy until `busy_until`:
    /// when it is free (and the pace allows), or at once with `host.nic = "fifo"`.
    #[inline]
    pub(super) fn next_at(&self, host: u32, now: Time, busy_until: Time) -> Time {
        if self.mode == Nic::Fifo {
            now
        } else {
            busy_until.max(now).max(self.next_tx[host as usize])
        }
    }

    /// `NicFree`: the flow whose packet the NIC takes, round-robin over the host's flows,
    /// skipping those whose window is shut; `None` if every flow waits for ACKs (or none has
    /// data: an answer re-arms the NIC).
    pub(super) fn pick(&mut self, host: u32) -> Option<u32> {
        self.armed[host as usize] = false;
        let (open, in_line) = (&self.open, &mut self.in_line);
        self.lists.find(host, |fid| {
            if !open[fid as usize] {
                // `host.nic = "pull-fifo"`: the flows ahead of the one served, or all, had
                // their turn with a shut window: they leave the line (and join it again when
                // their window opens).
                if let Some(in_line) = in_line.get_mut(fid as usize) {
                    *in_line = false;
                }
            }
            open[fid as usize]
        })
    }

    /// The flow `pick` chose handed its NIC a packet and answered `r`; the packet takes
    /// `ser` on the wire at line rate. With `host.nic = "pull-fifo"` it leaves the line, and
    /// goes back to its end if it has data; otherwise the round robin goes on after it.
    /// Paced at rho_max, the next data packet waits as if this one took 1/rho longer.
    pub(super) fn served(&mut self, host: u32, flow: u32, r: Ready, now: Time, ser: Time) {
        debug_assert!(self.lists.contains(flow), "flow {flow} sent off the list");
        if !self.in_line.is_empty() {
            self.lists.remove(host, flow);
            self.in_line[flow as usize] = false;
            if r.data {
                self.lists.push(host, flow);
            }
        } else {
            self.lists.sent(host, flow, !r.data);
        }
        if let Some(stretch) = self.pace {
            self.next_tx[host as usize] = now + Time::from_ps_f64(ser.as_ps_f64() * stretch);
        }
    }

    /// Whether the NIC paces (then [`Nics::served`] needs the packet's serialization).
    #[inline]
    pub(super) fn paced(&self) -> bool {
        self.pace.is_some()
    }
}

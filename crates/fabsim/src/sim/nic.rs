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
    /// Per host: when its pending `NicFree` is due (`Time::MAX`: none is). An event at
    /// another time is stale: a paced NIC was woken earlier than it planned.
    armed: Vec<Time>,
    /// Per flow: its window had room at its sender's last answer.
    open: Vec<bool>,
    /// Per flow, with `host.nic = "pull-fifo"` (empty otherwise): it is in its NIC's line of
    /// flows waiting to send, which is the order of those flows in its host's list.
    in_line: Vec<bool>,
    /// Pacing at rho_max (failures): line-rate time over paced time, and per host the
    /// earliest next data packet.
    pace: Option<f64>,
    next_tx: Vec<Time>,
    /// Rate-based congestion control: per flow, the earliest its next data packet may leave
    /// (empty otherwise).
    avail: Vec<Time>,
}

/// What a free NIC does next.
pub(super) enum Pick {
    /// Take a packet of this flow.
    Flow(u32),
    /// Nothing may leave before then (paced flows): the NIC is armed for then.
    Wait(Time),
    /// Nothing to send until an answer re-arms it.
    Idle,
}

impl Nics {
    /// NICs of `hosts` hosts for `flows` flows; `paced_flows`: rate-based congestion
    /// control paces each flow.
    pub(super) fn new(
        mode: Nic,
        hosts: usize,
        flows: usize,
        pace: Option<f64>,
        paced_flows: bool,
    ) -> Self {
        Nics {
            mode,
            lists: SendLists::new(hosts, flows),
            armed: vec![Time::MAX; hosts],
            open: vec![true; flows],
            in_line: if mode == Nic::PullFifo {
                vec![false; flows]
            } else {
                Vec::new()
            },
            pace,
            next_tx: vec![Time::ZERO; hosts],
            avail: if paced_flows {
                vec![Time::ZERO; flows]
            } else {
                Vec::new()
            },
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
    ///
    /// A NIC armed for a paced flow (a [`Pick::Wait`]) is armed again for earlier: the
    /// flow that answered may send sooner.
    #[inline]
    pub(super) fn wake_at(&mut self, host: u32, now: Time, busy_until: Time) -> Option<Time> {
        let h = host as usize;
        if self.lists.is_empty(host) {
            return None;
        }
        let at = self.next_at(host, now, busy_until);
        let armed = self.armed[h];
        if armed != Time::MAX && (self.avail.is_empty() || armed <= at) {
            return None;
        }
        self.armed[h] = at;
        Some(at)
    }

    /// Whether a `NicFree` of `host` at `now` is the one it is armed for (else it is stale).
    #[inline]
    pub(super) fn due(&self, host: u32, now: Time) -> bool {
        self.armed[host as usize] == now
    }

    /// `host`'s NIC, woken, may not send (PFC paused it): nothing is pending for it now.
    #[inline]
    pub(super) fn disarm(&mut self, host: u32) {
        self.armed[host as usize] = Time::MAX;
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
    /// skipping those whose window is shut; [`Pick::Idle`] if every flow waits for ACKs (or
    /// none has data: an answer re-arms the NIC).
    /// Paced flows whose next packet may not leave yet are skipped too; if only such flows
    /// could send, the NIC waits for the first of them.
    pub(super) fn pick(&mut self, host: u32, now: Time) -> Pick {
        let h = host as usize;
        self.armed[h] = Time::MAX;
        let (open, in_line, avail) = (&self.open, &mut self.in_line, &self.avail);
        let mut wait = Time::MAX;
        let found = self.lists.find(host, |fid| {
            if !open[fid as usize] {
                // `host.nic = "pull-fifo"`: the flows ahead of the one served, or all, had
                // their turn with a shut window: they leave the line (and join it again when
                // their window opens).
                if let Some(in_line) = in_line.get_mut(fid as usize) {
                    *in_line = false;
                }
                return false;
            }
            match avail.get(fid as usize) {
                Some(&at) if at > now => {
                    wait = wait.min(at);
                    false
                }
                _ => true,
            }
        });
        match found {
            Some(fid) => Pick::Flow(fid),
            None if wait < Time::MAX => {
                self.armed[h] = wait;
                Pick::Wait(wait)
            }
            None => Pick::Idle,
        }
    }

    /// Whether the run's flows are paced at their rates (rate-based congestion control).
    #[inline]
    pub(super) fn paces_flows(&self) -> bool {
        !self.avail.is_empty()
    }

    /// A paced flow's rate changed: its next packet moves by the change in its gap, from
    /// `old` to `new` (HPCC's NICs; the NIC is armed again by the caller's answer).
    #[inline]
    pub(super) fn repace(&mut self, flow: u32, old: Time, new: Time) {
        let a = &mut self.avail[flow as usize];
        *a = (*a + new).saturating_sub(old);
    }

    /// A paced flow's next data packet leaves at `at` at the earliest.
    #[inline]
    pub(super) fn pace_flow(&mut self, flow: u32, at: Time) {
        self.avail[flow as usize] = at;
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

#[cfg(test)]
mod tests {
    use super::*;

    fn us(x: u64) -> Time {
        Time::from_us(x)
    }

    const SENDING: Ready = Ready {
        data: true,
        window: true,
    };

    /// Paced flows wait their turn: the round robin skips a flow whose next packet may not
    /// leave yet, the NIC sleeps until the first may, and a flow that may send sooner arms
    /// it again for earlier (the later wake-up then being stale).
    #[test]
    fn a_paced_nic_skips_flows_until_they_may_send() {
        let mut n = Nics::new(Nic::Pull, 1, 2, None, true);
        n.open(0, 0);
        n.open(0, 1);
        assert_eq!(n.wake_at(0, us(0), us(0)), Some(us(0)));
        assert!(matches!(n.pick(0, us(0)), Pick::Flow(0)));
        n.served(0, 0, SENDING, us(0), Time::ZERO);
        n.pace_flow(0, us(10));
        assert!(matches!(n.pick(0, us(1)), Pick::Flow(1)));
        n.served(0, 1, SENDING, us(1), Time::ZERO);
        n.pace_flow(1, us(5));
        // Both paced: the NIC waits for flow 1, due first.
        assert!(matches!(n.pick(0, us(2)), Pick::Wait(t) if t == us(5)));
        assert!(n.due(0, us(5)) && !n.due(0, us(3)));
        // Flow 1 may send sooner after all (an answer): the NIC is armed again for now.
        n.pace_flow(1, us(3));
        assert_eq!(n.wake_at(0, us(3), us(0)), Some(us(3)));
        assert!(
            n.due(0, us(3)) && !n.due(0, us(5)),
            "the later wake-up is stale"
        );
        assert!(matches!(n.pick(0, us(3)), Pick::Flow(1)));
    }

    /// Without rate-based senders the NIC is armed once, as before pacing existed.
    #[test]
    fn an_unpaced_nic_is_armed_once() {
        let mut n = Nics::new(Nic::Pull, 1, 1, None, false);
        n.open(0, 0);
        assert_eq!(n.wake_at(0, us(0), us(2)), Some(us(2)));
        assert_eq!(n.wake_at(0, us(1), us(1)), None, "armed already");
        assert!(matches!(n.pick(0, us(2)), Pick::Flow(0)));
    }
}

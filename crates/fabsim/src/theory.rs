//! Closed forms and reference schedules: the permutation CCT lower bound (Ofan appendix A).
//!
//! Derivation. Take a permutation in which every host sends `m` data packets to one host and
//! receives `m` from another, over paths of `H` links, each of rate C and delay d, with no
//! queueing anywhere (perfect load balance). A packet of `b` bytes takes `T(b) = 8b/C` per
//! link and, store-and-forward, its last bit reaches the receiver `d + (H-1)(T + d)` after it
//! leaves the sender's NIC. The receiver ACKs each data packet at once, so every NIC carries
//! its own data *and* the ACKs of the data it receives. By symmetry every host runs the same
//! NIC schedule, which has three phases:
//!   1. data only, until the first data packet from its own sender arrives, `H(T_d + d)`;
//!   2. data interleaved with ACKs: an ACK, once due, goes out as soon as the packet in
//!      service ends (ACKs are not preempted by, and do not preempt, a packet on the wire);
//!   3. ACKs only, after the host's last data packet, for the data still arriving.
//!
//! With ACK coalescing (`host.ack_every_bytes = B`) the receiver ACKs its first packet, then
//! a packet once `B` wire bytes arrived unacknowledged, and the last one; ECN marks, the
//! sender's ACK requests, duplicates and the delayed-ACK timer only add ACKs (each extra one
//! resets the count, so by induction the i-th ACK of any run answers a packet no later than
//! the i-th of the threshold-only sequence). The schedule then charges exactly those
//! threshold-only ACKs ([`LinkModel::acks_packet`]), the fewest the policy can send.
//!
//! The collective ends when the ACK of the last data packet reaches its sender: the time
//! the receiver's NIC finishes sending it, plus `d + (H-1)(T_a + d)`. [`permutation_bound_ps`]
//! computes that schedule exactly, packet by packet (so partial last packets and ACK/data
//! rounding are exact), rather than with a fluid approximation of the phases. A flow's
//! packets share only its first and last link (a spraying switch may send each over another
//! path): a short last packet may overtake full ones between them, and then the full packet
//! reaching the receiver last, not the short one, completes the message.
//!
//! For workloads other than permutations the paper uses naive bounds: a host cannot finish
//! before its NIC has sent its data and the ACKs it owes, nor before it has received the data
//! sent to it and the ACKs of its own ([`naive_bound_ps`]).
//!
//! Architecture Invariant: pure functions of their parameters: no state, no randomness, no
//! I/O. Outside its tests this module uses only `engine` and `transport` (the packet count
//! of a message).

use crate::engine::Time;

/// Link and packet parameters the bounds depend on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinkModel {
    pub rate_bps: u64,
    pub delay_ps: Time,
    pub payload_bytes: u32,
    pub header_bytes: u32,
    pub ack_bytes: u32,
    /// Serialization times are rounded down to a whole nanosecond (`link.serialization`).
    pub floor_ns: bool,
}

named_enum! {
    /// How a packet's serialization time is rounded (`link.serialization`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Serialization {
        /// To the picosecond, rounded up.
        Exact => "exact",
        /// Rounded down to a whole nanosecond (at least a picosecond), as ns-3 does.
        FloorNs => "floor-ns",
    }
}

impl LinkModel {
    /// Wire sizes of the packets of a message of `bytes` (every packet full but the last).
    pub fn packet_sizes(&self, bytes: u64) -> impl Iterator<Item = u32> + '_ {
        let (p, n) = (self.payload_bytes as u64, self.packets(bytes));
        (0..n).map(move |i| {
            let payload = if i + 1 == n { bytes - i * p } else { p };
            payload as u32 + self.header_bytes
        })
    }

    /// Number of packets of a message of `bytes` (at least one).
    pub fn packets(&self, bytes: u64) -> u64 {
        crate::transport::packets(bytes, self.payload_bytes)
    }

    /// Wire size of the last (the smallest) packet of a message of `bytes`.
    pub fn last_packet_bytes(&self, bytes: u64) -> u32 {
        (bytes - (self.packets(bytes) - 1) * self.payload_bytes as u64) as u32 + self.header_bytes
    }

    /// Whether the receiver of a message of `bytes`, its packets arriving in order, must ACK
    /// its packet `i` when it ACKs only what the policy forces: every packet if
    /// `ack_every_bytes` is 0, else the first, one once `ack_every_bytes` wire bytes arrived
    /// since the last ACK (`unacked`, updated here), and the last.
    pub fn acks_packet(&self, bytes: u64, ack_every_bytes: u32, i: u64, unacked: &mut u64) -> bool {
        let n = self.packets(bytes);
        let size = if i + 1 == n {
            self.last_packet_bytes(bytes)
        } else {
            self.payload_bytes + self.header_bytes
        };
        *unacked += size as u64;
        let ack =
            ack_every_bytes == 0 || i == 0 || i + 1 == n || *unacked >= ack_every_bytes as u64;
        if ack {
            *unacked = 0;
        }
        ack
    }

    /// The fewest ACKs a receiver can send for a message of `bytes`, in any arrival order:
    /// one per packet if `ack_every_bytes` is 0; else the first and the last packet's, and one
    /// per `c = ceil(B / full packet)` full packets between them (at most one packet, the
    /// short one, is not full; extra ACKs only reset the count, see the module docs).
    pub fn min_acks(&self, bytes: u64, ack_every_bytes: u32) -> u64 {
        let n = self.packets(bytes);
        if ack_every_bytes == 0 || n <= 2 {
            return n;
        }
        let full = (self.payload_bytes + self.header_bytes) as u64;
        let short = u64::from(!bytes.is_multiple_of(self.payload_bytes as u64));
        2 + (n - 2 - short) / (ack_every_bytes as u64).div_ceil(full)
    }

    /// Serialization time of one ACK.
    /// Serialization of every packet of a message of `bytes`, back to back.
    pub fn serialization_ps(&self, bytes: u64) -> Time {
        let full = self.ser(self.payload_bytes + self.header_bytes);
        (self.packets(bytes) - 1) * full + self.ser(self.last_packet_bytes(bytes))
    }

    pub fn ack_ser_ps(&self) -> Time {
        self.ser(self.ack_bytes)
    }

    /// Round trip of a full data packet and its ACK over `hops` links, with no queueing.
    pub fn base_rtt_ps(&self, hops: u32) -> Time {
        let full = self.payload_bytes + self.header_bytes;
        self.ser(full)
            + self.latency_after_send(full, hops)
            + self.ser(self.ack_bytes)
            + self.latency_after_send(self.ack_bytes, hops)
    }

    /// Bandwidth-delay product of the base RTT over `hops` links, in bytes.
    pub fn bdp_bytes(&self, hops: u32) -> u64 {
        self.base_rtt_ps(hops).bytes_at(self.rate_bps)
    }

    /// The bandwidth-delay product in whole full packets, rounded up (as `htsim_uec` sizes
    /// its default buffers and ECN thresholds), and the bytes of one full packet.
    pub fn bdp_packets(&self, hops: u32) -> (u64, u64) {
        let packet = (self.payload_bytes + self.header_bytes) as u64;
        (self.bdp_bytes(hops).div_ceil(packet), packet)
    }

    fn ser(&self, bytes: u32) -> Time {
        self.gap(bytes, self.rate_bps)
    }

    /// `bytes` sent at `rate_bps` (a link's serialization, or a paced flow's gap), rounded
    /// as this link model rounds serialization times.
    #[inline]
    pub fn gap(&self, bytes: u32, rate_bps: u64) -> Time {
        self.round(Time::serialization(bytes, rate_bps))
    }

    /// A serialization time (or a pacing gap) as this link model rounds it.
    #[inline]
    pub fn round(&self, t: Time) -> Time {
        if self.floor_ns {
            t.floor_ns()
        } else {
            t
        }
    }

    /// Time from the end of serialization at the first link to full arrival after `hops` links.
    pub fn latency_after_send(&self, bytes: u32, hops: u32) -> Time {
        self.delay_ps + (hops as u64 - 1) * (self.ser(bytes) + self.delay_ps)
    }
}

/// Permutation CCT lower bound for messages of `bytes` over paths of `hops` links, the
/// receivers ACKing per packet (`ack_every_bytes = 0`) or coalescing (the fewest ACKs).
///
/// A flow's packets share its sender's link and its receiver's; with `spray` (the fabric has
/// more than one path) the links between may differ per packet, so there no packet waits for
/// another. A short last packet can then reach the receiver's link before full ones sent
/// ahead of it, which serves them in arrival order: the packet arriving last, not the short
/// one, completes the message and owes the last ACK. Without `spray` every link is shared
/// and the short packet queues behind the full one ahead of it on each.
pub fn permutation_bound_ps(
    link: &LinkModel,
    bytes: u64,
    hops: u32,
    ack_every_bytes: u32,
    spray: bool,
) -> Time {
    let ack = link.ser(link.ack_bytes);
    let sizes: Vec<u32> = link.packet_sizes(bytes).collect();
    // Per packet: when it reaches the receiver's link, and its arrival at the receiver.
    let mut enter = Vec::with_capacity(sizes.len());
    let mut arrival = Vec::with_capacity(sizes.len());
    // ACK due times at this host (with the packet each answers) = arrival times of the
    // symmetric sender's data, which by symmetry leaves at the same times as this host's own
    // data.
    let mut ack_due: Vec<(Time, usize)> = Vec::with_capacity(sizes.len());
    let mut t = Time::ZERO;
    let mut next_ack = 0;
    let mut last_free = Time::ZERO;
    let mut unacked = 0;
    let middle = (hops as usize).saturating_sub(2);
    // When each link between the first and the last finishes its previous packet, when
    // they are shared.
    let mut middle_free = vec![Time::ZERO; if spray { 0 } else { middle }];
    for (i, &size) in sizes.iter().enumerate() {
        // Phase 2: send every ACK already due before the next data packet.
        while next_ack < ack_due.len() && ack_due[next_ack].0 <= t {
            t += ack;
            next_ack += 1;
        }
        t += link.ser(size);
        let mut e = t + link.delay_ps;
        if spray {
            e += middle as u64 * (link.ser(size) + link.delay_ps);
        }
        for free in &mut middle_free {
            *free = e.max(*free) + link.ser(size);
            e = *free + link.delay_ps;
        }
        last_free = e.max(last_free) + link.ser(size);
        enter.push(e);
        arrival.push(last_free + link.delay_ps);
        if link.acks_packet(bytes, ack_every_bytes, i as u64, &mut unacked) {
            ack_due.push((arrival[i], i));
        }
    }
    // Only the last packet can be short, and it is sent last: the full packets reach the
    // receiver's link in order. If the short one gets there before some of them, it is served
    // first and they later; none of their ACKs was due yet (each arrives after the short
    // packet left its sender).
    let n = sizes.len();
    let overtaken = enter[..n - 1].partition_point(|&e| e <= enter[n - 1]);
    if overtaken < n - 1 {
        let mut free = match overtaken {
            0 => Time::ZERO,
            j => arrival[j - 1] - link.delay_ps,
        };
        free = enter[n - 1].max(free) + link.ser(sizes[n - 1]);
        arrival[n - 1] = free + link.delay_ps;
        for j in overtaken..n - 1 {
            free = enter[j].max(free) + link.ser(sizes[j]);
            arrival[j] = free + link.delay_ps;
        }
        // The last packet's forced ACK goes to the packet arriving last, the full one before
        // the short one; the short one's threshold ACK, if any, is not charged (fewer ACKs
        // only lower the bound).
        let rest = &mut ack_due[next_ack..];
        rest.last_mut().expect("the last packet is ACKed").1 = n - 2;
        let mut rest: Vec<(Time, usize)> = rest.iter().map(|&(_, j)| (arrival[j], j)).collect();
        rest.dedup_by_key(|a| a.1);
        rest.sort();
        ack_due.truncate(next_ack);
        ack_due.extend(rest);
    }
    // Phase 3: the remaining ACKs, each when due or when the NIC frees up.
    let mut last_ack_end = Time::ZERO;
    for &(due, _) in &ack_due[next_ack..] {
        t = t.max(due) + ack;
        last_ack_end = t;
    }
    last_ack_end + link.latency_after_send(link.ack_bytes, hops)
}

/// The least time from a flow's first bit on its sender's NIC until its last byte reaches
/// the receiver: every packet serialized back to back, then the last one crosses `hops` links.
pub fn flow_time_ps(link: &LinkModel, bytes: u64, hops: u32) -> Time {
    link.serialization_ps(bytes) + link.latency_after_send(link.last_packet_bytes(bytes), hops)
}

/// When the first and the last data packet of a flow of `bytes` over `hops` links reach the
/// receiver, from the flow's first bit on its sender's NIC, sent back to back with no
/// queueing.
pub fn arrival_span_ps(link: &LinkModel, bytes: u64, hops: u32) -> (Time, Time) {
    let first = link.packet_sizes(bytes).next().unwrap_or(link.header_bytes);
    (
        link.ser(first) + link.latency_after_send(first, hops),
        flow_time_ps(link, bytes, hops),
    )
}

/// An ACK's trip back over `hops` links, serialization included.
pub fn ack_return_ps(link: &LinkModel, hops: u32) -> Time {
    link.ser(link.ack_bytes) + link.latency_after_send(link.ack_bytes, hops)
}

/// What one host's NIC must carry, in bytes on the wire and packets: out, its data and the
/// ACKs it owes; in, the data sent to it and the ACKs of its own data.
#[derive(Clone, Copy, Debug, Default)]
pub struct NicLoad {
    pub out_data: Wire,
    pub out_acks: Wire,
    pub into_data: Wire,
    pub into_acks: Wire,
}

/// Bytes on the wire, in so many packets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wire {
    pub bytes: u64,
    pub packets: u64,
}

impl std::ops::Add for Wire {
    type Output = Wire;
    fn add(self, o: Wire) -> Wire {
        Wire {
            bytes: self.bytes + o.bytes,
            packets: self.packets + o.packets,
        }
    }
}

impl std::ops::AddAssign for Wire {
    fn add_assign(&mut self, o: Wire) {
        *self = *self + o;
    }
}

impl LinkModel {
    /// The least time the link takes to carry `w`: its bits at the rate, rounded up; with
    /// serialization truncated to whole nanoseconds, less up to a nanosecond per packet.
    pub fn carry_ps(&self, w: Wire) -> Time {
        let ps = (w.bytes as u128 * 8 * 1_000_000_000_000).div_ceil(self.rate_bps as u128);
        let ps = Time::from_ps(ps as u64);
        if self.floor_ns {
            ps.saturating_sub(Time::from_ps(999).saturating_mul(w.packets))
        } else {
            ps
        }
    }
}

/// A naive bound for any workload, from one NIC's `load`, the larger of two readings per
/// direction (packets at least `min_data_bytes` of data, paths at least `min_hops` links):
/// - out: its data leaves, and the last data packet crosses the path and its ACK comes back;
///   and its data and ACKs leave, and the last packet (an ACK, if it owes any) still
///   crosses the path.
/// - in: a first packet (the smaller of an ACK and a data packet) crosses the links before
///   the last one; then the data sent to it arrives and the last packet's ACK goes back; and
///   the data and ACKs arrive (the last may be an ACK: nothing follows).
///
/// The ACKs a host owes may leave after its data, and may arrive after the data it receives:
/// no reading puts data last behind ACKs.
pub fn naive_bound_ps(link: &LinkModel, load: NicLoad, min_data_bytes: u32, min_hops: u32) -> Time {
    let first = link.ack_bytes.min(min_data_bytes);
    let ends = NicEnds {
        data_last: link.latency_after_send(min_data_bytes, min_hops)
            + ack_return_ps(link, min_hops),
        ack_last: link.latency_after_send(link.ack_bytes, min_hops),
        before: link.latency_after_send(first, min_hops) - link.delay_ps,
        ack_back: ack_return_ps(link, min_hops),
    };
    nic_readings_ps(link, load, ends)
}

/// The shortest latencies [`nic_readings_ps`] puts before or after a NIC's bytes. A field
/// only counts where its packets are in the load (`Time::MAX`: none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NicEnds {
    /// Out: from a data packet's last bit on the NIC until its flow's ACK can be back: its
    /// path ([`LinkModel::latency_after_send`]) and the ACK's return ([`ack_return_ps`]).
    pub data_last: Time,
    /// Out: from an ACK's last bit on the NIC until it reaches the data's sender.
    pub ack_last: Time,
    /// In: from a packet's creation until the last link can start sending it: its `H - 1`
    /// serializations and delays, `(H-1)(T + d)` (its latency after the first
    /// serialization but the last link's `d`).
    pub before: Time,
    /// In: from a data packet's arrival until its ACK is back at the sender.
    pub ack_back: Time,
}

impl NicEnds {
    /// Nothing yet: every field `Time::MAX`.
    pub const NONE: NicEnds = NicEnds {
        data_last: Time::MAX,
        ack_last: Time::MAX,
        before: Time::MAX,
        ack_back: Time::MAX,
    };

    /// The shorter of each field.
    pub fn min(self, o: NicEnds) -> NicEnds {
        NicEnds {
            data_last: self.data_last.min(o.data_last),
            ack_last: self.ack_last.min(o.ack_last),
            before: self.before.min(o.before),
            ack_back: self.ack_back.min(o.ack_back),
        }
    }
}

/// [`naive_bound_ps`]'s four readings of one NIC's `load`, from the moment its packets can
/// first be created, with the shortest latencies `ends` (of the packets in the load) before
/// and after them; the last link of the path into the NIC then adds its delay `d` after the
/// last bit it sends. Where the last packet out may be an ACK or a data packet, the shorter
/// of their ends counts.
pub fn nic_readings_ps(link: &LinkModel, load: NicLoad, ends: NicEnds) -> Time {
    let wire = |w: Wire| link.carry_ps(w);
    let (out_all, into_all) = (
        load.out_data + load.out_acks,
        load.into_data + load.into_acks,
    );
    let out_data = (load.out_data.bytes > 0).then(|| wire(load.out_data) + ends.data_last);
    let out_all = (out_all.bytes > 0).then(|| {
        wire(out_all)
            + match load.out_acks.bytes > 0 {
                true => ends.ack_last.min(ends.data_last),
                false => ends.data_last,
            }
    });
    let after = link.delay_ps;
    let into_data = (load.into_data.bytes > 0)
        .then(|| ends.before + wire(load.into_data) + after + ends.ack_back);
    let into_all = (into_all.bytes > 0).then(|| {
        ends.before
            + wire(into_all)
            + after
            + match load.into_acks.bytes > 0 {
                true => Time::ZERO,
                false => ends.ack_back,
            }
    });
    [out_data, out_all, into_data, into_all]
        .into_iter()
        .flatten()
        .max()
        .unwrap_or(Time::ZERO)
}

/// The CCT model behind Thm. 6 (appendix G), without the zero-load RTT and the common
/// factor 1/C: sending `m` payload bytes in packets of `p` wire bytes, `h` of them header
/// (and `a` more per packet for the ACK each data packet costs its receiver's NIC: 0 in the
/// paper), costs `m (p + a) / (p - h)`; the bounded queue a packet meets costs `alpha`
/// packets of `p` bytes.
pub fn packet_size_cost(m: f64, h: f64, a: f64, alpha: f64, p: f64) -> f64 {
    m * (p + a) / (p - h) + alpha * p
}

/// Thm. 6: the packet size minimizing [`packet_size_cost`]. Its derivative
/// `-m (h + a) / (p - h)^2 + alpha` vanishes at `p* = h + sqrt(m (h + a) / alpha)`, and the
/// second derivative `2 m (h + a) / (p - h)^3` is positive for every `p > h`: the cost is
/// strictly convex there, so `p*` is its minimizer.
pub fn optimal_packet_bytes(m: f64, h: f64, a: f64, alpha: f64) -> f64 {
    h + (m * (h + a) / alpha).sqrt()
}

/// Appendix F.3: pointers feeding one destination aggregation switch under random inter-pod
/// traffic in a k-ary fat tree, `(ofan, drb)`. DRB keeps a pointer per destination host at
/// every sender: each of the k^2/4 hosts below the switch's pod has one remote sender. Ofan
/// consolidates at aggregation switches per destination pod: one pointer at the matching
/// aggregation switch of each of the k - 1 other pods. The ratio is k^2 / (4 (k - 1)) > k/4.
pub fn f3_pointers(k: u64) -> (u64, u64) {
    (k - 1, k * k / 4)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thm6_optimum_minimizes_the_convex_cost() {
        for (m, h, a, alpha) in [(1048576.0, 64.0, 0.0, 1.0), (65536.0, 64.0, 64.0, 6.0)] {
            let p = optimal_packet_bytes(m, h, a, alpha);
            let f = |x: f64| packet_size_cost(m, h, a, alpha, x);
            for d in [1.0, 10.0, 100.0] {
                assert!(f(p) < f(p - d) && f(p) < f(p + d), "{p} {d}");
            }
            // The derivative vanishes at the optimum.
            let slope = (f(p + 1e-3) - f(p - 1e-3)) / 2e-3;
            assert!(slope.abs() < 1e-3, "{slope}");
        }
        // Larger messages favour larger packets; larger queues smaller ones.
        assert!(
            optimal_packet_bytes(4e6, 64.0, 0.0, 4.0) > optimal_packet_bytes(1e6, 64.0, 0.0, 4.0)
        );
        assert!(
            optimal_packet_bytes(1e6, 64.0, 0.0, 8.0) < optimal_packet_bytes(1e6, 64.0, 0.0, 4.0)
        );
    }

    /// F.3 against a count on the fabric: every host of pod 0 receives from another pod;
    /// count, per destination aggregation switch, the distinct DRB pointers
    /// (sender, destination host) and Ofan pointers (aggregation switch, destination pod)
    /// whose packets can reach it.
    #[test]
    fn f3_counts_match_a_fabric_count() {
        use crate::net::{Fabric, Route, Tier, TopologySpec};
        use std::collections::BTreeSet;
        for k in [4u32, 6, 8] {
            let f = Fabric::new(&TopologySpec::FatTree { k }, 1, Time::from_ps(1));
            let per_pod = k * k / 4;
            // Destination aggregation switch: pod 0, index 0 (switch id after the edges).
            let target = f.switches.iter().position(|s| s.tier == Tier::Agg).unwrap() as u32;
            let (mut drb, mut ofan) = (BTreeSet::new(), BTreeSet::new());
            // Host i of pod 0 receives from pod 1 + i mod (k - 1): inter-pod traffic from
            // every other pod.
            for dst in 0..per_pod {
                let src = (1 + dst % (k - 1)) * per_pod + dst;
                drb.insert((src, dst));
                // The source pod's aggregation switch with the target's index sends there.
                let edge = f.port_to_node[src as usize];
                let info = f.switches[f.switch_of(edge) as usize];
                let agg = f.switch_of(f.port_to_node[(info.port_base + info.down) as usize]);
                if let Route::Up { key } = f.route(agg, dst) {
                    ofan.insert((agg, key));
                }
                assert_eq!(f.switches[target as usize].group, 0);
            }
            let (o, d) = f3_pointers(k as u64);
            assert_eq!((ofan.len() as u64, drb.len() as u64), (o, d), "k = {k}");
            assert!(d as f64 / o as f64 > k as f64 / 4.0);
        }
    }

    fn ofan_default() -> LinkModel {
        LinkModel {
            rate_bps: 800_000_000_000,
            delay_ps: Time::from_ns(500),
            payload_bytes: 4096,
            header_bytes: 64,
            ack_bytes: 64,
            floor_ns: false,
        }
    }

    #[test]
    fn bound_exceeds_the_trivial_bounds() {
        let l = ofan_default();
        let m = 256 * 4096;
        let b = permutation_bound_ps(&l, m, 6, 0, true);
        // Sending the data alone, plus one round trip of the last packet.
        let data = 256 * l.ser(4160);
        let rtt = l.latency_after_send(4160, 6) + l.ser(64) + l.latency_after_send(64, 6);
        assert!(b > data + rtt, "{b:?} <= {:?}", data + rtt);
        // ACK interleaving costs at most one ACK per data packet.
        assert!(b <= data + rtt + 256 * l.ser(64));
    }

    #[test]
    fn bound_grows_linearly_with_message_size() {
        let l = ofan_default();
        let b1 = permutation_bound_ps(&l, 1024 * 4096, 6, 0, true);
        let b2 = permutation_bound_ps(&l, 2048 * 4096, 6, 0, true);
        let per_packet = (b2 - b1).as_ps_f64() / 1024.0;
        // Asymptotically each packet costs one data and one ACK serialization.
        let expected = (l.ser(4160) + l.ser(64)).as_ps_f64();
        assert!(
            (per_packet - expected).abs() / expected < 1e-3,
            "{per_packet} vs {expected}"
        );
    }
}

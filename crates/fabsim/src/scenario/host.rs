//! `host.*`: host-side load balancing, congestion control, ACKs, connection set-up and the
//! retransmission timer; `host.profile` sets a reference simulator's defaults for them.

use super::keys::{
    fmt_num, int, keys, named, names, number, positive, Key, Keys, Kind, Named, ScenarioError,
    MAX_BYTES,
};
use super::profile::Profile;
use super::{link, switch};
use crate::engine::Time;
use crate::lb::HostLbKind;
use crate::net::asic::ArchParams;
use crate::net::Overflow;
use crate::params::HostParams;
use crate::theory::LinkModel;
use crate::transport::{
    CcKind, CcParams, DctcpParams, DctcpRules, FirstWindow, LossRecovery, Nic, NsccParams,
    NsccRules, Rto, RtoRule, RtoTimer, SwiftParams, TransportParams, WindowBytes,
    MAX_MEDIAN_SAMPLES,
};
use crate::workload::PlaneScheme;

named!(
    HostLbKind,
    CcKind,
    LossRecovery,
    RtoRule,
    RtoTimer,
    DctcpRules,
    FirstWindow,
    NsccRules,
    Nic,
    PlaneScheme,
    WindowBytes
);

/// The largest RTO accepted (1 s).
const MAX_RTO_US: f64 = 1e6;

fn rto(v: &toml::Value) -> bool {
    matches!(v.as_str(), Some("auto" | "off" | "htsim"))
        || super::keys::as_f64(v).is_some_and(|us| us > 0.0 && us <= MAX_RTO_US)
}

keys! {
    PROFILE: Key {
        name: "host.profile",
        kind: Kind::Choice(names::<Profile>),
        default: Some("\"fabsim\""),
        unit: "",
        meaning: "a reference simulator's host-stack defaults for the keys left unset (`fabsim keys` lists them): fabsim (sets none: per-packet ACKs; where packets can be dropped, holes repaired by RACK with an RFC 6298 timer behind), fabsim-rto (fabsim's stack before 4 Dec 2026: only a fixed timer that resends all in flight, so older results reproduce), htsim (UEC htsim), netbench (Netbench's NewReno TCP/DCTCP), hpcc-ns3 (HPCC's ns-3 RoCE NICs and switches: its packets, ns serialization, ECMP hash, ECN ramp and rate-scaled window)",
    },
    LB: Key {
        name: "host.lb",
        kind: Kind::Choice(names::<HostLbKind>),
        default: Some("\"none\""),
        unit: "",
        meaning: "host-side load balancer: entropy per packet or a source-routed up path (usually with switch.lb = ecmp)",
    },
    PLANES: Key {
        name: "host.planes",
        kind: Kind::Choice(names::<PlaneScheme>),
        default: Some("\"hash\""),
        unit: "",
        meaning: "how a message uses a server's NICs, one per plane (topology.planes): hash puts each message whole on one plane drawn from the seed; stripe splits it evenly over every plane, a flow per plane between the two servers' NICs of that plane (NCCL's channel per NIC), what waited for the message waiting for every part (refused with an htsim trigger that fires on some of the connections signalling it); one plane: no change",
    },
    PATH_LABELS: Key {
        name: "host.path_labels",
        kind: int(0, 1 << 16),
        default: Some("0"),
        unit: "entropies",
        meaning: "entropies per flow that host-ecmp, rps, reps and oblivious choose from (oblivious: a power of two); 0: 65536, 256 for oblivious (htsim: 64)",
    },
    ACK_EVERY_BYTES: Key {
        name: "host.ack_every_bytes",
        kind: int(0, 1 << 30),
        default: Some("0"),
        unit: "bytes",
        meaning: "receivers ACK once this many wire bytes arrived unacknowledged, and at once on an ECN mark, the sender's request (last packet, retransmission, full window), the first packet or a duplicate; an ACK covers all packets since the last; 0: every packet (htsim: 16384)",
    },
    ACK_DELAY_US: Key {
        name: "host.ack_delay_us",
        kind: positive(MAX_RTO_US),
        default: None,
        unit: "us",
        meaning: "with host.ack_every_bytes, a receiver holding an ACK sends it at the latest this long after the first packet it covers arrived (TCP's delayed-ACK timer); default: no timer (then coalescing needs host.rto_us, which ends a stall when a window shrinks below the packets whose ACK waits)",
    },
    NIC: Key {
        name: "host.nic",
        kind: Kind::Choice(names::<Nic>),
        default: Some("\"pull\""),
        unit: "",
        meaning: "pull: the NIC takes a data packet when free, round-robin over its flows, ACKs wait only for the packet in service; fifo: flows push packets into one NIC queue as their windows open, ACKs queue behind, with the switch ports' buffer and ECN marking (Netbench); pull-fifo: as pull, but from the flow waiting longest: a flow joins the back of the line when its window lets it send and again after each packet if it still may (htsim)",
    },
    HANDSHAKE: Key {
        name: "host.handshake",
        kind: Kind::Bool,
        default: Some("false"),
        unit: "",
        meaning: "flows open with a SYN and a SYN-ACK (ACK-sized, resent on timeout) before their data; counted in the FCT (Netbench: true)",
    },
    CC: Key {
        name: "host.cc",
        kind: Kind::Choice(names::<CcKind>),
        default: Some("\"none\""),
        unit: "",
        meaning: "congestion control of every flow (none: line rate); dcqcn, dctcp-rate, timely and hpcc are rate-based, paced by the NIC (host.rate_*, host.dcqcn_*, host.hpcc_* keys; hpcc's packets and ACKs carry 42 B of INT, to give in packet.header_bytes and packet.ack_bytes)",
    },
    INIT_WINDOW_BYTES: Key {
        name: "host.init_window_bytes",
        kind: int(1, MAX_BYTES),
        default: None,
        unit: "bytes",
        meaning: "initial window of dctcp, swift, mswift (default: host.init_window_mss segments if given, else 1.5 bandwidth-delay products of the longest path)",
    },
    INIT_WINDOW_MSS: Key {
        name: "host.init_window_mss",
        kind: int(1, 1 << 20),
        default: None,
        unit: "segments",
        meaning: "initial window in segments of the flow's MSS (host.init_window_bytes wins; Netbench: 3)",
    },
    WINDOW_BYTES: Key {
        name: "host.window_bytes",
        kind: Kind::Choice(names::<WindowBytes>),
        default: Some("\"payload\""),
        unit: "",
        meaning: "what windows count: payload bytes in flight, or wire bytes (payload plus header; the MSS is then a whole packet), as htsim's UEC sources do",
    },
    DCTCP_RULES: Key {
        name: "host.dctcp_rules",
        kind: Kind::Choice(names::<DctcpRules>),
        default: Some("\"rfc8257\""),
        unit: "",
        meaning: "rfc8257: alpha from 1, one cut per window of marks, a loss halves once per window; netbench: alpha from 0, a cut on every marked ACK, a timeout restarts from one MSS (NewReno); htsim: UEC's sources, no alpha, a marked ACK takes a third of its bytes off the window, a NACK its packet, capped at the initial window",
    },
    DCTCP_FIRST_WINDOW: Key {
        name: "host.dctcp_first_window",
        kind: Kind::Choice(names::<FirstWindow>),
        default: Some("\"round-trip\""),
        unit: "",
        meaning: "where DCTCP's first observation window ends: round-trip (the first ACK opens it, the ACK of a packet sent after that closes it) or first-ack (the first ACK closes it, as RFC 8257's WindowEnd = SND.NXT at the start reads, so two cuts can fall in the first RTT; fabsim before this key)",
    },
    SSTHRESH_BYTES: Key {
        name: "host.ssthresh_bytes",
        kind: int(1, MAX_BYTES),
        default: None,
        unit: "bytes",
        meaning: "dctcp initial slow start threshold (default: host.ssthresh_mss segments if given, else slow start until the first mark or loss)",
    },
    SSTHRESH_MSS: Key {
        name: "host.ssthresh_mss",
        kind: int(1, 1 << 20),
        default: None,
        unit: "segments",
        meaning: "dctcp initial slow start threshold in segments of the flow's MSS (host.ssthresh_bytes wins; Netbench: 30)",
    },
    MAX_WINDOW_BYTES: Key {
        name: "host.max_window_bytes",
        kind: int(1, MAX_BYTES),
        default: None,
        unit: "bytes",
        meaning: "dctcp window cap, as a receive window (default: none, the initial window with dctcp_rules = htsim; Netbench: 65535)",
    },
    DCTCP_G: Key {
        name: "host.dctcp_g",
        kind: positive(1.0),
        default: Some("0.0625"),
        unit: "",
        meaning: "DCTCP's EWMA gain",
    },
    RTO_US: Key {
        name: "host.rto_us",
        kind: Kind::Other {
            allowed: "a number of us from the base RTT to 10^6, \"off\", \"auto\" (on with drop-tail or inter-ASIC buffers), or \"htsim\"",
            check: rto,
        },
        default: Some("\"auto\""),
        unit: "us",
        meaning: "retransmission timeout, or its initial value under host.rto = rfc6298 (auto: base RTT plus twice a full-buffer drain per hop; htsim: 15 us plus six drains of switch.buffer_bytes at the link rate, htsim_uec's minimum RTO, its automatic 1-BDP buffer where unbounded)",
    },
    RTO_TIMER: Key {
        name: "host.rto_timer",
        kind: Kind::Choice(names::<RtoTimer>),
        default: Some("\"progress\""),
        unit: "",
        meaning: "progress: the timer fires after an RTO without an ACK that brings news and presumes all in flight lost; oldest (htsim): it fires at the oldest unACKed packet's send time plus the RTO, presumes that packet alone lost, takes its bytes off the window and moves on to the next oldest",
    },
    RTO: Key {
        name: "host.rto",
        kind: Kind::Choice(names::<RtoRule>),
        default: Some("\"rfc6298\""),
        unit: "",
        meaning: "fixed: always host.rto_us; rfc6298: SRTT + 4 RTTVAR from the RTT samples (at least host.rto_min_us), doubled on each timeout up to 64x",
    },
    RTO_MIN_US: Key {
        name: "host.rto_min_us",
        kind: positive(MAX_RTO_US),
        default: None,
        unit: "us",
        meaning: "floor of the rfc6298 timeout (default: with host.rto_us = auto, its automatic value, so that queueing alone never fires the timer; else the base RTT)",
    },
    LOSS_RECOVERY: Key {
        name: "host.loss_recovery",
        kind: Kind::Choice(names::<LossRecovery>),
        default: None,
        unit: "",
        meaning: "when a sender presumes a packet lost besides the timer (which resends as host.rto_timer says): rto (never), dupack (once 3 later packets are ACKed, as TCP; fooled by spraying's reordering), rack (once a packet sent host.reorder_us later is ACKed, RFC 8985); each resends the hole alone while the flow goes on; default: rack where packets can be dropped (drop-tail switch or inter-ASIC buffers), else rto",
    },
    REORDER_US: Key {
        name: "host.reorder_us",
        kind: positive(MAX_RTO_US),
        default: None,
        unit: "us",
        meaning: "rack's reordering window (default: the longest a later packet can overtake an earlier one, the drain time of a full switch buffer plus an inter-ASIC one at every hop of the longest path; none with unbounded buffers, then only the timer repairs)",
    },
    SWIFT_AI: Key {
        name: "host.swift_ai",
        kind: positive(1e6),
        default: Some("1"),
        unit: "MSS per RTT",
        meaning: "swift/mswift additive increase",
    },
    SWIFT_BETA: Key {
        name: "host.swift_beta",
        kind: positive(1e3),
        default: Some("0.8"),
        unit: "",
        meaning: "swift/mswift decrease gain",
    },
    SWIFT_MAX_MDF: Key {
        name: "host.swift_max_mdf",
        kind: Kind::Other {
            allowed: "a number > 0 and < 1",
            check: fraction,
        },
        default: Some("0.5"),
        unit: "",
        meaning: "swift/mswift largest fractional decrease",
    },
    SWIFT_MARGIN_NS: Key {
        name: "host.swift_margin_ns",
        kind: number(0.0, 1e9),
        default: None,
        unit: "ns",
        meaning: "swift/mswift target = flow base RTT + margin (default base RTT / 4)",
    },
    MSWIFT_SAMPLES: Key {
        name: "host.mswift_samples",
        kind: int(1, MAX_MEDIAN_SAMPLES as u64),
        default: Some("8"),
        unit: "",
        meaning: "mswift: median of this many recent RTT samples",
    },
    NSCC_TARGET_NS: Key {
        name: "host.nscc_target_ns",
        kind: positive(1e9),
        default: None,
        unit: "ns",
        meaning: "nscc target queueing delay (default base RTT, 0.75 base RTT with trimming)",
    },
    NSCC_MAX_BDP: Key {
        name: "host.nscc_max_bdp",
        kind: positive(1e3),
        default: Some("1.5"),
        unit: "BDP",
        meaning: "nscc window cap and start, in BDPs of the flow's path",
    },
    NSCC_RULES: Key {
        name: "host.nscc_rules",
        kind: Kind::Choice(names::<NsccRules>),
        default: Some("\"simple\""),
        unit: "",
        meaning: "simple: fabsim's NSCC (decrease on one delay sample); htsim: as uec.cpp runs it (decrease needs the averaged delay above target, quick adapt only when under 1/8 of the cap was delivered, fast increase, eta)",
    },
    NSCC_GAMMA: Key {
        name: "host.nscc_gamma",
        kind: positive(1e3),
        default: Some("0.8"),
        unit: "",
        meaning: "nscc multiplicative-decrease gain",
    },
}

fn fraction(v: &toml::Value) -> bool {
    super::keys::as_f64(v).is_some_and(|x| x > 0.0 && x < 1.0)
}

/// What the host keys' derived defaults depend on.
pub struct HostContext<'a> {
    pub link: &'a LinkModel,
    pub hops: u32,
    pub buffer_bytes: Option<u64>,
    pub overflow: Overflow,
    pub arch: &'a ArchParams,
}

/// The longest round trip an RTT sample can measure exactly: packets carry their send time
/// modulo 2^32 ps (so that a packet in a link's ring stays 20 bytes).
const MAX_RTT: Time = Time::from_ps(1 << 32);

/// Refuses a fabric whose round trips can reach [`MAX_RTT`]: the longest path's base RTT, and
/// with bounded buffers that plus a full buffer at every hop each way. (Queues in unbounded
/// buffers are bounded by the traffic alone; a queue of 4.29 ms would wrap a sample.)
fn check_rtt(k: &Keys, c: &HostContext, base_rtt_ps: Time) -> Result<(), ScenarioError> {
    let limit = MAX_RTT.as_us_f64();
    if base_rtt_ps >= MAX_RTT {
        // Blame what makes most of the round trip: the links' delays, or serializing its
        // packets at the rate.
        let delays = c.link.delay_ps.saturating_mul(2 * c.hops as u64);
        let (key, what) = if base_rtt_ps.saturating_sub(delays) > delays {
            (
                link::RATE_GBPS,
                "a rate (with link.delay_ns and the packet size)",
            )
        } else {
            (
                link::DELAY_NS,
                "a delay (with link.rate_gbps and the packet size)",
            )
        };
        return Err(k.invalid(
            key,
            &format!(
                "{what} whose longest base round trip stays under {limit} us, where RTT samples are exact (they are carried modulo 2^32 ps); here it is {} us, {} us of it the links' delays",
                fmt_num(base_rtt_ps.as_us_f64()),
                fmt_num(delays.min(base_rtt_ps).as_us_f64())
            ),
        ));
    }
    let queueing = c
        .buffer_bytes
        .map_or(Time::ZERO, |b| Time::to_send(b, c.link.rate_bps))
        .saturating_mul(2 * c.hops as u64);
    if base_rtt_ps.saturating_add(queueing) >= MAX_RTT {
        return Err(k.invalid(
            switch::BUFFER_BYTES,
            &format!(
                "a buffer small enough that the longest round trip with full buffers at every hop stays under {limit} us, where RTT samples are exact (they are carried modulo 2^32 ps); here it is {} us",
                base_rtt_ps.saturating_add(queueing).as_us_f64()
            ),
        ));
    }
    Ok(())
}

pub fn parse(k: &Keys, c: &HostContext) -> Result<HostParams, ScenarioError> {
    let link = c.link;
    let base_rtt_ps = link.base_rtt_ps(c.hops);
    let window_header_bytes = match k.choice(WINDOW_BYTES) {
        WindowBytes::Payload => 0,
        WindowBytes::Wire => link.header_bytes,
    };
    let mss_bytes = (link.payload_bytes + window_header_bytes) as u64;
    let cc = cc_params(k, link, c, mss_bytes);
    let lb = k.choice(LB);
    let path_labels = path_labels(k, lb)?;
    let rto = rto_ps(k, c, base_rtt_ps)?.map(|initial| Rto {
        initial,
        rule: k.choice(RTO),
        // The automatic timer's floor is its own start: it never fires before full buffers
        // could explain the wait, so a fabric that drops nothing sees no timeout.
        min: k
            .opt_us(RTO_MIN_US)
            .unwrap_or(match k.get(RTO_US).and_then(|v| v.as_str()) {
                Some("auto") => initial,
                _ => base_rtt_ps,
            }),
        timer: k.choice(RTO_TIMER),
    });
    check_rtt(k, c, base_rtt_ps)?;
    let ack_every_bytes = k.u32(ACK_EVERY_BYTES);
    if ack_every_bytes > 0 && rto.is_none() && k.get(ACK_DELAY_US).is_none() {
        return Err(k.invalid(
            ACK_EVERY_BYTES,
            "0 when the run has no retransmission timer: a receiver holding an ACK waits for more data, and a sender whose window shrank below its packets in flight waits for that ACK; set host.rto_us or host.ack_delay_us",
        ));
    }
    Ok(HostParams {
        lb,
        path_labels,
        planes: k.choice(PLANES),
        transport: TransportParams {
            cc,
            rto,
            loss_recovery: k.opt_choice(LOSS_RECOVERY).unwrap_or(if may_drop(c) {
                LossRecovery::Rack
            } else {
                LossRecovery::Rto
            }),
            reorder_ps: k.opt_us(REORDER_US).or_else(|| {
                let port = c.buffer_bytes.map(|b| Time::to_send(b, c.link.rate_bps))?;
                let per_hop = port + c.arch.drain_ps().unwrap_or(Time::ZERO);
                Some(per_hop.saturating_mul(c.hops as u64))
            }),
            window_header_bytes,
            ack_every_bytes,
            ack_delay_ps: k.opt_us(ACK_DELAY_US),
            handshake: k.bool(HANDSHAKE),
        },
        nic: k.choice(NIC),
    })
}

/// The congestion controllers' parameters (`host.cc` and its keys).
fn cc_params(k: &Keys, link: &LinkModel, c: &HostContext, mss_bytes: u64) -> CcParams {
    let base_rtt_ps = link.base_rtt_ps(c.hops);
    let bdp_bytes = link.bdp_bytes(c.hops);
    // A window given in bytes wins over one in segments (a profile sets the latter).
    let window = |bytes: &Key, segments: &Key| {
        k.opt_int(bytes)
            .or_else(|| k.opt_int(segments).map(|n| n * mss_bytes))
    };
    CcParams {
        kind: k.choice(CC),
        base_rtt_ps,
        bdp_bytes,
        init_window_bytes: window(INIT_WINDOW_BYTES, INIT_WINDOW_MSS)
            .unwrap_or(CcParams::default_init_window_bytes(bdp_bytes)),
        mss_bytes,
        dctcp: DctcpParams {
            rules: k.choice(DCTCP_RULES),
            g: k.float(DCTCP_G),
            ssthresh_bytes: window(SSTHRESH_BYTES, SSTHRESH_MSS),
            max_window_bytes: k.opt_int(MAX_WINDOW_BYTES),
            first_window: k.choice(DCTCP_FIRST_WINDOW),
        },
        swift: SwiftParams {
            ai_bytes: k.float(SWIFT_AI) * link.payload_bytes as f64,
            beta: k.float(SWIFT_BETA),
            max_mdf: k.float(SWIFT_MAX_MDF),
            margin_ps: k
                .opt_ns(SWIFT_MARGIN_NS)
                .unwrap_or(CcParams::default_swift_margin_ps(base_rtt_ps)),
        },
        mswift_samples: k.u32(MSWIFT_SAMPLES),
        nscc: NsccParams {
            target_ps: k
                .opt_ns(NSCC_TARGET_NS)
                .unwrap_or(CcParams::default_nscc_target_ps(
                    base_rtt_ps,
                    c.overflow == Overflow::Trim,
                )),
            max_bdp: k.float(NSCC_MAX_BDP),
            gamma: k.float(NSCC_GAMMA),
            rules: k.choice(NSCC_RULES),
        },
        rate: super::rate::parse(k, link, bdp_bytes, base_rtt_ps),
    }
}

/// `host.path_labels`, a power of two (or 0) under `oblivious`.
fn path_labels(k: &Keys, lb: HostLbKind) -> Result<u32, ScenarioError> {
    let labels = k.u32(PATH_LABELS);
    if lb == HostLbKind::Oblivious && labels > 0 && !labels.is_power_of_two() {
        return Err(k.invalid(
            PATH_LABELS,
            "a power of two with host.lb = \"oblivious\" (or 0)",
        ));
    }
    Ok(labels)
}

/// The drain time of a full drop-tail switch buffer, if the switches drop.
fn port_drain(c: &HostContext) -> Option<Time> {
    match (c.buffer_bytes, c.overflow) {
        (Some(buffer), Overflow::Drop) => Some(Time::to_send(buffer, c.link.rate_bps)),
        _ => None,
    }
}

/// Packets can vanish: drop-tail switch buffers, or the inter-ASIC buffers of multi-ASIC
/// switches.
fn may_drop(c: &HostContext) -> bool {
    port_drain(c).is_some() || c.arch.drain_ps().is_some()
}

/// The retransmission timeout. `auto`: on only where packets can vanish ([`may_drop`]), at
/// [`CcParams::auto_rto`] over those buffers' drain times. `htsim`: `htsim_uec`'s minimum
/// RTO, 15 us plus six drains of the switch buffer (its automatic 1-BDP buffer, in whole
/// packets, where unbounded). An explicit RTO below the base RTT is refused: it fires before
/// any ACK can return, and every flow would resend forever.
fn rto_ps(k: &Keys, c: &HostContext, base_rtt_ps: Time) -> Result<Option<Time>, ScenarioError> {
    let key = RTO_US;
    match k.get(key).and_then(|v| v.as_str()) {
        Some("off") => Ok(None),
        Some("htsim") => {
            let buffer = c.buffer_bytes.unwrap_or_else(|| {
                let (bdp, packet) = c.link.bdp_packets(c.hops);
                bdp * packet
            });
            let drain = Time::to_send(buffer, c.link.rate_bps);
            Ok(Some(
                Time::from_us(15).saturating_add(drain.saturating_mul(6)),
            ))
        }
        Some(_) => Ok(may_drop(c).then(|| {
            let per_hop =
                port_drain(c).unwrap_or(Time::ZERO) + c.arch.drain_ps().unwrap_or(Time::ZERO);
            CcParams::auto_rto(base_rtt_ps, c.hops, per_hop)
        })),
        None => {
            let rto = k.us(key);
            if rto < base_rtt_ps {
                return Err(k.invalid(
                    key,
                    &format!(
                        "at least the base RTT of {} us (a shorter timer fires before any ACK returns)",
                        base_rtt_ps.as_us_f64()
                    ),
                ));
            }
            Ok(Some(rto))
        }
    }
}

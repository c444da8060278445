//! `switch.*` (without the multi-ASIC keys): load balancers, incremental deployment, Ofan's
//! options, buffers, overflow and ECN.

use super::keys::{
    int, keys, named, names, number, Key, Keys, Kind, Named, ScenarioError, MAX_BYTES,
};
use crate::lb::{Deployment, EcmpHash, Strategy, SwitchLbKind};
use crate::net::{EcnAt, Overflow, TrimVictim};
use crate::params::SwitchParams;
use crate::theory::LinkModel;

named_enum! {
    /// The ECN thresholds of ports whose `switch.ecn_kmin_bytes` / `ecn_kmax_bytes` are unset
    /// (`switch.ecn_default`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum EcnDefault {
        /// No marking.
        None => "none",
        /// `htsim_uec`'s default: from 20% to 80% of the bandwidth-delay product of the longest
        /// path in whole packets, each rounded up to whole packets.
        Htsim => "htsim",
    }
}

named!(
    SwitchLbKind,
    Strategy,
    Overflow,
    TrimVictim,
    EcnAt,
    EcnDefault,
    EcmpHash
);

/// Gives the switches `switch.ecn_default`'s ECN thresholds where none were given, over the
/// final link model and the longest path of `hops` links (capped at a bounded buffer, which
/// `htsim_uec` asserts instead).
pub fn default_ecn(k: &Keys, switch: &mut SwitchParams, link: &LinkModel, hops: u32) {
    if switch.ecn.is_some() {
        return;
    }
    switch.ecn = match k.choice::<EcnDefault>(ECN_DEFAULT) {
        EcnDefault::None => None,
        EcnDefault::Htsim => {
            let (bdp_pkts, packet) = link.bdp_packets(hops);
            let cap = switch.buffer_bytes.unwrap_or(u64::MAX);
            let at = |fifths: u64| ((bdp_pkts * fifths).div_ceil(5) * packet).min(cap);
            Some((at(1), at(4)))
        }
    };
}

/// Switch-side schemes a tier or an upgraded switch may run (CONGA is fabric-wide only).
fn tier_lbs() -> Vec<&'static str> {
    names::<SwitchLbKind>()
        .into_iter()
        .filter(|&n| n != SwitchLbKind::Conga.name())
        .collect()
}

fn ofan_first() -> Vec<&'static str> {
    vec!["random", "shortest"]
}

fn buffer(v: &toml::Value) -> bool {
    v.as_str() == Some("unbounded")
        || v.as_integer()
            .is_some_and(|b| b >= 1 && b as u64 <= MAX_BYTES)
}

keys! {
    LB: Key {
        name: "switch.lb",
        kind: Kind::Choice(names::<SwitchLbKind>),
        default: Some("\"ofan\""),
        unit: "",
        meaning: "switch-side load balancer of every switch (conga: 2 tiers only)",
    },
    LB_EDGE: Key {
        name: "switch.lb_edge",
        kind: Kind::Choice(tier_lbs),
        default: None,
        unit: "",
        meaning: "load balancer of the edge/leaf switches (default switch.lb)",
    },
    LB_AGG: Key {
        name: "switch.lb_agg",
        kind: Kind::Choice(tier_lbs),
        default: None,
        unit: "",
        meaning: "load balancer of the aggregation switches (default switch.lb)",
    },
    UPGRADE: Key {
        name: "switch.upgrade",
        kind: Kind::Choice(names::<Strategy>),
        default: None,
        unit: "",
        meaning: "incremental deployment: which half of the edge and aggregation switches run switch.upgrade_lb",
    },
    UPGRADE_LB: Key {
        name: "switch.upgrade_lb",
        kind: Kind::Choice(tier_lbs),
        default: None,
        unit: "",
        meaning: "load balancer of the upgraded switches (default pofan)",
    },
    PIPE_PORTS: Key {
        name: "switch.pipe_ports",
        kind: int(1, 1024),
        default: Some("4"),
        unit: "ports",
        meaning: "ingress ports per pipe (pofan keeps one pointer set per pipe)",
    },
    OFAN_FIRST: Key {
        name: "switch.ofan_first",
        kind: Kind::Choice(ofan_first),
        default: None,
        unit: "",
        meaning: "ofan/pofan: pointers start at random and follow shuffled orders, or start at the shortest queue and rotate unshuffled (paper F.5); default random",
    },
    COMBINING: Key {
        name: "switch.combining",
        kind: Kind::Bool,
        default: Some("false"),
        unit: "",
        meaning: "ofan/pofan pointer steps go through the combining pipeline",
    },
    PIPELINE_WIDTH: Key {
        name: "switch.pipeline_width",
        kind: int(1, 1024),
        default: Some("8"),
        unit: "packets",
        meaning: "packets per cycle of the combining pipeline",
    },
    BUFFER_BYTES: Key {
        name: "switch.buffer_bytes",
        kind: Kind::Other {
            allowed: "an integer from one data packet (payload + header) to 2^40 bytes, or \"unbounded\"",
            check: buffer,
        },
        default: Some("\"unbounded\""),
        unit: "bytes",
        meaning: "buffer of every switch egress port",
    },
    OVERFLOW: Key {
        name: "switch.overflow",
        kind: Kind::Choice(names::<Overflow>),
        default: Some("\"drop\""),
        unit: "",
        meaning: "what a full port does with a data packet: drop it, or trim it to its header (served in strict priority)",
    },
    TRIM_VICTIM: Key {
        name: "switch.trim_victim",
        kind: Kind::Choice(names::<TrimVictim>),
        default: Some("\"arriving\""),
        unit: "",
        meaning: "with trimming, which data packet a full port cuts to its header: the arriving one, or (random, as htsim) at even odds the queue's last waiting data packet instead, the arriving one then taking its place",
    },
    ECN_KMIN_BYTES: Key {
        name: "switch.ecn_kmin_bytes",
        kind: int(0, MAX_BYTES),
        default: None,
        unit: "bytes",
        meaning: "ECN marking starts at this backlog (with ecn_kmax_bytes; probability rises linearly to 1)",
    },
    ECN_KMAX_BYTES: Key {
        name: "switch.ecn_kmax_bytes",
        kind: int(0, MAX_BYTES),
        default: None,
        unit: "bytes",
        meaning: "ECN marks every data packet from this backlog on (>= ecn_kmin_bytes)",
    },
    ECMP_HASH: Key {
        name: "switch.ecmp_hash",
        kind: Kind::Choice(names::<EcmpHash>),
        default: Some("\"fabsim\""),
        unit: "",
        meaning: "how ecmp hashes a flow onto an uplink: fabsim (the flow, its entropy and its direction, salted by run.seed) or hpcc-ns3 (as HPCC's ns-3: MurmurHash3 of the addresses and ports its fct.txt names, seeded by the switch's node id, over the next hops in node-id order), so that a flow takes that simulator's path",
    },
    ECN_PMAX: Key {
        name: "switch.ecn_pmax",
        kind: number(1e-6, 1.0),
        default: Some("1"),
        unit: "",
        meaning: "ECN marking probability just below ecn_kmax_bytes: it rises linearly from 0 at ecn_kmin_bytes to this, and every packet past ecn_kmax_bytes is marked (HPCC's ns-3: 0.2)",
    },
    ECN_DEFAULT: Key {
        name: "switch.ecn_default",
        kind: Kind::Choice(names::<EcnDefault>),
        default: Some("\"none\""),
        unit: "",
        meaning: "ECN thresholds where ecn_kmin_bytes / ecn_kmax_bytes are unset: none (no marking) or htsim (htsim_uec's default: 20% to 80% of the longest path's bandwidth-delay product in packets, each rounded up to whole packets, at most the buffer; 9 and 35 packets on its 100 Gb/s fat trees)",
    },
    PFC: Key {
        name: "switch.pfc",
        kind: Kind::Bool,
        default: Some("false"),
        unit: "",
        meaning: "priority flow control as HPCC's ns-3 models it: each switch admits packets to a buffer of switch.pfc_buffer_bytes (a 4,096 B reserve and a headroom of 3 x rate x delay per ingress port, a shared pool under a dynamic threshold), PAUSEs an ingress port's upstream neighbour when its shared use reaches the threshold and RESUMEs it when drained, and drops only with the headroom exhausted; switches and NICs honour the frames (not with trimming, a bounded switch.buffer_bytes or multi-ASIC switches)",
    },
    PFC_BUFFER_BYTES: Key {
        name: "switch.pfc_buffer_bytes",
        kind: int(1, MAX_BYTES),
        default: Some("33554432"),
        unit: "bytes",
        meaning: "with switch.pfc: each switch's buffer (HPCC's BUFFER_SIZE; 32 MiB): its ports' headrooms and reserves, which it must exceed, and the shared pool",
    },
    ECN_AT: Key {
        name: "switch.ecn_at",
        kind: Kind::Choice(names::<EcnAt>),
        default: Some("\"enqueue\""),
        unit: "",
        meaning: "when an egress port decides a data packet's ECN mark: on arrival by the backlog it finds, or (dequeue, as htsim) when its last bit leaves by the data waiting behind it (with trimming the priority class is not counted); internal links of multi-ASIC switches mark on arrival",
    },
}

/// The switch keys, with the ECN thresholds given ([`default_ecn`] fills in the default
/// once the final link model is known).
pub fn parse(k: &Keys, link: &LinkModel) -> Result<SwitchParams, ScenarioError> {
    let buffer_bytes = k.get(BUFFER_BYTES).and_then(|v| v.as_integer());
    let packet = link.payload_bytes as u64 + link.header_bytes as u64;
    if let Some(b) = buffer_bytes.filter(|&b| (b as u64) < packet) {
        return Err(k.invalid(
            BUFFER_BYTES,
            &format!("a buffer of {b} bytes can never take a {packet}-byte data packet"),
        ));
    }
    let combining = k.bool(COMBINING);
    let dynamic = k.get(OFAN_FIRST).and_then(|v| v.as_str()) == Some("shortest");
    if dynamic && combining {
        return Err(k.err(
            OFAN_FIRST,
            "the dynamic first pointer does not go through the combining pipeline (switch.combining = false)",
        ));
    }
    let lb = k.choice(LB);
    let pfc_buffer = pfc(k, buffer_bytes.is_some())?;
    Ok(SwitchParams {
        lb,
        deployment: deployment(k, lb)?,
        ofan_dynamic_first: dynamic,
        pipe_ports: k.u32(PIPE_PORTS),
        combining: combining.then(|| k.u32(PIPELINE_WIDTH)),
        buffer_bytes: buffer_bytes.map(|b| b as u64),
        overflow: k.choice(OVERFLOW),
        trim_tail: k.choice::<TrimVictim>(TRIM_VICTIM) == TrimVictim::Random,
        ecn: ecn(k)?,
        ecmp_hash: k.choice(ECMP_HASH),
        ecn_pmax_ppm: (k.float(ECN_PMAX) * 1e6).round() as u64,
        ecn_dequeue: k.choice::<EcnAt>(ECN_AT) == EcnAt::Dequeue,
        pfc_buffer,
    })
}

/// `switch.pfc`: every switch's buffer must hold its ports' headrooms and reserves (the
/// shared pool is what is left; HPCC's unsigned arithmetic would wrap where it does not).
pub fn check_pfc_buffer(k: &Keys, p: &crate::params::SimParams) -> Result<(), ScenarioError> {
    let Some(buffer) = p.switch.pfc_buffer else {
        return Ok(());
    };
    let fabric = p.fabric();
    let need = |s: &crate::net::SwitchInfo| {
        let rates: Vec<u64> = (0..s.ports)
            .map(|l| fabric.port_rate_bps(s.port_base + l))
            .collect();
        (crate::net::pfc::reserved(&rates, fabric.delay_ps), s.ports)
    };
    let Some((need, ports)) = fabric.switches.iter().map(need).max() else {
        return Ok(());
    };
    if buffer <= need {
        return Err(k.invalid(
            PFC_BUFFER_BYTES,
            &format!(
                "more than {need} bytes: a switch of {ports} ports sets that much apart for their headrooms (3 x rate x link.delay_ns each) and 4,096-byte reserves, and its shared pool is the rest"
            ),
        ));
    }
    Ok(())
}

/// `switch.pfc`: the switches' buffer, or `None`; refused beside what it does not model:
/// trimming (its priority class and full ports) and a per-port buffer (the MMU admits).
fn pfc(k: &Keys, bounded: bool) -> Result<Option<u64>, ScenarioError> {
    if !k.bool(PFC) {
        return Ok(None);
    }
    let why = if k.choice::<Overflow>(OVERFLOW) == Overflow::Trim {
        Some((OVERFLOW, "allowed with switch.pfc: \"drop\" (PFC frames, not trimmed headers, take the priority class)"))
    } else if bounded {
        Some((BUFFER_BYTES, "allowed with switch.pfc: \"unbounded\" (the MMU admits packets to the switch's buffer, switch.pfc_buffer_bytes)"))
    } else {
        None
    };
    match why {
        Some((key, msg)) => Err(k.err(key, format!("not modelled with switch.pfc = true; {msg}"))),
        None => Ok(Some(k.int(PFC_BUFFER_BYTES))),
    }
}

/// Per-tier and upgraded-switch load balancers.
fn deployment(k: &Keys, base: SwitchLbKind) -> Result<Deployment, ScenarioError> {
    let d = Deployment {
        edge: k.opt_choice(LB_EDGE),
        agg: k.opt_choice(LB_AGG),
        upgrade: k
            .opt_choice(UPGRADE)
            .map(|s| (s, k.opt_choice(UPGRADE_LB).unwrap_or(SwitchLbKind::Pofan))),
    };
    if !d.is_uniform() {
        if base == SwitchLbKind::Conga {
            return Err(k.err(LB, "conga cannot be mixed with other switch load balancers"));
        }
        let mut ofans = std::iter::once(base)
            .chain(d.kinds())
            .filter(|k| matches!(k, SwitchLbKind::Ofan | SwitchLbKind::Pofan));
        if let Some(first) = ofans.next() {
            if ofans.any(|k| k != first) {
                return Err(k.err(LB, "a mixed deployment may use ofan or pofan, not both"));
            }
        }
    }
    Ok(d)
}

fn ecn(k: &Keys) -> Result<Option<(u64, u64)>, ScenarioError> {
    match (k.opt_int(ECN_KMIN_BYTES), k.opt_int(ECN_KMAX_BYTES)) {
        (None, None) => Ok(None),
        (Some(lo), Some(hi)) if lo <= hi => Ok(Some((lo, hi))),
        (Some(lo), Some(_)) => Err(k.invalid(
            ECN_KMAX_BYTES,
            &format!("at least switch.ecn_kmin_bytes = {lo}"),
        )),
        (lo, _) => {
            let missing = if lo.is_none() {
                ECN_KMIN_BYTES
            } else {
                ECN_KMAX_BYTES
            };
            Err(k.err(
                missing,
                "ECN marking needs both ecn_kmin_bytes and ecn_kmax_bytes",
            ))
        }
    }
}

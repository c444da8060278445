//! `host.*`: host-side load balancing, congestion control and the retransmission timer.

use super::keys::{int, names, number, positive, Key, Keys, Kind, ScenarioError, MAX_BYTES};
use crate::engine::Time;
use crate::lb::HostLbKind;
use crate::net::asic::ArchParams;
use crate::net::Overflow;
use crate::theory::LinkModel;
use crate::transport::{
    CcKind, CcParams, LossRecovery, NsccParams, SwiftParams, MAX_MEDIAN_SAMPLES,
};

/// The largest RTO accepted (1 s).
const MAX_RTO_US: f64 = 1e6;

fn rto(v: &toml::Value) -> bool {
    matches!(v.as_str(), Some("auto" | "off"))
        || super::keys::as_f64(v).is_some_and(|us| us > 0.0 && us <= MAX_RTO_US)
}

pub const KEYS: &[Key] = &[
    Key {
        name: "host.lb",
        kind: Kind::Choice(names::<HostLbKind>),
        default: Some("\"none\""),
        unit: "",
        meaning: "host-side load balancer: entropy per packet or a source-routed up path (usually with switch.lb = ecmp)",
    },
    Key {
        name: "host.cc",
        kind: Kind::Choice(names::<CcKind>),
        default: Some("\"none\""),
        unit: "",
        meaning: "congestion control of every flow (none: line rate)",
    },
    Key {
        name: "host.init_window_bytes",
        kind: int(1, MAX_BYTES),
        default: None,
        unit: "bytes",
        meaning: "initial window of dctcp, swift, mswift (default: 1.5 bandwidth-delay products of the longest path)",
    },
    Key {
        name: "host.dctcp_g",
        kind: positive(1.0),
        default: Some("0.0625"),
        unit: "",
        meaning: "DCTCP's EWMA gain",
    },
    Key {
        name: "host.rto_us",
        kind: Kind::Other {
            allowed: "a number of us from the base RTT to 10^6, \"off\", or \"auto\" (on with drop-tail or inter-ASIC buffers)",
            check: rto,
        },
        default: Some("\"auto\""),
        unit: "us",
        meaning: "retransmission timeout (auto: base RTT plus twice a full-buffer drain per hop)",
    },
    Key {
        name: "host.loss_recovery",
        kind: Kind::Choice(names::<LossRecovery>),
        default: None,
        unit: "",
        meaning: "when a sender presumes a packet lost: rto (after a timeout without progress, resend all in flight) or dupack (also once 3 later packets are ACKed: resend the hole alone); default rto",
    },
    Key {
        name: "host.swift_ai",
        kind: positive(1e6),
        default: Some("1"),
        unit: "MSS per RTT",
        meaning: "swift/mswift additive increase",
    },
    Key {
        name: "host.swift_beta",
        kind: positive(1e3),
        default: Some("0.8"),
        unit: "",
        meaning: "swift/mswift decrease gain",
    },
    Key {
        name: "host.swift_max_mdf",
        kind: Kind::Other {
            allowed: "a number > 0 and < 1",
            check: fraction,
        },
        default: Some("0.5"),
        unit: "",
        meaning: "swift/mswift largest fractional decrease",
    },
    Key {
        name: "host.swift_margin_ns",
        kind: number(0.0, 1e9),
        default: None,
        unit: "ns",
        meaning: "swift/mswift target = flow base RTT + margin (default base RTT / 4)",
    },
    Key {
        name: "host.mswift_samples",
        kind: int(1, MAX_MEDIAN_SAMPLES as u64),
        default: Some("8"),
        unit: "",
        meaning: "mswift: median of this many recent RTT samples",
    },
    Key {
        name: "host.nscc_target_ns",
        kind: positive(1e9),
        default: None,
        unit: "ns",
        meaning: "nscc target queueing delay (default base RTT, 0.75 base RTT with trimming)",
    },
    Key {
        name: "host.nscc_max_bdp",
        kind: positive(1e3),
        default: Some("1.5"),
        unit: "BDP",
        meaning: "nscc window cap and start, in BDPs of the flow's path",
    },
    Key {
        name: "host.nscc_gamma",
        kind: positive(1e3),
        default: Some("0.8"),
        unit: "",
        meaning: "nscc multiplicative-decrease gain",
    },
];

fn fraction(v: &toml::Value) -> bool {
    super::keys::as_f64(v).is_some_and(|x| x > 0.0 && x < 1.0)
}

/// What the host keys set.
pub struct HostParams {
    pub lb: HostLbKind,
    pub cc: CcParams,
    pub rto_ps: Option<Time>,
    pub loss_recovery: LossRecovery,
}

/// What the host keys' derived defaults depend on.
pub struct HostContext<'a> {
    pub link: &'a LinkModel,
    pub hops: u32,
    pub buffer_bytes: Option<u64>,
    pub overflow: Overflow,
    pub arch: &'a ArchParams,
}

pub fn parse(k: &Keys, c: &HostContext) -> Result<HostParams, ScenarioError> {
    let link = c.link;
    let base_rtt_ps = link.base_rtt_ps(c.hops);
    let bdp_bytes = link.bdp_bytes(c.hops);
    let cc =
        CcParams {
            kind: k.choice("host.cc"),
            base_rtt_ps,
            bdp_bytes,
            init_window_bytes: k
                .opt_int("host.init_window_bytes")
                .unwrap_or(CcParams::default_init_window_bytes(bdp_bytes)),
            mss_bytes: link.payload_bytes as u64,
            dctcp_g: k.float("host.dctcp_g"),
            swift: SwiftParams {
                ai_bytes: k.float("host.swift_ai") * link.payload_bytes as f64,
                beta: k.float("host.swift_beta"),
                max_mdf: k.float("host.swift_max_mdf"),
                margin_ps: k
                    .opt_ns("host.swift_margin_ns")
                    .unwrap_or(CcParams::default_swift_margin_ps(base_rtt_ps)),
            },
            mswift_samples: k.u32("host.mswift_samples"),
            nscc: NsccParams {
                target_ps: k.opt_ns("host.nscc_target_ns").unwrap_or(
                    CcParams::default_nscc_target_ps(base_rtt_ps, c.overflow == Overflow::Trim),
                ),
                max_bdp: k.float("host.nscc_max_bdp"),
                gamma: k.float("host.nscc_gamma"),
            },
        };
    Ok(HostParams {
        lb: k.choice("host.lb"),
        cc,
        rto_ps: rto_ps(k, c, base_rtt_ps)?,
        loss_recovery: k
            .opt_choice("host.loss_recovery")
            .unwrap_or(LossRecovery::Rto),
    })
}

/// The retransmission timeout. `auto`: on only where packets can vanish (drop-tail buffers,
/// including the inter-ASIC buffers of multi-ASIC switches), at [`CcParams::auto_rto`] over
/// those buffers' drain times. An explicit RTO below the base RTT is refused: it fires before any ACK can
/// return, and every flow would resend forever.
fn rto_ps(k: &Keys, c: &HostContext, base_rtt_ps: Time) -> Result<Option<Time>, ScenarioError> {
    let key = "host.rto_us";
    match k.get(key).and_then(|v| v.as_str()) {
        Some("off") => Ok(None),
        Some(_) => {
            let port = match (c.buffer_bytes, c.overflow) {
                (Some(buffer), Overflow::Drop) => Some(Time::to_send(buffer, c.link.rate_bps)),
                _ => None,
            };
            let asic = c.arch.drain_ps();
            Ok((port.is_some() || asic.is_some()).then(|| {
                let per_hop = port.unwrap_or(Time::ZERO) + asic.unwrap_or(Time::ZERO);
                CcParams::auto_rto(base_rtt_ps, c.hops, per_hop)
            }))
        }
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

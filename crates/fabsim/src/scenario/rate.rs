//! `host.*` keys of the rate-based congestion controls (`host.cc = "dcqcn"`, `"dctcp-rate"`,
//! `"timely"`, `"hpcc"`): their rates, steps, timers and window. Defaults are those of HPCC's ns-3
//! example configuration (`mix/config.txt`), the reference these controllers are held to.

use super::keys::{int, keys, named, names, positive, Key, Keys, Kind, Named};
use crate::engine::Time;
use crate::theory::LinkModel;
use crate::transport::{DcqcnParams, HpccParams, RateParams, RateWindow, TimelyParams};

named!(RateWindow);

/// Mb/s to b/s.
const MBPS: f64 = 1e6;

keys! {
    MIN_RATE_MBPS: Key {
        name: "host.min_rate_mbps",
        kind: positive(1e8),
        default: Some("100"),
        unit: "Mb/s",
        meaning: "dcqcn, dctcp-rate, timely: the lowest rate a flow is cut to",
    },
    RATE_AI_MBPS: Key {
        name: "host.rate_ai_mbps",
        kind: positive(1e8),
        default: Some("50"),
        unit: "Mb/s",
        meaning: "dcqcn: the target rate's additive increase (RATE_AI); timely: its additive increase",
    },
    RATE_HAI_MBPS: Key {
        name: "host.rate_hai_mbps",
        kind: positive(1e8),
        default: Some("100"),
        unit: "Mb/s",
        meaning: "dcqcn: the target rate's hyper increase (RATE_HAI); timely: the increase after five in a row",
    },
    DCTCP_RATE_AI_MBPS: Key {
        name: "host.dctcp_rate_ai_mbps",
        kind: positive(1e8),
        default: Some("1000"),
        unit: "Mb/s",
        meaning: "dctcp-rate: the rate's increase per round of data without marks (DCTCP_RATE_AI)",
    },
    RATE_WINDOW: Key {
        name: "host.rate_window",
        kind: Kind::Choice(names::<RateWindow>),
        default: Some("\"off\""),
        unit: "",
        meaning: "the window on top of a rate-based controller: off (the rate alone), fixed (host.rate_window_bytes in flight), scaled (host.rate_window_bytes times rate over line rate, HPCC's ns-3 VAR_WIN; a flow sends while fewer bytes are in flight)",
    },
    RATE_WINDOW_BYTES: Key {
        name: "host.rate_window_bytes",
        kind: int(1, 1 << 40),
        default: None,
        unit: "bytes",
        meaning: "the window's base (default: the longest path's bandwidth-delay product)",
    },
    DCQCN_G: Key {
        name: "host.dcqcn_g",
        kind: positive(1.0),
        default: Some("0.00390625"),
        unit: "",
        meaning: "dcqcn: alpha's EWMA gain g (EWMA_GAIN)",
    },
    DCQCN_ALPHA_US: Key {
        name: "host.dcqcn_alpha_us",
        kind: positive(1e6),
        default: Some("1"),
        unit: "us",
        meaning: "dcqcn: alpha's update period (ALPHA_RESUME_INTERVAL)",
    },
    DCQCN_DECREASE_US: Key {
        name: "host.dcqcn_decrease_us",
        kind: positive(1e6),
        default: Some("4"),
        unit: "us",
        meaning: "dcqcn: at most one rate cut per this period (RATE_DECREASE_INTERVAL)",
    },
    DCQCN_RP_TIMER_US: Key {
        name: "host.dcqcn_rp_timer_us",
        kind: positive(1e6),
        default: Some("900"),
        unit: "us",
        meaning: "dcqcn: the rate-increase timer's period after a cut (RP_TIMER)",
    },
    DCQCN_FAST_RECOVERY: Key {
        name: "host.dcqcn_fast_recovery",
        kind: int(0, 1 << 20),
        default: Some("1"),
        unit: "stages",
        meaning: "dcqcn: increase stages that only recover toward the target before it rises (FAST_RECOVERY_TIMES)",
    },
    HPCC_ETA: Key {
        name: "host.hpcc_eta",
        kind: positive(1.0),
        default: Some("0.95"),
        unit: "",
        meaning: "hpcc: target utilization eta (U_TARGET)",
    },
    HPCC_MI_THRESH: Key {
        name: "host.hpcc_mi_thresh",
        kind: int(0, 1 << 20),
        default: Some("0"),
        unit: "stages",
        meaning: "hpcc: additive-increase stages before a multiplicative step (MI_THRESH; 0: every update is multiplicative)",
    },
    HPCC_FAST_REACT: Key {
        name: "host.hpcc_fast_react",
        kind: Kind::Bool,
        default: Some("true"),
        unit: "",
        meaning: "hpcc: react to every ACK, the reference rate moving once per round (FAST_REACT); false: once per round only",
    },
    DCQCN_CLAMP: Key {
        name: "host.dcqcn_clamp",
        kind: Kind::Bool,
        default: Some("false"),
        unit: "",
        meaning: "dcqcn: every cut first sets the target to the current rate (CLAMP_TARGET_RATE; false: only cuts after an increase do)",
    },
}

/// The rate-based controllers' parameters; `bdp_bytes` is the window's default base (and
/// HPCC's W), `base_rtt` HPCC's T.
pub fn parse(k: &Keys, link: &LinkModel, bdp_bytes: u64, base_rtt: Time) -> RateParams {
    let bps = |key: &Key| (k.float(key) * MBPS).round() as u64;
    RateParams {
        line_bps: link.rate_bps,
        min_bps: bps(MIN_RATE_MBPS).min(link.rate_bps),
        ai_bps: bps(RATE_AI_MBPS),
        hai_bps: bps(RATE_HAI_MBPS),
        dctcp_ai_bps: bps(DCTCP_RATE_AI_MBPS),
        dctcp_g: k.float(super::host::DCTCP_G),
        window: k.choice(RATE_WINDOW),
        window_bytes: k.opt_int(RATE_WINDOW_BYTES).unwrap_or(bdp_bytes),
        mss_bytes: link.payload_bytes as u64,
        dcqcn: DcqcnParams {
            g: k.float(DCQCN_G),
            alpha_interval: k.us(DCQCN_ALPHA_US),
            decrease_interval: k.us(DCQCN_DECREASE_US),
            rp_timer: k.us(DCQCN_RP_TIMER_US),
            fast_recovery: k.u32(DCQCN_FAST_RECOVERY),
            clamp_target: k.bool(DCQCN_CLAMP),
        },
        timely: TimelyParams::PAPER,
        hpcc: HpccParams {
            eta: k.float(HPCC_ETA),
            mi_thresh: k.u32(HPCC_MI_THRESH),
            fast_react: k.bool(HPCC_FAST_REACT),
            base_rtt,
        },
    }
}

//! Scenarios: the TOML schema, validation with clear errors, and sweep expansion.
//!
//! A scenario file has sections `[topology]`, `[link]`, `[packet]`, `[switch]`, `[workload]`
//! and `[run]`. Any value may be a list: the scenario then sweeps the cartesian product of all
//! lists (keys later in [`SCHEMA`] vary fastest). `run.seeds = N` repeats every point with
//! seeds `run.seed, run.seed + 1, ...`. `--set KEY=VALUE` overrides apply on top of the file.
//!
//! Errors name the source (file, `--set` or the built-in default), the key, the offending
//! value and what is allowed.

use std::collections::BTreeMap;
use std::fmt;

use toml::Value;

use crate::engine::{Time, PS_PER_NS, PS_PER_US};
use crate::lb::{Deployment, HostLbKind, Strategy, SwitchLbKind};
use crate::net::asic::{Arch, ArchParams, CircuitMode, CircuitParams};
use crate::net::Overflow;
use crate::net::{Fabric, FailureSpec, Failures, TopologySpec};
use crate::params::SimParams;
use crate::theory::LinkModel;
use crate::transport::{CcKind, CcParams, NsccParams, SwiftParams, MAX_MEDIAN_SAMPLES};
use crate::workload::{
    Algorithm, CollectiveKind, FastrouteWorkload, Group, HtsimMatrix, ModelShape, Pattern,
    WorkloadSpec,
};
use portmap::{Constraints, Solver};

/// A scenario problem, naming where it came from and which key.
#[derive(Clone, Debug, PartialEq)]
pub struct ScenarioError {
    pub source: String,
    pub key: String,
    pub message: String,
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.key.is_empty() {
            write!(f, "{}: {}", self.source, self.message)
        } else {
            write!(f, "{}: `{}`: {}", self.source, self.key, self.message)
        }
    }
}

impl std::error::Error for ScenarioError {}

/// Every scenario key with its default (`None`: optional, absent by default) and what it allows.
pub const SCHEMA: &[(&str, Option<&str>, &str)] = &[
    ("topology.tiers", Some("3"), "2 or 3"),
    (
        "topology.k",
        Some("12"),
        "an even integer >= 2 (the switch radix)",
    ),
    (
        "topology.leaves",
        None,
        "an integer >= 2 (2 tiers; default k)",
    ),
    (
        "topology.hosts_per_leaf",
        None,
        "an integer >= 1 (2 tiers; default k/2)",
    ),
    (
        "topology.uplinks",
        None,
        "an integer >= 1 (2 tiers; default k/2)",
    ),
    ("link.rate_gbps", Some("800"), "a number > 0"),
    ("link.delay_ns", Some("500"), "a number >= 0"),
    ("packet.payload_bytes", Some("4096"), "an integer >= 1"),
    ("packet.header_bytes", Some("64"), "an integer >= 1"),
    ("packet.ack_bytes", Some("64"), "an integer >= 1"),
    (
        "switch.lb",
        Some("\"ofan\""),
        "one of ecmp, rsq, rr, jsq, ar, ofan, pofan, conga (2 tiers)",
    ),
    (
        "switch.lb_edge",
        None,
        "one of ecmp, rsq, rr, jsq, ar, ofan, pofan (edge/leaf switches; default switch.lb)",
    ),
    (
        "switch.lb_agg",
        None,
        "one of ecmp, rsq, rr, jsq, ar, ofan, pofan (aggregation switches; default switch.lb)",
    ),
    (
        "switch.upgrade",
        None,
        "edge, agg, pods or random (half the edge and aggregation switches run switch.upgrade_lb)",
    ),
    (
        "switch.upgrade_lb",
        None,
        "one of ecmp, rsq, rr, jsq, ar, ofan, pofan (upgraded switches; default pofan)",
    ),
    ("switch.pipe_ports", Some("4"), "an integer >= 1"),
    (
        "switch.ofan_first",
        None,
        "random or shortest (ofan/pofan: pointers start at random and follow shuffled orders, or start at the shortest queue and rotate unshuffled, paper F.5; default random)",
    ),
    (
        "switch.combining",
        Some("false"),
        "true or false (ofan/pofan pointer steps through the combining pipeline)",
    ),
    (
        "switch.pipeline_width",
        Some("8"),
        "an integer from 1 to 1024 (packets per pipeline cycle)",
    ),
    (
        "switch.buffer_bytes",
        Some("\"unbounded\""),
        "an integer >= 1 or \"unbounded\"",
    ),
    ("switch.overflow", Some("\"drop\""), "drop or trim"),
    (
        "switch.ecn_kmin_bytes",
        None,
        "an integer >= 0 (with ecn_kmax_bytes: ECN marking)",
    ),
    (
        "switch.ecn_kmax_bytes",
        None,
        "an integer >= ecn_kmin_bytes",
    ),
    (
        "switch.arch",
        Some("\"ideal\""),
        "one of ideal, sota, oversubscribed, fastroute (multi-ASIC switches)",
    ),
    (
        "switch.asics",
        Some("2"),
        "an integer from 2 to 255 dividing every switch's port count",
    ),
    (
        "switch.inter_asic_oversub",
        Some("2"),
        "a number >= 1 (inter-ASIC capacity = port capacity / this; sota: 1)",
    ),
    (
        "switch.asic_capacity_gbps",
        None,
        "a number > 0 (default: what gives oversubscribed ports link.rate_gbps)",
    ),
    (
        "switch.host_count",
        Some("\"fixed\""),
        "fixed (same radix, slower State-of-the-Art ports) or variable (Fastroute A.2: same port speed, fewer State-of-the-Art ports and hosts)",
    ),
    (
        "switch.reconfig_interval_us",
        Some("100"),
        "a number > 0 (fastroute controller period)",
    ),
    (
        "switch.compute_delay_us",
        Some("10"),
        "a number >= 0 and below reconfig_interval_us",
    ),
    (
        "switch.downtime_us",
        Some("1"),
        "a number >= 0 (a moved port is dark this long)",
    ),
    ("switch.solver", Some("\"greedy\""), "greedy or exact"),
    (
        "switch.bundle",
        Some("1"),
        "an integer >= 1 (fastroute: ports moved together; bundle x asics x circuit_switches must divide every switch's port count)",
    ),
    (
        "switch.circuit_switches",
        Some("1"),
        "an integer >= 1 (fastroute: independent circuit switches over contiguous ports)",
    ),
    (
        "switch.circuit_mode",
        Some("\"optical\""),
        "optical (PAUSE the upstream sender) or electrical (buffer at the switch)",
    ),
    (
        "switch.inter_asic_buffer_bytes",
        Some("300000"),
        "an integer >= 1 (multi-ASIC: inter-ASIC buffer per 100 Gb/s of internal link rate; Table 1: 0.3 MB)",
    ),
    (
        "switch.util_sample_us",
        Some("10"),
        "a number > 0 (inter-ASIC utilization series period)",
    ),
    (
        "host.lb",
        Some("\"none\""),
        "one of none, host-ecmp, rps, oblivious, reps, drb, ethereal",
    ),
    (
        "host.cc",
        Some("\"none\""),
        "one of none, dctcp, swift, mswift, nscc",
    ),
    (
        "host.init_window_bytes",
        None,
        "an integer >= 1 (default: 1.5 bandwidth-delay products of the longest path)",
    ),
    (
        "host.dctcp_g",
        Some("0.0625"),
        "a number > 0 (DCTCP's EWMA gain)",
    ),
    (
        "host.rto_us",
        Some("\"auto\""),
        "a number > 0, \"off\", or \"auto\" (on with drop-tail or inter-ASIC buffers)",
    ),
    (
        "host.swift_ai",
        Some("1"),
        "a number > 0 (swift/mswift additive increase, MSS per RTT)",
    ),
    (
        "host.swift_beta",
        Some("0.8"),
        "a number > 0 (swift/mswift decrease gain)",
    ),
    (
        "host.swift_max_mdf",
        Some("0.5"),
        "a number > 0 and < 1 (swift/mswift largest fractional decrease)",
    ),
    (
        "host.swift_margin_ns",
        None,
        "a number >= 0 (swift/mswift target = flow base RTT + margin; default base RTT / 4)",
    ),
    (
        "host.mswift_samples",
        Some("8"),
        "an integer from 1 to 64 (mswift: median of this many recent RTT samples)",
    ),
    (
        "host.nscc_target_ns",
        None,
        "a number > 0 (nscc target queueing delay; default base RTT, 0.75 base RTT with trimming)",
    ),
    (
        "host.nscc_max_bdp",
        Some("1.5"),
        "a number > 0 (nscc window cap and start, in BDPs of the flow's path)",
    ),
    (
        "host.nscc_gamma",
        Some("0.8"),
        "a number > 0 (nscc multiplicative-decrease gain)",
    ),
    (
        "workload.kind",
        Some("\"permutation\""),
        "permutation, all-to-all, incast, all-gather, reduce-scatter, all-reduce, fsdp, moe, htsim, stride, shuffle, ring, web, hadoop or fast (all-to-all with workload.algorithm or workload.group: the collective)",
    ),
    ("workload.message_bytes", Some("1048576"), "an integer >= 1"),
    (
        "workload.flow_bytes",
        None,
        "an integer >= 1 (all-to-all: fixed per-flow size)",
    ),
    (
        "workload.senders",
        Some("2"),
        "an integer >= 1 (incast: hosts 1..=senders send to host 0)",
    ),
    (
        "workload.stride",
        None,
        "an integer >= 1 (stride/shuffle offset; default: hosts per rack)",
    ),
    (
        "workload.shuffle_k",
        Some("4"),
        "an integer >= 1 (shuffle: peers per host)",
    ),
    (
        "workload.load",
        Some("0.5"),
        "a number > 0 (web/hadoop: offered load, fraction of host capacity)",
    ),
    (
        "workload.intra_rack",
        None,
        "a number from 0 to 1 (web/hadoop; default 0.18 web, 0.14 hadoop)",
    ),
    (
        "workload.phase_us",
        Some("100"),
        "a number > 0 (fast: phase period)",
    ),
    (
        "workload.algorithm",
        None,
        "ring or direct (collectives and fsdp; default ring)",
    ),
    (
        "workload.group",
        None,
        "\"all\", \"A-B\" or \"A-B:S\" (hosts A to B, every S-th; collectives, fsdp, moe; default all)",
    ),
    ("workload.model", None, "llama3-405b (fsdp; the default)"),
    (
        "workload.layers",
        None,
        "an integer from 0 to the model's layers (fsdp: blocks simulated; default all)",
    ),
    (
        "workload.size_scale",
        None,
        "a number > 0 (fsdp: multiplies every message; default 1)",
    ),
    (
        "workload.skew",
        None,
        "a number >= 0 (moe: Zipf exponent of expert popularity, default 1; web/hadoop: from 0 to 1, the fraction of flows to a hot tenth of hosts, default 0)",
    ),
    (
        "workload.balance",
        None,
        "true or false (moe: expert-parallel load balancing; default false)",
    ),
    (
        "workload.experts_per_host",
        None,
        "an integer >= 1 (moe; default 4)",
    ),
    (
        "workload.file",
        None,
        "a path to an htsim connection matrix (htsim; relative to the working directory or the scenario file)",
    ),
    (
        "failures.links",
        None,
        "an integer >= 0 (random links, seeded) or link names like \"edge0-agg1\", \"agg3-core2\", \"leaf0-spine1\" (a list of names is one failure set; a list of lists sweeps)",
    ),
    (
        "failures.pace",
        None,
        "true or false (with failures.links: hosts send data at rho_max; default true)",
    ),
    ("run.seed", Some("1"), "an integer >= 0"),
    ("run.seeds", Some("1"), "an integer >= 1"),
    (
        "run.duration_us",
        None,
        "a number > 0 (stop the run at this time; required by web and hadoop)",
    ),
];

/// The built-in default: the Ofan paper's Fig. 1 setup (432-host 3-tier fat tree, k = 12,
/// 800 Gb/s, 4096 B payload, 1 MiB messages, random permutation, no congestion control,
/// unbounded buffers) for every switch-side scheme.
pub const DEFAULT_SCENARIO: &str = r#"
[topology]
tiers = 3
k = 12

[link]
rate_gbps = 800
delay_ns = 500

[packet]
payload_bytes = 4096

[switch]
lb = ["ecmp", "rsq", "rr", "jsq", "ar", "pofan", "ofan"]
buffer_bytes = "unbounded"

[workload]
kind = "permutation"
message_bytes = 1048576
"#;

/// One run of a sweep: its parameters and the swept values that identify its point.
#[derive(Clone, Debug)]
pub struct RunSpec {
    /// Index of the sweep point (runs of one point differ only in seed).
    pub point: usize,
    /// The swept keys and their values at this point, for labels.
    pub label: Vec<(String, String)>,
    pub params: SimParams,
    /// Every key present at this point with its one value (`run.seed` = this run's seed,
    /// `run.seeds` = 1), in [`SCHEMA`] order: the run as a single-point scenario.
    assignment: Vec<(&'static str, Value)>,
}

impl RunSpec {
    /// This run as a single-point scenario (TOML): parsing and expanding it yields exactly
    /// this run. Fails only if the seed does not fit a TOML integer (i64).
    pub fn to_toml(&self) -> Result<String, ScenarioError> {
        let mut doc = toml::Table::new();
        for (key, value) in &self.assignment {
            let (section, name) = key.split_once('.').expect("schema keys are dotted");
            let value = if *key == "run.seed" {
                let seed = i64::try_from(self.params.seed).map_err(|_| ScenarioError {
                    source: "sweep".into(),
                    key: key.to_string(),
                    message: format!(
                        "seed {} does not fit a TOML integer (at most {})",
                        self.params.seed,
                        i64::MAX
                    ),
                })?;
                Value::Integer(seed)
            } else {
                value.clone()
            };
            doc.entry(section)
                .or_insert_with(|| Value::Table(toml::Table::new()))
                .as_table_mut()
                .expect("sections are tables")
                .insert(name.to_string(), value);
        }
        Ok(toml::to_string(&doc).expect("a table of TOML values serializes"))
    }
}

/// A parsed scenario: flattened keys, each with one or more values.
#[derive(Clone, Debug)]
pub struct Scenario {
    source: String,
    values: BTreeMap<&'static str, Vec<Value>>,
}

impl Scenario {
    /// Parses TOML `text`; `source` names it in errors (usually the file path).
    pub fn parse(text: &str, source: &str) -> Result<Self, ScenarioError> {
        let err = |key: &str, message: String| ScenarioError {
            source: source.to_string(),
            key: key.to_string(),
            message,
        };
        let doc: toml::Table = text
            .parse()
            .map_err(|e: toml::de::Error| err("", format!("malformed TOML: {}", e.message())))?;
        let mut s = Self {
            source: source.to_string(),
            values: BTreeMap::new(),
        };
        for (section, table) in &doc {
            let Value::Table(table) = table else {
                return Err(err(
                    section,
                    format!(
                        "expected a [{section}] section; allowed sections: {}",
                        sections()
                    ),
                ));
            };
            for (key, value) in table {
                let full = format!("{section}.{key}");
                s.insert(&full, value.clone()).map_err(|m| err(&full, m))?;
            }
        }
        Ok(s)
    }

    /// The built-in default scenario.
    pub fn default_scenario() -> Self {
        Self::parse(DEFAULT_SCENARIO, "built-in default").expect("the default scenario parses")
    }

    /// Applies `KEY=VALUE` (VALUE in TOML syntax; bare words are strings, `a,b` a list).
    pub fn set(&mut self, assignment: &str) -> Result<(), ScenarioError> {
        let err = |key: &str, message: String| ScenarioError {
            source: "--set".into(),
            key: key.into(),
            message,
        };
        let (key, raw) = assignment
            .split_once('=')
            .ok_or_else(|| err(assignment, "expected KEY=VALUE".into()))?;
        let key = key.trim();
        let value = parse_value(raw.trim());
        self.insert(key, value).map_err(|m| err(key, m))
    }

    fn insert(&mut self, key: &str, value: Value) -> Result<(), String> {
        let Some(&(name, _, _)) = SCHEMA.iter().find(|(k, _, _)| *k == key) else {
            return Err(format!("unknown key; allowed keys: {}", keys()));
        };
        let list = match value {
            // A list of link names is one failure set.
            Value::Array(items) if name == "failures.links" && items.iter().all(|v| v.is_str()) => {
                vec![Value::Array(items)]
            }
            Value::Array(items) if items.is_empty() => {
                return Err("an empty list sweeps nothing".into());
            }
            Value::Array(items) => items,
            v => vec![v],
        };
        self.values.insert(name, list);
        Ok(())
    }

    /// Expands the sweep into runs, validating every value.
    pub fn expand(&self) -> Result<Vec<RunSpec>, ScenarioError> {
        let mut runs = Vec::new();
        let dims: Vec<(&str, Vec<Value>)> = SCHEMA
            .iter()
            .filter_map(|&(key, default, _)| {
                let values = match (self.values.get(key), default) {
                    (Some(v), _) => v.clone(),
                    (None, Some(d)) => vec![parse_value(d)],
                    (None, None) => return None,
                };
                Some((key, values))
            })
            .collect();
        let points: usize = dims.iter().map(|(_, v)| v.len()).product();
        for point in 0..points {
            // Mixed radix over the dimensions; the last varies fastest.
            let mut rest = point;
            let mut chosen = vec![None; dims.len()];
            for (i, (_, values)) in dims.iter().enumerate().rev() {
                chosen[i] = Some(&values[rest % values.len()]);
                rest /= values.len();
            }
            let get = |key: &str| -> Option<&Value> {
                dims.iter()
                    .position(|(k, _)| *k == key)
                    .and_then(|i| chosen[i])
            };
            let label = dims
                .iter()
                .zip(&chosen)
                .filter(|((k, v), _)| v.len() > 1 && *k != "run.seed")
                .map(|((k, _), c)| (k.to_string(), display(c.unwrap())))
                .collect();
            let point_params = self.point_params(&get)?;
            let seeds = self.int(&get, "run.seeds", 1)?;
            let seed = self.int(&get, "run.seed", 0)?;
            let assignment: Vec<(&'static str, Value)> = dims
                .iter()
                .zip(&chosen)
                .map(|((k, _), c)| match *k {
                    // The seed is filled in per run by `to_toml`.
                    "run.seeds" => (*k, Value::Integer(1)),
                    // The file as resolved, so a run spec written elsewhere finds it.
                    "workload.file" => match &point_params.workload {
                        WorkloadSpec::Htsim { file, .. } => (*k, Value::String(file.clone())),
                        _ => (*k, c.unwrap().clone()),
                    },
                    _ => (*k, c.unwrap().clone()),
                })
                .collect();
            for i in 0..seeds {
                let mut params = point_params.clone();
                params.seed = seed.wrapping_add(i);
                runs.push(RunSpec {
                    point,
                    label: Vec::clone(&label),
                    params,
                    assignment: assignment.clone(),
                });
            }
        }
        Ok(runs)
    }

    fn error(&self, key: &str, value: &Value, allowed: &str) -> ScenarioError {
        ScenarioError {
            source: self.source.clone(),
            key: key.to_string(),
            message: format!("invalid value {}; allowed: {allowed}", display(value)),
        }
    }

    fn allowed(key: &str) -> &'static str {
        SCHEMA
            .iter()
            .find(|(k, _, _)| *k == key)
            .map_or("", |s| s.2)
    }

    fn int<'v>(
        &self,
        get: &impl Fn(&str) -> Option<&'v Value>,
        key: &str,
        min: u64,
    ) -> Result<u64, ScenarioError> {
        let v = get(key).expect("key with a default");
        match v {
            Value::Integer(i) if *i >= min as i64 => Ok(*i as u64),
            _ => Err(self.error(key, v, Self::allowed(key))),
        }
    }

    fn opt_int<'v>(
        &self,
        get: &impl Fn(&str) -> Option<&'v Value>,
        key: &str,
        min: u64,
    ) -> Result<Option<u64>, ScenarioError> {
        get(key).map(|_| self.int(get, key, min)).transpose()
    }

    fn u32<'v>(
        &self,
        get: &impl Fn(&str) -> Option<&'v Value>,
        key: &str,
        min: u64,
    ) -> Result<u32, ScenarioError> {
        let v = self.int(get, key, min)?;
        u32::try_from(v).map_err(|_| self.error(key, get(key).unwrap(), "a value below 2^32"))
    }

    fn float<'v>(
        &self,
        get: &impl Fn(&str) -> Option<&'v Value>,
        key: &str,
        positive: bool,
    ) -> Result<f64, ScenarioError> {
        let v = get(key).expect("key with a default");
        let x = match v {
            Value::Integer(i) => *i as f64,
            Value::Float(f) => *f,
            _ => f64::NAN,
        };
        if x.is_finite() && (x > 0.0 || (!positive && x == 0.0)) {
            Ok(x)
        } else {
            Err(self.error(key, v, Self::allowed(key)))
        }
    }

    /// An optional duration in ns, as picoseconds.
    fn opt_ns<'v>(
        &self,
        get: &impl Fn(&str) -> Option<&'v Value>,
        key: &str,
        positive: bool,
    ) -> Result<Option<Time>, ScenarioError> {
        get(key)
            .map(|_| {
                self.float(get, key, positive)
                    .map(|ns| (ns * PS_PER_NS as f64).round() as Time)
            })
            .transpose()
    }

    /// A number in (0, 1).
    fn float_below_one<'v>(
        &self,
        get: &impl Fn(&str) -> Option<&'v Value>,
        key: &str,
    ) -> Result<f64, ScenarioError> {
        let x = self.float(get, key, true)?;
        if x < 1.0 {
            Ok(x)
        } else {
            Err(self.error(key, get(key).unwrap(), Self::allowed(key)))
        }
    }

    /// An integer in `min..=max`.
    fn u32_at_most<'v>(
        &self,
        get: &impl Fn(&str) -> Option<&'v Value>,
        key: &str,
        min: u64,
        max: usize,
    ) -> Result<u32, ScenarioError> {
        let v = self.u32(get, key, min)?;
        if v as usize <= max {
            Ok(v)
        } else {
            Err(self.error(key, get(key).unwrap(), Self::allowed(key)))
        }
    }

    fn choice<'v, T>(
        &self,
        get: &impl Fn(&str) -> Option<&'v Value>,
        key: &str,
        parse: impl Fn(&str) -> Option<T>,
    ) -> Result<T, ScenarioError> {
        let v = get(key).expect("key with a default");
        v.as_str()
            .and_then(parse)
            .ok_or_else(|| self.error(key, v, Self::allowed(key)))
    }

    /// `switch.combining` and `switch.pipeline_width`: the width when combining is on.
    fn combining<'v>(
        &self,
        get: &impl Fn(&str) -> Option<&'v Value>,
    ) -> Result<Option<u32>, ScenarioError> {
        let width = self.u32(get, "switch.pipeline_width", 1)?;
        if width > 1024 {
            let key = "switch.pipeline_width";
            return Err(self.error(key, get(key).unwrap(), Self::allowed(key)));
        }
        let key = "switch.combining";
        match get(key).expect("key with a default") {
            Value::Boolean(on) => Ok(on.then_some(width)),
            v => Err(self.error(key, v, Self::allowed(key))),
        }
    }

    fn ecn<'v>(
        &self,
        get: &impl Fn(&str) -> Option<&'v Value>,
    ) -> Result<Option<(u64, u64)>, ScenarioError> {
        let kmin = self.opt_int(get, "switch.ecn_kmin_bytes", 0)?;
        let kmax = self.opt_int(get, "switch.ecn_kmax_bytes", 0)?;
        match (kmin, kmax) {
            (None, None) => Ok(None),
            (Some(lo), Some(hi)) if lo <= hi => Ok(Some((lo, hi))),
            (Some(_), Some(_)) => Err(self.error(
                "switch.ecn_kmax_bytes",
                get("switch.ecn_kmax_bytes").unwrap(),
                Self::allowed("switch.ecn_kmax_bytes"),
            )),
            (lo, _) => {
                let missing = if lo.is_none() {
                    "switch.ecn_kmin_bytes"
                } else {
                    "switch.ecn_kmax_bytes"
                };
                Err(ScenarioError {
                    source: self.source.clone(),
                    key: missing.into(),
                    message: "ECN marking needs both ecn_kmin_bytes and ecn_kmax_bytes".into(),
                })
            }
        }
    }

    /// The retransmission timeout. `auto`: on only where packets can vanish (drop-tail
    /// buffers, including the inter-ASIC buffers of multi-ASIC switches), at the base RTT
    /// plus twice the time to drain a full buffer at every hop of the longest path, so that
    /// queueing alone never fires it.
    fn rto<'v>(
        &self,
        get: &impl Fn(&str) -> Option<&'v Value>,
        link: &LinkModel,
        hops: u32,
        buffer_bytes: Option<u64>,
        overflow: Overflow,
        inter_asic_buffer: Option<u64>,
    ) -> Result<Option<Time>, ScenarioError> {
        match get("host.rto_us") {
            Some(Value::String(s)) if s == "off" => Ok(None),
            Some(Value::String(s)) if s == "auto" => {
                let drain = |bytes: u64, bps: u64| {
                    (bytes as u128 * 8_000_000_000_000 / bps as u128) as Time
                };
                let port = match (buffer_bytes, overflow) {
                    (Some(buffer), Overflow::Drop) => Some(drain(buffer, link.rate_bps)),
                    _ => None,
                };
                // An inter-ASIC buffer drains in the same time at any link rate.
                let asic = inter_asic_buffer.map(|b| drain(b, 100_000_000_000));
                Ok((port.is_some() || asic.is_some()).then(|| {
                    let per_hop = port.unwrap_or(0) + asic.unwrap_or(0);
                    link.base_rtt_ps(hops) + 2 * hops as Time * per_hop
                }))
            }
            _ => {
                let us = self.float(get, "host.rto_us", true)?;
                Ok(Some((us * PS_PER_US as f64).round() as Time))
            }
        }
    }

    /// An optional duration in us, as picoseconds (> 0).
    fn opt_us<'v>(
        &self,
        get: &impl Fn(&str) -> Option<&'v Value>,
        key: &str,
    ) -> Result<Option<Time>, ScenarioError> {
        get(key).map(|_| self.us(get, key, true)).transpose()
    }

    fn us<'v>(
        &self,
        get: &impl Fn(&str) -> Option<&'v Value>,
        key: &str,
        positive: bool,
    ) -> Result<Time, ScenarioError> {
        let us = self.float(get, key, positive)?;
        Ok((us * PS_PER_US as f64).round() as Time)
    }

    /// A number in `[lo, hi]`.
    fn float_in<'v>(
        &self,
        get: &impl Fn(&str) -> Option<&'v Value>,
        key: &str,
        lo: f64,
        hi: f64,
    ) -> Result<f64, ScenarioError> {
        let x = self.float(get, key, false)?;
        if (lo..=hi).contains(&x) {
            Ok(x)
        } else {
            Err(self.error(key, get(key).unwrap(), Self::allowed(key)))
        }
    }

    /// The switch architecture and the port speed it leaves (Fastroute section 5.1, A.2: the
    /// ASIC capacity is shared by the ports and the internal links; fixed port count).
    fn arch<'v>(
        &self,
        get: &impl Fn(&str) -> Option<&'v Value>,
        topology: &TopologySpec,
        rate_bps: u64,
    ) -> Result<(ArchParams, u64), ScenarioError> {
        let kind = self.choice(get, "switch.arch", Arch::from_name)?;
        let asics = self.u32_at_most(get, "switch.asics", 2, portmap::MAX_ASICS)?;
        let oversub = self.float_in(get, "switch.inter_asic_oversub", 1.0, f64::MAX)?;
        let capacity = get("switch.asic_capacity_gbps")
            .map(|_| self.float(get, "switch.asic_capacity_gbps", true))
            .transpose()?;
        let circuit = CircuitParams {
            interval_ps: self.us(get, "switch.reconfig_interval_us", true)?,
            compute_delay_ps: self.us(get, "switch.compute_delay_us", false)?,
            downtime_ps: self.us(get, "switch.downtime_us", false)?,
            solver: self.choice(get, "switch.solver", |s| match s {
                "greedy" => Some(Solver::Greedy),
                "exact" => Some(Solver::Exact),
                _ => None,
            })?,
            mode: self.choice(get, "switch.circuit_mode", CircuitMode::from_name)?,
            constraints: Constraints {
                bundle: self.u32(get, "switch.bundle", 1)? as usize,
                circuit_switches: self.u32(get, "switch.circuit_switches", 1)? as usize,
            },
        };
        if circuit.compute_delay_ps >= circuit.interval_ps {
            let key = "switch.compute_delay_us";
            return Err(self.error(key, get(key).unwrap(), Self::allowed(key)));
        }
        let params = ArchParams {
            arch: kind,
            asics,
            oversub,
            circuit: (kind == Arch::Fastroute).then_some(circuit),
            sample_ps: self.us(get, "switch.util_sample_us", true)?,
            buffer_per_100g: self.int(get, "switch.inter_asic_buffer_bytes", 1)?,
        };
        if kind == Arch::Ideal {
            return Ok((params, rate_bps));
        }
        // Every switch splits evenly over the ASICs; the radix is the leaves' (edges') port
        // count.
        let (radix, other) = match *topology {
            TopologySpec::FatTree { k } => (k, k),
            TopologySpec::LeafSpine {
                leaves,
                hosts_per_leaf,
                uplinks,
            } => (hosts_per_leaf + uplinks, leaves),
        };
        if radix % asics != 0 || other % asics != 0 {
            return Err(ScenarioError {
                source: self.source.clone(),
                key: "switch.asics".into(),
                message: format!(
                    "{asics} ASICs do not divide the switches' port counts ({radix}, {other}); allowed: {}",
                    Self::allowed("switch.asics")
                ),
            });
        }
        if let Some(c) = &params.circuit {
            for ports in [radix, other] {
                if let Err(e) = c.constraints.check(ports as usize, asics as usize) {
                    let key = if c.constraints.bundle > 1 {
                        "switch.bundle"
                    } else {
                        "switch.circuit_switches"
                    };
                    return Err(ScenarioError {
                        source: self.source.clone(),
                        key: key.into(),
                        message: format!(
                            "invalid value {}: {e} (switches with {ports} ports); allowed: {}",
                            display(get(key).unwrap()),
                            Self::allowed(key)
                        ),
                    });
                }
            }
        }
        let per_asic = (radix / asics) as f64;
        let capacity_bps = capacity.map_or(
            per_asic * rate_bps as f64 * (1.0 + Arch::Oversubscribed.internal_share(oversub)),
            |gbps| gbps * 1e9,
        );
        let port = kind.port_rate_bps(capacity_bps, per_asic, oversub).round() as u64;
        Ok((params, port.max(1)))
    }

    /// `switch.host_count`: `fixed` (the paper's default: every design keeps the radix, so
    /// State-of-the-Art's ports slow down) or `variable` (Fastroute A.2: ports keep the link
    /// speed and State-of-the-Art's switches get fewer of them, rounded down to a multiple of
    /// 2 x asics; the fabric shrinks with them).
    fn host_count<'v>(
        &self,
        get: &impl Fn(&str) -> Option<&'v Value>,
        topology: TopologySpec,
        link: LinkModel,
        port_rate_bps: u64,
        asics: u32,
        explicit: &[&str],
    ) -> Result<(TopologySpec, LinkModel), ScenarioError> {
        let variable = self.choice(get, "switch.host_count", |s| match s {
            "fixed" => Some(false),
            "variable" => Some(true),
            _ => None,
        })?;
        if !variable || port_rate_bps >= link.rate_bps {
            let link = LinkModel {
                rate_bps: port_rate_bps,
                ..link
            };
            return Ok((topology, link));
        }
        if let Some(key) = explicit.iter().find(|k| get(k).is_some()) {
            return Err(ScenarioError {
                source: self.source.clone(),
                key: key.to_string(),
                message: "switch.host_count = \"variable\" derives the fabric from topology.k; leave the explicit leaf-spine keys out".into(),
            });
        }
        let k = match topology {
            TopologySpec::FatTree { k } => k,
            TopologySpec::LeafSpine { leaves, .. } => leaves,
        };
        let unit = 2 * asics;
        let scaled = (k as u128 * port_rate_bps as u128 / link.rate_bps as u128) as u32;
        let k = (scaled / unit * unit).max(unit);
        let topology = match topology {
            TopologySpec::FatTree { .. } => TopologySpec::FatTree { k },
            TopologySpec::LeafSpine { .. } => TopologySpec::LeafSpine {
                leaves: k,
                hosts_per_leaf: k / 2,
                uplinks: k / 2,
            },
        };
        Ok((topology, link))
    }

    #[allow(clippy::too_many_arguments)]
    fn fastroute_workload<'v>(
        &self,
        get: &impl Fn(&str) -> Option<&'v Value>,
        kind: &str,
        message_bytes: u64,
        topology: &TopologySpec,
        rate_bps: u64,
        duration_ps: Option<Time>,
    ) -> Result<FastrouteWorkload, ScenarioError> {
        let hosts_per_rack = match *topology {
            TopologySpec::FatTree { k } => k / 2,
            TopologySpec::LeafSpine { hosts_per_leaf, .. } => hosts_per_leaf,
        };
        let pattern = match kind {
            "stride" => Pattern::Stride,
            "shuffle" => Pattern::Shuffle {
                k: self.u32(get, "workload.shuffle_k", 1)?,
            },
            "ring" => Pattern::Ring,
            "web" => Pattern::Web,
            "hadoop" => Pattern::Hadoop,
            _ => Pattern::Fast {
                phase_ps: self.us(get, "workload.phase_us", true)?,
            },
        };
        if matches!(pattern, Pattern::Web | Pattern::Hadoop) && duration_ps.is_none() {
            return Err(ScenarioError {
                source: self.source.clone(),
                key: "run.duration_us".into(),
                message: format!("workload.kind = \"{kind}\" needs a duration (Poisson arrivals until then); allowed: {}", Self::allowed("run.duration_us")),
            });
        }
        let intra_default = if pattern == Pattern::Hadoop {
            0.14
        } else {
            0.18
        };
        Ok(FastrouteWorkload {
            pattern,
            message_bytes,
            stride: self
                .opt_int(get, "workload.stride", 1)?
                .map_or(hosts_per_rack, |s| s as u32),
            hosts_per_rack,
            rate_bps,
            duration_ps,
            load: self.float(get, "workload.load", true)?,
            intra_rack: match get("workload.intra_rack") {
                Some(_) => self.float_in(get, "workload.intra_rack", 0.0, 1.0)?,
                None => intra_default,
            },
            skew: match get("workload.skew") {
                None => 0.0,
                Some(_) => self.float_in(get, "workload.skew", 0.0, 1.0)?,
            },
        })
    }

    fn workload<'v>(
        &self,
        get: &impl Fn(&str) -> Option<&'v Value>,
        topology: &TopologySpec,
        rate_bps: u64,
        stop_ps: Option<Time>,
    ) -> Result<WorkloadSpec, ScenarioError> {
        let hosts = match *topology {
            TopologySpec::FatTree { k } => k as u64 * k as u64 * k as u64 / 4,
            TopologySpec::LeafSpine {
                leaves,
                hosts_per_leaf,
                ..
            } => leaves as u64 * hosts_per_leaf as u64,
        };
        let message_bytes = self.int(get, "workload.message_bytes", 1)?;
        let kinds = [
            "permutation",
            "all-to-all",
            "incast",
            "all-gather",
            "reduce-scatter",
            "all-reduce",
            "fsdp",
            "moe",
            "htsim",
            "stride",
            "shuffle",
            "ring",
            "web",
            "hadoop",
            "fast",
        ];
        let kind = self.choice(get, "workload.kind", |s| {
            kinds.into_iter().find(|&k| k == s)
        })?;
        let algorithm = match get("workload.algorithm") {
            None => Algorithm::Ring,
            Some(_) => self.choice(get, "workload.algorithm", Algorithm::from_name)?,
        };
        let group = || -> Result<Group, ScenarioError> {
            let key = "workload.group";
            let Some(v) = get(key) else {
                return Ok(Group::All);
            };
            let g = match v {
                Value::Integer(n) if *n >= 2 => Some(Group::Hosts {
                    first: 0,
                    count: u32::try_from(*n).unwrap_or(u32::MAX),
                    stride: 1,
                }),
                _ => v.as_str().and_then(Group::parse),
            };
            let fits = g.and_then(|g| g.hosts(hosts.min(u32::MAX as u64) as u32));
            match (g, fits) {
                (Some(g), Some(h)) if h.len() >= 2 => Ok(g),
                _ => Err(self.error(
                    key,
                    v,
                    &format!(
                        "{}, with at least 2 of the fabric's {hosts} hosts",
                        Self::allowed(key)
                    ),
                )),
            }
        };
        let opt_float = |key: &str, default: f64, positive: bool| match get(key) {
            None => Ok(default),
            Some(_) => self.float(get, key, positive),
        };
        let opt_bool = |key: &str, default: bool| match get(key) {
            None => Ok(default),
            Some(Value::Boolean(b)) => Ok(*b),
            Some(v) => Err(self.error(key, v, Self::allowed(key))),
        };
        Ok(match kind {
            "permutation" => WorkloadSpec::Permutation { message_bytes },
            "incast" => WorkloadSpec::Incast {
                message_bytes,
                senders: self.u32(get, "workload.senders", 1)?,
            },
            "all-to-all"
                if get("workload.algorithm").is_none() && get("workload.group").is_none() =>
            {
                WorkloadSpec::AllToAll {
                    message_bytes,
                    flow_bytes: self.opt_int(get, "workload.flow_bytes", 1)?,
                }
            }
            "fsdp" => {
                let model = match get("workload.model") {
                    None => crate::workload::fsdp::LLAMA3_405B,
                    Some(_) => self.choice(get, "workload.model", ModelShape::from_name)?,
                };
                let layers = match self.opt_int(get, "workload.layers", 0)? {
                    None => model.layers,
                    Some(l) if l <= model.layers as u64 => l as u32,
                    Some(_) => {
                        let key = "workload.layers";
                        return Err(self.error(key, get(key).unwrap(), Self::allowed(key)));
                    }
                };
                WorkloadSpec::Fsdp {
                    model,
                    layers,
                    size_scale: opt_float("workload.size_scale", 1.0, true)?,
                    algorithm,
                    group: group()?,
                }
            }
            "moe" => WorkloadSpec::Moe {
                message_bytes,
                skew: opt_float("workload.skew", 1.0, false)?,
                balance: opt_bool("workload.balance", false)?,
                experts_per_host: self
                    .opt_int(get, "workload.experts_per_host", 1)?
                    .map_or(4, |e| e.min(u32::MAX as u64) as u32),
                group: group()?,
            },
            "htsim" => self.htsim(get, hosts)?,
            "stride" | "shuffle" | "ring" | "web" | "hadoop" | "fast" => WorkloadSpec::Fastroute(
                self.fastroute_workload(get, kind, message_bytes, topology, rate_bps, stop_ps)?,
            ),
            collective => WorkloadSpec::Collective {
                kind: CollectiveKind::from_name(collective).expect("a collective name"),
                algorithm,
                message_bytes,
                group: group()?,
            },
        })
    }

    /// Per-tier and upgraded-switch load balancers.
    fn deployment<'v>(
        &self,
        get: &impl Fn(&str) -> Option<&'v Value>,
        base: SwitchLbKind,
    ) -> Result<Deployment, ScenarioError> {
        let kind = |key: &str| -> Result<Option<SwitchLbKind>, ScenarioError> {
            match get(key) {
                None => Ok(None),
                Some(_) => self
                    .choice(get, key, |s| {
                        SwitchLbKind::from_name(s).filter(|&k| k != SwitchLbKind::Conga)
                    })
                    .map(Some),
            }
        };
        let upgrade = match get("switch.upgrade") {
            None => None,
            Some(_) => Some((
                self.choice(get, "switch.upgrade", Strategy::from_name)?,
                kind("switch.upgrade_lb")?.unwrap_or(SwitchLbKind::Pofan),
            )),
        };
        let d = Deployment {
            edge: kind("switch.lb_edge")?,
            agg: kind("switch.lb_agg")?,
            upgrade,
        };
        let err = |message: &str| ScenarioError {
            source: self.source.clone(),
            key: "switch.lb".into(),
            message: message.into(),
        };
        if !d.is_uniform() {
            if base == SwitchLbKind::Conga {
                return Err(err(
                    "conga cannot be mixed with other switch load balancers",
                ));
            }
            let mut ofans = std::iter::once(base)
                .chain(d.kinds())
                .filter(|k| matches!(k, SwitchLbKind::Ofan | SwitchLbKind::Pofan));
            if let Some(first) = ofans.next() {
                if ofans.any(|k| k != first) {
                    return Err(err("a mixed deployment may use ofan or pofan, not both"));
                }
            }
        }
        Ok(d)
    }

    /// `failures.links`: a count, or names checked against the fabric.
    fn failures<'v>(
        &self,
        get: &impl Fn(&str) -> Option<&'v Value>,
        topology: &TopologySpec,
    ) -> Result<Option<FailureSpec>, ScenarioError> {
        let key = "failures.links";
        let Some(v) = get(key) else {
            return Ok(None);
        };
        let spec = match v {
            Value::Integer(n) if *n >= 0 => {
                FailureSpec::Count(u32::try_from(*n).unwrap_or(u32::MAX))
            }
            Value::String(s) => FailureSpec::Links(vec![s.clone()]),
            Value::Array(items) => FailureSpec::Links(
                items
                    .iter()
                    .filter_map(|i| i.as_str().map(String::from))
                    .collect(),
            ),
            _ => return Err(self.error(key, v, Self::allowed(key))),
        };
        let fabric = Fabric::new(topology, 1, 1);
        match spec {
            FailureSpec::Count(n) => {
                let links = crate::net::failures::links(&fabric).len();
                if n as usize > links {
                    return Err(self.error(
                        key,
                        v,
                        &format!("at most the fabric's {links} switch-to-switch links"),
                    ));
                }
            }
            FailureSpec::Links(_) => {
                Failures::new(&fabric, &spec, 0).map_err(|m| ScenarioError {
                    source: self.source.clone(),
                    key: key.into(),
                    message: format!("invalid value {}: {m}", display(v)),
                })?;
            }
        }
        Ok(Some(spec))
    }

    /// Reads and parses `workload.file` (relative to the working directory, else to the
    /// scenario file's directory).
    fn htsim<'v>(
        &self,
        get: &impl Fn(&str) -> Option<&'v Value>,
        hosts: u64,
    ) -> Result<WorkloadSpec, ScenarioError> {
        let key = "workload.file";
        let err = |message: String| ScenarioError {
            source: self.source.clone(),
            key: key.into(),
            message,
        };
        let Some(v) = get(key) else {
            return Err(err(
                "workload.kind = \"htsim\" needs workload.file = PATH".into()
            ));
        };
        let Some(file) = v.as_str() else {
            return Err(self.error(key, v, Self::allowed(key)));
        };
        let mut path = std::path::PathBuf::from(file);
        if !path.exists() {
            if let Some(dir) = std::path::Path::new(&self.source).parent() {
                if dir.join(file).exists() {
                    path = dir.join(file);
                }
            }
        }
        let text = std::fs::read_to_string(&path)
            .map_err(|e| err(format!("cannot read htsim file {file:?}: {e}")))?;
        let matrix = HtsimMatrix::parse(&text).map_err(|e| err(format!("{file}: {e}")))?;
        if matrix.nodes as u64 > hosts {
            return Err(err(format!(
                "{file}: `Nodes {}` exceeds the fabric's {hosts} hosts",
                matrix.nodes
            )));
        }
        Ok(WorkloadSpec::Htsim {
            file: std::fs::canonicalize(&path)
                .unwrap_or(path)
                .display()
                .to_string(),
            matrix,
        })
    }

    fn point_params<'v>(
        &self,
        get: &impl Fn(&str) -> Option<&'v Value>,
    ) -> Result<SimParams, ScenarioError> {
        let tiers = self.u32(get, "topology.tiers", 2)?;
        if tiers > 3 {
            return Err(self.error("topology.tiers", get("topology.tiers").unwrap(), "2 or 3"));
        }
        let k = self.u32(get, "topology.k", 2)?;
        if k % 2 != 0 {
            return Err(self.error(
                "topology.k",
                get("topology.k").unwrap(),
                Self::allowed("topology.k"),
            ));
        }
        let explicit = [
            "topology.leaves",
            "topology.hosts_per_leaf",
            "topology.uplinks",
        ];
        let topology = if tiers == 3 {
            if let Some(key) = explicit.iter().find(|k| get(k).is_some()) {
                return Err(ScenarioError {
                    source: self.source.clone(),
                    key: key.to_string(),
                    message: "only applies to 2-tier fabrics (topology.tiers = 2)".into(),
                });
            }
            TopologySpec::FatTree { k }
        } else {
            let leaves = self.opt_int(get, "topology.leaves", 2)?.unwrap_or(k as u64) as u32;
            let hpl = self
                .opt_int(get, "topology.hosts_per_leaf", 1)?
                .unwrap_or(k as u64 / 2);
            let up = self
                .opt_int(get, "topology.uplinks", 1)?
                .unwrap_or(k as u64 / 2);
            TopologySpec::LeafSpine {
                leaves,
                hosts_per_leaf: hpl as u32,
                uplinks: up as u32,
            }
        };
        let rate_gbps = self.float(get, "link.rate_gbps", true)?;
        let delay_ns = self.float(get, "link.delay_ns", false)?;
        let link = LinkModel {
            rate_bps: (rate_gbps * 1e9).round() as u64,
            delay_ps: (delay_ns * PS_PER_NS as f64).round() as u64,
            payload_bytes: self.u32(get, "packet.payload_bytes", 1)?,
            header_bytes: self.u32(get, "packet.header_bytes", 1)?,
            ack_bytes: self.u32(get, "packet.ack_bytes", 1)?,
        };
        let buffer_bytes = match get("switch.buffer_bytes") {
            Some(Value::String(s)) if s == "unbounded" => None,
            _ => Some(self.int(get, "switch.buffer_bytes", 1)?),
        };
        let (arch, port_rate_bps) = self.arch(get, &topology, link.rate_bps)?;
        let (topology, link) =
            self.host_count(get, topology, link, port_rate_bps, arch.asics, &explicit)?;
        let stop_ps = self.opt_us(get, "run.duration_us")?;
        let workload = self.workload(get, &topology, link.rate_bps, stop_ps)?;
        let failures = self.failures(get, &topology)?;
        let longest_path = if tiers == 3 { 6 } else { 4 };
        let lb = self.choice(get, "switch.lb", SwitchLbKind::from_name)?;
        let deployment = self.deployment(get, lb)?;
        if lb == SwitchLbKind::Conga && get("failures.links").is_some() {
            return Err(ScenarioError {
                source: self.source.clone(),
                key: "failures.links".into(),
                message: "link failures are not modelled with conga".into(),
            });
        }
        if lb == SwitchLbKind::Conga && tiers != 2 {
            return Err(ScenarioError {
                source: self.source.clone(),
                key: "switch.lb".into(),
                message: "conga runs on 2-tier leaf-spine fabrics (topology.tiers = 2)".into(),
            });
        }
        let overflow = self.choice(get, "switch.overflow", |s| match s {
            "drop" => Some(Overflow::Drop),
            "trim" => Some(Overflow::Trim),
            _ => None,
        })?;
        let bdp_bytes = (link.base_rtt_ps(longest_path) as u128 * link.rate_bps as u128
            / 8_000_000_000_000) as u64;
        let base_rtt_ps = link.base_rtt_ps(longest_path);
        let cc = CcParams {
            kind: self.choice(get, "host.cc", CcKind::from_name)?,
            base_rtt_ps,
            bdp_bytes,
            init_window_bytes: self
                .opt_int(get, "host.init_window_bytes", 1)?
                // 1.5 BDP: the first round trip also carries ACK interleaving and a few
                // packets of queueing; one bare BDP stalled Ofan's default run by 4%.
                .unwrap_or(bdp_bytes * 3 / 2),
            mss_bytes: link.payload_bytes as u64,
            dctcp_g: self.float(get, "host.dctcp_g", true)?,
            swift: SwiftParams {
                ai_bytes: self.float(get, "host.swift_ai", true)? * link.payload_bytes as f64,
                beta: self.float(get, "host.swift_beta", true)?,
                max_mdf: self.float_below_one(get, "host.swift_max_mdf")?,
                margin_ps: self
                    .opt_ns(get, "host.swift_margin_ns", false)?
                    .unwrap_or(base_rtt_ps / 4),
            },
            mswift_samples: self.u32_at_most(get, "host.mswift_samples", 1, MAX_MEDIAN_SAMPLES)?,
            nscc: NsccParams {
                target_ps: self.opt_ns(get, "host.nscc_target_ns", true)?.unwrap_or(
                    match overflow {
                        Overflow::Trim => base_rtt_ps * 3 / 4,
                        Overflow::Drop => base_rtt_ps,
                    },
                ),
                max_bdp: self.float(get, "host.nscc_max_bdp", true)?,
                gamma: self.float(get, "host.nscc_gamma", true)?,
            },
        };
        Ok(SimParams {
            topology,
            link,
            buffer_bytes,
            overflow,
            lb,
            deployment,
            ofan_dynamic_first: match get("switch.ofan_first") {
                None => false,
                Some(_) => {
                    let dynamic = self.choice(get, "switch.ofan_first", |s| match s {
                        "random" => Some(false),
                        "shortest" => Some(true),
                        _ => None,
                    })?;
                    if dynamic && get("switch.combining") == Some(&Value::Boolean(true)) {
                        return Err(ScenarioError {
                            source: self.source.clone(),
                            key: "switch.ofan_first".into(),
                            message: "the dynamic first pointer does not go through the combining pipeline (switch.combining = false)".into(),
                        });
                    }
                    dynamic
                }
            },
            host_lb: self.choice(get, "host.lb", HostLbKind::from_name)?,
            ecn: self.ecn(get)?,
            rto_ps: self.rto(
                get,
                &link,
                longest_path,
                buffer_bytes,
                overflow,
                (arch.arch != Arch::Ideal).then_some(arch.buffer_per_100g),
            )?,
            cc,
            pipe_ports: self.u32(get, "switch.pipe_ports", 1)?,
            combining: self.combining(get)?,
            workload,
            arch,
            stop_ps,
            failures,
            pace: match get("failures.pace") {
                None => true,
                Some(Value::Boolean(b)) => *b,
                Some(v) => {
                    return Err(self.error("failures.pace", v, Self::allowed("failures.pace")))
                }
            },
            seed: 0,
        })
    }
}

/// A `--set` value: TOML if it parses as a value, a list if it has commas, else a string.
fn parse_value(raw: &str) -> Value {
    if let Ok(t) = format!("v = {raw}").parse::<toml::Table>() {
        if let Some(v) = t.get("v") {
            return v.clone();
        }
    }
    if raw.contains(',') {
        return Value::Array(raw.split(',').map(|s| parse_value(s.trim())).collect());
    }
    Value::String(raw.to_string())
}

fn display(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn keys() -> String {
    SCHEMA
        .iter()
        .map(|(k, _, _)| *k)
        .collect::<Vec<_>>()
        .join(", ")
}

fn sections() -> String {
    let mut s: Vec<&str> = SCHEMA
        .iter()
        .map(|(k, _, _)| k.split('.').next().unwrap())
        .collect();
    s.dedup();
    s.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_scenario_expands_to_seven_schemes() {
        let runs = Scenario::default_scenario().expand().unwrap();
        assert_eq!(runs.len(), 7);
        assert_eq!(runs[6].params.lb, SwitchLbKind::Ofan);
        assert_eq!(runs[0].params.topology, TopologySpec::FatTree { k: 12 });
        assert_eq!(runs[0].params.buffer_bytes, None);
        assert_eq!(runs[0].params.combining, None);
    }

    #[test]
    fn combining_carries_the_pipeline_width() {
        let mut s = Scenario::default_scenario();
        s.set("switch.combining=true").unwrap();
        s.set("switch.pipeline_width=4").unwrap();
        assert_eq!(s.expand().unwrap()[0].params.combining, Some(4));
    }

    #[test]
    fn lists_sweep_the_cartesian_product_with_seeds() {
        let mut s = Scenario::parse("[switch]\nlb = [\"ecmp\", \"ofan\"]\n", "t.toml").unwrap();
        s.set("workload.message_bytes=[1000, 2000, 3000]").unwrap();
        s.set("run.seeds=2").unwrap();
        let runs = s.expand().unwrap();
        assert_eq!(runs.len(), 12);
        assert_eq!(runs[1].params.seed, 2);
        assert_eq!(runs[2].params.workload.message_bytes(), 2000);
        assert_eq!(runs[6].params.lb, SwitchLbKind::Ofan);
        assert_eq!(runs[0].label.len(), 2);
    }

    #[test]
    fn each_run_written_as_toml_expands_to_exactly_that_run() {
        let mut s = Scenario::parse(
            "[topology]\ntiers = 2\nk = [4, 6]\nuplinks = 2\n[link]\nrate_gbps = 0.1\ndelay_ns = [0.3, 7]\n",
            "t.toml",
        )
        .unwrap();
        s.set("switch.lb=ofan,ecmp").unwrap();
        s.set("switch.buffer_bytes=[\"unbounded\", 9000]").unwrap();
        s.set("run.seed=41").unwrap();
        s.set("run.seeds=3").unwrap();
        let runs = s.expand().unwrap();
        assert_eq!(runs.len(), 2 * 2 * 2 * 2 * 3);
        for run in &runs {
            let text = run.to_toml().unwrap();
            let again = Scenario::parse(&text, "spec").unwrap().expand().unwrap();
            assert_eq!(again.len(), 1, "{text}");
            assert_eq!(again[0].params, run.params, "{text}");
            assert_eq!(again[0].to_toml().unwrap(), text);
        }
        assert_eq!(runs[2].params.seed, 43);

        let mut s = Scenario::default_scenario();
        s.set(&format!("run.seed={}", i64::MAX)).unwrap();
        s.set("run.seeds=2").unwrap();
        let runs = s.expand().unwrap();
        assert!(runs[0].to_toml().is_ok());
        let e = runs[1].to_toml().unwrap_err();
        assert_eq!(e.key, "run.seed");
    }

    #[test]
    fn cc_parameters_default_from_the_base_rtt_and_can_be_set() {
        let cc = |sets: &[&str]| {
            let mut s = Scenario::default_scenario();
            s.set("switch.lb=ofan").unwrap();
            for a in sets {
                s.set(a).unwrap();
            }
            s.expand().unwrap().remove(0).params.cc
        };
        let d = cc(&["host.cc=mswift"]);
        assert_eq!(d.kind, CcKind::Mswift);
        assert_eq!(d.swift.margin_ps, d.base_rtt_ps / 4);
        assert_eq!(d.swift.ai_bytes, 4096.0, "1 MSS per RTT");
        assert_eq!(d.mswift_samples, 8);
        assert_eq!(d.nscc.target_ps, d.base_rtt_ps);
        assert_eq!(d.init_window_bytes, d.bdp_bytes * 3 / 2);
        assert_eq!(
            cc(&["switch.overflow=trim"]).nscc.target_ps,
            d.base_rtt_ps * 3 / 4
        );
        let set = cc(&[
            "host.swift_margin_ns=2",
            "host.nscc_target_ns=3000",
            "host.mswift_samples=64",
        ]);
        assert_eq!(set.swift.margin_ps, 2_000);
        assert_eq!(set.nscc.target_ps, 3_000_000);
        assert_eq!(set.mswift_samples, 64);
        for bad in [
            "host.cc=cubic",
            "host.swift_max_mdf=1",
            "host.mswift_samples=65",
            "host.mswift_samples=0",
            "host.nscc_target_ns=0",
            "host.swift_beta=-1",
        ] {
            let mut s = Scenario::default_scenario();
            s.set(bad).unwrap();
            let key = bad.split('=').next().unwrap();
            assert_eq!(s.expand().unwrap_err().key, key, "{bad}");
        }
    }

    #[test]
    fn multi_asic_port_speeds_and_errors() {
        let params = |sets: &[&str]| {
            let mut s = Scenario::default_scenario();
            s.set("switch.lb=ecmp").unwrap();
            for a in sets {
                s.set(a).unwrap();
            }
            s.expand().map(|mut r| r.remove(0).params)
        };
        // Fixed radix (Fastroute A.2): oversubscribed ports keep the ideal speed; State-of-the-
        // Art spends half of each ASIC on the non-blocking fabric: 800 * (1 + 1/2) / 2 = 600.
        let rate = |sets: &[&str]| params(sets).unwrap().link.rate_bps;
        assert_eq!(rate(&["switch.arch=oversubscribed"]), 800_000_000_000);
        assert_eq!(rate(&["switch.arch=sota"]), 600_000_000_000);
        assert_eq!(
            rate(&["switch.arch=sota", "switch.inter_asic_oversub=4"]),
            500_000_000_000
        );
        // An explicit ASIC capacity sets the ports of every multi-ASIC design: k = 12, 2 ASICs,
        // 6 ports per ASIC: 3.6 Tb/s / (6 * 1.5) = 400 Gb/s with 2:1 oversubscription.
        assert_eq!(
            rate(&["switch.arch=fastroute", "switch.asic_capacity_gbps=3600"]),
            400_000_000_000
        );
        let p = params(&["switch.arch=fastroute", "switch.solver=exact"]).unwrap();
        let c = p.arch.circuit.unwrap();
        assert_eq!(
            (c.interval_ps, c.compute_delay_ps, c.downtime_ps),
            (100_000_000, 10_000_000, 1_000_000)
        );
        assert_eq!(c.solver, Solver::Exact);
        assert!(params(&["switch.arch=oversubscribed"])
            .unwrap()
            .arch
            .circuit
            .is_none());
        assert!(p.rto_ps.is_some(), "inter-ASIC buffers can drop");
        // The RTO covers a full inter-ASIC buffer at every hop: 10x the buffer, a longer RTO.
        let big = params(&[
            "switch.arch=fastroute",
            "switch.inter_asic_buffer_bytes=3000000",
        ]);
        assert!(big.unwrap().rto_ps > p.rto_ps);
        assert_eq!(p.arch.buffer_per_100g, 300_000);
        // A.2: the same ASICs with 800 Gb/s ports give State-of-the-Art 3/4 of the radix
        // (k = 12 -> 9, rounded down to a multiple of 2 x asics = 8).
        let v = params(&["switch.arch=sota", "switch.host_count=variable"]).unwrap();
        assert_eq!(
            (v.topology, v.link.rate_bps),
            (TopologySpec::FatTree { k: 8 }, 800_000_000_000)
        );
        let v = params(&["switch.arch=fastroute", "switch.host_count=variable"]).unwrap();
        assert_eq!(v.topology, TopologySpec::FatTree { k: 12 });
        for (bad, key) in [
            ("switch.arch=chiplet", "switch.arch"),
            ("switch.asics=5", "switch.asics"),
            ("switch.asics=1", "switch.asics"),
            ("switch.inter_asic_oversub=0.5", "switch.inter_asic_oversub"),
            ("switch.compute_delay_us=100", "switch.compute_delay_us"),
            ("switch.solver=hungarian", "switch.solver"),
            ("switch.circuit_mode=magic", "switch.circuit_mode"),
            ("workload.kind=web", "run.duration_us"),
            ("workload.intra_rack=2", "workload.intra_rack"),
            ("switch.bundle=4", "switch.bundle"),
            ("switch.circuit_switches=5", "switch.circuit_switches"),
            ("switch.host_count=some", "switch.host_count"),
            (
                "switch.inter_asic_buffer_bytes=0",
                "switch.inter_asic_buffer_bytes",
            ),
        ] {
            let sets = ["switch.arch=fastroute", "workload.kind=stride", bad];
            let e = params(&sets).unwrap_err();
            assert_eq!(e.key, key, "{bad}: {e}");
            let value = bad.split('=').nth(1).unwrap();
            assert!(
                key == "run.duration_us" || e.to_string().contains(value),
                "{e}"
            );
        }
    }

    #[test]
    fn set_accepts_bare_words_and_comma_lists() {
        let mut s = Scenario::default_scenario();
        s.set("switch.lb=ofan,pofan").unwrap();
        s.set("switch.buffer_bytes=unbounded").unwrap();
        assert_eq!(s.expand().unwrap().len(), 2);
    }

    #[test]
    fn errors_name_source_key_value_and_allowed() {
        let e = Scenario::parse("[topology]\nk = 7\n", "a.toml")
            .unwrap()
            .expand()
            .unwrap_err();
        assert_eq!(
            (e.source.as_str(), e.key.as_str()),
            ("a.toml", "topology.k")
        );
        assert!(
            e.to_string().contains("7") && e.to_string().contains("even"),
            "{e}"
        );

        let e = Scenario::parse("[topology]\nkk = 4\n", "a.toml").unwrap_err();
        assert!(e.to_string().contains("topology.kk") && e.to_string().contains("topology.k,"));

        let mut s = Scenario::default_scenario();
        let e = s
            .set("switch.lb=magic")
            .and_then(|_| s.expand().map(|_| ()))
            .unwrap_err();
        assert!(
            e.to_string().contains("magic") && e.to_string().contains("ofan"),
            "{e}"
        );

        let mut s = Scenario::default_scenario();
        s.set("workload.message_bytes=-5").unwrap();
        assert!(s.expand().unwrap_err().to_string().contains("-5"));

        for bad in [
            "switch.combining=yes",
            "switch.pipeline_width=0",
            "switch.pipeline_width=5000",
        ] {
            let mut s = Scenario::default_scenario();
            s.set(bad).unwrap();
            let e = s.expand().unwrap_err().to_string();
            assert!(e.contains(bad.split('=').nth(1).unwrap()), "{e}");
        }

        assert!(Scenario::parse("[link\nrate = 1", "b.toml")
            .unwrap_err()
            .to_string()
            .contains("malformed"));
    }
}

//! Scenarios: the TOML schema, validation with clear errors, and sweep expansion.
//!
//! A scenario file has sections `[topology]`, `[link]`, `[packet]`, `[switch]`, `[host]`,
//! `[workload]`, `[failures]`, `[run]` and `[trace]`. Any value may be a list: the scenario then sweeps
//! the cartesian product of all lists (keys later in the schema vary fastest). `run.seeds = N`
//! repeats every point with seeds `run.seed, run.seed + 1, ...`. `--set KEY=VALUE` overrides
//! apply on top of the file.
//!
//! Each domain owns its keys (a [`Key`] row each: type, range, default, meaning) and its
//! parser, one file each: `topology`, `link` (link and packet), `switch`, `arch` (multi-ASIC),
//! `host`, `workload`, `failures`, `run`, `trace`. Every value given is checked against its row
//! whether or not the run reads it; then the domain parsers build [`SimParams`], checking
//! what depends on other keys. Errors name the source of the value (file, `--set` or the
//! built-in default), the key, the offending value and what is allowed.
//!
//! Architecture Invariant: `scenario` is the top layer; no module of `fabsim` uses it.
//!
//! Architecture Invariant: in `fabsim` only this module touches the file system and only it
//! parses TOML. Every input file is read by [`read_input`] (a regular file or a pipe of at
//! most 1 GiB); input paths are resolved with `canonicalize`, so a run spec names them by
//! absolute path. The text formats of other data are parsed where that data lives
//! (`workload::SizeCdf::parse`, `workload::HtsimMatrix::parse`, `workload::HpccFlows::parse`);
//! this module adds the file and the key to their errors.

mod arch;
mod docs;
mod failures;
mod host;
mod keys;
mod link;
mod profile;
mod rate;
mod run;
mod switch;
pub mod topofile;
mod topology;
mod trace;
mod workload;

use std::collections::BTreeMap;

use toml::Value;

pub use docs::{choices, choices_markdown, keys_listing, keys_markdown};
use keys::{display, suggest, Keys};
pub use keys::{Key, Kind, ScenarioError};
pub use profile::Profile;

use crate::lb::{HostLbKind, SwitchLbKind};
use crate::net::asic::ArchParams;
use crate::net::TopologySpec;
use crate::params::{HostParams, SimParams, SwitchParams};
use crate::workload::WorkloadSpec;

/// The largest input file fabsim reads (a scenario, run spec, htsim connection matrix,
/// flow-size CDF, traffic matrix, flow table or report): far above any real one (the
/// largest shipped is under 1 MiB), small enough to hold in memory.
pub const MAX_INPUT_BYTES: u64 = 1 << 30;

/// Reads input file `path` as text: a regular file, or a pipe (`<(...)`), of at most
/// [`MAX_INPUT_BYTES`]. A device (`/dev/zero`), a directory or a larger file is refused at
/// once, and a pipe as soon as it passes the limit, with a message naming what was found.
pub fn read_input(path: &std::path::Path) -> Result<String, String> {
    use std::io::Read as _;
    let limit = MAX_INPUT_BYTES;
    let too_large = |n: String| format!("{n}, over the {} GiB limit of an input file", limit >> 30);
    let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
    let kind = meta.file_type();
    if meta.is_dir() {
        return Err("is a directory, not a file".into());
    }
    #[cfg(unix)]
    let is_pipe = std::os::unix::fs::FileTypeExt::is_fifo(&kind);
    #[cfg(not(unix))]
    let is_pipe = false;
    if !kind.is_file() && !is_pipe {
        return Err(
            "not a regular file (a device or socket): give a file (or a pipe) to read".into(),
        );
    }
    if meta.len() > limit {
        return Err(too_large(format!("{} bytes", meta.len())));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(limit + 1).read_to_end(&mut bytes))
        .map_err(|e| e.to_string())?;
    if bytes.len() as u64 > limit {
        return Err(too_large(format!("more than {limit} bytes")));
    }
    String::from_utf8(bytes).map_err(|e| format!("not UTF-8 text ({e})"))
}

/// Every key, by domain, in sweep order (later keys vary fastest).
pub const SCHEMA: &[&[&Key]] = &[
    topology::KEYS,
    link::KEYS,
    switch::KEYS,
    arch::KEYS,
    host::KEYS,
    rate::KEYS,
    workload::KEYS,
    failures::KEYS,
    run::KEYS,
    trace::KEYS,
];

/// Every key, in schema order.
pub fn schema() -> impl Iterator<Item = &'static Key> {
    SCHEMA.iter().flat_map(|d| d.iter().copied())
}

fn key(name: &str) -> Option<&'static Key> {
    schema().find(|k| k.name == name)
}

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

/// Where the built-in default scenario's values come from, in errors.
pub const BUILT_IN: &str = "built-in default";

/// One run of a sweep: its parameters and the swept values that identify its point.
#[derive(Clone, Debug)]
pub struct RunSpec {
    /// Index of the sweep point (runs of one point differ only in seed).
    pub point: usize,
    /// The swept keys and their values at this point, for labels.
    pub label: Vec<(String, String)>,
    pub params: SimParams,
    /// Every key present at this point with its one value (`run.seed` = this run's seed,
    /// `run.seeds` = 1), in schema order: the run as a single-point scenario.
    assignment: Vec<(&'static Key, Value)>,
}

impl RunSpec {
    /// The files this run reads, each with its key (`workload.file`, `workload.cdf`, `topology.file`), as the
    /// run spec names them (absolute paths; a shipped CDF, named, is no file).
    pub fn input_files(&self) -> Vec<(&'static str, std::path::PathBuf)> {
        self.assignment
            .iter()
            .filter(|(k, _)| [workload::FILE, workload::CDF, topology::FILE].contains(k))
            .filter_map(|(k, v)| {
                let s = v.as_str()?;
                let named = *k == workload::CDF
                    && crate::workload::cdf::BUILT_IN.iter().any(|(n, _)| *n == s);
                (!named).then(|| (k.name, std::path::PathBuf::from(s)))
            })
            .collect()
    }

    /// This run as a single-point scenario (TOML): parsing and expanding it yields exactly
    /// this run. Fails only if the seed does not fit a TOML integer (i64).
    pub fn to_toml(&self) -> Result<String, ScenarioError> {
        let mut doc = toml::Table::new();
        for (key, value) in &self.assignment {
            let (section, name) = key.name.split_once('.').expect("schema keys are dotted");
            let value = if *key == run::SEED {
                let seed = i64::try_from(self.params.run.seed).map_err(|_| ScenarioError {
                    source: "sweep".into(),
                    key: key.name.to_string(),
                    message: format!(
                        "seed {} does not fit a TOML integer (at most {})",
                        self.params.run.seed,
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

/// The values given for one key and where they came from.
#[derive(Clone, Debug)]
struct Given {
    values: Vec<Value>,
    source: String,
}

/// A parsed scenario: flattened keys, each with one or more values.
#[derive(Clone, Debug)]
pub struct Scenario {
    /// The file (or the built-in default) the scenario started from.
    source: String,
    values: BTreeMap<&'static str, Given>,
}

impl Scenario {
    /// Parses TOML `text`; `source` names it in errors (usually the file path).
    pub fn parse(text: &str, source: &str) -> Result<Self, ScenarioError> {
        let err = |key: &str, message: String| ScenarioError {
            source: source.to_string(),
            key: key.to_string(),
            message,
        };
        let doc: toml::Table = crate::engine::without_bom(text)
            .parse()
            .map_err(|e: toml::de::Error| err("", format!("malformed TOML: {}", e.message())))?;
        let mut s = Self {
            source: source.to_string(),
            values: BTreeMap::new(),
        };
        for (section, table) in &doc {
            let Value::Table(table) = table else {
                let mut message = format!(
                    "expected a [{section}] section; allowed sections: {}",
                    sections().join(", ")
                );
                if let Some(best) = suggest(section, sections()) {
                    message += &format!("; did you mean [{best}]?");
                }
                return Err(err(section, message));
            };
            for (name, value) in table {
                let full = format!("{section}.{name}");
                s.insert(&full, value.clone(), source)
                    .map_err(|m| err(&full, m))?;
            }
        }
        Ok(s)
    }

    /// The built-in default scenario.
    pub fn default_scenario() -> Self {
        Self::parse(DEFAULT_SCENARIO, BUILT_IN).expect("the default scenario parses")
    }

    /// Whether the scenario sets no key at all (an empty file runs the schema defaults).
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
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
        if key.is_empty() {
            return Err(err(
                assignment,
                "no key before `=`: expected KEY=VALUE (`fabsim keys` lists every key)".into(),
            ));
        }
        let value = parse_value(raw.trim());
        self.insert(key, value, "--set").map_err(|m| err(key, m))
    }

    fn insert(&mut self, name: &str, value: Value, source: &str) -> Result<(), String> {
        let Some(k) = key(name) else {
            let mut message = "unknown key".to_string();
            if let Some(best) = suggest(name, schema().map(|k| k.name)) {
                message += &format!("; did you mean `{best}`?");
            } else if let Some((section, _)) = name.split_once('.') {
                let same: Vec<&str> = schema()
                    .map(|k| k.name)
                    .filter(|k| k.split('.').next() == Some(section))
                    .collect();
                if !same.is_empty() {
                    message += &format!("; the [{section}] keys are {}", same.join(", "));
                }
            }
            return Err(message + " (`fabsim keys` lists every key)");
        };
        let values = match value {
            // A list of link names is one failure set; a list of numbers one set of FCT
            // bucket boundaries.
            Value::Array(items)
                if (k == failures::LINKS && items.iter().all(|v| v.is_str()))
                    || ((k == run::FCT_BUCKETS || k == run::START_BINS_US)
                        && !items.iter().any(|v| v.is_array())) =>
            {
                vec![Value::Array(items)]
            }
            Value::Array(items) if items.is_empty() => {
                return Err("an empty list sweeps nothing".into());
            }
            Value::Array(items) => items,
            v => vec![v],
        };
        self.values.insert(
            k.name,
            Given {
                values,
                source: source.to_string(),
            },
        );
        Ok(())
    }

    /// Expands the sweep into runs, validating every value.
    pub fn expand(&self) -> Result<Vec<RunSpec>, ScenarioError> {
        // Every value given, whether or not its run reads it.
        for (name, given) in &self.values {
            let k = key(name).expect("inserted keys are in the schema");
            for v in &given.values {
                k.check(v).map_err(|message| ScenarioError {
                    source: given.source.clone(),
                    key: name.to_string(),
                    message,
                })?;
            }
        }
        let defaults: Vec<Option<Value>> = schema().map(|k| k.default.map(parse_value)).collect();
        let profile_values: Vec<(Profile, &'static Key, Value)> = Profile::ALL
            .iter()
            .flat_map(|&p| {
                p.settings()
                    .iter()
                    .map(move |&(k, v)| (p, k, parse_value(v)))
            })
            .collect();
        // Each key with a value: its values and where they were given (`None`: the default).
        let dims: Vec<(&'static Key, &[Value], Option<&str>)> = schema()
            .zip(&defaults)
            .filter_map(|(k, d)| match (self.values.get(k.name), d) {
                (Some(g), _) => Some((k, g.values.as_slice(), Some(g.source.as_str()))),
                (None, Some(d)) => Some((k, std::slice::from_ref(d), None)),
                (None, None) => None,
            })
            .collect();
        let points = dims
            .iter()
            .try_fold(1usize, |n, (_, v, _)| n.checked_mul(v.len()))
            .filter(|&n| n <= MAX_POINTS)
            .ok_or_else(|| ScenarioError {
                source: self.source.clone(),
                key: String::new(),
                message: format!("the sweep has more than {MAX_POINTS} points; split it"),
            })?;
        let seed_values = dims
            .iter()
            .find(|(k, ..)| *k == run::SEEDS)
            .map_or(1, |(_, v, ..)| {
                v.iter().filter_map(Value::as_integer).max().unwrap_or(1) as usize
            });
        if points.saturating_mul(seed_values) > MAX_RUNS {
            return Err(ScenarioError {
                source: self.source.clone(),
                key: run::SEEDS.name.into(),
                message: format!(
                    "{points} points x {seed_values} seeds is more than {MAX_RUNS} runs; split the sweep"
                ),
            });
        }
        let dir = std::path::Path::new(&self.source).parent();
        let mut runs = Vec::new();
        for point in 0..points {
            // Mixed radix over the dimensions; the last varies fastest.
            let mut rest = point;
            let mut chosen = vec![0; dims.len()];
            for (i, (_, values, ..)) in dims.iter().enumerate().rev() {
                chosen[i] = rest % values.len();
                rest /= values.len();
            }
            let mut keys = Keys::new(&self.source);
            for ((k, values, source), &c) in dims.iter().zip(&chosen) {
                keys.push(k, &values[c], *source);
            }
            let profile: Profile = keys.choice(host::PROFILE);
            for (k, v) in profile_values
                .iter()
                .filter(|(p, ..)| *p == profile)
                .map(|(_, k, v)| (k, v))
            {
                keys.default_to(k, v, profile.source());
            }
            let label = dims
                .iter()
                .zip(&chosen)
                .filter(|((k, v, ..), _)| v.len() > 1 && *k != run::SEED)
                .map(|((k, v, ..), &c)| (k.name.to_string(), display(&v[c])))
                .collect();
            let point_params = params(&keys, dir)?;
            let seeds = keys.int(run::SEEDS);
            let assignment = assignment(&keys, &point_params, dir);
            for i in 0..seeds {
                let mut params = point_params.clone();
                params.run.seed = point_params.run.seed.wrapping_add(i);
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
}

/// Every key's value at a point of parameters `p`, the profile's included (written
/// explicitly, a run spec parses to the same run whatever the defaults of a later build), but
/// those a topology or workload file replaces.
fn assignment(
    keys: &Keys,
    p: &SimParams,
    dir: Option<&std::path::Path>,
) -> Vec<(&'static Key, Value)> {
    schema()
        .filter(|k| !topology::replaced_by_file(keys, k) && !workload::replaced_by_file(keys, k, p))
        .filter_map(|k| keys.get(k).map(|v| (k, spec_value(k, v, p, dir))))
        .collect()
}

/// Key `k`'s value `v` as a run spec writes it for a run of `p`.
fn spec_value(k: &Key, v: &Value, p: &SimParams, dir: Option<&std::path::Path>) -> Value {
    if k == run::SEEDS {
        // The seed is filled in per run by `to_toml`.
        Value::Integer(1)
    } else if k == workload::FILE || k == topology::FILE {
        // The file as resolved, so a run spec written elsewhere finds it.
        match &p.workload {
            WorkloadSpec::Htsim { file, .. } | WorkloadSpec::Hpcc { file, .. }
                if k == workload::FILE =>
            {
                Value::String(file.clone())
            }
            _ => workload::path_value(v, dir),
        }
    } else if k == workload::CDF {
        workload::cdf_value(v, dir)
    } else if let Some(v) = link::spec_value(k, p) {
        v
    } else {
        v.clone()
    }
}

/// The most points a sweep may expand to.
pub const MAX_POINTS: usize = 100_000;
/// The most runs (points x seeds) a sweep may expand to.
pub const MAX_RUNS: usize = 1_000_000;

/// One point's parameters, domain by domain.
fn params(k: &Keys, dir: Option<&std::path::Path>) -> Result<SimParams, ScenarioError> {
    let topology = topology::parse(k, dir)?;
    let link = link::parse(k, &topology)?;
    let mut switch = switch::parse(k, &link)?;
    let packet_bytes = link.payload_bytes as u64 + link.header_bytes as u64;
    let (arch, port_rate_bps) = arch::parse(k, &topology, link.rate_bps, packet_bytes)?;
    if arch.asics > 1 && switch.pfc_buffer.is_some() {
        return Err(k.err(
            arch::ARCH,
            "PFC (switch.pfc = true) is modelled on single-ASIC switches; allowed with it: \"ideal\"",
        ));
    }
    if arch.asics > 1 && topology.mixed_rates(link.rate_bps) {
        return Err(k.err(
            arch::ARCH,
            "multi-ASIC switches run every port at the NICs' rate, and this fabric's links above the NICs run at others; allowed: \"ideal\" on it",
        ));
    }
    // The traffic comes from the nominal host rate, whatever the architecture: Fastroute's
    // comparisons keep one trace for every switch (an architecture's slower ports only
    // carry it more slowly).
    let nominal_bps = link.rate_bps;
    let (topology, link) = arch::host_count(k, topology, link, port_rate_bps, arch.asics)?;
    let run = run::parse(k)?;
    let workload = workload::parse(k, &topology, nominal_bps, run.stop_ps, dir)?;
    let (failures, pace) = failures::parse(k, &topology)?;
    if switch.lb == SwitchLbKind::Conga && failures.is_some() {
        return Err(k.err(failures::LINKS, "link failures are not modelled with conga"));
    }
    if switch.lb == SwitchLbKind::Conga && topology.longest_path_hops() != 4 {
        return Err(k.err(
            switch::LB,
            "conga runs on 2-tier leaf-spine fabrics (topology.tiers = 2)",
        ));
    }
    let host = host::parse(
        k,
        &host::HostContext {
            link: &link,
            hops: topology.longest_path_hops(),
            buffer_bytes: switch.buffer_bytes,
            overflow: switch.overflow,
            arch: &arch,
        },
    )?;
    switch::default_ecn(k, &mut switch, &link, topology.longest_path_hops());
    shortest_paths_only(k, &topology, &switch, &host, &arch)?;
    let p = SimParams {
        topology,
        link,
        switch,
        arch,
        host,
        workload,
        failures,
        pace,
        run,
    };
    workload::check_planes(k, &p)?;
    run::check_cost(k, &p)?;
    switch::check_pfc_buffer(k, &p)?;
    Ok(p)
}

/// On a fabric routed on shortest paths (not a Clos), what is defined on a Clos's up-down
/// paths only is refused: CONGA (leaf-to-leaf), source-routed up paths (DRB, Ethereal),
/// multi-ASIC switches. (Link failures: `FailureSpec::check`.)
fn shortest_paths_only(
    k: &Keys,
    topology: &TopologySpec,
    switch: &SwitchParams,
    host: &HostParams,
    arch: &ArchParams,
) -> Result<(), ScenarioError> {
    let TopologySpec::Graph(t) = topology else {
        return Ok(());
    };
    let Some(s) = &t.clos.shortest else {
        return Ok(());
    };
    let (key, what, allowed) = if switch.lb == SwitchLbKind::Conga {
        (switch::LB, "conga", "any other scheme")
    } else if matches!(host.lb, HostLbKind::Drb | HostLbKind::Ethereal) {
        (host::LB, host.lb.name(), "a scheme that stamps entropies")
    } else if arch.asics > 1 {
        (arch::ARCH, "multi-ASIC switches", "\"ideal\"")
    } else {
        return Ok(());
    };
    Err(k.err(
        key,
        format!(
            "{what} needs a 2- or 3-tier Clos's up-down paths, and this fabric is not a Clos ({}), so it is routed on shortest paths; allowed: {allowed}",
            s.why
        ),
    ))
}

/// A `--set` value: TOML if it parses as a value, a list if it has commas, else a string.
/// `assignment` (`KEY=VALUE`, as [`Scenario::set`] takes it) with the files a file key
/// (`workload.file`, `workload.cdf`, `topology.file`) names as absolute paths, found as a run finds them from
/// the working directory: the same assignment from any directory. Others are returned as
/// they are.
pub fn absolute_set(assignment: &str) -> String {
    let Some((key, raw)) = assignment.split_once('=') else {
        return assignment.into();
    };
    let key = key.trim();
    let abs = match key {
        k if k == workload::FILE.name || k == topology::FILE.name => workload::path_value,
        k if k == workload::CDF.name => workload::cdf_value,
        _ => return assignment.into(),
    };
    let abs = |v: &Value| abs(v, None);
    let value = match parse_value(raw.trim()) {
        Value::Array(items) => Value::Array(items.iter().map(abs).collect()),
        v => abs(&v),
    };
    format!("{key}={value}")
}

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

/// The sections, in schema order.
fn sections() -> Vec<&'static str> {
    let mut s: Vec<&str> = schema()
        .map(|k| k.name.split('.').next().unwrap())
        .collect();
    s.dedup();
    s
}

#[cfg(test)]
mod tests;

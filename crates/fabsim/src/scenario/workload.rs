//! `workload.*`: who sends what to whom.

use super::keys::{
    fmt_num, int, keys, named, names, number, positive, Key, Keys, Kind, Named, ScenarioError,
    MAX_BYTES,
};
use super::{host, run};
use crate::engine::Time;
use crate::net::{Node, TopologySpec};
use crate::params::SimParams;
use crate::workload::cdf::BUILT_IN;
use crate::workload::fsdp::{self, LLAMA3_405B};
use crate::workload::{
    Algorithm, CollectiveKind, FastrouteWorkload, FsdpPart, Group, HpccFlows, HtsimMatrix,
    ModelShape, Order, Pattern, PatternKind, PlaneScheme, Ranks, SimpleKind, SizeCdf, StartUnit,
    WorkloadKind, WorkloadSpec,
};

impl Named for WorkloadKind {
    const ALL: &'static [Self] = &WorkloadKind::ALL;
    fn name(self) -> &'static str {
        WorkloadKind::name(self)
    }
}

named!(Algorithm, Order, FsdpPart, StartUnit);

impl Named for ModelShape {
    const ALL: &'static [Self] = &ModelShape::ALL;
    fn name(self) -> &'static str {
        self.name
    }
}

fn group(v: &toml::Value) -> bool {
    match v {
        toml::Value::Integer(n) => *n >= 2 && *n <= super::topology::MAX_HOSTS as i64,
        _ => v.as_str().and_then(Group::parse).is_some(),
    }
}

pub(super) fn path(v: &toml::Value) -> bool {
    v.as_str().is_some_and(|s| !s.is_empty())
}

keys! {
    KIND: Key {
        name: "workload.kind",
        kind: Kind::Choice(names::<WorkloadKind>),
        default: Some("\"permutation\""),
        unit: "",
        meaning: "the traffic (all-to-all with workload.algorithm or workload.group: the collective)",
    },
    MESSAGE_BYTES: Key {
        name: "workload.message_bytes",
        kind: int(1, MAX_BYTES),
        default: Some("1048576"),
        unit: "bytes",
        meaning: "bytes per flow or per host (per collective for collectives); stride, shuffle and ring in a scenario without it: what a host port moves in 1 ms (ten Fastroute controller intervals of the default 100 us, so the controller's mappings show; the built-in default scenario sets 1 MiB)",
    },
    FLOW_BYTES: Key {
        name: "workload.flow_bytes",
        kind: int(1, MAX_BYTES),
        default: None,
        unit: "bytes",
        meaning: "all-to-all: a fixed size per flow instead of message_bytes split over the peers",
    },
    SENDERS: Key {
        name: "workload.senders",
        kind: int(1, super::topology::MAX_HOSTS),
        default: Some("2"),
        unit: "hosts",
        meaning: "incast: hosts 1..=senders send to host 0 (at most the fabric's hosts - 1)",
    },
    STRIDE: Key {
        name: "workload.stride",
        kind: int(1, super::topology::MAX_HOSTS),
        default: None,
        unit: "hosts",
        meaning: "stride/shuffle offset: host i sends to i + stride mod hosts (default: hosts per rack); a multiple of the host count, which would send every flow to its own source, is refused",
    },
    SHUFFLE_K: Key {
        name: "workload.shuffle_k",
        kind: int(1, 1024),
        default: Some("4"),
        unit: "peers",
        meaning: "shuffle: peers per host, i + j x stride mod hosts for j = 1..k, at most hosts / gcd(stride, hosts) - 1 (hosts - 1 for a stride prime to the host count): beyond, peers repeat",
    },
    LOAD: Key {
        name: "workload.load",
        kind: positive(4.0),
        default: Some("0.5"),
        unit: "",
        meaning: "web/hadoop: offered load, a fraction of host capacity",
    },
    INTRA_RACK: Key {
        name: "workload.intra_rack",
        kind: number(0.0, 1.0),
        default: None,
        unit: "",
        meaning: "web/hadoop: fraction of flows inside the rack (default 0.18 web, 0.14 hadoop)",
    },
    PHASE_US: Key {
        name: "workload.phase_us",
        kind: positive(1e7),
        default: Some("100"),
        unit: "us",
        meaning: "fast: period of the alternating inter-/intra-rack phases",
    },
    PHASE_FILL: Key {
        name: "workload.phase_fill",
        kind: positive(1e6),
        default: None,
        unit: "",
        meaning: "ring and fast: each flow carries this fraction of what a host link moves in one period (ring: its 0.5 ms regrouping, fast: workload.phase_us); ring: wins over workload.message_bytes; fast: default 1; other kinds ignore it",
    },
    ALGORITHM: Key {
        name: "workload.algorithm",
        kind: Kind::Choice(names::<Algorithm>),
        default: None,
        unit: "",
        meaning: "collectives and fsdp: ring or direct (default ring)",
    },
    GROUP: Key {
        name: "workload.group",
        kind: Kind::Other {
            allowed: "\"all\", \"A-B\" or \"A-B:S\" (hosts A to B, every S-th), or a host count >= 2",
            check: group,
        },
        default: None,
        unit: "",
        meaning: "collectives, fsdp, moe: the hosts taking part (default all)",
    },
    ORDER: Key {
        name: "workload.order",
        kind: Kind::Choice(names::<Order>),
        default: None,
        unit: "",
        meaning: "collectives and fsdp: rank order of the group; host: rank i is the group's i-th host (ring neighbours share an edge switch: little contention), random: shuffled once per run from the seed, the same for every collective; alternate: ranks alternate between the group's two halves, so on one 2-ASIC switch every ring neighbour sits on the other ASIC; rail: rail by rail on a rail-numbered fabric, as NCCL places multi-node rings (ring neighbours share a rail but at the rail changes) (default host)",
    },
    STEPS: Key {
        name: "workload.steps",
        kind: int(1, 1 << 20),
        default: None,
        unit: "",
        meaning: "collectives and fsdp: simulate only the first N steps of every collective, each step at full size (default all)",
    },
    FSDP_PART: Key {
        name: "workload.fsdp_part",
        kind: Kind::Choice(names::<FsdpPart>),
        default: None,
        unit: "",
        meaning: "fsdp: iteration (every block), forward-block (one block's all-gather) or backward-block (one block's all-gather and the next block's reduce-scatter, started together as FSDP2's backward prefetch overlaps them) (default iteration)",
    },
    MODEL: Key {
        name: "workload.model",
        kind: Kind::Choice(names::<ModelShape>),
        default: None,
        unit: "",
        meaning: "fsdp: the model (default llama3-405b)",
    },
    LAYERS: Key {
        name: "workload.layers",
        kind: int(0, 1024),
        default: None,
        unit: "",
        meaning: "fsdp: transformer blocks simulated, at most the model's (default all)",
    },
    SIZE_SCALE: Key {
        name: "workload.size_scale",
        kind: positive(1e3),
        default: None,
        unit: "",
        meaning: "fsdp: multiplies every message (default 1)",
    },
    SKEW: Key {
        name: "workload.skew",
        kind: number(0.0, 100.0),
        default: None,
        unit: "",
        meaning: "moe: Zipf exponent of expert popularity (default 1); web/hadoop: fraction (0 to 1) of flows to a hot tenth of hosts (default 0)",
    },
    BALANCE: Key {
        name: "workload.balance",
        kind: Kind::Bool,
        default: None,
        unit: "",
        meaning: "moe: expert-parallel load balancing (default false)",
    },
    EXPERTS_PER_HOST: Key {
        name: "workload.experts_per_host",
        kind: int(1, 1024),
        default: None,
        unit: "",
        meaning: "moe: experts per host (default 4)",
    },
    FILE: Key {
        name: "workload.file",
        kind: Kind::Other {
            allowed: "a path to an htsim connection matrix or an HPCC flow file",
            check: path,
        },
        default: None,
        unit: "",
        meaning: "htsim and hpcc: the flows' file (relative to the working directory or the scenario file), by its content: HPCC's ns-3 flow file (flow.txt) if its first line is a bare number (the flow count; then `src dst pg dport size start_s` lines, node ids as topology.file numbers them, pg read and ignored), else an htsim connection matrix",
    },
    START_UNIT: Key {
        name: "workload.start_unit",
        kind: Kind::Choice(names::<StartUnit>),
        default: Some("\"us\""),
        unit: "",
        meaning: "htsim: the unit of a connection's `start`: us (whole microseconds, as htsim's drivers read it) or ps (picoseconds); HPCC's flow files give seconds",
    },
    CDF: Key {
        name: "workload.cdf",
        kind: Kind::Other {
            allowed: "a shipped distribution (fb-web, fb-hadoop, websearch, datamining) or a path to a flow-size CDF file",
            check: path,
        },
        default: None,
        unit: "",
        meaning: "web/hadoop: flow sizes from this CDF instead of the kind's Facebook one (the kind still sets the default intra_rack); a file has `BYTES CDF` lines, CDF as fractions or percentages, spaces or commas (Homa's files, HPCC's traffic_gen files, CSVs), or ns-2 pFabric's `PACKETS _ CDF` lines (1460-byte packets): interpolated linearly, or sampled at its points when its first line is the mean (Homa's); websearch and datamining: pFabric's (opera-sim CSVs); relative to the working directory or the scenario file",
    },
}

pub fn parse(
    k: &Keys,
    topology: &TopologySpec,
    rate_bps: u64,
    stop_ps: Option<Time>,
    scenario_dir: Option<&std::path::Path>,
) -> Result<WorkloadSpec, ScenarioError> {
    let hosts = topology.endpoints();
    // A file given is read even when another workload runs, so a wrong path never passes.
    let file = flow_file(k, topology, scenario_dir)?;
    let cdf = k.get(CDF).map(|_| size_cdf(k, scenario_dir)).transpose()?;
    let message_bytes = k.int(MESSAGE_BYTES);
    let algorithm = k.opt_choice(ALGORITHM).unwrap_or(Algorithm::Ring);
    let ranks = ranks(k, topology)?;
    let group = || -> Result<Group, ScenarioError> {
        let key = GROUP;
        let Some(v) = k.get(key) else {
            return Ok(Group::All);
        };
        let g = match v {
            toml::Value::Integer(n) => Group::Hosts {
                first: 0,
                count: *n as u32,
                stride: 1,
            },
            _ => v.as_str().and_then(Group::parse).expect("checked group"),
        };
        match g.hosts(hosts.min(u32::MAX as u64) as u32) {
            Some(h) if h.len() >= 2 => Ok(g),
            _ => Err(k.invalid(
                key,
                &format!("a group of at least 2 of the fabric's {hosts} hosts"),
            )),
        }
    };
    let spec = match k.choice::<WorkloadKind>(KIND) {
        WorkloadKind::Simple(SimpleKind::Permutation) => {
            WorkloadSpec::Permutation { message_bytes }
        }
        WorkloadKind::Simple(SimpleKind::Bipartite) => WorkloadSpec::Bipartite { message_bytes },
        WorkloadKind::Simple(SimpleKind::Incast) => {
            let senders = k.u32(SENDERS);
            if senders as u64 >= hosts {
                return Err(k.invalid(
                    SENDERS,
                    &format!(
                        "at most {}: the other hosts of the fabric's {hosts} send to host 0",
                        hosts - 1
                    ),
                ));
            }
            WorkloadSpec::Incast {
                message_bytes,
                senders,
            }
        }
        // All-to-all without an algorithm or a group: one flow per pair, all at once.
        WorkloadKind::Collective(CollectiveKind::AllToAll)
            if k.get(ALGORITHM).is_none() && k.get(GROUP).is_none() =>
        {
            WorkloadSpec::AllToAll {
                message_bytes,
                flow_bytes: k.opt_int(FLOW_BYTES),
            }
        }
        WorkloadKind::Collective(kind) => {
            collective(kind, algorithm, message_bytes, group()?, ranks)
        }
        WorkloadKind::Simple(SimpleKind::Fsdp) => {
            let model = k.opt_choice(MODEL).unwrap_or(LLAMA3_405B);
            let layers = match k.opt_u32(LAYERS) {
                None => model.layers,
                Some(l) if l <= model.layers => l,
                Some(_) => {
                    return Err(k.invalid(
                        LAYERS,
                        &format!("at most the model's {} layers", model.layers),
                    ))
                }
            };
            WorkloadSpec::Fsdp {
                model,
                part: k.opt_choice(FSDP_PART).unwrap_or(FsdpPart::Iteration),
                layers,
                size_scale: k.opt_float(SIZE_SCALE).unwrap_or(1.0),
                algorithm,
                group: group()?,
                ranks,
            }
        }
        WorkloadKind::Simple(SimpleKind::Moe) => WorkloadSpec::Moe {
            message_bytes,
            skew: k.opt_float(SKEW).unwrap_or(1.0),
            balance: k.opt_bool(BALANCE).unwrap_or(false),
            experts_per_host: k.opt_u32(EXPERTS_PER_HOST).unwrap_or(4),
            group: group()?,
        },
        WorkloadKind::Simple(kind @ (SimpleKind::Htsim | SimpleKind::Hpcc)) => {
            file_workload(k, kind, file)?
        }
        WorkloadKind::Fastroute(kind) => WorkloadSpec::Fastroute(fastroute(
            k,
            kind,
            message_bytes,
            topology,
            rate_bps,
            stop_ps,
            cdf,
        )?),
    };
    nonempty_flows(k, &spec, hosts)?;
    Ok(spec)
}

/// Refuses a message split over more flows than it has bytes: a flow of 0 bytes never
/// completes (its empty packet's ACK acknowledges no new byte, see docs/decisions.md). Names
/// the key that sizes the message (`workload.size_scale` for FSDP, else
/// `workload.message_bytes`) and its smallest allowed value
/// ([`WorkloadSpec::min_flow_bytes`]).
fn nonempty_flows(k: &Keys, spec: &WorkloadSpec, hosts: u64) -> Result<(), ScenarioError> {
    let Some(floor) = spec.min_flow_bytes(hosts) else {
        return Ok(());
    };
    let never = "a flow of 0 bytes never completes";
    match *spec {
        WorkloadSpec::Fsdp {
            ref model,
            part,
            layers,
            size_scale,
            ..
        } => {
            let unit = fsdp::smallest_unit_bytes(model, part, layers, size_scale);
            if unit >= floor {
                return Ok(());
            }
            let bytes = if unit == 1 { "byte" } else { "bytes" };
            Err(k.invalid(
                SIZE_SCALE,
                &format!(
                    "at least {}: FSDP splits each unit's message into a shard per member of its {floor}-host group, and its smallest unit has {unit} {bytes} at this scale; {never}",
                    fmt_num(fsdp::min_scale(model, part, layers, floor))
                ),
            ))
        }
        _ if spec.message_bytes() >= floor => Ok(()),
        WorkloadSpec::AllToAll { .. } => Err(k.invalid(
            MESSAGE_BYTES,
            &format!(
                "at least {floor} bytes: all-to-all splits each host's message over its {floor} peers, and {never} (workload.flow_bytes sets a size per flow instead)"
            ),
        )),
        _ => Err(k.invalid(
            MESSAGE_BYTES,
            &format!(
                "at least {floor} bytes: {} splits the message into a shard per member of its {floor}-host group, and {never}",
                spec.kind_name()
            ),
        )),
    }
}

/// Refuses striping ([`PlaneScheme::Stripe`] over planes) with an htsim trigger that fires
/// on some of the connections signalling it, not all: each connection becomes a flow per
/// plane, and a trigger can then wait only for all the parts of every connection it counts.
pub fn check_planes(k: &Keys, p: &SimParams) -> Result<(), ScenarioError> {
    let (PlaneScheme::Stripe, WorkloadSpec::Htsim { file, matrix }) = (p.host.planes, &p.workload)
    else {
        return Ok(());
    };
    match matrix.partial_trigger() {
        Some((t, need, got)) if p.topology.planes() > 1 => Err(k.invalid(
            host::PLANES,
            &format!(
                "\"hash\" with {file}: its trigger {t} fires on {need} of the {got} signals its connections give, and \"stripe\" splits each connection into a flow per plane, which a trigger can count only as a whole (every part of every connection signalling it)"
            ),
        )),
        _ => Ok(()),
    }
}

fn collective(
    kind: CollectiveKind,
    algorithm: Algorithm,
    message_bytes: u64,
    group: Group,
    ranks: Ranks,
) -> WorkloadSpec {
    WorkloadSpec::Collective {
        kind,
        algorithm,
        message_bytes,
        group,
        ranks,
    }
}

/// `workload.order` and `workload.steps`: the collectives' ranks.
fn ranks(k: &Keys, topology: &TopologySpec) -> Result<Ranks, ScenarioError> {
    let order = k.opt_choice(ORDER).unwrap_or(Order::Host);
    let rails = match (order, topology.rails()) {
        (Order::Rail, None) => {
            return Err(k.err(
                ORDER,
                "workload.order = \"rail\" needs a rail-numbered fabric (topology.layout = \"rail\" or topology.servers); allowed here: host, random, alternate",
            ))
        }
        (_, rails) => rails.unwrap_or(1),
    };
    Ok(Ranks {
        order,
        rails,
        steps: k.opt_u32(STEPS),
    })
}

/// The default flow of stride, shuffle and ring: what a host port moves in this many seconds.
const LONG_LIVED_DEFAULT_S: f64 = 1e-3;

fn fastroute(
    k: &Keys,
    kind: PatternKind,
    message_bytes: u64,
    topology: &TopologySpec,
    rate_bps: u64,
    duration_ps: Option<Time>,
    cdf: Option<SizeCdf>,
) -> Result<FastrouteWorkload, ScenarioError> {
    let name = kind.name();
    let pattern = match kind {
        PatternKind::Stride => Pattern::Stride,
        PatternKind::Shuffle => Pattern::Shuffle {
            k: k.u32(SHUFFLE_K),
        },
        PatternKind::Ring => Pattern::Ring,
        PatternKind::Web => Pattern::Web,
        PatternKind::Hadoop => Pattern::Hadoop,
        PatternKind::Fast => Pattern::Fast {
            phase_ps: k.us(PHASE_US),
        },
    };
    if kind.poisson() && duration_ps.is_none() {
        return Err(k.err(
            run::DURATION_US,
            format!("workload.kind = \"{name}\" needs a duration (Poisson arrivals until then); allowed: a number of us > 0"),
        ));
    }
    let skew = k.opt_float(SKEW).unwrap_or(0.0);
    if skew > 1.0 {
        return Err(k.invalid(SKEW, &format!("from 0 to 1 for workload.kind = \"{name}\"")));
    }
    let Some(hosts_per_rack) = topology.hosts_per_rack() else {
        return Err(k.err(
            KIND,
            format!("workload.kind = \"{name}\" places flows by rack, and this fabric's edge switches have unlike numbers of hosts: allowed, the other workload kinds"),
        ));
    };
    // Long-lived patterns default to a millisecond of line rate: the schema's 1 MiB would
    // end before Fastroute's first mapping (110 us) at any rate above 80 Gb/s.
    let long_lived = kind.long_lived();
    let fill = k.opt_float(PHASE_FILL);
    let given = k.given(MESSAGE_BYTES);
    // Fast's flows are always sized by the phase (fill 1 by default): message_bytes does not
    // apply to it.
    let message_bytes = match (pattern.period_ps(), fill.or(kind.default_fill())) {
        (Some(period), Some(fill)) => {
            ((fill * period.bytes_at(rate_bps) as f64).round() as u64).max(1)
        }
        _ if long_lived && !given => (rate_bps as f64 * LONG_LIVED_DEFAULT_S / 8.0).round() as u64,
        _ => message_bytes,
    };
    let stride = k.opt_u32(STRIDE).unwrap_or(hosts_per_rack);
    if kind.strided() {
        distinct_peers(k, pattern, stride, topology.endpoints())?;
    }
    Ok(FastrouteWorkload {
        pattern,
        message_bytes,
        stride,
        hosts_per_rack,
        racks: topology.rack_order().map(Into::into),
        rate_bps,
        duration_ps,
        load: k.float(LOAD),
        intra_rack: k.opt_float(INTRA_RACK).unwrap_or(kind.default_intra_rack()),
        skew,
        cdf: cdf.filter(|_| kind.poisson()),
    })
}

/// Refuses a stride or shuffle whose peers are not distinct hosts other than the sender:
/// host i's peers i + j x `stride` mod `hosts` (j = 1..k, k = 1 for stride) come back to i
/// after `hosts / gcd(stride, hosts)` steps. A stride that is a multiple of the host count
/// (the default, hosts per rack, on a single switch) sends every flow to its own source.
fn distinct_peers(
    k: &Keys,
    pattern: Pattern,
    stride: u32,
    hosts: u64,
) -> Result<(), ScenarioError> {
    let (mut a, mut b) = (stride as u64, hosts);
    while b != 0 {
        (a, b) = (b, a % b);
    }
    let max_peers = hosts / a - 1;
    let name = pattern.name();
    if max_peers == 0 {
        let allowed = format!(
            "an integer from 1 to 2^20 that is not a multiple of the fabric's {hosts} hosts (1 to {} for a shorter hop): host i sends to i + stride mod {hosts}, so a multiple sends every flow to its own source",
            hosts - 1
        );
        return Err(if k.given(STRIDE) {
            k.invalid(STRIDE, &allowed)
        } else {
            k.err(
                STRIDE,
                format!("the default, hosts per rack ({stride}), is a multiple of the fabric's {hosts} hosts (one rack: a single switch), so every {name} flow would go from a host to itself; allowed: {allowed}"),
            )
        });
    }
    match pattern {
        Pattern::Shuffle { k: peers } if peers as u64 > max_peers => Err(k.invalid(
            SHUFFLE_K,
            &format!(
                "at most {max_peers}: host i's peers i + j x {stride} mod {hosts} (j = 1..k) return to i after {} steps, so more would repeat peers",
                max_peers + 1
            ),
        )),
        _ => Ok(()),
    }
}

/// A file key's path: as given (relative to the working directory) if it exists there, else
/// relative to the scenario file's directory if it exists there, else as given.
pub(super) fn find_file(file: &str, scenario_dir: Option<&std::path::Path>) -> std::path::PathBuf {
    let path = std::path::PathBuf::from(file);
    match scenario_dir {
        Some(dir) if !path.exists() && dir.join(file).exists() => dir.join(file),
        _ => path,
    }
}

/// `workload.cdf` as a run spec writes it: a shipped name as is, a file as [`path_value`].
pub fn cdf_value(v: &toml::Value, scenario_dir: Option<&std::path::Path>) -> toml::Value {
    match v.as_str() {
        Some(s) if BUILT_IN.iter().any(|(n, _)| *n == s) => v.clone(),
        _ => path_value(v, scenario_dir),
    }
}

/// A file key as a run spec writes it: the file's absolute path, so that a spec written
/// elsewhere finds it (also where the run does not read the key: every value is checked).
pub fn path_value(v: &toml::Value, scenario_dir: Option<&std::path::Path>) -> toml::Value {
    match v.as_str() {
        Some(s) => {
            let path = find_file(s, scenario_dir);
            let path = std::fs::canonicalize(&path).unwrap_or(path);
            toml::Value::String(path.display().to_string())
        }
        None => v.clone(),
    }
}

/// Reads and parses `workload.cdf`: a shipped distribution by name, else a file.
fn size_cdf(k: &Keys, scenario_dir: Option<&std::path::Path>) -> Result<SizeCdf, ScenarioError> {
    let key = CDF;
    let file = k.get(key).and_then(|v| v.as_str()).expect("checked path");
    if let Some(cdf) = SizeCdf::built_in(file) {
        return Ok(cdf);
    }
    let path = find_file(file, scenario_dir);
    let text = super::read_input(&path).map_err(|e| {
        let names: Vec<&str> = BUILT_IN.iter().map(|(n, _)| *n).collect();
        let mut m = format!(
            "cannot read flow-size CDF file {file:?}: {e}; allowed: a path or one of {}",
            names.join(", ")
        );
        if let Some(best) = super::keys::suggest(file, names) {
            m += &format!("; did you mean `{best}`?");
        }
        k.err(key, m)
    })?;
    SizeCdf::parse(&text).map_err(|e| k.err(key, format!("{file}: {e}")))
}

/// `workload.kind` htsim or hpcc: the workload of `workload.file` (`file`), which must be
/// of that kind's format.
fn file_workload(
    k: &Keys,
    kind: SimpleKind,
    file: Option<WorkloadSpec>,
) -> Result<WorkloadSpec, ScenarioError> {
    let name = kind.name();
    let spec = file.ok_or_else(|| {
        k.err(
            FILE,
            format!("workload.kind = \"{name}\" needs workload.file = PATH"),
        )
    })?;
    if spec.kind() == WorkloadKind::Simple(kind) {
        return Ok(spec);
    }
    let (is, other) = match spec {
        WorkloadSpec::Hpcc { .. } => ("an HPCC flow file (its first line is a flow count)", "hpcc"),
        _ => ("an htsim connection matrix", "htsim"),
    };
    Err(k.err(
        KIND,
        format!("workload.kind = \"{name}\", and workload.file is {is}; allowed: workload.kind = \"{other}\" for it"),
    ))
}

/// Whether `key` does not apply at a point of parameters `p` because its workload file is
/// HPCC's (whose start times are seconds): a run spec leaves out `workload.start_unit`'s
/// default, which would read back as given and be refused.
pub fn replaced_by_file(k: &Keys, key: &Key, p: &SimParams) -> bool {
    key == START_UNIT && !k.given(key) && matches!(p.workload, WorkloadSpec::Hpcc { .. })
}

/// Whether `text` is an HPCC flow file: its first line with anything on it starts with a
/// bare number (its flow count), as no htsim connection matrix does (its lines start with a
/// keyword, `#` or `SRC->DST`).
fn is_hpcc(text: &str) -> bool {
    let first = crate::engine::without_bom(text)
        .split_whitespace()
        .next()
        .unwrap_or("");
    !first.is_empty() && first.bytes().all(|b| b.is_ascii_digit())
}

/// Reads and parses `workload.file` (relative to the working directory, else to the scenario
/// file's directory) if given: an HPCC flow file or an htsim connection matrix, by its
/// content.
fn flow_file(
    k: &Keys,
    topology: &TopologySpec,
    scenario_dir: Option<&std::path::Path>,
) -> Result<Option<WorkloadSpec>, ScenarioError> {
    let key = FILE;
    let Some(file) = k.get(key).map(|v| v.as_str().expect("checked path")) else {
        return Ok(None);
    };
    let path = find_file(file, scenario_dir);
    let text = super::read_input(&path)
        .map_err(|e| k.err(key, format!("cannot read workload file {file:?}: {e}")))?;
    let resolved = std::fs::canonicalize(&path)
        .unwrap_or(path)
        .display()
        .to_string();
    if is_hpcc(&text) {
        if k.given(START_UNIT) {
            return Err(k.err(
                START_UNIT,
                format!("applies to htsim connection matrices, and workload.file {file:?} is an HPCC flow file (its start times are seconds): leave it out"),
            ));
        }
        let flows = HpccFlows::parse(&text, |id| node_host(topology, id))
            .map_err(|e| k.err(key, format!("{file}: {e}")))?;
        return Ok(Some(WorkloadSpec::Hpcc {
            file: resolved,
            flows,
        }));
    }
    let hosts = topology.endpoints();
    let unit = k.opt_choice(START_UNIT).unwrap_or(StartUnit::Us);
    let matrix = HtsimMatrix::parse(&text, unit).map_err(|e| k.err(key, format!("{file}: {e}")))?;
    if matrix.nodes as u64 > hosts {
        return Err(k.err(
            key,
            format!(
                "{file}: `Nodes {}` exceeds the fabric's {hosts} hosts",
                matrix.nodes
            ),
        ));
    }
    Ok(Some(WorkloadSpec::Htsim {
        file: resolved,
        matrix,
    }))
}

/// The host an HPCC flow file's node `id` names, or what is wrong with it (`got ...;
/// allowed: ...`): ids as the topology file numbers nodes (fabsim's: hosts first).
fn node_host(topology: &TopologySpec, id: u64) -> Result<u32, String> {
    let what = match topology.node(id) {
        Node::Host(h) => return Ok(h),
        Node::Switch => "a switch",
        Node::Absent => "no node of the fabric",
    };
    let hosts = topology.endpoints();
    let allowed = match topology {
        TopologySpec::Graph(t) if t.ids.is_some() => {
            format!("the node id of one of the {hosts} hosts, as topology.file numbers its nodes")
        }
        _ => format!("a host id 0 to {} (hosts are numbered first)", hosts - 1),
    };
    Err(format!("got {id} ({what}); allowed: {allowed}"))
}

#[cfg(test)]
mod tests {
    use super::super::Scenario;
    use super::*;

    /// The workload of the default scenario on a k = 4 fat tree (16 hosts) with `sets`.
    fn workload(sets: &[&str]) -> Result<WorkloadSpec, ScenarioError> {
        let mut s = Scenario::default_scenario();
        s.set("topology.k=4").unwrap();
        s.set("switch.lb=ecmp").unwrap();
        for set in sets {
            s.set(set).unwrap();
        }
        Ok(s.expand()?.remove(0).params.workload)
    }

    fn smallest_flow(w: &WorkloadSpec) -> u64 {
        w.flows(16, 1).iter().map(|f| f.bytes).min().unwrap()
    }

    #[test]
    fn the_flow_floor_is_the_smallest_flow_where_messages_split() {
        // Messages split over the peers (15 of 16 hosts) or a group's members.
        let split: [(&[&str], u64); 6] = [
            (&["workload.kind=all-to-all"], 15),
            (
                &["workload.kind=all-to-all", "workload.algorithm=direct"],
                16,
            ),
            (&["workload.kind=all-gather", "workload.group=0-7"], 8),
            (
                &[
                    "workload.kind=reduce-scatter",
                    "workload.algorithm=direct",
                    "workload.group=0-15:3",
                ],
                6,
            ),
            (&["workload.kind=all-reduce", "workload.steps=1"], 16),
            (&["workload.kind=all-to-all", "workload.group=4"], 4),
        ];
        for (sets, floor) in split {
            let at = |bytes: u64| {
                let m = format!("workload.message_bytes={bytes}");
                workload(&[sets, &[m.as_str()]].concat())
            };
            let w = at(floor).unwrap_or_else(|e| panic!("{sets:?}: {e}"));
            assert_eq!(w.min_flow_bytes(16), Some(floor), "{sets:?}");
            assert_eq!(
                smallest_flow(&w),
                1,
                "{sets:?}: one byte in the smallest flow"
            );
            let e = at(floor - 1).unwrap_err();
            assert_eq!(e.key, "workload.message_bytes", "{sets:?}");
            let says = format!(
                "invalid value {}; allowed: at least {floor} bytes",
                floor - 1
            );
            assert!(e.to_string().contains(&says), "{sets:?}: {e}");
            // One byte less would have made a flow of 0 bytes.
            let mut less = w.clone();
            match &mut less {
                WorkloadSpec::AllToAll { message_bytes, .. }
                | WorkloadSpec::Collective { message_bytes, .. } => *message_bytes -= 1,
                other => panic!("{other:?}"),
            }
            assert_eq!(smallest_flow(&less), 0, "{sets:?}");
        }
        // FSDP: the smallest unit (a block; the root, larger, without blocks) splits into a
        // shard per member of the group.
        let mut floors = Vec::new();
        for (part, layers) in [
            ("iteration", 1),
            ("iteration", 0),
            ("forward-block", 1),
            ("backward-block", 1),
        ] {
            let sets = [
                "workload.kind=fsdp",
                &format!("workload.layers={layers}"),
                "workload.group=0-7",
                &format!("workload.fsdp_part={part}"),
            ];
            let at = |scale: f64| {
                let s = format!("workload.size_scale={scale:e}");
                workload(&[&sets[..], &[s.as_str()]].concat())
            };
            let w = at(1e-6).unwrap();
            assert_eq!(w.min_flow_bytes(16), Some(8));
            let WorkloadSpec::Fsdp {
                model,
                part: p,
                layers,
                ..
            } = w
            else {
                panic!("{w:?}")
            };
            let floor = fsdp::min_scale(&model, p, layers, 8);
            assert_eq!(fsdp::smallest_unit_bytes(&model, p, layers, floor), 8);
            let below = floor.next_down();
            assert_eq!(fsdp::smallest_unit_bytes(&model, p, layers, below), 7);
            let w = at(floor).unwrap_or_else(|e| panic!("{part}: {e}"));
            assert_eq!(smallest_flow(&w), 1, "{part}");
            let e = at(below).unwrap_err();
            assert_eq!(e.key, "workload.size_scale", "{part}");
            let says = format!("allowed: at least {}:", fmt_num(floor));
            assert!(e.to_string().contains(&says), "{part}: {e}");
            let mut less = w.clone();
            if let WorkloadSpec::Fsdp { size_scale, .. } = &mut less {
                *size_scale = below;
            }
            assert_eq!(smallest_flow(&less), 0, "{part}");
            floors.push(floor);
        }
        assert!(floors[1] < floors[0], "the root is larger than a block");
        assert_eq!((floors[2], floors[3]), (floors[0], floors[0]));
        // Workloads that send a message whole, or give each flow a byte at least, take one
        // byte.
        for kind in ["permutation", "bipartite", "incast", "moe", "stride"] {
            let w = workload(&[&format!("workload.kind={kind}"), "workload.message_bytes=1"])
                .unwrap_or_else(|e| panic!("{kind}: {e}"));
            assert_eq!(w.min_flow_bytes(16), None, "{kind}");
            assert_eq!(smallest_flow(&w), 1, "{kind}");
        }
        let w = workload(&[
            "workload.kind=all-to-all",
            "workload.message_bytes=1",
            "workload.flow_bytes=1",
        ])
        .unwrap();
        assert_eq!((w.min_flow_bytes(16), smallest_flow(&w)), (None, 1));
    }
}

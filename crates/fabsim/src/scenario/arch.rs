//! `switch.*` multi-ASIC keys: the architecture, its port speed and Fastroute's circuit layer.

use portmap::{Constraints, Solver};

use super::keys::{
    fmt_num, int, keys, named, names, number, Key, Keys, Kind, Named, ScenarioError, MAX_BYTES,
};
use super::topology::EXPLICIT;
use crate::net::asic::{Arch, ArchParams, CircuitMode, CircuitParams, Controller, PortLayout};
use crate::net::TopologySpec;
use crate::theory::LinkModel;

named!(Arch, CircuitMode, PortLayout, Controller, HostCount);

/// Whether the controller's loop may run the solver: fast enough for every interval.
const fn in_controller(s: Solver) -> bool {
    match s {
        Solver::Greedy | Solver::GreedySelect | Solver::Exact => true,
        Solver::Hungarian | Solver::Rdc => false,
    }
}

const CONTROLLER_SOLVERS: usize = {
    let (mut n, mut i) = (0, 0);
    while i < Solver::ALL.len() {
        n += in_controller(Solver::ALL[i]) as usize;
        i += 1;
    }
    n
};

impl Named for Solver {
    /// The solvers fast enough for the controller's loop, in `Solver::ALL`'s order.
    const ALL: &'static [Self] = &{
        let mut out = [Solver::Greedy; CONTROLLER_SOLVERS];
        let (mut n, mut i) = (0, 0);
        while i < Solver::ALL.len() {
            if in_controller(Solver::ALL[i]) {
                out[n] = Solver::ALL[i];
                n += 1;
            }
            i += 1;
        }
        out
    };
    fn name(self) -> &'static str {
        Solver::name(self)
    }
}

named_enum! {
    /// How State-of-the-Art keeps its ports (`switch.host_count`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    enum HostCount {
        /// The same radix, slower ports.
        Fixed => "fixed",
        /// The same port speed, fewer ports and hosts (Fastroute A.2).
        Variable => "variable",
    }
}

keys! {
    ARCH: Key {
        name: "switch.arch",
        kind: Kind::Choice(names::<Arch>),
        default: Some("\"ideal\""),
        unit: "",
        meaning: "switch design: one ASIC (ideal) or several: non-blocking State-of-the-Art, oversubscribed, Fastroute",
    },
    ASICS: Key {
        name: "switch.asics",
        kind: int(2, portmap::MAX_ASICS as u64),
        default: Some("2"),
        unit: "",
        meaning: "ASICs per multi-ASIC switch (must divide every switch's port count)",
    },
    INTER_ASIC_OVERSUB: Key {
        name: "switch.inter_asic_oversub",
        kind: number(1.0, 1024.0),
        default: Some("2"),
        unit: "",
        meaning: "inter-ASIC capacity = port capacity / this (sota: 1)",
    },
    ASIC_CAPACITY_GBPS: Key {
        name: "switch.asic_capacity_gbps",
        kind: number(0.001, 1e7),
        default: None,
        unit: "Gb/s",
        meaning: "capacity of one ASIC, shared by its ports and internal links (default: what gives oversubscribed ports link.rate_gbps)",
    },
    HOST_COUNT: Key {
        name: "switch.host_count",
        kind: Kind::Choice(names::<HostCount>),
        default: Some("\"fixed\""),
        unit: "",
        meaning: "fixed: same radix, slower State-of-the-Art ports; variable (Fastroute A.2): same port speed, fewer State-of-the-Art ports and hosts",
    },
    RECONFIG_INTERVAL_US: Key {
        name: "switch.reconfig_interval_us",
        kind: number(0.1, 1e6),
        default: Some("100"),
        unit: "us",
        meaning: "fastroute: controller period",
    },
    COMPUTE_DELAY_US: Key {
        name: "switch.compute_delay_us",
        kind: number(0.0, 1e6),
        default: Some("10"),
        unit: "us",
        meaning: "fastroute: time from reading the traffic matrix to applying the mapping (below reconfig_interval_us)",
    },
    DOWNTIME_US: Key {
        name: "switch.downtime_us",
        kind: number(0.0, 1e6),
        default: Some("1"),
        unit: "us",
        meaning: "fastroute: a moved port is dark this long",
    },
    REMAP_MIN_GAIN: Key {
        name: "switch.remap_min_gain",
        kind: number(0.0, 1.0),
        default: Some("0"),
        unit: "",
        meaning: "fastroute: apply a new mapping only if it cuts the last interval's inter-ASIC bytes by at least this fraction of the current mapping's (hysteresis; 0: any reduction, as the paper's controller)",
    },
    SOLVER: Key {
        name: "switch.solver",
        kind: Kind::Choice(names::<Solver>),
        default: Some("\"greedy\""),
        unit: "",
        meaning: "fastroute: port-to-ASIC mapping solver (greedy: Listing 1 as written; greedy-select: its mapping by selections, faster; exact: transportation problem)",
    },
    BUNDLE: Key {
        name: "switch.bundle",
        kind: int(1, 1024),
        default: Some("1"),
        unit: "ports",
        meaning: "fastroute: ports moved together (bundle x asics x circuit_switches must divide every switch's port count)",
    },
    CIRCUIT_SWITCHES: Key {
        name: "switch.circuit_switches",
        kind: int(1, 1024),
        default: Some("1"),
        unit: "",
        meaning: "fastroute: independent circuit switches, each dealt an equal share of every ASIC's bundles",
    },
    CIRCUIT_MODE: Key {
        name: "switch.circuit_mode",
        kind: Kind::Choice(names::<CircuitMode>),
        default: Some("\"optical\""),
        unit: "",
        meaning: "fastroute: during downtime PAUSE the upstream sender (optical) or buffer at the switch (electrical)",
    },
    PORT_LAYOUT: Key {
        name: "switch.port_layout",
        kind: Kind::Choice(names::<PortLayout>),
        default: Some("\"blocks\""),
        unit: "",
        meaning: "multi-ASIC: ports on ASICs (egress, and ingress until Fastroute moves it): blocks (port l on ASIC l / (ports / asics); a leaf's hosts first, so with 2 ASICs all inter-rack traffic crosses and no intra-rack: the worst case for inter-rack traffic) or interleaved (port l on ASIC l mod asics: each ASIC an equal share of hosts and uplinks; needs switch.bundle = 1 with fastroute)",
    },
    CONTROLLER: Key {
        name: "switch.controller",
        kind: Kind::Choice(names::<Controller>),
        default: Some("\"dynamic\""),
        unit: "",
        meaning: "fastroute: dynamic (remap every interval, the paper's) or frozen (a switch keeps its first applied mapping: a control for re-configuration over time)",
    },
    INTER_ASIC_BUFFER_BYTES: Key {
        name: "switch.inter_asic_buffer_bytes",
        kind: int(1, MAX_BYTES),
        default: Some("300000"),
        unit: "bytes",
        meaning: "multi-ASIC: inter-ASIC buffer per 100 Gb/s of internal link rate (Table 1: 0.3 MB); the slowest internal link's must hold one data packet",
    },
    UTIL_SAMPLE_US: Key {
        name: "switch.util_sample_us",
        kind: number(0.1, 1e6),
        default: Some("10"),
        unit: "us",
        meaning: "multi-ASIC: period of the inter-ASIC utilization series",
    },
}

/// The smallest port speed a multi-ASIC design may leave (as `link.rate_gbps`'s minimum).
const MIN_PORT_BPS: f64 = 1e6;

/// The switch architecture and the port speed it leaves (Fastroute section 5.1, A.2: the ASIC
/// capacity is shared by the ports and the internal links; fixed port count).
pub fn parse(
    k: &Keys,
    topology: &TopologySpec,
    rate_bps: u64,
    packet_bytes: u64,
) -> Result<(ArchParams, u64), ScenarioError> {
    let kind: Arch = k.choice(ARCH);
    let asics = k.u32(ASICS);
    let oversub = k.float(INTER_ASIC_OVERSUB);
    let circuit = CircuitParams {
        interval_ps: k.us(RECONFIG_INTERVAL_US),
        compute_delay_ps: k.us(COMPUTE_DELAY_US),
        downtime_ps: k.us(DOWNTIME_US),
        solver: k.choice(SOLVER),
        mode: k.choice(CIRCUIT_MODE),
        constraints: Constraints {
            bundle: k.int(BUNDLE) as usize,
            circuit_switches: k.int(CIRCUIT_SWITCHES) as usize,
        },
        min_gain: k.float(REMAP_MIN_GAIN),
        controller: k.choice(CONTROLLER),
    };
    if circuit.compute_delay_ps >= circuit.interval_ps {
        return Err(k.invalid(COMPUTE_DELAY_US, "below switch.reconfig_interval_us"));
    }
    let sample_ps = k.us(UTIL_SAMPLE_US);
    let params = ArchParams {
        arch: kind,
        asics,
        oversub,
        layout: k.choice(PORT_LAYOUT),
        circuit: (kind == Arch::Fastroute).then_some(circuit),
        sample_ps,
        buffer_per_100g: k.int(INTER_ASIC_BUFFER_BYTES),
    };
    if kind == Arch::Ideal {
        // One ASIC: the multi-ASIC keys do not apply, so runs that differ only in them are
        // the same run (a sweep simulates it once).
        let ideal = ArchParams {
            asics: 1,
            oversub: 1.0,
            layout: PortLayout::Blocks,
            buffer_per_100g: 0,
            ..params
        };
        return Ok((ideal, rate_bps));
    }
    // Every switch splits evenly over the ASICs; the radix is the leaves' (edges') port count.
    let (radix, other) = topology.radixes();
    if radix % asics != 0 || other % asics != 0 {
        return Err(k.invalid(
            ASICS,
            &format!("a divisor of the switches' port counts ({radix}, {other})"),
        ));
    }
    if let Some(c) = &params.circuit {
        if params.layout == PortLayout::Interleaved && c.constraints.bundle > 1 {
            return Err(k.invalid(
                BUNDLE,
                "1 with switch.port_layout = \"interleaved\" (it puts consecutive ports on different ASICs, so a bundle could not move as one)",
            ));
        }
        for ports in [radix, other] {
            if let Err(e) = c.constraints.check(ports as usize, asics as usize) {
                let key = if c.constraints.bundle > 1 {
                    BUNDLE
                } else {
                    CIRCUIT_SWITCHES
                };
                return Err(k.invalid(key, &format!("{e} (switches with {ports} ports)")));
            }
        }
    }
    let per_asic = (radix / asics) as f64;
    let capacity_bps = k.opt_float(ASIC_CAPACITY_GBPS).map_or(
        per_asic * rate_bps as f64 * (1.0 + Arch::Oversubscribed.internal_share(oversub)),
        |gbps| gbps * 1e9,
    );
    let port = kind.port_rate_bps(capacity_bps, per_asic, oversub).round();
    if port < MIN_PORT_BPS {
        return Err(k.invalid(
            ASIC_CAPACITY_GBPS,
            &format!("enough for ports of at least 1 Mb/s ({port} b/s here)"),
        ));
    }
    // The slowest inter-ASIC link (of the switches with fewer ports) must buffer one data
    // packet, as `net::asic` sizes its buffer (a smaller one drops every packet).
    let slowest =
        ((radix.min(other) / asics) as f64 * port * kind.internal_share(oversub)).round() as u128;
    if slowest > 0
        && slowest * params.buffer_per_100g as u128 / 100_000_000_000 < packet_bytes as u128
    {
        let least = (packet_bytes as u128 * 100_000_000_000).div_ceil(slowest);
        return Err(k.invalid(
            INTER_ASIC_BUFFER_BYTES,
            &format!(
                "at least {least} bytes: the slowest inter-ASIC link ({} Gb/s) gets this per 100 Gb/s, and must hold one {packet_bytes}-byte data packet",
                fmt_num(slowest as f64 / 1e9)
            ),
        ));
    }
    Ok((params, port as u64))
}

/// `switch.host_count`: `fixed` (the paper's default: every design keeps the radix, so
/// State-of-the-Art's ports slow down) or `variable` (Fastroute A.2: ports keep the link
/// speed and State-of-the-Art's switches get fewer of them, rounded down to a multiple of
/// 2 x asics; the fabric shrinks with them).
pub fn host_count(
    k: &Keys,
    topology: TopologySpec,
    link: LinkModel,
    port_rate_bps: u64,
    asics: u32,
) -> Result<(TopologySpec, LinkModel), ScenarioError> {
    let variable = k.choice::<HostCount>(HOST_COUNT) == HostCount::Variable;
    if !variable || port_rate_bps >= link.rate_bps {
        let link = LinkModel {
            rate_bps: port_rate_bps,
            ..link
        };
        return Ok((topology, link));
    }
    if let Some(key) = EXPLICIT.iter().find(|key| k.get(key).is_some()) {
        return Err(k.err(
            key,
            "switch.host_count = \"variable\" derives the fabric from topology.k; leave the explicit leaf-spine keys out",
        ));
    }
    // The spines' port count (the leaf count), or k.
    let radix = topology.radixes().1;
    let unit = 2 * asics;
    let scaled = (radix as u128 * port_rate_bps as u128 / link.rate_bps as u128) as u32;
    let radix = (scaled / unit * unit).max(unit);
    let topology = match topology {
        TopologySpec::FatTree { .. } => TopologySpec::FatTree { k: radix },
        TopologySpec::LeafSpine { .. } => TopologySpec::LeafSpine {
            leaves: radix,
            hosts_per_leaf: radix / 2,
            uplinks: radix / 2,
        },
        TopologySpec::Graph(_) => {
            return Err(k.err(
                HOST_COUNT,
                "switch.host_count = \"variable\" derives the fabric from topology.k; a fabric given as a graph (topology.file, topology.layout) keeps its own: allowed, \"fixed\"",
            ))
        }
    };
    Ok((topology, link))
}

//! Multi-ASIC switches (Fastroute paper sections 2-3 and 5.1, Table 1).
//!
//! Every switch of the fabric is built the same way (`switch.arch`):
//! - `ideal`: one big ASIC; the simulator takes no detour (this module is not even built).
//! - `sota`: `n` ASICs with a non-blocking inter-ASIC link (n = 2) or fabric (n > 2). The
//!   ASIC capacity that goes to the internal links is missing from the ports: same port
//!   count, slower ports (paper A.2, "fixed radix").
//! - `oversubscribed`: the internal capacity is cut by `inter_asic_oversub`; the ports keep
//!   the Ideal switch's speed.
//! - `fastroute`: oversubscribed plus the circuit-switched indirection layer: every
//!   `reconfig_interval` the controller reads the ingress-port x egress-ASIC byte counts of
//!   the last interval, calls [`portmap::solve`], and applies the mapping `compute_delay`
//!   later; each moved ingress port is dark for `downtime`.
//!
//! A switch with `P` ports has `P/n` ports per ASIC. Egress port `e` belongs to a fixed ASIC
//! (`switch.port_layout`: `e / (P/n)`, contiguous blocks, by default; `e mod n`
//! interleaved). Ingress port `p` enters the ASIC of egress `p` until the controller moves
//! it (`switch.controller`: every interval, or only once per switch).
//! A packet whose egress is on another ASIC first crosses an internal port: for n = 2 the
//! direct link from its ASIC to the other one; for n > 2 its ASIC's uplink into the fabric,
//! then the fabric's downlink to the egress ASIC. Each internal port is a FIFO like the
//! fabric's ports (serializer, 10 ns delay, `switch.inter_asic_buffer_bytes` of buffer per
//! 100 Gb/s of its rate, 0.3 MB by default).
//!
//! Moved ports and ordering. The packets of a moved port that reach it while it is dark, or
//! while earlier held packets still wait, enter a per-port hold FIFO (drained at link rate).
//! It opens at the end of the downtime, or later if a packet that entered through this port
//! before the move is still crossing to its egress ASIC: a packet entering the new ASIC
//! could otherwise reach the egress before it (the paper's "last packet before
//! reconfiguration" marking, as a barrier). Optical mode also PAUSEs the upstream sender
//! for the downtime (no new packet reaches the dark port; those already committed to the
//! wire land in the hold FIFO, as in a PFC headroom buffer). Electrical mode does not
//! pause: the circuit switch buffers everything that arrives meanwhile. Nothing is lost in
//! either mode.

use std::collections::VecDeque;

use portmap::{Constraints, Solver, TmView, Workspace};

use super::{Backlog, Fabric, Ports};
use crate::engine::Time;

/// Inter-ASIC link / fabric delay (paper Table 1).
pub const INTER_ASIC_DELAY_PS: Time = Time::from_ns(10);

named_enum! {
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Arch {
        Ideal => "ideal",
        Sota => "sota",
        Oversubscribed => "oversubscribed",
        Fastroute => "fastroute",
    }
}

impl Arch {
    /// Internal capacity over port capacity, per ASIC: 1 (non-blocking) for State-of-the-Art,
    /// `1 / oversub` for the oversubscribed designs.
    pub fn internal_share(self, oversub: f64) -> f64 {
        match self {
            Arch::Sota => 1.0,
            Arch::Ideal | Arch::Oversubscribed | Arch::Fastroute => 1.0 / oversub,
        }
    }

    /// Port speed of a switch whose ASICs have `asic_capacity_bps` each for `ports_per_asic`
    /// ports: the ASIC capacity is split between the ports and the internal link(s).
    pub fn port_rate_bps(self, asic_capacity_bps: f64, ports_per_asic: f64, oversub: f64) -> f64 {
        asic_capacity_bps / (ports_per_asic * (1.0 + self.internal_share(oversub)))
    }
}

named_enum! {
    /// How a moved port spends its downtime.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum CircuitMode {
        /// Optical circuit switch: PAUSE the upstream sender (lossless).
        Optical => "optical",
        /// Electrical circuit switch: buffer at the switch.
        Electrical => "electrical",
    }
}

named_enum! {
    /// Which ASIC holds each local port's egress (and its ingress in the static mapping).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum PortLayout {
        /// Contiguous blocks: port `l` on ASIC `l / (P/n)`. A leaf's host ports come first,
        /// so with 2 ASICs every inter-rack packet crosses and no intra-rack one: the worst
        /// case for inter-rack traffic.
        Blocks => "blocks",
        /// Port `l` on ASIC `l mod n`: every ASIC holds an equal share of host ports and
        /// uplinks.
        Interleaved => "interleaved",
    }
}

impl PortLayout {
    /// The ASIC of local port `l` of a switch with `ports` ports on `n` ASICs.
    pub fn asic(self, l: u32, ports: u32, n: u32) -> u32 {
        match self {
            PortLayout::Blocks => l / (ports / n),
            PortLayout::Interleaved => l % n,
        }
    }
}

named_enum! {
    /// When Fastroute's controller may reconfigure a switch.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Controller {
        /// Every interval (the paper's controller).
        Dynamic => "dynamic",
        /// Once: a switch's first applied mapping is kept for the rest of the run.
        Frozen => "frozen",
    }
}

/// The circuit layer's parameters (Fastroute).
#[derive(Clone, Debug, PartialEq)]
pub struct CircuitParams {
    pub interval_ps: Time,
    pub compute_delay_ps: Time,
    pub downtime_ps: Time,
    pub solver: Solver,
    pub mode: CircuitMode,
    /// Port bundles and independent circuit switches (paper A.1, 3.1, 6.3).
    pub constraints: Constraints,
    /// A new mapping is applied only if it lowers the last interval's inter-ASIC bytes by at
    /// least this fraction of the current mapping's (0: any reduction, the paper's controller).
    pub min_gain: f64,
    pub controller: Controller,
}

/// A multi-ASIC switch design, validated.
#[derive(Clone, Debug, PartialEq)]
pub struct ArchParams {
    pub arch: Arch,
    pub asics: u32,
    pub oversub: f64,
    pub layout: PortLayout,
    /// Fastroute only.
    pub circuit: Option<CircuitParams>,
    /// Sampling period of the inter-ASIC utilization series.
    pub sample_ps: Time,
    /// Inter-ASIC buffer bytes per 100 Gb/s of internal link rate (paper Table 1: 0.3 MB).
    pub buffer_per_100g: u64,
}

impl ArchParams {
    /// Time to drain a full inter-ASIC buffer (`None` for the single-ASIC ideal switch):
    /// the buffer scales with the internal link rate, so it drains in the same time at any.
    pub fn drain_ps(&self) -> Option<Time> {
        (self.arch != Arch::Ideal).then(|| Time::to_send(self.buffer_per_100g, 100_000_000_000))
    }
}

/// What a packet does after its egress port is chosen (`L`: the internal links a build
/// has).
pub enum Hop<L = Link> {
    /// Same ASIC: straight to the egress port.
    Direct,
    /// Into this internal link first.
    Internal(L),
}

/// An inter-ASIC link (n = 2) or a fabric uplink from an ASIC / downlink to it (n > 2):
/// port `idx` of switch `sw`'s internal ports, `id` in the wire array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Link {
    pub id: u32,
    sw: u32,
    idx: u32,
}

/// What an internal port (global id `base + i`) is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Internal {
    Link(Link),
    /// Hold FIFO of the switch port with this global id.
    Hold {
        port: u32,
    },
}

/// Run-time state of every multi-ASIC switch.
pub struct Asics {
    pub p: ArchParams,
    /// First internal port id (= the fabric's port count).
    pub base: u32,
    n: u32,
    /// Per switch: first port, first internal link index, its link ports.
    port_base: Vec<u32>,
    link_first: Vec<u32>,
    pub links: Vec<Ports>,
    link_buffer_bytes: Vec<u64>,
    /// Per internal port (by `id - base`): what it is, and per link port the queued packets'
    /// (egress port, ingress port) in FIFO order.
    kinds: Vec<Internal>,
    side: Vec<VecDeque<(u32, u32)>>,
    /// Per switch port (global id): egress ASIC (`switch.port_layout`), ingress ASIC,
    /// owning switch, the port feeding it.
    home: Vec<u8>,
    mapping: Vec<u8>,
    owner: Vec<u32>,
    feeder: Vec<u32>,
    /// Fastroute: per switch port, bytes to each egress ASIC this interval (row-major); the
    /// last arrival time at the egress ASIC of a packet that crossed from it; hold FIFOs.
    tm: Vec<u64>,
    crossing_until: Vec<Time>,
    pub hold: Ports,
    hold_first: u32,
    /// Per switch port: its hold FIFO may be busy or hold packets (set when a packet enters
    /// it or the port moves, cleared once seen idle): the arrival path reads this byte
    /// instead of the FIFO's state, which is almost always idle.
    hold_live: Vec<bool>,
    /// Per switch: the mapping computed by the controller, waiting for its apply time; with
    /// the frozen controller, whether one was applied (the switch is not solved again).
    pending: Vec<Option<Vec<usize>>>,
    frozen: Vec<bool>,
    ws: Workspace,
    solved: Vec<usize>,
    pub stats: AsicStats,
}

/// The switch's local ports in the order `portmap` sees them: circuit switch by circuit
/// switch, each a contiguous block there. `home` gives each local port's ASIC; each ASIC's
/// ports, in front-panel order, form its bundles, dealt round robin over the circuit
/// switches (with blocks: circuit switch `c` takes bundles `c, c + C, ...` of the front
/// panel), so every circuit switch holds the same share of each ASIC's ports and the static
/// mapping (port `l` on the ASIC of egress `l`) is valid. A bundle is `b` consecutive ports
/// on one ASIC: the scenario refuses layouts that split them.
fn circuit_order(home: &[u8], n: usize, k: &Constraints) -> Vec<usize> {
    let (b, cs) = (k.bundle, k.circuit_switches);
    let by_asic: Vec<Vec<usize>> = (0..n)
        .map(|a| (0..home.len()).filter(|&l| home[l] as usize == a).collect())
        .collect();
    (0..cs)
        .flat_map(|c| {
            by_asic
                .iter()
                .flat_map(move |ports| ports.chunks(b).skip(c).step_by(cs).flatten().copied())
        })
        .collect()
}

/// Counters for reports.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AsicStats {
    /// Bytes that crossed to another ASIC (counted once per packet).
    pub inter_asic_bytes: u64,
    /// Per sampling period: inter-ASIC bytes.
    pub series_bytes: Vec<u64>,
    /// Sum over switches of the inter-ASIC capacity leaving the ASICs, bits per second.
    pub capacity_bps: f64,
    /// Switch reconfigurations applied (a switch with at least one moved port).
    pub reconfigurations: u64,
    pub ports_moved: u64,
    /// Total time moved ports held their packets (downtime plus ordering barrier).
    pub dark_ps: Time,
    /// Packets that went through a hold FIFO.
    pub held_packets: u64,
    /// Packets dropped by a full inter-ASIC buffer (data trimmed there is not counted).
    pub drops: u64,
}

impl AsicStats {
    /// Adds the counts of another partition's switches (the capacity is the whole
    /// fabric's in both).
    pub fn absorb(&mut self, o: &AsicStats) {
        self.inter_asic_bytes += o.inter_asic_bytes;
        if self.series_bytes.len() < o.series_bytes.len() {
            self.series_bytes.resize(o.series_bytes.len(), 0);
        }
        for (a, b) in self.series_bytes.iter_mut().zip(&o.series_bytes) {
            *a += b;
        }
        self.reconfigurations += o.reconfigurations;
        self.ports_moved += o.ports_moved;
        self.dark_ps += o.dark_ps;
        self.held_packets += o.held_packets;
        self.drops += o.drops;
    }
}

impl Asics {
    /// The multi-ASIC state of `fabric`'s switches; `None` for `ideal`.
    pub fn new(p: &ArchParams, fabric: &Fabric, rate_bps: u64) -> Option<Self> {
        if p.arch == Arch::Ideal {
            return None;
        }
        let n = p.asics;
        let base = fabric.ports() as u32;
        let share = p.arch.internal_share(p.oversub);
        let mut kinds = Vec::new();
        let mut port_base = Vec::new();
        let (mut link_first, mut links, mut link_buffer_bytes) =
            (Vec::new(), Vec::new(), Vec::new());
        let mut owner = vec![u32::MAX; fabric.ports()];
        let mut home = vec![0u8; fabric.ports()];
        let mut capacity_bps = 0.0;
        for (sw, info) in fabric.switches.iter().enumerate() {
            let pa = info.ports / n;
            let link_bps = (pa as f64 * rate_bps as f64 * share).round() as u64;
            capacity_bps += n as f64 * link_bps as f64;
            port_base.push(info.port_base);
            link_first.push(kinds.len() as u32);
            let count = if n == 2 { 2 } else { 2 * n };
            for idx in 0..count {
                let id = base + kinds.len() as u32;
                kinds.push(Internal::Link(Link {
                    id,
                    sw: sw as u32,
                    idx,
                }));
            }
            links.push(Ports::new(count as usize, link_bps, INTER_ASIC_DELAY_PS));
            link_buffer_bytes
                .push((link_bps as u128 * p.buffer_per_100g as u128 / 100_000_000_000) as u64);
            for l in 0..info.ports {
                owner[(info.port_base + l) as usize] = sw as u32;
                home[(info.port_base + l) as usize] = p.layout.asic(l, info.ports, n) as u8;
            }
        }
        let mut feeder = vec![u32::MAX; fabric.ports()];
        for (g, &node) in fabric.port_to_node.iter().enumerate() {
            if node >= fabric.hosts {
                let info = fabric.switches[fabric.switch_of(node) as usize];
                feeder[(info.port_base + fabric.port_to_local[g]) as usize] = g as u32;
            }
        }
        let hold_first = kinds.len() as u32;
        let circuit = p.circuit.is_some();
        if circuit {
            kinds.extend((0..fabric.ports() as u32).map(|port| Internal::Hold { port }));
        }
        let side = vec![VecDeque::new(); hold_first as usize];
        let ports = fabric.ports();
        Some(Self {
            p: p.clone(),
            base,
            n,
            port_base,
            link_first,
            links,
            link_buffer_bytes,
            kinds,
            side,
            mapping: home.clone(),
            home,
            owner,
            feeder,
            tm: if circuit {
                vec![0; ports * n as usize]
            } else {
                Vec::new()
            },
            crossing_until: if circuit {
                vec![Time::ZERO; ports]
            } else {
                Vec::new()
            },
            hold: Ports::new(if circuit { ports } else { 0 }, rate_bps, Time::ZERO),
            hold_first,
            hold_live: vec![false; if circuit { ports } else { 0 }],
            pending: vec![None; fabric.switches.len()],
            frozen: vec![false; fabric.switches.len()],
            ws: Workspace::new(),
            solved: Vec::new(),
            stats: AsicStats {
                capacity_bps,
                ..AsicStats::default()
            },
        })
    }

    /// The internal ports, by `id - base` (they follow the fabric's ports in the wire
    /// array).
    pub fn internal_kinds(&self) -> &[Internal] {
        &self.kinds
    }

    /// The hold FIFO of switch port `gin`: its global id and whether it is busy at `now`
    /// (dark, or draining); `None` without a circuit layer, or while it is known idle and
    /// empty.
    #[inline]
    pub fn hold_of(&self, gin: u32, now: Time) -> Option<(u32, bool)> {
        if !*self.hold_live.get(gin as usize)? {
            return None;
        }
        let id = self.base + self.hold_first + gin;
        Some((id, self.hold.stats[gin as usize].busy_until > now))
    }

    /// A packet of `bytes` finished crossing between ASICs at `now` (the inter-ASIC bytes and
    /// their time series count what crossed, not what was offered).
    #[inline]
    pub fn count_crossed(&mut self, bytes: u32, now: Time) {
        self.stats.inter_asic_bytes += bytes as u64;
        let bucket = (now / self.p.sample_ps) as usize;
        if self.stats.series_bytes.len() <= bucket {
            self.stats.series_bytes.resize(bucket + 1, 0);
        }
        self.stats.series_bytes[bucket] += bytes as u64;
    }

    /// The switch of switch port `g` and its local index.
    pub fn owner(&self, g: u32) -> (u32, u32) {
        let sw = self.owner[g as usize];
        (sw, g - self.port_base[sw as usize])
    }

    /// A packet of `bytes` entered switch `sw` at port `gin` (global) for egress `gout`:
    /// counts it for the controller and says whether it must cross ASICs.
    #[inline]
    pub fn route(&mut self, sw: u32, gin: u32, gout: u32, bytes: u32) -> Hop {
        let to = self.home[gout as usize] as u32;
        if !self.tm.is_empty() {
            self.tm[(gin * self.n + to) as usize] += bytes as u64;
        }
        let from = self.mapping[gin as usize] as u32;
        if from == to {
            return Hop::Direct;
        }
        Hop::Internal(Link {
            id: self.base + self.link_first[sw as usize] + from,
            sw,
            idx: from,
        })
    }

    /// Offers a crossing packet to internal link `l` (`bounded`: subject to the
    /// inter-ASIC buffer); returns its arrival time at the far end, or `None` if the buffer
    /// is full. The ECN backlog is read by the caller from [`Self::link_backlog`].
    pub fn enqueue_link(
        &mut self,
        l: Link,
        gin: u32,
        gout: u32,
        bytes: u32,
        now: Time,
        bounded: bool,
    ) -> Option<Time> {
        let ports = &mut self.links[l.sw as usize];
        let limit = bounded.then_some(self.link_buffer_bytes[l.sw as usize]);
        match ports.enqueue(l.idx, bytes, now, limit) {
            super::Enqueue::Arrives(t) => {
                self.side[(l.id - self.base) as usize].push_back((gout, gin));
                if !self.crossing_until.is_empty() {
                    let c = &mut self.crossing_until[gin as usize];
                    *c = (*c).max(t);
                }
                Some(t)
            }
            super::Enqueue::Overflow => None,
        }
    }

    pub fn link_backlog(&self, l: Link, now: Time) -> Backlog {
        self.links[l.sw as usize].backlog(l.idx, now)
    }

    /// A packet reached the far end of link `l`: returns (egress port, ingress port) and,
    /// for a fabric uplink (n > 2), the fabric downlink it continues on.
    pub fn link_arrival(&mut self, l: Link) -> (u32, u32, Option<Link>) {
        let (gout, gin) = self.side[(l.id - self.base) as usize]
            .pop_front()
            .expect("a link arrival has its packet's ports");
        let next = (self.n > 2 && l.idx < self.n).then(|| {
            let idx = self.n + self.home[gout as usize] as u32;
            Link {
                id: l.id - l.idx + idx,
                idx,
                ..l
            }
        });
        (gout, gin, next)
    }

    /// The hold FIFO of `gin` was seen idle and empty.
    pub fn hold_idle(&mut self, gin: u32) {
        self.hold_live[gin as usize] = false;
    }

    /// Arrival of the first bit of a packet of `bytes` in the hold FIFO of `gin`.
    pub fn enqueue_hold(&mut self, gin: u32, bytes: u32, now: Time) -> Time {
        self.stats.held_packets += 1;
        self.hold_live[gin as usize] = true;
        match self.hold.enqueue(gin, bytes, now, None) {
            super::Enqueue::Arrives(t) => t,
            super::Enqueue::Overflow => unreachable!("hold FIFOs are unbounded"),
        }
    }

    /// The controller, every interval: solves each switch's traffic matrix of the last
    /// interval and keeps the mappings that lower its inter-ASIC bytes (by at least
    /// `min_gain` of the current mapping's), to be applied after the compute delay. Only
    /// the switches `mine` names (a partition's), and under the frozen controller only those
    /// not yet reconfigured. Returns whether any switch has a pending mapping.
    pub fn control(
        &mut self,
        c: &CircuitParams,
        fabric: &Fabric,
        mine: impl Fn(usize) -> bool,
    ) -> bool {
        let n = self.n as usize;
        let mut any = false;
        let (mut current, mut rows) = (Vec::new(), Vec::new());
        for (sw, info) in fabric.switches.iter().enumerate() {
            if !mine(sw) || self.frozen[sw] {
                continue;
            }
            let a = info.port_base as usize;
            let home = &self.home[a..a + info.ports as usize];
            let order = circuit_order(home, n, &c.constraints);
            rows.clear();
            for &l in &order {
                rows.extend_from_slice(&self.tm[(a + l) * n..(a + l + 1) * n]);
            }
            let view = TmView::new(info.ports as usize, n, &rows)
                .expect("switch ports are a multiple of the ASIC count, counts far below 2^52");
            portmap::solve(
                view,
                &c.constraints,
                c.solver,
                &mut self.ws,
                &mut self.solved,
            )
            .expect("the scenario checked the constraints against every switch");
            current.clear();
            current.extend(order.iter().map(|&l| self.mapping[a + l] as usize));
            let (solved, kept) = (
                portmap::inter_asic_bytes(view, &self.solved),
                portmap::inter_asic_bytes(view, &current),
            );
            if solved < kept && (kept - solved) as f64 >= c.min_gain * kept as f64 {
                let mut new = vec![0; order.len()];
                for (&l, &asic) in order.iter().zip(&self.solved) {
                    new[l] = asic;
                }
                self.pending[sw] = Some(new);
                any = true;
            }
        }
        self.tm.fill(0);
        any
    }

    /// Applies the pending mappings at `now` (only switches [`Asics::control`] was given
    /// have one). Moved ports go dark for the downtime; `pause` gets each PAUSEd upstream
    /// port with the time its sender may resume.
    pub fn apply(
        &mut self,
        c: &CircuitParams,
        fabric: &Fabric,
        now: Time,
        mut pause: impl FnMut(u32, Time),
    ) {
        for (sw, info) in fabric.switches.iter().enumerate() {
            let Some(new) = self.pending[sw].take() else {
                continue;
            };
            let mut moved = 0;
            for (l, &a) in new.iter().enumerate() {
                let g = info.port_base as usize + l;
                if self.mapping[g] as usize == a {
                    continue;
                }
                moved += 1;
                self.mapping[g] = a as u8;
                let open = (now + c.downtime_ps).max(self.crossing_until[g]);
                self.hold_live[g] = true;
                let busy = &mut self.hold.stats[g].busy_until;
                let held_from = (*busy).max(now);
                *busy = (*busy).max(open);
                self.stats.dark_ps += open.saturating_sub(held_from);
                if c.mode == CircuitMode::Optical {
                    pause(self.feeder[g], now + c.downtime_ps);
                }
            }
            if moved > 0 {
                self.frozen[sw] = c.controller == Controller::Frozen;
                self.stats.reconfigurations += 1;
                self.stats.ports_moved += moved;
            }
        }
    }

    /// Closes the port statistics of the internal ports.
    pub fn finish(&mut self, end: Time) {
        for l in &mut self.links {
            l.finish(end);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn home(layout: PortLayout, ports: u32, n: u32) -> Vec<u8> {
        (0..ports).map(|l| layout.asic(l, ports, n) as u8).collect()
    }

    /// With blocks, circuit switch `c` takes bundles `c, c + C, ...` of the front panel.
    #[test]
    fn blocks_deal_front_panel_bundles_round_robin() {
        let k = Constraints {
            bundle: 2,
            circuit_switches: 2,
        };
        let order = circuit_order(&home(PortLayout::Blocks, 16, 2), 2, &k);
        let expect = [0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15];
        assert_eq!(order, expect);
    }

    /// Interleaved with as many circuit switches as ASICs: circuit switch `c` does not take
    /// every `C`-th port (all on one ASIC) but each ASIC's share, so the static mapping is
    /// valid for the solver.
    #[test]
    fn interleaved_circuit_switches_hold_every_asic_equally() {
        let (ports, n) = (16, 2);
        let home = home(PortLayout::Interleaved, ports, n);
        assert_eq!(&home[..4], &[0, 1, 0, 1]);
        let k = Constraints {
            bundle: 1,
            circuit_switches: 2,
        };
        let order = circuit_order(&home, n as usize, &k);
        let mut sorted = order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..ports as usize).collect::<Vec<_>>());
        for block in order.chunks(8) {
            let on0 = block.iter().filter(|&&l| home[l] == 0).count();
            assert_eq!(on0, 4, "{order:?}");
        }
    }
}

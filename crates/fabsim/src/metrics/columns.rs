//! The output contract: every column of a run's row, in order, with its unit and how it is
//! read from a [`RunReport`]. This one list writes the CSV header and rows (`fabsim sweep
//! merge`, `fabsim reproduce`'s results.csv) and gives the typed handles ([`Col`]) the
//! reproduce claims and plots read columns by, so a misspelt column does not compile. A
//! unit test checks that it names every field of the JSON report (`fabsim run --json`).
//!
//! To add a metric: add the field to [`RunReport`] (its JSON name), fill it in
//! `metrics::report`, and add one row to `columns!` below (new columns go last, so existing
//! CSV columns keep their positions).

use std::borrow::Borrow;

use super::{FlowRecord, RunReport, TraceRecord};

/// A column, by name. Report columns are the constants of this module; [`Stages::at`] names
/// one per-stage column; [`Col::key`] a swept scenario key (e.g. `workload.load`), which
/// the results table holds for the keys a sweep varies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Col(&'static str);

impl Col {
    /// A scenario key `section.key`, present in a results table when a sweep varies it.
    pub const fn key(name: &'static str) -> Col {
        Col(name)
    }

    /// A column computed from the report columns by `fabsim reproduce` (e.g. `scheme`).
    pub const fn derived(name: &'static str) -> Col {
        Col(name)
    }

    pub const fn name(self) -> &'static str {
        self.0
    }
}

/// A per-stage family of columns: `NAME.STAGE` for every stage present in any report
/// (`edge-up`, ..., and `all`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stages(&'static str);

impl Stages {
    pub const fn name(self) -> &'static str {
        self.0
    }
}

/// A stage of a per-stage family, as the reports spell it (3-tier names; the constants of
/// [`stage`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StageName(&'static str);

/// The stages claims read.
pub mod stage {
    use super::StageName;

    pub const ALL: StageName = StageName("all");
    pub const HOST_UP: StageName = StageName("host-up");
    pub const EDGE_UP: StageName = StageName("edge-up");
    pub const AGG_UP: StageName = StageName("agg-up");
    pub const EDGE_DOWN: StageName = StageName("edge-down");
    pub const AGG_DOWN: StageName = StageName("agg-down");
    pub const CORE_DOWN: StageName = StageName("core-down");
}

/// How a column's cells are read from a row (a [`RunReport`], or a [`FlowRecord`]).
pub enum Getter<R: 'static = RunReport> {
    /// One cell (empty when the row has no value).
    One(fn(&R) -> Option<String>),
    /// One cell per stage name.
    PerStage(fn(&R) -> Vec<(&str, String)>),
}

impl<R> Clone for Getter<R> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<R> Copy for Getter<R> {}

/// One entry of [`COLUMNS`] (or [`FLOW_COLUMNS`]).
pub struct Column<R: 'static = RunReport> {
    pub name: &'static str,
    pub unit: &'static str,
    pub get: Getter<R>,
}

impl<R> Clone for Column<R> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<R> Copy for Column<R> {}

fn text<T: ToString>(x: T) -> Option<String> {
    Some(x.to_string())
}

fn opt<T: ToString>(x: Option<T>) -> Option<String> {
    x.map(|v| v.to_string())
}

fn cells<T: ToString>(m: &std::collections::BTreeMap<String, T>) -> Vec<(&str, String)> {
    m.iter().map(|(k, v)| (k.as_str(), v.to_string())).collect()
}

/// `columns! { HANDLE "name" "unit" getter; ... }`: the handles and [`COLUMNS`], in order.
macro_rules! columns {
    ($($handle:ident : $kind:ident $name:literal $unit:literal $get:expr;)*) => {
        $(columns!(@handle $handle $kind $name);)*
        /// Every report column in CSV order.
        pub const COLUMNS: &[Column] = &[$(Column {
            name: $name,
            unit: $unit,
            get: columns!(@get $kind $get),
        }),*];
    };
    (@handle $handle:ident One $name:literal) => { pub const $handle: Col = Col($name); };
    (@handle $handle:ident PerStage $name:literal) => { pub const $handle: Stages = Stages($name); };
    (@get One $get:expr) => { Getter::One($get) };
    (@get PerStage $get:expr) => { Getter::PerStage($get) };
}

columns! {
    LB: One "lb" "" |r| text(&r.lb);
    HOST_LB: One "host_lb" "" |r| text(&r.host_lb);
    CC: One "cc" "" |r| text(&r.cc);
    WORKLOAD: One "workload" "" |r| text(&r.workload);
    SEED: One "seed" "" |r| text(r.seed);
    MESSAGE_BYTES: One "message_bytes" "B" |r| text(r.message_bytes);
    HOSTS: One "hosts" "" |r| text(r.hosts);
    CCT_US: One "cct_us" "µs" |r| opt(r.cct_us);
    LOWER_BOUND_US: One "lower_bound_us" "µs" |r| opt(r.lower_bound_us);
    CCT_INFLATION: One "cct_inflation" "fraction" |r| opt(r.cct_inflation);
    MAX_QUEUE_BYTES: PerStage "max_queue_bytes" "B" |r| cells(&r.max_queue_bytes);
    MEAN_QUEUE_BYTES: PerStage "mean_queue_bytes" "B" |r| cells(&r.mean_queue_bytes);
    UTILIZATION: PerStage "utilization" "fraction" |r| cells(&r.utilization);
    DROPS: One "drops" "packets" |r| text(r.drops);
    TRIMS: One "trims" "packets" |r| text(r.trims);
    RETRANSMITS: One "retransmits" "packets" |r| text(r.retransmits);
    TIMEOUTS: One "timeouts" "" |r| text(r.timeouts);
    DUPLICATES: One "duplicates" "packets" |r| text(r.duplicates);
    ECN_MARKS: One "ecn_marks" "packets" |r| text(r.ecn_marks);
    FLOWS_COMPLETED: One "flows_completed" "" |r| text(r.flows_completed);
    FLOWS_TOTAL: One "flows_total" "" |r| text(r.flows_total);
    FCT_MEAN_US: One "fct_mean_us" "µs" |r| opt(r.fct_mean_us);
    FCT_P99_US: One "fct_p99_us" "µs" |r| opt(r.fct_p99_us);
    EVENTS: One "events" "" |r| text(r.events);
    PACKET_HOPS: One "packet_hops" "" |r| text(r.packet_hops);
    // Empty cells when the run did not go through the combining pipeline.
    COMBINING_PIPELINE_WIDTH: One "combining.pipeline_width" "" |r| opt(r.combining.map(|c| c.pipeline_width));
    COMBINING_STEPS: One "combining.steps" "" |r| opt(r.combining.map(|c| c.steps));
    COMBINING_CYCLES: One "combining.cycles" "" |r| opt(r.combining.map(|c| c.cycles));
    COMBINING_MAX_CYCLE: One "combining.max_cycle" "" |r| opt(r.combining.map(|c| c.max_cycle));
    COMBINING_COMBINED: One "combining.combined" "" |r| opt(r.combining.map(|c| c.combined));
    PERF_WALL_S: One "perf.wall_s" "s" |r| text(r.perf.wall_s);
    PERF_PACKET_HOPS_PER_S: One "perf.packet_hops_per_s" "1/s" |r| text(r.perf.packet_hops_per_s);
    PERF_PARTITIONS: One "perf.partitions" "" |r| text(r.perf.partitions);
    REORDERED: One "reordered" "packets" |r| text(r.reordered);
    FCT_P50_US: One "fct_p50_us" "µs" |r| opt(r.fct_p50_us);
    MEAN_THROUGHPUT_GBPS: One "mean_throughput_gbps" "Gb/s" |r| opt(r.mean_throughput_gbps);
    ARCH: One "arch" "" |r| text(&r.arch);
    PORT_GBPS: One "port_gbps" "Gb/s" |r| text(r.port_gbps);
    INTER_ASIC_BYTES: One "inter_asic_bytes" "B" |r| text(r.inter_asic_bytes);
    INTER_ASIC_DROPS: One "inter_asic_drops" "packets" |r| text(r.inter_asic_drops);
    RECONFIGURATIONS: One "reconfigurations" "" |r| text(r.reconfigurations);
    PORTS_MOVED: One "ports_moved" "" |r| text(r.ports_moved);
    DARK_US: One "dark_us" "µs" |r| text(r.dark_us);
    PHASE_DONE_PCT: One "phase_done_pct" "%" |r| opt(r.phase_done_pct);
    THRP_BY_START: PerStage "thrp_by_start" "Gb/s" |r| cells(&r.thrp_by_start);
    FLOWS_BY_START: PerStage "flows_by_start" "" |r| cells(&r.flows_by_start);
    THRP_COMPLETED_GBPS: One "thrp_completed_gbps" "Gb/s" |r| opt(r.thrp_completed_gbps);
    THRP_INTER_RACK_GBPS: One "thrp_inter_rack_gbps" "Gb/s" |r| opt(r.thrp_inter_rack_gbps);
    THRP_INTRA_RACK_GBPS: One "thrp_intra_rack_gbps" "Gb/s" |r| opt(r.thrp_intra_rack_gbps);
    GOODPUT_GBPS: One "goodput_gbps" "Gb/s" |r| opt(r.goodput_gbps);
    GOODPUT_LATE_GBPS: One "goodput_late_gbps" "Gb/s" |r| opt(r.goodput_late_gbps);
    OFFERED_GBPS: One "offered_gbps" "Gb/s" |r| opt(r.offered_gbps);
    // Empty cells without PFC.
    PFC_PAUSES_SENT: One "pfc.pauses_sent" "frames" |r| opt(r.pfc.map(|p| p.pauses_sent));
    PFC_RESUMES_SENT: One "pfc.resumes_sent" "frames" |r| opt(r.pfc.map(|p| p.resumes_sent));
    PFC_PAUSES_RECEIVED: One "pfc.pauses_received" "frames" |r| opt(r.pfc.map(|p| p.pauses_received));
    PFC_RESUMES_RECEIVED: One "pfc.resumes_received" "frames" |r| opt(r.pfc.map(|p| p.resumes_received));
    PFC_PAUSED_US: One "pfc.paused_us" "µs" |r| opt(r.pfc.map(|p| p.paused_us));
    PFC_MAX_PORT_PAUSED_US: One "pfc.max_port_paused_us" "µs" |r| opt(r.pfc.map(|p| p.max_port_paused_us));
    PFC_HEADROOM_DROPS: One "pfc.headroom_drops" "packets" |r| opt(r.pfc.map(|p| p.headroom_drops));
}

/// Every column of a per-flow row (`fabsim run --flows`, the Python package's flow
/// table), in CSV order. Times are µs from the run's time 0; empty cells: the flow did not
/// start or did not complete, or belongs to no collective.
pub const FLOW_COLUMNS: &[Column<FlowRecord>] = &[
    one("seed", "", |f| text(f.seed)),
    one("flow", "", |f| text(f.flow)),
    one("src", "host", |f| text(f.src)),
    one("dst", "host", |f| text(f.dst)),
    one("size_bytes", "B", |f| text(f.size_bytes)),
    one("start_us", "µs", |f| opt(f.start_us)),
    one("finish_us", "µs", |f| opt(f.finish_us)),
    one("fct_us", "µs", |f| opt(f.fct_us)),
    one("ideal_fct_us", "µs", |f| text(f.ideal_fct_us)),
    one("slowdown", "", |f| opt(f.slowdown)),
    one("retransmits", "packets", |f| text(f.retransmits)),
    one("timeouts", "", |f| text(f.timeouts)),
    one("collective", "", |f| f.collective.clone()),
    one("step", "", |f| opt(f.step)),
];

/// Every column of a trace row (`fabsim run --trace`), in CSV order.
pub const TRACE_COLUMNS: &[Column<TraceRecord>] = &[
    one("seed", "", |t| text(t.seed)),
    one("time_us", "µs", |t| text(t.time_us)),
    one("port", "", |t| text(t.port)),
    one("stage", "", |t| text(t.stage)),
    one("queue_bytes", "B", |t| text(t.queue_bytes)),
    one("utilization", "fraction", |t| text(t.utilization)),
    one("from_node", "", |t| text(t.from_node)),
    one("to_node", "", |t| text(t.to_node)),
    one("pfc_paused", "", |t| text(t.pfc_paused)),
];

/// A column of one cell per row (flow and trace rows).
const fn one<T>(
    name: &'static str,
    unit: &'static str,
    get: fn(&T) -> Option<String>,
) -> Column<T> {
    Column {
        name,
        unit,
        get: Getter::One(get),
    }
}

/// Lays out rows as a table: the header, then one row each, every cell text. The first
/// column is `index` (each row's run index), then the swept keys (`labels[run]`, the same
/// keys for every run), then `columns`, per-stage families widened to every stage any row
/// has (an empty cell where a row lacks one). `emit` receives the header first, then each
/// row; the CSV writers and the Python package's tables are built on it. Rows may be
/// borrowed or made as they are read (a [`super::FlowTable`]'s).
pub fn table<R, B: Borrow<R>>(
    index: &str,
    columns: &[Column<R>],
    labels: &[Vec<(String, String)>],
    rows: impl Iterator<Item = (usize, B)> + Clone,
    mut emit: impl FnMut(&[String]),
) {
    let families: Vec<Vec<String>> = columns
        .iter()
        .map(|c| {
            let Getter::PerStage(get) = c.get else {
                return vec![];
            };
            let mut set = std::collections::BTreeSet::new();
            for (_, r) in rows.clone() {
                set.extend(get(r.borrow()).into_iter().map(|x| x.0.to_string()));
            }
            set.into_iter().collect()
        })
        .collect();
    let mut cells: Vec<String> = vec![index.into()];
    cells.extend(labels.first().into_iter().flatten().map(|(k, _)| k.clone()));
    for (c, st) in columns.iter().zip(&families) {
        match c.get {
            Getter::One(_) => cells.push(c.name.into()),
            Getter::PerStage(_) => cells.extend(st.iter().map(|s| format!("{}.{s}", c.name))),
        }
    }
    emit(&cells);
    for (i, r) in rows {
        let r = r.borrow();
        cells.clear();
        cells.push(i.to_string());
        cells.extend(labels[i].iter().map(|(_, v)| v.clone()));
        for (c, st) in columns.iter().zip(&families) {
            match c.get {
                Getter::One(get) => cells.push(get(r).unwrap_or_default()),
                Getter::PerStage(get) => {
                    let have = get(r);
                    cells.extend(st.iter().map(|s| {
                        let cell = have.iter().find(|(k, _)| k == s);
                        cell.map_or(String::new(), |x| x.1.clone())
                    }));
                }
            }
        }
        emit(&cells);
    }
}

impl Stages {
    /// The column of stage `stage`.
    pub const fn at(self, stage: StageName) -> StageCol {
        StageCol(self, stage)
    }
}

/// One column of a per-stage family: `NAME.STAGE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StageCol(Stages, StageName);

/// Anything that names a column of a results table.
pub trait ColumnName: Copy {
    fn column(&self) -> std::borrow::Cow<'static, str>;
}

impl ColumnName for Col {
    fn column(&self) -> std::borrow::Cow<'static, str> {
        self.0.into()
    }
}

impl ColumnName for StageCol {
    fn column(&self) -> std::borrow::Cow<'static, str> {
        format!("{}.{}", self.0 .0, self.1 .0).into()
    }
}

/// Fields of the JSON report that are not CSV columns: lists, nested maps and optional
/// extras (read them from `fabsim run --json`).
pub const JSON_ONLY: &[&str] = &[
    "fct_by_size",
    "inter_asic_util",
    "inter_asic_sample_us",
    "collectives",
    "rho_max",
    "failed_links",
    "deployment",
    "stalled",
    "pfc_ports",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stage_names_are_the_reports() {
        use crate::net::Stage;
        let names: Vec<&str> = Stage::ALL.iter().map(|st| st.name(3)).collect();
        let ours = [
            stage::HOST_UP,
            stage::EDGE_UP,
            stage::AGG_UP,
            stage::EDGE_DOWN,
            stage::AGG_DOWN,
            stage::CORE_DOWN,
        ];
        assert!(ours.iter().all(|s| names.contains(&s.0)), "{names:?}");
    }
}

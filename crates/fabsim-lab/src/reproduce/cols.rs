//! The columns claims and plots read, as typed handles (a misspelt handle does not
//! compile): the report columns of `fabsim::metrics::columns`, the columns `reproduce` adds,
//! the swept scenario keys ([`key`]; a test checks each is swept by some experiment), and
//! the columns of the computed (non-simulation) tables.

pub use fabsim::metrics::columns::*;

/// The sweep a row comes from (its name in the experiment).
pub const SWEEP: Col = Col::derived("sweep");
/// The load-balancing scheme as the papers name it (`4ofan` = pOfan with 4-port pipes).
pub const SCHEME: Col = Col::derived("scheme");
/// The Fastroute paper's metric, "the mean throughput normalized to the throughput of the
/// Ideal architecture", as Netbench's analysis computes mean throughput (the mean of size x 8
/// / FCT over the completed flows, `thrp_completed_gbps`), in percent of the matching Ideal
/// run's: the primary reading of every Fastroute throughput claim.
pub const THRP_PCT: Col = Col::derived("thrp_pct");
/// Readings beside it, each in percent of the matching Ideal run's: fabsim's former metric
/// (every started flow, unfinished ones with the bytes acknowledged), aggregate goodput, and
/// Netbench's metric over the flows between racks and inside one.
pub const THRP_ALL_PCT: Col = Col::derived("thrp_all_pct");
pub const GOODPUT_PCT: Col = Col::derived("goodput_pct");
pub const THRP_INTER_PCT: Col = Col::derived("thrp_inter_pct");
pub const THRP_INTRA_PCT: Col = Col::derived("thrp_intra_pct");
/// Each normalized column and the report column it normalizes.
pub const NORMALIZED: &[(Col, Col)] = &[
    (THRP_PCT, THRP_COMPLETED_GBPS),
    (THRP_ALL_PCT, MEAN_THROUGHPUT_GBPS),
    (GOODPUT_PCT, GOODPUT_GBPS),
    (THRP_INTER_PCT, THRP_INTER_RACK_GBPS),
    (THRP_INTRA_PCT, THRP_INTRA_RACK_GBPS),
];
/// Poisson arrivals: what the point's Ideal runs delivered over the second half of the run
/// in percent of what arrived (mean over seeds), and whether that is a steady state (at least
/// [`STEADY_DELIVERED_PCT`]): `yes` or `no`; empty for other workloads.
pub const IDEAL_DELIVERED_PCT: Col = Col::derived("ideal_delivered_pct");
pub const IDEAL_STEADY: Col = Col::derived("ideal_steady");
/// A queue in a steady state delivers what arrives; an overloaded one falls behind for good.
/// Ideal's stable points deliver 97.5-105% of their arrivals over a run's second half
/// (--quick web, loads 0.2-0.7, 2 and 6 ms, 2 seeds: the heavy-tailed sizes make what arrives
/// in a window vary); twice that shortfall, 5%, marks an overload.
pub const STEADY_DELIVERED_PCT: f64 = 95.0;

macro_rules! keys {
    ($($handle:ident $name:literal),* $(,)?) => {
        $(pub const $handle: super::Col = super::Col::key($name);)*
        /// Every handle of this module.
        #[cfg(test)]
        pub const ALL: &[super::Col] = &[$($handle),*];
    };
}

/// Swept scenario keys (a results table has a column for each key its sweeps vary).
pub mod key {
    keys! {
        PIPE_PORTS "switch.pipe_ports",
        ARCH "switch.arch",
        ASICS "switch.asics",
        INTER_ASIC_OVERSUB "switch.inter_asic_oversub",
        CIRCUIT_SWITCHES "switch.circuit_switches",
        INTER_ASIC_BUFFER_BYTES "switch.inter_asic_buffer_bytes",
        HOST_COUNT "switch.host_count",
        DOWNTIME_US "switch.downtime_us",
        BUNDLE "switch.bundle",
        PAYLOAD_BYTES "packet.payload_bytes",
        LINKS "failures.links",
        BALANCE "workload.balance",
        LOAD "workload.load",
        INTRA_RACK "workload.intra_rack",
        PHASE_US "workload.phase_us",
        SKEW "workload.skew",
        DCTCP_RULES "host.dctcp_rules",
        FSDP_PART "workload.fsdp_part",
    }
}

/// Columns of the computed tables (power model, solver timings, Fig. 10's series).
pub mod computed {
    use super::Col;

    pub const ASICS: Col = Col::derived("asics");
    pub const QUANTITY: Col = Col::derived("quantity");
    pub const VALUE: Col = Col::derived("value");
    pub const SOLVER: Col = Col::derived("solver");
    pub const PORTS: Col = Col::derived("ports");
    pub const TM: Col = Col::derived("tm");
    pub const RUNTIME_US: Col = Col::derived("runtime_us");
    /// A solve's elementary operations (`portmap::Workspace::ops`): machine-independent.
    pub const OPS: Col = Col::derived("ops");
    pub const INTER_ASIC_BYTES: Col = Col::derived("inter_asic_bytes");
    pub const GAP_PCT: Col = Col::derived("gap_pct");
    pub const BUNDLE: Col = Col::derived("bundle");
    pub const OPTIMAL_SHARE_PCT: Col = Col::derived("optimal_share_pct");
    pub const STATIC_SHARE_PCT: Col = Col::derived("static_share_pct");
    pub const HUNGARIAN_US: Col = Col::derived("hungarian_us");
    pub const HUNGARIAN_OPS: Col = Col::derived("hungarian_ops");
    pub const TIME_US: Col = Col::derived("time_us");
    pub const UTIL_PCT: Col = Col::derived("util_pct");

    /// A header of these columns.
    pub fn header(cols: &[Col]) -> Vec<String> {
        cols.iter().map(|c| c.name().to_string()).collect()
    }
}

//! Per-port time series of a run (`fabsim run --trace`): every fabric port every
//! `trace.interval_us`, its queue and its utilization over the interval before the sample.

use serde::{Deserialize, Serialize};

use crate::params::SimParams;
use crate::sim::RunOutcome;

/// One port at one sample time.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TraceRecord {
    pub seed: u64,
    /// The sample time, µs from the run's time 0.
    pub time_us: f64,
    /// The port's index (`Fabric` order: host NICs first, then each switch's ports).
    pub port: u32,
    /// Its link stage, as the reports name them (`host-up`, `edge-up`, ...).
    pub stage: &'static str,
    /// The nodes it leaves and leads to, as the fabric's topology file numbers them
    /// ([`crate::net::TopologySpec::node_id`]).
    pub from_node: u64,
    pub to_node: u64,
    /// Bytes not yet on the wire (the untransmitted part of the packet in service included).
    pub queue_bytes: u64,
    /// Fraction of the interval the link spent serializing.
    pub utilization: f64,
    /// 1 if a PFC PAUSE holds the port at the sample time, else 0.
    pub pfc_paused: u8,
}

/// The samples of a traced run, in time then port order.
pub fn trace_records(params: &SimParams, o: &RunOutcome) -> Vec<TraceRecord> {
    let interval = params.run.trace_interval_ps.as_ps_f64();
    o.trace
        .iter()
        .map(|s| {
            let (from, to) = o.fabric.port_ends(s.port);
            let (from_node, to_node) = (params.topology.node_id(from), params.topology.node_id(to));
            TraceRecord {
                seed: params.run.seed,
                time_us: s.time.as_us_f64(),
                port: s.port,
                stage: o.fabric.port_stage[s.port as usize].name(o.fabric.tiers),
                from_node,
                to_node,
                queue_bytes: s.queue_bytes,
                utilization: s.served_ps.as_ps_f64() / interval,
                pfc_paused: s.paused as u8,
            }
        })
        .collect()
}

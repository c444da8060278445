//! Per-flow rows of a run (`fabsim run --flows`, the Python package's flow table): what each
//! flow was, when it started and finished, and its slowdown against the ideal FCT.
//!
//! The ideal FCT of a flow is its completion time alone on an idle fabric, the same model
//! as the dependency bounds ([`flow_time_ps`] + [`ack_return_ps`]): every packet (payload +
//! header) serialized back to back at the link rate, then the last one's propagation over
//! the first link and, store and forward, its serialization and propagation at each of the
//! other `hops - 1` links, then its ACK serialized and carried back over `hops` links the
//! same way. `slowdown = fct / ideal` (1 on an idle path).

use serde::{Deserialize, Serialize};

use crate::params::SimParams;
use crate::sim::RunOutcome;
use crate::theory::{ack_return_ps, flow_time_ps};

/// One flow of one run. Times are µs from the run's time 0.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FlowRecord {
    pub seed: u64,
    /// Its index in the workload's flow list.
    pub flow: u32,
    pub src: u32,
    pub dst: u32,
    pub size_bytes: u64,
    /// When it became ready to send (`None`: it never started, e.g. its gates never fired
    /// or the run stopped first).
    pub start_us: Option<f64>,
    /// When its last ACK arrived, and `finish - start` (`None`: it did not complete).
    pub finish_us: Option<f64>,
    pub fct_us: Option<f64>,
    pub ideal_fct_us: f64,
    pub slowdown: Option<f64>,
    /// Data packets it resent, and its retransmission timeouts.
    pub retransmits: u32,
    pub timeouts: u32,
    /// The collective it belongs to and the step in it (collective workloads, FSDP, MoE).
    pub collective: Option<String>,
    pub step: Option<u32>,
}

/// The flows of a finished run, in workload order.
pub fn flow_records(params: &SimParams, o: &RunOutcome) -> Vec<FlowRecord> {
    let mut place: Vec<Option<(u32, u32)>> = vec![None; o.flows.len()];
    for (c, coll) in o.collectives.iter().enumerate() {
        for (s, step) in coll.steps.iter().enumerate() {
            for f in step.clone() {
                place[f as usize] = Some((c as u32, s as u32));
            }
        }
    }
    o.flows
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let hops = o.fabric.hops(f.src, f.dst);
            let ideal =
                flow_time_ps(&params.link, f.bytes, hops) + ack_return_ps(&params.link, hops);
            let fct = o.fct_ps(i);
            FlowRecord {
                seed: params.run.seed,
                flow: i as u32,
                src: f.src,
                dst: f.dst,
                size_bytes: f.bytes,
                start_us: o.results[i].start_ps().map(|t| t.as_us_f64()),
                finish_us: o.results[i].finish_ps().map(|t| t.as_us_f64()),
                fct_us: fct.map(|t| t.as_us_f64()),
                ideal_fct_us: ideal.as_us_f64(),
                slowdown: fct.map(|t| t.as_ps_f64() / ideal.as_ps_f64()),
                retransmits: o.results[i].retransmits,
                timeouts: o.results[i].timeouts,
                collective: place[i].map(|(c, _)| o.collectives[c as usize].name.clone()),
                step: place[i].map(|(_, s)| s),
            }
        })
        .collect()
}

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
use crate::sim::{FlowResult, RunOutcome};
use crate::theory::{ack_return_ps, flow_time_ps, LinkModel};
use crate::workload::FlowSpec;

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

/// The flows of a finished run, in workload order, as the run left them: each row is made
/// when it is read ([`FlowTable::records`]), so a run's table holds no more than its
/// outcome's per-flow results (a 4.75 M-flow run's rows would be 650 MiB, its table is
/// what the run already held).
#[derive(Clone, Debug)]
pub struct FlowTable {
    seed: u64,
    link: LinkModel,
    flows: Vec<FlowSpec>,
    results: Vec<FlowResult>,
    /// Links on each flow's path.
    hops: Vec<u8>,
    /// Each flow's collective and step in it (empty without collectives).
    place: Vec<Option<(u32, u32)>>,
    collectives: Vec<String>,
}

impl FlowTable {
    /// The table of a finished run (which it takes its flows and results from).
    pub fn new(params: &SimParams, o: RunOutcome) -> Self {
        let mut place: Vec<Option<(u32, u32)>> = vec![];
        if !o.collectives.is_empty() {
            place = vec![None; o.flows.len()];
            for (c, coll) in o.collectives.iter().enumerate() {
                for (s, step) in coll.steps.iter().enumerate() {
                    for f in step.clone() {
                        place[f as usize] = Some((c as u32, s as u32));
                    }
                }
            }
        }
        let hops = (o.flows.iter())
            .map(|f| u8::try_from(o.fabric.hops(f.src, f.dst)).expect("paths under 256 links"))
            .collect();
        FlowTable {
            seed: params.run.seed,
            link: params.link,
            hops,
            place,
            collectives: o.collectives.into_iter().map(|c| c.name).collect(),
            flows: o.flows,
            results: o.results,
        }
    }

    pub fn len(&self) -> usize {
        self.flows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.flows.is_empty()
    }

    /// Flow `i`'s row.
    pub fn record(&self, i: usize) -> FlowRecord {
        let (f, r) = (&self.flows[i], &self.results[i]);
        let hops = u32::from(self.hops[i]);
        let ideal = flow_time_ps(&self.link, f.bytes, hops) + ack_return_ps(&self.link, hops);
        let fct = r.fct_ps();
        let place = self.place.get(i).copied().flatten();
        FlowRecord {
            seed: self.seed,
            flow: i as u32,
            src: f.src,
            dst: f.dst,
            size_bytes: f.bytes,
            start_us: r.start_ps().map(|t| t.as_us_f64()),
            finish_us: r.finish_ps().map(|t| t.as_us_f64()),
            fct_us: fct.map(|t| t.as_us_f64()),
            ideal_fct_us: ideal.as_us_f64(),
            slowdown: fct.map(|t| t.as_ps_f64() / ideal.as_ps_f64()),
            retransmits: r.retransmits,
            timeouts: r.timeouts,
            collective: place.map(|(c, _)| self.collectives[c as usize].clone()),
            step: place.map(|(_, s)| s),
        }
    }

    /// Every row, in workload order.
    pub fn records(&self) -> impl Iterator<Item = FlowRecord> + Clone + '_ {
        (0..self.len()).map(|i| self.record(i))
    }
}

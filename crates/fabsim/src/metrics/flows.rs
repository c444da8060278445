//! Per-flow rows of a run (`fabsim run --flows`, the Python package's flow table): what each
//! flow was, when it started and finished, and its slowdown against the ideal FCT.
//!
//! The ideal FCT of a flow is its completion time alone on an idle fabric, the same model
//! as the dependency bounds ([`flow_time_ps`] + [`ack_return_ps`]): every packet (payload +
//! header) serialized back to back at the link rate, then the last one's propagation over
//! the first link and, store and forward, its serialization and propagation at each of the
//! other `hops - 1` links, then its ACK serialized and carried back over `hops` links the
//! same way. `slowdown = fct / ideal` (1 on an idle path).
//!
//! [`FlowTable::hpcc_fct`] writes the same flows as HPCC's ns-3 `fct.txt`, with its
//! "standalone" FCT in place of the ideal one.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::engine::Time;
use crate::flow::hpcc;
use crate::net::Fabric;
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
    /// The fabric the flows crossed (their paths' links).
    fabric: Fabric,
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
        FlowTable {
            seed: params.run.seed,
            link: params.link,
            fabric: o.fabric,
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
        let hops = self.fabric.hops(f.src, f.dst);
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

/// `bytes` serialized at `rate_bps`, in whole nanoseconds (truncated).
fn ser_ns(bytes: u64, rate_bps: u64) -> u64 {
    (bytes as u128 * 8_000_000_000 / rate_bps as u128) as u64
}

impl FlowTable {
    /// HPCC's standalone FCT of flow `i`, in ns: its pair's base RTT (twice the path's
    /// propagation delay plus one full payload serialized at every link of the path) plus
    /// its bytes with a header per packet serialized at the path's slowest link, each
    /// serialization truncated to whole nanoseconds as HPCC does.
    fn standalone_ns(&self, i: usize) -> u64 {
        let (f, link) = (&self.flows[i], &self.link);
        let path = self.fabric.first_path(f.src, f.dst);
        let rates = path.iter().map(|&p| self.fabric.port_rate_bps(p));
        let bottleneck = rates.clone().min().expect("a path has links");
        let tx: u64 = rates.map(|r| ser_ns(link.payload_bytes as u64, r)).sum();
        let delay = self.fabric.delay_ps * (2 * path.len() as u64);
        let total = f.bytes + link.packets(f.bytes) * link.header_bytes as u64;
        delay.ps() / 1000 + tx + ser_ns(total, bottleneck)
    }

    /// The run as HPCC's ns-3 `fct.txt` (`params`: the run's): one line per completed flow,
    /// in the order they completed (ties by flow index), `sip dip sport dport size start_ns
    /// fct_ns standalone_fct_ns`. The addresses are HPCC's of the hosts' node ids in the
    /// topology file (`TopologySpec::node_id`), in 8 hex digits; source ports count from
    /// 10000 per (sender, receiver) pair in flow order; destination ports are an HPCC flow
    /// file's, else 100; times are truncated to nanoseconds. `run`: appended to every line
    /// as a ninth column.
    pub fn hpcc_fct(&self, params: &SimParams, run: Option<usize>) -> String {
        let sports = hpcc::sports(&self.flows);
        let dport = |i: usize| params.workload.hpcc_dport(i);
        let mut done: Vec<(Time, usize)> = (self.results.iter().enumerate())
            .filter_map(|(i, r)| Some((r.finish_ps()?, i)))
            .collect();
        done.sort_unstable();
        let ip = |host| hpcc::ip(params.topology.node_id(host));
        let mut out = String::with_capacity(done.len() * 64);
        for (finish, i) in done {
            let (f, r) = (&self.flows[i], &self.results[i]);
            let start = r.start_ps().expect("a completed flow started");
            let _ = write!(
                out,
                "{:08x} {:08x} {} {} {} {} {} {}",
                ip(f.src),
                ip(f.dst),
                sports[i],
                dport(i),
                f.bytes,
                start.ps() / 1000,
                (finish - start).ps() / 1000,
                self.standalone_ns(i)
            );
            if let Some(run) = run {
                let _ = write!(out, " {run}");
            }
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// HPCC's addresses of node ids: the example's hosts 1 to 3, and ids past 255.
    #[test]
    fn hpcc_addresses_carry_the_node_id_in_their_middle_bytes() {
        let got: Vec<String> = [1, 3, 255, 256, 65535]
            .map(|id| format!("{:08x}", hpcc::ip(id)))
            .to_vec();
        let want = ["0b000101", "0b000301", "0b00ff01", "0b010001", "0bffff01"];
        assert_eq!(got, want);
        // Its decoding, (ip >> 8) & 0xffff, returns the id.
        for id in [0, 1, 77, 300, 65535] {
            assert_eq!(u64::from((hpcc::ip(id) >> 8) & 0xffff), id);
        }
    }
}

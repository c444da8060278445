//! `fabsim run`: scenarios in, a table or JSON out.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use clap::Args;
use fabsim::metrics::stats::mean_sd;
use fabsim::metrics::{run_name, sweep_warnings, Extras, RunReport, RunResult};
use fabsim::net::asic::Arch;
use fabsim::net::TopologySpec;
use fabsim::params::TRACE_FULL;
use fabsim::scenario::RunSpec;
use fabsim::workload::WorkloadSpec;

use fabsim_lab::output::{check_outputs, RunsText};
use fabsim_lab::report_csv;
use fabsim_lab::runs::check_memory;
use fabsim_lab::runs::{load, run_all, runs_json};
use fabsim_lab::{write_output, Error};

#[derive(Args)]
pub struct RunArgs {
    /// Scenario file (TOML). Without it: the built-in default (Ofan Fig. 1).
    pub scenario: Option<PathBuf>,
    /// Override a scenario key, e.g. `--set switch.lb=ofan,ecmp` (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// Write the runs as JSON to PATH (`-` for stdout; the table then goes to stderr).
    #[arg(long, value_name = "PATH")]
    pub json: Option<PathBuf>,
    /// Write one CSV row per flow of every run to PATH (`-` for stdout): the run's index
    /// (as in `--json`), the swept keys, then seed, flow, src, dst, size_bytes, start_us,
    /// finish_us, fct_us, ideal_fct_us, slowdown, retransmits, timeouts, collective, step.
    #[arg(long, value_name = "PATH")]
    pub flows: Option<PathBuf>,
    /// Write the completed flows as HPCC's ns-3 fct.txt to PATH (`-` for stdout), one line
    /// each in the order they completed: sip dip sport dport size start_ns fct_ns
    /// standalone_fct_ns (HPCC's addresses of the topology file's node ids, in hex). With
    /// several runs, one file: the runs in order, each line ending with the run's index.
    #[arg(long, value_name = "PATH")]
    pub fct: Option<PathBuf>,
    /// Write every fabric port's queue and utilization every `trace.interval_us` (default 10)
    /// to PATH (CSV; `-` for stdout): the run's index, the swept keys, then seed, time_us,
    /// port, stage, queue_bytes, utilization, from_node, to_node (the nodes at the port's
    /// ends, as the topology file numbers them, or `fabsim topology --export`), pfc_paused
    /// (1 while a PFC PAUSE holds the port).
    #[arg(long, value_name = "PATH")]
    pub trace: Option<PathBuf>,
    /// Worker threads for sweeps (default: all cores; at most 1024).
    #[arg(long, value_parser = crate::jobs_parser())]
    pub jobs: Option<usize>,
    /// Threads of each run (`run.threads`): its fabric is cut into this many partitions
    /// simulated in parallel; the output is byte-identical for every count.
    #[arg(long, value_name = "N")]
    pub threads: Option<u32>,
}

pub fn run(args: &RunArgs) -> Result<(), Error> {
    let mut sets = args.set.clone();
    sets.extend(args.threads.map(|t| format!("run.threads={t}")));
    let specs = load(args.scenario.as_ref(), &sets)?;
    check_run_outputs(args, &specs)?;
    check_run_memory(args, &specs)?;
    // What runs and how long it took go to stderr: stdout (table or JSON) stays the result.
    eprintln!("fabsim run: {}", describe(&specs));
    let start = std::time::Instant::now();
    let extras = Extras {
        flows: args.flows.is_some() || args.fct.is_some(),
        trace: args.trace.is_some(),
    };
    let labels: Vec<_> = specs.iter().map(|s| s.label.clone()).collect();
    let per_flow = FlowOutputs::create(args, &specs, &labels)?;
    let results = run_all(&specs, args.jobs, extras, &|i, r| per_flow.add(i, r))?;
    let reports: Vec<RunReport> = results.iter().map(|r| r.report.clone()).collect();
    let elapsed = start.elapsed().as_secs_f64();
    for (spec, r) in specs.iter().zip(&reports) {
        // A trace cut short by its memory is no trace of the run: nothing is written.
        if let Some(why) = r.stalled.as_deref().filter(|w| w.starts_with(TRACE_FULL)) {
            let run = run_name(&spec.label, r);
            return Err(Error::Usage(format!("--trace: {run}: {why}")));
        }
    }
    let runs: Vec<_> = (specs.iter().zip(&reports))
        .map(|(spec, r)| (&spec.label[..], &spec.params, r))
        .collect();
    for w in sweep_warnings(&runs) {
        eprintln!("warning: {w}");
    }
    let table = table(&specs, &reports);
    per_flow.finish()?;
    if let Some(path) = &args.trace {
        write_trace(path, &labels, &results)?;
    }
    if let Some(path) = &args.json {
        write_output(path, &runs_json(&reports)?)?;
    }
    if [&args.json, &args.flows, &args.trace, &args.fct]
        .into_iter()
        .any(to_stdout)
    {
        eprint!("{table}");
    } else {
        out!("{table}");
    }
    // The time to simulate, and the whole command's (writing large outputs takes its own).
    eprintln!(
        "{} run{} in {elapsed:.1} s ({:.1} s with the outputs written)",
        specs.len(),
        if specs.len() == 1 { "" } else { "s" },
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The per-flow outputs, written as the runs finish: `--flows` and `--fct`.
struct FlowOutputs<'s> {
    specs: &'s [RunSpec],
    csv: Option<report_csv::FlowsCsv>,
    fct: Option<RunsText>,
}

impl<'s> FlowOutputs<'s> {
    fn create(
        args: &RunArgs,
        specs: &'s [RunSpec],
        labels: &[Vec<(String, String)>],
    ) -> Result<Self, Error> {
        Ok(FlowOutputs {
            specs,
            csv: (args.flows.as_ref())
                .map(|path| report_csv::FlowsCsv::create(path, labels.to_vec()))
                .transpose()?,
            fct: args.fct.as_deref().map(RunsText::create).transpose()?,
        })
    }

    /// Run `i`'s flows (its table taken once written); with several runs each `--fct` line
    /// ends with the run's index.
    fn add(&self, i: usize, r: &mut RunResult) {
        if let (Some(out), Some(table)) = (&self.fct, &r.flows) {
            let run = (self.specs.len() > 1).then_some(i);
            out.add(i, table.hpcc_fct(&self.specs[i].params, run));
        }
        if let Some(out) = &self.csv {
            out.add(
                i,
                r.flows.take().expect("every run has its flows when asked"),
            );
        }
    }

    fn finish(self) -> Result<(), Error> {
        if let Some(out) = self.csv {
            out.finish()?;
        }
        self.fct.map_or(Ok(()), RunsText::finish)
    }
}

/// Writes the runs' trace samples as CSV to `path` (`-`: stdout).
fn write_trace(
    path: &Path,
    labels: &[Vec<(String, String)>],
    results: &[RunResult],
) -> Result<(), Error> {
    let traces: Vec<_> = results
        .iter()
        .map(|r| r.trace.clone().unwrap_or_default())
        .collect();
    let csv = report_csv::trace_csv(labels, &traces);
    // stdout gets the final newline from `write_output`.
    let csv = match path.as_os_str() == "-" {
        true => csv.strip_suffix('\n').unwrap_or(&csv),
        false => &csv,
    };
    write_output(path, csv)
}

/// Whether an output option writes to stdout (`-`).
fn to_stdout(p: &Option<PathBuf>) -> bool {
    p.as_ref().is_some_and(|p| p.as_os_str() == "-")
}

/// The output files overwrite no input of the runs (nor each other), and at most one writes
/// to stdout.
fn check_run_outputs(args: &RunArgs, specs: &[RunSpec]) -> Result<(), Error> {
    let outputs = [&args.json, &args.flows, &args.trace, &args.fct];
    let named: Vec<(&str, &Path)> = ["--json", "--flows", "--trace", "--fct"]
        .into_iter()
        .zip(outputs)
        .filter_map(|(f, p)| Some((f, p.as_deref()?)))
        .collect();
    // What the runs read: the scenario file and the files its keys name.
    let mut inputs: Vec<(String, PathBuf)> = vec![];
    if let Some(p) = &args.scenario {
        inputs.push(("the scenario file".into(), p.clone()));
    }
    for (key, p) in specs.iter().flat_map(|s| s.input_files()) {
        if !inputs.iter().any(|(_, q)| *q == p) {
            inputs.push((format!("the {key} of the scenario"), p));
        }
    }
    let inputs: Vec<(&str, &Path)> = inputs
        .iter()
        .map(|(w, p)| (w.as_str(), p.as_path()))
        .collect();
    check_outputs(&named, &inputs)?;
    if outputs.into_iter().filter(|p| to_stdout(p)).count() > 1 {
        return Err(Error::Usage(
            "more than one of --json, --flows, --trace and --fct write to stdout (-); give the others a file".into(),
        ));
    }
    Ok(())
}

/// The runs held at once (one per worker thread), each with its trace when asked, fit in
/// `run.max_memory_gib`.
fn check_run_memory(args: &RunArgs, specs: &[RunSpec]) -> Result<(), Error> {
    // The trace is held in memory until written: within run.max_memory_gib with the run.
    let gib = |b: u64| b as f64 / (1u64 << 30) as f64;
    let mut unknown = false;
    let mut bytes: Vec<u64> = Vec::with_capacity(specs.len());
    for spec in specs {
        let p = &spec.params;
        let run = p.estimate().memory_bytes;
        let trace = match (args.trace.is_some(), p.trace_bytes()) {
            (false, _) => 0,
            (true, None) => {
                unknown = true;
                0
            }
            (true, Some(b)) => b,
        };
        if trace > 0 && run.saturating_add(trace) > p.run.max_memory_bytes {
            return Err(Error::Usage(format!(
                "--trace: the samples of every port every trace.interval_us = {} us until \
                 run.duration_us would take about {:.1} GiB, beside the run's {:.1} GiB: over \
                 run.max_memory_gib = {:.1}; sample less often or raise the limit",
                p.run.trace_interval_ps.as_us_f64(),
                gib(trace),
                gib(run),
                gib(p.run.max_memory_bytes)
            )));
        }
        bytes.push(run.saturating_add(trace));
    }
    if unknown {
        eprintln!(
            "warning: --trace without run.duration_us: its size is not known ahead; the run \
             stops with an error if its trace outgrows run.max_memory_gib"
        );
    }
    // The runs held at once (one per worker thread), the largest first.
    let at_once = args
        .jobs
        .or_else(|| std::thread::available_parallelism().ok().map(|n| n.get()))
        .unwrap_or(1)
        .min(specs.len());
    bytes.sort_unstable_by(|a, b| b.cmp(a));
    let held: u64 = bytes[..at_once].iter().fold(0, |a, &b| a.saturating_add(b));
    let what = match (at_once, args.trace.is_some()) {
        (1, false) => "the run is".to_string(),
        (1, true) => "the run with its trace is".to_string(),
        (n, _) => format!("the {n} runs held at once (one per --jobs thread) are"),
    };
    check_memory(held, &what)?;
    Ok(())
}

/// What `specs` simulate, in one line: fabric, hosts, workload, schemes, seeds.
pub fn describe(specs: &[RunSpec]) -> String {
    // Distinct values in first-seen order, comma-separated.
    let distinct = |f: &dyn Fn(&RunSpec) -> String| {
        let mut seen: Vec<String> = vec![];
        for s in specs {
            let v = f(s);
            if !seen.contains(&v) {
                seen.push(v);
            }
        }
        seen.join(", ")
    };
    let fabric = distinct(&|s| fabric_name(&s.params.topology, s.params.link.rate_bps));
    let mut line = format!(
        "{} run{} of {fabric}; workload {}; lb {}",
        specs.len(),
        if specs.len() == 1 { "" } else { "s" },
        distinct(&|s| s.params.workload.kind_name().into()),
        distinct(&|s| s.params.switch.lb.name().into()),
    );
    for (name, v, default) in [
        (
            "host lb",
            distinct(&|s| s.params.host.lb.name().into()),
            "none",
        ),
        (
            "cc",
            distinct(&|s| s.params.host.transport.cc.kind.name().into()),
            "none",
        ),
        (
            "arch",
            distinct(&|s| s.params.arch.arch.name().into()),
            "ideal",
        ),
    ] {
        if v != default {
            let _ = write!(line, "; {name} {v}");
        }
    }
    let seeds = specs.iter().map(|s| s.params.run.seed);
    match (seeds.clone().min(), seeds.max()) {
        (Some(a), Some(b)) if a == b => {
            let _ = write!(line, "; seed {a}");
        }
        (Some(a), Some(b)) => {
            let _ = write!(line, "; seeds {a}-{b}");
        }
        _ => {}
    }
    line
}

/// One row per sweep point: mean and standard deviation over its seeds.
fn table(specs: &[RunSpec], reports: &[RunReport]) -> String {
    let mut out = String::new();
    // Swept keys label the rows: `lb` for the switch scheme, the full key otherwise.
    let label_keys: Vec<&str> = specs
        .first()
        .map(|s| {
            s.label
                .iter()
                .map(|(k, _)| if k == "switch.lb" { "lb" } else { k.as_str() })
                .collect()
        })
        .unwrap_or_default();
    let mut header: Vec<String> = label_keys.iter().map(|k| k.to_string()).collect();
    if !label_keys.contains(&"lb") {
        header.insert(0, "lb".into());
    }
    header.extend(
        [
            "seeds",
            "cct_us",
            "bound_us",
            "inflation_%",
            "max_q_KB",
            "mean_q_KB",
            "util_%",
            "drops",
        ]
        .map(String::from),
    );
    // Multi-ASIC switches and Fastroute's workloads add throughput, tail FCT and inter-ASIC
    // columns (other scenarios keep the table they had).
    let fastroute = specs.iter().any(|s| {
        s.params.arch.arch != Arch::Ideal || matches!(s.params.workload, WorkloadSpec::Fastroute(_))
    });
    if fastroute {
        header.extend(["thr_Gbps", "fct_p99_us", "inter_asic_MB", "reconfigs"].map(String::from));
    }
    // Each column as wide as its header (at least 14), right-aligned, one space apart.
    let widths: Vec<usize> = header.iter().map(|h| h.len().max(14)).collect();
    let fmt_row = |cells: &[String]| {
        cells
            .iter()
            .zip(&widths)
            .map(|(c, w)| format!(" {c:>w$}"))
            .collect::<String>()
    };
    let _ = writeln!(out, "{}", fmt_row(&header));
    let mut i = 0;
    while i < specs.len() {
        let point = specs[i].point;
        let j = specs[i..]
            .iter()
            .position(|s| s.point != point)
            .map_or(specs.len(), |d| i + d);
        let rs = &reports[i..j];
        let mut row: Vec<String> = specs[i].label.iter().map(|(_, v)| v.clone()).collect();
        if !label_keys.contains(&"lb") {
            row.insert(0, rs[0].lb.clone());
        }
        let ccts: Vec<f64> = rs.iter().filter_map(|r| r.cct_us).collect();
        let fmt_ms = |(m, s): (f64, f64)| {
            if rs.len() > 1 {
                format!("{m:.3}±{s:.3}")
            } else {
                format!("{m:.3}")
            }
        };
        row.push(rs.len().to_string());
        // A run with no flows (a duration shorter than the first arrival) completed, with
        // no CCT.
        let empty = rs.iter().filter(|r| r.flows_total == 0).count();
        if ccts.len() == rs.len() {
            row.push(fmt_ms(mean_sd(&ccts)));
        } else if empty == rs.len() {
            row.push("no flows".into());
        } else {
            row.push(format!("{}/{} runs done", ccts.len() + empty, rs.len()));
        }
        let col = |f: &dyn Fn(&RunReport) -> f64| mean_sd(&rs.iter().map(f).collect::<Vec<_>>()).0;
        let bounds: Vec<f64> = rs.iter().filter_map(|r| r.lower_bound_us).collect();
        row.push(if bounds.is_empty() {
            "-".into()
        } else {
            format!("{:.3}", mean_sd(&bounds).0)
        });
        let infl: Vec<f64> = rs.iter().filter_map(|r| r.cct_inflation).collect();
        row.push(if infl.is_empty() {
            "-".into()
        } else {
            format!("{:.3}", 100.0 * mean_sd(&infl).0)
        });
        row.push(format!(
            "{:.1}",
            col(&|r| r.max_queue_bytes["all"] as f64) / 1e3
        ));
        row.push(format!("{:.2}", col(&|r| r.mean_queue_bytes["all"]) / 1e3));
        row.push(format!("{:.2}", 100.0 * col(&|r| r.utilization["all"])));
        row.push(format!("{:.0}", col(&|r| r.drops as f64)));
        if fastroute {
            let opt = |f: &dyn Fn(&RunReport) -> Option<f64>| {
                let xs: Vec<f64> = rs.iter().filter_map(f).collect();
                if xs.is_empty() {
                    "-".into()
                } else {
                    format!("{:.3}", mean_sd(&xs).0)
                }
            };
            row.push(opt(&|r| r.mean_throughput_gbps));
            row.push(opt(&|r| r.fct_p99_us));
            row.push(format!("{:.3}", col(&|r| r.inter_asic_bytes as f64) / 1e6));
            row.push(format!("{:.0}", col(&|r| r.reconfigurations as f64)));
        }
        let _ = writeln!(out, "{}", fmt_row(&row));
        i = j;
    }
    out
}

/// A fabric as the run's first line names it.
fn fabric_name(topology: &TopologySpec, rate_bps: u64) -> String {
    let gbps = rate_bps as f64 / 1e9;
    match *topology {
        TopologySpec::FatTree { k } => {
            let hosts = u64::from(k).pow(3) / 4;
            format!("3-tier fat tree k={k} ({hosts} hosts, {gbps} Gb/s)")
        }
        TopologySpec::LeafSpine {
            leaves,
            hosts_per_leaf,
            uplinks,
        } => {
            let hosts = u64::from(leaves) * u64::from(hosts_per_leaf);
            format!(
                "leaf-spine {leaves} leaves x {hosts_per_leaf} hosts, {uplinks} uplinks \
                 ({hosts} hosts, {gbps} Gb/s)"
            )
        }
        TopologySpec::Graph(ref t) => {
            let (hosts, switches) = (t.graph.hosts, t.graph.switches);
            let routing = match &t.clos.shortest {
                Some(s) => format!("routed on shortest paths, not a Clos: {}", s.why),
                None => format!("{}-tier", t.clos.tiers),
            };
            let es = if switches == 1 { "" } else { "es" };
            format!(
                "{} ({routing}, {hosts} hosts, {switches} switch{es}, {gbps} Gb/s)",
                t.name
            )
        }
    }
}

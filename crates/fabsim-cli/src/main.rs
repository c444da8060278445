//! The `fabsim` command-line tool: argument parsing over the `fabsim` library (`run`,
//! `topology`, `bench`, `portmap`, `power`, `hw`, `keys`) and the `fabsim-lab` library (`sweep`,
//! `reproduce`, `plot`).

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cmd_bench;
mod cmd_hw;
mod cmd_plot;
mod cmd_portmap;
mod cmd_reproduce;
mod cmd_sweep;
mod cmd_topology;
mod run;

#[macro_use]
extern crate fabsim_lab;

/// `--jobs N`: 1 to 1024 worker threads (more only adds threads that wait for a core).
pub fn jobs_parser() -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::new().range(1..=1024)
}

#[derive(Parser)]
#[command(
    name = "fabsim",
    version,
    about = "Deterministic packet-level simulator for AI-training networks"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run a scenario (the built-in Fig. 1 default without a file) and print a table.
    Run(run::RunArgs),
    /// Write the fabric of a scenario's first run as a topology file (`topology.file` reads it).
    Topology(cmd_topology::TopologyArgs),
    /// Measure simulator speed (packet-hops per second) and peak memory, on one core.
    Bench(cmd_bench::BenchArgs),
    /// Compute a Fastroute ingress port-to-ASIC mapping from a traffic matrix (CSV).
    Portmap(cmd_portmap::PortmapArgs),
    /// Print the multi-ASIC power and radix model (Fastroute Tables 2 and 3).
    Power(cmd_portmap::PowerArgs),
    /// Ofan in hardware terms: the combining pipeline, pOfan's memory, F.2 port orders.
    Hw {
        #[command(subcommand)]
        cmd: cmd_hw::HwCommand,
    },
    /// Shard a sweep into numbered runs; run them by index, locally or as a Slurm job array;
    /// resume; merge.
    Sweep {
        #[command(subcommand)]
        cmd: cmd_sweep::SweepCommand,
    },
    /// SVG plots of a flow table (`run --flows`: FCT CDFs, slowdown by size) or of runs
    /// (`run --json`: FCT per size bucket).
    Plot(cmd_plot::PlotArgs),
    /// Reproduce a figure or table of the papers (`--list`; `all`): runs, plot, claims, verdicts.
    Reproduce(cmd_reproduce::ReproduceArgs),
    /// List every scenario key: type, default, allowed values and meaning.
    Keys {
        /// Print the README's Markdown table instead.
        #[arg(long)]
        markdown: bool,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    fabsim_lab::output::remove_temps_on_signals();
    let result = match &cli.command {
        Command::Run(args) => run::run(args),
        Command::Topology(args) => cmd_topology::topology(args),
        Command::Bench(args) => cmd_bench::bench(args),
        Command::Portmap(args) => cmd_portmap::run_portmap(args),
        Command::Power(args) => cmd_portmap::run_power(args),
        Command::Hw { cmd } => cmd_hw::run_hw(cmd),
        Command::Sweep { cmd } => cmd_sweep::sweep(cmd),
        Command::Reproduce(args) => cmd_reproduce::reproduce(args),
        Command::Plot(a) => fabsim_lab::flow_plots::plot(&a.input, &a.out, &a.buckets),
        Command::Keys { markdown } => {
            if *markdown {
                out!("{}", fabsim::scenario::keys_markdown());
            } else {
                out!("{}", fabsim::scenario::keys_listing());
            }
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(if e.is_usage() { 2 } else { 1 })
        }
    }
}

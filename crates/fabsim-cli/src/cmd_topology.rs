//! `fabsim topology`: the fabric of a scenario's first run, written as a topology file.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use fabsim::net::graph::{Graph, Layout};
use fabsim::scenario::topofile::{to_hpcc, to_toml};

use fabsim_lab::runs::load;
use fabsim_lab::{write_output, Error};

/// The formats `--export` writes.
#[derive(Clone, Copy, ValueEnum)]
pub enum ExportFormat {
    /// fabsim's own TOML (hosts, switches, rate_gbps, delay_ns, links).
    Toml,
    /// HPCC's ns-3 `topology.txt`.
    Hpcc,
}

#[derive(Args)]
pub struct TopologyArgs {
    /// Scenario file (TOML). Without it: the built-in default (Ofan Fig. 1).
    pub scenario: Option<PathBuf>,
    /// Override a scenario key, e.g. `--set topology.k=4` (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// Write the fabric of the scenario's first run to FILE (`-` for stdout).
    #[arg(long, value_name = "FILE")]
    pub export: PathBuf,
    /// The file's format (`topology.file` reads both back).
    #[arg(long, value_enum, default_value = "toml")]
    pub format: ExportFormat,
}

pub fn topology(args: &TopologyArgs) -> Result<(), Error> {
    let specs = load(args.scenario.as_ref(), &args.set)?;
    let p = &specs
        .first()
        .ok_or_else(|| Error::Usage("the scenario has no runs".into()))?
        .params;
    let graph = Graph::generate(&p.topology, Layout::Rack);
    let (text, name) = match args.format {
        ExportFormat::Toml => (to_toml(&graph, p.link.rate_bps, p.link.delay_ps), "TOML"),
        ExportFormat::Hpcc => (
            to_hpcc(&graph, p.link.rate_bps, p.link.delay_ps),
            "HPCC topology.txt",
        ),
    };
    write_output(&args.export, &text)?;
    eprintln!(
        "fabsim topology: wrote {} ({name}: {} hosts, {} switches, {} links)",
        args.export.display(),
        graph.hosts,
        graph.switches,
        graph.links.len()
    );
    Ok(())
}

//! `fabsim plot`: the arguments of [`fabsim_lab::flow_plots::plot`].

use std::path::PathBuf;

use clap::Args;

#[derive(Args)]
pub struct PlotArgs {
    /// A flow table (`fabsim run --flows`, CSV) or runs (`fabsim run --json`).
    pub input: PathBuf,
    /// Directory for the SVG files (created if missing; files there are replaced).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Size-bucket boundaries (bytes, ascending) of the per-bucket FCT CDFs of a flow table.
    #[arg(long, value_delimiter = ',', default_value = "10000,100000,1000000")]
    pub buckets: Vec<u64>,
}

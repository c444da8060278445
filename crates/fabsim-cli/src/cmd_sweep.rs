//! `fabsim sweep`: the arguments of [`fabsim_lab::sweep`]'s commands.

use std::path::PathBuf;

use clap::{ArgGroup, Args, Subcommand};
use fabsim_lab::sweep::{self, Slurm, Which};
use fabsim_lab::Error;

#[derive(Subcommand)]
pub enum SweepCommand {
    /// Expand a scenario into numbered run specs under `--out DIR` (DIR/runs/NNNNNN.toml).
    Plan(PlanArgs),
    /// Run run specs by index (`--index`, `--index-from-env`) or all missing ones (`--all`).
    Run(RunArgs),
    /// Write DIR/sweep.sbatch, a Slurm job array over the remaining runs (`--submit`: submit it).
    Slurm(SlurmArgs),
    /// Show which runs are done, missing or failed (with the failure's message).
    Status(DirArgs),
    /// Merge all results into DIR/merged.json (like `fabsim run --json`) and DIR/merged.csv.
    Merge(DirArgs),
}

#[derive(Args)]
pub struct PlanArgs {
    /// Scenario file (TOML).
    pub scenario: PathBuf,
    /// Override a scenario key, e.g. `--set switch.lb=ofan,ecmp` (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// The sweep directory to create.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
}

#[derive(Args)]
#[command(group(ArgGroup::new("which").required(true).args(["index", "index_from_env", "all"])))]
pub struct RunArgs {
    /// The sweep directory.
    pub dir: PathBuf,
    /// Run index I (with `--chunk N`: runs I*N .. I*N+N-1).
    #[arg(long)]
    pub index: Option<u64>,
    /// Take the index from SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX (Kubernetes).
    #[arg(long)]
    pub index_from_env: bool,
    /// Run every missing run on all local cores, with a progress bar.
    #[arg(long)]
    pub all: bool,
    /// Runs per index.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    pub chunk: u64,
    /// Worker threads for `--all` (default: all cores; at most 1024).
    #[arg(long, value_parser = crate::jobs_parser())]
    pub jobs: Option<usize>,
}

#[derive(Args)]
pub struct SlurmArgs {
    /// The sweep directory.
    pub dir: PathBuf,
    /// Slurm partition (default: the cluster's default partition).
    #[arg(long)]
    pub partition: Option<String>,
    /// Time limit per array task, in Slurm syntax (e.g. `30:00`, `1-00:00:00`).
    #[arg(long)]
    pub time: Option<String>,
    /// Runs per array task.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    pub chunk: u64,
    /// At most M array tasks at once (the `%M` throttle).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_parallel: Option<u64>,
    /// Submit the script with `sbatch` and print the job id.
    #[arg(long)]
    pub submit: bool,
}

#[derive(Args)]
pub struct DirArgs {
    /// The sweep directory.
    pub dir: PathBuf,
}

pub fn sweep(cmd: &SweepCommand) -> Result<(), Error> {
    match cmd {
        SweepCommand::Plan(a) => sweep::plan(&a.scenario, &a.set, &a.out),
        SweepCommand::Run(a) => {
            let which = if a.all {
                Which::All { jobs: a.jobs }
            } else if let Some(i) = a.index {
                Which::Index(i)
            } else {
                debug_assert!(a.index_from_env, "clap requires one of the group");
                Which::FromEnv
            };
            sweep::run(&a.dir, which, a.chunk)
        }
        SweepCommand::Slurm(a) => sweep::slurm(
            &a.dir,
            &Slurm {
                partition: a.partition.clone(),
                time: a.time.clone(),
                chunk: a.chunk,
                max_parallel: a.max_parallel,
                submit: a.submit,
            },
        ),
        SweepCommand::Status(a) => sweep::status(&a.dir),
        SweepCommand::Merge(a) => sweep::merge(&a.dir),
    }
}

//! `fabsim reproduce`: the arguments of [`fabsim_lab::reproduce`]'s calls.

use std::path::PathBuf;

use clap::Args;
use fabsim_lab::reproduce::{self, Ctx};
use fabsim_lab::Error;

#[derive(Args)]
pub struct ReproduceArgs {
    /// Experiment id (see `--list`), or `all`.
    #[arg(required_unless_present = "list")]
    pub id: Option<String>,
    /// List the experiments, their claims and what they vary.
    #[arg(long)]
    pub list: bool,
    /// Smaller fabric, fewer points and seeds: under a second to about two minutes of CPU
    /// per experiment, `all --quick` 5-7 minutes of CPU (the README gives measurements).
    #[arg(long)]
    pub quick: bool,
    /// Seeds per point (default: the experiment's, 10 at full size as in the papers; at most
    /// 1000).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub seeds: Option<u64>,
    /// Output directory; each experiment writes DIR/ID/.
    #[arg(long, default_value = "reproduce-out")]
    pub out: PathBuf,
    /// Worker threads (default: all cores; at most 1024).
    #[arg(long, value_parser = crate::jobs_parser())]
    pub jobs: Option<usize>,
    /// Override a scenario key in every run of the experiment (repeatable), e.g.
    /// `--set host.profile=htsim` to run it with the reference simulator's host stack.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// Plan the experiment's sweeps into DIR/ID/runs/ and print their directories, without
    /// running them: run them with `fabsim sweep run` (e.g. as a Slurm array), then rerun
    /// without --plan to collect the results.
    #[arg(long)]
    pub plan: bool,
    /// Re-evaluate the claims of results already in --out (DIR/ID/results.csv, e.g.
    /// `--out results/full`) with this build's claims and tolerances, without running
    /// anything: rewrites claims.json, plot.svg and report.md, which names the build and
    /// simulator of the runs and of the re-scoring (the runs are kept even when the
    /// simulator's sources have changed since).
    #[arg(long, conflicts_with_all = ["plan", "quick", "seeds", "set", "jobs", "no_readings"])]
    pub rescore: bool,
    /// Run only each experiment's primary reading, not its other readings (a full-size
    /// experiment then costs one reading's runs); the report names the readings left out.
    #[arg(long)]
    pub no_readings: bool,
}

pub fn reproduce(args: &ReproduceArgs) -> Result<(), Error> {
    if args.list {
        // `--list ID` lists that experiment alone.
        return reproduce::list_experiments(args.id.as_deref());
    }
    let id = args.id.as_deref().unwrap_or_default();
    if args.rescore {
        return reproduce::rescore(id, &args.out);
    }
    let ctx = Ctx {
        quick: args.quick,
        seeds: args.seeds,
        set: args.set.clone(),
        dedupe: true,
        no_readings: args.no_readings,
    };
    if args.plan {
        return reproduce::plan(id, &ctx, &args.out);
    }
    reproduce::reproduce(id, &ctx, &args.out, args.jobs)
}

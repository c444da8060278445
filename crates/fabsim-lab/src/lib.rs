//! fabsim's experiments, as a library: what the `fabsim` command line (a thin layer of
//! argument parsing over these calls) and scripts build on.
//!
//! - [`runs`]: a scenario file and its `--set` overrides into run specs; runs in parallel.
//! - [`sweep`]: a sweep as a directory of numbered run specs and atomic result files, run by
//!   index (locally or as a Slurm job array), resumable, merged.
//! - [`reproduce`]: the registry of the papers' figures and tables (model, verdicts, runner
//!   and cache, reports), each experiment a declarative entry whose claims are scored from
//!   its runs.
//! - [`flow_plots`]: SVG plots of a flow table or of run reports.
//! - [`output`]: everything written (stdout that ends quietly on a closed pipe; output
//!   files replaced atomically, never left half-written); [`report_csv`]: the CSV tables.
//!
//! Every fallible call returns [`Error`], which tells bad input from failures at run time.
//!
//! Architecture Invariant: stdout goes only through `out!`/`outln!` (clippy's
//! `disallowed-macros` refuses `print!` and `println!`; the fuzz test alone is allowed one).
//!
//! Architecture Invariant: every file this crate writes goes through [`output`]
//! (`write_output`, `write_atomic`, `OutputFile`), apart from a sweep's lock file.
//!
//! Architecture Invariant: a user's input file is parsed only after
//! `fabsim::scenario::read_input` read it. Beside that, the sweep store reads back files it
//! wrote; it parses a run spec's TOML only to find the input files the spec names, and reads
//! those only to hash their bytes.

use std::fmt;
use std::path::PathBuf;

#[macro_use]
pub mod output;
pub mod flow_plots;
pub mod report_csv;
pub mod reproduce;
pub mod runs;
pub mod sweep;

#[cfg(test)]
mod fuzz;

pub use output::write_output;

/// Why a call failed. Bad input (`Usage`, `Scenario`) is the caller's to fix, and the CLI
/// exits with status 2 on it; the others are failures at run time (status 1).
#[derive(Debug)]
pub enum Error {
    /// Bad input: an argument, a file's contents, an unknown experiment.
    Usage(String),
    /// A scenario that does not parse or validate (it names the file and the key).
    Scenario(fabsim::scenario::ScenarioError),
    /// A file or directory that cannot be read, written or created.
    Io {
        path: PathBuf,
        what: &'static str,
        source: std::io::Error,
    },
    /// Runs or experiments that failed, and any other failure at run time.
    Runtime(String),
}

impl Error {
    /// Whether the input was bad (rather than something failing at run time).
    pub fn is_usage(&self) -> bool {
        matches!(self, Error::Usage(_) | Error::Scenario(_))
    }

    /// A file operation's error, naming the file and what was tried.
    pub fn io(path: &std::path::Path, what: &'static str, source: std::io::Error) -> Self {
        Error::Io {
            path: path.to_path_buf(),
            what,
            source,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Usage(m) | Error::Runtime(m) => f.write_str(m),
            Error::Scenario(e) => write!(f, "{e}"),
            Error::Io { path, what, source } => {
                write!(f, "{}: cannot {what}: {source}", path.display())
            }
        }
    }
}

impl std::error::Error for Error {}

impl From<fabsim::scenario::ScenarioError> for Error {
    fn from(e: fabsim::scenario::ScenarioError) -> Self {
        Error::Scenario(e)
    }
}

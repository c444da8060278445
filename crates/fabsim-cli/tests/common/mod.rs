//! Running the `fabsim` binary from integration tests. Each test crate uses a part of it.
#![allow(dead_code)]

use std::process::{Command, Output};

/// The binary with `args`, free of the array-index variables a cluster might have set.
pub fn fabsim_cmd(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_fabsim"));
    c.args(args)
        .env_remove("SLURM_ARRAY_TASK_ID")
        .env_remove("JOB_COMPLETION_INDEX");
    c
}

pub fn fabsim(args: &[&str]) -> Output {
    fabsim_cmd(args).output().expect("fabsim runs")
}

/// Runs `fabsim args`, asserts success and returns its stdout.
pub fn ok(args: &[&str]) -> String {
    let o = fabsim(args);
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

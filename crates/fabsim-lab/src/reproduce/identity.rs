//! Which build and which simulator produced a result: the keys that decide whether a
//! cached run may be reused.

use std::sync::OnceLock;

use crate::sweep;

/// Which code produced a result: the crate version and the git commit the binary was built
/// from (`-dirty-HASH` when it had uncommitted changes under `crates/` or `data/`; captured
/// by `build.rs`), or, built without git, a hash of this executable.
pub fn code_id() -> &'static str {
    static ID: OnceLock<String> = OnceLock::new();
    ID.get_or_init(|| {
        let version = env!("CARGO_PKG_VERSION");
        match env!("FABSIM_GIT_ID") {
            "" => {
                let exe = std::env::current_exe()
                    .and_then(std::fs::read)
                    .unwrap_or_default();
                let hash = sweep::fnv1a64_bytes(&exe);
                format!("{version} exe-{}", &hash[..12])
            }
            git => format!("{version} {git}"),
        }
    })
}

/// Which simulator produced a run: the crate version and a hash of the content of the sources
/// a run's result depends on (the simulator library, its data, `Cargo.lock`, and the CLI's
/// scenario loading and run execution; computed by `build.rs`).
pub fn sim_id() -> String {
    format!(
        "{} sim-{}",
        env!("CARGO_PKG_VERSION"),
        env!("FABSIM_SIM_ID")
    )
}

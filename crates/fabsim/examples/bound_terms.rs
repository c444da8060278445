//! The terms of a dependency workload's CCT lower bound, computed from the scenario's flows
//! and dependencies without simulating it: `cargo run --release --example bound_terms --
//! [SCENARIO] [--set KEY=VALUE]...` prints one line per run of the sweep.

use fabsim::metrics::dependency_terms;
use fabsim::scenario::Scenario;

fn main() {
    if let Err(e) = terms() {
        eprintln!("bound_terms: {e}");
        std::process::exit(2);
    }
}

fn terms() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let mut s = Scenario::default_scenario();
    let mut sets = Vec::new();
    while let Some(a) = args.next() {
        if a == "--set" {
            sets.push(args.next().ok_or("--set needs KEY=VALUE")?);
        } else {
            let text = std::fs::read_to_string(&a).map_err(|e| format!("{a}: {e}"))?;
            s = Scenario::parse(&text, &a).map_err(|e| e.to_string())?;
        }
    }
    for a in &sets {
        s.set(a).map_err(|e| e.to_string())?;
    }
    let runs = s.expand().map_err(|e| e.to_string())?;
    println!("run\tcollectives_us\tchain_us\tnic_us\trelease_us\tbound_us");
    for (i, r) in runs.into_iter().enumerate() {
        let Some(t) = dependency_terms(&r.params) else {
            println!("{i}\tnot a workload with dependencies");
            continue;
        };
        let us = |t: fabsim::engine::Time| t.as_us_f64();
        println!(
            "{i}\t{:.5}\t{:.5}\t{:.5}\t{:.5}\t{:.5}",
            us(t.collectives),
            us(t.chain),
            us(t.nic),
            us(t.release),
            us(t.bound())
        );
    }
    Ok(())
}

//! The terms of a dependency workload's CCT lower bound, computed from the scenario's flows
//! and dependencies without simulating it: `cargo run --release --example bound_terms --
//! [SCENARIO] [--set KEY=VALUE]...` prints one line per run of the sweep.

use fabsim::metrics::dependency_terms;
use fabsim::scenario::Scenario;

fn main() {
    let mut args = std::env::args().skip(1);
    let mut s = Scenario::default_scenario();
    let mut sets = Vec::new();
    while let Some(a) = args.next() {
        if a == "--set" {
            sets.push(args.next().expect("--set KEY=VALUE"));
        } else {
            let text = std::fs::read_to_string(&a).expect("a scenario file");
            s = Scenario::parse(&text, &a).expect("a scenario");
        }
    }
    for a in &sets {
        s.set(a).expect("a scenario key");
    }
    println!("run\tcollectives_us\tchain_us\tnic_us\trelease_us\tbound_us");
    for (i, r) in s.expand().expect("a sweep").into_iter().enumerate() {
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
}

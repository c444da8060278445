//! Keys combine: random combinations of every choice and switch key of the schema (plus a
//! few numbers that change what runs: buffers, ECN, coalescing, failures, ASIC counts), on
//! small fabrics, either fail validation with an error or simulate to the end without a
//! panic. Packet conservation and time order are asserted inside every run. New keys of
//! the schema join automatically. A smoke test: a bug that needs a narrow corner of the
//! parameters (as trimming under Fastroute's PAUSE did, at k = 8 and 100 Gb/s) needs a test
//! of its own (`tests/fastroute.rs`).

use std::panic::{catch_unwind, AssertUnwindSafe};

use fabsim::engine::Rng;
use fabsim::metrics::run;
use fabsim::scenario::{schema, Kind, Scenario};

/// Keys that need a file, a model or a shape of their own (or pick the workload, drawn apart).
const LEFT_OUT: &[&str] = &[
    "workload.kind",
    "workload.model",
    "workload.file",
    "workload.cdf",
];
/// Workloads drawn: every `workload.kind` but those that need a file or a model of their own
/// (a new workload joins automatically).
const NEED_INPUT: &[&str] = &["fsdp", "htsim", "hpcc"];
/// Numbers that switch mechanisms on.
const NUMBERS: &[(&str, &[&str])] = &[
    ("switch.buffer_bytes", &["50000", "200000"]),
    ("switch.pfc_buffer_bytes", &["1000000"]),
    ("switch.ecn_kmin_bytes", &["20000"]),
    ("host.ack_every_bytes", &["16384"]),
    ("host.ack_delay_us", &["5"]),
    ("host.rto_us", &["50"]),
    ("failures.links", &["2"]),
    ("switch.asics", &["2", "4"]),
    ("topology.tiers", &["2", "3"]),
];

fn pick<'a>(rng: &mut Rng, from: &[&'a str]) -> &'a str {
    from[rng.below(from.len() as u64) as usize]
}

#[test]
fn random_key_combinations_run_or_are_refused_never_panic() {
    let choices: Vec<(&str, Vec<&str>)> = schema()
        .filter(|k| !LEFT_OUT.contains(&k.name))
        .filter_map(|k| match k.kind {
            Kind::Bool => Some((k.name, vec!["true", "false"])),
            Kind::Choice(names) => Some((k.name, names())),
            _ => None,
        })
        .chain(NUMBERS.iter().map(|&(k, v)| (k, v.to_vec())))
        .collect();
    let kinds: Vec<&str> = schema()
        .find(|k| k.name == "workload.kind")
        .map(|k| match k.kind {
            Kind::Choice(names) => names(),
            _ => unreachable!("workload.kind is a choice"),
        })
        .expect("workload.kind is a key")
        .into_iter()
        .filter(|w| !NEED_INPUT.contains(w))
        .collect();
    let mut rng = Rng::new(17);
    let (mut ran, mut refused, mut panicked) = (0, 0, Vec::new());
    for _ in 0..160 {
        let mut sets = vec![
            "topology.k=4".to_string(),
            "run.seeds=1".into(),
            "run.duration_us=300".into(),
            format!("workload.kind={}", pick(&mut rng, &kinds)),
        ];
        // Without a size, stride, shuffle and ring run for 1 ms: past the first remapping.
        if rng.below(3) > 0 {
            let bytes = pick(&mut rng, &["65536", "1048576"]);
            sets.push(format!("workload.message_bytes={bytes}"));
        }
        // Each key at a random value half of the time: every pair of keys meets often.
        for (key, values) in &choices {
            if rng.below(2) == 0 {
                sets.push(format!("{key}={}", pick(&mut rng, values)));
            }
        }
        if sets.iter().any(|s| s.starts_with("switch.ecn_kmin_bytes")) {
            sets.push("switch.ecn_kmax_bytes=40000".into());
        }
        let mut s = Scenario::default_scenario();
        let specs = sets
            .iter()
            .try_for_each(|a| s.set(a))
            .and_then(|()| s.expand());
        let Ok(specs) = specs else {
            refused += 1;
            continue;
        };
        for spec in specs {
            match catch_unwind(AssertUnwindSafe(|| run(&spec.params))) {
                Ok(_) => ran += 1,
                Err(_) => panicked.push(sets.join(" ")),
            }
        }
    }
    assert!(panicked.is_empty(), "panicked with: {panicked:#?}");
    assert!(
        ran >= 200,
        "most combinations should run ({ran} ran, {refused} refused)"
    );
}

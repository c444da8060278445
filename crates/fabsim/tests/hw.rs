//! Ofan in hardware terms: a run whose pointer steps go through the combining pipeline
//! (`switch.combining = true`) is byte-identical to plain stepping.

use fabsim::metrics::run;
use fabsim::scenario::Scenario;

fn json_without(report: &fabsim::metrics::RunReport, drop: &[&str]) -> String {
    let mut v = serde_json::to_value(report).unwrap();
    for key in drop {
        v.as_object_mut().unwrap().remove(*key);
    }
    serde_json::to_string(&v).unwrap()
}

#[test]
fn combining_runs_are_byte_identical_to_plain_ofan() {
    for k in ["4", "8"] {
        let mut s = Scenario::default_scenario();
        for set in [
            &format!("topology.k={k}"),
            "switch.lb=ofan,pofan",
            "switch.combining=false,true",
            "workload.message_bytes=262144",
            "run.seed=7",
        ] {
            s.set(set).unwrap();
        }
        let runs = s.expand().unwrap();
        assert_eq!(runs.len(), 4);
        // Order: lb varies slower than combining: (ofan-like lb, false), (.., true), ...
        for pair in runs.chunks(2) {
            let (plain, comb) = (run(&pair[0].params), run(&pair[1].params));
            assert_eq!(plain.combining, None);
            let stats = comb.combining.expect("combining stats");
            assert_eq!(stats.pipeline_width, 8);
            assert!(stats.steps > 0 && stats.cycles <= stats.steps);
            assert!(
                stats.max_cycle > 1,
                "k {k} {}: some cycle held several packets: {stats:?}",
                comb.lb
            );
            assert_eq!(
                json_without(&plain, &["perf"]),
                json_without(&comb, &["perf", "combining"]),
                "k {k} {}",
                comb.lb
            );
        }
    }
}

//! The output contract: the JSON report and the column list (CSV, claims) agree. An
//! integration test: it needs a scenario, which sits above metrics.

use fabsim::metrics::columns::{Getter, COLUMNS, JSON_ONLY};
use fabsim::scenario::Scenario;

/// The JSON report and the column list name the same numbers: every JSON field not in
/// [`JSON_ONLY`] is a column (objects as `field.key` columns), and every column is a JSON
/// field; each column has a value in one of three runs (a Ring-free permutation through the
/// combining pipeline with PFC, Fastroute's phased `fast` pattern with start-time bins, and a
/// Poisson web workload, which alone has an offered load).
#[test]
fn columns_and_json_fields_agree() {
    let report = |sets: &[&str]| {
        let mut s = Scenario::default_scenario();
        for set in sets {
            s.set(set).expect("valid override");
        }
        let spec = &s.expand().expect("valid scenario")[0];
        fabsim::metrics::run(&spec.params)
    };
    let reports = [
        report(&[
            "topology.k=4",
            "workload.message_bytes=65536",
            "switch.lb=ofan",
            "switch.combining=true",
            "switch.pfc=true",
        ]),
        report(&[
            "topology.k=4",
            "workload.kind=\"fast\"",
            "workload.phase_fill=0.01",
            "run.duration_us=300",
            "run.start_bins_us=[100]",
        ]),
        report(&[
            "topology.k=4",
            "workload.kind=\"web\"",
            "workload.load=0.3",
            "run.duration_us=100",
        ]),
    ];
    for c in COLUMNS {
        let has = |r| match c.get {
            Getter::One(get) => get(r).is_some(),
            Getter::PerStage(get) => !get(r).is_empty(),
        };
        assert!(
            reports.iter().any(has),
            "{} has no value in either run",
            c.name
        );
    }
    for report in &reports {
        let json = serde_json::to_value(report).expect("serializable");
        let mut fields = vec![];
        for (k, v) in json.as_object().expect("an object") {
            if JSON_ONLY.contains(&k.as_str()) || v.is_null() {
                continue;
            }
            match v.as_object() {
                Some(o) => fields.extend(o.keys().map(|sub| format!("{k}.{sub}"))),
                None => fields.push(k.clone()),
            }
        }
        let mut columns: Vec<String> = vec![];
        for c in COLUMNS {
            match c.get {
                Getter::One(get) => columns.extend(get(report).map(|_| c.name.to_string())),
                Getter::PerStage(get) => {
                    let cells = get(report);
                    columns.extend(cells.iter().map(|(st, _)| format!("{}.{st}", c.name)));
                }
            }
        }
        fields.sort();
        columns.sort();
        assert_eq!(fields, columns);
    }
}

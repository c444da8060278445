//! The JSON report and the CSV column list (`metrics::columns`) agree. An integration test:
//! it needs a scenario, a layer above metrics.

use fabsim::metrics::columns::{Getter, COLUMNS, JSON_ONLY};
use fabsim::scenario::Scenario;

/// The JSON report and the column list name the same numbers: every JSON field not in
/// [`JSON_ONLY`] is a column (objects as `field.key` columns), and every column is a
/// JSON field with a value.
#[test]
fn columns_and_json_fields_agree() {
    let mut s = Scenario::default_scenario();
    for set in [
        "topology.k=4",
        "workload.message_bytes=65536",
        "switch.lb=ofan",
        "switch.combining=true",
    ] {
        s.set(set).expect("valid override");
    }
    let spec = &s.expand().expect("valid scenario")[0];
    let report = fabsim::metrics::run(&spec.params);
    let json = serde_json::to_value(&report).expect("serializable");
    let mut fields = vec![];
    for (k, v) in json.as_object().expect("an object") {
        if JSON_ONLY.contains(&k.as_str()) {
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
            Getter::One(get) => {
                assert!(get(&report).is_some(), "{} has no value", c.name);
                columns.push(c.name.into());
            }
            Getter::PerStage(get) => {
                let cells = get(&report);
                assert!(!cells.is_empty(), "{} has no stages", c.name);
                columns.extend(cells.iter().map(|(st, _)| format!("{}.{st}", c.name)));
            }
        }
    }
    fields.sort();
    columns.sort();
    assert_eq!(fields, columns);
}

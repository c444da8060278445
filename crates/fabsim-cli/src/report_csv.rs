//! CSV of run reports (`fabsim sweep merge`'s merged.csv, `fabsim reproduce`'s
//! results.csv): the columns of `fabsim::metrics::columns`, written with the `csv` crate.

use fabsim::metrics::columns::{Column, Getter, COLUMNS};
use fabsim::metrics::RunReport;

/// The CSV of `reports`: `index`, the swept keys (`labels`, the same keys for every run),
/// then [`COLUMNS`], per-stage families widened to every stage any report has.
pub fn csv(labels: &[Vec<(String, String)>], reports: &[RunReport]) -> String {
    let stages = |c: &Column| -> Vec<String> {
        let Getter::PerStage(get) = c.get else {
            return vec![];
        };
        let set: std::collections::BTreeSet<&str> = reports
            .iter()
            .flat_map(|r| get(r).into_iter().map(|x| x.0))
            .collect();
        set.into_iter().map(String::from).collect()
    };
    let families: Vec<Vec<String>> = COLUMNS.iter().map(stages).collect();
    let mut header: Vec<String> = vec!["index".into()];
    header.extend(labels.first().into_iter().flatten().map(|(k, _)| k.clone()));
    for (c, st) in COLUMNS.iter().zip(&families) {
        match c.get {
            Getter::One(_) => header.push(c.name.into()),
            Getter::PerStage(_) => header.extend(st.iter().map(|s| format!("{}.{s}", c.name))),
        }
    }
    let mut w = csv::Writer::from_writer(vec![]);
    let mut write = |cells: &[String]| w.write_record(cells).expect("CSV into memory");
    write(&header);
    for (i, r) in reports.iter().enumerate() {
        let mut row = vec![i.to_string()];
        row.extend(labels[i].iter().map(|(_, v)| v.clone()));
        for (c, st) in COLUMNS.iter().zip(&families) {
            match c.get {
                Getter::One(get) => row.push(get(r).unwrap_or_default()),
                Getter::PerStage(get) => {
                    let have = get(r);
                    row.extend(st.iter().map(|s| {
                        let cell = have.iter().find(|(k, _)| k == s);
                        cell.map_or(String::new(), |x| x.1.clone())
                    }));
                }
            }
        }
        write(&row);
    }
    String::from_utf8(w.into_inner().expect("CSV into memory")).expect("UTF-8 cells")
}

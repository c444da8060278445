//! CSV tables: run reports (`fabsim sweep merge`'s merged.csv, `fabsim reproduce`'s
//! results.csv), per-flow rows (`fabsim run --flows`) and per-port samples (`--trace`), laid out by
//! `fabsim::metrics::columns::table` and written with the `csv` crate.

use fabsim::metrics::columns::{table, Column, COLUMNS, FLOW_COLUMNS, TRACE_COLUMNS};
use fabsim::metrics::{FlowRecord, RunReport, TraceRecord};

/// The CSV of `reports`: `index`, the swept keys (`labels`, the same keys for every run),
/// then [`COLUMNS`], per-stage families widened to every stage any report has.
pub fn csv(labels: &[Vec<(String, String)>], reports: &[RunReport]) -> String {
    write("index", COLUMNS, labels, reports.iter().enumerate())
}

/// The CSV of every run's flows, one file for a whole sweep: `run` (the run's index, as in
/// `--json`'s `runs` and merged.csv's `index`), the swept keys, then [`FLOW_COLUMNS`].
pub fn flows_csv(labels: &[Vec<(String, String)>], flows: &[Vec<FlowRecord>]) -> String {
    let rows = flows
        .iter()
        .enumerate()
        .flat_map(|(i, fs)| fs.iter().map(move |f| (i, f)));
    write("run", FLOW_COLUMNS, labels, rows)
}

/// The CSV of every run's trace (`fabsim run --trace`): `run`, the swept keys, then
/// [`TRACE_COLUMNS`].
pub fn trace_csv(labels: &[Vec<(String, String)>], traces: &[Vec<TraceRecord>]) -> String {
    let rows = traces
        .iter()
        .enumerate()
        .flat_map(|(i, ts)| ts.iter().map(move |t| (i, t)));
    write("run", TRACE_COLUMNS, labels, rows)
}

fn write<'r, R: 'r>(
    index: &str,
    columns: &[Column<R>],
    labels: &[Vec<(String, String)>],
    rows: impl Iterator<Item = (usize, &'r R)> + Clone,
) -> String {
    let mut w = csv::Writer::from_writer(vec![]);
    table(index, columns, labels, rows, |cells| {
        w.write_record(cells).expect("CSV into memory")
    });
    String::from_utf8(w.into_inner().expect("CSV into memory")).expect("UTF-8 cells")
}

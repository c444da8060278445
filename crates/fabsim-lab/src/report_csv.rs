//! CSV tables: run reports (`fabsim sweep merge`'s merged.csv, `fabsim reproduce`'s
//! results.csv), per-flow rows (`fabsim run --flows`) and per-port samples (`--trace`), laid out by
//! `fabsim::metrics::columns::table` and written with the `csv` crate.

use fabsim::metrics::columns::{table, Column, COLUMNS, FLOW_COLUMNS, TRACE_COLUMNS};
use fabsim::metrics::{FlowTable, RunReport, TraceRecord};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::output::{InOrder, OutputFile};
use crate::Error;

/// The CSV of `reports`: `index`, the swept keys (`labels`, the same keys for every run),
/// then [`COLUMNS`], per-stage families widened to every stage any report has.
pub fn csv(labels: &[Vec<(String, String)>], reports: &[RunReport]) -> String {
    write("index", COLUMNS, labels, reports.iter().enumerate())
}

/// The CSV of every run's flows, one file for a whole sweep: `run` (the run's index, as in
/// `--json`'s `runs` and merged.csv's `index`), the swept keys, then [`FLOW_COLUMNS`].
///
/// Written as the runs finish ([`FlowsCsv::add`], from any thread): a run's rows go out as
/// soon as every run before it is out, each row made from the run's [`FlowTable`] as it is
/// written, so what is held is the tables of runs that finished ahead of an earlier one,
/// never rows.
pub struct FlowsCsv {
    path: PathBuf,
    labels: Vec<Vec<(String, String)>>,
    state: Mutex<FlowsState>,
}

struct FlowsState {
    order: InOrder<FlowTable>,
    out: csv::Writer<OutputFile>,
    failed: Option<csv::Error>,
}

impl FlowsCsv {
    /// Opens `path` for the flows of the runs labelled `labels`.
    pub fn create(path: &Path, labels: Vec<Vec<(String, String)>>) -> Result<Self, Error> {
        let out = csv::Writer::from_writer(OutputFile::create(path)?);
        Ok(FlowsCsv {
            path: path.to_path_buf(),
            labels,
            state: Mutex::new(FlowsState {
                order: InOrder::default(),
                out,
                failed: None,
            }),
        })
    }

    /// Run `run`'s flows.
    pub fn add(&self, run: usize, flows: FlowTable) {
        let mut guard = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let FlowsState { order, out, failed } = &mut *guard;
        order.add(run, flows, |i, flows| {
            emit_flows(&self.labels, out, failed, i, Some(&flows))
        });
    }

    /// Once every run was added: the whole file (its header alone if there were none).
    pub fn finish(self) -> Result<(), Error> {
        let path = &self.path;
        let mut s = self.state.into_inner().unwrap_or_else(|p| p.into_inner());
        debug_assert!(!s.order.waiting(), "a run's flows were never written");
        if s.order.emitted() == 0 {
            emit_flows(&self.labels, &mut s.out, &mut s.failed, 0, None);
        }
        if let Some(e) = s.failed {
            return Err(Error::Runtime(format!(
                "{}: cannot write: {e}",
                path.display()
            )));
        }
        let out = s
            .out
            .into_inner()
            .map_err(|e| Error::io(path, "write", e.into_error()))?;
        out.finish()
    }
}

/// Writes run `i`'s rows to `out`, each made as it is written, after the header if it is
/// the first run (`None`: the header alone); keeps the first error in `failed`.
fn emit_flows(
    labels: &[Vec<(String, String)>],
    out: &mut csv::Writer<OutputFile>,
    failed: &mut Option<csv::Error>,
    i: usize,
    flows: Option<&FlowTable>,
) {
    let mut header = true;
    let rows = flows.into_iter().flat_map(|t| t.records()).map(|f| (i, f));
    table("run", FLOW_COLUMNS, labels, rows, |cells| {
        if std::mem::take(&mut header) && i > 0 {
            return;
        }
        if let Err(e) = out.write_record(cells) {
            failed.get_or_insert(e);
        }
    });
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

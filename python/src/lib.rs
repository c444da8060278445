//! The native part of the `fabsim` Python package (`fabsim._fabsim`): a scenario (file, TOML
//! text or table) plus overrides in, the runs' reports (JSON, as `fabsim run --json`) and
//! per-flow columns out. The sweep runs on `metrics::run_parallel`, the runner of `fabsim
//! run`, with the GIL released. The Python wrapper (`fabsim/__init__.py`) is the API.

use fabsim::metrics::columns::{self, Column, FLOW_COLUMNS, TRACE_COLUMNS};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use fabsim::metrics::{self, Extras, RunReport, RunResult};
use fabsim::params::SimParams;
use fabsim::scenario::{RunSpec, Scenario};
use pyo3::exceptions::{PyKeyboardInterrupt, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

pyo3::create_exception!(
    _fabsim,
    ScenarioError,
    PyValueError,
    "Bad input (scenario, key, value, file): the message `fabsim run` prints for it."
);

fn scenario_error(message: impl Into<String>) -> PyErr {
    ScenarioError::new_err(message.into())
}

/// How deep a scenario value may nest (a scenario needs three levels: section, key, list).
const MAX_DEPTH: usize = 64;

/// A Python value as a TOML value: bool, int, float, str, list/tuple, dict, nested at most
/// [`MAX_DEPTH`] levels below `depth`.
fn to_toml(v: &Bound<'_, PyAny>, depth: usize) -> PyResult<toml::Value> {
    if depth > MAX_DEPTH {
        return Err(scenario_error(format!(
            "a scenario value is nested more than {MAX_DEPTH} levels deep"
        )));
    }
    if v.is_instance_of::<PyBool>() {
        return Ok(toml::Value::Boolean(v.extract()?));
    }
    if v.is_instance_of::<PyInt>() {
        let i: i64 = v
            .extract()
            .map_err(|_| scenario_error(format!("{v} does not fit a TOML integer (i64)")))?;
        return Ok(toml::Value::Integer(i));
    }
    if v.is_instance_of::<PyFloat>() {
        return Ok(toml::Value::Float(v.extract()?));
    }
    if v.is_instance_of::<PyString>() {
        return Ok(toml::Value::String(v.extract()?));
    }
    if let Ok(d) = v.cast::<PyDict>() {
        let mut t = toml::Table::new();
        for (k, x) in d.iter() {
            t.insert(k.str()?.to_string(), to_toml(&x, depth + 1)?);
        }
        return Ok(toml::Value::Table(t));
    }
    if v.is_instance_of::<PyList>() || v.is_instance_of::<PyTuple>() {
        let items: PyResult<Vec<toml::Value>> =
            v.try_iter()?.map(|x| to_toml(&x?, depth + 1)).collect();
        return Ok(toml::Value::Array(items?));
    }
    Err(scenario_error(format!(
        "{} is not a scenario value (bool, int, float, str, list or dict)",
        v.repr()?
    )))
}

/// A scenario table (sections of keys, or dotted keys) as TOML text.
fn table_text(d: &Bound<'_, PyDict>) -> PyResult<String> {
    let mut doc = toml::Table::new();
    for (k, v) in d.iter() {
        let key = k.str()?.to_string();
        let value = to_toml(&v, 1)?;
        match (key.split_once('.'), value) {
            (Some((section, name)), value) => {
                let entry = doc
                    .entry(section)
                    .or_insert_with(|| toml::Value::Table(toml::Table::new()));
                if let toml::Value::Table(t) = entry {
                    t.insert(name.to_string(), value);
                }
            }
            (None, toml::Value::Table(keys)) => {
                let entry = doc
                    .entry(key)
                    .or_insert_with(|| toml::Value::Table(toml::Table::new()));
                if let toml::Value::Table(t) = entry {
                    t.extend(keys);
                }
            }
            (None, value) => {
                doc.insert(key, value);
            }
        }
    }
    toml::to_string(&doc).map_err(|e| scenario_error(e.to_string()))
}

/// The scenario's runs: from `path`, `text` (named `source` in errors) or `table` (the
/// built-in default without any), with `sets` applied as `--set KEY=VALUE` (a str value as
/// the CLI reads it, other values as TOML).
fn specs(
    path: Option<String>,
    text: Option<String>,
    source: &str,
    table: Option<&Bound<'_, PyDict>>,
    sets: &Bound<'_, PyDict>,
) -> PyResult<Vec<RunSpec>> {
    let mut scenario = match (path, text, table) {
        (Some(path), ..) => {
            let text = fabsim::scenario::read_input(std::path::Path::new(&path))
                .map_err(|e| scenario_error(format!("{path}: cannot read: {e}")))?;
            Scenario::parse(&text, &path)
        }
        (None, Some(text), _) => Scenario::parse(&text, source),
        (None, None, Some(d)) => Scenario::parse(&table_text(d)?, "<dict>"),
        (None, None, None) => Ok(Scenario::default_scenario()),
    }
    .map_err(|e| scenario_error(e.to_string()))?;
    for (k, v) in sets.iter() {
        let value = match v.is_instance_of::<PyString>() {
            true => v.extract::<String>()?,
            false => to_toml(&v, 1)?.to_string(),
        };
        scenario
            .set(&format!("{}={value}", k.str()?))
            .map_err(|e| scenario_error(e.to_string()))?;
    }
    scenario.expand().map_err(|e| scenario_error(e.to_string()))
}

/// Cells as a Python list: ints if every non-empty cell is an integer, else floats if every
/// one is a number, else strings; empty cells are `None`.
fn column<'py>(py: Python<'py>, cells: &[String]) -> PyResult<Bound<'py, PyList>> {
    let full = cells.iter().filter(|c| !c.is_empty());
    if full.clone().all(|c| c.parse::<i64>().is_ok()) {
        let xs = cells.iter().map(|c| c.parse::<i64>().ok());
        return PyList::new(py, xs);
    }
    if full.clone().all(|c| c.parse::<f64>().is_ok()) {
        let xs = cells.iter().map(|c| c.parse::<f64>().ok());
        return PyList::new(py, xs);
    }
    PyList::new(py, cells.iter().map(|c| (!c.is_empty()).then_some(c)))
}

/// Rows laid out by `metrics::columns::table` as Python columns (name -> list).
fn columns<'py, 'r, R: 'r>(
    py: Python<'py>,
    columns: &[Column<R>],
    labels: &[Vec<(String, String)>],
    rows: impl Iterator<Item = (usize, &'r R)> + Clone,
) -> PyResult<Bound<'py, PyDict>> {
    let mut names: Vec<String> = Vec::new();
    let mut cols: Vec<Vec<String>> = Vec::new();
    columns::table("run", columns, labels, rows, |cells: &[String]| {
        if names.is_empty() {
            names = cells.to_vec();
            cols = vec![Vec::new(); cells.len()];
        } else {
            for (c, v) in cols.iter_mut().zip(cells) {
                c.push(v.clone());
            }
        }
    });
    let out = PyDict::new(py);
    for (name, cells) in names.iter().zip(&cols) {
        out.set_item(name, column(py, cells)?)?;
    }
    Ok(out)
}

/// A run's tables as Python columns (`run` = the run's index), `None` if not asked for.
fn tables<'py, R>(
    py: Python<'py>,
    cols: &[Column<R>],
    labels: &[Vec<(String, String)>],
    per_run: Option<Vec<Vec<R>>>,
) -> PyResult<Option<Bound<'py, PyDict>>> {
    per_run
        .map(|runs| {
            let rows = runs
                .iter()
                .enumerate()
                .flat_map(|(i, rs)| rs.iter().map(move |r| (i, r)));
            columns(py, cols, labels, rows)
        })
        .transpose()
}

/// The flow and trace columns of a run.
type Tables<'py> = (Option<Bound<'py, PyDict>>, Option<Bound<'py, PyDict>>);

/// Ctrl-Cs seen by the package's SIGINT handler (installed at import, `fabsim/__init__.py`),
/// which runs on the main thread whatever thread called `run`.
static INTERRUPTS: AtomicU64 = AtomicU64::new(0);

/// Called by the package's SIGINT handler: every `run` in progress, on any thread, stops.
#[pyfunction]
fn interrupt() {
    INTERRUPTS.fetch_add(1, Ordering::SeqCst);
}

/// Runs `params` on worker threads while this (the calling Python) thread waits without the
/// GIL, checking every 50 ms for a Ctrl-C the package's handler counted (from any thread)
/// and, on the main thread, for signals: either cancels the runs, which stop within
/// milliseconds, and raises here (`KeyboardInterrupt`) with nothing returned.
fn run_interruptible(
    py: Python<'_>,
    params: &[&SimParams],
    jobs: Option<usize>,
    extras: Extras,
) -> PyResult<Vec<RunResult>> {
    let cancel = AtomicBool::new(false);
    let seen = INTERRUPTS.load(Ordering::SeqCst);
    std::thread::scope(|scope| {
        let worker =
            scope.spawn(|| metrics::run_parallel(params, jobs, extras, &|_, _| {}, Some(&cancel)));
        loop {
            py.detach(|| {
                for _ in 0..5 {
                    if worker.is_finished() {
                        break;
                    }
                    std::thread::sleep(std::time::Duration::from_millis(10));
                }
            });
            if worker.is_finished() {
                break;
            }
            let signalled = match py.check_signals() {
                Err(e) => Some(e),
                Ok(()) if INTERRUPTS.load(Ordering::SeqCst) != seen => Some(
                    PyKeyboardInterrupt::new_err("fabsim.run interrupted (Ctrl-C)"),
                ),
                Ok(()) => None,
            };
            if let Some(e) = signalled {
                cancel.store(true, Ordering::Relaxed);
                // The runs stop at their next check; their partial results are dropped.
                let _ = py.detach(|| worker.join());
                return Err(e);
            }
        }
        match worker.join() {
            Ok(Ok(Some(results))) => Ok(results),
            Ok(Ok(None)) => Err(PyRuntimeError::new_err("cancelled")),
            Ok(Err(e)) => Err(PyRuntimeError::new_err(e)),
            Err(_) => Err(PyRuntimeError::new_err("a run panicked")),
        }
    })
}

/// What a sweep warns of: the lines `fabsim run` prints (without `warning: `), and per run
/// its own (the report's `warnings`, then its outcome's).
type Warnings = (Vec<String>, Vec<Vec<String>>);

/// Runs a scenario: `(reports as JSON, (flow columns or None, trace columns or None),
/// warnings)`.
#[pyfunction]
#[pyo3(signature = (path=None, text=None, source=None, table=None, sets=None, flows=false, trace=false, jobs=None))]
#[allow(clippy::too_many_arguments)]
fn run<'py>(
    py: Python<'py>,
    path: Option<String>,
    text: Option<String>,
    source: Option<String>,
    table: Option<Bound<'py, PyDict>>,
    sets: Option<Bound<'py, PyDict>>,
    flows: bool,
    trace: bool,
    jobs: Option<usize>,
) -> PyResult<(String, Tables<'py>, Warnings)> {
    if jobs.is_some_and(|j| !(1..=1024).contains(&j)) {
        return Err(scenario_error("jobs: 1 to 1024 threads"));
    }
    let sets = sets.unwrap_or_else(|| PyDict::new(py));
    let source = source.as_deref().unwrap_or("<string>");
    let specs = specs(path, text, source, table.as_ref(), &sets)?;
    let params: Vec<_> = specs.iter().map(|s| &s.params).collect();
    let results = run_interruptible(py, &params, jobs, Extras { flows, trace })?;
    let reports: Vec<&RunReport> = results.iter().map(|r| &r.report).collect();
    let json =
        serde_json::to_string(&reports).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    let runs: Vec<_> = (specs.iter().zip(&reports))
        .map(|(spec, &r)| (&spec.label[..], &spec.params, r))
        .collect();
    let per_run = (runs.iter())
        .map(|&(label, p, r)| {
            let mut w = r.warnings.clone();
            w.extend(metrics::run_warnings(label, p, r));
            w
        })
        .collect();
    let warnings = (metrics::sweep_warnings(&runs), per_run);
    let labels: Vec<_> = specs.iter().map(|s| s.label.clone()).collect();
    let (flow_rows, trace_rows): (Vec<_>, Vec<_>) = (results.into_iter())
        .map(|r| (r.flows.map(|t| t.records().collect::<Vec<_>>()), r.trace))
        .unzip();
    // Every run has the table or none does (the same extras for all).
    let flows = tables(py, FLOW_COLUMNS, &labels, flow_rows.into_iter().collect())?;
    let trace = tables(py, TRACE_COLUMNS, &labels, trace_rows.into_iter().collect())?;
    Ok((json, (flows, trace), warnings))
}

#[pymodule]
fn _fabsim(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("ScenarioError", m.py().get_type::<ScenarioError>())?;
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(interrupt, m)?)?;
    Ok(())
}

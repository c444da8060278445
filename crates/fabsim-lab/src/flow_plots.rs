//! `fabsim plot INPUT --out DIR`: SVG plots of a flow table (`fabsim run --flows`): the FCT
//! CDF of all flows and of each size bucket, and slowdown against flow size (mean with one
//! standard deviation, and p99, per size bin); or of run reports (`fabsim run --json`): mean
//! and p99 FCT per size bucket. One series per sweep point (seeds pooled), drawn by
//! `reproduce::plot`.

use std::path::Path;

use fabsim::engine::Time;
use fabsim::metrics::size_buckets;
use fabsim::metrics::stats::{mean_sd, quantile};

use crate::reproduce::plot::{render_figure, Figure, Series};
use crate::runs::read_file;
use crate::{write_output, Error};

/// Most points drawn per CDF (evenly spaced ranks; the SVG stays small for any flow count).
const CDF_POINTS: usize = 2000;
/// Size bins per decade of the slowdown plots.
const BINS_PER_DECADE: f64 = 4.0;

/// One flow of the table: its series (sweep point), size, FCT and slowdown.
struct Flow {
    series: usize,
    bytes: f64,
    fct_us: Option<f64>,
    slowdown: Option<f64>,
}

/// `fabsim plot`: the plots of `input` (a flow table or run reports) into directory `out`;
/// `buckets`: the size-bucket boundaries (bytes, ascending) of a flow table's FCT CDFs.
pub fn plot(input: &Path, out: &Path, buckets: &[u64]) -> Result<(), Error> {
    if buckets.is_empty() || buckets.windows(2).any(|w| w[0] >= w[1]) {
        return Err(Error::Usage(format!(
            "--buckets {:?}: expected ascending byte counts, e.g. 10000,100000,1000000",
            buckets
        )));
    }
    let text = read_file(input)?;
    let name = input.display().to_string();
    let figures = if text.trim_start().starts_with('{') {
        report_figures(&name, &text)?
    } else {
        let (series, flows) = read_flows(&name, &text)?;
        flow_figures(&series, &flows, buckets)
    };
    std::fs::create_dir_all(out)
        .map_err(|e| Error::Usage(format!("{}: cannot create directory: {e}", out.display())))?;
    let written: Vec<String> = figures.iter().map(|(f, _)| f.clone()).collect();
    for (file, fig) in figures {
        let path = out.join(&file);
        let svg = render_figure(&fig).map_err(|e| Error::Runtime(format!("{file}: {e}")))?;
        write_output(&path, &svg)?;
        outln!("{}", path.display());
    }
    // Plots an earlier `fabsim plot` left in the directory (other buckets, the other input
    // kind) would pass for this input's: they go.
    if let Ok(entries) = std::fs::read_dir(out) {
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let ours = PLOT_NAMES.contains(&name.as_str())
                || (name.starts_with("fct_cdf_") && name.ends_with(".svg"));
            if ours && !written.contains(&name) {
                std::fs::remove_file(e.path()).map_err(|err| {
                    Error::Runtime(format!(
                        "{}: cannot remove a stale plot: {err}",
                        e.path().display()
                    ))
                })?;
                eprintln!(
                    "removed {} (a plot of an earlier input)",
                    e.path().display()
                );
            }
        }
    }
    Ok(())
}

/// The fixed names of the plots `fabsim plot` writes (per size bucket: `fct_cdf_*.svg`).
const PLOT_NAMES: [&str; 5] = [
    "fct_cdf.svg",
    "slowdown_vs_size.svg",
    "slowdown_p99_vs_size.svg",
    "fct_mean_by_size.svg",
    "fct_p99_by_size.svg",
];

/// The flows of a `--flows` table, and the names of its series: the swept keys' values
/// (the columns between `run` and `seed`), or `all flows`.
fn read_flows(name: &str, text: &str) -> Result<(Vec<String>, Vec<Flow>), Error> {
    let bad = |m: String| Error::Usage(format!("{name}: {m}"));
    let mut csv = csv::Reader::from_reader(fabsim::engine::without_bom(text).as_bytes());
    let header: Vec<String> = csv
        .headers()
        .map_err(|e| bad(format!("not a CSV: {e}")))?
        .iter()
        .map(String::from)
        .collect();
    let col = |c: &str| header.iter().position(|h| h == c);
    let need = ["run", "seed", "size_bytes", "fct_us", "slowdown"];
    let (Some(0), Some(seed), Some(size), Some(fct), Some(slow)) = (
        col("run"),
        col("seed"),
        col("size_bytes"),
        col("fct_us"),
        col("slowdown"),
    ) else {
        return Err(bad(format!(
            "not a flow table of `fabsim run --flows` (or the JSON of `--json`): expected the columns {} (first `run`), found {}",
            need.join(", "),
            header.join(",")
        )));
    };
    let keys = &header[1..seed];
    let short = |k: &str| k.rsplit('.').next().unwrap_or(k).to_string();
    let mut series: Vec<String> = Vec::new();
    let mut flows = Vec::new();
    for (i, rec) in csv.records().enumerate() {
        let line = i + 2;
        let rec = rec.map_err(|e| bad(format!("line {line}: {e}")))?;
        let num = |c: usize, empty_ok: bool| -> Result<Option<f64>, Error> {
            let cell = rec.get(c).unwrap_or("");
            if cell.is_empty() && empty_ok {
                return Ok(None);
            }
            cell.parse::<f64>().map(Some).map_err(|_| {
                bad(format!(
                    "line {line}: column {}: expected a number, found {cell:?}",
                    header[c]
                ))
            })
        };
        let label = match keys.len() {
            0 => "all flows".to_string(),
            1 => rec.get(1).unwrap_or("").to_string(),
            _ => (keys.iter().enumerate())
                .map(|(j, k)| format!("{}={}", short(k), rec.get(j + 1).unwrap_or("")))
                .collect::<Vec<_>>()
                .join(", "),
        };
        let s = match series.iter().position(|n| *n == label) {
            Some(s) => s,
            None => {
                series.push(label);
                series.len() - 1
            }
        };
        // Sizes, FCTs and slowdowns are finite and not negative; an FCT fits the simulator's
        // clock (u64 picoseconds), and a slowdown is the FCT over the ideal FCT.
        let checked = |c: usize, empty_ok: bool, max: f64| -> Result<Option<f64>, Error> {
            match num(c, empty_ok)? {
                Some(x) if !(x.is_finite() && x >= 0.0) => Err(bad(format!(
                    "line {line}: column {}: {x} is not a finite number >= 0",
                    header[c]
                ))),
                Some(x) if x > max => Err(bad(format!(
                    "line {line}: column {}: {x:e} is beyond the longest time a run can reach ({max} µs: 2^64 ps)",
                    header[c]
                ))),
                x => Ok(x),
            }
        };
        let fct_us = checked(fct, true, Time::MAX.as_us_f64())?;
        let slowdown = checked(slow, true, f64::MAX)?;
        let ideal = match col("ideal_fct_us") {
            Some(c) => checked(c, true, Time::MAX.as_us_f64())?,
            None => None,
        };
        if let (Some(f), Some(i), Some(x)) = (fct_us, ideal, slowdown) {
            if i > 0.0 && ((f / i) - x).abs() > 1e-6 * x.max(1.0) {
                return Err(bad(format!(
                    "line {line}: column slowdown: {x} is not fct_us / ideal_fct_us = {}",
                    f / i
                )));
            }
        }
        flows.push(Flow {
            series: s,
            bytes: checked(size, false, f64::MAX)?.unwrap_or(0.0),
            fct_us,
            slowdown,
        });
    }
    if flows.is_empty() {
        return Err(bad("no flows: the table has a header only".into()));
    }
    Ok((series, flows))
}

/// The CDF of `values` as (value, fraction at or below it), at most [`CDF_POINTS`] points.
fn cdf(mut values: Vec<f64>) -> Vec<(f64, f64, f64)> {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    let picks = n.min(CDF_POINTS);
    (0..picks)
        .map(|k| {
            if picks < 2 {
                n - 1
            } else {
                k * (n - 1) / (picks - 1)
            }
        })
        .map(|r| (values[r], (r + 1) as f64 / n as f64, 0.0))
        .collect()
}

/// The size bin of `bytes` (a quarter decade) and its geometric centre.
fn bin(bytes: f64) -> (i64, f64) {
    let b = (bytes.max(1.0).log10() * BINS_PER_DECADE).floor() as i64;
    (b, 10f64.powf((b as f64 + 0.5) / BINS_PER_DECADE))
}

fn flow_figures(
    names: &[String],
    flows: &[Flow],
    buckets: &[u64],
) -> Vec<(String, Figure<'static>)> {
    let fct_cdf = |title: String, keep: &dyn Fn(&Flow) -> bool| Figure {
        title,
        x_label: "flow completion time [µs]",
        y_label: "fraction of flows",
        x_log: true,
        y_log: false,
        y_span: None,
        cats: vec![],
        series: (names.iter().enumerate())
            .map(|(s, name)| Series {
                name: name.clone(),
                points: cdf(flows
                    .iter()
                    .filter(|f| f.series == s && keep(f))
                    .filter_map(|f| f.fct_us)
                    .collect()),
            })
            .filter(|s| !s.points.is_empty())
            .collect(),
        markers: false,
    };
    let mut out = vec![(
        "fct_cdf.svg".to_string(),
        fct_cdf("FCT CDF, completed flows".into(), &|_| true),
    )];
    for (lo, hi, bucket) in size_buckets(buckets) {
        let inside = |f: &Flow| f.bytes >= lo as f64 && f.bytes < hi as f64;
        let fig = fct_cdf(format!("FCT CDF, flows of {bucket}"), &inside);
        if !fig.series.is_empty() {
            let file = bucket.replace(">=", "ge").replace('<', "lt");
            out.push((format!("fct_cdf_{file}.svg"), fig));
        }
    }
    // Slowdown per size bin: mean and sd, and p99.
    let by_bin = |s: usize| {
        let mut bins: Vec<(i64, f64, Vec<f64>)> = Vec::new();
        for f in flows.iter().filter(|f| f.series == s) {
            let Some(x) = f.slowdown else { continue };
            let (b, centre) = bin(f.bytes);
            match bins.iter_mut().find(|e| e.0 == b) {
                Some(e) => e.2.push(x),
                None => bins.push((b, centre, vec![x])),
            }
        }
        bins.sort_by_key(|e| e.0);
        bins
    };
    let slowdown =
        |title: &str, y_label: &'static str, stat: fn(&mut Vec<f64>) -> (f64, f64)| Figure {
            title: title.into(),
            x_label: "flow size [bytes]",
            y_label,
            x_log: true,
            y_log: true,
            y_span: None,
            cats: vec![],
            series: (names.iter().enumerate())
                .map(|(s, name)| Series {
                    name: name.clone(),
                    points: by_bin(s)
                        .into_iter()
                        .map(|(_, x, mut ys)| {
                            let (m, sd) = stat(&mut ys);
                            (x, m, sd)
                        })
                        .collect(),
                })
                .filter(|s| !s.points.is_empty())
                .collect(),
            markers: true,
        };
    out.push((
        "slowdown_vs_size.svg".into(),
        slowdown(
            "Slowdown (FCT / ideal FCT) by flow size, mean and sd per quarter decade",
            "slowdown",
            |ys| mean_sd(ys),
        ),
    ));
    out.push((
        "slowdown_p99_vs_size.svg".into(),
        slowdown(
            "p99 slowdown (FCT / ideal FCT) by flow size, per quarter decade",
            "p99 slowdown",
            |ys| {
                ys.sort_by(f64::total_cmp);
                (quantile(ys, 0.99).unwrap_or(f64::NAN), 0.0)
            },
        ),
    ));
    out
}

/// The lower bound of a size bucket's name (`<10KB`: 0, `10KB-100KB`: 10000, `>=1MB`:
/// 1000000), to order buckets by size.
fn bucket_start(name: &str) -> u64 {
    let first = name
        .trim_start_matches(">=")
        .split('-')
        .next()
        .unwrap_or("");
    if name.starts_with('<') {
        return 0;
    }
    let (digits, unit) = first.split_at(
        first
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(first.len()),
    );
    let scale = match unit {
        "KB" => 1_000,
        "MB" => 1_000_000,
        "GB" => 1_000_000_000,
        _ => 1,
    };
    digits
        .parse::<u64>()
        .unwrap_or(u64::MAX)
        .saturating_mul(scale)
}

/// The report fields of a run that name its sweep point besides the schemes (lb, host_lb,
/// cc): a series is named by those that differ between the runs.
const POINT_FIELDS: [&str; 5] = ["arch", "workload", "hosts", "message_bytes", "port_gbps"];

/// The byte boundaries a size bucket's name shows (`<10KB`: 10000, `10KB-100KB`: both).
fn bucket_bounds(name: &str) -> Vec<u64> {
    let lo = bucket_start(name);
    let hi = name
        .strip_prefix('<')
        .or_else(|| name.split_once('-').map(|(_, hi)| hi))
        .map(|hi| bucket_start(&format!(">={hi}")));
    [(lo > 0).then_some(lo), hi].into_iter().flatten().collect()
}

/// Per run, its size buckets (`run.fct_buckets`) when the runs have different ones, else
/// `None`. A run lists only its non-empty buckets, so its boundaries are those its names
/// show; a run whose boundaries are among one other run's only is that run's bucketing
/// (its empty buckets left out).
fn bucket_schemes(runs: &[serde_json::Value]) -> Vec<Option<String>> {
    let bounds: Vec<Vec<u64>> = runs
        .iter()
        .map(|r| {
            let mut b: Vec<u64> = (r["fct_by_size"].as_object().into_iter())
                .flat_map(|m| m.keys().flat_map(|k| bucket_bounds(k)))
                .collect();
            b.sort_unstable();
            b.dedup();
            b
        })
        .collect();
    let within = |a: &[u64], b: &[u64]| a.iter().all(|x| b.contains(x));
    // The largest boundary sets: those no other run's set strictly contains.
    let mut widest: Vec<&Vec<u64>> = bounds
        .iter()
        .filter(|b| !bounds.iter().any(|o| o.len() > b.len() && within(b, o)))
        .collect();
    widest.sort();
    widest.dedup();
    if widest.len() < 2 {
        return vec![None; runs.len()];
    }
    let show = |b: &[u64]| b.iter().map(u64::to_string).collect::<Vec<_>>().join(",");
    bounds
        .iter()
        .map(|b| {
            let mut fits = widest.iter().filter(|w| within(b, w));
            match (fits.next(), fits.next()) {
                (Some(w), None) => Some(show(w)),
                _ => Some(show(b)),
            }
        })
        .collect()
}

/// Mean and p99 FCT per size bucket of the runs of a `--json` file.
fn report_figures(name: &str, text: &str) -> Result<Vec<(String, Figure<'static>)>, Error> {
    let bad = |m: String| Error::Usage(format!("{name}: {m}"));
    let doc: serde_json::Value = serde_json::from_str(fabsim::engine::without_bom(text))
        .map_err(|e| bad(format!("not JSON: {e}")))?;
    let runs = doc["runs"]
        .as_array()
        .ok_or_else(|| bad("expected the JSON of `fabsim run --json`: {\"runs\": [...]}".into()))?;
    let mut cats: Vec<String> = runs
        .iter()
        .filter_map(|r| r["fct_by_size"].as_object())
        .flat_map(|m| m.keys().cloned())
        .collect();
    cats.sort_by_key(|c| bucket_start(c));
    cats.dedup();
    // A series per sweep point (the JSON does not name the swept keys: the scheme
    // combination, the run's settings the report carries that differ between runs, and its
    // size buckets); seeds of one give its mean and sd.
    let varying: Vec<&str> = POINT_FIELDS
        .into_iter()
        .filter(|k| runs.iter().any(|r| r[*k] != runs[0][*k]))
        .collect();
    let schemes = bucket_schemes(runs);
    let label = |i: usize| {
        let r = &runs[i];
        let mut parts = vec![r["lb"].as_str().unwrap_or("?").to_string()];
        for (k, none) in [("host_lb", "none"), ("cc", "none")] {
            match r[k].as_str() {
                Some(v) if v != none => parts.push(v.to_string()),
                _ => {}
            }
        }
        let mut label = parts.join(" + ");
        for k in &varying {
            label += &format!(
                ", {k}={}",
                r[*k].as_str().map_or(r[*k].to_string(), String::from)
            );
        }
        if let Some(b) = &schemes[i] {
            label += &format!(", buckets {b}");
        }
        label
    };
    let labels: Vec<String> = (0..runs.len()).map(label).collect();
    let mut names: Vec<String> = Vec::new();
    for l in &labels {
        if !names.contains(l) {
            names.push(l.clone());
        }
    }
    let figure = |stat: &str, title: &str, y_label: &'static str| Figure {
        title: title.into(),
        x_label: "flow size bucket",
        y_label,
        x_log: false,
        y_log: true,
        y_span: None,
        cats: cats.clone(),
        series: names
            .iter()
            .map(|n| Series {
                name: n.clone(),
                points: (cats.iter().enumerate())
                    .filter_map(|(x, c)| {
                        let ys: Vec<f64> = (runs.iter().zip(&labels).filter(|(_, l)| *l == n))
                            .filter_map(|(r, _)| r["fct_by_size"][c][stat].as_f64())
                            .collect();
                        (!ys.is_empty()).then(|| {
                            let (m, sd) = mean_sd(&ys);
                            (x as f64, m, sd)
                        })
                    })
                    .collect(),
            })
            .collect(),
        markers: true,
    };
    if cats.is_empty() {
        return Err(bad(
            "no run has FCTs (`fct_by_size` is empty everywhere)".into()
        ));
    }
    Ok(vec![
        (
            "fct_mean_by_size.svg".into(),
            figure(
                "mean_us",
                "Mean FCT per size bucket (mean and sd over seeds)",
                "mean FCT [µs]",
            ),
        ),
        (
            "fct_p99_by_size.svg".into(),
            figure(
                "p99_us",
                "p99 FCT per size bucket (mean and sd over seeds)",
                "p99 FCT [µs]",
            ),
        ),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cdfs_keep_the_extremes_and_at_most_cdf_points() {
        let c = cdf((1..=10).rev().map(f64::from).collect());
        assert_eq!(c.len(), 10);
        assert_eq!((c[0].0, c[0].1), (1.0, 0.1));
        assert_eq!((c[9].0, c[9].1), (10.0, 1.0));
        let c = cdf((0..100_000).map(f64::from).collect());
        assert_eq!(c.len(), CDF_POINTS);
        assert_eq!(c[0].0, 0.0);
        assert_eq!(c.last().unwrap().1, 1.0);
        assert!(c.windows(2).all(|w| w[0].0 <= w[1].0 && w[0].1 < w[1].1));
        assert_eq!(cdf(vec![5.0]), vec![(5.0, 1.0, 0.0)]);
    }

    #[test]
    fn bins_are_quarter_decades_and_buckets_order_by_size() {
        assert_eq!(bin(1000.0).0, 12);
        assert_eq!(bin(1700.0).0, 12);
        assert_eq!(bin(1800.0).0, 13);
        assert!((bin(1000.0).1 / 1000.0 - 10f64.powf(0.125)).abs() < 1e-12);
        let mut names = ["100KB-1MB", ">=1MB", "<10KB", "10KB-100KB", "1500B-2GB"];
        names.sort_by_key(|n| bucket_start(n));
        assert_eq!(
            names,
            ["<10KB", "1500B-2GB", "10KB-100KB", "100KB-1MB", ">=1MB"]
        );
    }
}

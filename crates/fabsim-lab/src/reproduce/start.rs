//! Start-up against steady state: the report section that shows, per plotted point and
//! architecture, the mean flow throughput of the flows starting in each bin of
//! `run.start_bins_us` in percent of Ideal's at the same point, and the same over the flows
//! starting from [`STEADY_US`] on.

use std::fmt::Write as _;

use super::cols;
use super::{fmt_num, Experiment, Table};

/// Where the steady-state reading starts: flows starting from 500 us on (five of Fastroute's
/// 100 us controller intervals, one Ring regrouping period); the start-up before it includes
/// the first intervals on the static mapping.
pub const STEADY_US: f64 = 500.0;

/// One bin's column (`thrp_by_start.START`) and its flow count's (`flows_by_start.START`),
/// with START in µs.
struct Bin {
    thrp: String,
    flows: String,
    start_us: f64,
}

fn bins(t: &Table) -> Vec<Bin> {
    let prefix = format!("{}.", cols::THRP_BY_START.name());
    t.header
        .iter()
        .filter_map(|h| {
            let start = h.strip_prefix(&prefix)?;
            Some(Bin {
                thrp: h.clone(),
                flows: format!("{}.{start}", cols::FLOWS_BY_START.name()),
                start_us: start.parse().ok()?,
            })
        })
        .collect()
}

/// Mean flow throughput (Gb/s) of the rows matching `keep`: per bin, and over the flows
/// starting from [`STEADY_US`] on (flow-weighted over those bins), each averaged over the
/// rows.
fn means(
    t: &Table,
    bins: &[Bin],
    keep: impl Fn(&super::Row) -> bool,
) -> (Vec<Option<f64>>, Option<f64>) {
    let rows: Vec<_> = t.iter().filter(|r| keep(r)).collect();
    let avg = |xs: Vec<f64>| (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64);
    let per_bin = bins
        .iter()
        .map(|b| {
            avg(rows
                .iter()
                .filter_map(|r| r.cell(&b.thrp)?.parse().ok())
                .collect())
        })
        .collect();
    let steady = rows
        .iter()
        .filter_map(|r| {
            let (mut sum, mut n) = (0.0, 0.0);
            // A bin without flows has empty cells.
            for b in bins.iter().filter(|b| b.start_us >= STEADY_US) {
                let cell = |c: &str| r.cell(c).and_then(|v| v.parse::<f64>().ok());
                if let (Some(x), Some(k)) = (cell(&b.thrp), cell(&b.flows)) {
                    sum += x * k;
                    n += k;
                }
            }
            (n > 0.0).then(|| sum / n)
        })
        .collect();
    (per_bin, avg(steady))
}

/// The section, or nothing when the results have no start bins or no Ideal runs.
pub fn section(exp: &Experiment, t: &Table) -> String {
    let bins = bins(t);
    let archs = t.distinct(cols::ARCH).unwrap_or_default();
    if bins.is_empty() || !archs.iter().any(|a| a == "ideal") {
        return String::new();
    }
    // The plot's x, unless it is the sweep itself (one column then).
    let x = Some(exp.plot.x).filter(|x| *x != cols::SWEEP);
    let points: Vec<(String, String)> = {
        let mut v: Vec<(String, String)> = vec![];
        for r in t.iter() {
            let p = (
                r.get(cols::SWEEP).unwrap_or_default().to_string(),
                x.and_then(|x| r.get(x)).unwrap_or_default().to_string(),
            );
            if !v.contains(&p) {
                v.push(p);
            }
        }
        v
    };
    let mut s = String::new();
    let _ = writeln!(
        s,
        "\n## Throughput by flow start time\n\nMean flow throughput of the flows starting in each \
         bin (from the bin's start in µs), in percent of Ideal's at the same point (mean over \
         seeds), and over the flows starting from {STEADY_US} us on (steady state, flow-weighted). \
         The claims read the whole run (every flow, as the paper's mean throughput); this \
         table is the steady-state reading beside it.\n"
    );
    let head: Vec<String> = bins
        .iter()
        .map(|b| format!("{} µs", fmt_num(b.start_us)))
        .collect();
    let x_head = x.map_or(String::new(), |x| format!(" {} |", x.name()));
    let _ = writeln!(
        s,
        "| sweep |{x_head} architecture | {} | steady state |\n|---|{}---|{}---|",
        head.join(" | "),
        if x.is_some() { "---|" } else { "" },
        "---|".repeat(bins.len())
    );
    for (sweep, xv) in &points {
        let at = |r: &super::Row| {
            r.get(cols::SWEEP).unwrap_or_default() == sweep
                && x.and_then(|x| r.get(x)).unwrap_or_default() == xv
        };
        let x_cell = if x.is_some() {
            format!(" {xv} |")
        } else {
            String::new()
        };
        let (ideal, ideal_steady) =
            means(t, &bins, |r| at(r) && r.get(cols::ARCH) == Some("ideal"));
        for a in archs.iter().filter(|a| *a != "ideal") {
            let (m, steady) = means(t, &bins, |r| at(r) && r.get(cols::ARCH) == Some(a.as_str()));
            let pct = |v: Option<f64>, base: Option<f64>| match (v, base) {
                (Some(v), Some(b)) if b > 0.0 => format!("{:.1}", 100.0 * v / b),
                _ => "-".into(),
            };
            let cells: Vec<String> = m.iter().zip(&ideal).map(|(v, b)| pct(*v, *b)).collect();
            let _ = writeln!(
                s,
                "| {sweep} |{x_cell} {a} | {} | {} |",
                cells.join(" | "),
                pct(steady, ideal_steady)
            );
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::super::tests::experiment;
    use super::*;

    #[test]
    fn steady_state_is_flow_weighted_over_the_bins_from_its_start() {
        let e = experiment("fastroute-fig19");
        // Ideal: 10 Gb/s in every bin; Fastroute: 5 before 500 us, then 8 (1 flow) and
        // 10 (3 flows): steady (8 + 3 x 10) / 4 = 9.5, 95% of Ideal.
        let t = Table::from_csv(
            "sweep,switch.downtime_us,arch,thrp_by_start.00000.0,flows_by_start.00000.0,\
             thrp_by_start.00500.0,flows_by_start.00500.0,thrp_by_start.01000.0,\
             flows_by_start.01000.0\n\
             d,1,ideal,10,5,10,1,10,3\n\
             d,1,fastroute,5,5,8,1,10,3\n",
        );
        let s = section(&e, &t);
        assert!(
            s.contains("| d | 1 | fastroute | 50.0 | 80.0 | 100.0 | 95.0 |"),
            "{s}"
        );
        // Nothing without start bins.
        assert!(section(&e, &Table::from_csv("sweep,arch\nd,ideal\n")).is_empty());
    }
}

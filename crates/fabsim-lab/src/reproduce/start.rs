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

/// The plot's x (unless it is the sweep itself: one column then) and the plotted points,
/// (sweep, x value), in order of appearance.
fn points(exp: &Experiment, t: &Table) -> (Option<cols::Col>, Vec<(String, String)>) {
    let x = Some(exp.plot.x).filter(|x| *x != cols::SWEEP);
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
    (x, v)
}

/// The section on the throughput metric: per plotted point and architecture (means over
/// seeds), the primary reading and the readings beside it in percent of Ideal, the share of
/// flows completed, the 99th-percentile FCT, and whether Ideal reached a steady state there;
/// nothing without normalized results or multi-ASIC runs.
pub fn readings_section(exp: &Experiment, t: &Table) -> String {
    let multi_asic = t
        .iter()
        .any(|r| r.get(cols::ARCH).is_some_and(|a| a != "ideal"));
    if !multi_asic || !t.header.iter().any(|h| h == cols::THRP_PCT.name()) {
        return String::new();
    }
    let (x, points) = points(exp, t);
    // The plot's series (architecture, or architecture and workload), in order.
    let mut series: Vec<String> = vec![];
    for r in t.iter() {
        let name = (exp.plot.series)(&r);
        if !series.contains(&name) {
            series.push(name);
        }
    }
    let mut s = format!(
        "\n## Throughput readings per point\n\nMeans over seeds, in percent of Ideal's run at \
         the same point and seed: the primary reading (`thrp_pct`: Netbench's mean of size / FCT \
         over the completed flows, the paper's 'mean throughput'), the same over every flow \
         that started (an unfinished one with the bytes acknowledged: fabsim's former \
         metric), aggregate goodput, and the primary over the flows between racks and inside \
         one; then the flows completed (%) and the 99th-percentile FCT. Poisson arrivals: \
         Ideal's delivered (%) is what Ideal delivered over the run's second half in percent \
         of what arrived; below {}% it did not reach a steady state, the point is overloaded, \
         and the claims leave its ratios out.\n\n| sweep |{} series | primary | every \
         flow | goodput | inter-rack | intra-rack | completed % | p99 FCT µs | Ideal \
         delivered % | steady |\n|---|{}---|---|---|---|---|---|---|---|---|---|\n",
        fmt_num(cols::STEADY_DELIVERED_PCT),
        x.map_or(String::new(), |x| format!(" {} |", x.name())),
        if x.is_some() { "---|" } else { "" },
    );
    for (sweep, xv) in &points {
        let at = |r: &super::Row| {
            r.get(cols::SWEEP).unwrap_or_default() == sweep
                && x.and_then(|x| r.get(x)).unwrap_or_default() == xv
        };
        for a in &series {
            let rows: Vec<_> = t
                .iter()
                .filter(|r| at(r) && (exp.plot.series)(r) == *a)
                .collect();
            if rows.is_empty() {
                continue;
            }
            let mean = |f: &dyn Fn(&super::Row) -> Option<f64>| {
                let xs: Vec<f64> = rows.iter().filter_map(f).collect();
                match xs.len() {
                    0 => "-".to_string(),
                    n => format!("{:.1}", xs.iter().sum::<f64>() / n as f64),
                }
            };
            let mut cells: Vec<String> = cols::NORMALIZED
                .iter()
                .map(|(c, _)| mean(&|r| r.num(*c)))
                .collect();
            cells.push(mean(&|r| {
                Some(100.0 * r.num(cols::FLOWS_COMPLETED)? / r.num(cols::FLOWS_TOTAL)?)
            }));
            cells.push(mean(&|r| r.num(cols::FCT_P99_US)));
            cells.push(mean(&|r| r.num(cols::IDEAL_DELIVERED_PCT)));
            let steady = rows.iter().find_map(|r| r.get(cols::IDEAL_STEADY));
            cells.push(steady.unwrap_or("-").to_string());
            let x_cell = if x.is_some() {
                format!(" {xv} |")
            } else {
                String::new()
            };
            let _ = writeln!(s, "| {sweep} |{x_cell} {a} | {} |", cells.join(" | "));
        }
    }
    s
}

/// The section, or nothing when the results have no start bins or no Ideal runs.
pub fn section(exp: &Experiment, t: &Table) -> String {
    let bins = bins(t);
    let archs = t.distinct(cols::ARCH).unwrap_or_default();
    if bins.is_empty() || !archs.iter().any(|a| a == "ideal") {
        return String::new();
    }
    let (x, points) = points(exp, t);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "\n## Throughput by flow start time\n\nMean flow throughput of the flows starting in each \
         bin (from the bin's start in µs), in percent of Ideal's at the same point (mean over \
         seeds), and over the flows starting from {STEADY_US} us on (steady state, flow-weighted). \
         Each flow counts, an unfinished one with the bytes acknowledged by the run's end; \
         the claims read Netbench's mean over the completed flows of the whole run; this \
         table shows start-up apart from steady state.\n"
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

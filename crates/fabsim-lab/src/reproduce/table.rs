//! The results of an experiment as one table (the `results.csv`), and the few operations
//! claims and plots need: select rows, read numbers, average over seeds, fit a slope.

use fabsim::metrics::stats::mean_sd;

use super::cols::{self as col, key, Col, ColumnName};
use std::collections::BTreeMap;

/// Rows of string cells under named columns (CSV without the quoting).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

/// One row, read by column name.
#[derive(Clone, Copy)]
pub struct Row<'a> {
    header: &'a [String],
    cells: &'a [String],
}

impl<'a> Row<'a> {
    /// The cell of column `name` (`None` when the column is absent or the cell empty); for
    /// names known only at run time (swept keys, CSV headers). Claims use [`Row::get`].
    pub fn cell(&self, name: &str) -> Option<&'a str> {
        let i = self.header.iter().position(|h| h == name)?;
        self.cells
            .get(i)
            .map(String::as_str)
            .filter(|c| !c.is_empty())
    }

    /// The cell of `col`.
    pub fn get(&self, col: impl ColumnName) -> Option<&'a str> {
        self.cell(&col.column())
    }

    /// The cell of `col` as a number.
    pub fn num(&self, col: impl ColumnName) -> Option<f64> {
        self.get(col)?.parse().ok()
    }

    /// Whether every `(column, value)` pair matches.
    pub fn matches(&self, filter: &[(Col, &str)]) -> bool {
        filter.iter().all(|&(c, v)| self.get(c) == Some(v))
    }
}

/// Rows whose columns equal the given values.
pub type Filter<'a> = [(Col, &'a str)];

/// A number computed from a row (a y value, or the value a claim aggregates).
pub type Metric = fn(&Row) -> Option<f64>;

impl Table {
    /// Parses CSV as written by `fabsim sweep merge` or [`Table::to_csv`].
    pub fn from_csv(text: &str) -> Self {
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .from_reader(text.as_bytes());
        let mut lines = reader.records().map_while(Result::ok).map(|r| {
            let cells: Vec<String> = r.iter().map(String::from).collect();
            cells
        });
        let header = lines.next().unwrap_or_default();
        Table {
            header,
            rows: lines.collect(),
        }
    }

    pub fn to_csv(&self) -> String {
        let mut w = csv::WriterBuilder::new().flexible(true).from_writer(vec![]);
        for cells in std::iter::once(&self.header).chain(&self.rows) {
            w.write_record(cells).expect("CSV into memory");
        }
        String::from_utf8(w.into_inner().expect("CSV into memory")).expect("UTF-8 cells")
    }

    /// Appends `other`'s rows, widening the header to the union of both (missing cells empty).
    pub fn append(&mut self, other: Table) {
        for h in &other.header {
            if !self.header.contains(h) {
                self.header.push(h.clone());
                for r in &mut self.rows {
                    r.push(String::new());
                }
            }
        }
        for cells in other.rows {
            let row = Row {
                header: &other.header,
                cells: &cells,
            };
            let new = self
                .header
                .iter()
                .map(|h| row.cell(h).unwrap_or("").to_string())
                .collect();
            self.rows.push(new);
        }
    }

    /// Adds the Fastroute paper's metric and its readings (`col::NORMALIZED`): each run's
    /// value in percent of the Ideal run (`arch` = ideal) that agrees with it on `seed` and
    /// every column of `keys` but `switch.arch`; and, for Poisson arrivals, whether that
    /// point's Ideal runs reached a steady state (`col::IDEAL_DELIVERED_PCT`,
    /// `col::IDEAL_STEADY`). Empty where there is no such run.
    pub fn normalize_to_ideal(&mut self, keys: &[String]) {
        let same: Vec<&str> = keys
            .iter()
            .map(String::as_str)
            .filter(|k| *k != key::ARCH.name())
            .collect();
        let point = |r: &Row<'_>| -> Vec<Option<String>> {
            same.iter().map(|c| r.cell(c).map(String::from)).collect()
        };
        let with_seed = |r: &Row<'_>| (point(r), r.get(col::SEED).map(String::from));
        let ideal: Vec<Row> = self
            .iter()
            .filter(|r| r.get(col::ARCH) == Some("ideal"))
            .collect();
        let mut added: Vec<Vec<String>> = vec![];
        for r in self.iter() {
            let base = ideal.iter().find(|i| with_seed(i) == with_seed(&r));
            let mut cells: Vec<String> = col::NORMALIZED
                .iter()
                .map(
                    |(_, of)| match (r.num(*of), base.and_then(|b| b.num(*of))) {
                        (Some(v), Some(b)) if b > 0.0 => (100.0 * v / b).to_string(),
                        _ => String::new(),
                    },
                )
                .collect();
            // The point's Ideal runs: what they delivered in the second half of the run in
            // percent of what arrived, averaged over seeds.
            let delivered: Vec<f64> = ideal
                .iter()
                .filter(|i| point(i) == point(&r))
                .filter_map(|i| {
                    Some(100.0 * i.num(col::GOODPUT_LATE_GBPS)? / i.num(col::OFFERED_GBPS)?)
                })
                .collect();
            let pct = (!delivered.is_empty())
                .then(|| delivered.iter().sum::<f64>() / delivered.len() as f64);
            cells.push(pct.map_or(String::new(), |x| x.to_string()));
            cells.push(pct.map_or(String::new(), |x| {
                if x >= col::STEADY_DELIVERED_PCT {
                    "yes"
                } else {
                    "no"
                }
                .to_string()
            }));
            added.push(cells);
        }
        self.header
            .extend(col::NORMALIZED.iter().map(|(c, _)| c.name().to_string()));
        self.header.push(col::IDEAL_DELIVERED_PCT.name().into());
        self.header.push(col::IDEAL_STEADY.name().into());
        for (row, cells) in self.rows.iter_mut().zip(added) {
            row.extend(cells);
        }
    }

    /// The table with column `to` holding a copy of column `from` (empty cells where `from`
    /// is absent): another metric read in the primary's place.
    pub fn reading_of(&self, to: impl ColumnName, from: impl ColumnName) -> Table {
        let from = from.column();
        let cells: Vec<String> = self
            .iter()
            .map(|r| r.cell(&from).unwrap_or("").to_string())
            .collect();
        let mut t = self.clone();
        let i = t.column_index(to);
        for (r, c) in t.rows.iter_mut().zip(cells) {
            r[i] = c;
        }
        t
    }

    /// The rows for which `keep` is true (a claim's subset, or the results without a seed).
    pub fn filtered(&self, keep: impl Fn(&Row) -> bool) -> Table {
        Table {
            header: self.header.clone(),
            rows: self
                .iter()
                .filter(|r| keep(r))
                .map(|r| r.cells.to_vec())
                .collect(),
        }
    }

    /// The rows as they would read with `control` standing where `subject` was in column
    /// `c`: `subject`'s rows dropped and a copy of `control`'s, labelled `subject`, added
    /// (`control`'s own rows stay, for claims that compare with it; a claim's control,
    /// [`super::Control`]).
    pub fn stand_in(&self, c: impl ColumnName, subject: &str, control: &str) -> Table {
        let name = c.column();
        let mut t = self.filtered(|r| r.cell(&name) != Some(subject));
        if let Some(i) = t.header.iter().position(|h| *h == name) {
            let copies: Vec<Vec<String>> = (t.rows.iter().filter(|r| r[i] == control))
                .map(|r| {
                    let mut r = r.clone();
                    r[i] = subject.into();
                    r
                })
                .collect();
            t.rows.extend(copies);
        }
        t
    }

    /// The distinct non-empty values of column `c`, in order of appearance (`None` when the
    /// table has no such column).
    pub fn distinct(&self, c: impl ColumnName) -> Option<Vec<String>> {
        let name = c.column();
        self.header.iter().position(|h| *h == name)?;
        let mut seen: Vec<String> = vec![];
        for v in self.iter().filter_map(|r| r.cell(&name)) {
            if !seen.iter().any(|s| s == v) {
                seen.push(v.to_string());
            }
        }
        Some(seen)
    }

    pub fn iter(&self) -> impl Iterator<Item = Row<'_>> {
        self.rows.iter().map(|cells| Row {
            header: &self.header,
            cells,
        })
    }

    /// The values of `metric` over the rows matching `filter`; an error naming the filter
    /// when no row has a value.
    pub fn values(&self, filter: &Filter, metric: Metric) -> Result<Vec<f64>, String> {
        let xs: Vec<f64> = self
            .iter()
            .filter(|r| r.matches(filter))
            .filter_map(|r| metric(&r))
            .collect();
        if xs.is_empty() {
            return Err(format!("no run with {} has a value", show_filter(filter)));
        }
        Ok(xs)
    }

    /// The mean of `metric` over the rows matching `filter`.
    pub fn mean(&self, filter: &Filter, metric: Metric) -> Result<f64, String> {
        Ok(mean_sd(&self.values(filter, metric)?).0)
    }

    /// The median of `metric` over the rows matching `filter` (the mean of the middle two
    /// for an even count).
    pub fn median(&self, filter: &Filter, metric: Metric) -> Result<f64, String> {
        Ok(median(self.values(filter, metric)?))
    }

    /// The smallest value of `metric` over the rows matching `filter`.
    pub fn min(&self, filter: &Filter, metric: Metric) -> Result<f64, String> {
        Ok(self
            .values(filter, metric)?
            .into_iter()
            .fold(f64::INFINITY, f64::min))
    }

    /// Mean of `metric` per value of column `x` (numeric, ascending) over the rows matching
    /// `filter`.
    pub fn mean_by(
        &self,
        filter: &Filter,
        x: Col,
        metric: Metric,
    ) -> Result<Vec<(f64, f64)>, String> {
        self.agg_by(filter, x, metric, |ys| mean_sd(&ys).0)
    }

    /// [`Table::mean_by`] with another aggregate than the mean.
    fn agg_by(
        &self,
        filter: &Filter,
        x: Col,
        metric: Metric,
        agg: fn(Vec<f64>) -> f64,
    ) -> Result<Vec<(f64, f64)>, String> {
        let mut by: BTreeMap<u64, (f64, Vec<f64>)> = BTreeMap::new();
        for r in self.iter().filter(|r| r.matches(filter)) {
            if let (Some(xv), Some(y)) = (r.num(x), metric(&r)) {
                by.entry(xv.to_bits()).or_insert((xv, vec![])).1.push(y);
            }
        }
        let mut pts: Vec<(f64, f64)> = by.into_values().map(|(x, ys)| (x, agg(ys))).collect();
        pts.sort_by(|a, b| a.0.total_cmp(&b.0));
        if pts.is_empty() {
            return Err(format!("no run with {} has a value", show_filter(filter)));
        }
        Ok(pts)
    }

    /// The growth exponent (`growth_fit`) of the mean metric against x over the rows
    /// matching `filter`: 1 = linear growth, 0.5 = square root, 0 = flat.
    pub fn growth_exponent(&self, filter: &Filter, x: Col, metric: Metric) -> Result<f64, String> {
        growth_fit(filter, self.mean_by(filter, x, metric)?)
    }

    /// The median of `metric` per value of column `x` (timings: robust to a slow outlier).
    pub fn median_by(
        &self,
        filter: &Filter,
        x: Col,
        metric: Metric,
    ) -> Result<Vec<(f64, f64)>, String> {
        self.agg_by(filter, x, metric, median)
    }
}

/// The median of `xs` (not empty).
fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    if n % 2 == 1 {
        xs[n / 2]
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) / 2.0
    }
}

/// The exponent `s` of the least-squares fit `y = a + b x^s` (a, b >= 0) to `pts`
/// (`filter`: what they are, for the error), searched on a grid of 0.005 over 0..=4 (x
/// taken relative to its smallest value). The offset `a` matters: a queue that holds a
/// constant backlog plus a part growing like m reads as linear growth, where the log-log
/// slope of the sum bends towards 0 (issue 46: SIMPLE RR's downlinks, slope 0.66, exponent
/// 0.9). A series that never grows fits best with b = 0, and reads 0.
pub fn growth_fit(filter: &Filter, pts: Vec<(f64, f64)>) -> Result<f64, String> {
    if pts.len() < 3 || pts.iter().any(|&(x, y)| x <= 0.0 || y < 0.0) {
        return Err(format!(
            "{}: a growth exponent needs three or more points, x positive and y not negative",
            show_filter(filter)
        ));
    }
    let x0 = pts[0].0;
    let ys: Vec<f64> = pts.iter().map(|p| p.1).collect();
    let my = mean_sd(&ys).0;
    // The flat fit (b = 0) is the baseline every growing fit must beat.
    let mut best = (ys.iter().map(|y| (y - my).powi(2)).sum::<f64>(), 0.0);
    for i in 1..=800 {
        let e = i as f64 * 0.005;
        let z: Vec<f64> = pts.iter().map(|p| (p.0 / x0).powf(e)).collect();
        let mz = mean_sd(&z).0;
        let szz: f64 = z.iter().map(|v| (v - mz).powi(2)).sum();
        let szy: f64 = z.iter().zip(&ys).map(|(v, y)| (v - mz) * (y - my)).sum();
        let mut b = szy / szz;
        if b <= 0.0 {
            continue;
        }
        let mut a = my - b * mz;
        if a < 0.0 {
            // The best fit through the origin instead.
            a = 0.0;
            b = z.iter().zip(&ys).map(|(v, y)| v * y).sum::<f64>()
                / z.iter().map(|v| v * v).sum::<f64>();
        }
        let sse: f64 = z
            .iter()
            .zip(&ys)
            .map(|(v, y)| (y - a - b * v).powi(2))
            .sum();
        if sse < best.0 * (1.0 - 1e-12) {
            best = (sse, e);
        }
    }
    Ok(best.1)
}

/// The index of the row's `c` cell among `values` (for per-point synthetic numbers).
pub fn index(r: &Row, c: Col, values: &[&str]) -> usize {
    let v = r.get(c).unwrap_or_default();
    values.iter().position(|x| *x == v).unwrap_or(0)
}

/// A synthetic results table (for the tests that show each claim can fail): one row per
/// combination of the axes' values, the first axis varying slowest.
pub fn grid(axes: &[(Col, &[&str])]) -> Table {
    let mut rows: Vec<Vec<String>> = vec![vec![]];
    for (_, values) in axes {
        rows = rows
            .into_iter()
            .flat_map(|r| {
                values.iter().map(move |v| {
                    let mut r = r.clone();
                    r.push(v.to_string());
                    r
                })
            })
            .collect();
    }
    Table {
        header: axes.iter().map(|(c, _)| c.name().to_string()).collect(),
        rows,
    }
}

impl Table {
    /// Sets column `c` (added when absent) to `f(row)` in every row.
    pub fn with(mut self, c: impl ColumnName, f: impl Fn(&Row) -> f64) -> Self {
        let i = self.column_index(c);
        let vals: Vec<String> = self.iter().map(|r| f(&r).to_string()).collect();
        for (r, v) in self.rows.iter_mut().zip(vals) {
            r[i] = v;
        }
        self
    }

    /// The index of column `c`, added (empty) when absent.
    fn column_index(&mut self, c: impl ColumnName) -> usize {
        let name = c.column();
        if let Some(i) = self.header.iter().position(|h| *h == name) {
            return i;
        }
        self.header.push(name.into_owned());
        for r in &mut self.rows {
            r.push(String::new());
        }
        self.header.len() - 1
    }

    /// Replaces the number `x` in column `c` by `f(x)` in the rows matching `filter` (no
    /// change without the column).
    pub fn map(&mut self, filter: &Filter, c: impl ColumnName, f: impl Fn(f64) -> f64) {
        let name = c.column();
        let Some(i) = self.header.iter().position(|h| *h == name) else {
            return;
        };
        let hit: Vec<bool> = self.iter().map(|r| r.matches(filter)).collect();
        for (r, hit) in self.rows.iter_mut().zip(hit) {
            if let (true, Ok(x)) = (hit, r[i].parse::<f64>()) {
                r[i] = f(x).to_string();
            }
        }
    }
}

/// `a=b, c=d` (or "all runs").
pub(super) fn show_filter(filter: &Filter) -> String {
    if filter.is_empty() {
        return "any setting".into();
    }
    filter
        .iter()
        .map(|(c, v)| format!("{}={v}", c.name()))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn throughput_is_normalized_to_the_matching_ideal_run() {
        let mut t = Table::from_csv(
            "switch.arch,load,seed,arch,thrp_completed_gbps,mean_throughput_gbps,\
             goodput_late_gbps,offered_gbps\n\
             ideal,0.5,1,ideal,50,10,99,100\nfastroute,0.5,1,fastroute,45,11,50,100\n\
             ideal,0.5,2,ideal,40,10,93,100\nfastroute,0.5,2,fastroute,40,10,50,100\n\
             fastroute,0.8,1,fastroute,30,10,50,100\n",
        );
        t.normalize_to_ideal(&["switch.arch".into(), "load".into()]);
        let pct: Vec<Option<f64>> = t.iter().map(|r| r.num(col::THRP_PCT)).collect();
        assert_eq!(
            pct,
            vec![Some(100.0), Some(90.0), Some(100.0), Some(100.0), None]
        );
        let all: Vec<Option<f64>> = t.iter().map(|r| r.num(col::THRP_ALL_PCT)).collect();
        assert_eq!(all[1], Some(110.0));
        // Ideal delivered 99% and 93% of what arrived: 96% on average, a steady state; the
        // point without Ideal runs has no flag.
        let steady: Vec<Option<&str>> = t.iter().map(|r| r.get(col::IDEAL_STEADY)).collect();
        assert_eq!(
            steady,
            vec![Some("yes"); 4]
                .into_iter()
                .chain([None])
                .collect::<Vec<_>>()
        );
        assert_eq!(
            t.iter()
                .next()
                .and_then(|r| r.num(col::IDEAL_DELIVERED_PCT)),
            Some(96.0)
        );
    }

    fn t() -> Table {
        Table::from_csv(
            "lb,m,q\nofan,1,2\nofan,4,2\nofan,16,2\nar,1,1\nar,4,2\nar,16,4\nx,\"a,b\",\n",
        )
    }

    #[test]
    fn csv_round_trips_and_reads_quoted_fields() {
        let t = t();
        assert_eq!(t.rows[6][1], "a,b");
        assert_eq!(Table::from_csv(&t.to_csv()), t);
    }

    #[test]
    fn growth_exponents_recognize_flat_square_root_and_offset_linear_growth() {
        let q: Metric = |r| r.num(Col::derived("q"));
        let (t, m) = (t(), Col::derived("m"));
        assert_eq!(t.growth_exponent(&[(col::LB, "ofan")], m, q), Ok(0.0));
        assert!((t.growth_exponent(&[(col::LB, "ar")], m, q).unwrap() - 0.5).abs() < 1e-9);
        assert!(t.growth_exponent(&[(col::LB, "none")], m, q).is_err());
        // A constant backlog plus linear growth is linear; its log-log slope is not.
        let pts: Vec<(f64, f64)> = [64.0, 256.0, 1024.0, 4096.0]
            .iter()
            .map(|&x| (x, 500.0 + 2.0 * x))
            .collect();
        assert!((growth_fit(&[], pts).unwrap() - 1.0).abs() < 1e-9);
        // A queue that saturates reads flat, a cubic cost with a constant part cubic.
        let sat = vec![(1.0, 20.0), (4.0, 26.0), (16.0, 26.0), (64.0, 26.0)];
        assert!(growth_fit(&[], sat).unwrap() < 0.1);
        let cubic: Vec<(f64, f64)> = (1..6)
            .map(|p| (p as f64 * 16.0, 1e3 + (p as f64).powi(3)))
            .collect();
        assert!((growth_fit(&[], cubic).unwrap() - 3.0).abs() < 1e-9);
    }

    #[test]
    fn append_widens_the_header() {
        let mut a = Table::from_csv("x,y\n1,2\n");
        a.append(Table::from_csv("y,z\n3,4\n"));
        assert_eq!(a.header, ["x", "y", "z"]);
        assert_eq!(a.rows, [vec!["1", "2", ""], vec!["", "3", "4"]]);
    }
}

//! Empirical flow-size distributions: the common CDF file formats, the distributions shipped
//! in `data/flow-sizes/` (embedded, by name), sampling and the mean.
//!
//! A file has one point per line, `BYTES CDF`, the two numbers separated by spaces, tabs or
//! a comma; the CDF is a fraction (the last line's is 1) or a percentage (100); blank lines
//! and `#` comments are skipped. This reads:
//! - Homa's (PlatformLab/HomaSimulation `sizeDistributions/`, the Facebook files): a first
//!   line holding only the mean, then `bytes fraction`. Sampled as the discrete distribution
//!   of its points (a draw takes the first size whose CDF reaches it): the stated means are
//!   the means of exactly this distribution.
//! - HPCC's traffic_gen (`WebSearch_distribution.txt`, `FbHdp_distribution.txt`):
//!   `bytes percent`.
//! - CSVs of the pFabric web search and data mining distributions (opera-sim's
//!   `websearch.csv`, `datamining.csv`): `bytes,fraction`.
//!
//! - ns-2's pFabric files (`CDF_search.tcl`, `CDF_dctcp.tcl`): three columns, `PACKETS
//!   IGNORED CDF`, sizes in packets of [`PFABRIC_MSS`] bytes.
//!
//! Files without a mean line are interpolated linearly between points, as HPCC's generator
//! samples them (the probability at or below the first point is that point's size).

/// The distributions shipped in `data/flow-sizes/`, by their `workload.cdf` names.
pub const BUILT_IN: &[(&str, &str)] = &[
    (
        "fb-web",
        include_str!("../../../../data/flow-sizes/Facebook_WebServerDist_IntraCluster.txt"),
    ),
    (
        "fb-hadoop",
        include_str!("../../../../data/flow-sizes/Facebook_HadoopDist_All.txt"),
    ),
    (
        "websearch",
        include_str!("../../../../data/flow-sizes/websearch.csv"),
    ),
    (
        "datamining",
        include_str!("../../../../data/flow-sizes/datamining.csv"),
    ),
];

/// Bytes per packet of ns-2's pFabric CDF files (their sizes count 1460-byte packets).
pub const PFABRIC_MSS: f64 = 1460.0;

/// An empirical CDF of flow sizes (validated; CDF values as fractions).
#[derive(Clone, Debug, PartialEq)]
pub struct SizeCdf {
    points: Vec<(f64, f64)>,
    /// Interpolate linearly between points (else: the discrete distribution of the points).
    linear: bool,
}

/// A problem in a CDF file: the line (1-based) and what was expected there.
#[derive(Clone, Debug, PartialEq)]
pub struct CdfError {
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for CdfError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl SizeCdf {
    /// Parses a CDF file's text (see the module documentation for the formats).
    pub fn parse(text: &str) -> Result<Self, CdfError> {
        let text = crate::engine::without_bom(text);
        let err = |line: usize, message: String| CdfError { line, message };
        let mut points: Vec<(f64, f64)> = Vec::new();
        let mut linear = true;
        let mut last_line = 0;
        let mut first = true;
        // Columns per point: 2 (bytes, CDF) or 3 (pFabric: packets, ignored, CDF), as the
        // first point has them.
        let mut columns = None;
        for (i, raw) in text.lines().enumerate() {
            let n = i + 1;
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let fields: Vec<&str> = line
                .split(|c: char| c == ',' || c.is_whitespace())
                .filter(|s| !s.is_empty())
                .collect();
            let number = |s: &str| s.parse::<f64>().ok().filter(|x| x.is_finite() && *x >= 0.0);
            let was_first = std::mem::replace(&mut first, false);
            if was_first && fields.len() == 1 && number(fields[0]).is_some() {
                // Homa's format: the mean on the first line.
                linear = false;
                continue;
            }
            let cols = *columns.get_or_insert(fields.len());
            let all_numbers = fields.iter().all(|s| number(s).is_some());
            let (Some(size), Some(cdf), true) = (
                fields.first().and_then(|s| number(s)),
                fields.last().and_then(|s| number(s)),
                all_numbers && fields.len() == cols && (cols == 2 || cols == 3),
            ) else {
                return Err(err(
                    n,
                    format!(
                        "expected `BYTES CDF`: two numbers >= 0 separated by spaces or a comma \
                         (a size in bytes, then its cumulative fraction or percentage), or three \
                         on every line as pFabric's `PACKETS _ CDF`; found {raw:?}"
                    ),
                ));
            };
            let bytes = if cols == 3 { size * PFABRIC_MSS } else { size };
            if let Some(&(b, c)) = points.last() {
                if bytes < b {
                    return Err(err(
                        n,
                        format!("size {bytes} is below the previous point's {b}: expected ascending sizes"),
                    ));
                }
                if cdf < c {
                    return Err(err(
                        n,
                        format!("CDF {cdf} is below the previous point's {c}: expected a non-decreasing CDF"),
                    ));
                }
            }
            points.push((bytes, cdf));
            last_line = n;
        }
        let Some(&(max_bytes, end)) = points.last() else {
            return Err(err(
                text.lines().count().max(1),
                "expected `BYTES CDF` lines; the file has no point".into(),
            ));
        };
        let scale = [1.0, 100.0]
            .into_iter()
            .find(|s| (end / s - 1.0).abs() < 1e-6)
            .ok_or_else(|| {
                err(
                    last_line,
                    format!("the CDF ends at {end}: expected 1 (fractions) or 100 (percentages)"),
                )
            })?;
        if max_bytes < 1.0 {
            return Err(err(
                last_line,
                format!("the largest size is {max_bytes}: expected at least 1 byte"),
            ));
        }
        for p in &mut points {
            p.1 /= scale;
        }
        Ok(Self { points, linear })
    }

    /// A distribution shipped in `data/flow-sizes/`, by name (see [`BUILT_IN`]).
    pub fn built_in(name: &str) -> Option<Self> {
        let (_, text) = BUILT_IN.iter().find(|(n, _)| *n == name)?;
        Some(Self::parse(text).expect("shipped CDFs parse"))
    }

    /// Facebook web-server flows (Roy et al., SIGCOMM 2015): Fastroute's `web`.
    pub fn web() -> Self {
        Self::built_in("fb-web").expect("shipped")
    }

    /// Facebook Hadoop flows (Roy et al., SIGCOMM 2015): Fastroute's `hadoop`.
    pub fn hadoop() -> Self {
        Self::built_in("fb-hadoop").expect("shipped")
    }

    /// The size at quantile `u` in [0, 1): the first point whose cumulative value reaches
    /// `u`, found by binary search (the values never decrease), so a CDF of many points costs
    /// no more per flow than a short one.
    pub fn quantile(&self, u: f64) -> f64 {
        let last = self.points[self.points.len() - 1];
        let i = self
            .points
            .partition_point(|&(_, c)| c < u * last.1)
            .min(self.points.len() - 1);
        let (b1, c1) = self.points[i];
        if !self.linear || i == 0 || c1 <= self.points[i - 1].1 {
            return b1;
        }
        let (b0, c0) = self.points[i - 1];
        b0 + (b1 - b0) * (u * last.1 - c0) / (c1 - c0)
    }

    /// The largest size the distribution draws.
    pub fn max_bytes(&self) -> u64 {
        self.points[self.points.len() - 1].0.ceil() as u64
    }

    /// Mean of the distribution (as sampled).
    pub fn mean(&self) -> f64 {
        let (mut m, mut prev) = (0.0, 0.0);
        let mut prev_bytes = self.points[0].0;
        for &(b, c) in &self.points {
            let at = if self.linear {
                (b + prev_bytes) / 2.0
            } else {
                b
            };
            m += (c - prev) * at;
            prev = c;
            prev_bytes = b;
        }
        m / prev
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Rng;

    #[test]
    fn homa_files_match_their_stated_means() {
        for name in ["fb-web", "fb-hadoop"] {
            let text = BUILT_IN.iter().find(|b| b.0 == name).unwrap().1;
            let stated: f64 = text.lines().next().unwrap().trim().parse().unwrap();
            let cdf = SizeCdf::built_in(name).unwrap();
            assert!(!cdf.linear);
            let m = cdf.mean();
            assert!((m / stated - 1.0).abs() < 1e-5, "{name}: {m} vs {stated}");
            assert!(cdf.quantile(0.0) > 0.0 && cdf.quantile(1.0) > cdf.quantile(0.5));
        }
    }

    #[test]
    fn percent_and_csv_formats_interpolate_linearly() {
        // HPCC's format: percentages, spaces.
        let hpcc = SizeCdf::parse("0 0\n100 50\n300 100\n").unwrap();
        // A CSV of fractions, with a comment and a blank line.
        let csv = SizeCdf::parse("# bytes,cdf\n0,0\n\n100,0.5\n300,1\n").unwrap();
        assert_eq!(hpcc, csv);
        assert_eq!(csv.quantile(0.25), 50.0);
        assert_eq!(csv.quantile(0.75), 200.0);
        assert_eq!(csv.mean(), 0.5 * 50.0 + 0.5 * 200.0);
        // Mass at the first point: a step there, then linear.
        let step = SizeCdf::parse("100 0.2\n200 1\n").unwrap();
        assert_eq!(step.quantile(0.1), 100.0);
        assert_eq!(step.mean(), 0.2 * 100.0 + 0.8 * 150.0);
    }

    #[test]
    fn binary_search_finds_the_first_point_reaching_the_quantile() {
        for cdf in [SizeCdf::web(), SizeCdf::hadoop()] {
            let last = cdf.points[cdf.points.len() - 1].1;
            for k in 0..=1000 {
                let u = k as f64 / 1000.0;
                let scan = cdf
                    .points
                    .iter()
                    .position(|&(_, c)| u * last <= c)
                    .unwrap_or(cdf.points.len() - 1);
                let i = cdf.points.partition_point(|&(_, c)| c < u * last);
                assert_eq!(i.min(cdf.points.len() - 1), scan, "u = {u}");
            }
        }
    }

    #[test]
    fn sampled_means_match_the_distributions() {
        for (name, _) in BUILT_IN.iter().filter(|b| b.0 != "datamining") {
            let cdf = SizeCdf::built_in(name).unwrap();
            let mut rng = Rng::new(7);
            let n = 400_000;
            let sum: f64 = (0..n).map(|_| cdf.quantile(rng.unit())).sum();
            let ratio = sum / n as f64 / cdf.mean();
            assert!(
                (ratio - 1.0).abs() < 0.02,
                "{name}: sampled / stated mean {ratio}"
            );
        }
    }

    #[test]
    fn pfabric_files_count_packets_of_1460_bytes() {
        let c = SizeCdf::parse("1 1 0\n1 1 0.5\n3 1 1\n").unwrap();
        assert_eq!(c.quantile(0.5), PFABRIC_MSS);
        assert_eq!(c.quantile(1.0), 3.0 * PFABRIC_MSS);
        assert!((c.mean() - 1.5 * PFABRIC_MSS).abs() < 1.0, "{}", c.mean());
    }

    #[test]
    fn bad_files_name_the_line_and_what_was_expected() {
        let cases = [
            ("100 0.5\n200 x\n", 2, "expected `BYTES CDF`"),
            ("100 0.5 7 1\n", 1, "two numbers"),
            ("1 1 0.5\n2 1\n", 2, "three"),
            ("100 0.5\n50 1\n", 2, "ascending sizes"),
            ("100 0.5\n200 0.4\n300 1\n", 2, "non-decreasing"),
            ("100 0.5\n\n200 0.9\n\n", 3, "ends at 0.9"),
            ("# nothing\n\n", 2, "no point"),
            ("", 1, "no point"),
            ("0 0\n0 1\n", 2, "at least 1 byte"),
            ("100 -0.5\n", 1, ">= 0"),
            ("1e400 1\n", 1, "two numbers"),
        ];
        for (text, line, what) in cases {
            let e = SizeCdf::parse(text).unwrap_err();
            assert_eq!(e.line, line, "{text:?}: {e}");
            assert!(e.to_string().contains(what), "{text:?}: {e}");
        }
    }
}

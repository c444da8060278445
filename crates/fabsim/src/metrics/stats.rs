//! One helper per statistic, shared by the reports and the CLI's tables.

/// The arithmetic mean (`None` for no values).
pub fn mean(xs: &[f64]) -> Option<f64> {
    (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64)
}

/// Mean and sample standard deviation (0 for one value; NaN for none).
pub fn mean_sd(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    (mean, var.sqrt())
}

/// The `q`-quantile of ascending `sorted` by nearest rank: the `ceil(n q)`-th smallest value
/// (`None` for no values).
pub fn quantile(sorted: &[f64], q: f64) -> Option<f64> {
    let rank = ((sorted.len() as f64 * q).ceil() as usize).saturating_sub(1);
    sorted.get(rank).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_quantiles() {
        let xs: Vec<f64> = (1..=200).map(f64::from).collect();
        assert_eq!(quantile(&xs, 0.5), Some(100.0));
        assert_eq!(quantile(&xs, 0.99), Some(198.0));
        assert_eq!(quantile(&xs[..1], 0.99), Some(1.0));
        assert_eq!(quantile(&[], 0.5), None);
    }

    /// The float rank `ceil(n * 0.99)` equals the exact integer `ceil(99 n / 100)` (the
    /// formula `fct_p99_us` used before this helper) for every flow count a run can have,
    /// so the two p99 definitions give identical reports.
    #[test]
    fn float_rank_equals_the_exact_rank() {
        for n in 1..=2_000_000usize {
            assert_eq!(
                ((n as f64 * 0.99).ceil() as usize),
                (n * 99).div_ceil(100),
                "n = {n}"
            );
        }
    }

    #[test]
    fn mean_and_sample_sd() {
        assert_eq!(mean(&[]), None);
        assert_eq!(mean(&[1.0, 3.0]), Some(2.0));
        let (m, sd) = mean_sd(&[2.0, 4.0]);
        assert_eq!(m, 3.0);
        assert!((sd - 2f64.sqrt()).abs() < 1e-12);
        assert_eq!(mean_sd(&[5.0]), (5.0, 0.0));
    }
}

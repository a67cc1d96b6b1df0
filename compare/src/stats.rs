//! Small descriptive statistics for the spread of device iterations.
//!
//! Quantiles use linear interpolation between order statistics (the "type 7" definition
//! of Hyndman and Fan, the default of most spreadsheet and numeric tools), so the median of
//! an even-length sample is the mean of its two middle values.

/// The `q`-quantile (0 <= q <= 1) of `v`, or `None` for an empty slice.
pub fn quantile(v: &[f64], q: f64) -> Option<f64> {
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    let pos = q.clamp(0.0, 1.0) * (s.len().checked_sub(1)?) as f64;
    let (lo, hi) = (s[pos.floor() as usize], s[pos.ceil() as usize]);
    Some(lo + (hi - lo) * pos.fract())
}

pub fn median(v: &[f64]) -> Option<f64> {
    quantile(v, 0.5)
}

/// Coefficient of variation: the sample standard deviation (n - 1 in the denominator) over
/// the mean; `None` below two values or with a zero mean.
pub fn cv(v: &[f64]) -> Option<f64> {
    let n = v.len() as f64;
    let m = v.iter().sum::<f64>() / n;
    let ss: f64 = v.iter().map(|x| (x - m) * (x - m)).sum();
    (v.len() > 1 && m != 0.0).then(|| (ss / (n - 1.0)).sqrt() / m)
}

/// Interquartile range over the median; `None` below two values or with a zero median.
pub fn iqr_over_median(v: &[f64]) -> Option<f64> {
    let med = median(v).filter(|&m| v.len() > 1 && m != 0.0)?;
    Some((quantile(v, 0.75)? - quantile(v, 0.25)?) / med)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        let v = [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0];
        assert_eq!(median(&v), Some(4.5));
        // Sample variance 32/7 around the mean 5.
        assert!((cv(&v).unwrap() - (32.0f64 / 7.0).sqrt() / 5.0).abs() < 1e-12);
        // Q1 = 4, Q3 = 5.5 (type 7) -> IQR 1.5 over median 4.5.
        assert!((iqr_over_median(&v).unwrap() - 1.5 / 4.5).abs() < 1e-12);
        assert_eq!((median(&[3.0, 1.0, 2.0]), median(&[])), (Some(2.0), None));
        assert_eq!((cv(&[1.0]), cv(&[5.0, 5.0, 5.0])), (None, Some(0.0)));
    }
}

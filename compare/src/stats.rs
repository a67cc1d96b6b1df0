//! Small descriptive statistics for the spread of device iterations.
//!
//! Quantiles use linear interpolation between order statistics (the "type 7" definition
//! of Hyndman and Fan, the default of most spreadsheet and numeric tools), so the median of
//! an even-length sample is the mean of its two middle values.

/// The `q`-quantile (0 <= q <= 1) of `v`, or `None` for an empty slice.
pub fn quantile(v: &[f64], q: f64) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    let pos = q.clamp(0.0, 1.0) * (s.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = pos.ceil() as usize;
    Some(s[lo] + (s[hi] - s[lo]) * (pos - lo as f64))
}

pub fn median(v: &[f64]) -> Option<f64> {
    quantile(v, 0.5)
}

pub fn mean(v: &[f64]) -> Option<f64> {
    (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
}

/// Sample standard deviation (n - 1 in the denominator); `None` below two values.
pub fn std_dev(v: &[f64]) -> Option<f64> {
    if v.len() < 2 {
        return None;
    }
    let m = mean(v)?;
    let ss: f64 = v.iter().map(|x| (x - m) * (x - m)).sum();
    Some((ss / (v.len() - 1) as f64).sqrt())
}

/// Coefficient of variation: std / mean.
pub fn cv(v: &[f64]) -> Option<f64> {
    let m = mean(v)?;
    (m != 0.0).then_some(std_dev(v)? / m)
}

/// Interquartile range over the median.
pub fn iqr_over_median(v: &[f64]) -> Option<f64> {
    let med = median(v)?;
    if v.len() < 2 || med == 0.0 {
        return None;
    }
    Some((quantile(v, 0.75)? - quantile(v, 0.25)?) / med)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        let v = [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0];
        assert_eq!(mean(&v), Some(5.0));
        assert_eq!(median(&v), Some(4.5));
        // Sample variance 32/7.
        assert!((std_dev(&v).unwrap() - (32.0f64 / 7.0).sqrt()).abs() < 1e-12);
        // Q1 = 4, Q3 = 5.5 (type 7) -> IQR 1.5 over median 4.5.
        assert!((iqr_over_median(&v).unwrap() - 1.5 / 4.5).abs() < 1e-12);
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&[]), None);
        assert_eq!(std_dev(&[1.0]), None);
        assert_eq!(cv(&[5.0, 5.0, 5.0]), Some(0.0));
    }
}

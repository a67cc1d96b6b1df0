//! Number formatting shared by the summary, the tables and the charts.

/// `12345678` -> `12.35 M`, `45678` -> `45.68 k`, `999` -> `999`.
pub fn si(v: f64) -> String {
    let a = v.abs();
    if a >= 1e9 {
        format!("{:.2} G", v / 1e9)
    } else if a >= 1e6 {
        format!("{:.2} M", v / 1e6)
    } else if a >= 1e4 {
        format!("{:.1} k", v / 1e3)
    } else if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.2}")
    }
}

/// Bytes as KiB with one decimal, e.g. `38109` -> `37.2 KiB`.
pub fn kib(v: u64) -> String {
    format!("{:.1} KiB", v as f64 / 1024.0)
}

/// An integer with thin grouping: `12345678` -> `12 345 678`.
pub fn grouped(v: u64) -> String {
    let s = v.to_string();
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push('\u{202f}');
        }
        out.push(ch);
    }
    out
}

/// A signed integer with thin grouping: `-1234` -> `-1 234`.
pub fn grouped_signed(v: i64) -> String {
    let sign = if v < 0 { "-" } else { "" };
    format!("{sign}{}", grouped(v.unsigned_abs()))
}

/// `n` as `2^k` when it is a power of two.
pub fn pow2(n: u64) -> String {
    if n.is_power_of_two() {
        format!("2^{}", n.trailing_zeros())
    } else {
        n.to_string()
    }
}

/// A percentage with one decimal.
pub fn pct(v: f64) -> String {
    format!("{:.1}%", v * 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(si(12_345_678.0), "12.35 M");
        assert_eq!(si(45_678.0), "45.7 k");
        assert_eq!(si(999.0), "999");
        assert_eq!(kib(38109), "37.2 KiB");
        assert_eq!(grouped(12345678), "12\u{202f}345\u{202f}678");
        assert_eq!(grouped(123), "123");
        assert_eq!(pow2(65536), "2^16");
        assert_eq!(pow2(100), "100");
        assert_eq!(pct(0.0123), "1.2%");
    }
}

//! Hand-written inline SVG charts (no scripts, no external resources): grouped horizontal
//! bars, lines on a log scale, and 100%-stacked bars.

use std::fmt::Write;

use crate::human::si;

/// Colours for series, chosen to stay distinct in print and for common colour-vision
/// deficiencies (Okabe-Ito).
pub const PALETTE: &[&str] = &[
    "#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000",
];

/// Escapes text for SVG/HTML.
pub fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// One group of bars (one label on the left, one bar per series).
pub struct BarGroup {
    pub label: String,
    /// `(series index, value)`; a missing series leaves a gap labelled "not measured".
    pub bars: Vec<(usize, Option<f64>)>,
}

const W: f64 = 960.0;
const LEFT: f64 = 200.0;
const RIGHT: f64 = 110.0;

fn legend(out: &mut String, series: &[String], y: f64) {
    let mut x = LEFT;
    for (i, s) in series.iter().enumerate() {
        let _ = write!(
            out,
            r#"<rect x="{x}" y="{}" width="12" height="12" fill="{}"/><text x="{}" y="{}" font-size="12">{}</text>"#,
            y - 10.0,
            PALETTE[i % PALETTE.len()],
            x + 16.0,
            y,
            esc(s)
        );
        x += 28.0 + 7.0 * s.chars().count() as f64;
    }
}

fn header(out: &mut String, title: &str, note: &str, height: f64) {
    let _ = write!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {height}" width="{W}" height="{height}" font-family="system-ui, sans-serif" role="img" aria-label="{}">"#,
        esc(title)
    );
    let _ = write!(
        out,
        r##"<rect width="{W}" height="{height}" fill="#fff"/><text x="10" y="22" font-size="15" font-weight="600">{}</text><text x="10" y="40" font-size="11" fill="#555">{}</text>"##,
        esc(title),
        esc(note)
    );
}

/// Grouped horizontal bars on a linear scale starting at zero.
pub fn bar_chart(
    title: &str,
    note: &str,
    series: &[String],
    groups: &[BarGroup],
    fmt: &dyn Fn(f64) -> String,
) -> String {
    let bar_h = 15.0;
    let per_group = series.len().max(1) as f64 * (bar_h + 2.0) + 12.0;
    let top = 70.0;
    let height = top + groups.len() as f64 * per_group + 30.0;
    let max = groups
        .iter()
        .flat_map(|g| g.bars.iter().filter_map(|b| b.1))
        .fold(0.0f64, f64::max);
    let scale = if max > 0.0 {
        (W - LEFT - RIGHT) / max
    } else {
        0.0
    };
    let mut out = String::new();
    header(&mut out, title, note, height);
    legend(&mut out, series, 60.0);
    let _ = write!(
        out,
        r##"<line x1="{LEFT}" y1="{}" x2="{LEFT}" y2="{}" stroke="#333"/>"##,
        top - 4.0,
        height - 26.0
    );
    for (gi, g) in groups.iter().enumerate() {
        let y0 = top + gi as f64 * per_group;
        let _ = write!(
            out,
            r#"<text x="{}" y="{}" font-size="12" text-anchor="end">{}</text>"#,
            LEFT - 8.0,
            y0 + per_group / 2.0 - 2.0,
            esc(&g.label)
        );
        for (bi, (si_, v)) in g.bars.iter().enumerate() {
            let y = y0 + bi as f64 * (bar_h + 2.0);
            match v {
                Some(v) => {
                    let w = (v * scale).max(1.0);
                    let _ = write!(
                        out,
                        r##"<rect x="{LEFT}" y="{y}" width="{w:.1}" height="{bar_h}" fill="{}"><title>{}: {}</title></rect><text x="{:.1}" y="{:.1}" font-size="11" fill="#222">{}</text>"##,
                        PALETTE[si_ % PALETTE.len()],
                        esc(series.get(*si_).map_or("", String::as_str)),
                        esc(&fmt(*v)),
                        LEFT + w + 4.0,
                        y + bar_h - 3.0,
                        esc(&fmt(*v))
                    );
                }
                None => {
                    let _ = write!(
                        out,
                        r##"<text x="{}" y="{:.1}" font-size="11" fill="#999">{}: not measured</text>"##,
                        LEFT + 4.0,
                        y + bar_h - 3.0,
                        esc(series.get(*si_).map_or("", String::as_str))
                    );
                }
            }
        }
    }
    out.push_str("</svg>");
    out
}

/// One line of a line chart: `(x, y)` points.
pub struct Series {
    pub name: String,
    /// Palette index.
    pub color: usize,
    /// Drawn dashed.
    pub dashed: bool,
    pub points: Vec<(f64, f64)>,
}

/// Lines with a log10 y axis; x values are labelled with `x_label`.
pub fn line_chart(
    title: &str,
    note: &str,
    y_unit: &str,
    series: &[Series],
    x_label: &dyn Fn(f64) -> String,
) -> String {
    let height = 420.0;
    let (top, bottom, left, right) = (60.0, 360.0, 90.0, 700.0);
    let pts = || series.iter().flat_map(|s| s.points.iter());
    let xs: Vec<f64> = {
        let mut v: Vec<f64> = pts().map(|p| p.0).collect();
        v.sort_by(f64::total_cmp);
        v.dedup();
        v
    };
    let ys: Vec<f64> = pts().map(|p| p.1).filter(|y| *y > 0.0).collect();
    let mut out = String::new();
    header(&mut out, title, note, height);
    if xs.is_empty() || ys.is_empty() {
        out.push_str(r##"<text x="20" y="80" fill="#999">no data</text></svg>"##);
        return out;
    }
    // A log axis from the 1-2-5 step at or below the minimum to the one at or above the
    // maximum, with a grid line at every step in between.
    let steps = |lo_v: f64, hi_v: f64| -> Vec<f64> {
        let mut v = Vec::new();
        let mut e = lo_v.log10().floor() as i32 - 1;
        while v.last().is_none_or(|&t: &f64| t < hi_v) && e < 20 {
            for m in [1.0, 2.0, 5.0] {
                v.push(m * 10f64.powi(e));
            }
            e += 1;
        }
        v
    };
    let min_y = ys.iter().copied().fold(f64::INFINITY, f64::min);
    let max_y = ys.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let all = steps(min_y, max_y);
    let lo_t = all
        .iter()
        .copied()
        .filter(|&t| t <= min_y)
        .fold(all[0], f64::max);
    let hi_t = all
        .iter()
        .copied()
        .find(|&t| t >= max_y && t > lo_t)
        .unwrap_or(lo_t * 10.0);
    let ticks: Vec<f64> = all
        .into_iter()
        .filter(|&t| t >= lo_t && t <= hi_t)
        .collect();
    let (lo, hi) = (lo_t.log10(), hi_t.log10());
    let (x0, x1) = (xs[0], *xs.last().expect("non-empty"));
    let px = |x: f64| {
        if x1 > x0 {
            left + (x - x0) / (x1 - x0) * (right - left)
        } else {
            (left + right) / 2.0
        }
    };
    let py = |y: f64| bottom - (y.log10() - lo) / (hi - lo) * (bottom - top);
    for t in ticks {
        let y = py(t);
        let _ = write!(
            out,
            r##"<line x1="{left}" y1="{y:.1}" x2="{right}" y2="{y:.1}" stroke="#ddd"/><text x="{}" y="{:.1}" font-size="11" text-anchor="end">{}</text>"##,
            left - 6.0,
            y + 4.0,
            esc(&si(t))
        );
    }
    for &x in &xs {
        let _ = write!(
            out,
            r##"<line x1="{0:.1}" y1="{top}" x2="{0:.1}" y2="{bottom}" stroke="#eee"/><text x="{0:.1}" y="{1}" font-size="11" text-anchor="middle">{2}</text>"##,
            px(x),
            bottom + 16.0,
            esc(&x_label(x))
        );
    }
    let _ = write!(
        out,
        r##"<text x="{}" y="{}" font-size="11" text-anchor="middle">n (trace length)</text><text x="14" y="{}" font-size="11" transform="rotate(-90 14 {})" text-anchor="middle">{} (log scale)</text>"##,
        (left + right) / 2.0,
        bottom + 34.0,
        (top + bottom) / 2.0,
        (top + bottom) / 2.0,
        esc(y_unit)
    );
    for (i, s) in series.iter().enumerate() {
        let c = PALETTE[s.color % PALETTE.len()];
        let dash = if s.dashed {
            r#" stroke-dasharray="6 3""#
        } else {
            ""
        };
        let path: Vec<String> = s
            .points
            .iter()
            .filter(|p| p.1 > 0.0)
            .map(|p| format!("{:.1},{:.1}", px(p.0), py(p.1)))
            .collect();
        let _ = write!(
            out,
            r#"<polyline points="{}" fill="none" stroke="{c}" stroke-width="2"{dash}/>"#,
            path.join(" ")
        );
        for p in s.points.iter().filter(|p| p.1 > 0.0) {
            let _ = write!(
                out,
                r#"<circle cx="{:.1}" cy="{:.1}" r="3.5" fill="{c}"><title>{} at {}: {}</title></circle>"#,
                px(p.0),
                py(p.1),
                esc(&s.name),
                esc(&x_label(p.0)),
                esc(&si(p.1))
            );
        }
        let ly = top + 4.0 + i as f64 * 18.0;
        let _ = write!(
            out,
            r#"<line x1="{}" y1="{ly}" x2="{}" y2="{ly}" stroke="{c}" stroke-width="2"{dash}/><text x="{}" y="{}" font-size="12">{}</text>"#,
            right + 20.0,
            right + 44.0,
            right + 50.0,
            ly + 4.0,
            esc(&s.name)
        );
    }
    out.push_str("</svg>");
    out
}

/// 100%-stacked horizontal bars: `(label, [(class value)])` with the classes in `classes`.
pub fn stacked_chart(
    title: &str,
    note: &str,
    classes: &[&str],
    bars: &[(String, Vec<f64>)],
) -> String {
    let bar_h = 20.0;
    let top = 70.0;
    let height = top + bars.len() as f64 * (bar_h + 8.0) + 20.0;
    let width = W - LEFT - RIGHT;
    let mut out = String::new();
    header(&mut out, title, note, height);
    let names: Vec<String> = classes.iter().map(|s| s.to_string()).collect();
    legend(&mut out, &names, 60.0);
    for (i, (label, values)) in bars.iter().enumerate() {
        let y = top + i as f64 * (bar_h + 8.0);
        let total: f64 = values.iter().sum();
        let _ = write!(
            out,
            r#"<text x="{}" y="{}" font-size="12" text-anchor="end">{}</text>"#,
            LEFT - 8.0,
            y + bar_h - 5.0,
            esc(label)
        );
        let mut x = LEFT;
        for (ci, v) in values.iter().enumerate() {
            let frac = if total > 0.0 { v / total } else { 0.0 };
            let w = frac * width;
            let _ = write!(
                out,
                r#"<rect x="{x:.1}" y="{y}" width="{w:.1}" height="{bar_h}" fill="{}"><title>{}: {} ({:.1}%)</title></rect>"#,
                PALETTE[ci % PALETTE.len()],
                esc(classes.get(ci).copied().unwrap_or("")),
                esc(&si(*v)),
                frac * 100.0
            );
            if w > 34.0 {
                let _ = write!(
                    out,
                    r##"<text x="{:.1}" y="{}" font-size="11" fill="#fff" text-anchor="middle">{:.0}%</text>"##,
                    x + w / 2.0,
                    y + bar_h - 6.0,
                    frac * 100.0
                );
            }
            x += w;
        }
        let _ = write!(
            out,
            r#"<text x="{}" y="{}" font-size="11">{}</text>"#,
            LEFT + width + 6.0,
            y + bar_h - 5.0,
            esc(&si(total))
        );
    }
    out.push_str("</svg>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_scale_to_the_largest_value_and_escape_text() {
        let svg = bar_chart(
            "t<1>",
            "",
            &["m33".into(), "rv32".into()],
            &[
                BarGroup {
                    label: "a&b".into(),
                    bars: vec![(0, Some(50.0)), (1, None)],
                },
                BarGroup {
                    label: "c".into(),
                    bars: vec![(0, Some(100.0)), (1, Some(25.0))],
                },
            ],
            &|v| format!("{v}"),
        );
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
        assert!(svg.contains("t&lt;1&gt;") && svg.contains("a&amp;b"));
        let full = W - LEFT - RIGHT;
        assert!(
            svg.contains(&format!(r#"width="{full:.1}""#)),
            "largest bar spans the plot"
        );
        assert!(svg.contains(&format!(r#"width="{:.1}""#, full / 2.0)));
        assert!(svg.contains("rv32: not measured"));
    }

    #[test]
    fn stacked_shares_sum_to_the_bar() {
        let svg = stacked_chart("c", "", &["a", "b"], &[("x".into(), vec![3.0, 1.0])]);
        assert!(svg.contains("75.0%") && svg.contains("25.0%"));
        let svg = line_chart("l", "", "u", &[], &|x| format!("{x}"));
        assert!(svg.contains("no data"));
        let svg = line_chart(
            "l",
            "",
            "u",
            &[Series {
                name: "a".into(),
                color: 0,
                dashed: true,
                points: vec![(10.0, 11e6), (16.0, 24e6)],
            }],
            &|x| format!("2^{x}"),
        );
        // 1-2-5 ticks from 10 M to 50 M: 10 M, 20 M, 50 M.
        assert!(
            svg.contains(">10.00 M<") && svg.contains(">20.00 M<") && svg.contains(">50.00 M<")
        );
        assert!(!svg.contains(">5.00 M<") && !svg.contains(">100.00 M<"));
        assert!(svg.contains("stroke-dasharray"));
    }
}

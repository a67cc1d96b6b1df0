//! The report's charts, drawn with plotters' SVG backend: grouped horizontal bars (one group
//! per configuration, one bar per core) and lines against log2 n. Each returns a
//! [`Chart`]: self-contained SVG for report.html.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::doc::Chart;

const FONT: &str = "sans-serif";
/// Pixels per character reserved for a label (plotters draws 14 as 11.3 px; sans-serif is
/// narrower on average): labels are never cut off.
const CHAR_PX: u32 = 8;

/// The series colours, `0xRRGGBB` (matplotlib's "tab10" order).
const PALETTE: [u32; 8] = [
    0x1f77b4, 0xff7f0e, 0x2ca02c, 0xd62728, 0x9467bd, 0x8c564b, 0xe377c2, 0x7f7f7f,
];

fn color(i: usize) -> RGBColor {
    let c = PALETTE[i % PALETTE.len()];
    RGBColor((c >> 16) as u8, (c >> 8) as u8, c as u8)
}

/// The chart `draw` draws; one that cannot be drawn says so in its place (never a panic).
fn drawn(title: &str, draw: impl FnOnce(&mut String) -> Drawn) -> Chart {
    let mut svg = String::new();
    let r = draw(&mut svg).map_err(|e| e.to_string());
    let svg = r.map_or_else(|e| format!("<p>chart not drawn: {e}</p>"), |_| svg);
    let title = title.into();
    Chart { title, svg }
}

/// Grouped horizontal bars: `groups` are `(label, one value per series)`, drawn top down in
/// the given order; `series` names the bars of a group (e.g. the cores). Each bar carries
/// its value as text (two decimals); the right third is left free for the legend.
pub fn bars(title: &str, unit: &str, series: &[&str], groups: &Groups) -> Chart {
    drawn(title, |svg| draw_bars(svg, unit, series, groups))
}

/// What drawing returns: plotters' errors are of several types.
type Drawn = Result<(), Box<dyn std::error::Error>>;

/// Bar groups: a label and one value per series.
type Groups = [(String, Vec<Option<f64>>)];

fn draw_bars(svg: &mut String, unit: &str, series: &[&str], groups: &Groups) -> Drawn {
    let widest = groups.iter().map(|g| g.0.chars().count() as u32).max();
    let label_w = widest.unwrap_or(4) * CHAR_PX + 16;
    let k = series.len().max(1) as f64;
    let bar_px = 16.0;
    let height = (groups.len() as f64 * (k * bar_px + 10.0)) as u32 + 90;
    let width = 900.max(label_w + 560);
    let values = groups.iter().flat_map(|g| g.1.iter().flatten());
    let max = values.fold(0.0f64, |a, &b| a.max(b));
    let n = groups.len() as f64;
    let root = SVGBackend::with_string(svg, (width, height)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .margin(10)
        .margin_right(30)
        .x_label_area_size(36)
        .y_label_area_size(label_w)
        .build_cartesian_2d(0.0..max * 1.6 + f64::MIN_POSITIVE, 0.0..n)?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .max_light_lines(0)
        .y_labels(0)
        .x_desc(unit)
        .label_style((FONT, 14))
        .draw()?;
    for (j, name) in series.iter().enumerate() {
        let c = color(j);
        let bars = groups.iter().enumerate().filter_map(|(i, g)| {
            let v = (*g.1.get(j)?)?;
            let top = n - i as f64 - 0.1 - j as f64 * 0.8 / k;
            Some(Rectangle::new([(0.0, top - 0.8 / k), (v, top)], c.filled()))
        });
        chart
            .draw_series(bars)?
            .label(*name)
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], c.filled()));
        let text = groups.iter().enumerate().filter_map(|(i, g)| {
            let v = (*g.1.get(j)?)?;
            let mid = n - i as f64 - 0.1 - (j as f64 + 0.5) * 0.8 / k;
            Some(EmptyElement::at((v, mid)) + Text::new(format!("{v:.2}"), (4, -6), (FONT, 13)))
        });
        chart.draw_series(text)?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .label_font((FONT, 14))
        .draw()?;
    let style = TextStyle::from((FONT, 14).into_font()).pos(Pos::new(HPos::Right, VPos::Center));
    for (i, g) in groups.iter().enumerate() {
        let (x, y) = chart.backend_coord(&(0.0, n - i as f64 - 0.5));
        root.draw(&Text::new(g.0.clone(), (x - 6, y), style.clone()))?;
    }
    root.present()?;
    Ok(())
}

/// One line of a line chart: points `(log2 n, value)`; `dashed` for the second core.
pub struct Series {
    pub name: String,
    pub color: usize,
    pub dashed: bool,
    pub points: Vec<(f64, f64)>,
}

impl Series {
    pub fn new(name: String, color: usize, dashed: bool, points: Vec<(f64, f64)>) -> Self {
        Series {
            name,
            color,
            dashed,
            points,
        }
    }
}

/// Lines against log2 n (x labels `2^k`).
pub fn lines(title: &str, unit: &str, series: &[Series]) -> Chart {
    drawn(title, |svg| draw_lines(svg, unit, series))
}

fn draw_lines(svg: &mut String, unit: &str, series: &[Series]) -> Drawn {
    let pts = || series.iter().flat_map(|s| s.points.iter());
    let (x0, x1) = pts().fold((f64::MAX, f64::MIN), |a, p| (a.0.min(p.0), a.1.max(p.0)));
    let y1 = pts().fold(0.0f64, |a, p| a.max(p.1));
    if x0 > x1 {
        return Err("no points".into());
    }
    let root =
        SVGBackend::with_string(svg, (900, 420 + 18 * series.len() as u32 / 2)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .margin(10)
        .x_label_area_size(36)
        .y_label_area_size(80)
        // Headroom on top for the legend, one line per series.
        .build_cartesian_2d(
            x0 - 0.2..x1 + 0.2,
            0.0..y1 * (1.15 + 0.07 * series.len() as f64) + f64::MIN_POSITIVE,
        )?;
    chart
        .configure_mesh()
        .x_desc("n")
        .y_desc(unit)
        .x_label_formatter(&|x| format!("2^{x:.0}"))
        .y_label_formatter(&|y| crate::doc::si(*y))
        .label_style((FONT, 14))
        .draw()?;
    for s in series {
        let c = color(s.color);
        let style = c.stroke_width(2);
        let drawn = if s.dashed {
            chart.draw_series(DashedLineSeries::new(s.points.clone(), 6, 4, style))?
        } else {
            chart.draw_series(LineSeries::new(s.points.clone(), style))?
        };
        drawn
            .label(s.name.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], style));
        chart.draw_series(s.points.iter().map(|&p| Circle::new(p, 3, c.filled())))?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .label_font((FONT, 13))
        .draw()?;
    root.present()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_carry_every_label_once_and_values() {
        let one = |l: &str, v: Vec<Option<f64>>| (l.to_string(), v);
        let all_sram = "p3-m31^4 sha256-engine all-sram";
        let g = [
            one("wf-goldilocks^2", vec![Some(19.05), Some(19.75)]),
            one(all_sram, vec![Some(3.5), None]),
        ];
        let c = bars("t", "ms", &["m33", "rv32"], &g);
        assert!(c.svg.starts_with("<svg"), "{}", c.svg);
        for l in ["wf-goldilocks^2", all_sram, "19.05", "3.50"] {
            assert_eq!(c.svg.matches(&format!("\n{l}\n")).count(), 1, "{l}");
        }
        let points = vec![(10.0, 1.0), (16.0, 3.0)];
        let s = Series::new("a".into(), 0, true, points);
        assert!(lines("t", "bytes", &[s]).svg.contains("2^16"));
        let empty = lines("t", "bytes", &[]);
        assert!(empty.svg.starts_with("<p>chart not drawn"));
    }
}

//! The report's charts, drawn with plotters' SVG backend: grouped horizontal bars (one group
//! per configuration, one bar per core or hash) and lines against log2 n. Each is a
//! [`Chart`]: self-contained SVG for report.html, at most [`MAX_HEIGHT`] pixels tall, its
//! legend outside the plot so it covers no data.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::doc::Chart;

const FONT: &str = "sans-serif";
/// Pixels per character reserved for a label (plotters draws 14 as 11.3 px; sans-serif is
/// narrower on average): labels are never cut off.
const CHAR_PX: u32 = 8;

/// The series colours, `0xRRGGBB` (matplotlib's "tab10" order); callers keep to fewer
/// series than colours (one per backend) so no two lines share one.
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

/// The tallest chart, in pixels: a taller one is split (a reader sees one at a time).
const MAX_HEIGHT: u32 = 1000;

/// Space above a chart's plot for its legend, and per legend line on the right.
const LEGEND_PX: u32 = 34;
const LEGEND_LINE_PX: u32 = 20;

/// Grouped horizontal bars: `groups` are `(label, one value per series)`, drawn top down in
/// the given order; `series` names the bars of a group (e.g. the cores). Each bar carries
/// its value as text (two decimals); the legend is above the plot. Groups that would make
/// a chart taller than [`MAX_HEIGHT`] go on to further charts with the same scale.
pub fn bars(title: &str, unit: &str, series: &[&str], groups: &Groups) -> Vec<Chart> {
    let per_chart = ((MAX_HEIGHT - 130) as f64 / group_px(series.len())) as usize;
    let parts = groups.len().div_ceil(per_chart.max(1)).max(1);
    let values = groups.iter().flat_map(|g| g.1.iter().flatten());
    let max = values.fold(0.0f64, |a, &b| a.max(b));
    let chunk = groups.len().div_ceil(parts).max(1);
    let chunks = groups.chunks(chunk).enumerate();
    let title = |i: usize| match parts {
        1 => title.to_string(),
        _ => format!("{title} ({} of {parts})", i + 1),
    };
    let one =
        |(i, g): (usize, &Groups)| drawn(&title(i), |svg| draw_bars(svg, unit, series, g, max));
    chunks.map(one).collect()
}

/// The height of one bar group: a bar per series and a gap.
fn group_px(series: usize) -> f64 {
    series.max(1) as f64 * 16.0 + 10.0
}

/// What drawing returns: plotters' errors are of several types.
type Drawn = Result<(), Box<dyn std::error::Error>>;

/// Bar groups: a label and one value per series.
type Groups = [(String, Vec<Option<f64>>)];

/// The legend entries `(name, colour, dashed)` in a row from `x` on `area`'s top line.
fn legend_row<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    x: i32,
    items: &[(String, RGBColor)],
) -> Drawn
where
    DB::ErrorType: 'static,
{
    let mut x = x;
    for (name, c) in items {
        area.draw(&Rectangle::new([(x, 12), (x + 14, 24)], c.filled()))?;
        area.draw(&Text::new(name.clone(), (x + 20, 11), (FONT, 14)))?;
        x += 20 + name.chars().count() as i32 * CHAR_PX as i32 + 24;
    }
    Ok(())
}

fn draw_bars(svg: &mut String, unit: &str, series: &[&str], groups: &Groups, max: f64) -> Drawn {
    let widest = groups.iter().map(|g| g.0.chars().count() as u32).max();
    let label_w = widest.unwrap_or(4) * CHAR_PX + 16;
    let k = series.len().max(1) as f64;
    let height = (groups.len() as f64 * group_px(series.len())) as u32 + 90 + LEGEND_PX;
    let width = 1000.max(label_w + 560);
    let n = groups.len() as f64;
    let root = SVGBackend::with_string(svg, (width, height)).into_drawing_area();
    root.fill(&WHITE)?;
    let (legend, plot) = root.split_vertically(LEGEND_PX);
    let items: Vec<(String, RGBColor)> = series
        .iter()
        .enumerate()
        .map(|(j, s)| (s.to_string(), color(j)))
        .collect();
    legend_row(&legend, label_w as i32 + 10, &items)?;
    let mut chart = ChartBuilder::on(&plot)
        .margin(10)
        .margin_right(30)
        .x_label_area_size(36)
        .y_label_area_size(label_w)
        // Room right of the longest bar for its value.
        .build_cartesian_2d(0.0..max * 1.12 + f64::MIN_POSITIVE, 0.0..n)?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .max_light_lines(0)
        .y_labels(0)
        .x_desc(unit)
        .label_style((FONT, 14))
        .draw()?;
    for (j, _) in series.iter().enumerate() {
        let c = color(j);
        let bars = groups.iter().enumerate().filter_map(|(i, g)| {
            let v = (*g.1.get(j)?)?;
            let top = n - i as f64 - 0.1 - j as f64 * 0.8 / k;
            Some(Rectangle::new([(0.0, top - 0.8 / k), (v, top)], c.filled()))
        });
        chart.draw_series(bars)?;
        let text = groups.iter().enumerate().filter_map(|(i, g)| {
            let v = (*g.1.get(j)?)?;
            let mid = n - i as f64 - 0.1 - (j as f64 + 0.5) * 0.8 / k;
            Some(EmptyElement::at((v, mid)) + Text::new(format!("{v:.2}"), (4, -6), (FONT, 13)))
        });
        chart.draw_series(text)?;
    }
    let style = TextStyle::from((FONT, 14).into_font()).pos(Pos::new(HPos::Right, VPos::Center));
    for (i, g) in groups.iter().enumerate() {
        let (x, y) = chart.backend_coord(&(0.0, n - i as f64 - 0.5));
        // backend_coord is in the whole image's pixels: drawn on the root, not the plot.
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

/// Lines against log2 n (x labels `2^k`), the legend right of the plot.
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
    let widest = series.iter().map(|s| s.name.chars().count() as u32).max();
    let legend_w = widest.unwrap_or(0) * CHAR_PX + 60;
    let height = 380.max(60 + LEGEND_LINE_PX * series.len() as u32);
    let root = SVGBackend::with_string(svg, (720 + legend_w, height)).into_drawing_area();
    root.fill(&WHITE)?;
    let (plot, legend) = root.split_horizontally(720);
    let mut chart = ChartBuilder::on(&plot)
        .margin(10)
        .margin_right(20)
        .x_label_area_size(36)
        .y_label_area_size(80)
        .build_cartesian_2d(x0 - 0.2..x1 + 0.2, 0.0..y1 * 1.05 + f64::MIN_POSITIVE)?;
    chart
        .configure_mesh()
        .x_desc("n")
        .y_desc(unit)
        .x_labels((x1 - x0) as usize + 1)
        .x_label_formatter(&|x| format!("2^{x:.0}"))
        .y_label_formatter(&|y| crate::doc::si(*y))
        .label_style((FONT, 14))
        .draw()?;
    for (i, s) in series.iter().enumerate() {
        let c = color(s.color);
        let style = c.stroke_width(2);
        if s.dashed {
            chart.draw_series(DashedLineSeries::new(s.points.clone(), 6, 4, style))?;
        } else {
            chart.draw_series(LineSeries::new(s.points.clone(), style))?;
        }
        chart.draw_series(s.points.iter().map(|&p| Circle::new(p, 3, c.filled())))?;
        // The legend line: a dashed series' sample is two strokes.
        let y = 20 + i as i32 * LEGEND_LINE_PX as i32;
        let sample = match s.dashed {
            true => vec![[(0, y), (9, y)], [(15, y), (24, y)]],
            false => vec![[(0, y), (24, y)]],
        };
        for [a, b] in sample {
            legend.draw(&PathElement::new(vec![a, b], style))?;
        }
        let at = (32, y);
        let text = TextStyle::from((FONT, 14).into_font()).pos(Pos::new(HPos::Left, VPos::Center));
        legend.draw(&Text::new(s.name.clone(), at, text))?;
    }
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
        let c = &bars("t", "ms", &["m33", "rv32"], &g)[0];
        assert!(c.svg.starts_with("<svg"), "{}", c.svg);
        for l in ["wf-goldilocks^2", all_sram, "19.05", "3.50", "m33", "rv32"] {
            assert_eq!(c.svg.matches(&format!("\n{l}\n")).count(), 1, "{l}");
        }
        // Too many groups for one chart: split, one scale, no chart over the height bound.
        let many: Vec<_> = (0..50)
            .map(|i| one(&format!("c{i}"), vec![Some(i as f64), None]))
            .collect();
        let split = bars("t", "ms", &["m33", "rv32"], &many);
        assert_eq!(split.len(), 3);
        assert_eq!(split[2].title, "t (3 of 3)");
        let height = |c: &Chart| c.svg.split('"').nth(3).and_then(|h| h.parse::<u32>().ok());
        assert!(
            split
                .iter()
                .all(|c| height(c).is_some_and(|h| h <= MAX_HEIGHT)),
            "{:?}",
            height(&split[0])
        );
        let points = vec![(10.0, 1.0), (16.0, 3.0)];
        let s = Series::new("a".into(), 0, true, points);
        assert!(lines("t", "bytes", &[s]).svg.contains("2^16"));
        let empty = lines("t", "bytes", &[]);
        assert!(empty.svg.starts_with("<p>chart not drawn"));
    }
}

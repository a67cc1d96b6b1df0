//! The report: the rows, the sections made from them (`sections/`, in reading order: the
//! answer first, then the axes, the full matrix, then baselines and method) and the four
//! files, `report.md` and `report.html` from two templates (`report.md.j2`,
//! `report.html.j2`), `table.csv` and `table.json` from [`crate::table`].

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use minijinja::value::ViaDeserialize;
use minijinja::{context, Environment, Value};

use crate::doc::{md_table, Section, Table};
use crate::sections;
use crate::table::{to_csv, to_json, Row};

/// The sections, in reading order; empty ones are left out.
fn sections(rows: &[Row], min: u32, out_dir: &Path, about: [&[String]; 2]) -> Vec<Section> {
    let profiles = sections::answer::profiles(&out_dir.join("membership/profile"));
    let mut out = vec![
        sections::answer::section(rows, min, &profiles),
        sections::workload::section(rows, min),
        sections::circle::section(rows),
        sections::placement::section(rows),
        sections::hash::section(rows),
        sections::proven::section(rows, min),
        sections::cores::section(rows),
        sections::scaling::section(rows),
        sections::matrix::section(rows, min),
    ];
    out.retain(Section::shown);
    out.extend(crate::baseline::sections(&out_dir.join("baseline")));
    let about = sections::about::sections(rows, about[0], about[1]);
    out.extend(about.into_iter().filter(Section::shown));
    out
}

/// Renders a template over `ctx`: HTML-escaped with a `md` filter (Markdown to HTML) for
/// report.html, plain for report.md; both have `md_table` (a table as Markdown).
fn render(template: &str, html: bool, ctx: &Value) -> Result<String, String> {
    use minijinja::AutoEscape::{Html, None as Plain};
    let mut env = Environment::new();
    env.set_auto_escape_callback(move |_| if html { Html } else { Plain });
    env.add_filter("md", |md: String| {
        let mut h = String::new();
        let parser = pulldown_cmark::Parser::new_ext(&md, pulldown_cmark::Options::ENABLE_TABLES);
        pulldown_cmark::html::push_html(&mut h, parser);
        Value::from_safe_string(h)
    });
    env.add_filter("md_table", |t: ViaDeserialize<Table>| md_table(&t));
    let t = env.template_from_str(template).map_err(|e| e.to_string())?;
    t.render(ctx).map_err(|e| e.to_string())
}

/// Builds the report from `inputs` and writes its four files into `out`; returns the number
/// of rows. The stock baselines are read from `<out>/baseline` and the membership profiles'
/// parts from `<out>/membership/profile` when they are there.
pub fn run(
    inputs: &[PathBuf],
    out: &Path,
    min_security: u32,
    invocation: &str,
    notes: &[String],
) -> Result<usize, String> {
    let loaded = crate::input::load(inputs);
    let warnings = loaded.warnings;
    warnings.iter().for_each(|w| eprintln!("warning: {w}"));
    let rows = crate::table::build_rows(&loaded.entries);
    let sections = sections(&rows, min_security, out, [notes, &warnings]);
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    rows.iter()
        .for_each(|r| *counts.entry(&r.source).or_default() += 1);
    let counts: Vec<String> = counts.iter().map(|(s, n)| format!("{n} {s}")).collect();
    let ctx = context! {
        generated => utc_now(), command => format!("compare {invocation}"), rows => rows.len(),
        counts => if counts.is_empty() { "none".into() } else { counts.join(", ") },
        sections,
    };
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let (md, html) = (include_str!("report.md.j2"), include_str!("report.html.j2"));
    let (md, html) = (render(md, false, &ctx)?, render(html, true, &ctx)?);
    let (csv, json) = (to_csv(&rows), to_json(&rows) + "\n");
    let files = [("report.md", md), ("report.html", html), ("table.csv", csv)];
    let files = files.into_iter().chain([("table.json", json)]);
    for (name, text) in files {
        let p = out.join(name);
        std::fs::write(&p, text).map_err(|e| format!("{}: {e}", p.display()))?;
    }
    let (n, shown) = (rows.len(), out.display());
    eprintln!("compare: {n} rows -> {shown}/report.md, report.html, table.csv, table.json");
    let answer = sections.iter().filter(|s| s.id == "answer");
    for t in answer.flat_map(|s| &s.tables[..2]) {
        if let Some(b) = t.rows.first() {
            let (c, ms, bits, p, h, place, params) =
                (&t.caption, &b[1], &b[2], &b[0], &b[4], &b[6], &b[5]);
            eprintln!("  fastest on {c}: {p} {h} {place} [{params}] {ms} ms, {bits} bits");
        }
    }
    Ok(n)
}

/// The current UTC time as `YYYY-MM-DD HH:MM UTC`.
pub fn utc_now() -> String {
    let rfc3339 = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
    format!("{} {} UTC", &rfc3339[..10], &rfc3339[11..16])
}

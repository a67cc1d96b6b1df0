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

/// The record folders of `results/` the report reads, in this order: `raw/` (the main job's
/// runs), then the tracks measured by their own documented commands (proven >= 100 bits, the
/// best hardware-hash configurations, the membership workload, the WideCirclePcs rows, the
/// board images by code placement and parameters, the circle question's pairs, stwo-m31's
/// rows; each folder's README says how). `compare all` and `compare report --results` read the
/// ones present.
pub const TRACKS: [&str; 15] = [
    "raw",
    "proven/records",
    "hash/best",
    "membership/records",
    "membership/records-128",
    "membership/engine",
    "baseline/wide-circle",
    "placement/one",
    "placement/all",
    "placement/qemu-image",
    "placement/tuned",
    "circle/blake3",
    "circle/engine",
    "circle/side-by-side",
    "stwo",
];

/// `results`' record folders the report reads: [`TRACKS`] that exist.
pub fn track_dirs(results: &Path) -> Vec<PathBuf> {
    TRACKS
        .iter()
        .map(|t| results.join(t))
        .filter(|d| d.is_dir())
        .collect()
}

/// The sections a reader opens when needed: folded in report.html. The hash axis' answer
/// (the fastest row per hash) is on the first screen; its section holds the rows behind it.
const FOLDED: [&str; 12] = [
    "placement",
    "hash",
    "cores",
    "field",
    "matrix",
    "baseline",
    "timing",
    "tune",
    "baseline-notes",
    "warnings",
    "provenance",
    "method",
];

/// The sections, in reading order; empty ones are left out, long ones folded, and no table
/// keeps a column empty in every row.
fn sections(rows: &[Row], min: u32, out_dir: &Path, about: [&[String]; 2]) -> Vec<Section> {
    let profiles = sections::answer::profiles(&out_dir.join("membership/profile"));
    // The membership workload's answer opens its own section.
    let mut workload = sections::workload::section(rows, min);
    let membership = sections::answer::fastest_membership(rows, min, &profiles);
    if !profiles.is_empty() && membership.is_some() {
        workload.notes.push(sections::answer::PROFILE_NOTE.into());
    }
    membership
        .into_iter()
        .for_each(|t| workload.tables.insert(0, t));
    let mut answer = sections::answer::section(rows, min);
    if let Some(t) = sections::circle::first_screen(rows, min) {
        answer.tables.push(t);
        answer
            .notes
            .push(sections::circle::FIRST_SCREEN_NOTE.into());
    }
    let mut out = vec![
        answer,
        workload,
        sections::circle::section(rows),
        sections::placement::section(rows),
        sections::hash::section(rows),
        sections::proven::section(rows, min),
        sections::cores::section(rows),
        sections::field::section(&out_dir.join("field-bench")),
        sections::constant_time::section(&out_dir.join("constant-time/records")),
        sections::scaling::section(rows, &out_dir.join("scaling")),
        sections::matrix::section(rows, min),
    ];
    out.retain(Section::shown);
    out.extend(crate::baseline::sections(&out_dir.join("baseline")));
    let about = sections::about::sections(rows, about[0], about[1]);
    out.extend(about.into_iter().filter(Section::shown));
    for s in &mut out {
        s.folded = FOLDED.contains(&s.id.as_str());
        s.tables.iter_mut().for_each(Table::drop_empty_columns);
    }
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
    env.add_filter("wrap", |md: String| crate::doc::wrap(&md));
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
    let mut sections = sections(&rows, min_security, out, [notes, &warnings]);
    // The command goes with the provenance, not in the header (ten folders long).
    let command = format!("Rendered by `compare {invocation}`.");
    let provenance = sections.iter_mut().find(|s| s.id == "provenance");
    provenance
        .into_iter()
        .for_each(|p| p.intro = format!("{command} {}", p.intro));
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    rows.iter()
        .for_each(|r| *counts.entry(&r.source).or_default() += 1);
    let counts: Vec<String> = counts.iter().map(|(s, n)| format!("{n} {s}")).collect();
    // No generation time: the same records render the same bytes.
    let ctx = context! {
        rows => rows.len(),
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
    answer
        .flat_map(|s| &s.tables)
        .for_each(|t| eprintln!("  {}", t.caption));
    Ok(n)
}

/// The current UTC time as `YYYY-MM-DD HH:MM UTC`.
pub fn utc_now() -> String {
    let rfc3339 = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
    format!("{} {} UTC", &rfc3339[..10], &rfc3339[11..16])
}

//! The report: the rows, the sections made from them (`sections/`, in reading order: the
//! answer first, then the axes, the full matrix, then baselines and method) and the four
//! files, `report.md` and `report.html` from two templates (`report.md.j2`,
//! `report.html.j2`), `table.csv` and `table.json` from [`crate::table`].

use std::path::{Path, PathBuf};

use minijinja::{context, Environment, Value};

use crate::doc::{md_table, Section};
use crate::params::ParamRow;
use crate::sections;
use crate::table::{to_csv, to_json, Row};

/// Everything a report is made from.
pub struct Report {
    pub rows: Vec<Row>,
    pub params: Vec<ParamRow>,
    /// Problems while reading inputs.
    pub warnings: Vec<String>,
    /// Notes from the pipeline (missing tools, failed runs).
    pub notes: Vec<String>,
    /// How the report was produced (command line).
    pub command: String,
    pub generated: String,
    pub min_security: u32,
    /// The stock-baseline folder (`<out>/baseline`), when there is one.
    pub baseline: Option<PathBuf>,
}

impl Report {
    /// Sets the proof files' parameters. A row whose record was made from one of these files
    /// takes its parameters from the header; a row that states 0 bits (the firmware writes 0
    /// when its policy rejects the proof) gets the default policy's figure from its proof
    /// file, so every row shows a figure of the same regime.
    pub fn set_params(&mut self, params: Vec<ParamRow>) {
        let mut fixed = 0;
        for r in &mut self.rows {
            let name = r.origin.rsplit('/').next().unwrap_or("");
            let own = params.iter().find(|p| name.starts_with(&p.file));
            if let Some(p) = own {
                r.params = crate::params::compact(&p.params);
            }
            if r.security_bits != 0 {
                continue;
            }
            let same =
                |p: &&ParamRow| (&p.backend, p.extension, p.n) == (&r.backend, r.extension, r.n);
            if let Some(p) = own.or_else(|| params.iter().find(same)) {
                r.rec.security_bits = p.security_bits;
                fixed += 1;
            }
        }
        if fixed > 0 {
            self.notes.push(format!(
                "{fixed} row(s) stated 0 security bits (the firmware's value for a proof its policy rejects); they show the default policy's figure for their proof file instead"
            ));
        }
        self.params = params;
    }

    /// The sections, in reading order; empty ones are left out.
    pub fn sections(&self) -> Vec<Section> {
        let r = &self.rows;
        let mut out = vec![sections::answer::section(r, self.min_security)];
        out.push(sections::workload::section(r, self.min_security));
        out.push(sections::circle::section(r));
        out.push(sections::hash::section(r));
        out.push(sections::proven::section(r, self.min_security));
        out.push(sections::cores::section(r));
        out.push(sections::scaling::section(r));
        out.push(sections::matrix::section(r, self.min_security));
        out.retain(|s| !s.is_empty() || !s.notes.is_empty());
        out.extend(
            self.baseline
                .iter()
                .flat_map(|d| crate::baseline::sections(d)),
        );
        let mut about = sections::about::sections(r, &self.params, &self.notes, &self.warnings);
        about.retain(|s| !s.is_empty() || !s.notes.is_empty());
        out.extend(about);
        out
    }

    fn context(&self, html: bool) -> Value {
        let sections: Vec<Value> = self
            .sections()
            .into_iter()
            .map(|s| {
                let tables: Vec<Value> = s
                    .tables
                    .iter()
                    .filter(|t| !t.rows.is_empty())
                    .map(|t| context!(md => md_table(t), ..Value::from_serialize(t)))
                    .collect();
                let md = |t: &str| {
                    if html {
                        markdown_html(t)
                    } else {
                        t.to_string()
                    }
                };
                context! {
                    id => s.id, title => s.title, intro => md(&s.intro),
                    notes => s.notes.iter().map(|n| md(n)).collect::<Vec<_>>(),
                    tables, charts => s.charts,
                }
            })
            .collect();
        let mut counts: Vec<(String, usize)> = Vec::new();
        for r in &self.rows {
            match counts.iter_mut().find(|(s, _)| *s == r.source) {
                Some((_, n)) => *n += 1,
                None => counts.push((r.source.clone(), 1)),
            }
        }
        let counts: Vec<String> = counts.iter().map(|(s, n)| format!("{n} {s}")).collect();
        context! {
            generated => self.generated, command => self.command, rows => self.rows.len(),
            counts => if counts.is_empty() { "none".into() } else { counts.join(", ") },
            sections,
        }
    }

    fn render(&self, template: &str, html: bool) -> Result<String, String> {
        let mut env = Environment::new();
        use minijinja::AutoEscape::{Html, None as Plain};
        env.set_auto_escape_callback(move |_| if html { Html } else { Plain });
        let t = env.template_from_str(template).map_err(|e| e.to_string())?;
        t.render(self.context(html)).map_err(|e| e.to_string())
    }

    /// `report.md`.
    pub fn markdown(&self) -> Result<String, String> {
        self.render(include_str!("report.md.j2"), false)
    }

    /// `report.html`: self-contained (inline CSS, SVG and a few lines of script that sort and
    /// filter the matrix).
    pub fn html(&self) -> Result<String, String> {
        self.render(include_str!("report.html.j2"), true)
    }

    /// Writes the four files into `dir`.
    pub fn write(&self, dir: &Path) -> Result<(), String> {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let files = [
            ("report.md", self.markdown()?),
            ("report.html", self.html()?),
            ("table.csv", to_csv(&self.rows)),
            ("table.json", to_json(&self.rows) + "\n"),
        ];
        for (name, text) in files {
            let p = dir.join(name);
            std::fs::write(&p, text).map_err(|e| format!("{}: {e}", p.display()))?;
        }
        Ok(())
    }
}

/// Builds and writes a report; returns the number of rows.
pub fn run(
    inputs: &[PathBuf],
    out: &std::path::Path,
    proofs: Option<&std::path::Path>,
    min_security: u32,
    invocation: &str,
    notes: &[String],
) -> Result<usize, String> {
    let loaded = crate::input::load(inputs);
    for w in &loaded.warnings {
        eprintln!("warning: {w}");
    }
    let rows = crate::table::build_rows(&loaded.entries);
    let mut report = Report {
        rows,
        params: Vec::new(),
        warnings: loaded.warnings,
        notes: notes.to_vec(),
        command: format!("compare {invocation}"),
        generated: utc_now(),
        min_security,
        // Stock baselines and tuning records live next to the report (`<out>/baseline`).
        baseline: Some(out.join("baseline")),
    };
    if let Some(dir) = proofs {
        let (params, warnings) = crate::params::read_dir(dir);
        report.set_params(params);
        report.warnings.extend(warnings);
    }
    report.write(out)?;
    let n = report.rows.len();
    eprintln!(
        "compare: {n} rows -> {}/report.md, report.html, table.csv, table.json",
        out.display()
    );
    let answer = sections::answer::section(&report.rows, min_security);
    for t in &answer.tables {
        if let Some(best) = t.rows.first() {
            eprintln!(
                "  fastest on {}: {} {} {} [{}] {} ms, {} bits",
                t.caption, best[0], best[4], best[6], best[5], best[1], best[2]
            );
        }
    }
    Ok(n)
}

/// Markdown (section prose) as HTML, marked safe for the template.
fn markdown_html(md: &str) -> String {
    let mut h = String::new();
    let parser = pulldown_cmark::Parser::new_ext(md, pulldown_cmark::Options::ENABLE_TABLES);
    pulldown_cmark::html::push_html(&mut h, parser);
    h
}

/// The current UTC time as `YYYY-MM-DD HH:MM UTC` (from `date -u`; `unknown` without it).
pub fn utc_now() -> String {
    let date = std::process::Command::new("date")
        .args(["-u", "+%Y-%m-%d %H:%M UTC"])
        .output();
    let text = date.ok().and_then(|o| String::from_utf8(o.stdout).ok());
    text.map_or("unknown".into(), |t| t.trim().into())
}

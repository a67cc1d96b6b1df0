//! The report's building blocks, shared by every section and by the renderer: a [`Table`],
//! a [`Section`] (title, intro, tables, charts) and the number formatting of the cells. A
//! leaf module: it imports nothing from the rest of the crate.

use serde::{Deserialize, Serialize};

/// A table: an optional caption, a header and plain-text cells.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Table {
    pub caption: String,
    pub head: Vec<String>,
    pub rows: Vec<Vec<String>>,
    /// HTML: the reader can sort by a column and filter rows (the Matrix).
    pub sortable: bool,
}

impl Table {
    /// `head` as in a Markdown header: `"n | core | est. ms"`.
    pub fn new(caption: &str, head: &str) -> Self {
        let mut t = Table::default();
        let head = head.split(" | ").map(String::from).collect();
        (t.caption, t.head) = (caption.into(), head);
        t
    }

    /// Adds a row written as its Markdown line without the outer pipes: `"a | b | c"` (no
    /// cell holds `" | "`).
    pub fn row(&mut self, line: &str) {
        self.rows.push(line.split(" | ").map(Into::into).collect());
    }

    /// [`Table::row`], unless a row with the same cells is there already: it would tell the
    /// reader nothing more.
    pub fn row_once(&mut self, line: &str) {
        let cells: Vec<String> = line.split(" | ").map(Into::into).collect();
        if !self.rows.contains(&cells) {
            self.rows.push(cells);
        }
    }

    /// Drops every column with no value (`–` or empty) in any row: a column of dashes tells
    /// the reader nothing (a device column without device logs).
    pub fn drop_empty_columns(&mut self) {
        let empty = |i: usize| {
            self.rows
                .iter()
                .all(|r| r.get(i).is_none_or(|c| c.is_empty() || c == "–"))
        };
        let keep: Vec<bool> = (0..self.head.len()).map(|i| !empty(i)).collect();
        let kept = |cells: &mut Vec<String>| {
            let mut k = keep.iter();
            cells.retain(|_| *k.next().unwrap_or(&true));
        };
        if !self.rows.is_empty() {
            kept(&mut self.head);
            self.rows.iter_mut().for_each(kept);
        }
    }
}

/// An SVG chart and its title.
#[derive(Clone, Debug, Serialize)]
pub struct Chart {
    pub title: String,
    pub svg: String,
}

/// One section of the report. `intro` and `notes` are Markdown.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Section {
    /// Anchor of the section in report.html (`id`).
    pub id: String,
    pub title: String,
    pub intro: String,
    pub tables: Vec<Table>,
    pub charts: Vec<Chart>,
    /// Bullet points after the tables.
    pub notes: Vec<String>,
    /// HTML: collapsed under its title until the reader opens it (long reference sections).
    pub folded: bool,
}

impl Section {
    pub fn new(id: &str, title: &str, intro: impl Into<String>) -> Self {
        let mut s = Section::default();
        (s.id, s.title, s.intro) = (id.into(), title.into(), intro.into());
        s
    }

    /// Whether the section has anything to show besides its intro: rows, charts or notes.
    pub fn shown(&self) -> bool {
        let rows = self.tables.iter().any(|t| !t.rows.is_empty());
        rows || !self.charts.is_empty() || !self.notes.is_empty()
    }
}

/// The most columns a Markdown table gets; a wider one is split into tables of this many,
/// each repeating the first column (the row's name).
pub const MD_MAX_COLUMNS: usize = 12;

/// A table as Markdown, split into several when it has more than [`MD_MAX_COLUMNS`].
pub fn md_table(t: &Table) -> String {
    let line = |cells: &[&String]| {
        let c: Vec<String> = cells.iter().map(|s| s.replace('|', "\\|")).collect();
        format!("| {} |\n", c.join(" | "))
    };
    let rest: Vec<usize> = (1..t.head.len()).collect();
    let mut out = String::new();
    for part in rest.chunks(MD_MAX_COLUMNS - 1) {
        let cols: Vec<usize> = std::iter::once(0).chain(part.iter().copied()).collect();
        fn pick<'a>(cells: &'a [String], cols: &[usize]) -> Vec<&'a String> {
            cols.iter().filter_map(|&i| cells.get(i)).collect()
        }
        if !out.is_empty() {
            out += "\n";
        }
        out += &(line(&pick(&t.head, &cols)) + "|" + &"---|".repeat(cols.len()) + "\n");
        t.rows.iter().for_each(|r| out += &line(&pick(r, &cols)));
    }
    out
}

/// The longest prose line of report.md: prose is wrapped there (tables are not).
pub const MD_LINE: usize = 100;

/// Markdown prose wrapped at [`MD_LINE`] characters: list items keep their indent, and
/// tables, headings and code blocks are left as they are.
pub fn wrap(md: &str) -> String {
    let mut out = Vec::new();
    let mut code = false;
    for l in md.lines() {
        code ^= l.trim_start().starts_with("```");
        let keep = code || l.trim_start().starts_with(['|', '#']) || l.chars().count() <= MD_LINE;
        if keep {
            out.push(l.to_string());
            continue;
        }
        let body = l.trim_start();
        let marker = body.split_once(' ').map_or("", |m| m.0);
        let item =
            ["-", "*"].contains(&marker) || marker.trim_end_matches('.').parse::<u32>().is_ok();
        let indent = l.len() - body.len() + if item { marker.len() + 1 } else { 0 };
        let mut line = String::new();
        for w in l.split(' ').filter(|w| !w.is_empty()) {
            let started = !line.trim().is_empty();
            if started && line.chars().count() + 1 + w.chars().count() > MD_LINE {
                out.push(std::mem::take(&mut line));
                line = " ".repeat(indent);
            } else if started {
                line.push(' ');
            } else if line.is_empty() {
                line = " ".repeat(l.len() - body.len());
            }
            line.push_str(w);
        }
        out.push(line);
    }
    out.join("\n")
}

/// The header of every parameters cell: what [`compact`] writes, in order.
pub const PARAMS_HEAD: &str = "blowup / queries / fold / final / PoW";

/// `2^6 / 14 / 2^4 / 2^2 / 20`: log blowup, queries, folding arity, final length, PoW bits.
pub fn compact(p: &picostark_core::ProofParams) -> String {
    let (b, q, w) = (p.log_blowup, p.num_queries, p.pow_bits);
    let (f, l) = (p.log_fold_arity, p.log_final_poly_len);
    format!("2^{b} / {q} / 2^{f} / 2^{l} / {w}")
}

/// `–` for a missing value, else `f(v)`.
pub fn dash<T>(v: Option<T>, f: impl Fn(T) -> String) -> String {
    v.map_or_else(|| "–".to_string(), f)
}

/// Security bits as the regimes give them: whole numbers plain, others to one decimal.
pub fn bits(v: f64) -> String {
    let decimals = usize::from(v.fract() != 0.0);
    format!("{v:.decimals$}")
}

/// `12345678` -> `12.35 M`, `45678` -> `45.7 k`, `999` -> `999`.
pub fn si(v: f64) -> String {
    match v.abs() {
        a if a >= 1e9 => format!("{:.2} G", v / 1e9),
        a if a >= 1e6 => format!("{:.2} M", v / 1e6),
        a if a >= 1e4 => format!("{:.1} k", v / 1e3),
        _ if v.fract() == 0.0 => format!("{v:.0}"),
        _ => format!("{v:.2}"),
    }
}

/// Bytes as KiB with one decimal, e.g. `38109` -> `37.2 KiB`.
pub fn kib(v: u64) -> String {
    format!("{:.1} KiB", v as f64 / 1024.0)
}

/// An integer with thin grouping: `-12345678` -> `-12 345 678`.
pub fn grouped(v: impl Into<i128>) -> String {
    let v: i128 = v.into();
    let s = v.unsigned_abs().to_string();
    let mut out = String::from(if v < 0 { "-" } else { "" });
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push('\u{202f}');
        }
        out.push(ch);
    }
    out
}

/// `n` as `2^k` when it is a power of two.
pub fn pow2(n: u64) -> String {
    match n.is_power_of_two() {
        true => format!("2^{}", n.trailing_zeros()),
        false => n.to_string(),
    }
}

/// A percentage with one decimal.
pub fn pct(v: f64) -> String {
    format!("{:.1}%", v * 100.0)
}

/// A signed change as a percentage with one decimal, e.g. `-0.123` -> `-12.3%`.
pub fn signed_pct(v: f64) -> String {
    format!("{:+.1}%", v * 100.0)
}

/// `a / b` as `1.23x`, `–` without both.
pub fn times(a: Option<f64>, b: Option<f64>) -> String {
    match (a, b) {
        (Some(a), Some(b)) if b > 0.0 => format!("{:.2}x", a / b),
        _ => "–".into(),
    }
}

/// Milliseconds with two decimals.
pub fn ms(v: f64) -> String {
    format!("{v:.2}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        let got = [
            si(12_345_678.0),
            si(45_678.0),
            si(999.0),
            kib(38_109),
            pow2(1024),
            pow2(1000),
            grouped(12_345_678u64),
            grouped(-1234i64),
            bits(57.5),
            bits(57.0),
            times(Some(3.0), Some(2.0)),
            times(Some(3.0), None),
        ];
        let want = "12.35 M ; 45.7 k ; 999 ; 37.2 KiB ; 2^10 ; 1000 ; 12_345_678 ; -1_234 ; 57.5 ; 57 ; 1.50x ; –";
        assert_eq!(got.join(" ; ").replace('\u{202f}', "_"), want);
    }

    #[test]
    fn a_row_once_is_not_repeated() {
        let mut t = Table::new("", "a | b");
        for line in ["1 | 2", "1 | 3", "1 | 2"] {
            t.row_once(line);
        }
        assert_eq!(t.rows, [["1", "2"], ["1", "3"]]);
    }
}

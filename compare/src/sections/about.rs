//! The sections a reader needs last: what is missing, where the rows come from, and the
//! method.

use std::collections::BTreeSet;

use crate::doc::{pow2, Section, Table};
use crate::table::Row;

/// For every configuration seen, each core without an emulator row.
fn gaps(rows: &[Row]) -> Vec<String> {
    let mut out = Vec::new();
    let config = |r: &Row| (r.backend.clone(), r.extension, r.air.clone(), r.n);
    let configs: BTreeSet<_> = rows.iter().map(config).collect();
    for c in configs {
        for core in ["m33", "rv32"] {
            let has = |r: &Row| r.source == "emulator" && r.core == core && config(r) == c;
            if !rows.iter().any(has) {
                let (b, e, a, n) = (&c.0, c.1, &c.2, pow2(c.3));
                out.push(format!("no emulator row for {b}^{e} {a} n={n} on {core}"));
            }
        }
    }
    out
}

pub fn sections(rows: &[Row], notes: &[String], warnings: &[String]) -> Vec<Section> {
    let mut w = Section::new("warnings", "Missing data and warnings", "");
    let all = notes.iter().cloned().chain(gaps(rows));
    let all = all.chain(warnings.iter().cloned());
    w.notes = all.map(|g| g.replace('\n', " ")).collect();

    let intro =
        "Where the rows come from: source, board, allocator, toolchain, build profile and commit.";
    let mut v = Section::new("provenance", "Provenance", intro);
    let head = "source | board | allocator | toolchain | profile | commit | rows";
    let mut t = Table::new("", head);
    for r in rows {
        let key = [&r.source, &r.board, &r.allocator].into_iter();
        let key = key.chain([&r.toolchain, &r.profile, &r.git_commit]);
        let key: Vec<String> = key.cloned().collect();
        match t.rows.iter_mut().find(|k| k[..6] == key) {
            Some(k) => k[6] = (k[6].parse::<usize>().unwrap_or(0) + 1).to_string(),
            None => t.rows.push([&key[..], &["1".into()]].concat()),
        }
    }
    v.tables.push(t);
    let mut m = Section::new("method", "Method", "");
    let lines = include_str!("../method.md").lines();
    let items = lines.filter_map(|l| l.strip_prefix("- "));
    m.notes = items.map(String::from).collect();
    vec![w, v, m]
}

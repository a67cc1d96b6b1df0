//! The sections a reader needs last: the proof files' parameters, what is missing, where
//! the rows come from, and the method.

use std::collections::BTreeSet;

use crate::doc::{grouped, pow2, Section, Table};
use crate::params::{compact, ParamRow, PARAMS_HEAD};
use crate::table::Row;

/// For every configuration seen, each core without an emulator row, and security mismatches
/// between records and proof files.
fn gaps(rows: &[Row], params: &[ParamRow]) -> Vec<String> {
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
    for p in params {
        let h = &p.header;
        let same = |r: &&Row| {
            (r.backend.as_str(), r.extension, r.n) == (h.backend.name(), h.extension_degree, h.n())
        };
        let differs =
            |r: &&Row| r.security_bits != p.security_bits && r.params == compact(&h.params);
        for r in rows.iter().filter(same).filter(differs) {
            if r.accepted() && r.default_policy() {
                let (s, b, e, n) = (&r.source, &r.backend, r.extension, pow2(r.n));
                let (bits, want) = (r.security_bits, p.security_bits);
                out.push(format!("{s} row of {b}^{e} n={n} states {bits} bits, the proof file's parameters give {want}"));
            }
        }
    }
    out.dedup();
    out
}

pub fn sections(
    rows: &[Row],
    params: &[ParamRow],
    notes: &[String],
    warnings: &[String],
) -> Vec<Section> {
    let intro = "The proof files of this run, their header's parameters and every regime's bits recomputed from them.";
    let mut p = Section::new("parameters", "Proof parameters", intro);
    let policy = picostark_core::Policy::default().regime.name();
    let head = format!("proof file | backend | ext | n | {PARAMS_HEAD} | size | bits: ethSTARK | bits: wf 0.13.1 | bits: P3 0.8 | bits: proven unique | bits: proven list | bits: policy ({policy})");
    let mut t = Table::new("", &head);
    for q in params {
        let (f, h, file) = (&q.figures, &q.header, &q.file);
        let (b, e, n) = (h.backend.name(), h.extension_degree, pow2(h.n()));
        let (prm, size, policy) = (compact(&h.params), grouped(q.bytes), q.security_bits);
        let (es, wf, p3) = (f.ethstark, f.winterfell, f.plonky3);
        let (pu, pl) = (f.proven_unique, f.proven_list);
        t.row(&format!("{file} | {b} | {e} | {n} | {prm} | {size} | {es} | {wf} | {p3} | {pu} | {pl} | {policy}"));
    }
    p.tables.push(t);

    let mut w = Section::new("warnings", "Missing data and warnings", "");
    let all = notes.iter().cloned().chain(gaps(rows, params));
    let all = all.chain(warnings.iter().cloned());
    w.notes = all.map(|g| g.replace('\n', " ")).collect();

    let intro =
        "Where the rows come from: source, board, allocator, toolchain, build profile and commit.";
    let mut v = Section::new("provenance", "Provenance", intro);
    let head = "source | board | allocator | toolchain | profile | commit | rows";
    let mut t = Table::new("", head);
    for r in rows {
        let key = [&r.source, &r.board, &r.allocator].map(|s| s.to_string());
        let key = [
            key,
            [&r.toolchain, &r.profile, &r.git_commit].map(|s| s.to_string()),
        ];
        let key = key.concat();
        match t.rows.iter_mut().find(|k| k[..6] == key) {
            Some(k) => k[6] = (k[6].parse::<usize>().unwrap_or(0) + 1).to_string(),
            None => t
                .rows
                .push(key.into_iter().chain(["1".to_string()]).collect()),
        }
    }
    v.tables.push(t);
    let mut m = Section::new("method", "Method", "");
    let lines = include_str!("../method.md").lines();
    m.notes = lines
        .filter_map(|l| l.strip_prefix("- "))
        .map(String::from)
        .collect();
    vec![p, w, v, m]
}

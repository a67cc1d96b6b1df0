//! The sections a reader needs last: the proof files' parameters, what is missing, where
//! the rows come from, and the method.

use std::collections::BTreeSet;

use crate::doc::{grouped, pow2, Section, Table};
use crate::params::{compact, ParamRow, PARAMS_HEAD};
use crate::table::Row;

/// For every configuration seen, each core without an emulator row, and security mismatches
/// between records and proof files.
pub fn gaps(rows: &[Row], params: &[ParamRow]) -> Vec<String> {
    let mut out = Vec::new();
    let configs: BTreeSet<(&str, u8, &str, u64)> = rows
        .iter()
        .map(|r| (r.backend.as_str(), r.extension, r.air.as_str(), r.n))
        .collect();
    for (b, e, a, n) in configs {
        for core in ["m33", "rv32"] {
            let has = rows.iter().any(|r| {
                r.source == "emulator"
                    && (
                        r.backend.as_str(),
                        r.extension,
                        r.air.as_str(),
                        r.n,
                        r.core.as_str(),
                    ) == (b, e, a, n, core)
            });
            if !has {
                out.push(format!(
                    "no emulator row for {b}^{e} {a} n={} on {core}",
                    pow2(n)
                ));
            }
        }
    }
    for p in params {
        for r in rows
            .iter()
            .filter(|r| (&r.backend, r.extension, r.n) == (&p.backend, p.extension, p.n))
        {
            if r.security_bits != p.security_bits
                && r.accepted()
                && r.params == compact(&p.params)
                && r.default_policy()
            {
                out.push(format!(
                    "{} row of {}^{} n={} states {} bits, the proof file's parameters give {}",
                    r.source,
                    r.backend,
                    r.extension,
                    pow2(r.n),
                    r.security_bits,
                    p.security_bits
                ));
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
    let mut p = Section::new("parameters", "Proof parameters", "The proof files of this run, their header's parameters and every regime's bits recomputed from them.");
    let policy = format!(
        "bits: policy ({})",
        picostark_core::Policy::default().regime.name()
    );
    let mut t = Table::new("", &format!("proof file | backend | ext | n | {PARAMS_HEAD} | size | bits: ethSTARK | bits: wf 0.13.1 | bits: P3 0.8 | bits: proven unique | bits: proven list | {policy}"));
    for q in params {
        let f = &q.figures;
        let mut row = vec![
            q.file.clone(),
            q.backend.clone(),
            q.extension.to_string(),
            pow2(q.n),
            compact(&q.params),
            grouped(q.bytes),
        ];
        let b = [
            f.ethstark,
            f.winterfell,
            f.plonky3,
            f.proven_unique,
            f.proven_list,
            q.security_bits,
        ];
        row.extend(b.iter().map(u32::to_string));
        t.rows.push(row);
    }
    p.tables.push(t);

    let mut w = Section::new("warnings", "Missing data and warnings", "");
    w.notes = notes
        .iter()
        .cloned()
        .chain(gaps(rows, params))
        .chain(warnings.iter().cloned())
        .map(|g| g.replace('\n', " "))
        .collect();

    let mut v = Section::new(
        "provenance",
        "Provenance",
        "Where the rows come from: source, board, allocator, toolchain, build profile and commit.",
    );
    let mut t = Table::new(
        "",
        "source | board | allocator | toolchain | profile | commit | rows",
    );
    for r in rows {
        let key = [
            &r.source,
            &r.board,
            &r.allocator,
            &r.toolchain,
            &r.profile,
            &r.git_commit,
        ]
        .map(|s| s.to_string());
        match t.rows.iter_mut().find(|k| k[..6] == key) {
            Some(k) => k[6] = (k[6].parse::<usize>().unwrap_or(0) + 1).to_string(),
            None => t
                .rows
                .push(key.into_iter().chain(["1".to_string()]).collect()),
        }
    }
    v.tables.push(t);
    let mut m = Section::new("method", "Method", "");
    m.notes = include_str!("../method.md")
        .lines()
        .filter_map(|l| l.strip_prefix("- "))
        .map(String::from)
        .collect();
    vec![p, w, v, m]
}

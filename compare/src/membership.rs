//! The tables of `results/membership/README.md`, rendered from the committed records:
//! `compare membership-readme` rewrites every block between a `<!-- compare: NAME -->` line
//! and the next `<!-- /compare -->` line, where NAME is a folder of records under
//! `results/membership/` or `zkmcu` ([`crate::zkmcu`]); with `--check` it changes nothing and
//! fails when a block differs, which a test runs on the committed README.
//!
//! Every row's bits are recomputed from its parameters: the strictest regime without the
//! statement's hash (the FRI term), the hash's cap, and the figure shown, their minimum,
//! which must equal the policy figure the verifier recorded.

use std::path::{Path, PathBuf};

use picostark_airs::{figures, shape_of};
use picostark_core::record::RunRecord;
use picostark_core::security::AirShape;
use picostark_core::{AirId, BackendId, Figures, HashId, ProofHeader, Regime};

use crate::input;

/// Start and end markers of a rendered block.
const OPEN: &str = "<!-- compare: ";
const CLOSE: &str = "<!-- /compare -->";

/// One record's bits: (FRI strictest, the statement hash's cap, their minimum).
pub fn bits(r: &RunRecord) -> Result<(u32, Option<u32>, u32), String> {
    let backend = BackendId::from_name(&r.backend).ok_or(format!("backend {}", r.backend))?;
    let air = AirId::from_name(&r.air).ok_or(format!("AIR {}", r.air))?;
    let params = r.params.ok_or("record without parameters")?;
    let header = ProofHeader {
        backend,
        field: backend.field(),
        extension_degree: r.extension,
        hash: HashId::Blake3_256,
        air,
        log_n: r.n.trailing_zeros() as u8,
        params,
    };
    // `from_name` above gives built-in AIRs only, whose definitions are known.
    let capped = figures(&header).ok_or(format!("AIR {}", r.air))?;
    let shape = shape_of(&header).ok_or(format!("AIR {}", r.air))?;
    let cap = shape.statement_hash.map(|h| h.bits);
    let fri = Figures::with_shape(
        &header,
        AirShape {
            statement_hash: None,
            ..shape
        },
    );
    Ok((
        fri.get(Regime::Strictest),
        cap,
        capped.get(Regime::Strictest),
    ))
}

/// The records of one folder as a table, one row per record, by core then est. ms.
fn records_table(dir: &Path) -> Result<String, String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let mut rows = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).map_err(|e| e.to_string())?;
        for r in input::parse_json_records(&text)? {
            if r.source != "emulator" {
                continue;
            }
            let name = f.file_name().unwrap().to_string_lossy();
            let name = name.split(".proof").next().unwrap_or_default().to_string();
            rows.push((r, name));
        }
    }
    let ms = |r: &RunRecord| r.estimate.as_ref().map(|e| e.ms).unwrap_or(f64::MAX);
    rows.sort_by(|a, b| {
        (&a.0.core, ms(&a.0))
            .partial_cmp(&(&b.0.core, ms(&b.0)))
            .unwrap()
    });
    let mut out = String::from(
        "| core | backend | ext | hash | proof (parameters in the name) | bits: FRI strictest / hash cap / shown | proven unique / list | proof bytes | instructions | est. ms | heap peak | stack peak | commit |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    let g = |v: Option<u64>| v.map_or("–".into(), thousands);
    for (r, name) in rows {
        let (fri, cap, shown) = bits(&r)?;
        if shown != r.security_bits {
            return Err(format!(
                "{name} {}: the record says {} bits, min(FRI {fri}, hash {cap:?}) is {shown}",
                r.core, r.security_bits
            ));
        }
        let cap = cap.map_or("–".into(), |c| c.to_string());
        let s = r.security.clone().unwrap_or_default();
        let e = r.estimate.clone().unwrap_or_default();
        let hash = if e.sha256_engine.is_some() {
            "sha256-engine (charged)".to_string()
        } else {
            r.hash_impl.clone().unwrap_or_default()
        };
        out += &format!(
            "| {} | {} | {} | {hash} | {name} | {fri} / {cap} / **{shown}** | {:.0} / {:.0} | {} | {} | {:.2} | {} | {} | {} |\n",
            r.core,
            r.backend,
            r.extension,
            s.proven_unique,
            s.proven_list,
            g(Some(r.proof_bytes)),
            g(r.instructions),
            e.ms,
            g(r.heap_peak),
            g(r.stack_peak),
            r.git_commit.get(..7).unwrap_or(&r.git_commit),
        );
    }
    Ok(out)
}

/// `1234567` as `1,234,567`.
fn thousands(v: u64) -> String {
    let digits = v.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// What the block named `name` holds, rendered afresh.
fn render(name: &str, dir: &Path) -> Result<String, String> {
    match name {
        "zkmcu" => Ok(crate::zkmcu::table()),
        folder => records_table(&dir.join(folder)),
    }
}

/// The README with every block rendered afresh.
pub fn rerender(readme: &str, dir: &Path) -> Result<String, String> {
    let mut out = String::new();
    let mut lines = readme.lines();
    while let Some(line) = lines.next() {
        out += line;
        out.push('\n');
        let Some(name) = line.strip_prefix(OPEN).and_then(|l| l.strip_suffix(" -->")) else {
            continue;
        };
        if !lines.any(|l| l == CLOSE) {
            return Err(format!("block {name} has no {CLOSE}"));
        }
        out += &render(name, dir)?;
        out += CLOSE;
        out.push('\n');
    }
    Ok(out)
}

/// `compare membership-readme [--check]`: rewrites (or checks) `DIR/README.md`.
pub fn run(dir: &Path, check: bool) -> Result<(), String> {
    let path = dir.join("README.md");
    let old = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let new = rerender(&old, dir)?;
    if new == old {
        return Ok(());
    }
    if check {
        return Err(format!(
            "{} differs from its records: run `cargo run -p compare -- membership-readme`",
            path.display()
        ));
    }
    std::fs::write(&path, new).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir() -> PathBuf {
        input::repo_root().join("results/membership")
    }

    /// The committed README's tables are its records' and the zkmcu figures, and every
    /// membership row's bits are min(FRI, hash cap) (checked row by row in `records_table`).
    #[test]
    fn readme_tables_match_the_committed_records() {
        run(&dir(), true).unwrap();
        let readme = std::fs::read_to_string(dir().join("README.md")).unwrap();
        for block in ["records", "records-128", "engine", "zkmcu"] {
            assert!(readme.contains(&format!("{OPEN}{block} -->")), "{block}");
        }
    }

    #[test]
    fn a_changed_figure_is_caught() {
        let readme = std::fs::read_to_string(dir().join("README.md")).unwrap();
        let rendered = rerender(&readme, &dir()).unwrap();
        assert_eq!(rendered, readme);
        let tampered = readme.replacen("| m33 |", "| m33 | 1", 1);
        assert_ne!(rerender(&tampered, &dir()).unwrap(), tampered);
    }

    #[test]
    fn membership_bits_are_capped_by_the_statement_hash() {
        let mut r = RunRecord {
            backend: "p3-goldilocks".into(),
            air: "membership".into(),
            extension: 3,
            n: 16,
            params: Some(picostark_core::ProofParams {
                log_blowup: 8,
                num_queries: 16,
                pow_bits: 24,
                log_fold_arity: 4,
                log_final_poly_len: 3,
            }),
            ..RunRecord::default()
        };
        // 8 * 16 + 24 = 152 query bits: the FRI figure is 127, and Goldilocks-12's 4-word
        // digests cap it at 127 too.
        let (fri, cap, shown) = bits(&r).unwrap();
        assert_eq!((cap, shown), (Some(127), fri.min(127)));
        // BabyBear-24's 9-word digests: the permutation's 128 bits.
        r.backend = "p3-babybear".into();
        r.extension = 5;
        assert_eq!(bits(&r).unwrap().1, Some(128));
        // Fibonacci hashes nothing: no cap.
        r.air = "fib".into();
        r.n = 1024;
        let (fri, cap, shown) = bits(&r).unwrap();
        assert_eq!((cap, shown), (None, fri));
    }
}

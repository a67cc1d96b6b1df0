//! The section "Hash axis": each backend and core with BLAKE3 (software), SHA-256 (software)
//! and SHA-256 on the RP2350's engine (the timing model's charge per block, an estimate),
//! their estimated times, SHA-256 hash floors and proof sizes, and which configuration wins
//! on each core when hashing costs next to nothing.

use std::fmt::Write;

use crate::human::grouped;
use crate::render::{dash, md_table, Table};
use crate::table::{Row, BLAKE3, CODE_IN_SRAM, ESTIMATE};

const NOTE: &str = "Estimate rows (timing model over the emulator's instruction stream, 150 MHz) of the same backend, AIR, n, core and allocator with each hash. \
*SHA-256 engine* runs the software compression under QEMU and charges the RP2350 SHA-256 engine's cost per 64-byte block in its place (`mcu-run run --sha256-engine`, `estimate.sha256_engine` in the record; a model of the peripheral, verifier-mcu/TIMING.md). \
*blocks* = SHA-256 compressions of one verification (the engine charge's call count). \
*software floor* = blocks x one software compression's instructions (the software row's instructions less the engine row's, per block) and its share of the software row; \
*engine floor* = blocks x the engine's cycles per block, in ms, and its share of the engine row.";

const SRAM_NOTE: &str = "Rows marked *code in SRAM* are one-backend images whose code and read-only data (the embedded proof with them) are copied to SRAM at reset (firmware feature `code-in-ram`), with FRI parameters chosen for the engine; their commands, parameters and heap are in `results/hash/README.md` (section \"Best configuration\").\n\n";

fn policy(r: &Row) -> Option<&str> {
    r.security.as_ref().map(|s| s.policy_regime.as_str())
}

/// The estimate row of `r`'s configuration (code placement included) with hash `hash`.
fn with_hash<'a>(rows: &'a [Row], r: &Row, hash: &str) -> Option<&'a Row> {
    rows.iter().find(|o| {
        o.source == ESTIMATE
            && o.accepted()
            && o.hash == hash
            && policy(o) == policy(r)
            && o.profile.contains(CODE_IN_SRAM) == r.profile.contains(CODE_IN_SRAM)
            && (&o.backend, o.extension, &o.air, o.n, &o.core, &o.allocator)
                == (&r.backend, r.extension, &r.air, r.n, &r.core, &r.allocator)
    })
}

fn ms(r: Option<&Row>) -> Option<f64> {
    r.and_then(Row::cost)
}

fn percent(part: f64, whole: f64) -> String {
    format!("{:.0} %", 100.0 * part / whole)
}

/// The section as Markdown, or nothing when no row has another hash than BLAKE3.
pub fn section(rows: &[Row]) -> String {
    let engine_rows: Vec<&Row> = rows
        .iter()
        .filter(|r| r.source == ESTIMATE && r.accepted() && r.hash == "sha256-engine")
        .collect();
    if engine_rows.is_empty() {
        return String::new();
    }
    let mut t = Table::new(&[
        "configuration",
        "core",
        "n",
        "BLAKE3 ms",
        "SHA-256 ms",
        "SHA-256 engine ms",
        "blocks",
        "software floor (instructions)",
        "engine floor (ms)",
        "proof bytes BLAKE3 · SHA-256",
    ]);
    for e in &engine_rows {
        let (b3, sw) = (with_hash(rows, e, BLAKE3), with_hash(rows, e, "sha256"));
        let charge = e.estimate.as_ref().and_then(|x| x.sha256_engine.clone());
        let blocks = charge.as_ref().map(|c| c.blocks).filter(|&b| b > 0);
        let sw_floor = match (sw.and_then(|s| s.instructions), e.instructions, blocks) {
            (Some(s), Some(en), Some(b)) if s > en => {
                let floor = (s - en) / b * b;
                Some(format!(
                    "{} ({})",
                    grouped(floor),
                    percent(floor as f64, s as f64)
                ))
            }
            _ => None,
        };
        let engine_floor = charge.as_ref().zip(e.estimate.as_ref()).map(|(c, x)| {
            let cycles = (c.blocks * c.cycles_per_block) as f64;
            let floor_ms = cycles / x.clock_hz.max(1) as f64 * 1e3;
            format!("{floor_ms:.2} ({})", percent(cycles, x.cycles as f64))
        });
        t.rows.push(vec![
            b3.map_or_else(|| e.config_label(), |r| r.config_label()),
            e.core.clone(),
            crate::human::pow2(e.n),
            dash(ms(b3), |v| format!("{v:.2}")),
            dash(ms(sw), |v| format!("{v:.2}")),
            dash(e.cost(), |v| format!("{v:.2}")),
            dash(blocks, grouped),
            sw_floor.unwrap_or_else(|| "–".into()),
            engine_floor.unwrap_or_else(|| "–".into()),
            format!(
                "{} · {}",
                dash(b3.map(|r| r.proof_bytes), grouped),
                grouped(e.proof_bytes)
            ),
        ]);
    }
    let mut md = format!("## Hash axis\n\n{NOTE}\n\n");
    if engine_rows.iter().any(|r| r.profile.contains(CODE_IN_SRAM)) {
        md.push_str(SRAM_NOTE);
    }
    md.push_str(&md_table(&t));
    md.push('\n');
    // The winner per core and n: fastest engine row against the fastest BLAKE3 row.
    let mut keys: Vec<(&str, u64)> = engine_rows.iter().map(|r| (r.core.as_str(), r.n)).collect();
    keys.sort();
    keys.dedup();
    for (core, n) in keys {
        let best = |hash: &str| {
            rows.iter()
                .filter(|r| r.source == ESTIMATE && r.accepted() && r.hash == hash)
                .filter(|r| r.core == core && r.n == n && r.air == "fib")
                .filter(|r| engine_rows.iter().any(|e| e.backend == r.backend))
                .filter_map(|r| r.cost().map(|c| (c, r)))
                .min_by(|a, b| a.0.total_cmp(&b.0))
        };
        if let (Some((em, e)), Some((bm, b))) = (best("sha256-engine"), best(BLAKE3)) {
            let _ = writeln!(
                md,
                "- **{core}, n = {}**: with the engine, {} ({}) is fastest at {em:.2} ms estimated; with BLAKE3 in software, {} ({}) at {bm:.2} ms ({:.2}x).",
                crate::human::pow2(n),
                e.config_label(),
                e.field,
                b.config_label(),
                b.field,
                bm / em
            );
        }
    }
    md.push('\n');
    md
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::build_rows;
    use crate::table::tests::{emu, with_estimate};
    use picostark_core::record::EngineCharge;

    #[test]
    fn three_hashes_side_by_side_with_floors_and_the_winner() {
        let sha = |backend: &str, insns: u64, cycles: u64, engine: Option<u64>| {
            let mut e = with_estimate(emu(backend, 2, 1024, "m33", insns), cycles);
            e.record.hash_impl = Some("sha256-software".into());
            let est = e.record.estimate.as_mut().unwrap();
            est.sha256_engine = engine.map(|blocks| EngineCharge {
                blocks,
                cycles_per_block: 84,
            });
            e
        };
        let no_engine = [
            with_estimate(emu("wf-goldilocks", 2, 1024, "m33", 1_800_000), 3_000_000),
            sha("wf-goldilocks", 3_000_000, 4_500_000, None),
        ];
        let mut entries = no_engine.to_vec();
        entries.extend([
            sha("wf-goldilocks", 1_000_000, 1_500_000, Some(700)),
            with_estimate(emu("p3-goldilocks", 2, 1024, "m33", 2_000_000), 2_850_000),
            sha("p3-goldilocks", 2_000_000, 3_000_000, Some(600)),
        ]);
        let rows = build_rows(&entries);
        let md = section(&rows);
        // Software floor: (3,000,000 - 1,000,000) / 700 per block, x 700 blocks.
        assert!(
            md.contains("| wf-goldilocks^2 | m33 | 2^10 | 20.00 | 30.00 | 10.00 | 700 | 1\u{202f}999\u{202f}900 (67 %) | 0.39 (4 %) | 40\u{202f}000 · 40\u{202f}000 |"),
            "{md}"
        );
        assert!(
            md.contains("with the engine, wf-goldilocks^2 sha256-engine (goldilocks) is fastest at 10.00 ms estimated; with BLAKE3 in software, p3-goldilocks^2 (goldilocks) at 19.00 ms (1.90x)"),
            "{md}"
        );
        // The SHA-256 rows are not ranked beside the defaults.
        let summary = crate::summary::summarize(&rows, 95);
        assert!(
            summary.lines.iter().all(|l| !l.contains("sha256")),
            "{:?}",
            summary.lines
        );
        // Without engine rows there is no section.
        assert_eq!(section(&build_rows(&no_engine)), "");
        assert!(!md.contains("code in SRAM"), "{md}");

        // A code-in-ram image is its own configuration: labelled, explained, and it can win.
        let mut sram = sha("wf-goldilocks", 600_000, 750_000, Some(570));
        sram.record.profile = "release opt-level=s lto=fat code=sram".into();
        entries.push(sram);
        let md = section(&build_rows(&entries));
        assert!(md.contains(SRAM_NOTE), "{md}");
        assert!(
            md.contains(
                "| wf-goldilocks^2 sha256-engine code in SRAM | m33 | 2^10 | – | – | 5.00 | 570 |"
            ),
            "{md}"
        );
        assert!(
            md.contains("with the engine, wf-goldilocks^2 sha256-engine code in SRAM (goldilocks) is fastest at 5.00 ms estimated"),
            "{md}"
        );
    }
}

//! The section "Hash axis": each backend and core with BLAKE3 (software), SHA-256 (software)
//! and SHA-256 on the RP2350's engine (the timing model's charge per block, an estimate),
//! their estimated times, SHA-256 hash floors and proof sizes, and which configuration wins
//! on each core when hashing costs next to nothing.

use crate::doc::{dash, grouped, ms, pow2, Section, Table};
use crate::table::{fastest, Row, BLAKE3, XIP};

const NOTE: &str = "Estimated emulator rows (timing model over the emulator's instruction stream, 150 MHz) of the same backend, AIR, n, core and allocator with each hash. \
*SHA-256 engine* runs the software compression under QEMU and charges the RP2350 SHA-256 engine's cost per 64-byte block in its place (`mcu-run run --sha256-engine`, `estimate.sha256_engine` in the record; a model of the peripheral, verifier-mcu/TIMING.md). \
*blocks* = SHA-256 compressions of one verification (the engine charge's call count). \
*software floor* = blocks x one software compression's instructions (the software row's instructions less the engine row's, per block) and its share of the software row; \
*engine floor* = blocks x the engine's cycles per block, in ms, and its share of the engine row.";

const SRAM_NOTE: &str = "Rows placed *all-sram* are one-backend images whose code and read-only data (the embedded proof with them) are copied to SRAM at reset (firmware feature `code-in-ram`), with FRI parameters chosen for the engine; their commands, parameters and heap are in `results/hash/README.md` (section \"Best configuration\").";

fn policy(r: &Row) -> Option<&str> {
    r.security.as_ref().map(|s| s.policy_regime.as_str())
}

/// The estimated emulator row of `r`'s configuration (code placement included) with hash `hash`.
fn with_hash<'a>(rows: &'a [Row], r: &Row, hash: &str) -> Option<&'a Row> {
    let ok = |o: &&Row| o.source == "emulator" && o.est_ms().is_some() && o.accepted();
    let ok = |o: &&Row| ok(o) && o.hash == hash && policy(o) == policy(r);
    let ok = |o: &&Row| ok(o) && o.placement == r.placement && o.params == r.params;
    let ok = |o: &&Row| ok(o) && o.backend == r.backend && o.extension == r.extension;
    let ok = |o: &&Row| ok(o) && (&o.air, o.n, &o.core) == (&r.air, r.n, &r.core);
    rows.iter().find(|o| ok(o) && o.allocator == r.allocator)
}

fn percent(part: f64, whole: f64) -> String {
    format!("{:.0} %", 100.0 * part / whole)
}

/// The section; empty when no row was estimated with the engine.
pub fn section(rows: &[Row]) -> Section {
    let mut s = Section::new("hash", "Hash axis", NOTE);
    let engine = |r: &&Row| r.source == "emulator" && r.est_ms().is_some() && r.accepted();
    let engine = |r: &&Row| engine(r) && r.hash == "sha256-engine";
    let engine_rows: Vec<&Row> = rows.iter().filter(engine).collect();
    if engine_rows.is_empty() {
        return s;
    }
    let mut t = Table::new("", "configuration | core | n | BLAKE3 ms | SHA-256 ms | SHA-256 engine ms | blocks | software floor (instructions) | engine floor (ms) | proof bytes BLAKE3 · SHA-256");
    for e in &engine_rows {
        let (b3, sw) = (with_hash(rows, e, BLAKE3), with_hash(rows, e, "sha256"));
        let charge = e.estimate.as_ref().and_then(|x| x.sha256_engine.clone());
        let blocks = charge.as_ref().map(|c| c.blocks).filter(|&b| b > 0);
        let sw_floor = match (sw.and_then(|s| s.instructions), e.instructions, blocks) {
            (Some(s), Some(en), Some(b)) if s > en => {
                let floor = (s - en) / b * b;
                format!("{} ({})", grouped(floor), percent(floor as f64, s as f64))
            }
            _ => "–".into(),
        };
        let engine_floor = dash(charge.as_ref().zip(e.estimate.as_ref()), |(c, x)| {
            let cycles = (c.blocks * c.cycles_per_block) as f64;
            let floor_ms = cycles / x.clock_hz.max(1) as f64 * 1e3;
            format!("{floor_ms:.2} ({})", percent(cycles, x.cycles as f64))
        });
        let (label, core, n, blocks) = (e.full_label(), &e.core, pow2(e.n), dash(blocks, grouped));
        let est = |r: Option<&Row>| dash(r.and_then(Row::est_ms), ms);
        let (b3_ms, sw_ms, en_ms) = (est(b3), est(sw), est(Some(e)));
        let b3_bytes = dash(b3.map(|r| r.proof_bytes), grouped);
        let bytes = format!("{b3_bytes} · {}", grouped(e.proof_bytes));
        // Two folders' runs of one configuration (e.g. results/hash/best and
        // results/circle/engine) often agree in every figure shown: one row then.
        t.row_once(&format!("{label} | {core} | {n} | {b3_ms} | {sw_ms} | {en_ms} | {blocks} | {sw_floor} | {engine_floor} | {bytes}"));
    }
    if engine_rows.iter().any(|r| r.placement != XIP) {
        s.intro = format!("{NOTE}\n\n{SRAM_NOTE}");
    }
    s.tables.push(t);
    // The winner per core and n: fastest engine row against the fastest BLAKE3 row.
    let keys: std::collections::BTreeSet<(&str, u64)> =
        engine_rows.iter().map(|r| (r.core.as_str(), r.n)).collect();
    for (core, n) in keys {
        let best = |hash: &str| {
            let ok = |r: &&Row| r.source == "emulator" && r.accepted() && r.hash == hash;
            let here = |r: &&Row| r.core == core && r.n == n && r.air == "fib";
            let engine = |r: &&Row| engine_rows.iter().any(|e| e.backend == r.backend);
            let r = fastest(rows.iter().filter(ok).filter(here).filter(engine))?;
            Some((r.est_ms()?, r))
        };
        if let (Some((em, e)), Some((bm, b))) = (best("sha256-engine"), best(BLAKE3)) {
            let (n, e, b, x) = (pow2(n), e.full_label(), b.full_label(), bm / em);
            s.notes.push(format!("**{core}, n = {n}**: with the engine, {e} is fastest at {em:.2} ms estimated; with BLAKE3 in software, {b} at {bm:.2} ms ({x:.2}x)."));
        }
    }
    s
}

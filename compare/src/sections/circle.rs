//! The circle answer: p3-m31 over our `WideCirclePcs` (folding arity above 2 or a longer
//! final polynomial) beside upstream's `CirclePcs` (fold 2^1, final 2^0), on both cores, from
//! the records of one folder (one firmware image for both).

use std::path::Path;

use picostark_core::{BackendId, CirclePcsKind, Domain};

use crate::doc::{grouped, ms, pow2, Section, Table};
use crate::sections::answer::{cells, chart, head, CORES};
use crate::table::{fastest, first_per, Row, BLAKE3, XIP};

/// Issue 25's one-line answer for `core` under one hash and code placement: the fastest
/// p3-m31 row (either PCS) against the fastest row of every other backend (all two-adic FRI),
/// emulator Fibonacci at `n`, each accepted under the default policy at or above its floor
/// (their bits shown); the engine's charged SHA-256 blocks where the row has them.
fn answer(rows: &[Row], n: u64, core: &str, hash: &str, place: &str) -> Option<String> {
    let ok = |r: &&Row| r.source == "emulator" && r.air == "fib" && r.n == n && r.core == core;
    let floor = picostark_core::Policy::default().min_security_bits;
    let ok = |r: &&Row| ok(r) && r.ranked(floor) && r.est_ms().is_some();
    let ok = |r: &&Row| ok(r) && r.hash == hash && r.placement == place;
    let sides = rows.iter().filter(ok).partition(|r| r.backend == "p3-m31");
    let (circle, other): (Vec<&Row>, Vec<&Row>) = sides;
    let (c, t) = (fastest(circle)?, fastest(other)?);
    let what = |r: &Row| {
        let blocks = r.estimate.as_ref().and_then(|e| e.sha256_engine.as_ref());
        let blocks = blocks.map(|b| grouped(b.blocks));
        let blocks = blocks.map_or(String::new(), |b| format!(", {b} engine blocks"));
        let insns = r.instructions.map_or("n/a".into(), grouped);
        let est = ms(r.est_ms().unwrap_or_default());
        let (b, p, bits) = (&r.backend, &r.params, r.security_bits);
        format!("{est} ms ({insns} instructions{blocks}; {b} {p}, {bits} bits)")
    };
    let ratio = c.est_ms()? / t.est_ms()?;
    Some(format!("**{core}, {hash}, {place}:** circle {} against two-adic {}: the circle takes {ratio:.2}x the two-adic estimated ms.", what(c), what(t)))
}

const INTRO: &str = "`backends/plonky3/src/circle_pcs/` is a Plonky3 0.8 `Pcs` of our own for Mersenne-31: the first layer folds circle to line as upstream's `CirclePcs` does, then each line layer folds by up to 2^4 down to a final polynomial sent in clear; its lean verifier is `backends/plonky3/src/lean/wide_circle.rs`. A p3-m31 header with folding 2^1 and final length 2^0 means upstream's `CirclePcs`, any other pair `WideCirclePcs`. Emulator runs of Fibonacci (BLAKE3, code in flash, TLSF heap) under the default policy, both proofs verified by one p3-m31-only firmware image per core, each tampered copy rejected; records and commands in `results/baseline/wide-circle/` (README.md). `results/baseline/wide-circle.md` gives the host-counted BLAKE3 compressions per parameter pair and the prover's time and memory.";

/// Whether `r`'s backend proves over a circle domain (from the backend's declaration).
fn is_circle(r: &Row) -> bool {
    BackendId::from_name(&r.backend).is_some_and(|b| b.domain() == Domain::Circle)
}

fn pcs(r: &Row) -> &'static str {
    let circle = is_circle(r);
    match (circle, r.rec.params.as_ref().map(CirclePcsKind::of)) {
        (true, Some(CirclePcsKind::Upstream)) => "CirclePcs (upstream)",
        (true, _) => "WideCirclePcs (ours)",
        _ => "two-adic FRI (reference)",
    }
}

pub fn section(rows: &[Row]) -> Section {
    let title = "Circle FRI: WideCirclePcs beside CirclePcs";
    let mut s = Section::new("circle", title, INTRO);
    let ok = |r: &&Row| r.source == "emulator" && r.air == "fib" && r.backend == "p3-m31";
    let ok = |r: &&Row| ok(r) && r.accepted() && r.default_policy();
    let ok = |r: &&Row| ok(r) && r.hash == BLAKE3 && r.placement == XIP;
    let dir = |r: &Row| r.origin.rsplit_once('/').map_or("", |d| d.0).to_string();
    let wide = |r: &&Row| ok(r) && pcs(r).starts_with("Wide");
    let wide: Vec<&Row> = rows.iter().filter(wide).collect();
    let (Some(n), Some(folder)) = (wide.iter().map(|r| r.n).min(), wide.first().map(|r| dir(r)))
    else {
        return s;
    };
    // Both PCS from the one image of the WideCirclePcs records' folder.
    let here = |r: &&Row| r.n == n && dir(r) == folder;
    let config = |r: &Row| (r.core.clone(), r.full_label());
    let picked = first_per(rows.iter().filter(ok).filter(here), config);
    for (core, name) in CORES {
        let caption = format!("{name}, Fibonacci n = {}", pow2(n));
        let mut t = Table::new(&caption, &head("PCS | "));
        for r in picked.iter().filter(|r| r.core == core) {
            t.row(&format!("{} | {}", pcs(r), cells(r)));
        }
        s.tables.push(t);
    }
    for (core, _) in CORES {
        for (hash, place) in [(BLAKE3, XIP), ("sha256-engine", "all-sram")] {
            s.notes.extend(answer(rows, n, core, hash, place));
        }
    }
    let n = pow2(n);
    let title = format!("Estimated ms, p3-m31 Fibonacci n = {n}: CirclePcs against WideCirclePcs");
    let label = |r: &Row| format!("{} {}", pcs(r), r.full_label());
    s.charts.extend(chart(&title, &picked, &label, false));
    s
}

/// Instructions of the hash compressions in the first-iteration profile beside `r`'s record
/// (`mcu-run run --profile`), as a share of the verification's instructions: BLAKE3's
/// compression functions; none for an engine row, whose blocks the engine hashes.
fn compression_share(r: &Row) -> Option<f64> {
    let profile = r.origin.strip_suffix(".json")?.to_string() + ".profile.iteration1.txt";
    let text = std::fs::read_to_string(Path::new(&profile)).ok()?;
    let total = r.instructions? as f64;
    let compress = text
        .lines()
        .filter(|l| l.contains("blake3::compress") || l.contains("blake3::portable::compress"))
        .filter_map(|l| l.split_whitespace().next()?.parse::<u64>().ok())
        .sum::<u64>();
    (r.hash == BLAKE3 && total > 0.0).then(|| compress as f64 / total)
}

/// `1 234 567 instructions, 642 engine blocks` (or `, BLAKE3 compressions 52 %`).
fn work(r: &Row) -> String {
    let insns = r.instructions.map_or("n/a".into(), grouped);
    let blocks = r.estimate.as_ref().and_then(|e| e.sha256_engine.as_ref());
    let hashing = match (blocks, compression_share(r)) {
        (Some(b), _) => format!("{} engine blocks", grouped(b.blocks)),
        (None, Some(s)) => format!("BLAKE3 compressions {:.0} %", 100.0 * s),
        (None, None) => "–".into(),
    };
    format!("{insns} | {hashing}")
}

/// The circle question on the first screen (issue 44): per core, hash and placement, the
/// fastest p3-m31 row against the fastest two-adic row with the same FRI parameters (so the
/// same conjectured bits), emulator Fibonacci at the smallest n, accepted at the floor.
pub fn first_screen(rows: &[Row], min_security: u32) -> Option<Table> {
    let ok = |r: &&Row| r.source == "emulator" && r.air == "fib" && r.ranked(min_security);
    let ok = |r: &&Row| ok(r) && r.est_ms().is_some() && !r.placement.starts_with(XIP);
    let pool: Vec<&Row> = rows.iter().filter(ok).collect();
    let n = pool.iter().filter(|r| is_circle(r)).map(|r| r.n).min()?;
    let caption = format!("4. The circle question: the fastest circle-FRI row (QM31) against the fastest two-adic row with the same FRI parameters, hash and placement, Fibonacci n = {}", pow2(n));
    let head = "core | hash | placement | PARAMS | bits | circle | circle: est. ms | circle: instructions | circle: hashing | two-adic | two-adic: est. ms | two-adic: instructions | two-adic: hashing | circle / two-adic";
    let mut t = Table::new(&caption, &head.replace("PARAMS", crate::doc::PARAMS_HEAD));
    for (core, name) in CORES {
        for hash in [BLAKE3, "sha256-engine"] {
            let here = |r: &&&Row| r.n == n && r.core == core && r.hash == hash;
            let circles = pool.iter().filter(here).filter(|r| is_circle(r));
            let paired = circles.filter_map(|c| {
                let same = |o: &&&Row| {
                    here(o) && !is_circle(o) && o.params == c.params && o.placement == c.placement
                };
                Some((*c, fastest(pool.iter().filter(same).copied())?))
            });
            let best = paired.min_by(|a, b| {
                a.0.est_ms()
                    .unwrap_or_default()
                    .total_cmp(&b.0.est_ms().unwrap_or_default())
            });
            let Some((c, o)) = best else { continue };
            let (cm, om) = (
                c.est_ms().unwrap_or_default(),
                o.est_ms().unwrap_or_default(),
            );
            t.row(&format!(
                "{name} | {hash} | {} | {} | {} / {} | {} | {} | {} | {} | {} | {} | {:.2}x",
                c.placement,
                c.params,
                c.security_bits,
                o.security_bits,
                c.backend,
                ms(cm),
                work(c),
                o.backend,
                ms(om),
                work(o),
                cm / om
            ));
        }
    }
    (!t.rows.is_empty()).then_some(t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::build_rows;
    use crate::table::tests::{emu, with_estimate, with_security};

    /// An all-sram BLAKE3 row of `backend` with folding 2^4 and final 2^2 (or other params).
    fn row(backend: &str, core: &str, cycles: u64, fold: u8) -> crate::input::Entry {
        let mut e = with_security(
            with_estimate(emu(backend, 4, 1024, core, cycles / 2), cycles),
            102.0,
            60.0,
        );
        e.record.placement = Some("all-sram".into());
        let p = e.record.params.as_mut().unwrap();
        (p.log_fold_arity, p.log_final_poly_len) = (fold, 2);
        e
    }

    #[test]
    fn the_circle_row_meets_the_fastest_two_adic_row_with_its_parameters() {
        let rows = build_rows(&[
            row("p3-m31", "m33", 3_000_000, 4),
            row("p3-babybear", "m33", 2_000_000, 4),
            row("p3-goldilocks", "m33", 2_500_000, 4),
            // Faster, but other parameters: not the circle row's pair.
            row("p3-babybear", "m33", 1_000_000, 3),
        ]);
        let t = first_screen(&rows, 95).expect("a pair on the M33");
        assert_eq!(t.rows.len(), 1, "{:?}", t.rows);
        let cells: Vec<&str> = t.rows[0].iter().map(String::as_str).collect();
        assert_eq!(cells[0], "Cortex-M33");
        assert_eq!((cells[4], cells[5]), ("102 / 102", "p3-m31"), "{cells:?}");
        assert!(cells.contains(&"p3-babybear"), "{cells:?}");
        assert_eq!(*cells.last().unwrap(), "1.50x");
        // No two-adic row with the circle row's parameters: no answer.
        let alone = build_rows(&[
            row("p3-m31", "m33", 3_000_000, 4),
            row("p3-babybear", "m33", 1_000_000, 3),
        ]);
        assert!(first_screen(&alone, 95).is_none());
    }
}

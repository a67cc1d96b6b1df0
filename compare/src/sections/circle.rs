//! The circle section: the three circle STARKs side by side on both cores (p3-m31 over our
//! `WideCirclePcs`, p3-m31 over upstream Plonky3's `CirclePcs`, and stwo 2.3's own verifier)
//! from the records of `results/circle/side-by-side/`, at equal blowup, queries and PoW bits;
//! and the circle question's answer lines and first-screen table.

use std::collections::BTreeSet;
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

const INTRO: &str = "Three circle STARK verifiers over Mersenne-31 and its quartic extension QM31: p3-m31 over `WideCirclePcs` (ours, `backends/plonky3/src/circle_pcs/`: the first layer folds circle to line as upstream does, then each line layer folds by up to 2^4 down to a final polynomial sent in clear; lean verifier `backends/plonky3/src/lean/wide_circle.rs`), p3-m31 over upstream Plonky3 0.8's `CirclePcs` (a p3-m31 header with folding 2^1 and final length 2^0 means it), both verified by our lean Plonky3 verifier, and stwo-m31 (stwo 2.3's own `no_std` verifier behind our bounded parser, `backends/stwo/`). Emulator runs of Fibonacci, code in flash (xip), TLSF heap 256 KiB, one firmware image per backend and core, each accepted under the default policy and its tampered copy rejected; records and commands in `results/circle/side-by-side/` (run.sh). Each table holds blowup, queries and PoW bits equal (what sets the conjectured bits); what else differs is in the rows: the hash (BLAKE3 for p3-m31, Blake2s for stwo, whose channel is its own), and the folding where a PCS cannot take the group's (CirclePcs folds by 2 to a constant only; WideCirclePcs is every other pair, so it folds by 2 to 2 coefficients where the others fold to a constant).";

/// Whether `r`'s backend proves over a circle domain (from the backend's declaration).
fn is_circle(r: &Row) -> bool {
    BackendId::from_name(&r.backend).is_some_and(|b| b.domain() == Domain::Circle)
}

/// Where the side-by-side records are (`results/circle/side-by-side/run.sh`).
const SIDE_BY_SIDE: &str = "circle/side-by-side/";

/// Which verifier a circle row (p3-m31 or stwo-m31) measures.
fn verifier(r: &Row) -> &'static str {
    if r.backend == BackendId::StwoM31.name() {
        return "stwo 2.3 (its own verifier)";
    }
    match r.rec.params.as_ref().map(CirclePcsKind::of) {
        Some(CirclePcsKind::Upstream) => "CirclePcs (upstream Plonky3)",
        _ => "WideCirclePcs (ours)",
    }
}

pub fn section(rows: &[Row]) -> Section {
    let title = "Circle STARKs side by side: WideCirclePcs, CirclePcs and stwo";
    let mut s = Section::new("circle", title, INTRO);
    let ok = |r: &&Row| r.source == "emulator" && r.air == "fib" && is_circle(r);
    let ok = |r: &&Row| ok(r) && r.accepted() && r.default_policy() && r.placement == XIP;
    // What sets the conjectured bits, and the image's heap: one table per core, n and
    // (blowup, queries, PoW). The groups are the folder's; a row of the same configuration
    // from another folder merged with its proof (`table::merge_proofs`) stands in it too.
    let group = |r: &Row| {
        let p = r.rec.params.as_ref()?;
        Some((r.n, p.log_blowup, p.num_queries, p.pow_bits, r.heap_size))
    };
    let mine = |r: &&Row| ok(r) && r.origin.contains(SIDE_BY_SIDE);
    let groups: BTreeSet<_> = rows.iter().filter(mine).filter_map(group).collect();
    let side = |r: &&Row| ok(r) && group(r).is_some_and(|g| groups.contains(&g));
    let side: Vec<&Row> = rows.iter().filter(side).collect();
    for (core, name) in CORES {
        for g in &groups {
            let here = |r: &&&Row| r.core == core && group(r) == Some(*g);
            let mut picked = first_per(side.iter().filter(here).copied(), |r| r.full_label());
            let est = |r: &&Row| r.est_ms().unwrap_or(f64::MAX);
            picked.sort_by(|a, b| est(a).total_cmp(&est(b)));
            let (n, blowup, queries, pow, _) = *g;
            let caption = format!(
                "{name}, Fibonacci n = {}: blowup 2^{blowup}, {queries} queries, {pow} PoW bits; fastest first",
                pow2(n)
            );
            let mut t = Table::new(&caption, &head("verifier | "));
            for r in &picked {
                t.row(&format!("{} | {}", verifier(r), cells(r)));
            }
            if !t.rows.is_empty() {
                s.tables.push(t);
            }
        }
    }
    let n = n_of(rows);
    for (core, _) in CORES {
        for (hash, place) in [(BLAKE3, XIP), ("sha256-engine", "all-sram")] {
            s.notes.extend(answer(rows, n, core, hash, place));
        }
    }
    let label = |r: &Row| format!("{} {}", verifier(r), r.full_label());
    let title = "Estimated ms, circle STARKs side by side (Fibonacci)";
    s.charts.extend(chart(title, &side, &label, true));
    s
}

/// The smallest n of an emulator Fibonacci p3-m31 row: where the circle answer lines look.
fn n_of(rows: &[Row]) -> u64 {
    let ok = |r: &&Row| r.source == "emulator" && r.air == "fib" && r.backend == "p3-m31";
    rows.iter().filter(ok).map(|r| r.n).min().unwrap_or(0)
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
    use crate::input::Entry;
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

    /// A side-by-side record: `backend` on `core` at blowup 2^3, 28 queries, 16 PoW bits and
    /// the given folding, from `origin`.
    fn side(backend: &str, core: &str, cycles: u64, fold: (u8, u8), origin: &str) -> Entry {
        let mut e = with_security(
            with_estimate(emu(backend, 4, 1024, core, cycles / 2), cycles),
            98.0,
            57.0,
        );
        let p = e.record.params.as_mut().unwrap();
        (p.log_blowup, p.num_queries, p.pow_bits) = (3, 28, 16);
        (p.log_fold_arity, p.log_final_poly_len) = fold;
        if backend == "stwo-m31" {
            e.record.hash_impl = Some("blake2s-software".into());
        }
        e.origin = origin.into();
        e
    }

    #[test]
    fn the_three_circle_verifiers_share_a_table_per_core_and_query_phase() {
        let (here, raw) = ("results/circle/side-by-side/x.json", "results/raw/x.json");
        let rows = build_rows(&[
            side("stwo-m31", "m33", 9_000_000, (1, 0), here),
            side("p3-m31", "m33", 3_000_000, (1, 0), here),
            side("p3-m31", "m33", 2_000_000, (1, 1), here),
            // Another folder at parameters the folder has no group of: not in the section.
            {
                let mut e = side("p3-m31", "m33", 1_000_000, (2, 2), raw);
                e.record.params.as_mut().unwrap().log_blowup = 6;
                e
            },
        ]);
        let s = section(&rows);
        assert_eq!(s.tables.len(), 1, "one core, one group");
        let t = &s.tables[0];
        let group = "blowup 2^3, 28 queries, 16 PoW bits";
        assert!(t.caption.contains(group), "{}", t.caption);
        let names: Vec<&str> = t.rows.iter().map(|r| r[0].as_str()).collect();
        let want = [
            "WideCirclePcs (ours)",
            "CirclePcs (upstream Plonky3)",
            "stwo 2.3 (its own verifier)",
        ];
        assert_eq!(names, want, "fastest first");
        // stwo's hash is its own, never counted as BLAKE3.
        let hashes: Vec<&str> = t.rows.iter().map(|r| r[5].as_str()).collect();
        assert_eq!(hashes, ["blake3", "blake3", "blake2s"], "{:?}", t.rows);
    }
}

//! The circle section: the three circle STARKs side by side on both cores (p3-m31 over our
//! `WideCirclePcs`, p3-m31 over upstream Plonky3's `CirclePcs`, and stwo-m31 on our lean
//! verifier and on stwo 2.3's own) from the records of `results/circle/side-by-side/`, at
//! equal blowup, queries and PoW bits; and the circle question's answer lines and
//! first-screen table.

use std::collections::BTreeSet;
use std::path::Path;

use picostark_core::record::is_field_arithmetic;
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

const INTRO: &str = "Three circle STARK verifiers over Mersenne-31 and its quartic extension QM31: p3-m31 over `WideCirclePcs` (ours, `backends/plonky3/src/circle_pcs/`: the first layer folds circle to line as upstream does, then each line layer folds by up to 2^4 down to a final polynomial sent in clear; lean verifier `backends/plonky3/src/lean/wide_circle.rs`), p3-m31 over upstream Plonky3 0.8's `CirclePcs` (a p3-m31 header with folding 2^1 and final length 2^0 means it), both verified by our lean Plonky3 verifier, and stwo-m31 behind our bounded parser (`backends/stwo/`) twice: on our lean verifier of stwo proofs (`backends/stwo/src/lean/`, issue 45, verdicts tested equal to stwo's) and on stwo 2.3's own `no_std` verifier (the `stwo-stock` image). Emulator runs of Fibonacci, code in flash (xip), TLSF heap 256 KiB, one firmware image per backend and core, each accepted under the default policy and its tampered copy rejected; records and commands in `results/circle/side-by-side/` (run.sh). Each table holds blowup, queries and PoW bits equal (what sets the conjectured bits); what else differs is in the rows: the hash (BLAKE3 for p3-m31; stwo with its own Blake2s channel, and with our BLAKE3 channel, `backends/stwo/src/channel.rs`, where the hash is then equal), and the folding where a PCS cannot take the group's (CirclePcs folds by 2 to a constant only; WideCirclePcs is every other pair, so it folds by 2 to 2 coefficients where the others fold to a constant).";

/// Whether `r`'s backend proves over a circle domain (from the backend's declaration).
fn is_circle(r: &Row) -> bool {
    BackendId::from_name(&r.backend).is_some_and(|b| b.domain() == Domain::Circle)
}

/// Where the side-by-side records are (`results/circle/side-by-side/run.sh`).
const SIDE_BY_SIDE: &str = "circle/side-by-side/";

/// The image label of stwo-m31 rows run on stwo's own verifier (`mcu-run run --features
/// stwo-m31,stwo-stock --image stwo-stock`); without it a stwo-m31 row ran our lean one.
pub const STWO_STOCK: &str = "stwo-stock";

/// Whether `r` ran stwo's own verifier (the `stwo-stock` image).
fn is_stwo_stock(r: &Row) -> bool {
    r.backend == BackendId::StwoM31.name() && r.rec.image.as_deref() == Some(STWO_STOCK)
}

/// Which verifier a circle row (p3-m31 or stwo-m31) measures.
fn verifier(r: &Row) -> &'static str {
    if r.backend == BackendId::StwoM31.name() {
        return if is_stwo_stock(r) {
            "stwo 2.3 (its own verifier)"
        } else {
            "stwo (our lean verifier)"
        };
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
    // Code in flash; stwo's own verifier is that placement in its own image.
    let xip = |r: &Row| r.placement == XIP || r.placement == format!("{XIP} {STWO_STOCK}");
    let ok = |r: &&Row| ok(r) && r.accepted() && r.default_policy() && xip(r);
    // What sets the conjectured bits, and the image's heap: one table per core, n and
    // (blowup, queries, PoW). The groups are the folder's; a row of the same configuration
    // from another folder merged with its proof (`table::merge_proofs`) stands in it too.
    let group = |r: &Row| {
        let p = r.rec.params.as_ref()?;
        Some((r.n, p.log_blowup, p.num_queries, p.pow_bits, r.heap_size))
    };
    let mine = |r: &&Row| ok(r) && r.origin.contains(SIDE_BY_SIDE);
    let groups: BTreeSet<_> = rows.iter().filter(mine).filter_map(group).collect();
    // The folder's hashes only: other folders' rows of a group (stwo-m31's SHA-256 rows in
    // `results/stwo/`) are in the full matrix.
    let hashes: BTreeSet<&str> = rows.iter().filter(mine).map(|r| r.hash.as_str()).collect();
    let side = |r: &&Row| {
        ok(r) && group(r).is_some_and(|g| groups.contains(&g)) && hashes.contains(r.hash.as_str())
    };
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
    // The verifiers as they run today: stwo's own verifier (the stock row) is in the tables.
    let today: Vec<&Row> = side.iter().copied().filter(|r| !is_stwo_stock(r)).collect();
    s.charts.extend(chart(title, &today, &label, true));
    s
}

/// The smallest n of an emulator Fibonacci p3-m31 row: where the circle answer lines look.
fn n_of(rows: &[Row]) -> u64 {
    let ok = |r: &&Row| r.source == "emulator" && r.air == "fib" && r.backend == "p3-m31";
    rows.iter().filter(ok).map(|r| r.n).min().unwrap_or(0)
}

/// The first-iteration profile beside `r`'s record (`mcu-run run --profile`), or the whole
/// run's (`mcu-run board --profile`): instructions by function.
fn profile_of(r: &Row) -> Option<String> {
    let stem = r.origin.strip_suffix(".json")?;
    [".profile.iteration1.txt", ".profile.txt"]
        .iter()
        .find_map(|ext| std::fs::read_to_string(Path::new(&format!("{stem}{ext}"))).ok())
}

/// `(instructions, function)` of each profile line.
fn profile_lines(text: &str) -> impl Iterator<Item = (u64, &str)> {
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let mut words = l.split_whitespace();
            let n = words.next()?.parse().ok()?;
            Some((n, words.nth(2)?))
        })
}

/// The share of a profile's instructions in the functions `is` picks.
fn share(text: &str, is: impl Fn(&str) -> bool) -> Option<f64> {
    let (mut part, mut total) = (0u64, 0u64);
    for (n, f) in profile_lines(text) {
        total += n;
        part += if is(f) { n } else { 0 };
    }
    (total > 0).then(|| part as f64 / total as f64)
}

/// BLAKE3's compression functions, as a share of the verification's instructions; none for
/// an engine row, whose blocks the engine hashes.
fn compression_share(r: &Row, profile: &str) -> Option<f64> {
    let compress =
        |f: &str| f.contains("blake3::compress") || f.contains("blake3::portable::compress");
    (r.hash == BLAKE3)
        .then(|| share(profile, compress))
        .flatten()
}

/// `1 234 567 · 642 engine blocks · 12 %` (or `BLAKE3 58 %`); a dash
/// where the record has no profile beside it.
fn work(r: &Row) -> String {
    let insns = r.instructions.map_or("n/a".into(), grouped);
    let blocks = r.estimate.as_ref().and_then(|e| e.sha256_engine.as_ref());
    let profile = profile_of(r);
    let pct = |s: Option<f64>| s.map_or("–".into(), |s| format!("{:.0} %", 100.0 * s));
    let hashing = match (blocks, &profile) {
        (Some(b), _) => format!("{} engine blocks", grouped(b.blocks)),
        (None, Some(p)) => format!("BLAKE3 {}", pct(compression_share(r, p))),
        (None, None) => "BLAKE3 –".into(),
    };
    let arithmetic = pct(profile
        .as_deref()
        .and_then(|p| share(p, is_field_arithmetic)));
    format!("{insns} · {hashing} · {arithmetic}")
}

/// The placements of the first screen's circle answer (issue 44): BLAKE3 on the image a user
/// flashes (one backend, hot code and the proof in SRAM), the SHA-256 engine with all code in
/// SRAM.
const ANSWER_PLACES: [(&str, &str); 2] = [
    (BLAKE3, "hot-sram+proof-sram one-backend"),
    ("sha256-engine", "all-sram"),
];

/// What the first screen's circle answer compares, for the notes below the answers.
pub const FIRST_SCREEN_NOTE: &str = "**The circle question** (answer 4) compares per core the fastest circle-FRI row with the fastest two-adic row of any protocol, both accepted at the floor under the strictest conjecture: with BLAKE3 on the image a user flashes (one backend, hot code and the proof in SRAM: `hot-sram+proof-sram`, section “Code placement”), and with the SHA-256 engine with all code in SRAM (`all-sram`). Their FRI parameters may differ, so each side names its own with its bits. Beside each: instructions, the hashing (engine blocks, or BLAKE3's compressions as a share of the profiled instructions) and the field arithmetic the compiler kept out of line (share of the profile, the rule of `mcu-run profile-parts`); a dash where the record has no profile beside it. At equal FRI parameters: section “Circle STARKs side by side”.";

/// The circle question on the first screen (issue 44): per core, the fastest circle-FRI row
/// against the fastest two-adic row at equal security (each accepted under the default
/// policy, at least the floor under the strictest conjecture; their parameters and bits
/// shown, as they may differ), with the same hash and placement, emulator Fibonacci at the
/// smallest n of a circle row; instructions, hashing and out-of-line field arithmetic beside.
pub fn first_screen(rows: &[Row], min_security: u32) -> Option<Table> {
    let ok = |r: &&Row| r.source == "emulator" && r.air == "fib" && r.ranked(min_security);
    let pool: Vec<&Row> = rows
        .iter()
        .filter(ok)
        .filter(|r| r.est_ms().is_some())
        .collect();
    let n = pool.iter().filter(|r| is_circle(r)).map(|r| r.n).min()?;
    let caption = format!("4. The circle question: the fastest circle-FRI row (QM31) against the fastest two-adic row, each at least {min_security} bits, Fibonacci n = {}", pow2(n));
    let head = "core | hash | placement | circle | circle: est. ms | circle: instructions · hashing · arithmetic | two-adic | two-adic: est. ms | two-adic: instructions · hashing · arithmetic | circle / two-adic";
    let mut t = Table::new(&caption, head);
    let side = |r: &Row| format!("{} · {} · {} bits", r.backend, r.params, r.security_bits);
    for (core, name) in CORES {
        for (hash, place) in ANSWER_PLACES {
            let here =
                |r: &&&Row| r.n == n && r.core == core && r.hash == hash && r.placement == place;
            let circle = fastest(pool.iter().filter(here).filter(|r| is_circle(r)).copied());
            let other = fastest(pool.iter().filter(here).filter(|r| !is_circle(r)).copied());
            let (Some(c), Some(o)) = (circle, other) else {
                continue;
            };
            let (cm, om) = (
                c.est_ms().unwrap_or_default(),
                o.est_ms().unwrap_or_default(),
            );
            // The note below the answers says the BLAKE3 image holds one backend.
            let shown = place.trim_end_matches(" one-backend");
            t.row(&format!(
                "{name} | {hash} | {shown} | {} | {} | {} | {} | {} | {} | {:.2}x",
                side(c),
                ms(cm),
                work(c),
                side(o),
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

    /// A `place` BLAKE3 row of `backend` with folding 2^`fold` and final 2^2 at `bits`.
    fn row(backend: &str, core: &str, cycles: u64, fold: u8, place: &str, bits: f64) -> Entry {
        let mut e = with_security(
            with_estimate(emu(backend, 4, 1024, core, cycles / 2), cycles),
            bits,
            60.0,
        );
        let (placement, image) = place.split_once(' ').unwrap_or((place, ""));
        e.record.placement = Some(placement.into());
        e.record.image = (!image.is_empty()).then(|| image.into());
        let p = e.record.params.as_mut().unwrap();
        (p.log_fold_arity, p.log_final_poly_len) = (fold, 2);
        e
    }

    #[test]
    fn the_circle_row_meets_the_fastest_two_adic_row_at_the_floor_on_the_flashed_image() {
        let flashed = "hot-sram+proof-sram one-backend";
        let rows = build_rows(&[
            row("p3-m31", "m33", 3_000_000, 4, flashed, 98.0),
            row("p3-babybear", "m33", 2_000_000, 4, flashed, 102.0),
            // Other parameters at the floor: still the circle row's pair (equal security).
            row("p3-goldilocks", "m33", 1_500_000, 3, flashed, 96.0),
            // Faster, but below the floor, or on another placement: not its pair.
            row("p3-babybear", "m33", 1_000_000, 4, flashed, 90.0),
            row("p3-babybear", "m33", 1_000_000, 4, "all-sram", 102.0),
        ]);
        let t = first_screen(&rows, 95).expect("a pair on the M33");
        assert_eq!(t.rows.len(), 1, "{:?}", t.rows);
        let cells: Vec<&str> = t.rows[0].iter().map(String::as_str).collect();
        assert_eq!(
            (cells[0], cells[1], cells[2]),
            ("Cortex-M33", "blake3", "hot-sram+proof-sram")
        );
        assert!(
            cells[3].starts_with("p3-m31 · 2^6 / 14 / 2^4 / ") && cells[3].ends_with(" · 98 bits"),
            "{cells:?}"
        );
        assert!(
            cells[6].starts_with("p3-goldilocks · ") && cells[6].ends_with("96 bits"),
            "{cells:?}"
        );
        // No profile beside these records: the shares are dashes, never invented.
        assert!(cells[5].ends_with("BLAKE3 – · –"), "{cells:?}");
        assert_eq!(*cells.last().unwrap(), "2.00x");
        // No two-adic row at the floor on that image: no answer.
        let alone = build_rows(&[
            row("p3-m31", "m33", 3_000_000, 4, flashed, 98.0),
            row("p3-babybear", "m33", 1_000_000, 4, "all-sram", 102.0),
        ]);
        assert!(first_screen(&alone, 95).is_none());
    }

    #[test]
    fn field_arithmetic_is_counted_by_a_function_s_own_path() {
        let profile = "# p: instructions by function\n\
            # block-profile total 1000 (exact count of the same regions: 1000)\n\
            600  60.00%  60.00%  picostark_blake3::compress\n\
            200  20.00%  80.00%  <picostark_field::qm31::QM31>::inverse\n\
            100  10.00%  90.00%  <p3_field::extension::ExtField<F, 2, B> as core::ops::arith::Mul>::mul\n\
            100  10.00% 100.00%  picostark_plonky3::lean::fold_row::<p3_field::extension::ExtField<F, 4, B>>\n";
        let arithmetic = share(profile, is_field_arithmetic).unwrap();
        assert!((arithmetic - 0.3).abs() < 1e-9, "{arithmetic}");
        let compress = share(profile, |f| f.contains("blake3::compress")).unwrap();
        assert!((compress - 0.6).abs() < 1e-9, "{compress}");
        assert_eq!(share("# nothing\n", is_field_arithmetic), None);
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
        let stock = {
            let mut e = side("stwo-m31", "m33", 9_000_000, (1, 0), here);
            e.record.image = Some(STWO_STOCK.into());
            e
        };
        let rows = build_rows(&[
            stock,
            side("stwo-m31", "m33", 4_000_000, (1, 0), here),
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
            "stwo (our lean verifier)",
            "stwo 2.3 (its own verifier)",
        ];
        assert_eq!(names, want, "fastest first");
        // stwo's hash is its own, never counted as BLAKE3.
        let hashes: Vec<&str> = t.rows.iter().map(|r| r[5].as_str()).collect();
        assert_eq!(
            hashes,
            ["blake3", "blake3", "blake2s", "blake2s"],
            "{:?}",
            t.rows
        );
    }
}

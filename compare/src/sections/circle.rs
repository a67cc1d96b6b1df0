//! The circle answer: p3-m31 over our `WideCirclePcs` (folding arity above 2 or a longer
//! final polynomial) beside upstream's `CirclePcs` (fold 2^1, final 2^0), on both cores, from
//! the records of one folder (one firmware image for both).

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

fn pcs(r: &Row) -> &'static str {
    let backend = BackendId::from_name(&r.backend);
    let circle = backend.is_some_and(|b| b.domain() == Domain::Circle);
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

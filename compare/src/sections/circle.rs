//! The circle answer: p3-m31 over our `WideCirclePcs` (folding arity above 2 or a longer
//! final polynomial) beside upstream's `CirclePcs` (fold 2^1, final 2^0), on both cores, with
//! the two-adic BabyBear default for reference.

use crate::chart;
use crate::doc::{Section, Table};
use crate::sections::answer::{cells, core_groups, label, CORES, HEAD};
use crate::table::{Row, BLAKE3};

const INTRO: &str = "`backends/plonky3/src/circle_pcs/` is a Plonky3 0.8 `Pcs` of our own for Mersenne-31: the first layer folds circle to line as upstream's `CirclePcs` does, then each line layer folds by up to 2^4 down to a final polynomial sent in clear; its lean verifier is `backends/plonky3/src/lean/wide_circle.rs`. A p3-m31 header with folding 2^1 and final length 2^0 means upstream's `CirclePcs`, any other pair `WideCirclePcs`. Emulator runs of Fibonacci (BLAKE3, code in flash) under the default policy; the `WideCirclePcs` records and their commands are in `results/baseline/wide-circle/` and `results/baseline/wide-circle.md` (which also gives the host-counted BLAKE3 compressions per parameter pair and the prover's time and memory).";

fn pcs(r: &Row) -> &'static str {
    match (
        r.backend.as_str(),
        r.params.split(" / ").nth(2),
        r.params.split(" / ").nth(3),
    ) {
        ("p3-m31", Some("2^1"), Some("2^0")) => "CirclePcs (upstream)",
        ("p3-m31", _, _) => "WideCirclePcs (ours)",
        _ => "two-adic FRI (reference)",
    }
}

pub fn section(rows: &[Row]) -> Section {
    let mut s = Section::new(
        "circle",
        "Circle FRI: WideCirclePcs beside CirclePcs",
        INTRO,
    );
    let ok = |r: &&Row| {
        r.source == "emulator"
            && r.air == "fib"
            && r.accepted()
            && r.default_policy()
            && r.hash == BLAKE3
            && r.placement == crate::table::XIP
            && (r.backend == "p3-m31" || (r.backend == "p3-babybear" && r.extension == 4))
    };
    let wide: Vec<&Row> = rows
        .iter()
        .filter(ok)
        .filter(|r| pcs(r).starts_with("Wide"))
        .collect();
    let Some(n) = wide.iter().map(|r| r.n).min() else {
        return s;
    };
    let mut picked: Vec<&Row> = Vec::new();
    for r in rows.iter().filter(ok).filter(|r| r.n == n) {
        let reference = pcs(r).starts_with("two-adic") && !r.params.starts_with("2^6 / 14 /");
        if !reference
            && !picked
                .iter()
                .any(|o| (o.core == r.core) && label(o) == label(r))
        {
            picked.push(r);
        }
    }
    let mut head = vec!["PCS"];
    head.extend(HEAD);
    for (core, name) in CORES {
        let mut t = Table::new(&format!("{name}, Fibonacci n = {n}"), &head);
        for r in picked.iter().filter(|r| r.core == core) {
            let mut line = vec![pcs(r).to_string()];
            line.extend(cells(r));
            t.rows.push(line);
        }
        s.tables.push(t);
    }
    let groups = core_groups(&picked, &|r| format!("{} {}", pcs(r), label(r)));
    s.charts.push(chart::bars(
        &format!("Estimated ms, p3-m31 Fibonacci n = {n}: CirclePcs against WideCirclePcs"),
        "estimated ms (RP2350 timing model, 150 MHz)",
        &CORES.map(|c| c.1),
        &groups,
        &|v| format!("{v:.2}"),
    ));
    s
}

//! The circle answer: p3-m31 over our `WideCirclePcs` (folding arity above 2 or a longer
//! final polynomial) beside upstream's `CirclePcs` (fold 2^1, final 2^0), on both cores, from
//! the records of one folder (one firmware image for both).

use crate::doc::{pow2, Section, Table};
use crate::sections::answer::{cells, chart, first_per_config, head, CORES};
use crate::table::{Row, BLAKE3, XIP};

const INTRO: &str = "`backends/plonky3/src/circle_pcs/` is a Plonky3 0.8 `Pcs` of our own for Mersenne-31: the first layer folds circle to line as upstream's `CirclePcs` does, then each line layer folds by up to 2^4 down to a final polynomial sent in clear; its lean verifier is `backends/plonky3/src/lean/wide_circle.rs`. A p3-m31 header with folding 2^1 and final length 2^0 means upstream's `CirclePcs`, any other pair `WideCirclePcs`. Emulator runs of Fibonacci (BLAKE3, code in flash, TLSF heap) under the default policy, both proofs verified by one p3-m31-only firmware image per core, each tampered copy rejected; records and commands in `results/baseline/wide-circle/` (README.md). `results/baseline/wide-circle.md` gives the host-counted BLAKE3 compressions per parameter pair and the prover's time and memory.";

fn pcs(r: &Row) -> &'static str {
    let fold_final: Vec<&str> = r.params.split(" / ").skip(2).take(2).collect();
    match (r.backend.as_str(), &fold_final[..]) {
        ("p3-m31", ["2^1", "2^0"]) => "CirclePcs (upstream)",
        ("p3-m31", _) => "WideCirclePcs (ours)",
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
    let wide = rows.iter().filter(ok);
    let wide = wide.filter(|r| pcs(r).starts_with("Wide"));
    let wide: Vec<&Row> = wide.collect();
    let (Some(n), Some(folder)) = (wide.iter().map(|r| r.n).min(), wide.first().map(|r| dir(r)))
    else {
        return s;
    };
    // Both PCS from the one image of the WideCirclePcs records' folder.
    let here = |r: &&Row| r.n == n && dir(r) == folder;
    let picked = first_per_config(rows.iter().filter(ok).filter(here));
    for (core, name) in CORES {
        let caption = format!("{name}, Fibonacci n = {}", pow2(n));
        let mut t = Table::new(&caption, &head("PCS | "));
        for r in picked.iter().filter(|r| r.core == core) {
            t.row(&format!("{} | {}", pcs(r), cells(r)));
        }
        s.tables.push(t);
    }
    let n = pow2(n);
    let title = format!("Estimated ms, p3-m31 Fibonacci n = {n}: CirclePcs against WideCirclePcs");
    let label = |r: &Row| format!("{} {}", pcs(r), r.full_label());
    s.charts.push(chart(&title, &picked, &label, false));
    s
}

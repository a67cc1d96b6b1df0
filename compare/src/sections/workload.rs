//! The workload axis: the rows of every AIR other than Fibonacci (the Poseidon2
//! Merkle-membership AIR, `chain16`), measured on both cores, with the ratio to Fibonacci of
//! the same configuration and core.

use std::collections::BTreeSet;

use crate::doc::{pow2, times, Section, Table};
use crate::sections::answer::{cells, chart, head, CORES};
use crate::table::Row;

const MEMBERSHIP: &str = "**membership** (`air/src/membership.rs`): a depth-10 Poseidon2 Merkle path from the hash of an identity to a public root, a nullifier and a scope/signal binding row, one Poseidon2 permutation per row (n = 16 rows), every hash with a domain tag per role (leaf, nullifier, node, binding) in the permutation's capacity: BabyBear-24 and M31-24 with 9-word digests, Goldilocks-12 with 4-word digests (237, 238 and 132 columns). A proof's bits are capped by that hash's collision resistance (128 bits; 127 for Goldilocks), whatever its FRI parameters. Every row is our own verifier: the lean Plonky3 verifier (width-sized buffers on the heap, up to 256 columns; checked against `p3_uni_stark::verify` by the differential suites) and our winterfell verifier. The firmware's `code-in-ram` images leave the membership AIR out (`lean-no-membership`), so the code-in-SRAM Plonky3 rows come from `code-in-ram-membership` images. The 128-bit point is 127 bits strictest (the most a 128-bit hash gives), on challenge fields above 128 bits (BabyBear^5, Goldilocks^3, M31^6), parameters by `prover-host tune`. Emulator runs under QEMU, estimated ms from the timing model, every tampered copy rejected; records and commands in `results/membership/` (README.md).";

const CHAIN16: &str = "**chain16** (`picostark_air::chain16::CubicChain16`): 16 columns, 16 degree-3 transition constraints, 8 public inputs.";

/// zkmcu's "128-bit" proofs under our regimes, for comparing at equal security.
fn zkmcu_line() -> String {
    let [(_, f), _] = crate::zkmcu::figures();
    let strictest = f.ethstark.min(f.winterfell).min(f.plonky3);
    let cap = crate::zkmcu::DIGEST.bits;
    format!("zkmcu's \"128-bit\" PQ-Semaphore proofs (log blowup 1, 64 queries, 16 + 17 PoW bits, 6-word digests; its published parameters) count {strictest} bits under the strictest regime here, {} under Plonky3's estimator, and at most {cap} by their digests (`compare/src/zkmcu.rs`, table in `results/membership/README.md`).", f.plonky3)
}

pub fn section(rows: &[Row], min_security: u32) -> Section {
    let wide = |r: &&Row| r.air != "fib" && r.source == "emulator" && r.accepted();
    let wide: Vec<&Row> = rows.iter().filter(wide).collect();
    let mut intro = String::from("Each AIR other than Fibonacci (2 columns, degree 1), measured as the Fibonacci rows are; “× Fib” is the estimated ms over the Fibonacci row of the same configuration and core at the smallest n measured.");
    for (air, text) in [("membership", MEMBERSHIP), ("chain16", CHAIN16)] {
        if wide.iter().any(|r| r.air == air) {
            intro = format!("{intro}\n\n{text}");
        }
    }
    if wide.iter().any(|r| r.air == "membership") {
        intro = format!("{intro} {}", zkmcu_line());
    }
    let mut s = Section::new("workload", "Workloads beyond Fibonacci", intro);
    let fib_n = rows.iter().filter(|f| f.air == "fib").map(|f| f.n).min();
    let fib = |r: &Row, air: &str| {
        let label = r.full_label().replace(&format!(" {air}"), "");
        let same = |f: &&Row| f.air == "fib" && Some(f.n) == fib_n && f.source == "emulator";
        let same = |f: &&Row| same(f) && f.core == r.core && f.full_label() == label;
        rows.iter().find(same)
    };
    let airs: BTreeSet<(&str, u64)> = wide.iter().map(|r| (r.air.as_str(), r.n)).collect();
    for (air, n) in airs {
        let these = wide.iter().copied().filter(|r| r.air == air && r.n == n);
        let these: Vec<&Row> = these.collect();
        for (core, name) in CORES {
            let mut t = Table::new(&format!("{air}, n = {}, {name}", pow2(n)), &head(""));
            t.head.extend(["× Fib est. ms".into(), "policy".into()]);
            for r in these.iter().filter(|r| r.core == core) {
                let x = times(r.est_ms(), fib(r, air).and_then(|f| f.est_ms()));
                let ranked = r.ranked(min_security);
                let policy = if ranked { "ranked" } else { "below the floor" };
                t.row(&format!("{} | {x} | {policy}", cells(r)));
            }
            s.tables.push(t);
        }
        if these.iter().any(|r| r.est_ms().is_some()) {
            let n = pow2(n);
            let title = format!("Estimated ms, {air} n = {n}, per configuration and core");
            s.charts
                .extend(chart(&title, &these, &Row::full_label, false));
        }
    }
    s
}

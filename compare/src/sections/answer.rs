//! The first screen: per core, the fastest configuration of each protocol and field at the
//! default policy (estimated ms), with its cost in instructions, memory and bytes and its
//! security; then one chart of the estimated ms of every ranked configuration on both cores.

use crate::chart;
use crate::doc::PARAMS_HEAD;
use crate::doc::{bits, dash, grouped, kib, ms, pow2, Chart, Section, Table};
use std::collections::BTreeSet;

use crate::table::{fastest, first_per, Row};
use serde_json::Value;

/// The 128-bit point: 127 bits under the strictest regime is the most a 128-bit hash gives
/// (the ethSTARK and winterfell formulas subtract one bit; `core/src/security.rs`).
pub const BITS_128_POINT: u32 = 127;

pub const CORES: [(&str, &str); 2] = [("m33", "Cortex-M33"), ("rv32", "Hazard3 (RV32)")];

/// The header of [`cells`], as a Markdown header line.
pub const HEAD: &str = "protocol × field | est. ms | bits: strictest | bits: proven unique / list | hash | PARAMS | placement | instructions | heap peak | stack peak | flash (image) | SRAM (.data+.bss) | proof";

/// The rows that compete: emulator runs of Fibonacci with an estimate, ranked at the floor,
/// at the smallest n measured; one per configuration and core (the first in table order).
pub fn candidates(rows: &[Row], min_security: u32) -> (u64, Vec<&Row>) {
    let ok = |r: &&Row| r.source == "emulator" && r.air == "fib" && r.est_ms().is_some();
    let ok = |r: &&Row| ok(r) && r.ranked(min_security);
    let n = rows.iter().filter(ok).map(|r| r.n).min().unwrap_or(0);
    let at_n = rows.iter().filter(ok).filter(|r| r.n == n);
    (n, first_per(at_n, |r| (r.core.clone(), r.full_label())))
}

/// One row of an answer table, as its Markdown line.
pub fn cells(r: &Row) -> String {
    let (p, f, e) = (&r.protocol, &r.field, r.extension);
    let (est, bits_of) = (dash(r.est_ms(), ms), r.security_bits);
    let proven = dash(r.security.as_ref(), |s| {
        format!("{} / {}", bits(s.proven_unique), bits(s.proven_list))
    });
    let (hash, params, place) = (&r.hash, &r.params, &r.placement);
    let insns = dash(r.instructions, grouped);
    let (heap, stack) = (dash(r.heap_peak, kib), dash(r.stack_peak, kib));
    let (flash, sram) = (dash(r.flash(), kib), dash(r.sram(), kib));
    let proof = kib(r.proof_bytes);
    format!("{p} × {f}^{e} | {est} | {bits_of} | {proven} | {hash} | {params} | {place} | {insns} | {heap} | {stack} | {flash} | {sram} | {proof}")
}

/// `HEAD` with the parameters' header, after `first` (e.g. `"PCS | "`).
pub fn head(first: &str) -> String {
    format!("{first}{}", HEAD.replace("PARAMS", PARAMS_HEAD))
}

/// A bar chart of the estimated ms on each core, one group per distinct `key` in row order
/// (or sorted by the first core's figure, fastest first).
pub fn chart(title: &str, rows: &[&Row], key: &dyn Fn(&Row) -> String, sort: bool) -> Chart {
    let group = |r: &Row| {
        let on = |c: &str| rows.iter().find(|o| o.core == c && key(o) == key(r));
        let ms = CORES.map(|c| on(c.0).and_then(|o| o.est_ms()));
        (key(r), ms.to_vec())
    };
    let firsts = first_per(rows.iter().copied(), key);
    let mut groups: Vec<(String, Vec<Option<f64>>)> = firsts.into_iter().map(group).collect();
    if sort {
        let first = |g: &(String, Vec<Option<f64>>)| g.1.iter().flatten().next().copied();
        let first = |g: &(String, Vec<Option<f64>>)| first(g).unwrap_or(f64::MAX);
        groups.sort_by(|a, b| first(a).total_cmp(&first(b)));
    }
    let unit = "estimated ms (RP2350 timing model, 150 MHz); shorter is better";
    chart::bars(title, unit, &CORES.map(|c| c.1), &groups)
}

/// The JSON files in `dir`: the membership profiles' parts (`mcu-run profile-parts`), if any.
pub fn profiles(dir: &std::path::Path) -> Vec<Value> {
    let files = std::fs::read_dir(dir).into_iter().flatten().flatten();
    let read = |e: std::fs::DirEntry| serde_json::from_slice(&std::fs::read(e.path()).ok()?).ok();
    files.filter_map(read).collect()
}

/// The three largest parts of the profile made for `r`'s record.
fn dominates(profiles: &[Value], r: &Row) -> Option<String> {
    let p = profiles
        .iter()
        .find(|p| p["committed_record"]["file"] == *r.origin)?;
    let part = |v: &Value| Some((v["share"].as_f64()?, v["part"].as_str()?.replace('_', " ")));
    let mut parts: Vec<(f64, String)> = p["parts"].as_array()?.iter().filter_map(part).collect();
    parts.sort_by(|a, b| b.0.total_cmp(&a.0));
    let shown = parts
        .iter()
        .take(3)
        .map(|(s, n)| format!("{n} {:.0} %", 100.0 * s));
    Some(shown.collect::<Vec<_>>().join(", "))
}

/// Per security level, hash and core, the fastest accepted membership row (the question
/// asked of the real workload), with the largest parts of its profile.
fn fastest_membership(rows: &[Row], min_security: u32, profiles: &[Value]) -> Option<Table> {
    let caption = "Membership workload (depth-10 Poseidon2 Merkle path; section “Workloads beyond Fibonacci”): fastest protocol × field per level, hash and core";
    let mut t = Table::new(caption, &head("level | core | "));
    t.head.push("most instructions (profile)".into());
    let floor = (min_security, "default floor");
    for (bits, level) in [floor, (BITS_128_POINT, "128-bit point")] {
        let at = |r: &&Row| r.air == "membership" && r.source == "emulator" && r.accepted();
        let at: Vec<&Row> = rows
            .iter()
            .filter(at)
            .filter(|r| r.security_bits >= bits)
            .collect();
        let hashes: BTreeSet<&str> = at.iter().map(|r| r.hash.as_str()).collect();
        for (hash, (core, name)) in hashes.iter().flat_map(|h| CORES.map(|c| (h, c))) {
            let these = at.iter().filter(|r| r.hash == *hash && r.core == core);
            if let Some(r) = fastest(these.copied()) {
                let level = format!("{level} (≥ {bits} strictest)");
                let most = dominates(profiles, r).unwrap_or("–".into());
                t.row(&format!("{level} | {name} | {} | {most}", cells(r)));
            }
        }
    }
    (!t.rows.is_empty()).then_some(t)
}

pub fn section(rows: &[Row], min_security: u32, profiles: &[Value]) -> Section {
    let (n, cands) = candidates(rows, min_security);
    let n = pow2(n);
    let intro = format!("Fibonacci, n = {n}. Per core, one row per protocol and field: its fastest configuration (any hash, parameters and code placement) among proofs accepted under the default policy (strictest of the three conjectures, at least {min_security} bits), fastest first, by the RP2350 timing model's estimated ms (`verifier-mcu/TIMING.md`) over the QEMU run's instructions. Flash and SRAM are the image's (all backends of the run in one image unless `lean-only`); SRAM includes the heap arena. Every configuration is in the chart below and in the Matrix.");
    let mut s = Section::new("answer", "Fastest verifier per core", intro);
    let est = |r: &&Row| r.est_ms().unwrap_or(0.0);
    for (core, name) in CORES {
        let mut mine: Vec<&Row> = cands.iter().copied().filter(|r| r.core == core).collect();
        mine.sort_by(|a, b| est(a).total_cmp(&est(b)));
        let mut t = Table::new(name, &head(""));
        for r in first_per(mine, |r| (r.protocol.clone(), r.field.clone())) {
            t.row(&cells(r));
        }
        s.tables.push(t);
    }
    s.tables
        .extend(fastest_membership(rows, min_security, profiles));
    if !profiles.is_empty() {
        s.notes.push("“Most instructions”: the largest shares of one verification's instructions by function profile (`mcu-run profile-parts` on re-runs of these configurations, `results/membership/profile/`); leaf and path hashing are split by a compression-count model, and field arithmetic is the extension-field code not inlined into any part.".into());
    }
    // One bar group per configuration, both cores, fastest on the M33 first.
    if cands.is_empty() {
        s.notes.push(format!("No configuration can be ranked: no emulator run with a timing-model estimate was accepted under the default policy at {min_security} bits or more (see the Matrix and “Missing data and warnings”)."));
    } else {
        let title = format!("Estimated ms of one parse + verify, Fibonacci n = {n}, every ranked configuration [{PARAMS_HEAD}]");
        s.charts.push(chart(&title, &cands, &Row::full_label, true));
    }
    s
}

#[cfg(test)]
mod tests {
    use crate::table::build_rows;
    use crate::table::tests::{emu, with_estimate, with_security};

    #[test]
    fn the_fastest_membership_row_per_level_and_core() {
        let e = |b: &str, ext, core: &str, cycles, bits: u32| {
            let x = with_estimate(emu(b, ext, 16, core, cycles / 2), cycles);
            let mut x = with_security(x, f64::from(bits), 60.0);
            x.record.air = "membership".into();
            x
        };
        let mut rejected = e("p3-babybear", 5, "m33", 1_000_000, 127);
        rejected.record.result = "rejected:verify".into();
        let rows = build_rows(&[
            e("wf-goldilocks", 2, "m33", 6_000_000, 102),
            e("p3-goldilocks", 3, "m33", 8_000_000, 127),
            e("wf-goldilocks", 3, "m33", 9_000_000, 127),
            e("p3-goldilocks", 3, "rv32", 9_500_000, 127),
            // Below the floor and rejected: faster, never the answer.
            e("p3-babybear", 4, "m33", 2_000_000, 90),
            rejected,
        ]);
        let w = super::section(&rows, 95, &[]);
        let t = &w.tables[2];
        let line = |r: &Vec<String>| format!("{} | {} | {} | {}", r[0], r[1], r[2], r[3]);
        let got: Vec<String> = t.rows.iter().map(line).collect();
        let want = [
            "default floor (≥ 95 strictest) | Cortex-M33 | winterfell × goldilocks^2 | 40.00",
            "default floor (≥ 95 strictest) | Hazard3 (RV32) | plonky3 × goldilocks^3 | 63.33",
            "128-bit point (≥ 127 strictest) | Cortex-M33 | plonky3 × goldilocks^3 | 53.33",
            "128-bit point (≥ 127 strictest) | Hazard3 (RV32) | plonky3 × goldilocks^3 | 63.33",
        ];
        assert_eq!(got, want);
        // No membership row: no such table.
        let fib = build_rows(&[with_estimate(emu("p3-m31", 4, 16, "m33", 1), 2)]);
        assert_eq!(super::section(&fib, 95, &[]).tables.len(), 2);
    }
}

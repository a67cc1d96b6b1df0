//! The first screen: per core, the fastest configuration of each protocol and field at the
//! default policy (estimated ms), with its cost in instructions, memory and bytes and its
//! security; then one chart of the estimated ms of every ranked configuration on both cores.

use crate::chart;
use crate::doc::PARAMS_HEAD;
use crate::doc::{bits, dash, grouped, kib, ms, pow2, Chart, Section, Table};
use crate::table::{fastest, first_per, Row};

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

pub fn section(rows: &[Row], min_security: u32) -> Section {
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
    // The membership workload asked the same question (its section has the table).
    for (core, name) in CORES {
        let at = |bits: u32| {
            let ok = |r: &&Row| r.source == "emulator" && r.air == "membership" && r.core == core;
            let ok = |r: &&Row| ok(r) && r.accepted() && r.security_bits >= bits;
            let r = fastest(rows.iter().filter(ok))?;
            let (label, ms, b) = (r.full_label(), ms(r.est_ms()?), r.security_bits);
            Some(format!("{label} {ms} est. ms ({b} bits strictest)"))
        };
        let (floor, top) = (at(min_security), at(BITS_128_POINT));
        let top = top.unwrap_or_else(|| "none measured".into());
        s.notes.extend(floor.map(|f| format!("**Membership workload (depth-10 Poseidon2 Merkle path), {name}:** fastest at ≥ {min_security} bits {f}; at the 128-bit point (≥ {BITS_128_POINT}) {top}.")));
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

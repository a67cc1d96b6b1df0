//! The first screen: per core, the fastest configuration of each protocol and field at the
//! default policy (estimated ms), with its cost in instructions, memory and bytes and its
//! security; then one chart of the estimated ms of every ranked configuration on both cores.

use std::cmp::Ordering;

use crate::chart;
use crate::doc::{bits, dash, grouped, kib, ms, pow2, Section, Table};
use crate::params::PARAMS_HEAD;
use crate::table::Row;

pub const CORES: [(&str, &str); 2] = [("m33", "Cortex-M33"), ("rv32", "Hazard3 (RV32)")];

/// The rows that compete: emulator runs of Fibonacci with an estimate, ranked at the floor,
/// at the smallest n measured; one per configuration and core (the first in table order).
pub fn candidates(rows: &[Row], min_security: u32) -> (u64, Vec<&Row>) {
    let ok = |r: &&Row| {
        r.source == "emulator" && r.air == "fib" && r.est_ms().is_some() && r.ranked(min_security)
    };
    let n = rows.iter().filter(ok).map(|r| r.n).min().unwrap_or(0);
    let mut out: Vec<&Row> = Vec::new();
    for r in rows.iter().filter(ok).filter(|r| r.n == n) {
        if !out
            .iter()
            .any(|o| o.core == r.core && o.full_label() == r.full_label())
        {
            out.push(r);
        }
    }
    (n, out)
}

/// One row of an answer table.
pub fn cells(r: &Row) -> Vec<String> {
    let s = r.security.as_ref();
    vec![
        format!("{} × {}^{}", r.protocol, r.field, r.extension),
        dash(r.est_ms(), ms),
        r.security_bits.to_string(),
        dash(s, |s| {
            format!("{} / {}", bits(s.proven_unique), bits(s.proven_list))
        }),
        r.hash.clone(),
        r.params.clone(),
        r.placement.clone(),
        dash(r.instructions, grouped),
        dash(r.heap_peak, kib),
        dash(r.stack_peak, kib),
        dash(r.flash(), kib),
        dash(r.sram(), kib),
        kib(r.proof_bytes),
    ]
}

/// The header of [`cells`], as a Markdown header line.
pub fn head() -> String {
    format!("protocol × field | est. ms | bits: strictest | bits: proven unique / list | hash | {PARAMS_HEAD} | placement | instructions | heap peak | stack peak | flash (image) | SRAM (.data+.bss) | proof")
}

/// Chart groups: one per distinct `key`, with each core's estimated ms, in row order.
pub fn core_groups(rows: &[&Row], key: &dyn Fn(&Row) -> String) -> Vec<(String, Vec<Option<f64>>)> {
    let mut groups: Vec<(String, Vec<Option<f64>>)> = Vec::new();
    for r in rows {
        let l = key(r);
        if !groups.iter().any(|g| g.0 == l) {
            let on = |c: &str| {
                rows.iter()
                    .find(|o| o.core == c && key(o) == l)
                    .and_then(|o| o.est_ms())
            };
            let v = CORES.iter().map(|c| on(c.0)).collect();
            groups.push((l, v));
        }
    }
    groups
}

pub fn section(rows: &[Row], min_security: u32) -> Section {
    let (n, cands) = candidates(rows, min_security);
    let mut s = Section::new(
        "answer",
        "Fastest verifier per core",
        format!(
            "Fibonacci, n = {}. Per core, one row per protocol and field: its fastest configuration (any hash, parameters and code placement) among proofs accepted under the default policy (strictest of the three conjectures, at least {min_security} bits), fastest first, by the RP2350 timing model's estimated ms (`verifier-mcu/TIMING.md`) over the QEMU run's instructions. Flash and SRAM are the image's (all backends of the run in one image unless `lean-only`); SRAM includes the heap arena. Every configuration is in the chart below and in the Matrix.",
            pow2(n)
        ),
    );
    for (core, name) in CORES {
        let mut best: Vec<&Row> = Vec::new();
        for r in cands.iter().filter(|r| r.core == core) {
            match best
                .iter_mut()
                .find(|b| (&b.protocol, &b.field) == (&r.protocol, &r.field))
            {
                Some(b) if r.est_ms() < b.est_ms() => *b = r,
                Some(_) => {}
                None => best.push(r),
            }
        }
        best.sort_by(|a, b| {
            a.est_ms()
                .partial_cmp(&b.est_ms())
                .unwrap_or(Ordering::Equal)
        });
        let mut t = Table::new(name, &head());
        t.rows = best.iter().map(|r| cells(r)).collect();
        s.tables.push(t);
    }
    // One bar group per configuration, both cores, fastest on the M33 first.
    let mut groups = core_groups(&cands, &Row::full_label);
    let fastest = |g: &(String, Vec<Option<f64>>)| g.1.iter().flatten().next().copied();
    groups.sort_by(|a, b| {
        fastest(a)
            .unwrap_or(f64::MAX)
            .total_cmp(&fastest(b).unwrap_or(f64::MAX))
    });
    if groups.is_empty() {
        s.notes.push(format!("No configuration can be ranked: no emulator run with a timing-model estimate was accepted under the default policy at {min_security} bits or more (see the Matrix and “Missing data and warnings”)."));
    } else {
        s.charts.push(chart::bars(
            &format!("Estimated ms of one parse + verify, Fibonacci n = {}, every ranked configuration [{PARAMS_HEAD}]", pow2(n)),
            "estimated ms (RP2350 timing model, 150 MHz); shorter is better",
            &CORES.map(|c| c.1),
            &groups,
            &|v| format!("{v:.2}"),
        ));
    }
    s
}

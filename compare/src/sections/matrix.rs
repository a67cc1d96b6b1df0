//! The full matrix: every row with every column, sortable and filterable in report.html.

use crate::doc::{bits, dash, grouped, kib, pct, pow2, Section, Table};
use crate::params::PARAMS_HEAD;
use crate::table::Row;

/// The three estimate cells of a row: cycles (model), ms at its clock, stalls and XIP misses.
fn estimate_cells(r: &Row) -> [String; 3] {
    match (&r.estimate, r.source.as_str()) {
        (Some(e), _) => [
            format!("{} ({} v{})", grouped(e.cycles), e.model, e.model_version),
            format!("{:.2} @ {} MHz", e.ms, e.clock_hz / 1_000_000),
            format!(
                "{} · {} of {} ({} cycles)",
                grouped(e.stall_cycles),
                grouped(e.xip_misses),
                grouped(e.xip_accesses),
                grouped(e.xip_miss_cycles)
            ),
        ],
        (None, "emulator") => [
            "none: the record predates the timing model".into(),
            "–".into(),
            "–".into(),
        ],
        _ => ["–".into(), "–".into(), "–".into()],
    }
}

pub fn section(rows: &[Row], min_security: u32) -> Section {
    let mut s = Section::new("matrix", "Matrix", "Every row read: one per measured configuration, core and source (the same rows as `table.csv` and `table.json`). Each cost column belongs to one source; “–” = not measured by that source. Rows below the floor or under another policy are shown, never ranked.");
    let mut t = Table::new("", &format!("source | backend | field^ext | AIR | n | core | hash | {PARAMS_HEAD} | placement | alloc, heap | instructions | estimate: cycles (model) | estimate: ms | estimate: stall cycles · XIP misses of accesses (miss cycles) | device: cycles (median) | device: ms at clock | device spread std/mean · IQR/median | host: verify ms | host: prove ms | RV32/M33 (estimate) | proofs: range/median | heap peak | stack peak | proof | bits: ethSTARK | bits: wf 0.13.1 | bits: P3 0.8 | bits: proven unique | bits: proven list | policy | result"));
    for r in rows {
        let result = match &r.tampered {
            Some(tp) => format!("{}; tampered {}", r.result, tp),
            None => r.result.clone(),
        };
        let [est_cycles, est_ms, est_split] = estimate_cells(r);
        let below = if r.security_bits < min_security {
            " (below floor)"
        } else {
            ""
        };
        let (sec, policy) = match &r.security {
            Some(s) => (
                [
                    s.ethstark,
                    s.winterfell_conjectured,
                    s.plonky3_conjectured,
                    s.proven_unique,
                    s.proven_list,
                ]
                .map(bits),
                format!(
                    "{} ≥ {}: {}{below}",
                    s.policy_regime, s.policy_min_bits, r.security_bits
                ),
            ),
            None => (
                ["–", "–", "–", "–", "–"].map(String::from),
                format!("{}{below} (the record names no regime)", r.security_bits),
            ),
        };
        let mut cells = vec![
            r.source.clone(),
            r.backend.clone(),
            format!("{}^{}", r.field, r.extension),
            r.air.clone(),
            pow2(r.n),
            r.core.clone(),
            r.hash.clone(),
            r.params.clone(),
            r.placement.clone(),
            match r.heap_size {
                Some(h) => format!("{}, {}", r.allocator, kib(h)),
                None => r.allocator.clone(),
            },
            dash(r.instructions, grouped),
            est_cycles,
            est_ms,
            est_split,
            dash(r.cycles_median, |v| grouped(v.round() as u64)),
            dash(r.device_ms, |v| {
                format!("{v:.2} @ {} MHz", r.clock_hz.map_or(0, |c| c / 1_000_000))
            }),
            match (r.cycles_cv, r.cycles_iqr_over_median) {
                (None, None) => "–".into(),
                (a, b) => format!("{} · {} (k={})", dash(a, pct), dash(b, pct), r.iterations),
            },
            dash(r.verify_ms, |v| format!("{v:.2}")),
            dash(r.prove_ms, |v| format!("{v:.0}")),
            match (r.rv32_m33_ratio, r.rv32_m33_est_ratio) {
                (a, Some(e)) => format!("{} ({e:.2})", dash(a, |v| format!("{v:.2}"))),
                (a, None) => dash(a, |v| format!("{v:.2}")),
            },
            match r.proof_spread {
                Some(v) => format!("{} (k={})", pct(v), r.proofs),
                None if r.source == "device" => "–".into(),
                None => format!("one proof (k={})", r.proofs),
            },
            dash(r.heap_peak, kib),
            dash(r.stack_peak, kib),
            kib(r.proof_bytes),
        ];
        cells.extend(sec);
        cells.push(policy);
        cells.push(result);
        t.rows.push(cells);
    }
    t.sortable = true;
    s.tables.push(t);
    s
}

//! The two cores side by side: RV32/M33 per configuration in each source's own unit, and the
//! timing model's estimates against device runs of the same configuration.

use crate::doc::{dash, grouped, pow2, Section, Table};
use crate::table::{estimate_vs_device, first_per, Row};

pub fn section(rows: &[Row]) -> Section {
    let intro = "The RV32 cost over the M33 cost of the same configuration, per source (above 1: Hazard3 is slower).";
    let mut s = Section::new("cores", "RV32 / M33", intro);
    // The estimate against the device is promised only where a board was measured.
    if rows.iter().any(|r| r.source == "device") {
        s.title = "RV32 / M33 and estimate against device".into();
        s.intro += " Then every configuration measured on a board next to its estimate, with the estimate's error.";
    }
    // RV32/M33 per configuration, n and allocator: in instructions and in estimated time
    // (emulator rows), and in device cycles.
    let head = "configuration | n | allocator | RV32/M33 instructions | RV32/M33 estimated time | RV32/M33 device cycles";
    let mut t = Table::new("", head);
    let rv32 = |r: &&Row| r.core == "rv32" && r.rv32_m33_ratio.is_some();
    let key = |r: &Row| (r.full_label(), r.n, r.allocator.clone());
    for first in first_per(rows.iter().filter(rv32), key) {
        let ratio = |source: &str, f: fn(&Row) -> Option<f64>| {
            let same = |r: &&Row| r.source == source && r.core == "rv32" && key(r) == key(first);
            dash(rows.iter().find(same).and_then(f), |v| format!("{v:.2}"))
        };
        let insns = ratio("emulator", |r| r.rv32_m33_ratio);
        let est = ratio("emulator", |r| r.rv32_m33_est_ratio);
        let dev = ratio("device", |r| r.rv32_m33_ratio);
        let (cfg, n, alloc) = (first.full_label(), pow2(first.n), &first.allocator);
        t.row(&format!("{cfg} | {n} | {alloc} | {insns} | {est} | {dev}"));
    }
    s.tables.push(t);
    let head = "configuration | core | n | allocator | estimate: cycles (model) | device: cycles (median, k) | error (estimate − device) / device";
    let mut t = Table::new("", head);
    for (e, d, err) in estimate_vs_device(rows) {
        let est = e.estimate.as_ref().expect("paired estimates have one");
        let (cycles, model, v) = (grouped(est.cycles), &est.model, est.model_version);
        let median = dash(d.cycles_median, |v| grouped(v.round() as u64));
        let (k, board, err) = (d.iterations, &d.board, err * 100.0);
        let (label, core, n, alloc) = (e.full_label(), &e.core, pow2(e.n), &e.allocator);
        t.row(&format!("{label} | {core} | {n} | {alloc} | {cycles} ({model} v{v}) | {median} (k={k}, {board}) | {err:+.1}%"));
    }
    s.tables.push(t);
    s
}

//! The two cores side by side: RV32/M33 per configuration in each source's own unit, and the
//! timing model's estimates against device runs of the same configuration.

use crate::doc::{dash, grouped, pow2, Section, Table};
use crate::table::{estimate_vs_device, Row, ESTIMATE};

pub fn section(rows: &[Row]) -> Section {
    let mut s = Section::new(
        "cores",
        "RV32 / M33 and estimate against device",
        "The RV32 cost over the M33 cost of the same configuration, per source (above 1: Hazard3 is slower); then every configuration measured on a board next to its estimate, with the estimate's error.",
    );
    s.tables.push(ratio_table(rows));
    s.tables.push(estimate_device_table(rows));
    s
}

/// RV32/M33 per configuration, n and allocator: in instructions, in estimated time and in
/// device cycles, each from one source's pair of rows.
fn ratio_table(rows: &[Row]) -> Table {
    let mut t = Table::new("", "configuration | n | allocator | RV32/M33 instructions | RV32/M33 estimated time | RV32/M33 device cycles");
    let mut keys: Vec<(String, u64, String)> = Vec::new();
    for r in rows
        .iter()
        .filter(|r| r.core == "rv32" && r.rv32_m33_ratio.is_some())
    {
        let k = (r.full_label(), r.n, r.allocator.clone());
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    for (cfg, n, alloc) in keys {
        let ratio = |source: &str| {
            rows.iter()
                .find(|r| {
                    r.source == source
                        && r.core == "rv32"
                        && r.full_label() == cfg
                        && r.n == n
                        && r.allocator == alloc
                })
                .and_then(|r| r.rv32_m33_ratio)
                .map_or("–".into(), |v| format!("{v:.2}"))
        };
        t.rows.push(vec![
            cfg.clone(),
            pow2(n),
            alloc.clone(),
            ratio("emulator"),
            ratio(ESTIMATE),
            ratio("device"),
        ]);
    }
    t
}

/// Estimates next to device runs of the same configuration, with the estimate's error.
fn estimate_device_table(rows: &[Row]) -> Table {
    let mut t = Table::new("", "configuration | core | n | allocator | estimate: cycles (model) | device: cycles (median, k) | error (estimate − device) / device");
    for (e, d, err) in estimate_vs_device(rows) {
        let est = e.estimate.as_ref().expect("paired estimates have one");
        t.rows.push(vec![
            e.full_label(),
            e.core.clone(),
            pow2(e.n),
            e.allocator.clone(),
            format!(
                "{} ({} v{})",
                grouped(est.cycles),
                est.model,
                est.model_version
            ),
            format!(
                "{} (k={}, {})",
                dash(d.cycles_median, |v| grouped(v.round() as u64)),
                d.iterations,
                d.board
            ),
            format!("{:+.1}%", err * 100.0),
        ]);
    }
    t
}

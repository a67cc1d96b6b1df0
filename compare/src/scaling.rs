//! How each configuration grows with the trace length, and the wide AIR.
//!
//! Shown when a source has one configuration measured at three or more trace lengths (the
//! `results/scaling/` records): line charts of heap peak (with the heap budget and the
//! out-of-memory points), proof size, host prove time and host peak RSS against n, a pivot
//! table per source (one line per configuration and core, one column per n), and the rows
//! of every AIR other than Fibonacci next to Fibonacci at the same n.

use std::collections::BTreeSet;

use crate::human::{kib, pow2, si};
use crate::render::Table;
use crate::svg::{self, Series};
use crate::table::Row;

/// The AIR the scaling series are drawn for; other AIRs go to the wide-AIR table.
const BASE_AIR: &str = "fib";

/// The result `mcu-run` gives a run that ran out of heap.
pub const OUT_OF_MEMORY: &str = "rejected:out-of-memory";

fn is_oom(r: &Row) -> bool {
    r.result == OUT_OF_MEMORY
}

/// Whether the rows hold a scaling series: some source measured one configuration of the
/// base AIR at three or more trace lengths.
pub fn has_series(rows: &[Row]) -> bool {
    let mut seen: BTreeSet<(&str, String, &str, u64)> = BTreeSet::new();
    for r in rows.iter().filter(|r| r.air == BASE_AIR) {
        seen.insert((&r.source, r.config_label(), &r.core, r.n));
    }
    let mut counts: Vec<((&str, String, &str), usize)> = Vec::new();
    for (s, c, core, _) in seen {
        match counts.iter_mut().find(|(k, _)| *k == (s, c.clone(), core)) {
            Some((_, n)) => *n += 1,
            None => counts.push(((s, c, core), 1)),
        }
    }
    counts.iter().any(|(_, n)| *n >= 3)
}

/// The trace lengths to draw per-n charts for: all of them, or the smallest and the largest
/// when a scaling series would otherwise give one chart per n.
pub fn per_n_charts(rows: &[Row], ns: BTreeSet<u64>) -> BTreeSet<u64> {
    if !has_series(rows) || ns.len() <= 3 {
        return ns;
    }
    let first = ns.first().copied();
    let last = ns.last().copied();
    first.into_iter().chain(last).collect()
}

/// Distinct `(config label, core)` keys of `rows`, sorted.
fn keys<'a>(rows: impl Iterator<Item = &'a Row>) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = rows.map(|r| (r.config_label(), r.core.clone())).collect();
    v.sort();
    v.dedup();
    v
}

/// One series per configuration (colour) and core (rv32 dashed) of `value`.
pub fn series_by_config(
    rows: &[&Row],
    value: &dyn Fn(&Row) -> Option<f64>,
    suffix: &str,
) -> Vec<Series> {
    let ks = keys(rows.iter().copied());
    let mut cfgs: Vec<String> = ks.iter().map(|k| k.0.clone()).collect();
    cfgs.dedup();
    ks.into_iter()
        .filter_map(|(cfg, core)| {
            let mut points: Vec<(f64, f64)> = rows
                .iter()
                .filter(|r| r.config_label() == cfg && r.core == core)
                .filter_map(|r| Some((r.log_n() as f64, value(r)?)))
                .collect();
            points.sort_by(|a, b| a.0.total_cmp(&b.0));
            (!points.is_empty()).then(|| Series {
                color: cfgs.iter().position(|c| *c == cfg).unwrap_or(0),
                dashed: core == "rv32",
                name: if core == "host" {
                    format!("{cfg}{suffix}")
                } else {
                    format!("{cfg} {core}{suffix}")
                },
                points,
            })
        })
        .collect()
}

fn log2_label(x: f64) -> String {
    format!("2^{x:.0}")
}

/// The scaling charts (SVG strings); empty without a scaling series.
pub fn charts(rows: &[Row]) -> Vec<String> {
    if !has_series(rows) {
        return Vec::new();
    }
    let mut out = Vec::new();
    let base: Vec<&Row> = rows.iter().filter(|r| r.air == BASE_AIR).collect();

    for source in ["emulator", "device"] {
        let src: Vec<&Row> = base
            .iter()
            .copied()
            .filter(|r| r.source == source)
            .collect();
        let fits: Vec<&Row> = src.iter().copied().filter(|r| r.accepted()).collect();
        let mut series = series_by_config(&fits, &|r| r.heap_peak.map(|v| v as f64), "");
        let ooms: Vec<&Row> = src.iter().copied().filter(|r| is_oom(r)).collect();
        for mut s in series_by_config(
            &ooms,
            &|r| r.heap_needed_at_least.map(|v| v as f64),
            ": out of memory, needs at least",
        ) {
            s.dashed = true;
            series.push(s);
        }
        if series.is_empty() {
            continue;
        }
        let heaps: BTreeSet<u64> = src.iter().filter_map(|r| r.heap_size).collect();
        let xs: BTreeSet<u32> = src.iter().map(|r| r.log_n()).collect();
        for h in &heaps {
            series.push(Series {
                name: format!("heap budget {}", kib(*h)),
                color: 7,
                dashed: true,
                points: xs.iter().map(|&x| (f64::from(x), *h as f64)).collect(),
            });
        }
        out.push(svg::line_chart(
            &format!("Heap peak vs n ({source})"),
            "tracking allocator's high-water mark of one parse + verify; out-of-memory runs at the bytes in use plus the refused request",
            "bytes",
            &series,
            &log2_label,
        ));
    }

    let host: Vec<&Row> = base
        .iter()
        .copied()
        .filter(|r| r.source == "host" && r.accepted())
        .collect();
    if !host.is_empty() {
        out.push(svg::line_chart(
            "Prove time vs n (host)",
            "wall clock of one prove on the build machine, every core available to the prover",
            "ms",
            &series_by_config(&host, &|r| r.host_prove_ms, ""),
            &log2_label,
        ));
        let rss = series_by_config(&host, &|r| r.host_peak_rss.map(|v| v as f64), "");
        if !rss.is_empty() {
            out.push(svg::line_chart(
                "Peak host memory vs n (host)",
                "peak resident set size (VmHWM) of the process that proved and verified",
                "bytes",
                &rss,
                &log2_label,
            ));
        }
    }
    out
}

/// Proof size against n, one line per configuration, with or without a scaling series.
pub fn proof_size_chart(rows: &[Row]) -> Option<String> {
    let base: Vec<&Row> = rows.iter().filter(|r| r.air == BASE_AIR).collect();
    // Proof size: one series per configuration, one value per n whatever the source or core
    // (the first row seen; a proof's size does not depend on where it is verified).
    let mut cfgs: Vec<String> = base.iter().map(|r| r.config_label()).collect();
    cfgs.sort();
    cfgs.dedup();
    let proof_series: Vec<Series> = cfgs
        .iter()
        .enumerate()
        .map(|(color, cfg)| {
            let mut points: Vec<(f64, f64)> = Vec::new();
            for r in base.iter().filter(|r| r.config_label() == *cfg) {
                let x = f64::from(r.log_n());
                if !points.iter().any(|p| p.0 == x) {
                    points.push((x, r.proof_bytes as f64));
                }
            }
            points.sort_by(|a, b| a.0.total_cmp(&b.0));
            Series {
                name: cfg.clone(),
                color,
                dashed: false,
                points,
            }
        })
        .collect();
    (!proof_series.is_empty()).then(|| {
        svg::line_chart(
            "Proof size vs n",
            "bytes of the proof file (header + payload), default parameters of each backend",
            "bytes",
            &proof_series,
            &log2_label,
        )
    })
}

/// One cell of the emulator/device pivot table.
fn device_cell(r: &Row) -> String {
    if is_oom(r) {
        return match r.heap_needed_at_least {
            Some(b) => format!("out of memory (needs ≥ {})", kib(b)),
            None => "out of memory".into(),
        };
    }
    if !r.accepted() {
        return r.result.clone();
    }
    let cost = r.cost().map_or("–".into(), si);
    match r.heap_peak {
        Some(h) => format!("{cost} / {}", kib(h)),
        None => cost,
    }
}

fn host_cell(r: &Row) -> String {
    let prove = r.host_prove_ms.map_or("–".into(), |v| format!("{v:.0} ms"));
    match r.host_peak_rss {
        Some(b) => format!("{prove} / {:.0} MiB", b as f64 / 1048576.0),
        None => prove,
    }
}

/// The pivot tables: `(title, explanation, table)` per source with a scaling series.
pub fn tables(rows: &[Row]) -> Vec<(String, String, Table)> {
    if !has_series(rows) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for source in ["host", "emulator", "device"] {
        let src: Vec<&Row> = rows
            .iter()
            .filter(|r| r.source == source && r.air == BASE_AIR)
            .collect();
        let ns: BTreeSet<u64> = src.iter().map(|r| r.n).collect();
        if ns.len() < 3 {
            continue;
        }
        let mut head = vec!["configuration".to_string()];
        head.extend(ns.iter().map(|n| format!("n = {}", pow2(*n))));
        let table_rows = keys(src.iter().copied())
            .into_iter()
            .map(|(cfg, core)| {
                let mut line = vec![if core == "host" {
                    cfg.clone()
                } else {
                    format!("{cfg} {core}")
                }];
                for n in &ns {
                    let cell = src
                        .iter()
                        .find(|r| r.config_label() == cfg && r.core == core && r.n == *n)
                        .map_or("–".into(), |r| {
                            if source == "host" {
                                host_cell(r)
                            } else {
                                device_cell(r)
                            }
                        });
                    line.push(cell);
                }
                line
            })
            .collect();
        let what = match source {
            "host" => "prove time (wall clock) / peak RSS of the proving process".to_string(),
            _ => {
                let heaps: BTreeSet<u64> = src.iter().filter_map(|r| r.heap_size).collect();
                let heaps: Vec<String> = heaps.iter().map(|h| format!("{h} bytes")).collect();
                format!(
                    "{} of one parse + verify / heap peak; heap {}",
                    src.first().map_or("cost", |r| r.cost_unit()),
                    heaps.join(", ")
                )
            }
        };
        out.push((
            format!("Scaling with n ({source})"),
            what,
            Table {
                head,
                rows: table_rows,
            },
        ));
    }
    out
}

/// Rows of every AIR other than Fibonacci, with the ratio to Fibonacci on the same source,
/// configuration, core and n.
pub fn wide_air_table(rows: &[Row]) -> Option<Table> {
    let wide: Vec<&Row> = rows.iter().filter(|r| r.air != BASE_AIR).collect();
    if wide.is_empty() {
        return None;
    }
    let head = [
        "source",
        "air",
        "configuration",
        "core",
        "n",
        "result",
        "verify cost",
        "× fib",
        "proof bytes",
        "× fib",
        "heap peak",
    ]
    .map(String::from)
    .to_vec();
    let ratio = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (Some(a), Some(b)) if b > 0.0 => format!("{:.2}", a / b),
        _ => "–".into(),
    };
    let table_rows = wide
        .iter()
        .map(|r| {
            let fib = rows.iter().find(|f| {
                f.air == BASE_AIR
                    && f.source == r.source
                    && f.backend == r.backend
                    && f.extension == r.extension
                    && f.core == r.core
                    && f.n == r.n
            });
            vec![
                r.source.clone(),
                r.air.clone(),
                format!("{}^{}", r.backend, r.extension),
                r.core.clone(),
                pow2(r.n),
                r.result.clone(),
                r.cost()
                    .map_or("–".into(), |c| format!("{} {}", si(c), r.cost_unit())),
                ratio(r.cost(), fib.and_then(|f| f.cost())),
                r.proof_bytes.to_string(),
                ratio(
                    Some(r.proof_bytes as f64),
                    fib.map(|f| f.proof_bytes as f64),
                ),
                r.heap_peak.map_or("–".into(), kib),
            ]
        })
        .collect();
    Some(Table {
        head,
        rows: table_rows,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::build_rows;
    use crate::table::tests::emu;

    fn oom(backend: &str, n: u64, core: &str) -> crate::input::Entry {
        let mut e = emu(backend, 4, n, core, 0);
        e.record.result = OUT_OF_MEMORY.into();
        e.record.instructions = None;
        e.record.instruction_classes = None;
        e.record.heap_peak = None;
        e.record.heap_size = Some(393_216);
        e.record.heap_needed_at_least = Some(400_000);
        e
    }

    #[test]
    fn series_tables_and_out_of_memory_cells() {
        let mut entries = vec![
            emu("p3-babybear", 4, 1 << 10, "m33", 1_000_000),
            emu("p3-babybear", 4, 1 << 12, "m33", 1_200_000),
            emu("p3-babybear", 4, 1 << 14, "m33", 1_400_000),
            oom("p3-babybear", 1 << 16, "m33"),
        ];
        // Two points only: not a series on its own.
        assert!(!has_series(&build_rows(&entries[..2])));
        let mut wide = emu("p3-babybear", 4, 1 << 10, "m33", 3_000_000);
        wide.record.air = "chain16".into();
        wide.record.proof_bytes = 80_000;
        entries.push(wide);
        let rows = build_rows(&entries);
        assert!(has_series(&rows));
        let charts = charts(&rows);
        assert!(charts
            .iter()
            .any(|c| c.contains("Heap peak vs n (emulator)")));
        assert!(charts
            .iter()
            .any(|c| c.contains("out of memory, needs at least")));
        let tables = tables(&rows);
        assert_eq!(tables.len(), 1);
        let t = &tables[0].2;
        assert_eq!(t.head.len(), 5, "configuration + four n");
        assert_eq!(t.rows.len(), 1, "the wide AIR is not part of the series");
        assert!(t.rows[0][4].starts_with("out of memory (needs ≥ 390.6 KiB)"));
        let w = wide_air_table(&rows).unwrap();
        assert_eq!(w.rows.len(), 1);
        assert_eq!(w.rows[0][7], "3.00", "cost relative to fib at the same n");
        assert_eq!(w.rows[0][9], "2.00", "proof size relative to fib");
        // Per-n charts: only the ends of a long series.
        let ns: BTreeSet<u64> = rows.iter().map(|r| r.n).collect();
        assert_eq!(
            per_n_charts(&rows, ns).into_iter().collect::<Vec<_>>(),
            [1 << 10, 1 << 16]
        );
    }
}

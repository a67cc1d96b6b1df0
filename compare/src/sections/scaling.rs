//! How each configuration grows with the trace length: proof size against n whenever two or
//! more n are measured; and, when a source has one configuration measured at three or more
//! trace lengths (the `results/scaling/` records), line charts of heap peak (with the heap
//! budget and the out-of-memory points), host prove time and host peak RSS against n, and a
//! pivot table per source (one line per configuration and core, one column per n).

use std::collections::BTreeSet;

use crate::chart::{self, Series};
use crate::doc::Chart;
use crate::doc::{kib, pow2, si, Section, Table};
use crate::table::Row;

/// The section (empty with a single n).
pub fn sections(rows: &[Row]) -> Vec<Section> {
    let mut s = Section::new("scaling", "Scaling with n", "Fibonacci at every n measured: proof size (default parameters of each backend, the first row seen per configuration), and for a scaling series heap, prove time and host memory.");
    s.charts.extend(proof_size_chart(rows));
    s.charts.extend(charts(rows));
    s.tables = tables(rows);
    vec![s]
}

/// The AIR the scaling series are drawn for; other AIRs go to the wide-AIR table.
const BASE_AIR: &str = "fib";

/// The result `mcu-run` gives a run that ran out of heap.
pub const OUT_OF_MEMORY: &str = "rejected:out-of-memory";

fn is_oom(r: &Row) -> bool {
    r.result == OUT_OF_MEMORY
}

/// Whether the rows hold a scaling series: some source measured one configuration of the
/// base AIR at three or more trace lengths.
fn has_series(rows: &[Row]) -> bool {
    let mut seen: BTreeSet<(&str, String, &str, u64)> = BTreeSet::new();
    for r in rows.iter().filter(|r| r.air == BASE_AIR) {
        seen.insert((&r.source, r.full_label(), &r.core, r.n));
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

/// Distinct `(config label, core)` keys of `rows`, sorted.
fn keys<'a>(rows: impl Iterator<Item = &'a Row>) -> Vec<(String, String)> {
    let v: BTreeSet<(String, String)> = rows.map(|r| (r.full_label(), r.core.clone())).collect();
    v.into_iter().collect()
}

/// One series per configuration (colour) and core (rv32 dashed) of `value`.
fn series_by_config(
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
                .filter(|r| r.full_label() == cfg && r.core == core)
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

/// The scaling charts (SVG strings); empty without a scaling series.
fn charts(rows: &[Row]) -> Vec<Chart> {
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
        out.push(chart::lines(
            &format!("Heap peak vs n ({source}): the tracking allocator's high-water mark; out-of-memory runs at the bytes in use plus the refused request"),
            "bytes",
            &series,
        ));
    }

    let host: Vec<&Row> = base
        .iter()
        .copied()
        .filter(|r| r.source == "host" && r.accepted())
        .collect();
    if !host.is_empty() {
        out.push(chart::lines(
            "Prove time vs n (host wall clock, every core available to the prover)",
            "ms",
            &series_by_config(&host, &|r| r.prove_ms, ""),
        ));
        let rss = series_by_config(&host, &|r| r.host_peak_rss.map(|v| v as f64), "");
        if !rss.is_empty() {
            out.push(chart::lines("Peak host memory vs n (host)", "bytes", &rss));
        }
    }
    out
}

/// Proof size against n, one line per configuration, with or without a scaling series.
fn proof_size_chart(rows: &[Row]) -> Option<Chart> {
    let base: Vec<&Row> = rows.iter().filter(|r| r.air == BASE_AIR).collect();
    // Proof size: one series per configuration, one value per n whatever the source or core
    // (the first row seen; a proof's size does not depend on where it is verified).
    // The proof, not where it ran: no placement in the label.
    let proof = |r: &Row| format!("{}^{} {} [{}]", r.backend, r.extension, r.hash, r.params);
    let cfgs: BTreeSet<String> = base.iter().map(|r| proof(r)).collect();
    let proof_series: Vec<Series> = cfgs
        .iter()
        .enumerate()
        .map(|(color, cfg)| {
            let mut points: Vec<(f64, f64)> = Vec::new();
            for r in base.iter().filter(|r| proof(r) == *cfg) {
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
    let ns: BTreeSet<u64> = base.iter().map(|r| r.n).collect();
    (ns.len() > 1).then(|| chart::lines("Proof size vs n", "bytes", &proof_series))
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
    let prove = r.prove_ms.map_or("–".into(), |v| format!("{v:.0} ms"));
    match r.host_peak_rss {
        Some(b) => format!("{prove} / {:.0} MiB", b as f64 / 1048576.0),
        None => prove,
    }
}

/// The pivot tables: `(title, explanation, table)` per source with a scaling series.
fn tables(rows: &[Row]) -> Vec<Table> {
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
                        .find(|r| r.full_label() == cfg && r.core == core && r.n == *n)
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
        out.push(Table {
            caption: format!("Scaling with n ({source}): {what}"),
            head,
            rows: table_rows,
            sortable: false,
        });
    }
    out
}

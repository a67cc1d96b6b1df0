//! How each configuration grows with the trace length: proof size against n whenever two or
//! more n are measured; and, when a source has one configuration measured at three or more
//! trace lengths (the `results/scaling/` records), line charts of heap peak (with the heap
//! budget and the out-of-memory points), host prove time and host peak RSS against n, and a
//! pivot table per source (one line per configuration and core, one column per n).

use std::collections::{BTreeMap, BTreeSet};

use crate::chart::{self, Series};
use crate::doc::{kib, pow2, si, Chart, Section, Table};
use crate::table::Row;

/// The result `mcu-run` gives a run that ran out of heap.
const OUT_OF_MEMORY: &str = "rejected:out-of-memory";

/// The section (empty with a single n).
pub fn section(rows: &[Row]) -> Section {
    let intro = "Fibonacci at every n measured: proof size (default parameters of each backend, the first row seen per configuration), and for a scaling series heap, prove time and host memory.";
    let mut s = Section::new("scaling", "Scaling with n", intro);
    // The series are drawn for Fibonacci; other AIRs are in their own section.
    let fib: Vec<&Row> = rows.iter().filter(|r| r.air == "fib").collect();
    s.charts.extend(proof_size_chart(&fib));
    // A scaling series: some source measured one configuration at three or more n.
    let mut ns: BTreeMap<(&str, String, &str), BTreeSet<u64>> = BTreeMap::new();
    for r in &fib {
        let key = (r.source.as_str(), r.full_label(), r.core.as_str());
        ns.entry(key).or_default().insert(r.n);
    }
    if ns.values().any(|n| n.len() >= 3) {
        s.charts.extend(charts(&fib));
        let sources = ["host", "emulator", "device"].iter();
        s.tables = sources.filter_map(|src| table(&fib, src)).collect();
    }
    s
}

/// Distinct `(config label, core)` keys of `rows`, sorted.
fn keys(rows: &[&Row]) -> BTreeSet<(String, String)> {
    let key = |r: &&Row| (r.full_label(), r.core.clone());
    rows.iter().map(key).collect()
}

/// One series per configuration (colour) and core (rv32 dashed) of `value`.
fn series(rows: &[&Row], value: fn(&Row) -> Option<f64>, suffix: &str) -> Vec<Series> {
    let ks = keys(rows);
    let cfgs: BTreeSet<&String> = ks.iter().map(|k| &k.0).collect();
    let one = |(cfg, core): &(String, String)| {
        let mine = rows.iter().filter(|r| r.core == *core);
        let mine = mine.filter(|r| r.full_label() == *cfg);
        let points: BTreeMap<u32, f64> =
            mine.filter_map(|r| Some((r.log_n(), value(r)?))).collect();
        let points: Vec<(f64, f64)> = points.into_iter().map(|(x, y)| (x.into(), y)).collect();
        let name = match core.as_str() {
            "host" => format!("{cfg}{suffix}"),
            _ => format!("{cfg} {core}{suffix}"),
        };
        let color = cfgs.iter().position(|c| *c == cfg).unwrap_or(0);
        let dashed = core == "rv32";
        (!points.is_empty()).then_some(Series::new(name, color, dashed, points))
    };
    ks.iter().filter_map(one).collect()
}

/// The scaling charts: heap peak per source, host prove time and memory.
fn charts(fib: &[&Row]) -> Vec<Chart> {
    let mut out = Vec::new();
    for source in ["emulator", "device"] {
        let src: Vec<&Row> = fib.iter().copied().filter(|r| r.source == source).collect();
        let fits: Vec<&Row> = src.iter().copied().filter(|r| r.accepted()).collect();
        let mut lines = series(&fits, |r| Some(r.heap_peak? as f64), "");
        let ooms = src.iter().copied().filter(|r| r.result == OUT_OF_MEMORY);
        let ooms: Vec<&Row> = ooms.collect();
        let needs = ": out of memory, needs at least";
        let ooms = series(&ooms, |r| Some(r.heap_needed_at_least? as f64), needs);
        lines.extend(ooms.into_iter().map(|s| Series { dashed: true, ..s }));
        if lines.is_empty() {
            continue;
        }
        let xs: BTreeSet<u32> = src.iter().map(|r| r.log_n()).collect();
        let heaps: BTreeSet<u64> = src.iter().filter_map(|r| r.heap_size).collect();
        for h in heaps {
            let points = xs.iter().map(|&x| (f64::from(x), h as f64)).collect();
            let name = format!("heap budget {}", kib(h));
            lines.push(Series::new(name, 7, true, points));
        }
        let title = format!("Heap peak vs n ({source}): the tracking allocator's high-water mark; out-of-memory runs at the bytes in use plus the refused request");
        out.push(chart::lines(&title, "bytes", &lines));
    }
    let host = |r: &&Row| r.source == "host" && r.accepted();
    let host: Vec<&Row> = fib.iter().copied().filter(host).collect();
    if !host.is_empty() {
        let title = "Prove time vs n (host wall clock, every core available to the prover)";
        let prove = series(&host, |r| r.prove_ms, "");
        out.push(chart::lines(title, "ms", &prove));
        let rss = series(&host, |r| Some(r.host_peak_rss? as f64), "");
        if !rss.is_empty() {
            out.push(chart::lines("Peak host memory vs n (host)", "bytes", &rss));
        }
    }
    out
}

/// Proof size against n, one line per proof (the first row seen per n; a proof's size does
/// not depend on where it is verified, so no core and no placement in its label).
fn proof_size_chart(fib: &[&Row]) -> Option<Chart> {
    let proof = |r: &Row| format!("{}^{} {} [{}]", r.backend, r.extension, r.hash, r.params);
    let mut by: BTreeMap<String, BTreeMap<u32, f64>> = BTreeMap::new();
    for r in fib {
        let points = by.entry(proof(r)).or_default();
        points.entry(r.log_n()).or_insert(r.proof_bytes as f64);
    }
    let line = |(color, (name, p)): (usize, (String, BTreeMap<u32, f64>))| {
        let points = p.into_iter().map(|(x, y)| (x.into(), y)).collect();
        Series::new(name, color, false, points)
    };
    let lines: Vec<Series> = by.into_iter().enumerate().map(line).collect();
    let ns: BTreeSet<u64> = fib.iter().map(|r| r.n).collect();
    (ns.len() > 1).then(|| chart::lines("Proof size vs n", "bytes", &lines))
}

/// One cell of a pivot table.
fn cell(r: &Row) -> String {
    let needs = |b| format!(" (needs ≥ {})", kib(b));
    let needs = r.heap_needed_at_least.map(needs);
    let cost = r.cost().map_or("–".into(), si);
    match (r.source.as_str(), r.result.as_str()) {
        ("host", _) => {
            let prove = r.prove_ms.map_or("–".into(), |v| format!("{v:.0} ms"));
            let rss = r.host_peak_rss.map(|b| b as f64 / 1048576.0);
            let rss = rss.map(|mib| format!(" / {mib:.0} MiB"));
            prove + &rss.unwrap_or_default()
        }
        (_, OUT_OF_MEMORY) => format!("out of memory{}", needs.unwrap_or_default()),
        (_, "accepted") => {
            let heap = r.heap_peak.map(|h| format!(" / {}", kib(h)));
            cost + &heap.unwrap_or_default()
        }
        (_, other) => other.into(),
    }
}

/// The pivot table of one source, when it has three or more n.
fn table(fib: &[&Row], source: &str) -> Option<Table> {
    let src: Vec<&Row> = fib.iter().copied().filter(|r| r.source == source).collect();
    let ns: BTreeSet<u64> = src.iter().map(|r| r.n).collect();
    let what = match (source, src.first()) {
        ("host", _) => "prove time (wall clock) / peak RSS of the proving process".to_string(),
        (_, r) => {
            let heaps: BTreeSet<u64> = src.iter().filter_map(|r| r.heap_size).collect();
            let heaps: Vec<String> = heaps.iter().map(|h| format!("{h} bytes")).collect();
            let unit = r.map_or("cost", |r| r.cost_unit());
            let heaps = heaps.join(", ");
            format!("{unit} of one parse + verify / heap peak; heap {heaps}")
        }
    };
    let head: Vec<String> = ns.iter().map(|n| format!("n = {}", pow2(*n))).collect();
    let caption = format!("Scaling with n ({source}): {what}");
    let mut t = Table::new(&caption, &format!("configuration | {}", head.join(" | ")));
    for (cfg, core) in keys(&src) {
        let mine = src.iter().filter(|r| r.core == core);
        let mine: Vec<&&Row> = mine.filter(|r| r.full_label() == cfg).collect();
        let at = |n: &u64| mine.iter().find(|r| r.n == *n);
        let shown = if core == "host" { "" } else { &core };
        let name = format!("{cfg} {shown}").trim_end().to_string();
        let cells = ns.iter().map(|n| at(n).map_or("–".into(), |r| cell(r)));
        t.rows.push(std::iter::once(name).chain(cells).collect());
    }
    (ns.len() >= 3).then_some(t)
}

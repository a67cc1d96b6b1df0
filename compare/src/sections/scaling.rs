//! How verification and proving grow with the trace length, from the scaling series
//! (`results/scaling/`: Fibonacci at n = 2^10 … 2^18 on every backend at its default
//! parameters; `mcu-run` on both cores with a 384 KiB heap, `prover-host bench` on the
//! host), or from the report's own rows when they hold three or more n. One line per backend
//! (its own colour; the Hazard3 dashed): verify instructions, heap peak, prove time and the
//! prover's peak memory against n, and a table per source with a column per n. Runs out of
//! memory at the series' smaller heap (`heap128k/`) are listed.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::chart::{self, Series};
use crate::doc::{kib, pow2, si, Chart, Section, Table};
use crate::table::{build_rows, Row};

/// The result `mcu-run` gives a run that ran out of heap.
const OUT_OF_MEMORY: &str = "rejected:out-of-memory";

/// The records of the scaling series under `dir` (the emulator runs and the host benches),
/// and the runs at the smaller heap.
fn series_rows(dir: &Path) -> (Vec<Row>, Vec<Row>) {
    let load = |paths: &[&str]| {
        let paths: Vec<_> = paths
            .iter()
            .map(|p| dir.join(p))
            .filter(|p| p.exists())
            .collect();
        let loaded = crate::input::load(&paths);
        build_rows(&loaded.entries)
    };
    (load(&["emulator", "host-fib.json"]), load(&["heap128k"]))
}

/// The section: from the series in `dir` when it is there, else from `rows` (empty when no
/// configuration has three or more n).
pub fn section(rows: &[Row], dir: &Path) -> Section {
    let (series, small_heap) = series_rows(dir);
    let from_series = !series.is_empty();
    let rows = if from_series { &series[..] } else { rows };
    let fib: Vec<&Row> = rows.iter().filter(|r| r.air == "fib").collect();
    let commits: BTreeSet<&str> = fib.iter().filter_map(|r| r.git_commit.get(..7)).collect();
    let commits: Vec<&str> = commits.into_iter().collect();
    let from = match from_series {
        true => format!("The scaling series, `results/scaling/` (its README.md and run.sh; records made at commit {}): each backend at its default parameters and first extension", commits.join(", ")),
        false => "The report's rows".into(),
    };
    let intro = format!("{from}. Emulator: QEMU instruction counts of one parse + verify (these records predate the timing model: no estimated ms) and the tracking allocator's heap peak, 384 KiB heap, TLSF. Host: `prover-host bench` wall clock of one proof (median of 3, every core of the 2-core build machine, so indicative only) and the proving process's peak RSS.");
    let mut s = Section::new("scaling", "Scaling with n", intro);
    let shown = one_per_backend(&fib);
    let ns: BTreeSet<u64> = shown.iter().map(|r| r.n).collect();
    if ns.len() < 3 {
        return s;
    }
    s.charts = charts(&shown);
    s.tables = ["emulator", "host"]
        .iter()
        .filter_map(|src| table(&shown, src))
        .collect();
    s.notes.extend(out_of_memory(&small_heap));
    s
}

/// Per source and backend, the rows of the one configuration measured at the most n (the
/// first of equals): one line per backend, so no two lines share a colour.
fn one_per_backend<'a>(fib: &[&'a Row]) -> Vec<&'a Row> {
    let mut count: BTreeMap<(&str, &str, String), BTreeSet<u64>> = BTreeMap::new();
    for r in fib {
        let key = (r.source.as_str(), r.backend.as_str(), r.full_label());
        count.entry(key).or_default().insert(r.n);
    }
    let mut best: BTreeMap<(&str, &str), (usize, String)> = BTreeMap::new();
    for ((src, b, label), n) in count {
        let e = best.entry((src, b)).or_insert((0, String::new()));
        if n.len() > e.0 {
            *e = (n.len(), label);
        }
    }
    let kept = |r: &&&Row| {
        best.get(&(r.source.as_str(), r.backend.as_str()))
            .is_some_and(|b| b.1 == r.full_label())
    };
    fib.iter().filter(kept).copied().collect()
}

/// `p3-babybear^4`.
fn name(r: &Row) -> String {
    format!("{}^{}", r.backend, r.extension)
}

/// One series per backend (colour) and core (the Hazard3 dashed) of `value`.
fn series(rows: &[&Row], value: fn(&Row) -> Option<f64>) -> Vec<Series> {
    let backends: BTreeSet<String> = rows.iter().map(|r| name(r)).collect();
    let cores: BTreeSet<&str> = rows.iter().map(|r| r.core.as_str()).collect();
    let mut out = Vec::new();
    for (color, b) in backends.iter().enumerate() {
        for core in &cores {
            let mine = rows.iter().filter(|r| name(r) == *b && r.core == *core);
            let points: BTreeMap<u32, f64> =
                mine.filter_map(|r| Some((r.log_n(), value(r)?))).collect();
            let points: Vec<(f64, f64)> = points.into_iter().map(|(x, y)| (x.into(), y)).collect();
            let shown = match *core {
                "host" => b.clone(),
                "m33" => format!("{b} M33"),
                "rv32" => format!("{b} Hazard3"),
                c => format!("{b} {c}"),
            };
            if !points.is_empty() {
                out.push(Series::new(shown, color, *core == "rv32", points));
            }
        }
    }
    out
}

/// The charts: verify instructions and heap peak (emulator), prove time and peak RSS (host).
fn charts(rows: &[&Row]) -> Vec<Chart> {
    let of = |src: &str| -> Vec<&Row> {
        let ok = |r: &&&Row| r.source == src && r.accepted();
        rows.iter().filter(ok).copied().collect()
    };
    let (emu, host) = (of("emulator"), of("host"));
    let m33: Vec<&Row> = emu.iter().copied().filter(|r| r.core == "m33").collect();
    let charts = [
        (
            "Verify instructions vs n (emulator; Hazard3 dashed)",
            "instructions",
            series(&emu, |r| Some(r.instructions? as f64)),
        ),
        (
            "Heap peak vs n (emulator, Cortex-M33; the Hazard3's is the same within a few bytes)",
            "bytes",
            series(&m33, |r| Some(r.heap_peak? as f64)),
        ),
        (
            "Prove time vs n (host wall clock)",
            "ms",
            series(&host, |r| r.prove_ms),
        ),
        (
            "Peak memory of the proving process vs n (host RSS)",
            "bytes",
            series(&host, |r| Some(r.host_peak_rss? as f64)),
        ),
    ];
    let drawn = charts.into_iter().filter(|c| !c.2.is_empty());
    drawn
        .map(|(title, unit, s)| chart::lines(title, unit, &s))
        .collect()
}

/// One cell of a pivot table.
fn cell(r: &Row) -> String {
    match (r.source.as_str(), r.result.as_str()) {
        ("host", _) => {
            let prove = r.prove_ms.map_or("–".into(), |v| si(v.round()) + " ms");
            let rss = r
                .host_peak_rss
                .map(|b| format!(" / {:.0} MiB", b as f64 / 1048576.0));
            prove + &rss.unwrap_or_default()
        }
        (_, OUT_OF_MEMORY) => "out of memory".into(),
        (_, "accepted") => {
            let heap = r.heap_peak.map(|h| format!(" / {}", kib(h)));
            r.cost().map_or("–".into(), si) + &heap.unwrap_or_default()
        }
        (_, other) => other.into(),
    }
}

/// The pivot table of one source: a line per backend and core, a column per n.
fn table(rows: &[&Row], source: &str) -> Option<Table> {
    let src: Vec<&Row> = rows
        .iter()
        .copied()
        .filter(|r| r.source == source)
        .collect();
    let ns: BTreeSet<u64> = src.iter().map(|r| r.n).collect();
    let what = match source {
        "host" => "prove time (wall clock) / peak RSS of the proving process",
        _ => "instructions of one parse + verify / heap peak",
    };
    let head: Vec<String> = ns.iter().map(|n| pow2(*n)).collect();
    let caption = format!("Scaling with n ({source}): {what}");
    let mut t = Table::new(&caption, &format!("backend | {}", head.join(" | ")));
    let keys: BTreeSet<(String, &str)> = src.iter().map(|r| (name(r), r.core.as_str())).collect();
    for (b, core) in keys {
        let at = |n: &u64| {
            src.iter()
                .find(|r| name(r) == b && r.core == core && r.n == *n)
        };
        let shown = if core == "host" {
            b.clone()
        } else {
            format!("{b} {core}")
        };
        let cells = ns.iter().map(|n| at(n).map_or("–".into(), |r| cell(r)));
        t.rows.push(std::iter::once(shown).chain(cells).collect());
    }
    (ns.len() >= 3).then_some(t)
}

/// One line per backend and core that ran out of memory at the smaller heap: from which n,
/// and what it needed there.
fn out_of_memory(rows: &[Row]) -> Vec<String> {
    let Some(heap) = rows.iter().find_map(|r| r.heap_size) else {
        return Vec::new();
    };
    let mut first: BTreeMap<(String, &str), &Row> = BTreeMap::new();
    for r in rows.iter().filter(|r| r.result == OUT_OF_MEMORY) {
        let e = first.entry((name(r), r.core.as_str())).or_insert(r);
        if r.n < e.n {
            *e = r;
        }
    }
    let max = rows.iter().map(|r| r.n).max().unwrap_or(0);
    let others = rows
        .iter()
        .filter(|r| !first.contains_key(&(name(r), r.core.as_str())));
    let others_fit = others.clone().all(Row::accepted) && others.count() > 0;
    let mut out: Vec<String> = first.into_iter().map(|((b, core), r)| {
        let needs = r.heap_needed_at_least.map_or(String::new(), |b| format!(", needs at least {} there", kib(b)));
        format!("At a {} heap (`results/scaling/heap128k/`): {b} on {core} runs out of memory from n = {}{needs} (the bytes in use plus the refused request).", kib(heap), pow2(r.n))
    }).collect();
    if !out.is_empty() && others_fit {
        out.push(format!(
            "Every other backend and core verifies up to n = {} at that heap.",
            pow2(max)
        ));
    }
    out
}

//! The "Stock baselines and hash floor" section: our verifiers against the stock upstream
//! verifiers on the same proof files, and against the BLAKE3 work each proof needs.
//!
//! Reads a baseline folder (`results/baseline/`, see its README):
//! `ours/` and `stock/` (and, when present, `ours-nolto/`, `stock-nolto/`: the same runs built
//! without LTO) (`mcu-run` records of our firmware and of the `stock-wf,stock-p3`
//! firmware, file names `<proof>.<core>.<alloc>.json`), `hash-cal/` (records of the
//! `hash-cal` firmware on `hash-cal-<K>.proof`: `K` single-compression hashes),
//! `hash-counts.json` (`prover-host tune --count-hashes`), `tune-*.json`
//! (`prover-host tune`), and `timing/` (run records of the firmware built as the published
//! silicon runs were, `mcu-run --window stock-wf`, with the timing model's estimates). Every
//! figure is an emulator instruction count or the timing model's estimate (said where), except
//! prove time and the published silicon cycles, which carry their source.

use std::collections::BTreeMap;
use std::path::Path;

use minijinja::{context, Value};
use picostark_core::record::RunRecord;

use crate::doc::{md_table, Section, Table};

/// Published silicon runs of stock `winterfell::verify` 0.13.1 on the zkmcu reference proofs
/// (verify alone in the window, the proof parsed and cloned before it; rustc 1.94.1 release,
/// opt-level "s", fat LTO): the TLSF (256 KB) runs as quoted in
/// `shared/interop/zkmcu-fork/README.md`, the LLFF (256 KB) and bump (384 KB) runs from the
/// zkmcu records of c51d396 and 6e7c942 (`benchmarks/runs/2026-04-24-*-stark-fib-1024-q-*`):
/// `(backend, proof, core, allocator, median cycles)`.
#[rustfmt::skip]
const PUBLISHED: &[(&str, &str, &str, &str, u64)] = &[
    ("wf-goldilocks", "Goldilocks x quadratic", "m33", "tlsf", 11_200_461),
    ("wf-goldilocks", "Goldilocks x quadratic", "m33", "llff", 10_449_812),
    ("wf-goldilocks", "Goldilocks x quadratic", "m33", "bump", 10_193_094),
    ("wf-goldilocks", "Goldilocks x quadratic", "rv32", "tlsf", 16_859_714),
    ("wf-goldilocks", "Goldilocks x quadratic", "rv32", "llff", 13_858_151),
    ("wf-goldilocks", "Goldilocks x quadratic", "rv32", "bump", 12_325_103),
    ("wf-babybear", "BabyBear x quartic", "m33", "tlsf", 18_633_462),
    ("wf-babybear", "BabyBear x quartic", "rv32", "tlsf", 19_358_117),
];

/// Where [`PUBLISHED`] comes from.
const PUBLISHED_SOURCE: &str = "published, zkmcu project benchmark records, RP2350 at 150 MHz";

/// One `mcu-run` record, keyed by proof file name and core (`<proof>.<core>.<alloc>.json`).
struct Run {
    proof: String,
    core: String,
    rec: RunRecord,
}

impl std::ops::Deref for Run {
    type Target = RunRecord;
    fn deref(&self) -> &RunRecord {
        &self.rec
    }
}

fn read_json(path: &Path) -> Option<serde_json::Value> {
    serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()
}

/// The run records of one folder of the baseline, sorted by proof and core.
fn runs(dir: &Path) -> Vec<Run> {
    if !dir.is_dir() {
        return Vec::new();
    }
    let loaded = crate::input::load(&[dir.to_path_buf()]);
    let mut out: Vec<Run> = loaded
        .entries
        .into_iter()
        .filter_map(|e| {
            let name = Path::new(&e.origin)
                .file_name()?
                .to_string_lossy()
                .into_owned();
            let mut parts = name.strip_suffix(".json")?.rsplitn(3, '.');
            let _alloc = parts.next()?;
            let core = parts.next()?.to_string();
            let proof = parts.next()?.to_string();
            Some(Run {
                proof,
                core,
                rec: e.record,
            })
        })
        .collect();
    out.sort_by(|a, b| (&a.proof, &a.core).cmp(&(&b.proof, &b.core)));
    out
}

/// One BLAKE3 compression on one core, from the `hash-cal` runs: instructions, and the
/// estimated cycles with their model when the record has an estimate.
struct Compression {
    instructions: f64,
    estimate: Option<(f64, String)>,
}

fn compression_cost(dir: &Path) -> BTreeMap<String, Compression> {
    runs(&dir.join("hash-cal"))
        .into_iter()
        .filter(|r| r.result == "accepted")
        .filter_map(|r| {
            let blocks: f64 = r
                .proof
                .strip_prefix("hash-cal-")?
                .strip_suffix(".proof")?
                .parse()
                .ok()?;
            let c = Compression {
                instructions: r.instructions? as f64 / blocks,
                estimate: r.estimate.as_ref().map(|e| {
                    let model = format!("{} v{}", e.model, e.model_version);
                    (e.cycles as f64 / blocks, model)
                }),
            };
            Some((r.core, c))
        })
        .collect()
}

/// The compression cost lines: per core, and RV32 over M33.
fn compression_lines(cost: &BTreeMap<String, Compression>) -> Vec<String> {
    let mut out: Vec<String> = cost
        .iter()
        .map(|(core, c)| {
            let est = match &c.estimate {
                Some((cycles, model)) => format!("{cycles:.0} estimated cycles ({model})"),
                None => "no estimate in the hash-cal record (it predates the timing model)".into(),
            };
            format!(
                "one BLAKE3 compression on {core}: {:.0} instructions, {est}",
                c.instructions
            )
        })
        .collect();
    if let (Some(m), Some(r)) = (cost.get("m33"), cost.get("rv32")) {
        let est = match (&m.estimate, &r.estimate) {
            (Some((m, _)), Some((r, _))) => format!(", {:.2} in estimated cycles", r / m),
            _ => String::new(),
        };
        let i = r.instructions / m.instructions;
        out.push(format!(
            "RV32 / M33 of one compression: {i:.2} in instructions{est}"
        ));
    }
    out
}

/// Whether a record measured the published runs' window: our firmware built as they were
/// (`mcu-run run --window stock-wf`) or their own board image (`mcu-run board`).
fn published_window(r: &RunRecord) -> bool {
    r.profile.contains("window=stock-wf") || r.profile.contains("window=board-image")
}

/// A record matches a published run when backend, core and allocator agree and it was
/// built as the published runs were: their window, and plain RV32IMAC on the RV32 when
/// the profile names an ISA.
fn matches_published(r: &RunRecord, backend: &str, core: &str, alloc: &str) -> bool {
    (r.backend.as_str(), r.core.as_str(), r.allocator.as_str()) == (backend, core, alloc)
        && published_window(r)
        && (core != "rv32" || !r.profile.contains("isa=") || r.profile.contains("isa=rv32imac"))
}

/// Predicted (timing model on the emulator's instruction stream) against measured (the
/// published silicon runs) cycles, from the records in `timing/`.
fn timing(dir: &Path) -> Value {
    let records: Vec<(String, RunRecord)> = crate::input::load(&[dir.join("timing")])
        .entries
        .into_iter()
        .map(|e| {
            let file = Path::new(&e.origin)
                .file_name()
                .map_or(e.origin.clone(), |n| n.to_string_lossy().into());
            (file, e.record)
        })
        .collect();
    let (records, others): (Vec<_>, Vec<_>) =
        records.into_iter().partition(|(_, r)| published_window(r));
    let mut t = Table::new("", "proof | core | allocator | measured cycles | predicted cycles (model) | error | instructions | record (result) | board · profile");
    // Each published run with its matching records, then the records no published run has.
    type Line<'a> = ([String; 3], Option<u64>, Option<&'a (String, RunRecord)>);
    let mut lines: Vec<Line> = Vec::new();
    for &(backend, proof, core, alloc, measured) in PUBLISHED {
        let head = [proof, core, alloc].map(String::from);
        let matching: Vec<_> = records
            .iter()
            .filter(|(_, r)| matches_published(r, backend, core, alloc))
            .collect();
        if matching.is_empty() {
            lines.push((head.clone(), Some(measured), None));
        }
        lines.extend(
            matching
                .into_iter()
                .map(|r| (head.clone(), Some(measured), Some(r))),
        );
    }
    for rec in records.iter().filter(|(_, r)| {
        !PUBLISHED
            .iter()
            .any(|&(b, _, c, a, _)| matches_published(r, b, c, a))
    }) {
        let r = &rec.1;
        lines.push((
            [&r.backend, &r.core, &r.allocator].map(String::clone),
            None,
            Some(rec),
        ));
    }
    for (head, measured, rec) in lines {
        let est = rec.and_then(|(_, r)| r.estimate.as_ref());
        let pred = match (rec, est) {
            (None, _) => "no matching record".into(),
            (Some(_), None) => "no estimate in the record".into(),
            (Some(_), Some(e)) => format!("{} ({} v{})", e.cycles, e.model, e.model_version),
        };
        let err = match (measured, est) {
            (Some(m), Some(e)) => format!("{:+.1}%", (e.cycles as f64 / m as f64 - 1.0) * 100.0),
            _ => "–".into(),
        };
        let rec_cells = rec.map_or(["–".into(), "–".into(), "–".into()], |(file, r)| {
            [
                num(r.instructions),
                format!("`{file}` ({})", r.result),
                format!("{} · {}", r.board, r.profile),
            ]
        });
        let m = measured.map_or("not published".into(), |m| m.to_string());
        t.rows.push(
            head.into_iter()
                .chain([m, pred, err])
                .chain(rec_cells)
                .collect(),
        );
    }
    // The allocators in predicted order, per backend, core and build. Each allocator's
    // record names its own board image (layout, image, window addresses): not a build
    // difference.
    let build = |p: &str| -> String {
        const PER_IMAGE: [&str; 6] = [
            "layout-elf=",
            "board-image=",
            "image-fnv1a32=",
            "start=",
            "end=",
            "patches=",
        ];
        p.split(' ')
            .filter(|w| !PER_IMAGE.iter().any(|k| w.starts_with(k)))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let key = |r: &RunRecord| (r.backend.clone(), r.core.clone(), build(&r.profile));
    let keys: std::collections::BTreeSet<_> = records.iter().map(|(_, r)| key(r)).collect();
    let mut orders = Vec::new();
    for k in keys {
        let (backend, core, _) = &k;
        let mut by: Vec<(u64, &str)> = records
            .iter()
            .filter(|(_, r)| key(r) == k)
            .filter_map(|(_, r)| Some((r.estimate.as_ref()?.cycles, r.allocator.as_str())))
            .collect();
        by.sort_unstable();
        let order: Vec<String> = by.iter().map(|(c, a)| format!("{a} ({c})")).collect();
        if order.len() > 1 {
            let order = order.join(" < ");
            orders.push(format!(
                "predicted allocator order, {backend} on {core}, fastest first: {order}"
            ));
        }
    }
    // Every other record there (e.g. our verifiers), in estimated time and against the
    // stock window's TLSF estimate on the same core.
    let mut o = Table::new("", "record | backend | core | allocator | result | instructions | estimated cycles (model) | ms | × stock");
    for (file, r) in &others {
        let stock = records
            .iter()
            .find(|(_, s)| s.core == r.core && s.allocator == "tlsf")
            .and_then(|(_, s)| s.estimate.as_ref());
        let (pred, ms, x) = match &r.estimate {
            Some(e) => (
                format!("{} ({} v{})", e.cycles, e.model, e.model_version),
                format!("{:.2}", e.ms),
                stock.map_or("–".into(), |s| {
                    format!("{:.2}x", e.cycles as f64 / s.cycles as f64)
                }),
            ),
            None => ("no estimate in the record".into(), "–".into(), "–".into()),
        };
        let (b, c, a, res) = (&r.backend, &r.core, &r.allocator, &r.result);
        let cells = [
            format!("`{file}`"),
            b.clone(),
            c.clone(),
            a.clone(),
            res.clone(),
        ];
        o.rows.push(
            cells
                .into_iter()
                .chain([num(r.instructions), pred, ms, x])
                .collect(),
        );
    }
    context! {
        // The folder's name, not the machine's path to it.
        dir => dir.file_name().unwrap_or_default().to_string_lossy(),
        source => PUBLISHED_SOURCE, table => md_table(&t), orders,
        others => (!others.is_empty()).then(|| md_table(&o)),
    }
}

fn hash_counts(dir: &Path) -> BTreeMap<String, u64> {
    let Some(v) = read_json(&dir.join("hash-counts.json")) else {
        return BTreeMap::new();
    };
    v["counts"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| {
            Some((
                c["proof"].as_str()?.to_string(),
                c["compressions"].as_u64()?,
            ))
        })
        .collect()
}

fn ratio(a: Option<u64>, b: Option<u64>) -> String {
    match (a, b) {
        (Some(a), Some(b)) if b > 0 => format!("{:.2}x", a as f64 / b as f64),
        _ => "–".into(),
    }
}

fn num(v: Option<u64>) -> String {
    v.map_or("–".into(), |v| v.to_string())
}

/// The stock run this proof is compared with: the same bytes when the stock firmware ran
/// them, else the stock Plonky3 run with the foundation's first defaults of the backend.
fn counterpart<'a>(stock: &'a [Run], r: &Run) -> Option<&'a Run> {
    stock
        .iter()
        .find(|s| s.proof == r.proof && s.core == r.core)
        .or_else(|| {
            stock.iter().find(|s| {
                s.core == r.core && s.backend == r.backend && s.proof.contains("foundation")
            })
        })
}

/// The section (its tables are Markdown in the intro, from `baseline.md.j2`), or `None`
/// when the folder has no runs.
pub fn section(dir: &Path) -> Option<Section> {
    let ours = runs(&dir.join("ours"));
    let stock = runs(&dir.join("stock"));
    if ours.is_empty() && stock.is_empty() && !dir.join("timing").is_dir() {
        return None;
    }
    let cost = compression_cost(dir);
    let counts = hash_counts(dir);
    let (ours_nolto, stock_nolto) = (
        runs(&dir.join("ours-nolto")),
        runs(&dir.join("stock-nolto")),
    );
    let nolto = !ours_nolto.is_empty() || !stock_nolto.is_empty();
    let ctx = context! {
        // Relative: the report must not name this machine's paths.
        dir => crate::input::shown(dir),
        compression => compression_lines(&cost),
        main => md_table(&table(&ours, &stock, &cost, &counts)),
        nolto => nolto.then(|| md_table(&table(&ours_nolto, &stock_nolto, &cost, &counts))),
        timing => dir.join("timing").is_dir().then(|| timing(dir)),
        tunes => tunes(dir),
        notes => std::fs::read_to_string(dir.join("NOTES.md")).ok(),
    };
    let mut env = minijinja::Environment::new();
    env.set_keep_trailing_newline(true);
    let md = env
        .template_from_str(include_str!("baseline.md.j2"))
        .and_then(|t| t.render(ctx))
        .unwrap_or_else(|e| format!("baseline section not rendered: {e}"));
    Some(Section::new(
        "baseline",
        "Stock baselines and hash floor",
        md,
    ))
}

/// One comparison table: our runs and the stock runs, with ratios and hash floors.
fn table(
    ours: &[Run],
    stock: &[Run],
    cost: &BTreeMap<String, Compression>,
    counts: &BTreeMap<String, u64>,
) -> Table {
    let mut t = Table::new("", "proof | core | verifier | result | instructions | heap peak | proof bytes | bits | stock counterpart | ours / stock | ours / ref | compressions | hash floor | verify / floor");
    for (r, who) in ours
        .iter()
        .map(|r| (r, "ours"))
        .chain(stock.iter().map(|r| (r, "stock")))
    {
        let reference = stock
            .iter()
            .find(|s| s.core == r.core && s.proof.contains("ref-zkmcu") && s.result == "accepted");
        let cp = (who == "ours").then(|| counterpart(stock, r)).flatten();
        let floor = counts
            .get(&r.proof)
            .zip(cost.get(&r.core))
            .map(|(n, c)| (*n as f64 * c.instructions) as u64);
        // A rejected run stopped early: its count is no verification cost.
        let accepted = r.instructions.filter(|_| r.result == "accepted");
        let cp_cell = match cp {
            Some(s) if s.result == "accepted" => format!("{} ({})", num(s.instructions), s.proof),
            Some(s) => format!("{} ({})", s.result, s.proof),
            None => "–".into(),
        };
        let cp_accepted = cp
            .filter(|s| s.result == "accepted")
            .and_then(|s| s.instructions);
        t.rows.push(vec![
            r.proof.clone(),
            r.core.clone(),
            who.into(),
            r.result.clone(),
            num(r.instructions),
            num(r.heap_peak),
            r.proof_bytes.to_string(),
            r.security_bits.to_string(),
            cp_cell,
            ratio((who == "ours").then_some(accepted).flatten(), cp_accepted),
            ratio(accepted, reference.and_then(|s| s.instructions)),
            num(counts.get(&r.proof).copied()),
            num(floor),
            ratio(accepted, floor),
        ]);
    }
    t
}

/// The Pareto fronts of the parameter searches (`tune-*.json`).
fn tunes(dir: &Path) -> Vec<Value> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<_> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("tune-"))
        })
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let Some(v) = read_json(&f) else { continue };
        let s = |k: &str| v[k].as_str().unwrap_or("?").to_string();
        let mut t = Table::new("", "log blowup | queries | PoW bits | log arity | log final len | bits | instructions | heap peak | proof bytes | prove ms");
        let mut front: Vec<&serde_json::Value> = v["points"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|p| p["pareto"].as_bool() == Some(true))
            .collect();
        front.sort_by_key(|p| p["instructions"].as_u64());
        const COLUMNS: [&str; 10] = [
            "log_blowup",
            "num_queries",
            "pow_bits",
            "log_fold_arity",
            "log_final_poly_len",
            "security_bits",
            "instructions",
            "heap_peak",
            "proof_bytes",
            "prove_ms",
        ];
        t.rows = front
            .iter()
            .map(|p| COLUMNS.iter().map(|k| p[*k].to_string()).collect())
            .collect();
        out.push(context! {
            title => format!("{} {} n={} on {} (>= {} bits)", s("backend"), s("air"), v["n"], s("core"), v["min_security"]),
            verify => s("verify_source"), prove => s("prove_source"),
            points => v["points"].as_array().map_or(0, |a| a.len()),
            table => md_table(&t),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One `mcu-run` record from `folder proof core backend result instructions`.
    fn rec(dir: &Path, line: &str) {
        let f: Vec<&str> = line.split_whitespace().collect();
        let d = dir.join(f[0]);
        std::fs::create_dir_all(&d).unwrap();
        let r = RunRecord {
            schema: picostark_core::record::RUN_RECORD_SCHEMA,
            source: "emulator".into(),
            backend: f[3].into(),
            core: f[2].into(),
            result: f[4].into(),
            instructions: f[5].parse().ok(),
            heap_peak: Some(100),
            proof_bytes: 1000,
            security_bits: 95,
            ..RunRecord::default()
        };
        let json = serde_json::to_string(&r).unwrap();
        std::fs::write(d.join(format!("{}.{}.tlsf.json", f[1], f[2])), json).unwrap();
    }

    #[test]
    fn ratios_against_stock_counterparts_and_the_hash_floor() {
        let dir = std::env::temp_dir().join(format!("pstk-baseline-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        // folder, proof, core, backend, result, instructions
        let runs = "stock wf-ref-zkmcu.proof m33 wf-goldilocks accepted 8000
                    ours wf-ref-zkmcu.proof m33 wf-goldilocks accepted 3000
                    stock p3-babybear-foundation.proof m33 p3-babybear accepted 12000
                    ours p3-babybear-tuned.proof m33 p3-babybear accepted 6000
                    stock wf-ref-zkmcu.proof rv32 wf-goldilocks rejected:rejected 10
                    ours wf-ref-zkmcu.proof rv32 wf-goldilocks accepted 4000
                    hash-cal hash-cal-10.proof m33 p3-babybear accepted 1000
                    hash-cal hash-cal-10.proof rv32 p3-babybear accepted 2000";
        runs.lines().for_each(|l| rec(&dir, l));
        // The m33 calibration run has an estimate: 1500 cycles over 10 compressions.
        let m33_cal = dir.join("hash-cal/hash-cal-10.proof.m33.tlsf.json");
        let mut r: RunRecord =
            serde_json::from_str(&std::fs::read_to_string(&m33_cal).unwrap()).unwrap();
        r.estimate = Some(picostark_core::record::CycleEstimate {
            cycles: 1500,
            model: "rp2350-m33".into(),
            model_version: 2,
            ..Default::default()
        });
        std::fs::write(&m33_cal, serde_json::to_string(&r).unwrap()).unwrap();
        std::fs::write(
            dir.join("hash-counts.json"),
            r#"{"counts":[{"proof":"wf-ref-zkmcu.proof","compressions":20}]}"#,
        )
        .unwrap();
        let md = section(&dir).unwrap().intro;
        let line = |p: &str, core: &str, who: &str| {
            md.lines()
                .find(|l| l.starts_with(&format!("| {p} | {core} | {who} |")))
                .unwrap()
                .to_string()
        };
        // Same bytes: 3000 / 8000; floor 20 x 100 = 2000.
        let l = line("wf-ref-zkmcu.proof", "m33", "ours");
        assert!(l.contains("| 0.38x | 0.38x | 20 | 2000 | 1.50x |"), "{l}");
        // A tuned Plonky3 proof against the stock foundation-default run.
        let l = line("p3-babybear-tuned.proof", "m33", "ours");
        assert!(l.contains("| 0.50x | 0.75x |"), "{l}");
        // A stock run that rejected gives no ratio.
        let l = line("wf-ref-zkmcu.proof", "rv32", "ours");
        assert!(
            l.contains("rejected:rejected (wf-ref-zkmcu.proof) | – | – |"),
            "{l}"
        );
        // A rejected run stopped early: no ratio from its count.
        let l = line("wf-ref-zkmcu.proof", "rv32", "stock");
        assert!(l.ends_with("| – | – | – | 20 | 4000 | – |"), "{l}");
        assert!(md.contains("- one BLAKE3 compression on m33: 100 instructions, 150 estimated cycles (rp2350-m33 v2)"), "{md}");
        assert!(md.contains("- one BLAKE3 compression on rv32: 200 instructions, no estimate in the hash-cal record"), "{md}");
        assert!(
            md.contains("- RV32 / M33 of one compression: 2.00 in instructions\n"),
            "{md}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    fn timing_record(core: &str, alloc: &str, profile: &str, cycles: Option<u64>) -> RunRecord {
        RunRecord {
            schema: picostark_core::record::RUN_RECORD_SCHEMA,
            source: "emulator".into(),
            backend: "wf-goldilocks".into(),
            core: core.into(),
            board: format!("qemu-{core}"),
            allocator: alloc.into(),
            result: "accepted".into(),
            instructions: Some(7_000_000),
            profile: profile.into(),
            estimate: cycles.map(|cycles| picostark_core::record::CycleEstimate {
                model: format!("rp2350-{core}"),
                model_version: 1,
                cycles,
                ..Default::default()
            }),
            ..RunRecord::default()
        }
    }

    #[test]
    fn predicted_against_published_cycles() {
        let dir = std::env::temp_dir().join(format!("pstk-timing-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("timing")).unwrap();
        let w = "release opt-level=s lto=fat window=stock-wf";
        let (iw, lw) = (format!("{w} isa=rp2350"), format!("{w} isa=rv32imac"));
        let b = "window=board-image start=0x10002d12 end=0x10002d54 patches=3 windows=7";
        let bump = format!("board-image=m33-bump.elf image-fnv1a32=0123abcd {b}");
        let tlsf = format!("board-image=m33-tlsf.elf image-fnv1a32=4567abcd {b}");
        let llff = "release opt-level=s lto=fat layout-elf=m33-llff.elf window=stock-wf";
        // b: another allocator's board layout (the same build for the allocator order);
        // c: not the published build (Zb* extensions on); f, g: board images; e: not the
        // stock window.
        let records = [
            ("a.m33.tlsf.json", "m33", "tlsf", w, Some(11_760_484)),
            ("b.m33.llff.json", "m33", "llff", llff, Some(12_000_000)),
            ("c.rv32.tlsf.json", "rv32", "tlsf", &iw, Some(1)),
            ("d.rv32.tlsf.json", "rv32", "tlsf", &lw, None),
            ("f.m33.bump.json", "m33", "bump", &bump, Some(10_500_000)),
            ("g.m33.tlsf.json", "m33", "tlsf", &tlsf, Some(11_100_000)),
            ("e.m33.tlsf.json", "m33", "tlsf", "release", Some(2)),
        ];
        for (name, core, alloc, profile, cycles) in records {
            let r = timing_record(core, alloc, profile, cycles);
            std::fs::write(
                dir.join("timing").join(name),
                serde_json::to_string(&r).unwrap(),
            )
            .unwrap();
        }
        let md = section(&dir).unwrap().intro;
        let line = |start: &str| {
            md.lines()
                .find(|l| l.starts_with(start))
                .unwrap_or_else(|| panic!("{start}: {md}"))
                .to_string()
        };
        assert!(md.contains("published, zkmcu project benchmark records, RP2350 at 150 MHz"));
        let l = line("| Goldilocks x quadratic | m33 | tlsf | 11200461 |");
        assert!(
            l.contains("| 11760484 (rp2350-m33 v1) | +5.0% |") && l.contains("`a.m33.tlsf.json`"),
            "{l}"
        );
        let l = line("| Goldilocks x quadratic | rv32 | tlsf | 16859714 |");
        assert!(
            l.contains("| no estimate in the record | – |") && l.contains("`d.rv32.tlsf.json`"),
            "{l}"
        );
        assert!(line("| BabyBear x quartic | m33 |").contains("no matching record"));
        let l = line("| Goldilocks x quadratic | m33 | llff | 10449812 |");
        assert!(l.contains("| 12000000 (rp2350-m33 v1) | +14.8% |"), "{l}");
        // A board-image record matches its published run; its window addresses are per image.
        assert!(line("| Goldilocks x quadratic | m33 | bump | 10193094 |")
            .contains("`f.m33.bump.json`"));
        assert!(line("| wf-goldilocks | rv32 | tlsf | not published |").contains("isa=rp2350"));
        assert!(
            md.contains("- predicted allocator order, wf-goldilocks on m33, fastest first: tlsf (11760484) < llff (12000000)\n"),
            "{md}"
        );
        assert!(
            md.contains("- predicted allocator order, wf-goldilocks on m33, fastest first: bump (10500000) < tlsf (11100000)\n"),
            "{md}"
        );
        // Outside the stock window: in the other table, against the stock TLSF estimate.
        assert!(md.contains(
            "| `e.m33.tlsf.json` | wf-goldilocks | m33 | tlsf | accepted | 7000000 | 2 (rp2350-m33 v1) | 0.00 | 0.00x |"
        ), "{md}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

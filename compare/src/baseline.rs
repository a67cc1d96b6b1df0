//! The stock-baseline sections: our verifiers against the stock upstream verifiers on the
//! same proof files and against the BLAKE3 work each proof needs, the timing model against
//! the published silicon runs, and the parameter searches.
//!
//! Reads a baseline folder (`results/baseline/`, see its README): `ours/` and `stock/` (and,
//! when present, `ours-nolto/`, `stock-nolto/`: the same runs built without LTO) (`mcu-run`
//! records of our firmware and of the `stock-wf,stock-p3` firmware, file names
//! `<proof>.<core>.<alloc>.json`), `hash-cal/` (records of the `hash-cal` firmware on
//! `hash-cal-<K>.proof`: `K` single-compression hashes), `hash-counts.json` (`prover-host
//! tune --count-hashes`), `tune-*.json` (`prover-host tune`), `timing/` (run records of the
//! firmware built as the published silicon runs were, `mcu-run --window stock-wf`, with the
//! timing model's estimates) and `NOTES.md`. Every figure is an emulator instruction count or
//! the timing model's estimate (said where), except prove time and the published silicon
//! cycles, which carry their source.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use picostark_core::record::{CycleEstimate, RunRecord};
use serde_json::Value;

use crate::doc::{signed_pct, Section, Table};

/// Published silicon runs of stock `winterfell::verify` 0.13.1 on the zkmcu reference proofs
/// (verify alone in the window, the proof parsed and cloned before it; rustc 1.94.1 release,
/// opt-level "s", fat LTO): the TLSF (256 KB) runs as quoted in
/// `shared/interop/zkmcu-fork/README.md`, the LLFF (256 KB) and bump (384 KB) runs from the
/// zkmcu records of c51d396 and 6e7c942 (`benchmarks/runs/2026-04-24-*-stark-fib-1024-q-*`):
/// `backend proof core allocator median-cycles`, the proof's name with `_` for spaces.
const PUBLISHED: &str = "wf-goldilocks Goldilocks_x_quadratic m33 tlsf 11200461
wf-goldilocks Goldilocks_x_quadratic m33 llff 10449812
wf-goldilocks Goldilocks_x_quadratic m33 bump 10193094
wf-goldilocks Goldilocks_x_quadratic rv32 tlsf 16859714
wf-goldilocks Goldilocks_x_quadratic rv32 llff 13858151
wf-goldilocks Goldilocks_x_quadratic rv32 bump 12325103
wf-babybear BabyBear_x_quartic m33 tlsf 18633462
wf-babybear BabyBear_x_quartic rv32 tlsf 19358117";

/// Where [`PUBLISHED`] comes from.
const SOURCE: &str = "published, zkmcu project benchmark records, RP2350 at 150 MHz";

const INTRO: &str = "Emulator instruction counts of parse + verify (QEMU + icount plugin via `mcu-run`, same markers, TLSF heap, release opt-level s, LTO fat), from `results/baseline/` (`ours/`, `stock/`). *stock* = upstream `winterfell::verify` 0.13.1 (wf) or plain postcard + `p3_uni_stark::verify` 0.8 (p3) in the `stock-wf,stock-p3` firmware; a Plonky3 proof's stock counterpart is the stock verifier on the same backend's proof with the foundation's first defaults (blowup 8, 27 queries, 16 PoW bits, binary folding). *ref* = stock `winterfell::verify` on the zkmcu reference Goldilocks proof. Hash floor = BLAKE3 compressions the proof's verification needs (counted on the host) x one compression's instructions on that core (`hash-cal` firmware).";

const NOLTO: &str = "The same comparison built without LTO (`ours-nolto/`, `stock-nolto/`): the same firmware and proofs built with `CARGO_PROFILE_RELEASE_LTO=false` (opt-level s, one codegen unit per crate), a second build setting, since code generation differs with LTO (the RV32 miscompilation in the notes depended on it); the hash floor columns use the LTO-fat calibration.";

const TIMING: &str = "Predicted: the RP2350 timing model's estimated cycles (`RunRecord.estimate`) of an emulator run, records in `results/baseline/timing/`: board `qemu-board-image`, the published runs' own board images rebuilt from their sources and run as they are (`mcu-run board`); otherwise our firmware built as the published runs were (`mcu-run run --window stock-wf`: stock `winterfell::verify` 0.13.1 alone in the window) with the board image's layout. Error = (predicted − measured) / measured. Which published run fixed which model parameter is in `verifier-mcu/TIMING.md`.";

/// Instructions and estimated cycles (with the model) of one BLAKE3 compression, per core.
type Cost = BTreeMap<String, PerCore>;

/// Instructions, and estimated cycles with the model, of one compression on one core.
type PerCore = (f64, Option<(f64, String)>);

/// BLAKE3 compressions of each proof's verification, counted on the host.
type Counts = BTreeMap<String, u64>;

/// A JSON file's value (null when it cannot be read).
fn json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    serde_json::from_str(&text).unwrap_or_default()
}

/// One `mcu-run` record and its file name.
type Run = (String, RunRecord);

/// The run records of one folder (recursively), in file name order.
fn runs(dir: &Path) -> Vec<Run> {
    let entries = crate::input::load(&[dir.to_path_buf()]).entries;
    let name = |o: &str| o.rsplit('/').next().unwrap_or(o).to_string();
    let out = entries.into_iter().map(|e| (name(&e.origin), e.record));
    let mut out: Vec<Run> = out.collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// The proof file a record ran (`<proof>.<core>.<alloc>.json`).
fn proof(file: &str) -> &str {
    file.find(".proof").map_or(file, |i| &file[..i + 6])
}

fn num(v: Option<u64>) -> String {
    v.map_or("–".into(), |v| v.to_string())
}

fn ratio(a: Option<u64>, b: Option<u64>) -> String {
    crate::doc::times(a.map(|v| v as f64), b.map(|v| v as f64))
}

/// The model that gave an estimate: `rp2350-m33 v7`.
fn version(e: &CycleEstimate) -> String {
    format!("{} v{}", e.model, e.model_version)
}

/// An estimate's cycles and model: `11760484 (rp2350-m33 v7)`.
fn model(e: &CycleEstimate) -> String {
    format!("{} ({})", e.cycles, version(e))
}

/// Instructions (and estimated cycles with their model) of one BLAKE3 compression per core,
/// from the `hash-cal` runs of `K` compressions.
fn compressions(dir: &Path) -> Cost {
    let per = |(file, r): Run| {
        let k = proof(&file).strip_prefix("hash-cal-")?;
        let k: f64 = k.strip_suffix(".proof")?.parse().ok()?;
        let est = |e: &CycleEstimate| (e.cycles as f64 / k, version(e));
        let est = r.estimate.as_ref().map(est);
        let accepted = r.result == "accepted";
        accepted.then_some((r.core, (r.instructions? as f64 / k, est)))
    };
    let all = runs(&dir.join("hash-cal"));
    all.into_iter().filter_map(per).collect()
}

/// One comparison table: our runs and the stock runs, with ratios and hash floors.
fn comparison(caption: &str, ours: &[Run], stock: &[Run], cost: &Cost, counts: &Counts) -> Table {
    let mut t = Table::new(caption, "proof | core | verifier | result | instructions | heap peak | proof bytes | bits | stock counterpart | ours / stock | ours / ref | compressions | hash floor | verify / floor");
    let accepted = |r: &RunRecord| r.instructions.filter(|_| r.result == "accepted");
    let who = ours.iter().map(|r| (r, "ours"));
    for ((file, r), who) in who.chain(stock.iter().map(|r| (r, "stock"))) {
        let (p, core, result) = (proof(file), &r.core, &r.result);
        let same_core = |s: &&Run| s.1.core == r.core;
        let is_ref = |s: &&Run| proof(&s.0).contains("ref-zkmcu") && s.1.result == "accepted";
        let reference = stock.iter().filter(same_core).find(is_ref);
        // The stock run on the same bytes, else the stock run of the foundation's defaults.
        let foundation = |s: &&Run| s.1.backend == r.backend && s.0.contains("foundation");
        let cp = stock.iter().filter(same_core).find(|s| proof(&s.0) == p);
        let cp = cp.or_else(|| stock.iter().filter(same_core).find(foundation));
        let cp = cp.filter(|_| who == "ours");
        let n = counts.get(p).copied();
        let floor = n.zip(cost.get(core)).map(|(n, c)| (n as f64 * c.0) as u64);
        let cp_cell = cp.map_or("–".into(), |(f, s)| match s.result == "accepted" {
            true => format!("{} ({})", num(s.instructions), proof(f)),
            false => format!("{} ({})", s.result, proof(f)),
        });
        // A rejected run stopped early: its count is no verification cost.
        let mine = accepted(r);
        let theirs = cp.and_then(|s| accepted(&s.1));
        let vs_stock = ratio(mine.filter(|_| who == "ours"), theirs);
        let vs_ref = ratio(mine, reference.and_then(|s| s.1.instructions));
        let (insns, heap) = (num(r.instructions), num(r.heap_peak));
        let (bytes, bits) = (r.proof_bytes, r.security_bits);
        let (n, over, floor) = (num(n), ratio(mine, floor), num(floor));
        t.row(&format!("{p} | {core} | {who} | {result} | {insns} | {heap} | {bytes} | {bits} | {cp_cell} | {vs_stock} | {vs_ref} | {n} | {floor} | {over}"));
    }
    t
}

/// Whether a record measured the published runs' window: our firmware built as they were
/// (`mcu-run run --window stock-wf`) or their own board image (`mcu-run board`).
fn published_window(r: &RunRecord) -> bool {
    r.profile.contains("window=stock-wf") || r.profile.contains("window=board-image")
}

/// A record matches a published run when backend, core and allocator agree and it was built
/// as the published runs were: their window, and plain RV32IMAC on the RV32 when the profile
/// names an ISA.
fn matches(r: &RunRecord, published: &[&str]) -> bool {
    let isa = r.core != "rv32" || !r.profile.contains("isa=") || r.profile.contains("isa=rv32imac");
    [&r.backend, &r.core, &r.allocator] == [published[0], published[2], published[3]]
        && isa
        && published_window(r)
}

/// Predicted (timing model on the emulator's instruction stream) against measured (the
/// published silicon runs) cycles, from the records in `timing/`, and the other records
/// there against the stock window's estimate.
fn timing(dir: &Path) -> Section {
    let intro = format!("{TIMING} Measured: median cycles, {SOURCE}.");
    let title = "Timing model against published silicon runs";
    let mut s = Section::new("timing", title, intro);
    let all = runs(&dir.join("timing")).into_iter();
    let (records, others): (Vec<Run>, Vec<Run>) = all.partition(|r| published_window(&r.1));
    let mut t = Table::new("", "proof | core | allocator | measured cycles | predicted cycles (model) | error | instructions | record (result) | board · profile");
    let published: Vec<Vec<&str>> = PUBLISHED.lines().map(|l| l.split(' ').collect()).collect();
    // Each published run with its matching records, then the records no published run has.
    let mut lines: Vec<(String, Option<u64>, Option<&Run>)> = Vec::new();
    for p in &published {
        let head = format!("{} | {} | {}", p[1].replace('_', " "), p[2], p[3]);
        let measured = p[4].parse().ok();
        let found: Vec<&Run> = records.iter().filter(|r| matches(&r.1, p)).collect();
        lines.extend(found.iter().map(|r| (head.clone(), measured, Some(*r))));
        lines.extend(found.is_empty().then_some((head, measured, None)));
    }
    let known = |r: &&Run| published.iter().any(|p| matches(&r.1, p));
    let unpublished = records.iter().filter(|r| !known(r));
    let head = |r: &RunRecord| format!("{} | {} | {}", r.backend, r.core, r.allocator);
    lines.extend(unpublished.map(|r| (head(&r.1), None, Some(r))));
    for (head, measured, rec) in lines {
        let est = rec.and_then(|r| r.1.estimate.as_ref());
        let pred = match (rec, est) {
            (None, _) => "no matching record".into(),
            (_, None) => "no estimate in the record".into(),
            (_, Some(e)) => model(e),
        };
        let err = match (measured, est) {
            (Some(m), Some(e)) => signed_pct(e.cycles as f64 / m as f64 - 1.0),
            _ => "–".into(),
        };
        let measured = measured.map_or("not published".into(), |m| m.to_string());
        let record = |(f, r): &Run| {
            let (insns, res, b, p) = (num(r.instructions), &r.result, &r.board, &r.profile);
            format!("{insns} | `{f}` ({res}) | {b} · {p}")
        };
        let record = rec.map_or("– | – | –".into(), record);
        t.row(&format!("{head} | {measured} | {pred} | {err} | {record}"));
    }
    s.tables.push(t);
    // The allocators in predicted order, per backend, core and build. Each allocator's record
    // names its own board image (layout, image, window addresses): not a build difference.
    let per_image = "layout-elf= board-image= image-fnv1a32= start= end= patches=";
    let own = |w: &&str| per_image.split(' ').any(|k| w.starts_with(k));
    let build = |p: &str| Vec::from_iter(p.split(' ').filter(|w| !own(w))).join(" ");
    let key = |r: &RunRecord| (r.backend.clone(), r.core.clone(), build(&r.profile));
    for k in records.iter().map(|r| key(&r.1)).collect::<BTreeSet<_>>() {
        let these = records.iter().filter(|r| key(&r.1) == k).map(|r| &r.1);
        // Each allocator once (its fastest record), so no allocator is ranked against itself.
        let mut by: BTreeMap<String, u64> = BTreeMap::new();
        for r in these {
            let Some(e) = &r.estimate else { continue };
            let c = by.entry(r.allocator.clone()).or_insert(e.cycles);
            *c = (*c).min(e.cycles);
        }
        let mut by: Vec<(u64, String)> = by.into_iter().map(|(a, c)| (c, a)).collect();
        by.sort();
        let order: Vec<String> = by.iter().map(|(c, a)| format!("{a} ({c})")).collect();
        let (backend, core, order) = (&k.0, &k.1, order.join(" < "));
        let line =
            format!("predicted allocator order, {backend} on {core}, fastest first: {order}");
        s.notes.extend((by.len() > 1).then_some(line));
    }
    // Every other record there (e.g. our verifiers), in estimated time and against the stock
    // window's TLSF estimate on the same core.
    let caption = "Other records in `timing/` (full parse + verify window), in estimated time; × stock = estimated cycles over the stock window's TLSF estimate on the same core";
    let mut o = Table::new(caption, "record | backend | core | allocator | result | instructions | estimated cycles (model) | ms | × stock");
    for (file, r) in &others {
        let is_stock = |s: &&Run| s.1.core == r.core && s.1.allocator == "tlsf";
        let stock = records.iter().find(is_stock);
        let stock = stock.and_then(|s| s.1.estimate.as_ref());
        let est = r.estimate.as_ref();
        let x = ratio(est.map(|e| e.cycles), stock.map(|e| e.cycles));
        let none = ("no estimate in the record".into(), "–".into());
        let (pred, ms) = est.map_or(none, |e| (model(e), format!("{:.2}", e.ms)));
        let (b, c, a, res) = (&r.backend, &r.core, &r.allocator, &r.result);
        let i = num(r.instructions);
        let line = format!("`{file}` | {b} | {c} | {a} | {res} | {i} | {pred} | {ms} | {x}");
        o.row(&line);
    }
    s.tables.push(o);
    s
}

/// The Pareto fronts of the parameter searches (`tune-*.json`), one table each.
fn tunes(dir: &Path) -> Section {
    let intro = "`prover-host tune` over the FRI parameters of each backend at the security floor: the Pareto front over (instructions, proof bytes, prove ms).";
    let mut s = Section::new("tune", "Parameter search", intro);
    let listed = std::fs::read_dir(dir).into_iter().flatten();
    let mut files: Vec<_> = listed.filter_map(|e| Some(e.ok()?.path())).collect();
    files.sort();
    let columns = "log_blowup num_queries pow_bits log_fold_arity log_final_poly_len security_bits instructions heap_peak proof_bytes prove_ms";
    let tune = |f: &&PathBuf| f.to_string_lossy().contains("/tune-");
    for f in files.iter().filter(tune) {
        let v = json(f);
        let g = |k: &str| v[k].as_str().unwrap_or("?").to_string();
        let points = v["points"].as_array().cloned().unwrap_or_default();
        let (b, air, core) = (g("backend"), g("air"), g("core"));
        let (n, min, k) = (&v["n"], &v["min_security"], points.len());
        let (verify, prove) = (g("verify_source"), g("prove_source"));
        let caption = format!("{b} {air} n={n} on {core} (>= {min} bits). Verify: {verify}. Prove: {prove}. {k} points searched");
        let mut t = Table::new(&caption, "log blowup | queries | PoW bits | log arity | log final len | bits | instructions | heap peak | proof bytes | prove ms");
        let mut front: Vec<&Value> = points.iter().filter(|p| p["pareto"] == true).collect();
        front.sort_by_key(|p| p["instructions"].as_u64());
        let cells = |p: &&Value| columns.split(' ').map(|k| p[k].to_string()).collect();
        t.rows = front.iter().map(cells).collect();
        s.tables.push(t);
    }
    s
}

/// The sections (the ones with nothing to show are dropped by the report).
pub fn sections(dir: &Path) -> Vec<Section> {
    let counts = json(&dir.join("hash-counts.json"))["counts"].take();
    let count = |c: Value| Some((c["proof"].as_str()?.into(), c["compressions"].as_u64()?));
    let counts = counts.as_array().into_iter().flatten().cloned();
    let counts: Counts = counts.filter_map(count).collect();
    let cost = compressions(dir);
    let none = "no estimate in the hash-cal record (it predates the timing model)";
    let line = |(core, (i, est)): (&String, &PerCore)| {
        let cycles = |(c, m): &(f64, String)| format!("{c:.0} estimated cycles ({m})");
        let est = est.as_ref().map_or(none.into(), cycles);
        format!("one BLAKE3 compression on {core}: {i:.0} instructions, {est}")
    };
    let mut s = Section::new("baseline", "Stock baselines and hash floor", INTRO);
    s.notes = cost.iter().map(line).collect();
    if let (Some(m), Some(r)) = (cost.get("m33"), cost.get("rv32")) {
        let est = m.1.as_ref().zip(r.1.as_ref()).map(|(m, r)| r.0 / m.0);
        let est = est.map_or(String::new(), |x| format!(", {x:.2} in estimated cycles"));
        let x = r.0 / m.0;
        let line = format!("RV32 / M33 of one compression: {x:.2} in instructions{est}");
        s.notes.push(line);
    }
    for (caption, ours, stock) in [("", "ours", "stock"), (NOLTO, "ours-nolto", "stock-nolto")] {
        let (ours, stock) = (runs(&dir.join(ours)), runs(&dir.join(stock)));
        let t = comparison(caption, &ours, &stock, &cost, &counts);
        s.tables.push(t);
    }
    let timing = dir.join("timing").is_dir().then(|| timing(dir));
    let mut out: Vec<Section> = std::iter::once(s).chain(timing).collect();
    out.push(tunes(dir));
    out.retain(Section::shown);
    let notes = std::fs::read_to_string(dir.join("NOTES.md")).ok();
    out.extend(notes.map(|n| Section::new("baseline-notes", "Notes on the baselines", n)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, file: &str, r: &RunRecord) {
        let p = dir.join(file);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, serde_json::to_string(r).unwrap()).unwrap();
    }

    fn rec(core: &str, backend: &str, result: &str, insns: u64) -> RunRecord {
        let mut r = crate::table::tests::emu(backend, 2, 1024, core, insns).record;
        r.result = result.into();
        r
    }

    /// An estimate of `cycles` by model version `v` (the other figures zero).
    fn estimate(cycles: u64, core: &str, v: u32) -> Option<CycleEstimate> {
        let mut e = CycleEstimate::default();
        (e.cycles, e.model, e.model_version) = (cycles, format!("rp2350-{core}"), v);
        Some(e)
    }

    fn lines(t: &Table) -> Vec<String> {
        t.rows.iter().map(|r| r.join(" | ")).collect()
    }

    /// Asserts for each line `START => PART` of `want` that a row of `t` starts with START
    /// and holds PART.
    fn has_all(t: &Table, want: &str) {
        for (start, part) in want.lines().filter_map(|l| l.trim().split_once(" => ")) {
            let found = |l: &String| l.starts_with(start) && l.contains(part);
            let found = lines(t).iter().any(found);
            assert!(found, "{start} … {part}: {:#?}", lines(t));
        }
    }

    #[test]
    fn ratios_against_stock_counterparts_and_the_hash_floor() {
        let dir = std::env::temp_dir().join(format!("pstk-baseline-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        // folder, proof, core, backend, result, instructions
        let runs = "stock wf-ref-zkmcu m33 wf-goldilocks accepted 8000
                    ours wf-ref-zkmcu m33 wf-goldilocks accepted 3000
                    stock p3-babybear-foundation m33 p3-babybear accepted 12000
                    ours p3-babybear-tuned m33 p3-babybear accepted 6000
                    stock wf-ref-zkmcu rv32 wf-goldilocks rejected:rejected 10
                    ours wf-ref-zkmcu rv32 wf-goldilocks accepted 4000
                    hash-cal hash-cal-10 m33 p3-babybear accepted 1000
                    hash-cal hash-cal-10 rv32 p3-babybear accepted 2000";
        for l in runs.lines() {
            let f: Vec<&str> = l.split_whitespace().collect();
            let mut r = rec(f[2], f[3], f[4], f[5].parse().unwrap());
            // The m33 calibration run has an estimate: 1500 cycles over 10 compressions.
            if f[0] == "hash-cal" && f[2] == "m33" {
                r.estimate = estimate(1500, "m33", 2);
            }
            let file = format!("{}/{}.proof.{}.tlsf.json", f[0], f[1], f[2]);
            write(&dir, &file, &r);
        }
        let counts = r#"{"counts":[{"proof":"wf-ref-zkmcu.proof","compressions":20}]}"#;
        std::fs::write(dir.join("hash-counts.json"), counts).unwrap();
        let all = sections(&dir);
        // No `timing/` folder: no timing section (the published runs alone are no comparison).
        assert!(all.iter().all(|s| s.id != "timing"));
        let s = &all[0];
        // Same bytes: 3000 / 8000, floor 20 x 100 = 2000; a tuned Plonky3 proof against the
        // stock foundation-default run; a stock run that rejected (it stopped early) gives
        // no ratio.
        let want = "wf-ref-zkmcu.proof | m33 | ours => | 0.38x | 0.38x | 20 | 2000 | 1.50x
            p3-babybear-tuned.proof | m33 | ours => | 0.50x | 0.75x | – | – | –
            wf-ref-zkmcu.proof | rv32 | ours => | rejected:rejected (wf-ref-zkmcu.proof) | – | – | 20 | 4000 | 1.00x
            wf-ref-zkmcu.proof | rv32 | stock => | – | – | – | 20 | 4000 | –";
        has_all(&s.tables[0], want);
        let want = [
            "one BLAKE3 compression on m33: 100 instructions, 150 estimated cycles (rp2350-m33 v2)",
            "one BLAKE3 compression on rv32: 200 instructions, no estimate in the hash-cal record (it predates the timing model)",
            "RV32 / M33 of one compression: 2.00 in instructions",
        ];
        assert_eq!(s.notes, want);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn predicted_against_published_cycles() {
        let dir = std::env::temp_dir().join(format!("pstk-timing-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
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
            let mut r = rec(core, "wf-goldilocks", "accepted", 7_000_000);
            (r.allocator, r.profile) = (alloc.into(), profile.into());
            r.estimate = cycles.and_then(|c| estimate(c, core, 1));
            write(&dir, &format!("timing/{name}"), &r);
        }
        let all = sections(&dir);
        let s = all.iter().find(|s| s.id == "timing").unwrap();
        assert!(s.intro.contains(SOURCE));
        // A board-image record matches its published run; its window addresses are per image.
        let want = "Goldilocks x quadratic | m33 | tlsf | 11200461 => | 11760484 (rp2350-m33 v1) | +5.0% | 7000000 | `a.m33.tlsf.json`
            Goldilocks x quadratic | rv32 | tlsf | 16859714 => | no estimate in the record | – | 7000000 | `d.rv32.tlsf.json`
            BabyBear x quartic | m33 => | no matching record | – | – | – | –
            Goldilocks x quadratic | m33 | llff | 10449812 => | 12000000 (rp2350-m33 v1) | +14.8% |
            Goldilocks x quadratic | m33 | bump | 10193094 => `f.m33.bump.json`
            wf-goldilocks | rv32 | tlsf | not published => isa=rp2350";
        has_all(&s.tables[0], want);
        let order = "predicted allocator order, wf-goldilocks on m33, fastest first:";
        for o in [
            "tlsf (11760484) < llff (12000000)",
            "bump (10500000) < tlsf (11100000)",
        ] {
            assert!(s.notes.contains(&format!("{order} {o}")), "{:?}", s.notes);
        }
        // Outside the stock window: in the other table, against the stock TLSF estimate.
        let want = "`e.m33.tlsf.json` | wf-goldilocks | m33 | tlsf | accepted | 7000000 | 2 (rp2350-m33 v1) | 0.00 | 0.00x";
        assert!(lines(&s.tables[1]).contains(&want.to_string()));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

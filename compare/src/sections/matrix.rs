//! The full matrix: every row with every column, sortable and filterable in report.html.

use crate::doc::PARAMS_HEAD;
use crate::doc::{bits, dash, grouped, kib, pct, pow2, Section, Table};
use crate::table::Row;

const HEAD: &str = "source | backend | field^ext | AIR | n | core | hash | PARAMS | placement | alloc, heap | instructions | estimate: cycles (model) | estimate: ms | estimate: stall cycles · XIP misses of accesses (miss cycles) | device: cycles (median) | device: ms at clock | device spread std/mean · IQR/median | host: verify ms | host: prove ms | RV32/M33 (estimate) | proofs: range/median | heap peak | stack peak | proof | bits: ethSTARK | bits: wf 0.13.1 | bits: P3 0.8 | bits: proven unique | bits: proven list | policy | result";

const NO_MODEL: &str = "none: the record predates the timing model";
const BELOW: &str = " (below floor)";

/// The estimate cells of a row: cycles (model), ms at its clock, stalls and XIP misses.
fn estimate_cells(r: &Row) -> String {
    let Some(e) = &r.estimate else {
        let emu = r.source == "emulator";
        let none = if emu { NO_MODEL } else { "–" };
        return format!("{none} | – | –");
    };
    let (cycles, model, v) = (grouped(e.cycles), &e.model, e.model_version);
    let (ms, mhz) = (e.ms, e.clock_hz / 1_000_000);
    let (stalls, misses) = (grouped(e.stall_cycles), grouped(e.xip_misses));
    let (accesses, miss_cycles) = (grouped(e.xip_accesses), grouped(e.xip_miss_cycles));
    let split = format!("{stalls} · {misses} of {accesses} ({miss_cycles} cycles)");
    format!("{cycles} ({model} v{v}) | {ms:.2} @ {mhz} MHz | {split}")
}

/// The device and host cells: median cycles, ms at clock, spread; verify and prove ms.
fn measured_cells(r: &Row) -> String {
    let median = dash(r.cycles_median, |v| grouped(v.round() as u64));
    let mhz = r.clock_hz.map_or(0, |c| c / 1_000_000);
    let device_ms = dash(r.device_ms, |v| format!("{v:.2} @ {mhz} MHz"));
    let spread = match (r.cycles_cv, r.cycles_iqr_over_median) {
        (None, None) => "–".into(),
        (a, b) => format!("{} · {} (k={})", dash(a, pct), dash(b, pct), r.iterations),
    };
    let verify = dash(r.verify_ms, |v| format!("{v:.2}"));
    let prove = dash(r.prove_ms, |v| format!("{v:.0}"));
    format!("{median} | {device_ms} | {spread} | {verify} | {prove}")
}

/// Every regime's bits and the policy's figure.
fn security_cells(r: &Row, min_security: u32) -> String {
    let bits_of = r.security_bits;
    let below = if bits_of < min_security { BELOW } else { "" };
    match &r.security {
        Some(s) => {
            let (e, w, p) = (s.ethstark, s.winterfell_conjectured, s.plonky3_conjectured);
            let b = [e, w, p, s.proven_unique, s.proven_list].map(bits);
            let b = b.join(" | ");
            let (regime, min) = (&s.policy_regime, s.policy_min_bits);
            format!("{b} | {regime} ≥ {min}: {bits_of}{below}")
        }
        None => format!("– | – | – | – | – | {bits_of}{below} (the record names no regime)"),
    }
}

pub fn section(rows: &[Row], min_security: u32) -> Section {
    let mut s = Section::new("matrix", "Matrix", "Every row read: one per measured configuration, core and source (the same rows as `table.csv` and `table.json`). Each cost column belongs to one source; “–” = not measured by that source. Rows below the floor or under another policy are shown, never ranked.");
    let mut t = Table::new("", &HEAD.replace("PARAMS", PARAMS_HEAD));
    for r in rows {
        let (source, backend, air, n, core) = (&r.source, &r.backend, &r.air, pow2(r.n), &r.core);
        let (field, ext, hash, params, placement) =
            (&r.field, r.extension, &r.hash, &r.params, &r.placement);
        let heap = r.heap_size.map(|h| format!(", {}", kib(h)));
        let alloc = format!("{}{}", r.allocator, heap.unwrap_or_default());
        let insns = dash(r.instructions, grouped);
        let ratio = dash(r.rv32_m33_ratio, |v| format!("{v:.2}"));
        let ratio = ratio + &dash(r.rv32_m33_est_ratio, |v| format!(" ({v:.2})")).replace('–', "");
        let proofs = match r.proof_spread {
            Some(v) => format!("{} (k={})", pct(v), r.proofs),
            None if r.source == "device" => "–".into(),
            None => format!("one proof (k={})", r.proofs),
        };
        let (heap, stack) = (dash(r.heap_peak, kib), dash(r.stack_peak, kib));
        let proof = kib(r.proof_bytes);
        let tampered = r.tampered.as_ref().map(|tp| format!("; tampered {tp}"));
        let result = format!("{}{}", r.result, tampered.unwrap_or_default());
        let (est, measured) = (estimate_cells(r), measured_cells(r));
        let sec = security_cells(r, min_security);
        t.row(&format!("{source} | {backend} | {field}^{ext} | {air} | {n} | {core} | {hash} | {params} | {placement} | {alloc} | {insns} | {est} | {measured} | {ratio} | {proofs} | {heap} | {stack} | {proof} | {sec} | {result}"));
    }
    t.sortable = true;
    s.tables.push(t);
    s
}

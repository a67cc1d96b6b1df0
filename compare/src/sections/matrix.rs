//! The full matrix: every row with the columns a reader sorts and filters by (sortable and
//! filterable in report.html); every field of every row is in `table.csv` and `table.json`.

use crate::doc::PARAMS_HEAD;
use crate::doc::{bits, dash, grouped, kib, pct, pow2, Section, Table};
use crate::table::Row;

const HEAD: &str = "source | backend^ext AIR n | core, allocator | hash | PARAMS | placement | verify cost: instructions, cycles or host ms | est. ms | heap / stack peak | proof | bits: policy · proven (unique / list) | result";

const BELOW: &str = " (below floor)";

/// The verify cost in the row's own unit: instructions, board cycles (with ms at the clock
/// and the spread over iterations) or host wall-clock ms (with the prove time).
fn cost(r: &Row) -> String {
    match r.source.as_str() {
        "host" => {
            let prove = dash(r.prove_ms, |v| format!("{v:.0}"));
            dash(r.verify_ms, |v| format!("{v:.2} ms (prove {prove} ms)"))
        }
        "device" => {
            let mhz = r.clock_hz.map_or(0, |c| c / 1_000_000);
            let ms = dash(r.device_ms, |v| format!("{v:.2} ms at {mhz} MHz"));
            let spread = dash(r.cycles_cv, pct);
            let median = dash(r.cycles_median, |v| grouped(v.round() as u64));
            format!(
                "{median} {} ({ms}; std/mean {spread}, k={})",
                r.cost_unit(),
                r.iterations
            )
        }
        _ => dash(r.instructions, grouped),
    }
}

/// The policy's bits (marked below the floor) and the proven ones.
fn security(r: &Row, min_security: u32) -> String {
    let below = if r.security_bits < min_security {
        BELOW
    } else {
        ""
    };
    let proven = dash(r.security.as_ref(), |s| {
        format!(" · {} / {}", bits(s.proven_unique), bits(s.proven_list))
    });
    // The regime only when it is not the default one.
    let regime = r.security.as_ref().filter(|_| !r.default_policy());
    let regime = regime.map_or(String::new(), |s| format!("{} ", s.policy_regime));
    format!(
        "{regime}{}{below}{}",
        r.security_bits,
        proven.replace('–', "")
    )
}

pub fn section(rows: &[Row], min_security: u32) -> Section {
    let mut s = Section::new("matrix", "Matrix", "Every row read: one per measured configuration, core and source. Each row's cost is in its source's own unit; “–” = not measured. Rows below the floor or under another policy are shown, never ranked. Here the columns a reader sorts and filters by; `table.csv` and `table.json` have every field of every row (the estimate's cycles, stalls and XIP misses, the device spread, the RV32/M33 ratios, each regime's bits, the proofs behind a row).");
    let mut t = Table::new("", &HEAD.replace("PARAMS", PARAMS_HEAD));
    for r in rows {
        let (source, backend, ext, air, n) =
            (&r.source, &r.backend, r.extension, &r.air, pow2(r.n));
        let (hash, params, placement) = (&r.hash, &r.params, &r.placement);
        let heap = r.heap_size.map(|h| format!(" {} KiB", h / 1024));
        let core = format!("{} {}{}", r.core, r.allocator, heap.unwrap_or_default());
        let est = dash(r.est_ms(), |v| format!("{v:.2}"));
        let memory = crate::sections::answer::memory(r);
        let proof = kib(r.proof_bytes);
        let tampered = r.tampered.as_ref().map(|tp| format!("; tampered {tp}"));
        let result = format!("{}{}", r.result, tampered.unwrap_or_default());
        let (cost, sec) = (cost(r), security(r, min_security));
        t.row(&format!("{source} | {backend}^{ext} {air} {n} | {core} | {hash} | {params} | {placement} | {cost} | {est} | {memory} | {proof} | {sec} | {result}"));
    }
    t.sortable = true;
    s.tables.push(t);
    s
}

//! Security in the report: the five regimes each row's bits are given in, explained once,
//! and the section "Proven >= 100 bits": the configurations whose proven security reaches
//! 100 bits (list decoding up to the Johnson bound, or else unique decoding, as
//! `Regime::Proven` counts it), what they cost on the chip, and what that costs against the
//! conjectured configuration of the same backend. A backend whose rows reach 100 bits only
//! with unique decoding, or not at all, gets a line saying so.

use std::collections::BTreeSet;
use std::fmt::Write;

use crate::human::{grouped, kib, pow2};
use crate::render::{bits, dash, md_table, Table};
use crate::table::{Row, ESTIMATE};

/// The proven-security track's target.
pub const PROVEN_MIN_BITS: f64 = 100.0;

const REGIMES_NOTE: &str = "Each row's record gives its proof's bits under five regimes (`RunRecord.security`, computed by `core/src/security.rs`, which gives each formula and its source): \
**ethSTARK** = the ethSTARK conjecture (ethSTARK documentation, IACR ePrint 2021/582) with the grinding bits counted in full; \
**wf 0.13.1** = winterfell 0.13.1's conjectured rule (`winter-air`, `proof/security.rs`: grinding counts only when the query term alone reaches 80 bits); \
**P3 0.8** = Plonky3 0.8's conjectured security (`p3-uni-stark`, `ConjecturedSecurity`, corrected for the 2025 counterexamples to the up-to-capacity proximity-gap conjectures); \
**proven unique** and **proven list** = proven soundness with unique decoding and with list decoding up to the Johnson bound (winterfell's `proven_security`, Plonky3's `ProvenSecurity`). \
**policy** = the regime and minimum the verifier's policy applied (`strictest`, the default: the lowest of the three conjectured figures), and the bits the record states under it. \
Records written before these figures existed show “–” and their one stated figure.";

/// Proven bits: the better of unique and list decoding.
fn proven_bits(r: &Row) -> Option<f64> {
    r.security
        .as_ref()
        .map(|s| s.proven_unique.max(s.proven_list))
}

fn proven(r: &Row) -> bool {
    proven_bits(r).is_some_and(|b| b >= PROVEN_MIN_BITS)
}

fn ratio(a: Option<f64>, b: Option<f64>) -> String {
    match (a, b) {
        (Some(a), Some(b)) if b > 0.0 => format!("{:.2}x", a / b),
        _ => "–".into(),
    }
}

/// The estimated ms of an emulator row, from its estimate row.
fn est_ms(rows: &[Row], r: &Row) -> Option<f64> {
    rows.iter()
        .find(|e| e.source == ESTIMATE && e.same_run_as(r) && e.proof_bytes == r.proof_bytes)
        .and_then(Row::cost)
}

/// The regimes note and the proven section, as Markdown.
pub fn section(rows: &[Row], min_security: u32) -> String {
    let mut md = format!("## Security regimes\n\n{REGIMES_NOTE}\n\n");
    let _ = writeln!(
        md,
        "## Proven ≥ 100 bits\n\nEmulator runs of proofs with at least {PROVEN_MIN_BITS:.0} bits of proven security (the better of unique decoding and list decoding up to the Johnson bound), next to the conjectured configuration of the same backend, AIR, n, core and allocator (accepted at the {min_security}-bit floor, proven below {PROVEN_MIN_BITS:.0}).\n"
    );
    let mut t = Table::new(&[
        "configuration",
        "core",
        "n",
        "proven bits: unique · list",
        "instructions",
        "estimated ms",
        "heap peak",
        "stack peak",
        "proof bytes",
        "conjectured configuration",
        "× instructions",
        "× estimated ms",
        "× heap peak",
        "× proof size",
    ]);
    let emu = |r: &&Row| r.source == "emulator" && r.accepted();
    for r in rows.iter().filter(emu).filter(|r| proven(r)) {
        let conj = rows.iter().filter(emu).find(|c| {
            !proven(c)
                && c.security_bits >= min_security
                && c.hash == r.hash
                && (&c.backend, &c.air, c.n, &c.core, &c.allocator)
                    == (&r.backend, &r.air, r.n, &r.core, &r.allocator)
        });
        let f = |v: Option<u64>| v.map(|v| v as f64);
        t.rows.push(vec![
            r.config_label(),
            r.core.clone(),
            pow2(r.n),
            r.security.as_ref().map_or("–".into(), |s| {
                format!("{} · {}", bits(s.proven_unique), bits(s.proven_list))
            }),
            dash(r.instructions, grouped),
            dash(est_ms(rows, r), |v| format!("{v:.2}")),
            dash(r.heap_peak, kib),
            dash(r.stack_peak, kib),
            grouped(r.proof_bytes),
            conj.map_or("none measured".into(), |c| {
                format!("{} ({} bits)", c.config_label(), c.security_bits)
            }),
            ratio(f(r.instructions), conj.and_then(|c| f(c.instructions))),
            ratio(est_ms(rows, r), conj.and_then(|c| est_ms(rows, c))),
            ratio(f(r.heap_peak), conj.and_then(|c| f(c.heap_peak))),
            ratio(
                Some(r.proof_bytes as f64),
                conj.map(|c| c.proof_bytes as f64),
            ),
        ]);
    }
    if !t.rows.is_empty() {
        md.push_str(&md_table(&t));
        md.push('\n');
    }
    let backends: BTreeSet<&str> = rows.iter().map(|r| r.backend.as_str()).collect();
    for b in backends {
        let best_list = rows
            .iter()
            .filter(emu)
            .filter(|r| r.backend == b && proven(r))
            .filter_map(|r| r.security.as_ref().map(|s| s.proven_list))
            .reduce(f64::max);
        match best_list {
            Some(l) if l >= PROVEN_MIN_BITS => {}
            Some(l) => {
                let _ = writeln!(
                    md,
                    "- **{b}**: {PROVEN_MIN_BITS:.0} proven bits only with unique decoding; list decoding (Johnson bound) gives at most {} bits in these rows.",
                    bits(l)
                );
            }
            None => {
                let _ = writeln!(md, "- **{b}**: no proven-100 configuration measured.");
            }
        }
    }
    md.push('\n');
    md
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::build_rows;
    use crate::table::tests::{emu, with_estimate, with_security};

    #[test]
    fn proven_rows_against_their_conjectured_configuration() {
        let mut strong = with_security(
            with_estimate(emu("wf-goldilocks", 3, 1024, "m33", 6_000_000), 12_000_000),
            120.0,
            101.5,
        );
        strong.record.proof_bytes = 90_000;
        let rows = build_rows(&[
            strong,
            with_security(
                with_estimate(emu("wf-goldilocks", 2, 1024, "m33", 2_000_000), 4_000_000),
                96.0,
                57.0,
            ),
            with_security(emu("p3-m31", 4, 1024, "m33", 5_000_000), 96.0, 60.0),
        ]);
        let md = section(&rows, 95);
        assert!(md.contains("**ethSTARK**") && md.contains("**proven list**"));
        let line = md
            .lines()
            .find(|l| l.starts_with("| wf-goldilocks^3 | m33 | 2^10 | 50.8 · 101.5 |"))
            .unwrap_or_else(|| panic!("{md}"));
        assert!(
            line.ends_with("| 80.00 | 58.6 KiB | 3.9 KiB | 90\u{202f}000 | wf-goldilocks^2 (96 bits) | 3.00x | 3.00x | 3.00x | 2.25x |"),
            "{line}"
        );
        assert!(md.contains("- **p3-m31**: no proven-100 configuration measured."));
        // 100 bits with unique decoding only: listed, and said.
        let mut e = with_security(emu("p3-babybear", 4, 1024, "m33", 1), 120.0, 62.0);
        e.record.security.as_mut().unwrap().proven_unique = 101.0;
        let md = section(&build_rows(&[e]), 95);
        assert!(
            md.contains("| p3-babybear^4 | m33 | 2^10 | 101 · 62 |"),
            "{md}"
        );
        assert!(md.contains("- **p3-babybear**: 100 proven bits only with unique decoding; list decoding (Johnson bound) gives at most 62 bits in these rows."), "{md}");
        assert!(!md.contains("- **wf-goldilocks**"));
    }
}

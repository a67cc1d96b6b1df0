//! Security in the report: the five regimes each row's bits are given in, explained once,
//! and the section "Proven >= 100 bits": the configurations whose proven security reaches
//! 100 bits (list decoding up to the Johnson bound, or else unique decoding, as
//! `Regime::Proven` counts it), what they cost on the chip, and what that costs against the
//! conjectured configuration of the same backend. A backend whose rows reach 100 bits only
//! with unique decoding, or not at all, gets a line saying so.

use std::collections::BTreeSet;

use crate::doc::{bits, dash, grouped, kib, ms, pow2, times, Section, Table};
use crate::table::Row;

/// The proven-security track's target.
pub const PROVEN_MIN_BITS: f64 = 100.0;

const REGIMES_NOTE: &str = "Each row's record gives its proof's bits under five regimes (`RunRecord.security`, computed by `core/src/security.rs`, which gives each formula and its source): \
**ethSTARK** = the ethSTARK conjecture (ethSTARK documentation, IACR ePrint 2021/582) with the grinding bits counted in full; \
**wf 0.13.1** = winterfell 0.13.1's conjectured rule (`winter-air`, `proof/security.rs`: grinding counts only when the query term alone reaches 80 bits); \
**P3 0.8** = Plonky3 0.8's conjectured security (`p3-uni-stark`, `ConjecturedSecurity`, corrected for the 2025 counterexamples to the up-to-capacity proximity-gap conjectures); \
**proven unique** and **proven list** = proven soundness with unique decoding and with list decoding up to the Johnson bound (winterfell's `proven_security`, Plonky3's `ProvenSecurity`). \
**policy** = the regime and minimum the verifier's policy applied (`strictest`, the default: the lowest of the three conjectured figures), and the bits the record states under it. \
Records written before these figures existed show “–” and their one stated figure.";

/// Whether a row's proven bits (the better of unique and list decoding) reach 100.
fn proven(r: &Row) -> bool {
    let sec = r.security.as_ref();
    sec.is_some_and(|s| s.proven_unique.max(s.proven_list) >= PROVEN_MIN_BITS)
}

/// The regimes note and the proven rows.
pub fn section(rows: &[Row], min_security: u32) -> Section {
    let intro = format!("{REGIMES_NOTE}\n\nEmulator runs of proofs with at least {PROVEN_MIN_BITS:.0} bits of proven security (the better of unique decoding and list decoding up to the Johnson bound), next to the conjectured configuration of the same backend, AIR, n, core and allocator (accepted at the {min_security}-bit floor, proven below {PROVEN_MIN_BITS:.0}).");
    let mut s = Section::new("proven", "Security regimes and proven ≥ 100 bits", intro);
    let mut t = Table::new("", "configuration | core | n | proven bits: unique · list | instructions | estimated ms | heap peak | stack peak | proof bytes | conjectured configuration | × instructions | × estimated ms | × heap peak | × proof size");
    let emu = |r: &&Row| r.source == "emulator" && r.accepted();
    for r in rows.iter().filter(emu).filter(|r| proven(r)) {
        let key = |c: &Row| [&c.backend, &c.air, &c.core, &c.allocator, &c.hash].map(|v| v.clone());
        let key = |c: &Row| (key(c), c.n);
        let same = |c: &&Row| !proven(c) && c.security_bits >= min_security && key(c) == key(r);
        let conj = rows.iter().filter(emu).find(same);
        let x = |f: fn(&Row) -> Option<f64>| times(f(r), conj.and_then(f));
        let insns = x(|r| Some(r.instructions? as f64));
        let heap = x(|r| Some(r.heap_peak? as f64));
        let (est, size) = (x(Row::est_ms), x(|r| Some(r.proof_bytes as f64)));
        let c = conj.map(|c| format!("{} ({} bits)", c.full_label(), c.security_bits));
        let c = c.unwrap_or("none measured".into());
        let sec = r.security.as_ref();
        let pb = dash(sec, |s| {
            format!("{} · {}", bits(s.proven_unique), bits(s.proven_list))
        });
        let (label, core, n) = (r.full_label(), &r.core, pow2(r.n));
        let (i, ms_) = (dash(r.instructions, grouped), dash(r.est_ms(), ms));
        let (hp, sp) = (dash(r.heap_peak, kib), dash(r.stack_peak, kib));
        let bytes = grouped(r.proof_bytes);
        t.row(&format!("{label} | {core} | {n} | {pb} | {i} | {ms_} | {hp} | {sp} | {bytes} | {c} | {insns} | {est} | {heap} | {size}"));
    }
    s.tables.push(t);
    let backends: BTreeSet<&str> = rows.iter().map(|r| r.backend.as_str()).collect();
    for b in backends {
        let mine = rows.iter().filter(emu).filter(|r| r.backend == b);
        let mine = mine.filter(|r| proven(r));
        let best_list = mine.filter_map(|r| Some(r.security.as_ref()?.proven_list));
        let best_list = best_list.reduce(f64::max);
        match best_list {
            Some(l) if l >= PROVEN_MIN_BITS => {}
            Some(l) => s.notes.push(format!("**{b}**: {PROVEN_MIN_BITS:.0} proven bits only with unique decoding; list decoding (Johnson bound) gives at most {} bits in these rows.", bits(l))),
            None => s.notes.push(format!("**{b}**: no proven-100 configuration measured.")),
        }
    }
    s
}

//! The first screen: three answers, each one table with both cores side by side and one
//! chart. Fastest per protocol and field at the default policy (any hash, parameters and
//! placement); the same at equal parameters (one set of query-phase FRI parameters for every
//! protocol, so the difference is the protocol and field, not the tuning); and the fastest
//! with each hash. Every row names its placement, and a row unlike the others says why.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use crate::chart;
use crate::doc::{bits, dash, grouped, kib, ms, pow2, Chart, Section, Table, PARAMS_HEAD};
use crate::table::{fastest, first_per, Row, BLAKE3, XIP};

/// The 128-bit point: 127 bits under the strictest regime is the most a 128-bit hash gives
/// (the ethSTARK and winterfell formulas subtract one bit; `core/src/security.rs`).
pub const BITS_128_POINT: u32 = 127;

pub const CORES: [(&str, &str); 2] = [("m33", "Cortex-M33"), ("rv32", "Hazard3 (RV32)")];

/// The hashes in the order the report lists them, with their names.
/// stwo's own Blake2s is not among them: only stwo-m31 hashes with it, and its rows compete
/// in answer 1 and stand in the circle section.
const HASHES: [(&str, &str); 3] = [
    (BLAKE3, "BLAKE3"),
    ("sha256", "SHA-256 (software)"),
    ("sha256-engine", "SHA-256 engine"),
];

/// The header of [`cells`], as a Markdown header line.
pub const HEAD: &str = "protocol × field | est. ms | bits: strictest | bits: proven unique / list | hash | PARAMS | placement | instructions | heap / stack peak | flash · SRAM | proof";

/// The header of an answer row: one configuration on both cores.
const BOTH_HEAD: &str = "protocol × field | M33 est. ms | Hazard3 est. ms | bits: strictest · proven (unique / list) | hash | PARAMS | placement | heap / stack peak | flash (image) | proof | why this row differs";

/// The rows that compete: emulator runs of Fibonacci with an estimate, ranked at the floor,
/// at the smallest n measured; one per configuration and core (the first in table order).
pub fn candidates(rows: &[Row], min_security: u32) -> (u64, Vec<&Row>) {
    let ok = |r: &&Row| r.source == "emulator" && r.air == "fib" && r.est_ms().is_some();
    let ok = |r: &&Row| ok(r) && r.ranked(min_security);
    let n = rows.iter().filter(ok).map(|r| r.n).min().unwrap_or(0);
    let at_n = rows.iter().filter(ok).filter(|r| r.n == n);
    (n, first_per(at_n, |r| (r.core.clone(), r.full_label())))
}

/// `plonky3 × goldilocks^2`.
fn protocol_field(r: &Row) -> String {
    format!("{} × {}^{}", r.protocol, r.field, r.extension)
}

/// `31 / 61`: proven bits with unique decoding and with list decoding.
fn proven_bits(r: &Row) -> String {
    dash(r.security.as_ref(), |s| {
        format!("{} / {}", bits(s.proven_unique), bits(s.proven_list))
    })
}

/// One row of a table of one core's configurations, as its Markdown line ([`HEAD`]).
pub fn cells(r: &Row) -> String {
    let (est, bits_of, proven) = (dash(r.est_ms(), ms), r.security_bits, proven_bits(r));
    let (hash, params, place) = (&r.hash, &r.params, &r.placement);
    let insns = dash(r.instructions, grouped);
    let flash = dash(r.flash().zip(r.sram()), |(f, s)| {
        format!("{} · {}", kib(f), kib(s))
    });
    let (memory, proof) = (memory(r), kib(r.proof_bytes));
    let pf = protocol_field(r);
    format!("{pf} | {est} | {bits_of} | {proven} | {hash} | {params} | {place} | {insns} | {memory} | {flash} | {proof}")
}

/// `3.6 / 3.9 KiB`: heap and stack peaks.
pub fn memory(r: &Row) -> String {
    match (r.heap_peak, r.stack_peak) {
        (None, None) => "–".into(),
        (h, s) => {
            let k = |v: Option<u64>| dash(v, |v| format!("{:.1}", v as f64 / 1024.0));
            format!("{} / {} KiB", k(h), k(s))
        }
    }
}

/// `HEAD` with the parameters' header, after `first` (e.g. `"PCS | "`).
pub fn head(first: &str) -> String {
    format!("{first}{}", HEAD.replace("PARAMS", PARAMS_HEAD))
}

/// A bar chart of the estimated ms on each core, one group per distinct `key` in row order
/// (or sorted by the first core's figure, fastest first); split when it is tall.
pub fn chart(title: &str, rows: &[&Row], key: &dyn Fn(&Row) -> String, sort: bool) -> Vec<Chart> {
    let group = |r: &Row| {
        let on = |c: &str| rows.iter().find(|o| o.core == c && key(o) == key(r));
        let ms = CORES.map(|c| on(c.0).and_then(|o| o.est_ms()));
        (key(r), ms.to_vec())
    };
    let firsts = first_per(rows.iter().copied(), key);
    let mut groups: Vec<(String, Vec<Option<f64>>)> = firsts.into_iter().map(group).collect();
    if sort {
        let first = |g: &(String, Vec<Option<f64>>)| g.1.iter().flatten().next().copied();
        let first = |g: &(String, Vec<Option<f64>>)| first(g).unwrap_or(f64::MAX);
        groups.sort_by(|a, b| first(a).total_cmp(&first(b)));
    }
    chart::bars(title, UNIT, &CORES.map(|c| c.1), &groups)
}

const UNIT: &str = "estimated ms (RP2350 timing model, 150 MHz); shorter is better";

/// One answer: the chosen configurations on both cores, fastest on the M33 first, with the
/// reason a row differs from the others; `groups` are the rows each was chosen among.
struct Answer<'a> {
    /// One configuration (full label) per chosen row, with the rows it was chosen among.
    chosen: Vec<(&'a Row, Vec<&'a Row>)>,
    /// Every row of the answer's candidates (both cores), for the other core's figure.
    pool: Vec<&'a Row>,
}

impl<'a> Answer<'a> {
    /// For each group (e.g. a protocol and field), its fastest configuration on each core.
    fn new<K: Ord>(pool: Vec<&'a Row>, key: impl Fn(&Row) -> K) -> Self {
        let mut groups: BTreeMap<K, Vec<&Row>> = BTreeMap::new();
        pool.iter()
            .for_each(|r| groups.entry(key(r)).or_default().push(r));
        let mut chosen: Vec<(&Row, Vec<&Row>)> = Vec::new();
        for g in groups.into_values() {
            for (core, _) in CORES {
                let best = fastest(g.iter().copied().filter(|r| r.core == core));
                let new = |b: &&Row| !chosen.iter().any(|c| c.0.full_label() == b.full_label());
                chosen.extend(best.filter(new).map(|b| (b, g.clone())));
            }
        }
        let m33 = |r: &Row| {
            let same = |o: &&&Row| o.core == "m33" && o.full_label() == r.full_label();
            pool.iter()
                .find(same)
                .and_then(|o| o.est_ms())
                .unwrap_or(f64::MAX)
        };
        chosen.sort_by(|x, y| m33(x.0).total_cmp(&m33(y.0)));
        Answer { chosen, pool }
    }

    /// The row of `r`'s configuration on `core`.
    fn on(&self, r: &Row, core: &str) -> Option<&'a Row> {
        let same = |o: &&&Row| o.core == core && o.full_label() == r.full_label();
        self.pool.iter().find(same).copied()
    }

    /// The fastest chosen configuration on `core`, as `label (ms)`.
    fn winner(&self, core: &str) -> String {
        let on = self.chosen.iter().filter_map(|c| self.on(c.0, core));
        let best = fastest(on);
        dash(best, |b| {
            let (pf, h, p) = (protocol_field(b), &b.hash, &b.placement);
            format!("{pf}, {h}, {p}: {} ms", ms(b.est_ms().unwrap_or_default()))
        })
    }

    /// The answer's table, `caption` above it.
    fn table(&self, caption: &str) -> Table {
        let mut t = Table::new(caption, &BOTH_HEAD.replace("PARAMS", PARAMS_HEAD));
        let rows: Vec<&Row> = self.chosen.iter().map(|c| c.0).collect();
        let flashes: Vec<u64> = rows.iter().filter_map(|r| r.flash()).collect();
        let sram_placed = rows.iter().any(|r| !r.placement.starts_with(XIP));
        for (r, group) in &self.chosen {
            let (m33, rv32) = (self.on(r, "m33"), self.on(r, "rv32"));
            let est = |o: Option<&Row>| dash(o.and_then(Row::est_ms), ms);
            let mut why = Vec::new();
            let in_sram = |o: &&Row| !o.placement.starts_with(XIP);
            let same_hash = |o: &&&Row| o.hash == r.hash;
            if sram_placed && !in_sram(r) && !group.iter().filter(same_hash).any(in_sram) {
                why.push("no run with code in SRAM".into());
            }
            // The flash column has the size; the note says why it is large.
            if r.flash().is_some_and(|f| f > 2 * median(&flashes)) {
                let image = r.image.as_deref().map(|i| format!("{i} image"));
                why.push(image.unwrap_or_else(|| "image of every backend".into()));
            }
            for (core, name) in CORES {
                if self.on(r, core).is_none() {
                    why.push(format!("not run on {name}"));
                }
            }
            // The M33 row's figures where there is one (the image and peaks differ per core).
            let r = m33.unwrap_or(r);
            let (pf, bits_of, proven) = (protocol_field(r), r.security_bits, proven_bits(r));
            let (hash, params, place) = (&r.hash, &r.params, &r.placement);
            let (mem, flash, proof) = (memory(r), dash(r.flash(), kib), kib(r.proof_bytes));
            let (m, v, why) = (est(m33), est(rv32), why.join("; "));
            t.row(&format!("{pf} | {m} | {v} | {bits_of} · {proven} | {hash} | {params} | {place} | {mem} | {flash} | {proof} | {why}"));
        }
        t
    }

    /// The answer's chart: one group per row, a bar per core.
    fn chart(&self, title: &str) -> Vec<Chart> {
        let group = |(r, _): &(&Row, Vec<&Row>)| {
            let label = format!("{} {} {}", protocol_field(r), r.hash, r.placement);
            let ms = CORES.map(|(c, _)| self.on(r, c).and_then(Row::est_ms));
            (label, ms.to_vec())
        };
        let groups: Vec<_> = self.chosen.iter().map(group).collect();
        chart::bars(title, UNIT, &CORES.map(|c| c.1), &groups)
    }
}

fn median(v: &[u64]) -> u64 {
    let mut s = v.to_vec();
    s.sort_unstable();
    s.get(s.len() / 2).copied().unwrap_or(u64::MAX)
}

/// The query-phase FRI parameters, which set the conjectured bits: log blowup, queries, PoW
/// bits (folding arity and final length change the cost, not those bits).
type Level = (u8, u16, u8);

fn level(r: &Row) -> Option<Level> {
    r.rec
        .params
        .map(|p| (p.log_blowup, p.num_queries, p.pow_bits))
}

/// The level of query-phase parameters, with its hash and placement, that covers the most
/// protocols and fields (then the most protocols; BLAKE3 and `xip`, the defaults, on a tie),
/// among those measured for more than one protocol: the equal-parameters answer. Levels
/// where fewer meet (e.g. the circle STARKs alone) are the circle section's.
fn equal_parameters<'a>(cands: &[&'a Row]) -> Option<(Level, Vec<&'a Row>)> {
    type Key = (Level, String, String);
    let mut by: BTreeMap<Key, Vec<&Row>> = BTreeMap::new();
    for r in cands {
        if let Some(l) = level(r) {
            by.entry((l, r.hash.clone(), r.placement.clone()))
                .or_default()
                .push(r);
        }
    }
    let covers = |g: &Vec<&Row>| {
        g.iter()
            .map(|r| protocol_field(r))
            .collect::<BTreeSet<_>>()
            .len()
    };
    let protocols = |g: &Vec<&Row>| g.iter().map(|r| &r.protocol).collect::<BTreeSet<_>>().len();
    let rank = |k: &Key, g: &Vec<&Row>| (covers(g), protocols(g), k.1 == BLAKE3, k.2 == XIP);
    by.into_iter()
        .filter(|(_, g)| protocols(g) > 1)
        .max_by(|(a, ga), (b, gb)| rank(a, ga).cmp(&rank(b, gb)).then(b.cmp(a)))
        .map(|(k, g)| (k.0, g))
}

/// The JSON files in `dir`: the membership profiles' parts (`mcu-run profile-parts`), if any.
pub fn profiles(dir: &std::path::Path) -> Vec<Value> {
    let files = std::fs::read_dir(dir).into_iter().flatten().flatten();
    let read = |e: std::fs::DirEntry| serde_json::from_slice(&std::fs::read(e.path()).ok()?).ok();
    files.filter_map(read).collect()
}

/// The three largest parts of the profile made for `r`'s record.
fn dominates(profiles: &[Value], r: &Row) -> Option<String> {
    let p = profiles
        .iter()
        .find(|p| p["committed_record"]["file"] == *r.origin)?;
    let part = |v: &Value| Some((v["share"].as_f64()?, v["part"].as_str()?.replace('_', " ")));
    let mut parts: Vec<(f64, String)> = p["parts"].as_array()?.iter().filter_map(part).collect();
    parts.sort_by(|a, b| b.0.total_cmp(&a.0));
    let shown = parts
        .iter()
        .take(3)
        .map(|(s, n)| format!("{n} {:.0} %", 100.0 * s));
    Some(shown.collect::<Vec<_>>().join(", "))
}

/// Per security level, hash and core, the fastest accepted membership row (the question
/// asked of the real workload), with the largest parts of its profile.
pub fn fastest_membership(rows: &[Row], min_security: u32, profiles: &[Value]) -> Option<Table> {
    let caption = "Fastest protocol × field per security level, hash and core (depth-10 Poseidon2 Merkle path)";
    let head = "level | core | protocol × field | est. ms | bits: strictest | bits: proven unique / list | hash | PARAMS | placement | heap / stack peak | proof | most instructions (profile)";
    let mut t = Table::new(caption, &head.replace("PARAMS", PARAMS_HEAD));
    let floor = (min_security, "default floor");
    for (bits, level) in [floor, (BITS_128_POINT, "128-bit point")] {
        let at = |r: &&Row| r.air == "membership" && r.source == "emulator" && r.accepted();
        let at: Vec<&Row> = rows
            .iter()
            .filter(at)
            .filter(|r| r.security_bits >= bits)
            .collect();
        let hashes: BTreeSet<&str> = at.iter().map(|r| r.hash.as_str()).collect();
        for (hash, (core, name)) in hashes.iter().flat_map(|h| CORES.map(|c| (h, c))) {
            let these = at.iter().filter(|r| r.hash == *hash && r.core == core);
            if let Some(r) = fastest(these.copied()) {
                let level = format!("{level} (≥ {bits})");
                let most = dominates(profiles, r).unwrap_or("–".into());
                let (pf, est, b, pb) = (
                    protocol_field(r),
                    dash(r.est_ms(), ms),
                    r.security_bits,
                    proven_bits(r),
                );
                let (p, place, mem, proof) =
                    (&r.params, &r.placement, memory(r), kib(r.proof_bytes));
                t.row(&format!("{level} | {name} | {pf} | {est} | {b} | {pb} | {hash} | {p} | {place} | {mem} | {proof} | {most}"));
            }
        }
    }
    (!t.rows.is_empty()).then_some(t)
}

/// The note on the membership table's last column, when profiles are there.
pub const PROFILE_NOTE: &str = "“Most instructions”: the largest shares of one verification's instructions by function profile (`mcu-run profile-parts` on re-runs of these configurations, `results/membership/profile/`); leaf and path hashing are split by a compression-count model, and field arithmetic is the extension-field code not inlined into any part.";

pub fn section(rows: &[Row], min_security: u32) -> Section {
    let (n, cands) = candidates(rows, min_security);
    let n = pow2(n);
    let intro = format!("Fibonacci, n = {n}: emulator runs (QEMU's instruction stream through the RP2350 timing model, estimated ms at 150 MHz, `verifier-mcu/TIMING.md`) accepted under the default policy (strictest of three conjectures, at least {min_security} bits). Each row is one configuration on both cores. Placement: `xip` code in flash through the XIP cache, `all-sram` code copied to SRAM at reset, `hot-sram` the hot code only; `one-backend`/`all-backend` name a board image (section “Code placement”).");
    let mut s = Section::new("answer", "Fastest verifier: three answers", intro);
    if cands.is_empty() {
        s.notes.push(format!("No configuration can be ranked: no emulator run with a timing-model estimate was accepted under the default policy at {min_security} bits or more (see the Matrix and “Missing data and warnings”)."));
        return s;
    }
    let by_pf = |r: &Row| (r.protocol.clone(), r.field.clone());
    let any = Answer::new(cands.clone(), by_pf);
    let (m, h) = (any.winner("m33"), any.winner("rv32"));
    let caption = format!("1. Default policy, any hash, parameters and placement. Fastest: Cortex-M33 {m}; Hazard3 {h}");
    s.tables.push(any.table(&caption));
    let title = "1. Default policy: the fastest configuration of each protocol and field";
    s.charts.extend(any.chart(title));
    if let Some((l, g)) = equal_parameters(&cands) {
        let (hash, place) = (&g[0].hash, &g[0].placement);
        let equal = Answer::new(g.clone(), by_pf);
        let (m, h) = (equal.winner("m33"), equal.winner("rv32"));
        let what = format!(
            "blowup 2^{}, {} queries, {} PoW bits for every protocol, {hash}, {place}",
            l.0, l.1, l.2
        );
        let caption = format!("2. Equal parameters: {what}. Fastest: Cortex-M33 {m}; Hazard3 {h}");
        s.tables.push(equal.table(&caption));
        s.charts
            .extend(equal.chart(&format!("2. Equal parameters ({what})")));
    }
    let hash_rank = |r: &Row| {
        HASHES
            .iter()
            .position(|h| h.0 == r.hash)
            .unwrap_or(HASHES.len())
    };
    let listed = |r: &&Row| hash_rank(r) < HASHES.len();
    let mut per_hash = Answer::new(cands.iter().copied().filter(listed).collect(), hash_rank);
    per_hash.chosen.sort_by_key(|c| hash_rank(c.0));
    let caption = "3. Per hash: the fastest configuration with BLAKE3, SHA-256 in software and the RP2350's SHA-256 engine (its cost charged per block by the timing model)";
    s.tables.push(per_hash.table(caption));
    s.charts.extend(hash_chart(&cands));
    if let Some(note) = proven_note(&s.tables) {
        s.notes.push(note);
    }
    s.notes.push("The folding arity and final length (`fold`, `final`) are each protocol's own in answer 2: they change the cost, not the conjectured bits, which the query-phase parameters set. A dash: not measured; the Matrix has every configuration.".into());
    s
}

/// The line explaining the proven-bits column, with the range the answer tables show.
fn proven_note(tables: &[Table]) -> Option<String> {
    let col = tables
        .first()?
        .head
        .iter()
        .position(|h| h.starts_with("bits:"))?;
    let pairs = tables
        .iter()
        .flat_map(|t| t.rows.iter().map(|r| r[col].clone()));
    let pairs: Vec<(f64, f64)> = pairs
        .filter_map(|p| {
            let (u, l) = p.split_once(" · ")?.1.split_once(" / ")?;
            Some((u.parse().ok()?, l.parse().ok()?))
        })
        .collect();
    let range = |v: Vec<f64>| {
        let (lo, hi) = v
            .iter()
            .fold((f64::MAX, f64::MIN), |a, &x| (a.0.min(x), a.1.max(x)));
        if lo == hi {
            bits(lo)
        } else {
            format!("{}–{}", bits(lo), bits(hi))
        }
    };
    let (u, l) = (
        range(pairs.iter().map(|p| p.0).collect()),
        range(pairs.iter().map(|p| p.1).collect()),
    );
    Some(format!("**Proven bits** (after the `·`; unique / list): the soundness proven without the proximity-gap conjectures, {u} bits with unique decoding and {l} with list decoding up to the Johnson bound at these parameters; ranking uses the conjectured (strictest) bits. What each regime counts, and the configurations proven to 100 bits: [Security regimes](#proven)."))
}

/// Per protocol and field and core, the fastest configuration with each hash: one bar per
/// hash.
fn hash_chart(cands: &[&Row]) -> Vec<Chart> {
    let mut groups = Vec::new();
    // Any extension of the field: its fastest.
    let field = |r: &Row| format!("{} × {}", r.protocol, r.field);
    let pfs: BTreeSet<String> = cands.iter().map(|r| field(r)).collect();
    for pf in &pfs {
        for (core, name) in CORES {
            let mine = cands
                .iter()
                .copied()
                .filter(|r| field(r) == *pf && r.core == core);
            let mine: Vec<&Row> = mine.collect();
            let ms = HASHES.map(|(h, _)| {
                fastest(mine.iter().copied().filter(|r| r.hash == h)).and_then(Row::est_ms)
            });
            if ms.iter().any(Option::is_some) {
                let core = name.split(' ').next().unwrap_or(name);
                groups.push((format!("{pf}, {core}"), ms.to_vec()));
            }
        }
    }
    let title = "3. Per hash: the fastest configuration of each protocol and field with each hash, per core";
    chart::bars(title, UNIT, &HASHES.map(|h| h.1), &groups)
}

#[cfg(test)]
mod tests {
    use crate::table::build_rows;
    use crate::table::tests::{emu, with_estimate, with_security};

    #[test]
    fn the_fastest_membership_row_per_level_and_core() {
        let e = |b: &str, ext, core: &str, cycles, bits: u32| {
            let x = with_estimate(emu(b, ext, 16, core, cycles / 2), cycles);
            let mut x = with_security(x, f64::from(bits), 60.0);
            x.record.air = "membership".into();
            x
        };
        let mut rejected = e("p3-babybear", 5, "m33", 1_000_000, 127);
        rejected.record.result = "rejected:verify".into();
        let rows = build_rows(&[
            e("wf-goldilocks", 2, "m33", 6_000_000, 102),
            e("p3-goldilocks", 3, "m33", 8_000_000, 127),
            e("wf-goldilocks", 3, "m33", 9_000_000, 127),
            e("p3-goldilocks", 3, "rv32", 9_500_000, 127),
            // Below the floor and rejected: faster, never the answer.
            e("p3-babybear", 4, "m33", 2_000_000, 90),
            rejected,
        ]);
        let t = super::fastest_membership(&rows, 95, &[]).unwrap();
        let line = |r: &Vec<String>| format!("{} | {} | {} | {}", r[0], r[1], r[2], r[3]);
        let got: Vec<String> = t.rows.iter().map(line).collect();
        let want = [
            "default floor (≥ 95) | Cortex-M33 | winterfell × goldilocks^2 | 40.00",
            "default floor (≥ 95) | Hazard3 (RV32) | plonky3 × goldilocks^3 | 63.33",
            "128-bit point (≥ 127) | Cortex-M33 | plonky3 × goldilocks^3 | 53.33",
            "128-bit point (≥ 127) | Hazard3 (RV32) | plonky3 × goldilocks^3 | 63.33",
        ];
        assert_eq!(got, want);
        // No membership row: no such table.
        let fib = build_rows(&[with_estimate(emu("p3-m31", 4, 16, "m33", 1), 2)]);
        assert!(super::fastest_membership(&fib, 95, &[]).is_none());
    }
}

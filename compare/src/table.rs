//! The report matrix: one row per measured configuration (backend x field x extension x AIR
//! x n x core x source), with the derived figures (device median, spread, ms at the device
//! clock, RV32/M33 ratios) and the CSV / JSON forms of the table.
//!
//! Each row keeps its own source. Verify cost is in the unit its source measures: guest
//! instructions (emulator; the RP2350 timing model's estimate of the same run, when the
//! record has one, is in the same row), cycles (device) or wall-clock ms (host); rows of
//! different sources are never combined, and the RV32/M33 ratios pair rows of one source.

use std::collections::{BTreeMap, BTreeSet};

use picostark_core::record::RunRecord;
use picostark_core::{BackendId, Policy};
use serde::Serialize;

use crate::input::{Entry, TABLE_KIND};
use crate::stats;

/// One row of the matrix: the input record (its fields flattened into the row's JSON, read
/// through `Deref`) and the figures derived from it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    #[serde(flatten)]
    pub rec: RunRecord,
    /// `plonky3`, `winterfell`, or `unknown` for a backend id this build does not know.
    pub protocol: String,
    /// The verifier's hash as measured: `blake3`, `sha256` (software) or `sha256-engine`
    /// (the RP2350 engine: on a board, or charged by the timing model; [`hash_of`]).
    pub hash: String,
    /// The record's FRI parameters as shown, `blowup / queries / fold / final / PoW`
    /// ([`crate::doc::compact`]; `–` when the record names none). Not in the JSON: the
    /// record's own `params` is.
    #[serde(skip)]
    pub params: String,
    /// The record's code placement as shown: its `placement` (`host` on the host, `xip` when
    /// absent) and for a board image which image (`hot-sram one-backend`). Not in the JSON:
    /// the record's own `placement` and `image` are.
    #[serde(skip)]
    pub placement: String,
    /// Device: the tampered copy's result.
    pub tampered: Option<String>,
    /// Device: median cycles over the iterations, that median / clock in ms, std / mean and
    /// IQR / median of the cycles.
    pub cycles_median: Option<f64>,
    pub device_ms: Option<f64>,
    pub cycles_cv: Option<f64>,
    pub cycles_iqr_over_median: Option<f64>,
    /// Cost on rv32 / cost on m33, same source and configuration; and the same of the
    /// estimated ms (emulator rows with an estimate).
    pub rv32_m33_ratio: Option<f64>,
    pub rv32_m33_est_ratio: Option<f64>,
    /// How many proofs of this configuration the row stands for (provers are not
    /// deterministic, so two proofs of one statement differ in size and verify cost).
    pub proofs: u32,
    /// (max - min) / median of the cost over those proofs, when there are several.
    pub proof_spread: Option<f64>,
    /// The input file.
    pub origin: String,
}

impl std::ops::Deref for Row {
    type Target = RunRecord;
    fn deref(&self) -> &RunRecord {
        &self.rec
    }
}

impl Row {
    /// The verify cost in this row's own unit: instructions (emulator), median cycles
    /// (device) or ms (host).
    pub fn cost(&self) -> Option<f64> {
        match self.source.as_str() {
            "emulator" => self.instructions.map(|v| v as f64),
            "host" => self.verify_ms,
            _ => self.cycles_median,
        }
    }

    /// The unit of [`Row::cost`].
    pub fn cost_unit(&self) -> &'static str {
        match self.source.as_str() {
            "emulator" => "instructions",
            "host" => "ms (host wall clock)",
            _ => "cycles",
        }
    }

    pub fn accepted(&self) -> bool {
        self.result == "accepted"
    }

    /// Verified under the default policy (records without security figures predate other
    /// policies).
    pub fn default_policy(&self) -> bool {
        let default = Policy::default().regime.name();
        let regime = self.security.as_ref().map(|s| &s.policy_regime);
        regime.is_none_or(|r| r == default)
    }

    /// Accepted, at or above the floor, under the default policy: may be ranked.
    pub fn ranked(&self, min_security: u32) -> bool {
        self.accepted() && self.security_bits >= min_security && self.default_policy()
    }

    /// The timing model's estimated ms, on emulator rows whose record has one.
    pub fn est_ms(&self) -> Option<f64> {
        self.estimate.as_ref().map(|e| e.ms)
    }

    /// Flash bytes of the image (`.text` + `.data`'s initial values).
    pub fn flash(&self) -> Option<u64> {
        Some(self.text_bytes? + self.data_bytes.unwrap_or(0))
    }

    /// Static SRAM bytes (`.data` + `.bss`, the heap arena included).
    pub fn sram(&self) -> Option<u64> {
        Some(self.bss_bytes? + self.data_bytes.unwrap_or(0))
    }

    /// The configuration named in full, as every section shows it:
    /// `p3-babybear^4 blake3 xip [2^6 / 14 / 2^4 / 2^2 / 20]`, with the AIR unless it is
    /// Fibonacci and the policy unless it is the default one. Rows are paired and merged on
    /// it: one label, one configuration.
    pub fn full_label(&self) -> String {
        let air = Some(format!(" {}", self.air)).filter(|_| self.air != "fib");
        let air = air.unwrap_or_default();
        let other = self.security.as_ref().filter(|_| !self.default_policy());
        let policy = other.map(|s| format!(" ({} ≥ {})", s.policy_regime, s.policy_min_bits));
        let policy = policy.unwrap_or_default();
        let (b, e, h) = (&self.backend, self.extension, &self.hash);
        let (p, q) = (&self.placement, &self.params);
        format!("{b}^{e}{air} {h} {p} [{q}]{policy}")
    }

    /// `log2 n` (n is a power of two for every AIR here).
    pub fn log_n(&self) -> u32 {
        self.n.max(1).ilog2()
    }
}

/// The row with the fewest estimated ms (rows without an estimate never; the first of equals).
pub fn fastest<'a>(rows: impl IntoIterator<Item = &'a Row>) -> Option<&'a Row> {
    let timed = rows.into_iter().filter_map(|r| Some((r.est_ms()?, r)));
    timed.min_by(|a, b| a.0.total_cmp(&b.0)).map(|(_, r)| r)
}

/// The first row of each distinct `key`, in row order.
pub fn first_per<'a, K: PartialEq>(
    rows: impl IntoIterator<Item = &'a Row>,
    key: impl Fn(&Row) -> K,
) -> Vec<&'a Row> {
    let (mut seen, mut out) = (Vec::new(), Vec::new());
    for r in rows {
        if !seen.contains(&key(r)) {
            seen.push(key(r));
            out.push(r);
        }
    }
    out
}

/// The default placement: code in flash, read through the XIP cache.
pub const XIP: &str = "xip";

/// The hash of the default rows (and of records written before `hash_impl` existed).
pub const BLAKE3: &str = "blake3";

/// A record's hash as measured: the engine when the timing model charged it (or a board ran
/// it), else the implementation that ran.
pub fn hash_of(r: &RunRecord) -> String {
    let engine = r.estimate.as_ref().map(|e| &e.sha256_engine);
    let charged = engine.is_some_and(Option::is_some);
    match r.hash_impl.as_deref() {
        _ if charged => "sha256-engine",
        Some("sha256-engine") => "sha256-engine",
        Some("sha256-software") => "sha256",
        // stwo's own channel (stwo-m31).
        Some("blake2s-software") => "blake2s",
        _ => BLAKE3,
    }
    .into()
}

fn row_from(e: &Entry) -> Row {
    let r = &e.record;
    let cycles: Vec<f64> = r.cycles.iter().map(|&c| c as f64).collect();
    let cycles_median = stats::median(&cycles);
    let hz = r.clock_hz.filter(|&hz| hz > 0);
    let device_ms = cycles_median.zip(hz).map(|(c, hz)| c / hz as f64 * 1e3);
    let protocol = BackendId::from_name(&r.backend).map_or("unknown", |b| b.protocol());
    // The placement as shown (`Row::placement`).
    let host = (r.source == "host").then_some("host");
    let place = r.placement.as_deref().or(host).unwrap_or(XIP);
    let image = |i: &String| format!("{place} {i}");
    let placement = r.image.as_ref().map_or(place.into(), image);
    Row {
        protocol: protocol.into(),
        hash: hash_of(r),
        params: r.params.as_ref().map_or("–".into(), crate::doc::compact),
        placement,
        tampered: e.tampered.clone(),
        cycles_median,
        device_ms,
        cycles_cv: stats::cv(&cycles),
        cycles_iqr_over_median: stats::iqr_over_median(&cycles),
        rv32_m33_ratio: None,
        rv32_m33_est_ratio: None,
        proofs: 1,
        proof_spread: None,
        origin: e.origin.clone(),
        rec: r.clone(),
    }
}

/// The position of `v` in `order` (unlisted values last).
fn rank(order: &[&str], v: &str) -> usize {
    order.iter().position(|o| *o == v).unwrap_or(order.len())
}

/// Emulator and host rows of the same configuration (several proofs of one statement)
/// become one row: the row of the median-cost proof (lower median), with the number of
/// proofs and their cost range over the median. Device rows are never merged: each board run
/// already aggregates its iterations.
fn merge_proofs(rows: Vec<Row>) -> Vec<Row> {
    let mut groups: Vec<(String, Vec<Row>)> = Vec::new();
    for r in rows {
        let (s, c, b, a, res) = (&r.source, &r.core, &r.board, &r.allocator, &r.result);
        let (n, heap, label) = (r.n, r.heap_size, r.full_label());
        let k = format!("{s} {c} {b} {a} {res} {n} {heap:?} {label}");
        let device = r.source == "device";
        match groups.iter_mut().find(|(g, _)| *g == k && !device) {
            Some((_, v)) => v.push(r),
            None => groups.push((k, vec![r])),
        }
    }
    let median = |(_, mut g): (String, Vec<Row>)| {
        g.sort_by(|a, b| a.cost().unwrap_or(0.0).total_cmp(&b.cost().unwrap_or(0.0)));
        let costs: Vec<f64> = g.iter().filter_map(Row::cost).collect();
        let n = g.len();
        let mut row = g.swap_remove((n - 1) / 2);
        row.proofs = n as u32;
        let range = costs.first().zip(costs.last());
        let range = range.filter(|_| n > 1 && costs.len() == n);
        let m = stats::median(&costs).filter(|&m| m > 0.0);
        row.proof_spread = range.zip(m).map(|((lo, hi), m)| (hi - lo) / m);
        row
    };
    groups.into_iter().map(median).collect()
}

/// Builds the sorted rows (by AIR, n, backend, extension, core, source) with the ratios
/// filled.
pub fn build_rows(entries: &[Entry]) -> Vec<Row> {
    let mut rows = merge_proofs(entries.iter().map(row_from).collect());
    rows.sort_by_cached_key(|r| {
        let core = rank(&["m33", "rv32"], &r.core);
        let source = rank(&["device", "emulator", "host"], &r.source);
        let (air, backend, alloc) = (r.air.clone(), r.backend.clone(), r.allocator.clone());
        (air, r.n, backend, r.extension, core, source, alloc)
    });
    let ratio = |row: &Row, cost: fn(&Row) -> Option<f64>| {
        let find = |core: &str| {
            let key = |r: &Row| (r.source.clone(), r.full_label(), r.n, r.allocator.clone());
            let same = |o: &&Row| o.core == core && key(o) == key(row) && o.accepted();
            rows.iter().find(same).and_then(cost)
        };
        let pair = row.source != "host" && (row.core == "m33" || row.core == "rv32");
        match (find("rv32"), find("m33")) {
            (Some(rv), Some(m)) if pair && m > 0.0 => Some(rv / m),
            _ => None,
        }
    };
    let both = |r: &Row| (ratio(r, Row::cost), ratio(r, Row::est_ms));
    let ratios: Vec<_> = rows.iter().map(both).collect();
    for (row, (cost, est)) in rows.iter_mut().zip(ratios) {
        (row.rv32_m33_ratio, row.rv32_m33_est_ratio) = (cost, est);
    }
    rows
}

/// An estimated emulator row next to a device run of the same configuration and core, and
/// the estimate's error relative to the device median: `(estimate, device, (est - dev) /
/// dev)`.
pub fn estimate_vs_device<'a>(rows: &'a [Row]) -> Vec<(&'a Row, &'a Row, f64)> {
    let devices = rows.iter().filter(|d| d.source == "device" && d.accepted());
    let pair = |d: &'a Row| {
        // Same configuration, n, core and allocator: an estimate of the device's run.
        let run = |r: &Row| (r.full_label(), r.n, r.core.clone(), r.allocator.clone());
        let estimated = |e: &&Row| e.source == "emulator" && e.accepted() && run(e) == run(d);
        let estimated = |e: &&Row| estimated(e) && e.estimate.is_some();
        let e = rows.iter().find(estimated)?;
        let dev = d.cycles_median.filter(|&c| c > 0.0)?;
        Some((e, d, (e.estimate.as_ref()?.cycles as f64 - dev) / dev))
    };
    devices.filter_map(pair).collect()
}

/// The CSV's first columns; the others follow in name order.
const CSV_FIRST: &str = "source backend field extension air n core hash placement image";

/// `v` as flat CSV cells: nested objects give `outer_inner` columns, lists one cell of
/// space-separated values, null an empty cell.
fn flatten(prefix: &str, v: &serde_json::Value, out: &mut BTreeMap<String, String>) {
    use serde_json::Value::*;
    let cell = match v {
        Object(m) => {
            for (k, v) in m {
                let key = format!("{prefix}_{k}");
                flatten(key.trim_start_matches('_'), v, out);
            }
            return;
        }
        Array(a) => a.iter().map(|x| x.to_string() + " ").collect(),
        String(s) => s.clone(),
        Null => Default::default(),
        other => other.to_string(),
    };
    out.insert(prefix.into(), cell.trim_end().into());
}

/// The table as CSV: every field of a row's JSON, one column each.
pub fn to_csv(rows: &[Row]) -> String {
    let flat = |r: &Row| {
        let mut c = BTreeMap::new();
        let v = serde_json::to_value(r).expect("rows serialise");
        flatten("", &v, &mut c);
        c
    };
    let cells: Vec<BTreeMap<String, String>> = rows.iter().map(flat).collect();
    let first: Vec<&str> = CSV_FIRST.split(' ').collect();
    let others: BTreeSet<&String> = cells.iter().flat_map(|c| c.keys()).collect();
    let mut head = first.clone();
    let others = others.iter().map(|h| h.as_str());
    head.extend(others.filter(|h| !first.contains(h)));
    let quote = |s: &String| match s.contains([',', '"', '\n']) {
        true => format!("\"{}\"", s.replace('"', "\"\"")),
        false => s.clone(),
    };
    let mut out = head.join(",") + "\n";
    for c in &cells {
        let cell = |h: &&str| c.get(*h).map(quote).unwrap_or_default();
        let line: Vec<String> = head.iter().map(cell).collect();
        out += &(line.join(",") + "\n");
    }
    out
}

/// The table as JSON: `{"kind": "picostark-compare-table", "units": {...}, "rows": [...]}`.
pub fn to_json(rows: &[Row]) -> String {
    let v = serde_json::json!({
        "kind": TABLE_KIND,
        "units": {
            "instructions": "guest instructions of one parse + verify, QEMU TCG plugin (emulator rows)",
            "estimate": "RP2350 timing model run over the emulator's executed instruction stream: estimated cycles, ms at clock_hz, stall and XIP-miss cycles (a model's output, not a measurement)",
            "cycles_median": "median cycles over the genuine iterations, board counter (device rows only)",
            "device_ms": "cycles_median / clock_hz * 1000 (device rows only)",
            "verify_ms": "wall clock on the host (host rows only)",
            "heap_peak": "bytes", "stack_peak": "bytes", "proof_bytes": "bytes",
            "security_bits": "the record's policy figure",
            "security": "bits under each regime (core/src/security.rs)",
            "rv32_m33_ratio": "cost on rv32 / cost on m33, same source and configuration; rv32_m33_est_ratio: the same of the estimated ms",
            "proofs": "proofs of this configuration behind the row (the row is the median-cost one)",
            "proof_spread": "(max - min) / median cost over those proofs",
            "params": "the proof header's FRI parameters (log2 blowup, queries, PoW bits, log2 folding arity, log2 final length)",
            "placement": "xip: code in flash through the XIP cache; xip-ordered: the hot set together in flash; hot-sram: the hot set in SRAM; all-sram: code and read-only data in SRAM; +proof-sram: the embedded proof copied to SRAM at reset, as a proof received over a link would be",
            "image": "board images: one-backend or all-backend",
        },
        "rows": rows,
    });
    serde_json::to_string_pretty(&v).expect("rows serialise")
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use picostark_core::record::{CycleEstimate, SecurityFigures};

    pub fn emu(backend: &str, ext: u8, n: u64, core: &str, insns: u64) -> Entry {
        let json = include_str!("../testdata/emulator-record.json");
        let mut r: RunRecord = serde_json::from_str(json).unwrap();
        let field = BackendId::from_name(backend).map_or("?", |b| b.field().name());
        (r.backend, r.field) = (backend.into(), field.into());
        (r.extension, r.n, r.core) = (ext, n, core.into());
        (r.board, r.instructions) = (format!("qemu-{core}"), Some(insns));
        (r.proof_bytes, r.security_bits) = (40_000, 96);
        r.heap_peak = Some(insns / 100);
        // Each backend's default folding and final length (the rest is the fixture's).
        let p = r.params.as_mut().expect("the fixture names its parameters");
        (p.log_fold_arity, p.log_final_poly_len) = match backend {
            "p3-m31" => picostark_core::CirclePcsKind::UPSTREAM_FOLDING,
            b if b.starts_with("wf-") => (3, 5),
            _ => (4, 2),
        };
        let mut e = Entry::default();
        (e.record, e.origin) = (r, "fixture".into());
        e
    }

    /// `e` with a timing-model estimate of `cycles` at 150 MHz (a fixture, not a model run).
    pub fn with_estimate(mut e: Entry, cycles: u64) -> Entry {
        let mut est = CycleEstimate::default();
        (est.model, est.model_version) = (format!("rp2350-{}", e.record.core), 1);
        (est.cycles, est.clock_hz, est.xip_misses) = (cycles, 150_000_000, cycles / 1000);
        est.ms = cycles as f64 / 150e6 * 1e3;
        e.record.estimate = Some(est);
        e
    }

    /// `e` with every regime's bits, `conjectured` (rounded down) the policy's figure.
    pub fn with_security(mut e: Entry, conjectured: f64, proven_list: f64) -> Entry {
        e.record.security_bits = conjectured as u32;
        let mut s = SecurityFigures::default();
        (s.ethstark, s.winterfell_conjectured) = (conjectured + 2.0, conjectured + 1.0);
        (s.plonky3_conjectured, s.proven_unique) = (conjectured, proven_list / 2.0);
        (s.proven_list, s.policy_regime, s.policy_min_bits) = (proven_list, "strictest".into(), 95);
        e.record.security = Some(s);
        e
    }

    pub fn dev(backend: &str, n: u64, core: &str, cycles: &[u64]) -> Entry {
        let mut e = emu(backend, 4, n, core, 0);
        let r = &mut e.record;
        (r.source, r.board, r.instructions) = ("device".into(), "rp2350".into(), None);
        (r.cycles, r.clock_hz) = (cycles.to_vec(), Some(150_000_000));
        e.tampered = Some("rejected:rejected".into());
        e
    }

    const BB: &str = "p3-babybear";

    fn get<'a>(rows: &'a [Row], src: &str, b: &str, core: &str) -> &'a Row {
        let this = |r: &&Row| r.source == src && r.backend == b && r.core == core;
        rows.iter().find(this).unwrap()
    }

    #[test]
    fn ratios_pair_same_source_only_device_figures_and_the_estimate_error() {
        let rows = build_rows(&[
            with_estimate(emu(BB, 4, 1024, "m33", 1_000_000), 3_000_000),
            with_estimate(emu(BB, 4, 1024, "rv32", 1_500_000), 3_300_000),
            dev(BB, 1024, "m33", &[2_000_000, 2_000_010, 1_999_990]),
            // No device rv32 row: the device m33 row must not pair with the emulator.
            emu("p3-m31", 4, 1024, "m33", 800_000),
            // A device run without an estimate of its configuration pairs with nothing.
            dev("p3-m31", 1024, "m33", &[1, 1]),
        ]);
        for core in ["m33", "rv32"] {
            let e = get(&rows, "emulator", BB, core);
            assert_eq!(e.rv32_m33_ratio, Some(1.5), "instructions");
            let est = e.rv32_m33_est_ratio.unwrap();
            assert!((est - 1.1).abs() < 1e-12, "estimated ms");
        }
        let d = get(&rows, "device", BB, "m33");
        assert_eq!(d.rv32_m33_ratio, None);
        assert_eq!(get(&rows, "emulator", "p3-m31", "m33").rv32_m33_ratio, None);
        assert_eq!(d.cycles_median, Some(2_000_000.0));
        assert!((d.device_ms.unwrap() - 2_000_000.0 / 150e6 * 1e3).abs() < 1e-9);
        assert!(d.cycles_cv.unwrap() > 0.0 && d.cycles_cv.unwrap() < 1e-5);
        assert_eq!(d.cost_unit(), "cycles");
        // Sorted: device before emulator within the same configuration and core.
        assert_eq!(rows[0].source, "device");
        // The estimate against the device median: (3.0 M - 2.0 M) / 2.0 M.
        let pairs = estimate_vs_device(&rows);
        assert_eq!(pairs.len(), 1);
        let (e, d, err) = pairs[0];
        let got = [&e.source, &d.source, &err.to_string()];
        assert_eq!(got, ["emulator", "device", "0.5"]);
    }

    #[test]
    fn several_proofs_become_one_median_row() {
        let proof = |insns, bytes| {
            let mut e = emu("p3-m31", 4, 1024, "m33", insns);
            e.record.proof_bytes = bytes;
            e
        };
        let rows = build_rows(&[
            proof(1_000, 1),
            proof(1_100, 2),
            proof(1_050, 3),
            emu("p3-m31", 4, 1024, "rv32", 2_100),
            dev("p3-m31", 1024, "m33", &[5]),
            dev("p3-m31", 1024, "m33", &[6]),
        ]);
        // Three emulator m33 rows merge; device rows never do.
        assert_eq!(rows.len(), 4);
        let m = get(&rows, "emulator", "p3-m31", "m33");
        // The median proof's own figures.
        let got = (m.instructions, m.proof_bytes, m.proofs);
        assert_eq!(got, (Some(1_050), 3, 3));
        assert!((m.proof_spread.unwrap() - 100.0 / 1050.0).abs() < 1e-12);
        assert_eq!(m.rv32_m33_ratio, Some(2.0));
        let rv = get(&rows, "emulator", "p3-m31", "rv32");
        assert_eq!((rv.proofs, rv.proof_spread), (1, None));
    }

    #[test]
    fn another_policy_is_another_configuration() {
        let proven = |core: &str, insns: u64| {
            let mut e = with_security(emu(BB, 4, 1024, core, insns), 105.0, 65.0);
            let s = e.record.security.as_mut().unwrap();
            (s.policy_regime, s.policy_min_bits) = ("proven".into(), 100);
            e
        };
        let rows = build_rows(&[
            emu(BB, 4, 1024, "m33", 1_000),
            emu(BB, 4, 1024, "rv32", 1_500),
            proven("m33", 4_000),
            proven("rv32", 4_400),
        ]);
        assert_eq!(rows.len(), 4, "not merged as proofs of one configuration");
        let label = "p3-babybear^4 blake3 xip [2^6 / 14 / 2^4 / 2^2 / 20]";
        let ratio = |l: &str| {
            let rv32 = |r: &&Row| r.full_label() == l && r.core == "rv32";
            rows.iter().find(rv32).unwrap().rv32_m33_ratio.unwrap()
        };
        assert_eq!(ratio(label), 1.5);
        assert!((ratio(&format!("{label} (proven ≥ 100)")) - 1.1).abs() < 1e-12);
    }

    #[test]
    fn csv_has_every_field_quoted_and_json_its_kind() {
        let mut e = emu(BB, 4, 1024, "m33", 10);
        e.record.toolchain = "rustc 1.95.0 (a, b)".into();
        let e = with_security(with_estimate(e, 15_000_000), 95.0, 57.5);
        let csv = to_csv(&build_rows(&[e]));
        let lines: Vec<&str> = csv.lines().collect();
        // One row per measured configuration: the estimate is in it.
        assert_eq!(lines.len(), 2);
        assert!(lines[1].contains("\"rustc 1.95.0 (a, b)\""));
        let start = "emulator,p3-babybear,babybear,4,fib,1024,m33,blake3,xip,,";
        assert!(lines[1].starts_with(start), "{}", lines[1]);
        let head: Vec<&str> = lines[0].split(',').collect();
        let col = |name: &str| head.iter().position(|h| *h == name).unwrap();
        let cells = "estimate_ms=100.0 estimate_model=rp2350-m33 heap_peak=0 security_proven_list=57.5 security_ethstark=97.0 tampered= instructions=10 params_log_blowup=6 params_log_fold_arity=4";
        for (name, v) in cells.split(' ').filter_map(|c| c.split_once('=')) {
            assert_eq!(lines[1].split(',').nth(col(name)), Some(v), "{name}");
        }
        let json: serde_json::Value = serde_json::from_str(&to_json(&build_rows(&[]))).unwrap();
        assert_eq!(json["kind"], TABLE_KIND);
    }
}

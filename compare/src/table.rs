//! The report matrix: one row per input record (backend x field x extension x AIR x n x
//! core x source), with the derived figures (device median, spread, ms at the device clock,
//! RV32/M33 ratio) and the CSV / JSON forms of the table.
//!
//! Each row keeps its own source. Verify cost is in the unit its source measures: guest
//! instructions (emulator), estimated ms on the RP2350 (estimate: the timing model's output
//! for an emulator run, one `estimate` row next to each emulator row whose record has one),
//! cycles (device) or wall-clock ms (host); rows of different sources are never combined,
//! and the RV32/M33 ratio pairs rows of one source only.

use picostark_core::record::{CycleEstimate, InstructionClasses, RunRecord, SecurityFigures};
use picostark_core::{BackendId, Policy};
use serde::Serialize;

use crate::input::{Entry, TABLE_KIND};
use crate::stats;

/// The source of the rows derived from emulator records that carry a timing-model estimate.
pub const ESTIMATE: &str = "estimate";

/// One row of the matrix: the input record (its fields flattened into the row's JSON, read
/// through `Deref`) and the figures derived from it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    /// The record; `source` is `estimate` on an [`ESTIMATE`] row.
    #[serde(flatten)]
    pub rec: RunRecord,
    /// `plonky3`, `winterfell`, or `unknown` for a backend id this build does not know.
    pub protocol: String,
    /// The verifier's hash as measured: `blake3`, `sha256` (software) or `sha256-engine`
    /// (the RP2350 engine: on a board, or charged by the timing model; [`hash_of`]).
    pub hash: String,
    /// FRI parameters, `blowup / queries / fold / final / PoW` ([`crate::params`]).
    pub params: String,
    /// Where the verifier's code ran: `xip` (flash through the XIP cache), `all-sram` (code
    /// and read-only data copied to SRAM, firmware feature `code-in-ram`), a record's own
    /// `placement=NAME` profile entry, or `host`.
    pub placement: String,
    /// Device: the tampered copy's result.
    pub tampered: Option<String>,
    /// Device: median cycles over the iterations, that median / clock in ms, std / mean and
    /// IQR / median of the cycles.
    pub cycles_median: Option<f64>,
    pub device_ms: Option<f64>,
    pub cycles_cv: Option<f64>,
    pub cycles_iqr_over_median: Option<f64>,
    /// Cost on rv32 / cost on m33, same source and configuration.
    pub rv32_m33_ratio: Option<f64>,
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
    /// The verify cost in this row's own unit: instructions (emulator), estimated ms
    /// (estimate), median cycles (device) or ms (host).
    pub fn cost(&self) -> Option<f64> {
        match self.source.as_str() {
            "emulator" => self.instructions.map(|v| v as f64),
            ESTIMATE => self.estimate.as_ref().map(|e| e.ms),
            "host" => self.verify_ms,
            _ => self.cycles_median,
        }
    }

    /// The unit of [`Row::cost`].
    pub fn cost_unit(&self) -> &'static str {
        match self.source.as_str() {
            "emulator" => "instructions",
            ESTIMATE => "ms (estimated)",
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
        self.security
            .as_ref()
            .is_none_or(|s| s.policy_regime == Policy::default().regime.name())
    }

    /// Accepted, at or above the floor, under the default policy: may be ranked.
    pub fn ranked(&self, min_security: u32) -> bool {
        self.accepted() && self.security_bits >= min_security && self.default_policy()
    }

    /// The timing model's estimated ms, on emulator and estimate rows that have one.
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
        let air = if self.air == "fib" {
            String::new()
        } else {
            format!(" {}", self.air)
        };
        let policy = match &self.security {
            Some(s) if !self.default_policy() => {
                format!(" ({} ≥ {})", s.policy_regime, s.policy_min_bits)
            }
            _ => String::new(),
        };
        let (b, e, h, p, q) = (
            &self.backend,
            self.extension,
            &self.hash,
            &self.placement,
            &self.params,
        );
        format!("{b}^{e}{air} {h} {p} [{q}]{policy}")
    }

    /// The configuration without the core: what an RV32/M33 ratio pairs on.
    fn pair_key(&self) -> (&str, String, u64, &str) {
        (&self.source, self.full_label(), self.n, &self.allocator)
    }

    /// Same configuration, n, core and allocator: what an estimate and a device run of one
    /// configuration share.
    pub fn same_run_as(&self, o: &Row) -> bool {
        (self.full_label(), self.n, &self.core, &self.allocator)
            == (o.full_label(), o.n, &o.core, &o.allocator)
    }

    /// `log2 n` (n is a power of two for every AIR here).
    pub fn log_n(&self) -> u32 {
        self.n.max(1).ilog2()
    }
}

/// What a record's profile says when its firmware ran code and read-only data from SRAM
/// (feature `code-in-ram`).
pub const CODE_IN_SRAM: &str = "code=sram";

/// The default placement: code in flash, read through the XIP cache.
pub const XIP: &str = "xip";

/// A record's code placement ([`Row::placement`]).
pub fn placement_of(r: &RunRecord) -> String {
    if let Some(p) = r
        .profile
        .split_whitespace()
        .find_map(|t| t.strip_prefix("placement="))
    {
        return p.into();
    }
    match (r.source.as_str(), r.profile.contains(CODE_IN_SRAM)) {
        ("host", _) => "host",
        (_, true) => "all-sram",
        _ => XIP,
    }
    .into()
}

/// The hash of the default rows (and of records written before `hash_impl` existed).
pub const BLAKE3: &str = "blake3";

/// A record's hash as measured: the engine when the timing model charged it (or a board ran
/// it), else the implementation that ran.
pub fn hash_of(r: &RunRecord) -> String {
    let charged = r
        .estimate
        .as_ref()
        .is_some_and(|e| e.sha256_engine.is_some());
    match r.hash_impl.as_deref() {
        _ if charged => "sha256-engine",
        Some("sha256-engine") => "sha256-engine",
        Some("sha256-software") => "sha256",
        _ => BLAKE3,
    }
    .into()
}

fn row_from(e: &Entry) -> Row {
    let r: &RunRecord = &e.record;
    let cycles: Vec<f64> = r.cycles.iter().map(|&c| c as f64).collect();
    let cycles_median = stats::median(&cycles);
    Row {
        protocol: BackendId::from_name(&r.backend)
            .map_or("unknown", |b| b.protocol())
            .to_string(),
        hash: hash_of(r),
        params: crate::params::compact(&crate::params::of_record(&r.backend, &e.origin)),
        placement: placement_of(r),
        tampered: e.tampered.clone(),
        cycles_median,
        device_ms: match (cycles_median, r.clock_hz) {
            (Some(c), Some(hz)) if hz > 0 => Some(c / hz as f64 * 1e3),
            _ => None,
        },
        cycles_cv: stats::cv(&cycles),
        cycles_iqr_over_median: stats::iqr_over_median(&cycles),
        rv32_m33_ratio: None,
        proofs: 1,
        proof_spread: None,
        origin: e.origin.clone(),
        rec: r.clone(),
    }
}

/// The `estimate` row of an emulator row whose record has an estimate: the same run, its
/// cost the estimated time. Memory figures and instruction classes stay on the emulator
/// row (the same measurement, not ranked twice); the instruction count is kept beside.
fn estimate_row(r: &Row) -> Option<Row> {
    (r.source == "emulator" && r.estimate.is_some()).then(|| {
        let rec = RunRecord {
            source: ESTIMATE.into(),
            heap_peak: None,
            heap_needed_at_least: None,
            stack_peak: None,
            text_bytes: None,
            instruction_classes: None,
            ..r.rec.clone()
        };
        Row { rec, ..r.clone() }
    })
}

/// The position of `v` in `order` (unlisted values last).
fn rank(order: &[&str], v: &str) -> usize {
    order.iter().position(|o| *o == v).unwrap_or(order.len())
}

/// Emulator, estimate and host rows of the same configuration (several proofs of one
/// statement) become one row: the row of the median-cost proof (lower median), with the
/// number of proofs and their cost range over the median. Device rows are never merged:
/// each board run already aggregates its iterations.
fn merge_proofs(rows: Vec<Row>) -> Vec<Row> {
    let key = |r: &Row| {
        let t = (&r.source, &r.core, &r.board, &r.allocator, &r.result);
        (format!("{t:?}"), r.full_label(), r.n, r.heap_size)
    };
    let mut groups: Vec<(_, Vec<Row>)> = Vec::new();
    let mut out = Vec::new();
    for r in rows {
        if r.source == "device" {
            out.push(r);
            continue;
        }
        let k = key(&r);
        match groups.iter_mut().find(|(g, _)| *g == k) {
            Some((_, v)) => v.push(r),
            None => groups.push((k, vec![r])),
        }
    }
    for (_, mut g) in groups {
        if g.len() == 1 {
            out.extend(g);
            continue;
        }
        g.sort_by(|a, b| a.cost().unwrap_or(0.0).total_cmp(&b.cost().unwrap_or(0.0)));
        let costs: Vec<f64> = g.iter().filter_map(Row::cost).collect();
        let n = g.len();
        let mut median_row = g.swap_remove((n - 1) / 2);
        median_row.proofs = n as u32;
        median_row.proof_spread = match (costs.first(), costs.last(), stats::median(&costs)) {
            (Some(lo), Some(hi), Some(m)) if m > 0.0 && costs.len() == n => Some((hi - lo) / m),
            _ => None,
        };
        out.push(median_row);
    }
    out
}

/// Builds the sorted rows (by AIR, n, backend, extension, core, source) with the estimate
/// rows added and the ratios filled.
pub fn build_rows(entries: &[Entry]) -> Vec<Row> {
    let rows = entries.iter().map(row_from).flat_map(|r| {
        let est = estimate_row(&r);
        std::iter::once(r).chain(est)
    });
    let mut rows: Vec<Row> = merge_proofs(rows.collect());
    rows.sort_by_cached_key(|r| {
        let core = rank(&["m33", "rv32"], &r.core);
        let source = rank(&["device", ESTIMATE, "emulator", "host"], &r.source);
        (
            r.air.clone(),
            r.n,
            r.backend.clone(),
            r.extension,
            core,
            source,
            r.allocator.clone(),
        )
    });
    let ratios: Vec<Option<f64>> = rows
        .iter()
        .map(|row| {
            if row.source == "host" || !(row.core == "m33" || row.core == "rv32") {
                return None;
            }
            let find = |core: &str| {
                rows.iter()
                    .find(|o| o.core == core && o.pair_key() == row.pair_key() && o.accepted())
                    .and_then(Row::cost)
            };
            match (find("rv32"), find("m33")) {
                (Some(rv), Some(m)) if m > 0.0 => Some(rv / m),
                _ => None,
            }
        })
        .collect();
    for (row, ratio) in rows.iter_mut().zip(ratios) {
        row.rv32_m33_ratio = ratio;
    }
    rows
}

/// An estimate next to a device run of the same configuration and core, and the estimate's
/// error relative to the device median: `(estimate, device, (est - dev) / dev)`.
pub fn estimate_vs_device(rows: &[Row]) -> Vec<(&Row, &Row, f64)> {
    rows.iter()
        .filter(|d| d.source == "device" && d.accepted())
        .filter_map(|d| {
            let e = rows
                .iter()
                .find(|e| e.source == ESTIMATE && e.accepted() && e.same_run_as(d))?;
            let dev = d.cycles_median.filter(|&c| c > 0.0)?;
            let est = e.estimate.as_ref()?.cycles as f64;
            Some((e, d, (est - dev) / dev))
        })
        .collect()
}

fn opt<T: ToString>(v: Option<T>) -> String {
    v.map_or(String::new(), |v| v.to_string())
}

fn fixed(v: Option<f64>, decimals: usize) -> String {
    opt(v.map(|v| format!("{v:.decimals$}")))
}

fn est<T: ToString>(r: &Row, f: fn(&CycleEstimate) -> T) -> String {
    opt(r.estimate.as_ref().map(f))
}

fn sec<T: ToString>(r: &Row, f: fn(&SecurityFigures) -> T) -> String {
    opt(r.security.as_ref().map(f))
}

fn class(r: &Row, f: fn(&InstructionClasses) -> u64) -> String {
    opt(r.instruction_classes.as_ref().map(f))
}

type Cell = fn(&Row) -> String;

/// The CSV columns, in order, and how each cell is written (empty = not measured by that
/// source).
#[rustfmt::skip]
const CSV: &[(&str, Cell)] = &[
    ("source", |r| r.source.clone()),
    ("backend", |r| r.backend.clone()),
    ("protocol", |r| r.protocol.clone()),
    ("field", |r| r.field.clone()),
    ("extension", |r| r.extension.to_string()),
    ("air", |r| r.air.clone()),
    ("hash", |r| r.hash.clone()),
    ("params", |r| r.params.clone()),
    ("placement", |r| r.placement.clone()),
    ("n", |r| r.n.to_string()),
    ("core", |r| r.core.clone()),
    ("board", |r| r.board.clone()),
    ("allocator", |r| r.allocator.clone()),
    ("result", |r| r.result.clone()),
    ("tampered", |r| opt(r.tampered.as_ref())),
    ("iterations", |r| r.iterations.to_string()),
    ("instructions", |r| opt(r.instructions)),
    ("estimate_model", |r| est(r, |e| format!("{} v{}", e.model, e.model_version))),
    ("estimate_cycles", |r| est(r, |e| e.cycles)),
    ("estimate_ms", |r| fixed(r.estimate.as_ref().map(|e| e.ms), 3)),
    ("estimate_clock_hz", |r| est(r, |e| e.clock_hz)),
    ("estimate_stall_cycles", |r| est(r, |e| e.stall_cycles)),
    ("estimate_xip_accesses", |r| est(r, |e| e.xip_accesses)),
    ("estimate_xip_misses", |r| est(r, |e| e.xip_misses)),
    ("estimate_xip_miss_cycles", |r| est(r, |e| e.xip_miss_cycles)),
    ("estimate_sha256_engine_blocks", |r| opt(r.estimate.as_ref().and_then(|e| e.sha256_engine.as_ref()).map(|c| c.blocks))),
    ("estimate_sha256_engine_cycles_per_block", |r| opt(r.estimate.as_ref().and_then(|e| e.sha256_engine.as_ref()).map(|c| c.cycles_per_block))),
    ("cycles_median", |r| opt(r.cycles_median)),
    ("clock_hz", |r| opt(r.clock_hz)),
    ("device_ms", |r| fixed(r.device_ms, 3)),
    ("cycles_cv", |r| fixed(r.cycles_cv, 5)),
    ("cycles_iqr_over_median", |r| fixed(r.cycles_iqr_over_median, 5)),
    ("host_verify_ms", |r| fixed(r.verify_ms, 3)),
    ("host_prove_ms", |r| fixed(r.prove_ms, 1)),
    ("heap_size", |r| opt(r.heap_size)),
    ("heap_peak", |r| opt(r.heap_peak)),
    ("stack_peak", |r| opt(r.stack_peak)),
    ("text_bytes", |r| opt(r.text_bytes)),
    ("proof_bytes", |r| r.proof_bytes.to_string()),
    ("security_bits", |r| r.security_bits.to_string()),
    ("bits_ethstark", |r| sec(r, |s| s.ethstark)),
    ("bits_winterfell_conjectured", |r| sec(r, |s| s.winterfell_conjectured)),
    ("bits_plonky3_conjectured", |r| sec(r, |s| s.plonky3_conjectured)),
    ("bits_proven_unique", |r| sec(r, |s| s.proven_unique)),
    ("bits_proven_list", |r| sec(r, |s| s.proven_list)),
    ("policy_regime", |r| sec(r, |s| s.policy_regime.clone())),
    ("policy_min_bits", |r| sec(r, |s| s.policy_min_bits)),
    ("rv32_m33_ratio", |r| fixed(r.rv32_m33_ratio, 4)),
    ("proofs", |r| r.proofs.to_string()),
    ("proof_spread", |r| fixed(r.proof_spread, 5)),
    ("class_mul", |r| class(r, |c| c.mul)),
    ("class_load_store", |r| class(r, |c| c.load_store)),
    ("class_branch", |r| class(r, |c| c.branch)),
    ("class_other", |r| class(r, |c| c.other)),
    ("toolchain", |r| r.toolchain.clone()),
    ("profile", |r| r.profile.clone()),
    ("git_commit", |r| r.git_commit.clone()),
    ("origin", |r| r.origin.clone()),
];

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The table as CSV.
pub fn to_csv(rows: &[Row]) -> String {
    let mut out = CSV.iter().map(|(h, _)| *h).collect::<Vec<_>>().join(",");
    out.push('\n');
    for r in rows {
        let line: Vec<String> = CSV.iter().map(|(_, cell)| csv_field(&cell(r))).collect();
        out.push_str(&line.join(","));
        out.push('\n');
    }
    out
}

/// The table as JSON: `{"kind": "picostark-compare-table", "units": {...}, "rows": [...]}`.
pub fn to_json(rows: &[Row]) -> String {
    let v = serde_json::json!({
        "kind": TABLE_KIND,
        "units": {
            "instructions": "guest instructions of one parse + verify, QEMU TCG plugin (emulator and estimate rows)",
            "estimate": "RP2350 timing model run over the emulator's executed instruction stream: estimated cycles, ms at clock_hz, stall and XIP-miss cycles (estimate rows; a model's output, not a measurement)",
            "cycles_median": "median cycles over the genuine iterations, board counter (device rows only)",
            "device_ms": "cycles_median / clock_hz * 1000 (device rows only)",
            "verify_ms": "wall clock on the host (host rows only)",
            "heap_peak": "bytes", "stack_peak": "bytes", "proof_bytes": "bytes",
            "security_bits": "the record's policy figure",
            "security": "bits under each regime (core/src/security.rs)",
            "rv32_m33_ratio": "cost on rv32 / cost on m33, same source and configuration",
            "proofs": "proofs of this configuration behind the row (the row is the median-cost one)",
            "proof_spread": "(max - min) / median cost over those proofs",
            "params": "FRI parameters: log2 blowup / queries / log2 folding arity / log2 final length / PoW bits",
            "placement": "xip: code in flash through the XIP cache; all-sram: code and read-only data in SRAM",
        },
        "rows": rows,
    });
    serde_json::to_string_pretty(&v).expect("rows serialise")
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use picostark_core::record::RUN_RECORD_SCHEMA;

    pub fn emu(backend: &str, ext: u8, n: u64, core: &str, insns: u64) -> Entry {
        let field = BackendId::from_name(backend).map_or("?", |b| b.field().name());
        Entry {
            record: RunRecord {
                schema: RUN_RECORD_SCHEMA,
                source: "emulator".into(),
                backend: backend.into(),
                field: field.into(),
                extension: ext,
                air: "fib".into(),
                n,
                core: core.into(),
                board: format!("qemu-{core}"),
                allocator: "tlsf".into(),
                proof_bytes: 40_000,
                security_bits: 96,
                result: "accepted".into(),
                iterations: 3,
                instructions: Some(insns),
                instruction_classes: Some(InstructionClasses {
                    mul: insns / 10,
                    load_store: insns / 2,
                    branch: insns / 10,
                    other: insns - insns / 10 * 2 - insns / 2,
                }),
                heap_peak: Some(insns / 100),
                stack_peak: Some(4000),
                ..RunRecord::default()
            },
            origin: "fixture".into(),
            tampered: None,
        }
    }

    /// `e` with a timing-model estimate of `cycles` at 150 MHz (a fixture, not a model run).
    pub fn with_estimate(mut e: Entry, cycles: u64) -> Entry {
        e.record.estimate = Some(CycleEstimate {
            model: format!("rp2350-{}", e.record.core),
            model_version: 1,
            cycles,
            clock_hz: 150_000_000,
            ms: cycles as f64 / 150e6 * 1e3,
            stall_cycles: (cycles / 5) as i64,
            xip_accesses: cycles / 2,
            xip_misses: cycles / 1000,
            xip_miss_cycles: cycles / 20,
            sha256_engine: None,
        });
        e
    }

    /// `e` with every regime's bits.
    pub fn with_security(mut e: Entry, conjectured: f64, proven_list: f64) -> Entry {
        e.record.security = Some(SecurityFigures {
            ethstark: conjectured + 2.0,
            winterfell_conjectured: conjectured + 1.0,
            plonky3_conjectured: conjectured,
            proven_unique: proven_list / 2.0,
            proven_list,
            policy_regime: "strictest".into(),
            policy_min_bits: 95,
        });
        e
    }

    pub fn dev(backend: &str, n: u64, core: &str, cycles: &[u64]) -> Entry {
        let mut e = emu(backend, 4, n, core, 0);
        e.record.source = "device".into();
        e.record.instructions = None;
        e.record.instruction_classes = None;
        e.record.cycles = cycles.to_vec();
        e.record.clock_hz = Some(150_000_000);
        e.record.board = "rp2350".into();
        e.tampered = Some("rejected:rejected".into());
        e
    }

    #[test]
    fn ratios_pair_same_source_only() {
        let rows = build_rows(&[
            emu("p3-babybear", 4, 1024, "m33", 1_000_000),
            emu("p3-babybear", 4, 1024, "rv32", 1_500_000),
            dev(
                "p3-babybear",
                1024,
                "m33",
                &[2_000_000, 2_000_010, 1_999_990],
            ),
            // No device rv32 row: the device m33 row must not pair with the emulator.
            emu("p3-m31", 4, 1024, "m33", 800_000),
        ]);
        let get = |src: &str, b: &str, core: &str| {
            rows.iter()
                .find(|r| r.source == src && r.backend == b && r.core == core)
                .unwrap()
        };
        assert_eq!(
            get("emulator", "p3-babybear", "rv32").rv32_m33_ratio,
            Some(1.5)
        );
        assert_eq!(
            get("emulator", "p3-babybear", "m33").rv32_m33_ratio,
            Some(1.5)
        );
        assert_eq!(get("device", "p3-babybear", "m33").rv32_m33_ratio, None);
        assert_eq!(get("emulator", "p3-m31", "m33").rv32_m33_ratio, None);
        // Device figures: median and ms at 150 MHz.
        let d = get("device", "p3-babybear", "m33");
        assert_eq!(d.cycles_median, Some(2_000_000.0));
        assert!((d.device_ms.unwrap() - 2_000_000.0 / 150e6 * 1e3).abs() < 1e-9);
        assert!(d.cycles_cv.unwrap() > 0.0 && d.cycles_cv.unwrap() < 1e-5);
        assert_eq!(d.cost_unit(), "cycles");
        // Sorted: device before emulator within the same configuration and core.
        assert_eq!(rows[0].source, "device");
    }

    #[test]
    fn several_proofs_become_one_median_row() {
        let mut a = emu("p3-m31", 4, 1024, "m33", 1_000);
        a.record.proof_bytes = 1;
        let mut b = emu("p3-m31", 4, 1024, "m33", 1_100);
        b.record.proof_bytes = 2;
        let mut c = emu("p3-m31", 4, 1024, "m33", 1_050);
        c.record.proof_bytes = 3;
        let rows = build_rows(&[
            a,
            b,
            c,
            emu("p3-m31", 4, 1024, "rv32", 2_100),
            dev("p3-m31", 1024, "m33", &[5]),
            dev("p3-m31", 1024, "m33", &[6]),
        ]);
        assert_eq!(
            rows.len(),
            4,
            "three emulator m33 rows merge; device rows never do"
        );
        let m = rows
            .iter()
            .find(|r| r.source == "emulator" && r.core == "m33")
            .unwrap();
        assert_eq!(m.instructions, Some(1_050));
        assert_eq!(m.proof_bytes, 3, "the median proof's own figures");
        assert_eq!(m.proofs, 3);
        assert!((m.proof_spread.unwrap() - 100.0 / 1050.0).abs() < 1e-12);
        assert_eq!(m.rv32_m33_ratio, Some(2.0));
        let rv = rows.iter().find(|r| r.core == "rv32").unwrap();
        assert_eq!((rv.proofs, rv.proof_spread), (1, None));
    }

    #[test]
    fn estimate_rows_come_from_records_that_have_one() {
        let rows = build_rows(&[
            with_estimate(emu("wf-goldilocks", 2, 1024, "m33", 2_000_000), 3_000_000),
            with_estimate(emu("wf-goldilocks", 2, 1024, "rv32", 2_400_000), 3_300_000),
            // An old record: no estimate, so no estimate row and nothing guessed.
            emu("p3-m31", 4, 1024, "m33", 5_000_000),
        ]);
        let est: Vec<&Row> = rows.iter().filter(|r| r.source == ESTIMATE).collect();
        assert_eq!(est.len(), 2);
        assert!(!rows
            .iter()
            .any(|r| r.source == ESTIMATE && r.backend == "p3-m31"));
        let m33 = est.iter().find(|r| r.core == "m33").unwrap();
        assert_eq!(m33.cost(), Some(20.0), "3 M cycles at 150 MHz");
        assert_eq!(
            m33.instructions,
            Some(2_000_000),
            "instructions kept beside"
        );
        assert_eq!(m33.heap_peak, None, "memory stays on the emulator row");
        // Ratios: instructions on the emulator rows, estimated time on the estimate rows.
        let ratio = |src: &str| {
            rows.iter()
                .find(|r| r.source == src && r.core == "rv32")
                .and_then(|r| r.rv32_m33_ratio)
                .unwrap()
        };
        assert!((ratio("emulator") - 1.2).abs() < 1e-12);
        assert!((ratio(ESTIMATE) - 1.1).abs() < 1e-12);
        // Order within a configuration and core: estimate, then emulator.
        let wf: Vec<&str> = rows
            .iter()
            .filter(|r| r.backend == "wf-goldilocks")
            .map(|r| r.source.as_str())
            .collect();
        assert_eq!(wf, [ESTIMATE, "emulator", ESTIMATE, "emulator"]);
    }

    #[test]
    fn another_policy_is_another_configuration() {
        let proven = |core: &str, insns: u64| {
            let mut e = with_security(emu("p3-babybear", 4, 1024, core, insns), 105.0, 65.0);
            let s = e.record.security.as_mut().unwrap();
            (s.policy_regime, s.policy_min_bits) = ("proven".into(), 100);
            e
        };
        let rows = build_rows(&[
            emu("p3-babybear", 4, 1024, "m33", 1_000),
            emu("p3-babybear", 4, 1024, "rv32", 1_500),
            proven("m33", 4_000),
            proven("rv32", 4_400),
        ]);
        assert_eq!(rows.len(), 4, "not merged as proofs of one configuration");
        let get = |label: &str, core: &str| {
            rows.iter()
                .find(|r| r.full_label() == label && r.core == core)
                .unwrap()
        };
        assert_eq!(
            get(
                "p3-babybear^4 blake3 xip [2^6 / 14 / 2^4 / 2^2 / 20]",
                "rv32"
            )
            .rv32_m33_ratio,
            Some(1.5)
        );
        let p = get(
            "p3-babybear^4 blake3 xip [2^6 / 14 / 2^4 / 2^2 / 20] (proven ≥ 100)",
            "rv32",
        );
        assert!((p.rv32_m33_ratio.unwrap() - 1.1).abs() < 1e-12);
    }

    #[test]
    fn estimate_against_device_gives_the_error() {
        let mut d = dev(
            "p3-babybear",
            1024,
            "m33",
            &[10_000_000, 10_000_000, 10_000_000],
        );
        d.record.extension = 4;
        let rows = build_rows(&[
            with_estimate(emu("p3-babybear", 4, 1024, "m33", 7_000_000), 10_500_000),
            d,
            // A device run without an estimate of its configuration pairs with nothing.
            dev("p3-m31", 1024, "m33", &[1, 1]),
        ]);
        let pairs = estimate_vs_device(&rows);
        assert_eq!(pairs.len(), 1);
        let (e, d, err) = pairs[0];
        assert_eq!((e.source.as_str(), d.source.as_str()), (ESTIMATE, "device"));
        assert!((err - 0.05).abs() < 1e-12, "{err}");
    }

    #[test]
    fn csv_columns_quotes_estimate_and_security() {
        let mut e = emu("p3-babybear", 4, 1024, "m33", 10);
        e.record.toolchain = "rustc 1.95.0 (a, b)".into();
        let e = with_security(with_estimate(e, 15_000_000), 95.0, 57.5);
        let csv = to_csv(&build_rows(&[e]));
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 3, "an estimate row and an emulator row");
        let head: Vec<&str> = lines[0].split(',').collect();
        let col = |line: &str, name: &str| {
            let i = head.iter().position(|h| *h == name).unwrap();
            line.split(',').nth(i).unwrap().to_string()
        };
        let (est, emu_line) = (lines[1], lines[2]);
        assert!(emu_line.contains("\"rustc 1.95.0 (a, b)\""));
        let start =
            "emulator,p3-babybear,plonky3,babybear,4,fib,blake3,2^6 / 14 / 2^4 / 2^2 / 20,xip,";
        assert!(
            emu_line.starts_with(&format!("{start}1024,m33,")),
            "{emu_line}"
        );
        assert_eq!(col(est, "source"), ESTIMATE);
        assert_eq!(col(est, "estimate_ms"), "100.000");
        assert_eq!(col(est, "estimate_model"), "rp2350-m33 v1");
        assert_eq!(col(est, "heap_peak"), "");
        assert_eq!(col(emu_line, "heap_peak"), "0");
        assert_eq!(col(emu_line, "bits_proven_list"), "57.5");
        assert_eq!(col(emu_line, "bits_ethstark"), "97");
        assert_eq!(col(emu_line, "policy_regime"), "strictest");
        let json: serde_json::Value = serde_json::from_str(&to_json(&build_rows(&[]))).unwrap();
        assert_eq!(json["kind"], TABLE_KIND);
    }
}

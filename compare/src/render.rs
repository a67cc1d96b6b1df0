//! Writing the report: `report.md`, a self-contained `report.html` (the same Markdown
//! rendered with pulldown-cmark, plus inline CSS and SVG charts; no scripts), `table.csv`
//! and `table.json`.

use std::collections::BTreeSet;
use std::fmt::Write;
use std::path::Path;

use crate::human::{grouped, grouped_signed, kib, pct, pow2, si};
use crate::summary::{summarize, Summary};
use crate::svg::{self, BarGroup};
use crate::table::{estimate_vs_device, to_csv, to_json, Row, ESTIMATE};
use crate::{hash_axis, proven, scaling};
use picostark_core::{Figures, Policy};

/// A proof file's parameters, for the parameters table.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamRow {
    pub file: String,
    pub backend: String,
    pub extension: u8,
    pub n: u64,
    pub params: String,
    pub bytes: u64,
    /// Every regime's bits, recomputed here from the header.
    pub figures: Figures,
    /// The default policy's regime's figure.
    pub security_bits: u32,
}

/// Everything a report is made from.
pub struct Report {
    pub rows: Vec<Row>,
    pub summary: Summary,
    pub params: Vec<ParamRow>,
    /// Problems while reading inputs.
    pub warnings: Vec<String>,
    /// Notes from the pipeline (missing tools, failed runs).
    pub notes: Vec<String>,
    /// How the report was produced (command line).
    pub command: String,
    pub generated: String,
    pub min_security: u32,
    /// The stock-baseline and hash-floor section (Markdown), from `baseline::section`.
    pub baseline: Option<String>,
}

impl Report {
    pub fn new(rows: Vec<Row>, min_security: u32) -> Self {
        let summary = summarize(&rows, min_security);
        Report {
            rows,
            summary,
            params: Vec::new(),
            warnings: Vec::new(),
            notes: Vec::new(),
            command: String::new(),
            generated: utc_now(),
            min_security,
            baseline: None,
        }
    }

    /// Sets the proof files' parameters. A row that states 0 bits (the firmware writes 0 when
    /// its policy rejects the proof) gets the default policy's figure from its proof file, so
    /// every row shows a figure of the same regime.
    pub fn set_params(&mut self, params: Vec<ParamRow>) {
        let mut fixed = 0;
        for r in &mut self.rows {
            if r.security_bits != 0 {
                continue;
            }
            if let Some(p) = params
                .iter()
                .find(|p| p.backend == r.backend && p.extension == r.extension && p.n == r.n)
            {
                r.security_bits = p.security_bits;
                fixed += 1;
            }
        }
        if fixed > 0 {
            self.notes.push(format!(
                "{fixed} row(s) stated 0 security bits (the firmware's value for a proof its policy rejects); they show the default policy's figure for their proof file instead"
            ));
            self.summary = summarize(&self.rows, self.min_security);
        }
        self.params = params;
    }

    /// What is missing: for every configuration seen, each core without an emulator row,
    /// and security mismatches between records and proof files.
    pub fn gaps(&self) -> Vec<String> {
        let mut out = Vec::new();
        let configs: BTreeSet<(String, u8, String, u64)> = self
            .rows
            .iter()
            .map(|r| (r.backend.clone(), r.extension, r.air.clone(), r.n))
            .collect();
        for (b, e, a, n) in &configs {
            for core in ["m33", "rv32"] {
                let has = self.rows.iter().any(|r| {
                    r.source == "emulator"
                        && r.backend == *b
                        && r.extension == *e
                        && r.air == *a
                        && r.n == *n
                        && r.core == core
                });
                if !has {
                    out.push(format!(
                        "no emulator row for {b}^{e} {a} n={} on {core}",
                        pow2(*n)
                    ));
                }
            }
        }
        for p in &self.params {
            for r in self
                .rows
                .iter()
                .filter(|r| r.backend == p.backend && r.extension == p.extension && r.n == p.n)
            {
                if r.security_bits != p.security_bits && r.accepted() {
                    out.push(format!(
                        "{} row of {}^{} n={} states {} bits, the proof file's parameters give {}",
                        r.source,
                        r.backend,
                        r.extension,
                        pow2(r.n),
                        r.security_bits,
                        p.security_bits
                    ));
                }
            }
        }
        out
    }
}

/// The current UTC time as `YYYY-MM-DD HH:MM UTC`.
pub fn utc_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs()) as i64;
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02} UTC",
        rem / 3600,
        rem % 3600 / 60
    )
}

/// Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm).
pub fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// A simple table: header and cells (plain text).
pub(crate) struct Table {
    pub(crate) head: Vec<String>,
    pub(crate) rows: Vec<Vec<String>>,
}

impl Table {
    pub(crate) fn new(head: &[&str]) -> Self {
        Table {
            head: head.iter().map(|s| s.to_string()).collect(),
            rows: Vec::new(),
        }
    }
}

pub(crate) fn dash<T>(v: Option<T>, f: impl Fn(T) -> String) -> String {
    v.map_or_else(|| "–".to_string(), f)
}

/// Security bits as the regimes give them: whole numbers plain, others to one decimal.
pub(crate) fn bits(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}

/// The three estimate cells of a row: cycles (model), ms at its clock, stalls and XIP misses.
fn estimate_cells(r: &Row) -> [String; 3] {
    match (&r.estimate, r.source.as_str()) {
        (Some(e), ESTIMATE) => [
            format!("{} ({} v{})", grouped(e.cycles), e.model, e.model_version),
            format!("{:.2} @ {} MHz", e.ms, e.clock_hz / 1_000_000),
            format!(
                "{} · {} of {} ({} cycles)",
                grouped_signed(e.stall_cycles),
                grouped(e.xip_misses),
                grouped(e.xip_accesses),
                grouped(e.xip_miss_cycles)
            ),
        ],
        (None, "emulator") => [
            "none: the record predates the timing model".into(),
            "–".into(),
            "–".into(),
        ],
        _ => ["–".into(), "–".into(), "–".into()],
    }
}

fn matrix(rows: &[Row], min_security: u32) -> Table {
    let mut t = Table::new(&[
        "source",
        "backend",
        "field^ext",
        "AIR",
        "n",
        "core",
        "alloc, heap",
        "instructions",
        "estimate: cycles (model)",
        "estimate: ms",
        "estimate: stall cycles · XIP misses of accesses (miss cycles)",
        "device: cycles (median)",
        "device: ms at clock",
        "device spread std/mean · IQR/median",
        "host: verify ms",
        "host: prove ms",
        "RV32/M33",
        "proofs: range/median",
        "heap peak",
        "stack peak",
        "proof",
        "bits: ethSTARK",
        "bits: wf 0.13.1",
        "bits: P3 0.8",
        "bits: proven unique",
        "bits: proven list",
        "policy",
        "result",
    ]);
    for r in rows {
        let result = match &r.tampered {
            Some(tp) => format!("{}; tampered {}", r.result, tp),
            None => r.result.clone(),
        };
        let [est_cycles, est_ms, est_split] = estimate_cells(r);
        let below = if r.security_bits < min_security {
            " (below floor)"
        } else {
            ""
        };
        let (sec, policy) = match &r.security {
            Some(s) => (
                [
                    s.ethstark,
                    s.winterfell_conjectured,
                    s.plonky3_conjectured,
                    s.proven_unique,
                    s.proven_list,
                ]
                .map(bits),
                format!(
                    "{} ≥ {}: {}{below}",
                    s.policy_regime, s.policy_min_bits, r.security_bits
                ),
            ),
            None => (
                ["–", "–", "–", "–", "–"].map(String::from),
                format!("{}{below} (the record names no regime)", r.security_bits),
            ),
        };
        let mut cells = vec![
            r.source.clone(),
            r.backend.clone(),
            format!("{}^{}", r.field, r.extension),
            r.air.clone(),
            pow2(r.n),
            r.core.clone(),
            match r.heap_size {
                Some(h) => format!("{}, {}", r.allocator, kib(h)),
                None => r.allocator.clone(),
            },
            dash(r.instructions, grouped),
            est_cycles,
            est_ms,
            est_split,
            dash(r.cycles_median, |v| grouped(v.round() as u64)),
            dash(r.device_ms, |v| {
                format!("{v:.2} @ {} MHz", r.clock_hz.map_or(0, |c| c / 1_000_000))
            }),
            match (r.cycles_cv, r.cycles_iqr_over_median) {
                (None, None) => "–".into(),
                (a, b) => format!("{} · {} (k={})", dash(a, pct), dash(b, pct), r.iterations),
            },
            dash(r.host_verify_ms, |v| format!("{v:.2}")),
            dash(r.host_prove_ms, |v| format!("{v:.0}")),
            dash(r.rv32_m33_ratio, |v| format!("{v:.2}")),
            match r.proof_spread {
                Some(v) => format!("{} (k={})", pct(v), r.proofs),
                None if r.source == "device" => "–".into(),
                None => format!("one proof (k={})", r.proofs),
            },
            dash(r.heap_peak, kib),
            dash(r.stack_peak, kib),
            kib(r.proof_bytes),
        ];
        cells.extend(sec);
        cells.push(policy);
        cells.push(result);
        t.rows.push(cells);
    }
    t
}

fn provenance(rows: &[Row]) -> Table {
    let mut seen: Vec<(Vec<String>, usize)> = Vec::new();
    for r in rows {
        let key = vec![
            r.source.clone(),
            r.board.clone(),
            r.allocator.clone(),
            r.toolchain.clone(),
            r.profile.clone(),
            r.git_commit.clone(),
        ];
        match seen.iter_mut().find(|(k, _)| *k == key) {
            Some((_, n)) => *n += 1,
            None => seen.push((key, 1)),
        }
    }
    let mut t = Table::new(&[
        "source",
        "board",
        "allocator",
        "toolchain",
        "profile",
        "commit",
        "rows",
    ]);
    t.rows = seen
        .into_iter()
        .map(|(mut k, n)| {
            k.push(n.to_string());
            k
        })
        .collect();
    t
}

fn params_table(p: &[ParamRow]) -> Table {
    let policy = format!("bits: policy ({})", Policy::default().regime.name());
    let mut t = Table::new(&[
        "proof file",
        "backend",
        "ext",
        "n",
        "parameters",
        "size",
        "bits: ethSTARK",
        "bits: wf 0.13.1",
        "bits: P3 0.8",
        "bits: proven unique",
        "bits: proven list",
        &policy,
    ]);
    t.rows = p
        .iter()
        .map(|p| {
            let f = &p.figures;
            let mut row = vec![
                p.file.clone(),
                p.backend.clone(),
                p.extension.to_string(),
                pow2(p.n),
                p.params.clone(),
                grouped(p.bytes),
            ];
            let bits = [
                f.ethstark,
                f.winterfell,
                f.plonky3,
                f.proven_unique,
                f.proven_list,
            ];
            row.extend(bits.iter().chain([&p.security_bits]).map(u32::to_string));
            row
        })
        .collect();
    t
}

/// RV32/M33 per configuration, n and allocator: in instructions, in estimated time and in
/// device cycles, each from one source's pair of rows.
fn ratio_table(rows: &[Row]) -> Table {
    let mut t = Table::new(&[
        "configuration",
        "n",
        "allocator",
        "RV32/M33 instructions",
        "RV32/M33 estimated time",
        "RV32/M33 device cycles",
    ]);
    let mut keys: Vec<(String, u64, String)> = Vec::new();
    for r in rows
        .iter()
        .filter(|r| r.core == "rv32" && r.rv32_m33_ratio.is_some())
    {
        let k = (r.config_label(), r.n, r.allocator.clone());
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    for (cfg, n, alloc) in keys {
        let ratio = |source: &str| {
            rows.iter()
                .find(|r| {
                    r.source == source
                        && r.core == "rv32"
                        && r.config_label() == cfg
                        && r.n == n
                        && r.allocator == alloc
                })
                .and_then(|r| r.rv32_m33_ratio)
                .map_or("–".into(), |v| format!("{v:.2}"))
        };
        t.rows.push(vec![
            cfg.clone(),
            pow2(n),
            alloc.clone(),
            ratio("emulator"),
            ratio(ESTIMATE),
            ratio("device"),
        ]);
    }
    t
}

/// Estimates next to device runs of the same configuration, with the estimate's error.
fn estimate_device_table(rows: &[Row]) -> Table {
    let mut t = Table::new(&[
        "configuration",
        "core",
        "n",
        "allocator",
        "estimate: cycles (model)",
        "device: cycles (median, k)",
        "error (estimate − device) / device",
    ]);
    for (e, d, err) in estimate_vs_device(rows) {
        let est = e.estimate.as_ref().expect("paired estimates have one");
        t.rows.push(vec![
            e.config_label(),
            e.core.clone(),
            pow2(e.n),
            e.allocator.clone(),
            format!(
                "{} ({} v{})",
                grouped(est.cycles),
                est.model,
                est.model_version
            ),
            format!(
                "{} (k={}, {})",
                dash(d.cycles_median, |v| grouped(v.round() as u64)),
                d.iterations,
                d.board
            ),
            format!("{:+.1}%", err * 100.0),
        ]);
    }
    t
}

pub(crate) fn md_table(t: &Table) -> String {
    let cell = |s: &str| s.replace('|', "\\|");
    let mut out = format!(
        "| {} |\n|{}\n",
        t.head
            .iter()
            .map(|h| cell(h))
            .collect::<Vec<_>>()
            .join(" | "),
        "---|".repeat(t.head.len())
    );
    for r in &t.rows {
        let _ = writeln!(
            out,
            "| {} |",
            r.iter().map(|c| cell(c)).collect::<Vec<_>>().join(" | ")
        );
    }
    out
}

const SOURCES_NOTE: &str = "Four sources, never mixed: **estimate** = estimated RP2350 cycles of one parse + verify from the timing model run over the emulator's exact executed instruction stream (pipeline stalls and XIP-cache misses modelled; a model's output, not a measurement; model and version on every row; ms at 150 MHz); **emulator** = exact guest instruction counts of the same window under QEMU (TCG plugin); **device** = cycles counted on the RP2350 itself (DWT CYCCNT on the M33, `mcycle` on Hazard3), median over iterations, ms at the board clock; **host** = wall clock on the build machine. Rankings lead with estimated time and keep the instruction count beside it.";

const WIDE_AIR_NOTE: &str = "`chain16` (`picostark_air::chain16::CubicChain16`): 16 columns, 16 degree-3 transition constraints, 8 public inputs, next to Fibonacci (2 columns, degree 1) at the same n, source, configuration and core; × fib is the ratio.";

const METHOD_NOTES: &[&str] = &[
    "**Security**: the five regimes are explained in the section “Security regimes”. The floor that decides what is ranked applies to each record's own policy figure (`security_bits`); rows below it are shown but never ranked.",
    "**RV32/M33** divides the RV32 cost by the M33 cost of the same source, backend, extension, AIR, n and allocator (instructions by instructions, estimated time by estimated time, cycles by cycles).",
    "**Estimates** come from the records (`RunRecord.estimate`, written by `mcu-run`); this tool only reads them. An emulator record without one predates the timing model: it says so and is ranked by instructions only, never given a guessed time.",
    "**Device spread**: std/mean is the sample standard deviation over the mean of the genuine iterations; IQR/median uses type-7 quartiles. The firmware's last iteration (a tampered copy that must be rejected) is never part of the figures.",
    "**Heap peak** is the tracking allocator's high-water mark during the genuine iterations; **stack peak** is measured by stack painting. Host rows have neither; estimate rows leave them to their emulator row.",
    "**Host times** are wall clock on a shared build machine, the median of `prover-host bench --repeat` runs (one run in `compare all` by default): indicative only, never compared with device or emulator figures.",
    "**Emulator instructions** are the median over the genuine iterations (they are identical run to run; `mcu-run --repeat` checks that).",
    "**Proofs: range/median**: a prover need not be deterministic (some here are not), so proofs of one statement can differ in size and verifier cost. With k proofs per configuration (`compare all --samples k`), an emulator, estimate or host row is the median-cost proof's, and the column gives (max − min) / median of the cost over the k proofs: the uncertainty of choosing one proof.",
];

const STYLE: &str = "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>picostark verifier report</title><style>\
body{font-family:system-ui,sans-serif;margin:24px;color:#222;max-width:1400px}\
h1{font-size:24px}h2{font-size:19px;margin-top:32px;border-bottom:1px solid #ddd}\
table{border-collapse:collapse;font-size:12px;margin:8px 0;display:block;overflow-x:auto}\
th,td{border:1px solid #ccc;padding:3px 6px;text-align:left;vertical-align:top}\
th{background:#f3f3f3}.chart{margin:16px 0}svg{max-width:100%;height:auto;border:1px solid #eee}\
code{background:#f0f0f0;padding:0 3px}li{margin:4px 0}\
</style></head><body>\n";

/// Charts (SVG strings with captions).
fn charts(rows: &[Row]) -> Vec<String> {
    let mut out = Vec::new();
    let sources: Vec<&str> = [ESTIMATE, "emulator", "device"]
        .into_iter()
        .filter(|s| {
            rows.iter()
                .any(|r| r.source == *s && r.accepted() && r.cost().is_some())
        })
        .collect();
    let cores = ["m33", "rv32"];
    let core_series: Vec<String> = cores.iter().map(|s| s.to_string()).collect();
    for source in &sources {
        // Rejected runs (e.g. below the security floor) stop early: their cost is not a
        // verify cost, so they stay out of the charts (the matrix shows them).
        let src_rows: Vec<&Row> = rows
            .iter()
            .filter(|r| r.source == *source && r.accepted() && r.cost().is_some())
            .collect();
        let ns: BTreeSet<u64> = src_rows.iter().map(|r| r.n).collect();
        let unit = src_rows[0].cost_unit();
        for n in &scaling::per_n_charts(rows, ns.clone()) {
            let configs: Vec<String> = {
                let mut v: Vec<String> = src_rows
                    .iter()
                    .filter(|r| r.n == *n)
                    .map(|r| r.config_label())
                    .collect();
                v.dedup();
                v
            };
            let groups: Vec<BarGroup> = configs
                .iter()
                .map(|c| BarGroup {
                    label: c.clone(),
                    bars: cores
                        .iter()
                        .enumerate()
                        .map(|(i, core)| {
                            (
                                i,
                                src_rows
                                    .iter()
                                    .find(|r| {
                                        r.n == *n
                                            && r.config_label() == *c
                                            && r.core == *core
                                            && r.accepted()
                                    })
                                    .and_then(|r| r.cost()),
                            )
                        })
                        .collect(),
                })
                .collect();
            out.push(svg::bar_chart(
                &format!(
                    "Verify cost per backend and core, n = {} ({source})",
                    pow2(*n)
                ),
                &format!("{unit} of one parse + verify; shorter is better"),
                &core_series,
                &groups,
                &|v| si(v),
            ));
        }
        if ns.len() > 1 {
            let series = scaling::series_by_config(&src_rows, &Row::cost, "");
            out.push(svg::line_chart(
                &format!("Verify cost vs n ({source})"),
                "dashed: rv32; solid: m33",
                unit,
                &series,
                &|x| format!("2^{x:.0}"),
            ));
        }
    }
    // Where the estimated cycles go, one chart per n.
    let est: Vec<&Row> = rows
        .iter()
        .filter(|r| r.source == ESTIMATE && r.accepted())
        .collect();
    let ns: BTreeSet<u64> = est.iter().map(|r| r.n).collect();
    for n in scaling::per_n_charts(rows, ns) {
        let bars: Vec<(String, Vec<f64>)> = est
            .iter()
            .filter(|r| r.n == n)
            .filter_map(|r| {
                let e = r.estimate.as_ref()?;
                let issue = r.instructions.unwrap_or(0);
                // A net negative stall (M33 pairing) draws as none; `other` absorbs it.
                let stall = e.stall_cycles.max(0) as u64;
                let other = e.cycles.saturating_sub(issue + stall + e.xip_miss_cycles);
                let parts = [issue, stall, e.xip_miss_cycles, other];
                Some((
                    format!("{} {}", r.config_label(), r.core),
                    parts.map(|v| v as f64).to_vec(),
                ))
            })
            .collect();
        out.push(svg::stacked_chart(
            &format!("Estimated cycles by cause, n = {} (estimate)", pow2(n)),
            "share of the estimated cycles of one verify: one issue cycle per instruction, pipeline stalls, XIP-cache misses, the rest; total on the right",
            &["instructions", "stalls", "XIP misses", "other"],
            &bars,
        ));
    }
    // Memory (emulator and device), one chart per source and n.
    for source in &sources {
        let src_rows: Vec<&Row> = rows
            .iter()
            .filter(|r| {
                r.source == *source
                    && r.accepted()
                    && (r.heap_peak.is_some() || r.stack_peak.is_some())
            })
            .collect();
        let ns: BTreeSet<u64> = src_rows.iter().map(|r| r.n).collect();
        for n in scaling::per_n_charts(rows, ns) {
            let groups: Vec<BarGroup> = src_rows
                .iter()
                .filter(|r| r.n == n)
                .map(|r| BarGroup {
                    label: format!("{} {}", r.config_label(), r.core),
                    bars: vec![
                        (0, r.heap_peak.map(|v| v as f64)),
                        (1, r.stack_peak.map(|v| v as f64)),
                    ],
                })
                .collect();
            out.push(svg::bar_chart(
                &format!("Peak memory, n = {} ({source})", pow2(n)),
                "bytes; the RP2350 has 520 KB of SRAM for heap, stack and data",
                &["heap peak".into(), "stack peak".into()],
                &groups,
                &|v| kib(v as u64),
            ));
        }
    }
    out.extend(scaling::proof_size_chart(rows));
    out.extend(scaling::charts(rows));
    out
}

impl Report {
    /// `report.md`.
    pub fn markdown(&self) -> String {
        self.document(None)
    }

    /// `report.html`: the Markdown with the charts, rendered.
    pub fn html(&self) -> String {
        let md = self.document(Some(&charts(&self.rows)));
        let mut h = String::from(STYLE);
        let parser = pulldown_cmark::Parser::new_ext(&md, pulldown_cmark::Options::ENABLE_TABLES);
        pulldown_cmark::html::push_html(&mut h, parser);
        h.push_str("</body></html>\n");
        h
    }

    /// The report as Markdown; `charts` (SVG, for the HTML form) go where the Markdown form
    /// points to the HTML file.
    fn document(&self, charts: Option<&[String]>) -> String {
        let mut md = String::new();
        let _ = writeln!(md, "# picostark verifier report\n");
        let _ = writeln!(
            md,
            "Generated {} by `{}`. {} rows: {}.\n",
            self.generated,
            self.command,
            self.rows.len(),
            self.source_counts()
        );
        let _ = writeln!(md, "{SOURCES_NOTE}\n");
        let _ = writeln!(md, "## Summary\n");
        if self.summary.lines.is_empty() {
            let _ = writeln!(
                md,
                "No row can be ranked (none accepted at {} bits or more).\n",
                self.min_security
            );
        }
        for l in &self.summary.lines {
            let _ = writeln!(md, "- {l}");
        }
        match charts {
            None => {
                let _ = writeln!(md, "\nCharts: see `report.html` (same folder).\n");
            }
            Some(charts) => {
                let _ = writeln!(md, "\n## Charts\n");
                for c in charts {
                    // One line of raw HTML, a block of its own.
                    let _ = writeln!(md, "<div class=\"chart\">{}</div>\n", c.replace('\n', " "));
                }
            }
        }
        let ratios = ratio_table(&self.rows);
        if !ratios.rows.is_empty() {
            let _ = writeln!(md, "## RV32 / M33 per configuration\n\nThe RV32 cost over the M33 cost of the same configuration, per source (above 1: Hazard3 is slower). The BLAKE3 compression cost per core is in the baseline section, when it is part of the report.\n");
            md.push_str(&md_table(&ratios));
            md.push('\n');
        }
        let vs = estimate_device_table(&self.rows);
        if !vs.rows.is_empty() {
            let _ = writeln!(md, "## Estimate against device\n\nEvery configuration measured on a board and estimated from its emulator run.\n");
            md.push_str(&md_table(&vs));
            md.push('\n');
        }
        md.push_str(&proven::section(&self.rows, self.min_security));
        md.push_str(&hash_axis::section(&self.rows));
        for (title, what, t) in scaling::tables(&self.rows) {
            let _ = writeln!(md, "## {title}\n\n{what}.\n");
            md.push_str(&md_table(&t));
            md.push('\n');
        }
        if let Some(t) = scaling::wide_air_table(&self.rows) {
            let _ = writeln!(md, "## Wide AIR\n\n{WIDE_AIR_NOTE}\n");
            md.push_str(&md_table(&t));
            md.push('\n');
        }
        let _ = writeln!(md, "## Matrix\n\nEach cost column belongs to one source; “–” = not measured by that source.\n");
        md.push_str(&md_table(&matrix(&self.rows, self.min_security)));
        if !self.params.is_empty() {
            let _ = writeln!(md, "\n## Proof parameters\n");
            md.push_str(&md_table(&params_table(&self.params)));
        }
        let gaps = self.gaps();
        if !gaps.is_empty() || !self.notes.is_empty() || !self.warnings.is_empty() {
            let _ = writeln!(md, "\n## Missing data and warnings\n");
            for g in self.notes.iter().chain(&gaps).chain(&self.warnings) {
                let _ = writeln!(md, "- {}", g.replace('\n', " "));
            }
        }
        if let Some(b) = &self.baseline {
            let _ = writeln!(md, "\n{b}");
        }
        let _ = writeln!(md, "\n## Provenance\n");
        md.push_str(&md_table(&provenance(&self.rows)));
        let _ = writeln!(md, "\n## Method\n");
        for l in METHOD_NOTES {
            let _ = writeln!(md, "- {l}");
        }
        md
    }

    fn source_counts(&self) -> String {
        let mut counts: Vec<(String, usize)> = Vec::new();
        for r in &self.rows {
            match counts.iter_mut().find(|(s, _)| *s == r.source) {
                Some((_, n)) => *n += 1,
                None => counts.push((r.source.clone(), 1)),
            }
        }
        if counts.is_empty() {
            return "none".into();
        }
        counts
            .iter()
            .map(|(s, n)| format!("{n} {s}"))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Writes the four files into `dir`.
    pub fn write(&self, dir: &Path) -> Result<(), String> {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let files = [
            ("report.md", self.markdown()),
            ("report.html", self.html()),
            ("table.csv", to_csv(&self.rows)),
            ("table.json", to_json(&self.rows) + "\n"),
        ];
        for (name, text) in files {
            let p = dir.join(name);
            std::fs::write(&p, text).map_err(|e| format!("{}: {e}", p.display()))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::build_rows;
    use crate::table::tests::{dev, emu, with_estimate, with_security};

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
    }

    #[test]
    fn report_shows_device_rows_next_to_emulator_rows_and_gaps() {
        let rows = build_rows(&[
            emu("p3-babybear", 4, 1024, "m33", 11_000_000),
            emu("p3-babybear", 4, 1024, "rv32", 15_000_000),
            dev(
                "p3-babybear",
                1024,
                "m33",
                &[14_000_000, 14_100_000, 13_900_000],
            ),
            emu("p3-m31", 4, 1024, "m33", 14_000_000),
        ]);
        let r = Report::new(rows, 95);
        let md = r.markdown();
        let dev_line = md
            .lines()
            .position(|l| l.starts_with("| device | p3-babybear"))
            .unwrap();
        let emu_line = md
            .lines()
            .position(|l| l.starts_with("| emulator | p3-babybear"))
            .unwrap();
        assert_eq!(
            dev_line + 1,
            emu_line,
            "device row sits next to the emulator row"
        );
        assert!(md.contains("93.33 @ 150 MHz"), "14.0 M cycles at 150 MHz");
        assert!(md.contains("no emulator row for p3-m31^4 fib n=2^10 on rv32"));
        assert!(!md.contains("no emulator row for p3-babybear"));
        let html = r.html();
        assert!(html.contains("<svg") && !html.contains("<script"));
        assert!(html.contains("Verify cost per backend and core, n = 2^10 (emulator)"));
        assert!(html.contains("Verify cost per backend and core, n = 2^10 (device)"));
        assert!(
            !html.contains("Estimated cycles by cause"),
            "no estimate, no chart"
        );
        assert!(html.contains("<table>") && html.contains("<td>device</td>"));
    }

    #[test]
    fn estimates_security_and_device_runs_in_the_report() {
        let mut d = dev(
            "wf-goldilocks",
            1024,
            "m33",
            &[12_000_000, 12_100_000, 11_900_000],
        );
        d.record.extension = 2;
        let rows = build_rows(&[
            with_security(
                with_estimate(emu("wf-goldilocks", 2, 1024, "m33", 8_000_000), 12_600_000),
                96.0,
                57.5,
            ),
            with_estimate(
                emu("wf-goldilocks", 2, 1024, "rv32", 12_000_000),
                13_860_000,
            ),
            d,
            emu("p3-m31", 4, 1024, "m33", 9_000_000),
        ]);
        let r = Report::new(rows, 95);
        let md = r.markdown();
        let has = |s: &str| assert!(md.contains(s), "{s}: {md}");
        // RV32/M33 in instructions and in estimated time.
        has("| wf-goldilocks^2 | 2^10 | tlsf | 1.50 | 1.10 | – |");
        // Estimate next to the device run, with the error: 12.6 M against 12.0 M.
        has("| wf-goldilocks^2 | m33 | 2^10 | tlsf | 12\u{202f}600\u{202f}000 (rp2350-m33 v1) | 12\u{202f}000\u{202f}000 (k=3, rp2350) | +5.0% |");
        // The estimate row: cycles, ms and the breakdown; the five regimes and the policy.
        has("| estimate | wf-goldilocks | goldilocks^2 | fib | 2^10 | m33 | tlsf | 8\u{202f}000\u{202f}000 | 12\u{202f}600\u{202f}000 (rp2350-m33 v1) | 84.00 @ 150 MHz | 2\u{202f}520\u{202f}000 · 12\u{202f}600 of 6\u{202f}300\u{202f}000 (630\u{202f}000 cycles) |");
        has("| 98 | 97 | 96 | 28.8 | 57.5 | strictest ≥ 95: 96 | accepted |");
        // An old record says it has no estimate.
        has("| emulator | p3-m31 | m31^4 | fib | 2^10 | m33 | tlsf | 9\u{202f}000\u{202f}000 | none: the record predates the timing model |");
        has("| – | – | – | – | – | 96 (the record names no regime) | accepted |");
        has("- **p3-m31**: no proven-100 configuration measured.");
        let html = r.html();
        assert!(html.contains("Estimated cycles by cause, n = 2^10 (estimate)"));
        assert!(html.contains("Verify cost per backend and core, n = 2^10 (estimate)"));
    }

    #[test]
    fn zero_security_rows_get_the_estimator_value() {
        let mut e = emu("p3-m31", 3, 1024, "m33", 1136);
        e.record.security_bits = 0;
        e.record.result = "rejected:insufficient-security".into();
        let mut r = Report::new(build_rows(&[e, emu("p3-m31", 4, 1024, "m33", 9)]), 95);
        let p = |ext: u8, bits: u32| ParamRow {
            file: String::new(),
            backend: "p3-m31".into(),
            extension: ext,
            n: 1024,
            params: String::new(),
            bytes: 1,
            figures: Figures::default(),
            security_bits: bits,
        };
        r.set_params(vec![p(3, 78), p(4, 97)]);
        assert_eq!(r.rows[0].security_bits, 78);
        assert_eq!(
            r.rows[1].security_bits, 96,
            "non-zero rows keep their own value"
        );
        assert_eq!(r.notes.len(), 1);
        // ... and a stated value that disagrees with the proof file is reported.
        assert!(r
            .gaps()
            .iter()
            .any(|g| g.contains("states 96 bits, the proof file's parameters give 97")));
    }
}

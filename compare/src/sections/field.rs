//! Field arithmetic on both cores (issue 44 item 2): the field micro-benchmark's records
//! (`results/field-bench/field-bench.CORE.json`, written by `mcu-run field-bench`):
//! instructions and the timing model's estimated cycles per base product, extension
//! product, square, inverse and FRI fold step, for every field and extension the backends
//! use, ours beside p3-field 0.8's and winterfell 0.13's. zkmcu's hand-measured table
//! (BabyBear^4 schoolbook against Karatsuba against Goldilocks^2, on silicon) generalised to
//! field x extension x algorithm x core.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

use crate::doc::{Section, Table};

/// The operations, in column order.
const OPS: [&str; 4] = ["mul", "square", "inverse", "fold"];

/// The records in `dir` (`field-bench.*.json`), M33 first.
pub fn records(dir: &Path) -> Vec<Value> {
    let mut out: Vec<Value> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.starts_with("field-bench.") && name.ends_with(".json")
        })
        .filter_map(|p| serde_json::from_str(&std::fs::read_to_string(p).ok()?).ok())
        .filter(|r: &Value| r["kind"] == "field-bench")
        // The code-in-SRAM runs (no XIP misses, so no layout effects); records without a
        // placement predate the choice.
        .filter(|r: &Value| {
            r["placement"]
                .as_str()
                .is_none_or(|p| p.starts_with("sram"))
        })
        .collect();
    out.sort_by_key(|r| core_rank(r["core"].as_str().unwrap_or("")));
    out
}

fn core_rank(core: &str) -> u8 {
    match core {
        "m33" => 0,
        "rv32" => 1,
        _ => 2,
    }
}

fn core_name(core: &str) -> &str {
    match core {
        "m33" => "M33",
        "rv32" => "Hazard3",
        other => other,
    }
}

fn field_rank(field: &str) -> u8 {
    match field {
        "m31" => 0,
        "babybear" => 1,
        "goldilocks" => 2,
        _ => 3,
    }
}

fn implementation_rank(name: &str) -> u8 {
    match name {
        n if n.starts_with("ours") => 0,
        n if n.starts_with("p3") => 1,
        _ => 2,
    }
}

/// One table row's key: field, degree, extension, implementation, algorithm.
type Key = (u8, u64, String, u8, String, String);

/// The figures by row key, then by (core, op): instructions and estimated cycles.
type Figures = BTreeMap<Key, BTreeMap<(String, String), (f64, f64)>>;

fn figures(records: &[Value]) -> Figures {
    let mut out = Figures::new();
    for r in records {
        let core = r["core"].as_str().unwrap_or("").to_string();
        for row in r["rows"].as_array().into_iter().flatten() {
            let s = |k: &str| row[k].as_str().unwrap_or("").to_string();
            let implementation = s("implementation");
            let key = (
                field_rank(&s("field")),
                row["degree"].as_u64().unwrap_or(0),
                s("extension"),
                implementation_rank(&implementation),
                implementation,
                s("algorithm"),
            );
            let (Some(i), Some(c)) = (
                row["instructions_per_op"].as_f64(),
                row["est_cycles_per_op"].as_f64(),
            ) else {
                continue;
            };
            out.entry(key)
                .or_default()
                .insert((core.clone(), s("op")), (i, c));
        }
    }
    out
}

/// A figure as the record holds it (two decimals at most), without trailing zeros.
fn cell(v: Option<f64>) -> String {
    match v {
        None => "–".into(),
        Some(v) if (v - v.round()).abs() < 0.005 => format!("{}", v.round() as i64),
        Some(v) => format!("{v:.2}").trim_end_matches('0').to_string(),
    }
}

/// The section, empty (not shown) without records.
pub fn section(dir: &Path) -> Section {
    let records = records(dir);
    let mut s = Section::new(
        "field",
        "Field arithmetic on both cores",
        "Instructions and estimated RP2350 cycles per operation, for every field and extension the backends use: ours (`picostark-field`, `blocks/field/`) beside p3-field 0.8's and winterfell 0.13's. Measured by `mcu-run field-bench --core m33|rv32` (firmware feature `field-bench`, `blocks/field/src/bench.rs`): each operation runs as a chain of dependent operations (each result the next operand) in its own `#[inline(never)]` function, in windows of k and 2k loop iterations of 4 operations; per operation = (window(2k) − window(k) − the same difference of an empty loop) / 4k, so calls, markers and inputs cancel. Code and read-only data run from SRAM (`--placement sram`, the default, firmware feature `code-in-ram`): no XIP cache misses. (With code in flash, `--placement xip`, the k and 2k windows do not start from one cache state even after a warm-up window — ours BabyBear^4 product on Hazard3: 10,843 against 2,903 XIP miss cycles — so their difference does not isolate the operation.) The estimate still depends on instruction alignment (Hazard3's extra cycle for a jump to a misaligned 32-bit instruction), not on cache sets.",
    );
    if records.is_empty() {
        return s;
    }
    let figs = figures(&records);
    let cores: Vec<String> = records
        .iter()
        .map(|r| r["core"].as_str().unwrap_or("").to_string())
        .collect();
    for (what, pick) in [
        ("instructions per operation (QEMU 7.2, exact)", 0usize),
        ("estimated RP2350 cycles per operation (timing model)", 1),
    ] {
        let mut head = String::from("field | extension | implementation | algorithm");
        for core in &cores {
            for op in OPS {
                head.push_str(&format!(" | {} {op}", core_name(core)));
            }
        }
        let mut t = Table::new(what, &head);
        for (key, by) in &figs {
            let (_, _, extension, _, implementation, algorithm) = key;
            let field = extension.split([' ', '^']).next().unwrap_or("");
            let field = match field {
                "CM31" | "QM31" => "M31",
                f => f,
            };
            let mut line = format!("{field} | {extension} | {implementation} | {algorithm}");
            for core in &cores {
                for op in OPS {
                    let v = by.get(&(core.clone(), op.to_string())).map(|f| {
                        if pick == 0 {
                            f.0
                        } else {
                            f.1
                        }
                    });
                    line.push_str(&format!(" | {}", cell(v)));
                }
            }
            t.row(&line);
        }
        s.tables.push(t);
    }
    s.notes.extend(records.iter().map(|r| {
        format!(
            "{}: {} ({}), code placement {}, {} timing model version {}, toolchain {}, profile `{}`, commit {}; k = {}, {} operations a loop iteration; the loop itself {} instructions / {} est. cycles an iteration.",
            core_name(r["core"].as_str().unwrap_or("")),
            r["emulator"].as_str().unwrap_or("?"),
            r["isa"].as_str().unwrap_or("?"),
            r["placement"].as_str().unwrap_or("xip (not recorded)"),
            r["timing_model"]["model"].as_str().unwrap_or("?"),
            r["timing_model"]["version"],
            r["toolchain"].as_str().unwrap_or("?"),
            r["profile"].as_str().unwrap_or("?"),
            r["git_commit"].as_str().unwrap_or("?").get(..7).unwrap_or("?"),
            r["k"],
            r["unroll"],
            r["loop_per_iteration"]["instructions"],
            r["loop_per_iteration"]["est_cycles"],
        )
    }));
    let missing: Vec<String> = records
        .iter()
        .flat_map(|r| {
            let core = core_name(r["core"].as_str().unwrap_or(""));
            r["rows"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(move |row| {
                    let miss = row["xip_miss_cycles_per_op"].as_f64()?;
                    let cycles = row["est_cycles_per_op"].as_f64()?;
                    (cycles > 0.0 && miss > 0.1 * cycles).then(|| {
                        format!(
                            "{core} {} {} {} ({:.0} %)",
                            row["implementation"].as_str().unwrap_or("?"),
                            row["extension"].as_str().unwrap_or("?"),
                            row["op"].as_str().unwrap_or("?"),
                            100.0 * miss / cycles
                        )
                    })
                })
        })
        .collect();
    if !missing.is_empty() {
        s.notes.push(format!(
            "More than 10 % of the estimated cycles are XIP cache misses (each chain is 4 inlined operations a loop iteration, so a long operation's code can outgrow its cache sets): {}.",
            missing.join("; ")
        ));
    }
    s.notes.push("A fraction in an instruction count: the chain's operations branch on their data (conditional reductions), or the loop keeps its counter in memory where the empty loop does not (at most 0.5 an operation). Estimated cycles include the XIP cache misses of the chain's own code in flash (a long unrolled chain can miss on every iteration), as the verifiers' code would.".into());
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(core: &str, rows: &str) -> String {
        format!(
            r#"{{"kind": "field-bench", "core": "{core}", "emulator": "qemu 7.2", "isa": "x",
            "timing_model": {{"model": "rp2350-{core}", "version": 7}}, "toolchain": "rustc 1.95.0",
            "profile": "release opt-level=s", "git_commit": "0123456789abcdef", "k": 64, "unroll": 4,
            "loop_per_iteration": {{"instructions": 2.0, "est_cycles": 3.0}}, "rows": [{rows}]}}"#
        )
    }

    fn row(imp: &str, field: &str, degree: u32, ext: &str, op: &str, i: f64, c: f64) -> String {
        format!(
            r#"{{"implementation": "{imp}", "field": "{field}", "degree": {degree}, "extension": "{ext}",
            "algorithm": "a", "op": "{op}", "instructions_per_op": {i}, "est_cycles_per_op": {c}}}"#
        )
    }

    #[test]
    fn the_section_renders_from_the_records() {
        let dir = std::env::temp_dir().join(format!("pstk-field-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        assert!(!section(&dir).shown(), "no records, no section");
        let m33 = [
            row("p3-field 0.8", "m31", 4, "QM31", "mul", 341.0, 457.25),
            row(
                "ours (picostark-field)",
                "m31",
                4,
                "QM31",
                "mul",
                126.5,
                150.25,
            ),
            row(
                "ours (picostark-field)",
                "m31",
                4,
                "QM31",
                "fold",
                220.75,
                276.0,
            )
            .replace(r#""op""#, r#""xip_miss_cycles_per_op": 100.0, "op""#),
            row(
                "ours (picostark-field)",
                "goldilocks",
                1,
                "Goldilocks",
                "mul",
                38.0,
                38.0,
            ),
        ]
        .join(",");
        let rv32 = row(
            "ours (picostark-field)",
            "m31",
            4,
            "QM31",
            "mul",
            171.75,
            177.55,
        );
        std::fs::write(dir.join("field-bench.rv32.json"), record("rv32", &rv32)).unwrap();
        std::fs::write(dir.join("field-bench.m33.json"), record("m33", &m33)).unwrap();
        std::fs::write(dir.join("other.json"), "{}").unwrap();
        // A code-in-flash run stays out of the table.
        let xip = record(
            "m33",
            &row("winterfell 0.13", "goldilocks", 2, "G2", "mul", 1.0, 2.0),
        )
        .replace(r#""isa": "x""#, r#""isa": "x", "placement": "xip: flash""#);
        std::fs::write(dir.join("field-bench.m33.xip.json"), xip).unwrap();
        let s = section(&dir);
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(s.shown());
        let [insns, cycles] = &s.tables[..] else {
            panic!("two tables")
        };
        assert_eq!(insns.head.len(), 4 + 8);
        assert_eq!(insns.head[4], "M33 mul");
        assert_eq!(insns.head[8], "Hazard3 mul");
        // M31 before Goldilocks, ours before p3.
        let first: Vec<&str> = insns.rows.iter().map(|r| r[2].as_str()).collect();
        assert_eq!(
            first,
            [
                "ours (picostark-field)",
                "p3-field 0.8",
                "ours (picostark-field)"
            ]
        );
        assert_eq!(insns.rows[0][..2], ["M31", "QM31"]);
        assert_eq!(
            insns.rows[0][4..],
            ["126.5", "–", "–", "220.75", "171.75", "–", "–", "–"]
        );
        assert_eq!(cycles.rows[1][4], "457.25");
        assert_eq!(insns.rows.len(), 3, "{:?}", insns.rows);
        assert_eq!(insns.rows[2][..2], ["Goldilocks", "Goldilocks"]);
        assert_eq!(insns.rows[2][4], "38");
        assert!(s.notes[0].starts_with("M33: qemu 7.2"), "{:?}", s.notes);
        assert!(s.notes[1].contains("commit 0123456"));
        assert!(s.notes[2].contains("M33 ours (picostark-field) QM31 fold (36 %)"));
    }
}

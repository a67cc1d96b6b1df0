//! Reading inputs: run-record JSON (one object or an array, as `prover-host bench` and
//! `mcu-run` write them) and device logs in the firmware's line format. Directories are
//! walked recursively in name order, so a report is the same whatever the file system's
//! listing order.
//!
//! The kind of a file is decided by its content, not its name: text whose first
//! non-blank character is `{` or `[` is JSON, anything else is read as a log. Files named
//! `*.proof`, `*.md`, `*.html`, `*.csv`, `*.png` and `*.svg` are skipped, as is the
//! `table.json` this tool writes (it is recognised by its `kind` field).

use std::path::{Path, PathBuf};

use picostark_core::record::{RunRecord, RUN_RECORD_SCHEMA};

use crate::device::parse_device_log;

/// The `kind` field of the `table.json` this tool writes.
pub const TABLE_KIND: &str = "picostark-compare-table";

/// The sources a record may name.
pub const KNOWN_SOURCES: &[&str] = &["host", "emulator", "device"];

/// One input record and where it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub record: RunRecord,
    /// The file it was read from.
    pub origin: String,
    /// Device runs: the result of the firmware's tampered copy.
    pub tampered: Option<String>,
}

/// Everything read, and what was skipped and why.
#[derive(Clone, Debug, Default)]
pub struct Loaded {
    pub entries: Vec<Entry>,
    pub warnings: Vec<String>,
    /// Files already read (canonical paths), so a file named twice counts once.
    seen: Vec<PathBuf>,
}

const SKIPPED_EXTENSIONS: &[&str] = &["proof", "md", "html", "csv", "png", "svg", "elf", "uf2"];

/// The repository root (this crate is at `compare/`).
pub fn repo_root() -> PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    here.join("..")
        .canonicalize()
        .unwrap_or_else(|_| here.join(".."))
}

/// How a path is shown in the report: relative to the working directory (or the
/// repository) when it is inside it, so that no absolute path of the build machine lands in
/// `results/`.
pub fn shown(path: &Path) -> String {
    let bases = [
        std::env::current_dir().ok(),
        repo_root().canonicalize().ok(),
    ];
    let abs = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    bases
        .iter()
        .flatten()
        .find_map(|b| abs.strip_prefix(b).ok())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// Reads every path (file or directory).
pub fn load(paths: &[PathBuf]) -> Loaded {
    let mut out = Loaded::default();
    for p in paths {
        load_path(p, &mut out);
    }
    out
}

fn load_path(path: &Path, out: &mut Loaded) {
    if path.is_dir() {
        let mut children: Vec<PathBuf> = match std::fs::read_dir(path) {
            Ok(rd) => rd.filter_map(|e| e.ok().map(|e| e.path())).collect(),
            Err(e) => {
                out.warnings.push(format!("{}: {e}", shown(path)));
                return;
            }
        };
        children.sort();
        for c in children {
            let skip = c
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| SKIPPED_EXTENSIONS.contains(&e));
            if !skip {
                load_path(&c, out);
            }
        }
        return;
    }
    let canonical = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    if out.seen.contains(&canonical) {
        out.warnings
            .push(format!("{}: named twice; read once", shown(path)));
        return;
    }
    out.seen.push(canonical);
    match std::fs::read(path) {
        Ok(bytes) => {
            let text = String::from_utf8_lossy(&bytes);
            load_text(&text, &shown(path), out);
        }
        Err(e) => out.warnings.push(format!("{}: {e}", shown(path))),
    }
}

/// Reads one file's text; `origin` names it in entries and warnings.
pub fn load_text(text: &str, origin: &str, out: &mut Loaded) {
    let first = text.trim_start().chars().next();
    if matches!(first, Some('{') | Some('[')) {
        match parse_json_records(text) {
            Ok(Some(records)) => {
                for record in records {
                    push(record, origin, None, out);
                }
            }
            Ok(None) => {}
            Err(e) => out
                .warnings
                .push(format!("{origin}: not run-record JSON ({e}); skipped")),
        }
        return;
    }
    for e in crate::device::log_meta(text).errors {
        out.warnings
            .push(format!("{origin}: firmware reported `{e}`"));
    }
    let runs = parse_device_log(text);
    if runs.is_empty() {
        out.warnings
            .push(format!("{origin}: no pstk1 run line; skipped"));
    }
    for run in runs {
        match run {
            Ok(r) => push(r.record, origin, r.tampered, out),
            Err(e) => out.warnings.push(format!("{origin}: {e}; run skipped")),
        }
    }
}

/// Parses run-record JSON: one record or an array. `Ok(None)` for this tool's own table.
pub fn parse_json_records(text: &str) -> Result<Option<Vec<RunRecord>>, String> {
    let v: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    if v.get("kind").and_then(|k| k.as_str()) == Some(TABLE_KIND) {
        return Ok(None);
    }
    let items = match v {
        serde_json::Value::Array(a) => a,
        other => vec![other],
    };
    items
        .into_iter()
        .map(|i| serde_json::from_value::<RunRecord>(i).map_err(|e| e.to_string()))
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

fn push(record: RunRecord, origin: &str, tampered: Option<String>, out: &mut Loaded) {
    if record.schema != RUN_RECORD_SCHEMA {
        out.warnings.push(format!(
            "{origin}: record schema {} (this build reads {RUN_RECORD_SCHEMA}); skipped",
            record.schema
        ));
        return;
    }
    if !KNOWN_SOURCES.contains(&record.source.as_str()) {
        out.warnings.push(format!(
            "{origin}: unknown source {:?}; skipped",
            record.source
        ));
        return;
    }
    let entry = Entry {
        record,
        origin: origin.to_string(),
        tampered,
    };
    // Identical records from different files are kept: two proofs of one statement can
    // measure the same (a deterministic prover), and both count as proofs.
    out.entries.push(entry);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(source: &str, core: &str) -> RunRecord {
        RunRecord {
            schema: RUN_RECORD_SCHEMA,
            source: source.into(),
            backend: "p3-babybear".into(),
            field: "babybear".into(),
            extension: 4,
            air: "fib".into(),
            n: 1024,
            core: core.into(),
            instructions: Some(5),
            ..RunRecord::default()
        }
    }

    #[test]
    fn json_object_array_and_garbage() {
        let mut out = Loaded::default();
        let one = serde_json::to_string(&rec("emulator", "m33")).unwrap();
        let many =
            serde_json::to_string(&vec![rec("host", "host"), rec("emulator", "rv32")]).unwrap();
        load_text(&one, "a.json", &mut out);
        load_text(&many, "b.json", &mut out);
        load_text("{\"schema\": 1}", "c.json", &mut out);
        load_text(&one, "d.json", &mut out);
        load_text(
            &serde_json::to_string(&rec("guess", "m33")).unwrap(),
            "e.json",
            &mut out,
        );
        load_text(
            &format!("{{\"kind\":\"{TABLE_KIND}\",\"rows\":[]}}"),
            "table.json",
            &mut out,
        );
        assert_eq!(
            out.entries.len(),
            4,
            "identical records of two files both count"
        );
        assert_eq!(out.entries[1].record.source, "host");
        assert_eq!(out.entries[2].origin, "b.json");
        assert_eq!(out.entries[3].origin, "d.json");
        assert_eq!(out.warnings.len(), 2, "{:?}", out.warnings);
        assert!(out.warnings[0].starts_with("c.json"));
        assert!(out.warnings[1].contains("unknown source"));
    }

    /// Files as the tools write them: `prover-host bench` (an array) and `mcu-run` (one
    /// object), copied from a `compare all` run into `testdata/`.
    #[test]
    fn tool_outputs_parse() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata");
        let out = load(&[
            dir.join("host-bench.json"),
            dir.join("emulator-record.json"),
        ]);
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
        let (host, emu): (Vec<&Entry>, Vec<&Entry>) =
            out.entries.iter().partition(|e| e.record.source == "host");
        assert!(!host.is_empty());
        for e in &host {
            let r = &e.record;
            assert_eq!(r.core, "host");
            assert!(r.prove_ms.is_some() && r.verify_ms.is_some());
            assert!(r.instructions.is_none() && r.cycles.is_empty());
            assert!(picostark_core::BackendId::from_name(&r.backend).is_some());
        }
        assert_eq!(emu.len(), 1);
        let r = &emu[0].record;
        assert_eq!(r.source, "emulator");
        let c = r.instruction_classes.as_ref().unwrap();
        assert_eq!(
            c.mul + c.load_store + c.branch + c.other,
            r.instructions.unwrap(),
            "the classes partition the count"
        );
        assert!(r.heap_peak.is_some() && r.stack_peak.is_some());
    }

    #[test]
    fn logs_are_read_as_device_runs() {
        let mut out = Loaded::default();
        load_text(
            "pstk1 run backend=p3-babybear field=babybear ext=4 air=fib n=1024 core=m33 board=rp2350 alloc=tlsf heap=1 proof_bytes=2 security=95 counter=cycles clock_hz=150000000 iterations=2\n\
             pstk1 iter i=0 count=1000 result=accepted\n\
             pstk1 iter i=1 count=900 result=rejected:rejected\n\
             pstk1 done accepted=1 rejected=1\n",
            "board.log",
            &mut out,
        );
        load_text("hello\n", "noise.log", &mut out);
        assert_eq!(out.entries.len(), 1);
        assert_eq!(out.entries[0].record.source, "device");
        assert_eq!(out.entries[0].record.cycles, vec![1000]);
        assert_eq!(
            out.entries[0].tampered.as_deref(),
            Some("rejected:rejected")
        );
        assert_eq!(out.warnings.len(), 1);
    }
}

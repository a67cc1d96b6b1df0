//! Reading inputs: run-record JSON (one object or an array, as `prover-host bench` and
//! `mcu-run` write them) and device logs in the firmware's line format. Directories are
//! walked recursively in name order, so a report is the same whatever the file system's
//! listing order.
//!
//! The kind of a file is decided by its content, not its name: text whose first
//! non-blank character is `{` or `[` is JSON, anything else is read as a log. Files named
//! `*.proof`, `*.md`, `*.html`, `*.csv`, `*.png`, `*.svg`, `*.elf` and `*.uf2` are skipped,
//! as is the `table.json` this tool writes (it is recognised by its `kind` field).

use std::path::{Path, PathBuf};

use picostark_core::record::{RunRecord, RUN_RECORD_SCHEMA};

use crate::device::{log_meta, parse_device_log};

/// The `kind` field of the `table.json` this tool writes.
pub const TABLE_KIND: &str = "picostark-compare-table";

/// One input record, where it came from, and for a device run the result of the firmware's
/// tampered copy.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Entry {
    pub record: RunRecord,
    pub origin: String,
    pub tampered: Option<String>,
}

/// Everything read, what was skipped and why, and the files read (canonical paths, so a
/// file named twice counts once).
#[derive(Clone, Debug, Default)]
pub struct Loaded {
    pub entries: Vec<Entry>,
    pub warnings: Vec<String>,
    seen: Vec<PathBuf>,
}

const SKIPPED: &[&str] = &["proof", "md", "html", "csv", "png", "svg", "elf", "uf2"];

/// The repository root (this crate is at `compare/`).
pub fn repo_root() -> PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    here.canonicalize().unwrap_or(here)
}

/// How a path is shown in the report: relative to the working directory (or the
/// repository) when it is inside it, so that no absolute path of the build machine lands in
/// `results/`.
pub fn shown(path: &Path) -> String {
    let bases = [std::env::current_dir().ok(), Some(repo_root())];
    let abs = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    let mut bases = bases.iter().flatten();
    let inside = bases.find_map(|b| abs.strip_prefix(b).ok());
    inside.unwrap_or(path).display().to_string()
}

/// Reads every path (file or directory).
pub fn load(paths: &[PathBuf]) -> Loaded {
    let mut out = Loaded::default();
    paths.iter().for_each(|p| load_path(p, &mut out));
    out
}

fn load_path(path: &Path, out: &mut Loaded) {
    let name = shown(path);
    if path.is_dir() {
        let listed = std::fs::read_dir(path).map(|rd| rd.flatten().map(|e| e.path()));
        let mut children: Vec<PathBuf> = match listed {
            Ok(c) => c.collect(),
            Err(e) => return out.warnings.push(format!("{name}: {e}")),
        };
        children.sort();
        let ext = |c: &PathBuf| c.extension().map(|e| e.to_string_lossy().into_owned());
        let skip = |c: &&PathBuf| ext(c).is_some_and(|e| SKIPPED.contains(&e.as_str()));
        let kept = children.iter().filter(|c| !skip(c));
        kept.for_each(|c| load_path(c, out));
        return;
    }
    let canonical = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    if out.seen.contains(&canonical) {
        return out.warnings.push(format!("{name}: named twice; read once"));
    }
    out.seen.push(canonical);
    match std::fs::read(path) {
        Ok(bytes) => load_text(&String::from_utf8_lossy(&bytes), &name, out),
        Err(e) => out.warnings.push(format!("{name}: {e}")),
    }
}

/// Reads one file's text; `origin` names it in entries and warnings.
pub fn load_text(text: &str, origin: &str, out: &mut Loaded) {
    let mut warn = |w: String| out.warnings.push(format!("{origin}: {w}"));
    let mut records: Vec<(RunRecord, Option<String>)> = Vec::new();
    if text.trim_start().starts_with(['{', '[']) {
        match parse_json_records(text) {
            Ok(r) => records.extend(r.into_iter().map(|r| (r, None))),
            Err(e) => warn(format!("not run-record JSON ({e}); skipped")),
        }
    } else {
        for e in log_meta(text).errors {
            warn(format!("firmware reported `{e}`"));
        }
        let runs = parse_device_log(text);
        if runs.is_empty() {
            warn("no pstk1 run line; skipped".into());
        }
        for run in runs {
            match run {
                Ok(r) => records.push((r.record, r.tampered)),
                Err(e) => warn(format!("{e}; run skipped")),
            }
        }
    }
    // Identical records from different files are kept: two proofs of one statement can
    // measure the same (a deterministic prover), and both count as proofs.
    for (record, tampered) in records {
        if record.schema != RUN_RECORD_SCHEMA {
            let (schema, reads) = (record.schema, RUN_RECORD_SCHEMA);
            let why = format!("record schema {schema} (this build reads {reads})");
            warn(format!("{why}; skipped"));
        } else if !["host", "emulator", "device"].contains(&record.source.as_str()) {
            warn(format!("unknown source {:?}; skipped", record.source));
        } else {
            let mut entry = Entry::default();
            (entry.record, entry.origin, entry.tampered) = (record, origin.into(), tampered);
            out.entries.push(entry);
        }
    }
}

/// Parses run-record JSON: one record or an array; none for this tool's own table.
pub fn parse_json_records(text: &str) -> Result<Vec<RunRecord>, String> {
    let v: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let items = match v {
        _ if v["kind"] == TABLE_KIND => vec![],
        serde_json::Value::Array(a) => a,
        other => vec![other],
    };
    let record = |i| serde_json::from_value::<RunRecord>(i).map_err(|e| e.to_string());
    items.into_iter().map(record).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(source: &str, core: &str) -> String {
        let r = crate::table::tests::emu("p3-babybear", 4, 1024, core, 5).record;
        let source = source.into();
        serde_json::to_string(&RunRecord { source, ..r }).unwrap()
    }

    #[test]
    fn json_object_array_garbage_and_logs() {
        let mut out = Loaded::default();
        let many = format!("[{}, {}]", json("host", "host"), json("emulator", "rv32"));
        let table = format!("{{\"kind\":\"{TABLE_KIND}\",\"rows\":[]}}");
        let log = "pstk1 run backend=p3-babybear field=babybear ext=4 air=fib n=1024 core=m33 board=rp2350 alloc=tlsf heap=1 proof_bytes=2 security=95 counter=cycles clock_hz=150000000 iterations=2
pstk1 iter i=0 count=1000 result=accepted
pstk1 iter i=1 count=900 result=rejected:rejected
pstk1 done accepted=1 rejected=1
";
        let files = [
            (json("emulator", "m33"), "a.json"),
            (many, "b.json"),
            ("{\"schema\": 1}".into(), "c.json"),
            (json("emulator", "m33"), "d.json"),
            (json("guess", "m33"), "e.json"),
            (table, "table.json"),
            (log.into(), "board.log"),
            ("hello\n".into(), "noise.log"),
        ];
        for (text, name) in &files {
            load_text(text, name, &mut out);
        }
        let got = out.entries.iter();
        let got = got.map(|e| format!("{} {}", e.origin, e.record.source));
        // Identical records of two files both count.
        let want =
            "a.json emulator, b.json host, b.json emulator, d.json emulator, board.log device";
        assert_eq!(got.collect::<Vec<_>>().join(", "), want);
        let device = &out.entries[4];
        assert_eq!(device.record.cycles, [1000]);
        assert_eq!(device.tampered.as_deref(), Some("rejected:rejected"));
        let warned = out.warnings.iter().filter_map(|w| w.split(':').next());
        let warned: Vec<&str> = warned.collect();
        let all = &out.warnings;
        assert_eq!(warned, ["c.json", "e.json", "noise.log"], "{all:?}");
        assert!(out.warnings[1].contains("unknown source"));
    }

    /// Files as the tools write them: `prover-host bench` (an array) and `mcu-run` (one
    /// object), copied from a `compare all` run into `testdata/` (the emulator record with the
    /// `params`, `placement` and `image` fields `mcu-run` writes since issue 27).
    #[test]
    fn tool_outputs_parse() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata");
        let files = ["host-bench.json", "emulator-record.json"].map(|f| dir.join(f));
        let out = load(&files);
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
        let (host, emu): (Vec<&Entry>, Vec<&Entry>) =
            out.entries.iter().partition(|e| e.record.source == "host");
        assert!(!host.is_empty());
        for r in host.iter().map(|e| &e.record) {
            assert_eq!(r.core, "host");
            assert!(r.prove_ms.is_some() && r.verify_ms.is_some());
            assert!(r.instructions.is_none() && r.cycles.is_empty());
            assert!(picostark_core::BackendId::from_name(&r.backend).is_some());
        }
        let r = &emu[0].record;
        assert_eq!((emu.len(), r.source.as_str()), (1, "emulator"));
        let c = r.instruction_classes.as_ref().unwrap();
        let sum = c.mul + c.load_store + c.branch + c.other;
        // The classes partition the count.
        assert_eq!(Some(sum), r.instructions);
        assert!(r.heap_peak.is_some() && r.stack_peak.is_some());
        // As mcu-run writes it now: the proof's parameters and the placement.
        let got = (r.params.unwrap().num_queries, r.placement.as_deref());
        assert_eq!(got, (14, Some("xip")));
    }
}

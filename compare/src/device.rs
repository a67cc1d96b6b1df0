//! Device logs: the firmware's `pstk1` lines (from a board's USB serial) turned into
//! [`RunRecord`]s with `source = "device"`.
//!
//! The lines are parsed by the core's own [`parse_log`], the same code path the emulator
//! runner uses. Each run announces `iterations = k + 1`: `k` measured verifies of the genuine
//! proof, then one of a copy with a flipped payload byte that must be rejected (see the
//! firmware's `bench` module). The record keeps the genuine iterations' counts in `cycles`;
//! the tampered copy's result is returned beside it.
//!
//! A log may also carry metadata comment lines, which the firmware never writes but a person
//! or a tool saving the log may add (the `pstk1` parser ignores them):
//!
//! ```text
//! # toolchain: rustc 1.95.0 (59807616e 2026-04-14)
//! # profile: release opt-level=s lto=fat
//! # commit: c9af4a1
//! ```
//!
//! A log with a `# sample` line (synthetic numbers; an earlier version of this tool wrote
//! one) is refused: a report holds measurements only. A `pstk1 error what=system-clock-…` line (the board did
//! not reach its nominal clock) drops the clock from the log's runs: their cycles stay, no
//! milliseconds are derived from them. A `pstk1 error what=cycle-counter-…` line inside a run
//! (the counter failed the firmware's check against the 1 MHz timer, `core::board`) refuses
//! that run: its cycles are not measurements.

use picostark_core::record::{parse_log, DeviceLog, RunRecord, RUN_RECORD_SCHEMA};

/// The source label of device runs.
pub const DEVICE: &str = "device";

/// A device run: its record and the result of the firmware's tampered copy.
#[derive(Clone, Debug, PartialEq)]
pub struct DeviceRun {
    pub record: RunRecord,
    /// `accepted` or `rejected:<kind>` of the last (tampered) iteration.
    pub tampered: Option<String>,
}

/// Metadata from `# key: value` comment lines.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LogMeta {
    pub sample: Option<String>,
    pub toolchain: Option<String>,
    pub profile: Option<String>,
    pub commit: Option<String>,
    /// The firmware said its system clock is not the nominal one
    /// (`pstk1 error what=system-clock-not-150MHz`): cycles stay, ms are not computed.
    pub clock_error: bool,
    /// Every `pstk1 error` line, as written.
    pub errors: Vec<String>,
    /// Runs (0-based, in `run`-line order) whose cycle counter failed the firmware's check
    /// against the 1 MHz timer (`pstk1 error what=cycle-counter-…`): their cycles are not
    /// trusted.
    pub counter_failed: Vec<usize>,
}

/// Reads the `# key: value` lines of a log.
pub fn log_meta(text: &str) -> LogMeta {
    let mut m = LogMeta::default();
    let mut runs = 0;
    for line in text.lines() {
        if let Some(l) = picostark_core::record::parse_line(line) {
            runs += usize::from(l.kind == "run");
            if l.kind == "error" {
                let what = l.get("what").unwrap_or("");
                m.clock_error |= what.starts_with("system-clock");
                if what.starts_with("cycle-counter") && runs > 0 {
                    m.counter_failed.push(runs - 1);
                }
                m.errors.push(line.trim().to_string());
            }
        }
        let Some(rest) = line.trim().strip_prefix('#') else {
            continue;
        };
        let Some((k, v)) = rest.split_once(':') else {
            continue;
        };
        let v = Some(v.trim().to_string());
        match k.trim().to_ascii_lowercase().as_str() {
            "sample" => m.sample = v,
            "toolchain" => m.toolchain = v,
            "profile" => m.profile = v,
            "commit" => m.commit = v,
            _ => {}
        }
    }
    m
}

/// Parses a whole log: one result per `run` line, an error for a run that is incomplete or
/// inconsistent (the others are still returned).
pub fn parse_device_log(text: &str) -> Vec<Result<DeviceRun, String>> {
    let meta = log_meta(text);
    if let Some(s) = &meta.sample {
        return vec![Err(format!(
            "marked `# sample: {s}`: synthetic numbers are not measurements"
        ))];
    }
    parse_log(text)
        .iter()
        .enumerate()
        .map(|(i, log)| match meta.counter_failed.contains(&i) {
            true => Err("the cycle counter failed its check against the 1 MHz timer (`error what=cycle-counter-…`): cycles not trusted".into()),
            false => device_run(log, &meta),
        })
        .collect()
}

fn device_run(log: &DeviceLog, meta: &LogMeta) -> Result<DeviceRun, String> {
    let run = log.run.as_ref().ok_or("no run line")?;
    let s = |k: &str| -> Result<String, String> {
        run.get(k)
            .map(str::to_string)
            .ok_or_else(|| format!("run line without {k}"))
    };
    let u = |k: &str| -> Result<u64, String> {
        run.get_u64(k)
            .ok_or_else(|| format!("run line without a numeric {k}"))
    };
    let what = format!(
        "{} n={} core={}",
        run.get("backend").unwrap_or("?"),
        run.get("n").unwrap_or("?"),
        run.get("core").unwrap_or("?")
    );
    let total = u("iterations")? as usize;
    if total < 2 {
        return Err(format!(
            "{what}: {total} iteration(s); the firmware runs at least one genuine and one tampered"
        ));
    }
    if log.iterations.len() != total {
        return Err(format!(
            "{what}: {} of {total} iteration lines (run cut short?)",
            log.iterations.len()
        ));
    }
    if log.done.is_none() {
        return Err(format!("{what}: no done line (run cut short?)"));
    }
    let genuine = &log.iterations[..total - 1];
    let tampered = log.iterations[total - 1].1.clone();
    let result = genuine
        .iter()
        .map(|(_, r)| r.as_str())
        .find(|r| *r != "accepted")
        .unwrap_or("accepted")
        .to_string();
    let counter = s("counter")?;
    let cycles: Vec<u64> = if counter == "cycles" {
        genuine.iter().map(|(c, _)| *c).collect()
    } else {
        Vec::new()
    };
    let mem = log.mem.as_ref();
    let m = |k: &str| mem.and_then(|l| l.get_u64(k));
    let ext = u("ext")?;
    let not_in_log = || "not in the log".to_string();
    Ok(DeviceRun {
        record: RunRecord {
            schema: RUN_RECORD_SCHEMA,
            source: DEVICE.into(),
            backend: s("backend")?,
            field: s("field")?,
            extension: u8::try_from(ext).map_err(|_| format!("{what}: ext={ext}"))?,
            air: s("air")?,
            n: u("n")?,
            core: s("core")?,
            board: s("board")?,
            allocator: s("alloc")?,
            heap_size: run.get_u64("heap"),
            proof_bytes: u("proof_bytes")?,
            security_bits: u("security")? as u32,
            result,
            iterations: genuine.len() as u32,
            cycles,
            clock_hz: run
                .get_u64("clock_hz")
                .filter(|&c| c > 0 && !meta.clock_error),
            heap_before: m("heap_before"),
            heap_peak: m("heap_peak"),
            stack_peak: m("stack_peak"),
            text_bytes: m("text"),
            data_bytes: m("data"),
            bss_bytes: m("bss"),
            estimate: None,
            security: None,
            // A board build hashes SHA-256 on the engine (`sha256-engine`); older logs say nothing.
            hash_impl: run.get("hash_impl").map(String::from),
            toolchain: meta.toolchain.clone().unwrap_or_else(not_in_log),
            profile: meta.profile.clone().unwrap_or_else(not_in_log),
            git_commit: meta.commit.clone().unwrap_or_else(not_in_log),
            // Host-only and emulator-only figures stay empty.
            ..RunRecord::default()
        },
        tampered: Some(tampered),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOG: &str = "boot
pstk1 run backend=p3-m31 field=m31 ext=4 air=fib n=1024 core=rv32 board=rp2350 alloc=tlsf heap=262144 proof_bytes=50000 security=96 counter=cycles clock_hz=150000000 iterations=4 hash_impl=sha256-engine
pstk1 iter i=0 count=300 result=accepted
pstk1 iter i=1 count=100 result=accepted
pstk1 iter i=2 count=200 result=accepted
pstk1 iter i=3 count=50 result=rejected:rejected
pstk1 mem heap_before=0 heap_peak=9000 stack_peak=4000 text=1 data=2 bss=3
pstk1 done accepted=3 rejected=1
pstk1 run backend=p3-m31 field=m31 ext=4 air=fib n=1024 core=m33 board=rp2350 alloc=tlsf heap=262144 proof_bytes=50000 security=96 counter=cycles clock_hz=150000000 iterations=4
pstk1 iter i=0 count=300 result=accepted
";

    #[test]
    fn complete_runs_become_records_and_cut_runs_errors() {
        let runs = parse_device_log(LOG);
        assert_eq!(runs.len(), 2);
        let r = runs[0].as_ref().unwrap();
        assert_eq!(r.record.source, "device");
        assert_eq!(
            r.record.cycles,
            vec![300, 100, 200],
            "tampered run excluded"
        );
        assert_eq!(r.record.iterations, 3);
        assert_eq!(r.record.clock_hz, Some(150_000_000));
        assert_eq!(r.record.heap_peak, Some(9000));
        assert_eq!(r.record.core, "rv32");
        assert_eq!(r.record.result, "accepted");
        assert_eq!(r.tampered.as_deref(), Some("rejected:rejected"));
        assert_eq!(r.record.toolchain, "not in the log");
        assert_eq!(r.record.hash_impl.as_deref(), Some("sha256-engine"));
        assert_eq!(crate::table::hash_of(&r.record), "sha256-engine");
        let e = runs[1].as_ref().unwrap_err();
        assert!(e.contains("1 of 4"), "{e}");
    }

    #[test]
    fn meta_lines_and_sample_logs_are_refused() {
        let text = format!("# Toolchain: rustc 9.9\n{LOG}");
        let r = parse_device_log(&text).remove(0).unwrap();
        assert_eq!(r.record.toolchain, "rustc 9.9");
        let runs = parse_device_log(&format!("# sample: fake\n{text}"));
        assert_eq!(runs.len(), 1);
        assert!(runs[0].as_ref().unwrap_err().contains("not measurements"));
    }

    #[test]
    fn a_clock_error_drops_the_clock() {
        let text = format!("pstk1 error what=system-clock-not-150MHz\n{LOG}");
        assert!(log_meta(&text).clock_error);
        let r = parse_device_log(&text).remove(0).unwrap();
        assert_eq!(r.record.clock_hz, None);
        assert_eq!(r.record.cycles.len(), 3);
    }

    #[test]
    fn a_run_whose_cycle_counter_failed_is_refused() {
        let text = LOG.replace(
            "pstk1 iter i=1 count=100 result=accepted",
            "pstk1 error what=cycle-counter-rate window=iter i=1 cycles=7 timer_us=669 measured_hz=93\npstk1 iter i=1 count=100 result=accepted",
        );
        let runs = parse_device_log(&text);
        assert!(runs[0].as_ref().unwrap_err().contains("cycles not trusted"));
        assert!(
            parse_device_log(LOG)[0].is_ok(),
            "the same run without the error line"
        );
        assert_eq!(log_meta(&text).counter_failed, [0]);
    }

    #[test]
    fn a_rejected_genuine_iteration_is_the_result() {
        let text = LOG.replace(
            "i=1 count=100 result=accepted",
            "i=1 count=100 result=rejected:format",
        );
        let r = parse_device_log(&text).remove(0).unwrap();
        assert_eq!(r.record.result, "rejected:format");
    }
}

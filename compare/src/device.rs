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
//! one) is refused: a report holds measurements only. A `pstk1 error what=system-clock-…`
//! line (the board did not reach its nominal clock) drops the clock from the log's runs:
//! their cycles stay, no milliseconds are derived from them. A `pstk1 error
//! what=cycle-counter-…` line inside a run (the counter failed the firmware's check against
//! the 1 MHz timer, `core::board`) refuses that run: its cycles are not measurements.

use std::collections::BTreeMap;

use picostark_core::record::{parse_line, parse_log, DeviceLog, RunRecord};

/// A device run: its record and the result of the firmware's tampered copy (`accepted` or
/// `rejected:<kind>` of the last iteration).
#[derive(Clone, Debug, PartialEq)]
pub struct DeviceRun {
    pub record: RunRecord,
    pub tampered: Option<String>,
}

/// What a log says besides its runs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LogMeta {
    /// `# key: value` comment lines, keys in lower case (`sample`, `toolchain`, `profile`,
    /// `commit`).
    pub comments: BTreeMap<String, String>,
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

/// Reads what a log says besides its runs.
pub fn log_meta(text: &str) -> LogMeta {
    let mut m = LogMeta::default();
    let mut runs = 0;
    for line in text.lines() {
        let comment = line.trim().strip_prefix('#');
        let comment = comment.and_then(|c| c.split_once(':'));
        if let Some((k, v)) = comment {
            let key = k.trim().to_ascii_lowercase();
            m.comments.insert(key, v.trim().into());
        }
        let Some(l) = parse_line(line) else { continue };
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
    m
}

/// Parses a whole log: one result per `run` line, an error for a run that is incomplete or
/// inconsistent (the others are still returned).
pub fn parse_device_log(text: &str) -> Vec<Result<DeviceRun, String>> {
    let meta = log_meta(text);
    if let Some(s) = meta.comments.get("sample") {
        let why = format!("marked `# sample: {s}`: synthetic numbers are not measurements");
        return vec![Err(why)];
    }
    let counter = "the cycle counter failed its check against the 1 MHz timer (`error what=cycle-counter-…`): cycles not trusted";
    let run = |(i, log): (usize, &DeviceLog)| match meta.counter_failed.contains(&i) {
        true => Err(counter.to_string()),
        false => device_run(log, &meta),
    };
    parse_log(text).iter().enumerate().map(run).collect()
}

fn device_run(log: &DeviceLog, meta: &LogMeta) -> Result<DeviceRun, String> {
    let run = log.run.as_ref().ok_or("no run line")?;
    let at = |k: &str| run.get(k).unwrap_or("?");
    let what = format!("{} n={} core={}", at("backend"), at("n"), at("core"));
    let split = log.genuine_and_tampered();
    let (genuine, tampered) = split.map_err(|e| format!("{what}: {e}"))?;
    let mut rec = RunRecord::from_lines("device", run, log.mem.as_ref());
    let rec = rec.as_mut().map_err(|e| format!("{what}: {e}"))?;
    let failed = genuine.iter().find(|(_, r)| r != "accepted");
    rec.result = failed.map_or("accepted", |(_, r)| r).into();
    rec.iterations = genuine.len() as u32;
    if run.get("counter") == Some("cycles") {
        rec.cycles = genuine.iter().map(|(c, _)| *c).collect();
    }
    let clock = run.get_u64("clock_hz");
    rec.clock_hz = clock.filter(|&c| c > 0 && !meta.clock_error);
    let comment = |k: &str| meta.comments.get(k).cloned();
    let comment = |k: &str| comment(k).unwrap_or("not in the log".into());
    (rec.toolchain, rec.profile) = (comment("toolchain"), comment("profile"));
    rec.git_commit = comment("commit");
    let record = std::mem::take(rec);
    let tampered = Some(tampered.to_string());
    Ok(DeviceRun { record, tampered })
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

    fn first(text: &str) -> Result<DeviceRun, String> {
        parse_device_log(text).remove(0)
    }

    #[test]
    fn complete_runs_become_records_and_cut_runs_errors() {
        let runs = parse_device_log(LOG);
        assert_eq!(runs.len(), 2);
        let (r, t) = runs[0].as_ref().map(|r| (&r.record, &r.tampered)).unwrap();
        assert_eq!(r.cycles, [300, 100, 200], "tampered run excluded");
        let figures = format!("{} {:?} {:?}", r.iterations, r.clock_hz, r.heap_peak);
        assert_eq!(figures, "3 Some(150000000) Some(9000)");
        let said = [&r.source, &r.core, &r.result, &r.toolchain];
        assert_eq!(said, ["device", "rv32", "accepted", "not in the log"]);
        assert_eq!(t.as_deref(), Some("rejected:rejected"));
        assert_eq!(crate::table::hash_of(r), "sha256-engine");
        let e = runs[1].as_ref().unwrap_err();
        assert!(e.contains("1 of 4"), "{e}");
    }

    #[test]
    fn meta_lines_clock_and_counter_errors() {
        let text = format!("# Toolchain: rustc 9.9\n{LOG}");
        assert_eq!(first(&text).unwrap().record.toolchain, "rustc 9.9");
        let runs = parse_device_log(&format!("# sample: fake\n{text}"));
        assert_eq!(runs.len(), 1);
        assert!(runs[0].as_ref().unwrap_err().contains("not measurements"));
        // A clock error drops the clock, not the cycles.
        let text = format!("pstk1 error what=system-clock-not-150MHz\n{LOG}");
        assert!(log_meta(&text).clock_error);
        let r = first(&text).unwrap().record;
        assert_eq!((r.clock_hz, r.cycles.len()), (None, 3));
        // A run whose cycle counter failed is refused; the same run without the line is not.
        let line = "pstk1 error what=cycle-counter-rate window=iter i=1 cycles=7 timer_us=669 measured_hz=93\npstk1 iter i=1";
        let text = LOG.replace("pstk1 iter i=1", line);
        assert!(first(&text).unwrap_err().contains("cycles not trusted"));
        assert_eq!(log_meta(&text).counter_failed, [0]);
        // A rejected genuine iteration is the run's result.
        let text = LOG.replace("100 result=accepted", "100 result=rejected:format");
        assert_eq!(first(&text).unwrap().record.result, "rejected:format");
    }
}

//! Benchmark records: the one schema every measurement is written in, and the firmware's
//! line-oriented output format that turns into it.
//!
//! # Firmware line format, version 1
//!
//! The firmware writes plain text lines (over USB serial on a board, semihosting or UART
//! under QEMU). Every line it owns starts with `pstk1 ` followed by a kind and
//! space-separated `key=value` pairs; other lines are ignored by the parser, so boot noise
//! does no harm. Values never contain spaces.
//!
//! ```text
//! pstk1 run backend=p3-babybear field=babybear ext=4 air=fib n=1024 core=m33 board=rp2350 alloc=tlsf heap=262144 proof_bytes=40114 security=96 counter=cycles clock_hz=150000000 iterations=5 hash_impl=blake3-software
//! pstk1 mem heap_before=0 heap_peak=91362 stack_peak=5264 text=123456 data=0 bss=262200
//! pstk1 iter i=0 count=11200461 result=accepted
//! pstk1 iter i=1 count=11200398 result=rejected:rejected
//! pstk1 done accepted=1 rejected=1
//! ```
//!
//! Two more kinds report a run that could not complete: `error what=proof-file bytes=N
//! detail=...` when the proof file's envelope does not parse (nothing was measured; the
//! detail text is last on the line and may contain spaces), and `oom requested=B align=A
//! in_use=B peak=B heap=B` when the heap refused an allocation (the firmware then stops;
//! under QEMU with a distinct exit status).
//!
//! `counter` names what `count` measures: `cycles` (DWT CYCCNT or `mcycle` on silicon) or
//! `none` under QEMU, where the instruction count comes from the TCG plugin instead.
//! `result` is `accepted` or `rejected:<kind>` with the kind from
//! [`VerifyError::kind`](crate::VerifyError::kind). The last `iter` line is the firmware's
//! tampered copy; after a genuine rejection no copy is verified and its result is
//! `not-applicable` ([`NOT_APPLICABLE`]), over an empty window.

use core::fmt::{self, Write};

/// The prefix of every line the firmware owns (`pstk` + format version).
pub const LINE_PREFIX: &str = "pstk1";

/// Writes the `run` line.
#[allow(clippy::too_many_arguments)]
pub fn write_run_line<W: Write>(
    w: &mut W,
    header: &crate::ProofHeader,
    core_name: &str,
    board: &str,
    allocator: &str,
    heap_size: usize,
    proof_bytes: usize,
    security_bits: u32,
    counter: &str,
    clock_hz: u32,
    iterations: u32,
    hash_impl: &str,
) -> fmt::Result {
    writeln!(
        w,
        "{LINE_PREFIX} run backend={} field={} ext={} air={} n={} core={core_name} board={board} \
         alloc={allocator} heap={heap_size} proof_bytes={proof_bytes} security={security_bits} \
         counter={counter} clock_hz={clock_hz} iterations={iterations} hash_impl={hash_impl}",
        header.backend,
        header.field,
        header.extension_degree,
        header.air,
        header.n(),
    )
}

/// Memory figures, written once per run. `None` prints as `na`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemoryFigures {
    pub heap_before: Option<u64>,
    pub heap_peak: Option<u64>,
    pub stack_peak: Option<u64>,
    pub text: Option<u64>,
    pub data: Option<u64>,
    pub bss: Option<u64>,
}

struct Opt(Option<u64>);
impl fmt::Display for Opt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(v) => write!(f, "{v}"),
            None => f.write_str("na"),
        }
    }
}

/// Writes the `mem` line.
pub fn write_mem_line<W: Write>(w: &mut W, m: &MemoryFigures) -> fmt::Result {
    writeln!(
        w,
        "{LINE_PREFIX} mem heap_before={} heap_peak={} stack_peak={} text={} data={} bss={}",
        Opt(m.heap_before),
        Opt(m.heap_peak),
        Opt(m.stack_peak),
        Opt(m.text),
        Opt(m.data),
        Opt(m.bss)
    )
}

/// Writes one `iter` line.
pub fn write_iter_line<W: Write>(
    w: &mut W,
    i: u32,
    count: u64,
    result: Result<(), crate::VerifyError>,
) -> fmt::Result {
    match result {
        Ok(()) => writeln!(w, "{LINE_PREFIX} iter i={i} count={count} result=accepted"),
        Err(e) => writeln!(
            w,
            "{LINE_PREFIX} iter i={i} count={count} result=rejected:{}",
            e.kind()
        ),
    }
}

/// The function paths whose own code is field arithmetic: a profile's function (its demangled
/// name, leading `<` ignored) that starts with one is arithmetic the compiler kept out of
/// line. One rule for `mcu-run profile-parts` (class `field_arithmetic`) and the report's
/// arithmetic share; a generic argument naming a field does not make a function arithmetic.
pub const FIELD_ARITHMETIC_PATHS: [&str; 11] = [
    "picostark_field::",
    "p3_field::",
    "p3_goldilocks::",
    "p3_monty_31::",
    "p3_baby_bear::",
    "p3_mersenne_31::",
    "winter_math::field::",
    "picostark_winterfell::field::",
    "picostark_winterfell::verifier::math::",
    "picostark_plonky3::m31_sextic::",
    "core::ops::try_trait::Wrapped<p3_",
];

/// Whether `function` (a profile's demangled name) is field arithmetic by its own path
/// ([`FIELD_ARITHMETIC_PATHS`]).
pub fn is_field_arithmetic(function: &str) -> bool {
    let own = function.trim_start_matches('<');
    FIELD_ARITHMETIC_PATHS.iter().any(|p| own.starts_with(p))
}

/// The `result` of the tampered copy's slot when the genuine proof was rejected: a flipped
/// copy of a rejected proof proves nothing (it may even undo the damage), so none is made.
pub const NOT_APPLICABLE: &str = "not-applicable";

/// Writes the `iter` line of the tampered copy's slot when no copy was verified
/// ([`NOT_APPLICABLE`]); `count` is its empty window's.
pub fn write_not_applicable_line<W: Write>(w: &mut W, i: u32, count: u64) -> fmt::Result {
    writeln!(
        w,
        "{LINE_PREFIX} iter i={i} count={count} result={NOT_APPLICABLE}"
    )
}

/// Writes the closing `done` line.
pub fn write_done_line<W: Write>(w: &mut W, accepted: u32, rejected: u32) -> fmt::Result {
    writeln!(
        w,
        "{LINE_PREFIX} done accepted={accepted} rejected={rejected}"
    )
}

#[cfg(feature = "alloc")]
pub use parse::*;

#[cfg(feature = "alloc")]
mod parse {
    use alloc::format;
    use alloc::string::{String, ToString};
    use alloc::vec::Vec;

    use super::LINE_PREFIX;

    /// One `pstk1` line: its kind and its key/value pairs, in order.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct Line {
        pub kind: String,
        pub fields: Vec<(String, String)>,
    }

    impl Line {
        pub fn get(&self, key: &str) -> Option<&str> {
            self.fields
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.as_str())
        }

        /// A numeric field; `na` and absent give `None`.
        pub fn get_u64(&self, key: &str) -> Option<u64> {
            self.get(key).and_then(|v| v.parse().ok())
        }
    }

    /// A firmware run, as read from its output lines.
    #[derive(Clone, Debug, Default, PartialEq, Eq)]
    pub struct DeviceLog {
        pub run: Option<Line>,
        pub mem: Option<Line>,
        /// `(count, result)` per iteration, in order.
        pub iterations: Vec<(u64, String)>,
        pub done: Option<Line>,
    }

    /// An iteration's `(count, result)`.
    pub type Iteration = (u64, String);

    impl DeviceLog {
        /// The genuine iterations and the tampered one (the last), once the log holds every
        /// iteration its `run` line announces (at least two) and its `done` line.
        pub fn genuine_and_tampered(&self) -> Result<(&[Iteration], &str), String> {
            let run = self.run.as_ref().ok_or("no run line")?;
            let total = run
                .get_u64("iterations")
                .ok_or("no iterations in the run line")?;
            let total = usize::try_from(total).unwrap_or(usize::MAX);
            if total < 2 {
                let why = "the firmware runs at least one genuine and one tampered";
                return Err(format!("{total} iteration(s); {why}"));
            }
            let (seen, done) = (self.iterations.len(), self.done.is_some());
            if seen != total || !done {
                let done = if done { "" } else { ", no done line" };
                return Err(format!(
                    "{seen} of {total} iteration lines{done} (cut short?)"
                ));
            }
            let (genuine, tampered) = self.iterations.split_at(total - 1);
            Ok((genuine, &tampered[0].1))
        }
    }

    /// Parses one line; lines that are not the firmware's give `None`.
    pub fn parse_line(line: &str) -> Option<Line> {
        let mut words = line.trim().split_ascii_whitespace();
        if words.next()? != LINE_PREFIX {
            return None;
        }
        let kind = words.next()?.to_string();
        let fields = words
            .filter_map(|w| w.split_once('='))
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Some(Line { kind, fields })
    }

    /// Splits a log (which may hold several runs) into runs: each starts at a `run` line.
    pub fn parse_log(text: &str) -> Vec<DeviceLog> {
        let mut runs: Vec<DeviceLog> = Vec::new();
        for line in text.lines().filter_map(parse_line) {
            if line.kind == "run" {
                runs.push(DeviceLog {
                    run: Some(line),
                    ..DeviceLog::default()
                });
                continue;
            }
            let Some(cur) = runs.last_mut() else { continue };
            match line.kind.as_str() {
                "mem" => cur.mem = Some(line),
                "iter" => {
                    let count = line.get_u64("count").unwrap_or(0);
                    let result = line.get("result").unwrap_or("unknown").to_string();
                    cur.iterations.push((count, result));
                }
                "done" => cur.done = Some(line),
                _ => {}
            }
        }
        runs
    }
}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use super::*;
    use crate::ids::{AirId, BackendId, FieldId, HashId};
    use crate::{ProofHeader, ProofParams, VerifyError};
    use alloc::string::String;

    #[test]
    fn a_not_applicable_tampered_slot_parses_back() {
        let mut s = String::from(
            "pstk1 run backend=p3-m31 iterations=2\npstk1 iter i=0 count=9 result=rejected:merkle\n",
        );
        write_not_applicable_line(&mut s, 1, 3).unwrap();
        write_done_line(&mut s, 0, 1).unwrap();
        let runs = parse_log(&s);
        let (genuine, tampered) = runs[0].genuine_and_tampered().unwrap();
        assert_eq!((genuine.len(), tampered), (1, NOT_APPLICABLE));
        assert_eq!(runs[0].iterations[1].0, 3);
    }

    #[test]
    fn written_lines_parse_back() {
        let header = ProofHeader {
            backend: BackendId::WfGoldilocks,
            field: FieldId::Goldilocks,
            extension_degree: 2,
            hash: HashId::Blake3_256,
            air: AirId::Fibonacci,
            log_n: 10,
            params: ProofParams {
                log_blowup: 3,
                num_queries: 32,
                pow_bits: 0,
                log_fold_arity: 3,
                log_final_poly_len: 5,
            },
        };
        let mut s = String::from("boot noise\n");
        write_run_line(
            &mut s,
            &header,
            "m33",
            "rp2350",
            "tlsf",
            262144,
            30888,
            95,
            "cycles",
            150_000_000,
            2,
            "blake3-software",
        )
        .unwrap();
        write_mem_line(
            &mut s,
            &MemoryFigures {
                heap_peak: Some(1000),
                ..Default::default()
            },
        )
        .unwrap();
        write_iter_line(&mut s, 0, 11_200_461, Ok(())).unwrap();
        write_iter_line(&mut s, 1, 5, Err(VerifyError::Rejected("x"))).unwrap();
        write_done_line(&mut s, 1, 1).unwrap();
        let runs = parse_log(&s);
        assert_eq!(runs.len(), 1);
        let run = runs[0].run.as_ref().unwrap();
        assert_eq!(run.get("backend"), Some("wf-goldilocks"));
        assert_eq!(run.get_u64("n"), Some(1024));
        assert_eq!(run.get("hash_impl"), Some("blake3-software"));
        let mem = runs[0].mem.as_ref().unwrap();
        assert_eq!(mem.get_u64("heap_peak"), Some(1000));
        assert_eq!(mem.get_u64("stack_peak"), None);
        assert_eq!(runs[0].iterations[0], (11_200_461, "accepted".into()));
        assert_eq!(runs[0].iterations[1], (5, "rejected:rejected".into()));
        assert_eq!(runs[0].done.as_ref().unwrap().get_u64("rejected"), Some(1));
        let (genuine, tampered) = runs[0].genuine_and_tampered().unwrap();
        assert_eq!((genuine.len(), tampered), (1, "rejected:rejected"));
        let cut = parse_log(&s.replace("pstk1 done", "x"));
        let err = cut[0].genuine_and_tampered().unwrap_err();
        assert_eq!(err, "2 of 2 iteration lines, no done line (cut short?)");
        let rec = RunRecord::from_lines("device", run, runs[0].mem.as_ref()).unwrap();
        let got = (
            rec.backend.as_str(),
            rec.n,
            rec.allocator.as_str(),
            rec.security_bits,
        );
        assert_eq!(got, ("wf-goldilocks", 1024, "tlsf", 95));
        assert_eq!((rec.heap_peak, rec.stack_peak), (Some(1000), None));
        let cut = parse_line(&s.lines().nth(1).unwrap().replace(" air=fib", "")).unwrap();
        let err = RunRecord::from_lines("device", &cut, None).unwrap_err();
        assert_eq!(err, "no air in the run line");
    }
}

#[cfg(feature = "alloc")]
pub use run_record::*;

#[cfg(feature = "alloc")]
mod run_record {
    use alloc::format;
    use alloc::string::String;
    use alloc::vec::Vec;

    use super::Line;

    /// Version of the [`RunRecord`] schema.
    pub const RUN_RECORD_SCHEMA: u32 = 1;

    /// Instruction counts by class, from the QEMU TCG plugin.
    #[derive(Clone, Debug, Default, PartialEq, Eq)]
    #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
    pub struct InstructionClasses {
        pub mul: u64,
        pub load_store: u64,
        pub branch: u64,
        pub other: u64,
    }

    /// Estimated cycles on the RP2350 for one measured window, from the timing model run
    /// over the exact executed instruction stream (see `verifier-mcu/TIMING.md`). A model's
    /// output, never a measurement: `model` and `model_version` say which.
    #[derive(Clone, Debug, Default, PartialEq)]
    #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
    pub struct CycleEstimate {
        /// `rp2350-m33` or `rp2350-hazard3`.
        pub model: String,
        pub model_version: u32,
        /// Estimated cycles of one parse + verify (the same window as `instructions`).
        pub cycles: u64,
        /// The clock the milliseconds assume (150 MHz on the RP2350).
        pub clock_hz: u64,
        /// `cycles` at `clock_hz`, in milliseconds.
        pub ms: f64,
        /// Net pipeline stall cycles included in `cycles` (load-use, multiply result,
        /// branches, divides, less the Cortex-M33's dual-issue savings, which can make a
        /// short window's figure negative): `cycles` = instructions + stall_cycles +
        /// xip_miss_cycles (+ any modelled peripheral cycles).
        pub stall_cycles: i64,
        /// Instruction fetches and loads that went to flash through the XIP cache.
        pub xip_accesses: u64,
        pub xip_misses: u64,
        pub xip_miss_cycles: u64,
        /// The RP2350 SHA-256 engine charged in place of the software compression
        /// (`mcu-run run --sha256-engine`, a model of the peripheral); `None`: not charged.
        #[cfg_attr(feature = "serde", serde(default))]
        pub sha256_engine: Option<EngineCharge>,
    }

    /// What the timing model charged for the SHA-256 engine: `blocks` calls of the
    /// software compression, each replaced by `cycles_per_block` cycles (in `cycles`).
    #[derive(Clone, Debug, Default, PartialEq, Eq)]
    #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
    pub struct EngineCharge {
        pub blocks: u64,
        pub cycles_per_block: u64,
    }

    /// Security of one proof's parameters under every regime the project reports, in bits
    /// (see `core/src/security.rs` for each formula and its source).
    #[derive(Clone, Debug, Default, PartialEq)]
    #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
    pub struct SecurityFigures {
        /// (a) ethSTARK conjecture, grinding counted in full.
        pub ethstark: f64,
        /// (b) winterfell 0.13.1's conjectured rule.
        pub winterfell_conjectured: f64,
        /// (c) Plonky3 0.8's conjectured security.
        pub plonky3_conjectured: f64,
        /// (d) proven, unique decoding.
        pub proven_unique: f64,
        /// (e) proven, list decoding up to the Johnson bound.
        pub proven_list: f64,
        /// The regime the policy that accepted the proof used, and its minimum.
        pub policy_regime: String,
        pub policy_min_bits: u32,
        /// The statement's own hash (`core::security::StatementHash`) that caps every figure
        /// above, in bits, and what it is; `None`: the statement hashes nothing.
        #[cfg_attr(feature = "serde", serde(default))]
        pub statement_hash_bits: Option<u32>,
        #[cfg_attr(feature = "serde", serde(default))]
        pub statement_hash: Option<String>,
    }

    /// One measurement of one proof on one core: the schema every benchmark writes (as JSON)
    /// and `compare` reads. A field a source cannot measure is `None`, never a guess.
    #[derive(Clone, Debug, Default, PartialEq)]
    #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
    pub struct RunRecord {
        /// [`RUN_RECORD_SCHEMA`].
        pub schema: u32,
        /// Where the numbers come from: `emulator`, `device` or `host`.
        pub source: String,
        pub backend: String,
        pub field: String,
        pub extension: u8,
        pub air: String,
        pub n: u64,
        /// `m33`, `rv32` or `host`.
        pub core: String,
        /// `qemu-m33`, `qemu-rv32`, `rp2350` or the host's CPU model.
        pub board: String,
        /// `tlsf`, `llff`, `bump`, or `system` on the host.
        pub allocator: String,
        pub heap_size: Option<u64>,
        pub proof_bytes: u64,
        /// In the regime of the policy that checked the proof ([`crate::security::bits`]);
        /// every regime's figure is in [`RunRecord::security`].
        pub security_bits: u32,
        /// `accepted` or `rejected:<kind>`.
        pub result: String,
        pub iterations: u32,
        /// Emulator: guest instructions in one parse + verify.
        pub instructions: Option<u64>,
        pub instruction_classes: Option<InstructionClasses>,
        /// Device: cycles of each iteration's parse + verify.
        pub cycles: Vec<u64>,
        pub clock_hz: Option<u64>,
        pub heap_before: Option<u64>,
        pub heap_peak: Option<u64>,
        pub stack_peak: Option<u64>,
        pub text_bytes: Option<u64>,
        pub data_bytes: Option<u64>,
        pub bss_bytes: Option<u64>,
        /// Host: prove and verify wall-clock times.
        pub prove_ms: Option<f64>,
        pub verify_ms: Option<f64>,
        /// Host: peak resident set size of the process that proved (and verified) this
        /// proof, in bytes (Linux `VmHWM`); absent in records written before it existed.
        #[cfg_attr(feature = "serde", serde(default))]
        pub host_peak_rss: Option<u64>,
        /// Emulator/device runs that ran out of heap (result `rejected:out-of-memory`): the
        /// bytes in use plus the refused request when the allocator gave up, a lower bound
        /// on the heap the verification needs.
        #[cfg_attr(feature = "serde", serde(default))]
        pub heap_needed_at_least: Option<u64>,
        /// Emulator runs: estimated RP2350 cycles of the same window (absent in records
        /// written before the timing model existed).
        #[cfg_attr(feature = "serde", serde(default))]
        pub estimate: Option<CycleEstimate>,
        /// Every regime's security bits for this proof's parameters.
        #[cfg_attr(feature = "serde", serde(default))]
        pub security: Option<SecurityFigures>,
        /// The verifier's hash as it ran: `blake3-software`, `sha256-software` or
        /// `sha256-engine` (absent in records written before it existed: BLAKE3 software).
        /// Whether the timing model charged the engine is `estimate.sha256_engine`.
        #[cfg_attr(feature = "serde", serde(default))]
        pub hash_impl: Option<String>,
        /// The proof header's FRI parameters, as the record's writer read them (absent in
        /// records written before the field; `results/README.md` says how the committed ones
        /// got theirs).
        #[cfg_attr(feature = "serde", serde(default))]
        pub params: Option<crate::ProofParams>,
        /// Where the verifier's code ran: `xip` (flash through the XIP cache), `xip-ordered`
        /// (the hot set laid out together in flash), `hot-sram` (the hot set copied to SRAM),
        /// `all-sram` (code and read-only data in SRAM); absent on the host.
        #[cfg_attr(feature = "serde", serde(default))]
        pub placement: Option<String>,
        /// Board images (`mcu-run board`): which image ran, `one-backend` (the image a user
        /// of one backend flashes) or `all-backend` (the five-backend image).
        #[cfg_attr(feature = "serde", serde(default))]
        pub image: Option<String>,
        /// `rustc -V` of the build.
        pub toolchain: String,
        /// Cargo profile and its relevant settings, e.g. `release opt-level=s lto=fat`.
        pub profile: String,
        /// The commit measured, `-dirty` when the tree differed from it (host tools write it
        /// with `source_commit`).
        pub git_commit: String,
    }

    impl RunRecord {
        /// A `source` record of what a firmware run's `run` and `mem` lines state (the
        /// statement, board, allocator, heap, proof size and bits, memory figures, hash);
        /// the measurements and the build facts are the caller's. An error names the
        /// missing field.
        pub fn from_lines(source: &str, run: &Line, mem: Option<&Line>) -> Result<Self, String> {
            let missing = |k: &str| format!("no {k} in the run line");
            let s = |k: &str| run.get(k).map(String::from).ok_or_else(|| missing(k));
            let u = |k: &str| run.get_u64(k).ok_or_else(|| missing(k));
            let m = |k: &str| mem.and_then(|l| l.get_u64(k));
            let ext = u("ext")?;
            Ok(RunRecord {
                schema: RUN_RECORD_SCHEMA,
                source: source.into(),
                backend: s("backend")?,
                field: s("field")?,
                extension: u8::try_from(ext).map_err(|_| format!("ext={ext}"))?,
                air: s("air")?,
                n: u("n")?,
                core: s("core")?,
                board: s("board")?,
                allocator: s("alloc")?,
                heap_size: run.get_u64("heap"),
                proof_bytes: u("proof_bytes")?,
                security_bits: u32::try_from(u("security")?).unwrap_or(u32::MAX),
                heap_before: m("heap_before"),
                heap_peak: m("heap_peak"),
                stack_peak: m("stack_peak"),
                text_bytes: m("text"),
                data_bytes: m("data"),
                bss_bytes: m("bss"),
                hash_impl: run.get("hash_impl").map(String::from),
                ..RunRecord::default()
            })
        }
    }
}

#[cfg(feature = "std")]
pub use source::source_commit;

#[cfg(feature = "std")]
mod source {
    use std::path::Path;
    use std::process::Command;
    use std::string::{String, ToString};

    /// The files whose changes do not change a measurement: the results folder, which runs
    /// write into while they measure, and the documentation (`*.md`), which nothing builds.
    const UNMEASURED: [&str; 2] = [":(top,exclude)results", ":(top,exclude,glob)**/*.md"];

    /// What a record names as its commit: `HEAD` of the repository `dir` is in, its first
    /// `digits` hex digits (all of them when fewer), with `-dirty` appended when any other
    /// file differs from that commit (tracked or new; not under `results/`, not `*.md`), so
    /// a record of an uncommitted tree never passes for the commit's. `unknown` without git
    /// or a repository.
    pub fn source_commit(dir: &Path, digits: usize) -> String {
        let git = |args: &[&str]| {
            let out = Command::new("git").current_dir(dir).args(args).output();
            let out = out.ok().filter(|o| o.status.success())?;
            Some(String::from_utf8_lossy(&out.stdout).trim().to_string())
        };
        let Some(head) = git(&["rev-parse", "HEAD"]) else {
            return "unknown".into();
        };
        let head = head.get(..digits).unwrap_or(&head);
        let mut status = std::vec!["status", "--porcelain", "--", ":(top)"];
        status.extend(UNMEASURED);
        match git(&status) {
            Some(changes) if changes.is_empty() => head.into(),
            // A status git cannot give counts as changed: the tree is not known to be HEAD's.
            _ => std::format!("{head}-dirty"),
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn names_this_checkout() {
            let here = Path::new(env!("CARGO_MANIFEST_DIR"));
            let full = source_commit(here, 40);
            let short = source_commit(here, 12);
            if full == "unknown" {
                return; // built outside a git checkout
            }
            let hex = |s: &str| s.len() == 40 && s.bytes().all(|b| b.is_ascii_hexdigit());
            assert!(hex(full.trim_end_matches("-dirty")), "{full}");
            assert_eq!(short.trim_end_matches("-dirty"), &full[..12]);
            assert_eq!(short.ends_with("-dirty"), full.ends_with("-dirty"));
        }
    }
}

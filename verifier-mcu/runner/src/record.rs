//! Turning one QEMU run (firmware lines + plugin counts) into a `RunRecord`, and the
//! bring-up proof files used to test the harness without a proof system.

use std::process::Command;

use picostark_core::proof_file::encode;
use picostark_core::record::{parse_line, CycleEstimate, EngineCharge, Line, RunRecord};
use picostark_core::{AirId, BackendId, HashId, ProofHeader, ProofParams};

use crate::paths::repo_root;
use crate::qemu::{Core, Outcome, Region};

/// Build facts written into every record.
#[derive(Clone)]
pub struct BuildMeta {
    pub toolchain: String,
    pub profile: String,
    pub git_commit: String,
}

fn capture(cmd: &mut Command) -> Option<String> {
    let out = cmd.output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

impl BuildMeta {
    /// `rec` with these build facts.
    pub fn stamp(&self, rec: RunRecord) -> RunRecord {
        let (toolchain, profile) = (self.toolchain.clone(), self.profile.clone());
        let git_commit = self.git_commit.clone();
        RunRecord {
            toolchain,
            profile,
            git_commit,
            ..rec
        }
    }

    pub fn collect() -> Self {
        let root = repo_root();
        let fw = root.join("verifier-mcu/firmware");
        let toolchain = capture(Command::new("rustc").current_dir(&fw).arg("-V"))
            .unwrap_or_else(|| "unknown".into());
        BuildMeta {
            toolchain,
            profile: firmware_profile(),
            git_commit: picostark_core::record::source_commit(&root, 40),
        }
    }
}

/// The clock the estimate's milliseconds assume: the RP2350's 150 MHz system clock (the
/// published runs' and our board firmware's).
pub const RP2350_CLOCK_HZ: u64 = 150_000_000;

/// The timing model's estimate for the genuine iterations: the iteration with the median
/// estimated cycles (the first one starts with a cold XIP cache), all its figures. `None`
/// when any region lacks the model's fields.
pub fn estimate(genuine: &[Region]) -> Option<CycleEstimate> {
    let mut e = genuine
        .iter()
        .map(|r| r.estimate.as_ref())
        .collect::<Option<Vec<_>>>()?;
    e.sort_by_key(|e| e.cycles);
    let m = e.get(e.len() / 2)?;
    Some(CycleEstimate {
        model: m.model.clone(),
        model_version: m.model_version,
        cycles: m.cycles,
        clock_hz: RP2350_CLOCK_HZ,
        ms: m.cycles as f64 * 1e3 / RP2350_CLOCK_HZ as f64,
        stall_cycles: m.stall,
        xip_accesses: m.xip_accesses,
        xip_misses: m.xip_misses,
        xip_miss_cycles: m.xip_miss_cycles,
        sha256_engine: m.offload_calls.map(|blocks| EngineCharge {
            blocks,
            cycles_per_block: crate::qemu::SHA256_ENGINE_CYCLES.into(),
        }),
    })
}

fn median(mut v: Vec<u64>) -> Option<u64> {
    v.sort_unstable();
    v.get(v.len() / 2).copied()
}

/// A record with the proof header's parameters, its security figures
/// (`picostark_core::security`) and the policy the
/// firmware was built with (`PSTK_SECURITY_REGIME` / `PSTK_MIN_SECURITY`, as `build.rs` reads
/// them from this process's environment).
pub fn with_security(mut rec: RunRecord, proof: &[u8]) -> RunRecord {
    use picostark_core::{Policy, ProofFile, Regime};
    let env = |k: &str| std::env::var(k).ok();
    let policy = Policy {
        regime: env("PSTK_SECURITY_REGIME")
            .and_then(|r| Regime::from_name(r.trim()))
            .unwrap_or(Policy::DEFAULT_REGIME),
        min_security_bits: env("PSTK_MIN_SECURITY")
            .and_then(|m| m.trim().parse().ok())
            .unwrap_or(Policy::DEFAULT_MIN_SECURITY_BITS),
        ..Policy::default()
    };
    let header = ProofFile::parse(proof).ok().map(|f| f.header);
    // A custom AIR's figures are the firmware's to state (its run line): none here.
    let figures = header.as_ref().and_then(picostark_airs::figures);
    rec.security = figures.as_ref().map(|f| f.record(&policy));
    // An accepted run that states no bits (a board image prints no run line: `mcu-run board`
    // reads a verdict register): the policy regime's figure, as the firmware computes it.
    if rec.security_bits == 0 && rec.result == "accepted" {
        rec.security_bits = figures.map_or(0, |f| f.get(policy.regime));
    }
    rec.params = header.map(|h| h.params);
    rec
}

/// What the firmware's lines state, checked against the core and allocator it was run with.
fn stated(run: &Line, mem: Option<&Line>, core: Core, alloc: &str) -> Result<RunRecord, String> {
    let mut rec = RunRecord::from_lines("emulator", run, mem)?;
    if (rec.core.as_str(), rec.allocator.as_str()) != (core.name(), alloc) {
        let (c, a, want) = (&rec.core, &rec.allocator, core.name());
        return Err(format!(
            "firmware says core={c} alloc={a}, expected {want} {alloc}"
        ));
    }
    rec.board = core.board().into();
    Ok(rec)
}

/// Builds the record for the genuine proof's iterations (all but the last, which is the
/// firmware's tampered copy).
pub fn build(o: &Outcome, core: Core, alloc: &str, meta: &BuildMeta) -> Result<RunRecord, String> {
    let log = o.log.as_ref().ok_or("the firmware printed no run line")?;
    let run = log.run.as_ref().ok_or("no run line")?;
    if let Some(oom) = o
        .stdout
        .lines()
        .filter_map(parse_line)
        .find(|l| l.kind == "oom")
    {
        return out_of_memory(run, &oom, core, alloc, meta);
    }
    let genuine = log.genuine_and_tampered()?.0.len();
    let total = genuine + 1;
    if o.regions.len() != total {
        return Err(format!(
            "the plugin counted {} regions, the firmware ran {total} iterations",
            o.regions.len()
        ));
    }
    let results: Vec<&str> = log.iterations[..genuine]
        .iter()
        .map(|(_, r)| r.as_str())
        .collect();
    if results.iter().any(|r| *r != results[0]) {
        return Err(format!("iterations disagree: {results:?}"));
    }
    let counts: Vec<u64> = o.regions[..genuine].iter().map(|r| r.insns).collect();
    let med = median(counts).ok_or("no genuine iteration")?;
    let classes = o.regions[..genuine]
        .iter()
        .find(|r| r.insns == med)
        .map(|r| r.classes.clone());
    let mut rec = stated(run, log.mem.as_ref(), core, alloc)?;
    rec.result = results[0].to_string();
    rec.iterations = genuine as u32;
    (rec.instructions, rec.instruction_classes) = (Some(med), classes);
    rec.estimate = estimate(&o.regions[..genuine]);
    Ok(meta.stamp(rec))
}

/// The record of a run that stopped on the firmware's `oom` line: the configuration does not
/// fit this heap. Nothing was measured but the statement and the heap demand at the refusal.
fn out_of_memory(
    run: &Line,
    oom: &Line,
    core: Core,
    alloc: &str,
    meta: &BuildMeta,
) -> Result<RunRecord, String> {
    let mut rec = stated(run, None, core, alloc)?;
    let (Some(requested), Some(in_use)) = (oom.get_u64("requested"), oom.get_u64("in_use")) else {
        return Err("oom line without requested/in_use".into());
    };
    rec.heap_size = oom.get_u64("heap").or(rec.heap_size);
    rec.result = OUT_OF_MEMORY.into();
    rec.heap_needed_at_least = Some(in_use + requested);
    Ok(meta.stamp(rec))
}

/// The result of a configuration whose verification does not fit the heap.
pub const OUT_OF_MEMORY: &str = "rejected:out-of-memory";

/// FNV-1a-32, as the firmware's bring-up verifier computes it.
pub fn fnv1a32(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811C_9DC5u32, |h, &b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

/// A bring-up proof file (NOT a STARK): a valid envelope whose payload ends in the FNV-1a-32
/// of the rest, which only the firmware's `bringup-verifier` feature accepts.
pub fn bringup_proof(backend: BackendId, payload_bytes: usize) -> Vec<u8> {
    let header = ProofHeader {
        backend,
        field: backend.field(),
        extension_degree: if backend.field() == picostark_core::FieldId::Goldilocks {
            2
        } else {
            4
        },
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
    let mut x = 0x2545_F491u32;
    let mut body: Vec<u8> = (0..payload_bytes.max(1))
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x as u8
        })
        .collect();
    let tag = fnv1a32(&body);
    body.extend_from_slice(&tag.to_le_bytes());
    encode(&header, &[7], &body)
}

/// The firmware's release profile as cargo builds it here: the crate's settings
/// (`verifier-mcu/firmware/Cargo.toml`) unless the environment overrides them, which cargo
/// honours (`CARGO_PROFILE_RELEASE_OPT_LEVEL`, `_LTO`, `_CODEGEN_UNITS`, `_DEBUG`), so that a
/// record says how its firmware was really built. The debug-info level changes the generated
/// code a little, so it is named too (records without it were built with `debug=2`).
fn firmware_profile() -> String {
    let setting = |key: &str, default: &str| {
        std::env::var(format!("CARGO_PROFILE_RELEASE_{key}")).unwrap_or_else(|_| default.into())
    };
    format!(
        "release opt-level={} lto={} codegen-units={} panic=abort debug={}",
        setting("OPT_LEVEL", "s"),
        setting("LTO", "fat"),
        setting("CODEGEN_UNITS", "1"),
        setting("DEBUG", "line-tables-only")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::qemu::{parse_regions, Outcome};
    use picostark_core::record::parse_log;

    fn outcome(lines: &str, regions: &str) -> Outcome {
        Outcome {
            stdout: lines.into(),
            log: parse_log(lines).into_iter().next(),
            regions: parse_regions(regions),
            exit_ok: true,
            exit_code: Some(0),
        }
    }

    const LINES: &str = "pstk1 run backend=wf-goldilocks field=goldilocks ext=2 air=fib n=1024 core=m33 board=qemu-m33 alloc=tlsf heap=262144 proof_bytes=30912 security=95 counter=none clock_hz=0 iterations=4
pstk1 iter i=0 count=0 result=accepted
pstk1 iter i=1 count=0 result=accepted
pstk1 iter i=2 count=0 result=accepted
pstk1 iter i=3 count=0 result=rejected:rejected
pstk1 mem heap_before=0 heap_peak=93515 stack_peak=5632 text=100 data=4 bss=262200
pstk1 done accepted=3 rejected=1
";

    const REGIONS: &str = "icount region=0 insns=120 mul=1 load_store=2 branch=3 other=114
icount region=1 insns=100 mul=1 load_store=2 branch=3 other=94
icount region=2 insns=100 mul=1 load_store=2 branch=3 other=94
icount region=3 insns=50 mul=1 load_store=2 branch=3 other=44
";

    fn meta() -> BuildMeta {
        BuildMeta {
            toolchain: "rustc 1.95.0".into(),
            profile: "release".into(),
            git_commit: "abc".into(),
        }
    }

    #[test]
    fn record_from_a_run() {
        let r = build(&outcome(LINES, REGIONS), Core::M33, "tlsf", &meta()).unwrap();
        assert_eq!(r.source, "emulator");
        assert_eq!(r.backend, "wf-goldilocks");
        assert_eq!(r.extension, 2);
        assert_eq!(r.n, 1024);
        assert_eq!(r.iterations, 3);
        assert_eq!(
            r.instructions,
            Some(100),
            "median of the genuine iterations"
        );
        assert_eq!(r.instruction_classes.unwrap().other, 94);
        assert_eq!(r.heap_peak, Some(93515));
        assert_eq!(r.stack_peak, Some(5632));
        assert_eq!(r.result, "accepted");
        assert_eq!(r.board, "qemu-m33");
        assert_eq!(r.heap_size, Some(262144));
        assert!(outcome(LINES, REGIONS)
            .tampered_result()
            .unwrap()
            .starts_with("rejected"));
    }

    #[test]
    fn record_carries_the_median_estimate() {
        let with_model = |cycles: &[u64]| -> String {
            REGIONS
                .lines()
                .zip(cycles)
                .map(|(l, c)| {
                    format!(
                        "{l} cycles={c} stall=5 xip_accesses=9 xip_misses={} xip_miss_cycles=7 \
                         model=rp2350-m33 model_version=2\n",
                        c % 10
                    )
                })
                .collect()
        };
        let regions = with_model(&[300_000_001, 150_000_002, 150_000_000, 90]);
        let r = build(&outcome(LINES, &regions), Core::M33, "tlsf", &meta()).unwrap();
        let e = r.estimate.expect("estimate");
        assert_eq!(
            e.cycles, 150_000_002,
            "median of the three genuine iterations"
        );
        assert_eq!(e.xip_misses, 2, "figures of that same iteration");
        assert_eq!((e.model.as_str(), e.model_version), ("rp2350-m33", 2));
        assert_eq!(e.clock_hz, 150_000_000);
        assert!((e.ms - 1_000.000_013_3).abs() < 1e-6, "{}", e.ms);
        // One genuine region without the model's fields: no estimate at all.
        let mut partial = with_model(&[1, 2, 3, 4]);
        partial = partial.replacen(" cycles=1 ", " ", 1);
        let r = build(&outcome(LINES, &partial), Core::M33, "tlsf", &meta()).unwrap();
        assert_eq!(r.estimate, None);
        let r = build(&outcome(LINES, REGIONS), Core::M33, "tlsf", &meta()).unwrap();
        assert_eq!(r.estimate, None, "a plugin without a model");
    }

    #[test]
    fn record_says_which_hash_ran_and_whether_the_engine_was_charged() {
        let model = " cycles=900 stall=5 xip_accesses=9 xip_misses=1 xip_miss_cycles=7 \
                     model=rp2350-m33 model_version=3";
        let plain: String = REGIONS.lines().map(|l| format!("{l}{model}\n")).collect();
        let charged: String = REGIONS
            .lines()
            .map(|l| format!("{l}{model} offload_calls=677 offload_cycles=56868\n"))
            .collect();
        let sha = LINES.replacen("iterations=4", "iterations=4 hash_impl=sha256-software", 1);
        let r = build(&outcome(&sha, &charged), Core::M33, "tlsf", &meta()).unwrap();
        assert_eq!(r.hash_impl.as_deref(), Some("sha256-software"));
        let charge = r.estimate.unwrap().sha256_engine.expect("engine charged");
        assert_eq!((charge.blocks, charge.cycles_per_block), (677, 84));
        let r = build(&outcome(&sha, &plain), Core::M33, "tlsf", &meta()).unwrap();
        assert_eq!(r.estimate.unwrap().sha256_engine, None, "software only");
        // A firmware from before the field: the record does not guess.
        let r = build(&outcome(LINES, &plain), Core::M33, "tlsf", &meta()).unwrap();
        assert_eq!(r.hash_impl, None);
    }

    #[test]
    fn inconsistent_runs_are_errors() {
        // wrong core, wrong allocator, missing regions, missing lines
        assert!(build(&outcome(LINES, REGIONS), Core::Rv32, "tlsf", &meta()).is_err());
        assert!(build(&outcome(LINES, REGIONS), Core::M33, "bump", &meta()).is_err());
        let three: String = REGIONS.lines().take(3).map(|l| format!("{l}\n")).collect();
        assert!(build(&outcome(LINES, &three), Core::M33, "tlsf", &meta()).is_err());
        let cut: String = LINES.lines().take(3).map(|l| format!("{l}\n")).collect();
        assert!(build(&outcome(&cut, REGIONS), Core::M33, "tlsf", &meta()).is_err());
        assert!(build(&outcome("", ""), Core::M33, "tlsf", &meta()).is_err());
    }

    #[test]
    fn out_of_memory_run_becomes_a_record() {
        let lines = LINES.lines().take(2).collect::<Vec<_>>().join("\n")
            + "\npstk1 oom requested=65536 align=8 in_use=350112 peak=371200 heap=262144\n";
        let mut o = outcome(
            &lines,
            "icount region=0 insns=120 mul=1 load_store=2 branch=3 other=114\n",
        );
        o.exit_ok = false;
        o.exit_code = Some(5);
        let r = build(&o, Core::M33, "tlsf", &meta()).unwrap();
        assert_eq!(r.result, OUT_OF_MEMORY);
        assert_eq!(r.heap_needed_at_least, Some(350112 + 65536));
        assert_eq!(r.heap_size, Some(262144));
        assert_eq!((r.instructions, r.heap_peak), (None, None));
        assert_eq!(r.backend, "wf-goldilocks");
        // Without the oom line the same cut-off output is an error, not a record.
        let cut = LINES.lines().take(2).collect::<Vec<_>>().join("\n");
        assert!(build(&outcome(&cut, ""), Core::M33, "tlsf", &meta()).is_err());
        assert!(build(&o, Core::Rv32, "tlsf", &meta()).is_err());
    }

    #[test]
    fn repeated_runs_compare_counts() {
        let a = outcome(LINES, REGIONS);
        assert!(a.same_measurements(&a.clone()).is_ok());
        let b = outcome(LINES, &REGIONS.replace("insns=50", "insns=51"));
        assert!(a.same_measurements(&b).is_err());
    }

    #[test]
    fn bringup_proof_checksums() {
        let p = bringup_proof(BackendId::P3M31, 100);
        let f = picostark_core::ProofFile::parse(&p).unwrap();
        let (body, tag) = f.payload.split_at(f.payload.len() - 4);
        assert_eq!(fnv1a32(body).to_le_bytes(), tag);
        assert_eq!(f.header.backend, BackendId::P3M31);
    }
}

//! `mcu-run board`: an RP2350 board image's own code run under QEMU with the timing model
//! (`board.rs`: the machine, the patches for code that waits on hardware, the verdict check
//! through QEMU's gdb stub), one `RunRecord` of the median-cycles window.

use std::path::{Path, PathBuf};

use picostark_core::record::{CycleEstimate, RunRecord};
use picostark_core::{ProofFile, ProofHeader};

use crate::board::{self, OwnImage, Patch, Verdict};
use crate::cli::Expect;
use crate::qemu::{self, Core, Isa, Region};
use crate::{elf, profile, record};

/// Run an RP2350 board image's own code under QEMU with the timing model and write one
/// RunRecord with the median-cycles window's estimate.
///
/// Counts from `--start` to `--end` each time (an RP2350 ELF, e.g. a published silicon
/// run's firmware rebuilt from its sources). Our own rp2350 images (this firmware with the
/// feature `rp2350`) need no addresses: the window, the headless word to set, the verdict
/// point and the iteration count come from the image's symbols, and the record names the
/// code placement and the code bytes in flash and in SRAM.
#[derive(clap::Args, Debug)]
#[command(after_help = "Our own rp2350 images:
  mcu-run board --core m33|rv32 [--proof FILE [--flip-proof]] [--windows 0] [--out DIR] OUR.elf")]
pub struct Args {
    /// The board image.
    #[arg(value_name = "BOARD.elf")]
    pub elf: PathBuf,
    /// The core the image is for.
    #[arg(long)]
    pub core: Core,
    /// Where each window starts (hex) [default: our image's `pstk_measure_start`].
    #[arg(long, value_name = "ADDR", value_parser = board::parse_addr)]
    pub start: Option<u32>,
    /// Where each window ends (hex) [default: our image's `pstk_measure_end`].
    #[arg(long, value_name = "ADDR", value_parser = board::parse_addr)]
    pub end: Option<u32>,
    /// An instruction to make a NOP (code that waits on hardware; repeatable).
    #[arg(long = "skip", value_name = "ADDR", value_parser = board::parse_addr)]
    pub skips: Vec<u32>,
    /// A function to return at once (repeatable).
    #[arg(long = "return", value_name = "ADDR", value_parser = board::parse_addr)]
    pub returns: Vec<u32>,
    /// Bytes to write at an address (repeatable).
    #[arg(long = "patch", value_name = "ADDR=HEX", value_parser = Patch::parse_bytes)]
    pub patches: Vec<Patch>,
    /// The verdict point: the register holding VALUE at ADDR means accepted
    /// [default: our image's `pstk_verdict`, argument 0].
    #[arg(long, value_name = "ADDR:REG=VALUE")]
    pub accept: Option<String>,
    /// The verdict the run must get [default: rejected with --flip-proof, else accepted].
    #[arg(long, value_enum)]
    pub expect: Option<Expect>,
    /// Measured windows; 0 checks the verdict only [default: our image's iterations, else 7].
    #[arg(long, value_name = "N")]
    pub windows: Option<u64>,
    /// The RV32 instruction set [default: rp2350 for our images, else rv32imac].
    #[arg(long)]
    pub isa: Option<Isa>,
    /// The timing model's XIP miss cost, instead of the model's own.
    #[arg(long, value_name = "CYCLES")]
    pub xip_miss: Option<u64>,
    /// The proof the image carries (the record's proof fields; needed by --flip-proof).
    #[arg(long, value_name = "FILE")]
    pub proof: Option<PathBuf>,
    /// The allocator the record names.
    #[arg(long, value_name = "NAME", default_value = "tlsf")]
    pub alloc: String,
    /// Seconds before a run is stopped.
    #[arg(long, value_name = "S", default_value_t = 300)]
    pub timeout: u64,
    /// The record's folder (no record without it).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Write the measured windows' instructions by function here, and their XIP miss cycles
    /// by function symbol beside it (`NAME.misses.txt`).
    #[arg(long, value_name = "FILE")]
    pub profile: Option<String>,
    /// Which image the record names (`RunRecord.image`: one-backend, all-backend).
    #[arg(long, value_name = "NAME")]
    pub image: Option<String>,
    /// Flip one byte in the middle of the embedded proof's payload (needs --proof; found by
    /// its run address, patched in its load image): the run must then be rejected.
    #[arg(long)]
    pub flip_proof: bool,
    /// Diagnostic, no record: only the read-only data segments are flash to the model.
    #[arg(long)]
    pub xip_data_only: bool,
}

pub fn run(args: Args) -> Result<(), String> {
    let elf_path = args.elf.display().to_string();
    let elf = std::fs::read(&args.elf).map_err(|e| format!("{elf_path}: {e}"))?;
    let core = args.core;
    // Our own rp2350 images (`PSTK_HEADLESS`): window, patches, verdict and windows from the
    // image's symbols, the RV32 ISA the firmware is built for. Published RP2350 images are
    // plain RV32IMAC unless built otherwise, and need everything on the command line.
    let own = board::own_image(&elf, core)?;
    let isa = args.isa.unwrap_or(match own {
        Some(_) => Isa::Rp2350,
        None => Isa::Rv32imac,
    });
    let addr = |k: &str, given: Option<u32>, own: Option<u32>| {
        given.or(own).ok_or(format!("--{k} ADDR is required"))
    };
    let start = addr("start", args.start, own.as_ref().map(|o| o.start))?;
    let end = addr("end", args.end, own.as_ref().map(|o| o.end))?;
    let mut patches = own.as_ref().map(|o| o.patches.clone()).unwrap_or_default();
    patches.extend(args.skips.iter().map(|&a| Patch::Skip(a)));
    patches.extend(args.returns.iter().map(|&a| Patch::Return(a)));
    patches.extend(args.patches.iter().cloned());
    let verdict = match &args.accept {
        Some(v) => Some(Verdict::parse(v, core)?),
        None => own.as_ref().map(|o| o.verdict.clone()),
    };
    let flip = args.flip_proof;
    let expect = args.expect.unwrap_or(if flip {
        Expect::Rejected
    } else {
        Expect::Accepted
    });
    let windows = match (args.windows, &own) {
        (None, Some(o)) => o.iterations as usize,
        (w, _) => w.unwrap_or(7) as usize,
    };
    let proof = args
        .proof
        .as_ref()
        .map(|p| std::fs::read(p).map_err(|e| format!("{}: {e}", p.display())))
        .transpose()?;
    let header = embedded_proof(&elf, &elf_path, proof.as_deref(), flip, &mut patches)?;
    let plugin = qemu::build_plugin()?;
    let model = model_args(&args, &elf)?;
    let run = board::BoardRun {
        core,
        isa,
        elf: &elf,
        patches: &patches,
        windows,
        plugin: qemu::Plugin {
            path: &plugin,
            markers: (start, end),
            model: &model,
        },
        timeout: std::time::Duration::from_secs(args.timeout),
    };
    let result = verdict_of(&run, verdict.as_ref())?;
    if verdict.is_some() && !result.starts_with(expect.name()) {
        return Err(format!("{elf_path}: {result}, expected {}", expect.name()));
    }
    if windows == 0 {
        println!("{elf_path} {}: {result}", core.name());
        return Ok(());
    }
    let regions = run.measure()?;
    if let Some(dest) = &args.profile {
        write_profiles(&elf, &elf_path, dest, &regions)?;
    }
    let name = Path::new(&elf_path)
        .file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned();
    let window = Window {
        start,
        end,
        patches: patches.len(),
        windows,
        isa,
    };
    let (rec, median) = to_record(&args, &elf, &name, own.as_ref(), &window, &regions, result)?;
    let rec = with_proof(rec, header.zip(proof.as_deref()));
    let e = rec.estimate.as_ref().expect("set above");
    println!(
        "{name} {} {}: {} instructions, {} est. cycles ({:.2} ms; stall {}, {} XIP misses, \
         {} miss cycles), windows {windows}",
        core.name(),
        rec.result,
        median.insns,
        e.cycles,
        e.ms,
        e.stall_cycles,
        e.xip_misses,
        e.xip_miss_cycles
    );
    if let Some(out) = &args.out {
        write_record(&args, out, &name, own.as_ref(), &rec)?;
    }
    Ok(())
}

/// The run's verdict at the verdict point (`unchecked` without one).
fn verdict_of(run: &board::BoardRun<'_>, verdict: Option<&Verdict>) -> Result<String, String> {
    let Some(v) = verdict else {
        return Ok("unchecked".to_string());
    };
    let got = run.register_at(v)?;
    Ok(if got == v.value {
        "accepted".to_string()
    } else {
        format!("rejected:verdict-register={got}")
    })
}

/// With `--proof`: its header and length, after checking the image carries its payload;
/// with `--flip-proof` also the patch that flips one payload byte.
fn embedded_proof(
    elf: &[u8],
    elf_path: &str,
    proof: Option<&[u8]>,
    flip: bool,
    patches: &mut Vec<Patch>,
) -> Result<Option<(ProofHeader, usize)>, String> {
    let Some(bytes) = proof else {
        if flip {
            return Err("--flip-proof needs --proof (the proof the image carries)".into());
        }
        return Ok(None);
    };
    let pf = ProofFile::parse(bytes).map_err(|e| format!("--proof: {e}"))?;
    let Some(at) = board::find_bytes(elf, pf.payload)? else {
        return Err(format!("{elf_path} does not carry the payload of --proof"));
    };
    if flip {
        // One payload byte in the middle of the embedded proof, flipped in the copy QEMU
        // runs: every genuine iteration must then be rejected. By run address, written to
        // the segment's file bytes: a proof copied to SRAM at reset (`proof-in-sram`) is
        // flipped in its flash load image, before the copy.
        let mid = at + (pf.payload.len() / 2) as u32;
        let e = elf::Elf::parse(elf).map_err(|e| e.to_string())?;
        let off = e
            .file_offset(mid, 1)
            .map_err(|e| e.to_string())?
            .ok_or("the embedded proof is not in the image's file bytes")?;
        patches.push(Patch::Bytes(mid, vec![elf[off] ^ 0x01]));
    }
    Ok(Some((pf.header, bytes.len())))
}

/// The timing model's arguments: the core's model over the image's flash ranges, changed by
/// `--xip-data-only`, with `--profile`'s raw block profile.
fn model_args(args: &Args, elf: &[u8]) -> Result<Vec<String>, String> {
    let mut model = qemu::model_args(args.core, elf, None, args.xip_miss)?;
    if args.xip_data_only {
        // Diagnostic (no record): only the read-only data segments (constants, the embedded
        // proof) are flash to the model, the code costs as if in SRAM: the miss cycles that
        // the data alone would cause.
        if args.out.is_some() {
            return Err("--xip-data-only is a diagnostic: it writes no record (drop --out)".into());
        }
        let e = elf::Elf::parse(elf).map_err(|e| e.to_string())?;
        model.retain(|a| !a.starts_with("flash="));
        for seg in e.read_only_data().map_err(|e| e.to_string())? {
            let end = seg.paddr + seg.data.len() as u32;
            model.push(format!("flash={:#010x}-{end:#010x}", seg.paddr));
        }
    }
    // `--profile FILE`: instructions by function of the image's measured windows (the
    // plugin's block profile charged to the image's symbols, as `run --profile` does).
    if let Some(p) = &args.profile {
        model.push(format!("profile={}", raw_profile(p).display()));
    }
    Ok(model)
}

/// The plugin's block profile behind `--profile FILE`.
fn raw_profile(dest: &str) -> PathBuf {
    PathBuf::from(format!("{dest}.raw"))
}

/// `--profile FILE`: the measured windows' instructions by function, and beside it their XIP
/// miss cycles by function symbol; removes the plugin's files.
fn write_profiles(
    elf: &[u8],
    elf_path: &str,
    dest: &str,
    regions: &[Region],
) -> Result<(), String> {
    let raw = raw_profile(dest);
    let text = std::fs::read_to_string(&raw).map_err(|e| format!("{}: {e}", raw.display()))?;
    let parsed = elf::Elf::parse(elf).map_err(|e| e.to_string())?;
    let rows = profile::by_function(&text, &parsed)?;
    let exact: u64 = regions.iter().map(|r| r.insns).sum();
    let header = format!("{elf_path}: instructions by function, the measured windows");
    std::fs::write(dest, profile::render(&rows, exact, &header))
        .map_err(|e| format!("{dest}: {e}"))?;
    // The XIP miss cycles charged while each function ran (its code lines and its flash
    // loads), beside it: `NAME.misses.txt` for `NAME.txt`, by symbol (each generic instance
    // on its own, as `mcu-run hot-set` places them).
    let rows = profile::misses_by_symbol(&text, &parsed)?;
    let exact: u64 = regions
        .iter()
        .filter_map(|r| r.estimate.as_ref().map(|e| e.xip_miss_cycles))
        .sum();
    let header =
        format!("{elf_path}: XIP miss cycles by function symbol (model), the measured windows");
    let misses = match dest.strip_suffix(".txt") {
        Some(stem) => format!("{stem}.misses.txt"),
        None => format!("{dest}.misses"),
    };
    std::fs::write(&misses, profile::render(&rows, exact, &header))
        .map_err(|e| format!("{misses}: {e}"))?;
    let _ = std::fs::remove_file(&raw);
    // The plugin's per-window files beside it (`FILE.raw.regionN`): the profile above covers
    // every window.
    for i in 0..regions.len() + 1 {
        let _ = std::fs::remove_file(profile::region_file(&raw, i));
    }
    Ok(())
}

/// What the record's `profile` field says about the run besides the image.
struct Window {
    start: u32,
    end: u32,
    patches: usize,
    windows: usize,
    isa: Isa,
}

/// The record of the measured windows (the median-cycles window's figures) and that window.
fn to_record<'r>(
    args: &Args,
    elf: &[u8],
    name: &str,
    own: Option<&OwnImage>,
    w: &Window,
    regions: &'r [Region],
    result: String,
) -> Result<(RunRecord, &'r Region), String> {
    let core = args.core;
    let est: CycleEstimate = record::estimate(regions).ok_or("the plugin gave no estimate")?;
    let median = regions
        .iter()
        .find(|r| r.estimate.as_ref().map(|e| e.cycles) == Some(est.cycles))
        .ok_or("no median window")?;
    let meta = record::BuildMeta::collect();
    let mut profile = format!(
        "board-image={name} image-fnv1a32={:08x} window=board-image start={:#x} \
         end={:#x} patches={} windows={}",
        record::fnv1a32(elf),
        w.start,
        w.end,
        w.patches,
        w.windows
    );
    if core == Core::Rv32 {
        profile.push_str(&format!(" isa={}", w.isa.name()));
    }
    if let Some(o) = own {
        profile.push_str(&format!(
            " image=picostark headless placement={} flash-code-bytes={} sram-code-bytes={} \
             sram-proof-bytes={}",
            o.placement, o.flash_code_bytes, o.sram_code_bytes, o.sram_proof_bytes
        ));
    }
    let rec = RunRecord {
        schema: picostark_core::record::RUN_RECORD_SCHEMA,
        source: "emulator".into(),
        core: core.name().into(),
        board: "qemu-board-image".into(),
        allocator: args.alloc.clone(),
        result,
        iterations: w.windows as u32,
        instructions: Some(median.insns),
        instruction_classes: Some(median.classes.clone()),
        estimate: Some(est),
        toolchain: board::toolchain(elf).unwrap_or_else(|| "unknown".into()),
        placement: own.map(|o| o.placement.clone()),
        image: args.image.clone(),
        profile,
        git_commit: meta.git_commit,
        ..Default::default()
    };
    Ok((rec, median))
}

/// The record with the proof's fields (`--proof`: its header and length, its bytes).
fn with_proof(mut rec: RunRecord, proof: Option<((ProofHeader, usize), &[u8])>) -> RunRecord {
    let Some(((h, len), bytes)) = proof else {
        return rec;
    };
    rec.backend = h.backend.name().into();
    rec.field = h.field.name().into();
    rec.extension = h.extension_degree;
    rec.air = h.air.name().into();
    rec.n = 1u64 << h.log_n;
    rec.proof_bytes = len as u64;
    // Under QEMU the image hashes in software whatever it would use on the board.
    rec.hash_impl = Some(
        match h.hash {
            picostark_core::HashId::Blake3_256 => "blake3-software",
            picostark_core::HashId::Sha256 => "sha256-software",
            picostark_core::HashId::Blake2s256 => "blake2s-software",
        }
        .into(),
    );
    record::with_security(rec, bytes)
}

/// Writes `OUT/STEM.CORE.ALLOC.json` (STEM: the proof's file name, else the image's), with
/// our image's code bytes beyond the RunRecord schema.
fn write_record(
    args: &Args,
    out: &Path,
    name: &str,
    own: Option<&OwnImage>,
    rec: &RunRecord,
) -> Result<(), String> {
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let stem = args
        .proof
        .as_ref()
        .and_then(|p| p.file_name())
        .map_or(name.to_string(), |n| n.to_string_lossy().into());
    let file = out.join(format!("{stem}.{}.{}.json", args.core.name(), args.alloc));
    let mut json = serde_json::to_value(rec).map_err(|e| e.to_string())?;
    if let (Some(o), Some(map)) = (own, json.as_object_mut()) {
        // Fields beyond the RunRecord schema (readers that do not know them skip them).
        map.insert("flash_code_bytes".into(), o.flash_code_bytes.into());
        map.insert("sram_code_bytes".into(), o.sram_code_bytes.into());
        map.insert("sram_proof_bytes".into(), o.sram_proof_bytes.into());
    }
    let json = serde_json::to_string_pretty(&json).map_err(|e| e.to_string())?;
    std::fs::write(&file, json + "\n").map_err(|e| format!("{}: {e}", file.display()))?;
    println!("wrote {}", file.display());
    Ok(())
}

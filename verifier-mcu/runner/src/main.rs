//! `mcu-run`: the host side of the picostark firmware.
//!
//! ```text
//! mcu-run run --core m33|rv32 [--alloc tlsf|llff|bump] [--features F,..] [--expect accepted|rejected]
//!             [--repeat N] [--heap BYTES] [--iterations N] [--out DIR] [--elf ELF]
//!             [--embedded] [--profile] [--isa rp2350|rv32imac] [--window full|stock-wf]
//!             [--xip-miss CYCLES] [--layout-elf BOARD.elf] [--image NAME] PROOF...
//! mcu-run run --build-only --core m33|rv32 --features F,..|--window stock-wf [--alloc NAME]
//!             [--heap BYTES] [--iterations N] [--isa rp2350|rv32imac]
//! mcu-run board --core m33|rv32 --start ADDR --end ADDR [--skip ADDR].. [--return ADDR]..
//!               [--patch ADDR=HEX].. [--accept ADDR:REG=VALUE] [--expect accepted|rejected]
//!               [--windows N] [--isa rv32imac|rp2350] [--xip-miss CYCLES] [--proof FILE]
//!               [--alloc NAME] [--timeout S] [--out DIR] [--profile FILE] [--flip-proof]
//!               [--xip-data-only] BOARD.elf
//! mcu-run board --core m33|rv32 [--proof FILE [--flip-proof]] [--windows 0] [--out DIR] OUR.elf
//! mcu-run hot-set --budget BYTES --elf ELF@BACKENDS.. [--out FILE] PROFILE...
//! mcu-run uf2 ELF OUT.uf2 --family rp2350-arm|rp2350-riscv
//! mcu-run check-image ELF [UF2] --family rp2350-arm|rp2350-riscv
//! mcu-run tamper [--kind flip|truncate|low-security|wrong-backend|zero-payload|overlong|trailing] IN OUT
//! mcu-run tamper --kind header-sweep IN PREFIX
//! mcu-run bringup-proof OUT [--backend NAME] [--bytes N]
//! mcu-run capture --port DEV [--out FILE] [--baud N] [--timeout S] [--runs N]
//! mcu-run profile-parts PROFILE --record RECORD.json --trees BYTES@DEPTH,.. --queries Q
//!             [--unique-leaves] [--compressions N --compressions-source TEXT] [--level TEXT]
//!             [--command TEXT] [--committed-record RECORD.json] [--out FILE.json]
//! mcu-run field-bench --core m33|rv32 [--isa rp2350|rv32imac] [--placement sram|xip] [--out DIR] [--elf ELF] [--timeout S]
//! ```
//!
//! `run` builds the firmware once for the core (QEMU board, proof slot, the backends the
//! proofs need unless `--features` says otherwise; cargo reuses an up-to-date build), builds
//! the instruction-count plugin, then for each proof file loads it into the firmware's RAM
//! proof slot, runs QEMU with the plugin, parses the firmware's `pstk1` lines and the
//! plugin's counts, and writes one `RunRecord` JSON per proof to `--out` (default
//! `out/mcu`). `--build-only` builds that firmware and prints its ELF, no proof needed: a
//! later `run` with the same flags finds it up to date. It fails (exit 1) when a result is not the expected one, when the firmware's
//! own tampered copy of an accepted proof was not rejected (after a rejected one the copy is
//! not applicable: `n/a`), or, with `--repeat N`, when two runs differ in any count.
//! With `--embedded` each proof is instead built into its own firmware (`PSTK_PROOF`, which
//! also fixes the expected statement) and run without the slot. With `--profile` the first
//! run of each proof also writes `NAME.CORE.ALLOC.profile.txt` to `--out`: the measured
//! instructions by function (see `profile.rs`), and prints the top lines; the first genuine
//! iteration alone goes to `*.profile.iteration1.txt`, its XIP miss cycles by function
//! (the timing model's) to `*.profile.iteration1.misses.txt`. `--isa` chooses the
//! RV32 instruction set: `rp2350` (default: RV32IMAC + Zba, Zbb, Zbs, Zbkb, what the Hazard3
//! cores run) or `rv32imac` (plain, for other chips); QEMU's `-cpu` follows it.
//!
//! Every run loads the plugin's timing model for the core (`model=m33|hazard3`, the image's
//! flash ranges: `qemu::model_args`) and each record carries its estimate (cycles, ms at
//! 150 MHz, stalls, XIP misses); `--xip-miss CYCLES` overrides the model's XIP miss cost;
//! `--layout-elf BOARD.elf` has the model see each function at its address in that board image
//! (the XIP cache's sets depend on it; `qemu::layout_map`, verifier-mcu/TIMING.md).
//! `--window stock-wf` measures what the published silicon runs of stock winterfell measured
//! (firmware feature `stock-wf-window`): `winterfell::verify` alone on a proof parsed and
//! cloned before the window, built with target-cpu=cortex-m33 on the M33 and as plain
//! RV32IMAC on RV32; any winterfell Goldilocks proof file, any allocator.
//!
//! `board` runs a board image's own code (an RP2350 ELF, e.g. a published silicon run's
//! firmware rebuilt from its sources) under QEMU with the timing model, counting from
//! `--start` to `--end` each time, and writes one `RunRecord` with the median-cycles window's
//! estimate (`board.rs`: the machine, the patches for code that waits on hardware, the
//! verdict check through QEMU's gdb stub). Our own rp2350 images (this firmware with the
//! feature `rp2350`) need no addresses: `board::own_image` reads the window
//! (`pstk_measure_start`/`_end`), the headless word to set, the verdict point
//! (`pstk_verdict`, argument 0) and the iteration count from the image's symbols, and the
//! record names the code placement and the code bytes in flash and in SRAM (with
//! `+proof-sram` and the proof's bytes when the image runs its embedded proof from SRAM, the
//! symbol `PSTK_PROOF_SRAM` of the firmware feature `proof-in-sram`), and with
//! `--image one-backend|all-backend` which image it is (`RunRecord.image`). `--flip-proof`
//! flips one byte in the middle of the embedded proof's payload (needs `--proof`; found by its
//! run address, patched in its load image, so a proof copied to SRAM at reset is flipped in
//! flash): the run must then be rejected.
//!
//! `profile-parts` splits one verification's profile (`run --profile`'s
//! `*.profile.iteration1.txt`) into leaf hashing, Merkle paths, FRI folding, constraint
//! evaluation, DEEP quotients, transcript and the rest (`parts.rs`: function-name patterns per
//! verifier, hashing split by a documented compression-count model) and writes JSON.
//!
//! `capture` records a real board's runs from its USB serial port (`capture.rs`): it sends the
//! firmware's request line (`picostark_core::board`), saves the `pstk1` lines to `--out`
//! (default `device-TIME.log`) until `--runs` `done` lines (default 1), and fails on a
//! `panic`, `oom` or `fault` line, a run that ended without its `done`, or `--timeout` seconds
//! (default 600), keeping the partial log. `compare report --in` reads the log.

mod board;
mod capture;
mod dwarf;
mod elf;
mod field_bench;
mod hot_list;
mod hot_set;
mod image_check;
mod parts;
mod paths;
mod profile;
mod qemu;
mod record;
mod uf2;

use paths::repo_root;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use picostark_core::{BackendId, ProofFile};

use crate::qemu::Core;

fn usage() -> &'static str {
    "usage:
  mcu-run run --core m33|rv32 [--alloc tlsf|llff|bump] [--features F,..] [--expect accepted|rejected]
              [--repeat N] [--heap BYTES] [--iterations N] [--out DIR] [--elf ELF]
              [--embedded] [--profile] [--isa rp2350|rv32imac] [--window full|stock-wf]
              [--xip-miss CYCLES] [--layout-elf BOARD.elf] [--sha256-engine] [--image NAME] PROOF...
  mcu-run run --build-only --core m33|rv32 --features F,..|--window stock-wf [--alloc NAME]
              [--heap BYTES] [--iterations N] [--isa rp2350|rv32imac]
  mcu-run board --core m33|rv32 --start ADDR --end ADDR [--skip ADDR].. [--return ADDR]..
              [--patch ADDR=HEX].. [--accept ADDR:REG=VALUE] [--expect accepted|rejected]
              [--windows N] [--isa rv32imac|rp2350] [--xip-miss CYCLES] [--proof FILE]
              [--alloc NAME] [--timeout S] [--out DIR] [--profile FILE] [--flip-proof]
              [--xip-data-only] BOARD.elf
  mcu-run board --core m33|rv32 [--proof FILE [--flip-proof]] [--windows 0] [--out DIR] OUR.elf
  mcu-run hot-set --budget BYTES --elf ELF@BACKENDS.. [--out FILE] PROFILE...
  mcu-run uf2 ELF OUT.uf2 --family rp2350-arm|rp2350-riscv
  mcu-run check-image ELF [UF2] --family rp2350-arm|rp2350-riscv
  mcu-run tamper [--kind flip|truncate|low-security|wrong-backend|zero-payload|overlong|trailing] IN OUT
  mcu-run tamper --kind header-sweep IN PREFIX
  mcu-run bringup-proof OUT [--backend NAME] [--bytes N]
  mcu-run capture --port DEV [--out FILE] [--baud N] [--timeout S] [--runs N]
  mcu-run profile-parts PROFILE --record RECORD.json --trees BYTES@DEPTH,.. --queries Q
              [--unique-leaves] [--compressions N --compressions-source TEXT] [--level TEXT]
              [--command TEXT] [--committed-record RECORD.json] [--out FILE.json]
  mcu-run field-bench --core m33|rv32 [--isa rp2350|rv32imac] [--placement sram|xip] [--out DIR] [--elf ELF] [--timeout S]"
}

struct Flags {
    positional: Vec<String>,
    named: Vec<(String, String)>,
}

impl Flags {
    fn parse(args: &[String], valued: &[&str]) -> Result<Self, String> {
        Self::parse_with_switches(args, valued, &[])
    }

    fn parse_with_switches(
        args: &[String],
        valued: &[&str],
        switches: &[&str],
    ) -> Result<Self, String> {
        let mut positional = Vec::new();
        let mut named = Vec::new();
        let mut it = args.iter();
        while let Some(a) = it.next() {
            if let Some(name) = a.strip_prefix("--") {
                if switches.contains(&name) {
                    named.push((name.to_string(), "yes".to_string()));
                    continue;
                }
                if !valued.contains(&name) {
                    return Err(format!("unknown option --{name}"));
                }
                let v = it.next().ok_or_else(|| format!("--{name} needs a value"))?;
                named.push((name.to_string(), v.clone()));
            } else {
                positional.push(a.clone());
            }
        }
        Ok(Flags { positional, named })
    }

    fn get(&self, name: &str) -> Option<&str> {
        self.named
            .iter()
            .rev()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    fn all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.named
            .iter()
            .filter(move |(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    fn num(&self, name: &str, default: u64) -> Result<u64, String> {
        match self.get(name) {
            Some(v) => v
                .parse()
                .map_err(|_| format!("--{name} {v:?} is not a number")),
            None => Ok(default),
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("run") => cmd_run(&args[1..]),
        Some("board") => cmd_board(&args[1..]),
        Some("hot-set") => cmd_hot_set(&args[1..]),
        Some("uf2") => cmd_uf2(&args[1..]),
        Some("check-image") => cmd_check_image(&args[1..]),
        Some("tamper") => cmd_tamper(&args[1..]),
        Some("bringup-proof") => cmd_bringup(&args[1..]),
        Some("capture") => cmd_capture(&args[1..]),
        Some("profile-parts") => cmd_profile_parts(&args[1..]),
        Some("field-bench") => field_bench::command(&args[1..]),
        _ => Err(usage().to_string()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mcu-run: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `--core` (required) and `--isa` (the RV32 instruction set, `default` when absent).
fn core_and_isa(f: &Flags, default: qemu::Isa) -> Result<(Core, qemu::Isa), String> {
    let core = match f.get("core") {
        Some("m33") => Core::M33,
        Some("rv32") => Core::Rv32,
        _ => return Err("--core m33|rv32 is required".into()),
    };
    let isa = match f.get("isa") {
        None => default,
        Some(name) => qemu::Isa::parse(name)
            .ok_or_else(|| format!("unknown --isa {name:?} (rp2350, rv32imac)"))?,
    };
    Ok((core, isa))
}

/// `mcu-run hot-set`: the hot functions of the profiles (`hot_set.rs`), at most `--budget`
/// bytes in each image given (`--elf`, repeatable).
fn cmd_hot_set(args: &[String]) -> Result<(), String> {
    let f = Flags::parse(args, &["budget", "elf", "out"])?;
    let budget = f.num("budget", 0)?;
    if budget == 0 {
        return Err("--budget BYTES is required".into());
    }
    let mut images = Vec::new();
    for arg in f.all("elf") {
        let Some((path, backends)) = arg.rsplit_once('@') else {
            return Err(format!(
                "--elf {arg}: say which backends the image verifies, --elf ELF@BACKEND[,BACKEND..]"
            ));
        };
        let backends: Vec<&str> = backends.split(',').collect();
        if let Some(b) = backends.iter().find(|b| BackendId::from_name(b).is_none()) {
            return Err(format!("--elf {arg}: unknown backend {b:?}"));
        }
        let elf = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
        images.push(hot_set::Image::parse(&elf, &backends).map_err(|e| format!("{path}: {e}"))?);
    }
    if images.is_empty() {
        return Err("give the images the list is for (--elf ELF@BACKENDS, repeatable)".into());
    }
    let mut profiles = Vec::new();
    for p in &f.positional {
        let text = std::fs::read_to_string(p).map_err(|e| format!("{p}: {e}"))?;
        profiles.push(hot_set::parse_profile(&text).map_err(|e| format!("{p}: {e}"))?);
    }
    if profiles.is_empty() {
        return Err("give at least one profile".into());
    }
    let (hot, expect) = hot_set::choose(&profiles, &images, budget);
    let header = format!(
        "Generated by `mcu-run hot-set {}` (verifier-mcu/runner/src/hot_set.rs):\n\
         functions by mean share of the profiles' counts per byte, at most {budget} B in \
         each image given; one link-section pattern per line (build.rs reads the first word).",
        args.join(" ")
    );
    let text = hot_set::render(&hot, &expect, &header);
    hot_set::verify(&text, &images)?;
    match f.get("out") {
        Some(out) => {
            std::fs::write(out, &text).map_err(|e| format!("{out}: {e}"))?;
            println!("wrote {out}");
        }
        None => print!("{text}"),
    }
    Ok(())
}

fn cmd_board(args: &[String]) -> Result<(), String> {
    let f = Flags::parse_with_switches(
        args,
        &[
            "core", "start", "end", "skip", "return", "patch", "accept", "expect", "windows",
            "isa", "xip-miss", "proof", "alloc", "timeout", "out", "profile", "image",
        ],
        &["flip-proof", "xip-data-only"],
    )?;
    let [elf_path] = f.positional.as_slice() else {
        return Err("give one board image (ELF)".into());
    };
    let elf = std::fs::read(elf_path).map_err(|e| format!("{elf_path}: {e}"))?;
    // Our own rp2350 images (`PSTK_HEADLESS`): window, patches, verdict and windows from the
    // image's symbols, the RV32 ISA the firmware is built for. Published RP2350 images are
    // plain RV32IMAC unless built otherwise, and need everything on the command line.
    let (core, _) = core_and_isa(&f, qemu::Isa::Rv32imac)?;
    let own = board::own_image(&elf, core)?;
    let (core, isa) = core_and_isa(
        &f,
        if own.is_some() {
            qemu::Isa::Rp2350
        } else {
            qemu::Isa::Rv32imac
        },
    )?;
    let addr = |k: &str, own: Option<u32>| match f.get(k) {
        Some(a) => board::parse_addr(a),
        None => own.ok_or(format!("--{k} ADDR is required")),
    };
    let start = addr("start", own.as_ref().map(|o| o.start))?;
    let end = addr("end", own.as_ref().map(|o| o.end))?;
    let mut patches = own.as_ref().map(|o| o.patches.clone()).unwrap_or_default();
    for a in f.all("skip") {
        patches.push(board::Patch::Skip(board::parse_addr(a)?));
    }
    for a in f.all("return") {
        patches.push(board::Patch::Return(board::parse_addr(a)?));
    }
    for p in f.all("patch") {
        patches.push(board::Patch::parse_bytes(p)?);
    }
    let verdict = match f.get("accept") {
        Some(v) => Some(board::Verdict::parse(v, core)?),
        None => own.as_ref().map(|o| o.verdict.clone()),
    };
    let flip = f.get("flip-proof").is_some();
    let expect = f
        .get("expect")
        .unwrap_or(if flip { "rejected" } else { "accepted" });
    if !["accepted", "rejected"].contains(&expect) {
        return Err("--expect accepted|rejected".into());
    }
    let windows = match (f.get("windows"), &own) {
        (None, Some(o)) => o.iterations as usize,
        _ => f.num("windows", 7)? as usize,
    };
    let xip_miss = f
        .get("xip-miss")
        .map(|_| f.num("xip-miss", 0))
        .transpose()?;
    let alloc = f.get("alloc").unwrap_or("tlsf");
    let proof = f
        .get("proof")
        .map(|p| std::fs::read(p).map_err(|e| format!("{p}: {e}")))
        .transpose()?;
    let header = match &proof {
        Some(bytes) => {
            let pf = ProofFile::parse(bytes).map_err(|e| format!("--proof: {e}"))?;
            let Some(at) = board::find_bytes(&elf, pf.payload)? else {
                return Err(format!("{elf_path} does not carry the payload of --proof"));
            };
            if flip {
                // One payload byte in the middle of the embedded proof, flipped in the copy
                // QEMU runs: every genuine iteration must then be rejected. By run address,
                // written to the segment's file bytes: a proof copied to SRAM at reset
                // (`proof-in-sram`) is flipped in its flash load image, before the copy.
                let mid = at + (pf.payload.len() / 2) as u32;
                let e = elf::Elf::parse(&elf).map_err(|e| e.to_string())?;
                let off = e
                    .file_offset(mid, 1)
                    .map_err(|e| e.to_string())?
                    .ok_or("the embedded proof is not in the image's file bytes")?;
                patches.push(board::Patch::Bytes(mid, vec![elf[off] ^ 0x01]));
            }
            Some((pf.header, bytes.len()))
        }
        None if flip => {
            return Err("--flip-proof needs --proof (the proof the image carries)".into())
        }
        None => None,
    };
    let plugin = qemu::build_plugin()?;
    let mut model = qemu::model_args(core, &elf, None, xip_miss)?;
    if f.get("xip-data-only").is_some() {
        // Diagnostic (no record): only the read-only data segments (constants, the embedded
        // proof) are flash to the model, the code costs as if in SRAM: the miss cycles that
        // the data alone would cause.
        if f.get("out").is_some() {
            return Err("--xip-data-only is a diagnostic: it writes no record (drop --out)".into());
        }
        let e = elf::Elf::parse(&elf).map_err(|e| e.to_string())?;
        model.retain(|a| !a.starts_with("flash="));
        for seg in e.read_only_data().map_err(|e| e.to_string())? {
            let end = seg.paddr + seg.data.len() as u32;
            model.push(format!("flash={:#010x}-{end:#010x}", seg.paddr));
        }
    }
    // `--profile FILE`: instructions by function of the image's measured windows (the
    // plugin's block profile charged to the image's symbols, as `run --profile` does).
    let profile_raw = f.get("profile").map(|p| PathBuf::from(format!("{p}.raw")));
    if let Some(raw) = &profile_raw {
        model.push(format!("profile={}", raw.display()));
    }
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
        timeout: std::time::Duration::from_secs(f.num("timeout", 300)?),
    };
    let result = match &verdict {
        Some(v) => {
            let got = run.register_at(v)?;
            if got == v.value {
                "accepted".to_string()
            } else {
                format!("rejected:verdict-register={got}")
            }
        }
        None => "unchecked".to_string(),
    };
    if verdict.is_some() && !result.starts_with(expect) {
        return Err(format!("{elf_path}: {result}, expected {expect}"));
    }
    if windows == 0 {
        println!("{elf_path} {}: {result}", core.name());
        return Ok(());
    }
    let regions = run.measure()?;
    if let (Some(raw), Some(dest)) = (&profile_raw, f.get("profile")) {
        let text = std::fs::read_to_string(raw).map_err(|e| format!("{}: {e}", raw.display()))?;
        let parsed = elf::Elf::parse(&elf).map_err(|e| e.to_string())?;
        let rows = profile::by_function(&text, &parsed)?;
        let exact: u64 = regions.iter().map(|r| r.insns).sum();
        let header = format!("{elf_path}: instructions by function, the measured windows");
        std::fs::write(dest, profile::render(&rows, exact, &header))
            .map_err(|e| format!("{dest}: {e}"))?;
        // The XIP miss cycles charged while each function ran (its code lines and its flash
        // loads), beside it: `NAME.misses.txt` for `NAME.txt`, by symbol (each generic
        // instance on its own, as `mcu-run hot-set` places them).
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
        let _ = std::fs::remove_file(raw);
        // The plugin's per-window files beside it (`FILE.raw.regionN`): the profile above
        // covers every window.
        for i in 0..regions.len() + 1 {
            let _ = std::fs::remove_file(region_file(raw, i));
        }
    }
    let est = record::estimate(&regions).ok_or("the plugin gave no estimate")?;
    let median = regions
        .iter()
        .find(|r| r.estimate.as_ref().map(|e| e.cycles) == Some(est.cycles))
        .ok_or("no median window")?;
    let name = Path::new(elf_path)
        .file_name()
        .unwrap_or_default()
        .to_string_lossy();
    let meta = record::BuildMeta::collect();
    let mut profile = format!(
        "board-image={name} image-fnv1a32={:08x} window=board-image start={start:#x} \
         end={end:#x} patches={} windows={windows}",
        record::fnv1a32(&elf),
        patches.len()
    );
    if core == Core::Rv32 {
        profile.push_str(&format!(" isa={}", isa.name()));
    }
    if let Some(o) = &own {
        profile.push_str(&format!(
            " image=picostark headless placement={} flash-code-bytes={} sram-code-bytes={} \
             sram-proof-bytes={}",
            o.placement, o.flash_code_bytes, o.sram_code_bytes, o.sram_proof_bytes
        ));
    }
    let mut rec = picostark_core::record::RunRecord {
        schema: picostark_core::record::RUN_RECORD_SCHEMA,
        source: "emulator".into(),
        core: core.name().into(),
        board: "qemu-board-image".into(),
        allocator: alloc.into(),
        result,
        iterations: windows as u32,
        instructions: Some(median.insns),
        instruction_classes: Some(median.classes.clone()),
        estimate: Some(est),
        toolchain: board::toolchain(&elf).unwrap_or_else(|| "unknown".into()),
        placement: own.as_ref().map(|o| o.placement.clone()),
        image: f.get("image").map(String::from),
        profile,
        git_commit: meta.git_commit,
        ..Default::default()
    };
    if let (Some((h, len)), Some(bytes)) = (&header, &proof) {
        rec.backend = h.backend.name().into();
        rec.field = h.field.name().into();
        rec.extension = h.extension_degree;
        rec.air = h.air.name().into();
        rec.n = 1u64 << h.log_n;
        rec.proof_bytes = *len as u64;
        // Under QEMU the image hashes in software whatever it would use on the board.
        rec.hash_impl = Some(
            match h.hash {
                picostark_core::HashId::Blake3_256 => "blake3-software",
                picostark_core::HashId::Sha256 => "sha256-software",
                picostark_core::HashId::Blake2s256 => "blake2s-software",
            }
            .into(),
        );
        rec = record::with_security(rec, bytes);
    }
    let e = rec.estimate.as_ref().expect("set above");
    println!(
        "{name} {} {}: {} instructions, {} est. cycles ({:.2} ms; stall {}, {} XIP misses, {} miss cycles), windows {windows}",
        core.name(),
        rec.result,
        median.insns,
        e.cycles,
        e.ms,
        e.stall_cycles,
        e.xip_misses,
        e.xip_miss_cycles
    );
    if let Some(out) = f.get("out") {
        std::fs::create_dir_all(out).map_err(|e| format!("{out}: {e}"))?;
        let stem = f
            .get("proof")
            .and_then(|p| Path::new(p).file_name())
            .map_or(name.to_string(), |n| n.to_string_lossy().into());
        let file = Path::new(out).join(format!("{stem}.{}.{alloc}.json", core.name()));
        let mut json = serde_json::to_value(&rec).map_err(|e| e.to_string())?;
        if let (Some(o), Some(map)) = (&own, json.as_object_mut()) {
            // Fields beyond the RunRecord schema (readers that do not know them skip them).
            map.insert("flash_code_bytes".into(), o.flash_code_bytes.into());
            map.insert("sram_code_bytes".into(), o.sram_code_bytes.into());
            map.insert("sram_proof_bytes".into(), o.sram_proof_bytes.into());
        }
        let json = serde_json::to_string_pretty(&json).map_err(|e| e.to_string())?;
        std::fs::write(&file, json + "\n").map_err(|e| format!("{}: {e}", file.display()))?;
        println!("wrote {}", file.display());
    }
    Ok(())
}

fn cmd_run(args: &[String]) -> Result<(), String> {
    let f = Flags::parse_with_switches(
        args,
        &[
            "core",
            "alloc",
            "features",
            "expect",
            "repeat",
            "heap",
            "iterations",
            "out",
            "elf",
            "timeout",
            "isa",
            "window",
            "xip-miss",
            "layout-elf",
            "image",
        ],
        &["embedded", "profile", "sha256-engine", "build-only"],
    )?;
    let embedded = f.get("embedded").is_some();
    let build_only = f.get("build-only").is_some();
    let sha256_engine = f.get("sha256-engine").is_some();
    let profiling = f.get("profile").is_some();
    let (core, isa) = core_and_isa(&f, qemu::Isa::Rp2350)?;
    if core == Core::M33 && isa != qemu::Isa::Rp2350 {
        return Err("--isa chooses the RV32 instruction set: use it with --core rv32".into());
    }
    // `--window stock-wf`: the published silicon runs' measurement window and build (firmware
    // feature `stock-wf-window`: target-cpu=cortex-m33 on the M33, plain RV32IMAC on RV32).
    let stock_window = match f.get("window").unwrap_or("full") {
        "full" => false,
        "stock-wf" => true,
        w => return Err(format!("unknown --window {w:?} (full, stock-wf)")),
    };
    let isa = match (stock_window, core, f.get("isa")) {
        (true, Core::Rv32, Some("rp2350")) => {
            return Err(
                "--window stock-wf is the published plain RV32IMAC build: drop --isa rp2350".into(),
            )
        }
        (true, Core::Rv32, _) => qemu::Isa::Rv32imac,
        _ => isa,
    };
    if stock_window && f.get("features").is_some() {
        return Err("--window stock-wf builds its own feature set: drop --features".into());
    }
    let xip_miss = f
        .get("xip-miss")
        .map(|_| f.num("xip-miss", 0))
        .transpose()?;
    let alloc = f.get("alloc").unwrap_or("tlsf");
    if !["tlsf", "llff", "bump"].contains(&alloc) {
        return Err(format!("unknown allocator {alloc:?} (tlsf, llff, bump)"));
    }
    let expect = f.get("expect").unwrap_or("accepted");
    if !["accepted", "rejected"].contains(&expect) {
        return Err("--expect accepted|rejected".into());
    }
    let repeat = f.num("repeat", 1)?.max(1);
    let heap = f.num("heap", 256 * 1024)?;
    let iterations = f.num("iterations", 3)?;
    let timeout = f.num("timeout", 600)?;
    let out = f
        .get("out")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_root().join("out/mcu"));
    if build_only && (embedded || !f.positional.is_empty()) {
        return Err("--build-only takes --features (or --window stock-wf), no proofs".into());
    }
    if f.positional.is_empty() && !build_only {
        return Err("no proof files given".into());
    }

    // Read every proof first: a bad file stops the batch before any build.
    let mut proofs = Vec::new();
    for p in &f.positional {
        let bytes = std::fs::read(p).map_err(|e| format!("{p}: {e}"))?;
        let backend = ProofFile::parse(&bytes)
            .map(|pf| Some(pf.header.backend))
            .or_else(|e| {
                if expect == "rejected" {
                    Ok(None)
                } else {
                    Err(format!("{p}: {e}"))
                }
            })?;
        proofs.push((PathBuf::from(p), bytes, backend));
    }
    let features: Vec<String> = match f.get("features") {
        Some(list) => list.split(',').map(str::to_string).collect(),
        None if stock_window => vec!["stock-wf-window".to_string()],
        None => {
            let mut v: Vec<BackendId> = proofs.iter().filter_map(|p| p.2).collect();
            v.sort();
            v.dedup();
            v.iter().map(|b| b.name().to_string()).collect()
        }
    };
    if features.is_empty() {
        return Err("no backend to build: give --features".into());
    }
    // `--build-only`: the firmware a later `run` with the same flags reuses, built ahead
    // (verifier-mcu/ci.sh builds its images while the host still builds the prover).
    if build_only {
        let elf = qemu::build_firmware(core, isa, alloc, &features, heap, iterations, None)?;
        println!("{}", elf.display());
        return Ok(());
    }

    if embedded && f.get("elf").is_some() {
        return Err("--embedded builds one firmware per proof: drop --elf".into());
    }
    let build = |proof: Option<&Path>| -> Result<(PathBuf, (u32, u32)), String> {
        let elf = match f.get("elf") {
            Some(e) => PathBuf::from(e),
            None => qemu::build_firmware(core, isa, alloc, &features, heap, iterations, proof)?,
        };
        let elf_bytes = std::fs::read(&elf).map_err(|e| format!("{}: {e}", elf.display()))?;
        Ok((elf.clone(), qemu::markers(&elf_bytes)?))
    };
    // One build for the whole batch (proof slot), unless each proof is embedded.
    let shared = if embedded { None } else { Some(build(None)?) };
    let plugin = qemu::build_plugin()?;
    let mut meta = record::BuildMeta::collect();
    if core == Core::Rv32 {
        meta.profile.push_str(&format!(
            " isa={} target-features={}",
            isa.name(),
            isa.target_features()
        ));
    }
    // Where code and read-only data run from (issue 17): SRAM in the `code-in-ram` build.
    if code_in_sram(&features) {
        meta.profile.push_str(" code=sram");
    }
    let placement = placement(&features);
    if let Some(board) = f.get("layout-elf") {
        let name = Path::new(board).file_name().unwrap_or_default();
        meta.profile.push_str(&format!(
            " layout-elf={} layout-samples={}",
            name.to_string_lossy(),
            qemu::LAYOUT_SAMPLES
        ));
    }
    if stock_window {
        meta.profile.push_str(" window=stock-wf");
        if core == Core::M33 {
            meta.profile.push_str(" target-cpu=cortex-m33");
        }
    }
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;

    let mut failures = Vec::new();
    println!(
        "{:<40} {:<5} {:<14} {:<22} {:>12} {:>12} {:>8} {:>10} {:>10} {:>8}",
        "proof",
        "core",
        "backend",
        "result",
        "instructions",
        "est_cycles",
        "est_ms",
        "heap_peak",
        "stack_peak",
        "tampered"
    );
    for (path, bytes, _) in &proofs {
        let (elf, markers) = match &shared {
            Some(s) => s.clone(),
            None => build(Some(path))?,
        };
        let slot = (!embedded).then_some(bytes.as_slice());
        let elf_bytes = std::fs::read(&elf).map_err(|e| format!("{}: {e}", elf.display()))?;
        let mut model = qemu::model_args(core, &elf_bytes, slot.map(<[u8]>::len), xip_miss)?;
        if sha256_engine {
            model.push(qemu::sha256_offload_arg(&elf_bytes)?);
        }
        let mut layout = None;
        if let Some(board) = f.get("layout-elf") {
            let (arg, l) = qemu::layout_arg(&elf, Path::new(board), 0)?;
            model.push(arg);
            layout = Some(l);
        }
        let plugin_args = qemu::Plugin {
            path: &plugin,
            markers,
            model: &model,
        };
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "proof".into());
        // The layout's coverage is counted on the block profile, so a layout run takes one.
        let raw_profile = (profiling || layout.is_some())
            .then(|| out.join(format!("{name}.{}.profile.raw", core.name())));
        let mut first: Option<qemu::Outcome> = None;
        for r in 0..repeat {
            let p = raw_profile.as_deref().filter(|_| r == 0);
            let o = qemu::run(core, isa, &elf, &plugin_args, slot, timeout, p)?;
            if let Some(f0) = &first {
                if let Err(e) = f0.same_measurements(&o) {
                    failures.push(format!(
                        "{}: run {} differs from run 1: {e}",
                        path.display(),
                        r + 1
                    ));
                }
            } else {
                first = Some(o);
            }
        }
        let mut o = first.expect("repeat >= 1");
        if let Some(board) = f.get("layout-elf") {
            o = median_placement(o, core, alloc, &meta, |k| {
                let mut args = model.clone();
                args.pop();
                args.push(qemu::layout_arg(&elf, Path::new(board), qemu::layout_shift(k))?.0);
                let plugin_args = qemu::Plugin {
                    path: &plugin,
                    markers,
                    model: &args,
                };
                qemu::run(core, isa, &elf, &plugin_args, slot, timeout, None)
            })?;
        }
        let mut meta = meta.clone();
        if let (Some(l), Some(raw)) = (&layout, &raw_profile) {
            let text =
                std::fs::read_to_string(raw).map_err(|e| format!("{}: {e}", raw.display()))?;
            let [by_symbol, by_copy, unplaced, outside] = l.coverage(&text);
            let all = (by_symbol + by_copy + unplaced + outside).max(1) as f64;
            let pc = |n: u64| 100.0 * n as f64 / all;
            let cov = format!(
                "layout-coverage=symbol:{:.1}%,inlined:{:.1}%,unplaced:{:.1}%,other:{:.1}%",
                pc(by_symbol),
                pc(by_copy),
                pc(unplaced),
                pc(outside)
            );
            eprintln!("mcu-run: executed instructions by layout placement: {cov}");
            let (by_name, by_bytes, data) = l.data_bytes;
            meta.profile.push_str(&format!(
                " {cov} layout-data=symbol:{by_name}B,same-bytes:{by_bytes}B,of:{data}B"
            ));
        }
        if let Some(raw) = raw_profile.as_ref().filter(|_| profiling) {
            write_profile(
                raw,
                &elf,
                &o,
                &out.join(format!("{name}.{}.{alloc}.profile.txt", core.name())),
                &name,
            )?;
        } else if let Some(raw) = &raw_profile {
            let _ = std::fs::remove_file(raw);
        }
        match record::build(&o, core, alloc, &meta).map(|r| record::with_security(r, bytes)) {
            Ok(mut rec) => {
                rec.placement = Some(placement.into());
                // Which image, when a comparison needs it named (`all-backend`: the one image
                // for every backend the proofs need, set beside the board images).
                rec.image = f.get("image").map(String::from);
                let json = serde_json::to_string_pretty(&rec).map_err(|e| e.to_string())?;
                let file = out.join(format!("{name}.{}.{alloc}.json", core.name()));
                std::fs::write(&file, json + "\n")
                    .map_err(|e| format!("{}: {e}", file.display()))?;
                let tampered = qemu::tampered_check(&rec.result, o.tampered_result());
                println!(
                    "{:<40} {:<5} {:<14} {:<22} {:>12} {:>12} {:>8} {:>10} {:>10} {:>8}",
                    name,
                    core.name(),
                    rec.backend,
                    rec.result,
                    rec.instructions.map_or("-".into(), |v| v.to_string()),
                    rec.estimate
                        .as_ref()
                        .map_or("-".into(), |e| e.cycles.to_string()),
                    rec.estimate
                        .as_ref()
                        .map_or("-".into(), |e| format!("{:.2}", e.ms)),
                    rec.heap_peak.map_or("-".into(), |v| v.to_string()),
                    rec.stack_peak.map_or("-".into(), |v| v.to_string()),
                    tampered.cell(),
                );
                let ok_result = if expect == "accepted" {
                    rec.result == "accepted"
                } else {
                    rec.result.starts_with("rejected")
                };
                if !ok_result {
                    failures.push(format!(
                        "{name}: result {} but {expect} was expected",
                        rec.result
                    ));
                }
                if let qemu::TamperedCheck::Failed(t) = &tampered {
                    failures.push(format!(
                        "{name}: the firmware's tampered copy was {t}, not rejected"
                    ));
                }
                // The plugin always runs the core's model: a count without cycles is a fault.
                if rec.instructions.is_some() && rec.estimate.is_none() {
                    failures.push(format!(
                        "{name}: the plugin printed no cycle estimate (model fields missing)"
                    ));
                }
                if expect == "accepted" && !o.exit_ok {
                    failures.push(format!("{name}: QEMU exit status {:?}", o.exit_code));
                }
                // A rejection ends with the firmware's exit, not a panic or a timeout.
                if o.stdout.lines().any(|l| l.starts_with("pstk1 panic")) || o.exit_code.is_none() {
                    failures.push(format!(
                        "{name}: the firmware did not exit cleanly (exit status {:?})\n--- firmware output ---\n{}",
                        o.exit_code, o.stdout
                    ));
                }
            }
            Err(e) => {
                // An envelope that does not parse gets the firmware's own `error` line (no
                // header, so no run line): for a hostile file that is the rejection.
                let envelope = o
                    .stdout
                    .lines()
                    .find(|l| l.starts_with("pstk1 error what=proof-file"))
                    .map(|l| l.split_once("detail=").map_or("", |(_, d)| d).trim());
                match envelope {
                    Some(detail) => {
                        println!("{name:<40} {:<5} rejected:format ({detail})", core.name())
                    }
                    None => println!("{name:<40} {:<5} error: {e}", core.name()),
                }
                // Only the firmware's own envelope rejection counts as rejected: a halt (panic
                // line, no output, a timeout) is a failure whatever was expected (issue 12).
                if expect == "accepted" || envelope.is_none() {
                    failures.push(format!(
                        "{name}: {e}\n--- firmware output ---\n{}",
                        o.stdout
                    ));
                } else if o.exit_ok {
                    failures.push(format!("{name}: QEMU reported success on a bad proof"));
                }
            }
        }
    }
    if failures.is_empty() {
        println!(
            "all {} proof(s) as expected on {}",
            proofs.len(),
            core.name()
        );
        Ok(())
    } else {
        Err(failures.join("\n"))
    }
}

/// The plugin's profile of measured window `i` alone, beside its block profile `raw`
/// (icount-plugin: `FILE.regionN`).
fn region_file(raw: &Path, i: usize) -> PathBuf {
    PathBuf::from(format!("{}.region{i}", raw.display()))
}

/// Symbolizes the plugin's block profile of one run into a per-function report.
fn write_profile(
    raw: &Path,
    elf: &Path,
    outcome: &qemu::Outcome,
    dest: &Path,
    name: &str,
) -> Result<(), String> {
    let text = std::fs::read_to_string(raw).map_err(|e| format!("{}: {e}", raw.display()))?;
    let bytes = std::fs::read(elf).map_err(|e| format!("{}: {e}", elf.display()))?;
    let parsed = elf::Elf::parse(&bytes).map_err(|e| e.to_string())?;
    let rows = profile::by_function(&text, &parsed)?;
    let exact: u64 = outcome.regions.iter().map(|r| r.insns).sum();
    let header = format!(
        "{name}: instructions by function, all measured regions \
         (genuine iterations and the tampered one)"
    );
    let report = profile::render(&rows, exact, &header);
    std::fs::write(dest, &report).map_err(|e| format!("{}: {e}", dest.display()))?;
    let _ = std::fs::remove_file(raw);
    // The first genuine iteration alone (the plugin's `FILE.region0`): the verification the
    // record's instruction count describes, without the others and the tampered copy.
    for (i, region) in outcome.regions.iter().enumerate() {
        let file = region_file(raw, i);
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        let _ = std::fs::remove_file(&file);
        if i != 0 {
            continue;
        }
        let rows = profile::by_function(&text, &parsed)?;
        let header = format!("{name}: instructions by function, the first genuine iteration");
        let one = dest.with_extension("iteration1.txt");
        std::fs::write(&one, profile::render(&rows, region.insns, &header))
            .map_err(|e| format!("{}: {e}", one.display()))?;
        println!("first iteration's profile written to {}", one.display());
        // The model's XIP miss cycles of the same iteration by function, named as the
        // instruction profile names them: `*.iteration1.misses.txt`.
        if let Some(e) = &region.estimate {
            let rows = profile::misses_by_function(&text, &parsed)?;
            let header =
                format!("{name}: XIP miss cycles by function (model), the first genuine iteration");
            let misses = dest.with_extension("iteration1.misses.txt");
            std::fs::write(&misses, profile::render(&rows, e.xip_miss_cycles, &header))
                .map_err(|e| format!("{}: {e}", misses.display()))?;
        }
    }
    for line in report.lines().take(22) {
        println!("{line}");
    }
    println!("profile written to {}", dest.display());
    Ok(())
}

/// `mcu-run profile-parts`: one verification's profile in issue 28's parts (`parts.rs`).
fn cmd_profile_parts(args: &[String]) -> Result<(), String> {
    let f = Flags::parse_with_switches(
        args,
        &[
            "record",
            "trees",
            "queries",
            "compressions",
            "compressions-source",
            "committed-record",
            "level",
            "command",
            "out",
        ],
        &["unique-leaves"],
    )?;
    let [profile_path] = f.positional.as_slice() else {
        return Err("give one profile (run --profile's *.profile.iteration1.txt)".into());
    };
    let text = std::fs::read_to_string(profile_path).map_err(|e| format!("{profile_path}: {e}"))?;
    let rows = hot_set::parse_profile(&text)?;
    // `# block-profile total T (exact count of the same regions: E)`.
    let exact: u64 = text
        .lines()
        .find_map(|l| l.split_once("exact count of the same regions: "))
        .and_then(|(_, r)| r.trim_end_matches(')').parse().ok())
        .ok_or("the profile has no exact-count header line")?;
    let record_path = f.get("record").ok_or("--record RECORD.json is required")?;
    let record: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(record_path).map_err(|e| format!("{record_path}: {e}"))?,
    )
    .map_err(|e| format!("{record_path}: {e}"))?;
    let field = |k: &str| record.get(k).cloned().unwrap_or(serde_json::Value::Null);
    let backend = record["backend"].as_str().unwrap_or_default();
    let verifier = parts::Verifier::for_backend(backend)
        .ok_or_else(|| format!("{record_path}: no name patterns for backend {backend:?}"))?;
    let hash_impl = record["hash_impl"].as_str().unwrap_or_default();
    let hash = match hash_impl {
        h if h.starts_with("blake3") => parts::Hash::Blake3,
        h if h.starts_with("sha256") => parts::Hash::Sha256,
        h => return Err(format!("{record_path}: unknown hash_impl {h:?}")),
    };
    let trees = f
        .get("trees")
        .ok_or("--trees BYTES@DEPTH,.. is required")?
        .split(',')
        .map(parts::Tree::parse)
        .collect::<Result<Vec<_>, _>>()?;
    let queries = f.num("queries", 0)?;
    if queries == 0 || queries > 255 {
        return Err("--queries 1..255 is required".into());
    }
    let unique = f.get("unique-leaves").is_some();
    // The total: the engine's calls when the run charged it (measured), else `--compressions`.
    let engine = record
        .pointer("/estimate/sha256_engine")
        .filter(|v| !v.is_null());
    let (total, total_source, engine_cycles) = match (engine, f.get("compressions")) {
        (Some(e), _) => {
            let blocks = e["blocks"].as_u64().ok_or("engine record without blocks")?;
            let per = e["cycles_per_block"].as_u64().unwrap_or(0);
            (
                blocks,
                "measured: the SHA-256 engine's calls in the record (timing model offload count)"
                    .to_string(),
                blocks * per,
            )
        }
        (None, Some(_)) => (
            f.num("compressions", 0)?,
            f.get("compressions-source")
                .ok_or("--compressions needs --compressions-source")?
                .to_string(),
            0,
        ),
        (None, None) => {
            return Err("no engine count in the record: give --compressions N".into());
        }
    };
    // Under `--sha256-engine` the plugin neither counts nor times the offloaded compression,
    // but its blocks stay in the block profile: they are the engine's work (its cycles), not
    // instructions of the run.
    let (rows, offloaded) = parts::without_offloaded(rows, engine.is_some());
    let split = parts::HashSplit::new(total, &trees, queries, hash, unique)?;
    let classes = parts::by_class(verifier, &rows);
    let parts = parts::parts(&classes, &split, engine_cycles);
    let profile_total: u64 = rows.iter().map(|r| r.0).sum();
    let record_insns = record["instructions"].as_u64();
    print!("{}", parts::render(&parts));
    // The committed record of the same row (another run, maybe another commit), beside.
    let committed = match f.get("committed-record") {
        Some(p) => {
            let r: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(p).map_err(|e| format!("{p}: {e}"))?)
                    .map_err(|e| format!("{p}: {e}"))?;
            serde_json::json!({
                "file": p,
                "instructions": r["instructions"],
                "est_ms": r.pointer("/estimate/ms"),
                "proof_bytes": r["proof_bytes"],
                "commit": r["git_commit"],
            })
        }
        None => serde_json::Value::Null,
    };
    let doc = serde_json::json!({
        "schema": "picostark-profile-parts-1",
        "source": "emulator: QEMU instruction counts by function (block profile of the first genuine iteration, mcu-run run --profile) + RP2350 timing model v7 for the engine charge",
        "backend": backend,
        "field": field("field"),
        "extension": field("extension"),
        "hash": if engine.is_some() { "sha256-engine".to_string() } else { hash_impl.to_string() },
        "placement": field("placement"),
        "core": field("core"),
        "level": f.get("level"),
        "proof_bytes": field("proof_bytes"),
        "params": field("params"),
        "security_bits": field("security_bits"),
        "command": f.get("command"),
        "record_instructions": record_insns,
        "record_est_ms": record.pointer("/estimate/ms"),
        "record_commit": field("git_commit"),
        "committed_record": committed,
        "profile_instructions": profile_total,
        "profile_exact_instructions": exact,
        "profile_equals_record": record_insns == Some(profile_total),
        "profile_equals_exact": exact == profile_total,
        "offloaded_instructions_not_counted": offloaded,
        "parts": parts.iter().map(|(name, n, e, how)| serde_json::json!({
            "part": name,
            "instructions": n,
            "share": *n as f64 / profile_total.max(1) as f64,
            "engine_cycles": e,
            "how": how,
        })).collect::<Vec<_>>(),
        "hash_split": {
            "hash": match hash { parts::Hash::Blake3 => "blake3", parts::Hash::Sha256 => "sha256" },
            "compressions_total": total,
            "compressions_total_source": total_source,
            "leaf_compressions": split.leaf,
            "node_compressions": split.nodes,
            "transcript_compressions": split.transcript,
            "queries": queries,
            "trees": trees.iter().map(|t| format!("{}@{}", t.leaf_bytes, t.depth)).collect::<Vec<_>>(),
            "leaves_per_tree": if unique { "expected distinct positions of q uniform draws" } else { "q (every query hashes its leaf)" },
            "model": "leaf = leaves x the hash's compressions per leaf; nodes = expected distinct Merkle nodes above q uniform positions per tree; transcript = total - leaf - nodes. The profile cannot tell these apart (one compression function): the measured hashing instructions (and the engine's cycles) are split in these proportions.",
        },
        "classes": classes.iter().map(|(c, n, fns)| serde_json::json!({
            "class": c.name(),
            "instructions": n,
            "top_functions": fns.iter().take(5).map(|(n, s)| serde_json::json!([n, s])).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    });
    let json = serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())? + "\n";
    match f.get("out") {
        Some(out) => {
            std::fs::write(out, json).map_err(|e| format!("{out}: {e}"))?;
            println!("wrote {out}");
        }
        None => print!("{json}"),
    }
    Ok(())
}

fn cmd_uf2(args: &[String]) -> Result<(), String> {
    let f = Flags::parse(args, &["family"])?;
    let [elf_path, out] = f.positional.as_slice() else {
        return Err(usage().into());
    };
    let bytes = std::fs::read(elf_path).map_err(|e| format!("{elf_path}: {e}"))?;
    let e = elf::Elf::parse(&bytes).map_err(|e| e.to_string())?;
    let family = match f.get("family") {
        Some("rp2350-arm") => uf2::FAMILY_RP2350_ARM_S,
        Some("rp2350-riscv") => uf2::FAMILY_RP2350_RISCV,
        None if e.machine == elf::EM_ARM => uf2::FAMILY_RP2350_ARM_S,
        None if e.machine == elf::EM_RISCV => uf2::FAMILY_RP2350_RISCV,
        _ => return Err("--family rp2350-arm|rp2350-riscv".into()),
    };
    let expected_machine = if family == uf2::FAMILY_RP2350_ARM_S {
        elf::EM_ARM
    } else {
        elf::EM_RISCV
    };
    if e.machine != expected_machine {
        return Err(format!(
            "{elf_path} is for machine {}, not for the chosen family",
            e.machine
        ));
    }
    let segs = e.load_segments().map_err(|e| e.to_string())?;
    let data = uf2::write(&segs, family)?;
    std::fs::write(out, &data).map_err(|e| format!("{out}: {e}"))?;
    println!("{out}: {} blocks, family {family:#010x}", data.len() / 512);
    Ok(())
}

/// `check-image`: the RP2350 image checks of `image_check.rs`; fails when any check fails.
fn cmd_check_image(args: &[String]) -> Result<(), String> {
    let f = Flags::parse(args, &["family"])?;
    let (elf_path, uf2_path) = match f.positional.as_slice() {
        [elf] => (elf, None),
        [elf, uf2] => (elf, Some(uf2)),
        _ => return Err(usage().into()),
    };
    let family = f
        .get("family")
        .and_then(image_check::Family::parse)
        .ok_or("--family rp2350-arm|rp2350-riscv is required")?;
    let elf = std::fs::read(elf_path).map_err(|e| format!("{elf_path}: {e}"))?;
    let uf2 = match uf2_path {
        Some(p) => Some(std::fs::read(p).map_err(|e| format!("{p}: {e}"))?),
        None => None,
    };
    let report = image_check::check(&elf, uf2.as_deref(), family);
    let what = match uf2_path {
        Some(u) => format!("{elf_path} + {u}"),
        None => elf_path.clone(),
    };
    print!("{report}");
    if report.ok() {
        println!("check-image: {what}: ok");
        Ok(())
    } else {
        Err(format!(
            "check-image: {what}: {} check(s) failed",
            report.failures.len()
        ))
    }
}

/// Byte offset the `tamper` command flips: a third into the payload (the firmware's own
/// tampered copy flips the middle, so the two never cancel out).
pub fn tamper_offset(bytes: &[u8]) -> Result<usize, String> {
    let pf = ProofFile::parse(bytes).map_err(|e| e.to_string())?;
    if pf.payload.is_empty() {
        return Err("empty payload".into());
    }
    Ok(bytes.len() - pf.payload.len() + pf.payload.len() / 3)
}

/// The hostile variants `tamper --kind` writes, each of which every verifier must reject.
pub const TAMPER_KINDS: &[&str] = &[
    "flip",
    "truncate",
    "low-security",
    "wrong-backend",
    "zero-payload",
    "overlong",
    "trailing",
];

/// The payload with its first length field (Plonky3: the trace commitment count, a postcard
/// varint at offset 0; winterfell: the constraint count, a winter-utils vint after the proof
/// context) re-encoded one byte longer, same value: valid to a lenient decoder, refused by
/// ours (one encoding per proof, issue 29).
fn overlong_first_length(backend: BackendId, payload: &[u8]) -> Result<Vec<u8>, String> {
    let at = if backend.protocol() == "plonky3" {
        0
    } else {
        let meta = usize::from(u16::from_le_bytes([
            *payload.get(4).ok_or("short payload")?,
            *payload.get(5).ok_or("short payload")?,
        ]));
        let modulus = usize::from(*payload.get(6 + meta).ok_or("short payload")?);
        6 + meta + 1 + modulus + 10
    };
    let b = *payload.get(at).ok_or("short payload")?;
    let longer: [u8; 2] = if backend.protocol() == "plonky3" {
        if b >= 0x80 {
            return Err("the first length is not one byte".into());
        }
        [b | 0x80, 0x00]
    } else {
        if b & 1 == 0 {
            return Err("the first vint is not one byte".into());
        }
        (u16::from(b >> 1) << 2 | 2).to_le_bytes()
    };
    let mut out = payload[..at].to_vec();
    out.extend_from_slice(&longer);
    out.extend_from_slice(&payload[at + 1..]);
    Ok(out)
}

/// Applies one hostile change to a valid proof file.
pub fn tamper(bytes: &[u8], kind: &str) -> Result<Vec<u8>, String> {
    let pf = ProofFile::parse(bytes).map_err(|e| e.to_string())?;
    let payload_at = bytes.len() - pf.payload.len();
    let mut out = bytes.to_vec();
    match kind {
        "flip" => out[tamper_offset(bytes)?] ^= 0x10,
        // Cut inside the payload: the envelope's length no longer matches.
        "truncate" => out.truncate(payload_at + pf.payload.len() / 2),
        // 8 queries: far below the 95-bit policy, refused before any heavy work.
        "low-security" => out[14..16].copy_from_slice(&8u16.to_le_bytes()),
        // Another backend (over the same field where there is one), with the field byte
        // made to match, so the envelope parses and the other verifier gets the payload.
        "wrong-backend" => {
            let others = BackendId::ALL.iter().filter(|b| **b != pf.header.backend);
            let other = others
                .clone()
                .find(|b| b.field() == pf.header.backend.field())
                .or_else(|| others.clone().next())
                .ok_or("no other backend")?;
            out[6] = *other as u8;
            out[7] = other.field() as u8;
        }
        "zero-payload" => out[payload_at..].fill(0),
        // The envelope re-encoded around a changed payload (its length field follows).
        "overlong" | "trailing" => {
            let mut payload = if kind == "overlong" {
                overlong_first_length(pf.header.backend, pf.payload)?
            } else {
                pf.payload.to_vec()
            };
            if kind == "trailing" {
                payload.push(0);
            }
            let public: Vec<u64> = pf.public_inputs.iter().collect();
            out = picostark_core::proof_file::encode(&pf.header, &public, &payload);
        }
        _ => {
            return Err(format!(
                "unknown tamper kind {kind} (known: {})",
                TAMPER_KINDS.join(", ")
            ))
        }
    }
    Ok(out)
}

/// The sampled header sweep `tamper --kind header-sweep` writes, as `(field, offset, value)`
/// (little-endian, queries two bytes): values inside the envelope's own ranges, so they reach
/// the backend, and beyond what its verifier or a library it calls can take on a 32-bit MCU
/// (proof-of-work bits past one challenger draw, LDE domains past 2^31, more queries or
/// longer final polynomials than winterfell encodes). The host suite sweeps every value
/// (`prover-host/tests/mutation.rs`); these are the ones the MCU's 32-bit `usize` can change.
pub const HEADER_SWEEP: &[(&str, usize, u16)] = &[
    ("ext", 8, 8),
    ("log-n", 11, 24),
    ("log-n", 11, 32),
    ("log-blowup", 12, 8),
    ("log-blowup", 12, 12),
    ("pow", 13, 30),
    ("pow", 13, 31),
    ("pow", 13, 32),
    ("pow", 13, 40),
    ("queries", 14, 512),
    ("fold", 16, 4),
    ("final", 17, 16),
];

/// The [`HEADER_SWEEP`] variants of a proof file that differ from it, each named
/// `header-FIELD-VALUE`.
pub fn header_sweep(bytes: &[u8]) -> Result<Vec<(String, Vec<u8>)>, String> {
    ProofFile::parse(bytes).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    for &(field, at, value) in HEADER_SWEEP {
        let mut t = bytes.to_vec();
        let len = if field == "queries" { 2 } else { 1 };
        t[at..at + len].copy_from_slice(&value.to_le_bytes()[..len]);
        if t != bytes {
            out.push((format!("header-{field}-{value}"), t));
        }
    }
    Ok(out)
}

fn cmd_tamper(args: &[String]) -> Result<(), String> {
    let f = Flags::parse(args, &["kind"])?;
    let [input, out] = f.positional.as_slice() else {
        return Err(usage().into());
    };
    let kind = f.get("kind").unwrap_or("flip");
    let bytes = std::fs::read(input).map_err(|e| format!("{input}: {e}"))?;
    if kind == "header-sweep" {
        // OUT is a prefix: one OUT.header-FIELD-VALUE.tampered per swept value.
        for (name, tampered) in header_sweep(&bytes).map_err(|e| format!("{input}: {e}"))? {
            let path = format!("{out}.{name}.tampered");
            std::fs::write(&path, &tampered).map_err(|e| format!("{path}: {e}"))?;
            println!("{path}: {name}");
        }
        return Ok(());
    }
    let tampered = tamper(&bytes, kind).map_err(|e| format!("{input}: {e}"))?;
    std::fs::write(out, &tampered).map_err(|e| format!("{out}: {e}"))?;
    println!("{out}: {kind}");
    Ok(())
}

fn cmd_bringup(args: &[String]) -> Result<(), String> {
    let f = Flags::parse(args, &["backend", "bytes"])?;
    let [out] = f.positional.as_slice() else {
        return Err(usage().into());
    };
    let backend = BackendId::from_name(f.get("backend").unwrap_or("p3-babybear"))
        .ok_or("unknown backend name")?;
    let n = f.num("bytes", 4096)? as usize;
    std::fs::write(out, record::bringup_proof(backend, n)).map_err(|e| format!("{out}: {e}"))?;
    println!("{out}: bring-up proof (not a STARK) for {backend}");
    Ok(())
}

fn cmd_capture(args: &[String]) -> Result<(), String> {
    let f = Flags::parse(args, &["port", "out", "baud", "timeout", "runs"])?;
    if !f.positional.is_empty() {
        return Err(usage().into());
    }
    let port = f.get("port").ok_or("--port DEV is required")?;
    let baud = u32::try_from(f.num("baud", 115_200)?).map_err(|_| "--baud is too large")?;
    let capture = capture::Capture {
        port: port.to_string(),
        out: f.get("out").map(PathBuf::from),
        baud,
        timeout: f.num("timeout", 600)?,
        runs: usize::try_from(f.num("runs", 1)?).unwrap_or(usize::MAX),
    };
    capture::run(&capture)
}

/// The run whose estimate is the median over the [`qemu::LAYOUT_SAMPLES`] placements of the
/// code the board layout cannot place (`first` is placement 0, `run(k)` runs placement `k`);
/// prints the spread.
fn median_placement(
    first: qemu::Outcome,
    core: Core,
    alloc: &str,
    meta: &record::BuildMeta,
    mut run: impl FnMut(u32) -> Result<qemu::Outcome, String>,
) -> Result<qemu::Outcome, String> {
    let cycles = |o: &qemu::Outcome| -> Result<u64, String> {
        record::build(o, core, alloc, meta)?
            .estimate
            .map(|e| e.cycles)
            .ok_or_else(|| "--layout-elf: the run has no estimate".to_string())
    };
    let mut all = vec![(cycles(&first)?, first)];
    for k in 1..qemu::LAYOUT_SAMPLES {
        let o = run(k)?;
        all.push((cycles(&o)?, o));
    }
    all.sort_by_key(|(c, _)| *c);
    let spread: Vec<String> = all.iter().map(|(c, _)| c.to_string()).collect();
    eprintln!(
        "mcu-run: estimated cycles over {} placements of the code the board layout cannot place: {}",
        all.len(),
        spread.join(" ")
    );
    Ok(all.swap_remove(all.len() / 2).1)
}

/// Whether a build's features link its code and read-only data to SRAM (`code-in-ram`, or
/// `code-in-ram-membership`, the same link with the membership AIR kept).
fn code_in_sram(features: &[String]) -> bool {
    features
        .iter()
        .any(|f| f == "code-in-ram" || f == "code-in-ram-membership")
}

/// The record's code placement: `all-sram` for both `code-in-ram` builds (a
/// `code-in-ram-membership` run was recorded `xip` before), else by the placement feature.
fn placement(features: &[String]) -> &'static str {
    let placed = |f: &str| features.iter().any(|x| x == f);
    match () {
        _ if code_in_sram(features) => "all-sram",
        _ if placed("place-hot-sram") => "hot-sram",
        _ if placed("place-xip-ordered") => "xip-ordered",
        _ => "xip",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placement_names_both_code_in_ram_builds_all_sram() {
        let f = |list: &[&str]| placement(&list.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(
            f(&["p3-goldilocks", "code-in-ram-membership", "lean-only"]),
            "all-sram"
        );
        assert_eq!(f(&["wf-goldilocks", "code-in-ram"]), "all-sram");
        assert_eq!(f(&["p3-goldilocks", "place-hot-sram"]), "hot-sram");
        assert_eq!(f(&["p3-goldilocks"]), "xip");
    }

    #[test]
    fn both_code_in_ram_features_place_code_in_sram() {
        let f =
            |list: &[&str]| code_in_sram(&list.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert!(f(&["p3-babybear", "code-in-ram", "lean-only"]));
        assert!(f(&["p3-babybear", "code-in-ram-membership", "lean-only"]));
        assert!(!f(&["p3-babybear", "lean-only"]));
        assert!(!f(&["code-in-ram-x"]));
    }

    #[test]
    fn overlong_re_encodes_the_first_length_one_byte_longer() {
        let p3 = [0x01, 0xaa, 0xbb];
        assert_eq!(
            overlong_first_length(BackendId::P3BabyBear, &p3).unwrap(),
            [0x81, 0x00, 0xaa, 0xbb]
        );
        assert!(overlong_first_length(BackendId::P3M31, &[0x81, 0x01]).is_err());
        // winterfell: 4 trace bytes, meta length 0, modulus of 1 byte, 10 option bytes, then
        // the constraint count 2 as a one-byte vint (2 << 1 | 1), then more.
        let mut wf = vec![2, 0, 0, 3, 0, 0, 1, 0xff];
        wf.extend_from_slice(&[0; 10]);
        wf.extend_from_slice(&[0x05, 0xcc]);
        let long = overlong_first_length(BackendId::WfGoldilocks, &wf).unwrap();
        assert_eq!(long[..18], wf[..18]);
        // Two bytes, length tag `..10` (two bytes), value 2: 2 << 2 | 2 = 0x0a.
        assert_eq!(long[18..], [0x0a, 0x00, 0xcc]);
        // A file with it parses, with the payload one byte longer.
        let file = record::bringup_proof(BackendId::P3BabyBear, 300);
        let pf = ProofFile::parse(&file).unwrap();
        let mut real = pf.payload.to_vec();
        real[0] = 0x01;
        let public: Vec<u64> = pf.public_inputs.iter().collect();
        let file = picostark_core::proof_file::encode(&pf.header, &public, &real);
        let t = tamper(&file, "overlong").unwrap();
        assert_eq!(ProofFile::parse(&t).unwrap().payload.len(), real.len() + 1);
    }

    #[test]
    fn tamper_offset_is_inside_the_payload_and_not_the_middle() {
        let bytes = record::bringup_proof(BackendId::WfGoldilocks, 300);
        let pf = ProofFile::parse(&bytes).unwrap();
        let start = bytes.len() - pf.payload.len();
        let at = tamper_offset(&bytes).unwrap();
        assert!(at >= start && at < bytes.len());
        assert_ne!(at, start + pf.payload.len() / 2);
        assert!(tamper_offset(b"PSTK").is_err());
    }

    #[test]
    fn every_tamper_kind_changes_the_file_and_unknown_kinds_are_errors() {
        let bytes = record::bringup_proof(BackendId::WfGoldilocks, 300);
        // `overlong` needs a real first length field (tested below); the payload is random.
        for kind in TAMPER_KINDS.iter().filter(|k| **k != "overlong") {
            let t = tamper(&bytes, kind).unwrap();
            assert_ne!(t, bytes, "{kind}");
        }
        let low = tamper(&bytes, "low-security").unwrap();
        let h = ProofFile::parse(&low).unwrap().header;
        assert!(picostark_core::Policy::default()
            .check(&h, picostark_airs::shape_of(&h).unwrap())
            .is_err());
        let wrong = tamper(&bytes, "wrong-backend").unwrap();
        assert_eq!(
            ProofFile::parse(&wrong).unwrap().header.backend,
            BackendId::P3Goldilocks
        );
        assert!(tamper(&bytes, "nope").is_err());
    }

    #[test]
    fn header_sweep_values_parse_and_differ_from_the_proof() {
        let bytes = record::bringup_proof(BackendId::WfGoldilocks, 300);
        let swept = header_sweep(&bytes).unwrap();
        assert!(!swept.is_empty() && swept.len() <= HEADER_SWEEP.len());
        for (name, t) in &swept {
            assert_ne!(t, &bytes, "{name}");
            assert_eq!(t.len(), bytes.len(), "{name}");
            // Inside the envelope's ranges: the backend, not the parser, must refuse it.
            assert!(ProofFile::parse(t).is_ok(), "{name}");
        }
        assert!(header_sweep(b"PSTK").is_err());
    }

    #[test]
    fn flags_parse() {
        let args: Vec<String> = ["--core", "m33", "a.proof", "--repeat", "2", "b.proof"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let f = Flags::parse(&args, &["core", "repeat"]).unwrap();
        assert_eq!(f.get("core"), Some("m33"));
        assert_eq!(f.num("repeat", 1), Ok(2));
        assert_eq!(f.positional, vec!["a.proof", "b.proof"]);
        assert!(Flags::parse(&["--nope".to_string()], &[]).is_err());
        assert!(Flags::parse(&["--core".to_string()], &["core"]).is_err());
    }

    #[test]
    fn capture_flags_are_checked_before_any_port_or_file_is_opened() {
        let capture = |args: &[&str]| {
            let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
            cmd_capture(&args).unwrap_err()
        };
        assert_eq!(capture(&["--out", "x.log"]), "--port DEV is required");
        let port = "/dev/pstk-no-such-port";
        assert!(capture(&["--port", port, "--speed", "9600"]).contains("unknown option --speed"));
        assert!(capture(&["--port", port, "--baud", "fast"]).contains("not a number"));
        assert!(capture(&["--port", port, "--baud", "4294967296"]).contains("too large"));
        assert!(capture(&["--port", port, "--timeout", "-1"]).contains("not a number"));
        assert!(capture(&["--port", port, "stray"]).starts_with("usage:"));
    }
}

//! Building the firmware and the plugin, and running one proof under QEMU.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use picostark_core::record::{parse_log, DeviceLog, InstructionClasses};

use crate::dwarf;
use crate::elf::{Elf, Segment};
use crate::paths::repo_root;

/// The emulated core.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Core {
    M33,
    Rv32,
}

impl Core {
    pub fn name(self) -> &'static str {
        match self {
            Core::M33 => "m33",
            Core::Rv32 => "rv32",
        }
    }

    pub fn target(self) -> &'static str {
        match self {
            Core::M33 => "thumbv8m.main-none-eabihf",
            Core::Rv32 => "riscv32imac-unknown-none-elf",
        }
    }

    pub fn board(self) -> &'static str {
        match self {
            Core::M33 => "qemu-m33",
            Core::Rv32 => "qemu-rv32",
        }
    }

    /// Must match `SLOT_ADDR` in the firmware's board module.
    fn slot_addr(self) -> u32 {
        match self {
            Core::M33 => 0x3820_0000,
            Core::Rv32 => 0x8080_0000,
        }
    }

    fn qemu_args(self, isa: Isa, elf: &Path) -> (&'static str, Vec<String>) {
        let common = [
            "-nographic",
            "-semihosting-config",
            "enable=on,target=native",
            "-kernel",
        ];
        let (bin, machine): (&str, &[&str]) = match self {
            Core::M33 => ("qemu-system-arm", &["-M", "mps2-an505"]),
            Core::Rv32 => (
                "qemu-system-riscv32",
                &["-M", "virt", "-bios", "none", "-cpu", isa.qemu_cpu()],
            ),
        };
        let mut args: Vec<String> = machine.iter().map(|s| s.to_string()).collect();
        args.extend(common.iter().map(|s| s.to_string()));
        args.push(elf.display().to_string());
        (bin, args)
    }

    /// The emulator's version line (`QEMU emulator version 7.2.x ...`), for records.
    pub fn qemu_version(self) -> Result<String, String> {
        let (bin, _) = self.qemu_args(Isa::Rp2350, Path::new(""));
        let out = Command::new(bin)
            .arg("--version")
            .output()
            .map_err(|e| format!("{bin}: cannot start: {e}"))?;
        let text = String::from_utf8_lossy(&out.stdout);
        let line = text.lines().next().unwrap_or("").trim();
        Ok(format!("{bin}: {line}"))
    }

    fn isa(self) -> &'static str {
        match self {
            Core::M33 => "arm",
            Core::Rv32 => "riscv",
        }
    }
}

/// The RV32 instruction set a firmware is built for and QEMU emulates (`mcu-run run --isa`).
/// The M33 has one ISA; for it this only names the build.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Isa {
    /// What the RP2350's Hazard3 cores run: RV32IMAC + Zba, Zbb, Zbs, Zbkb. The rustflags
    /// live in `verifier-mcu/firmware/.cargo/config.toml` (one source of truth).
    Rp2350,
    /// Plain RV32IMAC, for other chips (and the figures before issue 14).
    Rv32imac,
}

impl Isa {
    pub fn name(self) -> &'static str {
        match self {
            Isa::Rp2350 => "rp2350",
            Isa::Rv32imac => "rv32imac",
        }
    }

    /// The target features the firmware's cargo config adds (kept equal to the config file
    /// by a test), for the records.
    pub fn target_features(self) -> &'static str {
        match self {
            Isa::Rp2350 => "+zba,+zbb,+zbs,+zbkb",
            Isa::Rv32imac => "none",
        }
    }

    /// QEMU's `-cpu` for the RV32 `virt` machine. QEMU 7.2's `rv32` enables Zba, Zbb, Zbc
    /// and Zbs by default, so both variants say every extension explicitly: the plain run
    /// traps on a stray bit-manipulation instruction, the RP2350 run on Zbc (not on the chip).
    pub(crate) fn qemu_cpu(self) -> &'static str {
        match self {
            Isa::Rp2350 => "rv32,zba=true,zbb=true,zbs=true,zbkb=true,zbc=false",
            Isa::Rv32imac => "rv32,zba=false,zbb=false,zbs=false,zbkb=false,zbc=false",
        }
    }
}

fn run_cmd(cmd: &mut Command, what: &str) -> Result<(), String> {
    let status = cmd
        .status()
        .map_err(|e| format!("{what}: cannot start: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{what} failed ({status})"))
    }
}

/// Builds (or lets cargo reuse) the QEMU firmware for `core`, with the proof slot or with
/// `embed` built in, and returns a copy of the ELF named after its configuration.
pub fn build_firmware(
    core: Core,
    isa: Isa,
    alloc: &str,
    backends: &[String],
    heap: u64,
    iterations: u64,
    embed: Option<&Path>,
) -> Result<PathBuf, String> {
    let fw = repo_root().join("verifier-mcu/firmware");
    let mut features = vec!["qemu".to_string()];
    features.extend(backends.iter().cloned());
    if alloc != "tlsf" {
        features.push(format!("alloc-{alloc}"));
    }
    eprintln!(
        "mcu-run: building firmware for {}{} ({})",
        core.name(),
        if core == Core::Rv32 {
            format!(" --isa {}", isa.name())
        } else {
            String::new()
        },
        features.join(",")
    );
    let mut cmd = Command::new("cargo");
    cmd.current_dir(&fw)
        .args([
            "build",
            "--release",
            "--target",
            core.target(),
            "--features",
        ])
        .arg(features.join(","))
        .env_remove("PSTK_PROOF")
        .env("PSTK_HEAP_SIZE", heap.to_string())
        .env("PSTK_ITERATIONS", iterations.to_string());
    // One target dir per core: cargo locks a target dir for a whole build, and CI builds the
    // two cores' images at the same time (verifier-mcu/ci.sh). The variants of a core (the
    // cargo config's flags or others in CARGO_ENCODED_RUSTFLAGS) share it: cargo names each
    // artefact after the flags it was compiled with, so they sit side by side without
    // rebuilding each other, and the host-side crates (proc-macros, build scripts: no target
    // flags) compile once per core instead of once per variant.
    match (core, isa) {
        // The published window is built as the published runs were (no flags: an empty
        // CARGO_ENCODED_RUSTFLAGS replaces the config's); every other plain-RV32IMAC build
        // keeps the config's miscompilation workaround (firmware/.cargo/config.toml).
        (Core::Rv32, Isa::Rv32imac) if backends.iter().any(|b| b == "stock-wf-window") => {
            cmd.env("CARGO_ENCODED_RUSTFLAGS", "");
        }
        (Core::Rv32, Isa::Rv32imac) => {
            cmd.env(
                "CARGO_ENCODED_RUSTFLAGS",
                "-Cllvm-args=-disable-constant-hoisting",
            );
        }
        (Core::Rv32, Isa::Rp2350) => {
            cmd.env_remove("CARGO_ENCODED_RUSTFLAGS")
                .env_remove("RUSTFLAGS");
        }
        // The published runs' build (`stock-wf-window`) tuned for the core.
        (Core::M33, _) if backends.iter().any(|b| b == "stock-wf-window") => {
            cmd.env("CARGO_ENCODED_RUSTFLAGS", "-Ctarget-cpu=cortex-m33");
        }
        (Core::M33, _) => {}
    }
    let target_dir = match core {
        Core::M33 => fw.join("target"),
        Core::Rv32 => fw.join("target").join("rv32"),
    };
    cmd.arg("--target-dir").arg(&target_dir);
    let mut tag = String::from("slot");
    if let Some(p) = embed {
        let abs = p
            .canonicalize()
            .map_err(|e| format!("{}: {e}", p.display()))?;
        cmd.env("PSTK_PROOF", &abs);
        tag = p
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
    }
    run_cmd(&mut cmd, "firmware build")?;
    let built = target_dir
        .join(core.target())
        .join("release/picostark-verifier-fw");
    let dir = repo_root().join("verifier-mcu/target/mcu-run");
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let mut b = backends.to_vec();
    b.sort();
    let copy = dir.join(format!(
        "fw-{}{}-{alloc}-{}-h{heap}-i{iterations}-{tag}.elf",
        core.name(),
        if core == Core::Rv32 { isa.name() } else { "" },
        b.join("+")
    ));
    std::fs::copy(&built, &copy).map_err(|e| format!("{}: {e}", built.display()))?;
    Ok(copy)
}

/// Builds (or reuses) the instruction-count plugin.
pub fn build_plugin() -> Result<PathBuf, String> {
    let dir = repo_root().join("verifier-mcu/icount-plugin");
    run_cmd(
        Command::new("cargo")
            .current_dir(&dir)
            .args(["build", "--release", "--quiet"]),
        "plugin build",
    )?;
    Ok(dir.join("target/release/libpicostark_icount_plugin.so"))
}

/// The addresses of `pstk_measure_start` and `pstk_measure_end`.
pub fn markers(elf: &[u8]) -> Result<(u32, u32), String> {
    let e = Elf::parse(elf).map_err(|e| e.to_string())?;
    let get = |n: &str| -> Result<u32, String> {
        e.symbol(n)
            .map_err(|e| e.to_string())?
            .ok_or_else(|| format!("the firmware has no symbol {n}"))
    };
    let (s, t) = (get("pstk_measure_start")?, get("pstk_measure_end")?);
    if s & !1 == t & !1 {
        return Err("the marker functions share one address (merged by the optimiser)".into());
    }
    Ok((s, t))
}

/// One region the plugin counted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Region {
    pub insns: u64,
    pub classes: InstructionClasses,
    /// The plugin's timing model for the same region (absent from a plugin without one).
    pub estimate: Option<RegionEstimate>,
}

/// The timing model's figures for one region, as the plugin prints them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegionEstimate {
    pub cycles: u64,
    /// Net: the M33's pairing savings can outweigh the stalls of a short window.
    pub stall: i64,
    pub xip_accesses: u64,
    pub xip_misses: u64,
    pub xip_miss_cycles: u64,
    pub model: String,
    pub model_version: u32,
    /// Calls of the offloaded function (`offload=`, the SHA-256 engine), when charged.
    pub offload_calls: Option<u64>,
}

/// Parses the plugin's output lines: `icount region=R insns=N mul= load_store= branch=
/// other=`, then with a timing model `cycles= stall= xip_accesses= xip_misses=
/// xip_miss_cycles= model= model_version=` (all of them, or the line has no estimate).
pub fn parse_regions(text: &str) -> Vec<Region> {
    text.lines()
        .filter_map(|l| {
            let mut words = l.split_ascii_whitespace();
            if words.next()? != "icount" {
                return None;
            }
            let word = |k: &str| -> Option<&str> {
                l.split_ascii_whitespace()
                    .find_map(|w| w.strip_prefix(k)?.strip_prefix('='))
            };
            let get = |k: &str| -> Option<u64> { word(k)?.parse().ok() };
            let estimate = (|| {
                Some(RegionEstimate {
                    cycles: get("cycles")?,
                    stall: word("stall")?.parse().ok()?,
                    xip_accesses: get("xip_accesses")?,
                    xip_misses: get("xip_misses")?,
                    xip_miss_cycles: get("xip_miss_cycles")?,
                    model: word("model")?.to_string(),
                    model_version: word("model_version")?.parse().ok()?,
                    offload_calls: get("offload_calls"),
                })
            })();
            Some(Region {
                insns: get("insns")?,
                classes: InstructionClasses {
                    mul: get("mul")?,
                    load_store: get("load_store")?,
                    branch: get("branch")?,
                    other: get("other")?,
                },
                estimate,
            })
        })
        .collect()
}

/// What the firmware's own tampered copy says about a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TamperedCheck {
    /// The genuine proof was accepted and its flipped copy rejected.
    Rejected,
    /// The genuine proof was rejected: a flipped copy of it proves nothing (the flip may even
    /// undo the damage), so the copy's result is not looked at.
    NotApplicable,
    /// The genuine proof was accepted but its copy was not rejected (its result, or
    /// `missing`).
    Failed(String),
}

impl TamperedCheck {
    /// The runner's table cell.
    pub fn cell(&self) -> &str {
        match self {
            TamperedCheck::Rejected => "rejected",
            TamperedCheck::NotApplicable => "n/a",
            TamperedCheck::Failed(r) => r,
        }
    }
}

/// Judges the tampered copy's `result` against the genuine proof's. Whatever the input's
/// damage, only an accepted input's copy must be rejected; an older firmware that still
/// verified a copy of a rejected input is judged the same way.
pub fn tampered_check(genuine: &str, tampered: Option<&str>) -> TamperedCheck {
    if genuine != "accepted" {
        return TamperedCheck::NotApplicable;
    }
    match tampered {
        Some(t) if t.starts_with("rejected") => TamperedCheck::Rejected,
        other => TamperedCheck::Failed(other.unwrap_or("missing").to_string()),
    }
}

/// Everything one QEMU run produced.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub stdout: String,
    pub log: Option<DeviceLog>,
    pub regions: Vec<Region>,
    pub exit_ok: bool,
    pub exit_code: Option<i32>,
}

impl Outcome {
    /// Result of the firmware's own tampered copy (its last iteration).
    pub fn tampered_result(&self) -> Option<&str> {
        let log = self.log.as_ref()?;
        let n = log.run.as_ref()?.get_u64("iterations")? as usize;
        if log.iterations.len() != n || n < 2 {
            return None;
        }
        Some(log.iterations[n - 1].1.as_str())
    }

    /// Checks that another run of the same firmware and proof measured exactly the same.
    pub fn same_measurements(&self, other: &Outcome) -> Result<(), String> {
        if self.regions != other.regions {
            return Err(format!(
                "instruction counts {:?} vs {:?}",
                self.regions.iter().map(|r| r.insns).collect::<Vec<_>>(),
                other.regions.iter().map(|r| r.insns).collect::<Vec<_>>()
            ));
        }
        let mem = |o: &Outcome| o.log.as_ref().and_then(|l| l.mem.clone());
        if mem(self) != mem(other) {
            return Err("memory figures differ".into());
        }
        let iters = |o: &Outcome| o.log.as_ref().map(|l| l.iterations.clone());
        if iters(self) != iters(other) {
            return Err("iteration results differ".into());
        }
        Ok(())
    }
}

/// The symbol a `code-in-ram` image defines at the start of what it copies to SRAM.
const RAM_CODE_START: &str = "__pstk_ram_code_start";

/// The plugin's timing-model arguments for `core` running `elf` (see `verifier-mcu/TIMING.md`):
/// `model=m33|hazard3`, one `flash=0xLO-0xHI` (half-open) per range that sits in flash
/// behind the XIP cache on the RP2350, and `xip_miss=N` when `xip_miss` overrides the
/// model's miss cost.
///
/// The QEMU images are mapped onto the RP2350's layout by address ranges rather than by
/// moving them: what the board fetches through the XIP cache is the ELF's non-writable
/// loadable segments (vector table, code, read-only data), which on the M33 image are at
/// 0x10000000 like the RP2350's flash and on the RV32 `virt` image are in RAM at
/// 0x80000000; plus the proof slot (`slot_len` bytes after its 8-byte head), because the
/// board firmware embeds the proof as a `static` in flash, so a verifier that reads the
/// proof in place reads it through the cache there. Everything else (`.data`, `.bss`, heap,
/// stack) is SRAM, as on the board.
///
/// A `code-in-ram` image (it defines `__pstk_ram_code_start`) copies all of `.rodata`, the
/// embedded proof with it, into SRAM at reset (`firmware/link/code-in-ram-*.x`), so its
/// slot stands for SRAM: only what stays in flash (the boot path) goes through the cache.
pub fn model_args(
    core: Core,
    elf: &[u8],
    slot_len: Option<usize>,
    xip_miss: Option<u64>,
) -> Result<Vec<String>, String> {
    let e = Elf::parse(elf).map_err(|e| e.to_string())?;
    let mut flash = e.read_only_ranges().map_err(|e| e.to_string())?;
    if flash.is_empty() {
        return Err("the firmware ELF has no read-only loadable segment".into());
    }
    let proof_in_flash = e
        .symbol(RAM_CODE_START)
        .map_err(|e| e.to_string())?
        .is_none();
    if let (Some(len), true) = (slot_len, proof_in_flash) {
        let end = u32::try_from(len + 8)
            .ok()
            .and_then(|n| core.slot_addr().checked_add(n))
            .ok_or("proof too large for the slot")?;
        flash.push((core.slot_addr(), end));
    }
    let model = match core {
        Core::M33 => "m33",
        Core::Rv32 => "hazard3",
    };
    let mut args = vec![format!("model={model}")];
    args.extend(
        flash
            .iter()
            .map(|(lo, hi)| format!("flash={lo:#010x}-{hi:#010x}")),
    );
    if let Some(n) = xip_miss {
        args.push(format!("xip_miss={n}"));
    }
    Ok(args)
}

/// A symbol's name as two builds of the same code share it: demangled without the legacy
/// mangling's hash and the v0 mangling's crate disambiguators (`rustc-demangle`'s alternate
/// form), written the same way for both schemes (a toolchain's standard library may use the
/// other scheme than the code around it: rustc 1.95.0's is v0, 1.94.1's legacy). Generic
/// arguments stay, where both schemes print them (`drop_in_place<T>`); [`loose_key`] drops
/// them. Not a Rust symbol (`memcpy`, `__aeabi_memcpy`): the name itself.
fn layout_key(name: &str) -> String {
    let Ok(d) = rustc_demangle::try_demangle(name) else {
        return name.to_string();
    };
    let mut s = format!("{d:#}");
    // An LLVM suffix (`.123`) tells apart local copies within one build only.
    if let Some(i) = s
        .rfind('.')
        .filter(|&i| s.len() > i + 1 && s[i + 1..].bytes().all(|b| b.is_ascii_digit()))
    {
        s.truncate(i);
    }
    // Legacy names an impl by its module and `<impl Trait for Type>`, v0 as `<Type as Trait>`;
    // an inherent impl `<impl Type>` (legacy) or `<Type>` (v0): both become `Type`.
    if let Some(i) = s.find("::<impl ") {
        let body = i + "::<impl ".len();
        if let Some(end) = closing_angle(&s, body) {
            let inner = &s[body..end];
            let head = match top_level_split(inner, " for ") {
                Some((tr, ty)) => format!("<{ty} as {tr}>"),
                None => inner.to_string(),
            };
            s = format!("{head}{}", &s[end + 1..]);
        }
    }
    if s.starts_with('<') {
        if let Some(end) = closing_angle(&s, 1) {
            if top_level_split(&s[1..end], " as ").is_none() {
                s = format!("{}{}", &s[1..end], &s[end + 1..]);
            }
        }
    }
    s.replace(", ", ",")
        .replace("::<", "<")
        .split("{closure#")
        .enumerate()
        .map(|(k, part)| match (k, part.find('}')) {
            (0, _) | (_, None) => part.to_string(),
            (_, Some(j)) => format!("{{{{closure}}}}{}", &part[j + 1..]),
        })
        .collect()
}

/// A [`layout_key`] without generic arguments: where the two schemes print them
/// differently (legacy names an impl by its declared parameters, `RawVecInner<A>`, v0 by
/// the instance's, `RawVecInner<_>`; legacy omits a generic function's arguments).
fn loose_key(key: &str) -> String {
    let mut out = String::with_capacity(key.len());
    let mut skip = 0usize;
    for c in key.chars() {
        if skip > 0 {
            match c {
                '<' => skip += 1,
                '>' => skip -= 1,
                _ => {}
            }
            continue;
        }
        // `<` right after a name opens its generic arguments; elsewhere (at the start,
        // after `(`, `&`, `,`) it opens a qualified path, which stays.
        if c == '<' && out.ends_with(|p: char| p.is_alphanumeric() || p == '_' || p == '}') {
            skip = 1;
            continue;
        }
        out.push(c);
    }
    out
}

/// Index of the `>` closing the `<` just before `from`.
fn closing_angle(s: &str, from: usize) -> Option<usize> {
    let mut depth = 1usize;
    for (i, c) in s[from..].char_indices() {
        match c {
            '<' => depth += 1,
            '>' => {
                depth -= 1;
                if depth == 0 {
                    return Some(from + i);
                }
            }
            _ => {}
        }
    }
    None
}

/// `s` split at the first `sep` outside angle brackets.
fn top_level_split<'a>(s: &'a str, sep: &str) -> Option<(&'a str, &'a str)> {
    let mut depth = 0i32;
    for (i, c) in s.char_indices() {
        match c {
            '<' => depth += 1,
            '>' => depth -= 1,
            _ if depth == 0 && s[i..].starts_with(sep) => {
                return Some((&s[..i], &s[i + sep.len()..]))
            }
            _ => {}
        }
    }
    None
}

/// The timing model's address map (plugin `map=`, `QLO QHI BLO NAME` per line) from the
/// QEMU image onto a board image of the same code: each function of `qemu_elf` moves to the
/// address of the function of the same name (hashes and crate disambiguators aside) in
/// `board_elf`; several of one name (generic instances) pair by closest size. A function the
/// board image has no symbol for but inlines (its DWARF names the inlined copies, ours names
/// the function) is spread line by line over one inlined copy ([`dwarf::choose_copy`],
/// [`dwarf::place_proportionally`]). The QEMU image's read-only data go where the board
/// image has them ([`place_data`]): a data object at the board object of the same name,
/// other bytes at the one place in the board's read-only data that holds the same bytes.
/// The rest of the QEMU image's flash (functions the board image does not have, data it
/// does not hold) moves up by [`UNMATCHED_OFFSET`]: the same cache sets as before, but
/// never the same lines as the board code placed there.
pub fn layout_map(qemu_elf: &[u8], board_elf: &[u8], shift: u32) -> Result<Layout, String> {
    let functions = |bytes: &[u8]| {
        Elf::parse(bytes)
            .and_then(|e| e.functions())
            .map_err(|e| e.to_string())
    };
    let q = Elf::parse(qemu_elf).map_err(|e| e.to_string())?;
    let flash = q.read_only_ranges().map_err(|e| e.to_string())?;
    let calls = q
        .load_segments()
        .map_err(|e| e.to_string())?
        .iter()
        .flat_map(|s| dwarf::direct_calls(&s.data, s.paddr, q.machine == crate::elf::EM_RISCV))
        .collect();
    let inline = InlineInfo {
        qemu_names: dwarf::read(qemu_elf)?.functions,
        calls,
        board: dwarf::read(board_elf)?.inlined,
    };
    let b = Elf::parse(board_elf).map_err(|e| e.to_string())?;
    let data = DataInfo {
        qemu_objects: q.objects().map_err(|e| e.to_string())?,
        board_objects: b.objects().map_err(|e| e.to_string())?,
        qemu_labels: q.data_labels().map_err(|e| e.to_string())?,
        qemu_bytes: q.read_only_data().map_err(|e| e.to_string())?,
        board_bytes: b.read_only_data().map_err(|e| e.to_string())?,
    };
    Ok(map_functions(
        &functions(qemu_elf)?,
        &functions(board_elf)?,
        &flash,
        &inline,
        &data,
        shift,
    ))
}

/// What the two images' read-only data hold, for placing ours at the board's.
#[derive(Default)]
pub struct DataInfo {
    /// Data object symbols `(address, size, name)` of each image.
    pub qemu_objects: Vec<(u32, u32, String)>,
    pub board_objects: Vec<(u32, u32, String)>,
    /// Where our data pieces start ([`Elf::data_labels`]): a run of equal bytes ends there.
    pub qemu_labels: Vec<u32>,
    /// Each image's read-only data segments ([`Elf::read_only_data`]).
    pub qemu_bytes: Vec<Segment>,
    pub board_bytes: Vec<Segment>,
}

/// What the two images' DWARF says, for placing what the board image inlines.
#[derive(Default)]
pub struct InlineInfo {
    /// Our out-of-line functions' DWARF names, by address.
    pub qemu_names: std::collections::HashMap<u32, String>,
    /// Our direct calls, `(site, target)`: who calls a function, to prefer the board copy
    /// inlined into the same caller.
    pub calls: Vec<(u32, u32)>,
    /// The board image's inlined copies.
    pub board: Vec<dwarf::InlinedCopy>,
}

/// How [`layout_map`] placed a range of the QEMU image.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// At the board function of the same symbol.
    Symbol,
    /// Spread over an inlined copy in the board image (DWARF).
    Inlined,
    /// Read-only data at the board object of the same symbol.
    DataSymbol,
    /// Read-only data at the board's copy of the same bytes.
    DataBytes,
    /// Moved by [`UNMATCHED_OFFSET`] plus the sample's shift.
    Unplaced,
}

/// The map [`layout_map`] builds: `(qemu lo, qemu hi, board lo, how, name)`, sorted, disjoint.
pub struct Layout {
    pub pieces: Vec<(u32, u32, u32, Placement, String)>,
    /// Bytes of the QEMU image's functions placed by symbol, by inlined copy, and in all.
    pub function_bytes: (u64, u64, u64),
    /// Bytes of the QEMU image's read-only data placed by symbol, by content, and in all.
    pub data_bytes: (u64, u64, u64),
}

const UNPLACED_LABEL: &str = "(not placed: moved by UNMATCHED_OFFSET)";

impl Layout {
    /// The plugin's `map=` file.
    pub fn text(&self) -> String {
        let mut text =
            String::from("# QEMU image function -> board image address (mcu-run --layout-elf)\n");
        for (lo, hi, ba, how, name) in &self.pieces {
            let name = match how {
                Placement::Unplaced => UNPLACED_LABEL.to_string(),
                Placement::Inlined => format!("(inlined copy) {name}"),
                Placement::DataSymbol => format!("(data) {name}"),
                Placement::DataBytes => "(data: same bytes)".to_string(),
                Placement::Symbol => name.clone(),
            };
            text.push_str(&format!("{lo:#010x} {hi:#010x} {ba:#010x} {name}\n"));
        }
        text
    }

    /// Executed instructions by placement: the plugin's block profile (`ADDR INSNS` lines,
    /// each block charged at its start) split into (by symbol, by inlined copy, unplaced,
    /// outside every map range).
    pub fn coverage(&self, profile: &str) -> [u64; 4] {
        let mut out = [0u64; 4];
        for line in profile.lines() {
            let mut w = line.split_whitespace();
            let (Some(a), Some(n)) = (w.next(), w.next()) else {
                continue;
            };
            let (Some(a), Ok(n)) = (
                u32::from_str_radix(a.trim_start_matches("0x"), 16).ok(),
                n.parse::<u64>(),
            ) else {
                continue;
            };
            let i = self.pieces.partition_point(|p| p.0 <= a);
            let k = match i.checked_sub(1).map(|i| &self.pieces[i]) {
                // No block starts in data; counted with the symbols if one did.
                Some(p) if a < p.1 => match p.3 {
                    Placement::Symbol | Placement::DataSymbol | Placement::DataBytes => 0,
                    Placement::Inlined => 1,
                    Placement::Unplaced => 2,
                },
                _ => 3,
            };
            out[k] += n;
        }
        out
    }
}

/// Where [`layout_map`] moves what it cannot place (plus a sample's shift): 16 MB up keeps
/// address bits 23:0, so the XIP cache set (bits 12:3) and the QSPI page breaks.
pub const UNMATCHED_OFFSET: u32 = 0x0100_0000;

/// How many placements of the code [`layout_map`] cannot place `mcu-run --layout-elf` runs:
/// its cache conflicts swing the estimate (TIMING.md), so the record takes the median over
/// shifts spread evenly across one 8 KB cache way.
pub const LAYOUT_SAMPLES: u32 = 7;

/// The shift of placement `k` of [`LAYOUT_SAMPLES`]: `k` sevenths of the 8 KB way, in whole
/// 8-byte cache lines.
pub fn layout_shift(k: u32) -> u32 {
    (8192 * k / LAYOUT_SAMPLES) & !7
}

/// Symbols of `ours` paired with those of `theirs` by [`layout_key`], then those left by
/// [`loose_key`]; several of one key (generic instances) by closest size: `(our address,
/// our end, their address, key)`, and ours left unpaired as `(address, end)`.
type Paired = (Vec<(u32, u32, u32, String)>, Vec<(u32, u32)>);
fn pair_by_name(ours: &[(u32, u32, String)], theirs: &[(u32, u32, String)]) -> Paired {
    use std::collections::BTreeMap;
    type Groups = BTreeMap<String, Vec<(u32, u32)>>;
    let group = |fs: &[(u32, u32, String)]| {
        let mut g: Groups = BTreeMap::new();
        for (addr, size, name) in fs.iter().filter(|f| f.1 > 0) {
            g.entry(layout_key(name)).or_default().push((*addr, *size));
        }
        for v in g.values_mut() {
            v.sort_unstable();
            v.dedup();
        }
        g
    };
    // One stage: pairs by key, and what is left of each side (under its key).
    let pair = |q: Groups, mut b: Groups, pairs: &mut Vec<(u32, u32, u32, String)>| {
        let mut left = Groups::new();
        for (name, mut qs) in q {
            qs.sort_by_key(|&(a, s)| (std::cmp::Reverse(s), a));
            let bs = b.entry(name.clone()).or_default();
            for (qa, qsz) in qs {
                let Some(j) = (0..bs.len()).min_by_key(|&j| (bs[j].1.abs_diff(qsz), bs[j].0))
                else {
                    left.entry(name.clone()).or_default().push((qa, qsz));
                    continue;
                };
                let (ba, _) = bs.remove(j);
                pairs.push((qa, qa.saturating_add(qsz), ba, name.clone()));
            }
        }
        b.retain(|_, v| !v.is_empty());
        (left, b)
    };
    let loosen = |g: Groups| {
        let mut out = Groups::new();
        for (k, v) in g {
            out.entry(loose_key(&k)).or_default().extend(v);
        }
        out
    };
    let mut pairs = Vec::new();
    let (q, b) = pair(group(ours), group(theirs), &mut pairs);
    let (q, _) = pair(loosen(q), loosen(b), &mut pairs);
    let unpaired = q
        .into_values()
        .flatten()
        .map(|(qa, qsz)| (qa, qa.saturating_add(qsz)))
        .collect();
    (pairs, unpaired)
}

/// The parts of `ranges` no piece of `placed` (sorted, disjoint) covers.
fn gaps(ranges: &[(u32, u32)], placed: &[(u32, u32)]) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    for &(lo, hi) in ranges {
        let mut at = lo;
        for &(a, z) in placed.iter().filter(|p| p.0 < hi && p.1 > lo) {
            if a > at {
                out.push((at, a));
            }
            at = at.max(z);
        }
        if at < hi {
            out.push((at, hi));
        }
    }
    out
}

/// Shortest run of equal bytes [`place_data`] takes for the same data.
const SAME_BYTES_MIN: usize = 8;
/// More board copies of an 8-byte run than this and the run says nothing about where ours
/// sits (zeros, padding): not placed by it.
const SAME_BYTES_MAX_COPIES: usize = 16;

/// Where the board image holds the QEMU image's read-only data in `free` (the read-only
/// flash no function took), as `(qemu lo, qemu hi, board lo, how, name)`:
/// - a data object (`STT_OBJECT`) at the board object of the same [`layout_key`] (names
///   of assembler-local labels, `.L...`, are numbered per build and not compared);
/// - then, byte by byte through the rest, the longest run of at least
///   [`SAME_BYTES_MIN`] bytes found at exactly one place in the board's read-only data
///   (constants LLVM merged into unnamed pieces, like the BLAKE3 IV, have no symbol;
///   their bytes are the same in any build).
fn place_data(free: &[(u32, u32)], data: &DataInfo) -> Vec<(u32, u32, u32, Placement, String)> {
    let in_data = |lo: u32, hi: u32| {
        data.qemu_bytes
            .iter()
            .any(|s| lo >= s.paddr && u64::from(hi) <= u64::from(s.paddr) + s.data.len() as u64)
    };
    let inside_free = |lo: u32, hi: u32| free.iter().any(|&(a, z)| lo >= a && hi <= z);
    let named = |objs: &[(u32, u32, String)]| -> Vec<(u32, u32, String)> {
        objs.iter()
            .filter(|o| !o.2.starts_with(".L"))
            .cloned()
            .collect()
    };
    let ours: Vec<_> = named(&data.qemu_objects)
        .into_iter()
        .filter(|o| {
            let hi = o.0.saturating_add(o.1);
            in_data(o.0, hi) && inside_free(o.0, hi)
        })
        .collect();
    let (pairs, _) = pair_by_name(&ours, &named(&data.board_objects));
    let mut out: Vec<_> = pairs
        .into_iter()
        .map(|(lo, hi, to, name)| (lo, hi, to, Placement::DataSymbol, name))
        .collect();
    out.sort_unstable_by_key(|p| (p.0, p.1));
    // Overlapping objects (aliases): the first.
    let mut by_name: Vec<(u32, u32, u32, Placement, String)> = Vec::new();
    for p in out {
        if by_name.last().is_none_or(|k| p.0 >= k.1) {
            by_name.push(p);
        }
    }
    // Every 8-byte run of the board's data, up to one more copy than is of any use.
    let mut index: std::collections::HashMap<&[u8], Vec<(u32, &[u8])>> = Default::default();
    for seg in &data.board_bytes {
        for (i, w) in seg.data.windows(SAME_BYTES_MIN).enumerate() {
            let at = index.entry(w).or_default();
            if at.len() <= SAME_BYTES_MAX_COPIES {
                at.push((seg.paddr.wrapping_add(i as u32), &seg.data[i..]));
            }
        }
    }
    let taken: Vec<(u32, u32)> = by_name.iter().map(|p| (p.0, p.1)).collect();
    let mut out = by_name;
    for seg in &data.qemu_bytes {
        let end = seg.paddr.saturating_add(seg.data.len() as u32);
        let ours: Vec<(u32, u32)> = free
            .iter()
            .map(|&(lo, hi)| (lo.max(seg.paddr), hi.min(end)))
            .filter(|r| r.0 < r.1)
            .collect();
        // Split at our labels: a run stops where the next piece of data starts.
        let mut pieces = Vec::new();
        for (lo, hi) in gaps(&ours, &taken) {
            let inner = data.qemu_labels.iter().filter(|&&l| l > lo && l < hi);
            let mut at = lo;
            for &l in inner {
                pieces.push((at, l));
                at = l;
            }
            pieces.push((at, hi));
        }
        for (lo, hi) in pieces {
            let bytes = &seg.data[(lo - seg.paddr) as usize..(hi - seg.paddr) as usize];
            let mut i = 0;
            while i + SAME_BYTES_MIN <= bytes.len() {
                let rest = &bytes[i..];
                let run =
                    |theirs: &[u8]| rest.iter().zip(theirs).take_while(|(a, b)| a == b).count();
                let best = match index.get(&rest[..SAME_BYTES_MIN]) {
                    Some(at) if at.len() <= SAME_BYTES_MAX_COPIES => {
                        let mut runs: Vec<(usize, u32)> =
                            at.iter().map(|&(a, t)| (run(t), a)).collect();
                        runs.sort_unstable_by_key(|r| std::cmp::Reverse(r.0));
                        match runs.as_slice() {
                            [(n, a)] => Some((*n, *a)),
                            [(n, a), (m, _), ..] if n > m => Some((*n, *a)),
                            _ => None,
                        }
                    }
                    _ => None,
                };
                match best {
                    Some((n, to)) => {
                        let at = lo + i as u32;
                        out.push((at, at + n as u32, to, Placement::DataBytes, String::new()));
                        i += n;
                    }
                    None => i += 1,
                }
            }
        }
    }
    out.sort_unstable_by_key(|p| (p.0, p.1));
    out
}

/// [`layout_map`] on two function lists (address, size, symbol name), the QEMU image's
/// flash ranges, the DWARF facts and the read-only data.
fn map_functions(
    qemu: &[(u32, u32, String)],
    board: &[(u32, u32, String)],
    flash: &[(u32, u32)],
    inline: &InlineInfo,
    data: &DataInfo,
    shift: u32,
) -> Layout {
    let (named, unpaired) = pair_by_name(qemu, board);
    let bytes = |r: &[(u32, u32)]| -> u64 { r.iter().map(|p| u64::from(p.1 - p.0)).sum() };
    let named_spans: Vec<(u32, u32)> = named.iter().map(|p| (p.0, p.1)).collect();
    let moved = bytes(&named_spans);
    let total = moved + bytes(&unpaired);
    let mut pairs: Vec<_> = named
        .into_iter()
        .map(|(lo, hi, to, name)| (lo, hi, to, Placement::Symbol, name))
        .collect();
    // Functions the board inlines: spread over the chosen copy. Our callers of each, by
    // the function enclosing each call site.
    let mut starts: Vec<(u32, u32)> = unpaired.clone();
    starts.extend(pairs.iter().map(|p| (p.0, p.1)));
    starts.sort_unstable();
    let caller_of = |site: u32| -> Option<&String> {
        let i = starts.partition_point(|f| f.0 <= site).checked_sub(1)?;
        let (lo, hi) = starts[i];
        (site < hi).then(|| inline.qemu_names.get(&lo)).flatten()
    };
    let mut inlined_bytes = 0u64;
    for &(lo, hi) in &unpaired {
        let Some(name) = inline.qemu_names.get(&lo) else {
            continue;
        };
        let callers: Vec<String> = inline
            .calls
            .iter()
            .filter(|c| c.1 & !1 == lo)
            .filter_map(|c| caller_of(c.0).cloned())
            .collect();
        let Some(copy) = dwarf::choose_copy(&inline.board, name, &callers) else {
            continue;
        };
        inlined_bytes += u64::from(hi - lo);
        for (a, z, to) in dwarf::place_proportionally(lo, hi, &copy.ranges) {
            pairs.push((a, z, to, Placement::Inlined, name.clone()));
        }
    }
    pairs.sort_unstable_by_key(|p| (p.0, p.1));
    // Aliases and overlapping symbols: the first of each address range.
    let mut kept: Vec<(u32, u32, u32, Placement, String)> = Vec::new();
    for p in pairs {
        if kept.last().is_none_or(|k| p.0 >= k.1) {
            kept.push(p);
        }
    }
    // The flash between the placed functions: read-only data where the board has it, the
    // rest moved.
    let spans = |ps: &[(u32, u32, u32, Placement, String)]| -> Vec<(u32, u32)> {
        ps.iter().map(|p| (p.0, p.1)).collect()
    };
    let free = gaps(flash, &spans(&kept));
    let data_pieces = place_data(&free, data);
    let count = |how: Placement| -> u64 {
        data_pieces
            .iter()
            .filter(|p| p.3 == how)
            .map(|p| u64::from(p.1 - p.0))
            .sum()
    };
    let data_total: u64 = data.qemu_bytes.iter().map(|s| s.data.len() as u64).sum();
    let data_bytes = (
        count(Placement::DataSymbol),
        count(Placement::DataBytes),
        data_total,
    );
    let rest = gaps(&free, &spans(&data_pieces));
    kept.extend(data_pieces);
    kept.extend(rest.into_iter().filter_map(|(lo, hi)| {
        let to = lo.checked_add(UNMATCHED_OFFSET + shift)?;
        Some((lo, hi, to, Placement::Unplaced, String::new()))
    }));
    kept.sort_unstable_by_key(|p| (p.0, p.1));
    Layout {
        pieces: kept,
        function_bytes: (moved, inlined_bytes, total),
        data_bytes,
    }
}

/// Writes [`layout_map`] (placement `shift`) next to the QEMU ELF and returns the plugin
/// argument naming it, and the layout.
pub fn layout_arg(
    qemu_elf: &Path,
    board_elf: &Path,
    shift: u32,
) -> Result<(String, Layout), String> {
    let read = |p: &Path| std::fs::read(p).map_err(|e| format!("{}: {e}", p.display()));
    let layout = layout_map(&read(qemu_elf)?, &read(board_elf)?, shift)?;
    let (by_symbol, by_copy, total) = layout.function_bytes;
    if by_symbol == 0 {
        return Err(format!(
            "--layout-elf {}: no function of the QEMU image found there",
            board_elf.display()
        ));
    }
    let path = qemu_elf.with_extension(format!("layout{shift}.map"));
    std::fs::write(&path, layout.text()).map_err(|e| format!("{}: {e}", path.display()))?;
    if shift == 0 {
        let pc = |n: u64| 100.0 * n as f64 / total.max(1) as f64;
        eprintln!(
            "mcu-run: layout of {}: {:.1} % of the QEMU image's function bytes placed by symbol, {:.1} % in inlined copies (DWARF)",
            board_elf.display(),
            pc(by_symbol),
            pc(by_copy)
        );
        let (by_name, by_bytes, data) = layout.data_bytes;
        eprintln!(
            "mcu-run: read-only data: {by_name} of {data} B placed by symbol, {by_bytes} B where the board holds the same bytes"
        );
    }
    Ok((format!("map={}", path.display()), layout))
}

/// Cycles the timing model charges per call of the offloaded SHA-256 compression: one
/// one-block call of the `rp2350-sha256` driver (START write, WDATA_RDY poll, 16 WDATA
/// writes, 57 busy cycles, SUM_VLD read, 8 SUM reads; `verifier-mcu/TIMING.md`).
pub const SHA256_ENGINE_CYCLES: u32 = 84;

/// The software compression the engine replaces: one call per 64-byte block
/// (`picostark_sha256`, an unmangled symbol).
pub const SHA256_COMPRESS_SYMBOL: &str = "pstk_sha256_compress";

/// The plugin argument that charges the SHA-256 engine in place of the software
/// compression ([`SHA256_COMPRESS_SYMBOL`], found in `.symtab`).
pub fn sha256_offload_arg(elf: &[u8]) -> Result<String, String> {
    let e = Elf::parse(elf).map_err(|e| e.to_string())?;
    let (value, size) = e
        .symbol_containing(SHA256_COMPRESS_SYMBOL)
        .map_err(|e| e.to_string())?
        .ok_or("--sha256-engine: the firmware has no pstk_sha256_compress symbol")?;
    let lo = value & !1;
    let hi = lo
        .checked_add(size)
        .filter(|hi| *hi > lo)
        .ok_or("--sha256-engine: pstk_sha256_compress has no size")?;
    Ok(format!(
        "offload={lo:#010x}-{hi:#010x}:{SHA256_ENGINE_CYCLES}"
    ))
}

/// The plugin and what it is told about one firmware image.
pub struct Plugin<'a> {
    pub path: &'a Path,
    /// Where counting starts and stops: `pstk_measure_start` and `pstk_measure_end`
    /// ([`markers`]), or any two instruction addresses (`mcu-run board`).
    pub markers: (u32, u32),
    /// The timing model's arguments ([`model_args`]).
    pub model: &'a [String],
}

impl Plugin<'_> {
    /// QEMU's `-plugin` value for `core`, the counts written to `out`.
    pub fn arg(&self, core: Core, out: &Path) -> String {
        let mut arg = format!(
            "{},isa={},start={:#x},end={:#x},out={}",
            self.path.display(),
            core.isa(),
            self.markers.0 & !1,
            self.markers.1 & !1,
            out.display()
        );
        for a in self.model {
            arg.push(',');
            arg.push_str(a);
        }
        arg
    }
}

/// Runs the QEMU firmware `elf` with the plugin counting between its markers, with `slot`
/// loaded into the proof slot (or the firmware's embedded proof when `None`); with
/// `profile`, the plugin also writes its per-block counts there.
pub fn run(
    core: Core,
    isa: Isa,
    elf: &Path,
    plugin: &Plugin<'_>,
    slot: Option<&[u8]>,
    timeout_s: u64,
    profile: Option<&Path>,
) -> Result<Outcome, String> {
    let slot_proof = slot;
    let tmp = std::env::temp_dir().join(format!("mcu-run-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).map_err(|e| e.to_string())?;
    let slot = tmp.join("proof.slot");
    let counts = tmp.join("icount.txt");
    let _ = std::fs::remove_file(&counts);
    let (bin, mut args) = core.qemu_args(isa, elf);
    if let Some(proof) = slot_proof {
        let mut slot_bytes = b"PSLT".to_vec();
        slot_bytes.extend_from_slice(&(proof.len() as u32).to_le_bytes());
        slot_bytes.extend_from_slice(proof);
        std::fs::write(&slot, &slot_bytes).map_err(|e| e.to_string())?;
        args.push("-device".into());
        args.push(format!(
            "loader,file={},addr={:#x},force-raw=on",
            slot.display(),
            core.slot_addr()
        ));
    }
    args.push("-plugin".into());
    args.push(plugin.arg(core, &counts));
    if let Some(p) = profile {
        let _ = std::fs::remove_file(p);
        let last = args.last_mut().expect("plugin argument");
        last.push_str(&format!(",profile={}", p.display()));
    }
    let mut child = Command::new(bin)
        .args(&args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{bin}: cannot start: {e} (install it: apt-get install qemu-system-arm / qemu-system-misc)"))?;
    // Semihosting console output goes to QEMU's stderr; UART output would be on stdout.
    let reader = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut s = String::new();
            let _ = r.read_to_string(&mut s);
            s
        })
    };
    let out_reader = reader(Box::new(child.stdout.take().expect("piped")));
    let err_reader = reader(Box::new(child.stderr.take().expect("piped")));
    let deadline = Instant::now() + Duration::from_secs(timeout_s);
    let status = loop {
        match child.try_wait().map_err(|e| e.to_string())? {
            Some(s) => break s,
            None if Instant::now() > deadline => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("{bin} timed out after {timeout_s} s"));
            }
            None => std::thread::sleep(Duration::from_millis(20)),
        }
    };
    let mut stdout = err_reader.join().unwrap_or_default();
    stdout.push_str(&out_reader.join().unwrap_or_default());
    let regions = std::fs::read_to_string(&counts)
        .map(|t| parse_regions(&t))
        .unwrap_or_default();
    let _ = std::fs::remove_dir_all(&tmp);
    let log = parse_log(&stdout).into_iter().next();
    Ok(Outcome {
        stdout,
        log,
        regions,
        exit_ok: status.success(),
        exit_code: status.code(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::ValueEnum;

    #[test]
    fn a_tampered_copy_counts_only_for_an_accepted_input() {
        use TamperedCheck::*;
        let check = tampered_check;
        assert_eq!(check("accepted", Some("rejected:merkle")), Rejected);
        let accepted = Failed("accepted".into());
        assert_eq!(check("accepted", Some("accepted")), accepted);
        assert_eq!(check("accepted", None), Failed("missing".into()));
        // An accepted input's slot must hold a verdict, not the rejected input's marker.
        let na = picostark_core::record::NOT_APPLICABLE;
        assert_eq!(check("accepted", Some(na)), Failed(na.into()));
        // Issue 46: an input already flipped at the copy's byte is restored by the flip, so
        // an older firmware's copy is accepted; the input's rejection is still the verdict.
        assert_eq!(check("rejected:fri", Some("accepted")), NotApplicable);
        assert_eq!(check("rejected:fri", Some(na)), NotApplicable);
        assert_eq!(check("rejected:out-of-memory", None), NotApplicable);
        assert_eq!(NotApplicable.cell(), "n/a");
    }

    #[test]
    fn plugin_lines_parse() {
        let t = "noise\nicount region=0 insns=10 mul=1 load_store=2 branch=3 other=4\n\
                 icount region=1 insns=11 mul=1 load_store=2 branch=3\n";
        let r = parse_regions(t);
        assert_eq!(r.len(), 1, "the incomplete line is dropped");
        assert_eq!(r[0].insns, 10);
        assert_eq!(r[0].classes.branch, 3);
        assert_eq!(
            r[0].estimate, None,
            "a line without a model has no estimate"
        );
    }

    #[test]
    fn sha256_offload_finds_the_marker_or_fails() {
        let sym = ("pstk_sha256_compress", 0x1000_0011);
        let elf = crate::elf::tests::test_elf(
            crate::elf::EM_ARM,
            0x1000_0000,
            &[(0x1000_0000, &[0; 64])],
            &[(sym.0, sym.1, 0x20)],
        );
        assert_eq!(
            sha256_offload_arg(&elf).unwrap(),
            "offload=0x10000010-0x10000030:84"
        );
        let none = crate::elf::tests::tiny_elf(crate::elf::EM_ARM, 0x1000_0000, &[0; 64], ("f", 1));
        assert!(sha256_offload_arg(&none).is_err());
    }

    #[test]
    fn model_args_map_flash_and_the_slot() {
        let elf = crate::elf::tests::tiny_elf(crate::elf::EM_ARM, 0x1000_0000, &[0; 64], ("f", 1));
        assert_eq!(
            model_args(Core::M33, &elf, Some(100), None).unwrap(),
            [
                "model=m33",
                "flash=0x10000000-0x10000040",
                "flash=0x38200000-0x3820006c"
            ]
        );
        let rv = crate::elf::tests::tiny_elf(crate::elf::EM_RISCV, 0x8000_0000, &[0; 16], ("f", 1));
        assert_eq!(
            model_args(Core::Rv32, &rv, None, Some(40)).unwrap(),
            [
                "model=hazard3",
                "flash=0x80000000-0x80000010",
                "xip_miss=40"
            ]
        );
        // A code-in-ram image copies the embedded proof to SRAM with its .rodata: the slot
        // is not flash; what stays in flash still is.
        let in_ram = crate::elf::tests::tiny_elf(
            crate::elf::EM_ARM,
            0x1000_0000,
            &[0; 64],
            (RAM_CODE_START, 0x2000_0000),
        );
        assert_eq!(
            model_args(Core::M33, &in_ram, Some(100), None).unwrap(),
            ["model=m33", "flash=0x10000000-0x10000040"]
        );
        // A writable segment (PF_W in p_flags) is SRAM, not flash.
        let mut writable = elf.clone();
        writable[52 + 24] = 6;
        assert!(model_args(Core::M33, &writable, None, None).is_err());
    }

    #[test]
    fn layout_keys_drop_build_hashes_only() {
        assert_eq!(
            layout_key("_ZN6blake38portable17compress_in_place17h0123456789abcdefE"),
            "blake3::portable::compress_in_place"
        );
        assert_eq!(
            layout_key("_RNvNtCsheXoZokrRQM_17compiler_builtins3mem6memcpy"),
            layout_key("_RNvNtCs1a2B3c_17compiler_builtins3mem6memcpy")
        );
        assert_ne!(layout_key("_ZN1a1fE"), layout_key("_ZN1a1gE"));
        assert_eq!(layout_key("memcpy"), "memcpy");
    }

    /// Real symbols of the same items from a rustc 1.95.0 image (standard library mangled
    /// v0) and a rustc 1.94.1 one (legacy): the zkmcu RV32 TLSF firmware and ours.
    #[test]
    fn layout_keys_pair_legacy_and_v0_names() {
        let same = |legacy: &str, v0: &str| {
            assert_eq!(layout_key(legacy), layout_key(v0), "{legacy} / {v0}");
        };
        // An inherent method: `core::fmt::Formatter::pad` / `<core::fmt::Formatter>::pad`.
        same(
            "_ZN4core3fmt9Formatter3pad17h70209f2ecfa223ceE",
            "_RNvMsa_NtCscB4ypgrvJIh_4core3fmtNtB5_9Formatter3pad",
        );
        // A trait impl legacy names by its module: `core::fmt::num::imp::<impl Display for
        // u32>::fmt` / `<u32 as core::fmt::Display>::fmt`.
        same(
            "_ZN4core3fmt3num3imp52_$LT$impl$u20$core..fmt..Display$u20$for$u20$u32$GT$3fmt17hf372911b1e30887dE",
            "_RNvXs8_NtNtNtCscB4ypgrvJIh_4core3fmt3num3impmNtB9_7Display3fmt",
        );
        // A generic instance both schemes print with its argument.
        same(
            "_ZN4core3ptr42drop_in_place$LT$alloc..string..String$GT$17h8c71895dfb8ecc14E",
            "_RINvNtCscB4ypgrvJIh_4core3ptr13drop_in_placeNtNtCs49FdYmsWJ4B_5alloc6string6StringEBK_",
        );
        // A function without generic parameters, and an LTO-local copy (`.298`).
        same(
            "_ZN17compiler_builtins3mem6memcpy17h0123456789abcdefE",
            "_RNvNtCsheXoZokrRQM_17compiler_builtins3mem6memcpy",
        );
        assert_eq!(
            layout_key("_ZN58_$LT$alloc..string..String$u20$as$u20$core..fmt..Write$GT$9write_str17h0123456789abcdefE.297"),
            "<alloc::string::String as core::fmt::Write>::write_str"
        );
        // A generic instance legacy names by the impl's parameters, v0 by the instance's:
        // apart by `layout_key`, together by `loose_key`.
        let (legacy, v0) = (
            "_ZN5alloc7raw_vec20RawVecInner$LT$A$GT$7reserve21do_reserve_and_handle17h394dfc93ebccc478E",
            "_RINvNvMs2_NtCs49FdYmsWJ4B_5alloc7raw_vecINtB8_11RawVecInnerpE7reserve21do_reserve_and_handleNtNtBa_5alloc6GlobalEBa_",
        );
        assert_ne!(layout_key(legacy), layout_key(v0));
        assert_eq!(loose_key(&layout_key(legacy)), loose_key(&layout_key(v0)));
        assert_eq!(
            loose_key(&layout_key(v0)),
            "alloc::raw_vec::RawVecInner::reserve::do_reserve_and_handle"
        );
    }

    #[test]
    fn layout_keys_keep_different_items_apart() {
        let apart = |a: &str, b: &str| {
            assert_ne!(
                loose_key(&layout_key(a)),
                loose_key(&layout_key(b)),
                "{a} / {b}"
            );
        };
        // `Formatter::pad` (legacy) and `Formatter::pad_integral` (v0).
        apart(
            "_ZN4core3fmt9Formatter3pad17h70209f2ecfa223ceE",
            "_RNvMsa_NtCscB4ypgrvJIh_4core3fmtNtB5_9Formatter12pad_integral",
        );
        // The same trait method of two types: `Display for u32` (legacy) and for u64 (v0).
        apart(
            "_ZN4core3fmt3num3imp52_$LT$impl$u20$core..fmt..Display$u20$for$u20$u32$GT$3fmt17hf372911b1e30887dE",
            "_RNvXsi_NtNtNtCscB4ypgrvJIh_4core3fmt3num3impyNtB9_7Display3fmt",
        );
        // Two instances of one generic function stay apart by `layout_key`.
        assert_ne!(
            layout_key("_RINvNtCscB4ypgrvJIh_4core9panicking13assert_failedjjEB4_"),
            layout_key("_RINvNtCscB4ypgrvJIh_4core9panicking13assert_failedyyEB4_")
        );
    }

    #[test]
    fn layout_keys_take_any_name() {
        // Symbol tables are input: unbalanced brackets, a cut-off impl, non-ASCII, a bare
        // dot: a key, never a panic.
        for n in [
            "<",
            ">",
            "<a as",
            "a::<impl ",
            "<é>::ü.",
            ".",
            "_ZN",
            "_R",
            "a.12.b",
        ] {
            let k = layout_key(n);
            let _ = loose_key(&k);
        }
        assert_eq!(layout_key("a.12.b"), "a.12.b");
    }

    #[test]
    fn pairing_takes_exact_names_before_loose_ones() {
        let f = |a: u32, s: u32, n: &str| (a, s, n.to_string());
        // Ours: one v0 instance; theirs: two legacy instances of other sizes under the
        // impl's parameters, and an exact name for our `pad`.
        let ours = [
            f(0x100, 0x74, "_RINvNvMs2_NtCs49FdYmsWJ4B_5alloc7raw_vecINtB8_11RawVecInnerpE7reserve21do_reserve_and_handleNtNtBa_5alloc6GlobalEBa_"),
            f(0x200, 0x2f0, "_RNvMsa_NtCscB4ypgrvJIh_4core3fmtNtB5_9Formatter3pad"),
            f(0x500, 0x10, "_ZN1a7unknown17h0123456789abcdefE"),
        ];
        let theirs = [
            f(0x9000, 0x24, "_ZN5alloc7raw_vec20RawVecInner$LT$A$GT$7reserve21do_reserve_and_handle17h394dfc93ebccc478E"),
            f(0x9100, 0x74, "_ZN5alloc7raw_vec20RawVecInner$LT$A$GT$7reserve21do_reserve_and_handle17ha159092e25586664E"),
            f(0x9200, 0x2f6, "_ZN4core3fmt9Formatter3pad17h70209f2ecfa223ceE"),
        ];
        let (mut pairs, unpaired) = pair_by_name(&ours, &theirs);
        pairs.sort();
        let at: Vec<(u32, u32)> = pairs.iter().map(|p| (p.0, p.2)).collect();
        assert_eq!(at, [(0x100, 0x9100), (0x200, 0x9200)]);
        assert_eq!(unpaired, [(0x500, 0x510)]);
    }

    #[test]
    fn layout_map_moves_functions_by_name_and_size() {
        let f = |a: u32, s: u32, n: &str| (a, s, n.to_string());
        let qemu = [
            f(0x8000_0000, 0x40, "_ZN1a4eval17h1111111111111111E"),
            f(0x8000_0040, 0x100, "_ZN1a4eval17h2222222222222222E"),
            f(0x8000_0140, 0x20, "only_in_qemu"),
            f(0x8000_0160, 0x10, "memcpy"),
        ];
        let board = [
            f(0x1000_0800, 0xf8, "_ZN1a4eval17h3333333333333333E"),
            f(0x1000_0400, 0x44, "_ZN1a4eval17h4444444444444444E"),
            f(0x1000_0000, 0x10, "memcpy"),
            f(0x1000_0010, 0x10, "only_on_board"),
        ];
        let flash = [(0x8000_0000, 0x8000_0180)];
        let none = InlineInfo::default();
        let layout = map_functions(&qemu, &board, &flash, &none, &DataInfo::default(), 0);
        let text = layout.text();
        let lines: Vec<&str> = text.lines().skip(1).collect();
        let rest = "(not placed: moved by UNMATCHED_OFFSET)";
        assert_eq!(
            lines,
            [
                "0x80000000 0x80000040 0x10000400 a::eval".to_string(),
                "0x80000040 0x80000140 0x10000800 a::eval".to_string(),
                format!("0x80000140 0x80000160 0x81000140 {rest}"),
                "0x80000160 0x80000170 0x10000000 memcpy".to_string(),
                format!("0x80000170 0x80000180 0x81000170 {rest}"),
            ]
        );
        assert_eq!(layout.function_bytes, (0x150, 0, 0x170));
        let nothing = map_functions(
            &qemu,
            &[],
            &flash,
            &none,
            &DataInfo::default(),
            layout_shift(1),
        );
        assert_eq!(nothing.function_bytes.0, 0);
        assert_eq!(
            nothing.text().lines().nth(1),
            Some(format!("0x80000000 0x80000180 0x81000490 {rest}").as_str())
        );
        // Blocks at 0x80000000 (by symbol), 0x80000150 (unplaced), 0x90000000 (no range).
        let profile = "0x80000000 7\n0x80000150 5\n0x90000000 1\nbad line\n";
        assert_eq!(layout.coverage(profile), [7, 0, 5, 1]);
        let shifts: Vec<u32> = (0..LAYOUT_SAMPLES).map(layout_shift).collect();
        assert_eq!(shifts, [0, 1168, 2336, 3504, 4680, 5848, 7016]);
    }

    #[test]
    fn functions_the_board_inlines_go_to_the_copy_in_their_caller() {
        let f = |a: u32, s: u32, n: &str| (a, s, n.to_string());
        // Ours: `caller` calls `eval` (out of line here); the board has `caller` only, with
        // two inlined copies of `eval`: a small one in `caller`, a larger one elsewhere.
        let qemu = [
            f(0x8000_0000, 0x20, "caller"),
            f(0x8000_0020, 0x20, "eval_sym"),
        ];
        let board = [f(0x1000_0000, 0x100, "caller")];
        let copy = |caller: &str, lo: u32, len: u32| dwarf::InlinedCopy {
            name: "m::eval<u8>".into(),
            callers: vec![caller.into()],
            ranges: vec![(lo, lo + len)],
        };
        let inline = InlineInfo {
            qemu_names: [
                (0x8000_0000, "m::caller".to_string()),
                (0x8000_0020, "m::eval<u8>".to_string()),
            ]
            .into_iter()
            .collect(),
            calls: vec![(0x8000_0004, 0x8000_0020)],
            board: vec![
                copy("m::caller", 0x1000_0040, 0x20),
                copy("m::other", 0x1000_0400, 0x80),
            ],
        };
        let flash = [(0x8000_0000, 0x8000_0040)];
        let layout = map_functions(&qemu, &board, &flash, &inline, &DataInfo::default(), 0);
        let placed: Vec<(u32, u32, u32, Placement)> =
            layout.pieces.iter().map(|p| (p.0, p.1, p.2, p.3)).collect();
        assert_eq!(
            placed,
            [
                (0x8000_0000, 0x8000_0020, 0x1000_0000, Placement::Symbol),
                (0x8000_0020, 0x8000_0040, 0x1000_0040, Placement::Inlined),
            ]
        );
        assert_eq!(layout.function_bytes, (0x20, 0x20, 0x40));
        // Without the call, the larger copy; without our DWARF name, the fallback.
        let no_call = InlineInfo {
            calls: vec![],
            ..inline
        };
        let layout = map_functions(&qemu, &board, &flash, &no_call, &DataInfo::default(), 0);
        assert_eq!(layout.pieces[1].2, 0x1000_0400);
        let no_name = InlineInfo {
            qemu_names: Default::default(),
            ..no_call
        };
        let layout = map_functions(&qemu, &board, &flash, &no_name, &DataInfo::default(), 0);
        assert_eq!(layout.pieces[1].3, Placement::Unplaced);
        assert_eq!(layout.pieces[1].2, 0x8100_0020);
    }

    /// The BLAKE3 IV: a constant LLVM merges into an unnamed piece of `.rodata`.
    const IV: [u8; 32] = [
        0x67, 0xe6, 0x09, 0x6a, 0x85, 0xae, 0x67, 0xbb, 0x72, 0xf3, 0x6e, 0x3c, 0x3a, 0xf5, 0x4f,
        0xa5, 0x7f, 0x52, 0x0e, 0x51, 0x8c, 0x68, 0x05, 0x9b, 0xab, 0xd9, 0x83, 0x1f, 0x19, 0xcd,
        0xe0, 0x5b,
    ];

    #[test]
    fn read_only_data_goes_where_the_board_holds_it() {
        let f = |a: u32, s: u32, n: &str| (a, s, n.to_string());
        // Ours: 0x80001000.. `TABLE` (named, 16 B), the IV (unnamed), a run the board holds
        // twice, zeros under a `.L` name the board also has, bytes the board does not hold.
        let table: Vec<u8> = (1..=16).collect();
        let twice = *b"twice-here";
        let mut ours = table.clone();
        ours.extend_from_slice(&IV);
        ours.extend_from_slice(&twice);
        ours.extend_from_slice(&[0; 16]);
        ours.extend_from_slice(b"ours only");
        // Theirs: other bytes first, the IV at an address = 4 mod 8, the run twice, zeros
        // (more copies than any use), `TABLE` with other bytes.
        let mut theirs = vec![0xee; 12];
        theirs.extend_from_slice(&IV);
        theirs.extend_from_slice(&twice);
        theirs.extend_from_slice(&twice);
        theirs.extend_from_slice(&[0; 64]);
        theirs.extend_from_slice(&[0xaa; 16]);
        let data = DataInfo {
            qemu_objects: vec![
                f(0x8000_1000, 16, "_ZN1a5TABLE17h1111111111111111E"),
                f(0x8000_103a, 9, ".Lanon.1111.3"),
            ],
            board_objects: vec![
                f(
                    0x1000_2000 + theirs.len() as u32 - 16,
                    16,
                    "_ZN1a5TABLE17h2222222222222222E",
                ),
                f(0x1000_2000, 9, ".Lanon.1111.3"),
            ],
            qemu_labels: vec![0x8000_1000, 0x8000_1030, 0x8000_103a],
            qemu_bytes: vec![Segment {
                paddr: 0x8000_1000,
                data: ours.clone(),
            }],
            board_bytes: vec![Segment {
                paddr: 0x1000_2000,
                data: theirs,
            }],
        };
        let code = [f(0x8000_0000, 0x100, "main")];
        let board = [f(0x1000_0000, 0x100, "main")];
        let end = 0x8000_1000 + ours.len() as u32;
        let flash = [(0x8000_0000, 0x8000_0100), (0x8000_1000, end)];
        let none = InlineInfo::default();
        let layout = map_functions(&code, &board, &flash, &none, &data, 0);
        let placed: Vec<(u32, u32, u32, Placement)> =
            layout.pieces.iter().map(|p| (p.0, p.1, p.2, p.3)).collect();
        assert_eq!(
            placed,
            [
                (0x8000_0000, 0x8000_0100, 0x1000_0000, Placement::Symbol),
                (0x8000_1000, 0x8000_1010, 0x1000_2080, Placement::DataSymbol),
                (0x8000_1010, 0x8000_1030, 0x1000_200c, Placement::DataBytes),
                // Held twice on the board, zeros, and bytes the board does not hold (the
                // `.L` name is not compared): moved.
                (0x8000_1030, end, 0x8100_1030, Placement::Unplaced),
            ]
        );
        assert_eq!(layout.data_bytes, (16, 32, ours.len() as u64));
        assert!(layout.text().contains("(data) a::TABLE"));
        // A run stops at our next label: the IV's last bytes are followed on the board by
        // `twice`, so without the label at 0x80001030 the run would take it along.
        let unlabelled = DataInfo {
            qemu_labels: vec![],
            ..data
        };
        let layout = map_functions(&code, &board, &flash, &none, &unlabelled, 0);
        let iv = layout.pieces.iter().find(|p| p.0 == 0x8000_1010).unwrap();
        assert_eq!(
            (iv.1, iv.2, iv.3),
            (0x8000_103a, 0x1000_200c, Placement::DataBytes)
        );
        // Nothing to compare: all data moved, no data counted as placed.
        let layout = map_functions(&code, &board, &flash, &none, &DataInfo::default(), 0);
        assert_eq!(layout.data_bytes, (0, 0, 0));
        assert_eq!(layout.pieces[1].3, Placement::Unplaced);
    }

    #[test]
    fn layout_map_reads_the_data_of_both_images() {
        use crate::elf::{tests::typed_elf, EM_RISCV};
        // Segment 0 code (PF_R | PF_X), segment 1 read-only data (PF_R); e_shstrndx at the
        // string table, which DWARF reading needs.
        let flags = |mut elf: Vec<u8>| {
            elf[52 + 24] = 5;
            elf[52 + 32 + 24] = 4;
            elf[50] = 1;
            elf
        };
        let qemu = flags(typed_elf(
            EM_RISCV,
            0x8000_0000,
            &[(0x8000_0000, &[0x13; 16]), (0x8000_0010, &IV)],
            &[("main", 0x8000_0000, 16, 2)],
        ));
        let board = flags(typed_elf(
            EM_RISCV,
            0x1000_0000,
            &[
                (0x1000_0000, &[0x13; 16]),
                (0x1000_0014, &[&[9; 4][..], &IV].concat()),
            ],
            &[("main", 0x1000_0000, 16, 2)],
        ));
        let layout = layout_map(&qemu, &board, 0).unwrap();
        let placed: Vec<(u32, u32, u32, Placement)> =
            layout.pieces.iter().map(|p| (p.0, p.1, p.2, p.3)).collect();
        assert_eq!(
            placed,
            [
                (0x8000_0000, 0x8000_0010, 0x1000_0000, Placement::Symbol),
                (0x8000_0010, 0x8000_0030, 0x1000_0018, Placement::DataBytes),
            ]
        );
        // A board image whose data lost the IV's last byte holds only a shorter run.
        let short = flags(typed_elf(
            EM_RISCV,
            0x1000_0000,
            &[(0x1000_0000, &[0x13; 16]), (0x1000_0014, &IV[..31])],
            &[("main", 0x1000_0000, 16, 2)],
        ));
        let layout = layout_map(&qemu, &short, 0).unwrap();
        assert_eq!(
            (layout.pieces[1].1, layout.pieces[1].2),
            (0x8000_002f, 0x1000_0014)
        );
        assert_eq!(layout.pieces[2].3, Placement::Unplaced);
        assert!(layout_map(&qemu, b"not an elf", 0).is_err());
    }

    #[test]
    fn model_fields_parse() {
        let t = "icount region=0 insns=10 mul=1 load_store=2 branch=3 other=4 cycles=31 \
                 stall=9 xip_accesses=7 xip_misses=2 xip_miss_cycles=12 model=rp2350-m33 \
                 model_version=1 offload_calls=5 offload_cycles=420\n\
                 icount region=1 insns=10 mul=1 load_store=2 branch=3 other=4 cycles=31 stall=9\n";
        let r = parse_regions(t);
        assert_eq!(r.len(), 2);
        let e = r[0].estimate.as_ref().expect("the model's fields");
        assert_eq!(
            (
                e.cycles,
                e.stall,
                e.xip_accesses,
                e.xip_misses,
                e.xip_miss_cycles
            ),
            (31, 9, 7, 2, 12)
        );
        assert_eq!((e.model.as_str(), e.model_version), ("rp2350-m33", 1));
        assert_eq!(e.offload_calls, Some(5));
        assert_eq!(
            r[1].estimate, None,
            "a partial model line gives no estimate"
        );
        assert_eq!(r[1].insns, 10, "but its counts stay");
        // A short M33 window whose pairing savings outweigh its stalls has a negative net.
        let short = "icount region=0 insns=40 mul=0 load_store=9 branch=5 other=26 cycles=37 \
                     stall=-3 xip_accesses=0 xip_misses=0 xip_miss_cycles=0 model=rp2350-m33 \
                     model_version=3\n";
        let e = parse_regions(short)[0]
            .estimate
            .clone()
            .expect("a negative net stall parses");
        assert_eq!((e.cycles, e.stall), (37, -3));
        assert_eq!(e.offload_calls, None, "no engine charged");
    }

    #[test]
    fn isa_variants_match_the_cargo_config_and_qemu() {
        let config =
            std::fs::read_to_string(repo_root().join("verifier-mcu/firmware/.cargo/config.toml"))
                .expect("the firmware's cargo config");
        let flags = format!("\"target-feature={}\"", Isa::Rp2350.target_features());
        assert!(
            config.contains(&flags),
            "the record's feature list {flags} must be what the config builds"
        );
        for (isa, on) in [(Isa::Rp2350, "true"), (Isa::Rv32imac, "false")] {
            assert_eq!(Isa::from_str(isa.name(), false), Ok(isa));
            let (_, args) = Core::Rv32.qemu_args(isa, Path::new("fw.elf"));
            let cpu = args.iter().skip_while(|a| *a != "-cpu").nth(1).unwrap();
            for ext in ["zba", "zbb", "zbs", "zbkb"] {
                assert!(cpu.contains(&format!("{ext}={on}")), "{cpu}");
            }
            assert!(cpu.contains("zbc=false"), "the RP2350 has no Zbc: {cpu}");
        }
        assert!(Isa::from_str("rv32gc", false).is_err());
        let (_, m33) = Core::M33.qemu_args(Isa::Rp2350, Path::new("fw.elf"));
        assert!(!m33.iter().any(|a| a == "-cpu"));
    }
}

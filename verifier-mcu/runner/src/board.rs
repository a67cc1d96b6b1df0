//! `mcu-run board`: a board image's own code run under QEMU with the timing model.
//!
//! `run --layout-elf` runs our QEMU firmware and lets the model see each function at the
//! address the board image has it at; the instructions are still ours. This runs the board
//! image itself (an RP2350 ELF, e.g. the firmware of a published silicon run rebuilt from its
//! sources), so the model sees that image's instructions at that image's addresses, and
//! nothing is mapped (verifier-mcu/TIMING.md, "The published images, run as they are").
//!
//! QEMU has no RP2350 machine. The image runs on QEMU's empty `none` machine, whose RAM
//! starts at address 0 and here reaches over the RP2350's flash (0x10000000), SRAM
//! (0x20000000) and peripheral (0x40000000-0xe00fffff) addresses: an RV32 image on an RV32
//! CPU, a Cortex-M33 image on the AArch32 `max` CPU (the `none` machine takes no M-profile
//! CPU), which executes the same Thumb-2 instructions, entered from a small ARM-mode stub
//! that enables the FPU and sets the stack pointer and entry point from the image.
//! Peripherals are plain memory there, so code that waits for hardware before the window
//! (clock set-up, USB) would spin forever, and the M-profile-only `MRS`/`MSR` of special
//! registers is undefined on that CPU: the caller names those instructions, all outside
//! the window (`--skip`: a NOP of the same width; `--return`: the function returns at once;
//! `--patch`: any bytes). The window is the instructions from `--start` up to, not including,
//! `--end`, counted each time (the plugin's markers); the record takes the median-cycles
//! window of `--windows` (0: the verdict only, no record). `--accept ADDR:REG=VALUE` checks the verdict: with QEMU's gdb stub
//! the run stops at ADDR and register REG must hold VALUE (what the image's own code
//! compares the verifier's result with).

use std::io::{Read, Write};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::elf::Elf;
use crate::qemu::{parse_regions, Core, Isa, Plugin, Region};

/// One change to the image before it runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Patch {
    /// The instruction at the address becomes a NOP of its own width.
    Skip(u32),
    /// The function at the address returns at once.
    Return(u32),
    /// These bytes at the address.
    Bytes(u32, Vec<u8>),
}

impl Patch {
    /// `ADDR=HEX` (for `--patch`), the address in hex with or without `0x`.
    pub fn parse_bytes(s: &str) -> Result<Self, String> {
        let (a, h) = s.split_once('=').ok_or("--patch wants ADDR=HEXBYTES")?;
        let hex = h.trim();
        if hex.is_empty() || !hex.len().is_multiple_of(2) {
            return Err(format!("--patch {s:?}: an even number of hex digits"));
        }
        let bytes = (0..hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&hex[i..i + 2], 16))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|_| format!("--patch {s:?}: not hex"))?;
        Ok(Patch::Bytes(parse_addr(a)?, bytes))
    }
}

/// What `mcu-run board` needs to run one of this repository's own rp2350 images
/// (`verifier-mcu/firmware`, feature `rp2350`) as it would be flashed, found from the image's
/// symbols (verifier-mcu/README.md, "Our board images under `mcu-run board`").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OwnImage {
    /// `pstk_measure_start` and `pstk_measure_end`: the same window as on the board.
    pub start: u32,
    pub end: u32,
    /// The headless word set to 1 (outside any window) and, on the M33, every
    /// `mrs rX, primask` made `mov.w rX, #0` (undefined on the A-profile CPU that runs it;
    /// the same width and, in the model, the same one cycle).
    pub patches: Vec<Patch>,
    /// `pstk_verdict`'s argument register holds 0 (the run passed).
    pub verdict: Verdict,
    /// The genuine iterations (`PSTK_ITERATIONS`): the windows a record takes.
    pub iterations: u32,
    /// How the image places its code (`xip`, `xip-ordered`, `hot-sram`, `all-sram`), with
    /// `+proof-sram` when the embedded proof runs from SRAM (firmware feature
    /// `proof-in-sram`).
    pub placement: String,
    /// Code and read-only data run from flash (the non-writable segments that run where they
    /// load: vector table, code, constants, the embedded proof), in bytes.
    pub flash_code_bytes: u64,
    /// Code and read-only data copied to SRAM at reset and run there, in bytes.
    pub sram_code_bytes: u64,
    /// The embedded proof's bytes copied to SRAM at reset (0: it stays in flash).
    pub sram_proof_bytes: u64,
}

/// The symbol of a `proof-in-sram` image's embedded proof (firmware build.rs).
const PROOF_SRAM: &str = "PSTK_PROOF_SRAM";

/// The RP2350's SRAM (SRAM0-9) and flash (4 MiB behind XIP) address ranges.
const SRAM: std::ops::Range<u32> = 0x2000_0000..0x2008_2000;
const FLASH: std::ops::Range<u32> = 0x1000_0000..0x1040_0000;

/// The bytes of the embedded proof an image runs from SRAM: 0 without [`PROOF_SRAM`], else
/// its size, after checking that it runs from SRAM and loads from flash (a segment copied at
/// reset: what the board receives in its flash image and copies, and what `--flip-proof`
/// patches).
fn sram_proof_bytes(e: &Elf<'_>) -> Result<u64, String> {
    let Some((at, len)) = e.sized_symbol(PROOF_SRAM).map_err(|e| e.to_string())? else {
        return Ok(0);
    };
    let end = at.checked_add(len).filter(|_| len > 0);
    if !end.is_some_and(|end| SRAM.contains(&at) && end <= SRAM.end) {
        return Err(format!(
            "{PROOF_SRAM} ({len} B at {at:#010x}) does not run from SRAM"
        ));
    }
    let load = e
        .load_address(at, len as usize)
        .map_err(|e| e.to_string())?;
    match load {
        Some(l) if FLASH.contains(&l) && l + len <= FLASH.end => Ok(u64::from(len)),
        _ => Err(format!(
            "{PROOF_SRAM} ({len} B at {at:#010x}) is not loaded from flash: {load:#x?}"
        )),
    }
}

/// `Some` for an image that carries the headless word `PSTK_HEADLESS`, else `None` (a
/// foreign image: its window and patches come from the command line).
pub fn own_image(elf: &[u8], core: Core) -> Result<Option<OwnImage>, String> {
    let e = Elf::parse(elf).map_err(|e| e.to_string())?;
    let sym = |n: &str| e.symbol(n).map_err(|e| e.to_string());
    let Some(headless) = sym("PSTK_HEADLESS")? else {
        return Ok(None);
    };
    let need = |n: &str| -> Result<u32, String> {
        sym(n)?.ok_or_else(|| format!("the image has PSTK_HEADLESS but no symbol {n}"))
    };
    let word = |a: u32| -> Result<u32, String> {
        let at = e
            .file_offset(a, 4)
            .map_err(|e| e.to_string())?
            .ok_or_else(|| format!("{a:#x} is not in the image's loaded bytes"))?;
        Ok(u32::from_le_bytes(
            elf[at..at + 4].try_into().expect("4 bytes"),
        ))
    };
    let iterations = word(need("PSTK_ITERATIONS")?)?;
    if !(1..=1000).contains(&iterations) {
        return Err(format!("PSTK_ITERATIONS in the image is {iterations}"));
    }
    let mut patches = vec![Patch::Bytes(headless, 1u32.to_le_bytes().to_vec())];
    if core == Core::M33 {
        for (vaddr, data, exec) in e.run_segments().map_err(|e| e.to_string())? {
            if exec {
                patches.extend(primask_reads(vaddr, &data));
            }
        }
    }
    let verdict = Verdict {
        addr: need("pstk_verdict")? & !1,
        reg: match core {
            Core::M33 => 0,
            Core::Rv32 => 10,
        },
        value: 0,
    };
    let span = |a: &str, b: &str| -> Result<Option<(u32, u32)>, String> {
        Ok(match (sym(a)?, sym(b)?) {
            (Some(s), Some(t)) if t >= s => Some((s, t)),
            _ => None,
        })
    };
    let in_sram = |a: u32| SRAM.contains(&a);
    let (code, sram_code_bytes) =
        if let Some((s, t)) = span("__pstk_ram_code_start", "__pstk_ram_code_end")? {
            ("all-sram", u64::from(t - s))
        } else if let Some((s, t)) = span("__pstk_hot_start", "__pstk_hot_end")? {
            if in_sram(s) {
                ("hot-sram", u64::from(t - s))
            } else {
                ("xip-ordered", 0)
            }
        } else {
            ("xip", 0)
        };
    let sram_proof_bytes = sram_proof_bytes(&e)?;
    let placement = if sram_proof_bytes > 0 {
        format!("{code}+proof-sram")
    } else {
        code.to_string()
    };
    let flash_code_bytes = e
        .read_only_ranges()
        .map_err(|e| e.to_string())?
        .iter()
        .map(|(lo, hi)| u64::from(hi - lo))
        .sum();
    Ok(Some(OwnImage {
        start: need("pstk_measure_start")? & !1,
        end: need("pstk_measure_end")? & !1,
        patches,
        verdict,
        iterations,
        placement,
        flash_code_bytes,
        sram_code_bytes,
        sram_proof_bytes,
    }))
}

/// Every Thumb-2 `mrs rX, primask` (`f3ef 8x10`, halfword-aligned) in `code` at run address
/// `base`, as a patch to `mov.w rX, #0` (`f04f 0x00`).
fn primask_reads(base: u32, code: &[u8]) -> Vec<Patch> {
    let hw = |i: usize| u16::from_le_bytes([code[i], code[i + 1]]);
    (0..code.len().saturating_sub(3))
        .step_by(2)
        .filter(|&i| hw(i) == 0xf3ef && hw(i + 2) & 0xf0ff == 0x8010)
        .map(|i| {
            let rd = (hw(i + 2) >> 8) & 0xf;
            let mut bytes = 0xf04fu16.to_le_bytes().to_vec();
            bytes.extend((rd << 8).to_le_bytes());
            Patch::Bytes(base + i as u32, bytes)
        })
        .collect()
}

/// The run address of the first copy of `needle` in the image's loaded bytes.
pub fn find_bytes(elf: &[u8], needle: &[u8]) -> Result<Option<u32>, String> {
    let e = Elf::parse(elf).map_err(|e| e.to_string())?;
    if needle.is_empty() {
        return Ok(None);
    }
    Ok(e.run_segments()
        .map_err(|e| e.to_string())?
        .iter()
        .find_map(|(vaddr, data, _)| {
            data.windows(needle.len())
                .position(|w| w == needle)
                .map(|i| vaddr + i as u32)
        }))
}

/// A hex address, `0x` optional.
pub fn parse_addr(s: &str) -> Result<u32, String> {
    let t = s.trim();
    u32::from_str_radix(t.strip_prefix("0x").unwrap_or(t), 16)
        .map_err(|_| format!("{s:?} is not a hex address"))
}

/// The verdict check: at `addr`, register `reg` (`r0`-`r15` on Arm, `x0`-`x31` on RV32)
/// holds `value`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub addr: u32,
    pub reg: usize,
    pub value: u32,
}

impl Verdict {
    /// `ADDR:REG=VALUE`, VALUE decimal or `0x` hex.
    pub fn parse(s: &str, core: Core) -> Result<Self, String> {
        let bad = || format!("--accept {s:?}: wants ADDR:REG=VALUE, e.g. 10002d4c:r10=23");
        let (addr, rest) = s.split_once(':').ok_or_else(bad)?;
        let (reg, value) = rest.split_once('=').ok_or_else(bad)?;
        let (prefix, max) = match core {
            Core::M33 => ('r', 15),
            Core::Rv32 => ('x', 31),
        };
        let reg: usize = reg
            .strip_prefix(prefix)
            .and_then(|n| n.parse().ok())
            .filter(|&n| n <= max)
            .ok_or_else(bad)?;
        let value = match value.strip_prefix("0x") {
            Some(h) => u32::from_str_radix(h, 16),
            None => value.parse(),
        }
        .map_err(|_| bad())?;
        Ok(Verdict {
            addr: parse_addr(addr)?,
            reg,
            value,
        })
    }
}

/// Whether the instruction starting with these bytes is 32 bits wide.
fn is_wide(core: Core, first: [u8; 2]) -> bool {
    let hw = u16::from_le_bytes(first);
    match core {
        // Thumb-2: a first halfword 0b11101, 0b11110 or 0b11111 in its top five bits.
        Core::M33 => hw >> 11 >= 0b11101,
        // RISC-V: the two low bits 0b11 (the C extension's are 00, 01, 10).
        Core::Rv32 => hw & 0b11 == 0b11,
    }
}

/// The image's bytes with `patches` applied (addresses are run addresses of its
/// `PT_LOAD` segments).
pub fn patched(elf: &[u8], core: Core, patches: &[Patch]) -> Result<Vec<u8>, String> {
    let e = Elf::parse(elf).map_err(|e| e.to_string())?;
    let mut out = elf.to_vec();
    for p in patches {
        let (addr, bytes): (u32, Vec<u8>) = match p {
            Patch::Bytes(a, b) => (*a, b.clone()),
            Patch::Skip(a) | Patch::Return(a) => {
                let at = e
                    .file_offset(*a, 2)
                    .map_err(|e| e.to_string())?
                    .ok_or_else(|| format!("{a:#x} is not in the image's loaded bytes"))?;
                let wide = is_wide(core, [elf[at], elf[at + 1]]);
                let bytes: &[u8] = match (p, core, wide) {
                    (Patch::Return(_), Core::M33, _) => &[0x70, 0x47], // bx lr
                    (Patch::Return(_), Core::Rv32, _) => &[0x82, 0x80], // c.jr ra
                    (_, Core::M33, false) => &[0x00, 0xbf],            // nop
                    (_, Core::M33, true) => &[0xaf, 0xf3, 0x00, 0x80], // nop.w
                    (_, Core::Rv32, false) => &[0x01, 0x00],           // c.nop
                    (_, Core::Rv32, true) => &[0x13, 0x00, 0x00, 0x00], // addi x0, x0, 0
                };
                (*a, bytes.to_vec())
            }
        };
        let at = e
            .file_offset(addr, bytes.len())
            .map_err(|e| e.to_string())?
            .ok_or_else(|| format!("{addr:#x}: not in the image's loaded bytes"))?;
        out[at..at + bytes.len()].copy_from_slice(&bytes);
    }
    Ok(out)
}

/// Where the M33 start stub sits: below the RP2350's flash, clear of every image.
const STUB_ADDR: u32 = 0x1000;

/// The ARM-mode start stub for an M33 image on the AArch32 `max` CPU: full access to the
/// FPU's coprocessors (CPACR), the FPU on (FPEXC.EN), then the image's initial stack pointer
/// and entry point (its vector table's first word and `e_entry`, Thumb bit set), as the
/// M33's reset would load them.
pub fn m33_stub(initial_sp: u32, entry: u32) -> Vec<u8> {
    [
        0xee11_0f50, // mrc p15, 0, r0, c1, c0, 2   (CPACR)
        0xe380_060f, // orr r0, r0, #0x00f00000      (cp10, cp11: full access)
        0xee01_0f50, // mcr p15, 0, r0, c1, c0, 2
        0xf57f_f06f, // isb
        0xe3a0_0101, // mov r0, #0x40000000          (FPEXC.EN)
        0xeee8_0a10, // vmsr fpexc, r0
        0xe59f_d000, // ldr sp, [pc, #0]             (the word at +0x20)
        0xe59f_f000, // ldr pc, [pc, #0]             (the word at +0x24; bit 0: Thumb)
        initial_sp,
        entry | 1,
    ]
    .iter()
    .flat_map(|w: &u32| w.to_le_bytes())
    .collect()
}

/// The image's initial stack pointer: the first word of its vector table
/// (`__vector_table`, else the start of its lowest segment).
fn initial_sp(elf: &[u8]) -> Result<u32, String> {
    let e = Elf::parse(elf).map_err(|e| e.to_string())?;
    let table = match e.symbol("__vector_table").map_err(|e| e.to_string())? {
        Some(a) => a,
        None => e
            .load_segments()
            .map_err(|e| e.to_string())?
            .first()
            .map(|s| s.paddr)
            .ok_or("the image has no loadable segment")?,
    };
    let at = e
        .file_offset(table, 4)
        .map_err(|e| e.to_string())?
        .ok_or("the vector table is not in the image's loaded bytes")?;
    Ok(u32::from_le_bytes(
        elf[at..at + 4].try_into().expect("4 bytes"),
    ))
}

/// QEMU's command line for the patched image `image` (and, on the M33, its stub).
fn qemu_command(core: Core, isa: Isa, image: &Path, stub: &Path) -> (&'static str, Vec<String>) {
    // `-icount`: the guest's cycle counter (RV32 `mcycle`) follows its instructions, not the
    // host clock, so the code between windows (it formats the counter's value) and with it
    // the cache state at each window's start are the same run to run.
    let mut args: Vec<String> = [
        "-M",
        "none",
        "-icount",
        "shift=0",
        "-nographic",
        "-monitor",
        "none",
        "-serial",
        "none",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    match core {
        // RAM up to 0xfa000000: flash, SRAM, peripherals, SIO and the M33's system space.
        Core::M33 => {
            args.extend(["-m", "4000M", "-cpu", "max", "-device"].map(String::from));
            args.push(format!("loader,file={}", image.display()));
            args.push("-device".into());
            args.push(format!(
                "loader,file={},addr={STUB_ADDR:#x},cpu-num=0",
                stub.display()
            ));
            ("qemu-system-arm", args)
        }
        Core::Rv32 => {
            args.extend(["-m", "4000M", "-cpu", isa.qemu_cpu(), "-device"].map(String::from));
            args.push(format!("loader,file={},cpu-num=0", image.display()));
            ("qemu-system-riscv32", args)
        }
    }
}

/// What `mcu-run board` runs.
pub struct BoardRun<'a> {
    pub core: Core,
    pub isa: Isa,
    /// The image's bytes, unpatched.
    pub elf: &'a [u8],
    pub patches: &'a [Patch],
    pub windows: usize,
    /// The plugin, the window (`markers`: `--start`, `--end`) and the model's arguments.
    pub plugin: Plugin<'a>,
    pub timeout: Duration,
}

/// A temporary folder removed when dropped.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A QEMU process killed when dropped (the image loops forever).
struct Qemu(Child);

impl Drop for Qemu {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl BoardRun<'_> {
    fn prepare(&self, tag: &str) -> Result<(Scratch, &'static str, Vec<String>), String> {
        let dir = std::env::temp_dir().join(format!("mcu-run-board-{}-{tag}", std::process::id()));
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        let scratch = Scratch(dir.clone());
        let image = dir.join("image.elf");
        std::fs::write(&image, patched(self.elf, self.core, self.patches)?)
            .map_err(|e| e.to_string())?;
        let stub = dir.join("stub.bin");
        if self.core == Core::M33 {
            let entry = Elf::parse(self.elf).map_err(|e| e.to_string())?.entry;
            std::fs::write(&stub, m33_stub(initial_sp(self.elf)?, entry))
                .map_err(|e| e.to_string())?;
        }
        let (bin, args) = qemu_command(self.core, self.isa, &image, &stub);
        Ok((scratch, bin, args))
    }

    fn spawn(bin: &str, args: &[String]) -> Result<Qemu, String> {
        Command::new(bin)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map(Qemu)
            .map_err(|e| format!("{bin}: cannot start: {e}"))
    }

    /// Runs the image until the plugin has counted `windows` windows; their counts.
    pub fn measure(&self) -> Result<Vec<Region>, String> {
        let (scratch, bin, mut args) = self.prepare("measure")?;
        let counts = scratch.0.join("icount.txt");
        args.extend(["-plugin".to_string(), self.plugin.arg(self.core, &counts)]);
        let mut qemu = Self::spawn(bin, &args)?;
        let deadline = Instant::now() + self.timeout;
        loop {
            let regions = std::fs::read_to_string(&counts)
                .map(|t| parse_regions(&t))
                .unwrap_or_default();
            if regions.len() >= self.windows {
                return Ok(regions[..self.windows].to_vec());
            }
            if let Some(s) = qemu.0.try_wait().map_err(|e| e.to_string())? {
                return Err(format!(
                    "{bin} stopped ({s}) after {} windows",
                    regions.len()
                ));
            }
            if Instant::now() > deadline {
                return Err(format!(
                    "{} of {} windows after {} s: the image may be waiting for hardware before \
                     the window (find the loop, e.g. with QEMU's -d in_asm, and --skip it)",
                    regions.len(),
                    self.windows,
                    self.timeout.as_secs()
                ));
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Runs the image to the first execution of `v.addr` and reads register `v.reg` there
    /// (QEMU's gdb stub on a Unix socket).
    pub fn register_at(&self, v: &Verdict) -> Result<u32, String> {
        let (scratch, bin, mut args) = self.prepare("verdict")?;
        let sock = scratch.0.join("gdb.sock");
        args.extend([
            "-chardev".into(),
            format!("socket,id=gdb0,path={},server=on,wait=off", sock.display()),
            "-gdb".into(),
            "chardev:gdb0".into(),
            "-S".into(),
        ]);
        let _qemu = Self::spawn(bin, &args)?;
        let deadline = Instant::now() + Duration::from_secs(10);
        let mut s = loop {
            match UnixStream::connect(&sock) {
                Ok(s) => break s,
                Err(_) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(50))
                }
                Err(e) => return Err(format!("gdb stub: {e}")),
            }
        };
        s.set_read_timeout(Some(self.timeout))
            .map_err(|e| e.to_string())?;
        let reply = rsp(&mut s, &format!("Z0,{:x},2", v.addr & !1))?;
        if reply != "OK" {
            return Err(format!("gdb stub refused the breakpoint: {reply:?}"));
        }
        let stop = rsp(&mut s, "c")?;
        if !stop.starts_with('T') && !stop.starts_with('S') {
            return Err(format!("the image did not stop at {:#x}: {stop:?}", v.addr));
        }
        register(&rsp(&mut s, "g")?, v.reg)
    }
}

/// One gdb remote-protocol exchange: sends `$payload#checksum`, acknowledges and returns the
/// reply's payload.
fn rsp(s: &mut UnixStream, payload: &str) -> Result<String, String> {
    s.write_all(packet(payload).as_bytes())
        .map_err(|e| format!("gdb stub: {e}"))?;
    let mut buf = Vec::new();
    let mut byte = [0u8; 1];
    loop {
        let n = s.read(&mut byte).map_err(|e| format!("gdb stub: {e}"))?;
        if n == 0 {
            return Err("gdb stub closed the connection".into());
        }
        buf.push(byte[0]);
        if let Some(reply) = reply_payload(&buf) {
            s.write_all(b"+").map_err(|e| format!("gdb stub: {e}"))?;
            return Ok(reply);
        }
    }
}

/// `$payload#xx` with the modulo-256 sum of the payload's bytes.
fn packet(payload: &str) -> String {
    let sum = payload.bytes().fold(0u8, |a, b| a.wrapping_add(b));
    format!("${payload}#{sum:02x}")
}

/// The payload of the first complete packet in `buf` (acknowledgements before it skipped).
fn reply_payload(buf: &[u8]) -> Option<String> {
    let start = buf.iter().position(|&b| b == b'$')?;
    let hash = start + buf[start..].iter().position(|&b| b == b'#')?;
    (buf.len() >= hash + 3).then(|| String::from_utf8_lossy(&buf[start + 1..hash]).into_owned())
}

/// Register `index` of a `g` reply (32-bit registers, target byte order: little-endian hex).
fn register(g: &str, index: usize) -> Result<u32, String> {
    let hex = g
        .get(index * 8..index * 8 + 8)
        .ok_or_else(|| format!("register {index} is not in the gdb stub's reply"))?;
    let v = u32::from_str_radix(hex, 16).map_err(|_| format!("register {index}: {hex:?}"))?;
    Ok(v.swap_bytes())
}

/// The `rustc version ...` string the image's `.comment` section carries, if any (the one
/// that starts a string: LLVM's `clang LLVM (rustc version ...)` holds it too).
pub fn toolchain(elf: &[u8]) -> Option<String> {
    let key = b"\0rustc version ";
    let at = elf.windows(key.len()).position(|w| w == key)? + 1;
    let end = elf[at..].iter().position(|&b| b == 0)?;
    Some(String::from_utf8_lossy(&elf[at..at + end]).replacen(" version", "", 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::elf::tests::test_elf;
    use crate::elf::{EM_ARM, EM_RISCV};

    #[test]
    fn skips_and_returns_keep_the_instruction_width() {
        // Thumb: a 16-bit `bne` (f8 d1), a 32-bit `bl` (fe f7 ca fc), a push.
        let code = [0xf8, 0xd1, 0xfe, 0xf7, 0xca, 0xfc, 0x80, 0xb5];
        let elf = test_elf(EM_ARM, 0x1000_0000, &[(0x1000_0000, &code)], &[]);
        let e = Elf::parse(&elf).unwrap();
        let at = e.file_offset(0x1000_0000, 8).unwrap().unwrap();
        let p = patched(
            &elf,
            Core::M33,
            &[
                Patch::Skip(0x1000_0000),
                Patch::Skip(0x1000_0002),
                Patch::Return(0x1000_0006),
            ],
        )
        .unwrap();
        assert_eq!(
            p[at..at + 8],
            [0x00, 0xbf, 0xaf, 0xf3, 0x00, 0x80, 0x70, 0x47]
        );
        assert_eq!(p.len(), elf.len());
        // RV32: a 32-bit `bgez` (e3 df 05 fe), a compressed `c.j` (d9 bf), `addi sp` (41 11).
        let code = [0xe3, 0xdf, 0x05, 0xfe, 0xd9, 0xbf, 0x41, 0x11];
        let elf = test_elf(EM_RISCV, 0x1000_0000, &[(0x1000_0000, &code)], &[]);
        let p = patched(
            &elf,
            Core::Rv32,
            &[
                Patch::Skip(0x1000_0000),
                Patch::Skip(0x1000_0004),
                Patch::Return(0x1000_0006),
            ],
        )
        .unwrap();
        assert_eq!(
            p[at..at + 8],
            [0x13, 0x00, 0x00, 0x00, 0x01, 0x00, 0x82, 0x80]
        );
        // Explicit bytes; addresses outside the loaded bytes are refused.
        let p = patched(
            &elf,
            Core::Rv32,
            &[Patch::parse_bytes("10000002=aabb").unwrap()],
        )
        .unwrap();
        assert_eq!(p[at..at + 4], [0xe3, 0xdf, 0xaa, 0xbb]);
        assert!(patched(&elf, Core::Rv32, &[Patch::Skip(0x1000_0008)]).is_err());
        assert!(patched(&elf, Core::Rv32, &[Patch::Bytes(0x1000_0006, vec![0; 4])]).is_err());
        assert!(Patch::parse_bytes("10000000=abc").is_err());
        assert!(Patch::parse_bytes("10000000").is_err());
        assert!(Patch::parse_bytes("1000zz00=00").is_err());
    }

    #[test]
    fn the_m33_stub_loads_the_images_stack_and_entry() {
        let vt = [0x00, 0x20, 0x08, 0x20, 0x39, 0x01, 0x00, 0x10];
        let elf = test_elf(
            EM_ARM,
            0x1000_0139,
            &[(0x1000_0000, &vt)],
            &[("__vector_table", 0x1000_0000, 8)],
        );
        assert_eq!(initial_sp(&elf).unwrap(), 0x2008_2000);
        let stub = m33_stub(0x2008_2000, 0x1000_0138);
        let word = |i: usize| u32::from_le_bytes(stub[i * 4..i * 4 + 4].try_into().unwrap());
        assert_eq!(stub.len(), 40);
        // `ldr sp, [pc, #0]` at +0x18 reads +0x20 (pc reads 8 ahead); `ldr pc` +0x1c reads +0x24.
        assert_eq!((word(6), word(7)), (0xe59f_d000, 0xe59f_f000));
        assert_eq!((word(8), word(9)), (0x2008_2000, 0x1000_0139));
    }

    #[test]
    fn verdicts_and_gdb_packets_parse() {
        let v = Verdict::parse("0x10002d4c:r10=23", Core::M33).unwrap();
        assert_eq!((v.addr, v.reg, v.value), (0x1000_2d4c, 10, 23));
        let v = Verdict::parse("100039e8:x10=0x17", Core::Rv32).unwrap();
        assert_eq!((v.reg, v.value), (10, 23));
        assert!(Verdict::parse("100039e8:r10=23", Core::Rv32).is_err());
        assert!(Verdict::parse("100039e8:r16=23", Core::M33).is_err());
        assert!(Verdict::parse("100039e8=23", Core::M33).is_err());
        assert_eq!(packet("g"), "$g#67");
        assert_eq!(packet("Z0,10002d4c,2"), "$Z0,10002d4c,2#02");
        assert_eq!(reply_payload(b"+$OK#9a"), Some("OK".into()));
        assert_eq!(reply_payload(b"+$OK#9"), None);
        // r0 = 1, r1 = 0x17 in target (little-endian) byte order.
        assert_eq!(register("0100000017000000", 1).unwrap(), 23);
        assert_eq!(register("01000000", 0).unwrap(), 1);
        assert!(register("01000000", 1).is_err());
    }

    #[test]
    fn toolchain_and_carried_bytes_come_from_the_image() {
        let mut data = b"..proof-bytes..".to_vec();
        data.extend_from_slice(b"\0clang LLVM (rustc version 1.94.1 (e408947bf 2026-03-25))");
        data.extend_from_slice(b"\0rustc version 1.94.1 (e408947bf 2026-03-25)\0");
        let elf = test_elf(EM_RISCV, 0x1000_0000, &[(0x1000_0000, &data)], &[]);
        assert_eq!(
            toolchain(&elf).as_deref(),
            Some("rustc 1.94.1 (e408947bf 2026-03-25)")
        );
        assert_eq!(find_bytes(&elf, b"proof-bytes").unwrap(), Some(0x1000_0002));
        assert_eq!(find_bytes(&elf, b"other-bytes").unwrap(), None);
        assert_eq!(find_bytes(&elf, b"").unwrap(), None);
    }

    #[test]
    fn primask_reads_become_moves_of_zero() {
        // `mrs r3, primask` (ef f3 10 83) between two NOPs, and a lookalike at an odd
        // halfword that is not `mrs` (second halfword 0x8011).
        let code = [
            0x00, 0xbf, 0xef, 0xf3, 0x10, 0x83, 0x00, 0xbf, 0xef, 0xf3, 0x11, 0x80,
        ];
        let p = primask_reads(0x2000_0000, &code);
        assert_eq!(
            p,
            vec![Patch::Bytes(0x2000_0002, vec![0x4f, 0xf0, 0x00, 0x03])]
        );
        assert!(primask_reads(0, &code[..5]).is_empty());
    }

    /// The symbols of our board image in the test ELFs: name, address, size.
    const OUR_SYMBOLS: [(&str, u32, u32); 5] = [
        ("PSTK_HEADLESS", 0x1000_0100, 4),
        ("PSTK_ITERATIONS", 0x1000_0104, 4),
        ("pstk_measure_start", 0x1000_0201, 4),
        ("pstk_measure_end", 0x1000_0205, 4),
        ("pstk_verdict", 0x1000_0209, 4),
    ];

    #[test]
    fn our_images_are_found_by_their_symbols() {
        let words: Vec<u8> = [0u32, 3, 0xf3ef, 0]
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect();
        let syms = OUR_SYMBOLS;
        let elf = test_elf(EM_ARM, 0x1000_0000, &[(0x1000_0100, &words)], &syms);
        let o = own_image(&elf, Core::M33).unwrap().unwrap();
        assert_eq!(
            (o.start, o.end, o.iterations),
            (0x1000_0200, 0x1000_0204, 3)
        );
        assert_eq!(
            o.verdict,
            Verdict {
                addr: 0x1000_0208,
                reg: 0,
                value: 0
            }
        );
        assert_eq!(o.patches[0], Patch::Bytes(0x1000_0100, vec![1, 0, 0, 0]));
        assert_eq!(o.placement, "xip");
        let o = own_image(&elf, Core::Rv32).unwrap().unwrap();
        assert_eq!((o.verdict.reg, o.patches.len()), (10, 1));
        // Foreign images: none; ours without a window symbol or with a bad count: an error.
        let foreign = test_elf(EM_ARM, 0x1000_0000, &[(0x1000_0100, &words)], &syms[1..]);
        assert!(own_image(&foreign, Core::M33).unwrap().is_none());
        let partial = test_elf(EM_ARM, 0x1000_0000, &[(0x1000_0100, &words)], &syms[..4]);
        assert!(own_image(&partial, Core::M33).is_err());
        let mut zero = syms;
        zero[1].1 = 0x1000_0100;
        let bad = test_elf(EM_ARM, 0x1000_0000, &[(0x1000_0100, &words)], &zero);
        assert!(own_image(&bad, Core::M33).is_err());
    }

    /// [`our_images_are_found_by_their_symbols`]' image with a second segment, `.data`
    /// loaded from flash at `load` and run at `run`, holding `PSTK_PROOF_SRAM` (12 bytes).
    fn proof_sram_image(load: u32, run: u32) -> Vec<u8> {
        let words: Vec<u8> = [0u32, 3].iter().flat_map(|w| w.to_le_bytes()).collect();
        let proof = *b"..proof-bytes...";
        let mut syms = OUR_SYMBOLS.to_vec();
        syms.push(("PSTK_PROOF_SRAM", run + 2, 12));
        let elf = test_elf(
            EM_ARM,
            0x1000_0000,
            &[(0x1000_0100, &words), (load, &proof)],
            &syms,
        );
        crate::elf::tests::run_at(elf, 1, run)
    }

    #[test]
    fn a_proof_in_sram_is_named_and_flipped_at_its_load_image() {
        let elf = proof_sram_image(0x1000_0108, 0x2000_0000);
        let o = own_image(&elf, Core::M33).unwrap().unwrap();
        assert_eq!(
            (o.placement.as_str(), o.sram_proof_bytes),
            ("xip+proof-sram", 12)
        );
        // Found at its run address; the patch there changes the flash image QEMU loads.
        let at = find_bytes(&elf, b"proof-bytes").unwrap().unwrap();
        assert_eq!(at, 0x2000_0002);
        let p = patched(&elf, Core::M33, &[Patch::Bytes(at + 5, vec![b'!'])]).unwrap();
        let segs = Elf::parse(&p).unwrap().load_segments().unwrap();
        assert_eq!(segs[1].paddr, 0x1000_0108);
        assert_eq!(&segs[1].data, b"..proof!bytes...");
        // The load address is no run address: a patch there is refused.
        assert!(patched(&elf, Core::M33, &[Patch::Bytes(0x1000_010f, vec![0])]).is_err());
        // The symbol in flash, or in SRAM without a load image in flash: an error.
        let in_flash = proof_sram_image(0x1000_0108, 0x1000_0108);
        assert!(own_image(&in_flash, Core::M33).is_err());
        let no_flash_image = proof_sram_image(0x2000_0000, 0x2000_0000);
        assert!(own_image(&no_flash_image, Core::M33).is_err());
    }
}

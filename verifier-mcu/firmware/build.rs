//! Build-time choices for the firmware: the embedded proof file (checked against the enabled
//! backends), the heap size, the iteration count, the least stack the enabled verifiers need
//! (`_pstk_min_stack`, asserted by the link scripts and `mcu-run check-image`), and the link
//! scripts for the board and core.
//!
//! Environment:
//!
//! - `PSTK_PROOF`: path of a proof file to embed. Optional on the QEMU board (the runner
//!   loads proofs into the RAM proof slot instead); required on `rp2350`.
//! - `PSTK_HEAP_SIZE`: heap bytes (default 262144; at most 393216 on the RP2350).
//! - `PSTK_ITERATIONS`: measured verifications of the genuine proof (default 3, 1..=1000).
//! - feature `code-in-ram`: code and read-only data linked to SRAM, loaded from flash at reset
//!   (`link/code-in-ram-*.x`); `code-in-ram-membership` links the same way but keeps the
//!   membership AIR in the lean Plonky3 verifier (which `code-in-ram` leaves out).
//! - features `place-xip-ordered`, `place-hot-sram` (rp2350 only): the functions listed in
//!   `link/hot-set-BACKEND.txt` (`link/hot-set-multi.txt` for a build with several backends; all
//!   made by `mcu-run hot-set` from profiles) laid out together in flash,
//!   or copied to SRAM at reset (at most [`HOT_SRAM_BUDGET`] bytes, [`HOT_SRAM_BUDGET_MULTI`]
//!   with several backends); a generated script,
//!   [`placement_script`], which also fails the link when the list matches less than half
//!   of what it matched when it was made (a stale list; format in `runner/src/hot_list.rs`).
//! - feature `proof-in-sram` (rp2350 only): the embedded proof is the static
//!   `PSTK_PROOF_SRAM` in `.data.pstk_proof`, so the start-up code copies it from flash to
//!   SRAM with `.data` and the verifier reads it from SRAM, as a device that received it over
//!   a link would (the code and its measured window are the same; `mcu-run board` names the
//!   placement `...+proof-sram` by that symbol). It takes the proof's size of SRAM; the link
//!   fails when that leaves the stack less than `_pstk_min_stack` ([`proof_sram_script`]).
//! - `PSTK_SECURITY_REGIME`, `PSTK_MIN_SECURITY`: the verifier policy (default `strictest`,
//!   95 bits; regimes in `core/src/security.rs`).

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::PathBuf;

use picostark_core::{BackendId, Policy, ProofFile, Regime};

/// The hot-set list format, shared with `mcu-run hot-set` (which writes the lists and tests
/// the matching).
#[allow(dead_code)]
#[path = "../runner/src/hot_list.rs"]
mod hot_list;

const DEFAULT_HEAP: usize = 256 * 1024;
const MAX_HEAP_RP2350: usize = 384 * 1024;

/// The measured stack peaks, one line per backend: `backend bytes record` (`#` comments).
const STACK_PEAKS: &str = "stack-peaks.txt";

/// The largest stack peak measured for backend `b`'s verifiers (bytes) and the record it
/// came from, read from [`STACK_PEAKS`] (its header says how they were measured).
fn stack_peak(b: BackendId) -> (u32, String) {
    println!("cargo:rerun-if-changed={STACK_PEAKS}");
    let text =
        fs::read_to_string(STACK_PEAKS).unwrap_or_else(|e| fail(&format!("{STACK_PEAKS}: {e}")));
    let line = text
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").split_whitespace())
        .map(|mut w| (w.next(), w.next(), w.next()))
        .find(|(name, _, _)| *name == Some(b.name()));
    match line {
        Some((_, Some(bytes), Some(record))) => (
            bytes
                .parse()
                .unwrap_or_else(|_| fail(&format!("{STACK_PEAKS}: {b}: {bytes:?}"))),
            record.to_string(),
        ),
        _ => fail(&format!(
            "{STACK_PEAKS} has no measured stack peak for {b}: measure it (verifier-mcu/README.md) and add a line"
        )),
    }
}
/// The least stack of any image (what the link scripts asserted before the table).
const MIN_STACK_FLOOR: u32 = 16 * 1024;

fn fail(msg: &str) -> ! {
    eprintln!("\nerror: {msg}\n");
    std::process::exit(1);
}

fn feature(name: &str) -> bool {
    let var = format!(
        "CARGO_FEATURE_{}",
        name.to_ascii_uppercase().replace('-', "_")
    );
    env::var_os(var).is_some()
}

fn env_usize(name: &str, default: usize) -> usize {
    println!("cargo:rerun-if-env-changed={name}");
    match env::var(name) {
        Ok(v) => v
            .trim()
            .parse()
            .unwrap_or_else(|_| fail(&format!("{name}={v:?} is not a number"))),
        Err(_) => default,
    }
}

fn main() {
    let out = PathBuf::from(env::var("OUT_DIR").unwrap());
    let target = env::var("TARGET").unwrap();
    let arm = target.starts_with("thumbv8m");
    let riscv = target.starts_with("riscv32");
    let qemu = feature("qemu");
    let rp2350 = feature("rp2350");
    let host_check = !arm && !riscv;
    if !host_check && qemu == rp2350 {
        fail("enable exactly one board feature: `qemu` or `rp2350`");
    }

    let heap = env_usize("PSTK_HEAP_SIZE", DEFAULT_HEAP);
    if heap < 4096 || !heap.is_multiple_of(8) {
        fail("PSTK_HEAP_SIZE must be a multiple of 8, at least 4096");
    }
    if rp2350 && heap > MAX_HEAP_RP2350 {
        fail(&format!(
            "PSTK_HEAP_SIZE={heap} does not fit the RP2350's 520 KB SRAM next to the stack (max {MAX_HEAP_RP2350})"
        ));
    }
    let iterations = env_usize("PSTK_ITERATIONS", 3);
    if !(1..=1000).contains(&iterations) {
        fail("PSTK_ITERATIONS must be in 1..=1000");
    }

    // The published window's Hazard3 runs had no tracking wrapper around the heap (src/heap.rs).
    println!("cargo::rustc-check-cfg=cfg(heap_untracked)");
    if riscv && feature("stock-wf-window") {
        println!("cargo::rustc-cfg=heap_untracked");
    }

    let mut cfg = String::from("// Generated by build.rs.\n");
    writeln!(cfg, "pub const HEAP_SIZE: usize = {heap};").unwrap();
    writeln!(cfg, "pub const ITERATIONS: u32 = {iterations};").unwrap();
    println!("cargo:rerun-if-env-changed=PSTK_SECURITY_REGIME");
    let regime = match env::var("PSTK_SECURITY_REGIME") {
        Ok(name) => Regime::from_name(name.trim()).unwrap_or_else(|| {
            let known: Vec<&str> = Regime::ALL.iter().map(|r| r.name()).collect();
            fail(&format!(
                "PSTK_SECURITY_REGIME={name:?} is not one of {}",
                known.join(", ")
            ))
        }),
        Err(_) => Policy::DEFAULT_REGIME,
    };
    let min_security = env_usize(
        "PSTK_MIN_SECURITY",
        Policy::DEFAULT_MIN_SECURITY_BITS as usize,
    );
    if min_security > 256 {
        fail("PSTK_MIN_SECURITY must be at most 256");
    }
    writeln!(
        cfg,
        "pub const SECURITY_REGIME: picostark_core::Regime = picostark_core::Regime::{regime:?};"
    )
    .unwrap();
    writeln!(cfg, "pub const MIN_SECURITY_BITS: u32 = {min_security};").unwrap();

    let proof_in_sram = feature("proof-in-sram");
    if proof_in_sram && !rp2350 && !host_check {
        fail("proof-in-sram is an rp2350 image feature (the QEMU board reads proofs from its RAM slot)");
    }
    // The embedded proof's bytes when they go to SRAM (for the link checks below).
    let mut proof_sram_len = None;
    println!("cargo:rerun-if-env-changed=PSTK_PROOF");
    match env::var("PSTK_PROOF") {
        Ok(path) => {
            let path = fs::canonicalize(&path)
                .unwrap_or_else(|e| fail(&format!("PSTK_PROOF={path}: {e}")));
            println!("cargo:rerun-if-changed={}", path.display());
            let bytes = fs::read(&path)
                .unwrap_or_else(|e| fail(&format!("PSTK_PROOF={}: {e}", path.display())));
            let file = ProofFile::parse(&bytes).unwrap_or_else(|e| {
                fail(&format!(
                    "PSTK_PROOF={} is not a valid proof file: {e}",
                    path.display()
                ))
            });
            let backend = file.header.backend;
            if !backend_enabled(backend) {
                fail(&format!(
                    "PSTK_PROOF={} is a `{backend}` proof, but the firmware feature `{backend}` is not enabled \
                     (build with --features {backend})",
                    path.display()
                ));
            }
            let path_str = path.display().to_string();
            if proof_in_sram {
                // A writable section: the runtime's `.data` pattern takes it, so it runs from
                // SRAM and loads from flash. Read-only to the firmware all the same (the
                // tampered check flips a byte in a copy, as for a proof in flash).
                writeln!(
                    cfg,
                    "#[no_mangle]\n#[used]\n#[link_section = \".data.pstk_proof\"]\n\
                     pub static PSTK_PROOF_SRAM: [u8; {len}] = *include_bytes!({path_str:?});\n\
                     pub static EMBEDDED_PROOF: &[u8] = &PSTK_PROOF_SRAM;",
                    len = bytes.len()
                )
                .unwrap();
                proof_sram_len = Some(bytes.len());
            } else {
                writeln!(
                    cfg,
                    "pub static EMBEDDED_PROOF: &[u8] = include_bytes!({path_str:?});"
                )
                .unwrap();
            }
            let publics: Vec<String> = file.public_inputs.iter().map(|v| v.to_string()).collect();
            writeln!(
                cfg,
                "pub const EXPECTED: Option<(picostark_core::AirId, u8, &[u64])> = \
                 Some((picostark_core::AirId::{:?}, {}, &[{}]));",
                file.header.air,
                file.header.log_n,
                publics.join(", ")
            )
            .unwrap();
        }
        Err(_) => {
            if rp2350 {
                fail("the rp2350 board has no proof slot: set PSTK_PROOF=FILE to embed a proof");
            }
            cfg.push_str("pub static EMBEDDED_PROOF: &[u8] = &[];\n");
            cfg.push_str("pub const EXPECTED: Option<(picostark_core::AirId, u8, &[u64])> = None;\n");
        }
    }
    fs::write(out.join("config.rs"), cfg).unwrap();

    // Link scripts: the board's memory.x, then the runtime's link.x (cortex-m-rt, riscv-rt)
    // or our riscv.x (the RP2350's boot block; and every RV32 code-in-ram build, whose
    // placement script must come before the script it changes).
    let code_in_ram = feature("code-in-ram") || feature("code-in-ram-membership");
    let placement = match (feature("place-xip-ordered"), feature("place-hot-sram")) {
        (false, false) => None,
        (true, false) => Some(Placement::XipOrdered),
        (false, true) => Some(Placement::HotSram),
        (true, true) => fail("place-xip-ordered and place-hot-sram exclude each other"),
    };
    if placement.is_some() && (code_in_ram || qemu) {
        fail("place-xip-ordered and place-hot-sram are rp2350 code placements; code-in-ram already runs all code from SRAM");
    }
    let (memory, scripts): (&str, &[&str]) = match (qemu, arm, code_in_ram) {
        (true, true, _) => ("memory-qemu-m33.x", &["link.x"]),
        (true, false, false) => ("memory-qemu-rv32.x", &["memory.x", "link.x"]),
        (true, false, true) => (
            "memory-qemu-rv32.x",
            &["memory.x", "code-in-ram-riscv.x", "riscv.x"],
        ),
        (false, true, _) => ("memory-rp2350-arm.x", &["link.x"]),
        (false, false, false) if placement.is_some() => (
            "memory-rp2350-riscv.x",
            &["memory.x", "placement.x", "riscv.x"],
        ),
        (false, false, false) => ("memory-rp2350-riscv.x", &["memory.x", "riscv.x"]),
        (false, false, true) => (
            "memory-rp2350-riscv.x",
            &["memory.x", "code-in-ram-riscv.x", "riscv.x"],
        ),
    };
    if !host_check {
        let link = PathBuf::from("link");
        let read = |name: &str| {
            let path = link.join(name);
            println!("cargo:rerun-if-changed={}", path.display());
            fs::read_to_string(&path).unwrap()
        };
        // Read first by every script set (link.x includes it; riscv.x and
        // code-in-ram-riscv.x follow it on the command line), so the assignment is visible
        // to every ASSERT.
        let (min_stack, why) = min_stack();
        let mut memory_x = format!(
            "/* Generated by build.rs: the least stack of this build, twice the largest stack \
             peak of its verifiers rounded up to 1 KiB, at least {MIN_STACK_FLOOR} B; {why}. */\n\
             _pstk_min_stack = {min_stack};\n\n"
        );
        memory_x.push_str(&read(memory));
        if code_in_ram && arm {
            // link.x includes memory.x before its own SECTIONS, so these patterns take code
            // and read-only data before link.x's do.
            memory_x.push_str(&read("code-in-ram-arm.x"));
        }
        if let Some(len) = proof_sram_len {
            memory_x.push_str(&proof_sram_script(arm, len));
        }
        if let Some(p) = placement {
            // One list per image kind, each made for those images' sizes (README of
            // results/placement): one per backend for the one-backend images (each spends
            // the SRAM budget on its own verifier's hot code), one for several backends.
            let enabled: Vec<BackendId> = BackendId::ALL
                .iter()
                .copied()
                .filter(|b| backend_enabled(*b))
                .collect();
            let (list, budget) = match enabled[..] {
                [one] => (format!("hot-set-{}.txt", one.name()), HOT_SRAM_BUDGET),
                _ => ("hot-set-multi.txt".into(), HOT_SRAM_BUDGET_MULTI),
            };
            let script = placement_script(p, arm, &list, &read(&list), budget);
            if arm {
                // Read before link.x's SECTIONS: the hot patterns win, as for code-in-ram.
                memory_x.push_str(&script);
            } else {
                fs::write(out.join("placement.x"), script).unwrap();
            }
        }
        fs::write(out.join("memory.x"), memory_x).unwrap();
        for name in scripts.iter().filter(|n| link.join(n).exists()) {
            fs::write(out.join(name), read(name)).unwrap();
        }
        println!("cargo:rustc-link-search={}", out.display());
        for name in scripts {
            println!("cargo:rustc-link-arg=-T{name}");
        }
    }
}

/// The most SRAM `place-hot-sram` may take for code in a one-backend image (issue 26's limit).
const HOT_SRAM_BUDGET: u32 = 32 * 1024;
/// ... and in an image of several backends, whose one list serves every verifier it holds
/// (results/placement/README.md, "The hot set").
const HOT_SRAM_BUDGET_MULTI: u32 = 48 * 1024;

#[derive(Clone, Copy)]
enum Placement {
    /// The hot set first after `.text`, contiguous in flash (no SRAM).
    XipOrdered,
    /// The hot set in SRAM, copied from flash at reset with `.data`.
    HotSram,
}

/// The link script of a code placement: an output section `.hot_text` holding the input
/// sections of `hot_set`'s patterns (first word of each non-comment line), between the
/// symbols `__pstk_hot_start` and `__pstk_hot_end` (`mcu-run board` reads them), and the
/// checks. It is read before the runtime's script, so its patterns take those functions from
/// `.text` (as `code-in-ram-*.x` do). `hot-sram` follows code-in-ram's mechanism: inserted
/// after `.data` with its load address at the same offset, so the start-up `.data` copy moves
/// it (cortex-m-rt and riscv.x define the copy's end after `.data` for this).
fn placement_script(p: Placement, arm: bool, name: &str, hot_set: &str, budget: u32) -> String {
    let mut patterns = hot_list::patterns(hot_set);
    // RV32: `memmove` (src/mem_rv32.rs) ends in a direct `j memcpy` (a JAL, +-1 MiB), which
    // cannot reach from flash to SRAM or back: the two stay in one region.
    const PAIR: [&str; 2] = [".text.memcpy", ".text.memmove"];
    if !arm && patterns.iter().any(|p| PAIR.contains(p)) {
        for q in PAIR {
            if !patterns.contains(&q) {
                patterns.push(q);
            }
        }
    }
    if patterns.is_empty() {
        fail("the hot-set list has no patterns (make it with `mcu-run hot-set`)");
    }
    let (sdata, edata, sidata) = if arm {
        ("__sdata", "__edata", "__sidata")
    } else {
        ("_sdata", "_edata", "_sidata")
    };
    let mut s = String::from(
        "/* Generated by build.rs from link/hot-set*.txt: code placement (issue 26). */\nSECTIONS\n{\n",
    );
    match p {
        Placement::XipOrdered => s.push_str("  .hot_text : ALIGN(8)\n  {\n"),
        Placement::HotSram => s.push_str(
            "  .hot_text : AT(LOADADDR(.data) + (ADDR(.hot_text) - ADDR(.data))) ALIGN(4)\n  {\n",
        ),
    }
    s.push_str("    __pstk_hot_start = .;\n");
    for p in &patterns {
        writeln!(s, "    *({p});").unwrap();
    }
    s.push_str("    . = ALIGN(8);\n    __pstk_hot_end = .;\n");
    match p {
        Placement::XipOrdered => s.push_str("  } > FLASH\n} INSERT AFTER .text;\n"),
        Placement::HotSram => s.push_str("  } > RAM\n} INSERT AFTER .data;\n"),
    }
    writeln!(
        s,
        "ASSERT(__pstk_hot_end > __pstk_hot_start, \"picostark: placement: no function of link/{name} is in this build\");"
    )
    .unwrap();
    // A list gone stale (functions renamed or moved since it was made) matches less: fail
    // below half of what it matched in the images it was made for.
    let core = if arm { "m33" } else { "rv32" };
    let enabled: Vec<&str> = BackendId::ALL
        .iter()
        .filter(|b| backend_enabled(**b))
        .map(|b| b.name())
        .collect();
    match hot_list::expected_bytes(hot_set, core, &enabled) {
        Ok(Some(e)) => writeln!(
            s,
            "ASSERT(__pstk_hot_end - __pstk_hot_start >= {half}, \"picostark: placement: link/{name} matched less than half of the {bytes} B it matched in a {core} image of {backends} when made: the list is stale, regenerate it (results/placement/README.md)\");",
            half = e.bytes / 2,
            bytes = e.bytes,
            backends = e.backends.join(","),
        )
        .unwrap(),
        Ok(None) => println!(
            "cargo:warning=link/{name} records no image of {core} with backends within {enabled:?}: the hot section's size is not checked"
        ),
        Err(e) => fail(&format!("link/{name}: {e}")),
    }
    match p {
        Placement::XipOrdered => s.push_str(
            "ASSERT(__pstk_hot_start >= ORIGIN(FLASH) && __pstk_hot_end <= ORIGIN(FLASH) + LENGTH(FLASH), \"picostark: xip-ordered: .hot_text is not in flash\");\n",
        ),
        Placement::HotSram => {
            writeln!(
                s,
                "ASSERT(__pstk_hot_start >= ORIGIN(RAM) && __pstk_hot_end <= ORIGIN(RAM) + LENGTH(RAM), \"picostark: hot-sram: .hot_text is not in RAM\");\n\
                 ASSERT(__pstk_hot_end - __pstk_hot_start <= {budget}, \"picostark: hot-sram: the hot set takes more than {budget} B of SRAM\");\n\
                 ASSERT(LOADADDR(.hot_text) >= ORIGIN(FLASH) && LOADADDR(.hot_text) + SIZEOF(.hot_text) <= ORIGIN(FLASH) + LENGTH(FLASH), \"picostark: hot-sram: .hot_text's load address is not in flash\");\n\
                 ASSERT(__pstk_hot_start >= {sdata} && __pstk_hot_end <= {edata} && LOADADDR(.hot_text) - {sidata} == __pstk_hot_start - {sdata}, \"picostark: hot-sram: .hot_text is not covered by the .data copy\");"
            )
            .unwrap();
        }
    }
    s
}

/// The link checks of a `proof-in-sram` image (appended to the generated memory.x, which
/// every script set reads): the proof (`len` bytes) inside the start-up code's `.data` copy,
/// and the stack still at least `_pstk_min_stack` with it in SRAM, each with a message that
/// names the proof (the board's own stack check fails beside it).
fn proof_sram_script(arm: bool, len: usize) -> String {
    let stack_bottom = if arm { "_stack_end" } else { "_estack" };
    format!(
        "\n/* Generated by build.rs: feature `proof-in-sram`, the embedded proof ({len} B) in \
         .data, loaded from flash and copied to SRAM at reset. */\n\
         ASSERT(PSTK_PROOF_SRAM >= __sdata && PSTK_PROOF_SRAM + {len} <= __edata, \
         \"picostark: proof-in-sram: the embedded proof is not inside the start-up .data copy\");\n\
         ASSERT(_stack_start - {stack_bottom} >= _pstk_min_stack, \
         \"picostark: proof-in-sram: the embedded proof's {len} B of SRAM leave less stack than \
         _pstk_min_stack above .data, .bss (with the heap) and .uninit: lower PSTK_HEAP_SIZE, or \
         embed the proof in flash (build without proof-in-sram)\");\n"
    )
}

/// Twice the largest stack peak of the backends this build verifies (a backend counts when
/// any path takes its proofs, [`backend_enabled`]; the bring-up and hash-cal paths take every
/// backend's, so they get the largest), rounded up to 1 KiB, at least [`MIN_STACK_FLOOR`];
/// and where that came from, for the generated script's comment.
fn min_stack() -> (u32, String) {
    BackendId::ALL
        .iter()
        .filter(|b| backend_enabled(**b))
        .map(|&b| (b, stack_peak(b)))
        .max_by_key(|(_, (peak, _))| *peak)
        .map(|(b, (peak, record))| {
            let twice = (2 * peak).div_ceil(1024) * 1024;
            (
                twice,
                format!("{b} peak {peak} B (QEMU emulator, {record})"),
            )
        })
        .filter(|(twice, _)| *twice > MIN_STACK_FLOOR)
        .unwrap_or_else(|| (MIN_STACK_FLOOR, "the floor".into()))
}

/// Whether a path in this build verifies `b` proofs: its backend feature, or a reference
/// path that takes them (`src/stock.rs`), or the bring-up verifier.
fn backend_enabled(b: BackendId) -> bool {
    let stock = (b == BackendId::WfGoldilocks && feature("stock-wf"))
        || (b.protocol() == "plonky3" && feature("stock-p3"));
    feature("bringup-verifier") || feature("hash-cal") || stock || feature(b.name())
}

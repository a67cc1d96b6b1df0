//! `mcu-run check-image`: checks an RP2350 firmware image (ELF, and its UF2 when given)
//! before it meets a board, for the mistakes that only show on silicon (issue 18: an M33
//! image whose stack bottom was a flash address passed every QEMU check).
//!
//! ELF: the layout symbols put the stack (bottom and initial stack pointer), `.data`, `.bss`
//! and the heap inside the RP2350's 520 KB SRAM, the heap inside `.bss` and below the stack,
//! at least `_pstk_min_stack` of stack (the image's own minimum, which `firmware/build.rs`
//! derives from the measured stack peaks of the enabled backends; never below
//! [`MIN_STACK`]); the flash load image starts at the flash base and holds a
//! well-formed IMAGE_DEF block in its first 4 KB whose image type is the core's (Arm Secure
//! EXE / RISC-V EXE, RP2350); on Arm the vector table's initial SP is the stack top and the
//! reset handler a Thumb address inside the image, on RISC-V the entry is the image start.
//! Every segment copied from flash to SRAM at reset (`.data`; code and read-only data in the
//! `code-in-ram` build) loads from flash, runs in SRAM, and lies inside the range the
//! start-up code copies (`[sdata, edata)` from `sidata`) at the same offset.
//! UF2: the RP2350-E10 block first, then blocks numbered `0..N` of `N` with the core's family
//! id, 256-byte payloads at contiguous addresses from the flash base, whose bytes are exactly
//! the ELF's flash load image (zero-padded to the last page).
//!
//! Every failed check is reported, not only the first.

use std::fmt;

use crate::elf::{Elf, EM_ARM, EM_RISCV};
use crate::uf2::{self, FAMILY_RP2350_ARM_S, FAMILY_RP2350_RISCV, FLAG_FAMILY_ID};

/// The RP2350's SRAM: SRAM0-9, 520 KB.
pub const RAM_START: u32 = 0x2000_0000;
pub const RAM_END: u32 = RAM_START + 520 * 1024;
/// Flash (XIP) base and the window the boot ROM searches for the IMAGE_DEF block.
pub const FLASH_START: u32 = uf2::FLASH_START;
pub const IMAGE_DEF_WINDOW: u32 = 4096;
/// The floor under an image's `_pstk_min_stack` (`firmware/build.rs`, `MIN_STACK_FLOOR`): a
/// smaller value in an image means its minimum was not set by our build.
pub const MIN_STACK: u32 = 16 * 1024;
/// The symbol holding the least stack the image's verifiers need (bytes).
pub const MIN_STACK_SYMBOL: &str = "_pstk_min_stack";

const BLOCK_MARKER_START: u32 = 0xffff_ded3;
const BLOCK_MARKER_END: u32 = 0xab12_3579;
const ITEM_IMAGE_TYPE: u8 = 0x42;
const ITEM_LAST: u8 = 0xff;
/// IMAGE_TYPE values (RP2350 datasheet, "Image type item"): EXE, chip RP2350, Secure, CPU.
pub const IMAGE_TYPE_ARM_SECURE_EXE: u16 = 0x1021;
pub const IMAGE_TYPE_RISCV_EXE: u16 = 0x1121;

/// The core an image is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    Arm,
    Riscv,
}

impl Family {
    /// Its `--family` name.
    pub fn name(self) -> &'static str {
        match self {
            Family::Arm => "rp2350-arm",
            Family::Riscv => "rp2350-riscv",
        }
    }

    pub fn uf2_family(self) -> u32 {
        match self {
            Family::Arm => FAMILY_RP2350_ARM_S,
            Family::Riscv => FAMILY_RP2350_RISCV,
        }
    }

    fn machine(self) -> u16 {
        match self {
            Family::Arm => EM_ARM,
            Family::Riscv => EM_RISCV,
        }
    }

    fn image_type(self) -> u16 {
        match self {
            Family::Arm => IMAGE_TYPE_ARM_SECURE_EXE,
            Family::Riscv => IMAGE_TYPE_RISCV_EXE,
        }
    }

    /// Layout symbol names: (stack bottom, data start, data end, bss start, bss end). The
    /// initial stack pointer is `_stack_start` on both.
    fn symbols(self) -> [&'static str; 5] {
        match self {
            // cortex-m-rt's link.x
            Family::Arm => ["_stack_end", "__sdata", "__edata", "__sbss", "__ebss"],
            // link/riscv.x (riscv-rt's names)
            Family::Riscv => ["_estack", "_sdata", "_edata", "_sbss", "_ebss"],
        }
    }
}

/// What the checker found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Facts about a passing image (for the log).
    pub notes: Vec<String>,
    pub failures: Vec<String>,
}

impl Report {
    pub fn ok(&self) -> bool {
        self.failures.is_empty()
    }

    fn check(&mut self, ok: bool, failure: impl FnOnce() -> String) {
        if !ok {
            self.failures.push(failure());
        }
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for n in &self.notes {
            writeln!(f, "  {n}")?;
        }
        for e in &self.failures {
            writeln!(f, "  FAIL: {e}")?;
        }
        Ok(())
    }
}

fn in_ram(a: u32) -> bool {
    (RAM_START..=RAM_END).contains(&a)
}

/// Checks `elf` (and `uf2` when given) for `family`.
pub fn check(elf: &[u8], uf2: Option<&[u8]>, family: Family) -> Report {
    let mut r = Report::default();
    let e = match Elf::parse(elf) {
        Ok(e) => e,
        Err(err) => {
            r.failures.push(err.to_string());
            return r;
        }
    };
    r.check(e.machine == family.machine(), || {
        format!(
            "ELF machine {} is not the {family:?} core's ({})",
            e.machine,
            family.machine()
        )
    });
    check_layout(&e, family, &mut r);
    let image = match load_image(&e) {
        Ok(image) => image,
        Err(err) => {
            r.failures.push(err);
            return r;
        }
    };
    r.notes.push(format!(
        "flash image {:#010x}..{:#010x} ({} bytes)",
        FLASH_START,
        FLASH_START as usize + image.len(),
        image.len()
    ));
    check_image_def(&image, family, &mut r);
    check_entry(&e, &image, family, &mut r);
    check_copied(&e, family, &mut r);
    if let Some(uf2) = uf2 {
        check_uf2(uf2, &image, family, &mut r);
    }
    r
}

/// Stack, data, bss and heap inside SRAM, in that order, without overlap.
fn check_layout(e: &Elf<'_>, family: Family, r: &mut Report) {
    let mut get = |name: &str| match e.symbol(name) {
        Ok(Some(v)) => Some(v),
        _ => {
            r.failures.push(format!("no symbol {name}"));
            None
        }
    };
    let [bottom, sdata, edata, sbss, ebss] = family.symbols().map(&mut get);
    let top = get("_stack_start");
    let heap = match e.symbol_containing("8HEAP_MEM") {
        Ok(Some(h)) => Some(h),
        _ => {
            r.failures.push("no heap symbol (heap::HEAP_MEM)".into());
            None
        }
    };
    // Without the image's own minimum the floor is still checked.
    let min_stack = match e.symbol(MIN_STACK_SYMBOL) {
        Ok(Some(v)) if v >= MIN_STACK => v,
        Ok(Some(v)) => {
            r.failures.push(format!(
                "{MIN_STACK_SYMBOL} is {v}, below the {MIN_STACK}-byte floor: not set by firmware/build.rs"
            ));
            MIN_STACK
        }
        _ => {
            r.failures.push(format!(
                "no symbol {MIN_STACK_SYMBOL} (the least stack of the image's verifiers, set by firmware/build.rs)"
            ));
            MIN_STACK
        }
    };
    let (Some(bottom), Some(top), Some(sdata), Some(edata), Some(sbss), Some(ebss), Some(heap)) =
        (bottom, top, sdata, edata, sbss, ebss, heap)
    else {
        return;
    };
    r.check(in_ram(bottom), || {
        format!("stack bottom {bottom:#010x} is not a RAM address (SRAM {RAM_START:#010x}..{RAM_END:#010x})")
    });
    r.check(in_ram(top) && top > RAM_START, || {
        format!("initial stack pointer {top:#010x} is not in RAM")
    });
    r.check(top % 8 == 0, || {
        format!("initial stack pointer {top:#010x} is not 8-byte aligned")
    });
    r.check(top >= bottom && top - bottom >= min_stack, || {
        format!(
            "stack {bottom:#010x}..{top:#010x} is {} bytes, less than {min_stack} ({MIN_STACK_SYMBOL})",
            top as i64 - bottom as i64
        )
    });
    r.check(in_ram(sdata) && in_ram(edata) && sdata <= edata, || {
        format!(".data {sdata:#010x}..{edata:#010x} is not in RAM")
    });
    r.check(in_ram(sbss) && in_ram(ebss) && sbss <= ebss, || {
        format!(".bss {sbss:#010x}..{ebss:#010x} is not in RAM")
    });
    r.check(ebss <= bottom && edata <= bottom, || {
        format!(
            ".data/.bss end {:#010x} reaches into the stack (bottom {bottom:#010x})",
            ebss.max(edata)
        )
    });
    let (heap_start, heap_size) = heap;
    let heap_end = heap_start as u64 + heap_size as u64;
    r.check(
        in_ram(heap_start) && heap_end <= RAM_END as u64 && heap_size > 0,
        || format!("heap {heap_start:#010x}+{heap_size} is not in RAM"),
    );
    r.check(heap_start >= sbss && heap_end <= ebss as u64, || {
        format!("heap {heap_start:#010x}+{heap_size} is not inside .bss {sbss:#010x}..{ebss:#010x}")
    });
    r.check(heap_end <= bottom as u64, || {
        format!("heap end {heap_end:#x} is above the stack bottom {bottom:#010x}")
    });
    let used = top.saturating_sub(sdata.min(sbss));
    r.check(used <= RAM_END - RAM_START, || {
        format!("data + bss (heap) + stack take {used} bytes, more than the 520 KB of SRAM")
    });
    r.notes.push(format!(
        "RAM: data {} B, bss {} B (heap {heap_size} B), stack {bottom:#010x}..{top:#010x} ({} B, at least {min_stack} B)",
        edata.saturating_sub(sdata),
        ebss.saturating_sub(sbss),
        top.saturating_sub(bottom)
    ));
}

/// Segments copied from flash to SRAM at reset lie inside the start-up code's copy.
fn check_copied(e: &Elf<'_>, family: Family, r: &mut Report) {
    let segments = match e.copied_segments() {
        Ok(s) if s.is_empty() => return,
        Ok(s) => s,
        Err(err) => {
            r.failures.push(err.to_string());
            return;
        }
    };
    let [_, sdata, edata, ..] = family.symbols();
    let sidata = match family {
        Family::Arm => "__sidata",
        Family::Riscv => "_sidata",
    };
    let (Ok(Some(sdata)), Ok(Some(edata)), Ok(Some(sidata))) =
        (e.symbol(sdata), e.symbol(edata), e.symbol(sidata))
    else {
        r.failures.push(format!(
            "segments are copied to SRAM at reset, but there is no {sdata}, {edata} or {sidata}"
        ));
        return;
    };
    let mut copied = 0u64;
    for (vaddr, paddr, len) in segments {
        let end = vaddr as u64 + len as u64;
        r.check(in_ram(vaddr) && end <= RAM_END as u64, || {
            format!("segment loaded at {paddr:#010x} runs at {vaddr:#010x}, not in SRAM")
        });
        r.check(
            vaddr >= sdata
                && end <= edata as u64
                && paddr.wrapping_sub(sidata) == vaddr.wrapping_sub(sdata),
            || {
                format!(
                    "segment {vaddr:#010x}+{len} (loaded at {paddr:#010x}) is not what the start-up \
                     code copies ({sdata:#010x}..{edata:#010x} from {sidata:#010x})"
                )
            },
        );
        copied += len as u64;
    }
    r.notes.push(format!(
        "copied to SRAM at reset: {copied} B ({sdata:#010x}..{edata:#010x} from {sidata:#010x})"
    ));
}

/// The flash load image from the flash base: every PT_LOAD byte whose load address is in
/// flash, gaps zero-filled. Bytes to be loaded anywhere else cannot be flashed.
pub fn load_image(e: &Elf<'_>) -> Result<Vec<u8>, String> {
    let segments = e.load_segments().map_err(|err| err.to_string())?;
    let mut image = Vec::new();
    for s in &segments {
        let end = s.paddr as u64 + s.data.len() as u64;
        if s.paddr < FLASH_START || end > uf2::FLASH_END as u64 {
            return Err(format!(
                "a loadable segment at {:#010x} ({} bytes) is not in flash",
                s.paddr,
                s.data.len()
            ));
        }
        let at = (s.paddr - FLASH_START) as usize;
        if image.len() < at + s.data.len() {
            image.resize(at + s.data.len(), 0);
        }
        image[at..at + s.data.len()].copy_from_slice(&s.data);
    }
    if segments.first().map(|s| s.paddr) != Some(FLASH_START) {
        return Err(format!(
            "the flash image does not start at {FLASH_START:#010x}"
        ));
    }
    Ok(image)
}

fn word_at(image: &[u8], off: usize) -> Option<u32> {
    image
        .get(off..off.checked_add(4)?)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// A block the boot ROM would find: its offset in the image and its items `(type, words)`.
#[derive(Debug, PartialEq, Eq)]
pub struct PicobinBlock {
    pub offset: usize,
    pub items: Vec<(u8, Vec<u32>)>,
    /// Relative link to the next block of the loop (0: the block links to itself).
    pub link: u32,
}

/// Parses the block starting at `off` (its start marker), bounded by the image.
pub fn parse_block(image: &[u8], off: usize) -> Result<PicobinBlock, String> {
    if word_at(image, off) != Some(BLOCK_MARKER_START) {
        return Err("no block start marker".into());
    }
    let mut items = Vec::new();
    let mut at = off + 4;
    let mut words = 0u32;
    loop {
        let w = word_at(image, at).ok_or("block runs past the image")?;
        let kind = (w & 0xff) as u8;
        let size = if kind & 0x80 != 0 {
            (w >> 8) & 0xffff
        } else {
            (w >> 8) & 0xff
        };
        if kind == ITEM_LAST {
            if size != words {
                return Err(format!(
                    "LAST item says {size} words of items, the block has {words}"
                ));
            }
            let link = word_at(image, at + 4).ok_or("block runs past the image")?;
            if word_at(image, at + 8) != Some(BLOCK_MARKER_END) {
                return Err("no block end marker after the LAST item".into());
            }
            return Ok(PicobinBlock {
                offset: off,
                items,
                link,
            });
        }
        if size == 0 {
            return Err(format!("item {kind:#04x} has size 0"));
        }
        let body = (1..size as usize)
            .map(|i| word_at(image, at + 4 * i).ok_or("block runs past the image"))
            .collect::<Result<Vec<u32>, _>>()?;
        let mut all = vec![w];
        all.extend(body);
        items.push((kind, all));
        words += size;
        at += 4 * size as usize;
    }
}

/// The IMAGE_DEF block: in the first 4 KB, well formed, one IMAGE_TYPE item naming the core.
fn check_image_def(image: &[u8], family: Family, r: &mut Report) {
    let window = image.len().min(IMAGE_DEF_WINDOW as usize);
    let found = (0..window)
        .step_by(4)
        .find(|&off| word_at(image, off) == Some(BLOCK_MARKER_START));
    let Some(off) = found else {
        r.failures.push(format!(
            "no IMAGE_DEF block (start marker {BLOCK_MARKER_START:#010x}) in the first {IMAGE_DEF_WINDOW} bytes of flash"
        ));
        return;
    };
    let block = match parse_block(image, off) {
        Ok(b) => b,
        Err(err) => {
            r.failures
                .push(format!("block at flash offset {off:#x}: {err}"));
            return;
        }
    };
    r.check(block.offset + 20 <= IMAGE_DEF_WINDOW as usize, || {
        format!("IMAGE_DEF block at offset {off:#x} ends past the first 4 KB")
    });
    r.check(block.link == 0, || {
        format!(
            "IMAGE_DEF block links to another block ({:#x}); this image has one",
            block.link
        )
    });
    let types: Vec<u16> = block
        .items
        .iter()
        .filter(|(kind, _)| *kind == ITEM_IMAGE_TYPE)
        .map(|(_, w)| (w[0] >> 16) as u16)
        .collect();
    let shown: Vec<String> = types.iter().map(|t| format!("{t:#06x}")).collect();
    let shown = shown.join(",");
    r.check(types == [family.image_type()], || {
        format!(
            "IMAGE_DEF image type [{shown}], expected [{:#06x}] ({family:?} EXE for the RP2350)",
            family.image_type()
        )
    });
    r.notes.push(format!(
        "IMAGE_DEF at {:#010x}, image type [{shown}]",
        FLASH_START as usize + off
    ));
}

/// Arm: the vector table at the image start. RISC-V: entry at the image start.
fn check_entry(e: &Elf<'_>, image: &[u8], family: Family, r: &mut Report) {
    let image_end = FLASH_START as u64 + image.len() as u64;
    match family {
        Family::Arm => {
            let (Some(sp), Some(reset)) = (word_at(image, 0), word_at(image, 4)) else {
                r.failures.push("no vector table at the image start".into());
                return;
            };
            r.check(in_ram(sp) && sp > RAM_START && sp % 8 == 0, || {
                format!("vector table: initial SP {sp:#010x} is not an 8-aligned RAM address")
            });
            if let Ok(Some(top)) = e.symbol("_stack_start") {
                r.check(sp == top, || {
                    format!("vector table: initial SP {sp:#010x} is not _stack_start {top:#010x}")
                });
            }
            let target = (reset & !1) as u64;
            r.check(
                reset & 1 == 1 && target >= FLASH_START as u64 && target < image_end,
                || format!("vector table: reset handler {reset:#010x} is not a Thumb address in the flash image"),
            );
            r.check(e.entry == reset, || {
                format!(
                    "ELF entry {:#010x} is not the reset vector {reset:#010x}",
                    e.entry
                )
            });
            r.notes
                .push(format!("vector table: SP {sp:#010x}, reset {reset:#010x}"));
        }
        Family::Riscv => {
            r.check(e.entry == FLASH_START, || {
                format!(
                    "entry {:#010x} is not the image start {FLASH_START:#010x} (where the boot ROM enters a RISC-V image)",
                    e.entry
                )
            });
        }
    }
}

/// The UF2 file against the load image.
fn check_uf2(bytes: &[u8], image: &[u8], family: Family, r: &mut Report) {
    let blocks = match uf2::parse(bytes) {
        Ok(b) => b,
        Err(err) => {
            r.failures.push(err.to_string());
            return;
        }
    };
    let Some((first, rest)) = blocks.split_first() else {
        r.failures.push("empty UF2 file".into());
        return;
    };
    r.check(first.is_e10(), || {
        "UF2: the first block is not the RP2350-E10 block".into()
    });
    let image_blocks = if first.is_e10() { rest } else { &blocks[..] };
    let total = image_blocks.len() as u32;
    let mut payload = Vec::with_capacity(image_blocks.len() * 256);
    let mut bad = 0usize;
    for (i, b) in image_blocks.iter().enumerate() {
        let expected_addr = FLASH_START as u64 + 256 * i as u64;
        let problem = if b.flags != FLAG_FAMILY_ID {
            Some(format!(
                "flags {:#x}, expected {FLAG_FAMILY_ID:#x}",
                b.flags
            ))
        } else if b.family != family.uf2_family() {
            Some(format!(
                "family {:#010x}, expected {:#010x}",
                b.family,
                family.uf2_family()
            ))
        } else if b.number != i as u32 || b.total != total {
            Some(format!(
                "numbered {} of {}, expected {i} of {total}",
                b.number, b.total
            ))
        } else if b.addr as u64 != expected_addr {
            Some(format!(
                "address {:#010x}, expected {expected_addr:#010x} (contiguous from the flash base)",
                b.addr
            ))
        } else if b.payload_size != 256 {
            Some(format!("payload {} bytes, expected 256", b.payload_size))
        } else {
            None
        };
        if let Some(p) = problem {
            // Enough to see the pattern, not one line per block.
            if bad < 3 {
                r.failures.push(format!("UF2 block {}: {p}", i + 1));
            }
            bad += 1;
        }
        payload.extend_from_slice(b.payload());
    }
    if bad > 3 {
        r.failures
            .push(format!("UF2: {} more blocks with problems", bad - 3));
    }
    let mut expected = image.to_vec();
    expected.resize(image.len().div_ceil(256) * 256, 0);
    if payload != expected {
        let at = payload
            .iter()
            .zip(&expected)
            .position(|(a, b)| a != b)
            .unwrap_or(payload.len().min(expected.len()));
        r.failures.push(format!(
            "UF2 payload ({} bytes) differs from the ELF's flash load image ({} bytes padded) at flash offset {at:#x}",
            payload.len(),
            expected.len()
        ));
    }
    r.notes.push(format!(
        "UF2: {} blocks ({} E10 + {total} image, family {:#010x})",
        blocks.len(),
        usize::from(first.is_e10()),
        family.uf2_family()
    ));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::elf::tests::test_elf;
    use crate::elf::Segment;

    const HEAP: &str = "_ZN21picostark_verifier_fw4heap8HEAP_MEM17hd338a23066c340faE";

    /// The first bytes of an RP2350 flash image: for Arm a vector table (SP, reset), then at
    /// 0x110 the IMAGE_DEF block rp235x-hal writes, then filler to `len` bytes.
    fn flash_bytes(family: Family, len: usize) -> Vec<u8> {
        let mut b = vec![0u8; len];
        for (i, x) in b.iter_mut().enumerate().skip(0x124) {
            *x = (i * 7) as u8;
        }
        if family == Family::Arm {
            b[0..4].copy_from_slice(&0x2008_0000u32.to_le_bytes());
            b[4..8].copy_from_slice(&0x1000_0139u32.to_le_bytes());
        }
        let item = 0x0142 | (u32::from(family.image_type()) << 16);
        for (i, w) in [BLOCK_MARKER_START, item, 0x0000_01ff, 0, BLOCK_MARKER_END]
            .iter()
            .enumerate()
        {
            b[0x110 + 4 * i..0x114 + 4 * i].copy_from_slice(&w.to_le_bytes());
        }
        b
    }

    /// An M33 image with the layout symbols of the image built at 0d2ec73 (before the fix:
    /// `_stack_end` = 0x1002b940, a flash address), or with the fixed stack bottom.
    fn m33_elf(stack_bottom: u32) -> Vec<u8> {
        m33_elf_needing(stack_bottom, Some(MIN_STACK))
    }

    /// The same with `_pstk_min_stack` = `min_stack`, or without that symbol.
    fn m33_elf_needing(stack_bottom: u32, min_stack: Option<u32>) -> Vec<u8> {
        let flash = flash_bytes(Family::Arm, 700);
        let mut symbols = vec![
            ("_stack_end", stack_bottom, 0),
            ("_stack_start", 0x2008_0000, 0),
            ("__sdata", 0x2000_0000, 0),
            ("__edata", 0x2000_0000, 0),
            ("__sbss", 0x2000_0000, 0),
            ("__ebss", 0x2004_10b4, 0),
            (HEAP, 0x2000_0000, 0x4_0000),
        ];
        symbols.extend(min_stack.map(|v| (MIN_STACK_SYMBOL, v, 0)));
        test_elf(EM_ARM, 0x1000_0139, &[(FLASH_START, &flash)], &symbols)
    }

    fn rv32_elf() -> Vec<u8> {
        let flash = flash_bytes(Family::Riscv, 300);
        test_elf(
            EM_RISCV,
            FLASH_START,
            &[(FLASH_START, &flash)],
            &[
                ("_estack", 0x2004_1000, 0),
                ("_stack_start", 0x2008_0000, 0),
                ("_sdata", 0x2000_0000, 0),
                ("_edata", 0x2000_0010, 0),
                ("_sbss", 0x2000_0010, 0),
                ("_ebss", 0x2004_0f00, 0),
                (HEAP, 0x2000_0100, 0x4_0000),
                (MIN_STACK_SYMBOL, MIN_STACK, 0),
            ],
        )
    }

    fn uf2_of(elf: &[u8], family: Family) -> Vec<u8> {
        let segs = Elf::parse(elf).unwrap().load_segments().unwrap();
        uf2::write(&segs, family.uf2_family()).unwrap()
    }

    #[test]
    fn good_images_pass_on_both_cores() {
        let elf = m33_elf(0x2004_10b4);
        let r = check(&elf, Some(&uf2_of(&elf, Family::Arm)), Family::Arm);
        assert!(r.ok(), "{r}");
        let elf = rv32_elf();
        let r = check(&elf, Some(&uf2_of(&elf, Family::Riscv)), Family::Riscv);
        assert!(r.ok(), "{r}");
    }

    #[test]
    fn the_pre_fix_m33_layout_fails() {
        let elf = m33_elf(0x1002_b940);
        let r = check(&elf, Some(&uf2_of(&elf, Family::Arm)), Family::Arm);
        assert!(!r.ok());
        assert!(
            r.failures
                .iter()
                .any(|f| f.contains("stack bottom 0x1002b940 is not a RAM address")),
            "{r}"
        );
        assert!(
            r.failures
                .iter()
                .any(|f| f.contains("reaches into the stack")),
            "{r}"
        );
    }

    #[test]
    fn the_stack_is_checked_against_the_images_own_minimum() {
        // 0x2004_10b4..0x2008_0000: 257,868 bytes of stack.
        let stack = 0x2008_0000 - 0x2004_10b4;
        // What an all-backend build asks (64 KiB, twice p3-goldilocks' peak) fits.
        let elf = m33_elf_needing(0x2004_10b4, Some(64 * 1024));
        let r = check(&elf, Some(&uf2_of(&elf, Family::Arm)), Family::Arm);
        assert!(r.ok(), "{r}");
        assert!(
            r.notes.iter().any(|n| n.contains("at least 65536 B")),
            "{r}"
        );
        // One byte more than the stack: rejected, though far above the 16 KiB floor.
        let r = check(
            &m33_elf_needing(0x2004_10b4, Some(stack + 1)),
            None,
            Family::Arm,
        );
        let needle = format!(
            "is {stack} bytes, less than {} (_pstk_min_stack)",
            stack + 1
        );
        assert!(r.failures.iter().any(|f| f.contains(&needle)), "{r}");
        assert_eq!(r.failures.len(), 1, "{r}");
        // An image without the symbol, or with one below the floor, was not built by our
        // build.rs: rejected even though its stack is large.
        let r = check(&m33_elf_needing(0x2004_10b4, None), None, Family::Arm);
        assert!(
            r.failures
                .iter()
                .any(|f| f.contains("no symbol _pstk_min_stack")),
            "{r}"
        );
        let r = check(
            &m33_elf_needing(0x2004_10b4, Some(8 * 1024)),
            None,
            Family::Arm,
        );
        assert!(
            r.failures
                .iter()
                .any(|f| f.contains("below the 16384-byte floor")),
            "{r}"
        );
    }

    #[test]
    fn layout_and_boot_block_mistakes_fail() {
        // The wrong core's image type, and an M33 image checked as RISC-V.
        let rv = flash_bytes(Family::Riscv, 300);
        let elf = test_elf(
            EM_ARM,
            0x1000_0139,
            &[(FLASH_START, &rv)],
            &[
                ("_stack_end", 0x2004_10b4, 0),
                ("_stack_start", 0x2008_0000, 0),
                ("__sdata", 0x2000_0000, 0),
                ("__edata", 0x2000_0000, 0),
                ("__sbss", 0x2000_0000, 0),
                ("__ebss", 0x2004_10b4, 0),
                (HEAP, 0x2000_0000, 0x4_0000),
                (MIN_STACK_SYMBOL, MIN_STACK, 0),
            ],
        );
        let r = check(&elf, None, Family::Arm);
        assert!(r.failures.iter().any(|f| f.contains("image type")), "{r}");
        assert!(r.failures.iter().any(|f| f.contains("initial SP")), "{r}");
        let r = check(&m33_elf(0x2004_10b4), None, Family::Riscv);
        assert!(r.failures.iter().any(|f| f.contains("ELF machine")), "{r}");

        // Too little stack, a heap above .bss, no IMAGE_DEF in the first 4 KB.
        let mut flash = flash_bytes(Family::Arm, 5000);
        let block: Vec<u8> = flash[0x110..0x124].to_vec();
        flash[0x110..0x124].fill(0);
        flash[4200..4220].copy_from_slice(&block);
        let elf = test_elf(
            EM_ARM,
            0x1000_0139,
            &[(FLASH_START, &flash)],
            &[
                ("_stack_end", 0x2007_f000, 0),
                ("_stack_start", 0x2008_0000, 0),
                ("__sdata", 0x2000_0000, 0),
                ("__edata", 0x2000_0000, 0),
                ("__sbss", 0x2000_0000, 0),
                ("__ebss", 0x2004_10b4, 0),
                (HEAP, 0x2004_0000, 0x4_0000),
                (MIN_STACK_SYMBOL, MIN_STACK, 0),
            ],
        );
        let r = check(&elf, None, Family::Arm);
        for needle in [
            "less than 16384",
            "is not inside .bss",
            "no IMAGE_DEF block",
        ] {
            assert!(
                r.failures.iter().any(|f| f.contains(needle)),
                "{needle}: {r}"
            );
        }

        // A segment to be loaded into RAM cannot be flashed.
        let flash = flash_bytes(Family::Riscv, 300);
        let elf = test_elf(
            EM_RISCV,
            FLASH_START,
            &[(FLASH_START, &flash), (0x2000_0000, &[1; 8])],
            &[],
        );
        let r = check(&elf, None, Family::Riscv);
        assert!(r.failures.iter().any(|f| f.contains("not in flash")), "{r}");
        assert!(r.failures.iter().any(|f| f.contains("no symbol")), "{r}");
    }

    /// A code-in-ram RV32 image: 300 bytes of flash at the base, then 64 bytes loaded at
    /// flash + 0x200 that run at `run` (program header 1's run address patched), the copy
    /// symbols `_sdata` = 0x20000000, `_edata` = 0x20000040, `_sidata` = flash + 0x200.
    fn rv32_code_in_ram(run: u32) -> Vec<u8> {
        let flash = flash_bytes(Family::Riscv, 300);
        let code = [0x13u8; 64];
        let mut elf = test_elf(
            EM_RISCV,
            FLASH_START,
            &[(FLASH_START, &flash), (FLASH_START + 0x200, &code)],
            &[
                ("_estack", 0x2004_1000, 0),
                ("_stack_start", 0x2008_0000, 0),
                ("_sdata", 0x2000_0000, 0),
                ("_edata", 0x2000_0040, 0),
                ("_sidata", FLASH_START + 0x200, 0),
                ("_sbss", 0x2000_0040, 0),
                ("_ebss", 0x2004_0f00, 0),
                (HEAP, 0x2000_0100, 0x4_0000),
                (MIN_STACK_SYMBOL, MIN_STACK, 0),
            ],
        );
        let ph1 = 52 + 32;
        elf[ph1 + 8..ph1 + 12].copy_from_slice(&run.to_le_bytes());
        elf
    }

    #[test]
    fn code_copied_to_sram_must_be_inside_the_data_copy() {
        let elf = rv32_code_in_ram(0x2000_0000);
        let r = check(&elf, Some(&uf2_of(&elf, Family::Riscv)), Family::Riscv);
        assert!(r.ok(), "{r}");
        assert!(
            r.notes
                .iter()
                .any(|n| n.contains("copied to SRAM at reset: 64 B")),
            "{r}"
        );
        // The timing model charges XIP misses for what runs from flash only, not for the
        // copied code (`mcu-run run` passes these ranges as the plugin's `flash=`).
        let ro = |elf: &[u8]| Elf::parse(elf).unwrap().read_only_ranges().unwrap();
        assert_eq!(ro(&elf), [(FLASH_START, FLASH_START + 300)]);
        assert_eq!(ro(&rv32_code_in_ram(FLASH_START + 0x200)).len(), 2);
        // Four bytes off: the start-up copy would put the code at the wrong place.
        let r = check(&rv32_code_in_ram(0x2000_0004), None, Family::Riscv);
        assert!(
            r.failures
                .iter()
                .any(|f| f.contains("is not what the start-up code copies")),
            "{r}"
        );
        // Loaded from flash but run from the XIP window's uncached alias: not SRAM.
        let r = check(&rv32_code_in_ram(0x1400_0000), None, Family::Riscv);
        assert!(r.failures.iter().any(|f| f.contains("not in SRAM")), "{r}");
    }

    #[test]
    fn uf2_mistakes_fail() {
        let elf = rv32_elf();
        let good = uf2_of(&elf, Family::Riscv);
        assert_eq!(good.len(), 3 * 512);
        let fails = |uf2: &[u8], needle: &str| {
            let r = check(&elf, Some(uf2), Family::Riscv);
            assert!(
                r.failures.iter().any(|f| f.contains(needle)),
                "{needle}: {r}"
            );
        };
        // No E10 block.
        fails(&good[512..], "not the RP2350-E10 block");
        // The Arm family on a RISC-V image.
        let segs = Elf::parse(&elf).unwrap().load_segments().unwrap();
        fails(&uf2::write(&segs, FAMILY_RP2350_ARM_S).unwrap(), "family");
        // Blocks swapped: numbering and addresses.
        let mut swapped = good[..512].to_vec();
        swapped.extend_from_slice(&good[1024..]);
        swapped.extend_from_slice(&good[512..1024]);
        fails(&swapped, "numbered 1 of 2, expected 0 of 2");
        // A page missing: the image is not contiguous and its payload is short.
        let segs = vec![
            Segment {
                paddr: FLASH_START,
                data: flash_bytes(Family::Riscv, 300),
            },
            Segment {
                paddr: FLASH_START + 0x400,
                data: vec![5; 16],
            },
        ];
        let elf_gap = test_elf(
            EM_RISCV,
            FLASH_START,
            &[
                (segs[0].paddr, &segs[0].data),
                (segs[1].paddr, &segs[1].data),
            ],
            &[],
        );
        let gap_uf2 = uf2::write(&segs, FAMILY_RP2350_RISCV).unwrap();
        let r = check(&elf_gap, Some(&gap_uf2), Family::Riscv);
        assert!(r.failures.iter().any(|f| f.contains("contiguous")), "{r}");
        // One payload byte changed.
        let mut flipped = good.clone();
        flipped[1024 + 32 + 0x50] ^= 1;
        fails(&flipped, "at flash offset 0x150");
        // Not a UF2 file.
        fails(&good[..700], "bad UF2 file");
    }

    #[test]
    fn hostile_input_is_an_error_not_a_panic() {
        let elf = m33_elf(0x2004_10b4);
        let uf2 = uf2_of(&elf, Family::Arm);
        for len in (0..elf.len()).step_by(7) {
            let _ = check(&elf[..len], Some(&uf2), Family::Arm);
        }
        // A block whose item sizes run past the image.
        let mut image = flash_bytes(Family::Arm, 0x124);
        image[0x115] = 0x7f;
        assert!(parse_block(&image, 0x110).is_err());
        let mut image = flash_bytes(Family::Arm, 0x200);
        image[0x115] = 0; // size 0
        assert!(parse_block(&image, 0x110).is_err());
    }
}

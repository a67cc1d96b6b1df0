//! A QEMU TCG plugin (plugin API v1, QEMU 7.2) that counts the guest instructions executed
//! between the firmware's two marker functions, exactly and by class.
//!
//! Load it with
//!
//! ```text
//! -plugin libpicostark_icount_plugin.so,arg=isa=arm,arg=start=0x10000400,arg=end=0x10000410,arg=out=FILE
//! ```
//!
//! `start` and `end` are the addresses of `pstk_measure_start` and `pstk_measure_end` (the
//! runner reads them from the ELF symbol table; a Thumb bit is ignored). Every time the guest
//! executes the first instruction of `end`, the plugin appends one line to `out`:
//!
//! ```text
//! icount region=0 insns=123456 mul=100 load_store=40000 branch=20000 other=63356
//! ```
//!
//! counting every instruction from the first instruction of `start` up to (not including)
//! the first instruction of `end`. Counting uses inline TCG adds (one per executed
//! instruction, into one counter per class), so the counts do not depend on host timing and
//! are identical run to run. Classes are decided from the instruction's encoding (QEMU 7.2
//! gives only hex disassembly on RISC-V), see [`classify_thumb`] and [`classify_riscv`].
//!
//! With `model=m33|hazard3` the plugin also runs the RP2350 cycle model ([`timing`]) and the
//! line gains `cycles=C stall=S xip_accesses=A xip_misses=M xip_miss_cycles=X
//! model=rp2350-m33|rp2350-hazard3 model_version=7` (C = insns + S + X; S is signed). More
//! arguments: `flash=0xLO-0xHI` (repeatable; byte ranges behind the XIP cache, the rest is
//! SRAM), `xip_miss=N` (cycles of a miss that starts a new QSPI transfer) and
//! `xip_replacement=random|lru` and `map=FILE` (QEMU to board addresses, [`timing::AddrMap`]). See `verifier-mcu/TIMING.md`.
//!
//! Licence: GPL-2.0-or-later (the `qemu-plugin` crate's). Nothing else links this crate.

/// Instruction classes, in counter order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// Multiply, multiply-accumulate and divide.
    Mul = 0,
    /// Memory loads and stores (single, multiple, pair, push/pop without PC).
    LoadStore = 1,
    /// Anything that may change control flow: branches, calls, returns, pops into PC.
    Branch = 2,
    /// Everything else (ALU, moves, compares, system).
    Other = 3,
}

/// Which decoder to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Isa {
    /// Thumb-2 (ARMv8-M Mainline).
    Thumb,
    /// RV32IMAC (with compressed instructions).
    RiscV,
}

/// Classifies one Thumb instruction from its bytes (16 or 32 bits, little-endian halfwords).
pub fn classify_thumb(bytes: &[u8]) -> Class {
    if bytes.len() < 2 {
        return Class::Other;
    }
    let hw1 = u16::from_le_bytes([bytes[0], bytes[1]]);
    if bytes.len() >= 4 && (hw1 >> 11) >= 0b11101 {
        let hw2 = u16::from_le_bytes([bytes[2], bytes[3]]);
        return classify_thumb32(hw1, hw2);
    }
    classify_thumb16(hw1)
}

fn classify_thumb16(h: u16) -> Class {
    // MULS
    if h & 0xFFC0 == 0x4340 {
        return Class::Mul;
    }
    // BX / BLX
    if h & 0xFF00 == 0x4700 {
        return Class::Branch;
    }
    // ADD / MOV (high registers) with PC as destination
    if h & 0xFD00 == 0x4400 && ((h >> 4) & 0x8 | h & 0x7) == 15 {
        return Class::Branch;
    }
    // LDR literal, LDR/STR register, LDR/STR immediate (word, byte, halfword), SP-relative
    if h & 0xF800 == 0x4800 || h & 0xF000 == 0x5000 || (0x6000..0xA000).contains(&h) {
        return Class::LoadStore;
    }
    // POP with PC
    if h & 0xFF00 == 0xBD00 {
        return Class::Branch;
    }
    // PUSH / POP
    if h & 0xF600 == 0xB400 {
        return Class::LoadStore;
    }
    // CBZ / CBNZ
    if h & 0xF500 == 0xB100 {
        return Class::Branch;
    }
    // STM / LDM
    if h & 0xF000 == 0xC000 {
        return Class::LoadStore;
    }
    // B<cond> (cond 1110 is UDF, 1111 is SVC)
    if h & 0xF000 == 0xD000 {
        let cond = (h >> 8) & 0xF;
        return if cond < 0xE {
            Class::Branch
        } else {
            Class::Other
        };
    }
    // B
    if h & 0xF800 == 0xE000 {
        return Class::Branch;
    }
    Class::Other
}

fn classify_thumb32(hw1: u16, hw2: u16) -> Class {
    match hw1 & 0xF800 {
        0xE800 => {
            // Load/store multiple
            if hw1 & 0xFE40 == 0xE800 {
                let load = hw1 & 0x0010 != 0;
                return if load && hw2 & 0x8000 != 0 {
                    Class::Branch
                } else {
                    Class::LoadStore
                };
            }
            // Table branch
            if hw1 & 0xFFF0 == 0xE8D0 && hw2 & 0xFFE0 == 0xF000 {
                return Class::Branch;
            }
            // Load/store dual, exclusive
            if hw1 & 0xFE40 == 0xE840 {
                return Class::LoadStore;
            }
            // Coprocessor / FP load and store (VLDR, VSTR, VPUSH, VPOP)
            if hw1 & 0xEE00 == 0xEC00 {
                return Class::LoadStore;
            }
            Class::Other
        }
        0xF000 => {
            if hw2 & 0x8000 == 0 {
                return Class::Other; // data processing, immediate
            }
            if hw2 & 0x5000 == 0 && (hw1 >> 7) & 0x7 == 0x7 {
                return Class::Other; // MSR, MRS, hints, barriers
            }
            Class::Branch // B<cond>.W, B.W, BL, BLX
        }
        0xF800 => {
            if hw1 & 0xFE00 == 0xF800 {
                // Load/store single; LDR into PC is a branch
                let load_word = hw1 & 0xFE70 == 0xF850;
                return if load_word && hw2 >> 12 == 0xF {
                    Class::Branch
                } else {
                    Class::LoadStore
                };
            }
            if hw1 & 0xFF00 == 0xFB00 {
                return Class::Mul; // multiply, long multiply, divide
            }
            if hw1 & 0xEE00 == 0xEC00 {
                return Class::LoadStore;
            }
            Class::Other
        }
        _ => Class::Other,
    }
}

/// Classifies one RV32IMAC instruction from its bytes (2 or 4, little-endian).
pub fn classify_riscv(bytes: &[u8]) -> Class {
    if bytes.len() < 2 {
        return Class::Other;
    }
    let low = u16::from_le_bytes([bytes[0], bytes[1]]);
    if low & 0b11 == 0b11 {
        if bytes.len() < 4 {
            return Class::Other;
        }
        let insn = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
        return match insn & 0x7F {
            0x03 | 0x23 | 0x07 | 0x27 | 0x2F => Class::LoadStore,
            0x63 | 0x6F | 0x67 => Class::Branch,
            0x33 if insn >> 25 == 0x01 => Class::Mul,
            _ => Class::Other,
        };
    }
    let funct3 = low >> 13;
    match (low & 0b11, funct3) {
        // C.ADDI4SPN
        (0b00, 0b000) => Class::Other,
        // C.LW, C.SW, C.FLD, C.FLW, C.FSD, C.FSW
        (0b00, _) => Class::LoadStore,
        // C.JAL, C.J, C.BEQZ, C.BNEZ
        (0b01, 0b001 | 0b101 | 0b110 | 0b111) => Class::Branch,
        (0b01, _) => Class::Other,
        // C.LWSP, C.SWSP and the FP stack loads/stores
        (0b10, 0b001 | 0b010 | 0b011 | 0b101 | 0b110 | 0b111) => Class::LoadStore,
        // C.JR / C.JALR (rs2 = 0, rs1 != 0); otherwise C.MV, C.ADD, C.EBREAK
        (0b10, 0b100) => {
            let rs1 = (low >> 7) & 0x1F;
            let rs2 = (low >> 2) & 0x1F;
            if rs2 == 0 && rs1 != 0 {
                Class::Branch
            } else {
                Class::Other
            }
        }
        _ => Class::Other,
    }
}

/// Parses a marker address (`0x` hex or decimal); the Thumb bit is cleared.
pub fn parse_addr(s: &str) -> Option<u64> {
    let s = s.trim();
    let v = match s.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok()?,
        None => s.parse().ok()?,
    };
    Some(v & !1)
}

/// Parses a byte range `0xLO-0xHI` (`hi` exclusive, hex or decimal bounds, `lo < hi`).
pub fn parse_range(s: &str) -> Option<(u32, u32)> {
    let bound = |b: &str| -> Option<u32> {
        let b = b.trim();
        match b.strip_prefix("0x") {
            Some(hex) => u32::from_str_radix(hex, 16).ok(),
            None => b.parse().ok(),
        }
    };
    let (lo, hi) = s.split_once('-')?;
    let (lo, hi) = (bound(lo)?, bound(hi)?);
    (lo < hi).then_some((lo, hi))
}

/// A function whose instructions a peripheral replaces (`offload=0xLO-0xHI:CYCLES`): its
/// instructions cost nothing and each entry (execution of `lo`) costs `cycles`, a model of
/// the peripheral (the RP2350 SHA-256 engine, `verifier-mcu/TIMING.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Offload {
    pub lo: u32,
    pub hi: u32,
    pub cycles: u32,
}

impl Offload {
    pub fn contains(&self, addr: u32) -> bool {
        (self.lo..self.hi).contains(&addr)
    }
}

/// Parses `0xLO-0xHI:CYCLES` (`hi` exclusive, the Thumb bit of `lo` cleared, CYCLES
/// 1..=100000).
pub fn parse_offload(s: &str) -> Option<Offload> {
    let (range, cycles) = s.rsplit_once(':')?;
    let (lo, hi) = parse_range(range)?;
    let cycles: u32 = cycles.trim().parse().ok()?;
    let lo = lo & !1;
    ((1..=100_000).contains(&cycles) && lo < hi).then_some(Offload { lo, hi, cycles })
}

pub mod timing;

// The QEMU side: not compiled into the unit tests, whose executable has no QEMU to resolve
// the plugin API symbols against.
#[cfg(not(test))]
mod qemu;

#[cfg(test)]
mod tests {
    use super::*;

    fn t16(h: u16) -> Class {
        classify_thumb(&h.to_le_bytes())
    }

    fn t32(hw1: u16, hw2: u16) -> Class {
        let mut b = hw1.to_le_bytes().to_vec();
        b.extend_from_slice(&hw2.to_le_bytes());
        classify_thumb(&b)
    }

    fn rv(insn: u32) -> Class {
        classify_riscv(&insn.to_le_bytes())
    }

    fn rvc(insn: u16) -> Class {
        classify_riscv(&insn.to_le_bytes())
    }

    #[test]
    fn addresses_parse_and_drop_the_thumb_bit() {
        assert_eq!(parse_addr("0x10000401"), Some(0x1000_0400));
        assert_eq!(parse_addr("4096"), Some(4096));
        assert_eq!(parse_addr("0xZZ"), None);
    }

    #[test]
    fn offload_parses_and_rejects() {
        let o = parse_offload("0x10000401-0x10000500:84").unwrap();
        assert_eq!(
            o,
            Offload {
                lo: 0x1000_0400,
                hi: 0x1000_0500,
                cycles: 84
            }
        );
        assert!(o.contains(0x1000_0400) && o.contains(0x1000_04fe));
        assert!(!o.contains(0x1000_0500) && !o.contains(0x1000_03fe));
        for bad in [
            "0x10-0x20",
            "0x10-0x20:0",
            "0x20-0x10:5",
            "0x10-0x20:x",
            "0x10:5",
            "0x10-0x20:100001",
        ] {
            assert_eq!(parse_offload(bad), None, "{bad}");
        }
    }

    #[test]
    fn flash_ranges_parse() {
        assert_eq!(
            parse_range("0x10000000-0x10042e35"),
            Some((0x1000_0000, 0x1004_2e35))
        );
        assert_eq!(parse_range("16-32"), Some((16, 32)));
        assert_eq!(parse_range("0x20-0x10"), None);
        assert_eq!(parse_range("0x10"), None);
        assert_eq!(parse_range("0x10-0x1_0000_0000"), None);
    }

    #[test]
    fn thumb16_classes() {
        assert_eq!(t16(0x4348), Class::Mul); // muls r0, r1, r0
        assert_eq!(t16(0x4770), Class::Branch); // bx lr
        assert_eq!(t16(0xBD10), Class::Branch); // pop {r4, pc}
        assert_eq!(t16(0xB510), Class::LoadStore); // push {r4, lr}
        assert_eq!(t16(0xBC10), Class::LoadStore); // pop {r4}
        assert_eq!(t16(0x6808), Class::LoadStore); // ldr r0, [r1]
        assert_eq!(t16(0x4801), Class::LoadStore); // ldr r0, [pc, #4]
        assert_eq!(t16(0x9001), Class::LoadStore); // str r0, [sp, #4]
        assert_eq!(t16(0xD0FE), Class::Branch); // beq
        assert_eq!(t16(0xDF00), Class::Other); // svc 0
        assert_eq!(t16(0xE7FE), Class::Branch); // b .
        assert_eq!(t16(0xB108), Class::Branch); // cbz r0
        assert_eq!(t16(0x1840), Class::Other); // adds r0, r0, r1
        assert_eq!(t16(0x4687), Class::Branch); // mov pc, r0
        assert_eq!(t16(0x4608), Class::Other); // mov r0, r1
        assert_eq!(t16(0xBF00), Class::Other); // nop
    }

    #[test]
    fn thumb32_classes() {
        assert_eq!(t32(0xFB00, 0xF001), Class::Mul); // mul.w r0, r0, r1
        assert_eq!(t32(0xFBA0, 0x0101), Class::Mul); // umull r0, r1, r0, r1
        assert_eq!(t32(0xFBB0, 0xF0F1), Class::Mul); // udiv r0, r0, r1
        assert_eq!(t32(0xF8D0, 0x0004), Class::LoadStore); // ldr.w r0, [r0, #4]
        assert_eq!(t32(0xF85D, 0xFB04), Class::Branch); // ldr pc, [sp], #4
        assert_eq!(t32(0xE8BD, 0x8010), Class::Branch); // pop.w {r4, pc}
        assert_eq!(t32(0xE92D, 0x4FF0), Class::LoadStore); // push.w {r4-r11, lr}
        assert_eq!(t32(0xE9D0, 0x2300), Class::LoadStore); // ldrd r2, r3, [r0]
        assert_eq!(t32(0xE8D0, 0xF001), Class::Branch); // tbb [r0, r1]
        assert_eq!(t32(0xF000, 0xF800), Class::Branch); // bl
        assert_eq!(t32(0xF000, 0xB800), Class::Branch); // b.w
        assert_eq!(t32(0xF3BF, 0x8F4F), Class::Other); // dsb sy
        assert_eq!(t32(0xF04F, 0x0001), Class::Other); // mov.w r0, #1
        assert_eq!(t32(0xEB00, 0x0001), Class::Other); // add.w r0, r0, r1
        assert_eq!(t32(0xED2D, 0x8B02), Class::LoadStore); // vpush {d8}
    }

    #[test]
    fn riscv_classes() {
        assert_eq!(rv(0x02B50533), Class::Mul); // mul a0, a0, a1
        assert_eq!(rv(0x02B55533), Class::Mul); // divu a0, a0, a1
        assert_eq!(rv(0x00B50533), Class::Other); // add a0, a0, a1
        assert_eq!(rv(0x00052503), Class::LoadStore); // lw a0, 0(a0)
        assert_eq!(rv(0x00B52023), Class::LoadStore); // sw a1, 0(a0)
        assert_eq!(rv(0x00B50463), Class::Branch); // beq a0, a1, 8
        assert_eq!(rv(0x008000EF), Class::Branch); // jal ra, 8
        assert_eq!(rv(0x00008067), Class::Branch); // ret
        assert_eq!(rv(0x00100073), Class::Other); // ebreak
        assert_eq!(rvc(0x4108), Class::LoadStore); // c.lw a0, 0(a0)
        assert_eq!(rvc(0xC10C), Class::LoadStore); // c.sw a1, 0(a0)
        assert_eq!(rvc(0x4502), Class::LoadStore); // c.lwsp a0, 0(sp)
        assert_eq!(rvc(0xC02A), Class::LoadStore); // c.swsp a0, 0(sp)
        assert_eq!(rvc(0x8082), Class::Branch); // c.jr ra (ret)
        assert_eq!(rvc(0x9502), Class::Branch); // c.jalr a0
        assert_eq!(rvc(0x852E), Class::Other); // c.mv a0, a1
        assert_eq!(rvc(0x9002), Class::Other); // c.ebreak
        assert_eq!(rvc(0xA001), Class::Branch); // c.j .
        assert_eq!(rvc(0xC119), Class::Branch); // c.beqz a0
        assert_eq!(rvc(0x0505), Class::Other); // c.addi a0, 1
        assert_eq!(rvc(0x0028), Class::Other); // c.addi4spn a0, sp, 8
    }
}

//! Cortex-M33 (RP2350, r1p0) instruction timing from Thumb encodings.
//!
//! Rules (measured with DWT.CYCCNT on an RP2350 by others: jnk0le/random, "pipeline cycle
//! test", doc/cortex_m33.md; see TIMING.md): ALU, MUL 1; MULS.n 2; a flag-setting ALU op
//! with a rotated ("shifted") modified-immediate constant 2; loads, multiply-accumulates,
//! long multiplies, xTA extends and ALU ops with a shifted register or rotated constant give
//! their result one cycle late (the next instruction stalls one cycle if it uses it, except
//! as store data or as an accumulator); LDRD/STRD 2; LDM/STM/PUSH/POP of n registers n;
//! taken branch 2, 1 when a 16-bit direct branch pairs with a preceding 16-bit
//! non-flag-setting instruction; a not-taken 16-bit conditional branch pairs (0) after a
//! 16-bit instruction, else 1; IT pairs (0) after a 16-bit instruction. Estimates (not
//! measured): divides [`DIV_CYCLES`], PC-writing loads [`PC_LOAD_REFILL`] more than the
//! load, TBB/TBH as a PC-writing load.

use super::{Exit, Insn, Kind};

/// SDIV/UDIV: no register values in plugin API v1, so one figure: the midpoint of the
/// 2-12 cycles the Cortex-M4 manual gives (the M33's own figure was not found).
pub const DIV_CYCLES: u32 = 7;
/// Extra cycles of a load that writes the PC: the taken-branch refill (1) plus the load
/// result's late arrival (1). An estimate by analogy with the measured branch and load-use.
pub const PC_LOAD_REFILL: i32 = 2;
const SP: u32 = 13;
const PC: u32 = 15;

fn bit(r: u32) -> u32 {
    1 << r
}

/// Decodes one Thumb instruction at `addr` (2 or 4 bytes, little-endian halfwords).
pub fn decode(addr: u32, bytes: &[u8]) -> Insn {
    if bytes.len() < 2 {
        return Insn::plain(addr, 2);
    }
    let hw1 = u16::from_le_bytes([bytes[0], bytes[1]]) as u32;
    let mut i = if bytes.len() >= 4 && (hw1 >> 11) >= 0b11101 {
        let hw2 = u16::from_le_bytes([bytes[2], bytes[3]]) as u32;
        decode32(addr, hw1, hw2)
    } else {
        decode16(addr, hw1)
    };
    // Reading the PC never waits for a result.
    i.reads &= !bit(PC);
    i
}

/// The literal-pool base: the instruction's address + 4, word aligned.
fn lit_base(addr: u32) -> u32 {
    (addr + 4) & !3
}

fn decode16(addr: u32, h: u32) -> Insn {
    let mut i = Insn::plain(addr, 2);
    let r0 = h & 7;
    let r3 = (h >> 3) & 7;
    let r6 = (h >> 6) & 7;
    let r8 = (h >> 8) & 7;
    match h >> 11 {
        // LSL/LSR/ASR immediate
        0b00000..=0b00010 => {
            i.reads = bit(r3);
            i.writes = bit(r0);
            i.sets_flags = true;
        }
        // ADD/SUB register or 3-bit immediate
        0b00011 => {
            i.reads = bit(r3) | if h & 0x400 == 0 { bit(r6) } else { 0 };
            i.writes = bit(r0);
            i.sets_flags = true;
        }
        // MOV/CMP/ADD/SUB 8-bit immediate
        0b00100..=0b00111 => {
            let op = (h >> 11) & 3;
            i.reads = if op == 0 { 0 } else { bit(r8) };
            i.writes = if op == 1 { 0 } else { bit(r8) };
            i.sets_flags = true;
        }
        0b01000 => {
            if h & 0x400 == 0 {
                // data processing, register
                let op = (h >> 6) & 0xF;
                i.reads = bit(r0) | bit(r3);
                if op == 15 {
                    i.reads = bit(r3); // MVN
                }
                i.writes = if matches!(op, 8 | 10 | 11) {
                    0
                } else {
                    bit(r0)
                };
                i.sets_flags = true;
                if op == 13 {
                    i.issue = 2; // MULS.n
                }
            } else {
                // special data processing and branch/exchange (high registers)
                let rd = (h >> 4) & 8 | r0;
                let rm = (h >> 3) & 0xF;
                match (h >> 8) & 3 {
                    0 => {
                        i.reads = bit(rd) | bit(rm);
                        i.writes = bit(rd);
                    }
                    1 => {
                        i.reads = bit(rd) | bit(rm);
                        i.sets_flags = true;
                    }
                    2 => {
                        i.reads = bit(rm);
                        i.writes = bit(rd);
                    }
                    _ => {
                        // BX / BLX
                        i.reads = bit(rm);
                        i.writes = if h & 0x80 != 0 { bit(14) } else { 0 };
                        i.kind = Kind::Jump;
                    }
                }
                if (h >> 8) & 3 != 3 && rd == PC && (h >> 8) & 3 != 1 {
                    i.kind = Kind::Jump;
                    i.writes = 0;
                }
            }
        }
        // LDR literal
        0b01001 => {
            i.writes = bit(r8);
            i.late = true;
            i.literal = Some(lit_base(addr) + (h & 0xFF) * 4);
        }
        // load/store, register offset
        0b01010 | 0b01011 => {
            let load = (h >> 9) & 7 >= 3;
            i.reads = bit(r3) | bit(r6);
            load_store(&mut i, load, r0);
        }
        // load/store word/byte/halfword, immediate offset
        0b01100..=0b10001 => {
            i.reads = bit(r3);
            load_store(&mut i, h & 0x800 != 0, r0);
        }
        // load/store SP-relative
        0b10010 | 0b10011 => {
            i.reads = bit(SP);
            load_store(&mut i, h & 0x800 != 0, r8);
            i.dyn_load = false;
        }
        // ADR / ADD Rd, SP, #imm
        0b10100 | 0b10101 => {
            i.reads = if h & 0x800 != 0 { bit(SP) } else { 0 };
            i.writes = bit(r8);
        }
        0b10110 | 0b10111 => misc16(&mut i, h),
        // STM / LDM
        0b11000 | 0b11001 => {
            let list = h & 0xFF;
            let n = list.count_ones().max(1);
            i.issue = n;
            i.reads = bit(r8);
            if h & 0x800 != 0 {
                i.writes = list | if list & bit(r8) == 0 { bit(r8) } else { 0 };
                i.late = true;
                i.dyn_load = true;
            } else {
                i.writes = bit(r8);
            }
        }
        // B<c>, UDF, SVC
        0b11010 | 0b11011 => {
            let cond = (h >> 8) & 0xF;
            if cond < 0xE {
                let off = ((h & 0xFF) as i8 as i32) << 1;
                i.kind = Kind::CondBranch {
                    target: addr.wrapping_add(4).wrapping_add(off as u32),
                };
            }
        }
        // B
        0b11100 => i.kind = Kind::Jump,
        _ => {}
    }
    i
}

/// Fills a single load or store: loads write `rt` late, stores read it late (store data).
fn load_store(i: &mut Insn, load: bool, rt: u32) {
    if load {
        i.writes = bit(rt);
        i.late = true;
        i.dyn_load = true;
    }
}

fn misc16(i: &mut Insn, h: u32) {
    let r0 = h & 7;
    let r3 = (h >> 3) & 7;
    if h & 0xFF00 == 0xB000 {
        // ADD/SUB SP, SP, #imm
        i.reads = bit(SP);
        i.writes = bit(SP);
    } else if h & 0xF500 == 0xB100 {
        // CBZ / CBNZ
        let off = ((h >> 9) & 1) << 6 | ((h >> 3) & 0x1F) << 1;
        i.reads = bit(r0);
        i.kind = Kind::CondBranch {
            target: i.addr.wrapping_add(4).wrapping_add(off),
        };
    } else if h & 0xFF00 == 0xB200 || h & 0xFF00 == 0xBA00 {
        // SXTH/SXTB/UXTH/UXTB, REV/REV16/REVSH
        i.reads = bit(r3);
        i.writes = bit(r0);
    } else if h & 0xFE00 == 0xB400 {
        // PUSH
        let list = (h & 0xFF) | if h & 0x100 != 0 { bit(14) } else { 0 };
        i.issue = list.count_ones().max(1);
        i.reads = bit(SP);
        i.writes = bit(SP);
    } else if h & 0xFE00 == 0xBC00 {
        // POP
        let list = (h & 0xFF) | if h & 0x100 != 0 { bit(PC) } else { 0 };
        i.issue = list.count_ones().max(1);
        i.reads = bit(SP);
        i.writes = (list & !bit(PC)) | bit(SP);
        i.late = true;
        if list & bit(PC) != 0 {
            i.kind = Kind::PcLoad;
        }
    } else if h & 0xFF00 == 0xBF00 && h & 0xF != 0 {
        i.kind = Kind::It;
    }
}

fn decode32(addr: u32, hw1: u32, hw2: u32) -> Insn {
    let mut i = Insn::plain(addr, 4);
    let rn = hw1 & 0xF;
    let rd = (hw2 >> 8) & 0xF;
    let rm = hw2 & 0xF;
    let rt = hw2 >> 12;
    if hw1 & 0xFE40 == 0xE800 {
        // load/store multiple (LDM, STM, PUSH.W, POP.W)
        let list = hw2 & 0xFFFF;
        let load = hw1 & 0x10 != 0;
        let wback = hw1 & 0x20 != 0;
        i.issue = list.count_ones().max(1);
        i.reads = bit(rn);
        i.writes = if wback { bit(rn) } else { 0 };
        if load {
            i.writes |= list & !bit(PC);
            i.late = true;
            i.dyn_load = rn != SP;
            if list & bit(PC) != 0 {
                i.kind = Kind::PcLoad;
            }
        }
    } else if hw1 & 0xFE40 == 0xE840 {
        if hw1 & 0xFFF0 == 0xE8D0 && hw2 & 0xFFE0 == 0xF000 {
            // TBB / TBH: a table load that writes the PC
            i.reads = bit(rn) | bit(rm);
            i.kind = Kind::PcLoad;
            i.dyn_load = true;
        } else if hw1 & 0x0120 != 0 {
            // LDRD / STRD
            let rt2 = (hw2 >> 8) & 0xF;
            let load = hw1 & 0x10 != 0;
            i.issue = 2;
            i.reads = bit(rn);
            i.writes = if hw1 & 0x20 != 0 { bit(rn) } else { 0 };
            if load {
                i.writes |= bit(rt) | bit(rt2);
                i.late = true;
                if rn == PC {
                    let off = (hw2 & 0xFF) * 4;
                    let base = lit_base(addr);
                    i.literal = Some(if hw1 & 0x80 != 0 {
                        base + off
                    } else {
                        base - off
                    });
                } else {
                    i.dyn_load = rn != SP;
                }
            }
        } else {
            // exclusives
            i.reads = bit(rn);
            if hw1 & 0x10 != 0 {
                i.writes = bit(rt);
                i.late = true;
                i.dyn_load = true;
            } else {
                i.writes = bit(rd);
            }
        }
    } else if hw1 & 0xFE00 == 0xEA00 {
        // data processing, shifted register
        let op = (hw1 >> 5) & 0xF;
        let s = hw1 & 0x10 != 0;
        let amount = (hw2 >> 10) & 0x1C | (hw2 >> 6) & 3; // imm3:imm2
        let shifted = amount != 0 || (hw2 >> 4) & 3 == 3;
        i.reads = bit(rm) | if rn != PC { bit(rn) } else { 0 };
        let compare = s && rd == PC && matches!(op, 0 | 4 | 8 | 13);
        i.writes = if compare { 0 } else { bit(rd) };
        i.sets_flags = s;
        i.late = shifted && !compare;
    } else if hw1 & 0xEC00 == 0xEC00 {
        // coprocessor / floating point: one cycle, FP registers not tracked
    } else if hw1 & 0xF800 == 0xF000 && hw2 & 0x8000 == 0 {
        let op = (hw1 >> 5) & 0xF;
        if hw1 & 0x0200 == 0 {
            // data processing, modified immediate
            let s = hw1 & 0x10 != 0;
            let rotated = (hw1 >> 10) & 1 != 0 || (hw2 >> 14) & 1 != 0;
            let mov = rn == PC && matches!(op, 2 | 3); // MOV/MVN
            let compare = s && rd == PC && matches!(op, 0 | 4 | 8 | 13);
            i.reads = if mov { 0 } else { bit(rn) };
            i.writes = if compare { 0 } else { bit(rd) };
            i.sets_flags = s;
            if rotated && !mov {
                i.late = !compare;
                if s {
                    i.issue = 2;
                }
            }
        } else {
            // plain binary immediate: ADDW, SUBW, MOVW, MOVT, ADR, BFI, UBFX, SSAT, ...
            let movw = op == 0b0010 && hw1 & 0x10 == 0;
            let movt = op == 0b0110;
            i.reads = if movw {
                0
            } else if movt {
                bit(rd)
            } else {
                bit(rn)
            };
            i.writes = bit(rd);
        }
    } else if hw1 & 0xF800 == 0xF000 {
        // branches and miscellaneous control
        match hw2 & 0x5000 {
            0x0000 => {
                let cond = (hw1 >> 6) & 0xF;
                if cond < 0xE {
                    let s = (hw1 >> 10) & 1;
                    let imm = (s << 20)
                        | ((hw2 >> 11) & 1) << 19
                        | ((hw2 >> 13) & 1) << 18
                        | (hw1 & 0x3F) << 12
                        | (hw2 & 0x7FF) << 1;
                    let off = ((imm << 11) as i32) >> 11;
                    i.kind = Kind::CondBranch {
                        target: addr.wrapping_add(4).wrapping_add(off as u32),
                    };
                }
                // else MSR, MRS, hints, barriers: one cycle
                if hw1 & 0xFFE0 == 0xF3E0 {
                    i.writes = bit(rd); // MRS
                }
            }
            0x5000 | 0x4000 => {
                i.kind = Kind::Jump; // BL
                i.writes = bit(14);
            }
            _ => i.kind = Kind::Jump, // B.W
        }
    } else if hw1 & 0xFE00 == 0xF800 {
        // load/store single
        let load = hw1 & 0x10 != 0;
        let size = (hw1 >> 5) & 3;
        if rn == PC {
            let off = hw2 & 0xFFF;
            let base = lit_base(addr);
            if load && rt != PC {
                i.writes = bit(rt);
                i.late = true;
                i.literal = Some(if hw1 & 0x80 != 0 {
                    base + off
                } else {
                    base - off
                });
            }
        } else {
            i.reads = bit(rn);
            if hw1 & 0x80 == 0 {
                if hw2 & 0x800 != 0 {
                    if hw2 & 0x100 != 0 {
                        i.writes = bit(rn); // pre/post-indexed with writeback
                    }
                } else {
                    i.reads |= bit(rm); // register offset
                }
            }
            if load {
                if rt == PC && size == 2 {
                    i.kind = Kind::PcLoad;
                    i.dyn_load = rn != SP;
                } else if rt != PC {
                    i.writes |= bit(rt);
                    i.late = true;
                    i.dyn_load = rn != SP;
                }
                // rt == PC with a byte/halfword size: PLD/PLI hints
            }
        }
    } else if hw1 & 0xFF00 == 0xFA00 {
        // data processing, register: shifts by register, extends, parallel add/sub, ...
        i.reads = bit(rn) | bit(rm);
        i.writes = bit(rd);
        let op1 = (hw1 >> 4) & 0xF;
        if op1 < 8 && hw2 & 0x80 != 0 {
            // SXTAH ... UXTB: with Rn = PC a plain extend, else extend-and-add (late)
            if rn == PC {
                i.reads = bit(rm);
            } else {
                i.reads = bit(rm);
                i.late = true; // Rn is the accumulator, read late
            }
        }
    } else if hw1 & 0xFF80 == 0xFB00 {
        // multiply, multiply-accumulate
        let ra = rt;
        i.reads = bit(rn) | bit(rm);
        i.writes = bit(rd);
        let plain_mul = (hw1 >> 4) & 7 == 0 && (hw2 >> 4) & 3 == 0 && ra == PC;
        i.late = !plain_mul;
    } else if hw1 & 0xFF80 == 0xFB80 {
        // long multiply, long multiply-accumulate, divide
        let op1 = (hw1 >> 4) & 7;
        i.reads = bit(rn) | bit(rm);
        match op1 {
            1 | 3 => {
                i.writes = bit(rd);
                i.issue = DIV_CYCLES;
            }
            _ => {
                i.writes = bit(rt) | bit(rd);
                i.late = true; // RdLo/RdHi as accumulators are read late
            }
        }
    }
    i
}

/// Extra cycles of a block on its fall-through path and its exit, by the rules above.
pub fn block_costs(insns: &[Insn]) -> (i32, Exit) {
    let mut extra = 0i32;
    let mut exit = Exit::Static;
    for (n, i) in insns.iter().enumerate() {
        let prev = n.checked_sub(1).map(|p| &insns[p]);
        let stall = prev.is_some_and(|p| p.late && p.writes & i.reads != 0) as i32;
        let prev16 = prev.is_some_and(|p| p.size == 2);
        let prev_flags = prev.is_some_and(|p| p.sets_flags);
        // Two 16-bit instructions dual-issue unless the second needs the first's result.
        let pairs = i.size == 2 && prev16 && prev.map_or(0, |p| p.writes) & i.reads == 0;
        let cost = match i.kind {
            Kind::Plain => i.issue as i32,
            Kind::It => !prev16 as i32,
            Kind::CondBranch { .. } => {
                let not_taken = !pairs as i32;
                let taken = if pairs && !prev_flags { 1 } else { 2 };
                if n + 1 == insns.len() {
                    exit = Exit::M33Cond {
                        taken_extra: taken - not_taken,
                    };
                }
                not_taken
            }
            // B.n is the only 16-bit jump that reads no register.
            Kind::Jump if pairs && !prev_flags && i.reads == 0 => 1,
            Kind::Jump => 2,
            Kind::PcLoad => i.issue as i32 + PC_LOAD_REFILL,
        };
        extra += cost - 1 + stall;
    }
    (extra, exit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::timing::{build_block, Core, FlashRanges};

    /// Decodes a sequence of halfwords laid out from `addr`.
    fn seq(addr: u32, hws: &[u16]) -> Vec<Insn> {
        let bytes: Vec<u8> = hws.iter().flat_map(|h| h.to_le_bytes()).collect();
        let mut out = Vec::new();
        let mut off = 0;
        while off < bytes.len() {
            let i = decode(addr + off as u32, &bytes[off..]);
            off += i.size as usize;
            out.push(i);
        }
        out
    }

    fn extra(hws: &[u16]) -> i32 {
        block_costs(&seq(0x1000, hws)).0
    }

    #[test]
    fn load_use_costs_one_more_than_an_independent_load() {
        // ldr r0, [r1]; adds r2, r0, r3   vs   ldr r0, [r1]; adds r2, r4, r3
        let dependent = extra(&[0x6808, 0x18C2]);
        let independent = extra(&[0x6808, 0x18E2]);
        assert_eq!(dependent, independent + 1);
        // store data does not wait: ldr r0, [r1]; str r0, [r2]
        assert_eq!(extra(&[0x6808, 0x6010]), independent);
        // an address does: ldr r0, [r1]; ldr r2, [r0]
        assert_eq!(extra(&[0x6808, 0x6802]), independent + 1);
    }

    #[test]
    fn multi_cycle_instructions() {
        // push {r4-r7, lr}: 5 registers, 5 cycles
        assert_eq!(extra(&[0xB5F0]), 4);
        // ldrd r2, r3, [r0]: 2
        assert_eq!(extra(&[0xE9D0, 0x2300]), 1);
        // ldmia r0!, {r1-r3}: 3
        assert_eq!(extra(&[0xC80E]), 2);
        // muls r0, r1, r0: 2
        assert_eq!(extra(&[0x4348]), 1);
        // udiv r0, r0, r1
        assert_eq!(extra(&[0xFBB0, 0xF0F1]), DIV_CYCLES as i32 - 1);
        // pop {r4, pc}: 2 loads + refill
        assert_eq!(extra(&[0xBD10]), 1 + PC_LOAD_REFILL);
    }

    #[test]
    fn long_multiply_result_is_late_but_chains_as_accumulator() {
        // umull r0, r1, r2, r3; adds r4, r0, r5 -> stall
        assert_eq!(extra(&[0xFBA2, 0x0103, 0x1944]), 1);
        // umull r0, r1, r2, r3; umlal r0, r1, r4, r5 -> accumulators read late: no stall
        assert_eq!(extra(&[0xFBA2, 0x0103, 0xFBE4, 0x0105]), 0);
        // mul.w r0, r1, r2; adds r3, r0, r0 -> single cycle, no stall
        assert_eq!(extra(&[0xFB01, 0xF002, 0x1803]), 0);
    }

    #[test]
    fn shifted_operand_result_is_late() {
        // add.w r0, r1, r2, lsl #2; adds r3, r0, r4
        assert_eq!(extra(&[0xEB01, 0x0082, 0x1903]), 1);
        // add.w r0, r1, r2 (no shift); adds r3, r0, r4
        assert_eq!(extra(&[0xEB01, 0x0002, 0x1903]), 0);
    }

    #[test]
    fn branches_and_pairing() {
        let cond = |hws: &[u16]| block_costs(&seq(0x1000, hws));
        // subs r7, #1; bne back: not taken pairs (0), taken 2
        let (e, x) = cond(&[0x3F01, 0xD1FD]);
        assert_eq!(e, -1);
        assert_eq!(x, Exit::M33Cond { taken_extra: 2 });
        // add r0, r1 (no flags, high-register form); bne: taken pairs to 1
        let (_, x) = cond(&[0x4408, 0xD1FD]);
        assert_eq!(x, Exit::M33Cond { taken_extra: 1 });
        // a 32-bit conditional branch: 1 not taken, 2 taken
        let (e, x) = cond(&[0xF040, 0x0001, 0xF47F, 0xAFFE]);
        assert_eq!((e, x), (0, Exit::M33Cond { taken_extra: 1 }));
        // bl: 2
        assert_eq!(extra(&[0xF000, 0xF800]), 1);
        // bx lr: 2
        assert_eq!(extra(&[0x4770]), 1);
        // cmp r0, #0; it eq; moveq r0, #1: IT pairs
        assert_eq!(extra(&[0x2800, 0xBF08, 0x2001]), -1);
    }

    #[test]
    fn literal_loads_read_flash_through_the_block() {
        let flash = FlashRanges(vec![(0x1000_0000, 0x1040_0000)]);
        // ldr r0, [pc, #16] at 0x10000100: literal at 0x10000114
        let b = build_block(Core::M33, &seq(0x1000_0100, &[0x4804, 0x4770]), &flash);
        assert_eq!(b.xip_reads, vec![0x1000_0100, 0x1000_0110]);
        // the same code in SRAM reads nothing through the cache
        let b = build_block(Core::M33, &seq(0x2000_0100, &[0x4804, 0x4770]), &flash);
        assert!(b.xip_reads.is_empty());
    }

    #[test]
    fn decode_registers() {
        let i = seq(0, &[0xF8D1, 0x0004])[0]; // ldr.w r0, [r1, #4]
        assert_eq!((i.reads, i.writes, i.late, i.dyn_load), (2, 1, true, true));
        let i = seq(0, &[0x9801])[0]; // ldr r0, [sp, #4]
        assert!(i.late && !i.dyn_load);
        let i = seq(0, &[0xE8BD, 0x8010])[0]; // pop.w {r4, pc}
        assert_eq!((i.kind, i.issue), (Kind::PcLoad, 2));
        let i = seq(0, &[0xE8D0, 0xF001])[0]; // tbb [r0, r1]
        assert_eq!(i.kind, Kind::PcLoad);
        let i = seq(0, &[0xF010, 0x4F80])[0]; // tst.w r0, #0x40000000 (rotated, flags)
        assert_eq!((i.issue, i.writes), (2, 0));
        let i = seq(0, &[0xF3EF, 0x8410])[0]; // mrs r4, primask
        assert_eq!(i.writes, 1 << 4);
    }
}

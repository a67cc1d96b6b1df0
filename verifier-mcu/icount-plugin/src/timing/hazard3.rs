//! Hazard3 (as configured on the RP2350) instruction timing from RV32 encodings.
//!
//! Rules (Hazard3 documentation, doc/sections/instruction_timings.adoc in Wren6991/Hazard3;
//! see TIMING.md): ALU, Zba/Zbb/Zbs/Zbkb, MUL/MULH* 1 (fast multiplier); loads 1, +1 if the
//! next instruction uses the result (also as a load/store address, not as store data);
//! stores 1; DIVU/REMU 18, DIV/REM 18 or 19 (19 assumed: [`DIV_SIGNED_CYCLES`]); JAL/JALR 2;
//! conditional branches 1 when predicted, 2 when not, with a one-entry predictor holding the
//! last taken backward branch (run in [`super::Model::enter`]); +1 for a jump or taken branch
//! to a 32-bit instruction that is not 4-byte aligned; AMOs 4; compressed instructions cost
//! as their 32-bit forms.

use super::{Exit, Insn, Kind, WrongPath};

pub const DIV_UNSIGNED_CYCLES: u32 = 18;
/// "18 or 19, depending on sign correction": operand signs are not visible to the plugin,
/// so the upper figure.
pub const DIV_SIGNED_CYCLES: u32 = 19;
pub const JUMP_CYCLES: u32 = 2;
pub const AMO_CYCLES: u32 = 4;
const SP: u32 = 2;

fn bit(r: u32) -> u32 {
    // x0 is never a dependency.
    (1 << r) & !1
}

fn sext(v: u32, bits: u32) -> u32 {
    (((v << (32 - bits)) as i32) >> (32 - bits)) as u32
}

/// Decodes one RV32 instruction at `addr` (2 or 4 bytes, little-endian).
pub fn decode(addr: u32, bytes: &[u8]) -> Insn {
    if bytes.len() < 2 {
        return Insn::plain(addr, 2);
    }
    let low = u16::from_le_bytes([bytes[0], bytes[1]]) as u32;
    if low & 3 == 3 {
        if bytes.len() < 4 {
            return Insn::plain(addr, 4);
        }
        decode32(
            addr,
            u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]),
        )
    } else {
        decode16(addr, low)
    }
}

fn load(i: &mut Insn, rd: u32, rs1: u32) {
    i.reads = bit(rs1);
    i.writes = bit(rd);
    i.late = true;
    i.dyn_load = rs1 != SP;
}

fn decode32(addr: u32, x: u32) -> Insn {
    let mut i = Insn::plain(addr, 4);
    let rd = (x >> 7) & 31;
    let rs1 = (x >> 15) & 31;
    let rs2 = (x >> 20) & 31;
    let f3 = (x >> 12) & 7;
    match x & 0x7F {
        0x37 | 0x17 => i.writes = bit(rd), // LUI, AUIPC
        0x6F => {
            i.writes = bit(rd);
            i.issue = JUMP_CYCLES;
            i.kind = Kind::Jump;
        }
        0x67 => {
            i.reads = bit(rs1);
            i.writes = bit(rd);
            i.issue = JUMP_CYCLES;
            i.kind = Kind::Jump;
        }
        0x63 => {
            i.reads = bit(rs1) | bit(rs2);
            let imm = (x >> 31) << 12
                | ((x >> 7) & 1) << 11
                | ((x >> 25) & 0x3F) << 5
                | ((x >> 8) & 0xF) << 1;
            i.kind = Kind::CondBranch {
                target: addr.wrapping_add(sext(imm, 13)),
            };
        }
        0x03 => load(&mut i, rd, rs1),
        // stores: the address is read early, the data late
        0x23 => i.reads = bit(rs1),
        0x13 => {
            i.reads = bit(rs1);
            i.writes = bit(rd);
        }
        0x33 => {
            i.reads = bit(rs1) | bit(rs2);
            i.writes = bit(rd);
            if x >> 25 == 1 && f3 >= 4 {
                i.issue = if f3 & 1 == 0 {
                    DIV_SIGNED_CYCLES
                } else {
                    DIV_UNSIGNED_CYCLES
                };
            }
        }
        0x2F => {
            let f5 = x >> 27;
            i.reads = bit(rs1);
            i.writes = bit(rd);
            i.late = true;
            match f5 {
                0x02 => i.dyn_load = true, // LR.W
                0x03 => {}                 // SC.W
                _ => {
                    i.reads |= bit(rs2);
                    i.issue = AMO_CYCLES;
                }
            }
        }
        0x73 if f3 != 0 => {
            // CSR access (the immediate forms carry a constant in the rs1 field)
            i.reads = if f3 & 4 == 0 { bit(rs1) } else { 0 };
            i.writes = bit(rd);
        }
        _ => {}
    }
    i
}

fn decode16(addr: u32, c: u32) -> Insn {
    let mut i = Insn::plain(addr, 2);
    let f3 = c >> 13;
    let r_hi = (c >> 7) & 31;
    let r_lo = (c >> 2) & 31;
    let rp_hi = ((c >> 7) & 7) + 8;
    let rp_lo = ((c >> 2) & 7) + 8;
    match (c & 3, f3) {
        (0, 0) => {
            // C.ADDI4SPN
            i.reads = bit(SP);
            i.writes = bit(rp_lo);
        }
        (0, 2) => load(&mut i, rp_lo, rp_hi), // C.LW
        (0, 6) => i.reads = bit(rp_hi),       // C.SW
        (1, 0) | (1, 2) | (1, 3) => {
            // C.ADDI, C.LI, C.LUI / C.ADDI16SP
            i.reads = if f3 == 0 || r_hi == SP { bit(r_hi) } else { 0 };
            i.writes = bit(r_hi);
        }
        (1, 1) | (1, 5) => {
            // C.JAL, C.J
            i.writes = if f3 == 1 { bit(1) } else { 0 };
            i.issue = JUMP_CYCLES;
            i.kind = Kind::Jump;
        }
        (1, 4) => {
            i.reads = bit(rp_hi) | if (c >> 10) & 3 == 3 { bit(rp_lo) } else { 0 };
            i.writes = bit(rp_hi);
        }
        (1, 6) | (1, 7) => {
            // C.BEQZ, C.BNEZ
            i.reads = bit(rp_hi);
            let imm = ((c >> 12) & 1) << 8
                | ((c >> 10) & 3) << 3
                | ((c >> 5) & 3) << 6
                | ((c >> 3) & 3) << 1
                | ((c >> 2) & 1) << 5;
            i.kind = Kind::CondBranch {
                target: addr.wrapping_add(sext(imm, 9)),
            };
        }
        (2, 0) => {
            // C.SLLI
            i.reads = bit(r_hi);
            i.writes = bit(r_hi);
        }
        (2, 2) => load(&mut i, r_hi, SP), // C.LWSP
        (2, 4) => {
            let link = (c >> 12) & 1 != 0;
            match (r_lo, link) {
                (0, _) if r_hi == 0 => {} // C.EBREAK
                (0, _) => {
                    // C.JR, C.JALR
                    i.reads = bit(r_hi);
                    i.writes = if link { bit(1) } else { 0 };
                    i.issue = JUMP_CYCLES;
                    i.kind = Kind::Jump;
                }
                (_, false) => {
                    // C.MV
                    i.reads = bit(r_lo);
                    i.writes = bit(r_hi);
                }
                (_, true) => {
                    // C.ADD
                    i.reads = bit(r_hi) | bit(r_lo);
                    i.writes = bit(r_hi);
                }
            }
        }
        (2, 6) => i.reads = bit(SP), // C.SWSP
        _ => {}
    }
    i
}

/// Words the frontend keeps requested ahead of decode: its prefetch FIFO
/// (`FIFO_DEPTH = 2` in hdl/hazard3_frontend.v), refilled one word per cycle.
pub const PREFETCH_WORDS: u32 = 2;

/// The flash line after the one holding the block's last instruction (a jump or branch),
/// which instruction fetch has requested by the time that instruction redirects it: fetch
/// runs up to [`PREFETCH_WORDS`] words past the branch's last word, one word per cycle, so
/// after a redirect into a block of `cycles` cycles spanning `n` words it has requested
/// `cycles + 1 - n` words past it (the target's word goes out in the redirect cycle). The
/// next line is 1 or 2 words past the branch's word. `None` for an empty block.
pub fn wrong_path_line(insns: &[Insn], cycles: u32) -> Option<WrongPath> {
    let (first, last) = (insns.first()?, insns.last()?);
    let branch_word = (last.addr + last.size as u32 - 1) & !3;
    let line = (branch_word & !7).wrapping_add(8);
    let words_to_line = if branch_word & 4 == 0 { 2 } else { 1 };
    let words = (branch_word >> 2) - (first.addr >> 2) + 1;
    let ahead = (cycles + 1).saturating_sub(words).min(PREFETCH_WORDS);
    Some(WrongPath {
        line,
        after_redirect: ahead >= words_to_line,
    })
}

/// Extra cycles of a block on its fall-through path and its exit.
pub fn block_costs(insns: &[Insn]) -> (i32, Exit) {
    let mut extra = 0i32;
    for (n, i) in insns.iter().enumerate() {
        let prev = n.checked_sub(1).map(|p| &insns[p]);
        let stall = prev.is_some_and(|p| p.late && p.writes & i.reads != 0) as i32;
        extra += i.issue as i32 - 1 + stall;
    }
    let exit = match insns.last().map(|i| i.kind) {
        Some(Kind::CondBranch { target }) => {
            let addr = insns.last().map_or(0, |i| i.addr);
            Exit::Hazard3Cond {
                addr,
                backward: target <= addr,
            }
        }
        Some(Kind::Jump) => Exit::Hazard3Jump,
        _ => Exit::Static,
    };
    (extra, exit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::timing::xip::{QmiTiming, Replacement, Xip};
    use crate::timing::{build_block, Core, FlashRanges, Model};

    fn seq(addr: u32, words: &[u32]) -> Vec<Insn> {
        let mut out = Vec::new();
        let mut a = addr;
        for &w in words {
            let bytes = w.to_le_bytes();
            let i = if w & 3 == 3 {
                decode(a, &bytes)
            } else {
                decode(a, &bytes[..2])
            };
            a += i.size as u32;
            out.push(i);
        }
        out
    }

    fn block(addr: u32, words: &[u32]) -> &'static crate::timing::Block {
        Box::leak(Box::new(build_block(
            Core::Hazard3,
            &seq(addr, words),
            &FlashRanges::default(),
        )))
    }

    fn model() -> Model {
        let xip = Xip::new(QmiTiming::bootrom_default(), Replacement::Random);
        Model::new(Core::Hazard3, FlashRanges::default(), xip)
    }

    #[test]
    fn load_use() {
        // lw a0, 0(a1); add a2, a0, a3  vs  lw a0, 0(a1); add a2, a4, a3
        let dep = block_costs(&seq(0, &[0x0005A503, 0x00D50633])).0;
        let indep = block_costs(&seq(0, &[0x0005A503, 0x00D70633])).0;
        assert_eq!((dep, indep), (1, 0));
        // store data does not wait: lw a0, 0(a1); sw a0, 0(a2)
        assert_eq!(block_costs(&seq(0, &[0x0005A503, 0x00A62023])).0, 0);
        // an address does: lw a0, 0(a1); lw a2, 0(a0)
        assert_eq!(block_costs(&seq(0, &[0x0005A503, 0x00052603])).0, 1);
        // compressed: c.lw a0, 0(a1); c.add a0, a1
        assert_eq!(block_costs(&seq(0, &[0x4188, 0x952E])).0, 1);
    }

    #[test]
    fn divide_jump_and_zb() {
        assert_eq!(block_costs(&seq(0, &[0x02B55533])).0, 17); // divu
        assert_eq!(block_costs(&seq(0, &[0x02B54533])).0, 18); // div
        assert_eq!(block_costs(&seq(0, &[0x02B50533])).0, 0); // mul
        assert_eq!(block_costs(&seq(0, &[0x20B52533])).0, 0); // sh1add (Zba)
        assert_eq!(block_costs(&seq(0, &[0x008000EF])).0, 1); // jal
        assert_eq!(block_costs(&seq(0, &[0x8082])).0, 1); // c.jr ra
                                                          // csrrci a0, mstatus, 8: the rs1 field is an immediate, not a register read
        assert_eq!(seq(0, &[0x30047573])[0].reads, 0);
    }

    #[test]
    fn backward_loop_branch_costs_one_after_the_first_iteration() {
        // loop: addi a0, a0, -1 ; bnez a0, loop (c.bnez at 0x104, back to 0x100)
        let body = block(0x100, &[0xFFF50513, 0xFD75]);
        let after = block(0x106, &[0x0001]);
        assert_eq!(
            body.exit,
            Exit::Hazard3Cond {
                addr: 0x104,
                backward: true
            }
        );
        let mut m = model();
        m.enter(body);
        m.enter(body); // first taken: not predicted, 2 cycles
        assert_eq!(m.stall, 1);
        m.enter(body); // predicted: 1 cycle
        m.enter(body);
        assert_eq!(m.stall, 1);
        m.enter(after); // predicted taken, not taken: 2 cycles, predictor cleared
        assert_eq!(m.stall, 2);
        assert_eq!(m.insns, 4 * 2 + 1);
    }

    #[test]
    fn fall_through_is_judged_on_the_image_not_the_board_addresses() {
        // beq a0, a1, +8 at 0x100, then the next instruction (0x104) falls through. The map
        // spread the function over an inlined copy: the board addresses are apart, the
        // image's are not, so the branch was not taken and costs nothing extra.
        let mut br = build_block(
            Core::Hazard3,
            &seq(0x1000_0100, &[0x00B50463]),
            &FlashRanges::default(),
        );
        let mut next = build_block(
            Core::Hazard3,
            &seq(0x1000_0180, &[0x00000013]),
            &FlashRanges::default(),
        );
        (br.start, br.end) = (0x100, 0x104);
        (next.start, next.end) = (0x104, 0x108);
        let (br, next): (&'static _, &'static _) =
            (Box::leak(Box::new(br)), Box::leak(Box::new(next)));
        let mut m = model();
        m.enter(br);
        m.enter(next);
        assert_eq!(m.stall, 0, "not taken");
        let mut far = build_block(
            Core::Hazard3,
            &seq(0x1000_0104, &[0x00000013]),
            &FlashRanges::default(),
        );
        (far.start, far.end) = (0x108, 0x10c);
        let mut m = model();
        m.enter(br);
        m.enter(Box::leak(Box::new(far)));
        assert_eq!(
            m.stall, 1,
            "taken (unpredicted) though the board addresses are adjacent"
        );
    }

    #[test]
    fn forward_branch_is_never_predicted_and_misaligned_target_costs_one() {
        // beq a0, a1, +8 at 0x100 (forward)
        let br = block(0x100, &[0x00B50463]);
        let aligned = block(0x108, &[0x00000013]); // addi x0, x0, 0 (32-bit)
        let misaligned = block(0x10A, &[0x00000013]);
        let mut m = model();
        m.enter(br);
        m.enter(aligned);
        assert_eq!(m.stall, 1); // taken, not predicted
        m.enter(br);
        m.enter(aligned);
        assert_eq!(m.stall, 2); // forward branches never enter the predictor
        m.enter(br);
        m.enter(misaligned);
        assert_eq!(m.stall, 4);
        // a jump to a misaligned 32-bit instruction: 2 + 1
        let j = block(0x200, &[0x0000006F]);
        let mut m = model();
        m.enter(j);
        m.enter(misaligned);
        assert_eq!(m.stall, 2);
    }

    #[test]
    fn datasheet_copy_loop_takes_52_cycles_for_10_bytes() {
        // RP2350 datasheet 3.8.7.10: lbu a3,(a0); sb a3,(a1); addi a0,a0,1; addi a1,a1,1;
        // bltu a1,a2,1b -- 5 cycles per iteration, +1 for the first (mispredicted, taken)
        // and +1 for the last (mispredicted, not taken) branch.
        let body = block(
            0x200,
            &[0x00054683, 0x00D58023, 0x00150513, 0x00158593, 0xFEC5E8E3],
        );
        assert_eq!(
            body.exit,
            Exit::Hazard3Cond {
                addr: 0x210,
                backward: true
            }
        );
        let after = block(0x214, &[0x0001]);
        let mut m = model();
        for _ in 0..10 {
            m.enter(body);
        }
        m.enter(after);
        assert_eq!(50 + m.stall, 52);
    }

    fn flash_block(addr: u32, words: &[u32]) -> &'static crate::timing::Block {
        Box::leak(Box::new(build_block(
            Core::Hazard3,
            &seq(addr, words),
            &FlashRanges(vec![(0x1000_0000, 0x1100_0000)]),
        )))
    }

    fn flash_model() -> Model {
        let xip = Xip::new(QmiTiming::bootrom_default(), Replacement::Lru);
        Model::new(
            Core::Hazard3,
            FlashRanges(vec![(0x1000_0000, 0x1100_0000)]),
            xip,
        )
    }

    #[test]
    fn the_prefetch_queue_reaches_the_next_line_unless_the_block_is_short_and_wide() {
        const NOP32: u32 = 0x0000_0013;
        // addi x3 (32-bit); jal at 0x104, the second word of line 0x100: the next line is
        // one word past it, and two cycles of fetch after the redirect reach it
        let b = seq(0x100, &[NOP32, 0x0080_00EF]);
        let w = wrong_path_line(&b, 3).unwrap();
        assert_eq!((w.line, w.after_redirect), (0x108, true));
        // four 32-bit instructions, then a branch in the first word of line 0x110: five
        // cycles fetch five words from the target, only one past the branch's word, and the
        // next line (0x118) is two words past it
        let b = seq(0x100, &[NOP32, NOP32, NOP32, NOP32, 0x00B5_0463]);
        let w = wrong_path_line(&b, 5).unwrap();
        assert_eq!((w.line, w.after_redirect), (0x118, false));
        // the same branch after two compressed instructions: fetch is two words ahead
        let b = seq(0x10C, &[0x0001, 0x0001, 0x00B5_0463]);
        let w = wrong_path_line(&b, 3).unwrap();
        assert_eq!((w.line, w.after_redirect), (0x118, true));
    }

    #[test]
    fn a_taken_jump_fetches_the_next_line_first_a_predicted_branch_does_not() {
        const NOP32: u32 = 0x0000_0013;
        // nop; jal (to 0x1000_1000) at 0x1000_0104: line 0x1000_0108 is fetched past it
        let jump = flash_block(0x1000_0100, &[NOP32, 0x0080_00EF]);
        assert_eq!(jump.wrong_path.map(|w| w.line), Some(0x1000_0108));
        let target = flash_block(0x1000_1000, &[NOP32, NOP32]);
        let mut m = flash_model();
        m.enter(jump);
        m.enter(target);
        // the jump's line, the line past it, the target's line
        assert_eq!((m.xip.accesses, m.xip.misses), (3, 3));
        let past = m.xip.access(0x1000_0108, 1_000_000);
        assert_eq!(past, 0, "the line past the jump is in the cache");

        // loop: addi a0, a0, -1 ; c.bnez a0, loop (at 0x1000_0204, backward)
        let body = flash_block(0x1000_0200, &[0xFFF5_0513, 0xFD75]);
        assert_eq!(body.wrong_path.map(|w| w.line), Some(0x1000_0208));
        let mut m = flash_model();
        m.enter(body);
        m.enter(body); // taken, not predicted: 0x208 is fetched before the redirect
        assert_eq!(m.xip.misses, 2);
        m.enter(body); // predicted: fetch goes straight to the target
        m.enter(body);
        assert_eq!(m.xip.accesses, 1 + 1 + 3);
        // a branch that falls through fetches nothing it does not execute
        let br = flash_block(0x1000_0300, &[NOP32, 0x00B5_0463]); // beq at 0x304
        let next = flash_block(0x1000_0308, &[NOP32]);
        let mut m = flash_model();
        m.enter(br);
        m.enter(next);
        assert_eq!((m.xip.accesses, m.xip.misses), (2, 2));
    }

    #[test]
    fn cross_block_load_use() {
        // a block that ends in a load (split by QEMU), then a dependent first instruction
        let a = block(0x100, &[0x0005A503]); // lw a0, 0(a1)
        let b = block(0x104, &[0x00D50633]); // add a2, a0, a3
        let mut m = model();
        m.enter(a);
        m.enter(b);
        assert_eq!(m.stall, 1);
    }
}

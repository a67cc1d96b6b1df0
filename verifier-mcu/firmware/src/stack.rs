//! Stack peak by painting: fill the free stack below the current stack pointer with a
//! pattern, run, then find the lowest word that changed.
//!
//! The painted range comes from a linker symbol (the board's stack bottom). A wrong link
//! script once made that a flash address, so that painting would have written over the XIP
//! window and all of RAM below the stack (issue 18). The range is therefore checked against
//! the RAM the link script gives the stack first: above the end of `.bss` (which holds the
//! heap) and below the initial stack pointer. Out of range, nothing is painted and the peak
//! is unknown.

use core::sync::atomic::{AtomicUsize, Ordering::Relaxed};

const PAINT: u32 = 0x5AC3_5AC3;
/// Left unpainted below the painter's own frame.
const MARGIN: usize = 256;

/// Stack pointer at painting time; 0 when nothing was painted.
static TOP: AtomicUsize = AtomicUsize::new(0);
/// Lowest painted word.
static BOTTOM: AtomicUsize = AtomicUsize::new(0);

#[inline(always)]
fn sp() -> usize {
    let sp: usize;
    // SAFETY: reads the stack pointer register only.
    unsafe {
        #[cfg(target_arch = "arm")]
        core::arch::asm!("mov {}, sp", out(reg) sp, options(nomem, nostack, preserves_flags));
        #[cfg(target_arch = "riscv32")]
        core::arch::asm!("mv {}, sp", out(reg) sp, options(nomem, nostack, preserves_flags));
    }
    sp
}

// The end of `.bss` and the initial stack pointer, named as the runtime crates' link
// scripts name them (cortex-m-rt on Arm; riscv-rt's link.x and link/rp2350-riscv.x on RV32).
extern "C" {
    static _stack_start: u8;
    #[cfg(target_arch = "arm")]
    static __ebss: u8;
    #[cfg(target_arch = "riscv32")]
    static _ebss: u8;
}

/// `[end of .bss, initial stack pointer)`: where a stack may be.
fn stack_ram() -> (usize, usize) {
    // Only the symbols' addresses are taken.
    #[cfg(target_arch = "arm")]
    let floor = &raw const __ebss as usize;
    #[cfg(target_arch = "riscv32")]
    let floor = &raw const _ebss as usize;
    (floor, &raw const _stack_start as usize)
}

/// The word-aligned range to paint, `[bottom, top - MARGIN)`, or `None` when it does not lie
/// within `[floor, ceiling)`.
fn paint_range(bottom: usize, top: usize, floor: usize, ceiling: usize) -> Option<(usize, usize)> {
    let start = bottom.checked_add(3)? & !3;
    let end = top.checked_sub(MARGIN)? & !3;
    (floor <= start && start < end && end <= ceiling && top <= ceiling).then_some((start, end))
}

/// Paints `[stack bottom, sp - MARGIN)`. The stack use measured later is relative to the
/// stack pointer here. Returns false (and paints nothing) when that range is not stack RAM.
#[inline(never)]
pub fn paint() -> bool {
    let top = sp();
    let (floor, ceiling) = stack_ram();
    let Some((start, end)) = paint_range(crate::board::stack_bottom(), top, floor, ceiling) else {
        TOP.store(0, Relaxed);
        return false;
    };
    TOP.store(top, Relaxed);
    BOTTOM.store(start, Relaxed);
    let mut p = start;
    while p < end {
        // SAFETY: the words between the stack's lower bound (checked above to be stack RAM
        // above .bss) and just below the live frames belong to no one yet.
        unsafe { core::ptr::write_volatile(p as *mut u32, PAINT) };
        p += 4;
    }
    true
}

/// Deepest stack use below the painting point, in bytes; `None` when nothing was painted.
pub fn peak() -> Option<usize> {
    let top = TOP.load(Relaxed);
    if top == 0 {
        return None;
    }
    let end = (top - MARGIN) & !3;
    let mut p = BOTTOM.load(Relaxed);
    while p < end {
        // SAFETY: reads words of the stack region painted by `paint`.
        if unsafe { core::ptr::read_volatile(p as *const u32) } != PAINT {
            break;
        }
        p += 4;
    }
    Some(top - p)
}

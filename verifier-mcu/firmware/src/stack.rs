//! Stack peak by painting: fill the free stack below the current stack pointer with a
//! pattern, run, then find the lowest word that changed.

use core::sync::atomic::{AtomicUsize, Ordering::Relaxed};

const PAINT: u32 = 0x5AC3_5AC3;
/// Left unpainted below the painter's own frame.
const MARGIN: usize = 256;

static TOP: AtomicUsize = AtomicUsize::new(0);

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

/// Paints `[stack bottom, sp - MARGIN)`. The stack use measured later is relative to the
/// stack pointer here.
#[inline(never)]
pub fn paint() {
    let top = sp();
    TOP.store(top, Relaxed);
    let bottom = crate::board::stack_bottom();
    let mut p = (bottom + 3) & !3;
    while p + 4 <= top - MARGIN {
        // SAFETY: the words between the stack's lower bound (linker symbol) and just below
        // the live frames belong to no one yet.
        unsafe { core::ptr::write_volatile(p as *mut u32, PAINT) };
        p += 4;
    }
}

/// Deepest stack use below the painting point, in bytes.
pub fn peak() -> usize {
    let top = TOP.load(Relaxed);
    let mut p = (crate::board::stack_bottom() + 3) & !3;
    while p + 4 <= top - MARGIN {
        // SAFETY: reads words of the stack region painted by `paint`.
        if unsafe { core::ptr::read_volatile(p as *const u32) } != PAINT {
            break;
        }
        p += 4;
    }
    top - p
}

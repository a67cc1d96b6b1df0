//! QEMU `mps2-an505` (Cortex-M33, Secure): output over semihosting, exit status from the
//! verify result. No cycle counter (DWT CYCCNT reads 0 under QEMU): the TCG plugin counts
//! instructions instead.

// Linked for its single-core critical-section implementation (used by the allocator).
use cortex_m as _;
use cortex_m_rt::entry;

use crate::bench::{self, Board};
use crate::{heap, qemu_slot, semihosting};

/// The proof slot (see `link/memory-qemu-m33.x`).
const SLOT_ADDR: usize = 0x3820_0000;

struct QemuM33;

impl Board for QemuM33 {
    const CORE: &'static str = "m33";
    const BOARD: &'static str = "qemu-m33";
    const COUNTER: &'static str = "none";
    const CLOCK_HZ: u32 = 0;

    fn counter(&mut self) -> u64 {
        0
    }

    fn emit(&mut self, text: &str) {
        semihosting::write(text);
    }
}

extern "C" {
    static __sidata: u8;
    static __sdata: u8;
    static __edata: u8;
    static __sbss: u8;
    static __ebss: u8;
    static _stack_end: u8;
}

fn addr(s: &u8) -> usize {
    s as *const u8 as usize
}

/// Flash image bytes before `.data`'s load image (vector table, text, rodata).
pub fn text_bytes() -> usize {
    // SAFETY: linker symbols, only their addresses are used.
    unsafe { addr(&__sidata) - 0x1000_0000 }
}

pub fn data_bytes() -> usize {
    // SAFETY: linker symbols, only their addresses are used.
    unsafe { addr(&__edata) - addr(&__sdata) }
}

pub fn bss_bytes() -> usize {
    // SAFETY: linker symbols, only their addresses are used.
    unsafe { addr(&__ebss) - addr(&__sbss) }
}

/// Lowest address of the stack (end of `.bss`).
pub fn stack_bottom() -> usize {
    // SAFETY: linker symbol, only its address is used.
    unsafe { addr(&_stack_end) }
}

#[entry]
fn main() -> ! {
    heap::init();
    #[cfg(feature = "field-bench")]
    let outcome = crate::field_bench::run(&mut QemuM33);
    #[cfg(not(feature = "field-bench"))]
    let outcome = bench::run(&mut QemuM33, qemu_slot::proof(SLOT_ADDR));
    semihosting::exit(outcome.code() == 0)
}

pub fn on_panic(info: &core::panic::PanicInfo<'_>) -> ! {
    let mut line = bench::LineBuf::new();
    let _ = core::fmt::write(
        &mut line,
        format_args!("pstk1 panic message={}\n", info.message()),
    );
    semihosting::write(line.as_str());
    semihosting::exit(false)
}

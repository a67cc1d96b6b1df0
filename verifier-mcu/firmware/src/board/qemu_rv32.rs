//! QEMU `virt` (RV32IMAC, `-bios none`): output over semihosting, exit status through the
//! SiFive test finisher (0x5555 pass, `(code << 16) | 0x3333` fail). No cycle counter is
//! reported (QEMU's `mcycle` follows host time): the TCG plugin counts instructions instead.

// Linked for its single-hart critical-section implementation (used by the allocator).
use riscv as _;
use riscv_rt::entry;

use crate::bench::{self, Board};
use crate::{heap, qemu_slot, semihosting};

/// The proof slot (see `link/memory-qemu-rv32.x`).
const SLOT_ADDR: usize = 0x8080_0000;
/// The test finisher device.
const FINISHER: usize = 0x0010_0000;

struct QemuRv32;

impl Board for QemuRv32 {
    const CORE: &'static str = "rv32";
    const BOARD: &'static str = "qemu-rv32";
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
    static _stext: u8;
    static _sidata: u8;
    static _sdata: u8;
    static _edata: u8;
    static _sbss: u8;
    static _ebss: u8;
    static _estack: u8;
}

fn addr(s: &u8) -> usize {
    s as *const u8 as usize
}

/// Image bytes before `.data`'s load image (text, rodata).
pub fn text_bytes() -> usize {
    // SAFETY: linker symbols, only their addresses are used.
    unsafe { addr(&_sidata) - addr(&_stext) }
}

pub fn data_bytes() -> usize {
    // SAFETY: linker symbols, only their addresses are used.
    unsafe { addr(&_edata) - addr(&_sdata) }
}

pub fn bss_bytes() -> usize {
    // SAFETY: linker symbols, only their addresses are used.
    unsafe { addr(&_ebss) - addr(&_sbss) }
}

/// Lowest address of the stack region.
pub fn stack_bottom() -> usize {
    // SAFETY: linker symbol, only its address is used.
    unsafe { addr(&_estack) }
}

fn finish(code: u32) -> ! {
    let value = if code == 0 {
        0x5555
    } else {
        (code << 16) | 0x3333
    };
    // SAFETY: the virt machine's test finisher register.
    unsafe { core::ptr::write_volatile(FINISHER as *mut u32, value) };
    semihosting::exit(code == 0)
}

#[entry]
fn main() -> ! {
    #[cfg(not(feature = "stock-wf-window"))]
    crate::mem_rv32::self_check();
    heap::init();
    #[cfg(feature = "field-bench")]
    let outcome = crate::field_bench::run(&mut QemuRv32);
    #[cfg(not(feature = "field-bench"))]
    let outcome = bench::run(&mut QemuRv32, qemu_slot::proof(SLOT_ADDR));
    finish(outcome.code())
}

pub fn on_panic(info: &core::panic::PanicInfo<'_>) -> ! {
    let mut line = bench::LineBuf::new();
    let _ = core::fmt::write(
        &mut line,
        format_args!("pstk1 panic message={}\n", info.message()),
    );
    semihosting::write(line.as_str());
    finish(4)
}

//! Minimal Arm/RISC-V semihosting for the QEMU boards: write a string, exit.

/// `SYS_WRITE0`: write a NUL-terminated string to the debug console.
const SYS_WRITE0: usize = 0x04;
/// `SYS_EXIT`.
const SYS_EXIT: usize = 0x18;
/// `ADP_Stopped_ApplicationExit`: QEMU exits with status 0.
const ADP_APPLICATION_EXIT: usize = 0x20026;
/// `ADP_Stopped_RunTimeErrorUnknown`: QEMU exits with status 1.
const ADP_RUNTIME_ERROR: usize = 0x20023;

#[cfg(target_arch = "arm")]
unsafe fn call(op: usize, arg: usize) -> usize {
    let ret: usize;
    core::arch::asm!("bkpt #0xab", inout("r0") op => ret, in("r1") arg, options(nostack));
    ret
}

// The RISC-V semihosting trap is `ebreak` between two marker instructions, uncompressed and
// in one page (hence the 16-byte alignment).
#[cfg(target_arch = "riscv32")]
core::arch::global_asm!(
    ".section .text.pstk_semihost, \"ax\"",
    ".balign 16",
    ".global pstk_semihost_call",
    "pstk_semihost_call:",
    ".option push",
    ".option norvc",
    "slli zero, zero, 0x1f",
    "ebreak",
    "srai zero, zero, 7",
    ".option pop",
    "ret",
);

#[cfg(target_arch = "riscv32")]
extern "C" {
    fn pstk_semihost_call(op: usize, arg: usize) -> usize;
}

#[cfg(target_arch = "riscv32")]
unsafe fn call(op: usize, arg: usize) -> usize {
    pstk_semihost_call(op, arg)
}

/// Writes `text` to the host's console (in chunks, through a NUL-terminated buffer).
pub fn write(text: &str) {
    let mut buf = [0u8; 129];
    for chunk in text.as_bytes().chunks(128) {
        buf[..chunk.len()].copy_from_slice(chunk);
        buf[chunk.len()] = 0;
        // SAFETY: the buffer is NUL-terminated and lives across the call.
        unsafe { call(SYS_WRITE0, buf.as_ptr() as usize) };
    }
}

/// Ends the emulation: status 0 when `ok`, 1 otherwise.
pub fn exit(ok: bool) -> ! {
    let reason = if ok {
        ADP_APPLICATION_EXIT
    } else {
        ADP_RUNTIME_ERROR
    };
    // SAFETY: SYS_EXIT takes the reason code in the argument register on 32-bit targets.
    unsafe { call(SYS_EXIT, reason) };
    loop {
        core::hint::spin_loop();
    }
}

/// `SYS_EXIT_EXTENDED`: like `SYS_EXIT`, with an exit status for 32-bit guests.
const SYS_EXIT_EXTENDED: usize = 0x20;

/// Ends the emulation with exit status `code` (QEMU passes it through).
pub fn exit_with_code(code: u32) -> ! {
    let block = [ADP_APPLICATION_EXIT, code as usize];
    // SAFETY: the parameter block lives across the call.
    unsafe { call(SYS_EXIT_EXTENDED, block.as_ptr() as usize) };
    loop {
        core::hint::spin_loop();
    }
}

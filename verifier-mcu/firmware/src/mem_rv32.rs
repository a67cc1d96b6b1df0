//! `memcpy`, `memset` and `memmove` for the RV32 firmware, replacing `compiler_builtins`' weak
//! defaults.
//!
//! Under `mcu-run --profile` the default `memcpy` was the single largest function on RV32
//! after the BLAKE3 compression (16-32 % of every backend's instructions, Fib-1024, issue 14):
//! most calls move 64-128-byte values (BLAKE3 blocks and chunk states, digests, Merkle
//! paths), which its aligned path copies one word per five-instruction iteration. Here whole
//! 32-byte blocks are copied eight words at a time (loads grouped before stores, so Hazard3
//! never waits on a load result), then words, then bytes; when source and destination differ
//! modulo 4, each destination word is built from two aligned source words with shifts;
//! `memmove` copies forwards through `memcpy` unless the destination starts inside the
//! source. Effect (emulator, Fib-1024, Hazard3 ISA): 9.4-14.4 % fewer instructions per
//! backend (`results/baseline/hazard3/`). The M33 keeps the library's routines.
//!
//! Written in assembly because a `memcpy` written in Rust may be turned back into a call to
//! `memcpy` by the optimiser. The aligned source reads of the shifted path stay within the
//! 4-byte words that hold source bytes, which every RP2350 and QEMU memory allows.

core::arch::global_asm!(
    r#"
    .section .text.memcpy,"ax",@progbits
    .globl memcpy
    .type memcpy,@function
    .p2align 2
memcpy:
    mv      a3, a0              # a3: destination cursor (a0 is returned)
    add     a4, a0, a2          # a4: destination end
    or      t0, a0, a1
    andi    t0, t0, 3
    bnez    t0, 8f              # not both word-aligned
2:  andi    t1, a2, -32         # a2: bytes left, both cursors word-aligned
    add     t1, t1, a3          # t1: end of the 32-byte blocks
    beq     a3, t1, 4f
3:  lw      t0, 0(a1)
    lw      t2, 4(a1)
    lw      t3, 8(a1)
    lw      t4, 12(a1)
    lw      t5, 16(a1)
    lw      t6, 20(a1)
    lw      a5, 24(a1)
    lw      a6, 28(a1)
    sw      t0, 0(a3)
    sw      t2, 4(a3)
    sw      t3, 8(a3)
    sw      t4, 12(a3)
    sw      t5, 16(a3)
    sw      t6, 20(a3)
    sw      a5, 24(a3)
    sw      a6, 28(a3)
    addi    a1, a1, 32
    addi    a3, a3, 32
    bltu    a3, t1, 3b
4:  andi    t1, a4, -4          # t1: end of the whole words
    bgeu    a3, t1, 5f
41: lw      t0, 0(a1)
    sw      t0, 0(a3)
    addi    a1, a1, 4
    addi    a3, a3, 4
    bltu    a3, t1, 41b
5:  bgeu    a3, a4, 7f          # the remaining bytes
51: lbu     t0, 0(a1)
    sb      t0, 0(a3)
    addi    a1, a1, 1
    addi    a3, a3, 1
    bltu    a3, a4, 51b
7:  ret
8:  li      t0, 16
    bltu    a2, t0, 5b          # short unaligned copies: bytes
    xor     t0, a0, a1
    andi    t0, t0, 3
    bnez    t0, 6f              # source and destination differ modulo 4
1:  lbu     t0, 0(a1)           # same offset: align both (1 to 3 bytes), then words
    sb      t0, 0(a3)
    addi    a1, a1, 1
    addi    a3, a3, 1
    andi    t0, a3, 3
    bnez    t0, 1b
    sub     a2, a4, a3
    j       2b
6:  andi    t0, a3, 3           # align the destination (at most 3 bytes)
    beqz    t0, 61f
    lbu     t0, 0(a1)
    sb      t0, 0(a3)
    addi    a1, a1, 1
    addi    a3, a3, 1
    j       6b
61: andi    t1, a4, -4          # t1: end of the whole destination words (>= 3 of them)
    andi    t2, a1, 3
    slli    t2, t2, 3           # t2: right shift, 8 * source offset (8, 16 or 24)
    neg     t3, t2              # t3: left shift, 32 - t2 (shifts use the low 5 bits)
    andi    t4, a1, -4          # t4: aligned source word
    lw      t5, 0(t4)
62: lw      t6, 4(t4)
    srl     t0, t5, t2
    sll     a5, t6, t3
    or      t0, t0, a5
    sw      t0, 0(a3)
    mv      t5, t6
    addi    t4, t4, 4
    addi    a3, a3, 4
    bltu    a3, t1, 62b
    srli    t2, t2, 3
    add     a1, t4, t2          # back to a byte cursor for the tail
    j       5b
    .size memcpy, . - memcpy

    .section .text.memset,"ax",@progbits
    .globl memset
    .type memset,@function
    .p2align 2
memset:
    mv      a3, a0              # a3: destination cursor (a0 is returned)
    add     a4, a0, a2          # a4: destination end
    li      t0, 16
    bltu    a2, t0, 5f          # short fills: bytes
    andi    a1, a1, 0xff        # the byte in all four lanes
    slli    t0, a1, 8
    or      a1, a1, t0
    slli    t0, a1, 16
    or      a1, a1, t0
1:  andi    t0, a3, 3           # align to 4 (at most 3 bytes)
    beqz    t0, 2f
    sb      a1, 0(a3)
    addi    a3, a3, 1
    j       1b
2:  sub     t1, a4, a3
    andi    t1, t1, -32
    add     t1, t1, a3          # t1: end of the 32-byte blocks
    beq     a3, t1, 4f
3:  sw      a1, 0(a3)
    sw      a1, 4(a3)
    sw      a1, 8(a3)
    sw      a1, 12(a3)
    sw      a1, 16(a3)
    sw      a1, 20(a3)
    sw      a1, 24(a3)
    sw      a1, 28(a3)
    addi    a3, a3, 32
    bltu    a3, t1, 3b
4:  andi    t1, a4, -4          # t1: end of the whole words
    bgeu    a3, t1, 5f
41: sw      a1, 0(a3)
    addi    a3, a3, 4
    bltu    a3, t1, 41b
5:  bgeu    a3, a4, 7f          # the remaining bytes
51: sb      a1, 0(a3)
    addi    a3, a3, 1
    bltu    a3, a4, 51b
7:  ret
    .size memset, . - memset

    .section .text.memmove,"ax",@progbits
    .globl memmove
    .type memmove,@function
    .p2align 2
memmove:
    sub     t0, a0, a1
    bltu    t0, a2, 1f          # destination inside the source: copy backwards
    j       memcpy              # memcpy copies forwards, and loads a block before storing it
1:  add     a3, a0, a2          # rare: bytes, from the end
    add     a1, a1, a2
2:  beq     a3, a0, 3f
    addi    a1, a1, -1
    addi    a3, a3, -1
    lbu     t0, 0(a1)
    sb      t0, 0(a3)
    j       2b
3:  ret
    .size memmove, . - memmove
"#
);

#[cfg(feature = "qemu")]
extern "C" {
    fn memcpy(dst: *mut u8, src: *const u8, n: usize) -> *mut u8;
    fn memmove(dst: *mut u8, src: *const u8, n: usize) -> *mut u8;
    fn memset(dst: *mut u8, c: i32, n: usize) -> *mut u8;
}

/// Checks the three routines on every source and destination offset modulo 4 and every
/// length up to a few blocks, overlapping moves in both directions included; panics on the
/// first wrong byte (the QEMU board runs it before any measurement, so CI's runs fail).
#[cfg(feature = "qemu")]
pub fn self_check() {
    const N: usize = 112;
    let pattern = |i: usize| (i as u8).wrapping_mul(37).wrapping_add(11);
    let mut src = [0u8; N];
    for (i, b) in src.iter_mut().enumerate() {
        *b = pattern(i);
    }
    let mut buf = [0u8; N];
    for len in 0..=N - 8 {
        for s in 0..4 {
            for d in 0..4 {
                buf.fill(0xA5);
                // SAFETY: `s + len` and `d + len` stay within the two distinct arrays.
                let r = unsafe { memcpy(buf.as_mut_ptr().add(d), src.as_ptr().add(s), len) };
                assert!(r == buf.as_mut_ptr().wrapping_add(d), "memcpy return");
                for (i, &b) in buf.iter().enumerate() {
                    let want = if (d..d + len).contains(&i) {
                        pattern(s + i - d)
                    } else {
                        0xA5
                    };
                    assert!(b == want, "memcpy len={len} src+{s} dst+{d} byte {i}");
                }
            }
            // memmove inside one buffer, the destination below and above the source.
            for shift in [1usize, 2, 3, 4, 5, 33] {
                for up in [false, true] {
                    let (from, to) = if up { (s, s + shift) } else { (s + shift, s) };
                    if to.max(from) + len > N {
                        continue;
                    }
                    buf.copy_from_slice(&src);
                    // SAFETY: both ranges lie in `buf` (checked above); they may overlap.
                    unsafe { memmove(buf.as_mut_ptr().add(to), buf.as_ptr().add(from), len) };
                    for (i, &b) in buf.iter().enumerate() {
                        let want = if (to..to + len).contains(&i) {
                            pattern(from + i - to)
                        } else {
                            pattern(i)
                        };
                        assert!(b == want, "memmove len={len} {from}->{to} byte {i}");
                    }
                }
            }
            buf.fill(0xA5);
            // SAFETY: `s + len` stays within `buf`.
            unsafe { memset(buf.as_mut_ptr().add(s), 0x1C7, len) };
            for (i, &b) in buf.iter().enumerate() {
                let want = if (s..s + len).contains(&i) {
                    0xC7
                } else {
                    0xA5
                };
                assert!(b == want, "memset len={len} dst+{s} byte {i}");
            }
        }
    }
}

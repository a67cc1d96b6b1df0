//! The QEMU proof slot: the runner loads `PSLT`, a little-endian u32 length and the proof
//! file bytes at a fixed RAM address with `-device loader,file=F,addr=A,force-raw=on`, so one
//! firmware build verifies any number of proofs. Without a slot the embedded proof is used.
//!
//! The slot is RAM because QEMU loads files into RAM, but it lies outside the firmware's RAM
//! region: it stands for flash, and the proof never counts against the heap.

use crate::bench::ProofBytes;

/// Largest proof the slot holds.
pub const SLOT_CAPACITY: usize = 1024 * 1024;
/// Magic that marks a filled slot.
pub const SLOT_MAGIC: [u8; 4] = *b"PSLT";

/// The proof in the slot at `addr` (writable: the tampered check flips a byte in place),
/// else the embedded one. Call once: the slot is handed out as `&'static mut`.
pub fn proof(addr: usize) -> ProofBytes {
    // SAFETY: `addr` is a RAM region reserved for the slot on each QEMU board (outside the
    // firmware's memory map); QEMU zero-fills RAM, so an unfilled slot has no magic.
    let head = unsafe { core::slice::from_raw_parts(addr as *const u8, 8) };
    if head[..4] != SLOT_MAGIC {
        return ProofBytes::ReadOnly(crate::config::EMBEDDED_PROOF);
    }
    let len = u32::from_le_bytes([head[4], head[5], head[6], head[7]]) as usize;
    let len = len.min(SLOT_CAPACITY);
    // SAFETY: as above; the length is bounded by the slot's capacity, and each board calls
    // this once at boot, so the mutable slice is the only reference to the slot.
    ProofBytes::Slot(unsafe { core::slice::from_raw_parts_mut((addr + 8) as *mut u8, len) })
}

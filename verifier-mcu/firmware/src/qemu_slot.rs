//! The QEMU proof slot: the runner loads `PSLT`, a little-endian u32 length and the proof
//! file bytes at a fixed RAM address with `-device loader,file=F,addr=A,force-raw=on`, so one
//! firmware build verifies any number of proofs. Without a slot the embedded proof is used.

/// Largest proof the slot holds.
pub const SLOT_CAPACITY: usize = 1024 * 1024;
/// Magic that marks a filled slot.
pub const SLOT_MAGIC: [u8; 4] = *b"PSLT";

/// The proof in the slot at `addr`, else the embedded one.
pub fn proof(addr: usize) -> &'static [u8] {
    // SAFETY: `addr` is a RAM region reserved for the slot on each QEMU board (outside the
    // firmware's memory map); QEMU zero-fills RAM, so an unfilled slot has no magic.
    let head = unsafe { core::slice::from_raw_parts(addr as *const u8, 8) };
    if head[..4] != SLOT_MAGIC {
        return crate::config::EMBEDDED_PROOF;
    }
    let len = u32::from_le_bytes([head[4], head[5], head[6], head[7]]) as usize;
    let len = len.min(SLOT_CAPACITY);
    // SAFETY: as above; the length is bounded by the slot's capacity.
    unsafe { core::slice::from_raw_parts((addr + 8) as *const u8, len) }
}

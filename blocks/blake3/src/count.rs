//! A count of BLAKE3 compressions on the calling thread (feature `count`, host only: it needs
//! std's thread locals): every call of [`crate::compress`] adds one, so a host verification
//! runs the firmware's own hashing code and its hash floor is counted, not estimated. Per
//! thread, because provers and other tests hash on other threads at the same time and must
//! not leak into a verification's count; off until [`reset`].

use core::cell::Cell;

std::thread_local! {
    static COMPRESSIONS: Cell<u64> = const { Cell::new(0) };
    static ENABLED: Cell<bool> = const { Cell::new(false) };
}

/// Compressions BLAKE3 performs for a `len`-byte message: one per 64-byte block of each
/// 1024-byte chunk (an empty message still compresses one block), plus one per parent node.
/// For hashing done outside this crate (a streaming hasher), counted with [`add`].
pub fn compressions_for(len: usize) -> u64 {
    let chunks = len.div_ceil(1024).max(1);
    let last = len - (chunks - 1) * 1024;
    let blocks = (chunks - 1) * 16 + last.div_ceil(64).max(1);
    (blocks + chunks - 1) as u64
}

/// Sets this thread's counter to zero and starts counting on this thread.
pub fn reset() {
    COMPRESSIONS.with(|c| c.set(0));
    ENABLED.with(|e| e.set(true));
}

/// Stops counting on this thread.
pub fn stop() {
    ENABLED.with(|e| e.set(false));
}

/// Compressions counted on this thread since its last [`reset`].
pub fn compressions() -> u64 {
    COMPRESSIONS.with(Cell::get)
}

/// Adds `n` compressions while this thread counts.
#[inline]
pub fn add(n: u64) {
    if ENABLED.with(Cell::get) {
        COMPRESSIONS.with(|c| c.set(c.get() + n));
    }
}

//! A process-wide count of BLAKE3 compressions (feature `count`, host only: it needs 64-bit
//! atomics): every call of [`crate::compress`] adds one, so a host verification runs the
//! firmware's own hashing code and its hash floor is counted, not estimated. Off until
//! [`reset`], because provers hash on many threads and must not share one hot counter.

use core::sync::atomic::{AtomicBool, AtomicU64, Ordering};

static COMPRESSIONS: AtomicU64 = AtomicU64::new(0);
static ENABLED: AtomicBool = AtomicBool::new(false);

/// Compressions BLAKE3 performs for a `len`-byte message: one per 64-byte block of each
/// 1024-byte chunk (an empty message still compresses one block), plus one per parent node.
/// For hashing done outside this crate (a streaming hasher), counted with [`add`].
pub fn compressions_for(len: usize) -> u64 {
    let chunks = len.div_ceil(1024).max(1);
    let last = len - (chunks - 1) * 1024;
    let blocks = (chunks - 1) * 16 + last.div_ceil(64).max(1);
    (blocks + chunks - 1) as u64
}

/// Sets the counter to zero and starts counting.
pub fn reset() {
    COMPRESSIONS.store(0, Ordering::Relaxed);
    ENABLED.store(true, Ordering::Relaxed);
}

/// Stops counting.
pub fn stop() {
    ENABLED.store(false, Ordering::Relaxed);
}

/// Compressions counted since the last [`reset`].
pub fn compressions() -> u64 {
    COMPRESSIONS.load(Ordering::Relaxed)
}

/// Adds `n` compressions while counting is on.
#[inline]
pub fn add(n: u64) {
    if ENABLED.load(Ordering::Relaxed) {
        COMPRESSIONS.fetch_add(n, Ordering::Relaxed);
    }
}

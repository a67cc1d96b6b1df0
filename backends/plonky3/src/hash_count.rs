//! BLAKE3 with a compression counter (feature `hash-count`, host only): the same digests as
//! `p3_blake3::Blake3`, and a process-wide count of the BLAKE3 compressions the inputs need,
//! so a verification's hash floor is counted, not estimated. Never in a measured firmware.

use core::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use p3_blake3::Blake3;
use p3_symmetric::CryptographicHasher;

static COMPRESSIONS: AtomicU64 = AtomicU64::new(0);
/// Off unless counting: provers hash on many threads and must not share one hot counter.
static ENABLED: AtomicBool = AtomicBool::new(false);

/// Compressions BLAKE3 performs for a `len`-byte message: one per 64-byte block of each
/// 1024-byte chunk (an empty message still compresses one block), plus one per parent node.
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

fn add(len: usize) {
    if !ENABLED.load(Ordering::Relaxed) {
        return;
    }
    COMPRESSIONS.fetch_add(compressions_for(len), Ordering::Relaxed);
}

/// `p3_blake3::Blake3` that counts.
#[derive(Copy, Clone, Debug)]
pub struct CountingBlake3;

impl CryptographicHasher<u8, [u8; 32]> for CountingBlake3 {
    fn hash_iter<I>(&self, input: I) -> [u8; 32]
    where
        I: IntoIterator<Item = u8>,
    {
        let mut len = 0;
        let d = Blake3.hash_iter(input.into_iter().inspect(|_| len += 1));
        add(len);
        d
    }

    fn hash_iter_slices<'a, I>(&self, input: I) -> [u8; 32]
    where
        I: IntoIterator<Item = &'a [u8]>,
    {
        let mut len = 0;
        let d = Blake3.hash_iter_slices(input.into_iter().inspect(|s| len += s.len()));
        add(len);
        d
    }

    fn hash_many(&self, input: &[u8], out: &mut [[u8; 32]]) {
        if let Some(per) = input.len().checked_div(out.len()) {
            for _ in 0..out.len() {
                add(per);
            }
        }
        Blake3.hash_many(input, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compression_counts_follow_the_blake3_tree() {
        assert_eq!(compressions_for(0), 1);
        assert_eq!(compressions_for(64), 1);
        assert_eq!(compressions_for(65), 2);
        assert_eq!(compressions_for(1024), 16);
        // Two chunks (16 + 1 blocks) and their parent.
        assert_eq!(compressions_for(1025), 18);
        assert_eq!(compressions_for(4096), 64 + 3);
    }

    #[test]
    fn counting_hasher_gives_blake3_digests_and_counts() {
        let msg = [7u8; 100];
        assert_eq!(CountingBlake3.hash_slice(&msg), Blake3.hash_slice(&msg));
        let two = [&msg[..50], &msg[50..]];
        assert_eq!(
            CountingBlake3.hash_iter_slices(two),
            Blake3.hash_slice(&msg)
        );
        // Other tests may hash on other threads while counting is on: at least ours count.
        reset();
        CountingBlake3.hash_slice(&msg);
        CountingBlake3.hash_iter(msg);
        stop();
        assert!(compressions() >= 4, "{}", compressions());
    }
}

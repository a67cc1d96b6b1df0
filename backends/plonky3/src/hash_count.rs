//! Counting the verifier's BLAKE3 compressions (feature `hash-count`, host only): the host
//! verifies with the firmware's own hasher ([`crate::hash::Blake3Lean`] over
//! `picostark_blake3`), whose compression function counts itself (`picostark-blake3/count`);
//! the long-input fallback through the `blake3` crate's streaming hasher adds its tree's
//! count. So a verification's hash floor is counted on the code the firmware runs.

pub use picostark_blake3::count::{compressions, compressions_for, reset, stop};

#[cfg(test)]
mod tests {
    use p3_blake3::Blake3;
    use p3_symmetric::CryptographicHasher;

    use super::*;
    use crate::hash::Blake3Lean;

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
    fn the_verifier_hasher_counts_its_compressions() {
        let msg = [7u8; 100];
        assert_eq!(Blake3Lean.hash_slice(&msg), Blake3.hash_slice(&msg));
        let two = [&msg[..50], &msg[50..]];
        assert_eq!(Blake3Lean.hash_iter_slices(two), Blake3.hash_slice(&msg));
        // The streaming fallback (past the stack buffer) counts too.
        let long = [3u8; 3000];
        let parts = [&long[..1000], &long[1000..]];
        assert_eq!(Blake3Lean.hash_iter_slices(parts), Blake3.hash_slice(&long));
        // Other tests may hash on other threads while counting is on: retry for a clean window.
        let want = 2 * compressions_for(100) + compressions_for(3000);
        let clean = (0..100).any(|_| {
            reset();
            Blake3Lean.hash_slice(&msg);
            Blake3Lean.hash_iter(msg);
            Blake3Lean.hash_iter_slices(parts);
            compressions() == want
        });
        stop();
        assert!(clean, "want {want}");
    }
}

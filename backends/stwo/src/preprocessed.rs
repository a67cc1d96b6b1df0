//! The commitments (Merkle roots) of the selector columns `is_first` and `is_last` (see
//! [`crate::air`]), by hash, trace length and blowup: the verifier's key.
//!
//! stwo's verifier reads the preprocessed tree's root from the proof; a verifier that trusted
//! it would let a prover commit any selectors and escape the constraints. The roots here
//! were computed by the prover binary (`picostark-stwo-prover roots`, which commits the two
//! columns as every proof does) and are checked against it in CI (`.ci/test`'s nightly step);
//! they depend only on the hash, n and the blowup, not on the AIR.

use picostark_core::HashId;

/// `(hash byte, log2 n, log blowup, lifting log size - log2 n - log blowup, root)`: the
/// selectors are lifted to the composition's domain (`crate::lifting_log_size`), 0 to 2
/// levels above the trace's for our AIRs (constraint degree 2 to 6 with the selector).
pub const ROOTS: &[(u8, u8, u8, u8, [u8; 32])] = &include!("preprocessed_roots.in");

/// The selectors' root under `hash` for a trace of `2^log_n` rows at blowup `2^log_blowup`,
/// lifted to `2^lifting_log_size` points, if known.
pub fn root(hash: HashId, log_n: u8, log_blowup: u8, lifting_log_size: u32) -> Option<[u8; 32]> {
    let extra = lifting_log_size.checked_sub(u32::from(log_n) + u32::from(log_blowup))?;
    ROOTS
        .iter()
        .find(|(h, n, b, e, _)| {
            *h == hash as u8 && *n == log_n && *b == log_blowup && u32::from(*e) == extra
        })
        .map(|(.., r)| *r)
}

/// Whether any root is known for this hash, n and blowup.
pub fn has_key(hash: HashId, log_n: u8, log_blowup: u8) -> bool {
    ROOTS
        .iter()
        .any(|(h, n, b, _, _)| *h == hash as u8 && *n == log_n && *b == log_blowup)
}

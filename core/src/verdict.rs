//! Run-to-completion verdicts (issue 46): a verifier that has parsed and bounded a proof's
//! shape runs every value check to the end and records failures in a [`Failures`] instead of
//! returning at the first, so a rejection costs the same work as an acceptance and its time
//! does not tell where the proof was damaged. The first failure recorded becomes the reason.
//!
//! Shape errors (lengths, counts, encodings) still return at once: their timing reveals only
//! the proof's public layout.

use crate::error::{Check, VerifyError};

/// The failed checks of one verification, as the first one (the reason) and whether any
/// failed. `Copy` and two words, so a verifier passes it down by `&mut` without allocating.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Failures {
    first: Option<Check>,
}

impl Failures {
    /// No check has failed yet.
    pub const fn new() -> Self {
        Self { first: None }
    }

    /// Records `check` as failed unless `ok`; only the first failure is kept.
    #[inline(always)]
    pub fn check(&mut self, ok: bool, check: Check) {
        if !ok && self.first.is_none() {
            self.first = Some(check);
        }
    }

    /// Records the failure a check returned, if any (a check written as a `Result`).
    #[inline(always)]
    pub fn record(&mut self, outcome: Result<(), Check>) {
        if let Err(c) = outcome {
            self.check(false, c);
        }
    }

    /// The first failed check.
    pub fn first(&self) -> Option<Check> {
        self.first
    }

    /// The verdict: `Ok` when nothing failed, else the first failed check.
    pub fn verdict(self) -> Result<(), VerifyError> {
        match self.first {
            None => Ok(()),
            Some(c) => Err(VerifyError::CheckFailed(c)),
        }
    }

    /// The verdict of a verification whose remaining steps ended in `outcome`: the first
    /// failed check if any (a later error may be one it caused, e.g. a shape the damaged
    /// transcript's query indices do not fit), else `outcome`.
    pub fn verdict_after(self, outcome: Result<(), VerifyError>) -> Result<(), VerifyError> {
        match (self.first, outcome) {
            (Some(c), _) => Err(VerifyError::CheckFailed(c)),
            (None, outcome) => outcome,
        }
    }
}

/// Whether two 32-byte digests are equal, by accumulating the XOR of every word: the same
/// instructions whichever byte differs (a library `memcmp` stops at the first difference).
#[inline]
pub fn digests_equal(a: &[u8; 32], b: &[u8; 32]) -> bool {
    let mut diff = 0u32;
    for (x, y) in a.chunks_exact(4).zip(b.chunks_exact(4)) {
        let x = u32::from_ne_bytes([x[0], x[1], x[2], x[3]]);
        let y = u32::from_ne_bytes([y[0], y[1], y[2], y[3]]);
        diff |= x ^ y;
    }
    diff == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Tree;

    #[test]
    fn the_first_failure_is_the_reason() {
        let mut f = Failures::new();
        f.check(true, Check::OodConstraints);
        assert_eq!(f.verdict(), Ok(()));
        f.check(false, Check::MerklePath(Tree::Trace));
        f.check(false, Check::FinalPolynomial);
        f.record(Err(Check::ProofOfWork));
        f.record(Ok(()));
        assert_eq!(f.first(), Some(Check::MerklePath(Tree::Trace)));
        assert_eq!(
            f.verdict(),
            Err(VerifyError::CheckFailed(Check::MerklePath(Tree::Trace)))
        );
        // A failed check outranks a later error; without one, the error stands.
        let later = Err(VerifyError::MalformedProof("later"));
        assert_eq!(
            f.verdict_after(later),
            Err(VerifyError::CheckFailed(Check::MerklePath(Tree::Trace)))
        );
        assert_eq!(Failures::new().verdict_after(later), later);
        assert_eq!(Failures::new().verdict_after(Ok(())), Ok(()));
    }

    #[test]
    fn digests_compare_in_every_byte() {
        let a = [7u8; 32];
        assert!(digests_equal(&a, &a));
        for i in 0..32 {
            let mut b = a;
            b[i] ^= 0x80;
            assert!(!digests_equal(&a, &b), "byte {i}");
        }
    }
}

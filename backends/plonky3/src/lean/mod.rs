//! Our own `no_std` verifier for Plonky3 0.8 uni-stark proofs: reads the postcard payload in
//! place ([`reader`]), replays the Fiat-Shamir transcript with precomputed domain separators
//! ([`transcript`]), checks the constraints at the out-of-domain point ([`uni_stark`]) and
//! delegates the opening argument to a PCS behind [`LeanPcs`] (two-adic FRI here; the circle
//! PCS implements the same trait).
//!
//! Its verdicts equal `p3_uni_stark::verify`'s on the same bytes (tests/lean_differential.rs).

pub mod patterns;
pub mod reader;
pub mod transcript;

use p3_commit::PolynomialSpace;
use p3_field::{ExtensionField, PrimeField64};
use picostark_core::VerifyError;

use reader::Reader;
use transcript::{LeanChallenger, Transcript};

/// What the STARK asks its PCS to check: the trace opened at `zeta` and `zeta_next`, each
/// quotient chunk at `zeta`. Everything the PCS needs about shapes comes from here and from
/// the header, never from the proof.
pub struct OpeningClaims<'a, EF> {
    /// log2 of the trace length.
    pub log_n: usize,
    /// The trace commitment (a single Merkle root).
    pub trace_root: &'a [u8; 32],
    /// The quotient commitment.
    pub quotient_root: &'a [u8; 32],
    /// The out-of-domain point and its successor on the trace domain.
    pub zeta: EF,
    /// `zeta` times the trace domain's generator.
    pub zeta_next: EF,
    /// The trace row at `zeta` (one value per column).
    pub trace_local: &'a [EF],
    /// The trace row at `zeta_next`.
    pub trace_next: &'a [EF],
    /// The quotient chunks at `zeta`: `num_chunks` rows of `EF::DIMENSION` values each.
    pub quotient_chunks: &'a [EF],
    /// How many quotient chunks were committed (a power of two).
    pub num_chunks: usize,
}

/// The polynomial commitment scheme of a lean verifier.
///
/// `uni_stark` calls [`LeanPcs::verify`] with the reader positioned at the proof's
/// `opening_proof` field and the transcript right after `zeta` was drawn; the PCS seeds and
/// replays its own part of the transcript, reads exactly its own bytes, and leaves the reader
/// at the `degree_bits` field that follows.
pub trait LeanPcs<F: PrimeField64, EF: ExtensionField<F>> {
    /// The domain type (upstream's, for its vanishing polynomial and selectors).
    type Domain: PolynomialSpace<Val = F> + Copy;

    /// The trace domain of `2^log_n` rows (upstream's `natural_domain_for_degree`).
    fn trace_domain(&self, log_n: usize) -> Self::Domain;

    /// Chunk `i` of the `2^log_chunks` quotient chunk domains (upstream's
    /// `create_disjoint_domain` of the trace domain, then `split_domains`).
    fn quotient_chunk_domain(
        &self,
        trace: Self::Domain,
        log_chunks: usize,
        i: usize,
    ) -> Self::Domain;

    /// Reads and checks the opening proof for `claims`.
    fn verify<C: LeanChallenger<F>>(
        &self,
        r: &mut Reader<'_>,
        t: &mut Transcript<F, EF, C>,
        claims: &OpeningClaims<'_, EF>,
    ) -> Result<(), VerifyError>;
}

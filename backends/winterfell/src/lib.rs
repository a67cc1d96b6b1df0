//! picostark-winterfell: the winterfell 0.13 backend.
//!
//! - [`field`]: BabyBear and its quartic extension `x^4 - 11` as winter-math fields (Goldilocks
//!   and its quadratic extension come from winter-math).
//! - [`air`]: the adapter from a picostark [`AirDef`](picostark_air::AirDef) to winterfell's
//!   `Air`.
//! - [`hash`]: SHA-256 as a winter-crypto hasher (the other hash is winter-crypto's BLAKE3).
//! - [`verifier`]: the project's own `no_std` verifier ([`WfGoldilocksVerifier`],
//!   [`WfBabyBearVerifier`]), which accepts upstream-made proofs and the zkmcu fork's.
//! - `prover` (feature `prover`, std): [`WfGoldilocksProverOf`] and [`WfBabyBearProverOf`] on the
//!   upstream winterfell prover.
#![no_std]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub mod air;
pub mod field;
pub mod hash;
pub mod membership;
pub mod verifier;

#[cfg(feature = "prover")]
pub mod prover;
#[cfg(feature = "prover")]
pub mod tamper;

pub use verifier::{
    WfBabyBearVerifier, WfBabyBearVerifierOf, WfGoldilocksVerifier, WfGoldilocksVerifierOf,
};

use picostark_core::ProofParams;

/// The zkmcu reference proofs' options (`../shared/interop/`): 32 queries, blowup 8, no
/// grinding, folding 8, remainder degree 31; 95 conjectured bits. Proofs made with them are
/// byte-compatible with the fork's verifier inputs.
pub const INTEROP_PARAMS: ProofParams = ProofParams {
    log_blowup: 3,
    num_queries: 32,
    pow_bits: 0,
    log_fold_arity: 3,
    log_final_poly_len: 5,
};

#[cfg(feature = "prover")]
pub use prover::{WfBabyBearProver, WfBabyBearProverOf, WfGoldilocksProver, WfGoldilocksProverOf};

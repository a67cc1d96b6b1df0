//! picostark-plonky3: the Plonky3 0.8 backends.
//!
//! | backend id | base field | challenge field | PCS |
//! |---|---|---|---|
//! | `p3-babybear` | BabyBear | degree 4 (x^4 - 11, default), 5 or 8 | two-adic FRI |
//! | `p3-goldilocks` | Goldilocks | degree 2 (default), 3 or 5 | two-adic FRI |
//! | `p3-m31` | Mersenne-31 | QM31 (degree 4, default), degree 3, or degree 6 (`m31_sextic`) | circle FRI: `CirclePcs` (fold 2, no final polynomial) or our `circle_pcs::WideCirclePcs` (fold up to 16, final polynomial), by the header |
//!
//! BLAKE3 or SHA-256 (the header's hash; `p3-sha256`) for every Merkle commitment and for
//! Fiat-Shamir. The whole proof-file header (backend, field, extension, hash, AIR, n,
//! parameters, public inputs) is absorbed into the transcript before anything else, so no
//! header field can be changed without the proof failing. The payload is the Plonky3 `Proof` in postcard encoding.
//!
//! The verifier side is `no_std`; the prover is behind the `prover` feature.
#![no_std]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

mod air;
pub mod circle_pcs;
pub mod config;
mod decode;
pub mod hash;
#[cfg(feature = "hash-count")]
pub mod hash_count;
pub mod lean;
pub mod m31_sextic;
pub mod membership;
mod verifier;

#[cfg(feature = "prover")]
mod prover;
#[cfg(feature = "prover")]
pub mod tamper;

pub use air::P3Air;
pub use config::{
    fri_params_supported, BabyBearConfig, GoldilocksConfig, M31Config, DEFAULT_PARAMS_CIRCLE,
    DEFAULT_PARAMS_TWO_ADIC, FOUNDATION_PARAMS, UPSTREAM_CIRCLE_PARAMS,
};
pub use verifier::{
    verify_stock, P3BabyBearVerifier, P3BabyBearVerifierOf, P3GoldilocksVerifier,
    P3GoldilocksVerifierOf, P3M31Verifier, P3M31VerifierOf, OUTSIDE_LEAN_BOUNDS,
};

/// The decode budget, for the test that valid proofs stay well within it (`tests/verify.rs`).
/// Host builds only: with `decode` public in the firmware build, LTO inlined it otherwise and
/// the M33 stack peak of every p3-m31 proof rose by about 880 B (QEMU).
#[cfg(feature = "prover")]
#[doc(hidden)]
pub use decode::{decode_charged, BUDGET_FIXED, BUDGET_PER_PAYLOAD_BYTE};
#[cfg(feature = "prover")]
pub use prover::{
    P3BabyBearProver, P3BabyBearProverOf, P3GoldilocksProver, P3GoldilocksProverOf, P3M31Prover,
    P3M31ProverOf,
};

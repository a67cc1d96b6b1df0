//! The `no_std` verifiers: our lean verifier (`crate::lean`) for every shape within its
//! bounds; otherwise (and always with `p3-stock`) decode the postcard payload, check it is for
//! the header's statement, rebuild the configuration from the header (its hash: BLAKE3 or
//! SHA-256) and run Plonky3's verifier. The `lean-only` feature leaves that fallback out (a
//! one-backend image then fits in SRAM) and refuses such proofs with
//! `VerifyError::Unsupported`.

use alloc::vec::Vec;

use crate::hash::Sha256Lean as Sha256;
use p3_field::{PrimeCharacteristicRing, PrimeField64};
use p3_mersenne_31::QM31;
use p3_uni_stark::{Proof, StarkGenericConfig, Val};
use picostark_air::AirDef;
use picostark_core::security::AirShape;
use picostark_core::{
    BackendId, CirclePcsKind, HashId, ProofFile, ProofHeader, Verifier, VerifyError,
};
use serde::de::DeserializeOwned;

use crate::decode::decode;

use crate::air::{on_air, HeaderAir};
use crate::config;
use crate::lean::AIR_NOT_IN_BUILD;
use crate::membership::MembershipField;
use picostark_airs::AirSet;

fn verify_with<S: AirSet, SC>(config: &SC, file: &ProofFile<'_>) -> Result<(), VerifyError>
where
    SC: StarkGenericConfig,
    Val<SC>: PrimeField64 + MembershipField,
    SC::Challenger: p3_challenger::GrindingChallenger<Witness = Val<SC>>,
    Proof<SC>: DeserializeOwned,
{
    let air = HeaderAir::<Val<SC>, S::Extra>::of::<S>(&file.header)
        .ok_or(VerifyError::Unsupported(AIR_NOT_IN_BUILD))?;
    if file.public_inputs.len() != on_air!(&air.air, |a| a.num_public_inputs()) {
        return Err(VerifyError::StatementMismatch(
            "number of public inputs for the AIR",
        ));
    }
    let proof: Proof<SC> = decode(file.payload)?;
    if proof.degree_bits != usize::from(file.header.log_n) {
        return Err(VerifyError::MalformedProof(
            "proof is for another trace length",
        ));
    }
    let public: Vec<Val<SC>> = file.public_inputs.iter().map(Val::<SC>::from_u64).collect();
    p3_uni_stark::verify(config, &air, &proof, &public)
        .map_err(|_| VerifyError::Rejected("Plonky3 verification failed"))
}

/// Every check that needs only the header: the backend, the extension degree and the
/// parameters ([`config::fri_params_supported`]). `verify_payload` repeats it, so a caller
/// that skips [`picostark_core::verify`] still never hands Plonky3 a parameter it asserts on.
/// Plonky3 proofs hash with BLAKE3 or SHA-256; BLAKE2s is stwo's.
pub(crate) const BLAKE2S_UNSUPPORTED: &str = "hash blake2s-256 for a Plonky3 backend";

fn check_common(
    backend: BackendId,
    header: &ProofHeader,
    degrees: &[u8],
) -> Result<(), VerifyError> {
    if header.backend != backend {
        return Err(VerifyError::WrongBackend {
            expected: backend,
            found: header.backend,
        });
    }
    if !degrees.contains(&header.extension_degree) {
        return Err(VerifyError::Unsupported(
            "extension degree for this backend",
        ));
    }
    if header.hash == HashId::Blake2s256 {
        return Err(VerifyError::Unsupported(BLAKE2S_UNSUPPORTED));
    }
    config::fri_params_supported(header)
}

/// The `p3-babybear` verification with hasher `hash`, challenge field by extension degree.
fn verify_babybear<S: AirSet, H: config::ByteHash>(
    file: &ProofFile<'_>,
    hash: H,
) -> Result<(), VerifyError> {
    let (p, s) = (&file.header.params, file.statement_bytes);
    match file.header.extension_degree {
        4 => verify_with::<S, _>(
            &config::babybear_ext::<config::BabyBear4, _>(p, s, hash),
            file,
        ),
        5 => verify_with::<S, _>(
            &config::babybear_ext::<config::BabyBear5, _>(p, s, hash),
            file,
        ),
        8 => verify_with::<S, _>(
            &config::babybear_ext::<config::BabyBear8, _>(p, s, hash),
            file,
        ),
        _ => Err(VerifyError::Unsupported(
            "extension degree for this backend",
        )),
    }
}

/// The `p3-goldilocks` verification with hasher `hash`, challenge field by extension degree.
fn verify_goldilocks<S: AirSet, H: config::ByteHash>(
    file: &ProofFile<'_>,
    hash: H,
) -> Result<(), VerifyError> {
    let (p, s) = (&file.header.params, file.statement_bytes);
    match file.header.extension_degree {
        2 => verify_with::<S, _>(
            &config::goldilocks_ext::<config::Goldilocks2, _>(p, s, hash),
            file,
        ),
        3 => verify_with::<S, _>(
            &config::goldilocks_ext::<config::Goldilocks3, _>(p, s, hash),
            file,
        ),
        5 => verify_with::<S, _>(
            &config::goldilocks_ext::<config::Goldilocks5, _>(p, s, hash),
            file,
        ),
        _ => Err(VerifyError::Unsupported(
            "extension degree for this backend",
        )),
    }
}

/// The `p3-m31` verification with hasher `hash`, for either challenge field.
fn verify_m31<S: AirSet, H: config::ByteHash>(
    file: &ProofFile<'_>,
    hash: H,
) -> Result<(), VerifyError> {
    let (p, s) = (&file.header.params, file.statement_bytes);
    if CirclePcsKind::of(p) == CirclePcsKind::Wide {
        return match file.header.extension_degree {
            4 => verify_with::<S, _>(&config::m31_wide::<QM31, _>(p, s, hash), file),
            3 => verify_with::<S, _>(&config::m31_wide::<config::M31Cubic, _>(p, s, hash), file),
            6 => verify_with::<S, _>(&config::m31_wide::<config::M31Sextic, _>(p, s, hash), file),
            _ => Err(VerifyError::Unsupported(
                "extension degree for this backend",
            )),
        };
    }
    match file.header.extension_degree {
        4 => verify_with::<S, _>(&config::m31::<QM31, _>(p, s, hash), file),
        3 => verify_with::<S, _>(&config::m31::<config::M31Cubic, _>(p, s, hash), file),
        6 => verify_with::<S, _>(&config::m31::<config::M31Sextic, _>(p, s, hash), file),
        _ => Err(VerifyError::Unsupported(
            "extension degree for this backend",
        )),
    }
}

macro_rules! verifier {
    ($(#[$m:meta])* $name:ident, $of:ident, $backend:expr, $degrees:expr, $stock:ident, $lean:ident) => {
        picostark_airs::per_air_set!($(#[$m])* $name, $of);

        impl<S: AirSet> $of<S> {
            /// The challenge-field degrees this backend verifies.
            pub const EXTENSION_DEGREES: &'static [u8] = $degrees;

            /// Plonky3's own verifier (`p3_uni_stark::verify` on the decoded proof), bypassing
            /// the lean one: the reference its verdicts are tested against.
            pub fn verify_payload_stock(&self, file: &ProofFile<'_>) -> Result<(), VerifyError> {
                self.check_supported(&file.header)?;
                match file.header.hash {
                    HashId::Sha256 => $stock::<S, _>(file, Sha256),
                    HashId::Blake3_256 => $stock::<S, _>(file, config::VERIFIER_HASH),
                    HashId::Blake2s256 => Err(VerifyError::Unsupported(BLAKE2S_UNSUPPORTED)),
                }
            }

            /// A proof the lean verifier does not take: Plonky3's own verifier decides, or
            /// in a `lean-only` build it is refused (the stock verifier is not linked).
            fn outside_lean(&self, file: &ProofFile<'_>) -> Result<(), VerifyError> {
                #[cfg(not(feature = "lean-only"))]
                {
                    self.verify_payload_stock(file)
                }
                #[cfg(feature = "lean-only")]
                {
                    let _ = file;
                    Err(VerifyError::Unsupported(OUTSIDE_LEAN_BOUNDS))
                }
            }
        }

        impl<S: AirSet> Verifier for $of<S> {
            fn backend(&self) -> BackendId {
                $backend
            }
            fn check_supported(&self, header: &ProofHeader) -> Result<(), VerifyError> {
                check_common(self.backend(), header, Self::EXTENSION_DEGREES)
            }
            fn air_shape(&self, header: &ProofHeader) -> Result<AirShape, VerifyError> {
                // A `lean-only` build without the AIR in its lean verifier refuses its proofs
                // (as `verify_payload` would) and so never links its definition.
                if cfg!(feature = "lean-only") && !crate::lean::air_in_build(header.air) {
                    return Err(VerifyError::Unsupported(OUTSIDE_LEAN_BOUNDS));
                }
                picostark_airs::shape_for::<S>($backend, header.air)
                    .ok_or(VerifyError::Unsupported(AIR_NOT_IN_BUILD))
            }
            fn verify_payload(&self, file: &ProofFile<'_>) -> Result<(), VerifyError> {
                self.check_supported(&file.header)?;
                // The `p3-stock` reference row never takes the lean path.
                if !cfg!(feature = "p3-stock") {
                    if let Some(verdict) = crate::lean::$lean::<S>(file) {
                        return verdict;
                    }
                }
                self.outside_lean(file)
            }
        }
    };
}

verifier!(
    /// Verifies `p3-babybear` proofs (BabyBear x degree 4, 5 or 8, two-adic FRI).
    P3BabyBearVerifier,
    P3BabyBearVerifierOf,
    BackendId::P3BabyBear,
    &[4, 5, 8],
    verify_babybear,
    verify_babybear_file
);
verifier!(
    /// Verifies `p3-goldilocks` proofs (Goldilocks x degree 2, 3 or 5, two-adic FRI).
    P3GoldilocksVerifier,
    P3GoldilocksVerifierOf,
    BackendId::P3Goldilocks,
    &[2, 3, 5],
    verify_goldilocks,
    verify_goldilocks_file
);
verifier!(
    /// Verifies `p3-m31` proofs (Mersenne-31 circle STARK over `CirclePcs`; QM31, cubic or
    /// sextic challenges).
    P3M31Verifier,
    P3M31VerifierOf,
    BackendId::P3M31,
    &[4, 3, 6],
    verify_m31,
    verify_m31_file
);

/// What a `lean-only` build answers for a proof the lean verifier does not take (its shape
/// bounds: `lean::two_adic::MAX_QUERIES` queries, `MAX_LOG_FINAL_POLY_LEN`, ...), where
/// other builds run Plonky3's own verifier.
pub const OUTSIDE_LEAN_BOUNDS: &str =
    "proof shape outside the lean verifier's bounds (lean-only build: no stock fallback)";

#[cfg(all(feature = "lean-only", feature = "p3-stock"))]
compile_error!("`lean-only` leaves out the stock verifier that `p3-stock` runs: enable one");

/// Plonky3's own verifier for any Plonky3 proof file, whatever the lean path would do.
pub fn verify_stock(file: &ProofFile<'_>) -> Result<(), VerifyError> {
    match file.header.backend {
        BackendId::P3BabyBear => P3BabyBearVerifier.verify_payload_stock(file),
        BackendId::P3Goldilocks => P3GoldilocksVerifier.verify_payload_stock(file),
        _ => P3M31Verifier.verify_payload_stock(file),
    }
}

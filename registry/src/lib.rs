//! picostark-registry: the one table from backend ids to verifiers and provers.
//!
//! A backend's facts (on-disk byte, name, field, protocol, domain) are declared once in
//! `picostark_core::ids`; the AIRs once in `picostark-airs`. This crate binds each backend id
//! to the types that verify and prove it, in the one `backends!` list below, each entry
//! behind a cargo feature named as the backend. Every consumer dispatches through it:
//!
//! - the firmware (`no_std`): `verify`, static dispatch on the header's backend byte over
//!   the backends its features enable, and `air_shape` for its run line;
//! - hosts (`std`): `verifier`, `verifier_for`, `prover` (`prover` feature) and
//!   `available`, boxed: `prover-host`, the fuzz targets and the tests.
//!
//! Adding a backend: its crate, one entry here (with its feature and optional dependency in
//! `Cargo.toml`), its id line in `picostark_core::ids`, and a firmware feature that turns
//! this crate's feature on.
#![no_std]
#![forbid(unsafe_code)]

#[cfg(feature = "std")]
extern crate std;

#[cfg(feature = "std")]
use std::boxed::Box;
#[cfg(feature = "prover")]
use std::vec::Vec;

pub use picostark_airs::{AirSet, Builtins, With};
#[allow(unused_imports)]
use picostark_core::security::AirShape;
#[allow(unused_imports)]
use picostark_core::{
    proof_file, verify as core_verify, BackendId, Policy, ProofHeader, Statement, Verified,
    VerifyError,
};

/// Declares the table. Each entry: the backend id, its feature, its verifier type and its
/// prover type, each generic over the AIR set (`picostark_airs::AirSet`), and whether its
/// verifier keeps its own floor on the payload's parameters (the winterfell verifiers).
macro_rules! backends {
    ($(
        $id:ident: $feature:literal {
            verifier: $($verifier:ident)::+,
            prover: $($prover:ident)::+,
            floor: $floor:tt $(,)?
        }
    )*) => {
        /// The backends this build has, in id order.
        pub const ENABLED: &[BackendId] = &[$(#[cfg(feature = $feature)] BackendId::$id,)*];

        /// Parses and verifies `bytes` with the backend its header names, if this build has
        /// it (`None` otherwise: the caller reports a bad envelope or a backend not built
        /// in), for the built-in AIRs. The verifier is the backend's default one, as the
        /// firmware has always run.
        #[inline(always)]
        pub fn verify(
            bytes: &[u8],
            expected: Option<&Statement<'_>>,
            policy: &Policy,
        ) -> Option<Result<Verified, VerifyError>> {
            verify_in::<Builtins>(bytes, expected, policy)
        }

        /// [`verify`] for the AIRs of the set `S` (`picostark_airs::With<A>`: the built-ins
        /// and the user's AIR `A`): how a firmware built with a user's AIR verifies.
        #[allow(unreachable_code, unused_variables)]
        #[inline(always)]
        pub fn verify_in<S: AirSet>(
            bytes: &[u8],
            expected: Option<&Statement<'_>>,
            policy: &Policy,
        ) -> Option<Result<Verified, VerifyError>> {
            match proof_file::backend_of(bytes)? {
                $(
                    #[cfg(feature = $feature)]
                    BackendId::$id => {
                        let verifier = $($verifier)::+::<S>::default();
                        Some(core_verify(&verifier, bytes, expected, policy))
                    }
                )*
                #[allow(unreachable_patterns)]
                _ => None,
            }
        }

        /// The shape of the header's AIR as the verifier of its backend counts it (see
        /// `Verifier::air_shape`), if this build has that backend, for the AIRs of `S`.
        #[allow(unreachable_code, unused_variables)]
        pub fn air_shape_in<S: AirSet>(
            header: &ProofHeader,
        ) -> Option<Result<AirShape, VerifyError>> {
            match header.backend {
                $(
                    #[cfg(feature = $feature)]
                    BackendId::$id => Some(picostark_core::Verifier::air_shape(
                        &$($verifier)::+::<S>::default(),
                        header,
                    )),
                )*
                #[allow(unreachable_patterns)]
                _ => None,
            }
        }

        /// The verifier for `id` under `policy`, for the AIRs of `S`: the winterfell
        /// verifiers' own floor on the payload's parameters (95 bits by default) follows the
        /// policy's minimum, so a proof made with `--min-security 40` verifies under that
        /// same policy.
        #[cfg(feature = "std")]
        #[allow(unreachable_code, unused_variables)]
        pub fn verifier_in<S: AirSet>(
            id: BackendId,
            policy: &Policy,
        ) -> Option<Box<dyn picostark_core::Verifier>> {
            match id {
                $(
                    #[cfg(feature = $feature)]
                    BackendId::$id => Some(backends!(@verifier $floor, $($verifier)::+, S, policy)),
                )*
                #[allow(unreachable_patterns)]
                _ => None,
            }
        }

        /// The prover for `id`, for the AIRs of `S`, if this build has it.
        #[cfg(feature = "prover")]
        #[allow(unreachable_code)]
        pub fn prover_in<S: AirSet>(
            id: BackendId,
        ) -> Option<Box<dyn picostark_core::prove::Prover>> {
            match id {
                $(
                    #[cfg(feature = $feature)]
                    BackendId::$id => Some(Box::new($($prover)::+::<S>::default())),
                )*
                #[allow(unreachable_patterns)]
                _ => None,
            }
        }
    };
    (@verifier true, $($verifier:ident)::+, $s:ident, $policy:ident) => {
        Box::new($($verifier)::+::<$s>::with_min_security($policy.min_security_bits))
    };
    (@verifier false, $($verifier:ident)::+, $s:ident, $policy:ident) => {
        Box::new($($verifier)::+::<$s>::default())
    };
}

backends! {
    P3BabyBear: "p3-babybear" {
        verifier: picostark_plonky3::P3BabyBearVerifierOf,
        prover: picostark_plonky3::P3BabyBearProverOf,
        floor: false,
    }
    P3Goldilocks: "p3-goldilocks" {
        verifier: picostark_plonky3::P3GoldilocksVerifierOf,
        prover: picostark_plonky3::P3GoldilocksProverOf,
        floor: false,
    }
    P3M31: "p3-m31" {
        verifier: picostark_plonky3::P3M31VerifierOf,
        prover: picostark_plonky3::P3M31ProverOf,
        floor: false,
    }
    WfGoldilocks: "wf-goldilocks" {
        verifier: picostark_winterfell::WfGoldilocksVerifierOf,
        prover: picostark_winterfell::WfGoldilocksProverOf,
        floor: true,
    }
    WfBabyBear: "wf-babybear" {
        verifier: picostark_winterfell::WfBabyBearVerifierOf,
        prover: picostark_winterfell::WfBabyBearProverOf,
        floor: true,
    }
    StwoM31: "stwo-m31" {
        verifier: picostark_stwo::StwoM31VerifierOf,
        prover: picostark_stwo::prover_client::StwoM31ProverOf,
        floor: false,
    }
}

/// The shape of the header's built-in AIR as the verifier of its backend counts it.
pub fn air_shape(header: &ProofHeader) -> Option<Result<AirShape, VerifyError>> {
    air_shape_in::<Builtins>(header)
}

/// The verifier for `id` (its default settings, the built-in AIRs), if this build has it.
#[cfg(feature = "std")]
pub fn verifier(id: BackendId) -> Option<Box<dyn picostark_core::Verifier>> {
    verifier_in::<Builtins>(id, &Policy::default())
}

/// The verifier for `id` under `policy`, for the built-in AIRs ([`verifier_in`]).
#[cfg(feature = "std")]
pub fn verifier_for(id: BackendId, policy: &Policy) -> Option<Box<dyn picostark_core::Verifier>> {
    verifier_in::<Builtins>(id, policy)
}

/// The prover for `id`, for the built-in AIRs, if this build has it.
#[cfg(feature = "prover")]
pub fn prover(id: BackendId) -> Option<Box<dyn picostark_core::prove::Prover>> {
    prover_in::<Builtins>(id)
}

/// Proves the AIR `A` (a user's AIR, or a built-in) at n = 2^`log_n` with `backend`, its
/// default challenge field and parameters (at least 95 bits, strictest regime) and BLAKE3:
/// the whole proof file. The library entry point for an AIR defined outside this workspace
/// (`examples/vdf`); [`prover_in`] takes any request.
#[cfg(feature = "prover")]
pub fn prove_air<A: picostark_air::AirDef>(
    backend: BackendId,
    log_n: u8,
) -> Result<Vec<u8>, picostark_core::prove::ProveError> {
    use picostark_core::prove::{ProveError, ProveRequest};
    let prover = prover_in::<With<A>>(backend)
        .ok_or_else(|| ProveError(std::format!("{backend} is not in this build")))?;
    let request = ProveRequest {
        air: A::default().id(),
        log_n,
        extension_degree: prover.extension_degrees()[0],
        params: prover.default_params(),
        hash: picostark_core::HashId::Blake3_256,
    };
    prover.prove(&request, &mut |_| {})
}

/// Verifies a proof file of the AIR `A` or of a built-in AIR on the host, under `policy`,
/// with the backend its header names: the verifier the firmware runs, for the same AIR set.
#[cfg(feature = "std")]
pub fn verify_air<A: picostark_air::AirDef>(
    bytes: &[u8],
    expected: Option<&Statement<'_>>,
    policy: &Policy,
) -> Result<Verified, VerifyError> {
    let backend = picostark_core::ProofFile::parse(bytes)?.header.backend;
    let verifier = verifier_in::<With<A>>(backend, policy)
        .ok_or(VerifyError::Unsupported("backend not in this build"))?;
    core_verify(verifier.as_ref(), bytes, expected, policy)
}

/// Backend ids with both a prover and a verifier in this build.
#[cfg(feature = "prover")]
pub fn available() -> Vec<BackendId> {
    ENABLED
        .iter()
        .copied()
        .filter(|&b| prover(b).is_some() && verifier(b).is_some())
        .collect()
}

#[cfg(all(test, feature = "all", feature = "std"))]
mod tests {
    use super::*;

    /// Every declared backend id has its entry, and each verifier answers for its own id.
    #[test]
    fn every_backend_is_registered_once() {
        assert_eq!(ENABLED, BackendId::ALL);
        for &id in BackendId::ALL {
            assert_eq!(verifier(id).map(|v| v.backend()), Some(id));
            let policy = Policy::default();
            assert_eq!(verifier_for(id, &policy).map(|v| v.backend()), Some(id));
        }
    }

    /// A file naming no backend, or a backend the build lacks, is left to the caller.
    #[test]
    fn verify_leaves_unknown_backends_to_the_caller() {
        assert!(verify(b"PSTK\x01\x00\x00", None, &Policy::default()).is_none());
        assert!(verify(b"", None, &Policy::default()).is_none());
    }
}

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

#[allow(unused_imports)]
use picostark_core::security::AirShape;
#[allow(unused_imports)]
use picostark_core::{
    proof_file, verify as core_verify, BackendId, Policy, ProofHeader, Statement, Verified,
    VerifyError,
};

/// Declares the table. Each entry: the backend id, its feature, its verifier type (the
/// firmware's, built with `Default`), its verifier under a policy, its prover.
macro_rules! backends {
    ($(
        $id:ident: $feature:literal {
            verifier: $verifier:ty,
            with_policy: |$policy:ident| $with_policy:expr,
            prover: $prover:expr $(,)?
        }
    )*) => {
        /// The backends this build has, in id order.
        pub const ENABLED: &[BackendId] = &[$(#[cfg(feature = $feature)] BackendId::$id,)*];

        /// Parses and verifies `bytes` with the backend its header names, if this build has
        /// it (`None` otherwise: the caller reports a bad envelope or a backend not built
        /// in). The verifier is the backend's default one, as the firmware has always run.
        // `::default()` on every verifier: some are unit structs today, others carry settings.
        #[allow(clippy::default_constructed_unit_structs, unreachable_code, unused_variables)]
        #[inline(always)]
        pub fn verify(
            bytes: &[u8],
            expected: Option<&Statement<'_>>,
            policy: &Policy,
        ) -> Option<Result<Verified, VerifyError>> {
            match proof_file::backend_of(bytes)? {
                $(
                    #[cfg(feature = $feature)]
                    BackendId::$id => {
                        Some(core_verify(&<$verifier>::default(), bytes, expected, policy))
                    }
                )*
                #[allow(unreachable_patterns)]
                _ => None,
            }
        }

        /// The shape of the header's AIR as the verifier of its backend counts it (see
        /// `Verifier::air_shape`), if this build has that backend.
        #[allow(clippy::default_constructed_unit_structs, unreachable_code, unused_variables)]
        pub fn air_shape(header: &ProofHeader) -> Option<Result<AirShape, VerifyError>> {
            match header.backend {
                $(
                    #[cfg(feature = $feature)]
                    BackendId::$id => Some(
                        picostark_core::Verifier::air_shape(&<$verifier>::default(), header),
                    ),
                )*
                #[allow(unreachable_patterns)]
                _ => None,
            }
        }

        /// The verifier for `id` (its default settings), if this build has it.
        #[cfg(feature = "std")]
        #[allow(clippy::default_constructed_unit_structs, unreachable_code)]
        pub fn verifier(id: BackendId) -> Option<Box<dyn picostark_core::Verifier>> {
            match id {
                $(
                    #[cfg(feature = $feature)]
                    BackendId::$id => Some(Box::new(<$verifier>::default())),
                )*
                #[allow(unreachable_patterns)]
                _ => None,
            }
        }

        /// The verifier for `id` under `policy`: the winterfell verifiers' own floor on the
        /// payload's parameters (95 bits by default) follows the policy's minimum, so a proof
        /// made with `--min-security 40` verifies under that same policy.
        #[cfg(feature = "std")]
        #[allow(unreachable_code, unused_variables)]
        pub fn verifier_for(
            id: BackendId,
            policy: &Policy,
        ) -> Option<Box<dyn picostark_core::Verifier>> {
            match id {
                $(
                    #[cfg(feature = $feature)]
                    BackendId::$id => {
                        let $policy = policy;
                        Some(Box::new($with_policy))
                    }
                )*
                #[allow(unreachable_patterns)]
                _ => None,
            }
        }

        /// The prover for `id`, if this build has it.
        #[cfg(feature = "prover")]
        #[allow(unreachable_code)]
        pub fn prover(id: BackendId) -> Option<Box<dyn picostark_core::prove::Prover>> {
            match id {
                $(
                    #[cfg(feature = $feature)]
                    BackendId::$id => Some(Box::new($prover)),
                )*
                #[allow(unreachable_patterns)]
                _ => None,
            }
        }
    };
}

backends! {
    P3BabyBear: "p3-babybear" {
        verifier: picostark_plonky3::P3BabyBearVerifier,
        with_policy: |_p| picostark_plonky3::P3BabyBearVerifier,
        prover: picostark_plonky3::P3BabyBearProver,
    }
    P3Goldilocks: "p3-goldilocks" {
        verifier: picostark_plonky3::P3GoldilocksVerifier,
        with_policy: |_p| picostark_plonky3::P3GoldilocksVerifier,
        prover: picostark_plonky3::P3GoldilocksProver,
    }
    P3M31: "p3-m31" {
        verifier: picostark_plonky3::P3M31Verifier,
        with_policy: |_p| picostark_plonky3::P3M31Verifier,
        prover: picostark_plonky3::P3M31Prover,
    }
    WfGoldilocks: "wf-goldilocks" {
        verifier: picostark_winterfell::WfGoldilocksVerifier,
        with_policy: |p| picostark_winterfell::WfGoldilocksVerifier {
            min_security_bits: p.min_security_bits,
        },
        prover: picostark_winterfell::WfGoldilocksProver,
    }
    WfBabyBear: "wf-babybear" {
        verifier: picostark_winterfell::WfBabyBearVerifier,
        with_policy: |p| picostark_winterfell::WfBabyBearVerifier {
            min_security_bits: p.min_security_bits,
        },
        prover: picostark_winterfell::WfBabyBearProver,
    }
    StwoM31: "stwo-m31" {
        verifier: picostark_stwo::StwoM31Verifier,
        with_policy: |_p| picostark_stwo::StwoM31Verifier,
        prover: picostark_stwo::prover_client::StwoM31Prover,
    }
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

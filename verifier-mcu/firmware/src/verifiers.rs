//! Dispatch on the proof file's backend id to the backends enabled at build time.
//!
//! The dispatch reads one byte, so nearly all of a measured call is the backend's own
//! `picostark_core::verify` (envelope parse, cheap checks, heavy verification).

// A build with only reference paths (src/stock.rs) uses none of the backends.
#[allow(unused_imports)]
use picostark_core::{
    verify as core_verify, BackendId, Policy, ProofFile, Statement, Verified, VerifyError,
};

/// Parses and verifies `bytes` with the enabled backend its header names.
// `::default()` on every verifier: some are unit structs today, others carry settings.
#[allow(clippy::default_constructed_unit_structs)]
#[inline(never)]
pub fn verify(
    bytes: &[u8],
    expected: Option<&Statement<'_>>,
    policy: &Policy,
) -> Result<Verified, VerifyError> {
    #[cfg(any(feature = "stock-wf", feature = "stock-p3", feature = "hash-cal"))]
    if let Some(r) = crate::stock::verify(bytes, expected, policy) {
        return r;
    }
    let backend = bytes.get(6).copied().and_then(BackendId::from_byte);
    match backend {
        #[cfg(feature = "p3-babybear")]
        Some(BackendId::P3BabyBear) => core_verify(
            &picostark_plonky3::P3BabyBearVerifier::default(),
            bytes,
            expected,
            policy,
        ),
        #[cfg(feature = "p3-goldilocks")]
        Some(BackendId::P3Goldilocks) => core_verify(
            &picostark_plonky3::P3GoldilocksVerifier::default(),
            bytes,
            expected,
            policy,
        ),
        #[cfg(feature = "p3-m31")]
        Some(BackendId::P3M31) => core_verify(
            &picostark_plonky3::P3M31Verifier::default(),
            bytes,
            expected,
            policy,
        ),
        #[cfg(feature = "wf-goldilocks")]
        Some(BackendId::WfGoldilocks) => core_verify(
            &picostark_winterfell::WfGoldilocksVerifier::default(),
            bytes,
            expected,
            policy,
        ),
        #[cfg(feature = "wf-babybear")]
        Some(BackendId::WfBabyBear) => core_verify(
            &picostark_winterfell::WfBabyBearVerifier::default(),
            bytes,
            expected,
            policy,
        ),
        #[cfg(feature = "bringup-verifier")]
        Some(b) => core_verify(&bringup::BringUp(b), bytes, expected, policy),
        _ => {
            // A bad envelope is reported as such; a good one names a backend not built in.
            ProofFile::parse(bytes)?;
            Err(VerifyError::Unsupported(
                "backend not enabled in this firmware",
            ))
        }
    }
}

/// Bring-up only (feature `bringup-verifier`), never a measurement of a proof system: accepts
/// a payload whose last four bytes are the FNV-1a-32 hash of the bytes before them, so the
/// harness (markers, output, runner, tamper check) can be exercised before real backends
/// exist. `mcu-run bringup-proof` writes such files.
#[cfg(feature = "bringup-verifier")]
mod bringup {
    use picostark_core::{BackendId, ProofFile, ProofHeader, Verifier, VerifyError};

    pub struct BringUp(pub BackendId);

    impl Verifier for BringUp {
        fn backend(&self) -> BackendId {
            self.0
        }

        fn check_supported(&self, _header: &ProofHeader) -> Result<(), VerifyError> {
            Ok(())
        }

        fn verify_payload(&self, proof: &ProofFile<'_>) -> Result<(), VerifyError> {
            let p = proof.payload;
            if p.len() < 4 {
                return Err(VerifyError::MalformedProof(
                    "bring-up payload shorter than 4 bytes",
                ));
            }
            let (body, tag) = p.split_at(p.len() - 4);
            let mut h: u32 = 0x811C_9DC5;
            for &b in body {
                h = (h ^ u32::from(b)).wrapping_mul(0x0100_0193);
            }
            if h.to_le_bytes() == tag {
                Ok(())
            } else {
                Err(VerifyError::Rejected("bring-up checksum"))
            }
        }
    }
}

//! Dispatch on the proof file's backend id to the backends enabled at build time: the
//! reference paths (src/stock.rs) first, then `picostark-registry`'s table (its features
//! follow this crate's backend features), then the bring-up verifier.
//!
//! The dispatch reads one byte, so nearly all of a measured call is the backend's own
//! `picostark_core::verify` (envelope parse, cheap checks, heavy verification).

// A build with only reference paths (src/stock.rs) uses none of the backends.
#[allow(unused_imports)]
use picostark_core::{
    verify as core_verify, BackendId, Policy, ProofFile, ProofHeader, Statement, Verified,
    VerifyError,
};

/// Parses and verifies `bytes` with the enabled backend its header names.
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
    if let Some(r) = picostark_registry::verify_in::<crate::airs::Airs>(bytes, expected, policy) {
        return r;
    }
    #[cfg(feature = "bringup-verifier")]
    if let Some(b) = picostark_core::proof_file::backend_of(bytes) {
        return core_verify(&bringup::BringUp(b), bytes, expected, policy);
    }
    // A bad envelope is reported as such; a good one names a backend not built in.
    ProofFile::parse(bytes)?;
    Err(VerifyError::Unsupported(
        "backend not enabled in this firmware",
    ))
}

/// The header's security under `policy` for the run line (0 when the policy refuses it or
/// no verifier in this build takes the backend), counted with the AIR shape its verifier
/// gives; the reference and bring-up paths take the header's own AIR's.
pub fn security(header: &ProofHeader, policy: &Policy) -> u32 {
    let shape = picostark_registry::air_shape_in::<crate::airs::Airs>(header).and_then(Result::ok);
    #[cfg(any(
        feature = "stock-wf",
        feature = "stock-p3",
        feature = "hash-cal",
        feature = "bringup-verifier"
    ))]
    let shape = shape.or_else(|| picostark_airs::shape_of(header));
    shape.map_or(0, |s| policy.check(header, s).unwrap_or(0))
}

/// Bring-up only (feature `bringup-verifier`), never a measurement of a proof system: accepts
/// a payload whose last four bytes are the FNV-1a-32 hash of the bytes before them, so the
/// harness (markers, output, runner, tamper check) can be exercised before real backends
/// exist. `mcu-run bringup-proof` writes such files.
#[cfg(feature = "bringup-verifier")]
mod bringup {
    use picostark_core::security::AirShape;
    use picostark_core::{BackendId, ProofFile, ProofHeader, Verifier, VerifyError};

    pub struct BringUp(pub BackendId);

    impl Verifier for BringUp {
        fn backend(&self) -> BackendId {
            self.0
        }

        fn check_supported(&self, _header: &ProofHeader) -> Result<(), VerifyError> {
            Ok(())
        }

        fn air_shape(&self, header: &ProofHeader) -> Result<AirShape, VerifyError> {
            picostark_airs::shape_of(header).ok_or(VerifyError::Unsupported("a custom AIR"))
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

//! The verifier trait every backend implements, and [`verify`], the one entry point that
//! parses a proof file and runs the cheap checks before handing it to a backend.

use crate::error::VerifyError;
use crate::ids::{AirId, BackendId};
use crate::proof_file::{ProofFile, ProofHeader};
use crate::security::{AirShape, Policy};

/// A backend's verifier. Implementations are `no_std` and must return an error, never
/// panic, on any payload.
pub trait Verifier {
    /// The backend id this verifier handles.
    fn backend(&self) -> BackendId;

    /// Cheap check that this verifier supports the header's extension degree, AIR and
    /// parameters. Called before [`Verifier::verify_payload`].
    fn check_supported(&self, header: &ProofHeader) -> Result<(), VerifyError>;

    /// The shape of the header's AIR, which the security policy counts with (derived from the
    /// AIR's definition: `picostark_airs::shape_of`). Called after
    /// [`Verifier::check_supported`], before any heavy work.
    fn air_shape(&self, header: &ProofHeader) -> Result<AirShape, VerifyError>;

    /// The heavy work: decode the payload and verify it against the header's statement.
    fn verify_payload(&self, proof: &ProofFile<'_>) -> Result<(), VerifyError>;
}

/// The statement a caller expects a proof to prove (e.g. the one a firmware was built for).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Statement<'a> {
    pub air: AirId,
    pub log_n: u8,
    pub public_inputs: &'a [u64],
}

/// What an accepted proof proved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verified {
    pub header: ProofHeader,
    pub security_bits: u32,
}

/// Parses `bytes` and verifies the proof with `verifier`.
///
/// Order of checks, cheapest first: envelope, backend id, expected statement, backend
/// support, security policy; only then the backend's own verification.
pub fn verify<V: Verifier + ?Sized>(
    verifier: &V,
    bytes: &[u8],
    expected: Option<&Statement<'_>>,
    policy: &Policy,
) -> Result<Verified, VerifyError> {
    let file = ProofFile::parse(bytes)?;
    let header = file.header;
    if header.backend != verifier.backend() {
        return Err(VerifyError::WrongBackend {
            expected: verifier.backend(),
            found: header.backend,
        });
    }
    if let Some(s) = expected {
        if s.air != header.air {
            return Err(VerifyError::StatementMismatch("AIR"));
        }
        if s.log_n != header.log_n {
            return Err(VerifyError::StatementMismatch("trace length"));
        }
        if s.public_inputs.len() != file.public_inputs.len()
            || !file
                .public_inputs
                .iter()
                .eq(s.public_inputs.iter().copied())
        {
            return Err(VerifyError::StatementMismatch("public inputs"));
        }
    }
    verifier.check_supported(&header)?;
    let shape = verifier.air_shape(&header)?;
    let security_bits = policy.check(&header, shape)?;
    verifier.verify_payload(&file)?;
    Ok(Verified {
        header,
        security_bits,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::HashId;
    use crate::proof_file::{encode, ProofParams};
    use core::cell::Cell;

    /// Accepts a payload equal to the public inputs' little-endian bytes; counts calls.
    struct EchoVerifier {
        heavy_calls: Cell<u32>,
    }

    impl Verifier for EchoVerifier {
        fn backend(&self) -> BackendId {
            BackendId::P3M31
        }
        fn check_supported(&self, h: &ProofHeader) -> Result<(), VerifyError> {
            if h.extension_degree != 4 {
                return Err(VerifyError::Unsupported("extension degree"));
            }
            Ok(())
        }
        fn air_shape(&self, _: &ProofHeader) -> Result<AirShape, VerifyError> {
            // The Fibonacci AIR's, as `picostark-airs` derives it.
            Ok(AirShape {
                width: 2,
                num_constraints: 5,
                max_constraint_degree: 2,
                num_quotient_chunks: 1,
                statement_hash: None,
            })
        }
        fn verify_payload(&self, p: &ProofFile<'_>) -> Result<(), VerifyError> {
            self.heavy_calls.set(self.heavy_calls.get() + 1);
            if p.public_inputs
                .iter()
                .flat_map(u64::to_le_bytes)
                .eq(p.payload.iter().copied())
            {
                Ok(())
            } else {
                Err(VerifyError::Rejected("payload"))
            }
        }
    }

    fn file(backend: BackendId, ext: u8, queries: u16) -> alloc::vec::Vec<u8> {
        let header = ProofHeader {
            backend,
            field: backend.field(),
            extension_degree: ext,
            hash: HashId::Blake3_256,
            air: AirId::Fibonacci,
            log_n: 10,
            params: ProofParams {
                log_blowup: 3,
                num_queries: queries,
                pow_bits: 16,
                log_fold_arity: 1,
                log_final_poly_len: 0,
            },
        };
        encode(&header, &[5], &5u64.to_le_bytes())
    }

    #[test]
    fn cheap_checks_run_before_heavy_work() {
        let v = EchoVerifier {
            heavy_calls: Cell::new(0),
        };
        let policy = Policy::default();
        let ok = file(BackendId::P3M31, 4, 27);
        let got = verify(&v, &ok, None, &policy).unwrap();
        // Strictest of ethSTARK 96, winterfell 96 and Plonky3's 95.
        assert_eq!(got.security_bits, 95);
        assert_eq!(v.heavy_calls.get(), 1);

        let stmt = Statement {
            air: AirId::Fibonacci,
            log_n: 10,
            public_inputs: &[5],
        };
        assert!(verify(&v, &ok, Some(&stmt), &policy).is_ok());
        let wrong = Statement {
            public_inputs: &[6],
            ..stmt
        };
        assert_eq!(
            verify(&v, &ok, Some(&wrong), &policy),
            Err(VerifyError::StatementMismatch("public inputs"))
        );
        let wrong_n = Statement { log_n: 11, ..stmt };
        assert_eq!(
            verify(&v, &ok, Some(&wrong_n), &policy),
            Err(VerifyError::StatementMismatch("trace length"))
        );
        assert_eq!(
            verify(&v, &file(BackendId::P3BabyBear, 4, 27), None, &policy),
            Err(VerifyError::WrongBackend {
                expected: BackendId::P3M31,
                found: BackendId::P3BabyBear
            })
        );
        assert_eq!(
            verify(&v, &file(BackendId::P3M31, 3, 27), None, &policy),
            Err(VerifyError::Unsupported("extension degree"))
        );
        assert_eq!(
            verify(&v, &file(BackendId::P3M31, 4, 20), None, &policy),
            Err(VerifyError::InsufficientSecurity {
                // winterfell's rule: 60 query bits, below 80, so no grinding: 60 - 1.
                bits: 59,
                required: 95
            })
        );
        // None of the rejected files reached the heavy work.
        assert_eq!(v.heavy_calls.get(), 2);
    }
}

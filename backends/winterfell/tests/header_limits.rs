//! The header limits of the winterfell verifiers at their boundaries: the last value each
//! backend's `check_supported` accepts and the first it refuses, for the parameters winterfell
//! 0.13.1 asserts on (`ProofOptions::new`, `get_root_of_unity`; `docs/panic-inventory.md`).
//! The header sweep in `prover-host/tests/mutation.rs` shows nothing past them panics; this
//! shows the limits are where upstream needs them, not tighter.

use picostark_core::{AirId, BackendId, HashId, ProofHeader, ProofParams, Verifier, VerifyError};
use picostark_winterfell::{WfBabyBearVerifier, WfGoldilocksVerifier};

const PARAMS: ProofParams = ProofParams {
    log_blowup: 3,
    num_queries: 32,
    pow_bits: 0,
    log_fold_arity: 3,
    log_final_poly_len: 5,
};

fn header(backend: BackendId, log_n: u8, params: ProofParams) -> ProofHeader {
    ProofHeader {
        backend,
        field: backend.field(),
        extension_degree: if backend == BackendId::WfBabyBear {
            4
        } else {
            2
        },
        hash: HashId::Blake3_256,
        air: AirId::Fibonacci,
        log_n,
        params,
    }
}

fn out_of_range(what: &'static str, value: u32, max: u32) -> Result<(), VerifyError> {
    Err(VerifyError::ParameterOutOfRange { what, value, max })
}

fn verifiers() -> [(Box<dyn Verifier>, BackendId, u8); 2] {
    [
        // Two-adicity 32, capped by a 32-bit usize.
        (
            Box::new(WfGoldilocksVerifier::default()),
            BackendId::WfGoldilocks,
            31,
        ),
        // Two-adicity 27.
        (
            Box::new(WfBabyBearVerifier::default()),
            BackendId::WfBabyBear,
            27,
        ),
    ]
}

#[test]
fn options_up_to_what_proof_options_new_takes() {
    for (v, backend, _) in verifiers() {
        let at = |p: ProofParams| v.check_supported(&header(backend, 10, p));
        assert_eq!(at(PARAMS), Ok(()));
        let cases = [
            (
                ProofParams {
                    num_queries: 255,
                    ..PARAMS
                },
                ProofParams {
                    num_queries: 256,
                    ..PARAMS
                },
                out_of_range("number of queries", 256, 255),
            ),
            (
                ProofParams {
                    log_blowup: 7,
                    ..PARAMS
                },
                ProofParams {
                    log_blowup: 8,
                    ..PARAMS
                },
                out_of_range("log2 blowup", 8, 7),
            ),
            (
                ProofParams {
                    pow_bits: 32,
                    ..PARAMS
                },
                ProofParams {
                    pow_bits: 33,
                    ..PARAMS
                },
                out_of_range("proof-of-work bits", 33, 32),
            ),
            (
                ProofParams {
                    log_final_poly_len: 8,
                    ..PARAMS
                },
                ProofParams {
                    log_final_poly_len: 9,
                    ..PARAMS
                },
                out_of_range("log2 final polynomial length", 9, 8),
            ),
        ];
        for (last, first_refused, want) in cases {
            assert_eq!(at(last), Ok(()), "{backend} {last}");
            assert_eq!(at(first_refused), want, "{backend} {first_refused}");
        }
    }
}

#[test]
fn lde_domain_up_to_the_field_and_a_32_bit_usize() {
    for (v, backend, max_lde) in verifiers() {
        let at = |log_n: u8| v.check_supported(&header(backend, log_n, PARAMS));
        let log_n = max_lde - PARAMS.log_blowup;
        assert_eq!(at(log_n), Ok(()), "{backend}");
        assert_eq!(
            at(log_n + 1),
            out_of_range(
                "log2 LDE domain size",
                u32::from(max_lde) + 1,
                max_lde.into()
            ),
            "{backend}"
        );
    }
}

#[test]
fn another_backends_header_is_refused() {
    let h = header(BackendId::WfBabyBear, 10, PARAMS);
    assert_eq!(
        WfGoldilocksVerifier::default().check_supported(&h),
        Err(VerifyError::WrongBackend {
            expected: BackendId::WfGoldilocks,
            found: BackendId::WfBabyBear
        })
    );
    assert_eq!(WfBabyBearVerifier::default().check_supported(&h), Ok(()));
}

/// Every envelope extension degree (1..=8) is accepted exactly when the backend has that
/// challenge field (wf-goldilocks: 2, 3; wf-babybear: 4, and 5 for the proven track), else
/// `Unsupported`.
#[test]
fn extension_degrees_are_exactly_the_backends_fields() {
    for (v, backend, _) in verifiers() {
        let fields: &[u8] = if backend == BackendId::WfBabyBear {
            &[4, 5]
        } else {
            &[2, 3]
        };
        for degree in 1..=8u8 {
            let h = ProofHeader {
                extension_degree: degree,
                ..header(backend, 10, PARAMS)
            };
            let got = v.check_supported(&h);
            if fields.contains(&degree) {
                assert_eq!(got, Ok(()), "{backend} degree {degree}");
            } else {
                assert!(
                    matches!(got, Err(VerifyError::Unsupported(_))),
                    "{backend} degree {degree}: {got:?}"
                );
            }
        }
    }
}

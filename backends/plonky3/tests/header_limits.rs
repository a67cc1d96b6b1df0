//! The header limits of the Plonky3 verifiers at their boundaries: the last value each
//! backend's `check_supported` accepts and the first it refuses, for the parameters a
//! library asserts on (`docs/panic-inventory.md`). The header sweep in
//! `prover-host/tests/mutation.rs` shows nothing past them panics; this shows the limits are
//! where the libraries need them, not tighter.

use picostark_core::{AirId, BackendId, HashId, ProofHeader, ProofParams, Verifier, VerifyError};
use picostark_plonky3::{P3BabyBearVerifier, P3GoldilocksVerifier, P3M31Verifier};

fn header(backend: BackendId, ext: u8, log_n: u8, params: ProofParams) -> ProofHeader {
    ProofHeader {
        backend,
        field: backend.field(),
        extension_degree: ext,
        hash: HashId::Blake3_256,
        air: AirId::Fibonacci,
        log_n,
        params,
    }
}

const PARAMS: ProofParams = ProofParams {
    log_blowup: 3,
    num_queries: 27,
    pow_bits: 16,
    log_fold_arity: 1,
    log_final_poly_len: 0,
};

fn out_of_range(what: &'static str, value: u32, max: u32) -> Result<(), VerifyError> {
    Err(VerifyError::ParameterOutOfRange { what, value, max })
}

/// `(verifier, backend, extension degree, widest PoW draw, largest log2 LDE)`.
fn backends() -> [(&'static dyn Verifier, BackendId, u8, u8, u8); 3] {
    [
        // 2^30 < p_BabyBear; two-adicity 27.
        (&P3BabyBearVerifier, BackendId::P3BabyBear, 4, 30, 27),
        // A 32-bit usize holds 31 bits; two-adicity 32, capped by the same draw.
        (&P3GoldilocksVerifier, BackendId::P3Goldilocks, 2, 31, 31),
        // p = 2^31 - 1; the circle query index is as wide as the LDE.
        (&P3M31Verifier, BackendId::P3M31, 4, 30, 30),
    ]
}

#[test]
fn proof_of_work_bits_up_to_one_challenger_draw() {
    for (v, backend, ext, max_pow, _) in backends() {
        let at = |pow_bits| {
            let p = ProofParams { pow_bits, ..PARAMS };
            v.check_supported(&header(backend, ext, 10, p))
        };
        assert_eq!(at(max_pow), Ok(()), "{backend}");
        assert_eq!(
            at(max_pow + 1),
            out_of_range("proof-of-work bits", (max_pow + 1).into(), max_pow.into()),
            "{backend}"
        );
        assert!(at(40).is_err(), "{backend}");
    }
}

#[test]
fn lde_domain_up_to_the_field_and_the_index_draw() {
    for (v, backend, ext, _, max_lde) in backends() {
        let at = |log_n: u8| v.check_supported(&header(backend, ext, log_n, PARAMS));
        let log_n = max_lde - PARAMS.log_blowup;
        assert_eq!(at(log_n), Ok(()), "{backend}");
        assert_eq!(
            at(log_n + 1),
            out_of_range("log2 LDE domain size", (max_lde + 1).into(), max_lde.into()),
            "{backend}"
        );
        assert!(at(32).is_err(), "{backend}");
    }
}

#[test]
fn final_polynomial_shorter_than_the_trace_and_circle_folds_up_to_sixteen() {
    let bb = |log_fold_arity, log_final_poly_len| {
        let p = ProofParams {
            log_fold_arity,
            log_final_poly_len,
            ..PARAMS
        };
        P3BabyBearVerifier.check_supported(&header(BackendId::P3BabyBear, 4, 10, p))
    };
    assert_eq!(bb(4, 9), Ok(()));
    assert_eq!(
        bb(4, 10),
        out_of_range("log2 final polynomial length", 10, 9)
    );
    let m31 = |log_fold_arity, log_final_poly_len| {
        let p = ProofParams {
            log_fold_arity,
            log_final_poly_len,
            ..PARAMS
        };
        P3M31Verifier.check_supported(&header(BackendId::P3M31, 4, 10, p))
    };
    // (1, 0) is upstream's CirclePcs; our WideCirclePcs takes every other arity 2..=16 and
    // final length up to 2^10 coefficients, below the trace length (n = 2^10 here).
    for k in 0..=8u8 {
        for f in 0..=12u8 {
            let got = m31(k, f);
            if k == 0 || k > 4 {
                assert_eq!(
                    got,
                    out_of_range("log2 folding arity (circle FRI)", k.into(), 4),
                    "k {k} f {f}"
                );
            } else if f > 10 {
                assert_eq!(
                    got,
                    out_of_range("log2 final polynomial length (circle FRI)", f.into(), 10),
                    "k {k} f {f}"
                );
            } else if f == 10 {
                assert_eq!(
                    got,
                    out_of_range("log2 final polynomial length", f.into(), 9),
                    "k {k} f {f}"
                );
            } else {
                assert_eq!(got, Ok(()), "k {k} f {f}");
            }
        }
    }
}

#[test]
fn another_backends_header_is_refused_not_asserted() {
    let h = header(BackendId::P3Goldilocks, 2, 10, PARAMS);
    assert_eq!(
        P3BabyBearVerifier.check_supported(&h),
        Err(VerifyError::WrongBackend {
            expected: BackendId::P3BabyBear,
            found: BackendId::P3Goldilocks
        })
    );
    assert_eq!(P3GoldilocksVerifier.check_supported(&h), Ok(()));
}

/// Every extension degree the envelope admits (1..=8): the backend's challenge fields are
/// accepted, every other degree is refused as unsupported before any work.
#[test]
fn only_the_backends_challenge_fields_are_accepted() {
    let verifiers: [(&dyn Verifier, BackendId, &[u8]); 3] = [
        (&P3BabyBearVerifier, BackendId::P3BabyBear, &[4, 5, 8]),
        (&P3GoldilocksVerifier, BackendId::P3Goldilocks, &[2, 3, 5]),
        (&P3M31Verifier, BackendId::P3M31, &[3, 4, 6]),
    ];
    for (v, backend, degrees) in verifiers {
        for ext in 1..=8u8 {
            let got = v.check_supported(&header(backend, ext, 10, PARAMS));
            if degrees.contains(&ext) {
                assert_eq!(got, Ok(()), "{backend} x{ext}");
            } else {
                assert_eq!(
                    got,
                    Err(VerifyError::Unsupported(
                        "extension degree for this backend"
                    )),
                    "{backend} x{ext}"
                );
            }
        }
    }
}

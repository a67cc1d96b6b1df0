//! The zkmcu fork's reference proofs through our verifier: accepted as they are, rejected
//! (with an error, never a panic) after any single-byte change, a wrong public input,
//! truncation, or when handed to the other backend's verifier.

use crate::common;

use common::{babybear_reference, goldilocks_reference, PAYLOAD_OFFSET};
use picostark_core::{verify, AirId, BackendId, Policy, Regime, Statement, VerifyError};
use picostark_winterfell::{WfBabyBearVerifier, WfGoldilocksVerifier};

/// The reference parameters (32 queries at blowup 8, no grinding) meet 95 bits under
/// winterfell's own rule, the library that made the proofs, but 94 under Plonky3's conjecture:
/// the default policy (strictest of the conjectures) refuses them, so they are verified under
/// winterfell's regime.
fn reference_policy() -> Policy {
    Policy {
        regime: Regime::Winterfell,
        ..Policy::default()
    }
}

#[test]
fn goldilocks_reference_accepted() {
    let (file, public) = goldilocks_reference();
    let v = WfGoldilocksVerifier::default();
    let stmt = Statement {
        air: AirId::Fibonacci,
        log_n: 10,
        public_inputs: &[public],
    };
    let got = verify(&v, &file, Some(&stmt), &reference_policy()).unwrap();
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
    let got = verify(&v, &file, Some(&stmt), &reference_policy()).unwrap();
    assert_eq!(got.security_bits, 95);
}

fn reencode(file: &[u8], f: impl FnOnce(&mut picostark_core::ProofHeader, &mut u64)) -> Vec<u8> {
    let parsed = picostark_core::ProofFile::parse(file).unwrap();
    let mut header = parsed.header;
    let mut public = parsed.public_inputs.get(0).unwrap();
    f(&mut header, &mut public);
    picostark_core::proof_file::encode(&header, &[public], parsed.payload)
}

/// Byte positions to flip: every header byte, the winterfell context, and every `step`-th
/// byte after that (all bytes when `step == 1`).
fn flip_positions(len: usize, step: usize) -> Vec<usize> {
    let dense_prefix = PAYLOAD_OFFSET + 64;
    (0..len)
        .filter(|&i| i < dense_prefix || (i - dense_prefix).is_multiple_of(step))
        .collect()
}

/// Flips bits of each chosen byte and expects a rejection; a panic fails the test with the
/// position.
fn sweep<V: picostark_core::Verifier + std::panic::RefUnwindSafe>(
    file: &[u8],
    v: &V,
    step: usize,
) -> usize {
    let policy = reference_policy();
    let mut count = 0;
    for i in flip_positions(file.len(), step) {
        for mask in [0x01u8, 0x80] {
            let mut bad = file.to_vec();
            bad[i] ^= mask;
            let result = std::panic::catch_unwind(|| verify(v, &bad, None, &policy));
            match result {
                Ok(Err(_)) => count += 1,
                Ok(Ok(_)) => panic!("flip {mask:#04x} at byte {i} was accepted"),
                Err(_) => panic!("flip {mask:#04x} at byte {i} panicked"),
            }
        }
    }
    count
}

/// Debug runs flip a dense sample (every 7th byte plus all header and context bytes); release
/// runs (`cargo test --release ... byte_flips`) flip every byte.
fn sweep_step() -> usize {
    if cfg!(debug_assertions) {
        7
    } else {
        1
    }
}

#[test]
fn goldilocks_reference_byte_flips_rejected() {
    let (file, _) = goldilocks_reference();
    let n = sweep(&file, &WfGoldilocksVerifier::default(), sweep_step());
    println!("goldilocks: {n} flipped files rejected");
    assert!(n >= 2 * file.len() / 7);
}

#[test]
fn babybear_reference_byte_flips_rejected() {
    let (file, _) = babybear_reference();
    let n = sweep(&file, &WfBabyBearVerifier::default(), sweep_step());
    println!("babybear: {n} flipped files rejected");
    assert!(n >= 2 * file.len() / 7);
}

#[test]
fn wrong_public_input_rejected() {
    for (file, public, v) in [
        (
            goldilocks_reference().0,
            goldilocks_reference().1,
            &WfGoldilocksVerifier::default() as &dyn picostark_core::Verifier,
        ),
        (
            babybear_reference().0,
            babybear_reference().1,
            &WfBabyBearVerifier::default(),
        ),
    ] {
        let policy = reference_policy();
        let stmt = Statement {
            air: AirId::Fibonacci,
            log_n: 10,
            public_inputs: &[public + 1],
        };
        assert_eq!(
            verify(v, &file, Some(&stmt), &policy).unwrap_err(),
            VerifyError::StatementMismatch("public inputs")
        );
        // The same proof claimed for another result: the transcript differs, so it fails.
        let other = reencode(&file, |_, p| *p += 1);
        assert!(matches!(
            verify(v, &other, None, &policy),
            Err(VerifyError::CheckFailed(_))
        ));
        let other = reencode(&file, |_, p| *p = 0);
        assert!(matches!(
            verify(v, &other, None, &policy),
            Err(VerifyError::CheckFailed(_))
        ));
    }
}

#[test]
fn other_backend_rejected() {
    let policy = reference_policy();
    let (gl, _) = goldilocks_reference();
    let (bb, _) = babybear_reference();
    assert_eq!(
        verify(&WfBabyBearVerifier::default(), &gl, None, &policy).unwrap_err(),
        VerifyError::WrongBackend {
            expected: BackendId::WfBabyBear,
            found: BackendId::WfGoldilocks
        }
    );
    assert_eq!(
        verify(&WfGoldilocksVerifier::default(), &bb, None, &policy).unwrap_err(),
        VerifyError::WrongBackend {
            expected: BackendId::WfGoldilocks,
            found: BackendId::WfBabyBear
        }
    );
    // A BabyBear payload relabelled as Goldilocks fails on its content, not by accident.
    let relabelled = {
        let parsed = picostark_core::ProofFile::parse(&bb).unwrap();
        let mut h = parsed.header;
        h.backend = BackendId::WfGoldilocks;
        h.field = BackendId::WfGoldilocks.field();
        h.extension_degree = 2;
        picostark_core::proof_file::encode(
            &h,
            &[parsed.public_inputs.get(0).unwrap()],
            parsed.payload,
        )
    };
    assert!(verify(&WfGoldilocksVerifier::default(), &relabelled, None, &policy).is_err());
}

#[test]
fn truncated_and_extended_files_rejected() {
    let policy = reference_policy();
    let (file, _) = goldilocks_reference();
    let v = WfGoldilocksVerifier::default();
    for len in
        (0..file.len())
            .step_by(97)
            .chain([file.len() - 1, PAYLOAD_OFFSET, PAYLOAD_OFFSET + 1])
    {
        assert!(
            verify(&v, &file[..len], None, &policy).is_err(),
            "len {len}"
        );
    }
    // A payload cut short inside a consistent envelope is a malformed proof.
    let parsed = picostark_core::ProofFile::parse(&file).unwrap();
    for cut in [
        1,
        8,
        100,
        parsed.payload.len() / 2,
        parsed.payload.len() - 1,
    ] {
        let short = picostark_core::proof_file::encode(
            &parsed.header,
            &[parsed.public_inputs.get(0).unwrap()],
            &parsed.payload[..parsed.payload.len() - cut],
        );
        assert!(
            matches!(
                verify(&v, &short, None, &policy),
                Err(VerifyError::MalformedProof(_))
            ),
            "cut {cut}"
        );
        let mut long = parsed.payload.to_vec();
        long.push(0);
        let long = picostark_core::proof_file::encode(
            &parsed.header,
            &[parsed.public_inputs.get(0).unwrap()],
            &long,
        );
        assert!(matches!(
            verify(&v, &long, None, &policy),
            Err(VerifyError::MalformedProof(_))
        ));
    }
}

#[test]
fn header_must_agree_with_payload() {
    let policy = reference_policy();
    let (gl, _) = goldilocks_reference();
    let gv = WfGoldilocksVerifier::default();
    // More queries claimed than the payload was made with.
    let more = reencode(&gl, |h, _| h.params.num_queries = 40);
    assert_eq!(
        verify(&gv, &more, None, &policy).unwrap_err(),
        VerifyError::StatementMismatch("proof parameters in the payload")
    );
    let n = reencode(&gl, |h, _| h.log_n = 11);
    assert_eq!(
        verify(&gv, &n, None, &policy).unwrap_err(),
        VerifyError::StatementMismatch("trace length in the payload")
    );
    let cubic = reencode(&gl, |h, _| h.extension_degree = 3);
    assert_eq!(
        verify(&gv, &cubic, None, &policy).unwrap_err(),
        VerifyError::StatementMismatch("extension tag in the payload")
    );
    let quartic = reencode(&gl, |h, _| h.extension_degree = 4);
    assert_eq!(
        verify(&gv, &quartic, None, &policy).unwrap_err(),
        VerifyError::Unsupported("extension degree")
    );

    // The BabyBear backend does only the quartic extension; the tag must be 1 or 4, and it
    // enters the transcript, so 1 in place of the fork's 4 fails the proof.
    let (bb, _) = babybear_reference();
    let bv = WfBabyBearVerifier::default();
    let quad = reencode(&bb, |h, _| h.extension_degree = 2);
    assert_eq!(
        verify(&bv, &quad, None, &policy).unwrap_err(),
        VerifyError::Unsupported("extension degree")
    );
    for (tag, want_mismatch) in [(1u8, false), (2, true), (3, true), (5, true)] {
        let mut t = bb.clone();
        t[PAYLOAD_OFFSET + 14] = tag;
        let err = verify(&bv, &t, None, &policy).unwrap_err();
        if want_mismatch {
            assert_eq!(
                err,
                VerifyError::StatementMismatch("extension tag in the payload")
            );
        } else {
            assert!(matches!(err, VerifyError::CheckFailed(_)), "{err:?}");
        }
    }
}

#[test]
fn verifier_security_floor_uses_the_true_degree() {
    let (bb, _) = babybear_reference();
    // The payload's own estimate with degree 4 is 95 bits: a floor of 96 rejects it even when
    // the caller's policy would not.
    let strict = WfBabyBearVerifier::with_min_security(96);
    let lax = Policy {
        min_security_bits: 80,
        ..Policy::default()
    };
    assert_eq!(
        verify(&strict, &bb, None, &lax).unwrap_err(),
        VerifyError::InsufficientSecurity {
            bits: 95,
            required: 96
        }
    );
}

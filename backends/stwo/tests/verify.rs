//! The `stwo-m31` verifier on proofs written by the nightly prover (`testdata/`, made by
//! `picostark-stwo-prover prove`): honest proofs accepted, every kind of tampering rejected
//! with its reason, hostile bytes never a panic.

use std::panic::{catch_unwind, AssertUnwindSafe};

use picostark_core::{
    verify, AirId, BackendId, HashId, Policy, ProofFile, Statement, Verifier, VerifyError,
};
use picostark_stwo::StwoM31Verifier;

fn testdata(name: &str) -> Vec<u8> {
    let path = format!("{}/testdata/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

const HONEST: &[&str] = &[
    "stwo-m31-fib-n1024.proof",
    "stwo-m31-fib-n8.proof",
    "stwo-m31-fib-n1024-fold4.proof",
    "stwo-m31-chain16-n64.proof",
    "stwo-m31-membership-n16.proof",
];

/// The AIRs above degree 2, proved in their degree-reduced form.
const REDUCED: &[&str] = &[
    "stwo-m31-chain16-n64.proof",
    "stwo-m31-membership-n16.proof",
];

fn check(bytes: &[u8]) -> Result<u32, VerifyError> {
    verify(&StwoM31Verifier, bytes, None, &Policy::default()).map(|v| v.security_bits)
}

/// The header's hash id and log2 n (`core/src/proof_file.rs`).
const HASH_BYTE: usize = 9;
const LOG_N_BYTE: usize = 11;

/// Where the payload starts (after the header and the public inputs).
fn payload_start(bytes: &[u8]) -> usize {
    24 + 8 * usize::from(bytes[18])
}

#[test]
fn honest_proofs_are_accepted_at_95_bits_or_more() {
    for name in HONEST {
        let bytes = testdata(name);
        let file = ProofFile::parse(&bytes).unwrap();
        assert_eq!(file.header.backend, BackendId::StwoM31);
        assert_eq!(file.header.hash, HashId::Blake2s256);
        let bits = check(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(bits >= 95, "{name}: {bits} bits");
    }
}

/// Proofs over our own Merkle channels (`picostark_stwo::channel`): BLAKE3 and SHA-256.
const OUR_CHANNELS: &[(&str, HashId)] = &[
    ("stwo-m31-fib-n1024-blake3.proof", HashId::Blake3_256),
    ("stwo-m31-fib-n8-blake3.proof", HashId::Blake3_256),
    ("stwo-m31-fib-n1024-sha256.proof", HashId::Sha256),
    ("stwo-m31-fib-n8-sha256.proof", HashId::Sha256),
];

#[test]
fn proofs_over_our_blake3_and_sha256_channels_are_accepted_and_tampering_rejected() {
    for &(name, hash) in OUR_CHANNELS {
        let bytes = testdata(name);
        assert_eq!(
            ProofFile::parse(&bytes).unwrap().header.hash,
            hash,
            "{name}"
        );
        let bits = check(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(bits >= 95, "{name}: {bits} bits");
        // One flipped byte of the payload, in its first and second halves.
        let start = payload_start(&bytes);
        for at in [start + 40, start + (bytes.len() - start) / 2] {
            let mut t = bytes.clone();
            t[at] ^= 0x01;
            assert!(check(&t).is_err(), "{name}: byte {at} flipped was accepted");
        }
        // The same proof filed under the other hashes: another channel, another key.
        for other in [HashId::Blake3_256, HashId::Sha256, HashId::Blake2s256] {
            if other == hash {
                continue;
            }
            let mut t = bytes.clone();
            t[HASH_BYTE] = other as u8;
            assert!(check(&t).is_err(), "{name} accepted as {other}");
        }
    }
    // The key stops at 2^16 rows with our channels: a header above it is refused.
    let mut t = testdata("stwo-m31-fib-n1024-blake3.proof");
    t[LOG_N_BYTE] = 17;
    assert!(matches!(
        check(&t),
        Err(VerifyError::ParameterOutOfRange { what: "log2 n", .. })
    ));
}

#[test]
fn the_expected_statement_is_checked() {
    let bytes = testdata("stwo-m31-fib-n1024.proof");
    let file = ProofFile::parse(&bytes).unwrap();
    let public: Vec<u64> = (0..file.public_inputs.len())
        .map(|i| file.public_inputs.get(i).unwrap())
        .collect();
    let good = Statement {
        air: AirId::Fibonacci,
        log_n: 10,
        public_inputs: &public,
    };
    assert!(verify(&StwoM31Verifier, &bytes, Some(&good), &Policy::default()).is_ok());
    let mut other = public.clone();
    other[0] += 1;
    let bad = Statement {
        public_inputs: &other,
        ..good
    };
    assert!(matches!(
        verify(&StwoM31Verifier, &bytes, Some(&bad), &Policy::default()),
        Err(VerifyError::StatementMismatch(_))
    ));
}

#[test]
fn a_changed_public_input_is_rejected() {
    let mut bytes = testdata("stwo-m31-fib-n1024.proof");
    assert!(check(&bytes).is_ok());
    // The last Fibonacci value, the file's one public input, plus one.
    bytes[20] = bytes[20].wrapping_add(1);
    let err = check(&bytes).unwrap_err();
    assert!(err.is_rejection(), "{err:?}");
}

#[test]
fn a_proof_filed_under_another_backend_is_refused() {
    let mut bytes = testdata("stwo-m31-fib-n1024.proof");
    bytes[6] = BackendId::P3M31 as u8;
    assert!(matches!(
        check(&bytes),
        Err(VerifyError::WrongBackend {
            expected: BackendId::StwoM31,
            found: BackendId::P3M31
        })
    ));
}

#[test]
fn a_flipped_payload_byte_is_rejected() {
    let bytes = testdata("stwo-m31-fib-n1024.proof");
    let start = payload_start(&bytes);
    // Flip one byte in each region: a commitment, a sampled value, a hash witness, a
    // queried value, the FRI layers (all inside the payload).
    for at in [
        start + 20,
        start + 150,
        start + 900,
        bytes.len() / 2,
        bytes.len() - 40,
    ] {
        let mut t = bytes.clone();
        t[at] ^= 0x01;
        let err = check(&t).expect_err(&format!("byte {at} flipped was accepted"));
        assert!(
            matches!(
                err,
                VerifyError::Rejected(_)
                    | VerifyError::CheckFailed(_)
                    | VerifyError::MalformedProof(_)
            ),
            "byte {at}: {err:?}"
        );
    }
}

#[test]
fn header_parameters_the_payload_does_not_repeat_are_refused() {
    let mut bytes = testdata("stwo-m31-fib-n1024.proof");
    bytes[14] = bytes[14].wrapping_add(1); // one more query in the header
    assert!(check(&bytes).is_err());
}

/// chain16 (degree 3, 4 with the row selector) and membership (5 and 6) pass stwo's bound
/// of 2 only reduced: their proofs are accepted, and a changed public input, a flipped
/// byte anywhere in the payload (on a stride) or the other AIR's id are rejected.
#[test]
fn airs_above_degree_two_are_proved_reduced_and_checked() {
    for name in REDUCED {
        let bytes = testdata(name);
        let file = ProofFile::parse(&bytes).unwrap();
        assert!(StwoM31Verifier.check_supported(&file.header).is_ok());
        // The security estimate counts the reduced form: definitions of degree 2 and one
        // for the selector (stwo states them without it, degree 2).
        let shape = StwoM31Verifier.air_shape(&file.header).unwrap();
        assert_eq!(shape.max_constraint_degree, 3, "{name}");
        assert!(check(&bytes).is_ok(), "{name}");
        // Every public input, one more.
        for i in 0..usize::from(bytes[18]) {
            let mut t = bytes.clone();
            t[20 + 8 * i] ^= 0x01;
            let err = check(&t).unwrap_err();
            assert!(err.is_rejection(), "{name}: public input {i}: {err:?}");
        }
        let start = payload_start(&bytes);
        let stride = (bytes.len() - start) / 64;
        for at in (start..bytes.len()).step_by(stride) {
            let mut t = bytes.clone();
            t[at] ^= 0x10;
            assert!(check(&t).is_err(), "{name}: byte {at} flipped was accepted");
        }
        // Filed under the other AIR: refused before or by stwo.
        let mut t = bytes.clone();
        let other = if file.header.air == AirId::Membership {
            AirId::CubicChain16
        } else {
            AirId::Membership
        };
        t[10] = other.byte();
        assert!(check(&t).is_err(), "{name} as {other:?}");
    }
}

/// Every single-byte change over the header and a stride of the payload, every truncation
/// on a stride, and random multi-byte changes: all refused, none panics; on the
/// verifier's default path and on the lean path by name (every copy whose envelope parses).
#[test]
fn mutations_are_refused_without_a_panic() {
    let mut panics = 0;
    let mut accepted = 0;
    let mut runs = 0;
    let mut lean_runs = 0;
    let mut run = |t: &[u8]| {
        runs += 1;
        match catch_unwind(AssertUnwindSafe(|| check(t))) {
            Err(_) => panics += 1,
            Ok(Ok(_)) => accepted += 1,
            Ok(Err(_)) => {}
        }
        // The lean path by name, whatever this build's default (`stwo-stock`).
        if let Ok(file) = ProofFile::parse(t) {
            lean_runs += 1;
            let lean = catch_unwind(AssertUnwindSafe(|| {
                picostark_stwo::run(&file, picostark_stwo::Path::Lean).verdict
            }));
            match lean {
                Err(_) => panics += 1,
                Ok(Ok(())) => accepted += 1,
                Ok(Err(_)) => {}
            }
        }
    };
    for name in [
        "stwo-m31-fib-n8.proof",
        "stwo-m31-fib-n1024-fold4.proof",
        "stwo-m31-fib-n8-blake3.proof",
        "stwo-m31-fib-n8-sha256.proof",
    ] {
        let bytes = testdata(name);
        let start = payload_start(&bytes);
        let stride = (bytes.len() / 300).max(1);
        let positions = (0..start + 64).chain((start..bytes.len()).step_by(stride));
        for at in positions {
            for mask in [0x01u8, 0x80, 0xff] {
                let mut t = bytes.clone();
                t[at] ^= mask;
                run(&t);
            }
        }
        for len in (0..bytes.len()).step_by(stride) {
            run(&bytes[..len]);
        }
        // A deterministic xorshift: a few bytes at once, anywhere in the payload.
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..300 {
            let mut t = bytes.clone();
            for _ in 0..3 {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let at = start + (state as usize) % (bytes.len() - start);
                t[at] = (state >> 32) as u8;
            }
            run(&t);
        }
    }
    assert_eq!(panics, 0, "{panics} panics in {runs} mutated proofs");
    assert_eq!(accepted, 0, "{accepted} mutated proofs accepted of {runs}");
    assert!(runs > 6000, "{runs} runs");
    assert!(lean_runs > 5000, "{lean_runs} lean runs");
}

/// A measured run, not part of CI: verifies every proof file in `$STWO_PROOFS` (issue 45's
/// Fib range, 2^10 .. 2^16, written by `picostark-stwo-prover prove --air fib --log-n L`),
/// prints each verification's time, and checks a flipped copy of each is rejected.
/// `STWO_PROOFS=dir cargo test -p picostark-stwo --test suite verify:: -- --ignored --nocapture`.
#[test]
#[ignore = "needs $STWO_PROOFS, a folder of proofs from the nightly prover"]
fn every_proof_in_stwo_proofs_is_accepted_and_its_flipped_copy_rejected() {
    let dir = std::env::var("STWO_PROOFS").expect("STWO_PROOFS names a folder of proofs");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "proof"))
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "no .proof files in {dir}");
    for path in paths {
        let bytes = std::fs::read(&path).unwrap();
        let start = std::time::Instant::now();
        let bits = check(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let took = start.elapsed();
        let mut t = bytes.clone();
        let at = payload_start(&bytes) + (bytes.len() - payload_start(&bytes)) / 2;
        t[at] ^= 0x01;
        assert!(
            check(&t).is_err(),
            "{}: flipped copy accepted",
            path.display()
        );
        println!(
            "{}: {} B, {bits} bits, verified in {:.1} ms; flipped copy rejected",
            path.display(),
            bytes.len(),
            took.as_secs_f64() * 1e3
        );
    }
}

//! Accepted and rejected cases for every Plonky3 backend, through the core `verify` entry.

use p3_uni_stark::{Proof, StarkGenericConfig};
use picostark_core::proof_file::FIXED_HEADER_LEN;
use picostark_core::prove::{ProveRequest, Prover};
use picostark_core::{verify, AirId, FormatError, Policy, Statement, Verifier, VerifyError};
use picostark_plonky3::*;

struct Case {
    prover: &'static dyn Prover,
    verifier: &'static dyn Verifier,
    ext: u8,
    policy: Policy,
}

fn cases() -> Vec<Case> {
    let default = Policy::default();
    vec![
        Case {
            prover: &P3BabyBearProver,
            verifier: &P3BabyBearVerifier,
            ext: 4,
            policy: default,
        },
        Case {
            prover: &P3GoldilocksProver,
            verifier: &P3GoldilocksVerifier,
            ext: 2,
            policy: default,
        },
        Case {
            prover: &P3M31Prover,
            verifier: &P3M31Verifier,
            ext: 4,
            policy: default,
        },
        // The cubic extension cannot reach 95 bits (93-bit field): proved and verified under
        // an explicitly lowered policy.
        Case {
            prover: &P3M31Prover,
            verifier: &P3M31Verifier,
            ext: 3,
            policy: Policy {
                min_security_bits: 70,
                ..default
            },
        },
    ]
}

fn prove(case: &Case, log_n: u8) -> Vec<u8> {
    prove_air(case, AirId::Fibonacci, log_n)
}

fn prove_air(case: &Case, air: AirId, log_n: u8) -> Vec<u8> {
    let req = ProveRequest {
        air,
        log_n,
        extension_degree: case.ext,
        params: case.prover.default_params(),
        hash: picostark_core::HashId::Blake3_256,
    };
    case.prover
        .prove(&req, &mut |_| {})
        .expect("proving succeeds")
}

/// Offset of the public input and of the payload in a Fibonacci proof file.
const PUBLIC_AT: usize = FIXED_HEADER_LEN;
const PAYLOAD_AT: usize = FIXED_HEADER_LEN + 8 + 4;

#[test]
fn valid_proofs_accepted_and_tampered_rejected() {
    for case in cases() {
        let name = format!("{} ext {}", case.verifier.backend(), case.ext);
        let bytes = prove(&case, 10);
        let ok = verify(case.verifier, &bytes, None, &case.policy).expect(&name);
        assert!(ok.security_bits >= case.policy.min_security_bits, "{name}");

        // The expected statement: right one accepted, wrong public input refused early.
        let public = u64::from_le_bytes(bytes[PUBLIC_AT..PUBLIC_AT + 8].try_into().unwrap());
        let stmt = Statement {
            air: AirId::Fibonacci,
            log_n: 10,
            public_inputs: &[public],
        };
        assert!(
            verify(case.verifier, &bytes, Some(&stmt), &case.policy).is_ok(),
            "{name}"
        );
        let wrong = Statement {
            public_inputs: &[public + 1],
            ..stmt
        };
        assert_eq!(
            verify(case.verifier, &bytes, Some(&wrong), &case.policy),
            Err(VerifyError::StatementMismatch("public inputs")),
            "{name}"
        );

        // A wrong public input written into the file is caught by the proof itself.
        let mut tampered = bytes.clone();
        tampered[PUBLIC_AT] ^= 1;
        assert!(
            matches!(
                verify(case.verifier, &tampered, None, &case.policy),
                Err(ref e) if e.is_rejection()
            ),
            "{name}: wrong public input"
        );

        // Flipped payload bytes: a spread sample over the whole payload.
        let payload_len = bytes.len() - PAYLOAD_AT;
        for k in 0..64 {
            let at = PAYLOAD_AT + k * payload_len / 64;
            let mut t = bytes.clone();
            t[at] ^= 0x01 << (k % 8);
            assert!(
                verify(case.verifier, &t, None, &case.policy).is_err(),
                "{name}: flip at {at}"
            );
        }

        // A header parameter changed to another value the policy accepts: the transcript
        // absorbed the header, so the proof no longer verifies.
        let mut t = bytes.clone();
        t[14] += 1; // num_queries
        assert!(
            verify(case.verifier, &t, None, &case.policy).is_err(),
            "{name}: queries"
        );

        // Truncated and extended files.
        for cut in [0, 3, 10, PAYLOAD_AT, bytes.len() / 2, bytes.len() - 1] {
            let err = verify(case.verifier, &bytes[..cut], None, &case.policy).unwrap_err();
            assert!(
                matches!(err, VerifyError::Format(_)),
                "{name}: cut at {cut}: {err}"
            );
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(
            verify(case.verifier, &longer, None, &case.policy),
            Err(VerifyError::Format(FormatError::TrailingBytes(1)))
        );
    }
}

#[test]
fn proof_for_another_backend_is_refused() {
    let all = cases();
    for a in &all[..3] {
        let bytes = prove(a, 10);
        for b in &all[..3] {
            if a.verifier.backend() == b.verifier.backend() {
                continue;
            }
            assert_eq!(
                verify(b.verifier, &bytes, None, &Policy::default()),
                Err(VerifyError::WrongBackend {
                    expected: b.verifier.backend(),
                    found: a.verifier.backend()
                })
            );
        }
    }
}

#[test]
fn cubic_m31_is_below_the_default_policy() {
    let case = &cases()[3];
    let bytes = prove(case, 10);
    assert!(matches!(
        verify(case.verifier, &bytes, None, &Policy::default()),
        Err(VerifyError::InsufficientSecurity { required: 95, .. })
    ));
}

#[test]
fn larger_trace_verifies() {
    for case in &cases()[..3] {
        let bytes = prove(case, 14);
        assert!(verify(case.verifier, &bytes, None, &Policy::default()).is_ok());
    }
}

#[test]
fn wide_air_wrong_claimed_output_rejected() {
    for case in &cases()[..3] {
        let bytes = prove_air(case, AirId::CubicChain16, 6);
        assert!(verify(case.verifier, &bytes, None, &Policy::default()).is_ok());
        // Public inputs 4..8 are the claimed output: change the last word.
        let at = FIXED_HEADER_LEN + 7 * 8;
        let mut t = bytes.clone();
        t[at] ^= 1;
        assert!(
            matches!(
                verify(case.verifier, &t, None, &Policy::default()),
                Err(ref e) if e.is_rejection()
            ),
            "{}",
            case.verifier.backend()
        );
    }
}

#[test]
fn membership_accepted_wrong_root_and_tampered_rejected() {
    // Depth 10 fits n = 16. The verifiers' dispatch takes the stock path (the AIR is wider
    // than the lean verifier's bounds); `verify_stock` is checked on its own too.
    for case in &cases()[..3] {
        let name = case.verifier.backend();
        let bytes = prove_air(case, AirId::Membership, 4);
        assert!(
            verify(case.verifier, &bytes, None, &Policy::default()).is_ok(),
            "{name}"
        );
        let file = picostark_core::ProofFile::parse(&bytes).unwrap();
        verify_stock(&file).unwrap();
        // The root is public inputs 0 .. DIGEST: change its first and its last word.
        let digest = file.public_inputs.len() / 4;
        for word in [0, digest - 1] {
            let mut t = bytes.clone();
            t[FIXED_HEADER_LEN + 8 * word] ^= 1;
            assert!(
                matches!(
                    verify(case.verifier, &t, None, &Policy::default()),
                    Err(ref e) if e.is_rejection()
                ),
                "{name}: root word {word}"
            );
        }
        // Flipped payload bytes, a spread sample.
        let payload_at = bytes.len() - file.payload.len();
        let payload_len = file.payload.len();
        for k in 0..24 {
            let at = payload_at + k * payload_len / 24;
            let mut t = bytes.clone();
            t[at] ^= 0x01 << (k % 8);
            assert!(
                verify(case.verifier, &t, None, &Policy::default()).is_err(),
                "{name}: flip at {at}"
            );
        }
    }
}

#[test]
fn membership_needs_room_for_its_rows() {
    let case = &cases()[0];
    let req = ProveRequest {
        air: AirId::Membership,
        log_n: 3,
        extension_degree: case.ext,
        params: case.prover.default_params(),
        hash: picostark_core::HashId::Blake3_256,
    };
    let err = case.prover.prove(&req, &mut |_| {}).unwrap_err();
    assert!(err.0.contains("n >= 16"), "{}", err.0);
}

/// Decoded bytes charged per payload byte of a valid proof of config `SC`.
fn charged_per_byte<SC>(bytes: &[u8]) -> f64
where
    SC: StarkGenericConfig,
    Proof<SC>: serde::de::DeserializeOwned + serde::Serialize,
{
    let file = picostark_core::ProofFile::parse(bytes).unwrap();
    let (_, charged): (Proof<SC>, usize) = decode_charged(file.payload).unwrap();
    charged as f64 / file.payload.len() as f64
}

/// Valid proofs of every size stay at least 10% under the decode budget. (An integration test:
/// in the crate's unit tests it compiled the provers a second time.)
#[test]
fn valid_proofs_decode_well_within_budget() {
    // The defaults, the p3-m31 defaults before issue 25 (upstream's CirclePcs) and the
    // foundation's first parameters (the stock baseline's).
    let param_sets = [
        (DEFAULT_PARAMS_TWO_ADIC, DEFAULT_PARAMS_CIRCLE),
        (DEFAULT_PARAMS_TWO_ADIC, UPSTREAM_CIRCLE_PARAMS),
        (FOUNDATION_PARAMS, FOUNDATION_PARAMS),
    ];
    for air in [AirId::Fibonacci, AirId::CubicChain16] {
        for log_n in [3u8, 4, 10] {
            for (two_adic, circle) in param_sets {
                let req = |ext, params| ProveRequest {
                    air,
                    log_n,
                    extension_degree: ext,
                    params,
                    hash: picostark_core::HashId::Blake3_256,
                };
                let bb = P3BabyBearProver
                    .prove(&req(4, two_adic), &mut |_| {})
                    .unwrap();
                let gl = P3GoldilocksProver
                    .prove(&req(2, two_adic), &mut |_| {})
                    .unwrap();
                let m31 = P3M31Prover.prove(&req(4, circle), &mut |_| {}).unwrap();
                let ratios = [
                    charged_per_byte::<BabyBearConfig>(&bb),
                    charged_per_byte::<GoldilocksConfig>(&gl),
                    if picostark_core::CirclePcsKind::of(&circle)
                        == picostark_core::CirclePcsKind::Wide
                    {
                        charged_per_byte::<config::M31WideConfig<p3_mersenne_31::QM31>>(&m31)
                    } else {
                        charged_per_byte::<M31Config<p3_mersenne_31::QM31>>(&m31)
                    },
                ];
                for (r, bytes) in ratios.iter().zip([&bb, &gl, &m31]) {
                    let budget =
                        BUDGET_PER_PAYLOAD_BYTE as f64 + BUDGET_FIXED as f64 / bytes.len() as f64;
                    assert!(*r < 0.9 * budget, "{air} n=2^{log_n}: {ratios:?}");
                }
            }
        }
    }
}

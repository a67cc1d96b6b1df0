//! Our provers (upstream winterfell prover) through our verifier: Goldilocks x 2, BabyBear x 5
//! and BabyBear x 4 proofs are accepted, land on the reference proofs' public results, and are
//! rejected when tampered with or claimed for another result.

use crate::common;

use picostark_core::prove::{ProveRequest, Prover};
use picostark_core::{
    verify, AirId, Policy, ProofFile, ProofParams, Regime, Statement, VerifyError,
};
use picostark_winterfell::verifier::EXTENSION_TAG_NONE;
use picostark_winterfell::{
    WfBabyBearProver, WfBabyBearVerifier, WfGoldilocksProver, WfGoldilocksVerifier,
};

fn request<P: Prover + ?Sized>(p: &P, log_n: u8, params: ProofParams) -> ProveRequest {
    ProveRequest {
        air: AirId::Fibonacci,
        log_n,
        extension_degree: p.extension_degrees()[0],
        params,
        hash: picostark_core::HashId::Blake3_256,
    }
}

fn prove<P: Prover>(p: &P, log_n: u8, params: ProofParams) -> Vec<u8> {
    let mut stages = Vec::new();
    let file = p
        .prove(&request(p, log_n, params), &mut |s| {
            stages.push(s.to_string())
        })
        .unwrap();
    assert_eq!(stages, ["trace", "prove", "encode"]);
    file
}

fn flips_rejected<V: picostark_core::Verifier>(file: &[u8], v: &V, policy: &Policy) {
    assert!(verify(v, file, None, policy).is_ok());
    for i in (0..file.len()).step_by(101) {
        let mut bad = file.to_vec();
        bad[i] ^= 0x10;
        assert!(
            verify(v, &bad, None, policy).is_err(),
            "flip at {i} accepted"
        );
    }
}

#[test]
fn goldilocks_quadratic_round_trip() {
    let p = WfGoldilocksProver;
    // The interop parameters: the same statement and options as the zkmcu reference proof.
    let file = prove(&p, 10, common::REFERENCE_PARAMS);
    let parsed = ProofFile::parse(&file).unwrap();
    assert_eq!(parsed.header.extension_degree, 2);
    assert_eq!(parsed.header.params, common::REFERENCE_PARAMS);
    // The same statement as the reference proof.
    let (_, reference_public) = common::goldilocks_reference();
    assert_eq!(parsed.public_inputs.get(0), Some(reference_public));
    // Quadratic tag in the winterfell options.
    assert_eq!(file[common::PAYLOAD_OFFSET + 18], 2);
    println!("wf-goldilocks Fib-1024 proof file: {} bytes", file.len());

    let v = WfGoldilocksVerifier::default();
    // The reference parameters: 95 bits under winterfell's rule, 94 under Plonky3's (the
    // default, strictest policy refuses them).
    let policy = Policy {
        regime: Regime::Winterfell,
        ..Policy::default()
    };
    assert_eq!(
        verify(&v, &file, None, &Policy::default()).unwrap_err(),
        VerifyError::InsufficientSecurity {
            bits: 94,
            required: 95
        }
    );
    let stmt = Statement {
        air: AirId::Fibonacci,
        log_n: 10,
        public_inputs: &[reference_public],
    };
    assert_eq!(
        verify(&v, &file, Some(&stmt), &policy)
            .unwrap()
            .security_bits,
        95
    );
    let wrong = Statement {
        public_inputs: &[reference_public ^ 1],
        ..stmt
    };
    assert_eq!(
        verify(&v, &file, Some(&wrong), &policy).unwrap_err(),
        VerifyError::StatementMismatch("public inputs")
    );
    flips_rejected(&file, &v, &policy);
}

#[test]
fn babybear_quartic_round_trip() {
    let p = WfBabyBearProver;
    let file = prove(&p, 10, p.default_params());
    let parsed = ProofFile::parse(&file).unwrap();
    assert_eq!(parsed.header.extension_degree, 4);
    assert_eq!(parsed.public_inputs.get(0), Some(1_369_371_767));
    // Upstream's prover writes "none" for the extension it does not know about.
    assert_eq!(file[common::PAYLOAD_OFFSET + 14], EXTENSION_TAG_NONE);
    println!("wf-babybear Fib-1024 proof file: {} bytes", file.len());

    let v = WfBabyBearVerifier::default();
    let stmt = Statement {
        air: AirId::Fibonacci,
        log_n: 10,
        public_inputs: &[1_369_371_767],
    };
    assert_eq!(
        verify(&v, &file, Some(&stmt), &Policy::default())
            .unwrap()
            .security_bits,
        // The strictest conjecture: Plonky3's 102 (ethSTARK and winterfell: 103).
        102
    );
    // Claiming the fork's tag instead changes the transcript: rejected.
    let mut retagged = file.clone();
    retagged[common::PAYLOAD_OFFSET + 14] = 4;
    assert!(matches!(
        verify(&v, &retagged, None, &Policy::default()),
        Err(VerifyError::CheckFailed(_))
    ));
    flips_rejected(&file, &v, &Policy::default());
}

/// The proven-security track (issue 15): BabyBear^5 at the `proven100` preset's parameters
/// (blowup 64, 27 queries, 24 PoW bits) reaches 100 proven bits by list decoding, is
/// accepted, and a flipped byte, a wrong public input, and the quartic's degree in the header
/// are rejected.
#[test]
fn babybear_quintic_proven_round_trip() {
    let p = WfBabyBearProver;
    let params = ProofParams {
        log_blowup: 6,
        num_queries: 27,
        pow_bits: 24,
        log_fold_arity: 3,
        log_final_poly_len: 5,
    };
    let req = ProveRequest {
        extension_degree: 5,
        ..request(&p, 10, params)
    };
    let file = p.prove(&req, &mut |_| {}).unwrap();
    let parsed = ProofFile::parse(&file).unwrap();
    assert_eq!(parsed.header.extension_degree, 5);
    assert_eq!(file[common::PAYLOAD_OFFSET + 14], EXTENSION_TAG_NONE);
    let policy = Policy {
        regime: Regime::ProvenList,
        min_security_bits: 100,
        ..Policy::default()
    };
    let v = WfBabyBearVerifier::default();
    let stmt = Statement {
        air: AirId::Fibonacci,
        log_n: 10,
        public_inputs: &[1_369_371_767],
    };
    assert_eq!(
        verify(&v, &file, Some(&stmt), &policy)
            .unwrap()
            .security_bits,
        100
    );
    let wrong = Statement {
        public_inputs: &[1_369_371_767 ^ 1],
        ..stmt
    };
    assert_eq!(
        verify(&v, &file, Some(&wrong), &policy).unwrap_err(),
        VerifyError::StatementMismatch("public inputs")
    );
    // The same payload claimed as a quartic proof: its elements do not parse as such.
    let mut as_quartic = file.clone();
    as_quartic[8] = 4; // the envelope's extension-degree byte (magic, version, backend, field)
    assert!(verify(&v, &as_quartic, None, &Policy::default()).is_err());
    flips_rejected(&file, &v, &policy);
}

#[test]
fn other_sizes_and_parameters() {
    // Small traces with other folding factors and remainder sizes, verified with a lowered
    // floor (these parameters are below 95 bits on purpose).
    let lax = Policy {
        min_security_bits: 8,
        ..Policy::default()
    };
    let cases = [
        (
            3u8,
            ProofParams {
                log_blowup: 1,
                num_queries: 12,
                pow_bits: 0,
                log_fold_arity: 1,
                log_final_poly_len: 0,
            },
        ),
        (
            6,
            ProofParams {
                log_blowup: 2,
                num_queries: 20,
                pow_bits: 4,
                log_fold_arity: 2,
                log_final_poly_len: 1,
            },
        ),
        (
            8,
            ProofParams {
                log_blowup: 3,
                num_queries: 16,
                pow_bits: 0,
                log_fold_arity: 4,
                log_final_poly_len: 2,
            },
        ),
    ];
    for (log_n, params) in cases {
        let gl = prove(&WfGoldilocksProver, log_n, params);
        let gv = WfGoldilocksVerifier::with_min_security(8);
        verify(&gv, &gl, None, &lax)
            .unwrap_or_else(|e| panic!("goldilocks n=2^{log_n} {params:?}: {e}"));
        let bb = prove(&WfBabyBearProver, log_n, params);
        let bv = WfBabyBearVerifier::with_min_security(8);
        verify(&bv, &bb, None, &lax)
            .unwrap_or_else(|e| panic!("babybear n=2^{log_n} {params:?}: {e}"));
        // And the default floor refuses them.
        assert!(matches!(
            verify(&WfBabyBearVerifier::default(), &bb, None, &lax),
            Err(VerifyError::InsufficientSecurity { .. })
        ));
    }
}

#[test]
fn unsupported_requests_are_errors() {
    let p = WfBabyBearProver;
    let mut r = request(&p, 10, p.default_params());
    r.extension_degree = 2;
    assert!(p.prove(&r, &mut |_| {}).is_err());
    let mut r = request(&WfGoldilocksProver, 10, p.default_params());
    r.params.log_final_poly_len = 9;
    assert!(WfGoldilocksProver.prove(&r, &mut |_| {}).is_err());
    r.params.log_final_poly_len = 5;
    r.params.pow_bits = 33;
    assert!(WfGoldilocksProver.prove(&r, &mut |_| {}).is_err());
}

/// The wide AIR (16 columns, degree 3, 8 public inputs) on both backends: accepted as
/// proved, rejected when the claimed output or the input is changed, and a Fibonacci proof
/// relabelled as `chain16` is refused before any cryptography.
#[test]
fn wide_air_round_trip_and_wrong_claimed_output_rejected() {
    use picostark_core::proof_file::FIXED_HEADER_LEN;
    let policy = Policy::default();
    let provers: [(&dyn Prover, &dyn picostark_core::Verifier); 2] = [
        (&WfGoldilocksProver, &WfGoldilocksVerifier::default()),
        (&WfBabyBearProver, &WfBabyBearVerifier::default()),
    ];
    for (p, v) in provers {
        let mut req = request(p, 6, p.default_params());
        req.air = AirId::CubicChain16;
        let file = p.prove(&req, &mut |_| {}).unwrap();
        let parsed = ProofFile::parse(&file).unwrap();
        assert_eq!(parsed.header.air, AirId::CubicChain16);
        assert_eq!(parsed.public_inputs.len(), 8);
        assert_eq!(verify(v, &file, None, &policy).unwrap().security_bits, 102);
        // Public inputs 4..8 are the claimed output: change the last word.
        let mut wrong_output = file.clone();
        wrong_output[FIXED_HEADER_LEN + 7 * 8] ^= 1;
        assert!(
            matches!(
                verify(v, &wrong_output, None, &policy),
                Err(VerifyError::CheckFailed(_))
            ),
            "{}: wrong claimed output accepted",
            v.backend()
        );
        let mut wrong_input = file.clone();
        wrong_input[FIXED_HEADER_LEN] ^= 1;
        assert!(
            matches!(
                verify(v, &wrong_input, None, &policy),
                Err(VerifyError::CheckFailed(_))
            ),
            "{}: wrong input accepted",
            v.backend()
        );
        // A Fibonacci payload under a chain16 header: the payload's shape gives it away.
        let fib = prove_dyn(p, 6);
        let fib_file = ProofFile::parse(&fib).unwrap();
        let mut header = fib_file.header;
        header.air = AirId::CubicChain16;
        let relabelled = picostark_core::proof_file::encode(&header, &[0; 8], fib_file.payload);
        assert!(matches!(
            verify(v, &relabelled, None, &policy),
            Err(VerifyError::StatementMismatch(_))
        ));
    }
}

fn prove_dyn(p: &dyn Prover, log_n: u8) -> Vec<u8> {
    p.prove(&request(p, log_n, p.default_params()), &mut |_| {})
        .unwrap()
}

/// The membership AIR (Poseidon2 per row, depth 10, n = 16) on both backends: accepted by our
/// verifier (and by upstream `winterfell::verify` for Goldilocks, the one field upstream
/// verifies), rejected with a changed root word or a flipped payload byte; n = 8 is refused.
#[test]
fn membership_round_trip_wrong_root_and_tampered_rejected() {
    use picostark_core::proof_file::FIXED_HEADER_LEN;
    use picostark_winterfell::air::{PublicInputs, WfAir};
    use picostark_winterfell::membership::MembershipOf;
    use winterfell::crypto::hashers::Blake3_256;
    use winterfell::crypto::{DefaultRandomCoin, MerkleTree};
    use winterfell::math::fields::f64::BaseElement as Goldilocks;
    use winterfell::{AcceptableOptions, Proof};

    let policy = Policy::default();
    let provers: [(&dyn Prover, &dyn picostark_core::Verifier); 2] = [
        (&WfGoldilocksProver, &WfGoldilocksVerifier::default()),
        (&WfBabyBearProver, &WfBabyBearVerifier::default()),
    ];
    for (p, v) in provers {
        let name = v.backend();
        let mut req = request(p, 4, p.default_params());
        req.air = AirId::Membership;
        let file = p.prove(&req, &mut |_| {}).unwrap();
        let parsed = ProofFile::parse(&file).unwrap();
        assert_eq!(parsed.header.air, AirId::Membership);
        let digest = parsed.public_inputs.len() / 4;
        assert!(verify(v, &file, None, &policy).is_ok(), "{name}");
        for word in [0, digest - 1] {
            let mut bad = file.clone();
            bad[FIXED_HEADER_LEN + 8 * word] ^= 1;
            assert!(
                matches!(
                    verify(v, &bad, None, &policy),
                    Err(VerifyError::CheckFailed(_))
                ),
                "{name}: root word {word} changed and accepted"
            );
        }
        let payload_at = file.len() - parsed.payload.len();
        for k in 0..24 {
            let mut bad = file.clone();
            bad[payload_at + k * parsed.payload.len() / 24] ^= 0x01 << (k % 8);
            assert!(verify(v, &bad, None, &policy).is_err(), "{name}: flip {k}");
        }
        if name == picostark_core::BackendId::WfGoldilocks {
            type H = Blake3_256<Goldilocks>;
            let proof = Proof::from_bytes(parsed.payload).unwrap();
            let options = proof.options().clone();
            let public: Vec<Goldilocks> =
                parsed.public_inputs.iter().map(Goldilocks::new).collect();
            winterfell::verify::<
                WfAir<MembershipOf<Goldilocks>, Goldilocks>,
                H,
                DefaultRandomCoin<H>,
                MerkleTree<H>,
            >(
                proof,
                PublicInputs(public),
                &AcceptableOptions::OptionSet(vec![options]),
            )
            .unwrap();
        }
        let mut small = request(p, 3, p.default_params());
        small.air = AirId::Membership;
        assert!(p.prove(&small, &mut |_| {}).is_err(), "{name}: n = 8");
    }
}

/// Degree-7 constraints need a blowup of 8 in winterfell (`AirContext::new` asserts it): a
/// request below it is an error from the prover, and a membership proof whose header and
/// proof context both claim blowup 4 is refused by the verifier, neither a panic.
#[test]
fn membership_below_its_blowup_is_an_error_not_a_panic() {
    let p = WfGoldilocksProver;
    let mut req = request(&p, 4, p.default_params());
    req.air = AirId::Membership;
    let mut low = req;
    low.params.log_blowup = 2;
    let err = p.prove(&low, &mut |_| {}).unwrap_err();
    assert!(err.0.contains("blowup factor of at least 8"), "{}", err.0);

    let file = p.prove(&req, &mut |_| {}).unwrap();
    let parsed = ProofFile::parse(&file).unwrap();
    let mut payload = parsed.payload.to_vec();
    // trace info (4), metadata length and metadata, modulus length and modulus, then the
    // options: queries, blowup.
    let meta = usize::from(u16::from_le_bytes([payload[4], payload[5]]));
    let modulus = usize::from(payload[6 + meta]);
    let blowup_at = 6 + meta + 1 + modulus + 1;
    assert_eq!(payload[blowup_at], 1 << req.params.log_blowup);
    payload[blowup_at] = 4;
    let mut header = parsed.header;
    header.params.log_blowup = 2;
    let public: Vec<u64> = parsed.public_inputs.iter().collect();
    let bad = picostark_core::proof_file::encode(&header, &public, &payload);
    let lax = Policy {
        min_security_bits: 1,
        ..Policy::default()
    };
    let v = WfGoldilocksVerifier::default();
    assert_eq!(
        verify(&v, &bad, None, &lax).unwrap_err(),
        VerifyError::Unsupported("blowup below the AIR's constraint degree")
    );
}

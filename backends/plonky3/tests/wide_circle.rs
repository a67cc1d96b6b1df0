//! `p3-m31` proofs over our `WideCirclePcs` (issue 25: line folds by 2..=16, a final
//! polynomial): `p3_uni_stark::prove` and `verify` round trips over folding arities, final
//! lengths, blowups, query counts and trace lengths for Fibonacci and chain16, beside
//! rejections of tampered payload bytes, a wrong public input and a header whose folding
//! names the other PCS.

use picostark_core::prove::{ProveRequest, Prover};
use picostark_core::{verify, AirId, HashId, Policy, ProofFile, ProofParams, Verifier};
use picostark_plonky3::{P3M31Prover, P3M31Verifier};

fn params(k: u8, f: u8, log_blowup: u8, num_queries: u16, pow_bits: u8) -> ProofParams {
    ProofParams {
        log_blowup,
        num_queries,
        pow_bits,
        log_fold_arity: k,
        log_final_poly_len: f,
    }
}

fn prove(air: AirId, log_n: u8, ext: u8, p: ProofParams) -> Vec<u8> {
    let req = ProveRequest {
        air,
        log_n,
        extension_degree: ext,
        params: p,
        hash: HashId::Blake3_256,
    };
    P3M31Prover
        .prove(&req, &mut |_| {})
        .unwrap_or_else(|e| panic!("{air} n=2^{log_n} {p:?}: {e}"))
}

fn check(bytes: &[u8]) -> bool {
    let file = ProofFile::parse(bytes).expect("header parses");
    P3M31Verifier.verify_payload(&file).is_ok()
}

fn payload_at(bytes: &[u8]) -> usize {
    bytes.len() - ProofFile::parse(bytes).unwrap().payload.len()
}

#[test]
fn round_trips_over_arity_final_length_blowup_queries_and_n() {
    // (k, f, log_blowup, queries, pow bits, log_n)
    let shapes = [
        (1, 1, 1, 8, 0, 3),
        (2, 0, 1, 8, 2, 3),
        (2, 2, 2, 6, 0, 3),
        (3, 1, 1, 5, 3, 4),
        (3, 3, 2, 7, 1, 5),
        (4, 0, 1, 9, 0, 4),
        (4, 2, 3, 4, 2, 6),
        (4, 3, 1, 12, 0, 8),
        (2, 5, 2, 3, 0, 6),
        (3, 2, 4, 6, 4, 7),
    ];
    for air in [AirId::Fibonacci, AirId::CubicChain16] {
        for &(k, f, b, q, pow, log_n) in &shapes {
            let p = params(k, f, b, q, pow);
            let bytes = prove(air, log_n, 4, p);
            assert!(check(&bytes), "{air} n=2^{log_n} {p:?} rejected");
        }
    }
}

#[test]
fn cubic_and_sextic_challenges_round_trip() {
    for ext in [3, 6] {
        let bytes = prove(AirId::Fibonacci, 5, ext, params(3, 2, 2, 6, 0));
        assert!(check(&bytes), "ext {ext}");
    }
}

#[test]
fn tampered_payload_bytes_are_rejected() {
    let bytes = prove(AirId::Fibonacci, 4, 4, params(2, 1, 1, 4, 0));
    let start = payload_at(&bytes);
    let mut rejected = 0;
    for at in (start..bytes.len()).step_by(7) {
        let mut bad = bytes.clone();
        bad[at] ^= 0x01;
        assert!(
            !check(&bad),
            "flipped byte {at} of {} accepted",
            bytes.len()
        );
        rejected += 1;
    }
    assert!(rejected > 50);
}

#[test]
fn wrong_public_input_and_other_pcs_header_are_rejected() {
    let p = params(3, 2, 2, 8, 0);
    let bytes = prove(AirId::Fibonacci, 6, 4, p);
    assert!(check(&bytes));
    let file = ProofFile::parse(&bytes).unwrap();
    let public: Vec<u64> = (0..file.public_inputs.len())
        .map(|i| file.public_inputs.get(i).unwrap())
        .collect();
    // A wrong public input (the statement absorbed in the transcript differs).
    let mut wrong = public.clone();
    wrong[0] = (wrong[0] + 1) % ((1 << 31) - 1);
    let bad = picostark_core::proof_file::encode(&file.header, &wrong, file.payload);
    assert!(!check(&bad));
    // The same payload under a header that names upstream's CirclePcs (1, 0) or another
    // wide shape: rejected, never a panic.
    for (k, f) in [(1u8, 0u8), (2, 2), (3, 1), (4, 2), (3, 3)] {
        let mut header = file.header;
        header.params.log_fold_arity = k;
        header.params.log_final_poly_len = f;
        let moved = picostark_core::proof_file::encode(&header, &public, file.payload);
        assert_eq!(check(&moved), (k, f) == (3, 2), "k {k} f {f}");
    }
}

#[test]
fn core_verify_applies_the_policy() {
    let bytes = prove(AirId::Fibonacci, 5, 4, params(3, 2, 2, 8, 0));
    let low = Policy {
        min_security_bits: 10,
        ..Policy::default()
    };
    assert!(verify(&P3M31Verifier, &bytes, None, &low).is_ok());
    assert!(verify(&P3M31Verifier, &bytes, None, &Policy::default()).is_err());
}

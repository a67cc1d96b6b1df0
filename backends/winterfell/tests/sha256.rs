//! SHA-256 proofs of both winterfell backends (Fib-1024, default parameters): made by the
//! upstream prover with our hasher, accepted by our verifier and rejected when tampered or
//! given a wrong public input; stock `winterfell::verify` with the same hasher gives the same
//! verdicts on the Goldilocks proof.

use picostark_air::fibonacci::Fibonacci;
use picostark_core::prove::{ProveRequest, Prover};
use picostark_core::{verify, AirId, HashId, Policy, ProofFile, Verifier};
use picostark_winterfell::air::{PublicInputs, WfAir};
use picostark_winterfell::hash::Sha256;
use picostark_winterfell::prover::proof_options;
use picostark_winterfell::{
    WfBabyBearProver, WfBabyBearVerifier, WfGoldilocksProver, WfGoldilocksVerifier,
};
use winterfell::crypto::{DefaultRandomCoin, MerkleTree};
use winterfell::math::fields::f64::BaseElement as Goldilocks;
use winterfell::{AcceptableOptions, FieldExtension, Proof};

fn prove(p: &dyn Prover, hash: HashId) -> Vec<u8> {
    let req = ProveRequest {
        air: AirId::Fibonacci,
        log_n: 10,
        extension_degree: p.extension_degrees()[0],
        params: p.default_params(),
        hash,
    };
    p.prove(&req, &mut |_| {}).unwrap()
}

/// The same proof file with one public input changed (header and payload kept).
fn with_public(file: &[u8], public: u64) -> Vec<u8> {
    let f = ProofFile::parse(file).unwrap();
    picostark_core::proof_file::encode(&f.header, &[public], f.payload)
}

fn check_backend(prover: &dyn Prover, verifier: &dyn Verifier) {
    let file = prove(prover, HashId::Sha256);
    let parsed = ProofFile::parse(&file).unwrap();
    assert_eq!(parsed.header.hash, HashId::Sha256);
    let public = parsed.public_inputs.iter().next().unwrap();
    let payload_at = file.len() - parsed.payload.len();
    let policy = Policy::default();
    verify(verifier, &file, None, &policy).expect("valid SHA-256 proof");

    let mut tampered = file.clone();
    tampered[payload_at + parsed.payload.len() / 2] ^= 1;
    assert!(verify(verifier, &tampered, None, &policy).is_err());
    assert!(verify(verifier, &with_public(&file, public + 1), None, &policy).is_err());

    // The same payload under the other hash's id is rejected: the hash is bound.
    let mut header = parsed.header;
    header.hash = HashId::Blake3_256;
    let relabelled = picostark_core::proof_file::encode(&header, &[public], parsed.payload);
    assert!(verify(verifier, &relabelled, None, &policy).is_err());
}

#[test]
fn wf_goldilocks_sha256_proves_and_verifies() {
    check_backend(&WfGoldilocksProver, &WfGoldilocksVerifier::default());
}

#[test]
fn wf_babybear_sha256_proves_and_verifies() {
    check_backend(&WfBabyBearProver, &WfBabyBearVerifier::default());
}

type H = Sha256<Goldilocks>;

fn upstream_accepts(payload: &[u8], public: u64) -> bool {
    let params = WfGoldilocksProver.default_params();
    let options = proof_options(&params, FieldExtension::Quadratic).unwrap();
    let Ok(proof) = Proof::from_bytes(payload) else {
        return false;
    };
    winterfell::verify::<WfAir<Fibonacci, Goldilocks>, H, DefaultRandomCoin<H>, MerkleTree<H>>(
        proof,
        PublicInputs(vec![Goldilocks::new(public)]),
        &AcceptableOptions::OptionSet(vec![options]),
    )
    .is_ok()
}

#[test]
fn stock_winterfell_verify_agrees_on_sha256_proofs() {
    let file = prove(&WfGoldilocksProver, HashId::Sha256);
    let parsed = ProofFile::parse(&file).unwrap();
    let public = parsed.public_inputs.iter().next().unwrap();
    let payload_at = file.len() - parsed.payload.len();
    let ours = |f: &[u8]| {
        verify(
            &WfGoldilocksVerifier::default(),
            f,
            None,
            &Policy::default(),
        )
    };

    assert!(upstream_accepts(parsed.payload, public));
    assert!(ours(&file).is_ok());
    assert!(!upstream_accepts(parsed.payload, public + 1));
    assert!(ours(&with_public(&file, public + 1)).is_err());
    // A byte in the last quarter (query openings) and one near the commitments.
    for at in [parsed.payload.len() * 3 / 4, parsed.payload.len() / 8] {
        let mut tampered = file.clone();
        tampered[payload_at + at] ^= 0x10;
        let t = ProofFile::parse(&tampered).unwrap();
        assert!(!upstream_accepts(t.payload, public), "upstream at {at}");
        assert!(ours(&tampered).is_err(), "ours at {at}");
    }
}

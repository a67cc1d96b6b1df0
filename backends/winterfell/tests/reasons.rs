//! One test per rejection reason of our winterfell verifier (issue 46): a real proof
//! tampered at exactly one check ([`picostark_winterfell::tamper`], the edit `prover-host
//! tamper` makes), asserting exactly that check's [`Check`], next to the honest proof being
//! accepted.

use picostark_core::prove::{ProveRequest, Prover};
use picostark_core::tamper::TamperClass;
use picostark_core::{verify, AirId, Check, Policy, Regime, Tree, VerifyError};
use picostark_winterfell::tamper::tamper;
use picostark_winterfell::{
    WfBabyBearProver, WfBabyBearVerifier, WfGoldilocksProver, WfGoldilocksVerifier,
};

fn prove<P: Prover>(p: &P) -> Vec<u8> {
    prove_n(p, 8)
}

/// A Fibonacci proof of `2^log_n` rows with the prover's default parameters.
fn prove_n<P: Prover>(p: &P, log_n: u8) -> Vec<u8> {
    let req = ProveRequest {
        air: AirId::Fibonacci,
        log_n,
        extension_degree: p.extension_degrees()[0],
        params: p.default_params(),
        hash: picostark_core::HashId::Blake3_256,
    };
    p.prove(&req, &mut |_| {}).expect("proving succeeds")
}

/// The policy the small test proofs meet (their security is not what is tested).
fn lenient() -> Policy {
    Policy {
        regime: Regime::Winterfell,
        min_security_bits: 0,
        ..Policy::default()
    }
}

fn reason_gold(file: &[u8]) -> Result<(), VerifyError> {
    verify(&WfGoldilocksVerifier::default(), file, None, &lenient()).map(|_| ())
}

fn reason_baby(file: &[u8]) -> Result<(), VerifyError> {
    verify(&WfBabyBearVerifier::default(), file, None, &lenient()).map(|_| ())
}

/// Every class on one backend: the honest proof accepted, each tampered copy rejected with
/// the check the tampering names, and that check is the one the test expects.
fn every_class(file: &[u8], reason: fn(&[u8]) -> Result<(), VerifyError>) {
    assert_eq!(reason(file), Ok(()));
    let expected = [
        (TamperClass::PublicInput, Check::OodConstraints),
        (TamperClass::OodValue, Check::OodConstraints),
        (TamperClass::TraceOpening, Check::MerklePath(Tree::Trace)),
        (TamperClass::MerkleSibling, Check::MerklePath(Tree::Trace)),
        (
            TamperClass::FriFoldValue,
            Check::MerklePath(Tree::FriLayer(0)),
        ),
        (TamperClass::FinalPolynomial, Check::RemainderCommitment),
        (TamperClass::PowNonce, Check::ProofOfWork),
    ];
    for (class, check) in expected {
        let t = tamper(file, class).unwrap();
        assert_eq!(t.expected, check, "{class}");
        assert_ne!(t.file, file, "{class} changed nothing");
        assert_eq!(
            reason(&t.file),
            Err(VerifyError::CheckFailed(check)),
            "{class}"
        );
    }
}

#[test]
fn goldilocks_every_class_names_its_check() {
    every_class(&prove(&WfGoldilocksProver), reason_gold);
}

#[test]
fn babybear_every_class_names_its_check() {
    every_class(&prove(&WfBabyBearProver), reason_baby);
}

#[test]
fn merkle_quotient_a_composition_sibling() {
    let file = prove(&WfGoldilocksProver);
    let f = picostark_core::ProofFile::parse(&file).unwrap();
    let raw = picostark_winterfell::verifier::parse::RawProof::parse(f.payload).unwrap();
    let at = raw.constraint_paths.as_ptr() as usize - file.as_ptr() as usize
        + raw.constraint_paths.len()
        - 1;
    let mut bad = file.clone();
    bad[at] ^= 0x01;
    assert_eq!(
        reason_gold(&bad),
        Err(VerifyError::CheckFailed(Check::MerklePath(Tree::Quotient)))
    );
}

#[test]
fn merkle_fri_layer_names_a_later_layer() {
    let file = prove_n(&WfGoldilocksProver, 12);
    let f = picostark_core::ProofFile::parse(&file).unwrap();
    let raw = picostark_winterfell::verifier::parse::RawProof::parse(f.payload).unwrap();
    assert!(raw.num_fri_layers >= 2, "the proof folds at least twice");
    let paths = raw.fri_layers[1].paths;
    let at = paths.as_ptr() as usize - file.as_ptr() as usize + paths.len() - 1;
    let mut bad = file.clone();
    bad[at] ^= 0x01;
    assert_eq!(
        reason_gold(&bad),
        Err(VerifyError::CheckFailed(Check::MerklePath(Tree::FriLayer(
            1
        ))))
    );
}

/// BLAKE3 compressions of one verification on this thread (the verifier hashes with
/// `picostark_blake3`, whose `count` feature counts them), and whether it accepted.
fn compressions(file: &[u8], reason: fn(&[u8]) -> Result<(), VerifyError>) -> (bool, u64) {
    picostark_blake3::count::reset();
    let accepted = reason(file).is_ok();
    let n = picostark_blake3::count::compressions();
    picostark_blake3::count::stop();
    (accepted, n)
}

/// Run to completion, counted on the host (issue 46): wf-goldilocks hashes as much for every
/// tampered copy as for the honest proof, although a tampered transcript draws other query
/// indices (before the walks were padded, each opening's count followed its indices).
#[test]
fn goldilocks_every_class_hashes_as_much_as_the_honest_proof() {
    let file = prove(&WfGoldilocksProver);
    let (accepted, want) = compressions(&file, reason_gold);
    assert!(accepted && want > 0);
    for class in TamperClass::ALL {
        let t = tamper(&file, class).unwrap();
        assert_eq!(compressions(&t.file, reason_gold), (false, want), "{class}");
    }
}

/// wf-babybear: the same where the transcript is unchanged (a damaged opening). A class the
/// transcript observes draws other challenges, and our quartic field's draws reject most
/// hash outputs (each of four words must be below p), so their hashing follows the
/// transcript: the protocol's, shared with the zkmcu fork's proofs (tests/reference.rs)
/// (see results/constant-time/README.md).
#[test]
fn babybear_a_damaged_opening_hashes_as_much_as_the_honest_proof() {
    let file = prove(&WfBabyBearProver);
    let (accepted, want) = compressions(&file, reason_baby);
    assert!(accepted && want > 0);
    for class in [
        TamperClass::TraceOpening,
        TamperClass::MerkleSibling,
        TamperClass::FriFoldValue,
    ] {
        let t = tamper(&file, class).unwrap();
        assert_eq!(compressions(&t.file, reason_baby), (false, want), "{class}");
    }
}

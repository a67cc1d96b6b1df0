//! The larger challenge fields of the proven-security track (issue 15 part 3): BabyBear^5 and
//! ^8, Goldilocks^3 and ^5, each proved and verified through the backend's `Verifier`, with
//! rejected cases beside the accepted one: a flipped payload byte, the header's extension
//! degree changed to another one the backend supports (the transcript absorbed it) and to one
//! it does not (refused before any work).

use picostark_core::prove::{ProveRequest, Prover};
use picostark_core::{verify, AirId, HashId, Policy, ProofParams, Regime, Verifier, VerifyError};
use picostark_plonky3::*;

/// Offset of the extension degree in the proof file (magic, version, backend, field).
const EXT_AT: usize = 8;

type Case = (&'static dyn Prover, &'static dyn Verifier, u8);

const CASES: [Case; 4] = [
    (&P3BabyBearProver, &P3BabyBearVerifier, 5),
    (&P3BabyBearProver, &P3BabyBearVerifier, 8),
    (&P3GoldilocksProver, &P3GoldilocksVerifier, 3),
    (&P3GoldilocksProver, &P3GoldilocksVerifier, 5),
];

fn prove(prover: &dyn Prover, ext: u8, log_n: u8, params: ProofParams, hash: HashId) -> Vec<u8> {
    let req = ProveRequest {
        air: AirId::Fibonacci,
        log_n,
        extension_degree: ext,
        params,
        hash,
    };
    prover.prove(&req, &mut |_| {}).expect("proving succeeds")
}

#[test]
fn larger_extensions_accept_valid_and_reject_tampered_proofs() {
    let policy = Policy::default();
    for (prover, verifier, ext) in CASES {
        for hash in [HashId::Blake3_256, HashId::Sha256] {
            let name = format!("{} x{ext} {hash}", verifier.backend());
            let bytes = prove(prover, ext, 8, prover.default_params(), hash);
            assert!(verify(verifier, &bytes, None, &policy).is_ok(), "{name}");

            let mut t = bytes.clone();
            let at = bytes.len() - bytes.len() / 3;
            t[at] ^= 0x10;
            assert!(
                verify(verifier, &t, None, &policy).is_err(),
                "{name}: flip at {at}"
            );

            for &other in prover.extension_degrees() {
                if other == ext {
                    continue;
                }
                let mut t = bytes.clone();
                t[EXT_AT] = other;
                assert!(
                    verify(verifier, &t, None, &policy).is_err(),
                    "{name}: header says x{other}"
                );
            }
            let mut t = bytes.clone();
            t[EXT_AT] = 6;
            assert_eq!(
                verify(verifier, &t, None, &policy),
                Err(VerifyError::Unsupported(
                    "extension degree for this backend"
                )),
                "{name}: header says x6"
            );
        }
    }
}

/// The proven-100 presets' fields at their preset parameters: 100 bits by list decoding, and
/// the same parameters over the default field fall short of it.
#[test]
fn list_decoding_reaches_100_bits_only_with_the_larger_field() {
    let policy = Policy {
        regime: Regime::ProvenList,
        min_security_bits: 100,
        ..Policy::default()
    };
    let two_adic = |log_blowup, num_queries| ProofParams {
        log_blowup,
        num_queries,
        pow_bits: 24,
        log_fold_arity: 4,
        log_final_poly_len: 2,
    };
    for (prover, verifier, ext, small, params) in [
        (
            &P3BabyBearProver as &dyn Prover,
            &P3BabyBearVerifier as &dyn Verifier,
            5,
            4,
            two_adic(5, 33),
        ),
        (
            &P3GoldilocksProver,
            &P3GoldilocksVerifier,
            3,
            2,
            two_adic(8, 20),
        ),
    ] {
        let bytes = prove(prover, ext, 10, params, HashId::Blake3_256);
        let ok = verify(verifier, &bytes, None, &policy).expect("proven-list 100");
        assert!(ok.security_bits >= 100);
        let bytes = prove(prover, small, 10, params, HashId::Blake3_256);
        assert!(matches!(
            verify(verifier, &bytes, None, &policy),
            Err(VerifyError::InsufficientSecurity { required: 100, .. })
        ));
    }
}

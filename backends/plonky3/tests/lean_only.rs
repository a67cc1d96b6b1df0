//! The stock fallback and the `lean-only` build. Valid proofs the lean verifier does not take
//! (more queries than `lean::bounds::MAX_QUERIES`, a final polynomial longer than
//! `MAX_LOG_FINAL_POLY_LEN`: what stays beyond its bounds now that the membership AIR, 163 or
//! 164 columns and 32 public inputs, is within them) go to Plonky3's verifier and are
//! accepted in the default build;
//! a `lean-only` build (no stock verifier linked: the firmware's code-in-SRAM images) refuses
//! them with `VerifyError::Unsupported`. Beside each, a default-shape proof is accepted and
//! its tampered copy rejected in both builds. Run both:
//!
//! ```sh
//! cargo test -p picostark-plonky3 --test lean_only
//! cargo test -p picostark-plonky3 --features lean-only --test lean_only
//! cargo test -p picostark-plonky3 --features lean-only,lean-no-membership --test lean_only
//! ```

use picostark_core::prove::{ProveRequest, Prover};
use picostark_core::{AirId, HashId, ProofFile, ProofParams, Verifier, VerifyError};
use picostark_plonky3::lean::bounds::{MAX_LOG_FINAL_POLY_LEN, MAX_QUERIES};
use picostark_plonky3::*;

fn prove(prover: &dyn Prover, log_n: u8, ext: u8, params: ProofParams) -> Vec<u8> {
    let req = ProveRequest {
        air: AirId::Fibonacci,
        log_n,
        extension_degree: ext,
        params,
        hash: HashId::Sha256,
    };
    prover.prove(&req, &mut |_| {}).expect("proving succeeds")
}

/// The verdict of `verifier` on `bytes` and the lean path's (`None`: outside its bounds).
fn verdicts(verifier: &dyn Verifier, bytes: &[u8]) -> (Result<(), VerifyError>, bool) {
    let file = ProofFile::parse(bytes).unwrap();
    verifier.check_supported(&file.header).unwrap();
    (
        verifier.verify_payload(&file),
        lean::verify(&file).is_some(),
    )
}

/// What the verifier answers for a valid proof outside the lean bounds, by build.
fn expected_outside() -> Result<(), VerifyError> {
    if cfg!(feature = "lean-only") {
        Err(VerifyError::Unsupported(OUTSIDE_LEAN_BOUNDS))
    } else {
        Ok(())
    }
}

/// A default-shape proof: lean path, accepted; its last payload byte flipped: rejected.
fn check_inside(verifier: &dyn Verifier, bytes: &[u8]) {
    assert_eq!(verdicts(verifier, bytes), (Ok(()), true));
    let mut t = bytes.to_vec();
    *t.last_mut().unwrap() ^= 0x40;
    let (verdict, lean) = verdicts(verifier, &t);
    assert!(lean);
    assert!(
        matches!(
            verdict,
            Err(VerifyError::Rejected(_)) | Err(VerifyError::MalformedProof(_))
        ),
        "{verdict:?}"
    );
}

#[test]
fn babybear_more_queries_than_the_lean_bound() {
    let p = P3BabyBearProver;
    check_inside(&P3BabyBearVerifier, &prove(&p, 6, 4, p.default_params()));
    let params = ProofParams {
        num_queries: (MAX_QUERIES + 1) as u16,
        ..p.default_params()
    };
    let bytes = prove(&p, 6, 4, params);
    assert_eq!(
        verdicts(&P3BabyBearVerifier, &bytes),
        (expected_outside(), false)
    );
}

#[test]
fn goldilocks_final_polynomial_longer_than_the_lean_bound() {
    let p = P3GoldilocksProver;
    check_inside(&P3GoldilocksVerifier, &prove(&p, 9, 2, p.default_params()));
    let params = ProofParams {
        log_final_poly_len: (MAX_LOG_FINAL_POLY_LEN + 1) as u8,
        ..p.default_params()
    };
    let bytes = prove(&p, 9, 2, params);
    assert_eq!(
        verdicts(&P3GoldilocksVerifier, &bytes),
        (expected_outside(), false)
    );
}

#[test]
fn m31_more_queries_than_the_lean_bound() {
    let p = P3M31Prover;
    check_inside(&P3M31Verifier, &prove(&p, 6, 4, p.default_params()));
    let params = ProofParams {
        num_queries: (MAX_QUERIES + 1) as u16,
        ..p.default_params()
    };
    let bytes = prove(&p, 6, 4, params);
    assert_eq!(
        verdicts(&P3M31Verifier, &bytes),
        (expected_outside(), false)
    );
}

/// The membership AIR (163 or 164 columns, 32 public inputs; 100 and 16 on Goldilocks) is
/// within the lean verifier's bounds on every Plonky3 backend (unless the backend feature
/// `lean-no-membership` leaves it out): accepted by the lean path in both builds, a tampered
/// copy rejected; upstream's `CirclePcs` and our `WideCirclePcs` on `p3-m31`.
#[test]
fn membership_is_within_the_lean_bounds() {
    let wide = ProofParams {
        log_fold_arity: 4,
        log_final_poly_len: 3,
        ..P3M31Prover.default_params()
    };
    let cases: [(&dyn Prover, &dyn Verifier, u8, ProofParams); 4] = [
        (
            &P3BabyBearProver,
            &P3BabyBearVerifier,
            4,
            P3BabyBearProver.default_params(),
        ),
        (
            &P3GoldilocksProver,
            &P3GoldilocksVerifier,
            2,
            P3GoldilocksProver.default_params(),
        ),
        (
            &P3M31Prover,
            &P3M31Verifier,
            4,
            P3M31Prover.default_params(),
        ),
        (&P3M31Prover, &P3M31Verifier, 4, wide),
    ];
    for (p, v, ext, params) in cases {
        let req = ProveRequest {
            air: AirId::Membership,
            log_n: 4,
            extension_degree: ext,
            params,
            hash: HashId::Sha256,
        };
        let bytes = p.prove(&req, &mut |_| {}).expect("proving succeeds");
        if cfg!(feature = "lean-no-membership") {
            assert_eq!(verdicts(v, &bytes), (expected_outside(), false));
        } else {
            check_inside(v, &bytes);
        }
    }
}

//! The stock fallback and the `lean-only` build. Valid proofs the lean verifier does not take
//! (more queries than `lean::bounds::MAX_QUERIES`, a final polynomial longer than
//! `MAX_LOG_FINAL_POLY_LEN`: what stays beyond its bounds now that the membership AIR, 237 or
//! 238 columns and 36 public inputs, is within them) go to Plonky3's verifier and are
//! accepted in the default build;
//! a `lean-only` build (no stock verifier linked: the firmware's code-in-SRAM images) refuses
//! them with `VerifyError::Unsupported`. Beside each, a default-shape proof is accepted and
//! its tampered copy rejected in both builds.
//!
//! The lean-only builds leave the prover out too (it is most of this crate's build time): they
//! verify the proofs the default build's run of this test saved under `CARGO_TARGET_TMPDIR`,
//! so run that first (as `.ci/test` does):
//!
//! ```sh
//! cargo test -p picostark-plonky3 --test suite lean_only::
//! F=std,p3-maybe-rayon/parallel,lean-only
//! cargo test -p picostark-plonky3 --no-default-features --features $F --test lean_only
//! cargo test -p picostark-plonky3 --no-default-features --features $F,lean-no-membership \
//!     --test lean_only
//! ```

use std::path::PathBuf;

use picostark_core::prove::ProveRequest;
use picostark_core::{AirId, BackendId, HashId, ProofFile, ProofParams, Verifier, VerifyError};
use picostark_plonky3::lean::bounds::{MAX_LOG_FINAL_POLY_LEN, MAX_QUERIES};
use picostark_plonky3::*;

/// Where the default build saves each proof for the lean-only builds.
fn saved(backend: BackendId, req: &ProveRequest) -> PathBuf {
    let p = &req.params;
    let name = format!(
        "{backend}-{}-n{}-e{}-b{}-q{}-f{}-l{}.proof",
        req.air,
        req.log_n,
        req.extension_degree,
        p.log_blowup,
        p.num_queries,
        p.log_fold_arity,
        p.log_final_poly_len
    );
    PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("lean_only")
        .join(name)
}

/// A proof of `air` (SHA-256) by `backend`'s prover, saved for the builds without one; in
/// those, the saved proof.
fn prove_air(backend: BackendId, air: AirId, log_n: u8, ext: u8, params: ProofParams) -> Vec<u8> {
    let req = ProveRequest {
        air,
        log_n,
        extension_degree: ext,
        params,
        hash: HashId::Sha256,
    };
    let path = saved(backend, &req);
    #[cfg(feature = "prover")]
    {
        use picostark_core::prove::Prover;
        let prover: &dyn Prover = match backend {
            BackendId::P3BabyBear => &P3BabyBearProver,
            BackendId::P3Goldilocks => &P3GoldilocksProver,
            _ => &P3M31Prover,
        };
        let bytes = prover.prove(&req, &mut |_| {}).expect("proving succeeds");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &bytes).unwrap();
        bytes
    }
    #[cfg(not(feature = "prover"))]
    std::fs::read(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (run the default build's lean_only test first)",
            path.display()
        )
    })
}

fn prove(backend: BackendId, log_n: u8, ext: u8, params: ProofParams) -> Vec<u8> {
    prove_air(backend, AirId::Fibonacci, log_n, ext, params)
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
            Err(VerifyError::CheckFailed(_)) | Err(VerifyError::MalformedProof(_))
        ),
        "{verdict:?}"
    );
}

#[test]
fn babybear_more_queries_than_the_lean_bound() {
    let b = BackendId::P3BabyBear;
    check_inside(
        &P3BabyBearVerifier,
        &prove(b, 6, 4, DEFAULT_PARAMS_TWO_ADIC),
    );
    let params = ProofParams {
        num_queries: (MAX_QUERIES + 1) as u16,
        ..DEFAULT_PARAMS_TWO_ADIC
    };
    let bytes = prove(b, 6, 4, params);
    assert_eq!(
        verdicts(&P3BabyBearVerifier, &bytes),
        (expected_outside(), false)
    );
}

#[test]
fn goldilocks_final_polynomial_longer_than_the_lean_bound() {
    let b = BackendId::P3Goldilocks;
    check_inside(
        &P3GoldilocksVerifier,
        &prove(b, 9, 2, DEFAULT_PARAMS_TWO_ADIC),
    );
    let params = ProofParams {
        log_final_poly_len: (MAX_LOG_FINAL_POLY_LEN + 1) as u8,
        ..DEFAULT_PARAMS_TWO_ADIC
    };
    let bytes = prove(b, 9, 2, params);
    assert_eq!(
        verdicts(&P3GoldilocksVerifier, &bytes),
        (expected_outside(), false)
    );
}

#[test]
fn m31_more_queries_than_the_lean_bound() {
    let b = BackendId::P3M31;
    check_inside(&P3M31Verifier, &prove(b, 6, 4, DEFAULT_PARAMS_CIRCLE));
    let params = ProofParams {
        num_queries: (MAX_QUERIES + 1) as u16,
        ..DEFAULT_PARAMS_CIRCLE
    };
    let bytes = prove(b, 6, 4, params);
    assert_eq!(
        verdicts(&P3M31Verifier, &bytes),
        (expected_outside(), false)
    );
}

/// The membership AIR (237 or 238 columns, 36 public inputs; 132 and 16 on Goldilocks) is
/// within the lean verifier's bounds on every Plonky3 backend (unless the backend feature
/// `lean-no-membership` leaves it out): accepted by the lean path in both builds, a tampered
/// copy rejected; upstream's `CirclePcs` and our `WideCirclePcs` on `p3-m31`.
#[test]
fn membership_is_within_the_lean_bounds() {
    let wide = ProofParams {
        log_fold_arity: 4,
        log_final_poly_len: 3,
        ..DEFAULT_PARAMS_CIRCLE
    };
    let cases: [(BackendId, &dyn Verifier, u8, ProofParams); 4] = [
        (
            BackendId::P3BabyBear,
            &P3BabyBearVerifier,
            4,
            DEFAULT_PARAMS_TWO_ADIC,
        ),
        (
            BackendId::P3Goldilocks,
            &P3GoldilocksVerifier,
            2,
            DEFAULT_PARAMS_TWO_ADIC,
        ),
        (BackendId::P3M31, &P3M31Verifier, 4, UPSTREAM_CIRCLE_PARAMS),
        (BackendId::P3M31, &P3M31Verifier, 4, wide),
    ];
    for (b, v, ext, params) in cases {
        let bytes = prove_air(b, AirId::Membership, 4, ext, params);
        if cfg!(feature = "lean-no-membership") {
            assert_eq!(verdicts(v, &bytes), (expected_outside(), false));
        } else {
            check_inside(v, &bytes);
        }
    }
}

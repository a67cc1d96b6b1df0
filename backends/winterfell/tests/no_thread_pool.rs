//! A verification must not start a thread pool. With the `concurrent` feature (unified in
//! whenever the host prover is built), some winterfell helpers ask rayon for its thread
//! count, which builds the global pool on first use: a host verify would then spawn threads
//! and its heap count would depend on whether another thread had started the pool already.
//! One test in its own binary, so nothing else can have started the pool before it looks.

mod common;

use picostark_core::proof_file::FIXED_HEADER_LEN;
use picostark_core::{verify, Policy, Regime};
use picostark_winterfell::{WfBabyBearVerifier, WfGoldilocksVerifier};

#[test]
fn verify_leaves_the_global_rayon_pool_unstarted() {
    // The reference proofs meet 95 bits under winterfell's rule (94 under Plonky3's).
    let policy = Policy {
        regime: Regime::Winterfell,
        ..Policy::default()
    };
    let (gl, _) = common::goldilocks_reference();
    let (bb, _) = common::babybear_reference();
    verify(&WfGoldilocksVerifier::default(), &gl, None, &policy).unwrap();
    verify(&WfBabyBearVerifier::default(), &bb, None, &policy).unwrap();
    let mut tampered = gl.clone();
    let last = tampered.len() - 1;
    tampered[last] ^= 1;
    assert!(verify(&WfGoldilocksVerifier::default(), &tampered, None, &policy).is_err());
    let mut wrong_input = bb.clone();
    wrong_input[FIXED_HEADER_LEN] ^= 1;
    assert!(verify(&WfBabyBearVerifier::default(), &wrong_input, None, &policy).is_err());
    // `build_global` fails once the global pool exists, so success means no verify started it.
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build_global()
        .expect("a verification started the global rayon pool");
}

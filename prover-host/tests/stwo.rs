//! stwo-m31 end to end through the registry: its nightly prover's binary (built by
//! `.ci/test` before the tests) proves, the stable verifier checks. Fib at both ends of a
//! stretch of issue 45's range (2^10 .. 2^16; `prover-host bench` measures all of it),
//! chain16 and membership (degree-reduced, `picostark_air::reduce`); each proof accepted at
//! 95 bits or more, and the same proof with its last public input changed rejected.

use picostark_core::prove::ProveRequest;
use picostark_core::{verify, AirId, BackendId, HashId, Policy, ProofFile};

fn prove(air: AirId, log_n: u8) -> Vec<u8> {
    let prover = picostark_registry::prover(BackendId::StwoM31).expect("registered");
    let req = ProveRequest {
        air,
        log_n,
        extension_degree: prover.extension_degrees()[0],
        params: prover.default_params(),
        hash: HashId::Blake2s256,
    };
    prover
        .prove(&req, &mut |_| {})
        .unwrap_or_else(|e| panic!("{air} n = 2^{log_n}: {e}"))
}

#[test]
fn stwo_proves_fib_at_two_lengths_and_the_reduced_airs_and_the_host_verifies() {
    let verifier = picostark_registry::verifier(BackendId::StwoM31).expect("registered");
    for (air, log_n) in [
        (AirId::Fibonacci, 10),
        (AirId::Fibonacci, 13),
        (AirId::CubicChain16, 10),
        (AirId::Membership, 4),
    ] {
        let bytes = prove(air, log_n);
        let v = verify(&*verifier, &bytes, None, &Policy::default())
            .unwrap_or_else(|e| panic!("{air} n = 2^{log_n}: {e}"));
        assert!(v.security_bits >= 95, "{air}: {} bits", v.security_bits);
        let file = ProofFile::parse(&bytes).unwrap();
        assert_eq!(file.header.log_n, log_n);
        // The last public input (Fib's result, chain16's last output word, membership's
        // scope hash), plus one in its lowest byte.
        let last =
            picostark_core::proof_file::FIXED_HEADER_LEN + 8 * (file.public_inputs.len() - 1);
        let mut t = bytes.clone();
        t[last] ^= 0x01;
        let err = verify(&*verifier, &t, None, &Policy::default()).unwrap_err();
        assert!(err.is_rejection(), "{air} n = 2^{log_n}: {err:?}");
    }
}

//! stwo-m31 end to end through the registry: its nightly prover's binary (built by
//! `.ci/test` before the tests) proves, the stable verifier checks. Fib at both ends of a
//! stretch of issue 45's range (2^10 .. 2^16; `prover-host bench` measures all of it),
//! chain16 and membership (degree-reduced, `picostark_air::reduce`); each proof accepted at
//! 95 bits or more, and the same proof with its last public input changed rejected.

use picostark_core::prove::ProveRequest;
use picostark_core::{verify, AirId, BackendId, HashId, Policy, ProofFile};

fn prove(air: AirId, log_n: u8) -> Vec<u8> {
    prove_with(air, log_n, HashId::Blake2s256)
}

fn prove_with(air: AirId, log_n: u8, hash: HashId) -> Vec<u8> {
    let prover = picostark_registry::prover(BackendId::StwoM31).expect("registered");
    let req = ProveRequest {
        air,
        log_n,
        extension_degree: prover.extension_degrees()[0],
        params: prover.default_params(),
        hash,
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

/// Our BLAKE3 and SHA-256 channels (`picostark_stwo::channel`) through the registry: each
/// proof accepted, a flipped payload byte rejected, and the proof filed under the other hash
/// rejected.
#[test]
fn stwo_proves_and_the_host_verifies_over_our_blake3_and_sha256_channels() {
    let verifier = picostark_registry::verifier(BackendId::StwoM31).expect("registered");
    for hash in [HashId::Blake3_256, HashId::Sha256] {
        let bytes = prove_with(AirId::Fibonacci, 10, hash);
        assert_eq!(ProofFile::parse(&bytes).unwrap().header.hash, hash);
        let v = verify(&*verifier, &bytes, None, &Policy::default())
            .unwrap_or_else(|e| panic!("{hash}: {e}"));
        assert!(v.security_bits >= 95, "{hash}: {} bits", v.security_bits);
        let mut t = bytes.clone();
        let at = bytes.len() - 100;
        t[at] ^= 0x01;
        assert!(
            verify(&*verifier, &t, None, &Policy::default()).is_err(),
            "{hash}: flipped"
        );
        let mut t = bytes.clone();
        t[9] = if hash == HashId::Sha256 {
            HashId::Blake3_256
        } else {
            HashId::Sha256
        } as u8;
        assert!(
            verify(&*verifier, &t, None, &Policy::default()).is_err(),
            "{hash}: relabelled"
        );
    }
}

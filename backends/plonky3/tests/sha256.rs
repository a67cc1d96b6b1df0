//! SHA-256 (`p3-sha256`) in the Plonky3 backends: known answers for the byte hasher and the
//! Merkle compression, and Fib-1024 proofs of all three backends made and verified with it,
//! each next to rejected variants (tampered byte, wrong public input, relabelled hash).

use p3_symmetric::{CryptographicHasher, PseudoCompressionFunction};
use picostark_core::prove::{ProveRequest, Prover};
use picostark_core::{verify, AirId, HashId, Policy, ProofFile, Verifier};
use picostark_plonky3::*;

fn from_hex(s: &str) -> [u8; 32] {
    let mut out = [0u8; 32];
    for (i, o) in out.iter_mut().enumerate() {
        *o = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap();
    }
    out
}

/// FIPS 180-4 examples: "abc" (one block) and the 448-bit message (two blocks).
#[test]
fn sha256_known_answers() {
    let h = p3_sha256::Sha256;
    assert_eq!(
        h.hash_slice(b"abc"),
        from_hex("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    );
    let msg = b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    let want = from_hex("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    assert_eq!(h.hash_slice(msg), want);
    assert_eq!(h.hash_iter(msg.iter().copied()), want);
    assert_eq!(h.hash_iter_slices([&msg[..10], &msg[10..]]), want);
}

/// A Merkle node is one compression of `left || right` from the initial state (no padding).
#[test]
fn node_compression_matches_sha2() {
    let (l, r) = (
        p3_sha256::Sha256.hash_slice(b"left"),
        p3_sha256::Sha256.hash_slice(b"right"),
    );
    let mut block = [0u8; 64];
    block[..32].copy_from_slice(&l);
    block[32..].copy_from_slice(&r);
    let mut state = [
        0x6a09e667u32,
        0xbb67ae85,
        0x3c6ef372,
        0xa54ff53a,
        0x510e527f,
        0x9b05688c,
        0x1f83d9ab,
        0x5be0cd19,
    ];
    sha2::block_api::compress256(&mut state, &[block]);
    let mut want = [0u8; 32];
    for (c, w) in want.chunks_exact_mut(4).zip(state) {
        c.copy_from_slice(&w.to_be_bytes());
    }
    let compress = p3_sha256::Sha256Compress;
    assert_eq!(compress.compress([l, r]), want);
    assert_ne!(compress.compress([r, l]), want);
}

fn prove(p: &dyn Prover, ext: u8) -> Vec<u8> {
    let req = ProveRequest {
        air: AirId::Fibonacci,
        log_n: 10,
        extension_degree: ext,
        params: p.default_params(),
        hash: HashId::Sha256,
    };
    p.prove(&req, &mut |_| {}).unwrap()
}

fn check(prover: &dyn Prover, verifier: &dyn Verifier) {
    let file = prove(prover, prover.extension_degrees()[0]);
    let parsed = ProofFile::parse(&file).unwrap();
    assert_eq!(parsed.header.hash, HashId::Sha256);
    let public = parsed.public_inputs.iter().next().unwrap();
    let payload_at = file.len() - parsed.payload.len();
    let policy = Policy::default();
    verify(verifier, &file, None, &policy).expect("valid SHA-256 proof");

    let mut tampered = file.clone();
    tampered[payload_at + parsed.payload.len() / 2] ^= 1;
    assert!(verify(verifier, &tampered, None, &policy).is_err());

    let encode = picostark_core::proof_file::encode;
    let wrong_public = encode(&parsed.header, &[public + 1], parsed.payload);
    assert!(verify(verifier, &wrong_public, None, &policy).is_err());

    let mut header = parsed.header;
    header.hash = HashId::Blake3_256;
    let relabelled = encode(&header, &[public], parsed.payload);
    assert!(verify(verifier, &relabelled, None, &policy).is_err());
}

#[test]
fn p3_babybear_sha256() {
    check(&P3BabyBearProver, &P3BabyBearVerifier);
}

#[test]
fn p3_goldilocks_sha256() {
    check(&P3GoldilocksProver, &P3GoldilocksVerifier);
}

#[test]
fn p3_m31_sha256() {
    check(&P3M31Prover, &P3M31Verifier);
}

//! Hostile winterfell payloads that a header sweep cannot reach, each checked against our
//! verifier and, where it shows a difference, against upstream `winterfell::verify` 0.13.1:
//!
//! - a batching-method byte other than Linear (what our provers write) is refused;
//! - a FRI remainder changed by a polynomial that vanishes on every queried position of the
//!   remainder domain: upstream never compares the remainder with its commitment and accepts
//!   it, ours rejects it (`results/baseline/UPSTREAM-fri-remainder.md`).
#![cfg(feature = "prover")]

use picostark_air::fibonacci::Fibonacci;
use picostark_core::prove::{ProveRequest, Prover};
use picostark_core::{verify, AirId, Policy, ProofFile, Verifier, VerifyError};
use picostark_winterfell::air::{PublicInputs, WfAir};
use picostark_winterfell::verifier::parse::RawProof;
use picostark_winterfell::verifier::seed_elements;
use picostark_winterfell::{WfGoldilocksProver, WfGoldilocksVerifier};
use winter_air::{Air, TraceInfo};
use winter_crypto::{ElementHasher, RandomCoin};
use winter_math::{FieldElement, StarkField};
use winter_utils::{ByteReader, Deserializable, Serializable, SliceReader};
use winterfell::crypto::hashers::Blake3_256;
use winterfell::crypto::{DefaultRandomCoin, MerkleTree};
use winterfell::math::fields::f64::BaseElement as Goldilocks;
use winterfell::math::fields::QuadExtension;
use winterfell::{AcceptableOptions, Proof};

type H = Blake3_256<Goldilocks>;
type E = QuadExtension<Goldilocks>;

/// A `wf-goldilocks` Fib-1024 proof file with the prover's default parameters.
fn default_proof() -> Vec<u8> {
    let p = WfGoldilocksProver;
    let req = ProveRequest {
        air: AirId::Fibonacci,
        log_n: 10,
        extension_degree: 2,
        params: p.default_params(),
        hash: picostark_core::HashId::Blake3_256,
    };
    p.prove(&req, &mut |_| {}).unwrap()
}

/// No policy floor: these tests are about what the verifiers check, not about the parameters.
fn any_security() -> Policy {
    Policy {
        min_security_bits: 0,
        ..Policy::default()
    }
}

fn ours(file: &[u8]) -> Result<(), VerifyError> {
    let v = WfGoldilocksVerifier::with_min_security(0);
    verify(&v, file, None, &any_security())?;
    // The same verdict when `verify_payload` is called without the entry point.
    v.verify_payload(&ProofFile::parse(file)?)
}

/// Upstream's verdict, accepting the options the proof itself states.
fn upstream(payload: &[u8], public: u64) -> bool {
    let proof = Proof::from_bytes(payload).unwrap();
    let options = proof.options().clone();
    winterfell::verify::<WfAir<Fibonacci, Goldilocks>, H, DefaultRandomCoin<H>, MerkleTree<H>>(
        proof,
        PublicInputs(vec![Goldilocks::new(public)]),
        &AcceptableOptions::OptionSet(vec![options]),
    )
    .is_ok()
}

/// Where the payload starts, and its public input.
fn payload_at(file: &[u8]) -> (usize, u64) {
    let f = ProofFile::parse(file).unwrap();
    (
        file.len() - f.payload.len(),
        f.public_inputs.get(0).unwrap(),
    )
}

#[test]
fn batching_methods_other_than_linear_are_refused() {
    let file = default_proof();
    assert_eq!(ours(&file), Ok(()));
    let (at, _) = payload_at(&file);
    // Options follow the trace info (6 bytes) and the modulus (1 + 8); the two batching
    // bytes are the 7th and 8th option bytes.
    let options = at + 6 + 1 + 8;
    for byte in [options + 6, options + 7] {
        assert_eq!(file[byte], 0, "our prover writes Linear (0)");
        for (method, want) in [
            (
                1,
                VerifyError::Unsupported("batching method other than Linear"),
            ),
            (
                2,
                VerifyError::Unsupported("batching method other than Linear"),
            ),
            (3, VerifyError::MalformedProof("batching method")),
        ] {
            let mut t = file.clone();
            t[byte] = method;
            assert_eq!(ours(&t), Err(want), "byte {byte} = {method}");
        }
    }
}

/// The distinct query positions, folded down to the remainder domain, that a verifier of
/// this payload draws: winterfell's transcript replayed step by step (as our verifier and
/// upstream's do it).
fn remainder_positions(payload: &[u8], public: Goldilocks) -> (Vec<usize>, usize, Goldilocks) {
    let raw = RawProof::parse(payload).unwrap();
    let options = Proof::from_bytes(payload).unwrap().options().clone();
    let width = usize::from(raw.main_width);
    let air = WfAir::<Fibonacci, Goldilocks>::new(
        TraceInfo::new(width, 1 << raw.log_n),
        PublicInputs(vec![public]),
        options.clone(),
    );
    let digests: Vec<_> = raw
        .commitments
        .chunks_exact(32)
        .map(|c| <H as winter_crypto::Hasher>::Digest::read_from_bytes(c).unwrap())
        .collect();
    let mut coin = DefaultRandomCoin::<H>::new(&seed_elements(&raw, &[public]));
    coin.reseed(digests[0]);
    air.get_constraint_composition_coefficients::<E, _>(&mut coin)
        .unwrap();
    coin.reseed(digests[1]);
    let _z: E = coin.draw().unwrap();
    let columns = air.context().num_constraint_composition_columns();
    let trace: Vec<E> = SliceReader::new(&raw.ood_trace[1..])
        .read_many(2 * width)
        .unwrap();
    let quotient: Vec<E> = SliceReader::new(&raw.ood_quotient[1..])
        .read_many(2 * columns)
        .unwrap();
    let merged: Vec<E> = [
        &trace[..width],
        &quotient[..columns],
        &trace[width..],
        &quotient[columns..],
    ]
    .concat();
    coin.reseed(H::hash_elements(&merged));
    air.get_deep_composition_coefficients::<E, _>(&mut coin)
        .unwrap();
    for root in &digests[2..] {
        coin.reseed(*root);
        let _alpha: E = coin.draw().unwrap();
    }
    let lde_size = air.lde_domain_size();
    let mut positions = coin
        .draw_integers(options.num_queries(), lde_size, raw.pow_nonce)
        .unwrap();
    // Each FRI layer folds positions modulo the next domain size.
    let folding = options.to_fri_options().folding_factor();
    let mut domain_size = lde_size;
    let mut g = air.lde_domain_generator();
    for _ in 0..raw.num_fri_layers {
        domain_size /= folding;
        g = g.exp_vartime(folding as u64);
        for p in positions.iter_mut() {
            *p %= domain_size;
        }
    }
    positions.sort_unstable();
    positions.dedup();
    (positions, domain_size, g)
}

/// Coefficients, highest degree first, of `prod (X - x)` over `roots`, padded to `len`.
fn vanishing_poly(roots: &[Goldilocks], len: usize) -> Vec<Goldilocks> {
    // Lowest degree first while building.
    let mut c = vec![Goldilocks::ONE];
    for &r in roots {
        let mut next = vec![Goldilocks::ZERO; c.len() + 1];
        for (i, &a) in c.iter().enumerate() {
            next[i + 1] += a;
            next[i] -= a * r;
        }
        c = next;
    }
    assert!(c.len() <= len, "more roots than the remainder can absorb");
    c.resize(len, Goldilocks::ZERO);
    c.reverse();
    c
}

/// The payload with `delta` (highest degree first) added to the FRI remainder's coefficients.
fn add_to_remainder(payload: &[u8], delta: &[Goldilocks]) -> Vec<u8> {
    let raw = RawProof::parse(payload).unwrap();
    let start = raw.fri_remainder.as_ptr() as usize - payload.as_ptr() as usize;
    let coeffs: Vec<E> = SliceReader::new(raw.fri_remainder)
        .read_many(delta.len())
        .unwrap();
    assert_eq!(raw.fri_remainder.len(), delta.len() * E::ELEMENT_BYTES);
    let mut out = payload.to_vec();
    for (i, (c, d)) in coeffs.iter().zip(delta).enumerate() {
        let at = start + i * E::ELEMENT_BYTES;
        out[at..at + E::ELEMENT_BYTES].copy_from_slice(&(*c + E::from(*d)).to_bytes());
    }
    out
}

#[test]
fn fri_remainder_changed_off_the_queries_upstream_accepts_ours_rejects() {
    let file = default_proof();
    let (at, public) = payload_at(&file);
    let payload = &file[at..];
    assert!(
        upstream(payload, public),
        "upstream rejects the valid proof"
    );
    assert_eq!(ours(&file), Ok(()));

    let (positions, domain_size, g) = remainder_positions(payload, Goldilocks::new(public));
    let offset = Goldilocks::GENERATOR;
    let roots: Vec<Goldilocks> = positions
        .iter()
        .map(|&p| offset * g.exp_vartime(p as u64))
        .collect();
    let len = RawProof::parse(payload).unwrap().fri_remainder.len() / E::ELEMENT_BYTES;
    println!(
        "{} distinct queried positions in a remainder domain of {domain_size}; remainder of {len} coefficients",
        positions.len()
    );
    assert!(
        positions.len() < len,
        "the defaults leave room for a forgery"
    );

    // Vanishes on every queried position: upstream cannot tell it from the real remainder.
    let forged = add_to_remainder(payload, &vanishing_poly(&roots, len));
    assert_ne!(forged, payload);
    assert!(
        upstream(&forged, public),
        "upstream rejects the forged remainder"
    );
    let mut forged_file = file[..at].to_vec();
    forged_file.extend_from_slice(&forged);
    assert_eq!(
        ours(&forged_file),
        Err(VerifyError::CheckFailed(
            picostark_core::Check::RemainderCommitment
        ))
    );

    // Misses one queried position: upstream's folding check catches that one.
    let off_by_one = add_to_remainder(payload, &vanishing_poly(&roots[1..], len));
    assert!(!upstream(&off_by_one, public));
}

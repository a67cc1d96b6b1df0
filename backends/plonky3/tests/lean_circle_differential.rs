//! The lean circle-PCS verifier (`lean::circle`, `p3-m31`) against the stock one
//! (`postcard` + `p3_uni_stark::verify` over `p3_circle::CirclePcs`): the same verdict on
//! valid proofs (Fibonacci and CubicChain16, several trace lengths, QM31 and the cubic
//! extension, BLAKE3 and SHA-256), on every single-byte change of a small proof's payload, on
//! wrong public inputs and on every value of every header byte; and the same Fiat-Shamir
//! transcript (every byte the challenger hashes, so every challenge) on valid proofs.
//!
//! Run with `--release` (the byte sweep verifies tens of thousands of proofs both ways).

use crate::common;

use picostark_airs::Builtins;
use std::sync::{Arc, Mutex};

use common::payload_at;

use p3_challenger::{HashChallenger, SerializingChallenger32};
use p3_commit::ExtensionMmcs;
use p3_field::extension::BinomialExtensionField;
use p3_field::{ExtensionField, PrimeCharacteristicRing};
use p3_fri::FriParameters;
use p3_merkle_tree::MerkleTreeMmcs;
use p3_mersenne_31::{Mersenne31, QM31};
use p3_symmetric::{CryptographicHasher, SerializingHasher};
use p3_uni_stark::{Proof, StarkConfig};
use picostark_air::chain16::CubicChain16;
use picostark_air::fibonacci::Fibonacci;
use picostark_air::AirDef;
use picostark_core::proof_file::FIXED_HEADER_LEN;
use picostark_core::{AirId, HashId, ProofFile, Verifier};
use picostark_plonky3::config::{self, ByteHash, M31Config};
use picostark_plonky3::hash::{Blake3Lean, Blake3LeanCompress};
use picostark_plonky3::lean::circle;
use picostark_plonky3::membership::MembershipOf;
use picostark_plonky3::{P3Air, P3M31Prover, P3M31Verifier, UPSTREAM_CIRCLE_PARAMS};

type F = Mersenne31;
type Cubic = BinomialExtensionField<F, 3>;

fn prove(air: AirId, log_n: u8, ext: u8, hash: HashId) -> Vec<u8> {
    // Upstream's CirclePcs: the p3-m31 defaults are our WideCirclePcs since issue 25.
    let req = picostark_core::prove::ProveRequest {
        air,
        log_n,
        extension_degree: ext,
        params: UPSTREAM_CIRCLE_PARAMS,
        hash,
    };
    picostark_core::prove::Prover::prove(&P3M31Prover, &req, &mut |_| {}).expect("proving succeeds")
}

/// The stock verdict: the payload decoded by postcard (nothing may follow), the trace length
/// checked, then `p3_uni_stark::verify`; a panic counts as a rejection.
fn stock_air<EF: ExtensionField<F>, H: ByteHash, A: AirDef + 'static>(
    file: &ProofFile<'_>,
    hash: H,
    air: A,
) -> bool
where
    P3Air<A>: p3_air::Air<p3_uni_stark::SymbolicAirBuilder<F>>
        + for<'a> p3_air::Air<p3_uni_stark::VerifierConstraintFolder<'a, M31Config<EF, H>>>,
{
    if file.public_inputs.len() != air.num_public_inputs() {
        return false;
    }
    let Ok((proof, rest)) = postcard::take_from_bytes::<Proof<M31Config<EF, H>>>(file.payload)
    else {
        return false;
    };
    if !rest.is_empty() || proof.degree_bits != usize::from(file.header.log_n) {
        return false;
    }
    let config = config::m31::<EF, H>(&file.header.params, file.statement_bytes, hash);
    let public: Vec<F> = file.public_inputs.iter().map(F::from_u64).collect();
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        p3_uni_stark::verify(&config, &P3Air(air), &proof, &public).is_ok()
    }))
    .unwrap_or(false)
}

fn stock_ext<EF: ExtensionField<F>, H: ByteHash>(file: &ProofFile<'_>, hash: H) -> bool {
    match file.header.air {
        AirId::Fibonacci => stock_air::<EF, H, _>(file, hash, Fibonacci),
        AirId::CubicChain16 => stock_air::<EF, H, _>(file, hash, CubicChain16),
        AirId::Membership => stock_air::<EF, H, _>(file, hash, MembershipOf::<F>::default()),
        AirId::Custom(_) => false,
    }
}

fn stock(file: &ProofFile<'_>) -> bool {
    match (file.header.extension_degree, file.header.hash) {
        (4, HashId::Blake3_256) => stock_ext::<QM31, _>(file, config::VERIFIER_HASH),
        (4, HashId::Sha256) => stock_ext::<QM31, _>(file, p3_sha256::Sha256),
        (3, HashId::Blake3_256) => stock_ext::<Cubic, _>(file, config::VERIFIER_HASH),
        (3, HashId::Sha256) => stock_ext::<Cubic, _>(file, p3_sha256::Sha256),
        _ => false,
    }
}

/// Both verdicts on `bytes` (header checks shared), and whether the lean path took it.
fn verdicts(bytes: &[u8]) -> (bool, bool, bool) {
    let Ok(file) = ProofFile::parse(bytes) else {
        return (false, false, true);
    };
    if P3M31Verifier.check_supported(&file.header).is_err() {
        return (false, false, true);
    }
    let want = stock(&file);
    match circle::verify_m31::<Builtins>(&file) {
        Some(got) => (got.is_ok(), want, true),
        None => (want, want, false),
    }
}

#[test]
fn valid_proofs_accepted_by_both_and_relabelled_ones_by_neither() {
    let cases = [
        (AirId::Fibonacci, 3, 4, HashId::Blake3_256),
        (AirId::Fibonacci, 5, 4, HashId::Blake3_256),
        (AirId::Fibonacci, 10, 4, HashId::Blake3_256),
        (AirId::Fibonacci, 10, 4, HashId::Sha256),
        (AirId::Fibonacci, 6, 3, HashId::Blake3_256),
        (AirId::CubicChain16, 3, 4, HashId::Blake3_256),
        (AirId::CubicChain16, 7, 4, HashId::Blake3_256),
        (AirId::CubicChain16, 7, 4, HashId::Sha256),
        (AirId::CubicChain16, 4, 3, HashId::Sha256),
    ];
    for (air, log_n, ext, hash) in cases {
        let name = format!("{air:?} 2^{log_n} ext {ext} {hash:?}");
        let bytes = prove(air, log_n, ext, hash);
        let (lean, stock, took) = verdicts(&bytes);
        assert!(took, "{name}: the lean path takes the default shapes");
        assert!(lean && stock, "{name}: lean {lean}, stock {stock}");
        // The same payload under the other hash: both reject.
        let mut other = bytes.clone();
        other[9] = match hash {
            HashId::Blake3_256 => HashId::Sha256 as u8,
            HashId::Sha256 | HashId::Blake2s256 => HashId::Blake3_256 as u8,
        };
        let (lean, stock, _) = verdicts(&other);
        assert!(
            !lean && !stock,
            "{name} relabelled: lean {lean}, stock {stock}"
        );
    }
}

#[test]
fn every_payload_byte_changed_gets_the_stock_verdict() {
    // Every byte of a small proof's payload, each changed by a value from a fixed sequence
    // (debug builds take every 16th position).
    for (air, hash) in [
        (AirId::Fibonacci, HashId::Blake3_256),
        (AirId::CubicChain16, HashId::Sha256),
    ] {
        let bytes = prove(air, 3, 4, hash);
        let start = payload_at(&bytes);
        let step = if cfg!(debug_assertions) { 16 } else { 1 };
        let mut state = 0x9e37_79b9u32;
        let (mut checked, mut accepted) = (0, 0);
        for at in (start..bytes.len()).step_by(step) {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            let delta = ((state >> 24) as u8).max(1);
            let mut t = bytes.clone();
            t[at] ^= delta;
            let (lean, stock, took) = verdicts(&t);
            assert!(took);
            assert_eq!(lean, stock, "{air:?} byte {at} ^ {delta:#x}");
            checked += 1;
            accepted += usize::from(lean);
        }
        assert!(checked >= 2000 / step, "{checked} positions");
        // A change the encoding does not notice (none expected) would show here.
        assert_eq!(accepted, 0, "{air:?}: tampered proofs accepted");
    }
}

#[test]
fn wrong_public_inputs_and_every_header_byte_value_agree() {
    let bytes = prove(AirId::Fibonacci, 4, 4, HashId::Blake3_256);
    let (mut rejected, mut total) = (0, 0);
    for at in 0..FIXED_HEADER_LEN + 8 {
        for v in 0..=255u8 {
            if v == bytes[at] {
                continue;
            }
            let mut t = bytes.clone();
            t[at] = v;
            let (lean, stock, _) = verdicts(&t);
            assert_eq!(lean, stock, "header byte {at} = {v}");
            total += 1;
            rejected += usize::from(!lean);
        }
    }
    // Every change is rejected: the whole header and the public input seed the transcript.
    assert_eq!(rejected, total);
    assert!(verdicts(&bytes).0);
}

/// A byte hash that records every input (the challenger's flushes: everything it absorbed).
#[derive(Clone)]
struct Recording(Arc<Mutex<Vec<Vec<u8>>>>);

impl CryptographicHasher<u8, [u8; 32]> for Recording {
    fn hash_iter<I: IntoIterator<Item = u8>>(&self, input: I) -> [u8; 32] {
        let bytes: Vec<u8> = input.into_iter().collect();
        let out = Blake3Lean.hash_slice(&bytes);
        self.0.lock().unwrap().push(bytes);
        out
    }
}

type Challenger = SerializingChallenger32<F, HashChallenger<u8, Recording, 32>>;
type ValMmcs = MerkleTreeMmcs<F, u8, SerializingHasher<Blake3Lean>, Blake3LeanCompress, 2, 32>;
type RecordingConfig<EF> =
    StarkConfig<p3_circle::CirclePcs<F, ValMmcs, ExtensionMmcs<F, EF, ValMmcs>>, EF, Challenger>;

fn transcripts<EF: ExtensionField<F>>(bytes: &[u8]) -> (Vec<Vec<u8>>, Vec<Vec<u8>>, bool, bool) {
    let file = ProofFile::parse(bytes).unwrap();
    let p = &file.header.params;
    let challenger = |log: &Arc<Mutex<Vec<Vec<u8>>>>| {
        Challenger::new(HashChallenger::new(
            file.statement_bytes.to_vec(),
            Recording(log.clone()),
        ))
    };
    // Upstream, with the recording hash in its challenger only.
    let up_log = Arc::new(Mutex::new(Vec::new()));
    let mmcs = ValMmcs::new(SerializingHasher::new(Blake3Lean), Blake3LeanCompress, 0);
    let fri = FriParameters {
        log_blowup: p.log_blowup.into(),
        log_final_poly_len: p.log_final_poly_len.into(),
        max_log_arity: p.log_fold_arity.into(),
        num_queries: p.num_queries.into(),
        batch_proof_of_work_bits: 0,
        commit_proof_of_work_bits: 0,
        query_proof_of_work_bits: p.pow_bits.into(),
        mmcs: ExtensionMmcs::new(mmcs),
    };
    let config: RecordingConfig<EF> =
        StarkConfig::new(p3_circle::CirclePcs::new(mmcs, fri), challenger(&up_log));
    let proof: Proof<RecordingConfig<EF>> = postcard::from_bytes(file.payload).unwrap();
    let public: Vec<F> = file.public_inputs.iter().map(F::from_u64).collect();
    let log_n = usize::from(file.header.log_n);
    let (up_ok, lean_ok, lean_log) = match file.header.air {
        AirId::Fibonacci => {
            let up = p3_uni_stark::verify(&config, &P3Air(Fibonacci), &proof, &public).is_ok();
            let lean_log = Arc::new(Mutex::new(Vec::new()));
            let pcs = circle::circle_pcs(&file, config::VERIFIER_HASH);
            let inputs: Vec<u64> = file.public_inputs.iter().collect();
            let ok = picostark_plonky3::lean::uni_stark::verify::<F, EF, _, _, _>(
                &pcs,
                &Fibonacci,
                challenger(&lean_log),
                log_n,
                &inputs,
                file.payload,
            )
            .is_ok();
            (up, ok, lean_log)
        }
        AirId::CubicChain16 => {
            let up = p3_uni_stark::verify(&config, &P3Air(CubicChain16), &proof, &public).is_ok();
            let lean_log = Arc::new(Mutex::new(Vec::new()));
            let pcs = circle::circle_pcs(&file, config::VERIFIER_HASH);
            let inputs: Vec<u64> = file.public_inputs.iter().collect();
            let ok = picostark_plonky3::lean::uni_stark::verify::<F, EF, _, _, _>(
                &pcs,
                &CubicChain16,
                challenger(&lean_log),
                log_n,
                &inputs,
                file.payload,
            )
            .is_ok();
            (up, ok, lean_log)
        }
        // Beyond the lean verifier's bounds; not among this test's proofs.
        AirId::Membership | AirId::Custom(_) => unreachable!("only built-in AIRs are traced here"),
    };
    let up = up_log.lock().unwrap().clone();
    let lean = lean_log.lock().unwrap().clone();
    (up, lean, up_ok, lean_ok)
}

#[test]
fn every_challenge_equals_upstream() {
    for (air, log_n, ext) in [
        (AirId::Fibonacci, 10, 4),
        (AirId::CubicChain16, 5, 4),
        (AirId::Fibonacci, 5, 3),
    ] {
        let bytes = prove(air, log_n, ext, HashId::Blake3_256);
        let (up, lean, up_ok, lean_ok) = if ext == 4 {
            transcripts::<QM31>(&bytes)
        } else {
            transcripts::<Cubic>(&bytes)
        };
        assert!(up_ok && lean_ok, "{air:?}: {up_ok} {lean_ok}");
        // Every flush of the challenger (all it absorbed before each draw) is the same, so
        // every challenge drawn from it is: alpha, zeta, the PCS's alpha, the bivariate and
        // folding betas, the proof-of-work check and every query index.
        assert!(up.len() > 10, "{} flushes", up.len());
        assert_eq!(up, lean, "{air:?} 2^{log_n}");
        // A different public input changes the very first flush.
        let mut other = bytes.clone();
        other[FIXED_HEADER_LEN] ^= 1;
        let (up2, lean2, _, lean2_ok) = if ext == 4 {
            transcripts::<QM31>(&other)
        } else {
            transcripts::<Cubic>(&other)
        };
        assert!(!lean2_ok);
        assert_eq!(up2[0], lean2[0]);
        assert_ne!(up2[0], up[0]);
    }
}

/// The BLAKE3 compressions each path spends on the default Fib-1024 proof (host count,
/// feature `hash-count`): the hash floor of `results/baseline/circle-gap.md`. The lean path
/// runs to completion (issue 46): it hashes every query's leaf, repeats included, and pads
/// each Merkle walk to the compressions the proof's shape allows, so it spends at least the
/// stock verifier's count (which follows the drawn indices).
#[cfg(feature = "hash-count")]
#[test]
fn count_compressions_of_the_default_proof() {
    use picostark_plonky3::hash_count;
    let bytes = prove(AirId::Fibonacci, 10, 4, HashId::Blake3_256);
    let file = ProofFile::parse(&bytes).unwrap();
    hash_count::reset();
    assert!(circle::verify_m31::<Builtins>(&file).unwrap().is_ok());
    let lean = hash_count::compressions();
    hash_count::reset();
    assert!(stock(&file));
    let stock = hash_count::compressions();
    hash_count::stop();
    println!("compressions: lean {lean}, stock {stock}");
    assert!(lean >= stock, "lean {lean}, stock {stock}");
}

/// The membership AIR (issue 28: 238 columns, 36 public inputs) over upstream's `CirclePcs`
/// on the lean path: the valid proof accepted by both verifiers, every tampered copy
/// (payload bytes, wrong root, nullifier or scope) rejected by both.
#[test]
fn membership_proofs_take_the_lean_path_and_agree() {
    for hash in [HashId::Blake3_256, HashId::Sha256] {
        let bytes = prove(AirId::Membership, 4, 4, hash);
        assert_eq!(verdicts(&bytes), (true, true, true), "{hash:?}");
        for (what, t) in common::membership_tampers(&bytes) {
            assert_eq!(verdicts(&t), (false, false, true), "{hash:?}: {what}");
        }
    }
}

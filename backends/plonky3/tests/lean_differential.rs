//! The lean verifier (`picostark_plonky3::lean`) against Plonky3's own `p3_uni_stark::verify`
//! (`verify_stock`, today's path): same verdict on valid proofs (Fibonacci and CubicChain16,
//! several n, BLAKE3 and SHA-256, BabyBear x4 and Goldilocks x2), on thousands of tampered
//! payloads, on wrong public inputs and on every header byte changed; and every Fiat-Shamir
//! draw identical (a recording challenger driven by both verifiers on the same proof).

use crate::common;

use std::sync::{Arc, Mutex};

use common::payload_at;

use p3_baby_bear::BabyBear;
use p3_challenger::{
    CanObserve, CanSample, CanSampleBits, FieldChallenger, GrindingChallenger, HashChallenger,
    SerializingChallenger32,
};
use p3_commit::ExtensionMmcs;
use p3_dft::Radix2DitParallel;
use p3_field::extension::BinomialExtensionField;
use p3_field::{BasedVectorSpace, PrimeCharacteristicRing, PrimeField64};
use p3_fri::{FriParameters, TwoAdicFriPcs};
use p3_merkle_tree::MerkleTreeMmcs;
use p3_symmetric::{Hash, MerkleCap, SerializingHasher};
use p3_uni_stark::{Proof, StarkConfig};
use picostark_air::fibonacci::Fibonacci;
use picostark_core::prove::Prover;
use picostark_core::{AirId, HashId, ProofFile, Verifier};
use picostark_plonky3::config::ByteHash;
use picostark_plonky3::hash::Blake3Lean;
use picostark_plonky3::*;

struct Proved {
    name: String,
    bytes: Vec<u8>,
}

fn prove(backend: &str, air: AirId, log_n: u8, hash: HashId) -> Proved {
    let ext = if backend == "bb" { 4 } else { 2 };
    prove_ext(backend, ext, air, log_n, hash).expect("proving succeeds")
}

/// A proof with challenge-field degree `ext`, or `None` if the prover does not offer it.
fn prove_ext(backend: &str, ext: u8, air: AirId, log_n: u8, hash: HashId) -> Option<Proved> {
    let prover: &dyn Prover = match backend {
        "bb" => &P3BabyBearProver,
        _ => &P3GoldilocksProver,
    };
    Some(Proved {
        name: format!("{backend} x{ext} {air:?} 2^{log_n} {hash:?}"),
        bytes: common::prove_default(prover, air, log_n, ext, hash)?,
    })
}

fn verifier_for(file: &ProofFile<'_>) -> &'static dyn Verifier {
    match file.header.backend {
        picostark_core::BackendId::P3BabyBear => &P3BabyBearVerifier,
        _ => &P3GoldilocksVerifier,
    }
}

/// (lean verdict, stock verdict) on a file, or `None` when the file or header is refused
/// before either verifier runs.
fn verdicts(bytes: &[u8]) -> Option<(bool, bool)> {
    let file = ProofFile::parse(bytes).ok()?;
    let v = verifier_for(&file);
    v.check_supported(&file.header).ok()?;
    let lean = v.verify_payload(&file).is_ok();
    let stock = verify_stock(&file).is_ok();
    Some((lean, stock))
}

fn proofs() -> Vec<Proved> {
    let mut out = Vec::new();
    // The larger challenge fields, where the provers offer them (issue 15).
    for (backend, ext) in [("bb", 5), ("bb", 8), ("gl", 3), ("gl", 5)] {
        out.extend(prove_ext(
            backend,
            ext,
            AirId::Fibonacci,
            6,
            HashId::Blake3_256,
        ));
        out.extend(prove_ext(
            backend,
            ext,
            AirId::CubicChain16,
            5,
            HashId::Sha256,
        ));
    }
    for backend in ["bb", "gl"] {
        for hash in [HashId::Blake3_256, HashId::Sha256] {
            for log_n in [3, 6, 10] {
                out.push(prove(backend, AirId::Fibonacci, log_n, hash));
            }
            out.push(prove(backend, AirId::CubicChain16, 5, hash));
            out.push(prove(backend, AirId::CubicChain16, 8, hash));
        }
    }
    out
}

#[test]
fn valid_proofs_take_the_lean_path_and_agree() {
    for p in proofs() {
        let file = ProofFile::parse(&p.bytes).unwrap();
        let lean = lean::verify(&file).expect("default shapes take the lean path");
        assert_eq!(lean, Ok(()), "{}", p.name);
        assert_eq!(verify_stock(&file), Ok(()), "{}", p.name);
        // The rejected case beside it: the last payload byte changed.
        let mut t = p.bytes.clone();
        *t.last_mut().unwrap() ^= 0x40;
        assert_eq!(verdicts(&t), Some((false, false)), "{}", p.name);
    }
}

/// A small deterministic generator (xorshift64*), so the sample is the same on every run.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

#[test]
fn tampered_payloads_get_the_same_verdict() {
    let mut rng = Rng(0x5eed_1234_abcd_ef01);
    let mut checked = 0;
    let mut accepted = 0;
    for p in [
        prove("bb", AirId::Fibonacci, 3, HashId::Blake3_256),
        prove("gl", AirId::Fibonacci, 3, HashId::Sha256),
        prove("bb", AirId::CubicChain16, 5, HashId::Sha256),
        prove("gl", AirId::CubicChain16, 5, HashId::Blake3_256),
    ] {
        let start = payload_at(&p.bytes);
        let len = p.bytes.len() - start;
        // The smallest proof: every payload byte, one bit flipped each; the others: a
        // seeded sample of positions and bit masks.
        let positions: Vec<(usize, u8)> = if p.name.starts_with("bb Fibonacci") {
            (0..len).map(|i| (i, 1u8 << (i % 8))).collect()
        } else {
            (0..700)
                .map(|_| {
                    let at = (rng.next() % len as u64) as usize;
                    let mask = (rng.next() % 255 + 1) as u8;
                    (at, mask)
                })
                .collect()
        };
        for (at, mask) in positions {
            let mut t = p.bytes.clone();
            t[start + at] ^= mask;
            let (lean, stock) = verdicts(&t).expect("header untouched");
            assert_eq!(lean, stock, "{}: byte {at} ^ {mask:#x}", p.name);
            checked += 1;
            accepted += usize::from(lean);
        }
        // Truncated and extended payloads, the file re-encoded around them.
        let file = ProofFile::parse(&p.bytes).unwrap();
        let public: Vec<u64> = file.public_inputs.iter().collect();
        let reencode =
            |payload: &[u8]| picostark_core::proof_file::encode(&file.header, &public, payload);
        for cut in [1, 2, 33, len / 3, len / 2, len - 1, len] {
            let t = reencode(&file.payload[..len - cut]);
            assert_eq!(verdicts(&t), Some((false, false)), "{}: cut {cut}", p.name);
        }
        let mut longer = file.payload.to_vec();
        longer.push(0);
        assert_eq!(
            verdicts(&reencode(&longer)),
            Some((false, false)),
            "{}",
            p.name
        );
    }
    assert!(checked >= 2000, "{checked} tampered proofs");
    // A flip nobody reads (there is none in a postcard proof) would show up here.
    assert_eq!(accepted, 0, "a tampered proof was accepted by both");
}

#[test]
fn wrong_public_inputs_and_header_sweep_agree() {
    for p in [
        prove("bb", AirId::Fibonacci, 6, HashId::Blake3_256),
        prove("gl", AirId::CubicChain16, 5, HashId::Sha256),
    ] {
        let start = payload_at(&p.bytes);
        // Every byte before the payload (fixed header, public inputs, payload length),
        // several values each.
        let mut swept = 0;
        for at in 0..start {
            for delta in [1u8, 2, 0x80, 0xff] {
                let mut t = p.bytes.clone();
                t[at] = t[at].wrapping_add(delta);
                if let Some((lean, stock)) = verdicts(&t) {
                    assert_eq!(lean, stock, "{}: header byte {at} + {delta}", p.name);
                    assert!(!lean, "{}: header byte {at} + {delta} accepted", p.name);
                    swept += 1;
                }
            }
        }
        assert!(swept > 0, "{}", p.name);
    }
}

/// A challenger that logs every draw (base-field samples, index bits, proof-of-work
/// verdicts) of the challenger it wraps; clones share the log.
#[derive(Clone)]
struct Rec<C> {
    inner: C,
    log: Arc<Mutex<Vec<u64>>>,
}

impl<C: CanObserve<BabyBear>> CanObserve<BabyBear> for Rec<C> {
    fn observe(&mut self, v: BabyBear) {
        self.inner.observe(v);
    }
}
impl<C: CanObserve<Hash<BabyBear, u8, 32>>> CanObserve<Hash<BabyBear, u8, 32>> for Rec<C> {
    fn observe(&mut self, v: Hash<BabyBear, u8, 32>) {
        self.inner.observe(v);
    }
}
impl<C: CanObserve<MerkleCap<BabyBear, [u8; 32]>>> CanObserve<MerkleCap<BabyBear, [u8; 32]>>
    for Rec<C>
{
    fn observe(&mut self, v: MerkleCap<BabyBear, [u8; 32]>) {
        self.inner.observe(v);
    }
}
impl<C: CanSample<BabyBear>, EF: BasedVectorSpace<BabyBear>> CanSample<EF> for Rec<C> {
    fn sample(&mut self) -> EF {
        EF::from_basis_coefficients_fn(|_| {
            let v: BabyBear = self.inner.sample();
            self.log.lock().unwrap().push(v.as_canonical_u64());
            v
        })
    }
}
impl<C: CanSampleBits<usize>> CanSampleBits<usize> for Rec<C> {
    fn sample_bits(&mut self, bits: usize) -> usize {
        let v = self.inner.sample_bits(bits);
        self.log.lock().unwrap().push(v as u64 | 1 << 63);
        v
    }
}
impl<C> FieldChallenger<BabyBear> for Rec<C> where C: FieldChallenger<BabyBear> + Clone + Send + Sync
{}
impl<C: GrindingChallenger<Witness = BabyBear> + Clone + Send + Sync> GrindingChallenger
    for Rec<C>
{
    type Witness = BabyBear;
    fn grind(&mut self, bits: usize) -> BabyBear {
        self.inner.grind(bits)
    }
    fn check_witness(&mut self, bits: usize, witness: BabyBear) -> bool {
        let ok = self.inner.check_witness(bits, witness);
        self.log.lock().unwrap().push(u64::from(ok) | 1 << 62);
        ok
    }
}

type Ef = BinomialExtensionField<BabyBear, 4>;
type Inner = SerializingChallenger32<BabyBear, HashChallenger<u8, Blake3Lean, 32>>;
type ValMmcs = MerkleTreeMmcs<
    BabyBear,
    u8,
    SerializingHasher<Blake3Lean>,
    <Blake3Lean as ByteHash>::Compress,
    2,
    32,
>;
type RecConfig = StarkConfig<
    TwoAdicFriPcs<
        BabyBear,
        Radix2DitParallel<BabyBear>,
        ValMmcs,
        ExtensionMmcs<BabyBear, Ef, ValMmcs>,
    >,
    Ef,
    Rec<Inner>,
>;

fn recording(statement: &[u8]) -> (Rec<Inner>, Arc<Mutex<Vec<u64>>>) {
    let log = Arc::new(Mutex::new(Vec::new()));
    let inner = Inner::new(HashChallenger::new(statement.to_vec(), Blake3Lean));
    (
        Rec {
            inner,
            log: log.clone(),
        },
        log,
    )
}

/// Every draw upstream makes on `bytes` (a BabyBear x4 BLAKE3 Fibonacci proof), and its verdict.
fn upstream_draws(bytes: &[u8]) -> (Vec<u64>, bool) {
    let file = ProofFile::parse(bytes).unwrap();
    let p = &file.header.params;
    let mmcs = ValMmcs::new(
        SerializingHasher::new(Blake3Lean),
        Blake3Lean.compression(),
        0,
    );
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
    let pcs = TwoAdicFriPcs::new(Radix2DitParallel::default(), mmcs, fri);
    let (ch, log) = recording(file.statement_bytes);
    let config = RecConfig::new(pcs, ch);
    let proof: Proof<RecConfig> = postcard::from_bytes(file.payload).unwrap();
    let public: Vec<BabyBear> = file.public_inputs.iter().map(BabyBear::from_u64).collect();
    let ok = p3_uni_stark::verify(&config, &P3Air(Fibonacci), &proof, &public).is_ok();
    let draws = log.lock().unwrap().clone();
    (draws, ok)
}

fn lean_draws(bytes: &[u8]) -> (Vec<u64>, bool) {
    let file = ProofFile::parse(bytes).unwrap();
    let (ch, log) = recording(file.statement_bytes);
    let ok = lean::verify_two_adic::<BabyBear, Ef, _, _, picostark_airs::Builtins>(
        &file, ch, Blake3Lean,
    )
    .is_ok();
    let draws = log.lock().unwrap().clone();
    (draws, ok)
}

#[test]
fn every_challenge_equals_upstreams() {
    let p = prove("bb", AirId::Fibonacci, 10, HashId::Blake3_256);
    let (up, up_ok) = upstream_draws(&p.bytes);
    let (ours, our_ok) = lean_draws(&p.bytes);
    assert!(up_ok && our_ok);
    // alpha, zeta, the PCS's alpha (4 coefficients each), 2 folding betas (Fib-1024: LDE
    // 2^16 folded by 16 twice to 2^8), the proof-of-work verdict, 14 query indices.
    assert_eq!(up.len(), 3 * 4 + 2 * 4 + 1 + 14, "{up:?}");
    assert_eq!(ours, up);

    // The rejected case: the low byte of the final polynomial's last coefficient (before the query
    // witness and the two trailing fields) changes the draws from there on, and both reject.
    let mut t = p.bytes.clone();
    let at = t.len() - 1 - 4 - 1 - 4 - 3;
    t[at] ^= 1;
    let (up_t, up_ok) = upstream_draws(&t);
    let (ours_t, our_ok) = lean_draws(&t);
    assert!(!up_ok && !our_ok);
    // Upstream stops at the failed proof of work; ours runs to completion (issue 46) and
    // draws the query indices too, as many draws as for the honest proof.
    assert_eq!(ours_t[..up_t.len()], up_t[..]);
    assert_eq!(ours_t.len(), up.len());
    assert_ne!(ours_t, up);
}

/// The membership AIR (issue 28: BabyBear 237 columns and 36 public inputs, Goldilocks 132
/// and 16) on the lean path: valid proofs accepted by both verifiers, every tampered copy
/// (payload bytes, wrong root, nullifier or scope) rejected by both. Goldilocks^3 (the
/// 127-bit point's challenge field) too: its products are the lean verifier's own
/// (`picostark_field::goldilocks`, `blocks/field/src/goldilocks.rs`).
#[test]
fn membership_proofs_take_the_lean_path_and_agree() {
    for (backend, ext, hash) in [
        ("bb", 4, HashId::Blake3_256),
        ("gl", 2, HashId::Sha256),
        ("gl", 3, HashId::Sha256),
    ] {
        let p = prove_ext(backend, ext, AirId::Membership, 4, hash).expect("proving succeeds");
        let file = ProofFile::parse(&p.bytes).unwrap();
        let lean = lean::verify(&file).expect("membership takes the lean path");
        assert_eq!(lean, Ok(()), "{}", p.name);
        assert_eq!(verify_stock(&file), Ok(()), "{}", p.name);
        for (what, t) in common::membership_tampers(&p.bytes) {
            assert_eq!(verdicts(&t), Some((false, false)), "{}: {what}", p.name);
        }
    }
}

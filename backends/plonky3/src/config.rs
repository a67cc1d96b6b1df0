//! The three Plonky3 configurations as types, generic over the challenge field, and their
//! construction from a proof file's parameters. Prover and verifier build the configuration
//! the same way, from the header (its extension degree picks the challenge field: see
//! `BabyBearExt`, `GoldilocksExt` and the `p3-m31` dispatch in the verifier).

use alloc::vec::Vec;

use p3_baby_bear::BabyBear;
use p3_challenger::{HashChallenger, SerializingChallenger32, SerializingChallenger64};
use p3_circle::CirclePcs;

use crate::circle_pcs::{WideCirclePcs, MAX_LOG_FINAL_POLY_LEN, MAX_LOG_FOLD_ARITY};
use p3_commit::ExtensionMmcs;
use p3_dft::Radix2DitParallel;
use p3_field::extension::{BinomialExtensionField, CubicTrinomialExtensionField};
use p3_field::{ExtensionField, Field};
use p3_fri::{FriParameters, TwoAdicFriPcs};
use p3_goldilocks::Goldilocks;
use p3_merkle_tree::MerkleTreeMmcs;
use p3_mersenne_31::Mersenne31;
use p3_symmetric::{
    CompressionFunctionFromHasher, CryptographicHasher, PseudoCompressionFunction,
    SerializingHasher,
};
use p3_uni_stark::StarkConfig;
use picostark_core::{BackendId, CirclePcsKind, ProofHeader, ProofParams, VerifyError};

/// The byte hasher behind every Merkle tree and the transcript: BLAKE3-256 or SHA-256 (the
/// header's hash) in all three configurations. For BLAKE3 the implementation is a type
/// parameter, so that each side uses the one that suits it with the same digests:
/// [`VerifierHash`] (verifiers, firmware), [`ProverHash`] (provers: `p3_blake3` or `p3_sha256` by the
/// header), `p3_blake3::Blake3` for the stock baseline; SHA-256 is `p3_sha256::Sha256` on
/// both sides.
pub trait ByteHash: CryptographicHasher<u8, [u8; 32]> + Copy + Send + Sync + 'static {
    /// The Merkle node compression, `H(left || right)` with this hasher.
    type Compress: PseudoCompressionFunction<[u8; 32], 2> + Clone + Send + Sync + 'static;
    /// The compression for this hasher value.
    fn compression(self) -> Self::Compress;
    /// `compress.compress(*pair)` from a pair held in place: the by-value API makes callers
    /// copy both digests (a library `memcpy` each on the MCU), hashers that can read the pair
    /// where it is override this.
    fn compress_pair(compress: &Self::Compress, pair: &[[u8; 32]; 2]) -> [u8; 32] {
        compress.compress(*pair)
    }
    /// [`Self::compress_pair`] written into `out`: a digest returned by value is a library
    /// `memcpy` call on the M33 where the caller is not inlined into; hashers that can write
    /// in place override this.
    #[inline(always)]
    fn compress_pair_into(compress: &Self::Compress, pair: &[[u8; 32]; 2], out: &mut [u8; 32]) {
        *out = Self::compress_pair(compress, pair);
    }
}

impl ByteHash for p3_blake3::Blake3 {
    type Compress = CompressionFunctionFromHasher<Self, 2, 32>;
    fn compression(self) -> Self::Compress {
        CompressionFunctionFromHasher::new(self)
    }
}

impl ByteHash for crate::hash::Blake3Lean {
    type Compress = crate::hash::Blake3LeanCompress;
    fn compression(self) -> Self::Compress {
        crate::hash::Blake3LeanCompress
    }
    fn compress_pair(_: &Self::Compress, pair: &[[u8; 32]; 2]) -> [u8; 32] {
        crate::hash::Blake3LeanCompress::compress_in_place(pair)
    }
}

/// SHA-256 (`p3-sha256`): the Merkle node compression is one SHA-256 compression of the
/// two digests from the standard initial state, without padding (`Sha256Compress`), so a
/// node costs exactly one block (one call of the RP2350's engine).
impl ByteHash for p3_sha256::Sha256 {
    type Compress = p3_sha256::Sha256Compress;
    fn compression(self) -> Self::Compress {
        p3_sha256::Sha256Compress
    }
}

/// The verifiers' SHA-256: the same digests, every block through `picostark_sha256` (software
/// or the RP2350 engine, see [`crate::hash`]).
impl ByteHash for crate::hash::Sha256Lean {
    type Compress = crate::hash::Sha256LeanCompress;
    fn compression(self) -> Self::Compress {
        crate::hash::Sha256LeanCompress
    }
    fn compress_pair(_: &Self::Compress, pair: &[[u8; 32]; 2]) -> [u8; 32] {
        crate::hash::Sha256LeanCompress::compress_in_place(pair)
    }
    #[inline(always)]
    fn compress_pair_into(_: &Self::Compress, pair: &[[u8; 32]; 2], out: &mut [u8; 32]) {
        crate::hash::Sha256LeanCompress::compress_into(pair, out)
    }
}

/// The provers' hash, BLAKE3 or SHA-256 by the header (see [`ProverHash`]).
#[cfg(feature = "prover")]
impl ByteHash for ProverHash {
    type Compress = crate::hash::ProverCompress;
    fn compression(self) -> Self::Compress {
        ProverHash::compression(self)
    }
}

/// The verifiers' BLAKE3 (see [`crate::hash`]), on the host as in the firmware; the
/// `hash-count` build counts its compressions inside it (see `hash_count`).
pub type VerifierHash = crate::hash::Blake3Lean;
#[cfg(feature = "prover")]
pub use crate::hash::ProverHash;
/// The verifiers' hasher value.
pub const VERIFIER_HASH: VerifierHash = crate::hash::Blake3Lean;

type FieldHash<H> = SerializingHasher<H>;
type ValMmcs<F, H> = MerkleTreeMmcs<F, u8, FieldHash<H>, <H as ByteHash>::Compress, 2, 32>;
type ChallengeMmcs<F, EF, H> = ExtensionMmcs<F, EF, ValMmcs<F, H>>;
type Transcript<H> = HashChallenger<u8, H, 32>;

/// BabyBear's degree-4 extension (`x^4 - 11`, 124 bits): the default challenge field.
pub type BabyBear4 = BinomialExtensionField<BabyBear, 4>;
/// BabyBear's degree-5 extension (`x^5 - 2`, 155 bits).
pub type BabyBear5 = BinomialExtensionField<BabyBear, 5>;
/// BabyBear's degree-8 extension (`x^8 - 11`, 248 bits).
pub type BabyBear8 = BinomialExtensionField<BabyBear, 8>;
/// Goldilocks' degree-2 extension (128 bits): the default challenge field.
pub type Goldilocks2 = BinomialExtensionField<Goldilocks, 2>;
/// Goldilocks' degree-3 extension (the trinomial `x^3 - x - 1`, 192 bits).
pub type Goldilocks3 = CubicTrinomialExtensionField<Goldilocks>;
/// Goldilocks' degree-5 extension (`x^5 - 3`, 320 bits).
pub type Goldilocks5 = BinomialExtensionField<Goldilocks, 5>;

/// Mersenne-31's degree-3 binomial extension (p3-mersenne-31's, 93 bits).
pub type M31Cubic = BinomialExtensionField<Mersenne31, 3>;
/// Mersenne-31's degree-6 extension (CM31 cubed, 186 bits): `p3-m31`'s proven track.
pub use crate::m31_sextic::M31Sextic;

/// BabyBear, two-adic FRI, challenge field `EF` (default [`BabyBear4`]).
pub type BabyBearConfig<H = VerifierHash, EF = BabyBear4> = StarkConfig<
    TwoAdicFriPcs<
        BabyBear,
        Radix2DitParallel<BabyBear>,
        ValMmcs<BabyBear, H>,
        ChallengeMmcs<BabyBear, EF, H>,
    >,
    EF,
    SerializingChallenger32<BabyBear, Transcript<H>>,
>;

/// Goldilocks, two-adic FRI, challenge field `EF` (default [`Goldilocks2`]).
pub type GoldilocksConfig<H = VerifierHash, EF = Goldilocks2> = StarkConfig<
    TwoAdicFriPcs<
        Goldilocks,
        Radix2DitParallel<Goldilocks>,
        ValMmcs<Goldilocks, H>,
        ChallengeMmcs<Goldilocks, EF, H>,
    >,
    EF,
    SerializingChallenger64<Goldilocks, Transcript<H>>,
>;

/// Mersenne-31 circle STARK with challenge field `EF` (QM31, the cubic extension or
/// [`M31Sextic`]), BLAKE3.
pub type M31Config<EF, H = VerifierHash> = StarkConfig<
    CirclePcs<Mersenne31, ValMmcs<Mersenne31, H>, ChallengeMmcs<Mersenne31, EF, H>>,
    EF,
    SerializingChallenger32<Mersenne31, Transcript<H>>,
>;

/// Mersenne-31 circle STARK over our [`WideCirclePcs`] (line folds by up to 16, a final
/// polynomial): the `p3-m31` configuration of every header whose `log_fold_arity` and
/// `log_final_poly_len` name it ([`CirclePcsKind::Wide`]).
pub type M31WideConfig<EF, H = VerifierHash> = StarkConfig<
    WideCirclePcs<Mersenne31, ValMmcs<Mersenne31, H>, ChallengeMmcs<Mersenne31, EF, H>>,
    EF,
    SerializingChallenger32<Mersenne31, Transcript<H>>,
>;

// Which PCS made (or verifies) a `p3-m31` proof is read from the header by
// `picostark_core::CirclePcsKind::of`: folding by two down to a constant is Plonky3 0.8's own
// `CirclePcs`, so every proof and record made before issue 25 keeps its meaning; any other
// pair is [`WideCirclePcs`]. The header is absorbed into the transcript, so a proof cannot be
// moved from one PCS to the other by editing it.

/// Upstream's least constraint degree (p3-uni-stark sizes every quotient for at least 2).
pub const UPSTREAM_MIN_CONSTRAINT_DEGREE: usize = 2;

/// The least constraint degree of every [`WideCirclePcs`] proof (see [`min_constraint_degree`]);
/// the lean verifier's `LeanPcs::min_constraint_degree` for that PCS reads it too.
pub const WIDE_CIRCLE_MIN_CONSTRAINT_DEGREE: usize = 3;

/// The least constraint degree a proof's quotient is sized by (Plonky3 takes
/// `BaseAir::max_constraint_degree` as a floor): 3 for [`WideCirclePcs`] proofs, 2 (upstream's
/// own floor) for every other. At degree 2 (Fibonacci) p3-circle 0.8 answers the request for a
/// disjoint quotient domain of the trace's size with the standard domain of twice that size, so
/// the quotient's one chunk is committed at twice the trace's LDE height and the whole opening
/// (DEEP quotient, first layer, FRI) runs there. At 3 the same quotient values are two chunks of
/// the trace's size, committed at the trace's LDE height: the proof's tallest matrix halves
/// (issue 25, the mission command's prover at the wide defaults, n = 2^16: 2.0-2.2 s and
/// 440 MiB before, 1.4 s and 257 MiB after). Upstream's `CirclePcs` proofs keep 2, so they stay
/// byte-identical to upstream's.
pub fn min_constraint_degree(header: &ProofHeader) -> usize {
    if header.circle_pcs() == Some(CirclePcsKind::Wide) {
        WIDE_CIRCLE_MIN_CONSTRAINT_DEGREE
    } else {
        UPSTREAM_MIN_CONSTRAINT_DEGREE
    }
}

/// The foundation's first default parameters for every Plonky3 backend: blowup 8, 27
/// queries, 16 proof-of-work bits before the queries (97 - 1 = 96 conjectured bits), binary
/// folding down to a constant. Kept as the stock-Plonky3 baseline of `results/baseline/`.
pub const FOUNDATION_PARAMS: ProofParams = ProofParams {
    log_blowup: 3,
    num_queries: 27,
    pow_bits: 16,
    log_fold_arity: 1,
    log_final_poly_len: 0,
};

/// Two-adic FRI defaults (`p3-babybear`, `p3-goldilocks`): blowup 64, 14 queries, 20 PoW
/// bits, folding by 16, a 4-coefficient final polynomial. 14 queries is the fewest at blowup
/// 64 that meets 95 bits under the strictest conjecture (`picostark_core::security`,
/// `Regime::Strictest`): winterfell's rule counts the grinding only from 80 query bits
/// (14 * 6 = 84), giving 103; Plonky3's random-words figure is 102 at n = 2^10 (BabyBear^4:
/// 98 at 2^16, 96 at 2^18). Folding, final length and blowup come from `prover-host tune`
/// (Fib-1024, M33 emulator counts, results/baseline/NOTES.md): folding by 16 opens fewer,
/// wider Merkle layers; a 4-coefficient final polynomial is the longest that keeps n = 8
/// traces provable; blowup 64 keeps the prover's memory at large n where 128 or 256 would
/// double or quadruple it.
pub const DEFAULT_PARAMS_TWO_ADIC: ProofParams = ProofParams {
    log_blowup: 6,
    num_queries: 14,
    pow_bits: 20,
    log_fold_arity: 4,
    log_final_poly_len: 2,
};

/// Two-adic FRI parameters for verifying with the RP2350's SHA-256 engine (issues 17, 44):
/// blowup 4096, 7 queries, 20 PoW bits, folding by 16, a 64-coefficient final polynomial; 98
/// bits under the strictest conjecture at n = 2^10 (the header's largest blowup; BabyBear
/// takes it up to n = 2^15). With hashing nearly free, each query's folding, DEEP and Merkle
/// bookkeeping is what costs, so the fewest queries win: at Fib-1024 the fastest of the
/// candidates measured at 95 bits or more (emulator + timing model, results/hash/README.md,
/// "Engine parameters, again"; p3-babybear 2.43 / 2.46 est. ms M33 / Hazard3 with code in
/// SRAM, `results/circle/engine/`). Listed in the lean transcript's pattern table, so the
/// verifier never renders its transcript pattern at run time.
pub const ENGINE_PARAMS_TWO_ADIC: ProofParams = ProofParams {
    log_blowup: 12,
    num_queries: 7,
    pow_bits: 20,
    log_fold_arity: 4,
    log_final_poly_len: 6,
};

/// The engine parameters before issue 44 (blowup 256, 10 queries, otherwise as
/// [`ENGINE_PARAMS_TWO_ADIC`]; 98 bits strictest at n = 2^10): the circle comparison
/// (`results/circle/engine/`) keeps them for all three Plonky3 backends, and they are in the
/// pattern table too.
pub const ENGINE_PARAMS_TWO_ADIC_B8: ProofParams = ProofParams {
    log_blowup: 8,
    num_queries: 10,
    ..ENGINE_PARAMS_TWO_ADIC
};

/// Two-adic FRI parameters of the 127-bit membership proof with the SHA-256 engine
/// (issue 28; `p3-goldilocks` with Goldilocks^3): blowup 4096, 9 queries, 24 PoW bits,
/// folding by 16, an 8-coefficient final polynomial; 127 bits under the strictest conjecture
/// at n = 16 (the membership trace). The trace is so short that a large blowup costs the
/// prover little and saves the verifier queries: the fastest of the candidates measured
/// (results/membership/README.md, "SHA-256 engine"). Listed in the lean transcript's pattern
/// table.
pub const MEMBERSHIP_128_PARAMS_TWO_ADIC: ProofParams = ProofParams {
    log_blowup: 12,
    num_queries: 9,
    pow_bits: 24,
    log_fold_arity: 4,
    log_final_poly_len: 3,
};

/// Circle FRI defaults (`p3-m31`, our [`WideCirclePcs`]): blowup 16, 20 queries, 20 PoW bits,
/// line folding by 4, a 4-coefficient final polynomial; 98 bits under the strictest
/// conjecture at n = 2^10 and 2^16 (QM31). From `prover-host tune` (Fib-1024, M33 emulator
/// counts, results/baseline/wide-circle/README.md): blowup 16 is the largest at which the
/// mission command (`--air fib --n 65536`) proves within 2 s and 1 GB on the 2-core host
/// (blowup 32 doubles the prover's LDE), and folding by 4 the fewest verifier instructions
/// there among final polynomials that keep n = 8 provable (as the two-adic defaults'; a
/// 32-coefficient one saves 9 % more and needs n >= 64). Upstream's `CirclePcs` is
/// [`UPSTREAM_CIRCLE_PARAMS`].
pub const DEFAULT_PARAMS_CIRCLE: ProofParams = ProofParams {
    log_blowup: 4,
    num_queries: 20,
    pow_bits: 20,
    log_fold_arity: 2,
    log_final_poly_len: 2,
};

/// The `p3-m31` defaults before issue 25 (upstream's `CirclePcs`: binary folding down to a
/// constant; blowup 64, 14 queries, 20 PoW bits, 102 bits strictest at n = 2^10): the
/// records made with them keep their meaning, and the tests use them as the upstream path.
pub const UPSTREAM_CIRCLE_PARAMS: ProofParams = ProofParams {
    log_blowup: 6,
    num_queries: 14,
    pow_bits: 20,
    log_fold_arity: 1,
    log_final_poly_len: 0,
};

/// The widest draw `sample_bits` of the backend's challenger allows on every target:
/// p3-challenger asserts `bits < usize::BITS` (32 on the MCU) and `2^bits < p`. Both the
/// proof-of-work check and the query indices are such draws.
fn max_sample_bits(backend: BackendId) -> u8 {
    match backend {
        // 2^30 < p < 2^31 (BabyBear), p = 2^31 - 1 (Mersenne-31).
        BackendId::P3BabyBear | BackendId::P3M31 => 30,
        // Goldilocks holds 63 bits, a 32-bit `usize` 31.
        _ => 31,
    }
}

/// The largest LDE domain (log2) a backend's verifier can handle on every target: the field's
/// two-adic subgroup (BabyBear 2^27, Goldilocks 2^32) or circle group (2^31, whose query
/// index is drawn one bit wider than the half it folds from), each capped by the widest
/// query-index draw ([`max_sample_bits`]), which also keeps `1 << log_lde` inside a 32-bit
/// `usize`.
fn max_log_lde(backend: BackendId) -> u8 {
    let domain = match backend {
        BackendId::P3BabyBear => 27,
        BackendId::P3Goldilocks => 32,
        _ => 30,
    };
    domain.min(max_sample_bits(backend))
}

fn out_of_range(what: &'static str, value: u8, max: u8) -> VerifyError {
    VerifyError::ParameterOutOfRange {
        what,
        value: value.into(),
        max: max.into(),
    }
}

/// Checks the header parameters against what this backend's PCS implements and what
/// Plonky3's verifier can be given without reaching one of its assertions (see
/// `docs/panic-inventory.md`). Everything here is a pure function of the header.
pub fn fri_params_supported(header: &ProofHeader) -> Result<(), VerifyError> {
    let p = &header.params;
    let backend = header.backend;
    if backend.protocol() != "plonky3" {
        return Err(VerifyError::Unsupported("not a Plonky3 backend"));
    }
    if header.circle_pcs().is_some() {
        // Upstream's CirclePcs or our WideCirclePcs, which folds lines by 2..=16 and ends in
        // up to 2^10 coefficients.
        if p.log_fold_arity == 0 || usize::from(p.log_fold_arity) > MAX_LOG_FOLD_ARITY {
            return Err(out_of_range(
                "log2 folding arity (circle FRI)",
                p.log_fold_arity,
                MAX_LOG_FOLD_ARITY as u8,
            ));
        }
        if usize::from(p.log_final_poly_len) > MAX_LOG_FINAL_POLY_LEN {
            return Err(out_of_range(
                "log2 final polynomial length (circle FRI)",
                p.log_final_poly_len,
                MAX_LOG_FINAL_POLY_LEN as u8,
            ));
        }
    }
    // FRI must fold at least once: Plonky3's prover refuses a final height equal to the
    // LDE height, so such a header could never carry a valid proof.
    if p.log_final_poly_len >= header.log_n {
        return Err(out_of_range(
            "log2 final polynomial length",
            p.log_final_poly_len,
            header.log_n.saturating_sub(1),
        ));
    }
    // The proof-of-work check draws `pow_bits` bits from the challenger.
    let max_bits = max_sample_bits(backend);
    if p.pow_bits > max_bits {
        return Err(out_of_range("proof-of-work bits", p.pow_bits, max_bits));
    }
    // The LDE domain must exist in the field, and its query indices fit one draw.
    let max_lde = max_log_lde(backend);
    let log_lde = header.log_n.saturating_add(p.log_blowup);
    if log_lde > max_lde {
        return Err(out_of_range("log2 LDE domain size", log_lde, max_lde));
    }
    Ok(())
}

fn fri_params<M>(p: &ProofParams, mmcs: M) -> FriParameters<M> {
    FriParameters {
        log_blowup: p.log_blowup.into(),
        log_final_poly_len: p.log_final_poly_len.into(),
        max_log_arity: p.log_fold_arity.into(),
        num_queries: p.num_queries.into(),
        batch_proof_of_work_bits: 0,
        commit_proof_of_work_bits: 0,
        query_proof_of_work_bits: p.pow_bits.into(),
        mmcs,
    }
}

fn val_mmcs<F: Field, H: ByteHash>(hash: H) -> ValMmcs<F, H> {
    ValMmcs::new(FieldHash::new(hash), hash.compression(), 0)
}

/// The transcript starts from the proof file's statement bytes.
fn transcript<H: ByteHash>(statement_bytes: &[u8], hash: H) -> Transcript<H> {
    HashChallenger::new(Vec::from(statement_bytes), hash)
}

/// The `p3-babybear` configuration for these parameters with the default challenge field.
pub fn babybear<H: ByteHash>(
    p: &ProofParams,
    statement_bytes: &[u8],
    hash: H,
) -> BabyBearConfig<H> {
    babybear_ext(p, statement_bytes, hash)
}

/// The `p3-babybear` configuration with challenge field `EF`, transcript seeded with the
/// statement.
pub fn babybear_ext<EF: ExtensionField<BabyBear>, H: ByteHash>(
    p: &ProofParams,
    statement_bytes: &[u8],
    hash: H,
) -> BabyBearConfig<H, EF> {
    let mmcs = val_mmcs::<BabyBear, H>(hash);
    let pcs = TwoAdicFriPcs::new(
        Radix2DitParallel::default(),
        mmcs.clone(),
        fri_params(p, ExtensionMmcs::new(mmcs)),
    );
    StarkConfig::new(
        pcs,
        SerializingChallenger32::new(transcript(statement_bytes, hash)),
    )
}

/// The `p3-goldilocks` configuration for these parameters with the default challenge field.
pub fn goldilocks<H: ByteHash>(
    p: &ProofParams,
    statement_bytes: &[u8],
    hash: H,
) -> GoldilocksConfig<H> {
    goldilocks_ext(p, statement_bytes, hash)
}

/// The `p3-goldilocks` configuration with challenge field `EF`, transcript seeded with the
/// statement.
pub fn goldilocks_ext<EF: ExtensionField<Goldilocks>, H: ByteHash>(
    p: &ProofParams,
    statement_bytes: &[u8],
    hash: H,
) -> GoldilocksConfig<H, EF> {
    let mmcs = val_mmcs::<Goldilocks, H>(hash);
    let pcs = TwoAdicFriPcs::new(
        Radix2DitParallel::default(),
        mmcs.clone(),
        fri_params(p, ExtensionMmcs::new(mmcs)),
    );
    StarkConfig::new(
        pcs,
        SerializingChallenger64::new(transcript(statement_bytes, hash)),
    )
}

/// The `p3-m31` configuration for these parameters, transcript seeded with the statement.
pub fn m31<EF: ExtensionField<Mersenne31>, H: ByteHash>(
    p: &ProofParams,
    statement_bytes: &[u8],
    hash: H,
) -> M31Config<EF, H> {
    let mmcs = val_mmcs::<Mersenne31, H>(hash);
    let pcs = CirclePcs::new(mmcs.clone(), fri_params(p, ExtensionMmcs::new(mmcs)));
    StarkConfig::new(
        pcs,
        SerializingChallenger32::new(transcript(statement_bytes, hash)),
    )
}

/// The `p3-m31` configuration over [`WideCirclePcs`] for these parameters, transcript seeded
/// with the statement.
pub fn m31_wide<EF: ExtensionField<Mersenne31>, H: ByteHash>(
    p: &ProofParams,
    statement_bytes: &[u8],
    hash: H,
) -> M31WideConfig<EF, H> {
    let mmcs = val_mmcs::<Mersenne31, H>(hash);
    let pcs = WideCirclePcs::new(mmcs.clone(), fri_params(p, ExtensionMmcs::new(mmcs)));
    StarkConfig::new(
        pcs,
        SerializingChallenger32::new(transcript(statement_bytes, hash)),
    )
}

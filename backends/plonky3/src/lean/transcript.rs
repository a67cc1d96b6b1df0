//! The Fiat-Shamir replay of the lean verifiers: the same observations and draws, in the same
//! order, as Plonky3 0.8's `p3_uni_stark::verify` and its PCS, through upstream's
//! `SerializingChallenger32/64` over [`ByteSponge`] (upstream's `HashChallenger<u8, H, 32>`
//! with its draws taken in words), without upstream's transcript machinery.
//!
//! Upstream seeds the sponge three times per proof (uni-stark, PCS, FRI), each time with a
//! domain separator `protocol id || pattern hash || instance label || 0x80` packed into field
//! elements. The pattern hash is a Keccak-256 of the protocol's step list rendered as text,
//! recomputed on every call (with a Keccak per step for the field's identity). Here it is
//! looked up in [`PATTERNS`], a table generated from upstream for the shapes our backends
//! produce (`pattern_table_is_current` checks it and prints a new one when it is stale); a
//! shape outside the table falls back to upstream's computation, so it is slower, never
//! wrong. The rest of each seed is a few dozen bytes packed on the stack.
//!
//! The structural markers upstream records (begin/end of a delegated protocol) absorb
//! nothing, and with zero grinding bits a proof-of-work step absorbs nothing either, so the
//! replay is the plain sequence of `observe`/`sample` calls below.

use alloc::vec::Vec;
use core::marker::PhantomData;

use p3_challenger::{
    ByteGrindingChallenger, CanObserve, CanSample, FieldChallenger, GrindingChallenger,
};
use p3_field::{ExtensionField, PrimeField64};
use p3_symmetric::{CryptographicHasher, Hash};

use super::reader::WireField;

pub use super::patterns::{PatternEntry, CIRCLE_PATTERNS, PATTERNS};

/// The challenger bounds every lean verifier needs: upstream's own challengers meet them.
pub trait LeanChallenger<F: PrimeField64>:
    FieldChallenger<F> + GrindingChallenger<Witness = F> + CanObserve<Hash<F, u8, 32>>
{
}

impl<F: PrimeField64, C> LeanChallenger<F> for C where
    C: FieldChallenger<F> + GrindingChallenger<Witness = F> + CanObserve<Hash<F, u8, 32>>
{
}

/// Upstream's byte sponge `HashChallenger<u8, H, 32>` (what `SerializingChallenger32/64` wrap),
/// drawing the same bytes from the same digests. Upstream pops each drawn byte from a `Vec`
/// and hashes its input through a byte iterator; here the input is hashed as one slice and a
/// draw of `N` bytes (`sample_array`, through which `SerializingChallenger32` reads every
/// challenge word and query index) is copied from the digest in one step.
#[derive(Clone, Debug)]
pub struct ByteSponge<H> {
    /// The bytes to hash at the next draw: the last digest (the chaining value), then
    /// everything observed since. While nothing has been observed since the last digest,
    /// its first `left` bytes are the ones not drawn yet (upstream pops them from the back);
    /// kept only here, so the sponge is no larger than upstream's two `Vec`s on the stack.
    input: Vec<u8>,
    left: usize,
    hasher: H,
}

impl<H: CryptographicHasher<u8, [u8; 32]>> ByteSponge<H> {
    /// A sponge that has observed `initial` (upstream's `HashChallenger::new`).
    pub fn new(initial: Vec<u8>, hasher: H) -> Self {
        Self {
            input: initial,
            left: 0,
            hasher,
        }
    }

    fn flush(&mut self) {
        let digest = self.hasher.hash_slice(&self.input);
        self.input.clear();
        self.input.extend_from_slice(&digest);
        self.left = digest.len();
    }
}

impl<H> CanObserve<u8> for ByteSponge<H> {
    fn observe(&mut self, value: u8) {
        // Observing discards the undrawn digest bytes (upstream clears its output).
        self.left = 0;
        self.input.push(value);
    }

    #[inline(always)]
    fn observe_slice(&mut self, values: &[u8]) {
        if values.is_empty() {
            return;
        }
        self.left = 0;
        // A field word (what `SerializingChallenger32/64` observe, one per coefficient) is
        // appended as a fixed-size copy: through `extend_from_slice` each paid a `memcpy`
        // call, about 70 instructions for 4 bytes on the M33.
        if let Ok(word) = <&[u8; 4]>::try_from(values) {
            append(&mut self.input, word);
        } else if let Ok(word) = <&[u8; 8]>::try_from(values) {
            append(&mut self.input, word);
        } else {
            self.input.extend_from_slice(values);
        }
    }
}

/// `bytes` appended to `v` as one copy of a known length, so no `memcpy` call, written
/// through a local pointer, so `v`'s length is not reloaded after each byte.
#[inline(always)]
fn append<const N: usize>(v: &mut Vec<u8>, bytes: &[u8; N]) {
    v.reserve(N);
    let at = v.len();
    // SAFETY: the `N` bytes past `at` lie within the capacity reserved above (an array of
    // bytes needs no alignment); they are written before the length covers them.
    unsafe {
        v.as_mut_ptr().add(at).cast::<[u8; N]>().write(*bytes);
        v.set_len(at + N);
    }
}

impl<H: CryptographicHasher<u8, [u8; 32]>> CanSample<u8> for ByteSponge<H> {
    fn sample(&mut self) -> u8 {
        if self.left == 0 {
            self.flush();
        }
        self.left -= 1;
        self.input[self.left]
    }

    #[inline]
    fn sample_array<const N: usize>(&mut self) -> [u8; N] {
        if self.left == 0 {
            self.flush();
        }
        if N > self.left {
            // Across a digest boundary: byte by byte, as upstream.
            return core::array::from_fn(|_| self.sample());
        }
        let start = self.left - N;
        let mut out = [0u8; N];
        for (o, &b) in out
            .iter_mut()
            .zip(self.input[start..self.left].iter().rev())
        {
            *o = b;
        }
        self.left = start;
        out
    }
}

// The verifier only checks a witness; the prover's search (the default, by cloning) is never
// run on this sponge.
impl<H: CryptographicHasher<u8, [u8; 32]> + Clone + Send + Sync> ByteGrindingChallenger
    for ByteSponge<H>
{
}

/// Which upstream protocol a seed is for, with its name as bound into the protocol id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// `p3-uni-stark`: the STARK's own steps.
    UniStark,
    /// `p3-fri-pcs`: the batch-opening claims and the batching challenge.
    FriPcs,
    /// `p3-fri`: the low-degree test.
    Fri,
    /// Another protocol (the circle PCS), named as upstream names it.
    Other(&'static [u8]),
}

impl Protocol {
    fn name(self) -> &'static [u8] {
        match self {
            Protocol::UniStark => b"p3-uni-stark",
            Protocol::FriPcs => b"p3-fri-pcs",
            Protocol::Fri => b"p3-fri",
            Protocol::Other(name) => name,
        }
    }
}

/// The pattern hash for `(protocol, F, EF, params)`: from [`PATTERNS`] when listed, else
/// computed by `fallback` (upstream's own rendering and Keccak).
pub fn pattern_hash<F: PrimeField64, EF: ExtensionField<F>>(
    protocol: Protocol,
    params: &[u32],
    fallback: impl FnOnce() -> [u8; 32],
) -> [u8; 32] {
    let name = protocol.name();
    let degree = EF::DIMENSION as u64;
    PATTERNS
        .iter()
        .chain(CIRCLE_PATTERNS)
        .find(|e| {
            e.modulus == F::ORDER_U64
                && u64::from(e.degree) == degree
                && e.protocol == name
                && e.params == params
        })
        .map(|e| e.hash)
        .unwrap_or_else(fallback)
}

fn usize_param(v: u32) -> usize {
    v as usize
}

/// The uni-stark pattern hash; `params = [num_public_values]` (no preprocessed trace, no
/// randomization, no out-of-domain grinding: what our configurations use).
pub fn stark_pattern<F: PrimeField64, EF: ExtensionField<F>>(params: &[u32; 1]) -> [u8; 32] {
    pattern_hash::<F, EF>(Protocol::UniStark, params, || {
        upstream_stark_pattern::<F, EF>(params[0])
    })
}

/// The uni-stark pattern hash as upstream computes it (rendered text, Keccak).
#[cold]
pub fn upstream_stark_pattern<F: PrimeField64, EF: ExtensionField<F>>(
    num_public_values: u32,
) -> [u8; 32] {
    p3_uni_stark::StarkShape {
        log_ext_degree: 0,
        log_degree: 0,
        main_width: 0,
        preprocessed_width: 0,
        num_public_values: usize_param(num_public_values),
        num_periodic_columns: 0,
        num_quotient_chunks: 0,
        opens_main_next_row: true,
        opens_preprocessed_next_row: false,
        has_randomization: false,
        ood_pow_bits: 0,
    }
    .pattern::<F, EF>()
    .pattern_hash()
}

/// The PCS pattern hash; `params` = the number of values claimed at each opening point, in
/// claim order (no batch grinding).
pub fn pcs_pattern<F: PrimeField64, EF: ExtensionField<F>>(params: &[u32]) -> [u8; 32] {
    pattern_hash::<F, EF>(Protocol::FriPcs, params, || {
        let widths = params
            .iter()
            .map(|&w| alloc::vec![usize_param(w)])
            .collect();
        p3_fri::PcsShape {
            claimed_evaluation_counts: alloc::vec![widths],
            batch_pow_bits: 0,
        }
        .pattern::<F, EF>()
        .pattern_hash()
    })
}

/// The FRI pattern hash; `params = [rounds, final_poly_len, query_pow_bits, index_bits,
/// num_queries]` (no commit-phase grinding).
pub fn fri_pattern<F: PrimeField64, EF: ExtensionField<F>>(params: &[u32; 5]) -> [u8; 32] {
    pattern_hash::<F, EF>(Protocol::Fri, params, || {
        p3_fri::FriShape {
            log_arities: alloc::vec![1; usize_param(params[0])],
            final_poly_len: usize_param(params[1]),
            commit_pow_bits: 0,
            query_pow_bits: usize_param(params[2]),
            num_queries: usize_param(params[4]),
            index_bits: usize_param(params[3]),
            log_blowup: 0,
            max_log_arity: 0,
        }
        .pattern::<F, EF>()
        .pattern_hash()
    })
}

/// Packs a byte string into field elements as upstream's `FieldUnit` alphabet does: the
/// length first, then little-endian chunks of one byte less than the modulus holds.
struct SeedPacker<'c, F, C> {
    ch: &'c mut C,
    acc: u64,
    filled: usize,
    _f: PhantomData<F>,
}

impl<'c, F: WireField, C: CanObserve<F>> SeedPacker<'c, F, C> {
    const CHUNK: usize = ((u64::BITS - F::ORDER_U64.leading_zeros()) as usize - 1) / 8;

    fn new(ch: &'c mut C, total_len: usize) -> Self {
        ch.observe(Self::element(total_len as u64));
        Self {
            ch,
            acc: 0,
            filled: 0,
            _f: PhantomData,
        }
    }

    fn push(&mut self, bytes: &[u8]) {
        // Top up a partial chunk, then take whole chunks straight from the input.
        let split = ((Self::CHUNK - self.filled) % Self::CHUNK).min(bytes.len());
        let (head, rest) = bytes.split_at(split);
        for &b in head {
            self.push_byte(b);
        }
        let mut chunks = rest.chunks_exact(Self::CHUNK);
        for c in &mut chunks {
            self.ch.observe(Self::element(le_word(c)));
        }
        for &b in chunks.remainder() {
            self.push_byte(b);
        }
    }

    fn push_byte(&mut self, b: u8) {
        // A 31-bit field's chunk (three bytes) is shifted as a 32-bit word: a variable 64-bit
        // shift is a branchy sequence on 32-bit cores.
        self.acc |= if Self::CHUNK <= 3 {
            u64::from(u32::from(b) << (8 * self.filled))
        } else {
            u64::from(b) << (8 * self.filled)
        };
        self.filled += 1;
        if self.filled == Self::CHUNK {
            self.ch.observe(Self::element(self.acc));
            self.acc = 0;
            self.filled = 0;
        }
    }

    /// A chunk as a field element: it is below the modulus; a 31-bit field's three-byte chunk
    /// is converted without a 64-bit reduction (a software division on 32-bit cores).
    fn element(acc: u64) -> F {
        if Self::CHUNK <= 3 {
            F::from_small(acc as u32)
        } else {
            F::from_u64(acc)
        }
    }

    fn finish(self) {
        if self.filled > 0 {
            self.ch.observe(Self::element(self.acc));
        }
    }
}

/// Up to eight bytes as a little-endian word (32-bit arithmetic for a 31-bit field's chunk).
fn le_word(c: &[u8]) -> u64 {
    if c.len() <= 4 {
        let mut w = 0u32;
        for (i, &b) in c.iter().enumerate() {
            w |= u32::from(b) << (8 * i);
        }
        u64::from(w)
    } else {
        let mut w = 0u64;
        for (i, &b) in c.iter().enumerate() {
            w |= u64::from(b) << (8 * i);
        }
        w
    }
}

/// Upstream's protocol-id length.
const PROTOCOL_ID_LEN: usize = 64;
/// Upstream's separator version byte.
const VERSION: u8 = 1;
/// Upstream's closing domain tag.
const DOMAIN_TAG: u8 = 0x80;

/// The lean Fiat-Shamir transcript over challenger `C`, base field `F`, challenges `EF`.
pub struct Transcript<F, EF, C> {
    ch: C,
    _f: PhantomData<(F, EF)>,
}

impl<F, EF, C> Transcript<F, EF, C>
where
    F: WireField,
    EF: ExtensionField<F>,
    C: LeanChallenger<F>,
{
    /// A transcript continuing from `challenger` (already holding the statement bytes).
    pub fn new(challenger: C) -> Self {
        Self {
            ch: challenger,
            _f: PhantomData,
        }
    }

    /// The challenger, for a PCS that drives it directly.
    pub fn challenger(&mut self) -> &mut C {
        &mut self.ch
    }

    /// Absorbs a domain separator: `protocol`'s id, `pattern_hash`, and the instance label
    /// made of `instance` (each value as upstream's `instance(&(v as u64).to_be_bytes())`),
    /// then, when `layout` is not empty, one more instance entry holding all its values (each
    /// a big-endian `u64`: the circle PCS's opening layout).
    pub fn seed(
        &mut self,
        protocol: Protocol,
        pattern_hash: &[u8; 32],
        instance: &[u64],
        layout: &[u64],
    ) {
        let name = protocol.name();
        debug_assert!(!name.is_empty() && name.len() <= PROTOCOL_ID_LEN - 2);
        let layout_len = if layout.is_empty() {
            0
        } else {
            4 + 8 * layout.len()
        };
        let label_len = instance.len() * 12 + layout_len;
        let total = PROTOCOL_ID_LEN + 32 + 4 + label_len + 1;
        let mut p = SeedPacker::<F, C>::new(&mut self.ch, total);
        let mut id = [0u8; PROTOCOL_ID_LEN];
        id[0] = VERSION;
        id[1..1 + name.len()].copy_from_slice(name);
        id[PROTOCOL_ID_LEN - 1] = name.len() as u8;
        p.push(&id);
        p.push(pattern_hash);
        p.push(&(label_len as u32).to_be_bytes());
        for v in instance {
            p.push(&8u32.to_be_bytes());
            p.push(&v.to_be_bytes());
        }
        if !layout.is_empty() {
            p.push(&((8 * layout.len()) as u32).to_be_bytes());
            for v in layout {
                p.push(&v.to_be_bytes());
            }
        }
        p.push(&[DOMAIN_TAG]);
        p.finish();
    }

    /// Absorbs a commitment (one 32-byte Merkle root).
    pub fn observe_digest(&mut self, digest: &[u8; 32]) {
        self.ch.observe(Hash::from(*digest));
    }

    /// Absorbs a base-field element.
    pub fn observe_base(&mut self, v: F) {
        self.ch.observe(v);
    }

    /// Absorbs a challenge-field element, coefficient by coefficient.
    pub fn observe_ext(&mut self, v: &EF) {
        self.ch.observe_slice(v.as_basis_coefficients_slice());
    }

    /// Draws a challenge-field element, one base coefficient at a time.
    pub fn sample_ext(&mut self) -> EF {
        EF::from_basis_coefficients_fn(|_| self.ch.sample())
    }

    /// Draws `bits` bits (a query index).
    pub fn sample_bits(&mut self, bits: usize) -> usize {
        self.ch.sample_bits(bits)
    }

    /// The proof-of-work check: absorbs `witness` and requires `bits` zero bits.
    pub fn check_pow(&mut self, bits: usize, witness: F) -> bool {
        self.ch.check_witness(bits, witness)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;
    use p3_baby_bear::BabyBear;
    use p3_challenger::fs::{DomainSeparator, FieldUnit, InteractionPattern};
    use p3_challenger::CanSampleBits;
    use p3_field::extension::BinomialExtensionField;
    use p3_goldilocks::Goldilocks;

    /// Records what is observed, to compare seeds element by element.
    #[derive(Clone, Default)]
    struct Recorder<F>(Vec<F>);

    impl<F: Clone> CanObserve<F> for Recorder<F> {
        fn observe(&mut self, v: F) {
            self.0.push(v);
        }
    }

    fn upstream_seed<F: WireField>(
        name: &[u8],
        pattern: InteractionPattern,
        instance: &[u64],
    ) -> Vec<F> {
        let mut ds = DomainSeparator::<FieldUnit<F>>::new(1, name, pattern);
        for v in instance {
            ds.instance(&v.to_be_bytes());
        }
        let mut rec = Recorder::<F>::default();
        ds.seed(&mut rec);
        rec.0
    }

    fn lean_seed<F: WireField>(name: &'static [u8], hash: [u8; 32], instance: &[u64]) -> Vec<F> {
        let mut rec = Recorder::<F>::default();
        let total = PROTOCOL_ID_LEN + 32 + 4 + instance.len() * 12 + 1;
        let mut p = SeedPacker::<F, _>::new(&mut rec, total);
        let mut id = [0u8; PROTOCOL_ID_LEN];
        id[0] = VERSION;
        id[1..1 + name.len()].copy_from_slice(name);
        id[PROTOCOL_ID_LEN - 1] = name.len() as u8;
        p.push(&id);
        p.push(&hash);
        p.push(&((instance.len() * 12) as u32).to_be_bytes());
        for v in instance {
            p.push(&8u32.to_be_bytes());
            p.push(&v.to_be_bytes());
        }
        p.push(&[DOMAIN_TAG]);
        p.finish();
        rec.0
    }

    fn seeds_agree<F: WireField, EF: ExtensionField<F>>() {
        let fri = p3_fri::FriShape {
            log_arities: alloc::vec![4, 4],
            final_poly_len: 4,
            commit_pow_bits: 0,
            query_pow_bits: 20,
            num_queries: 14,
            index_bits: 16,
            log_blowup: 6,
            max_log_arity: 4,
        };
        let pattern = fri.pattern::<F, EF>();
        let hash = pattern.pattern_hash();
        // Our FRI pattern computation (table or fallback) equals upstream's.
        assert_eq!(fri_pattern::<F, EF>(&[2, 4, 20, 16, 14]), hash);
        let instance = [6u64, 4, 4, 4];
        assert_eq!(
            lean_seed::<F>(b"p3-fri", hash, &instance),
            upstream_seed::<F>(b"p3-fri", pattern, &instance)
        );
        // One instance value off changes the seed.
        assert_ne!(
            lean_seed::<F>(b"p3-fri", hash, &[6, 4, 4, 3]),
            upstream_seed::<F>(b"p3-fri", fri.pattern::<F, EF>(), &instance)
        );
    }

    #[test]
    fn seeds_equal_upstream_domain_separators() {
        seeds_agree::<BabyBear, BinomialExtensionField<BabyBear, 4>>();
        seeds_agree::<Goldilocks, BinomialExtensionField<Goldilocks, 2>>();
    }

    /// The same observations and draws on our sponge and upstream's, byte by byte and in
    /// arrays that start at every offset of a digest (some across its end).
    fn sponge_agrees<H: CryptographicHasher<u8, [u8; 32]> + Clone>(hasher: H) {
        use p3_challenger::HashChallenger;
        let mut ours = ByteSponge::new(alloc::vec![7, 8, 9], hasher.clone());
        let mut theirs = HashChallenger::<u8, H, 32>::new(alloc::vec![7, 8, 9], hasher);
        for round in 0..40u8 {
            if round % 3 == 0 {
                CanObserve::<u8>::observe(&mut ours, round);
                CanObserve::<u8>::observe(&mut theirs, round);
            }
            if round % 5 == 1 {
                CanObserve::<u8>::observe_slice(&mut ours, &[round; 5]);
                CanObserve::<u8>::observe_slice(&mut theirs, &[round; 5]);
            }
            // An empty slice keeps the undrawn bytes, as upstream's.
            CanObserve::<u8>::observe_slice(&mut ours, &[]);
            CanObserve::<u8>::observe_slice(&mut theirs, &[]);
            let b: u8 = ours.sample();
            assert_eq!(b, CanSample::<u8>::sample(&mut theirs), "round {round}");
            let w: [u8; 4] = ours.sample_array();
            assert_eq!(w, CanSample::<u8>::sample_array::<4>(&mut theirs));
            let d: [u8; 7] = ours.sample_array();
            assert_eq!(d, CanSample::<u8>::sample_array::<7>(&mut theirs));
        }
    }

    #[test]
    fn byte_sponge_draws_equal_upstream_hash_challenger() {
        sponge_agrees(crate::hash::Blake3Lean);
        sponge_agrees(crate::hash::Sha256Lean);
    }

    #[test]
    fn circle_transcript_draws_equal_upstream_challenger_draws() {
        use p3_challenger::{HashChallenger, SerializingChallenger32};
        use p3_mersenne_31::{Mersenne31, QM31};
        type H = crate::hash::Blake3Lean;
        type Theirs = SerializingChallenger32<Mersenne31, HashChallenger<u8, H, 32>>;
        type Ours = SerializingChallenger32<Mersenne31, ByteSponge<H>>;
        let mut theirs = Theirs::new(HashChallenger::new(
            alloc::vec![1, 2, 3],
            crate::hash::Blake3Lean,
        ));
        let mut lean = Transcript::<Mersenne31, QM31, Ours>::new(Ours::new(ByteSponge::new(
            alloc::vec![1, 2, 3],
            crate::hash::Blake3Lean,
        )));
        for round in 0..6u8 {
            lean.observe_digest(&[round; 32]);
            theirs.observe(Hash::<Mersenne31, u8, 32>::from([round; 32]));
            let v = QM31::from(Mersenne31::new(u32::from(round) + 5));
            lean.observe_ext(&v);
            theirs.observe_algebra_element(v);
            // Up to three challenges (48 bytes, past one digest), then query indices.
            for _ in 0..=round % 3 {
                let a: QM31 = theirs.sample_algebra_element();
                assert_eq!(lean.sample_ext(), a, "round {round}");
            }
            for _ in 0..14 {
                assert_eq!(lean.sample_bits(16), theirs.sample_bits(16));
            }
        }
        // A proof-of-work witness upstream's prover finds passes ours, and draws stay equal.
        let witness = theirs.clone().grind(8);
        assert!(lean.check_pow(8, witness));
        assert!(theirs.check_witness(8, witness));
        assert_eq!(lean.sample_bits(20), theirs.sample_bits(20));
        // A witness that fails upstream's check fails ours.
        let wrong = (0..64u32)
            .map(Mersenne31::new)
            .find(|&w| !theirs.clone().check_witness(8, w))
            .unwrap();
        assert!(!lean.check_pow(8, wrong));
    }

    /// Our transcript over [`ByteSponge`] (what the two-adic verifiers run) against upstream's
    /// challenger over `HashChallenger`: the same challenges and query indices.
    fn two_adic_draws_agree<F, EF, Ours, Theirs>(ours: impl Fn() -> Ours, mut upstream: Theirs)
    where
        F: WireField,
        EF: ExtensionField<F>,
        Ours: LeanChallenger<F>,
        Theirs: FieldChallenger<F> + CanObserve<Hash<F, u8, 32>>,
    {
        let mut lean = Transcript::<F, EF, Ours>::new(ours());
        lean.observe_digest(&[9; 32]);
        upstream.observe(Hash::<F, u8, 32>::from([9; 32]));
        let a: EF = upstream.sample_algebra_element();
        assert_eq!(lean.sample_ext(), a);
        assert_eq!(lean.sample_bits(20), upstream.sample_bits(20));
        let b: EF = upstream.sample_algebra_element();
        assert_eq!(lean.sample_ext(), b);
        for _ in 0..12 {
            assert_eq!(lean.sample_bits(18), upstream.sample_bits(18));
        }
        // A different observation diverges.
        let mut other = Transcript::<F, EF, Ours>::new(ours());
        other.observe_digest(&[8; 32]);
        assert_ne!(other.sample_ext(), a);
    }

    #[test]
    fn transcript_draws_equal_upstream_challenger_draws() {
        use p3_challenger::{HashChallenger, SerializingChallenger32, SerializingChallenger64};
        type H = crate::hash::Blake3Lean;
        let seed = || alloc::vec![1, 2, 3];
        two_adic_draws_agree::<BabyBear, BinomialExtensionField<BabyBear, 4>, _, _>(
            || SerializingChallenger32::<BabyBear, _>::new(ByteSponge::new(seed(), H {})),
            SerializingChallenger32::<BabyBear, _>::new(HashChallenger::<u8, H, 32>::new(
                seed(),
                H {},
            )),
        );
        two_adic_draws_agree::<Goldilocks, BinomialExtensionField<Goldilocks, 2>, _, _>(
            || SerializingChallenger64::<Goldilocks, _>::new(ByteSponge::new(seed(), H {})),
            SerializingChallenger64::<Goldilocks, _>::new(HashChallenger::<u8, H, 32>::new(
                seed(),
                H {},
            )),
        );
    }
}

//! An in-place reader of postcard-encoded Plonky3 proofs: the lean verifiers walk the borrowed
//! payload with it instead of decoding an owned `Proof` tree.
//!
//! It accepts exactly the encodings the stock path's `decode::decode` accepts for the types in a
//! proof (so a verdict never depends on which decoder ran), which are the ones postcard
//! writes: minimal varints only (postcard would also read trailing zero groups; one proof has
//! one encoding), sequence lengths of at most 32 bits on every target (what a 32-bit MCU's
//! postcard reads), `Option` tags 0/1, raw `u8`s, and field
//! elements in their fixed-width wire form ([`WireField`]: little-endian words, refused when
//! `>= p` as the fields' own `Deserialize` refuses them). Every length the caller reads is
//! compared with the value the header implies ([`Reader::expect_len`]) before anything is read
//! under it, and nothing is ever allocated: slices borrow the payload.

use p3_baby_bear::BabyBear;

use p3_field::{
    BasedVectorSpace, ExtensionField, PrimeCharacteristicRing, PrimeField32, PrimeField64,
};
use p3_goldilocks::Goldilocks;

use p3_mersenne_31::Mersenne31;
use picostark_core::{Check, Failures, VerifyError};
use picostark_field::goldilocks::{self as gl, Cols};

use super::ext::{ours, upstream};

/// The error of every malformed payload.
pub const MALFORMED: VerifyError = VerifyError::MalformedProof("payload is not a Plonky3 proof");

/// A base field whose binary serde form is its fixed-width little-endian word: what
/// upstream writes (`serialize` of a non-human-readable format) and what a Merkle leaf hashes
/// (`into_bytes`), the same bytes for our three fields. Read straight from the payload,
/// without serde's visitor machinery or a conversion.
pub trait WireField: PrimeField64 + crate::membership::MembershipField {
    /// Bytes of one element on the wire.
    const WIRE_LEN: usize;

    /// The element whose wire form is `word` (its low `WIRE_LEN` bytes), or `None` for a
    /// non-canonical word (`>= p`), as the field's `Deserialize` decides.
    fn from_wire(word: u64) -> Option<Self>;

    /// The element of canonical value `v < 2^24` without a 64-bit reduction (a software
    /// division on 32-bit cores): the transcript's seed chunks.
    fn from_small(v: u32) -> Self;

    /// An unreduced sum of products (`sum a_i b_i`), reduced once by [`Self::dot_finish`]:
    /// the DEEP row reduction's inner loop. Goldilocks keeps the products in 32-bit columns
    /// ([`Cols`]: fewer than `2^30` products cannot overflow them); the 31-bit fields keep a
    /// field element.
    type DotAcc: Copy + Default;

    /// `acc += a * b`.
    fn dot_add(acc: &mut Self::DotAcc, a: Self, b: Self);

    /// The field element the accumulated sum is congruent to.
    fn dot_finish(acc: Self::DotAcc) -> Self;

    /// `a * b` in the challenge field `EF`: upstream's product unless this base field has a
    /// faster one of ours with the same value (Goldilocks^3: [`picostark_field::goldilocks`]).
    #[inline(always)]
    fn ext_mul<EF: ExtensionField<Self>>(a: EF, b: EF) -> EF {
        a * b
    }

    /// `a * b` for `b` in the base field, as [`Self::ext_mul`].
    #[inline(always)]
    fn ext_mul_base<EF: ExtensionField<Self>>(a: EF, b: Self) -> EF {
        a * b
    }

    /// `a + b` in the challenge field, as [`Self::ext_mul`].
    #[inline(always)]
    fn ext_add<EF: ExtensionField<Self>>(a: EF, b: EF) -> EF {
        a + b
    }

    /// `a - b` in the challenge field, as [`Self::ext_mul`].
    #[inline(always)]
    fn ext_sub<EF: ExtensionField<Self>>(a: EF, b: EF) -> EF {
        a - b
    }

    /// `self^-1`, `None` for zero: upstream's unless ours is faster with the same value.
    #[inline(always)]
    fn base_inverse(self) -> Option<Self> {
        self.try_inverse()
    }

    /// `a * a` in the challenge field, as [`Self::ext_mul`].
    #[inline(always)]
    fn ext_square<EF: ExtensionField<Self>>(a: EF) -> EF {
        a.square()
    }

    /// `a / 2` in the challenge field, as [`Self::ext_mul`].
    #[inline(always)]
    fn ext_halve<EF: ExtensionField<Self>>(a: EF) -> EF {
        a.halve()
    }

    /// `a^-1` in the challenge field, `None` for zero, as [`Self::ext_mul`].
    #[inline(always)]
    fn ext_inverse<EF: ExtensionField<Self>>(a: EF) -> Option<EF> {
        a.try_inverse()
    }
}

/// The hooks of [`WireField`] for a 31-bit base field whose challenge fields have twins of
/// ours (`$ours`, [`super::ext`], tried in turn, each test decided at compile time); every
/// other extension runs upstream's code.
macro_rules! ext_hooks_of_ours {
    ($($ours:ty),+) => {
        #[inline(always)]
        fn ext_mul<EF: ExtensionField<Self>>(a: EF, b: EF) -> EF {
            $(if let (Some(x), Some(y)) = (ours::<$ours, _>(&a), ours::<$ours, _>(&b)) {
                return upstream(x.mul(y));
            })+
            a * b
        }

        #[inline(always)]
        fn ext_mul_base<EF: ExtensionField<Self>>(a: EF, b: Self) -> EF {
            $(if let Some(x) = ours::<$ours, _>(&a) {
                // SAFETY: the base field is `#[repr(transparent)]` over its `u32` word, the
                // same word as ours (see `super::ext`).
                return upstream(x.mul_base(unsafe { core::mem::transmute_copy(&b) }));
            })+
            a * b
        }

        #[inline(always)]
        fn ext_add<EF: ExtensionField<Self>>(a: EF, b: EF) -> EF {
            $(if let (Some(x), Some(y)) = (ours::<$ours, _>(&a), ours::<$ours, _>(&b)) {
                return upstream(x.add(y));
            })+
            a + b
        }

        #[inline(always)]
        fn ext_sub<EF: ExtensionField<Self>>(a: EF, b: EF) -> EF {
            $(if let (Some(x), Some(y)) = (ours::<$ours, _>(&a), ours::<$ours, _>(&b)) {
                return upstream(x.sub(y));
            })+
            a - b
        }

        #[inline(always)]
        fn ext_square<EF: ExtensionField<Self>>(a: EF) -> EF {
            $(if let Some(x) = ours::<$ours, _>(&a) {
                return upstream(x.square());
            })+
            a.square()
        }

        #[inline(always)]
        fn ext_inverse<EF: ExtensionField<Self>>(a: EF) -> Option<EF> {
            $(if let Some(x) = ours::<$ours, _>(&a) {
                return (!x.is_zero()).then(|| upstream(x.inverse()));
            })+
            a.try_inverse()
        }
    };
}

/// `2^32 mod p` as a BabyBear element (a compile-time constant).
const BABYBEAR_R: BabyBear = BabyBear::new(((1u64 << 32) % 0x7800_0001) as u32);

impl WireField for BabyBear {
    const WIRE_LEN: usize = 4;

    /// BabyBear is serialized in Montgomery form (`w = v * 2^32 mod p`), its internal word.
    fn from_wire(word: u64) -> Option<Self> {
        let w = word as u32;
        if w >= Self::ORDER_U32 {
            return None;
        }
        // SAFETY: `MontyField31` is `#[repr(transparent)]` over its `u32` Montgomery word (the
        // other field is a `PhantomData`), and `w < p` is the word invariant upstream's own
        // `Deserialize` checks before building the element from the same word (`new_monty`,
        // crate-private). The safe constructors take a canonical value and reduce it with a
        // 64-bit division (a library call on 32-bit cores), once per element read.
        Some(unsafe { core::mem::transmute::<u32, BabyBear>(w) })
    }

    fn from_small(v: u32) -> Self {
        // The element with Montgomery word `v` has value `v / 2^32`; times `2^32`, it is `v`.
        Self::from_wire(u64::from(v)).unwrap_or(Self::ZERO) * BABYBEAR_R
    }

    type DotAcc = Self;

    fn dot_add(acc: &mut Self, a: Self, b: Self) {
        *acc += a * b;
    }

    fn dot_finish(acc: Self) -> Self {
        acc
    }

    ext_hooks_of_ours!(picostark_field::BabyBear4, picostark_field::BabyBear5);
}

impl WireField for Goldilocks {
    const WIRE_LEN: usize = 8;

    fn from_wire(word: u64) -> Option<Self> {
        (word < Self::ORDER_U64).then(|| Goldilocks::new(word))
    }

    fn from_small(v: u32) -> Self {
        Goldilocks::new(u64::from(v))
    }

    /// The products' sum in 32-bit columns ([`Cols`]: a `u128` product is a long generic
    /// expansion on 32-bit cores).
    type DotAcc = Cols;

    #[inline(always)]
    fn dot_add(acc: &mut Cols, a: Self, b: Self) {
        acc.mac(word_of(a), word_of(b));
    }

    fn dot_finish(acc: Cols) -> Self {
        Goldilocks::new(acc.reduce())
    }

    /// Goldilocks^3 runs ours; Goldilocks^2 (the default challenge field) upstream's: p3-field
    /// 0.8 already sums each of its coefficients' two products lazily, and ours measured slower
    /// (`results/field-bench`: product 175 / 198.5 instructions at best against 142.48 / 191.2,
    /// M33 / Hazard3); routed here at 3ecacfe it made the p3-goldilocks Fib 2^10 verification
    /// 6.4 % (BLAKE3) and 8.8 % (SHA-256 engine) longer on the M33 (issue 44).
    #[inline(always)]
    fn ext_mul<EF: ExtensionField<Self>>(a: EF, b: EF) -> EF {
        match (ours::<[u64; 3], _>(&a), ours::<[u64; 3], _>(&b)) {
            (Some(x), Some(y)) => upstream(gl::cubic_mul(&x, &y)),
            _ => a * b,
        }
    }

    #[inline(always)]
    fn ext_mul_base<EF: ExtensionField<Self>>(a: EF, b: Self) -> EF {
        match ours::<[u64; 3], _>(&a) {
            Some(x) => upstream(gl::cubic_mul_base(&x, word_of(b))),
            None => a * b,
        }
    }

    #[inline(always)]
    fn ext_add<EF: ExtensionField<Self>>(a: EF, b: EF) -> EF {
        match (ours::<[u64; 3], _>(&a), ours::<[u64; 3], _>(&b)) {
            (Some(x), Some(y)) => upstream(gl::cubic_add(&x, &y)),
            _ => a + b,
        }
    }

    #[inline(always)]
    fn ext_sub<EF: ExtensionField<Self>>(a: EF, b: EF) -> EF {
        match (ours::<[u64; 3], _>(&a), ours::<[u64; 3], _>(&b)) {
            (Some(x), Some(y)) => upstream(gl::cubic_sub(&x, &y)),
            _ => a - b,
        }
    }
}

/// A Goldilocks element's word (not necessarily canonical: any word is an element).
#[inline(always)]
fn word_of(g: Goldilocks) -> u64 {
    // SAFETY: `Goldilocks` is `#[repr(transparent)]` over its `u64` word.
    unsafe { core::mem::transmute::<Goldilocks, u64>(g) }
}

impl WireField for Mersenne31 {
    const WIRE_LEN: usize = 4;

    fn from_wire(word: u64) -> Option<Self> {
        let w = word as u32;
        if w >= Self::ORDER_U32 {
            return None;
        }
        Mersenne31::new_checked(w)
    }

    fn from_small(v: u32) -> Self {
        Mersenne31::new_checked(v).unwrap_or(Self::ZERO)
    }

    type DotAcc = Self;

    fn dot_add(acc: &mut Self, a: Self, b: Self) {
        *acc += a * b;
    }

    fn dot_finish(acc: Self) -> Self {
        acc
    }

    ext_hooks_of_ours!(picostark_field::QM31);

    /// An addition chain of 30 squarings and 8 products (upstream: a binary-GCD loop, about
    /// ten times the instructions on the M33, `results/baseline/circle-gap.md`).
    #[inline]
    fn base_inverse(self) -> Option<Self> {
        let ours = picostark_field::M31::from_raw(self.as_canonical_u32()).try_inverse()?;
        Mersenne31::new_checked(ours.value())
    }

    #[inline(always)]
    fn ext_halve<EF: ExtensionField<Self>>(a: EF) -> EF {
        match ours::<picostark_field::QM31, _>(&a) {
            Some(x) => upstream(x.halve()),
            None => a.halve(),
        }
    }
}

/// A cursor over a borrowed postcard payload.
#[derive(Clone, Debug)]
pub struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        Self { bytes, pos: 0 }
    }

    /// Bytes consumed so far.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// The next `n` bytes, borrowed.
    pub fn take(&mut self, n: usize) -> Result<&'a [u8], VerifyError> {
        let end = self.pos.checked_add(n).ok_or(MALFORMED)?;
        let slice = self.bytes.get(self.pos..end).ok_or(MALFORMED)?;
        self.pos = end;
        Ok(slice)
    }

    /// One raw byte (postcard's `u8`).
    pub fn byte(&mut self) -> Result<u8, VerifyError> {
        let b = *self.bytes.get(self.pos).ok_or(MALFORMED)?;
        self.pos += 1;
        Ok(b)
    }

    /// A minimal varint of at most `max_bytes` bytes whose last byte is at most `last_max`:
    /// postcard's encoding of the value. A last byte of zero after others (an overlong form,
    /// which postcard would read) is malformed.
    fn varint(&mut self, max_bytes: usize, last_max: u8) -> Result<u64, VerifyError> {
        let mut out = 0u64;
        for i in 0..max_bytes {
            let b = self.byte()?;
            out |= u64::from(b & 0x7f) << (7 * i);
            if b & 0x80 == 0 {
                if (i == max_bytes - 1 && b > last_max) || (i > 0 && b == 0) {
                    return Err(MALFORMED);
                }
                return Ok(out);
            }
        }
        Err(MALFORMED)
    }

    /// A `u64` (postcard varint, up to 10 bytes).
    pub fn u64(&mut self) -> Result<u64, VerifyError> {
        self.varint(10, 0x01)
    }

    /// A `usize` field: serde reads it as a `u64` and refuses what does not fit.
    pub fn usize(&mut self) -> Result<usize, VerifyError> {
        usize::try_from(self.u64()?).map_err(|_| MALFORMED)
    }

    /// A sequence length: postcard writes it as a varint of the writer's pointer width; we
    /// read at most 32 bits on every target, so the host's verdict is the MCU's (no proof
    /// holds a sequence of 2^32 elements).
    pub fn seq_len(&mut self) -> Result<usize, VerifyError> {
        let v = self.varint(5, 0x0f)?;
        usize::try_from(v).map_err(|_| MALFORMED)
    }

    /// A sequence length that must equal `expected` (a count the header fixes).
    pub fn expect_len(&mut self, expected: usize) -> Result<(), VerifyError> {
        if self.seq_len()? == expected {
            Ok(())
        } else {
            Err(VerifyError::MalformedProof(
                "a count in the proof differs from the one its header implies",
            ))
        }
    }

    /// An `Option` tag: `false` for `None`, `true` for `Some`.
    pub fn option(&mut self) -> Result<bool, VerifyError> {
        match self.byte()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(MALFORMED),
        }
    }

    /// A 32-byte digest (`[u8; 32]`: 32 raw bytes), borrowed.
    pub fn digest(&mut self) -> Result<&'a [u8; 32], VerifyError> {
        let s = self.take(32)?;
        s.try_into().map_err(|_| MALFORMED)
    }

    /// One base-field element in its wire form.
    pub fn elem<F: WireField>(&mut self) -> Result<F, VerifyError> {
        let bytes = self.take(F::WIRE_LEN)?;
        F::from_wire(word(bytes)).ok_or(MALFORMED)
    }

    /// `out.len()` base-field elements into `out`; returns the bytes they were read from
    /// (a Merkle leaf's hash input, see [`WireField`]).
    pub fn elems<F: WireField>(&mut self, out: &mut [F]) -> Result<&'a [u8], VerifyError> {
        let bytes = self.take(out.len() * F::WIRE_LEN)?;
        for (v, w) in out.iter_mut().zip(bytes.chunks_exact(F::WIRE_LEN)) {
            *v = F::from_wire(word(w)).ok_or(MALFORMED)?;
        }
        Ok(bytes)
    }

    /// `n` base-field elements, each handed to `each` with its position instead of stored
    /// (a row as wide as the trace needs no buffer); returns the bytes they were read from.
    pub fn elems_each<F: WireField>(
        &mut self,
        n: usize,
        mut each: impl FnMut(usize, F),
    ) -> Result<&'a [u8], VerifyError> {
        let bytes = self.take(n.checked_mul(F::WIRE_LEN).ok_or(MALFORMED)?)?;
        for (i, w) in bytes.chunks_exact(F::WIRE_LEN).enumerate() {
            each(i, F::from_wire(word(w)).ok_or(MALFORMED)?);
        }
        Ok(bytes)
    }

    /// `out.len()` challenge-field elements (each as [`Self::ext`] reads it) written in place:
    /// a returned `Result<EF, _>` was copied twice per element by library `memcpy` calls in
    /// the MCU build (`mcu-run --profile`).
    pub fn exts<F: WireField, EF: BasedVectorSpace<F>>(
        &mut self,
        out: &mut [EF],
    ) -> Result<(), VerifyError> {
        let len = EF::DIMENSION * F::WIRE_LEN;
        let bytes = self.take(out.len() * len)?;
        let mut ok = true;
        for (v, e) in out.iter_mut().zip(bytes.chunks_exact(len)) {
            *v = EF::from_basis_coefficients_fn(|i| {
                let w = &e[i * F::WIRE_LEN..(i + 1) * F::WIRE_LEN];
                F::from_wire(word(w)).unwrap_or_else(|| {
                    ok = false;
                    F::ZERO
                })
            });
        }
        if ok {
            Ok(())
        } else {
            Err(MALFORMED)
        }
    }

    /// A challenge-field element in the wire form of upstream's extension fields (`ExtField`
    /// serializes its coefficient array as a tuple): `EF::DIMENSION` base elements.
    pub fn ext<F: WireField, EF: BasedVectorSpace<F>>(&mut self) -> Result<EF, VerifyError> {
        let bytes = self.take(EF::DIMENSION * F::WIRE_LEN)?;
        let mut ok = true;
        let v = EF::from_basis_coefficients_fn(|i| {
            let w = &bytes[i * F::WIRE_LEN..(i + 1) * F::WIRE_LEN];
            F::from_wire(word(w)).unwrap_or_else(|| {
                ok = false;
                F::ZERO
            })
        });
        if ok {
            Ok(v)
        } else {
            Err(MALFORMED)
        }
    }

    /// [`Self::ext`] written into `out`: a returned `Result<EF, _>` is moved by a library
    /// `memcpy` call per element in the MCU build (opt-level `s`), a `Result<(), _>` is not.
    #[inline]
    pub fn ext_into<F: WireField, EF: BasedVectorSpace<F>>(
        &mut self,
        out: &mut EF,
    ) -> Result<(), VerifyError> {
        self.exts(core::slice::from_mut(out))
    }

    /// A proof-of-work witness that must be zero (a step without grinding): one that is not
    /// is recorded in `fails` and the reading goes on (issue 46).
    pub fn zero_witness<F: WireField>(&mut self, fails: &mut Failures) -> Result<(), VerifyError> {
        let witness = self.elem::<F>()?;
        fails.check(witness == F::ZERO, Check::GrindingWitness);
        Ok(())
    }

    /// The commit phase's fixed fields, as both PCSs lay them out: `rounds` one-root
    /// commitments into `roots`, then `rounds` grinding witnesses, each zero.
    pub fn commit_phase<F: WireField>(
        &mut self,
        roots: &mut [[u8; 32]],
        fails: &mut Failures,
    ) -> Result<(), VerifyError> {
        self.expect_len(roots.len())?;
        for d in roots.iter_mut() {
            self.expect_len(1)?;
            *d = *self.digest()?;
        }
        self.expect_len(roots.len())?;
        for _ in 0..roots.len() {
            self.zero_witness::<F>(fails)?;
        }
        Ok(())
    }

    /// Succeeds only if every byte was consumed.
    pub fn finish(&self) -> Result<(), VerifyError> {
        if self.pos == self.bytes.len() {
            Ok(())
        } else {
            Err(VerifyError::MalformedProof("bytes after the encoded proof"))
        }
    }
}

/// A little-endian word of 4 or 8 bytes.
fn word(bytes: &[u8]) -> u64 {
    match *bytes {
        [a, b, c, d] => u64::from(u32::from_le_bytes([a, b, c, d])),
        [a, b, c, d, e, f, g, h] => u64::from_le_bytes([a, b, c, d, e, f, g, h]),
        _ => u64::MAX,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;
    use alloc::vec::Vec;
    use p3_baby_bear::BabyBear;
    use p3_field::extension::BinomialExtensionField;

    type Ef4 = BinomialExtensionField<BabyBear, 4>;

    #[test]
    fn unreduced_dot_products_equal_the_field_sum() {
        // Goldilocks values near p, so every column carries many times over MAX_WIDTH terms.
        let p = Goldilocks::ORDER_U64;
        let a: Vec<Goldilocks> = (0..256u64)
            .map(|i| Goldilocks::new(p - 1 - i * 7))
            .collect();
        let b: Vec<Goldilocks> = (0..256u64)
            .map(|i| Goldilocks::new(p - 2 - i * i))
            .collect();
        let mut acc = <Goldilocks as WireField>::DotAcc::default();
        let mut want = Goldilocks::ZERO;
        for (&x, &y) in a.iter().zip(&b) {
            Goldilocks::dot_add(&mut acc, x, y);
            want += x * y;
        }
        assert_eq!(Goldilocks::dot_finish(acc), want);
        // One term changed changes the sum.
        Goldilocks::dot_add(&mut acc, Goldilocks::ONE, Goldilocks::ONE);
        assert_ne!(Goldilocks::dot_finish(acc), want);
        // The 31-bit fields reduce as they go.
        let mut acc = <BabyBear as WireField>::DotAcc::default();
        BabyBear::dot_add(&mut acc, BabyBear::new(5), BabyBear::new(7));
        assert_eq!(BabyBear::dot_finish(acc), BabyBear::new(35));
    }

    #[test]
    fn varints_match_postcard_including_bounds() {
        for v in [0u64, 1, 127, 128, 300, 1 << 35, u64::MAX] {
            let bytes = postcard::to_allocvec(&v).unwrap();
            let mut r = Reader::new(&bytes);
            assert_eq!(r.u64().unwrap(), v);
            r.finish().unwrap();
        }
        // Overlong forms are read by postcard and refused by us (one encoding per value).
        for overlong in [&[0x80, 0x00][..], &[0x81, 0x80, 0x00], &[0xac, 0x82, 0x00]] {
            assert!(postcard::from_bytes::<u64>(overlong).is_ok());
            assert_eq!(Reader::new(overlong).u64(), Err(MALFORMED));
            assert_eq!(Reader::new(overlong).seq_len(), Err(MALFORMED));
        }
        // A length of 32 bits is the widest, on the host as on the MCU.
        assert_eq!(
            Reader::new(&[0xff, 0xff, 0xff, 0xff, 0x0f]).seq_len(),
            Ok(u32::MAX as usize)
        );
        assert_eq!(
            Reader::new(&[0x80, 0x80, 0x80, 0x80, 0x10]).seq_len(),
            Err(MALFORMED)
        );
        // Ten bytes whose last exceeds one overflow a u64: both refuse.
        let over = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02];
        assert!(postcard::from_bytes::<u64>(&over).is_err());
        assert_eq!(Reader::new(&over).u64(), Err(MALFORMED));
        // Truncated.
        assert_eq!(Reader::new(&[0x80]).u64(), Err(MALFORMED));
    }

    #[test]
    fn lengths_are_checked_before_use() {
        let bytes = postcard::to_allocvec(&vec![7u8; 3]).unwrap();
        assert!(Reader::new(&bytes).expect_len(3).is_ok());
        assert!(Reader::new(&bytes).expect_len(4).is_err());
        // A huge claimed length is an error, never an allocation.
        let huge = [0xff, 0xff, 0xff, 0xff, 0x0f];
        assert!(Reader::new(&huge).expect_len(3).is_err());
    }

    /// `from_wire` decides every word as the field's `Deserialize` does, and returns the same
    /// element: the boundary words and a spread of others.
    fn wire_matches_serde<F: WireField + serde::de::DeserializeOwned>(modulus: u64) {
        let mut words = alloc::vec![0, 1, 2, modulus - 1, modulus, modulus + 1];
        let top = if F::WIRE_LEN == 4 {
            u64::from(u32::MAX)
        } else {
            u64::MAX
        };
        words.push(top);
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            words.push(x & top);
        }
        for w in words {
            let bytes = &w.to_le_bytes()[..F::WIRE_LEN];
            let serde = postcard::from_bytes::<F>(bytes).ok();
            let mut r = Reader::new(bytes);
            assert_eq!(r.elem::<F>().ok(), serde, "word {w:#x}");
            assert_eq!(F::from_wire(w), serde, "word {w:#x}");
            if let Some(v) = serde {
                // And the element's own bytes (serialized and hashed) are the word.
                assert_eq!(postcard::to_allocvec(&v).unwrap(), bytes);
                assert_eq!(v.into_bytes().into_iter().collect::<Vec<u8>>(), bytes);
            }
        }
        for v in [0u32, 1, 2, 255, 65_536, (1 << 24) - 1] {
            assert_eq!(F::from_small(v), F::from_u32(v));
        }
    }

    #[test]
    fn field_elements_match_postcard_and_reject_non_canonical() {
        wire_matches_serde::<BabyBear>(0x7800_0001);
        wire_matches_serde::<Goldilocks>(0xffff_ffff_0000_0001);
        wire_matches_serde::<Mersenne31>(0x7fff_ffff);
        // A row read in place returns its bytes; a short one is malformed.
        let row = [BabyBear::ONE, BabyBear::from_u32(77)];
        let bytes = postcard::to_allocvec(&row).unwrap();
        let mut out = [BabyBear::ZERO; 2];
        assert_eq!(Reader::new(&bytes).elems(&mut out).unwrap(), &bytes[..]);
        assert_eq!(out, row);
        assert_eq!(Reader::new(&bytes[..7]).elems(&mut out), Err(MALFORMED));
    }

    #[test]
    fn extension_elements_match_postcard() {
        let e = Ef4::from_basis_coefficients_fn(|i| BabyBear::from_u32(1000 + i as u32));
        let bytes = postcard::to_allocvec(&vec![e, e]).unwrap();
        let mut r = Reader::new(&bytes);
        r.expect_len(2).unwrap();
        assert_eq!(r.ext::<BabyBear, Ef4>().unwrap(), e);
        assert_eq!(r.ext::<BabyBear, Ef4>().unwrap(), e);
        r.finish().unwrap();
        let g5 = p3_field::extension::BinomialExtensionField::<Goldilocks, 5>::from_basis_coefficients_fn(|i| {
            Goldilocks::from_u64(u64::MAX - 3 * i as u64 - 1_000_000_000)
        });
        let gb = postcard::to_allocvec(&g5).unwrap();
        let got: p3_field::extension::BinomialExtensionField<Goldilocks, 5> =
            Reader::new(&gb).ext::<Goldilocks, _>().unwrap();
        assert_eq!(got, g5);
        let g3 = p3_field::extension::CubicTrinomialExtensionField::<Goldilocks>::from_basis_coefficients_fn(|i| {
            Goldilocks::from_u64(7 + i as u64)
        });
        let gb = postcard::to_allocvec(&g3).unwrap();
        let got: p3_field::extension::CubicTrinomialExtensionField<Goldilocks> =
            Reader::new(&gb).ext::<Goldilocks, _>().unwrap();
        assert_eq!(got, g3);
        // A coefficient >= p is refused by both.
        let mut bad = bytes[1..17].to_vec();
        bad[12..16].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(postcard::from_bytes::<Ef4>(&bad).is_err());
        assert!(Reader::new(&bad).ext::<BabyBear, Ef4>().is_err());
        // One byte short.
        let mut r = Reader::new(&bytes[..bytes.len() - 1]);
        r.expect_len(2).unwrap();
        assert_eq!(r.ext::<BabyBear, Ef4>().unwrap(), e);
        assert!(r.ext::<BabyBear, Ef4>().is_err());
    }

    #[test]
    fn commit_phase_reads_roots_and_refuses_a_nonzero_witness() {
        let roots = [[3u8; 32], [4u8; 32]];
        let ok = postcard::to_allocvec(&(
            vec![vec![roots[0]], vec![roots[1]]],
            vec![BabyBear::ZERO, BabyBear::ZERO],
        ))
        .unwrap();
        let mut got = [[0u8; 32]; 2];
        let mut r = Reader::new(&ok);
        let mut fails = Failures::new();
        r.commit_phase::<BabyBear>(&mut got, &mut fails).unwrap();
        r.finish().unwrap();
        assert_eq!(got, roots);
        assert_eq!(fails.verdict_after(Ok(())), Ok(()));
        let bad = postcard::to_allocvec(&(
            vec![vec![roots[0]], vec![roots[1]]],
            vec![BabyBear::ZERO, BabyBear::ONE],
        ))
        .unwrap();
        // Recorded, and the reading goes on to the end.
        let mut r = Reader::new(&bad);
        let mut fails = Failures::new();
        r.commit_phase::<BabyBear>(&mut got, &mut fails).unwrap();
        r.finish().unwrap();
        assert_eq!(
            fails.verdict_after(Ok(())),
            Err(Check::GrindingWitness.into())
        );
        // A round count other than the header's is malformed.
        assert!(Reader::new(&ok)
            .commit_phase::<BabyBear>(&mut got[..1], &mut fails)
            .is_err());
    }

    #[test]
    fn options_digests_and_trailing_bytes() {
        let v: (Option<u8>, Option<u8>, [u8; 32]) = (None, Some(9), [5; 32]);
        let bytes = postcard::to_allocvec(&v).unwrap();
        let mut r = Reader::new(&bytes);
        assert!(!r.option().unwrap());
        assert!(r.option().unwrap());
        assert_eq!(r.byte().unwrap(), 9);
        assert_eq!(r.digest().unwrap(), &[5; 32]);
        r.finish().unwrap();
        assert_eq!(Reader::new(&[2]).option(), Err(MALFORMED));
        let mut extra: Vec<u8> = bytes.clone();
        extra.push(0);
        let mut r = Reader::new(&extra);
        r.take(bytes.len()).unwrap();
        assert!(r.finish().is_err());
    }
}

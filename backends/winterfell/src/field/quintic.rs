//! The quintic extension of BabyBear, `F_p[x] / (x^5 - 2)` (about 155 bits), as a winter-math
//! [`FieldElement`] over [`BabyBear`]: the wf-babybear challenge field of the proven-security
//! track (issue 15), where the quartic's 124 bits keep list decoding below 100 bits.
//!
//! Same modulus as Plonky3's BabyBear^5 (p3-baby-bear's `BinomialExtensionData<5>`, `W = 2`,
//! which is not a fifth power since 5 divides p - 1). Like [`super::Quartic`], an element
//! `a0 + ... + a4 x^4` is stored as `[a0, .., a4]` (`repr(C)`: a slice of them is a slice of
//! base elements, which the prover relies on) and serializes as five canonical little-endian
//! `u32`s; a non-canonical coefficient is a deserialization error.

use alloc::string::{String, ToString};
use core::fmt;
use core::ops::{Add, Div, Mul, Neg, Sub};
use core::slice;

use winter_math::{ExtensionOf, FieldElement};
use winter_utils::{
    AsBytes, ByteReader, ByteWriter, Deserializable, DeserializationError, Randomizable,
    Serializable, SliceReader,
};

use super::babybear::{assign_ops, const_pow, BabyBear, MODULUS};

/// The non-residue: `x^5 = 2`.
const W: BabyBear = BabyBear::const_from(2);
/// `2^((p-1)/5)`, a primitive fifth root of unity: the Frobenius maps `x^k` to `FROB^k x^k`.
const FROB: u64 = const_pow(2, (MODULUS as u64 - 1) / 5);
const FROB_POWERS: [BabyBear; 5] = [
    BabyBear::const_from(1),
    BabyBear::const_from(FROB),
    BabyBear::const_from(const_pow(FROB, 2)),
    BabyBear::const_from(const_pow(FROB, 3)),
    BabyBear::const_from(const_pow(FROB, 4)),
];
const ZERO5: [BabyBear; 5] = [BabyBear::ZERO; 5];

/// An element of `F_p[x] / (x^5 - 2)` over BabyBear.
#[derive(Copy, Clone, Default, PartialEq, Eq)]
#[repr(C)]
pub struct Quintic(pub [BabyBear; 5]);

impl Quintic {
    /// The element with coefficients `[a0, .., a4]`.
    pub const fn new(coeffs: [BabyBear; 5]) -> Self {
        Quintic(coeffs)
    }

    /// The Frobenius automorphism `a -> a^p`.
    pub fn frobenius(self) -> Self {
        let a = self.0;
        Quintic(core::array::from_fn(|k| a[k] * FROB_POWERS[k]))
    }
}

impl fmt::Debug for Quintic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let a = &self.0;
        write!(f, "({}, {}, {}, {}, {})", a[0], a[1], a[2], a[3], a[4])
    }
}

impl fmt::Display for Quintic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

impl Add for Quintic {
    type Output = Self;
    #[inline(always)]
    fn add(self, r: Self) -> Self {
        Quintic(core::array::from_fn(|i| self.0[i] + r.0[i]))
    }
}

impl Sub for Quintic {
    type Output = Self;
    #[inline(always)]
    fn sub(self, r: Self) -> Self {
        Quintic(core::array::from_fn(|i| self.0[i] - r.0[i]))
    }
}

impl Mul for Quintic {
    type Output = Self;
    /// Schoolbook product (25 base multiplications), then `x^(5+k) = 2 x^k` (doublings).
    #[inline]
    fn mul(self, r: Self) -> Self {
        let (a, b) = (self.0, r.0);
        let mut p = [BabyBear::ZERO; 9];
        for i in 0..5 {
            for j in 0..5 {
                p[i + j] += a[i] * b[j];
            }
        }
        Quintic([
            p[0] + p[5].double(),
            p[1] + p[6].double(),
            p[2] + p[7].double(),
            p[3] + p[8].double(),
            p[4],
        ])
    }
}

impl Div for Quintic {
    type Output = Self;
    #[allow(clippy::suspicious_arithmetic_impl)]
    fn div(self, r: Self) -> Self {
        self * r.inv()
    }
}

impl Neg for Quintic {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        Quintic(self.0.map(|c| -c))
    }
}

assign_ops!(Quintic);

impl From<BabyBear> for Quintic {
    fn from(v: BabyBear) -> Self {
        let mut c = ZERO5;
        c[0] = v;
        Quintic(c)
    }
}

impl From<u32> for Quintic {
    fn from(v: u32) -> Self {
        BabyBear::from(v).into()
    }
}

impl From<u16> for Quintic {
    fn from(v: u16) -> Self {
        BabyBear::from(v).into()
    }
}

impl From<u8> for Quintic {
    fn from(v: u8) -> Self {
        BabyBear::from(v).into()
    }
}

impl TryFrom<u64> for Quintic {
    type Error = String;
    fn try_from(v: u64) -> Result<Self, String> {
        BabyBear::try_from(v).map(Into::into)
    }
}

impl TryFrom<u128> for Quintic {
    type Error = String;
    fn try_from(v: u128) -> Result<Self, String> {
        BabyBear::try_from(v).map(Into::into)
    }
}

impl TryFrom<&'_ [u8]> for Quintic {
    type Error = DeserializationError;
    fn try_from(bytes: &[u8]) -> Result<Self, DeserializationError> {
        if bytes.len() != Self::ELEMENT_BYTES {
            return Err(DeserializationError::InvalidValue(
                "a quintic BabyBear element takes 20 bytes".to_string(),
            ));
        }
        Self::read_from(&mut SliceReader::new(bytes))
    }
}

impl ExtensionOf<BabyBear> for Quintic {
    #[inline(always)]
    fn mul_base(self, other: BabyBear) -> Self {
        Quintic(self.0.map(|c| c * other))
    }
}

impl AsBytes for Quintic {
    fn as_bytes(&self) -> &[u8] {
        // SAFETY: `repr(C)` over five `repr(transparent)` u32s: 20 initialized bytes.
        unsafe { slice::from_raw_parts(self as *const Self as *const u8, 20) }
    }
}

impl Randomizable for Quintic {
    const VALUE_SIZE: usize = Self::ELEMENT_BYTES;

    /// Five canonical base elements, or nothing (the draw is retried by the caller).
    fn from_random_bytes(bytes: &[u8]) -> Option<Self> {
        if bytes.len() != Self::ELEMENT_BYTES {
            return None;
        }
        let mut out = ZERO5;
        for (o, chunk) in out.iter_mut().zip(bytes.chunks_exact(4)) {
            *o = BabyBear::from_random_bytes(chunk)?;
        }
        Some(Quintic(out))
    }
}

impl Serializable for Quintic {
    fn write_into<W: ByteWriter>(&self, target: &mut W) {
        for c in &self.0 {
            c.write_into(target);
        }
    }

    fn get_size_hint(&self) -> usize {
        20
    }
}

impl Deserializable for Quintic {
    fn read_from<R: ByteReader>(source: &mut R) -> Result<Self, DeserializationError> {
        let mut out = ZERO5;
        for c in out.iter_mut() {
            *c = BabyBear::read_from(source)?;
        }
        Ok(Quintic(out))
    }
}

impl FieldElement for Quintic {
    type PositiveInteger = u64;
    type BaseField = BabyBear;

    const EXTENSION_DEGREE: usize = 5;
    const ELEMENT_BYTES: usize = 20;
    const IS_CANONICAL: bool = false;
    const ZERO: Self = Quintic(ZERO5);
    const ONE: Self = Quintic([
        BabyBear::ONE,
        BabyBear::ZERO,
        BabyBear::ZERO,
        BabyBear::ZERO,
        BabyBear::ZERO,
    ]);

    /// `a^-1 = c / N(a)` with `c = a^(p + p^2 + p^3 + p^4)` (three multiplications and
    /// Frobenius maps) and the norm `N(a) = a c`, a base element: one base inversion.
    fn inv(self) -> Self {
        if self == Self::ZERO {
            return self;
        }
        let f1 = self.frobenius();
        let t = f1 * f1.frobenius(); // a^(p + p^2)
        let c = t * t.frobenius().frobenius(); // times a^(p^3 + p^4)
                                               // Only the constant coefficient of a * c is needed: the rest is zero.
        let (a, b) = (self.0, c.0);
        let mut high = BabyBear::ZERO;
        for i in 1..5 {
            high += a[i] * b[5 - i];
        }
        let norm = a[0] * b[0] + high * W;
        c.mul_base(norm.inv())
    }

    fn conjugate(&self) -> Self {
        self.frobenius()
    }

    fn base_element(&self, i: usize) -> BabyBear {
        match i {
            0..=4 => self.0[i],
            _ => panic!("element index must be smaller than 5, but was {i}"),
        }
    }

    fn slice_as_base_elements(elements: &[Self]) -> &[BabyBear] {
        // SAFETY: `repr(C)` over `[BabyBear; 5]`, so the layout is 5 consecutive base elements.
        unsafe { slice::from_raw_parts(elements.as_ptr() as *const BabyBear, elements.len() * 5) }
    }

    fn slice_from_base_elements(elements: &[BabyBear]) -> &[Self] {
        assert!(
            elements.len().is_multiple_of(5),
            "number of base elements must be divisible by 5, but was {}",
            elements.len()
        );
        // SAFETY: length checked; `Quintic` has the alignment of `BabyBear`.
        unsafe { slice::from_raw_parts(elements.as_ptr() as *const Self, elements.len() / 5) }
    }

    fn elements_as_bytes(elements: &[Self]) -> &[u8] {
        // SAFETY: 20 initialized bytes per element.
        unsafe { slice::from_raw_parts(elements.as_ptr() as *const u8, elements.len() * 20) }
    }

    unsafe fn bytes_as_elements(bytes: &[u8]) -> Result<&[Self], DeserializationError> {
        if !bytes.len().is_multiple_of(20) {
            return Err(DeserializationError::InvalidValue(
                "number of bytes does not divide into whole quintic elements".to_string(),
            ));
        }
        if !(bytes.as_ptr() as usize).is_multiple_of(core::mem::align_of::<Self>()) {
            return Err(DeserializationError::InvalidValue(
                "slice memory alignment is not valid for quintic elements".to_string(),
            ));
        }
        // SAFETY: length and alignment checked; validity is the caller's contract.
        Ok(unsafe { slice::from_raw_parts(bytes.as_ptr() as *const Self, bytes.len() / 20) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;
    use winter_math::StarkField;

    const P: u64 = BabyBear::MODULUS;

    fn sample(n: usize) -> Vec<Quintic> {
        let mut s = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            BabyBear::new(((s >> 33) % P) as u32)
        };
        let (z, o) = (BabyBear::ZERO, BabyBear::ONE);
        let mut v = alloc::vec![Quintic::ZERO, Quintic::ONE, -Quintic::ONE];
        v.push(Quintic([z, o, z, z, z]));
        v.push(Quintic([z, z, z, z, -o]));
        while v.len() < n {
            v.push(Quintic([next(), next(), next(), next(), next()]));
        }
        v
    }

    fn x() -> Quintic {
        Quintic([
            BabyBear::ZERO,
            BabyBear::ONE,
            BabyBear::ZERO,
            BabyBear::ZERO,
            BabyBear::ZERO,
        ])
    }

    /// Known answers by hand: `[1, 2, 3, 4, 5] * [6, 7, 8, 9, 10]` has the schoolbook
    /// coefficients 6, 19, 40, 70, 110, 114, 106, 85, 50, folded with `x^5 = 2`.
    #[test]
    fn known_answers() {
        let e = |c: [u32; 5]| Quintic(c.map(BabyBear::new));
        let (a, b) = (e([1, 2, 3, 4, 5]), e([6, 7, 8, 9, 10]));
        assert_eq!(
            a * b,
            e([6 + 2 * 114, 19 + 2 * 106, 40 + 2 * 85, 70 + 2 * 50, 110])
        );
        assert_eq!(x().exp(5), Quintic::from(2u32));
    }

    #[test]
    fn field_laws() {
        let v = sample(10);
        for &a in &v {
            assert_eq!(a + Quintic::ZERO, a);
            assert_eq!(a * Quintic::ONE, a);
            assert_eq!(a - a, Quintic::ZERO);
            assert_eq!(a.square(), a * a);
            for &b in &v {
                assert_eq!(a * b, b * a);
                for &c in &v {
                    assert_eq!((a * b) * c, a * (b * c));
                    assert_eq!((a + b) * c, a * c + b * c);
                }
            }
            let s = BabyBear::new(987_654_321);
            assert_eq!(a.mul_base(s), a * Quintic::from(s));
        }
    }

    #[test]
    fn inversion() {
        for a in sample(40) {
            if a == Quintic::ZERO {
                assert_eq!(a.inv(), Quintic::ZERO);
            } else {
                assert_eq!(a * a.inv(), Quintic::ONE, "{a:?}");
                assert_eq!(a.inv().inv(), a);
            }
        }
    }

    #[test]
    fn frobenius_is_pth_power_of_order_five() {
        for a in sample(8) {
            let f = a.frobenius();
            assert_eq!(f, a.exp(P));
            let mut g = f;
            for _ in 0..4 {
                g = g.frobenius();
            }
            assert_eq!(g, a);
        }
        // Genuinely quintic: x is fixed by no power of the Frobenius below the fifth.
        let mut g = x();
        for _ in 0..4 {
            g = g.frobenius();
            assert_ne!(g, x());
        }
    }

    #[test]
    fn serialization_round_trip_and_strictness() {
        for a in sample(6) {
            let bytes = a.to_bytes();
            assert_eq!(bytes.len(), 20);
            assert_eq!(Quintic::read_from_bytes(&bytes).unwrap(), a);
            assert_eq!(Quintic::from_random_bytes(&bytes), Some(a));
        }
        for i in 0..5 {
            let mut bad = Quintic::ONE.to_bytes();
            bad[4 * i..4 * i + 4].copy_from_slice(&(P as u32).to_le_bytes());
            assert!(Quintic::read_from_bytes(&bad).is_err(), "coefficient {i}");
            assert_eq!(Quintic::from_random_bytes(&bad), None);
        }
        assert!(Quintic::try_from(&Quintic::ONE.to_bytes()[..19]).is_err());
    }
}

//! The BabyBear prime field, p = 2^31 - 2^27 + 1 = 15 * 2^27 + 1, as a winter-math
//! [`StarkField`], so that the upstream winterfell prover can run over it.
//!
//! Elements are kept in Montgomery form (`a * 2^32 mod p`, always `< p`): one
//! 32x32->64 multiply and one Montgomery reduction per product, which maps well to both
//! the Cortex-M33 (`umull`/`umlal`) and RV32IM. Serialization, hashing and random sampling
//! use the canonical little-endian `u32` (values `>= p` are rejected), as the zkmcu fork's
//! reference proofs do.
//!
//! The multiplicative generator is 31, so the two-adic root of unity of order 2^27 is 31^15.
//! Upstream's prover also requires quadratic and cubic extensions of its base field; they are
//! the binomial extensions `x^2 - 11` and `x^3 - 2`, correct but not offered by the backend
//! (their 62- and 93-bit challenge fields are below the security policy).

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;
use core::ops::{Add, Div, Mul, Neg, Sub};
use core::slice;

use winter_math::{ExtensibleField, FieldElement, StarkField};
use winter_utils::{
    AsBytes, ByteReader, ByteWriter, Deserializable, DeserializationError, Randomizable,
    Serializable,
};

/// The modulus p = 2^31 - 2^27 + 1.
pub const MODULUS: u32 = 0x7800_0001;
const P: u64 = MODULUS as u64;

/// `-p^-1 mod 2^32`, for Montgomery reduction.
const P_NEG_INV: u32 = {
    // Newton iteration for p^-1 mod 2^32: each step doubles the number of correct bits.
    let mut inv: u32 = 1;
    let mut i = 0;
    while i < 5 {
        inv = inv.wrapping_mul(2u32.wrapping_sub(MODULUS.wrapping_mul(inv)));
        i += 1;
    }
    inv.wrapping_neg()
};
/// 2^32 mod p (Montgomery form of one).
const R1: u32 = ((1u64 << 32) % P) as u32;
/// 2^64 mod p (converts canonical values into Montgomery form).
const R2: u32 = ((R1 as u64 * R1 as u64) % P) as u32;

/// Montgomery reduction: `t * 2^-32 mod p` for `t < p * 2^32`.
#[inline(always)]
const fn mont_reduce(t: u64) -> u32 {
    let m = (t as u32).wrapping_mul(P_NEG_INV);
    // t + m * p < 2^62 + 2^63: no overflow.
    let u = ((t + m as u64 * P) >> 32) as u32;
    if u >= MODULUS {
        u - MODULUS
    } else {
        u
    }
}

/// `base^exp mod p` on canonical values, for compile-time constants.
pub(crate) const fn const_pow(base: u64, mut exp: u64) -> u64 {
    let mut acc = 1u64;
    let mut b = base % P;
    while exp > 0 {
        if exp & 1 == 1 {
            acc = acc * b % P;
        }
        b = b * b % P;
        exp >>= 1;
    }
    acc
}

/// An element of the BabyBear field, in Montgomery form.
#[derive(Copy, Clone, Default, PartialEq, Eq)]
#[repr(transparent)]
pub struct BabyBear(u32);

impl BabyBear {
    /// The element `value mod p`.
    pub const fn new(value: u32) -> Self {
        let v = if value >= MODULUS {
            value - MODULUS
        } else {
            value
        };
        BabyBear(mont_reduce(v as u64 * R2 as u64))
    }

    /// The canonical value in `[0, p)`.
    pub const fn as_canonical(&self) -> u32 {
        mont_reduce(self.0 as u64)
    }

    /// The element for a canonical value, or `None` if `value >= p`.
    pub const fn from_canonical(value: u64) -> Option<Self> {
        if value < P {
            Some(Self::new(value as u32))
        } else {
            None
        }
    }

    pub(crate) const fn const_from(value: u64) -> Self {
        Self::new((value % P) as u32)
    }
}

impl fmt::Debug for BabyBear {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.as_canonical())
    }
}

impl fmt::Display for BabyBear {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.as_canonical())
    }
}

impl Add for BabyBear {
    type Output = Self;
    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        // Both < 2^31, so the sum fits a u32.
        let s = self.0 + rhs.0;
        BabyBear(if s >= MODULUS { s - MODULUS } else { s })
    }
}

impl Sub for BabyBear {
    type Output = Self;
    #[inline(always)]
    fn sub(self, rhs: Self) -> Self {
        let (d, borrow) = self.0.overflowing_sub(rhs.0);
        BabyBear(if borrow { d.wrapping_add(MODULUS) } else { d })
    }
}

impl Mul for BabyBear {
    type Output = Self;
    #[inline(always)]
    fn mul(self, rhs: Self) -> Self {
        BabyBear(mont_reduce(self.0 as u64 * rhs.0 as u64))
    }
}

impl Div for BabyBear {
    type Output = Self;
    #[allow(clippy::suspicious_arithmetic_impl)]
    fn div(self, rhs: Self) -> Self {
        self * rhs.inv()
    }
}

impl Neg for BabyBear {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        BabyBear(if self.0 == 0 { 0 } else { MODULUS - self.0 })
    }
}

macro_rules! assign_ops {
    ($t:ty) => {
        impl core::ops::AddAssign for $t {
            #[inline(always)]
            fn add_assign(&mut self, rhs: Self) {
                *self = *self + rhs;
            }
        }
        impl core::ops::SubAssign for $t {
            #[inline(always)]
            fn sub_assign(&mut self, rhs: Self) {
                *self = *self - rhs;
            }
        }
        impl core::ops::MulAssign for $t {
            #[inline(always)]
            fn mul_assign(&mut self, rhs: Self) {
                *self = *self * rhs;
            }
        }
        impl core::ops::DivAssign for $t {
            #[inline(always)]
            fn div_assign(&mut self, rhs: Self) {
                *self = *self / rhs;
            }
        }
    };
}
pub(crate) use assign_ops;

assign_ops!(BabyBear);

impl From<u32> for BabyBear {
    fn from(value: u32) -> Self {
        Self::const_from(value as u64)
    }
}

impl From<u16> for BabyBear {
    fn from(value: u16) -> Self {
        Self::new(value as u32)
    }
}

impl From<u8> for BabyBear {
    fn from(value: u8) -> Self {
        Self::new(value as u32)
    }
}

impl TryFrom<u64> for BabyBear {
    type Error = String;
    fn try_from(value: u64) -> Result<Self, String> {
        Self::from_canonical(value)
            .ok_or_else(|| "value is not below the BabyBear modulus".to_string())
    }
}

impl TryFrom<u128> for BabyBear {
    type Error = String;
    fn try_from(value: u128) -> Result<Self, String> {
        u64::try_from(value)
            .ok()
            .and_then(Self::from_canonical)
            .ok_or_else(|| "value is not below the BabyBear modulus".to_string())
    }
}

impl TryFrom<&'_ [u8]> for BabyBear {
    type Error = DeserializationError;
    fn try_from(bytes: &[u8]) -> Result<Self, DeserializationError> {
        let arr: [u8; 4] = bytes.try_into().map_err(|_| {
            DeserializationError::InvalidValue("a BabyBear element takes 4 bytes".to_string())
        })?;
        Self::from_canonical(u32::from_le_bytes(arr) as u64).ok_or_else(|| {
            DeserializationError::InvalidValue(
                "value is not below the BabyBear modulus".to_string(),
            )
        })
    }
}

impl AsBytes for BabyBear {
    fn as_bytes(&self) -> &[u8] {
        // SAFETY: `BabyBear` is `repr(transparent)` over a `u32`: 4 initialized bytes.
        unsafe { slice::from_raw_parts(self as *const Self as *const u8, 4) }
    }
}

impl Randomizable for BabyBear {
    const VALUE_SIZE: usize = 4;

    /// Rejection sampling: a canonical little-endian `u32` or nothing (no error value is
    /// built, since most draws of a quartic element are rejected).
    fn from_random_bytes(bytes: &[u8]) -> Option<Self> {
        let arr: [u8; 4] = bytes.try_into().ok()?;
        Self::from_canonical(u32::from_le_bytes(arr) as u64)
    }
}

impl Serializable for BabyBear {
    fn write_into<W: ByteWriter>(&self, target: &mut W) {
        target.write_bytes(&self.as_canonical().to_le_bytes());
    }

    fn get_size_hint(&self) -> usize {
        4
    }
}

impl Deserializable for BabyBear {
    fn read_from<R: ByteReader>(source: &mut R) -> Result<Self, DeserializationError> {
        let value = source.read_u32()?;
        Self::from_canonical(value as u64).ok_or_else(|| {
            DeserializationError::InvalidValue(
                "value is not below the BabyBear modulus".to_string(),
            )
        })
    }
}

impl FieldElement for BabyBear {
    type PositiveInteger = u64;
    type BaseField = Self;

    const EXTENSION_DEGREE: usize = 1;
    const ELEMENT_BYTES: usize = 4;
    const IS_CANONICAL: bool = false;
    const ZERO: Self = BabyBear(0);
    const ONE: Self = BabyBear(R1);

    fn inv(self) -> Self {
        // Fermat: a^(p-2); returns zero for zero, as the trait requires.
        self.exp_vartime(P - 2)
    }

    fn conjugate(&self) -> Self {
        *self
    }

    fn base_element(&self, i: usize) -> Self {
        match i {
            0 => *self,
            _ => panic!("element index must be 0 for a base field element, but was {i}"),
        }
    }

    fn slice_as_base_elements(elements: &[Self]) -> &[Self] {
        elements
    }

    fn slice_from_base_elements(elements: &[Self]) -> &[Self] {
        elements
    }

    fn elements_as_bytes(elements: &[Self]) -> &[u8] {
        // SAFETY: `repr(transparent)` over `u32`; the byte length is 4 per element.
        unsafe { slice::from_raw_parts(elements.as_ptr() as *const u8, elements.len() * 4) }
    }

    unsafe fn bytes_as_elements(bytes: &[u8]) -> Result<&[Self], DeserializationError> {
        if !bytes.len().is_multiple_of(4) {
            return Err(DeserializationError::InvalidValue(
                "number of bytes does not divide into whole BabyBear elements".to_string(),
            ));
        }
        if !(bytes.as_ptr() as usize).is_multiple_of(core::mem::align_of::<u32>()) {
            return Err(DeserializationError::InvalidValue(
                "slice memory alignment is not valid for BabyBear elements".to_string(),
            ));
        }
        // SAFETY: length and alignment checked above; validity is the caller's contract.
        Ok(unsafe { slice::from_raw_parts(bytes.as_ptr() as *const Self, bytes.len() / 4) })
    }
}

impl StarkField for BabyBear {
    const MODULUS: u64 = P;
    const MODULUS_BITS: u32 = 31;
    const GENERATOR: Self = Self::const_from(31);
    const TWO_ADICITY: u32 = 27;
    const TWO_ADIC_ROOT_OF_UNITY: Self = Self::const_from(const_pow(31, 15));

    fn get_modulus_le_bytes() -> Vec<u8> {
        MODULUS.to_le_bytes().to_vec()
    }

    fn as_int(&self) -> u64 {
        self.as_canonical() as u64
    }
}

/// The non-residue of the quadratic extension `x^2 - 11` (and of the quartic `x^4 - 11`).
pub const QUARTIC_W: BabyBear = BabyBear::const_from(11);
/// The non-cube of the cubic extension `x^3 - 2`.
pub const CUBIC_W: BabyBear = BabyBear::const_from(2);
/// `2^((p-1)/3)`: the cubic Frobenius maps `x` to `CUBIC_FROB * x`.
const CUBIC_FROB: BabyBear = BabyBear::const_from(const_pow(2, (P - 1) / 3));
const CUBIC_FROB2: BabyBear = BabyBear::const_from(const_pow(2, 2 * (P - 1) / 3));

impl ExtensibleField<2> for BabyBear {
    fn mul(a: [Self; 2], b: [Self; 2]) -> [Self; 2] {
        // Karatsuba over x^2 = 11.
        let a0b0 = a[0] * b[0];
        let a1b1 = a[1] * b[1];
        let mid = (a[0] + a[1]) * (b[0] + b[1]) - a0b0 - a1b1;
        [a0b0 + QUARTIC_W * a1b1, mid]
    }

    fn mul_base(a: [Self; 2], b: Self) -> [Self; 2] {
        [a[0] * b, a[1] * b]
    }

    fn frobenius(x: [Self; 2]) -> [Self; 2] {
        // 11 is a non-square, so x^p = 11^((p-1)/2) x = -x.
        [x[0], -x[1]]
    }
}

impl ExtensibleField<3> for BabyBear {
    fn mul(a: [Self; 3], b: [Self; 3]) -> [Self; 3] {
        let w = CUBIC_W;
        [
            a[0] * b[0] + w * (a[1] * b[2] + a[2] * b[1]),
            a[0] * b[1] + a[1] * b[0] + w * (a[2] * b[2]),
            a[0] * b[2] + a[1] * b[1] + a[2] * b[0],
        ]
    }

    fn mul_base(a: [Self; 3], b: Self) -> [Self; 3] {
        [a[0] * b, a[1] * b, a[2] * b]
    }

    fn frobenius(x: [Self; 3]) -> [Self; 3] {
        [x[0], x[1] * CUBIC_FROB, x[2] * CUBIC_FROB2]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(n: usize) -> Vec<BabyBear> {
        // A deterministic spread of values, including the edges.
        let mut v = alloc::vec![
            BabyBear::ZERO,
            BabyBear::ONE,
            -BabyBear::ONE,
            BabyBear::new(2)
        ];
        let mut x = 0x1234_5678u64;
        while v.len() < n {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            v.push(BabyBear::new(((x >> 33) % P) as u32));
        }
        v
    }

    #[test]
    fn constants() {
        assert_eq!(BabyBear::ONE.as_canonical(), 1);
        assert_eq!(BabyBear::new(MODULUS).as_canonical(), 0);
        assert_eq!(
            BabyBear::from(u32::MAX).as_canonical() as u64,
            u32::MAX as u64 % P
        );
        let g = BabyBear::TWO_ADIC_ROOT_OF_UNITY;
        assert_eq!(g.exp(1 << 27), BabyBear::ONE);
        assert_ne!(g.exp(1 << 26), BabyBear::ONE);
        // 31 generates the whole group: it is not a q-th power for q | p - 1 = 2^27 * 3 * 5.
        for q in [2u64, 3, 5] {
            assert_ne!(BabyBear::GENERATOR.exp((P - 1) / q), BabyBear::ONE);
        }
        // x^4 - 11 is irreducible: 11 is not a square (p = 1 mod 4 makes that enough), and
        // x^3 - 2 is irreducible: 2 is not a cube (p = 1 mod 3).
        assert_eq!(QUARTIC_W.exp((P - 1) / 2), -BabyBear::ONE);
        assert_ne!(CUBIC_W.exp((P - 1) / 3), BabyBear::ONE);
    }

    #[test]
    fn field_laws() {
        let v = sample(24);
        for &a in &v {
            assert_eq!(a + BabyBear::ZERO, a);
            assert_eq!(a * BabyBear::ONE, a);
            assert_eq!(a - a, BabyBear::ZERO);
            assert_eq!(a + (-a), BabyBear::ZERO);
            for &b in &v {
                assert_eq!(a + b, b + a);
                assert_eq!(a * b, b * a);
                let want = (a.as_canonical() as u64 * b.as_canonical() as u64 % P) as u32;
                assert_eq!((a * b).as_canonical(), want);
                let want = ((a.as_canonical() as u64 + P - b.as_canonical() as u64) % P) as u32;
                assert_eq!((a - b).as_canonical(), want);
                for &c in v.iter().take(6) {
                    assert_eq!((a + b) * c, a * c + b * c);
                    assert_eq!((a * b) * c, a * (b * c));
                }
            }
        }
    }

    #[test]
    fn inversion() {
        for a in sample(64) {
            if a == BabyBear::ZERO {
                assert_eq!(a.inv(), BabyBear::ZERO);
            } else {
                assert_eq!(a * a.inv(), BabyBear::ONE);
            }
        }
    }

    #[test]
    fn serialization_is_canonical_and_strict() {
        let a = BabyBear::new(1_369_371_767);
        assert_eq!(a.to_bytes(), 1_369_371_767u32.to_le_bytes());
        assert_eq!(BabyBear::read_from_bytes(&a.to_bytes()).unwrap(), a);
        assert!(BabyBear::read_from_bytes(&MODULUS.to_le_bytes()).is_err());
        assert!(BabyBear::from_random_bytes(&u32::MAX.to_le_bytes()).is_none());
        assert!(BabyBear::try_from(P).is_err());
    }

    #[test]
    fn small_extensions_frobenius_is_pth_power() {
        use winter_math::fields::{CubeExtension, QuadExtension};
        let v = sample(8);
        for w in v.windows(3) {
            let q = QuadExtension::new(w[0], w[1]);
            assert_eq!(q.conjugate(), q.exp(P));
            if q != QuadExtension::ZERO {
                assert_eq!(q * q.inv(), QuadExtension::ONE);
            }
            let c = CubeExtension::new(w[0], w[1], w[2]);
            let c3 = c.exp(P);
            assert_eq!(
                <BabyBear as ExtensibleField<3>>::frobenius(c.to_base_elements()),
                c3.to_base_elements()
            );
            if c != CubeExtension::ZERO {
                assert_eq!(c * c.inv(), CubeExtension::ONE);
            }
        }
    }
}

//! What every binomial extension of BabyBear here shares, written once: an element is
//! `repr(C)` over `[BabyBear; N]` (coefficients of `1, x, .., x^(N-1)`), so a slice of them is
//! a slice of base elements (the prover relies on it), and it serializes as `N` canonical
//! little-endian `u32`s in that order; a non-canonical coefficient is a deserialization error.
//! Each field keeps its own modulus, multiplication, inversion and Frobenius.

/// The coefficient-wise operations, conversions and (de)serialization of `$t`, a
/// `repr(C)` tuple struct over `[BabyBear; $n]` named `$name` in messages; `$i` lists the
/// coefficient indexes, so each operation is written out per coefficient (at opt-level "s",
/// `array::from_fn` and `map` left a loop on the M33: +2.7 % instructions for a wf-babybear
/// Fib-1024 verification, emulator).
macro_rules! babybear_extension {
    ($t:ident, $n:literal, $name:literal, [$($i:literal),+]) => {
        impl core::fmt::Debug for $t {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                write!(f, "({}", self.0[0])?;
                for c in &self.0[1..] {
                    write!(f, ", {c}")?;
                }
                write!(f, ")")
            }
        }

        impl core::fmt::Display for $t {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                core::fmt::Debug::fmt(self, f)
            }
        }

        impl core::ops::Add for $t {
            type Output = Self;
            #[inline(always)]
            fn add(self, r: Self) -> Self {
                $t([$(self.0[$i] + r.0[$i]),+])
            }
        }

        impl core::ops::Sub for $t {
            type Output = Self;
            #[inline(always)]
            fn sub(self, r: Self) -> Self {
                $t([$(self.0[$i] - r.0[$i]),+])
            }
        }

        impl core::ops::Neg for $t {
            type Output = Self;
            #[inline(always)]
            fn neg(self) -> Self {
                $t([$(-self.0[$i]),+])
            }
        }

        impl core::ops::Div for $t {
            type Output = Self;
            #[allow(clippy::suspicious_arithmetic_impl)]
            fn div(self, r: Self) -> Self {
                self * winter_math::FieldElement::inv(r)
            }
        }

        $crate::field::babybear::assign_ops!($t);

        impl From<BabyBear> for $t {
            fn from(v: BabyBear) -> Self {
                let mut c = [BabyBear::ZERO; $n];
                c[0] = v;
                $t(c)
            }
        }

        impl From<u32> for $t {
            fn from(v: u32) -> Self {
                BabyBear::from(v).into()
            }
        }

        impl From<u16> for $t {
            fn from(v: u16) -> Self {
                BabyBear::from(v).into()
            }
        }

        impl From<u8> for $t {
            fn from(v: u8) -> Self {
                BabyBear::from(v).into()
            }
        }

        impl TryFrom<u64> for $t {
            type Error = alloc::string::String;
            fn try_from(v: u64) -> Result<Self, alloc::string::String> {
                BabyBear::try_from(v).map(Into::into)
            }
        }

        impl TryFrom<u128> for $t {
            type Error = alloc::string::String;
            fn try_from(v: u128) -> Result<Self, alloc::string::String> {
                BabyBear::try_from(v).map(Into::into)
            }
        }

        impl TryFrom<&'_ [u8]> for $t {
            type Error = winter_utils::DeserializationError;
            fn try_from(bytes: &[u8]) -> Result<Self, winter_utils::DeserializationError> {
                if bytes.len() != 4 * $n {
                    return Err(winter_utils::DeserializationError::InvalidValue(
                        alloc::format!("a {} BabyBear element takes {} bytes", $name, 4 * $n),
                    ));
                }
                <Self as winter_utils::Deserializable>::read_from(
                    &mut winter_utils::SliceReader::new(bytes),
                )
            }
        }

        impl winter_math::ExtensionOf<BabyBear> for $t {
            #[inline(always)]
            fn mul_base(self, other: BabyBear) -> Self {
                $t([$(self.0[$i] * other),+])
            }
        }

        impl winter_utils::AsBytes for $t {
            fn as_bytes(&self) -> &[u8] {
                // SAFETY: `repr(C)` over `$n` `repr(transparent)` u32s: 4 * $n initialized bytes.
                unsafe { core::slice::from_raw_parts(self as *const Self as *const u8, 4 * $n) }
            }
        }

        impl winter_utils::Randomizable for $t {
            const VALUE_SIZE: usize = 4 * $n;

            /// `$n` canonical base elements, or nothing (most draws fail, so the rejection
            /// path builds no error value; the caller draws again).
            fn from_random_bytes(bytes: &[u8]) -> Option<Self> {
                if bytes.len() != 4 * $n {
                    return None;
                }
                let mut out = [BabyBear::ZERO; $n];
                for (o, chunk) in out.iter_mut().zip(bytes.chunks_exact(4)) {
                    *o = BabyBear::from_random_bytes(chunk)?;
                }
                Some($t(out))
            }
        }

        impl winter_utils::Serializable for $t {
            fn write_into<W: winter_utils::ByteWriter>(&self, target: &mut W) {
                for c in &self.0 {
                    c.write_into(target);
                }
            }

            fn get_size_hint(&self) -> usize {
                4 * $n
            }
        }

        impl winter_utils::Deserializable for $t {
            fn read_from<R: winter_utils::ByteReader>(
                source: &mut R,
            ) -> Result<Self, winter_utils::DeserializationError> {
                let mut out = [BabyBear::ZERO; $n];
                $(out[$i] = BabyBear::read_from(source)?;)+
                Ok($t(out))
            }
        }
    };
}
pub(crate) use babybear_extension;

/// The `FieldElement` items of a `babybear_extension!` type that only reinterpret memory
/// (used inside its `impl FieldElement`).
macro_rules! extension_slices {
    ($n:literal, $name:literal) => {
        fn base_element(&self, i: usize) -> BabyBear {
            match i {
                0..$n => self.0[i],
                _ => panic!("element index must be smaller than {}, but was {i}", $n),
            }
        }

        fn slice_as_base_elements(elements: &[Self]) -> &[BabyBear] {
            // SAFETY: `repr(C)` over `[BabyBear; $n]`: $n consecutive base elements each.
            unsafe {
                core::slice::from_raw_parts(
                    elements.as_ptr() as *const BabyBear,
                    elements.len() * $n,
                )
            }
        }

        fn slice_from_base_elements(elements: &[BabyBear]) -> &[Self] {
            assert!(
                elements.len().is_multiple_of($n),
                "number of base elements must be divisible by {}, but was {}",
                $n,
                elements.len()
            );
            // SAFETY: length checked; the type has the alignment of `BabyBear`.
            unsafe {
                core::slice::from_raw_parts(elements.as_ptr() as *const Self, elements.len() / $n)
            }
        }

        fn elements_as_bytes(elements: &[Self]) -> &[u8] {
            // SAFETY: 4 * $n initialized bytes per element.
            unsafe {
                core::slice::from_raw_parts(elements.as_ptr() as *const u8, elements.len() * 4 * $n)
            }
        }

        unsafe fn bytes_as_elements(
            bytes: &[u8],
        ) -> Result<&[Self], winter_utils::DeserializationError> {
            if !bytes.len().is_multiple_of(4 * $n) {
                return Err(winter_utils::DeserializationError::InvalidValue(
                    alloc::format!(
                        "number of bytes does not divide into whole {} elements",
                        $name
                    ),
                ));
            }
            if !(bytes.as_ptr() as usize).is_multiple_of(core::mem::align_of::<Self>()) {
                return Err(winter_utils::DeserializationError::InvalidValue(
                    alloc::format!("slice memory alignment is not valid for {} elements", $name),
                ));
            }
            // SAFETY: length and alignment checked; validity is the caller's contract.
            Ok(unsafe {
                core::slice::from_raw_parts(bytes.as_ptr() as *const Self, bytes.len() / (4 * $n))
            })
        }
    };
}
pub(crate) use extension_slices;

/// The laws every binomial extension here must satisfy, checked once for each (the tests of
/// `quartic` and `quintic` call these with their own type).
#[cfg(test)]
pub(crate) mod laws {
    use super::super::BabyBear;
    use alloc::vec::Vec;
    use winter_math::{FieldElement, StarkField};
    use winter_utils::{Deserializable, Randomizable, Serializable};

    const P: u64 = BabyBear::MODULUS;

    /// A binomial extension `F_p[x] / (x^D - W)` under test.
    pub trait Binomial:
        FieldElement<BaseField = BabyBear, PositiveInteger = u64> + Randomizable + core::fmt::Debug
    {
        const D: usize;
        const W: u32;
        fn from_coeffs(c: &[BabyBear]) -> Self;
        fn coeffs(&self) -> &[BabyBear];
        fn frobenius(self) -> Self;
    }

    fn monomial<E: Binomial>(k: usize, c: BabyBear) -> E {
        let mut v = alloc::vec![BabyBear::ZERO; E::D];
        v[k] = c;
        E::from_coeffs(&v)
    }

    /// Zero, one, minus one, `x`, `-x^(D-1)`, then pseudo-random elements (an LCG), `n` in all.
    pub fn sample<E: Binomial>(seed: u64, n: usize) -> Vec<E> {
        let mut s = seed;
        let mut next = || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            BabyBear::new(((s >> 33) % P) as u32)
        };
        let mut v = alloc::vec![E::ZERO, E::ONE, -E::ONE];
        v.push(monomial(1, BabyBear::ONE));
        v.push(monomial(E::D - 1, -BabyBear::ONE));
        while v.len() < n {
            let c: Vec<BabyBear> = (0..E::D).map(|_| next()).collect();
            v.push(E::from_coeffs(&c));
        }
        v
    }

    /// `x^D = W`, and `x` generates no smaller power of `W`.
    pub fn x_to_the_degree_is_w<E: Binomial>() {
        let x: E = monomial(1, BabyBear::ONE);
        assert_eq!(x.exp(E::D as u64), E::from(BabyBear::new(E::W)));
        assert_ne!(x.exp(E::D as u64 - 1), E::from(BabyBear::new(E::W)));
    }

    pub fn field_laws<E: Binomial>(v: &[E]) {
        for &a in v {
            assert_eq!(a + E::ZERO, a);
            assert_eq!(a * E::ONE, a);
            assert_eq!(a + (-a), E::ZERO);
            assert_eq!(a.square(), a * a);
            for &b in v {
                assert_eq!(a + b, b + a);
                assert_eq!(a * b, b * a);
                for &c in v {
                    assert_eq!((a * b) * c, a * (b * c));
                    assert_eq!((a + b) * c, a * c + b * c);
                }
            }
            let s = BabyBear::new(987_654_321);
            assert_eq!(a.mul_base(s), a * E::from(s));
        }
    }

    pub fn inversion<E: Binomial>(v: &[E]) {
        for &a in v {
            if a == E::ZERO {
                assert_eq!(a.inv(), E::ZERO);
            } else {
                assert_eq!(a * a.inv(), E::ONE, "{a:?}");
                assert_eq!(a.inv().inv(), a);
            }
        }
    }

    /// The Frobenius is `a -> a^p`, of order exactly `D` on `x` (the extension has degree
    /// `D`), and the norm (product of the conjugates) lies in the base field.
    pub fn frobenius<E: Binomial>(v: &[E]) {
        for &a in v {
            let f = a.frobenius();
            assert_eq!(f, a.exp(P));
            let (mut g, mut norm) = (a, a);
            for _ in 1..E::D {
                g = g.frobenius();
                norm *= g;
            }
            assert_eq!(g.frobenius(), a);
            assert!(norm.coeffs()[1..].iter().all(|c| *c == BabyBear::ZERO));
        }
        let x: E = monomial(1, BabyBear::ONE);
        let mut g = x;
        for _ in 1..E::D {
            g = g.frobenius();
            assert_ne!(g, x);
        }
    }

    /// `D` canonical little-endian words; any coefficient equal to `p` is refused, and so is
    /// a short buffer.
    pub fn serialization<E>(v: &[E])
    where
        E: Binomial + Serializable + Deserializable + for<'a> TryFrom<&'a [u8]>,
    {
        for &a in v {
            let bytes = a.to_bytes();
            assert_eq!(bytes.len(), 4 * E::D);
            assert_eq!(E::read_from_bytes(&bytes).unwrap(), a);
            assert_eq!(E::from_random_bytes(&bytes), Some(a));
        }
        for i in 0..E::D {
            let mut bad = E::ONE.to_bytes();
            bad[4 * i..4 * i + 4].copy_from_slice(&(P as u32).to_le_bytes());
            assert!(E::read_from_bytes(&bad).is_err(), "coefficient {i}");
            assert_eq!(E::from_random_bytes(&bad), None);
        }
        assert!(E::try_from(&E::ONE.to_bytes()[..4 * E::D - 1]).is_err());
    }
}

//! A degree-6 extension of Mersenne-31 as a Plonky3 challenge field, for `p3-m31`'s proven
//! track (issue 15): 186 bits, enough for list-decoding soundness (Johnson bound) to reach 100
//! bits where QM31 (124 bits) cannot. p3-mersenne-31 0.8 has no `ExtensionField<Mersenne31>`
//! of degree 6, and the orphan rule keeps us from declaring one through upstream's
//! `BinomiallyExtendable`/`HasComplexBinomialExtension` traits, so this is our own type.
//!
//! The field is a tower: CM31 = `F_p[i]/(i^2 + 1)` (upstream's `Complex<Mersenne31>`), then
//! `CM31[u]/(u^3 - 5)`. 5 is not a cube in `F_p` (p - 1 = 2 * 3^2 * ...), hence not in
//! `F_{p^2}` either (a cube root of unity `z` has `z^(p+1) = z^2 != 1` since `3 | p - 1` but
//! not `p + 1`), so `u^3 - 5` is irreducible over CM31 (tested). Products, squares and
//! inverses are `picostark-field`'s `M31Sextic` (same basis and words): multiplying by 5 is
//! two doublings and an addition, and each output word six 32x32-bit products summed wide.
//!
//! The basis over `Mersenne31`, in order: `1, i, u, i*u, u^2, i*u^2`, i.e. the coefficient
//! array is three CM31 values (real, imaginary). The wire form (serde, hence postcard) is
//! the six base elements in that order, each as Mersenne-31 encodes itself (4 bytes, values
//! `>= p` rejected), as upstream does for its extension fields.
//!
//! Packing: the type is its own `ExtensionPacking`, which Plonky3 allows only where
//! `Mersenne31::Packing` is `Mersenne31` itself (no AVX2/AVX-512/NEON): the host's default
//! x86-64 target and both MCU targets. A SIMD build stops with a `compile_error!` saying so
//! (a packed sextic would be needed there).

#[cfg(any(
    all(target_arch = "aarch64", target_feature = "neon"),
    all(target_arch = "x86_64", target_feature = "avx2")
))]
compile_error!(
    "M31Sextic is its own packing: build without AVX2/NEON (Mersenne31::Packing must be Mersenne31)"
);

use alloc::vec::Vec;
use core::fmt::{self, Display, Formatter};
use core::iter::{Product, Sum};
use core::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Sub, SubAssign};

use num_bigint::BigUint;
use p3_field::extension::Complex;
use p3_field::{
    Algebra, AlgebraIdentity, BasedVectorSpace, ExtensionField, Field, Packable,
    PackedFieldExtension, Powers, PrimeCharacteristicRing, RawDataSerializable,
};
use p3_mersenne_31::Mersenne31;
use serde::{Deserialize, Serialize};

type F = Mersenne31;
type Cm31 = Complex<Mersenne31>;

/// `u^3 = CUBIC_NONRESIDUE`: the non-cube defining the cubic layer.
pub const CUBIC_NONRESIDUE: u32 = 5;

/// An element of `F_{p^6}`, `p = 2^31 - 1`: coefficients on `1, i, u, iu, u^2, iu^2`.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct M31Sextic {
    coeffs: [F; 6],
}

impl M31Sextic {
    /// The element with these base coefficients (basis `1, i, u, iu, u^2, iu^2`).
    pub const fn new(coeffs: [F; 6]) -> Self {
        Self { coeffs }
    }

    #[inline]
    fn from_layers(l: [Cm31; 3]) -> Self {
        Self::new([
            l[0].real(),
            l[0].imag(),
            l[1].real(),
            l[1].imag(),
            l[2].real(),
            l[2].imag(),
        ])
    }

    /// The element of CM31 on the first layer (`a + b i`), embedded.
    pub fn from_cm31(c: Cm31) -> Self {
        Self::from_layers([c, Cm31::ZERO, Cm31::ZERO])
    }

    #[inline]
    fn map(self, f: impl Fn(F) -> F) -> Self {
        Self::new(self.coeffs.map(f))
    }

    #[inline]
    fn zip(self, rhs: Self, f: impl Fn(F, F) -> F) -> Self {
        let (a, b) = (self.coeffs, rhs.coeffs);
        Self::new(core::array::from_fn(|k| f(a[k], b[k])))
    }

    /// The same element as `picostark-field`'s sextic (same basis, same words).
    #[inline(always)]
    fn ours(self) -> picostark_field::M31Sextic {
        // SAFETY: `Mersenne31` is `#[repr(transparent)]` over its `u32` word, which is below
        // `2^31` (`p` itself a second zero), the word invariant of ours too.
        picostark_field::M31Sextic::from_raw(
            self.coeffs
                .map(|c| unsafe { core::mem::transmute::<F, u32>(c) }),
        )
    }

    /// The element with `o`'s words.
    #[inline(always)]
    fn of_ours(o: picostark_field::M31Sextic) -> Self {
        // SAFETY: as in `ours`; our products keep every word at most `p` (property tests).
        Self::new(
            o.raw()
                .map(|w| unsafe { core::mem::transmute::<u32, F>(w) }),
        )
    }
}

impl PrimeCharacteristicRing for M31Sextic {
    type PrimeSubfield = F;

    const ZERO: Self = Self::new([F::ZERO; 6]);
    const ONE: Self = Self::new([F::ONE, F::ZERO, F::ZERO, F::ZERO, F::ZERO, F::ZERO]);
    const TWO: Self = Self::new([F::TWO, F::ZERO, F::ZERO, F::ZERO, F::ZERO, F::ZERO]);
    const NEG_ONE: Self = Self::new([F::NEG_ONE, F::ZERO, F::ZERO, F::ZERO, F::ZERO, F::ZERO]);

    #[inline]
    fn from_prime_subfield(f: F) -> Self {
        Self::from(f)
    }

    #[inline]
    fn square(&self) -> Self {
        Self::of_ours(self.ours().square())
    }

    #[inline]
    fn halve(&self) -> Self {
        self.map(|x| x.halve())
    }
}

impl From<F> for M31Sextic {
    #[inline]
    fn from(f: F) -> Self {
        Self::new([f, F::ZERO, F::ZERO, F::ZERO, F::ZERO, F::ZERO])
    }
}

impl Add for M31Sextic {
    type Output = Self;
    #[inline]
    fn add(self, rhs: Self) -> Self {
        self.zip(rhs, |a, b| a + b)
    }
}

impl Sub for M31Sextic {
    type Output = Self;
    #[inline]
    fn sub(self, rhs: Self) -> Self {
        self.zip(rhs, |a, b| a - b)
    }
}

impl Neg for M31Sextic {
    type Output = Self;
    #[inline]
    fn neg(self) -> Self {
        self.map(|a| -a)
    }
}

impl Mul for M31Sextic {
    type Output = Self;
    /// `picostark-field`'s product (six partial products summed wide per word, issue 44).
    #[inline]
    fn mul(self, rhs: Self) -> Self {
        Self::of_ours(self.ours().mul(rhs.ours()))
    }
}

impl Div for M31Sextic {
    type Output = Self;
    #[allow(clippy::suspicious_arithmetic_impl)]
    #[inline]
    fn div(self, rhs: Self) -> Self {
        self * rhs.inverse()
    }
}

impl Add<F> for M31Sextic {
    type Output = Self;
    #[inline]
    fn add(mut self, rhs: F) -> Self {
        self.coeffs[0] += rhs;
        self
    }
}

impl Sub<F> for M31Sextic {
    type Output = Self;
    #[inline]
    fn sub(mut self, rhs: F) -> Self {
        self.coeffs[0] -= rhs;
        self
    }
}

impl Mul<F> for M31Sextic {
    type Output = Self;
    #[inline]
    fn mul(self, rhs: F) -> Self {
        self.map(|a| a * rhs)
    }
}

macro_rules! assign_ops {
    ($($trait:ident $method:ident $op:tt $rhs:ty;)*) => {$(
        impl $trait<$rhs> for M31Sextic {
            #[inline]
            fn $method(&mut self, rhs: $rhs) {
                *self = *self $op rhs;
            }
        }
    )*};
}

assign_ops! {
    AddAssign add_assign + M31Sextic;
    SubAssign sub_assign - M31Sextic;
    MulAssign mul_assign * M31Sextic;
    DivAssign div_assign / M31Sextic;
    AddAssign add_assign + F;
    SubAssign sub_assign - F;
    MulAssign mul_assign * F;
}

impl Sum for M31Sextic {
    fn sum<I: Iterator<Item = Self>>(iter: I) -> Self {
        iter.fold(Self::ZERO, |acc, x| acc + x)
    }
}

impl Product for M31Sextic {
    fn product<I: Iterator<Item = Self>>(iter: I) -> Self {
        iter.fold(Self::ONE, |acc, x| acc * x)
    }
}

impl Algebra<F> for M31Sextic {}

impl BasedVectorSpace<F> for M31Sextic {
    const DIMENSION: usize = 6;

    #[inline]
    fn as_basis_coefficients_slice(&self) -> &[F] {
        &self.coeffs
    }

    #[inline]
    fn from_basis_coefficients_fn<Fn: FnMut(usize) -> F>(f: Fn) -> Self {
        Self::new(core::array::from_fn(f))
    }

    #[inline]
    fn from_basis_coefficients_iter<I: ExactSizeIterator<Item = F>>(mut iter: I) -> Option<Self> {
        if iter.len() != 6 {
            return None;
        }
        let mut coeffs = [F::ZERO; 6];
        for c in &mut coeffs {
            *c = iter.next()?;
        }
        Some(Self::new(coeffs))
    }
}

impl AlgebraIdentity<F> for M31Sextic {
    /// Names the defining relations and the basis order (it enters Plonky3's transcript
    /// domain separators, so a change of representation changes every challenge).
    fn algebra_id() -> Vec<u8> {
        b"picostark-m31-sextic-v1:i^2+1,u^3-5;basis 1,i,u,iu,u^2,iu^2".to_vec()
    }
}

impl RawDataSerializable for M31Sextic {
    const NUM_BYTES: usize = 6 * F::NUM_BYTES;

    #[inline]
    fn into_bytes(self) -> impl IntoIterator<Item = u8> {
        self.coeffs.into_iter().flat_map(|c| c.into_bytes())
    }
}

impl Packable for M31Sextic {}

impl Display for M31Sextic {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let c = &self.coeffs;
        write!(
            f,
            "({} + {} i) + ({} + {} i) u + ({} + {} i) u^2",
            c[0], c[1], c[2], c[3], c[4], c[5]
        )
    }
}

impl Field for M31Sextic {
    type Packing = Self;

    /// `(2 + i) + u`, a generator of the multiplicative group (order `p^6 - 1`; checked in
    /// the tests against every prime factor).
    const GENERATOR: Self = Self::new([
        Mersenne31::new(2),
        Mersenne31::new(1),
        Mersenne31::new(1),
        F::ZERO,
        F::ZERO,
        F::ZERO,
    ]);

    /// `picostark-field`'s inverse: the adjugate over CM31 and one CM31 inversion.
    fn try_inverse(&self) -> Option<Self> {
        let o = self.ours();
        (!o.is_zero()).then(|| Self::of_ours(o.inverse()))
    }

    fn order() -> BigUint {
        F::order().pow(6)
    }
}

impl ExtensionField<F> for M31Sextic {
    type ExtensionPacking = Self;

    #[inline]
    fn is_in_basefield(&self) -> bool {
        self.coeffs[1..].iter().all(|c| *c == F::ZERO)
    }

    #[inline]
    fn as_base(&self) -> Option<F> {
        ExtensionField::<F>::is_in_basefield(self).then_some(self.coeffs[0])
    }
}

/// One lane: `Mersenne31::Packing` is `Mersenne31` on the targets this module compiles for.
impl PackedFieldExtension<F, M31Sextic> for M31Sextic {
    #[inline]
    fn packed_ext_powers(base: M31Sextic) -> Powers<Self> {
        base.powers()
    }
}

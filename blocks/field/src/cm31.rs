//! CM31 = M31[i] / (i^2 + 1), the complex extension of Mersenne-31 (`-1` is a non-residue
//! since `p = 3 mod 4`).
//!
//! Why: it is the middle floor of QM31 (see `qm31`), the tower Plonky3 0.8 and Stwo use for
//! Mersenne-31 challenges. Stored as `[re, im]`, Plonky3's `Complex<Mersenne31>` layout. A
//! product forms each coefficient as a sum of two 32x32->64-bit products in `u64` (the
//! subtracted one with its factor negated, `p - w`), reduced once.

use crate::m31::{fold, reduce_wide, P};
use crate::{Field, M31};

/// An element `re + im * i` of CM31, stored `[re, im]` like Plonky3's `Complex<Mersenne31>`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
pub struct CM31 {
    /// The real coefficient.
    pub re: M31,
    /// The coefficient of `i`.
    pub im: M31,
}

impl CM31 {
    /// Zero.
    pub const ZERO: Self = Self::new(M31::ZERO, M31::ZERO);
    /// One.
    pub const ONE: Self = Self::new(M31::ONE, M31::ZERO);

    /// `re + im * i`.
    #[inline(always)]
    pub const fn new(re: M31, im: M31) -> Self {
        Self { re, im }
    }

    /// The element whose words are `[re, im]` (each below `2^31`).
    #[inline(always)]
    pub const fn from_raw(w: [u32; 2]) -> Self {
        Self::new(M31::from_raw(w[0]), M31::from_raw(w[1]))
    }

    /// The stored words `[re, im]`.
    #[inline(always)]
    pub const fn raw(self) -> [u32; 2] {
        [self.re.raw(), self.im.raw()]
    }

    /// `self + rhs`.
    #[inline(always)]
    #[allow(clippy::should_implement_trait)]
    pub const fn add(self, rhs: Self) -> Self {
        Self::new(self.re.add(rhs.re), self.im.add(rhs.im))
    }

    /// `self - rhs`.
    #[inline(always)]
    #[allow(clippy::should_implement_trait)]
    pub const fn sub(self, rhs: Self) -> Self {
        Self::new(self.re.sub(rhs.re), self.im.sub(rhs.im))
    }

    /// `-self`.
    #[inline(always)]
    #[allow(clippy::should_implement_trait)]
    pub const fn neg(self) -> Self {
        Self::new(self.re.neg(), self.im.neg())
    }

    /// The conjugate `re - im * i`.
    #[inline(always)]
    pub const fn conj(self) -> Self {
        Self::new(self.re, self.im.neg())
    }

    /// `self * rhs`: `(a0 b0 - a1 b1) + (a0 b1 + a1 b0) i`, each coefficient two products
    /// summed in `u64` and reduced once.
    #[inline(always)]
    #[allow(clippy::should_implement_trait)]
    pub fn mul(self, rhs: Self) -> Self {
        let (a0, a1) = (self.re.raw() as u64, self.im.raw() as u64);
        let (b0, b1) = (rhs.re.raw() as u64, rhs.im.raw() as u64);
        let na1 = (P - self.im.raw()) as u64;
        Self::new(
            M31::from_raw(reduce_wide(a0 * b0 + na1 * b1)),
            M31::from_raw(reduce_wide(a0 * b1 + a1 * b0)),
        )
    }

    /// `self * self`: `(a0 + a1)(a0 - a1) + 2 a0 a1 i`.
    #[inline(always)]
    pub const fn square(self) -> Self {
        let (a0, a1) = (self.re, self.im);
        Self::new(a0.add(a1).mul(a0.sub(a1)), a0.double().mul(a1))
    }

    /// `self * (2 + i) = (2 re - im) + (re + 2 im) i`, with additions only: the non-residue
    /// `W` of QM31.
    #[inline(always)]
    pub const fn mul_by_w(self) -> Self {
        let (r, m) = (self.re.raw(), self.im.raw());
        let re = fold(r + fold(r + (P - m)));
        let im = fold(m + fold(r + m));
        Self::new(M31::from_raw(re), M31::from_raw(im))
    }

    /// The norm `re^2 + im^2`, in M31.
    #[inline]
    pub fn norm(self) -> M31 {
        let (a0, a1) = (self.re.raw() as u64, self.im.raw() as u64);
        M31::from_raw(reduce_wide(a0 * a0 + a1 * a1))
    }

    /// `self^-1 = conj / norm`, zero mapped to zero.
    pub fn inverse(self) -> Self {
        let n = self.norm().inverse();
        let c = self.conj();
        Self::new(c.re.mul(n), c.im.mul(n))
    }

    /// Whether the element is zero.
    #[inline]
    pub const fn is_zero(self) -> bool {
        self.re.is_zero() && self.im.is_zero()
    }
}

impl Field for CM31 {
    const ONE: Self = Self::ONE;
    #[inline]
    fn mul(self, rhs: Self) -> Self {
        CM31::mul(self, rhs)
    }
    #[inline]
    fn inverse(self) -> Self {
        CM31::inverse(self)
    }
}

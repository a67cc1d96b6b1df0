//! The quartic extension of BabyBear, `F_p[x] / (x^4 - 11)`, as a winter-math
//! [`FieldElement`] over [`BabyBear`]: the challenge field of the wf-babybear backend
//! (about 124 bits), matching the zkmcu fork's `Quartic` extension.
//!
//! Upstream winterfell 0.13.1 has no quartic extension; its prover is generic over any
//! `E: FieldElement<BaseField = B>`, so this type is what makes a BabyBear proof with a
//! quartic challenge field from the upstream prover possible.
//!
//! An element `a0 + a1 x + a2 x^2 + a3 x^3` is stored as `[a0, a1, a2, a3]` (`repr(C)`,
//! so a slice of them is a slice of base elements, which the prover relies on) and serializes
//! as four canonical little-endian `u32`s in that order.

use core::ops::Mul;

use winter_math::{FieldElement, StarkField};

use super::babybear::{BabyBear, QUARTIC_W};
use super::extension::{babybear_extension, extension_slices};

/// `11^((p-1)/4)`: the Frobenius maps `x` to `FROB_X * x`.
fn frob_x() -> BabyBear {
    // A primitive 4th root of unity; cheap enough to recompute (30 squarings) where needed.
    QUARTIC_W.exp((BabyBear::MODULUS - 1) / 4)
}

/// An element of `F_p[x] / (x^4 - 11)` over BabyBear.
#[derive(Copy, Clone, Default, PartialEq, Eq)]
#[repr(C)]
pub struct Quartic(pub [BabyBear; 4]);

impl Quartic {
    /// The element with coefficients `[a0, a1, a2, a3]`.
    pub const fn new(coeffs: [BabyBear; 4]) -> Self {
        Quartic(coeffs)
    }

    /// `W * a` for the non-residue `W = 11`.
    #[inline(always)]
    fn mul_w(a: BabyBear) -> BabyBear {
        QUARTIC_W * a
    }

    /// Karatsuba product of two degree-1 polynomials: `(u0 + u1 y)(v0 + v1 y)` as 3
    /// coefficients, with 3 base multiplications instead of 4.
    #[inline(always)]
    fn karatsuba2(u: [BabyBear; 2], v: [BabyBear; 2]) -> [BabyBear; 3] {
        let lo = u[0] * v[0];
        let hi = u[1] * v[1];
        let mid = (u[0] + u[1]) * (v[0] + v[1]) - lo - hi;
        [lo, mid, hi]
    }

    /// The image under `x -> -x` (the Frobenius squared).
    fn conj2(self) -> Self {
        let a = self.0;
        Quartic([a[0], -a[1], a[2], -a[3]])
    }

    /// The Frobenius automorphism `a -> a^p`.
    pub fn frobenius(self) -> Self {
        let w = frob_x();
        let a = self.0;
        // x^p = w x, so x^k maps to w^k x^k; w^2 = -1 since 11 is a non-square.
        Quartic([a[0], a[1] * w, -a[2], -(a[3] * w)])
    }
}

babybear_extension!(Quartic, 4, "quartic", [0, 1, 2, 3]);

impl Mul for Quartic {
    type Output = Self;
    /// Two-level Karatsuba: split each operand into halves `A0 + A1 x^2`, multiply the halves
    /// with `Quartic::karatsuba2`, then reduce with `x^4 = 11`. 9 base multiplications
    /// (plus 3 by the constant) instead of 16.
    #[inline]
    fn mul(self, r: Self) -> Self {
        let (a, b) = (self.0, r.0);
        let (a0, a1) = ([a[0], a[1]], [a[2], a[3]]);
        let (b0, b1) = ([b[0], b[1]], [b[2], b[3]]);
        let lo = Self::karatsuba2(a0, b0);
        let hi = Self::karatsuba2(a1, b1);
        let sum = Self::karatsuba2(
            [a0[0] + a1[0], a0[1] + a1[1]],
            [b0[0] + b1[0], b0[1] + b1[1]],
        );
        let mid = [
            sum[0] - lo[0] - hi[0],
            sum[1] - lo[1] - hi[1],
            sum[2] - lo[2] - hi[2],
        ];
        // Product coefficients r0..r6: lo at 0..2, mid at 2..4, hi at 4..6.
        let r0 = lo[0];
        let r1 = lo[1];
        let r2 = lo[2] + mid[0];
        let r3 = mid[1];
        let r4 = mid[2] + hi[0];
        let r5 = hi[1];
        let r6 = hi[2];
        Quartic([
            r0 + Self::mul_w(r4),
            r1 + Self::mul_w(r5),
            r2 + Self::mul_w(r6),
            r3,
        ])
    }
}

impl FieldElement for Quartic {
    type PositiveInteger = u64;
    type BaseField = BabyBear;

    const EXTENSION_DEGREE: usize = 4;
    const ELEMENT_BYTES: usize = 16;
    const IS_CANONICAL: bool = false;
    const ZERO: Self = Quartic([BabyBear::ZERO; 4]);
    const ONE: Self = Quartic([
        BabyBear::ONE,
        BabyBear::ZERO,
        BabyBear::ZERO,
        BabyBear::ZERO,
    ]);

    /// Inversion through the subfield `F_p(s)`, `s = x^2`, `s^2 = 11`: with `a = U + x V`,
    /// `a * conj2(a) = U^2 - s V^2` lies in `F_p(s)`, where inverting costs one base inversion.
    fn inv(self) -> Self {
        if self == Self::ZERO {
            return self;
        }
        let a = self.0;
        let w = QUARTIC_W;
        // U = a0 + a2 s, V = a1 + a3 s (elements of F_p(s) as [c0, c1]).
        let (u0, u1, v0, v1) = (a[0], a[2], a[1], a[3]);
        // U^2 = (u0^2 + 11 u1^2) + 2 u0 u1 s; V^2 likewise; s V^2 = 11 * 2 v0 v1 + (v0^2 + 11 v1^2) s.
        let u2 = [u0 * u0 + w * (u1 * u1), (u0 * u1).double()];
        let v2 = [v0 * v0 + w * (v1 * v1), (v0 * v1).double()];
        let sv2 = [w * v2[1], v2[0]];
        let n = [u2[0] - sv2[0], u2[1] - sv2[1]];
        // (n0 + n1 s)^-1 = (n0 - n1 s) / (n0^2 - 11 n1^2).
        let d = (n[0] * n[0] - w * (n[1] * n[1])).inv();
        let n_inv = [n[0] * d, -(n[1] * d)];
        // a^-1 = conj2(a) * n^-1, with n^-1 = c0 + c1 x^2.
        let c = self.conj2();
        c * Quartic([n_inv[0], BabyBear::ZERO, n_inv[1], BabyBear::ZERO])
    }

    fn conjugate(&self) -> Self {
        self.frobenius()
    }

    extension_slices!(4, "quartic");
}

#[cfg(test)]
mod tests {
    use super::super::extension::laws::{self, Binomial};
    use super::*;

    impl Binomial for Quartic {
        const D: usize = 4;
        const W: u32 = 11;
        fn from_coeffs(c: &[BabyBear]) -> Self {
            Quartic([c[0], c[1], c[2], c[3]])
        }
        fn coeffs(&self) -> &[BabyBear] {
            &self.0
        }
        fn frobenius(self) -> Self {
            Quartic::frobenius(self)
        }
    }

    fn sample(n: usize) -> alloc::vec::Vec<Quartic> {
        laws::sample(0x9e37_79b9_7f4a_7c15, n)
    }

    /// Schoolbook multiplication modulo x^4 - 11, as an independent reference.
    fn schoolbook(a: Quartic, b: Quartic) -> Quartic {
        let mut r = [BabyBear::ZERO; 7];
        for i in 0..4 {
            for j in 0..4 {
                r[i + j] += a.0[i] * b.0[j];
            }
        }
        let w = BabyBear::new(11);
        Quartic([r[0] + w * r[4], r[1] + w * r[5], r[2] + w * r[6], r[3]])
    }

    #[test]
    fn karatsuba_matches_schoolbook() {
        let v = sample(20);
        for &a in &v {
            for &b in &v {
                assert_eq!(a * b, schoolbook(a, b));
            }
        }
    }

    #[test]
    fn binomial_extension_laws() {
        laws::x_to_the_degree_is_w::<Quartic>();
        laws::field_laws(&sample(12));
        laws::inversion(&sample(40));
        laws::frobenius(&sample(10));
        laws::serialization(&sample(6));
    }
}

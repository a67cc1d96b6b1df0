//! The quintic extension of BabyBear, `F_p[x] / (x^5 - 2)` (about 155 bits), as a winter-math
//! [`FieldElement`] over [`BabyBear`]: the wf-babybear challenge field of the proven-security
//! track (issue 15), where the quartic's 124 bits keep list decoding below 100 bits.
//!
//! Same modulus as Plonky3's BabyBear^5 (p3-baby-bear's `BinomialExtensionData<5>`, `W = 2`,
//! which is not a fifth power since 5 divides p - 1). Like [`super::Quartic`], an element
//! `a0 + ... + a4 x^4` is stored as `[a0, .., a4]` (`repr(C)`: a slice of them is a slice of
//! base elements, which the prover relies on) and serializes as five canonical little-endian
//! `u32`s; a non-canonical coefficient is a deserialization error.

use core::ops::Mul;

use winter_math::{ExtensionOf, FieldElement};

use super::babybear::{const_pow, BabyBear, MODULUS};
use super::extension::{babybear_extension, extension_slices};

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

babybear_extension!(Quintic, 5, "quintic", [0, 1, 2, 3, 4]);

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

    extension_slices!(5, "quintic");
}

#[cfg(test)]
mod tests {
    use super::super::extension::laws::{self, Binomial};
    use super::*;

    impl Binomial for Quintic {
        const D: usize = 5;
        const W: u32 = 2;
        fn from_coeffs(c: &[BabyBear]) -> Self {
            Quintic([c[0], c[1], c[2], c[3], c[4]])
        }
        fn coeffs(&self) -> &[BabyBear] {
            &self.0
        }
        fn frobenius(self) -> Self {
            Quintic::frobenius(self)
        }
    }

    fn sample(n: usize) -> alloc::vec::Vec<Quintic> {
        laws::sample(0x2545_f491_4f6c_dd1d, n)
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
    }

    #[test]
    fn binomial_extension_laws() {
        laws::x_to_the_degree_is_w::<Quintic>();
        laws::field_laws(&sample(10));
        laws::inversion(&sample(40));
        laws::frobenius(&sample(8));
        laws::serialization(&sample(6));
    }
}

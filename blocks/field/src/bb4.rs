//! BabyBear^4 = BabyBear[x] / (x^4 - 11), the quartic extension Plonky3 0.8 defines
//! (`BinomialExtensionField<BabyBear, 4>`, `W = 11` from `BinomiallyExtendable<4>`).
//!
//! Why a product of our own: Plonky3 reduces each base product (or small sums of them).
//! Here each output coefficient is four Montgomery-form products summed in `u64` (at most
//! `4 (p - 1)^2 < 2^64`) and Montgomery-reduced once. The `W` in the wrapped-around terms is
//! folded into the `x` factors first: `11 x1, 11 x2, 11 x3` by three base products with the
//! Montgomery word of 11, so the sums stay below `2^64`.

use crate::babybear::{monty_reduce, monty_reduce_wide};
use crate::{BabyBear, Field};

/// `W = 11`, the non-residue of `x^4 - W`.
const W: BabyBear = BabyBear::new(11);

/// An element `c0 + c1 x + c2 x^2 + c3 x^3` of BabyBear^4, stored `[c0, c1, c2, c3]` in
/// Montgomery words like Plonky3's `BinomialExtensionField<BabyBear, 4>`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(transparent)]
pub struct BabyBear4(pub [BabyBear; 4]);

/// `a * b` as a 32x32->64-bit product (one `UMULL`, or `mul` + `mulhu`).
#[inline(always)]
const fn wide(a: u32, b: u32) -> u64 {
    a as u64 * b as u64
}

/// The four unreduced coefficient sums of `a * b` (each at most `4 (p - 1)^2`), written out
/// term by term (at opt-level `s` an array `map` stays a loop).
#[inline(always)]
const fn mul_sums(a: &[u32; 4], b: &[u32; 4]) -> [u64; 4] {
    let [a0, a1, a2, a3] = *a;
    let [b0, b1, b2, b3] = *b;
    let w = W.raw();
    let (w1, w2, w3) = (
        monty_reduce(wide(a1, w)),
        monty_reduce(wide(a2, w)),
        monty_reduce(wide(a3, w)),
    );
    [
        wide(a0, b0) + wide(w1, b3) + wide(w2, b2) + wide(w3, b1),
        wide(a0, b1) + wide(a1, b0) + wide(w2, b3) + wide(w3, b2),
        wide(a0, b2) + wide(a1, b1) + wide(a2, b0) + wide(w3, b3),
        wide(a0, b3) + wide(a1, b2) + wide(a2, b1) + wide(a3, b0),
    ]
}

impl BabyBear4 {
    /// Zero.
    pub const ZERO: Self = Self([BabyBear::ZERO; 4]);
    /// One.
    pub const ONE: Self = Self([
        BabyBear::ONE,
        BabyBear::ZERO,
        BabyBear::ZERO,
        BabyBear::ZERO,
    ]);

    /// The element whose Montgomery words are `w` (each below `p`).
    #[inline(always)]
    pub const fn from_raw(w: [u32; 4]) -> Self {
        Self([
            BabyBear::from_raw(w[0]),
            BabyBear::from_raw(w[1]),
            BabyBear::from_raw(w[2]),
            BabyBear::from_raw(w[3]),
        ])
    }

    /// The stored Montgomery words.
    #[inline(always)]
    pub const fn raw(self) -> [u32; 4] {
        let c = self.0;
        [c[0].raw(), c[1].raw(), c[2].raw(), c[3].raw()]
    }

    /// `self + rhs`.
    #[inline(always)]
    #[allow(clippy::should_implement_trait)]
    pub const fn add(self, rhs: Self) -> Self {
        let (a, b) = (self.0, rhs.0);
        Self([
            a[0].add(b[0]),
            a[1].add(b[1]),
            a[2].add(b[2]),
            a[3].add(b[3]),
        ])
    }

    /// `self - rhs`.
    #[inline(always)]
    #[allow(clippy::should_implement_trait)]
    pub const fn sub(self, rhs: Self) -> Self {
        let (a, b) = (self.0, rhs.0);
        Self([
            a[0].sub(b[0]),
            a[1].sub(b[1]),
            a[2].sub(b[2]),
            a[3].sub(b[3]),
        ])
    }

    /// `self * rhs`: three base products for `11 a1..a3`, then sixteen 32x32->64-bit
    /// products, four per coefficient summed in `u64`, one reduction per coefficient.
    #[inline(always)]
    #[allow(clippy::should_implement_trait)]
    pub fn mul(self, rhs: Self) -> Self {
        let [s0, s1, s2, s3] = mul_sums(&self.raw(), &rhs.raw());
        Self::from_raw([
            monty_reduce_wide(s0),
            monty_reduce_wide(s1),
            monty_reduce_wide(s2),
            monty_reduce_wide(s3),
        ])
    }

    /// `self * s` for `s` in BabyBear: four base products.
    #[inline(always)]
    pub const fn mul_base(self, s: BabyBear) -> Self {
        let a = self.0;
        Self([a[0].mul(s), a[1].mul(s), a[2].mul(s), a[3].mul(s)])
    }

    /// `self * rhs` by Karatsuba over the tower BabyBear^4 = BabyBear^2\[x\]/(x^2 - z),
    /// BabyBear^2 = BabyBear\[z\]/(z^2 - 11) (`z = x^2`): three BabyBear^2 products, each
    /// three base products, plus four products by 11, every one reduced at once: 13 base
    /// products against [`Self::mul`]'s 16 summed lazily (3 of them reduced at once). Same
    /// value as [`Self::mul`]; kept for the field micro-benchmark's schoolbook-against-
    /// Karatsuba comparison.
    #[inline(always)]
    pub fn mul_karatsuba(self, rhs: Self) -> Self {
        /// `(c0 + c1 z)(d0 + d1 z)` with `z^2 = 11`: three base products and one by 11.
        #[inline(always)]
        fn mul2(c: [BabyBear; 2], d: [BabyBear; 2]) -> [BabyBear; 2] {
            let m0 = c[0].mul(d[0]);
            let m1 = c[1].mul(d[1]);
            let m2 = c[0].add(c[1]).mul(d[0].add(d[1]));
            [m0.add(W.mul(m1)), m2.sub(m0).sub(m1)]
        }
        let [a0, a1, a2, a3] = self.0;
        let [b0, b1, b2, b3] = rhs.0;
        // Even part (1, z) and odd part (x, x z) of each factor.
        let (p0, p1) = ([a0, a2], [a1, a3]);
        let (q0, q1) = ([b0, b2], [b1, b3]);
        let t0 = mul2(p0, q0);
        let t1 = mul2(p1, q1);
        let t2 = mul2(
            [p0[0].add(p1[0]), p0[1].add(p1[1])],
            [q0[0].add(q1[0]), q0[1].add(q1[1])],
        );
        // even = t0 + z t1 (z (u0 + u1 z) = 11 u1 + u0 z); odd = t2 - t0 - t1.
        let even = [t0[0].add(W.mul(t1[1])), t0[1].add(t1[0])];
        let odd = [t2[0].sub(t0[0]).sub(t1[0]), t2[1].sub(t0[1]).sub(t1[1])];
        Self([even[0], odd[0], even[1], odd[1]])
    }

    /// `self * self`.
    #[inline(always)]
    pub fn square(self) -> Self {
        self.mul(self)
    }

    /// `self^-1`, zero mapped to zero: with `a = a(x)`, `b = a(-x)` and `d = a b` (even,
    /// so `d(x) = e(x^2)` with `e` in BabyBear^2), `f = e(y) e(-y)` is in BabyBear and
    /// `a^-1 = b e(-x^2) / f`.
    pub fn inverse(self) -> Self {
        let a = self.0;
        let b = Self([a[0], a[1].neg(), a[2], a[3].neg()]);
        let d = self.mul(b).0; // d1 = d3 = 0
        let c = Self([d[0], BabyBear::ZERO, d[2].neg(), BabyBear::ZERO]); // e(-x^2)
                                                                          // f = e0^2 - W e1^2 with e = d0 + d2 y and y^2 = W.
        let f = d[0].square().sub(W.mul(d[2].square())).inverse();
        let g = b.mul(c).0;
        Self([g[0].mul(f), g[1].mul(f), g[2].mul(f), g[3].mul(f)])
    }

    /// Whether the element is zero.
    #[inline]
    pub const fn is_zero(self) -> bool {
        let a = self.0;
        a[0].is_zero() && a[1].is_zero() && a[2].is_zero() && a[3].is_zero()
    }
}

impl Field for BabyBear4 {
    const ONE: Self = Self::ONE;
    #[inline]
    fn mul(self, rhs: Self) -> Self {
        BabyBear4::mul(self, rhs)
    }
    #[inline]
    fn inverse(self) -> Self {
        BabyBear4::inverse(self)
    }
}

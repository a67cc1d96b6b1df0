//! QM31 = CM31[u] / (u^2 - (2 + i)), the degree-4 extension of Mersenne-31 that Plonky3 0.8
//! uses as its Mersenne-31 challenge field (`BinomialExtensionField<Complex<Mersenne31>, 2>`
//! with `W = 2 + i`); Stwo's QM31 is the same tower.
//!
//! Why a product of our own: Plonky3's tower reduces after each of its base products. Here
//! the basis is Plonky3's flattened `[1, i, u, iu]` (words convert 1:1) and one product
//! forms each of the four output coefficients as four 32x32->64-bit products summed in
//! `u64` and reduced once ([`QM31::mul`]); [`qm31_dot`] goes further and reduces a whole sum
//! of products once.
//!
//! With `x = (A + B u)`, `y = (C + D u)` over CM31, `x y = A C + W B D + (A D + B C) u`, and
//! `W B D = (W B) D`: `W B` costs additions only, and then every coefficient is four
//! products. Subtracted products take their `x` factor negated (`p - w`, one instruction),
//! so all sums are of non-negative terms, at most `4 p^2 < 2^64`.

use crate::m31::{reduce_wide, P};
use crate::{Field, CM31, M31};

/// An element `c0 + c1 i + (c2 + c3 i) u` of QM31, stored `[c0, c1, c2, c3]` like Plonky3's
/// `BinomialExtensionField<Complex<Mersenne31>, 2>`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(transparent)]
pub struct QM31(pub [M31; 4]);

/// `a * b` as a 32x32->64-bit product (one `UMULL`, or `mul` + `mulhu`).
#[inline(always)]
const fn wide(a: u32, b: u32) -> u64 {
    a as u64 * b as u64
}

/// The four unreduced coefficient sums of `x * y` (each at most `4 p^2`), from the words.
/// Written out term by term: at opt-level `s` an array `map` stays a loop.
#[inline(always)]
const fn mul_sums(x: &[u32; 4], y: &[u32; 4]) -> [u64; 4] {
    let [x0, x1, x2, x3] = *x;
    let [y0, y1, y2, y3] = *y;
    // W * (x2 + x3 i), additions only; its words are <= p.
    let [w0, w1] = CM31::from_raw([x2, x3]).mul_by_w().raw();
    let (nx1, nx3, nw1) = (P - x1, P - x3, P - w1);
    [
        // A C re + (W B) D re
        wide(x0, y0) + wide(nx1, y1) + wide(w0, y2) + wide(nw1, y3),
        // A C im + (W B) D im
        wide(x0, y1) + wide(x1, y0) + wide(w0, y3) + wide(w1, y2),
        // A D re + B C re
        wide(x0, y2) + wide(nx1, y3) + wide(x2, y0) + wide(nx3, y1),
        // A D im + B C im
        wide(x0, y3) + wide(x1, y2) + wide(x2, y1) + wide(x3, y0),
    ]
}

impl QM31 {
    /// Zero.
    pub const ZERO: Self = Self([M31::ZERO; 4]);
    /// One.
    pub const ONE: Self = Self([M31::ONE, M31::ZERO, M31::ZERO, M31::ZERO]);

    /// `a + b u`.
    #[inline(always)]
    pub const fn new(a: CM31, b: CM31) -> Self {
        Self([a.re, a.im, b.re, b.im])
    }

    /// The element whose words are `w` in the basis `[1, i, u, iu]` (each below `2^31`).
    #[inline(always)]
    pub const fn from_raw(w: [u32; 4]) -> Self {
        Self([
            M31::from_raw(w[0]),
            M31::from_raw(w[1]),
            M31::from_raw(w[2]),
            M31::from_raw(w[3]),
        ])
    }

    /// The stored words, basis `[1, i, u, iu]`.
    #[inline(always)]
    pub const fn raw(self) -> [u32; 4] {
        let c = self.0;
        [c[0].raw(), c[1].raw(), c[2].raw(), c[3].raw()]
    }

    /// The element of M31 `x`, embedded.
    #[inline(always)]
    pub const fn from_base(x: M31) -> Self {
        Self([x, M31::ZERO, M31::ZERO, M31::ZERO])
    }

    /// The CM31 coefficients `(a, b)` of `a + b u`.
    #[inline(always)]
    pub const fn to_cm31(self) -> (CM31, CM31) {
        let c = self.0;
        (CM31::new(c[0], c[1]), CM31::new(c[2], c[3]))
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

    /// `-self`.
    #[inline(always)]
    #[allow(clippy::should_implement_trait)]
    pub const fn neg(self) -> Self {
        let a = self.0;
        Self([a[0].neg(), a[1].neg(), a[2].neg(), a[3].neg()])
    }

    /// `self * rhs`: sixteen 32x32->64-bit products, four per output coefficient summed in
    /// `u64`, one reduction per coefficient (`reduce_wide`: one UMAAL and 5 ALU instructions
    /// on the M33, `reduce64` elsewhere), each coefficient summed and reduced before the
    /// next one (fewer values live at once than with all four sums first).
    ///
    /// Not by hand: an `asm!` body with fixed registers and no spills (79.5 instructions
    /// against 107.25 in the field benchmark's chain) estimated 127 against 133.5 cycles
    /// there, but made the p3-m31 verifier slower in estimated cycles (its serial
    /// multiply-accumulate chains and reductions stall where the compiler interleaves four
    /// sums, and its register clobbers cost its callers spills; `blocks/field/README.md`).
    #[inline(always)]
    #[allow(clippy::should_implement_trait)]
    pub fn mul(self, rhs: Self) -> Self {
        let [x0, x1, x2, x3] = self.raw();
        let [y0, y1, y2, y3] = rhs.raw();
        let [w0, w1] = CM31::from_raw([x2, x3]).mul_by_w().raw();
        let c0 = reduce_wide(wide(x0, y0) + wide(P - x1, y1) + wide(w0, y2) + wide(P - w1, y3));
        let c1 = reduce_wide(wide(x0, y1) + wide(x1, y0) + wide(w0, y3) + wide(w1, y2));
        let c2 = reduce_wide(wide(x0, y2) + wide(P - x1, y3) + wide(x2, y0) + wide(P - x3, y1));
        let c3 = reduce_wide(wide(x0, y3) + wide(x1, y2) + wide(x2, y1) + wide(x3, y0));
        Self::from_raw([c0, c1, c2, c3])
    }

    /// `self * s` for `s` in M31: four base products.
    #[inline(always)]
    pub const fn mul_base(self, s: M31) -> Self {
        let a = self.0;
        Self([a[0].mul(s), a[1].mul(s), a[2].mul(s), a[3].mul(s)])
    }

    /// `self / 2`, coefficient by coefficient.
    #[inline(always)]
    pub const fn halve(self) -> Self {
        let a = self.0;
        Self([a[0].halve(), a[1].halve(), a[2].halve(), a[3].halve()])
    }

    /// `self * self`.
    #[inline(always)]
    pub fn square(self) -> Self {
        self.mul(self)
    }

    /// `self^-1`, zero mapped to zero: `(a + b u)^-1 = (a - b u) / (a^2 - W b^2)`, one CM31
    /// inverse (itself one M31 inverse).
    pub fn inverse(self) -> Self {
        let (a, b) = self.to_cm31();
        let den = a.square().sub(b.square().mul_by_w()).inverse();
        Self::new(a.mul(den), b.neg().mul(den))
    }

    /// Whether the element is zero.
    #[inline]
    pub const fn is_zero(self) -> bool {
        let a = self.0;
        a[0].is_zero() && a[1].is_zero() && a[2].is_zero() && a[3].is_zero()
    }
}

impl Field for QM31 {
    const ONE: Self = Self::ONE;
    #[inline]
    fn mul(self, rhs: Self) -> Self {
        QM31::mul(self, rhs)
    }
    #[inline]
    fn inverse(self) -> Self {
        QM31::inverse(self)
    }
}

/// `sum_k xs[k] * ys[k]` over the shorter of the two slices, reduced once per coefficient.
///
/// Each product's four coefficient sums (each below `2^64`) are added to 64-bit
/// accumulators whose carries are counted in a third word: the total is
/// `carries * 2^64 + acc`, and `2^64 = 4 (mod p)`. Holds for up to `2^32 - 1` terms.
pub fn qm31_dot(xs: &[QM31], ys: &[QM31]) -> QM31 {
    let mut acc = [0u64; 4];
    let mut carries = [0u32; 4];
    for (x, y) in xs.iter().zip(ys) {
        let s = mul_sums(&x.raw(), &y.raw());
        for j in 0..4 {
            let (v, c) = acc[j].overflowing_add(s[j]);
            acc[j] = v;
            carries[j] += c as u32;
        }
    }
    let mut out = [0u32; 4];
    for j in 0..4 {
        // carries * 4 < 2^34: one more 64-bit reduction.
        out[j] = reduce_wide(reduce_wide(acc[j]) as u64 + ((carries[j] as u64) << 2));
    }
    QM31::from_raw(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The M33's reduction (`reduce_wide`'s UMAAL path, as its Rust model) on the product's
    /// own sums, beside the host's (`reduce64`, checked against Plonky3 in tests/p3.rs):
    /// largest words, `p`, random.
    #[test]
    fn both_reductions_agree_on_product_sums() {
        let mut x = 7u64;
        let mut word = || {
            x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let z = (x ^ (x >> 31)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            match z % 5 {
                0 => P,
                1 => P - 1,
                _ => (z >> 33) as u32,
            }
        };
        for _ in 0..50_000 {
            let a = [word(), word(), word(), word()];
            let b = [word(), word(), word(), word()];
            for s in mul_sums(&a, &b)
                .into_iter()
                .chain(mul_sums(&[P; 4], &[P; 4]))
            {
                let (r4, r64) = (crate::m31::reduce_umaal_model(s), crate::m31::reduce64(s));
                assert!(r4 <= P && r64 <= P);
                assert_eq!(M31::from_raw(r4), M31::from_raw(r64), "{a:?} {b:?}");
            }
        }
    }
}

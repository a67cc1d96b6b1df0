//! BabyBear^5 = BabyBear[x] / (x^5 - 2), the quintic extension Plonky3 0.8 defines
//! (`BinomialExtensionField<BabyBear, 5>`, `W = 2` from `BinomiallyExtendable<5>`).
//!
//! Why a product of our own: as for [`crate::BabyBear4`], Plonky3's generic product reduces
//! per base product or small group. Here each output coefficient is five Montgomery-form
//! products summed in `u64` and reduced once. Five products of words below `p` can reach
//! `5 (p - 1)^2 > 2^64`, so the first four are summed, their high word brought below `p`
//! (one conditional subtraction of `p 2^32`), then the fifth is added: below
//! `p 2^32 + p^2 < 2^64`, whose high word is below `2 p` as [`monty_reduce_wide`] needs.
//! `W = 2` is folded into the wrapped-around `x` factors by doubling (additions only).

use crate::babybear::{monty_reduce_wide, P};
use crate::{BabyBear, Field};

/// An element `c0 + c1 x + ... + c4 x^4` of BabyBear^5, stored `[c0, .., c4]` in Montgomery
/// words like Plonky3's `BinomialExtensionField<BabyBear, 5>`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(transparent)]
pub struct BabyBear5(pub [BabyBear; 5]);

/// `a * b` as a 32x32->64-bit product (one `UMULL`, or `mul` + `mulhu`).
#[inline(always)]
const fn wide(a: u32, b: u32) -> u64 {
    a as u64 * b as u64
}

/// `s` less `p 2^32` when its high word is at least `p`: `s <= 4 (p - 1)^2` (high word below
/// `2 p`) becomes a congruent value below `p 2^32`.
#[inline(always)]
const fn below_p_high(s: u64) -> u64 {
    let hi = (s >> 32) as u32;
    let hi = if hi >= P { hi - P } else { hi };
    ((hi as u64) << 32) | (s as u32 as u64)
}

/// One coefficient: `t0 + t1 + t2 + t3 + t4` (five partial products) reduced once.
#[inline(always)]
const fn coefficient(t: [u64; 5]) -> u32 {
    monty_reduce_wide(below_p_high(t[0] + t[1] + t[2] + t[3]) + t[4])
}

/// The Frobenius constants `2^(i (p - 1) / 5)` (`x^p = 2^((p - 1) / 5) x`), Montgomery words,
/// for `i = 0..5`; and those of its square, `2^(i (p^2 - 1) / 5)`.
const FROBENIUS: [[u32; 5]; 2] = {
    let p = P as u64;
    let mut out = [[0u32; 5]; 2];
    let mut k = 0;
    while k < 2 {
        // (p^(k+1) - 1) / 5 mod (p - 1): exponents of 2, reduced by Fermat.
        let e = if k == 0 {
            (p - 1) / 5
        } else {
            (((p as u128) * (p as u128) - 1) / 5 % (p as u128 - 1)) as u64
        };
        let mut i = 0;
        while i < 5 {
            out[k][i] = BabyBear::new(pow_mod(2, (e * i as u64) % (p - 1))).raw();
            i += 1;
        }
        k += 1;
    }
    out
};

/// `b^e mod p` on canonical values (compile time only).
const fn pow_mod(b: u64, mut e: u64) -> u32 {
    let p = P as u64;
    let (mut r, mut b) = (1u64, b % p);
    while e > 0 {
        if e & 1 == 1 {
            r = r * b % p;
        }
        b = b * b % p;
        e >>= 1;
    }
    r as u32
}

impl BabyBear5 {
    /// Zero.
    pub const ZERO: Self = Self([BabyBear::ZERO; 5]);
    /// One.
    pub const ONE: Self = Self([
        BabyBear::ONE,
        BabyBear::ZERO,
        BabyBear::ZERO,
        BabyBear::ZERO,
        BabyBear::ZERO,
    ]);

    /// The element whose Montgomery words are `w` (each below `p`).
    #[inline(always)]
    pub const fn from_raw(w: [u32; 5]) -> Self {
        Self([
            BabyBear::from_raw(w[0]),
            BabyBear::from_raw(w[1]),
            BabyBear::from_raw(w[2]),
            BabyBear::from_raw(w[3]),
            BabyBear::from_raw(w[4]),
        ])
    }

    /// The stored Montgomery words.
    #[inline(always)]
    pub const fn raw(self) -> [u32; 5] {
        let c = self.0;
        [c[0].raw(), c[1].raw(), c[2].raw(), c[3].raw(), c[4].raw()]
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
            a[4].add(b[4]),
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
            a[4].sub(b[4]),
        ])
    }

    /// `self * rhs`: `2 a1..a4` by additions, then twenty-five 32x32->64-bit products,
    /// five per coefficient summed in `u64` (with one high-word correction), one reduction
    /// per coefficient.
    #[inline(always)]
    #[allow(clippy::should_implement_trait)]
    pub fn mul(self, rhs: Self) -> Self {
        let [a0, a1, a2, a3, a4] = self.raw();
        let [b0, b1, b2, b3, b4] = rhs.raw();
        let d = |a: u32| BabyBear::from_raw(a).add(BabyBear::from_raw(a)).raw();
        let (d1, d2, d3, d4) = (d(a1), d(a2), d(a3), d(a4));
        Self::from_raw([
            coefficient([
                wide(a0, b0),
                wide(d1, b4),
                wide(d2, b3),
                wide(d3, b2),
                wide(d4, b1),
            ]),
            coefficient([
                wide(a0, b1),
                wide(a1, b0),
                wide(d2, b4),
                wide(d3, b3),
                wide(d4, b2),
            ]),
            coefficient([
                wide(a0, b2),
                wide(a1, b1),
                wide(a2, b0),
                wide(d3, b4),
                wide(d4, b3),
            ]),
            coefficient([
                wide(a0, b3),
                wide(a1, b2),
                wide(a2, b1),
                wide(a3, b0),
                wide(d4, b4),
            ]),
            coefficient([
                wide(a0, b4),
                wide(a1, b3),
                wide(a2, b2),
                wide(a3, b1),
                wide(a4, b0),
            ]),
        ])
    }

    /// `self * s` for `s` in BabyBear: five base products.
    #[inline(always)]
    pub const fn mul_base(self, s: BabyBear) -> Self {
        let a = self.0;
        Self([
            a[0].mul(s),
            a[1].mul(s),
            a[2].mul(s),
            a[3].mul(s),
            a[4].mul(s),
        ])
    }

    /// `self * self`.
    #[inline(always)]
    pub fn square(self) -> Self {
        self.mul(self)
    }

    /// `self^(p^k)` for `k = 1, 2`: coefficient `i` times [`FROBENIUS`]`[k - 1][i]`.
    #[inline]
    fn frobenius(self, k: usize) -> Self {
        let g = FROBENIUS[k - 1];
        let a = self.0;
        Self(core::array::from_fn(|i| a[i].mul(BabyBear::from_raw(g[i]))))
    }

    /// `self^-1`, zero mapped to zero: with `r = a^p a^(p^2) a^(p^3) a^(p^4)` (two products
    /// and two Frobenius maps), the norm `a r` is in BabyBear and `a^-1 = r / (a r)`.
    pub fn inverse(self) -> Self {
        let f = self.frobenius(1).mul(self.frobenius(2)); // a^(p + p^2)
        let r = f.mul(f.frobenius(2)); // a^(p + p^2 + p^3 + p^4)
                                       // The norm: the constant coefficient of a r (the others are zero).
        let (a, b) = (self.raw(), r.raw());
        let d = |a: u32| BabyBear::from_raw(a).add(BabyBear::from_raw(a)).raw();
        let norm = coefficient([
            wide(a[0], b[0]),
            wide(d(a[1]), b[4]),
            wide(d(a[2]), b[3]),
            wide(d(a[3]), b[2]),
            wide(d(a[4]), b[1]),
        ]);
        r.mul_base(BabyBear::from_raw(norm).inverse())
    }

    /// Whether the element is zero.
    #[inline]
    pub const fn is_zero(self) -> bool {
        let a = self.0;
        a[0].is_zero() && a[1].is_zero() && a[2].is_zero() && a[3].is_zero() && a[4].is_zero()
    }
}

impl Field for BabyBear5 {
    const ONE: Self = Self::ONE;
    #[inline]
    fn mul(self, rhs: Self) -> Self {
        BabyBear5::mul(self, rhs)
    }
    #[inline]
    fn inverse(self) -> Self {
        BabyBear5::inverse(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coefficient_at_its_bound() {
        // Five products of the largest word: 5 (p - 1)^2 > 2^64, reduced correctly.
        let m = P - 1;
        let t = wide(m, m);
        let r = coefficient([t; 5]) as u64;
        let p = P as u64;
        assert!(r < p);
        // Montgomery: r = 5 m^2 / 2^32 (mod p).
        assert_eq!((r << 32) % p, 5 * ((m as u64 * m as u64) % p) % p);
    }

    #[test]
    fn frobenius_constants() {
        // 2^((p - 1) / 5) is a fifth root of unity other than 1.
        let g = BabyBear::from_raw(FROBENIUS[0][1]);
        assert_ne!(g, BabyBear::ONE);
        assert_eq!(g.pow(5), BabyBear::ONE);
        assert_eq!(FROBENIUS[0][0], BabyBear::ONE.raw());
    }
}

//! The degree-6 extension of Mersenne-31 of `p3-m31`'s proven track: CM31[u] / (u^3 - 5),
//! basis `[1, i, u, iu, u^2, iu^2]` (the layout of `picostark_plonky3::M31Sextic`).
//!
//! Why a product of our own: the backend's type multiplies by Karatsuba over upstream's
//! CM31, six CM31 products each reduced after every base product, plus the Karatsuba sums
//! and differences. Here `5 A1`, `5 A2` are formed by additions first, then each of the six
//! output words is six 32x32->64-bit products (subtracted ones with their factor negated):
//! four summed in `u64` and reduced, then the last two added to that word and reduced again
//! (six products of words `<= p` can exceed `2^64`).

use crate::m31::{fold, reduce_wide, P};
use crate::{Field, CM31, M31};

/// An element `A0 + A1 u + A2 u^2` (`Ak` in CM31) of the sextic, stored as the six words
/// `[A0.re, A0.im, A1.re, A1.im, A2.re, A2.im]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(transparent)]
pub struct M31Sextic(pub [M31; 6]);

/// `a * b` as a 32x32->64-bit product (one `UMULL`, or `mul` + `mulhu`).
#[inline(always)]
const fn wide(a: u32, b: u32) -> u64 {
    a as u64 * b as u64
}

/// `5 x` for a CM31 value's words: `4 x + x`, by doublings and additions.
#[inline(always)]
const fn times5(x: u32) -> u32 {
    let x2 = fold(x << 1);
    let x4 = fold(x2 << 1);
    fold(x4 + x)
}

/// Six partial products summed in two steps (see the module note), reduced to a word `<= p`.
#[inline(always)]
fn word6(t: [u64; 6]) -> u32 {
    reduce_wide(reduce_wide(t[0] + t[1] + t[2] + t[3]) as u64 + t[4] + t[5])
}

impl M31Sextic {
    /// Zero.
    pub const ZERO: Self = Self([M31::ZERO; 6]);
    /// One.
    pub const ONE: Self = Self([
        M31::ONE,
        M31::ZERO,
        M31::ZERO,
        M31::ZERO,
        M31::ZERO,
        M31::ZERO,
    ]);

    /// The element whose words are `w` (each below `2^31`).
    #[inline(always)]
    pub const fn from_raw(w: [u32; 6]) -> Self {
        Self([
            M31::from_raw(w[0]),
            M31::from_raw(w[1]),
            M31::from_raw(w[2]),
            M31::from_raw(w[3]),
            M31::from_raw(w[4]),
            M31::from_raw(w[5]),
        ])
    }

    /// The stored words.
    #[inline(always)]
    pub const fn raw(self) -> [u32; 6] {
        let c = self.0;
        [
            c[0].raw(),
            c[1].raw(),
            c[2].raw(),
            c[3].raw(),
            c[4].raw(),
            c[5].raw(),
        ]
    }

    /// The three CM31 coefficients on `1, u, u^2`.
    #[inline(always)]
    pub const fn layers(self) -> [CM31; 3] {
        let c = self.0;
        [
            CM31::new(c[0], c[1]),
            CM31::new(c[2], c[3]),
            CM31::new(c[4], c[5]),
        ]
    }

    /// The element with these CM31 coefficients on `1, u, u^2`.
    #[inline(always)]
    pub const fn from_layers(l: [CM31; 3]) -> Self {
        Self([l[0].re, l[0].im, l[1].re, l[1].im, l[2].re, l[2].im])
    }

    /// `self + rhs`.
    #[inline(always)]
    #[allow(clippy::should_implement_trait)]
    pub fn add(self, rhs: Self) -> Self {
        let (a, b) = (self.0, rhs.0);
        Self(core::array::from_fn(|k| a[k].add(b[k])))
    }

    /// `self - rhs`.
    #[inline(always)]
    #[allow(clippy::should_implement_trait)]
    pub fn sub(self, rhs: Self) -> Self {
        let (a, b) = (self.0, rhs.0);
        Self(core::array::from_fn(|k| a[k].sub(b[k])))
    }

    /// `self * rhs`: `A0 B0 + 5 (A1 B2 + A2 B1)`, `A0 B1 + A1 B0 + 5 A2 B2`,
    /// `A0 B2 + A1 B1 + A2 B0`, each CM31 product's real part `ar br - ai bi`
    /// and imaginary part `ar bi + ai br`: six 32x32->64-bit products per word.
    #[inline(always)]
    #[allow(clippy::should_implement_trait)]
    pub fn mul(self, rhs: Self) -> Self {
        let [a0, a0i, a1, a1i, a2, a2i] = self.raw();
        let [b0, b0i, b1, b1i, b2, b2i] = rhs.raw();
        // 5 A1 and 5 A2; the negated imaginary words for the real parts.
        let (f1, f1i, f2, f2i) = (times5(a1), times5(a1i), times5(a2), times5(a2i));
        let (n0, n1, n2) = (P - a0i, P - a1i, P - a2i);
        let (nf1, nf2) = (P - f1i, P - f2i);
        Self::from_raw([
            // A0 B0 + 5 A1 B2 + 5 A2 B1
            word6([
                wide(a0, b0),
                wide(n0, b0i),
                wide(f1, b2),
                wide(nf1, b2i),
                wide(f2, b1),
                wide(nf2, b1i),
            ]),
            word6([
                wide(a0, b0i),
                wide(a0i, b0),
                wide(f1, b2i),
                wide(f1i, b2),
                wide(f2, b1i),
                wide(f2i, b1),
            ]),
            // A0 B1 + A1 B0 + 5 A2 B2
            word6([
                wide(a0, b1),
                wide(n0, b1i),
                wide(a1, b0),
                wide(n1, b0i),
                wide(f2, b2),
                wide(nf2, b2i),
            ]),
            word6([
                wide(a0, b1i),
                wide(a0i, b1),
                wide(a1, b0i),
                wide(a1i, b0),
                wide(f2, b2i),
                wide(f2i, b2),
            ]),
            // A0 B2 + A1 B1 + A2 B0
            word6([
                wide(a0, b2),
                wide(n0, b2i),
                wide(a1, b1),
                wide(n1, b1i),
                wide(a2, b0),
                wide(n2, b0i),
            ]),
            word6([
                wide(a0, b2i),
                wide(a0i, b2),
                wide(a1, b1i),
                wide(a1i, b1),
                wide(a2, b0i),
                wide(a2i, b0),
            ]),
        ])
    }

    /// `self * s` for `s` in M31: six base products.
    #[inline(always)]
    pub fn mul_base(self, s: M31) -> Self {
        Self(self.0.map(|c| c.mul(s)))
    }

    /// `self * self`.
    #[inline(always)]
    pub fn square(self) -> Self {
        self.mul(self)
    }

    /// `self^-1`, zero mapped to zero. With `a = a0 + a1 u + a2 u^2`, the adjugate
    /// `A + B u + C u^2` (`A = a0^2 - 5 a1 a2`, `B = 5 a2^2 - a0 a1`, `C = a1^2 - a0 a2`) has
    /// `a (A + B u + C u^2) = N`, the CM31 value `a0 A + 5 (a1 C + a2 B)`: one CM31 inverse.
    pub fn inverse(self) -> Self {
        let [a0, a1, a2] = self.layers();
        let five = |x: CM31| CM31::from_raw(x.raw().map(times5));
        let adj_a = a0.square().sub(five(a1.mul(a2)));
        let adj_b = five(a2.square()).sub(a0.mul(a1));
        let adj_c = a1.square().sub(a0.mul(a2));
        let norm = a0.mul(adj_a).add(five(a1.mul(adj_c).add(a2.mul(adj_b))));
        let inv = norm.inverse();
        Self::from_layers([adj_a.mul(inv), adj_b.mul(inv), adj_c.mul(inv)])
    }

    /// Whether the element is zero.
    #[inline]
    pub fn is_zero(self) -> bool {
        self.0.iter().all(|c| c.is_zero())
    }
}

impl Field for M31Sextic {
    const ONE: Self = Self::ONE;
    #[inline]
    fn mul(self, rhs: Self) -> Self {
        M31Sextic::mul(self, rhs)
    }
    #[inline]
    fn inverse(self) -> Self {
        M31Sextic::inverse(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word6_at_its_bound_and_times5() {
        let p = P as u64;
        // Six products of the largest words (p itself is a word): 6 p^2 > 2^64.
        for w in [P, P - 1, 1 << 30] {
            let t = wide(w, w);
            let r = word6([t; 6]);
            assert!(r <= P);
            assert_eq!(r as u64 % p, 6 * (t % p) % p);
        }
        for x in [0, 1, P - 1, P, 1 << 30, 0x1234_5678] {
            let r = times5(x);
            assert!(r <= P);
            assert_eq!(r as u64 % p, 5 * x as u64 % p);
        }
    }

    #[test]
    fn product_by_inverse_is_one() {
        let mut s = 3u64;
        for _ in 0..2000 {
            let a = M31Sextic::from_raw(core::array::from_fn(|_| {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((s >> 33) as u32) & P
            }));
            if a.is_zero() {
                continue;
            }
            assert_eq!(a.mul(a.inverse()), M31Sextic::ONE, "{a:?}");
        }
        assert_eq!(M31Sextic::ZERO.inverse(), M31Sextic::ZERO);
    }
}

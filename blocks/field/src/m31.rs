//! The Mersenne-31 prime field, `p = 2^31 - 1`, one `u32` word per element.
//!
//! Why Mersenne: `2^31 = 1 (mod p)`, so a reduction is a shift, a mask and an add, with no
//! multiplication (a product `x < 2^62` is `(x mod 2^31) + (x >> 31)`, folded once more).
//! The word is Plonky3's `Mersenne31` word: any value below `2^31`, where `p` itself is a
//! second zero. Results of this module's operations are at most `p` as well, so every
//! word it makes converts 1:1 to Plonky3 and back.

use crate::Field;

/// The modulus `2^31 - 1`, also the mask of the low 31 bits.
pub const P: u32 = (1 << 31) - 1;

/// Folds `t <= 2^32 - 2` to a word `<= p` congruent to it: `(t mod 2^31) + (t >> 31)`.
#[inline(always)]
pub(crate) const fn fold(t: u32) -> u32 {
    (t & P) + (t >> 31)
}

/// Reduces any `u64` to a word `<= p`: with `s = s2 * 2^62 + s1 * 2^31 + s0`,
/// `s = s0 + s1 + s2 (mod p)`; `s0 + s1 <= 2^32 - 2` folds to `<= p`, adding `s2 <= 3`
/// keeps it below `2^31 + 3`, and a last fold brings it to `<= p`.
#[inline(always)]
pub(crate) const fn reduce64(s: u64) -> u32 {
    let t = fold((s as u32 & P) + ((s >> 31) as u32 & P));
    fold(t + (s >> 62) as u32)
}

/// Reduces `s <= 4 p^2` (a sum of four products of words `<= p`) to a word `<= p`, one
/// fold cheaper than [`reduce64`]. With `s = hi * 2^32 + lo` and `hi = h1 * 2^30 + h0`,
/// `s = (lo mod 2^31) + r (mod p)` where `r = (lo >> 31) + 2 h0 + h1` (`2^32 = 2`,
/// `2^62 = 1`). The bound gives `hi <= 2^32 - 4`, so `r <= 2^31 + 2` (`h1 = 3` leaves
/// `h0 <= 2^30 - 4`), which one fold brings to `<= p`; then `(lo mod 2^31) + fold(r) <=
/// 2^32 - 2` folds to `<= p`. (Folding the sum of all four pieces at once can reach `2^32`
/// when `s2 = 2`: that shortcut is wrong by one fold at `s = 3 * 2^62 - 1`.)
#[inline(always)]
#[cfg_attr(not(any(target_arch = "arm", test)), allow(dead_code))]
pub(crate) const fn reduce_sum4(s: u64) -> u32 {
    let (lo, hi) = (s as u32, (s >> 32) as u32);
    let r = (lo >> 31) + (hi >> 30) + ((hi & (P >> 1)) << 1);
    fold((lo & P) + fold(r))
}

/// Reduces `s < 2^62` (one product of two words `<= p`, or a sum that small) to a word
/// `<= p`: `(s mod 2^31) + (s >> 31) <= 2^32 - 2`, folded once.
#[inline(always)]
pub(crate) const fn reduce62(s: u64) -> u32 {
    fold((s as u32 & P) + (s >> 31) as u32)
}

/// An element of the Mersenne-31 field: a word below `2^31` (`p` is a second zero), the
/// same word Plonky3's `Mersenne31` stores.
#[derive(Clone, Copy, Debug, Default)]
#[repr(transparent)]
pub struct M31(u32);

impl M31 {
    /// Zero.
    pub const ZERO: Self = Self(0);
    /// One.
    pub const ONE: Self = Self(1);

    /// The element `x mod p`, from any `u32`; canonical (below `p`).
    #[inline]
    pub const fn new(x: u32) -> Self {
        // `x >> 31 + (x mod 2^31) <= 2^31`, and once more `<= p`.
        let t = fold((x & P) + (x >> 31));
        Self(if t == P { 0 } else { t })
    }

    /// The element stored as `w`, which must be below `2^31` (Plonky3's invariant; `p` is
    /// zero). Checked in debug builds only.
    #[inline(always)]
    pub const fn from_raw(w: u32) -> Self {
        debug_assert!(w >> 31 == 0);
        Self(w)
    }

    /// The stored word (below `2^31`, not necessarily canonical: `p` is zero).
    #[inline(always)]
    pub const fn raw(self) -> u32 {
        self.0
    }

    /// The canonical value, below `p`.
    #[inline]
    pub const fn value(self) -> u32 {
        if self.0 == P {
            0
        } else {
            self.0
        }
    }

    /// `self + rhs`: the sum of two words `<= p` is at most `2^32 - 2`, folded once.
    #[inline(always)]
    #[allow(clippy::should_implement_trait)]
    pub const fn add(self, rhs: Self) -> Self {
        Self(fold(self.0 + rhs.0))
    }

    /// `-self`: `p - w`, a word `<= p`.
    #[inline(always)]
    #[allow(clippy::should_implement_trait)]
    pub const fn neg(self) -> Self {
        Self(P - self.0)
    }

    /// `self - rhs`, as `self + (p - rhs)`.
    #[inline(always)]
    #[allow(clippy::should_implement_trait)]
    pub const fn sub(self, rhs: Self) -> Self {
        Self(fold(self.0 + (P - rhs.0)))
    }

    /// `2 * self`: a rotation of the 31-bit word by one place.
    #[inline(always)]
    pub const fn double(self) -> Self {
        Self(fold(self.0 << 1))
    }

    /// `self / 2`: the 31-bit word rotated right by one place (`2^31 = 1`, so the low bit
    /// moves to weight `2^30 = 1/2`). A word `<= p` stays `<= p`.
    #[inline(always)]
    pub const fn halve(self) -> Self {
        Self((self.0 >> 1) | ((self.0 & 1) << 30))
    }

    /// `self * rhs`: one 32x32->64-bit product, reduced once.
    #[inline(always)]
    #[allow(clippy::should_implement_trait)]
    pub const fn mul(self, rhs: Self) -> Self {
        Self(reduce62(self.0 as u64 * rhs.0 as u64))
    }

    /// `self * self`.
    #[inline(always)]
    pub const fn square(self) -> Self {
        self.mul(self)
    }

    /// `self^(2^k)`.
    #[inline]
    pub fn square_n(self, k: u32) -> Self {
        let mut x = self;
        for _ in 0..k {
            x = x.square();
        }
        x
    }

    /// `self^-1 = self^(p - 2)`, with zero mapped to zero. An addition chain: `p - 2 =
    /// 4 * (2^29 - 1) + 1`, and `x^(2^29 - 1)` from `x^(2^k - 1)` for k = 2, 4, 8, 16, 24,
    /// 28, 29 (30 squarings, 8 products).
    pub fn inverse(self) -> Self {
        let x = self;
        let e2 = x.square().mul(x); // 2^2 - 1
        let e4 = e2.square_n(2).mul(e2); // 2^4 - 1
        let e8 = e4.square_n(4).mul(e4);
        let e16 = e8.square_n(8).mul(e8);
        let e24 = e16.square_n(8).mul(e8);
        let e28 = e24.square_n(4).mul(e4);
        let e29 = e28.square().mul(x);
        e29.square_n(2).mul(x)
    }

    /// `Some(self^-1)`, or `None` for zero.
    #[inline]
    pub fn try_inverse(self) -> Option<Self> {
        if self.is_zero() {
            None
        } else {
            Some(self.inverse())
        }
    }

    /// Whether the element is zero (word 0 or `p`).
    #[inline]
    pub const fn is_zero(self) -> bool {
        self.0 == 0 || self.0 == P
    }
}

impl PartialEq for M31 {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.value() == other.value()
    }
}
impl Eq for M31 {}

impl Field for M31 {
    const ONE: Self = Self::ONE;
    #[inline]
    fn mul(self, rhs: Self) -> Self {
        M31::mul(self, rhs)
    }
    #[inline]
    fn inverse(self) -> Self {
        M31::inverse(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reductions_at_their_bounds() {
        // 4 * p^2 is the largest sum of four products the extensions form.
        let p = P as u64;
        for s in [
            0,
            1,
            p,
            p + 1,
            p * p,
            2 * p * p,
            4 * p * p,
            u64::MAX,
            u64::MAX - 1,
        ] {
            assert_eq!(reduce64(s) as u64 % p, s % p, "{s}");
            assert!(reduce64(s) <= P);
        }
        // reduce_sum4: its domain's top, and the corners where the pieces add to 2^32.
        for s in [
            0,
            1,
            p,
            p * p,
            2 * p * p,
            3 * p * p,
            4 * p * p,
            4 * p * p - 1,
            (1 << 63) - 1,
            (3 << 62) - 1,
            u64::MAX - (1 << 34),
            ((3 << 30) - 1) << 32 | 0xffff_ffff,
            ((1 << 31) - 1) << 32 | 0xffff_ffff,
        ] {
            if s > 4 * p * p {
                continue;
            }
            assert_eq!(reduce_sum4(s) as u64 % p, s % p, "{s}");
            assert!(reduce_sum4(s) <= P, "{s}");
        }
        for s in [0, p, p * p, (1 << 62) - 1] {
            assert_eq!(reduce62(s) as u64 % p, s % p);
            assert!(reduce62(s) <= P);
        }
        for t in [0, P, P + 1, u32::MAX - 1] {
            assert_eq!(fold(t) % P, t % P);
            assert!(fold(t) <= P);
        }
    }

    #[test]
    fn reduce_sum4_over_its_domain() {
        // Random s <= 4 p^2 (SplitMix64), and every s whose 31-bit pieces sit at their
        // extremes (s0, s1 in {0, 1, p - 1, p}, s2 in 0..=3).
        let (p, top) = (P as u64, 4 * (P as u64) * (P as u64));
        let mut x = 1u64;
        let check = |s: u64| {
            if s <= top {
                assert_eq!(reduce_sum4(s) as u64 % p, s % p, "{s}");
                assert!(reduce_sum4(s) <= P, "{s}");
            }
        };
        for _ in 0..200_000 {
            x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            check((z ^ (z >> 31)) % (top + 1));
        }
        let piece = [0, 1, p - 1, p];
        for s2 in 0..4u64 {
            for s1 in piece {
                for s0 in piece {
                    check(s2 << 62 | s1 << 31 | s0);
                }
            }
        }
    }
}

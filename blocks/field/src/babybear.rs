//! The BabyBear prime field, `p = 15 * 2^27 + 1`, in Montgomery form with `R = 2^32`.
//!
//! Why Montgomery: a product is one 32x32->64-bit multiplication and one reduction of two
//! more multiplications, with no division; and it is the form Plonky3 0.8's `BabyBear`
//! stores (`x * 2^32 mod p`, below `p`), so the raw words convert 1:1.

use crate::Field;

/// The modulus `15 * 2^27 + 1 = 0x7800_0001`.
pub const P: u32 = 15 * (1 << 27) + 1;

/// `p^-1 mod 2^32`, by Newton's iteration `v <- v (2 - p v)` (each step doubles the number
/// of correct low bits; `p` is its own inverse mod 8).
const P_INV: u32 = {
    let mut v = P;
    let mut k = 0;
    while k < 4 {
        v = v.wrapping_mul(2u32.wrapping_sub(P.wrapping_mul(v)));
        k += 1;
    }
    v
};

/// `-p^-1 mod 2^32`.
const P_NEG_INV: u32 = P_INV.wrapping_neg();

/// Montgomery reduction of `x < p * 2^32`: the word `x / 2^32 mod p`, below `p`.
///
/// `t = -x p^-1 mod 2^32` makes `x + t p` a multiple of `2^32` (one `UMLAL` on the M33
/// forms it on `x`'s two words) and below `2 p 2^32`, so its high word is below `2 p`: one
/// conditional subtraction of `p`.
#[inline(always)]
pub(crate) const fn monty_reduce(x: u64) -> u32 {
    let t = (x as u32).wrapping_mul(P_NEG_INV);
    let r = ((x + t as u64 * P as u64) >> 32) as u32;
    if r >= P {
        r - P
    } else {
        r
    }
}

/// Montgomery reduction of any `x <= 4 (p - 1)^2` (a sum of four products of words below
/// `p`): its high word is below `4 p^2 / 2^32 < 2 p`, so subtracting `p` from the high word
/// when it is at least `p` (that is, `p 2^32` from `x`, a multiple of `p`) brings `x` below
/// `p 2^32`, the range of [`monty_reduce`]. Result below `p`.
#[inline(always)]
pub(crate) const fn monty_reduce_wide(x: u64) -> u32 {
    let hi = (x >> 32) as u32;
    let hi = if hi >= P { hi - P } else { hi };
    monty_reduce(((hi as u64) << 32) | (x as u32 as u64))
}

/// An element of BabyBear, stored in Montgomery form: the word `x * 2^32 mod p`, below `p`,
/// as Plonky3's `BabyBear` stores it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(transparent)]
pub struct BabyBear(u32);

impl BabyBear {
    /// Zero.
    pub const ZERO: Self = Self(0);
    /// One (`2^32 mod p`).
    pub const ONE: Self = Self::new(1);

    /// The element `x mod p`, from any `u32`.
    #[inline]
    pub const fn new(x: u32) -> Self {
        Self((((x as u64) << 32) % P as u64) as u32)
    }

    /// The element whose Montgomery word is `w` (below `p`; checked in debug builds).
    #[inline(always)]
    pub const fn from_raw(w: u32) -> Self {
        debug_assert!(w < P);
        Self(w)
    }

    /// The stored Montgomery word.
    #[inline(always)]
    pub const fn raw(self) -> u32 {
        self.0
    }

    /// The canonical value, below `p` (leaves Montgomery form: one reduction).
    #[inline]
    pub const fn value(self) -> u32 {
        monty_reduce(self.0 as u64)
    }

    /// `self + rhs`.
    #[inline(always)]
    #[allow(clippy::should_implement_trait)]
    pub const fn add(self, rhs: Self) -> Self {
        let s = self.0 + rhs.0;
        Self(if s >= P { s - P } else { s })
    }

    /// `self - rhs`.
    #[inline(always)]
    #[allow(clippy::should_implement_trait)]
    pub const fn sub(self, rhs: Self) -> Self {
        let (d, borrow) = self.0.overflowing_sub(rhs.0);
        Self(if borrow { d.wrapping_add(P) } else { d })
    }

    /// `-self`.
    #[inline(always)]
    #[allow(clippy::should_implement_trait)]
    pub const fn neg(self) -> Self {
        Self::ZERO.sub(self)
    }

    /// `self * rhs`: one 32x32->64-bit product, one Montgomery reduction.
    #[inline(always)]
    #[allow(clippy::should_implement_trait)]
    pub const fn mul(self, rhs: Self) -> Self {
        Self(monty_reduce(self.0 as u64 * rhs.0 as u64))
    }

    /// `self * self`.
    #[inline(always)]
    pub const fn square(self) -> Self {
        self.mul(self)
    }

    /// `self^e`, square-and-multiply from the top bit.
    pub fn pow(self, e: u32) -> Self {
        let mut r = Self::ONE;
        let mut k = 32;
        while k > 0 {
            k -= 1;
            r = r.square();
            if (e >> k) & 1 == 1 {
                r = r.mul(self);
            }
        }
        r
    }

    /// `self^-1 = self^(p - 2)`, zero mapped to zero.
    #[inline]
    pub fn inverse(self) -> Self {
        self.pow(P - 2)
    }

    /// `Some(self^-1)`, or `None` for zero.
    #[inline]
    pub fn try_inverse(self) -> Option<Self> {
        if self.0 == 0 {
            None
        } else {
            Some(self.inverse())
        }
    }

    /// Whether the element is zero.
    #[inline]
    pub const fn is_zero(self) -> bool {
        self.0 == 0
    }
}

impl Field for BabyBear {
    const ONE: Self = Self::ONE;
    #[inline]
    fn mul(self, rhs: Self) -> Self {
        BabyBear::mul(self, rhs)
    }
    #[inline]
    fn inverse(self) -> Self {
        BabyBear::inverse(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants() {
        assert_eq!(P.wrapping_mul(P_INV), 1);
        assert_eq!(P.wrapping_mul(P_NEG_INV), u32::MAX);
        assert_eq!(BabyBear::ONE.value(), 1);
        let p = P as u64;
        let max = 4 * (p - 1) * (p - 1);
        for x in [0, 1, p, p * p, max - 1, max] {
            let r = monty_reduce_wide(x) as u64;
            assert!(r < p);
            assert_eq!((r << 32) % p, x % p, "{x}");
        }
    }
}

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
#[cfg_attr(all(target_arch = "arm", target_os = "none"), allow(dead_code))]
pub(crate) const fn reduce64(s: u64) -> u32 {
    let t = fold((s as u32 & P) + ((s >> 31) as u32 & P));
    fold(t + (s >> 62) as u32)
}

/// Reduces any `u64` to a word `<= p`, by the shortest sequence on each core.
///
/// On the M33 (Cortex-M33 with its DSP extension, as on the RP2350): with `s = hi 2^32 + lo`
/// and `2^32 = 2 (mod p)`, one `UMAAL lo, hi, hi, 1` forms `lo + 2 hi < 3 * 2^32` as a new
/// `(lo, hi)` with `hi <= 2`; then `(lo mod 2^31) + (lo >> 31) + 2 hi <= 2^31 + 4` and one
/// fold: 6 instructions (against 10 for the earlier `s <= 4 p^2` reduction of the QM31
/// product, and 11 for [`reduce64`]), for every `u64`. [`reduce_umaal_model`] is the same arithmetic in Rust, tested on the host.
/// Elsewhere [`reduce64`] (Hazard3 has no add-with-carry: shorter there as it is).
#[inline(always)]
pub(crate) fn reduce_wide(s: u64) -> u32 {
    #[cfg(all(target_arch = "arm", target_os = "none"))]
    {
        let (mut lo, mut hi) = (s as u32, (s >> 32) as u32);
        // SAFETY: register arithmetic only. `.cpu cortex-m33` enables the DSP extension's
        // UMAAL for the assembler (the target spec leaves DSP off); the RP2350's M33 and
        // QEMU's `cortex-m33` implement it.
        unsafe {
            core::arch::asm!(
                ".cpu cortex-m33",
                "umaal {lo}, {hi}, {hi}, {one}",
                lo = inout(reg) lo,
                hi = inout(reg) hi,
                one = in(reg) 1u32,
                options(pure, nomem, nostack, preserves_flags),
            );
        }
        fold((lo & P) + (lo >> 31) + (hi << 1))
    }
    #[cfg(not(all(target_arch = "arm", target_os = "none")))]
    {
        reduce64(s)
    }
}

/// [`reduce_wide`]'s M33 arithmetic in Rust: `UMAAL lo, hi, hi, 1` is `(hi, lo) = hi * 1 +
/// lo + hi` in 64 bits.
#[cfg(test)]
pub(crate) const fn reduce_umaal_model(s: u64) -> u32 {
    let (lo, hi) = (s as u32, (s >> 32) as u32);
    let t = lo as u64 + 2 * hi as u64;
    let (lo, hi) = (t as u32, (t >> 32) as u32);
    assert!(hi <= 2);
    fold((lo & P) + (lo >> 31) + (hi << 1))
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
        for s in [
            0,
            1,
            p,
            p + 1,
            p * p,
            4 * p * p,
            (1 << 32) - 1,
            1 << 32,
            (1 << 63) - 1,
            1 << 63,
            (3 << 62) - 1,
            u64::MAX,
            u64::MAX - 1,
            u64::MAX - (1 << 31),
            0xffff_ffff_0000_0000,
            0x7fff_ffff_ffff_ffff,
        ] {
            assert_eq!(reduce_umaal_model(s) as u64 % p, s % p, "{s}");
            assert!(reduce_umaal_model(s) <= P, "{s}");
            assert_eq!(reduce_wide(s) as u64 % p, s % p, "{s}");
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
    fn reduce_umaal_over_u64() {
        // The UMAAL path's model over all of u64: random words (SplitMix64) and every
        // (hi, lo) corner.
        let p = P as u64;
        let mut x = 1u64;
        for _ in 0..200_000 {
            x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            let z = z ^ (z >> 31);
            assert_eq!(reduce_umaal_model(z) as u64 % p, z % p, "{z}");
            assert!(reduce_umaal_model(z) <= P, "{z}");
        }
        let word = [
            0u64,
            1,
            2,
            p - 1,
            p,
            1 << 31,
            u32::MAX as u64 - 1,
            u32::MAX as u64,
        ];
        for hi in word {
            for lo in word {
                let s = hi << 32 | lo;
                assert_eq!(reduce_umaal_model(s) as u64 % p, s % p, "{s}");
                assert!(reduce_umaal_model(s) <= P, "{s}");
            }
        }
    }
}

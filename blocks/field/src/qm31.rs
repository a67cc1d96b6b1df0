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

/// [`QM31::mul`] on the Cortex-M33, as one `asm!` block with fixed registers: the same
/// sums as [`mul_sums`] (`c3, c2`, then `W B` in place of `B`, then `c1, c0`), each reduced
/// as `m31::reduce_wide` does (one `UMAAL` by 1, then a fold) and stored at once.
///
/// Why by hand: the compiler's version keeps 13 words live against 12 allocatable registers
/// and spills 19 times (`blocks/field/README.md`). Here `r6`/`r7` (which `asm!` may not name)
/// are saved and hold the constants 1 and `p`, the inputs are loaded with two `LDM`s and no
/// word is spilled. Every intermediate stays in range for words `<= p` (see each line); the
/// host runs the portable sums, and the firmware's verdicts and field benchmark run this.
#[cfg(all(target_arch = "arm", target_os = "none"))]
#[inline(always)]
fn mul_m33(x: &QM31, y: &QM31) -> QM31 {
    let mut out = core::mem::MaybeUninit::<QM31>::uninit();
    // SAFETY: `QM31` is `repr(transparent)` down to `[u32; 4]`. Reads the 4 words of `x` and
    // of `y`, writes all 4 of `out` (valid, aligned, so initialised after); every
    // register written is declared clobbered except r6/r7, pushed and popped inside. `.cpu
    // cortex-m33` enables the DSP extension's UMAAL (the RP2350's M33 and QEMU's have it).
    unsafe {
        core::arch::asm!(
            ".cpu cortex-m33",
            "push {{r6, r7}}",
            "ldm r0, {{r0, r1, r2, r3}}", // x0..x3
            "ldm r4, {{r4, r5, r8, r9}}", // y0..y3
            "movs r6, #1",
            "mvn r7, #0x80000000", // p
            // c3 = x0 y3 + x1 y2 + x2 y1 + x3 y0 (<= 4 p^2 < 2^64)
            "umull r11, r12, r0, r9",
            "umlal r11, r12, r1, r8",
            "umlal r11, r12, r2, r5",
            "umlal r11, r12, r3, r4",
            // reduce: (hi, lo) <- lo + 2 hi (hi <= 2); lo mod 2^31 + lo >> 31 + 2 hi <= 2^31 + 4;
            // fold once: (t + t >> 31) mod 2^31 (t <= 2^32 - 2). Masks by `and` with r7 = p:
            // a rotated-immediate `bic` is a late result on the M33 (verifier-mcu/TIMING.md).
            "umaal r11, r12, r12, r6",
            "and lr, r11, r7",
            "add lr, lr, r11, lsr #31",
            "add lr, lr, r12, lsl #1",
            "add lr, lr, lr, lsr #31",
            "and lr, lr, r7",
            "str lr, [r10, #12]",
            // c2 = x0 y2 + (p - x1) y3 + x2 y0 + (p - x3) y1
            "umull r11, r12, r0, r8",
            "sub lr, r7, r1",
            "umlal r11, r12, lr, r9",
            "umlal r11, r12, r2, r4",
            "sub lr, r7, r3",
            "umlal r11, r12, lr, r5",
            "umaal r11, r12, r12, r6",
            "and lr, r11, r7",
            "add lr, lr, r11, lsr #31",
            "add lr, lr, r12, lsl #1",
            "add lr, lr, lr, lsr #31",
            "and lr, lr, r7",
            "str lr, [r10, #8]",
            // W B = (2 x2 - x3) + (x2 + 2 x3) i: w1 = x3 + (x2 + x3) into lr, each sum
            // <= 2 p folded; then w0 = x2 + (x2 + p - x3) in place of x3; r2 is free after.
            "add lr, r2, r3",
            "add lr, lr, lr, lsr #31",
            "and lr, lr, r7",
            "add lr, lr, r3",
            "add lr, lr, lr, lsr #31",
            "and lr, lr, r7",
            "sub r3, r7, r3",
            "add r3, r3, r2",
            "add r3, r3, r3, lsr #31",
            "and r3, r3, r7",
            "add r3, r3, r2",
            "add r3, r3, r3, lsr #31",
            "and r3, r3, r7",
            // c1 = x0 y1 + x1 y0 + w0 y3 + w1 y2 (w0 in r3, w1 in lr)
            "umull r11, r12, r0, r5",
            "umlal r11, r12, r1, r4",
            "umlal r11, r12, r3, r9",
            "umlal r11, r12, lr, r8",
            "umaal r11, r12, r12, r6",
            "and r2, r11, r7",
            "add r2, r2, r11, lsr #31",
            "add r2, r2, r12, lsl #1",
            "add r2, r2, r2, lsr #31",
            "and r2, r2, r7",
            "str r2, [r10, #4]",
            // c0 = x0 y0 + (p - x1) y1 + w0 y2 + (p - w1) y3
            "umull r11, r12, r0, r4",
            "sub r2, r7, r1",
            "umlal r11, r12, r2, r5",
            "umlal r11, r12, r3, r8",
            "sub r2, r7, lr",
            "umlal r11, r12, r2, r9",
            "umaal r11, r12, r12, r6",
            "and r2, r11, r7",
            "add r2, r2, r11, lsr #31",
            "add r2, r2, r12, lsl #1",
            "add r2, r2, r2, lsr #31",
            "and r2, r2, r7",
            "str r2, [r10]",
            "pop {{r6, r7}}",
            inout("r0") x as *const QM31 => _,
            inout("r4") y as *const QM31 => _,
            in("r10") out.as_mut_ptr(),
            out("r1") _,
            out("r2") _,
            out("r3") _,
            out("r5") _,
            out("r8") _,
            out("r9") _,
            out("r11") _,
            out("r12") _,
            out("lr") _,
        );
        out.assume_init()
    }
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
    /// `u64`, one reduction per coefficient. On the M33 one `asm!` block ([`mul_m33`]).
    #[inline(always)]
    #[allow(clippy::should_implement_trait)]
    pub fn mul(self, rhs: Self) -> Self {
        #[cfg(all(target_arch = "arm", target_os = "none"))]
        {
            mul_m33(&self, &rhs)
        }
        #[cfg(not(all(target_arch = "arm", target_os = "none")))]
        {
            self.mul_portable(rhs)
        }
    }

    /// [`Self::mul`] in Rust: each coefficient summed and reduced before the next one
    /// (fewer values live at once than with all four sums first).
    #[inline(always)]
    fn mul_portable(self, rhs: Self) -> Self {
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

    /// `self * self`, by the portable sums on every core: with both factors equal the
    /// compiler shares their loads and products (on the M33: 72.25 instructions and 88.5
    /// estimated cycles in the field benchmark's chain, against 77.5 and 128 through
    /// [`mul_m33`]).
    #[inline(always)]
    pub fn square(self) -> Self {
        self.mul_portable(self)
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

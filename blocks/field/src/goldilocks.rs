//! Goldilocks (`p = 2^64 - 2^32 + 1`) products in 32-bit limbs, its quadratic extension
//! Goldilocks\[x\] / (x^2 - 7) and its cubic extension Goldilocks\[x\] / (x^3 - x - 1), for
//! 32-bit cores (issue 28; moved here from the lean Plonky3 verifier in issue 44; the
//! quadratic extension, Plonky3's default Goldilocks challenge field, in issue 44 too: the
//! field benchmark measures it, the lean verifier keeps upstream's, which measured faster,
//! `results/field-bench/README.md`).
//!
//! Upstream's Goldilocks product forms a `u128` and reduces it; on a 32-bit core a
//! `u64 x u64 -> u128` product is a long generic expansion, and its cubic extension's product
//! (`trinomial_cubic_mul`, `x^3 = x + 1`) reduces three such sums. Here a product is four
//! `32 x 32 -> 64` products added into four 32-bit columns ([`Cols`]), sums of products stay
//! in their columns, and a sum is reduced once ([`Cols::reduce`]). Values are raw words:
//! any `u64` (the field's own representation is not necessarily canonical either), and every
//! result is a `u64` congruent to the exact value mod `p`. Same field values as upstream's
//! products, so the same verdicts (tests below, and the lean differential suites).

/// `2^64 mod p` (`p = 2^64 - 2^32 + 1`).
const EPSILON: u64 = 0xFFFF_FFFF;
/// The low 32 bits.
const LOW: u64 = 0xFFFF_FFFF;

/// A sum of `64 x 64`-bit products as four column sums of 32-bit words (weights `2^0`,
/// `2^32`, `2^64`, `2^96`). A product adds at most three words to a column, so fewer than
/// `2^30` products cannot overflow one.
#[derive(Clone, Copy, Default, Debug)]
pub struct Cols([u64; 4]);

impl Cols {
    /// `self += x * y`.
    #[inline(always)]
    pub fn mac(&mut self, x: u64, y: u64) {
        let (x0, x1) = (x & LOW, x >> 32);
        let (y0, y1) = (y & LOW, y >> 32);
        let ll = x0 * y0;
        let lh = x0 * y1;
        let hl = x1 * y0;
        let hh = x1 * y1;
        self.0[0] += ll & LOW;
        self.0[1] += (ll >> 32) + (lh & LOW) + (hl & LOW);
        self.0[2] += (lh >> 32) + (hl >> 32) + (hh & LOW);
        self.0[3] += hh >> 32;
    }

    /// `self += x * x`: three `32 x 32` products (the cross product once, doubled).
    #[inline(always)]
    pub fn mac_square(&mut self, x: u64) {
        let (x0, x1) = (x & LOW, x >> 32);
        let ll = x0 * x0;
        let lh = x0 * x1;
        let hh = x1 * x1;
        self.0[0] += ll & LOW;
        self.0[1] += (ll >> 32) + 2 * (lh & LOW);
        self.0[2] += 2 * (lh >> 32) + (hh & LOW);
        self.0[3] += hh >> 32;
    }

    /// The sum times a small constant `k`, column by column (a product's three words a column
    /// become `3k`; keep `k` times the number of products below `2^30`).
    #[inline(always)]
    pub fn scaled(self, k: u64) -> Self {
        Self(self.0.map(|c| c * k))
    }

    /// `self += other`.
    #[inline(always)]
    pub fn add(&mut self, other: &Self) {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a += b;
        }
    }

    /// A word congruent to the sum mod `p`: the columns' carries propagated into a 128-bit
    /// value `lo + w2 2^64 + w3 2^96` (the top word holds what is left, below `2^40`), then
    /// `2^64 = 2^32 - 1` and `2^96 = -1` (mod `p`), as upstream reduces a `u128`.
    #[inline(always)]
    pub fn reduce(self) -> u64 {
        let [c0, c1, c2, c3] = self.0;
        let t1 = c1 + (c0 >> 32);
        let t2 = c2 + (t1 >> 32);
        let w3 = c3 + (t2 >> 32);
        let w2 = t2 & LOW;
        let lo = (t1 << 32) | (c0 & LOW);
        // lo + w2 (2^32 - 1): on a wrap past 2^64 add 2^64 mod p; the wrapped sum is at most
        // 2^64 - 2^33, so this cannot wrap again.
        let (s, wrapped) = lo.overflowing_add((w2 << 32) - w2);
        let s = if wrapped { s + EPSILON } else { s };
        // minus w3: on a borrow subtract 2^64 mod p; the borrowed difference is at least
        // 2^64 - w3 > 2^32, so this cannot borrow again.
        let (d, borrowed) = s.overflowing_sub(w3);
        // Rare for field words (`s < w3 < 2^40`): out of line, as upstream branches.
        if borrowed {
            rare_minus_epsilon(d)
        } else {
            d
        }
    }
}

/// A word congruent to `x < 2^128` mod `p`: `x = lo + h0 2^64 + h1 2^96` with
/// `2^64 = 2^32 - 1` and `2^96 = -1`, as [`Cols::reduce`].
#[inline(always)]
fn reduce128(x: u128) -> u64 {
    let (lo, hi) = (x as u64, (x >> 64) as u64);
    let (h0, h1) = (hi & LOW, hi >> 32);
    let (d, borrowed) = lo.overflowing_sub(h1);
    // A borrow needs `lo < h1 < 2^32`: rare for field words, so a branch out of line beats
    // computing both sides (upstream branches here too).
    let d = if borrowed { rare_minus_epsilon(d) } else { d };
    let (s, wrapped) = d.overflowing_add((h0 << 32) - h0);
    if wrapped {
        s + EPSILON
    } else {
        s
    }
}

/// `x - EPSILON`, out of line for [`reduce128`]'s rare borrow.
#[cold]
#[inline(never)]
fn rare_minus_epsilon(x: u64) -> u64 {
    x.wrapping_sub(EPSILON)
}

/// `x y + z` as a 128-bit value: at most `(2^64 - 1)^2 + 2^64 - 1 < 2^128`, so a product and
/// a reduced word share one reduction (M33: `UMULL`, `UMAAL`s; Hazard3: `mul`/`mulhu`).
#[inline(always)]
fn mul_add_wide(x: u64, y: u64, z: u64) -> u128 {
    u128::from(x) * u128::from(y) + u128::from(z)
}

/// `7 x` mod `p` (a word congruent to it): `7 x = lo + hi 2^64`, `hi < 7`, `2^64 = 2^32 - 1`;
/// `lo + hi (2^32 - 1)` passes `2^64` only when `lo > 2^64 - 2^35` (rare: out of line), and
/// then once.
#[inline(always)]
fn times_w(x: u64) -> u64 {
    let t = mul_add_wide(x, QUADRATIC_W, 0);
    let (lo, hi) = (t as u64, (t >> 64) as u64);
    let (s, wrapped) = lo.overflowing_add(hi * EPSILON);
    if wrapped {
        rare_plus_epsilon(s)
    } else {
        s
    }
}

/// `x + EPSILON`, out of line for a rare wrap.
#[cold]
#[inline(never)]
fn rare_plus_epsilon(x: u64) -> u64 {
    x.wrapping_add(EPSILON)
}

/// `x + y` mod `p` (a word congruent to it; any words): on a wrap past `2^64` add `2^64 mod
/// p`, twice at most (as upstream's addition).
#[inline(always)]
pub fn add(x: u64, y: u64) -> u64 {
    let (s, wrapped) = x.overflowing_add(y);
    let (s, wrapped_again) = s.overflowing_add(EPSILON * u64::from(wrapped));
    s + EPSILON * u64::from(wrapped_again)
}

/// `x - y` mod `p` (a word congruent to it; any words): on a borrow subtract `2^64 mod p`,
/// twice at most.
#[inline(always)]
pub fn sub(x: u64, y: u64) -> u64 {
    let (d, borrowed) = x.overflowing_sub(y);
    let (d, borrowed_again) = d.overflowing_sub(EPSILON * u64::from(borrowed));
    d - EPSILON * u64::from(borrowed_again)
}

/// Coefficient-wise sum of two extension elements.
#[inline(always)]
pub fn cubic_add(a: &[u64; 3], b: &[u64; 3]) -> [u64; 3] {
    [add(a[0], b[0]), add(a[1], b[1]), add(a[2], b[2])]
}

/// Coefficient-wise difference of two extension elements.
#[inline(always)]
pub fn cubic_sub(a: &[u64; 3], b: &[u64; 3]) -> [u64; 3] {
    [sub(a[0], b[0]), sub(a[1], b[1]), sub(a[2], b[2])]
}

/// `x * y` mod `p` (a word congruent to it).
#[inline(always)]
pub fn mul(x: u64, y: u64) -> u64 {
    let mut c = Cols::default();
    c.mac(x, y);
    c.reduce()
}

/// The product in Goldilocks\[x\] / (x^3 - x - 1) (upstream's `CubicTrinomialExtensionField`):
/// with `x^3 = x + 1` and `x^4 = x^2 + x`,
/// `c0 = a0 b0 + (a1 b2 + a2 b1)`, `c1 = a0 b1 + a1 b0 + (a1 b2 + a2 b1) + a2 b2`,
/// `c2 = a0 b2 + a1 b1 + a2 b0 + a2 b2`: nine products, three reductions.
#[inline(always)]
pub fn cubic_mul(a: &[u64; 3], b: &[u64; 3]) -> [u64; 3] {
    let mut cross = Cols::default();
    cross.mac(a[1], b[2]);
    cross.mac(a[2], b[1]);
    let mut top = Cols::default();
    top.mac(a[2], b[2]);
    let mut c0 = cross;
    c0.mac(a[0], b[0]);
    let mut c1 = cross;
    c1.add(&top);
    c1.mac(a[0], b[1]);
    c1.mac(a[1], b[0]);
    let mut c2 = top;
    c2.mac(a[0], b[2]);
    c2.mac(a[1], b[1]);
    c2.mac(a[2], b[0]);
    [c0.reduce(), c1.reduce(), c2.reduce()]
}

/// An extension element times a base-field element: one product per coefficient.
#[inline(always)]
pub fn cubic_mul_base(a: &[u64; 3], b: u64) -> [u64; 3] {
    [mul(a[0], b), mul(a[1], b), mul(a[2], b)]
}

/// `x^2` mod `p` (a word congruent to it).
#[inline(always)]
pub fn square(x: u64) -> u64 {
    let mut c = Cols::default();
    c.mac_square(x);
    c.reduce()
}

/// `-x` mod `p` (a word congruent to it; any word).
#[inline(always)]
pub fn neg(x: u64) -> u64 {
    sub(0, x)
}

/// Whether the word is congruent to zero (`0` or `p`).
#[inline(always)]
pub fn is_zero(x: u64) -> bool {
    x == 0 || x == P
}

/// The Goldilocks prime.
const P: u64 = 0xFFFF_FFFF_0000_0001;

/// `x^(2^n)`: `n` squarings.
#[inline(always)]
fn square_n(mut x: u64, n: u32) -> u64 {
    for _ in 0..n {
        x = square(x);
    }
    x
}

/// `x^-1 = x^(p - 2)` mod `p`, zero for zero: `p - 2 = (2^31 - 1) 2^33 + (2^32 - 1)`, by an
/// addition chain of 63 squarings and 8 products through `x^(2^k - 1)`, no branch on the
/// value (upstream: a binary-GCD loop). Out of line: about 70 inlined products would cost
/// more flash than the call.
#[inline(never)]
pub fn inverse(x: u64) -> u64 {
    // e_k = x^(2^k - 1); e_{j+k} = e_j^(2^k) e_k.
    let e1 = x;
    let e2 = mul(square(e1), e1);
    let e3 = mul(square(e2), e1);
    let e6 = mul(square_n(e3, 3), e3);
    let e12 = mul(square_n(e6, 6), e6);
    let e24 = mul(square_n(e12, 12), e12);
    let e30 = mul(square_n(e24, 6), e6);
    let e31 = mul(square(e30), e1);
    let e32 = mul(square(e31), e1);
    mul(square_n(e31, 33), e32)
}

/// `W`, the quadratic non-residue of the quadratic extension: `x^2 = 7` (upstream's
/// `BinomiallyExtendable<2>` for Goldilocks).
pub const QUADRATIC_W: u64 = 7;

/// Coefficient-wise sum of two quadratic extension elements.
#[inline(always)]
pub fn quadratic_add(a: &[u64; 2], b: &[u64; 2]) -> [u64; 2] {
    [add(a[0], b[0]), add(a[1], b[1])]
}

/// Coefficient-wise difference of two quadratic extension elements.
#[inline(always)]
pub fn quadratic_sub(a: &[u64; 2], b: &[u64; 2]) -> [u64; 2] {
    [sub(a[0], b[0]), sub(a[1], b[1])]
}

/// The product in Goldilocks\[x\] / (x^2 - 7) (upstream's `BinomialExtensionField<Goldilocks,
/// 2>`): `c0 = a0 b0 + 7 a1 b1`, `c1 = a0 b1 + a1 b0`; four products, the `7` applied to the
/// columns of `a1 b1`, two reductions. Schoolbook: a Karatsuba form would need the differences
/// `(a0 + a1)(b0 + b1) - a0 b0 - a1 b1`, which unsigned columns cannot hold, so each would be
/// reduced, for one `64 x 64` product saved.
#[inline(always)]
pub fn quadratic_mul(a: &[u64; 2], b: &[u64; 2]) -> [u64; 2] {
    let mut top = Cols::default();
    top.mac(a[1], b[1]);
    let mut c0 = top.scaled(QUADRATIC_W);
    c0.mac(a[0], b[0]);
    let mut c1 = Cols::default();
    c1.mac(a[0], b[1]);
    c1.mac(a[1], b[0]);
    [c0.reduce(), c1.reduce()]
}

/// The square: `c0 = a0^2 + 7 a1^2`, `c1 = 2 a0 a1`; three products, two reductions.
#[inline(always)]
pub fn quadratic_square(a: &[u64; 2]) -> [u64; 2] {
    let mut top = Cols::default();
    top.mac_square(a[1]);
    let mut c0 = top.scaled(QUADRATIC_W);
    c0.mac_square(a[0]);
    let mut cross = Cols::default();
    cross.mac(a[0], a[1]);
    [c0.reduce(), cross.scaled(2).reduce()]
}

/// A quadratic extension element times a base-field element: one product per coefficient.
#[inline(always)]
pub fn quadratic_mul_base(a: &[u64; 2], b: u64) -> [u64; 2] {
    [mul(a[0], b), mul(a[1], b)]
}

/// [`quadratic_mul`] with 128-bit products: `c0 = a0 b0 + 7 (a1 b1)`, `c1 = a0 b1 + a1 b0`,
/// each coefficient one product plus the other's reduced word, reduced once more (the field
/// benchmark's `u128` variant: fewer live registers than two sets of columns).
#[inline(always)]
pub fn quadratic_mul_wide(a: &[u64; 2], b: &[u64; 2]) -> [u64; 2] {
    let top = times_w(reduce128(mul_add_wide(a[1], b[1], 0)));
    let c0 = reduce128(mul_add_wide(a[0], b[0], top));
    let cross = reduce128(mul_add_wide(a[1], b[0], 0));
    let c1 = reduce128(mul_add_wide(a[0], b[1], cross));
    [c0, c1]
}

/// [`quadratic_square`] with 128-bit products: `c0 = a0^2 + 7 a1^2`, `c1 = 2 a0 a1`.
#[inline(always)]
pub fn quadratic_square_wide(a: &[u64; 2]) -> [u64; 2] {
    let top = times_w(reduce128(mul_add_wide(a[1], a[1], 0)));
    let c0 = reduce128(mul_add_wide(a[0], a[0], top));
    let cross = reduce128(mul_add_wide(a[0], a[1], 0));
    [c0, add(cross, cross)]
}

/// Whether the element is zero.
#[inline(always)]
pub fn quadratic_is_zero(a: &[u64; 2]) -> bool {
    is_zero(a[0]) && is_zero(a[1])
}

/// The inverse through the norm: `(a0 + a1 x)^-1 = (a0 - a1 x) / (a0^2 - 7 a1^2)`, the norm
/// summed in columns as `a0^2 + 7 a1 (-a1)` and reduced once, then one base inverse and two
/// products. Zero maps to zero.
#[inline(always)]
pub fn quadratic_inverse(a: &[u64; 2]) -> [u64; 2] {
    let neg_a1 = neg(a[1]);
    let mut top = Cols::default();
    top.mac(a[1], neg_a1);
    let mut norm = top.scaled(QUADRATIC_W);
    norm.mac_square(a[0]);
    let norm_inv = inverse(norm.reduce());
    [mul(a[0], norm_inv), mul(neg_a1, norm_inv)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use p3_field::extension::{BinomialExtensionField, CubicTrinomialExtensionField};
    use p3_field::{BasedVectorSpace, Field, PrimeCharacteristicRing, PrimeField64};
    use p3_goldilocks::Goldilocks;

    type Ef = CubicTrinomialExtensionField<Goldilocks>;
    type Ef2 = BinomialExtensionField<Goldilocks, 2>;

    /// Words near every edge: 0, 1, around 2^32, around p, up to 2^64 - 1 (non-canonical).
    fn words() -> std::vec::Vec<u64> {
        let mut v = std::vec![0, 1, 2, LOW, LOW + 1, LOW + 2, P - 2, P - 1, P, P + 1];
        v.extend([
            u64::MAX,
            u64::MAX - 1,
            1 << 63,
            (1 << 63) - 1,
            0xDEAD_BEEF_0123_4567,
        ]);
        let mut s = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..40 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            v.push(s);
        }
        v
    }

    fn canon(w: u64) -> u64 {
        Goldilocks::new(w).as_canonical_u64()
    }

    #[test]
    fn base_products_equal_upstream() {
        // The out-of-line borrow of `Cols::reduce`: `2^96 = -1`, low words zero.
        assert_eq!(canon(mul(1 << 63, 1 << 33)), P - 1);
        for &x in &words() {
            for &y in &words() {
                let want = (Goldilocks::new(x) * Goldilocks::new(y)).as_canonical_u64();
                assert_eq!(canon(mul(x, y)), want, "{x:#x} * {y:#x}");
            }
        }
    }

    #[test]
    fn sums_and_differences_equal_upstream() {
        for &x in &words() {
            for &y in &words() {
                let (gx, gy) = (Goldilocks::new(x), Goldilocks::new(y));
                assert_eq!(
                    canon(add(x, y)),
                    (gx + gy).as_canonical_u64(),
                    "{x:#x} + {y:#x}"
                );
                assert_eq!(
                    canon(sub(x, y)),
                    (gx - gy).as_canonical_u64(),
                    "{x:#x} - {y:#x}"
                );
            }
        }
    }

    #[test]
    fn column_sums_equal_upstream_sums() {
        // Long sums (every column carries many times) against the field's own arithmetic.
        let w = words();
        let mut c = Cols::default();
        let mut want = Goldilocks::ZERO;
        for (i, &x) in w.iter().enumerate() {
            for &y in w.iter().skip(i) {
                c.mac(x, y);
                want += Goldilocks::new(x) * Goldilocks::new(y);
            }
        }
        assert_eq!(canon(c.reduce()), want.as_canonical_u64());
    }

    #[test]
    fn cubic_products_equal_upstream() {
        let w = words();
        let ext = |a: &[u64; 3]| Ef::from_basis_coefficients_fn(|i| Goldilocks::new(a[i]));
        let raw = |e: Ef| -> [u64; 3] {
            let c = e.as_basis_coefficients_slice();
            [c[0], c[1], c[2]].map(|v: Goldilocks| v.as_canonical_u64())
        };
        for (i, _) in w.iter().enumerate().take(w.len() - 5) {
            let a = [w[i], w[(i + 3) % w.len()], w[(i + 7) % w.len()]];
            for j in 0..w.len() - 2 {
                let b = [w[j], w[j + 1], w[j + 2]];
                let got = cubic_mul(&a, &b).map(canon);
                assert_eq!(got, raw(ext(&a) * ext(&b)), "{a:x?} * {b:x?}");
                let got = cubic_mul_base(&a, b[0]).map(canon);
                assert_eq!(got, raw(ext(&a) * Goldilocks::new(b[0])));
                assert_eq!(cubic_add(&a, &b).map(canon), raw(ext(&a) + ext(&b)));
                assert_eq!(cubic_sub(&a, &b).map(canon), raw(ext(&a) - ext(&b)));
            }
        }
    }

    /// A quadratic element from two of [`words`], and upstream's twin.
    fn ext2(a: &[u64; 2]) -> Ef2 {
        Ef2::from_basis_coefficients_fn(|i| Goldilocks::new(a[i]))
    }

    fn raw2(e: Ef2) -> [u64; 2] {
        let c = e.as_basis_coefficients_slice();
        [c[0], c[1]].map(|v: Goldilocks| v.as_canonical_u64())
    }

    /// Pairs of edge and random words: every word beside every other as either coefficient.
    fn pairs() -> std::vec::Vec<[u64; 2]> {
        let w = words();
        let mut v = std::vec::Vec::new();
        for &x in &w {
            for &y in &w {
                v.push([x, y]);
            }
        }
        v
    }

    #[test]
    fn base_squares_negations_and_inverses_equal_upstream() {
        for &x in &words() {
            let g = Goldilocks::new(x);
            assert_eq!(canon(square(x)), g.square().as_canonical_u64(), "{x:#x}^2");
            assert_eq!(canon(neg(x)), (-g).as_canonical_u64(), "-{x:#x}");
            assert_eq!(is_zero(x), g == Goldilocks::ZERO, "{x:#x} == 0");
            let want = g.try_inverse().map_or(0, |i| i.as_canonical_u64());
            assert_eq!(canon(inverse(x)), want, "1/{x:#x}");
        }
    }

    #[test]
    fn base_products_equal_winterfell() {
        // winterfell keeps Montgomery words; compare canonical values. Its quadratic
        // extension is Goldilocks[x]/(x^2 - x + 2), another basis than upstream's x^2 - 7, so
        // the extensions are tested against upstream only; the base product they share here.
        use winter_math::fields::f64::BaseElement;
        use winter_math::FieldElement;
        let wf = |x: u64| BaseElement::new(canon(x));
        for &x in &words() {
            for &y in &words() {
                let want = (wf(x) * wf(y)).as_int();
                assert_eq!(canon(mul(x, y)), want, "{x:#x} * {y:#x}");
            }
            assert_eq!(canon(square(x)), wf(x).square().as_int(), "{x:#x}^2");
            let want = wf(x).inv().as_int();
            assert_eq!(canon(inverse(x)), want, "1/{x:#x}");
        }
    }

    #[test]
    fn quadratic_products_equal_upstream() {
        let all = pairs();
        // Every pair against a stride of the others (about 40,000 products).
        for (i, a) in all.iter().enumerate() {
            for b in all.iter().skip(i % 13).step_by(13) {
                let got = quadratic_mul(a, b).map(canon);
                assert_eq!(got, raw2(ext2(a) * ext2(b)), "{a:x?} * {b:x?}");
            }
            let got = quadratic_mul_base(a, all[(i * 7) % all.len()][0]).map(canon);
            let b0 = Goldilocks::new(all[(i * 7) % all.len()][0]);
            assert_eq!(got, raw2(ext2(a) * b0));
            let b = &all[(i * 31 + 5) % all.len()];
            assert_eq!(quadratic_add(a, b).map(canon), raw2(ext2(a) + ext2(b)));
            assert_eq!(quadratic_sub(a, b).map(canon), raw2(ext2(a) - ext2(b)));
        }
    }

    #[test]
    fn quadratic_squares_and_inverses_equal_upstream() {
        for a in &pairs() {
            let e = ext2(a);
            assert_eq!(quadratic_square(a).map(canon), raw2(e.square()), "{a:x?}^2");
            assert_eq!(quadratic_is_zero(a), e == Ef2::ZERO, "{a:x?} == 0");
            let want = e.try_inverse().map_or([0, 0], raw2);
            assert_eq!(quadratic_inverse(a).map(canon), want, "1/{a:x?}");
            if !quadratic_is_zero(a) {
                let one = quadratic_mul(a, &quadratic_inverse(a)).map(canon);
                assert_eq!(one, [1, 0], "{a:x?} / itself");
            }
        }
    }

    #[test]
    fn wide_products_equal_upstream() {
        let all = pairs();
        for (i, a) in all.iter().enumerate() {
            let b = &all[(i * 37 + 11) % all.len()];
            let want = raw2(ext2(a) * ext2(b));
            assert_eq!(quadratic_mul_wide(a, b).map(canon), want, "{a:x?} * {b:x?}");
            let want = raw2(ext2(a).square());
            assert_eq!(quadratic_square_wide(a).map(canon), want, "{a:x?}^2");
        }
        // The out-of-line corrections: a borrow (`2^96`: low word 0, top word 1) and a wrap
        // (`7 (2^64 - 1)`).
        assert_eq!(canon(reduce128(1 << 96)), P - 1);
        assert_eq!(
            canon(times_w(u64::MAX)),
            (7 * (u128::from(u64::MAX) % u128::from(P)) % u128::from(P)) as u64
        );
        // 128-bit values near the top: the largest product plus the largest word.
        let w = words();
        for &x in &w {
            for &y in &w {
                let want = Goldilocks::new(x) * Goldilocks::new(y) + Goldilocks::new(u64::MAX);
                let got = reduce128(mul_add_wide(x, y, u64::MAX));
                assert_eq!(canon(got), want.as_canonical_u64(), "{x:#x} * {y:#x} + max");
            }
        }
        for &x in &w {
            let want = (Goldilocks::new(x) * Goldilocks::new(7)).as_canonical_u64();
            assert_eq!(canon(times_w(x)), want, "7 * {x:#x}");
        }
    }

    #[test]
    fn quadratic_sums_of_products_in_columns_equal_upstream() {
        // The scaled columns of `7 a1 b1` over a long sum: no column may overflow.
        let all = pairs();
        let (mut c0, mut c1) = (Cols::default(), Cols::default());
        let mut want = Ef2::ZERO;
        for (a, b) in all.iter().zip(all.iter().rev()).take(4096) {
            let mut top = Cols::default();
            top.mac(a[1], b[1]);
            c0.add(&top.scaled(QUADRATIC_W));
            c0.mac(a[0], b[0]);
            c1.mac(a[0], b[1]);
            c1.mac(a[1], b[0]);
            want += ext2(a) * ext2(b);
        }
        assert_eq!([c0.reduce(), c1.reduce()].map(canon), raw2(want));
    }
}

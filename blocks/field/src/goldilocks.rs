//! Goldilocks (`p = 2^64 - 2^32 + 1`) products in 32-bit limbs, and its cubic extension
//! Goldilocks\[x\] / (x^3 - x - 1), for 32-bit cores (issue 28; moved here from the lean
//! Plonky3 verifier in issue 44).
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
        if borrowed {
            d - EPSILON
        } else {
            d
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use p3_field::extension::CubicTrinomialExtensionField;
    use p3_field::{BasedVectorSpace, PrimeCharacteristicRing, PrimeField64};
    use p3_goldilocks::Goldilocks;

    type Ef = CubicTrinomialExtensionField<Goldilocks>;
    const P: u64 = Goldilocks::ORDER_U64;

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
}

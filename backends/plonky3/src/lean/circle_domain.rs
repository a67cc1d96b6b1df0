//! The circle domain's primitives both circle PCSs and their shared passes use
//! ([`super::circle`], [`super::wide_circle`], [`super::circle_inputs`]): the bounds on claims
//! and heights, the geometry every check derives from the claims, the domain points, the
//! vanishing polynomial, one binary fold, points from the projective line, and leaf bytes of
//! extension values. A leaf of the circle modules: it imports none of
//! them.

use p3_circle::Point;
use p3_field::{ExtensionField, PrimeCharacteristicRing, PrimeField32};
use p3_mersenne_31::Mersenne31;
use picostark_core::{Check, VerifyError};
use picostark_field::CM31;

use super::bounds::MAX_CHUNKS;
use super::reader::WireField;

type F = Mersenne31;

/// The most claims (opening points over all matrices): trace at two points, chunks at one.
pub(crate) const MAX_CLAIMS: usize = 2 + MAX_CHUNKS;
/// Distinct LDE heights: the trace's and, with one quotient chunk, the quotient's.
pub(crate) const MAX_HEIGHTS: usize = 2;
/// The circle group of M31 has order 2^31; a query index must be narrower.
pub(crate) const CIRCLE_TWO_ADICITY: usize = 31;
/// Bytes of one serialized base element.
pub(crate) const F_LEN: usize = <F as WireField>::WIRE_LEN;

/// The heights and round count every check derives from the claims, never from the proof.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Geometry {
    /// log2 of the trace's LDE.
    pub(crate) trace_h: usize,
    /// log2 of each quotient chunk's LDE.
    pub(crate) chunk_h: usize,
    /// log2 of the tallest LDE (the query index width).
    pub(crate) max_h: usize,
    /// Distinct heights, ascending (upstream's `BTreeMap` order), and how many.
    pub(crate) heights: [usize; MAX_HEIGHTS],
    pub(crate) num_heights: usize,
    /// Folding rounds after the first layer.
    pub(crate) rounds: usize,
}

impl Geometry {
    pub(crate) fn height_slot(&self, h: usize) -> usize {
        if self.heights[0] == h {
            0
        } else {
            1
        }
    }
}

/// The `idx`-th point of the standard twin coset of size `2^log_n` (upstream's
/// `CircleDomain::standard(log_n).nth_point(idx)`).
pub(crate) fn nth_point(log_n: usize, idx: usize) -> Point<F> {
    let shift = Point::<F>::generator(log_n + 1);
    let g = Point::<F>::generator(log_n - 1);
    if idx & 1 == 0 {
        shifted_multiple(shift, g, idx >> 1)
    } else {
        shifted_multiple(-shift, g, (idx >> 1) + 1)
    }
}

/// `base + k g` on the circle. A point `(x, y)` is the unit complex number `x + i y` and the
/// group law is complex multiplication, so this is `base * g^k` in CM31 with our products
/// (one reduction per coordinate), where upstream's `Point` arithmetic takes a generic path.
pub(crate) fn shifted_multiple(base: Point<F>, g: Point<F>, mut k: usize) -> Point<F> {
    let cm31 = |p: Point<F>| CM31::from_raw([p.x.as_canonical_u32(), p.y.as_canonical_u32()]);
    let (mut acc, mut g) = (cm31(base), cm31(g));
    while k != 0 {
        if k & 1 == 1 {
            acc = acc.mul(g);
        }
        k >>= 1;
        if k != 0 {
            g = g.square();
        }
    }
    Point::new(
        Mersenne31::new(acc.re.value()),
        Mersenne31::new(acc.im.value()),
    )
}

/// `v_n(p)`: the x-coordinate doubled `log_n - 1` times, the vanishing polynomial of the
/// standard coset of size `2^log_n` up to a constant.
pub(crate) fn v_n(mut x: F, log_n: usize) -> F {
    for _ in 0..log_n.saturating_sub(1) {
        x = x.square().double() - F::ONE;
    }
    x
}

/// One binary fold: `((e0 + e1) + beta * (e0 - e1) / t) / 2`.
#[inline(always)]
pub(crate) fn fold<EF: ExtensionField<F>>(t_inv: F, beta: EF, e0: EF, e1: EF) -> EF {
    let odd = F::ext_mul(beta, F::ext_mul_base(F::ext_sub(e0, e1), t_inv));
    F::ext_halve(F::ext_add(F::ext_add(e0, e1), odd))
}

/// A point on the circle over `EF` from its projective-line coordinate `t`:
/// `((1 - t^2) / (1 + t^2), 2t / (1 + t^2))`; upstream panics where `t^2 = -1`, we reject.
pub(crate) fn point_from_line<EF: ExtensionField<F>>(t: EF) -> Result<(EF, EF), VerifyError> {
    let t2 = F::ext_square(t);
    let inv = F::ext_inverse(F::ext_add(EF::ONE, t2)).ok_or(Check::DegeneratePoint)?;
    Ok((
        F::ext_mul(F::ext_sub(EF::ONE, t2), inv),
        F::ext_mul(t.double(), inv),
    ))
}

/// The leaf hash input of extension-field values: their base coefficients as bytes, in
/// upstream's `flatten_to_base` order. Returns the number of bytes written.
pub(crate) fn ext_bytes<EF: ExtensionField<F>>(values: &[EF], out: &mut [u8]) -> usize {
    let mut n = 0;
    for v in values {
        for c in v.as_basis_coefficients_slice() {
            out[n..n + F_LEN].copy_from_slice(&c.as_canonical_u32().to_le_bytes());
            n += F_LEN;
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifted_multiple_is_upstreams_point_arithmetic() {
        for log_n in [1usize, 2, 5, 11, 20, 30] {
            let (base, g) = (
                Point::<F>::generator(log_n + 1),
                Point::<F>::generator(log_n),
            );
            for k in [
                0usize,
                1,
                2,
                3,
                7,
                1 << (log_n - 1),
                (1 << log_n) - 1,
                12345 % (1 << log_n),
            ] {
                assert_eq!(
                    shifted_multiple(base, g, k),
                    base + g * k,
                    "log_n {log_n} k {k}"
                );
                assert_eq!(shifted_multiple(-base, g, k), -base + g * k);
            }
        }
        for idx in 0..64 {
            let (shift, g) = (Point::<F>::generator(7), Point::<F>::generator(5));
            let want = if idx & 1 == 0 {
                shift + g * (idx >> 1)
            } else {
                -shift + g * ((idx >> 1) + 1)
            };
            assert_eq!(nth_point(6, idx), want);
        }
    }
}

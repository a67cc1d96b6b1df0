//! The circle domain's primitives both circle PCSs and their shared passes use
//! ([`super::circle`], [`super::wide_circle`], [`super::circle_inputs`]): the bounds on claims
//! and heights, the geometry every check derives from the claims, the domain points, the
//! vanishing polynomial, one binary fold, points from the projective line, and leaf bytes of
//! extension values. A leaf of the circle modules: it imports none of
//! them.

use p3_circle::{CircleDomain, Point};
use p3_commit::{LagrangeSelectors, PolynomialSpace};
use p3_field::{ExtensionField, PrimeCharacteristicRing, PrimeField32};
use p3_mersenne_31::Mersenne31;
use picostark_core::{Check, VerifyError};
use picostark_field::CM31;

use super::bounds::MAX_CHUNKS;
use super::math::batch_invert_ext;
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

/// The circle group's generators as CM31 elements `x + i y`: entry `i` generates the subgroup
/// of order `2^i` (upstream's `Point::generator(i)`) and is entry `i + 1` squared, so a
/// multiple of a generator reads its doublings here instead of squaring at run time.
const GENERATORS: [CM31; CIRCLE_TWO_ADICITY + 1] = generators();

const fn generators() -> [CM31; CIRCLE_TWO_ADICITY + 1] {
    let mut table = [CM31::ZERO; CIRCLE_TWO_ADICITY + 1];
    // Upstream's generator of the whole group (order 2^31).
    table[CIRCLE_TWO_ADICITY] = CM31::from_raw([311_014_874, 1_584_694_829]);
    let mut i = CIRCLE_TWO_ADICITY;
    while i > 0 {
        table[i - 1] = table[i].square();
        i -= 1;
    }
    table
}

/// `Point::generator(log_n)` as CM31 (`log_n <= 31`, as upstream asserts).
#[inline(always)]
pub(crate) fn generator(log_n: usize) -> CM31 {
    GENERATORS[log_n]
}

/// A CM31 point as upstream's `Point`.
#[inline(always)]
pub(crate) fn point(c: CM31) -> Point<F> {
    Point::new(base(c.re), base(c.im))
}

/// Upstream's `Point` as a CM31 point ([`point`]'s inverse).
#[inline(always)]
pub(crate) fn cm31(p: Point<F>) -> CM31 {
    CM31::from_raw([p.x.as_canonical_u32(), p.y.as_canonical_u32()])
}

/// A word of ours as upstream's Mersenne-31 element (canonical either way).
#[inline(always)]
pub(crate) fn base(x: picostark_field::M31) -> F {
    Mersenne31::new(x.value())
}

/// The `idx`-th point of the standard twin coset of size `2^log_n` (upstream's
/// `CircleDomain::standard(log_n).nth_point(idx)`).
pub(crate) fn nth_point(log_n: usize, idx: usize) -> Point<F> {
    let shift = generator(log_n + 1);
    point(if idx & 1 == 0 {
        multiple(shift, log_n - 1, idx >> 1, log_n)
    } else {
        multiple(shift.conj(), log_n - 1, (idx >> 1) + 1, log_n)
    })
}

/// `base + k generator(log_g)` on the circle, for `k < 2^bits`. A point `(x, y)` is the unit
/// complex number `x + i y` and the group law is complex multiplication, so this is
/// `base * generator(log_g)^k` in CM31 with our products (one reduction per coordinate),
/// the generator's doublings read from [`GENERATORS`].
pub(crate) fn multiple(base: CM31, log_g: usize, k: usize, bits: usize) -> CM31 {
    let mut acc = base;
    // One product per bit of `k` below `bits`, whatever `k` is (issue 46: `k` is a query
    // index's). Doubled past order 1 a generator stays the identity, `generator(0)`.
    for i in 0..bits {
        acc = [acc, acc.mul(generator(log_g.saturating_sub(i)))][(k >> i) & 1];
    }
    acc
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

/// `v_n` of an extension-field x-coordinate (as [`v_n`]), through `F`'s hooks.
fn ext_v_n<EF: ExtensionField<F>>(mut x: EF, log_n: usize) -> EF {
    for _ in 0..log_n.saturating_sub(1) {
        let s = F::ext_square(x);
        x = F::ext_sub(F::ext_add(s, s), EF::ONE);
    }
    x
}

/// `at - p` on the circle for `p` over the base field (`at` times `p`'s conjugate).
#[inline(always)]
fn ext_sub_point<EF: ExtensionField<F>>((x, y): (EF, EF), p: Point<F>) -> (EF, EF) {
    (
        F::ext_add(F::ext_mul_base(x, p.x), F::ext_mul_base(y, p.y)),
        F::ext_sub(F::ext_mul_base(y, p.x), F::ext_mul_base(x, p.y)),
    )
}

/// A twin coset's size (log) and shift: the standard coset's shift is the generator of
/// twice its size; any other's is recovered from its first point on the projective line.
fn domain_parts(d: CircleDomain<F>) -> Result<(usize, Point<F>), VerifyError> {
    let log_n = d.size().trailing_zeros() as usize;
    let standard = Point::generator(log_n + 1);
    if d == CircleDomain::new(log_n, standard) {
        return Ok((log_n, standard));
    }
    let t = d.first_point();
    let t2 = t.square();
    let inv = (F::ONE + t2).base_inverse().ok_or(Check::DegeneratePoint)?;
    Ok((log_n, Point::new((F::ONE - t2) * inv, t.double() * inv)))
}

/// `d.vanishing_poly_at_point(zeta)` (upstream's value) with our challenge-field arithmetic:
/// `v_n(P) - v_n(shift)` for the point `P` that `zeta` names on the projective line.
pub(crate) fn vanishing_at<EF: ExtensionField<F>>(
    d: CircleDomain<F>,
    zeta: EF,
) -> Result<EF, VerifyError> {
    let (log_n, shift) = domain_parts(d)?;
    let (x, _) = point_from_line(zeta)?;
    Ok(F::ext_sub(ext_v_n(x, log_n), EF::from(v_n(shift.x, log_n))))
}

/// `d.next_point(zeta)` (upstream's value) with our arithmetic: the point after `zeta`'s
/// in the standard coset, on the projective line (`y / (x + 1)`); `None` where upstream's is
/// (a coset not in standard position, or the point `(-1, 0)`).
pub(crate) fn next_point_at<EF: ExtensionField<F>>(
    d: CircleDomain<F>,
    zeta: EF,
) -> Result<Option<EF>, VerifyError> {
    let log_n = d.size().trailing_zeros() as usize;
    if d != CircleDomain::standard(log_n) {
        return Ok(None);
    }
    let g = Point::<F>::generator(log_n);
    let (x, y) = point_from_line(zeta)?;
    // P + g = P - (g.x, -g.y).
    let (nx, ny) = ext_sub_point((x, y), Point::new(g.x, -g.y));
    Ok(F::ext_inverse(F::ext_add(nx, EF::ONE)).map(|inv| F::ext_mul(inv, ny)))
}

/// `d.selectors_at_point(zeta)` (upstream's values, its single-point formulas) with our
/// arithmetic and one inversion for its three denominators. Upstream panics where a
/// denominator is zero; we reject.
pub(crate) fn selectors_at<EF: ExtensionField<F>>(
    d: CircleDomain<F>,
    zeta: EF,
) -> Result<LagrangeSelectors<EF>, VerifyError> {
    let (log_n, shift) = domain_parts(d)?;
    let point = point_from_line(zeta)?;
    let neg_shift = -shift;
    // s_p at p for p = -shift: -v_n_prod(p) 2^(2 log_n - 1) p.y, in the base field.
    let mut prod = F::ONE;
    if log_n > 1 {
        let mut x = neg_shift.x;
        prod = x;
        for _ in 0..log_n - 2 {
            x = x.square().double() - F::ONE;
            prod *= x;
        }
    }
    let k = -(prod * F::from_u64(1 << (2 * log_n - 1))) * neg_shift.y;
    let z = F::ext_sub(ext_v_n(point.0, log_n), EF::from(v_n(shift.x, log_n)));
    let (dx, den_shift) = ext_sub_point(point, shift);
    let num_shift = F::ext_add(dx, EF::ONE);
    let (nx, den_neg) = ext_sub_point(point, neg_shift);
    let num_neg = F::ext_add(nx, EF::ONE);
    let den_neg_k = F::ext_mul_base(den_neg, k);
    let mut inv = [den_shift, den_neg_k, z];
    let mut scratch = [EF::ZERO; 3];
    batch_invert_ext::<F, EF>(&mut inv, &mut scratch)?;
    let z_inv_dk = F::ext_mul(F::ext_mul(z, num_neg), inv[1]);
    Ok(LagrangeSelectors {
        is_first_row: F::ext_mul(F::ext_mul(z, num_shift), inv[0]),
        is_last_row: F::ext_mul_base(z_inv_dk, k),
        is_transition: F::ext_sub(EF::ONE, z_inv_dk),
        inv_vanishing: inv[2],
    })
}

/// The leaf hash input of extension-field values: their base coefficients as bytes, in
/// upstream's `flatten_to_base` order. Returns the number of bytes written.
pub(crate) fn ext_bytes<EF: ExtensionField<F>>(values: &[EF], out: &mut [u8]) -> usize {
    // One bounds check for the whole output, then fixed-size chunks (a range check and an
    // offset per coefficient before).
    let len = EF::DIMENSION * F_LEN;
    let n = values.len() * len;
    for (v, o) in values.iter().zip(out[..n].chunks_exact_mut(len)) {
        let coefficients = v.as_basis_coefficients_slice();
        for (c, w) in coefficients.iter().zip(o.chunks_exact_mut(F_LEN)) {
            w.copy_from_slice(&c.as_canonical_u32().to_le_bytes());
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use p3_field::BasedVectorSpace;
    use p3_mersenne_31::QM31;

    #[test]
    fn domain_values_at_a_point_are_upstreams() {
        let mut seed = 0x1234_5678u32;
        let mut word = || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            F::new(seed >> 1)
        };
        for log_n in [1usize, 2, 3, 5, 10, 16] {
            // The standard coset, and chunk-like cosets shifted by another point.
            let domains = [
                CircleDomain::<F>::standard(log_n),
                CircleDomain::new(log_n, nth_point(log_n + 2, 1)),
                CircleDomain::new(log_n, nth_point(log_n + 3, 5)),
            ];
            for _ in 0..8 {
                let zeta = QM31::from_basis_coefficients_fn(|_| word());
                for d in domains {
                    assert_eq!(
                        vanishing_at(d, zeta).unwrap(),
                        d.vanishing_poly_at_point(zeta)
                    );
                    assert_eq!(next_point_at(d, zeta).unwrap(), d.next_point(zeta));
                    let (ours, theirs) =
                        (selectors_at(d, zeta).unwrap(), d.selectors_at_point(zeta));
                    assert_eq!(ours.is_first_row, theirs.is_first_row, "log_n {log_n}");
                    assert_eq!(ours.is_last_row, theirs.is_last_row);
                    assert_eq!(ours.is_transition, theirs.is_transition);
                    assert_eq!(ours.inv_vanishing, theirs.inv_vanishing);
                }
            }
        }
    }

    #[test]
    fn generators_are_upstreams() {
        for log_n in 0..=CIRCLE_TWO_ADICITY {
            assert_eq!(
                point(generator(log_n)),
                Point::<F>::generator(log_n),
                "{log_n}"
            );
        }
    }

    #[test]
    fn multiple_is_upstreams_point_arithmetic() {
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
                    point(multiple(cm31(base), log_n, k, log_n)),
                    base + g * k,
                    "log_n {log_n} k {k}"
                );
                assert_eq!(point(multiple(cm31(-base), log_n, k, log_n)), -base + g * k);
                // One bit past the generator's order: its doubling is the identity.
                assert_eq!(
                    point(multiple(cm31(base), log_n - 1, k, log_n)),
                    base + Point::<F>::generator(log_n - 1) * k
                );
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

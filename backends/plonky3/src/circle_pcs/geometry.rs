//! Circle and line geometry of the wide-fold circle PCS: the points of the standard circle
//! domains in CFFT order (the order `p3-circle` commits LDEs in), the x-coordinates of the
//! line layers FRI folds, one binary fold, and the final line polynomial (interpolation on
//! the prover's side, Horner on the verifier's).
//!
//! Conventions (the same as `p3-circle` 0.8, derived here from its public domain layout):
//! - the standard circle domain of size `2^h` is the twin coset `±s + <g>` with
//!   `s = generator(h + 1)` and `g = generator(h - 1)`; natural index `2m` is `s + m g`,
//!   `2m + 1` is `-s + (m + 1) g`; CFFT-order row `r` holds natural index
//!   [`cfft_index`]`(r, h)`, so rows `2j` and `2j + 1` are a point and its conjugate;
//! - a line layer of `2^L` values (after the first fold) holds at index `j` the
//!   x-coordinate of `generator(L + 2) + reverse_bits(j, L) * generator(L)`; indices `2i`
//!   and `2i + 1` are `x` and `-x`, and folding them lands on index `i` of the layer of
//!   `2^(L - 1)` values at `2x^2 - 1`.

use alloc::vec::Vec;

use p3_circle::Point;
use p3_field::extension::ComplexExtendable;
use p3_field::{batch_multiplicative_inverse, ExtensionField, Field};

use crate::lean::math::reverse_bits;

/// The natural index of the point a CFFT-order row of a `2^log_n` domain holds.
pub(crate) fn cfft_index(row: usize, log_n: usize) -> usize {
    let (half, odd) = (row >> 1, row & 1);
    let i = if odd == 0 {
        half
    } else {
        (1 << log_n) - half - 1
    };
    reverse_bits(i, log_n)
}

/// The point at natural index `idx` of the standard circle domain of size `2^log_n`
/// (`log_n` in `1..=30`).
pub(crate) fn natural_point<F: ComplexExtendable>(log_n: usize, idx: usize) -> Point<F> {
    let shift = Point::<F>::generator(log_n + 1);
    let g = Point::<F>::generator(log_n - 1);
    let m = idx >> 1;
    if idx & 1 == 0 {
        shift + g * m
    } else {
        -shift + g * (m + 1)
    }
}

/// The point at CFFT-order row `row` of the standard domain of size `2^log_n`.
pub(crate) fn cfft_point<F: ComplexExtendable>(log_n: usize, row: usize) -> Point<F> {
    natural_point(log_n, cfft_index(row, log_n))
}

/// Every point of the standard domain of size `2^log_n`, in CFFT order.
pub(crate) fn cfft_points<F: ComplexExtendable>(log_n: usize) -> Vec<Point<F>> {
    let half = 1usize << (log_n - 1);
    let shift = Point::<F>::generator(log_n + 1);
    let g = Point::<F>::generator(log_n - 1);
    let mut natural = Vec::with_capacity(2 * half);
    let (mut p0, mut p1) = (shift, g - shift);
    for _ in 0..half {
        natural.push(p0);
        natural.push(p1);
        p0 += g;
        p1 += g;
    }
    (0..2 * half)
        .map(|r| natural[cfft_index(r, log_n)])
        .collect()
}

/// The x-coordinate at index `j` of a line layer of `2^log_len` values.
pub(crate) fn line_x<F: ComplexExtendable>(log_len: usize, j: usize) -> F {
    let shift = Point::<F>::generator(log_len + 2);
    let g = Point::<F>::generator(log_len);
    (shift + g * reverse_bits(j, log_len)).x
}

/// The inverted twiddles of a whole line layer of `2^log_len` values: `1 / x_{2i}` for
/// every pair `i`.
pub(crate) fn line_twiddles_inv<F: ComplexExtendable>(log_len: usize) -> Vec<F> {
    let pairs = 1usize << (log_len - 1);
    let shift = Point::<F>::generator(log_len + 2);
    let g = Point::<F>::generator(log_len);
    let mut coset = Vec::with_capacity(pairs);
    let mut p = shift;
    for _ in 0..pairs {
        coset.push(p.x);
        p += g;
    }
    // Index 2i of the layer is coset point reverse_bits(2i, log_len) = reverse_bits(i, log_len - 1).
    let xs: Vec<F> = (0..pairs)
        .map(|i| coset[reverse_bits(i, log_len - 1)])
        .collect();
    batch_multiplicative_inverse(&xs)
}

/// One binary fold of the pair `(e0, e1)` at `(t, -t)` (`inv_t = 1 / t`) with `beta`:
/// `(e0 + e1) / 2 + beta * (e0 - e1) / (2 t)`, the even part plus `beta` times the odd part.
pub(crate) fn fold_pair<F: Field, EF: ExtensionField<F>>(e0: EF, e1: EF, inv_t: F, beta: EF) -> EF {
    (e0 + e1 + beta * (e0 - e1) * inv_t).halve()
}

/// Folds a whole line layer once with `beta` (prover).
pub(crate) fn fold_line<F: ComplexExtendable, EF: ExtensionField<F>>(
    values: &[EF],
    beta: EF,
) -> Vec<EF> {
    let log_len = values.len().trailing_zeros() as usize;
    let inv = line_twiddles_inv::<F>(log_len);
    values
        .chunks_exact(2)
        .zip(inv)
        .map(|(pair, t)| fold_pair(pair[0], pair[1], t, beta))
        .collect()
}

/// Folds the `2^log_arity` values of one committed leaf (leaf `leaf` of a layer of
/// `2^log_len` values) down to one value: binary folds with `beta`, `beta^2`, `beta^4`, ...
/// (verifier). `row` is overwritten.
pub(crate) fn fold_leaf<F: ComplexExtendable, EF: ExtensionField<F>>(
    row: &mut [EF],
    leaf: usize,
    log_len: usize,
    beta: EF,
) -> EF {
    let log_arity = row.len().trailing_zeros() as usize;
    let mut beta_s = beta;
    for s in 0..log_arity {
        let width = 1usize << (log_arity - s);
        let xs: Vec<F> = (0..width / 2)
            .map(|t| line_x::<F>(log_len - s, leaf * width + 2 * t))
            .collect();
        let inv = batch_multiplicative_inverse(&xs);
        for (t, inv_t) in inv.into_iter().enumerate() {
            row[t] = fold_pair(row[2 * t], row[2 * t + 1], inv_t, beta_s);
        }
        beta_s = beta_s.square();
    }
    row[0]
}

/// `sum_i coeffs[i] * x^i`.
pub(crate) fn eval_poly<F: Field, EF: ExtensionField<F>>(coeffs: &[EF], x: F) -> EF {
    coeffs.iter().rev().fold(EF::ZERO, |acc, &c| acc * x + c)
}

/// The monomial coefficients of the polynomial of degree below `n` through the points
/// `(xs[i], ys[i])`, `i < n` (distinct `xs`): Newton's divided differences, then the Newton
/// form expanded. `O(n^2)`; the final polynomial is short.
pub(crate) fn interpolate<F: Field, EF: ExtensionField<F>>(xs: &[F], ys: &[EF]) -> Vec<EF> {
    let n = ys.len();
    let mut c: Vec<EF> = ys.to_vec();
    for j in 1..n {
        for i in (j..n).rev() {
            let inv = (xs[i] - xs[i - j])
                .try_inverse()
                .expect("interpolation points are distinct");
            c[i] = (c[i] - c[i - 1]) * inv;
        }
    }
    let mut poly: Vec<EF> = Vec::with_capacity(n);
    for i in (0..n).rev() {
        // poly = poly * (X - xs[i]) + c[i]
        poly.insert(0, EF::ZERO);
        for k in 0..poly.len() - 1 {
            let next = poly[k + 1];
            poly[k] -= next * xs[i];
        }
        poly[0] += c[i];
    }
    poly
}

#[cfg(test)]
mod tests {
    use super::*;
    use p3_field::PrimeCharacteristicRing;
    use p3_mersenne_31::{Mersenne31 as F, QM31};

    #[test]
    fn cfft_rows_pair_points_with_their_conjugates() {
        for log_n in 2..8 {
            let pts = cfft_points::<F>(log_n);
            for j in 0..pts.len() / 2 {
                assert_eq!(pts[2 * j + 1], -pts[2 * j], "log_n {log_n} pair {j}");
                assert_eq!(pts[2 * j], cfft_point::<F>(log_n, 2 * j));
            }
            // Line index j is the x-coordinate of CFFT row 2j.
            for j in 0..pts.len() / 2 {
                assert_eq!(line_x::<F>(log_n - 1, j), pts[2 * j].x);
            }
        }
    }

    #[test]
    fn line_layers_pair_negations_and_fold_by_squaring() {
        for log_len in 1..8 {
            let inv = line_twiddles_inv::<F>(log_len);
            for (i, &inv_x) in inv.iter().enumerate() {
                let x = line_x::<F>(log_len, 2 * i);
                assert_eq!(line_x::<F>(log_len, 2 * i + 1), -x);
                assert_eq!(inv_x * x, F::ONE);
                if log_len > 1 {
                    assert_eq!(line_x::<F>(log_len - 1, i), x.square().double() - F::ONE);
                }
            }
        }
    }

    /// A polynomial of degree below 2^(L - k) folds, k times, into one of degree below
    /// 2^(L - 2k)... and the leaf fold agrees with the whole-layer fold.
    #[test]
    fn folding_a_low_degree_line_keeps_it_low_degree() {
        let log_len = 6;
        let coeffs: Vec<QM31> = (0..8u32).map(|i| QM31::from_u32(3 * i + 1)).collect();
        let values: Vec<QM31> = (0..1 << log_len)
            .map(|j| eval_poly(&coeffs, line_x::<F>(log_len, j)))
            .collect();
        let beta = QM31::from_u32(12345) + QM31::from_u32(7) * QM31::GENERATOR;
        let once = fold_line::<F, QM31>(&values, beta);
        let twice = fold_line::<F, QM31>(&once, beta.square());
        // Degree < 8 folded twice: degree < 2 on 16 points.
        let xs: Vec<F> = (0..2).map(|j| line_x::<F>(log_len - 2, j)).collect();
        let poly = interpolate(&xs, &twice[..2]);
        for (j, v) in twice.iter().enumerate() {
            assert_eq!(eval_poly(&poly, line_x::<F>(log_len - 2, j)), *v);
        }
        for leaf in 0..1usize << (log_len - 2) {
            let mut row = values[4 * leaf..4 * leaf + 4].to_vec();
            assert_eq!(
                fold_leaf::<F, QM31>(&mut row, leaf, log_len, beta),
                twice[leaf]
            );
        }
        // A tampered value breaks it.
        let mut bad = values.clone();
        bad[5] += QM31::ONE;
        let twice_bad = fold_line::<F, QM31>(&fold_line::<F, QM31>(&bad, beta), beta.square());
        let ok = twice_bad
            .iter()
            .enumerate()
            .all(|(j, v)| eval_poly(&poly, line_x::<F>(log_len - 2, j)) == *v);
        assert!(!ok);
    }

    #[test]
    fn interpolation_recovers_coefficients() {
        let coeffs: Vec<QM31> = (0..8u32).map(|i| QM31::from_u32(i * i + 5)).collect();
        let xs: Vec<F> = (0..8).map(|j| line_x::<F>(5, j)).collect();
        let ys: Vec<QM31> = xs.iter().map(|&x| eval_poly(&coeffs, x)).collect();
        assert_eq!(interpolate(&xs, &ys), coeffs);
    }
}

//! The DEEP quotients at the queried positions: FRI's first-layer values (stwo's
//! `fri_answers`), with the per-proof work done once.
//!
//! stwo groups the samples by point in an `IndexMap`, builds a `Vec` of line coefficients
//! per sample, and for every query collects the row's values, inverts the denominators
//! (one batch per query) and sums `value * c - (a * y + b)` per column. Here the samples are
//! grouped once by a linear search over the few distinct points, each group keeps only its
//! columns' `c` and the sums of their `a` and `b` (the sum of the linear terms is
//! `sum(a) * y + sum(b)`, the same field element), and the denominators of every query and
//! point are inverted in one batch.
//!
//! The samples and their random powers follow stwo's order exactly: per tree, per column, a
//! column sampled at a point and its successor is first sampled again at the successor moved
//! by the column's period on the lifted domain (the value it repeats there), then at each of
//! its own points.

use alloc::vec::Vec;

use num_traits::{One, Zero};
use stwo::core::circle::CirclePoint;
use stwo::core::fields::cm31::CM31;
use stwo::core::fields::m31::BaseField;
use stwo::core::fields::qm31::SecureField;
use stwo::core::fields::{batch_inverse_in_place, ComplexConjugate};
use stwo::core::poly::circle::CanonicCoset;

/// The samples at one point: every column sampled there, by its index in the flattened
/// column list, with its `c` coefficient, and the sums of the columns' `a` and `b`.
struct PointBatch {
    point: CirclePoint<SecureField>,
    columns: Vec<(usize, SecureField)>,
    sum_a: SecureField,
    sum_b: SecureField,
}

/// Why the quotients cannot be formed: a sample point on the base field's circle, where
/// stwo's line through a point and its conjugate is undefined (stwo asserts it away; a
/// drawn point lands there with probability about `2^-62`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DegenerateSample;

/// The quotient constants of a proof: the samples grouped by point.
pub struct Quotients {
    batches: Vec<PointBatch>,
}

impl Quotients {
    /// Groups the samples (`points[tree][column]`, `values[tree][column]`, the columns'
    /// extended log sizes `log_sizes[tree][column]`) with the powers of `random_coeff`.
    pub fn new(
        points: &[Vec<Vec<CirclePoint<SecureField>>>],
        values: &[Vec<Vec<SecureField>>],
        log_sizes: &[Vec<u32>],
        lifting_log_size: u32,
        random_coeff: SecureField,
    ) -> Result<Self, DegenerateSample> {
        let lifting_step = CanonicCoset::new(lifting_log_size).step();
        let mut batches: Vec<PointBatch> = Vec::new();
        let mut power = SecureField::one();
        let mut column = 0;
        let mut add = |point: CirclePoint<SecureField>, value: SecureField, column: usize| {
            let coeff = power;
            power *= random_coeff;
            let (a, b, c) = line_coeffs(point, value, coeff)?;
            let at = match batches.iter().position(|batch| batch.point == point) {
                Some(at) => at,
                None => {
                    batches.push(PointBatch {
                        point,
                        columns: Vec::new(),
                        sum_a: SecureField::zero(),
                        sum_b: SecureField::zero(),
                    });
                    batches.len() - 1
                }
            };
            let batch = &mut batches[at];
            batch.columns.push((column, c));
            batch.sum_a += a;
            batch.sum_b += b;
            Ok(())
        };
        for ((points, values), sizes) in points.iter().zip(values).zip(log_sizes) {
            for ((points, values), &log_size) in points.iter().zip(values).zip(sizes) {
                if let ([_, next], [_, next_value]) = (points.as_slice(), values.as_slice()) {
                    let period = lifting_step.repeated_double(log_size).into_ef();
                    add(*next + period, *next_value, column)?;
                }
                for (&point, &value) in points.iter().zip(values) {
                    add(point, value, column)?;
                }
                column += 1;
            }
        }
        Ok(Self { batches })
    }

    /// The quotients' sum at each queried point `domain` of the lifted domain;
    /// `value(column, query)` reads the opened value of a flattened column at the query's
    /// index.
    pub fn answers(
        &self,
        domain: &[CirclePoint<BaseField>],
        value: impl Fn(usize, usize) -> BaseField,
    ) -> Vec<SecureField> {
        let n_batches = self.batches.len();
        let mut denominators = Vec::with_capacity(domain.len() * n_batches);
        for p in domain {
            for batch in &self.batches {
                let (x, y) = (batch.point.x, batch.point.y);
                denominators.push((x.0 - p.x) * y.1 - (y.0 - p.y) * x.1);
            }
        }
        let mut inverses = alloc::vec![CM31::zero(); denominators.len()];
        batch_inverse_in_place(&denominators, &mut inverses);
        domain
            .iter()
            .enumerate()
            .map(|(query, p)| {
                let inverses = &inverses[query * n_batches..][..n_batches];
                let mut row = SecureField::zero();
                for (batch, &inverse) in self.batches.iter().zip(inverses) {
                    let mut numerator = -(batch.sum_a * p.y + batch.sum_b);
                    for &(column, c) in &batch.columns {
                        numerator += c * value(column, query);
                    }
                    row += numerator.mul_cm31(inverse);
                }
                row
            })
            .collect()
    }
}

/// The coefficients `(a, b, c)` of the line through the sample and its complex conjugate,
/// times `coeff`, as stwo forms them (`complex_conjugate_line_coeffs`).
fn line_coeffs(
    point: CirclePoint<SecureField>,
    value: SecureField,
    coeff: SecureField,
) -> Result<(SecureField, SecureField, SecureField), DegenerateSample> {
    let conjugate_y = point.y.complex_conjugate();
    if point.y == conjugate_y {
        return Err(DegenerateSample);
    }
    let a = value.complex_conjugate() - value;
    let c = conjugate_y - point.y;
    let b = value * c - a * point.y;
    Ok((coeff * a, coeff * b, coeff * c))
}

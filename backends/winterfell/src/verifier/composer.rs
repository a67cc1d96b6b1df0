//! The two algebraic checks between the commitments and FRI: the out-of-domain consistency
//! of the constraint composition polynomial, and the DEEP composition of the queried values.
//!
//! Both follow winterfell 0.13's verifier (whose evaluator and composer are private), built
//! on winter-air's public constraint helpers: `TransitionConstraints::combine_evaluations`
//! divides the random combination of transition evaluations by the transition divisor, and
//! `BoundaryConstraintGroup::evaluate_at` does the same for each group of assertions.

use alloc::vec::Vec;

use picostark_core::VerifyError;
use winter_air::{
    Air, ConstraintCompositionCoefficients, DeepCompositionCoefficients, EvaluationFrame,
};
use winter_math::FieldElement;

use super::fri::{element_at, Powers};

/// Checks `C(z) == sum_i H_i(z) z^(i n)`: the AIR's constraints combined at the OOD trace
/// frame against the committed composition columns at `z`.
pub fn check_ood_constraints<A, E>(
    air: &A,
    coefficients: &ConstraintCompositionCoefficients<E>,
    trace_current: &[E],
    trace_next: &[E],
    quotient_current: &[E],
    z: E,
) -> Result<(), VerifyError>
where
    A: Air,
    E: FieldElement<BaseField = A::BaseField>,
{
    let transition = air.get_transition_constraints(&coefficients.transition);
    let frame = EvaluationFrame::from_rows(trace_current.to_vec(), trace_next.to_vec());
    let mut evaluations: Vec<E> = alloc::vec![E::ZERO; transition.num_main_constraints()];
    air.evaluate_transition(&frame, &[], &mut evaluations);
    let mut combined = transition.combine_evaluations::<E>(&evaluations, &[], z);
    let boundary = air.get_boundary_constraints::<E>(None, &coefficients.boundary);
    for group in boundary.main_constraints() {
        combined += group.evaluate_at(trace_current, z);
    }

    let z_n = z.exp_vartime((air.trace_length() as u64).into());
    let mut power = E::ONE;
    let mut from_columns = E::ZERO;
    for &h in quotient_current {
        from_columns += h * power;
        power *= z_n;
    }
    if combined != from_columns {
        return Err(VerifyError::Rejected(
            "OOD constraint evaluations do not match the composition polynomial",
        ));
    }
    Ok(())
}

/// The OOD frame and its coefficients, as the DEEP composition consumes them.
pub struct DeepInputs<'p, E: FieldElement> {
    pub z: E,
    pub trace_current: &'p [E],
    pub trace_next: &'p [E],
    pub quotient_current: &'p [E],
    pub quotient_next: &'p [E],
    pub coefficients: &'p DeepCompositionCoefficients<E>,
}

/// The DEEP composition polynomial at each queried position:
/// `sum_i a_i (T_i(x) - T_i(z)) / (x - z) + a_i (T_i(x) - T_i(z g)) / (x - z g)` over the
/// trace columns and likewise over the composition columns, with `x = offset * g_lde^p`
/// (`lde_powers`: the powers of `g_lde`).
/// `trace_rows` and `quotient_rows` are the checked query values (row-major, canonical).
pub fn deep_evaluations<A, E>(
    air: &A,
    inputs: &DeepInputs<'_, E>,
    positions: &[usize],
    trace_rows: &[u8],
    quotient_rows: &[u8],
    lde_powers: &Powers<A::BaseField>,
) -> Result<Vec<E>, VerifyError>
where
    A: Air,
    E: FieldElement<BaseField = A::BaseField>,
{
    let width = inputs.trace_current.len();
    let columns = inputs.quotient_current.len();
    let (cc_trace, cc_quot) = (&inputs.coefficients.trace, &inputs.coefficients.constraints);
    if cc_trace.len() != width || cc_quot.len() != columns {
        return Err(VerifyError::MalformedProof("DEEP coefficient count"));
    }
    let offset = air.domain_offset();
    let z = inputs.z;
    let zg = z.mul_base(air.trace_domain_generator());
    let mut out = Vec::with_capacity(positions.len());
    let mut denominators = Vec::with_capacity(positions.len());
    for (k, &p) in positions.iter().enumerate() {
        let x = E::from(lde_powers.pow(p) * offset);
        let (mut t1, mut t2) = (E::ZERO, E::ZERO);
        let trace = inputs
            .trace_current
            .iter()
            .zip(inputs.trace_next)
            .zip(cc_trace);
        for (i, ((&at_z, &at_zg), &c)) in trace.enumerate() {
            let v = E::from(element_at::<A::BaseField>(trace_rows, k * width + i)?);
            t1 += (v - at_z) * c;
            t2 += (v - at_zg) * c;
        }
        let quotient = inputs
            .quotient_current
            .iter()
            .zip(inputs.quotient_next)
            .zip(cc_quot);
        for (i, ((&at_z, &at_zg), &c)) in quotient.enumerate() {
            let v: E = element_at(quotient_rows, k * columns + i)?;
            t1 += (v - at_z) * c;
            t2 += (v - at_zg) * c;
        }
        let (d1, d2) = (x - z, x - zg);
        out.push(t1 * d2 + t2 * d1);
        denominators.push(d1 * d2);
    }
    invert_in_place(&mut denominators);
    for (o, d) in out.iter_mut().zip(&denominators) {
        *o *= *d;
    }
    Ok(out)
}

/// Replaces every element by its inverse (zero stays zero, as `FieldElement::inv` has it)
/// with one field inversion in all (Montgomery's trick). Not `winter_math::batch_inversion`:
/// when the prover feature unifies winterfell's `concurrent` feature in, that one runs on the
/// rayon pool (starting it on first use), so a host verify would spawn threads and its heap
/// counts would depend on which thread started the pool first.
pub fn invert_in_place<E: FieldElement>(values: &mut [E]) {
    let mut prefix = Vec::with_capacity(values.len());
    let mut acc = E::ONE;
    for &v in values.iter() {
        prefix.push(acc);
        if v != E::ZERO {
            acc *= v;
        }
    }
    let mut inv = acc.inv();
    for (v, &before) in values.iter_mut().zip(&prefix).rev() {
        if *v != E::ZERO {
            let original = *v;
            *v = inv * before;
            inv *= original;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::invert_in_place;
    use alloc::vec::Vec;
    use winter_math::fields::f64::BaseElement as F;
    use winter_math::FieldElement;

    #[test]
    fn batch_inversion_matches_single_inversions_and_keeps_zero() {
        let original: Vec<F> = [3u64, 0, 1, 12345678901234, 0, 7]
            .iter()
            .map(|&v| F::new(v))
            .collect();
        let mut values = original.clone();
        invert_in_place(&mut values);
        for (v, o) in values.iter().zip(&original) {
            assert_eq!(*v, o.inv());
        }
        assert_eq!(values[1], F::ZERO);
        assert_eq!(values[0] * original[0], F::ONE);
    }
}

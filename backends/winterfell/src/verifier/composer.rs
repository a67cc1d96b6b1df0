//! The two algebraic checks between the commitments and FRI: the out-of-domain consistency
//! of the constraint composition polynomial, and the DEEP composition of the queried values.
//!
//! Both follow winterfell 0.13's verifier (whose evaluator and composer are private). The
//! constraint combination at `z` is winter-air's (`TransitionConstraints::combine_evaluations`
//! and `BoundaryConstraintGroup::evaluate_at` on `Air::get_boundary_constraints`) computed
//! directly: the same sums and divisors, with the trace domain's points from a table of its
//! generator's powers and every divisor inverted in one batch, where winter-air builds each
//! divisor (a root of unity and a power per assertion), sorts and groups the assertions in
//! allocated maps and inverts each divisor on its own.

use alloc::vec::Vec;

use picostark_core::{Check, Failures, VerifyError};
use winter_air::{
    Air, ConstraintCompositionCoefficients, DeepCompositionCoefficients, EvaluationFrame,
};
use winter_math::FieldElement;

use super::math::{invert_in_place, Powers};
use super::parse::element_at;

/// Checks `C(z) == sum_i H_i(z) z^(i n)`: the AIR's constraints combined at the OOD trace
/// frame against the committed composition columns at `z`. `trace_powers`: the powers of the
/// trace domain's generator `g`.
///
/// As winter-air combines them (linear batching): the transition evaluations `t_i` with
/// coefficients `a_i`, divided by `(z^n - 1) / prod_k (z - g^(n - k))` over the `k` exempted
/// last steps; each single assertion `T_c(g^s) = v` as `b (T_c(z) - v) / (z - g^s)`, the
/// assertions taking the boundary coefficients in winter-air's order (by step, then column).
/// A divisor that vanishes at `z` counts as zero, as winter-air's inversion of zero gives.
/// A mismatch is recorded in `fails` as [`Check::OodConstraints`].
#[allow(clippy::too_many_arguments)]
pub fn check_ood_constraints<A, E>(
    air: &A,
    coefficients: &ConstraintCompositionCoefficients<E>,
    trace_current: &[E],
    trace_next: &[E],
    quotient_current: &[E],
    z: E,
    trace_powers: &Powers<A::BaseField>,
    fails: &mut Failures,
) -> Result<(), VerifyError>
where
    A: Air,
    E: FieldElement<BaseField = A::BaseField>,
{
    let context = air.context();
    let n = context.trace_len();
    let num_transitions = context.num_main_transition_constraints();
    let mut assertions: Vec<(usize, usize, A::BaseField)> = air
        .get_assertions()
        .iter()
        .map(|a| match a.values() {
            [v] if a.stride() == 0 => Ok((a.first_step(), a.column(), *v)),
            _ => Err(VerifyError::Unsupported("assertion on more than one step")),
        })
        .collect::<Result<_, _>>()?;
    assertions.sort_unstable_by_key(|&(step, column, _)| (step, column));
    if coefficients.transition.len() != num_transitions
        || coefficients.boundary.len() != assertions.len()
        || assertions.iter().any(|&(_, c, _)| c >= trace_current.len())
    {
        return Err(VerifyError::MalformedProof("constraint coefficient count"));
    }

    let frame = EvaluationFrame::from_rows(trace_current.to_vec(), trace_next.to_vec());
    let mut evaluations: Vec<E> = alloc::vec![E::ZERO; num_transitions];
    air.evaluate_transition(&frame, &[], &mut evaluations);
    let transition = evaluations
        .iter()
        .zip(&coefficients.transition)
        .fold(E::ZERO, |acc, (&t, &a)| acc + a * t);

    // The denominators to invert: z^n - 1 (the transition divisor's numerator), then z - g^s
    // for each assertion.
    let z_n = z.exp_vartime((n as u64).into());
    let mut inverses: Vec<E> = Vec::with_capacity(1 + assertions.len());
    inverses.push(z_n - E::ONE);
    for &(step, _, _) in &assertions {
        inverses.push(z - E::from(trace_powers.pow(step)));
    }
    invert_in_place(&mut inverses);

    let exempted = (1..=context.num_transition_exemptions()).fold(E::ONE, |acc, k| {
        acc * (z - E::from(trace_powers.pow_inv(k)))
    });
    let mut combined = transition * exempted * inverses[0];
    for (&(_, column, value), (&b, &inv)) in assertions
        .iter()
        .zip(coefficients.boundary.iter().zip(&inverses[1..]))
    {
        combined += b * (trace_current[column] - E::from(value)) * inv;
    }

    let mut power = E::ONE;
    let mut from_columns = E::ZERO;
    for &h in quotient_current {
        from_columns += h * power;
        power *= z_n;
    }
    // A mismatch is recorded; the verification runs on (issue 46).
    fails.check(combined == from_columns, Check::OodConstraints);
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

#[cfg(test)]
mod tests {
    use super::{check_ood_constraints, invert_in_place, Powers};
    use crate::air::{PublicInputs, WfAir};
    use alloc::vec::Vec;
    use picostark_air::chain16::CubicChain16;
    use picostark_air::fibonacci::Fibonacci;
    use picostark_air::AirDef;
    use winter_air::{
        Air, BatchingMethod, ConstraintCompositionCoefficients, EvaluationFrame, FieldExtension,
        ProofOptions, TraceInfo,
    };
    use winter_math::fields::f64::BaseElement as F;
    use winter_math::fields::QuadExtension;
    use winter_math::FieldElement;

    type E = QuadExtension<F>;

    /// winter-air's own combination (as the verifier computed it before): transition
    /// constraints, then each boundary group, each divided by its divisor.
    fn upstream_combination<A: Air<BaseField = F>>(
        air: &A,
        coefficients: &ConstraintCompositionCoefficients<E>,
        current: &[E],
        next: &[E],
        z: E,
    ) -> E {
        let transition = air.get_transition_constraints(&coefficients.transition);
        let frame = EvaluationFrame::from_rows(current.to_vec(), next.to_vec());
        let mut evaluations = alloc::vec![E::ZERO; transition.num_main_constraints()];
        air.evaluate_transition(&frame, &[], &mut evaluations);
        let mut combined = transition.combine_evaluations::<E>(&evaluations, &[], z);
        let boundary = air.get_boundary_constraints::<E>(None, &coefficients.boundary);
        for group in boundary.main_constraints() {
            combined += group.evaluate_at(current, z);
        }
        combined
    }

    fn combination_matches_upstream<A: AirDef + Default + Send + Sync>(log_n: u32) {
        let def = A::default();
        let width = def.width();
        let options = ProofOptions::new(
            12,
            128,
            0,
            FieldExtension::Quadratic,
            16,
            63,
            BatchingMethod::Linear,
            BatchingMethod::Linear,
        );
        let public = (0..def.num_public_inputs() as u64)
            .map(|i| F::new(5 + i))
            .collect();
        let n = 1usize << log_n;
        let air = WfAir::<A, F>::new(TraceInfo::new(width, n), PublicInputs(public), options);
        let trace_powers = Powers::new(air.trace_domain_generator(), log_n);
        let mut seed = 7u64;
        let mut draw = || {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            E::new(F::new(seed >> 8), F::new(seed >> 3))
        };
        let ctx = air.context();
        let coefficients = ConstraintCompositionCoefficients {
            transition: (0..ctx.num_main_transition_constraints())
                .map(|_| draw())
                .collect(),
            boundary: (0..ctx.num_assertions()).map(|_| draw()).collect(),
        };
        let current: Vec<E> = (0..width).map(|_| draw()).collect();
        let next: Vec<E> = (0..width).map(|_| draw()).collect();
        // Random points, and the trace domain's points, where divisors vanish.
        let g = air.trace_domain_generator();
        let points = [draw(), draw(), E::ONE, E::from(g.exp(n as u64 - 1))];
        for z in points {
            let want = upstream_combination(&air, &coefficients, &current, &next, z);
            // One composition column holding the combination: accepted; off by one: rejected.
            let ok = [want];
            let check = |h: &[E]| {
                let mut fails = picostark_core::Failures::new();
                check_ood_constraints(
                    &air,
                    &coefficients,
                    &current,
                    &next,
                    h,
                    z,
                    &trace_powers,
                    &mut fails,
                )?;
                fails.verdict()
            };
            assert_eq!(check(&ok), Ok(()), "z = {z}");
            assert!(check(&[want + E::ONE]).is_err(), "z = {z}");
        }
    }

    #[test]
    fn ood_combination_equals_winter_airs() {
        combination_matches_upstream::<Fibonacci>(10);
        combination_matches_upstream::<Fibonacci>(3);
        combination_matches_upstream::<CubicChain16>(6);
    }

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

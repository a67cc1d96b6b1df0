//! A thin adapter from a picostark [`AirDef`] (the AIR written once in `picostark-air`) to
//! winterfell's [`Air`] trait. The constraints are not restated here: transitions are
//! evaluated by [`AirDef::eval_transition`] and assertions come from [`AirDef::boundaries`].

use alloc::vec::Vec;
use core::marker::PhantomData;

use picostark_air::{AirDef, BoundaryValue, Frame, Row};
use winter_air::{
    Air, AirContext, Assertion, EvaluationFrame, ProofOptions, TraceInfo,
    TransitionConstraintDegree,
};
use winter_math::{ExtensibleField, FieldElement, StarkField, ToElements};

/// Public inputs of an adapted AIR: the field elements, in [`AirDef`] order. They are what the
/// transcript seed appends after the proof context.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublicInputs<B>(pub Vec<B>);

impl<B: StarkField> ToElements<B> for PublicInputs<B> {
    fn to_elements(&self) -> Vec<B> {
        self.0.clone()
    }
}

/// `v mod p` as a field element, without fallible conversions (AIR constants are small, but
/// nothing here may panic on them).
///
/// The high word is shifted in by 32 doublings rather than multiplied by `2^32`: on
/// riscv32imac with fat LTO at opt-level s/2/3, rustc 1.95 (LLVM) miscompiled the multiply
/// form in the upstream-verifier firmware build (LLVM `-opt-bisect-limit` points at the
/// constant-hoisting pass on this function; `results/baseline/NOTES.md`), so the public
/// input was converted wrongly and valid proofs were rejected. Additions only: the result
/// is the same in every build.
pub fn felt_from_u64<B: StarkField>(v: u64) -> B {
    let mut x = B::from((v >> 32) as u32);
    for _ in 0..32 {
        x = x + x;
    }
    x + B::from(v as u32)
}

/// An AIR constant (`v mod p`) as a field element: a canonical value (below the modulus, as
/// every Poseidon2 round constant of the membership AIR is) by the field's own conversion,
/// any other by [`felt_from_u64`]. The membership AIR evaluates hundreds of 64-bit constants
/// per constraint evaluation, and `felt_from_u64`'s 32 doublings were 7 % of the
/// wf-goldilocks membership verifier's instructions (M33 profile, results/membership/). The
/// public input keeps `felt_from_u64`: the stock-verifier RV32 firmware, built without the
/// constant-hoisting workaround, converts it.
pub fn air_constant<B: StarkField>(v: u64) -> B {
    if B::PositiveInteger::from(v) < B::MODULUS {
        if let Ok(x) = B::try_from(v) {
            return x;
        }
    }
    felt_from_u64(v)
}

/// Winterfell's view of the [`AirDef`] `A` over base field `B`.
pub struct WfAir<A: AirDef, B: StarkField> {
    context: AirContext<B>,
    public_inputs: Vec<B>,
    def: A,
    _field: PhantomData<B>,
}

impl<A, B> WfAir<A, B>
where
    A: AirDef + Default,
    B: StarkField,
{
    /// The number of constraints winterfell records in the proof context: transition
    /// constraints plus assertions.
    pub fn num_constraints(def: &A) -> usize {
        def.transition_degrees().len() + def.boundaries().len()
    }
}

/// The least blowup factor winterfell takes for `def` (`AirContext::new` asserts it), by
/// winterfell's own rule per constraint degree. The verifier and the prover compare the
/// options with it first, so that a header or a request below it is an error, not a panic.
pub fn min_blowup<A: AirDef>(def: &A) -> usize {
    def.transition_degrees()
        .iter()
        .map(|&d| TransitionConstraintDegree::new(d).min_blowup_factor())
        .max()
        .unwrap_or(2)
}

impl<A, B> Air for WfAir<A, B>
where
    A: AirDef + Default + Send + Sync,
    B: StarkField + ExtensibleField<2> + ExtensibleField<3>,
{
    type BaseField = B;
    type PublicInputs = PublicInputs<B>;

    fn new(trace_info: TraceInfo, pub_inputs: PublicInputs<B>, options: ProofOptions) -> Self {
        let def = A::default();
        let degrees = def
            .transition_degrees()
            .iter()
            .map(|&d| TransitionConstraintDegree::new(d))
            .collect();
        let num_assertions = def.boundaries().len();
        WfAir {
            context: AirContext::new(trace_info, degrees, num_assertions, options),
            public_inputs: pub_inputs.0,
            def,
            _field: PhantomData,
        }
    }

    fn context(&self) -> &AirContext<B> {
        &self.context
    }

    fn evaluate_transition<E: FieldElement<BaseField = B>>(
        &self,
        frame: &EvaluationFrame<E>,
        _periodic_values: &[E],
        result: &mut [E],
    ) {
        let mut i = 0;
        let public: Vec<E> = self.public_inputs.iter().map(|&b| E::from(b)).collect();
        let constant = |v: u64| E::from(air_constant::<B>(v));
        let frame = Frame {
            local: frame.current(),
            next: frame.next(),
            public: &public,
            constant: &constant,
        };
        self.def.eval_transition(&frame, &mut |c| {
            if let Some(slot) = result.get_mut(i) {
                *slot = c;
            }
            i += 1;
        });
    }

    fn get_assertions(&self) -> Vec<Assertion<B>> {
        let last = self.trace_length() - 1;
        self.def
            .boundaries()
            .iter()
            .map(|b| {
                let step = match b.row {
                    Row::First => 0,
                    Row::Last => last,
                };
                let value = match b.value {
                    BoundaryValue::Constant(c) => felt_from_u64(c),
                    // A missing public input cannot satisfy the assertion; the verifier checks
                    // the count before building the AIR.
                    BoundaryValue::Public(i) => {
                        self.public_inputs.get(i).copied().unwrap_or(B::ZERO)
                    }
                };
                Assertion::single(b.column, step, value)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use picostark_air::fibonacci::Fibonacci;
    use winter_math::fields::f64::BaseElement;

    /// Canonical constants take the field's conversion, the rest reduce as `felt_from_u64`
    /// does; both agree with it everywhere.
    #[test]
    fn air_constants_equal_felt_from_u64() {
        let p = BaseElement::MODULUS;
        for v in [
            0,
            1,
            1 << 32,
            (1 << 32) - 1,
            1 << 63,
            p - 1,
            p,
            p + 5,
            u64::MAX,
        ] {
            let (fast, slow) = (
                air_constant::<BaseElement>(v),
                felt_from_u64::<BaseElement>(v),
            );
            assert_eq!(fast, slow, "{v}");
        }
        assert_eq!(air_constant::<BaseElement>(p - 1).as_int(), p - 1);
        let bb = crate::field::BabyBear::MODULUS;
        for v in [0, 7, bb - 1, bb, bb * 3 + 7, u64::MAX] {
            let fast = air_constant::<crate::field::BabyBear>(v);
            assert_eq!(fast, felt_from_u64::<crate::field::BabyBear>(v), "{v}");
        }
    }

    #[test]
    fn felt_from_u64_reduces() {
        let p = BaseElement::MODULUS;
        assert_eq!(felt_from_u64::<BaseElement>(p + 5).as_int(), 5);
        assert_eq!(
            felt_from_u64::<BaseElement>(u64::MAX).as_int(),
            u64::MAX - p
        );
        let bb = crate::field::BabyBear::MODULUS;
        assert_eq!(
            felt_from_u64::<crate::field::BabyBear>(bb * 3 + 7).as_int(),
            7
        );
    }

    #[test]
    fn adapter_evaluates_the_air_def_constraints() {
        let opts = ProofOptions::new(
            32,
            8,
            0,
            winter_air::FieldExtension::Quadratic,
            8,
            31,
            winter_air::BatchingMethod::Linear,
            winter_air::BatchingMethod::Linear,
        );
        let air = WfAir::<Fibonacci, BaseElement>::new(
            TraceInfo::new(2, 16),
            PublicInputs(alloc::vec![BaseElement::new(987)]),
            opts,
        );
        let f = |v: u64| BaseElement::new(v);
        let mut out = [BaseElement::ZERO; 2];
        let ok = EvaluationFrame::from_rows(alloc::vec![f(1), f(1)], alloc::vec![f(2), f(3)]);
        air.evaluate_transition(&ok, &[], &mut out);
        assert_eq!(out, [BaseElement::ZERO; 2]);
        let bad = EvaluationFrame::from_rows(alloc::vec![f(1), f(1)], alloc::vec![f(2), f(4)]);
        air.evaluate_transition(&bad, &[], &mut out);
        assert_eq!(out, [BaseElement::ZERO, BaseElement::ONE]);
        let a = air.get_assertions();
        assert_eq!(a.len(), 3);
        assert_eq!(
            WfAir::<Fibonacci, BaseElement>::num_constraints(&Fibonacci),
            5
        );
    }
}

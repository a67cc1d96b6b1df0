//! Adapter from an AIR written once against `picostark_air::AirDef` to Plonky3's `Air<AB>`.
//!
//! Transition constraints are guarded by `is_transition`, boundary constraints by
//! `is_first_row` / `is_last_row`, and public inputs are bound by boundary constraints (a
//! Plonky3 proof binds public values only through the AIR).

use alloc::vec::Vec;

use p3_air::{Air, AirBuilder, BaseAir, WindowAccess};
use p3_field::PrimeCharacteristicRing;
use picostark_air::{AirDef, BoundaryValue, Frame, Row};

/// A picostark AIR seen as a Plonky3 AIR.
#[derive(Clone, Copy, Debug, Default)]
pub struct P3Air<A>(pub A);

impl<F, A: AirDef> BaseAir<F> for P3Air<A> {
    fn width(&self) -> usize {
        self.0.width()
    }

    fn num_public_values(&self) -> usize {
        self.0.num_public_inputs()
    }

    fn max_constraint_degree(&self) -> Option<usize> {
        // Each transition is multiplied by the degree-1 `is_transition` selector; boundary
        // constraints are degree 1 times a degree-1 selector.
        let transitions = self
            .0
            .transition_degrees()
            .iter()
            .max()
            .copied()
            .unwrap_or(0);
        Some((transitions + 1).max(2))
    }
}

impl<AB: AirBuilder, A: AirDef> Air<AB> for P3Air<A> {
    fn eval(&self, builder: &mut AB) {
        let main = builder.main();
        let local: Vec<AB::Expr> = main.current_slice().iter().map(|&v| v.into()).collect();
        let next: Vec<AB::Expr> = main.next_slice().iter().map(|&v| v.into()).collect();
        let public: Vec<AB::Expr> = builder.public_values().iter().map(|&v| v.into()).collect();

        let mut transitions = Vec::with_capacity(self.0.transition_degrees().len());
        let frame = Frame {
            local: &local,
            next: &next,
            public: &public,
            constant: &AB::Expr::from_u64,
        };
        self.0.eval_transition(&frame, &mut |c| transitions.push(c));
        for c in transitions {
            builder.when_transition().assert_zero(c);
        }

        for b in self.0.boundaries() {
            let value = match b.value {
                BoundaryValue::Constant(c) => AB::Expr::from_u64(c),
                BoundaryValue::Public(i) => public[i].clone(),
            };
            let cell = local[b.column].clone();
            match b.row {
                Row::First => builder.when_first_row().assert_eq(cell, value),
                Row::Last => builder.when_last_row().assert_eq(cell, value),
            }
        }
    }
}

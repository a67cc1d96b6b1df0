//! Adapter from an AIR written once against `picostark_air::AirDef` to Plonky3's `Air<AB>`.
//!
//! Transition constraints are guarded by `is_transition`, boundary constraints by
//! `is_first_row` / `is_last_row`, and public inputs are bound by boundary constraints (a
//! Plonky3 proof binds public values only through the AIR).

use alloc::vec::Vec;

use p3_air::{Air, AirBuilder, BaseAir, WindowAccess};
use p3_field::PrimeCharacteristicRing;
use picostark_air::chain16::CubicChain16;
use picostark_air::fibonacci::Fibonacci;
use picostark_air::{AirDef, AirId, BoundaryValue, Frame, Row};
use picostark_airs::AirSet;
use picostark_core::ProofHeader;

use crate::membership::{MembershipField, MembershipOf};

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
        Some(max_constraint_degree(&self.0))
    }
}

impl<AB: AirBuilder, A: AirDef> Air<AB> for P3Air<A> {
    fn eval(&self, builder: &mut AB) {
        eval(&self.0, builder)
    }
}

/// The degree of `air`'s constraints as Plonky3 sees them: each transition is multiplied by
/// the degree-1 `is_transition` selector; boundary constraints are degree 1 times a degree-1
/// selector.
pub(crate) fn max_constraint_degree<A: AirDef>(air: &A) -> usize {
    let transitions = air.transition_degrees().iter().max().copied().unwrap_or(0);
    (transitions + 1).max(2)
}

/// `air`'s constraints on `builder`'s window (see the module documentation).
pub(crate) fn eval<AB: AirBuilder, A: AirDef>(air: &A, builder: &mut AB) {
    let main = builder.main();
    let local: Vec<AB::Expr> = main.current_slice().iter().map(|&v| v.into()).collect();
    let next: Vec<AB::Expr> = main.next_slice().iter().map(|&v| v.into()).collect();
    let public: Vec<AB::Expr> = builder.public_values().iter().map(|&v| v.into()).collect();

    let mut transitions = Vec::with_capacity(air.transition_degrees().len());
    let frame = Frame {
        local: &local,
        next: &next,
        public: &public,
        constant: &AB::Expr::from_u64,
    };
    air.eval_transition(&frame, &mut |c| transitions.push(c));
    for c in transitions {
        builder.when_transition().assert_zero(c);
    }

    for b in air.boundaries() {
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

/// Every AIR this backend proves and verifies, as one Plonky3 AIR type over base field `F`:
/// `p3_uni_stark::prove` and `verify` are then compiled once per configuration rather than
/// once per configuration and AIR (those instances were most of this crate's build time).
// One value per prove or verify call, held where the AIR itself was held before: the
// membership variant's size is that AIR's own.
#[allow(clippy::large_enum_variant)]
pub(crate) enum AnyAir<F: MembershipField, X = Fibonacci> {
    Fibonacci(Fibonacci),
    CubicChain16(CubicChain16),
    Membership(MembershipOf<F>),
    /// The user's AIR of the build's set (`picostark_airs::AirSet::Extra`).
    Extra(X),
}

/// `$e` with `$a` bound to the AIR inside `$air` (an [`AnyAir`] or a reference to one).
macro_rules! on_air {
    ($air:expr, |$a:ident| $e:expr) => {
        match $air {
            $crate::air::AnyAir::Fibonacci($a) => $e,
            $crate::air::AnyAir::CubicChain16($a) => $e,
            $crate::air::AnyAir::Membership($a) => $e,
            $crate::air::AnyAir::Extra($a) => $e,
        }
    };
}
pub(crate) use on_air;

impl<F: MembershipField, X: AirDef> AnyAir<F, X> {
    /// The AIR a proof file names, over `F`, if the set `S` has it.
    pub(crate) fn of<S: AirSet<Extra = X>>(id: AirId) -> Option<Self> {
        Some(match id {
            AirId::Fibonacci => Self::Fibonacci(Fibonacci),
            AirId::CubicChain16 => Self::CubicChain16(CubicChain16),
            AirId::Membership => Self::Membership(MembershipOf::<F>::default()),
            AirId::Custom(_) => Self::Extra(S::extra(id)?),
        })
    }
}

/// The AIR a proof file's header names, with the least constraint degree its quotient is
/// sized by ([`crate::config::min_constraint_degree`]): what `p3_uni_stark::prove` and
/// `verify` are handed.
pub(crate) struct HeaderAir<F: MembershipField, X = Fibonacci> {
    pub(crate) air: AnyAir<F, X>,
    min_degree: usize,
}

impl<F: MembershipField, X: AirDef> HeaderAir<F, X> {
    /// The header's AIR, if the set `S` has it.
    pub(crate) fn of<S: AirSet<Extra = X>>(header: &ProofHeader) -> Option<Self> {
        Some(Self {
            air: AnyAir::of::<S>(header.air)?,
            min_degree: crate::config::min_constraint_degree(header),
        })
    }
}

impl<F: MembershipField, X: AirDef, V> BaseAir<V> for HeaderAir<F, X> {
    fn width(&self) -> usize {
        on_air!(&self.air, |a| a.width())
    }

    fn num_public_values(&self) -> usize {
        on_air!(&self.air, |a| a.num_public_inputs())
    }

    fn max_constraint_degree(&self) -> Option<usize> {
        Some(on_air!(&self.air, |a| max_constraint_degree(a)).max(self.min_degree))
    }
}

impl<F: MembershipField, X: AirDef, AB: AirBuilder> Air<AB> for HeaderAir<F, X> {
    fn eval(&self, builder: &mut AB) {
        on_air!(&self.air, |a| eval(a, builder))
    }
}

//! picostark-airs: the one declaration of the AIRs every backend proves and verifies.
//!
//! An [`AirSet`] is the set of AIRs a build proves and verifies, as a type: [`Builtins`]
//! binds each built-in [`AirId`] (the byte a proof file names its statement by) to the
//! [`AirDef`] it stands for over each base field (the membership AIR takes the field's
//! Poseidon2 instance from `picostark-poseidon2`) and hands it to an [`AirVisitor`], so a
//! caller writes its work once, generic over `A: AirDef`; [`With<A>`](With) adds a user's AIR
//! from outside the workspace, named in proof files by its fingerprint. Backends are generic
//! over the set. Adding a built-in AIR is one arm here; adding one of your own is no edit
//! here at all (`examples/vdf`).
//!
//! Facts about an AIR are derived from that definition, never copied: [`shape`] computes the
//! [`AirShape`] the security estimate (`picostark_core::security`) counts with from the
//! AIR's width, constraint degrees, boundaries and statement hash; [`shape_of`],
//! [`figures`] and [`bits`] do so for a proof header's own AIR. Verifiers hand the shape to
//! the policy through `Verifier::air_shape`.
//!
//! The crate sits between the AIRs (`picostark-air`, `picostark-poseidon2`) and the
//! backends, which read it; `no_std`, so the firmware's verifiers use it too.
#![no_std]
#![forbid(unsafe_code)]

#[cfg(test)]
extern crate alloc;

use core::marker::PhantomData;
use picostark_air::chain16::CubicChain16;
use picostark_air::fibonacci::Fibonacci;
use picostark_air::membership::Membership;

use picostark_air::reduce::DegreeReduced;
use picostark_air::AirDef;
use picostark_core::security::{AirShape, Figures, Regime, StatementHash};
use picostark_core::{AirId, BackendId, Domain, FieldId, ProofHeader};
use picostark_poseidon2::{BabyBear24, Goldilocks12, Mersenne31x24};

/// Work to do on the AIR a proof names, written once for every AIR type.
pub trait AirVisitor {
    /// What the work returns.
    type Output;
    /// Does the work on `air`.
    fn visit<A: AirDef>(self, air: &A) -> Self::Output;
}

/// The AIRs a build proves and verifies: the built-ins and at most one AIR of the user's
/// ([`With`]). A type, so that a backend's code is generic over it and a user's AIR joins
/// without an edit here.
pub trait AirSet: 'static {
    /// The user's AIR ([`Builtins`]: none, and this is a stand-in never visited).
    type Extra: AirDef;
    /// Whether [`AirSet::Extra`] is in the set.
    const HAS_EXTRA: bool;

    /// The user's AIR, if the set has one and `air` names it.
    fn extra(air: AirId) -> Option<Self::Extra> {
        if !Self::HAS_EXTRA || !matches!(air, AirId::Custom(_)) {
            return None;
        }
        let own = Self::Extra::default();
        (own.id() == air).then_some(own)
    }

    /// Runs `visitor` on the AIR `air` names over `field`; `None` when the set has no such
    /// AIR (a custom AIR this build was not made with).
    #[inline]
    fn with<V: AirVisitor>(air: AirId, field: FieldId, visitor: V) -> Option<V::Output> {
        if let Some(own) = Self::extra(air) {
            return Some(visitor.visit(&own));
        }
        Some(match air {
            AirId::Fibonacci => visitor.visit(&Fibonacci),
            AirId::CubicChain16 => visitor.visit(&CubicChain16),
            AirId::Membership => match field {
                FieldId::BabyBear => visitor.visit(&Membership::<BabyBear24>::default()),
                FieldId::Mersenne31 => visitor.visit(&Membership::<Mersenne31x24>::default()),
                FieldId::Goldilocks => visitor.visit(&Membership::<Goldilocks12>::default()),
            },
            AirId::Custom(_) => return None,
        })
    }
}

/// The built-in AIRs: the one table from AIR ids to AIR types ([`AirSet::with`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct Builtins;

impl AirSet for Builtins {
    type Extra = Fibonacci;
    const HAS_EXTRA: bool = false;
}

/// The built-ins and the user's AIR `A`, named in proof files by its fingerprint
/// ([`AirDef::id`]): how a user's build adds its own AIR, e.g. `With<VdfAir>`.
pub struct With<A>(PhantomData<fn() -> A>);

impl<A: AirDef> AirSet for With<A> {
    type Extra = A;
    const HAS_EXTRA: bool = true;
}

/// Declares a backend's verifier or prover generic over the AIR set: the type
/// `$of<S = Builtins>`, the alias `$name` for the built-ins' one, and a constant `$name` of
/// it, so that `$name` reads as the unit struct it was before the sets (a value and a type).
/// Copy, Default and Debug hold for every `S`.
#[macro_export]
macro_rules! per_air_set {
    ($(#[$m:meta])* $name:ident, $of:ident) => {
        $(#[$m])*
        ///
        /// Generic over the AIRs it takes (`picostark_airs::AirSet`: the built-ins, or the
        /// built-ins and a user's AIR with `picostark_airs::With`).
        pub struct $of<S = $crate::Builtins>(core::marker::PhantomData<fn() -> S>);

        $(#[$m])*
        pub type $name = $of<$crate::Builtins>;

        /// The built-in AIRs' one, as a value.
        #[allow(non_upper_case_globals)]
        pub const $name: $name = $of(core::marker::PhantomData);

        impl<S> Clone for $of<S> {
            fn clone(&self) -> Self {
                *self
            }
        }
        impl<S> Copy for $of<S> {}
        impl<S> Default for $of<S> {
            fn default() -> Self {
                Self(core::marker::PhantomData)
            }
        }
        impl<S> core::fmt::Debug for $of<S> {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(stringify!($name))
            }
        }
    };
}

/// Runs `visitor` on the built-in AIR `air` over `field` ([`Builtins`]).
#[inline]
pub fn with_air<V: AirVisitor>(air: AirId, field: FieldId, visitor: V) -> Option<V::Output> {
    Builtins::with(air, field, visitor)
}

/// Plonky3's view of `air`'s shape over `domain`, the one the security estimate counts
/// with for every backend:
///
/// - constraints: every transition and every boundary (a boundary is one constraint under
///   a selector);
/// - largest degree: the largest transition's, one higher over the circle (whose transition
///   selector Plonky3 counts as degree 1), and at least 2 (a degree-1 boundary under a
///   degree-1 first- or last-row selector);
/// - quotient chunks: the provers' degree hint (largest transition degree + 1) gives
///   `2^ceil(log2(hint - 1))` chunks;
/// - the statement's own hash, if the AIR computes one ([`AirDef::statement_hash`]).
pub fn shape<A: AirDef>(air: &A, domain: Domain) -> AirShape {
    let transitions = air.transition_degrees();
    let largest = transitions.iter().copied().max().unwrap_or(0);
    let circle = usize::from(domain == Domain::Circle);
    AirShape {
        width: air.width() as u32,
        num_constraints: (transitions.len() + air.boundaries().len()) as u32,
        max_constraint_degree: (largest + circle).max(2) as u32,
        num_quotient_chunks: largest.max(1).next_power_of_two() as u32,
        statement_hash: air
            .statement_hash()
            .map(|(bits, name)| StatementHash { bits, name }),
    }
}

/// [`shape`] as a visitor, of the AIR as a backend proves it: its degree-reduced form
/// (`picostark_air::reduce`) under a backend's degree bound
/// ([`BackendId::max_air_degree`]), else as written.
struct ShapeOver(Domain, Option<usize>);

impl AirVisitor for ShapeOver {
    type Output = AirShape;
    fn visit<A: AirDef>(self, air: &A) -> AirShape {
        match self.1 {
            Some(max) if air.transition_degrees().iter().any(|&d| d > max) => {
                shape(&DegreeReduced::new(air.clone(), max), self.0)
            }
            _ => shape(air, self.0),
        }
    }
}

/// The shape of the AIR `air` over `field` and `domain`, if the set `S` has it.
#[inline]
pub fn shape_in<S: AirSet>(air: AirId, field: FieldId, domain: Domain) -> Option<AirShape> {
    S::with(air, field, ShapeOver(domain, None))
}

/// The shape of the built-in AIR `air` over `field` and `domain`.
#[inline]
pub fn shape_by_id(air: AirId, field: FieldId, domain: Domain) -> Option<AirShape> {
    shape_in::<Builtins>(air, field, domain)
}

/// The shape of the AIR `air` as `backend` proves it (over its field and domain), if the set
/// `S` has it. A verifier passes its own backend, a constant: the other fields' AIRs are
/// not linked.
#[inline]
pub fn shape_for<S: AirSet>(backend: BackendId, air: AirId) -> Option<AirShape> {
    S::with(
        air,
        backend.field(),
        ShapeOver(backend.domain(), backend.max_air_degree()),
    )
}

/// The shape of a header's own AIR, over its backend's field and domain, if the set `S`
/// has it.
pub fn shape_of_in<S: AirSet>(header: &ProofHeader) -> Option<AirShape> {
    let domain = header.backend.domain();
    S::with(
        header.air,
        header.field,
        ShapeOver(domain, header.backend.max_air_degree()),
    )
}

/// [`shape_of_in`] over the built-in AIRs.
pub fn shape_of(header: &ProofHeader) -> Option<AirShape> {
    shape_of_in::<Builtins>(header)
}

/// All five security figures of a header (`picostark_core::security::Figures`), over its
/// own AIR, if the set `S` has it.
pub fn figures_in<S: AirSet>(header: &ProofHeader) -> Option<Figures> {
    Some(Figures::with_shape(header, shape_of_in::<S>(header)?))
}

/// [`figures_in`] over the built-in AIRs.
pub fn figures(header: &ProofHeader) -> Option<Figures> {
    figures_in::<Builtins>(header)
}

/// A header's security in one regime, over its own AIR, if the set `S` has it.
pub fn bits_in<S: AirSet>(header: &ProofHeader, regime: Regime) -> Option<u32> {
    Some(picostark_core::security::bits(
        header,
        shape_of_in::<S>(header)?,
        regime,
    ))
}

/// [`bits_in`] over the built-in AIRs.
pub fn bits(header: &ProofHeader, regime: Regime) -> Option<u32> {
    bits_in::<Builtins>(header, regime)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expect(w: u32, c: u32, d: u32, q: u32, hash: Option<(u32, &'static str)>) -> AirShape {
        AirShape {
            width: w,
            num_constraints: c,
            max_constraint_degree: d,
            num_quotient_chunks: q,
            statement_hash: hash.map(|(bits, name)| StatementHash { bits, name }),
        }
    }

    /// The shapes `core/src/security.rs` kept by hand before they were derived (issue 47):
    /// the derivation gives every one of them, so no security figure or verdict moved.
    #[test]
    fn derived_shapes_equal_the_former_hand_kept_table() {
        use Domain::{Circle, TwoAdic};
        use FieldId::{BabyBear, Goldilocks, Mersenne31};
        let bb = Some((128, "Poseidon2 BabyBear-24, 9-word digests"));
        let m31 = Some((128, "Poseidon2 Mersenne-31-24, 9-word digests"));
        let gl = Some((127, "Poseidon2 Goldilocks-12, 4-word digests"));
        for field in [BabyBear, Goldilocks, Mersenne31] {
            for domain in [TwoAdic, Circle] {
                let c = u32::from(domain == Circle);
                assert_eq!(
                    shape_by_id(AirId::Fibonacci, field, domain).unwrap(),
                    expect(2, 5, 2, 1, None)
                );
                assert_eq!(
                    shape_by_id(AirId::CubicChain16, field, domain).unwrap(),
                    expect(16, 36, 3 + c, 4, None)
                );
            }
        }
        let m = |f, d| shape_by_id(AirId::Membership, f, d).unwrap();
        assert_eq!(m(BabyBear, TwoAdic), expect(237, 315, 7, 8, bb));
        assert_eq!(m(Goldilocks, TwoAdic), expect(132, 175, 7, 8, gl));
        assert_eq!(m(Mersenne31, TwoAdic), expect(238, 316, 5, 8, m31));
        assert_eq!(m(Mersenne31, Circle), expect(238, 316, 6, 8, m31));
    }

    /// Every declared AIR, over every field, is visited with its own id.
    #[test]
    fn every_air_id_has_its_definition() {
        struct Id;
        impl AirVisitor for Id {
            type Output = AirId;
            fn visit<A: AirDef>(self, air: &A) -> AirId {
                air.id()
            }
        }
        for &air in AirId::ALL {
            for &field in FieldId::ALL {
                assert_eq!(with_air(air, field, Id), Some(air));
            }
        }
    }

    /// A user's AIR joins the built-ins by its fingerprint; another fingerprint is no AIR of
    /// the set, and the built-ins stay as they were.
    #[test]
    fn a_users_air_joins_the_set_by_its_fingerprint() {
        #[derive(Clone, Copy, Debug, Default)]
        struct Renamed;
        impl AirDef for Renamed {
            const NAME: &'static str = "renamed-fib";
            fn width(&self) -> usize {
                Fibonacci.width()
            }
            fn num_public_inputs(&self) -> usize {
                Fibonacci.num_public_inputs()
            }
            fn transition_degrees(&self) -> &[usize] {
                Fibonacci.transition_degrees()
            }
            fn eval_transition<E: picostark_air::Algebra>(
                &self,
                frame: &picostark_air::Frame<'_, E>,
                emit: &mut dyn FnMut(E),
            ) {
                Fibonacci.eval_transition(frame, emit)
            }
            fn boundaries(&self) -> alloc::vec::Vec<picostark_air::Boundary> {
                Fibonacci.boundaries()
            }
            fn generate_trace<F>(
                &self,
                n: usize,
                from_u64: impl Fn(u64) -> F,
            ) -> picostark_air::Trace<F>
            where
                F: Copy
                    + core::ops::Add<Output = F>
                    + core::ops::Sub<Output = F>
                    + core::ops::Mul<Output = F>,
            {
                Fibonacci.generate_trace(n, from_u64)
            }
        }
        struct Id;
        impl AirVisitor for Id {
            type Output = AirId;
            fn visit<A: AirDef>(self, air: &A) -> AirId {
                air.id()
            }
        }
        type Set = With<Renamed>;
        let own = Renamed.id();
        assert!(matches!(own, AirId::Custom(_)));
        let field = FieldId::BabyBear;
        assert_eq!(Set::with(own, field, Id), Some(own));
        assert_eq!(Builtins::with(own, field, Id), None);
        let other = AirId::Custom(own.fingerprint().unwrap() ^ 1);
        assert_eq!(Set::with(other, field, Id), None);
        assert_eq!(
            Set::with(AirId::Fibonacci, field, Id),
            Some(AirId::Fibonacci)
        );
        assert_eq!(
            shape_in::<Set>(own, field, Domain::TwoAdic),
            shape_by_id(AirId::Fibonacci, field, Domain::TwoAdic)
        );
    }
}

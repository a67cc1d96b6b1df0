//! picostark-airs: the one declaration of the AIRs every backend proves and verifies.
//!
//! [`with_air`] binds each [`AirId`] (the byte a proof file names its statement by) to the
//! [`AirDef`] it stands for over each base field (the membership AIR takes the field's
//! Poseidon2 instance from `picostark-poseidon2`), and hands it to an [`AirVisitor`]: the AIR
//! is a type, and a caller writes its work once, generic over `A: AirDef`. Adding an AIR is
//! one arm here.
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

use picostark_air::chain16::CubicChain16;
use picostark_air::fibonacci::Fibonacci;
use picostark_air::membership::Membership;
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

/// Runs `visitor` on the AIR `air` over `field`: the one table from AIR ids to AIR types.
/// Inlined, so a caller that passes a constant field (a backend's own) links only that
/// field's instances.
#[inline]
pub fn with_air<V: AirVisitor>(air: AirId, field: FieldId, visitor: V) -> V::Output {
    match air {
        AirId::Fibonacci => visitor.visit(&Fibonacci),
        AirId::CubicChain16 => visitor.visit(&CubicChain16),
        AirId::Membership => match field {
            FieldId::BabyBear => visitor.visit(&Membership::<BabyBear24>::default()),
            FieldId::Mersenne31 => visitor.visit(&Membership::<Mersenne31x24>::default()),
            FieldId::Goldilocks => visitor.visit(&Membership::<Goldilocks12>::default()),
        },
    }
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

/// [`shape`] as a visitor.
struct ShapeOver(Domain);

impl AirVisitor for ShapeOver {
    type Output = AirShape;
    fn visit<A: AirDef>(self, air: &A) -> AirShape {
        shape(air, self.0)
    }
}

/// The shape of the AIR `air` over `field` and `domain`.
#[inline]
pub fn shape_by_id(air: AirId, field: FieldId, domain: Domain) -> AirShape {
    with_air(air, field, ShapeOver(domain))
}

/// The shape of the AIR `air` as `backend` proves it (over its field and domain). A
/// verifier passes its own backend, a constant: the other fields' AIRs are not linked.
#[inline]
pub fn shape_for(backend: BackendId, air: AirId) -> AirShape {
    shape_by_id(air, backend.field(), backend.domain())
}

/// The shape of a header's own AIR, over its backend's field and domain.
pub fn shape_of(header: &ProofHeader) -> AirShape {
    shape_by_id(header.air, header.field, header.backend.domain())
}

/// All five security figures of a header (`picostark_core::security::Figures`), over its
/// own AIR.
pub fn figures(header: &ProofHeader) -> Figures {
    Figures::with_shape(header, shape_of(header))
}

/// A header's security in one regime, over its own AIR.
pub fn bits(header: &ProofHeader, regime: Regime) -> u32 {
    picostark_core::security::bits(header, shape_of(header), regime)
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
                    shape_by_id(AirId::Fibonacci, field, domain),
                    expect(2, 5, 2, 1, None)
                );
                assert_eq!(
                    shape_by_id(AirId::CubicChain16, field, domain),
                    expect(16, 36, 3 + c, 4, None)
                );
            }
        }
        let m = |f, d| shape_by_id(AirId::Membership, f, d);
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
            fn visit<A: AirDef>(self, _: &A) -> AirId {
                A::ID
            }
        }
        for &air in AirId::ALL {
            for &field in FieldId::ALL {
                assert_eq!(with_air(air, field, Id), air);
            }
        }
    }
}

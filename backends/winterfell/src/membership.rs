//! The membership AIR (`picostark_air::membership`) over winterfell's fields: each base
//! field's Poseidon2 instance from `picostark-poseidon2` (the Plonky3 field crates' own
//! constants, so a membership statement is the same statement on every backend of a field).
//! [`MembershipField`] names a field's instance for the generic prover and verifier.

use picostark_air::membership::Membership;
use picostark_air::poseidon2::Poseidon2Instance;
use picostark_poseidon2::{BabyBear24, Goldilocks12};
use winter_math::fields::f64::BaseElement;

use crate::field::BabyBear;

/// A base field with a membership instance.
pub trait MembershipField {
    /// Its Poseidon2 instance and digest width.
    type Instance: Poseidon2Instance + 'static;
}

impl MembershipField for BaseElement {
    type Instance = Goldilocks12;
}

impl MembershipField for BabyBear {
    type Instance = BabyBear24;
}

/// The membership AIR (default depth) over field `B`'s instance.
pub type MembershipOf<B> = Membership<<B as MembershipField>::Instance>;

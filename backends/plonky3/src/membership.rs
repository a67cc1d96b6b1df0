//! The membership AIR (`picostark_air::membership`) over the Plonky3 fields: each base field's
//! Poseidon2 instance from `picostark-poseidon2` (the field crates' own constants).
//! [`MembershipField`] names a field's instance, so code generic over the base field (the
//! prover, the stock and the lean verifiers) picks the AIR of the proof's field.

use p3_baby_bear::BabyBear;
use p3_goldilocks::Goldilocks;
use p3_mersenne_31::Mersenne31;
use picostark_air::membership::Membership;
use picostark_air::poseidon2::Poseidon2Instance;
pub use picostark_poseidon2::{BabyBear24, Goldilocks12, Mersenne31x24};

/// A base field with a membership instance.
pub trait MembershipField {
    /// Its Poseidon2 instance and digest width.
    type Instance: Poseidon2Instance;
}

impl MembershipField for BabyBear {
    type Instance = BabyBear24;
}
impl MembershipField for Mersenne31 {
    type Instance = Mersenne31x24;
}
impl MembershipField for Goldilocks {
    type Instance = Goldilocks12;
}

/// The membership AIR (default depth) over field `F`'s instance.
pub type MembershipOf<F> = Membership<<F as MembershipField>::Instance>;

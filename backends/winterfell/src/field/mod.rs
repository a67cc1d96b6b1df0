//! Project-owned fields for winterfell: BabyBear and its quartic extension `x^4 - 11`.
//! Goldilocks and its quadratic extension come from winter-math itself.

pub mod babybear;
pub mod quartic;

pub use babybear::BabyBear;
pub use quartic::Quartic;

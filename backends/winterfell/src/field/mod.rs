//! Project-owned fields for winterfell: BabyBear, its quartic extension `x^4 - 11` and its
//! quintic extension `x^5 - 2` (the proven-security track).
//! Goldilocks and its quadratic extension come from winter-math itself.

pub mod babybear;
mod extension;
pub mod quartic;
pub mod quintic;

pub use babybear::BabyBear;
pub use quartic::Quartic;
pub use quintic::Quintic;

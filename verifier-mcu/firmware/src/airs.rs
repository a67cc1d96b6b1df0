//! The AIRs this firmware verifies: the built-ins, and a user's AIR when the build names one.
//!
//! A user's AIR comes from their own crate, registered by the one optional dependency
//! `user-air` in this crate's `Cargo.toml` (`user-air = { package = "...", path = "...",
//! optional = true }`) and enabled with the feature of the same name. That crate exports its
//! AIR as `Air` (see `examples/vdf`); proofs of it are then verified beside the built-ins',
//! and a proof of any other custom AIR gets `Unsupported` ("a custom AIR this build was not
//! made with").

/// The AIR set of this build.
#[cfg(feature = "user-air")]
pub type Airs = picostark_registry::With<user_air::Air>;
/// The AIR set of this build.
#[cfg(not(feature = "user-air"))]
pub type Airs = picostark_registry::Builtins;

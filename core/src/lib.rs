//! picostark-core: the small `no_std` layer every backend implements.
//!
//! - [`proof_file`]: the self-describing, versioned proof envelope and its strict, bounded parser.
//! - [`security`]: every proof's security under each regime the project reports (ethSTARK,
//!   winterfell's and Plonky3's conjectures, proven unique and list decoding), and the
//!   verifier [`Policy`] that names its regime.
//! - [`backend`]: the [`Verifier`] trait and [`verify`],
//!   which runs the cheap checks (format, backend, statement, policy) before the heavy ones.
//! - [`record`]: the benchmark record schema shared by the firmware, its runner and `compare`.
//! - [`board`]: the host/board handshake, board-only lines and the cycle-counter check.
//!
//! No backend types appear here: backends depend on this crate, never the reverse.
#![no_std]
#![forbid(unsafe_code)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub mod backend;
pub mod board;
pub mod error;
pub mod ids;
pub mod proof_file;
pub mod record;
pub mod security;
pub mod verdict;

pub use backend::{verify, Statement, Verified, Verifier};
pub use error::{Check, FormatError, Tree, VerifyError};
pub use ids::{AirId, BackendId, Domain, FieldId, HashId};
pub use proof_file::{CirclePcsKind, ProofFile, ProofHeader, ProofParams, PublicInputs};
pub use security::{conjectured_security_bits, ethstark_bits, Figures, Policy, Regime};
pub use verdict::{digests_equal, Failures};

#[cfg(feature = "std")]
pub mod prove;
#[cfg(feature = "std")]
pub mod tamper;

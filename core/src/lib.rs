//! picostark-core: the small `no_std` layer every backend implements.
//!
//! - [`proof_file`]: the self-describing, versioned proof envelope and its strict, bounded parser.
//! - [`security`]: the one conjectured-security estimator used for every backend, and the
//!   verifier [`Policy`].
//! - [`backend`]: the [`Verifier`] trait and [`verify`],
//!   which runs the cheap checks (format, backend, statement, policy) before the heavy ones.
//! - [`record`]: the benchmark record schema shared by the firmware, its runner and `compare`.
//!
//! No backend types appear here: backends depend on this crate, never the reverse.
#![no_std]
#![forbid(unsafe_code)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub mod backend;
pub mod error;
pub mod ids;
pub mod proof_file;
pub mod record;
pub mod security;

pub use backend::{verify, Statement, Verified, Verifier};
pub use error::{FormatError, VerifyError};
pub use ids::{AirId, BackendId, FieldId, HashId};
pub use proof_file::{ProofFile, ProofHeader, ProofParams, PublicInputs};
pub use security::{conjectured_security_bits, Policy};

#[cfg(feature = "std")]
pub mod prove;

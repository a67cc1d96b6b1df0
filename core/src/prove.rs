//! The host-side proving trait (behind the `std` feature).

use std::string::String;
use std::vec::Vec;

use crate::ids::{AirId, BackendId, HashId};
use crate::proof_file::ProofParams;

/// What to prove and with which parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProveRequest {
    pub air: AirId,
    pub log_n: u8,
    pub extension_degree: u8,
    pub params: ProofParams,
    /// The hash of the commitments and the transcript.
    pub hash: HashId,
}

/// A proving failure (bad request or prover error), with a one-line reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProveError(pub String);

impl core::fmt::Display for ProveError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ProveError {}

/// A backend's prover: makes complete proof files.
pub trait Prover {
    fn backend(&self) -> BackendId;

    /// The extension degrees this backend can prove with; the first is the default.
    fn extension_degrees(&self) -> &'static [u8];

    /// Default parameters (>= 95 bits under the strictest conjecture, `Policy::default()`).
    fn default_params(&self) -> ProofParams;

    /// Proves `request` and returns the whole proof file. `progress` receives short stage
    /// names ("trace", "prove", ...) as proving advances.
    fn prove(
        &self,
        request: &ProveRequest,
        progress: &mut dyn FnMut(&str),
    ) -> Result<Vec<u8>, ProveError>;
}

//! The host-side proving trait (behind the `std` feature).

use std::string::String;
use std::vec::Vec;

use crate::ids::{AirId, BackendId, HashId};
use crate::proof_file::{ProofHeader, ProofParams};

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

impl ProveRequest {
    /// The header a proof of this request by `backend` carries.
    pub fn header(&self, backend: BackendId) -> ProofHeader {
        ProofHeader {
            backend,
            field: backend.field(),
            extension_degree: self.extension_degree,
            hash: self.hash,
            air: self.air,
            log_n: self.log_n,
            params: self.params,
        }
    }
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

    /// Whether [`Prover::prove`] can prove `request`: every limit of the backend and its
    /// library (extension degree, trace length, queries against the domain, folding against
    /// n, final length), checked without proving. A request it accepts proves without a
    /// panic; `prove` runs the same check first.
    fn check_request(&self, request: &ProveRequest) -> Result<(), ProveError>;

    /// Proves `request` and returns the whole proof file. `progress` receives short stage
    /// names ("trace", "prove", ...) as proving advances.
    fn prove(
        &self,
        request: &ProveRequest,
        progress: &mut dyn FnMut(&str),
    ) -> Result<Vec<u8>, ProveError>;
}

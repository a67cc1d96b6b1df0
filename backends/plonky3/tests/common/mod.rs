//! Setup shared by the lean verifier's tests (`lean_differential`, `lean_circle_differential`,
//! `lean_alloc`): proofs from a backend's prover with its default parameters, and where a proof
//! file's payload starts (the byte sweeps tamper from there).

use picostark_core::prove::{ProveRequest, Prover};
use picostark_core::{AirId, HashId, ProofFile};

/// A proof of `air` over `2^log_n` rows with challenge-field degree `ext`, the prover's default
/// parameters and `hash`, or `None` if the prover does not offer that configuration.
#[allow(dead_code)] // not every test binary proves with the defaults
pub fn prove_default(
    prover: &dyn Prover,
    air: AirId,
    log_n: u8,
    ext: u8,
    hash: HashId,
) -> Option<Vec<u8>> {
    let req = ProveRequest {
        air,
        log_n,
        extension_degree: ext,
        params: prover.default_params(),
        hash,
    };
    prover.prove(&req, &mut |_| {}).ok()
}

/// The offset of the payload in a proof file (after its header and public inputs).
#[allow(dead_code)] // not every test binary sweeps payload bytes
pub fn payload_at(bytes: &[u8]) -> usize {
    let file = ProofFile::parse(bytes).unwrap();
    bytes.len() - file.payload.len()
}

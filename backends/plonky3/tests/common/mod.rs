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

/// Tampered copies of a membership proof, each with its name: 200 payload bytes spread over
/// the payload (one bit flipped each, the position's low three bits choosing it), and the
/// statement with a wrong public input (the root's first word, the nullifier's first word,
/// the scope's last word), re-encoded around the same payload.
#[allow(dead_code)] // only the membership tests use it
pub fn membership_tampers(bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
    let file = ProofFile::parse(bytes).unwrap();
    let start = bytes.len() - file.payload.len();
    let len = file.payload.len();
    let mut out = Vec::new();
    for k in 0..200 {
        let at = start + k * len / 200;
        let mut t = bytes.to_vec();
        t[at] ^= 1 << (at % 8);
        out.push((format!("payload byte {at}"), t));
    }
    let public: Vec<u64> = file.public_inputs.iter().collect();
    let digest = public.len() / 4;
    for (what, i) in [
        ("root", 0),
        ("nullifier", digest),
        ("scope", public.len() - 1),
    ] {
        let mut p = public.clone();
        p[i] = (p[i] + 1) % (1 << 28);
        out.push((
            format!("wrong {what}"),
            picostark_core::proof_file::encode(&file.header, &p, file.payload),
        ));
    }
    out
}

//! The registry's `stwo-m31` prover: a client of the nightly-built prover binary.
//!
//! stwo's prover needs nightly Rust (`portable_simd`), and this workspace builds on stable;
//! so the prover is its own small workspace (`backends/stwo/prover`, pinned nightly) that
//! builds one binary, `picostark-stwo-prover`, and this client runs it: the request goes in
//! as arguments, the whole proof file comes back on stdout, and the client checks it names
//! the request's header before returning it. The binary is found at
//! `$PICOSTARK_STWO_PROVER`, else where its workspace builds it.

use std::path::PathBuf;
use std::process::Command;
use std::string::{String, ToString};
use std::vec::Vec;

use picostark_core::proof_file::ProofParams;
use picostark_core::prove::{ProveError, ProveRequest, Prover};
use picostark_core::{AirId, BackendId, ProofFile};

use crate::{check_header, BACKEND, DEFAULT_PARAMS, EXTENSION_DEGREE};
use picostark_airs::AirSet;

/// Where the prover binary is: `$PICOSTARK_STWO_PROVER`, else its workspace's release build.
pub fn prover_binary() -> PathBuf {
    match std::env::var_os("PICOSTARK_STWO_PROVER") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("prover/target/release/picostark-stwo-prover"),
    }
}

picostark_airs::per_air_set!(
    /// The `stwo-m31` prover (runs [`prover_binary`]). The prover binary is built (with
    /// nightly, in its own workspace) with the built-in AIRs only, so a custom AIR is refused
    /// with that reason.
    StwoM31Prover,
    StwoM31ProverOf
);

impl<S: AirSet> Prover for StwoM31ProverOf<S> {
    fn backend(&self) -> BackendId {
        BACKEND
    }

    fn extension_degrees(&self) -> &'static [u8] {
        &[EXTENSION_DEGREE]
    }

    fn default_params(&self) -> ProofParams {
        DEFAULT_PARAMS
    }

    fn check_request(&self, request: &ProveRequest) -> Result<(), ProveError> {
        let header = request.header(BACKEND);
        if let AirId::Custom(_) = request.air {
            return Err(ProveError(std::format!(
                "{}: stwo-m31's prover is a nightly binary built with the built-in AIRs only",
                request.air
            )));
        }
        check_header(&header).map_err(|e| ProveError(e.to_string()))?;
        if !crate::preprocessed::has_key(header.hash, header.log_n, header.params.log_blowup) {
            return Err(ProveError(
                "stwo-m31: no verifier key (selector commitment) for this hash, n and blowup"
                    .into(),
            ));
        }
        if request.air == AirId::Membership {
            let rows = picostark_air::membership::Membership::<
                picostark_poseidon2::Mersenne31x24,
            >::default()
            .min_rows();
            if (1usize << header.log_n) < rows {
                return Err(ProveError(std::format!(
                    "the membership AIR needs n >= {rows}"
                )));
            }
        }
        Ok(())
    }

    fn prove(
        &self,
        request: &ProveRequest,
        progress: &mut dyn FnMut(&str),
    ) -> Result<Vec<u8>, ProveError> {
        self.check_request(request)?;
        let bin = prover_binary();
        let p = &request.params;
        progress("prove");
        let out = Command::new(&bin)
            .args(["prove", "--air", request.air.name()])
            .args(["--log-n", &request.log_n.to_string()])
            .args(["--log-blowup", &p.log_blowup.to_string()])
            .args(["--queries", &p.num_queries.to_string()])
            .args(["--pow-bits", &p.pow_bits.to_string()])
            .args(["--fold-step", &p.log_fold_arity.to_string()])
            .args(["--log-last-layer", &p.log_final_poly_len.to_string()])
            .args(["--hash", request.hash.name()])
            .output()
            .map_err(|e| {
                ProveError(std::format!(
                    "cannot run the stwo prover {} ({e}); build it with \
                     `cargo build --release` in backends/stwo/prover (pinned nightly)",
                    bin.display()
                ))
            })?;
        if !out.status.success() {
            let err = String::from_utf8_lossy(&out.stderr);
            return Err(ProveError(std::format!(
                "the stwo prover failed: {}",
                err.trim()
            )));
        }
        let file = ProofFile::parse(&out.stdout)
            .map_err(|e| ProveError(std::format!("the stwo prover wrote no proof file: {e}")))?;
        if file.header != request.header(BACKEND) {
            return Err(ProveError(
                "the stwo prover's proof names another statement than the request".into(),
            ));
        }
        Ok(out.stdout)
    }
}

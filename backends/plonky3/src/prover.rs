//! Host-side provers (feature `prover`): generate the trace from the AIR, prove with Plonky3
//! (multi-threaded), and wrap the postcard-encoded proof in a proof file.

use std::string::ToString;
use std::vec::Vec;

use p3_field::{PrimeCharacteristicRing, PrimeField64};
use p3_matrix::dense::RowMajorMatrix;
use p3_mersenne_31::QM31;
use p3_uni_stark::{Proof, StarkGenericConfig, Val};
use picostark_air::AirDef;
use picostark_core::proof_file::{encode, statement_bytes};
use picostark_core::prove::{ProveError, ProveRequest, Prover};
use picostark_core::{BackendId, CirclePcsKind, HashId, ProofHeader, ProofParams};
use serde::Serialize;

use crate::air::{on_air, AnyAir, HeaderAir};
use crate::config::{
    self, BabyBear4, BabyBear5, BabyBear8, Goldilocks2, Goldilocks3, Goldilocks5, M31Cubic,
    M31Sextic, ProverHash, DEFAULT_PARAMS_CIRCLE, DEFAULT_PARAMS_TWO_ADIC,
};
use crate::membership::MembershipField;
use picostark_airs::AirSet;

fn check_request(header: &ProofHeader, degrees: &[u8]) -> Result<(), ProveError> {
    if !degrees.contains(&header.extension_degree) {
        return Err(ProveError(format_degree_error(header.backend, degrees)));
    }
    if header.log_n < 3 {
        return Err(ProveError("n must be at least 8".to_string()));
    }
    if header.hash == HashId::Blake2s256 {
        return Err(ProveError(crate::verifier::BLAKE2S_UNSUPPORTED.to_string()));
    }
    config::fri_params_supported(header).map_err(|e| ProveError(e.to_string()))?;
    // WideCirclePcs with more queries than LDE points (every index repeats) writes a proof
    // whose decoded size exceeds the verifier's decode budget (found by the CLI argument grid
    // at n = 8, 255 queries); such a request adds nothing and is refused.
    let p = &header.params;
    let wide = header.circle_pcs() == Some(CirclePcsKind::Wide);
    let lde_points = 1u64 << (u32::from(header.log_n) + u32::from(p.log_blowup)).min(63);
    if wide && u64::from(p.num_queries) > lde_points {
        return Err(ProveError(std::format!(
            "{} queries exceed the {lde_points} LDE points of the wide circle PCS",
            p.num_queries
        )));
    }
    Ok(())
}

fn format_degree_error(backend: BackendId, degrees: &[u8]) -> std::string::String {
    std::format!("{backend} supports extension degrees {degrees:?}")
}

/// Proves the header's statement with the configuration `make_config(statement bytes,
/// hash)` makes: trace, public inputs (canonical u64) and proof payload, as a proof file.
fn prove<S: AirSet, SC>(
    make_config: impl FnOnce(&[u8], ProverHash) -> SC,
    header: &ProofHeader,
    progress: &mut dyn FnMut(&str),
) -> Result<Vec<u8>, ProveError>
where
    SC: StarkGenericConfig,
    Val<SC>: PrimeField64 + MembershipField,
    SC::Challenger: p3_challenger::GrindingChallenger<Witness = Val<SC>>,
    Proof<SC>: Serialize,
{
    let air = HeaderAir::<Val<SC>, S::Extra>::of::<S>(header).ok_or_else(|| {
        ProveError(std::format!(
            "{}: {}",
            header.air,
            crate::lean::AIR_NOT_IN_BUILD
        ))
    })?;
    let n = 1usize << header.log_n;
    if let AnyAir::Membership(m) = &air.air {
        if n < m.min_rows() {
            return Err(ProveError(std::format!(
                "the membership AIR of depth {} needs n >= {}",
                m.depth(),
                m.min_rows()
            )));
        }
    }
    progress("trace");
    let trace = on_air!(&air.air, |a| a.generate_trace(n, Val::<SC>::from_u64));
    let public_u64: Vec<u64> = trace
        .public_inputs
        .iter()
        .map(|v| v.as_canonical_u64())
        .collect();
    let hash = match header.hash {
        HashId::Sha256 => ProverHash::Sha256,
        HashId::Blake3_256 => ProverHash::Blake3,
        HashId::Blake2s256 => {
            return Err(ProveError(crate::verifier::BLAKE2S_UNSUPPORTED.to_string()))
        }
    };
    let config = make_config(&statement_bytes(header, &public_u64), hash);
    let matrix = RowMajorMatrix::new(trace.values, trace.width);
    progress("prove");
    let proof = p3_uni_stark::prove(&config, &air, matrix, &trace.public_inputs)
        .map_err(|e| ProveError(std::format!("Plonky3 prover failed: {e:?}")))?;
    progress("encode");
    let payload = postcard::to_allocvec(&proof)
        .map_err(|e| ProveError(std::format!("encoding the proof failed: {e}")))?;
    Ok(encode(header, &public_u64, &payload))
}

/// One Plonky3 prover: a unit struct whose `prove` checks the request against the
/// backend, then runs `$prove` with the request `$req`, its header `$h` and `$progress`.
macro_rules! p3_prover {
    ($(#[$m:meta])* $name:ident, $of:ident, $verifier:ident, $backend:expr, $defaults:expr,
     |$req:ident, $h:ident, $progress:ident| $prove:expr) => {
        picostark_airs::per_air_set!($(#[$m])* $name, $of);

        impl<S: AirSet> Prover for $of<S> {
            fn backend(&self) -> BackendId {
                $backend
            }
            fn extension_degrees(&self) -> &'static [u8] {
                crate::$verifier::EXTENSION_DEGREES
            }
            fn default_params(&self) -> ProofParams {
                $defaults
            }
            fn check_request(&self, request: &ProveRequest) -> Result<(), ProveError> {
                check_request(&request.header(self.backend()), self.extension_degrees())
            }
            fn prove(
                &self,
                $req: &ProveRequest,
                $progress: &mut dyn FnMut(&str),
            ) -> Result<Vec<u8>, ProveError> {
                let $h = $req.header(self.backend());
                check_request(&$h, self.extension_degrees())?;
                $prove
            }
        }
    };
}

p3_prover!(
    /// Proves `p3-babybear` proof files (challenge field BabyBear^4, ^5 or ^8).
    P3BabyBearProver,
    P3BabyBearProverOf,
    P3BabyBearVerifier,
    BackendId::P3BabyBear,
    DEFAULT_PARAMS_TWO_ADIC,
    |req, h, progress| {
        let p = &req.params;
        match req.extension_degree {
            4 => prove::<S, _>(|s, hash| config::babybear_ext::<BabyBear4, _>(p, s, hash), &h, progress),
            5 => prove::<S, _>(|s, hash| config::babybear_ext::<BabyBear5, _>(p, s, hash), &h, progress),
            _ => prove::<S, _>(|s, hash| config::babybear_ext::<BabyBear8, _>(p, s, hash), &h, progress),
        }
    }
);

p3_prover!(
    /// Proves `p3-goldilocks` proof files (challenge field Goldilocks^2, ^3 or ^5).
    P3GoldilocksProver,
    P3GoldilocksProverOf,
    P3GoldilocksVerifier,
    BackendId::P3Goldilocks,
    DEFAULT_PARAMS_TWO_ADIC,
    |req, h, progress| {
        let p = &req.params;
        match req.extension_degree {
            2 => prove::<S, _>(|s, hash| config::goldilocks_ext::<Goldilocks2, _>(p, s, hash), &h, progress),
            3 => prove::<S, _>(|s, hash| config::goldilocks_ext::<Goldilocks3, _>(p, s, hash), &h, progress),
            _ => prove::<S, _>(|s, hash| config::goldilocks_ext::<Goldilocks5, _>(p, s, hash), &h, progress),
        }
    }
);

p3_prover!(
    /// Proves `p3-m31` proof files (QM31 challenges, the cubic extension or the sextic).
    P3M31Prover,
    P3M31ProverOf,
    P3M31Verifier,
    BackendId::P3M31,
    DEFAULT_PARAMS_CIRCLE,
    |req, h, progress| {
        let p = &req.params;
        use CirclePcsKind::{Upstream, Wide};
        match (CirclePcsKind::of(p), req.extension_degree) {
            (Upstream, 4) => prove::<S, _>(|s, hash| config::m31::<QM31, _>(p, s, hash), &h, progress),
            (Upstream, 6) => prove::<S, _>(|s, hash| config::m31::<M31Sextic, _>(p, s, hash), &h, progress),
            (Upstream, _) => prove::<S, _>(|s, hash| config::m31::<M31Cubic, _>(p, s, hash), &h, progress),
            (Wide, 4) => prove::<S, _>(|s, hash| config::m31_wide::<QM31, _>(p, s, hash), &h, progress),
            (Wide, 6) => prove::<S, _>(|s, hash| config::m31_wide::<M31Sextic, _>(p, s, hash), &h, progress),
            (Wide, _) => prove::<S, _>(|s, hash| config::m31_wide::<M31Cubic, _>(p, s, hash), &h, progress),
        }
    }
);

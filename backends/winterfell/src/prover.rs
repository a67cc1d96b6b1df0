//! Host-side provers (feature `prover`) on the upstream winterfell 0.13.1 prover:
//! [`WfGoldilocksProverOf`] (quadratic extension) and [`WfBabyBearProverOf`] (quartic extension
//! through `Prover::generate_proof::<Quartic>`, public but doc-hidden upstream). Both prove
//! every AIR of `picostark-air` ([`AirProver`]) and make complete picostark proof files whose
//! payload is winterfell's `Proof::to_bytes()`.
//!
//! Header parameters map to winterfell's options as: blowup `2^log_blowup`, queries as is,
//! grinding factor `pow_bits`, FRI folding factor `2^log_fold_arity`, FRI remainder maximum
//! degree `2^log_final_poly_len - 1`; BLAKE3-256, `DefaultRandomCoin`, `MerkleTree`, linear
//! batching for both compositions.

use std::format;
use std::string::ToString;
use std::vec::Vec;

use picostark_airs::AirSet;

use picostark_air::chain16::CubicChain16;
use picostark_air::fibonacci::Fibonacci;
use picostark_air::AirDef;
use picostark_core::proof_file::encode;
use picostark_core::prove::{ProveError, ProveRequest, Prover};
use picostark_core::{AirId, BackendId, HashId, ProofHeader, ProofParams, Verifier};
use winter_air::{
    AuxRandElements, BatchingMethod, ConstraintCompositionCoefficients, FieldExtension,
    PartitionOptions, ProofOptions, TraceInfo,
};
use winter_crypto::hashers::Blake3_256;
use winter_crypto::{DefaultRandomCoin, ElementHasher, MerkleTree};
use winter_math::fields::f64::BaseElement as Goldilocks;
use winter_math::fields::{CubeExtension, QuadExtension};
use winter_math::{ExtensibleField, FieldElement, StarkField};
use winter_prover::matrix::ColMatrix;
use winter_prover::{
    CompositionPoly, CompositionPolyTrace, DefaultConstraintCommitment, DefaultConstraintEvaluator,
    DefaultTraceLde, StarkDomain, TracePolyTable, TraceTable,
};

use crate::air::{felt_from_u64, min_blowup, PublicInputs, WfAir};
use crate::field::{BabyBear, Quartic, Quintic};
use crate::hash::Sha256;
use crate::membership::{MembershipField, MembershipOf};

/// The default parameters: blowup 64, 14 queries, 20 grinding bits, folding 8, remainder
/// degree 31, the same blowup, queries and grinding as the Plonky3 defaults. 14 queries is
/// the fewest at blowup 64 that meets 95 bits under the strictest conjecture
/// (`picostark_core::security`): winterfell's own rule counts the grinding only from 80 query
/// bits (14 * 6 = 84: 103 bits); Plonky3's figure is 102 at n = 2^10. Blowup, folding and
/// remainder from `prover-host tune` on the M33 (see `results/baseline/NOTES.md`).
/// [`INTEROP_PARAMS`](crate::INTEROP_PARAMS) remakes the zkmcu reference proofs.
pub const DEFAULT_PARAMS: ProofParams = ProofParams {
    log_blowup: 6,
    num_queries: 14,
    pow_bits: 20,
    log_fold_arity: 3,
    log_final_poly_len: 5,
};

/// Winterfell options for a header's parameters, or why they cannot be expressed.
pub fn proof_options(
    params: &ProofParams,
    extension: FieldExtension,
) -> Result<ProofOptions, ProveError> {
    let err = |what: &str| Err(ProveError(format!("winterfell cannot use {what}")));
    if params.num_queries == 0 || params.num_queries > 255 {
        return err("this number of queries (1..=255)");
    }
    if !(1..=7).contains(&params.log_blowup) {
        return err("this blowup (2..=128)");
    }
    if params.pow_bits > 32 {
        return err("more than 32 grinding bits");
    }
    if !(1..=4).contains(&params.log_fold_arity) {
        return err("this folding factor (2, 4, 8, 16)");
    }
    if params.log_final_poly_len > 8 {
        return err("a remainder degree above 255");
    }
    Ok(ProofOptions::new(
        usize::from(params.num_queries),
        1 << params.log_blowup,
        u32::from(params.pow_bits),
        extension,
        1 << params.log_fold_arity,
        (1 << params.log_final_poly_len) - 1,
        BatchingMethod::Linear,
        BatchingMethod::Linear,
    ))
}

/// The upstream prover for the AIR `A` over base field `B` with hash `H`, for one statement (public so
/// that tests can run upstream's own `Prover::prove` dispatch on it).
pub struct AirProver<A: AirDef, B: StarkField, H = Blake3_256<B>> {
    options: ProofOptions,
    public_inputs: Vec<B>,
    _air: core::marker::PhantomData<(A, H)>,
}

impl<A: AirDef, B: StarkField, H> AirProver<A, B, H> {
    /// A prover for the statement with these public inputs (from [`air_trace`]).
    pub fn new(options: ProofOptions, public_inputs: Vec<B>) -> Self {
        AirProver {
            options,
            public_inputs,
            _air: core::marker::PhantomData,
        }
    }
}

impl<A, B, H> winter_prover::Prover for AirProver<A, B, H>
where
    A: AirDef + Default + Send + Sync + 'static,
    B: StarkField + ExtensibleField<2> + ExtensibleField<3> + 'static,
    H: ElementHasher<BaseField = B> + Send + Sync + 'static,
{
    type BaseField = B;
    type Air = WfAir<A, B>;
    type Trace = TraceTable<B>;
    type HashFn = H;
    type VC = MerkleTree<Self::HashFn>;
    type RandomCoin = DefaultRandomCoin<Self::HashFn>;
    type TraceLde<E: FieldElement<BaseField = B>> = DefaultTraceLde<E, Self::HashFn, Self::VC>;
    type ConstraintCommitment<E: FieldElement<BaseField = B>> =
        DefaultConstraintCommitment<E, Self::HashFn, Self::VC>;
    type ConstraintEvaluator<'a, E: FieldElement<BaseField = B>> =
        DefaultConstraintEvaluator<'a, Self::Air, E>;

    fn get_pub_inputs(&self, _trace: &TraceTable<B>) -> PublicInputs<B> {
        PublicInputs(self.public_inputs.clone())
    }

    fn options(&self) -> &ProofOptions {
        &self.options
    }

    fn new_trace_lde<E: FieldElement<BaseField = B>>(
        &self,
        trace_info: &TraceInfo,
        main_trace: &ColMatrix<B>,
        domain: &StarkDomain<B>,
        partition_options: PartitionOptions,
    ) -> (Self::TraceLde<E>, TracePolyTable<E>) {
        DefaultTraceLde::new(trace_info, main_trace, domain, partition_options)
    }

    fn build_constraint_commitment<E: FieldElement<BaseField = B>>(
        &self,
        composition_poly_trace: CompositionPolyTrace<E>,
        num_constraint_composition_columns: usize,
        domain: &StarkDomain<B>,
        partition_options: PartitionOptions,
    ) -> (Self::ConstraintCommitment<E>, CompositionPoly<E>) {
        DefaultConstraintCommitment::new(
            composition_poly_trace,
            num_constraint_composition_columns,
            domain,
            partition_options,
        )
    }

    fn new_evaluator<'a, E: FieldElement<BaseField = B>>(
        &self,
        air: &'a Self::Air,
        aux_rand_elements: Option<AuxRandElements<E>>,
        composition_coefficients: ConstraintCompositionCoefficients<E>,
    ) -> Self::ConstraintEvaluator<'a, E> {
        DefaultConstraintEvaluator::new(air, aux_rand_elements, composition_coefficients)
    }
}

/// The trace of `def` of length `n` as winterfell columns, and its public inputs.
pub fn air_trace<A: AirDef, B: StarkField>(def: &A, n: usize) -> (TraceTable<B>, Vec<B>) {
    let t = def.generate_trace(n, felt_from_u64::<B>);
    let columns = (0..t.width)
        .map(|c| (0..t.height()).map(|r| t.row(r)[c]).collect())
        .collect();
    (TraceTable::init(columns), t.public_inputs)
}

fn check_request(
    request: &ProveRequest,
    backend: BackendId,
    degrees: &[u8],
) -> Result<usize, ProveError> {
    if !degrees.contains(&request.extension_degree) {
        return Err(ProveError(format!(
            "{backend} does not prove with extension degree {}",
            request.extension_degree
        )));
    }
    if !(3..=22).contains(&request.log_n) {
        return Err(ProveError("log2 n must be in 3..=22".to_string()));
    }
    proof_options(&request.params, FieldExtension::None)?;
    fri_shape_supported(request.log_n, &request.params)?;
    // What our verifier would refuse is not proved (its header checks name the limit).
    let header = request.header(backend);
    let verdict = match backend {
        BackendId::WfBabyBear => crate::WfBabyBearVerifier::default().check_supported(&header),
        _ => crate::WfGoldilocksVerifier::default().check_supported(&header),
    };
    verdict.map_err(|e| ProveError(e.to_string()))?;
    Ok(1usize << request.log_n)
}

/// The limits winterfell 0.13's prover asserts instead of returning an error, replayed on the
/// parameters: fewer queries than LDE points (`DefaultRandomCoin::draw_integers`), every FRI
/// layer a Merkle tree of at least two leaves of `folding` values (`build_layer`,
/// `transpose_slice`), and a remainder of at least one coefficient (`build_proof`). The layer
/// count is upstream's `FriOptions::num_fri_layers`.
pub fn fri_shape_supported(log_n: u8, params: &ProofParams) -> Result<(), ProveError> {
    let log_lde = u32::from(log_n) + u32::from(params.log_blowup);
    if u32::from(params.num_queries) >= 1u32 << log_lde.min(31) {
        return Err(ProveError(format!(
            "{} queries need an LDE domain of more than {} points (n * blowup = 2^{log_lde})",
            params.num_queries, params.num_queries
        )));
    }
    let blowup = 1usize << params.log_blowup;
    let folding = 1usize << params.log_fold_arity;
    let max_remainder = (1usize << params.log_final_poly_len) * blowup;
    let mut domain = 1usize << log_lde;
    while domain > max_remainder {
        if domain < 2 * folding {
            return Err(ProveError(format!(
                "folding by {folding} leaves an FRI layer of {domain} points (n * blowup = \
                 2^{log_lde}, remainder up to {max_remainder}): fold by less or raise n"
            )));
        }
        domain /= folding;
    }
    if domain < blowup {
        return Err(ProveError(format!(
            "folding by {folding} overshoots the remainder (n * blowup = 2^{log_lde}, \
             remainder up to {max_remainder} points, {domain} left < blowup {blowup})"
        )));
    }
    Ok(())
}

/// Proves the request's AIR with `E` as the challenge field.
fn prove_file<S: AirSet, B, E>(
    backend: BackendId,
    request: &ProveRequest,
    options: ProofOptions,
    n: usize,
    progress: &mut dyn FnMut(&str),
) -> Result<Vec<u8>, ProveError>
where
    B: StarkField<PositiveInteger = u64>
        + ExtensibleField<2>
        + ExtensibleField<3>
        + MembershipField
        + 'static,
    E: FieldElement<BaseField = B>,
{
    if request.air == AirId::Membership {
        let rows = MembershipOf::<B>::default().min_rows();
        if n < rows {
            return Err(ProveError(format!(
                "the membership AIR of depth {} needs n >= {rows}",
                picostark_air::membership::DEFAULT_DEPTH
            )));
        }
    }
    match (request.air, request.hash) {
        (AirId::Fibonacci, HashId::Blake3_256) => {
            prove_air::<Fibonacci, B, E, Blake3_256<B>>(backend, request, options, n, progress)
        }
        (AirId::Fibonacci, HashId::Sha256) => {
            prove_air::<Fibonacci, B, E, Sha256<B>>(backend, request, options, n, progress)
        }
        (AirId::CubicChain16, HashId::Blake3_256) => {
            prove_air::<CubicChain16, B, E, Blake3_256<B>>(backend, request, options, n, progress)
        }
        (AirId::CubicChain16, HashId::Sha256) => {
            prove_air::<CubicChain16, B, E, Sha256<B>>(backend, request, options, n, progress)
        }
        (AirId::Membership, HashId::Blake3_256) => {
            prove_air::<MembershipOf<B>, B, E, Blake3_256<B>>(
                backend, request, options, n, progress,
            )
        }
        (AirId::Membership, HashId::Sha256) => {
            prove_air::<MembershipOf<B>, B, E, Sha256<B>>(backend, request, options, n, progress)
        }
        (_, HashId::Blake2s256) => Err(ProveError(
            "hash blake2s-256 for a winterfell backend".to_string(),
        )),
        (AirId::Custom(_), hash) => {
            if S::extra(request.air).is_none() {
                return Err(ProveError(format!(
                    "{}: {}",
                    request.air,
                    crate::verifier::AIR_NOT_IN_BUILD
                )));
            }
            if hash == HashId::Sha256 {
                prove_air::<S::Extra, B, E, Sha256<B>>(backend, request, options, n, progress)
            } else {
                prove_air::<S::Extra, B, E, Blake3_256<B>>(backend, request, options, n, progress)
            }
        }
    }
}

/// Proves the AIR `A` with `E` as the challenge field and hash `H`, and wraps the proof into
/// a proof file.
fn prove_air<A, B, E, H>(
    backend: BackendId,
    request: &ProveRequest,
    options: ProofOptions,
    n: usize,
    progress: &mut dyn FnMut(&str),
) -> Result<Vec<u8>, ProveError>
where
    A: AirDef + Default + Send + Sync + 'static,
    B: StarkField<PositiveInteger = u64> + ExtensibleField<2> + ExtensibleField<3> + 'static,
    E: FieldElement<BaseField = B>,
    H: ElementHasher<BaseField = B> + Send + Sync + 'static,
{
    let def = A::default();
    let need = min_blowup(&def);
    if options.blowup_factor() < need {
        return Err(ProveError(format!(
            "the {} AIR needs a blowup factor of at least {need}",
            A::NAME
        )));
    }
    progress("trace");
    let (trace, public) = air_trace::<A, B>(&def, n);
    let public_u64: Vec<u64> = public.iter().map(|v| v.as_int()).collect();
    let prover = AirProver::<A, B, H>::new(options, public);
    progress("prove");
    let proof = <AirProver<A, B, H> as winter_prover::Prover>::generate_proof::<E>(&prover, trace)
        .map_err(|e| ProveError(format!("winterfell prover: {e}")))?;
    progress("encode");
    let header = ProofHeader {
        backend,
        field: backend.field(),
        extension_degree: request.extension_degree,
        hash: request.hash,
        air: def.id(),
        log_n: request.log_n,
        params: request.params,
    };
    Ok(encode(&header, &public_u64, &proof.to_bytes()))
}

picostark_airs::per_air_set!(
    /// `wf-goldilocks`: Goldilocks with winter-math's quadratic extension, or its cubic one
    /// (the proven-security track: a 192-bit challenge field).
    WfGoldilocksProver,
    WfGoldilocksProverOf
);
picostark_airs::per_air_set!(
    /// `wf-babybear`: BabyBear with the project's quartic extension `x^4 - 11`, or its
    /// quintic one `x^5 - 2` (the proven-security track). The proof's options byte says
    /// "none" (upstream has no tag for either); the verifier takes the degree from the
    /// header.
    WfBabyBearProver,
    WfBabyBearProverOf
);

impl<S: AirSet> Prover for WfGoldilocksProverOf<S> {
    fn backend(&self) -> BackendId {
        BackendId::WfGoldilocks
    }

    fn extension_degrees(&self) -> &'static [u8] {
        &[2, 3]
    }

    fn default_params(&self) -> ProofParams {
        DEFAULT_PARAMS
    }

    fn check_request(&self, request: &ProveRequest) -> Result<(), ProveError> {
        check_request(request, self.backend(), self.extension_degrees()).map(|_| ())
    }

    fn prove(
        &self,
        request: &ProveRequest,
        progress: &mut dyn FnMut(&str),
    ) -> Result<Vec<u8>, ProveError> {
        let n = check_request(request, self.backend(), self.extension_degrees())?;
        if request.extension_degree == 3 {
            let options = proof_options(&request.params, FieldExtension::Cubic)?;
            return prove_file::<S, Goldilocks, CubeExtension<Goldilocks>>(
                self.backend(),
                request,
                options,
                n,
                progress,
            );
        }
        let options = proof_options(&request.params, FieldExtension::Quadratic)?;
        prove_file::<S, Goldilocks, QuadExtension<Goldilocks>>(
            self.backend(),
            request,
            options,
            n,
            progress,
        )
    }
}

impl<S: AirSet> Prover for WfBabyBearProverOf<S> {
    fn backend(&self) -> BackendId {
        BackendId::WfBabyBear
    }

    fn extension_degrees(&self) -> &'static [u8] {
        &[4, 5]
    }

    fn default_params(&self) -> ProofParams {
        DEFAULT_PARAMS
    }

    fn check_request(&self, request: &ProveRequest) -> Result<(), ProveError> {
        check_request(request, self.backend(), self.extension_degrees()).map(|_| ())
    }

    fn prove(
        &self,
        request: &ProveRequest,
        progress: &mut dyn FnMut(&str),
    ) -> Result<Vec<u8>, ProveError> {
        let n = check_request(request, self.backend(), self.extension_degrees())?;
        let options = proof_options(&request.params, FieldExtension::None)?;
        if request.extension_degree == 5 {
            return prove_file::<S, BabyBear, Quintic>(
                self.backend(),
                request,
                options,
                n,
                progress,
            );
        }
        prove_file::<S, BabyBear, Quartic>(self.backend(), request, options, n, progress)
    }
}

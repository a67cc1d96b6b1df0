//! A circle PCS of our own for Plonky3 0.8's `Pcs` trait that folds line layers by up to 16
//! and stops at a final line polynomial (issue 25), so `p3_uni_stark::prove`/`verify` run
//! with it unchanged. Plonky3 0.8's `CirclePcs` folds lines by two all the way down to a
//! constant; stwo's `line_fold_step` design is the model for this one.
//!
//! Commitment and the uni-stark helpers (LDEs in CFFT order, quotient chunks, evaluation
//! views) are `p3_circle::CirclePcs`'s own: [`WideCirclePcs`] wraps one and delegates them,
//! so its commitments are byte-identical to upstream's. Only the opening argument is ours:
//!
//! 1. **Claims and batching.** Every claimed value is absorbed, then `alpha` is drawn; the
//!    DEEP quotients of all columns at all points are batched per LDE height with powers
//!    of `alpha` (the circle DEEP quotient of the Circle STARKs paper, Section 6, with the
//!    same batching as upstream) and the multiple `lambda` of the vanishing polynomial is
//!    removed per height (`p3_circle::extract_lambda`).
//! 2. **First layer.** The corrected quotients are committed in pairs (a point and its
//!    conjugate per leaf, all heights in one tree); the commitment and the lambdas are
//!    absorbed, one challenge is drawn and every height is folded circle-to-line by `y`.
//! 3. **Line layers.** From the tallest line, each committed layer folds by `2^a` with
//!    `a = min(log_fold_arity, distance to the next input's height, distance to the final
//!    height)` (the schedule of `p3_fri::compute_log_arity_for_round`), one Merkle leaf per
//!    `2^a`-coset, one challenge `beta` per layer; inside a layer the `a` binary folds use
//!    `beta, beta^2, beta^4, ...`, which makes the layer's fold the single `2^a`-ary fold
//!    `sum_i beta^i f_i` of its `2^a` components (the batching-by-powers of two-adic FRI
//!    with arity, and stwo's repeated squaring). Inputs of a smaller height are added when
//!    the folded line reaches their height (as upstream), always at a layer boundary.
//! 4. **Final polynomial.** Folding stops at `2^(log_final_poly_len + log_blowup)` values;
//!    the prover sends the `2^log_final_poly_len` monomial coefficients (in the line's
//!    x-coordinate) in clear, they are absorbed, and every query's folded value must equal
//!    the polynomial at its point.
//! 5. **Queries.** Proof of work (`query_proof_of_work_bits`, witness zero when 0 bits),
//!    then `num_queries` indices of `log2(tallest LDE)` bits each; input, first-layer and
//!    every layer's openings each share one Merkle multi-proof per tree.
//!
//! The proofs made with this PCS size their quotient for constraint degree 3 at least
//! ([`crate::config::min_constraint_degree`]), so a degree-2 AIR's quotient is two chunks at
//! the trace's LDE height rather than upstream's one chunk at twice that height.
//!
//! Before anything is absorbed, the parameters are: `[log_fold_arity, log_final_poly_len,
//! log_blowup, num_queries, query_pow_bits]` as base-field elements, so the same claims
//! proved under another folding never share a transcript.

pub(crate) mod geometry;
mod prover;
mod verifier;

use alloc::vec::Vec;
use core::fmt::Debug;

use p3_challenger::{CanObserve, FieldChallenger, GrindingChallenger};
use p3_circle::{CircleDomain, CirclePcs};
use p3_commit::{
    CommitmentOpening, Mmcs, OpenedValues, OpeningRequest, Pcs, PeriodicLdeTable,
    UnivariateStarkPcs,
};
use p3_field::extension::ComplexExtendable;
use p3_field::{ExtensionField, Field, PrimeField64};
use p3_fri::{BatchMultiOpening, FriParameters};
use p3_matrix::dense::RowMajorMatrix;
use serde::{Deserialize, Serialize};

/// The widest line fold per committed layer (`log_fold_arity`): 16.
pub const MAX_LOG_FOLD_ARITY: usize = 4;
/// The longest final polynomial (`log_final_poly_len`): 2^10 coefficients.
pub const MAX_LOG_FINAL_POLY_LEN: usize = 10;

/// The circle PCS with line folding by `2^log_fold_arity` and a final polynomial of
/// `2^log_final_poly_len` coefficients. `inner.fri_params` supplies the blowup, the query
/// count, the query proof-of-work bits and the commit-phase MMCS; its own arity and final
/// length are not read.
#[derive(Clone, Debug)]
pub struct WideCirclePcs<Val: Field, InputMmcs, FriMmcs> {
    /// Upstream's PCS: commitments and the uni-stark helpers are delegated to it.
    pub inner: CirclePcs<Val, InputMmcs, FriMmcs>,
    /// log2 of the line fold per committed layer, `1..=MAX_LOG_FOLD_ARITY`.
    pub log_fold_arity: usize,
    /// log2 of the final polynomial's coefficient count, `0..=MAX_LOG_FINAL_POLY_LEN`.
    pub log_final_poly_len: usize,
}

impl<Val: Field, InputMmcs, FriMmcs> WideCirclePcs<Val, InputMmcs, FriMmcs> {
    /// The PCS over `mmcs` with these FRI parameters (`max_log_arity` is the line fold,
    /// `log_final_poly_len` the final polynomial's length).
    pub fn new(mmcs: InputMmcs, fri_params: FriParameters<FriMmcs>) -> Self {
        let log_fold_arity = fri_params.max_log_arity;
        let log_final_poly_len = fri_params.log_final_poly_len;
        Self {
            inner: CirclePcs::new(mmcs, fri_params),
            log_fold_arity,
            log_final_poly_len,
        }
    }

    fn params(&self) -> &FriParameters<FriMmcs> {
        &self.inner.fri_params
    }
}

/// One committed line layer's openings: per query the leaf's other `2^a - 1` values, and
/// one Merkle multi-proof for all queries' leaves.
#[derive(Serialize, Deserialize, Clone)]
#[serde(bound = "")]
pub struct LayerOpening<Challenge: Field, FriMmcs: Mmcs<Challenge>> {
    /// `siblings[query]`: the leaf without the queried value, in leaf order.
    pub siblings: Vec<Vec<Challenge>>,
    /// Authenticates every query's leaf.
    pub proof: FriMmcs::MultiProof,
}

/// The opening proof of [`WideCirclePcs`].
#[derive(Serialize, Deserialize, Clone)]
#[serde(bound = "")]
pub struct WideCircleProof<
    Val: Field,
    Challenge: Field,
    InputMmcs: Mmcs<Val>,
    FriMmcs: Mmcs<Challenge>,
> {
    /// The corrected DEEP quotients, a point and its conjugate per leaf, all heights.
    pub first_layer_commitment: FriMmcs::Commitment,
    /// Per LDE height (ascending), the multiple of the vanishing polynomial removed.
    pub lambdas: Vec<Challenge>,
    /// One commitment per line layer.
    pub layer_commitments: Vec<FriMmcs::Commitment>,
    /// The final line polynomial's monomial coefficients.
    pub final_poly: Vec<Challenge>,
    /// The query proof-of-work witness (zero when no bits are asked).
    pub pow_witness: Val,
    /// Per input commitment, every query's rows with one multi-proof.
    pub input_openings: Vec<BatchMultiOpening<Val, InputMmcs>>,
    /// `first_layer_siblings[query][height]`: the conjugate point's value.
    pub first_layer_siblings: Vec<Vec<Challenge>>,
    /// Authenticates every query's first-layer leaves.
    pub first_layer_proof: FriMmcs::MultiProof,
    /// One per line layer.
    pub layer_openings: Vec<LayerOpening<Challenge, FriMmcs>>,
}

/// Why [`WideCirclePcs::verify`] rejected a proof (one variant per check).
#[derive(Debug)]
pub enum WideCircleError<InputError: Debug, FriError: Debug> {
    /// The PCS parameters are outside what it implements.
    Parameters(&'static str),
    /// A length in the proof or the claims is not the one the claims fix.
    Shape(&'static str),
    /// The query proof-of-work witness fails (or is not zero at zero bits).
    ProofOfWork,
    /// An opening point is a domain point: its DEEP denominator vanishes.
    OpeningPointMatchesQueryPoint,
    /// An input commitment's multi-opening failed.
    InputMmcs(InputError),
    /// The first layer's multi-opening failed.
    FirstLayerMmcs(FriError),
    /// Layer `layer`'s multi-opening failed.
    LayerMmcs { layer: usize, error: FriError },
    /// Query `query`'s folded value is not the final polynomial's value at its point.
    FinalPolyMismatch { query: usize },
}

/// Why [`WideCirclePcs::open`] refused to prove (parameters or claims it cannot take).
#[derive(Debug)]
pub struct WideCircleProverError(pub &'static str);

/// The x-coordinate at index `j` of a line layer of `2^log_len` values (for the lean
/// verifier's tests).
#[cfg(test)]
pub(crate) fn line_x_for_tests(log_len: usize, j: usize) -> p3_mersenne_31::Mersenne31 {
    geometry::line_x(log_len, j)
}

/// The LDE height (log2) of a claimed domain.
fn log_size<F: ComplexExtendable>(domain: &CircleDomain<F>) -> usize {
    use p3_commit::PolynomialSpace;
    domain.size().trailing_zeros() as usize
}

/// The per-layer folds (log2) from line height `log_max_line` down to `log_final`, each at
/// most `log_fold_arity` and stopping at every input line height in `input_lines`
/// (descending; heights at or below `log_final` are ignored).
pub(crate) fn fold_schedule(
    log_max_line: usize,
    input_lines: &[usize],
    log_final: usize,
    log_fold_arity: usize,
) -> Vec<usize> {
    let mut arities = Vec::new();
    let mut current = log_max_line;
    while current > log_final {
        let next_input = input_lines
            .iter()
            .copied()
            .find(|&h| h < current && h > log_final);
        let arity =
            p3_fri::compute_log_arity_for_round(current, next_input, log_final, log_fold_arity);
        arities.push(arity);
        current -= arity;
    }
    arities
}

/// Absorbs the parameters that make this PCS's transcript differ from any other folding.
fn observe_parameters<Val: PrimeField64, Ch: CanObserve<Val>, M>(
    challenger: &mut Ch,
    pcs_params: &FriParameters<M>,
    log_fold_arity: usize,
    log_final_poly_len: usize,
) {
    for v in [
        log_fold_arity,
        log_final_poly_len,
        pcs_params.log_blowup,
        pcs_params.num_queries,
        pcs_params.query_proof_of_work_bits,
    ] {
        challenger.observe(Val::from_u64(v as u64));
    }
}

impl<Val, InputMmcs, FriMmcs, Challenge, Challenger> Pcs<Challenge, Challenger>
    for WideCirclePcs<Val, InputMmcs, FriMmcs>
where
    Val: ComplexExtendable + PrimeField64,
    Challenge: ExtensionField<Val>,
    InputMmcs: Mmcs<Val>,
    FriMmcs: Mmcs<Challenge>,
    Challenger:
        FieldChallenger<Val> + GrindingChallenger<Witness = Val> + CanObserve<FriMmcs::Commitment>,
{
    type Domain = CircleDomain<Val>;
    type Commitment = InputMmcs::Commitment;
    type ProverData = InputMmcs::ProverData<RowMajorMatrix<Val>>;
    type Proof = WideCircleProof<Val, Challenge, InputMmcs, FriMmcs>;
    type Error = WideCircleError<InputMmcs::Error, FriMmcs::Error>;
    type ProverError = WideCircleProverError;

    fn natural_domain_for_degree(&self, degree: usize) -> Self::Domain {
        <CirclePcs<Val, InputMmcs, FriMmcs> as Pcs<Challenge, Challenger>>::natural_domain_for_degree(
            &self.inner,
            degree,
        )
    }

    fn commit(
        &self,
        evaluations: impl IntoIterator<Item = (Self::Domain, RowMajorMatrix<Val>)>,
    ) -> Result<(Self::Commitment, Self::ProverData), Self::ProverError> {
        let Ok(committed) =
            <CirclePcs<Val, InputMmcs, FriMmcs> as Pcs<Challenge, Challenger>>::commit(
                &self.inner,
                evaluations,
            );
        Ok(committed)
    }

    fn open(
        &self,
        rounds: Vec<OpeningRequest<'_, Self::ProverData, Challenge>>,
        challenger: &mut Challenger,
    ) -> Result<(OpenedValues<Challenge>, Self::Proof), Self::ProverError> {
        prover::open(self, rounds, challenger)
    }

    fn verify(
        &self,
        rounds: Vec<CommitmentOpening<Challenge, Self::Commitment, Self::Domain>>,
        proof: &Self::Proof,
        challenger: &mut Challenger,
    ) -> Result<(), Self::Error> {
        verifier::verify(self, &rounds, proof, challenger)
    }
}

impl<Val, InputMmcs, FriMmcs, Challenge, Challenger> UnivariateStarkPcs<Challenge, Challenger>
    for WideCirclePcs<Val, InputMmcs, FriMmcs>
where
    Val: ComplexExtendable + PrimeField64,
    Challenge: ExtensionField<Val>,
    InputMmcs: Mmcs<Val>,
    FriMmcs: Mmcs<Challenge>,
    Challenger:
        FieldChallenger<Val> + GrindingChallenger<Witness = Val> + CanObserve<FriMmcs::Commitment>,
{
    type EvaluationsOnDomain<'a> = <CirclePcs<Val, InputMmcs, FriMmcs> as UnivariateStarkPcs<
        Challenge,
        Challenger,
    >>::EvaluationsOnDomain<'a>;

    const ZK: bool = false;

    fn log_max_trace_height(&self) -> usize {
        UnivariateStarkPcs::<Challenge, Challenger>::log_max_trace_height(&self.inner)
    }

    fn log_min_trace_height(&self) -> usize {
        // The final polynomial needs the shortest input's line to be at least its length.
        UnivariateStarkPcs::<Challenge, Challenger>::log_min_trace_height(&self.inner)
            .max(self.log_final_poly_len + 1)
    }

    fn get_quotient_ldes(
        &self,
        evaluations: impl IntoIterator<Item = (Self::Domain, RowMajorMatrix<Val>)>,
        num_chunks: usize,
    ) -> Result<Vec<RowMajorMatrix<Val>>, Self::ProverError> {
        let Ok(ldes) = UnivariateStarkPcs::<Challenge, Challenger>::get_quotient_ldes(
            &self.inner,
            evaluations,
            num_chunks,
        );
        Ok(ldes)
    }

    fn commit_ldes(
        &self,
        ldes: Vec<RowMajorMatrix<Val>>,
    ) -> Result<(Self::Commitment, Self::ProverData), Self::ProverError> {
        let Ok(committed) =
            UnivariateStarkPcs::<Challenge, Challenger>::commit_ldes(&self.inner, ldes);
        Ok(committed)
    }

    fn get_evaluations_on_domain<'a>(
        &self,
        data: &'a Self::ProverData,
        idx: usize,
        domain: Self::Domain,
    ) -> Self::EvaluationsOnDomain<'a> {
        UnivariateStarkPcs::<Challenge, Challenger>::get_evaluations_on_domain(
            &self.inner,
            data,
            idx,
            domain,
        )
    }

    fn build_periodic_lde_table(
        &self,
        periodic_cols: &[Vec<Val>],
        trace_domain: Self::Domain,
        quotient_domain: Self::Domain,
    ) -> PeriodicLdeTable<Val> {
        UnivariateStarkPcs::<Challenge, Challenger>::build_periodic_lde_table(
            &self.inner,
            periodic_cols,
            trace_domain,
            quotient_domain,
        )
    }
}

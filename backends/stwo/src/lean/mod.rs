//! Our lean verifier of stwo proofs (issue 45): stwo 2.3's verification, step for step and
//! draw for draw, for the one proof shape this backend writes (one component; three trees:
//! the preprocessed selectors, the trace, the composition polynomial's eight coordinate
//! columns; every tree lifted to one height), without the stock path's copies, maps and
//! per-point scalar products.
//!
//! The steps are those of `stwo::core::verifier::verify` and `CommitmentSchemeVerifier::
//! verify_values`, in the same order on the same channel: the composition coefficient, the
//! composition root, the out-of-domain point and its check against the AIR's constraints
//! (stwo-constraint-framework's point evaluator through our adapter, [`crate::air`]); the
//! sampled values mixed, the quotient coefficient, FRI's commitment phase ([`fri::commit`]),
//! the proof of work, the queries; the three trees' Merkle openings ([`merkle`]), the DEEP
//! quotients at the queries ([`quotients`]) and FRI's query phase ([`fri::decommit`]). Every
//! check stwo makes is made, and where stwo would panic on a proof our parser lets through
//! (a queried column of the wrong length, a sample point on the base circle) this path
//! rejects instead. The verdicts are tested equal to stwo's on honest and tampered proofs
//! (`tests/lean.rs`).
//!
//! Field, channel, circle and hash types are stwo's own (the library); the algorithms here
//! are ours: points from a table of the generator's doublings ([`points`]), one batch
//! inversion per FRI layer and one for every query's quotient denominators, buffers sized
//! once by the number of queries.

pub mod fri;
pub mod merkle;
pub mod points;
pub mod quotients;

use alloc::string::ToString;
use alloc::vec;
use alloc::vec::Vec;

use stwo::core::air::{Component, Components};
use stwo::core::channel::{Channel, MerkleChannel};
use stwo::core::circle::CirclePoint;
use stwo::core::fields::m31::BaseField;
use stwo::core::fields::qm31::{SecureField, SECURE_EXTENSION_DEGREE};
use stwo::core::queries::draw_queries;
use stwo::core::verifier::{VerificationError, COMPOSITION_LOG_SPLIT, PREPROCESSED_TRACE_IDX};

use crate::payload::{ProofView, TREES};

use self::merkle::LeanHasher;
use self::points::{canonic_domain_point, PointTable};
use self::quotients::Quotients;

/// The challenges a verification drew, for comparison with stwo's (the differential tests).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Transcript {
    /// The coefficient combining the constraints.
    pub composition_coeff: Option<SecureField>,
    /// The out-of-domain point.
    pub oods_point: Option<CirclePoint<SecureField>>,
    /// The coefficient combining the DEEP quotients.
    pub quotient_coeff: Option<SecureField>,
    /// FRI's folding challenges, first layer first.
    pub fri_alphas: Vec<SecureField>,
    /// The query positions on the first FRI layer's domain, sorted and distinct.
    pub queries: Vec<usize>,
}

fn structure(what: &str) -> VerificationError {
    VerificationError::InvalidStructure(what.to_string())
}

/// Verifies `proof` of `component` on `channel`, which has the statement and the first two
/// trees' roots mixed in (as for stwo's `verify`); every column is lifted to
/// `2^lifting_log_size` points. The challenges drawn are written to `transcript` if one is
/// given.
pub fn verify<MC: MerkleChannel>(
    component: &dyn Component,
    channel: &mut MC::C,
    proof: &ProofView<'_, MC::H>,
    lifting_log_size: u32,
    transcript: Option<&mut Transcript>,
) -> Result<(), VerificationError>
where
    MC::H: LeanHasher,
{
    let p = proof;
    let config = p.config;
    let blowup = config.fri_config.log_blowup_factor;
    let sizes = component.trace_log_degree_bounds();
    let components = Components {
        components: vec![component],
        n_preprocessed_columns: sizes[PREPROCESSED_TRACE_IDX].len(),
    };
    let split = components.composition_log_degree_bound() - COMPOSITION_LOG_SPLIT;
    if split + blowup > lifting_log_size
        || p.sampled_values.len() != TREES
        || sizes.len() != TREES - 1
    {
        return Err(structure("tree shape"));
    }
    let max_log_degree_bound = lifting_log_size - blowup;

    let Challenges {
        composition_coeff,
        oods_point,
        quotient_coeff,
        fri_plan,
        queries,
    } = draw_challenges::<MC>(channel, p, lifting_log_size)?;
    if let Some(t) = transcript {
        t.composition_coeff = Some(composition_coeff);
        t.oods_point = Some(oods_point);
        t.quotient_coeff = Some(quotient_coeff);
        t.fri_alphas.extend(fri_plan.alphas());
        t.queries.clone_from(&queries);
    }
    let mut sample_points = components.mask_points(oods_point, max_log_degree_bound, false);
    sample_points.push(vec![vec![oods_point]; 2 * SECURE_EXTENSION_DEGREE]);

    // The composition polynomial at the point, from its two halves' coordinates.
    let halves: Vec<SecureField> = p.sampled_values[2]
        .iter()
        .map(|column| match column.as_slice() {
            [value] => Ok(*value),
            _ => Err(structure("composition samples")),
        })
        .collect::<Result<_, _>>()?;
    let [l0, l1, l2, l3, r0, r1, r2, r3] = halves[..] else {
        return Err(structure("composition columns"));
    };
    let left = SecureField::from_partial_evals([l0, l1, l2, l3]);
    let right = SecureField::from_partial_evals([r0, r1, r2, r3]);
    let composition = left + oods_point.repeated_double(max_log_degree_bound - 1).x * right;
    let constraints = components.eval_composition_polynomial_at_point(
        oods_point,
        &p.sampled_values,
        composition_coeff,
        max_log_degree_bound,
    );
    if composition != constraints {
        return Err(VerificationError::OodsNotMatching);
    }

    // Every tree is as high as the lifted domain (the preprocessed one too: its query
    // positions are then the others', stwo's `prepare_preprocessed_query_positions` being
    // the identity there).
    let log_sizes: [Vec<u32>; TREES] = [
        sizes[0].iter().map(|s| s + blowup).collect(),
        sizes[1].iter().map(|s| s + blowup).collect(),
        vec![max_log_degree_bound + blowup; 2 * SECURE_EXTENSION_DEGREE],
    ];
    let mut nodes = Vec::with_capacity(queries.len());
    let mut row = Vec::new();
    let mut scratch = Vec::new();
    for (tree, sizes) in log_sizes.iter().enumerate() {
        let columns = &p.queried_values[tree];
        if columns.len() != sizes.len() || sizes.iter().any(|&s| s > lifting_log_size) {
            return Err(structure("queried columns"));
        }
        // stwo asserts each column holds one value a query (a panic, here a rejection).
        if columns.iter().any(|column| column.len() != queries.len()) {
            return Err(structure("queried values per column"));
        }
        // A leaf holds the row's values with the columns ordered by size (stably).
        let mut order: Vec<usize> = (0..columns.len()).collect();
        order.sort_by_key(|&c| sizes[c]);
        nodes.clear();
        for (query, &position) in queries.iter().enumerate() {
            row.clear();
            row.extend(order.iter().map(|&c| columns[c].get(query)));
            nodes.push((position, MC::H::leaf(&row, &mut scratch)));
        }
        merkle::verify_root::<MC::H>(
            &mut nodes,
            lifting_log_size,
            p.decommitments[tree].iter(),
            &p.commitments[tree],
        )?;
    }
    drop((nodes, row, scratch));

    // The DEEP quotients at the queries: FRI's first layer.
    let table = PointTable::new();
    let quotients = Quotients::new(
        &sample_points,
        &p.sampled_values,
        &log_sizes,
        lifting_log_size,
        quotient_coeff,
    )
    .map_err(|_| structure("sample point on the base circle"))?;
    let columns: Vec<_> = p.queried_values.iter().flatten().collect();
    // The queried points of the lifted domain, FRI's first layer.
    let domain: Vec<CirclePoint<BaseField>> = queries
        .iter()
        .map(|&q| canonic_domain_point(&table, lifting_log_size, q))
        .collect();
    let answers = quotients.answers(&domain, |column, query| columns[column].get(query));
    drop(quotients);
    fri::decommit(&fri_plan, p, &table, &queries, &domain, &answers)?;
    Ok(())
}

/// What the transcript draws, in stwo's order.
struct Challenges {
    composition_coeff: SecureField,
    oods_point: CirclePoint<SecureField>,
    quotient_coeff: SecureField,
    fri_plan: fri::FriPlan,
    /// Sorted and distinct.
    queries: Vec<usize>,
}

/// Draws every challenge from `channel` (the statement and the first two roots mixed in),
/// checking only what the draws need: FRI's layer count and the proof of work. The values the
/// challenges bind (the out-of-domain check, the openings) are the caller's to check; the
/// draws do not depend on them, so stwo's order of checks and this one give one verdict.
fn draw_challenges<MC: MerkleChannel>(
    channel: &mut MC::C,
    p: &ProofView<'_, MC::H>,
    lifting_log_size: u32,
) -> Result<Challenges, VerificationError>
where
    MC::H: LeanHasher,
{
    let config = p.config;
    let column_log_bound = lifting_log_size
        .checked_sub(config.fri_config.log_blowup_factor)
        .ok_or_else(|| structure("lifting below the blowup"))?;
    let composition_coeff = channel.draw_secure_felt();
    MC::mix_root(channel, p.commitments[2]);
    let oods_point = CirclePoint::<SecureField>::get_random_point(channel);
    let mut sampled = Vec::with_capacity(
        p.sampled_values
            .iter()
            .flatten()
            .map(|column| column.len())
            .sum(),
    );
    for column in p.sampled_values.iter().flatten() {
        sampled.extend_from_slice(column);
    }
    channel.mix_felts(&sampled);
    drop(sampled);
    let quotient_coeff = channel.draw_secure_felt();
    let fri_plan = fri::commit::<MC>(channel, config.fri_config, p, column_log_bound)?;
    if !channel.verify_pow_nonce(config.pow_bits, p.proof_of_work) {
        return Err(VerificationError::ProofOfWork);
    }
    channel.mix_u64(p.proof_of_work);
    let mut queries = draw_queries(
        channel,
        fri_plan.first_log_size(),
        config.fri_config.n_queries,
    );
    queries.sort_unstable();
    queries.dedup();
    Ok(Challenges {
        composition_coeff,
        oods_point,
        quotient_coeff,
        fri_plan,
        queries,
    })
}

/// Whether every queried column holds one value a query, as stwo's `verify` assumes (its
/// Merkle verifier takes the next value unchecked: a short column is a panic there). The
/// queries come from the transcript, after the proof of work, so our parser cannot count
/// them: the stock path asks this first, on a copy of its channel (statement and first two
/// roots mixed in), and stwo's `verify` then only sees proofs it reads without panicking.
pub fn queried_columns_fit<MC: MerkleChannel>(
    mut channel: MC::C,
    p: &ProofView<'_, MC::H>,
    lifting_log_size: u32,
) -> Result<(), VerificationError>
where
    MC::H: LeanHasher,
{
    let queries = draw_challenges::<MC>(&mut channel, p, lifting_log_size)?.queries;
    if p.queried_values
        .iter()
        .flatten()
        .any(|column| column.len() != queries.len())
    {
        return Err(structure("queried values per column"));
    }
    Ok(())
}

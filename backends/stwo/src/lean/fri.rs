//! Circle FRI (stwo's `FriVerifier`): the commitment phase's draws, then each layer's
//! values, Merkle opening and folding at the queries, down to the last layer polynomial.
//!
//! What stwo does per query and layer (a `Coset` and a `LineDomain` built, each point a
//! scalar product, each twiddle inverted alone, `Vec`s of subsets, rows and positions) is
//! done here with index arithmetic ([`IndexCoset`]), points from the [`PointTable`], one
//! batch inversion of a layer's twiddles, and three buffers reused by every layer: the
//! subsets' values, the twiddles and the Merkle nodes, each bounded by the number of
//! queries times the folding arity.

use alloc::vec::Vec;

use num_traits::Zero;
use stwo::core::channel::{Channel, MerkleChannel};
use stwo::core::circle::CirclePoint;
use stwo::core::fields::batch_inverse_in_place;
use stwo::core::fields::m31::BaseField;
use stwo::core::fields::qm31::SecureField;
use stwo::core::fri::{FriConfig, FriVerificationError};
use stwo::core::utils::bit_reverse_index;
use stwo::core::vcs_lifted::verifier::LOG_PACKED_LEAF_SIZE;

use super::merkle::{self, LeanHasher};
use super::points::{circle_domain_index, IndexCoset, PointTable};
use crate::payload::{LayerView, ProofView};

/// One line layer after the commitment phase: its domain, folding and challenge.
#[derive(Clone, Copy, Debug)]
struct LineLayer {
    domain: IndexCoset,
    fold_step: u32,
    alpha: SecureField,
}

/// The commitment phase's outcome: every layer's shape and folding challenge.
pub struct FriPlan {
    config: FriConfig,
    /// The first (circle) layer's domain: its half coset and its log size.
    circle_half: IndexCoset,
    circle_log_size: u32,
    first_alpha: SecureField,
    layers: Vec<LineLayer>,
    last_domain: IndexCoset,
}

impl FriPlan {
    /// The folding challenges in the order they were drawn.
    pub fn alphas(&self) -> impl Iterator<Item = SecureField> + '_ {
        core::iter::once(self.first_alpha).chain(self.layers.iter().map(|l| l.alpha))
    }

    /// The first layer's domain log size: where the queries are drawn.
    pub fn first_log_size(&self) -> u32 {
        self.circle_log_size
    }
}

/// The commitment phase (stwo's `FriVerifier::commit`): mixes each layer's root, draws its
/// challenge, checks the layer count against the degree bound `2^column_log_bound` and
/// mixes the last layer's coefficients.
pub fn commit<MC: MerkleChannel>(
    channel: &mut MC::C,
    config: FriConfig,
    proof: &ProofView<'_, MC::H>,
    column_log_bound: u32,
) -> Result<FriPlan, FriVerificationError>
where
    MC::H: LeanHasher,
{
    MC::mix_root(channel, proof.first_layer.commitment);
    let circle_log_size = column_log_bound + config.log_blowup_factor;
    let first_alpha = channel.draw_secure_felt();
    let mut bound = column_log_bound
        .checked_sub(config.fold_step)
        .ok_or(FriVerificationError::InvalidNumFriLayers)?;
    let mut domain = IndexCoset::half_odds(bound + config.log_blowup_factor);
    let mut layers = Vec::with_capacity(proof.inner_layers.len());
    let n_inner = proof.inner_layers.len();
    for (index, layer) in proof.inner_layers.iter().enumerate() {
        MC::mix_root(channel, layer.commitment);
        let fold_step = if index + 1 < n_inner {
            config.fold_step
        } else {
            // The last inner layer folds exactly down to the last layer's bound.
            let rest = bound
                .checked_sub(config.log_last_layer_degree_bound)
                .ok_or(FriVerificationError::InvalidNumFriLayers)?;
            if !(1..=config.fold_step).contains(&rest) {
                return Err(FriVerificationError::InvalidNumFriLayers);
            }
            rest
        };
        let alpha = channel.draw_secure_felt();
        layers.push(LineLayer {
            domain,
            fold_step,
            alpha,
        });
        bound = bound
            .checked_sub(fold_step)
            .ok_or(FriVerificationError::InvalidNumFriLayers)?;
        domain = domain.repeated_double(fold_step);
    }
    if bound != config.log_last_layer_degree_bound {
        return Err(FriVerificationError::InvalidNumFriLayers);
    }
    if proof.last_layer_poly.len() > 1 << config.log_last_layer_degree_bound {
        return Err(FriVerificationError::LastLayerDegreeInvalid);
    }
    channel.mix_felts(&proof.last_layer_poly);
    Ok(FriPlan {
        config,
        circle_half: IndexCoset::half_odds(circle_log_size - 1),
        circle_log_size,
        first_alpha,
        layers,
        last_domain: domain,
    })
}

/// The buffers every layer reuses.
struct Buffers<H: LeanHasher> {
    /// The subsets' values, `2^fold_step` a subset, in position order.
    values: Vec<SecureField>,
    /// The twiddles to invert, then their inverses.
    twiddles: Vec<BaseField>,
    inverses: Vec<BaseField>,
    nodes: Vec<(usize, H::Hash)>,
    row: Vec<BaseField>,
    scratch: Vec<u8>,
    /// The first position of each queried subset, and the index of its first query.
    starts: Vec<usize>,
    firsts: Vec<usize>,
}

/// Which layer failed, as stwo names it.
#[derive(Clone, Copy)]
enum Layer {
    First,
    Inner(usize),
}

impl Layer {
    fn values_invalid(self) -> FriVerificationError {
        match self {
            Layer::First => FriVerificationError::FirstLayerEvaluationsInvalid,
            Layer::Inner(inner_layer) => {
                FriVerificationError::InnerLayerEvaluationsInvalid { inner_layer }
            }
        }
    }

    fn commitment_invalid(
        self,
        error: stwo::core::vcs_lifted::verifier::MerkleVerificationError,
    ) -> FriVerificationError {
        match self {
            Layer::First => FriVerificationError::FirstLayerCommitmentInvalid { error },
            Layer::Inner(inner_layer) => {
                FriVerificationError::InnerLayerCommitmentInvalid { inner_layer, error }
            }
        }
    }
}

/// Rebuilds each queried subset of a layer from the query values and the layer's witness
/// into `buffers.values` (stwo's `compute_decommitment_positions_and_rebuild_evals`: the
/// witness must supply exactly the positions not queried) and checks the layer's Merkle
/// opening of those subsets.
fn open_layer<H: LeanHasher>(
    layer: Layer,
    proof: &LayerView<'_, H>,
    queries: &[usize],
    evals: &[SecureField],
    log_size: u32,
    fold_step: u32,
    buffers: &mut Buffers<H>,
) -> Result<(), FriVerificationError> {
    let values = &mut buffers.values;
    values.clear();
    buffers.starts.clear();
    buffers.firsts.clear();
    let mut witness = proof.fri_witness.iter();
    let mut evals = evals.iter().copied();
    let mut at = 0;
    while at < queries.len() {
        let start = (queries[at] >> fold_step) << fold_step;
        buffers.starts.push(start);
        buffers.firsts.push(at);
        for position in start..start + (1 << fold_step) {
            let value = if queries.get(at) == Some(&position) {
                at += 1;
                evals.next()
            } else {
                witness.next()
            };
            values.push(value.ok_or(layer.values_invalid())?);
        }
    }
    if witness.next().is_some() {
        return Err(layer.values_invalid());
    }
    // Leaves of `2^leaf_log` values when folding by more than 2 (stwo's packed leaves).
    let leaf_log = if log_size >= LOG_PACKED_LEAF_SIZE && fold_step > 1 {
        LOG_PACKED_LEAF_SIZE
    } else {
        0
    };
    let height = log_size - leaf_log;
    if height == 0 {
        return Ok(());
    }
    let nodes = &mut buffers.nodes;
    nodes.clear();
    let leaf_size = 1usize << leaf_log;
    // The subsets are aligned runs of `2^fold_step >= leaf_size` positions: each leaf is the
    // next chunk of values.
    for (chunk, values) in values.chunks_exact(leaf_size).enumerate() {
        let row = &mut buffers.row;
        row.clear();
        for value in values {
            row.extend_from_slice(&value.to_m31_array());
        }
        let start = buffers.starts[(chunk << leaf_log) >> fold_step];
        let position = (start + ((chunk << leaf_log) & ((1 << fold_step) - 1))) >> leaf_log;
        nodes.push((position, H::leaf(row, &mut buffers.scratch)));
    }
    merkle::verify_root::<H>(nodes, height, proof.hash_witness.iter(), &proof.commitment)
        .map_err(|e| layer.commitment_invalid(e))
}

/// Folds `eval` (a subset of `2^n` values on the line coset `coset`, bit-reversed) with
/// `alpha`, its twiddles' inverses `inverses` in the order [`line_twiddles`] lists them
/// (stwo's `fold_coset`).
fn fold_line(eval: &mut [SecureField], n: u32, inverses: &[BaseField], mut alpha: SecureField) {
    let mut twiddle = 0;
    for level in 0..n {
        let len = 1usize << (n - level);
        for j in (0..len).step_by(2) {
            let (f_x, f_neg_x) = (eval[j], eval[j + 1]);
            let inverse = inverses[twiddle];
            twiddle += 1;
            let f0 = f_x + f_neg_x;
            let f1 = (f_x - f_neg_x) * inverse;
            eval[j >> 1] = f0 + alpha * f1;
        }
        alpha = alpha * alpha;
    }
}

/// The x-coordinates a [`fold_line`] of the coset `coset` (`2^n` points) inverts, in order.
fn line_twiddles(table: &PointTable, coset: IndexCoset, out: &mut Vec<BaseField>) {
    for level in 0..coset.log_size {
        let len = 1usize << (coset.log_size - level);
        let doubled = coset.repeated_double(level);
        for j in (0..len).step_by(2) {
            let index = doubled.index_at(bit_reverse_index(j, doubled.log_size));
            out.push(table.point(index).x);
        }
    }
}

/// The query phase (stwo's `FriVerifier::decommit`): `queries` sorted and distinct on the
/// first layer's domain, `first_points` their points there, `first_evals` the quotients'
/// values.
///
/// Folding by 2 (every layer's step 1, stwo's default), each query's point is followed
/// instead of recomputed: a subset's two positions are a point and its conjugate on the
/// circle (so the twiddle is the queried point's `y`, negated for an odd position), then
/// `x` and `-x` on each line, and the next layer's point is the double `2x^2 - 1` of the
/// query's own. Larger steps take every twiddle from the table.
pub fn decommit<H: LeanHasher>(
    plan: &FriPlan,
    proof: &ProofView<'_, H>,
    table: &PointTable,
    queries: &[usize],
    first_points: &[CirclePoint<BaseField>],
    first_evals: &[SecureField],
) -> Result<(), FriVerificationError> {
    let fold_step = plan.config.fold_step;
    let max_subset = 1usize << fold_step;
    let mut buffers = Buffers::<H> {
        values: Vec::with_capacity(queries.len() * max_subset),
        twiddles: Vec::with_capacity(queries.len() * max_subset),
        inverses: Vec::new(),
        nodes: Vec::with_capacity(queries.len() * max_subset),
        row: Vec::with_capacity(4 << LOG_PACKED_LEAF_SIZE),
        starts: Vec::with_capacity(queries.len()),
        firsts: Vec::with_capacity(queries.len()),
        // A leaf of packed values: 4 bytes a coordinate, 4 coordinates a value.
        scratch: Vec::with_capacity(16 << LOG_PACKED_LEAF_SIZE),
    };
    let mut queries: Vec<usize> = queries.to_vec();
    let mut evals: Vec<SecureField> = first_evals.to_vec();
    // Folding by 2: each query's own point's x on the current line layer.
    let follow = fold_step == 1;
    let mut xs: Vec<BaseField> = Vec::new();

    // The circle layer: fold each subset to a point of the first line layer.
    open_layer(
        Layer::First,
        &proof.first_layer,
        &queries,
        &evals,
        plan.circle_log_size,
        fold_step,
        &mut buffers,
    )?;
    buffers.twiddles.clear();
    let n_subsets = buffers.starts.len();
    if follow {
        for &first in &buffers.firsts {
            let y = first_points[first].y;
            buffers
                .twiddles
                .push(if queries[first] & 1 == 0 { y } else { -y });
        }
        xs.extend(first_points.iter().map(|p| p.x));
    } else {
        for &start in &buffers.starts {
            let initial = circle_domain_index(
                &plan.circle_half,
                bit_reverse_index(start, plan.circle_log_size),
            );
            // The circle fold's twiddles: the y of each pair's first point.
            let half = IndexCoset::new(initial, fold_step - 1);
            for i in 0..1usize << (fold_step - 1) {
                let index = circle_domain_index(&half, bit_reverse_index(i << 1, fold_step));
                buffers.twiddles.push(table.point(index).y);
            }
            if fold_step > 1 {
                line_twiddles(
                    table,
                    IndexCoset::new(initial, fold_step - 1),
                    &mut buffers.twiddles,
                );
            }
        }
    }
    invert(&mut buffers);
    let per_subset = (1usize << fold_step) - 1;
    evals.clear();
    for subset in 0..n_subsets {
        let eval = &mut buffers.values[subset << fold_step..][..max_subset];
        let inverses = &buffers.inverses[subset * per_subset..][..per_subset];
        let (circle, line) = inverses.split_at(max_subset >> 1);
        let alpha = plan.first_alpha;
        for (i, &inverse) in circle.iter().enumerate() {
            let (f_p, f_neg_p) = (eval[2 * i], eval[2 * i + 1]);
            let f0 = f_p + f_neg_p;
            let f1 = (f_p - f_neg_p) * inverse;
            eval[i] = alpha * f1 + f0;
        }
        if fold_step > 1 {
            fold_line(eval, fold_step - 1, line, alpha * alpha);
        }
        evals.push(eval[0]);
    }
    fold_queries(&mut queries, &mut xs, fold_step);

    // The line layers.
    for (index, layer) in plan.layers.iter().enumerate() {
        let step = layer.fold_step;
        open_layer(
            Layer::Inner(index),
            &proof.inner_layers[index],
            &queries,
            &evals,
            layer.domain.log_size,
            step,
            &mut buffers,
        )?;
        buffers.twiddles.clear();
        let n_subsets = buffers.starts.len();
        if follow {
            for &first in &buffers.firsts {
                let x = xs[first];
                buffers
                    .twiddles
                    .push(if queries[first] & 1 == 0 { x } else { -x });
            }
            for x in xs.iter_mut() {
                *x = CirclePoint::double_x(*x);
            }
        } else {
            for &start in &buffers.starts {
                let initial = layer
                    .domain
                    .index_at(bit_reverse_index(start, layer.domain.log_size));
                line_twiddles(table, IndexCoset::new(initial, step), &mut buffers.twiddles);
            }
        }
        invert(&mut buffers);
        let per_subset = (1usize << step) - 1;
        evals.clear();
        for subset in 0..n_subsets {
            let eval = &mut buffers.values[subset << step..][..1 << step];
            let inverses = &buffers.inverses[subset * per_subset..][..per_subset];
            fold_line(eval, step, inverses, layer.alpha);
            evals.push(eval[0]);
        }
        fold_queries(&mut queries, &mut xs, step);
    }

    // The last layer: its polynomial at each remaining query's point.
    for (i, (&query, &eval)) in queries.iter().zip(&evals).enumerate() {
        let x = if follow {
            xs[i]
        } else {
            let index = plan
                .last_domain
                .index_at(bit_reverse_index(query, plan.last_domain.log_size));
            table.point(index).x
        };
        if eval != proof.last_layer_poly.eval_at_point(x.into()) {
            return Err(FriVerificationError::LastLayerEvaluationsInvalid);
        }
    }
    Ok(())
}

/// Inverts the layer's twiddles in one batch.
fn invert<H: LeanHasher>(buffers: &mut Buffers<H>) {
    buffers.inverses.clear();
    buffers
        .inverses
        .resize(buffers.twiddles.len(), BaseField::zero());
    batch_inverse_in_place(&buffers.twiddles, &mut buffers.inverses);
}

/// The queries of the next layer: each folded by `fold_step`, duplicates dropped, and the
/// followed points `xs` (if any) with them.
fn fold_queries(queries: &mut Vec<usize>, xs: &mut Vec<BaseField>, fold_step: u32) {
    let mut write = 0;
    for read in 0..queries.len() {
        let folded = queries[read] >> fold_step;
        if write > 0 && queries[write - 1] == folded {
            continue;
        }
        queries[write] = folded;
        if let Some(&x) = xs.get(read) {
            xs[write] = x;
        }
        write += 1;
    }
    queries.truncate(write);
    xs.truncate(write);
}

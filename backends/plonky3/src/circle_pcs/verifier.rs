//! The opening argument's verifier side of [`WideCirclePcs`]: every length checked against
//! the claims before the transcript is replayed, then the input openings, the DEEP
//! quotients at each query, the first layer, the line layers (each leaf folded by its
//! `2^a` values with `beta, beta^2, ...`) and the final polynomial at every query. Hostile
//! proofs get an error, never a panic: every index below comes from the transcript or the
//! claims, every length read from the proof is compared first.

use alloc::collections::BTreeMap;
use alloc::vec;
use alloc::vec::Vec;

use p3_challenger::{CanObserve, FieldChallenger, GrindingChallenger};
use p3_circle::Point;
use p3_commit::{CommitmentOpening, Mmcs};
use p3_field::extension::ComplexExtendable;
use p3_field::{ExtensionField, PrimeField64};
use p3_matrix::Dimensions;

use super::geometry::{cfft_point, eval_poly, fold_leaf, fold_pair, line_x};
use super::{
    fold_schedule, log_size, observe_parameters, WideCircleError, WideCirclePcs, WideCircleProof,
    MAX_LOG_FINAL_POLY_LEN, MAX_LOG_FOLD_ARITY,
};

type Claims<Val, Challenge, Com> =
    [CommitmentOpening<Challenge, Com, p3_circle::CircleDomain<Val>>];
type Error<Val, Challenge, InputMmcs, FriMmcs> =
    WideCircleError<<InputMmcs as Mmcs<Val>>::Error, <FriMmcs as Mmcs<Challenge>>::Error>;

/// The widest query index a 31-bit field's `sample_bits` gives on every target.
const MAX_LOG_HEIGHT: usize = 30;

pub(super) fn verify<Val, InputMmcs, FriMmcs, Challenge, Challenger>(
    pcs: &WideCirclePcs<Val, InputMmcs, FriMmcs>,
    rounds: &Claims<Val, Challenge, InputMmcs::Commitment>,
    proof: &WideCircleProof<Val, Challenge, InputMmcs, FriMmcs>,
    challenger: &mut Challenger,
) -> Result<(), Error<Val, Challenge, InputMmcs, FriMmcs>>
where
    Val: ComplexExtendable + PrimeField64,
    Challenge: ExtensionField<Val>,
    InputMmcs: Mmcs<Val>,
    FriMmcs: Mmcs<Challenge>,
    Challenger:
        FieldChallenger<Val> + GrindingChallenger<Witness = Val> + CanObserve<FriMmcs::Commitment>,
{
    use WideCircleError::{Parameters, Shape};
    let params = pcs.params();
    let log_blowup = params.log_blowup;
    let (k, f) = (pcs.log_fold_arity, pcs.log_final_poly_len);
    let num_queries = params.num_queries;
    if !(1..=MAX_LOG_FOLD_ARITY).contains(&k) || f > MAX_LOG_FINAL_POLY_LEN {
        return Err(Parameters("fold arity or final length out of range"));
    }
    if num_queries == 0 || log_blowup == 0 {
        return Err(Parameters("no queries or no blowup"));
    }

    // Heights and widths come from the claims alone.
    let mut heights: Vec<usize> = Vec::new();
    for round in rounds {
        for mat in &round.matrices {
            let first = mat
                .points
                .first()
                .ok_or(Shape("matrix opened at no point"))?;
            if mat
                .points
                .iter()
                .any(|p| p.values.len() != first.values.len())
            {
                return Err(Shape("claims of one matrix differ in width"));
            }
            heights.push(log_size(&mat.domain) + log_blowup);
        }
    }
    heights.sort_unstable();
    heights.dedup();
    let log_final = f + log_blowup;
    let (&lowest, &log_max_height) = match (heights.first(), heights.last()) {
        (Some(lo), Some(hi)) => (lo, hi),
        _ => return Err(Shape("no committed matrices")),
    };
    if log_max_height > MAX_LOG_HEIGHT {
        return Err(Parameters("LDE taller than a query index can address"));
    }
    if lowest < log_final + 1 {
        return Err(Parameters("an input is shorter than the final polynomial"));
    }
    let input_lines: Vec<usize> = heights.iter().rev().map(|h| h - 1).collect();
    let schedule = fold_schedule(log_max_height - 1, &input_lines, log_final, k);

    // Every length in the proof.
    if proof.lambdas.len() != heights.len() {
        return Err(Shape("one lambda per height"));
    }
    if proof.layer_commitments.len() != schedule.len()
        || proof.layer_openings.len() != schedule.len()
    {
        return Err(Shape("one commitment and opening per layer"));
    }
    if proof.final_poly.len() != 1 << f {
        return Err(Shape("final polynomial length"));
    }
    if proof.input_openings.len() != rounds.len() {
        return Err(Shape("one input opening per commitment"));
    }
    for (opening, round) in proof.input_openings.iter().zip(rounds) {
        if opening.opened_values.len() != num_queries
            || opening
                .opened_values
                .iter()
                .any(|rows| rows.len() != round.matrices.len())
        {
            return Err(Shape("input openings: one row per query and matrix"));
        }
    }
    if proof.first_layer_siblings.len() != num_queries
        || proof
            .first_layer_siblings
            .iter()
            .any(|s| s.len() != heights.len())
    {
        return Err(Shape("first layer: one sibling per query and height"));
    }
    for (opening, &a) in proof.layer_openings.iter().zip(&schedule) {
        if opening.siblings.len() != num_queries
            || opening.siblings.iter().any(|s| s.len() != (1 << a) - 1)
        {
            return Err(Shape("layer: 2^a - 1 siblings per query"));
        }
    }
    if params.query_proof_of_work_bits == 0 && proof.pow_witness != Val::ZERO {
        return Err(WideCircleError::ProofOfWork);
    }

    // Transcript replay.
    observe_parameters::<Val, _, _>(challenger, params, k, f);
    for round in rounds {
        for mat in &round.matrices {
            for point in &mat.points {
                challenger.observe_algebra_element(point.point);
                challenger.observe_algebra_slice(&point.values);
            }
        }
    }
    let alpha: Challenge = challenger.sample_algebra_element();
    challenger.observe(proof.first_layer_commitment.clone());
    challenger.observe_algebra_slice(&proof.lambdas);
    let first_beta: Challenge = challenger.sample_algebra_element();
    let betas: Vec<Challenge> = proof
        .layer_commitments
        .iter()
        .map(|c| {
            challenger.observe(c.clone());
            challenger.sample_algebra_element()
        })
        .collect();
    challenger.observe_algebra_slice(&proof.final_poly);
    if !challenger.check_witness(params.query_proof_of_work_bits, proof.pow_witness) {
        return Err(WideCircleError::ProofOfWork);
    }
    let indices: Vec<usize> = (0..num_queries)
        .map(|_| challenger.sample_bits(log_max_height))
        .collect();

    // Input openings: one multi-proof per commitment.
    for (opening, round) in proof.input_openings.iter().zip(rounds) {
        let dims: Vec<Dimensions> = round
            .matrices
            .iter()
            .map(|m| Dimensions {
                width: m.points[0].values.len(),
                height: 1 << (log_size(&m.domain) + log_blowup),
            })
            .collect();
        let log_batch = dims
            .iter()
            .map(|d| d.height.trailing_zeros() as usize)
            .max()
            .unwrap_or(log_max_height);
        let reduced: Vec<usize> = indices
            .iter()
            .map(|&i| i >> (log_max_height - log_batch))
            .collect();
        for rows in &opening.opened_values {
            for (row, d) in rows.iter().zip(&dims) {
                if row.len() != d.width {
                    return Err(Shape("input row width"));
                }
            }
        }
        pcs.inner
            .mmcs
            .verify_multi_batch(
                &round.commitment,
                &dims,
                &reduced,
                &opening.opened_values,
                &opening.opening_proof,
            )
            .map_err(WideCircleError::InputMmcs)?;
    }

    // Per query: DEEP quotients per height, lambda-corrected, folded by y.
    let mut alpha_pows: Vec<Challenge> = Vec::new();
    let mut first_rows: Vec<Vec<[Challenge; 2]>> = Vec::with_capacity(num_queries);
    let mut lines: Vec<Vec<(usize, Challenge)>> = Vec::with_capacity(num_queries);
    for (query, &index) in indices.iter().enumerate() {
        let mut reduced: BTreeMap<usize, (Challenge, Challenge)> = BTreeMap::new();
        for (opening, round) in proof.input_openings.iter().zip(rounds) {
            for (row, mat) in opening.opened_values[query].iter().zip(&round.matrices) {
                let log_height = log_size(&mat.domain) + log_blowup;
                let x: Point<Val> = cfft_point(log_height, index >> (log_max_height - log_height));
                let w = row.len();
                if alpha_pows.len() < w {
                    alpha_pows = alpha.powers().collect_n(w);
                }
                let alpha_pow_width = alpha.exp_u64(w as u64);
                let row_reduced: Challenge =
                    row.iter().zip(&alpha_pows).map(|(&v, &a)| a * v).sum();
                let (offset, ro) = reduced
                    .entry(log_height)
                    .or_insert((Challenge::ONE, Challenge::ZERO));
                for point in &mat.points {
                    let zeta = Point::from_projective_line(point.point);
                    let (re, im) = x.v_p(zeta);
                    let inv = re
                        .double()
                        .try_inverse()
                        .ok_or(WideCircleError::OpeningPointMatchesQueryPoint)?;
                    let at_zeta: Challenge = point
                        .values
                        .iter()
                        .zip(&alpha_pows)
                        .map(|(&v, &a)| a * v)
                        .sum();
                    *ro += (offset.halve() - *offset * alpha_pow_width * im * inv)
                        * (row_reduced - at_zeta);
                    *offset *= alpha_pow_width.square();
                }
            }
        }
        let mut rows = Vec::with_capacity(heights.len());
        let mut query_lines = Vec::with_capacity(heights.len());
        for (((log_height, (_, ro)), &sibling), &lambda) in reduced
            .into_iter()
            .zip(&proof.first_layer_siblings[query])
            .zip(&proof.lambdas)
        {
            let row_index = index >> (log_max_height - log_height);
            let p: Point<Val> = cfft_point(log_height, row_index);
            let corrected = ro - lambda * p.v_n(log_height - log_blowup);
            let odd = row_index & 1;
            let pair = if odd == 0 {
                [corrected, sibling]
            } else {
                [sibling, corrected]
            };
            let y = if odd == 0 { p.y } else { -p.y };
            let inv_y = y
                .try_inverse()
                .ok_or(Shape("first-layer twiddle is zero"))?;
            query_lines.push((
                log_height - 1,
                fold_pair(pair[0], pair[1], inv_y, first_beta),
            ));
            rows.push(pair);
        }
        query_lines.reverse();
        first_rows.push(rows);
        lines.push(query_lines);
    }
    let first_dims: Vec<Dimensions> = heights
        .iter()
        .map(|&h| Dimensions {
            width: 2,
            height: 1 << (h - 1),
        })
        .collect();
    let paired: Vec<usize> = indices.iter().map(|&i| i >> 1).collect();
    let first_opened: Vec<Vec<&[Challenge]>> = first_rows
        .iter()
        .map(|rows| rows.iter().map(|r| &r[..]).collect())
        .collect();
    params
        .mmcs
        .verify_multi_batch(
            &proof.first_layer_commitment,
            &first_dims,
            &paired,
            &first_opened,
            &proof.first_layer_proof,
        )
        .map_err(WideCircleError::FirstLayerMmcs)?;

    // Line layers, query by query; the leaves are authenticated per layer afterwards.
    let mut layer_rows: Vec<Vec<Vec<Vec<Challenge>>>> = vec![Vec::new(); schedule.len()];
    let mut layer_leaves: Vec<Vec<usize>> = vec![Vec::new(); schedule.len()];
    for (query, query_lines) in lines.into_iter().enumerate() {
        let mut position = paired[query];
        let mut current = log_max_height - 1;
        let mut inputs = query_lines.into_iter().peekable();
        let mut folded = Challenge::ZERO;
        for (layer, (&a, &beta)) in schedule.iter().zip(&betas).enumerate() {
            if let Some((_, v)) = inputs.next_if(|(l, _)| *l == current) {
                folded += v;
            }
            let in_leaf = position & ((1 << a) - 1);
            let leaf = position >> a;
            let siblings = &proof.layer_openings[layer].siblings[query];
            let mut row = Vec::with_capacity(1 << a);
            row.extend_from_slice(&siblings[..in_leaf]);
            row.push(folded);
            row.extend_from_slice(&siblings[in_leaf..]);
            layer_rows[layer].push(vec![row.clone()]);
            layer_leaves[layer].push(leaf);
            folded = fold_leaf::<Val, Challenge>(&mut row, leaf, current, beta);
            position = leaf;
            current -= a;
        }
        if let Some((_, v)) = inputs.next_if(|(l, _)| *l == current) {
            folded += v;
        }
        if eval_poly(&proof.final_poly, line_x::<Val>(current, position)) != folded {
            return Err(WideCircleError::FinalPolyMismatch { query });
        }
    }
    let mut current = log_max_height - 1;
    for (layer, &a) in schedule.iter().enumerate() {
        let dims = [Dimensions {
            width: 1 << a,
            height: 1 << (current - a),
        }];
        params
            .mmcs
            .verify_multi_batch(
                &proof.layer_commitments[layer],
                &dims,
                &layer_leaves[layer],
                &layer_rows[layer],
                &proof.layer_openings[layer].proof,
            )
            .map_err(|error| WideCircleError::LayerMmcs { layer, error })?;
        current -= a;
    }
    Ok(())
}

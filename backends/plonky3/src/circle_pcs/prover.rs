//! The opening argument's prover side of [`WideCirclePcs`]: claims, DEEP quotients batched
//! per height, the first (circle-to-line) layer, the line layers folded by up to
//! `2^log_fold_arity` each, the final polynomial, proof of work and the query openings.
//! The order of absorptions and draws is the one `super::verifier` replays (see the
//! module documentation of `super`).

use alloc::collections::BTreeMap;

use alloc::vec::Vec;

use p3_challenger::{CanObserve, FieldChallenger, GrindingChallenger};
use p3_circle::{CircleDomain, CircleEvaluations, Point};
use p3_commit::{Mmcs, OpenedValues, OpeningRequest};
use p3_field::extension::ComplexExtendable;
use p3_field::{batch_multiplicative_inverse, ExtensionField, PrimeField64};
use p3_fri::BatchMultiOpening;
use p3_matrix::dense::RowMajorMatrix;
use p3_matrix::Matrix;
use p3_maybe_rayon::prelude::*;

use super::geometry::{
    cfft_index, cfft_points, eval_poly, fold_line, fold_pair, interpolate, line_x,
};
use super::{
    fold_schedule, observe_parameters, LayerOpening, WideCirclePcs, WideCircleProof,
    WideCircleProverError, MAX_LOG_FINAL_POLY_LEN, MAX_LOG_FOLD_ARITY,
};

type ProverData<Val, InputMmcs> = <InputMmcs as Mmcs<Val>>::ProverData<RowMajorMatrix<Val>>;
/// The claims' values and the opening proof.
type Opened<Val, Challenge, InputMmcs, FriMmcs> = (
    OpenedValues<Challenge>,
    WideCircleProof<Val, Challenge, InputMmcs, FriMmcs>,
);

/// The values of every column of a committed CFFT-order LDE (height `2^log_height`) at
/// `point`, from the trace-size prefix of its rows (the CFFT-order evaluations over the
/// sub-domain of the same shift, as upstream's `open` uses them).
fn evaluate_matrix<Val: ComplexExtendable, EF: ExtensionField<Val>>(
    mat: &RowMajorMatrix<Val>,
    log_height: usize,
    log_blowup: usize,
    points: &[EF],
) -> Vec<Vec<EF>> {
    let log_sub = log_height - log_blowup;
    let w = mat.width;
    let mut natural = Val::zero_vec(w << log_sub);
    for r in 0..1usize << log_sub {
        let i = cfft_index(r, log_sub);
        natural[i * w..(i + 1) * w].copy_from_slice(&mat.values[r * w..(r + 1) * w]);
    }
    let sub_domain = CircleDomain::new(log_sub, Point::generator(log_height + 1));
    let evals = CircleEvaluations::from_natural_order(sub_domain, RowMajorMatrix::new(natural, w));
    points
        .iter()
        .map(|&zeta| evals.evaluate_at_point(Point::from_projective_line(zeta)))
        .collect()
}

/// Removes from `ro` (values at `points`) its component along the trace domain's vanishing
/// polynomial `v_n` (`log_trace` = log2 of the trace domain) and returns the multiple
/// removed: the orthogonal projection `lambda = <ro, v> / <v, v>` over the LDE domain.
/// After it, `ro` lies in the CFFT space (Circle STARKs paper, Section 4.3, Lemma 6: that
/// space is orthogonal to `v_n` on a twin coset); the verifier subtracts `lambda v_n(x)`.
fn extract_lambda<Val: ComplexExtendable, EF: ExtensionField<Val>>(
    ro: &mut [EF],
    points: &[Point<Val>],
    log_trace: usize,
) -> EF {
    let v: Vec<Val> = points.par_iter().map(|p| p.v_n(log_trace)).collect();
    let norm: Val = v.par_iter().map(|&x| x * x).sum();
    let dot: EF = ro.par_iter().zip(v.par_iter()).map(|(&r, &x)| r * x).sum();
    let lambda = dot * norm.inverse();
    ro.par_iter_mut()
        .zip(v.par_iter())
        .for_each(|(r, &x)| *r -= lambda * x);
    lambda
}

/// Rows per block of the DEEP quotient's accumulation: the vanishing parts and their inverses
/// live only for one block, never for the whole LDE height.
const DEEP_BLOCK_ROWS: usize = 1 << 12;

/// Adds one matrix's circle DEEP quotients to `ro`, for every point of `terms` (`zeta`, the
/// claims reduced by alpha, half the alpha offset, the offset times `alpha^width`): at each
/// LDE row `x`, `(half_offset - offset_pow * im / (2 re)) * (row(x) - claim)` with
/// `(re, im) = v_p(x, zeta)` (the Circle STARKs paper, Section 6). Computed in blocks of
/// [`DEEP_BLOCK_ROWS`] rows, so the extra memory is a few blocks, not several vectors of the
/// LDE's height in the challenge field (issue 25: the mission command's peak memory).
fn accumulate_deep_quotient<Val: ComplexExtendable, Challenge: ExtensionField<Val>>(
    ro: &mut [Challenge],
    values: &[Val],
    width: usize,
    alpha_powers: &[Challenge],
    pts: &[Point<Val>],
    terms: &[(Point<Challenge>, Challenge, Challenge, Challenge)],
) {
    // A matrix without columns adds nothing (its rows and claims reduce to zero).
    if width == 0 {
        return;
    }
    ro.par_chunks_mut(DEEP_BLOCK_ROWS)
        .zip(values.par_chunks(DEEP_BLOCK_ROWS * width))
        .zip(pts.par_chunks(DEEP_BLOCK_ROWS))
        .for_each(|((acc, block), block_pts)| {
            let rows: Vec<Challenge> = block
                .chunks_exact(width)
                .map(|row| {
                    row.iter()
                        .zip(alpha_powers)
                        .map(|(&v, &a)| a * v)
                        .sum::<Challenge>()
                })
                .collect();
            let mut twice_re = Vec::with_capacity(acc.len());
            let mut im = Vec::with_capacity(acc.len());
            for &(zeta, claim, half_offset, offset_pow) in terms {
                twice_re.clear();
                im.clear();
                for &x in block_pts {
                    let (re, i) = x.v_p(zeta);
                    twice_re.push(re.double());
                    im.push(i);
                }
                let inv = batch_multiplicative_inverse(&twice_re);
                for (((a, &row), &im), &inv) in acc.iter_mut().zip(&rows).zip(&im).zip(&inv) {
                    *a += (half_offset - offset_pow * im * inv) * (row - claim);
                }
            }
        });
}

pub(super) fn open<Val, InputMmcs, FriMmcs, Challenge, Challenger>(
    pcs: &WideCirclePcs<Val, InputMmcs, FriMmcs>,
    rounds: Vec<OpeningRequest<'_, ProverData<Val, InputMmcs>, Challenge>>,
    challenger: &mut Challenger,
) -> Result<Opened<Val, Challenge, InputMmcs, FriMmcs>, WideCircleProverError>
where
    Val: ComplexExtendable + PrimeField64,
    Challenge: ExtensionField<Val>,
    InputMmcs: Mmcs<Val>,
    FriMmcs: Mmcs<Challenge>,
    Challenger:
        FieldChallenger<Val> + GrindingChallenger<Witness = Val> + CanObserve<FriMmcs::Commitment>,
{
    let params = pcs.params();
    let log_blowup = params.log_blowup;
    let (k, f) = (pcs.log_fold_arity, pcs.log_final_poly_len);
    if !(1..=MAX_LOG_FOLD_ARITY).contains(&k) || f > MAX_LOG_FINAL_POLY_LEN {
        return Err(WideCircleProverError(
            "fold arity or final length out of range",
        ));
    }
    if params.num_queries == 0 || log_blowup == 0 {
        return Err(WideCircleProverError("no queries or no blowup"));
    }
    let input_mmcs = &pcs.inner.mmcs;
    let fri_mmcs = &params.mmcs;

    // 1. Claims: every column of every matrix at each of its points.
    let opened: OpenedValues<Challenge> = rounds
        .iter()
        .map(|req| {
            let mats = input_mmcs.get_matrices(req.prover_data);
            mats.iter()
                .zip(&req.points)
                .map(|(mat, points)| {
                    let log_height = mat.height().trailing_zeros() as usize;
                    evaluate_matrix(mat, log_height, log_blowup, points)
                })
                .collect()
        })
        .collect();
    observe_parameters::<Val, _, _>(challenger, params, k, f);
    for (req, values) in rounds.iter().zip(&opened) {
        for (points, mat_values) in req.points.iter().zip(values) {
            for (&zeta, at_zeta) in points.iter().zip(mat_values) {
                challenger.observe_algebra_element(zeta);
                challenger.observe_algebra_slice(at_zeta);
            }
        }
    }
    let alpha: Challenge = challenger.sample_algebra_element();

    // 2. DEEP quotients, batched per LDE height with powers of alpha.
    let mut points_by_height: BTreeMap<usize, Vec<Point<Val>>> = BTreeMap::new();
    let mut reduced: BTreeMap<usize, (Challenge, Vec<Challenge>)> = BTreeMap::new();
    for (req, values) in rounds.iter().zip(&opened) {
        let mats = input_mmcs.get_matrices(req.prover_data);
        for ((mat, points), mat_values) in mats.iter().zip(&req.points).zip(values) {
            let log_height = mat.height().trailing_zeros() as usize;
            let pts = points_by_height
                .entry(log_height)
                .or_insert_with(|| cfft_points(log_height));
            let w = mat.width;
            let alpha_powers: Vec<Challenge> = alpha.powers().collect_n(w);
            let alpha_pow_width = alpha.exp_u64(w as u64);
            let (offset, ro) = reduced
                .entry(log_height)
                .or_insert_with(|| (Challenge::ONE, Challenge::zero_vec(1 << log_height)));
            // Per point: zeta, the claims reduced by alpha, and the two alpha offsets.
            let terms: Vec<(Point<Challenge>, Challenge, Challenge, Challenge)> = points
                .iter()
                .zip(mat_values)
                .map(|(&zeta_t, at_zeta)| {
                    let at_zeta_reduced: Challenge = at_zeta
                        .iter()
                        .zip(&alpha_powers)
                        .map(|(&v, &a)| a * v)
                        .sum();
                    let term = (
                        Point::from_projective_line(zeta_t),
                        at_zeta_reduced,
                        offset.halve(),
                        *offset * alpha_pow_width,
                    );
                    *offset *= alpha_pow_width.square();
                    term
                })
                .collect();
            accumulate_deep_quotient(ro, &mat.values, w, &alpha_powers, pts, &terms);
        }
    }

    // 3. Lambdas, the first layer and its fold by y.
    let heights: Vec<usize> = reduced.keys().copied().collect();
    let mut lambdas = Vec::with_capacity(heights.len());
    let first_layer_mats: Vec<RowMajorMatrix<Challenge>> = reduced
        .into_values()
        .zip(&heights)
        .map(|((_, mut ro), &log_height)| {
            let pts = &points_by_height[&log_height];
            lambdas.push(extract_lambda(&mut ro, pts, log_height - log_blowup));
            RowMajorMatrix::new(ro, 2)
        })
        .collect();
    let log_max_height = *heights
        .last()
        .ok_or(WideCircleProverError("nothing to open"))?;
    let log_final = f + log_blowup;
    if heights[0] < log_final + 1 {
        return Err(WideCircleProverError(
            "an input is shorter than the final polynomial",
        ));
    }
    let (first_layer_commitment, first_layer_data) = fri_mmcs.commit(first_layer_mats);
    challenger.observe(first_layer_commitment.clone());
    challenger.observe_algebra_slice(&lambdas);
    let first_beta: Challenge = challenger.sample_algebra_element();
    // Line inputs, tallest first.
    let mut inputs: Vec<(usize, Vec<Challenge>)> = fri_mmcs
        .get_matrices(&first_layer_data)
        .into_iter()
        .zip(&heights)
        .map(|(m, &log_height)| {
            let pts = &points_by_height[&log_height];
            let ys: Vec<Val> = (0..m.height()).map(|j| pts[2 * j].y).collect();
            let inv = batch_multiplicative_inverse(&ys);
            let line: Vec<Challenge> = m
                .values
                .chunks_exact(2)
                .zip(inv)
                .map(|(pair, t)| fold_pair(pair[0], pair[1], t, first_beta))
                .collect();
            (log_height - 1, line)
        })
        .collect();
    drop(points_by_height);
    inputs.reverse();

    // 4. Line layers.
    let input_lines: Vec<usize> = inputs.iter().map(|(l, _)| *l).collect();
    let schedule = fold_schedule(log_max_height - 1, &input_lines, log_final, k);
    let mut inputs = inputs.into_iter().peekable();
    let (mut current, mut folded) = inputs.next().expect("at least one height");
    let mut layer_commitments = Vec::with_capacity(schedule.len());
    let mut layer_data = Vec::with_capacity(schedule.len());
    for &a in &schedule {
        let (commitment, data) = fri_mmcs.commit_matrix(RowMajorMatrix::new(folded, 1 << a));
        challenger.observe(commitment.clone());
        let beta: Challenge = challenger.sample_algebra_element();
        let mut values = fri_mmcs.get_matrices(&data)[0].values.clone();
        let mut beta_s = beta;
        for _ in 0..a {
            values = fold_line::<Val, Challenge>(&values, beta_s);
            beta_s = beta_s.square();
        }
        current -= a;
        if let Some((_, input)) = inputs.next_if(|(l, _)| *l == current) {
            values.iter_mut().zip(input).for_each(|(v, x)| *v += x);
        }
        folded = values;
        layer_commitments.push(commitment);
        layer_data.push(data);
    }
    debug_assert_eq!(current, log_final);
    debug_assert!(inputs.next().is_none());

    // 5. Final polynomial, proof of work, queries.
    let final_len = 1usize << f;
    let xs: Vec<Val> = (0..final_len)
        .map(|j| line_x::<Val>(log_final, j))
        .collect();
    let final_poly = interpolate(&xs, &folded[..final_len]);
    debug_assert!(folded
        .iter()
        .enumerate()
        .all(|(j, &v)| eval_poly(&final_poly, line_x::<Val>(log_final, j)) == v));
    challenger.observe_algebra_slice(&final_poly);
    let pow_bits = params.query_proof_of_work_bits;
    let pow_witness = if pow_bits > 0 {
        challenger.grind(pow_bits)
    } else {
        Val::ZERO
    };
    let indices: Vec<usize> = (0..params.num_queries)
        .map(|_| challenger.sample_bits(log_max_height))
        .collect();

    // 6. Openings.
    let input_openings = rounds
        .iter()
        .map(|req| {
            let log_batch = input_mmcs.get_max_height(req.prover_data).trailing_zeros() as usize;
            let reduced: Vec<usize> = indices
                .iter()
                .map(|&i| i >> (log_max_height - log_batch))
                .collect();
            let (opened_values, opening_proof) =
                input_mmcs.open_multi_batch(&reduced, req.prover_data);
            BatchMultiOpening {
                opened_values,
                opening_proof,
            }
        })
        .collect();
    let paired: Vec<usize> = indices.iter().map(|&i| i >> 1).collect();
    let (first_rows, first_layer_proof) = fri_mmcs.open_multi_batch(&paired, &first_layer_data);
    let first_layer_siblings = indices
        .iter()
        .zip(first_rows)
        .map(|(&index, rows)| {
            rows.iter()
                .zip(&heights)
                .map(|(row, &h)| row[((index >> (log_max_height - h)) & 1) ^ 1])
                .collect()
        })
        .collect();
    let mut positions: Vec<usize> = paired;
    let layer_openings = schedule
        .iter()
        .zip(&layer_data)
        .map(|(&a, data)| {
            let leaves: Vec<usize> = positions.iter().map(|&j| j >> a).collect();
            let (rows, proof) = fri_mmcs.open_multi_batch(&leaves, data);
            let siblings = positions
                .iter()
                .zip(rows)
                .map(|(&j, mut rows)| {
                    let mut row = rows.swap_remove(0);
                    row.remove(j & ((1 << a) - 1));
                    row
                })
                .collect();
            positions = leaves;
            LayerOpening { siblings, proof }
        })
        .collect();

    Ok((
        opened,
        WideCircleProof {
            first_layer_commitment,
            lambdas,
            layer_commitments,
            final_poly,
            pow_witness,
            input_openings,
            first_layer_siblings,
            first_layer_proof,
            layer_openings,
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use p3_field::{Field, PrimeCharacteristicRing};
    use p3_mersenne_31::{Mersenne31 as F, QM31};

    /// The blocked accumulation equals the DEEP quotient computed row by row over the whole
    /// height (two blocks and two points here, so a misaligned block would show).
    #[test]
    fn blocked_deep_quotient_matches_the_row_by_row_formula() {
        let (log_height, width) = (13, 3);
        let pts = cfft_points::<F>(log_height);
        let values: Vec<F> = (0..width << log_height)
            .map(|i| F::from_u64((i as u64 * 2654435761) % 2147483647))
            .collect();
        let alpha = QM31::from_u64(7) + QM31::from_u64(3).square().square();
        let alpha_powers: Vec<QM31> = alpha.powers().collect_n(width);
        let terms: Vec<(Point<QM31>, QM31, QM31, QM31)> = [11u64, 29]
            .iter()
            .map(|&z| {
                let zeta = Point::from_projective_line(QM31::from_u64(z) + alpha);
                (
                    zeta,
                    alpha * QM31::from_u64(z),
                    alpha.square(),
                    alpha + QM31::ONE,
                )
            })
            .collect();
        let mut blocked = QM31::zero_vec(1 << log_height);
        accumulate_deep_quotient(&mut blocked, &values, width, &alpha_powers, &pts, &terms);
        for (i, &got) in blocked.iter().enumerate() {
            let row: QM31 = (0..width)
                .map(|c| alpha_powers[c] * values[i * width + c])
                .sum();
            let want: QM31 = terms
                .iter()
                .map(|&(zeta, claim, half, pow)| {
                    let (re, im) = pts[i].v_p(zeta);
                    (half - pow * im * re.double().inverse()) * (row - claim)
                })
                .sum();
            assert_eq!(got, want, "row {i}");
        }
    }
}

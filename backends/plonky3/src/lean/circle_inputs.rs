//! The passes both circle PCSs share (upstream's `CirclePcs` in [`super::circle`], our wide
//! one in [`super::wide_circle`]): each claim's query-independent term, the input batches
//! opened at every query with their DEEP quotients, and the first (circle-to-line) layer.
//! The transcripts and the line folds after the first layer differ and stay in each PCS.

use p3_circle::Point;
use p3_field::{ExtensionField, PrimeCharacteristicRing};
use p3_mersenne_31::Mersenne31;
use picostark_core::{digests_equal, Failures, Tree, VerifyError};

use super::bounds::{MAX_CHUNKS, MAX_DEGREE, MAX_QUERIES};
use super::circle_domain::{
    ext_bytes, fold, nth_point, v_n, Geometry, F_LEN, MAX_CLAIMS, MAX_HEIGHTS,
};
use super::math::{batch_invert, batch_invert_ext};
use super::merkle::{self, Digest};
use super::reader::{Reader, WireField};
use super::OpeningClaims;
use crate::circle_pcs::geometry::cfft_index;
use crate::config::ByteHash;

type F = Mersenne31;

/// One claim of the batch: an opening point with its values, and what its DEEP quotient
/// term needs that does not depend on the query.
#[derive(Clone, Copy)]
pub(crate) struct ClaimTerm<EF> {
    /// The point on the circle.
    pub(crate) zx: EF,
    pub(crate) zy: EF,
    /// `sum_i alpha^i value_i`.
    reduced: EF,
    /// `alpha^width` of its matrix.
    alpha_pow_width: EF,
    /// The running `alpha^(2 width)` product of the claims before it at its height.
    offset: EF,
}

impl<EF: ExtensionField<F>> ClaimTerm<EF> {
    /// Every claim's terms, unset.
    pub(crate) fn unset() -> [Self; MAX_CLAIMS] {
        [ClaimTerm {
            zx: EF::ZERO,
            zy: EF::ZERO,
            reduced: EF::ZERO,
            alpha_pow_width: EF::ZERO,
            offset: EF::ZERO,
        }; MAX_CLAIMS]
    }
}

/// The values of claim `k`: the trace at `zeta` (0) and at `zeta_next` (1), then one quotient
/// chunk each.
pub(crate) fn claim_values<'a, EF>(c: &'a OpeningClaims<'_, EF>, k: usize, dim: usize) -> &'a [EF] {
    match k {
        0 => c.trace_local,
        1 => c.trace_next,
        _ => &c.quotient_chunks[(k - 2) * dim..(k - 1) * dim],
    }
}

/// Completes each claim's term (its point already set) with `alpha`'s powers: the reduced
/// value, `alpha^width` and its height's running offset.
pub(crate) fn complete_terms<EF: ExtensionField<F>>(
    c: &OpeningClaims<'_, EF>,
    g: &Geometry,
    alpha: EF,
    alpha_pows: &[EF],
    terms: &mut [ClaimTerm<EF>],
) {
    let dim = EF::DIMENSION;
    let alpha_w = alpha.exp_u64(c.trace_local.len() as u64);
    let alpha_d = alpha.exp_u64(dim as u64);
    let mut offsets = [EF::ONE; MAX_HEIGHTS];
    for (k, term) in terms.iter_mut().enumerate() {
        let (apw, h) = if k < 2 {
            (alpha_w, g.trace_h)
        } else {
            (alpha_d, g.chunk_h)
        };
        let slot = g.height_slot(h);
        term.reduced = claim_values(c, k, dim)
            .iter()
            .zip(alpha_pows)
            .fold(EF::ZERO, |acc, (&v, &a)| F::ext_add(acc, F::ext_mul(v, a)));
        term.alpha_pow_width = apw;
        term.offset = offsets[slot];
        offsets[slot] = F::ext_mul(offsets[slot], F::ext_square(apw));
    }
}

/// What the shared passes read: the PCS's hash and blowup, the heights, the claims with
/// their terms and `alpha`'s powers, and the query indices.
pub(crate) struct InputPass<'a, EF, H: ByteHash> {
    pub(crate) hash: H,
    pub(crate) compress: H::Compress,
    pub(crate) log_blowup: usize,
    pub(crate) g: Geometry,
    pub(crate) claims: &'a OpeningClaims<'a, EF>,
    pub(crate) terms: &'a [ClaimTerm<EF>],
    pub(crate) alpha_pows: &'a [EF],
    pub(crate) indices: &'a [usize],
}

/// Per query, its index reduced to each height (what the first layer pairs by).
pub(crate) type ReducedIndices = [[usize; MAX_HEIGHTS]; MAX_QUERIES];

impl<EF: ExtensionField<F>, H: ByteHash> InputPass<'_, EF, H> {
    /// The input batches (trace, then quotient chunks) from `r`, each with its Merkle
    /// multi-proof; per query and height into `ro` the reduced opening, the sum over claims
    /// of `offset * v_p part * (row(x) - row(zeta))`. Sets each query's point per height.
    /// `fractions` (at least `3 * q` values; the first layer's row buffer, not in use yet)
    /// holds each query's sum as one fraction until a batch's denominators are inverted
    /// together. Failed checks go to `fails`.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(crate) fn open_inputs(
        &self,
        r: &mut Reader<'_>,
        reduced_idx: &mut ReducedIndices,
        points: &mut [[Point<F>; MAX_HEIGHTS]],
        digests: &mut [Digest],
        nodes: &mut [(usize, Digest)],
        ro: &mut [[EF; MAX_HEIGHTS]],
        fractions: &mut [EF],
        fails: &mut Failures,
    ) -> Result<(), VerifyError> {
        let (g, c) = (&self.g, self.claims);
        let (q, width, nc, dim) = (
            self.indices.len(),
            c.trace_local.len(),
            c.num_chunks,
            EF::DIMENSION,
        );
        for k in 0..q {
            for s in 0..g.num_heights {
                let h = g.heights[s];
                let reduced = self.indices[k] >> (g.max_h - h);
                reduced_idx[k][s] = reduced;
                points[k][s] = nth_point(h, cfft_index(reduced, h));
            }
        }
        let mut leaf_index = [0usize; MAX_QUERIES];
        // Per query of a batch, its terms summed as one fraction: numerators, denominators
        // (inverted together after the batch: one inversion a batch, not one a query) and the
        // batch inversion's scratch.
        let (nums, rest) = fractions
            .get_mut(..3 * q)
            .ok_or(VerifyError::Unsupported(
                "fraction buffer shorter than 3 values a query",
            ))?
            .split_at_mut(q);
        let (dens, scratch) = rest.split_at_mut(q);
        let mut at_x = [EF::ZERO; MAX_CLAIMS];
        // Batch 0 (the trace) then batch 1 (the quotient chunks); their terms are claims
        // 0..2 and 2..2+nc.
        for batch in 0..2 {
            let (mats, cols, h, claims) = if batch == 0 {
                (1, width, g.trace_h, 0..2)
            } else {
                (nc, dim, g.chunk_h, 2..2 + nc)
            };
            let slot = g.height_slot(h);
            r.expect_len(q)?;
            for k in 0..q {
                r.expect_len(mats)?;
                let mut slices: [&[u8]; MAX_CHUNKS] = [&[]; MAX_CHUNKS];
                for m in 0..mats {
                    r.expect_len(cols)?;
                    let mut reduced_x = EF::ZERO;
                    slices[m] = r.elems_each::<F>(cols, |i, v| {
                        reduced_x = F::ext_add(reduced_x, F::ext_mul_base(self.alpha_pows[i], v));
                    })?;
                    if batch == 0 {
                        at_x[0] = reduced_x;
                        at_x[1] = reduced_x;
                    } else {
                        at_x[2 + m] = reduced_x;
                    }
                }
                // Rows are compared through their digests (a repeated index in a tree of
                // 2^h leaves is rare), so every query's leaf is hashed here.
                // One matrix (the trace) is one slice, which the lean hasher hashes in place.
                digests[k] = self.hash.hash_iter_slices(slices[..mats].iter().copied());
                leaf_index[k] = reduced_idx[k][slot];
                // v_p(x, zeta) = (1 - dx, -dy) with (dx, dy) = x - zeta on the circle. Claim
                // j's term is offset * num / den * (row(x) - row(zeta)); the query's sum n / d
                // takes one more term as (n den + term's numerator d) / (d den).
                let x = points[k][slot];
                let (mut n, mut d) = (EF::ZERO, EF::ONE);
                for j in claims.clone() {
                    let tm = &self.terms[j];
                    let dx = F::ext_add(F::ext_mul_base(tm.zx, x.x), F::ext_mul_base(tm.zy, x.y));
                    let dy = F::ext_sub(F::ext_mul_base(tm.zx, x.y), F::ext_mul_base(tm.zy, x.x));
                    let re = F::ext_sub(EF::ONE, dx);
                    let num = F::ext_add(re, F::ext_mul(tm.alpha_pow_width, dy));
                    let den = F::ext_add(re, re);
                    let top =
                        F::ext_mul(F::ext_mul(tm.offset, num), F::ext_sub(at_x[j], tm.reduced));
                    if j == claims.start {
                        (n, d) = (top, den);
                    } else {
                        n = F::ext_add(F::ext_mul(n, den), F::ext_mul(top, d));
                        d = F::ext_mul(d, den);
                    }
                }
                (nums[k], dens[k]) = (n, d);
            }
            // A zero denominator of any claim makes its query's product zero: rejected here
            // as when each was inverted alone.
            batch_invert_ext::<F, EF>(dens, scratch)?;
            for k in 0..q {
                ro[k][slot] = F::ext_add(ro[k][slot], F::ext_mul(nums[k], dens[k]));
            }
            let (tree, root) = if batch == 0 {
                (Tree::Trace, c.trace_root)
            } else {
                (Tree::Quotient, c.quotient_root)
            };
            merkle::verify_queries::<H>(
                &self.compress,
                tree,
                root,
                h,
                None,
                &leaf_index[..q],
                |k| (digests[k], [0; 32]),
                |a, b| digests_equal(&digests[a], &digests[b]),
                nodes,
                &mut [],
                r,
                fails,
            )?;
        }
        Ok(())
    }

    /// The first layer from `r`: per query and height the lambda-corrected reduced opening
    /// beside its sibling (into `rows`, `MAX_HEIGHTS` pairs per query), the leaves checked
    /// against `root`, and each pair folded by its y-coordinate with `beta` into `ro`;
    /// failed checks go to `fails`.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(crate) fn first_layer(
        &self,
        r: &mut Reader<'_>,
        root: &Digest,
        lambdas: &[EF],
        beta: EF,
        reduced_idx: &ReducedIndices,
        points: &[[Point<F>; MAX_HEIGHTS]],
        rows: &mut [[EF; 2]],
        ro: &mut [[EF; MAX_HEIGHTS]],
        nodes: &mut [(usize, Digest)],
        (injected, fails): (&mut [Digest], &mut Failures),
    ) -> Result<(), VerifyError> {
        let g = &self.g;
        let (q, nh) = (self.indices.len(), g.num_heights);
        let mut ys = [F::ZERO; MAX_QUERIES * MAX_HEIGHTS];
        let mut ys_scratch = [F::ZERO; MAX_QUERIES * MAX_HEIGHTS];
        let mut leaf_index = [0usize; MAX_QUERIES];
        r.expect_len(q)?;
        for k in 0..q {
            r.expect_len(nh)?;
            leaf_index[k] = self.indices[k] >> 1;
            for s in 0..nh {
                let h = g.heights[s];
                let mut sibling = EF::ZERO;
                r.ext_into(&mut sibling)?;
                let b = reduced_idx[k][s] & 1;
                let p = points[k][s];
                let vanishing = F::ext_mul_base(lambdas[s], v_n(p.x, h - self.log_blowup));
                let corrected = F::ext_sub(ro[k][s], vanishing);
                rows[k * MAX_HEIGHTS + s] = if b == 0 {
                    [corrected, sibling]
                } else {
                    [sibling, corrected]
                };
                ys[k * nh + s] = if b == 0 { p.y } else { -p.y };
            }
        }
        // One inversion for every y twiddle (upstream: one per query).
        batch_invert(&mut ys[..q * nh], &mut ys_scratch[..q * nh])?;
        // The reduced openings are spent: their slots take the folded first-layer values.
        for k in 0..q {
            for s in 0..nh {
                let [e0, e1] = rows[k * MAX_HEIGHTS + s];
                ro[k][s] = fold(ys[k * nh + s], beta, e0, e1);
            }
        }
        let mut leaf_bytes = [0u8; 2 * MAX_DEGREE * F_LEN];
        let mut hash_row = |row: &[EF; 2]| -> Digest {
            let n = ext_bytes(row, &mut leaf_bytes);
            self.hash.hash_slice(&leaf_bytes[..n])
        };
        let tallest = nh - 1;
        // The shorter matrix (height 2^(h - 1)) joins where the tree narrows to its height.
        let inject_after = (nh == 2).then(|| g.max_h - g.heights[0] - 1);
        merkle::verify_queries::<H>(
            &self.compress,
            Tree::FirstLayer,
            root,
            g.max_h - 1,
            inject_after,
            &leaf_index[..q],
            |k| {
                let injected = if nh == 2 {
                    hash_row(&rows[k * MAX_HEIGHTS])
                } else {
                    [0; 32]
                };
                (hash_row(&rows[k * MAX_HEIGHTS + tallest]), injected)
            },
            |a, b| rows[a * MAX_HEIGHTS..][..nh] == rows[b * MAX_HEIGHTS..][..nh],
            nodes,
            injected,
            r,
            fails,
        )
    }
}

//! Our [`crate::circle_pcs::WideCirclePcs`] (issue 25: circle lines folded by up to 16 per
//! committed layer, a final line polynomial) as a [`LeanPcs`]: its opening argument read in
//! place from the postcard payload, with per-query and per-round state on the heap at the
//! proof's own query and round counts (one allocation of each kind per verification, after
//! the counts are checked against the `MAX_*` bounds).
//!
//! The input batches, their DEEP quotients and the first (circle-to-line) layer are the
//! same computation as upstream's `CirclePcs` (`super::circle`, whose helpers this module
//! uses); what differs is the transcript (no domain separator: the PCS's parameters, then
//! the claims, `alpha`, the first-layer root and the lambdas, one `beta` per line layer, the
//! final polynomial, proof of work, the indices) and the line layers: each query's leaf of
//! `2^a` values is rebuilt from its siblings and the running value, authenticated (one
//! multi-proof per layer) and folded by `a` binary steps with `beta, beta^2, ...`, whose
//! twiddles come from one circle point per leaf. The proof places every transcript value
//! before the openings, so the payload is read in one pass.
//!
//! The quotient is sized for constraint degree 3 at least
//! ([`crate::config::min_constraint_degree`]): a Fibonacci proof has two quotient chunks at the
//! trace's LDE height instead of upstream's one chunk at twice that height, so every input
//! matrix of a wide proof has one height.

use alloc::vec;

use p3_circle::{CircleDomain, Point};
use p3_commit::PolynomialSpace;
use p3_field::{ExtensionField, PrimeCharacteristicRing};
use p3_mersenne_31::Mersenne31;
use picostark_core::{Check, HashId, ProofFile, Tree, VerifyError};

use p3_challenger::{HashChallenger, SerializingChallenger32};

use super::bounds::{MAX_CHUNKS, MAX_DEGREE, MAX_PUBLIC, MAX_QUERIES, MAX_ROUNDS, MAX_WIDTH};
use super::circle::{
    cfft_permute_index, chunk_log_n, ext_bytes, fold, nth_point, point_from_line, v_n, CirclePcs,
    QueryDigests, CIRCLE_TWO_ADICITY, F_LEN, MAX_CLAIMS, MAX_HEIGHTS,
};
use super::math::{batch_invert, reverse_bits};
use super::merkle::{self, Digest};
use super::reader::Reader;
use super::transcript::{LeanChallenger, Transcript};
use super::{LeanPcs, OpeningClaims};
use crate::circle_pcs::MAX_LOG_FOLD_ARITY;
use crate::config::{ByteHash, VERIFIER_HASH};

type F = Mersenne31;

/// The widest committed leaf: `2^MAX_LOG_FOLD_ARITY` values.
const MAX_LEAF: usize = 1 << MAX_LOG_FOLD_ARITY;
/// The lean verifier's longest final polynomial: 2^6 coefficients (longer ones go to the
/// stock verifier).
pub const MAX_LOG_FINAL_LEN: usize = 6;

/// The wide circle PCS with the header's parameters over byte hash `H`.
#[derive(Clone, Copy, Debug)]
pub struct WideCircleLean<H> {
    /// log2 of the blowup.
    pub log_blowup: usize,
    /// Queries.
    pub num_queries: usize,
    /// Query proof-of-work bits.
    pub pow_bits: usize,
    /// log2 of the line fold per committed layer.
    pub log_fold_arity: usize,
    /// log2 of the final polynomial's length.
    pub log_final_poly_len: usize,
    /// The Merkle and transcript hash.
    pub hash: H,
}

impl<H> WideCircleLean<H> {
    /// Upstream's circle PCS with the same blowup: the heights and claims are shared.
    fn base(&self) -> CirclePcs<()> {
        CirclePcs {
            log_blowup: self.log_blowup,
            num_queries: self.num_queries,
            pow_bits: self.pow_bits,
            hash: (),
        }
    }

    /// The folds (log2) of every line layer into `out`, and how many: from the tallest line
    /// to `log_final_poly_len + log_blowup`, at most `log_fold_arity` each, stopping at the
    /// shorter input's line (as `crate::circle_pcs::fold_schedule`).
    fn schedule(&self, heights: &[usize], out: &mut [usize; MAX_ROUNDS]) -> Option<usize> {
        let log_final = self.log_final_poly_len + self.log_blowup;
        let mut current = heights.last()? - 1;
        let mut n = 0;
        while current > log_final {
            let mut step = (current - log_final).min(self.log_fold_arity);
            for &h in heights {
                if h - 1 < current && h - 1 > log_final {
                    step = step.min(current - (h - 1));
                }
            }
            *out.get_mut(n)? = step;
            n += 1;
            current -= step;
        }
        Some(n)
    }

    /// Whether a proof of `2^log_n` rows with `num_chunks` quotient chunks fits the lean
    /// verifier's fixed bounds (else the caller runs the stock verifier).
    pub fn within_bounds(&self, log_n: usize, num_chunks: usize) -> bool {
        if !(1..=MAX_LOG_FOLD_ARITY).contains(&self.log_fold_arity)
            || self.log_final_poly_len > MAX_LOG_FINAL_LEN
            || !self.base().within_bounds(log_n, num_chunks)
        {
            return false;
        }
        let g = self.base().geometry(log_n, num_chunks);
        let lowest = g.heights[0].min(g.max_h);
        let mut sched = [0; MAX_ROUNDS];
        lowest > self.log_final_poly_len + self.log_blowup
            && self
                .schedule(&g.heights[..g.num_heights], &mut sched)
                .is_some()
    }
}

/// The inverted twiddles of the `2^a - 1` binary folds inside leaf `leaf` of a line layer of
/// `2^log_len` values, sub-step by sub-step. Sub-step 0 pairs `(2t, 2t + 1)` at the
/// x-coordinates of `base + rev_a(2t) * generator(a)`, `base = generator(log_len + 2) +
/// rev_{log_len - a}(leaf) * generator(log_len)`; each later sub-step's twiddle is
/// `2x^2 - 1` of every second one before it.
fn leaf_twiddles(
    log_len: usize,
    a: usize,
    leaf: usize,
    out: &mut [F; MAX_LEAF],
) -> Result<(), VerifyError> {
    let base = Point::<F>::generator(log_len + 2)
        + Point::<F>::generator(log_len) * reverse_bits(leaf, log_len - a);
    let c = Point::<F>::generator(a);
    let half = 1usize << (a - 1);
    for (t, x) in out[..half].iter_mut().enumerate() {
        *x = (base + c * reverse_bits(2 * t, a)).x;
    }
    let (mut start, mut width, mut n) = (0, half, half);
    while width > 1 {
        for t in 0..width / 2 {
            out[n] = out[start + 2 * t].square().double() - F::ONE;
            n += 1;
        }
        start += width;
        width /= 2;
    }
    let mut scratch = [F::ZERO; MAX_LEAF];
    batch_invert(&mut out[..n], &mut scratch[..n])
}

/// Adds to every query's running value its line value of the input whose line has
/// `2^line` values, if one has (inputs enter at their own height, on a layer boundary).
fn add_input<EF: ExtensionField<F>>(
    heights: &[usize],
    line: usize,
    lines: &[[EF; MAX_HEIGHTS]],
    folded: &mut [EF],
) {
    if let Some(s) = heights.iter().position(|&h| h - 1 == line) {
        for (v, l) in folded.iter_mut().zip(lines) {
            *v += l[s];
        }
    }
}

/// Folds one leaf (`row[..2^a]`) to a value with `beta, beta^2, ...` and the twiddles of
/// [`leaf_twiddles`].
fn fold_row<EF: ExtensionField<F>>(
    row: &mut [EF; MAX_LEAF],
    a: usize,
    twiddles: &[F; MAX_LEAF],
    beta: EF,
) -> EF {
    let (mut width, mut at, mut beta_s) = (1usize << a, 0, beta);
    while width > 1 {
        for t in 0..width / 2 {
            row[t] = fold(twiddles[at + t], beta_s, row[2 * t], row[2 * t + 1]);
        }
        at += width / 2;
        width /= 2;
        beta_s = beta_s.square();
    }
    row[0]
}

impl<EF, H> LeanPcs<F, EF> for WideCircleLean<H>
where
    EF: ExtensionField<F>,
    H: ByteHash,
{
    type Domain = CircleDomain<F>;

    fn min_constraint_degree(&self) -> usize {
        crate::config::WIDE_CIRCLE_MIN_CONSTRAINT_DEGREE
    }

    fn trace_domain(&self, log_n: usize) -> Self::Domain {
        CircleDomain::standard(log_n)
    }

    fn quotient_chunk_domain(
        &self,
        trace: Self::Domain,
        log_chunks: usize,
        i: usize,
    ) -> Self::Domain {
        let log_n = trace.size().trailing_zeros() as usize;
        let log_q = chunk_log_n(log_n, log_chunks) + log_chunks;
        CircleDomain::new(log_q - log_chunks, nth_point(log_q, i))
    }

    fn verify<C: LeanChallenger<F>>(
        &self,
        r: &mut Reader<'_>,
        t: &mut Transcript<F, EF, C>,
        c: &OpeningClaims<'_, EF>,
        scratch: &mut [EF],
    ) -> Result<(), VerifyError> {
        let dim = EF::DIMENSION;
        let width = c.trace_local.len();
        let q = self.num_queries;
        let nc = c.num_chunks;
        if !self.within_bounds(c.log_n, nc) || width > MAX_WIDTH || dim > MAX_DEGREE {
            return Err(VerifyError::Unsupported(
                "shape beyond the lean verifier's bounds",
            ));
        }
        let g = self.base().geometry(c.log_n, nc);
        if g.max_h >= CIRCLE_TWO_ADICITY {
            return Err(VerifyError::ParameterOutOfRange {
                what: "query index bits (log2 of the tallest LDE)",
                value: g.max_h as u32,
                max: CIRCLE_TWO_ADICITY as u32 - 1,
            });
        }
        let nh = g.num_heights;
        let mut sched = [0usize; MAX_ROUNDS];
        let rounds =
            self.schedule(&g.heights[..nh], &mut sched)
                .ok_or(VerifyError::Unsupported(
                    "fold schedule beyond the lean verifier's bounds",
                ))?;
        let final_len = 1usize << self.log_final_poly_len;
        let log_final = self.log_final_poly_len + self.log_blowup;
        // Per-round and per-query state at this proof's counts (bounded above). Challenge-field
        // values: the final polynomial, the folding challenges; per query its DEEP quotient and
        // first-layer pair per height and its folded value. Digests: the commitments; per query
        // its leaf and (two heights) the shorter first-layer row's. The Merkle walk's nodes.
        let mut values = vec![EF::ZERO; final_len + rounds + (3 * MAX_HEIGHTS + 1) * q];
        let (final_poly, rest) = values.split_at_mut(final_len);
        let (betas, rest) = rest.split_at_mut(rounds);
        let (ro, rest) = rest.split_at_mut(MAX_HEIGHTS * q);
        let (pairs, folded) = rest.split_at_mut(2 * MAX_HEIGHTS * q);
        let ro = ro.as_chunks_mut::<MAX_HEIGHTS>().0;
        let pairs = pairs.as_chunks_mut::<2>().0;
        let mut query_state = QueryDigests::new(rounds, q, nh);
        let (commits, digests, injected, nodes, points) = query_state.split();

        // Every value the transcript absorbs comes first in the proof.
        r.expect_len(1)?;
        let first_layer_root = *r.digest()?;
        r.expect_len(nh)?;
        let mut lambdas = [EF::ZERO; MAX_HEIGHTS];
        for l in &mut lambdas[..nh] {
            *l = r.ext()?;
        }
        r.expect_len(rounds)?;
        for d in commits.iter_mut() {
            r.expect_len(1)?;
            *d = *r.digest()?;
        }
        r.expect_len(final_len)?;
        for v in final_poly.iter_mut() {
            *v = r.ext()?;
        }
        let pow_witness = r.elem::<F>()?;
        if self.pow_bits == 0 && pow_witness != F::ZERO {
            return Err(Check::GrindingWitness.into());
        }

        // The transcript (see `crate::circle_pcs`): parameters, claims, alpha, first layer
        // and lambdas, one beta per layer, the final polynomial, proof of work, indices.
        for v in [
            self.log_fold_arity,
            self.log_final_poly_len,
            self.log_blowup,
            q,
            self.pow_bits,
        ] {
            t.observe_base(F::from_usize(v));
        }
        let num_claims = 2 + nc;
        let claim_values = |k: usize| -> &[EF] {
            match k {
                0 => c.trace_local,
                1 => c.trace_next,
                _ => &c.quotient_chunks[(k - 2) * dim..(k - 1) * dim],
            }
        };
        let mut zs = [(EF::ZERO, EF::ZERO); MAX_CLAIMS];
        for (k, z) in zs[..num_claims].iter_mut().enumerate() {
            let zeta = if k == 1 { c.zeta_next } else { c.zeta };
            t.observe_ext(&zeta);
            for v in claim_values(k) {
                t.observe_ext(v);
            }
            *z = point_from_line(zeta)?;
        }
        let alpha = t.sample_ext();
        t.observe_digest(&first_layer_root);
        for l in &lambdas[..nh] {
            t.observe_ext(l);
        }
        let first_beta = t.sample_ext();
        for (d, beta) in commits.iter().zip(betas.iter_mut()) {
            t.observe_digest(d);
            *beta = t.sample_ext();
        }
        for v in final_poly.iter() {
            t.observe_ext(v);
        }
        if self.pow_bits > 0 && !t.check_pow(self.pow_bits, pow_witness) {
            return Err(Check::ProofOfWork.into());
        }
        let mut indices = [0usize; MAX_QUERIES];
        for i in &mut indices[..q] {
            *i = t.sample_bits(g.max_h);
        }

        // What each claim contributes independently of the query: `sum alpha^i value_i`,
        // `alpha^width` and its height's running offset.
        // In the caller's scratch, at the proof's width (bounded above).
        let alpha_pows = scratch
            .get_mut(..width.max(dim))
            .ok_or(VerifyError::Unsupported(
                "scratch shorter than the proof's width",
            ))?;
        let mut p = EF::ONE;
        for a in alpha_pows.iter_mut() {
            *a = p;
            p *= alpha;
        }
        let alpha_pows = &*alpha_pows;
        let alpha_w = alpha.exp_u64(width as u64);
        let alpha_d = alpha.exp_u64(dim as u64);
        let mut offsets = [EF::ONE; MAX_HEIGHTS];
        let mut reduced_at_zeta = [EF::ZERO; MAX_CLAIMS];
        let mut claim_apw = [EF::ZERO; MAX_CLAIMS];
        let mut claim_offset = [EF::ZERO; MAX_CLAIMS];
        for k in 0..num_claims {
            let (apw, h) = if k < 2 {
                (alpha_w, g.trace_h)
            } else {
                (alpha_d, g.chunk_h)
            };
            let slot = g.height_slot(h);
            reduced_at_zeta[k] = claim_values(k)
                .iter()
                .zip(alpha_pows)
                .fold(EF::ZERO, |acc, (&v, &a)| acc + v * a);
            claim_apw[k] = apw;
            claim_offset[k] = offsets[slot];
            offsets[slot] *= apw.square();
        }

        // Input batches, each with its multi-proof; per query and height the DEEP quotient.
        let field_hash = self.hash;
        let compress = self.hash.compression();
        let mut reduced_idx = [[0usize; MAX_HEIGHTS]; MAX_QUERIES];
        for k in 0..q {
            for s in 0..nh {
                let h = g.heights[s];
                let reduced = indices[k] >> (g.max_h - h);
                reduced_idx[k][s] = reduced;
                points[k][s] = nth_point(h, cfft_permute_index(reduced, h));
            }
        }
        let mut leaf_index = [0usize; MAX_QUERIES];
        let mut den = [EF::ZERO; MAX_CLAIMS];
        let mut scratch = [EF::ZERO; MAX_CLAIMS];
        let mut num = [EF::ZERO; MAX_CLAIMS];
        let mut at_x = [EF::ZERO; MAX_CLAIMS];
        r.expect_len(2)?;
        for batch in 0..2 {
            let (mats, cols, h, claims) = if batch == 0 {
                (1, width, g.trace_h, 0..2)
            } else {
                (nc, dim, g.chunk_h, 2..num_claims)
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
                        reduced_x += alpha_pows[i] * v;
                    })?;
                    if batch == 0 {
                        at_x[0] = reduced_x;
                        at_x[1] = reduced_x;
                    } else {
                        at_x[2 + m] = reduced_x;
                    }
                }
                // One matrix (the trace) is one slice, which the lean hasher hashes in place.
                digests[k] = field_hash.hash_iter_slices(slices[..mats].iter().copied());
                leaf_index[k] = reduced_idx[k][slot];
                let x = points[k][slot];
                for j in claims.clone() {
                    let (zx, zy) = zs[j];
                    let dx = zx * x.x + zy * x.y;
                    let dy = zx * x.y - zy * x.x;
                    let re = EF::ONE - dx;
                    num[j] = re + claim_apw[j] * dy;
                    den[j] = re.double();
                }
                batch_invert(&mut den[claims.clone()], &mut scratch[claims.clone()])?;
                for j in claims.clone() {
                    ro[k][slot] +=
                        claim_offset[j] * num[j] * den[j] * (at_x[j] - reduced_at_zeta[j]);
                }
            }
            let (tree, root) = if batch == 0 {
                (Tree::Trace, c.trace_root)
            } else {
                (Tree::Quotient, c.quotient_root)
            };
            merkle::verify_queries::<H>(
                &compress,
                tree,
                root,
                h,
                None,
                &leaf_index[..q],
                |k| (digests[k], [0; 32]),
                |a, b| digests[a] == digests[b],
                nodes,
                &mut [],
                r,
            )?;
        }

        // The first layer: lambda-corrected value and sibling per height, folded by y.
        let mut ys = [F::ZERO; MAX_QUERIES * MAX_HEIGHTS];
        let mut ys_scratch = [F::ZERO; MAX_QUERIES * MAX_HEIGHTS];
        r.expect_len(q)?;
        for k in 0..q {
            r.expect_len(nh)?;
            leaf_index[k] = indices[k] >> 1;
            for s in 0..nh {
                let h = g.heights[s];
                let sibling = r.ext()?;
                let b = reduced_idx[k][s] & 1;
                let p = points[k][s];
                let corrected = ro[k][s] - lambdas[s] * v_n(p.x, h - self.log_blowup);
                pairs[k * MAX_HEIGHTS + s] = if b == 0 {
                    [corrected, sibling]
                } else {
                    [sibling, corrected]
                };
                ys[k * nh + s] = if b == 0 { p.y } else { -p.y };
            }
        }
        batch_invert(&mut ys[..q * nh], &mut ys_scratch[..q * nh])?;
        let lines = ro;
        for k in 0..q {
            for s in 0..nh {
                let [e0, e1] = pairs[k * MAX_HEIGHTS + s];
                lines[k][s] = fold(ys[k * nh + s], first_beta, e0, e1);
            }
        }
        let mut leaf_bytes = [0u8; MAX_LEAF * MAX_DEGREE * F_LEN];
        let mut hash_row = |values: &[EF]| -> Digest {
            let n = ext_bytes(values, &mut leaf_bytes);
            field_hash.hash_slice(&leaf_bytes[..n])
        };
        let tallest = nh - 1;
        let inject_after = (nh == 2).then(|| g.max_h - g.heights[0] - 1);
        merkle::verify_queries::<H>(
            &compress,
            Tree::FirstLayer,
            &first_layer_root,
            g.max_h - 1,
            inject_after,
            &leaf_index[..q],
            |k| {
                let injected = if nh == 2 {
                    hash_row(&pairs[k * MAX_HEIGHTS])
                } else {
                    [0; 32]
                };
                (hash_row(&pairs[k * MAX_HEIGHTS + tallest]), injected)
            },
            |a, b| pairs[a * MAX_HEIGHTS..][..nh] == pairs[b * MAX_HEIGHTS..][..nh],
            nodes,
            injected,
            r,
        )?;

        // Line layers: per layer every query's leaf, its multi-proof, then the folds.
        let mut position = [0usize; MAX_QUERIES];
        for k in 0..q {
            position[k] = indices[k] >> 1;
        }
        let mut current = g.max_h - 1;
        // One leaf buffer: each query's leaf is hashed and folded as it is read (the
        // digests, not the leaves, wait for the layer's multi-proof).
        let mut leaf = [EF::ZERO; MAX_LEAF];
        let mut twiddles = [F::ZERO; MAX_LEAF];
        r.expect_len(rounds)?;
        for round in 0..rounds {
            let a = sched[round];
            let leaf_len = 1usize << a;
            add_input(&g.heights[..nh], current, lines, folded);
            r.expect_len(q)?;
            for k in 0..q {
                r.expect_len(leaf_len - 1)?;
                let at = position[k] & (leaf_len - 1);
                for (j, v) in leaf[..leaf_len].iter_mut().enumerate() {
                    *v = if j == at { folded[k] } else { r.ext()? };
                }
                leaf_index[k] = position[k] >> a;
                digests[k] = hash_row(&leaf[..leaf_len]);
                leaf_twiddles(current, a, leaf_index[k], &mut twiddles)?;
                folded[k] = fold_row(&mut leaf, a, &twiddles, betas[round]);
                position[k] = leaf_index[k];
            }
            merkle::verify_queries::<H>(
                &compress,
                Tree::FriLayer(round as u8),
                &commits[round],
                current - a,
                None,
                &leaf_index[..q],
                |k| (digests[k], [0; 32]),
                |x, y| digests[x] == digests[y],
                nodes,
                &mut [],
                r,
            )?;
            current -= a;
        }
        debug_assert_eq!(current, log_final);
        add_input(&g.heights[..nh], current, lines, folded);
        // The final polynomial at every query's point of the last line.
        let shift = Point::<F>::generator(current + 2);
        let gen = Point::<F>::generator(current);
        for k in 0..q {
            let x = (shift + gen * reverse_bits(position[k], current)).x;
            let value = final_poly
                .iter()
                .rev()
                .fold(EF::ZERO, |acc, &v| acc * x + v);
            if value != folded[k] {
                return Err(Check::FinalPolynomial.into());
            }
        }
        Ok(())
    }
}

/// The wide circle PCS the header describes.
pub fn wide_circle_pcs<H>(file: &ProofFile<'_>, hash: H) -> WideCircleLean<H> {
    let p = &file.header.params;
    WideCircleLean {
        log_blowup: p.log_blowup.into(),
        num_queries: p.num_queries.into(),
        pow_bits: p.pow_bits.into(),
        log_fold_arity: p.log_fold_arity.into(),
        log_final_poly_len: p.log_final_poly_len.into(),
        hash,
    }
}

/// Whether the lean verifier takes this wide-circle proof's shape.
pub fn within_bounds<EF: ExtensionField<F>>(file: &ProofFile<'_>) -> bool {
    let (width, log_chunks) = super::air_shape::<F>(&file.header);
    wide_circle_pcs(file, ()).within_bounds(usize::from(file.header.log_n), 1 << log_chunks)
        && super::air_in_build(file.header.air)
        && width <= MAX_WIDTH
        && EF::DIMENSION <= MAX_DEGREE
        && file.public_inputs.len() <= MAX_PUBLIC
}

/// Verifies a wide-circle `p3-m31` proof with challenge field `EF` and hash `hash`.
pub fn verify_with<EF: ExtensionField<F>, H: ByteHash>(
    file: &ProofFile<'_>,
    hash: H,
) -> Result<(), VerifyError> {
    let challenger = SerializingChallenger32::<F, _>::new(HashChallenger::<u8, H, 32>::new(
        super::transcript_buffer::<F>(file, super::air_shape::<F>(&file.header)),
        hash,
    ));
    super::verify_air::<F, EF, _, _>(file, &wide_circle_pcs(file, hash), challenger)
}

fn verify_ext<EF: ExtensionField<F>>(file: &ProofFile<'_>) -> Option<Result<(), VerifyError>> {
    if !within_bounds::<EF>(file) {
        return None;
    }
    Some(match file.header.hash {
        HashId::Blake3_256 => verify_with::<EF, _>(file, VERIFIER_HASH),
        HashId::Sha256 => verify_with::<EF, _>(file, crate::hash::Sha256Lean),
    })
}

/// The lean verdict for a wide-circle `p3-m31` proof (header checked), or `None` when its
/// shape or challenge field is outside what the lean path takes.
pub fn verify_m31(file: &ProofFile<'_>) -> Option<Result<(), VerifyError>> {
    match file.header.extension_degree {
        4 => verify_ext::<p3_mersenne_31::QM31>(file),
        3 => verify_ext::<p3_field::extension::BinomialExtensionField<F, 3>>(file),
        6 => verify_ext::<crate::config::M31Sextic>(file),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leaf_twiddles_are_the_line_layers_pair_coordinates() {
        for log_len in 4..9 {
            for a in 1..=4usize {
                for leaf in [0usize, 1, 3, (1 << (log_len - a)) - 1] {
                    let mut tw = [F::ZERO; MAX_LEAF];
                    leaf_twiddles(log_len, a, leaf, &mut tw).unwrap();
                    let mut at = 0;
                    for s in 0..a {
                        let w = 1usize << (a - s);
                        for t in 0..w / 2 {
                            let x =
                                crate::circle_pcs::line_x_for_tests(log_len - s, leaf * w + 2 * t);
                            assert_eq!(tw[at] * x, F::ONE, "L {log_len} a {a} leaf {leaf}");
                            at += 1;
                        }
                    }
                }
            }
        }
    }
}

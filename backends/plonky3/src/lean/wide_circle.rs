//! Our [`crate::circle_pcs::WideCirclePcs`] (issue 25: circle lines folded by up to 16 per
//! committed layer, a final line polynomial) as a [`LeanPcs`]: its opening argument read in
//! place from the postcard payload, with per-query and per-round state on the heap at the
//! proof's own query and round counts (one allocation of each kind per verification, after
//! the counts are checked against the `MAX_*` bounds).
//!
//! The input batches, their DEEP quotients and the first (circle-to-line) layer are the
//! same computation as upstream's `CirclePcs` (the passes of `super::circle_inputs`, which
//! both run; helpers from `super::circle`); what differs is the transcript (no domain separator: the PCS's parameters, then
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
use picostark_airs::AirSet;

use p3_circle::{CircleDomain, Point};
use p3_commit::PolynomialSpace;
use p3_field::{ExtensionField, PrimeCharacteristicRing};
use p3_mersenne_31::Mersenne31;
use picostark_core::{digests_equal, Check, Failures, HashId, ProofFile, Tree, VerifyError};

use p3_challenger::SerializingChallenger32;

use super::bounds::{MAX_DEGREE, MAX_PUBLIC, MAX_QUERIES, MAX_ROUNDS, MAX_WIDTH};
use super::circle::{chunk_log_n, CirclePcs, QueryDigests};
use super::circle_domain::{
    base, cm31, ext_bytes, fold, generator, multiple, nth_point, point, point_from_line, Geometry,
    CIRCLE_TWO_ADICITY, F_LEN, MAX_HEIGHTS,
};
use super::circle_inputs::{claim_values, complete_terms, ClaimTerm, InputPass};
use super::math::{batch_invert, ext_equal, reverse_bits};
use super::merkle::{self, Digest};
use super::reader::{Reader, WireField};
use super::transcript::{ByteSponge, LeanChallenger, Transcript};
use super::{LeanPcs, OpeningClaims};
use crate::circle_pcs::MAX_LOG_FOLD_ARITY;
use crate::config::{ByteHash, VERIFIER_HASH};
use picostark_field::CM31;

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

/// `generator(a)^j` for `j < 2^(a - 1)`: where sub-step 0's pairs of a leaf of `2^a` values
/// lie from the leaf's base point (one table a layer, see [`leaf_twiddles`]).
fn leaf_offsets(a: usize, out: &mut [CM31; MAX_LEAF / 2]) {
    let c = generator(a);
    let mut p = CM31::ONE;
    for o in out[..1 << (a - 1)].iter_mut() {
        *o = p;
        p = p.mul(c);
    }
}

/// The base point of leaf `leaf` of a line layer of `2^log_len` values folded by `2^a`:
/// `generator(log_len + 2) + rev_{log_len - a}(leaf) * generator(log_len)` (see
/// [`leaf_twiddles`]), one CM31 product per index bit whatever the index (issue 46).
fn leaf_base(log_len: usize, a: usize, leaf: usize) -> CM31 {
    multiple(
        generator(log_len + 2),
        log_len,
        reverse_bits(leaf, log_len - a),
        log_len - a,
    )
}

/// The twiddles of the `2^a - 1` binary folds inside the leaf at `base_point`
/// ([`leaf_base`]), sub-step by sub-step, into `out` (not inverted: the caller inverts a
/// layer's at once). Sub-step 0 pairs `(2t, 2t + 1)` at the x-coordinates of `base +
/// rev_a(2t) * generator(a)`; `rev_a(2t) = rev_{a-1}(t)`, whose multiples of `generator(a)`
/// are `offsets`, so each is the real part of one product. Each later sub-step's twiddle is
/// `2x^2 - 1` of every second one before it.
fn leaf_twiddles(base_point: CM31, a: usize, offsets: &[CM31; MAX_LEAF / 2], out: &mut [F]) {
    let half = 1usize << (a - 1);
    for (t, x) in out[..half].iter_mut().enumerate() {
        *x = base(base_point.mul(offsets[reverse_bits(t, a - 1)]).re);
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
}

/// `values` inverted in place given `inv`, the inverse of their product (Montgomery's batch
/// inversion without its own inversion); `prefix` is its scratch, as long as `values`.
fn invert_from_product(values: &mut [F], mut inv: F, prefix: &mut [F]) {
    let mut acc = F::ONE;
    for (v, p) in values.iter().zip(prefix.iter_mut()) {
        *p = acc;
        acc *= *v;
    }
    for (v, &p) in values.iter_mut().zip(prefix.iter()).rev() {
        let next = inv * *v;
        *v = inv * p;
        inv = next;
    }
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
            *v = F::ext_add(*v, l[s]);
        }
    }
}

/// Folds one leaf (`row[..2^a]`) to a value with `beta, beta^2, ...` and the twiddles of
/// [`leaf_twiddles`].
fn fold_row<EF: ExtensionField<F>>(
    row: &mut [EF; MAX_LEAF],
    a: usize,
    twiddles: &[F],
    beta: EF,
) -> EF {
    let (mut width, mut at, mut beta_s) = (1usize << a, 0, beta);
    while width > 1 {
        for t in 0..width / 2 {
            row[t] = fold(twiddles[at + t], beta_s, row[2 * t], row[2 * t + 1]);
        }
        at += width / 2;
        width /= 2;
        beta_s = F::ext_square(beta_s);
    }
    row[0]
}

/// The fields a wide-circle proof places before its openings (all of them absorbed by the
/// transcript); the commitments go to the caller's buffer.
struct WideFields<'a, EF> {
    first_layer_root: Digest,
    lambdas: [EF; MAX_HEIGHTS],
    final_poly: &'a [EF],
    pow_witness: F,
}

impl<H: ByteHash> WideCircleLean<H> {
    /// The fields before the openings: first-layer root, lambdas, one commitment per layer
    /// (into `commits`), the final polynomial (into `final_poly`), the proof-of-work witness.
    fn read_fields<'f, EF: ExtensionField<F>>(
        &self,
        r: &mut Reader<'_>,
        nh: usize,
        commits: &mut [Digest],
        final_poly: &'f mut [EF],
        fails: &mut Failures,
    ) -> Result<WideFields<'f, EF>, VerifyError> {
        r.expect_len(1)?;
        let first_layer_root = *r.digest()?;
        r.expect_len(nh)?;
        let mut lambdas = [EF::ZERO; MAX_HEIGHTS];
        for l in &mut lambdas[..nh] {
            r.ext_into(l)?;
        }
        r.expect_len(commits.len())?;
        for d in commits.iter_mut() {
            r.expect_len(1)?;
            *d = *r.digest()?;
        }
        r.expect_len(final_poly.len())?;
        for v in final_poly.iter_mut() {
            r.ext_into(v)?;
        }
        let pow_witness = r.elem::<F>()?;
        fails.check(
            self.pow_bits > 0 || pow_witness == F::ZERO,
            Check::GrindingWitness,
        );
        Ok(WideFields {
            first_layer_root,
            lambdas,
            final_poly,
            pow_witness,
        })
    }

    /// The transcript (see `crate::circle_pcs`): parameters, claims (each claim's point into
    /// `terms`), alpha, first layer and lambdas, one beta per layer (into `betas`), the final
    /// polynomial, proof of work, indices (into `indices`). Returns alpha and the first
    /// layer's beta; a failed proof of work goes to `fails`.
    #[allow(clippy::too_many_arguments)]
    fn replay<EF: ExtensionField<F>, C: LeanChallenger<F>>(
        &self,
        t: &mut Transcript<F, EF, C>,
        c: &OpeningClaims<'_, EF>,
        g: &Geometry,
        fields: &WideFields<'_, EF>,
        commits: &[Digest],
        betas: &mut [EF],
        terms: &mut [ClaimTerm<EF>],
        (indices, fails): (&mut [usize], &mut Failures),
    ) -> Result<(EF, EF), VerifyError> {
        for v in [
            self.log_fold_arity,
            self.log_final_poly_len,
            self.log_blowup,
            self.num_queries,
            self.pow_bits,
        ] {
            t.observe_base(F::from_usize(v));
        }
        for (k, term) in terms.iter_mut().enumerate() {
            let zeta = if k == 1 { c.zeta_next } else { c.zeta };
            t.observe_ext(&zeta);
            for v in claim_values(c, k, EF::DIMENSION) {
                t.observe_ext(v);
            }
            (term.zx, term.zy) = point_from_line(zeta)?;
        }
        let alpha = t.sample_ext();
        t.observe_digest(&fields.first_layer_root);
        for l in &fields.lambdas[..g.num_heights] {
            t.observe_ext(l);
        }
        let first_beta = t.sample_ext();
        for (d, beta) in commits.iter().zip(betas.iter_mut()) {
            t.observe_digest(d);
            *beta = t.sample_ext();
        }
        for v in fields.final_poly {
            t.observe_ext(v);
        }
        if self.pow_bits > 0 {
            fails.check(
                t.check_pow(self.pow_bits, fields.pow_witness),
                Check::ProofOfWork,
            );
        }
        for i in indices.iter_mut() {
            *i = t.sample_bits(g.max_h);
        }
        Ok((alpha, first_beta))
    }

    /// The line layers from `r`: per layer (of `2^sched[round]` values a leaf) every query's
    /// leaf rebuilt from its siblings and running value, hashed and folded, then the layer's
    /// multi-proof; inputs enter at their own height. Leaves each query's value in `folded`
    /// and returns each query's position on the last line.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn fold_layers<EF: ExtensionField<F>>(
        &self,
        r: &mut Reader<'_>,
        g: &Geometry,
        (sched, betas, commits): (&[usize], &[EF], &[Digest]),
        indices: &[usize],
        lines: &[[EF; MAX_HEIGHTS]],
        folded: &mut [EF],
        (digests, bases): (&mut [Digest], &mut [[Point<F>; MAX_HEIGHTS]]),
        (nodes, fails): (&mut [(usize, Digest)], &mut Failures),
    ) -> Result<[usize; MAX_QUERIES], VerifyError> {
        let (q, nh) = (indices.len(), g.num_heights);
        let compress = self.hash.compression();
        let mut leaf_bytes = [0u8; MAX_LEAF * MAX_DEGREE * F_LEN];
        let mut hash_row = |values: &[EF]| -> Digest {
            let n = ext_bytes(values, &mut leaf_bytes);
            self.hash.hash_slice(&leaf_bytes[..n])
        };
        let mut position = [0usize; MAX_QUERIES];
        for k in 0..q {
            position[k] = indices[k] >> 1;
        }
        let mut leaf_index = [0usize; MAX_QUERIES];
        let mut current = g.max_h - 1;
        // One leaf buffer: each query's leaf is hashed and folded as it is read (the
        // digests, not the leaves, wait for the layer's multi-proof).
        let mut leaf = [EF::ZERO; MAX_LEAF];
        let mut offsets = [CM31::ZERO; MAX_LEAF / 2];
        let mut products = [F::ZERO; MAX_QUERIES];
        let mut scratch = [F::ZERO; MAX_QUERIES];
        r.expect_len(sched.len())?;
        let bases = bases.get_mut(..q).ok_or(VerifyError::Unsupported(
            "point buffer shorter than the query count",
        ))?;
        let mut tw = [F::ZERO; MAX_LEAF - 1];
        let mut prefix = [F::ZERO; MAX_LEAF];
        for (round, &a) in sched.iter().enumerate() {
            let leaf_len = 1usize << a;
            let n = leaf_len - 1;
            // Every query's twiddles are inverted with one inversion a layer: the products of
            // each leaf's, inverted together, then each leaf's from its product's inverse.
            // Only each leaf's base point waits for the inversion (in the first layer's
            // point buffer, dead by now): the twiddles are made again from it, a few products
            // a leaf, rather than kept for every query on the heap.
            leaf_offsets(a, &mut offsets);
            for (k, slot) in bases.iter_mut().enumerate() {
                leaf_index[k] = position[k] >> a;
                let base_point = leaf_base(current, a, leaf_index[k]);
                leaf_twiddles(base_point, a, &offsets, &mut tw[..n]);
                products[k] = tw[..n].iter().fold(F::ONE, |p, &x| p * x);
                slot[0] = point(base_point);
            }
            batch_invert(&mut products[..q], &mut scratch[..q])?;
            add_input(&g.heights[..nh], current, lines, folded);
            r.expect_len(q)?;
            for (k, slot) in bases.iter().enumerate() {
                leaf_twiddles(cm31(slot[0]), a, &offsets, &mut tw[..n]);
                invert_from_product(&mut tw[..n], products[k], &mut prefix[..n]);
                r.expect_len(leaf_len - 1)?;
                let at = position[k] & (leaf_len - 1);
                // The siblings around the running value, read in place.
                r.exts(&mut leaf[..at])?;
                leaf[at] = folded[k];
                r.exts(&mut leaf[at + 1..leaf_len])?;
                digests[k] = hash_row(&leaf[..leaf_len]);
                folded[k] = fold_row(&mut leaf, a, &tw[..n], betas[round]);
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
                |x, y| digests_equal(&digests[x], &digests[y]),
                nodes,
                &mut [],
                r,
                fails,
            )?;
            current -= a;
        }
        debug_assert_eq!(current, self.log_final_poly_len + self.log_blowup);
        add_input(&g.heights[..nh], current, lines, folded);
        Ok(position)
    }
}

impl<EF, H> LeanPcs<F, EF> for WideCircleLean<H>
where
    EF: ExtensionField<F>,
    H: ByteHash,
{
    type Domain = CircleDomain<F>;

    fn vanishing_at(&self, domain: Self::Domain, zeta: EF) -> Result<EF, VerifyError> {
        super::circle_domain::vanishing_at(domain, zeta)
    }

    fn next_point_at(&self, domain: Self::Domain, zeta: EF) -> Result<Option<EF>, VerifyError> {
        super::circle_domain::next_point_at(domain, zeta)
    }

    fn selectors_at(
        &self,
        domain: Self::Domain,
        zeta: EF,
    ) -> Result<p3_commit::LagrangeSelectors<EF>, VerifyError> {
        super::circle_domain::selectors_at(domain, zeta)
    }

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
        fails: &mut Failures,
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
        let fields = self.read_fields(r, nh, commits, final_poly, fails)?;
        let mut terms = ClaimTerm::unset();
        let terms = &mut terms[..2 + nc];
        let mut indices = [0usize; MAX_QUERIES];
        let (alpha, first_beta) = self.replay(
            t,
            c,
            &g,
            &fields,
            commits,
            betas,
            terms,
            (&mut indices[..q], fails),
        )?;

        // What each claim contributes independently of the query.
        // In the caller's scratch, at the proof's width (bounded above).
        let alpha_pows = scratch
            .get_mut(..width.max(dim))
            .ok_or(VerifyError::Unsupported(
                "scratch shorter than the proof's width",
            ))?;
        let mut p = EF::ONE;
        for a in alpha_pows.iter_mut() {
            *a = p;
            p = F::ext_mul(p, alpha);
        }
        complete_terms(c, &g, alpha, alpha_pows, terms);
        let pass = InputPass {
            hash: self.hash,
            compress: self.hash.compression(),
            log_blowup: self.log_blowup,
            g,
            claims: c,
            terms,
            alpha_pows,
            indices: &indices[..q],
        };
        let mut reduced_idx = [[0usize; MAX_HEIGHTS]; MAX_QUERIES];
        r.expect_len(2)?;
        pass.open_inputs(
            r,
            &mut reduced_idx,
            points,
            digests,
            nodes,
            ro,
            pairs.as_flattened_mut(),
            fails,
        )?;
        pass.first_layer(
            r,
            &fields.first_layer_root,
            &fields.lambdas,
            first_beta,
            &reduced_idx,
            points,
            pairs,
            ro,
            nodes,
            (injected, &mut *fails),
        )?;
        let position = self.fold_layers(
            r,
            &g,
            (&sched[..rounds], betas, commits),
            &indices[..q],
            ro,
            folded,
            (digests, points),
            (nodes, &mut *fails),
        )?;
        // The final polynomial at every query's point of the last line.
        let current = self.log_final_poly_len + self.log_blowup;
        let shift = generator(current + 2);
        for k in 0..q {
            let x = base(multiple(shift, current, reverse_bits(position[k], current), current).re);
            let value = fields
                .final_poly
                .iter()
                .rev()
                .fold(EF::ZERO, |acc, &v| F::ext_add(F::ext_mul_base(acc, x), v));
            fails.check(
                ext_equal::<F, EF>(&value, &folded[k]),
                Check::FinalPolynomial,
            );
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
pub fn within_bounds<EF: ExtensionField<F>, S: AirSet>(file: &ProofFile<'_>) -> bool {
    let Some((width, log_chunks)) = super::air_shape::<F, S>(&file.header) else {
        return false;
    };
    wide_circle_pcs(file, ()).within_bounds(usize::from(file.header.log_n), 1 << log_chunks)
        && super::air_in_build(file.header.air)
        && width <= MAX_WIDTH
        && EF::DIMENSION <= MAX_DEGREE
        && file.public_inputs.len() <= MAX_PUBLIC
}

/// Verifies a wide-circle `p3-m31` proof with challenge field `EF` and hash `hash`.
pub fn verify_with<EF: ExtensionField<F>, H: ByteHash, S: AirSet>(
    file: &ProofFile<'_>,
    hash: H,
) -> Result<(), VerifyError> {
    let shape = super::air_shape::<F, S>(&file.header)
        .ok_or(VerifyError::Unsupported(super::AIR_NOT_IN_BUILD))?;
    let challenger = SerializingChallenger32::<F, _>::new(ByteSponge::new(
        super::transcript_buffer::<F>(file, shape),
        hash,
    ));
    super::verify_air::<F, EF, _, _, S>(file, &wide_circle_pcs(file, hash), challenger)
}

fn verify_ext<EF: ExtensionField<F>, S: AirSet>(
    file: &ProofFile<'_>,
) -> Option<Result<(), VerifyError>> {
    if !within_bounds::<EF, S>(file) {
        return None;
    }
    Some(match file.header.hash {
        HashId::Blake3_256 => verify_with::<EF, _, S>(file, VERIFIER_HASH),
        HashId::Sha256 => verify_with::<EF, _, S>(file, crate::hash::Sha256Lean),
        HashId::Blake2s256 => return None,
    })
}

/// The lean verdict for a wide-circle `p3-m31` proof (header checked), or `None` when its
/// shape or challenge field is outside what the lean path takes.
pub fn verify_m31<S: AirSet>(file: &ProofFile<'_>) -> Option<Result<(), VerifyError>> {
    match file.header.extension_degree {
        4 => verify_ext::<p3_mersenne_31::QM31, S>(file),
        3 => verify_ext::<p3_field::extension::BinomialExtensionField<F, 3>, S>(file),
        6 => verify_ext::<crate::config::M31Sextic, S>(file),
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
                let mut offsets = [CM31::ZERO; MAX_LEAF / 2];
                leaf_offsets(a, &mut offsets);
                for leaf in [0usize, 1, 3, (1 << (log_len - a)) - 1] {
                    let mut tw = [F::ZERO; MAX_LEAF - 1];
                    leaf_twiddles(leaf_base(log_len, a, leaf), a, &offsets, &mut tw);
                    let mut at = 0;
                    for s in 0..a {
                        let w = 1usize << (a - s);
                        for t in 0..w / 2 {
                            let x =
                                crate::circle_pcs::line_x_for_tests(log_len - s, leaf * w + 2 * t);
                            assert_eq!(tw[at], x, "L {log_len} a {a} leaf {leaf}");
                            at += 1;
                        }
                    }
                    assert_eq!(at, (1 << a) - 1);
                }
            }
        }
    }
}

//! The circle PCS as a [`LeanPcs`]: the opening argument of `p3_circle::CirclePcs` (Plonky3
//! 0.8) for `p3-m31`, read in place and replayed without upstream's transcript machinery.
//!
//! What upstream's `CirclePcs::verify` checks, in the order the proof is laid out:
//! - the input batches (trace at `zeta`/`zeta_next`, quotient chunks at `zeta`) opened at
//!   every query by one pruned Merkle multi-proof per commitment, each row reduced with powers
//!   of the batching challenge `alpha` into a DEEP quotient per LDE height, through the circle
//!   vanishing part `v_p(x, zeta)` (real and imaginary parts, two powers of `alpha` per column);
//! - the first layer: per height, the reduced value corrected by `lambda * v_n(x)` and paired
//!   with its sibling (committed in one tree, one matrix per height), folded by the
//!   y-coordinate with the bivariate challenge;
//! - circle FRI: binary line folds by the x-coordinate (`x -> 2x^2 - 1`), one tree per round,
//!   shorter inputs entering at their own height, down to a constant (no final polynomial);
//! - the query proof of work before the indices, which are `log2(tallest LDE)` bits wide.
//!
//! With one quotient chunk (Fibonacci) the quotient LDE is twice as tall as the trace's, so
//! there are two heights: the first-layer tree then injects the shorter matrix's row on the
//! way up, as upstream's Merkle trees do.
//!
//! Per-query and per-round state (reduced openings, first-layer rows, folded values, leaf
//! digests, commitments, folding challenges, the Merkle walk's nodes) is on the heap at the
//! proof's own query and round counts, allocated once per verification after they are checked
//! against the `MAX_*` bounds shared with the two-adic PCS; the stack keeps indices and base
//! field twiddles per query. The alpha ladder is in the uni-stark layer's scratch at the
//! proof's width and rows are reduced as they are read; the
//! payload is read in two passes with cloned cursors (the transcript needs the final value
//! and the query witness, which the encoding places after the query openings). The circle
//! PCS's domain separator needs upstream's pattern hash: looked up in [`CIRCLE_PATTERNS`](super::patterns::CIRCLE_PATTERNS)
//! (generated from upstream, checked by `circle_pattern_table_is_current`), computed by
//! upstream only for a shape outside it.

use alloc::vec;
use alloc::vec::Vec;
use picostark_airs::AirSet;

use p3_circle::{CircleDomain, CirclePcsShape, Point};
use p3_commit::PolynomialSpace;
use p3_field::{ExtensionField, PrimeCharacteristicRing};
use p3_mersenne_31::Mersenne31;
use picostark_core::{Check, Failures, Tree, VerifyError};

use p3_challenger::SerializingChallenger32;
use p3_field::extension::BinomialExtensionField;
use p3_mersenne_31::QM31;
use picostark_core::{HashId, ProofFile};

use super::bounds::{MAX_CHUNKS, MAX_DEGREE, MAX_PUBLIC, MAX_QUERIES, MAX_ROUNDS, MAX_WIDTH};
use super::circle_domain::{
    base, ext_bytes, fold, generator, multiple, nth_point, point_from_line, Geometry,
    CIRCLE_TWO_ADICITY, F_LEN, MAX_CLAIMS, MAX_HEIGHTS,
};
use super::circle_inputs::{claim_values, complete_terms, ClaimTerm, InputPass};
use super::math::{batch_invert, ext_equal, reverse_bits};
use super::merkle::{self, Digest};
use super::reader::{Reader, WireField, MALFORMED};
use super::transcript::{pattern_hash, ByteSponge, LeanChallenger, Protocol, Transcript};
use super::{LeanPcs, OpeningClaims};
use crate::config::{ByteHash, VERIFIER_HASH};

type F = Mersenne31;

/// The circle PCS's protocol name, as upstream binds it into the separator.
pub use super::patterns::CIRCLE_PCS as PROTOCOL;

/// The circle PCS with the header's parameters over byte hash `H` (binary folding to a
/// constant; no batch or commit-phase grinding).
#[derive(Clone, Copy, Debug)]
pub struct CirclePcs<H> {
    /// log2 of the blowup.
    pub log_blowup: usize,
    /// Queries.
    pub num_queries: usize,
    /// Query proof-of-work bits.
    pub pow_bits: usize,
    /// The Merkle and transcript hash.
    pub hash: H,
}

/// log2 of a quotient chunk's domain: upstream asks the trace domain for a disjoint domain
/// `num_chunks` times as large, which for one chunk is the next larger standard coset.
pub fn chunk_log_n(log_n: usize, log_chunks: usize) -> usize {
    log_n + usize::from(log_chunks == 0)
}

impl<H> CirclePcs<H> {
    pub(crate) fn geometry(&self, log_n: usize, num_chunks: usize) -> Geometry {
        let log_chunks = num_chunks.trailing_zeros() as usize;
        let trace_h = log_n + self.log_blowup;
        let chunk_h = chunk_log_n(log_n, log_chunks) + self.log_blowup;
        let max_h = trace_h.max(chunk_h);
        let (heights, num_heights) = if trace_h == chunk_h {
            ([trace_h, 0], 1)
        } else {
            ([trace_h.min(chunk_h), max_h], 2)
        };
        Geometry {
            trace_h,
            chunk_h,
            max_h,
            heights,
            num_heights,
            rounds: max_h.saturating_sub(self.log_blowup + 1),
        }
    }

    /// Whether a proof of `2^log_n` rows with `num_chunks` quotient chunks fits the lean
    /// verifier's fixed bounds (else the caller runs the stock verifier).
    pub fn within_bounds(&self, log_n: usize, num_chunks: usize) -> bool {
        let g = self.geometry(log_n, num_chunks);
        self.num_queries >= 1
            && self.num_queries <= MAX_QUERIES
            && self.log_blowup >= 1
            && log_n >= 2
            && num_chunks.is_power_of_two()
            && num_chunks <= MAX_CHUNKS
            && g.rounds <= MAX_ROUNDS
    }
}

/// The digests and points a circle PCS verification keeps per round and per query, on the heap
/// at the proof's own counts (checked against the bounds first): the commitments, one per
/// round; per query its leaf digest and, with two heights, the shorter first-layer row's
/// (`injected`); the Merkle walk's nodes; the query's point per height.
pub(crate) struct QueryDigests {
    digests: Vec<Digest>,
    rounds: usize,
    queries: usize,
    nodes: Vec<(usize, Digest)>,
    points: Vec<[Point<F>; MAX_HEIGHTS]>,
}

/// [`QueryDigests::split`]: commitments, leaf digests, injected digests, nodes, points.
pub(crate) type QueryDigestParts<'a> = (
    &'a mut [Digest],
    &'a mut [Digest],
    &'a mut [Digest],
    &'a mut [(usize, Digest)],
    &'a mut [[Point<F>; MAX_HEIGHTS]],
);

impl QueryDigests {
    /// The state of `queries` queries over `rounds` committed rounds and `heights` heights.
    pub(crate) fn new(rounds: usize, queries: usize, heights: usize) -> Self {
        let injected = if heights == 2 { queries } else { 0 };
        QueryDigests {
            digests: vec![[0u8; 32]; rounds + queries + injected],
            rounds,
            queries,
            nodes: vec![(0, [0u8; 32]); queries],
            points: vec![[Point::<F>::generator(1); MAX_HEIGHTS]; queries],
        }
    }

    /// Its parts, borrowed at once.
    pub(crate) fn split(&mut self) -> QueryDigestParts<'_> {
        let (commits, rest) = self.digests.split_at_mut(self.rounds);
        let (leaves, injected) = rest.split_at_mut(self.queries);
        (commits, leaves, injected, &mut self.nodes, &mut self.points)
    }
}

/// The pattern-hash parameters of a circle PCS shape: `[rounds, query_pow_bits, index_bits,
/// num_queries, widths of every claim...]` (no batch or commit-phase grinding).
#[allow(clippy::too_many_arguments)]
fn pattern_params(
    rounds: usize,
    pow_bits: usize,
    index_bits: usize,
    num_queries: usize,
    width: usize,
    num_chunks: usize,
    dim: usize,
    out: &mut [u32; 4 + MAX_CLAIMS],
) -> usize {
    out[0] = rounds as u32;
    out[1] = pow_bits as u32;
    out[2] = index_bits as u32;
    out[3] = num_queries as u32;
    out[4] = width as u32;
    out[5] = width as u32;
    for w in &mut out[6..6 + num_chunks] {
        *w = dim as u32;
    }
    6 + num_chunks
}

/// Upstream's circle pattern hash for `params` (see `pattern_params`): from the tables
/// ([`CIRCLE_PATTERNS`](super::patterns::CIRCLE_PATTERNS) holds the circle shapes) when listed, else computed by upstream.
pub fn circle_pattern<EF: ExtensionField<F>>(params: &[u32]) -> [u8; 32] {
    pattern_hash::<F, EF>(Protocol::Other(PROTOCOL), params, || {
        upstream_pattern::<EF>(params)
    })
}

/// The pattern hash as upstream computes it for `params`.
#[cold]
pub fn upstream_pattern<EF: ExtensionField<F>>(params: &[u32]) -> [u8; 32] {
    use alloc::vec;
    let u = |v: u32| v as usize;
    let trace = vec![vec![u(params[4]), u(params[5])]];
    let chunks = params[6..].iter().map(|&d| vec![u(d)]).collect();
    CirclePcsShape {
        opened_widths: vec![trace, chunks],
        num_commit_rounds: u(params[0]),
        batch_pow_bits: 0,
        commit_pow_bits: 0,
        query_pow_bits: u(params[1]),
        num_queries: u(params[3]),
        index_bits: u(params[2]),
        log_blowup: 0,
    }
    .pattern::<F, EF>()
    .pattern_hash()
}

/// Where pass 1 left a circle proof: its fixed-position fields, and a cursor at each
/// opening section the second pass reads.
struct CircleLayout<'a, EF> {
    first_layer_root: Digest,
    lambdas: [EF; MAX_HEIGHTS],
    /// The input batches' openings.
    inputs: Reader<'a>,
    /// The first layer's siblings and multi-proof.
    first_layer: Reader<'a>,
    /// The FRI rounds' siblings and multi-proofs.
    commit_openings: Reader<'a>,
    final_value: EF,
    query_witness: F,
}

impl<H: ByteHash> CirclePcs<H> {
    /// Pass 1: the fixed-position fields (the commitments into `commits`), every opening
    /// section's structure checked and skipped, remembering where each starts.
    fn read_layout<'a, EF: ExtensionField<F>>(
        &self,
        r: &mut Reader<'a>,
        c: &OpeningClaims<'_, EF>,
        g: &Geometry,
        commits: &mut [Digest],
        fails: &mut Failures,
    ) -> Result<CircleLayout<'a, EF>, VerifyError> {
        let (q, nh, ef_len) = (self.num_queries, g.num_heights, core::mem::size_of::<EF>());
        r.zero_witness::<F>(fails)?; // no batch grinding
        r.expect_len(1)?;
        let first_layer_root = *r.digest()?;
        r.expect_len(nh)?;
        let mut lambdas = [EF::ZERO; MAX_HEIGHTS];
        for l in &mut lambdas[..nh] {
            r.ext_into(l)?;
        }
        r.commit_phase::<F>(commits, fails)?;
        r.expect_len(2)?;
        let inputs = r.clone();
        for (mats, cols) in [(1usize, c.trace_local.len()), (c.num_chunks, EF::DIMENSION)] {
            r.expect_len(q)?;
            for _ in 0..q {
                r.expect_len(mats)?;
                for _ in 0..mats {
                    r.expect_len(cols)?;
                    r.take(cols * F_LEN)?;
                }
            }
            let s = r.seq_len()?;
            r.take(s.checked_mul(32).ok_or(MALFORMED)?)?;
        }
        let first_layer = r.clone();
        r.expect_len(q)?;
        for _ in 0..q {
            r.expect_len(nh)?;
            r.take(nh * ef_len)?;
        }
        let s = r.seq_len()?;
        r.take(s.checked_mul(32).ok_or(MALFORMED)?)?;
        r.expect_len(g.rounds)?;
        let commit_openings = r.clone();
        for _ in 0..g.rounds {
            r.expect_len(q)?;
            for _ in 0..q {
                r.expect_len(1)?;
                r.take(ef_len)?;
            }
            let s = r.seq_len()?;
            r.take(s.checked_mul(32).ok_or(MALFORMED)?)?;
        }
        let final_value = r.ext()?;
        let query_witness = r.elem::<F>()?;
        fails.check(
            self.pow_bits > 0 || query_witness == F::ZERO,
            Check::GrindingWitness,
        );
        Ok(CircleLayout {
            first_layer_root,
            lambdas,
            inputs,
            first_layer,
            commit_openings,
            final_value,
            query_witness,
        })
    }

    /// The transcript: separator, every claim (point then values: each claim's point into
    /// `terms`), alpha, first-layer commitment, bivariate beta, per round commitment and beta
    /// (into `betas`), final value, proof of work, query indices (into `indices`). Returns
    /// alpha and the bivariate beta; a failed proof of work goes to `fails`.
    #[allow(clippy::too_many_arguments)]
    fn replay<EF: ExtensionField<F>, C: LeanChallenger<F>>(
        &self,
        t: &mut Transcript<F, EF, C>,
        c: &OpeningClaims<'_, EF>,
        g: &Geometry,
        layout: &CircleLayout<'_, EF>,
        commits: &[Digest],
        betas: &mut [EF],
        terms: &mut [ClaimTerm<EF>],
        (indices, fails): (&mut [usize], &mut Failures),
    ) -> Result<(EF, EF), VerifyError> {
        let (dim, nc) = (EF::DIMENSION, c.num_chunks);
        let mut params = [0u32; 4 + MAX_CLAIMS];
        let np = pattern_params(
            g.rounds,
            self.pow_bits,
            g.max_h,
            self.num_queries,
            c.trace_local.len(),
            nc,
            dim,
            &mut params,
        );
        let hash = circle_pattern::<EF>(&params[..np]);
        // The instance label: `log_blowup`, then the opening layout (batch count, per batch
        // its matrix count, per matrix its point count).
        let mut layout_label = [1u64; 4 + MAX_CHUNKS];
        layout_label[..4].copy_from_slice(&[2, 1, 2, nc as u64]);
        t.seed(
            Protocol::Other(PROTOCOL),
            &hash,
            &[self.log_blowup as u64],
            &layout_label[..4 + nc],
        );
        for (k, term) in terms.iter_mut().enumerate() {
            let zeta = if k == 1 { c.zeta_next } else { c.zeta };
            let (zx, zy) = point_from_line(zeta)?;
            t.observe_ext(&zx);
            t.observe_ext(&zy);
            for v in claim_values(c, k, dim) {
                t.observe_ext(v);
            }
            term.zx = zx;
            term.zy = zy;
        }
        let alpha = t.sample_ext();
        t.observe_digest(&layout.first_layer_root);
        let bivariate_beta = t.sample_ext();
        for (d, beta) in commits.iter().zip(betas.iter_mut()) {
            t.observe_digest(d);
            *beta = t.sample_ext();
        }
        t.observe_ext(&layout.final_value);
        if self.pow_bits > 0 {
            fails.check(
                t.check_pow(self.pow_bits, layout.query_witness),
                Check::ProofOfWork,
            );
        }
        for i in indices.iter_mut() {
            *i = t.sample_bits(g.max_h);
        }
        Ok((alpha, bivariate_beta))
    }

    /// Pass 2c: circle FRI from `rc`, round by round, each with its Merkle proof: an input of
    /// a round's height enters before its fold, and each query's value ends in `folded`.
    /// The fold twiddle of a query is the x-coordinate of its point, doubled each round.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn fold_rounds<EF: ExtensionField<F>>(
        &self,
        rc: &mut Reader<'_>,
        g: &Geometry,
        indices: &[usize],
        fri_inputs: &[[EF; MAX_HEIGHTS]],
        (betas, commits): (&[EF], &[Digest]),
        pairs: &mut [[EF; 2]],
        folded: &mut [EF],
        (nodes, fails): (&mut [(usize, Digest)], &mut Failures),
    ) -> Result<(), VerifyError> {
        let (q, nh) = (indices.len(), g.num_heights);
        let compress = self.hash.compression();
        let mut leaf_bytes = [0u8; 2 * MAX_DEGREE * F_LEN];
        let mut hash_row = |row: &[EF; 2]| -> Digest {
            let n = ext_bytes(row, &mut leaf_bytes);
            self.hash.hash_slice(&leaf_bytes[..n])
        };
        let mut idx = [0usize; MAX_QUERIES];
        let mut xs = [F::ZERO; MAX_QUERIES];
        let log_fri = g.max_h - 1;
        if g.rounds > 0 {
            let shift = generator(log_fri + 2);
            for k in 0..q {
                let top = indices[k] >> 1;
                idx[k] = top;
                let seed_idx = reverse_bits(top >> 1, log_fri - 1);
                xs[k] = base(multiple(shift, log_fri, seed_idx, log_fri - 1).re);
            }
        }
        let mut x_inv = [F::ZERO; MAX_QUERIES];
        let mut x_scratch = [F::ZERO; MAX_QUERIES];
        for round in 0..g.rounds {
            let log_cur = log_fri - round;
            // An input of this height enters before the fold.
            for (s, &h) in g.heights[..nh].iter().enumerate() {
                if h - 1 == log_cur {
                    for k in 0..q {
                        folded[k] = F::ext_add(folded[k], fri_inputs[k][s]);
                    }
                }
            }
            if round > 0 {
                for k in 0..q {
                    let x = xs[k].square().double() - F::ONE;
                    xs[k] = if (indices[k] >> 1 >> round) & 1 == 1 {
                        -x
                    } else {
                        x
                    };
                }
            }
            x_inv[..q].copy_from_slice(&xs[..q]);
            batch_invert(&mut x_inv[..q], &mut x_scratch[..q])?;
            rc.expect_len(q)?;
            for k in 0..q {
                rc.expect_len(1)?;
                let mut sibling = EF::ZERO;
                rc.ext_into(&mut sibling)?;
                pairs[k] = if idx[k] & 1 == 0 {
                    [folded[k], sibling]
                } else {
                    [sibling, folded[k]]
                };
                idx[k] >>= 1;
                folded[k] = fold(x_inv[k], betas[round], pairs[k][0], pairs[k][1]);
            }
            merkle::verify_queries::<H>(
                &compress,
                Tree::FriLayer(round as u8),
                &commits[round],
                log_cur - 1,
                None,
                &idx[..q],
                |k| (hash_row(&pairs[k]), [0; 32]),
                |a, b| {
                    ext_equal::<F, EF>(&pairs[a][0], &pairs[b][0])
                        & ext_equal::<F, EF>(&pairs[a][1], &pairs[b][1])
                },
                nodes,
                &mut [],
                rc,
                fails,
            )?;
        }
        Ok(())
    }
}

impl<EF, H> LeanPcs<F, EF> for CirclePcs<H>
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

    fn trace_domain(&self, log_n: usize) -> Self::Domain {
        CircleDomain::standard(log_n)
    }

    fn quotient_chunk_domain(
        &self,
        trace: Self::Domain,
        log_chunks: usize,
        i: usize,
    ) -> Self::Domain {
        // Upstream: the disjoint domain `2^log_chunks` times larger, split into twin cosets
        // shifted by its first points.
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
        let g = self.geometry(c.log_n, nc);
        // Upstream refuses an index as wide as the circle group.
        if g.max_h >= CIRCLE_TWO_ADICITY {
            return Err(VerifyError::ParameterOutOfRange {
                what: "query index bits (log2 of the tallest LDE)",
                value: g.max_h as u32,
                max: CIRCLE_TWO_ADICITY as u32 - 1,
            });
        }
        let rounds = g.rounds;
        // Per-round and per-query state at this proof's counts (bounded above). Challenge-field
        // values: the folding challenges; per query its reduced opening and first-layer row per
        // height, its fold pair and folded value. Digests: the commitments; per query its input
        // leaf and (two heights) the shorter first-layer row's. The Merkle walk's nodes.
        let mut values = vec![EF::ZERO; rounds + (3 * MAX_HEIGHTS + 3) * q];
        let (betas, rest) = values.split_at_mut(rounds);
        let (ro, rest) = rest.split_at_mut(MAX_HEIGHTS * q);
        let (rows, rest) = rest.split_at_mut(2 * MAX_HEIGHTS * q);
        let (pairs, folded) = rest.split_at_mut(2 * q);
        let ro = ro.as_chunks_mut::<MAX_HEIGHTS>().0;
        let rows = rows.as_chunks_mut::<2>().0;
        let pairs = pairs.as_chunks_mut::<2>().0;
        let mut query_state = QueryDigests::new(rounds, q, g.num_heights);
        let (commits, digests, injected, nodes, points) = query_state.split();

        let mut layout = self.read_layout(r, c, &g, commits, fails)?;
        let mut terms = ClaimTerm::unset();
        let terms = &mut terms[..2 + nc];
        let mut indices = [0usize; MAX_QUERIES];
        let (alpha, bivariate_beta) = self.replay(
            t,
            c,
            &g,
            &layout,
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
        pass.open_inputs(
            &mut layout.inputs,
            &mut reduced_idx,
            points,
            digests,
            nodes,
            ro,
            rows.as_flattened_mut(),
            fails,
        )?;
        pass.first_layer(
            &mut layout.first_layer,
            &layout.first_layer_root,
            &layout.lambdas,
            bivariate_beta,
            &reduced_idx,
            points,
            rows,
            ro,
            nodes,
            (injected, &mut *fails),
        )?;
        self.fold_rounds(
            &mut layout.commit_openings,
            &g,
            &indices[..q],
            ro,
            (betas, commits),
            pairs,
            folded,
            (nodes, &mut *fails),
        )?;
        // Every input entered on the way (`log_n >= 2` puts the shortest above the last
        // round); each query must end at the constant (every query compared).
        let at_final = folded.iter().fold(true, |ok, v| {
            ok & ext_equal::<F, EF>(v, &layout.final_value)
        });
        fails.check(at_final, Check::FinalPolynomial);
        Ok(())
    }
}

/// The circle PCS the header describes.
pub fn circle_pcs<H>(file: &ProofFile<'_>, hash: H) -> CirclePcs<H> {
    let p = &file.header.params;
    CirclePcs {
        log_blowup: p.log_blowup.into(),
        num_queries: p.num_queries.into(),
        pow_bits: p.pow_bits.into(),
        hash,
    }
}

/// Whether the lean verifier takes this `p3-m31` proof's shape: the header's parameters and
/// the AIR within the fixed bounds (else the caller runs the stock verifier).
pub fn within_bounds<EF: ExtensionField<F>, S: AirSet>(file: &ProofFile<'_>) -> bool {
    let Some((width, log_chunks)) = super::air_shape::<F, S>(&file.header) else {
        return false;
    };
    circle_pcs(file, ()).within_bounds(usize::from(file.header.log_n), 1 << log_chunks)
        && super::air_in_build(file.header.air)
        && width <= MAX_WIDTH
        && EF::DIMENSION <= MAX_DEGREE
        && file.public_inputs.len() <= MAX_PUBLIC
}

/// Verifies a `p3-m31` proof with challenge field `EF` and hash `hash` (header checked).
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
    super::verify_air::<F, EF, _, _, S>(file, &circle_pcs(file, hash), challenger)
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

/// The lean verdict for a `p3-m31` proof of upstream's `CirclePcs` whose header passed the
/// backend's checks, or `None` when its shape or challenge field is outside what this path
/// takes (a `WideCirclePcs` proof among them: `super::verify_m31_file` dispatches both).
pub fn verify_m31<S: AirSet>(file: &ProofFile<'_>) -> Option<Result<(), VerifyError>> {
    if file.header.circle_pcs() == Some(picostark_core::CirclePcsKind::Wide) {
        return None;
    }
    match file.header.extension_degree {
        4 => verify_ext::<QM31, S>(file),
        3 => verify_ext::<BinomialExtensionField<F, 3>, S>(file),
        6 => verify_ext::<crate::config::M31Sextic, S>(file),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::circle_pcs::geometry::cfft_index;
    use crate::lean::patterns::{CIRCLE_PATTERNS, STARK};
    use crate::membership::MembershipOf;
    use alloc::vec::Vec;
    use picostark_air::chain16::CubicChain16;
    use picostark_air::fibonacci::Fibonacci;
    use picostark_air::AirDef;

    #[test]
    fn a_line_point_with_t_squared_minus_one_is_degenerate() {
        // The imaginary unit of QM31's complex base: 1 + t^2 = 0 has no inverse.
        let t = <QM31 as p3_field::BasedVectorSpace<F>>::ith_basis_element(1).unwrap();
        assert_eq!(t.square(), -QM31::ONE);
        assert_eq!(
            point_from_line(t),
            Err(VerifyError::CheckFailed(Check::DegeneratePoint))
        );
        assert!(point_from_line(QM31::ONE).is_ok());
    }

    #[test]
    fn points_and_permutation_match_upstream_domain() {
        // nth_point agrees with the domain's own point order (`points` via split_domains'
        // shifts) and lies on the circle; the permutation is a bijection.
        for log_n in 2..8 {
            let d = CircleDomain::<F>::standard(log_n);
            let shifts = d.split_domains(1 << (log_n - 1));
            for (i, s) in shifts.iter().enumerate() {
                let p = nth_point(log_n, i);
                assert_eq!(
                    s.first_point(),
                    p.to_projective_line().unwrap(),
                    "{log_n} {i}"
                );
                assert_eq!(p.x.square() + p.y.square(), F::ONE);
            }
            let mut seen: Vec<usize> = (0..1 << log_n).map(|i| cfft_index(i, log_n)).collect();
            seen.sort_unstable();
            assert_eq!(seen, (0..1 << log_n).collect::<Vec<_>>());
        }
        assert_ne!(nth_point(4, 1), nth_point(4, 2));
    }

    #[test]
    fn quotient_chunk_domains_match_upstream_split() {
        let pcs = CirclePcs {
            log_blowup: 1,
            num_queries: 1,
            pow_bits: 0,
            hash: crate::config::VERIFIER_HASH,
        };
        for log_n in 2..6 {
            let trace = CircleDomain::<F>::standard(log_n);
            for log_chunks in 0..3 {
                let big = trace.create_disjoint_domain(trace.size() << log_chunks);
                let want = big.split_domains(1 << log_chunks);
                for (i, w) in want.iter().enumerate() {
                    let got = <CirclePcs<_> as LeanPcs<F, QM31>>::quotient_chunk_domain(
                        &pcs, trace, log_chunks, i,
                    );
                    assert_eq!(got, *w, "log_n {log_n} chunks 2^{log_chunks} chunk {i}");
                }
            }
        }
    }

    #[test]
    fn circle_pattern_table_is_current() {
        // Every listed entry equals upstream's hash; on a mismatch or a missing shape, print
        // the table to paste into CIRCLE_PATTERNS.
        let mut expected = alloc::string::String::new();
        let mut complete = true;
        for (protocol, degree, params) in table_shapes() {
            type Cubic = BinomialExtensionField<F, 3>;
            type Sextic = crate::config::M31Sextic;
            let hash = match (protocol == PROTOCOL, degree) {
                (true, 4) => upstream_pattern::<QM31>(&params),
                (true, 6) => upstream_pattern::<Sextic>(&params),
                (true, _) => upstream_pattern::<Cubic>(&params),
                (false, 4) => upstream_stark::<QM31>(params[0]),
                (false, 6) => upstream_stark::<Sextic>(params[0]),
                (false, _) => upstream_stark::<Cubic>(params[0]),
            };
            let listed = CIRCLE_PATTERNS
                .iter()
                .find(|e| e.protocol == protocol && e.degree == degree && e.params == &params[..]);
            match listed {
                Some(e) => assert_eq!(e.hash, hash, "stale entry {params:?}"),
                None => complete = false,
            }
            let name = if protocol == PROTOCOL {
                "PROTOCOL"
            } else {
                "STARK"
            };
            expected.push_str(&alloc::format!(
                "    PatternEntry {{ protocol: {name}, modulus: M31, degree: {degree}, params: &{params:?}, hash: {hash:?} }},\n"
            ));
        }
        if !complete {
            std::println!("{expected}");
            panic!("CIRCLE_PATTERNS is missing shapes: paste the table printed above");
        }
        // The lookups the verifier makes return upstream's hash.
        let p = [15u32, 20, 17, 14, 2, 2, 4];
        assert_eq!(circle_pattern::<QM31>(&p), upstream_pattern::<QM31>(&p));
        assert_eq!(
            super::super::transcript::stark_pattern::<F, QM31>(&[1]),
            upstream_stark::<QM31>(1)
        );
    }

    fn upstream_stark<EF: ExtensionField<F>>(num_public: u32) -> [u8; 32] {
        super::super::transcript::upstream_stark_pattern::<F, EF>(num_public)
    }

    extern crate std;

    /// The shapes the table covers: every challenge field, the three AIRs (Fibonacci: width 2,
    /// one quotient chunk; CubicChain16: width 16, four chunks; membership: width 238, eight
    /// chunks, at its benchmark length 2^4 only), default and foundation
    /// parameters, every trace length the header limits allow.
    fn table_shapes() -> Vec<(&'static [u8], u8, Vec<u32>)> {
        let mut out = Vec::new();
        // The proven100 preset (blowup 2^8, 20 queries, 24 PoW bits) over the sextic, the
        // default and foundation parameters over QM31 and the cubic extension.
        for (degree, params) in [
            (4u8, [(6u32, 14u32, 20u32), (3, 27, 16)]),
            (3, [(6, 14, 20), (3, 27, 16)]),
            (6, [(6, 14, 20), (8, 20, 24)]),
        ] {
            for air_public in [
                Fibonacci.num_public_inputs(),
                CubicChain16.num_public_inputs(),
                MembershipOf::<F>::default().num_public_inputs(),
            ] {
                out.push((STARK, degree, alloc::vec![air_public as u32]));
            }
            let membership = MembershipOf::<F>::default();
            let membership = (
                membership.width() as u32,
                1usize << super::super::uni_stark::log_quotient_chunks(&membership, 2),
            );
            for (width, chunks) in [(2u32, 1usize), (16, 4), membership] {
                for (log_blowup, queries, pow) in params {
                    // Membership: its benchmark length only (depth 10, 16 rows).
                    let log_ns = if width == membership.0 {
                        4..=4
                    } else {
                        3..=(30 - log_blowup)
                    };
                    for log_n in log_ns {
                        let extra = u32::from(chunks == 1);
                        let max_h = log_n + log_blowup + extra;
                        if max_h >= 31 {
                            continue;
                        }
                        let mut p =
                            alloc::vec![max_h - log_blowup - 1, pow, max_h, queries, width, width];
                        p.extend(core::iter::repeat_n(u32::from(degree), chunks));
                        out.push((PROTOCOL, degree, p));
                    }
                }
            }
        }
        out
    }
}

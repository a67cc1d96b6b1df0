//! Two-adic FRI as a [`LeanPcs`]: the opening argument of `TwoAdicFriPcs` (batch openings with
//! pruned Merkle multi-proofs read in place, reduced openings, folding by the header's arity,
//! final polynomial, query proof of work) for our configurations: one-root Merkle caps, binary
//! trees, every committed matrix as tall as the LDE, no batch or commit-phase grinding.
//!
//! Per-query and per-round state (folded values, inverse denominators, leaf digests, the
//! folding challenges, commitments and final polynomial) is on the heap at the proof's own
//! query and round counts, allocated once per verification after the header's counts are
//! checked against [`MAX_QUERIES`] and [`MAX_ROUNDS`]: the stack keeps only an index per
//! query and one row's values. The alpha ladder is in the scratch the uni-stark layer
//! allocates at the proof's width (at most [`MAX_WIDTH`]), and trace rows are reduced as they
//! are read. The payload is read in two passes
//! with cloned cursors (the transcript needs the final polynomial and the query witness,
//! which the encoding places after the query openings).

use alloc::vec;

use p3_field::coset::TwoAdicMultiplicativeCoset;
use p3_field::{ExtensionField, TwoAdicField};
use picostark_core::{Check, Failures, Tree, VerifyError};

use super::bounds::{
    MAX_CHUNKS, MAX_DEGREE, MAX_LOG_ARITY, MAX_LOG_FINAL_POLY_LEN, MAX_QUERIES, MAX_ROUNDS,
    MAX_WIDTH,
};
use super::math::{batch_invert_ext, ext_equal, pow_fixed, reverse_bits, root_inverse};
use super::merkle::{self, Digest};
use super::reader::{Reader, WireField, MALFORMED};
use super::transcript::{fri_pattern, pcs_pattern, LeanChallenger, Protocol, Transcript};
use super::{LeanPcs, OpeningClaims};
use crate::config::ByteHash;

/// The narrowest trace row whose DEEP reduction is accumulated unreduced
/// ([`WireField::dot_add`]).
const LAZY_DOT_MIN_WIDTH: usize = 8;

/// Two-adic FRI with the header's parameters over byte hash `H`.
#[derive(Clone, Copy, Debug)]
pub struct TwoAdicPcs<H> {
    /// log2 of the blowup.
    pub log_blowup: usize,
    /// Queries.
    pub num_queries: usize,
    /// Query proof-of-work bits.
    pub pow_bits: usize,
    /// log2 of the widest fold.
    pub max_log_arity: usize,
    /// log2 of the final polynomial's length.
    pub log_final_poly_len: usize,
    /// The Merkle and transcript hash.
    pub hash: H,
}

impl<H> TwoAdicPcs<H> {
    /// Whether these parameters fit the lean verifier's fixed bounds.
    pub fn within_bounds(&self, log_n: usize) -> bool {
        self.num_queries >= 1
            && self.num_queries <= MAX_QUERIES
            && self.max_log_arity >= 1
            && self.max_log_arity <= MAX_LOG_ARITY
            && self.log_blowup >= 1
            && self.log_final_poly_len <= MAX_LOG_FINAL_POLY_LEN
            && log_n + self.log_blowup > self.log_blowup + self.log_final_poly_len
            && self.rounds(log_n) <= MAX_ROUNDS
    }

    fn log_final_height(&self) -> usize {
        self.log_blowup + self.log_final_poly_len
    }

    /// The number of folding rounds (upstream's `fold_schedule` for one input height).
    fn rounds(&self, log_n: usize) -> usize {
        let drop = (log_n + self.log_blowup).saturating_sub(self.log_final_height());
        drop.div_ceil(self.max_log_arity.max(1))
    }

    /// Arity (log2) of round `round`: the configured maximum, the last round takes the rest.
    fn log_arity(&self, log_n: usize, round: usize) -> usize {
        let drop = log_n + self.log_blowup - self.log_final_height();
        (drop - round * self.max_log_arity).min(self.max_log_arity)
    }
}

/// The hash of `parts` concatenated, gathered in `buf` (zeroed once by the caller, not per
/// leaf as the hasher's own buffer is); longer inputs go through `hash_iter_slices`.
fn hash_parts<H: ByteHash>(hash: &H, buf: &mut [u8], parts: &[&[u8]]) -> Digest {
    let total: usize = parts.iter().map(|p| p.len()).sum();
    if total > buf.len() {
        return hash.hash_iter_slices(parts.iter().copied());
    }
    let mut n = 0;
    for p in parts {
        buf[n..n + p.len()].copy_from_slice(p);
        n += p.len();
    }
    hash.hash_slice(&buf[..n])
}

/// One FRI round's fold: the value at `beta` of the polynomial through a row of `2^log_arity`
/// evaluations on the coset `start * <w>` (listed in bit-reversed order), computed as
/// `log_arity` binary folds with `beta, beta^2, beta^4, ...` (the same polynomial identity
/// upstream's Lagrange interpolation evaluates, without its inversions): adjacent entries sit
/// at `x` and `-x`, and fold to `(lo + hi + b (lo - hi) / x) / 2` at `x^2`. The halvings are
/// left out of the binary folds (the fold is linear) and applied once, as `2^-log_arity`.
struct FoldRound<F, EF> {
    log_arity: usize,
    log_height: usize,
    /// Inverse of the generator whose powers give each row's `start`.
    g_inv: F,
    /// `w^-rev(j)` for the even positions `2j` of the first binary fold.
    w_inv: [F; 1 << (MAX_LOG_ARITY - 1)],
    /// `beta^(2^l)` for binary fold `l`.
    betas: [EF; MAX_LOG_ARITY],
    /// `2^-log_arity`.
    scale: F,
}

impl<F: TwoAdicField + WireField, EF: ExtensionField<F>> FoldRound<F, EF> {
    /// The round that folds rows of `2^log_arity` down to height `2^log_height`.
    fn new(log_height: usize, log_arity: usize, beta: EF) -> Self {
        let g_inv = root_inverse(
            F::two_adic_generator(log_height + log_arity),
            log_height + log_arity,
        );
        let w_inv = root_inverse(F::two_adic_generator(log_arity), log_arity);
        let half = 1usize << (log_arity - 1);
        let mut table = [F::ZERO; 1 << (MAX_LOG_ARITY - 1)];
        let mut p = F::ONE;
        for k in 0..half {
            table[reverse_bits(k, log_arity - 1)] = p;
            p *= w_inv;
        }
        let mut betas = [EF::ZERO; MAX_LOG_ARITY];
        let mut b = beta;
        for slot in &mut betas[..log_arity] {
            *slot = b;
            b = b.square();
        }
        let mut scale = F::ONE;
        for _ in 0..log_arity {
            scale = scale.halve();
        }
        Self {
            log_arity,
            log_height,
            g_inv,
            w_inv: table,
            betas,
            scale,
        }
    }

    /// Folds the row (destroying it) of the group at `index` of the folded height.
    fn fold(&self, index: usize, row: &mut [EF]) -> EF {
        let start_inv = pow_fixed(
            self.g_inv,
            reverse_bits(index, self.log_height),
            self.log_height,
        );
        let mut inv_x = [F::ZERO; 1 << (MAX_LOG_ARITY - 1)];
        let mut m = 1usize << self.log_arity;
        for (slot, &w) in inv_x[..m / 2].iter_mut().zip(&self.w_inv) {
            *slot = start_inv * w;
        }
        for &beta in &self.betas[..self.log_arity] {
            let half = m / 2;
            for j in 0..half {
                let (lo, hi) = (row[2 * j], row[2 * j + 1]);
                let even = F::ext_add(lo, hi);
                row[j] = F::ext_add(
                    even,
                    F::ext_mul_base(F::ext_mul(F::ext_sub(lo, hi), beta), inv_x[j]),
                );
            }
            for j in 0..half / 2 {
                inv_x[j] = inv_x[2 * j].square();
            }
            m = half;
        }
        F::ext_mul_base(row[0], self.scale)
    }
}

/// Where pass 1 left a two-adic proof: a cursor at the input batches' openings and at the
/// commit phase's, and the query proof-of-work witness.
struct TwoAdicLayout<'a, F> {
    inputs: Reader<'a>,
    commit_openings: Reader<'a>,
    query_witness: F,
}

/// The DEEP reduction's query-independent parts: one alpha ladder over every opened column
/// (trace at both points, then the quotient chunks) and each claim's reduced value.
struct Reduction<'a, EF> {
    alpha_pows: &'a [EF],
    sum_local: EF,
    sum_next: EF,
    sum_quot: EF,
}

impl<H: ByteHash> TwoAdicPcs<H> {
    /// Pass 1: the fixed-position fields (the commitments into `commits`, the final
    /// polynomial into `final_poly`), the opening sections' structure checked and skipped,
    /// remembering where the query openings start.
    fn read_layout<'a, F: TwoAdicField + WireField, EF: ExtensionField<F>>(
        &self,
        r: &mut Reader<'a>,
        c: &OpeningClaims<'_, EF>,
        commits: &mut [Digest],
        final_poly: &mut [EF],
        fails: &mut Failures,
    ) -> Result<TwoAdicLayout<'a, F>, VerifyError> {
        let q = self.num_queries;
        r.zero_witness::<F>(fails)?; // no batch grinding
        r.commit_phase::<F>(commits, fails)?;
        r.expect_len(2)?;
        let inputs = r.clone();
        // Skip the two batch openings and the commit-phase openings (structure checked here,
        // values in pass 2).
        let f_len = F::WIRE_LEN;
        let ef_len = EF::DIMENSION * F::WIRE_LEN;
        for widths in [(1usize, c.trace_local.len()), (c.num_chunks, EF::DIMENSION)] {
            r.expect_len(q)?;
            for _ in 0..q {
                r.expect_len(widths.0)?;
                for _ in 0..widths.0 {
                    r.expect_len(widths.1)?;
                    r.take(widths.1 * f_len)?;
                }
            }
            let s = r.seq_len()?;
            r.take(s.checked_mul(32).ok_or(MALFORMED)?)?;
        }
        r.expect_len(commits.len())?;
        let commit_openings = r.clone();
        for round in 0..commits.len() {
            let arity = 1usize << self.log_arity(c.log_n, round);
            r.expect_len(q)?;
            for _ in 0..q {
                r.expect_len(arity - 1)?;
                r.take((arity - 1) * ef_len)?;
            }
            let s = r.seq_len()?;
            r.take(s.checked_mul(32).ok_or(MALFORMED)?)?;
        }
        r.expect_len(final_poly.len())?;
        for v in final_poly.iter_mut() {
            r.ext_into::<F, EF>(v)?;
        }
        let query_witness = r.elem::<F>()?;
        fails.check(
            self.pow_bits > 0 || query_witness == F::ZERO,
            Check::GrindingWitness,
        );
        Ok(TwoAdicLayout {
            inputs,
            commit_openings,
            query_witness,
        })
    }

    /// The PCS transcript (claimed openings, batching challenge alpha), then the FRI one
    /// (commitments and folding challenges into `betas`, final polynomial, proof of work,
    /// query indices into `indices`). Returns alpha; a failed proof of work goes to `fails`.
    #[allow(clippy::too_many_arguments)]
    fn replay<F: TwoAdicField + WireField, EF: ExtensionField<F>, C: LeanChallenger<F>>(
        &self,
        t: &mut Transcript<F, EF, C>,
        c: &OpeningClaims<'_, EF>,
        commits: &[Digest],
        final_poly: &[EF],
        query_witness: F,
        betas: &mut [EF],
        indices: &mut [usize],
        fails: &mut Failures,
    ) -> Result<EF, VerifyError> {
        let (width, dim, rounds) = (c.trace_local.len(), EF::DIMENSION, commits.len());
        let mut widths = [0u32; 2 + MAX_CHUNKS];
        widths[0] = width as u32;
        widths[1] = width as u32;
        for w in &mut widths[2..2 + c.num_chunks] {
            *w = dim as u32;
        }
        let widths = &widths[..2 + c.num_chunks];
        let hash = pcs_pattern::<F, EF>(widths);
        let mut inst = [0u64; 3 + 1 + MAX_CHUNKS];
        inst[0] = 2;
        inst[1] = 1;
        inst[2] = 2;
        inst[3] = c.num_chunks as u64;
        for v in &mut inst[4..4 + c.num_chunks] {
            *v = 1;
        }
        t.seed(Protocol::FriPcs, &hash, &inst[..4 + c.num_chunks], &[]);
        for v in c
            .trace_local
            .iter()
            .chain(c.trace_next)
            .chain(c.quotient_chunks)
        {
            t.observe_ext(v);
        }
        let alpha = t.sample_ext();

        let log_max = c.log_n + self.log_blowup;
        let hash = fri_pattern::<F, EF>(&[
            rounds as u32,
            final_poly.len() as u32,
            self.pow_bits as u32,
            log_max as u32,
            indices.len() as u32,
        ]);
        let mut inst = [0u64; 2 + MAX_ROUNDS];
        inst[0] = self.log_blowup as u64;
        inst[1] = self.max_log_arity as u64;
        for (round, v) in inst[2..2 + rounds].iter_mut().enumerate() {
            *v = self.log_arity(c.log_n, round) as u64;
        }
        t.seed(Protocol::Fri, &hash, &inst[..2 + rounds], &[]);
        for (d, beta) in commits.iter().zip(betas.iter_mut()) {
            t.observe_digest(d);
            *beta = t.sample_ext();
        }
        for v in final_poly.iter() {
            t.observe_ext(v);
        }
        fails.check(
            t.check_pow(self.pow_bits, query_witness),
            Check::ProofOfWork,
        );
        for i in indices.iter_mut() {
            *i = t.sample_bits(log_max);
        }
        Ok(alpha)
    }

    /// Pass 2a from `ri`: the trace batch, then the quotient batch, each with its Merkle
    /// proof; per query into `folded` its reduced opening, the sum over the opened (point,
    /// column) pairs of `alpha^k (p(z) - p(x)) / (z - x)` (`inv`: the inverse denominators,
    /// two per query). A leaf hashes its rows' wire bytes (what upstream's `into_bytes`
    /// gives), straight from the payload.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn open_inputs<F: TwoAdicField + WireField, EF: ExtensionField<F>>(
        &self,
        ri: &mut Reader<'_>,
        c: &OpeningClaims<'_, EF>,
        red: &Reduction<'_, EF>,
        (indices, pos): (&[usize], &[u8; MAX_QUERIES]),
        inv: &[EF],
        leaves: &mut [(usize, Digest)],
        (folded, fails): (&mut [EF], &mut Failures),
    ) -> Result<(), VerifyError> {
        let (width, dim, q) = (c.trace_local.len(), EF::DIMENSION, indices.len());
        let log_max = c.log_n + self.log_blowup;
        let compress = self.hash.compression();
        let mut leaf_buf = [0u8; crate::hash::BUFFER];
        ri.expect_len(q)?;
        // The row is opened at both points with the same values, and the next-row ladder is
        // the local one times alpha^width, so one reduction serves both:
        // sum_i alpha^(width + i) v_i = alpha^width * sum_i alpha^i v_i.
        let pows_local = &red.alpha_pows[..width];
        let alpha_width = red.alpha_pows[width];
        for k in 0..q {
            ri.expect_len(1)?;
            ri.expect_len(width)?;
            // The row's values go straight into the reduction (no row buffer). A wide row:
            // one unreduced sum per coefficient of the challenge field (a base-field value
            // times an extension element is a product per coefficient), reduced once; a
            // narrow one (Fibonacci's two columns) does not repay the final reductions.
            let (bytes, at_local) = if width >= LAZY_DOT_MIN_WIDTH {
                let mut acc = [F::DotAcc::default(); MAX_DEGREE];
                let bytes = ri.elems_each::<F>(width, |i, v| {
                    let coeffs = pows_local[i].as_basis_coefficients_slice();
                    for (a, &c) in acc[..dim].iter_mut().zip(coeffs) {
                        F::dot_add(a, c, v);
                    }
                })?;
                (
                    bytes,
                    EF::from_basis_coefficients_fn(|j| F::dot_finish(acc[j])),
                )
            } else {
                let mut at = EF::ZERO;
                let bytes =
                    ri.elems_each::<F>(width, |i, v| at += F::ext_mul_base(pows_local[i], v))?;
                (bytes, at)
            };
            leaves[pos[k] as usize] = (indices[k], self.hash.hash_slice(bytes));
            let at_next = F::ext_mul(at_local, alpha_width);
            folded[k] = F::ext_add(
                F::ext_mul(F::ext_sub(red.sum_local, at_local), inv[2 * k]),
                F::ext_mul(F::ext_sub(red.sum_next, at_next), inv[2 * k + 1]),
            );
        }
        merkle::verify_sorted::<H>(
            &compress,
            Tree::Trace,
            c.trace_root,
            log_max,
            leaves,
            ri,
            fails,
        )?;
        ri.expect_len(q)?;
        let mut qrows = [F::ZERO; MAX_CHUNKS * MAX_DEGREE];
        for k in 0..q {
            ri.expect_len(c.num_chunks)?;
            let mut slices: [&[u8]; MAX_CHUNKS] = [&[]; MAX_CHUNKS];
            for (chunk, slice) in qrows[..c.num_chunks * dim]
                .chunks_exact_mut(dim)
                .zip(&mut slices)
            {
                ri.expect_len(dim)?;
                *slice = ri.elems(chunk)?;
            }
            let rows = &qrows[..c.num_chunks * dim];
            let leaf = hash_parts(&self.hash, &mut leaf_buf, &slices[..c.num_chunks]);
            leaves[pos[k] as usize] = (indices[k], leaf);
            let at_x = rows
                .iter()
                .zip(&red.alpha_pows[2 * width..])
                .fold(EF::ZERO, |acc, (&v, &a)| {
                    F::ext_add(acc, F::ext_mul_base(a, v))
                });
            folded[k] = F::ext_add(
                folded[k],
                F::ext_mul(F::ext_sub(red.sum_quot, at_x), inv[2 * k]),
            );
        }
        merkle::verify_sorted::<H>(
            &compress,
            Tree::Quotient,
            c.quotient_root,
            log_max,
            leaves,
            ri,
            fails,
        )
    }

    /// Pass 2b from `rc`: every query folded round by round, each round's Merkle proof
    /// checked. A leaf is the row's siblings from the payload with the query's own value in
    /// its slot. Leaves each query's index on the final domain in `idx`, its value in
    /// `folded`.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn fold_rounds<F: TwoAdicField + WireField, EF: ExtensionField<F>>(
        &self,
        rc: &mut Reader<'_>,
        log_n: usize,
        (betas, commits): (&[EF], &[Digest]),
        pos: &[u8; MAX_QUERIES],
        idx: &mut [usize],
        leaves: &mut [(usize, Digest)],
        (folded, fails): (&mut [EF], &mut Failures),
    ) -> Result<(), VerifyError> {
        let q = idx.len();
        let ef_len = EF::DIMENSION * F::WIRE_LEN;
        let compress = self.hash.compression();
        let mut leaf_buf = [0u8; crate::hash::BUFFER];
        let mut log_h = log_n + self.log_blowup;
        let mut own_bytes = [0u8; MAX_DEGREE * 8];
        let mut evals = [EF::ZERO; 1 << MAX_LOG_ARITY];
        for (round, commit) in commits.iter().enumerate() {
            let log_arity = self.log_arity(log_n, round);
            let arity = 1usize << log_arity;
            let log_folded = log_h - log_arity;
            let fold = FoldRound::<F, EF>::new(log_folded, log_arity, betas[round]);
            rc.expect_len(q)?;
            for k in 0..q {
                rc.expect_len(arity - 1)?;
                let siblings = rc.take((arity - 1) * ef_len)?;
                let own = idx[k] % arity;
                let mut sr = Reader::new(siblings);
                sr.exts::<F, EF>(&mut evals[..own])?;
                evals[own] = folded[k];
                sr.exts::<F, EF>(&mut evals[own + 1..arity])?;
                let mut n = 0;
                for v in folded[k].as_basis_coefficients_slice() {
                    for b in v.into_bytes() {
                        own_bytes[n] = b;
                        n += 1;
                    }
                }
                let (before, after) = siblings.split_at(own * ef_len);
                let leaf = hash_parts(&self.hash, &mut leaf_buf, &[before, &own_bytes[..n], after]);
                idx[k] >>= log_arity;
                leaves[pos[k] as usize] = (idx[k], leaf);
                folded[k] = fold.fold(idx[k], &mut evals[..arity]);
            }
            merkle::verify_sorted::<H>(
                &compress,
                Tree::FriLayer(round as u8),
                commit,
                log_folded,
                leaves,
                rc,
                fails,
            )?;
            log_h = log_folded;
        }
        Ok(())
    }
}

impl<F, EF, H> LeanPcs<F, EF> for TwoAdicPcs<H>
where
    F: TwoAdicField + WireField,
    EF: ExtensionField<F>,
    H: ByteHash,
{
    type Domain = TwoAdicMultiplicativeCoset<F>;

    fn trace_domain(&self, log_n: usize) -> Self::Domain {
        TwoAdicMultiplicativeCoset::new(F::ONE, log_n).expect("log_n checked against the field")
    }

    fn quotient_chunk_domain(
        &self,
        trace: Self::Domain,
        log_chunks: usize,
        i: usize,
    ) -> Self::Domain {
        let big_log = trace.log_size() + log_chunks;
        let shift = trace.shift() * F::GENERATOR * F::two_adic_generator(big_log).exp_u64(i as u64);
        TwoAdicMultiplicativeCoset::new(shift, trace.log_size()).expect("nonzero shift")
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
        let log_max = c.log_n + self.log_blowup;
        let rounds = self.rounds(c.log_n);
        if !self.within_bounds(c.log_n)
            || width > MAX_WIDTH
            || c.num_chunks > MAX_CHUNKS
            || dim > MAX_DEGREE
        {
            return Err(VerifyError::Unsupported(
                "shape beyond the lean verifier's bounds",
            ));
        }
        let final_len = 1usize << self.log_final_poly_len;
        // Per-round and per-query state at this proof's counts (bounded above): the final
        // polynomial, the folding challenges, both inverse denominators and the folded value
        // of every query; the commitments; the leaves of one tree.
        let mut values = vec![EF::ZERO; final_len + rounds + 5 * q];
        let (final_poly, rest) = values.split_at_mut(final_len);
        let (betas, rest) = rest.split_at_mut(rounds);
        let (inv, rest) = rest.split_at_mut(2 * q);
        let (inv_scratch, folded) = rest.split_at_mut(2 * q);
        let mut commits = vec![[0u8; 32]; rounds];
        let mut leaves = vec![(0usize, [0u8; 32]); q];

        let mut layout = self.read_layout(r, c, &mut commits, final_poly, fails)?;
        let mut indices = [0usize; MAX_QUERIES];
        let alpha = self.replay(
            t,
            c,
            &commits,
            final_poly,
            layout.query_witness,
            betas,
            &mut indices[..q],
            fails,
        )?;
        let pos = merkle::sorted_positions(&indices[..q]);

        // Reduced openings: sum over the opened (point, column) pairs of
        // alpha^k (p(z) - p(x)) / (z - x), one alpha ladder over every column at this height.
        // In the caller's scratch, at the proof's width (bounded above).
        let ladder = 2 * width + c.num_chunks * dim;
        let alpha_pows = scratch.get_mut(..ladder).ok_or(VerifyError::Unsupported(
            "scratch shorter than the proof's width",
        ))?;
        let mut p = EF::ONE;
        for a in alpha_pows.iter_mut() {
            *a = p;
            p = F::ext_mul(p, alpha);
        }
        let alpha_pows = &*alpha_pows;
        let dot = |vals: &[EF], from: usize| -> EF {
            vals.iter()
                .zip(&alpha_pows[from..])
                .fold(EF::ZERO, |acc, (&v, &a)| F::ext_add(acc, F::ext_mul(v, a)))
        };
        let red = Reduction {
            alpha_pows,
            sum_local: dot(c.trace_local, 0),
            sum_next: dot(c.trace_next, width),
            sum_quot: dot(c.quotient_chunks, 2 * width),
        };

        // 1/(zeta - x) and 1/(zeta_next - x) for every query, one inversion in all.
        let g = F::two_adic_generator(log_max);
        for (k, &index) in indices[..q].iter().enumerate() {
            let x = F::GENERATOR * pow_fixed(g, reverse_bits(index, log_max), log_max);
            // zeta on the domain (a chance of about |domain| / |EF|): recorded, and a one
            // stands in so the inversion and the rest run as for any other point.
            inv[2 * k] = c.zeta - x;
            inv[2 * k + 1] = c.zeta_next - x;
            for d in &mut inv[2 * k..2 * k + 2] {
                let zero = d.is_zero();
                fails.check(!zero, Check::DegeneratePoint);
                *d = [*d, EF::ONE][usize::from(zero)];
            }
        }
        batch_invert_ext::<F, EF>(inv, inv_scratch)?;

        self.open_inputs(
            &mut layout.inputs,
            c,
            &red,
            (&indices[..q], &pos),
            inv,
            &mut leaves,
            (&mut *folded, &mut *fails),
        )?;
        let mut idx = indices;
        self.fold_rounds(
            &mut layout.commit_openings,
            c.log_n,
            (betas, &commits),
            &pos,
            &mut idx[..q],
            &mut leaves,
            (&mut *folded, &mut *fails),
        )?;

        // The final polynomial at each query's point.
        for k in 0..q {
            let x = pow_fixed(g, reverse_bits(idx[k], log_max), log_max);
            let eval = final_poly
                .iter()
                .rev()
                .fold(EF::ZERO, |acc, &cf| F::ext_add(F::ext_mul_base(acc, x), cf));
            fails.check(
                ext_equal::<F, EF>(&eval, &folded[k]),
                Check::FinalPolynomial,
            );
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use p3_baby_bear::BabyBear;
    use p3_field::extension::BinomialExtensionField;
    use p3_field::{BasedVectorSpace, Field, PrimeCharacteristicRing};

    type Ef = BinomialExtensionField<BabyBear, 4>;

    #[test]
    fn wire_sizes_are_postcard_sizes() {
        // Pass 1 skips values by their wire size: equal to the postcard size for our fields.
        let e = Ef::from_basis_coefficients_fn(|i| BabyBear::from_u32(i as u32 + 5));
        assert_eq!(
            postcard::to_allocvec(&e).unwrap().len(),
            4 * BabyBear::WIRE_LEN
        );
        let g = p3_goldilocks::Goldilocks::from_u64(7);
        assert_eq!(
            postcard::to_allocvec(&g).unwrap().len(),
            p3_goldilocks::Goldilocks::WIRE_LEN
        );
    }

    #[test]
    fn fold_matches_interpolation_for_every_arity() {
        // Folding by 2^a equals evaluating at beta the interpolant through the coset values,
        // computed here the slow way (Lagrange basis).
        let beta = Ef::from_basis_coefficients_fn(|i| BabyBear::from_u32(91 + i as u32));
        for log_arity in 1..=MAX_LOG_ARITY {
            let arity = 1 << log_arity;
            let evals: alloc::vec::Vec<Ef> = (0..arity)
                .map(|k| Ef::from_basis_coefficients_fn(|i| BabyBear::from_u32((k * 7 + i) as u32)))
                .collect();
            let (index, log_h) = (3usize, 5usize);
            let start = BabyBear::two_adic_generator(log_h + log_arity)
                .exp_u64(reverse_bits(index, log_h) as u64);
            let w = BabyBear::two_adic_generator(log_arity);
            let mut xs = alloc::vec![BabyBear::ZERO; arity];
            for k in 0..arity {
                xs[reverse_bits(k, log_arity)] = start * w.exp_u64(k as u64);
            }
            let mut want = Ef::ZERO;
            for i in 0..arity {
                let mut l = Ef::ONE;
                for j in (0..arity).filter(|&j| j != i) {
                    l *= (beta - xs[j]) * (xs[i] - xs[j]).inverse();
                }
                want += evals[i] * l;
            }
            let round = FoldRound::<BabyBear, Ef>::new(log_h, log_arity, beta);
            assert_eq!(round.fold(index, &mut evals.clone()), want);
            assert_ne!(round.fold(index + 1, &mut evals.clone()), want);
        }
    }
}

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
//! State is fixed-size and on the stack (`MAX_*` bounds shared with the two-adic PCS); the
//! payload is read in two passes with cloned cursors (the transcript needs the final value
//! and the query witness, which the encoding places after the query openings). The circle
//! PCS's domain separator needs upstream's pattern hash: looked up in [`CIRCLE_PATTERNS`]
//! (generated from upstream, checked by `circle_pattern_table_is_current`), computed by
//! upstream only for a shape outside it.

use p3_circle::{CircleDomain, CirclePcsShape, Point};
use p3_commit::PolynomialSpace;
use p3_field::{ExtensionField, PrimeCharacteristicRing, PrimeField32};
use p3_mersenne_31::Mersenne31;
use p3_symmetric::PseudoCompressionFunction;
use picostark_core::VerifyError;

use p3_challenger::{HashChallenger, SerializingChallenger32};
use p3_field::extension::BinomialExtensionField;
use p3_mersenne_31::QM31;
use picostark_core::{HashId, ProofFile};

use super::reader::{Reader, WireField, REJECTED};
use super::transcript::{pattern_hash, LeanChallenger, PatternEntry, Protocol, Transcript};
use super::two_adic::{batch_invert, reverse_bits, MAX_QUERIES, MAX_ROUNDS};
use super::uni_stark::{MAX_CHUNKS, MAX_DEGREE, MAX_PUBLIC, MAX_WIDTH};
use super::{LeanPcs, OpeningClaims};
use crate::config::{ByteHash, VERIFIER_HASH};

type F = Mersenne31;
type Digest = [u8; 32];

/// The circle PCS's protocol name, as upstream binds it into the separator.
pub const PROTOCOL: &[u8] = b"p3-circle-pcs";
/// The most claims (opening points over all matrices): trace at two points, chunks at one.
pub(crate) const MAX_CLAIMS: usize = 2 + MAX_CHUNKS;
/// Distinct LDE heights: the trace's and, with one quotient chunk, the quotient's.
pub(crate) const MAX_HEIGHTS: usize = 2;
/// The circle group of M31 has order 2^31; a query index must be narrower.
pub(crate) const CIRCLE_TWO_ADICITY: usize = 31;
/// Bytes of one serialized base element.
pub(crate) const F_LEN: usize = <F as WireField>::WIRE_LEN;

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

/// The heights and round count every check derives from the claims, never from the proof.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Geometry {
    /// log2 of the trace's LDE.
    pub(crate) trace_h: usize,
    /// log2 of each quotient chunk's LDE.
    pub(crate) chunk_h: usize,
    /// log2 of the tallest LDE (the query index width).
    pub(crate) max_h: usize,
    /// Distinct heights, ascending (upstream's `BTreeMap` order), and how many.
    pub(crate) heights: [usize; MAX_HEIGHTS],
    pub(crate) num_heights: usize,
    /// Folding rounds after the first layer.
    pub(crate) rounds: usize,
}

impl Geometry {
    pub(crate) fn height_slot(&self, h: usize) -> usize {
        if self.heights[0] == h {
            0
        } else {
            1
        }
    }
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

/// Upstream's `cfft_permute_index`: where the `index`-th committed row sits in the circle
/// domain's natural order.
pub(crate) fn cfft_permute_index(index: usize, log_n: usize) -> usize {
    let (half, lsb) = (index >> 1, index & 1);
    let i = if lsb == 0 {
        half
    } else {
        (1 << log_n) - half - 1
    };
    reverse_bits(i, log_n)
}

/// The `idx`-th point of the standard twin coset of size `2^log_n` (upstream's
/// `CircleDomain::standard(log_n).nth_point(idx)`).
pub(crate) fn nth_point(log_n: usize, idx: usize) -> Point<F> {
    let shift = Point::<F>::generator(log_n + 1);
    let g = Point::<F>::generator(log_n - 1);
    if idx & 1 == 0 {
        shift + g * (idx >> 1)
    } else {
        -shift + g * ((idx >> 1) + 1)
    }
}

/// `v_n(p)`: the x-coordinate doubled `log_n - 1` times, the vanishing polynomial of the
/// standard coset of size `2^log_n` up to a constant.
pub(crate) fn v_n(mut x: F, log_n: usize) -> F {
    for _ in 0..log_n.saturating_sub(1) {
        x = x.square().double() - F::ONE;
    }
    x
}

/// One binary fold: `((e0 + e1) + beta * (e0 - e1) / t) / 2`.
pub(crate) fn fold<EF: ExtensionField<F>>(t_inv: F, beta: EF, e0: EF, e1: EF) -> EF {
    ((e0 + e1) + beta * ((e0 - e1) * t_inv)).halve()
}

/// A point on the circle over `EF` from its projective-line coordinate `t`:
/// `((1 - t^2) / (1 + t^2), 2t / (1 + t^2))`; upstream panics where `t^2 = -1`, we reject.
pub(crate) fn point_from_line<EF: ExtensionField<F>>(t: EF) -> Result<(EF, EF), VerifyError> {
    let t2 = t.square();
    let inv = (EF::ONE + t2).try_inverse().ok_or(REJECTED)?;
    Ok(((EF::ONE - t2) * inv, t.double() * inv))
}

/// The leaf hash input of extension-field values: their base coefficients as bytes, in
/// upstream's `flatten_to_base` order. Returns the number of bytes written.
pub(crate) fn ext_bytes<EF: ExtensionField<F>>(values: &[EF], out: &mut [u8]) -> usize {
    let mut n = 0;
    for v in values {
        for c in v.as_basis_coefficients_slice() {
            out[n..n + F_LEN].copy_from_slice(&c.as_canonical_u32().to_le_bytes());
            n += F_LEN;
        }
    }
    n
}

/// Verifies a pruned binary Merkle multi-proof (upstream's `verify_batch_pruned` on a
/// one-root cap) of the leaves at `index` (in query order, possibly repeated) against `root`,
/// reading its siblings from `r`. The tree has `2^depth` leaves. `leaf(k)` hashes query
/// `k`'s rows (the tallest matrices') and, with `inject_after = Some(l)`, the shorter
/// matrix's rows, which enter after compression level `l` as `compress(node, injected)`;
/// it is called once per distinct index, as upstream hashes. `same(a, b)` says whether two
/// queries opened identical rows: repeated indices must (upstream compares them). Queries
/// merged into one node before an injection must have opened the same shorter row (equal
/// injected digests); their tallest rows differ.
#[allow(clippy::too_many_arguments)]
pub(crate) fn verify_multi<C: PseudoCompressionFunction<Digest, 2>>(
    compress: &C,
    root: &Digest,
    depth: usize,
    inject_after: Option<usize>,
    index: &[usize],
    mut leaf: impl FnMut(usize) -> (Digest, Digest),
    same: impl Fn(usize, usize) -> bool,
    r: &mut Reader<'_>,
) -> Result<(), VerifyError> {
    let supplied = r.seq_len()?;
    let q = index.len();
    // Queries sorted by index (insertion sort of a permutation: no rows move).
    let mut order = [0u8; MAX_QUERIES];
    for k in 0..q {
        let mut j = k;
        while j > 0 && index[order[j - 1] as usize] > index[k] {
            order[j] = order[j - 1];
            j -= 1;
        }
        order[j] = k as u8;
    }
    // Frontier nodes: index, digest and injected digest; at the leaves, the first query of
    // each distinct index (`lead`), which repeated queries must equal.
    let mut idx = [0usize; MAX_QUERIES];
    let mut dig = [[0u8; 32]; MAX_QUERIES];
    let mut inj = [[0u8; 32]; MAX_QUERIES];
    let mut lead = 0;
    let mut n = 0;
    for &k in &order[..q] {
        let k = k as usize;
        if n > 0 && idx[n - 1] == index[k] {
            if !same(lead, k) {
                return Err(REJECTED);
            }
            continue;
        }
        idx[n] = index[k];
        (dig[n], inj[n]) = leaf(k);
        lead = k;
        n += 1;
    }
    if n == 0 || idx[n - 1] >> depth != 0 {
        return Err(REJECTED);
    }
    let mut used = 0usize;
    for level in 0..depth {
        let mut out = 0;
        let mut i = 0;
        while i < n {
            let node = idx[i];
            let injected = inj[i];
            let pair = if i + 1 < n && idx[i + 1] == node ^ 1 {
                i += 2;
                // Below the injection, siblings share the shorter matrix's row: both queries
                // must have opened it alike (their tallest rows differ, legitimately).
                if inject_after.is_some_and(|l| level <= l) && inj[i - 2] != inj[i - 1] {
                    return Err(REJECTED);
                }
                [dig[i - 2], dig[i - 1]]
            } else {
                i += 1;
                used += 1;
                if used > supplied {
                    return Err(REJECTED);
                }
                let sib = *r.digest()?;
                if node & 1 == 0 {
                    [dig[i - 1], sib]
                } else {
                    [sib, dig[i - 1]]
                }
            };
            idx[out] = node >> 1;
            dig[out] = compress.compress(pair);
            inj[out] = injected;
            out += 1;
        }
        n = out;
        if inject_after == Some(level) {
            for k in 0..n {
                dig[k] = compress.compress([dig[k], inj[k]]);
            }
        }
    }
    if used != supplied || n != 1 || dig[0] != *root {
        return Err(REJECTED);
    }
    Ok(())
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
/// ([`CIRCLE_PATTERNS`] holds the circle shapes) when listed, else computed by upstream.
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

/// One claim of the batch: an opening point with its values, and what its DEEP quotient
/// term needs that does not depend on the query.
#[derive(Clone, Copy)]
struct ClaimTerm<EF> {
    /// The point on the circle.
    zx: EF,
    zy: EF,
    /// `sum_i alpha^i value_i`.
    reduced: EF,
    /// `alpha^width` of its matrix.
    alpha_pow_width: EF,
    /// The running `alpha^(2 width)` product of the claims before it at its height.
    offset: EF,
}

impl<EF, H> LeanPcs<F, EF> for CirclePcs<H>
where
    EF: ExtensionField<F>,
    H: ByteHash,
{
    type Domain = CircleDomain<F>;

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
            return Err(REJECTED);
        }
        let rounds = g.rounds;
        let nh = g.num_heights;
        let ef_len = core::mem::size_of::<EF>();

        // Pass 1: the fixed-position fields, remembering where the query openings start.
        r.zero_witness::<F>()?; // no batch grinding
        r.expect_len(1)?;
        let first_layer_root = *r.digest()?;
        r.expect_len(nh)?;
        let mut lambdas = [EF::ZERO; MAX_HEIGHTS];
        for l in &mut lambdas[..nh] {
            *l = r.ext()?;
        }
        let mut commits = [[0u8; 32]; MAX_ROUNDS];
        r.commit_phase::<F>(&mut commits[..rounds])?;
        r.expect_len(2)?;
        let inputs = r.clone();
        for (mats, cols) in [(1usize, width), (nc, dim)] {
            r.expect_len(q)?;
            for _ in 0..q {
                r.expect_len(mats)?;
                for _ in 0..mats {
                    r.expect_len(cols)?;
                    r.take(cols * F_LEN)?;
                }
            }
            let s = r.seq_len()?;
            r.take(s.checked_mul(32).ok_or(REJECTED)?)?;
        }
        let first_layer = r.clone();
        r.expect_len(q)?;
        for _ in 0..q {
            r.expect_len(nh)?;
            r.take(nh * ef_len)?;
        }
        let s = r.seq_len()?;
        r.take(s.checked_mul(32).ok_or(REJECTED)?)?;
        r.expect_len(rounds)?;
        let commit_openings = r.clone();
        for _ in 0..rounds {
            r.expect_len(q)?;
            for _ in 0..q {
                r.expect_len(1)?;
                r.take(ef_len)?;
            }
            let s = r.seq_len()?;
            r.take(s.checked_mul(32).ok_or(REJECTED)?)?;
        }
        let final_value = r.ext()?;
        let query_witness = r.elem::<F>()?;
        if self.pow_bits == 0 && query_witness != F::ZERO {
            return Err(REJECTED);
        }

        // The transcript: separator, every claim (point then values), alpha, first-layer
        // commitment, bivariate beta, per round commitment and beta, final value, proof of
        // work, query indices.
        let mut params = [0u32; 4 + MAX_CLAIMS];
        let np = pattern_params(
            rounds,
            self.pow_bits,
            g.max_h,
            q,
            width,
            nc,
            dim,
            &mut params,
        );
        let hash = circle_pattern::<EF>(&params[..np]);
        // The instance label: `log_blowup`, then the opening layout (batch count, per batch
        // its matrix count, per matrix its point count).
        let mut layout = [1u64; 4 + MAX_CHUNKS];
        layout[..4].copy_from_slice(&[2, 1, 2, nc as u64]);
        t.seed(
            Protocol::Other(PROTOCOL),
            &hash,
            &[self.log_blowup as u64],
            &layout[..4 + nc],
        );
        let mut terms = [ClaimTerm {
            zx: EF::ZERO,
            zy: EF::ZERO,
            reduced: EF::ZERO,
            alpha_pow_width: EF::ZERO,
            offset: EF::ZERO,
        }; MAX_CLAIMS];
        let num_claims = 2 + nc;
        let claim_values = |k: usize| -> &[EF] {
            match k {
                0 => c.trace_local,
                1 => c.trace_next,
                _ => &c.quotient_chunks[(k - 2) * dim..(k - 1) * dim],
            }
        };
        for (k, term) in terms[..num_claims].iter_mut().enumerate() {
            let zeta = if k == 1 { c.zeta_next } else { c.zeta };
            let (zx, zy) = point_from_line(zeta)?;
            t.observe_ext(&zx);
            t.observe_ext(&zy);
            for v in claim_values(k) {
                t.observe_ext(v);
            }
            term.zx = zx;
            term.zy = zy;
        }
        let alpha = t.sample_ext();
        t.observe_digest(&first_layer_root);
        let bivariate_beta = t.sample_ext();
        let mut betas = [EF::ZERO; MAX_ROUNDS];
        for (d, beta) in commits[..rounds].iter().zip(&mut betas) {
            t.observe_digest(d);
            *beta = t.sample_ext();
        }
        t.observe_ext(&final_value);
        if self.pow_bits > 0 && !t.check_pow(self.pow_bits, query_witness) {
            return Err(REJECTED);
        }
        let mut indices = [0usize; MAX_QUERIES];
        for i in &mut indices[..q] {
            *i = t.sample_bits(g.max_h);
        }

        // What each claim contributes independently of the query.
        let mut alpha_pows = [EF::ZERO; MAX_WIDTH];
        let mut p = EF::ONE;
        for a in &mut alpha_pows[..width.max(dim)] {
            *a = p;
            p *= alpha;
        }
        let alpha_w = alpha.exp_u64(width as u64);
        let alpha_d = alpha.exp_u64(dim as u64);
        let mut offsets = [EF::ONE; MAX_HEIGHTS];
        for (k, term) in terms[..num_claims].iter_mut().enumerate() {
            let (apw, h) = if k < 2 {
                (alpha_w, g.trace_h)
            } else {
                (alpha_d, g.chunk_h)
            };
            let slot = g.height_slot(h);
            term.reduced = claim_values(k)
                .iter()
                .zip(&alpha_pows)
                .fold(EF::ZERO, |acc, (&v, &a)| acc + v * a);
            term.alpha_pow_width = apw;
            term.offset = offsets[slot];
            offsets[slot] *= apw.square();
        }

        // Pass 2a: the input batches with their Merkle proofs; per query and height the
        // reduced opening `sum over claims of offset * v_p part * (row(x) - row(zeta))`.
        let field_hash = self.hash;
        let compress = self.hash.compression();
        let mut ro = [[EF::ZERO; MAX_HEIGHTS]; MAX_QUERIES];
        let mut points = [[Point::<F>::generator(1); MAX_HEIGHTS]; MAX_QUERIES];
        let mut reduced_idx = [[0usize; MAX_HEIGHTS]; MAX_QUERIES];
        for k in 0..q {
            for s in 0..nh {
                let h = g.heights[s];
                let reduced = indices[k] >> (g.max_h - h);
                reduced_idx[k][s] = reduced;
                points[k][s] = nth_point(h, cfft_permute_index(reduced, h));
            }
        }
        let mut digests = [[0u8; 32]; MAX_QUERIES];
        let mut leaf_index = [0usize; MAX_QUERIES];
        let mut ri = inputs;
        let mut row = [F::ZERO; MAX_WIDTH];
        // The vanishing-part denominators of one query, inverted together.
        let mut den = [EF::ZERO; MAX_CLAIMS];
        let mut scratch = [EF::ZERO; MAX_CLAIMS];
        let mut num = [EF::ZERO; MAX_CLAIMS];
        let mut at_x = [EF::ZERO; MAX_CLAIMS];
        // Batch 0 (the trace) then batch 1 (the quotient chunks); their terms are claims
        // 0..2 and 2..2+nc.
        for batch in 0..2 {
            let (mats, cols, h, claims) = if batch == 0 {
                (1, width, g.trace_h, 0..2)
            } else {
                (nc, dim, g.chunk_h, 2..num_claims)
            };
            let slot = g.height_slot(h);
            ri.expect_len(q)?;
            for k in 0..q {
                ri.expect_len(mats)?;
                let mut slices: [&[u8]; MAX_CHUNKS] = [&[]; MAX_CHUNKS];
                for m in 0..mats {
                    ri.expect_len(cols)?;
                    slices[m] = ri.elems(&mut row[..cols])?;
                    let reduced_x = row[..cols]
                        .iter()
                        .zip(&alpha_pows)
                        .fold(EF::ZERO, |acc, (&v, &a)| acc + a * v);
                    if batch == 0 {
                        at_x[0] = reduced_x;
                        at_x[1] = reduced_x;
                    } else {
                        at_x[2 + m] = reduced_x;
                    }
                }
                // Rows are compared through their digests (a repeated index in a tree of
                // 2^h leaves is rare), so every query's leaf is hashed here.
                digests[k] = field_hash.hash_iter_slices(slices[..mats].iter().copied());
                leaf_index[k] = reduced_idx[k][slot];
                // v_p(x, zeta) = (1 - dx, -dy) with (dx, dy) = x - zeta on the circle.
                let x = points[k][slot];
                for j in claims.clone() {
                    let tm = &terms[j];
                    let dx = tm.zx * x.x + tm.zy * x.y;
                    let dy = tm.zx * x.y - tm.zy * x.x;
                    let re = EF::ONE - dx;
                    num[j] = re + tm.alpha_pow_width * dy;
                    den[j] = re.double();
                }
                batch_invert(&mut den[claims.clone()], &mut scratch[claims.clone()])?;
                for j in claims.clone() {
                    let tm = &terms[j];
                    ro[k][slot] += tm.offset * num[j] * den[j] * (at_x[j] - tm.reduced);
                }
            }
            let root = if batch == 0 {
                c.trace_root
            } else {
                c.quotient_root
            };
            verify_multi(
                &compress,
                root,
                h,
                None,
                &leaf_index[..q],
                |k| (digests[k], [0; 32]),
                |a, b| digests[a] == digests[b],
                &mut ri,
            )?;
        }

        // Pass 2b: the first layer. Per height: lambda-corrected value and its sibling, the
        // leaf of that height's matrix, and the fold by the y-coordinate.
        let mut rows = [[[EF::ZERO; 2]; MAX_HEIGHTS]; MAX_QUERIES];
        let mut ys = [F::ZERO; MAX_QUERIES * MAX_HEIGHTS];
        let mut ys_scratch = [F::ZERO; MAX_QUERIES * MAX_HEIGHTS];
        let mut rf = first_layer;
        rf.expect_len(q)?;
        for k in 0..q {
            rf.expect_len(nh)?;
            leaf_index[k] = indices[k] >> 1;
            for s in 0..nh {
                let h = g.heights[s];
                let sibling = rf.ext()?;
                let b = reduced_idx[k][s] & 1;
                let p = points[k][s];
                let corrected = ro[k][s] - lambdas[s] * v_n(p.x, h - self.log_blowup);
                rows[k][s] = if b == 0 {
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
        let fri_inputs = &mut ro;
        for k in 0..q {
            for s in 0..nh {
                let [e0, e1] = rows[k][s];
                fri_inputs[k][s] = fold(ys[k * nh + s], bivariate_beta, e0, e1);
            }
        }
        let tallest = nh - 1;
        let mut leaf_bytes = [0u8; 2 * MAX_DEGREE * F_LEN];
        let mut hash_row = |row: &[EF; 2]| -> Digest {
            let n = ext_bytes(row, &mut leaf_bytes);
            field_hash.hash_slice(&leaf_bytes[..n])
        };
        // The shorter matrix (height 2^(h - 1)) joins where the tree narrows to its height.
        let inject_after = (nh == 2).then(|| g.max_h - g.heights[0] - 1);
        verify_multi(
            &compress,
            &first_layer_root,
            g.max_h - 1,
            inject_after,
            &leaf_index[..q],
            |k| {
                let injected = if nh == 2 {
                    hash_row(&rows[k][0])
                } else {
                    [0; 32]
                };
                (hash_row(&rows[k][tallest]), injected)
            },
            |a, b| rows[a][..nh] == rows[b][..nh],
            &mut rf,
        )?;

        // Pass 2c: circle FRI, round by round, each with its Merkle proof. The fold twiddle
        // of a query is the x-coordinate of its point, doubled each round.
        let mut folded = [EF::ZERO; MAX_QUERIES];
        let mut idx = [0usize; MAX_QUERIES];
        let mut xs = [F::ZERO; MAX_QUERIES];
        let log_fri = g.max_h - 1;
        if rounds > 0 {
            let shift = Point::<F>::generator(log_fri + 2);
            let gen = Point::<F>::generator(log_fri);
            for k in 0..q {
                let top = indices[k] >> 1;
                idx[k] = top;
                let seed_idx = reverse_bits(top >> 1, log_fri - 1);
                xs[k] = (shift + gen * seed_idx).x;
            }
        }
        let mut rc = commit_openings;
        let mut x_inv = [F::ZERO; MAX_QUERIES];
        let mut x_scratch = [F::ZERO; MAX_QUERIES];
        let mut pairs = [[EF::ZERO; 2]; MAX_QUERIES];
        for round in 0..rounds {
            let log_cur = log_fri - round;
            // An input of this height enters before the fold.
            for (s, &h) in g.heights[..nh].iter().enumerate() {
                if h - 1 == log_cur {
                    for k in 0..q {
                        folded[k] += fri_inputs[k][s];
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
                let sibling = rc.ext()?;
                pairs[k] = if idx[k] & 1 == 0 {
                    [folded[k], sibling]
                } else {
                    [sibling, folded[k]]
                };
                idx[k] >>= 1;
                folded[k] = fold(x_inv[k], betas[round], pairs[k][0], pairs[k][1]);
            }
            verify_multi(
                &compress,
                &commits[round],
                log_cur - 1,
                None,
                &idx[..q],
                |k| (hash_row(&pairs[k]), [0; 32]),
                |a, b| pairs[a] == pairs[b],
                &mut rc,
            )?;
        }
        // Every input entered on the way (`log_n >= 2` puts the shortest above the last
        // round); each query must end at the constant.
        if folded[..q].iter().any(|&v| v != final_value) {
            return Err(REJECTED);
        }
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
pub fn within_bounds<EF: ExtensionField<F>>(file: &ProofFile<'_>) -> bool {
    let (width, log_chunks) = super::air_shape::<F>(file.header.air);
    circle_pcs(file, ()).within_bounds(usize::from(file.header.log_n), 1 << log_chunks)
        && width <= MAX_WIDTH
        && EF::DIMENSION <= MAX_DEGREE
        && file.public_inputs.len() <= MAX_PUBLIC
}

/// Verifies a `p3-m31` proof with challenge field `EF` and hash `hash` (header checked).
pub fn verify_with<EF: ExtensionField<F>, H: ByteHash>(
    file: &ProofFile<'_>,
    hash: H,
) -> Result<(), VerifyError> {
    let challenger = SerializingChallenger32::<F, _>::new(HashChallenger::<u8, H, 32>::new(
        super::transcript_buffer(file),
        hash,
    ));
    super::verify_air::<F, EF, _, _>(file, &circle_pcs(file, hash), challenger)
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

/// The lean verdict for a `p3-m31` proof whose header passed the backend's checks, or `None`
/// when its shape or challenge field is outside what the lean path takes.
pub fn verify_m31(file: &ProofFile<'_>) -> Option<Result<(), VerifyError>> {
    // Proofs of our WideCirclePcs (issue 25) have their own lean verifier.
    if crate::config::uses_wide_circle_pcs(&file.header.params) {
        return super::wide_circle::verify_m31(file);
    }
    match file.header.extension_degree {
        4 => verify_ext::<QM31>(file),
        3 => verify_ext::<BinomialExtensionField<F, 3>>(file),
        6 => verify_ext::<crate::config::M31Sextic>(file),
        _ => None,
    }
}

/// The uni-stark protocol name (its M31 shapes are listed here too).
const STARK: &[u8] = b"p3-uni-stark";
const M31: u64 = (1 << 31) - 1;

/// Pattern hashes of the shapes our `p3-m31` proofs take: the circle PCS's (default and
/// foundation parameters, Fibonacci and CubicChain16, QM31 and the cubic extension, every
/// trace length the header allows; the sextic's default and proven100 parameters) and the
/// uni-stark's for M31. Generated by
/// `circle_pattern_table_is_current` from upstream's own rendering and Keccak; the
/// transcript's lookup searches it after `PATTERNS`.
#[rustfmt::skip]
pub static CIRCLE_PATTERNS: &[PatternEntry] = &[
    PatternEntry { protocol: STARK, modulus: M31, degree: 4, params: &[1], hash: [169, 106, 0, 75, 82, 157, 127, 220, 91, 181, 143, 160, 93, 97, 55, 226, 140, 255, 122, 228, 207, 207, 250, 124, 150, 245, 16, 11, 151, 82, 42, 89] },
    PatternEntry { protocol: STARK, modulus: M31, degree: 4, params: &[8], hash: [118, 42, 216, 57, 164, 255, 197, 158, 249, 216, 210, 193, 253, 245, 6, 128, 93, 105, 239, 143, 99, 231, 181, 160, 91, 32, 111, 114, 77, 223, 83, 237] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[3, 20, 10, 14, 2, 2, 4], hash: [44, 86, 176, 88, 148, 39, 254, 98, 107, 152, 251, 90, 150, 191, 247, 223, 207, 165, 60, 30, 9, 104, 225, 55, 225, 233, 205, 210, 153, 241, 211, 249] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[4, 20, 11, 14, 2, 2, 4], hash: [199, 148, 9, 79, 170, 169, 218, 189, 4, 178, 106, 89, 1, 61, 254, 188, 79, 184, 3, 156, 93, 90, 143, 127, 80, 241, 217, 170, 156, 234, 158, 43] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[5, 20, 12, 14, 2, 2, 4], hash: [70, 152, 236, 11, 227, 60, 203, 183, 125, 16, 142, 206, 45, 233, 141, 242, 57, 103, 17, 197, 113, 106, 224, 58, 166, 230, 174, 90, 202, 123, 97, 48] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[6, 20, 13, 14, 2, 2, 4], hash: [65, 54, 57, 252, 170, 38, 8, 32, 131, 80, 229, 30, 236, 179, 12, 193, 202, 19, 136, 86, 13, 90, 134, 118, 220, 44, 57, 154, 226, 98, 64, 32] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[7, 20, 14, 14, 2, 2, 4], hash: [36, 46, 105, 250, 162, 66, 190, 43, 201, 135, 89, 113, 100, 184, 227, 166, 6, 144, 172, 166, 210, 50, 140, 246, 208, 176, 27, 33, 74, 198, 136, 192] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[8, 20, 15, 14, 2, 2, 4], hash: [122, 140, 135, 129, 203, 197, 102, 88, 195, 234, 141, 58, 183, 94, 251, 212, 126, 169, 16, 153, 178, 53, 1, 190, 33, 58, 6, 246, 96, 182, 65, 161] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[9, 20, 16, 14, 2, 2, 4], hash: [89, 169, 57, 34, 200, 230, 94, 95, 155, 175, 39, 212, 89, 56, 227, 67, 188, 62, 65, 132, 48, 170, 117, 107, 91, 68, 96, 219, 218, 115, 220, 133] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[10, 20, 17, 14, 2, 2, 4], hash: [158, 142, 104, 223, 54, 29, 247, 250, 17, 86, 121, 78, 125, 225, 131, 52, 91, 38, 227, 57, 166, 203, 127, 22, 37, 22, 175, 54, 238, 224, 82, 142] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[11, 20, 18, 14, 2, 2, 4], hash: [143, 134, 18, 162, 140, 20, 189, 208, 216, 51, 238, 4, 40, 47, 16, 97, 128, 184, 126, 26, 159, 58, 190, 171, 185, 79, 226, 150, 178, 32, 9, 174] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[12, 20, 19, 14, 2, 2, 4], hash: [67, 100, 84, 54, 17, 232, 225, 220, 106, 251, 120, 11, 66, 151, 37, 233, 81, 246, 201, 139, 206, 179, 10, 113, 141, 191, 46, 38, 17, 108, 254, 116] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[13, 20, 20, 14, 2, 2, 4], hash: [228, 224, 83, 95, 161, 51, 7, 96, 111, 154, 129, 198, 166, 10, 144, 199, 101, 102, 58, 231, 220, 143, 215, 255, 165, 194, 60, 100, 244, 205, 82, 74] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[14, 20, 21, 14, 2, 2, 4], hash: [101, 210, 195, 214, 75, 94, 251, 166, 95, 79, 156, 158, 223, 103, 183, 104, 2, 113, 119, 137, 110, 74, 248, 211, 156, 87, 227, 165, 60, 22, 238, 236] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[15, 20, 22, 14, 2, 2, 4], hash: [57, 138, 9, 183, 15, 22, 216, 231, 241, 26, 244, 251, 69, 78, 190, 209, 82, 217, 120, 235, 97, 67, 232, 50, 106, 190, 8, 247, 176, 133, 249, 3] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[16, 20, 23, 14, 2, 2, 4], hash: [22, 216, 33, 115, 15, 241, 73, 139, 221, 56, 12, 197, 127, 176, 12, 150, 194, 224, 58, 200, 151, 173, 100, 16, 83, 42, 126, 109, 48, 213, 58, 6] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[17, 20, 24, 14, 2, 2, 4], hash: [82, 73, 198, 200, 57, 53, 99, 17, 104, 251, 201, 33, 74, 163, 0, 173, 114, 99, 190, 152, 187, 225, 148, 225, 22, 243, 204, 197, 155, 134, 28, 249] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[18, 20, 25, 14, 2, 2, 4], hash: [31, 68, 126, 99, 54, 193, 103, 250, 230, 47, 217, 198, 172, 211, 244, 187, 185, 196, 36, 132, 16, 138, 120, 189, 19, 190, 68, 184, 18, 109, 117, 118] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[19, 20, 26, 14, 2, 2, 4], hash: [191, 174, 35, 164, 69, 6, 149, 68, 221, 131, 195, 34, 195, 246, 134, 150, 251, 70, 83, 161, 217, 202, 26, 223, 142, 198, 235, 108, 30, 245, 244, 42] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[20, 20, 27, 14, 2, 2, 4], hash: [194, 89, 164, 47, 140, 19, 73, 215, 244, 203, 233, 214, 89, 86, 105, 115, 132, 39, 187, 206, 19, 22, 169, 36, 212, 144, 114, 2, 155, 80, 172, 190] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[21, 20, 28, 14, 2, 2, 4], hash: [133, 151, 139, 140, 29, 145, 249, 190, 229, 13, 11, 7, 99, 65, 85, 192, 67, 234, 96, 226, 202, 81, 150, 191, 104, 16, 250, 215, 104, 104, 204, 58] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[22, 20, 29, 14, 2, 2, 4], hash: [99, 252, 77, 30, 225, 86, 86, 94, 234, 14, 82, 242, 192, 10, 239, 168, 184, 199, 192, 233, 115, 243, 248, 138, 42, 148, 2, 107, 160, 125, 188, 13] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[23, 20, 30, 14, 2, 2, 4], hash: [25, 158, 8, 241, 87, 73, 120, 33, 234, 61, 167, 42, 156, 99, 160, 224, 142, 138, 33, 123, 236, 85, 16, 1, 39, 197, 210, 38, 195, 149, 42, 101] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[3, 16, 7, 27, 2, 2, 4], hash: [31, 144, 241, 170, 218, 217, 158, 146, 92, 44, 71, 238, 54, 107, 128, 181, 53, 102, 253, 70, 240, 252, 247, 110, 196, 144, 222, 152, 74, 149, 245, 4] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[4, 16, 8, 27, 2, 2, 4], hash: [215, 186, 2, 86, 43, 175, 131, 50, 161, 85, 224, 205, 233, 225, 122, 18, 243, 166, 249, 147, 41, 169, 179, 153, 221, 37, 204, 223, 148, 240, 82, 47] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[5, 16, 9, 27, 2, 2, 4], hash: [241, 168, 60, 180, 0, 87, 250, 183, 173, 130, 129, 251, 153, 63, 179, 227, 220, 183, 54, 93, 125, 168, 104, 150, 194, 79, 60, 155, 174, 59, 215, 222] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[6, 16, 10, 27, 2, 2, 4], hash: [89, 59, 210, 101, 112, 71, 2, 79, 177, 219, 43, 216, 5, 253, 251, 47, 215, 34, 236, 65, 180, 52, 186, 106, 62, 24, 175, 18, 110, 83, 46, 199] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[7, 16, 11, 27, 2, 2, 4], hash: [85, 172, 108, 182, 191, 40, 170, 192, 47, 225, 249, 27, 220, 212, 95, 68, 60, 137, 213, 143, 24, 27, 124, 225, 7, 84, 158, 253, 31, 178, 20, 88] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[8, 16, 12, 27, 2, 2, 4], hash: [240, 200, 239, 157, 62, 67, 24, 89, 149, 234, 189, 23, 173, 114, 21, 222, 208, 159, 235, 147, 226, 203, 3, 253, 28, 237, 74, 210, 57, 252, 91, 133] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[9, 16, 13, 27, 2, 2, 4], hash: [24, 104, 80, 86, 166, 99, 186, 90, 90, 55, 24, 230, 87, 33, 28, 226, 225, 218, 159, 168, 91, 62, 233, 219, 249, 241, 24, 204, 117, 149, 30, 77] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[10, 16, 14, 27, 2, 2, 4], hash: [176, 7, 102, 166, 51, 177, 35, 61, 189, 212, 96, 101, 1, 172, 101, 176, 77, 6, 79, 76, 251, 150, 120, 207, 113, 105, 213, 111, 51, 177, 123, 250] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[11, 16, 15, 27, 2, 2, 4], hash: [231, 173, 116, 159, 96, 20, 124, 114, 159, 50, 113, 162, 151, 215, 89, 92, 69, 83, 253, 200, 74, 111, 100, 249, 97, 139, 156, 6, 202, 140, 135, 149] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[12, 16, 16, 27, 2, 2, 4], hash: [202, 91, 46, 140, 149, 0, 174, 174, 93, 34, 243, 177, 169, 182, 85, 211, 94, 71, 32, 221, 183, 216, 117, 255, 26, 32, 17, 82, 19, 118, 0, 115] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[13, 16, 17, 27, 2, 2, 4], hash: [224, 29, 157, 202, 251, 87, 166, 76, 47, 207, 63, 192, 12, 144, 8, 195, 52, 252, 84, 113, 158, 231, 246, 58, 130, 96, 117, 50, 78, 153, 202, 225] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[14, 16, 18, 27, 2, 2, 4], hash: [225, 232, 90, 59, 43, 122, 155, 225, 173, 71, 147, 115, 199, 246, 108, 75, 179, 116, 132, 127, 241, 57, 234, 181, 60, 221, 78, 233, 68, 147, 179, 93] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[15, 16, 19, 27, 2, 2, 4], hash: [144, 252, 79, 133, 22, 57, 142, 80, 221, 208, 242, 114, 119, 150, 21, 102, 10, 16, 226, 140, 14, 47, 123, 179, 85, 29, 143, 137, 110, 65, 170, 64] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[16, 16, 20, 27, 2, 2, 4], hash: [179, 122, 243, 105, 203, 242, 148, 154, 229, 215, 76, 0, 23, 101, 253, 143, 16, 40, 178, 241, 196, 114, 1, 122, 137, 133, 248, 139, 94, 191, 25, 47] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[17, 16, 21, 27, 2, 2, 4], hash: [199, 231, 54, 121, 206, 106, 16, 202, 42, 113, 244, 97, 90, 174, 240, 0, 153, 56, 44, 211, 182, 116, 153, 86, 221, 84, 151, 89, 242, 43, 234, 240] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[18, 16, 22, 27, 2, 2, 4], hash: [68, 41, 86, 30, 1, 94, 73, 215, 63, 175, 98, 34, 127, 41, 13, 143, 30, 54, 95, 178, 193, 28, 237, 6, 32, 66, 97, 29, 187, 105, 106, 120] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[19, 16, 23, 27, 2, 2, 4], hash: [37, 253, 44, 59, 198, 134, 249, 170, 128, 214, 133, 140, 3, 240, 102, 154, 126, 124, 27, 86, 68, 199, 93, 242, 17, 166, 224, 61, 0, 40, 102, 20] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[20, 16, 24, 27, 2, 2, 4], hash: [146, 252, 227, 123, 239, 182, 21, 248, 53, 124, 125, 167, 199, 252, 198, 102, 217, 252, 77, 4, 28, 237, 10, 167, 99, 227, 138, 138, 9, 69, 204, 245] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[21, 16, 25, 27, 2, 2, 4], hash: [133, 65, 109, 150, 208, 123, 161, 175, 140, 65, 207, 196, 35, 182, 91, 89, 221, 14, 197, 42, 20, 67, 176, 73, 58, 240, 211, 129, 28, 241, 133, 254] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[22, 16, 26, 27, 2, 2, 4], hash: [26, 88, 134, 40, 179, 141, 197, 43, 179, 222, 29, 98, 50, 177, 55, 66, 118, 104, 88, 195, 111, 6, 144, 246, 46, 222, 197, 126, 112, 21, 139, 157] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[23, 16, 27, 27, 2, 2, 4], hash: [28, 29, 127, 178, 24, 64, 220, 140, 138, 80, 53, 86, 182, 47, 93, 240, 200, 135, 145, 54, 57, 192, 214, 87, 225, 109, 167, 38, 203, 195, 216, 239] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[24, 16, 28, 27, 2, 2, 4], hash: [7, 124, 15, 5, 44, 197, 75, 245, 237, 133, 222, 80, 49, 211, 12, 113, 231, 187, 192, 139, 51, 18, 124, 82, 3, 70, 226, 255, 63, 148, 40, 217] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[25, 16, 29, 27, 2, 2, 4], hash: [104, 219, 7, 97, 166, 102, 181, 126, 182, 140, 75, 113, 90, 22, 172, 214, 237, 96, 118, 205, 24, 158, 183, 25, 96, 148, 91, 43, 90, 49, 224, 44] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[26, 16, 30, 27, 2, 2, 4], hash: [122, 130, 1, 69, 69, 177, 11, 80, 33, 15, 164, 187, 145, 203, 174, 118, 99, 196, 153, 174, 190, 178, 19, 166, 0, 88, 146, 79, 219, 66, 36, 108] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[2, 20, 9, 14, 16, 16, 4, 4, 4, 4], hash: [70, 41, 189, 31, 145, 142, 117, 186, 187, 218, 140, 208, 243, 175, 174, 227, 135, 211, 112, 37, 89, 145, 186, 249, 18, 195, 58, 179, 131, 192, 166, 59] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[3, 20, 10, 14, 16, 16, 4, 4, 4, 4], hash: [12, 199, 167, 232, 226, 8, 98, 124, 225, 244, 226, 94, 96, 142, 167, 119, 39, 39, 159, 38, 12, 92, 163, 18, 184, 57, 175, 2, 50, 99, 210, 80] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[4, 20, 11, 14, 16, 16, 4, 4, 4, 4], hash: [73, 76, 61, 48, 212, 249, 6, 247, 52, 250, 106, 213, 133, 137, 47, 254, 156, 49, 148, 152, 76, 18, 28, 237, 201, 61, 190, 33, 235, 190, 16, 238] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[5, 20, 12, 14, 16, 16, 4, 4, 4, 4], hash: [31, 61, 99, 59, 36, 92, 8, 12, 154, 95, 244, 89, 250, 180, 22, 115, 84, 54, 32, 194, 110, 71, 250, 131, 89, 73, 89, 161, 127, 52, 252, 156] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[6, 20, 13, 14, 16, 16, 4, 4, 4, 4], hash: [251, 169, 125, 80, 147, 251, 179, 242, 143, 192, 231, 250, 14, 71, 59, 112, 77, 87, 42, 38, 12, 126, 84, 111, 62, 143, 62, 22, 78, 125, 87, 228] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[7, 20, 14, 14, 16, 16, 4, 4, 4, 4], hash: [209, 29, 86, 119, 249, 186, 237, 190, 16, 50, 102, 166, 141, 240, 52, 155, 178, 67, 165, 163, 124, 169, 220, 49, 228, 209, 6, 196, 127, 51, 171, 207] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[8, 20, 15, 14, 16, 16, 4, 4, 4, 4], hash: [218, 248, 22, 66, 196, 153, 231, 196, 204, 144, 213, 198, 145, 177, 235, 140, 191, 230, 189, 253, 168, 208, 77, 210, 36, 171, 91, 103, 15, 26, 162, 112] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[9, 20, 16, 14, 16, 16, 4, 4, 4, 4], hash: [172, 34, 12, 113, 39, 157, 42, 70, 183, 85, 212, 122, 10, 87, 180, 94, 141, 46, 98, 227, 192, 180, 243, 81, 138, 218, 103, 114, 211, 123, 72, 76] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[10, 20, 17, 14, 16, 16, 4, 4, 4, 4], hash: [36, 163, 47, 120, 131, 72, 220, 159, 20, 21, 82, 19, 133, 214, 247, 126, 253, 91, 73, 251, 59, 144, 38, 135, 95, 11, 185, 251, 87, 236, 30, 246] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[11, 20, 18, 14, 16, 16, 4, 4, 4, 4], hash: [248, 138, 252, 141, 167, 70, 196, 46, 241, 78, 154, 79, 15, 211, 117, 132, 220, 236, 71, 98, 250, 234, 110, 138, 213, 20, 252, 141, 180, 83, 222, 220] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[12, 20, 19, 14, 16, 16, 4, 4, 4, 4], hash: [65, 251, 239, 103, 130, 13, 156, 177, 58, 221, 146, 250, 36, 225, 251, 146, 179, 217, 156, 214, 164, 52, 160, 6, 22, 48, 72, 137, 228, 32, 113, 197] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[13, 20, 20, 14, 16, 16, 4, 4, 4, 4], hash: [147, 20, 46, 57, 133, 249, 170, 201, 152, 198, 187, 138, 82, 44, 92, 236, 250, 45, 41, 135, 120, 10, 46, 29, 67, 255, 4, 7, 4, 234, 172, 250] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[14, 20, 21, 14, 16, 16, 4, 4, 4, 4], hash: [58, 90, 167, 229, 254, 146, 240, 228, 47, 52, 156, 68, 11, 70, 195, 188, 10, 79, 135, 192, 171, 67, 16, 3, 149, 146, 213, 114, 195, 175, 69, 126] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[15, 20, 22, 14, 16, 16, 4, 4, 4, 4], hash: [4, 175, 103, 246, 9, 193, 137, 88, 252, 94, 145, 139, 49, 233, 11, 209, 217, 196, 165, 216, 135, 98, 239, 124, 253, 22, 114, 154, 4, 120, 107, 235] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[16, 20, 23, 14, 16, 16, 4, 4, 4, 4], hash: [110, 254, 84, 206, 100, 119, 178, 174, 240, 229, 243, 252, 102, 30, 92, 113, 6, 96, 207, 250, 123, 115, 132, 193, 84, 2, 228, 144, 156, 123, 69, 41] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[17, 20, 24, 14, 16, 16, 4, 4, 4, 4], hash: [160, 48, 50, 201, 86, 105, 8, 81, 74, 231, 9, 30, 132, 46, 192, 74, 52, 62, 247, 122, 151, 38, 104, 233, 31, 154, 127, 76, 41, 241, 105, 214] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[18, 20, 25, 14, 16, 16, 4, 4, 4, 4], hash: [154, 198, 106, 249, 240, 240, 194, 108, 33, 78, 213, 66, 35, 15, 44, 70, 210, 149, 109, 13, 163, 166, 124, 55, 72, 152, 29, 253, 245, 254, 16, 51] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[19, 20, 26, 14, 16, 16, 4, 4, 4, 4], hash: [62, 2, 159, 155, 113, 253, 11, 218, 48, 105, 16, 4, 19, 128, 122, 68, 145, 172, 201, 53, 46, 210, 77, 98, 100, 246, 107, 132, 171, 78, 21, 156] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[20, 20, 27, 14, 16, 16, 4, 4, 4, 4], hash: [175, 246, 230, 52, 67, 2, 76, 148, 95, 110, 107, 197, 130, 206, 113, 50, 140, 137, 72, 54, 44, 246, 159, 250, 211, 73, 119, 40, 46, 231, 144, 240] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[21, 20, 28, 14, 16, 16, 4, 4, 4, 4], hash: [134, 81, 255, 80, 12, 152, 146, 23, 162, 167, 153, 62, 100, 181, 217, 197, 156, 192, 119, 65, 29, 143, 196, 200, 93, 106, 214, 189, 209, 216, 191, 149] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[22, 20, 29, 14, 16, 16, 4, 4, 4, 4], hash: [120, 230, 73, 184, 170, 48, 105, 86, 139, 170, 114, 101, 177, 15, 82, 185, 245, 59, 97, 124, 31, 51, 231, 222, 245, 33, 99, 156, 18, 255, 253, 198] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[23, 20, 30, 14, 16, 16, 4, 4, 4, 4], hash: [78, 39, 101, 232, 236, 95, 62, 11, 160, 4, 28, 145, 201, 142, 207, 231, 178, 216, 214, 146, 169, 229, 13, 120, 129, 224, 13, 43, 89, 60, 249, 139] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[2, 16, 6, 27, 16, 16, 4, 4, 4, 4], hash: [200, 85, 11, 78, 254, 181, 228, 254, 59, 207, 103, 134, 65, 85, 46, 96, 250, 187, 39, 96, 227, 64, 254, 38, 139, 232, 189, 102, 55, 125, 127, 152] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[3, 16, 7, 27, 16, 16, 4, 4, 4, 4], hash: [142, 167, 8, 51, 43, 225, 76, 158, 191, 250, 16, 165, 19, 103, 180, 73, 55, 43, 37, 26, 73, 75, 44, 177, 94, 52, 161, 153, 77, 229, 230, 15] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[4, 16, 8, 27, 16, 16, 4, 4, 4, 4], hash: [109, 224, 1, 127, 63, 185, 141, 123, 230, 2, 162, 167, 185, 55, 71, 26, 114, 55, 7, 55, 214, 249, 250, 55, 222, 170, 181, 208, 124, 219, 213, 7] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[5, 16, 9, 27, 16, 16, 4, 4, 4, 4], hash: [46, 55, 39, 122, 91, 56, 96, 76, 47, 43, 44, 24, 190, 197, 246, 193, 221, 156, 14, 8, 12, 248, 253, 250, 99, 240, 223, 198, 65, 3, 105, 235] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[6, 16, 10, 27, 16, 16, 4, 4, 4, 4], hash: [52, 53, 202, 35, 170, 48, 111, 230, 41, 48, 31, 128, 91, 87, 188, 157, 65, 249, 120, 63, 181, 18, 184, 175, 155, 38, 218, 95, 69, 137, 15, 0] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[7, 16, 11, 27, 16, 16, 4, 4, 4, 4], hash: [75, 101, 55, 102, 52, 72, 23, 93, 98, 185, 130, 83, 101, 103, 162, 159, 235, 64, 91, 107, 185, 2, 60, 117, 211, 109, 166, 56, 13, 238, 255, 58] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[8, 16, 12, 27, 16, 16, 4, 4, 4, 4], hash: [120, 198, 45, 178, 111, 248, 72, 238, 35, 233, 148, 21, 97, 46, 42, 170, 150, 72, 215, 88, 85, 223, 78, 45, 143, 41, 229, 143, 150, 110, 92, 85] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[9, 16, 13, 27, 16, 16, 4, 4, 4, 4], hash: [174, 238, 228, 192, 162, 60, 186, 244, 124, 183, 43, 249, 122, 244, 175, 38, 231, 241, 48, 78, 249, 46, 186, 81, 167, 38, 254, 105, 172, 6, 150, 250] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[10, 16, 14, 27, 16, 16, 4, 4, 4, 4], hash: [149, 40, 159, 73, 216, 72, 60, 87, 38, 251, 94, 153, 203, 226, 176, 155, 205, 194, 22, 161, 151, 22, 70, 13, 254, 213, 52, 86, 230, 130, 193, 104] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[11, 16, 15, 27, 16, 16, 4, 4, 4, 4], hash: [142, 219, 35, 213, 39, 202, 255, 75, 40, 156, 130, 245, 57, 110, 123, 253, 69, 106, 179, 4, 194, 207, 146, 36, 98, 121, 177, 213, 213, 51, 66, 146] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[12, 16, 16, 27, 16, 16, 4, 4, 4, 4], hash: [174, 126, 240, 113, 150, 12, 205, 170, 34, 147, 163, 86, 68, 47, 49, 140, 15, 31, 68, 181, 255, 183, 121, 229, 45, 255, 50, 39, 172, 26, 7, 116] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[13, 16, 17, 27, 16, 16, 4, 4, 4, 4], hash: [115, 73, 46, 246, 176, 185, 72, 123, 114, 229, 254, 248, 113, 221, 137, 90, 246, 146, 135, 231, 35, 211, 9, 230, 225, 85, 205, 232, 65, 160, 149, 252] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[14, 16, 18, 27, 16, 16, 4, 4, 4, 4], hash: [167, 150, 95, 226, 238, 250, 227, 207, 133, 123, 243, 216, 148, 116, 126, 15, 122, 42, 172, 162, 125, 104, 33, 227, 30, 182, 124, 77, 224, 68, 168, 29] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[15, 16, 19, 27, 16, 16, 4, 4, 4, 4], hash: [95, 74, 251, 191, 235, 167, 173, 7, 18, 86, 98, 205, 224, 62, 154, 240, 221, 214, 9, 175, 143, 80, 145, 9, 142, 19, 16, 219, 118, 74, 248, 92] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[16, 16, 20, 27, 16, 16, 4, 4, 4, 4], hash: [28, 252, 130, 245, 64, 224, 203, 89, 208, 53, 119, 100, 170, 116, 227, 62, 166, 10, 43, 94, 150, 17, 78, 218, 33, 142, 182, 40, 102, 113, 243, 183] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[17, 16, 21, 27, 16, 16, 4, 4, 4, 4], hash: [30, 204, 58, 223, 212, 37, 124, 252, 70, 32, 174, 54, 204, 96, 26, 136, 84, 178, 34, 139, 67, 48, 108, 28, 108, 212, 28, 39, 175, 136, 212, 177] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[18, 16, 22, 27, 16, 16, 4, 4, 4, 4], hash: [222, 159, 199, 231, 210, 241, 3, 205, 241, 36, 171, 85, 238, 53, 240, 216, 194, 191, 197, 107, 99, 91, 28, 118, 204, 213, 251, 55, 179, 205, 2, 189] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[19, 16, 23, 27, 16, 16, 4, 4, 4, 4], hash: [59, 13, 243, 121, 33, 127, 188, 142, 15, 30, 141, 184, 221, 10, 225, 127, 254, 73, 148, 116, 5, 91, 140, 165, 90, 7, 35, 81, 78, 252, 16, 211] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[20, 16, 24, 27, 16, 16, 4, 4, 4, 4], hash: [36, 242, 63, 250, 169, 247, 244, 208, 52, 24, 92, 81, 204, 178, 171, 50, 228, 228, 17, 88, 59, 246, 246, 246, 115, 6, 50, 128, 10, 245, 228, 39] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[21, 16, 25, 27, 16, 16, 4, 4, 4, 4], hash: [32, 49, 182, 139, 174, 72, 64, 94, 36, 205, 54, 94, 110, 135, 22, 105, 43, 151, 198, 113, 65, 59, 36, 223, 31, 18, 30, 136, 173, 99, 237, 173] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[22, 16, 26, 27, 16, 16, 4, 4, 4, 4], hash: [101, 93, 149, 119, 48, 208, 24, 30, 13, 201, 84, 161, 58, 75, 235, 252, 188, 11, 196, 211, 90, 221, 158, 206, 232, 34, 236, 205, 79, 61, 61, 77] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[23, 16, 27, 27, 16, 16, 4, 4, 4, 4], hash: [161, 157, 194, 144, 89, 166, 180, 124, 251, 43, 240, 51, 50, 174, 54, 57, 177, 71, 149, 188, 173, 156, 172, 9, 59, 227, 23, 165, 203, 64, 109, 22] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[24, 16, 28, 27, 16, 16, 4, 4, 4, 4], hash: [21, 158, 9, 18, 4, 229, 162, 206, 159, 59, 55, 192, 179, 170, 165, 152, 96, 195, 112, 24, 176, 238, 52, 63, 32, 119, 12, 251, 89, 174, 76, 57] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[25, 16, 29, 27, 16, 16, 4, 4, 4, 4], hash: [219, 186, 110, 70, 198, 140, 196, 8, 199, 99, 106, 23, 205, 241, 177, 230, 16, 236, 190, 121, 138, 181, 33, 3, 250, 173, 139, 130, 6, 160, 153, 36] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 4, params: &[26, 16, 30, 27, 16, 16, 4, 4, 4, 4], hash: [61, 142, 249, 6, 121, 146, 67, 232, 88, 165, 236, 16, 103, 243, 140, 77, 112, 42, 138, 24, 172, 99, 200, 126, 73, 103, 128, 212, 122, 68, 104, 241] },
    PatternEntry { protocol: STARK, modulus: M31, degree: 3, params: &[1], hash: [57, 191, 153, 94, 212, 186, 63, 58, 104, 249, 16, 51, 29, 22, 47, 60, 6, 197, 3, 199, 94, 87, 128, 171, 58, 208, 48, 71, 249, 79, 255, 164] },
    PatternEntry { protocol: STARK, modulus: M31, degree: 3, params: &[8], hash: [177, 91, 4, 192, 116, 69, 133, 112, 207, 118, 195, 73, 181, 211, 97, 206, 80, 122, 32, 95, 154, 41, 35, 17, 189, 30, 239, 168, 177, 152, 189, 50] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[3, 20, 10, 14, 2, 2, 3], hash: [4, 41, 7, 88, 104, 62, 27, 160, 109, 205, 99, 248, 202, 204, 255, 188, 246, 144, 25, 214, 139, 226, 45, 100, 238, 77, 127, 132, 141, 148, 60, 46] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[4, 20, 11, 14, 2, 2, 3], hash: [58, 98, 250, 130, 192, 117, 190, 237, 76, 195, 162, 127, 123, 67, 151, 221, 96, 199, 173, 248, 47, 1, 70, 240, 207, 198, 254, 91, 75, 220, 213, 106] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[5, 20, 12, 14, 2, 2, 3], hash: [216, 154, 143, 49, 66, 25, 49, 58, 154, 24, 140, 209, 101, 151, 105, 87, 198, 145, 86, 11, 142, 227, 126, 216, 251, 84, 18, 67, 186, 250, 131, 67] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[6, 20, 13, 14, 2, 2, 3], hash: [197, 33, 2, 153, 78, 105, 17, 26, 88, 202, 118, 87, 218, 80, 138, 72, 128, 133, 36, 47, 191, 161, 22, 101, 2, 223, 17, 103, 161, 30, 197, 229] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[7, 20, 14, 14, 2, 2, 3], hash: [138, 158, 129, 100, 190, 101, 82, 141, 253, 124, 217, 229, 114, 225, 207, 60, 115, 246, 194, 238, 83, 79, 66, 182, 248, 43, 130, 205, 233, 219, 0, 83] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[8, 20, 15, 14, 2, 2, 3], hash: [80, 26, 53, 35, 249, 18, 8, 183, 73, 239, 74, 126, 206, 42, 117, 141, 235, 242, 91, 237, 24, 100, 32, 214, 88, 161, 197, 212, 211, 133, 77, 92] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[9, 20, 16, 14, 2, 2, 3], hash: [20, 226, 34, 184, 38, 112, 240, 54, 147, 152, 178, 168, 89, 229, 212, 210, 129, 95, 234, 157, 118, 54, 36, 64, 1, 66, 115, 62, 68, 40, 2, 89] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[10, 20, 17, 14, 2, 2, 3], hash: [228, 172, 212, 188, 254, 252, 64, 77, 163, 194, 146, 96, 124, 40, 251, 232, 57, 240, 66, 172, 159, 241, 18, 235, 89, 7, 174, 71, 59, 187, 47, 142] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[11, 20, 18, 14, 2, 2, 3], hash: [213, 168, 162, 163, 8, 234, 186, 226, 172, 4, 61, 73, 197, 34, 208, 240, 30, 237, 67, 121, 117, 24, 177, 129, 1, 234, 107, 101, 76, 57, 68, 121] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[12, 20, 19, 14, 2, 2, 3], hash: [204, 142, 37, 110, 18, 226, 96, 78, 161, 22, 253, 113, 111, 148, 34, 81, 121, 155, 31, 196, 44, 215, 89, 214, 89, 145, 197, 41, 62, 0, 145, 66] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[13, 20, 20, 14, 2, 2, 3], hash: [119, 174, 110, 172, 96, 93, 74, 226, 189, 182, 67, 205, 27, 184, 94, 235, 58, 92, 105, 123, 198, 99, 214, 3, 17, 210, 143, 35, 130, 186, 244, 179] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[14, 20, 21, 14, 2, 2, 3], hash: [187, 66, 194, 102, 227, 207, 212, 25, 14, 128, 144, 73, 168, 105, 80, 91, 52, 106, 73, 121, 247, 48, 169, 226, 253, 209, 98, 241, 251, 206, 133, 157] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[15, 20, 22, 14, 2, 2, 3], hash: [143, 244, 45, 113, 131, 189, 59, 211, 162, 101, 204, 196, 196, 145, 200, 177, 105, 189, 50, 148, 108, 171, 171, 61, 221, 232, 200, 223, 180, 188, 136, 186] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[16, 20, 23, 14, 2, 2, 3], hash: [154, 110, 227, 5, 74, 119, 70, 243, 114, 112, 161, 58, 24, 99, 157, 235, 200, 20, 200, 143, 12, 78, 207, 247, 151, 61, 86, 171, 51, 208, 13, 108] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[17, 20, 24, 14, 2, 2, 3], hash: [231, 244, 132, 77, 64, 178, 201, 191, 95, 233, 75, 99, 33, 240, 54, 26, 4, 199, 83, 112, 249, 69, 66, 228, 12, 120, 41, 99, 252, 69, 220, 46] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[18, 20, 25, 14, 2, 2, 3], hash: [46, 143, 210, 102, 225, 19, 44, 59, 53, 167, 222, 54, 217, 217, 41, 87, 254, 5, 141, 16, 47, 133, 252, 60, 22, 125, 201, 104, 163, 218, 43, 185] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[19, 20, 26, 14, 2, 2, 3], hash: [210, 37, 147, 1, 127, 176, 252, 238, 132, 69, 19, 50, 18, 176, 72, 60, 6, 12, 230, 50, 187, 74, 125, 16, 130, 242, 133, 12, 119, 253, 52, 148] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[20, 20, 27, 14, 2, 2, 3], hash: [17, 69, 222, 14, 143, 50, 74, 87, 172, 93, 5, 79, 149, 80, 198, 255, 86, 196, 245, 69, 91, 109, 60, 3, 132, 181, 13, 92, 204, 36, 178, 117] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[21, 20, 28, 14, 2, 2, 3], hash: [220, 5, 170, 195, 25, 206, 167, 198, 192, 91, 130, 181, 237, 97, 5, 212, 136, 81, 81, 209, 215, 142, 89, 192, 171, 106, 64, 77, 193, 248, 29, 4] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[22, 20, 29, 14, 2, 2, 3], hash: [61, 249, 61, 92, 190, 123, 234, 123, 33, 236, 205, 27, 210, 190, 198, 186, 227, 98, 155, 30, 224, 175, 51, 238, 20, 122, 39, 57, 197, 23, 16, 28] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[23, 20, 30, 14, 2, 2, 3], hash: [45, 73, 115, 136, 249, 151, 9, 67, 16, 105, 137, 165, 240, 105, 3, 245, 238, 177, 76, 58, 97, 146, 204, 102, 79, 233, 210, 163, 117, 151, 33, 36] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[3, 16, 7, 27, 2, 2, 3], hash: [43, 76, 73, 40, 226, 99, 26, 5, 183, 175, 202, 43, 39, 160, 77, 46, 172, 63, 24, 244, 54, 9, 108, 115, 97, 119, 104, 72, 166, 37, 220, 123] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[4, 16, 8, 27, 2, 2, 3], hash: [57, 178, 206, 232, 91, 1, 159, 151, 132, 137, 49, 194, 194, 50, 189, 216, 95, 156, 251, 101, 64, 232, 43, 152, 66, 166, 34, 177, 40, 21, 187, 50] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[5, 16, 9, 27, 2, 2, 3], hash: [76, 205, 78, 66, 170, 157, 239, 210, 53, 234, 176, 216, 179, 43, 73, 117, 194, 35, 172, 17, 199, 14, 11, 222, 150, 176, 252, 131, 32, 112, 117, 47] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[6, 16, 10, 27, 2, 2, 3], hash: [201, 142, 111, 181, 159, 51, 197, 10, 93, 150, 236, 191, 201, 3, 249, 21, 42, 175, 44, 2, 239, 28, 75, 30, 153, 38, 158, 145, 86, 114, 41, 116] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[7, 16, 11, 27, 2, 2, 3], hash: [139, 149, 98, 97, 21, 129, 16, 46, 156, 101, 58, 9, 246, 234, 158, 228, 102, 59, 238, 222, 101, 104, 102, 182, 180, 52, 189, 203, 211, 127, 226, 110] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[8, 16, 12, 27, 2, 2, 3], hash: [54, 4, 69, 98, 168, 196, 230, 11, 67, 214, 204, 78, 252, 213, 160, 148, 92, 112, 96, 10, 143, 64, 151, 203, 62, 125, 252, 111, 149, 209, 168, 105] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[9, 16, 13, 27, 2, 2, 3], hash: [93, 126, 248, 253, 189, 170, 164, 201, 34, 42, 3, 231, 5, 5, 194, 70, 30, 27, 2, 11, 93, 161, 168, 32, 183, 139, 219, 34, 24, 122, 219, 235] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[10, 16, 14, 27, 2, 2, 3], hash: [170, 71, 206, 214, 127, 252, 247, 129, 126, 100, 13, 115, 59, 25, 175, 62, 37, 223, 36, 194, 245, 48, 64, 130, 35, 170, 88, 199, 132, 111, 47, 80] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[11, 16, 15, 27, 2, 2, 3], hash: [105, 190, 182, 32, 204, 66, 56, 225, 185, 178, 115, 89, 101, 88, 138, 97, 220, 99, 222, 205, 176, 236, 168, 39, 129, 195, 173, 238, 18, 172, 89, 92] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[12, 16, 16, 27, 2, 2, 3], hash: [21, 123, 196, 61, 75, 0, 209, 171, 0, 7, 121, 17, 179, 61, 0, 63, 154, 25, 6, 56, 145, 110, 140, 139, 112, 76, 27, 20, 92, 147, 163, 78] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[13, 16, 17, 27, 2, 2, 3], hash: [245, 20, 244, 74, 208, 35, 63, 114, 60, 126, 243, 137, 179, 207, 4, 102, 159, 190, 234, 200, 65, 251, 47, 162, 19, 160, 125, 80, 131, 53, 56, 230] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[14, 16, 18, 27, 2, 2, 3], hash: [149, 223, 231, 94, 3, 37, 18, 243, 105, 11, 176, 78, 236, 155, 207, 23, 248, 87, 129, 98, 134, 180, 60, 172, 232, 78, 229, 238, 123, 105, 238, 185] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[15, 16, 19, 27, 2, 2, 3], hash: [180, 237, 177, 6, 175, 104, 3, 26, 10, 50, 128, 234, 2, 123, 177, 178, 44, 110, 221, 93, 131, 0, 168, 164, 47, 124, 159, 16, 104, 54, 33, 225] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[16, 16, 20, 27, 2, 2, 3], hash: [56, 65, 121, 23, 117, 68, 41, 191, 43, 220, 43, 230, 50, 198, 44, 144, 47, 199, 9, 111, 246, 228, 34, 77, 125, 56, 94, 231, 37, 29, 66, 197] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[17, 16, 21, 27, 2, 2, 3], hash: [28, 149, 66, 237, 247, 224, 109, 226, 235, 88, 122, 147, 83, 254, 126, 249, 74, 18, 113, 207, 220, 197, 62, 30, 61, 150, 177, 18, 86, 192, 94, 250] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[18, 16, 22, 27, 2, 2, 3], hash: [97, 99, 167, 231, 169, 58, 47, 150, 132, 110, 175, 236, 192, 213, 167, 198, 29, 106, 143, 24, 15, 26, 47, 144, 8, 50, 223, 171, 58, 29, 109, 52] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[19, 16, 23, 27, 2, 2, 3], hash: [2, 8, 94, 31, 143, 204, 18, 58, 12, 227, 79, 64, 84, 168, 137, 207, 190, 252, 211, 2, 221, 130, 103, 201, 102, 130, 135, 146, 190, 74, 244, 1] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[20, 16, 24, 27, 2, 2, 3], hash: [17, 107, 37, 239, 146, 25, 147, 248, 82, 5, 193, 164, 73, 7, 218, 225, 22, 38, 200, 62, 142, 216, 44, 102, 151, 149, 65, 78, 237, 112, 180, 184] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[21, 16, 25, 27, 2, 2, 3], hash: [6, 138, 154, 78, 84, 131, 208, 252, 68, 219, 232, 54, 209, 205, 20, 37, 125, 157, 46, 101, 222, 240, 135, 37, 22, 191, 253, 212, 26, 42, 53, 30] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[22, 16, 26, 27, 2, 2, 3], hash: [98, 244, 66, 6, 254, 196, 164, 24, 169, 106, 3, 223, 8, 128, 84, 29, 171, 189, 230, 206, 230, 68, 165, 101, 232, 220, 157, 144, 51, 14, 73, 48] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[23, 16, 27, 27, 2, 2, 3], hash: [155, 185, 45, 52, 237, 80, 240, 35, 72, 166, 246, 247, 97, 172, 217, 142, 249, 253, 83, 128, 33, 28, 49, 230, 57, 172, 144, 39, 38, 146, 216, 161] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[24, 16, 28, 27, 2, 2, 3], hash: [210, 15, 130, 127, 154, 254, 140, 188, 216, 194, 27, 12, 137, 78, 148, 56, 137, 212, 177, 3, 48, 170, 58, 189, 171, 12, 86, 238, 113, 250, 170, 185] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[25, 16, 29, 27, 2, 2, 3], hash: [112, 248, 119, 20, 39, 170, 174, 170, 241, 38, 5, 161, 54, 34, 217, 254, 59, 187, 108, 65, 47, 40, 97, 107, 28, 37, 184, 217, 103, 176, 1, 251] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[26, 16, 30, 27, 2, 2, 3], hash: [216, 135, 25, 55, 13, 136, 198, 140, 88, 50, 220, 38, 218, 218, 1, 77, 52, 93, 23, 3, 104, 13, 211, 238, 224, 155, 236, 75, 135, 153, 171, 70] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[2, 20, 9, 14, 16, 16, 3, 3, 3, 3], hash: [54, 21, 65, 174, 28, 39, 241, 148, 228, 92, 223, 47, 97, 120, 69, 205, 160, 73, 36, 226, 246, 12, 28, 143, 255, 220, 64, 212, 102, 0, 191, 109] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[3, 20, 10, 14, 16, 16, 3, 3, 3, 3], hash: [30, 204, 160, 1, 232, 93, 206, 71, 46, 9, 124, 178, 216, 240, 8, 243, 111, 185, 233, 57, 101, 242, 10, 91, 6, 50, 231, 127, 48, 254, 19, 151] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[4, 20, 11, 14, 16, 16, 3, 3, 3, 3], hash: [78, 148, 187, 145, 148, 167, 220, 226, 165, 6, 137, 154, 61, 52, 105, 58, 193, 66, 193, 125, 34, 147, 126, 246, 233, 198, 129, 226, 24, 179, 222, 9] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[5, 20, 12, 14, 16, 16, 3, 3, 3, 3], hash: [101, 199, 79, 235, 251, 211, 148, 94, 215, 121, 116, 180, 213, 208, 190, 191, 159, 45, 95, 5, 165, 58, 17, 228, 93, 95, 197, 127, 136, 141, 126, 139] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[6, 20, 13, 14, 16, 16, 3, 3, 3, 3], hash: [154, 13, 55, 159, 146, 22, 191, 131, 142, 158, 209, 8, 189, 94, 163, 165, 149, 183, 160, 251, 249, 138, 220, 70, 190, 139, 107, 115, 68, 236, 106, 72] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[7, 20, 14, 14, 16, 16, 3, 3, 3, 3], hash: [194, 242, 110, 196, 212, 17, 224, 179, 149, 64, 124, 33, 220, 40, 154, 119, 181, 214, 108, 185, 147, 250, 153, 203, 141, 28, 180, 167, 214, 189, 214, 252] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[8, 20, 15, 14, 16, 16, 3, 3, 3, 3], hash: [193, 118, 94, 250, 6, 86, 51, 142, 201, 50, 35, 223, 131, 15, 213, 195, 151, 82, 218, 121, 125, 100, 93, 158, 252, 196, 240, 254, 84, 164, 124, 25] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[9, 20, 16, 14, 16, 16, 3, 3, 3, 3], hash: [173, 209, 90, 142, 93, 111, 201, 152, 82, 76, 77, 229, 148, 115, 238, 237, 27, 73, 75, 139, 10, 41, 33, 34, 202, 103, 94, 255, 235, 242, 186, 171] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[10, 20, 17, 14, 16, 16, 3, 3, 3, 3], hash: [236, 178, 195, 116, 51, 141, 168, 240, 203, 49, 44, 13, 115, 47, 88, 137, 155, 15, 98, 214, 110, 216, 62, 124, 112, 207, 44, 41, 103, 16, 55, 254] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[11, 20, 18, 14, 16, 16, 3, 3, 3, 3], hash: [71, 66, 215, 143, 116, 158, 137, 43, 124, 228, 212, 165, 233, 171, 157, 175, 71, 31, 175, 152, 35, 194, 31, 155, 75, 5, 106, 5, 189, 193, 41, 138] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[12, 20, 19, 14, 16, 16, 3, 3, 3, 3], hash: [89, 210, 186, 225, 94, 130, 51, 42, 196, 179, 227, 89, 54, 51, 144, 242, 140, 89, 241, 244, 74, 20, 33, 222, 223, 71, 57, 54, 161, 139, 26, 71] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[13, 20, 20, 14, 16, 16, 3, 3, 3, 3], hash: [94, 74, 182, 214, 22, 163, 107, 19, 34, 8, 51, 221, 110, 154, 29, 27, 189, 240, 142, 62, 110, 207, 48, 16, 254, 212, 187, 228, 71, 155, 209, 5] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[14, 20, 21, 14, 16, 16, 3, 3, 3, 3], hash: [172, 0, 3, 167, 79, 241, 185, 125, 157, 219, 219, 80, 148, 105, 163, 140, 72, 36, 64, 60, 74, 65, 133, 9, 17, 230, 4, 79, 148, 91, 179, 240] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[15, 20, 22, 14, 16, 16, 3, 3, 3, 3], hash: [69, 216, 23, 180, 127, 242, 4, 98, 174, 24, 61, 156, 174, 169, 1, 176, 12, 15, 233, 54, 178, 156, 98, 240, 157, 40, 9, 200, 204, 69, 135, 247] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[16, 20, 23, 14, 16, 16, 3, 3, 3, 3], hash: [145, 204, 104, 115, 122, 33, 71, 93, 16, 202, 84, 47, 157, 128, 182, 94, 133, 198, 195, 213, 26, 247, 108, 0, 62, 219, 226, 117, 151, 224, 85, 69] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[17, 20, 24, 14, 16, 16, 3, 3, 3, 3], hash: [222, 90, 27, 83, 161, 154, 103, 177, 30, 157, 243, 152, 42, 232, 127, 221, 248, 47, 11, 59, 127, 170, 120, 118, 77, 21, 114, 28, 61, 225, 151, 75] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[18, 20, 25, 14, 16, 16, 3, 3, 3, 3], hash: [7, 223, 80, 33, 57, 10, 22, 123, 73, 96, 130, 184, 116, 47, 65, 243, 105, 34, 106, 22, 112, 31, 127, 69, 197, 221, 215, 76, 31, 201, 14, 158] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[19, 20, 26, 14, 16, 16, 3, 3, 3, 3], hash: [123, 141, 143, 90, 250, 76, 252, 118, 34, 9, 76, 92, 146, 99, 20, 205, 247, 225, 7, 218, 46, 110, 204, 68, 175, 148, 49, 193, 226, 201, 221, 192] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[20, 20, 27, 14, 16, 16, 3, 3, 3, 3], hash: [57, 190, 2, 60, 139, 33, 252, 185, 168, 89, 101, 121, 139, 32, 40, 149, 112, 195, 72, 144, 36, 126, 104, 213, 99, 44, 3, 22, 58, 96, 7, 207] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[21, 20, 28, 14, 16, 16, 3, 3, 3, 3], hash: [153, 179, 19, 90, 83, 245, 75, 113, 249, 37, 154, 66, 160, 169, 246, 16, 30, 247, 74, 167, 241, 76, 175, 140, 181, 230, 236, 203, 244, 165, 202, 71] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[22, 20, 29, 14, 16, 16, 3, 3, 3, 3], hash: [111, 2, 91, 29, 9, 169, 121, 116, 118, 109, 30, 126, 208, 142, 14, 167, 228, 147, 112, 212, 219, 58, 222, 47, 6, 25, 98, 89, 226, 56, 41, 197] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[23, 20, 30, 14, 16, 16, 3, 3, 3, 3], hash: [146, 40, 71, 35, 25, 46, 64, 174, 220, 13, 157, 227, 131, 237, 216, 143, 83, 96, 16, 166, 108, 218, 53, 168, 231, 101, 209, 44, 97, 137, 153, 249] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[2, 16, 6, 27, 16, 16, 3, 3, 3, 3], hash: [217, 255, 109, 204, 124, 0, 112, 17, 167, 97, 214, 96, 165, 136, 165, 127, 81, 208, 126, 79, 127, 67, 238, 1, 150, 121, 234, 222, 146, 201, 116, 158] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[3, 16, 7, 27, 16, 16, 3, 3, 3, 3], hash: [243, 36, 76, 249, 254, 38, 105, 163, 153, 159, 109, 71, 94, 170, 170, 31, 27, 202, 229, 189, 41, 45, 221, 210, 162, 61, 111, 147, 32, 212, 183, 43] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[4, 16, 8, 27, 16, 16, 3, 3, 3, 3], hash: [231, 31, 29, 39, 226, 29, 189, 237, 58, 136, 129, 198, 255, 168, 197, 87, 200, 125, 111, 3, 87, 69, 70, 94, 160, 193, 35, 202, 127, 255, 215, 3] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[5, 16, 9, 27, 16, 16, 3, 3, 3, 3], hash: [27, 126, 72, 113, 25, 84, 116, 119, 159, 252, 8, 116, 145, 52, 191, 7, 137, 245, 145, 8, 81, 7, 89, 122, 18, 217, 97, 237, 202, 52, 183, 66] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[6, 16, 10, 27, 16, 16, 3, 3, 3, 3], hash: [34, 86, 84, 124, 213, 198, 172, 217, 126, 9, 155, 132, 5, 71, 73, 24, 141, 116, 28, 7, 60, 92, 86, 206, 119, 144, 28, 111, 165, 13, 84, 216] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[7, 16, 11, 27, 16, 16, 3, 3, 3, 3], hash: [214, 239, 89, 150, 240, 64, 40, 57, 70, 59, 84, 176, 168, 54, 208, 138, 163, 48, 224, 218, 229, 122, 246, 251, 58, 175, 82, 172, 93, 135, 68, 47] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[8, 16, 12, 27, 16, 16, 3, 3, 3, 3], hash: [146, 208, 65, 241, 183, 111, 114, 242, 111, 80, 227, 48, 149, 1, 5, 32, 196, 86, 207, 188, 152, 243, 218, 88, 158, 29, 7, 25, 35, 31, 139, 56] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[9, 16, 13, 27, 16, 16, 3, 3, 3, 3], hash: [114, 155, 179, 132, 254, 192, 197, 71, 120, 166, 253, 92, 255, 49, 17, 104, 61, 87, 210, 55, 82, 100, 245, 221, 168, 135, 2, 149, 182, 98, 253, 202] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[10, 16, 14, 27, 16, 16, 3, 3, 3, 3], hash: [213, 69, 86, 252, 216, 131, 245, 224, 176, 12, 61, 94, 84, 41, 153, 41, 90, 158, 230, 208, 5, 243, 255, 68, 220, 33, 229, 132, 23, 139, 48, 55] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[11, 16, 15, 27, 16, 16, 3, 3, 3, 3], hash: [200, 163, 190, 222, 74, 53, 232, 18, 184, 167, 237, 14, 49, 96, 164, 104, 92, 137, 250, 27, 89, 210, 201, 124, 182, 86, 245, 50, 207, 61, 119, 43] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[12, 16, 16, 27, 16, 16, 3, 3, 3, 3], hash: [83, 133, 81, 232, 20, 137, 46, 98, 147, 238, 121, 88, 54, 51, 95, 240, 28, 189, 225, 89, 208, 248, 73, 121, 1, 21, 196, 141, 116, 18, 90, 194] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[13, 16, 17, 27, 16, 16, 3, 3, 3, 3], hash: [11, 106, 215, 131, 255, 196, 21, 33, 117, 26, 242, 246, 45, 118, 37, 66, 222, 86, 200, 229, 184, 19, 68, 163, 189, 47, 207, 148, 251, 240, 66, 34] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[14, 16, 18, 27, 16, 16, 3, 3, 3, 3], hash: [51, 101, 170, 221, 239, 150, 181, 230, 136, 225, 143, 230, 215, 161, 24, 57, 180, 194, 192, 191, 242, 185, 116, 188, 31, 227, 228, 241, 126, 13, 177, 20] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[15, 16, 19, 27, 16, 16, 3, 3, 3, 3], hash: [219, 202, 191, 111, 110, 121, 143, 152, 127, 81, 214, 54, 251, 225, 52, 172, 40, 224, 213, 210, 192, 242, 81, 152, 224, 78, 13, 50, 176, 229, 173, 215] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[16, 16, 20, 27, 16, 16, 3, 3, 3, 3], hash: [110, 144, 75, 77, 57, 131, 122, 209, 235, 75, 104, 94, 176, 218, 213, 15, 113, 61, 255, 2, 145, 72, 15, 129, 104, 57, 122, 162, 75, 161, 8, 10] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[17, 16, 21, 27, 16, 16, 3, 3, 3, 3], hash: [115, 185, 220, 153, 20, 63, 232, 159, 14, 94, 86, 183, 150, 78, 163, 231, 7, 198, 252, 155, 231, 80, 105, 151, 81, 16, 188, 175, 187, 56, 74, 175] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[18, 16, 22, 27, 16, 16, 3, 3, 3, 3], hash: [148, 81, 58, 81, 68, 138, 82, 127, 78, 115, 88, 112, 7, 2, 76, 194, 109, 198, 245, 206, 254, 210, 93, 58, 123, 153, 90, 178, 199, 205, 30, 173] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[19, 16, 23, 27, 16, 16, 3, 3, 3, 3], hash: [199, 237, 152, 178, 221, 200, 100, 11, 60, 250, 40, 185, 183, 173, 152, 76, 90, 91, 6, 104, 206, 26, 142, 212, 91, 43, 115, 48, 239, 75, 103, 203] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[20, 16, 24, 27, 16, 16, 3, 3, 3, 3], hash: [111, 1, 147, 171, 190, 119, 8, 98, 213, 113, 201, 172, 193, 250, 11, 3, 157, 76, 86, 190, 50, 142, 126, 206, 24, 92, 210, 192, 48, 50, 86, 142] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[21, 16, 25, 27, 16, 16, 3, 3, 3, 3], hash: [191, 18, 55, 77, 144, 95, 131, 55, 236, 70, 211, 1, 238, 109, 220, 227, 41, 163, 96, 55, 158, 134, 224, 80, 211, 86, 247, 222, 159, 83, 217, 60] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[22, 16, 26, 27, 16, 16, 3, 3, 3, 3], hash: [222, 233, 241, 60, 247, 73, 23, 181, 247, 10, 136, 56, 42, 212, 205, 7, 88, 129, 2, 58, 34, 165, 212, 161, 210, 125, 211, 63, 69, 146, 180, 74] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[23, 16, 27, 27, 16, 16, 3, 3, 3, 3], hash: [233, 142, 14, 95, 27, 18, 89, 85, 70, 31, 166, 198, 212, 103, 15, 18, 146, 58, 178, 44, 140, 200, 31, 95, 10, 237, 253, 226, 133, 142, 147, 91] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[24, 16, 28, 27, 16, 16, 3, 3, 3, 3], hash: [100, 80, 123, 97, 149, 137, 21, 238, 10, 22, 81, 15, 33, 9, 61, 124, 163, 162, 61, 25, 191, 45, 6, 239, 22, 30, 235, 171, 168, 56, 230, 146] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[25, 16, 29, 27, 16, 16, 3, 3, 3, 3], hash: [76, 122, 74, 63, 244, 121, 201, 33, 176, 164, 241, 212, 95, 62, 228, 223, 217, 87, 62, 108, 23, 234, 172, 204, 169, 65, 250, 135, 17, 41, 218, 24] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 3, params: &[26, 16, 30, 27, 16, 16, 3, 3, 3, 3], hash: [161, 115, 8, 37, 125, 82, 127, 225, 1, 122, 2, 174, 92, 216, 124, 98, 172, 205, 16, 190, 24, 241, 19, 35, 147, 43, 197, 172, 223, 150, 60, 101] },
    PatternEntry { protocol: STARK, modulus: M31, degree: 6, params: &[1], hash: [196, 48, 146, 93, 214, 169, 125, 232, 206, 16, 206, 129, 83, 220, 215, 224, 193, 182, 194, 38, 30, 13, 186, 144, 247, 133, 114, 142, 53, 234, 82, 92] },
    PatternEntry { protocol: STARK, modulus: M31, degree: 6, params: &[8], hash: [147, 234, 142, 115, 165, 248, 72, 39, 248, 185, 133, 52, 82, 152, 11, 78, 1, 113, 47, 3, 245, 70, 196, 11, 147, 111, 93, 44, 137, 135, 7, 100] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[3, 20, 10, 14, 2, 2, 6], hash: [100, 246, 61, 111, 12, 161, 92, 84, 168, 6, 1, 44, 30, 15, 29, 151, 147, 7, 155, 223, 162, 34, 232, 48, 79, 172, 200, 156, 181, 47, 126, 186] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[4, 20, 11, 14, 2, 2, 6], hash: [10, 64, 153, 106, 147, 51, 173, 57, 159, 194, 196, 203, 144, 158, 150, 93, 106, 139, 138, 188, 98, 114, 35, 15, 69, 24, 65, 59, 223, 228, 165, 162] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[5, 20, 12, 14, 2, 2, 6], hash: [0, 138, 63, 36, 63, 120, 89, 185, 17, 81, 173, 35, 42, 17, 174, 215, 97, 89, 133, 17, 121, 57, 64, 139, 152, 178, 92, 241, 6, 13, 214, 109] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[6, 20, 13, 14, 2, 2, 6], hash: [64, 62, 4, 63, 36, 130, 131, 124, 223, 43, 54, 196, 157, 141, 247, 155, 5, 80, 41, 219, 1, 134, 60, 240, 250, 138, 129, 150, 180, 19, 187, 107] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[7, 20, 14, 14, 2, 2, 6], hash: [174, 221, 213, 76, 113, 209, 32, 222, 33, 85, 227, 31, 23, 57, 4, 249, 37, 125, 130, 95, 37, 34, 183, 11, 204, 242, 126, 239, 70, 212, 194, 16] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[8, 20, 15, 14, 2, 2, 6], hash: [203, 38, 35, 32, 100, 201, 212, 190, 10, 18, 46, 61, 98, 138, 178, 166, 237, 33, 24, 196, 253, 211, 99, 101, 166, 186, 248, 54, 4, 200, 78, 135] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[9, 20, 16, 14, 2, 2, 6], hash: [178, 18, 140, 64, 109, 181, 122, 57, 94, 22, 44, 26, 95, 200, 10, 128, 23, 119, 47, 207, 28, 49, 244, 48, 172, 211, 230, 220, 9, 84, 227, 163] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[10, 20, 17, 14, 2, 2, 6], hash: [75, 180, 44, 209, 239, 147, 169, 36, 23, 48, 217, 56, 103, 29, 110, 20, 213, 212, 208, 81, 212, 169, 240, 215, 91, 157, 254, 4, 21, 0, 183, 218] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[11, 20, 18, 14, 2, 2, 6], hash: [2, 207, 83, 203, 146, 203, 6, 106, 165, 197, 215, 151, 134, 58, 14, 167, 133, 96, 67, 172, 55, 8, 87, 129, 144, 17, 155, 137, 30, 146, 120, 236] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[12, 20, 19, 14, 2, 2, 6], hash: [189, 65, 58, 138, 173, 65, 215, 28, 215, 65, 113, 217, 180, 176, 182, 22, 80, 160, 174, 211, 89, 226, 134, 183, 106, 128, 226, 1, 53, 178, 55, 203] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[13, 20, 20, 14, 2, 2, 6], hash: [233, 130, 218, 249, 74, 131, 235, 76, 59, 139, 238, 202, 159, 160, 28, 37, 10, 135, 107, 144, 196, 215, 148, 120, 179, 144, 29, 51, 12, 178, 185, 99] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[14, 20, 21, 14, 2, 2, 6], hash: [225, 25, 238, 90, 84, 144, 159, 240, 172, 31, 27, 15, 58, 74, 175, 138, 81, 112, 89, 208, 235, 213, 88, 120, 12, 78, 109, 85, 150, 25, 3, 11] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[15, 20, 22, 14, 2, 2, 6], hash: [91, 176, 60, 224, 63, 196, 166, 196, 30, 238, 173, 254, 241, 187, 198, 235, 51, 229, 231, 203, 24, 186, 153, 158, 210, 139, 46, 67, 1, 114, 16, 95] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[16, 20, 23, 14, 2, 2, 6], hash: [42, 81, 230, 230, 209, 90, 246, 98, 214, 137, 155, 197, 154, 118, 225, 246, 31, 169, 197, 19, 138, 71, 12, 91, 184, 148, 213, 79, 114, 208, 76, 228] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[17, 20, 24, 14, 2, 2, 6], hash: [215, 192, 134, 206, 3, 178, 23, 71, 237, 55, 66, 17, 209, 136, 5, 196, 45, 197, 135, 42, 11, 13, 94, 144, 118, 196, 197, 22, 140, 195, 121, 134] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[18, 20, 25, 14, 2, 2, 6], hash: [65, 55, 234, 132, 61, 58, 75, 187, 131, 41, 127, 121, 192, 97, 5, 199, 241, 78, 52, 4, 9, 195, 27, 21, 24, 37, 192, 7, 102, 167, 117, 207] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[19, 20, 26, 14, 2, 2, 6], hash: [58, 215, 11, 219, 247, 31, 140, 115, 90, 16, 120, 73, 41, 44, 236, 58, 26, 127, 144, 249, 180, 241, 46, 248, 76, 171, 61, 146, 128, 9, 245, 252] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[20, 20, 27, 14, 2, 2, 6], hash: [115, 22, 150, 81, 243, 25, 40, 0, 97, 97, 232, 213, 157, 119, 178, 250, 19, 95, 112, 98, 203, 2, 239, 129, 148, 44, 190, 43, 221, 209, 173, 211] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[21, 20, 28, 14, 2, 2, 6], hash: [122, 155, 174, 248, 19, 31, 165, 2, 98, 148, 147, 191, 249, 155, 168, 135, 19, 168, 26, 122, 145, 199, 159, 239, 213, 21, 102, 170, 20, 58, 225, 239] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[22, 20, 29, 14, 2, 2, 6], hash: [210, 173, 99, 1, 114, 75, 138, 27, 36, 223, 149, 65, 2, 249, 86, 216, 165, 248, 232, 124, 223, 174, 220, 8, 174, 246, 37, 38, 45, 100, 242, 131] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[23, 20, 30, 14, 2, 2, 6], hash: [63, 133, 36, 247, 233, 8, 49, 197, 224, 221, 250, 114, 188, 18, 66, 76, 119, 148, 66, 226, 2, 238, 78, 179, 127, 22, 197, 97, 80, 140, 138, 103] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[3, 24, 12, 20, 2, 2, 6], hash: [140, 116, 115, 177, 18, 232, 100, 9, 138, 253, 57, 229, 235, 26, 250, 226, 239, 10, 51, 125, 156, 42, 62, 224, 45, 250, 146, 107, 57, 214, 220, 11] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[4, 24, 13, 20, 2, 2, 6], hash: [99, 147, 147, 38, 20, 84, 8, 47, 230, 55, 59, 19, 49, 248, 45, 11, 206, 69, 146, 169, 231, 156, 73, 162, 173, 239, 1, 214, 170, 151, 172, 122] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[5, 24, 14, 20, 2, 2, 6], hash: [168, 54, 234, 67, 98, 208, 156, 251, 174, 163, 47, 140, 7, 47, 230, 4, 138, 253, 127, 246, 43, 175, 85, 22, 102, 151, 240, 186, 193, 167, 231, 194] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[6, 24, 15, 20, 2, 2, 6], hash: [5, 30, 249, 249, 23, 132, 53, 176, 207, 71, 34, 255, 71, 184, 21, 54, 180, 200, 114, 106, 168, 71, 207, 188, 180, 182, 211, 49, 29, 244, 66, 85] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[7, 24, 16, 20, 2, 2, 6], hash: [157, 141, 167, 41, 78, 124, 31, 42, 39, 111, 72, 212, 215, 158, 199, 120, 228, 125, 101, 73, 21, 23, 237, 140, 18, 29, 64, 49, 57, 253, 145, 34] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[8, 24, 17, 20, 2, 2, 6], hash: [116, 153, 122, 48, 154, 70, 25, 123, 177, 162, 179, 231, 117, 196, 46, 64, 37, 210, 206, 40, 96, 96, 235, 209, 194, 204, 28, 197, 106, 109, 230, 79] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[9, 24, 18, 20, 2, 2, 6], hash: [68, 168, 7, 30, 183, 250, 56, 129, 27, 73, 188, 83, 3, 60, 81, 246, 103, 10, 171, 120, 48, 39, 16, 19, 236, 83, 173, 207, 74, 251, 75, 183] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[10, 24, 19, 20, 2, 2, 6], hash: [230, 216, 112, 136, 27, 164, 130, 62, 255, 23, 67, 177, 240, 215, 145, 37, 159, 230, 246, 236, 159, 1, 253, 101, 155, 103, 33, 240, 210, 209, 128, 158] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[11, 24, 20, 20, 2, 2, 6], hash: [54, 103, 162, 1, 248, 73, 0, 236, 162, 119, 47, 74, 18, 252, 250, 241, 157, 185, 185, 153, 173, 159, 241, 62, 109, 73, 26, 153, 36, 175, 150, 191] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[12, 24, 21, 20, 2, 2, 6], hash: [177, 108, 87, 56, 222, 244, 227, 61, 230, 250, 135, 174, 200, 102, 172, 226, 220, 202, 123, 140, 112, 58, 103, 236, 12, 28, 207, 123, 61, 255, 71, 13] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[13, 24, 22, 20, 2, 2, 6], hash: [114, 245, 133, 143, 150, 30, 87, 186, 18, 1, 197, 250, 66, 117, 67, 225, 235, 207, 71, 51, 22, 14, 166, 180, 13, 204, 154, 29, 63, 148, 228, 90] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[14, 24, 23, 20, 2, 2, 6], hash: [77, 101, 129, 108, 100, 116, 254, 79, 4, 28, 47, 112, 189, 190, 234, 133, 135, 238, 169, 164, 69, 164, 43, 102, 176, 9, 159, 218, 33, 210, 8, 137] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[15, 24, 24, 20, 2, 2, 6], hash: [180, 120, 8, 83, 113, 187, 176, 185, 206, 170, 224, 173, 97, 44, 229, 239, 61, 44, 232, 79, 243, 135, 140, 51, 147, 74, 114, 227, 31, 176, 55, 63] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[16, 24, 25, 20, 2, 2, 6], hash: [104, 247, 55, 248, 160, 46, 41, 104, 16, 254, 59, 136, 13, 51, 43, 21, 214, 248, 79, 33, 19, 242, 168, 244, 161, 14, 67, 48, 39, 220, 137, 81] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[17, 24, 26, 20, 2, 2, 6], hash: [23, 105, 235, 164, 91, 13, 239, 74, 243, 20, 159, 69, 228, 194, 70, 52, 123, 196, 142, 105, 28, 69, 24, 238, 173, 97, 5, 140, 210, 212, 104, 239] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[18, 24, 27, 20, 2, 2, 6], hash: [220, 154, 230, 180, 234, 143, 115, 9, 91, 210, 210, 157, 56, 226, 184, 134, 197, 184, 71, 193, 182, 188, 243, 190, 112, 196, 34, 121, 71, 208, 112, 235] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[19, 24, 28, 20, 2, 2, 6], hash: [109, 5, 217, 65, 111, 146, 172, 245, 66, 154, 101, 184, 201, 10, 22, 62, 250, 154, 167, 169, 100, 12, 6, 55, 84, 118, 201, 219, 180, 14, 105, 164] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[20, 24, 29, 20, 2, 2, 6], hash: [241, 176, 106, 123, 120, 176, 236, 152, 128, 11, 78, 126, 175, 246, 207, 253, 118, 222, 100, 125, 118, 188, 164, 109, 196, 232, 159, 237, 255, 35, 215, 108] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[21, 24, 30, 20, 2, 2, 6], hash: [176, 116, 5, 118, 45, 12, 174, 214, 123, 57, 50, 239, 202, 228, 32, 39, 199, 92, 69, 31, 194, 92, 74, 75, 113, 82, 187, 216, 115, 229, 130, 254] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[2, 20, 9, 14, 16, 16, 6, 6, 6, 6], hash: [108, 65, 110, 45, 170, 252, 64, 32, 114, 241, 124, 143, 25, 249, 77, 194, 160, 199, 175, 70, 66, 242, 14, 130, 35, 201, 102, 110, 240, 187, 23, 228] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[3, 20, 10, 14, 16, 16, 6, 6, 6, 6], hash: [173, 235, 192, 235, 39, 27, 133, 100, 51, 234, 185, 5, 204, 80, 113, 1, 63, 16, 223, 158, 242, 79, 126, 172, 211, 93, 22, 180, 190, 40, 123, 147] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[4, 20, 11, 14, 16, 16, 6, 6, 6, 6], hash: [60, 55, 1, 117, 100, 184, 164, 20, 161, 228, 244, 33, 15, 75, 176, 138, 19, 241, 88, 75, 94, 157, 182, 118, 71, 46, 197, 111, 85, 83, 102, 225] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[5, 20, 12, 14, 16, 16, 6, 6, 6, 6], hash: [240, 54, 145, 63, 191, 191, 107, 232, 146, 54, 63, 96, 174, 43, 17, 50, 64, 113, 87, 72, 162, 244, 216, 3, 199, 121, 138, 47, 83, 234, 106, 125] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[6, 20, 13, 14, 16, 16, 6, 6, 6, 6], hash: [223, 127, 107, 228, 114, 40, 226, 145, 65, 52, 98, 76, 24, 124, 200, 107, 72, 32, 173, 162, 36, 111, 233, 210, 189, 69, 244, 208, 48, 102, 252, 118] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[7, 20, 14, 14, 16, 16, 6, 6, 6, 6], hash: [199, 15, 16, 197, 218, 188, 183, 200, 169, 73, 31, 73, 18, 5, 157, 127, 233, 72, 235, 75, 231, 239, 5, 57, 106, 185, 174, 17, 70, 232, 49, 91] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[8, 20, 15, 14, 16, 16, 6, 6, 6, 6], hash: [146, 45, 244, 134, 54, 204, 233, 122, 88, 0, 58, 129, 78, 32, 151, 69, 185, 169, 70, 177, 110, 63, 18, 209, 120, 141, 179, 120, 200, 237, 172, 154] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[9, 20, 16, 14, 16, 16, 6, 6, 6, 6], hash: [70, 51, 9, 70, 17, 241, 244, 138, 134, 82, 179, 151, 81, 242, 34, 149, 252, 70, 241, 192, 59, 247, 208, 142, 104, 239, 151, 242, 110, 165, 102, 173] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[10, 20, 17, 14, 16, 16, 6, 6, 6, 6], hash: [13, 127, 59, 230, 58, 53, 150, 114, 210, 15, 126, 0, 2, 236, 203, 213, 114, 190, 42, 137, 196, 232, 36, 49, 244, 204, 170, 147, 10, 184, 232, 65] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[11, 20, 18, 14, 16, 16, 6, 6, 6, 6], hash: [44, 141, 152, 93, 102, 124, 119, 232, 96, 254, 127, 98, 111, 190, 236, 17, 2, 225, 67, 22, 96, 136, 35, 175, 14, 235, 61, 242, 45, 1, 57, 254] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[12, 20, 19, 14, 16, 16, 6, 6, 6, 6], hash: [130, 248, 240, 70, 41, 81, 40, 251, 207, 14, 137, 240, 142, 93, 87, 65, 95, 194, 42, 215, 94, 63, 224, 85, 16, 242, 215, 124, 30, 115, 1, 95] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[13, 20, 20, 14, 16, 16, 6, 6, 6, 6], hash: [103, 181, 134, 1, 189, 153, 82, 253, 91, 189, 234, 143, 210, 190, 242, 11, 126, 238, 87, 27, 141, 253, 0, 64, 124, 233, 206, 221, 9, 113, 208, 51] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[14, 20, 21, 14, 16, 16, 6, 6, 6, 6], hash: [104, 91, 235, 234, 254, 75, 155, 195, 44, 91, 163, 99, 213, 237, 213, 164, 113, 28, 189, 39, 64, 200, 255, 124, 104, 58, 191, 161, 186, 165, 191, 159] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[15, 20, 22, 14, 16, 16, 6, 6, 6, 6], hash: [217, 183, 49, 91, 46, 36, 74, 179, 105, 62, 3, 185, 185, 174, 92, 148, 90, 119, 128, 88, 173, 74, 51, 123, 33, 197, 165, 98, 87, 23, 34, 87] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[16, 20, 23, 14, 16, 16, 6, 6, 6, 6], hash: [189, 160, 5, 118, 119, 253, 102, 29, 207, 6, 174, 67, 81, 6, 86, 34, 38, 224, 51, 209, 51, 33, 252, 19, 116, 149, 91, 240, 84, 155, 246, 169] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[17, 20, 24, 14, 16, 16, 6, 6, 6, 6], hash: [91, 76, 217, 220, 178, 26, 93, 192, 151, 243, 189, 137, 40, 213, 219, 51, 158, 92, 225, 83, 176, 49, 162, 22, 10, 153, 12, 254, 211, 255, 234, 154] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[18, 20, 25, 14, 16, 16, 6, 6, 6, 6], hash: [199, 218, 166, 2, 173, 95, 181, 44, 6, 129, 182, 248, 161, 10, 86, 201, 183, 128, 160, 48, 38, 218, 122, 128, 167, 28, 71, 45, 95, 127, 129, 203] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[19, 20, 26, 14, 16, 16, 6, 6, 6, 6], hash: [30, 64, 225, 246, 35, 0, 87, 95, 95, 57, 182, 153, 120, 149, 251, 236, 193, 49, 230, 255, 245, 68, 105, 161, 114, 117, 211, 43, 217, 174, 181, 154] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[20, 20, 27, 14, 16, 16, 6, 6, 6, 6], hash: [198, 143, 86, 118, 170, 62, 230, 42, 63, 147, 87, 133, 250, 161, 81, 61, 143, 87, 104, 24, 134, 237, 60, 62, 10, 33, 165, 92, 144, 237, 140, 64] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[21, 20, 28, 14, 16, 16, 6, 6, 6, 6], hash: [217, 11, 3, 44, 25, 0, 72, 36, 208, 193, 221, 227, 244, 115, 35, 1, 48, 104, 212, 208, 226, 90, 40, 27, 15, 113, 238, 105, 82, 5, 120, 15] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[22, 20, 29, 14, 16, 16, 6, 6, 6, 6], hash: [101, 220, 7, 102, 213, 58, 242, 214, 198, 200, 91, 174, 49, 142, 248, 158, 193, 84, 91, 130, 120, 72, 188, 14, 82, 153, 132, 30, 82, 19, 31, 138] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[23, 20, 30, 14, 16, 16, 6, 6, 6, 6], hash: [155, 61, 111, 151, 105, 25, 228, 251, 213, 168, 70, 162, 138, 66, 122, 61, 57, 7, 25, 245, 102, 73, 253, 203, 158, 108, 24, 3, 174, 205, 135, 157] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[2, 24, 11, 20, 16, 16, 6, 6, 6, 6], hash: [117, 140, 152, 124, 219, 176, 57, 98, 7, 96, 99, 230, 190, 13, 86, 211, 222, 128, 74, 50, 8, 160, 131, 95, 242, 214, 154, 92, 211, 104, 201, 48] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[3, 24, 12, 20, 16, 16, 6, 6, 6, 6], hash: [230, 191, 188, 155, 101, 117, 28, 205, 39, 124, 108, 186, 105, 174, 147, 56, 252, 93, 246, 216, 169, 219, 16, 77, 11, 78, 174, 23, 89, 101, 242, 160] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[4, 24, 13, 20, 16, 16, 6, 6, 6, 6], hash: [202, 144, 195, 190, 114, 244, 79, 217, 224, 52, 173, 50, 67, 211, 18, 252, 213, 42, 174, 127, 15, 209, 131, 38, 194, 42, 56, 147, 64, 228, 233, 255] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[5, 24, 14, 20, 16, 16, 6, 6, 6, 6], hash: [234, 246, 12, 221, 156, 193, 30, 163, 138, 38, 133, 97, 15, 140, 178, 83, 169, 137, 74, 84, 193, 121, 227, 229, 98, 16, 7, 16, 38, 96, 29, 48] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[6, 24, 15, 20, 16, 16, 6, 6, 6, 6], hash: [139, 191, 153, 132, 102, 92, 139, 76, 0, 124, 83, 254, 55, 115, 203, 64, 233, 203, 89, 178, 252, 77, 142, 105, 217, 64, 148, 68, 127, 4, 238, 1] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[7, 24, 16, 20, 16, 16, 6, 6, 6, 6], hash: [222, 171, 129, 92, 193, 109, 225, 57, 90, 193, 211, 171, 165, 74, 205, 191, 142, 6, 86, 88, 173, 87, 112, 166, 202, 89, 13, 230, 221, 60, 181, 77] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[8, 24, 17, 20, 16, 16, 6, 6, 6, 6], hash: [37, 143, 68, 21, 141, 88, 159, 165, 36, 195, 211, 185, 45, 50, 51, 0, 95, 179, 229, 53, 49, 7, 119, 66, 3, 133, 0, 102, 246, 55, 200, 137] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[9, 24, 18, 20, 16, 16, 6, 6, 6, 6], hash: [205, 39, 252, 231, 87, 139, 238, 186, 6, 207, 60, 93, 151, 142, 117, 234, 56, 96, 83, 188, 117, 108, 236, 105, 228, 249, 246, 154, 122, 88, 99, 189] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[10, 24, 19, 20, 16, 16, 6, 6, 6, 6], hash: [5, 225, 22, 246, 166, 200, 78, 4, 213, 138, 100, 222, 67, 48, 105, 149, 155, 182, 172, 144, 117, 33, 26, 217, 220, 251, 30, 203, 251, 58, 232, 18] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[11, 24, 20, 20, 16, 16, 6, 6, 6, 6], hash: [67, 78, 87, 23, 185, 114, 30, 108, 12, 63, 231, 35, 203, 197, 32, 133, 96, 23, 30, 240, 119, 208, 139, 10, 175, 133, 115, 106, 35, 169, 164, 69] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[12, 24, 21, 20, 16, 16, 6, 6, 6, 6], hash: [70, 253, 24, 3, 26, 45, 165, 206, 241, 6, 161, 154, 107, 124, 138, 74, 43, 46, 236, 57, 45, 93, 203, 213, 103, 13, 227, 249, 237, 70, 51, 243] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[13, 24, 22, 20, 16, 16, 6, 6, 6, 6], hash: [219, 109, 173, 103, 163, 21, 52, 195, 95, 250, 94, 55, 142, 206, 228, 52, 221, 17, 130, 162, 90, 159, 131, 112, 76, 209, 202, 173, 185, 25, 172, 224] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[14, 24, 23, 20, 16, 16, 6, 6, 6, 6], hash: [250, 73, 160, 20, 176, 204, 248, 18, 231, 85, 80, 250, 224, 70, 113, 10, 245, 214, 215, 167, 38, 56, 76, 186, 230, 73, 127, 117, 77, 177, 52, 93] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[15, 24, 24, 20, 16, 16, 6, 6, 6, 6], hash: [247, 139, 175, 253, 115, 233, 125, 216, 106, 135, 9, 136, 123, 69, 29, 241, 188, 19, 225, 249, 162, 197, 182, 16, 204, 129, 33, 37, 247, 56, 251, 74] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[16, 24, 25, 20, 16, 16, 6, 6, 6, 6], hash: [123, 139, 116, 244, 124, 133, 6, 145, 92, 117, 238, 58, 74, 104, 37, 12, 138, 187, 10, 153, 240, 143, 136, 122, 86, 147, 60, 195, 236, 237, 32, 192] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[17, 24, 26, 20, 16, 16, 6, 6, 6, 6], hash: [210, 234, 70, 139, 7, 70, 196, 10, 161, 122, 166, 164, 105, 165, 214, 105, 27, 245, 169, 171, 195, 49, 160, 53, 193, 1, 49, 237, 218, 63, 113, 168] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[18, 24, 27, 20, 16, 16, 6, 6, 6, 6], hash: [23, 43, 62, 88, 133, 184, 48, 61, 198, 20, 174, 6, 56, 179, 40, 21, 224, 76, 216, 97, 215, 129, 218, 241, 88, 54, 205, 138, 65, 91, 55, 114] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[19, 24, 28, 20, 16, 16, 6, 6, 6, 6], hash: [120, 77, 82, 57, 183, 153, 144, 90, 100, 201, 239, 136, 195, 130, 77, 11, 70, 22, 67, 76, 40, 213, 69, 18, 217, 49, 99, 20, 18, 49, 61, 81] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[20, 24, 29, 20, 16, 16, 6, 6, 6, 6], hash: [215, 85, 136, 41, 175, 49, 3, 48, 106, 5, 166, 149, 28, 156, 254, 165, 246, 106, 161, 115, 246, 40, 174, 1, 175, 25, 15, 200, 18, 164, 54, 219] },
    PatternEntry { protocol: PROTOCOL, modulus: M31, degree: 6, params: &[21, 24, 30, 20, 16, 16, 6, 6, 6, 6], hash: [6, 50, 28, 137, 234, 55, 217, 71, 1, 180, 239, 93, 79, 239, 137, 247, 186, 123, 112, 1, 49, 192, 126, 85, 171, 21, 43, 247, 113, 251, 52, 98] },
];

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;
    use picostark_air::chain16::CubicChain16;
    use picostark_air::fibonacci::Fibonacci;
    use picostark_air::AirDef;

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
            let mut seen: Vec<usize> = (0..1 << log_n)
                .map(|i| cfft_permute_index(i, log_n))
                .collect();
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

    /// The shapes the table covers: both challenge fields, both AIRs (Fibonacci: width 2, one
    /// quotient chunk; CubicChain16: width 16, four chunks), default and foundation
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
            ] {
                out.push((STARK, degree, alloc::vec![air_public as u32]));
            }
            for (width, chunks) in [(2u32, 1usize), (16, 4)] {
                for (log_blowup, queries, pow) in params {
                    for log_n in 3..=(30 - log_blowup) {
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

//! The FRI query phase of winterfell 0.13, checked in place over the proof bytes.
//!
//! Same protocol as `winter_fri::FriVerifier::verify` (layer `k` holds, for each folded
//! position `j`, the `N` values at `j + t * D_k / N`; its points are `offset * g_k^j * w^t`
//! with the fixed `N`-th root `w`; the next layer's value is the interpolant of a row
//! evaluated at the layer's `alpha`; the remainder is a coefficient list, highest degree
//! first). Differences: values are decoded from the borrowed bytes as they are needed, the
//! interpolant is evaluated by N - 1 binary folding steps instead of per-row polynomial
//! interpolation and allocations, every length is checked against the expected shape
//! instead of indexed blindly, and the remainder is checked against its commitment
//! (upstream reseeds the coin with that commitment but never compares it).

use alloc::vec::Vec;

use picostark_core::{digests_equal, Check, Failures, Tree, VerifyError};
use winter_crypto::Digest;
use winter_math::{FieldElement, StarkField};

use super::math::{equal, invert_in_place, Powers};
use super::merkle::{verify_batch, MerkleScratch, Node, NodeHash};
use super::parse::{element_at, malformed, RawFriLayer};

/// The fixed shape of a FRI proof, from the (checked) proof options.
pub struct FriShape {
    pub folding: usize,
    pub lde_domain_size: usize,
    /// `n`: the DEEP composition polynomial has degree below the trace length.
    pub max_degree_plus_1: usize,
    pub num_layers: usize,
}

/// Everything the query phase consumes.
pub struct FriInputs<'p, B: StarkField, E, D> {
    pub shape: FriShape,
    /// Powers of the LDE domain's generator; layer `k`'s generator is its `N^k`-th power.
    pub lde_powers: &'p Powers<B>,
    pub domain_offset: B,
    /// Layer commitments followed by the remainder commitment.
    pub commitments: &'p [D],
    /// One `alpha` per layer commitment (the last is drawn but unused, as upstream).
    pub alphas: &'p [E],
    pub layers: &'p [RawFriLayer<'p>],
    pub remainder: &'p [u8],
}

/// Checks the FRI query phase for the DEEP evaluations `evaluations` at the sorted, distinct
/// `positions`. `evaluations` and `positions` are consumed as working buffers. Every value
/// check runs to the end and records a failure in `fails` (issue 46); an error is the
/// proof's shape.
pub fn verify_queries<B, E, H>(
    inp: &FriInputs<'_, B, E, H::Digest>,
    mut positions: Vec<usize>,
    mut evaluations: Vec<E>,
    merkle: &mut MerkleScratch,
    fails: &mut Failures,
) -> Result<(), VerifyError>
where
    B: StarkField,
    E: FieldElement<BaseField = B>,
    H: NodeHash,
{
    let n = inp.shape.folding;
    let fold_ok = matches!(n, 2 | 4 | 8 | 16);
    if !fold_ok || inp.layers.len() != inp.shape.num_layers || positions.len() != evaluations.len()
    {
        return Err(malformed("FRI proof shape"));
    }
    if inp.commitments.len() != inp.shape.num_layers + 1
        || inp.alphas.len() != inp.commitments.len()
    {
        return Err(malformed("FRI commitments"));
    }
    let row_bytes = n * E::ELEMENT_BYTES;
    let mut domain_size = inp.shape.lde_domain_size;
    let log_n = n.trailing_zeros();
    // Layer k's generator is g^(N^k): its powers are the table's at exponents shifted by k log N.
    let mut shift = 0;
    let mut max_degree_plus_1 = inp.shape.max_degree_plus_1;
    // One inversion for both: 1 / offset, 1 / N.
    let mut inverses = [inp.domain_offset, B::from(n as u32)];
    invert_in_place(&mut inverses);
    let [offset_inv, n_inv] = inverses;
    // w = g^(D/N) is a primitive N-th root of unity (the same at every layer); its inverse
    // powers drive the folding.
    let w_inv = inp.lde_powers.pow_inv(domain_size / n);
    let mut w_inv_pows = [B::ONE; 16];
    for t in 1..n {
        w_inv_pows[t] = w_inv_pows[t - 1] * w_inv;
    }

    // A stand-in row for one the proof lacks (at most 16 values of at most 64 bytes).
    let zero_row = [0u8; 16 * 64];
    if row_bytes > zero_row.len() {
        return Err(VerifyError::Unsupported(
            "FRI row wider than the verifier's bound",
        ));
    }
    let mut folded: Vec<usize> = Vec::with_capacity(positions.len());
    let mut slots: Vec<usize> = Vec::with_capacity(positions.len());
    let mut leaves: Vec<Node> = Vec::with_capacity(positions.len());
    let mut next_evaluations: Vec<E> = Vec::with_capacity(positions.len());
    for (depth, layer) in inp.layers.iter().enumerate() {
        let row_len = domain_size / n;
        if row_len < 2 || !row_len.is_power_of_two() {
            return Err(VerifyError::Unsupported("FRI parameters"));
        }
        // The proof's rows (its shape), one per distinct folded position of the honest
        // query set; a transcript a damaged proof led astray may fold to more or fewer.
        if !layer.values.len().is_multiple_of(row_bytes) {
            return Err(malformed("FRI layer values"));
        }
        let proof_rows = layer.values.len() / row_bytes;
        if proof_rows == 0 || proof_rows > row_len || proof_rows > positions.len() {
            return Err(malformed("FRI layer values"));
        }
        let distinct = distinct_rows(&positions, row_len, &mut folded, &mut slots);
        fails.check(
            distinct == proof_rows,
            Check::MerklePath(Tree::FriLayer(depth as u8)),
        );
        // Every step below runs over the proof's rows: a position whose row is beyond them
        // reads a row of zeros, and missing rows are folded at stand-in positions.
        pad_rows(&mut folded, distinct, proof_rows, row_len);
        let row_at = |k: usize| -> &[u8] {
            if k < proof_rows {
                &layer.values[k * row_bytes..(k + 1) * row_bytes]
            } else {
                &zero_row[..row_bytes]
            }
        };
        // Sized once (`resize` zeroes only new entries), each leaf hashed into its place.
        leaves.resize(folded.len(), Node::default());
        for (k, leaf) in leaves.iter_mut().enumerate() {
            // The leaf hashes the row's elements in their canonical encoding: these bytes,
            // as long as each element is canonical, which the folding below checks for every
            // row before anything is accepted.
            H::leaf(row_at(k), leaf);
        }
        verify_batch::<H>(
            (Tree::FriLayer(depth as u8), &inp.commitments[depth]),
            row_len.trailing_zeros(),
            &folded,
            &leaves,
            layer.paths,
            merkle,
            fails,
        )?;

        // The opened rows must contain the values the previous layer folded to.
        for ((&p, &e), &j) in positions.iter().zip(evaluations.iter()).zip(&slots) {
            let v: E = element_at(row_at(j), p / row_len)?;
            fails.check(equal(v, e), Check::FriFold(depth as u8));
        }

        let alpha = inp.alphas[depth];
        next_evaluations.clear();
        for (k, &j) in folded.iter().enumerate() {
            let xe_inv = inp.lde_powers.pow_inv(j << shift) * offset_inv;
            let folded_value = fold_row(row_at(k), n, alpha.mul_base(xe_inv), &w_inv_pows)?;
            next_evaluations.push(folded_value.mul_base(n_inv));
        }

        if !max_degree_plus_1.is_multiple_of(n) {
            return Err(VerifyError::Unsupported(
                "FRI degree does not divide by the folding",
            ));
        }
        max_degree_plus_1 /= n;
        shift += log_n;
        domain_size = row_len;
        core::mem::swap(&mut positions, &mut folded);
        core::mem::swap(&mut evaluations, &mut next_evaluations);
    }

    check_remainder::<B, E, H>(
        inp,
        (&positions, &evaluations),
        shift,
        max_degree_plus_1,
        fails,
    )
}

/// A row's `N` values folded to `N * P(alpha)`, `P` the interpolant of the row over the
/// points `x_t = xe * w^t`, given `y = alpha / xe` and the powers of `w^-1`. As
/// `x_(t + N/2) = -x_t`, `P(X) = Pe(X^2) + X Po(X^2)` and one binary step turns the `N`
/// values into the `N/2` values of `Q = Pe + alpha Po` over the points `x_t^2`, with
/// `P(alpha) = Q(alpha^2)`:
///   `2 Q(x_t^2) = (v_t + v_(t+N/2)) + (alpha / x_t) (v_t - v_(t+N/2))`,
/// and `alpha / x_t = y * w^-t`. Repeating with `y^2`, `w^2` down to one value costs `N - 1`
/// extension multiplications instead of an `N`-point transform; the caller applies the
/// halvings as `1/N`.
fn fold_row<B: StarkField, E: FieldElement<BaseField = B>>(
    row: &[u8],
    n: usize,
    mut y: E,
    w_inv_pows: &[B; 16],
) -> Result<E, VerifyError> {
    let mut values = [E::ZERO; 16];
    for (i, v) in values.iter_mut().enumerate().take(n) {
        *v = element_at(row, i)?;
    }
    let mut len = n;
    let mut stride = 1;
    while len > 1 {
        let half = len / 2;
        for t in 0..half {
            let (a, b) = (values[t], values[t + half]);
            let factor = if t == 0 {
                y
            } else {
                y.mul_base(w_inv_pows[t * stride])
            };
            values[t] = a + b + (a - b) * factor;
        }
        y = y.square();
        len = half;
        stride *= 2;
    }
    Ok(values[0])
}

/// The remainder: committed, of bounded degree, and agreeing with the last folding at each
/// of the last layer's `positions` (their evaluations beside them; exponents shifted by
/// `shift`).
fn check_remainder<B, E, H>(
    inp: &FriInputs<'_, B, E, H::Digest>,
    (positions, evaluations): (&[usize], &[E]),
    shift: u32,
    max_degree_plus_1: usize,
    fails: &mut Failures,
) -> Result<(), VerifyError>
where
    B: StarkField,
    E: FieldElement<BaseField = B>,
    H: NodeHash,
{
    let eb = E::ELEMENT_BYTES;
    let num_coeffs = inp.remainder.len() / eb;
    if !inp.remainder.len().is_multiple_of(eb)
        || !num_coeffs.is_power_of_two()
        || num_coeffs > max_degree_plus_1
    {
        return Err(malformed("FRI remainder"));
    }
    let remainder_digest = Node::from_bytes(&H::hash(inp.remainder).as_bytes());
    let committed = Node::from_bytes(&inp.commitments[inp.shape.num_layers].as_bytes());
    fails.check(
        digests_equal(remainder_digest.as_bytes(), committed.as_bytes()),
        Check::RemainderCommitment,
    );
    let mut coeffs: Vec<E> = Vec::with_capacity(num_coeffs);
    for i in 0..num_coeffs {
        coeffs.push(element_at(inp.remainder, i)?);
    }
    for (&p, &e) in positions.iter().zip(evaluations.iter()) {
        let x = inp.domain_offset * inp.lde_powers.pow(p << shift);
        let value = coeffs.iter().fold(E::ZERO, |acc, &c| acc.mul_base(x) + c);
        fails.check(equal(value, e), Check::FinalPolynomial);
    }
    Ok(())
}

/// The distinct `p % row_len` of `positions` in first-seen order into `folded` (its first
/// `count` entries, `count` returned) and each position's slot among them into `slots`, by
/// comparing every position with every earlier one and selecting without branches: the
/// steps do not depend on how the positions collide (issue 46). `folded` gets one entry per
/// position; entries from `count` on are unused.
fn distinct_rows(
    positions: &[usize],
    row_len: usize,
    folded: &mut Vec<usize>,
    slots: &mut Vec<usize>,
) -> usize {
    folded.clear();
    folded.resize(positions.len(), 0);
    slots.clear();
    slots.resize(positions.len(), 0);
    let mut count = 0;
    for k in 0..positions.len() {
        let q = positions[k] % row_len;
        // The slot of the first earlier position on the same row, if any.
        let mut seen = 0usize;
        let mut slot = 0usize;
        for j in 0..k {
            let take = usize::from(positions[j] % row_len == q) & !seen & 1;
            let mask = take.wrapping_neg();
            slot = (slot & !mask) | (slots[j] & mask);
            seen |= take;
        }
        let new = seen ^ 1;
        let mask = new.wrapping_neg();
        slots[k] = (slot & !mask) | (count & mask);
        folded[count] = [folded[count], q][new];
        count += new;
    }
    count
}

/// `folded` cut or padded to `rows` distinct positions: the first `min(count, rows)` kept,
/// then the smallest positions below `row_len` not among them (a damaged proof's stand-ins).
pub(super) fn pad_rows(folded: &mut Vec<usize>, count: usize, rows: usize, row_len: usize) {
    folded.truncate(count.min(rows));
    let mut candidate = 0;
    while folded.len() < rows && candidate < row_len {
        if !folded.contains(&candidate) {
            folded.push(candidate);
        }
        candidate += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::Powers;
    use winter_math::fields::f64::BaseElement as F;
    use winter_math::{FieldElement, StarkField};

    #[test]
    fn table_powers_are_the_generators_powers() {
        for log_size in [1u32, 5, 17] {
            let g = F::get_root_of_unity(log_size);
            let powers = Powers::new(g, log_size);
            let size = 1usize << log_size;
            for e in [0, 1, 2, 3, size / 2, size - 1, 12345 % size] {
                assert_eq!(powers.pow(e), g.exp_vartime(e as u64), "g^{e}");
                assert_eq!(powers.pow(e) * powers.pow_inv(e), F::ONE, "g^{e} g^-{e}");
                // The exponent is taken modulo the order.
                assert_eq!(powers.pow(e + size), powers.pow(e));
            }
            assert_ne!(powers.pow(1), powers.pow(2));
        }
    }
}

//! The uni-stark layer of the lean verifier: reads the commitments and opened values in
//! place, replays the STARK's part of the transcript (alpha, zeta), hands the opening
//! argument to the PCS, then checks the AIR's constraints at zeta against the recomposed
//! quotient, as `p3_uni_stark::verify` does for our configurations (no preprocessed trace, no
//! zero knowledge, no out-of-domain grinding, no periodic columns).
//!
//! The AIR is the one written once in `picostark_air`, folded in the order `P3Air::eval`
//! emits it (transitions under `is_transition`, then boundaries under their row selector),
//! with upstream's folding rule `acc = acc * alpha + c`.
//!
//! The opened values, the PCS's scratch and the public inputs as challenge-field values live
//! in one heap allocation sized by the AIR's width (at most `MAX_WIDTH`), so a narrow AIR's
//! verification takes no more memory than its shape needs.

use alloc::vec;
use core::marker::PhantomData;
use core::ops::{Add, Mul, Sub};

use p3_commit::PolynomialSpace;
use p3_field::ExtensionField;
use picostark_air::{AirDef, BoundaryValue, Frame, Row};
use picostark_core::{Check, Failures, VerifyError};

use super::bounds::{MAX_CHUNKS, MAX_DEGREE, MAX_PUBLIC, MAX_WIDTH};
use super::math::batch_invert;
use super::reader::{Reader, WireField};
use super::transcript::{stark_pattern, LeanChallenger, Transcript};
use super::{LeanPcs, OpeningClaims};

/// log2 of the number of quotient chunks: upstream's rule on the AIR's constraint degree
/// (transitions times a degree-1 selector, boundaries degree 2, at least `min_degree`: the
/// PCS's floor, [`crate::config::min_constraint_degree`]), with no zero knowledge.
pub fn log_quotient_chunks<A: AirDef>(air: &A, min_degree: usize) -> usize {
    let transitions = air.transition_degrees().iter().copied().max().unwrap_or(0);
    let degree = (transitions + 1).max(2).max(min_degree);
    let d = degree - 1;
    (usize::BITS - (d - 1).leading_zeros()) as usize * usize::from(d > 1)
}

/// Verifies a uni-stark proof of `air` over `2^log_n` rows with `public` inputs, the
/// challenger already holding the statement bytes. Once the shape is read, every check runs
/// to the end whatever fails, and the first failure is the reason (issue 46).
pub fn verify<F, EF, C, P, A>(
    pcs: &P,
    air: &A,
    challenger: C,
    log_n: usize,
    public: &[u64],
    payload: &[u8],
) -> Result<(), VerifyError>
where
    F: WireField,
    EF: ExtensionField<F>,
    C: LeanChallenger<F>,
    P: LeanPcs<F, EF>,
    A: AirDef,
{
    let width = air.width();
    let num_public = air.num_public_inputs();
    let log_chunks = log_quotient_chunks(air, pcs.min_constraint_degree());
    let num_chunks = 1usize << log_chunks;
    let dim = EF::DIMENSION;
    if width > MAX_WIDTH || num_chunks > MAX_CHUNKS || dim > MAX_DEGREE || num_public > MAX_PUBLIC {
        return Err(VerifyError::Unsupported(
            "AIR shape beyond the lean verifier's bounds",
        ));
    }
    if public.len() != num_public {
        return Err(VerifyError::StatementMismatch(
            "number of public inputs for the AIR",
        ));
    }

    let mut r = Reader::new(payload);
    // commitments: trace, quotient_chunks (one-root caps), random: None.
    r.expect_len(1)?;
    let trace_root = r.digest()?;
    r.expect_len(1)?;
    let quotient_root = r.digest()?;
    if r.option()? {
        return Err(Check::CommitmentShape.into());
    }
    // One allocation, bounded by the checks above: the trace rows at zeta and zeta_next, the
    // quotient chunks, the PCS's scratch (as long as those three), then the public inputs as
    // challenge-field values.
    let opened_len = 2 * width + num_chunks * dim;
    let mut opened = vec![EF::ZERO; 2 * opened_len + num_public];
    let (rows, rest) = opened.split_at_mut(opened_len);
    let (pcs_scratch, public_ef) = rest.split_at_mut(opened_len);
    read_opened_values::<F, EF>(&mut r, width, num_chunks, rows)?;
    let (trace_local, rest) = rows.split_at(width);
    let (trace_next, chunks) = rest.split_at(width);

    // The STARK's transcript: seed, trace commitment, public values, alpha, quotient
    // commitment, zeta.
    let mut t = Transcript::<F, EF, C>::new(challenger);
    let hash = stark_pattern::<F, EF>(&[num_public as u32]);
    let ln = log_n as u64;
    t.seed(
        super::transcript::Protocol::UniStark,
        &hash,
        &[ln, ln, width as u64, 0, 0, num_chunks as u64, 1, 0],
        &[],
    );
    t.observe_digest(trace_root);
    for &p in public {
        t.observe_base(F::from_u64(p));
    }
    let alpha = t.sample_ext();
    t.observe_digest(quotient_root);
    let zeta = t.sample_ext();

    // From here every value check runs to the end and records a failure (issue 46).
    let mut fails = Failures::new();
    // zeta on the trace domain (a chance of about |domain| / |EF|): recorded; zeta stands in
    // for its successor, and the checks below meet the zero as a failure of their own.
    let trace_domain = pcs.trace_domain(log_n);
    fails.check(
        !pcs.vanishing_at(trace_domain, zeta)?.is_zero(),
        Check::DegeneratePoint,
    );
    let zeta_next = pcs.next_point_at(trace_domain, zeta)?;
    fails.check(zeta_next.is_some(), Check::DegeneratePoint);
    let zeta_next = zeta_next.unwrap_or(zeta);

    // The constraints first: they need only the opened values and the STARK's challenges,
    // so a wrong public input or opened value is named as what it is (the PCS, run first,
    // would meet it as a transcript gone astray). The verdict is the same conjunction.
    for (e, &v) in public_ef.iter_mut().zip(public) {
        *e = EF::from_u64(v);
    }
    let at_zeta = OpenedAtZeta {
        zeta,
        alpha,
        trace_local,
        trace_next,
        chunks,
        public,
        public_ef,
    };
    let constraints =
        check_constraints::<F, EF, P, A>(pcs, air, trace_domain, log_chunks, &at_zeta, &mut fails);

    let claims = OpeningClaims {
        log_n,
        trace_root,
        quotient_root,
        zeta,
        zeta_next,
        trace_local,
        trace_next,
        quotient_chunks: chunks,
        num_chunks,
    };
    let opened = constraints
        .and_then(|()| pcs.verify(&mut r, &mut t, &claims, pcs_scratch, &mut fails))
        .and_then(|()| {
            // degree_bits (the header's), the out-of-domain witness (zero: no grinding),
            // nothing more.
            if r.usize()? != log_n {
                return Err(VerifyError::MalformedProof(
                    "proof is for another trace length",
                ));
            }
            r.zero_witness::<F>(&mut fails)?;
            r.finish()
        });
    fails.verdict_after(opened)
}

/// The opened values into `rows`: the trace row at zeta, the one at zeta_next, then the
/// quotient chunks (no preprocessed rows, no randomization); a layout other than that is
/// the proof's shape.
fn read_opened_values<F: WireField, EF: ExtensionField<F>>(
    r: &mut Reader<'_>,
    width: usize,
    num_chunks: usize,
    rows: &mut [EF],
) -> Result<(), VerifyError> {
    let (trace_local, rest) = rows.split_at_mut(width);
    let (trace_next, chunks) = rest.split_at_mut(width);
    r.expect_len(width)?;
    for v in trace_local.iter_mut() {
        r.ext_into::<F, EF>(v)?;
    }
    if !r.option()? {
        return Err(Check::OpenedValuesShape.into());
    }
    r.expect_len(width)?;
    for v in trace_next.iter_mut() {
        r.ext_into::<F, EF>(v)?;
    }
    if r.option()? || r.option()? {
        return Err(Check::OpenedValuesShape.into());
    }
    r.expect_len(num_chunks)?;
    for chunk in chunks.chunks_exact_mut(EF::DIMENSION) {
        r.expect_len(EF::DIMENSION)?;
        for v in chunk {
            r.ext_into::<F, EF>(v)?;
        }
    }
    if r.option()? {
        return Err(Check::OpenedValuesShape.into());
    }
    Ok(())
}

/// What the constraint check at `zeta` reads: the challenges, the opened rows and quotient
/// chunks, and the public inputs (as integers and as challenge-field values).
struct OpenedAtZeta<'a, EF> {
    zeta: EF,
    alpha: EF,
    trace_local: &'a [EF],
    trace_next: &'a [EF],
    chunks: &'a [EF],
    public: &'a [u64],
    public_ef: &'a [EF],
}

/// The AIR's constraints at `zeta`, folded with `alpha` as upstream folds them, against the
/// quotient recomposed from its chunks times the vanishing polynomial; a mismatch is
/// recorded in `fails`.
fn check_constraints<F, EF, P, A>(
    pcs: &P,
    air: &A,
    trace_domain: P::Domain,
    log_chunks: usize,
    z: &OpenedAtZeta<'_, EF>,
    fails: &mut Failures,
) -> Result<(), VerifyError>
where
    F: WireField,
    EF: ExtensionField<F>,
    P: LeanPcs<F, EF>,
    A: AirDef,
{
    let quotient = quotient_at_zeta::<F, EF, P>(pcs, trace_domain, log_chunks, z.zeta, z.chunks)?;
    let sels = pcs.selectors_at(trace_domain, z.zeta)?;
    let mut acc = fold_transitions::<F, EF, A>(
        air,
        z.trace_local,
        z.trace_next,
        z.public_ef,
        z.alpha,
        sels.is_transition,
    );
    // The AIR's own indices (its public-input count was checked against the statement).
    let out_of_air = VerifyError::Unsupported("an AIR boundary outside its width or inputs");
    for b in air.boundaries() {
        let value = match b.value {
            BoundaryValue::Constant(c) => EF::from_u64(c),
            BoundaryValue::Public(i) => EF::from_u64(*z.public.get(i).ok_or(out_of_air)?),
        };
        let sel = match b.row {
            Row::First => sels.is_first_row,
            Row::Last => sels.is_last_row,
        };
        let cell = *z.trace_local.get(b.column).ok_or(out_of_air)?;
        acc = acc * z.alpha + (cell - value) * sel;
    }
    fails.check(acc * sels.inv_vanishing == quotient, Check::OodConstraints);
    Ok(())
}

/// A value of the AIR's evaluation at `zeta`: a challenge-field element whose product with
/// another takes `EF::DIMENSION` base-field products instead of a full challenge-field
/// product when either factor lies in the base field (its other coefficients zero: the
/// AIR's constants, and sums, differences and products of them). The Poseidon2 linear
/// layers multiply by constants (the membership AIR's `M4` entries and internal diagonal),
/// hundreds of products per verification. Only the element itself is stored (no flag), so
/// the AIR's many copies of values move no more than the element's bytes (a library
/// `memcpy` per copy on RV32 past 16 bytes). The values are exactly those of the plain
/// challenge-field evaluation, and its arithmetic is [`WireField`]'s.
#[derive(Clone, Copy, Debug)]
#[repr(transparent)]
struct AtZeta<F, EF> {
    value: EF,
    _base: PhantomData<F>,
}

impl<F: WireField, EF: ExtensionField<F>> AtZeta<F, EF> {
    #[inline(always)]
    fn of(value: EF) -> Self {
        Self {
            value,
            _base: PhantomData,
        }
    }

    /// The value's base-field coefficient when its other coefficients are zero.
    #[inline(always)]
    fn base(&self) -> Option<F> {
        let c = self.value.as_basis_coefficients_slice();
        c[1..].iter().all(|v| v.is_zero()).then(|| c[0])
    }
}

impl<F: WireField, EF: ExtensionField<F>> Add for AtZeta<F, EF> {
    type Output = Self;
    fn add(self, rhs: Self) -> Self {
        Self::of(F::ext_add(self.value, rhs.value))
    }
}

impl<F: WireField, EF: ExtensionField<F>> Sub for AtZeta<F, EF> {
    type Output = Self;
    fn sub(self, rhs: Self) -> Self {
        Self::of(F::ext_sub(self.value, rhs.value))
    }
}

impl<F: WireField, EF: ExtensionField<F>> Mul for AtZeta<F, EF> {
    type Output = Self;
    fn mul(self, rhs: Self) -> Self {
        Self::of(match (self.base(), rhs.base()) {
            (Some(a), _) => F::ext_mul_base(rhs.value, a),
            (None, Some(b)) => F::ext_mul_base(self.value, b),
            (None, None) => F::ext_mul(self.value, rhs.value),
        })
    }
}

/// The transition constraints at `zeta` folded as upstream does (`acc = acc * alpha + c *
/// is_transition`, with the selector factored out), in a frame of its own (the AIR's evaluation takes stack only here, after
/// the PCS's deeper frames have returned). The AIR sees [`AtZeta`] values: its constants stay
/// base-field elements, so products with them are cheap.
#[inline(never)]
fn fold_transitions<F: WireField, EF: ExtensionField<F>, A: AirDef>(
    air: &A,
    local: &[EF],
    next: &[EF],
    public: &[EF],
    alpha: EF,
    is_transition: EF,
) -> EF {
    // The rows and public inputs as evaluation values: one allocation, at the AIR's width.
    let mut values = vec![AtZeta::<F, EF>::of(EF::ZERO); local.len() + next.len() + public.len()];
    for (slot, &v) in values
        .iter_mut()
        .zip(local.iter().chain(next).chain(public))
    {
        *slot = AtZeta::of(v);
    }
    let (local, rest) = values.split_at(local.len());
    let (next, public) = rest.split_at(next.len());
    let constant = |v: u64| AtZeta::of(EF::from(F::from_u64(v)));
    let frame = Frame {
        local,
        next,
        public,
        constant: &constant,
    };
    // Every term carries the same selector, so it multiplies the folded sum once:
    // sum_i alpha^(m-1-i) (c_i s) = s * sum_i alpha^(m-1-i) c_i.
    let mut acc = EF::ZERO;
    air.eval_transition(&frame, &mut |c: AtZeta<F, EF>| {
        acc = F::ext_add(F::ext_mul(acc, alpha), c.value);
    });
    acc * is_transition
}

/// quotient(zeta) from its chunks' opened values: chunk i weighted by the product over the
/// other chunk domains of Z_j(zeta) / Z_j(first point of chunk i). Each Z_j(zeta) is computed
/// once and the denominators in the base field (first points are base-field values), inverted
/// in one batch: with 8 chunks (the membership AIR) 8 evaluations and one inversion, where the
/// formula as written takes 56 of each in the challenge field. Not inlined: its arrays stay
/// out of the frame that is live while the PCS verifies.
#[inline(never)]
fn quotient_at_zeta<F, EF, P>(
    pcs: &P,
    trace_domain: P::Domain,
    log_chunks: usize,
    zeta: EF,
    chunks: &[EF],
) -> Result<EF, VerifyError>
where
    F: WireField,
    EF: ExtensionField<F>,
    P: LeanPcs<F, EF>,
{
    let num_chunks = 1usize << log_chunks;
    let dim = EF::DIMENSION;
    if num_chunks > MAX_CHUNKS || chunks.len() < num_chunks * dim {
        return Err(VerifyError::Unsupported(
            "quotient chunks beyond the lean verifier's bounds",
        ));
    }
    let mut domains = [pcs.quotient_chunk_domain(trace_domain, log_chunks, 0); MAX_CHUNKS];
    for (i, d) in domains.iter_mut().enumerate().take(num_chunks).skip(1) {
        *d = pcs.quotient_chunk_domain(trace_domain, log_chunks, i);
    }
    let domains = &domains[..num_chunks];
    let mut at_zeta = [EF::ZERO; MAX_CHUNKS];
    for (z, d) in at_zeta.iter_mut().zip(domains) {
        *z = pcs.vanishing_at(*d, zeta)?;
    }
    let mut den = [F::ONE; MAX_CHUNKS];
    for (i, di) in domains.iter().enumerate() {
        let x = di.first_point();
        for (_, dj) in domains.iter().enumerate().filter(|&(j, _)| j != i) {
            den[i] *= dj.vanishing_poly_at_point(x);
        }
    }
    let mut den_scratch = [F::ZERO; MAX_CHUNKS];
    batch_invert(&mut den[..num_chunks], &mut den_scratch[..num_chunks])?;
    let mut quotient = EF::ZERO;
    for (i, coeffs) in chunks.chunks_exact(dim).take(num_chunks).enumerate() {
        let mut zp = EF::from(den[i]);
        for (j, &z) in at_zeta[..num_chunks].iter().enumerate() {
            if j != i {
                zp = F::ext_mul(zp, z);
            }
        }
        let mut value = EF::ZERO;
        for (k, &c) in coeffs.iter().enumerate() {
            value = F::ext_add(
                value,
                F::ext_mul(
                    EF::ith_basis_element(k)
                        .ok_or(VerifyError::Unsupported("a basis element past the degree"))?,
                    c,
                ),
            );
        }
        quotient = F::ext_add(quotient, F::ext_mul(zp, value));
    }
    Ok(quotient)
}

#[cfg(test)]
mod tests {
    use super::*;
    use picostark_air::chain16::CubicChain16;
    use picostark_air::fibonacci::Fibonacci;

    #[test]
    fn quotient_chunk_counts_follow_the_constraint_degree() {
        // Fibonacci: degree-1 transitions, so degree 2 with the selector: one chunk.
        assert_eq!(log_quotient_chunks(&Fibonacci, 2), 0);
        assert_eq!(log_quotient_chunks(&Fibonacci, 3), 1);
        // CubicChain16: cubic transitions, degree 4: 3 rounded up to 4 chunks.
        assert_eq!(log_quotient_chunks(&CubicChain16, 2), 2);
        assert_eq!(log_quotient_chunks(&CubicChain16, 3), 2);
    }
}

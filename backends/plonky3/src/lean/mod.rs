//! Our own `no_std` verifier for Plonky3 0.8 uni-stark proofs: reads the postcard payload in
//! place ([`reader`]), replays the Fiat-Shamir transcript with precomputed domain separators
//! ([`transcript`]), checks the constraints at the out-of-domain point ([`uni_stark`]) and
//! delegates the opening argument to a PCS behind [`LeanPcs`] (two-adic FRI here; the circle
//! PCS implements the same trait).
//!
//! Its verdicts equal `p3_uni_stark::verify`'s on the same bytes (tests/lean_differential.rs).

pub mod bounds;
mod ext;
pub mod math;
pub mod merkle;
pub mod patterns;
pub mod reader;
pub mod transcript;

use p3_commit::PolynomialSpace;
use p3_field::{ExtensionField, PrimeField64};
use picostark_core::{Failures, VerifyError};

use reader::{Reader, WireField};
use transcript::{LeanChallenger, Transcript};

/// What the STARK asks its PCS to check: the trace opened at `zeta` and `zeta_next`, each
/// quotient chunk at `zeta`. Everything the PCS needs about shapes comes from here and from
/// the header, never from the proof.
pub struct OpeningClaims<'a, EF> {
    /// log2 of the trace length.
    pub log_n: usize,
    /// The trace commitment (a single Merkle root).
    pub trace_root: &'a [u8; 32],
    /// The quotient commitment.
    pub quotient_root: &'a [u8; 32],
    /// The out-of-domain point and its successor on the trace domain.
    pub zeta: EF,
    /// `zeta` times the trace domain's generator.
    pub zeta_next: EF,
    /// The trace row at `zeta` (one value per column).
    pub trace_local: &'a [EF],
    /// The trace row at `zeta_next`.
    pub trace_next: &'a [EF],
    /// The quotient chunks at `zeta`: `num_chunks` rows of `EF::DIMENSION` values each.
    pub quotient_chunks: &'a [EF],
    /// How many quotient chunks were committed (a power of two).
    pub num_chunks: usize,
}

impl<EF> OpeningClaims<'_, EF> {
    /// Scratch values a PCS may use: one per opened value (both trace rows and every
    /// quotient chunk coefficient), the longest alpha ladder a PCS here builds.
    pub fn scratch_len(&self) -> usize {
        self.trace_local.len() + self.trace_next.len() + self.quotient_chunks.len()
    }
}

/// The polynomial commitment scheme of a lean verifier.
///
/// `uni_stark` calls [`LeanPcs::verify`] with the reader positioned at the proof's
/// `opening_proof` field and the transcript right after `zeta` was drawn; the PCS seeds and
/// replays its own part of the transcript, reads exactly its own bytes, and leaves the reader
/// at the `degree_bits` field that follows.
pub trait LeanPcs<F: WireField, EF: ExtensionField<F>> {
    /// The domain type (upstream's, for its vanishing polynomial and selectors).
    type Domain: PolynomialSpace<Val = F> + Copy;

    /// The trace domain of `2^log_n` rows (upstream's `natural_domain_for_degree`).
    fn trace_domain(&self, log_n: usize) -> Self::Domain;

    /// Chunk `i` of the `2^log_chunks` quotient chunk domains (upstream's
    /// `create_disjoint_domain` of the trace domain, then `split_domains`).
    fn quotient_chunk_domain(
        &self,
        trace: Self::Domain,
        log_chunks: usize,
        i: usize,
    ) -> Self::Domain;

    /// `domain.vanishing_poly_at_point(zeta)`: upstream's unless the PCS computes the same
    /// value with our arithmetic (the circle PCSs).
    fn vanishing_at(&self, domain: Self::Domain, zeta: EF) -> Result<EF, VerifyError> {
        Ok(domain.vanishing_poly_at_point(zeta))
    }

    /// `domain.next_point(zeta)`, as [`Self::vanishing_at`].
    fn next_point_at(&self, domain: Self::Domain, zeta: EF) -> Result<Option<EF>, VerifyError> {
        Ok(domain.next_point(zeta))
    }

    /// `domain.selectors_at_point(zeta)`, as [`Self::vanishing_at`].
    fn selectors_at(
        &self,
        domain: Self::Domain,
        zeta: EF,
    ) -> Result<p3_commit::LagrangeSelectors<EF>, VerifyError> {
        Ok(domain.selectors_at_point(zeta))
    }

    /// The least constraint degree the quotient is sized by
    /// ([`crate::config::min_constraint_degree`]): upstream's 2 unless the PCS says otherwise.
    fn min_constraint_degree(&self) -> usize {
        crate::config::UPSTREAM_MIN_CONSTRAINT_DEGREE
    }

    /// Reads and checks the opening proof for `claims`. `scratch` holds at least
    /// [`OpeningClaims::scratch_len`] values (the caller's one allocation, sized by the
    /// proof's width): the PCS's alpha ladder. Returns early only on the proof's shape;
    /// every value check runs to the end and records a failure in `fails` (issue 46).
    fn verify<C: LeanChallenger<F>>(
        &self,
        r: &mut Reader<'_>,
        t: &mut Transcript<F, EF, C>,
        claims: &OpeningClaims<'_, EF>,
        scratch: &mut [EF],
        fails: &mut Failures,
    ) -> Result<(), VerifyError>;
}

pub mod circle;
mod circle_domain;
mod circle_inputs;
pub mod two_adic;
pub mod uni_stark;
pub mod wide_circle;

use alloc::vec::Vec;

use p3_baby_bear::BabyBear;
use p3_challenger::{SerializingChallenger32, SerializingChallenger64};
use p3_field::extension::{BinomialExtensionField, CubicTrinomialExtensionField};
use p3_field::TwoAdicField;
use p3_goldilocks::Goldilocks;
use picostark_air::chain16::CubicChain16;
use picostark_air::fibonacci::Fibonacci;
use picostark_air::{AirDef, AirId};
use picostark_airs::{AirSet, Builtins};
use picostark_core::{BackendId, HashId, ProofFile, ProofHeader};

use crate::config::{ByteHash, VERIFIER_HASH};
use crate::membership::{MembershipField, MembershipOf};
use transcript::ByteSponge;
use two_adic::TwoAdicPcs;

/// The two-adic PCS the header describes.
pub fn two_adic_pcs<H>(file: &ProofFile<'_>, hash: H) -> TwoAdicPcs<H> {
    let p = &file.header.params;
    TwoAdicPcs {
        log_blowup: p.log_blowup.into(),
        num_queries: p.num_queries.into(),
        pow_bits: p.pow_bits.into(),
        max_log_arity: p.log_fold_arity.into(),
        log_final_poly_len: p.log_final_poly_len.into(),
        hash,
    }
}

/// The header's AIR: its trace width and log2 of its quotient chunk count; `None` for a
/// custom AIR the set `S` does not have.
pub fn air_shape<F: MembershipField, S: AirSet>(header: &ProofHeader) -> Option<(usize, usize)> {
    let min = crate::config::min_constraint_degree(header);
    Some(match header.air {
        AirId::Fibonacci => (
            Fibonacci.width(),
            uni_stark::log_quotient_chunks(&Fibonacci, min),
        ),
        AirId::CubicChain16 => (
            CubicChain16.width(),
            uni_stark::log_quotient_chunks(&CubicChain16, min),
        ),
        AirId::Membership => {
            let air = MembershipOf::<F>::default();
            (air.width(), uni_stark::log_quotient_chunks(&air, min))
        }
        AirId::Custom(_) => {
            let air = S::extra(header.air)?;
            (air.width(), uni_stark::log_quotient_chunks(&air, min))
        }
    })
}

/// Whether the lean verifier takes this two-adic proof's shape (else the caller runs the
/// stock verifier): the header's parameters and the AIR within the fixed bounds.
pub fn two_adic_within_bounds<F: PrimeField64 + MembershipField, EF: ExtensionField<F>>(
    file: &ProofFile<'_>,
) -> bool {
    two_adic_shape::<F, EF, Builtins>(file).is_some()
}

/// The header's AIR shape ([`air_shape`]) when [`two_adic_within_bounds`] holds: computed
/// once per verification (the membership AIR's shape builds the AIR and measures its degrees)
/// and handed to the transcript buffer.
fn two_adic_shape<F: PrimeField64 + MembershipField, EF: ExtensionField<F>, S: AirSet>(
    file: &ProofFile<'_>,
) -> Option<(usize, usize)> {
    let log_n = usize::from(file.header.log_n);
    let (width, log_chunks) = air_shape::<F, S>(&file.header)?;
    (two_adic_pcs(file, ()).within_bounds(log_n)
        && air_in_build(file.header.air)
        && width <= bounds::MAX_WIDTH
        && file.public_inputs.len() <= bounds::MAX_PUBLIC
        && (1usize << log_chunks) <= bounds::MAX_CHUNKS
        && EF::DIMENSION <= bounds::MAX_DEGREE)
        .then_some((width, log_chunks))
}

/// Verifies a two-adic proof with challenge field `EF`, challenger `challenger` (holding the
/// statement bytes) and hash `hash`, the header already checked.
pub fn verify_two_adic<F, EF, C, H, S>(
    file: &ProofFile<'_>,
    challenger: C,
    hash: H,
) -> Result<(), VerifyError>
where
    F: TwoAdicField + WireField,
    EF: ExtensionField<F>,
    C: LeanChallenger<F>,
    H: ByteHash,
    S: AirSet,
{
    verify_air::<F, EF, C, _, S>(file, &two_adic_pcs(file, hash), challenger)
}

/// Verifies the header's AIR over `pcs` (either PCS), the statement's public inputs copied
/// to the stack.
pub fn verify_air<F, EF, C, P, S>(
    file: &ProofFile<'_>,
    pcs: &P,
    challenger: C,
) -> Result<(), VerifyError>
where
    F: WireField,
    EF: ExtensionField<F>,
    C: LeanChallenger<F>,
    P: LeanPcs<F, EF>,
    S: AirSet,
{
    let log_n = usize::from(file.header.log_n);
    let mut public = [0u64; bounds::MAX_PUBLIC];
    let count = file.public_inputs.len();
    if count > public.len() {
        return Err(VerifyError::StatementMismatch(
            "number of public inputs for the AIR",
        ));
    }
    for (slot, v) in public.iter_mut().zip(file.public_inputs.iter()) {
        *slot = v;
    }
    let public = &public[..count];
    match file.header.air {
        AirId::Fibonacci => uni_stark::verify::<F, EF, C, _, _>(
            pcs,
            &Fibonacci,
            challenger,
            log_n,
            public,
            file.payload,
        ),
        AirId::CubicChain16 => uni_stark::verify::<F, EF, C, _, _>(
            pcs,
            &CubicChain16,
            challenger,
            log_n,
            public,
            file.payload,
        ),
        // The membership AIR's constraint code (a Poseidon2 permutation's rounds over the
        // challenge field) is instantiated only here. The feature `lean-no-membership` leaves
        // it out (the firmware's `code-in-ram` images: with it the p3-babybear code-in-SRAM
        // board image overflows the RP2350's SRAM by 32 KB on Hazard3); the lean verifier then
        // refuses it as outside its bounds.
        #[cfg(not(feature = "lean-no-membership"))]
        AirId::Membership => uni_stark::verify::<F, EF, C, _, _>(
            pcs,
            &MembershipOf::<F>::default(),
            challenger,
            log_n,
            public,
            file.payload,
        ),
        #[cfg(feature = "lean-no-membership")]
        AirId::Membership => Err(VerifyError::Unsupported(
            "the membership AIR is not in this build's lean verifier (feature lean-no-membership)",
        )),
        // A user's AIR (`picostark_airs::With`); the built-ins' set has none, and this arm
        // then links nothing.
        AirId::Custom(_) => match S::extra(file.header.air) {
            Some(air) => uni_stark::verify::<F, EF, C, _, _>(
                pcs,
                &air,
                challenger,
                log_n,
                public,
                file.payload,
            ),
            None => Err(VerifyError::Unsupported(AIR_NOT_IN_BUILD)),
        },
    }
}

/// What a verifier answers for a proof of a custom AIR it was not built with.
pub const AIR_NOT_IN_BUILD: &str = "a custom AIR this build was not made with";

/// Whether this build's lean verifier takes the header's AIR at all (the feature
/// `lean-no-membership` leaves the membership AIR out); the `*_within_bounds` checks include it, so a proof
/// of an AIR left out goes to the stock verifier, or is refused in a `lean-only` build.
pub fn air_in_build(air: AirId) -> bool {
    air != AirId::Membership || !cfg!(feature = "lean-no-membership")
}

/// Bytes the transcript absorbs between two draws at most, besides the opened values: the
/// seeds, commitments, the final polynomial (the largest shape within bounds). The opened
/// values (both trace rows and the quotient chunks, observed together before the PCS's
/// batching challenge) are added at the proof's shape, so the challenger's buffer is
/// allocated once.
const TRANSCRIPT_CAPACITY: usize = 2048;

/// The challenger's input buffer: the statement bytes, with room for what follows them
/// (the AIR's shape, [`air_shape`]: `width` trace columns and `2^log_chunks` quotient chunks;
/// the header's extension degree, `F`'s wire length per coefficient).
pub(crate) fn transcript_buffer<F: WireField>(
    file: &ProofFile<'_>,
    (width, log_chunks): (usize, usize),
) -> Vec<u8> {
    let degree = usize::from(file.header.extension_degree);
    let opened = (2 * width + (1 << log_chunks) * degree) * degree * F::WIRE_LEN;
    let mut v =
        Vec::with_capacity(file.statement_bytes.len() + TRANSCRIPT_CAPACITY.max(opened + 256));
    v.extend_from_slice(file.statement_bytes);
    v
}

fn verify_babybear<EF: ExtensionField<BabyBear>, H: ByteHash, S: AirSet>(
    file: &ProofFile<'_>,
    shape: (usize, usize),
    hash: H,
) -> Result<(), VerifyError> {
    let ch = SerializingChallenger32::<BabyBear, _>::new(ByteSponge::new(
        transcript_buffer::<BabyBear>(file, shape),
        hash,
    ));
    verify_two_adic::<BabyBear, EF, _, H, S>(file, ch, hash)
}

fn verify_goldilocks<EF: ExtensionField<Goldilocks>, H: ByteHash, S: AirSet>(
    file: &ProofFile<'_>,
    shape: (usize, usize),
    hash: H,
) -> Result<(), VerifyError> {
    let ch = SerializingChallenger64::<Goldilocks, _>::new(ByteSponge::new(
        transcript_buffer::<Goldilocks>(file, shape),
        hash,
    ));
    verify_two_adic::<Goldilocks, EF, _, H, S>(file, ch, hash)
}

/// A `p3-babybear` proof with challenge field `EF`, by the header's hash.
fn babybear<EF: ExtensionField<BabyBear>, S: AirSet>(
    file: &ProofFile<'_>,
) -> Option<Result<(), VerifyError>> {
    let shape = two_adic_shape::<BabyBear, EF, S>(file)?;
    Some(match file.header.hash {
        HashId::Blake3_256 => verify_babybear::<EF, _, S>(file, shape, VERIFIER_HASH),
        HashId::Sha256 => verify_babybear::<EF, _, S>(file, shape, crate::hash::Sha256Lean),
        HashId::Blake2s256 => return None,
    })
}

/// A `p3-goldilocks` proof with challenge field `EF`, by the header's hash.
fn goldilocks<EF: ExtensionField<Goldilocks>, S: AirSet>(
    file: &ProofFile<'_>,
) -> Option<Result<(), VerifyError>> {
    let shape = two_adic_shape::<Goldilocks, EF, S>(file)?;
    Some(match file.header.hash {
        HashId::Blake3_256 => verify_goldilocks::<EF, _, S>(file, shape, VERIFIER_HASH),
        HashId::Sha256 => verify_goldilocks::<EF, _, S>(file, shape, crate::hash::Sha256Lean),
        HashId::Blake2s256 => return None,
    })
}

/// The lean verdict for a `p3-babybear` proof whose header passed the backend's checks, or
/// `None` when its shape is outside the lean verifier's bounds or its challenge field is not
/// one the lean path dispatches (degree 4, 5 or 8). One function per backend, so that an
/// image with one backend links only that backend's lean verifier.
pub fn verify_babybear_file<S: AirSet>(file: &ProofFile<'_>) -> Option<Result<(), VerifyError>> {
    match file.header.extension_degree {
        4 => babybear::<BinomialExtensionField<BabyBear, 4>, S>(file),
        5 => babybear::<BinomialExtensionField<BabyBear, 5>, S>(file),
        8 => babybear::<BinomialExtensionField<BabyBear, 8>, S>(file),
        _ => None,
    }
}

/// [`verify_babybear_file`] for `p3-goldilocks` (challenge field of degree 2, 3 or 5).
pub fn verify_goldilocks_file<S: AirSet>(file: &ProofFile<'_>) -> Option<Result<(), VerifyError>> {
    match file.header.extension_degree {
        2 => goldilocks::<BinomialExtensionField<Goldilocks, 2>, S>(file),
        3 => goldilocks::<CubicTrinomialExtensionField<Goldilocks>, S>(file),
        5 => goldilocks::<BinomialExtensionField<Goldilocks, 5>, S>(file),
        _ => None,
    }
}

/// [`verify_babybear_file`] for `p3-m31`: upstream's `CirclePcs` (`circle`) or our
/// `WideCirclePcs` (`wide_circle`, issue 25), as the header's FRI parameters say.
pub fn verify_m31_file<S: AirSet>(file: &ProofFile<'_>) -> Option<Result<(), VerifyError>> {
    if file.header.circle_pcs() == Some(picostark_core::CirclePcsKind::Wide) {
        wide_circle::verify_m31::<S>(file)
    } else {
        circle::verify_m31::<S>(file)
    }
}

/// The lean verdict for any Plonky3 proof whose header passed its backend's checks, or `None`
/// when its shape is outside the lean verifier's bounds or its configuration is not one the
/// lean path dispatches (the caller then runs the stock verifier). Two-adic challenge fields:
/// BabyBear of degree 4, 5, 8 and Goldilocks of degree 2, 3, 5 (the configurations'
/// extensions; the generic code takes any `ExtensionField` whose wire form is its
/// coefficient tuple).
pub fn verify(file: &ProofFile<'_>) -> Option<Result<(), VerifyError>> {
    match file.header.backend {
        BackendId::P3BabyBear => verify_babybear_file::<Builtins>(file),
        BackendId::P3Goldilocks => verify_goldilocks_file::<Builtins>(file),
        BackendId::P3M31 => verify_m31_file::<Builtins>(file),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::transcript::{fri_pattern, pcs_pattern, stark_pattern, PATTERNS};
    use super::*;
    use alloc::format;
    use alloc::string::String;
    use alloc::vec;
    use picostark_core::ProofParams;
    use std::println;

    /// Upstream's pattern hash for one table key, computed the slow way.
    fn upstream_hash<F: PrimeField64, EF: ExtensionField<F>>(
        protocol: &[u8],
        params: &[u32],
    ) -> [u8; 32] {
        let u = |i: usize| params[i] as usize;
        match protocol {
            b"p3-uni-stark" => super::transcript::upstream_stark_pattern::<F, EF>(params[0]),
            b"p3-fri-pcs" => p3_fri::PcsShape {
                claimed_evaluation_counts: vec![params.iter().map(|&w| vec![w as usize]).collect()],
                batch_pow_bits: 0,
            }
            .pattern::<F, EF>()
            .pattern_hash(),
            _ => p3_fri::FriShape {
                log_arities: vec![1; u(0)],
                final_poly_len: u(1),
                commit_pow_bits: 0,
                query_pow_bits: u(2),
                num_queries: u(4),
                index_bits: u(3),
                log_blowup: 0,
                max_log_arity: 0,
            }
            .pattern::<F, EF>()
            .pattern_hash(),
        }
    }

    /// Every table key our backends produce for one (F, EF): the three AIRs, default parameters
    /// (and the foundation's for the default challenge fields), each n the field allows.
    fn keys<F: PrimeField64 + TwoAdicField + MembershipField, EF: ExtensionField<F>>(
        max_log_lde: usize,
        params: &[ProofParams],
    ) -> alloc::vec::Vec<(&'static [u8], alloc::vec::Vec<u32>)> {
        let d = EF::DIMENSION as u32;
        let mut out = vec![];
        for (width, public, log_chunks) in [
            (
                Fibonacci.width(),
                Fibonacci.num_public_inputs(),
                uni_stark::log_quotient_chunks(&Fibonacci, 2),
            ),
            (
                CubicChain16.width(),
                CubicChain16.num_public_inputs(),
                uni_stark::log_quotient_chunks(&CubicChain16, 2),
            ),
            {
                let m = MembershipOf::<F>::default();
                (
                    m.width(),
                    m.num_public_inputs(),
                    uni_stark::log_quotient_chunks(&m, 2),
                )
            },
        ] {
            out.push((&b"p3-uni-stark"[..], vec![public as u32]));
            let mut widths = vec![width as u32, width as u32];
            widths.extend(core::iter::repeat_n(d, 1 << log_chunks));
            out.push((&b"p3-fri-pcs"[..], widths));
        }
        for p in params {
            let pcs = TwoAdicPcs {
                log_blowup: p.log_blowup.into(),
                num_queries: p.num_queries.into(),
                pow_bits: p.pow_bits.into(),
                max_log_arity: p.log_fold_arity.into(),
                log_final_poly_len: p.log_final_poly_len.into(),
                hash: (),
            };
            for log_n in 1..=24usize {
                if log_n + pcs.log_blowup > max_log_lde || !pcs.within_bounds(log_n) {
                    continue;
                }
                let rounds = (log_n - pcs.log_final_poly_len).div_ceil(pcs.max_log_arity);
                out.push((
                    &b"p3-fri"[..],
                    vec![
                        rounds as u32,
                        1 << pcs.log_final_poly_len,
                        pcs.pow_bits as u32,
                        (log_n + pcs.log_blowup) as u32,
                        pcs.num_queries as u32,
                    ],
                ));
            }
        }
        out.sort();
        out.dedup();
        out
    }

    fn check<F: PrimeField64 + TwoAdicField + MembershipField, EF: ExtensionField<F>>(
        max_log_lde: usize,
        params: &[ProofParams],
        source: &mut String,
        stale: &mut usize,
    ) {
        for (protocol, key) in keys::<F, EF>(max_log_lde, params) {
            let want = upstream_hash::<F, EF>(protocol, &key);
            // The lookups the verifier makes return upstream's hash, listed or not.
            let got = match protocol {
                b"p3-uni-stark" => stark_pattern::<F, EF>(&[key[0]]),
                b"p3-fri-pcs" => pcs_pattern::<F, EF>(&key),
                _ => fri_pattern::<F, EF>(&[key[0], key[1], key[2], key[3], key[4]]),
            };
            assert_eq!(got, want, "{protocol:?} {key:?}");
            let listed = PATTERNS.iter().any(|e| {
                e.protocol == protocol
                    && e.modulus == F::ORDER_U64
                    && usize::from(e.degree) == EF::DIMENSION
                    && e.params == &key[..]
                    && e.hash == want
            });
            *stale += usize::from(!listed);
            *source += &format!(
                "    PatternEntry {{ protocol: b\"{}\", modulus: {:#x}, degree: {}, params: &{:?}, hash: {:?} }},\n",
                core::str::from_utf8(protocol).unwrap(),
                F::ORDER_U64,
                EF::DIMENSION,
                key,
                want
            );
        }
    }

    #[test]
    fn pattern_table_is_current() {
        use crate::config::{
            DEFAULT_PARAMS_TWO_ADIC as D, ENGINE_PARAMS_TWO_ADIC as E,
            ENGINE_PARAMS_TWO_ADIC_B8 as E8, FOUNDATION_PARAMS as FP,
            MEMBERSHIP_128_PARAMS_TWO_ADIC as M128,
        };
        let mut source = String::new();
        let mut stale = 0;
        check::<BabyBear, BinomialExtensionField<BabyBear, 4>>(
            27,
            &[D, FP, E, E8],
            &mut source,
            &mut stale,
        );
        check::<BabyBear, BinomialExtensionField<BabyBear, 5>>(27, &[D], &mut source, &mut stale);
        check::<BabyBear, BinomialExtensionField<BabyBear, 8>>(27, &[D], &mut source, &mut stale);
        check::<Goldilocks, BinomialExtensionField<Goldilocks, 2>>(
            31,
            &[D, FP, E, E8],
            &mut source,
            &mut stale,
        );
        check::<Goldilocks, CubicTrinomialExtensionField<Goldilocks>>(
            31,
            &[D, M128],
            &mut source,
            &mut stale,
        );
        check::<Goldilocks, BinomialExtensionField<Goldilocks, 5>>(
            31,
            &[D],
            &mut source,
            &mut stale,
        );
        if stale > 0 {
            println!("pub static PATTERNS: &[PatternEntry] = &[\n{source}];");
        }
        assert_eq!(
            stale, 0,
            "{stale} shapes missing from lean/patterns.rs: paste the table printed above"
        );
    }
}

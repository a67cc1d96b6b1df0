//! The project's own `no_std` verifier for winterfell 0.13 proofs, generic over the
//! extension degree of the challenge field (Goldilocks x 2 or 3, BabyBear x 4).
//!
//! Upstream's verifier cannot be used as is: its generic verification procedure is private
//! and dispatches on the proof's `FieldExtension` (no quartic; the zkmcu fork writes tag 4,
//! our upstream-made BabyBear proofs say "none"), its security estimate trusts that tag, and
//! its parsing pre-allocates from untrusted lengths. This verifier:
//!
//! 1. splits the payload into borrowed sections ([`parse`]) and checks it against the proof
//!    file header (the header is what the policy checked: parameters, trace length, the
//!    extension tags this backend accepts), then its own security estimate on the true
//!    extension degree;
//! 2. replays winterfell's Fiat-Shamir transcript with winter-crypto's `DefaultRandomCoin`
//!    and the header's hash (BLAKE3-256 or SHA-256, [`crate::hash`]), seeded from the context
//!    elements (with the tag as written);
//! 3. draws the composition and DEEP coefficients with winter-air's public `Air` helpers on
//!    the adapted AIR ([`crate::air::WfAir`]), and checks the OOD constraint consistency
//!    ([`composer`]);
//! 4. checks the trace and composition openings ([`merkle`]) and the FRI query phase
//!    ([`fri`]) in place over the proof bytes, with a handful of allocations whose sizes are
//!    bounded by the number of queries.
//!
//! Every shape is checked before any upstream constructor that asserts is called, so no
//! payload reaches a panic.

pub mod composer;
pub mod fri;
pub mod math;
pub mod merkle;
pub mod parse;

use alloc::vec::Vec;
use core::marker::PhantomData;

use picostark_air::chain16::CubicChain16;
use picostark_air::fibonacci::Fibonacci;
use picostark_air::AirDef;
use picostark_airs::{AirSet, Builtins};
use picostark_core::security::AirShape;
use picostark_core::Tree;
use picostark_core::{
    conjectured_security_bits, AirId, BackendId, Check, Failures, FieldId, HashId, Policy,
    ProofFile, ProofHeader, Verifier, VerifyError,
};
use winter_air::{
    Air, BatchingMethod, ConstraintCompositionCoefficients, FieldExtension, ProofOptions, TraceInfo,
};

use crate::hash::{Blake3, Sha256};
use winter_crypto::{DefaultRandomCoin, ElementHasher, Hasher, RandomCoin};
use winter_fri::FriOptions;
use winter_math::fields::f64::BaseElement as Goldilocks;
use winter_math::fields::{CubeExtension, QuadExtension};
use winter_math::{ExtensibleField, FieldElement, StarkField};

use crate::air::{felt_from_u64, min_blowup, PublicInputs, WfAir};
use crate::field::{BabyBear, Quartic, Quintic};
use crate::membership::{MembershipField, MembershipOf};
use composer::{check_ood_constraints, deep_evaluations, DeepInputs};
use fri::{verify_queries, FriInputs, FriShape};
use math::Powers;
use merkle::{read_digest, verify_batch, MerkleScratch, Node, NodeHash, DIGEST_BYTES};
use parse::{element_at, malformed, RawOptions, RawProof};

/// Winterfell's `FieldExtension` byte for "none": what the upstream prover writes for our
/// BabyBear proofs, whose challenge field really is the quartic extension.
pub const EXTENSION_TAG_NONE: u8 = 1;
/// The zkmcu fork's `FieldExtension::Quartic` byte.
pub const EXTENSION_TAG_QUARTIC: u8 = 4;

macro_rules! wf_verifier {
    ($(#[$m:meta])* $name:ident, $of:ident) => {
        $(#[$m])*
        ///
        /// Generic over the AIRs it verifies (`picostark_airs::AirSet`: the built-ins, or the
        /// built-ins and a user's AIR with `picostark_airs::With`).
        pub struct $of<S = Builtins> {
            /// Minimum conjectured security of the payload's own parameters on the true
            /// extension degree (checked in addition to the caller's [`Policy`] on the
            /// header).
            pub min_security_bits: u32,
            airs: PhantomData<fn() -> S>,
        }

        $(#[$m])*
        pub type $name = $of<Builtins>;

        impl<S> $of<S> {
            /// The verifier with its own floor on the payload's parameters.
            pub const fn with_min_security(min_security_bits: u32) -> Self {
                Self {
                    min_security_bits,
                    airs: PhantomData,
                }
            }
        }

        impl<S> Default for $of<S> {
            fn default() -> Self {
                Self::with_min_security(Policy::DEFAULT_MIN_SECURITY_BITS)
            }
        }
        impl<S> Clone for $of<S> {
            fn clone(&self) -> Self {
                *self
            }
        }
        impl<S> Copy for $of<S> {}
        impl<S> core::fmt::Debug for $of<S> {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_struct(stringify!($name))
                    .field("min_security_bits", &self.min_security_bits)
                    .finish()
            }
        }
    };
}

wf_verifier!(
    /// Verifier for `wf-goldilocks` proof files (quadratic or cubic extension).
    WfGoldilocksVerifier,
    WfGoldilocksVerifierOf
);
wf_verifier!(
    /// Verifier for `wf-babybear` proof files (quartic extension `x^4 - 11` or quintic
    /// `x^5 - 2`).
    WfBabyBearVerifier,
    WfBabyBearVerifierOf
);

/// What the verifier answers for a proof of a custom AIR it was not built with.
pub const AIR_NOT_IN_BUILD: &str = "a custom AIR this build was not made with";

fn out_of_range(what: &'static str, value: impl Into<u32>, max: u32) -> VerifyError {
    VerifyError::ParameterOutOfRange {
        what,
        value: value.into(),
        max,
    }
}

/// Checks what needs only the header: the backend, the extension degree (every hash and AIR
/// of `picostark-air` is supported), and each parameter against the range upstream's
/// constructors assert on (`ProofOptions::new`, `get_root_of_unity`) and a 32-bit `usize`
/// holds, so no header value reaches one of those assertions (see `docs/panic-inventory.md`).
/// `verify_payload` repeats it.
fn check_common(
    backend: BackendId,
    header: &ProofHeader,
    extension_degrees: &[u8],
    two_adicity: u32,
) -> Result<(), VerifyError> {
    if header.backend != backend {
        return Err(VerifyError::WrongBackend {
            expected: backend,
            found: header.backend,
        });
    }
    if !extension_degrees.contains(&header.extension_degree) {
        return Err(VerifyError::Unsupported("extension degree"));
    }
    let p = &header.params;
    // The payload stores queries, blowup, grinding and the remainder degree in one byte each;
    // upstream caps them at 255 queries, blowup 128, 32 grinding bits, degree 255.
    if p.num_queries > 255 {
        return Err(out_of_range("number of queries", p.num_queries, 255));
    }
    if p.log_blowup > 7 {
        return Err(out_of_range("log2 blowup", p.log_blowup, 7));
    }
    if p.pow_bits > 32 {
        return Err(out_of_range("proof-of-work bits", p.pow_bits, 32));
    }
    if p.log_fold_arity == 0 || p.log_fold_arity > 4 {
        return Err(out_of_range("log2 folding arity", p.log_fold_arity, 4));
    }
    if p.log_final_poly_len > 8 {
        return Err(out_of_range(
            "log2 final polynomial length",
            p.log_final_poly_len,
            8,
        ));
    }
    // The LDE domain's root of unity must exist, and its size fit a 32-bit `usize`.
    let max_log_lde = two_adicity.min(31);
    let log_lde = u32::from(header.log_n) + u32::from(p.log_blowup);
    if header.log_n < 3 || log_lde > max_log_lde {
        return Err(out_of_range("log2 LDE domain size", log_lde, max_log_lde));
    }
    Ok(())
}

impl<S: AirSet> Verifier for WfGoldilocksVerifierOf<S> {
    fn backend(&self) -> BackendId {
        BackendId::WfGoldilocks
    }

    fn check_supported(&self, header: &ProofHeader) -> Result<(), VerifyError> {
        check_common(self.backend(), header, &[2, 3], Goldilocks::TWO_ADICITY)
    }

    fn air_shape(&self, header: &ProofHeader) -> Result<AirShape, VerifyError> {
        picostark_airs::shape_for::<S>(self.backend(), header.air)
            .ok_or(VerifyError::Unsupported(AIR_NOT_IN_BUILD))
    }

    fn verify_payload(&self, proof: &ProofFile<'_>) -> Result<(), VerifyError> {
        self.check_supported(&proof.header)?;
        match proof.header.extension_degree {
            2 => verify_hashed::<S, Goldilocks, QuadExtension<Goldilocks>>(
                proof,
                &[2],
                self.min_security_bits,
            ),
            3 => verify_hashed::<S, Goldilocks, CubeExtension<Goldilocks>>(
                proof,
                &[3],
                self.min_security_bits,
            ),
            _ => Err(VerifyError::Unsupported("extension degree")),
        }
    }
}

impl<S: AirSet> Verifier for WfBabyBearVerifierOf<S> {
    fn backend(&self) -> BackendId {
        BackendId::WfBabyBear
    }

    fn check_supported(&self, header: &ProofHeader) -> Result<(), VerifyError> {
        check_common(self.backend(), header, &[4, 5], BabyBear::TWO_ADICITY)
    }

    fn air_shape(&self, header: &ProofHeader) -> Result<AirShape, VerifyError> {
        picostark_airs::shape_for::<S>(self.backend(), header.air)
            .ok_or(VerifyError::Unsupported(AIR_NOT_IN_BUILD))
    }

    fn verify_payload(&self, proof: &ProofFile<'_>) -> Result<(), VerifyError> {
        self.check_supported(&proof.header)?;
        match proof.header.extension_degree {
            4 => verify_hashed::<S, BabyBear, Quartic>(
                proof,
                &[EXTENSION_TAG_NONE, EXTENSION_TAG_QUARTIC],
                self.min_security_bits,
            ),
            // Our own field (no fork wrote it): only the tag the upstream prover writes.
            5 => verify_hashed::<S, BabyBear, Quintic>(
                proof,
                &[EXTENSION_TAG_NONE],
                self.min_security_bits,
            ),
            _ => Err(VerifyError::Unsupported("extension degree")),
        }
    }
}

/// Verifies with the header's hash: winter-crypto's BLAKE3 (recomputed) or our SHA-256
/// ([`crate::hash`]).
fn verify_hashed<S: AirSet, B, E>(
    file: &ProofFile<'_>,
    accepted_tags: &[u8],
    min_security_bits: u32,
) -> Result<(), VerifyError>
where
    B: StarkField + ExtensibleField<2> + ExtensibleField<3> + MembershipField,
    E: FieldElement<BaseField = B>,
{
    match file.header.hash {
        HashId::Blake3_256 => {
            verify_air::<S, B, E, Blake3<B>>(file, accepted_tags, min_security_bits)
        }
        HashId::Sha256 => verify_air::<S, B, E, Sha256<B>>(file, accepted_tags, min_security_bits),
        // BLAKE2s is stwo's hash; no winterfell proof uses it.
        HashId::Blake2s256 => Err(VerifyError::Unsupported(
            "hash blake2s-256 for a winterfell backend",
        )),
    }
}

fn mismatch(what: &'static str) -> VerifyError {
    VerifyError::StatementMismatch(what)
}

fn coin_error<T>(_: T) -> VerifyError {
    VerifyError::CheckFailed(Check::TranscriptDraw)
}

/// The batching method byte (winter-air's `BatchingMethod` encoding: 0 Linear, 1 Algebraic,
/// 2 Horner). Only Linear, what our provers write, is accepted: a verifier that followed the
/// byte would let a prover pick among methods after seeing the challenges.
fn linear_batching(byte: u8) -> Result<BatchingMethod, VerifyError> {
    match byte {
        0 => Ok(BatchingMethod::Linear),
        1 | 2 => Err(VerifyError::Unsupported(
            "batching method other than Linear",
        )),
        _ => Err(malformed("batching method")),
    }
}

/// Checks the payload's context against the header and the backend, returning the options
/// in a form upstream's constructors accept without panicking.
fn check_context<A, B>(
    def: &A,
    header: &ProofHeader,
    raw: &RawProof<'_>,
    accepted_tags: &[u8],
    true_degree: u8,
    min_security_bits: u32,
) -> Result<ProofOptions, VerifyError>
where
    A: AirDef + Default,
    B: StarkField,
{
    let p = &header.params;
    let o: &RawOptions = &raw.options;
    if raw.main_width as usize != def.width() || !raw.trace_meta.is_empty() {
        return Err(mismatch("trace shape in the payload"));
    }
    if raw.log_n != header.log_n {
        return Err(mismatch("trace length in the payload"));
    }
    if raw.modulus != B::get_modulus_le_bytes().as_slice() {
        return Err(mismatch("field modulus in the payload"));
    }
    if !accepted_tags.contains(&o.extension_tag) {
        return Err(mismatch("extension tag in the payload"));
    }
    if u16::from(o.num_queries) != p.num_queries
        || u32::from(o.blowup) != 1u32 << p.log_blowup
        || o.grinding != p.pow_bits
        || u32::from(o.fri_folding) != 1u32 << p.log_fold_arity
        || u32::from(o.fri_remainder_max_degree) + 1 != 1u32 << p.log_final_poly_len
    {
        return Err(mismatch("proof parameters in the payload"));
    }
    // The header's ranges were checked in `check_common`, and the options equal them; what
    // remains of upstream's assertions is on bytes the header does not carry.
    let batching_constraints = linear_batching(o.batching_constraints)?;
    let batching_deep = linear_batching(o.batching_deep)?;
    if o.num_partitions != 1 || o.hash_rate != 1 || raw.fri_log_partitions != 0 {
        return Err(VerifyError::Unsupported("partitioned commitments"));
    }
    // `AirContext::new` asserts the blowup covers the constraint degrees.
    if usize::from(o.blowup) < min_blowup(def) {
        return Err(VerifyError::Unsupported(
            "blowup below the AIR's constraint degree",
        ));
    }
    let log_lde = u32::from(raw.log_n) + u32::from(p.log_blowup);
    if u64::from(o.num_queries) >= 1u64 << log_lde {
        return Err(VerifyError::Unsupported("more queries than domain points"));
    }
    if raw.num_constraints != WfAir::<A, B>::num_constraints(def) as u64 {
        return Err(mismatch("number of constraints in the payload"));
    }
    let bits = conjectured_security_bits(header.field, true_degree, header.log_n, p);
    if bits < min_security_bits {
        return Err(VerifyError::InsufficientSecurity {
            bits,
            required: min_security_bits,
        });
    }
    let extension = match o.extension_tag {
        2 => FieldExtension::Quadratic,
        3 => FieldExtension::Cubic,
        _ => FieldExtension::None,
    };
    Ok(ProofOptions::new(
        usize::from(o.num_queries),
        usize::from(o.blowup),
        u32::from(o.grinding),
        extension,
        usize::from(o.fri_folding),
        usize::from(o.fri_remainder_max_degree),
        batching_constraints,
        batching_deep,
    ))
}

/// A field element from little-endian bytes (at most 8), reduced.
fn felt_from_le<B: StarkField>(bytes: &[u8]) -> B {
    let mut a = [0u8; 8];
    let len = bytes.len().min(8);
    a[..len].copy_from_slice(&bytes[..len]);
    felt_from_u64(u64::from_le_bytes(a))
}

/// The public coin's seed: the proof context as winterfell's `Context::to_elements` lays it
/// out (with the extension tag exactly as written in the payload), then the public inputs.
pub fn seed_elements<B: StarkField>(raw: &RawProof<'_>, public_inputs: &[B]) -> Vec<B> {
    let o = &raw.options;
    let half = raw.modulus.len() / 2;
    let mut seed = Vec::with_capacity(8 + public_inputs.len());
    // Main width, then the number of auxiliary segments (always 0 here).
    seed.push(B::from(u32::from(raw.main_width) << 8));
    seed.push(B::from(1u32 << raw.log_n));
    seed.push(felt_from_le(&raw.modulus[..half]));
    seed.push(felt_from_le(&raw.modulus[half..]));
    seed.push(B::from(raw.num_constraints as u32));
    seed.push(B::from(u32::from_le_bytes([
        o.blowup,
        o.fri_remainder_max_degree,
        o.fri_folding,
        o.extension_tag,
    ])));
    seed.push(B::from(u32::from(o.grinding)));
    seed.push(B::from(u32::from(o.num_queries)));
    seed.extend_from_slice(public_inputs);
    seed
}

/// Decodes `count` elements of `E` from exactly `count * E::ELEMENT_BYTES` bytes.
fn decode_all<E: FieldElement>(bytes: &[u8], count: usize) -> Result<Vec<E>, VerifyError> {
    if bytes.len() != count * E::ELEMENT_BYTES {
        return Err(malformed("OOD frame size"));
    }
    (0..count).map(|i| element_at(bytes, i)).collect()
}

/// Checks that `values` holds `rows` rows of `row_elements` canonical elements of `F` and
/// writes each row's leaf into `leaves`: winterfell hashes a row's canonical encoding, which
/// is exactly its bytes here.
fn row_leaves<F: FieldElement, H: NodeHash>(
    values: &[u8],
    rows: usize,
    row_elements: usize,
    leaves: &mut Vec<Node>,
) -> Result<(), VerifyError> {
    let row_bytes = row_elements * F::ELEMENT_BYTES;
    if row_bytes == 0 || values.len() != rows * row_bytes {
        return Err(malformed("query values size"));
    }
    // Sized once (`resize` zeroes only new entries), each leaf hashed into its place.
    leaves.resize(rows, Node::default());
    for (row, leaf) in values.chunks_exact(row_bytes).zip(leaves.iter_mut()) {
        for i in 0..row_elements {
            element_at::<F>(row, i)?;
        }
        H::leaf(row, leaf);
    }
    Ok(())
}

/// Verifies a proof of the header's AIR over base field `B` with challenge field `E`, hash `H`.
fn verify_air<S: AirSet, B, E, H>(
    file: &ProofFile<'_>,
    accepted_tags: &[u8],
    min_security_bits: u32,
) -> Result<(), VerifyError>
where
    B: StarkField + ExtensibleField<2> + ExtensibleField<3> + MembershipField,
    E: FieldElement<BaseField = B>,
    H: ElementHasher<BaseField = B> + NodeHash,
{
    match file.header.air {
        AirId::Fibonacci => {
            verify_proof::<Fibonacci, B, E, H>(file, accepted_tags, min_security_bits)
        }
        AirId::CubicChain16 => {
            verify_proof::<CubicChain16, B, E, H>(file, accepted_tags, min_security_bits)
        }
        AirId::Membership => {
            verify_proof::<MembershipOf<B>, B, E, H>(file, accepted_tags, min_security_bits)
        }
        // A user's AIR (`picostark_airs::With`); the built-ins' set has none.
        AirId::Custom(_) => match S::extra(file.header.air) {
            Some(_) => verify_proof::<S::Extra, B, E, H>(file, accepted_tags, min_security_bits),
            None => Err(VerifyError::Unsupported(AIR_NOT_IN_BUILD)),
        },
    }
}

/// Verifies a proof of the AIR `A` over base field `B` with challenge field `E`, as passes:
/// the statement and shape ([`read_statement`]), the commitments and OOD frame, the
/// transcript's draws, then the value checks ([`check_values`]), which run to the end and
/// record each failure (issue 46).
fn verify_proof<A, B, E, H>(
    file: &ProofFile<'_>,
    accepted_tags: &[u8],
    min_security_bits: u32,
) -> Result<(), VerifyError>
where
    A: AirDef + Default + Send + Sync,
    B: StarkField + ExtensibleField<2> + ExtensibleField<3>,
    E: FieldElement<BaseField = B>,
    H: ElementHasher<BaseField = B> + NodeHash,
{
    let st = read_statement::<A, B, E>(file, accepted_tags, min_security_bits)?;
    let roots = read_commitments::<H>(&st.raw, st.num_fri_layers)?;
    let ood = read_ood_frame::<E>(&st.raw, st.width, st.columns)?;
    let mut coin = DefaultRandomCoin::<H>::new(&st.seed);
    coin.reseed(roots[0]);
    let composition_coefficients = st
        .air
        .get_constraint_composition_coefficients::<E, _>(&mut coin)
        .map_err(coin_error)?;
    coin.reseed(roots[1]);
    let z: E = coin.draw().map_err(coin_error)?;
    // From here every value check runs to the end and records a failure (issue 46); the
    // first recorded is the reason, also when a later step meets a shape the failure caused.
    let mut fails = Failures::new();
    let outcome = check_values::<A, B, E, H>(
        &st,
        &roots,
        (&ood, z, &composition_coefficients),
        &mut coin,
        &mut fails,
    );
    fails.verdict_after(outcome)
}

/// What the first pass reads and checks of a proof of `A`: its sections, the AIR instance
/// and the shapes later passes rely on. Its errors reveal only the proof's public layout.
struct Statement<'a, A: AirDef, B: StarkField> {
    raw: RawProof<'a>,
    air: WfAir<A, B>,
    seed: Vec<B>,
    width: usize,
    columns: usize,
    num_fri_layers: usize,
}

/// Pass 1: the header against `E` and `B`, the payload's sections and context, the public
/// inputs and the AIR instance.
fn read_statement<'a, A, B, E>(
    file: &ProofFile<'a>,
    accepted_tags: &[u8],
    min_security_bits: u32,
) -> Result<Statement<'a, A, B>, VerifyError>
where
    A: AirDef + Default + Send + Sync,
    B: StarkField + ExtensibleField<2> + ExtensibleField<3>,
    E: FieldElement<BaseField = B>,
{
    let def = A::default();
    let header = &file.header;
    let true_degree = E::EXTENSION_DEGREE as u8;
    if header.extension_degree != true_degree {
        return Err(VerifyError::Unsupported("extension degree"));
    }
    let field_matches = match header.field {
        FieldId::Goldilocks => B::MODULUS_BITS == 64,
        FieldId::BabyBear => B::MODULUS_BITS == 31,
        FieldId::Mersenne31 => false,
    };
    if !field_matches {
        return Err(VerifyError::Unsupported("field"));
    }
    if file.public_inputs.len() != def.num_public_inputs() {
        return Err(mismatch("number of public inputs"));
    }
    let raw = RawProof::parse(file.payload)?;
    let options = check_context::<A, B>(
        &def,
        header,
        &raw,
        accepted_tags,
        true_degree,
        min_security_bits,
    )?;
    let public: Vec<B> = file
        .public_inputs
        .iter()
        .map(|v| B::try_from(v).map_err(|_| mismatch("public input is not a field element")))
        .collect::<Result<_, _>>()?;
    let width = usize::from(raw.main_width);
    let seed = seed_elements(&raw, &public);
    let air = WfAir::<A, B>::new(
        TraceInfo::new(width, 1usize << raw.log_n),
        PublicInputs(public),
        options,
    );
    let o = &raw.options;
    let fri_options = FriOptions::new(
        usize::from(o.blowup),
        usize::from(o.fri_folding),
        usize::from(o.fri_remainder_max_degree),
    );
    let num_fri_layers = fri_options.num_fri_layers(air.lde_domain_size());
    if raw.num_fri_layers != num_fri_layers {
        return Err(malformed("number of FRI layers"));
    }
    let columns = air.context().num_constraint_composition_columns();
    Ok(Statement {
        raw,
        air,
        seed,
        width,
        columns,
        num_fri_layers,
    })
}

/// The commitments, in transcript order: trace, composition, FRI layers, FRI remainder.
fn read_commitments<H: Hasher>(
    raw: &RawProof<'_>,
    num_fri_layers: usize,
) -> Result<Vec<H::Digest>, VerifyError> {
    let num_digests = 2 + num_fri_layers + 1;
    if raw.commitments.len() != num_digests * DIGEST_BYTES {
        return Err(malformed("number of commitments"));
    }
    raw.commitments
        .chunks_exact(DIGEST_BYTES)
        .map(read_digest::<H>)
        .collect()
}

/// The OOD frame, `[2, current row, next row]` for the trace and for the composition
/// columns: `(trace, composition)`, each the current row then the next.
fn read_ood_frame<E: FieldElement>(
    raw: &RawProof<'_>,
    width: usize,
    columns: usize,
) -> Result<(Vec<E>, Vec<E>), VerifyError> {
    match (raw.ood_trace.split_first(), raw.ood_quotient.split_first()) {
        (Some((2, t)), Some((2, q))) => Ok((
            decode_all::<E>(t, 2 * width)?,
            decode_all::<E>(q, 2 * columns)?,
        )),
        _ => Err(malformed("OOD frame")),
    }
}

/// The value checks, after the draw of `z`: OOD constraints, the DEEP and FRI draws, proof of
/// work and query positions, the trace and composition openings, then FRI. Every failure
/// goes to `fails`; an error is a shape.
fn check_values<A, B, E, H>(
    st: &Statement<'_, A, B>,
    roots: &[H::Digest],
    (ood, z, composition_coefficients): (
        &(Vec<E>, Vec<E>),
        E,
        &ConstraintCompositionCoefficients<E>,
    ),
    coin: &mut DefaultRandomCoin<H>,
    fails: &mut Failures,
) -> Result<(), VerifyError>
where
    A: AirDef + Default + Send + Sync,
    B: StarkField + ExtensibleField<2> + ExtensibleField<3>,
    E: FieldElement<BaseField = B>,
    H: ElementHasher<BaseField = B> + NodeHash,
{
    let (raw, air, width, columns) = (&st.raw, &st.air, st.width, st.columns);
    let (trace_current, trace_next) = ood.0.split_at(width);
    let (quotient_current, quotient_next) = ood.1.split_at(columns);
    let trace_powers = Powers::new(air.trace_domain_generator(), u32::from(raw.log_n));
    check_ood_constraints(
        air,
        composition_coefficients,
        trace_current,
        trace_next,
        quotient_current,
        z,
        &trace_powers,
        fails,
    )?;
    let mut merged = Vec::with_capacity(2 * (width + columns));
    merged.extend_from_slice(trace_current);
    merged.extend_from_slice(quotient_current);
    merged.extend_from_slice(trace_next);
    merged.extend_from_slice(quotient_next);
    coin.reseed(H::hash_elements(&merged));
    drop(merged);
    let deep_coefficients = air
        .get_deep_composition_coefficients::<E, _>(coin)
        .map_err(coin_error)?;
    let fri_roots = &roots[2..];
    let alphas = draw_fri_alphas::<E, H>(coin, fri_roots, 1usize << raw.log_n, raw)?;
    let lde_size = air.lde_domain_size();
    let positions = draw_positions::<H>(coin, raw, lde_size, fails)?;

    // The openings of the trace and composition commitments at the positions.
    let log_lde = lde_size.trailing_zeros();
    let mut merkle = MerkleScratch::with_capacity(positions.len());
    let mut leaves: Vec<Node> = Vec::with_capacity(positions.len());
    let rows = positions.len();
    row_leaves::<B, H>(raw.trace_values, rows, width, &mut leaves)?;
    verify_batch::<H>(
        (Tree::Trace, &roots[0]),
        log_lde,
        &positions,
        &leaves,
        raw.trace_paths,
        &mut merkle,
        fails,
    )?;
    row_leaves::<E, H>(raw.constraint_values, rows, columns, &mut leaves)?;
    verify_batch::<H>(
        (Tree::Quotient, &roots[1]),
        log_lde,
        &positions,
        &leaves,
        raw.constraint_paths,
        &mut merkle,
        fails,
    )?;
    drop(leaves);

    // The DEEP composition at the positions, then FRI on it.
    let lde_powers = Powers::new(air.lde_domain_generator(), log_lde);
    let deep = deep_evaluations(
        air,
        &DeepInputs {
            z,
            trace_current,
            trace_next,
            quotient_current,
            quotient_next,
            coefficients: &deep_coefficients,
        },
        &positions,
        raw.trace_values,
        raw.constraint_values,
        &lde_powers,
    )?;
    let inputs = FriInputs {
        shape: FriShape {
            folding: usize::from(raw.options.fri_folding),
            lde_domain_size: lde_size,
            max_degree_plus_1: 1usize << raw.log_n,
            num_layers: st.num_fri_layers,
        },
        lde_powers: &lde_powers,
        domain_offset: air.domain_offset(),
        commitments: fri_roots,
        alphas: &alphas,
        layers: &raw.fri_layers[..st.num_fri_layers],
        remainder: raw.fri_remainder,
    };
    verify_queries::<B, E, H>(&inputs, positions, deep, &mut merkle, fails)
}

/// The FRI commit phase's draws: one alpha per layer commitment (and the remainder's).
fn draw_fri_alphas<E, H>(
    coin: &mut DefaultRandomCoin<H>,
    fri_roots: &[H::Digest],
    n: usize,
    raw: &RawProof<'_>,
) -> Result<Vec<E>, VerifyError>
where
    E: FieldElement,
    H: ElementHasher<BaseField = E::BaseField>,
{
    let folding = usize::from(raw.options.fri_folding);
    let mut alphas: Vec<E> = Vec::with_capacity(fri_roots.len());
    let mut degree_plus_1 = n;
    for (depth, root) in fri_roots.iter().enumerate() {
        coin.reseed(*root);
        alphas.push(coin.draw().map_err(coin_error)?);
        if depth + 1 != fri_roots.len() && !degree_plus_1.is_multiple_of(folding) {
            return Err(VerifyError::Unsupported(
                "FRI degree does not divide by the folding",
            ));
        }
        degree_plus_1 /= folding;
    }
    Ok(alphas)
}

/// The proof of work, then the query positions: sorted, distinct, and as many as the proof
/// opens. Indexes a damaged proof led astray may repeat more or less: recorded, and cut or
/// padded to the proof's count, so the openings run over the proof's rows.
fn draw_positions<H: ElementHasher>(
    coin: &mut DefaultRandomCoin<H>,
    raw: &RawProof<'_>,
    lde_size: usize,
    fails: &mut Failures,
) -> Result<Vec<usize>, VerifyError> {
    let o = &raw.options;
    fails.check(
        coin.check_leading_zeros(raw.pow_nonce) >= u32::from(o.grinding),
        Check::ProofOfWork,
    );
    let drawn = coin
        .draw_integers(usize::from(o.num_queries), lde_size, raw.pow_nonce)
        .map_err(coin_error)?;
    // Sorted by rank, not by a comparison sort, whose steps depend on the order (issue 46).
    let mut sorted = Vec::new();
    merkle::sort_by_rank(&drawn, &mut sorted);
    let mut positions: Vec<usize> = sorted.iter().map(|&(p, _)| p).collect();
    positions.dedup();
    let unique = usize::from(raw.num_unique_queries);
    if unique == 0 || unique > usize::from(o.num_queries) || unique > lde_size {
        return Err(malformed("number of unique queries"));
    }
    fails.check(positions.len() == unique, Check::MerklePath(Tree::Trace));
    let distinct = positions.len();
    fri::pad_rows(&mut positions, distinct, unique, lde_size);
    if distinct < unique {
        // Stand-ins were appended: back in order (a damaged proof's path only).
        positions.sort_unstable();
    }
    Ok(positions)
}

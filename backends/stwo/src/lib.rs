//! picostark-stwo: StarkWare's stwo 2.3 circle STARK as the `stwo-m31` backend.
//!
//! - [`air`]: the one adapter from our [`picostark_air::AirDef`]s to stwo's constraint
//!   framework, shared by this verifier and the nightly prover (`backends/stwo/prover`).
//! - [`payload`]: our encoding of stwo's proof inside the proof file, with the bounded parser
//!   that stands between hostile bytes and stwo's panicking sites.
//! - [`preprocessed`]: the commitments of the selector columns the verifier trusts.
//! - [`StwoM31VerifierOf`]: our [`Verifier`]; after the header, statement and parser checks it
//!   runs our lean verifier ([`lean`]: stwo's verification draw for draw, without its copies,
//!   maps and per-point scalar products, on the proof read in place), or with the feature
//!   `stwo-stock` stwo's own `no_std` verifier (`stwo::core::verifier::verify`, the "stock"
//!   row); both with stwo's Blake2s Merkle channel, or with ours over BLAKE3 or SHA-256
//!   ([`channel`]), so a stwo row can hold the hash equal with the other protocols'. [`run`]
//!   runs either path by name (the differential tests).
//! - `prover_client` (`std`): the registry's prover, which runs the nightly-built prover
//!   binary, since stwo's prover needs nightly Rust and this workspace builds on stable.
//!
//! The transcript starts from the statement ([`bind_statement`]): backend, AIR, n, the
//! configuration and the public inputs are mixed into the channel before any commitment, so a
//! proof answers for exactly the header and public inputs it is filed under.
#![no_std]
#![forbid(unsafe_code)]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub mod air;
pub mod channel;
pub mod lean;
pub mod payload;
pub mod preprocessed;
#[cfg(feature = "std")]
pub mod prover_client;

use alloc::vec::Vec;

use num_traits::Zero;
use picostark_air::AirDef;
use picostark_airs::{AirSet, AirVisitor, Builtins};
use picostark_core::proof_file::ProofParams;
use picostark_core::security::AirShape;
use picostark_core::{
    AirId, BackendId, Check, FieldId, HashId, ProofFile, ProofHeader, Verifier, VerifyError,
};
use stwo::core::channel::{Channel, MerkleChannel};
use stwo::core::fields::m31::{BaseField, M31, P};
use stwo::core::fields::qm31::SecureField;
use stwo::core::fri::{FriConfig, FriVerificationError};
use stwo::core::pcs::{CommitmentSchemeVerifier, PcsConfig};
use stwo::core::vcs_lifted::blake2_merkle::Blake2sMerkleChannel;
use stwo::core::vcs_lifted::merkle_hasher::MerkleHasherLifted;
use stwo::core::verifier::VerificationError;
use stwo_constraint_framework::{FrameworkComponent, TraceLocationAllocator};

use crate::air::AirEval;
use crate::channel::{Blake3, ByteMerkleChannel, RawDigest, Sha256};
use crate::payload::{Shape, TREES};
use picostark_air::reduce::DegreeReduced;

/// The backend this crate verifies.
pub const BACKEND: BackendId = BackendId::StwoM31;

/// The challenge field is QM31, degree 4 over M31.
pub const EXTENSION_DEGREE: u8 = 4;

/// Default parameters: blowup 2^3, 28 queries, 16 PoW bits, lines folded by 2 per layer,
/// a constant last layer: 98 bits under the strictest regime of `core/src/security.rs`
/// (stwo's own figure, `PcsConfig::security_bits`, is 3 * 28 + 16 = 100).
pub const DEFAULT_PARAMS: ProofParams = ProofParams {
    log_blowup: 3,
    num_queries: 28,
    pow_bits: 16,
    log_fold_arity: 1,
    log_final_poly_len: 0,
};

/// Largest trace this backend takes (log2 n), and smallest.
pub const MAX_LOG_N: u8 = 18;
pub const MIN_LOG_N: u8 = 3;
/// Largest trace with our BLAKE3 and SHA-256 channels: their verifier key (the selector
/// roots, `preprocessed`) stops there, because the prover computes those roots on stwo's CPU
/// backend, and CI recomputes them all (2^18 would take about 3 minutes of CI's 2 cores).
pub const MAX_LOG_N_OUR_CHANNELS: u8 = 16;

/// The largest trace this backend takes with `hash`.
pub fn max_log_n(hash: HashId) -> u8 {
    match hash {
        HashId::Blake2s256 => MAX_LOG_N,
        HashId::Blake3_256 | HashId::Sha256 => MAX_LOG_N_OUR_CHANNELS,
    }
}
/// The largest constraint degree (row selector included) stwo 2.3 proves here. Its
/// verifier reads every column on the domain of the composition polynomial's halves
/// (`2^(B - 1)` points for a composition bound `2^B`, `B` from
/// `max_constraint_log_degree_bound`) while its prover evaluates each component on its own
/// trace domain: the two agree only when that domain is the trace's, `B = log2 n + 1`,
/// which holds constraint degree 2 (the composition split in two halves is a constant of
/// stwo's, `COMPOSITION_LOG_SPLIT`, so no parameter moves it; a Fibonacci proof declared at
/// `B = log2 n + 2` fails stwo's own out-of-domain check). Every AIR is proved in its
/// degree-reduced form ([`air::reduced`]): linear constraints under the selector, quadratic
/// definitions of the intermediate columns on every row.
pub const MAX_CONSTRAINT_DEGREE: u32 = 2;
/// stwo's own ranges (`FriConfig::new`'s assertions), and ours for the rest.
const MAX_LOG_BLOWUP: u8 = 16;
const MAX_LOG_LAST_LAYER: u8 = 10;
const MAX_FOLD_STEP: u8 = 4;
const MAX_POW_BITS: u8 = 40;
const MAX_QUERIES: u16 = 255;

/// stwo's configuration for a header's parameters, every committed column lifted to the
/// domain of `2^lifting_log_size` points ([`lifting_log_size`]).
pub fn pcs_config(p: &ProofParams, lifting_log_size: u32) -> PcsConfig {
    PcsConfig {
        pow_bits: u32::from(p.pow_bits),
        fri_config: FriConfig {
            log_blowup_factor: u32::from(p.log_blowup),
            log_last_layer_degree_bound: u32::from(p.log_final_poly_len),
            n_queries: usize::from(p.num_queries),
            fold_step: u32::from(p.log_fold_arity),
        },
        lifting_log_size: Some(lifting_log_size),
    }
}

/// The domain every column is lifted to: the composition polynomial's halves' evaluation
/// domain (`2^(composition log bound - 1 + log blowup)` points). stwo's lifted Merkle
/// verifier takes the trace at that height too; without lifting, a trace of an AIR whose
/// constraints exceed degree 2 would sit on a smaller domain than the composition, which
/// stwo's prover cannot open (it indexes past the column).
pub fn lifting_log_size(composition_log_bound: u32, log_blowup: u8) -> u32 {
    composition_log_bound - stwo::core::verifier::COMPOSITION_LOG_SPLIT + u32::from(log_blowup)
}

/// The checks on a header this backend's verifier and prover share: backend, field,
/// extension, trace length (its bound depends on the hash, [`max_log_n`]) and every parameter
/// within stwo's and our ranges, for the built-in AIRs ([`check_header_in`]). Every hash has
/// a channel: stwo's Blake2s, ours for BLAKE3 and SHA-256 ([`channel`]).
pub fn check_header(header: &ProofHeader) -> Result<(), VerifyError> {
    check_header_in::<Builtins>(header)
}

/// [`check_header`] for the AIRs of the set `S`.
pub fn check_header_in<S: AirSet>(header: &ProofHeader) -> Result<(), VerifyError> {
    if header.backend != BACKEND {
        return Err(VerifyError::WrongBackend {
            expected: BACKEND,
            found: header.backend,
        });
    }
    if header.field != FieldId::Mersenne31 || header.extension_degree != EXTENSION_DEGREE {
        return Err(VerifyError::Unsupported(
            "stwo-m31 is M31 with QM31 (degree 4) challenges",
        ));
    }
    let p = &header.params;
    let range = |what, value: u32, min: u32, max: u32| {
        if value < min || value > max {
            Err(VerifyError::ParameterOutOfRange { what, value, max })
        } else {
            Ok(())
        }
    };
    range(
        "log2 n",
        header.log_n.into(),
        MIN_LOG_N.into(),
        max_log_n(header.hash).into(),
    )?;
    range("log blowup", p.log_blowup.into(), 1, MAX_LOG_BLOWUP.into())?;
    range("queries", p.num_queries.into(), 1, MAX_QUERIES.into())?;
    range("PoW bits", p.pow_bits.into(), 0, MAX_POW_BITS.into())?;
    range(
        "fold step",
        p.log_fold_arity.into(),
        1,
        MAX_FOLD_STEP.into(),
    )?;
    range(
        "last layer log degree",
        p.log_final_poly_len.into(),
        0,
        MAX_LOG_LAST_LAYER.into(),
    )?;
    picostark_airs::shape_for::<S>(BACKEND, header.air)
        .ok_or(VerifyError::Unsupported(AIR_NOT_IN_BUILD))?;
    // FRI must fold at least once: the last layer is below the committed degree (n).
    if p.log_final_poly_len >= header.log_n {
        return Err(VerifyError::Unsupported(
            "stwo-m31: last layer as large as the trace",
        ));
    }
    Ok(())
}

/// Mixes the statement into a fresh channel: backend, AIR, n, the configuration and the
/// public inputs (canonical M31 values, checked by the caller). The prover does the same.
pub fn bind_statement<C: Channel>(
    channel: &mut C,
    header: &ProofHeader,
    config: &PcsConfig,
    public_inputs: &[BaseField],
) {
    channel.mix_u32s(&[
        u32::from(header.backend as u8),
        u32::from(header.air.byte()),
        u32::from(header.log_n),
        public_inputs.len() as u32,
    ]);
    // A custom AIR's fingerprint too (the built-ins' transcripts are as before).
    if let Some(fingerprint) = header.air.fingerprint() {
        channel.mix_u32s(&[fingerprint as u32, (fingerprint >> 32) as u32]);
    }
    config.mix_into(channel);
    let words: Vec<u32> = public_inputs.iter().map(|v| v.0).collect();
    channel.mix_u32s(&words);
}

/// The public inputs of a file as M31 elements, refused if not canonical or not the AIR's
/// count.
fn public_inputs(file: &ProofFile<'_>, expected: usize) -> Result<Vec<BaseField>, VerifyError> {
    if file.public_inputs.len() != expected {
        return Err(VerifyError::StatementMismatch("number of public inputs"));
    }
    (0..expected)
        .map(|i| match file.public_inputs.get(i) {
            Some(v) if v < u64::from(P) => Ok(M31::from_u32_unchecked(v as u32)),
            _ => Err(VerifyError::StatementMismatch(
                "public input not a canonical M31 value",
            )),
        })
        .collect()
}

/// stwo's verdict as ours: a named check where one fits, else a short reason.
fn verdict(e: VerificationError) -> VerifyError {
    match e {
        VerificationError::OodsNotMatching => Check::OodConstraints.into(),
        VerificationError::ProofOfWork => Check::ProofOfWork.into(),
        VerificationError::InvalidStructure(_) => {
            VerifyError::MalformedProof("stwo: proof structure")
        }
        VerificationError::Merkle(_) => VerifyError::Rejected("stwo: trace Merkle decommitment"),
        VerificationError::Fri(f) => VerifyError::Rejected(match f {
            FriVerificationError::InvalidNumFriLayers => "stwo: FRI layer count",
            FriVerificationError::FirstLayerEvaluationsInvalid => "stwo: FRI first layer values",
            FriVerificationError::FirstLayerCommitmentInvalid { .. } => {
                "stwo: FRI first layer Merkle decommitment"
            }
            FriVerificationError::InnerLayerCommitmentInvalid { .. } => {
                "stwo: FRI inner layer Merkle decommitment"
            }
            FriVerificationError::InnerLayerEvaluationsInvalid { .. } => {
                "stwo: FRI inner layer values"
            }
            FriVerificationError::LastLayerDegreeInvalid => "stwo: FRI last layer degree",
            FriVerificationError::LastLayerEvaluationsInvalid => "stwo: FRI last layer values",
        }),
    }
}

/// The component an AIR makes: one stwo component with the two selectors preprocessed.
pub fn component<A: AirDef>(eval: AirEval<'_, A>) -> FrameworkComponent<AirEval<'_, A>> {
    FrameworkComponent::new(
        &mut TraceLocationAllocator::default(),
        eval,
        SecureField::zero(),
    )
}

/// The shape the parser holds a payload to, from the header and the reduced AIR.
pub fn shape<A: AirDef>(air: &DegreeReduced<A>, header: &ProofHeader) -> Shape {
    let eval = AirEval {
        air,
        log_n: header.log_n.into(),
        public_inputs: Vec::new(),
    };
    let composition_log =
        stwo_constraint_framework::FrameworkEval::max_constraint_log_degree_bound(&eval);
    let blowup = u32::from(header.params.log_blowup);
    // The selectors (one sample each), the trace (the AIR's columns at rows i and i + 1,
    // the intermediate ones at row i), the composition's 2 * 4 coordinate columns (one
    // sample each).
    let mut trace = alloc::vec![2; air.inner().width()];
    trace.resize(air.width(), 1);
    let samples: [Vec<u8>; TREES] = [
        alloc::vec![1; 2],
        trace,
        alloc::vec![1; 2 * stwo::core::fields::qm31::SECURE_EXTENSION_DEGREE],
    ];
    let lifting = lifting_log_size(composition_log, header.params.log_blowup);
    Shape {
        config: pcs_config(&header.params, lifting),
        samples,
        max_log_height: lifting.max(composition_log + blowup),
    }
}

/// Which verifier runs after the parser: our lean one ([`lean`], the default) or stwo's own
/// `verify` (the stock row, the default with the feature `stwo-stock`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    Lean,
    Stock,
}

impl Path {
    /// The path this build's [`tyalias@StwoM31Verifier`] takes.
    pub const DEFAULT: Path = if cfg!(feature = "stwo-stock") {
        Path::Stock
    } else {
        Path::Lean
    };
}

/// A verification's verdict with what it drew: the lean path's challenges ([`lean::Transcript`],
/// empty for the stock path) and the channel's final state (its `Debug` form), for the
/// differential tests ([`run`]; the verifier itself records nothing).
#[derive(Clone, Debug)]
pub struct Run {
    pub verdict: Result<(), VerifyError>,
    pub transcript: lean::Transcript,
    pub channel: alloc::string::String,
}

/// Verifies a stwo proof of `air` (header and public inputs already read).
struct VerifyAir<'f, 'a> {
    file: &'f ProofFile<'a>,
    path: Path,
    /// Whether to record the challenges and the channel's final state ([`run`]).
    record: bool,
}

impl AirVisitor for VerifyAir<'_, '_> {
    type Output = Run;

    fn visit<A: AirDef>(self, air: &A) -> Run {
        match self.file.header.hash {
            HashId::Blake2s256 => verify_with::<Blake2sMerkleChannel, A>(self, air),
            HashId::Blake3_256 => verify_with::<ByteMerkleChannel<Blake3>, A>(self, air),
            HashId::Sha256 => verify_with::<ByteMerkleChannel<Sha256>, A>(self, air),
        }
    }
}

/// Verifies a stwo proof of `air` over the Merkle channel `MC`.
fn verify_with<MC: MerkleChannel, A: AirDef>(how: VerifyAir<'_, '_>, air: &A) -> Run
where
    MC::H: lean::merkle::LeanHasher,
    <MC::H as MerkleHasherLifted>::Hash: RawDigest,
{
    let mut transcript = lean::Transcript::default();
    let mut channel = MC::C::default();
    let record = how.record.then_some(&mut transcript);
    let verdict = verify_on::<MC, A>(how.file, air, how.path, &mut channel, record);
    Run {
        verdict,
        transcript,
        channel: if how.record {
            alloc::format!("{channel:?}")
        } else {
            alloc::string::String::new()
        },
    }
}

fn verify_on<MC: MerkleChannel, A: AirDef>(
    file: &ProofFile<'_>,
    air: &A,
    path: Path,
    channel: &mut MC::C,
    transcript: Option<&mut lean::Transcript>,
) -> Result<(), VerifyError>
where
    MC::H: lean::merkle::LeanHasher,
    <MC::H as MerkleHasherLifted>::Hash: RawDigest,
{
    let header = &file.header;
    let public = public_inputs(file, air.num_public_inputs())?;
    let air = &air::reduced(air);
    let shape = shape(air, header);
    let lifting = shape.config.lifting_log_size.unwrap_or(0);
    let key = preprocessed::root(header.hash, header.log_n, header.params.log_blowup, lifting);
    let component = component(AirEval {
        air,
        log_n: header.log_n.into(),
        public_inputs: public.clone(),
    });
    // The selectors' root must be the verifier's key (after the payload is read: a malformed
    // payload is refused as such first).
    let check_key = |root: [u8; 32]| match key {
        None => Err(VerifyError::Unsupported(
            "stwo-m31: no selector commitment for this hash, n and blowup",
        )),
        Some(selectors) if root != selectors => Err(VerifyError::Rejected(
            "stwo: preprocessed selector commitment is not the known one",
        )),
        Some(_) => Ok(()),
    };
    match path {
        Path::Lean => {
            let proof = payload::decode_view::<MC::H>(file.payload, &shape)?;
            check_key(proof.commitments[0].raw())?;
            bind_statement(channel, header, &shape.config, &public);
            MC::mix_root(channel, proof.commitments[0]);
            MC::mix_root(channel, proof.commitments[1]);
            lean::verify::<MC>(&component, channel, &proof, lifting, transcript).map_err(verdict)
        }
        Path::Stock => {
            let view = payload::decode_view::<MC::H>(file.payload, &shape)?;
            check_key(view.commitments[0].raw())?;
            bind_statement(channel, header, &shape.config, &public);
            // The one count our parser cannot check (one value a query in every queried
            // column: the queries are drawn after the proof of work) is checked on a copy of
            // the channel before stwo's `verify`, which would panic on a short column.
            let mut replay = channel.clone();
            MC::mix_root(&mut replay, view.commitments[0]);
            MC::mix_root(&mut replay, view.commitments[1]);
            lean::queried_columns_fit::<MC>(replay, &view, lifting).map_err(verdict)?;
            let proof = view.into_proof();
            let scheme = &mut CommitmentSchemeVerifier::<MC>::new(shape.config);
            let sizes = stwo::core::air::Component::trace_log_degree_bounds(&component);
            scheme.commit(proof.commitments[0], &sizes[0], channel);
            scheme.commit(proof.commitments[1], &sizes[1], channel);
            stwo::core::verifier::verify(&[&component], channel, scheme, proof).map_err(verdict)
        }
    }
}

/// Verifies a stwo-m31 proof file's payload on `path`, whatever this build's default
/// ([`Path::DEFAULT`]), with the AIRs of `S`; header, statement and policy checks are the
/// caller's (`picostark_core::verify`). The differential tests run both paths with it.
pub fn run_in<S: AirSet>(file: &ProofFile<'_>, path: Path) -> Run {
    run_as::<S>(file, path, true)
}

fn run_as<S: AirSet>(file: &ProofFile<'_>, path: Path, record: bool) -> Run {
    let refused = |e| Run {
        verdict: Err(e),
        transcript: lean::Transcript::default(),
        channel: alloc::string::String::new(),
    };
    if let Err(e) = StwoM31VerifierOf::<S>::default().check_supported(&file.header) {
        return refused(e);
    }
    let how = VerifyAir { file, path, record };
    S::with(file.header.air, FieldId::Mersenne31, how)
        .unwrap_or_else(|| refused(VerifyError::Unsupported(AIR_NOT_IN_BUILD)))
}

/// [`run_in`] for the built-in AIRs.
pub fn run(file: &ProofFile<'_>, path: Path) -> Run {
    run_in::<Builtins>(file, path)
}

picostark_airs::per_air_set!(
    /// The `stwo-m31` verifier: our bounded parser, then our lean verifier ([`lean`]), or
    /// stwo's own with the feature `stwo-stock`.
    StwoM31Verifier,
    StwoM31VerifierOf
);

/// What the verifier answers for a proof of a custom AIR it was not built with.
pub const AIR_NOT_IN_BUILD: &str = "a custom AIR this build was not made with";

impl<S: AirSet> Verifier for StwoM31VerifierOf<S> {
    fn backend(&self) -> BackendId {
        BACKEND
    }

    fn check_supported(&self, header: &ProofHeader) -> Result<(), VerifyError> {
        check_header_in::<S>(header)?;
        if !preprocessed::has_key(header.hash, header.log_n, header.params.log_blowup) {
            return Err(VerifyError::Unsupported(
                "stwo-m31: no selector commitment for this hash, n and blowup",
            ));
        }
        Ok(())
    }

    fn air_shape(&self, header: &ProofHeader) -> Result<AirShape, VerifyError> {
        picostark_airs::shape_for::<S>(BACKEND, header.air)
            .ok_or(VerifyError::Unsupported(AIR_NOT_IN_BUILD))
    }

    fn verify_payload(&self, file: &ProofFile<'_>) -> Result<(), VerifyError> {
        run_as::<S>(file, Path::DEFAULT, false).verdict
    }
}

/// The AIRs this backend proves (every AIR of `picostark-airs`).
pub const AIRS: &[AirId] = &[AirId::Fibonacci, AirId::CubicChain16, AirId::Membership];

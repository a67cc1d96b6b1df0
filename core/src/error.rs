//! Typed errors: [`FormatError`] for the proof-file envelope, [`VerifyError`] for everything
//! a verifier can say about a proof, and [`Check`] for which check rejected a well-formed
//! one. All are small `Copy` values so the firmware can print them without allocating.

use core::fmt;

use crate::ids::BackendId;

/// The proof file's envelope is malformed. Raised before any backend code runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormatError {
    /// The first four bytes are not `PSTK`.
    BadMagic,
    /// The format version is not one this build reads.
    UnsupportedVersion(u16),
    /// The input ends before a field it announces.
    Truncated { needed: usize, available: usize },
    /// Bytes follow the payload.
    TrailingBytes(usize),
    /// Unknown backend id byte.
    UnknownBackend(u8),
    /// Unknown field id byte.
    UnknownField(u8),
    /// Unknown AIR id byte.
    UnknownAir(u8),
    /// Unknown hash id byte.
    UnknownHash(u8),
    /// A header value is out of its allowed range.
    InvalidValue(&'static str),
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormatError::BadMagic => f.write_str("not a picostark proof file (bad magic)"),
            FormatError::UnsupportedVersion(v) => write!(f, "unsupported proof file version {v}"),
            FormatError::Truncated { needed, available } => {
                write!(
                    f,
                    "truncated: needs {needed} more bytes, {available} remain"
                )
            }
            FormatError::TrailingBytes(n) => write!(f, "{n} trailing bytes after the payload"),
            FormatError::UnknownBackend(b) => write!(f, "unknown backend id {b}"),
            FormatError::UnknownField(b) => write!(f, "unknown field id {b}"),
            FormatError::UnknownAir(b) => write!(f, "unknown AIR id {b}"),
            FormatError::UnknownHash(b) => write!(f, "unknown hash id {b}"),
            FormatError::InvalidValue(what) => write!(f, "invalid header value: {what}"),
        }
    }
}

/// A commitment whose Merkle openings a verifier checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tree {
    /// The execution trace's commitment.
    Trace,
    /// The quotient's (constraint composition's) commitment.
    Quotient,
    /// The circle PCS's first layer (each input's DEEP quotient and its sibling).
    FirstLayer,
    /// The commitment of FRI folding round `k` (from 0). The value folded by the round
    /// before sits in this round's leaf, so a fold inconsistency shows here too.
    FriLayer(u8),
}

impl fmt::Display for Tree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tree::Trace => f.write_str("trace"),
            Tree::Quotient => f.write_str("quotient"),
            Tree::FirstLayer => f.write_str("first-layer"),
            Tree::FriLayer(k) => write!(f, "FRI layer {k}"),
        }
    }
}

/// Which check rejected a well-formed proof: one variant per check, so a test or a log can
/// tell which one fired.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    /// The AIR's constraints at the out-of-domain point differ from the quotient recombined
    /// from its opened chunks (a wrong public input or opened value fails here).
    OodConstraints,
    /// A point the protocol divides at makes a denominator zero (the out-of-domain point on
    /// the trace domain or on a query's point; a circle line point with `t^2 = -1`).
    DegeneratePoint,
    /// A Merkle opening does not lead to the tree's commitment.
    MerklePath(Tree),
    /// A Merkle multi-proof supplies more or fewer sibling digests than its walk uses.
    MerkleSiblings(Tree),
    /// One query index was opened twice with different rows.
    RepeatedQuery(Tree),
    /// The FRI final polynomial (circle: the final constant) differs from the last fold.
    FinalPolynomial,
    /// The query proof-of-work witness does not give the required leading zero bits.
    ProofOfWork,
    /// A grinding witness of a phase the configuration does not grind is not zero.
    GrindingWitness,
    /// A commitment the configuration does not make is present (the random commitment).
    CommitmentShape,
    /// The opened values lack one the configuration has (the next trace row) or carry one
    /// it does not (preprocessed rows, randomization).
    OpenedValuesShape,
    /// A FRI layer's opened row does not hold the value the layer before folded to (layer
    /// `k` from 0; winterfell, whose layers' leaves do not carry the folded value's slot).
    FriFold(u8),
    /// The FRI remainder's hash is not its commitment (winterfell).
    RemainderCommitment,
    /// The transcript could not draw a challenge (winterfell's coin finds no point outside
    /// the domain).
    TranscriptDraw,
}

impl Check {
    /// A short, stable, machine-readable kind (the firmware's `rejected:<kind>`).
    pub fn kind(&self) -> &'static str {
        match self {
            Check::OodConstraints => "ood-constraints",
            Check::DegeneratePoint => "degenerate-point",
            Check::MerklePath(Tree::Trace) => "merkle-trace",
            Check::MerklePath(Tree::Quotient) => "merkle-quotient",
            Check::MerklePath(Tree::FirstLayer) => "merkle-first-layer",
            Check::MerklePath(Tree::FriLayer(_)) => "merkle-fri-layer",
            Check::MerkleSiblings(_) => "merkle-siblings",
            Check::RepeatedQuery(_) => "repeated-query",
            Check::FinalPolynomial => "final-polynomial",
            Check::ProofOfWork => "proof-of-work",
            Check::GrindingWitness => "grinding-witness",
            Check::CommitmentShape => "commitment-shape",
            Check::OpenedValuesShape => "opened-values-shape",
            Check::FriFold(_) => "fri-fold",
            Check::RemainderCommitment => "remainder-commitment",
            Check::TranscriptDraw => "transcript-draw",
        }
    }
}

impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Check::OodConstraints => {
                f.write_str("the constraints at the out-of-domain point do not match the quotient")
            }
            Check::DegeneratePoint => f.write_str("a denominator of the protocol is zero"),
            Check::MerklePath(t) => {
                write!(f, "a {t} Merkle opening does not match its commitment")
            }
            Check::MerkleSiblings(t) => {
                write!(
                    f,
                    "the {t} Merkle multi-proof has the wrong number of siblings"
                )
            }
            Check::RepeatedQuery(t) => {
                write!(f, "a {t} row opened twice at one index differs")
            }
            Check::FinalPolynomial => {
                f.write_str("the FRI final polynomial does not match the last fold")
            }
            Check::ProofOfWork => f.write_str("the proof-of-work witness is invalid"),
            Check::GrindingWitness => {
                f.write_str("a grinding witness is nonzero where no grinding is configured")
            }
            Check::CommitmentShape => {
                f.write_str("the proof carries a commitment the configuration does not make")
            }
            Check::OpenedValuesShape => {
                f.write_str("the opened values do not have the configuration's shape")
            }
            Check::FriFold(k) => {
                write!(f, "FRI layer {k} does not hold the previous layer's fold")
            }
            Check::RemainderCommitment => {
                f.write_str("the FRI remainder does not match its commitment")
            }
            Check::TranscriptDraw => f.write_str("the transcript could not draw a challenge"),
        }
    }
}

/// Why a proof was not accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VerifyError {
    /// The envelope could not be parsed.
    Format(FormatError),
    /// The file was made for another backend than the one asked to verify it.
    WrongBackend {
        expected: BackendId,
        found: BackendId,
    },
    /// The backend cannot verify this combination (extension degree, AIR, parameters).
    Unsupported(&'static str),
    /// A header parameter is beyond what this backend's verifier, or a library it calls,
    /// can check without panicking (e.g. proof-of-work bits wider than one challenger
    /// sample). Raised before any work on the payload.
    ParameterOutOfRange {
        what: &'static str,
        value: u32,
        max: u32,
    },
    /// The proof's parameters give less security than the policy requires, counted in the
    /// policy's regime.
    InsufficientSecurity { bits: u32, required: u32 },
    /// The proof is for another statement (AIR, n or public inputs) than the expected one.
    StatementMismatch(&'static str),
    /// The payload does not decode as a proof of the announced shape.
    MalformedProof(&'static str),
    /// The payload decodes, but the proof is invalid.
    Rejected(&'static str),
    /// The payload decodes, but the proof fails this check.
    CheckFailed(Check),
}

impl From<Check> for VerifyError {
    fn from(c: Check) -> Self {
        VerifyError::CheckFailed(c)
    }
}

impl VerifyError {
    /// Whether a well-formed proof was found invalid (by a named check or otherwise), as
    /// opposed to refused for its format, shape or statement.
    pub fn is_rejection(&self) -> bool {
        matches!(self, VerifyError::Rejected(_) | VerifyError::CheckFailed(_))
    }
}

impl From<FormatError> for VerifyError {
    fn from(e: FormatError) -> Self {
        VerifyError::Format(e)
    }
}

impl VerifyError {
    /// A short, stable, machine-readable kind (used in firmware output and reports).
    pub fn kind(&self) -> &'static str {
        match self {
            VerifyError::Format(_) => "format",
            VerifyError::WrongBackend { .. } => "wrong-backend",
            VerifyError::Unsupported(_) => "unsupported",
            VerifyError::ParameterOutOfRange { .. } => "parameter-out-of-range",
            VerifyError::InsufficientSecurity { .. } => "insufficient-security",
            VerifyError::StatementMismatch(_) => "statement-mismatch",
            VerifyError::MalformedProof(_) => "malformed-proof",
            VerifyError::Rejected(_) => "rejected",
            VerifyError::CheckFailed(c) => c.kind(),
        }
    }
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VerifyError::Format(e) => write!(f, "bad proof file: {e}"),
            VerifyError::WrongBackend { expected, found } => write!(
                f,
                "wrong backend: this verifier is {expected}, the proof file is for {found}"
            ),
            VerifyError::Unsupported(what) => write!(f, "unsupported: {what}"),
            VerifyError::ParameterOutOfRange { what, value, max } => write!(
                f,
                "parameter out of range: {what} is {value}, this verifier supports at most {max}"
            ),
            VerifyError::InsufficientSecurity { bits, required } => write!(
                f,
                "insufficient security: {bits} bits, policy requires {required}"
            ),
            VerifyError::StatementMismatch(what) => write!(f, "statement mismatch: {what}"),
            VerifyError::MalformedProof(what) => write!(f, "malformed proof: {what}"),
            VerifyError::Rejected(what) => write!(f, "proof rejected: {what}"),
            VerifyError::CheckFailed(c) => write!(f, "proof rejected: {c}"),
        }
    }
}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use super::*;

    #[test]
    fn every_check_has_its_own_kind() {
        let checks = [
            Check::OodConstraints,
            Check::DegeneratePoint,
            Check::MerklePath(Tree::Trace),
            Check::MerklePath(Tree::Quotient),
            Check::MerklePath(Tree::FirstLayer),
            Check::MerklePath(Tree::FriLayer(0)),
            Check::MerkleSiblings(Tree::Trace),
            Check::RepeatedQuery(Tree::Trace),
            Check::FinalPolynomial,
            Check::ProofOfWork,
            Check::GrindingWitness,
            Check::CommitmentShape,
            Check::OpenedValuesShape,
            Check::FriFold(0),
            Check::RemainderCommitment,
            Check::TranscriptDraw,
        ];
        for (i, a) in checks.iter().enumerate() {
            let e = VerifyError::from(*a);
            assert_eq!(e.kind(), a.kind());
            assert!(e.is_rejection());
            // A kind is one word of the firmware's `key=value` lines.
            assert!(!a.kind().contains(' ') && !a.kind().contains('='));
            for b in &checks[i + 1..] {
                assert_ne!(a.kind(), b.kind(), "{a:?} {b:?}");
            }
        }
        let layer = VerifyError::from(Check::MerklePath(Tree::FriLayer(3)));
        let text = alloc::format!("{layer}");
        assert_eq!(
            text,
            "proof rejected: a FRI layer 3 Merkle opening does not match its commitment"
        );
    }
}

#[cfg(feature = "std")]
impl std::error::Error for FormatError {}
#[cfg(feature = "std")]
impl std::error::Error for VerifyError {}

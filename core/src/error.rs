//! Typed errors: [`FormatError`] for the proof-file envelope, [`VerifyError`] for everything
//! a verifier can say about a proof. Both are small `Copy` values so the firmware can print
//! them without allocating.

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
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for FormatError {}
#[cfg(feature = "std")]
impl std::error::Error for VerifyError {}

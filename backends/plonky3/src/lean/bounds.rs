//! The lean verifier's bounds: every proof shape past one of them goes to Plonky3's own
//! verifier (or, in the `lean-only` build, is refused), so its buffers are fixed arrays.
//! A leaf: it imports nothing.

/// The most FRI queries the lean verifier takes.
pub const MAX_QUERIES: usize = 32;
/// The most FRI rounds.
pub const MAX_ROUNDS: usize = 32;
/// The widest fold (log2).
pub const MAX_LOG_ARITY: usize = 4;
/// The longest final polynomial (log2).
pub const MAX_LOG_FINAL_POLY_LEN: usize = 6;
/// The widest trace the lean verifier takes (columns).
pub const MAX_WIDTH: usize = 32;
/// The most quotient chunks it takes.
pub const MAX_CHUNKS: usize = 8;
/// The largest challenge-field degree it takes.
pub const MAX_DEGREE: usize = 8;
/// The most public inputs it takes.
pub const MAX_PUBLIC: usize = 16;

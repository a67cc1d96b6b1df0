//! The lean verifier's bounds: every proof shape past one of them goes to Plonky3's own
//! verifier (or, in the `lean-only` build, is refused). Nothing is sized by them at run time:
//! what grows with the trace width (the opened rows, the alpha ladder, the public inputs as
//! challenge-field values) is allocated once per verification at the proof's own width, and
//! the PCS's per-query and per-round state (folded values, denominators, leaf digests,
//! commitments, folding challenges, final polynomial) once per verification at the header's
//! own query and round counts, after they are checked against these bounds. What stays on the
//! stack is small and fixed: an index per query, one leaf row, the Merkle walk's pair.
//! A leaf: it imports nothing.

/// The most FRI queries the lean verifier takes.
pub const MAX_QUERIES: usize = 32;
/// The most FRI rounds.
pub const MAX_ROUNDS: usize = 32;
/// The widest fold (log2).
pub const MAX_LOG_ARITY: usize = 4;
/// The longest final polynomial (log2).
pub const MAX_LOG_FINAL_POLY_LEN: usize = 6;
/// The widest trace the lean verifier takes (columns): the membership AIR's widest instance
/// (Mersenne-31-24, 238 columns) with room to spare. Buffers of this size are never fixed:
/// they are allocated at the AIR's width.
pub const MAX_WIDTH: usize = 256;
/// The most quotient chunks it takes.
pub const MAX_CHUNKS: usize = 8;
/// The largest challenge-field degree it takes.
pub const MAX_DEGREE: usize = 8;
/// The most public inputs it takes (the membership AIR's 4 digests of 9 words).
pub const MAX_PUBLIC: usize = 36;

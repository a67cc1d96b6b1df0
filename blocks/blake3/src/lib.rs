//! The verifiers' BLAKE3-256: the hash function of the BLAKE3 specification (default mode,
//! 32-byte output), computed in one shot from a slice, with no hasher value in between.
//!
//! A shared `no_std` building block: both backends' verifiers hash Merkle leaves and nodes
//! with it, so it sits on the lowest floor beside `core`. The `blake3` crate computes the same
//! function, but each call goes through its streaming state: the input is copied block by
//! block into a chunk buffer and an output value is built and moved before the last
//! compression. A verifier's inputs are short (a node is two digests, one 64-byte block; a
//! leaf is a row of field elements), and on the RP2350 that bookkeeping cost about a third of
//! the compressions' instructions (`mcu-run --profile`, M33, wf-babybear Fib-1024: `hash`,
//! `root_hash`, `fill_buf` and `update` 440 K against 3,021 K in `compress_in_place`). Here a
//! block is read from the input where it lies and the chaining value stays in words; a Merkle
//! node whose digests are already words ([`hash_block_words`]) is one compression and nothing
//! else. [`compress`] is one non-inlined function, so profiles and the code-placement hot set
//! find it by name.
//!
//! Digests are byte-for-byte those of `blake3::hash` (tests: every length to three chunks and
//! past, block and chunk edges, against the crate).

#![no_std]

// `count` is host only and keeps its counter per thread (std's thread locals).
#[cfg(any(test, feature = "count"))]
extern crate std;

#[cfg(feature = "count")]
pub mod count;

#[cfg(test)]
mod tests;

/// BLAKE3's initial chaining value (the specification's IV, SHA-256's initial state).
pub const IV: [u32; 8] = [
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];

/// Bytes in a block, the compression function's input.
pub const BLOCK_LEN: usize = 64;
/// Bytes in a chunk, a leaf of BLAKE3's tree.
pub const CHUNK_LEN: usize = 1024;

/// Domain flags (specification, table 3).
const CHUNK_START: u32 = 1;
const CHUNK_END: u32 = 2;
const PARENT: u32 = 4;
const ROOT: u32 = 8;

/// The message word order of each round after the first: round `r` reads word
/// `SCHEDULE[r][i]` where the first round reads word `i` (the specification's permutation
/// applied `r` times, written out so that every index is a constant).
const SCHEDULE: [[usize; 16]; 7] = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
    [2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8],
    [3, 4, 10, 12, 13, 2, 7, 14, 6, 5, 9, 0, 11, 15, 8, 1],
    [10, 7, 12, 9, 14, 3, 13, 15, 4, 0, 11, 2, 5, 8, 1, 6],
    [12, 13, 9, 11, 15, 10, 14, 8, 7, 2, 5, 3, 0, 1, 6, 4],
    [9, 14, 11, 5, 8, 12, 15, 1, 13, 3, 0, 10, 2, 6, 4, 7],
    [11, 15, 5, 0, 1, 9, 8, 6, 14, 10, 2, 12, 3, 4, 7, 13],
];

/// The quarter-round `G` on state words `a, b, c, d` with message words `x, y`.
#[inline(always)]
fn g(s: &mut [u32; 16], a: usize, b: usize, c: usize, d: usize, x: u32, y: u32) {
    s[a] = s[a].wrapping_add(s[b]).wrapping_add(x);
    s[d] = (s[d] ^ s[a]).rotate_right(16);
    s[c] = s[c].wrapping_add(s[d]);
    s[b] = (s[b] ^ s[c]).rotate_right(12);
    s[a] = s[a].wrapping_add(s[b]).wrapping_add(y);
    s[d] = (s[d] ^ s[a]).rotate_right(8);
    s[c] = s[c].wrapping_add(s[d]);
    s[b] = (s[b] ^ s[c]).rotate_right(7);
}

/// One round: `G` on the columns, then on the diagonals.
#[inline(always)]
fn round(s: &mut [u32; 16], m: &[u32; 16], order: &[usize; 16]) {
    g(s, 0, 4, 8, 12, m[order[0]], m[order[1]]);
    g(s, 1, 5, 9, 13, m[order[2]], m[order[3]]);
    g(s, 2, 6, 10, 14, m[order[4]], m[order[5]]);
    g(s, 3, 7, 11, 15, m[order[6]], m[order[7]]);
    g(s, 0, 5, 10, 15, m[order[8]], m[order[9]]);
    g(s, 1, 6, 11, 12, m[order[10]], m[order[11]]);
    g(s, 2, 7, 8, 13, m[order[12]], m[order[13]]);
    g(s, 3, 4, 9, 14, m[order[14]], m[order[15]]);
}

/// The compression function, truncated to the new chaining value (the first eight output
/// words: all a 32-byte hash needs), written over `cv`.
#[inline(never)]
pub fn compress(cv: &mut [u32; 8], block: &[u32; 16], counter: u64, block_len: u32, flags: u32) {
    #[cfg(feature = "count")]
    count::add(1);
    let mut s = [
        cv[0],
        cv[1],
        cv[2],
        cv[3],
        cv[4],
        cv[5],
        cv[6],
        cv[7],
        IV[0],
        IV[1],
        IV[2],
        IV[3],
        counter as u32,
        (counter >> 32) as u32,
        block_len,
        flags,
    ];
    // Written out, not a loop: with each round's order a constant every message index folds
    // into its load (a loop over `SCHEDULE` ran 1.7 times the instructions on the M33 at
    // opt-level "s", which does not unroll it).
    round(&mut s, block, &SCHEDULE[0]);
    round(&mut s, block, &SCHEDULE[1]);
    round(&mut s, block, &SCHEDULE[2]);
    round(&mut s, block, &SCHEDULE[3]);
    round(&mut s, block, &SCHEDULE[4]);
    round(&mut s, block, &SCHEDULE[5]);
    round(&mut s, block, &SCHEDULE[6]);
    for i in 0..8 {
        cv[i] = s[i] ^ s[i + 8];
    }
}

/// The little-endian words of a full block. Its own function for the fixed length: the loop
/// is unrolled and the zeroing folds away (through `block_words`' slice path it was a
/// `memclr` call per block on the M33, 1 % of a p3-babybear verification).
#[inline(always)]
fn full_block_words(b: &[u8; BLOCK_LEN]) -> [u32; 16] {
    let mut m = [0u32; 16];
    for (w, c) in m.iter_mut().zip(b.chunks_exact(4)) {
        *w = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
    }
    m
}

/// The little-endian words of up to 64 bytes, zero-padded: a block as the compression reads it.
#[inline(always)]
fn block_words(bytes: &[u8]) -> [u32; 16] {
    if let Ok(full) = <&[u8; BLOCK_LEN]>::try_from(bytes) {
        return full_block_words(full);
    }
    let mut m = [0u32; 16];
    let words = bytes.chunks_exact(4);
    let tail = words.remainder();
    let full = words.len();
    for (w, b) in m.iter_mut().zip(words) {
        *w = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    }
    // Shifted in byte by byte: a copy of a run-time length would be a `memcpy` call.
    if let Some(w) = m.get_mut(full) {
        for (i, b) in tail.iter().enumerate() {
            *w |= u32::from(*b) << (8 * i);
        }
    }
    m
}

/// The chaining value of one chunk (at most [`CHUNK_LEN`] bytes, at least one block even when
/// empty), `root` when the chunk is the whole input.
fn chunk_cv(chunk: &[u8], counter: u64, root: bool) -> [u32; 8] {
    let mut cv = IV;
    // The last block is the partial tail, or the last full block when there is no tail
    // (and an empty chunk is one empty block).
    let last_len = match chunk.len() % BLOCK_LEN {
        0 if !chunk.is_empty() => BLOCK_LEN,
        r => r,
    };
    let (full, last) = chunk.split_at(chunk.len() - last_len);
    let mut start = CHUNK_START;
    for block in full.chunks_exact(BLOCK_LEN) {
        compress_bytes(&mut cv, block, counter, start);
        start = 0;
    }
    let end = CHUNK_END | if root { ROOT } else { 0 };
    compress_bytes(&mut cv, last, counter, start | end);
    cv
}

/// [`compress`] on a block given as its bytes (at most [`BLOCK_LEN`]). A full block that lies
/// word-aligned is read in place: on a little-endian core its bytes are its words. Any other
/// is copied into words first (a full block's copy was a 64-byte `memcpy` call on the M33).
#[inline(always)]
fn compress_bytes(cv: &mut [u32; 8], block: &[u8], counter: u64, flags: u32) {
    let len = block.len() as u32;
    #[cfg(target_endian = "little")]
    if let Ok(words) = bytemuck::try_from_bytes::<[u32; 16]>(block) {
        return compress(cv, words, counter, len, flags);
    }
    compress(cv, &block_words(block), counter, len, flags);
}

/// The chaining value of the subtree over `input` whose first chunk is number `counter`.
/// The left subtree takes the largest power-of-two number of chunks that leaves the right
/// one at least a byte (specification, section 2.1); recursion depth is the tree's height.
fn subtree_cv(input: &[u8], counter: u64, root: bool) -> [u32; 8] {
    if input.len() <= CHUNK_LEN {
        return chunk_cv(input, counter, root);
    }
    let full_chunks_before_last = (input.len() - 1) / CHUNK_LEN;
    let left_chunks = 1usize << (usize::BITS - 1 - full_chunks_before_last.leading_zeros());
    let (left, right) = input.split_at(left_chunks * CHUNK_LEN);
    let l = subtree_cv(left, counter, false);
    let r = subtree_cv(right, counter + left_chunks as u64, false);
    let mut block = [0u32; 16];
    block[..8].copy_from_slice(&l);
    block[8..].copy_from_slice(&r);
    let mut cv = IV;
    let flags = PARENT | if root { ROOT } else { 0 };
    compress(&mut cv, &block, 0, BLOCK_LEN as u32, flags);
    cv
}

/// A digest's words as they lie in memory: word `i` holds bytes `4i..4i + 4` of the digest.
#[inline(always)]
fn to_memory_order(cv: &[u32; 8], out: &mut [u32; 8]) {
    for (o, w) in out.iter_mut().zip(cv) {
        *o = w.to_le();
    }
}

/// BLAKE3-256 of `input`, written into `out` as the digest's 32 bytes in memory order (on a
/// little-endian core the chaining value itself: nothing is reordered or copied bytewise).
pub fn hash_words(input: &[u8], out: &mut [u32; 8]) {
    to_memory_order(&subtree_cv(input, 0, true), out);
}

/// BLAKE3-256 of the 64 bytes held by `block` in memory order (two digests side by side, a
/// Merkle node's input): one compression.
pub fn hash_block_words(block: &[u32; 16], out: &mut [u32; 8]) {
    let mut m = [0u32; 16];
    for (w, b) in m.iter_mut().zip(block) {
        *w = u32::from_le(*b);
    }
    let mut cv = IV;
    let flags = CHUNK_START | CHUNK_END | ROOT;
    compress(&mut cv, &m, 0, BLOCK_LEN as u32, flags);
    to_memory_order(&cv, out);
}

/// BLAKE3-256 of `input`.
pub fn hash(input: &[u8]) -> [u8; 32] {
    let cv = subtree_cv(input, 0, true);
    let mut out = [0u8; 32];
    for (o, w) in out.chunks_exact_mut(4).zip(&cv) {
        o.copy_from_slice(&w.to_le_bytes());
    }
    out
}

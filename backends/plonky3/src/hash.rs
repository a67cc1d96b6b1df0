//! BLAKE3 for the Plonky3 configurations, with the digests of `p3_blake3::Blake3` and less
//! work per call on a microcontroller.
//!
//! `p3_blake3::Blake3` streams every input through a fresh `blake3::Hasher`, a ~1.9 KB value
//! (its chaining-value stack) that is built and moved for each Merkle node and leaf: on the
//! M33 the copies cost more instructions than the compressions (`mcu-run --profile`). The
//! verifier's inputs are short (two digests, a leaf row), so [`Blake3Lean`] gathers up to
//! [`BUFFER`] bytes on the stack and hashes them in one shot with `picostark_blake3` (blocks
//! read where they lie, no hasher value); longer inputs from an iterator or from several
//! slices fall back to the crate's streaming hasher. Same function, same digests (tests
//! below).
//!
//! SHA-256 on the verifier side is [`Sha256Lean`] and [`Sha256LeanCompress`]: the digests of
//! `p3_sha256::Sha256` and `Sha256Compress`, every 64-byte block through `picostark_sha256` (the
//! verifiers' one SHA-256 interface: software, or the RP2350 engine in the board firmware).

use p3_symmetric::{CryptographicHasher, PseudoCompressionFunction};

/// Inputs up to this many bytes are hashed in one shot from a stack buffer.
pub const BUFFER: usize = 256;

/// BLAKE3-256 over bytes, digest-compatible with `p3_blake3::Blake3`.
#[derive(Copy, Clone, Debug, Default)]
pub struct Blake3Lean;

impl CryptographicHasher<u8, [u8; 32]> for Blake3Lean {
    fn hash_iter<I>(&self, input: I) -> [u8; 32]
    where
        I: IntoIterator<Item = u8>,
    {
        let mut it = input.into_iter();
        let mut buf = [0u8; BUFFER];
        let mut len = 0;
        // `zip` asks the buffer first, so no input byte is lost when the buffer is full.
        for (slot, b) in buf.iter_mut().zip(&mut it) {
            *slot = b;
            len += 1;
        }
        if len < BUFFER {
            return picostark_blake3::hash(&buf[..len]);
        }
        match it.next() {
            None => picostark_blake3::hash(&buf),
            Some(next) => stream_iter(&buf, next, it),
        }
    }

    fn hash_iter_slices<'a, I>(&self, input: I) -> [u8; 32]
    where
        I: IntoIterator<Item = &'a [u8]>,
    {
        let mut slices = input.into_iter();
        let first = slices.next().unwrap_or_default();
        match slices.next() {
            // One slice (a circle PCS's trace row): hashed where it lies, neither copied into
            // the buffer nor, when long, streamed through the hasher's ~1.9 KB frame.
            None => picostark_blake3::hash(first),
            Some(second) => gather_slices(first, second, slices),
        }
    }

    fn hash_slice(&self, input: &[u8]) -> [u8; 32] {
        picostark_blake3::hash(input)
    }
}

/// The Merkle node compression `BLAKE3(left || right)` (as `p3_symmetric`'s
/// `CompressionFunctionFromHasher` computes it); [`Self::compress_in_place`] hashes a
/// borrowed pair where it lies.
#[derive(Copy, Clone, Debug, Default)]
pub struct Blake3LeanCompress;

impl Blake3LeanCompress {
    /// `BLAKE3(left || right)` of a borrowed pair.
    pub fn compress_in_place(input: &[[u8; 32]; 2]) -> [u8; 32] {
        picostark_blake3::hash(input.as_flattened())
    }
}

impl PseudoCompressionFunction<[u8; 32], 2> for Blake3LeanCompress {
    fn compress(&self, input: [[u8; 32]; 2]) -> [u8; 32] {
        // A block assembled from the by-value pair: hashing `input` in place made p3-m31's
        // circle verifier (which compresses through this) 4 % slower on the M33 (emulator;
        // inlining changed), the two-adic one goes through `compress_in_place`.
        let mut block = [0u8; 64];
        block[..32].copy_from_slice(&input[0]);
        block[32..].copy_from_slice(&input[1]);
        picostark_blake3::hash(&block)
    }
}

/// SHA-256 over bytes, digest-compatible with `p3_sha256::Sha256`, through `picostark_sha256`.
#[derive(Copy, Clone, Debug, Default)]
pub struct Sha256Lean;

impl CryptographicHasher<u8, [u8; 32]> for Sha256Lean {
    fn hash_iter<I>(&self, input: I) -> [u8; 32]
    where
        I: IntoIterator<Item = u8>,
    {
        // Gathered a block at a time: the hasher's per-byte path counts and checks every
        // byte (the challenger's flush hashes the transcript's bytes through here).
        let mut h = picostark_sha256::Sha256::new();
        let mut block = [0u8; 64];
        let mut n = 0;
        for b in input {
            block[n] = b;
            n += 1;
            if n == block.len() {
                h.update(&block);
                n = 0;
            }
        }
        h.update(&block[..n]);
        h.finalize()
    }

    fn hash_iter_slices<'a, I>(&self, input: I) -> [u8; 32]
    where
        I: IntoIterator<Item = &'a [u8]>,
    {
        let mut slices = input.into_iter();
        let first = slices.next().unwrap_or_default();
        match slices.next() {
            // One slice (a circle PCS's trace row): the one-shot hash, as `hash_slice`.
            None => picostark_sha256::sha256(first),
            Some(second) => {
                let mut h = picostark_sha256::Sha256::new();
                h.update(first);
                h.update(second);
                slices.for_each(|s| h.update(s));
                h.finalize()
            }
        }
    }

    fn hash_slice(&self, input: &[u8]) -> [u8; 32] {
        // The trait's default feeds `hash_iter` byte by byte; the one-shot hash reads the
        // full blocks where they lie and copies only the tail (a `Stream` zeroes, copies
        // and pads its own buffer, and moves its sink by value).
        picostark_sha256::sha256(input)
    }
}

/// The Merkle node compression of `p3_sha256::Sha256Compress`: one SHA-256 compression of
/// `left || right` from the initial state, no padding (one block, one engine call).
#[derive(Copy, Clone, Debug, Default)]
pub struct Sha256LeanCompress;

impl Sha256LeanCompress {
    /// One compression of a borrowed pair, read where it lies: the by-value `compress`
    /// copies the pair in and again into its block (`memcpy` calls on the MCU when the
    /// caller is not inlined into, as p3-m31's Merkle walk is not).
    pub fn compress_in_place(pair: &[[u8; 32]; 2]) -> [u8; 32] {
        let block: &[u8; 64] = pair
            .as_flattened()
            .try_into()
            .expect("two digests are one block");
        picostark_sha256::compress_from_iv(block)
    }

    /// [`Self::compress_in_place`] written into `out`: compressed in place when `out` is
    /// word-aligned (a Merkle walk's nodes are), else through eight word moves (the state's
    /// words are the digest's bytes in memory order).
    #[inline(always)]
    pub fn compress_into(pair: &[[u8; 32]; 2], out: &mut [u8; 32]) {
        let block: &[u8; 64] = pair
            .as_flattened()
            .try_into()
            .expect("two digests are one block");
        if out.as_ptr().cast::<u32>().is_aligned() {
            // SAFETY: `out` is 32 bytes at a 4-byte-aligned address, so it is a valid
            // `[u32; 8]` for as long as the borrow lasts; every bit pattern is a valid `u32`.
            let words = unsafe { &mut *out.as_mut_ptr().cast::<[u32; 8]>() };
            return picostark_sha256::compress_from_iv_into(block, words);
        }
        let mut w = [0u32; 8];
        picostark_sha256::compress_from_iv_into(block, &mut w);
        // Written out: at opt-level s a loop over the eight words stays a loop.
        let (d, _) = out.as_chunks_mut::<4>();
        d[0] = w[0].to_ne_bytes();
        d[1] = w[1].to_ne_bytes();
        d[2] = w[2].to_ne_bytes();
        d[3] = w[3].to_ne_bytes();
        d[4] = w[4].to_ne_bytes();
        d[5] = w[5].to_ne_bytes();
        d[6] = w[6].to_ne_bytes();
        d[7] = w[7].to_ne_bytes();
    }
}

impl PseudoCompressionFunction<[u8; 32], 2> for Sha256LeanCompress {
    fn compress(&self, input: [[u8; 32]; 2]) -> [u8; 32] {
        let mut block = [0u8; 64];
        block[..32].copy_from_slice(&input[0]);
        block[32..].copy_from_slice(&input[1]);
        picostark_sha256::compress_from_iv(&block)
    }
}

/// The long-input path of `hash_iter`: the streaming hasher, only built when needed.
#[cold]
#[inline(never)]
fn stream_iter(head: &[u8], next: u8, rest: impl Iterator<Item = u8>) -> [u8; 32] {
    let mut h = blake3::Hasher::new();
    h.update(head);
    let mut total = head.len();
    let mut chunk = [0u8; BUFFER];
    chunk[0] = next;
    let mut len = 1;
    for b in rest {
        if len == BUFFER {
            h.update(&chunk);
            total += BUFFER;
            len = 0;
        }
        chunk[len] = b;
        len += 1;
    }
    h.update(&chunk[..len]);
    count_streamed(total + len);
    h.finalize().into()
}

/// `hash_iter_slices` of two or more slices: gathered in a stack buffer, or streamed when
/// longer. Not inlined, so that the buffer is not in the caller's frame.
#[inline(never)]
fn gather_slices<'a>(
    first: &'a [u8],
    second: &'a [u8],
    rest: impl Iterator<Item = &'a [u8]>,
) -> [u8; 32] {
    let mut slices = [first, second].into_iter().chain(rest);
    let mut buf = [0u8; BUFFER];
    let mut len = 0;
    while let Some(s) = slices.next() {
        if s.len() > BUFFER - len {
            return stream_slices(&buf[..len], s, slices);
        }
        buf[len..len + s.len()].copy_from_slice(s);
        len += s.len();
    }
    picostark_blake3::hash(&buf[..len])
}

/// The long-input path of `hash_iter_slices`.
#[cold]
#[inline(never)]
fn stream_slices<'a>(
    head: &[u8],
    current: &[u8],
    rest: impl Iterator<Item = &'a [u8]>,
) -> [u8; 32] {
    let mut h = blake3::Hasher::new();
    h.update(head);
    h.update(current);
    let mut total = head.len() + current.len();
    for s in rest {
        h.update(s);
        total += s.len();
    }
    count_streamed(total);
    h.finalize().into()
}

/// The streaming fallback's compressions, for the `hash-count` build (the one-shot paths
/// count inside `picostark_blake3::compress`).
#[inline(always)]
fn count_streamed(_len: usize) {
    #[cfg(feature = "hash-count")]
    picostark_blake3::count::add(picostark_blake3::count::compressions_for(_len));
}

/// The provers' byte hasher: the header's hash chosen at run time. One prover type for both
/// hashes compiles `p3_uni_stark::prove` once per configuration instead of once per hash (the
/// backend's build time); a match per call is nothing beside a compression.
#[cfg(feature = "prover")]
#[derive(Copy, Clone, Debug)]
pub enum ProverHash {
    /// `p3_blake3::Blake3`.
    Blake3,
    /// `p3_sha256::Sha256`.
    Sha256,
}

#[cfg(feature = "prover")]
impl CryptographicHasher<u8, [u8; 32]> for ProverHash {
    fn hash_iter<I>(&self, input: I) -> [u8; 32]
    where
        I: IntoIterator<Item = u8>,
    {
        match self {
            Self::Blake3 => p3_blake3::Blake3.hash_iter(input),
            Self::Sha256 => p3_sha256::Sha256.hash_iter(input),
        }
    }

    fn hash_iter_slices<'a, I>(&self, input: I) -> [u8; 32]
    where
        I: IntoIterator<Item = &'a [u8]>,
    {
        match self {
            Self::Blake3 => p3_blake3::Blake3.hash_iter_slices(input),
            Self::Sha256 => p3_sha256::Sha256.hash_iter_slices(input),
        }
    }
}

/// [`ProverHash`]'s Merkle node compression: each hash's own (see `config::ByteHash`).
#[cfg(feature = "prover")]
#[derive(Copy, Clone, Debug)]
pub struct ProverCompress(ProverHash);

#[cfg(feature = "prover")]
impl PseudoCompressionFunction<[u8; 32], 2> for ProverCompress {
    fn compress(&self, pair: [[u8; 32]; 2]) -> [u8; 32] {
        match self.0 {
            ProverHash::Blake3 => {
                p3_symmetric::CompressionFunctionFromHasher::<_, 2, 32>::new(p3_blake3::Blake3)
                    .compress(pair)
            }
            ProverHash::Sha256 => p3_sha256::Sha256Compress.compress(pair),
        }
    }
}

#[cfg(feature = "prover")]
impl ProverHash {
    /// The compression of this hash.
    pub fn compression(self) -> ProverCompress {
        ProverCompress(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;
    use p3_blake3::Blake3;

    #[test]
    fn digests_match_p3_blake3_across_the_buffer_boundary() {
        for len in [
            0, 1, 31, 32, 63, 64, 65, 128, 255, 256, 257, 511, 512, 1023, 1024, 1025, 3000,
        ] {
            let msg: Vec<u8> = (0..len).map(|i| (i * 7 + 3) as u8).collect();
            let want = Blake3.hash_slice(&msg);
            assert_eq!(Blake3Lean.hash_slice(&msg), want, "slice {len}");
            assert_eq!(
                Blake3Lean.hash_iter(msg.iter().copied()),
                want,
                "iter {len}"
            );
            let (a, b) = msg.split_at(len / 3);
            assert_eq!(Blake3Lean.hash_iter_slices([a, b]), want, "slices {len}");
            // One slice and none (the in-place path), and three (past the first two).
            assert_eq!(
                Blake3Lean.hash_iter_slices([&msg[..]]),
                want,
                "one slice {len}"
            );
            let (b, c) = b.split_at(b.len() / 2);
            assert_eq!(
                Blake3Lean.hash_iter_slices([a, b, c]),
                want,
                "3 slices {len}"
            );
        }
        assert_eq!(
            Blake3Lean.hash_iter_slices(core::iter::empty()),
            Blake3.hash_slice(&[])
        );
        assert_ne!(Blake3Lean.hash_slice(b"a"), Blake3Lean.hash_slice(b"b"));
        let (l, r) = ([1u8; 32], [2u8; 32]);
        let upstream = p3_symmetric::CompressionFunctionFromHasher::<_, 2, 32>::new(Blake3);
        assert_eq!(
            Blake3LeanCompress.compress([l, r]),
            upstream.compress([l, r])
        );
        assert_ne!(
            Blake3LeanCompress.compress([l, r]),
            upstream.compress([r, l])
        );
        use crate::config::ByteHash;
        assert_eq!(
            Blake3Lean::compress_pair(&Blake3LeanCompress, &[l, r]),
            upstream.compress([l, r])
        );
        assert_ne!(
            Blake3Lean::compress_pair(&Blake3LeanCompress, &[r, l]),
            upstream.compress([l, r])
        );
    }

    #[test]
    fn sha256_lean_matches_p3_sha256() {
        use p3_sha256::{Sha256, Sha256Compress};
        for len in [0, 1, 55, 56, 63, 64, 65, 119, 120, 200, 1000] {
            let msg: Vec<u8> = (0..len).map(|i| (i * 11 + 5) as u8).collect();
            let want = Sha256.hash_slice(&msg);
            assert_eq!(Sha256Lean.hash_slice(&msg), want, "slice {len}");
            assert_eq!(
                Sha256Lean.hash_iter(msg.iter().copied()),
                want,
                "iter {len}"
            );
            let (a, b) = msg.split_at(len / 3);
            assert_eq!(Sha256Lean.hash_iter_slices([a, b]), want, "slices {len}");
            assert_eq!(
                Sha256Lean.hash_iter_slices([&msg[..]]),
                want,
                "one slice {len}"
            );
            let (b, c) = b.split_at(b.len() / 2);
            assert_eq!(
                Sha256Lean.hash_iter_slices([a, b, c]),
                want,
                "3 slices {len}"
            );
        }
        assert_eq!(
            Sha256Lean.hash_iter_slices(core::iter::empty()),
            Sha256.hash_slice(&[])
        );
        assert_ne!(Sha256Lean.hash_slice(b"a"), Sha256.hash_slice(b"b"));
        let (l, r) = ([3u8; 32], [4u8; 32]);
        assert_eq!(
            Sha256LeanCompress.compress([l, r]),
            Sha256Compress.compress([l, r])
        );
        assert_ne!(
            Sha256LeanCompress.compress([l, r]),
            Sha256Compress.compress([r, l])
        );
        // The in-place paths the Merkle walk takes.
        use crate::config::ByteHash;
        let want = Sha256Compress.compress([l, r]);
        assert_eq!(
            Sha256Lean::compress_pair(&Sha256LeanCompress, &[l, r]),
            want
        );
        let mut out = [0u8; 32];
        Sha256Lean::compress_pair_into(&Sha256LeanCompress, &[l, r], &mut out);
        assert_eq!(out, want);
        Sha256Lean::compress_pair_into(&Sha256LeanCompress, &[r, l], &mut out);
        assert_eq!(out, Sha256Compress.compress([r, l]));
        Blake3Lean::compress_pair_into(&Blake3LeanCompress, &[l, r], &mut out);
        assert_eq!(out, Blake3LeanCompress.compress([l, r]));
    }
    #[cfg(feature = "prover")]
    #[test]
    fn prover_hash_matches_each_upstream_hash_and_compression() {
        use p3_symmetric::CompressionFunctionFromHasher;
        let msg: Vec<u8> = (0..300u32).map(|i| (i * 13 + 1) as u8).collect();
        let (l, r) = ([1u8; 32], [2u8; 32]);
        let blake = CompressionFunctionFromHasher::<_, 2, 32>::new(Blake3);
        assert_eq!(ProverHash::Blake3.hash_slice(&msg), Blake3.hash_slice(&msg));
        assert_eq!(
            ProverHash::Sha256.hash_iter(msg.iter().copied()),
            p3_sha256::Sha256.hash_slice(&msg)
        );
        assert_ne!(
            ProverHash::Blake3.hash_slice(&msg),
            ProverHash::Sha256.hash_slice(&msg)
        );
        let compress = |h: ProverHash| h.compression().compress([l, r]);
        assert_eq!(compress(ProverHash::Blake3), blake.compress([l, r]));
        assert_eq!(
            compress(ProverHash::Sha256),
            p3_sha256::Sha256Compress.compress([l, r])
        );
    }
}

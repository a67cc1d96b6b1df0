//! Our own Merkle channels for stwo: the transcript and the Merkle trees hashed with BLAKE3
//! or SHA-256 (software, or the RP2350 engine through `picostark-sha256`), the hashes every
//! other protocol of this project can use, so a stwo row can hold the hash equal with theirs.
//!
//! stwo takes any hash through two traits: [`Channel`] (the Fiat-Shamir transcript) and
//! [`MerkleHasherLifted`] (the commitments), joined by a [`MerkleChannel`]. Both are ours
//! here, over one [`ByteHash`]:
//! - a Merkle node is the hash of its two children's 64 bytes: one compression of either
//!   hash (SHA-256's one unpadded block from the IV, as our other backends' nodes; BLAKE3's
//!   one 64-byte block), so the SHA-256 engine takes one block per node;
//! - a leaf is the hash of its column values' little-endian words;
//! - the channel keeps a 32-byte digest and a draw counter: a mix replaces the digest by the
//!   hash of the digest and the mixed words; a draw hashes the digest, the counter and a
//!   domain byte; base field elements come from 32-bit words below `2 * (2^31 - 1)` (a draw
//!   with a word above is redrawn, so every element is uniform), reduced mod `2^31 - 1`;
//! - the proof of work: the hash of a domain-separated seed (the digest and the bits) and the
//!   nonce must end in at least that many zero bits (the digest's first 16 bytes read
//!   little-endian).
//!
//! Prover (`backends/stwo/prover`, stwo's CPU backend) and verifier share this code, so they
//! share every convention; stwo's own Blake2s channel is a different transcript, not
//! reproduced here.

use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;

use picostark_core::HashId;
use serde::{Deserialize, Serialize};
use stwo::core::channel::{Channel, MerkleChannel};
use stwo::core::fields::m31::{BaseField, M31, P};
use stwo::core::fields::qm31::SecureField;
use stwo::core::vcs_lifted::merkle_hasher::MerkleHasherLifted;

/// A 32-byte hash the channels run on.
pub trait ByteHash:
    Copy + Clone + fmt::Debug + Default + PartialEq + Eq + Send + Sync + 'static
{
    /// The proof file's name for it.
    const ID: HashId;
    /// The hash of `bytes`.
    fn hash(bytes: &[u8]) -> [u8; 32];
    /// A Merkle node: the hash of its children's 64 bytes, one compression.
    fn node(children: &[u8; 64]) -> [u8; 32];
    /// [`ByteHash::node`] of two borrowed children (the lean verifier's form; a hash may
    /// read their words in place instead of copying them side by side).
    fn node_of(left: &[u8; 32], right: &[u8; 32]) -> [u8; 32] {
        let mut children = [0u8; 64];
        children[..32].copy_from_slice(left);
        children[32..].copy_from_slice(right);
        Self::node(&children)
    }
}

/// BLAKE3 (`picostark-blake3`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Blake3;

impl ByteHash for Blake3 {
    const ID: HashId = HashId::Blake3_256;

    fn hash(bytes: &[u8]) -> [u8; 32] {
        picostark_blake3::hash(bytes)
    }

    fn node(children: &[u8; 64]) -> [u8; 32] {
        // 64 bytes are one BLAKE3 block: one compression.
        picostark_blake3::hash(children)
    }

    fn node_of(left: &[u8; 32], right: &[u8; 32]) -> [u8; 32] {
        // The same compression, the block's words read from the children in place.
        let block: [u32; 16] = core::array::from_fn(|i| {
            let (child, at) = (if i < 8 { left } else { right }, 4 * (i & 7));
            u32::from_ne_bytes([child[at], child[at + 1], child[at + 2], child[at + 3]])
        });
        let mut out = [0u32; 8];
        picostark_blake3::hash_block_words(&block, &mut out);
        let mut bytes = [0u8; 32];
        for (b, w) in bytes.chunks_exact_mut(4).zip(out) {
            b.copy_from_slice(&w.to_ne_bytes());
        }
        bytes
    }
}

/// SHA-256 (`picostark-sha256`: software, or the RP2350 engine in a board build).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sha256;

impl ByteHash for Sha256 {
    const ID: HashId = HashId::Sha256;

    fn hash(bytes: &[u8]) -> [u8; 32] {
        picostark_sha256::sha256(bytes)
    }

    fn node(children: &[u8; 64]) -> [u8; 32] {
        picostark_sha256::compress_from_iv(children)
    }
}

/// A digest of `H`: stwo's hash type for our hashers.
#[derive(Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Digest<H: ByteHash> {
    bytes: [u8; 32],
    #[serde(skip)]
    hash: PhantomData<H>,
}

impl<H: ByteHash> Digest<H> {
    pub fn new(bytes: [u8; 32]) -> Self {
        Self {
            bytes,
            hash: PhantomData,
        }
    }

    pub fn bytes(&self) -> [u8; 32] {
        self.bytes
    }

    /// The digest's bytes, borrowed.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.bytes
    }
}

impl<H: ByteHash> fmt::Display for Digest<H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.bytes.iter().try_for_each(|b| write!(f, "{b:02x}"))
    }
}

impl<H: ByteHash> fmt::Debug for Digest<H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl<H: ByteHash> stwo::core::vcs::hash::Hash for Digest<H> {}

/// `H` of `digest || words` (little-endian words).
fn hash_after<H: ByteHash>(digest: &[u8; 32], words: impl Iterator<Item = u32>) -> [u8; 32] {
    let mut bytes = Vec::with_capacity(64);
    bytes.extend_from_slice(digest);
    words.for_each(|w| bytes.extend_from_slice(&w.to_le_bytes()));
    H::hash(&bytes)
}

/// The Merkle hasher: a leaf is `H` of its column values' words.
#[derive(Clone, Default)]
pub struct LeafHasher<H: ByteHash> {
    words: Vec<u8>,
    hash: PhantomData<H>,
}

impl<H: ByteHash> fmt::Debug for LeafHasher<H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "LeafHasher({:?}, {} bytes)", H::ID, self.words.len())
    }
}

impl<H: ByteHash> MerkleHasherLifted for LeafHasher<H> {
    type Hash = Digest<H>;

    fn hash_children((left, right): (Digest<H>, Digest<H>)) -> Digest<H> {
        let mut children = [0u8; 64];
        children[..32].copy_from_slice(&left.bytes);
        children[32..].copy_from_slice(&right.bytes);
        Digest::new(H::node(&children))
    }

    fn update_leaf(&mut self, column_values: &[BaseField]) {
        for v in column_values {
            self.words.extend_from_slice(&v.0.to_le_bytes());
        }
    }

    fn finalize(self) -> Digest<H> {
        Digest::new(H::hash(&self.words))
    }
}

// stwo's proof type derives serde over its hasher parameter; the hasher holds no proof data
// (a leaf's words only while it is hashed), so it serializes as nothing.
impl<H: ByteHash> Serialize for LeafHasher<H> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_unit()
    }
}

impl<'de, H: ByteHash> Deserialize<'de> for LeafHasher<H> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        <()>::deserialize(deserializer).map(|()| Self::default())
    }
}

/// Domain bytes: what a hash of the channel is for.
const DRAW: u32 = 0x6472_6177; // "draw"
const POW: u32 = 0x706f_7721; // "pow!"

/// The Fiat-Shamir transcript over `H`.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct ByteChannel<H: ByteHash> {
    digest: [u8; 32],
    draws: u32,
    hash: PhantomData<H>,
}

impl<H: ByteHash> fmt::Debug for ByteChannel<H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "ByteChannel({:?}, {:?}, {})",
            H::ID,
            Digest::<H>::new(self.digest),
            self.draws
        )
    }
}

impl<H: ByteHash> ByteChannel<H> {
    /// The digest so far.
    pub fn digest(&self) -> [u8; 32] {
        self.digest
    }

    fn mix(&mut self, words: impl Iterator<Item = u32>) {
        self.digest = hash_after::<H>(&self.digest, words);
        self.draws = 0;
    }

    /// Eight words of the next draw.
    fn draw_words(&mut self) -> [u32; 8] {
        let out = hash_after::<H>(&self.digest, [DRAW, self.draws].into_iter());
        self.draws = self.draws.wrapping_add(1);
        core::array::from_fn(|i| {
            u32::from_le_bytes([out[4 * i], out[4 * i + 1], out[4 * i + 2], out[4 * i + 3]])
        })
    }

    /// Eight uniform base field elements: words below `2P` (probability about `1 - 2^-30`
    /// each), reduced mod P; a draw with a word above is drawn again.
    fn draw_base(&mut self) -> [BaseField; 8] {
        loop {
            let words = self.draw_words();
            if words.iter().all(|&w| w < 2 * P) {
                return words.map(|w| M31::from_u32_unchecked(w % P));
            }
        }
    }
}

impl<H: ByteHash> Channel for ByteChannel<H> {
    const BYTES_PER_HASH: usize = 32;

    fn verify_pow_nonce(&self, n_bits: u32, nonce: u64) -> bool {
        let seed = hash_after::<H>(&self.digest, [POW, n_bits].into_iter());
        let out = hash_after::<H>(&seed, [nonce as u32, (nonce >> 32) as u32].into_iter());
        let mut low = [0u8; 16];
        low.copy_from_slice(&out[..16]);
        u128::from_le_bytes(low).trailing_zeros() >= n_bits
    }

    fn mix_u32s(&mut self, data: &[u32]) {
        self.mix(data.iter().copied());
    }

    fn mix_felts(&mut self, felts: &[SecureField]) {
        self.mix(felts.iter().flat_map(|f| f.to_m31_array()).map(|c| c.0));
    }

    fn mix_u64(&mut self, value: u64) {
        self.mix([value as u32, (value >> 32) as u32].into_iter());
    }

    fn draw_secure_felt(&mut self) -> SecureField {
        let b = self.draw_base();
        SecureField::from_m31(b[0], b[1], b[2], b[3])
    }

    fn draw_secure_felts(&mut self, n_felts: usize) -> Vec<SecureField> {
        let mut out = Vec::with_capacity(n_felts);
        while out.len() < n_felts {
            let b = self.draw_base();
            out.push(SecureField::from_m31(b[0], b[1], b[2], b[3]));
            if out.len() < n_felts {
                out.push(SecureField::from_m31(b[4], b[5], b[6], b[7]));
            }
        }
        out
    }

    fn draw_u32s(&mut self) -> Vec<u32> {
        self.draw_words().to_vec()
    }
}

/// stwo's [`MerkleChannel`] over `H`: our transcript and our Merkle hasher.
#[derive(Clone, Copy, Debug, Default)]
pub struct ByteMerkleChannel<H: ByteHash>(PhantomData<H>);

impl<H: ByteHash> MerkleChannel for ByteMerkleChannel<H> {
    type C = ByteChannel<H>;
    type H = LeafHasher<H>;

    fn mix_root(channel: &mut ByteChannel<H>, root: Digest<H>) {
        channel.mix(
            root.bytes
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
        );
    }
}

/// A digest as its 32 bytes, for stwo's Blake2s and for ours alike.
pub trait RawDigest: Sized {
    fn from_raw(bytes: [u8; 32]) -> Self;
    fn raw(&self) -> [u8; 32];
}

impl RawDigest for stwo::core::vcs::blake2_hash::Blake2sHash {
    fn from_raw(bytes: [u8; 32]) -> Self {
        Self(bytes)
    }

    fn raw(&self) -> [u8; 32] {
        self.0
    }
}

impl<H: ByteHash> RawDigest for Digest<H> {
    fn from_raw(bytes: [u8; 32]) -> Self {
        Self::new(bytes)
    }

    fn raw(&self) -> [u8; 32] {
        self.bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_depend_on_every_mix_and_on_the_counter() {
        let mut a = ByteChannel::<Blake3>::default();
        let mut b = ByteChannel::<Blake3>::default();
        assert_eq!(a.draw_secure_felt(), b.draw_secure_felt());
        // A second draw differs from the first (the counter).
        let (x, y) = (a.draw_secure_felt(), a.draw_secure_felt());
        assert_ne!(x, y);
        a.mix_u32s(&[1]);
        b.mix_u32s(&[2]);
        assert_ne!(a.draw_secure_felt(), b.draw_secure_felt());
        // SHA-256 is another transcript.
        let mut s = ByteChannel::<Sha256>::default();
        let mut t = ByteChannel::<Blake3>::default();
        assert_ne!(s.draw_u32s(), t.draw_u32s());
        assert_eq!(a.draw_secure_felts(3).len(), 3);
    }

    #[test]
    fn proof_of_work_counts_trailing_zero_bits() {
        let c = ByteChannel::<Sha256>::default();
        // Find a nonce for 6 bits by search; it must fail for far more bits.
        let nonce = (0..10_000u64)
            .find(|&n| c.verify_pow_nonce(6, n))
            .expect("a 6-bit nonce");
        assert!(c.verify_pow_nonce(0, nonce + 1), "0 bits always hold");
        assert!(
            (0..64u64).any(|n| !c.verify_pow_nonce(6, n)),
            "6 bits do not always hold"
        );
        assert!(!c.verify_pow_nonce(120, nonce));
    }

    #[test]
    fn nodes_are_one_compression_of_the_children() {
        let (l, r) = (
            Digest::<Sha256>::new([1; 32]),
            Digest::<Sha256>::new([2; 32]),
        );
        let mut both = [1u8; 64];
        both[32..].fill(2);
        let node = LeafHasher::<Sha256>::hash_children((l, r));
        assert_eq!(node.bytes(), picostark_sha256::compress_from_iv(&both));
        assert_ne!(node, LeafHasher::<Sha256>::hash_children((r, l)));
        // The borrowed form is the same node, for both hashes.
        assert_eq!(Sha256::node_of(&[1; 32], &[2; 32]), node.bytes());
        let mut block = [3u8; 64];
        block[32..].fill(4);
        assert_eq!(Blake3::node_of(&[3; 32], &[4; 32]), Blake3::node(&block));
        assert_ne!(Blake3::node_of(&[4; 32], &[3; 32]), Blake3::node(&block));
        let mut leaf = LeafHasher::<Blake3>::default();
        leaf.update_leaf(&[M31::from_u32_unchecked(7)]);
        assert_eq!(
            leaf.finalize().bytes(),
            picostark_blake3::hash(&7u32.to_le_bytes())
        );
    }
}

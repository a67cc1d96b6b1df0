//! The verifier's two winter-crypto hashers: SHA-256 (ours, also for the upstream prover on
//! the host) and BLAKE3 (winter-crypto's `Blake3_256`, recomputed).
//!
//! [`Sha256`]: every compression goes through `picostark_sha256` (the verifiers' one SHA-256
//! interface: software, or the RP2350 engine in the board firmware), one call per 64-byte
//! block. Byte and element hashing is plain SHA-256 (FIPS 180-4) of the bytes winter-crypto's
//! `Blake3_256` would hash: the elements' canonical little-endian encoding. A Merkle node
//! ([`Hasher::merge`]) is one SHA-256 compression of `left || right` from the standard initial
//! state without padding, as Plonky3's `Sha256Compress`: the inputs have a fixed length, and a
//! node costs one 64-byte block (one call of the RP2350's SHA-256 engine) instead of two.
//!
//! [`Blake3`]: the digests of winter-crypto's `Blake3_256` (what its prover commits with) for
//! every function the verifier calls, through `picostark_blake3`: one-shot, digests in words,
//! a Merkle node one compression of the pair where it lies. The random coin
//! (`DefaultRandomCoin`) and the openings run on it, so no call goes through the `blake3`
//! crate's streaming state (tests: the same digests as `Blake3_256` for each function).

use alloc::vec::Vec;
use core::marker::PhantomData;

use picostark_sha256::{DigestWords, Sha256 as Stream};

use crate::verifier::merkle::{Node, NodeHash};
use winter_crypto::{Digest, ElementHasher, Hasher};
use winter_math::{FieldElement, StarkField};
use winter_utils::{ByteReader, ByteWriter, Deserializable, DeserializationError, Serializable};

/// A SHA-256 digest (winter-crypto keeps its `ByteDigest` private): its 32 bytes, held as
/// `picostark_sha256`'s [`DigestWords`] (the bytes in memory order).
///
/// Words: the verifier moves digests around (Merkle levels, openings, the coin), and a
/// 32-byte copy of a byte-aligned value is a call to the byte-wise `memcpy` (about 100
/// instructions on the M33), of a word-aligned one eight loads and stores; the hash writes
/// its digest straight into one (no `[u8; 32]` moved out of it), and equality compares words.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(transparent)]
pub struct ByteDigest(DigestWords);

// `digests_as_bytes` and `merge` read digests as plain bytes.
const _: () = assert!(core::mem::size_of::<[ByteDigest; 2]>() == 64);

impl ByteDigest {
    /// The digest of these bytes.
    pub fn new(bytes: [u8; 32]) -> Self {
        // SAFETY: `[u8; 32]` and `[u32; 8]` are 32 bytes, every bit pattern valid.
        ByteDigest(unsafe { core::mem::transmute::<[u8; 32], DigestWords>(bytes) })
    }

    /// The digest `write` puts into its words.
    fn written(write: impl FnOnce(&mut DigestWords)) -> Self {
        let mut d = ByteDigest::default();
        write(&mut d.0);
        d
    }

    /// Digests laid out one after another.
    fn digests_as_bytes(digests: &[ByteDigest]) -> &[u8] {
        // SAFETY: `ByteDigest` is a transparent `[u32; 8]`, 32 initialised bytes without
        // padding, so a slice of them is `32 * len` initialised bytes.
        unsafe { core::slice::from_raw_parts(digests.as_ptr().cast::<u8>(), digests.len() * 32) }
    }
}

impl Digest for ByteDigest {
    fn as_bytes(&self) -> [u8; 32] {
        picostark_sha256::digest_bytes(&self.0)
    }
}

impl Serializable for ByteDigest {
    fn write_into<W: ByteWriter>(&self, target: &mut W) {
        target.write_bytes(&self.as_bytes());
    }
}

impl Deserializable for ByteDigest {
    fn read_from<R: ByteReader>(source: &mut R) -> Result<Self, DeserializationError> {
        Ok(ByteDigest::new(source.read_array()?))
    }

    /// As the default (the first 32 bytes), but copied once, without a reader and an array
    /// in between: the verifier reads every Merkle sibling from the proof this way.
    fn read_from_bytes(bytes: &[u8]) -> Result<Self, DeserializationError> {
        match bytes.first_chunk::<32>() {
            Some(digest) => Ok(ByteDigest::new(*digest)),
            None => Err(DeserializationError::UnexpectedEOF),
        }
    }
}

/// SHA-256 over the base field `B` (which only fixes `ElementHasher::BaseField`).
#[derive(Debug, PartialEq, Eq)]
pub struct Sha256<B: StarkField>(PhantomData<B>);

fn digest(bytes: &[u8]) -> ByteDigest {
    ByteDigest::written(|out| picostark_sha256::sha256_into(bytes, out))
}

/// Streams serialised elements into SHA-256 (for fields stored in a non-canonical form).
struct Writer(Stream);

impl ByteWriter for Writer {
    fn write_u8(&mut self, value: u8) {
        self.0.update_byte(value);
    }

    fn write_bytes(&mut self, values: &[u8]) {
        self.0.update(values);
    }
}

impl<B: StarkField> Hasher for Sha256<B> {
    type Digest = ByteDigest;

    const COLLISION_RESISTANCE: u32 = 128;

    fn hash(bytes: &[u8]) -> Self::Digest {
        digest(bytes)
    }

    fn merge(values: &[Self::Digest; 2]) -> Self::Digest {
        // The two digests side by side are the block: compressed where they lie.
        // SAFETY: two `ByteDigest`s are 64 initialised bytes without padding (see
        // `digests_as_bytes`, and the size check after the struct), alignment 1 suffices for bytes.
        let block = unsafe { &*values.as_ptr().cast::<[u8; 64]>() };
        ByteDigest::written(|out| picostark_sha256::compress_from_iv_into(block, out))
    }

    fn merge_many(values: &[Self::Digest]) -> Self::Digest {
        digest(ByteDigest::digests_as_bytes(values))
    }

    fn merge_with_int(seed: Self::Digest, value: u64) -> Self::Digest {
        let mut data = [0u8; 40];
        data[..32].copy_from_slice(&seed.as_bytes());
        data[32..].copy_from_slice(&value.to_le_bytes());
        digest(&data)
    }
}

/// Leaves and parents written into the Merkle levels where they belong.
impl<B: StarkField> NodeHash for Sha256<B> {
    fn leaf(bytes: &[u8], out: &mut Node) {
        picostark_sha256::sha256_into(bytes, &mut out.0);
    }

    fn parent(pair: &[Node; 2], out: &mut Node) {
        picostark_sha256::compress_from_iv_into(Node::pair_bytes(pair), &mut out.0);
    }
}

impl<B: StarkField> ElementHasher for Sha256<B> {
    type BaseField = B;

    fn hash_elements<E: FieldElement<BaseField = B>>(elements: &[E]) -> Self::Digest {
        if B::IS_CANONICAL {
            digest(E::elements_as_bytes(elements))
        } else {
            let mut w = Writer(Stream::new());
            for e in elements {
                e.write_into(&mut w);
            }
            ByteDigest::written(|out| w.0.finalize_into(out))
        }
    }
}

/// BLAKE3-256 over the base field `B`, digest-compatible with winter-crypto's `Blake3_256<B>`.
#[derive(Debug, PartialEq, Eq)]
pub struct Blake3<B: StarkField>(PhantomData<B>);

fn blake3_digest(bytes: &[u8]) -> ByteDigest {
    ByteDigest::written(|out| picostark_blake3::hash_words(bytes, out))
}

/// Collects serialised elements (for fields stored in a non-canonical form).
struct Bytes(Vec<u8>);

impl ByteWriter for Bytes {
    fn write_u8(&mut self, value: u8) {
        self.0.push(value);
    }

    fn write_bytes(&mut self, values: &[u8]) {
        self.0.extend_from_slice(values);
    }
}

impl<B: StarkField> Hasher for Blake3<B> {
    type Digest = ByteDigest;

    const COLLISION_RESISTANCE: u32 = 128;

    fn hash(bytes: &[u8]) -> Self::Digest {
        blake3_digest(bytes)
    }

    fn merge(values: &[Self::Digest; 2]) -> Self::Digest {
        // SAFETY: two transparent `[u32; 8]` side by side are one `[u32; 16]`.
        let block = unsafe { &*values.as_ptr().cast::<[u32; 16]>() };
        ByteDigest::written(|out| picostark_blake3::hash_block_words(block, out))
    }

    fn merge_many(values: &[Self::Digest]) -> Self::Digest {
        blake3_digest(ByteDigest::digests_as_bytes(values))
    }

    fn merge_with_int(seed: Self::Digest, value: u64) -> Self::Digest {
        let mut data = [0u8; 40];
        data[..32].copy_from_slice(&seed.as_bytes());
        data[32..].copy_from_slice(&value.to_le_bytes());
        blake3_digest(&data)
    }
}

/// Leaves and parents written into the Merkle levels where they belong.
impl<B: StarkField> NodeHash for Blake3<B> {
    fn leaf(bytes: &[u8], out: &mut Node) {
        picostark_blake3::hash_words(bytes, &mut out.0);
    }

    fn parent(pair: &[Node; 2], out: &mut Node) {
        // SAFETY: two transparent `[u32; 8]` side by side are one `[u32; 16]`.
        let block = unsafe { &*(pair as *const [Node; 2]).cast::<[u32; 16]>() };
        picostark_blake3::hash_block_words(block, &mut out.0);
    }
}

impl<B: StarkField> ElementHasher for Blake3<B> {
    type BaseField = B;

    fn hash_elements<E: FieldElement<BaseField = B>>(elements: &[E]) -> Self::Digest {
        if B::IS_CANONICAL {
            blake3_digest(E::elements_as_bytes(elements))
        } else {
            let mut w = Bytes(Vec::with_capacity(elements.len() * E::ELEMENT_BYTES));
            for e in elements {
                e.write_into(&mut w);
            }
            blake3_digest(&w.0)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sha2::{Digest as _, Sha256 as Sha2};
    use winter_math::fields::f64::BaseElement;

    type H = Sha256<BaseElement>;

    fn hex(d: ByteDigest) -> [u8; 32] {
        d.as_bytes()
    }

    fn from_hex(s: &str) -> [u8; 32] {
        let mut out = [0u8; 32];
        for (i, o) in out.iter_mut().enumerate() {
            *o = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap();
        }
        out
    }

    /// FIPS 180-4 examples (one block and the 448-bit two-block message).
    #[test]
    fn known_answers() {
        assert_eq!(
            hex(H::hash(b"abc")),
            from_hex("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        );
        assert_eq!(
            hex(H::hash(
                b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
            )),
            from_hex("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        );
        assert_ne!(hex(H::hash(b"abd")), hex(H::hash(b"abc")));
    }

    #[test]
    fn merge_is_one_compression_of_both_digests() {
        let (l, r) = (H::hash(b"left"), H::hash(b"right"));
        let mut block = [0u8; 64];
        block[..32].copy_from_slice(&l.as_bytes());
        block[32..].copy_from_slice(&r.as_bytes());
        let mut state = picostark_sha256::IV;
        sha2::block_api::compress256(&mut state, &[block]);
        let mut want = [0u8; 32];
        for (c, w) in want.chunks_exact_mut(4).zip(state) {
            c.copy_from_slice(&w.to_be_bytes());
        }
        assert_eq!(hex(H::merge(&[l, r])), want);
        assert_ne!(hex(H::merge(&[r, l])), want);
        // merge_many and merge_with_int are the padded hash of the concatenation.
        let both = [l, r];
        assert_eq!(
            hex(H::merge_many(&both)),
            <[u8; 32]>::from(Sha2::digest(ByteDigest::digests_as_bytes(&both)))
        );
        let mut data = [0u8; 40];
        data[..32].copy_from_slice(&l.as_bytes());
        data[32..].copy_from_slice(&7u64.to_le_bytes());
        assert_eq!(
            hex(H::merge_with_int(l, 7)),
            <[u8; 32]>::from(Sha2::digest(data))
        );
    }

    #[test]
    fn digest_bytes_read_as_through_a_reader() {
        let bytes: [u8; 40] = core::array::from_fn(|i| i as u8);
        let through_reader =
            |b: &[u8]| ByteDigest::read_from(&mut winter_utils::SliceReader::new(b));
        for len in [32, 40] {
            let d = ByteDigest::read_from_bytes(&bytes[..len]).unwrap();
            assert_eq!(d, through_reader(&bytes[..len]).unwrap());
            assert_eq!(d.as_bytes()[..], bytes[..32]);
        }
        // Short input: an error, as the reader gives, not a panic.
        for len in [0, 1, 31] {
            assert!(ByteDigest::read_from_bytes(&bytes[..len]).is_err());
            assert!(through_reader(&bytes[..len]).is_err());
        }
    }

    /// Every function the verifier calls gives `Blake3_256`'s digest: inputs across a block
    /// and a chunk, and elements of fields stored non-canonically (winter's Goldilocks, our
    /// BabyBear: serialised) and canonically (winter's f128: hashed as they lie).
    #[test]
    fn blake3_gives_winter_cryptos_digests() {
        use crate::field::babybear::BabyBear;
        use winter_crypto::hashers::Blake3_256;
        use winter_math::fields::f128::BaseElement as F128;
        type Ours = Blake3<BaseElement>;
        type Theirs = Blake3_256<BaseElement>;
        for len in [0usize, 1, 40, 63, 64, 65, 1023, 1024, 1025, 3000] {
            let bytes: Vec<u8> = (0..len).map(|i| (i * 7 + len) as u8).collect();
            assert_eq!(
                hex(Ours::hash(&bytes)),
                Theirs::hash(&bytes).as_bytes(),
                "{len}"
            );
        }
        let (l, r) = (Theirs::hash(b"left"), Theirs::hash(b"right"));
        let (ol, or) = (Ours::hash(b"left"), Ours::hash(b"right"));
        assert_eq!(
            hex(Ours::merge(&[ol, or])),
            Theirs::merge(&[l, r]).as_bytes()
        );
        assert_ne!(
            hex(Ours::merge(&[or, ol])),
            Theirs::merge(&[l, r]).as_bytes()
        );
        assert_eq!(
            hex(Ours::merge_many(&[ol, or, ol])),
            Theirs::merge_many(&[l, r, l]).as_bytes()
        );
        for v in [0u64, 7, u64::MAX] {
            let want = Theirs::merge_with_int(l, v).as_bytes();
            assert_eq!(hex(Ours::merge_with_int(ol, v)), want);
        }
        for n in [0u64, 1, 5, 200] {
            let g: Vec<BaseElement> = (0..n)
                .map(|i| BaseElement::new(i * i + u64::MAX / 3))
                .collect();
            let want = Theirs::hash_elements(&g).as_bytes();
            assert_eq!(hex(Ours::hash_elements(&g)), want, "{n}");
            let b: Vec<BabyBear> = (0..n as u32).map(|i| BabyBear::new(i * 977 + 5)).collect();
            let want = Blake3_256::<BabyBear>::hash_elements(&b).as_bytes();
            assert_eq!(hex(Blake3::<BabyBear>::hash_elements(&b)), want, "{n}");
            let c: Vec<F128> = (0..n).map(|i| F128::new(u128::from(i) << 70 | 3)).collect();
            let want = Blake3_256::<F128>::hash_elements(&c).as_bytes();
            assert_eq!(hex(Blake3::<F128>::hash_elements(&c)), want, "{n}");
        }
    }

    #[test]
    fn elements_hash_as_their_canonical_bytes() {
        let elements = [BaseElement::new(1), BaseElement::new(u64::MAX - 5)];
        let mut bytes = [0u8; 16];
        for (c, e) in bytes.chunks_exact_mut(8).zip(elements) {
            c.copy_from_slice(&e.as_int().to_le_bytes());
        }
        assert_eq!(hex(H::hash_elements(&elements)), hex(H::hash(&bytes)));
    }
}

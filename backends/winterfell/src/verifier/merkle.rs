//! Verification of winterfell's batch Merkle openings (`BatchMerkleProof` bytes) straight
//! from the proof bytes, with a few reusable buffers instead of upstream's `BTreeMap`s and
//! per-path `Vec`s.
//!
//! The encoding (winter-crypto 0.13): `depth u8`, then a `vint` count of node vectors, each a
//! `vint` count of digests. Vector `i` serves the `i`-th entry of the sorted list of nodes
//! being lifted at each level: at the leaf level, the sibling pairs `index & !1`; above, the
//! parents computed so far. An entry whose sibling is not in the list takes the next unread
//! digest of its vector. This is the order upstream's prover writes; we also require every
//! digest to be used, which upstream does not check.

use alloc::vec::Vec;

use picostark_core::VerifyError;
use winter_crypto::Hasher;
use winter_utils::Deserializable;

use super::parse::Reader;

/// Digest size of both hashes this backend uses (BLAKE3-256, SHA-256).
pub const DIGEST_BYTES: usize = 32;

fn malformed(what: &'static str) -> VerifyError {
    VerifyError::MalformedProof(what)
}

/// Reads a digest from exactly [`DIGEST_BYTES`] bytes.
pub fn read_digest<H: Hasher>(bytes: &[u8]) -> Result<H::Digest, VerifyError> {
    H::Digest::read_from_bytes(bytes).map_err(|_| malformed("digest"))
}

/// Buffers reused across openings, so a verification allocates them once.
pub struct MerkleScratch<D> {
    /// `(leaf index, position in the leaves slice)`, sorted by index.
    sorted: Vec<(usize, usize)>,
    /// `(byte offset of first digest, number of digests)` of each node vector.
    vectors: Vec<(usize, usize)>,
    pointers: Vec<usize>,
    /// The nodes being lifted: tree indexes and digests apart, so that two siblings next to
    /// each other are a `[D; 2]` the hasher reads in place (a copy of a digest costs a
    /// `memcpy` call on RV32, and on the M33 for a byte-aligned digest).
    level_index: Vec<usize>,
    level: Vec<D>,
    next_index: Vec<usize>,
    next: Vec<D>,
}

impl<D: Copy> MerkleScratch<D> {
    /// Buffers for openings of up to `max_leaves` leaves.
    pub fn with_capacity(max_leaves: usize) -> Self {
        MerkleScratch {
            sorted: Vec::with_capacity(max_leaves),
            vectors: Vec::with_capacity(max_leaves),
            pointers: Vec::with_capacity(max_leaves),
            level_index: Vec::with_capacity(max_leaves),
            level: Vec::with_capacity(max_leaves),
            next_index: Vec::with_capacity(max_leaves),
            next: Vec::with_capacity(max_leaves),
        }
    }
}

/// Checks that `leaves[k]` is the leaf at `indexes[k]` (distinct, any order) of the tree of
/// depth `depth` with root `root`, using the batch opening in `proof`.
pub fn verify_batch<H: Hasher>(
    root: &H::Digest,
    depth: u32,
    indexes: &[usize],
    leaves: &[H::Digest],
    proof: &[u8],
    s: &mut MerkleScratch<H::Digest>,
) -> Result<(), VerifyError> {
    let bad = VerifyError::Rejected("Merkle opening does not match the commitment");
    if indexes.is_empty() || indexes.len() != leaves.len() {
        return Err(malformed("Merkle opening shape"));
    }
    if depth == 0 || depth >= usize::BITS {
        return Err(malformed("Merkle tree depth"));
    }
    let mut r = Reader::new(proof);
    if u32::from(r.u8("Merkle opening")?) != depth {
        return Err(malformed("Merkle tree depth"));
    }
    let num_leaves = 1usize << depth;

    s.sorted.clear();
    for (pos, &index) in indexes.iter().enumerate() {
        if index >= num_leaves {
            return Err(malformed("Merkle leaf index out of range"));
        }
        s.sorted.push((index, pos));
    }
    s.sorted.sort_unstable();
    let mut num_pairs = 0;
    for k in 0..s.sorted.len() {
        if k > 0 && s.sorted[k].0 == s.sorted[k - 1].0 {
            return Err(malformed("duplicate Merkle leaf index"));
        }
        if k == 0 || s.sorted[k].0 >> 1 != s.sorted[k - 1].0 >> 1 {
            num_pairs += 1;
        }
    }

    // The node vectors: one per sibling pair, each bounded by the bytes that remain.
    if r.vint("Merkle opening")? != num_pairs as u64 {
        return Err(malformed("Merkle opening node count"));
    }
    s.vectors.clear();
    for _ in 0..num_pairs {
        let count = r.vint("Merkle opening")?;
        if count > (r.remaining() / DIGEST_BYTES) as u64 {
            return Err(malformed("Merkle opening node count"));
        }
        let count = count as usize;
        let offset = proof.len() - r.remaining();
        r.take(count * DIGEST_BYTES, "Merkle opening")?;
        s.vectors.push((offset, count));
    }
    if r.remaining() != 0 {
        return Err(malformed("trailing bytes in Merkle opening"));
    }
    // A node's bytes; decoded where the pair to hash is built, not moved through a `Result`.
    let node = |vectors: &[(usize, usize)], i: usize, j: usize| -> Result<&[u8], VerifyError> {
        let (offset, count) = vectors[i];
        if j >= count {
            return Err(malformed("Merkle opening is missing a node"));
        }
        let at = offset + j * DIGEST_BYTES;
        Ok(&proof[at..at + DIGEST_BYTES])
    };

    // Leaf level: hash each sibling pair, taking the missing sibling from the proof.
    s.level_index.clear();
    s.level.clear();
    s.pointers.clear();
    let mut k = 0;
    while k < s.sorted.len() {
        let i = s.level.len();
        let (index, pos) = s.sorted[k];
        let pair = index & !1;
        let (left, right, used) = if index == pair {
            if k + 1 < s.sorted.len() && s.sorted[k + 1].0 == pair + 1 {
                let right = leaves[s.sorted[k + 1].1];
                k += 2;
                (leaves[pos], right, 0)
            } else {
                k += 1;
                (leaves[pos], read_digest::<H>(node(&s.vectors, i, 0)?)?, 1)
            }
        } else {
            k += 1;
            (read_digest::<H>(node(&s.vectors, i, 0)?)?, leaves[pos], 1)
        };
        s.level_index.push((num_leaves + pair) >> 1);
        s.level.push(H::merge(&[left, right]));
        s.pointers.push(used);
    }

    // Upper levels: the entry at list position `k` reads vector `k` when its sibling is absent.
    for _ in 1..depth {
        s.next_index.clear();
        s.next.clear();
        let mut k = 0;
        while k < s.level.len() {
            let index = s.level_index[k];
            // The list is sorted, so a sibling next in it is the right one.
            let parent = if s.level_index.get(k + 1) == Some(&(index ^ 1)) {
                let pair: &[H::Digest; 2] = s.level[k..k + 2].try_into().map_err(|_| bad)?;
                k += 1;
                H::merge(pair)
            } else {
                let p = *s.pointers.get(k).ok_or(bad)?;
                let sibling = node(&s.vectors, k, p)?;
                s.pointers[k] += 1;
                let pair = if index & 1 == 0 {
                    [s.level[k], read_digest::<H>(sibling)?]
                } else {
                    [read_digest::<H>(sibling)?, s.level[k]]
                };
                H::merge(&pair)
            };
            s.next_index.push(index >> 1);
            s.next.push(parent);
            k += 1;
        }
        core::mem::swap(&mut s.level_index, &mut s.next_index);
        core::mem::swap(&mut s.level, &mut s.next);
    }

    if s.level.len() != 1 || s.level_index[0] != 1 {
        return Err(bad);
    }
    if s.pointers
        .iter()
        .zip(&s.vectors)
        .any(|(&p, &(_, count))| p != count)
    {
        return Err(malformed("unused nodes in Merkle opening"));
    }
    if s.level[0] != *root {
        return Err(bad);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use winter_crypto::hashers::Blake3_256;
    use winter_crypto::{MerkleTree, VectorCommitment};
    use winter_math::fields::f64::BaseElement;
    use winter_utils::Serializable;

    type H = Blake3_256<BaseElement>;

    #[test]
    fn agrees_with_upstream_batch_openings() {
        let leaves: Vec<_> = (0..64u32).map(|i| H::hash(&i.to_le_bytes())).collect();
        let tree = MerkleTree::<H>::new(leaves.clone()).unwrap();
        let root = *tree.root();
        let mut s = MerkleScratch::with_capacity(16);
        let sets: &[&[usize]] = &[
            &[0],
            &[63],
            &[1, 2, 3],
            &[5, 4, 40, 41, 17, 9],
            &[62, 0, 31, 32, 33],
        ];
        for &set in sets {
            let (items, proof) = tree.open_many(set).unwrap();
            let bytes = proof.to_bytes();
            verify_batch::<H>(&root, 6, set, &items, &bytes, &mut s).unwrap();
            // A wrong leaf, a wrong root, a wrong depth and every truncation are rejected.
            let mut wrong = items.clone();
            wrong[0] = H::hash(b"x");
            assert!(verify_batch::<H>(&root, 6, set, &wrong, &bytes, &mut s).is_err());
            assert!(verify_batch::<H>(&items[0], 6, set, &items, &bytes, &mut s).is_err());
            assert!(verify_batch::<H>(&root, 5, set, &items, &bytes, &mut s).is_err());
            for len in 0..bytes.len() {
                assert!(verify_batch::<H>(&root, 6, set, &items, &bytes[..len], &mut s).is_err());
            }
            let mut extra = bytes.clone();
            extra.push(0);
            assert!(verify_batch::<H>(&root, 6, set, &items, &extra, &mut s).is_err());
        }
        let (items, proof) = tree.open_many(&[3, 4]).unwrap();
        let bytes = proof.to_bytes();
        // Duplicate and out-of-range indexes are errors, not panics.
        assert!(verify_batch::<H>(&root, 6, &[3, 3], &items, &bytes, &mut s).is_err());
        assert!(verify_batch::<H>(&root, 6, &[3, 64], &items, &bytes, &mut s).is_err());
    }
}

//! Lifted Merkle multi-openings (stwo's `MerkleVerifierLifted::verify`), in one buffer.
//!
//! stwo sorts the columns by size and deduplicates the queries for every tree, collects
//! a row `Vec` per leaf and a fresh `Vec` of nodes per level. Here the caller hashes the
//! leaves into a buffer of `(position, hash)` pairs sized once by the number of queries,
//! and each level is folded into the same buffer in place: a node's sibling is the next
//! entry when both were opened, else the next witness hash. The checks are stwo's: a
//! witness too short or too long, the root; a tree of height 0 checks nothing, as in stwo.

use alloc::vec::Vec;

use stwo::core::fields::m31::BaseField;
use stwo::core::vcs_lifted::blake2_merkle::Blake2sMerkleHasher;
use stwo::core::vcs_lifted::merkle_hasher::MerkleHasherLifted;
use stwo::core::vcs_lifted::verifier::MerkleVerificationError;

use crate::channel::{ByteHash, LeafHasher, RawDigest};

/// A Merkle hasher as this path calls it: nodes from borrowed children and leaves through a
/// reused byte buffer, the same hashes as its [`MerkleHasherLifted`] form (stwo's takes the
/// children by value and ours collects each leaf in a fresh `Vec`).
pub trait LeanHasher: MerkleHasherLifted<Hash: RawDigest> {
    /// The parent of two nodes.
    fn node(left: &Self::Hash, right: &Self::Hash) -> Self::Hash;
    /// The leaf of a row of column values; `scratch` is any buffer to reuse.
    fn leaf(row: &[BaseField], scratch: &mut Vec<u8>) -> Self::Hash;
}

/// stwo's Blake2s hasher, as stwo hashes (its hasher streams the values).
impl LeanHasher for Blake2sMerkleHasher {
    fn node(left: &Self::Hash, right: &Self::Hash) -> Self::Hash {
        Self::hash_children((*left, *right))
    }

    fn leaf(row: &[BaseField], _scratch: &mut Vec<u8>) -> Self::Hash {
        let mut hasher = Self::default();
        hasher.update_leaf(row);
        hasher.finalize()
    }
}

/// Our BLAKE3 and SHA-256 hashers ([`crate::channel`]).
impl<B: ByteHash> LeanHasher for LeafHasher<B> {
    fn node(left: &Self::Hash, right: &Self::Hash) -> Self::Hash {
        crate::channel::Digest::new(B::node_of(left.as_bytes(), right.as_bytes()))
    }

    fn leaf(row: &[BaseField], scratch: &mut Vec<u8>) -> Self::Hash {
        scratch.clear();
        for v in row {
            scratch.extend_from_slice(&v.0.to_le_bytes());
        }
        crate::channel::Digest::new(B::hash(scratch))
    }
}

/// Folds the opened leaves `nodes` (positions sorted, distinct, below `2^height`) up to the
/// root with the `witness` hashes, which must all be used, and compares it with `root`.
pub fn verify_root<H: LeanHasher>(
    nodes: &mut Vec<(usize, H::Hash)>,
    height: u32,
    witness: impl IntoIterator<Item = H::Hash>,
    root: &H::Hash,
) -> Result<(), MerkleVerificationError> {
    let mut witness = witness.into_iter();
    for _ in 0..height {
        let (mut read, mut write) = (0, 0);
        while read < nodes.len() {
            let (position, ref hash) = nodes[read];
            let sibling = nodes.get(read + 1).filter(|n| n.0 == position ^ 1);
            let parent = match sibling {
                // Both children opened: the pair is (even, odd) since positions ascend.
                Some((_, right)) => {
                    read += 2;
                    H::node(hash, right)
                }
                None => {
                    read += 1;
                    let other = witness
                        .next()
                        .ok_or(MerkleVerificationError::WitnessTooShort)?;
                    if position & 1 == 0 {
                        H::node(hash, &other)
                    } else {
                        H::node(&other, hash)
                    }
                }
            };
            nodes[write] = (position >> 1, parent);
            write += 1;
        }
        nodes.truncate(write);
    }
    if witness.next().is_some() {
        return Err(MerkleVerificationError::WitnessTooLong);
    }
    match nodes.as_slice() {
        [(_, computed)] if computed == root => Ok(()),
        _ => Err(MerkleVerificationError::RootMismatch),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::channel::{Blake3, LeafHasher};
    use stwo::core::fields::m31::M31;

    type H = LeafHasher<Blake3>;

    #[test]
    fn a_two_level_tree_opens_and_a_wrong_sibling_fails() {
        let scratch = &mut Vec::new();
        let leaves: Vec<_> = (0..4u32)
            .map(|v| H::leaf(&[M31::from_u32_unchecked(v)], scratch))
            .collect();
        // The lean leaf and node are the hasher's own.
        let mut stock = H::default();
        stock.update_leaf(&[M31::from_u32_unchecked(2)]);
        assert_eq!(stock.finalize(), leaves[2]);
        assert_eq!(
            H::node(&leaves[0], &leaves[1]),
            H::hash_children((leaves[0], leaves[1]))
        );
        let left = H::hash_children((leaves[0], leaves[1]));
        let right = H::hash_children((leaves[2], leaves[3]));
        let root = H::hash_children((left, right));
        // Leaves 1 and 2 opened: witness leaf 0, then leaf 3.
        let open = |witness: &[_]| {
            let mut nodes = alloc::vec![(1, leaves[1]), (2, leaves[2])];
            verify_root::<H>(&mut nodes, 2, witness.iter().copied(), &root)
        };
        assert_eq!(open(&[leaves[0], leaves[3]]), Ok(()));
        assert_eq!(
            open(&[leaves[3], leaves[0]]),
            Err(MerkleVerificationError::RootMismatch)
        );
        assert_eq!(
            open(&[leaves[0]]),
            Err(MerkleVerificationError::WitnessTooShort)
        );
        assert_eq!(
            open(&[leaves[0], leaves[3], leaves[3]]),
            Err(MerkleVerificationError::WitnessTooLong)
        );
    }
}

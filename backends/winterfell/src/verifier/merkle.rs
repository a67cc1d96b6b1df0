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
//!
//! Run to completion (issue 46): the proof's node vectors are read as the proof declares
//! them (its shape), then the walk is driven by the query indexes alone. A vector or digest
//! the walk needs and the proof lacks (indexes drawn by a transcript a damaged proof led
//! astray) is a zero stand-in, and every mismatch is recorded in the caller's [`Failures`]
//! as [`Check::MerklePath`] of the tree, so a failed opening hashes what a sound one does.

use alloc::vec::Vec;

use picostark_core::{Check, Failures, Tree, VerifyError};
use winter_crypto::{Digest, Hasher};
use winter_utils::Deserializable;

use super::parse::{malformed, Reader};

/// Digest size of both hashes this backend uses (BLAKE3-256, SHA-256).
pub const DIGEST_BYTES: usize = 32;

/// Reads a digest from exactly [`DIGEST_BYTES`] bytes.
pub fn read_digest<H: Hasher>(bytes: &[u8]) -> Result<H::Digest, VerifyError> {
    H::Digest::read_from_bytes(bytes).map_err(|_| malformed("digest"))
}

/// A Merkle node while openings are checked: a digest's 32 bytes in memory order, held in
/// words. Word-aligned, so a node is moved by eight word loads and stores (a byte-aligned
/// 32-byte move is a `memcpy` call) and two adjacent nodes are a block to hash in place.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(transparent)]
pub struct Node(pub [u32; 8]);

impl Node {
    /// The node of a digest's bytes.
    pub fn from_bytes(bytes: &[u8; 32]) -> Node {
        let mut n = Node::default();
        n.set_bytes(bytes);
        n
    }

    /// `self = bytes`, word by word from any byte offset (a sibling in the proof), written
    /// out: a loop or an array move becomes a `memcpy` call.
    #[inline(always)]
    pub fn set_bytes(&mut self, bytes: &[u8; 32]) {
        let (w, _) = bytes.as_chunks::<4>();
        let d = &mut self.0;
        d[0] = u32::from_ne_bytes(w[0]);
        d[1] = u32::from_ne_bytes(w[1]);
        d[2] = u32::from_ne_bytes(w[2]);
        d[3] = u32::from_ne_bytes(w[3]);
        d[4] = u32::from_ne_bytes(w[4]);
        d[5] = u32::from_ne_bytes(w[5]);
        d[6] = u32::from_ne_bytes(w[6]);
        d[7] = u32::from_ne_bytes(w[7]);
    }

    /// `self = *other` as eight word moves (see [`Node::set_bytes`]).
    #[inline(always)]
    pub fn set(&mut self, other: &Node) {
        let (d, s) = (&mut self.0, &other.0);
        d[0] = s[0];
        d[1] = s[1];
        d[2] = s[2];
        d[3] = s[3];
        d[4] = s[4];
        d[5] = s[5];
        d[6] = s[6];
        d[7] = s[7];
    }

    /// The node's 32 bytes.
    pub fn as_bytes(&self) -> &[u8; 32] {
        // SAFETY: `[u32; 8]` is 32 initialised bytes; `[u8; 32]` needs no alignment.
        unsafe { &*(self as *const Node).cast::<[u8; 32]>() }
    }

    /// Two nodes side by side: the 64-byte block of their parent.
    pub fn pair_bytes(pair: &[Node; 2]) -> &[u8; 64] {
        // SAFETY: two transparent `[u32; 8]` are 64 initialised bytes without padding.
        unsafe { &*(pair as *const [Node; 2]).cast::<[u8; 64]>() }
    }
}

/// A commitment hash as the openings use it: leaves and parents written into [`Node`]s in
/// place, so no digest is moved between the hash and the level it belongs to.
pub trait NodeHash: Hasher {
    /// `out = hash(bytes)`, the leaf of a row's bytes (as [`Hasher::hash`]).
    fn leaf(bytes: &[u8], out: &mut Node);
    /// `out = merge(left, right)` (as [`Hasher::merge`]).
    fn parent(pair: &[Node; 2], out: &mut Node);
}

/// Buffers reused across openings, so a verification allocates them once.
pub struct MerkleScratch {
    /// `(leaf index, position in the leaves slice)`, sorted by index.
    sorted: Vec<(usize, usize)>,
    /// `(byte offset of first digest, number of digests)` of each node vector.
    vectors: Vec<(usize, usize)>,
    pointers: Vec<usize>,
    /// The nodes being lifted: tree indexes and nodes apart, so that two siblings next to
    /// each other are a pair the hasher reads in place.
    level_index: Vec<usize>,
    level: Vec<Node>,
    next_index: Vec<usize>,
    next: Vec<Node>,
}

impl MerkleScratch {
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

/// The bytes of digest `j` of node vector `i` and `true`, or a zero stand-in and `false`
/// when the proof has no such digest (inlined: a call returned them through memory, once
/// per node).
#[inline(always)]
fn node_bytes<'p>(
    proof: &'p [u8],
    vectors: &[(usize, usize)],
    (i, j): (usize, usize),
) -> (&'p [u8; 32], bool) {
    const STAND_IN: [u8; 32] = [0; 32];
    let found = vectors.get(i).and_then(|&(offset, count)| {
        if j < count {
            let at = offset + j * DIGEST_BYTES;
            proof.get(at..at + DIGEST_BYTES)?.try_into().ok()
        } else {
            None
        }
    });
    (found.unwrap_or(&STAND_IN), found.is_some())
}

/// The node vectors of `proof` after its depth byte (`(offset, count)` into `s.vectors`),
/// as many as it declares, each bounded by the bytes that remain: the opening's shape.
fn read_vectors(proof: &[u8], depth: u32, s: &mut MerkleScratch) -> Result<(), VerifyError> {
    let mut r = Reader::new(proof);
    if u32::from(r.u8("Merkle opening")?) != depth {
        return Err(malformed("Merkle tree depth"));
    }
    let declared = r.vint("Merkle opening")?;
    if declared > (r.remaining() as u64).saturating_add(1) {
        return Err(malformed("Merkle opening node count"));
    }
    s.vectors.clear();
    for _ in 0..declared {
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
    Ok(())
}

/// `(indexes[k], k)` sorted by index (ties by `k`) into `sorted`, each placed at its rank,
/// counted against every other entry: as many steps whatever the order (issue 46; a
/// comparison sort's steps depend on it, and the FRI layers' indexes come unsorted).
pub fn sort_by_rank(indexes: &[usize], sorted: &mut Vec<(usize, usize)>) {
    sorted.clear();
    sorted.resize(indexes.len(), (0, 0));
    for (k, &x) in indexes.iter().enumerate() {
        let mut rank = 0;
        for (j, &y) in indexes.iter().enumerate() {
            rank += usize::from(y < x) | (usize::from(y == x) & usize::from(j < k));
        }
        sorted[rank] = (x, k);
    }
}

/// Checks that `leaves[k]` is the leaf at `indexes[k]` (distinct, any order) of the tree of
/// depth `depth` with root `root` (commitment `tree`, named in a failure), using the batch
/// opening in `proof`. A mismatch is recorded in `fails`; an error is the opening's shape.
///
/// The walk is one loop of a fixed number of iterations, its budget (below): each lifts one
/// node of the walk while it lasts, then the same step on scratch nodes, so an opening costs
/// its budget whatever its indexes (issue 46; padding after the walk in a second loop left
/// about 2,000 instructions of bookkeeping that followed the indexes).
pub fn verify_batch<H: NodeHash>(
    (tree, root): (Tree, &H::Digest),
    depth: u32,
    indexes: &[usize],
    leaves: &[Node],
    proof: &[u8],
    s: &mut MerkleScratch,
    fails: &mut Failures,
) -> Result<(), VerifyError> {
    if indexes.is_empty() || indexes.len() != leaves.len() {
        return Err(malformed("Merkle opening shape"));
    }
    if depth == 0 || depth >= usize::BITS {
        return Err(malformed("Merkle tree depth"));
    }
    read_vectors(proof, depth, s)?;
    let num_leaves = 1usize << depth;

    if indexes.iter().any(|&index| index >= num_leaves) {
        return Err(malformed("Merkle leaf index out of range"));
    }
    sort_by_rank(indexes, &mut s.sorted);
    let mut num_pairs = 0;
    for k in 0..s.sorted.len() {
        if k > 0 && s.sorted[k].0 == s.sorted[k - 1].0 {
            return Err(malformed("duplicate Merkle leaf index"));
        }
        if k == 0 || s.sorted[k].0 >> 1 != s.sorted[k - 1].0 >> 1 {
            num_pairs += 1;
        }
    }
    // One node vector per sibling pair of these indexes.
    fails.check(s.vectors.len() == num_pairs, Check::MerklePath(tree));
    // The compressions a sound opening can need, whatever its indexes: from `L` leaves with
    // `S` supplied digests a pruned walk hashes `L + S - 1` nodes (each compression takes
    // two of the leaves, digests and nodes below the root), and a tree has `2^depth - 1`
    // inner nodes. An opening that has not reached the root within it lacks digests.
    let supplied: usize = s.vectors.iter().map(|&(_, count)| count).sum();
    let budget = (indexes.len() + supplied - 1).min(num_leaves - 1);

    // The leaves in index order, by tree index (the root is 1, node `i`'s children `2i`
    // and `2i + 1`), so the leaf level lifts like the ones above.
    s.level_index.clear();
    s.level.clear();
    for &(index, pos) in &s.sorted {
        s.level_index.push(num_leaves + index);
        s.level.push(leaves[pos]);
    }
    s.pointers.clear();
    s.pointers.resize(num_pairs, 0);
    s.next_index.clear();
    s.next_index.resize(num_pairs, 0);
    s.next.clear();
    s.next.resize(num_pairs, Node::default());

    let mut level = 0;
    let mut walk = Cursor {
        k: 0,
        out: 0,
        len: s.level.len(),
    };
    let mut pair = [Node::default(); 2];
    let mut dummy_fails = Failures::new();
    // Scratch for the padding: two nodes that are not a pair, so each padding step takes the
    // sibling path, reading the first digest as a real step reads its own. Set up once
    // (zeroing it every step cost about 40,000 instructions per proof, M33): only the
    // cursor and the pointers are reset each step.
    let pad_index = [2usize, 4];
    let pad_level = [Node::default(); 2];
    let mut pad_next_index = [0usize; 2];
    let mut pad_next = [Node::default(); 2];
    let mut pad_pointers = [0usize; 2];
    for _ in 0..budget {
        let live = level < depth;
        let mut pad = Cursor {
            k: 0,
            out: 0,
            len: 2,
        };
        pad_pointers[0] = 0;
        let (at, from, to, pointers, f) = if live {
            (
                &mut walk,
                (&s.level_index[..], &s.level[..]),
                (&mut s.next_index[..], &mut s.next[..]),
                &mut s.pointers[..],
                &mut *fails,
            )
        } else {
            (
                &mut pad,
                (&pad_index[..], &pad_level[..]),
                (&mut pad_next_index[..], &mut pad_next[..]),
                &mut pad_pointers[..],
                &mut dummy_fails,
            )
        };
        // At the leaf level, vector `i` serves the `i`-th sibling pair; above, the entry at
        // list position `k` (upstream's order).
        let vector = if level == 0 { at.out } else { at.k };
        let advance = lift::<H>(
            (proof, &s.vectors, tree),
            from,
            to,
            pointers,
            (at.k, at.out, vector),
            &mut pair,
            f,
        );
        at.k += advance;
        at.out += 1;
        if live && at.k >= at.len {
            core::mem::swap(&mut s.level_index, &mut s.next_index);
            core::mem::swap(&mut s.level, &mut s.next);
            s.level_index.truncate(at.out);
            s.level.truncate(at.out);
            *at = Cursor {
                k: 0,
                out: 0,
                len: s.level.len(),
            };
            level += 1;
        }
    }
    core::hint::black_box((&pad_next, &pad_next_index, &dummy_fails));

    // Every supplied digest used, one node left, and it is the root (compared word by word
    // whatever differs).
    let all_used = s
        .pointers
        .iter()
        .zip(&s.vectors)
        .fold(true, |ok, (&p, &(_, count))| ok & (p == count));
    fails.check(all_used, Check::MerklePath(tree));
    let root_node = Node::from_bytes(&root.as_bytes());
    let at_root = level == depth && s.level.len() == 1 && s.level_index[0] == 1;
    let equal = s.level.first().is_some_and(|top| {
        top.0
            .iter()
            .zip(&root_node.0)
            .fold(0u32, |d, (a, b)| d | (a ^ b))
            == 0
    });
    fails.check(at_root && equal, Check::MerklePath(tree));
    Ok(())
}

/// A walk's position in its level: entry `k` of `len`, writing slot `out`.
struct Cursor {
    k: usize,
    out: usize,
    len: usize,
}

/// Lifts the node at list position `k` of `from` (tree indexes, nodes; sorted) into slot
/// `out` of `to`: its sibling is the next entry when that is its pair, else the next digest
/// of node vector `vector` (a zero stand-in, recorded in `fails`, when the proof has none).
/// Both paths take the same steps, selected by index rather than by branch. Returns how many
/// entries it consumed.
#[inline(always)]
fn lift<H: NodeHash>(
    (proof, vectors, tree): (&[u8], &[(usize, usize)], Tree),
    (from_index, from): (&[usize], &[Node]),
    (to_index, to): (&mut [usize], &mut [Node]),
    pointers: &mut [usize],
    (k, out, vector): (usize, usize, usize),
    pair: &mut [Node; 2],
    fails: &mut Failures,
) -> usize {
    let index = from_index[k];
    let next = (k + 1).min(from_index.len() - 1);
    let paired = usize::from(from_index[next] == index ^ 1);
    let (supplied, found) = node_bytes(proof, vectors, (vector, pointers[vector]));
    fails.check(found | (paired == 1), Check::MerklePath(tree));
    let from_proof = Node::from_bytes(supplied);
    pointers[vector] += paired ^ 1;
    let side = index & 1;
    pair[side].set(&from[k]);
    pair[side ^ 1].set([&from_proof, &from[next]][paired]);
    H::parent(pair, &mut to[out]);
    to_index[out] = index >> 1;
    1 + paired
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::{Blake3, Sha256};
    use winter_crypto::{MerkleTree, VectorCommitment};
    use winter_math::fields::f64::BaseElement;
    use winter_utils::Serializable;

    /// The verdict of one opening: its shape error, else its first failed check.
    fn check<H: NodeHash>(
        root: &H::Digest,
        depth: u32,
        indexes: &[usize],
        leaves: &[Node],
        proof: &[u8],
        s: &mut MerkleScratch,
    ) -> Result<(), VerifyError> {
        let mut fails = Failures::new();
        verify_batch::<H>(
            (Tree::Trace, root),
            depth,
            indexes,
            leaves,
            proof,
            s,
            &mut fails,
        )?;
        fails.verdict()
    }

    fn nodes<H: Hasher>(digests: &[H::Digest]) -> Vec<Node> {
        digests
            .iter()
            .map(|d| Node::from_bytes(&d.as_bytes()))
            .collect()
    }

    fn agrees_with_upstream<H: NodeHash>() {
        let leaves: Vec<_> = (0..64u32).map(|i| H::hash(&i.to_le_bytes())).collect();
        let tree = MerkleTree::<H>::new(leaves.clone()).unwrap();
        let root = *tree.root();
        let mut s = MerkleScratch::with_capacity(16);
        // Siblings opened together in index order (hashed in place) and out of it.
        let sets: &[&[usize]] = &[
            &[0],
            &[63],
            &[1, 2, 3],
            &[5, 4, 40, 41, 17, 9],
            &[62, 0, 31, 32, 33],
        ];
        for &set in sets {
            let (items, proof) = tree.open_many(set).unwrap();
            let items = nodes::<H>(&items);
            let bytes = proof.to_bytes();
            check::<H>(&root, 6, set, &items, &bytes, &mut s).unwrap();
            // A wrong leaf, a wrong root, a wrong depth and every truncation are rejected.
            for k in 0..items.len() {
                let mut wrong = items.clone();
                H::leaf(b"x", &mut wrong[k]);
                assert!(check::<H>(&root, 6, set, &wrong, &bytes, &mut s).is_err());
            }
            let other_root = H::hash(b"root");
            assert!(check::<H>(&other_root, 6, set, &items, &bytes, &mut s).is_err());
            assert!(check::<H>(&root, 5, set, &items, &bytes, &mut s).is_err());
            for len in 0..bytes.len() {
                assert!(check::<H>(&root, 6, set, &items, &bytes[..len], &mut s).is_err());
            }
            let mut extra = bytes.clone();
            extra.push(0);
            assert!(check::<H>(&root, 6, set, &items, &extra, &mut s).is_err());
        }
        let (items, proof) = tree.open_many(&[3, 4]).unwrap();
        let items = nodes::<H>(&items);
        let bytes = proof.to_bytes();
        // Duplicate and out-of-range indexes are errors, not panics.
        assert!(check::<H>(&root, 6, &[3, 3], &items, &bytes, &mut s).is_err());
        assert!(check::<H>(&root, 6, &[3, 64], &items, &bytes, &mut s).is_err());
    }

    #[test]
    fn agrees_with_upstream_batch_openings_blake3() {
        agrees_with_upstream::<Blake3<BaseElement>>();
    }

    #[test]
    fn agrees_with_upstream_batch_openings_sha256() {
        agrees_with_upstream::<Sha256<BaseElement>>();
    }

    #[test]
    fn node_hashes_are_the_hashers() {
        fn check<H: NodeHash>() {
            let (a, b) = (H::hash(b"left"), H::hash(b"right"));
            let mut out = Node::default();
            H::leaf(b"left", &mut out);
            assert_eq!(out.as_bytes(), &a.as_bytes());
            let pair = [
                Node::from_bytes(&a.as_bytes()),
                Node::from_bytes(&b.as_bytes()),
            ];
            H::parent(&pair, &mut out);
            assert_eq!(out.as_bytes(), &H::merge(&[a, b]).as_bytes());
            H::parent(&[pair[1], pair[0]], &mut out);
            assert_ne!(out.as_bytes(), &H::merge(&[a, b]).as_bytes());
        }
        check::<Blake3<BaseElement>>();
        check::<Sha256<BaseElement>>();
    }
}

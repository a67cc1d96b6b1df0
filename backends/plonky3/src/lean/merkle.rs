//! The one pruned binary Merkle multi-proof walk of both lean PCS paths (upstream's
//! `verify_batch_pruned` on a one-root cap): the two-adic FRI's trees and the circle PCS's,
//! whose first-layer tree takes a shorter matrix's rows in part of the way up
//! (`inject_after`). Each node is hashed from a pair held in place and siblings are copied in
//! as words, so the MCU makes no library `memcpy` call per node.
//!
//! Run to completion (issue 46): a failed comparison is recorded in the caller's [`Failures`]
//! and the walk goes on with the same hashing, so a damaged path costs what a sound one does.
//! The supplied siblings are taken as one slice first, so a walk that needs more (query
//! indices from a transcript a damaged proof led astray) hashes a stand-in and the cursor
//! still ends after the multi-proof.

use picostark_core::{digests_equal, Check, Failures, Tree, VerifyError};

use super::bounds::MAX_QUERIES;
use super::reader::Reader;
use crate::config::ByteHash;

/// A digest of either hash (BLAKE3, SHA-256).
pub type Digest = [u8; 32];

/// A Merkle node's two children, word-aligned like the frontier.
#[repr(C, align(4))]
struct Pair([Digest; 2]);

/// `*dst = *src` for a digest at any byte offset (a sibling in the payload) as eight word
/// moves: a 32-byte copy from an unaligned source is a library `memcpy` call on the MCU.
#[inline(always)]
fn copy_words(dst: &mut Digest, src: &Digest) {
    let (d, s) = (dst.as_chunks_mut::<4>().0, src.as_chunks::<4>().0);
    d[0] = s[0];
    d[1] = s[1];
    d[2] = s[2];
    d[3] = s[3];
    d[4] = s[4];
    d[5] = s[5];
    d[6] = s[6];
    d[7] = s[7];
}

/// The position of each query in index order (ties in query order), counted for every pair
/// of queries, so the steps do not depend on the order. Folding shifts every index right by
/// the same amount, so one order serves every tree of the two-adic path.
pub fn sorted_positions(indices: &[usize]) -> [u8; MAX_QUERIES] {
    let mut pos = [0u8; MAX_QUERIES];
    for (k, p) in pos[..indices.len()].iter_mut().enumerate() {
        let mut before = 0u8;
        for (j, &x) in indices.iter().enumerate() {
            before += u8::from(x < indices[k]) | (u8::from(x == indices[k]) & u8::from(j < k));
        }
        *p = before;
    }
    pos
}

/// Verifies the multi-proof of `leaves` (`(index, digest)`, sorted by index, possibly
/// repeated: repeats must carry the same digest, as upstream compares their rows) in a tree
/// of `2^depth` leaves against `root` (commitment `tree`, named in a rejection), reading its
/// siblings from `r`; failed checks go to `fails`.
pub fn verify_sorted<H: ByteHash>(
    compress: &H::Compress,
    tree: Tree,
    root: &Digest,
    depth: usize,
    leaves: &mut [(usize, Digest)],
    r: &mut Reader<'_>,
    fails: &mut Failures,
) -> Result<(), VerifyError> {
    let mut n = 0;
    for i in 0..leaves.len() {
        if n > 0 && leaves[n - 1].0 >= leaves[i].0 {
            if leaves[n - 1].0 > leaves[i].0 {
                return Err(VerifyError::Unsupported("Merkle leaves out of order"));
            }
            fails.check(
                digests_equal(&leaves[n - 1].1, &leaves[i].1),
                Check::RepeatedQuery(tree),
            );
            continue;
        }
        if n != i {
            leaves[n] = leaves[i];
        }
        n += 1;
    }
    let walk_in = WalkIn {
        tree,
        root,
        depth,
        inject_after: 0,
        queries: leaves.len(),
    };
    walk::<H, false>(compress, &walk_in, &mut leaves[..n], &mut [], r, fails)
}

/// Verifies the multi-proof of the leaves at `index` (in query order, possibly repeated)
/// against `root` (commitment `tree`, named in a rejection). `leaf(k)` hashes query `k`'s rows (the tallest matrices') and, with
/// `inject_after = Some(l)`, the shorter matrix's rows, which enter after compression level
/// `l` as `compress(node, injected)`; it is called once per query, repeats included (their
/// digests are dropped), so the hashing does not depend on how many indices repeat. `same(a, b)` says whether two queries opened identical rows: repeated indices
/// must. Queries merged into one node before an injection must have opened the same shorter
/// row (equal injected digests); their tallest rows differ. `nodes` and, with an injection,
/// `injected` are the caller's scratch, at least one entry per query. Failed checks go to
/// `fails`.
#[allow(clippy::too_many_arguments)]
pub fn verify_queries<H: ByteHash>(
    compress: &H::Compress,
    tree: Tree,
    root: &Digest,
    depth: usize,
    inject_after: Option<usize>,
    index: &[usize],
    mut leaf: impl FnMut(usize) -> (Digest, Digest),
    same: impl Fn(usize, usize) -> bool,
    nodes: &mut [(usize, Digest)],
    injected: &mut [Digest],
    r: &mut Reader<'_>,
    fails: &mut Failures,
) -> Result<(), VerifyError> {
    let q = index.len();
    if q > MAX_QUERIES || nodes.len() < q || (inject_after.is_some() && injected.len() < q) {
        return Err(VerifyError::Unsupported(
            "query count beyond the lean verifier's bounds",
        ));
    }
    // Queries sorted by index (a permutation: no rows move), by rank, with as many steps
    // whatever the order.
    let mut order = [0u8; MAX_QUERIES];
    for (k, &p) in sorted_positions(index).iter().take(q).enumerate() {
        order[p as usize] = k as u8;
    }
    // The first query of each distinct index (`lead`) is hashed; repeats must equal it.
    let mut lead = 0;
    let mut n = 0;
    // A repeat and a new index take the same steps (how many queries repeat depends on
    // the indices): a repeat's leaf is written to the next free slot and not kept.
    for &k in &order[..q] {
        let k = k as usize;
        let repeat = n > 0 && nodes[n - 1].0 == index[k];
        fails.check(same(lead, k) | !repeat, Check::RepeatedQuery(tree));
        let (digest, shorter) = leaf(k);
        nodes[n] = (index[k], digest);
        if inject_after.is_some() {
            injected[n] = shorter;
        }
        lead = [k, lead][usize::from(repeat)];
        n += usize::from(!repeat);
    }
    let walk_in = WalkIn {
        tree,
        root,
        depth,
        inject_after: inject_after.unwrap_or(0),
        queries: q,
    };
    match inject_after {
        Some(_) => walk::<H, true>(
            compress,
            &walk_in,
            &mut nodes[..n],
            &mut injected[..n],
            r,
            fails,
        ),
        None => walk::<H, false>(compress, &walk_in, &mut nodes[..n], &mut [], r, fails),
    }
}

/// The tree a walk checks: its commitment (named `tree` in a rejection), depth, and the
/// level after which a shorter matrix's rows join (with an injection).
struct WalkIn<'a> {
    tree: Tree,
    root: &'a Digest,
    depth: usize,
    inject_after: usize,
    /// The query count (repeats included): with the supplied siblings, it bounds the
    /// compressions a sound proof needs, independently of the indices.
    queries: usize,
}

/// A missing sibling's stand-in.
const STAND_IN: Digest = [0; 32];

/// One node of a walk: `nodes[i]` (of `n` at this level) with its sibling, which is the next
/// node when that is its pair, else the next supplied sibling (`siblings[*used]`, a zero
/// stand-in past them), hashed into `nodes[out]`. Both paths take the same
/// steps, selected by index rather than by branch, so a walk's cost is its count of nodes
/// whatever their shape (issue 46). Returns how many nodes it consumed, and whether two
/// paired nodes carry the same injected digest (with `INJECT`; true when unpaired).
#[inline(always)]
fn step<H: ByteHash, const INJECT: bool>(
    compress: &H::Compress,
    (nodes, injected): (&mut [(usize, Digest)], &mut [Digest]),
    (i, n, out): (usize, usize, usize),
    (siblings, used): (&[[u8; 32]], &mut usize),
    pair: &mut Pair,
) -> (usize, bool) {
    let idx = nodes[i].0;
    // The next node (this one when it is the last): its pair only if it is `idx ^ 1`.
    let next = (i + 1).min(n - 1);
    let paired = usize::from(nodes[next].0 == idx ^ 1);
    let supplied = siblings.get(*used).unwrap_or(&STAND_IN);
    let side = idx & 1;
    // Both halves as word moves: a digest assigned to a slot chosen at run time is a
    // `memcpy` call on Hazard3.
    copy_words(&mut pair.0[side], &nodes[i].1);
    copy_words(&mut pair.0[side ^ 1], [supplied, &nodes[next].1][paired]);
    *used += paired ^ 1;
    // Compared on either path (unpaired, the answer is not needed).
    let same = !INJECT || (digests_equal(&injected[i], &injected[next]) | (paired == 0));
    if INJECT {
        injected[out] = injected[i];
    }
    nodes[out].0 = idx >> 1;
    H::compress_pair_into(compress, &pair.0, &mut nodes[out].1);
    (1 + paired, same)
}

/// The walk up from `nodes` (distinct indexes in increasing order, with their digests): a
/// node whose sibling is not on the frontier takes it from the proof, every supplied sibling
/// must be used, and the one node left must be the root. With `INJECT`, `injected` (one per
/// node) rides along and joins after level `inject_after`; without, both are ignored, and
/// the two-adic trees' walk compiles as if the injection did not exist (a run-time flag cost
/// them +0.6 % instructions, emulator). A missing sibling is a zero digest, and every
/// comparison is recorded in `fails`, so the hashing is the same whatever fails.
///
/// The walk is one loop of a fixed number of iterations, its budget (below): each is a step
/// (or an injection) of the walk while it lasts, then the same step on scratch nodes, so a
/// walk costs its budget whatever the indices (issue 46; padding after the walk in a second
/// loop left about 2,000 instructions of bookkeeping that followed the indices).
fn walk<H: ByteHash, const INJECT: bool>(
    compress: &H::Compress,
    w: &WalkIn<'_>,
    nodes: &mut [(usize, Digest)],
    injected: &mut [Digest],
    r: &mut Reader<'_>,
    fails: &mut Failures,
) -> Result<(), VerifyError> {
    let supplied = r.seq_len()?;
    let siblings = r.take(supplied.checked_mul(32).ok_or(super::reader::MALFORMED)?)?;
    let siblings = siblings.as_chunks::<32>().0;
    let n = nodes.len();
    if n == 0 || nodes[n - 1].0 >> w.depth != 0 {
        return Err(VerifyError::Unsupported("a query index outside its tree"));
    }
    // The compressions a sound proof can need, whatever its indices: a pruned walk from `L`
    // distinct leaves with `S` siblings takes `L + S - 1` steps (each compression takes two
    // of the leaves, siblings and nodes below the root), `L` is at most the query count,
    // and no tree has more than `2^depth - 1` inner nodes; an injection hashes once per node
    // at its level. A walk that has not reached the root within the budget lacks siblings
    // and fails `MerkleSiblings`.
    let step_budget = (w.queries + supplied)
        .saturating_sub(1)
        .min((1usize << w.depth) - 1);
    let inject_budget = if INJECT {
        w.queries
            .min(1 << w.depth.saturating_sub(w.inject_after + 1))
    } else {
        0
    };
    // The walk's position: level, node, output slot and nodes at this level; `injecting`
    // after the level `inject_after`.
    let mut walk = Cursor { i: 0, n, out: 0 };
    let mut level = 0;
    let mut injecting = false;
    let mut used = 0usize;
    let mut steps = 0usize;
    // Scratch for the padding: two nodes that are not a pair, so each padding step takes
    // the sibling path, reading the first supplied sibling as a real step reads its own.
    let mut scratch = [(0usize, [0u8; 32]), (2, [0u8; 32])];
    let mut scratch_injected = [[0u8; 32]; 2];
    let mut dummy_fails = Failures::new();
    let mut pair = Pair([[0u8; 32]; 2]);
    for _ in 0..step_budget + inject_budget {
        let live = level < w.depth;
        let mut pad = Cursor { i: 0, n: 2, out: 0 };
        let mut spare = 0;
        let (ns, inj, at, cursor, f) = if live {
            (
                &mut *nodes,
                &mut *injected,
                &mut walk,
                &mut used,
                &mut *fails,
            )
        } else {
            (
                &mut scratch[..],
                &mut scratch_injected[..],
                &mut pad,
                &mut spare,
                &mut dummy_fails,
            )
        };
        if INJECT
            && (if live {
                injecting
            } else {
                steps >= step_budget
            })
        {
            // The shorter matrix's row joins: `node = compress(node, injected)`.
            pair.0[0] = ns[at.i].1;
            pair.0[1] = inj[at.i];
            H::compress_pair_into(compress, &pair.0, &mut ns[at.i].1);
            at.i += 1;
            if live && at.i == at.n {
                injecting = false;
                at.i = 0;
                level += 1;
            }
            continue;
        }
        // Below the injection, siblings share the shorter matrix's row.
        let shared_below = INJECT && level <= w.inject_after;
        let (advance, same) = step::<H, INJECT>(
            compress,
            (ns, inj),
            (at.i, at.n, at.out),
            (siblings, cursor),
            &mut pair,
        );
        if INJECT {
            f.check(!shared_below || same, Check::MerklePath(w.tree));
        }
        steps += 1;
        at.i += advance;
        at.out += 1;
        if live && at.i >= at.n {
            at.n = at.out;
            at.i = 0;
            at.out = 0;
            if INJECT && level == w.inject_after {
                injecting = true;
            } else {
                level += 1;
            }
        }
    }
    core::hint::black_box((&scratch, &dummy_fails));
    fails.check(
        level == w.depth && steps <= step_budget,
        Check::MerkleSiblings(w.tree),
    );
    fails.check(used == supplied, Check::MerkleSiblings(w.tree));
    fails.check(
        walk.n == 1 && digests_equal(&nodes[0].1, w.root),
        Check::MerklePath(w.tree),
    );
    Ok(())
}

/// A walk's position in its level: node `i` of `n`, writing slot `out`.
struct Cursor {
    i: usize,
    n: usize,
    out: usize,
}

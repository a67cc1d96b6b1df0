//! Merkle membership with a nullifier (the statement of a post-quantum Semaphore-style
//! identity proof): "I know an identity whose leaf is in the tree with this root, this
//! nullifier is the hash of that identity and this scope, and I bind this signal to this
//! scope", one Poseidon2 permutation per row.
//!
//! # Hash
//!
//! Poseidon2 over the backend's base field ([`crate::poseidon2`], the instance and its
//! constants supplied by the backend through [`Poseidon2Instance`]), used as a 2-to-1
//! compression with a domain tag: `H_t(a, b)` = the first `DIGEST` words of
//! `P([a, b, 0.., t])`, where `a, b` fill the rate (`2 * DIGEST` words) and the capacity's
//! last word holds the role's tag `t`: [`TAG_NULLIFIER`], [`TAG_LEAF`], [`TAG_NODE`] or
//! [`TAG_BINDING`]. The capacity is not in the trace: each row's permutation constraints
//! read zeros and the tag that the row's one-hot kind selects, so no row can hash under
//! another role's tag. Two roles never hash the same permutation input, so a nullifier is
//! never a leaf or a node of the tree (for any scope), and a leaf is never an inner node.
//! Digest widths, set by each backend's instance (`2 * DIGEST + 1 <= W`, so that two digests
//! and the tag fit):
//!
//! - BabyBear and Mersenne-31, width 24: 9 words (`9 * 30.9 = 278` and `9 * 31 = 279`
//!   bits), 139 bits of generic collision resistance, so the permutation's own 128 bits bind.
//! - Goldilocks, width 12: 4 words (256 bits), 127 bits (`4 * log2 p / 2`, rounded down).
//!
//! [`AirDef::statement_hash`] declares that figure ([`Poseidon2Instance::collision_bits`]);
//! a proof of this statement claims no more than it under any regime (`core::security`).
//!
//! # Rows
//!
//! With depth `D` (default [`DEFAULT_DEPTH`]) the trace has `n >= D + 4` rows (a power of
//! two; 16 for D = 10):
//!
//! | row | kind | permutation input | constrained output |
//! |---|---|---|---|
//! | 0 | nullifier (`N`) | `[id, scope, 0.., TAG_NULLIFIER]` | first `DIGEST` words = public nullifier |
//! | 1 | leaf (`L`) | `[id, 0.., TAG_LEAF]` (`id` equal to row 0's) | |
//! | 2 ..= D + 1 | hop (`H`) | `[prev, sibling, 0.., TAG_NODE]` or `[sibling, prev, 0.., TAG_NODE]` by the row's direction bit | row D + 1: = public root |
//! | D + 2 | binding (`B`) | `[scope, signal, 0.., TAG_BINDING]` | |
//! | rest | padding (`P`) | `[anything, 0..]` (tag 0) | |
//!
//! where `prev` is the previous row's output digest. Public inputs, `DIGEST` words each, in
//! this order: root, nullifier, signal hash, scope hash. The identity, the siblings and the
//! direction bits are the witness.
//!
//! # Columns
//!
//! `in[2 * DIGEST]` (the permutation input's rate), then the cells of one permutation
//! ([`Poseidon2Params::committed`]: the state after each full round and the S-box output of
//! each partial round; the output is the last `W`), then six control columns: the direction
//! bit, the one-hot row kind `N`, `L`, `H`, `B` (padding is all four zero), and a hop counter.
//! BabyBear-24 (4 + 4 full rounds, 21 partial) gives 18 + 192 + 21 + 6 = 237 columns;
//! Mersenne-31-24 (22 partial) 238; Goldilocks-12 (4 + 4 full, 22 partial) 8 + 96 + 22 + 6 =
//! 132.
//!
//! # Degree
//!
//! No S-box register columns: each committed state is the S-box of a linear function of the
//! previous one, so permutation constraints have the S-box's degree (7 for BabyBear and
//! Goldilocks, 5 for Mersenne-31) and everything else at most 3. Plonky3 sizes the quotient
//! from the prover's degree hint (that degree plus one for the transition selector), so 8
//! quotient chunks, which needs log blowup >= 3 (winterfell likewise needs a blowup of 8 for
//! degree 7); the default parameters have it. One S-box register per S-box (the layout of
//! Plonky3's `p3-poseidon2-air`, 298 columns for BabyBear-16) would keep degree 3 and 4
//! chunks, but every query would open almost twice the values, which is what a verifier
//! pays for. All constraints are transitions (rows 0 .. n-2)
//! so that every backend can state them; the last row is padding and only its kind flags are
//! pinned (to zero, by boundary constraints). The row kinds are sequenced by transitions
//! (`N -> L -> H .. H -> B -> P .. P`, `N` only on row 0) and the hop counter must read `D` when
//! the hops end, so the path has exactly `D` hops.

use alloc::vec;
use alloc::vec::Vec;
use core::marker::PhantomData;
use core::ops::{Add, Mul, Sub};

use crate::poseidon2::{Poseidon2Instance, Poseidon2Params};
use crate::{AirDef, AirId, Algebra, Boundary, BoundaryValue, Frame, Row, Trace};

/// The benchmark's tree depth.
pub const DEFAULT_DEPTH: usize = 10;

/// Control columns after the permutation's.
const CONTROL: usize = 6;

/// Domain tag of the nullifier hash `H(id, scope)`, in the state's last word.
pub const TAG_NULLIFIER: u64 = 1;
/// Domain tag of the leaf hash `H(id)`.
pub const TAG_LEAF: u64 = 2;
/// Domain tag of a Merkle node `H(left, right)`.
pub const TAG_NODE: u64 = 3;
/// Domain tag of the signal binding `H(scope, signal)`.
pub const TAG_BINDING: u64 = 4;

/// The statement's secret and public data, canonical field values (below every modulus
/// here when made by [`Witness::demo`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Witness {
    /// The identity, `DIGEST` words.
    pub identity: Vec<u64>,
    /// The scope hash, `DIGEST` words.
    pub scope: Vec<u64>,
    /// The signal hash, `DIGEST` words.
    pub signal: Vec<u64>,
    /// One sibling per level, leaf level first, `DIGEST` words each.
    pub siblings: Vec<Vec<u64>>,
    /// The leaf's index: bit `k` set means the running digest is the right input at level `k`.
    pub index: u64,
}

impl Witness {
    /// A fixed witness for benchmarks and tests: words from a 64-bit mixer, masked to 28 bits
    /// so that they are canonical in every field here.
    pub fn demo(digest: usize, depth: usize) -> Witness {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            (z ^ (z >> 31)) & 0x0FFF_FFFF
        };
        let mut words = |k: usize| (0..k).map(|_| next()).collect::<Vec<u64>>();
        let identity = words(digest);
        let scope = words(digest);
        let signal = words(digest);
        let siblings = (0..depth).map(|_| words(digest)).collect();
        Witness {
            identity,
            scope,
            signal,
            siblings,
            index: 0b10_1100_1110 & ((1u64 << depth.min(63)) - 1),
        }
    }
}

/// The membership AIR over the Poseidon2 instance `P`.
pub struct Membership<P> {
    params: Poseidon2Params,
    digest: usize,
    depth: usize,
    degrees: Vec<usize>,
    witness: Witness,
    _instance: PhantomData<fn() -> P>,
}

impl<P: Poseidon2Instance> Default for Membership<P> {
    fn default() -> Self {
        Membership::new(DEFAULT_DEPTH)
    }
}

impl<P: Poseidon2Instance> Clone for Membership<P> {
    fn clone(&self) -> Self {
        Membership {
            params: self.params.clone(),
            digest: self.digest,
            depth: self.depth,
            degrees: self.degrees.clone(),
            witness: self.witness.clone(),
            _instance: PhantomData,
        }
    }
}

/// Column indices of one instance.
#[derive(Clone, Copy)]
struct Cols {
    width: usize,
    /// The permutation input's rate words in the trace (two digests).
    rate: usize,
    committed: usize,
    out: usize,
    bit: usize,
    n: usize,
    l: usize,
    h: usize,
    b: usize,
    depth: usize,
}

impl<P: Poseidon2Instance> Membership<P> {
    /// The AIR for paths of `depth` hops (at least 1), with the demo witness.
    ///
    /// # Panics
    /// If the instance is malformed or two digests and the tag do not fit its state (a bug in the
    /// backend's [`Poseidon2Instance`], not an input).
    pub fn new(depth: usize) -> Self {
        let params = P::params();
        let digest = P::DIGEST;
        assert!(params.is_well_formed(), "malformed Poseidon2 instance");
        assert!(
            digest >= 1 && 2 * digest < params.width,
            "two digests and the domain tag must fit the state"
        );
        assert!(depth >= 1, "depth must be at least 1");
        let mut air = Membership {
            params,
            digest,
            depth,
            degrees: Vec::new(),
            witness: Witness::demo(digest, depth),
            _instance: PhantomData,
        };
        air.degrees = air.measure_degrees();
        air
    }

    /// The same AIR proving another witness (its vectors must be `DIGEST` words, one
    /// sibling per level).
    pub fn with_witness(mut self, witness: Witness) -> Self {
        self.witness = witness;
        self
    }

    /// The Poseidon2 instance.
    pub fn params(&self) -> &Poseidon2Params {
        &self.params
    }

    /// Digest width in field elements.
    pub fn digest(&self) -> usize {
        self.digest
    }

    /// Hops in the path.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// The smallest trace length this depth fits in.
    pub fn min_rows(&self) -> usize {
        (self.depth + 4).next_power_of_two().max(8)
    }

    fn cols(&self) -> Cols {
        let w = self.params.width;
        let rate = 2 * self.digest;
        let committed = rate;
        let bit = rate + self.params.committed_cells();
        Cols {
            width: bit + CONTROL,
            rate,
            committed,
            out: bit - w,
            bit,
            n: bit + 1,
            l: bit + 2,
            h: bit + 3,
            b: bit + 4,
            depth: bit + 5,
        }
    }

    /// Each constraint's degree, read off by evaluating the constraints over [`Deg`].
    fn measure_degrees(&self) -> Vec<usize> {
        let width = self.cols().width;
        let row = vec![Deg(1); width];
        let public = vec![Deg(0); 4 * self.digest];
        let frame = Frame {
            local: &row,
            next: &row,
            public: &public,
            constant: &|_| Deg(0),
        };
        let mut degrees = Vec::new();
        self.eval_transition(&frame, &mut |d: Deg| degrees.push(d.0));
        degrees
    }
}

impl<P: Poseidon2Instance> AirDef for Membership<P> {
    const NAME: &'static str = "membership";

    fn id(&self) -> AirId {
        AirId::Membership
    }

    fn width(&self) -> usize {
        self.cols().width
    }

    fn num_public_inputs(&self) -> usize {
        4 * self.digest
    }

    fn transition_degrees(&self) -> &[usize] {
        &self.degrees
    }

    fn eval_transition<E: Algebra>(&self, frame: &Frame<'_, E>, emit: &mut dyn FnMut(E)) {
        let k = self.cols();
        let (w, d) = (self.params.width, self.digest);
        let (local, next, c) = (frame.local, frame.next, frame.constant);
        let public = |i: usize| frame.public.get(i).cloned().unwrap_or_else(|| c(0));
        let (root, nullifier, signal, scope) = (0, d, 2 * d, 3 * d);
        let one = c(1);

        let kind = |row: &[E]| {
            [
                row[k.n].clone(),
                row[k.l].clone(),
                row[k.h].clone(),
                row[k.b].clone(),
            ]
        };
        let [ln, ll, lh, lb] = kind(local);

        // The permutation of this row, on `[rate, 0.., tag]`: the capacity is not in the
        // trace, its last word is the role's tag as the row's one-hot kind says (0 on
        // padding), so no row hashes under another role's tag.
        let tag = ln.clone() * c(TAG_NULLIFIER)
            + ll.clone() * c(TAG_LEAF)
            + lh.clone() * c(TAG_NODE)
            + lb.clone() * c(TAG_BINDING);
        let mut state = local[..k.rate].to_vec();
        state.resize(w - 1, c(0));
        state.push(tag);
        self.params
            .eval(&state, &local[k.committed..k.bit], c, emit);

        // Booleans and the one-hot row kind (padding = all four zero).
        let bit = local[k.bit].clone();
        emit(bit.clone() * (bit.clone() - one.clone()));
        let [nn, nl, nh, nb] = kind(next);
        for f in [&ln, &ll, &lh, &lb] {
            emit(f.clone() * (f.clone() - one.clone()));
        }
        let local_sum = ln.clone() + ll.clone() + lh.clone() + lb.clone();
        let next_sum = nn.clone() + nl.clone() + nh.clone() + nb.clone();
        emit(local_sum.clone() * (local_sum.clone() - one.clone()));
        // The direction bit is zero off hop rows (one trace per statement and witness).
        emit((one.clone() - lh.clone()) * bit);

        // Sequencing: N only first, N -> L -> H .. H -> B -> P .. P.
        emit(nn);
        emit(ln.clone() * (one.clone() - nl));
        emit(ll.clone() * (one.clone() - nh.clone()));
        emit(lh.clone() * (one.clone() - nh.clone() - nb.clone()));
        emit(lb.clone() * next_sum.clone());
        emit((one.clone() - local_sum) * next_sum);

        // The hop counter: +1 on every hop row, D when the hops end.
        let depth = local[k.depth].clone();
        emit(next[k.depth].clone() - depth.clone() - nh.clone());
        let leaving = lh.clone() * nb;
        emit(leaving.clone() * (depth - c(self.depth as u64)));

        let input = |row: &[E], i: usize| row[i].clone();
        let out = |row: &[E], i: usize| row[k.out + i].clone();

        // Nullifier row: [id, scope, 0.., TAG_NULLIFIER] -> nullifier.
        for j in 0..d {
            emit(ln.clone() * (input(local, d + j) - public(scope + j)));
            emit(ln.clone() * (out(local, j) - public(nullifier + j)));
            // The leaf row hashes the same identity.
            emit(ln.clone() * (input(next, j) - input(local, j)));
        }
        // Leaf row: [id, 0.., TAG_LEAF].
        for j in d..2 * d {
            emit(ll.clone() * input(local, j));
        }
        // Into a hop row: the previous output on the side the next row's bit says.
        let next_bit = next[k.bit].clone();
        let left = nh.clone() * (one.clone() - next_bit.clone());
        let right = nh.clone() * next_bit;
        for j in 0..d {
            emit(left.clone() * (input(next, j) - out(local, j)));
            emit(right.clone() * (input(next, d + j) - out(local, j)));
            // The last hop's output is the root.
            emit(leaving.clone() * (out(local, j) - public(root + j)));
        }
        // Binding row: [scope, signal, 0.., TAG_BINDING].
        for j in 0..d {
            emit(lb.clone() * (input(local, j) - public(scope + j)));
            emit(lb.clone() * (input(local, d + j) - public(signal + j)));
        }
    }

    fn statement_hash(&self) -> Option<(u32, &'static str)> {
        Some((P::collision_bits(), P::NAME))
    }

    fn boundaries(&self) -> Vec<Boundary> {
        let k = self.cols();
        let pin = |column, row, v| Boundary {
            column,
            row,
            value: BoundaryValue::Constant(v),
        };
        vec![
            pin(k.n, Row::First, 1),
            pin(k.depth, Row::First, 0),
            pin(k.n, Row::Last, 0),
            pin(k.l, Row::Last, 0),
            pin(k.h, Row::Last, 0),
            pin(k.b, Row::Last, 0),
        ]
    }

    fn generate_trace<F>(&self, n: usize, from_u64: impl Fn(u64) -> F) -> Trace<F>
    where
        F: Copy + Add<Output = F> + Sub<Output = F> + Mul<Output = F>,
    {
        let (rows, public_inputs) = self.plan(n, &from_u64);
        self.assemble(&rows, public_inputs, &from_u64)
    }
}

/// A row's kind, in the order of its one-hot flags (padding sets none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Nullifier,
    Leaf,
    Hop,
    Binding,
    Padding,
}

/// One row before its permutation is computed: the permutation input, the direction bit,
/// the kind and the hop counter.
#[derive(Clone, Debug)]
struct RowPlan<F> {
    input: Vec<F>,
    bit: u64,
    kind: Kind,
    depth: usize,
}

impl<P: Poseidon2Instance> Membership<P> {
    /// `[a, b, 0.., tag]`: a role's permutation input.
    fn input<F: Copy>(&self, a: &[F], b: &[F], tag: F, zero: F) -> Vec<F> {
        let w = self.params.width;
        let mut state = Vec::with_capacity(w);
        state.extend_from_slice(a);
        state.extend_from_slice(b);
        state.resize(w - 1, zero);
        state.push(tag);
        state
    }

    /// The first `DIGEST` words of the permutation of `input`.
    fn digest_of<F>(&self, input: &[F], from_u64: &dyn Fn(u64) -> F) -> Vec<F>
    where
        F: Copy + Add<Output = F> + Sub<Output = F> + Mul<Output = F>,
    {
        let mut state = input.to_vec();
        self.params.permute(&mut state, from_u64);
        state.truncate(self.digest);
        state
    }

    /// The rows of the witness's trace of length `n`, and its public inputs.
    fn plan<F>(&self, n: usize, from_u64: &dyn Fn(u64) -> F) -> (Vec<RowPlan<F>>, Vec<F>)
    where
        F: Copy + Add<Output = F> + Sub<Output = F> + Mul<Output = F>,
    {
        assert!(
            n.is_power_of_two() && n >= self.min_rows(),
            "n must be a power of two >= max(8, depth + 4)"
        );
        let d = self.digest;
        let wit = &self.witness;
        assert!(
            wit.identity.len() == d
                && wit.scope.len() == d
                && wit.signal.len() == d
                && wit.siblings.len() == self.depth
                && wit.siblings.iter().all(|s| s.len() == d),
            "witness does not fit the AIR"
        );
        let f = |v: &[u64]| v.iter().map(|&x| from_u64(x)).collect::<Vec<F>>();
        let (zero, tag) = (from_u64(0), |t: u64| from_u64(t));
        let (id, scope, signal) = (f(&wit.identity), f(&wit.scope), f(&wit.signal));
        let row = |input: Vec<F>, bit: u64, kind: Kind, depth: usize| RowPlan {
            input,
            bit,
            kind,
            depth,
        };

        let mut rows = Vec::with_capacity(n);
        let null_in = self.input(&id, &scope, tag(TAG_NULLIFIER), zero);
        let nullifier = self.digest_of(&null_in, from_u64);
        rows.push(row(null_in, 0, Kind::Nullifier, 0));
        let leaf_in = self.input(&id, &[], tag(TAG_LEAF), zero);
        let mut node = self.digest_of(&leaf_in, from_u64);
        rows.push(row(leaf_in, 0, Kind::Leaf, 0));
        for (level, sibling) in wit.siblings.iter().enumerate() {
            let bit = (wit.index >> level) & 1;
            let sibling = f(sibling);
            let (l, r) = if bit == 1 {
                (&sibling, &node)
            } else {
                (&node, &sibling)
            };
            let hop_in = self.input(l, r, tag(TAG_NODE), zero);
            node = self.digest_of(&hop_in, from_u64);
            rows.push(row(hop_in, bit, Kind::Hop, level + 1));
        }
        let bind_in = self.input(&scope, &signal, tag(TAG_BINDING), zero);
        rows.push(row(bind_in, 0, Kind::Binding, self.depth));
        while rows.len() < n {
            let pad = vec![zero; self.params.width];
            rows.push(row(pad, 0, Kind::Padding, self.depth));
        }
        let public_inputs = [node, nullifier, signal, scope].concat();
        (rows, public_inputs)
    }

    /// The trace of planned rows: each row's input, its permutation's cells and its control
    /// columns.
    fn assemble<F>(
        &self,
        rows: &[RowPlan<F>],
        public_inputs: Vec<F>,
        from_u64: &dyn Fn(u64) -> F,
    ) -> Trace<F>
    where
        F: Copy + Add<Output = F> + Sub<Output = F> + Mul<Output = F>,
    {
        let width = self.cols().width;
        let mut values = Vec::with_capacity(rows.len() * width);
        for r in rows {
            values.extend_from_slice(&r.input[..2 * self.digest]);
            values.extend(self.params.committed(&r.input, from_u64));
            values.push(from_u64(r.bit));
            for flag in [Kind::Nullifier, Kind::Leaf, Kind::Hop, Kind::Binding] {
                values.push(from_u64(u64::from(r.kind == flag)));
            }
            values.push(from_u64(r.depth as u64));
        }
        Trace {
            width,
            values,
            public_inputs,
        }
    }
}

/// A value's degree as a polynomial in the trace cells: evaluating the constraints over
/// `Deg` (cells 1, constants 0) gives each constraint's degree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Deg(usize);

impl Add for Deg {
    type Output = Deg;
    fn add(self, o: Deg) -> Deg {
        Deg(self.0.max(o.0))
    }
}

impl Sub for Deg {
    type Output = Deg;
    fn sub(self, o: Deg) -> Deg {
        Deg(self.0.max(o.0))
    }
}

impl Mul for Deg {
    type Output = Deg;
    // Degrees add under multiplication.
    #[allow(clippy::suspicious_arithmetic_impl)]
    fn mul(self, o: Deg) -> Deg {
        Deg(self.0 + o.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check_trace;
    use crate::test_field::Bb;
    use picostark_core::FieldId;

    /// A width-16, x^7 instance over BabyBear with made-up constants and 7-word digests (the
    /// real ones live in `picostark-poseidon2`, with their known-answer tests).
    struct Toy;

    const TOY_DIGEST: usize = 7;

    impl Poseidon2Instance for Toy {
        const NAME: &'static str = "toy Poseidon2 BabyBear-16";
        const DIGEST: usize = TOY_DIGEST;
        const FIELD: FieldId = FieldId::BabyBear;
        const PERMUTATION_BITS: u32 = 128;
        fn params() -> Poseidon2Params {
            let mut x = 7u64;
            let mut next = move || {
                x = x * 48_271 % Bb::P;
                x
            };
            let mut rows = |r: usize| (0..r).map(|_| (0..16).map(|_| next()).collect()).collect();
            let external_initial = rows(4);
            let external_terminal = rows(4);
            Poseidon2Params {
                width: 16,
                sbox_degree: 7,
                m4: [[2, 3, 1, 1], [1, 2, 3, 1], [1, 1, 2, 3], [3, 1, 1, 2]],
                internal_diag: (0..16).map(|i| i + 2).collect(),
                external_initial,
                internal: (0..13).map(|i| 1000 + i).collect(),
                external_terminal,
            }
        }
    }

    const D: usize = TOY_DIGEST;
    const PUBLIC: usize = 4 * D;

    fn air() -> Membership<Toy> {
        Membership::new(DEFAULT_DEPTH)
    }

    fn c(v: u64) -> Bb {
        Bb(v % Bb::P)
    }

    /// `H_tag(l, r)`: the first `D` words of `P([l, r, 0.., tag])`.
    fn hash(l: &[Bb], r: &[Bb], tag: u64) -> Vec<Bb> {
        let mut s = [l, r].concat();
        s.resize(15, Bb(0));
        s.push(Bb(tag));
        Toy::params().permute(&mut s, &c);
        s[..D].to_vec()
    }

    fn words(v: &[u64]) -> Vec<Bb> {
        v.iter().map(|&y| Bb(y)).collect()
    }

    #[test]
    fn shape() {
        let a = air();
        // Only the rate (two digests) of each permutation input is in the trace.
        assert_eq!(a.width(), 2 * D + 8 * 16 + 13 + 6);
        assert_eq!(a.num_public_inputs(), PUBLIC);
        assert_eq!(a.min_rows(), 16);
        assert_eq!(a.transition_degrees().iter().max(), Some(&7));
        // 141 permutation cells, 7 on booleans, 6 sequencing, 2 counter; 3 x 7 words on the
        // nullifier row, 7 zero words on the leaf row, 3 x 7 into and out of hops, 2 x 7 on
        // the binding row.
        assert_eq!(
            a.transition_degrees().len(),
            141 + 7 + 6 + 2 + 3 * D + D + 3 * D + 2 * D
        );
        // 7 words of BabyBear: 7 * 30.906 / 2 = 108 bits, below the permutation's 128.
        assert_eq!(a.statement_hash(), Some((108, Toy::NAME)));
    }

    #[test]
    fn trace_satisfies_the_air() {
        let a = air();
        for n in [16, 32] {
            let t = a.generate_trace(n, Bb);
            assert_eq!(t.height(), n);
            assert_eq!(t.public_inputs.len(), PUBLIC);
            check_trace(&a, &t, Bb).unwrap();
        }
        let shallow = Membership::<Toy>::new(3);
        check_trace(&shallow, &shallow.generate_trace(8, Bb), Bb).unwrap();
    }

    #[test]
    fn rows_hash_what_the_table_says() {
        let a = air();
        let t = a.generate_trace(16, Bb);
        let wit = Witness::demo(D, DEFAULT_DEPTH);
        let mut node = hash(&words(&wit.identity), &[], TAG_LEAF);
        for (level, s) in wit.siblings.iter().enumerate() {
            node = if (wit.index >> level) & 1 == 1 {
                hash(&words(s), &node, TAG_NODE)
            } else {
                hash(&node, &words(s), TAG_NODE)
            };
        }
        let public = &t.public_inputs;
        assert_eq!(&public[..D], &node[..]);
        let nullifier = hash(&words(&wit.identity), &words(&wit.scope), TAG_NULLIFIER);
        assert_eq!(&public[D..2 * D], &nullifier[..]);
        assert_eq!(&public[2 * D..3 * D], &words(&wit.signal)[..]);
        assert_eq!(&public[3 * D..], &words(&wit.scope)[..]);
        // The committed cells end with the output of the permutation of the row's rate, zero
        // capacity and the row's tag.
        let row = t.row(5);
        let mut s = [&row[..2 * D], &[Bb(0), Bb(TAG_NODE)]].concat();
        Toy::params().permute(&mut s, &c);
        let w = a.width();
        assert_eq!(&row[w - 6 - 16..w - 6], &s[..]);
    }

    /// Domain separation: for random and edge scopes, the nullifier's permutation input
    /// differs from the leaf's (and from every node's) in the tag word, so no scope makes a
    /// nullifier equal the member's public leaf; and the digests indeed differ.
    #[test]
    fn no_scope_makes_a_nullifier_a_leaf() {
        let wit = Witness::demo(D, DEFAULT_DEPTH);
        let id = words(&wit.identity);
        let leaf = hash(&id, &[], TAG_LEAF);
        let mut x = 0x1234_5678u64;
        let mut random = move || {
            (0..D)
                .map(|_| {
                    x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                    Bb((x >> 33) % Bb::P)
                })
                .collect::<Vec<_>>()
        };
        let mut scopes = vec![
            vec![Bb(0); D],
            vec![Bb(Bb::P - 1); D],
            vec![Bb(1); D],
            // The leaf's own tail and tag as a scope: the input collision of an untagged design.
            [vec![Bb(0); D - 1], vec![Bb(TAG_LEAF)]].concat(),
            id.clone(),
            leaf.clone(),
        ];
        scopes.extend((0..64).map(|_| random()));
        let a = air();
        for scope in &scopes {
            let null_in = a.input(&id, scope, Bb(TAG_NULLIFIER), Bb(0));
            let leaf_in = a.input(&id, &[], Bb(TAG_LEAF), Bb(0));
            assert_ne!(null_in, leaf_in, "scope {scope:?}");
            assert_ne!(null_in[15], Bb(TAG_LEAF));
            assert_ne!(null_in[15], Bb(TAG_NODE));
            assert_ne!(hash(&id, scope, TAG_NULLIFIER), leaf, "scope {scope:?}");
        }
        // Without tags, scope 0 made the nullifier the leaf: the weakness the tags remove.
        assert_eq!(hash(&id, &[Bb(0); D], 0), hash(&id, &[], 0));
    }

    #[test]
    fn every_flipped_cell_of_an_active_row_fails() {
        let a = air();
        let t = a.generate_trace(16, Bb);
        let w = a.width();
        // Every cell of rows 0 .. n - 1 is tied to its permutation or its neighbours; the
        // last row is padding with only its kind and counter pinned.
        for row in 0..16 {
            let cols = if row == 15 { w - 5..w } else { 0..w };
            for col in cols {
                let mut bad = t.clone();
                let i = row * w + col;
                bad.values[i] = bad.values[i] + Bb(1);
                assert!(
                    check_trace(&a, &bad, Bb).is_err(),
                    "row {row} column {col} flipped and still accepted"
                );
            }
        }
    }

    #[test]
    fn wrong_public_inputs_fail() {
        let a = air();
        for i in 0..PUBLIC {
            let mut t = a.generate_trace(16, Bb);
            t.public_inputs[i] = t.public_inputs[i] + Bb(1);
            assert!(check_trace(&a, &t, Bb).is_err(), "public input {i}");
        }
    }

    #[test]
    fn a_path_one_hop_short_or_long_fails() {
        // The same trace checked against an AIR of another depth.
        let t = air().generate_trace(16, Bb);
        assert!(check_trace(&Membership::<Toy>::new(9), &t, Bb).is_err());
        assert!(check_trace(&Membership::<Toy>::new(11), &t, Bb).is_err());
    }

    /// A hostile prover's traces: rows whose permutations are computed honestly (so only the
    /// statement's constraints can catch them), each making a false statement. Every one is
    /// rejected.
    #[test]
    fn false_statements_with_honest_permutations_fail() {
        let a = air();
        let honest = || a.plan(16, &c);
        let reject = |name: &str, rows: &[RowPlan<Bb>], public: Vec<Bb>| {
            let t = a.assemble(rows, public, &c);
            assert!(check_trace(&a, &t, Bb).is_err(), "{name} accepted");
        };
        let (rows, public) = honest();
        check_trace(&a, &a.assemble(&rows, public.clone(), &c), Bb).unwrap();
        let zero = Bb(0);

        // Rebuilds the hop rows from `leaf_row`'s digest with the given bits and siblings.
        let rechain = |rows: &mut Vec<RowPlan<Bb>>, bits: &[u64]| -> Vec<Bb> {
            let mut node = a.digest_of(&rows[1].input, &c);
            for (level, &bit) in bits.iter().enumerate() {
                let hop = &rows[2 + level];
                let sibling = if hop.bit == 1 {
                    hop.input[..D].to_vec()
                } else {
                    hop.input[D..2 * D].to_vec()
                };
                let (l, r) = if bit == 1 {
                    (&sibling, &node)
                } else {
                    (&node, &sibling)
                };
                rows[2 + level].input = a.input(l, r, Bb(TAG_NODE), zero);
                rows[2 + level].bit = bit;
                node = a.digest_of(&rows[2 + level].input, &c);
            }
            node
        };
        let bits: Vec<u64> = rows[2..2 + DEFAULT_DEPTH].iter().map(|r| r.bit).collect();

        // 1. A leaf not in the tree: another identity, its own honest path, the public root.
        {
            let mut r = rows.clone();
            let other = vec![Bb(5); D];
            r[0].input = a.input(&other, &public[3 * D..], Bb(TAG_NULLIFIER), zero);
            r[1].input = a.input(&other, &[], Bb(TAG_LEAF), zero);
            rechain(&mut r, &bits);
            let mut p = public.clone();
            p[D..2 * D].copy_from_slice(&a.digest_of(&r[0].input, &c));
            reject("leaf not in the tree", &r, p);
        }
        // 2. A flipped direction bit, the path recomputed: the root differs.
        for level in [0, 4, DEFAULT_DEPTH - 1] {
            let mut r = rows.clone();
            let mut b = bits.clone();
            b[level] ^= 1;
            rechain(&mut r, &b);
            reject("flipped direction bit", &r, public.clone());
        }
        // 3. A flipped bit with the inputs left in place, and a non-boolean bit.
        for bit in [bits[3] ^ 1, 2] {
            let mut r = rows.clone();
            r[5].bit = bit;
            reject("bit not matching the input order", &r, public.clone());
        }
        // 4. A nullifier of another identity or another scope, honestly hashed.
        for (id, scope) in [
            (vec![Bb(9); D], public[3 * D..].to_vec()),
            (rows[0].input[..D].to_vec(), vec![Bb(9); D]),
        ] {
            let mut r = rows.clone();
            r[0].input = a.input(&id, &scope, Bb(TAG_NULLIFIER), zero);
            let mut p = public.clone();
            p[D..2 * D].copy_from_slice(&a.digest_of(&r[0].input, &c));
            reject("nullifier of another identity or scope", &r, p);
        }
        // 5. Hashes under the wrong domain tag (or none), honestly permuted: a nullifier
        //    with the leaf's tag, a leaf or a hop with the node's or no tag, a binding row
        //    with the nullifier's.
        for (row, tag) in [
            (0, TAG_LEAF),
            (0, 0),
            (1, TAG_NODE),
            (1, 0),
            (6, TAG_LEAF),
            (6, 0),
            (DEFAULT_DEPTH + 2, TAG_NULLIFIER),
        ] {
            let mut r = rows.clone();
            r[row].input[15] = Bb(tag);
            let mut p = public.clone();
            if row == 0 {
                p[D..2 * D].copy_from_slice(&a.digest_of(&r[0].input, &c));
            }
            reject("wrong domain tag", &r, p);
        }
        // 6. Counter tricks: a hop that does not count, a counter that starts at one.
        {
            let mut r = rows.clone();
            for row in r.iter_mut().skip(5) {
                row.depth -= 1;
            }
            reject("a hop not counted", &r, public.clone());
            let mut r = rows.clone();
            for row in r.iter_mut() {
                row.depth += 1;
            }
            reject("counter from one", &r, public.clone());
        }
        // 7. A path one hop short: a hop row turned into padding (the binding row follows
        //    early) and a padding row turned into a hop.
        {
            let mut r = rows.clone();
            r[DEFAULT_DEPTH + 1].kind = Kind::Binding;
            r[DEFAULT_DEPTH + 2].kind = Kind::Padding;
            reject("nine hops", &r, public.clone());
            let mut r = rows.clone();
            r[DEFAULT_DEPTH + 2].kind = Kind::Hop;
            reject("eleven hops", &r, public.clone());
        }
    }
}

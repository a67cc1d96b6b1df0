//! Merkle membership with a nullifier (the statement of a post-quantum Semaphore-style
//! identity proof): "I know an identity whose leaf is in the tree with this root, this
//! nullifier is the hash of that identity and this scope, and I bind this signal to this
//! scope", one Poseidon2 permutation per row.
//!
//! # Hash
//!
//! Poseidon2 over the backend's base field ([`crate::poseidon2`], the instance and its
//! constants supplied by the backend through [`Poseidon2Instance`]), used as a 2-to-1
//! compression: `H(a, b)` = the first `DIGEST` words of `P([a, b, 0, ..])`. Digest widths,
//! set by each backend's instance:
//!
//! - BabyBear and Mersenne-31, width 16: 8 words (`8 * 30.9 = 247` and `8 * 31 = 248`
//!   bits), so about 124 bits of generic collision resistance. This is the most a width-16
//!   state gives to a 2-to-1 compression of two digests (2 x 8 = 16 words): 128 bits would
//!   need 9-word digests and the width-24 instance.
//! - Goldilocks, width 8: 4 words (256 bits), 128 bits of collision resistance.
//!
//! # Rows
//!
//! With depth `D` (default [`DEFAULT_DEPTH`]) the trace has `n >= D + 4` rows (a power of
//! two; 16 for D = 10):
//!
//! | row | kind | permutation input | constrained output |
//! |---|---|---|---|
//! | 0 | nullifier (`N`) | `[id, scope, 0..]` | first `DIGEST` words = public nullifier |
//! | 1 | leaf (`L`) | `[id, 0..]` (`id` equal to row 0's) | |
//! | 2 ..= D + 1 | hop (`H`) | `[prev, sibling]` or `[sibling, prev]` by the row's direction bit | row D + 1: = public root |
//! | D + 2 | binding (`B`) | `[scope, signal, 0..]` | |
//! | rest | padding (`P`) | anything | |
//!
//! where `prev` is the previous row's output digest. Public inputs, `DIGEST` words each, in
//! this order: root, nullifier, signal hash, scope hash. The identity, the siblings and the
//! direction bits are the witness.
//!
//! # Columns
//!
//! `in[W]` (the permutation input), then the cells of one permutation
//! ([`Poseidon2Params::committed`]: the state after each full round and the S-box output of
//! each partial round; the output is the last `W`), then six control columns: the direction
//! bit, the one-hot row kind `N`, `L`, `H`, `B` (padding is all four zero), and a hop counter.
//! BabyBear-16 (4 + 4 full rounds, 13 partial) gives 16 + 128 + 13 + 6 = 163 columns;
//! Mersenne-31-16 (14 partial) 164; Goldilocks-8 (4 + 4 full, 22 partial) 8 + 64 + 22 + 6 =
//! 100.
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
    /// If the instance is malformed or two digests do not fit its state (a bug in the
    /// backend's [`Poseidon2Instance`], not an input).
    pub fn new(depth: usize) -> Self {
        let params = P::params();
        let digest = P::DIGEST;
        assert!(params.is_well_formed(), "malformed Poseidon2 instance");
        assert!(digest >= 1 && 2 * digest <= params.width, "digest too wide");
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
        let committed = w;
        let bit = w + self.params.committed_cells();
        Cols {
            width: bit + CONTROL,
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
    const ID: AirId = AirId::Membership;

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

        // The permutation of this row.
        self.params
            .eval(&local[..w], &local[k.committed..k.bit], c, emit);

        // Booleans and the one-hot row kind (padding = all four zero).
        let bit = local[k.bit].clone();
        emit(bit.clone() * (bit.clone() - one.clone()));
        let kind = |row: &[E]| {
            [
                row[k.n].clone(),
                row[k.l].clone(),
                row[k.h].clone(),
                row[k.b].clone(),
            ]
        };
        let [ln, ll, lh, lb] = kind(local);
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

        // Nullifier row: [id, scope, 0..] -> nullifier.
        for j in 0..d {
            emit(ln.clone() * (input(local, d + j) - public(scope + j)));
            emit(ln.clone() * (out(local, j) - public(nullifier + j)));
            // The leaf row hashes the same identity.
            emit(ln.clone() * (input(next, j) - input(local, j)));
        }
        for j in 2 * d..w {
            emit(ln.clone() * input(local, j));
        }
        // Leaf row: [id, 0..].
        for j in d..w {
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
        for j in 2 * d..w {
            emit(nh.clone() * input(next, j));
        }
        // Binding row: [scope, signal, 0..].
        for j in 0..d {
            emit(lb.clone() * (input(local, j) - public(scope + j)));
            emit(lb.clone() * (input(local, d + j) - public(signal + j)));
        }
        for j in 2 * d..w {
            emit(lb.clone() * input(local, j));
        }
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
        assert!(
            n.is_power_of_two() && n >= self.min_rows(),
            "n must be a power of two >= max(8, depth + 4)"
        );
        let k = self.cols();
        let (w, d) = (self.params.width, self.digest);
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
        let c: &dyn Fn(u64) -> F = &from_u64;
        let zero = from_u64(0);

        let mut values = Vec::with_capacity(n * k.width);
        let mut push_row = |input: Vec<F>, bit: u64, kind: usize, depth: usize| -> Vec<F> {
            let mut state = input;
            state.resize(w, zero);
            let committed = self.params.committed(&state, c);
            let out = committed[committed.len() - w..committed.len() - w + d].to_vec();
            values.extend_from_slice(&state);
            values.extend_from_slice(&committed);
            values.push(from_u64(bit));
            for flag in 0..4 {
                values.push(from_u64(u64::from(flag == kind)));
            }
            values.push(from_u64(depth as u64));
            out
        };
        let (n_kind, l_kind, h_kind, b_kind, p_kind) = (0, 1, 2, 3, 4);

        let nullifier = push_row([f(&wit.identity), f(&wit.scope)].concat(), 0, n_kind, 0);
        let mut digest = push_row(f(&wit.identity), 0, l_kind, 0);
        for (level, sibling) in wit.siblings.iter().enumerate() {
            let bit = (wit.index >> level) & 1;
            let input = if bit == 1 {
                [f(sibling), digest].concat()
            } else {
                [digest, f(sibling)].concat()
            };
            digest = push_row(input, bit, h_kind, level + 1);
        }
        let root = digest;
        push_row(
            [f(&wit.scope), f(&wit.signal)].concat(),
            0,
            b_kind,
            self.depth,
        );
        for _ in self.depth + 3..n {
            push_row(Vec::new(), 0, p_kind, self.depth);
        }

        let public_inputs = [root, nullifier, f(&wit.signal), f(&wit.scope)].concat();
        Trace {
            width: k.width,
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

    /// A width-16, x^7 instance over BabyBear with made-up constants (the real ones live in
    /// the backends; their known-answer tests are in `picostark-plonky3`).
    struct Toy;

    impl Poseidon2Instance for Toy {
        const DIGEST: usize = 8;
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

    fn air() -> Membership<Toy> {
        Membership::new(DEFAULT_DEPTH)
    }

    #[test]
    fn shape() {
        let a = air();
        assert_eq!(a.width(), 16 + 8 * 16 + 13 + 6);
        assert_eq!(a.num_public_inputs(), 32);
        assert_eq!(a.min_rows(), 16);
        assert_eq!(a.transition_degrees().iter().max(), Some(&7));
        // 141 permutation cells, 7 on booleans, 6 sequencing, 2 counter, 3 x 8 on the nullifier
        // row, 8 on the leaf row, 3 x 8 into and out of hops, 2 x 8 on the binding row.
        assert_eq!(
            a.transition_degrees().len(),
            141 + 7 + 6 + 2 + 24 + 8 + 24 + 16
        );
    }

    #[test]
    fn trace_satisfies_the_air() {
        let a = air();
        for n in [16, 32] {
            let t = a.generate_trace(n, Bb);
            assert_eq!(t.height(), n);
            assert_eq!(t.public_inputs.len(), 32);
            check_trace(&a, &t, Bb).unwrap();
        }
        let shallow = Membership::<Toy>::new(3);
        check_trace(&shallow, &shallow.generate_trace(8, Bb), Bb).unwrap();
    }

    #[test]
    fn rows_hash_what_the_table_says() {
        let a = air();
        let t = a.generate_trace(16, Bb);
        let p = Toy::params();
        let c = |v: u64| Bb(v % Bb::P);
        let hash = |l: &[Bb], r: &[Bb]| {
            let mut s = [l, r].concat();
            s.resize(16, Bb(0));
            p.permute(&mut s, &c);
            s[..8].to_vec()
        };
        let wit = Witness::demo(8, DEFAULT_DEPTH);
        let v = |x: &[u64]| x.iter().map(|&y| Bb(y)).collect::<Vec<_>>();
        let mut node = hash(&v(&wit.identity), &[]);
        for (level, s) in wit.siblings.iter().enumerate() {
            node = if (wit.index >> level) & 1 == 1 {
                hash(&v(s), &node)
            } else {
                hash(&node, &v(s))
            };
        }
        assert_eq!(&t.public_inputs[..8], &node[..]);
        assert_eq!(
            &t.public_inputs[8..16],
            &hash(&v(&wit.identity), &v(&wit.scope))[..]
        );
        assert_eq!(&t.public_inputs[16..24], &v(&wit.signal)[..]);
        assert_eq!(&t.public_inputs[24..], &v(&wit.scope)[..]);
        // The committed cells end with the permutation's output.
        let row = t.row(5);
        let mut s = row[..16].to_vec();
        p.permute(&mut s, &c);
        let w = a.width();
        assert_eq!(&row[w - 6 - 16..w - 6], &s[..]);
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
        for i in 0..32 {
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
}

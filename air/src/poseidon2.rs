//! Poseidon2 written once over the generic algebra: the permutation's parameters as plain
//! canonical integers, and the round functions the membership AIR uses both to generate its
//! trace and to state its constraints.
//!
//! The instance is Plonky3 0.8's (`p3-poseidon2`): an initial external linear layer, `RF / 2`
//! full rounds (add the round constants, S-box `x^alpha` on every word, external layer),
//! `RP` partial rounds (add one constant to word 0, S-box on word 0, internal layer), then
//! `RF / 2` full rounds. The external layer is the "light" matrix built from a 4 x 4 block
//! `M4`: `M4` on every four words, then each word plus the sum of the words at its position
//! in every block (`circ(2 M4, M4, .., M4)`). The internal layer is `1 + diag(V)`: each word
//! times `V[i]` plus the sum of all words.
//!
//! This crate names no backend, so it holds no constants: a backend fills a
//! [`Poseidon2Params`] from its field crate (round constants, `M4`, `V`, read from Plonky3's
//! own tables and linear layers) through [`Poseidon2Instance`], and tests there check the
//! permutation here against the field crate's own on random inputs.

use alloc::vec::Vec;

use crate::Algebra;
use picostark_core::FieldId;

/// One Poseidon2 instance, every constant as its canonical value in the field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Poseidon2Params {
    /// State width in field elements (a multiple of 4).
    pub width: usize,
    /// The S-box exponent `alpha` (3, 5 or 7).
    pub sbox_degree: u32,
    /// The 4 x 4 block of the external layer, `m4[row][column]`.
    pub m4: [[u64; 4]; 4],
    /// `V` of the internal layer `1 + diag(V)`, `width` entries.
    pub internal_diag: Vec<u64>,
    /// Round constants of the first `RF / 2` full rounds, `width` each.
    pub external_initial: Vec<Vec<u64>>,
    /// Round constants of the partial rounds, one each.
    pub internal: Vec<u64>,
    /// Round constants of the last `RF / 2` full rounds, `width` each.
    pub external_terminal: Vec<Vec<u64>>,
}

/// A source of one Poseidon2 instance and the digest width used with it; the backend that
/// owns the field implements it (see `picostark-plonky3`'s `membership` module).
pub trait Poseidon2Instance: 'static {
    /// What the instance is, for records and reports (e.g. `Poseidon2 BabyBear-24`).
    const NAME: &'static str;
    /// Digest width in field elements.
    const DIGEST: usize;
    /// The field the instance is over: its modulus sets what a digest of [`Self::DIGEST`]
    /// words resists.
    const FIELD: FieldId;
    /// The security level the permutation's round numbers were chosen for, in bits
    /// (Plonky3 0.8's instances: 128, `p3-poseidon2` `round_numbers.rs`).
    const PERMUTATION_BITS: u32;
    /// The permutation's parameters.
    fn params() -> Poseidon2Params;

    /// Collision resistance of a 2-to-1 compression truncated to [`Self::DIGEST`] words, in
    /// bits: the generic (birthday) bound `DIGEST * log2(p) / 2`, rounded down, capped by
    /// the permutation's own level.
    fn collision_bits() -> u32 {
        let digest_millibits = Self::DIGEST as u32 * Self::FIELD.log2_modulus_millibits();
        (digest_millibits / 2000).min(Self::PERMUTATION_BITS)
    }
}

impl Poseidon2Params {
    /// Full rounds in each half.
    pub fn half_full_rounds(&self) -> usize {
        self.external_initial.len()
    }

    /// Partial rounds.
    pub fn partial_rounds(&self) -> usize {
        self.internal.len()
    }

    /// Whether the shape is one this module computes: width a positive multiple of 4, two
    /// equal halves of full rounds, every round-constant row and `V` of the state's width, an
    /// S-box exponent of 3, 5 or 7.
    pub fn is_well_formed(&self) -> bool {
        self.width >= 4
            && self.width.is_multiple_of(4)
            && matches!(self.sbox_degree, 3 | 5 | 7)
            && self.internal_diag.len() == self.width
            && self.external_initial.len() == self.external_terminal.len()
            && self
                .external_initial
                .iter()
                .chain(&self.external_terminal)
                .all(|r| r.len() == self.width)
    }

    /// Cells one permutation commits in a trace row after its input: the state after each
    /// full round (`width` each) and the S-box output of each partial round (one each).
    pub fn committed_cells(&self) -> usize {
        2 * self.half_full_rounds() * self.width + self.partial_rounds()
    }

    /// `x^alpha`, by a short addition chain.
    pub fn sbox<E: Algebra>(&self, x: E) -> E {
        let x2 = x.clone() * x.clone();
        match self.sbox_degree {
            3 => x2 * x,
            5 => x2.clone() * x2 * x,
            _ => {
                let x3 = x2 * x.clone();
                x3.clone() * x3 * x
            }
        }
    }

    /// The external linear layer, in place.
    pub fn external_layer<E: Algebra>(&self, state: &mut [E], c: &dyn Fn(u64) -> E) {
        for chunk in state.chunks_mut(4) {
            let x: [E; 4] = core::array::from_fn(|i| chunk[i].clone());
            for (row, out) in self.m4.iter().zip(chunk.iter_mut()) {
                *out = dot4(row, &x, c);
            }
        }
        let sums: [E; 4] = core::array::from_fn(|k| {
            let mut s = state[k].clone();
            for j in (k + 4..state.len()).step_by(4) {
                s = s + state[j].clone();
            }
            s
        });
        for (i, word) in state.iter_mut().enumerate() {
            *word = word.clone() + sums[i % 4].clone();
        }
    }

    /// The internal linear layer `1 + diag(V)`, in place.
    pub fn internal_layer<E: Algebra>(&self, state: &mut [E], c: &dyn Fn(u64) -> E) {
        let mut sum = state[0].clone();
        for w in &state[1..] {
            sum = sum + w.clone();
        }
        for (word, &v) in state.iter_mut().zip(&self.internal_diag) {
            *word = word.clone() * c(v) + sum.clone();
        }
    }

    /// One full round on `state`: add `rc`, S-box every word, external layer.
    pub fn full_round<E: Algebra>(&self, state: &mut [E], rc: &[u64], c: &dyn Fn(u64) -> E) {
        for (word, &k) in state.iter_mut().zip(rc) {
            *word = self.sbox(word.clone() + c(k));
        }
        self.external_layer(state, c);
    }

    /// The whole permutation, in place (for tests and for values outside a trace).
    pub fn permute<E: Algebra>(&self, state: &mut [E], c: &dyn Fn(u64) -> E) {
        self.external_layer(state, c);
        for rc in &self.external_initial {
            self.full_round(state, rc, c);
        }
        for &k in &self.internal {
            state[0] = self.sbox(state[0].clone() + c(k));
            self.internal_layer(state, c);
        }
        for rc in &self.external_terminal {
            self.full_round(state, rc, c);
        }
    }

    /// The cells one permutation of `input` commits after it ([`Self::committed_cells`] of
    /// them, in round order); the last `width` are the output.
    pub fn committed<E: Algebra>(&self, input: &[E], c: &dyn Fn(u64) -> E) -> Vec<E> {
        let mut out = Vec::with_capacity(self.committed_cells());
        let mut state: Vec<E> = input.to_vec();
        self.external_layer(&mut state, c);
        for rc in &self.external_initial {
            self.full_round(&mut state, rc, c);
            out.extend_from_slice(&state);
        }
        for &k in &self.internal {
            state[0] = self.sbox(state[0].clone() + c(k));
            out.push(state[0].clone());
            self.internal_layer(&mut state, c);
        }
        for rc in &self.external_terminal {
            self.full_round(&mut state, rc, c);
            out.extend_from_slice(&state);
        }
        out
    }

    /// The constraints tying one row's `input` to its `committed` cells (the layout of
    /// [`Self::committed`]): one per committed cell, of degree `alpha`. Each committed state
    /// is fed to the next round as it is, so no constraint's degree grows past the S-box's.
    pub fn eval<E: Algebra>(
        &self,
        input: &[E],
        committed: &[E],
        c: &dyn Fn(u64) -> E,
        emit: &mut dyn FnMut(E),
    ) {
        let w = self.width;
        let mut state: Vec<E> = input.to_vec();
        self.external_layer(&mut state, c);
        let mut at = 0;
        for rc in &self.external_initial {
            self.full_round(&mut state, rc, c);
            for (i, expected) in state.iter_mut().enumerate() {
                emit(committed[at + i].clone() - expected.clone());
                *expected = committed[at + i].clone();
            }
            at += w;
        }
        for &k in &self.internal {
            let s = self.sbox(state[0].clone() + c(k));
            emit(committed[at].clone() - s);
            state[0] = committed[at].clone();
            at += 1;
            self.internal_layer(&mut state, c);
        }
        for rc in &self.external_terminal {
            self.full_round(&mut state, rc, c);
            for (i, expected) in state.iter_mut().enumerate() {
                emit(committed[at + i].clone() - expected.clone());
                *expected = committed[at + i].clone();
            }
            at += w;
        }
    }
}

fn dot4<E: Algebra>(row: &[u64; 4], x: &[E; 4], c: &dyn Fn(u64) -> E) -> E {
    let term = |xi: &E, m: u64| {
        if m == 1 {
            xi.clone()
        } else {
            xi.clone() * c(m)
        }
    };
    let mut acc = term(&x[0], row[0]);
    for (xi, &m) in x.iter().zip(row).skip(1) {
        acc = acc + term(xi, m);
    }
    acc
}

//! A wide AIR: sixteen columns, one degree-3 mixing round per row.
//!
//! Each row is the state `x[0..16]`; the next row is
//! `x'[i] = x[i]^3 + (x[0]^3 + ... + x[15]^3) + x[(i + 1) % 16]`,
//! sixteen transition constraints of degree 3. Boundaries pin the first row's words 0..4 to
//! the public input (the "message"), its words 4..16 to the constants 4..16, and the last
//! row's words 0..4 to the public output (the "digest"): 8 public inputs in all.
//!
//! It is a benchmark statement with the shape of a hash chain (wide state, nonlinear rounds,
//! a claimed output), not a hash function: `x^3` is not a permutation of every field here.

use alloc::vec::Vec;
use core::ops::{Add, Mul, Sub};

use crate::{AirDef, AirId, Algebra, Boundary, BoundaryValue, Frame, Row, Trace};

/// State width.
pub const WIDTH: usize = 16;
/// Words of public input at each end.
pub const IO_WORDS: usize = 4;
/// The message the trace generator starts from (the first hex digits of pi, as 28-bit
/// words so they are canonical in every field here).
pub const MESSAGE: [u64; IO_WORDS] = [0x243_F6A8, 0x85A_308D, 0x313_198A, 0x2E0_3707];

/// The wide AIR.
#[derive(Clone, Copy, Debug, Default)]
pub struct CubicChain16;

const DEGREES: [usize; WIDTH] = [3; WIDTH];

impl AirDef for CubicChain16 {
    const NAME: &'static str = "chain16";

    fn id(&self) -> AirId {
        AirId::CubicChain16
    }

    fn width(&self) -> usize {
        WIDTH
    }

    fn num_public_inputs(&self) -> usize {
        2 * IO_WORDS
    }

    fn transition_degrees(&self) -> &[usize] {
        &DEGREES
    }

    fn eval_transition<E: Algebra>(&self, frame: &Frame<'_, E>, emit: &mut dyn FnMut(E)) {
        let (local, next) = (frame.local, frame.next);
        let cubes: Vec<E> = local
            .iter()
            .map(|x| x.clone() * x.clone() * x.clone())
            .collect();
        let sum = cubes
            .iter()
            .skip(1)
            .fold(cubes[0].clone(), |acc, c| acc + c.clone());
        for i in 0..WIDTH {
            let round = cubes[i].clone() + sum.clone() + local[(i + 1) % WIDTH].clone();
            emit(next[i].clone() - round);
        }
    }

    fn boundaries(&self) -> Vec<Boundary> {
        let first = (0..WIDTH).map(|column| Boundary {
            column,
            row: Row::First,
            value: if column < IO_WORDS {
                BoundaryValue::Public(column)
            } else {
                BoundaryValue::Constant(column as u64)
            },
        });
        let last = (0..IO_WORDS).map(|column| Boundary {
            column,
            row: Row::Last,
            value: BoundaryValue::Public(IO_WORDS + column),
        });
        first.chain(last).collect()
    }

    fn generate_trace<F>(&self, n: usize, from_u64: impl Fn(u64) -> F) -> Trace<F>
    where
        F: Copy + Add<Output = F> + Sub<Output = F> + Mul<Output = F>,
    {
        assert!(
            n >= 8 && n.is_power_of_two(),
            "n must be a power of two >= 8"
        );
        let mut state: [F; WIDTH] =
            core::array::from_fn(|i| from_u64(if i < IO_WORDS { MESSAGE[i] } else { i as u64 }));
        let mut values = Vec::with_capacity(WIDTH * n);
        for row in 0..n {
            values.extend_from_slice(&state);
            if row + 1 < n {
                let cubes = state.map(|x| x * x * x);
                let sum = cubes[1..].iter().fold(cubes[0], |acc, &c| acc + c);
                state = core::array::from_fn(|i| cubes[i] + sum + state[(i + 1) % WIDTH]);
            }
        }
        let mut public_inputs: Vec<F> = MESSAGE.iter().map(|&m| from_u64(m)).collect();
        public_inputs.extend_from_slice(&state[..IO_WORDS]);
        Trace {
            width: WIDTH,
            values,
            public_inputs,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check_trace;
    use crate::test_field::Bb;

    #[test]
    fn trace_satisfies_the_air() {
        let t = CubicChain16.generate_trace(64, Bb);
        assert_eq!(t.height(), 64);
        assert_eq!(t.public_inputs.len(), 8);
        check_trace(&CubicChain16, &t, Bb).unwrap();
    }

    #[test]
    fn wrong_digest_and_tampered_rows_fail() {
        let mut t = CubicChain16.generate_trace(16, Bb);
        t.public_inputs[7] = t.public_inputs[7] + Bb(1);
        assert_eq!(
            check_trace(&CubicChain16, &t, Bb),
            Err("boundary constraint violated")
        );
        let mut t = CubicChain16.generate_trace(16, Bb);
        t.values[5 * WIDTH + 9] = t.values[5 * WIDTH + 9] + Bb(1);
        assert_eq!(
            check_trace(&CubicChain16, &t, Bb),
            Err("transition constraint violated")
        );
    }

    #[test]
    fn one_round_by_hand() {
        let t = CubicChain16.generate_trace(8, Bb);
        let x: Vec<u64> = t.row(0).iter().map(|v| v.0).collect();
        let cubes: Vec<u64> = x.iter().map(|&v| v * v % Bb::P * v % Bb::P).collect();
        let sum = cubes.iter().sum::<u64>() % Bb::P;
        for i in 0..WIDTH {
            assert_eq!(t.row(1)[i].0, (cubes[i] + sum + x[(i + 1) % WIDTH]) % Bb::P);
        }
    }
}

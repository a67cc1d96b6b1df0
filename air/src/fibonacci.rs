//! The two-column Fibonacci AIR (the statement of the reference proofs in
//! `../shared/interop`): columns `(s0, s1)`, transitions `s0' = s0 + s1` and
//! `s1' = s1 + s0'` (degree 1), boundaries `s0[0] = 1`, `s1[0] = 1` and
//! `s1[n-1] = result`, the one public input. So row `i` holds `(F(2i+1), F(2i+2))` and the
//! result is `F(2n)` reduced in the field.

use alloc::vec;
use alloc::vec::Vec;
use core::ops::{Add, Mul, Sub};

use crate::{AirDef, AirId, Algebra, Boundary, BoundaryValue, Frame, Row, Trace};

/// The Fibonacci AIR. Stateless: n comes from the trace or the proof.
#[derive(Clone, Copy, Debug, Default)]
pub struct Fibonacci;

impl AirDef for Fibonacci {
    const NAME: &'static str = "fib";

    fn id(&self) -> AirId {
        AirId::Fibonacci
    }

    fn width(&self) -> usize {
        2
    }

    fn num_public_inputs(&self) -> usize {
        1
    }

    fn transition_degrees(&self) -> &[usize] {
        &[1, 1]
    }

    fn eval_transition<E: Algebra>(&self, frame: &Frame<'_, E>, emit: &mut dyn FnMut(E)) {
        let (local, next) = (frame.local, frame.next);
        let (s0, s1) = (local[0].clone(), local[1].clone());
        let (n0, n1) = (next[0].clone(), next[1].clone());
        emit(n0.clone() - (s0 + s1.clone()));
        emit(n1 - (s1 + n0));
    }

    fn boundaries(&self) -> Vec<Boundary> {
        vec![
            Boundary {
                column: 0,
                row: Row::First,
                value: BoundaryValue::Constant(1),
            },
            Boundary {
                column: 1,
                row: Row::First,
                value: BoundaryValue::Constant(1),
            },
            Boundary {
                column: 1,
                row: Row::Last,
                value: BoundaryValue::Public(0),
            },
        ]
    }

    fn generate_trace<F>(&self, n: usize, from_u64: impl Fn(u64) -> F) -> Trace<F>
    where
        F: Copy + Add<Output = F> + Sub<Output = F> + Mul<Output = F>,
    {
        assert!(
            n >= 8 && n.is_power_of_two(),
            "n must be a power of two >= 8"
        );
        let mut values = Vec::with_capacity(2 * n);
        let (mut s0, mut s1) = (from_u64(1), from_u64(1));
        for _ in 0..n {
            values.push(s0);
            values.push(s1);
            s0 = s0 + s1;
            s1 = s1 + s0;
        }
        let result = values[2 * n - 1];
        Trace {
            width: 2,
            values,
            public_inputs: vec![result],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check_trace;

    use crate::test_field::Bb;

    #[test]
    fn trace_satisfies_air_and_matches_reference_result() {
        let t = Fibonacci.generate_trace(1024, Bb);
        assert_eq!(t.height(), 1024);
        check_trace(&Fibonacci, &t, Bb).unwrap();
        // public.bin of the BabyBear reference proof in ../shared/interop: Fib(2048) mod p.
        assert_eq!(t.public_inputs[0], Bb(1_369_371_767));
    }

    #[test]
    fn small_trace_is_fibonacci() {
        let t = Fibonacci.generate_trace(8, Bb);
        let firsts: Vec<u64> = (0..8).map(|i| t.row(i)[0].0).collect();
        assert_eq!(firsts, [1, 2, 5, 13, 34, 89, 233, 610]);
        assert_eq!(t.public_inputs[0], Bb(987));
    }

    #[test]
    fn tampered_trace_fails_the_check() {
        let mut t = Fibonacci.generate_trace(16, Bb);
        t.values[7] = t.values[7] + Bb(1);
        assert!(check_trace(&Fibonacci, &t, Bb).is_err());
        let mut t = Fibonacci.generate_trace(16, Bb);
        t.public_inputs[0] = Bb(3);
        assert!(check_trace(&Fibonacci, &t, Bb).is_err());
        let mut t = Fibonacci.generate_trace(16, Bb);
        t.values[0] = Bb(2);
        t.values[1] = Bb(0);
        assert!(check_trace(&Fibonacci, &t, Bb).is_err());
    }
}

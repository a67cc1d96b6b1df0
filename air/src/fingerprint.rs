//! An AIR's fingerprint: what a proof file names a custom AIR by (`AirId::Custom`).
//!
//! It hashes what tells two AIRs apart: the name, the shape (width, public-input count,
//! transition degrees, boundaries, the statement's own hash) and the constraints themselves,
//! evaluated once on a fixed pseudo-random frame over the field of 2^61 - 1 (two AIRs that
//! differ in one coefficient differ there, but for a chance of about degree / 2^61). The
//! hash is FNV-1a over 64 bits: a name for honest AIRs, not a commitment; a proof is still
//! checked against the constraints of the AIR the verifier was built with.

use alloc::vec::Vec;
use core::ops::{Add, Mul, Sub};

use crate::{AirDef, BoundaryValue, Frame, Row};

/// The prime 2^61 - 1.
const P: u64 = (1 << 61) - 1;

/// An element of the field of 2^61 - 1: the algebra the constraints are evaluated in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Fp61(u64);

impl Fp61 {
    fn new(v: u64) -> Self {
        Fp61(v % P)
    }
}

impl Add for Fp61 {
    type Output = Self;
    fn add(self, o: Self) -> Self {
        Fp61::new(self.0 + o.0)
    }
}

impl Sub for Fp61 {
    type Output = Self;
    fn sub(self, o: Self) -> Self {
        Fp61::new(self.0 + P - o.0)
    }
}

impl Mul for Fp61 {
    type Output = Self;
    fn mul(self, o: Self) -> Self {
        Fp61((u128::from(self.0) * u128::from(o.0) % u128::from(P)) as u64)
    }
}

/// FNV-1a, 64 bits.
struct Fnv(u64);

impl Fnv {
    fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }

    fn word(&mut self, v: u64) {
        self.bytes(&v.to_le_bytes());
    }
}

/// The fingerprint of `air` (see the module documentation).
pub fn fingerprint<A: AirDef>(air: &A) -> u64 {
    let mut h = Fnv(0xcbf2_9ce4_8422_2325);
    h.bytes(A::NAME.as_bytes());
    h.word(air.width() as u64);
    h.word(air.num_public_inputs() as u64);
    let degrees = air.transition_degrees();
    h.word(degrees.len() as u64);
    degrees.iter().for_each(|&d| h.word(d as u64));
    let boundaries = air.boundaries();
    h.word(boundaries.len() as u64);
    for b in &boundaries {
        h.word(b.column as u64);
        h.word(u64::from(b.row == Row::Last));
        let (tag, v) = match b.value {
            BoundaryValue::Constant(c) => (0, c),
            BoundaryValue::Public(i) => (1, i as u64),
        };
        h.bytes(&[tag]);
        h.word(v);
    }
    h.word(air.statement_hash().map_or(0, |(bits, _)| u64::from(bits)));
    // The constraints on a frame drawn from a fixed sequence (splitmix64).
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut draw = || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        Fp61::new(z ^ (z >> 31))
    };
    let local: Vec<Fp61> = (0..air.width()).map(|_| draw()).collect();
    let next: Vec<Fp61> = (0..air.width()).map(|_| draw()).collect();
    let public: Vec<Fp61> = (0..air.num_public_inputs()).map(|_| draw()).collect();
    let frame = Frame {
        local: &local,
        next: &next,
        public: &public,
        constant: &Fp61::new,
    };
    air.eval_transition(&frame, &mut |c| h.word(c.0));
    h.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chain16::CubicChain16;
    use crate::fibonacci::Fibonacci;
    use crate::{AirId, Algebra, Boundary, Trace};

    /// Fibonacci with one coefficient changed: same name, same shape.
    #[derive(Clone, Copy, Debug, Default)]
    struct Tweaked<const K: u64>;

    impl<const K: u64> AirDef for Tweaked<K> {
        const NAME: &'static str = "fib";
        fn width(&self) -> usize {
            Fibonacci.width()
        }
        fn num_public_inputs(&self) -> usize {
            Fibonacci.num_public_inputs()
        }
        fn transition_degrees(&self) -> &[usize] {
            Fibonacci.transition_degrees()
        }
        fn eval_transition<E: Algebra>(&self, frame: &Frame<'_, E>, emit: &mut dyn FnMut(E)) {
            let (s0, s1) = (frame.local[0].clone(), frame.local[1].clone());
            let (n0, n1) = (frame.next[0].clone(), frame.next[1].clone());
            emit(n0.clone() - (s0 + s1.clone() * (frame.constant)(K)));
            emit(n1 - (s1 + n0));
        }
        fn boundaries(&self) -> Vec<Boundary> {
            Fibonacci.boundaries()
        }
        fn generate_trace<F>(&self, n: usize, from_u64: impl Fn(u64) -> F) -> Trace<F>
        where
            F: Copy + Add<Output = F> + Sub<Output = F> + Mul<Output = F>,
        {
            Fibonacci.generate_trace(n, from_u64)
        }
    }

    #[test]
    fn the_fingerprint_tells_constraints_apart() {
        let one = fingerprint(&Tweaked::<1>);
        assert_eq!(one, fingerprint(&Tweaked::<1>), "deterministic");
        assert_ne!(one, fingerprint(&Tweaked::<2>), "one coefficient");
        assert_ne!(fingerprint(&Fibonacci), fingerprint(&CubicChain16));
        // A user AIR named like a built-in is still a custom AIR, never the built-in.
        assert_eq!(Tweaked::<1>.id(), AirId::Custom(one));
        assert_eq!(Fibonacci.id(), AirId::Fibonacci);
    }
}

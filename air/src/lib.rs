//! picostark-air: every AIR written ONCE against a generic algebra.
//!
//! An AIR here is a width, a set of transition constraints evaluated on two consecutive rows
//! over any type with `+`, `-`, `*` (field elements, extension elements, or a backend's
//! symbolic expressions), boundary constraints, and a trace generator. Backends adapt an
//! [`AirDef`] to their own AIR traits (Plonky3 `Air<AB>`, winterfell `Air`); nothing here
//! names a backend.
#![no_std]

extern crate alloc;

use alloc::vec::Vec;
use core::ops::{Add, Mul, Sub};

pub use picostark_core::AirId;

pub mod chain16;
pub mod fibonacci;
pub mod membership;
pub mod poseidon2;
pub mod reduce;

mod fingerprint;
pub use fingerprint::fingerprint;

#[cfg(test)]
mod test_field;

/// What constraint evaluation needs of a value type: ring operations and cloning.
pub trait Algebra: Clone + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> {}
impl<T: Clone + Add<Output = T> + Sub<Output = T> + Mul<Output = T>> Algebra for T {}

/// What a transition constraint sees: two consecutive rows, the public inputs and a way to
/// write the AIR's constants, all as values of the backend's algebra `E`.
pub struct Frame<'a, E> {
    /// The current row.
    pub local: &'a [E],
    /// The next row.
    pub next: &'a [E],
    /// The public inputs, in [`AirDef`] order (constraints may use them directly, so a
    /// statement can pin cells on rows other than the first and last).
    pub public: &'a [E],
    /// Embeds a constant of the AIR (a field element given by its canonical value, below
    /// 2^64) into `E`; round constants and matrix entries come in this way.
    pub constant: &'a dyn Fn(u64) -> E,
}

/// Which row a boundary constraint pins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Row {
    First,
    Last,
}

/// The value a boundary constraint pins a cell to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoundaryValue {
    /// A constant of the AIR.
    Constant(u64),
    /// The public input at this index.
    Public(usize),
}

/// `trace[row][column] == value`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Boundary {
    pub column: usize,
    pub row: Row,
    pub value: BoundaryValue,
}

/// An execution trace in row-major order, with its public inputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace<F> {
    pub width: usize,
    pub values: Vec<F>,
    pub public_inputs: Vec<F>,
}

impl<F> Trace<F> {
    pub fn height(&self) -> usize {
        self.values.len() / self.width
    }

    pub fn row(&self, i: usize) -> &[F] {
        &self.values[i * self.width..(i + 1) * self.width]
    }
}

/// An AIR, written once for every backend. A value of it holds no per-proof state (n and
/// the public inputs come from the proof), hence `Default`; backends build it where they need
/// it.
pub trait AirDef: Default + Clone + Send + Sync + 'static {
    /// A short name: what the AIR is called in logs, and part of a custom AIR's
    /// [`fingerprint`].
    const NAME: &'static str;

    /// The id stored in proof files: a built-in AIR returns its own; every other AIR is
    /// [`AirId::Custom`] with its [`fingerprint`], so that proofs of two different AIRs never
    /// pass for each other.
    fn id(&self) -> AirId {
        AirId::Custom(fingerprint(self))
    }

    /// Number of trace columns.
    fn width(&self) -> usize;

    /// Number of public inputs.
    fn num_public_inputs(&self) -> usize;

    /// Degree of each transition constraint, in the order [`AirDef::eval_transition`]
    /// emits them.
    fn transition_degrees(&self) -> &[usize];

    /// Evaluates the transition constraints on the frame's rows `local` and `next`, calling
    /// `emit` once per constraint, in a fixed order; each value must be zero on a valid trace.
    fn eval_transition<E: Algebra>(&self, frame: &Frame<'_, E>, emit: &mut dyn FnMut(E));

    /// The boundary constraints.
    fn boundaries(&self) -> Vec<Boundary>;

    /// Collision resistance of a hash the statement itself computes (a Merkle path's
    /// compression, a nullifier), in bits, and what that hash is; `None` when the statement
    /// hashes nothing. A proof of the statement is no stronger than it, whatever its FRI
    /// parameters: `core::security` caps every regime's figure by it.
    fn statement_hash(&self) -> Option<(u32, &'static str)> {
        None
    }

    /// Generates the trace of length `n` (a power of two >= 8) and its public inputs, over
    /// any field type given its zero-free embedding of small integers.
    fn generate_trace<F>(&self, n: usize, from_u64: impl Fn(u64) -> F) -> Trace<F>
    where
        F: Copy + Add<Output = F> + Sub<Output = F> + Mul<Output = F>;
}

/// Checks every constraint of `air` on a concrete trace; for tests of trace generators and
/// of backends' adapters.
pub fn check_trace<A: AirDef, F>(
    air: &A,
    trace: &Trace<F>,
    from_u64: impl Fn(u64) -> F,
) -> Result<(), &'static str>
where
    F: Copy + PartialEq + Add<Output = F> + Sub<Output = F> + Mul<Output = F>,
{
    let zero = from_u64(0);
    let h = trace.height();
    for i in 0..h - 1 {
        let mut ok = true;
        let frame = Frame {
            local: trace.row(i),
            next: trace.row(i + 1),
            public: &trace.public_inputs,
            constant: &from_u64,
        };
        air.eval_transition(&frame, &mut |c| ok &= c == zero);
        if !ok {
            return Err("transition constraint violated");
        }
    }
    for b in air.boundaries() {
        let row = match b.row {
            Row::First => 0,
            Row::Last => h - 1,
        };
        let want = match b.value {
            BoundaryValue::Constant(c) => from_u64(c),
            BoundaryValue::Public(i) => trace.public_inputs[i],
        };
        if trace.row(row)[b.column] != want {
            return Err("boundary constraint violated");
        }
    }
    Ok(())
}

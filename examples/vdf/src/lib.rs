//! A user's own AIR on picostark: a MiMC-style Feistel hash chain, the classic verifiable
//! delay function (winterfell's first example), written against `picostark_air::AirDef` in a
//! crate of its own, which no crate of the workspace depends on (the firmware takes it by its
//! one `user-air` line).
//!
//! Columns `(x, y, r)`. Row `i + 1` is one Feistel round with round constant `k(r) = K0 + K1 r`:
//! `x' = y + (x + k(r))^3`, `y' = x`, `r' = r + 1`. The round counter `r` starts at 0, so
//! each row's constant is fixed by the AIR (a round-constant schedule of degree 1 keeps the
//! transition at degree 3). Public inputs: the seed `(x, y)` on the first row and the result
//! `(x, y)` on the last: computing the result takes n - 1 sequential cubings, checking it
//! takes a STARK verification.
//!
//! The shape is none of the built-ins': three columns, transition degrees (3, 1, 1), four
//! public inputs. A proof file names this AIR by its fingerprint (`AirDef::id`), so a build
//! without it refuses the proof with a clear error, and no other AIR passes for it.
#![cfg_attr(not(feature = "host"), no_std)]

extern crate alloc;

use alloc::vec;
use alloc::vec::Vec;
use core::ops::{Add, Mul, Sub};

use picostark_air::{AirDef, Algebra, Boundary, BoundaryValue, Frame, Row, Trace};

/// The round constants' schedule `k(r) = K0 + K1 r` (small, so canonical in every field).
pub const K0: u64 = 0x1234_5678;
/// See [`K0`].
pub const K1: u64 = 0x0abc_def1;
/// The seed the trace generator starts from.
pub const SEED: (u64, u64) = (3, 5);

/// The VDF's AIR.
#[derive(Clone, Copy, Debug, Default)]
pub struct VdfAir;

/// The AIR this crate gives the firmware (`verifier-mcu/firmware/src/airs.rs`).
pub type Air = VdfAir;

impl AirDef for VdfAir {
    const NAME: &'static str = "mimc-feistel-vdf";

    fn width(&self) -> usize {
        3
    }

    fn num_public_inputs(&self) -> usize {
        4
    }

    fn transition_degrees(&self) -> &[usize] {
        &[3, 1, 1]
    }

    fn eval_transition<E: Algebra>(&self, frame: &Frame<'_, E>, emit: &mut dyn FnMut(E)) {
        let c = frame.constant;
        let (x, y, r) = (
            frame.local[0].clone(),
            frame.local[1].clone(),
            frame.local[2].clone(),
        );
        let (nx, ny, nr) = (
            frame.next[0].clone(),
            frame.next[1].clone(),
            frame.next[2].clone(),
        );
        let t = x.clone() + c(K0) + c(K1) * r.clone();
        emit(nx - (y + t.clone() * t.clone() * t));
        emit(ny - x);
        emit(nr - (r + c(1)));
    }

    fn boundaries(&self) -> Vec<Boundary> {
        let at = |column, row, value| Boundary { column, row, value };
        vec![
            at(2, Row::First, BoundaryValue::Constant(0)),
            at(0, Row::First, BoundaryValue::Public(0)),
            at(1, Row::First, BoundaryValue::Public(1)),
            at(0, Row::Last, BoundaryValue::Public(2)),
            at(1, Row::Last, BoundaryValue::Public(3)),
        ]
    }

    fn generate_trace<F>(&self, n: usize, from_u64: impl Fn(u64) -> F) -> Trace<F>
    where
        F: Copy + Add<Output = F> + Sub<Output = F> + Mul<Output = F>,
    {
        let (k0, k1, one) = (from_u64(K0), from_u64(K1), from_u64(1));
        let (mut x, mut y, mut r) = (from_u64(SEED.0), from_u64(SEED.1), from_u64(0));
        let mut values = Vec::with_capacity(3 * n);
        for _ in 0..n {
            values.extend_from_slice(&[x, y, r]);
            let t = x + k0 + k1 * r;
            (x, y, r) = (y + t * t * t, x, r + one);
        }
        let last = &values[3 * (n - 1)..];
        let public_inputs = vec![from_u64(SEED.0), from_u64(SEED.1), last[0], last[1]];
        Trace {
            width: 3,
            values,
            public_inputs,
        }
    }
}

/// The host's entry points for this AIR: the registry's generic `prove_air` / `verify_air`
/// named once for [`VdfAir`], so the `vdf` binary and the tests share one build of every
/// backend's prover for it (each generic call site would compile all five again).
#[cfg(feature = "host")]
pub mod host {
    use picostark_core::prove::{ProveError, ProveRequest};
    use picostark_core::{BackendId, HashId, Policy, Statement, Verified, VerifyError};
    use picostark_registry::{prove_air, prover_in, verify_air, With};

    use super::{AirDef, VdfAir, Vec};

    /// Proves the VDF at n = 2^`log_n` with `backend` (its defaults, BLAKE3): the proof file.
    pub fn prove(backend: BackendId, log_n: u8) -> Result<Vec<u8>, ProveError> {
        prove_air::<VdfAir>(backend, log_n)
    }

    /// Verifies a proof file of the VDF (or of a built-in AIR) with the backend its header
    /// names, as the firmware built with this AIR does.
    pub fn verify(
        bytes: &[u8],
        expected: Option<&Statement<'_>>,
        policy: &Policy,
    ) -> Result<Verified, VerifyError> {
        verify_air::<VdfAir>(bytes, expected, policy)
    }

    /// Whether `backend`'s prover takes the VDF at n = 2^`log_n` (its own checks, without
    /// proving): stwo-m31's prover is a nightly binary with the built-in AIRs only.
    pub fn refusal(backend: BackendId, log_n: u8) -> Result<(), ProveError> {
        let prover = prover_in::<With<VdfAir>>(backend)
            .ok_or_else(|| ProveError(alloc::format!("{backend} is not in this build")))?;
        let request = ProveRequest {
            air: VdfAir.id(),
            log_n,
            extension_degree: prover.extension_degrees()[0],
            params: prover.default_params(),
            hash: HashId::Blake3_256,
        };
        prover.check_request(&request)
    }
}

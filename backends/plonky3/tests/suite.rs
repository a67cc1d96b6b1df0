//! The crate's integration tests, one module a file, built as one test binary: each file as a
//! binary of its own compiled the provers' generic code again (about 90 CPU-s a binary on
//! CI's 2-core machine). Run one file's tests with `cargo test -p picostark-plonky3 --test
//! suite <file>::`.
//!
//! Only `lean_only` builds without the prover (the `lean-only` feature sets of `.ci/test`).

#[cfg(feature = "prover")]
mod common;
#[cfg(feature = "prover")]
mod extensions;
#[cfg(feature = "prover")]
mod header_limits;
#[cfg(feature = "prover")]
mod lean_alloc;
#[cfg(feature = "prover")]
mod lean_circle_differential;
#[cfg(feature = "prover")]
mod lean_differential;
mod lean_only;
#[cfg(feature = "prover")]
mod lean_reasons;
#[cfg(feature = "prover")]
mod lean_wide_circle_differential;
#[cfg(feature = "prover")]
mod security;
#[cfg(feature = "prover")]
mod sha256;
#[cfg(feature = "prover")]
mod verify;
#[cfg(feature = "prover")]
mod wide_circle;

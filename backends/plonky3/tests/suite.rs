//! The crate's integration tests, one module a file, built as one test binary: each file as a
//! binary of its own compiled the provers' generic code again (about 90 CPU-s a binary on
//! CI's 2-core machine). Run one file's tests with `cargo test -p picostark-plonky3 --test
//! suite <file>::`.
//!
//! `lean_only.rs` is also a binary of its own in the `lean-only` builds (no prover), which
//! verify the proofs this suite's `lean_only` module saved.

mod common;
mod extensions;
mod header_limits;
mod lean_alloc;
mod lean_circle_differential;
mod lean_differential;
mod lean_only;
mod lean_reasons;
mod lean_wide_circle_differential;
mod security;
mod sha256;
mod verify;
mod wide_circle;

//! The crate's integration tests, one module a file, built as one test binary (a binary a
//! file compiled the same generic verifier and prover code again for each). Run one file's
//! tests with `cargo test -p picostark-winterfell --features prover --test suite <file>::`.
//!
//! `no_thread_pool` stays a binary of its own: it needs the `concurrent` feature and a
//! process whose global thread pool no other test has started.

mod alloc;
mod common;
#[cfg(feature = "prover")]
mod differential;
mod header_limits;
mod hostile_payload;
#[cfg(feature = "prover")]
mod prove_verify;
#[cfg(feature = "prover")]
mod reasons;
mod reference;
mod security;
#[cfg(feature = "prover")]
mod sha256;

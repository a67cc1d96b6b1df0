//! The CLI's integration tests, one module a file, built as one test binary: a binary a file
//! compiled the provers' and verifiers' generic code again for each (`completeness` and
//! `malleability` took about 170 CPU-s each on CI's 2-core machine). Run one file's tests with
//! `cargo test -p prover-host --test suite <file>::`.
//!
//! `mutation` stays a binary of its own: its global allocator counts every allocation of the
//! process, so no other test may run beside it.

mod bench;
mod cli;
mod completeness;
mod fuzz_smoke;
mod malleability;
mod stwo;

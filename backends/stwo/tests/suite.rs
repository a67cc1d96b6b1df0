//! The crate's integration tests, one module a file, built as one test binary. Run one file's
//! tests with `cargo test -p picostark-stwo --test suite <file>::`.

mod differential;
mod lean;
mod security;
mod verify;

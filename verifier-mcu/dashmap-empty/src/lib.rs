//! Empty: stands in for `dashmap` in the firmware build, where stwo's verifier (the only
//! stwo code linked) never uses it (see Cargo.toml).
#![no_std]

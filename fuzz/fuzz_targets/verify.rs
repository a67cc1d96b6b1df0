//! libFuzzer target: arbitrary and format-aware mutations of proof files through every
//! verifier path (`src/mutate.rs`: the body and the mutator, shared with CI's smoke run).
#![no_main]

#[path = "../src/mutate.rs"]
mod mutate;

use libfuzzer_sys::{fuzz_mutator, fuzz_target, fuzzer_mutate};

fuzz_target!(|data: &[u8]| {
    mutate::check(data);
});

fuzz_mutator!(|data: &mut [u8], size: usize, max_size: usize, seed: u32| {
    let mut rng = mutate::Rng(seed | 1);
    // One in four inputs goes to libFuzzer's byte-level mutations (and to inputs that no
    // longer parse).
    if rng.below(4) != 0 {
        if let Some(out) = mutate::structured(&data[..size], &mut rng) {
            if out.len() <= max_size {
                data[..out.len()].copy_from_slice(&out);
                return out.len();
            }
        }
    }
    fuzzer_mutate(data, size, max_size)
});

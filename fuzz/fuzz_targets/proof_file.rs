//! Fuzzes the proof-file parser: never panics, and whatever parses re-encodes to the input.
#![no_main]

use libfuzzer_sys::fuzz_target;
use picostark_core::proof_file::encode;
use picostark_core::ProofFile;

fuzz_target!(|data: &[u8]| {
    if let Ok(file) = ProofFile::parse(data) {
        let public: Vec<u64> = file.public_inputs.iter().collect();
        assert_eq!(encode(&file.header, &public, file.payload), data);
    }
});

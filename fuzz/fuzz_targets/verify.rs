//! Fuzzes parse + verify for every backend: the input is a proof file, handed to the verifier
//! its header names (so mutations reach each backend's payload decoding and verification).
//! Must never panic; a mutated proof being accepted is a finding too, but only a valid
//! seed is expected to verify, so acceptance is not asserted here (the mutation suite does).
#![no_main]

use libfuzzer_sys::fuzz_target;
use picostark_core::{verify, BackendId, Policy, ProofFile, Verifier};
use picostark_plonky3::{P3BabyBearVerifier, P3GoldilocksVerifier, P3M31Verifier};
use picostark_winterfell::{WfBabyBearVerifier, WfGoldilocksVerifier};

fuzz_target!(|data: &[u8]| {
    let Ok(file) = ProofFile::parse(data) else {
        return;
    };
    let verifier: &dyn Verifier = match file.header.backend {
        BackendId::P3BabyBear => &P3BabyBearVerifier,
        BackendId::P3Goldilocks => &P3GoldilocksVerifier,
        BackendId::P3M31 => &P3M31Verifier,
        BackendId::WfGoldilocks => &WfGoldilocksVerifier::default(),
        BackendId::WfBabyBear => &WfBabyBearVerifier::default(),
    };
    let _ = verify(verifier, data, None, &Policy::default());
});

//! Shared test helpers: the zkmcu reference proofs wrapped into picostark proof files.
#![allow(dead_code)]

use picostark_core::proof_file::{encode, FIXED_HEADER_LEN};
use picostark_core::{AirId, BackendId, HashId, ProofHeader};

/// The parameters of the reference proofs (and our defaults).
pub use picostark_winterfell::INTEROP_PARAMS as REFERENCE_PARAMS;

pub fn header(backend: BackendId, extension_degree: u8) -> ProofHeader {
    ProofHeader {
        backend,
        field: backend.field(),
        extension_degree,
        hash: HashId::Blake3_256,
        air: AirId::Fibonacci,
        log_n: 10,
        params: REFERENCE_PARAMS,
    }
}

fn data(path: &str) -> Vec<u8> {
    let full = format!("{}/testdata/zkmcu-fork/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

/// The Goldilocks x quadratic reference proof as a proof file, and its public input.
pub fn goldilocks_reference() -> (Vec<u8>, u64) {
    let public = u64::from_le_bytes(
        data("stark-fib-1024-goldilocks/public.bin")
            .try_into()
            .unwrap(),
    );
    let payload = data("stark-fib-1024-goldilocks/proof.bin");
    (
        encode(&header(BackendId::WfGoldilocks, 2), &[public], &payload),
        public,
    )
}

/// The BabyBear x quartic reference proof (fork tag 4) as a proof file, and its public input.
pub fn babybear_reference() -> (Vec<u8>, u64) {
    let public = u32::from_le_bytes(
        data("stark-fib-1024-babybear/public.bin")
            .try_into()
            .unwrap(),
    );
    let payload = data("stark-fib-1024-babybear/proof.bin");
    (
        encode(
            &header(BackendId::WfBabyBear, 4),
            &[u64::from(public)],
            &payload,
        ),
        u64::from(public),
    )
}

/// Offset of the payload in a proof file with one public input.
pub const PAYLOAD_OFFSET: usize = FIXED_HEADER_LEN + 8 + 4;

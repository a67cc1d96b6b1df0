//! Wraps the zkmcu BabyBear x quartic reference proof (../shared/interop/zkmcu-fork) into a
//! picostark proof file: backend wf-babybear, extension degree 4, the interop options
//! (32 queries, blowup 8, grinding 0, folding 8, remainder degree 31), Blake3-256,
//! Fibonacci n = 1024, public input = public.bin (u32 LE). Usage: wrap DIR OUT.
use picostark_core::{proof_file, AirId, BackendId, HashId, ProofHeader, ProofParams};

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let dir = std::path::Path::new(&a[1]);
    let payload = std::fs::read(dir.join("proof.bin")).unwrap();
    let public = std::fs::read(dir.join("public.bin")).unwrap();
    let public = u32::from_le_bytes(public.try_into().expect("4 bytes")) as u64;
    let backend = BackendId::WfBabyBear;
    let header = ProofHeader {
        backend,
        field: backend.field(),
        extension_degree: 4,
        hash: HashId::Blake3_256,
        air: AirId::Fibonacci,
        log_n: 10,
        params: ProofParams {
            log_blowup: 3,
            num_queries: 32,
            pow_bits: 0,
            log_fold_arity: 3,
            log_final_poly_len: 5,
        },
    };
    let file = proof_file::encode(&header, &[public], &payload);
    std::fs::write(&a[2], &file).unwrap();
    println!(
        "{}: {} bytes (payload {}), public {}",
        a[2],
        file.len(),
        payload.len(),
        public
    );
}

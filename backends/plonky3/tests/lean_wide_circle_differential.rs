//! The lean wide-circle verifier (`lean::wide_circle`, issue 25) against the stock one
//! (postcard + `p3_uni_stark::verify` over our `circle_pcs::WideCirclePcs`): the same
//! verdict on valid proofs (Fibonacci and chain16, several folding arities, final lengths,
//! blowups, query counts and trace lengths, QM31 and the cubic extension, BLAKE3 and
//! SHA-256), on every single-bit change of a small proof's payload, on moved headers; and
//! the stock verifier never panics on them.

use crate::common;

use picostark_airs::Builtins;
use std::panic::{catch_unwind, AssertUnwindSafe};

use common::payload_at;
use picostark_core::prove::{ProveRequest, Prover};
use picostark_core::{AirId, HashId, ProofFile, ProofParams};
use picostark_plonky3::lean::wide_circle;
use picostark_plonky3::{P3M31Prover, P3M31Verifier};

fn prove(air: AirId, log_n: u8, ext: u8, hash: HashId, p: ProofParams) -> Vec<u8> {
    let req = ProveRequest {
        air,
        log_n,
        extension_degree: ext,
        params: p,
        hash,
    };
    P3M31Prover
        .prove(&req, &mut |_| {})
        .expect("proving succeeds")
}

fn params(k: u8, f: u8, log_blowup: u8, num_queries: u16, pow_bits: u8) -> ProofParams {
    ProofParams {
        log_blowup,
        num_queries,
        pow_bits,
        log_fold_arity: k,
        log_final_poly_len: f,
    }
}

/// `(lean, stock)` verdicts; the lean path must take the proof (`Some`) and the stock one
/// must not panic.
fn verdicts(bytes: &[u8]) -> Option<(bool, bool)> {
    let file = ProofFile::parse(bytes).ok()?;
    let lean =
        wide_circle::verify_m31::<Builtins>(&file).expect("within the lean verifier's bounds");
    let stock = catch_unwind(AssertUnwindSafe(|| {
        P3M31Verifier.verify_payload_stock(&file)
    }))
    .expect("the stock verifier does not panic");
    Some((lean.is_ok(), stock.is_ok()))
}

#[test]
fn valid_proofs_are_accepted_by_both() {
    // (k, f, log_blowup, queries, pow bits, log_n)
    let shapes = [
        (1, 1, 1, 8, 0, 3),
        (2, 0, 2, 6, 2, 4),
        (3, 3, 1, 7, 1, 5),
        (4, 2, 3, 9, 0, 6),
        (4, 3, 6, 14, 8, 10),
        (3, 2, 2, 32, 0, 7),
    ];
    for air in [AirId::Fibonacci, AirId::CubicChain16] {
        for hash in [HashId::Blake3_256, HashId::Sha256] {
            for ext in [4, 3] {
                for &(k, f, b, q, pow, log_n) in &shapes {
                    let p = params(k, f, b, q, pow);
                    let bytes = prove(air, log_n, ext, hash, p);
                    assert_eq!(
                        verdicts(&bytes),
                        Some((true, true)),
                        "{air} {hash:?} x{ext} n=2^{log_n} {p:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn every_payload_bit_flip_gets_the_same_verdict() {
    for (air, p) in [
        (AirId::Fibonacci, params(2, 1, 1, 3, 0)),
        (AirId::CubicChain16, params(4, 0, 1, 2, 1)),
    ] {
        let bytes = prove(air, 3, 4, HashId::Blake3_256, p);
        let start = payload_at(&bytes);
        let mut rejected = 0;
        for at in start..bytes.len() {
            for bit in [0x01u8, 0x80] {
                let mut bad = bytes.clone();
                bad[at] ^= bit;
                let (lean, stock) = verdicts(&bad).unwrap();
                assert_eq!(lean, stock, "{air}: byte {at} ^ {bit:#x}");
                rejected += usize::from(!lean);
            }
        }
        // Every change is rejected (no byte of this encoding is free).
        assert_eq!(rejected, 2 * (bytes.len() - start), "{air}");
    }
}

#[test]
fn moved_headers_get_the_same_verdict() {
    let bytes = prove(
        AirId::Fibonacci,
        6,
        4,
        HashId::Blake3_256,
        params(3, 2, 2, 8, 0),
    );
    let file = ProofFile::parse(&bytes).unwrap();
    let public: Vec<u64> = (0..file.public_inputs.len())
        .map(|i| file.public_inputs.get(i).unwrap())
        .collect();
    for k in 1..=4u8 {
        for f in 0..=4u8 {
            for b in [1u8, 2, 3] {
                if (k, f) == picostark_core::CirclePcsKind::UPSTREAM_FOLDING {
                    continue; // upstream's CirclePcs, another verifier
                }
                let mut header = file.header;
                header.params.log_fold_arity = k;
                header.params.log_final_poly_len = f;
                header.params.log_blowup = b;
                let moved = picostark_core::proof_file::encode(&header, &public, file.payload);
                let want = (k, f, b) == (3, 2, 2);
                assert_eq!(verdicts(&moved), Some((want, want)), "k {k} f {f} b {b}");
            }
        }
    }
}

/// The membership AIR (issue 28: 238 columns, 36 public inputs) over our `WideCirclePcs`
/// (folding by 16, an 8-coefficient final polynomial, the default blowup, queries and PoW)
/// on the lean path: the valid proof accepted by both verifiers, every tampered copy
/// (payload bytes, wrong root, nullifier or scope) rejected by both.
#[test]
fn membership_proofs_take_the_lean_path_and_agree() {
    let p = params(4, 3, 6, 14, 20);
    let bytes = prove(AirId::Membership, 4, 4, HashId::Blake3_256, p);
    assert_eq!(verdicts(&bytes), Some((true, true)));
    for (what, t) in common::membership_tampers(&bytes) {
        assert_eq!(verdicts(&t), Some((false, false)), "{what}");
    }
}

/// BLAKE3 compressions of one lean verification of Fib-1024 (host count, feature
/// `hash-count`): p3-m31 over WideCirclePcs at several folds and final lengths beside
/// p3-m31 over upstream's CirclePcs and p3-babybear at their defaults, each with its
/// strictest-conjecture security. Run with
/// `cargo test --release -p picostark-plonky3 --features hash-count --test
/// lean_wide_circle_differential count -- --nocapture`.
#[cfg(feature = "hash-count")]
#[test]
fn count_compressions_at_fib_1024() {
    use picostark_airs::bits;
    use picostark_core::security::Regime;
    use picostark_plonky3::{hash_count, lean, P3BabyBearProver, DEFAULT_PARAMS_TWO_ADIC};
    let count = |bytes: &[u8], babybear: bool| {
        let file = ProofFile::parse(bytes).unwrap();
        hash_count::reset();
        let ok = if babybear {
            lean::verify_babybear_file::<Builtins>(&file)
                .unwrap()
                .is_ok()
        } else {
            picostark_plonky3::lean::verify_m31_file::<Builtins>(&file)
                .unwrap()
                .is_ok()
        };
        let n = hash_count::compressions();
        hash_count::stop();
        assert!(ok);
        (
            n,
            bits(&file.header, Regime::Strictest).unwrap(),
            bytes.len(),
        )
    };
    let req = |p| ProveRequest {
        air: AirId::Fibonacci,
        log_n: 10,
        extension_degree: 4,
        params: p,
        hash: HashId::Blake3_256,
    };
    let bb = P3BabyBearProver
        .prove(&req(DEFAULT_PARAMS_TWO_ADIC), &mut |_| {})
        .unwrap();
    let (n, s, len) = count(&bb, true);
    println!("p3-babybear {DEFAULT_PARAMS_TWO_ADIC}: {n} compressions, {s} bits, {len} B");
    let mut rows = vec![
        picostark_plonky3::DEFAULT_PARAMS_CIRCLE,
        picostark_plonky3::UPSTREAM_CIRCLE_PARAMS,
    ];
    for (k, f) in [
        (2, 0),
        (2, 2),
        (3, 2),
        (3, 3),
        (4, 2),
        (4, 3),
        (4, 4),
        (4, 5),
    ] {
        rows.push(params(k, f, 6, 14, 20));
    }
    rows.push(params(4, 6, 8, 10, 20));
    rows.push(params(4, 5, 8, 10, 20));
    for p in rows {
        let bytes = P3M31Prover.prove(&req(p), &mut |_| {}).unwrap();
        let (n, s, len) = count(&bytes, false);
        println!("p3-m31 {p}: {n} compressions, {s} bits, {len} B");
    }
}

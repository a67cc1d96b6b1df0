//! `picostark_core::security` against winterfell 0.13.1, which defines regime (b) (its
//! conjectured rule) and the proven regimes (d) and (e): on a grid of parameters, the core's
//! integer figures must equal `Proof::conjectured_security` and `Proof::proven_security`
//! (`winter-air`, `src/proof/security.rs`), for linear batching (winterfell proofs) and for
//! algebraic batching (how Plonky3 proofs batch).

use picostark_airs::{bits, shape_by_id};
use picostark_core::security::Regime;
use picostark_core::{AirId, BackendId, Domain, FieldId, HashId, ProofHeader, ProofParams};
use picostark_winterfell::field::BabyBear;
use winter_air::proof::{Context, Proof};
use winter_air::{BatchingMethod, FieldExtension, ProofOptions, TraceInfo};
use winter_crypto::hashers::Blake3_256;
use winter_math::fields::f64::BaseElement as Goldilocks;
use winter_math::StarkField;

/// winterfell's three figures (conjectured, proven unique, proven list) for a proof with
/// these options, trace width and length, and constraint count.
fn library<B: StarkField>(
    options: ProofOptions,
    width: usize,
    log_n: u8,
    num_constraints: usize,
) -> (u32, u32, u32) {
    let mut proof = Proof::new_dummy();
    proof.context = Context::new::<B>(TraceInfo::new(width, 1 << log_n), options, num_constraints);
    let conjectured = proof.conjectured_security::<Blake3_256<B>>().bits();
    let proven = proof.proven_security::<Blake3_256<B>>();
    (conjectured, proven.udr_bits(), proven.ldr_bits())
}

fn options(ext: u8, p: &ProofParams, batching: BatchingMethod) -> ProofOptions {
    let extension = match ext {
        1 => FieldExtension::None,
        2 => FieldExtension::Quadratic,
        _ => FieldExtension::Cubic,
    };
    ProofOptions::new(
        p.num_queries.into(),
        1 << p.log_blowup,
        p.pow_bits.into(),
        extension,
        1 << p.log_fold_arity,
        (1 << p.log_final_poly_len) - 1,
        batching,
        batching,
    )
}

fn ours(
    backend: BackendId,
    ext: u8,
    air: AirId,
    log_n: u8,
    params: ProofParams,
) -> (u32, u32, u32) {
    let h = ProofHeader {
        backend,
        field: backend.field(),
        extension_degree: ext,
        hash: HashId::Blake3_256,
        air,
        log_n,
        params,
    };
    (
        bits(&h, Regime::Winterfell).unwrap(),
        bits(&h, Regime::ProvenUnique).unwrap(),
        bits(&h, Regime::ProvenList).unwrap(),
    )
}

/// The grid: blowups 2..128, queries 4..200, grinding 0..32, folding 2..16, remainder
/// lengths 1..256, trace lengths 2^3..2^20.
fn grid() -> impl Iterator<Item = (u8, ProofParams)> {
    let mut out = Vec::new();
    for log_n in [3u8, 6, 10, 13, 16, 20] {
        for log_blowup in 1..=7u8 {
            for num_queries in [4u16, 13, 14, 27, 32, 50, 90, 200] {
                for pow_bits in [0u8, 16, 20, 32] {
                    let i = usize::from(log_n) + usize::from(log_blowup) + usize::from(num_queries);
                    out.push((
                        log_n,
                        ProofParams {
                            log_blowup,
                            num_queries,
                            pow_bits,
                            log_fold_arity: 1 + (i % 4) as u8,
                            log_final_poly_len: [0u8, 2, 5, 8][(i / 4) % 4],
                        },
                    ));
                }
            }
        }
    }
    out.into_iter()
}

#[test]
fn linear_batching_matches_winterfell_on_a_grid() {
    let mut points = 0;
    let mut best = (0, 0, 0);
    for (log_n, p) in grid() {
        for ext in 1..=3u8 {
            let opts = options(ext, &p, BatchingMethod::Linear);
            // Linear batching: the figures do not depend on the AIR.
            let lib_g = library::<Goldilocks>(opts.clone(), 2, log_n, 5);
            let got_g = ours(BackendId::WfGoldilocks, ext, AirId::Fibonacci, log_n, p);
            assert_eq!(got_g, lib_g, "Goldilocks x{ext} n=2^{log_n} {p}");
            let lib_b = library::<BabyBear>(opts, 16, log_n, 36);
            let got_b = ours(BackendId::WfBabyBear, ext, AirId::CubicChain16, log_n, p);
            assert_eq!(got_b, lib_b, "BabyBear x{ext} n=2^{log_n} {p}");
            points += 2;
            best = (
                best.0.max(lib_g.0),
                best.1.max(lib_g.1),
                best.2.max(lib_g.2),
            );
        }
    }
    assert!(points > 8000, "{points}");
    // The grid reaches every figure's upper range, not only its floor.
    assert!(best.0 >= 127 && best.1 >= 100 && best.2 >= 120, "{best:?}");
}

#[test]
fn algebraic_batching_matches_winterfell_where_it_can_be_expressed() {
    // winterfell counts `width + blowup` committed polynomials; Plonky3 proofs batch
    // `AirShape::num_batched_functions`. Choosing width = that count - blowup makes the two
    // agree, which is possible for small blowups.
    let mut points = 0;
    for air in [AirId::Fibonacci, AirId::CubicChain16] {
        let shape = shape_by_id(air, FieldId::Goldilocks, Domain::TwoAdic).unwrap();
        let batched = shape.num_batched_functions(2, false) as usize;
        for (log_n, p) in grid() {
            let blowup = 1usize << p.log_blowup;
            if batched <= blowup {
                continue;
            }
            let opts = options(2, &p, BatchingMethod::Algebraic);
            let lib = library::<Goldilocks>(
                opts,
                batched - blowup,
                log_n,
                shape.num_constraints as usize,
            );
            let got = ours(BackendId::P3Goldilocks, 2, air, log_n, p);
            assert_eq!(got, lib, "{air} n=2^{log_n} {p}");
            points += 1;
        }
    }
    assert!(points > 500, "{points}");
}

#[test]
fn the_issues_examples() {
    // Blowup 64, 13 queries, 20 PoW bits: 77 under winterfell's rule (78 query bits < 80).
    let p = ProofParams {
        log_blowup: 6,
        num_queries: 13,
        pow_bits: 20,
        log_fold_arity: 3,
        log_final_poly_len: 5,
    };
    let lib = library::<Goldilocks>(options(2, &p, BatchingMethod::Linear), 2, 10, 5);
    assert_eq!(lib.0, 77);
    assert_eq!(
        ours(BackendId::WfGoldilocks, 2, AirId::Fibonacci, 10, p),
        lib
    );
}

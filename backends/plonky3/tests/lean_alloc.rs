//! The lean verifier's heap use on the verify path: counted by a global allocator that tallies
//! every allocation while one verification runs (host, 64-bit; the firmware's heap peak is in
//! its run records). Measured (host, this test, BabyBear^4 and Goldilocks^2 at the default
//! parameters): 8 allocations (Fibonacci) or 9 (CubicChain16), peak 4,220 / 5,668 live
//! bytes: the challenger's input buffer (statement + 2 KB) and output buffer, the AIR's
//! boundary list, CubicChain16's transition scratch, the opened values at the AIR's width, the
//! AIR's evaluation values at zeta (after the PCS's state is freed), and
//! the PCS's per-query and per-round state at the header's query and round counts (three
//! allocations: challenge-field values, commitments, leaves; issue 28 item 5 moved them off
//! the stack, where they took up to 16 KB at the `MAX_*` bounds). Asserted bound: at most 9
//! allocations and 6 KB. The circle paths make 10 / 11 (values, digests, Merkle nodes, points),
//! peaks 6,556 / 7,508 (upstream's CirclePcs) and 5,900 / 6,852 (our WideCirclePcs), bounded
//! at 11 and 7 KB.

use crate::common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use picostark_core::prove::Prover;
use picostark_core::{AirId, HashId, ProofFile};
use picostark_plonky3::*;

struct Counting;

// Per thread: the suite's other tests allocate on their own threads while one is counted.
thread_local! {
    static ON: Cell<bool> = const { Cell::new(false) };
    static COUNT: Cell<usize> = const { Cell::new(0) };
    static LIVE: Cell<usize> = const { Cell::new(0) };
    static PEAK: Cell<usize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // `try_with`: a thread's allocations after its locals are gone are not counted.
        let _ = ON.try_with(|on| {
            if on.get() {
                COUNT.set(COUNT.get() + 1);
                LIVE.set(LIVE.get() + layout.size());
                PEAK.set(PEAK.get().max(LIVE.get()));
            }
        });
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        let _ = ON.try_with(|on| {
            if on.get() {
                LIVE.set(LIVE.get().wrapping_sub(layout.size()));
            }
        });
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static A: Counting = Counting;

/// (allocations, peak live bytes) of one lean verification, and its verdict.
fn measure(bytes: &[u8]) -> (usize, usize, bool) {
    let (count, peak, verdict) = measure_lean(bytes);
    (count, peak, verdict.expect("lean path"))
}

/// [`measure`] for a proof the lean path may leave to the stock verifier (verdict `None`).
fn measure_lean(bytes: &[u8]) -> (usize, usize, Option<bool>) {
    let file = ProofFile::parse(bytes).unwrap();
    COUNT.set(0);
    LIVE.set(0);
    PEAK.set(0);
    ON.set(true);
    let verdict = lean::verify(&file).map(|r| r.is_ok());
    ON.set(false);
    (COUNT.get(), PEAK.get(), verdict)
}

#[test]
fn verify_path_allocates_a_small_fixed_amount() {
    for (prover, ext) in [
        (&P3BabyBearProver as &dyn Prover, 4u8),
        (&P3GoldilocksProver as &dyn Prover, 2u8),
    ] {
        for air in [AirId::Fibonacci, AirId::CubicChain16] {
            let bytes = common::prove_default(prover, air, 10, ext, HashId::Blake3_256).unwrap();
            let (count, peak, ok) = measure(&bytes);
            assert!(ok);
            println!("{air:?} ext {ext}: {count} allocations, peak {peak} bytes");
            assert!(count <= 9, "{count} allocations");
            assert!(peak <= 6144, "{peak} bytes");
            // The same bound on a rejected proof (its last payload byte changed).
            let mut t = bytes.clone();
            *t.last_mut().unwrap() ^= 1;
            let (count, peak, ok) = measure(&t);
            assert!(!ok);
            assert!(
                count <= 9 && peak <= 6144,
                "{count} allocations, {peak} bytes"
            );
        }
    }
    wide_circle_verify_path_allocates_the_same_fixed_amount();
    membership_allocates_at_its_width();
    hostile_query_counts_allocate_at_most_the_bound();
}

/// Per-query state is allocated at the header's query count (issue 28 item 5), so a header
/// claiming more queries than its proof holds must cost at most the bound's state: up to
/// `MAX_QUERIES` the lean path allocates that count's state and rejects the proof; past it,
/// it allocates nothing and leaves the proof to the stock verifier (`None`). Called from the
/// first test (the counter is process-wide).
fn hostile_query_counts_allocate_at_most_the_bound() {
    use picostark_plonky3::lean::bounds::MAX_QUERIES;
    for prover in [&P3BabyBearProver as &dyn Prover, &P3M31Prover] {
        let bytes =
            common::prove_default(prover, AirId::Fibonacci, 10, 4, HashId::Blake3_256).unwrap();
        let (_, honest_peak, ok) = measure(&bytes);
        assert!(ok);
        for q in [MAX_QUERIES, MAX_QUERIES + 1, 512] {
            let mut t = bytes.clone();
            // The header's query count (bytes 14..16, `picostark_core::proof_file`).
            t[14..16].copy_from_slice(&(q as u16).to_le_bytes());
            let (count, peak, verdict) = measure_lean(&t);
            println!(
                "{} q = {q}: {count} allocations, peak {peak} bytes (honest {honest_peak})",
                prover.backend()
            );
            if q <= MAX_QUERIES {
                assert_eq!(verdict, Some(false));
                assert!(peak <= 16 * 1024, "{peak} bytes");
            } else {
                assert_eq!(verdict, None);
                assert_eq!((count, peak), (0, 0));
            }
        }
    }
}

/// The same bound for `p3-m31` proofs over our WideCirclePcs (issue 25: folding by 16, an
/// 8-coefficient final polynomial): its per-query and per-round state is on the heap at the
/// proof's counts, as upstream CirclePcs's lean verifier's is. One allocation more, and its
/// bytes above CirclePcs's peak: a line layer's twiddles of every query (`2^4 - 1` base
/// elements each at folding by 16), kept for the layer's one batched inversion (issue 44,
/// third step; CirclePcs's path inverts per query). Called from the test above: the counter
/// is process-wide, so the measurements must not run in parallel.
fn wide_circle_verify_path_allocates_the_same_fixed_amount() {
    let params = picostark_core::ProofParams {
        log_fold_arity: 4,
        log_final_poly_len: 3,
        ..UPSTREAM_CIRCLE_PARAMS
    };
    for air in [AirId::Fibonacci, AirId::CubicChain16] {
        let req = |params| picostark_core::prove::ProveRequest {
            air,
            log_n: 10,
            extension_degree: 4,
            params,
            hash: HashId::Blake3_256,
        };
        // Upstream's CirclePcs through lean::circle, the reference for the circle path.
        let upstream = P3M31Prover
            .prove(&req(UPSTREAM_CIRCLE_PARAMS), &mut |_| {})
            .unwrap();
        let (up_count, up_peak, ok) = measure(&upstream);
        assert!(ok);
        let mut bytes = P3M31Prover.prove(&req(params), &mut |_| {}).unwrap();
        let (count, peak, ok) = measure(&bytes);
        assert!(ok);
        println!(
            "wide circle {air:?}: {count} allocations, peak {peak} bytes \
             (CirclePcs: {up_count}, {up_peak})"
        );
        let twiddles = 4 * usize::from(params.num_queries) * ((1 << params.log_fold_arity) - 1);
        assert!(
            count <= up_count + 1 && peak <= up_peak + twiddles,
            "{count} allocations, {peak} bytes"
        );
        assert!(
            count <= 11 && peak <= 8192,
            "{count} allocations, {peak} bytes"
        );
        *bytes.last_mut().unwrap() ^= 1;
        let (count, peak, ok) = measure(&bytes);
        assert!(!ok);
        assert!(
            count <= 11 && peak <= 8192,
            "{count} allocations, {peak} bytes"
        );
    }
}

/// The membership AIR (issue 28) on the lean path of every Plonky3 backend: the heap holds
/// the opened values and scratch at the AIR's width, the transcript buffer sized for them,
/// and the AIR's own description (Poseidon2 constants, constraint degrees, built by
/// `Membership::default`): far below the stock verifier's (187 KB on the MCU), and bounded
/// (64 KiB: the widest, Mersenne-31-24's 238 columns, peaks at about 53 KB over upstream's
/// `CirclePcs`). Called from the first test (the counter is process-wide).
fn membership_allocates_at_its_width() {
    let wide = picostark_core::ProofParams {
        log_fold_arity: 4,
        log_final_poly_len: 3,
        ..DEFAULT_PARAMS_CIRCLE
    };
    let cases: [(&dyn Prover, u8, Option<picostark_core::ProofParams>); 4] = [
        (&P3BabyBearProver, 4, None),
        (&P3GoldilocksProver, 2, None),
        (&P3M31Prover, 4, Some(UPSTREAM_CIRCLE_PARAMS)),
        (&P3M31Prover, 4, Some(wide)),
    ];
    for (prover, ext, params) in cases {
        let req = picostark_core::prove::ProveRequest {
            air: AirId::Membership,
            log_n: 4,
            extension_degree: ext,
            params: params.unwrap_or(prover.default_params()),
            hash: HashId::Blake3_256,
        };
        let mut bytes = prover.prove(&req, &mut |_| {}).unwrap();
        let (count, peak, ok) = measure(&bytes);
        assert!(ok);
        println!(
            "membership {} x{ext} {params:?}: {count} allocations, peak {peak} bytes",
            prover.backend()
        );
        assert!(
            count <= 160 && peak <= 64 * 1024,
            "{count} allocations, {peak} bytes"
        );
        *bytes.last_mut().unwrap() ^= 1;
        let (count, peak, ok) = measure(&bytes);
        assert!(!ok);
        assert!(
            count <= 160 && peak <= 64 * 1024,
            "{count} allocations, {peak} bytes"
        );
    }
}

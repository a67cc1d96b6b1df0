//! The lean verifier's heap use on the verify path: counted by a global allocator that tallies
//! every allocation while one verification runs (host; the firmware's heap peak is in its
//! run records). Measured (host, this test): 3 allocations (Fibonacci) or 4 (CubicChain16),
//! peak 2,204 / 2,804 live bytes: the challenger's input buffer (statement + 2 KB) and output
//! buffer, the AIR's boundary list and CubicChain16's transition scratch; none is sized by
//! the proof. Asserted bound: at most 4 allocations and 4 KB; the circle paths (upstream's
//! CirclePcs and our WideCirclePcs, equal to each other) make one allocation more (4 / 5,
//! same peaks), bounded at 5.

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use picostark_core::prove::Prover;
use picostark_core::{AirId, HashId, ProofFile};
use picostark_plonky3::*;

struct Counting;

static ON: AtomicBool = AtomicBool::new(false);
static COUNT: AtomicUsize = AtomicUsize::new(0);
static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if ON.load(Ordering::SeqCst) {
            COUNT.fetch_add(1, Ordering::SeqCst);
            let live = LIVE.fetch_add(layout.size(), Ordering::SeqCst) + layout.size();
            PEAK.fetch_max(live, Ordering::SeqCst);
        }
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if ON.load(Ordering::SeqCst) {
            LIVE.fetch_sub(layout.size(), Ordering::SeqCst);
        }
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static A: Counting = Counting;

/// (allocations, peak live bytes) of one lean verification, and its verdict.
fn measure(bytes: &[u8]) -> (usize, usize, bool) {
    let file = ProofFile::parse(bytes).unwrap();
    COUNT.store(0, Ordering::SeqCst);
    LIVE.store(0, Ordering::SeqCst);
    PEAK.store(0, Ordering::SeqCst);
    ON.store(true, Ordering::SeqCst);
    let ok = lean::verify(&file).expect("lean path").is_ok();
    ON.store(false, Ordering::SeqCst);
    (
        COUNT.load(Ordering::SeqCst),
        PEAK.load(Ordering::SeqCst),
        ok,
    )
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
            assert!(count <= 5, "{count} allocations");
            assert!(peak <= 6144, "{peak} bytes");
            // The same bound on a rejected proof (its last payload byte changed).
            let mut t = bytes.clone();
            *t.last_mut().unwrap() ^= 1;
            let (count, peak, ok) = measure(&t);
            assert!(!ok);
            assert!(
                count <= 6 && peak <= 6144,
                "{count} allocations, {peak} bytes"
            );
        }
    }
    wide_circle_verify_path_allocates_the_same_fixed_amount();
    membership_allocates_at_its_width();
}

/// The same bound for `p3-m31` proofs over our WideCirclePcs (issue 25: folding by 16, an
/// 8-coefficient final polynomial): its lean verifier keeps every per-query value on the
/// stack, so the heap holds only what the uni-stark part allocates. Called from the test
/// above: the counter is process-wide, so the measurements must not run in parallel.
fn wide_circle_verify_path_allocates_the_same_fixed_amount() {
    let params = picostark_core::ProofParams {
        log_fold_arity: 4,
        log_final_poly_len: 3,
        ..DEFAULT_PARAMS_CIRCLE
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
            .prove(&req(DEFAULT_PARAMS_CIRCLE), &mut |_| {})
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
        assert!(
            count <= up_count && peak <= up_peak,
            "{count} allocations, {peak} bytes"
        );
        assert!(
            count <= 6 && peak <= 6144,
            "{count} allocations, {peak} bytes"
        );
        *bytes.last_mut().unwrap() ^= 1;
        let (count, peak, ok) = measure(&bytes);
        assert!(!ok);
        assert!(
            count <= 6 && peak <= 6144,
            "{count} allocations, {peak} bytes"
        );
    }
}

/// The membership AIR (issue 28) on the lean path of every Plonky3 backend: the heap holds
/// the opened values and scratch at the AIR's width, the transcript buffer sized for them,
/// and the AIR's own description (Poseidon2 constants, constraint degrees, built by
/// `Membership::default`): far below the stock verifier's (187 KB on the MCU), and bounded.
/// Called from the first test (the counter is process-wide).
fn membership_allocates_at_its_width() {
    let wide = picostark_core::ProofParams {
        log_fold_arity: 4,
        log_final_poly_len: 3,
        ..DEFAULT_PARAMS_CIRCLE
    };
    let cases: [(&dyn Prover, u8, Option<picostark_core::ProofParams>); 4] = [
        (&P3BabyBearProver, 4, None),
        (&P3GoldilocksProver, 2, None),
        (&P3M31Prover, 4, None),
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
            count <= 160 && peak <= 48 * 1024,
            "{count} allocations, {peak} bytes"
        );
        *bytes.last_mut().unwrap() ^= 1;
        let (count, peak, ok) = measure(&bytes);
        assert!(!ok);
        assert!(
            count <= 160 && peak <= 48 * 1024,
            "{count} allocations, {peak} bytes"
        );
    }
}

//! The lean verifier's heap use on the verify path: counted by a global allocator that tallies
//! every allocation while one verification runs (host; the firmware's heap peak is in its
//! run records). Measured (host, this test): 3 allocations (Fibonacci) or 4 (CubicChain16),
//! peak 2,204 / 2,804 live bytes: the challenger's input buffer (statement + 2 KB) and output
//! buffer, the AIR's boundary list and CubicChain16's transition scratch; none is sized by
//! the proof. Asserted bound: at most 4 allocations and 4 KB.

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
            assert!(count <= 4, "{count} allocations");
            assert!(peak <= 4096, "{peak} bytes");
            // The same bound on a rejected proof (its last payload byte changed).
            let mut t = bytes.clone();
            *t.last_mut().unwrap() ^= 1;
            let (count, peak, ok) = measure(&t);
            assert!(!ok);
            assert!(
                count <= 4 && peak <= 4096,
                "{count} allocations, {peak} bytes"
            );
        }
    }
}

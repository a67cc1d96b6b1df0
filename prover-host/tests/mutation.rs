//! Hostile proofs: a deterministic mutation suite over the Fib-1024 proofs of every backend.
//!
//! Every mutated file must be rejected with an error (a panic fails the test), and while
//! verifying it no single allocation may exceed a bound proportional to the input, and the
//! heap peak may not exceed the MCU heap budget. One `#[test]` only: the counting allocator
//! is process-wide, so nothing else may allocate concurrently while it measures.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use picostark_core::proof_file::FIXED_HEADER_LEN;
use picostark_core::prove::{ProveRequest, Prover};
use picostark_core::{verify, AirId, BackendId, Policy, Verifier};

struct Counting;

static IN_USE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
static LARGEST: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = IN_USE.fetch_add(layout.size(), Relaxed) + layout.size();
            PEAK.fetch_max(now, Relaxed);
            LARGEST.fetch_max(layout.size(), Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        unsafe { System.dealloc(p, layout) };
        IN_USE.fetch_sub(layout.size(), Relaxed);
    }
    unsafe fn realloc(&self, p: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let q = unsafe { System.realloc(p, layout, new_size) };
        if !q.is_null() {
            IN_USE.fetch_sub(layout.size(), Relaxed);
            let now = IN_USE.fetch_add(new_size, Relaxed) + new_size;
            PEAK.fetch_max(now, Relaxed);
            LARGEST.fetch_max(new_size, Relaxed);
        }
        q
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The firmware's default heap (256 KiB of the RP2350's 520 KiB SRAM). Measured here on a
/// 64-bit host, where pointers and `Vec` headers are twice their MCU size, so the check is
/// conservative.
const MCU_HEAP_BUDGET: usize = 256 * 1024;

/// Largest single allocation allowed while verifying an input of `len` bytes.
fn allocation_bound(len: usize) -> usize {
    8 * len + 64 * 1024
}

struct Stats {
    cases: usize,
    worst_peak: usize,
    worst_single: usize,
}

fn check(verifier: &dyn Verifier, bytes: &[u8], what: &str, stats: &mut Stats) {
    let base = IN_USE.load(Relaxed);
    PEAK.store(base, Relaxed);
    LARGEST.store(0, Relaxed);
    let result = verify(verifier, bytes, None, &Policy::default());
    let peak = PEAK.load(Relaxed) - base;
    let largest = LARGEST.load(Relaxed);
    assert!(
        result.is_err(),
        "{}: {what} was accepted",
        verifier.backend()
    );
    assert!(
        largest <= allocation_bound(bytes.len()),
        "{}: {what}: one allocation of {largest} bytes for {} input bytes",
        verifier.backend(),
        bytes.len()
    );
    assert!(
        peak <= MCU_HEAP_BUDGET,
        "{}: {what}: heap peak {peak}",
        verifier.backend()
    );
    stats.cases += 1;
    stats.worst_peak = stats.worst_peak.max(peak);
    stats.worst_single = stats.worst_single.max(largest);
}

fn backends() -> Vec<(Box<dyn Prover>, Box<dyn Verifier>)> {
    use picostark_plonky3 as p3;
    use picostark_winterfell as wf;
    vec![
        (
            Box::new(p3::P3BabyBearProver),
            Box::new(p3::P3BabyBearVerifier),
        ),
        (
            Box::new(p3::P3GoldilocksProver),
            Box::new(p3::P3GoldilocksVerifier),
        ),
        (Box::new(p3::P3M31Prover), Box::new(p3::P3M31Verifier)),
        (
            Box::new(wf::WfGoldilocksProver),
            Box::new(wf::WfGoldilocksVerifier::default()),
        ),
        (
            Box::new(wf::WfBabyBearProver),
            Box::new(wf::WfBabyBearVerifier::default()),
        ),
    ]
}

fn prove(prover: &dyn Prover, log_n: u8) -> Vec<u8> {
    let req = ProveRequest {
        air: AirId::Fibonacci,
        log_n,
        extension_degree: prover.extension_degrees()[0],
        params: prover.default_params(),
    };
    prover.prove(&req, &mut |_| {}).expect("proving succeeds")
}

/// Byte offset of the payload-length field in a one-public-input proof file.
const PAYLOAD_LEN_AT: usize = FIXED_HEADER_LEN + 8;

fn set_payload_len(bytes: &mut [u8]) {
    let len = (bytes.len() - PAYLOAD_LEN_AT - 4) as u32;
    bytes[PAYLOAD_LEN_AT..PAYLOAD_LEN_AT + 4].copy_from_slice(&len.to_le_bytes());
}

/// Positions to flip: every header byte, then a deterministic spread over the payload.
/// `MUTATION_FULL=1` flips every byte (slow; for release-mode runs).
fn flip_positions(len: usize) -> Vec<usize> {
    if std::env::var_os("MUTATION_FULL").is_some() {
        return (0..len).collect();
    }
    let samples = 600;
    let mut v: Vec<usize> = (0..PAYLOAD_LEN_AT + 4).collect();
    v.extend((0..samples).map(|k| PAYLOAD_LEN_AT + 4 + k * (len - PAYLOAD_LEN_AT - 4) / samples));
    v
}

#[test]
fn every_mutation_of_every_backend_is_rejected_within_memory_bounds() {
    let mut report = Vec::new();
    for (prover, verifier) in backends() {
        let verifier = verifier.as_ref();
        let a = prove(prover.as_ref(), 10);
        let b = prove(prover.as_ref(), 11);
        assert!(verify(verifier, &a, None, &Policy::default()).is_ok());
        let mut stats = Stats {
            cases: 0,
            worst_peak: 0,
            worst_single: 0,
        };

        // The valid proof's own figures, for the report.
        let base = IN_USE.load(Relaxed);
        PEAK.store(base, Relaxed);
        verify(verifier, &a, None, &Policy::default()).unwrap();
        let valid_peak = PEAK.load(Relaxed) - base;

        for at in flip_positions(a.len()) {
            for mask in [0x01u8, 0x80] {
                let mut t = a.clone();
                t[at] ^= mask;
                check(verifier, &t, &format!("flip {mask:#x} at {at}"), &mut stats);
            }
        }
        for k in 0..200 {
            let cut = k * a.len() / 200;
            check(
                verifier,
                &a[..cut],
                &format!("truncated to {cut}"),
                &mut stats,
            );
            // Truncated payload with a consistent length field.
            if cut > PAYLOAD_LEN_AT + 4 {
                let mut t = a[..cut].to_vec();
                set_payload_len(&mut t);
                check(verifier, &t, &format!("payload cut to {cut}"), &mut stats);
            }
        }
        for garbage in [&[0u8][..], &[0xff; 7], &[0x80; 64], &a[..1000]] {
            let mut t = a.clone();
            t.extend_from_slice(garbage);
            check(verifier, &t, "garbage appended to the file", &mut stats);
            set_payload_len(&mut t);
            check(verifier, &t, "garbage appended to the payload", &mut stats);
        }
        // Splices: the head of one valid proof and the tail of another, at many offsets,
        // with the header's payload length made consistent.
        for k in 1..100 {
            let at = PAYLOAD_LEN_AT + 4 + k * (a.len().min(b.len()) - PAYLOAD_LEN_AT - 4) / 100;
            let mut t = a[..at].to_vec();
            t.extend_from_slice(&b[at..]);
            set_payload_len(&mut t);
            check(
                verifier,
                &t,
                &format!("splice of n=2^10 and n=2^11 at {at}"),
                &mut stats,
            );
            let mut t = b[..at].to_vec();
            t.extend_from_slice(&a[at..]);
            set_payload_len(&mut t);
            check(
                verifier,
                &t,
                &format!("splice of n=2^11 and n=2^10 at {at}"),
                &mut stats,
            );
        }
        report.push(format!(
            "{:<14} {:>6} cases rejected; valid proof heap peak {:>7} B; worst hostile peak {:>7} B; largest allocation {:>7} B",
            verifier.backend().name(),
            stats.cases,
            valid_peak,
            stats.worst_peak,
            stats.worst_single
        ));
    }
    // The figures, for the record (`cargo test -- --nocapture`).
    for line in &report {
        println!("{line}");
    }
    assert_eq!(report.len(), BackendId::ALL.len());
}

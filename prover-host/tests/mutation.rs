//! Hostile proofs: a deterministic mutation suite over the Fib-1024 proofs of every backend,
//! and an exhaustive sweep of every header value over the Fib-1024 and Fib-8 proofs.
//!
//! Every mutated file must be rejected with an error (a panic fails the test), and while
//! verifying it no single allocation may exceed a bound proportional to the input, and the
//! heap peak may not exceed the MCU heap budget. The counting allocator is process-wide, so
//! the tests take [`SERIAL`] and never measure concurrently.

use std::alloc::{GlobalAlloc, Layout, System};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::{Mutex, MutexGuard};
use std::time::Instant;

use picostark_core::proof_file::FIXED_HEADER_LEN;
use picostark_core::prove::{ProveRequest, Prover};
use picostark_core::{verify, AirId, BackendId, HashId, Policy, ProofFile, Verifier};

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

/// Held by each test for its whole run, so one measures at a time.
static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> MutexGuard<'static, ()> {
    // A failed test poisons the lock; the others still run.
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

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
    check_with(verifier, bytes, what, stats, &Policy::default());
}

fn check_with(
    verifier: &dyn Verifier,
    bytes: &[u8],
    what: &str,
    stats: &mut Stats,
    policy: &Policy,
) {
    let base = IN_USE.load(Relaxed);
    PEAK.store(base, Relaxed);
    LARGEST.store(0, Relaxed);
    let result = verify(verifier, bytes, None, policy);
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

/// Prover, verifier, hash and challenge-field extension degree.
type Row = (Box<dyn Prover>, Box<dyn Verifier>, HashId, u8);

/// Every backend with BLAKE3, then every backend again with SHA-256 (each over its first,
/// default challenge field), then the larger challenge fields of the proven-security track
/// with BLAKE3, then stwo-m31 with its own BLAKE2s.
fn backends() -> Vec<Row> {
    let mut rows: Vec<Row> = default_fields()
        .into_iter()
        .map(|(p, v, h)| {
            let ext = p.extension_degrees()[0];
            (p, v, h, ext)
        })
        .collect();
    use picostark_plonky3 as p3;
    for ext in [5, 8] {
        rows.push((
            Box::new(p3::P3BabyBearProver),
            Box::new(p3::P3BabyBearVerifier),
            HashId::Blake3_256,
            ext,
        ));
    }
    for ext in [3, 5] {
        rows.push((
            Box::new(p3::P3GoldilocksProver),
            Box::new(p3::P3GoldilocksVerifier),
            HashId::Blake3_256,
            ext,
        ));
    }
    let stwo = picostark_registry::prover(BackendId::StwoM31).expect("stwo-m31 is registered");
    let ext = stwo.extension_degrees()[0];
    rows.push((
        stwo,
        picostark_registry::verifier(BackendId::StwoM31).expect("stwo-m31 is registered"),
        HashId::Blake2s256,
        ext,
    ));
    rows
}

/// Rows of the larger challenge fields (`backends` appends them).
const LARGER_FIELD_ROWS: usize = 4;

/// Backends with one row each, their own hash only: stwo-m31 (BLAKE2s, proved by its
/// nightly-built prover through `picostark_stwo::prover_client`).
const ONE_HASH: usize = 1;

/// The hashes the rows here prove with (BLAKE2s is stwo's only).
const HASHES: usize = 2;

/// One backend under test: its prover, its verifier and the hash its proofs use.
type Backend = (Box<dyn Prover>, Box<dyn Verifier>, HashId);

fn default_fields() -> Vec<Backend> {
    use picostark_plonky3 as p3;
    use picostark_winterfell as wf;
    let mut rows: Vec<Backend> = Vec::new();
    for hash in [HashId::Blake3_256, HashId::Sha256] {
        rows.push((
            Box::new(p3::P3BabyBearProver),
            Box::new(p3::P3BabyBearVerifier),
            hash,
        ));
        rows.push((
            Box::new(p3::P3GoldilocksProver),
            Box::new(p3::P3GoldilocksVerifier),
            hash,
        ));
        rows.push((Box::new(p3::P3M31Prover), Box::new(p3::P3M31Verifier), hash));
        rows.push((
            Box::new(wf::WfGoldilocksProver),
            Box::new(wf::WfGoldilocksVerifier::default()),
            hash,
        ));
        rows.push((
            Box::new(wf::WfBabyBearProver),
            Box::new(wf::WfBabyBearVerifier::default()),
            hash,
        ));
    }
    rows
}

fn prove(prover: &dyn Prover, log_n: u8, hash: HashId, ext: u8) -> Vec<u8> {
    let req = ProveRequest {
        air: AirId::Fibonacci,
        log_n,
        extension_degree: ext,
        params: prover.default_params(),
        hash,
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
    let _serial = serial();
    let mut report = Vec::new();
    for (prover, verifier, hash, ext) in backends() {
        let verifier = verifier.as_ref();
        let a = prove(prover.as_ref(), 10, hash, ext);
        let b = prove(prover.as_ref(), 11, hash, ext);
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
            "{:<14} x{ext} {:<10} {:>6} cases rejected; valid proof heap peak {:>7} B; worst hostile peak {:>7} B; largest allocation {:>7} B",
            verifier.backend().name(),
            hash.name(),
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
    assert_eq!(
        report.len(),
        (BackendId::ALL.len() - ONE_HASH) * HASHES + ONE_HASH + LARGER_FIELD_ROWS
    );
}

/// The values a multi-byte header field of `valid` takes in the sweep beyond its single-byte
/// changes: `(offset, length, values)`, little-endian. Queries over their whole meaningful
/// range; the public input around the field modulus (the canonical-element check) and next to
/// its true value; the payload length within 300 bytes of the true one.
fn multi_byte_sweeps(valid: &[u8]) -> Vec<(usize, usize, Vec<u64>)> {
    let file = ProofFile::parse(valid).expect("the swept proof parses");
    let p = file.header.field.modulus();
    let public = file.public_inputs.get(0).expect("one public input");
    let payload_len = file.payload.len() as u64;
    vec![
        (14, 2, (0..=512).chain([u16::MAX.into()]).collect()),
        (
            FIXED_HEADER_LEN,
            8,
            vec![
                0,
                1,
                public.wrapping_sub(1),
                public + 1,
                p - 1,
                p,
                p + 1,
                1 << 32,
                u64::MAX,
            ],
        ),
        (
            PAYLOAD_LEN_AT,
            4,
            (payload_len.saturating_sub(300)..=payload_len + 300).collect(),
        ),
    ]
}

/// The sweep's policy: no security floor, so that every header value the envelope accepts
/// reaches the backend's own checks (a policy is one caller's choice, not the verifier's
/// protection).
fn sweep_policy() -> Policy {
    Policy {
        min_security_bits: 0,
        ..Policy::default()
    }
}

/// Verifies one swept file: through [`verify`] with [`sweep_policy`], and, when the
/// envelope parses, straight through [`Verifier::verify_payload`] (no policy, no
/// `check_supported` before it), as a caller skipping the entry point would. Both must return
/// an error without panicking and within the allocation bounds; a panic is recorded in
/// `panics` (the sweep reports every one, not only the first).
fn sweep_case(
    verifier: &dyn Verifier,
    bytes: &[u8],
    what: &str,
    stats: &mut Stats,
    panics: &mut Vec<String>,
) {
    let caught = catch_unwind(AssertUnwindSafe(|| {
        check_with(verifier, bytes, what, stats, &sweep_policy());
        if let Ok(file) = ProofFile::parse(bytes) {
            let base = IN_USE.load(Relaxed);
            PEAK.store(base, Relaxed);
            LARGEST.store(0, Relaxed);
            let result = verifier.verify_payload(&file);
            assert!(result.is_err(), "{what}: verify_payload accepted it");
            assert!(LARGEST.load(Relaxed) <= allocation_bound(bytes.len()));
            assert!(PEAK.load(Relaxed) - base <= MCU_HEAP_BUDGET);
        }
    }));
    if let Err(payload) = caught {
        let msg = payload
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        panics.push(format!("{}: {what}: {msg}", verifier.backend()));
    }
}

/// Every value 0..=255 of every header byte (fixed header, public input, payload length),
/// then the multi-byte fields over their range, for one valid proof.
fn sweep_header(verifier: &dyn Verifier, valid: &[u8], stats: &mut Stats) -> Vec<String> {
    let mut panics = Vec::new();
    for at in 0..PAYLOAD_LEN_AT + 4 {
        for value in 0..=255u8 {
            if value == valid[at] {
                continue;
            }
            let mut t = valid.to_vec();
            t[at] = value;
            sweep_case(
                verifier,
                &t,
                &format!("byte {at} = {value}"),
                stats,
                &mut panics,
            );
        }
    }
    for (at, len, values) in multi_byte_sweeps(valid) {
        for value in values {
            let mut t = valid.to_vec();
            t[at..at + len].copy_from_slice(&value.to_le_bytes()[..len]);
            if t == valid {
                continue;
            }
            let what = format!("bytes {at}..{} = {value}", at + len);
            sweep_case(verifier, &t, &what, stats, &mut panics);
        }
    }
    panics
}

#[test]
fn every_header_value_of_every_backend_is_rejected_without_panic() {
    let _serial = serial();
    let mut report = Vec::new();
    let mut panics = Vec::new();
    for (prover, verifier, hash, ext) in backends() {
        let verifier = verifier.as_ref();
        // Default-field BLAKE3 rows at two lengths; SHA-256 and larger-field rows at one, to
        // keep the sweep's run time small.
        let lengths: &[u8] = match hash {
            HashId::Blake3_256 if ext == prover.extension_degrees()[0] => &[10, 3],
            _ => &[10],
        };
        for &log_n in lengths {
            let valid = prove(prover.as_ref(), log_n, hash, ext);
            if let Err(e) = verify(verifier, &valid, None, &sweep_policy()) {
                panic!(
                    "{} n=2^{log_n}: valid proof rejected: {e}",
                    verifier.backend()
                );
            }
            let mut stats = Stats {
                cases: 0,
                worst_peak: 0,
                worst_single: 0,
            };
            let start = Instant::now();
            // The default hook would print every caught panic; the sweep lists them at the end.
            let hook = std::panic::take_hook();
            std::panic::set_hook(Box::new(|_| {}));
            panics.extend(sweep_header(verifier, &valid, &mut stats));
            std::panic::set_hook(hook);
            report.push(format!(
                "{:<14} x{ext} {:<10} n=2^{log_n:<2} {:>6} header values rejected in {:.2} s; worst peak {:>7} B; largest allocation {:>7} B",
                verifier.backend().name(),
                hash.name(),
                stats.cases,
                start.elapsed().as_secs_f64(),
                stats.worst_peak,
                stats.worst_single
            ));
        }
    }
    for line in &report {
        println!("{line}");
    }
    assert!(
        panics.is_empty(),
        "{} header values panicked:\n{}",
        panics.len(),
        panics.join("\n")
    );
    assert_eq!(
        report.len(),
        3 * (BackendId::ALL.len() - ONE_HASH) + ONE_HASH + LARGER_FIELD_ROWS
    );
}

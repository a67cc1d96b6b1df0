//! The portable verify loop shared by every board.
//!
//! One run: the `run` line; `ITERATIONS` measured parse + verify calls of the genuine proof;
//! then, when they were accepted, one measured verify with one payload byte flipped, which
//! must be rejected (in place in the QEMU proof slot, else on a heap copy: see
//! [`ProofBytes`]; after a rejection an empty window and a `not-applicable` line instead);
//! the `mem` line (figures of the genuine iterations) and the `done` line. Each measured
//! call sits between [`pstk_measure_start`] and [`pstk_measure_end`], which the QEMU plugin
//! counts between; the board's counter (cycles on silicon) is read just outside them. Copies
//! and output happen outside the measured window. With `stock-wf-window` a measured call is
//! only `winterfell::verify` on a clone of a proof decoded before the loop (the published
//! runs' window, see `stock::window`); otherwise it is the whole parse + verify.

use alloc::vec::Vec;
use core::fmt::Write;
use core::sync::atomic::{compiler_fence, AtomicU32, Ordering};

use picostark_core::record::{
    write_done_line, write_iter_line, write_mem_line, write_not_applicable_line, write_run_line,
    MemoryFigures, LINE_PREFIX,
};
use picostark_core::{Policy, ProofFile, Statement, VerifyError};

#[cfg(not(feature = "stock-wf-window"))]
use crate::verifiers;
use crate::{config, heap, stack};

/// What a board gives the loop.
pub trait Board {
    /// `m33` or `rv32`.
    const CORE: &'static str;
    /// `qemu-m33`, `qemu-rv32` or `rp2350`.
    const BOARD: &'static str;
    /// What [`Board::counter`] counts: `cycles` or `none`.
    const COUNTER: &'static str;
    /// The clock the counter runs at (0 when there is none).
    const CLOCK_HZ: u32;
    /// Width of the counter: differences are taken modulo `2^COUNTER_BITS`.
    const COUNTER_BITS: u32 = 64;
    /// The counter read just before and after each measured call.
    fn counter(&mut self) -> u64;
    /// Writes output text (whole lines).
    fn emit(&mut self, text: &str);
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every genuine iteration accepted and the tampered copy rejected.
    Pass,
    /// The genuine proof was rejected (the tampered copy is then not applicable).
    GenuineRejected,
    /// The tampered copy was accepted.
    TamperedAccepted,
    /// No usable proof file (nothing measured).
    NoProof,
}

impl Outcome {
    /// A small exit code for emulators (0 = pass).
    pub fn code(self) -> u32 {
        match self {
            Outcome::Pass => 0,
            Outcome::GenuineRejected => 1,
            Outcome::TamperedAccepted => 2,
            Outcome::NoProof => 3,
        }
    }
}

/// Written by the markers with volatile stores, so that they can neither be optimised
/// away nor merged into one function.
static MARKER: AtomicU32 = AtomicU32::new(0);

/// Called right before each measured verify. The instruction-count plugin starts counting at
/// this function's first instruction.
#[no_mangle]
#[inline(never)]
pub extern "C" fn pstk_measure_start() {
    // SAFETY: a plain word-sized store to a static.
    unsafe { core::ptr::write_volatile(MARKER.as_ptr(), 0x5354_4152) };
    compiler_fence(Ordering::SeqCst);
}

/// Called right after each measured verify. The plugin stops counting at this function's
/// first instruction.
#[no_mangle]
#[inline(never)]
pub extern "C" fn pstk_measure_end() {
    compiler_fence(Ordering::SeqCst);
    // SAFETY: a plain word-sized store to a static.
    unsafe { core::ptr::write_volatile(MARKER.as_ptr(), 0x454E_4400) };
}

/// A fixed-capacity line buffer (output must not touch the heap being measured).
pub struct LineBuf {
    buf: [u8; 512],
    len: usize,
}

impl LineBuf {
    pub const fn new() -> Self {
        LineBuf {
            buf: [0; 512],
            len: 0,
        }
    }

    pub fn as_str(&self) -> &str {
        core::str::from_utf8(&self.buf[..self.len]).unwrap_or("")
    }

    pub fn clear(&mut self) {
        self.len = 0;
    }
}

impl Write for LineBuf {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        let end = self.len + s.len();
        if end > self.buf.len() {
            return Err(core::fmt::Error);
        }
        self.buf[self.len..end].copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

pub(crate) fn emit_with<B: Board>(
    board: &mut B,
    line: &mut LineBuf,
    f: impl FnOnce(&mut LineBuf) -> core::fmt::Result,
) {
    line.clear();
    if f(line).is_err() {
        line.clear();
        let _ = writeln!(line, "{LINE_PREFIX} error what=output-line-too-long");
    }
    board.emit(line.as_str());
}

/// One measured call: markers and counter around `call`, and nothing else.
#[inline(never)]
pub(crate) fn measured<B: Board, R>(board: &mut B, call: impl FnOnce() -> R) -> (u64, R) {
    let c0 = board.counter();
    pstk_measure_start();
    let result = call();
    pstk_measure_end();
    let c1 = board.counter();
    let mask = if B::COUNTER_BITS >= 64 {
        u64::MAX
    } else {
        (1u64 << B::COUNTER_BITS) - 1
    };
    (c1.wrapping_sub(c0) & mask, result)
}

/// What one measured call of a proof's bytes runs.
#[cfg(not(feature = "stock-wf-window"))]
struct Subject<'a> {
    bytes: &'a [u8],
    expected: Option<&'a Statement<'a>>,
    policy: &'a Policy,
}

#[cfg(not(feature = "stock-wf-window"))]
impl<'a> Subject<'a> {
    fn new(bytes: &'a [u8], expected: Option<&'a Statement<'a>>, policy: &'a Policy) -> Self {
        Subject {
            bytes,
            expected,
            policy,
        }
    }

    /// Envelope parse, checks and verification, all inside the window.
    fn measure<B: Board>(&self, board: &mut B) -> (u64, Result<(), VerifyError>) {
        let (count, r) = measured(board, || {
            verifiers::verify(self.bytes, self.expected, self.policy)
        });
        (count, r.map(|_| ()))
    }
}

/// With `stock-wf-window`: the proof checked and decoded once, outside the window.
#[cfg(feature = "stock-wf-window")]
struct Subject(Result<crate::stock::window::Prepared, VerifyError>);

#[cfg(feature = "stock-wf-window")]
impl Subject {
    fn new(bytes: &[u8], expected: Option<&Statement<'_>>, policy: &Policy) -> Self {
        Subject(crate::stock::window::Prepared::new(bytes, expected, policy))
    }

    /// The clone is made before the counter starts; only `winterfell::verify` runs inside.
    /// A proof refused before the window still gets an (empty) window, so that every
    /// iteration has its region.
    fn measure<B: Board>(&self, board: &mut B) -> (u64, Result<(), VerifyError>) {
        match &self.0 {
            Ok(p) => {
                let input = p.input();
                measured(board, move || p.verify(input))
            }
            Err(e) => measured(board, || Err(*e)),
        }
    }
}

/// Where the proof is, which decides how the tampered check gets its flipped byte.
pub enum ProofBytes {
    /// Read-only (an embedded proof in flash): the tampered check verifies a heap copy.
    ReadOnly(&'static [u8]),
    /// The QEMU proof slot, RAM outside the firmware's memory that stands for flash: the
    /// tampered check flips the byte in place and restores it, so that no copy of the proof
    /// counts against the heap (a configuration fits exactly when its verification fits).
    #[cfg_attr(not(feature = "qemu"), allow(dead_code))]
    Slot(&'static mut [u8]),
}

impl From<&'static [u8]> for ProofBytes {
    fn from(bytes: &'static [u8]) -> Self {
        ProofBytes::ReadOnly(bytes)
    }
}

/// Runs the whole benchmark on `proof` and reports it through `board`.
pub fn run<B: Board>(board: &mut B, proof: impl Into<ProofBytes>) -> Outcome {
    let mut source = proof.into();
    let proof: &[u8] = match &source {
        ProofBytes::ReadOnly(p) => p,
        ProofBytes::Slot(p) => p,
    };
    let mut line = LineBuf::new();
    // The build's policy (PSTK_SECURITY_REGIME, PSTK_MIN_SECURITY in build.rs).
    let policy = Policy {
        min_security_bits: config::MIN_SECURITY_BITS,
        regime: config::SECURITY_REGIME,
        ..Policy::default()
    };
    let file = match ProofFile::parse(proof) {
        Ok(f) => f,
        Err(e) => {
            // The detail text may contain spaces: it stays last on the line.
            emit_with(board, &mut line, |l| {
                writeln!(
                    l,
                    "{LINE_PREFIX} error what=proof-file bytes={} detail={e}",
                    proof.len()
                )
            });
            return Outcome::NoProof;
        }
    };
    let header = file.header;
    let security = crate::verifiers::security(&header, &policy);
    emit_with(board, &mut line, |l| {
        write_run_line(
            l,
            &header,
            B::CORE,
            B::BOARD,
            heap::NAME,
            config::HEAP_SIZE,
            proof.len(),
            security,
            B::COUNTER,
            B::CLOCK_HZ,
            config::ITERATIONS + 1,
            crate::hash_engine::implementation(header.hash),
        )
    });

    // The statement this firmware was built for (embedded proof), or none (proof slot).
    let expected = config::EXPECTED.map(|(air, log_n, public_inputs)| Statement {
        air,
        log_n,
        public_inputs,
    });

    let mut accepted = 0u32;
    let mut rejected = 0u32;
    let mut genuine_ok = true;
    let mem = {
        // Decoding (window mode) happens here, before the heap figures start.
        let subject = Subject::new(proof, expected.as_ref(), &policy);
        let heap_before = heap::in_use();
        heap::reset_peak();
        heap::set_watermark();
        stack::paint();
        for i in 0..config::ITERATIONS {
            let (count, result) = subject.measure(board);
            heap::after_verify();
            match result {
                Ok(()) => accepted += 1,
                Err(_) => {
                    rejected += 1;
                    genuine_ok = false;
                }
            }
            emit_with(board, &mut line, |l| write_iter_line(l, i, count, result));
        }
        MemoryFigures {
            heap_before: heap_before.map(|b| b as u64),
            heap_peak: heap::peak().map(|b| b as u64),
            stack_peak: stack::peak().map(|p| p as u64),
            text: Some(crate::board::text_bytes() as u64),
            data: Some(crate::board::data_bytes() as u64),
            bss: Some(crate::board::bss_bytes() as u64),
        }
    };

    // The tampered copy checks that a flipped byte is rejected, which tells something only
    // about an input that was accepted: a rejected input may already be damaged at the very
    // byte the copy flips (flipping it back would then restore the genuine proof). So after
    // a rejection the copy is not made; its slot gets an empty window (one plugin region per
    // announced iteration) and a `not-applicable` line.
    let at = proof.len() - file.payload.len() + file.payload.len() / 2;
    let mut tampered_ok = false;
    if !genuine_ok {
        let (count, ()) = measured(board, || ());
        emit_with(board, &mut line, |l| {
            write_not_applicable_line(l, config::ITERATIONS, count)
        });
    } else if let Some((count, result)) =
        tampered_verify(board, &mut source, at, expected.as_ref(), &policy)
    {
        match result {
            Ok(()) => accepted += 1,
            Err(_) => {
                rejected += 1;
                tampered_ok = true;
            }
        }
        emit_with(board, &mut line, |l| {
            write_iter_line(l, config::ITERATIONS, count, result)
        });
    } else {
        emit_with(board, &mut line, |l| {
            writeln!(l, "{LINE_PREFIX} error what=no-heap-for-tampered-copy")
        });
    }

    emit_with(board, &mut line, |l| write_mem_line(l, &mem));
    emit_with(board, &mut line, |l| write_done_line(l, accepted, rejected));
    if !genuine_ok {
        Outcome::GenuineRejected
    } else if !tampered_ok {
        Outcome::TamperedAccepted
    } else {
        Outcome::Pass
    }
}

/// The firmware's tampered copy of an accepted proof: payload byte `at` flipped, in place in
/// the slot (restored afterwards) or in a heap copy, verified in one measured window. `None`
/// when the heap has no room for the copy.
fn tampered_verify<B: Board>(
    board: &mut B,
    source: &mut ProofBytes,
    at: usize,
    expected: Option<&Statement<'_>>,
    policy: &Policy,
) -> Option<(u64, Result<(), VerifyError>)> {
    let mut copy: Vec<u8> = Vec::new();
    let tampered: Option<&[u8]> = match source {
        ProofBytes::Slot(p) => {
            if let Some(b) = p.get_mut(at) {
                *b ^= 0x01;
            }
            Some(p)
        }
        ProofBytes::ReadOnly(p) => copy.try_reserve_exact(p.len()).is_ok().then(|| {
            copy.extend_from_slice(p);
            if let Some(b) = copy.get_mut(at) {
                *b ^= 0x01;
            }
            copy.as_slice()
        }),
    };
    let outcome = tampered.map(|bytes| {
        let subject = Subject::new(bytes, expected, policy);
        heap::set_watermark();
        let outcome = subject.measure(board);
        heap::after_verify();
        outcome
    });
    if let ProofBytes::Slot(p) = source {
        if let Some(b) = p.get_mut(at) {
            *b ^= 0x01;
        }
    }
    outcome
}

//! The field micro-benchmark (feature `field-bench`, QEMU boards only; issue 44 item 2):
//! instead of verifying a proof, the firmware runs every case of `picostark_field::bench`
//! (product, square, inverse and fold step of our fields and of p3-field 0.8's and
//! winterfell 0.13's) in measured windows, which `mcu-run field-bench` turns into
//! instructions and estimated cycles per operation.
//!
//! Output, one line each, in the order of the plugin's regions (three windows a line):
//!
//! ```text
//! pstk1 field-bench core=m33 board=qemu-m33 k=64 unroll=4 cases=63
//! pstk1 fbench case=loop
//! pstk1 fbench case=0 impl=ours field=m31 degree=1 algorithm=lazy op=mul
//! ...
//! pstk1 field-bench-done cases=63
//! ```
//!
//! Each line's windows run `K` (a warm-up: the same path through the markers, the call and
//! the case's code, so that the timing model's XIP cache is in the same state at the start
//! of the next two windows), `K` and `2K` loop iterations of the case (`UNROLL` operations an iteration), so
//! the difference of the last two is `K * UNROLL` operations plus `K` loop iterations, with
//! the same cache state at their start; `case=loop` measures the loop alone
//! ([`chain_empty`]) the same way.

use core::fmt::Write;
use core::hint::black_box;

use picostark_core::record::LINE_PREFIX;
use picostark_field::bench::{chain_empty, Case, LIBRARIES, OURS, UNROLL};

use crate::bench::{emit_with, measured, Board, LineBuf, Outcome};

/// Loop iterations of the shorter window (the longer one runs twice as many).
const K: u32 = 64;

/// Runs every case and reports it through `board`.
pub fn run<B: Board>(board: &mut B) -> Outcome {
    let mut line = LineBuf::new();
    let cases = OURS.len() + LIBRARIES.len();
    emit_with(board, &mut line, |l| {
        writeln!(
            l,
            "{LINE_PREFIX} field-bench core={} board={} k={K} unroll={UNROLL} cases={cases}",
            B::CORE,
            B::BOARD
        )
    });
    for k in [K, K, 2 * K] {
        measured(board, || chain_empty(black_box(k)));
    }
    emit_with(board, &mut line, |l| {
        writeln!(l, "{LINE_PREFIX} fbench case=loop")
    });
    for (i, case) in OURS.iter().chain(LIBRARIES).enumerate() {
        measure_case(board, case);
        emit_with(board, &mut line, |l| {
            writeln!(
                l,
                "{LINE_PREFIX} fbench case={i} impl={} field={} degree={} algorithm={} op={}",
                case.implementation,
                case.field,
                case.degree,
                case.algorithm,
                case.op.name()
            )
        });
    }
    emit_with(board, &mut line, |l| {
        writeln!(l, "{LINE_PREFIX} field-bench-done cases={cases}")
    });
    Outcome::Pass
}

/// The warm-up window (`K` iterations), then the `K` and `2K` windows.
fn measure_case<B: Board>(board: &mut B, case: &Case) {
    for k in [K, K, 2 * K] {
        measured(board, || (case.run)(black_box(k)));
    }
}

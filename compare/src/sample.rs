//! The sample device log `compare/testdata/rp2350-sample.log`, written with the core's own
//! line writers (the code the firmware runs), so the file shows exactly what a board prints.
//!
//! Its numbers are synthetic and the file says so (`# sample:` line), which makes every row
//! from it `device (sample)`. Cycle counts are the emulator's instruction counts of the same
//! proofs (measured once with `mcu-run`, rounded) times an assumed cycles-per-instruction
//! figure, plus a small deterministic jitter: plausible, not measured.
//!
//! Regenerate after a format change with `UPDATE_SAMPLE=1 cargo test -p compare sample`.

use picostark_core::record::{
    write_done_line, write_iter_line, write_mem_line, write_run_line, MemoryFigures,
};
use picostark_core::{
    conjectured_security_bits, AirId, BackendId, HashId, ProofHeader, ProofParams, VerifyError,
};

/// `(backend, extension, proof bytes, [m33, rv32] instructions, heap peak, [m33, rv32] stack)`.
type Point = (BackendId, u8, usize, [u64; 2], u64, [u64; 2]);

const POINTS: &[Point] = &[
    (
        BackendId::P3BabyBear,
        4,
        20_727,
        [5_181_000, 7_270_000],
        42_456,
        [8_272, 7_256],
    ),
    (
        BackendId::P3Goldilocks,
        2,
        21_843,
        [5_423_000, 7_480_000],
        43_656,
        [8_136, 7_080],
    ),
    (
        BackendId::P3M31,
        4,
        42_553,
        [11_368_000, 16_180_000],
        65_164,
        [8_360, 7_112],
    ),
];

/// Assumed cycles per instruction (x1000) on silicon: flash XIP and wait states on the M33,
/// Hazard3's simpler pipeline. Sample figures, not measurements.
const CPI_MILLI: [u64; 2] = [1_380, 1_240];

pub fn sample_log() -> String {
    let mut s = String::new();
    s.push_str("# sample: synthetic numbers written with picostark_core::record writers; NOT a measurement\n");
    s.push_str("# toolchain: sample (no build)\n");
    s.push_str("# profile: sample (no build)\n");
    s.push_str("# commit: sample\n");
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut jitter = |base: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        // +-0.2 %
        base - base / 500 + (x % (base / 250 + 1))
    };
    for (ci, core) in ["m33", "rv32"].iter().enumerate() {
        for &(backend, ext, proof_bytes, insns, heap_peak, stack) in POINTS {
            // The Plonky3 defaults: blowup 64, 13 queries, 20 PoW bits; folding by 16 down
            // to 4 coefficients where the PCS allows it (not the circle PCS).
            let circle = backend == BackendId::P3M31;
            let params = ProofParams {
                log_blowup: 6,
                num_queries: 13,
                pow_bits: 20,
                log_fold_arity: if circle { 1 } else { 4 },
                log_final_poly_len: if circle { 0 } else { 2 },
            };
            let header = ProofHeader {
                backend,
                field: backend.field(),
                extension_degree: ext,
                hash: HashId::Blake3_256,
                air: AirId::Fibonacci,
                log_n: 10,
                params,
            };
            let security = conjectured_security_bits(header.field, ext, 10, &params);
            s.push_str("boot: picostark rp2350 firmware (sample)\n");
            let iterations = 5;
            write_run_line(
                &mut s,
                &header,
                core,
                "rp2350",
                "tlsf",
                262_144,
                proof_bytes,
                security,
                "cycles",
                150_000_000,
                iterations + 1,
            )
            .expect("string");
            let cycles = insns[ci] * CPI_MILLI[ci] / 1000;
            for i in 0..iterations {
                write_iter_line(&mut s, i, jitter(cycles), Ok(())).expect("string");
            }
            write_iter_line(
                &mut s,
                iterations,
                jitter(cycles / 3),
                Err(VerifyError::Rejected("tampered")),
            )
            .expect("string");
            write_mem_line(
                &mut s,
                &MemoryFigures {
                    heap_before: Some(0),
                    heap_peak: Some(heap_peak),
                    stack_peak: Some(stack[ci]),
                    text: None,
                    data: None,
                    bss: None,
                },
            )
            .expect("string");
            write_done_line(&mut s, iterations, 1).expect("string");
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::{load, Loaded};
    use crate::render::Report;
    use crate::table::build_rows;
    use crate::table::tests::emu;

    fn path() -> std::path::PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/rp2350-sample.log")
    }

    #[test]
    fn sample_file_is_what_the_writers_write() {
        let text = sample_log();
        if std::env::var_os("UPDATE_SAMPLE").is_some() {
            std::fs::write(path(), &text).unwrap();
        }
        let saved = std::fs::read_to_string(path()).unwrap();
        assert_eq!(
            saved, text,
            "regenerate with UPDATE_SAMPLE=1 cargo test -p compare sample"
        );
    }

    #[test]
    fn sample_log_becomes_device_rows_next_to_emulator_rows() {
        let Loaded {
            mut entries,
            warnings,
            ..
        } = load(&[path()]);
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(entries.len(), 6);
        assert!(entries.iter().all(|e| e.record.source == "device (sample)"));
        assert!(entries
            .iter()
            .all(|e| e.record.iterations == 5 && e.record.cycles.len() == 5));
        assert!(entries
            .iter()
            .all(|e| e.tampered.as_deref() == Some("rejected:rejected")));
        entries.push(emu("p3-babybear", 4, 1024, "m33", 5_181_092));
        entries.push(emu("p3-babybear", 4, 1024, "rv32", 7_270_113));
        let rows = build_rows(&entries);
        // The device rv32/m33 ratio pairs device rows only.
        let d = rows
            .iter()
            .find(|r| {
                r.source == "device (sample)" && r.backend == "p3-babybear" && r.core == "rv32"
            })
            .unwrap();
        let ratio = d.rv32_m33_ratio.unwrap();
        assert!(
            (ratio - 7_270_000.0 * 1.24 / (5_181_000.0 * 1.38)).abs() < 0.01,
            "{ratio}"
        );
        assert!(d.cycles_cv.unwrap() < 0.005 && d.cycles_iqr_over_median.unwrap() < 0.005);
        let md = Report::new(rows, 95).markdown();
        let lines: Vec<&str> = md.lines().collect();
        let i = lines
            .iter()
            .position(|l| {
                l.starts_with("| device (sample) | p3-babybear | babybear^4 | fib | 2^10 | m33")
            })
            .unwrap();
        assert!(
            lines[i + 1].starts_with("| emulator | p3-babybear | babybear^4 | fib | 2^10 | m33")
        );
    }
}

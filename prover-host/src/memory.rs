//! The prover's peak memory, estimated before proving so that a run that cannot fit the host
//! is refused with a clear error instead of exhausting it (issue 29).
//!
//! A STARK prover's large buffers all live on the low-degree extension: the trace's LDE
//! (`width` base elements per LDE row), the quotient and the FRI layers (extension elements
//! per LDE row), and what every LDE row costs whatever its width (Merkle digests, bit-reversal
//! and twiddle tables). So the model is linear in the LDE size `L = n * 2^log_blowup`:
//!
//! ```text
//! peak RSS ~= BASE + L * (field_bytes * (ALPHA * width + BETA * ext * q) + GAMMA)
//! ```
//!
//! `q` is 2 for the circle PCS when the quotient is one chunk (an AIR of degree 1 with its
//! row selector, like Fibonacci: upstream's `CirclePcs` puts that chunk on a domain twice the
//! trace's LDE), else 1. `BASE` (bytes before any proving buffer: binary, runtime, thread
//! pool), `ALPHA` (copies of a trace cell), `BETA` (copies of a challenge-field cell) and
//! `GAMMA` (bytes per LDE row) are per backend, fitted by least squares in relative error on
//! the calibration records of `results/memory/` (Linux `VmHWM` of `prover-host` release builds
//! on this 2-core host: n = 2^10 and 2^14 for Fibonacci and chain16 at the default extension,
//! and 2^14 at another extension) and checked against the other records there (n = 2^12,
//! 2^16, 2^18, blowup 2^3), which must be within 25 % (`estimate_matches_measured_peaks`;
//! table and worst errors in `results/memory/README.md`).

use picostark_core::prove::ProveRequest;
use picostark_core::{BackendId, Domain, FieldId};

/// `[BASE, ALPHA, BETA, GAMMA]` of `backend` (see the module doc); a backend not fitted yet
/// gets the largest of each coefficient, so its estimate errs high.
pub fn coefficients(backend: BackendId) -> [f64; 4] {
    let i = BackendId::ALL.iter().position(|&b| b == backend);
    i.and_then(|i| FITTED.get(i)).copied().unwrap_or_else(|| {
        core::array::from_fn(|k| FITTED.iter().map(|c| c[k]).fold(0.0, f64::max))
    })
}

/// Fitted coefficients, in `BackendId::ALL` order (see the module doc; the test refits them).
const FITTED: [[f64; 4]; 5] = [
    [10_128_832.0, 2.1609, 5.0035, 142.067],
    [9_764_520.0, 1.6476, 5.1996, 149.761],
    [9_446_183.0, 0.19696, 9.5907, 243.865],
    [6_917_771.0, 0.58854, 2.1197, 256.190],
    [6_974_419.0, 0.79115, 5.3274, 138.350],
];

/// Bytes of one base-field element as the provers store it.
pub fn field_bytes(field: FieldId) -> f64 {
    match field {
        FieldId::Goldilocks => 8.0,
        FieldId::BabyBear | FieldId::Mersenne31 => 4.0,
    }
}

/// The circle PCS's quotient factor `q` for an AIR whose largest transition degree is
/// `max_degree` (see the module doc).
pub fn quotient_factor(backend: BackendId, max_degree: usize) -> f64 {
    if backend.domain() == Domain::Circle && max_degree <= 1 {
        2.0
    } else {
        1.0
    }
}

/// The model's terms for one request: `[1, L * f * width, L * f * ext * q, L]`.
fn terms(backend: BackendId, req: &ProveRequest, width: usize, max_degree: usize) -> [f64; 4] {
    let f = field_bytes(backend.field());
    let lde = (1u64 << (u32::from(req.log_n) + u32::from(req.params.log_blowup))) as f64;
    let ext = f64::from(req.extension_degree) * quotient_factor(backend, max_degree);
    [1.0, lde * f * width as f64, lde * f * ext, lde]
}

/// The estimated peak resident set of proving `req` with `backend` (an AIR of `width`
/// columns whose largest transition degree is `max_degree`), in bytes.
pub fn estimate(backend: BackendId, req: &ProveRequest, width: usize, max_degree: usize) -> f64 {
    let c = coefficients(backend);
    let t = terms(backend, req, width, max_degree);
    (0..4).map(|k| c[k] * t[k]).sum()
}

/// Memory this host can give a new process (`MemAvailable` in `/proc/meminfo`), in bytes;
/// `None` where there is no procfs.
pub fn available() -> Option<f64> {
    Some(proc_kib("/proc/meminfo", "MemAvailable")? as f64 * 1024.0)
}

/// The `KEY:  N kB` line of a procfs file (`/proc/meminfo`, `/proc/self/status`) as `N`;
/// `None` where there is no procfs or no such line.
pub fn proc_kib(path: &str, key: &str) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix(key)?.strip_prefix(':'))?;
    line.trim().trim_end_matches("kB").trim().parse().ok()
}

#[cfg(test)]
mod tests {
    //! The estimate against the measured records of `results/memory/` (`run.sh` there).

    use super::*;

    /// Reads a procfs `KEY: N kB` line; a missing key or file gives nothing.
    #[test]
    fn procfs_lines_read_by_key() {
        let peak = proc_kib("/proc/self/status", "VmHWM").expect("Linux procfs");
        assert!(peak > 0 && proc_kib("/proc/self/status", "VmRSS").is_some());
        assert_eq!(
            proc_kib("/proc/self/status", "VmHW"),
            None,
            "a prefix is not the key"
        );
        assert_eq!(proc_kib("/proc/self/no-such-file", "VmHWM"), None);
    }
    use picostark_core::record::RunRecord;
    use picostark_core::{AirId, HashId, ProofParams};

    /// A measured point: backend, request, AIR shape, peak RSS, and whether it is a
    /// calibration point (see the module doc).
    struct Point {
        backend: BackendId,
        req: ProveRequest,
        width: usize,
        degree: usize,
        peak: f64,
        calibration: bool,
        name: String,
    }

    fn points() -> Vec<Point> {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../results/memory");
        let mut files = vec![
            format!("{dir}/host-fib.json"),
            format!("{dir}/host-chain16.json"),
        ];
        let mut named: Vec<String> = std::fs::read_dir(format!("{dir}/points"))
            .unwrap()
            .map(|e| e.unwrap().path().display().to_string())
            .collect();
        named.sort();
        files.extend(named);
        let mut out = Vec::new();
        for path in files {
            let text = std::fs::read_to_string(&path).unwrap();
            let records: Vec<RunRecord> = if text.trim_start().starts_with('[') {
                serde_json::from_str(&text).unwrap()
            } else {
                vec![serde_json::from_str(&text).unwrap()]
            };
            let file = path.rsplit('/').next().unwrap().to_string();
            for r in records {
                let backend = BackendId::from_name(&r.backend).unwrap();
                let air = AirId::from_name(&r.air).unwrap();
                // Bench records use the defaults (blowup 2^6); a point says otherwise.
                let log_blowup = if file.contains("blowup3") { 3 } else { 6 };
                let log_n = r.n.trailing_zeros() as u8;
                let req = ProveRequest {
                    air,
                    log_n,
                    extension_degree: r.extension,
                    params: ProofParams {
                        log_blowup,
                        num_queries: 1,
                        pow_bits: 0,
                        log_fold_arity: 1,
                        log_final_poly_len: 0,
                    },
                    hash: HashId::Blake3_256,
                };
                out.push(Point {
                    backend,
                    req,
                    width: crate::air_shape(backend, air).0,
                    degree: crate::air_shape(backend, air).1,
                    peak: r.host_peak_rss.unwrap() as f64,
                    calibration: (log_n == 10 || log_n == 14) && log_blowup == 6,
                    name: format!(
                        "{backend} | {} | 2^{log_n} | {} | 2^{log_blowup}",
                        r.air, r.extension
                    ),
                });
            }
        }
        out
    }

    /// Least squares in relative error over a backend's calibration points: each row of
    /// the model divided by its measured peak must come out as 1 (normal equations, Gaussian
    /// elimination).
    #[allow(clippy::needless_range_loop)] // matrix rows and columns read better by index
    fn fit(points: &[&Point]) -> [f64; 4] {
        let mut a = [[0.0f64; 5]; 4];
        for p in points {
            let t = terms(p.backend, &p.req, p.width, p.degree);
            let x: Vec<f64> = t.iter().map(|v| v / p.peak).collect();
            for r in 0..4 {
                for c in 0..4 {
                    a[r][c] += x[r] * x[c];
                }
                a[r][4] += x[r];
            }
        }
        for col in 0..4 {
            let pivot = a[col][col];
            for r in 0..4 {
                if r != col {
                    let k = a[r][col] / pivot;
                    for c in 0..5 {
                        a[r][c] -= k * a[col][c];
                    }
                }
            }
        }
        [0, 1, 2, 3].map(|k| a[k][4] / a[k][k])
    }

    #[test]
    fn estimate_matches_measured_peaks() {
        let points = points();
        let mut worst: f64 = 0.0;
        let mut stale = Vec::new();
        let mut errors = Vec::new();
        // Backends past the fitted ones (stwo-m31) have no calibration records yet: their
        // estimate takes the largest coefficients (`coefficients`).
        for (i, &backend) in BackendId::ALL.iter().enumerate().take(FITTED.len()) {
            let mine: Vec<&Point> = points.iter().filter(|p| p.backend == backend).collect();
            let calibration: Vec<&Point> = mine.iter().copied().filter(|p| p.calibration).collect();
            assert!(calibration.len() >= 3, "{backend}: calibration points");
            let fitted = fit(&calibration);
            eprintln!(
                "{backend}: BASE {:.1} MiB, ALPHA {:.2}, BETA {:.2}, GAMMA {:.1}",
                fitted[0] / 1048576.0,
                fitted[1],
                fitted[2],
                fitted[3]
            );
            if !FITTED[i]
                .iter()
                .zip(&fitted)
                .all(|(a, b)| (a - b).abs() <= 1e-3 * b.abs())
            {
                stale.push(format!("{backend}: FITTED must be the fit {fitted:?}"));
            }
            for p in &mine {
                let est = estimate(backend, &p.req, p.width, p.degree);
                let err = (est - p.peak) / p.peak;
                eprintln!(
                    "| {} | {} | {:.1} | {:.1} | {:+.1} % |",
                    p.name,
                    if p.calibration { "fit" } else { "check" },
                    p.peak / 1048576.0,
                    est / 1048576.0,
                    err * 100.0
                );
                if !p.calibration {
                    worst = worst.max(err.abs());
                    if err.abs() > 0.25 {
                        errors.push(format!("{}: {:+.1} %", p.name, err * 100.0));
                    }
                }
            }
        }
        eprintln!("worst check error {:.1} %", worst * 100.0);
        assert!(stale.is_empty(), "{}", stale.join("\n"));
        assert!(errors.is_empty(), "over 25 %: {}", errors.join("; "));
    }
}

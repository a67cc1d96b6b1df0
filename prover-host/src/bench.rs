//! `prover-host bench`: proves and verifies every backend at several trace lengths and writes
//! host records (prove time, verify time, proof size, peak memory) for `compare`.
//!
//! Each point is proved in a child process of this binary (the plain prove command with
//! `--record`), so that the peak resident set size the child reports (Linux `VmHWM`, read by
//! the child after proving and verifying) belongs to that one proof and not to whatever an
//! earlier, larger point left mapped in the parent. Times are wall-clock on this host, with
//! every core available to the prover; the median of `--repeat` runs is recorded, and the
//! largest peak RSS of them.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};

use clap::Args;
use picostark_core::record::RunRecord;
use picostark_core::{AirId, BackendId, HashId};

use crate::{parse_backend, read_file, registry, write_file, UsageError};

#[derive(Args)]
pub struct BenchArgs {
    /// Backends (comma-separated), or `all`.
    #[arg(long, default_value = "all")]
    backend: String,
    /// AIRs (comma-separated ids, see `prover-host list`).
    #[arg(long, default_value = "fib", value_delimiter = ',')]
    air: Vec<String>,
    /// log2 trace lengths (comma-separated).
    #[arg(long, default_value = "10,12,14,16", value_delimiter = ',')]
    log_n: Vec<u8>,
    /// Runs per point; the median is recorded.
    #[arg(long, default_value_t = 3)]
    repeat: usize,
    /// Where to write the records (a JSON array).
    #[arg(long, default_value = "results/host-bench.json")]
    out: PathBuf,
    /// Also keep each proof file in this folder.
    #[arg(long)]
    proofs: Option<PathBuf>,
    /// Hash of every proof: blake3 or sha256 (default: each backend's own, blake3 but for
    /// stwo-m31's blake2s).
    #[arg(long, value_parser = crate::parse_hash)]
    hash: Option<HashId>,
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// The peak resident set size of this process so far, in bytes (`VmHWM` in
/// `/proc/self/status`; `None` where there is no procfs).
pub fn peak_rss_bytes() -> Option<u64> {
    Some(crate::memory::proc_kib("/proc/self/status", "VmHWM")? * 1024)
}

/// Proves one point in a child process; returns its record and the proof file.
fn prove_in_child(
    backend: BackendId,
    air: AirId,
    log_n: u8,
    hash: HashId,
    scratch: &Path,
) -> Result<(RunRecord, Vec<u8>), UsageError> {
    let exe = std::env::current_exe()
        .map_err(|e| UsageError(format!("cannot find this executable: {e}")))?;
    let proof = scratch.join("bench.proof");
    let record = scratch.join("bench.json");
    let status = Command::new(exe)
        .args(["--backend", backend.name(), "--air", air.name()])
        .args(["--hash", hash.name(), "--n"])
        .arg((1u64 << log_n).to_string())
        .arg("--out")
        .arg(&proof)
        .arg("--record")
        .arg(&record)
        .stdout(Stdio::null())
        .status()
        .map_err(|e| UsageError(format!("cannot start the prover child: {e}")))?;
    if !status.success() {
        return Err(UsageError(format!(
            "{backend} {air} n=2^{log_n}: the prover child failed ({status})"
        )));
    }
    let json = read_file(&record)?;
    let rec: RunRecord = serde_json::from_slice(&json)
        .map_err(|e| UsageError(format!("{}: {e}", record.display())))?;
    Ok((rec, read_file(&proof)?))
}

pub fn run(args: &BenchArgs) -> Result<ExitCode, UsageError> {
    let backends: Vec<BackendId> = if args.backend == "all" {
        registry::available()
    } else {
        args.backend
            .split(',')
            .map(parse_backend)
            .collect::<Result<_, _>>()?
    };
    let airs: Vec<AirId> = args
        .air
        .iter()
        .map(|a| AirId::from_name(a).ok_or_else(|| UsageError(format!("unknown AIR '{a}'"))))
        .collect::<Result<_, _>>()?;
    if args.repeat == 0 {
        return Err(UsageError("--repeat must be at least 1".into()));
    }
    if let Some(&log_n) = args.log_n.iter().find(|l| !(3..=22).contains(*l)) {
        return Err(UsageError(format!("log n {log_n} out of range 3..=22")));
    }
    let scratch = std::env::temp_dir().join(format!("prover-host-bench-{}", std::process::id()));
    std::fs::create_dir_all(&scratch)
        .map_err(|e| UsageError(format!("{}: {e}", scratch.display())))?;
    let mut records = Vec::new();
    println!(
        "| backend | air | n | proof bytes | prove ms | verify ms | peak RSS MiB | security |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for &backend in &backends {
        for &air in &airs {
            for &log_n in &args.log_n {
                let hash = args.hash.unwrap_or(crate::default_hash(backend));
                // A statement the backend does not prove (stwo-m31 above constraint degree
                // 3) is reported and skipped, not a failure of the whole table.
                if let Some(prover) = registry::prover(backend) {
                    let request = picostark_core::prove::ProveRequest {
                        air,
                        log_n,
                        extension_degree: prover.extension_degrees()[0],
                        params: prover.default_params(),
                        hash,
                    };
                    if let Err(e) = prover.check_request(&request) {
                        eprintln!("skipping {backend} {air} n=2^{log_n}: {e}");
                        continue;
                    }
                }
                let mut prove_times = Vec::new();
                let mut verify_times = Vec::new();
                let mut peak_rss: Option<u64> = None;
                let mut last = None;
                for _ in 0..args.repeat {
                    let (rec, bytes) = prove_in_child(backend, air, log_n, hash, &scratch)?;
                    prove_times.push(rec.prove_ms.unwrap_or(f64::NAN));
                    verify_times.push(rec.verify_ms.unwrap_or(f64::NAN));
                    peak_rss = peak_rss.max(rec.host_peak_rss);
                    last = Some((rec, bytes));
                }
                let (mut rec, bytes) = last.expect("repeat >= 1");
                rec.prove_ms = Some(median(prove_times));
                rec.verify_ms = Some(median(verify_times));
                rec.host_peak_rss = peak_rss;
                println!(
                    "| {backend} | {air} | 2^{log_n} | {} | {:.1} | {:.2} | {} | {} |",
                    rec.proof_bytes,
                    rec.prove_ms.unwrap_or_default(),
                    rec.verify_ms.unwrap_or_default(),
                    peak_rss.map_or("n/a".into(), |b| format!("{:.1}", b as f64 / 1048576.0)),
                    rec.security_bits
                );
                if let Some(dir) = &args.proofs {
                    write_file(
                        &dir.join(format!("{backend}-{air}-n{}.proof", 1u64 << log_n)),
                        &bytes,
                    )?;
                }
                records.push(rec);
            }
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    let json = serde_json::to_string_pretty(&records).expect("records serialize");
    write_file(&args.out, json.as_bytes())?;
    eprintln!("wrote {} records to {}", records.len(), args.out.display());
    Ok(ExitCode::SUCCESS)
}

//! `prover-host bench`: proves and verifies every backend at several trace lengths and writes
//! host records (prove time, verify time, proof size) for `compare`. Times are wall-clock on
//! this host; the median of `--repeat` runs is recorded.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use picostark_core::prove::ProveRequest;
use picostark_core::{BackendId, Policy, ProofFile};

use crate::{
    host_record, parse_backend, prove_one, registry, verify_timed, write_file, UsageError,
};

#[derive(Args)]
pub struct BenchArgs {
    /// Backends (comma-separated), or `all`.
    #[arg(long, default_value = "all")]
    backend: String,
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
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
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
    if args.repeat == 0 {
        return Err(UsageError("--repeat must be at least 1".into()));
    }
    let mut records = Vec::new();
    println!("| backend | n | proof bytes | prove ms | verify ms | security |");
    println!("|---|---|---|---|---|---|");
    for &backend in &backends {
        let prover = registry::prover(backend).expect("available");
        for &log_n in &args.log_n {
            if !(3..=24).contains(&log_n) {
                return Err(UsageError(format!("log n {log_n} out of range 3..=24")));
            }
            let req = ProveRequest {
                air: picostark_core::AirId::Fibonacci,
                log_n,
                extension_degree: prover.extension_degrees()[0],
                params: prover.default_params(),
            };
            let label = format!("{backend} n=2^{log_n}");
            let mut prove_times = Vec::new();
            let mut verify_times = Vec::new();
            let mut bytes = Vec::new();
            for _ in 0..args.repeat {
                let (b, ms) = prove_one(backend, &req, &label)?;
                prove_times.push(ms);
                let v = verify_timed(&b, &Policy::default())
                    .map_err(|e| UsageError(format!("{label}: proof does not verify: {e}")))?;
                verify_times.push(v);
                bytes = b;
            }
            let file = ProofFile::parse(&bytes).expect("fresh proof parses");
            let rec = host_record(
                &file,
                bytes.len(),
                median(prove_times),
                median(verify_times),
            );
            println!(
                "| {backend} | 2^{log_n} | {} | {:.1} | {:.2} | {} |",
                rec.proof_bytes,
                rec.prove_ms.unwrap_or_default(),
                rec.verify_ms.unwrap_or_default(),
                rec.security_bits
            );
            if let Some(dir) = &args.proofs {
                write_file(
                    &dir.join(format!("{backend}-fib-n{}.proof", 1u64 << log_n)),
                    &bytes,
                )?;
            }
            records.push(rec);
        }
    }
    let json = serde_json::to_string_pretty(&records).expect("records serialize");
    write_file(&args.out, json.as_bytes())?;
    eprintln!("wrote {} records to {}", records.len(), args.out.display());
    Ok(ExitCode::SUCCESS)
}

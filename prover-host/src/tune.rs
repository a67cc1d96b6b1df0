//! `prover-host tune`: a parameter search measured under the emulator, and the reference
//! files the stock baselines need.
//!
//! For every candidate (log blowup, proof-of-work bits, FRI arity, final polynomial length,
//! within what the backend supports) the number of queries is the smallest that reaches
//! `--min-security` by the core estimator. Each candidate is proved on the host (prove time,
//! wall clock, this machine), then all proofs are verified in one `mcu-run` batch on the
//! chosen core (one firmware build, QEMU proof slot, exact instruction counts of parse +
//! verify between the firmware's markers). Nothing is modelled: every verify figure printed
//! is a measured count. The Pareto front over (instructions, proof bytes, prove ms) is
//! printed and the whole search written as JSON.
//!
//! `--reference-out F` instead wraps the zkmcu fork's Goldilocks proof into a picostark file;
//! `--hash-cal-out F` writes the BLAKE3 calibration file for the firmware's `hash-cal` build.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

use clap::Args;
use picostark_core::prove::ProveRequest;
use picostark_core::{AirId, BackendId, Policy, ProofParams, Regime};

use crate::{prove_one, registry, usage, UsageError};

#[derive(Args)]
pub struct TuneArgs {
    /// Backend id.
    #[arg(long)]
    backend: Option<String>,
    /// AIR id.
    #[arg(long, default_value = "fib")]
    air: String,
    /// Trace length.
    #[arg(long, default_value_t = 1024)]
    n: u64,
    /// Minimum security every candidate reaches, counted in --regime.
    #[arg(long, default_value_t = Policy::DEFAULT_MIN_SECURITY_BITS)]
    min_security: u32,
    /// The regime the minimum is counted in (see `prover-host --help`).
    #[arg(long, default_value = "strictest", value_parser = crate::parse_regime)]
    regime: Regime,
    /// Challenge-field extension degree (default: the backend's first).
    #[arg(long)]
    ext: Option<u8>,
    /// Core the verify counts are measured on.
    #[arg(long, default_value = "m33")]
    core: String,
    /// Proof-of-work bits to try (comma-separated).
    #[arg(long, default_value = "20,24")]
    pow: String,
    /// log2 blowups to try (comma-separated); the backend drops what it cannot take.
    #[arg(long, default_value = "2,3,4,5,6,7,8")]
    log_blowups: String,
    /// log2 FRI folding arities to try (comma-separated; default: the backend's list).
    #[arg(long)]
    arities: Option<String>,
    /// log2 FRI final polynomial lengths to try (comma-separated; default: the backend's list).
    #[arg(long)]
    finals: Option<String>,
    /// Output directory (proofs, emulator records, tune-BACKEND-AIR-nN-CORE.json).
    #[arg(long, default_value = "out/tune")]
    out: PathBuf,
    /// Write the zkmcu reference Goldilocks proof as a picostark file and exit.
    #[arg(long)]
    reference_out: Option<PathBuf>,
    /// Write the BLAKE3 calibration file (`--hash-blocks` compressions) and exit.
    #[arg(long)]
    hash_cal_out: Option<PathBuf>,
    #[arg(long, default_value_t = 1000)]
    hash_blocks: usize,
    /// Count the BLAKE3 compressions verifying these proof files needs (host, counted runs)
    /// and write them as JSON to `--counts-out`.
    #[arg(long, num_args = 1..)]
    count_hashes: Vec<PathBuf>,
    #[arg(long, default_value = "out/tune/hash-counts.json")]
    counts_out: PathBuf,
}

/// The zkmcu fork's reference proof (upstream winterfell 0.13.1 bytes) and its parameters.
const REFERENCE_DIR: &str = "backends/winterfell/testdata/zkmcu-fork/stark-fib-1024-goldilocks";
const REFERENCE_PARAMS: ProofParams = picostark_winterfell::INTEROP_PARAMS;

pub fn run(args: &TuneArgs) -> Result<ExitCode, UsageError> {
    if let Some(out) = &args.reference_out {
        return write_reference(out);
    }
    if let Some(out) = &args.hash_cal_out {
        return write_hash_cal(out, args.hash_blocks);
    }
    if !args.count_hashes.is_empty() {
        return count_hashes(&args.count_hashes, &args.counts_out);
    }
    search(args)
}

fn fib_header(backend: BackendId, ext: u8, params: ProofParams) -> picostark_core::ProofHeader {
    ProveRequest {
        air: AirId::Fibonacci,
        log_n: 10,
        extension_degree: ext,
        params,
        hash: picostark_core::HashId::Blake3_256,
    }
    .header(backend)
}

fn write_reference(out: &Path) -> Result<ExitCode, UsageError> {
    let read = |f: &str| {
        std::fs::read(Path::new(REFERENCE_DIR).join(f))
            .map_err(|e| UsageError(format!("{REFERENCE_DIR}/{f}: {e}")))
    };
    let payload = read("proof.bin")?;
    let public = read("public.bin")?;
    let public = u64::from_le_bytes(
        public
            .try_into()
            .map_err(|_| UsageError("public.bin is not 8 bytes".into()))?,
    );
    let header = fib_header(BackendId::WfGoldilocks, 2, REFERENCE_PARAMS);
    let file = picostark_core::proof_file::encode(&header, &[public], &payload);
    crate::write_file(out, &file)?;
    println!("{}: zkmcu reference, {} bytes", out.display(), file.len());
    Ok(ExitCode::SUCCESS)
}

fn write_hash_cal(out: &Path, blocks: usize) -> Result<ExitCode, UsageError> {
    // Any well-formed envelope: the `hash-cal` firmware ignores the backend's meaning.
    let header = fib_header(
        BackendId::P3BabyBear,
        4,
        picostark_plonky3::FOUNDATION_PARAMS,
    );
    let mut payload: Vec<u8> = (0..blocks * 64).map(|i| (i * 131 + 7) as u8).collect();
    let mut tag = [0u8; 32];
    for block in payload.chunks_exact(64) {
        for (t, d) in tag.iter_mut().zip(blake3::hash(block).as_bytes()) {
            *t ^= d;
        }
    }
    payload.extend_from_slice(&tag);
    let file = picostark_core::proof_file::encode(&header, &[1], &payload);
    crate::write_file(out, &file)?;
    println!("{}: {blocks} BLAKE3 blocks", out.display());
    Ok(ExitCode::SUCCESS)
}

/// One measured candidate.
struct Point {
    params: ProofParams,
    security: u32,
    proof_bytes: usize,
    prove_ms: f64,
    instructions: Option<u64>,
    heap_peak: Option<u64>,
    file: PathBuf,
}

/// The parameter axes a search walks: every combination is one candidate.
struct Grid {
    log_blowups: Vec<u8>,
    pows: Vec<u8>,
    /// `None`: the backend's own list.
    arities: Option<Vec<u8>>,
    finals: Option<Vec<u8>>,
}

impl Grid {
    /// The folding arities and final lengths searched for `backend`: the lists given, else
    /// the backend's.
    fn folding(&self, backend: BackendId) -> (Vec<u8>, Vec<u8>) {
        // Plonky3 folds by 2 to 16 (on the circle, `CirclePcsKind::UPSTREAM_FOLDING` is
        // upstream's CirclePcs, every other pair our WideCirclePcs, issue 25); winterfell by
        // 4 to 16 down to a remainder.
        let (arities, finals): (&[u8], &[u8]) = match backend.protocol() {
            "winterfell" => (&[2, 3, 4], &[3, 5]),
            _ => (&[1, 2, 3, 4], &[0, 2, 3, 5]),
        };
        (
            self.arities.clone().unwrap_or_else(|| arities.to_vec()),
            self.finals.clone().unwrap_or_else(|| finals.to_vec()),
        )
    }
}

/// A comma-separated list of small numbers (`--pow`, `--log-blowups`, `--arities`,
/// `--finals`).
fn parse_list(flag: &str, text: &str) -> Result<Vec<u8>, UsageError> {
    text.split(',')
        .map(|s| {
            s.trim()
                .parse()
                .map_err(|_| UsageError(format!("bad --{flag} {s}")))
        })
        .collect()
}

/// Candidates the backend supports, each with the fewest queries (at most 255) that reach
/// `min` bits in `regime`.
fn candidates(
    backend: BackendId,
    (air, ext, log_n): (AirId, u8, u8),
    (regime, min): (Regime, u32),
    grid: &Grid,
) -> Vec<ProofParams> {
    let (arities, finals) = grid.folding(backend);
    let verifier = registry::verifier(backend).expect("available backend");
    let mut out = Vec::new();
    // Blowups beyond 2^6 only pay at small n (prover memory grows with them); the
    // backend's `check_supported` drops what it cannot take.
    for &log_blowup in &grid.log_blowups {
        for &pow_bits in &grid.pows {
            for &log_fold_arity in &arities {
                for &log_final_poly_len in &finals {
                    let found = (1..=255u16).map(|num_queries| ProofParams {
                        log_blowup,
                        num_queries,
                        pow_bits,
                        log_fold_arity,
                        log_final_poly_len,
                    });
                    let header = |p: ProofParams| {
                        ProveRequest {
                            air,
                            log_n,
                            extension_degree: ext,
                            params: p,
                            hash: picostark_core::HashId::Blake3_256,
                        }
                        .header(backend)
                    };
                    let best = found
                        .into_iter()
                        .find(|p| crate::figures(&header(*p)).is_ok_and(|f| f.get(regime) >= min));
                    if let Some(p) = best {
                        if verifier.check_supported(&header(p)).is_ok() {
                            out.push(p);
                        }
                    }
                }
            }
        }
    }
    out
}

fn search(args: &TuneArgs) -> Result<ExitCode, UsageError> {
    let Some(name) = &args.backend else {
        return usage("--backend is required");
    };
    let backend = crate::parse_backend(name)?;
    let Some(air) = AirId::from_name(&args.air) else {
        return usage(format!("unknown AIR '{}'", args.air));
    };
    if args.n < 8 || !args.n.is_power_of_two() {
        return usage("n must be a power of two >= 8");
    }
    if !["m33", "rv32"].contains(&args.core.as_str()) {
        return usage("--core m33|rv32");
    }
    let log_n = args.n.trailing_zeros() as u8;
    let grid = Grid {
        log_blowups: parse_list("log-blowups", &args.log_blowups)?,
        pows: parse_list("pow", &args.pow)?,
        arities: args
            .arities
            .as_deref()
            .map(|a| parse_list("arities", a))
            .transpose()?,
        finals: args
            .finals
            .as_deref()
            .map(|f| parse_list("finals", f))
            .transpose()?,
    };
    let prover = registry::prover(backend).expect("available backend");
    let ext = args.ext.unwrap_or(prover.extension_degrees()[0]);
    if !prover.extension_degrees().contains(&ext) {
        return usage(format!(
            "{backend} supports extension degrees {:?}",
            prover.extension_degrees()
        ));
    }
    let dir = args.out.join(format!("{backend}-{air}-n{}", args.n));
    std::fs::create_dir_all(&dir).map_err(|e| UsageError(format!("{}: {e}", dir.display())))?;

    let mut points = Vec::new();
    let search = (args.regime, args.min_security);
    for params in candidates(backend, (air, ext, log_n), search, &grid) {
        let req = ProveRequest {
            air,
            log_n,
            extension_degree: ext,
            params,
            hash: picostark_core::HashId::Blake3_256,
        };
        let tag = format!(
            "b{}-q{}-w{}-a{}-f{}",
            params.log_blowup,
            params.num_queries,
            params.pow_bits,
            params.log_fold_arity,
            params.log_final_poly_len
        );
        let (bytes, prove_ms) = match prove_one(backend, &req, &tag) {
            Ok(v) => v,
            Err(UsageError(e)) => {
                eprintln!("tune: {tag}: {e} (skipped)");
                continue;
            }
        };
        let file = dir.join(format!("{tag}.proof"));
        crate::write_file(&file, &bytes)?;
        points.push(Point {
            params,
            security: crate::figures(&req.header(backend))?.get(args.regime),
            proof_bytes: bytes.len(),
            prove_ms,
            instructions: None,
            heap_peak: None,
            file,
        });
    }
    if points.is_empty() {
        return usage("no candidate parameters");
    }
    let policy = Policy {
        min_security_bits: args.min_security,
        regime: args.regime,
        ..Policy::default()
    };
    measure(&mut points, backend, &args.core, &dir, &policy)?;
    let front = pareto(&points);
    print_table(&points, &front);
    let json = to_json(backend, air, args, &points, &front);
    let path = args.out.join(format!(
        "tune-{backend}-{air}-n{}-{}.json",
        args.n, args.core
    ));
    crate::write_file(&path, json.as_bytes())?;
    println!("search written to {}", path.display());
    Ok(ExitCode::SUCCESS)
}

/// One `mcu-run` batch (one firmware build with only this backend and the search's policy,
/// one QEMU run per proof, one genuine iteration each: emulator counts are deterministic).
fn measure(
    points: &mut [Point],
    backend: BackendId,
    core: &str,
    dir: &Path,
    policy: &Policy,
) -> Result<(), UsageError> {
    let records = dir.join(format!("mcu-{core}"));
    let mcu_run = std::env::current_exe()
        .ok()
        .and_then(|p| p.parent().map(|d| d.join("mcu-run")))
        .filter(|p| p.exists())
        .unwrap_or_else(|| PathBuf::from("mcu-run"));
    let started = Instant::now();
    let status = Command::new(&mcu_run)
        .args(["run", "--core", core, "--iterations", "1", "--features"])
        .arg(backend.name())
        .arg("--out")
        .arg(&records)
        .args(points.iter().map(|p| &p.file))
        .env("PSTK_SECURITY_REGIME", policy.regime.name())
        .env("PSTK_MIN_SECURITY", policy.min_security_bits.to_string())
        .status()
        .map_err(|e| UsageError(format!("{}: {e}", mcu_run.display())))?;
    if !status.success() {
        return usage("mcu-run failed (see above)");
    }
    eprintln!(
        "tune: emulator batch {:.0} s",
        started.elapsed().as_secs_f64()
    );
    for p in points.iter_mut() {
        let name = p.file.file_name().expect("file name").to_string_lossy();
        let rec = records.join(format!("{name}.{core}.tlsf.json"));
        let text = std::fs::read_to_string(&rec)
            .map_err(|e| UsageError(format!("{}: {e}", rec.display())))?;
        let v: serde_json::Value = serde_json::from_str(&text)
            .map_err(|e| UsageError(format!("{}: {e}", rec.display())))?;
        p.instructions = v["instructions"].as_u64();
        p.heap_peak = v["heap_peak"].as_u64();
    }
    Ok(())
}

/// Indices of points no other point beats on all of instructions, proof bytes and prove ms.
fn pareto(points: &[Point]) -> Vec<usize> {
    let key = |p: &Point| {
        (
            p.instructions.unwrap_or(u64::MAX),
            p.proof_bytes,
            p.prove_ms,
        )
    };
    (0..points.len())
        .filter(|&i| {
            let a = key(&points[i]);
            !points.iter().any(|q| {
                let b = key(q);
                b.0 <= a.0 && b.1 <= a.1 && b.2 <= a.2 && (b.0 < a.0 || b.1 < a.1 || b.2 < a.2)
            })
        })
        .collect()
}

fn print_table(points: &[Point], front: &[usize]) {
    println!(
        "{:>3} {:>4} {:>4} {:>5} {:>5} {:>4} {:>12} {:>9} {:>10} {:>10}  front",
        "lb", "q", "pow", "arity", "final", "bits", "instructions", "heap", "proof B", "prove ms"
    );
    let mut order: Vec<usize> = (0..points.len()).collect();
    order.sort_by_key(|&i| points[i].instructions.unwrap_or(u64::MAX));
    for i in order {
        let p = &points[i];
        println!(
            "{:>3} {:>4} {:>4} {:>5} {:>5} {:>4} {:>12} {:>9} {:>10} {:>10.1}  {}",
            p.params.log_blowup,
            p.params.num_queries,
            p.params.pow_bits,
            p.params.log_fold_arity,
            p.params.log_final_poly_len,
            p.security,
            p.instructions.map_or("-".into(), |v| v.to_string()),
            p.heap_peak.map_or("-".into(), |v| v.to_string()),
            p.proof_bytes,
            p.prove_ms,
            if front.contains(&i) { "*" } else { "" }
        );
    }
}

fn to_json(
    backend: BackendId,
    air: AirId,
    args: &TuneArgs,
    points: &[Point],
    front: &[usize],
) -> String {
    let rows: Vec<serde_json::Value> = points
        .iter()
        .enumerate()
        .map(|(i, p)| {
            serde_json::json!({
                "log_blowup": p.params.log_blowup,
                "num_queries": p.params.num_queries,
                "pow_bits": p.params.pow_bits,
                "log_fold_arity": p.params.log_fold_arity,
                "log_final_poly_len": p.params.log_final_poly_len,
                "security_bits": p.security,
                "instructions": p.instructions,
                "heap_peak": p.heap_peak,
                "proof_bytes": p.proof_bytes,
                "prove_ms": (p.prove_ms * 10.0).round() / 10.0,
                "pareto": front.contains(&i),
            })
        })
        .collect();
    let doc = serde_json::json!({
        "schema": "picostark-tune-1",
        "backend": backend.name(),
        "air": air.name(),
        "n": args.n,
        "core": args.core,
        "min_security": args.min_security,
        "regime": args.regime.name(),
        "grid": {
            "log_blowups": args.log_blowups,
            "pow_bits": args.pow,
            "log_fold_arities": args.arities.as_deref().unwrap_or("backend's list"),
            "log_final_poly_lens": args.finals.as_deref().unwrap_or("backend's list"),
        },
        "extension_degree": args
            .ext
            .or_else(|| registry::prover(backend).map(|p| p.extension_degrees()[0])),
        "verify_source": "emulator (QEMU + icount plugin via mcu-run; firmware with this backend only, TLSF, release opt-level s, LTO fat); parse + verify, 1 genuine iteration",
        "prove_source": "host wall clock, release, this machine's cores",
        "points": rows,
    });
    serde_json::to_string_pretty(&doc).expect("json") + "\n"
}

/// Compressions one verification of each file needs, counted on the host: Plonky3 files
/// through our verifier built with `picostark-plonky3/hash-count` (same digests),
/// `wf-goldilocks` files through upstream `winterfell::verify` with a counting hasher (the
/// set of hashes is the proof's, whichever verifier runs it).
fn count_hashes(files: &[PathBuf], out: &Path) -> Result<ExitCode, UsageError> {
    let mut rows = Vec::new();
    for path in files {
        let bytes =
            std::fs::read(path).map_err(|e| UsageError(format!("{}: {e}", path.display())))?;
        let file = picostark_core::ProofFile::parse(&bytes)
            .map_err(|e| UsageError(format!("{}: {e}", path.display())))?;
        let backend = file.header.backend;
        let (count, method) = match backend {
            BackendId::WfGoldilocks => (
                wf_count::count(&file)
                    .map_err(|e| UsageError(format!("{}: {e}", path.display())))?,
                "host: upstream winterfell::verify 0.13.1 with a counting Blake3_256",
            ),
            BackendId::P3BabyBear | BackendId::P3Goldilocks | BackendId::P3M31 => {
                let v = registry::verifier(backend).expect("available backend");
                picostark_plonky3::hash_count::reset();
                let r = picostark_core::verify(v.as_ref(), &bytes, None, &Policy::default());
                picostark_plonky3::hash_count::stop();
                r.map_err(|e| UsageError(format!("{}: {e}", path.display())))?;
                (
                    picostark_plonky3::hash_count::compressions(),
                    "host: our verifier on the firmware's BLAKE3 (picostark-blake3), compressions counted in it",
                )
            }
            _ => return usage(format!("{}: no hash count for {backend}", path.display())),
        };
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        println!("{name:<48} {count:>8} compressions");
        rows.push(serde_json::json!({
            "proof": name,
            "backend": backend.name(),
            "compressions": count,
            "method": method,
        }));
    }
    let doc = serde_json::json!({ "schema": "picostark-hash-counts-1", "counts": rows });
    crate::write_file(
        out,
        (serde_json::to_string_pretty(&doc).expect("json") + "\n").as_bytes(),
    )?;
    Ok(ExitCode::SUCCESS)
}

/// Upstream winterfell verification with a counting hasher.
mod wf_count {
    use std::marker::PhantomData;
    use std::sync::atomic::{AtomicU64, Ordering};

    use picostark_air::fibonacci::Fibonacci;
    use picostark_core::ProofFile;
    use picostark_plonky3::hash_count::compressions_for;
    use picostark_winterfell::air::{felt_from_u64, PublicInputs, WfAir};
    use winterfell::crypto::hashers::Blake3_256;
    use winterfell::crypto::{DefaultRandomCoin, ElementHasher, Hasher, MerkleTree};
    use winterfell::math::fields::f64::BaseElement;
    use winterfell::math::{FieldElement, StarkField};
    use winterfell::{AcceptableOptions, BatchingMethod, FieldExtension, Proof, ProofOptions};

    static COUNT: AtomicU64 = AtomicU64::new(0);

    fn add(len: usize) {
        COUNT.fetch_add(compressions_for(len), Ordering::Relaxed);
    }

    /// `Blake3_256` with a compression counter.
    #[derive(Debug, PartialEq, Eq)]
    pub struct Counting<B: StarkField>(PhantomData<B>);

    impl<B: StarkField> Hasher for Counting<B> {
        type Digest = <Blake3_256<B> as Hasher>::Digest;
        const COLLISION_RESISTANCE: u32 = 128;
        fn hash(bytes: &[u8]) -> Self::Digest {
            add(bytes.len());
            Blake3_256::<B>::hash(bytes)
        }
        fn merge(values: &[Self::Digest; 2]) -> Self::Digest {
            add(64);
            Blake3_256::<B>::merge(values)
        }
        fn merge_many(values: &[Self::Digest]) -> Self::Digest {
            add(32 * values.len());
            Blake3_256::<B>::merge_many(values)
        }
        fn merge_with_int(seed: Self::Digest, value: u64) -> Self::Digest {
            add(40);
            Blake3_256::<B>::merge_with_int(seed, value)
        }
    }

    impl<B: StarkField> ElementHasher for Counting<B> {
        type BaseField = B;
        fn hash_elements<E: FieldElement<BaseField = B>>(elements: &[E]) -> Self::Digest {
            add(elements.len() * E::ELEMENT_BYTES);
            Blake3_256::<B>::hash_elements(elements)
        }
    }

    type H = Counting<BaseElement>;

    pub fn count(file: &ProofFile<'_>) -> Result<u64, String> {
        let p = &file.header.params;
        let options = ProofOptions::new(
            usize::from(p.num_queries),
            1 << p.log_blowup,
            u32::from(p.pow_bits),
            FieldExtension::Quadratic,
            1 << p.log_fold_arity,
            (1 << p.log_final_poly_len) - 1,
            BatchingMethod::Linear,
            BatchingMethod::Linear,
        );
        let public = file.public_inputs.get(0).ok_or("no public input")?;
        let proof = Proof::from_bytes(file.payload).map_err(|e| e.to_string())?;
        COUNT.store(0, Ordering::Relaxed);
        winterfell::verify::<WfAir<Fibonacci, BaseElement>, H, DefaultRandomCoin<H>, MerkleTree<H>>(
            proof,
            PublicInputs(vec![felt_from_u64::<BaseElement>(public)]),
            &AcceptableOptions::OptionSet(vec![options]),
        )
        .map_err(|e| e.to_string())?;
        Ok(COUNT.load(Ordering::Relaxed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(log_blowups: &[u8], pows: &[u8], arities: &[u8], finals: &[u8]) -> Grid {
        Grid {
            log_blowups: log_blowups.to_vec(),
            pows: pows.to_vec(),
            arities: Some(arities.to_vec()),
            finals: Some(finals.to_vec()),
        }
    }

    fn header(backend: BackendId, ext: u8, params: ProofParams) -> picostark_core::ProofHeader {
        ProveRequest {
            air: AirId::Membership,
            log_n: 4,
            extension_degree: ext,
            params,
            hash: picostark_core::HashId::Blake3_256,
        }
        .header(backend)
    }

    /// Each candidate is the grid point with the fewest queries that reaches the minimum.
    #[test]
    fn membership_candidates_reach_the_minimum_with_the_fewest_queries() {
        let g = grid(&[6, 8], &[20, 24], &[4], &[0]);
        let strictest = (Regime::Strictest, 127);
        let found = candidates(
            BackendId::P3BabyBear,
            (AirId::Membership, 5, 4),
            strictest,
            &g,
        );
        assert_eq!(found.len(), 4, "{found:?}");
        for p in found {
            let h = header(BackendId::P3BabyBear, 5, p);
            assert!(
                picostark_airs::bits(&h, Regime::Strictest).unwrap() >= 127,
                "{p:?}"
            );
            let fewer = ProofParams {
                num_queries: p.num_queries - 1,
                ..p
            };
            let h = header(BackendId::P3BabyBear, 5, fewer);
            assert!(
                picostark_airs::bits(&h, Regime::Strictest).unwrap() < 127,
                "{fewer:?}"
            );
        }
    }

    /// BabyBear^4 (124 bits) cannot reach 127 bits: no candidate, whatever the grid.
    #[test]
    fn a_field_too_small_for_the_minimum_gives_no_candidate() {
        let g = grid(&[6, 8], &[20, 24], &[4], &[0]);
        let strictest = (Regime::Strictest, 127);
        let found = candidates(
            BackendId::P3BabyBear,
            (AirId::Membership, 4, 4),
            strictest,
            &g,
        );
        assert!(found.is_empty(), "{found:?}");
    }

    #[test]
    fn lists_parse_and_bad_entries_are_refused() {
        assert_eq!(parse_list("pow", "20, 24").ok(), Some(vec![20, 24]));
        assert!(parse_list("log-blowups", "6,x").is_err());
        assert!(parse_list("arities", "300").is_err());
        let g = Grid {
            arities: None,
            ..grid(&[6], &[20], &[], &[3])
        };
        assert_eq!(g.folding(BackendId::WfGoldilocks), (vec![2, 3, 4], vec![3]));
    }
}

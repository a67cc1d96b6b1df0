//! `prover-host`: prove, verify, inspect and benchmark picostark proof files on the host.
//!
//! Exit codes: 0 success (or proof accepted), 1 proof rejected, 2 bad arguments or input.

mod bench;
mod memory;
mod spans;
mod tamper;
mod tune;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::{Args, Parser, Subcommand};
use picostark_core::prove::ProveRequest;
use picostark_core::record::{RunRecord, RUN_RECORD_SCHEMA};
use picostark_core::{AirId, BackendId, HashId, Policy, ProofFile, ProofParams, Regime};
use picostark_registry as registry;

#[derive(Parser)]
#[command(
    name = "prover-host",
    about = "Prove, verify and inspect picostark STARK proofs on the host",
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    prove: ProveArgs,
}

#[derive(Subcommand)]
enum Command {
    /// Verify a proof file (exit 0 accepted, 1 rejected).
    Verify {
        file: PathBuf,
        #[command(flatten)]
        policy: PolicyArgs,
    },
    /// Print a proof file's header.
    Inspect {
        file: PathBuf,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// List backends and AIRs.
    List,
    /// Prove and verify every backend at several trace lengths; write host records (JSON).
    Bench(bench::BenchArgs),
    /// Search FRI parameters: emulator-measured verify cost vs proof size vs prove time.
    Tune(tune::TuneArgs),
    /// Write tampered copies of a proof, one per class of damage, each checked to be
    /// rejected with the check it names (exit 1 if one is not).
    Tamper(tamper::TamperArgs),
}

#[derive(Args)]
struct ProveArgs {
    /// Backend id (see `prover-host list`).
    #[arg(long)]
    backend: Option<String>,
    /// AIR id.
    #[arg(long, default_value = "fib")]
    air: String,
    /// Trace length, a power of two >= 8 (default: 1024; for membership 16, the smallest
    /// trace its depth-10 path fits in).
    #[arg(long)]
    n: Option<u64>,
    /// Challenge-field extension degree (default: the backend's first).
    #[arg(long)]
    ext: Option<u8>,
    /// log2 of the blowup factor.
    #[arg(long)]
    log_blowup: Option<u8>,
    /// Number of FRI queries.
    #[arg(long)]
    queries: Option<u16>,
    /// Proof-of-work bits before query sampling.
    #[arg(long)]
    pow_bits: Option<u8>,
    /// log2 of the FRI folding arity.
    #[arg(long)]
    log_fold_arity: Option<u8>,
    /// log2 of the FRI final polynomial length.
    #[arg(long)]
    log_final_poly_len: Option<u8>,
    /// A named parameter set for the backend (`proven100`: at least 100 bits of proven
    /// security at n = 1024; see `preset`); explicit parameters override it.
    #[arg(long)]
    preset: Option<String>,
    /// Hash of the commitments and the transcript: blake3 or sha256 (stwo-m31 also blake2s,
    /// its own channel); default blake3, blake2s for stwo-m31.
    #[arg(long, value_parser = parse_hash)]
    hash: Option<HashId>,
    #[command(flatten)]
    policy: PolicyArgs,
    /// Output path (default: proofs/BACKEND-AIR-nN.proof, `-sha256` before `.proof` for
    /// SHA-256).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Also write a host benchmark record (JSON) here.
    #[arg(long)]
    record: Option<PathBuf>,
    /// Prove even when the estimated peak memory exceeds what the host has available.
    #[arg(long)]
    force: bool,
}

/// Columns of an AIR's trace over `backend`'s field and its largest transition degree.
pub(crate) fn air_shape(backend: BackendId, air: AirId) -> (usize, usize) {
    use picostark_air::AirDef;
    struct WidthAndDegree;
    impl picostark_airs::AirVisitor for WidthAndDegree {
        type Output = (usize, usize);
        fn visit<A: AirDef>(self, a: &A) -> (usize, usize) {
            let degree = a.transition_degrees().iter().copied().max().unwrap_or(1);
            (a.width(), degree)
        }
    }
    // The CLI names built-in AIRs only (`AirId::from_name`); a custom one is a stand-in.
    picostark_airs::with_air(air, backend.field(), WidthAndDegree).unwrap_or((1, 1))
}

/// The five security figures of a header whose AIR is a built-in: every header this CLI makes
/// and every file its verifier accepts. A custom AIR's figures are its own program's to
/// compute (`picostark_airs::figures_in`), so a file of one gets a clear error here.
pub(crate) fn figures(
    h: &picostark_core::ProofHeader,
) -> Result<picostark_core::security::Figures, UsageError> {
    picostark_airs::figures(h).ok_or_else(|| {
        UsageError(format!(
            "{}: a custom AIR; its security figures need its definition (see examples/)",
            h.air
        ))
    })
}

/// The verifier policy on the command line.
#[derive(Args, Clone, Copy, Default)]
pub(crate) struct PolicyArgs {
    /// Minimum security in bits, counted in --regime [default: 95, or the preset's].
    #[arg(long)]
    min_security: Option<u32>,
    /// How security is counted: ethstark, winterfell, plonky3, strictest (the minimum of the
    /// three conjectures), proven-unique, proven-list or proven [default: strictest, or the
    /// preset's].
    #[arg(long, value_parser = parse_regime)]
    regime: Option<Regime>,
}

impl PolicyArgs {
    /// The policy these arguments select, `fallback` filling what they leave out.
    pub(crate) fn policy_or(&self, fallback: Policy) -> Policy {
        Policy {
            min_security_bits: self.min_security.unwrap_or(fallback.min_security_bits),
            regime: self.regime.unwrap_or(fallback.regime),
            ..fallback
        }
    }

    pub(crate) fn policy(&self) -> Policy {
        self.policy_or(Policy::default())
    }
}

/// Parses `--hash`: `blake3` (or the id's name `blake3-256`), `sha256` or `blake2s` (or
/// `blake2s-256`).
pub(crate) fn parse_hash(name: &str) -> Result<HashId, String> {
    match name {
        "blake3" => Ok(HashId::Blake3_256),
        "blake2s" => Ok(HashId::Blake2s256),
        _ => HashId::from_name(name)
            .ok_or_else(|| format!("unknown hash '{name}' (known: blake3, sha256, blake2s)")),
    }
}

/// The hash a backend proves with when `--hash` is not given: stwo's own Blake2s channel for
/// stwo, BLAKE3 for the others.
pub(crate) fn default_hash(backend: BackendId) -> HashId {
    if backend.protocol() == "stwo" {
        HashId::Blake2s256
    } else {
        HashId::Blake3_256
    }
}

pub(crate) fn parse_regime(name: &str) -> Result<Regime, String> {
    Regime::from_name(name).ok_or_else(|| {
        let known: Vec<&str> = Regime::ALL.iter().map(|r| r.name()).collect();
        format!("unknown regime '{name}' (known: {})", known.join(", "))
    })
}

/// The proven-security track: per backend, an extension degree and parameters with at least
/// 100 bits of proven security (`Regime::Proven`) for Fib-1024. Where the backend offers a
/// challenge field large enough for list decoding (Johnson bound) to reach 100 bits, the
/// preset uses it, with the blowup and query count that verified cheapest on the M33
/// emulator at 24 PoW bits (`results/proven/README.md`): Goldilocks^3 (wf-goldilocks,
/// p3-goldilocks), BabyBear^8 (p3-babybear: ^5 needs 33 queries; chosen while RV32 builds
/// rejected BabyBear^5, a miscompilation since worked around: results/baseline/NOTES.md),
/// our own M31 sextic
/// (p3-m31, `picostark_plonky3::m31_sextic`: blowup 256 and 20 queries, as Goldilocks^3).
/// wf-babybear: our own BabyBear^5 (`picostark_winterfell::field::Quintic`; the quartic
/// reaches 100 only by unique decoding, at 77 queries), blowup 64 and 27 queries, the
/// cheapest of blowup 8/16/32/64 on the M33 emulator.
/// A backend without a line has no preset (`None`).
pub(crate) fn preset(name: &str, backend: BackendId) -> Option<(u8, ProofParams)> {
    /// Log blowup, queries, PoW bits, log folding arity, log final polynomial length.
    const fn p(b: u8, q: u16, g: u8, a: u8, f: u8) -> ProofParams {
        ProofParams {
            log_blowup: b,
            num_queries: q,
            pow_bits: g,
            log_fold_arity: a,
            log_final_poly_len: f,
        }
    }
    // (backend, extension degree, parameters).
    const PROVEN100: [(BackendId, u8, ProofParams); 5] = [
        // List decoding: 100 bits (unique decoding 42).
        (BackendId::WfGoldilocks, 3, p(7, 23, 20, 3, 5)),
        // List decoding: 100 bits (unique decoding 50).
        (BackendId::WfBabyBear, 5, p(6, 27, 24, 3, 5)),
        // List decoding: 100, 103 and 103 bits.
        (BackendId::P3BabyBear, 8, p(7, 22, 24, 4, 2)),
        (BackendId::P3Goldilocks, 3, p(8, 20, 24, 4, 2)),
        (BackendId::P3M31, 6, p(8, 20, 24, 1, 0)),
    ];
    if name != "proven100" {
        return None;
    }
    let &(_, ext, params) = PROVEN100.iter().find(|(b, _, _)| *b == backend)?;
    Some((ext, params))
}

/// The policy a preset is meant to meet.
fn preset_policy(name: &str) -> Policy {
    match name {
        "proven100" => Policy {
            min_security_bits: 100,
            regime: Regime::Proven,
            ..Policy::default()
        },
        _ => Policy::default(),
    }
}

/// A one-line usage error: exit code 2.
struct UsageError(String);

fn usage<T>(msg: impl Into<String>) -> Result<T, UsageError> {
    Err(UsageError(msg.into()))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    spans::install_from_env();
    let result = match cli.command {
        Some(Command::Verify { file, policy }) => verify_cmd(&file, &policy.policy()),
        Some(Command::Inspect { file, json }) => inspect_cmd(&file, json),
        Some(Command::List) => {
            list_cmd();
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Bench(args)) => bench::run(&args),
        Some(Command::Tune(args)) => tune::run(&args),
        Some(Command::Tamper(args)) => tamper::run(&args),
        None => prove_cmd(&cli.prove),
    };
    match result {
        Ok(code) => code,
        Err(UsageError(msg)) => {
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
    }
}

/// Parses a backend name into an id this build can prove and verify.
fn parse_backend(name: &str) -> Result<BackendId, UsageError> {
    match BackendId::from_name(name) {
        Some(b) if registry::available().contains(&b) => Ok(b),
        Some(b) => usage(format!("backend {b} is not in this build")),
        None => usage(format!(
            "unknown backend '{name}' (known: {})",
            names(&registry::available())
        )),
    }
}

fn names(ids: &[BackendId]) -> String {
    ids.iter().map(|b| b.name()).collect::<Vec<_>>().join(", ")
}

/// The trace length proved without `--n`: 1024, and for the membership AIR the smallest trace
/// its benchmark path (depth 10) fits in, 16 (more rows would be padding, proved for nothing).
fn default_n(air: AirId) -> u64 {
    match air {
        AirId::Membership => {
            let m =
                picostark_air::membership::Membership::<picostark_poseidon2::BabyBear24>::default();
            m.min_rows() as u64
        }
        _ => 1024,
    }
}

/// Builds and checks a prove request from the command line.
fn request(args: &ProveArgs, backend: BackendId) -> Result<ProveRequest, UsageError> {
    let prover = registry::prover(backend).expect("available backend has a prover");
    let Some(air) = AirId::from_name(&args.air) else {
        let known: Vec<&str> = AirId::ALL.iter().map(|a| a.name()).collect();
        return usage(format!(
            "unknown AIR '{}' (known: {})",
            args.air,
            known.join(", ")
        ));
    };
    let n = args.n.unwrap_or_else(|| default_n(air));
    if n < 8 || !n.is_power_of_two() {
        return usage(format!("n must be a power of two >= 8, got {n}"));
    }
    let log_n = n.trailing_zeros() as u8;
    let mut d = prover.default_params();
    let mut default_ext = prover.extension_degrees()[0];
    if let Some(name) = &args.preset {
        let Some((ext, params)) = preset(name, backend) else {
            return usage(format!("unknown preset '{name}' (known: proven100)"));
        };
        (default_ext, d) = (ext, params);
    }
    let params = ProofParams {
        log_blowup: args.log_blowup.unwrap_or(d.log_blowup),
        num_queries: args.queries.unwrap_or(d.num_queries),
        pow_bits: args.pow_bits.unwrap_or(d.pow_bits),
        log_fold_arity: args.log_fold_arity.unwrap_or(d.log_fold_arity),
        log_final_poly_len: args.log_final_poly_len.unwrap_or(d.log_final_poly_len),
    };
    let extension_degree = args.ext.unwrap_or(default_ext);
    let hash = args.hash.unwrap_or(default_hash(backend));
    if !prover.extension_degrees().contains(&extension_degree) {
        return usage(format!(
            "{backend} supports extension degrees {:?}",
            prover.extension_degrees()
        ));
    }
    let req = ProveRequest {
        air,
        log_n,
        extension_degree,
        params,
        hash,
    };
    // The header a proof with these parameters would have must pass the verifier's own
    // checks, so nothing is proved that the policy would reject.
    let header = req.header(backend);
    let policy = prove_policy(args);
    let bytes = picostark_core::proof_file::encode(&header, &[], &[]);
    if let Err(e) = ProofFile::parse(&bytes) {
        return usage(format!("parameters out of range: {e}"));
    }
    let verifier = registry::verifier(backend).expect("available backend has a verifier");
    verifier
        .check_supported(&header)
        .and_then(|()| verifier.air_shape(&header))
        .and_then(|shape| policy.check(&header, shape))
        .map_err(|e| UsageError(e.to_string()))?;
    // The backend's own limits (queries against the domain, folding against n, ...): what
    // its library would otherwise assert while proving.
    prover
        .check_request(&req)
        .map_err(|e| UsageError(format!("parameters not provable: {e}")))?;
    // A run that would not fit the host's memory is refused before it starts.
    let (width, degree) = air_shape(backend, air);
    let needed = memory::estimate(backend, &req, width, degree);
    if let Some(free) = memory::available() {
        if needed > free && !args.force {
            return usage(format!(
                "proving would need about {:.1} GiB (estimate, prover-host/src/memory.rs) and \
                 {:.1} GiB is available; --force proves anyway",
                needed / GIB,
                free / GIB
            ));
        }
    }
    Ok(req)
}

const GIB: f64 = 1024.0 * 1024.0 * 1024.0;

/// The policy a prove command checks its parameters against: the command line's, else the
/// preset's, else the default.
fn prove_policy(args: &ProveArgs) -> Policy {
    let fallback = args
        .preset
        .as_deref()
        .map_or_else(Policy::default, preset_policy);
    args.policy.policy_or(fallback)
}

/// Proves one request; returns the proof file and the prove time in ms.
fn prove_one(
    backend: BackendId,
    req: &ProveRequest,
    label: &str,
) -> Result<(Vec<u8>, f64), UsageError> {
    let prover = registry::prover(backend).expect("available backend has a prover");
    let start = Instant::now();
    // A prover names each stage as it starts; its line is printed when it ends, with the
    // time spent in that stage alone.
    let mut current: Option<(String, Instant)> = None;
    let mut finish_stage = |next: Option<&str>| {
        let now = Instant::now();
        if let Some((stage, began)) = current.take() {
            eprintln!("[{label}] {stage} ({:.1} s)", (now - began).as_secs_f64());
        }
        current = next.map(|s| (s.to_owned(), now));
    };
    let result = prover.prove(req, &mut |stage| finish_stage(Some(stage)));
    finish_stage(None);
    let bytes = result.map_err(|e| UsageError(format!("proving failed: {e}")))?;
    Ok((bytes, start.elapsed().as_secs_f64() * 1e3))
}

/// Verifies on the host; returns the verify time in ms.
fn verify_timed(bytes: &[u8], policy: &Policy) -> Result<f64, picostark_core::VerifyError> {
    let backend = ProofFile::parse(bytes)?.header.backend;
    let verifier = registry::verifier_for(backend, policy).ok_or(
        picostark_core::VerifyError::Unsupported("backend not in this build"),
    )?;
    let start = Instant::now();
    picostark_core::verify(verifier.as_ref(), bytes, None, policy)?;
    Ok(start.elapsed().as_secs_f64() * 1e3)
}

fn prove_cmd(args: &ProveArgs) -> Result<ExitCode, UsageError> {
    let Some(name) = &args.backend else {
        return usage("--backend is required (see `prover-host list`)");
    };
    let backend = parse_backend(name)?;
    let req = request(args, backend)?;
    let out = args.out.clone().unwrap_or_else(|| {
        let suffix = match req.hash {
            HashId::Blake3_256 | HashId::Blake2s256 => "",
            HashId::Sha256 => "-sha256",
        };
        PathBuf::from(format!(
            "proofs/{}-{}-n{}{suffix}.proof",
            backend,
            req.air,
            1u64 << req.log_n
        ))
    });
    let (bytes, prove_ms) = prove_one(backend, &req, backend.name())?;
    let policy = prove_policy(args);
    let verify_ms = verify_timed(&bytes, &policy).map_err(|e| {
        UsageError(format!(
            "internal error: the new proof does not verify: {e}"
        ))
    })?;
    write_file(&out, &bytes)?;
    let header = req.header(backend);
    let figures = figures(&header)?;
    let security = figures.get(policy.regime);
    println!("backend:    {backend}");
    println!(
        "field:      {} x degree {}",
        header.field, header.extension_degree
    );
    println!("air:        {}  n = {}", header.air, header.n());
    println!("proof:      {} bytes -> {}", bytes.len(), out.display());
    println!(
        "prove time: {:.1} ms (host, {} profile)",
        prove_ms,
        env!("PICOSTARK_PROFILE")
    );
    println!("verify:     {:.2} ms (host)", verify_ms);
    println!("security:   {security} bits ({})", policy.regime);
    if let Some(c) = figures.statement_hash {
        println!(
            "            at most {} by the statement's hash: {}",
            c.bits, c.name
        );
    }
    if let Some(path) = &args.record {
        let file = ProofFile::parse(&bytes).expect("just written");
        let mut rec = host_record(&file, bytes.len(), prove_ms, verify_ms, &policy)?;
        rec.host_peak_rss = bench::peak_rss_bytes();
        let json = serde_json::to_string_pretty(&rec).expect("record serializes");
        write_file(path, json.as_bytes())?;
    }
    Ok(ExitCode::SUCCESS)
}

pub(crate) fn host_record(
    file: &ProofFile<'_>,
    proof_bytes: usize,
    prove_ms: f64,
    verify_ms: f64,
    policy: &Policy,
) -> Result<RunRecord, UsageError> {
    let h = &file.header;
    let figures = figures(h)?;
    Ok(RunRecord {
        schema: RUN_RECORD_SCHEMA,
        source: "host".into(),
        backend: h.backend.name().into(),
        field: h.field.name().into(),
        extension: h.extension_degree,
        air: h.air.name().into(),
        n: h.n(),
        core: "host".into(),
        board: host_cpu(),
        allocator: "system".into(),
        proof_bytes: proof_bytes as u64,
        security_bits: figures.get(policy.regime),
        result: "accepted".into(),
        iterations: 1,
        prove_ms: Some(prove_ms),
        verify_ms: Some(verify_ms),
        estimate: None,
        security: Some(figures.record(policy)),
        params: Some(h.params),
        toolchain: env!("PICOSTARK_RUSTC_VERSION").into(),
        profile: env!("PICOSTARK_PROFILE").into(),
        git_commit: picostark_core::record::source_commit(Path::new("."), 12),
        ..RunRecord::default()
    })
}

fn host_cpu() -> String {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, m)| m.trim().to_string())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string());
    format!("{model} ({threads} threads)")
}

fn write_file(path: &Path, bytes: &[u8]) -> Result<(), UsageError> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| UsageError(format!("cannot create {}: {e}", dir.display())))?;
    }
    std::fs::write(path, bytes)
        .map_err(|e| UsageError(format!("cannot write {}: {e}", path.display())))
}

fn read_file(path: &Path) -> Result<Vec<u8>, UsageError> {
    std::fs::read(path).map_err(|e| UsageError(format!("cannot read {}: {e}", path.display())))
}

fn verify_cmd(path: &Path, policy: &Policy) -> Result<ExitCode, UsageError> {
    let bytes = read_file(path)?;
    match verify_timed(&bytes, policy) {
        Ok(ms) => {
            let h = ProofFile::parse(&bytes).expect("verified").header;
            let bits = figures(&h)?.get(policy.regime);
            println!(
                "accepted: {} {} n={} ({} bits {}, {:.2} ms on the host)",
                h.backend,
                h.air,
                h.n(),
                bits,
                policy.regime,
                ms
            );
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            println!("rejected: {e} [{}]", e.kind());
            Ok(ExitCode::from(1))
        }
    }
}

fn inspect_cmd(path: &Path, json: bool) -> Result<ExitCode, UsageError> {
    let bytes = read_file(path)?;
    let file =
        ProofFile::parse(&bytes).map_err(|e| UsageError(format!("{}: {e}", path.display())))?;
    let h = &file.header;
    let p = &h.params;
    let f = figures(h)?;
    let security = f.get(Policy::DEFAULT_REGIME);
    let public: Vec<u64> = file.public_inputs.iter().collect();
    if json {
        let v = serde_json::json!({
            "backend": h.backend.name(),
            "protocol": h.backend.protocol(),
            "field": h.field.name(),
            "extension_degree": h.extension_degree,
            "hash": h.hash.name(),
            "air": h.air.name(),
            "n": h.n(),
            "public_inputs": public,
            "log_blowup": p.log_blowup,
            "num_queries": p.num_queries,
            "pow_bits": p.pow_bits,
            "log_fold_arity": p.log_fold_arity,
            "log_final_poly_len": p.log_final_poly_len,
            "security_bits": security,
            "security": {
                "ethstark": f.ethstark,
                "winterfell_conjectured": f.winterfell,
                "plonky3_conjectured": f.plonky3,
                "strictest_conjectured": f.get(Regime::Strictest),
                "proven_unique": f.proven_unique,
                "proven_list": f.proven_list,
                "statement_hash_bits": f.statement_hash.map(|c| c.bits),
                "statement_hash": f.statement_hash.map(|c| c.name),
            },
            "payload_bytes": file.payload.len(),
            "file_bytes": bytes.len(),
        });
        println!("{}", serde_json::to_string_pretty(&v).expect("json"));
    } else {
        println!("backend:      {} ({})", h.backend, h.backend.protocol());
        println!("field:        {} x degree {}", h.field, h.extension_degree);
        println!("hash:         {}", h.hash);
        println!("air:          {}  n = {}", h.air, h.n());
        println!("public:       {public:?}");
        println!("parameters:   {p}");
        println!("security:     {security} bits, the strictest conjecture (core/src/security.rs):");
        println!("  (a) ethSTARK, grinding in full:      {}", f.ethstark);
        println!("  (b) winterfell 0.13.1 conjectured:   {}", f.winterfell);
        println!("  (c) Plonky3 0.8 conjectured:         {}", f.plonky3);
        println!("  (d) proven, unique decoding:         {}", f.proven_unique);
        println!("  (e) proven, list decoding (Johnson): {}", f.proven_list);
        if let Some(c) = f.statement_hash {
            println!(
                "  each capped at {} bits by the statement's hash: {}",
                c.bits, c.name
            );
        }
        println!(
            "size:         {} bytes ({} payload)",
            bytes.len(),
            file.payload.len()
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn list_cmd() {
    println!("backends:");
    for &b in BackendId::ALL {
        let state = match (registry::prover(b), registry::verifier(b)) {
            (Some(p), Some(_)) => format!(
                "extension degrees {:?}; defaults: {}",
                p.extension_degrees(),
                p.default_params()
            ),
            _ => "not in this build".to_string(),
        };
        println!(
            "  {:<14} {:<10} {:<11} {state}",
            b.name(),
            b.protocol(),
            b.field().name()
        );
    }
    println!("airs:");
    for &air in AirId::ALL {
        let what = match air {
            AirId::Fibonacci => "two columns, degree 1; public input s1[n-1] = F(2n)",
            AirId::CubicChain16 => "16 columns, degree-3 rounds; public input and claimed output",
            AirId::Membership => {
                "Poseidon2 Merkle membership, depth 10, nullifier; n = 16 (Plonky3 backends)"
            }
            AirId::Custom(_) => "an AIR defined outside the workspace (examples/)",
        };
        println!("  {:<14} {what}", air.name());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A Fibonacci n = 2^10 BLAKE3 request.
    fn fib_1024(extension_degree: u8, params: ProofParams) -> ProveRequest {
        let (air, log_n, hash) = (AirId::Fibonacci, 10, HashId::Blake3_256);
        ProveRequest {
            air,
            log_n,
            extension_degree,
            params,
            hash,
        }
    }

    /// Every proven100 preset reaches 100 proven bits at Fib-1024, by list decoding wherever
    /// the backend has a large enough challenge field, and its backend accepts the header.
    #[test]
    fn proven100_presets_reach_100_bits_by_list_decoding_where_the_field_allows() {
        for &backend in BackendId::ALL {
            // stwo-m31 has no proven100 preset yet (its QM31 gives 124-bit challenges).
            let Some((ext, params)) = preset("proven100", backend) else {
                assert_eq!(backend, BackendId::StwoM31);
                continue;
            };
            let h = fib_1024(ext, params).header(backend);
            let f = picostark_airs::figures(&h).unwrap();
            assert!(f.get(Regime::Proven) >= 100, "{backend}: {f:?}");
            assert!(f.proven_list >= 100, "{backend}: {f:?}");
            if let Some(v) = registry::verifier(backend) {
                assert_eq!(v.check_supported(&h), Ok(()), "{backend}");
            }
        }
        assert_eq!(preset("proven99", BackendId::P3BabyBear), None);
    }

    /// A host record names its proof's parameters as the header gives them.
    #[test]
    fn host_record_carries_the_header_params() {
        let (ext, params) = preset("proven100", BackendId::P3M31).expect("a preset");
        let h = fib_1024(ext, params).header(BackendId::P3M31);
        let bytes = picostark_core::proof_file::encode(&h, &[1], &[2]);
        let file = ProofFile::parse(&bytes).expect("parses");
        let rec = host_record(&file, bytes.len(), 1.0, 2.0, &Policy::default())
            .ok()
            .unwrap();
        assert_eq!(
            (rec.params, rec.n, rec.extension),
            (Some(params), 1024, ext)
        );
    }
}

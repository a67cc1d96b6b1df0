//! `compare all`: the one command that produces the report on a fresh machine.
//!
//! 1. `prover-host list` says which backends (and extension degrees) this build has;
//! 2. `prover-host bench` proves and verifies Fib at every requested n for each of them
//!    (host records, proof files), and `prover-host --ext E` proves each further extension
//!    degree a backend offers; all of it `--samples` times (default 3), since provers
//!    need not be deterministic and one proof's verify cost is then one draw;
//! 3. `mcu-run run` verifies every proof under QEMU on each core (emulator records); when
//!    QEMU is missing this step is skipped with install instructions and the host-side
//!    report is still written;
//! 4. `compare report` over everything, plus any device logs given, into the output folder,
//!    with a README naming the command, toolchain and timings.
//!
//! Each tool runs through `cargo run --release` from the repository root, so the command
//! works from a clean checkout; their output is streamed with a step prefix and saved under
//! `<out>/logs/`.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use clap::Args;
use picostark_core::Policy;

#[derive(Args)]
pub struct AllArgs {
    /// Output folder (report, raw records, logs; proof files under proofs/).
    #[arg(long, default_value = "results")]
    out: PathBuf,
    /// log2 trace lengths.
    #[arg(long, default_value = "10,16", value_delimiter = ',')]
    log_n: Vec<u8>,
    /// Cores to emulate.
    #[arg(long, default_value = "m33,rv32", value_delimiter = ',')]
    cores: Vec<String>,
    /// Firmware heap in bytes. 384 KiB: an n = 2^16 proof (~110 KB) plus its verify peak
    /// (~165 KB) does not fit mcu-run's 256 KiB default once the firmware copies the proof
    /// for its tampered run; 384 KiB + the 64 KiB stack still fit the 512 KiB RAM.
    #[arg(long, default_value_t = 393_216)]
    heap: u64,
    /// Firmware allocator (tlsf, llff, bump).
    #[arg(long, default_value = "tlsf")]
    alloc: String,
    /// Proofs per configuration. A prover need not be deterministic: each proof is verified
    /// (host and emulator) and the report keeps the median-cost one with the range.
    #[arg(long, default_value_t = 3)]
    samples: u32,
    /// Timed runs per host point (the median is recorded).
    #[arg(long, default_value_t = 1)]
    repeat: u32,
    /// Per-proof QEMU timeout in seconds.
    #[arg(long, default_value_t = 900)]
    timeout: u64,
    /// Device logs (firmware line format) to include as device rows.
    #[arg(long = "device-log")]
    device_logs: Vec<PathBuf>,
    /// Only the first extension degree of each backend (what `prover-host bench` proves).
    #[arg(long)]
    first_extension_only: bool,
    /// Skip the emulator step (host-side report only).
    #[arg(long)]
    skip_emulator: bool,
    /// Rows below this conjectured security are shown but never ranked.
    #[arg(long, default_value_t = Policy::DEFAULT_MIN_SECURITY_BITS)]
    min_security: u32,
}

/// `cargo run --release -p <package> --` in the repository root.
fn cargo_run(package: &str) -> Command {
    let mut c = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    c.current_dir(crate::input::repo_root())
        .args(["run", "--release", "-p", package, "--"]);
    c
}

/// Runs `cmd`, streaming its stdout and stderr line by line with `prefix` and saving both to
/// `log`. Returns whether it succeeded, and its output.
fn stream(cmd: &mut Command, prefix: &str, log: &Path) -> Result<(bool, String), String> {
    let shown = format!("{cmd:?}");
    let cannot = |e: std::io::Error| format!("{prefix}: cannot start {shown}: {e}");
    // One pipe for both streams, so lines keep the order the tool wrote them in.
    let (reader, writer) = std::io::pipe().map_err(cannot)?;
    let writer2 = writer.try_clone().map_err(cannot)?;
    let spawned = cmd
        .stdin(Stdio::null())
        .stdout(writer2)
        .stderr(writer)
        .spawn();
    // The command's own copies of the write end close here, so the read below ends with it.
    cmd.stdout(Stdio::null()).stderr(Stdio::null());
    let mut child = spawned.map_err(cannot)?;
    let mut text = String::new();
    for line in BufReader::new(reader).lines().map_while(Result::ok) {
        // Cargo's own lines are the progress of the (long, first-time) release builds.
        println!("{prefix} {line}");
        text.push_str(&line);
        text.push('\n');
    }
    let status = child.wait().map_err(|e| e.to_string())?;
    if let Some(dir) = log.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    let mut f = std::fs::File::create(log).map_err(|e| format!("{}: {e}", log.display()))?;
    let _ = writeln!(
        f,
        "{}",
        relative(&format!("$ {cmd:?}\n{text}exit: {status}"))
    );
    Ok((status.success(), text))
}

/// `text` without this machine's paths: the repository root becomes `.`, the home folder `~`
/// (logs go to `results/`, which names no absolute path).
pub fn relative(text: &str) -> String {
    let root = crate::input::repo_root().display().to_string();
    let home = std::env::var("HOME").unwrap_or_default();
    let t = text.replace(&format!("{root}/"), "").replace(&root, ".");
    if home.len() > 1 {
        t.replace(&home, "~")
    } else {
        t
    }
}

/// Backends and their extension degrees, from `prover-host list`.
pub fn parse_list(text: &str) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for line in text.lines() {
        let t = line.trim();
        let Some(name) = t.split_whitespace().next() else {
            continue;
        };
        if picostark_core::BackendId::from_name(name).is_none() {
            continue;
        }
        let Some(rest) = t.split("extension degrees [").nth(1) else {
            continue; // "not in this build"
        };
        let degrees: Vec<u8> = rest
            .split(']')
            .next()
            .unwrap_or("")
            .split(',')
            .filter_map(|d| d.trim().parse().ok())
            .collect();
        out.push((name.to_string(), degrees));
    }
    out
}

/// The proof files in `dir`, none when it cannot be read.
fn list_proofs(dir: &Path) -> Vec<PathBuf> {
    crate::params::proof_files(dir).unwrap_or_default()
}

fn proof_header(p: &Path) -> Option<picostark_core::ProofHeader> {
    let bytes = std::fs::read(p).ok()?;
    picostark_core::ProofFile::parse(&bytes)
        .ok()
        .map(|f| f.header)
}

fn which(bin: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join(bin).is_file()))
}

fn capture_line(cmd: &mut Command) -> Option<String> {
    let o = cmd.output().ok()?;
    o.status.success().then(|| {
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .next()
            .unwrap_or("")
            .trim()
            .to_string()
    })
}

fn clean(dir: &Path) -> Result<(), String> {
    if dir.exists() {
        std::fs::remove_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))
}

pub fn run(a: &AllArgs, invocation: &str) -> Result<(), String> {
    let t0 = Instant::now();
    let root = crate::input::repo_root();
    let out = if a.out.is_absolute() {
        a.out.clone()
    } else {
        std::env::current_dir()
            .map_err(|e| e.to_string())?
            .join(&a.out)
    };
    let raw = out.join("raw");
    let proofs = out.join("proofs");
    let logs = out.join("logs");
    for d in [&raw, &proofs, &logs] {
        clean(d)?;
    }
    let mut notes: Vec<String> = Vec::new();
    let mut timings: Vec<(String, f64)> = Vec::new();
    let ns: Vec<String> = a.log_n.iter().map(|n| n.to_string()).collect();

    // 1. Which backends exist.
    let t = Instant::now();
    println!("[1/4] building prover-host (release) and listing its backends");
    let (ok, list) = stream(
        cargo_run("prover-host").arg("list"),
        "[1/4]",
        &logs.join("prover-host-list.log"),
    )?;
    if !ok {
        return Err("prover-host does not build or run; see logs/prover-host-list.log".into());
    }
    let backends = parse_list(&list);
    if backends.is_empty() {
        return Err("prover-host lists no backend".into());
    }
    println!(
        "[1/4] backends: {}",
        backends
            .iter()
            .map(|(b, d)| format!("{b} (ext {d:?})"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    timings.push((
        "build prover-host, list backends".into(),
        t.elapsed().as_secs_f64(),
    ));

    // 2. Host: prove and verify.
    let t = Instant::now();
    println!(
        "[2/4] proving Fib at n = 2^{{{}}} for every backend (host)",
        ns.join(",")
    );
    let samples = a.samples.max(1);
    for sample in 1..=samples {
        let st = format!("s{sample}");
        let proofs = proofs.join(&st);
        let host_dir = raw.join("host").join(&st);
        println!("[2/4] proofs set {sample} of {samples}");
        let (ok, _) = stream(
            cargo_run("prover-host")
                .args([
                    "bench",
                    "--backend",
                    "all",
                    "--log-n",
                    &ns.join(","),
                    "--repeat",
                    &a.repeat.to_string(),
                    "--out",
                ])
                .arg(host_dir.join("host-bench.json"))
                .arg("--proofs")
                .arg(&proofs),
            "[2/4]",
            &logs.join(format!("prover-host-bench-{st}.log")),
        )?;
        if !ok {
            notes.push(format!("`prover-host bench` failed for proof set {sample} (see logs/prover-host-bench-{st}.log); rows it did not write are missing"));
        }
        if !a.first_extension_only {
            for (b, degrees) in &backends {
                for e in degrees.iter().skip(1) {
                    for n in &a.log_n {
                        let nn = 1u64 << n;
                        let name = format!("{b}-fib-n{nn}-ext{e}");
                        let (ok, text) = stream(
                            cargo_run("prover-host")
                                .args(["--backend", b, "--air", "fib"])
                                .args(["--n", &nn.to_string(), "--ext", &e.to_string()])
                                // Below-floor configurations are proved too: the report shows
                                // them flagged and never ranks them, and the firmware's policy
                                // must reject them.
                                .args(["--min-security", "0", "--out"])
                                .arg(proofs.join(format!("{name}.proof")))
                                .arg("--record")
                                .arg(host_dir.join(format!("{name}.json"))),
                            "[2/4]",
                            &logs.join(format!("prover-host-{name}-{st}.log")),
                        )?;
                        if !ok {
                            let why = text
                                .lines()
                                .rev()
                                .find(|l| l.starts_with("error"))
                                .unwrap_or("failed")
                                .to_string();
                            notes.push(format!(
                                "{b}^{e} n=2^{n} (proof set {sample}) not proved: {why}"
                            ));
                        }
                    }
                }
            }
        }
    }
    // The hash axis: each backend's SHA-256 proof at the smallest n (one proof, first
    // extension; the emulator runs it with the software compression and with the engine
    // charged). No host record: the host rows stay BLAKE3's.
    let sha_dir = proofs.join("sha256");
    if let Some(n) = a.log_n.iter().min() {
        for (b, _) in &backends {
            let nn = 1u64 << n;
            let (ok, text) = stream(
                cargo_run("prover-host")
                    .args(["--backend", b, "--air", "fib", "--n", &nn.to_string()])
                    .args(["--hash", "sha256", "--out"])
                    .arg(sha_dir.join(format!("{b}-fib-n{nn}-sha256.proof"))),
                "[2/4]",
                &logs.join(format!("prover-host-{b}-sha256.log")),
            )?;
            if !ok {
                notes.push(format!(
                    "{b} SHA-256 n=2^{n} not proved: {}",
                    failure_summary(&text)
                ));
            }
        }
    }
    timings.push(("prove + host verify".into(), t.elapsed().as_secs_f64()));

    // 3. Emulator.
    let mut qemu_versions = Vec::new();
    if a.skip_emulator {
        notes.push("emulator step skipped (--skip-emulator)".into());
    }
    for core in a.cores.iter().filter(|_| !a.skip_emulator) {
        let t = Instant::now();
        let qemu = match core.as_str() {
            "m33" => "qemu-system-arm",
            "rv32" => "qemu-system-riscv32",
            other => return Err(format!("unknown core {other} (m33, rv32)")),
        };
        if !which(qemu) {
            let pkg = if core == "m33" {
                "qemu-system-arm"
            } else {
                "qemu-system-misc"
            };
            let msg = format!(
                "{qemu} not found: no emulator rows for {core}. Install QEMU with `bash .ci/install`, or `apt-get install qemu-system-arm` then `apt-get install qemu-system-misc` (this core needs {pkg}), and run again"
            );
            println!("[3/4] {msg}");
            notes.push(msg);
            continue;
        }
        if let Some(v) = capture_line(Command::new(qemu).arg("--version")) {
            qemu_versions.push(v);
        }
        for sample in 1..=samples {
            let st = format!("s{sample}");
            let proof_files = list_proofs(&proofs.join(&st));
            println!(
            "[3/4] proof set {sample} of {samples}: verifying {} proof(s) under QEMU on {core} (the first set builds the firmware)",
            proof_files.len()
        );
            let emu_dir = raw.join("emulator").join(&st);
            // Proofs below the firmware's security floor must be rejected by its policy: they
            // run in their own batch with `--expect rejected`. Both batches name the same
            // backend features, so the firmware is built once.
            let floor = Policy::default().min_security_bits;
            let (below, above): (Vec<PathBuf>, Vec<PathBuf>) =
                proof_files.iter().cloned().partition(|p| {
                    proof_header(p).is_some_and(|h| Policy::default().check(&h).is_err())
                });
            let all_backends: std::collections::BTreeSet<picostark_core::BackendId> = proof_files
                .iter()
                .filter_map(|p| proof_header(p).map(|h| h.backend))
                .collect();
            let all_features = all_backends
                .iter()
                .map(|b| b.name())
                .collect::<Vec<_>>()
                .join(",");
            let run_batch = |files: &[PathBuf],
                             tag: &str,
                             expect: &str,
                             features: Option<&str>,
                             out: &Path,
                             extra: &[&str]| {
                let mut cmd = cargo_run("mcu-run");
                cmd.args(["run", "--core", core])
                    .args(["--alloc", &a.alloc, "--heap", &a.heap.to_string()])
                    .args(["--timeout", &a.timeout.to_string(), "--expect", expect]);
                if let Some(f) = features {
                    cmd.args(["--features", f]);
                }
                cmd.args(extra).arg("--out").arg(out).args(files);
                stream(
                    &mut cmd,
                    &format!("[3/4 {core}]"),
                    &logs.join(format!("mcu-run-{core}-{st}{tag}.log")),
                )
            };
            let proof_files = above;
            let (ok, text) = run_batch(
                &proof_files,
                "",
                "accepted",
                Some(&all_features),
                &emu_dir,
                &[],
            )?;
            if !ok {
                // Which proofs have no record? Retry them one backend at a time, so one backend
                // whose firmware does not build cannot take the others down.
                let missing: Vec<PathBuf> = proof_files
                    .iter()
                    .filter(|p| {
                        let name = p
                            .file_name()
                            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
                        !emu_dir
                            .join(format!("{name}.{core}.{}.json", a.alloc))
                            .exists()
                    })
                    .cloned()
                    .collect();
                let built_nothing = missing.len() == proof_files.len();
                if built_nothing && proof_files.len() > 1 {
                    println!(
                        "[3/4 {core}] the batch produced no record; retrying one backend at a time"
                    );
                    let mut by_backend: Vec<(String, Vec<PathBuf>)> = Vec::new();
                    for p in &missing {
                        let b = proof_header(p).map_or(String::new(), |h| h.backend.name().into());
                        match by_backend.iter_mut().find(|(k, _)| *k == b) {
                            Some((_, v)) => v.push(p.clone()),
                            None => by_backend.push((b, vec![p.clone()])),
                        }
                    }
                    for (b, files) in by_backend {
                        let (ok, text) =
                            run_batch(&files, &format!("-{b}"), "accepted", None, &emu_dir, &[])?;
                        if !ok {
                            notes.push(format!(
                                "mcu-run on {core} for {b}: {}",
                                failure_summary(&text)
                            ));
                        }
                    }
                } else {
                    notes.push(format!("mcu-run on {core}: {}", failure_summary(&text)));
                }
            }
            if !below.is_empty() {
                println!(
                "[3/4 {core}] {} proof(s) below the {floor}-bit floor: the firmware must reject them",
                below.len()
            );
                let (ok, text) = run_batch(
                    &below,
                    "-below-floor",
                    "rejected",
                    Some(&all_features),
                    &emu_dir,
                    &[],
                )?;
                if !ok {
                    notes.push(format!(
                        "**SAFETY** mcu-run on {core}, proofs below the {floor}-bit floor: {}",
                        failure_summary(&text)
                    ));
                }
            }
            // The hash axis, once (the same firmware build): SHA-256 in software, then with
            // the timing model charging the engine per block.
            let sha = list_proofs(&sha_dir);
            if sample == 1 && !sha.is_empty() {
                for (tag, extra) in [
                    ("sha256", &[][..]),
                    ("sha256-engine", &["--sha256-engine"][..]),
                ] {
                    let out = raw.join("emulator").join(tag);
                    let (ok, text) = run_batch(
                        &sha,
                        &format!("-{tag}"),
                        "accepted",
                        Some(&all_features),
                        &out,
                        extra,
                    )?;
                    if !ok {
                        notes.push(format!(
                            "mcu-run on {core}, {tag}: {}",
                            failure_summary(&text)
                        ));
                    }
                }
            }
        }
        timings.push((format!("emulate on {core}"), t.elapsed().as_secs_f64()));
    }

    // 4. Report.
    let t = Instant::now();
    println!("[4/4] writing the report");
    let mut inputs = vec![raw.clone()];
    // Tracks measured by their own documented commands join the report when their records
    // are there: proven >= 100 bits (results/proven/README.md), the best hardware-hash
    // configurations (code in SRAM, their own FRI parameters; results/hash/README.md), the
    // membership workload (results/membership/README.md), the WideCirclePcs rows
    // (results/baseline/wide-circle.md) and the board images by code placement
    // (results/placement/README.md).
    for track in [
        "proven/records",
        "hash/best",
        "membership/records",
        "baseline/wide-circle",
        "placement/one",
        "placement/all",
    ] {
        if out.join(track).is_dir() {
            inputs.push(out.join(track));
        }
    }
    let dev_dir = raw.join("device");
    if !a.device_logs.is_empty() {
        std::fs::create_dir_all(&dev_dir).map_err(|e| e.to_string())?;
        for l in &a.device_logs {
            let name = l
                .file_name()
                .map_or_else(|| "device.log".into(), |n| n.to_string_lossy().into_owned());
            std::fs::copy(l, dev_dir.join(&name)).map_err(|e| format!("{}: {e}", l.display()))?;
        }
    }
    let rows = crate::report::run(
        &inputs,
        &out,
        Some(&proofs.join("s1")),
        a.min_security,
        invocation,
        &notes,
    )?;
    timings.push(("report".into(), t.elapsed().as_secs_f64()));
    let total = t0.elapsed().as_secs_f64();
    write_readme(
        &out,
        invocation,
        &root,
        &timings,
        total,
        &qemu_versions,
        rows,
    )?;
    println!(
        "done in {:.0} s: {rows} rows. Report: {}",
        total,
        out.join("report.html").display()
    );
    println!(
        "  also {0}/report.md, {0}/table.csv, {0}/table.json, {0}/README.md",
        out.display()
    );
    Ok(())
}

/// The lines of a failed mcu-run that say what went wrong, on one line.
fn failure_summary(text: &str) -> String {
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("error") || l.contains("panic") || l.contains("mcu-run:"))
        .filter(|l| !l.trim_start().starts_with("Compiling"))
        .take(8)
        .collect();
    if lines.is_empty() {
        "failed (see its log under logs/)".into()
    } else {
        lines.join(" / ")
    }
}

fn write_readme(
    out: &Path,
    invocation: &str,
    root: &Path,
    timings: &[(String, f64)],
    total: f64,
    qemu: &[String],
    rows: usize,
) -> Result<(), String> {
    let rustc = capture_line(Command::new("rustc").current_dir(root).arg("-V"))
        .unwrap_or_else(|| "unknown".into());
    let commit = capture_line(Command::new("git").current_dir(root).args([
        "rev-parse",
        "--short=12",
        "HEAD",
    ]))
    .unwrap_or_else(|| "unknown".into());
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, m)| m.trim().to_string())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.into());
    let mut q = qemu.to_vec();
    q.dedup();
    let timings: Vec<(&str, String)> = timings
        .iter()
        .map(|(w, t)| (w.as_str(), format!("{t:.0}")))
        .collect();
    let mut env = minijinja::Environment::new();
    env.add_template("r", include_str!("results-readme.md.j2"))
        .map_err(|e| e.to_string())?;
    let s = env
        .get_template("r")
        .and_then(|t| {
            t.render(minijinja::context! {
                invocation, commit, rustc, cpu, rows, timings,
                generated => crate::report::utc_now(),
                threads => std::thread::available_parallelism().map_or(1, |n| n.get()),
                qemu => if q.is_empty() { "not used".to_string() } else { q.join("; ") },
                total => format!("{total:.0}"),
            })
        })
        .map_err(|e| e.to_string())?;
    let p = out.join("README.md");
    std::fs::write(&p, s).map_err(|e| format!("{}: {e}", p.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logs_and_origins_name_no_machine_path() {
        let root = crate::input::repo_root().display().to_string();
        let log =
            format!("$ \"{root}/target/release/mcu-run\" --out {root}/results/raw\nin {root}");
        assert_eq!(
            relative(&log),
            "$ \"target/release/mcu-run\" --out results/raw\nin ."
        );
        let rec = crate::input::repo_root().join("compare/testdata/host-bench.json");
        assert!(
            !crate::input::shown(&rec).starts_with('/'),
            "{}",
            crate::input::shown(&rec)
        );
    }

    #[test]
    fn stream_reads_both_outputs_and_logs_the_exit() {
        let log = std::env::temp_dir().join(format!("compare-stream-{}.log", std::process::id()));
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "echo out; echo err >&2; exit 3"]);
        assert_eq!(
            stream(&mut cmd, "[t]", &log).unwrap(),
            (false, "out\nerr\n".into())
        );
        let text = std::fs::read_to_string(&log).unwrap();
        let _ = std::fs::remove_file(&log);
        assert!(text.contains("out\nerr\nexit: exit status: 3"), "{text}");
    }

    #[test]
    fn list_output_parses() {
        let text = "backends:
  p3-babybear    plonky3    babybear    extension degrees [4, 5]; defaults: blowup 2^3, 27 queries
  p3-m31         plonky3    m31         extension degrees [4]; defaults: blowup 2^3
  wf-goldilocks  winterfell goldilocks  not in this build
airs:
  fib            two-column Fibonacci
";
        assert_eq!(
            parse_list(text),
            vec![
                ("p3-babybear".to_string(), vec![4, 5]),
                ("p3-m31".to_string(), vec![4])
            ]
        );
    }

    #[test]
    fn failure_lines() {
        let t = "ok line\n   Compiling x\np3-m31 m33 error: 3 of 4\nmcu-run: boom\n";
        assert_eq!(
            failure_summary(t),
            "p3-m31 m33 error: 3 of 4 / mcu-run: boom"
        );
        assert_eq!(
            failure_summary("nothing"),
            "failed (see its log under logs/)"
        );
    }
}

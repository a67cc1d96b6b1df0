//! `compare all`: the one command that produces the report on a fresh machine.
//!
//! 1. `prover-host list` says which backends (and extension degrees) this build has (and
//!    stwo-m31's prover, a nightly binary in its own workspace, is built when it is one);
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

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use clap::Args;
use minijinja::context;
use picostark_core::{BackendId, Policy, ProofFile, ProofHeader};

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

/// `cargo run --release -p <package> -- <args>` in the repository root (`args` split at
/// whitespace).
fn cargo_run(package: &str, args: &str) -> Command {
    let mut c = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    c.current_dir(crate::input::repo_root());
    c.args(["run", "--release", "-p", package, "--"]);
    c.args(args.split_whitespace());
    c
}

/// `cargo build --release --locked` of stwo-m31's prover (`backends/stwo/prover`), which
/// prover-host runs (`picostark_stwo::prover_client`) but cannot build: stwo's prover needs
/// the nightly that workspace's `rust-toolchain.toml` pins. So the build goes through
/// rustup's `cargo`, without the `RUSTUP_TOOLCHAIN` this run's stable cargo set, which would
/// override the pin.
fn stwo_prover_build() -> Command {
    let mut c = Command::new("cargo");
    c.current_dir(crate::input::repo_root().join("backends/stwo/prover"));
    c.args(["build", "--release", "--locked"]);
    c.env_remove("RUSTUP_TOOLCHAIN");
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
    cmd.stdin(Stdio::null()).stdout(writer2).stderr(writer);
    let spawned = cmd.spawn();
    // The command's own copies of the write end close here, so the read below ends with it.
    cmd.stdout(Stdio::null()).stderr(Stdio::null());
    let mut child = spawned.map_err(cannot)?;
    let mut text = String::new();
    for line in BufReader::new(reader).lines().map_while(Result::ok) {
        // Cargo's own lines are the progress of the (long, first-time) release builds.
        println!("{prefix} {line}");
        text += &(line + "\n");
    }
    let status = child.wait().map_err(|e| e.to_string())?;
    let _ = std::fs::create_dir_all(log.parent().unwrap_or(Path::new(".")));
    let saved = relative(&format!("$ {shown}\n{text}exit: {status}\n"));
    std::fs::write(log, saved).map_err(|e| format!("{}: {e}", log.display()))?;
    Ok((status.success(), text))
}

/// `text` without this machine's paths: the repository root becomes `.`, the home folder `~`
/// (logs go to `results/`, which names no absolute path).
pub fn relative(text: &str) -> String {
    let root = crate::input::repo_root().display().to_string();
    let t = text.replace(&format!("{root}/"), "").replace(&root, ".");
    match std::env::var("HOME") {
        Ok(home) if home.len() > 1 => t.replace(&home, "~"),
        _ => t,
    }
}

/// Backends and their extension degrees, from `prover-host list` (lines `NAME ... extension
/// degrees [4, 5]; ...`; a backend "not in this build" has none).
pub fn parse_list(text: &str) -> Vec<(String, Vec<u8>)> {
    let degrees = |line: &str| {
        let list = line.split("extension degrees [").nth(1)?;
        let list = list.split(']').next()?.split(',');
        Some(list.filter_map(|d| d.trim().parse().ok()).collect())
    };
    let known = |line: &str| {
        let name = line.split_whitespace().next()?;
        BackendId::from_name(name)?;
        Some((name.to_string(), degrees(line)?))
    };
    text.lines().filter_map(known).collect()
}

/// The `*.proof` files in `dir` (not recursive), in name order.
fn proof_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let paths = std::fs::read_dir(dir)?.filter_map(|e| Some(e.ok()?.path()));
    let proof = |p: &PathBuf| p.extension() == Some("proof".as_ref());
    let mut files: Vec<PathBuf> = paths.filter(proof).collect();
    files.sort();
    Ok(files)
}

/// The first line `cmd` prints, when it succeeds.
fn first_line(cmd: &mut Command) -> Option<String> {
    let o = cmd.output().ok().filter(|o| o.status.success())?;
    let text = String::from_utf8_lossy(&o.stdout);
    Some(text.lines().next()?.trim().into())
}

/// The lines of a failed tool run that say what went wrong, on one line.
fn failure_summary(text: &str) -> String {
    let said = |l: &&str| l.contains("error") || l.contains("panic") || l.contains("mcu-run:");
    let compiling = |l: &&str| l.trim_start().starts_with("Compiling");
    let lines = text.lines().filter(said).filter(|l| !compiling(l));
    let lines: Vec<&str> = lines.take(8).collect();
    match lines.is_empty() {
        true => "failed (see its log under logs/)".into(),
        false => lines.join(" / "),
    }
}

/// The pipeline's state: where things go, and what it has to say in the report.
struct Run<'a> {
    a: &'a AllArgs,
    logs: PathBuf,
    notes: Vec<String>,
}

impl Run<'_> {
    /// Runs a tool (see [`stream`]); a failure adds `what: <its error lines>` to the notes.
    fn tool(&mut self, cmd: &mut Command, step: &str, log: &str, what: &str) -> Result<(), String> {
        let (ok, text) = stream(cmd, step, &self.logs.join(format!("{log}.log")))?;
        let why = failure_summary(&text);
        self.notes.extend((!ok).then(|| format!("{what}: {why}")));
        Ok(())
    }

    /// `mcu-run run` on `core` over `files`, expecting `expect`, records into `out`.
    fn mcu_run(&self, core: &str, expect: &str, features: Option<&str>, out: &Path) -> Command {
        let (alloc, heap, timeout) = (&self.a.alloc, self.a.heap, self.a.timeout);
        let run = format!("run --core {core} --alloc {alloc} --heap {heap} --timeout {timeout}");
        let mut cmd = cargo_run("mcu-run", &format!("{run} --expect {expect}"));
        cmd.args(features.map(|f| ["--features", f]).into_iter().flatten());
        cmd.arg("--out").arg(out);
        cmd
    }
}

fn clean(dir: &Path) -> Result<(), String> {
    let err = |e: std::io::Error| format!("{}: {e}", dir.display());
    if dir.exists() {
        std::fs::remove_dir_all(dir).map_err(err)?;
    }
    std::fs::create_dir_all(dir).map_err(err)
}

pub fn run(a: &AllArgs, invocation: &str) -> Result<(), String> {
    let t0 = Instant::now();
    // The tree measured is the one the tools are built from now, at the start.
    let commit = picostark_core::record::source_commit(&crate::input::repo_root(), 12);
    let cwd = std::env::current_dir().map_err(|e| e.to_string())?;
    let out = cwd.join(&a.out);
    let (raw, proofs) = (out.join("raw"), out.join("proofs"));
    let (logs, notes) = (out.join("logs"), Vec::new());
    let mut run = Run { a, logs, notes };
    for d in [&raw, &proofs, &run.logs] {
        clean(d)?;
    }
    let mut timings: Vec<(String, String)> = Vec::new();
    // Each step's time, since the previous step ended.
    let mut since = Instant::now();
    let mut lap = |what: &str| {
        let secs = format!("{:.0}", since.elapsed().as_secs_f64());
        timings.push((what.to_string(), secs));
        since = Instant::now();
    };

    // 1. Which backends exist.
    println!("[1/4] building prover-host (release) and listing its backends");
    let log = run.logs.join("prover-host-list.log");
    let (ok, list) = stream(&mut cargo_run("prover-host", "list"), "[1/4]", &log)?;
    let backends = parse_list(&list);
    if !ok || backends.is_empty() {
        let why = "prover-host does not build, run or list a backend";
        return Err(format!("{why}; see logs/prover-host-list.log"));
    }
    let shown = backends.iter().map(|(b, d)| format!("{b} (ext {d:?})"));
    println!("[1/4] backends: {}", shown.collect::<Vec<_>>().join(", "));
    lap("build prover-host, list backends");
    let stwo = backends.iter().any(|(b, _)| b == BackendId::StwoM31.name());
    if stwo && std::env::var_os("PICOSTARK_STWO_PROVER").is_none() {
        println!("[1/4] building the stwo-m31 prover (its own workspace, pinned nightly)");
        let what = "the stwo-m31 prover did not build (`bash .ci/install` installs its nightly), so stwo-m31 has no rows";
        run.tool(&mut stwo_prover_build(), "[1/4]", "stwo-prover-build", what)?;
        lap("build the stwo-m31 prover");
    }

    // 2. Host: prove and verify, `samples` proof sets.
    let ns: Vec<String> = a.log_n.iter().map(u8::to_string).collect();
    let ns = ns.join(",");
    println!("[2/4] proving Fib at n = 2^{{{ns}}} for every backend (host)");
    let samples = a.samples.max(1);
    for sample in 1..=samples {
        let st = format!("s{sample}");
        let (set, host) = (proofs.join(&st), raw.join("host").join(&st));
        println!("[2/4] proofs set {sample} of {samples}");
        let args = format!("bench --backend all --log-n {ns} --repeat {}", a.repeat);
        let mut bench = cargo_run("prover-host", &args);
        bench.arg("--out").arg(host.join("host-bench.json"));
        bench.arg("--proofs").arg(&set);
        let what = "rows it did not write are missing";
        let what = format!("`prover-host bench` for proof set {sample} ({what})");
        let log = format!("prover-host-bench-{st}");
        run.tool(&mut bench, "[2/4]", &log, &what)?;
        let extra = backends.iter().filter(|_| !a.first_extension_only);
        for (b, e) in extra.flat_map(|(b, d)| d.iter().skip(1).map(move |e| (b, e))) {
            for n in &a.log_n {
                let name = format!("{b}-fib-n{}-ext{e}", 1u64 << n);
                // Below-floor configurations are proved too: the report shows them flagged
                // and never ranks them, and the firmware's policy must reject them.
                let args = format!("--backend {b} --air fib --n {} --ext {e}", 1u64 << n);
                let mut cmd = cargo_run("prover-host", &(args + " --min-security 0"));
                cmd.arg("--out").arg(set.join(format!("{name}.proof")));
                cmd.arg("--record").arg(host.join(format!("{name}.json")));
                let what = format!("{b}^{e} n=2^{n} (proof set {sample}) not proved");
                let log = format!("prover-host-{name}-{st}");
                run.tool(&mut cmd, "[2/4]", &log, &what)?;
            }
        }
    }
    // The hash axis: each backend's SHA-256 proof at the smallest n (one proof, first
    // extension; the emulator runs it with the software compression and with the engine
    // charged). No host record: the host rows stay BLAKE3's.
    let sha_dir = proofs.join("sha256");
    let smallest = a.log_n.iter().min();
    for (b, n) in backends.iter().flat_map(|(b, _)| smallest.map(|n| (b, n))) {
        let nn = 1u64 << n;
        let args = format!("--backend {b} --air fib --n {nn} --hash sha256 --out");
        let mut cmd = cargo_run("prover-host", &args);
        cmd.arg(sha_dir.join(format!("{b}-fib-n{nn}-sha256.proof")));
        let what = format!("{b} SHA-256 n=2^{n} not proved");
        run.tool(&mut cmd, "[2/4]", &format!("prover-host-{b}-sha256"), &what)?;
    }
    lap("prove + host verify");

    // 3. Emulator.
    let mut qemu_versions = Vec::new();
    if a.skip_emulator {
        run.notes
            .push("emulator step skipped (--skip-emulator)".into());
    }
    for core in a.cores.iter().filter(|_| !a.skip_emulator) {
        let (qemu, pkg) = match core.as_str() {
            "m33" => ("qemu-system-arm", "qemu-system-arm"),
            "rv32" => ("qemu-system-riscv32", "qemu-system-misc"),
            other => return Err(format!("unknown core {other} (m33, rv32)")),
        };
        let Some(version) = first_line(Command::new(qemu).arg("--version")) else {
            let msg = format!("{qemu} not found: no emulator rows for {core}. Install QEMU with `bash .ci/install`, or `apt-get install qemu-system-arm` then `apt-get install qemu-system-misc` (this core needs {pkg}), and run again");
            println!("[3/4] {msg}");
            run.notes.push(msg);
            continue;
        };
        qemu_versions.push(version);
        let step = format!("[3/4 {core}]");
        for sample in 1..=samples {
            let st = format!("s{sample}");
            let files = proof_files(&proofs.join(&st)).unwrap_or_default();
            println!("{step} proof set {sample} of {samples}: verifying {} proof(s) under QEMU (the first set builds the firmware)", files.len());
            let emu_dir = raw.join("emulator").join(&st);
            // Proofs below the firmware's security floor must be rejected by its policy: they
            // run in their own batch with `--expect rejected`. Both batches name the same
            // backend features, so the firmware is built once.
            let header = |p: &PathBuf| Some(ProofFile::parse(&std::fs::read(p).ok()?).ok()?.header);
            let headers: Vec<Option<ProofHeader>> = files.iter().map(header).collect();
            let backend = |i: usize| headers[i].as_ref().map_or("", |h| h.backend.name());
            let all: BTreeSet<&str> = (0..files.len()).map(backend).collect();
            let all: Vec<&str> = all.into_iter().filter(|b| !b.is_empty()).collect();
            let features = all.join(",");
            let policy = Policy::default();
            // A file of an AIR outside the built-ins is left to the runner's own verdict.
            let rejects = |h: &ProofHeader| {
                picostark_airs::shape_of(h).is_some_and(|shape| policy.check(h, shape).is_err())
            };
            let below = |i: &usize| headers[*i].as_ref().is_some_and(rejects);
            let (low, high): (Vec<usize>, Vec<usize>) = (0..files.len()).partition(below);
            let pick = |ix: &[usize]| ix.iter().map(|&i| files[i].clone()).collect::<Vec<_>>();
            let mut cmd = run.mcu_run(core, "accepted", Some(&features), &emu_dir);
            let log = run.logs.join(format!("mcu-run-{core}-{st}.log"));
            let (ok, text) = stream(cmd.args(pick(&high)), &step, &log)?;
            if !ok {
                let why = failure_summary(&text);
                run.notes.push(format!("mcu-run on {core}: {why}"));
            }
            if !low.is_empty() {
                let floor = Policy::default().min_security_bits;
                let k = low.len();
                println!("{step} {k} proof(s) below the {floor}-bit floor: the firmware must reject them");
                let mut cmd = run.mcu_run(core, "rejected", Some(&features), &emu_dir);
                let what =
                    format!("**SAFETY** mcu-run on {core}, proofs below the {floor}-bit floor");
                let log = format!("mcu-run-{core}-{st}-below-floor");
                run.tool(cmd.args(pick(&low)), &step, &log, &what)?;
            }
            // The hash axis, once (the same firmware build): SHA-256 in software, then with
            // the timing model charging the engine per block.
            let sha = proof_files(&sha_dir).unwrap_or_default();
            let once = sample == 1 && !sha.is_empty();
            for tag in ["sha256", "sha256-engine"].into_iter().filter(|_| once) {
                let to = raw.join("emulator").join(tag);
                let mut cmd = run.mcu_run(core, "accepted", Some(&features), &to);
                cmd.args((tag == "sha256-engine").then_some("--sha256-engine"));
                let what = format!("mcu-run on {core}, {tag}");
                let log = format!("mcu-run-{core}-{st}-{tag}");
                run.tool(cmd.args(&sha), &step, &log, &what)?;
            }
        }
        lap(&format!("emulate on {core}"));
    }

    // 4. Report, over the records written here and the tracks measured by their own
    // documented commands when their records are there (`report::TRACKS`).
    println!("[4/4] writing the report");
    let inputs = crate::report::track_dirs(&out);
    for l in &a.device_logs {
        let (dir, name) = (raw.join("device"), l.file_name().unwrap_or_default());
        let _ = std::fs::create_dir_all(&dir);
        std::fs::copy(l, dir.join(name)).map_err(|e| format!("{}: {e}", l.display()))?;
    }
    let (min, notes) = (a.min_security, &run.notes);
    let rows = crate::report::run(&inputs, &out, min, invocation, notes)?;
    lap("report");
    let total = format!("{:.0}", t0.elapsed().as_secs_f64());
    qemu_versions.dedup();
    let qemu = (!qemu_versions.is_empty()).then(|| qemu_versions.join("; "));
    let qemu = qemu.unwrap_or("not used".into());
    let readme = context! { invocation, commit, timings, total, qemu, rows };
    write_readme(&out, readme)?;
    let out = out.display();
    println!("done in {total} s: {rows} rows. Report: {out}/report.html");
    println!("  also {out}/report.md, {out}/table.csv, {out}/table.json, {out}/README.md");
    Ok(())
}

/// `<out>/README.md`: the run (`invocation`, `commit`, `timings`, `total`, `qemu`, `rows`) and
/// the machine.
fn write_readme(out: &Path, run: minijinja::Value) -> Result<(), String> {
    let root = crate::input::repo_root();
    let tool = |cmd: &str, args: &[&str]| {
        let line = first_line(Command::new(cmd).current_dir(&root).args(args));
        line.unwrap_or_else(|| "unknown".into())
    };
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo.lines().find(|l| l.starts_with("model name"));
    let model = model.and_then(|l| l.split_once(':'));
    let cpu = model.map_or(std::env::consts::ARCH, |m| m.1.trim());
    let ctx = context! {
        cpu,
        rustc => tool("rustc", &["-V"]),
        generated => crate::report::utc_now(),
        threads => std::thread::available_parallelism().map_or(1, |n| n.get()),
        ..run
    };
    let p = out.join("README.md");
    std::fs::write(&p, render_readme(ctx)?).map_err(|e| format!("{}: {e}", p.display()))
}

fn render_readme(ctx: minijinja::Value) -> Result<String, String> {
    let env = minijinja::Environment::new();
    let t = env.template_from_str(include_str!("results-readme.md.j2"));
    t.and_then(|t| t.render(ctx)).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logs_and_origins_name_no_machine_path() {
        let root = crate::input::repo_root().display().to_string();
        let log =
            format!("$ \"{root}/target/release/mcu-run\" --out {root}/results/raw\nin {root}");
        let want = "$ \"target/release/mcu-run\" --out results/raw\nin .";
        assert_eq!(relative(&log), want);
        let rec = crate::input::repo_root().join("compare/testdata/host-bench.json");
        let rec = crate::input::shown(&rec);
        assert!(!rec.starts_with('/'), "{rec}");
    }

    #[test]
    fn stwo_prover_builds_with_its_pinned_toolchain() {
        let c = stwo_prover_build();
        let pin = c.get_current_dir().unwrap().join("rust-toolchain.toml");
        assert!(pin.is_file(), "{}", pin.display());
        let unset = |(k, v): (&std::ffi::OsStr, Option<&std::ffi::OsStr>)| {
            k == "RUSTUP_TOOLCHAIN" && v.is_none()
        };
        let why = "this run's toolchain would override the pin";
        assert!(c.get_envs().any(unset), "{why}");
    }

    #[test]
    fn readme_says_whether_the_commit_was_clean() {
        let line = |commit: &str| {
            let text = render_readme(context! { commit }).unwrap();
            let line = text.lines().find(|l| l.starts_with("| commit |"));
            line.unwrap().to_string()
        };
        let clean = "| commit | 0123456789ab (a clean tree at the start of the run) |";
        assert_eq!(line("0123456789ab"), clean);
        let dirty = line("0123456789ab-dirty");
        let says = "-dirty (uncommitted changes outside";
        assert!(dirty.contains(says), "{dirty}");
    }

    #[test]
    fn stream_reads_both_outputs_and_logs_the_exit() {
        let log = std::env::temp_dir().join(format!("compare-stream-{}.log", std::process::id()));
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "echo out; echo err >&2; exit 3"]);
        let got = stream(&mut cmd, "[t]", &log).unwrap();
        assert_eq!(got, (false, "out\nerr\n".into()));
        let text = std::fs::read_to_string(&log).unwrap();
        let _ = std::fs::remove_file(&log);
        assert!(text.contains("out\nerr\nexit: exit status: 3"), "{text}");
    }

    #[test]
    fn list_output_and_failure_lines_parse() {
        let text = "backends:
  p3-babybear    plonky3    babybear    extension degrees [4, 5]; defaults: blowup 2^3, 27 queries
  p3-m31         plonky3    m31         extension degrees [4]; defaults: blowup 2^3
  wf-goldilocks  winterfell goldilocks  not in this build
airs:
  fib            two-column Fibonacci
";
        let got = parse_list(text);
        let got: Vec<String> = got.iter().map(|(b, d)| format!("{b} {d:?}")).collect();
        assert_eq!(got, ["p3-babybear [4, 5]", "p3-m31 [4]"]);
        let t = "ok line\n   Compiling x\np3-m31 m33 error: 3 of 4\nmcu-run: boom\n";
        let want = "p3-m31 m33 error: 3 of 4 / mcu-run: boom";
        assert_eq!(failure_summary(t), want);
        let want = "failed (see its log under logs/)";
        assert_eq!(failure_summary("nothing"), want);
    }
}

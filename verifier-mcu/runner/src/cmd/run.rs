//! `mcu-run run`: proof files verified by the QEMU firmware under the instruction-count
//! plugin and the RP2350 timing model, one `RunRecord` JSON per proof.

use std::path::{Path, PathBuf};

use clap::ValueEnum;
use picostark_core::{BackendId, ProofFile};

use crate::cli::Expect;
use crate::paths::repo_root;
use crate::qemu::{self, Core, Isa};
use crate::{elf, profile, record};

/// Verify proof files in the firmware under QEMU and write one RunRecord JSON per proof.
///
/// Builds the firmware once for the core (QEMU board, proof slot, the backends the proofs
/// need unless `--features` says otherwise; cargo reuses an up-to-date build), builds the
/// instruction-count plugin, then for each proof file loads it into the firmware's RAM proof
/// slot, runs QEMU with the plugin and the core's timing model, parses the firmware's `pstk1`
/// lines and the plugin's counts, and writes `NAME.CORE.ALLOC.json` to `--out`.
///
/// Fails (exit 1) when a result is not the expected one, when the firmware's own tampered
/// copy of an accepted proof was not rejected (after a rejected one the copy is not
/// applicable: `n/a`), or, with `--repeat N`, when two runs differ in any count.
///
/// `--build-only` builds that firmware and prints its ELF, no proof needed: a later `run`
/// with the same flags finds it up to date.
#[derive(clap::Args, Debug)]
#[command(after_help = "Build only:
  mcu-run run --build-only --core m33|rv32 --features F,..|--window stock-wf [--alloc NAME]
              [--heap BYTES] [--iterations N] [--isa rp2350|rv32imac]")]
pub struct Args {
    /// Proof files, one record each.
    #[arg(value_name = "PROOF")]
    pub proofs: Vec<PathBuf>,
    /// The emulated core.
    #[arg(long)]
    pub core: Core,
    /// The firmware's heap allocator.
    #[arg(long, value_name = "NAME", default_value = "tlsf", value_parser = ["tlsf", "llff", "bump"])]
    pub alloc: String,
    /// Firmware features, comma-separated [default: the backends of the proofs].
    #[arg(long, value_name = "F,..")]
    pub features: Option<String>,
    /// The verdict every proof must get.
    #[arg(long, value_enum, default_value_t = Expect::Accepted)]
    pub expect: Expect,
    /// Runs per proof; every count must be the same in each.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub repeat: u64,
    /// The firmware's heap.
    #[arg(long, value_name = "BYTES", default_value_t = 256 * 1024)]
    pub heap: u64,
    /// Verifications per run (the last one of a tampered copy).
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub iterations: u64,
    /// The records' folder [default: out/mcu].
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Run this firmware instead of building it.
    #[arg(long, value_name = "ELF")]
    pub elf: Option<PathBuf>,
    /// Seconds before a run is stopped.
    #[arg(long, value_name = "S", default_value_t = 600)]
    pub timeout: u64,
    /// The RV32 instruction set, QEMU's `-cpu` follows it (with `--core rv32`)
    /// [default: rp2350].
    #[arg(long)]
    pub isa: Option<Isa>,
    /// The measurement window.
    #[arg(long, value_enum, default_value_t = Window::Full)]
    pub window: Window,
    /// The timing model's XIP miss cost, instead of the model's own.
    #[arg(long, value_name = "CYCLES")]
    pub xip_miss: Option<u64>,
    /// Have the timing model see each function at its address in this board image (the XIP
    /// cache's sets depend on it; verifier-mcu/TIMING.md); the record's estimate is the
    /// median over placements of the code it cannot place.
    #[arg(long, value_name = "BOARD.elf")]
    pub layout_elf: Option<PathBuf>,
    /// Which image the records name (`RunRecord.image`, e.g. all-backend).
    #[arg(long, value_name = "NAME")]
    pub image: Option<String>,
    /// Build each proof into its own firmware (`PSTK_PROOF`), run without the proof slot.
    #[arg(long)]
    pub embedded: bool,
    /// Also write the first run's instructions by function,
    /// `NAME.CORE.ALLOC.profile.txt`, the first genuine iteration's
    /// (`*.profile.iteration1.txt`) and its XIP miss cycles by function
    /// (`*.profile.iteration1.misses.txt`).
    #[arg(long)]
    pub profile: bool,
    /// Charge the RP2350 SHA-256 engine's cost per block in place of the software
    /// compression (a model of the peripheral, verifier-mcu/TIMING.md).
    #[arg(long)]
    pub sha256_engine: bool,
    /// Build the firmware and print its ELF; no proofs.
    #[arg(long)]
    pub build_only: bool,
}

/// `--window`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Window {
    /// The whole verification, parsing included.
    Full,
    /// What the published silicon runs of stock winterfell measured (firmware feature
    /// `stock-wf-window`): `winterfell::verify` alone on a proof parsed and cloned before the
    /// window, built with target-cpu=cortex-m33 on the M33 and as plain RV32IMAC on RV32.
    StockWf,
}

/// A proof file of the batch, read before any build.
struct Proof {
    path: PathBuf,
    bytes: Vec<u8>,
    /// Its header's backend (`None`: a file that does not parse, when rejected is expected).
    backend: Option<BackendId>,
}

pub fn run(args: Args) -> Result<(), String> {
    let (isa, stock_window) = check(&args)?;
    // Read every proof first: a bad file stops the batch before any build.
    let proofs = read_proofs(&args.proofs, args.expect)?;
    let features = features(&args, stock_window, &proofs)?;
    // `--build-only`: the firmware a later `run` with the same flags reuses, built ahead
    // (verifier-mcu/ci.sh builds its images while the host still builds the prover).
    if args.build_only {
        let elf = qemu::build_firmware(
            args.core,
            isa,
            &args.alloc,
            &features,
            args.heap,
            args.iterations,
            None,
        )?;
        println!("{}", elf.display());
        return Ok(());
    }
    if args.embedded && args.elf.is_some() {
        return Err("--embedded builds one firmware per proof: drop --elf".into());
    }
    let batch = Batch::new(&args, isa, stock_window, features)?;
    let mut failures = Vec::new();
    println!(
        "{:<40} {:<5} {:<14} {:<22} {:>12} {:>12} {:>8} {:>10} {:>10} {:>8}",
        "proof",
        "core",
        "backend",
        "result",
        "instructions",
        "est_cycles",
        "est_ms",
        "heap_peak",
        "stack_peak",
        "tampered"
    );
    for proof in &proofs {
        let (name, outcome, meta) = batch.measure(proof, &mut failures)?;
        batch.report(&name, proof, &outcome, &meta, &mut failures)?;
    }
    if failures.is_empty() {
        println!(
            "all {} proof(s) as expected on {}",
            proofs.len(),
            args.core.name()
        );
        Ok(())
    } else {
        Err(failures.join("\n"))
    }
}

/// The checks that need no file; returns the RV32 instruction set of the build and whether
/// the window is `stock-wf`.
fn check(args: &Args) -> Result<(Isa, bool), String> {
    let core = args.core;
    let isa = args.isa.unwrap_or(Isa::Rp2350);
    if core == Core::M33 && isa != Isa::Rp2350 {
        return Err("--isa chooses the RV32 instruction set: use it with --core rv32".into());
    }
    // `--window stock-wf`: the published silicon runs' measurement window and build (firmware
    // feature `stock-wf-window`: target-cpu=cortex-m33 on the M33, plain RV32IMAC on RV32).
    let stock_window = args.window == Window::StockWf;
    let isa = match (stock_window, core, args.isa) {
        (true, Core::Rv32, Some(Isa::Rp2350)) => {
            return Err(
                "--window stock-wf is the published plain RV32IMAC build: drop --isa rp2350".into(),
            )
        }
        (true, Core::Rv32, _) => Isa::Rv32imac,
        _ => isa,
    };
    if stock_window && args.features.is_some() {
        return Err("--window stock-wf builds its own feature set: drop --features".into());
    }
    if args.build_only && (args.embedded || !args.proofs.is_empty()) {
        return Err("--build-only takes --features (or --window stock-wf), no proofs".into());
    }
    if args.proofs.is_empty() && !args.build_only {
        return Err("no proof files given".into());
    }
    Ok((isa, stock_window))
}

/// Reads the proof files; one whose envelope does not parse stops the batch unless every
/// proof is expected rejected.
fn read_proofs(paths: &[PathBuf], expect: Expect) -> Result<Vec<Proof>, String> {
    let mut proofs = Vec::new();
    for path in paths {
        let p = path.display();
        let bytes = std::fs::read(path).map_err(|e| format!("{p}: {e}"))?;
        let backend = ProofFile::parse(&bytes)
            .map(|pf| Some(pf.header.backend))
            .or_else(|e| {
                if expect == Expect::Rejected {
                    Ok(None)
                } else {
                    Err(format!("{p}: {e}"))
                }
            })?;
        proofs.push(Proof {
            path: path.clone(),
            bytes,
            backend,
        });
    }
    Ok(proofs)
}

/// The firmware's features: `--features`, else the stock window's, else the proofs' backends.
fn features(args: &Args, stock_window: bool, proofs: &[Proof]) -> Result<Vec<String>, String> {
    let features: Vec<String> = match &args.features {
        Some(list) => list.split(',').map(str::to_string).collect(),
        None if stock_window => vec!["stock-wf-window".to_string()],
        None => {
            let mut v: Vec<BackendId> = proofs.iter().filter_map(|p| p.backend).collect();
            v.sort();
            v.dedup();
            v.iter().map(|b| b.name().to_string()).collect()
        }
    };
    if features.is_empty() {
        return Err("no backend to build: give --features".into());
    }
    Ok(features)
}

/// What every proof of one `run` shares: the arguments, the firmware (unless each proof is
/// embedded), the plugin and the records' build description.
struct Batch<'a> {
    args: &'a Args,
    isa: Isa,
    features: Vec<String>,
    out: PathBuf,
    /// The one firmware of the batch and its markers (`None` with `--embedded`).
    shared: Option<(PathBuf, (u32, u32))>,
    plugin: PathBuf,
    meta: record::BuildMeta,
    placement: &'static str,
}

impl<'a> Batch<'a> {
    fn new(
        args: &'a Args,
        isa: Isa,
        stock_window: bool,
        features: Vec<String>,
    ) -> Result<Self, String> {
        let out = args
            .out
            .clone()
            .unwrap_or_else(|| repo_root().join("out/mcu"));
        // One build for the whole batch (proof slot), unless each proof is embedded.
        let shared = if args.embedded {
            None
        } else {
            Some(build(args, isa, &features, None)?)
        };
        let plugin = qemu::build_plugin()?;
        let meta = build_meta(args, isa, stock_window, &features);
        let placement = placement(&features);
        std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
        Ok(Batch {
            args,
            isa,
            features,
            out,
            shared,
            plugin,
            meta,
            placement,
        })
    }

    /// Runs one proof `--repeat` times (differences are failures) and, with `--layout-elf`,
    /// over the layout's placements; writes its profile. Returns the proof's name, the run
    /// the record describes and the build description with the layout's coverage.
    fn measure(
        &self,
        proof: &Proof,
        failures: &mut Vec<String>,
    ) -> Result<(String, qemu::Outcome, record::BuildMeta), String> {
        let (a, core) = (self.args, self.args.core);
        let (elf, markers) = match &self.shared {
            Some(s) => s.clone(),
            None => build(a, self.isa, &self.features, Some(&proof.path))?,
        };
        let slot = (!a.embedded).then_some(proof.bytes.as_slice());
        let (model, layout) = self.model(&elf, slot)?;
        let plugin_args = qemu::Plugin {
            path: &self.plugin,
            markers,
            model: &model,
        };
        let name = proof
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "proof".into());
        // The layout's coverage is counted on the block profile, so a layout run takes one.
        let raw_profile = (a.profile || layout.is_some())
            .then(|| self.out.join(format!("{name}.{}.profile.raw", core.name())));
        let mut o = self.repeated(
            &elf,
            &plugin_args,
            slot,
            raw_profile.as_deref(),
            proof,
            failures,
        )?;
        if let Some(board) = &a.layout_elf {
            o = median_placement(o, core, &a.alloc, &self.meta, |k| {
                let mut args = model.clone();
                args.pop();
                args.push(qemu::layout_arg(&elf, board, qemu::layout_shift(k))?.0);
                let plugin_args = qemu::Plugin {
                    path: &self.plugin,
                    markers,
                    model: &args,
                };
                qemu::run(core, self.isa, &elf, &plugin_args, slot, a.timeout, None)
            })?;
        }
        let mut meta = self.meta.clone();
        if let (Some(l), Some(raw)) = (&layout, &raw_profile) {
            layout_coverage(l, raw, &mut meta)?;
        }
        if let Some(raw) = raw_profile.as_ref().filter(|_| a.profile) {
            let dest = self
                .out
                .join(format!("{name}.{}.{}.profile.txt", core.name(), a.alloc));
            write_profile(raw, &elf, &o, &dest, &name)?;
        } else if let Some(raw) = &raw_profile {
            let _ = std::fs::remove_file(raw);
        }
        Ok((name, o, meta))
    }

    /// The plugin's model arguments for one run of `elf` (the layout's last, when given) and
    /// the layout.
    fn model(
        &self,
        elf: &Path,
        slot: Option<&[u8]>,
    ) -> Result<(Vec<String>, Option<qemu::Layout>), String> {
        let a = self.args;
        let elf_bytes = std::fs::read(elf).map_err(|e| format!("{}: {e}", elf.display()))?;
        let mut model = qemu::model_args(a.core, &elf_bytes, slot.map(<[u8]>::len), a.xip_miss)?;
        if a.sha256_engine {
            model.push(qemu::sha256_offload_arg(&elf_bytes)?);
        }
        let mut layout = None;
        if let Some(board) = &a.layout_elf {
            let (arg, l) = qemu::layout_arg(elf, board, 0)?;
            model.push(arg);
            layout = Some(l);
        }
        Ok((model, layout))
    }

    /// `--repeat` runs of one proof (the first with the block profile `raw_profile`); a run
    /// that measured differently from the first is a failure. Returns the first.
    fn repeated(
        &self,
        elf: &Path,
        plugin: &qemu::Plugin<'_>,
        slot: Option<&[u8]>,
        raw_profile: Option<&Path>,
        proof: &Proof,
        failures: &mut Vec<String>,
    ) -> Result<qemu::Outcome, String> {
        let (a, core) = (self.args, self.args.core);
        let mut first: Option<qemu::Outcome> = None;
        for r in 0..a.repeat.max(1) {
            let p = raw_profile.filter(|_| r == 0);
            let o = qemu::run(core, self.isa, elf, plugin, slot, a.timeout, p)?;
            if let Some(f0) = &first {
                if let Err(e) = f0.same_measurements(&o) {
                    failures.push(format!(
                        "{}: run {} differs from run 1: {e}",
                        proof.path.display(),
                        r + 1
                    ));
                }
            } else {
                first = Some(o);
            }
        }
        Ok(first.expect("repeat >= 1"))
    }

    /// Writes one proof's record and prints its line; a result that is not the expected one
    /// is a failure.
    fn report(
        &self,
        name: &str,
        proof: &Proof,
        o: &qemu::Outcome,
        meta: &record::BuildMeta,
        failures: &mut Vec<String>,
    ) -> Result<(), String> {
        let (a, core) = (self.args, self.args.core);
        let mut rec = match record::build(o, core, &a.alloc, meta)
            .map(|r| record::with_security(r, &proof.bytes))
        {
            Ok(rec) => rec,
            Err(e) => {
                report_unparsed(name, core, a.expect, o, &e, failures);
                return Ok(());
            }
        };
        rec.placement = Some(self.placement.into());
        // Which image, when a comparison needs it named (`all-backend`: the one image
        // for every backend the proofs need, set beside the board images).
        rec.image = a.image.clone();
        let json = serde_json::to_string_pretty(&rec).map_err(|e| e.to_string())?;
        let file = self
            .out
            .join(format!("{name}.{}.{}.json", core.name(), a.alloc));
        std::fs::write(&file, json + "\n").map_err(|e| format!("{}: {e}", file.display()))?;
        let tampered = qemu::tampered_check(&rec.result, o.tampered_result());
        println!(
            "{:<40} {:<5} {:<14} {:<22} {:>12} {:>12} {:>8} {:>10} {:>10} {:>8}",
            name,
            core.name(),
            rec.backend,
            rec.result,
            rec.instructions.map_or("-".into(), |v| v.to_string()),
            rec.estimate
                .as_ref()
                .map_or("-".into(), |e| e.cycles.to_string()),
            rec.estimate
                .as_ref()
                .map_or("-".into(), |e| format!("{:.2}", e.ms)),
            rec.heap_peak.map_or("-".into(), |v| v.to_string()),
            rec.stack_peak.map_or("-".into(), |v| v.to_string()),
            tampered.cell(),
        );
        check_record(name, &rec, &tampered, a.expect, o, failures);
        Ok(())
    }
}

/// The firmware (`--elf`, or built with `proof` embedded when given) and its markers.
fn build(
    a: &Args,
    isa: Isa,
    features: &[String],
    proof: Option<&Path>,
) -> Result<(PathBuf, (u32, u32)), String> {
    let elf = match &a.elf {
        Some(e) => e.clone(),
        None => qemu::build_firmware(a.core, isa, &a.alloc, features, a.heap, a.iterations, proof)?,
    };
    let elf_bytes = std::fs::read(&elf).map_err(|e| format!("{}: {e}", elf.display()))?;
    let markers = qemu::markers(&elf_bytes)?;
    Ok((elf, markers))
}

/// The records' build description: the build's, the RV32 ISA, where the code runs from, the
/// board layout and the window.
fn build_meta(args: &Args, isa: Isa, stock_window: bool, features: &[String]) -> record::BuildMeta {
    let mut meta = record::BuildMeta::collect();
    if args.core == Core::Rv32 {
        meta.profile.push_str(&format!(
            " isa={} target-features={}",
            isa.name(),
            isa.target_features()
        ));
    }
    // Where code and read-only data run from (issue 17): SRAM in the `code-in-ram` build.
    if code_in_sram(features) {
        meta.profile.push_str(" code=sram");
    }
    if let Some(board) = &args.layout_elf {
        let name = board.file_name().unwrap_or_default();
        meta.profile.push_str(&format!(
            " layout-elf={} layout-samples={}",
            name.to_string_lossy(),
            qemu::LAYOUT_SAMPLES
        ));
    }
    if stock_window {
        meta.profile.push_str(" window=stock-wf");
        if args.core == Core::M33 {
            meta.profile.push_str(" target-cpu=cortex-m33");
        }
    }
    meta
}

/// Adds the executed instructions by the board layout's placement (counted on the block
/// profile `raw`) to the record's build description, and prints them.
fn layout_coverage(
    l: &qemu::Layout,
    raw: &Path,
    meta: &mut record::BuildMeta,
) -> Result<(), String> {
    let text = std::fs::read_to_string(raw).map_err(|e| format!("{}: {e}", raw.display()))?;
    let [by_symbol, by_copy, unplaced, outside] = l.coverage(&text);
    let all = (by_symbol + by_copy + unplaced + outside).max(1) as f64;
    let pc = |n: u64| 100.0 * n as f64 / all;
    let cov = format!(
        "layout-coverage=symbol:{:.1}%,inlined:{:.1}%,unplaced:{:.1}%,other:{:.1}%",
        pc(by_symbol),
        pc(by_copy),
        pc(unplaced),
        pc(outside)
    );
    eprintln!("mcu-run: executed instructions by layout placement: {cov}");
    let (by_name, by_bytes, data) = l.data_bytes;
    meta.profile.push_str(&format!(
        " {cov} layout-data=symbol:{by_name}B,same-bytes:{by_bytes}B,of:{data}B"
    ));
    Ok(())
}

/// The failures of a run whose record was written: a result not the expected one, a
/// tampered copy not rejected, a count without an estimate, an unclean exit.
fn check_record(
    name: &str,
    rec: &picostark_core::record::RunRecord,
    tampered: &qemu::TamperedCheck,
    expect: Expect,
    o: &qemu::Outcome,
    failures: &mut Vec<String>,
) {
    let ok_result = match expect {
        Expect::Accepted => rec.result == "accepted",
        Expect::Rejected => rec.result.starts_with("rejected"),
    };
    if !ok_result {
        failures.push(format!(
            "{name}: result {} but {} was expected",
            rec.result,
            expect.name()
        ));
    }
    if let qemu::TamperedCheck::Failed(t) = tampered {
        failures.push(format!(
            "{name}: the firmware's tampered copy was {t}, not rejected"
        ));
    }
    // The plugin always runs the core's model: a count without cycles is a fault.
    if rec.instructions.is_some() && rec.estimate.is_none() {
        failures.push(format!(
            "{name}: the plugin printed no cycle estimate (model fields missing)"
        ));
    }
    if expect == Expect::Accepted && !o.exit_ok {
        failures.push(format!("{name}: QEMU exit status {:?}", o.exit_code));
    }
    // A rejection ends with the firmware's exit, not a panic or a timeout.
    if o.stdout.lines().any(|l| l.starts_with("pstk1 panic")) || o.exit_code.is_none() {
        failures.push(format!(
            "{name}: the firmware did not exit cleanly (exit status {:?})\n--- firmware output ---\n{}",
            o.exit_code, o.stdout
        ));
    }
}

/// A run that gave no record (`e`): prints its line; anything but the firmware's own
/// rejection of the envelope, when a rejection is expected, is a failure.
fn report_unparsed(
    name: &str,
    core: Core,
    expect: Expect,
    o: &qemu::Outcome,
    e: &str,
    failures: &mut Vec<String>,
) {
    // An envelope that does not parse gets the firmware's own `error` line (no header, so no
    // run line): for a hostile file that is the rejection.
    let envelope = o
        .stdout
        .lines()
        .find(|l| l.starts_with("pstk1 error what=proof-file"))
        .map(|l| l.split_once("detail=").map_or("", |(_, d)| d).trim());
    match envelope {
        Some(detail) => println!("{name:<40} {:<5} rejected:format ({detail})", core.name()),
        None => println!("{name:<40} {:<5} error: {e}", core.name()),
    }
    // Only the firmware's own envelope rejection counts as rejected: a halt (panic line, no
    // output, a timeout) is a failure whatever was expected (issue 12).
    if expect == Expect::Accepted || envelope.is_none() {
        failures.push(format!(
            "{name}: {e}\n--- firmware output ---\n{}",
            o.stdout
        ));
    } else if o.exit_ok {
        failures.push(format!("{name}: QEMU reported success on a bad proof"));
    }
}

/// Symbolizes the plugin's block profile of one run into a per-function report.
fn write_profile(
    raw: &Path,
    elf: &Path,
    outcome: &qemu::Outcome,
    dest: &Path,
    name: &str,
) -> Result<(), String> {
    let text = std::fs::read_to_string(raw).map_err(|e| format!("{}: {e}", raw.display()))?;
    let bytes = std::fs::read(elf).map_err(|e| format!("{}: {e}", elf.display()))?;
    let parsed = elf::Elf::parse(&bytes).map_err(|e| e.to_string())?;
    let rows = profile::by_function(&text, &parsed)?;
    let exact: u64 = outcome.regions.iter().map(|r| r.insns).sum();
    let header = format!(
        "{name}: instructions by function, all measured regions \
         (genuine iterations and the tampered one)"
    );
    let report = profile::render(&rows, exact, &header);
    std::fs::write(dest, &report).map_err(|e| format!("{}: {e}", dest.display()))?;
    let _ = std::fs::remove_file(raw);
    // The first genuine iteration alone (the plugin's `FILE.region0`): the verification the
    // record's instruction count describes, without the others and the tampered copy.
    for (i, region) in outcome.regions.iter().enumerate() {
        let file = profile::region_file(raw, i);
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        let _ = std::fs::remove_file(&file);
        if i != 0 {
            continue;
        }
        let rows = profile::by_function(&text, &parsed)?;
        let header = format!("{name}: instructions by function, the first genuine iteration");
        let one = dest.with_extension("iteration1.txt");
        std::fs::write(&one, profile::render(&rows, region.insns, &header))
            .map_err(|e| format!("{}: {e}", one.display()))?;
        println!("first iteration's profile written to {}", one.display());
        // The model's XIP miss cycles of the same iteration by function, named as the
        // instruction profile names them: `*.iteration1.misses.txt`.
        if let Some(e) = &region.estimate {
            let rows = profile::misses_by_function(&text, &parsed)?;
            let header =
                format!("{name}: XIP miss cycles by function (model), the first genuine iteration");
            let misses = dest.with_extension("iteration1.misses.txt");
            std::fs::write(&misses, profile::render(&rows, e.xip_miss_cycles, &header))
                .map_err(|e| format!("{}: {e}", misses.display()))?;
        }
    }
    for line in report.lines().take(22) {
        println!("{line}");
    }
    println!("profile written to {}", dest.display());
    Ok(())
}

/// The run whose estimate is the median over the [`qemu::LAYOUT_SAMPLES`] placements of the
/// code the board layout cannot place (`first` is placement 0, `run(k)` runs placement `k`);
/// prints the spread.
fn median_placement(
    first: qemu::Outcome,
    core: Core,
    alloc: &str,
    meta: &record::BuildMeta,
    mut run: impl FnMut(u32) -> Result<qemu::Outcome, String>,
) -> Result<qemu::Outcome, String> {
    let cycles = |o: &qemu::Outcome| -> Result<u64, String> {
        record::build(o, core, alloc, meta)?
            .estimate
            .map(|e| e.cycles)
            .ok_or_else(|| "--layout-elf: the run has no estimate".to_string())
    };
    let mut all = vec![(cycles(&first)?, first)];
    for k in 1..qemu::LAYOUT_SAMPLES {
        let o = run(k)?;
        all.push((cycles(&o)?, o));
    }
    all.sort_by_key(|(c, _)| *c);
    let spread: Vec<String> = all.iter().map(|(c, _)| c.to_string()).collect();
    eprintln!(
        "mcu-run: estimated cycles over {} placements of the code the board layout cannot place: {}",
        all.len(),
        spread.join(" ")
    );
    Ok(all.swap_remove(all.len() / 2).1)
}

/// Whether a build's features link its code and read-only data to SRAM (`code-in-ram`, or
/// `code-in-ram-membership`, the same link with the membership AIR kept).
fn code_in_sram(features: &[String]) -> bool {
    features
        .iter()
        .any(|f| f == "code-in-ram" || f == "code-in-ram-membership")
}

/// The record's code placement: `all-sram` for both `code-in-ram` builds (a
/// `code-in-ram-membership` run was recorded `xip` before), else by the placement feature.
fn placement(features: &[String]) -> &'static str {
    let placed = |f: &str| features.iter().any(|x| x == f);
    match () {
        _ if code_in_sram(features) => "all-sram",
        _ if placed("place-hot-sram") => "hot-sram",
        _ if placed("place-xip-ordered") => "xip-ordered",
        _ => "xip",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placement_names_both_code_in_ram_builds_all_sram() {
        let f = |list: &[&str]| placement(&list.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(
            f(&["p3-goldilocks", "code-in-ram-membership", "lean-only"]),
            "all-sram"
        );
        assert_eq!(f(&["wf-goldilocks", "code-in-ram"]), "all-sram");
        assert_eq!(f(&["p3-goldilocks", "place-hot-sram"]), "hot-sram");
        assert_eq!(f(&["p3-goldilocks"]), "xip");
    }

    #[test]
    fn both_code_in_ram_features_place_code_in_sram() {
        let f =
            |list: &[&str]| code_in_sram(&list.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert!(f(&["p3-babybear", "code-in-ram", "lean-only"]));
        assert!(f(&["p3-babybear", "code-in-ram-membership", "lean-only"]));
        assert!(!f(&["p3-babybear", "lean-only"]));
        assert!(!f(&["code-in-ram-x"]));
    }
}

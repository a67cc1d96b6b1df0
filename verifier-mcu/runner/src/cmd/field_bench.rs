//! `mcu-run field-bench`: the field micro-benchmark (firmware feature `field-bench`) run
//! under QEMU with the timing model, turned into a record by `field_bench.rs`.

use std::path::PathBuf;

use clap::ValueEnum;

use crate::field_bench::{
    figures, implementation_name, model_of, parse, to_record, Figure, Provenance,
};
use crate::paths::repo_root;
use crate::qemu::{self, Core, Isa};
use crate::record;

/// Measure field arithmetic per operation on one core (firmware feature `field-bench`).
///
/// Runs the firmware twice under QEMU with the timing model, requires identical counts, and
/// writes `--out DIR/field-bench.CORE.json` (`field-bench.CORE.xip.json` with
/// `--placement xip`): instructions and estimated cycles per operation of every case.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The emulated core.
    #[arg(long)]
    pub core: Core,
    /// The RV32 instruction set (with `--core rv32`) [default: rp2350].
    #[arg(long)]
    pub isa: Option<Isa>,
    /// Where code and read-only data run from.
    #[arg(long, value_enum, default_value_t = Placement::Sram)]
    pub placement: Placement,
    /// The record's folder [default: out/field-bench].
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Run this firmware instead of building it.
    #[arg(long, value_name = "ELF")]
    pub elf: Option<PathBuf>,
    /// Seconds before a run is stopped.
    #[arg(long, value_name = "S", default_value_t = 600)]
    pub timeout: u64,
}

/// `--placement`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Placement {
    /// Code and read-only data in SRAM (firmware feature code-in-ram): no XIP cache misses.
    Sram,
    /// Code in flash behind the XIP cache, for investigation only (the k and 2k windows need
    /// not start from one cache state).
    Xip,
}

/// `invocation`: the command line after `field-bench`, written into the record.
pub fn run(args: Args, invocation: &[String]) -> Result<(), String> {
    let core = args.core;
    let isa = args.isa.unwrap_or(Isa::Rp2350);
    // Code in SRAM (default): no XIP cache misses, so the two windows' difference is the
    // operations' own cycles; `xip`: code in flash behind the cache, as most images run, for
    // investigation only: the k and 2k windows need not start from one cache state (a
    // warm-up window does not guarantee it), so a per-operation figure can be off by the
    // difference of their misses (the record's `xip_miss_cycles_per_op`, even negative).
    let (features, suffix, placement) = match args.placement {
        Placement::Sram => (
            vec!["field-bench".to_string(), "code-in-ram".to_string()],
            "",
            "sram: code and read-only data in SRAM (firmware feature code-in-ram)",
        ),
        Placement::Xip => (
            vec!["field-bench".to_string()],
            ".xip",
            "xip: code and read-only data in flash behind the XIP cache",
        ),
    };
    if core == Core::M33 && args.isa.is_some() {
        return Err("--isa chooses the RV32 instruction set: use it with --core rv32".into());
    }
    let out = args
        .out
        .unwrap_or_else(|| repo_root().join("out/field-bench"));
    let timeout = args.timeout;
    let elf = match args.elf {
        Some(e) => e,
        None => qemu::build_firmware(core, isa, "tlsf", &features, 256 * 1024, 1, None)?,
    };
    let elf_bytes = std::fs::read(&elf).map_err(|e| format!("{}: {e}", elf.display()))?;
    let plugin_path = qemu::build_plugin()?;
    let model = qemu::model_args(core, &elf_bytes, None, None)?;
    let plugin = qemu::Plugin {
        path: &plugin_path,
        markers: qemu::markers(&elf_bytes)?,
        model: &model,
    };
    // Two runs: every count must repeat exactly.
    let first = qemu::run(core, isa, &elf, &plugin, None, timeout, None)?;
    let second = qemu::run(core, isa, &elf, &plugin, None, timeout, None)?;
    if !first.exit_ok {
        return Err(format!("the firmware failed:\n{}", first.stdout));
    }
    if first.regions != second.regions {
        return Err("two runs of the same firmware counted differently".into());
    }
    let (head, lines) = parse(&first.stdout)?;
    if head.core != core.name() {
        return Err(format!("the firmware says core={}", head.core));
    }
    let figures = figures(&head, &lines, &first.regions)?;
    let mut meta = record::BuildMeta::collect();
    let isa_name = match core {
        Core::M33 => "armv8-m.main (thumbv8m.main-none-eabihf)".to_string(),
        Core::Rv32 => {
            meta.profile.push_str(&format!(
                " isa={} target-features={}",
                isa.name(),
                isa.target_features()
            ));
            format!("rv32imac, {}", isa.target_features())
        }
    };
    let provenance = Provenance {
        core: core.name(),
        isa: &isa_name,
        emulator: core.qemu_version()?,
        toolchain: &meta.toolchain,
        profile: &meta.profile,
        git_commit: &meta.git_commit,
        command: format!("mcu-run field-bench {}", invocation.join(" ")),
        model: model_of(&first.regions)?,
        placement,
    };
    let rec = to_record(&head, &figures, &provenance);
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let path = out.join(format!("field-bench.{}{suffix}.json", core.name()));
    let text = serde_json::to_string_pretty(&rec).map_err(|e| e.to_string())? + "\n";
    std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    print_table(&figures);
    println!("wrote {}", path.display());
    Ok(())
}

/// The figures per operation, one line per case (the loop line first).
fn print_table(figures: &[Figure]) {
    println!(
        "{:<24} {:<11} {:>6} {:<10} {:<8} {:>12} {:>12}",
        "implementation", "field", "degree", "algorithm", "op", "instr/op", "est_cyc/op"
    );
    for fig in figures {
        let l = &fig.line;
        println!(
            "{:<24} {:<11} {:>6} {:<10} {:<8} {:>12.2} {:>12.2}",
            if l.case.is_none() {
                "(loop iteration)"
            } else {
                implementation_name(&l.implementation)
            },
            l.field,
            l.degree,
            l.algorithm,
            l.op,
            fig.instructions,
            fig.cycles
        );
    }
}

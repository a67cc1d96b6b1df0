//! `mcu-run uf2`: an ELF's load segments as an RP2350 UF2 file (`uf2.rs`).

use std::path::PathBuf;

use crate::image_check::Family;
use crate::{elf, uf2};

/// Write an ELF's load segments as a UF2 file for the RP2350's boot ROM.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The firmware image.
    #[arg(value_name = "ELF")]
    pub elf: PathBuf,
    /// The UF2 file to write.
    #[arg(value_name = "OUT.uf2")]
    pub out: PathBuf,
    /// The UF2 family, which must match the ELF's machine [default: the ELF's machine's].
    #[arg(long)]
    pub family: Option<Family>,
}

pub fn run(args: Args) -> Result<(), String> {
    let (elf_path, out) = (args.elf.display(), args.out.display());
    let bytes = std::fs::read(&args.elf).map_err(|e| format!("{elf_path}: {e}"))?;
    let e = elf::Elf::parse(&bytes).map_err(|e| e.to_string())?;
    let family = match args.family {
        Some(f) => f.uf2_family(),
        None if e.machine == elf::EM_ARM => uf2::FAMILY_RP2350_ARM_S,
        None if e.machine == elf::EM_RISCV => uf2::FAMILY_RP2350_RISCV,
        None => return Err("--family rp2350-arm|rp2350-riscv".into()),
    };
    let expected_machine = if family == uf2::FAMILY_RP2350_ARM_S {
        elf::EM_ARM
    } else {
        elf::EM_RISCV
    };
    if e.machine != expected_machine {
        return Err(format!(
            "{elf_path} is for machine {}, not for the chosen family",
            e.machine
        ));
    }
    let segs = e.load_segments().map_err(|e| e.to_string())?;
    let data = uf2::write(&segs, family)?;
    std::fs::write(&args.out, &data).map_err(|e| format!("{out}: {e}"))?;
    println!("{out}: {} blocks, family {family:#010x}", data.len() / 512);
    Ok(())
}

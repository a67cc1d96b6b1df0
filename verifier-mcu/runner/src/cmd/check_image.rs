//! `mcu-run check-image`: the RP2350 image checks of `image_check.rs`.

use std::path::PathBuf;

use crate::image_check::{self, Family};

/// Check an RP2350 image (and its UF2) the way the boot ROM will read it; fails when any
/// check fails.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The firmware image.
    #[arg(value_name = "ELF")]
    pub elf: PathBuf,
    /// The UF2 file written from it (`mcu-run uf2`), checked against it.
    #[arg(value_name = "UF2")]
    pub uf2: Option<PathBuf>,
    /// The core the image is for.
    #[arg(long)]
    pub family: Family,
}

pub fn run(args: Args) -> Result<(), String> {
    let elf_path = args.elf.display();
    let elf = std::fs::read(&args.elf).map_err(|e| format!("{elf_path}: {e}"))?;
    let uf2 = match &args.uf2 {
        Some(p) => Some(std::fs::read(p).map_err(|e| format!("{}: {e}", p.display()))?),
        None => None,
    };
    let report = image_check::check(&elf, uf2.as_deref(), args.family);
    let what = match &args.uf2 {
        Some(u) => format!("{elf_path} + {}", u.display()),
        None => elf_path.to_string(),
    };
    print!("{report}");
    if report.ok() {
        println!("check-image: {what}: ok");
        Ok(())
    } else {
        Err(format!(
            "check-image: {what}: {} check(s) failed",
            report.failures.len()
        ))
    }
}

//! `mcu-run bringup-proof`: a harness bring-up file (not a STARK) for the firmware's
//! `bringup-verifier`.

use std::path::PathBuf;

use picostark_core::BackendId;

use crate::record;

/// Write a bring-up proof file (not a STARK: a payload ending in its own FNV-1a checksum,
/// accepted by the firmware feature `bringup-verifier`); never a measurement.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The file to write.
    #[arg(value_name = "OUT")]
    pub out: PathBuf,
    /// The backend the header names.
    #[arg(long, value_name = "NAME", default_value = "p3-babybear")]
    pub backend: String,
    /// Payload bytes.
    #[arg(long, value_name = "N", default_value_t = 4096)]
    pub bytes: u64,
}

pub fn run(args: Args) -> Result<(), String> {
    let backend = BackendId::from_name(&args.backend).ok_or("unknown backend name")?;
    let out = args.out.display();
    std::fs::write(
        &args.out,
        record::bringup_proof(backend, args.bytes as usize),
    )
    .map_err(|e| format!("{out}: {e}"))?;
    println!("{out}: bring-up proof (not a STARK) for {backend}");
    Ok(())
}

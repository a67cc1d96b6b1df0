//! `vdf`: the example AIR end to end on the host, through the library API
//! (`picostark_registry::prove_air`, `verify_air`, named for this AIR in the crate's `host`).
//!
//! ```text
//! vdf all --log-n 6 --out DIR     prove with every backend, verify each proof on the host,
//!                                 check a tampered copy is rejected; DIR/vdf-<backend>.proof
//! vdf prove --backend B --log-n 6 --out FILE
//! vdf verify FILE
//! ```

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use picostark_core::{BackendId, Policy, ProofFile};
use picostark_example_vdf::host::{prove, refusal, verify};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("vdf: {e}");
            ExitCode::from(2)
        }
    }
}

/// The value after `--name` in `args`.
fn flag<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    let i = args.iter().position(|a| a == name)?;
    args.get(i + 1).map(String::as_str)
}

fn log_n(args: &[String]) -> Result<u8, String> {
    flag(args, "--log-n")
        .unwrap_or("6")
        .parse()
        .map_err(|e| format!("--log-n: {e}"))
}

fn run(args: &[String]) -> Result<ExitCode, String> {
    match args.first().map(String::as_str) {
        Some("all") => {
            let dir = PathBuf::from(flag(args, "--out").ok_or("all needs --out DIR")?);
            std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            let log_n = log_n(args)?;
            for &backend in BackendId::ALL {
                // A backend that cannot prove this AIR says why, and is skipped.
                if let Err(reason) = refusal(backend, log_n) {
                    println!("{:<14} refused: {reason}", backend.name());
                    continue;
                }
                let path = dir.join(format!("vdf-{backend}.proof"));
                prove_and_check(backend, log_n, &path)?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Some("prove") => {
            let name = flag(args, "--backend").ok_or("prove needs --backend")?;
            let backend = BackendId::from_name(name).ok_or(format!("no backend {name}"))?;
            let out = PathBuf::from(flag(args, "--out").ok_or("prove needs --out FILE")?);
            prove_and_check(backend, log_n(args)?, &out)?;
            Ok(ExitCode::SUCCESS)
        }
        Some("verify") => {
            let path = args.get(1).ok_or("verify needs a FILE")?;
            let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
            match verify(&bytes, None, &Policy::default()) {
                Ok(v) => {
                    println!(
                        "accepted: {} {} ({} bits)",
                        v.header.backend, v.header.air, v.security_bits
                    );
                    Ok(ExitCode::SUCCESS)
                }
                Err(e) => {
                    println!("rejected: {e}");
                    Ok(ExitCode::from(1))
                }
            }
        }
        _ => Err("usage: vdf all|prove|verify (see the crate's documentation)".into()),
    }
}

/// Proves with `backend`, verifies on the host, checks a copy with one payload byte flipped
/// is rejected, and writes the proof to `out`.
fn prove_and_check(backend: BackendId, log_n: u8, out: &Path) -> Result<(), String> {
    let bytes = prove(backend, log_n).map_err(|e| format!("{backend}: {e}"))?;
    let policy = Policy::default();
    let verified = verify(&bytes, None, &policy).map_err(|e| format!("{backend}: {e}"))?;
    let file = ProofFile::parse(&bytes).map_err(|e| e.to_string())?;
    let mut tampered = bytes.clone();
    let at = bytes.len() - file.payload.len() / 2;
    tampered[at] ^= 1;
    if verify(&tampered, None, &policy).is_ok() {
        return Err(format!("{backend}: a tampered copy was accepted"));
    }
    std::fs::write(out, &bytes).map_err(|e| format!("{}: {e}", out.display()))?;
    println!(
        "{:<14} {} n = 2^{log_n}: {} bytes, accepted ({} bits), tampered copy rejected -> {}",
        backend.name(),
        verified.header.air,
        bytes.len(),
        verified.security_bits,
        out.display()
    );
    Ok(())
}

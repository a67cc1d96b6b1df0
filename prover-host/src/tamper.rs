//! `prover-host tamper`: from an honest proof, one tampered copy per class of damage (issue
//! 46, `results/constant-time/`), each edited by its backend's own decoder at exactly one
//! place ([`picostark_plonky3::tamper`], [`picostark_winterfell::tamper`]) and checked here
//! to be rejected by the host verifier with the check the edit names.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use picostark_core::tamper::{TamperClass, Tampered};
use picostark_core::{Policy, ProofFile, VerifyError};

use crate::{read_file, usage, verify_timed, UsageError};

#[derive(Args)]
pub struct TamperArgs {
    /// The honest proof file.
    file: PathBuf,
    /// Class of damage (public-input, ood, trace-opening, merkle-sibling, fri-fold,
    /// final-poly, pow-nonce) or `all`.
    #[arg(long, default_value = "all")]
    class: String,
    /// Folder for the copies (`<stem>.<class>.proof`); default: beside the input.
    #[arg(long)]
    out: Option<PathBuf>,
}

/// The tampered copy of `bytes` in `class`, by the proof's backend.
fn tamper(bytes: &[u8], class: TamperClass) -> Result<Tampered, String> {
    let backend = ProofFile::parse(bytes)
        .map_err(|e| e.to_string())?
        .header
        .backend;
    match backend.protocol() {
        "plonky3" => picostark_plonky3::tamper::tamper(bytes, class),
        "winterfell" => picostark_winterfell::tamper::tamper(bytes, class),
        other => Err(format!("no tampering for {other} proofs")),
    }
}

pub fn run(args: &TamperArgs) -> Result<ExitCode, UsageError> {
    let classes: Vec<TamperClass> = if args.class == "all" {
        TamperClass::ALL.to_vec()
    } else {
        match TamperClass::from_name(&args.class) {
            Some(c) => vec![c],
            None => return usage(format!("unknown class '{}'", args.class)),
        }
    };
    let bytes = read_file(&args.file)?;
    let dir = match &args.out {
        Some(d) => d.clone(),
        None => args
            .file
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default(),
    };
    std::fs::create_dir_all(&dir)
        .map_err(|e| UsageError(format!("cannot create {}: {e}", dir.display())))?;
    let stem = args
        .file
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("proof");
    // The policy only gates security bits; the copies are checked for their reason.
    let policy = Policy {
        min_security_bits: 0,
        ..Policy::default()
    };
    let mut all_named = true;
    for class in classes {
        let t = tamper(&bytes, class).map_err(|e| UsageError(format!("{class}: {e}")))?;
        let path = dir.join(format!("{stem}.{class}.proof"));
        std::fs::write(&path, &t.file)
            .map_err(|e| UsageError(format!("cannot write {}: {e}", path.display())))?;
        let verdict = verify_timed(&t.file, &policy).map(|_| ());
        let named = verdict == Err(VerifyError::CheckFailed(t.expected));
        all_named &= named;
        let got = match verdict {
            Ok(()) => "accepted".to_string(),
            Err(e) => format!("rejected:{}", e.kind()),
        };
        println!(
            "{class} expected=rejected:{} host={got} {} {}",
            t.expected.kind(),
            if named { "ok" } else { "MISMATCH" },
            path.display()
        );
    }
    Ok(if all_named {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

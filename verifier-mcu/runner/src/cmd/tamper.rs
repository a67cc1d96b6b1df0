//! `mcu-run tamper`: hostile copies of a valid proof file, each of which every verifier must
//! reject (`verifier-mcu/ci.sh` runs them on both cores).

use std::path::PathBuf;

use clap::builder::PossibleValuesParser;
use picostark_core::{BackendId, ProofFile};

/// Write a hostile copy of a valid proof file, which every verifier must reject.
///
/// `--kind header-sweep` writes one file per swept header value instead, named
/// `OUT.header-FIELD-VALUE.tampered` (OUT is then a prefix).
#[derive(clap::Args, Debug)]
#[command(after_help = "Header sweep:
  mcu-run tamper --kind header-sweep IN PREFIX")]
pub struct Args {
    /// The valid proof file.
    #[arg(value_name = "IN")]
    pub input: PathBuf,
    /// The file to write (with `--kind header-sweep`: the prefix of the files).
    #[arg(value_name = "OUT")]
    pub out: String,
    /// The change to make.
    #[arg(long, default_value = "flip", value_parser = kind_names())]
    pub kind: String,
}

/// `--kind`'s values: [`TAMPER_KINDS`] and `header-sweep`.
fn kind_names() -> PossibleValuesParser {
    PossibleValuesParser::new(TAMPER_KINDS.iter().chain(&["header-sweep"]))
}

pub fn run(args: Args) -> Result<(), String> {
    let (input, out, kind) = (args.input.display(), &args.out, args.kind.as_str());
    let bytes = std::fs::read(&args.input).map_err(|e| format!("{input}: {e}"))?;
    if kind == "header-sweep" {
        // OUT is a prefix: one OUT.header-FIELD-VALUE.tampered per swept value.
        for (name, tampered) in header_sweep(&bytes).map_err(|e| format!("{input}: {e}"))? {
            let path = format!("{out}.{name}.tampered");
            std::fs::write(&path, &tampered).map_err(|e| format!("{path}: {e}"))?;
            println!("{path}: {name}");
        }
        return Ok(());
    }
    let tampered = tamper(&bytes, kind).map_err(|e| format!("{input}: {e}"))?;
    std::fs::write(out, &tampered).map_err(|e| format!("{out}: {e}"))?;
    println!("{out}: {kind}");
    Ok(())
}

/// Byte offset the `tamper` command flips: a third into the payload (the firmware's own
/// tampered copy flips the middle, so the two never cancel out).
pub fn tamper_offset(bytes: &[u8]) -> Result<usize, String> {
    let pf = ProofFile::parse(bytes).map_err(|e| e.to_string())?;
    if pf.payload.is_empty() {
        return Err("empty payload".into());
    }
    Ok(bytes.len() - pf.payload.len() + pf.payload.len() / 3)
}

/// The hostile variants `tamper --kind` writes, each of which every verifier must reject.
pub const TAMPER_KINDS: &[&str] = &[
    "flip",
    "truncate",
    "low-security",
    "wrong-backend",
    "zero-payload",
    "overlong",
    "trailing",
];

/// The payload with its first length field (Plonky3: the trace commitment count, a postcard
/// varint at offset 0; winterfell: the constraint count, a winter-utils vint after the proof
/// context) re-encoded one byte longer, same value: valid to a lenient decoder, refused by
/// ours (one encoding per proof, issue 29).
fn overlong_first_length(backend: BackendId, payload: &[u8]) -> Result<Vec<u8>, String> {
    let at = if backend.protocol() == "plonky3" {
        0
    } else {
        let meta = usize::from(u16::from_le_bytes([
            *payload.get(4).ok_or("short payload")?,
            *payload.get(5).ok_or("short payload")?,
        ]));
        let modulus = usize::from(*payload.get(6 + meta).ok_or("short payload")?);
        6 + meta + 1 + modulus + 10
    };
    let b = *payload.get(at).ok_or("short payload")?;
    let longer: [u8; 2] = if backend.protocol() == "plonky3" {
        if b >= 0x80 {
            return Err("the first length is not one byte".into());
        }
        [b | 0x80, 0x00]
    } else {
        if b & 1 == 0 {
            return Err("the first vint is not one byte".into());
        }
        (u16::from(b >> 1) << 2 | 2).to_le_bytes()
    };
    let mut out = payload[..at].to_vec();
    out.extend_from_slice(&longer);
    out.extend_from_slice(&payload[at + 1..]);
    Ok(out)
}

/// Applies one hostile change to a valid proof file.
pub fn tamper(bytes: &[u8], kind: &str) -> Result<Vec<u8>, String> {
    let pf = ProofFile::parse(bytes).map_err(|e| e.to_string())?;
    let payload_at = bytes.len() - pf.payload.len();
    let mut out = bytes.to_vec();
    match kind {
        "flip" => out[tamper_offset(bytes)?] ^= 0x10,
        // Cut inside the payload: the envelope's length no longer matches.
        "truncate" => out.truncate(payload_at + pf.payload.len() / 2),
        // 8 queries: far below the 95-bit policy, refused before any heavy work.
        "low-security" => out[14..16].copy_from_slice(&8u16.to_le_bytes()),
        // Another backend (over the same field where there is one), with the field byte
        // made to match, so the envelope parses and the other verifier gets the payload.
        "wrong-backend" => {
            let others = BackendId::ALL.iter().filter(|b| **b != pf.header.backend);
            let other = others
                .clone()
                .find(|b| b.field() == pf.header.backend.field())
                .or_else(|| others.clone().next())
                .ok_or("no other backend")?;
            out[6] = *other as u8;
            out[7] = other.field() as u8;
        }
        "zero-payload" => out[payload_at..].fill(0),
        // The envelope re-encoded around a changed payload (its length field follows).
        "overlong" | "trailing" => {
            let mut payload = if kind == "overlong" {
                overlong_first_length(pf.header.backend, pf.payload)?
            } else {
                pf.payload.to_vec()
            };
            if kind == "trailing" {
                payload.push(0);
            }
            let public: Vec<u64> = pf.public_inputs.iter().collect();
            out = picostark_core::proof_file::encode(&pf.header, &public, &payload);
        }
        _ => {
            return Err(format!(
                "unknown tamper kind {kind} (known: {})",
                TAMPER_KINDS.join(", ")
            ))
        }
    }
    Ok(out)
}

/// The sampled header sweep `tamper --kind header-sweep` writes, as `(field, offset, value)`
/// (little-endian, queries two bytes): values inside the envelope's own ranges, so they reach
/// the backend, and beyond what its verifier or a library it calls can take on a 32-bit MCU
/// (proof-of-work bits past one challenger draw, LDE domains past 2^31, more queries or
/// longer final polynomials than winterfell encodes). The host suite sweeps every value
/// (`prover-host/tests/mutation.rs`); these are the ones the MCU's 32-bit `usize` can change.
pub const HEADER_SWEEP: &[(&str, usize, u16)] = &[
    ("ext", 8, 8),
    ("log-n", 11, 24),
    ("log-n", 11, 32),
    ("log-blowup", 12, 8),
    ("log-blowup", 12, 12),
    ("pow", 13, 30),
    ("pow", 13, 31),
    ("pow", 13, 32),
    ("pow", 13, 40),
    ("queries", 14, 512),
    ("fold", 16, 4),
    ("final", 17, 16),
];

/// The [`HEADER_SWEEP`] variants of a proof file that differ from it, each named
/// `header-FIELD-VALUE`.
pub fn header_sweep(bytes: &[u8]) -> Result<Vec<(String, Vec<u8>)>, String> {
    ProofFile::parse(bytes).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    for &(field, at, value) in HEADER_SWEEP {
        let mut t = bytes.to_vec();
        let len = if field == "queries" { 2 } else { 1 };
        t[at..at + len].copy_from_slice(&value.to_le_bytes()[..len]);
        if t != bytes {
            out.push((format!("header-{field}-{value}"), t));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record;

    #[test]
    fn overlong_re_encodes_the_first_length_one_byte_longer() {
        let p3 = [0x01, 0xaa, 0xbb];
        assert_eq!(
            overlong_first_length(BackendId::P3BabyBear, &p3).unwrap(),
            [0x81, 0x00, 0xaa, 0xbb]
        );
        assert!(overlong_first_length(BackendId::P3M31, &[0x81, 0x01]).is_err());
        // winterfell: 4 trace bytes, meta length 0, modulus of 1 byte, 10 option bytes, then
        // the constraint count 2 as a one-byte vint (2 << 1 | 1), then more.
        let mut wf = vec![2, 0, 0, 3, 0, 0, 1, 0xff];
        wf.extend_from_slice(&[0; 10]);
        wf.extend_from_slice(&[0x05, 0xcc]);
        let long = overlong_first_length(BackendId::WfGoldilocks, &wf).unwrap();
        assert_eq!(long[..18], wf[..18]);
        // Two bytes, length tag `..10` (two bytes), value 2: 2 << 2 | 2 = 0x0a.
        assert_eq!(long[18..], [0x0a, 0x00, 0xcc]);
        // A file with it parses, with the payload one byte longer.
        let file = record::bringup_proof(BackendId::P3BabyBear, 300);
        let pf = ProofFile::parse(&file).unwrap();
        let mut real = pf.payload.to_vec();
        real[0] = 0x01;
        let public: Vec<u64> = pf.public_inputs.iter().collect();
        let file = picostark_core::proof_file::encode(&pf.header, &public, &real);
        let t = tamper(&file, "overlong").unwrap();
        assert_eq!(ProofFile::parse(&t).unwrap().payload.len(), real.len() + 1);
    }

    #[test]
    fn tamper_offset_is_inside_the_payload_and_not_the_middle() {
        let bytes = record::bringup_proof(BackendId::WfGoldilocks, 300);
        let pf = ProofFile::parse(&bytes).unwrap();
        let start = bytes.len() - pf.payload.len();
        let at = tamper_offset(&bytes).unwrap();
        assert!(at >= start && at < bytes.len());
        assert_ne!(at, start + pf.payload.len() / 2);
        assert!(tamper_offset(b"PSTK").is_err());
    }

    #[test]
    fn every_tamper_kind_changes_the_file_and_unknown_kinds_are_errors() {
        let bytes = record::bringup_proof(BackendId::WfGoldilocks, 300);
        // `overlong` needs a real first length field (tested below); the payload is random.
        for kind in TAMPER_KINDS.iter().filter(|k| **k != "overlong") {
            let t = tamper(&bytes, kind).unwrap();
            assert_ne!(t, bytes, "{kind}");
        }
        let low = tamper(&bytes, "low-security").unwrap();
        let h = ProofFile::parse(&low).unwrap().header;
        assert!(picostark_core::Policy::default()
            .check(&h, picostark_airs::shape_of(&h).unwrap())
            .is_err());
        let wrong = tamper(&bytes, "wrong-backend").unwrap();
        assert_eq!(
            ProofFile::parse(&wrong).unwrap().header.backend,
            BackendId::P3Goldilocks
        );
        assert!(tamper(&bytes, "nope").is_err());
    }

    #[test]
    fn header_sweep_values_parse_and_differ_from_the_proof() {
        let bytes = record::bringup_proof(BackendId::WfGoldilocks, 300);
        let swept = header_sweep(&bytes).unwrap();
        assert!(!swept.is_empty() && swept.len() <= HEADER_SWEEP.len());
        for (name, t) in &swept {
            assert_ne!(t, &bytes, "{name}");
            assert_eq!(t.len(), bytes.len(), "{name}");
            // Inside the envelope's ranges: the backend, not the parser, must refuse it.
            assert!(ProofFile::parse(t).is_ok(), "{name}");
        }
        assert!(header_sweep(b"PSTK").is_err());
    }
}

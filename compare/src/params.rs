//! A proof's FRI parameters in the report: from proof file headers when the proofs are at
//! hand (`compare all`, `compare report --proofs`; the security of each proof is then
//! recomputed under every regime, `picostark_core::security`, so a record that states another
//! number shows up), else from the record's file name as the documented commands write it
//! (`-b8-q10-f4-l6`: log blowup, queries, log folding arity, log final length, and `-w24`
//! proof-of-work bits; `proven100`:
//! prover-host's preset), else the backend's defaults (`default_params` of each prover).
//!
//! Run records do not carry their proof's parameters (`RunRecord` has no such field), so
//! without the proof files the last two are all there is.

use std::path::{Path, PathBuf};

use picostark_core::{Figures, Policy, ProofFile, ProofHeader, ProofParams};

/// A proof file's header, size and every regime's bits recomputed from the header (and the
/// default policy's figure among them).
#[derive(Clone, Debug, PartialEq)]
pub struct ParamRow {
    pub file: String,
    pub header: ProofHeader,
    pub bytes: u64,
    pub figures: Figures,
    pub security_bits: u32,
}

/// The header of every parameters cell: what [`compact`] writes, in order.
pub const PARAMS_HEAD: &str = "blowup / queries / fold / final / PoW";

/// `2^6 / 14 / 2^4 / 2^2 / 20`: log blowup, queries, folding arity, final length, PoW bits.
pub fn compact(p: &ProofParams) -> String {
    let (b, q, w) = (p.log_blowup, p.num_queries, p.pow_bits);
    let (f, l) = (p.log_fold_arity, p.log_final_poly_len);
    format!("2^{b} / {q} / 2^{f} / 2^{l} / {w}")
}

/// Each backend's `default_params` (backends/winterfell/src/prover.rs `DEFAULT_PARAMS`,
/// backends/plonky3/src/config.rs `DEFAULT_PARAMS_TWO_ADIC` / `_CIRCLE`) and prover-host's
/// `proven100` preset (prover-host/src/main.rs `preset`), as `blowup queries PoW fold final`.
fn defaults(backend: &str, proven100: bool) -> [u16; 5] {
    match (backend, proven100) {
        ("wf-goldilocks", true) => [7, 23, 20, 3, 5],
        ("wf-babybear", true) => [6, 27, 24, 3, 5],
        ("p3-babybear", true) => [7, 22, 24, 4, 2],
        ("p3-goldilocks", true) => [8, 20, 24, 4, 2],
        ("p3-m31", true) => [8, 20, 24, 1, 0],
        ("p3-m31", false) => [6, 14, 20, 1, 0],
        (b, _) if b.starts_with("wf-") => [6, 14, 20, 3, 5],
        _ => [6, 14, 20, 4, 2],
    }
}

/// The parameters of a record's proof, from its file name `origin` (see the module doc).
pub fn of_record(backend: &str, origin: &str) -> ProofParams {
    let name = origin.rsplit('/').next().unwrap_or(origin);
    let stem = name.split(".proof").next().unwrap_or(name);
    let mut v = defaults(backend, stem.contains("proven100"));
    for t in stem.split('-') {
        let (Some(c), Ok(x)) = (t.chars().next(), t.get(1..).unwrap_or("").parse::<u16>()) else {
            continue;
        };
        let at = "bqwfl".find(c);
        at.into_iter().for_each(|i| v[i] = x);
    }
    let [log_blowup, num_queries, pow_bits, log_fold_arity, log_final_poly_len] = v;
    let (log_blowup, pow_bits) = (log_blowup as u8, pow_bits as u8);
    let (log_fold_arity, log_final_poly_len) = (log_fold_arity as u8, log_final_poly_len as u8);
    ProofParams {
        log_blowup,
        num_queries,
        pow_bits,
        log_fold_arity,
        log_final_poly_len,
    }
}

/// One proof file's parameters.
pub fn param_row(file: &str, bytes: &[u8]) -> Result<ParamRow, String> {
    let parsed = ProofFile::parse(bytes).map_err(|e| format!("{file}: {e}"))?;
    let header = parsed.header;
    let figures = Figures::of(&header);
    let security_bits = figures.get(Policy::default().regime);
    let (file, bytes) = (file.to_string(), bytes.len() as u64);
    Ok(ParamRow {
        file,
        header,
        bytes,
        figures,
        security_bits,
    })
}

/// The `*.proof` files in `dir` (not recursive), in name order.
pub fn proof_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let paths = std::fs::read_dir(dir)?.filter_map(|e| Some(e.ok()?.path()));
    let mut files: Vec<PathBuf> = paths
        .filter(|p| p.extension().is_some_and(|e| e == "proof"))
        .collect();
    files.sort();
    Ok(files)
}

/// Every proof file's parameters in `dir` ([`proof_files`]), and what could not be read.
pub fn read_dir(dir: &Path) -> (Vec<ParamRow>, Vec<String>) {
    let (mut rows, mut warnings) = (Vec::new(), Vec::new());
    let files = proof_files(dir).map_err(|e| warnings.push(format!("{}: {e}", dir.display())));
    for p in files.unwrap_or_default() {
        let name = p.file_name().unwrap_or_default().to_string_lossy();
        let read = std::fs::read(&p).map_err(|e| format!("{}: {e}", p.display()));
        match read.and_then(|b| param_row(&name, &b)) {
            Ok(r) => rows.push(r),
            Err(e) => warnings.push(e),
        }
    }
    (rows, warnings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use picostark_core::proof_file::encode;
    use picostark_core::{AirId, BackendId, FieldId, HashId};

    #[test]
    fn recomputes_security_from_the_header() {
        let params = of_record("p3-m31", "x");
        let params = ProofParams {
            log_blowup: 3,
            num_queries: 27,
            pow_bits: 16,
            ..params
        };
        let (backend, field, hash, air) = (
            BackendId::P3M31,
            FieldId::Mersenne31,
            HashId::Blake3_256,
            AirId::Fibonacci,
        );
        let header = ProofHeader {
            backend,
            field,
            extension_degree: 3,
            hash,
            air,
            log_n: 16,
            params,
        };
        let bytes = encode(&header, &[5], &[1, 2, 3]);
        let r = param_row("x.proof", &bytes).unwrap();
        // floor(3 * 30.999) - (16 + 3) - 1 = 72: the field term binds for M31^3.
        assert_eq!(r.figures.ethstark, 72);
        // The row's figure is the default policy's (the strictest of the conjectures).
        let conjectured = [r.figures.ethstark, r.figures.winterfell, r.figures.plonky3];
        assert_eq!(r.security_bits, conjectured.into_iter().min().unwrap());
        assert_eq!((r.header.n(), r.bytes), (65536, bytes.len() as u64));
        assert!(param_row("bad", b"nope").is_err());
    }

    #[test]
    fn parameters_from_record_names() {
        let cases = [
            (
                "wf-goldilocks",
                "x/wf-goldilocks-fib-n1024.proof.m33.tlsf.json",
                "2^6 / 14 / 2^3 / 2^5 / 20",
            ),
            (
                "p3-babybear",
                "best/p3-babybear-b8-q10-f4-l6.proof.m33.tlsf.json",
                "2^8 / 10 / 2^4 / 2^6 / 20",
            ),
            (
                "p3-m31",
                "p3-m31-fib-n1024-wide-f4-l3.proof.rv32.tlsf.json",
                "2^6 / 14 / 2^4 / 2^3 / 20",
            ),
            (
                "p3-goldilocks",
                "p3-goldilocks-membership-128-b8-q13-w24-f4-l3.proof.m33.tlsf.json",
                "2^8 / 13 / 2^4 / 2^3 / 24",
            ),
            (
                "wf-goldilocks",
                "wf-goldilocks-membership-sha256.proof.m33.tlsf.json",
                "2^6 / 14 / 2^3 / 2^5 / 20",
            ),
            (
                "p3-m31",
                "p3-m31-fib-1024-proven100.host.json",
                "2^8 / 20 / 2^1 / 2^0 / 24",
            ),
        ];
        for (backend, origin, want) in cases {
            assert_eq!(compact(&of_record(backend, origin)), want, "{origin}");
        }
    }
}

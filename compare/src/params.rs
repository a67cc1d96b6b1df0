//! Proof files' parameters: the header of each proof file at hand (`compare all`, `compare
//! report --proofs`) with the security of each proof recomputed under every regime
//! (`picostark_core::security`), so a record that states another number shows up; and the
//! compact form every row shows its record's parameters in (`RunRecord.params`, the proof
//! header's, written by the record's writer).

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
        let params = ProofParams {
            log_blowup: 3,
            num_queries: 27,
            pow_bits: 16,
            log_fold_arity: 1,
            log_final_poly_len: 0,
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
}

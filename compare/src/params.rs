//! Reading proof files' headers for the parameters table: the security of each proof is
//! recomputed here under every regime (`picostark_core::security`), so a record that states
//! another number for the default policy's regime shows up.

use std::path::Path;

use picostark_core::{Figures, Policy, ProofFile};

use crate::render::ParamRow;

/// One proof file's parameters.
pub fn param_row(name: &str, bytes: &[u8]) -> Result<ParamRow, String> {
    let f = ProofFile::parse(bytes).map_err(|e| format!("{name}: {e}"))?;
    let h = f.header;
    Ok(ParamRow {
        file: name.to_string(),
        backend: h.backend.name().to_string(),
        extension: h.extension_degree,
        n: h.n(),
        params: h.params.to_string(),
        bytes: bytes.len() as u64,
        figures: Figures::of(&h),
        security_bits: Figures::of(&h).get(Policy::default().regime),
    })
}

/// Every `*.proof` in `dir` (not recursive), in name order.
pub fn read_dir(dir: &Path) -> (Vec<ParamRow>, Vec<String>) {
    let mut rows = Vec::new();
    let mut warnings = Vec::new();
    let mut files: Vec<_> = match std::fs::read_dir(dir) {
        Ok(rd) => rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "proof"))
            .collect(),
        Err(e) => {
            warnings.push(format!("{}: {e}", dir.display()));
            return (rows, warnings);
        }
    };
    files.sort();
    for p in files {
        let name = p
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        match std::fs::read(&p) {
            Ok(b) => match param_row(&name, &b) {
                Ok(r) => rows.push(r),
                Err(e) => warnings.push(e),
            },
            Err(e) => warnings.push(format!("{}: {e}", p.display())),
        }
    }
    (rows, warnings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use picostark_core::proof_file::encode;
    use picostark_core::{AirId, BackendId, FieldId, HashId, ProofHeader, ProofParams};

    #[test]
    fn recomputes_security_from_the_header() {
        let header = ProofHeader {
            backend: BackendId::P3M31,
            field: FieldId::Mersenne31,
            extension_degree: 3,
            hash: HashId::Blake3_256,
            air: AirId::Fibonacci,
            log_n: 16,
            params: ProofParams {
                log_blowup: 3,
                num_queries: 27,
                pow_bits: 16,
                log_fold_arity: 1,
                log_final_poly_len: 0,
            },
        };
        let bytes = encode(&header, &[5], &[1, 2, 3]);
        let r = param_row("x.proof", &bytes).unwrap();
        // floor(3 * 30.999) - (16 + 3) - 1 = 72: the field term binds for M31^3.
        assert_eq!(r.figures.ethstark, 72);
        // The row's figure is the default policy's (the strictest of the conjectures).
        let conjectured = [r.figures.ethstark, r.figures.winterfell, r.figures.plonky3];
        assert_eq!(r.security_bits, conjectured.into_iter().min().unwrap());
        assert_eq!(r.n, 65536);
        assert_eq!(r.bytes, bytes.len() as u64);
        assert!(param_row("bad", b"nope").is_err());
    }
}

//! A proof's FRI parameters in the report: from proof file headers when the proofs are at
//! hand (`compare all`, `compare report --proofs`; the security of each proof is then
//! recomputed under every regime, `picostark_core::security`, so a record that states another
//! number shows up), else from the record's file name as the documented commands write it
//! (`-b8-q10-f4-l6`: log blowup, queries, log folding arity, log final length; `proven100`:
//! prover-host's preset), else the backend's defaults (`default_params` of each prover).

use std::path::{Path, PathBuf};

use picostark_core::{Figures, Policy, ProofFile, ProofParams};

/// A proof file's parameters, for the parameters table.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamRow {
    pub file: String,
    pub backend: String,
    pub extension: u8,
    pub n: u64,
    pub params: ProofParams,
    pub bytes: u64,
    /// Every regime's bits, recomputed here from the header.
    pub figures: Figures,
    /// The default policy's regime's figure.
    pub security_bits: u32,
}

/// The header of every parameters cell: what [`compact`] writes, in order.
pub const PARAMS_HEAD: &str = "blowup / queries / fold / final / PoW";

/// `2^6 / 14 / 2^4 / 2^2 / 20`: log blowup, queries, folding arity, final length, PoW bits.
pub fn compact(p: &ProofParams) -> String {
    format!(
        "2^{} / {} / 2^{} / 2^{} / {}",
        p.log_blowup, p.num_queries, p.log_fold_arity, p.log_final_poly_len, p.pow_bits
    )
}

const fn params(log_blowup: u8, num_queries: u16, pow_bits: u8, fold: u8, last: u8) -> ProofParams {
    ProofParams {
        log_blowup,
        num_queries,
        pow_bits,
        log_fold_arity: fold,
        log_final_poly_len: last,
    }
}

/// Each backend's `default_params` (backends/winterfell/src/prover.rs `DEFAULT_PARAMS`,
/// backends/plonky3/src/config.rs `DEFAULT_PARAMS_TWO_ADIC` / `_CIRCLE`) and prover-host's
/// `proven100` preset (prover-host/src/main.rs `preset`). A proof file's header, when given,
/// replaces what is derived from these.
fn defaults(backend: &str, proven100: bool) -> ProofParams {
    match (backend, proven100) {
        ("wf-goldilocks", true) => params(7, 23, 20, 3, 5),
        ("wf-babybear", true) => params(6, 27, 24, 3, 5),
        ("p3-babybear", true) => params(7, 22, 24, 4, 2),
        ("p3-goldilocks", true) => params(8, 20, 24, 4, 2),
        ("p3-m31", true) => params(8, 20, 24, 1, 0),
        ("p3-m31", false) => params(6, 14, 20, 1, 0),
        (b, _) if b.starts_with("wf-") => params(6, 14, 20, 3, 5),
        _ => params(6, 14, 20, 4, 2),
    }
}

/// The parameters of a record's proof, from its file name `origin` (see the module doc).
pub fn of_record(backend: &str, origin: &str) -> ProofParams {
    let name = origin.rsplit('/').next().unwrap_or(origin);
    let stem = name.split(".proof").next().unwrap_or(name);
    let mut p = defaults(backend, stem.contains("proven100"));
    for t in stem.split('-') {
        let (Some(c), Ok(v)) = (t.chars().next(), t.get(1..).unwrap_or("").parse::<u16>()) else {
            continue;
        };
        match c {
            'b' => p.log_blowup = v as u8,
            'q' => p.num_queries = v,
            'f' => p.log_fold_arity = v as u8,
            'l' => p.log_final_poly_len = v as u8,
            _ => {}
        }
    }
    p
}

/// One proof file's parameters.
pub fn param_row(name: &str, bytes: &[u8]) -> Result<ParamRow, String> {
    let f = ProofFile::parse(bytes).map_err(|e| format!("{name}: {e}"))?;
    let h = f.header;
    Ok(ParamRow {
        file: name.to_string(),
        backend: h.backend.name().to_string(),
        extension: h.extension_degree,
        n: h.n(),
        params: h.params,
        bytes: bytes.len() as u64,
        figures: Figures::of(&h),
        security_bits: Figures::of(&h).get(Policy::default().regime),
    })
}

/// The `*.proof` files in `dir` (not recursive), in name order.
pub fn proof_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "proof"))
        .collect();
    files.sort();
    Ok(files)
}

/// Every proof file's parameters in `dir` ([`proof_files`]), and what could not be read.
pub fn read_dir(dir: &Path) -> (Vec<ParamRow>, Vec<String>) {
    let (mut rows, mut warnings) = (Vec::new(), Vec::new());
    let files = proof_files(dir).unwrap_or_else(|e| {
        warnings.push(format!("{}: {e}", dir.display()));
        Vec::new()
    });
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

    #[test]
    fn parameters_from_record_names() {
        let p = |b: &str, o: &str| compact(&of_record(b, o));
        assert_eq!(
            p(
                "wf-goldilocks",
                "x/wf-goldilocks-fib-n1024.proof.m33.tlsf.json"
            ),
            "2^6 / 14 / 2^3 / 2^5 / 20"
        );
        assert_eq!(
            p(
                "p3-babybear",
                "best/p3-babybear-b8-q10-f4-l6.proof.m33.tlsf.json"
            ),
            "2^8 / 10 / 2^4 / 2^6 / 20"
        );
        assert_eq!(
            p("p3-m31", "p3-m31-fib-n1024-wide-f4-l3.proof.rv32.tlsf.json"),
            "2^6 / 14 / 2^4 / 2^3 / 20"
        );
        assert_eq!(
            p("p3-m31", "p3-m31-fib-1024-proven100.host.json"),
            "2^8 / 20 / 2^1 / 2^0 / 24"
        );
    }
}

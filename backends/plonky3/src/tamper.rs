//! Tampered copies of an honest proof, one per [`TamperClass`] (issue 46): the payload is
//! decoded as upstream's `Proof`, one value is changed in its self-describing (JSON) form,
//! where every field has its name, and the proof is encoded again, so every byte not edited
//! stays the prover's. `tests/lean_reasons.rs` edits proofs the same way; `prover-host
//! tamper` writes these copies for `results/constant-time/`.

extern crate std;

use std::format;
use std::string::{String, ToString};
use std::vec::Vec;

use p3_uni_stark::Proof;
use picostark_core::tamper::{public_input, TamperClass, Tampered};
use picostark_core::{BackendId, Check, CirclePcsKind, ProofFile, Tree};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

use crate::config::{BabyBearConfig, GoldilocksConfig, M31Config, M31WideConfig};

type Qm31 = p3_mersenne_31::QM31;

/// The proof file `bytes` with its payload decoded as `P`, edited by `edit`, encoded again.
pub fn edited<P: Serialize + DeserializeOwned>(
    bytes: &[u8],
    edit: impl FnOnce(&mut Value) -> Result<(), String>,
) -> Result<Vec<u8>, String> {
    let file = ProofFile::parse(bytes).map_err(|e| e.to_string())?;
    let proof: P = postcard::from_bytes(file.payload).map_err(|e| e.to_string())?;
    let mut json = serde_json::to_value(&proof).map_err(|e| e.to_string())?;
    edit(&mut json)?;
    let proof: P = serde_json::from_value(json).map_err(|e| e.to_string())?;
    let payload = postcard::to_allocvec(&proof).map_err(|e| e.to_string())?;
    let public: Vec<u64> = file.public_inputs.iter().collect();
    Ok(picostark_core::proof_file::encode(
        &file.header,
        &public,
        &payload,
    ))
}

/// The JSON value at `pointer` (RFC 6901), or an error naming it.
pub fn at<'a>(json: &'a mut Value, pointer: &str) -> Result<&'a mut Value, String> {
    json.pointer_mut(pointer)
        .ok_or_else(|| format!("no {pointer} in the proof"))
}

/// Changes the first number under `v` (a field element's first coefficient, a digest's first
/// byte) to another valid one: one less, or 1 for a zero.
pub fn bump(v: &mut Value) -> Result<(), String> {
    match v {
        Value::Number(n) => {
            let x = n.as_u64().ok_or("not an unsigned number")?;
            *v = Value::from(if x == 0 { 1 } else { x - 1 });
            Ok(())
        }
        Value::Array(items) => bump(items.first_mut().ok_or("an empty list")?),
        Value::Object(fields) => {
            let first = fields
                .iter_mut()
                .find(|(_, f)| !f.is_null())
                .map(|(_, f)| f)
                .ok_or("an empty object")?;
            bump(first)
        }
        other => Err(format!("nothing to change in {other}")),
    }
}

/// The first query whose rows under `rows` (a list, one entry per query) differ from every
/// other query's: a query whose index no other query drew, so changing its row fails that
/// tree's Merkle path and not the repeated-query check.
pub fn unrepeated_query(json: &Value, rows: &str) -> Result<usize, String> {
    let list = json
        .pointer(rows)
        .and_then(Value::as_array)
        .ok_or_else(|| format!("no {rows} in the proof"))?;
    (0..list.len())
        .find(|&k| (0..list.len()).all(|j| j == k || list[j] != list[k]))
        .ok_or_else(|| "every query is repeated".to_string())
}

/// Where each class is edited in one PCS's proofs (JSON pointers), and what it fails.
struct Places {
    ood: &'static str,
    trace_rows: &'static str,
    /// Below a query's row in `trace_rows`: its first value.
    trace_value: &'static str,
    sibling: &'static str,
    fri_rows: &'static str,
    fri_value: &'static str,
    fri_tree: Tree,
    final_poly: &'static str,
    pow: &'static str,
}

const TWO_ADIC: Places = Places {
    ood: "/opened_values/trace_local/0",
    trace_rows: "/opening_proof/input_openings/0/opened_values",
    trace_value: "/0/0",
    sibling: "/opening_proof/input_openings/0/opening_proof/sibling_hashes/0",
    fri_rows: "/opening_proof/commit_phase_openings/0/sibling_values",
    fri_value: "/0",
    fri_tree: Tree::FriLayer(0),
    final_poly: "/opening_proof/final_poly/0",
    pow: "/opening_proof/query_pow_witness",
};

const CIRCLE: Places = Places {
    ood: "/opened_values/trace_local/0",
    trace_rows: "/opening_proof/fri_proof/input_openings/input_openings/0/opened_values",
    trace_value: "/0/0",
    sibling:
        "/opening_proof/fri_proof/input_openings/input_openings/0/opening_proof/sibling_hashes/0",
    fri_rows: "/opening_proof/fri_proof/commit_phase_openings/0/sibling_values",
    fri_value: "/0",
    fri_tree: Tree::FriLayer(0),
    final_poly: "/opening_proof/fri_proof/final_poly",
    pow: "/opening_proof/fri_proof/pow_witness",
};

const WIDE_CIRCLE: Places = Places {
    ood: "/opened_values/trace_local/0",
    trace_rows: "/opening_proof/input_openings/0/opened_values",
    trace_value: "/0/0",
    sibling: "/opening_proof/input_openings/0/opening_proof/sibling_hashes/0",
    fri_rows: "/opening_proof/layer_openings/0/siblings",
    fri_value: "/0",
    fri_tree: Tree::FriLayer(0),
    final_poly: "/opening_proof/final_poly/0",
    pow: "/opening_proof/pow_witness",
};

/// One class's edit of a proof of type `P` laid out as `places`, and the check it fails. A
/// final polynomial is observed by the transcript before the proof of work, so with proof
/// of work configured its change fails there.
fn tamper_as<P: Serialize + DeserializeOwned>(
    bytes: &[u8],
    class: TamperClass,
    places: &Places,
    pow_bits: u8,
) -> Result<Tampered, String> {
    let (file, expected) = match class {
        TamperClass::PublicInput => return public_input(bytes),
        TamperClass::OodValue => (
            edited::<P>(bytes, |p| bump(at(p, places.ood)?))?,
            Check::OodConstraints,
        ),
        TamperClass::TraceOpening => (
            edited::<P>(bytes, |p| {
                let k = unrepeated_query(p, places.trace_rows)?;
                let path = format!("{}/{k}{}", places.trace_rows, places.trace_value);
                bump(at(p, &path)?)
            })?,
            Check::MerklePath(Tree::Trace),
        ),
        TamperClass::MerkleSibling => (
            edited::<P>(bytes, |p| bump(at(p, places.sibling)?))?,
            Check::MerklePath(Tree::Trace),
        ),
        TamperClass::FriFoldValue => (
            edited::<P>(bytes, |p| {
                let k = unrepeated_query(p, places.fri_rows)?;
                let path = format!("{}/{k}{}", places.fri_rows, places.fri_value);
                bump(at(p, &path)?)
            })?,
            Check::MerklePath(places.fri_tree),
        ),
        TamperClass::FinalPolynomial => (
            edited::<P>(bytes, |p| bump(at(p, places.final_poly)?))?,
            if pow_bits > 0 {
                Check::ProofOfWork
            } else {
                Check::FinalPolynomial
            },
        ),
        TamperClass::PowNonce => {
            if pow_bits == 0 {
                return Err("the proof has no proof of work to tamper with".into());
            }
            (
                edited::<P>(bytes, |p| bump(at(p, places.pow)?))?,
                Check::ProofOfWork,
            )
        }
    };
    Ok(Tampered { file, expected })
}

/// The copy of the Plonky3 proof file `bytes` tampered in `class`, with the check that must
/// reject it; the backends' default challenge fields (BabyBear^4, Goldilocks^2, QM31).
pub fn tamper(bytes: &[u8], class: TamperClass) -> Result<Tampered, String> {
    let file = ProofFile::parse(bytes).map_err(|e| e.to_string())?;
    let h = &file.header;
    let pow = h.params.pow_bits;
    match (h.backend, h.extension_degree, h.circle_pcs()) {
        (BackendId::P3BabyBear, 4, _) => {
            tamper_as::<Proof<BabyBearConfig>>(bytes, class, &TWO_ADIC, pow)
        }
        (BackendId::P3Goldilocks, 2, _) => {
            tamper_as::<Proof<GoldilocksConfig>>(bytes, class, &TWO_ADIC, pow)
        }
        (BackendId::P3M31, 4, Some(CirclePcsKind::Upstream)) => {
            tamper_as::<Proof<M31Config<Qm31>>>(bytes, class, &CIRCLE, pow)
        }
        (BackendId::P3M31, 4, Some(CirclePcsKind::Wide)) => {
            tamper_as::<Proof<M31WideConfig<Qm31>>>(bytes, class, &WIDE_CIRCLE, pow)
        }
        (b, d, _) => Err(format!(
            "no tampering for {b} with a degree-{d} challenge field"
        )),
    }
}

//! Tampered copies of an honest winterfell proof, one per [`TamperClass`] (issue 46): the
//! payload is split with the verifier's own parser ([`RawProof::parse`]) and one value is
//! changed in place, so every other byte stays the prover's. `tests/reasons.rs` tampers the
//! same way; `prover-host tamper` writes these copies for `results/constant-time/`.

use std::format;
use std::string::{String, ToString};

use picostark_core::tamper::{public_input, TamperClass, Tampered};
use picostark_core::{BackendId, Check, FieldId, ProofFile, Tree};

use crate::verifier::parse::RawProof;

/// Where `part` (a slice of `payload`) starts in `payload`.
fn offset_in(payload: &[u8], part: &[u8]) -> usize {
    part.as_ptr() as usize - payload.as_ptr() as usize
}

/// Changes the base-field element of `width` bytes (little-endian, canonical) at `at` to
/// another canonical one: one less, or 1 for a zero.
fn bump_element(bytes: &mut [u8], at: usize, width: usize) {
    let mut word = [0u8; 8];
    word[..width].copy_from_slice(&bytes[at..at + width]);
    let x = u64::from_le_bytes(word);
    let y = if x == 0 { 1 } else { x - 1 };
    bytes[at..at + width].copy_from_slice(&y.to_le_bytes()[..width]);
}

/// The copy of the winterfell proof file `bytes` tampered in `class`, with the check that
/// must reject it.
pub fn tamper(bytes: &[u8], class: TamperClass) -> Result<Tampered, String> {
    let file = ProofFile::parse(bytes).map_err(|e| e.to_string())?;
    if !matches!(
        file.header.backend,
        BackendId::WfGoldilocks | BackendId::WfBabyBear
    ) {
        return Err(format!("{} is not a winterfell proof", file.header.backend));
    }
    if class == TamperClass::PublicInput {
        return public_input(bytes);
    }
    let width = match file.header.field {
        FieldId::Goldilocks => 8,
        _ => 4,
    };
    let payload = file.payload;
    let base = offset_in(bytes, payload);
    let raw = RawProof::parse(payload).map_err(|e| e.to_string())?;
    let mut out = bytes.to_vec();
    let expected = match class {
        TamperClass::PublicInput => unreachable!("handled above"),
        TamperClass::OodValue => {
            // After the frame's row-count byte: the first trace value at z.
            bump_element(
                &mut out,
                base + offset_in(payload, raw.ood_trace) + 1,
                width,
            );
            Check::OodConstraints
        }
        TamperClass::TraceOpening => {
            bump_element(&mut out, base + offset_in(payload, raw.trace_values), width);
            Check::MerklePath(Tree::Trace)
        }
        TamperClass::MerkleSibling => {
            // The opening ends with a digest: its last byte.
            let paths = raw.trace_paths;
            out[base + offset_in(payload, paths) + paths.len() - 1] ^= 0x01;
            Check::MerklePath(Tree::Trace)
        }
        TamperClass::FriFoldValue => {
            let layer = raw.fri_layers[..raw.num_fri_layers]
                .first()
                .ok_or("the proof has no FRI layer")?;
            bump_element(&mut out, base + offset_in(payload, layer.values), width);
            Check::MerklePath(Tree::FriLayer(0))
        }
        TamperClass::FinalPolynomial => {
            bump_element(
                &mut out,
                base + offset_in(payload, raw.fri_remainder),
                width,
            );
            Check::RemainderCommitment
        }
        TamperClass::PowNonce => {
            if raw.options.grinding == 0 {
                return Err("the proof has no proof of work to tamper with".into());
            }
            // The nonce is the payload's last eight bytes.
            let at = base + payload.len() - 8;
            let nonce = raw.pow_nonce.wrapping_add(1);
            out[at..at + 8].copy_from_slice(&nonce.to_le_bytes());
            Check::ProofOfWork
        }
    };
    Ok(Tampered {
        file: out,
        expected,
    })
}

//! The verify fuzz target's body and its format-aware mutator, shared by the libFuzzer target
//! (`fuzz_targets/verify.rs`) and the deterministic smoke run CI does
//! (`prover-host/tests/fuzz_smoke.rs`), which includes this file by path.
//!
//! [`check`] hands a proof file to the verifier its header names and, for Plonky3 files,
//! runs the lean path alone and Plonky3's own verifier (`verify_stock`), which must agree;
//! nothing may panic. [`structured`] re-encodes a length one byte longer or changes its value,
//! writes boundary field elements (`p - 1`, `p`, `v + p`), sets header fields and public inputs
//! to edge values, splices and truncates the payload, and always re-encodes the envelope so
//! its payload length matches and the verifier gets past the header (issue 29).

use picostark_core::proof_file::encode;
use picostark_core::{verify, FieldId, Policy, ProofFile};
use picostark_plonky3::{lean, verify_stock};

/// Verifies `data` on every path that applies; panics where two paths disagree. Returns
/// whether the registry verifier accepted.
pub fn check(data: &[u8]) -> bool {
    let Ok(file) = ProofFile::parse(data) else {
        return false;
    };
    let verifier = picostark_registry::verifier(file.header.backend)
        .expect("every backend is registered in the fuzz build");
    let accepted = verify(&*verifier, data, None, &Policy::default()).is_ok();
    if file.header.backend.protocol() != "plonky3"
        || verifier.check_supported(&file.header).is_err()
    {
        return accepted;
    }
    if let Some(lean) = lean::verify(&file) {
        let stock = verify_stock(&file);
        assert_eq!(
            lean.is_ok(),
            stock.is_ok(),
            "lean {lean:?} and p3_uni_stark {stock:?} disagree"
        );
    }
    accepted
}

/// A small deterministic generator seeded by libFuzzer.
pub struct Rng(pub u32);

impl Rng {
    pub fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 17;
        self.0 ^= self.0 << 5;
        self.0
    }
    pub fn below(&mut self, n: usize) -> usize {
        self.next() as usize % n.max(1)
    }
}

/// One format-aware mutation of a parsed proof file, re-encoded; `None` to leave the input
/// to libFuzzer's own mutations.
pub fn structured(data: &[u8], rng: &mut Rng) -> Option<Vec<u8>> {
    let file = ProofFile::parse(data).ok()?;
    let mut header = file.header;
    let mut public: Vec<u64> = file.public_inputs.iter().collect();
    let mut payload = file.payload.to_vec();
    let plonky3 = header.backend.protocol() == "plonky3";
    let p = header.field.modulus();
    let elem = if header.field == FieldId::Goldilocks {
        8
    } else {
        4
    };
    match rng.below(8) {
        // A length one byte longer (postcard varint / winter-utils vint), same value.
        0 | 1 => {
            let at = rng.below(payload.len());
            let b = *payload.get(at)?;
            let longer: [u8; 2] = if plonky3 && b < 0x80 {
                [b | 0x80, 0x00]
            } else if !plonky3 && b & 1 == 1 {
                (u16::from(b >> 1) << 2 | 2).to_le_bytes()
            } else {
                return None;
            };
            payload.splice(at..at + 1, longer);
        }
        // A one-byte length off by one.
        2 => {
            let at = rng.below(payload.len());
            let b = payload.get_mut(at)?;
            let step = if plonky3 { 1 } else { 2 };
            *b = if rng.next() & 1 == 0 {
                b.wrapping_add(step)
            } else {
                b.wrapping_sub(step)
            };
        }
        // A boundary field element at an element-aligned offset.
        3 => {
            let at = rng.below(payload.len() / elem) * elem;
            let word = payload.get_mut(at..at + elem)?;
            let mut v = [0u8; 8];
            v[..elem].copy_from_slice(word);
            let old = u64::from_le_bytes(v);
            let new = match rng.below(4) {
                0 => p - 1,
                1 => p,
                2 => old.wrapping_add(p),
                _ => 0,
            };
            word.copy_from_slice(&new.to_le_bytes()[..elem]);
        }
        // A header field at an edge of its range.
        4 => {
            let edge = [0u8, 1, 2, 3, 4, 5, 6, 8, 16, 24, 30, 31, 32, 40, 255];
            let v = edge[rng.below(edge.len())];
            let params = &mut header.params;
            match rng.below(6) {
                0 => header.extension_degree = v,
                1 => header.log_n = v,
                2 => params.log_blowup = v,
                3 => params.pow_bits = v,
                4 => params.log_fold_arity = v,
                _ => params.log_final_poly_len = v,
            }
        }
        // A public input at the modulus' edge.
        5 => {
            let n = public.len();
            let slot = public.get_mut(rng.below(n))?;
            *slot = [p - 1, p, slot.wrapping_add(1), 0][rng.below(4)];
        }
        // A 32-byte run copied over another place (digests, rows).
        6 => {
            if payload.len() < 64 {
                return None;
            }
            let from = rng.below(payload.len() - 32);
            let to = rng.below(payload.len() - 32);
            let run: Vec<u8> = payload[from..from + 32].to_vec();
            payload[to..to + 32].copy_from_slice(&run);
        }
        // Truncated, or one byte appended.
        _ => {
            if rng.next() & 1 == 0 {
                payload.truncate(rng.below(payload.len()));
            } else {
                payload.push(rng.next() as u8);
            }
        }
    }
    Some(encode(&header, &public, &payload))
}

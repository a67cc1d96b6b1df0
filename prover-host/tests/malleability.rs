//! One encoding per proof (issue 29): no re-encoding of a valid proof is accepted by any
//! verifier path. For a proof of every backend (Fibonacci and chain16, n = 8, default
//! parameters):
//! - every payload position re-encoded one byte longer as its length field would be (Plonky3:
//!   a postcard varint byte `b < 0x80` becomes `b | 0x80, 0x00`; winterfell: a one-byte vint
//!   `b` becomes its two-byte form), the header's payload length raised to match: where the
//!   position holds a length this is the same value in an overlong form, elsewhere it is
//!   garbage; both must be rejected;
//! - one byte appended to the payload (trailing bytes).
//!
//! Non-canonical field elements (`>= p`) are refused by the readers themselves, tested word by
//! word against the fields' own `Deserialize` (`lean::reader` tests) and by winterfell's
//! element readers.
//!
//! Verifier paths: the registry verifier (`picostark_core::verify`), and for Plonky3 also the
//! lean path alone and Plonky3's own verifier behind our canonical decoder (`verify_stock`).
//! The firmware gets the `overlong` and `trailing` copies of every default proof on both
//! cores (`verifier-mcu/ci.sh`), with the host's verdict compared file by file.

use picostark_core::proof_file::encode;
use picostark_core::prove::{ProveRequest, Prover};
use picostark_core::{AirId, BackendId, HashId, Policy, ProofFile, Verifier};
use picostark_plonky3 as p3;
use picostark_winterfell as wf;

fn backends() -> Vec<(Box<dyn Prover>, Box<dyn Verifier>)> {
    vec![
        (
            Box::new(p3::P3BabyBearProver),
            Box::new(p3::P3BabyBearVerifier),
        ),
        (
            Box::new(p3::P3GoldilocksProver),
            Box::new(p3::P3GoldilocksVerifier),
        ),
        (Box::new(p3::P3M31Prover), Box::new(p3::P3M31Verifier)),
        (
            Box::new(wf::WfGoldilocksProver),
            Box::new(wf::WfGoldilocksVerifier::default()),
        ),
        (
            Box::new(wf::WfBabyBearProver),
            Box::new(wf::WfBabyBearVerifier::default()),
        ),
    ]
}

fn prove(prover: &dyn Prover, air: AirId) -> Vec<u8> {
    let req = ProveRequest {
        air,
        log_n: 3,
        extension_degree: prover.extension_degrees()[0],
        params: prover.default_params(),
        hash: HashId::Blake3_256,
    };
    prover.prove(&req, &mut |_| {}).unwrap()
}

/// Whether any verifier path accepts `bytes`.
fn accepted_anywhere(verifier: &dyn Verifier, bytes: &[u8]) -> Option<&'static str> {
    if picostark_core::verify(verifier, bytes, None, &Policy::default()).is_ok() {
        return Some("registry verifier");
    }
    let file = ProofFile::parse(bytes).ok()?;
    if file.header.backend.protocol() != "plonky3" {
        return None;
    }
    let lean = match file.header.backend {
        BackendId::P3BabyBear => p3::lean::verify_babybear_file::<picostark_airs::Builtins>(&file),
        BackendId::P3Goldilocks => {
            p3::lean::verify_goldilocks_file::<picostark_airs::Builtins>(&file)
        }
        _ => p3::lean::verify_m31_file::<picostark_airs::Builtins>(&file),
    };
    if lean.is_some_and(|v| v.is_ok()) {
        return Some("lean verifier");
    }
    if p3::verify_stock(&file).is_ok() {
        return Some("p3_uni_stark::verify");
    }
    None
}

/// The file with its payload replaced.
fn with_payload(bytes: &[u8], payload: &[u8]) -> Vec<u8> {
    let file = ProofFile::parse(bytes).unwrap();
    let public: Vec<u64> = file.public_inputs.iter().collect();
    encode(&file.header, &public, payload)
}

/// Position `at` of `payload` in the next longer encoding a length there would have, or
/// `None` where the byte cannot end a one-byte length.
fn longer_at(plonky3: bool, payload: &[u8], at: usize) -> Option<Vec<u8>> {
    let b = payload[at];
    let longer: [u8; 2] = if plonky3 {
        if b >= 0x80 {
            return None;
        }
        [b | 0x80, 0x00]
    } else {
        if b & 1 == 0 {
            return None;
        }
        (u16::from(b >> 1) << 2 | 2).to_le_bytes()
    };
    let mut out = payload[..at].to_vec();
    out.extend_from_slice(&longer);
    out.extend_from_slice(&payload[at + 1..]);
    Some(out)
}

#[test]
fn no_re_encoding_of_a_valid_proof_is_accepted() {
    for (prover, verifier) in backends() {
        for air in [AirId::Fibonacci, AirId::CubicChain16] {
            let bytes = prove(prover.as_ref(), air);
            let what = format!("{} {}", prover.backend(), air.name());
            assert!(
                accepted_anywhere(verifier.as_ref(), &bytes).is_some(),
                "{what}: the valid proof must pass"
            );
            let payload = ProofFile::parse(&bytes).unwrap().payload.to_vec();
            let plonky3 = prover.backend().protocol() == "plonky3";
            let mut tried = 0;
            for at in 0..payload.len() {
                let Some(longer) = longer_at(plonky3, &payload, at) else {
                    continue;
                };
                tried += 1;
                let file = with_payload(&bytes, &longer);
                if let Some(path) = accepted_anywhere(verifier.as_ref(), &file) {
                    panic!("{what}: payload byte {at} one byte longer accepted by {path}");
                }
            }
            assert!(tried > payload.len() / 4, "{what}: {tried} positions");
            let mut trailing = payload.clone();
            trailing.push(0);
            let file = with_payload(&bytes, &trailing);
            assert_eq!(
                accepted_anywhere(verifier.as_ref(), &file),
                None,
                "{what}: trailing byte"
            );
            eprintln!("{what}: {tried} overlong positions and a trailing byte, all rejected");
        }
    }
}

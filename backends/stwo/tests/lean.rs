//! Differential: our lean verifier (`picostark_stwo::lean`) against stwo's own `verify` (the
//! stock path, `Path::Stock`) on every proof in `testdata/` (all three hashes, fold step 1
//! and 2, a last layer of one and of four coefficients) and on tampered copies of each: the same verdict every time, and on honest proofs the
//! same transcript (the channel's final state after every mix and draw, and the
//! out-of-domain point replayed here from stwo's API).

use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::differential::with_stwo;

use picostark_air::fibonacci::Fibonacci;
use picostark_core::{HashId, ProofFile};
use picostark_stwo::channel::{Blake3, ByteMerkleChannel, RawDigest, Sha256};
use picostark_stwo::{payload, run, shape, Path, Run};
use stwo::core::channel::{Channel, MerkleChannel};
use stwo::core::circle::CirclePoint;
use stwo::core::fields::qm31::SecureField;
use stwo::core::vcs_lifted::blake2_merkle::Blake2sMerkleChannel;
use stwo::core::vcs_lifted::merkle_hasher::MerkleHasherLifted;

/// Every proof in `testdata/`.
const PROOFS: &[&str] = &[
    "stwo-m31-fib-n1024.proof",
    "stwo-m31-fib-n8.proof",
    "stwo-m31-fib-n1024-fold4.proof",
    "stwo-m31-fib-n1024-fold4-last4.proof",
    "stwo-m31-fib-n1024-fold4-last4-blake3.proof",
    "stwo-m31-chain16-n64.proof",
    "stwo-m31-membership-n16.proof",
    "stwo-m31-fib-n1024-blake3.proof",
    "stwo-m31-fib-n8-blake3.proof",
    "stwo-m31-fib-n1024-sha256.proof",
    "stwo-m31-fib-n8-sha256.proof",
];

fn testdata(name: &str) -> Vec<u8> {
    let path = format!("{}/testdata/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn payload_start(bytes: &[u8]) -> usize {
    24 + 8 * usize::from(bytes[18])
}

/// A path's run on a file, `None` when the envelope does not parse; a panic (stwo's
/// asserts) is `Some(None)`.
fn on(bytes: &[u8], path: Path) -> Option<Option<Run>> {
    let file = ProofFile::parse(bytes).ok()?;
    Some(catch_unwind(AssertUnwindSafe(|| run(&file, path))).ok())
}

/// The out-of-domain point stwo's verifier draws for a Fibonacci proof over `MC`, replayed
/// from stwo's API: the statement, the first two roots, the composition coefficient, the
/// third root, the point.
fn stwo_oods_point<MC: MerkleChannel>(bytes: &[u8]) -> CirclePoint<SecureField>
where
    <MC::H as MerkleHasherLifted>::Hash: RawDigest,
{
    with_stwo::<MC, _>(bytes, |channel, _, proof, _| {
        channel.draw_secure_felt();
        MC::mix_root(channel, proof.commitments[2]);
        CirclePoint::<SecureField>::get_random_point(channel)
    })
    .unwrap()
}

#[test]
fn honest_proofs_get_the_same_verdict_and_transcript_on_both_paths() {
    for name in PROOFS {
        let bytes = testdata(name);
        let lean = on(&bytes, Path::Lean).unwrap().unwrap();
        let stock = on(&bytes, Path::Stock).unwrap().unwrap();
        assert!(lean.verdict.is_ok(), "{name}: lean {:?}", lean.verdict);
        assert!(stock.verdict.is_ok(), "{name}: stock {:?}", stock.verdict);
        // Every mix and draw alike: the final channel states are equal.
        assert!(!lean.channel.is_empty(), "{name}");
        assert_eq!(lean.channel, stock.channel, "{name}");
        let t = &lean.transcript;
        let file = ProofFile::parse(&bytes).unwrap();
        let p = &file.header.params;
        assert!(!t.queries.is_empty() && t.queries.len() <= usize::from(p.num_queries));
        assert!(t.queries.windows(2).all(|w| w[0] < w[1]), "{name}");
        // One challenge for the circle layer and one per line layer.
        let folds = u32::from(file.header.log_n) - u32::from(p.log_final_poly_len);
        let layers = folds.div_ceil(u32::from(p.log_fold_arity));
        assert_eq!(t.fri_alphas.len() as u32, layers, "{name}");
        if file.header.air == picostark_core::AirId::Fibonacci {
            let stwo_point = match file.header.hash {
                HashId::Blake2s256 => stwo_oods_point::<Blake2sMerkleChannel>(&bytes),
                HashId::Blake3_256 => stwo_oods_point::<ByteMerkleChannel<Blake3>>(&bytes),
                HashId::Sha256 => stwo_oods_point::<ByteMerkleChannel<Sha256>>(&bytes),
            };
            assert_eq!(t.oods_point, Some(stwo_point), "{name}");
        }
        // The rejected case beside it: one sampled value changed (the first trace sample,
        // past the config, the roots and the selectors' samples), both paths reject, and
        // their transcripts part at the out-of-domain check.
        let mut t = bytes.clone();
        let at = payload_start(&bytes) + 8 + 1 + 3 * 32 + 2 + 2 * (1 + 16) + 2 + 1 + 3;
        t[at] ^= 0x01;
        let lean = on(&t, Path::Lean).unwrap().unwrap();
        let stock = on(&t, Path::Stock).unwrap().unwrap();
        assert!(lean.verdict.is_err(), "{name}: tampered accepted by lean");
        assert!(stock.verdict.is_err(), "{name}: tampered accepted by stock");
    }
}

/// Tampered copies: a byte of every 97 flipped across each payload, every public input
/// changed, each proof refiled under the other hashes. Where the envelope and our parser
/// take the copy, both paths give the same verdict (a stwo panic counts as a rejection, and
/// the lean path must then reject); neither path panics.
#[test]
fn tampered_proofs_get_the_same_verdict_on_both_paths() {
    let (mut compared, mut stwo_panics, mut lean_rejects) = (0, 0, 0);
    for name in PROOFS {
        let bytes = testdata(name);
        let start = payload_start(&bytes);
        let mut copies: Vec<(String, Vec<u8>)> = Vec::new();
        for at in (start..bytes.len()).step_by(97) {
            let mut t = bytes.clone();
            t[at] ^= 0x04;
            copies.push((format!("byte {at}"), t));
        }
        for i in 0..usize::from(bytes[18]) {
            let mut t = bytes.clone();
            t[20 + 8 * i] ^= 0x01;
            copies.push((format!("public input {i}"), t));
        }
        for hash in [HashId::Blake2s256, HashId::Blake3_256, HashId::Sha256] {
            let mut t = bytes.clone();
            if t[9] != hash as u8 {
                t[9] = hash as u8;
                copies.push((format!("as {hash}"), t));
            }
        }
        for (what, t) in copies {
            let Some(lean) = on(&t, Path::Lean) else {
                continue;
            };
            let lean = lean.unwrap_or_else(|| panic!("{name}, {what}: the lean path panicked"));
            let stock = on(&t, Path::Stock).unwrap();
            let stock_ok = match &stock {
                Some(run) => run.verdict.is_ok(),
                None => {
                    stwo_panics += 1;
                    false
                }
            };
            assert_eq!(
                lean.verdict.is_ok(),
                stock_ok,
                "{name}, {what}: lean {:?}, stock {:?}",
                lean.verdict,
                stock.map(|r| r.verdict)
            );
            assert!(!stock_ok, "{name}, {what}: a tampered copy accepted");
            compared += 1;
            lean_rejects += usize::from(lean.verdict.is_err());
        }
    }
    eprintln!(
        "{compared} tampered copies compared, {lean_rejects} rejected by both paths, \
         {stwo_panics} stwo panics"
    );
    assert_eq!(lean_rejects, compared);
    // The stock path's count check leaves stwo's `verify` nothing to panic on.
    assert_eq!(stwo_panics, 0, "the stock path panicked");
    assert!(compared > 3000, "{compared} tampered copies compared");
}

/// stwo's `verify` on a Fibonacci proof over `MC`, called directly (without the stock path's
/// count check): `None` when it panics.
fn stwo_unguarded<MC: MerkleChannel>(bytes: &[u8]) -> Option<bool>
where
    <MC::H as MerkleHasherLifted>::Hash: RawDigest,
{
    catch_unwind(AssertUnwindSafe(|| {
        with_stwo::<MC, _>(bytes, |channel, scheme, proof, component| {
            stwo::core::verifier::verify(&[component], channel, scheme, proof).is_ok()
        })
        .unwrap()
    }))
    .ok()
}

/// A proof whose queried column is one value short: our parser takes it (a count is only
/// bounded by the queries), the transcript does not see it (queried values are not mixed), so
/// it reaches the Merkle openings after a valid proof of work. stwo's `verify` called directly
/// panics there (its Merkle verifier unwraps the column's next value); both our paths reject
/// it without panicking, the stock path by its count check before stwo's `verify`.
#[test]
fn a_short_queried_column_is_rejected_by_both_paths_where_stwo_alone_panics() {
    type H = <ByteMerkleChannel<Blake3> as MerkleChannel>::H;
    let bytes = testdata("stwo-m31-fib-n1024-blake3.proof");
    let file = ProofFile::parse(&bytes).unwrap();
    let air = &picostark_stwo::air::reduced(&Fibonacci);
    let mut proof = payload::decode::<H>(file.payload, &shape(air, &file.header)).unwrap();
    proof.0.queried_values[1][0].pop();
    let short = payload::encode(&proof).unwrap();
    // The envelope up to the payload length, then the new length and payload.
    let head = 20 + 8 * usize::from(bytes[18]);
    let mut t = bytes[..head].to_vec();
    t.extend_from_slice(&(short.len() as u32).to_le_bytes());
    t.extend_from_slice(&short);
    let lean = on(&t, Path::Lean)
        .unwrap()
        .expect("the lean path does not panic");
    assert!(lean.verdict.is_err(), "accepted: {:?}", lean.verdict);
    let stock = on(&t, Path::Stock)
        .unwrap()
        .expect("the stock path does not panic");
    assert!(stock.verdict.is_err(), "accepted: {:?}", stock.verdict);
    assert_eq!(
        stwo_unguarded::<ByteMerkleChannel<Blake3>>(&t),
        None,
        "stwo alone did not panic: the count check guards nothing"
    );
    assert_eq!(
        stwo_unguarded::<ByteMerkleChannel<Blake3>>(&bytes),
        Some(true)
    );
    // The untouched proof re-encoded the same way is accepted: the rebuild is not the cause.
    let whole =
        payload::encode(&payload::decode::<H>(file.payload, &shape(air, &file.header)).unwrap())
            .unwrap();
    let mut t = bytes[..head].to_vec();
    t.extend_from_slice(&(whole.len() as u32).to_le_bytes());
    t.extend_from_slice(&whole);
    assert_eq!(t, bytes);
    assert!(on(&t, Path::Lean).unwrap().unwrap().verdict.is_ok());
}

//! Differential: our verifier's verdict equals stwo's own `verify` run directly (the stock
//! call, set up here from stwo's public API) on honest proofs and on tampered copies that
//! still decode. Copies our parser refuses have no stwo verdict to compare with: stwo has no
//! decoder of its own in a `no_std` build (its proof type is serde-only), and a hostile
//! shape would reach its panics, which is why the parser exists.

use picostark_air::fibonacci::Fibonacci;
use picostark_core::{verify, Policy, ProofFile};
use picostark_stwo::air::AirEval;
use picostark_stwo::channel::RawDigest;
use picostark_stwo::payload::Proof;
use picostark_stwo::{bind_statement, component, payload, shape, StwoM31Verifier};
use stwo::core::air::Component;
use stwo::core::channel::MerkleChannel;
use stwo::core::fields::m31::M31;
use stwo::core::pcs::CommitmentSchemeVerifier;
use stwo::core::vcs_lifted::blake2_merkle::Blake2sMerkleChannel;
use stwo::core::vcs_lifted::merkle_hasher::MerkleHasherLifted;

fn testdata(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/testdata/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// stwo's own verifier set up from its public API for a Fibonacci proof file over `MC` (the
/// statement bound, the first two trees committed), handed to `f` with the proof and the
/// component; `None` when our parser refuses the payload.
pub fn with_stwo<MC: MerkleChannel, R>(
    bytes: &[u8],
    f: impl FnOnce(&mut MC::C, &mut CommitmentSchemeVerifier<MC>, Proof<MC::H>, &dyn Component) -> R,
) -> Option<R>
where
    <MC::H as MerkleHasherLifted>::Hash: RawDigest,
{
    let file = ProofFile::parse(bytes).ok()?;
    let h = file.header;
    let air = &picostark_stwo::air::reduced(&Fibonacci);
    let shape = shape(air, &h);
    let proof = payload::decode::<MC::H>(file.payload, &shape).ok()?;
    let public: Vec<M31> = (0..file.public_inputs.len())
        .map(|i| M31::from_u32_unchecked(file.public_inputs.get(i).unwrap() as u32))
        .collect();
    let component = component(AirEval {
        air,
        log_n: h.log_n.into(),
        public_inputs: public.clone(),
    });
    let channel = &mut MC::C::default();
    bind_statement(channel, &h, &shape.config, &public);
    let scheme = &mut CommitmentSchemeVerifier::<MC>::new(shape.config);
    let sizes = component.trace_log_degree_bounds();
    scheme.commit(proof.commitments[0], &sizes[0], channel);
    scheme.commit(proof.commitments[1], &sizes[1], channel);
    Some(f(channel, scheme, proof, &component))
}

/// stwo's verdict on a Fibonacci proof file, or `None` when our parser refuses its payload.
fn stwo_verdict(bytes: &[u8]) -> Option<bool> {
    with_stwo::<Blake2sMerkleChannel, _>(bytes, |channel, scheme, proof, component| {
        stwo::core::verifier::verify(&[component], channel, scheme, proof).is_ok()
    })
}

fn ours(bytes: &[u8]) -> bool {
    verify(&StwoM31Verifier, bytes, None, &Policy::default()).is_ok()
}

#[test]
fn verdicts_equal_stwos_on_honest_and_tampered_proofs() {
    let mut compared = 0;
    for name in ["stwo-m31-fib-n1024.proof", "stwo-m31-fib-n1024-fold4.proof"] {
        let bytes = testdata(name);
        assert_eq!(stwo_verdict(&bytes), Some(true), "{name}");
        assert!(ours(&bytes), "{name}");
        let start = 24 + 8 * usize::from(bytes[18]);
        // Value bytes everywhere in the payload (skipping the first 8 config bytes).
        for at in (start + 8..bytes.len()).step_by(97) {
            let mut t = bytes.clone();
            t[at] ^= 0x04;
            if let Some(stock) = stwo_verdict(&t) {
                assert_eq!(ours(&t), stock, "{name}: byte {at}");
                assert!(!stock, "{name}: byte {at} accepted by stwo");
                compared += 1;
            } else {
                assert!(
                    !ours(&t),
                    "{name}: byte {at} refused by the parser, accepted"
                );
            }
        }
    }
    assert!(compared > 500, "{compared} tampered proofs compared");
}

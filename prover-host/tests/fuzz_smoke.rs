//! The fuzz target's smoke run for CI (issue 29): the verify target's body and its
//! format-aware mutator (`fuzz/src/mutate.rs`, included by path) driven by a fixed seed instead
//! of libFuzzer, over proofs of every backend and both AIRs. Mutations stack (each input is a
//! mutation of the previous one, back to the seed every few steps), as a fuzzer's corpus
//! entries do. Nothing may panic, the lean and stock Plonky3 paths must agree on every input
//! (asserted inside `check`), and no mutated input that differs from its seed may verify.
//! The long runs are libFuzzer's (`fuzz/README.md`).

#[path = "../../fuzz/src/mutate.rs"]
mod mutate;

use picostark_core::prove::ProveRequest;
use picostark_core::{AirId, BackendId, HashId};

/// Inputs per seed proof.
const RUNS_PER_SEED: usize = 400;
/// Mutations stacked before starting again from the seed.
const CHAIN: usize = 4;

#[test]
fn structured_mutations_never_panic_and_never_verify() {
    // Every backend the registry declares.
    let provers = BackendId::ALL
        .iter()
        .map(|&b| picostark_registry::prover(b).expect("a registered prover"));
    let mut rng = mutate::Rng(0x2545_f491);
    let mut runs = 0;
    for prover in provers {
        // stwo-m31 proves with its own Blake2s channel.
        let stwo = prover.backend().protocol() == "stwo";
        for air in [AirId::Fibonacci, AirId::CubicChain16] {
            let req = ProveRequest {
                air,
                log_n: 3,
                extension_degree: prover.extension_degrees()[0],
                params: prover.default_params(),
                hash: if stwo {
                    HashId::Blake2s256
                } else {
                    HashId::Blake3_256
                },
            };
            let seed = prover.prove(&req, &mut |_| {}).unwrap();
            assert!(
                mutate::check(&seed),
                "{} seed must verify",
                prover.backend()
            );
            let mut input = seed.clone();
            for k in 0..RUNS_PER_SEED {
                if k % CHAIN == 0 {
                    input = seed.clone();
                }
                let Some(next) = mutate::structured(&input, &mut rng) else {
                    continue;
                };
                input = next;
                runs += 1;
                if mutate::check(&input) && input != seed {
                    panic!(
                        "{} {}: a mutated proof verified",
                        prover.backend(),
                        air.name()
                    );
                }
            }
        }
    }
    eprintln!("{runs} structured mutations checked");
    assert!(runs > 10 * RUNS_PER_SEED / 2);
}

//! Completeness over a parameter grid (issue 29): every request a backend's prover accepts
//! (`Prover::check_request`, what `prover-host` checks before proving) proves without a panic,
//! and every verifier we ship accepts the honest proof: the registry verifier through
//! `picostark_core::verify`, and separately the lean Plonky3 path, Plonky3's own verifier
//! (`verify_stock`: `p3_uni_stark::verify`) and upstream `winterfell::verify` where they
//! apply. A byte flipped in each payload is rejected beside it.
//!
//! The grid is small traces (n = 2^3..2^6), blowups 2^1..2^3, query counts up to the lean
//! bound (32) and past it, every folding arity and several final lengths, every extension
//! degree, both hashes and both AIRs; each backend x extension x hash x AIR cell takes a fixed
//! pseudo-random sample of it (the same every run), plus the configurations the issue found
//! rejected. Requests the prover refuses are counted, never proved: the test asserts some are
//! accepted in every cell.
//!
//! A sample of the grid's proofs also runs in the firmware on both cores (`verifier-mcu/ci.sh`).

use std::panic::{catch_unwind, AssertUnwindSafe};

use picostark_air::chain16::CubicChain16;
use picostark_air::fibonacci::Fibonacci;
use picostark_core::prove::{ProveRequest, Prover};
use picostark_core::{AirId, BackendId, HashId, Policy, ProofFile, ProofParams, Verifier};
use picostark_plonky3 as p3;
use picostark_winterfell as wf;

/// Policy of the grid: honest proofs at any security level (the grid goes far below 95
/// bits), so the verdict is the protocol's alone.
fn any_security() -> Policy {
    Policy {
        min_security_bits: 0,
        ..Policy::default()
    }
}

/// xorshift64: a fixed sample, identical on every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())]
    }
}

const QUERIES: &[u16] = &[1, 2, 3, 5, 8, 13, 16, 17, 18, 20, 27, 31, 32, 33];
const SAMPLES_PER_CELL: usize = 40;

/// A request of one cell. On p3-m31 half the samples are upstream's CirclePcs (folding by two
/// to a constant), half our WideCirclePcs (any other folding and final length, with its
/// quotient at the trace's height: `config::min_constraint_degree`).
fn sample(rng: &mut Rng, backend: BackendId, air: AirId, ext: u8, hash: HashId) -> ProveRequest {
    let mut req = ProveRequest {
        air,
        log_n: rng.pick(&[3, 4, 5, 6]),
        extension_degree: ext,
        params: ProofParams {
            log_blowup: rng.pick(&[1, 2, 3]),
            num_queries: rng.pick(QUERIES),
            pow_bits: rng.pick(&[0, 1, 4]),
            log_fold_arity: rng.pick(&[1, 2, 3, 4]),
            log_final_poly_len: rng.pick(&[0, 0, 1, 2, 3, 5]),
        },
        hash,
    };
    if backend == BackendId::P3M31 && rng.pick(&[true, false]) {
        req.params.log_fold_arity = 1;
        req.params.log_final_poly_len = 0;
    }
    req
}

/// Every verifier path that applies to `bytes`: `Err` names the first that refused.
fn verdicts(verifier: &dyn Verifier, bytes: &[u8]) -> Result<(), String> {
    picostark_core::verify(verifier, bytes, None, &any_security())
        .map_err(|e| format!("registry verifier: {e}"))?;
    let file = ProofFile::parse(bytes).unwrap();
    let backend = file.header.backend;
    if backend.protocol() == "plonky3" {
        let lean = match backend {
            BackendId::P3BabyBear => {
                p3::lean::verify_babybear_file::<picostark_airs::Builtins>(&file)
            }
            BackendId::P3Goldilocks => {
                p3::lean::verify_goldilocks_file::<picostark_airs::Builtins>(&file)
            }
            _ => p3::lean::verify_m31_file::<picostark_airs::Builtins>(&file),
        };
        if let Some(v) = lean {
            v.map_err(|e| format!("lean: {e}"))?;
        }
        p3::verify_stock(&file).map_err(|e| format!("p3_uni_stark::verify: {e}"))?;
    } else if let Some(accepted) = upstream_winterfell(&file) {
        if !accepted {
            return Err("winterfell::verify rejected".into());
        }
    }
    Ok(())
}

/// Upstream `winterfell::verify` on a wf-goldilocks BLAKE3 proof (the configurations upstream
/// defines: Goldilocks with its quadratic or cubic extension); `None` where it does not apply.
fn upstream_winterfell(file: &ProofFile<'_>) -> Option<bool> {
    use wf::air::{PublicInputs, WfAir};
    use winterfell::crypto::hashers::Blake3_256;
    use winterfell::crypto::{DefaultRandomCoin, MerkleTree};
    use winterfell::math::fields::f64::BaseElement as G;
    use winterfell::{AcceptableOptions, FieldExtension, Proof};
    type H = Blake3_256<G>;

    let h = &file.header;
    if h.backend != BackendId::WfGoldilocks || h.hash != HashId::Blake3_256 {
        return None;
    }
    let extension = match h.extension_degree {
        2 => FieldExtension::Quadratic,
        _ => FieldExtension::Cubic,
    };
    let options = wf::prover::proof_options(&h.params, extension).unwrap();
    let acceptable = AcceptableOptions::OptionSet(vec![options]);
    let public = PublicInputs(file.public_inputs.iter().map(G::new).collect());
    let proof = Proof::from_bytes(file.payload).ok()?;
    Some(match h.air {
        AirId::Fibonacci => winterfell::verify::<
            WfAir<Fibonacci, G>,
            H,
            DefaultRandomCoin<H>,
            MerkleTree<H>,
        >(proof, public, &acceptable)
        .is_ok(),
        AirId::CubicChain16 => winterfell::verify::<
            WfAir<CubicChain16, G>,
            H,
            DefaultRandomCoin<H>,
            MerkleTree<H>,
        >(proof, public, &acceptable)
        .is_ok(),
        AirId::Membership | AirId::Custom(_) => return None,
    })
}

/// One backend's grid: returns (accepted requests, refused requests).
fn grid(prover: &dyn Prover, verifier: &dyn Verifier, extra: &[ProveRequest]) -> (usize, usize) {
    let backend = prover.backend();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ backend as u64);
    let mut requests = extra.to_vec();
    for &ext in prover.extension_degrees() {
        for hash in [HashId::Blake3_256, HashId::Sha256] {
            // The membership AIR has a fixed height (its Merkle depth) and its own suites.
            for air in [AirId::Fibonacci, AirId::CubicChain16] {
                for _ in 0..SAMPLES_PER_CELL {
                    requests.push(sample(&mut rng, backend, air, ext, hash));
                }
            }
        }
    }
    let (mut accepted, mut refused) = (0, 0);
    let mut failures = Vec::new();
    for req in &requests {
        if prover.check_request(req).is_err() {
            refused += 1;
            continue;
        }
        accepted += 1;
        let what = format!(
            "{backend} {} ext {} {:?} n 2^{} {}",
            req.air.name(),
            req.extension_degree,
            req.hash,
            req.log_n,
            req.params
        );
        let proved = catch_unwind(AssertUnwindSafe(|| prover.prove(req, &mut |_| {})));
        let bytes = match proved {
            Ok(Ok(bytes)) => bytes,
            Ok(Err(e)) => {
                failures.push(format!("{what}: accepted request failed to prove: {e}"));
                continue;
            }
            Err(_) => {
                failures.push(format!("{what}: the prover panicked"));
                continue;
            }
        };
        if let Err(e) = verdicts(verifier, &bytes) {
            failures.push(format!("{what}: honest proof rejected by {e}"));
        }
        let mut tampered = bytes.clone();
        let at = bytes.len() - ProofFile::parse(&bytes).unwrap().payload.len() / 2;
        tampered[at] ^= 0x10;
        if picostark_core::verify(verifier, &tampered, None, &any_security()).is_ok() {
            failures.push(format!("{what}: a flipped payload byte was accepted"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    (accepted, refused)
}

fn check(prover: &dyn Prover, verifier: &dyn Verifier, extra: &[ProveRequest]) {
    let (accepted, refused) = grid(prover, verifier, extra);
    eprintln!(
        "{}: {accepted} requests proved and accepted, {refused} refused",
        prover.backend()
    );
    assert!(accepted >= 20, "too few accepted requests: {accepted}");
}

fn request(air: AirId, log_n: u8, ext: u8, queries: u16, base: ProofParams) -> ProveRequest {
    ProveRequest {
        air,
        log_n,
        extension_degree: ext,
        params: ProofParams {
            num_queries: queries,
            ..base
        },
        hash: HashId::Blake3_256,
    }
}

#[test]
fn p3_babybear_grid() {
    check(&p3::P3BabyBearProver, &p3::P3BabyBearVerifier, &[]);
}

#[test]
fn p3_goldilocks_grid() {
    check(&p3::P3GoldilocksProver, &p3::P3GoldilocksVerifier, &[]);
}

#[test]
fn p3_m31_grid() {
    // The configurations issue 29 found rejected (two queries under one first-layer node),
    // over upstream's CirclePcs (the p3-m31 defaults then).
    let d = p3::UPSTREAM_CIRCLE_PARAMS;
    let extra = [
        request(AirId::Fibonacci, 3, 4, 16, d),
        request(AirId::Fibonacci, 3, 4, 17, d),
        request(AirId::Fibonacci, 3, 4, 18, d),
        request(AirId::Fibonacci, 3, 6, 16, d),
        request(AirId::Fibonacci, 3, 6, 20, d),
    ];
    check(&p3::P3M31Prover, &p3::P3M31Verifier, &extra);
}

#[test]
fn wf_goldilocks_grid() {
    // The verifier's own floor on the payload's parameters is the policy's business here.
    let verifier = wf::WfGoldilocksVerifier::with_min_security(0);
    check(&wf::WfGoldilocksProver, &verifier, &[]);
}

#[test]
fn wf_babybear_grid() {
    let verifier = wf::WfBabyBearVerifier::with_min_security(0);
    check(&wf::WfBabyBearProver, &verifier, &[]);
}

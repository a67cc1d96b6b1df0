//! The backends this binary knows: one prover and one verifier per backend id.

use picostark_core::prove::Prover;
use picostark_core::{BackendId, Policy, Verifier};

/// The prover for `id`, if this build has it (every backend, at present).
pub fn prover(id: BackendId) -> Option<Box<dyn Prover>> {
    use picostark_plonky3 as p3;
    use picostark_winterfell as wf;
    Some(match id {
        BackendId::P3BabyBear => Box::new(p3::P3BabyBearProver),
        BackendId::P3Goldilocks => Box::new(p3::P3GoldilocksProver),
        BackendId::P3M31 => Box::new(p3::P3M31Prover),
        BackendId::WfGoldilocks => Box::new(wf::WfGoldilocksProver),
        BackendId::WfBabyBear => Box::new(wf::WfBabyBearProver),
    })
}

/// The verifier for `id`, if this build has it.
pub fn verifier(id: BackendId) -> Option<Box<dyn Verifier>> {
    use picostark_plonky3 as p3;
    use picostark_winterfell as wf;
    Some(match id {
        BackendId::P3BabyBear => Box::new(p3::P3BabyBearVerifier),
        BackendId::P3Goldilocks => Box::new(p3::P3GoldilocksVerifier),
        BackendId::P3M31 => Box::new(p3::P3M31Verifier),
        BackendId::WfGoldilocks => Box::new(wf::WfGoldilocksVerifier::default()),
        BackendId::WfBabyBear => Box::new(wf::WfBabyBearVerifier::default()),
    })
}

/// The verifier for `id` under `policy`: the winterfell verifiers' own floor on the payload's
/// parameters (95 bits by default) follows the policy's minimum, so a proof made with
/// `--min-security 40` verifies under that same policy.
pub fn verifier_for(id: BackendId, policy: &Policy) -> Option<Box<dyn Verifier>> {
    use picostark_winterfell as wf;
    let min_security_bits = policy.min_security_bits;
    match id {
        BackendId::WfGoldilocks => Some(Box::new(wf::WfGoldilocksVerifier { min_security_bits })),
        BackendId::WfBabyBear => Some(Box::new(wf::WfBabyBearVerifier { min_security_bits })),
        _ => verifier(id),
    }
}

/// Backend ids with both a prover and a verifier in this build.
pub fn available() -> Vec<BackendId> {
    BackendId::ALL
        .iter()
        .copied()
        .filter(|&b| prover(b).is_some() && verifier(b).is_some())
        .collect()
}

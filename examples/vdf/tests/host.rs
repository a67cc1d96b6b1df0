//! The example AIR through the library API on the host: every backend proves it and verifies
//! it; tampered copies, a wrong public input, a build without the AIR and another custom AIR
//! are each refused.

use picostark_air::{check_trace, AirDef, Algebra, Boundary, Frame, Trace};
use picostark_core::proof_file::FIXED_HEADER_LEN;
use picostark_core::{AirId, BackendId, Policy, ProofFile, Statement, VerifyError};
use picostark_example_vdf::host::{prove, verify};
use picostark_example_vdf::VdfAir;
use picostark_registry::{verifier, verify_air};

const LOG_N: u8 = 6;

/// stwo-m31's prover is a nightly binary built with the built-in AIRs only.
const CANNOT_PROVE: &[BackendId] = &[BackendId::StwoM31];

/// The proofs of every other backend, made once.
fn proofs() -> &'static [(BackendId, Vec<u8>)] {
    static PROOFS: std::sync::OnceLock<Vec<(BackendId, Vec<u8>)>> = std::sync::OnceLock::new();
    PROOFS.get_or_init(|| {
        BackendId::ALL
            .iter()
            .filter(|b| !CANNOT_PROVE.contains(b))
            .map(|&b| (b, prove(b, LOG_N).expect("proves")))
            .collect()
    })
}

#[test]
fn a_backend_that_cannot_prove_it_says_why() {
    assert_eq!(proofs().len(), BackendId::ALL.len() - CANNOT_PROVE.len());
    for &b in CANNOT_PROVE {
        let e = prove(b, LOG_N).unwrap_err();
        assert!(e.0.contains("built-in AIRs only"), "{b}: {e}");
    }
}

#[test]
fn the_trace_satisfies_the_air_and_a_changed_cell_does_not() {
    let modulus = 2_013_265_921u128; // BabyBear
    #[derive(Clone, Copy, PartialEq, Debug)]
    struct Bb(u64);
    impl std::ops::Add for Bb {
        type Output = Bb;
        fn add(self, o: Bb) -> Bb {
            Bb(((self.0 as u128 + o.0 as u128) % 2_013_265_921) as u64)
        }
    }
    impl std::ops::Sub for Bb {
        type Output = Bb;
        fn sub(self, o: Bb) -> Bb {
            Bb(((self.0 as u128 + 2_013_265_921 - o.0 as u128) % 2_013_265_921) as u64)
        }
    }
    impl std::ops::Mul for Bb {
        type Output = Bb;
        fn mul(self, o: Bb) -> Bb {
            Bb((self.0 as u128 * o.0 as u128 % 2_013_265_921) as u64)
        }
    }
    let from = |v: u64| Bb((v as u128 % modulus) as u64);
    let mut trace: Trace<Bb> = VdfAir.generate_trace(64, from);
    assert_eq!(check_trace(&VdfAir, &trace, from), Ok(()));
    trace.values[3 * 20] = trace.values[3 * 20] + Bb(1);
    assert!(check_trace(&VdfAir, &trace, from).is_err());
}

#[test]
fn every_backend_proves_it_and_the_host_verifies_it() {
    for (backend, bytes) in proofs() {
        let file = ProofFile::parse(bytes).unwrap();
        assert_eq!(file.header.air, VdfAir.id(), "{backend}");
        assert!(matches!(file.header.air, AirId::Custom(_)));
        let v = verify(bytes, None, &Policy::default()).expect("accepted");
        assert!(v.security_bits >= 95, "{backend}: {}", v.security_bits);
        // The statement the caller expects: accepted as proved, refused with another output.
        let public: Vec<u64> = file.public_inputs.iter().collect();
        let statement = |public| Statement {
            air: VdfAir.id(),
            log_n: LOG_N,
            public_inputs: public,
        };
        assert!(verify(bytes, Some(&statement(&public)), &Policy::default()).is_ok());
        let mut wrong = public.clone();
        wrong[3] = (wrong[3] + 1) % file.header.field.modulus();
        assert!(
            verify(bytes, Some(&statement(&wrong)), &Policy::default()).is_err(),
            "{backend}: a wrong output was accepted"
        );
    }
}

#[test]
fn tampered_copies_are_rejected() {
    for (backend, bytes) in proofs() {
        let payload = ProofFile::parse(bytes).unwrap().payload.len();
        for at in [
            bytes.len() - payload / 2,
            bytes.len() - 1,
            bytes.len() - payload + 8,
        ] {
            let mut t = bytes.clone();
            t[at] ^= 1;
            assert!(
                verify(&t, None, &Policy::default()).is_err(),
                "{backend}: flipped byte {at} accepted"
            );
        }
    }
}

#[test]
fn a_build_without_the_air_refuses_its_proofs_with_a_clear_error() {
    for (backend, bytes) in proofs() {
        let builtins = verifier(*backend).unwrap();
        let verdict = picostark_core::verify(builtins.as_ref(), bytes, None, &Policy::default());
        assert!(
            matches!(verdict, Err(VerifyError::Unsupported(_))),
            "{backend}: {verdict:?}"
        );
        // The fingerprint, changed in the header, names an AIR nobody built with.
        let mut other = bytes.clone();
        other[FIXED_HEADER_LEN] ^= 1;
        let verdict = verify(&other, None, &Policy::default());
        assert!(
            matches!(verdict, Err(VerifyError::Unsupported(_))),
            "{backend}: {verdict:?}"
        );
    }
}

/// The VDF with the order of its public inputs changed: same width, degrees and name, so
/// only its constraints (and boundaries) tell it apart.
#[derive(Clone, Copy, Debug, Default)]
struct Lookalike;

impl AirDef for Lookalike {
    const NAME: &'static str = VdfAir::NAME;
    fn width(&self) -> usize {
        VdfAir.width()
    }
    fn num_public_inputs(&self) -> usize {
        VdfAir.num_public_inputs()
    }
    fn transition_degrees(&self) -> &[usize] {
        VdfAir.transition_degrees()
    }
    fn eval_transition<E: Algebra>(&self, frame: &Frame<'_, E>, emit: &mut dyn FnMut(E)) {
        let mut first = true;
        VdfAir.eval_transition(frame, &mut |c: E| {
            // The first constraint doubled: a different AIR with the same shape.
            emit(if first { c.clone() + c } else { c });
            first = false;
        });
    }
    fn boundaries(&self) -> Vec<Boundary> {
        VdfAir.boundaries()
    }
    fn generate_trace<F>(&self, n: usize, from_u64: impl Fn(u64) -> F) -> Trace<F>
    where
        F: Copy + std::ops::Add<Output = F> + std::ops::Sub<Output = F> + std::ops::Mul<Output = F>,
    {
        VdfAir.generate_trace(n, from_u64)
    }
}

#[test]
fn another_custom_air_does_not_pass_for_it() {
    assert_ne!(Lookalike.id(), VdfAir.id());
    for (backend, bytes) in proofs() {
        let verdict = verify_air::<Lookalike>(bytes, None, &Policy::default());
        assert!(
            matches!(verdict, Err(VerifyError::Unsupported(_))),
            "{backend}: {verdict:?}"
        );
    }
}

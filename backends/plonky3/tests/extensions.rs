//! The larger challenge fields of the proven-security track (issue 15 part 3): BabyBear^5 and
//! ^8, Goldilocks^3 and ^5, Mersenne-31^6 (our own `M31Sextic`), each proved and verified
//! through the backend's `Verifier`, with rejected cases beside the accepted one: a flipped
//! payload byte, the header's extension degree changed to another one the backend supports
//! (the transcript absorbed it) and to one it does not (refused before any work). The sextic
//! also gets its field laws, its wire form, and the lean circle verifier against the stock one
//! (verdicts and every challenge).

use picostark_core::prove::{ProveRequest, Prover};
use picostark_core::{verify, AirId, HashId, Policy, ProofParams, Regime, Verifier, VerifyError};
use picostark_plonky3::*;

/// Offset of the extension degree in the proof file (magic, version, backend, field).
const EXT_AT: usize = 8;

type Case = (&'static dyn Prover, &'static dyn Verifier, u8);

const CASES: [Case; 4] = [
    (&P3BabyBearProver, &P3BabyBearVerifier, 5),
    (&P3BabyBearProver, &P3BabyBearVerifier, 8),
    (&P3GoldilocksProver, &P3GoldilocksVerifier, 3),
    (&P3GoldilocksProver, &P3GoldilocksVerifier, 5),
];

fn prove(prover: &dyn Prover, ext: u8, log_n: u8, params: ProofParams, hash: HashId) -> Vec<u8> {
    let req = ProveRequest {
        air: AirId::Fibonacci,
        log_n,
        extension_degree: ext,
        params,
        hash,
    };
    prover.prove(&req, &mut |_| {}).expect("proving succeeds")
}

#[test]
fn larger_extensions_accept_valid_and_reject_tampered_proofs() {
    let policy = Policy::default();
    for (prover, verifier, ext) in CASES {
        for hash in [HashId::Blake3_256, HashId::Sha256] {
            let name = format!("{} x{ext} {hash}", verifier.backend());
            let bytes = prove(prover, ext, 8, prover.default_params(), hash);
            assert!(verify(verifier, &bytes, None, &policy).is_ok(), "{name}");

            let mut t = bytes.clone();
            let at = bytes.len() - bytes.len() / 3;
            t[at] ^= 0x10;
            assert!(
                verify(verifier, &t, None, &policy).is_err(),
                "{name}: flip at {at}"
            );

            for &other in prover.extension_degrees() {
                if other == ext {
                    continue;
                }
                let mut t = bytes.clone();
                t[EXT_AT] = other;
                assert!(
                    verify(verifier, &t, None, &policy).is_err(),
                    "{name}: header says x{other}"
                );
            }
            let mut t = bytes.clone();
            t[EXT_AT] = 6;
            assert_eq!(
                verify(verifier, &t, None, &policy),
                Err(VerifyError::Unsupported(
                    "extension degree for this backend"
                )),
                "{name}: header says x6"
            );
        }
    }
}

/// The proven-100 presets' fields at their preset parameters: 100 bits by list decoding, and
/// the same parameters over the default field fall short of it.
#[test]
fn list_decoding_reaches_100_bits_only_with_the_larger_field() {
    let policy = Policy {
        regime: Regime::ProvenList,
        min_security_bits: 100,
        ..Policy::default()
    };
    let two_adic = |log_blowup, num_queries| ProofParams {
        log_blowup,
        num_queries,
        pow_bits: 24,
        log_fold_arity: 4,
        log_final_poly_len: 2,
    };
    for (prover, verifier, ext, small, params) in [
        (
            &P3BabyBearProver as &dyn Prover,
            &P3BabyBearVerifier as &dyn Verifier,
            5,
            4,
            two_adic(5, 33),
        ),
        (
            &P3GoldilocksProver,
            &P3GoldilocksVerifier,
            3,
            2,
            two_adic(8, 20),
        ),
    ] {
        let bytes = prove(prover, ext, 10, params, HashId::Blake3_256);
        let ok = verify(verifier, &bytes, None, &policy).expect("proven-list 100");
        assert!(ok.security_bits >= 100);
        let bytes = prove(prover, small, 10, params, HashId::Blake3_256);
        assert!(matches!(
            verify(verifier, &bytes, None, &policy),
            Err(VerifyError::InsufficientSecurity { required: 100, .. })
        ));
    }
}

mod m31_sextic {
    use std::sync::{Arc, Mutex};

    use p3_challenger::{HashChallenger, SerializingChallenger32};
    use p3_commit::ExtensionMmcs;
    use p3_field::extension::Complex;
    use p3_field::{BasedVectorSpace, ExtensionField, Field, PrimeCharacteristicRing};
    use p3_fri::FriParameters;
    use p3_merkle_tree::MerkleTreeMmcs;
    use p3_mersenne_31::Mersenne31;
    use p3_symmetric::{CryptographicHasher, SerializingHasher};
    use p3_uni_stark::{Proof, StarkConfig};
    use picostark_air::fibonacci::Fibonacci;
    use picostark_core::proof_file::FIXED_HEADER_LEN;
    use picostark_core::{verify, HashId, Policy, ProofFile, ProofParams, Regime};
    use picostark_core::{Verifier, VerifyError};
    use picostark_plonky3::config::{self, M31Sextic};
    use picostark_plonky3::hash::{Blake3Lean, Blake3LeanCompress};
    use picostark_plonky3::lean::circle;
    use picostark_plonky3::m31_sextic::CUBIC_NONRESIDUE;
    use picostark_plonky3::{P3Air, P3M31Prover, P3M31Verifier, UPSTREAM_CIRCLE_PARAMS};

    use super::{prove, EXT_AT};

    type F = Mersenne31;
    const P: u64 = (1 << 31) - 1;

    /// The coefficients over Mersenne-31 (every field is also a 1-dimensional space over
    /// itself, hence the explicit trait).
    fn coeffs(x: &M31Sextic) -> &[F] {
        <M31Sextic as BasedVectorSpace<F>>::as_basis_coefficients_slice(x)
    }

    fn from_coeffs(f: impl FnMut(usize) -> F) -> M31Sextic {
        <M31Sextic as BasedVectorSpace<F>>::from_basis_coefficients_fn(f)
    }

    /// splitmix64: reproducible pseudo-random field elements without a dependency.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }
        fn base(&mut self) -> F {
            F::from_u64(self.next() % P)
        }
        fn ext(&mut self) -> M31Sextic {
            from_coeffs(|_| self.base())
        }
    }

    /// Schoolbook product on the basis `i^a u^b` (a < 2, b < 3, index 2b + a), with
    /// `i^2 = -1` and `u^3 = 5`: an independent reference for the Karatsuba tower product.
    fn reference_mul(x: M31Sextic, y: M31Sextic) -> M31Sextic {
        let (x, y) = (coeffs(&x), coeffs(&y));
        let mut out = [F::ZERO; 6];
        for (j, &xj) in x.iter().enumerate() {
            for (k, &yk) in y.iter().enumerate() {
                let (ia, ub) = (j % 2 + k % 2, j / 2 + k / 2);
                let mut t = xj * yk;
                if ia == 2 {
                    t = -t;
                }
                if ub >= 3 {
                    t *= F::from_u32(CUBIC_NONRESIDUE);
                }
                out[2 * (ub % 3) + ia % 2] += t;
            }
        }
        M31Sextic::new(out)
    }

    #[test]
    fn field_laws_hold_on_random_elements() {
        let mut rng = Rng(7);
        assert!(M31Sextic::ZERO.try_inverse().is_none());
        for _ in 0..2000 {
            let (a, b, c) = (rng.ext(), rng.ext(), rng.ext());
            let s = rng.base();
            assert_eq!(a * b, reference_mul(a, b));
            assert_eq!(a * b, b * a);
            assert_eq!((a * b) * c, a * (b * c));
            assert_eq!(a * (b + c), a * b + a * c);
            assert_eq!(a.square(), a * a);
            assert_eq!(a - b + b, a);
            assert_eq!(-a + a, M31Sextic::ZERO);
            assert_eq!(a.halve().double(), a);
            let inv = a.inverse();
            assert_eq!(a * inv, M31Sextic::ONE);
            assert_eq!((a * b) / a, b);
            // The base field acts as the embedding does.
            assert_eq!(a * s, a * M31Sextic::from(s));
            assert_eq!(a + s, a + M31Sextic::from(s));
            assert_eq!(a - s, a - M31Sextic::from(s));
            assert_eq!(ExtensionField::<F>::as_base(&M31Sextic::from(s)), Some(s));
            assert_eq!(a.exp_u64(3), a * a * a);
        }
        // Not in the base field: i and u.
        let i = from_coeffs(|k| F::from_bool(k == 1));
        let u = from_coeffs(|k| F::from_bool(k == 2));
        assert_eq!(i.square(), M31Sextic::NEG_ONE);
        assert_eq!(u.cube(), M31Sextic::from(F::from_u32(CUBIC_NONRESIDUE)));
        assert_eq!(ExtensionField::<F>::as_base(&u), None);
        // Coefficients in and out.
        let a = rng.ext();
        let v = coeffs(&a).to_vec();
        type V = M31Sextic;
        assert_eq!(
            <V as BasedVectorSpace<F>>::from_basis_coefficients_slice(&v),
            Some(a)
        );
        assert_eq!(
            <V as BasedVectorSpace<F>>::from_basis_coefficients_slice(&v[..5]),
            None
        );
        let seven: Vec<F> = v.iter().copied().chain([F::ONE]).collect();
        assert_eq!(
            <V as BasedVectorSpace<F>>::from_basis_coefficients_iter(seven.into_iter()),
            None
        );
    }

    /// `u^3 - 5` is irreducible over CM31 (a binomial `x^3 - w` of prime degree 3, with
    /// `3 | |CM31^*|`, is irreducible exactly when `w` is not a cube), so the tower is a field.
    #[test]
    fn the_cubic_layer_is_irreducible() {
        let w = F::from_u32(CUBIC_NONRESIDUE);
        assert_ne!(w.exp_u64((P - 1) / 3), F::ONE, "5 is not a cube in F_p");
        let w2 = Complex::<F>::from(w);
        assert_ne!(
            w2.exp_u64((P * P - 1) / 3),
            Complex::<F>::ONE,
            "nor in CM31"
        );
        // And a cube that is one: 3.
        assert_eq!(F::from_u32(3).exp_u64((P - 1) / 3), F::ONE);
    }

    /// Little-endian 64-bit limbs times a small factor.
    fn mul_small(x: &mut [u64; 4], k: u64) {
        let mut carry = 0u128;
        for limb in x.iter_mut() {
            let t = u128::from(*limb) * u128::from(k) + carry;
            *limb = t as u64;
            carry = t >> 64;
        }
        assert_eq!(carry, 0);
    }

    fn pow_limbs(g: M31Sextic, e: &[u64; 4]) -> M31Sextic {
        let mut r = M31Sextic::ONE;
        for limb in e.iter().rev() {
            for bit in (0..64).rev() {
                r = r.square();
                if limb >> bit & 1 == 1 {
                    r *= g;
                }
            }
        }
        r
    }

    /// `GENERATOR` has order `p^6 - 1`: `g^((p^6 - 1) / q) != 1` for every prime `q` dividing
    /// it (the factorisation is checked to multiply out, each factor to be prime).
    #[test]
    fn the_generator_generates() {
        let factors: [(u64, u32); 14] = [
            (2, 32),
            (3, 3),
            (7, 1),
            (11, 1),
            (13, 1),
            (31, 1),
            (43, 2),
            (79, 1),
            (151, 1),
            (331, 1),
            (1381, 1),
            (529_510_939, 1),
            (1_758_566_101, 1),
            (2_903_110_321, 1),
        ];
        for (q, _) in factors {
            assert!((2..).take_while(|d| d * d <= q).all(|d| q % d != 0), "{q}");
        }
        let product = |skip: Option<u64>| {
            let mut x = [1, 0, 0, 0];
            for (q, e) in factors {
                for _ in 0..e - u32::from(skip == Some(q)) {
                    mul_small(&mut x, q);
                }
            }
            x
        };
        // p^6 - 1, limb by limb.
        let mut order = [1, 0, 0, 0];
        for _ in 0..6 {
            mul_small(&mut order, P);
        }
        order[0] -= 1;
        assert_eq!(product(None), order);
        let g = M31Sextic::GENERATOR;
        assert_eq!(pow_limbs(g, &order), M31Sextic::ONE);
        for (q, _) in factors {
            assert_ne!(pow_limbs(g, &product(Some(q))), M31Sextic::ONE, "{q}");
        }
    }

    /// Postcard writes the six base coefficients in basis order, 4 bytes each (as upstream's
    /// extension fields do), and refuses a non-canonical coefficient or a short input.
    #[test]
    fn wire_form_is_six_canonical_base_elements() {
        let mut rng = Rng(11);
        let a = rng.ext();
        let bytes = postcard::to_allocvec(&a).unwrap();
        let want: Vec<u8> = coeffs(&a)
            .iter()
            .flat_map(|c| postcard::to_allocvec(c).unwrap())
            .collect();
        assert_eq!(bytes.len(), 24);
        assert_eq!(bytes, want);
        assert_eq!(postcard::from_bytes::<M31Sextic>(&bytes).unwrap(), a);
        for k in 0..6 {
            for bad in [P as u32, u32::MAX] {
                let mut t = bytes.clone();
                t[4 * k..4 * k + 4].copy_from_slice(&bad.to_le_bytes());
                assert!(postcard::from_bytes::<M31Sextic>(&t).is_err(), "{k} {bad}");
            }
        }
        assert!(postcard::from_bytes::<M31Sextic>(&bytes[..23]).is_err());
    }

    /// Whether the lean path takes it, its verdict and the stock verdict.
    fn verdicts(bytes: &[u8]) -> (bool, bool, bool) {
        let Ok(file) = ProofFile::parse(bytes) else {
            return (false, false, false);
        };
        let took = P3M31Verifier.check_supported(&file.header).is_ok()
            && circle::within_bounds::<M31Sextic, picostark_airs::Builtins>(&file);
        let lean = P3M31Verifier.verify_payload(&file).is_ok();
        let stock = P3M31Verifier.verify_payload_stock(&file).is_ok();
        (took, lean, stock)
    }

    #[test]
    fn p3_m31_sextic_proofs_verify_lean_and_stock_and_tampering_is_rejected_by_both() {
        let policy = Policy::default();
        for hash in [HashId::Blake3_256, HashId::Sha256] {
            let bytes = prove(&P3M31Prover, 6, 8, UPSTREAM_CIRCLE_PARAMS, hash);
            assert!(
                verify(&P3M31Verifier, &bytes, None, &policy).is_ok(),
                "{hash}"
            );
            assert_eq!(verdicts(&bytes), (true, true, true), "{hash}");
            // Payload bytes spread over the whole proof, each flipped.
            let start = bytes.len() - ProofFile::parse(&bytes).unwrap().payload.len();
            let step = (bytes.len() - start) / 97;
            for at in (start..bytes.len()).step_by(step) {
                let mut t = bytes.clone();
                t[at] ^= 0x21;
                let (took, lean, stock) = verdicts(&t);
                assert!(took && !lean && !stock, "{hash}: byte {at}: {lean} {stock}");
            }
            // A wrong public input.
            let mut t = bytes.clone();
            t[FIXED_HEADER_LEN] ^= 1;
            assert_eq!(verdicts(&t), (true, false, false), "{hash}: public input");
            assert!(verify(&P3M31Verifier, &t, None, &policy).is_err());
            // Relabelled as QM31 or the cubic: rejected; as a degree it lacks: unsupported.
            for other in [3, 4] {
                let mut t = bytes.clone();
                t[EXT_AT] = other;
                assert!(
                    verify(&P3M31Verifier, &t, None, &policy).is_err(),
                    "x{other}"
                );
            }
            let mut t = bytes.clone();
            t[EXT_AT] = 5;
            assert_eq!(
                verify(&P3M31Verifier, &t, None, &policy),
                Err(VerifyError::Unsupported(
                    "extension degree for this backend"
                ))
            );
        }
    }

    /// A byte hash that records every input (each challenger flush: all it absorbed).
    #[derive(Clone)]
    struct Recording(Arc<Mutex<Vec<Vec<u8>>>>);

    impl CryptographicHasher<u8, [u8; 32]> for Recording {
        fn hash_iter<I: IntoIterator<Item = u8>>(&self, input: I) -> [u8; 32] {
            let bytes: Vec<u8> = input.into_iter().collect();
            let out = Blake3Lean.hash_slice(&bytes);
            self.0.lock().unwrap().push(bytes);
            out
        }
    }

    type Log = Arc<Mutex<Vec<Vec<u8>>>>;
    type Challenger = SerializingChallenger32<F, HashChallenger<u8, Recording, 32>>;
    type ValMmcs = MerkleTreeMmcs<F, u8, SerializingHasher<Blake3Lean>, Blake3LeanCompress, 2, 32>;
    type RecordingConfig = StarkConfig<
        p3_circle::CirclePcs<F, ValMmcs, ExtensionMmcs<F, M31Sextic, ValMmcs>>,
        M31Sextic,
        Challenger,
    >;

    /// Everything each verifier's challenger hashed (so every challenge it drew), and the
    /// verdicts: upstream's, then the lean one's.
    fn transcripts(bytes: &[u8]) -> (Vec<Vec<u8>>, Vec<Vec<u8>>, bool, bool) {
        let file = ProofFile::parse(bytes).unwrap();
        let p = &file.header.params;
        let challenger = |log: &Log| {
            Challenger::new(HashChallenger::new(
                file.statement_bytes.to_vec(),
                Recording(log.clone()),
            ))
        };
        let (up_log, lean_log): (Log, Log) = Default::default();
        let mmcs = ValMmcs::new(SerializingHasher::new(Blake3Lean), Blake3LeanCompress, 0);
        let fri = FriParameters {
            log_blowup: p.log_blowup.into(),
            log_final_poly_len: 0,
            max_log_arity: 1,
            num_queries: p.num_queries.into(),
            batch_proof_of_work_bits: 0,
            commit_proof_of_work_bits: 0,
            query_proof_of_work_bits: p.pow_bits.into(),
            mmcs: ExtensionMmcs::new(mmcs),
        };
        let config: RecordingConfig =
            StarkConfig::new(p3_circle::CirclePcs::new(mmcs, fri), challenger(&up_log));
        let proof: Proof<RecordingConfig> = postcard::from_bytes(file.payload).unwrap();
        let public: Vec<F> = file.public_inputs.iter().map(F::from_u64).collect();
        let up_ok = p3_uni_stark::verify(&config, &P3Air(Fibonacci), &proof, &public).is_ok();
        let inputs: Vec<u64> = file.public_inputs.iter().collect();
        let lean_ok = picostark_plonky3::lean::uni_stark::verify::<F, M31Sextic, _, _, _>(
            &circle::circle_pcs(&file, config::VERIFIER_HASH),
            &Fibonacci,
            challenger(&lean_log),
            usize::from(file.header.log_n),
            &inputs,
            file.payload,
        )
        .is_ok();
        let up = up_log.lock().unwrap().clone();
        let lean = lean_log.lock().unwrap().clone();
        (up, lean, up_ok, lean_ok)
    }

    #[test]
    fn the_lean_verifier_draws_every_challenge_upstream_draws() {
        let bytes = prove(
            &P3M31Prover,
            6,
            10,
            UPSTREAM_CIRCLE_PARAMS,
            HashId::Blake3_256,
        );
        let (up, lean, up_ok, lean_ok) = transcripts(&bytes);
        assert!(up_ok && lean_ok, "{up_ok} {lean_ok}");
        assert!(up.len() > 10, "{} flushes", up.len());
        assert_eq!(up, lean);
        // A different public input changes the very first flush.
        let mut other = bytes.clone();
        other[FIXED_HEADER_LEN] ^= 1;
        let (up2, lean2, _, lean2_ok) = transcripts(&other);
        assert!(!lean2_ok);
        assert_eq!(up2[0], lean2[0]);
        assert_ne!(up2[0], up[0]);
    }

    /// `prover-host --preset proven100`'s p3-m31 configuration (blowup 256, 20 queries, 24
    /// PoW bits) reaches 100 bits by list decoding over the sextic and verifies under that
    /// policy; the same parameters over QM31 fall short.
    #[test]
    fn list_decoding_reaches_100_bits_with_the_sextic() {
        let policy = Policy {
            regime: Regime::ProvenList,
            min_security_bits: 100,
            ..Policy::default()
        };
        let params = ProofParams {
            log_blowup: 8,
            num_queries: 20,
            pow_bits: 24,
            log_fold_arity: 1,
            log_final_poly_len: 0,
        };
        let bytes = prove(&P3M31Prover, 6, 10, params, HashId::Blake3_256);
        let ok = verify(&P3M31Verifier, &bytes, None, &policy).expect("proven-list 100");
        assert!(ok.security_bits >= 100, "{}", ok.security_bits);
        assert_eq!(verdicts(&bytes), (true, true, true));
        let bytes = prove(&P3M31Prover, 4, 10, params, HashId::Blake3_256);
        assert!(matches!(
            verify(&P3M31Verifier, &bytes, None, &policy),
            Err(VerifyError::InsufficientSecurity { required: 100, .. })
        ));
    }
}

//! `picostark_core::security` against Plonky3 0.8, which defines regime (c): for every
//! backend and AIR, the AIR shape the core assumes must be the one
//! `p3_uni_stark::StarkSecurityParams::from_air` derives, and on a grid of parameters the
//! core's integer figure must equal `ConjecturedSecurity::compute_from_params`.

use p3_air::symbolic::AirLayout;
use p3_baby_bear::BabyBear;
use p3_circle::CircleDomain;
use p3_commit::PolynomialSpace;
use p3_field::coset::TwoAdicMultiplicativeCoset;
use p3_field::extension::BinomialExtensionField;
use p3_field::{BasedVectorSpace, ExtensionField, Field, PrimeCharacteristicRing, PrimeField64};
use p3_fri::FriParameters;
use p3_goldilocks::Goldilocks;
use p3_mersenne_31::{Mersenne31, QM31};
use p3_uni_stark::{
    ConjecturedSecurity, GrindingSites, OpeningShape, ProvenSecurity, StarkSecurityParams,
};
use picostark_air::chain16::CubicChain16;
use picostark_air::fibonacci::Fibonacci;
use picostark_air::AirDef;
use picostark_core::security::AirShape;
use picostark_core::{Domain, FieldId};

/// A built-in AIR's figure in one regime (every header here names one).
fn bits(h: &ProofHeader, regime: Regime) -> u32 {
    picostark_airs::bits(h, regime).expect("a built-in AIR")
}

/// A built-in AIR's shape.
fn shape_by_id(air: AirId, field: FieldId, domain: Domain) -> AirShape {
    picostark_airs::shape_by_id(air, field, domain).expect("a built-in AIR")
}
use picostark_core::security::Regime;
use picostark_core::{AirId, BackendId, HashId, ProofHeader, ProofParams};
use picostark_plonky3::config::{
    BabyBear4, BabyBear5, BabyBear8, Goldilocks2, Goldilocks3, Goldilocks5,
};
use picostark_plonky3::membership::MembershipOf;
use picostark_plonky3::P3Air;

/// Plonky3's security parameters for one of our AIRs at these FRI parameters.
fn stark_params<F, EF, A>(
    air: A,
    p: &ProofParams,
    domain: impl PolynomialSpace<Val = F>,
    openings: OpeningShape,
) -> StarkSecurityParams
where
    F: Field + PrimeField64,
    EF: ExtensionField<F>,
    A: AirDef,
{
    let fri = FriParameters {
        log_blowup: p.log_blowup.into(),
        log_final_poly_len: p.log_final_poly_len.into(),
        max_log_arity: p.log_fold_arity.into(),
        num_queries: p.num_queries.into(),
        batch_proof_of_work_bits: 0,
        commit_proof_of_work_bits: 0,
        query_proof_of_work_bits: p.pow_bits.into(),
        mmcs: (),
    };
    let air = P3Air(air);
    // The challenge field's bits as Plonky3's own tests count them (124 for BabyBear^4).
    let num_modulus_bits =
        (64 - F::ORDER_U64.leading_zeros() as usize) * <EF as BasedVectorSpace<F>>::DIMENSION;
    StarkSecurityParams::from_air::<F, EF, _>(
        fri.security_regime(),
        &air,
        AirLayout::from_air::<F>(&air),
        domain,
        num_modulus_bits,
        128,
        2,
        openings,
        GrindingSites::NONE,
    )
}

/// Plonky3's parameters for a backend, AIR and trace length.
fn library(
    backend: BackendId,
    ext: u8,
    air: AirId,
    log_n: u8,
    p: &ProofParams,
) -> StarkSecurityParams {
    let n = usize::from(log_n);
    macro_rules! with_air {
        ($f:ty, $ef:ty, $domain:expr, $open:expr) => {
            match air {
                AirId::Fibonacci => stark_params::<$f, $ef, _>(Fibonacci, p, $domain, $open),
                AirId::CubicChain16 => stark_params::<$f, $ef, _>(CubicChain16, p, $domain, $open),
                AirId::Membership => {
                    stark_params::<$f, $ef, _>(MembershipOf::<$f>::default(), p, $domain, $open)
                }
                AirId::Custom(_) => unreachable!("built-in AIRs only"),
            }
        };
    }
    let two_adic = OpeningShape::TwoAdic;
    let bb = || TwoAdicMultiplicativeCoset::new(BabyBear::ONE, n).unwrap();
    let gl = || TwoAdicMultiplicativeCoset::new(Goldilocks::ONE, n).unwrap();
    match (backend, ext) {
        (BackendId::P3BabyBear, 4) => with_air!(BabyBear, BabyBear4, bb(), two_adic),
        (BackendId::P3BabyBear, 5) => with_air!(BabyBear, BabyBear5, bb(), two_adic),
        (BackendId::P3BabyBear, _) => with_air!(BabyBear, BabyBear8, bb(), two_adic),
        (BackendId::P3Goldilocks, 2) => with_air!(Goldilocks, Goldilocks2, gl(), two_adic),
        (BackendId::P3Goldilocks, 3) => with_air!(Goldilocks, Goldilocks3, gl(), two_adic),
        (BackendId::P3Goldilocks, _) => with_air!(Goldilocks, Goldilocks5, gl(), two_adic),
        (BackendId::P3M31, 6) => with_air!(
            Mersenne31,
            picostark_plonky3::config::M31Sextic,
            CircleDomain::<Mersenne31>::standard(n),
            OpeningShape::Circle
        ),
        (_, 4) => with_air!(
            Mersenne31,
            QM31,
            CircleDomain::<Mersenne31>::standard(n),
            OpeningShape::Circle
        ),
        _ => with_air!(
            Mersenne31,
            BinomialExtensionField<Mersenne31, 3>,
            CircleDomain::<Mersenne31>::standard(n),
            OpeningShape::Circle
        ),
    }
}

fn header(backend: BackendId, ext: u8, air: AirId, log_n: u8, params: ProofParams) -> ProofHeader {
    ProofHeader {
        backend,
        field: backend.field(),
        extension_degree: ext,
        hash: HashId::Blake3_256,
        air,
        log_n,
        params,
    }
}

/// Every challenge field the backends verify: the defaults first, then the larger fields of
/// the proven-security track.
const BACKENDS: [(BackendId, u8); 8] = [
    (BackendId::P3BabyBear, 4),
    (BackendId::P3Goldilocks, 2),
    (BackendId::P3M31, 4),
    (BackendId::P3M31, 3),
    (BackendId::P3BabyBear, 5),
    (BackendId::P3BabyBear, 8),
    (BackendId::P3Goldilocks, 3),
    (BackendId::P3Goldilocks, 5),
];

#[test]
fn air_shapes_are_plonky3s() {
    let p = picostark_plonky3::DEFAULT_PARAMS_TWO_ADIC;
    for (backend, ext) in BACKENDS {
        for air in [AirId::Fibonacci, AirId::CubicChain16, AirId::Membership] {
            let lib = library(backend, ext, air, 10, &p);
            let shape = shape_by_id(air, backend.field(), backend.domain());
            assert_eq!(lib.num_constraints, shape.num_constraints as usize, "{air}");
            assert_eq!(
                lib.air_max_constraint_degree, shape.max_constraint_degree as usize,
                "{air}"
            );
            assert_eq!(
                lib.num_quotient_chunks, shape.num_quotient_chunks as usize,
                "{air}"
            );
            assert_eq!(
                lib.num_batched_functions,
                shape.num_batched_functions(ext, backend == BackendId::P3M31) as usize,
                "{backend} x{ext} {air}"
            );
        }
    }
}

#[test]
fn conjectured_security_matches_plonky3_on_a_grid() {
    let mut points = 0;
    let mut best = 0;
    for (backend, ext) in BACKENDS {
        for air in [AirId::Fibonacci, AirId::CubicChain16] {
            for log_n in [3u8, 6, 10, 13, 16, 20] {
                for log_blowup in 1..=12u8 {
                    // Plonky3 needs the quotient to fit the LDE (degree <= blowup + 1).
                    let degree =
                        shape_by_id(air, backend.field(), backend.domain()).max_constraint_degree;
                    if log_n + log_blowup > 27 || degree > (1 << log_blowup) + 1 {
                        continue;
                    }
                    for num_queries in [4u16, 13, 14, 27, 50, 100, 200] {
                        for pow_bits in [0u8, 16, 20, 30] {
                            let i = usize::from(log_n + log_blowup) + usize::from(num_queries);
                            // Every arity 2..=16 and final length 1..=4 for both PCS
                            // families: the circle's WideCirclePcs (issue 25) takes them too.
                            let p = ProofParams {
                                log_blowup,
                                num_queries,
                                pow_bits,
                                log_fold_arity: 1 + (i % 4) as u8,
                                log_final_poly_len: (i / 4 % 3) as u8,
                            };
                            let lib = library(backend, ext, air, log_n, &p);
                            let want = ConjecturedSecurity::compute_from_params(&lib, log_n.into())
                                .security_bits as u32;
                            let got = bits(&header(backend, ext, air, log_n, p), Regime::Plonky3);
                            assert_eq!(got, want, "{backend} x{ext} {air} n=2^{log_n} {p}");
                            best = best.max(want);
                            points += 1;
                        }
                    }
                }
            }
        }
    }
    assert!(points > 5000, "{points}");
    assert!(best >= 120, "{best}");
}

/// The membership AIR (wide, degree 7 or 5) on a small grid: its shape enters the formula
/// through the batched functions and the quotient chunks.
#[test]
fn conjectured_security_matches_plonky3_for_membership() {
    let air = AirId::Membership;
    let mut points = 0;
    for (backend, ext) in BACKENDS {
        let circle = backend == BackendId::P3M31;
        for log_n in [4u8, 10] {
            for (log_blowup, num_queries) in [(3u8, 27u16), (3, 50), (4, 20)] {
                let p = ProofParams {
                    log_blowup,
                    num_queries,
                    pow_bits: 16,
                    log_fold_arity: if circle { 1 } else { 2 },
                    log_final_poly_len: if circle { 0 } else { 1 },
                };
                let lib = library(backend, ext, air, log_n, &p);
                let want = ConjecturedSecurity::compute_from_params(&lib, log_n.into())
                    .security_bits as u32;
                // Ours is the library's figure capped by the statement's Poseidon2.
                let cap = shape_by_id(air, backend.field(), backend.domain()).statement_hash;
                let want = want.min(cap.expect("membership hashes").bits);
                let got = bits(&header(backend, ext, air, log_n, p), Regime::Plonky3);
                assert_eq!(got, want, "{backend} x{ext} n=2^{log_n} {p}");
                points += 1;
            }
        }
    }
    assert_eq!(points, 48);
}

/// The proven figures the core reports are winterfell's analysis (2024/1553); Plonky3's own
/// (`ProvenSecurity`, with the Johnson-bound line MCA of 2026/2056) may differ. Both must
/// agree that the default parameters are far from proven 95 bits, so that nobody reads the
/// conjectured figure as a proven one.
#[test]
fn default_parameters_are_not_proven_secure_in_either_analysis() {
    for (backend, ext) in BACKENDS.into_iter().take(3) {
        let p = if backend == BackendId::P3M31 {
            picostark_plonky3::DEFAULT_PARAMS_CIRCLE
        } else {
            picostark_plonky3::DEFAULT_PARAMS_TWO_ADIC
        };
        let lib = library(backend, ext, AirId::Fibonacci, 10, &p);
        let theirs = ProvenSecurity::compute_from_proof(10, &lib).security_bits() as u32;
        let ours = bits(
            &header(backend, ext, AirId::Fibonacci, 10, p),
            Regime::Proven,
        );
        assert!(theirs < 95 && ours < 95, "{backend}: {theirs} {ours}");
    }
}

/// The proven-100 configurations of the Plonky3 backends at Fib-1024 under both proven
/// analyses: the unique-decoding one over the default field (blowup 128, 77 queries, 24 PoW
/// bits) and the list-decoding ones over the larger fields (the presets of p3-babybear,
/// p3-goldilocks and p3-m31 (the sextic, circle openings), and BabyBear^8 and Goldilocks^5 at
/// the fewest queries). The core's figure (winterfell's analysis) is 100 or
/// more; Plonky3's own `ProvenSecurity` is printed for `results/proven/README.md` and must
/// agree that it reaches 100.
#[test]
fn proven100_configurations_under_plonky3s_own_analysis() {
    let params = |log_blowup, num_queries, log_fold_arity, log_final_poly_len| ProofParams {
        log_blowup,
        num_queries,
        pow_bits: 24,
        log_fold_arity,
        log_final_poly_len,
    };
    for (backend, ext, p, regime) in [
        (
            BackendId::P3BabyBear,
            4,
            params(7, 77, 4, 2),
            Regime::ProvenUnique,
        ),
        (
            BackendId::P3Goldilocks,
            2,
            params(7, 77, 4, 2),
            Regime::ProvenUnique,
        ),
        (
            BackendId::P3M31,
            4,
            params(7, 77, 1, 0),
            Regime::ProvenUnique,
        ),
        (
            BackendId::P3BabyBear,
            5,
            params(5, 33, 4, 2),
            Regime::ProvenList,
        ),
        (
            BackendId::P3BabyBear,
            8,
            params(7, 22, 4, 2),
            Regime::ProvenList,
        ),
        (
            BackendId::P3Goldilocks,
            3,
            params(8, 20, 4, 2),
            Regime::ProvenList,
        ),
        (
            BackendId::P3Goldilocks,
            5,
            params(7, 22, 4, 2),
            Regime::ProvenList,
        ),
        (BackendId::P3M31, 6, params(8, 20, 1, 0), Regime::ProvenList),
        // Our WideCirclePcs (issue 25): the sextic folding lines by 16 with a 4-coefficient
        // final polynomial, and QM31 the same way under unique decoding.
        (BackendId::P3M31, 6, params(8, 20, 4, 2), Regime::ProvenList),
        (
            BackendId::P3M31,
            4,
            params(7, 77, 4, 2),
            Regime::ProvenUnique,
        ),
    ] {
        let h = header(backend, ext, AirId::Fibonacci, 10, p);
        assert!(bits(&h, regime) >= 100, "{backend} x{ext}");
        let lib = library(backend, ext, AirId::Fibonacci, 10, &p);
        let theirs = ProvenSecurity::compute_from_proof(10, &lib);
        println!(
            "{backend} x{ext} {p}: Plonky3 ProvenSecurity unique {} list {}; core unique {} list {}",
            theirs.unique_decoding_bits,
            theirs.list_decoding_bits,
            bits(&h, Regime::ProvenUnique),
            bits(&h, Regime::ProvenList)
        );
        assert!(theirs.security_bits() >= 100, "{backend} x{ext}");
    }
}

/// Below the larger fields, list decoding cannot reach 100 bits at any blowup, query count or
/// grinding the Plonky3 backends take (the field terms bind): why the default fields' proven
/// configurations use unique decoding.
#[test]
fn default_fields_cannot_reach_100_bits_by_list_decoding() {
    for (backend, ext) in BACKENDS.into_iter().take(3) {
        for log_blowup in 1..=8u8 {
            let p = ProofParams {
                log_blowup,
                num_queries: 255,
                pow_bits: 30,
                log_fold_arity: 1,
                log_final_poly_len: 0,
            };
            let h = header(backend, ext, AirId::Fibonacci, 10, p);
            assert!(bits(&h, Regime::ProvenList) < 100, "{backend} x{ext} {p}");
        }
    }
}

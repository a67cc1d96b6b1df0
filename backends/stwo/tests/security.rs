//! stwo-m31's default parameters under the five regimes of `core/src/security.rs`, beside
//! stwo's own figure (`PcsConfig::security_bits`: `log_blowup * queries + pow_bits`, which
//! counts neither the field nor the batching).

use picostark_core::proof_file::ProofParams;
use picostark_core::{AirId, BackendId, FieldId, HashId, ProofHeader, Regime};
use picostark_stwo::{lifting_log_size, pcs_config, DEFAULT_PARAMS, EXTENSION_DEGREE};

fn fib(log_n: u8, params: ProofParams) -> ProofHeader {
    ProofHeader {
        backend: BackendId::StwoM31,
        field: FieldId::Mersenne31,
        extension_degree: EXTENSION_DEGREE,
        hash: HashId::Blake2s256,
        air: AirId::Fibonacci,
        log_n,
        params,
    }
}

/// stwo's own figure for a header.
fn stwo_bits(h: &ProofHeader) -> u32 {
    pcs_config(
        &h.params,
        lifting_log_size(u32::from(h.log_n) + 1, h.params.log_blowup),
    )
    .security_bits()
}

#[test]
fn defaults_reach_95_bits_in_the_strictest_regime_at_every_supported_n() {
    for log_n in 3..=picostark_stwo::MAX_LOG_N {
        let h = fib(log_n, DEFAULT_PARAMS);
        let f = picostark_airs::figures(&h).unwrap();
        let strictest = f.get(Regime::Strictest);
        assert!(strictest >= 95, "n = 2^{log_n}: {f:?}");
        // stwo's own figure is never below the strictest of ours: it ignores the field.
        assert!(stwo_bits(&h) >= strictest, "n = 2^{log_n}");
    }
}

/// The five figures at Fib 2^10 with the defaults, and stwo's: a record of what the
/// estimator says (each formula is tested against its library in the other backends).
#[test]
fn fib_1024_figures_beside_stwos_own() {
    let h = fib(10, DEFAULT_PARAMS);
    let f = picostark_airs::figures(&h).unwrap();
    eprintln!(
        "stwo-m31 Fib-1024 defaults ({}): ethSTARK {} / winterfell {} / Plonky3 {} / \
         proven unique {} / proven list {}; stwo's own {}",
        h.params,
        f.ethstark,
        f.winterfell,
        f.plonky3,
        f.proven_unique,
        f.proven_list,
        stwo_bits(&h)
    );
    // q * b + g = 28 * 3 + 16.
    assert_eq!(stwo_bits(&h), 100);
    assert_eq!(f.ethstark, 99);
    assert_eq!(f.winterfell, 99);
    assert!(f.plonky3 >= 95 && f.plonky3 < 100, "{f:?}");
    assert!(f.proven_unique < f.get(Regime::Strictest));
    // Fewer queries fall below the policy: the estimate answers to the parameters.
    let weak = fib(
        10,
        ProofParams {
            num_queries: 20,
            ..DEFAULT_PARAMS
        },
    );
    assert!(
        picostark_airs::figures(&weak)
            .unwrap()
            .get(Regime::Strictest)
            < 95
    );
}

/// chain16 and membership as stwo proves them (degree-reduced: more columns, more
/// constraints, degree 3 counted with the selector), at the defaults: at least 95 bits in
/// the strictest regime, and the reduced shape is the one counted.
#[test]
fn reduced_airs_reach_95_bits_at_the_defaults() {
    for (air, log_n) in [(AirId::CubicChain16, 10), (AirId::Membership, 4)] {
        let h = ProofHeader {
            air,
            ..fib(log_n, DEFAULT_PARAMS)
        };
        let shape = picostark_airs::shape_of(&h).unwrap();
        let written =
            picostark_airs::shape_by_id(air, FieldId::Mersenne31, h.backend.domain()).unwrap();
        assert!(shape.width > written.width, "{air:?}: {shape:?}");
        let f = picostark_airs::figures(&h).unwrap();
        eprintln!(
            "stwo-m31 {air:?} n = 2^{log_n} (width {} reduced from {}): ethSTARK {} / \
             winterfell {} / Plonky3 {} / proven unique {} / proven list {}; strictest {}",
            shape.width,
            written.width,
            f.ethstark,
            f.winterfell,
            f.plonky3,
            f.proven_unique,
            f.proven_list,
            f.get(Regime::Strictest)
        );
        assert!(f.get(Regime::Strictest) >= 95, "{air:?}: {f:?}");
    }
}

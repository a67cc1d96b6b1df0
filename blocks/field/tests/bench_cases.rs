//! The field micro-benchmark computes what it names (issue 44 item 2): every chain of
//! `picostark_field::bench` equals the same operations done one at a time, ours equal
//! p3-field 0.8's on the same inputs where the representations coincide (and winterfell's
//! Goldilocks equals p3's), and every field's inverse, square, `1/2` and fold step satisfy
//! their defining identities. Needs feature `bench-libraries`.

use p3_baby_bear::BabyBear as P3Bb;
use p3_field::extension::{BinomialExtensionField, Complex, CubicTrinomialExtensionField};
use p3_goldilocks::Goldilocks as P3Gl;
use p3_mersenne_31::Mersenne31 as P3M31;
use picostark_field::bench::{
    chain_fold, chain_inverse, chain_mul, chain_square, fold_inputs, fold_step, sample,
    BabyBear4Karatsuba, BenchExtension, BenchField, BenchInverse, GoldilocksLimbs,
    GoldilocksLimbs2, GoldilocksLimbs3, GoldilocksWide2, LIBRARIES, OURS, UNROLL,
};
use picostark_field::{BabyBear, BabyBear4, BabyBear5, M31Sextic, CM31, M31, QM31};
use winter_math::fields::f64::BaseElement as WfBase;
use winter_math::fields::{CubeExtension, QuadExtension};

type P3Qm31 = BinomialExtensionField<Complex<P3M31>, 2>;
type P3Bb4 = BinomialExtensionField<P3Bb, 4>;
type P3Bb5 = BinomialExtensionField<P3Bb, 5>;
type P3Gl2 = BinomialExtensionField<P3Gl, 2>;
type P3Gl3 = CubicTrinomialExtensionField<P3Gl>;

const K: u32 = 3;

fn c<F: BenchField>(x: F) -> [u64; 6] {
    x.coefficients()
}

/// The chains against the operations one at a time.
fn chains_step_by_step<F: BenchField>() {
    let (mut a, mut b) = (sample::<F>(1), sample::<F>(2));
    let got = chain_mul(a, b, K);
    for _ in 0..K * UNROLL {
        let p = a.product(b);
        a = b;
        b = p;
    }
    assert_eq!(c(got), c(b), "chain_mul");
    let mut x = sample::<F>(1);
    let got = chain_square(x, K);
    for _ in 0..K * UNROLL {
        x = x.product(x);
    }
    assert_eq!(c(got), c(x), "chain_square against products");
}

fn inverse_identities<F: BenchInverse>() {
    let one = F::from_coefficients([1, 0, 0, 0, 0, 0]);
    for seed in 1..20 {
        let x = sample::<F>(seed);
        assert_eq!(c(x.inverted().product(x)), c(one), "x * 1/x");
        assert_eq!(c(x.squared()), c(x.product(x)), "x^2");
    }
    let x = sample::<F>(1);
    let want = if K * UNROLL % 2 == 0 { x } else { x.inverted() };
    assert_eq!(c(chain_inverse(x, K)), c(want), "chain_inverse");
}

fn fold_identities<E: BenchExtension>() {
    let (e0, e1, beta, inv_x, half) = fold_inputs::<E>();
    // 1/2 is the half: (e0 + e0) / 2 = e0.
    assert_eq!(c(e0.plus(e0).times_base(half)), c(e0), "1/2");
    // The fold is linear in beta: fold(beta) - fold(0) = beta (e0 - e1) inv_x, and
    // fold(0) = (e0 + e1) / 2.
    let zero = E::from_coefficients([0; 6]);
    let f0 = fold_step(e0, e1, zero, inv_x, half);
    assert_eq!(c(f0.plus(f0)), c(e0.plus(e1)), "fold with beta = 0");
    let f = fold_step(e0, e1, beta, inv_x, half);
    let slope = beta.product(e0.minus(e1)).times_base(inv_x);
    assert_eq!(c(f.minus(f0)), c(slope), "fold slope");
    // The chain: (e0, e1) <- (e1, fold(e0, e1)).
    let (mut a, mut b) = (e0, e1);
    for _ in 0..K * UNROLL {
        let n = fold_step(a, b, beta, inv_x, half);
        a = b;
        b = n;
    }
    assert_eq!(
        c(chain_fold(e0, e1, beta, inv_x, half, K)),
        c(b),
        "chain_fold"
    );
}

/// Two implementations of one field in one basis give the same chains.
fn twins<A: BenchField, B: BenchField>() {
    for seed in 1..20 {
        let (x, y) = (sample::<A>(seed), sample::<B>(seed));
        assert_eq!(c(x), c(y), "same sample");
        let (x2, y2) = (sample::<A>(seed + 100), sample::<B>(seed + 100));
        assert_eq!(c(x.product(x2)), c(y.product(y2)), "product");
        assert_eq!(c(x.squared()), c(y.squared()), "square");
    }
    assert_eq!(
        c(chain_mul(sample::<A>(1), sample::<A>(2), K)),
        c(chain_mul(sample::<B>(1), sample::<B>(2), K))
    );
}

fn twin_inverses<A: BenchInverse, B: BenchInverse>() {
    assert_eq!(
        c(chain_inverse(sample::<A>(1), K)),
        c(chain_inverse(sample::<B>(1), K))
    );
}

fn twin_folds<A: BenchExtension, B: BenchExtension>() {
    let (a0, a1, ab, ax, ah) = fold_inputs::<A>();
    let (b0, b1, bb, bx, bh) = fold_inputs::<B>();
    assert_eq!(
        c(chain_fold(a0, a1, ab, ax, ah, K)),
        c(chain_fold(b0, b1, bb, bx, bh, K))
    );
}

#[test]
fn every_chain_equals_its_operations_one_at_a_time() {
    chains_step_by_step::<M31>();
    chains_step_by_step::<CM31>();
    chains_step_by_step::<QM31>();
    chains_step_by_step::<BabyBear>();
    chains_step_by_step::<BabyBear4>();
    chains_step_by_step::<BabyBear4Karatsuba>();
    chains_step_by_step::<GoldilocksLimbs>();
    chains_step_by_step::<GoldilocksLimbs2>();
    chains_step_by_step::<GoldilocksWide2>();
    chains_step_by_step::<GoldilocksLimbs3>();
    chains_step_by_step::<BabyBear5>();
    chains_step_by_step::<M31Sextic>();
    chains_step_by_step::<P3M31>();
    chains_step_by_step::<P3Qm31>();
    chains_step_by_step::<P3Bb>();
    chains_step_by_step::<P3Bb4>();
    chains_step_by_step::<P3Bb5>();
    chains_step_by_step::<P3Gl>();
    chains_step_by_step::<P3Gl2>();
    chains_step_by_step::<P3Gl3>();
    chains_step_by_step::<WfBase>();
    chains_step_by_step::<QuadExtension<WfBase>>();
    chains_step_by_step::<CubeExtension<WfBase>>();
}

#[test]
fn inverses_and_squares_satisfy_their_identities() {
    inverse_identities::<M31>();
    inverse_identities::<CM31>();
    inverse_identities::<QM31>();
    inverse_identities::<BabyBear>();
    inverse_identities::<BabyBear4>();
    inverse_identities::<BabyBear5>();
    inverse_identities::<M31Sextic>();
    inverse_identities::<GoldilocksLimbs>();
    inverse_identities::<GoldilocksLimbs2>();
    inverse_identities::<P3M31>();
    inverse_identities::<P3Qm31>();
    inverse_identities::<P3Bb>();
    inverse_identities::<P3Bb4>();
    inverse_identities::<P3Bb5>();
    inverse_identities::<P3Gl>();
    inverse_identities::<P3Gl2>();
    inverse_identities::<P3Gl3>();
    inverse_identities::<WfBase>();
    inverse_identities::<QuadExtension<WfBase>>();
    inverse_identities::<CubeExtension<WfBase>>();
}

#[test]
fn fold_steps_satisfy_their_identities() {
    fold_identities::<CM31>();
    fold_identities::<QM31>();
    fold_identities::<BabyBear4>();
    fold_identities::<BabyBear4Karatsuba>();
    fold_identities::<GoldilocksLimbs2>();
    fold_identities::<GoldilocksWide2>();
    fold_identities::<GoldilocksLimbs3>();
    fold_identities::<BabyBear5>();
    fold_identities::<M31Sextic>();
    fold_identities::<P3Qm31>();
    fold_identities::<P3Bb4>();
    fold_identities::<P3Bb5>();
    fold_identities::<P3Gl2>();
    fold_identities::<P3Gl3>();
    fold_identities::<QuadExtension<WfBase>>();
    fold_identities::<CubeExtension<WfBase>>();
}

#[test]
fn ours_equal_the_libraries_in_the_same_basis() {
    twins::<M31, P3M31>();
    twins::<QM31, P3Qm31>();
    twins::<BabyBear, P3Bb>();
    twins::<BabyBear4, P3Bb4>();
    twins::<BabyBear4Karatsuba, P3Bb4>();
    twins::<BabyBear5, P3Bb5>();
    twins::<GoldilocksLimbs, P3Gl>();
    twins::<GoldilocksLimbs2, P3Gl2>();
    twins::<GoldilocksWide2, P3Gl2>();
    twins::<GoldilocksLimbs3, P3Gl3>();
    twins::<WfBase, P3Gl>();
    twin_inverses::<M31, P3M31>();
    twin_inverses::<QM31, P3Qm31>();
    twin_inverses::<BabyBear, P3Bb>();
    twin_inverses::<BabyBear4, P3Bb4>();
    twin_inverses::<BabyBear5, P3Bb5>();
    twin_inverses::<WfBase, P3Gl>();
    twin_inverses::<GoldilocksLimbs, P3Gl>();
    twin_inverses::<GoldilocksLimbs2, P3Gl2>();
    twin_folds::<QM31, P3Qm31>();
    twin_folds::<BabyBear4, P3Bb4>();
    twin_folds::<BabyBear4Karatsuba, P3Bb4>();
    twin_folds::<BabyBear5, P3Bb5>();
    twin_folds::<GoldilocksLimbs2, P3Gl2>();
    twin_folds::<GoldilocksWide2, P3Gl2>();
    twin_folds::<GoldilocksLimbs3, P3Gl3>();
}

#[test]
fn every_case_runs_and_names_one_operation() {
    let mut seen = std::collections::BTreeSet::new();
    for case in OURS.iter().chain(LIBRARIES) {
        (case.run)(2);
        let key = (
            case.implementation,
            case.field,
            case.degree,
            case.algorithm,
            case.op.name(),
        );
        assert!(seen.insert(key), "{key:?} twice");
    }
    assert_eq!(seen.len(), 42 + 40);
}

//! The field micro-benchmark's cases (feature `bench`, issue 44 item 2): base product,
//! extension product, square, inverse and one FRI fold step, for our fields and for the
//! library fields the backends use (p3-field 0.8's, winterfell 0.13's), each as a
//! data-dependent chain in its own `#[inline(never)]` function.
//!
//! The firmware (`verifier-mcu/firmware`, feature `field-bench`) runs every [`Case`] with
//! `k` and `2k` loop iterations between its measurement markers; the runner (`mcu-run
//! field-bench`) takes the difference, subtracts the same difference of [`chain_empty`] (the
//! loop's own counter and branch) and divides by `k * UNROLL` operations. The host tests
//! (`tests/bench_cases.rs`) check that every chain computes what its name says.
//!
//! Why chains: each operation's result is the next one's operand (`(a, b) <- (b, a * b)`;
//! `x <- x^2`; `x <- 1/x`; `(e0, e1) <- (e1, fold(e0, e1))`), so the compiler can neither
//! hoist an operation out of the loop nor drop it; inputs go through `black_box` once, the
//! result once. The fold's `beta`, `inv_x` and `1/2` are loop-invariant (as `beta` is over
//! a layer's queries), so what the compiler derives from them alone may leave the loop.

use core::hint::black_box;

/// Operations per loop iteration: every chain's body is written out this many times, so the
/// loop's counter and branch (subtracted through [`chain_empty`]) are shared by them.
pub const UNROLL: u32 = 4;

/// The operations of one field (or extension) the benchmark runs.
pub trait BenchField: Copy {
    /// The element with coefficients `c[..degree]` (each taken mod `p`) in the library's
    /// own basis, the rest ignored.
    fn from_coefficients(c: [u64; 6]) -> Self;
    /// Its canonical coefficients (below `p`), zero after the degree.
    fn coefficients(self) -> [u64; 6];
    /// `self * rhs`.
    fn product(self, rhs: Self) -> Self;
    /// `self^2`.
    fn squared(self) -> Self;
}

/// A field whose inverse is benchmarked.
pub trait BenchInverse: BenchField {
    /// `1 / self` (`self` non-zero).
    fn inverted(self) -> Self;
}

/// An extension field, for the fold step.
pub trait BenchExtension: BenchField {
    /// The base field.
    type Base: Copy;
    /// `self + rhs`.
    fn plus(self, rhs: Self) -> Self;
    /// `self - rhs`.
    fn minus(self, rhs: Self) -> Self;
    /// `self * s` for a base-field `s`.
    fn times_base(self, s: Self::Base) -> Self;
    /// The base-field element with canonical value `v` (below `p`).
    fn base(v: u64) -> Self::Base;
    /// `(p + 1) / 2`, the base field's `1/2`.
    const HALF: u64;
}

/// One FRI fold of the pair `(e0, e1)`: `(e0 + e1)/2 + beta (e0 - e1) inv_x`.
#[inline(always)]
pub fn fold_step<E: BenchExtension>(e0: E, e1: E, beta: E, inv_x: E::Base, half: E::Base) -> E {
    e0.plus(e1)
        .times_base(half)
        .plus(beta.product(e0.minus(e1)).times_base(inv_x))
}

macro_rules! unrolled {
    ($body:block) => {{
        $body
        $body
        $body
        $body
    }};
}

/// The loop alone: `k` iterations of nothing (an empty `asm!` the compiler must keep).
#[inline(never)]
pub fn chain_empty(k: u32) -> u32 {
    for _ in 0..k {
        // SAFETY: an empty instruction sequence.
        unsafe { core::arch::asm!("", options(nomem, nostack, preserves_flags)) };
    }
    k
}

/// `k * UNROLL` products, `(a, b) <- (b, a * b)`; returns the last product.
#[inline(never)]
pub fn chain_mul<F: BenchField>(mut a: F, mut b: F, k: u32) -> F {
    for _ in 0..k {
        unrolled!({
            let c = a.product(b);
            a = b;
            b = c;
        });
    }
    b
}

/// `k * UNROLL` squarings of `x`.
#[inline(never)]
pub fn chain_square<F: BenchField>(mut x: F, k: u32) -> F {
    for _ in 0..k {
        unrolled!({
            x = x.squared();
        });
    }
    x
}

/// `k * UNROLL` inversions of `x`.
#[inline(never)]
pub fn chain_inverse<F: BenchInverse>(mut x: F, k: u32) -> F {
    for _ in 0..k {
        unrolled!({
            x = x.inverted();
        });
    }
    x
}

/// `k * UNROLL` fold steps, `(e0, e1) <- (e1, fold(e0, e1))`; returns the last fold.
#[inline(never)]
pub fn chain_fold<E: BenchExtension>(
    mut e0: E,
    mut e1: E,
    beta: E,
    inv_x: E::Base,
    half: E::Base,
    k: u32,
) -> E {
    for _ in 0..k {
        unrolled!({
            let f = fold_step(e0, e1, beta, inv_x, half);
            e0 = e1;
            e1 = f;
        });
    }
    e1
}

/// A fixed pseudo-random element (SplitMix64 words from `seed`), the same value for every
/// implementation of one field and basis.
pub fn sample<F: BenchField>(seed: u64) -> F {
    let mut s = seed;
    F::from_coefficients(core::array::from_fn(|_| {
        s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = s;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }))
}

/// The seeds of the chains' inputs (the fold's `inv_x` is [`sample`]'s first coefficient
/// of its seed, in the base field).
pub mod seeds {
    pub const A: u64 = 1;
    pub const B: u64 = 2;
    pub const BETA: u64 = 3;
    pub const INV_X: u64 = 4;
}

/// `k * UNROLL` products of fixed inputs, the inputs and the result through `black_box`.
pub fn run_mul<F: BenchField>(k: u32) {
    black_box(chain_mul(
        black_box(sample::<F>(seeds::A)),
        black_box(sample::<F>(seeds::B)),
        k,
    ));
}

/// `k * UNROLL` squarings of a fixed input.
pub fn run_square<F: BenchField>(k: u32) {
    black_box(chain_square(black_box(sample::<F>(seeds::A)), k));
}

/// `k * UNROLL` inversions of a fixed input.
pub fn run_inverse<F: BenchInverse>(k: u32) {
    black_box(chain_inverse(black_box(sample::<F>(seeds::A)), k));
}

/// The fold's inputs: `e0`, `e1`, `beta`, `inv_x`, `1/2`.
pub fn fold_inputs<E: BenchExtension>() -> (E, E, E, E::Base, E::Base) {
    let p = modulus_of::<E>();
    let inv_x = sample::<E>(seeds::INV_X).coefficients()[0] % p;
    (
        sample(seeds::A),
        sample(seeds::B),
        sample(seeds::BETA),
        E::base(inv_x),
        E::base(E::HALF),
    )
}

/// `p` from `HALF = (p + 1) / 2`.
fn modulus_of<E: BenchExtension>() -> u64 {
    2 * E::HALF - 1
}

/// `k * UNROLL` fold steps of fixed inputs.
pub fn run_fold<E: BenchExtension>(k: u32) {
    let (e0, e1, beta, inv_x, half) = black_box(fold_inputs::<E>());
    black_box(chain_fold(e0, e1, beta, inv_x, half, k));
}

/// What one case measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// A product in the base field (degree 1) or the extension.
    Mul,
    /// A square.
    Square,
    /// An inverse.
    Inverse,
    /// One FRI fold step on the extension.
    Fold,
}

impl Op {
    /// The token the firmware prints.
    pub const fn name(self) -> &'static str {
        match self {
            Op::Mul => "mul",
            Op::Square => "square",
            Op::Inverse => "inverse",
            Op::Fold => "fold",
        }
    }
}

/// One benchmarked operation of one implementation of one field or extension.
#[derive(Clone, Copy)]
pub struct Case {
    /// `ours`, `p3` (p3-field 0.8) or `wf` (winterfell 0.13).
    pub implementation: &'static str,
    /// The prime field: `m31`, `babybear`, `goldilocks`.
    pub field: &'static str,
    /// The extension degree (1: the base field).
    pub degree: u32,
    /// How the product is computed: `lazy` (ours: 32x32-bit partial products summed wide,
    /// one reduction per coefficient, schoolbook), `limbs-lazy` (ours, Goldilocks: 32-bit
    /// limb columns, one reduction per coefficient, schoolbook), `u128` (ours,
    /// Goldilocks^2: 128-bit widening products, each coefficient one product plus the other's
    /// reduced word, two reductions a coefficient) or `library`.
    pub algorithm: &'static str,
    /// The operation.
    pub op: Op,
    /// Runs `k * UNROLL` operations (the firmware's measured call).
    pub run: fn(u32),
}

macro_rules! cases {
    ($imp:literal, $field:literal, $deg:literal, $alg:literal, $t:ty: $($op:ident)*) => {
        [$(cases!(@one $imp, $field, $deg, $alg, $t, $op)),*]
    };
    (@one $imp:literal, $field:literal, $deg:literal, $alg:literal, $t:ty, mul) => {
        Case { implementation: $imp, field: $field, degree: $deg, algorithm: $alg, op: Op::Mul, run: run_mul::<$t> }
    };
    (@one $imp:literal, $field:literal, $deg:literal, $alg:literal, $t:ty, square) => {
        Case { implementation: $imp, field: $field, degree: $deg, algorithm: $alg, op: Op::Square, run: run_square::<$t> }
    };
    (@one $imp:literal, $field:literal, $deg:literal, $alg:literal, $t:ty, inverse) => {
        Case { implementation: $imp, field: $field, degree: $deg, algorithm: $alg, op: Op::Inverse, run: run_inverse::<$t> }
    };
    (@one $imp:literal, $field:literal, $deg:literal, $alg:literal, $t:ty, fold) => {
        Case { implementation: $imp, field: $field, degree: $deg, algorithm: $alg, op: Op::Fold, run: run_fold::<$t> }
    };
}

/// Our fields' cases.
pub const OURS: &[Case] = &{
    let m31 = cases!("ours", "m31", 1, "lazy", crate::M31: mul square inverse);
    let cm31 = cases!("ours", "m31", 2, "lazy", crate::CM31: mul square inverse fold);
    let qm31 = cases!("ours", "m31", 4, "lazy", crate::QM31: mul square inverse fold);
    let bb = cases!("ours", "babybear", 1, "lazy", crate::BabyBear: mul square inverse);
    let bb4 = cases!("ours", "babybear", 4, "lazy", crate::BabyBear4: mul square inverse fold);
    let bb4k = cases!("ours", "babybear", 4, "karatsuba", BabyBear4Karatsuba: mul square fold);
    let gl = cases!("ours", "goldilocks", 1, "limbs-lazy", GoldilocksLimbs: mul square inverse);
    let gl2 =
        cases!("ours", "goldilocks", 2, "limbs-lazy", GoldilocksLimbs2: mul square inverse fold);
    let gl2w = cases!("ours", "goldilocks", 2, "u128", GoldilocksWide2: mul square fold);
    let gl3 = cases!("ours", "goldilocks", 3, "limbs-lazy", GoldilocksLimbs3: mul square fold);
    let bb5 = cases!("ours", "babybear", 5, "lazy", crate::BabyBear5: mul square inverse fold);
    let m31_6 = cases!("ours", "m31", 6, "lazy", crate::M31Sextic: mul square inverse fold);
    concat_cases::<OURS_LEN, 12>([
        &m31, &cm31, &qm31, &bb, &bb4, &bb4k, &gl, &gl2, &gl2w, &gl3, &bb5, &m31_6,
    ])
};

/// The number of our cases (the sum of the lists [`OURS`] is made from).
const OURS_LEN: usize = 3 + 4 + 4 + 3 + 4 + 3 + 3 + 4 + 3 + 3 + 4 + 4;

/// The cases of `parts`, in order, as one array of exactly `N`.
const fn concat_cases<const N: usize, const M: usize>(parts: [&[Case]; M]) -> [Case; N] {
    let mut out = [parts[0][0]; N];
    let (mut n, mut i) = (0, 0);
    while i < parts.len() {
        let mut j = 0;
        while j < parts[i].len() {
            out[n] = parts[i][j];
            n += 1;
            j += 1;
        }
        i += 1;
    }
    assert!(n == N);
    out
}

const _: () = assert!(OURS.len() == OURS_LEN);

/// Our BabyBear^4 with its Karatsuba product ([`crate::BabyBear4::mul_karatsuba`]), the
/// same elements as [`crate::BabyBear4`].
#[derive(Clone, Copy, Debug)]
pub struct BabyBear4Karatsuba(pub crate::BabyBear4);

impl BenchField for BabyBear4Karatsuba {
    fn from_coefficients(c: [u64; 6]) -> Self {
        Self(crate::BabyBear4::from_coefficients(c))
    }
    fn coefficients(self) -> [u64; 6] {
        self.0.coefficients()
    }
    #[inline(always)]
    fn product(self, rhs: Self) -> Self {
        Self(self.0.mul_karatsuba(rhs.0))
    }
    #[inline(always)]
    fn squared(self) -> Self {
        Self(self.0.mul_karatsuba(self.0))
    }
}

impl BenchExtension for BabyBear4Karatsuba {
    type Base = crate::BabyBear;
    #[inline(always)]
    fn plus(self, rhs: Self) -> Self {
        Self(self.0.add(rhs.0))
    }
    #[inline(always)]
    fn minus(self, rhs: Self) -> Self {
        Self(self.0.sub(rhs.0))
    }
    #[inline(always)]
    fn times_base(self, s: crate::BabyBear) -> Self {
        Self(self.0.times_base(s))
    }
    fn base(v: u64) -> crate::BabyBear {
        <crate::BabyBear4 as BenchExtension>::base(v)
    }
    const HALF: u64 = <crate::BabyBear4 as BenchExtension>::HALF;
}

/// Our Goldilocks base field in 32-bit limbs ([`crate::goldilocks`]): any `u64` word
/// congruent to the value.
#[derive(Clone, Copy, Debug)]
pub struct GoldilocksLimbs(pub u64);

/// Our Goldilocks^2 = Goldilocks\[x\]/(x^2 - 7) in 32-bit limbs (p3-field 0.8's
/// `BinomialExtensionField<Goldilocks, 2>` basis).
#[derive(Clone, Copy, Debug)]
pub struct GoldilocksLimbs2(pub [u64; 2]);

/// Our Goldilocks^2 with 128-bit widening products
/// ([`crate::goldilocks::quadratic_mul_wide`]) instead of 32-bit columns, the same elements as
/// [`GoldilocksLimbs2`].
#[derive(Clone, Copy, Debug)]
pub struct GoldilocksWide2(pub GoldilocksLimbs2);

impl BenchField for GoldilocksWide2 {
    fn from_coefficients(c: [u64; 6]) -> Self {
        Self(GoldilocksLimbs2::from_coefficients(c))
    }
    fn coefficients(self) -> [u64; 6] {
        self.0.coefficients()
    }
    #[inline(always)]
    fn product(self, rhs: Self) -> Self {
        Self(GoldilocksLimbs2(crate::goldilocks::quadratic_mul_wide(
            &self.0 .0, &rhs.0 .0,
        )))
    }
    #[inline(always)]
    fn squared(self) -> Self {
        Self(GoldilocksLimbs2(crate::goldilocks::quadratic_square_wide(
            &self.0 .0,
        )))
    }
}

impl BenchExtension for GoldilocksWide2 {
    type Base = u64;
    #[inline(always)]
    fn plus(self, rhs: Self) -> Self {
        Self(self.0.plus(rhs.0))
    }
    #[inline(always)]
    fn minus(self, rhs: Self) -> Self {
        Self(self.0.minus(rhs.0))
    }
    #[inline(always)]
    fn times_base(self, s: u64) -> Self {
        Self(self.0.times_base(s))
    }
    fn base(v: u64) -> u64 {
        v
    }
    const HALF: u64 = GOLDILOCKS_P.div_ceil(2);
}

/// Our Goldilocks^3 = Goldilocks\[x\]/(x^3 - x - 1) in 32-bit limbs (p3-field 0.8's
/// `CubicTrinomialExtensionField<Goldilocks>` basis).
#[derive(Clone, Copy, Debug)]
pub struct GoldilocksLimbs3(pub [u64; 3]);

/// The Goldilocks prime.
pub const GOLDILOCKS_P: u64 = 0xFFFF_FFFF_0000_0001;

fn gl_canonical(w: u64) -> u64 {
    if w >= GOLDILOCKS_P {
        w - GOLDILOCKS_P
    } else {
        w
    }
}

fn padded<const D: usize>(c: [u64; D]) -> [u64; 6] {
    core::array::from_fn(|i| if i < D { c[i] } else { 0 })
}

impl BenchField for GoldilocksLimbs {
    fn from_coefficients(c: [u64; 6]) -> Self {
        Self(c[0])
    }
    fn coefficients(self) -> [u64; 6] {
        padded([gl_canonical(self.0)])
    }
    #[inline(always)]
    fn product(self, rhs: Self) -> Self {
        Self(crate::goldilocks::mul(self.0, rhs.0))
    }
    #[inline(always)]
    fn squared(self) -> Self {
        Self(crate::goldilocks::square(self.0))
    }
}

impl BenchInverse for GoldilocksLimbs {
    fn inverted(self) -> Self {
        Self(crate::goldilocks::inverse(self.0))
    }
}

impl BenchField for GoldilocksLimbs2 {
    fn from_coefficients(c: [u64; 6]) -> Self {
        Self([c[0], c[1]])
    }
    fn coefficients(self) -> [u64; 6] {
        padded(self.0.map(gl_canonical))
    }
    #[inline(always)]
    fn product(self, rhs: Self) -> Self {
        Self(crate::goldilocks::quadratic_mul(&self.0, &rhs.0))
    }
    #[inline(always)]
    fn squared(self) -> Self {
        Self(crate::goldilocks::quadratic_square(&self.0))
    }
}

impl BenchInverse for GoldilocksLimbs2 {
    fn inverted(self) -> Self {
        Self(crate::goldilocks::quadratic_inverse(&self.0))
    }
}

impl BenchExtension for GoldilocksLimbs2 {
    type Base = u64;
    #[inline(always)]
    fn plus(self, rhs: Self) -> Self {
        Self(crate::goldilocks::quadratic_add(&self.0, &rhs.0))
    }
    #[inline(always)]
    fn minus(self, rhs: Self) -> Self {
        Self(crate::goldilocks::quadratic_sub(&self.0, &rhs.0))
    }
    #[inline(always)]
    fn times_base(self, s: u64) -> Self {
        Self(crate::goldilocks::quadratic_mul_base(&self.0, s))
    }
    fn base(v: u64) -> u64 {
        v
    }
    const HALF: u64 = GOLDILOCKS_P.div_ceil(2);
}

impl BenchField for GoldilocksLimbs3 {
    fn from_coefficients(c: [u64; 6]) -> Self {
        Self([c[0], c[1], c[2]])
    }
    fn coefficients(self) -> [u64; 6] {
        padded(self.0.map(gl_canonical))
    }
    #[inline(always)]
    fn product(self, rhs: Self) -> Self {
        Self(crate::goldilocks::cubic_mul(&self.0, &rhs.0))
    }
    #[inline(always)]
    fn squared(self) -> Self {
        Self(crate::goldilocks::cubic_mul(&self.0, &self.0))
    }
}

impl BenchExtension for GoldilocksLimbs3 {
    type Base = u64;
    #[inline(always)]
    fn plus(self, rhs: Self) -> Self {
        Self(crate::goldilocks::cubic_add(&self.0, &rhs.0))
    }
    #[inline(always)]
    fn minus(self, rhs: Self) -> Self {
        Self(crate::goldilocks::cubic_sub(&self.0, &rhs.0))
    }
    #[inline(always)]
    fn times_base(self, s: u64) -> Self {
        Self(crate::goldilocks::cubic_mul_base(&self.0, s))
    }
    fn base(v: u64) -> u64 {
        v
    }
    const HALF: u64 = GOLDILOCKS_P.div_ceil(2);
}

/// The benchmark's view of one field: the element from and to coefficients, its product,
/// square and inverse, each as given (a closure-like pattern naming the operands).
macro_rules! bench_field {
    (
        $t:ty,
        from |$c:ident| $from:expr,
        to |$x:ident| $coefficients:expr,
        product |$a:ident, $b:ident| $product:expr,
        square |$y:ident| $square:expr,
        inverse |$z:ident| $inverse:expr
    ) => {
        impl BenchField for $t {
            fn from_coefficients($c: [u64; 6]) -> Self {
                $from
            }
            fn coefficients(self) -> [u64; 6] {
                let $x = self;
                $coefficients
            }
            #[inline(always)]
            fn product(self, rhs: Self) -> Self {
                let ($a, $b) = (self, rhs);
                $product
            }
            #[inline(always)]
            fn squared(self) -> Self {
                let $y = self;
                $square
            }
        }
        impl BenchInverse for $t {
            fn inverted(self) -> Self {
                let $z = self;
                $inverse
            }
        }
    };
}

/// The benchmark's view of one extension of `$b` (modulus `$p`): sum, difference, the base
/// field's words and the product by a base element, each as given.
macro_rules! bench_extension {
    (
        $t:ty, $b:ty, $p:expr,
        plus |$a1:ident, $b1:ident| $plus:expr,
        minus |$a2:ident, $b2:ident| $minus:expr,
        base |$v:ident| $base:expr,
        times |$x:ident, $s:ident| $times:expr
    ) => {
        impl BenchExtension for $t {
            type Base = $b;
            #[inline(always)]
            fn plus(self, rhs: Self) -> Self {
                let ($a1, $b1) = (self, rhs);
                $plus
            }
            #[inline(always)]
            fn minus(self, rhs: Self) -> Self {
                let ($a2, $b2) = (self, rhs);
                $minus
            }
            #[inline(always)]
            fn times_base(self, $s: $b) -> Self {
                let $x = self;
                $times
            }
            fn base($v: u64) -> $b {
                $base
            }
            const HALF: u64 = $p.div_ceil(2);
        }
    };
}

mod ours {
    use super::{padded, BenchExtension, BenchField, BenchInverse};
    use crate::{BabyBear, BabyBear4, BabyBear5, M31Sextic, CM31, M31, QM31};

    const M31_P: u64 = (1 << 31) - 1;
    const BB_P: u64 = 0x7800_0001;

    fn m31(v: u64) -> M31 {
        M31::new((v % M31_P) as u32)
    }
    fn bb(v: u64) -> BabyBear {
        BabyBear::new((v % BB_P) as u32)
    }

    /// Product, square and inverse through our inherent methods; the coefficients as given.
    macro_rules! ours_field {
        ($t:ty, |$c:ident| $from:expr, |$x:ident| $coefficients:expr) => {
            bench_field!(
                $t,
                from | $c | $from,
                to | $x | $coefficients,
                product | a,
                b | a.mul(b),
                square | x | x.square(),
                inverse | x | x.inverse()
            );
        };
    }

    /// Sum and difference through our inherent methods, the base field's words by `$base_of`
    /// (modulus `$p`), the product by a base element as given.
    macro_rules! ours_extension {
        ($t:ty, $base:ty, $base_of:ident, $p:expr, |$x:ident, $s:ident| $times_base:expr) => {
            bench_extension!(
                $t,
                $base,
                $p,
                plus | a,
                b | a.add(b),
                minus | a,
                b | a.sub(b),
                base | v | $base_of(v),
                times | $x,
                $s | $times_base
            );
        };
    }

    ours_field!(M31, |c| m31(c[0]), |x| padded([x.value() as u64]));
    ours_field!(CM31, |c| CM31::new(m31(c[0]), m31(c[1])), |x| padded([
        x.re.value() as u64,
        x.im.value() as u64
    ]));
    ours_field!(
        QM31,
        |c| QM31([m31(c[0]), m31(c[1]), m31(c[2]), m31(c[3])]),
        |x| padded(x.0.map(|w| w.value() as u64))
    );
    ours_field!(BabyBear, |c| bb(c[0]), |x| padded([x.value() as u64]));
    ours_field!(
        BabyBear4,
        |c| BabyBear4([bb(c[0]), bb(c[1]), bb(c[2]), bb(c[3])]),
        |x| padded(x.0.map(|w| w.value() as u64))
    );
    ours_field!(
        BabyBear5,
        |c| BabyBear5([bb(c[0]), bb(c[1]), bb(c[2]), bb(c[3]), bb(c[4])]),
        |x| padded(x.0.map(|w| w.value() as u64))
    );
    ours_field!(M31Sextic, |c| M31Sextic(c.map(m31)), |x| padded(
        x.0.map(|w| w.value() as u64)
    ));
    ours_extension!(BabyBear5, BabyBear, bb, BB_P, |x, s| x.mul_base(s));
    ours_extension!(M31Sextic, M31, m31, M31_P, |x, s| x.mul_base(s));
    ours_extension!(CM31, M31, m31, M31_P, |x, s| CM31::new(
        x.re.mul(s),
        x.im.mul(s)
    ));
    ours_extension!(QM31, M31, m31, M31_P, |x, s| x.mul_base(s));
    ours_extension!(BabyBear4, BabyBear, bb, BB_P, |x, s| BabyBear4(
        x.0.map(|c| c.mul(s))
    ));
}

#[cfg(feature = "bench-libraries")]
pub use libraries::LIBRARIES;

/// The library fields' cases (feature `bench-libraries`): p3-field 0.8 and winterfell 0.13.
#[cfg(feature = "bench-libraries")]
mod libraries {
    use super::{padded, BenchExtension, BenchField, BenchInverse, Case, Op};
    use super::{run_fold, run_inverse, run_mul, run_square};
    use p3_baby_bear::BabyBear;
    use p3_field::extension::{BinomialExtensionField, Complex, CubicTrinomialExtensionField};
    use p3_field::{BasedVectorSpace, Field, PrimeCharacteristicRing, PrimeField64};
    use p3_goldilocks::Goldilocks;
    use p3_mersenne_31::Mersenne31;
    use winter_math::fields::f64::BaseElement as WfBase;
    use winter_math::fields::{CubeExtension, QuadExtension};
    use winter_math::{ExtensionOf, FieldElement, StarkField};

    type P3Qm31 = BinomialExtensionField<Complex<Mersenne31>, 2>;
    type P3Bb4 = BinomialExtensionField<BabyBear, 4>;
    type P3Bb5 = BinomialExtensionField<BabyBear, 5>;
    type P3Gl2 = BinomialExtensionField<Goldilocks, 2>;
    type P3Gl3 = CubicTrinomialExtensionField<Goldilocks>;
    type WfQuad = QuadExtension<WfBase>;
    type WfCube = CubeExtension<WfBase>;

    /// Every library case.
    pub const LIBRARIES: &[Case] = &{
        let m31 = cases!("p3", "m31", 1, "library", Mersenne31: mul square inverse);
        let qm31 = cases!("p3", "m31", 4, "library", P3Qm31: mul square inverse fold);
        let bb = cases!("p3", "babybear", 1, "library", BabyBear: mul square inverse);
        let bb4 = cases!("p3", "babybear", 4, "library", P3Bb4: mul square inverse fold);
        let bb5 = cases!("p3", "babybear", 5, "library", P3Bb5: mul square inverse fold);
        let gl = cases!("p3", "goldilocks", 1, "library", Goldilocks: mul square inverse);
        let gl2 = cases!("p3", "goldilocks", 2, "library", P3Gl2: mul square inverse fold);
        let gl3 = cases!("p3", "goldilocks", 3, "library", P3Gl3: mul square inverse fold);
        let wf = cases!("wf", "goldilocks", 1, "library", WfBase: mul square inverse);
        let wf2 =
            cases!("wf", "goldilocks", 2, "library-karatsuba", WfQuad: mul square inverse fold);
        let wf3 =
            cases!("wf", "goldilocks", 3, "library-karatsuba", WfCube: mul square inverse fold);
        super::concat_cases::<LIBRARIES_LEN, 11>([
            &m31, &qm31, &bb, &bb4, &bb5, &gl, &gl2, &gl3, &wf, &wf2, &wf3,
        ])
    };

    /// The number of library cases: four fields with three operations, seven extensions with
    /// four.
    const LIBRARIES_LEN: usize = 4 * 3 + 7 * 4;

    /// A library field: product `*`, the rest as given.
    macro_rules! library_field {
        (
            $t:ty,
            from |$c:ident| $from:expr,
            to |$x:ident| $coefficients:expr,
            square |$y:ident| $square:expr,
            inverse |$z:ident| $inverse:expr
        ) => {
            bench_field!(
                $t,
                from | $c | $from,
                to | $x | $coefficients,
                product | a,
                b | a * b,
                square | $y | $square,
                inverse | $z | $inverse
            );
        };
    }

    /// A library extension of `$b` (modulus `$p`): sum `+`, difference `-`, the rest as given.
    macro_rules! library_extension {
        ($t:ty, $b:ty, $p:expr, base |$v:ident| $base:expr, times |$x:ident, $s:ident| $times:expr) => {
            bench_extension!(
                $t,
                $b,
                $p,
                plus | a,
                b | a + b,
                minus | a,
                b | a - b,
                base | $v | $base,
                times | $x,
                $s | $times
            );
        };
    }

    /// A p3 prime field (degree 1).
    macro_rules! p3_prime {
        ($t:ty) => {
            library_field!(
                $t,
                from | c | <$t>::from_u64(c[0] % <$t>::ORDER_U64),
                to | x | padded([x.as_canonical_u64()]),
                square | x | x.square(),
                inverse | x | x.inverse()
            );
        };
    }
    p3_prime!(Mersenne31);
    p3_prime!(BabyBear);
    p3_prime!(Goldilocks);

    /// A p3 extension of a prime field `$b` of degree `$d`.
    macro_rules! p3_extension {
        ($t:ty, $b:ty, $d:literal) => {
            library_field!(
                $t,
                from | c
                    | <$t as BasedVectorSpace<$b>>::from_basis_coefficients_fn(|i| {
                        <$b>::from_u64(c[i] % <$b>::ORDER_U64)
                    }),
                to | x | {
                    let s = <$t as BasedVectorSpace<$b>>::as_basis_coefficients_slice(&x);
                    padded::<$d>(core::array::from_fn(|i| s[i].as_canonical_u64()))
                },
                square | x | x.square(),
                inverse | x | x.inverse()
            );
            library_extension!(
                $t,
                $b,
                <$b>::ORDER_U64,
                base | v | <$b>::from_u64(v),
                times | x,
                s | x * s
            );
        };
    }
    p3_extension!(P3Bb4, BabyBear, 4);
    p3_extension!(P3Bb5, BabyBear, 5);
    p3_extension!(P3Gl2, Goldilocks, 2);
    p3_extension!(P3Gl3, Goldilocks, 3);

    fn m31(v: u64) -> Mersenne31 {
        Mersenne31::from_u64(v % Mersenne31::ORDER_U64)
    }

    library_field!(
        P3Qm31,
        from | c
            | <P3Qm31 as BasedVectorSpace<Complex<Mersenne31>>>::from_basis_coefficients_fn(|i| {
                Complex::new_complex(m31(c[2 * i]), m31(c[2 * i + 1]))
            }),
        to | x | {
            let s =
                <P3Qm31 as BasedVectorSpace<Complex<Mersenne31>>>::as_basis_coefficients_slice(&x);
            let w = |e: Mersenne31| e.as_canonical_u64();
            padded([
                w(s[0].real()),
                w(s[0].imag()),
                w(s[1].real()),
                w(s[1].imag()),
            ])
        },
        square | x | x.square(),
        inverse | x | x.inverse()
    );
    library_extension!(
        P3Qm31,
        Mersenne31,
        Mersenne31::ORDER_U64,
        base | v | m31(v),
        times | x,
        s | x * s
    );

    fn wf(v: u64) -> WfBase {
        WfBase::new(v % WfBase::MODULUS)
    }

    library_field!(
        WfBase,
        from | c | wf(c[0]),
        to | x | padded([x.as_int()]),
        square | x | FieldElement::square(x),
        inverse | x | x.inv()
    );
    library_field!(
        WfQuad,
        from | c | WfQuad::new(wf(c[0]), wf(c[1])),
        to | x | padded(x.to_base_elements().map(|e| e.as_int())),
        square | x | FieldElement::square(x),
        inverse | x | x.inv()
    );
    library_field!(
        WfCube,
        from | c | WfCube::new(wf(c[0]), wf(c[1]), wf(c[2])),
        to | x | padded(x.to_base_elements().map(|e| e.as_int())),
        square | x | FieldElement::square(x),
        inverse | x | x.inv()
    );
    library_extension!(
        WfQuad,
        WfBase,
        WfBase::MODULUS,
        base | v | wf(v),
        times | x,
        s | x.mul_base(s)
    );
    library_extension!(
        WfCube,
        WfBase,
        WfBase::MODULUS,
        base | v | wf(v),
        times | x,
        s | x.mul_base(s)
    );
}

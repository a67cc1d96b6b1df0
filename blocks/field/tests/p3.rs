//! Property tests against Plonky3 0.8: every operation on random, edge (0, 1, p-1, p-2) and,
//! for Mersenne-31, non-canonical words (p itself, a second zero) gives the value Plonky3's
//! gives, and every result keeps the stored-word invariant Plonky3 relies on.

use p3_baby_bear::BabyBear as P3Bb;
use p3_field::extension::{BinomialExtensionField, Complex};
use p3_field::{batch_multiplicative_inverse, Field as _, PrimeCharacteristicRing, PrimeField32};
use p3_mersenne_31::{Mersenne31 as P3M31, QM31 as P3Qm31};
use picostark_field::{batch_inverse, qm31_dot, BabyBear, BabyBear4, BabyBear5, CM31, M31, QM31};

type P3Cm31 = Complex<P3M31>;
type P3Bb4 = BinomialExtensionField<P3Bb, 4>;
type P3Bb5 = BinomialExtensionField<P3Bb, 5>;

const M31_P: u32 = (1 << 31) - 1;
const BB_P: u32 = 0x7800_0001;
const ROUNDS: usize = 20_000;

/// SplitMix64: a small deterministic generator, enough to spread test inputs.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u32) -> u32 {
        (self.next() % n as u64) as u32
    }
    /// A Mersenne-31 word below 2^31: one time in four an edge word, else uniform.
    fn m31_word(&mut self) -> u32 {
        const EDGE: [u32; 9] = [
            0,
            1,
            2,
            M31_P - 2,
            M31_P - 1,
            M31_P,
            1 << 30,
            (1 << 30) - 1,
            (1 << 30) + 1,
        ];
        if self.below(4) == 0 {
            EDGE[self.below(EDGE.len() as u32) as usize]
        } else {
            self.below(1 << 31)
        }
    }
    /// A BabyBear Montgomery word below p: one time in four an edge word (as a word or as the
    /// Montgomery word of the value), else uniform.
    fn bb_word(&mut self) -> u32 {
        let edge = [
            0,
            1,
            2,
            BB_P - 2,
            BB_P - 1,
            BabyBear::new(1).raw(),
            BabyBear::new(BB_P - 1).raw(),
            BabyBear::new(BB_P - 2).raw(),
        ];
        if self.below(4) == 0 {
            edge[self.below(edge.len() as u32) as usize]
        } else {
            self.below(BB_P)
        }
    }
}

fn p3_m31(w: u32) -> P3M31 {
    P3M31::new_checked(w).expect("word below 2^31")
}
fn p3_cm31(w: [u32; 2]) -> P3Cm31 {
    P3Cm31::new_complex(p3_m31(w[0]), p3_m31(w[1]))
}
fn p3_qm31(w: [u32; 4]) -> P3Qm31 {
    P3Qm31::new([p3_cm31([w[0], w[1]]), p3_cm31([w[2], w[3]])])
}
fn p3_bb(w: u32) -> P3Bb {
    assert!(w < BB_P);
    // SAFETY: `BabyBear` is `repr(transparent)` over its Montgomery word, and `w < p` is its
    // invariant.
    unsafe { core::mem::transmute::<u32, P3Bb>(w) }
}
fn p3_bb4(w: [u32; 4]) -> P3Bb4 {
    P3Bb4::new(w.map(p3_bb))
}

fn m31_of(x: P3M31) -> u32 {
    x.as_canonical_u32()
}
fn cm31_of(x: P3Cm31) -> [u32; 2] {
    [m31_of(x.real()), m31_of(x.imag())]
}
fn qm31_of(x: P3Qm31) -> [u32; 4] {
    let c = x.as_basis_coefficients_slice_cm31();
    let (a, b) = (cm31_of(c[0]), cm31_of(c[1]));
    [a[0], a[1], b[0], b[1]]
}
fn bb_of(x: P3Bb) -> u32 {
    // SAFETY: as in `p3_bb`.
    unsafe { core::mem::transmute::<P3Bb, u32>(x) }
}
fn p3_bb5(w: [u32; 5]) -> P3Bb5 {
    P3Bb5::new(w.map(p3_bb))
}
fn bb5_of(x: P3Bb5) -> [u32; 5] {
    let c: &[P3Bb] = p3_field::BasedVectorSpace::<P3Bb>::as_basis_coefficients_slice(&x);
    core::array::from_fn(|i| bb_of(c[i]))
}
fn bb4_of(x: P3Bb4) -> [u32; 4] {
    let c: &[P3Bb] = p3_field::BasedVectorSpace::<P3Bb>::as_basis_coefficients_slice(&x);
    [bb_of(c[0]), bb_of(c[1]), bb_of(c[2]), bb_of(c[3])]
}

trait Cm31Slice {
    fn as_basis_coefficients_slice_cm31(&self) -> &[P3Cm31];
}
impl Cm31Slice for P3Qm31 {
    fn as_basis_coefficients_slice_cm31(&self) -> &[P3Cm31] {
        p3_field::BasedVectorSpace::<P3Cm31>::as_basis_coefficients_slice(self)
    }
}

/// Canonical values of our words, after checking the invariant (below 2^31).
fn canon_m31(w: &[u32]) -> std::vec::Vec<u32> {
    w.iter()
        .map(|&v| {
            assert!(v >> 31 == 0, "word {v:#x} breaks the invariant");
            M31::from_raw(v).value()
        })
        .collect()
}
fn check_bb(w: &[u32]) {
    for &v in w {
        assert!(v < BB_P, "word {v:#x} not below p");
    }
}

#[test]
fn m31_ops_match_p3() {
    let mut r = Rng(1);
    for _ in 0..ROUNDS {
        let (a, b) = (r.m31_word(), r.m31_word());
        let (x, y) = (M31::from_raw(a), M31::from_raw(b));
        let (px, py) = (p3_m31(a), p3_m31(b));
        assert_eq!(canon_m31(&[x.add(y).raw()]), [m31_of(px + py)], "{a} + {b}");
        assert_eq!(canon_m31(&[x.sub(y).raw()]), [m31_of(px - py)], "{a} - {b}");
        assert_eq!(canon_m31(&[x.mul(y).raw()]), [m31_of(px * py)], "{a} * {b}");
        assert_eq!(canon_m31(&[x.square().raw()]), [m31_of(px.square())]);
        assert_eq!(canon_m31(&[x.neg().raw()]), [m31_of(-px)]);
        assert_eq!(canon_m31(&[x.double().raw()]), [m31_of(px.double())]);
        assert_eq!(
            canon_m31(&[x.halve().raw()]),
            [m31_of(px.halve())],
            "{a} / 2"
        );
        match px.try_inverse() {
            Some(inv) => assert_eq!(canon_m31(&[x.inverse().raw()]), [m31_of(inv)], "1/{a}"),
            None => assert!(x.try_inverse().is_none() && x.inverse().value() == 0),
        }
    }
    assert_eq!(M31::new(u32::MAX).value(), u32::MAX % M31_P);
    assert_eq!(M31::new(M31_P).raw(), 0);
}

#[test]
fn cm31_ops_match_p3() {
    let mut r = Rng(2);
    for _ in 0..ROUNDS {
        let (a, b) = ([r.m31_word(), r.m31_word()], [r.m31_word(), r.m31_word()]);
        let (x, y) = (CM31::from_raw(a), CM31::from_raw(b));
        let (px, py) = (p3_cm31(a), p3_cm31(b));
        assert_eq!(
            canon_m31(&x.mul(y).raw()),
            cm31_of(px * py),
            "{a:?} * {b:?}"
        );
        assert_eq!(canon_m31(&x.square().raw()), cm31_of(px.square()));
        assert_eq!(canon_m31(&x.add(y).raw()), cm31_of(px + py));
        assert_eq!(canon_m31(&x.sub(y).raw()), cm31_of(px - py));
        let w = p3_cm31([2, 1]);
        assert_eq!(canon_m31(&x.mul_by_w().raw()), cm31_of(px * w));
        if let Some(inv) = px.try_inverse() {
            assert_eq!(canon_m31(&x.inverse().raw()), cm31_of(inv), "1/{a:?}");
        }
    }
}

#[test]
fn qm31_ops_match_p3() {
    let mut r = Rng(3);
    let word4 = |r: &mut Rng| [r.m31_word(), r.m31_word(), r.m31_word(), r.m31_word()];
    // All-extreme vectors: the largest coefficient sums.
    let mut cases = std::vec![
        ([M31_P; 4], [M31_P; 4]),
        ([M31_P - 1; 4], [M31_P - 1; 4]),
        ([M31_P - 1, 0, M31_P - 1, 0], [0, M31_P - 1, 0, M31_P - 1]),
        ([0, 0, 1, 0], [0, 0, 1, 0]), // u * u = 2 + i
    ];
    for _ in 0..ROUNDS {
        cases.push((word4(&mut r), word4(&mut r)));
    }
    for (a, b) in cases {
        let (x, y) = (QM31::from_raw(a), QM31::from_raw(b));
        let (px, py) = (p3_qm31(a), p3_qm31(b));
        assert_eq!(
            canon_m31(&x.mul(y).raw()),
            qm31_of(px * py),
            "{a:?} * {b:?}"
        );
        assert_eq!(
            canon_m31(&x.square().raw()),
            qm31_of(px.square()),
            "{a:?}^2"
        );
        assert_eq!(canon_m31(&x.add(y).raw()), qm31_of(px + py));
        assert_eq!(canon_m31(&x.sub(y).raw()), qm31_of(px - py));
        assert_eq!(canon_m31(&x.neg().raw()), qm31_of(-px));
        assert_eq!(
            canon_m31(&x.halve().raw()),
            qm31_of(px.halve()),
            "{a:?} / 2"
        );
        let s = M31::from_raw(b[0]);
        assert_eq!(
            canon_m31(&x.mul_base(s).raw()),
            qm31_of(px * p3_qm31([b[0], 0, 0, 0]))
        );
        match px.try_inverse() {
            Some(inv) => assert_eq!(canon_m31(&x.inverse().raw()), qm31_of(inv), "1/{a:?}"),
            None => assert!(x.is_zero()),
        }
    }
    let u = QM31::from_raw([0, 0, 1, 0]);
    assert_eq!(u.mul(u).raw(), [2, 1, 0, 0]);
}

#[test]
fn qm31_dot_and_batch_inverse_match_p3() {
    let mut r = Rng(4);
    let word4 = |r: &mut Rng| [r.m31_word(), r.m31_word(), r.m31_word(), r.m31_word()];
    for len in [0usize, 1, 2, 3, 7, 16, 64, 300] {
        for round in 0..20 {
            let (xs, ys): (std::vec::Vec<_>, std::vec::Vec<_>) = (0..len)
                .map(|_| {
                    if round == 0 {
                        // The largest sums: every coefficient p - 1 (or p).
                        ([M31_P - 1; 4], [M31_P; 4])
                    } else {
                        (word4(&mut r), word4(&mut r))
                    }
                })
                .unzip();
            let ours: std::vec::Vec<QM31> = xs.iter().map(|&w| QM31::from_raw(w)).collect();
            let theirs: std::vec::Vec<P3Qm31> = xs.iter().map(|&w| p3_qm31(w)).collect();
            let ours_y: std::vec::Vec<QM31> = ys.iter().map(|&w| QM31::from_raw(w)).collect();
            let theirs_y: std::vec::Vec<P3Qm31> = ys.iter().map(|&w| p3_qm31(w)).collect();
            let want: P3Qm31 = theirs.iter().zip(&theirs_y).map(|(&a, &b)| a * b).sum();
            assert_eq!(
                canon_m31(&qm31_dot(&ours, &ours_y).raw()),
                qm31_of(want),
                "len {len}"
            );

            // Batch inversion of the non-zero ones.
            let nz: std::vec::Vec<usize> = (0..len).filter(|&i| !theirs[i].is_zero()).collect();
            let mut ours_nz: std::vec::Vec<QM31> = nz.iter().map(|&i| ours[i]).collect();
            let theirs_nz: std::vec::Vec<P3Qm31> = nz.iter().map(|&i| theirs[i]).collect();
            let mut scratch = std::vec![QM31::ZERO; ours_nz.len()];
            batch_inverse(&mut ours_nz, &mut scratch);
            let want = batch_multiplicative_inverse(&theirs_nz);
            for (o, t) in ours_nz.iter().zip(&want) {
                assert_eq!(canon_m31(&o.raw()), qm31_of(*t));
            }
            // And of M31 elements.
            let mut m: std::vec::Vec<M31> = nz
                .iter()
                .map(|&i| M31::from_raw(xs[i][0]))
                .filter(|x| !x.is_zero())
                .collect();
            let pm: std::vec::Vec<P3M31> = m.iter().map(|x| p3_m31(x.raw())).collect();
            let mut scratch = std::vec![M31::ZERO; m.len()];
            batch_inverse(&mut m, &mut scratch);
            for (o, t) in m.iter().zip(batch_multiplicative_inverse(&pm)) {
                assert_eq!(o.value(), m31_of(t));
            }
        }
    }
}

#[test]
fn babybear_ops_match_p3() {
    let mut r = Rng(5);
    for _ in 0..ROUNDS {
        let (a, b) = (r.bb_word(), r.bb_word());
        let (x, y) = (BabyBear::from_raw(a), BabyBear::from_raw(b));
        let (px, py) = (p3_bb(a), p3_bb(b));
        for (ours, theirs) in [
            (x.add(y), px + py),
            (x.sub(y), px - py),
            (x.mul(y), px * py),
            (x.square(), px.square()),
            (x.neg(), -px),
            (x.inverse(), px.try_inverse().unwrap_or(P3Bb::ZERO)),
        ] {
            check_bb(&[ours.raw()]);
            assert_eq!(ours.raw(), bb_of(theirs), "{a:#x} {b:#x}");
        }
        assert_eq!(x.value(), px.as_canonical_u32());
        let v = r.next() as u32;
        assert_eq!(BabyBear::new(v).raw(), bb_of(P3Bb::from_u32(v)));
    }
}

#[test]
fn babybear4_ops_match_p3() {
    let mut r = Rng(6);
    let word4 = |r: &mut Rng| [r.bb_word(), r.bb_word(), r.bb_word(), r.bb_word()];
    let mut cases = std::vec![([BB_P - 1; 4], [BB_P - 1; 4]), ([0, 1, 0, 0], [0, 0, 0, 1])];
    for _ in 0..ROUNDS {
        cases.push((word4(&mut r), word4(&mut r)));
    }
    let mut ours_all = std::vec::Vec::new();
    let mut theirs_all = std::vec::Vec::new();
    for (a, b) in cases {
        let (x, y) = (BabyBear4::from_raw(a), BabyBear4::from_raw(b));
        let (px, py) = (p3_bb4(a), p3_bb4(b));
        for (ours, theirs) in [
            (x.mul(y), px * py),
            (x.mul_karatsuba(y), px * py),
            (x.square(), px.square()),
            (x.add(y), px + py),
            (x.sub(y), px - py),
            (x.mul_base(y.0[0]), px * p3_bb4([b[0], 0, 0, 0])),
            (x.inverse(), px.try_inverse().unwrap_or(P3Bb4::ZERO)),
        ] {
            check_bb(&ours.raw());
            assert_eq!(ours.raw(), bb4_of(theirs), "{a:x?} {b:x?}");
        }
        if !px.is_zero() && ours_all.len() < 500 {
            ours_all.push(x);
            theirs_all.push(px);
        }
    }
    let mut scratch = std::vec![BabyBear4::ZERO; ours_all.len()];
    batch_inverse(&mut ours_all, &mut scratch);
    for (o, t) in ours_all
        .iter()
        .zip(batch_multiplicative_inverse(&theirs_all))
    {
        assert_eq!(o.raw(), bb4_of(t));
    }
}

#[test]
fn babybear5_ops_match_p3() {
    let mut r = Rng(9);
    let word5 = |r: &mut Rng| core::array::from_fn::<u32, 5, _>(|_| r.bb_word());
    let mut cases = std::vec![
        ([BB_P - 1; 5], [BB_P - 1; 5]),
        ([0, 0, 0, 0, 1], [0, 0, 0, 0, 1]),
        ([0, 1, 0, 0, 0], [0, 0, 0, 0, 1]),
    ];
    for _ in 0..ROUNDS {
        cases.push((word5(&mut r), word5(&mut r)));
    }
    let mut ours_all = std::vec::Vec::new();
    let mut theirs_all = std::vec::Vec::new();
    for (a, b) in cases {
        let (x, y) = (BabyBear5::from_raw(a), BabyBear5::from_raw(b));
        let (px, py) = (p3_bb5(a), p3_bb5(b));
        for (ours, theirs) in [
            (x.mul(y), px * py),
            (x.square(), px.square()),
            (x.add(y), px + py),
            (x.sub(y), px - py),
            (x.mul_base(y.0[0]), px * p3_bb5([b[0], 0, 0, 0, 0])),
            (x.inverse(), px.try_inverse().unwrap_or(P3Bb5::ZERO)),
        ] {
            check_bb(&ours.raw());
            assert_eq!(ours.raw(), bb5_of(theirs), "{a:x?} {b:x?}");
        }
        assert_eq!(x.is_zero(), px.is_zero());
        if !px.is_zero() && ours_all.len() < 500 {
            ours_all.push(x);
            theirs_all.push(px);
        }
    }
    let mut scratch = std::vec![BabyBear5::ZERO; ours_all.len()];
    batch_inverse(&mut ours_all, &mut scratch);
    for (o, t) in ours_all
        .iter()
        .zip(batch_multiplicative_inverse(&theirs_all))
    {
        assert_eq!(o.raw(), bb5_of(t));
    }
}

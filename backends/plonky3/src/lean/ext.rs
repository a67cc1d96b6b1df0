//! Our own challenge-field arithmetic (`picostark-field`) behind [`super::reader::WireField`]'s
//! hooks: QM31 for Mersenne-31, BabyBear^4 and ^5 for BabyBear, and Goldilocks^3 in 32-bit
//! limbs.
//!
//! Why: upstream's extensions are generic towers that reduce after every base product and,
//! as called in the verifier, stay out of line (one QM31 product: 337 instructions on the
//! M33, `results/baseline/circle-gap.md`). Ours sum the partial products of a coefficient in
//! `u64` and reduce once (issue 44). The lean code stays generic over upstream's types: each
//! hook asks, by a compile-time type test, whether `EF` is one of these two, and if so
//! reinterprets its words, which are the same words in the same basis (`picostark-field`'s
//! crate documentation, and its property tests against p3-field).

use core::any::TypeId;
use core::mem::{size_of, transmute_copy};

use p3_mersenne_31::QM31 as UpstreamQm31;
use picostark_field::{BabyBear4, BabyBear5, QM31};

// Upstream's BabyBear^4 (`W = 11`) and Goldilocks^3 (`x^3 - x - 1`, whose products
// `picostark_field::goldilocks` forms in 32-bit limbs on the coefficients' words).
use crate::config::{
    BabyBear4 as UpstreamBb4, BabyBear5 as UpstreamBb5, Goldilocks3 as UpstreamGoldilocks3,
};

// The reinterpretations below rely on equal sizes (and on `#[repr(transparent)]` word arrays
// on both sides, which the types document).
const _: () = assert!(size_of::<UpstreamQm31>() == size_of::<QM31>());
const _: () = assert!(size_of::<UpstreamBb4>() == size_of::<BabyBear4>());
const _: () = assert!(size_of::<UpstreamBb5>() == size_of::<BabyBear5>());
const _: () = assert!(size_of::<UpstreamGoldilocks3>() == size_of::<[u64; 3]>());

/// A type of ours with the same words as the upstream type `Upstream`.
pub(crate) trait Ours: Copy + 'static {
    /// The upstream type whose words these are.
    type Upstream: 'static;
}

impl Ours for QM31 {
    type Upstream = UpstreamQm31;
}

impl Ours for BabyBear4 {
    type Upstream = UpstreamBb4;
}

impl Ours for BabyBear5 {
    type Upstream = UpstreamBb5;
}

/// The limb arithmetic works on the coefficients' words, any `u64` each (Goldilocks words need
/// not be canonical).
impl Ours for [u64; 3] {
    type Upstream = UpstreamGoldilocks3;
}

/// `a` as `T` when `EF` is `T`'s upstream twin, else `None` (decided at compile time).
#[inline(always)]
pub(crate) fn ours<T: Ours, EF: 'static>(a: &EF) -> Option<T> {
    (TypeId::of::<EF>() == TypeId::of::<T::Upstream>()).then(|| {
        // SAFETY: `EF` is `T::Upstream` (tested above), which has `T`'s size (asserted at
        // compile time for every pair) and stores the same words in the same basis: `ExtField`
        // and `Mersenne31`/`MontyField31`/`Goldilocks` are `#[repr(transparent)]` over their
        // word arrays, as are `QM31([M31; 4])` and `BabyBear4([BabyBear; 4])` over `u32`s.
        // Every upstream word is one of ours (Mersenne-31: below `2^31`; BabyBear: a
        // Montgomery word below `p`; Goldilocks: any `u64`).
        unsafe { transmute_copy::<EF, T>(a) }
    })
}

/// The `EF` with `t`'s words; only called where [`ours`] said `EF` is `T`'s twin.
#[inline(always)]
pub(crate) fn upstream<T: Ours, EF: 'static>(t: T) -> EF {
    assert!(TypeId::of::<EF>() == TypeId::of::<T::Upstream>());
    // SAFETY: as in `ours`, in the other direction; our products keep every word within the
    // upstream invariant (property tests: Mersenne-31 words `<= p`, BabyBear words `< p`).
    unsafe { transmute_copy::<T, EF>(&t) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use p3_baby_bear::BabyBear;
    use p3_field::extension::BinomialExtensionField;
    use p3_field::{BasedVectorSpace, PrimeCharacteristicRing};
    use p3_goldilocks::Goldilocks;
    use p3_mersenne_31::Mersenne31;

    #[test]
    fn words_round_trip_and_other_types_are_not_ours() {
        let q = UpstreamQm31::from_basis_coefficients_fn(|i| Mersenne31::new(7 + i as u32));
        let o = ours::<QM31, _>(&q).unwrap();
        assert_eq!(o.raw(), [7, 8, 9, 10]);
        assert_eq!(upstream::<QM31, UpstreamQm31>(o), q);
        let b = UpstreamBb4::from_basis_coefficients_fn(|i| BabyBear::from_u32(3 + i as u32));
        let o = ours::<BabyBear4, _>(&b).unwrap();
        assert_eq!(upstream::<BabyBear4, UpstreamBb4>(o.mul(o)), b * b);
        let b5 = UpstreamBb5::from_basis_coefficients_fn(|i| BabyBear::from_u32(5 + i as u32));
        let o = ours::<BabyBear5, _>(&b5).unwrap();
        assert_eq!(upstream::<BabyBear5, UpstreamBb5>(o.mul(o)), b5 * b5);
        // BabyBear^5 is not BabyBear^4, the M31 cubic not QM31: upstream's code runs.
        assert!(ours::<BabyBear4, _>(&b5).is_none());
        assert!(ours::<BabyBear5, _>(&b).is_none());
        assert!(ours::<QM31, _>(&BinomialExtensionField::<Mersenne31, 3>::ONE).is_none());
        assert!(ours::<QM31, _>(&b).is_none());
        // Goldilocks^3: the words themselves, any `u64` (not reduced on the way).
        let g = UpstreamGoldilocks3::from_basis_coefficients_fn(|i| {
            Goldilocks::new(u64::MAX - i as u64)
        });
        let w = ours::<[u64; 3], _>(&g).unwrap();
        assert_eq!(w, [u64::MAX, u64::MAX - 1, u64::MAX - 2]);
        assert_eq!(upstream::<[u64; 3], UpstreamGoldilocks3>(w), g);
        assert!(ours::<[u64; 3], _>(&BinomialExtensionField::<Goldilocks, 2>::ONE).is_none());
    }
}

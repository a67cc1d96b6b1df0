//! picostark-poseidon2: the Poseidon2 instances of the membership AIR
//! (`picostark_air::membership`), read from the Plonky3 0.8 field crates: the width-24
//! instances of BabyBear (x^7, 4 + 4 full and 21 partial rounds) and Mersenne-31 (x^5, 4 + 4
//! and 22) with 9-word digests, and the width-12 instance of Goldilocks (x^7, 4 + 4 and 22)
//! with 4-word digests, each with its crate's round constants. The widths leave a word of
//! capacity beside two digests for the AIR's domain tags; the digests are as wide as the
//! permutation's 128 bits allow (BabyBear and Mersenne-31: 139 bits of collision resistance,
//! so the permutation binds; Goldilocks: 127). The linear layers are read off the crates' own generic
//! linear layers (`GenericPoseidon2LinearLayers*`) applied to unit vectors: `M4` from the
//! external layer's first off-diagonal block, `V` from the internal layer's diagonal minus
//! one. `tests/known_answers.rs` checks the resulting permutation against each crate's
//! `default_*_poseidon2_*` on pseudo-random states.
//!
//! A crate of its own so that every backend (Plonky3 and winterfell) reads the same constants
//! the same way while `picostark-air` names no field library; each backend maps its own field
//! types to these instances.
#![no_std]

extern crate alloc;

use alloc::vec::Vec;

use p3_baby_bear::{
    BabyBear, GenericPoseidon2LinearLayersBabyBear, BABYBEAR_POSEIDON2_RC_24_EXTERNAL_FINAL,
    BABYBEAR_POSEIDON2_RC_24_EXTERNAL_INITIAL, BABYBEAR_POSEIDON2_RC_24_INTERNAL,
    BABYBEAR_S_BOX_DEGREE,
};
use p3_field::PrimeField64;
use p3_goldilocks::poseidon1::GOLDILOCKS_S_BOX_DEGREE;
use p3_goldilocks::{
    GenericPoseidon2LinearLayersGoldilocks, Goldilocks, GOLDILOCKS_POSEIDON2_RC_12_EXTERNAL_FINAL,
    GOLDILOCKS_POSEIDON2_RC_12_EXTERNAL_INITIAL, GOLDILOCKS_POSEIDON2_RC_12_INTERNAL,
};
use p3_mersenne_31::{
    GenericPoseidon2LinearLayersMersenne31, Mersenne31, MERSENNE31_POSEIDON2_RC_24_EXTERNAL_FINAL,
    MERSENNE31_POSEIDON2_RC_24_EXTERNAL_INITIAL, MERSENNE31_POSEIDON2_RC_24_INTERNAL,
    MERSENNE31_S_BOX_DEGREE,
};
use p3_poseidon2::GenericPoseidon2LinearLayers;
use picostark_air::poseidon2::{Poseidon2Instance, Poseidon2Params};
use picostark_core::FieldId;

/// BabyBear's Poseidon2-24, 9-word digests.
#[derive(Clone, Copy, Debug, Default)]
pub struct BabyBear24;

/// Mersenne-31's Poseidon2-24, 9-word digests.
#[derive(Clone, Copy, Debug, Default)]
pub struct Mersenne31x24;

/// Goldilocks' Poseidon2-12, 4-word digests.
#[derive(Clone, Copy, Debug, Default)]
pub struct Goldilocks12;

/// The round numbers of every Plonky3 0.8 instance here are its 128-bit ones
/// (`p3-poseidon2`, `round_numbers.rs`).
const PERMUTATION_BITS: u32 = 128;

fn canonical<F: PrimeField64>(v: &[F]) -> Vec<u64> {
    v.iter().map(|x| x.as_canonical_u64()).collect()
}

/// The parameters of a width-`W` instance of field `F` with linear layers `L`.
fn params<F, L, const W: usize>(
    sbox_degree: u64,
    initial: &[[F; W]],
    internal: &[F],
    terminal: &[[F; W]],
) -> Poseidon2Params
where
    F: PrimeField64,
    L: GenericPoseidon2LinearLayers<W>,
{
    let unit = |j: usize| core::array::from_fn::<F, W, _>(|i| F::from_bool(i == j));
    let mut m4 = [[0u64; 4]; 4];
    for j in 0..4 {
        let mut col = unit(j);
        L::external_linear_layer(&mut col);
        // Column j of the block in rows 4..8, an off-diagonal copy of M4 (every instance
        // here is at least 8 wide).
        for (i, row) in m4.iter_mut().enumerate() {
            row[j] = col[4 + i].as_canonical_u64();
        }
    }
    let internal_diag = (0..W)
        .map(|j| {
            let mut col = unit(j);
            L::internal_linear_layer(&mut col);
            (col[j] - F::ONE).as_canonical_u64()
        })
        .collect();
    Poseidon2Params {
        width: W,
        sbox_degree: sbox_degree as u32,
        m4,
        internal_diag,
        external_initial: initial.iter().map(|r| canonical(r)).collect(),
        internal: canonical(internal),
        external_terminal: terminal.iter().map(|r| canonical(r)).collect(),
    }
}

impl Poseidon2Instance for BabyBear24 {
    const NAME: &'static str = "Poseidon2 BabyBear-24, 9-word digests";
    const DIGEST: usize = 9;
    const FIELD: FieldId = FieldId::BabyBear;
    const PERMUTATION_BITS: u32 = PERMUTATION_BITS;
    fn params() -> Poseidon2Params {
        params::<BabyBear, GenericPoseidon2LinearLayersBabyBear, 24>(
            BABYBEAR_S_BOX_DEGREE,
            &BABYBEAR_POSEIDON2_RC_24_EXTERNAL_INITIAL,
            &BABYBEAR_POSEIDON2_RC_24_INTERNAL,
            &BABYBEAR_POSEIDON2_RC_24_EXTERNAL_FINAL,
        )
    }
}

impl Poseidon2Instance for Mersenne31x24 {
    const NAME: &'static str = "Poseidon2 Mersenne-31-24, 9-word digests";
    const DIGEST: usize = 9;
    const FIELD: FieldId = FieldId::Mersenne31;
    const PERMUTATION_BITS: u32 = PERMUTATION_BITS;
    fn params() -> Poseidon2Params {
        params::<Mersenne31, GenericPoseidon2LinearLayersMersenne31, 24>(
            MERSENNE31_S_BOX_DEGREE,
            &MERSENNE31_POSEIDON2_RC_24_EXTERNAL_INITIAL,
            &MERSENNE31_POSEIDON2_RC_24_INTERNAL,
            &MERSENNE31_POSEIDON2_RC_24_EXTERNAL_FINAL,
        )
    }
}

impl Poseidon2Instance for Goldilocks12 {
    const NAME: &'static str = "Poseidon2 Goldilocks-12, 4-word digests";
    const DIGEST: usize = 4;
    const FIELD: FieldId = FieldId::Goldilocks;
    const PERMUTATION_BITS: u32 = PERMUTATION_BITS;
    fn params() -> Poseidon2Params {
        params::<Goldilocks, GenericPoseidon2LinearLayersGoldilocks, 12>(
            GOLDILOCKS_S_BOX_DEGREE,
            &GOLDILOCKS_POSEIDON2_RC_12_EXTERNAL_INITIAL,
            &GOLDILOCKS_POSEIDON2_RC_12_INTERNAL,
            &GOLDILOCKS_POSEIDON2_RC_12_EXTERNAL_FINAL,
        )
    }
}

//! The membership AIR's Poseidon2 against the Plonky3 field crates' own permutations
//! (known-answer tests on pseudo-random states), and its trace over each real instance.

use p3_baby_bear::{default_babybear_poseidon2_24, BabyBear};
use p3_field::PrimeField64;
use p3_goldilocks::{default_goldilocks_poseidon2_12, Goldilocks};
use p3_mersenne_31::{default_mersenne31_poseidon2_24, Mersenne31};
use p3_symmetric::Permutation;
use picostark_air::membership::Membership;
use picostark_air::poseidon2::Poseidon2Instance;
use picostark_air::{check_trace, AirDef};
use picostark_poseidon2::{BabyBear24, Goldilocks12, Mersenne31x24};

/// splitmix64: reproducible words without a dependency.
fn words(seed: u64, n: usize) -> Vec<u64> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = s;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        })
        .collect()
}

/// Our permutation equals `theirs` on 32 pseudo-random states (and on zero).
fn same_permutation<F, I, const W: usize>(theirs: impl Permutation<[F; W]>)
where
    F: PrimeField64,
    I: Poseidon2Instance,
{
    let params = I::params();
    assert_eq!(params.width, W);
    for seed in 0..33u64 {
        let input: [F; W] = if seed == 0 {
            [F::ZERO; W]
        } else {
            let w = words(seed, W);
            core::array::from_fn(|i| F::from_u64(w[i]))
        };
        let mut ours = input;
        params.permute(&mut ours, &F::from_u64);
        let mut expected = input;
        theirs.permute_mut(&mut expected);
        assert_eq!(ours, expected, "seed {seed}");
        // The committed cells end with the output.
        let cells = params.committed(&input, &F::from_u64);
        assert_eq!(cells.len(), params.committed_cells());
        assert_eq!(&cells[cells.len() - W..], &expected[..]);
    }
}

#[test]
fn babybear24_is_plonky3s() {
    same_permutation::<BabyBear, BabyBear24, 24>(default_babybear_poseidon2_24());
    let p = BabyBear24::params();
    assert_eq!(
        (p.sbox_degree, p.half_full_rounds(), p.partial_rounds()),
        (7, 4, 21)
    );
}

#[test]
fn mersenne31x24_is_plonky3s() {
    same_permutation::<Mersenne31, Mersenne31x24, 24>(default_mersenne31_poseidon2_24());
    let p = Mersenne31x24::params();
    assert_eq!(
        (p.sbox_degree, p.half_full_rounds(), p.partial_rounds()),
        (5, 4, 22)
    );
}

#[test]
fn goldilocks12_is_plonky3s() {
    same_permutation::<Goldilocks, Goldilocks12, 12>(default_goldilocks_poseidon2_12());
    let p = Goldilocks12::params();
    assert_eq!(
        (p.sbox_degree, p.half_full_rounds(), p.partial_rounds()),
        (7, 4, 22)
    );
}

/// The default-depth trace satisfies the AIR; a flipped cell on every third active row, a
/// changed root word and a changed nullifier word are each caught.
fn trace_checks<F: PrimeField64, I: Poseidon2Instance>(width: usize) {
    let air = Membership::<I>::default();
    assert_eq!(air.width(), width);
    let n = air.min_rows();
    assert_eq!(n, 16);
    let t = air.generate_trace(n, F::from_u64);
    check_trace(&air, &t, F::from_u64).unwrap();
    for row in (0..n - 1).step_by(3) {
        for col in (0..width).step_by(7) {
            let mut bad = t.clone();
            bad.values[row * width + col] += F::ONE;
            assert!(check_trace(&air, &bad, F::from_u64).is_err(), "{row}/{col}");
        }
    }
    let d = I::DIGEST;
    for i in [0, d - 1, d, 2 * d - 1] {
        let mut bad = t.clone();
        bad.public_inputs[i] += F::ONE;
        assert!(check_trace(&air, &bad, F::from_u64).is_err(), "public {i}");
    }
}

#[test]
fn traces_satisfy_the_air_over_each_field() {
    trace_checks::<BabyBear, BabyBear24>(237);
    trace_checks::<Mersenne31, Mersenne31x24>(238);
    trace_checks::<Goldilocks, Goldilocks12>(132);
}

/// The statement hash each instance declares: `min(DIGEST * log2 p / 2, 128)` bits.
#[test]
fn statement_hash_bits() {
    assert_eq!(BabyBear24::collision_bits(), 128); // 9 * 30.9 / 2 = 139
    assert_eq!(Mersenne31x24::collision_bits(), 128); // 9 * 31 / 2 = 139
    assert_eq!(Goldilocks12::collision_bits(), 127); // 4 * 63.99.. / 2
    let air = Membership::<BabyBear24>::default();
    assert_eq!(air.statement_hash(), Some((128, BabyBear24::NAME)));
}

/// The statement recomputed independently of the AIR's Poseidon2: root, nullifier, signal
/// and scope from the demo witness with the field crate's own permutation, each hash
/// `P([a, b, 0.., tag])` truncated to the digest, against the trace's public inputs; and the
/// nullifier never equals the leaf, whatever the scope.
fn recomputed<F, I, const W: usize>(perm: impl Permutation<[F; W]>)
where
    F: PrimeField64,
    I: Poseidon2Instance,
{
    use picostark_air::membership::{Witness, TAG_BINDING, TAG_LEAF, TAG_NODE, TAG_NULLIFIER};
    let d = I::DIGEST;
    let hash = |a: &[F], b: &[F], tag: u64| -> Vec<F> {
        let mut state = [F::ZERO; W];
        state[..a.len()].copy_from_slice(a);
        state[a.len()..a.len() + b.len()].copy_from_slice(b);
        state[W - 1] = F::from_u64(tag);
        perm.permute_mut(&mut state);
        state[..d].to_vec()
    };
    let f = |v: &[u64]| v.iter().map(|&x| F::from_u64(x)).collect::<Vec<F>>();
    let air = Membership::<I>::default();
    let wit = Witness::demo(d, air.depth());
    let (id, scope, signal) = (f(&wit.identity), f(&wit.scope), f(&wit.signal));
    let leaf = hash(&id, &[], TAG_LEAF);
    let mut node = leaf.clone();
    for (level, sibling) in wit.siblings.iter().enumerate() {
        let s = f(sibling);
        node = if (wit.index >> level) & 1 == 1 {
            hash(&s, &node, TAG_NODE)
        } else {
            hash(&node, &s, TAG_NODE)
        };
    }
    let nullifier = hash(&id, &scope, TAG_NULLIFIER);
    let t = air.generate_trace(air.min_rows(), F::from_u64);
    assert_eq!(
        t.public_inputs,
        [node, nullifier, signal.clone(), scope].concat()
    );
    // The binding row hashes [scope, signal] under its own tag: not the nullifier's input.
    assert_ne!(
        hash(&f(&wit.scope), &signal, TAG_BINDING),
        hash(&f(&wit.scope), &signal, TAG_NULLIFIER)
    );
    for scope in [vec![F::ZERO; d], vec![F::NEG_ONE; d], f(&words(7, d))] {
        assert_ne!(hash(&id, &scope, TAG_NULLIFIER), leaf);
    }
}

#[test]
fn statement_recomputed_with_the_field_crates_permutations() {
    recomputed::<BabyBear, BabyBear24, 24>(default_babybear_poseidon2_24());
    recomputed::<Mersenne31, Mersenne31x24, 24>(default_mersenne31_poseidon2_24());
    recomputed::<Goldilocks, Goldilocks12, 12>(default_goldilocks_poseidon2_12());
}

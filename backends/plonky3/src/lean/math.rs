//! Field helpers the lean PCS paths share: batch inversion, bit reversal and a power with
//! as many steps whatever the exponent.

use p3_field::{ExtensionField, Field};

use super::reader::WireField;
use picostark_core::{Check, VerifyError};

/// Montgomery's batch inversion in place; fails on a zero (the protocol's denominators: a
/// zero one is [`Check::DegeneratePoint`]).
pub fn batch_invert<F: WireField>(values: &mut [F], scratch: &mut [F]) -> Result<(), VerifyError> {
    let mut acc = F::ONE;
    for (v, s) in values.iter().zip(scratch.iter_mut()) {
        *s = acc;
        acc *= *v;
    }
    let mut inv = acc.base_inverse().ok_or(Check::DegeneratePoint)?;
    for (v, s) in values.iter_mut().zip(scratch.iter()).rev() {
        let next = inv * *v;
        *v = inv * *s;
        inv = next;
    }
    Ok(())
}

/// [`batch_invert`] in a challenge field, through `F`'s hooks ([`WireField::ext_mul`]): our
/// own products where `EF` has a twin of ours.
pub fn batch_invert_ext<F: WireField, EF: ExtensionField<F>>(
    values: &mut [EF],
    scratch: &mut [EF],
) -> Result<(), VerifyError> {
    let mut acc = EF::ONE;
    for (v, s) in values.iter().zip(scratch.iter_mut()) {
        *s = acc;
        acc = F::ext_mul(acc, *v);
    }
    let mut inv = F::ext_inverse(acc).ok_or(Check::DegeneratePoint)?;
    for (v, s) in values.iter_mut().zip(scratch.iter()).rev() {
        let next = F::ext_mul(inv, *v);
        *v = F::ext_mul(inv, *s);
        inv = next;
    }
    Ok(())
}

/// `x`'s low `bits` bits reversed.
pub fn reverse_bits(x: usize, bits: usize) -> usize {
    if bits == 0 {
        0
    } else {
        x.reverse_bits() >> (usize::BITS as usize - bits)
    }
}

/// `base^e` for an exponent below `2^bits`, one squaring and one product per bit whatever
/// `e` is (`exp_u64` multiplies once per set bit): a query index's point costs the same for
/// every index (issue 46).
pub fn pow_fixed<F: Field>(base: F, e: usize, bits: usize) -> F {
    let mut acc = F::ONE;
    let mut sq = base;
    for i in 0..bits {
        acc *= [F::ONE, sq][(e >> i) & 1];
        sq = sq.square();
    }
    acc
}

/// `root^-1` for a `root` of order `2^bits` (a two-adic generator): `root^(2^bits - 1)`,
/// `bits` squarings and products instead of a field inversion (about three times the
/// instructions for BabyBear on the M33).
pub fn root_inverse<F: Field>(root: F, bits: usize) -> F {
    pow_fixed(root, usize::MAX, bits)
}

/// `a == b` comparing every coefficient: the derived `==` stops at the first that differs,
/// so a failed check would cost less than a passed one (issue 46).
#[inline]
pub fn ext_equal<F: Field, EF: ExtensionField<F>>(a: &EF, b: &EF) -> bool {
    let (a, b) = (
        a.as_basis_coefficients_slice(),
        b.as_basis_coefficients_slice(),
    );
    a.iter().zip(b).fold(true, |eq, (x, y)| eq & (x == y))
}

#[cfg(test)]
mod tests {
    use super::*;
    use p3_baby_bear::BabyBear;
    use p3_field::{PrimeCharacteristicRing, TwoAdicField};
    use p3_goldilocks::Goldilocks;

    fn roots_invert<F: TwoAdicField>() {
        for bits in [0, 1, 4, 22, F::TWO_ADICITY] {
            let g = F::two_adic_generator(bits);
            assert_eq!(root_inverse(g, bits) * g, F::ONE, "{bits}");
        }
        // Not a root of that order: not its inverse.
        let g = F::two_adic_generator(5);
        assert_ne!(root_inverse(g, 4) * g, F::ONE);
    }

    #[test]
    fn root_inverse_inverts_two_adic_generators() {
        roots_invert::<BabyBear>();
        roots_invert::<Goldilocks>();
    }

    #[test]
    fn pow_fixed_is_exponentiation() {
        let b = BabyBear::from_u32(7);
        for e in [0usize, 1, 0xabcde, (1 << 20) - 1] {
            assert_eq!(pow_fixed(b, e, 20), b.exp_u64(e as u64));
        }
        // Bits past `bits` are not taken.
        assert_eq!(pow_fixed(b, 1 << 20, 20), BabyBear::ONE);
    }
}

//! Field helpers the lean PCS paths share: batch inversion and bit reversal. A leaf beside
//! `reader` (whose rejection it returns).

use p3_field::Field;
use picostark_core::VerifyError;

use super::reader::REJECTED;

/// Montgomery's batch inversion in place; fails on a zero.
pub fn batch_invert<EF: Field>(values: &mut [EF], scratch: &mut [EF]) -> Result<(), VerifyError> {
    let mut acc = EF::ONE;
    for (v, s) in values.iter().zip(scratch.iter_mut()) {
        *s = acc;
        acc *= *v;
    }
    let mut inv = acc.try_inverse().ok_or(REJECTED)?;
    for (v, s) in values.iter_mut().zip(scratch.iter()).rev() {
        let next = inv * *v;
        *v = inv * *s;
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

//! Field arithmetic the verifier's phases share: powers of a domain generator from a table
//! of its squares, and batch inversion. A leaf: it imports no other verifier module.

use alloc::vec::Vec;

use winter_math::{FieldElement, StarkField};

/// The powers `g^(d 4^i)` (`d` < 4) of a domain generator `g` of order `2^log_size`: a power
/// `g^e` is the product of one entry per two bits of `e`, the same number of products for
/// every exponent (issue 46: the verifier takes a power of the LDE generator for every query
/// at every layer and in the DEEP composition, at indices the transcript draws), and no
/// squarings (`exp_vartime` squares once per bit and multiplies once per set bit).
pub struct Powers<B> {
    table: [[B; 4]; 16],
    log_size: u32,
}

impl<B: StarkField> Powers<B> {
    /// The table of `g`, of order `2^log_size` (`log_size` at most 31: the checked LDE size).
    pub fn new(g: B, log_size: u32) -> Self {
        let log_size = log_size.min(31);
        let mut table = [[B::ONE; 4]; 16];
        let mut p = g;
        for row in table.iter_mut().take(log_size.div_ceil(2) as usize) {
            row[1] = p;
            row[2] = p.square();
            row[3] = row[2] * p;
            p = row[2].square();
        }
        Powers { table, log_size }
    }

    /// `g^e`, the exponent taken modulo the order.
    pub fn pow(&self, e: usize) -> B {
        let e = e as u64 & ((1u64 << self.log_size) - 1);
        let mut acc = B::ONE;
        for (i, row) in self.table[..self.log_size.div_ceil(2) as usize]
            .iter()
            .enumerate()
        {
            acc *= row[((e >> (2 * i)) & 3) as usize];
        }
        acc
    }

    /// `g^-e`.
    pub fn pow_inv(&self, e: usize) -> B {
        self.pow((1usize << self.log_size).wrapping_sub(e))
    }
}

/// Replaces every element by its inverse (zero stays zero, as `FieldElement::inv` has it)
/// with one field inversion in all (Montgomery's trick). Not `winter_math::batch_inversion`:
/// when the prover feature unifies winterfell's `concurrent` feature in, that one runs on the
/// rayon pool (starting it on first use), so a host verify would spawn threads and its heap
/// counts would depend on which thread started the pool first.
pub fn invert_in_place<E: FieldElement>(values: &mut [E]) {
    let mut prefix = Vec::with_capacity(values.len());
    let mut acc = E::ONE;
    for &v in values.iter() {
        prefix.push(acc);
        if v != E::ZERO {
            acc *= v;
        }
    }
    let mut inv = acc.inv();
    for (v, &before) in values.iter_mut().zip(&prefix).rev() {
        if *v != E::ZERO {
            let original = *v;
            *v = inv * before;
            inv *= original;
        }
    }
}

/// `a == b` comparing every base element: an extension's derived `==` stops at the first
/// that differs, so a failed check would cost less than a passed one (issue 46).
#[inline]
pub fn equal<E: FieldElement>(a: E, b: E) -> bool {
    (0..E::EXTENSION_DEGREE).fold(true, |eq, i| eq & (a.base_element(i) == b.base_element(i)))
}

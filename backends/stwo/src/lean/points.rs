//! Circle points at domain positions, without stwo's per-point scalar multiplication.
//!
//! stwo turns a point index into a point with `M31_CIRCLE_GEN.mul(index)` (31 doublings
//! and an addition per set bit) and builds a `Coset` (two such products) or a `LineDomain`
//! (two order computations, up to 62 more doublings) for every folded subset. Here the 31
//! doublings of the generator are made once ([`PointTable`]) and a point is the sum of the
//! table's entries for the index's set bits; the cosets are kept as index arithmetic
//! ([`IndexCoset`]), which is exact modulo the group order `2^31`, as stwo's is.

use stwo::core::circle::{CirclePoint, CirclePointIndex, M31_CIRCLE_GEN, M31_CIRCLE_LOG_ORDER};
use stwo::core::fields::m31::M31;
use stwo::core::utils::bit_reverse_index;

/// `2^k` times the circle group's generator, for every `k` below the group's log order.
pub struct PointTable {
    powers: [CirclePoint<M31>; M31_CIRCLE_LOG_ORDER as usize],
}

impl Default for PointTable {
    fn default() -> Self {
        Self::new()
    }
}

impl PointTable {
    pub fn new() -> Self {
        let mut powers = [M31_CIRCLE_GEN; M31_CIRCLE_LOG_ORDER as usize];
        for k in 1..powers.len() {
            powers[k] = powers[k - 1].double();
        }
        Self { powers }
    }

    /// The point of index `index` (the generator times `index`, modulo the group order).
    pub fn point(&self, index: CirclePointIndex) -> CirclePoint<M31> {
        let mut bits = index.reduce().0;
        let mut point = CirclePoint::zero();
        while bits != 0 {
            let k = bits.trailing_zeros() as usize;
            point = point + self.powers[k];
            bits &= bits - 1;
        }
        point
    }
}

/// The coset `initial + <step>` of `2^log_size` points, as indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IndexCoset {
    pub initial: CirclePointIndex,
    pub step: CirclePointIndex,
    pub log_size: u32,
}

impl IndexCoset {
    /// The coset of `2^log_size` points from `initial` (stwo's `Coset::new`).
    pub fn new(initial: CirclePointIndex, log_size: u32) -> Self {
        Self {
            initial,
            step: CirclePointIndex::subgroup_gen(log_size),
            log_size,
        }
    }

    /// `G_4n + <G_n>` for `n = 2^log_size` (stwo's `Coset::half_odds`): the half coset of a
    /// canonic circle domain of `2n` points, and the first FRI line domain.
    pub fn half_odds(log_size: u32) -> Self {
        Self::new(CirclePointIndex::subgroup_gen(log_size + 2), log_size)
    }

    /// The index of the coset's `i`-th point.
    pub fn index_at(&self, i: usize) -> CirclePointIndex {
        self.initial + self.step * i
    }

    /// Every point doubled `n` times: `2^n` times fewer of them.
    pub fn repeated_double(&self, n: u32) -> Self {
        Self {
            initial: CirclePointIndex(self.initial.0 << n).reduce(),
            step: CirclePointIndex(self.step.0 << n).reduce(),
            log_size: self.log_size - n,
        }
    }
}

/// The index of position `i` of the circle domain whose half coset is `half` (stwo's
/// `CircleDomain::index_at`: the half coset, then its conjugate).
pub fn circle_domain_index(half: &IndexCoset, i: usize) -> CirclePointIndex {
    let size = 1usize << half.log_size;
    if i < size {
        half.index_at(i)
    } else {
        -half.index_at(i - size)
    }
}

/// The point of a canonic circle domain of `2^log_size` points at bit-reversed position
/// `position`: where column values committed in stwo's order sit.
pub fn canonic_domain_point(
    table: &PointTable,
    log_size: u32,
    position: usize,
) -> CirclePoint<M31> {
    let half = IndexCoset::half_odds(log_size - 1);
    table.point(circle_domain_index(
        &half,
        bit_reverse_index(position, log_size),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use stwo::core::circle::Coset;
    use stwo::core::poly::circle::CanonicCoset;
    use stwo::core::poly::line::LineDomain;

    #[test]
    fn table_points_equal_stwos_scalar_products() {
        let table = PointTable::new();
        for index in [0usize, 1, 2, 3, 12345, (1 << 31) - 1, 1 << 30, 0x5555_5555] {
            let index = CirclePointIndex(index).reduce();
            assert_eq!(table.point(index), index.to_point(), "{index:?}");
        }
        // Not the identity for a non-zero index: the table is not all zeros.
        assert_ne!(table.point(CirclePointIndex(5)), CirclePoint::zero());
    }

    #[test]
    fn domain_points_and_cosets_equal_stwos() {
        let table = PointTable::new();
        for log_size in [2u32, 5, 13] {
            let domain = CanonicCoset::new(log_size).circle_domain();
            for position in [0usize, 1, 2, (1 << log_size) - 1, 3 % (1 << log_size)] {
                let ours = canonic_domain_point(&table, log_size, position);
                let theirs = domain.at(bit_reverse_index(position, log_size));
                assert_eq!(ours, theirs, "log {log_size} position {position}");
            }
            let coset = IndexCoset::half_odds(log_size).repeated_double(1);
            let line = LineDomain::new(Coset::half_odds(log_size)).double();
            for i in [0usize, 1, (1 << (log_size - 1)) - 1] {
                assert_eq!(table.point(coset.index_at(i)).x, line.at(i));
            }
        }
        // A wrong position gives another point.
        assert_ne!(
            canonic_domain_point(&table, 5, 1),
            canonic_domain_point(&table, 5, 2)
        );
    }
}

//! The one adapter from an [`AirDef`] to stwo's constraint framework ([`FrameworkEval`]).
//!
//! stwo evaluates every constraint on every row of the trace's circle domain, the last row
//! wrapping to the first. Our AIRs' transitions hold on rows `0..n-1` and their boundaries on
//! the first and last rows, so the adapter reads two preprocessed selector columns:
//! `is_first` (1 on row 0) and `is_last` (1 on row n-1). Each transition is multiplied by
//! `1 - is_last` (so the wrap is not constrained) and each boundary by its row's selector:
//! every constraint is one degree above the AIR's, which is the circle shape the security
//! estimate counts (`picostark_airs::shape`).
//!
//! stwo 2.3 proves constraint degree 2 with the selector ([`crate::MAX_CONSTRAINT_DEGREE`]),
//! so the adapter takes every AIR in its degree-reduced form ([`reduced`]:
//! `picostark_air::reduce`, an intermediate column for every product), derived from the
//! AIR's own constraints: the AIR's constraints, now linear, under the selectors, and the
//! intermediate columns' definitions (degree 2) on every row, the wrap included, as the
//! reduced trace satisfies them. The intermediate columns are read on their row only (one
//! mask point each); the AIR's own on their row and the next.
//!
//! The verifier takes the selectors' commitment from [`crate::preprocessed`], never from
//! the proof: a prover who committed other selectors would escape the constraints.
//!
//! Row `i` of our trace sits at position `i` of the trace's canonic coset; stwo stores
//! columns in bit-reversed circle-domain order, so the prover places it at
//! [`trace_position`]`(i, log_n)`.

use alloc::string::ToString;
use alloc::vec::Vec;

use num_traits::One;
use picostark_air::reduce::DegreeReduced;
use picostark_air::{AirDef, BoundaryValue, Frame, Row};
use picostark_core::BackendId;
use stwo::core::fields::m31::{BaseField, M31};
use stwo::core::utils::{bit_reverse_index, coset_index_to_circle_domain_index};
use stwo_constraint_framework::preprocessed_columns::PreProcessedColumnId;
use stwo_constraint_framework::{EvalAtRow, FrameworkEval, ORIGINAL_TRACE_IDX};

/// The preprocessed selector of the first row.
pub const IS_FIRST: &str = "is_first";
/// The preprocessed selector of the last row.
pub const IS_LAST: &str = "is_last";

/// Where row `row` of a trace of `2^log_n` rows is stored in stwo's bit-reversed
/// circle-domain order.
pub fn trace_position(row: usize, log_n: u32) -> usize {
    bit_reverse_index(coset_index_to_circle_domain_index(row, log_n), log_n)
}

/// The column id stwo's allocator knows a selector by.
pub fn column_id(name: &str) -> PreProcessedColumnId {
    PreProcessedColumnId {
        id: name.to_string(),
    }
}

/// `air` as this backend proves it: its constraints reduced to the degree stwo holds beside
/// the row selector (`BackendId::max_air_degree`).
pub fn reduced<A: AirDef>(air: &A) -> DegreeReduced<A> {
    DegreeReduced::new(air.clone(), MAX_AIR_DEGREE)
}

/// The AIR's own constraint degree this backend proves (one below stwo's bound with the
/// selector). Read from the backend id, not from the crate root, which imports this module;
/// an id without a bound stops the build here rather than falling back to a second copy.
const MAX_AIR_DEGREE: usize = match BackendId::StwoM31.max_air_degree() {
    Some(degree) => degree,
    None => panic!("stwo-m31 names its AIR degree bound (BackendId::max_air_degree)"),
};

/// The largest constraint degree of `air`'s reduced form as stated to stwo: its AIR
/// constraints one above their own under the selector, the definitions as they are, a
/// boundary 2.
pub fn stated_degree<A: AirDef>(air: &DegreeReduced<A>) -> u32 {
    let (own, definitions) = air.transition_degrees().split_at(air.num_air_constraints());
    let own = own.iter().map(|&d| d + 1).max().unwrap_or(0);
    let definitions = definitions.iter().copied().max().unwrap_or(0);
    own.max(definitions).max(2) as u32
}

/// An AIR over M31 as a stwo component's constraints: the AIR in its reduced form
/// ([`reduced`]), the trace's log length and the public inputs (canonical M31 values).
pub struct AirEval<'a, A: AirDef> {
    pub air: &'a DegreeReduced<A>,
    pub log_n: u32,
    pub public_inputs: Vec<BaseField>,
}

impl<A: AirDef> AirEval<'_, A> {
    /// The largest constraint degree after the selectors ([`stated_degree`]).
    pub fn max_degree(&self) -> u32 {
        stated_degree(self.air)
    }
}

/// `ceil(log2(x))` for `x >= 1`.
fn ceil_log2(x: u32) -> u32 {
    x.next_power_of_two().trailing_zeros()
}

/// An AIR constant (below 2^64) as an M31 element.
pub fn m31_of(value: u64) -> BaseField {
    M31::reduce(value % u64::from(stwo::core::fields::m31::P))
}

impl<A: AirDef> FrameworkEval for AirEval<'_, A> {
    fn log_size(&self) -> u32 {
        self.log_n
    }

    /// The quotient of a degree-`d` constraint has degree `(d - 1) n`; stwo evaluates the
    /// composition on a domain of `2^(log_n + ceil(log2 d))` points, which holds it.
    fn max_constraint_log_degree_bound(&self) -> u32 {
        self.log_n + ceil_log2(self.max_degree())
    }

    fn evaluate<E: EvalAtRow>(&self, mut eval: E) -> E {
        let is_first = eval.get_preprocessed_column(column_id(IS_FIRST));
        let is_last = eval.get_preprocessed_column(column_id(IS_LAST));
        let own = self.air.inner().width();
        let mut local = Vec::with_capacity(self.air.width());
        let mut next = Vec::with_capacity(own);
        for _ in 0..own {
            let [here, below] = eval.next_interaction_mask(ORIGINAL_TRACE_IDX, [0, 1]);
            local.push(here);
            next.push(below);
        }
        // The intermediate columns: their own row only (the reduced AIR reads no other).
        for _ in 0..self.air.num_cuts() {
            local.push(eval.next_trace_mask());
        }
        let public: Vec<E::F> = self.public_inputs.iter().map(|&v| E::F::from(v)).collect();
        let constant = |c: u64| E::F::from(m31_of(c));
        let frame = Frame {
            local: &local,
            next: &next,
            public: &public,
            constant: &constant,
        };
        let not_last = E::F::from(BaseField::one()) - is_last.clone();
        let mut transitions = Vec::with_capacity(self.air.transition_degrees().len());
        self.air
            .eval_transition(&frame, &mut |c| transitions.push(c));
        let own = self.air.num_air_constraints();
        for (i, c) in transitions.into_iter().enumerate() {
            // The AIR's constraints hold on rows 0..n-1; the definitions on every row.
            if i < own {
                eval.add_constraint(not_last.clone() * c);
            } else {
                eval.add_constraint(c);
            }
        }
        for b in self.air.boundaries() {
            let selector = match b.row {
                Row::First => is_first.clone(),
                Row::Last => is_last.clone(),
            };
            let value = match b.value {
                BoundaryValue::Constant(c) => E::F::from(m31_of(c)),
                // An index past the public inputs is an AIR bug, not hostile input: the
                // verifier checks the count against the AIR before building this.
                BoundaryValue::Public(i) => public[i].clone(),
            };
            eval.add_constraint(selector * (local[b.column].clone() - value));
        }
        eval
    }
}

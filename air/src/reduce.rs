//! Degree reduction: any [`AirDef`] restated with constraints of degree at most `D` by
//! intermediate trace columns, for a prover that bounds the degree. stwo 2.3 holds
//! constraint degree 2 in all (its composition has twice the trace's degree), and the row
//! selector that keeps a transition off the last row costs one of them, so its AIRs are
//! linear (`D = 1`) with quadratic definitions of the intermediate columns, which need no
//! selector (below).
//!
//! The AIR's own constraints are read symbolically, as they are written: a planning pass
//! evaluates them over degrees. Wherever a product would pass the definitions' bound
//! (`max(D, 2)`) it cuts a factor of degree above 1, and wherever a product passes `D` it
//! cuts the product: that value (a node of the evaluation, known by the order in which the
//! AIR computes it) becomes a trace column of its own, defined by `column - value = 0`.
//! Later evaluations read the column wherever the AIR computes that node, so every AIR
//! constraint has degree at most `D`. The AIR's evaluation is the same sequence of
//! operations over every algebra (it cannot branch on values), which is what makes the node
//! order a name.
//!
//! Columns `0..inner width` are the AIR's own, then one per cut node. A cut node's value is
//! a function of a row and the row after it, and the trace generator fills it on every row,
//! the last one from the last row and the first (the trace's wrap): its definition holds
//! on every row, so a prover may state it without a row selector. An AIR already within
//! `D` has no cuts, and its reduced form evaluates exactly as the AIR does.

use alloc::vec::Vec;
use core::cell::{Cell, RefCell};
use core::ops::{Add, Mul, Sub};

use crate::{AirDef, AirId, Algebra, Boundary, Frame, Trace};

/// `inner` with every constraint of degree at most `max_degree` (see the module's text).
#[derive(Clone, Debug)]
pub struct DegreeReduced<A> {
    inner: A,
    max_degree: usize,
    /// The cut nodes, by evaluation order, increasing: node `cuts[k]` is column
    /// `inner.width() + k`.
    cuts: Vec<usize>,
    /// The inner constraints' degrees after the cuts, then one per cut node.
    degrees: Vec<usize>,
}

impl<A: AirDef> DegreeReduced<A> {
    /// Plans the cuts for `inner`, its constraints reduced to degree `max_degree` (at least
    /// 1) and the intermediate columns' definitions to `max(max_degree, 2)`.
    pub fn new(inner: A, max_degree: usize) -> Self {
        assert!(
            max_degree >= 1,
            "degree reduction to degree 0 is not a trace"
        );
        let ctx = PlanCtx {
            nodes: Cell::new(0),
            cut_bits: RefCell::new(Vec::new()),
            max_degree,
            max_definition: max_degree.max(2),
        };
        let cell = |_| Planned {
            node: None,
            degree: 1,
            ctx: &ctx,
        };
        let local: Vec<Planned> = (0..inner.width()).map(cell).collect();
        let next = local.clone();
        let public: Vec<Planned> = (0..inner.num_public_inputs())
            .map(|_| Planned::constant(&ctx))
            .collect();
        let constant = |_| Planned::constant(&ctx);
        let frame = Frame {
            local: &local,
            next: &next,
            public: &public,
            constant: &constant,
        };
        inner.eval_transition(&frame, &mut |_| {});
        drop((local, next, public));
        let cuts = ctx.cuts();
        let degrees = reduced_degrees(&inner, &cuts);
        DegreeReduced {
            inner,
            max_degree,
            cuts,
            degrees,
        }
    }

    /// The AIR as written.
    pub fn inner(&self) -> &A {
        &self.inner
    }

    /// The intermediate columns added (after the AIR's own).
    pub fn num_cuts(&self) -> usize {
        self.cuts.len()
    }

    /// The degree bound the AIR's constraints were reduced to.
    pub fn max_degree(&self) -> usize {
        self.max_degree
    }

    /// The AIR's constraints: the first this many of [`AirDef::eval_transition`]'s, which
    /// hold on rows `0..n-1`; the rest define the intermediate columns and hold on every
    /// row, the wrap included.
    pub fn num_air_constraints(&self) -> usize {
        self.degrees.len() - self.cuts.len()
    }

    /// Runs the inner AIR's constraints over `E`, reading the intermediate columns from
    /// `aux` (or, with `None`, computing them), and returns each cut node's computed value.
    fn run<E: Algebra>(
        &self,
        frame: &Frame<'_, E>,
        aux: Option<&[E]>,
        emit: &mut dyn FnMut(E),
    ) -> Vec<E> {
        let w = self.inner.width();
        let ctx = EvalCtx {
            nodes: Cell::new(0),
            next_cut: Cell::new(0),
            cuts: &self.cuts,
            aux,
            computed: RefCell::new(Vec::with_capacity(self.cuts.len())),
        };
        let wrap = |v: &E| Tracked {
            value: v.clone(),
            ctx: &ctx,
        };
        let local: Vec<Tracked<E>> = frame.local[..w].iter().map(wrap).collect();
        let next: Vec<Tracked<E>> = frame.next[..w].iter().map(wrap).collect();
        let public: Vec<Tracked<E>> = frame.public.iter().map(wrap).collect();
        let constant = |c: u64| Tracked {
            value: (frame.constant)(c),
            ctx: &ctx,
        };
        let inner_frame = Frame {
            local: &local,
            next: &next,
            public: &public,
            constant: &constant,
        };
        self.inner
            .eval_transition(&inner_frame, &mut |c| emit(c.value));
        drop((local, next, public));
        ctx.computed.take()
    }
}

impl<A: AirDef> Default for DegreeReduced<A> {
    /// The default AIR reduced to degree 2.
    fn default() -> Self {
        DegreeReduced::new(A::default(), 2)
    }
}

impl<A: AirDef> AirDef for DegreeReduced<A> {
    const NAME: &'static str = A::NAME;

    /// The AIR's own: a proof of the reduced form is a proof of the AIR.
    fn id(&self) -> AirId {
        self.inner.id()
    }

    fn width(&self) -> usize {
        self.inner.width() + self.cuts.len()
    }

    fn num_public_inputs(&self) -> usize {
        self.inner.num_public_inputs()
    }

    fn transition_degrees(&self) -> &[usize] {
        &self.degrees
    }

    /// The AIR's constraints, then `column - value` per intermediate column
    /// ([`DegreeReduced::num_air_constraints`]). Reads `frame.next` only at the AIR's own
    /// columns (the intermediate ones are never read on
    /// the next row), so a caller may pass the next row without them.
    fn eval_transition<E: Algebra>(&self, frame: &Frame<'_, E>, emit: &mut dyn FnMut(E)) {
        if self.cuts.is_empty() {
            return self.inner.eval_transition(frame, emit);
        }
        let w = self.inner.width();
        let aux = &frame.local[w..w + self.cuts.len()];
        let computed = self.run(frame, Some(aux), emit);
        for (column, value) in aux.iter().zip(computed) {
            emit(column.clone() - value);
        }
    }

    fn boundaries(&self) -> Vec<Boundary> {
        self.inner.boundaries()
    }

    fn statement_hash(&self) -> Option<(u32, &'static str)> {
        self.inner.statement_hash()
    }

    /// The AIR's trace, each row followed by its cut nodes' values computed from it and the
    /// row after (the first row after the last: that row's constraints are not enforced).
    fn generate_trace<F>(&self, n: usize, from_u64: impl Fn(u64) -> F) -> Trace<F>
    where
        F: Copy + Add<Output = F> + Sub<Output = F> + Mul<Output = F>,
    {
        let trace = self.inner.generate_trace(n, &from_u64);
        if self.cuts.is_empty() {
            return trace;
        }
        let width = self.width();
        let mut values = Vec::with_capacity(width * n);
        for row in 0..n {
            let frame = Frame {
                local: trace.row(row),
                next: trace.row((row + 1) % n),
                public: &trace.public_inputs,
                constant: &from_u64,
            };
            values.extend_from_slice(trace.row(row));
            values.extend(self.run(&frame, None, &mut |_| {}));
        }
        Trace {
            width,
            values,
            public_inputs: trace.public_inputs,
        }
    }
}

/// The planning pass's state.
struct PlanCtx {
    /// Operations evaluated so far: the next node's name.
    nodes: Cell<usize>,
    /// The nodes cut so far, a bit a node: the pass asks whether a node is cut at every
    /// operand of every operation, and a binary search of the cut list there took 12 % of a
    /// membership proof's verification in stwo's firmware, which plans per verify.
    cut_bits: RefCell<Vec<u32>>,
    /// The bound of the AIR's constraints.
    max_degree: usize,
    /// The bound of a cut node's definition: `max(max_degree, 2)`.
    max_definition: usize,
}

impl PlanCtx {
    fn is_cut(&self, node: usize) -> bool {
        let bits = self.cut_bits.borrow();
        bits.get(node / 32)
            .is_some_and(|word| word >> (node % 32) & 1 == 1)
    }

    fn cut(&self, node: usize) {
        let mut bits = self.cut_bits.borrow_mut();
        if bits.len() <= node / 32 {
            bits.resize(node / 32 + 1, 0);
        }
        bits[node / 32] |= 1 << (node % 32);
    }

    /// The cut nodes, increasing.
    fn cuts(&self) -> Vec<usize> {
        let bits = self.cut_bits.borrow();
        let mut cuts = Vec::with_capacity(bits.iter().map(|w| w.count_ones() as usize).sum());
        for (i, &word) in bits.iter().enumerate() {
            cuts.extend((0..32).filter(|b| word >> b & 1 == 1).map(|b| 32 * i + b));
        }
        cuts
    }
}

/// The reduced form's constraint degrees, in [`DegreeReduced::eval_transition`]'s order:
/// the AIR's constraints, then `column - value` per cut node (the value's degree, at least
/// 1). A second pass over degrees with the cuts in place, so the figures are exact (the
/// planning pass's may be higher: a node cut after its first use).
fn reduced_degrees<A: AirDef>(inner: &A, cuts: &[usize]) -> Vec<usize> {
    let ctx = DegreeCtx {
        nodes: Cell::new(0),
        next_cut: Cell::new(0),
        cuts,
        degrees: RefCell::new(Vec::with_capacity(cuts.len())),
    };
    let local: Vec<Degree> = (0..inner.width()).map(|_| Degree(1, &ctx)).collect();
    let public: Vec<Degree> = (0..inner.num_public_inputs())
        .map(|_| Degree(0, &ctx))
        .collect();
    let constant = |_| Degree(0, &ctx);
    let frame = Frame {
        local: &local,
        next: &local,
        public: &public,
        constant: &constant,
    };
    let mut degrees = Vec::new();
    inner.eval_transition(&frame, &mut |d| degrees.push(d.0));
    drop((local, public));
    degrees.extend(ctx.degrees.take());
    degrees
}

/// A value of the planning pass: its node (none for cells and constants, which are never
/// cut) and degree in the trace cells.
#[derive(Clone)]
struct Planned<'c> {
    node: Option<usize>,
    degree: usize,
    ctx: &'c PlanCtx,
}

impl<'c> Planned<'c> {
    fn constant(ctx: &'c PlanCtx) -> Self {
        Planned {
            node: None,
            degree: 0,
            ctx,
        }
    }

    /// The degree as read now: 1 once cut.
    fn effective(&self) -> usize {
        match self.node {
            Some(node) if self.degree > 1 && self.ctx.is_cut(node) => 1,
            _ => self.degree,
        }
    }

    fn result(ctx: &'c PlanCtx, degree: usize) -> Self {
        let node = ctx.nodes.get();
        ctx.nodes.set(node + 1);
        Planned {
            node: Some(node),
            degree,
            ctx,
        }
    }
}

impl Add for Planned<'_> {
    type Output = Self;
    fn add(self, o: Self) -> Self {
        Planned::result(self.ctx, self.effective().max(o.effective()))
    }
}

impl Sub for Planned<'_> {
    type Output = Self;
    fn sub(self, o: Self) -> Self {
        Planned::result(self.ctx, self.effective().max(o.effective()))
    }
}

impl Mul for Planned<'_> {
    type Output = Self;
    fn mul(self, o: Self) -> Self {
        let ctx = self.ctx;
        // Cut the factor of larger degree until the product fits a definition (at most
        // both: each is then of degree 1, and 1 + 1 <= max(D, 2)).
        while self.effective() + o.effective() > ctx.max_definition {
            let larger = if self.effective() >= o.effective() {
                &self
            } else {
                &o
            };
            // A factor of degree above 1 is an operation's result, so it has a node.
            ctx.cut(larger.node.expect("a product of degree above 1 has a node"));
        }
        let product = Planned::result(ctx, self.effective() + o.effective());
        // Above the constraints' bound, the product is a column of its own.
        if product.degree > ctx.max_degree {
            ctx.cut(product.node.expect("a result has a node"));
        }
        product
    }
}

/// The second planning pass: records each cut node's degree when it is computed.
struct DegreeCtx<'p> {
    nodes: Cell<usize>,
    /// The first of `cuts` not yet reached: nodes come in increasing order.
    next_cut: Cell<usize>,
    cuts: &'p [usize],
    degrees: RefCell<Vec<usize>>,
}

#[derive(Clone)]
struct Degree<'c, 'p>(usize, &'c DegreeCtx<'p>);

impl<'c, 'p> Degree<'c, 'p> {
    fn result(ctx: &'c DegreeCtx<'p>, degree: usize) -> Self {
        let node = ctx.nodes.get();
        ctx.nodes.set(node + 1);
        if ctx.cuts.get(ctx.next_cut.get()) == Some(&node) {
            ctx.next_cut.set(ctx.next_cut.get() + 1);
            ctx.degrees.borrow_mut().push(degree.max(1));
            Degree(1, ctx)
        } else {
            Degree(degree, ctx)
        }
    }
}

impl Add for Degree<'_, '_> {
    type Output = Self;
    fn add(self, o: Self) -> Self {
        Degree::result(self.1, self.0.max(o.0))
    }
}

impl Sub for Degree<'_, '_> {
    type Output = Self;
    fn sub(self, o: Self) -> Self {
        Degree::result(self.1, self.0.max(o.0))
    }
}

impl Mul for Degree<'_, '_> {
    type Output = Self;
    // Degrees add under multiplication.
    #[allow(clippy::suspicious_arithmetic_impl)]
    fn mul(self, o: Self) -> Self {
        Degree::result(self.1, self.0 + o.0)
    }
}

/// The evaluation pass's state.
struct EvalCtx<'p, E> {
    nodes: Cell<usize>,
    /// Index in `cuts` of the next cut node (nodes come in increasing order).
    next_cut: Cell<usize>,
    cuts: &'p [usize],
    /// The intermediate columns' values, if read from a trace.
    aux: Option<&'p [E]>,
    /// Each cut node's value as computed.
    computed: RefCell<Vec<E>>,
}

/// A value of the evaluation pass.
#[derive(Clone)]
struct Tracked<'c, 'p, E> {
    value: E,
    ctx: &'c EvalCtx<'p, E>,
}

impl<'c, 'p, E: Algebra> Tracked<'c, 'p, E> {
    /// An operation's result: a cut node's value is recorded and replaced by its column's.
    fn result(ctx: &'c EvalCtx<'p, E>, value: E) -> Self {
        let node = ctx.nodes.get();
        ctx.nodes.set(node + 1);
        let k = ctx.next_cut.get();
        if ctx.cuts.get(k) != Some(&node) {
            return Tracked { value, ctx };
        }
        ctx.next_cut.set(k + 1);
        ctx.computed.borrow_mut().push(value.clone());
        let value = match ctx.aux {
            Some(aux) => aux[k].clone(),
            None => value,
        };
        Tracked { value, ctx }
    }
}

impl<E: Algebra> Add for Tracked<'_, '_, E> {
    type Output = Self;
    fn add(self, o: Self) -> Self {
        Tracked::result(self.ctx, self.value + o.value)
    }
}

impl<E: Algebra> Sub for Tracked<'_, '_, E> {
    type Output = Self;
    fn sub(self, o: Self) -> Self {
        Tracked::result(self.ctx, self.value - o.value)
    }
}

impl<E: Algebra> Mul for Tracked<'_, '_, E> {
    type Output = Self;
    fn mul(self, o: Self) -> Self {
        Tracked::result(self.ctx, self.value * o.value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chain16::CubicChain16;
    use crate::check_trace;
    use crate::fibonacci::Fibonacci;
    use crate::test_field::Bb;

    fn bb(v: u64) -> Bb {
        Bb(v % Bb::P)
    }

    #[test]
    fn an_air_within_the_bound_is_unchanged() {
        let r = DegreeReduced::new(Fibonacci, 2);
        assert_eq!(r.num_cuts(), 0);
        assert_eq!(r.width(), Fibonacci.width());
        assert_eq!(r.transition_degrees(), Fibonacci.transition_degrees());
        assert_eq!(r.id(), Fibonacci.id());
        assert_eq!(r.generate_trace(16, bb), Fibonacci.generate_trace(16, bb));
    }

    #[test]
    fn chain16_cubes_cost_one_column_each() {
        let r = DegreeReduced::new(CubicChain16, 2);
        // x^3 = (x * x) * x: each square is cut.
        assert_eq!(r.num_cuts(), 16);
        assert_eq!(r.width(), 32);
        assert_eq!(r.transition_degrees().len(), 32);
        assert!(r.transition_degrees().iter().all(|&d| d <= 2));
        assert_eq!(r.transition_degrees().iter().max(), Some(&2));
        // Degree 3 allows the cubes as written.
        assert_eq!(DegreeReduced::new(CubicChain16, 3).num_cuts(), 0);
        // Linear: the square and the cube are columns, defined by degree-2 constraints.
        let linear = DegreeReduced::new(CubicChain16, 1);
        assert_eq!(linear.num_cuts(), 32);
        assert_eq!(linear.num_air_constraints(), 16);
        let (air, definitions) = linear.transition_degrees().split_at(16);
        assert!(air.iter().all(|&d| d == 1), "{air:?}");
        assert!(definitions.iter().all(|&d| d == 2), "{definitions:?}");
    }

    /// The intermediate columns' definitions hold on the last row too, read with the first
    /// row as its next (the wrap): a prover states them without a row selector.
    #[test]
    fn definitions_hold_on_every_row_the_wrap_included() {
        for d in [1, 2] {
            let r = DegreeReduced::new(CubicChain16, d);
            let n = 16;
            let trace = r.generate_trace(n, bb);
            for row in 0..n {
                let frame = Frame {
                    local: trace.row(row),
                    next: trace.row((row + 1) % n),
                    public: &trace.public_inputs,
                    constant: &bb,
                };
                let mut values = Vec::new();
                r.eval_transition(&frame, &mut |c| values.push(c));
                let definitions = &values[r.num_air_constraints()..];
                assert!(
                    definitions.iter().all(|&v| v == bb(0)),
                    "D = {d}, row {row}"
                );
            }
        }
    }

    #[test]
    fn the_reduced_trace_satisfies_the_reduced_air_and_a_wrong_column_does_not() {
        let linear = DegreeReduced::new(CubicChain16, 1);
        check_trace(&linear, &linear.generate_trace(16, bb), bb).unwrap();
        let r = DegreeReduced::new(CubicChain16, 2);
        let mut trace = r.generate_trace(16, bb);
        assert_eq!(trace.width, 32);
        check_trace(&r, &trace, bb).unwrap();
        // The AIR's own columns are the AIR's trace.
        let own = CubicChain16.generate_trace(16, bb);
        for row in 0..16 {
            assert_eq!(&trace.row(row)[..16], own.row(row));
        }
        // An intermediate column off by one breaks its constraint.
        trace.values[5 * 32 + 20] = trace.values[5 * 32 + 20] + bb(1);
        assert_eq!(
            check_trace(&r, &trace, bb),
            Err("transition constraint violated")
        );
    }

    /// The degrees reported are the degrees evaluated: every constraint of the reduced AIR,
    /// over degrees as values, is within the bound.
    #[test]
    fn reported_degrees_bound_the_evaluated_ones() {
        #[derive(Clone, Copy)]
        struct D(usize);
        impl Add for D {
            type Output = D;
            fn add(self, o: D) -> D {
                D(self.0.max(o.0))
            }
        }
        impl Sub for D {
            type Output = D;
            fn sub(self, o: D) -> D {
                D(self.0.max(o.0))
            }
        }
        impl Mul for D {
            type Output = D;
            #[allow(clippy::suspicious_arithmetic_impl)]
            fn mul(self, o: D) -> D {
                D(self.0 + o.0)
            }
        }
        for max in [1, 2] {
            let r = DegreeReduced::new(CubicChain16, max);
            let cells = [D(1); 48];
            let public = [D(0); 8];
            let frame = Frame {
                local: &cells,
                next: &cells,
                public: &public,
                constant: &|_| D(0),
            };
            let mut evaluated = Vec::new();
            r.eval_transition(&frame, &mut |d| evaluated.push(d.0));
            assert_eq!(evaluated.len(), r.transition_degrees().len());
            for (i, (e, d)) in evaluated.iter().zip(r.transition_degrees()).enumerate() {
                let bound = if i < r.num_air_constraints() { max } else { 2 };
                assert!(e <= d && *d <= bound, "D = {max}, constraint {i}: {e}, {d}");
            }
        }
    }
}

//! Security of a proof's parameters under every regime the project reports, and the verifier
//! policy that accepts or refuses a proof by one of them.
//!
//! The five figures, for a proof over base field `F_p` (modulus bit length `B`, extension
//! degree `d`, `M = d * B`), trace length `n = 2^t`, blowup `2^b` (LDE size `N = n * 2^b`),
//! `q` FRI queries, `g` proof-of-work bits before the queries, FRI folding arity `2^a` and final
//! polynomial length `2^f`, BLAKE3-256 commitments (128 bits of collision resistance):
//!
//! - **(a) [`Regime::EthStark`]**: the ethSTARK conjecture (IACR ePrint 2021/582,
//!   Conjecture 1 and Eq. (19)) with the grinding counted in full and a field term that
//!   charges the out-of-domain sample's collisions with the LDE domain (§5.10):
//!   `min(q*b + g, floor(d*log2 p) - log2 N, 128) - 1`. This is the project's figure since
//!   its first session ([`ethstark_bits`]).
//! - **(b) [`Regime::Winterfell`]**: winterfell 0.13.1's conjectured rule (`winter-air`,
//!   `src/proof/security.rs`, `ConjecturedSecurity::compute`, reached through
//!   `Proof::conjectured_security`): the query term is `q*b`, plus `g` only when `q*b >= 80`
//!   (`GRINDING_CONTRIBUTION_FLOOR`); the result is `min(min(M, query) - 1, 128)`.
//! - **(c) [`Regime::Plonky3`]**: Plonky3 0.8's conjectured security (`p3-uni-stark`,
//!   `src/security.rs`, `ConjecturedSecurity::compute_from_params`, composed by `p3-security`
//!   `stark::conjectured_security_report`): the "random words" regime of ePrint 2025/2010 §1.5,
//!   the minimum, truncated, of the FRI query phase `q * -log2(rho + eta) + g` with
//!   `rho = 2^-b`, `eta = (log2 e + b) * rho / M`; the FRI commit phase
//!   `M - log2((2^a - 1)(N + 1))` (when FRI folds at all); ALI `M - log2 C` (`C` constraints);
//!   DEEP-ALI `M - log2 max(D(n + k - 1) + n - 1, (Q + 1) n + k - 1)` (`D` maximum constraint
//!   degree, `Q` quotient chunks, `k = 2` opening points); the batching of `W` committed
//!   functions into one FRI instance `M - log2 N - log2(W - 1)`; and 128. The AIR's shape
//!   (`C`, `D`, `Q`, `W`) is Plonky3's view of our AIRs ([`AirShape`]), used for every backend.
//! - **(d) [`Regime::ProvenUnique`]** and **(e) [`Regime::ProvenList`]**: proven round-by-round
//!   soundness, unique decoding and list decoding up to the Johnson bound (ePrint 2024/1553,
//!   Theorems 3 and 2), as winterfell 0.13.1 computes them (`winter-air`,
//!   `src/proof/security.rs`, `ProvenSecurity::compute`, reached through
//!   `Proof::proven_security`), with the batching the proof's protocol uses: winterfell proofs
//!   batch linearly (no loss), Plonky3 proofs batch constraints and openings by powers of one
//!   challenge (a loss of `log2(C - 1)` and `log2(W - 1)` bits). List decoding maximises over
//!   the proximity parameter `m` as winterfell does. [`Regime::Proven`] is the better of the
//!   two, as both libraries report proven security.
//!
//! [`Regime::Strictest`], the default policy, is the minimum of (a), (b) and (c).
//!
//! **The statement's own hash.** An AIR that hashes inside its statement (the membership
//! AIR's Poseidon2 Merkle path and nullifier) declares that hash's collision resistance
//! ([`StatementHash`], from `AirDef::statement_hash`); a false statement is proved by a
//! collision there whatever the FRI parameters, so each of the five figures is capped by it.
//! [`Figures::statement_hash`] names the cap, and records carry it.
//!
//! **Folding by `2^a` with one challenge per layer.** Every FRI this project runs folds a
//! committed layer by `2^a` with a single challenge `beta` (the two-adic FRI of Plonky3 and
//! winterfell, and `p3-m31`'s circle FRI: upstream's `CirclePcs` at `a = 1`, our
//! `WideCirclePcs` at `a` up to 4, whose `a` binary sub-folds use `beta, beta^2, beta^4, ..`
//! and so equal one `sum_i beta^i f_i` over the layer's `2^a` components). Such a fold is a
//! point on a curve of degree `2^a - 1` in `beta`, and the proximity gap for curves
//! (Ben-Sasson, Carmon, Ishai, Kopparty, Saraf, "Proximity Gaps for Reed-Solomon Codes",
//! ePrint 2020/654, Theorem 1.5 (unique decoding) and Theorem 6.2 (list decoding)) charges
//! `2^a - 1` times a line's error: hence the commit-phase term `(2^a - 1)(N + 1) / |F|` of (c)
//! and (d), and the `2^a`-fold's share of (e). The circle's first, circle-to-line layer is one
//! binary fold (`a = 1`), whose term is below any wider layer's; circle proofs are counted
//! with Plonky3's circle opening shape ([`AirShape`], derived by `picostark-airs`). `backends/plonky3/tests/security.rs`
//! checks (c) against Plonky3's estimator for both PCS families at every arity 2..=16.
//!
//! Everything here is integer arithmetic: logarithms are computed in fixed point with 40
//! fractional bits, so a figure differs from the library's `f64` result only when that lies
//! within about `2^-30` of an integer. The host tests compare every figure with the library
//! that defines it on a grid of parameters (`backends/winterfell/tests/security.rs`,
//! `backends/plonky3/tests/security.rs`). A verifier computes only the regime its policy names.

use crate::error::VerifyError;
use crate::ids::{Domain, FieldId};
use crate::proof_file::{ProofHeader, ProofParams};

/// Collision resistance of BLAKE3-256, in bits.
pub const HASH_COLLISION_BITS: u32 = 128;

/// winterfell's `GRINDING_CONTRIBUTION_FLOOR`: grinding counts only when the query term alone
/// reaches it.
pub const GRINDING_CONTRIBUTION_FLOOR: u32 = 80;

/// A way of counting security bits (see the module documentation for each formula).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Regime {
    /// (a) ethSTARK conjecture, grinding counted in full.
    EthStark,
    /// (b) winterfell 0.13.1's conjectured rule.
    Winterfell,
    /// (c) Plonky3 0.8's conjectured security.
    Plonky3,
    /// The minimum of (a), (b) and (c): the default policy.
    #[default]
    Strictest,
    /// (d) proven, unique decoding.
    ProvenUnique,
    /// (e) proven, list decoding up to the Johnson bound.
    ProvenList,
    /// The better of (d) and (e).
    Proven,
}

impl Regime {
    /// Every regime, in the order of their names in [`Regime::name`].
    pub const ALL: &'static [Regime] = &[
        Regime::EthStark,
        Regime::Winterfell,
        Regime::Plonky3,
        Regime::Strictest,
        Regime::ProvenUnique,
        Regime::ProvenList,
        Regime::Proven,
    ];

    /// The name used on command lines, in records and in `PSTK_SECURITY_REGIME`.
    pub const fn name(self) -> &'static str {
        match self {
            Regime::EthStark => "ethstark",
            Regime::Winterfell => "winterfell",
            Regime::Plonky3 => "plonky3",
            Regime::Strictest => "strictest",
            Regime::ProvenUnique => "proven-unique",
            Regime::ProvenList => "proven-list",
            Regime::Proven => "proven",
        }
    }

    /// The regime of a name, if any.
    pub fn from_name(name: &str) -> Option<Regime> {
        Regime::ALL.iter().copied().find(|r| r.name() == name)
    }
}

impl core::fmt::Display for Regime {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// A hash the statement itself computes (a Merkle path's compression, a nullifier): a proof
/// of the statement is no stronger than its collision resistance, whatever the FRI
/// parameters, so every regime's figure is capped by it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatementHash {
    /// Collision resistance, in bits.
    pub bits: u32,
    /// What it is, for records and reports.
    pub name: &'static str,
}

/// Plonky3's view of an AIR's shape: what its conjectured and proven figures depend on.
/// Never written by hand for our AIRs: `picostark-airs` derives it from each `AirDef`
/// (`picostark_airs::shape`), and a verifier hands it over with [`crate::Verifier::air_shape`].
/// Checked against `p3_uni_stark::StarkSecurityParams::from_air` in the Plonky3 tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AirShape {
    /// Trace columns.
    pub width: u32,
    /// Constraints, transition and boundary (each boundary is one constraint under a selector).
    pub num_constraints: u32,
    /// Largest constraint degree, selectors included.
    pub max_constraint_degree: u32,
    /// Committed quotient chunks.
    pub num_quotient_chunks: u32,
    /// The statement's own hash, if it has one (`AirDef::statement_hash`).
    pub statement_hash: Option<StatementHash>,
}

impl AirShape {
    /// Functions batched into the one FRI instance (Plonky3's `num_batched_openings`): every
    /// trace column at two points and every quotient chunk (`d` base columns) at one; the
    /// circle PCS consumes two batching powers per opening.
    pub const fn num_batched_functions(&self, extension_degree: u8, circle: bool) -> u32 {
        let w = 2 * self.width + self.num_quotient_chunks * extension_degree as u32;
        if circle {
            2 * w
        } else {
            w
        }
    }
}

/// The five figures for one proof, in bits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Figures {
    /// (a)
    pub ethstark: u32,
    /// (b)
    pub winterfell: u32,
    /// (c)
    pub plonky3: u32,
    /// (d)
    pub proven_unique: u32,
    /// (e)
    pub proven_list: u32,
    /// The statement's own hash, whose collision resistance caps all five (if any).
    pub statement_hash: Option<StatementHash>,
}

impl Figures {
    /// All five figures for a header's parameters over an AIR of `shape` (the header's own
    /// AIR's, `picostark_airs::figures`, or a statement proved elsewhere counted under the
    /// same formulas, its shape and statement hash as that project states them). The
    /// list-decoding search makes this the costly one; a verifier uses [`bits`] for its one
    /// regime instead.
    pub fn with_shape(header: &ProofHeader, shape: AirShape) -> Figures {
        let s = Setting::with_shape(header, shape);
        let cap = |bits: u32| s.cap(bits);
        Figures {
            ethstark: cap(ethstark_bits(
                header.field,
                header.extension_degree,
                header.log_n,
                &header.params,
            )),
            winterfell: cap(s.winterfell()),
            plonky3: cap(s.plonky3()),
            proven_unique: cap(s.proven_unique()),
            proven_list: cap(s.proven_list()),
            statement_hash: s.shape.statement_hash,
        }
    }

    /// The figure of one regime.
    pub fn get(&self, regime: Regime) -> u32 {
        match regime {
            Regime::EthStark => self.ethstark,
            Regime::Winterfell => self.winterfell,
            Regime::Plonky3 => self.plonky3,
            Regime::Strictest => self.ethstark.min(self.winterfell).min(self.plonky3),
            Regime::ProvenUnique => self.proven_unique,
            Regime::ProvenList => self.proven_list,
            Regime::Proven => self.proven_unique.max(self.proven_list),
        }
    }
}

#[cfg(feature = "alloc")]
impl Figures {
    /// The record form, naming the policy that accepted the proof.
    pub fn record(&self, policy: &Policy) -> crate::record::SecurityFigures {
        crate::record::SecurityFigures {
            ethstark: self.ethstark.into(),
            winterfell_conjectured: self.winterfell.into(),
            plonky3_conjectured: self.plonky3.into(),
            proven_unique: self.proven_unique.into(),
            proven_list: self.proven_list.into(),
            policy_regime: policy.regime.name().into(),
            policy_min_bits: policy.min_security_bits,
            statement_hash_bits: self.statement_hash.map(|h| h.bits),
            statement_hash: self.statement_hash.map(|h| h.name.into()),
        }
    }
}

/// Security of a header's parameters over an AIR of `shape` in one regime, in bits.
pub fn bits(header: &ProofHeader, shape: AirShape, regime: Regime) -> u32 {
    let s = Setting::with_shape(header, shape);
    let eth = || {
        ethstark_bits(
            header.field,
            header.extension_degree,
            header.log_n,
            &header.params,
        )
    };
    let bits = match regime {
        Regime::EthStark => eth(),
        Regime::Winterfell => s.winterfell(),
        Regime::Plonky3 => s.plonky3(),
        Regime::Strictest => eth().min(s.winterfell()).min(s.plonky3()),
        Regime::ProvenUnique => s.proven_unique(),
        Regime::ProvenList => s.proven_list(),
        Regime::Proven => s.proven_unique().max(s.proven_list()),
    };
    s.cap(bits)
}

/// (a): the ethSTARK conjecture with grinding counted in full (module documentation).
pub fn ethstark_bits(field: FieldId, extension_degree: u8, log_n: u8, params: &ProofParams) -> u32 {
    let query_bits =
        u32::from(params.num_queries) * u32::from(params.log_blowup) + u32::from(params.pow_bits);
    let ext_field_bits = u32::from(extension_degree) * field.log2_modulus_millibits() / 1000;
    let field_bits = ext_field_bits.saturating_sub(u32::from(log_n) + u32::from(params.log_blowup));
    query_bits
        .min(field_bits)
        .min(HASH_COLLISION_BITS)
        .saturating_sub(1)
}

/// The name every earlier caller knows (a).
pub use ethstark_bits as conjectured_security_bits;

/// Fractional bits of the fixed-point numbers below.
const FRAC: u32 = 40;
/// One, in fixed point.
const ONE: i64 = 1 << FRAC;
/// `log2(e)` with [`FRAC`] fractional bits, rounded up (it only ever enlarges an error).
const LOG2_E: i64 = 1_586_259_972_793; // ceil(1.44269504088896340736 * 2^40)

/// `log2(x)` in fixed point, rounded down; `x >= 1`.
fn log2(x: u128) -> i64 {
    debug_assert!(x >= 1);
    let int = 127 - x.leading_zeros();
    // Mantissa in [1, 2) with 62 fractional bits; squaring it doubles the exponent, so each
    // step yields one more bit of the logarithm. It stays below 2^63, so it is held in a u64
    // and squared by a 64 x 64-bit product (a 128 x 128-bit one costs twice the instructions
    // on a 32-bit core, and the verifier takes this at every verification).
    let mut m = if int >= 62 {
        x >> (int - 62)
    } else {
        x << (62 - int)
    } as u64;
    let mut frac = 0i64;
    for _ in 0..FRAC {
        m = ((u128::from(m) * u128::from(m)) >> 62) as u64;
        frac <<= 1;
        if m >= 2 << 62 {
            m >>= 1;
            frac |= 1;
        }
    }
    (i64::from(int) << FRAC) | frac
}

/// An integer in fixed point.
const fn fx(x: u32) -> i64 {
    (x as i64) << FRAC
}

/// A fixed-point bit count truncated to whole bits, negative values as 0 (the libraries'
/// `as u64` / `as usize` casts).
fn whole(x: i64) -> u32 {
    if x <= 0 {
        0
    } else {
        (x >> FRAC).min(i64::from(u32::MAX)) as u32
    }
}

/// Everything the winterfell and Plonky3 formulas read from a header.
struct Setting {
    /// Bits of the challenge field as the libraries count them: `d * bit length of p`.
    m_bits: u32,
    log_n: u32,
    b: u32,
    q: u32,
    g: u32,
    log_arity: u32,
    log_final: u32,
    shape: AirShape,
    /// Functions batched into FRI (Plonky3's count).
    batched: u32,
    /// Constraint and opening batching by powers of one challenge (Plonky3); otherwise
    /// linear with independent coefficients (winterfell's `BatchingMethod::Linear`).
    algebraic_batching: bool,
}

impl Setting {
    fn with_shape(h: &ProofHeader, shape: AirShape) -> Setting {
        let p = &h.params;
        let base_bits = 64 - h.field.modulus().leading_zeros();
        let circle = h.backend.domain() == Domain::Circle;
        // Plonky3 and stwo both batch constraints and openings by powers of one challenge.
        let algebraic = matches!(h.backend.protocol(), "plonky3" | "stwo");
        Setting {
            m_bits: base_bits * u32::from(h.extension_degree),
            log_n: u32::from(h.log_n),
            b: u32::from(p.log_blowup),
            q: u32::from(p.num_queries),
            g: u32::from(p.pow_bits),
            log_arity: u32::from(p.log_fold_arity),
            log_final: u32::from(p.log_final_poly_len),
            shape,
            batched: shape.num_batched_functions(h.extension_degree, circle),
            algebraic_batching: algebraic,
        }
    }

    /// A figure capped by the statement's own hash, if the AIR has one.
    fn cap(&self, bits: u32) -> u32 {
        match self.shape.statement_hash {
            Some(h) => bits.min(h.bits),
            None => bits,
        }
    }

    /// `log2(x)` for an exact integer, with `log2(0)` as "no term" (`None`).
    fn lg(x: u128) -> Option<i64> {
        (x > 0).then(|| log2(x))
    }

    /// (b), `ConjecturedSecurity::compute`.
    fn winterfell(&self) -> u32 {
        let mut query = self.b * self.q;
        if query >= GRINDING_CONTRIBUTION_FLOOR {
            query += self.g;
        }
        self.m_bits
            .min(query)
            .saturating_sub(1)
            .min(HASH_COLLISION_BITS)
    }

    /// (c), `p3_security::stark::conjectured_security_report` on `FriRegime`.
    fn plonky3(&self) -> u32 {
        let m = fx(self.m_bits);
        let n = 1u128 << self.log_n;
        let lde_log = self.log_n + self.b;
        let mut terms = [i64::MAX; 6];
        // FRI query phase, random words: q * -log2(rho + eta) + g, where
        // rho + eta = 2^-b * (M + log2 e + b) / M.
        terms[0] = if self.b == 0 || self.m_bits == 0 {
            fx(self.g)
        } else {
            let num = (u128::from(self.m_bits + self.b) << FRAC) + LOG2_E as u128;
            let den = u128::from(self.m_bits) << FRAC;
            let per_query = fx(self.b) - (log2(num) - log2(den));
            if per_query <= 0 {
                fx(self.g)
            } else {
                i64::from(self.q) * per_query + fx(self.g)
            }
        };
        // FRI commit phase, when FRI folds at all.
        if self.log_arity > 0 && lde_log.saturating_sub(self.log_final) / self.log_arity > 0 {
            let x = ((1u128 << self.log_arity) - 1) * ((1u128 << lde_log) + 1);
            terms[1] = (m - log2(x)).max(0);
        }
        // ALI and DEEP-ALI at list size 1, two opening points.
        let s = &self.shape;
        if s.num_constraints > 0 {
            terms[2] = (m - log2(u128::from(s.num_constraints))).max(0);
        }
        let combo = 2u128;
        let ethstark = u128::from(s.max_constraint_degree.max(1)) * (n + combo - 1) + (n - 1);
        let chunked = (u128::from(s.num_quotient_chunks) + 1) * n + combo - 1;
        terms[3] = (m - log2(ethstark.max(chunked).max(1))).max(0);
        // Batching the committed functions into one FRI instance.
        if self.batched >= 2 {
            terms[4] = (m - fx(lde_log) - log2(u128::from(self.batched - 1))).max(0);
        }
        terms[5] = fx(HASH_COLLISION_BITS);
        whole(terms.into_iter().min().unwrap_or(0))
    }

    /// The batching losses of winterfell's formulas: `log2(C - 1)` for the constraints and
    /// `log2(W - 1)` for the DEEP/FRI batch under algebraic batching, none under linear.
    /// `None` stands for winterfell's `log2(0) = -inf` (the term is then unbounded).
    fn batching_losses(&self) -> (Option<i64>, Option<i64>) {
        if self.algebraic_batching {
            (
                Self::lg(u128::from(self.shape.num_constraints.saturating_sub(1))),
                Self::lg(u128::from(self.batched.saturating_sub(1))),
            )
        } else {
            (Some(0), Some(0))
        }
    }

    /// (d), `proven_security_protocol_unique_decoding`, capped by the hash.
    fn proven_unique(&self) -> u32 {
        let m = fx(self.m_bits);
        let n = 1u128 << self.log_n;
        let lde = n << self.b;
        let max_deg = (1u128 << self.b) + 1;
        let (loss_c, loss_w) = self.batching_losses();
        let mut t = i64::MAX;
        if let Some(l) = loss_c {
            t = t.min(m - l);
        }
        t = t.min(m - log2(max_deg * (n + 1) + (n - 1)));
        if let Some(l) = loss_w {
            t = t.min(m - log2(lde) - l);
        }
        // One FRI layer or more: lde > (remainder degree + 1) * blowup, i.e. n > 2^f.
        if self.log_n > self.log_final {
            let folding = (1u128 << self.log_arity).saturating_sub(1);
            if let Some(l) = Self::lg(folding * (lde + 1)) {
                t = t.min(m - l);
            }
        }
        // Query phase: alpha = (1 + (n + 2) / lde) / 2.
        let log_alpha = log2(lde + n + 2) - log2(lde) - ONE;
        t = t.min(fx(self.g) - i64::from(self.q) * log_alpha);
        whole(t).min(HASH_COLLISION_BITS)
    }

    /// (e) at one proximity parameter `m`, in fixed point (`i64::MIN` when undefined).
    fn list_at(&self, mp: u32) -> i64 {
        let m = fx(self.m_bits);
        let n = 1u128 << self.log_n;
        let lde = n << self.b;
        let mp = u128::from(mp);
        // List size l = m / (rho - 2m / N) = m N / (n - 2m).
        if n <= 2 * mp {
            return i64::MIN;
        }
        let log_l = log2(mp) + log2(lde) - log2(n - 2 * mp);
        let max_deg = (1u128 << self.b) + 1;
        let (loss_c, loss_w) = self.batching_losses();
        let mut t = i64::MAX;
        if let Some(l) = loss_c {
            t = t.min(m - log_l - l);
        }
        t = t.min(m - 2 * log_l - log2(max_deg * (n + 1) + (n - 1)));
        if let Some(l) = loss_w {
            // (m + 1/2)^7 / (3 rho^1.5) * N^2 = (2m + 1)^7 / 2^7 / 3 * 2^(1.5 b) * N^2.
            let b15 = fx(3 * self.b) / 2;
            let commit = 7 * log2(2 * mp + 1) - fx(7) - log2(3) + b15 + 2 * log2(lde) + l;
            t = t.min(m - commit);
        }
        // Query phase: alpha = (1 + 1/(2m)) sqrt(rho).
        let log_alpha = log2(2 * mp + 1) - log2(2 * mp) - fx(self.b) / 2;
        t.min(fx(self.g) - i64::from(self.q) * log_alpha)
    }

    /// (e), `ProvenSecurity::compute`'s list-decoding search over `m` in
    /// `3..min(m_max, 1000)`, capped by the hash.
    fn proven_list(&self) -> u32 {
        let h = 1u128 << self.log_n;
        // winterfell's m_max = ceil(1 / (2 (sqrt((h + 2) / h) - 1))): the least m with
        // 4 m^2 (h + 2) >= h (2m + 1)^2, capped at 1000.
        let mut m_max = 1u128;
        while m_max < 1000 && 4 * m_max * m_max * (h + 2) < h * (2 * m_max + 1) * (2 * m_max + 1) {
            m_max += 1;
        }
        // The query term grows with m and every other term shrinks, so the minimum rises to
        // one peak and then falls: stop at the first fall.
        let mut best = i64::MIN;
        for mp in 3..m_max as u32 {
            let v = self.list_at(mp);
            if v < best {
                break;
            }
            best = v;
        }
        whole(best).min(HASH_COLLISION_BITS)
    }
}

/// What a verifier accepts before doing any heavy work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy {
    /// Minimum security in bits, counted in [`Policy::regime`].
    pub min_security_bits: u32,
    /// Largest trace length (log2) the verifier will work on: bounds the verifier's work and
    /// memory for a hostile header.
    pub max_log_n: u8,
    /// How the bits are counted.
    pub regime: Regime,
}

impl Policy {
    /// The default minimum security: 95 bits under the strictest conjecture.
    pub const DEFAULT_MIN_SECURITY_BITS: u32 = 95;
    /// The default regime.
    pub const DEFAULT_REGIME: Regime = Regime::Strictest;

    /// Checks a header, its AIR of `shape`, against the policy and returns its security in
    /// the policy's regime.
    pub fn check(&self, header: &ProofHeader, shape: AirShape) -> Result<u32, VerifyError> {
        if header.log_n > self.max_log_n {
            return Err(VerifyError::Unsupported(
                "trace length above the policy's maximum",
            ));
        }
        let bits = bits(header, shape, self.regime);
        if bits < self.min_security_bits {
            return Err(VerifyError::InsufficientSecurity {
                bits,
                required: self.min_security_bits,
            });
        }
        Ok(bits)
    }
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            min_security_bits: Self::DEFAULT_MIN_SECURITY_BITS,
            max_log_n: 24,
            regime: Self::DEFAULT_REGIME,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::{AirId, BackendId};

    /// The Fibonacci AIR's shape as `picostark-airs` derives it from its `AirDef` (and tests
    /// there): 2 columns, 2 transitions and 3 boundaries, degree 2, one quotient chunk.
    const FIB: AirShape = AirShape {
        width: 2,
        num_constraints: 5,
        max_constraint_degree: 2,
        num_quotient_chunks: 1,
        statement_hash: None,
    };
    use crate::ids::HashId;

    fn params(log_blowup: u8, num_queries: u16, pow_bits: u8) -> ProofParams {
        ProofParams {
            log_blowup,
            num_queries,
            pow_bits,
            log_fold_arity: 3,
            log_final_poly_len: 5,
        }
    }

    fn header(backend: BackendId, ext: u8, log_n: u8, params: ProofParams) -> ProofHeader {
        ProofHeader {
            backend,
            field: backend.field(),
            extension_degree: ext,
            hash: HashId::Blake3_256,
            air: AirId::Fibonacci,
            log_n,
            params,
        }
    }

    #[test]
    fn fixed_point_log2_is_exact_on_powers_of_two_and_close_elsewhere() {
        for k in 0..100 {
            assert_eq!(log2(1u128 << k), fx(k));
        }
        // log2(3) = 1.5849625007211562
        let got = log2(3) as f64 / ONE as f64;
        assert!((got - 1.584_962_500_721_156_2).abs() < 1e-11, "{got}");
        assert!(log2(3) <= (1.584_962_500_721_156_2 * ONE as f64) as i64 + 1);
    }

    #[test]
    fn log2_with_a_64_bit_mantissa_equals_the_128_bit_squaring() {
        // The squaring as first written, on a 128-bit mantissa.
        let wide = |x: u128| {
            let int = 127 - x.leading_zeros();
            let mut m = if int >= 62 {
                x >> (int - 62)
            } else {
                x << (62 - int)
            };
            let mut frac = 0i64;
            for _ in 0..FRAC {
                m = (m * m) >> 62;
                frac <<= 1;
                if m >= 2 << 62 {
                    m >>= 1;
                    frac |= 1;
                }
            }
            (i64::from(int) << FRAC) | frac
        };
        let mut x = 1u128;
        for k in 1..2000u128 {
            assert_eq!(log2(k), wide(k), "{k}");
            // Spread over every bit length, odd low bits included.
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(k) | 1;
            let y = x >> (k % 127);
            assert_eq!(log2(y.max(1)), wide(y.max(1)), "{y}");
        }
        assert_eq!(log2(u128::MAX), wide(u128::MAX));
    }

    #[test]
    fn ethstark_reference_parameters_give_95_bits() {
        // 32 queries at blowup 8: the query term (96) binds.
        let p = params(3, 32, 0);
        assert_eq!(ethstark_bits(FieldId::Goldilocks, 2, 10, &p), 95);
        assert_eq!(ethstark_bits(FieldId::BabyBear, 4, 10, &p), 95);
    }

    #[test]
    fn ethstark_small_extension_is_limited_by_the_field_term() {
        let p = params(3, 27, 16);
        // BabyBear alone: 30 bits - 13 = 17, minus one.
        assert_eq!(ethstark_bits(FieldId::BabyBear, 1, 10, &p), 16);
        // M31^3: floor(92.99) = 92, minus log2(2^16 * 8) = 19, minus one: 72.
        assert_eq!(ethstark_bits(FieldId::Mersenne31, 3, 16, &p), 72);
        // M31^4 reaches the query term: 27 * 3 + 16 - 1 = 96.
        assert_eq!(ethstark_bits(FieldId::Mersenne31, 4, 16, &p), 96);
        // The hash caps it.
        assert_eq!(
            ethstark_bits(FieldId::Goldilocks, 4, 10, &params(8, 100, 0)),
            127
        );
    }

    #[test]
    fn winterfell_counts_grinding_only_from_80_query_bits() {
        // The examples: 13 queries at blowup 64 (78 bits) and 32 at blowup 4 (64).
        let h = header(BackendId::WfGoldilocks, 2, 10, params(6, 13, 20));
        assert_eq!(bits(&h, FIB, Regime::EthStark), 97);
        assert_eq!(bits(&h, FIB, Regime::Winterfell), 77);
        let h = header(BackendId::WfGoldilocks, 2, 10, params(2, 32, 32));
        assert_eq!(bits(&h, FIB, Regime::Winterfell), 63);
        // From 80 query bits on, grinding counts: 14 * 6 + 20 - 1.
        let h = header(BackendId::WfGoldilocks, 2, 10, params(6, 14, 20));
        assert_eq!(bits(&h, FIB, Regime::Winterfell), 103);
        // The field caps it: BabyBear alone is 31 bits.
        let h = header(BackendId::WfBabyBear, 1, 10, params(6, 14, 20));
        assert_eq!(bits(&h, FIB, Regime::Winterfell), 30);
    }

    #[test]
    fn strictest_is_the_minimum_of_the_conjectures() {
        let h = header(BackendId::P3BabyBear, 4, 10, params(6, 13, 20));
        let f = Figures::with_shape(&h, FIB);
        assert_eq!(
            f.get(Regime::Strictest),
            f.ethstark.min(f.winterfell).min(f.plonky3)
        );
        assert_eq!(f.get(Regime::Strictest), 77);
        for &r in Regime::ALL {
            assert_eq!(f.get(r), bits(&h, FIB, r), "{r}");
        }
    }

    #[test]
    fn proven_is_below_conjectured() {
        for b in 1..=12 {
            for q in [10u16, 30, 80] {
                let h = header(BackendId::WfGoldilocks, 3, 12, params(b, q, 16));
                let f = Figures::with_shape(&h, FIB);
                assert!(f.proven_unique <= f.ethstark + 1, "{b} {q} {f:?}");
                assert!(f.proven_list <= f.ethstark + 1, "{b} {q} {f:?}");
            }
        }
    }

    #[test]
    fn policy_uses_its_regime() {
        let h = header(BackendId::WfGoldilocks, 2, 10, params(6, 13, 20));
        let eth = Policy {
            regime: Regime::EthStark,
            ..Policy::default()
        };
        assert_eq!(eth.check(&h, FIB), Ok(97));
        assert_eq!(
            Policy::default().check(&h, FIB),
            Err(VerifyError::InsufficientSecurity {
                bits: 77,
                required: 95
            })
        );
    }

    #[test]
    fn regime_names_round_trip() {
        for &r in Regime::ALL {
            assert_eq!(Regime::from_name(r.name()), Some(r));
        }
        assert_eq!(Regime::from_name("conjectured"), None);
    }
}

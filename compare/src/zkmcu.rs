//! zkmcu's "128-bit" PQ-Semaphore proofs under our estimator: its published proof
//! parameters run through the five regimes of `core::security`, capped by its statement's
//! digest, so that our membership rows are compared with it at equal security rather than
//! at equal labels.
//!
//! Source of the parameters: zkmcu's public repository (2026-04-29 .. 05-03, its PQ-Semaphore
//! configuration, as summarised in the project's checked findings and in issue 49): Plonky3
//! over BabyBear x4, n = 16 rows, log blowup 1, 64 queries, binary folding to a constant,
//! 16 commit-phase and 17 query-phase proof-of-work bits, Poseidon2 BabyBear-16 with 6-word
//! digests, about 332 columns with one S-box register per S-box (constraint degree 3, so two
//! quotient chunks at blowup 2). Published silicon for the dual proof (a Poseidon2 and a
//! BLAKE3 leg): 1,611 ms on the M33, 2,041 ms on Hazard3, at 150 MHz.
//!
//! Our formulas have one grinding term `g`, the proof of work before the queries; zkmcu's
//! commit-phase grinding does not enter a query term. Both readings are shown: `g = 17`
//! (what the formulas define) and `g = 33` (both grindings summed, as a "128-bit" label
//! implies). The AIR's shape enters only Plonky3's ALI, DEEP-ALI and batching terms, each
//! above 100 bits here whatever the exact constraint count (a test varies it), so the
//! approximate shape does not move a figure.

use picostark_core::security::{AirShape, StatementHash};
use picostark_core::{AirId, BackendId, FieldId, Figures, HashId, ProofHeader, ProofParams};

/// zkmcu's statement hash: Poseidon2 BabyBear-16 truncated to 6 words,
/// `6 * log2(p) / 2 = 92.7` bits of collision resistance.
pub const DIGEST: StatementHash = StatementHash {
    bits: 6 * 30_906 / 2000,
    name: "Poseidon2 BabyBear-16, 6-word digests (zkmcu)",
};

/// zkmcu's AIR as Plonky3 sees it, approximately (see the module documentation).
pub fn shape(num_constraints: u32) -> AirShape {
    AirShape {
        width: 332,
        num_constraints,
        max_constraint_degree: 3,
        num_quotient_chunks: 2,
        statement_hash: Some(DIGEST),
    }
}

/// The header of a zkmcu proof with `pow_bits` of grinding before the queries.
pub fn header(pow_bits: u8) -> ProofHeader {
    ProofHeader {
        backend: BackendId::P3BabyBear,
        field: FieldId::BabyBear,
        extension_degree: 4,
        hash: HashId::Blake3_256,
        air: AirId::Membership,
        log_n: 4,
        params: ProofParams {
            log_blowup: 1,
            num_queries: 64,
            pow_bits,
            log_fold_arity: 1,
            log_final_poly_len: 0,
        },
    }
}

/// The figures under both readings of the grinding: `(g, figures)`.
pub fn figures() -> [(u8, Figures); 2] {
    [17, 33].map(|g| (g, Figures::with_shape(&header(g), shape(330))))
}

/// The markdown table for `results/membership/README.md` and the report.
pub fn table() -> String {
    let mut out = String::from(
        "| zkmcu dual proof, grinding counted | ethSTARK | winterfell | Plonky3 | strictest | proven unique | proven list | digest cap |\n|---|---|---|---|---|---|---|---|\n",
    );
    for (g, f) in figures() {
        let strictest = f.ethstark.min(f.winterfell).min(f.plonky3);
        let reading = if g == 17 {
            "17 (query phase)"
        } else {
            "33 (16 commit + 17 query)"
        };
        out += &format!(
            "| {reading} | {} | {} | {} | **{strictest}** | {} | {} | {} |\n",
            f.ethstark, f.winterfell, f.plonky3, f.proven_unique, f.proven_list, DIGEST.bits
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zkmcu_under_our_regimes() {
        let [(_, q), (_, both)] = figures();
        // winterfell counts no grinding below 80 query bits: 64 * 1 - 1.
        assert_eq!(q.winterfell, 63);
        // Plonky3's random-words rule: 64 * 0.97 + 17.
        assert_eq!(q.plonky3, 79);
        // ethSTARK: 64 + 17 - 1, and with both grindings 64 + 33 - 1 = 96, capped at 92 by
        // the 6-word digest.
        assert_eq!(q.ethstark, 80);
        assert_eq!(both.ethstark, 92);
        assert_eq!(DIGEST.bits, 92);
        assert!(q.proven_unique < q.proven_list && q.proven_list < 63);
    }

    #[test]
    fn the_approximate_shape_moves_no_figure() {
        let h = header(17);
        let want = Figures::with_shape(&h, shape(330));
        for c in [100, 250, 500, 1000, 2000] {
            assert_eq!(Figures::with_shape(&h, shape(c)), want, "{c} constraints");
        }
    }
}

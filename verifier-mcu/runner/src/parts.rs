//! `mcu-run profile-parts`: one verification's instruction profile (`run --profile`'s
//! `*.profile.iteration1.txt`) split into the parts issue 28 asks about: leaf hashing, Merkle
//! paths, FRI folding, constraint evaluation at the out-of-domain point, DEEP / opening
//! quotients, the transcript, and the rest.
//!
//! Two steps, each named in the output:
//!
//! 1. **By function name (measured).** Every profile line is one function symbol (inlined code
//!    counts to the function it was inlined into); [`classify`] gives it a class by the first
//!    matching pattern of [`PATTERNS`] (substrings of the demangled name, one list for our
//!    lean Plonky3 verifier and our winterfell verifier), then the field crates' own paths
//!    (`picostark_core::record::FIELD_ARITHMETIC_PATHS`, which the report's arithmetic share
//!    reads too), then [`BODIES`]. A class is only as fine as the compiler's inlining leaves
//!    the symbols: what a verifier's top-level function absorbed stays in `verifier body`.
//! 2. **Hashing by counts (a model).** Leaf hashing, Merkle nodes and transcript hashing share
//!    one compression function, so the profile cannot tell them apart. The measured hashing
//!    instructions are split in proportion to compression counts: the leaf count from the
//!    trees' leaf sizes and the hash's block rule ([`leaf_compressions`]), the Merkle node count
//!    as the expected number of distinct nodes above `q` uniform positions
//!    ([`expected_nodes`]), and the transcript as the rest of the verification's total, which
//!    is measured (the SHA-256 engine's calls) or counted on the host (`prover-host tune
//!    --count-hashes`). The engine's charge (cycles, not instructions) is split the same way.

use picostark_core::record::is_field_arithmetic;
use std::fmt::Write as _;

/// The software compression `mcu-run run --sha256-engine` offloads to the engine model: its
/// blocks are in the block profile, its instructions are not in the run's count.
pub const OFFLOADED: &str = "pstk_sha256_compress";

/// The profile's rows without the offloaded compression when the engine was charged, and that
/// function's block-profile instructions (not part of the run's count).
pub fn without_offloaded(rows: Vec<(u64, String)>, engine: bool) -> (Vec<(u64, String)>, u64) {
    let (offloaded, kept): (Vec<_>, Vec<_>) =
        rows.into_iter().partition(|r| engine && r.1 == OFFLOADED);
    (kept, offloaded.iter().map(|r| r.0).sum())
}

/// What a function's instructions are charged to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Class {
    /// A hash function's code (compression, buffering, padding): split by counts later.
    Hashing,
    /// Merkle path code other than the compressions (sibling order, sorting, comparisons).
    MerkleWalk,
    /// FRI folding of the queried values.
    FriFolding,
    /// The AIR's constraints at the out-of-domain point (Poseidon2 rounds, constants).
    ConstraintEvaluation,
    /// DEEP / opening quotients: the reduced openings `(p(z) - p(x)) / (z - x)` per query.
    DeepQuotients,
    /// Fiat-Shamir transcript code other than its hashing (sampling, reseeding, grinding check).
    Transcript,
    /// Reading the proof bytes (element decoding, lengths).
    Parsing,
    /// The verifier's top-level function: whatever the compiler inlined into it.
    VerifierBody,
    /// Field and extension-field arithmetic the compiler kept out of line (multiplication,
    /// inversion, vector adds): a flat profile does not know the caller, so it is not charged
    /// to constraints, quotients or folding.
    FieldArithmetic,
    /// Everything else (memory copies, the allocator, formatting, the security check).
    Other,
}

impl Class {
    pub fn name(self) -> &'static str {
        match self {
            Class::Hashing => "hashing",
            Class::MerkleWalk => "merkle_walk",
            Class::FriFolding => "fri_folding",
            Class::ConstraintEvaluation => "constraint_evaluation",
            Class::DeepQuotients => "deep_quotients",
            Class::Transcript => "transcript",
            Class::Parsing => "parsing",
            Class::VerifierBody => "verifier_body",
            Class::FieldArithmetic => "field_arithmetic",
            Class::Other => "other",
        }
    }
}

/// Which verifier's names the patterns read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verifier {
    /// `backends/plonky3/src/lean/` (p3-babybear, p3-goldilocks, p3-m31).
    Plonky3Lean,
    /// `backends/winterfell/src/verifier/` (wf-goldilocks, wf-babybear).
    Winterfell,
}

impl Verifier {
    pub fn for_backend(backend: &str) -> Option<Self> {
        match backend {
            "p3-babybear" | "p3-goldilocks" | "p3-m31" => Some(Verifier::Plonky3Lean),
            "wf-goldilocks" | "wf-babybear" => Some(Verifier::Winterfell),
            _ => None,
        }
    }
}

/// `(verifier, substring of the demangled name, class)`, first match wins; `None` applies to
/// both verifiers; a pattern starting with `^` matches the start of the function's own path
/// (leading `<` ignored), so a generic argument (`verify_sorted::<Blake3Lean>`) does not count. Order matters: a hasher's method (`Blake3_256 as Hasher>::merge`) is hashing
/// before the Merkle module's name could claim it.
pub const PATTERNS: &[(Option<Verifier>, &str, Class)] = &[
    // The challenger's own methods inline its hasher's buffering: transcript code, whose
    // compressions the hashing split counts separately.
    (None, "^p3_challenger::", Class::Transcript),
    (None, "^winter_crypto::random::", Class::Transcript),
    // The lean verifier reads each trace row straight into the reduced openings: the closure
    // `elems_each` calls is the DEEP sum.
    (
        Some(Verifier::Plonky3Lean),
        "^picostark_plonky3::lean::reader::Reader>::elems_each::<",
        Class::DeepQuotients,
    ),
    // Hash functions: the BLAKE3 crate, SHA-256 (software compression and its stream), the
    // backends' hasher wrappers.
    (None, "^blake3::", Class::Hashing),
    (None, "^pstk_sha256_compress", Class::Hashing),
    (None, "^picostark_sha256::", Class::Hashing),
    (None, "^picostark_plonky3::hash::", Class::Hashing),
    (None, "^p3_symmetric::", Class::Hashing),
    (None, "^picostark_winterfell::hash::", Class::Hashing),
    (None, "^winter_crypto::hash::", Class::Hashing),
    (
        None,
        "write_into::<picostark_winterfell::hash::Writer>",
        Class::Hashing,
    ),
    (None, "as winter_crypto::hash::Hasher>", Class::Hashing),
    (
        None,
        "as winter_crypto::hash::ElementHasher>",
        Class::Hashing,
    ),
    // Merkle path code.
    (
        Some(Verifier::Plonky3Lean),
        "^picostark_plonky3::lean::merkle::",
        Class::MerkleWalk,
    ),
    (
        Some(Verifier::Winterfell),
        "^picostark_winterfell::verifier::merkle::",
        Class::MerkleWalk,
    ),
    (None, "^core::slice::sort::", Class::MerkleWalk),
    // FRI folding.
    (
        Some(Verifier::Plonky3Lean),
        "^picostark_plonky3::lean::two_adic::FoldRound",
        Class::FriFolding,
    ),
    (
        Some(Verifier::Plonky3Lean),
        "^picostark_plonky3::lean::circle_domain::fold",
        Class::FriFolding,
    ),
    (
        Some(Verifier::Plonky3Lean),
        "^picostark_plonky3::lean::wide_circle::fold_row",
        Class::FriFolding,
    ),
    (
        Some(Verifier::Winterfell),
        "verifier::fri::",
        Class::FriFolding,
    ),
    // The AIR at the out-of-domain point.
    (None, "^picostark_air::", Class::ConstraintEvaluation),
    (None, "^picostark_poseidon2::", Class::ConstraintEvaluation),
    (
        Some(Verifier::Plonky3Lean),
        "^picostark_plonky3::lean::uni_stark::fold_transitions",
        Class::ConstraintEvaluation,
    ),
    (
        Some(Verifier::Winterfell),
        "^picostark_winterfell::verifier::composer::check_ood_constraints",
        Class::ConstraintEvaluation,
    ),
    (
        Some(Verifier::Winterfell),
        "^picostark_winterfell::air::",
        Class::ConstraintEvaluation,
    ),
    // DEEP / opening quotients: the lean PCS's `verify` (reduced openings; the row reading and
    // leaf assembly it inlines), the batch inversion of `z - x`, winterfell's DEEP composer.
    (
        Some(Verifier::Plonky3Lean),
        "as picostark_plonky3::lean::LeanPcs<",
        Class::DeepQuotients,
    ),
    (
        Some(Verifier::Plonky3Lean),
        "^picostark_plonky3::lean::math::batch_invert",
        Class::DeepQuotients,
    ),
    (
        None,
        "^p3_field::batch_inverse::batch_multiplicative_inverse",
        Class::DeepQuotients,
    ),
    (
        Some(Verifier::Winterfell),
        "^picostark_winterfell::verifier::composer::deep_evaluations",
        Class::DeepQuotients,
    ),
    (
        Some(Verifier::Winterfell),
        "^picostark_winterfell::verifier::composer::",
        Class::DeepQuotients,
    ),
    (
        Some(Verifier::Winterfell),
        "^picostark_winterfell::verifier::math::invert_in_place",
        Class::DeepQuotients,
    ),
    // Transcript.
    (
        Some(Verifier::Plonky3Lean),
        "^picostark_plonky3::lean::transcript::",
        Class::Transcript,
    ),
    // Keccak: the transcript's domain-separation pattern hash (`lean::transcript`).
    (None, "^tiny_keccak::", Class::Transcript),
    (
        Some(Verifier::Winterfell),
        "from_random_bytes",
        Class::Transcript,
    ),
    (
        Some(Verifier::Winterfell),
        "^picostark_winterfell::verifier::seed_elements",
        Class::Transcript,
    ),
    // Reading the proof.
    (
        Some(Verifier::Plonky3Lean),
        "^picostark_plonky3::lean::reader::",
        Class::Parsing,
    ),
    (
        Some(Verifier::Winterfell),
        "^picostark_winterfell::verifier::parse::",
        Class::Parsing,
    ),
    (
        Some(Verifier::Winterfell),
        "^picostark_winterfell::verifier::decode_all",
        Class::Parsing,
    ),
    (None, "winter_utils::serde::", Class::Parsing),
    (None, "^picostark_core::proof_file::", Class::Parsing),
];

/// The top-level verifier functions, the sinks of what is inlined: matched after [`PATTERNS`]
/// and after the field arithmetic (`picostark_core::record::FIELD_ARITHMETIC_PATHS`, each a
/// function's own path, checked after every pattern naming a caller).
pub const BODIES: &[(Option<Verifier>, &str, Class)] = &[
    (
        Some(Verifier::Plonky3Lean),
        "^picostark_plonky3::lean::verify",
        Class::VerifierBody,
    ),
    (
        Some(Verifier::Plonky3Lean),
        "^picostark_plonky3::lean::uni_stark::verify",
        Class::VerifierBody,
    ),
    (
        Some(Verifier::Winterfell),
        "^picostark_winterfell::verifier::verify",
        Class::VerifierBody,
    ),
    (
        Some(Verifier::Winterfell),
        "^picostark_winterfell::verifier::row_leaves",
        Class::VerifierBody,
    ),
];

/// The class of one function (demangled name) for `verifier`.
pub fn classify(verifier: Verifier, name: &str) -> Class {
    let own_path = name.trim_start_matches('<');
    let first = |patterns: &[(Option<Verifier>, &str, Class)]| {
        patterns
            .iter()
            .filter(|(v, _, _)| v.is_none_or(|v| v == verifier))
            .find(|(_, pat, _)| match pat.strip_prefix('^') {
                Some(head) => own_path.starts_with(head),
                None => name.contains(pat),
            })
            .map(|&(_, _, c)| c)
    };
    first(PATTERNS)
        .or_else(|| is_field_arithmetic(name).then_some(Class::FieldArithmetic))
        .or_else(|| first(BODIES))
        .unwrap_or(Class::Other)
}

/// Which hash the verification ran, for the block rule of a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hash {
    Blake3,
    Sha256,
}

impl Hash {
    /// Compressions for one message of `len` bytes: BLAKE3 one per 64-byte block of each
    /// 1024-byte chunk (at least one) plus one per parent node (as `hash_count` counts);
    /// SHA-256 with its padding (9 bytes at least) one per 64-byte block.
    pub fn compressions(self, len: u64) -> u64 {
        match self {
            Hash::Blake3 => {
                let chunks = len.div_ceil(1024).max(1);
                let last = len - (chunks - 1) * 1024;
                (chunks - 1) * 16 + last.div_ceil(64).max(1) + chunks - 1
            }
            Hash::Sha256 => (len + 9).div_ceil(64),
        }
    }
}

/// One Merkle tree the verifier opens: `2^depth` leaves of `leaf_bytes` bytes each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tree {
    pub leaf_bytes: u64,
    pub depth: u32,
}

impl Tree {
    /// `BYTES@DEPTH`.
    pub fn parse(s: &str) -> Result<Self, String> {
        let (b, d) = s
            .split_once('@')
            .ok_or_else(|| format!("tree {s:?}: BYTES@DEPTH"))?;
        let leaf_bytes = b.parse().map_err(|_| format!("tree {s:?}: bad bytes"))?;
        let depth: u32 = d.parse().map_err(|_| format!("tree {s:?}: bad depth"))?;
        if depth == 0 || depth > 40 || leaf_bytes == 0 || leaf_bytes > 1 << 20 {
            return Err(format!("tree {s:?}: depth 1..40, bytes 1..2^20"));
        }
        Ok(Tree { leaf_bytes, depth })
    }
}

/// Expected number of distinct values among `q` uniform draws from `n`:
/// `n (1 - (1 - 1/n)^q)`.
pub fn expected_distinct(n: f64, q: u64) -> f64 {
    n * (1.0 - (1.0 - 1.0 / n).powi(q as i32))
}

/// Expected Merkle node compressions to authenticate `q` uniform leaf positions of a tree of
/// `2^depth` leaves, each distinct node computed once (both verifiers merge shared nodes):
/// the sum over heights `h = 1..depth` of the distinct nodes at that height.
pub fn expected_nodes(depth: u32, q: u64) -> f64 {
    (1..=depth)
        .map(|h| expected_distinct(2f64.powi((depth - h) as i32), q))
        .sum()
}

/// Leaf compressions: every query's leaf hashed once per tree (`unique`: only distinct
/// positions, as winterfell hashes its deduplicated positions; expected count).
pub fn leaf_compressions(trees: &[Tree], q: u64, hash: Hash, unique: bool) -> f64 {
    trees
        .iter()
        .map(|t| {
            let leaves = if unique {
                expected_distinct(2f64.powi(t.depth as i32), q)
            } else {
                q as f64
            };
            leaves * hash.compressions(t.leaf_bytes) as f64
        })
        .sum()
}

/// The hashing split: compressions per part and the instructions they are charged.
#[derive(Clone, Debug, PartialEq)]
pub struct HashSplit {
    pub total: f64,
    pub leaf: f64,
    pub nodes: f64,
    pub transcript: f64,
}

impl HashSplit {
    /// From the total count (measured or host-counted) and the trees; fails when the model
    /// exceeds the total (the trees or the count are wrong).
    pub fn new(
        total: u64,
        trees: &[Tree],
        q: u64,
        hash: Hash,
        unique: bool,
    ) -> Result<Self, String> {
        let leaf = leaf_compressions(trees, q, hash, unique);
        let nodes: f64 = trees.iter().map(|t| expected_nodes(t.depth, q)).sum();
        let total = total as f64;
        // 2 % of slack: the node count is an expectation, a proof's positions may share more
        // nodes than expected; beyond that the trees or the total are wrong.
        if leaf + nodes > total * 1.02 || total == 0.0 {
            return Err(format!(
                "the model's {leaf:.0} leaf + {nodes:.0} node compressions exceed the total {total}"
            ));
        }
        Ok(HashSplit {
            total,
            leaf,
            nodes,
            transcript: (total - leaf - nodes).max(0.0),
        })
    }

    /// `n` (instructions or cycles) in proportion: (leaf, nodes, transcript), summing to `n`.
    pub fn share(&self, n: u64) -> (u64, u64, u64) {
        let leaf = ((n as f64 * self.leaf / self.total).round() as u64).min(n);
        let nodes = ((n as f64 * self.nodes / self.total).round() as u64).min(n - leaf);
        (leaf, nodes, n - leaf - nodes)
    }
}

/// One class of a profile: `(class, instructions, its functions highest first)`.
pub type ClassTotal = (Class, u64, Vec<(u64, String)>);

/// A profile's functions by class.
pub fn by_class(verifier: Verifier, rows: &[(u64, String)]) -> Vec<ClassTotal> {
    let mut out: Vec<ClassTotal> = Vec::new();
    for (n, name) in rows {
        let c = classify(verifier, name);
        match out.iter_mut().find(|e| e.0 == c) {
            Some(e) => {
                e.1 += n;
                e.2.push((*n, name.clone()));
            }
            None => out.push((c, *n, vec![(*n, name.clone())])),
        }
    }
    out.sort_by_key(|e| e.0);
    for e in &mut out {
        e.2.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    }
    out
}

/// The parts of issue 28 from the classes and the hashing split: `(part, instructions,
/// engine cycles, how obtained)`, in a fixed order; the instructions sum to the profile's.
pub fn parts(
    classes: &[ClassTotal],
    split: &HashSplit,
    engine_cycles: u64,
) -> Vec<(&'static str, u64, u64, &'static str)> {
    let of = |c: Class| classes.iter().find(|e| e.0 == c).map_or(0, |e| e.1);
    let (leaf, nodes, transcript_hash) = split.share(of(Class::Hashing));
    let (e_leaf, e_nodes, e_transcript) = split.share(engine_cycles);
    vec![
        (
            "leaf_hashing",
            leaf,
            e_leaf,
            "hashing instructions x leaf share of compressions (model)",
        ),
        (
            "merkle_paths",
            nodes + of(Class::MerkleWalk),
            e_nodes,
            "hashing x node share (model) + Merkle walk functions (profile)",
        ),
        ("fri_folding", of(Class::FriFolding), 0, "profile"),
        (
            "constraint_evaluation",
            of(Class::ConstraintEvaluation),
            0,
            "profile",
        ),
        ("deep_quotients", of(Class::DeepQuotients), 0, "profile"),
        (
            "transcript",
            transcript_hash + of(Class::Transcript),
            e_transcript,
            "hashing x remaining share (model) + transcript functions (profile)",
        ),
        ("parsing", of(Class::Parsing), 0, "profile"),
        (
            "verifier_body",
            of(Class::VerifierBody),
            0,
            "profile (inlined code of the top-level verify)",
        ),
        (
            "field_arithmetic",
            of(Class::FieldArithmetic),
            0,
            "profile (out-of-line field operations, caller unknown)",
        ),
        ("other", of(Class::Other), 0, "profile"),
    ]
}

/// A short text table of the parts (for the terminal).
pub fn render(parts: &[(&'static str, u64, u64, &'static str)]) -> String {
    let total: u64 = parts.iter().map(|p| p.1).sum();
    let mut s = String::new();
    for (name, n, e, _) in parts {
        let _ = writeln!(
            s,
            "{name:<22} {n:>10} {:>6.1}%{}",
            100.0 * *n as f64 / total.max(1) as f64,
            if *e > 0 {
                format!("  engine {e} cycles")
            } else {
                String::new()
            }
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_classified_by_the_first_matching_pattern() {
        let p = Verifier::Plonky3Lean;
        let w = Verifier::Winterfell;
        assert_eq!(
            classify(p, "blake3::portable::compress_in_place"),
            Class::Hashing
        );
        assert_eq!(classify(w, "pstk_sha256_compress"), Class::Hashing);
        assert_eq!(
            classify(p, "picostark_plonky3::lean::merkle::verify_sorted::<picostark_plonky3::hash::Blake3Lean>"),
            Class::MerkleWalk,
            "the Merkle module, although its generic argument names the hash"
        );
        assert_eq!(
            classify(
                w,
                "<winter_crypto::hash::blake::Blake3_256<B> as winter_crypto::hash::Hasher>::merge"
            ),
            Class::Hashing
        );
        assert_eq!(
            classify(p, "<picostark_air::membership::Membership<picostark_poseidon2::Goldilocks12> as picostark_air::AirDef>::eval_transition::<X>"),
            Class::ConstraintEvaluation
        );
        assert_eq!(
            classify(p, "<picostark_plonky3::lean::two_adic::TwoAdicPcs<H> as picostark_plonky3::lean::LeanPcs<F, E>>::verify::<C>"),
            Class::DeepQuotients
        );
        assert_eq!(
            classify(
                w,
                "picostark_winterfell::verifier::composer::deep_evaluations::<A>"
            ),
            Class::DeepQuotients
        );
        assert_eq!(
            classify(
                w,
                "picostark_winterfell::verifier::composer::check_ood_constraints::<A>"
            ),
            Class::ConstraintEvaluation
        );
        assert_eq!(
            classify(
                w,
                "picostark_winterfell::verifier::fri::verify_queries::<B>"
            ),
            Class::FriFolding
        );
        assert_eq!(
            classify(p, "picostark_plonky3::lean::verify_goldilocks_file"),
            Class::VerifierBody
        );
        // A winterfell-only pattern does not apply to the Plonky3 verifier.
        assert_eq!(
            classify(p, "picostark_winterfell::verifier::fri::verify_queries"),
            Class::Other
        );
        assert_eq!(classify(p, "memcpy"), Class::Other);
        assert_eq!(
            classify(w, "picostark_winterfell::verifier::composer::deep_evaluations::<picostark_winterfell::air::WfAir<picostark_air::membership::Membership<P>, B>, E>"),
            Class::DeepQuotients,
            "the AIR in a generic argument does not make it constraint evaluation"
        );
        assert_eq!(
            classify(p, "picostark_plonky3::lean::verify_air::<G, E, p3_challenger::serializing_challenger::SerializingChallenger64<G, C>, P>"),
            Class::VerifierBody
        );
        assert_eq!(
            classify(w, "picostark_winterfell::verifier::merkle::verify_batch::<picostark_winterfell::hash::Sha256<B>>"),
            Class::MerkleWalk
        );
        assert_eq!(
            classify(w, "<winter_math::field::f64::BaseElement as winter_utils::serde::Serializable>::write_into::<picostark_winterfell::hash::Writer>"),
            Class::Hashing,
            "elements serialized into the hasher"
        );
        // Field arithmetic by its own path only: a generic argument naming a field does not
        // make a verifier function field arithmetic.
        assert_eq!(
            classify(p, "<p3_field::extension::ExtField<p3_goldilocks::goldilocks::Goldilocks, 3, C> as core::ops::arith::Mul>::mul"),
            Class::FieldArithmetic
        );
        assert_eq!(
            classify(p, "<picostark_field::qm31::QM31>::inverse"),
            Class::FieldArithmetic,
            "our own field crate"
        );
        assert_eq!(
            classify(
                p,
                "picostark_plonky3::lean::verify_air::<p3_goldilocks::goldilocks::Goldilocks, E>"
            ),
            Class::VerifierBody
        );
        assert_eq!(classify(p, "core::fmt::write::<p3_field::X>"), Class::Other);
        // The challenger is transcript although its hasher is named in it.
        assert_eq!(
            classify(p, "<p3_challenger::hash_challenger::HashChallenger<u8, picostark_plonky3::hash::Sha256Lean, 32> as p3_challenger::CanSample<u8>>::sample"),
            Class::Transcript
        );
        assert_eq!(
            classify(p, "<picostark_plonky3::lean::reader::Reader>::elems_each::<G, <picostark_plonky3::lean::two_adic::TwoAdicPcs<H> as L>::verify::{closure#0}>"),
            Class::DeepQuotients
        );
        assert_eq!(
            classify(p, "<picostark_plonky3::lean::reader::Reader>::varint"),
            Class::Parsing
        );
    }

    #[test]
    fn the_offloaded_compression_leaves_the_profile_only_under_the_engine() {
        let rows = vec![(900, OFFLOADED.to_string()), (100, "memcpy".to_string())];
        let (kept, off) = without_offloaded(rows.clone(), true);
        assert_eq!((kept.len(), off), (1, 900));
        assert_eq!(
            without_offloaded(rows, false).1,
            0,
            "software SHA-256 is counted"
        );
    }

    #[test]
    fn block_rules_of_both_hashes() {
        assert_eq!(Hash::Blake3.compressions(0), 1);
        assert_eq!(Hash::Blake3.compressions(64), 1);
        assert_eq!(Hash::Blake3.compressions(800), 13);
        assert_eq!(Hash::Blake3.compressions(1024), 16);
        assert_eq!(
            Hash::Blake3.compressions(1025),
            18,
            "two chunks and their parent"
        );
        assert_eq!(Hash::Sha256.compressions(55), 1);
        assert_eq!(Hash::Sha256.compressions(56), 2);
        assert_eq!(Hash::Sha256.compressions(800), 13);
    }

    #[test]
    fn expected_nodes_bound_by_paths_and_tree() {
        // One query: exactly one node per height.
        assert!((expected_nodes(10, 1) - 10.0).abs() < 1e-9);
        // Many queries: at most every internal node, at most q per height.
        let n = expected_nodes(10, 14);
        assert!(n < 140.0 && n > 10.0 * 1.0, "{n}");
        assert!(expected_nodes(3, 1000) <= 7.0 + 1e-9);
        assert!((expected_distinct(1.0, 5) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn a_synthetic_profile_splits_into_parts_that_sum_to_it() {
        let rows: Vec<(u64, String)> = [
            (6000, "blake3::portable::compress_in_place"),
            (1000, "picostark_plonky3::lean::merkle::walk::<H, true>"),
            (900, "<picostark_air::membership::Membership<P> as picostark_air::AirDef>::eval_transition::<E>"),
            (800, "<picostark_plonky3::lean::two_adic::TwoAdicPcs<H> as picostark_plonky3::lean::LeanPcs<F, E>>::verify::<C>"),
            (300, "picostark_plonky3::lean::transcript::Transcript::sample_ext"),
            (200, "memcpy"),
        ]
        .into_iter()
        .map(|(n, s)| (n, s.to_string()))
        .collect();
        let classes = by_class(Verifier::Plonky3Lean, &rows);
        assert_eq!(classes[0].0, Class::Hashing);
        assert_eq!(classes[0].1, 6000);
        // One tree of 2^1 leaves of 64 bytes, 2 queries: 2 leaf compressions (one block each)
        // and one node (the root, whichever leaves were drawn); 3 left for the transcript.
        let trees = [Tree {
            leaf_bytes: 64,
            depth: 1,
        }];
        let split = HashSplit::new(6, &trees, 2, Hash::Blake3, false).unwrap();
        assert_eq!(split.leaf, 2.0);
        assert!((split.nodes - 1.0).abs() < 1e-9);
        assert!((split.transcript - 3.0).abs() < 1e-9);
        let p = parts(&classes, &split, 0);
        let get = |n: &str| p.iter().find(|x| x.0 == n).unwrap().1;
        assert_eq!(get("leaf_hashing"), 2000);
        assert_eq!(get("merkle_paths"), 1000 + 1000);
        assert_eq!(get("transcript"), 3000 + 300);
        assert_eq!(get("constraint_evaluation"), 900);
        assert_eq!(get("deep_quotients"), 800);
        assert_eq!(get("other"), 200);
        assert_eq!(p.iter().map(|x| x.1).sum::<u64>(), 9200);
        // The engine's cycles split by the same shares.
        let e = parts(&classes, &split, 600);
        assert_eq!(e.iter().map(|x| x.2).sum::<u64>(), 600);
        assert_eq!(e[0].2, 200);
        // A model beyond the total is refused, not clamped.
        assert!(HashSplit::new(2, &trees, 2, Hash::Blake3, false).is_err());
        assert!(Tree::parse("64@0").is_err() && Tree::parse("x").is_err());
        assert_eq!(
            Tree::parse("800@10").unwrap(),
            Tree {
                leaf_bytes: 800,
                depth: 10
            }
        );
    }
}

#!/usr/bin/env python3
"""Splits `mcu-run run --profile` first-iteration profiles into the categories of
results/baseline/circle-gap.md: instructions (icount plugin, by function) and XIP miss cycles
(timing model v7, by function, `*.iteration1.misses.txt`), per category.

usage: split.py PROFILE.iteration1.txt [...]   (prints one JSON object per profile)
       split.py --functions PROFILE.iteration1.txt   (each function with its category)

Categories are name patterns (first match wins, substrings of the demangled name; a leading
`^` anchors at the function's own path, leading `<` ignored). Inlined code counts to the
function it was inlined into, so a category is only as fine as the symbols are.
"""
import json
import re
import sys

# (pattern, category); first match wins.
PATTERNS = [
    # One compression of the hash (BLAKE3 portable compression, SHA-256 software compression;
    # the latter's instructions are not in an engine run's count: see OFFLOADED).
    ("^blake3::portable::compress", "hash compression"),
    ("^pstk_sha256_compress", "hash compression"),
    # The hash around it: buffering, padding, finalisation, the backends' hasher wrappers.
    ("^blake3::", "hash buffering"),
    ("^picostark_sha256::", "hash buffering"),
    ("^picostark_plonky3::hash::", "hash buffering"),
    ("^p3_symmetric::", "hash buffering"),
    ("^picostark_winterfell::hash::", "hash buffering"),
    ("^winter_crypto::hash::", "hash buffering"),
    ("write_into::<picostark_winterfell::hash::Writer>", "hash buffering"),
    ("as winter_crypto::hash::Hasher>", "hash buffering"),
    ("as winter_crypto::hash::ElementHasher>", "hash buffering"),
    # Transcript / challenger (its own code; its compressions are in the rows above).
    ("^p3_challenger::", "transcript"),
    ("^winter_crypto::random::", "transcript"),
    ("^picostark_plonky3::lean::transcript::", "transcript"),
    ("^tiny_keccak::", "transcript"),
    ("from_random_bytes", "transcript"),
    ("^picostark_winterfell::verifier::seed_elements", "transcript"),
    ("draw_linear_coefficients", "transcript"),
    # The DEEP sum of each trace/quotient row as it is read.
    ("^picostark_plonky3::lean::reader::Reader>::elems_each::<", "DEEP / quotient openings"),
    # Merkle paths.
    ("^picostark_plonky3::lean::merkle::", "Merkle path walking"),
    ("^picostark_winterfell::verifier::merkle::", "Merkle path walking"),
    ("^core::slice::sort::", "Merkle path walking"),
    # FRI folding.
    ("^picostark_plonky3::lean::two_adic::FoldRound", "FRI folding"),
    ("^picostark_plonky3::lean::circle::fold", "FRI folding"),
    ("^picostark_plonky3::lean::wide_circle::fold_row", "FRI folding"),
    # The final polynomial at each query (Horner over its coefficients, reversed).
    ("^core::iter::adapters::rev::Rev<core::slice::iter::Iter<p3_field", "FRI folding"),
    ("verifier::fri::", "FRI folding"),
    # The PCS's own `verify` (the DEEP quotients of each query, with the row reading and leaf
    # assembly it inlines), before the circle module's other functions.
    ("as picostark_plonky3::lean::LeanPcs<", "DEEP / quotient openings"),
    # Domain points and twiddles: circle points (scalar multiples, sums), line-layer twiddles,
    # v_n and the vanishing polynomial; for winterfell the roots-of-unity powers.
    ("^picostark_plonky3::lean::wide_circle::leaf_twiddles", "domain points & twiddles"),
    ("^p3_circle::", "domain points & twiddles"),
    ("vanishing_poly", "domain points & twiddles"),
    # The two-adic counterpart: each query's domain point as a power of a root of unity.
    ("^winter_math::field::f64::BaseElement as winter_math::field::traits::StarkField>::get_root_of_unity", "domain points & twiddles"),
    ("^picostark_winterfell::verifier::math::Powers<", "domain points & twiddles"),
    # The leaf bytes of a QM31 row before hashing (the circle's line-layer leaves).
    ("^picostark_plonky3::lean::circle::ext_bytes", "hash buffering"),
    # Per-query state set-up of the circle verifiers.
    ("^picostark_plonky3::lean::circle::QueryDigests", "memcpy / alloc"),
    ("^picostark_plonky3::lean::circle::", "domain points & twiddles"),
    # AIR at the out-of-domain point.
    ("^picostark_air::", "AIR at OOD"),
    ("^picostark_poseidon2::", "AIR at OOD"),
    ("^picostark_plonky3::lean::uni_stark::fold_transitions", "AIR at OOD"),
    ("^picostark_plonky3::lean::uni_stark::quotient_at_zeta", "AIR at OOD"),
    ("^picostark_winterfell::verifier::composer::check_ood_constraints", "AIR at OOD"),
    ("^picostark_winterfell::air::", "AIR at OOD"),
    # DEEP / opening quotients.
    ("as picostark_plonky3::lean::LeanPcs<", "DEEP / quotient openings"),
    ("^picostark_plonky3::lean::math::batch_invert", "DEEP / quotient openings"),
    ("^p3_field::batch_inverse::batch_multiplicative_inverse", "DEEP / quotient openings"),
    ("^picostark_winterfell::verifier::composer::", "DEEP / quotient openings"),
    ("^picostark_winterfell::verifier::math::invert_in_place", "DEEP / quotient openings"),
    # Proof parsing.
    ("^picostark_plonky3::lean::reader::", "proof parsing"),
    ("^picostark_winterfell::verifier::parse::", "proof parsing"),
    ("^picostark_winterfell::verifier::decode_all", "proof parsing"),
    ("decode_all", "proof parsing"),
    ("winter_utils::serde::", "proof parsing"),
    ("^picostark_core::proof_file::", "proof parsing"),
    # Memory: copies, fills, the allocator.
    ("mem::memcpy", "memcpy / alloc"),
    ("mem::memset", "memcpy / alloc"),
    ("mem::memmove", "memcpy / alloc"),
    ("^__aeabi_mem", "memcpy / alloc"),
    ("^memcpy", "memcpy / alloc"),
    ("^memset", "memcpy / alloc"),
    ("^memmove", "memcpy / alloc"),
    ("GlobalAlloc", "memcpy / alloc"),
    ("^rlsf::", "memcpy / alloc"),
    ("^alloc::", "memcpy / alloc"),
    ("__rust_alloc", "memcpy / alloc"),
    ("__rust_dealloc", "memcpy / alloc"),
    ("__rust_realloc", "memcpy / alloc"),
    # Field arithmetic kept out of line (caller unknown).
    ("^p3_field::", "field arithmetic (out of line)"),
    ("^p3_mersenne_31::", "field arithmetic (out of line)"),
    ("^p3_goldilocks::", "field arithmetic (out of line)"),
    ("^p3_monty_31::", "field arithmetic (out of line)"),
    ("^p3_baby_bear::", "field arithmetic (out of line)"),
    ("^winter_math::field::", "field arithmetic (out of line)"),
    ("^picostark_winterfell::field::", "field arithmetic (out of line)"),
    ("^picostark_winterfell::verifier::math::", "field arithmetic (out of line)"),
    ("^core::ops::try_trait::Wrapped<p3_", "field arithmetic (out of line)"),
    ("^[p3_mersenne_31::", "field arithmetic (out of line)"),
    ("^compiler_builtins::int::", "field arithmetic (out of line)"),
    ("^__aeabi_uldivmod", "field arithmetic (out of line)"),
    ("^__udivdi3", "field arithmetic (out of line)"),
    ("^__umoddi3", "field arithmetic (out of line)"),
    # The verifiers' top-level functions (inline sinks).
    ("^picostark_plonky3::lean::verify", "verifier body"),
    ("^picostark_plonky3::lean::wide_circle::verify", "verifier body"),
    ("^picostark_plonky3::lean::uni_stark::verify", "verifier body"),
    ("^picostark_winterfell::verifier::verify", "verifier body"),
    ("^picostark_winterfell::verifier::row_leaves", "verifier body"),
]

CATEGORIES = [
    "hash compression", "hash buffering", "Merkle path walking", "FRI folding",
    "DEEP / quotient openings", "domain points & twiddles", "AIR at OOD", "transcript",
    "proof parsing", "memcpy / alloc", "field arithmetic (out of line)", "verifier body",
    "other",
]

OFFLOADED = "pstk_sha256_compress"


def category(name):
    own = name.lstrip("<")
    for pat, cat in PATTERNS:
        if pat.startswith("^"):
            if own.startswith(pat[1:]):
                return cat
        elif pat in name:
            return cat
    return "other"


def read(path):
    rows, exact = [], None
    for line in open(path):
        m = re.match(r"# block-profile total (\d+) \(exact count of the same regions: (\d+)\)", line)
        if m:
            exact = int(m.group(2))
            continue
        if line.startswith("#") or not line.strip():
            continue
        parts = line.split(None, 3)
        rows.append((int(parts[0]), parts[3].rstrip("\n")))
    return rows, exact


def split(path):
    rows, exact = read(path)
    try:
        misses, miss_exact = read(path.replace(".iteration1.txt", ".iteration1.misses.txt"))
    except FileNotFoundError:
        misses, miss_exact = [], None
    miss = {}
    for n, name in misses:
        miss[name] = miss.get(name, 0) + n
    out = {c: {"instructions": 0, "miss_cycles": 0} for c in CATEGORIES}
    offloaded = 0
    for n, name in rows:
        c = category(name)
        out[c]["instructions"] += n
        out[c]["miss_cycles"] += miss.get(name, 0)
        if name == OFFLOADED:
            offloaded += n
    compress = [(n, name) for n, name in rows if category(name) == "hash compression"]
    return {
        "profile": path,
        "block_profile_total": sum(n for n, _ in rows),
        "exact_instructions": exact,
        "miss_cycles_total": miss_exact,
        "offloaded_software_compression": offloaded,
        "compression_functions": compress,
        "categories": out,
    }


if __name__ == "__main__":
    args = sys.argv[1:]
    if args and args[0] == "--functions":
        for p in args[1:]:
            for n, name in read(p)[0]:
                print(f"{n:>10}  {category(name):<32} {name}")
    else:
        for p in args:
            print(json.dumps(split(p)))

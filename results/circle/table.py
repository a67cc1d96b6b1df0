#!/usr/bin/env python3
"""Tables of results/circle/ for its README: per hash and core, each backend's record (QEMU
instruction counts, timing-model estimate, heap and stack peaks) and its first-iteration
profile split into parts by function name (first match wins). Reads only the records and
profiles `run.sh` wrote; prints Markdown."""
import json
import pathlib
import re

HERE = pathlib.Path(__file__).resolve().parent
BACKENDS = ["p3-m31", "p3-babybear", "p3-goldilocks"]
CORES = [("m33", "Cortex-M33"), ("rv32", "Hazard3")]

# Parts of a profile, by demangled function name. Inlined code counts to its caller: our
# field products are inlined into the passes, so "field arithmetic out of line" is what the
# compiler left as calls, and the passes' own rows hold the rest of the arithmetic.
PARTS = [
    ("hash compression", r"blake3::compress|blake3::portable|pstk_sha256_compress|subtree_cv|chunk_cv"),
    ("Merkle walk and hashing glue", r"merkle::|hash::|Sha256|Blake3|gather_slices|Stream|ext_bytes"),
    ("memcpy / memset / alloc", r"memcpy|memclr|memset|memmove|memcmp|alloc::|tlsf|Tlsf|Heap"),
    ("field arithmetic out of line", r"picostark_field::|p3_field::|p3_mersenne_31::|p3_monty_31::|p3_goldilocks::|batch_invert|invert_from_product|Wrapped|::inverse|try_inverse"),
    ("circle points and twiddles", r"p3_circle::|shifted_multiple|circle_domain::multiple|circle_domain::generator|leaf_offsets|leaf_twiddles|nth_point|v_n"),
    ("opening inputs (DEEP)", r"open_inputs|InputPass|complete_terms"),
    ("FRI folding and final polynomial", r"fold|Fold|final|adapters::rev"),
    ("transcript", r"challenger|Challenger|transcript|SeedPacker|sample|pattern"),
    ("proof parsing", r"reader::|Reader|varint|seq_len|parse|decode"),
    ("AIR at the OOD point", r"uni_stark|check_constraints|quotient_at_zeta|AtZeta|eval"),
    ("security estimate (policy)", r"picostark_core::security"),
]


def record(hash_dir, backend, core):
    f = HERE / hash_dir / f"{backend}-{hash_dir}.proof.{core}.tlsf.json"
    return json.loads(f.read_text()) if f.exists() else None


def profile(hash_dir, backend, core):
    f = HERE / hash_dir / f"{backend}-{hash_dir}.proof.{core}.tlsf.profile.iteration1.txt"
    if not f.exists():
        return None
    rows = []
    for line in f.read_text().splitlines():
        m = re.match(r"\s*(\d+)\s+[\d.]+%\s+[\d.]+%\s+(.*)", line)
        if m:
            rows.append((int(m.group(1)), m.group(2)))
    return rows


def without_generics(fn):
    """`<a::B<C>>::f` as `<a::B>::f`: a part is decided by the function's path and its
    `<Type as Trait>` pair, not by the types it was instantiated with."""
    while True:
        shorter = re.sub(r"(?<=.)(::)?<[^<>]*>", "", fn)
        if shorter == fn:
            return fn
        fn = shorter


def parts(rows):
    out = {name: 0 for name, _ in PARTS}
    out["other"] = 0
    for n, fn in rows:
        fn = without_generics(fn)
        for name, pat in PARTS:
            if re.search(pat, fn):
                out[name] += n
                break
        else:
            out["other"] += n
    return out


def g(v):
    return f"{v:,}".replace(",", " ")


def main():
    for hash_dir, title in [("blake3", "BLAKE3"), ("engine", "SHA-256 engine")]:
        print(f"### {title}\n")
        print("| core | backend | params | bits (strictest) | instructions | est. cycles | est. ms | vs p3-m31 | heap / stack peak | proof |")
        print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|")
        for core, name in CORES:
            base = record(hash_dir, "p3-m31", core)
            for b in BACKENDS:
                r = record(hash_dir, b, core)
                if r is None:
                    continue
                p = r["params"]
                params = f"2^{p['log_blowup']} / {p['num_queries']} / 2^{p['log_fold_arity']} / 2^{p['log_final_poly_len']} / {p['pow_bits']}"
                est = r["estimate"]
                ratio = "" if base is None else f"{est['ms'] / base['estimate']['ms']:.2f}x"
                print(f"| {name} | {b} | {params} | {r['security_bits']} | {g(r['instructions'])} | {g(est['cycles'])} | {est['ms']:.2f} | {ratio} | {g(r['heap_peak'])} / {g(r['stack_peak'])} B | {g(r['proof_bytes'])} B |")
        print()
        print(f"Profile parts (instructions of the first verification; the engine's SHA-256 blocks are charged by the model, not counted):\n")
        names = [n for n, _ in PARTS] + ["other"]
        print("| core | backend | " + " | ".join(names) + " |")
        print("|---|---|" + "---:|" * len(names))
        for core, name in CORES:
            for b in BACKENDS:
                rows = profile(hash_dir, b, core)
                r = record(hash_dir, b, core)
                if rows is None or r is None:
                    continue
                pt = parts(rows)
                if hash_dir == "engine":
                    # The software compression the engine replaces is in the block profile
                    # but not in the record's count.
                    pt["hash compression"] = 0
                print(f"| {name} | {b} | " + " | ".join(g(pt[n]) for n in names) + " |")
        print()


if __name__ == "__main__":
    main()

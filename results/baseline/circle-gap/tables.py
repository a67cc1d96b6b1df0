#!/usr/bin/env python3
"""The tables of results/baseline/circle-gap.md from the runs in runs/ (records and
first-iteration profiles of `mcu-run run --profile`), split by split.py.

usage: python3 tables.py > tables.md   (run in this folder)
"""
import json

from split import CATEGORIES, split

# BLAKE3 compressions per verification: blake3::portable::compress_in_place is straight-line
# code of 969 instructions on the M33 (llvm-objdump of these images: no branch), so its
# profile instructions / 969 is the number of calls; the same proof makes the same calls on
# the RV32 (one verifier, one algorithm).
M33_BLAKE3_COMPRESS = 969

PAIRS = [
    ("M33, BLAKE3, code in flash (xip)",
     "runs/p3-m31-fib-n1024-wide-f4-l3.proof.m33.tlsf",
     "runs/all/wf-goldilocks-fib-n1024.proof.m33.tlsf",
     None),
    ("M33, SHA-256 engine, code in SRAM",
     "runs/engine/p3-m31-fib-n1024-sha256-b8-q10-f4-l6.proof.m33.tlsf",
     "runs/engine/wf-goldilocks-fib-n1024-sha256-b7-q12-f4-l6.proof.m33.tlsf",
     None),
    ("Hazard3, BLAKE3, code in flash (xip)",
     "runs/all/p3-m31-fib-n1024-circle.proof.rv32.tlsf",
     "runs/all/wf-goldilocks-fib-n1024.proof.rv32.tlsf",
     ("runs/all/p3-m31-fib-n1024-circle.proof.m33.tlsf",
      "runs/all/wf-goldilocks-fib-n1024.proof.m33.tlsf")),
    ("Hazard3, SHA-256 engine, code in SRAM",
     "runs/engine/p3-m31-fib-n1024-sha256-b8-q10-f4-l6.proof.rv32.tlsf",
     "runs/engine/wf-goldilocks-fib-n1024-sha256-b7-q12-f4-l6.proof.rv32.tlsf",
     None),
    ("beside: Hazard3, BLAKE3, code in flash (xip), WideCirclePcs",
     "runs/all/p3-m31-fib-n1024-wide-f4-l3.proof.rv32.tlsf",
     "runs/all/wf-goldilocks-fib-n1024.proof.rv32.tlsf",
     ("runs/all/p3-m31-fib-n1024-wide-f4-l3.proof.m33.tlsf",
      "runs/all/wf-goldilocks-fib-n1024.proof.m33.tlsf")),
]
# Extra rows shown beside the pairs (not the report's pair members).
EXTRA = [
    ("Hazard3, BLAKE3, xip: WideCirclePcs 2^6/14/2^4/2^3 (p3-m31-only image)",
     "runs/p3-m31-fib-n1024-wide-f4-l3.proof.rv32.tlsf",
     "runs/p3-m31-fib-n1024-wide-f4-l3.proof.m33.tlsf"),
    ("Hazard3, BLAKE3, xip: WideCirclePcs 2^6/14/2^4/2^3 (all-backend image)",
     "runs/all/p3-m31-fib-n1024-wide-f4-l3.proof.rv32.tlsf",
     "runs/all/p3-m31-fib-n1024-wide-f4-l3.proof.m33.tlsf"),
]


def g(n):
    return f"{n:,}"


def load(stem, m33_stem=None):
    rec = json.load(open(stem + ".json"))
    s = split(stem + ".profile.iteration1.txt")
    e = rec["estimate"]
    eng = e.get("sha256_engine")
    cats = s["categories"]
    comp = cats["hash compression"]["instructions"]
    if eng:
        # Offloaded: the software compression is in the block profile, not in the count.
        assert s["offloaded_software_compression"] == comp
        blocks = eng["blocks"]
        cats["hash compression"] = {"instructions": 0, "miss_cycles": 0,
                                    "engine": blocks * eng["cycles_per_block"]}
        calls = blocks
    else:
        if m33_stem is None:
            m33_stem = stem
        m = split(m33_stem + ".profile.iteration1.txt")
        c = m["categories"]["hash compression"]["instructions"]
        assert c % M33_BLAKE3_COMPRESS == 0, (stem, c)
        calls = c // M33_BLAKE3_COMPRESS
    # The profile is the first genuine iteration; the record is the median one (on the
    # Hazard3 the first iteration runs a few more instructions: 14-60 here).
    assert s["block_profile_total"] - s["offloaded_software_compression"] == s["exact_instructions"], stem
    assert abs(s["exact_instructions"] - rec["instructions"]) < 100, stem
    return rec, s, calls


def est(c):
    return c["instructions"] + c["miss_cycles"] + c.get("engine", 0)


def table(title, cstem, tstem, m33=None):
    c, cs, cc = load(cstem, m33 and m33[0])
    t, ts, tc = load(tstem, m33 and m33[1])
    ce, te = c["estimate"], t["estimate"]
    out = [f"**{title}**: circle `{cstem.split('/')[-1]}` ({c['backend']} {p(c)}) against two-adic "
           f"`{tstem.split('/')[-1]}` ({t['backend']} {p(t)})", ""]
    out.append("| category | circle instr. | two-adic instr. | Δ instr. | circle miss cyc. | two-adic miss cyc. | circle est. cyc. | two-adic est. cyc. | Δ est. cyc. | share of Δ |")
    out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    dtot = ce["cycles"] - te["cycles"]
    rows = []
    for k in CATEGORIES:
        a, b = cs["categories"][k], ts["categories"][k]
        d = est(a) - est(b)
        name = k
        if k == "hash compression":
            if "engine" in a:
                name = f"hash compression (engine: {g(cc)} vs {g(tc)} blocks x 84 cyc.)"
            else:
                pa = a["instructions"] / cc
                pb = b["instructions"] / tc
                name = f"hash compression ({g(cc)} vs {g(tc)} x {pa:,.0f} / {pb:,.0f} instr.)"
        rows.append((name, a, b, d))
    for name, a, b, d in rows:
        out.append(f"| {name} | {g(a['instructions'])} | {g(b['instructions'])} | {g(a['instructions'] - b['instructions'])} | "
                   f"{g(a['miss_cycles'])} | {g(b['miss_cycles'])} | {g(est(a))} | {g(est(b))} | {g(d)} | {100 * d / dtot:.0f} % |")
    # The profiles are iteration 1; the record is the median window: the rest.
    ci = c["instructions"] - cs["exact_instructions"]
    ti = t["instructions"] - ts["exact_instructions"]
    cm = ce["xip_miss_cycles"] - cs["miss_cycles_total"]
    tm = te["xip_miss_cycles"] - ts["miss_cycles_total"]
    d = ci + cm - ti - tm
    out.append(f"| median window less iteration 1 | {g(ci)} | {g(ti)} | {g(ci - ti)} | {g(cm)} | {g(tm)} | {g(ci + cm)} | {g(ti + tm)} | {g(d)} | {100 * d / dtot:.0f} % |")
    cst, tst = ce["stall_cycles"], te["stall_cycles"]
    out.append(f"| stalls (model, not by function) | | | | | | {g(cst)} | {g(tst)} | {g(cst - tst)} | {100 * (cst - tst) / dtot:.0f} % |")
    out.append(f"| **total** (record) | **{g(c['instructions'])}** | **{g(t['instructions'])}** | {g(c['instructions'] - t['instructions'])} | "
               f"{g(ce['xip_miss_cycles'])} | {g(te['xip_miss_cycles'])} | **{g(ce['cycles'])}** ({ce['ms']:.2f} ms) | **{g(te['cycles'])}** ({te['ms']:.2f} ms) | {g(dtot)} | 100 % |")
    out.append("")
    return "\n".join(out)


def p(r):
    q = r["params"]
    return (f"2^{q['log_blowup']} / {q['num_queries']} / 2^{q['log_fold_arity']} / "
            f"2^{q['log_final_poly_len']} / {q['pow_bits']}")


def single(title, stem, m33):
    r, s, calls = load(stem, m33)
    e = r["estimate"]
    out = [f"**{title}** (`{stem.split('/')[-1]}`, {p(r)}): {g(r['instructions'])} instructions, "
           f"{g(e['cycles'])} est. cycles ({e['ms']:.2f} ms), XIP miss cycles {g(e['xip_miss_cycles'])}, "
           f"stalls {g(e['stall_cycles'])}, {g(calls)} BLAKE3 compressions", ""]
    out.append("| category | instr. | miss cyc. (iteration 1) |")
    out.append("|---|---:|---:|")
    for k in CATEGORIES:
        a = s["categories"][k]
        out.append(f"| {k} | {g(a['instructions'])} | {g(a['miss_cycles'])} |")
    out.append("")
    return "\n".join(out)


GROUPS = [
    ("hashing and Merkle (protocol: blocks, leaves, paths)",
     ["hash compression", "hash buffering", "Merkle path walking"]),
    ("arithmetic: field functions out of line + memcpy / alloc",
     ["field arithmetic (out of line)", "memcpy / alloc"]),
    ("arithmetic's callers: FRI folding, DEEP, domain points & twiddles, AIR at OOD",
     ["FRI folding", "DEEP / quotient openings", "domain points & twiddles", "AIR at OOD"]),
    ("transcript", ["transcript"]),
    ("proof parsing", ["proof parsing"]),
    ("verifier body, other", ["verifier body", "other"]),
]


def summary():
    out = ["| pair | group | Δ instr. | Δ miss cyc. | Δ engine cyc. | Δ est. cyc. | share |",
           "|---|---|---:|---:|---:|---:|---:|"]
    for title, cstem, tstem, m33 in PAIRS:
        c, cs, _ = load(cstem, m33 and m33[0])
        t, ts, _ = load(tstem, m33 and m33[1])
        ce, te = c["estimate"], t["estimate"]
        dtot = ce["cycles"] - te["cycles"]
        acc = 0
        for name, cats in GROUPS:
            di = sum(cs["categories"][k]["instructions"] - ts["categories"][k]["instructions"] for k in cats)
            dm = sum(cs["categories"][k]["miss_cycles"] - ts["categories"][k]["miss_cycles"] for k in cats)
            de = sum(cs["categories"][k].get("engine", 0) - ts["categories"][k].get("engine", 0) for k in cats)
            if name.startswith("verifier body"):
                # With the median window's remainder (instructions and misses).
                di += (c["instructions"] - cs["exact_instructions"]) - (t["instructions"] - ts["exact_instructions"])
                dm += (ce["xip_miss_cycles"] - cs["miss_cycles_total"]) - (te["xip_miss_cycles"] - ts["miss_cycles_total"])
            acc += di + dm + de
            out.append(f"| {title} | {name} | {g(di)} | {g(dm)} | {g(de)} | {g(di + dm + de)} | {100 * (di + dm + de) / dtot:.0f} % |")
        ds = ce["stall_cycles"] - te["stall_cycles"]
        acc += ds
        out.append(f"| {title} | stalls (model) | | | | {g(ds)} | {100 * ds / dtot:.0f} % |")
        assert acc == dtot, (title, acc, dtot)
        out.append(f"| {title} | **total** | {g(c['instructions'] - t['instructions'])} | {g(ce['xip_miss_cycles'] - te['xip_miss_cycles'])} | | **{g(dtot)}** ({ce['ms']:.2f} - {te['ms']:.2f} ms) | 100 % |")
    return "\n".join(out) + "\n"


def short(name):
    for a, b in [("p3_field::extension::", ""), ("p3_mersenne_31::mersenne_31::", ""),
                 ("core::ops::try_trait::", ""), ("p3_field::field::", ""),
                 ("ExtField<ExtField<Mersenne31, 2, Binomial<Mersenne31>>, 2, Binomial<ExtField<Mersenne31, 2, Binomial<Mersenne31>>>>", "QM31"),
                 ("ExtField<Mersenne31, 2, Binomial<Mersenne31>>", "CM31"),
                 ("core::ops::function::FnMut<(usize,)>>::call_mut", "call_mut"),
                 ("binomial_extension::", ""), ("core::ops::arith::", "")]:
        name = name.replace(a, b)
    return name[:150]


def field_functions(stems, top=10):
    from split import category, read
    out = ["| function (shortened; QM31 = Mersenne31^4 as CM31^2) | " + " | ".join(s.split("/")[-1].replace(".tlsf", "") for s in stems) + " |",
           "|---|" + "---:|" * len(stems)]
    tables = []
    for s in stems:
        rows, _ = read(s + ".profile.iteration1.txt")
        tables.append({n: c for c, n in rows if category(n) in ("field arithmetic (out of line)", "memcpy / alloc")})
    union = {n for t in tables for n in t}
    names = sorted(union, key=lambda n: -sum(t.get(n, 0) for t in tables))[:top]
    for n in names:
        out.append(f"| `{short(n)}` | " + " | ".join(g(t.get(n, 0)) for t in tables) + " |")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    print(summary())
    for args in PAIRS:
        print(table(*args))
    print(field_functions(["runs/p3-m31-fib-n1024-wide-f4-l3.proof.m33.tlsf",
                           "runs/engine/p3-m31-fib-n1024-sha256-b8-q10-f4-l6.proof.m33.tlsf",
                           "runs/all/p3-m31-fib-n1024-circle.proof.rv32.tlsf",
                           "runs/engine/p3-m31-fib-n1024-sha256-b8-q10-f4-l6.proof.rv32.tlsf"], 14))

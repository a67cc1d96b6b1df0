#!/usr/bin/env python3
"""The constant-time table (issue 46) from the records run.sh wrote: per backend, core and
allocator the honest proof's instructions and estimated cycles, each tampered class's, its
verdict against the one `prover-host tamper` expected, and the largest gap to the honest
proof. Prints Markdown; exits 1 if a class's verdict is not the expected one."""

import json
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
# Classes whose edit the transcript does not observe (the query indices stay the honest
# proof's); winterfell's remainder is not observed either (only its commitment).
SAME_INDICES = {"trace-opening", "merkle-sibling", "fri-fold"}
CLASSES = ["public-input", "ood", "trace-opening", "merkle-sibling", "fri-fold",
           "final-poly", "pow-nonce"]


def expected_kinds():
    """`{(backend, class): "rejected:<kind>"}` from the tamper logs."""
    out = {}
    for log in sorted((HERE / "proofs").glob("*.tamper.txt")):
        backend = log.name[: -len(".tamper.txt")]
        for line in log.read_text().splitlines():
            parts = line.split()
            if len(parts) >= 2 and parts[1].startswith("expected="):
                out[(backend, parts[0])] = parts[1][len("expected="):]
    return out


def main():
    expected = expected_kinds()
    ok = True
    rows = []
    for d in sorted((HERE / "records").glob("*-*")):
        core, alloc = d.name.split("-", 1)
        recs = {}
        for f in d.glob("*.json"):
            recs[f.name] = json.loads(f.read_text())
        backends = sorted({n.split("-fib-n1024")[0] for n in recs})
        for b in backends:
            honest = recs.get(f"{b}-fib-n1024.proof.{core}.{alloc}.json")
            if honest is None:
                continue
            h_ins = honest["instructions"]
            h_cyc = honest["estimate"]["cycles"]
            cells, gap, gap_cyc, gap_same = [], None, None, None
            for c in CLASSES:
                r = recs.get(f"{b}-fib-n1024.{c}.proof.{core}.{alloc}.json")
                if r is None:
                    cells.append("-")
                    continue
                want = expected.get((b, c))
                good = r["result"] == want
                ok &= good
                g = (r["instructions"] - h_ins) / h_ins * 100
                gc = (r["estimate"]["cycles"] - h_cyc) / h_cyc * 100
                gap = max(gap or 0.0, abs(g))
                if c in SAME_INDICES or want == "rejected:remainder-commitment":
                    gap_same = max(gap_same or 0.0, abs(g))
                gap_cyc = max(gap_cyc or 0.0, abs(gc))
                mark = "" if good else f" **{r['result']} (want {want})**"
                cells.append(f"{r['instructions']:,} ({g:+.3f} %){mark}")
            pct = lambda v: "-" if v is None else f"{v:.3f} %"
            rows.append((b, core, alloc, f"{h_ins:,}", f"{h_cyc:,}", cells,
                         pct(gap), pct(gap_cyc), pct(gap_same)))
    print("| backend | core | alloc | honest instructions | honest est. cycles | "
          + " | ".join(CLASSES) + " | largest gap (instr.) | largest gap (cycles) |"
          + " largest gap, indices unchanged (instr.) |")
    print("|" + "---|" * (5 + len(CLASSES) + 3))
    for b, core, alloc, hi, hc, cells, gap, gc, gs in rows:
        print(f"| {b} | {core} | {alloc} | {hi} | {hc} | " + " | ".join(cells)
              + f" | {gap} | {gc} | {gs} |")
    if not ok:
        print("\nA class's verdict is not the expected reason (bold above).")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

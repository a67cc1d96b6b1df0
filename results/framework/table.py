#!/usr/bin/env python3
"""Issue 47's A/B table: instructions and estimated ms per proof and core at each commit
(results/framework/<commit>/), with each commit's change against the one before it.

    python3 results/framework/table.py ce09d4a 59fa935 6c3477c
"""
import glob
import json
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
commits = sys.argv[1:]
recs = {}
for c in commits:
    for f in glob.glob(os.path.join(here, c, "*.json")):
        r = json.load(open(f))
        key = (os.path.basename(f).split(".proof")[0], r["core"])
        recs.setdefault(key, {})[c] = r
head = ["proof", "core"] + [f"{c} instr" for c in commits]
head += [f"{a}->{b}" for a, b in zip(commits, commits[1:])] + [f"{c} est. ms" for c in commits]
print("| " + " | ".join(head) + " |")
print("|" + "---|" * len(head))
for (proof, core), v in sorted(recs.items()):
    if len(v) < len(commits):
        continue
    ins = [v[c]["instructions"] for c in commits]
    cells = [proof, core] + [f"{i:,}" for i in ins]
    cells += [f"{100 * (b - a) / a:+.3f} %" for a, b in zip(ins, ins[1:])]
    cells += [f"{v[c]['estimate']['ms']:.2f}" for c in commits]
    print("| " + " | ".join(cells) + " |")

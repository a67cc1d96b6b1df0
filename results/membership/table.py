#!/usr/bin/env python3
"""Markdown tables of results/membership/ records (emulator RunRecords), one row per record:
   python3 results/membership/table.py results/membership/records-128 [more folders]"""
import json, pathlib, sys

HEAD = ("| core | backend | ext | hash | proof (parameters in the name) | bits: strictest / proven unique / list "
        "| proof bytes | instructions | est. ms | XIP miss cycles | heap peak | stack peak | commit |")
print(HEAD)
print("|" + "---|" * (HEAD.count("|") - 1))
rows = []
for d in sys.argv[1:]:
    for f in sorted(pathlib.Path(d).glob("*.json")):
        r = json.loads(f.read_text())
        if r.get("schema") != 1:
            continue
        e, s = r.get("estimate") or {}, r.get("security") or {}
        name = f.name.split(".proof")[0]
        rows.append((r["core"], e.get("ms") or 1e9, r, e, s, name))
for core, ms, r, e, s, name in sorted(rows, key=lambda x: (x[0], x[1])):
    hash_ = "sha256-engine (charged)" if e.get("sha256_engine") else r.get("hash_impl")
    bits = f"{r['security_bits']} / {s.get('proven_unique', 0):.0f} / {s.get('proven_list', 0):.0f}"
    g = lambda v: f"{v:,}" if isinstance(v, int) else "–"
    print(f"| {core} | {r['backend']} | {r['extension']} | {hash_} | {name} | {bits} | "
          f"{g(r['proof_bytes'])} | {g(r['instructions'])} | {e.get('ms', 0):.2f} | "
          f"{g(e.get('xip_miss_cycles'))} | {g(r['heap_peak'])} | {g(r['stack_peak'])} | "
          f"{r['git_commit'][:7]} |")

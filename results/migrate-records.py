#!/usr/bin/env python3
"""One-time migration of the committed run records (issue 27), kept to say how they got
their `params`, `placement` and `image` fields (core/src/record.rs `RunRecord`).

Records written since then carry the fields from their writer (`prover-host` and `mcu-run`
read the proof header they hold; `mcu-run` knows the placement from its build features or the
board image's symbols, and `mcu-run board --image` names the image). Records written before
lack them; this script gave them, once, what `compare` used to guess at every report:

- `params` from the record's file name as the documented commands write it (`-b8-q10-f4-l6`:
  log blowup, queries, log folding arity, log final length; `-w24`: proof-of-work bits, as
  the issue-28 membership records name it; `proven100`: prover-host's preset),
  else each backend's defaults at the time (backends/winterfell/src/prover.rs
  `DEFAULT_PARAMS`, backends/plonky3/src/config.rs `DEFAULT_PARAMS_TWO_ADIC` / `_CIRCLE`,
  prover-host/src/main.rs `preset`). The name ends at its first `.` (`x-l3.host.json`: `l3`).
- `placement` from the profile: a `placement=NAME` entry, else `all-sram` for a `code=sram`
  build, else `xip`; none on the host.
- board images (`results/placement/one`, `/all`): `image` from the folder (`one-backend`,
  `all-backend`), and `placement` `hot-sram-insns` for the first hot set's records
  (`one/hot-sram-insns/`, the list by instruction share of commit bfd1bac).

- board images, again (issue 26): `security_bits`, which `mcu-run board` left at 0 (a board
  image prints no run line stating it) until it computed it, as the policy regime's figure
  of the record's own `security` (`strictest`: the least of the three conjectures, as
  `picostark_core::Figures::get`).

A record that has a field keeps it. Usage: python3 results/migrate-records.py DIR...
"""
import json
import pathlib
import sys

# backend -> (log blowup, queries, PoW bits, log fold arity, log final length)
DEFAULTS = {"p3-m31": (6, 14, 20, 1, 0), "wf": (6, 14, 20, 3, 5), "p3": (6, 14, 20, 4, 2)}
PROVEN100 = {
    "wf-goldilocks": (7, 23, 20, 3, 5),
    "wf-babybear": (6, 27, 24, 3, 5),
    "p3-babybear": (7, 22, 24, 4, 2),
    "p3-goldilocks": (8, 20, 24, 4, 2),
    "p3-m31": (8, 20, 24, 1, 0),
}
KEYS = ("log_blowup", "num_queries", "pow_bits", "log_fold_arity", "log_final_poly_len")


def params(backend, name):
    stem = name.split(".")[0]
    if "proven100" in stem:
        v = list(PROVEN100[backend])
    else:
        v = list(DEFAULTS.get(backend, DEFAULTS[backend[:2]]))
    for t in stem.split("-"):
        if t[:1] in ("b", "q", "w", "f", "l") and t[1:].isdigit():
            v["bqwfl".index(t[0])] = int(t[1:])
    return dict(zip(KEYS, v))


def migrate(rec, path):
    if rec.get("params") is None:
        rec["params"] = params(rec["backend"], path.name)
    if rec.get("placement") is None and rec["source"] != "host":
        named = [w[10:] for w in rec["profile"].split() if w.startswith("placement=")]
        rec["placement"] = (named or ["all-sram" if "code=sram" in rec["profile"] else "xip"])[0]
    parts = path.parts
    if rec.get("board") == "qemu-board-image" and "placement" in parts:
        kind = parts[parts.index("placement") + 1]
        image = {"one": "one-backend", "all": "all-backend"}.get(kind)
        if image:
            rec.setdefault("image", image)
        if parts[-2] == "hot-sram-insns":
            rec["placement"] = "hot-sram-insns"
    sec = rec.get("security")
    if rec.get("board") == "qemu-board-image" and not rec.get("security_bits") and sec:
        conjectures = ("ethstark", "winterfell_conjectured", "plonky3_conjectured")
        regime = {"strictest": min(sec[k] for k in conjectures)}
        rec["security_bits"] = int(regime[sec["policy_regime"]])
    return rec


for top in sys.argv[1:]:
    for path in sorted(pathlib.Path(top).rglob("*.json")):
        data = json.loads(path.read_text())
        # Not run records: tune searches, device-log summaries.
        if not all(isinstance(r, dict) and "source" in r for r in (data if isinstance(data, list) else [data])):
            continue
        many = isinstance(data, list)
        data = [migrate(r, path) for r in (data if many else [data])]
        text = json.dumps(data if many else data[0], indent=2, ensure_ascii=False)
        path.write_text(text + "\n")

#!/usr/bin/env python3
"""Tables of results/placement/ for its README: per backend and core, each placement's
estimate from the board-image records (`mcu-run board`), the XIP-miss share of it, the change
against `xip`, and the code + read-only bytes in flash and in SRAM. Reads only the records."""
import json
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
BACKENDS = ["wf-goldilocks", "wf-babybear", "p3-babybear", "p3-goldilocks", "p3-m31"]
PLACEMENTS = ["xip", "xip-ordered", "hot-sram-insns", "hot-sram-path", "hot-sram", "all-sram"]


# The one-backend images with legacy symbol names (before the firmware's v0 mangling) and
# the hot set matched by path alone: kept outside one/ so the report does not read them.
LEGACY = {"hot-sram-path": "hot-sram", "xip-legacy": "xip"}


def load(image, placement, backend, core):
    if placement in LEGACY:
        if image != "one":
            return None
        f = HERE / "legacy-names" / LEGACY[placement] / f"{backend}.proof.{core}.tlsf.json"
        return json.loads(f.read_text()) if f.exists() else None
    f = HERE / image / placement / f"{backend}.proof.{core}.tlsf.json"
    return json.loads(f.read_text()) if f.exists() else None


def qemu(backend, core):
    """The report's QEMU-image record (the QEMU firmware of every backend `compare all` proved:
    five in the runs before 00e5f18's, six with stwo-m31 from it on; results/raw/emulator/s2)."""
    f = HERE.parent / "raw" / "emulator" / "s2" / f"{backend}-fib-n1024.proof.{core}.tlsf.json"
    return json.loads(f.read_text()) if f.exists() else None


def targets(image, placement, r, base):
    """Issue 26's targets for a hot-sram row: XIP miss share below 15 % with at most 32 KiB
    of SRAM for code, and at least 35 % (one backend) or 30 % (five backends) faster than the
    same image's xip row. Only the records measured at the same commit as their xip row
    (`hot-sram`) are judged."""
    if placement != "hot-sram" or base is None:
        return ""
    e = r["estimate"]
    miss = 100.0 * e["xip_miss_cycles"] / e["cycles"] < 15.0 and r["sram_code_bytes"] <= 32768
    need = 35.0 if image == "one" else 30.0
    faster = 100.0 * (1 - e["cycles"] / base["estimate"]["cycles"]) >= need
    out = []
    if image == "one":
        out.append(f"miss < 15 %: {'met' if miss else 'not met'}")
    out.append(f">= {need:.0f} % faster: {'met' if faster else 'not met'}")
    return "; ".join(out)


def table(image):
    rows = ["| backend | core | placement | instructions | est. ms | XIP miss share | vs xip | "
            "vs QEMU image | load/store (contention bound) | flash code+ro B | SRAM code B | "
            "targets | commit |",
            "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|"]
    for b in BACKENDS:
        for core in ["m33", "rv32"]:
            for p in PLACEMENTS:
                # hot-sram-path: legacy symbol names, against the legacy-named xip image
                # (another function order than the v0-named one).
                base = load(image, "xip-legacy" if p == "hot-sram-path" else "xip", b, core)
                r = load(image, p, b, core)
                if r is None:
                    continue
                e = r["estimate"]
                share = 100.0 * e["xip_miss_cycles"] / e["cycles"]
                # Earlier records (another commit, another layout) are not set against xip.
                vs = "" if base is None or p in ("xip", "hot-sram-insns", "all-sram") else \
                    f"{100.0 * (e['cycles'] / base['estimate']['cycles'] - 1):+.1f} %"
                q = qemu(b, core)
                vq = "" if q is None else \
                    f"{100.0 * (e['cycles'] / q['estimate']['cycles'] - 1):+.1f} %"
                ls = r["instruction_classes"]["load_store"] if "sram" in p else None
                bound = f"{ls:,} (≤ {100.0 * ls / e['cycles']:.1f} %)" if ls else ""
                rows.append(
                    f"| {b} | {core} | {p} | {r['instructions']:,} | {e['ms']:.2f} | "
                    f"{share:.1f} % | {vs} | {vq} | {bound} | {r['flash_code_bytes']:,} | "
                    f"{r['sram_code_bytes']:,} | {targets(image, p, r, base)} | "
                    f"{r['git_commit'][:7]} |")
    return "\n".join(rows)


# The images with the embedded proof in SRAM (firmware feature `proof-in-sram`, run.sh
# PROOF_SRAM=1), each against the plain images (proof in flash) of its placement and `xip`.
PROOF_SRAM = ["xip", "hot-sram"]


def same_commit(image, placement, backend, core):
    """The plain image (proof in flash) re-measured with the proof-in-SRAM images' code
    (same-commit/, outside one/ so that the report does not read it twice)."""
    f = HERE / "same-commit" / image / placement / f"{backend}.proof.{core}.tlsf.json"
    return json.loads(f.read_text()) if f.exists() else None


def proof_sram_table(image):
    """Issue 26's targets with the proof in SRAM: XIP miss share below 15 % with at most
    32 KiB of SRAM for code, at least 35 % faster than `xip` (the plain image, proof in
    flash, as flashed today), both plain images of the same code (their commit in the row)."""
    rows = ["| backend | core | placement | instructions | est. ms | XIP miss share | "
            "SRAM code B | SRAM proof B | plain: instructions | plain: est. ms | plain: XIP miss share | "
            "vs plain | vs xip | targets | commit (plain) |",
            "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|"]
    for b in BACKENDS:
        for core in ["m33", "rv32"]:
            for p in PROOF_SRAM:
                r = load(image, f"{p}-proof-sram", b, core)
                if r is None:
                    continue
                plain = same_commit(image, p, b, core)
                xip = same_commit(image, "xip", b, core)
                e = r["estimate"]
                share = 100.0 * e["xip_miss_cycles"] / e["cycles"]
                cells = [b, core, r["placement"], f"{r['instructions']:,}", f"{e['ms']:.2f}",
                         f"{share:.1f} %", f"{r['sram_code_bytes']:,}",
                         f"{r['sram_proof_bytes']:,}"]
                if plain is None:
                    cells += ["", "", "", ""]
                else:
                    pe = plain["estimate"]
                    cells += [f"{plain['instructions']:,}", f"{pe['ms']:.2f}",
                              f"{100.0 * pe['xip_miss_cycles'] / pe['cycles']:.1f} %",
                              f"{100.0 * (e['cycles'] / pe['cycles'] - 1):+.1f} %"]
                faster = None
                if xip is None:
                    cells.append("")
                else:
                    gain = 100.0 * (1 - e["cycles"] / xip["estimate"]["cycles"])
                    faster = gain >= 35.0
                    cells.append(f"{-gain:+.1f} %")
                miss = share < 15.0 and r["sram_code_bytes"] <= 32768
                t = [f"miss < 15 %: {'met' if miss else 'not met'}"]
                if faster is not None:
                    t.append(f">= 35 % faster: {'met' if faster else 'not met'}")
                cells.append("; ".join(t))
                commits = {x["git_commit"][:7] for x in (plain, xip) if x is not None}
                cells.append(f"{r['git_commit'][:7]} ({', '.join(sorted(commits))})")
                rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows)


def qemu_vs_board():
    """The report's QEMU-image rows (`compare all`'s QEMU image, results/raw/emulator/s2) beside
    the board images' `xip` rows (one-backend and five-backend)."""
    rows = ["| backend | core | QEMU image: instructions | est. ms | board, one backend: instructions | est. ms | diff | board, five backends: instructions | est. ms | diff |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for b in BACKENDS:
        for core in ["m33", "rv32"]:
            q = qemu(b, core)
            if q is None:
                continue
            cells = [b, core, f"{q['instructions']:,}", f"{q['estimate']['ms']:.2f}"]
            for image in ["one", "all"]:
                r = load(image, "xip", b, core)
                if r is None:
                    cells += ["", "", ""]
                    continue
                d = 100.0 * (r["estimate"]["ms"] / q["estimate"]["ms"] - 1)
                cells += [f"{r['instructions']:,}", f"{r['estimate']['ms']:.2f}", f"{d:+.1f} %"]
            rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows)


if __name__ == "__main__":
    for image in sys.argv[1:] or ["one", "all"]:
        if (HERE / image).exists():
            print(f"### {image}\n\n{table(image)}\n")
            if any((HERE / image / f"{p}-proof-sram").exists() for p in PROOF_SRAM):
                print(f"### {image}, proof in SRAM\n\n{proof_sram_table(image)}\n")
    print(f"### QEMU image against board images (xip)\n\n{qemu_vs_board()}\n")

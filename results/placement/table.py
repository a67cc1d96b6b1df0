#!/usr/bin/env python3
"""Tables of results/placement/ for its README: per backend and core, each placement's
estimate from the board-image records (`mcu-run board`), the XIP-miss share of it, the change
against `xip`, and the code + read-only bytes in flash and in SRAM. Reads only the records."""
import json
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
BACKENDS = ["wf-goldilocks", "wf-babybear", "p3-babybear", "p3-goldilocks", "p3-m31"]
PLACEMENTS = ["xip", "xip-ordered", "hot-sram-insns", "hot-sram", "all-sram"]


def load(image, placement, backend, core):
    f = HERE / image / placement / f"{backend}.proof.{core}.tlsf.json"
    return json.loads(f.read_text()) if f.exists() else None


def qemu(backend, core):
    """The report's QEMU-image record (five-backend QEMU firmware, results/raw/emulator/s2)."""
    f = HERE.parent / "raw" / "emulator" / "s2" / f"{backend}-fib-n1024.proof.{core}.tlsf.json"
    return json.loads(f.read_text()) if f.exists() else None


def table(image):
    rows = ["| backend | core | placement | instructions | est. ms | XIP miss share | vs xip | "
            "vs QEMU image | load/store (contention bound) | flash code+ro B | SRAM code B |",
            "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for b in BACKENDS:
        for core in ["m33", "rv32"]:
            base = load(image, "xip", b, core)
            for p in PLACEMENTS:
                r = load(image, p, b, core)
                if r is None:
                    continue
                e = r["estimate"]
                share = 100.0 * e["xip_miss_cycles"] / e["cycles"]
                vs = "" if base is None or p == "xip" else \
                    f"{100.0 * (e['cycles'] / base['estimate']['cycles'] - 1):+.1f} %"
                q = qemu(b, core)
                vq = "" if q is None else \
                    f"{100.0 * (e['cycles'] / q['estimate']['cycles'] - 1):+.1f} %"
                ls = r["instruction_classes"]["load_store"] if "sram" in p else None
                bound = f"{ls:,} (≤ {100.0 * ls / e['cycles']:.1f} %)" if ls else ""
                rows.append(
                    f"| {b} | {core} | {p} | {r['instructions']:,} | {e['ms']:.2f} | "
                    f"{share:.1f} % | {vs} | {vq} | {bound} | {r['flash_code_bytes']:,} | "
                    f"{r['sram_code_bytes']:,} |")
    return "\n".join(rows)


def qemu_vs_board():
    """The report's QEMU-image rows (five-backend QEMU image, results/raw/emulator/s2) beside
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
    print(f"### QEMU image against board images (xip)\n\n{qemu_vs_board()}\n")

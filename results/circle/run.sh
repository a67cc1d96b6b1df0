#!/usr/bin/env bash
# Issue 44: the circle question on equal terms. p3-m31 (our WideCirclePcs) against the two-adic
# Plonky3 backends with the SAME FRI parameters, hash and code placement, on both cores:
#
#   blake3/  BLAKE3, blowup 2^6, 14 queries, fold 2^4, final 2^2, 20 PoW bits (the two-adic
#            defaults; 102 bits strictest at n = 2^10 for QM31 and BabyBear^4)
#   engine/  SHA-256 engine, blowup 2^12, 7 queries, fold 2^4, final 2^6, 20 PoW bits (the
#            two-adic engine parameters, config::ENGINE_PARAMS_TWO_ADIC; 98 bits strictest)
#
# Placement: all code in SRAM (`code-in-ram,lean-only`: no XIP miss term, so the rows compare
# verifiers, not link layouts), a one-backend QEMU image per backend and core, TLSF heap of
# 64 KiB (the p3-m31 Hazard3 image with all code in SRAM overflows the QEMU board's RAM by
# 3,856 B with 128 KiB; every verification here peaks below 6 KiB). Records (QEMU 7.2 instruction counts, RP2350 timing model estimates, the tampered
# copy rejected) and first-iteration profiles by function go to results/circle/{blake3,engine}.
#
#   bash results/circle/run.sh [BACKENDS] [CORES]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
BACKENDS=${1:-"p3-m31 p3-babybear p3-goldilocks"}
CORES=${2:-"m33 rv32"}
WORK=$ROOT/out/circle
OUT=$ROOT/results/circle
mkdir -p "$WORK" "$OUT/blake3" "$OUT/engine"
cargo build -q --release -p prover-host -p mcu-run
PH=target/release/prover-host
MCU=target/release/mcu-run
for b in $BACKENDS; do
  [ -f "$WORK/$b-blake3.proof" ] || "$PH" --backend "$b" --air fib --n 1024 --log-blowup 6 \
    --queries 14 --pow-bits 20 --log-fold-arity 4 --log-final-poly-len 2 --out "$WORK/$b-blake3.proof" >/dev/null
  [ -f "$WORK/$b-engine.proof" ] || "$PH" --backend "$b" --air fib --n 1024 --hash sha256 --log-blowup 12 \
    --queries 7 --pow-bits 20 --log-fold-arity 4 --log-final-poly-len 6 --out "$WORK/$b-engine.proof" >/dev/null
  for core in $CORES; do
    feat=$b,code-in-ram,lean-only
    "$MCU" run --core "$core" --features "$feat" --heap 65536 --profile --out "$OUT/blake3" "$WORK/$b-blake3.proof"
    "$MCU" run --core "$core" --features "$feat" --heap 65536 --profile --sha256-engine --out "$OUT/engine" "$WORK/$b-engine.proof"
  done
done
# Profiles name the ELF they read: relative to the checkout, no machine path.
sed -i "s|$ROOT/||g" "$OUT"/*/*.txt

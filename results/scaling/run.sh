#!/usr/bin/env bash
# The scaling measurement (a documented command, not part of CI): Fibonacci at
# n = 2^10 ... 2^18 and the wide AIR (chain16) at 2^10 and 2^14 on every backend, proved on
# the host (each point in a child process: prove time and peak RSS), then verified under
# QEMU on both cores with one firmware build per core (all five backends, proof slot) and a
# 384 KiB heap (PSTK_HEAP_SIZE=393216, the most the RP2350 build allows next to the stack),
# and again with a 128 KiB heap to show where configurations stop (out of memory).
# Writes the records and the reports in this folder. Needs `bash .ci/install` (QEMU).
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=results/scaling
PROOFS=${PROOFS:-out/scaling/proofs}
mkdir -p "$PROOFS" "$OUT/emulator" "$OUT/heap128k"
cargo build --release -p prover-host -p mcu-run -p compare
PH=target/release/prover-host
MCU=target/release/mcu-run

time "$PH" bench --backend all --air fib --log-n 10,11,12,13,14,15,16,17,18 --repeat 3 \
  --out "$OUT/host-fib.json" --proofs "$PROOFS"
time "$PH" bench --backend all --air chain16 --log-n 10,14 --repeat 3 \
  --out "$OUT/host-chain16.json" --proofs "$PROOFS"

# mcu-run exits 1 when a proof does not fit the heap (it still writes that proof's
# `rejected:out-of-memory` record): every proof must have a record on every core.
for core in m33 rv32; do
  time "$MCU" run --core "$core" --heap 393216 --out "$OUT/emulator" "$PROOFS"/*.proof || true
  time "$MCU" run --core "$core" --heap 131072 --out "$OUT/heap128k" "$PROOFS"/*-fib-*.proof || true
done
proofs=$(ls "$PROOFS"/*.proof | wc -l)
fib=$(ls "$PROOFS"/*-fib-*.proof | wc -l)
test "$(ls "$OUT"/emulator/*.json | wc -l)" -eq $((2 * proofs))
test "$(ls "$OUT"/heap128k/*.json | wc -l)" -eq $((2 * fib))

target/release/compare report --in "$OUT/host-fib.json" "$OUT/host-chain16.json" "$OUT/emulator" --out "$OUT"
target/release/compare report --in "$OUT/heap128k" --out "$OUT/heap128k-report"

#!/usr/bin/env bash
# Issue 45: the three circle STARKs side by side on both cores. p3-m31 over our WideCirclePcs,
# p3-m31 over upstream Plonky3's CirclePcs, and stwo-m31 (on our lean verifier and on stwo
# 2.3's own, the stwo-stock image), Fibonacci n = 2^10, at the same blowup, query count and
# proof-of-work bits, in two groups:
#
#   stwo's defaults   blowup 2^3, 28 queries, 16 PoW bits, fold 2^1, final 2^0
#   p3-m31's defaults blowup 2^4, 20 queries, 20 PoW bits, fold 2^2, final 2^2
#
# Where a PCS cannot take a group's folding it takes the nearest it can, and the report says
# so: upstream's CirclePcs is fold 2^1 / final 2^0 only (a p3-m31 header with that pair means
# CirclePcs), so in the second group it folds by 2 to a constant; WideCirclePcs is every
# other pair, so in the first group it folds by 2 to a final polynomial of 2 coefficients.
# Hashes are named: BLAKE3 for p3-m31; stwo twice, with its own Blake2s channel and with our
# BLAKE3 channel (backends/stwo/src/channel.rs), the hash then equal with p3-m31's.
#
# Placement: code in flash (xip, the QEMU board's layout), one firmware image per backend and
# core, TLSF heap 256 KiB (mcu-run's default), release LTO; `--repeat 2` (counts must agree)
# and each proof's tampered copy rejected (mcu-run's own check). Needs the stwo prover
# (`cargo build --release` in backends/stwo/prover, pinned nightly).
#
#   [PH=path/to/prover-host] bash results/circle/side-by-side/run.sh [CORES]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$ROOT"
CORES=${1:-"m33 rv32"}
WORK=$ROOT/out/circle-side
OUT=$ROOT/results/circle/side-by-side
mkdir -p "$WORK"
# PH: another build of this commit's prover-host (e.g. CI's debug one) instead of building it.
[ -n "${PH:-}" ] || cargo build -q --release -p prover-host
cargo build -q --release -p mcu-run
PH=${PH:-target/release/prover-host}
MCU=target/release/mcu-run
prove() { # name backend params...
  local name=$1 backend=$2; shift 2
  [ -f "$WORK/$name.proof" ] || "$PH" --backend "$backend" --air fib --n 1024 "$@" \
    --out "$WORK/$name.proof" >/dev/null
}
A="--log-blowup 3 --queries 28 --pow-bits 16"
B="--log-blowup 4 --queries 20 --pow-bits 20"
# shellcheck disable=SC2086
{
  prove a-stwo stwo-m31 $A --log-fold-arity 1 --log-final-poly-len 0
  prove a-circlepcs p3-m31 $A --log-fold-arity 1 --log-final-poly-len 0
  prove a-widecirclepcs p3-m31 $A --log-fold-arity 1 --log-final-poly-len 1
  prove a-stwo-blake3 stwo-m31 $A --log-fold-arity 1 --log-final-poly-len 0 --hash blake3
  prove b-stwo stwo-m31 $B --log-fold-arity 2 --log-final-poly-len 2
  prove b-stwo-blake3 stwo-m31 $B --log-fold-arity 2 --log-final-poly-len 2 --hash blake3
  prove b-circlepcs p3-m31 $B --log-fold-arity 1 --log-final-poly-len 0
  prove b-widecirclepcs p3-m31 $B --log-fold-arity 2 --log-final-poly-len 2
}
for core in $CORES; do
  "$MCU" run --core "$core" --features p3-m31 --repeat 2 --out "$OUT" "$WORK"/?-*circlepcs.proof
  # stwo-m31 on our lean verifier (lean/), and on stwo's own (the stwo-stock image).
  "$MCU" run --core "$core" --features stwo-m31 --repeat 2 --out "$OUT/lean" "$WORK"/?-stwo*.proof
  "$MCU" run --core "$core" --features stwo-m31,stwo-stock --image stwo-stock --repeat 2 \
    --out "$OUT" "$WORK"/?-stwo*.proof
done

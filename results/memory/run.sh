#!/usr/bin/env bash
# Peak RSS of the provers (issue 29's memory estimate): the records prover-host's estimate is
# fitted on and checked against. Linux VmHWM of each prove in its own process (release build,
# this host). About 4 minutes on 2 cores; p3-m31 at 2^18 peaks near 8 GB.
#   bash results/memory/run.sh && python3 results/memory/fit.py
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release -q -p prover-host
PH=target/release/prover-host
OUT=results/memory
# Trace length: Fibonacci (2 columns) 2^10..2^18, chain16 (16 columns) 2^10..2^16 (2^18 is
# below 95 bits with the defaults), default blowup and extension.
"$PH" bench --air fib --log-n 10,12,14,16,18 --repeat 1 --out "$OUT/host-fib.json"
"$PH" bench --air chain16 --log-n 10,12,14,16 --repeat 1 --out "$OUT/host-chain16.json"
# Extension degree and blowup, one record each (security does not matter here).
mkdir -p "$OUT/points"
point() { # name, then prover-host arguments
  local name=$1; shift
  "$PH" "$@" --min-security 0 --out "/tmp/pstk-memory-$name.proof" --record "$OUT/points/$name.json" >/dev/null
}
for spec in p3-babybear:8 p3-goldilocks:5 p3-m31:6 wf-goldilocks:3 wf-babybear:5; do
  b=${spec%%:*}; e=${spec##*:}
  point "$b-fib-ext$e-n14" --backend "$b" --air fib --n 16384 --ext "$e"
  point "$b-chain16-ext$e-n14" --backend "$b" --air chain16 --n 16384 --ext "$e"
  point "$b-fib-blowup3-n16" --backend "$b" --air fib --n 65536 --log-blowup 3 --queries 32
  point "$b-chain16-blowup3-n16" --backend "$b" --air chain16 --n 65536 --log-blowup 3 --queries 32
done

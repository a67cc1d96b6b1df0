#!/usr/bin/env bash
# Constant-time verdicts (issue 46): the honest Fib-1024 proof of each backend and one
# tampered copy per class (`prover-host tamper`), verified in the firmware under QEMU on both
# cores and each allocator; records per (core, allocator) in records/<core>-<alloc>/, then
# table.py writes table.md from them.
#
#   bash results/constant-time/run.sh                 # every backend
#   BACKENDS="p3-babybear wf-goldilocks" bash results/constant-time/run.sh
#   ALLOCS="tlsf" CORES="m33" bash results/constant-time/run.sh
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
OUT=results/constant-time
BACKENDS=${BACKENDS:-"p3-babybear p3-goldilocks p3-m31 wf-goldilocks wf-babybear"}
CORES=${CORES:-"m33 rv32"}
ALLOCS=${ALLOCS:-"tlsf llff bump"}
cargo build --release -p prover-host -p mcu-run
PH=target/release/prover-host
MR=target/release/mcu-run
mkdir -p "$OUT/proofs"
honest=()
tampered=()
for b in $BACKENDS; do
  proof="$OUT/proofs/$b-fib-n1024.proof"
  "$PH" --backend "$b" --air fib --n 1024 --out "$proof"
  # Each copy is checked on the host to be rejected with the check it names (exit 1 if not).
  "$PH" tamper "$proof" --out "$OUT/proofs" | tee "$OUT/proofs/$b.tamper.txt"
  honest+=("$proof")
  for c in public-input ood trace-opening merkle-sibling fri-fold final-poly pow-nonce; do
    tampered+=("$OUT/proofs/$b-fib-n1024.$c.proof")
  done
done
features=$(echo $BACKENDS | tr ' ' ',')
for core in $CORES; do
  for alloc in $ALLOCS; do
    dir="$OUT/records/$core-$alloc"
    mkdir -p "$dir"
    # Two runs each: the counts must be identical run to run (mcu-run fails otherwise).
    "$MR" run --core "$core" --alloc "$alloc" --features "$features" --iterations 1 \
      --repeat 2 --out "$dir" "${honest[@]}"
    "$MR" run --core "$core" --alloc "$alloc" --features "$features" --iterations 1 \
      --repeat 2 --expect rejected --out "$dir" "${tampered[@]}"
  done
done
python3 "$OUT/table.py" > "$OUT/table.md"
cat "$OUT/table.md"

#!/usr/bin/env bash
# Issue 47's firmware A/B: the same proof files (proofs/, Fibonacci n = 2^10 and 2^16, every
# two-adic and circle backend at its defaults) verified by the firmware as built at each
# commit given, both cores under QEMU: the five-backend image of the main job (TLSF heap
# 384 KiB, code in flash), release LTO, --repeat 2 (counts must agree), each proof's
# tampered copy rejected. Records go to results/framework/<commit>/; table.py compares them.
#
#   bash results/framework/run.sh ce09d4a 59fa935 6c3477c
#
# Each commit is checked out in a worktree under out/framework/ (its mcu-run built there, so
# it builds that commit's firmware); the worktrees share one firmware target dir.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
WORK=$ROOT/out/framework
PROOFS=$ROOT/results/framework/proofs
SHARED=$WORK/fwtarget
mkdir -p "$SHARED"
ALL5=p3-babybear,p3-goldilocks,p3-m31,wf-goldilocks,wf-babybear
for c in "$@"; do
  wt=$WORK/wt-$c
  [ -d "$wt" ] || git worktree add -q --detach "$wt" "$c"
  mkdir -p "$wt/verifier-mcu/firmware"
  [ -L "$wt/verifier-mcu/firmware/target" ] || ln -s "$SHARED" "$wt/verifier-mcu/firmware/target"
  # The worktree's own runner (it finds the firmware of its checkout), in a target of its own.
  (cd "$wt" && cargo build --release -q -p mcu-run --target-dir "$WORK/runner-$c")
  for core in m33 rv32; do
    (cd "$wt" && "$WORK/runner-$c/release/mcu-run" run --core "$core" --features "$ALL5" \
      --heap 393216 --repeat 2 --out "$ROOT/results/framework/$c" "$PROOFS"/*.proof)
  done
done

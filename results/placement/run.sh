#!/usr/bin/env bash
# Issue 26: estimates from our own rp2350 board images, per code placement.
#
#   results/placement/run.sh [BACKENDS] [CORES] [PLACEMENTS] [IMAGE]
#
# BACKENDS (default: all five), CORES (default "m33 rv32"), PLACEMENTS (default
# "xip xip-ordered hot-sram"; all-sram is the `code-in-ram` feature and needs lean-only on
# the Plonky3 backends), IMAGE "one" (default: one backend per image, as a user would flash
# it) or "all" (the five-backend image). Per (backend, core, placement): the Fib-1024 default
# (BLAKE3) proof from `prover-host`, the rp2350 firmware with that proof embedded and the
# placement's feature (verifier-mcu/firmware, release: opt-level s, fat LTO, TLSF, 256 KiB
# heap unless HEAP says otherwise), `mcu-run check-image`, then `mcu-run board` (emulator
# instruction counts + timing model v7: the median-cycles window of PSTK_ITERATIONS=3) with
# the record written to results/placement/<image>/<placement>/, and the same image with one
# embedded-proof byte flipped, which must be rejected.
#
# PROOF_SRAM=1: the images also get the firmware feature `proof-in-sram` (the embedded proof
# in SRAM, copied from flash at reset, as a device that received it would hold it); records
# go to results/placement/<image>/<placement>-proof-sram/ and name the placement
# `<placement>+proof-sram` (`mcu-run board` reads it from the image). Each record gets its
# run's profile beside it (`*.profile.txt`), the xip images' in results/placement/profiles/.
# RECORDS=DIR: records (and the xip images' profiles) under DIR instead of results/placement.
# WORK=DIR (proofs and images, default out/placement) and CARGO_TARGET_DIR let two runs
# proceed side by side. PROVE_ARGS="..." adds prover-host options (FRI parameters) to the
# proofs' command, for rows at other parameters than the defaults (with their own WORK and
# RECORDS: the proofs and records are named by backend only).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
MCU=$ROOT/target/release/mcu-run
PH=$ROOT/target/release/prover-host
FW=$ROOT/verifier-mcu/firmware
BACKENDS=${1:-"wf-goldilocks wf-babybear p3-babybear p3-goldilocks p3-m31"}
CORES=${2:-"m33 rv32"}
PLACEMENTS=${3:-"xip xip-ordered hot-sram"}
IMAGE=${4:-one}
PROOF_FEAT=; PROOF_DIR=
if [ -n "${PROOF_SRAM:-}" ]; then PROOF_FEAT=,proof-in-sram; PROOF_DIR=-proof-sram; fi
WORK=${WORK:-$ROOT/out/placement}
RECORDS=${RECORDS:-$ROOT/results/placement}
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)  # the firmware builds in its own folder
ALL=p3-babybear,p3-goldilocks,p3-m31,wf-goldilocks,wf-babybear
for b in $BACKENDS; do
  proof=$WORK/$b.proof
  # shellcheck disable=SC2086 # PROVE_ARGS is a list of options
  [ -f "$proof" ] || "$PH" --backend "$b" --air fib --n 1024 ${PROVE_ARGS:-} --out "$proof" >/dev/null
  for core in $CORES; do
    case $core in
      m33) target=thumbv8m.main-none-eabihf; family=rp2350-arm ;;
      rv32) target=riscv32imac-unknown-none-elf; family=rp2350-riscv ;;
    esac
    for p in $PLACEMENTS; do
      case $p in
        xip) feat= ;;
        xip-ordered) feat=,place-xip-ordered ;;
        hot-sram) feat=,place-hot-sram ;;
        all-sram) feat=,code-in-ram; case $b in p3-*) feat=$feat,lean-only ;; esac ;;
        *) echo "unknown placement $p" >&2; exit 1 ;;
      esac
      backends=$b; [ "$IMAGE" = all ] && backends=$ALL
      (cd "$FW" && env PSTK_PROOF="$proof" ${HEAP:+PSTK_HEAP_SIZE=$HEAP} \
        cargo build --release --target $target --features "rp2350,$backends$feat$PROOF_FEAT" 2>&1 | tail -1)
      elf=$WORK/$IMAGE-$b-$p$PROOF_DIR.$core.elf
      cp "${CARGO_TARGET_DIR:-$FW/target}/$target/release/picostark-verifier-fw" "$elf"
      "$MCU" uf2 "$elf" "$elf.uf2" --family $family >/dev/null
      "$MCU" check-image "$elf" "$elf.uf2" --family $family | tail -1
      # Every other run's whole-run profile beside its record: the report's circle answer
      # reads the shares of hashing and field arithmetic from it.
      prof=(--profile "$RECORDS/$IMAGE/$p$PROOF_DIR/$b.proof.$core.tlsf.profile.txt")
      mkdir -p "$RECORDS/$IMAGE/$p$PROOF_DIR"
      if [ "$p" = xip ] && [ -z "$PROOF_DIR" ]; then
        # The hot sets' input (verifier-mcu/firmware/link/hot-set-*.txt, README.md here).
        mkdir -p "$RECORDS/profiles/$IMAGE"
        prof=(--profile "$RECORDS/profiles/$IMAGE/$b.$core.profile.txt")
        cp "$elf" "$WORK/xip-$IMAGE-$b.$core.elf"
      fi
      "$MCU" board --core $core --proof "$proof" --image "$IMAGE-backend" \
        --out "$RECORDS/$IMAGE/$p$PROOF_DIR" "${prof[@]}" "$elf"
      # The profiles name the ELF they read: relative to the checkout, no machine path.
      [ ${#prof[@]} -eq 0 ] || sed -i "s|$ROOT/||g" "${prof[1]}" "${prof[1]%.txt}.misses.txt"
      "$MCU" board --core $core --proof "$proof" --flip-proof --windows 0 "$elf"
    done
  done
done

#!/usr/bin/env bash
# Emulated firmware check for CI (called by .ci/run). Needs qemu-system-arm and
# qemu-system-misc (QEMU 7.2) and the rust toolchain from rust-toolchain.toml.
#
# 1. unit tests of the runner and the plugin (instruction classifiers, UF2 block format, ELF);
#    then, while the prover builds, the QEMU images of step 3 for both cores (no proof needed);
# 2. Fib-1024 proofs for every backend prover-host can make, plus a hostile set of each
#    (flipped byte, truncated, low-security header, wrong backend, zeroed payload, and a
#    sampled header sweep: `mcu-run tamper --kind header-sweep`); the same with SHA-256
#    (flipped, truncated, zeroed payload), also run once with `--sha256-engine`; a
#    BabyBear^5 p3-babybear proof and a flipped copy (the RV32 miscompilation of issue 15);
# 3. per core (m33, rv32): one firmware build with every backend, every proof verified under
#    QEMU twice (counts must be identical), every hostile file rejected; rv32 is built for
#    the RP2350's Hazard3 (Zba/Zbb/Zbs/Zbkb, firmware/.cargo/config.toml); a wf-goldilocks
#    image with code in SRAM (`code-in-ram`, the hardware-hash configuration of issue 17,
#    heap 128 KiB as its board image needs): one proof verified, one tampered copy rejected;
# 4. per core, stock upstream `winterfell::verify` in the published silicon runs' window and
#    build (`mcu-run run --window stock-wf`: target-cpu=cortex-m33, plain RV32IMAC) on the
#    zkmcu reference proof and on our Goldilocks proof: both must be accepted (a guard against
#    the RV32 miscompilation described in results/baseline/NOTES.md), with a cycle estimate;
#    on Hazard3 this is the plain RV32IMAC build and QEMU CPU (`--isa rv32imac`, Zb* off, so a
#    stray Zb* instruction would trap). Our verifiers on plain RV32IMAC, every backend, are a
#    documented measurement (`mcu-run run --core rv32 --isa rv32imac`, results/baseline/
#    hazard3/), not rebuilt here: that image recompiled every crate for its own flags (about
#    3 CPU-minutes) for a core the RP2350 does not have;
# 5. the rp2350 firmware for both cores built with an embedded proof (every backend with its
#    hot code in SRAM, wf-goldilocks alone and with its hot code in SRAM,
#    wf-goldilocks and lean-only p3-babybear with code in SRAM, and the published window's
#    stock-wf-window build), its UF2 files, each image checked by `mcu-run check-image`; the
#    wf-goldilocks images (xip and hot-sram) and the five-backend hot-sram image run as
#    flashed by `mcu-run board`: accepted, a flipped copy rejected.
# Steps 3 to 5 run for the two cores at the same time, each core's log printed after both end.
#
# Records go to $OUT (default out/mcu), UF2 files to $OUT/uf2.
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/packages.sh
OUT=${OUT:-out/mcu}
PROOFS=${PROOFS:-out/mcu/proofs}
mkdir -p "$OUT" "$PROOFS" "$OUT/uf2"
# Each step names the time it started, so a slow CI run shows where its minutes went.
say() { echo "== [$(date +%T)] $*"; }

say "verifier-mcu: unit tests"
# Under .ci/test (HOST_BIN_DIR set) the workspace tests run the runner's unit tests.
[ -n "${HOST_BIN_DIR:-}" ] || cargo test --release -p mcu-run
(cd verifier-mcu/icount-plugin && cargo test --release)
cargo build --release -p mcu-run
MCU=target/release/mcu-run
# The QEMU plugin is built here, once, so both core pipelines only read it.
(cd verifier-mcu/icount-plugin && cargo build --release --quiet)

# The QEMU images of step 3 need no proof: they are built now, both cores side by side
# (`mcu-run run --build-only`, the flags of the runs below, so those find them up to date),
# while the prover is built. Each core's image set in a target dir of its own (see core_checks).
ALL5=p3-babybear,p3-goldilocks,p3-m31,wf-goldilocks,wf-babybear
# stwo-m31's image: heap 384 KiB, which its membership proof needs (heap peak 237,898 B,
# backends/stwo/README.md); the RP2350's SRAM holds it.
STWO_HEAP=393216
prebuild() {
  local core=$1
  say "prebuild $core: all backends"
  "$MCU" run --build-only --core "$core" --features "$ALL5,user-air"
  "$MCU" run --build-only --core "$core" --features wf-goldilocks,code-in-ram --heap 131072
  "$MCU" run --build-only --core "$core" --window stock-wf --iterations 1
  "$MCU" run --build-only --core "$core" --features stwo-m31 --heap $STWO_HEAP
  say "prebuild $core: done"
}
prebuild m33 >"$OUT/prebuild-m33.log" 2>&1 &
prebuild_m33=$!
prebuild rv32 >"$OUT/prebuild-rv32.log" 2>&1 &
prebuild_rv32=$!

say "verifier-mcu: proofs"
# .ci/test hands over the prover its workspace test build made (debug profile, dependencies
# at opt-level 3): it writes $HOST_BIN_DIR/ready when prover-host is there. Alone, this
# script builds it.
if [ -n "${HOST_BIN_DIR:-}" ]; then
  until [ -e "$HOST_BIN_DIR/ready" ]; do sleep 5; done
  PH=$HOST_BIN_DIR/prover-host
else
  cargo build --release -p prover-host
  PH=target/release/prover-host
fi
BACKENDS=()
for b in ${ALL5//,/ }; do
  if "$PH" list | grep -E "^  $b " | grep -q "not in this build"; then
    echo "skipping $b: prover-host cannot prove it in this build"
    continue
  fi
  BACKENDS+=("$b")
  "$PH" --backend "$b" --air fib --n 1024 --out "$PROOFS/$b-fib-1024.proof"
  # The hostile set: one of each kind per protocol, every one must be rejected.
  # overlong / trailing (issue 29): the first length field one byte longer, a byte after the
  # payload; one encoding per proof, so both must be rejected.
  for kind in flip truncate low-security wrong-backend zero-payload overlong trailing; do
    "$MCU" tamper --kind "$kind" "$PROOFS/$b-fib-1024.proof" "$PROOFS/$b-fib-1024.$kind.tampered"
  done
  # The sampled header sweep (issue 12): header values inside the envelope's ranges that the
  # backend must refuse without halting (PoW bits past one challenger draw, LDE domains past
  # 2^31, ...); prover-host/tests/mutation.rs sweeps every value on the host.
  "$MCU" tamper --kind header-sweep "$PROOFS/$b-fib-1024.proof" "$PROOFS/$b-fib-1024"
  # SHA-256 (issue 17): the same statement hashed with SHA-256, verified with the rest, and
  # its payload-level hostile set (the header kinds do not depend on the hash).
  "$PH" --backend "$b" --air fib --n 1024 --hash sha256 --out "$PROOFS/$b-fib-1024-sha256.proof"
  for kind in flip truncate zero-payload; do
    "$MCU" tamper --kind "$kind" "$PROOFS/$b-fib-1024-sha256.proof" "$PROOFS/$b-fib-1024-sha256.$kind.tampered"
  done
done
# BabyBear^5 (issue 15): RV32 builds once rejected every valid one (an LLVM miscompilation of
# the x^5 - 2 extension's constant, worked around in firmware/.cargo/config.toml); its proof
# and a flipped copy run with the rest on both cores and on plain RV32IMAC.
if [[ " ${BACKENDS[*]} " == *" p3-babybear "* ]]; then
  "$PH" --backend p3-babybear --ext 5 --air fib --n 1024 --out "$PROOFS/p3-babybear-x5-fib-1024.proof"
  "$MCU" tamper --kind flip "$PROOFS/p3-babybear-x5-fib-1024.proof" "$PROOFS/p3-babybear-x5-fib-1024.flip.tampered"
fi
# wf-babybear over our own BabyBear^5 (backends/winterfell/src/field/quintic.rs, issue 15's
# proven track), the same way.
if [[ " ${BACKENDS[*]} " == *" wf-babybear "* ]]; then
  "$PH" --backend wf-babybear --ext 5 --air fib --n 1024 --out "$PROOFS/wf-babybear-x5-fib-1024.proof"
  "$MCU" tamper --kind flip "$PROOFS/wf-babybear-x5-fib-1024.proof" "$PROOFS/wf-babybear-x5-fib-1024.flip.tampered"
fi
# p3-m31 over our own Mersenne-31 sextic (issue 15's proven track, backends/plonky3/src/
# m31_sextic.rs): the proven100 preset's proof and a flipped copy, on both cores (about 2 s
# to prove on the host, under 1 s of QEMU per core).
if [[ " ${BACKENDS[*]} " == *" p3-m31 "* ]]; then
  "$PH" --backend p3-m31 --preset proven100 --out "$PROOFS/p3-m31-x6-fib-1024.proof"
  "$MCU" tamper --kind flip "$PROOFS/p3-m31-x6-fib-1024.proof" "$PROOFS/p3-m31-x6-fib-1024.flip.tampered"
fi
# Completeness sample (issue 29): small traces with parameters off the defaults, from the
# grid of prover-host/tests/completeness.rs (which proves and verifies ~1,800 on the host),
# each at >= 95 bits so the firmware's policy takes it; p3-m31 n = 8 with 16 queries over
# upstream's CirclePcs is the shape the lean circle verifier used to reject. Verified on both
# cores with the rest.
CIRCLE="--log-blowup 6 --log-fold-arity 1 --log-final-poly-len 0"
GRID=(
  "p3-m31 --air fib --n 8 --queries 16 $CIRCLE"
  "p3-m31 --air fib --n 8 --ext 6 --queries 20 $CIRCLE"
  "p3-babybear --air fib --n 8 --log-blowup 3 --queries 32 --log-fold-arity 1 --log-final-poly-len 0"
  "p3-goldilocks --air fib --n 16 --log-blowup 3 --queries 32 --log-fold-arity 2 --log-final-poly-len 1"
  "wf-goldilocks --air fib --n 8 --log-blowup 3 --queries 32 --log-fold-arity 2 --log-final-poly-len 1"
  "wf-babybear --air fib --n 16 --log-blowup 4 --queries 24 --log-fold-arity 1 --log-final-poly-len 2"
  # Issue 25: WideCirclePcs folding by 16 to a final polynomial of 8 (the p3-m31 defaults
  # fold by 4 to 4), and upstream's CirclePcs at the pre-issue-25 defaults.
  "p3-m31 --air fib --n 1024 --log-fold-arity 4 --log-final-poly-len 3"
  "p3-m31 --air fib --n 1024 --queries 14 $CIRCLE"
  # Issue 28's Poseidon2 Merkle-membership AIR (depth 10, n = 16), every backend.
  "p3-babybear --air membership --n 16"
  "p3-goldilocks --air membership --n 16"
  "p3-m31 --air membership --n 16"
  "wf-goldilocks --air membership --n 16"
  "wf-babybear --air membership --n 16"
)
for spec in "${GRID[@]}"; do
  read -r b args <<<"$spec"
  [[ " ${BACKENDS[*]} " == *" $b "* ]] || continue
  name="grid-$b$(tr -d ' -' <<<"$args")"
  # shellcheck disable=SC2086
  "$PH" --backend "$b" $args --out "$PROOFS/$name.proof"
  "$MCU" tamper --kind flip "$PROOFS/$name.proof" "$PROOFS/$name.flip.tampered"
done
# stwo-m31 (issue 45): Fib-1024 and its hostile set, chain16 and membership, in a folder of
# their own, verified by an image of their own (stwo's verifier is not in the all-backend
# images), when prover-host can prove it (the nightly prover, built by .ci/test, is there).
STWO=0
if "$PH" list | grep -E "^  stwo-m31 " | grep -q "extension degrees" \
    && [ -x backends/stwo/prover/target/release/picostark-stwo-prover ]; then
  STWO=1
  mkdir -p "$PROOFS/stwo"
  "$PH" --backend stwo-m31 --air fib --n 1024 --out "$PROOFS/stwo/stwo-m31-fib-1024.proof"
  for kind in flip truncate low-security wrong-backend zero-payload overlong trailing; do
    "$MCU" tamper --kind "$kind" "$PROOFS/stwo/stwo-m31-fib-1024.proof" \
      "$PROOFS/stwo/stwo-m31-fib-1024.$kind.tampered"
  done
  "$MCU" tamper --kind header-sweep "$PROOFS/stwo/stwo-m31-fib-1024.proof" \
    "$PROOFS/stwo/stwo-m31-fib-1024"
  # Our BLAKE3 and SHA-256 channels for stwo (backends/stwo/src/channel.rs), a flipped copy
  # of each.
  for h in blake3 sha256; do
    "$PH" --backend stwo-m31 --air fib --n 1024 --hash "$h" \
      --out "$PROOFS/stwo/stwo-m31-fib-1024-$h.proof"
    "$MCU" tamper --kind flip "$PROOFS/stwo/stwo-m31-fib-1024-$h.proof" \
      "$PROOFS/stwo/stwo-m31-fib-1024-$h.flip.tampered"
  done
  # chain16 and membership, above stwo's degree bound, proved degree-reduced
  # (picostark_air::reduce: 48 and 977 columns), and a flipped copy of each.
  for spec in chain16:64 membership:16; do
    IFS=: read -r air n <<<"$spec"
    proof=$PROOFS/stwo/stwo-m31-$air-$n
    "$PH" --backend stwo-m31 --air "$air" --n "$n" --out "$proof.proof"
    "$MCU" tamper --kind flip "$proof.proof" "$proof.flip.tampered"
  done
else
  echo "skipping stwo-m31: its nightly prover is not built (backends/stwo/prover)"
fi
# The host's verdict on every hostile file, beside the firmware's below: all rejected.
for t in "$PROOFS"/*.tampered "$PROOFS"/stwo/*.tampered; do
  [ -e "$t" ] || continue
  if "$PH" verify "$t" >/dev/null 2>&1; then
    echo "FAIL: the host accepted $t"; exit 1
  fi
done
say "ok: the host rejects all $(ls "$PROOFS"/*.tampered | wc -l) hostile files"
# The images also take the example's AIR (examples/vdf, feature user-air): the same images
# verify its proofs in the last step, and every built-in proof with a user's AIR linked in.
FEATURES=$(IFS=,; echo "${BACKENDS[*]}"),user-air
RAM_CODE_HEAP=131072
has() { [[ " ${BACKENDS[*]} " == *" $1 "* ]]; }

# Steps 3 to 5 for one core. The two cores run at the same time (each firmware build is one
# single-threaded LTO link and each QEMU run one thread, so one core's pipeline leaves the
# other CPU idle); each core builds in a firmware target dir of its own (cargo locks a target
# dir for a whole build): M33 in target/, Hazard3 in target/rv32, every variant of the core
# (flags, board) in it, as `mcu-run` builds them (runner/src/qemu.rs).
core_checks() {
  local core=$1 target family fwdir
  case $core in
    m33) target=thumbv8m.main-none-eabihf; family=rp2350-arm; fwdir=target ;;
    rv32) target=riscv32imac-unknown-none-elf; family=rp2350-riscv; fwdir=target/rv32 ;;
  esac
  say "verifier-mcu: QEMU $core"
  "$MCU" run --core "$core" --features "$FEATURES" --repeat 2 --out "$OUT" "$PROOFS"/*.proof
  "$MCU" run --core "$core" --features "$FEATURES" --expect rejected --out "$OUT/tampered" "$PROOFS"/*.tampered
  if [ "$STWO" = 1 ]; then
    "$MCU" run --core "$core" --features stwo-m31 --heap $STWO_HEAP --repeat 2 --out "$OUT/stwo" \
      "$PROOFS"/stwo/*.proof
    "$MCU" run --core "$core" --features stwo-m31 --heap $STWO_HEAP --expect rejected \
      --out "$OUT/stwo/tampered" "$PROOFS"/stwo/*.tampered
  fi
  # The timing model's engine charge must find its marker (one call per SHA-256 block).
  "$MCU" run --core "$core" --features "$FEATURES" --sha256-engine --out "$OUT/sha256-engine" "$PROOFS"/*-sha256.proof
  # Code in SRAM (issue 17, feature code-in-ram): a one-backend image (the five-backend one
  # has about 1 MB of code, more than the SRAM), one genuine proof with the engine charge and
  # one tampered copy. Heap 128 KiB: with 256 KiB the Hazard3 board image of wf-goldilocks
  # and its embedded proof do not fit the SRAM (its heap peak is under 4 KB).
  if has wf-goldilocks; then
    say "verifier-mcu: QEMU $core, code in SRAM"
    "$MCU" run --core "$core" --features wf-goldilocks,code-in-ram --heap $RAM_CODE_HEAP \
      --sha256-engine --out "$OUT/code-in-ram" "$PROOFS/wf-goldilocks-fib-1024-sha256.proof"
    "$MCU" run --core "$core" --features wf-goldilocks,code-in-ram --heap $RAM_CODE_HEAP \
      --expect rejected --out "$OUT/code-in-ram/tampered" \
      "$PROOFS/wf-goldilocks-fib-1024-sha256.flip.tampered"
  fi
  if has wf-goldilocks; then
    say "verifier-mcu: stock winterfell::verify on $core"
    "$MCU" run --core "$core" --window stock-wf --iterations 1 --out "$OUT/stock" \
      "$PROOFS/stock/wf-goldilocks-ref-zkmcu.proof" "$PROOFS/wf-goldilocks-fib-1024.proof"
  fi

  say "verifier-mcu: rp2350 $family firmware and UF2"
  if [ "$core" = m33 ]; then
    # The build must refuse a proof whose backend is not enabled.
    local refusal
    refusal=$(cd verifier-mcu/firmware && PSTK_PROOF="$FIRST" cargo build --release \
      --target "$target" --features "qemu,$OTHER" 2>&1 || true)
    if grep -q "firmware feature \`${BACKENDS[0]}\` is not enabled" <<<"$refusal"; then
      echo "ok: a ${BACKENDS[0]} proof is refused by a firmware built without it"
    else
      echo "$refusal"
      echo "FAIL: the firmware build accepted a proof for a backend it does not have"; return 1
    fi
  fi
  local set name features heap proof elf uf2
  for set in "${SETS[@]}"; do
    IFS=: read -r name features heap proof <<<"$set"
    elf="verifier-mcu/firmware/$fwdir/$target/release/picostark-verifier-fw"
    uf2="$OUT/uf2/picostark-verifier-$family-$name.uf2"
    say "verifier-mcu: rp2350 $family, backends $features"
    (cd verifier-mcu/firmware &&
      PSTK_HEAP_SIZE="$heap" PSTK_PROOF="$proof" cargo build --release --target "$target" \
        --features "rp2350,$features" --target-dir "$fwdir")
    "$MCU" uf2 "$elf" "$uf2" --family "$family"
    "$MCU" check-image "$elf" "$uf2" --family "$family"
    # Our board images as flashed (issue 26): `mcu-run board` runs the image headless under
    # QEMU with the timing model, its embedded BLAKE3 proof accepted and a copy with one
    # embedded byte flipped rejected (the SHA-256 images wait on the engine's status bits).
    case $name in
      wf-goldilocks | wf-goldilocks-hot-sram | all-hot-sram)
        "$MCU" board --core "$core" --proof "$proof" "$elf"
        "$MCU" board --core "$core" --proof "$proof" --flip-proof --windows 0 "$elf"
        ;;
    esac
  done
  # The published window's board build (README "Firmware", `stock-wf-window`): its own flags
  # (target-cpu=cortex-m33 on the M33, plain RV32IMAC on Hazard3), in the core's target dir
  # beside the QEMU build of the same window (cargo keeps each flag set's artefacts apart).
  if has wf-goldilocks; then
    local flags
    case $core in
      m33) flags=-Ctarget-cpu=cortex-m33 ;;
      rv32) flags= ;;
    esac
    elf="verifier-mcu/firmware/$fwdir/$target/release/picostark-verifier-fw"
    uf2="$OUT/uf2/picostark-verifier-$family-stock-wf-window.uf2"
    say "verifier-mcu: rp2350 $family, stock-wf-window"
    (cd verifier-mcu/firmware &&
      PSTK_PROOF="$WFG" CARGO_ENCODED_RUSTFLAGS="$flags" cargo build --release \
        --target "$target" --features rp2350,stock-wf-window --target-dir "$fwdir")
    "$MCU" uf2 "$elf" "$uf2" --family "$family"
    "$MCU" check-image "$elf" "$uf2" --family "$family"
  fi
}

# What both cores' steps share: the stock reference proof, the board images' backend sets.
if has wf-goldilocks; then
  "$PH" tune --reference-out "$PROOFS/stock/wf-goldilocks-ref-zkmcu.proof"
  WFG=$(realpath "$PROOFS/wf-goldilocks-fib-1024.proof")
fi
FIRST=$(realpath "$PROOFS/${BACKENDS[0]}-fib-1024.proof")
OTHER=$([ "${BACKENDS[0]}" = p3-goldilocks ] && echo p3-babybear || echo p3-goldilocks)
# Every board image is checked before any board sees it (issue 18): `mcu-run check-image`
# reads the ELF and its UF2 (layout in SRAM, IMAGE_DEF, vector table or entry, E10 block,
# family, numbering, contiguity, payload = ELF load image). Backend sets: every backend (with
# the first proof), and wf-goldilocks alone, as verifier-mcu/README.md builds it for a board.
# The five-backend image is built once, with its hot code in SRAM (link/hot-set-multi.txt):
# its link-time checks (at most 48 KiB, not stale), check-image and a board run. Its plain
# execute-in-place twin is the same code without the placement, and the execute-in-place
# layout is checked (and run as flashed) on wf-goldilocks' image: a second five-backend LTO
# link per core cost CI about 3 CPU-minutes each and checked nothing those two do not.
SETS=("all-hot-sram:$FEATURES,place-hot-sram:262144:$FIRST")
if has wf-goldilocks; then
  SETS+=("wf-goldilocks:wf-goldilocks:262144:$WFG")
  # The hot code in SRAM (issue 26, `place-hot-sram`): the link-time checks, check-image and
  # a board run of the image.
  SETS+=("wf-goldilocks-hot-sram:wf-goldilocks,place-hot-sram:262144:$WFG")
  # Code in SRAM: check-image checks the copied code runs in SRAM inside the start-up copy.
  SETS+=("wf-goldilocks-code-in-ram:wf-goldilocks,code-in-ram:$RAM_CODE_HEAP:$(realpath "$PROOFS/wf-goldilocks-fib-1024-sha256.proof")")
fi
# A Plonky3 image fits SRAM only without the stock fallback (`lean-only`; results/hash/README.md).
if has p3-babybear; then
  # Heap 96 KiB: with 128 KiB the Hazard3 image's stack (lean Plonky3 code in SRAM, grown by
  # our BabyBear^5) is under the build's floor; its proofs' heap peak is under 10 KB.
  SETS+=("p3-babybear-code-in-ram:p3-babybear,code-in-ram,lean-only:98304:$(realpath "$PROOFS/p3-babybear-fib-1024-sha256.proof")")
fi

# QEMU (.ci/run installs it beside the first builds).
packages_ready
for core in m33 rv32; do
  pid_var=prebuild_$core
  if ! wait "${!pid_var}"; then
    cat "$OUT/prebuild-$core.log"; echo "FAIL: the $core QEMU images did not build"; exit 1
  fi
done
core_checks m33 >"$OUT/ci-m33.log" 2>&1 &
m33=$!
core_checks rv32 >"$OUT/ci-rv32.log" 2>&1 &
rv32=$!
failed=()
wait "$m33" || failed+=(m33)
wait "$rv32" || failed+=(rv32)
for core in m33 rv32; do
  echo "---- verifier-mcu: $core (log $OUT/ci-$core.log)"
  cat "$OUT/ci-$core.log"
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "FAIL: verifier-mcu checks failed on: ${failed[*]}"; exit 1
fi

# A user's own AIR (README "Verify your own statement on a Pico 2"): the README's steps, on
# the QEMU images built above (all five backends: only when this build proves them all).
if [ "${#BACKENDS[@]}" -eq 5 ]; then
  say "verifier-mcu: the example AIR (examples/vdf/run.sh)"
  VDF=${HOST_BIN_DIR:+$HOST_BIN_DIR/vdf}
  MCU=$MCU VDF=$VDF OUT="$OUT/vdf" bash examples/vdf/run.sh
fi
say "verifier-mcu: all checks passed"

#!/usr/bin/env bash
# "Verify your own statement on a Pico 2" (README.md), step by step on this example AIR; CI
# runs exactly this script (verifier-mcu/ci.sh, after its own firmware checks, whose QEMU
# images it reuses). From the repository root: `bash examples/vdf/run.sh`.
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-out/vdf}
# The runner and the example's binary (CI hands over the builds it already has).
MCU=${MCU:-target/release/mcu-run}
[ -x "$MCU" ] || cargo build --release -p mcu-run
VDF=${VDF:-}
if [ -z "$VDF" ]; then
  cargo build -p picostark-example-vdf
  VDF=target/debug/vdf
fi
ALL5=p3-babybear,p3-goldilocks,p3-m31,wf-goldilocks,wf-babybear
rm -rf "$OUT" && mkdir -p "$OUT"

echo "== 1. prove with every backend, verify on the host, a tampered copy of each rejected"
"$VDF" all --log-n 6 --out "$OUT"

echo "== 2. verify in the firmware built with the AIR (feature user-air), both cores, QEMU"
for p in "$OUT"/*.proof; do "$MCU" tamper --kind flip "$p" "${p%.proof}.flip.tampered"; done
for core in m33 rv32; do
  "$MCU" run --core "$core" --features "$ALL5,user-air" --expect accepted \
    --out "$OUT/mcu" "$OUT"/*.proof
  "$MCU" run --core "$core" --features "$ALL5,user-air" --expect rejected \
    --out "$OUT/mcu/tampered" "$OUT"/*.tampered
done

echo "== 3. a firmware built without the AIR refuses its proofs, saying why"
"$MCU" run --core m33 --features wf-goldilocks,code-in-ram --heap 131072 --expect rejected \
  --out "$OUT/mcu/without-air" "$OUT/vdf-wf-goldilocks.proof" | tee "$OUT/without-air.txt"
grep -q "unsupported" "$OUT/without-air.txt" || {
  echo "FAIL: the refusal does not say the AIR is not in the build"; exit 1
}

echo "== 4. the RP2350 board image with the proof embedded: UF2, check-image, run as flashed"
proof=$(realpath "$OUT/vdf-p3-babybear.proof")
elf=verifier-mcu/firmware/target/thumbv8m.main-none-eabihf/release/picostark-verifier-fw
(cd verifier-mcu/firmware &&
  PSTK_PROOF="$proof" cargo build --release --target thumbv8m.main-none-eabihf \
    --features rp2350,p3-babybear,user-air --target-dir target)
"$MCU" uf2 "$elf" "$OUT/vdf-rp2350-arm.uf2" --family rp2350-arm
"$MCU" check-image "$elf" "$OUT/vdf-rp2350-arm.uf2" --family rp2350-arm
"$MCU" board --core m33 --proof "$proof" "$elf"
"$MCU" board --core m33 --proof "$proof" --flip-proof --windows 0 "$elf"
echo "== the example AIR: proved by every backend, verified on the host and on both cores"

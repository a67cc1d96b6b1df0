#!/usr/bin/env bash
# The published silicon runs' images, run as they are (issue 13): `mcu-run board` on the zkmcu
# board images rebuilt from the published commits with rustc 1.94.1 (verifier-mcu/TIMING.md,
# "Board layout of the published images": how to build them; nothing of zkmcu is in this
# repository). Per image: the window (the instruction after the first cycle-counter read, and
# the second read), the instructions outside the window that wait on hardware (`--skip`; the
# two `b`/`j` that close the USB polling loops), the USB line writer (`--return`), on the M33
# the one `mrs rX, primask` (`--patch`: `mov.w r0, #0`), and where the image compares the
# verifier's result with `Ok` (`--accept`). Each is also run with one proof byte flipped in
# flash and must be rejected.
#
#   ELF=/path/to/elfs PROOFS=/path/to/proofs ./run.sh
#
# ELF holds <core>-tlsf.elf, <core>-llff.elf, <core>-bump.elf (zkmcu 90ef17a, c51d396,
# 6e7c942 as TIMING.md builds them) and <core>-bb.elf (b794d20 with its winterfell fork:
# elf/<core>-tlsf-babybear-b794d20-rustc1.94.1.elf of ../field-order/reproduce.sh).
#
# PROOFS holds wf-goldilocks-ref-zkmcu.proof (`prover-host tune --reference-out`) and
# wf-babybear-ref-zkmcu.proof (../field-order/wrap.rs); the runner checks that each image
# carries the proof's payload. Records go to this folder.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
MCU=${MCU:-$HERE/../../../../target/release/mcu-run}
: "${ELF:?ELF=folder of the board images}" "${PROOFS:?PROOFS=folder of the proof files}"
G=$PROOFS/wf-goldilocks-ref-zkmcu.proof
B=$PROOFS/wf-babybear-ref-zkmcu.proof
# skip lists: hardware waits in the clock set-up (found by running the image under QEMU with
# -d in_asm: the loop it spins in), then the two USB polling loops' closing jumps.
run() { # core alloc proof elf flip-address flip-byte args...
  local core=$1 alloc=$2 proof=$3 elf=$4 flip=$5 byte=$6; shift 6
  "$MCU" board --core "$core" --alloc "$alloc" --proof "$proof" --out "$HERE" "$@" "$ELF/$elf"
  "$MCU" board --core "$core" --windows 0 --expect rejected --patch "$flip=$byte" "$@" "$ELF/$elf"
}
skips() { for a in "$@"; do printf -- '--skip\n%s\n' "$a"; done; }

mapfile -t A < <(skips 1000297a 100029aa 100029b8 100029ce 100029f4 10002a0e 10002a1c 10002a32 10002a58 10002a82 10002aa4 10002abc 10002b80 10002ba2 1000302a 10003b88)
run rv32 tlsf "$G" rv32-tlsf.elf 1004bd7c 7f --start 100039b4 --end 10003a04 --return 10001ed4 --accept 100039e8:x10=23 "${A[@]}"
mapfile -t A < <(skips 10002938 10002968 10002976 1000298c 100029b2 100029cc 100029da 100029f0 10002a16 10002a40 10002a62 10002a7a 10002b3e 10002b60 10002fe8 10003b46)
run rv32 llff "$G" rv32-llff.elf 1004bcbc 7f --start 10003972 --end 100039c2 --return 10001ed6 --accept 100039a6:x10=23 "${A[@]}"
mapfile -t A < <(skips 10002948 10002978 10002986 1000299c 100029c2 100029dc 100029ea 10002a00 10002a26 10002a50 10002a72 10002a8a 10002b4e 10002b70 10002ffa 10003bf8)
run rv32 bump "$G" rv32-bump.elf 1004bdf8 7f --start 10003a02 --end 10003a66 --return 10001f34 --accept 10003a38:x10=23 "${A[@]}"
mapfile -t A < <(skips 10002a74 10002aa4 10002ab2 10002ac8 10002aee 10002b08 10002b16 10002b2c 10002b52 10002b7c 10002b9e 10002bb6 10002c7a 10002c9c 1000312a 10003d9c)
run rv32 tlsf "$B" rv32-bb.elf 1003091c 36 --start 10003bf4 --end 10003c16 --return 10001ed4 --accept 10003c4e:x24=25 "${A[@]}"

mapfile -t A < <(skips 10001dd2 10001e0e 10001e22 10001e3e 10001e68 10001e8a 10001e9e 10001eb2 10001ee0 10001f1e 10001f66 10001f86 10002106 10002126 100024d8 10002e7e)
run m33 tlsf "$G" m33-tlsf.elf 10044638 7f --start 10002cf0 --end 10002d2c --return 10001ae8 --patch 1003b80a=4ff00000 --accept 10002d4c:r10=23 "${A[@]}"
mapfile -t A < <(skips 10001d7a 10001db6 10001dca 10001de6 10001e10 10001e32 10001e46 10001e5a 10001e88 10001ec6 10001f0e 10001f2e 100020ae 100020ce 10002480 10002e1e)
run m33 llff "$G" m33-llff.elf 10044428 7f --start 10002c90 --end 10002ccc --return 10001ac8 --patch 1003b574=4ff00000 --accept 10002cec:r10=23 "${A[@]}"
mapfile -t A < <(skips 10001d7e 10001dba 10001dce 10001dea 10001e14 10001e36 10001e4a 10001e5e 10001e8c 10001eca 10001f12 10001f32 100020b2 100020d2 10002484 10002ecc)
run m33 bump "$G" m33-bump.elf 100460b8 7f --start 10002d12 --end 10002d54 --return 10001b24 --patch 1003d2de=4ff00000 --accept 10002d42:r0=23 "${A[@]}"
mapfile -t A < <(skips 10001dc6 10001e02 10001e16 10001e32 10001e5c 10001e7e 10001e92 10001ea6 10001ed4 10001f12 10001f5a 10001f7a 100020fa 1000211a 100024cc 10002f36)
run m33 tlsf "$B" m33-bb.elf 1002cbb0 36 --start 10002dec --end 10002dfa --return 10001ae8 --patch 10024394=4ff00000 --accept 10002e2a:r6=25 "${A[@]}"

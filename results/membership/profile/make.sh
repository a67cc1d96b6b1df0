#!/usr/bin/env bash
# The parts of the membership rows the report's first screen names as fastest (issue 28
# item 4): `mcu-run profile-parts` over the one-iteration profiles of `mcu-run run --profile`
# (copied to runs/; commands in results/membership/README.md, "What dominates"). Trees: leaf
# bytes @ log2 leaves per Merkle tree the verifier opens (README); --compressions: the
# verification's total where no engine count is in the record.
set -euo pipefail
cd "$(dirname "$0")/../../.."
M=target/release/mcu-run
O=results/membership/profile
D95="default floor (>= 95 strictest)"
D128="128-bit point (>= 127 strictest)"
FIVE=p3-babybear,p3-goldilocks,p3-m31,wf-goldilocks,wf-babybear
HOST_P3="host count: prover-host tune --count-hashes (our lean verifier built with picostark-plonky3/hash-count)"
WF_B3="model: 716 measured on the SHA-256 twin (same parameters, engine calls) + 2 for BLAKE3's block rule on the two long transcript messages (OOD frame 3,424 B: 57 vs 54; remainder 512 B: 8 vs 9); prover-host tune --count-hashes counts wf only for Fibonacci"
C=results/membership
parts() { # name profile record trees queries level command [extra...]
  local name=$1 profile=$2 record=$3 trees=$4 q=$5 level=$6 cmd=$7; shift 7
  $M profile-parts "$profile" --record "$record" --trees "$trees" --queries "$q" \
    --level "$level" --command "$cmd" --out "$O/$name.json" "$@"
}
# The runs (records and one-iteration profiles, copied from out/parts/ after the runs).
R=$O/runs; R128=$O/runs; EW=$O/runs; EP=$O/runs
I=tlsf.profile.iteration1.txt
parts default-blake3-m33-wf-goldilocks2 $R/wf-goldilocks-membership.proof.m33.$I \
  $R/wf-goldilocks-membership.proof.m33.tlsf.json 800@10,112@10 14 "$D95" \
  "mcu-run run --core m33 --features $FIVE --profile proofs/membership/wf-goldilocks-membership.proof" \
  --unique-leaves --compressions 718 --compressions-source "$WF_B3" \
  --committed-record $C/records/wf-goldilocks-membership.proof.m33.tlsf.json
for core in m33 rv32; do
  parts default-blake3-$core-p3-goldilocks2 $R/p3-goldilocks-membership.proof.$core.$I \
    $R/p3-goldilocks-membership.proof.$core.tlsf.json 800@10,128@10,64@8 14 "$D95" \
    "mcu-run run --core $core --features $FIVE --profile proofs/membership/p3-goldilocks-membership.proof" \
    --compressions 551 --compressions-source "$HOST_P3" \
    --committed-record $C/records/p3-goldilocks-membership.proof.$core.tlsf.json
done
for core in m33 rv32; do
  parts default-sha256-engine-$core-wf-goldilocks2 $EW/wf-goldilocks-membership-sha256.proof.$core.$I \
    $EW/wf-goldilocks-membership-sha256.proof.$core.tlsf.json 800@10,112@10 14 "$D95" \
    "mcu-run run --core $core --features wf-goldilocks,code-in-ram --heap 131072 --sha256-engine --profile proofs/membership-engine/wf-goldilocks-membership-sha256.proof" \
    --unique-leaves --committed-record $C/engine/wf-goldilocks-membership-sha256.proof.$core.tlsf.json
  parts 128-blake3-$core-p3-goldilocks3 $R128/p3-goldilocks-membership-128-b8-q13-w24-f4-l3.proof.$core.$I \
    $R128/p3-goldilocks-membership-128-b8-q13-w24-f4-l3.proof.$core.tlsf.json 800@12,192@12,48@11 13 "$D128" \
    "PSTK_MIN_SECURITY=127 mcu-run run --core $core --features $FIVE --profile proofs/membership-128/p3-goldilocks-membership-128-b8-q13-w24-f4-l3.proof" \
    --compressions 660 --compressions-source "$HOST_P3" \
    --committed-record $C/records-128/p3-goldilocks-membership-128-b8-q13-w24-f4-l3.proof.$core.tlsf.json
done
for core in m33 rv32; do
  heap=131072; [ $core = rv32 ] && heap=65536
  parts 128-sha256-engine-$core-p3-goldilocks3 $EP/p3-goldilocks-membership-128-b8-q13-w24-f4-l3-sha256.proof.$core.$I \
    $EP/p3-goldilocks-membership-128-b8-q13-w24-f4-l3-sha256.proof.$core.tlsf.json 800@12,192@12,48@11 13 "$D128" \
    "mcu-run run --core $core --features p3-goldilocks,code-in-ram-membership,lean-only --heap $heap --sha256-engine --profile proofs/membership-engine/p3-goldilocks-membership-128-b8-q13-w24-f4-l3-sha256.proof" \
    --committed-record $C/engine/p3-goldilocks-membership-128-b8-q13-w24-f4-l3-sha256.proof.$core.tlsf.json
  parts default-sha256-engine-$core-p3-goldilocks2 $EP/p3-goldilocks-membership-sha256.proof.$core.$I \
    $EP/p3-goldilocks-membership-sha256.proof.$core.tlsf.json 800@10,128@10,64@8 14 "$D95" \
    "mcu-run run --core $core --features p3-goldilocks,code-in-ram-membership,lean-only --heap $heap --sha256-engine --profile proofs/membership-engine/p3-goldilocks-membership-sha256.proof" \
    --committed-record $C/engine/p3-goldilocks-membership-sha256.proof.$core.tlsf.json
done
parts 128-sha256-engine-rv32-wf-goldilocks3 $EW/wf-goldilocks-membership-128-b7-q15-w24-f2-l2-sha256.proof.rv32.$I \
  $EW/wf-goldilocks-membership-128-b7-q15-w24-f2-l2-sha256.proof.rv32.tlsf.json 800@11,168@11,96@9 15 "$D128" \
  "mcu-run run --core rv32 --features wf-goldilocks,code-in-ram --heap 131072 --sha256-engine --profile proofs/membership-engine/wf-goldilocks-membership-128-b7-q15-w24-f2-l2-sha256.proof" \
  --unique-leaves --committed-record $C/engine/wf-goldilocks-membership-128-b7-q15-w24-f2-l2-sha256.proof.rv32.tlsf.json

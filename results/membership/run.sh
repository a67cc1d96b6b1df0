#!/usr/bin/env bash
# Re-makes the membership records of results/membership/README.md: the default point
# (records/) and the 127-bit point (records-128/), every backend on both cores under QEMU
# (five-backend image, TLSF heap of 256 KiB, code and proof in flash), each proof's flipped
# copy rejected; then re-renders the README's tables from them.
#
#   bash results/membership/run.sh            # about 15 minutes on 2 cores, most of it LTO links
#   bash results/membership/run.sh engine     # engine/ only: SHA-256 proofs, code in SRAM, the
#                                             # RP2350 engine charged (eight one-backend images)
#
# BIN_DIR=target/debug uses already-built debug binaries (the verifier under test is the
# firmware, built by mcu-run in release whatever BIN_DIR is).
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${BIN_DIR:-target/release}
if [ -z "${BIN_DIR:-}" ]; then
    cargo build --release -p prover-host -p mcu-run
fi
prove="$bin/prover-host"
proofs=proofs/membership
mkdir -p "$proofs/default" "$proofs/128"
backends=(p3-babybear p3-goldilocks p3-m31 wf-goldilocks wf-babybear)
for b in "${backends[@]}"; do
    "$prove" --backend "$b" --air membership --n 16 --out "$proofs/default/$b-membership.proof"
done
# The 127-bit point (README "The 127-bit point"): extension, log blowup, queries, PoW bits,
# log fold arity, log final length, per backend.
point128=(
    "p3-goldilocks 3 8 13 24 4 3"
    "wf-goldilocks 3 7 15 24 2 2"
    "p3-babybear 5 8 14 20 4 3"
    "p3-m31 6 8 13 24 4 3"
    "wf-babybear 5 7 16 20 2 3"
)
for line in "${point128[@]}"; do
    read -r b e lb q w f l <<<"$line"
    "$prove" --backend "$b" --ext "$e" --air membership --n 16 --log-blowup "$lb" \
        --queries "$q" --pow-bits "$w" --log-fold-arity "$f" --log-final-poly-len "$l" \
        --out "$proofs/128/$b-membership-128-b$lb-q$q-w$w-f$f-l$l.proof"
done

header() {
    echo "# mcu-run output of these records (commit $(git rev-parse --short HEAD)${PSTK_MIN_SECURITY:+, PSTK_MIN_SECURITY=$PSTK_MIN_SECURITY}; the tampered column: each proof's flipped copy)"
}
# One mcu-run batch on both cores, its output appended to OUT/runs.md: out, features, heap
# per core (m33 rv32, "-" for the default), extra flags, proofs...
batch() {
    local out=$1 features=$2 heaps=$3 extra=$4; shift 4
    local -a heap=($heaps)
    for core in m33 rv32; do
        local h=${heap[0]}; [ "$core" = rv32 ] && h=${heap[1]}
        local -a flags=(--core "$core" --features "$features" --out "$out")
        [ "$h" != - ] && flags+=(--heap "$h")
        { echo; echo '```text'
          "$bin/mcu-run" run "${flags[@]}" $extra "$@"
          echo '```'; } >>"$out/runs.md"
    done
}

if [ "${1:-}" = engine ]; then
    # The hash axis: the default and 127-bit proofs with SHA-256, verified by one-backend
    # images with all code and read-only data in SRAM (no XIP miss; the proof slot counts as
    # SRAM), the timing model charging the RP2350 SHA-256 engine per compression. The lean
    # Plonky3 images keep the membership AIR (`code-in-ram-membership`); beside them a
    # 128 KiB heap does not link on Hazard3, so they run with 64 KiB (the verifications
    # peak far below). p3-m31 does not link with its code in SRAM on either core.
    e=$proofs/engine; out=results/membership/engine
    mkdir -p "$e" "$out"; rm -f "$out"/*.json; header >"$out/runs.md"
    for b in p3-goldilocks p3-babybear wf-goldilocks wf-babybear; do
        "$prove" --backend "$b" --air membership --n 16 --hash sha256 \
            --out "$e/$b-membership-sha256.proof"
    done
    for line in "${point128[@]:0:3}" "p3-goldilocks 3 12 9 24 4 3"; do
        read -r b x lb q w f l <<<"$line"
        "$prove" --backend "$b" --ext "$x" --air membership --n 16 --hash sha256 \
            --log-blowup "$lb" --queries "$q" --pow-bits "$w" --log-fold-arity "$f" \
            --log-final-poly-len "$l" --out "$e/$b-membership-128-b$lb-q$q-w$w-f$f-l$l-sha256.proof"
    done
    for b in p3-goldilocks p3-babybear; do
        batch "$out" "$b,code-in-ram-membership,lean-only" "131072 65536" --sha256-engine \
            "$e/$b"-membership*-sha256.proof
    done
    for b in wf-goldilocks wf-babybear; do
        batch "$out" "$b,code-in-ram" "131072 131072" --sha256-engine "$e/$b"-membership*-sha256.proof
    done
    cargo run -q -p compare -- membership-readme --dir results/membership
    exit 0
fi

features=$(IFS=,; echo "${backends[*]}")
for out in records records-128; do
    rm -f results/membership/$out/*.json
done
header >results/membership/records/runs.md
batch results/membership/records "$features" "- -" "" "$proofs"/default/*.proof
export PSTK_MIN_SECURITY=127
header >results/membership/records-128/runs.md
batch results/membership/records-128 "$features" "- -" "" "$proofs"/128/*.proof
unset PSTK_MIN_SECURITY
cargo run -q -p compare -- membership-readme --dir results/membership

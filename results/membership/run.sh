#!/usr/bin/env bash
# Re-makes the membership records of results/membership/README.md: the default point
# (records/) and the 127-bit point (records-128/), every backend on both cores under QEMU
# (five-backend image, TLSF heap of 256 KiB, code and proof in flash), each proof's flipped
# copy rejected; then re-renders the README's tables from them.
#
#   bash results/membership/run.sh            # about 15 minutes on 2 cores, most of it LTO links
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

features=$(IFS=,; echo "${backends[*]}")
run() { # out-folder, proofs...
    local out=$1; shift
    rm -f "$out"/*.json
    {
        echo "# mcu-run output of these records (commit $(git rev-parse --short HEAD)${PSTK_MIN_SECURITY:+, PSTK_MIN_SECURITY=$PSTK_MIN_SECURITY}; the tampered column: each proof's flipped copy)"
        for core in m33 rv32; do
            echo; echo '```text'
            "$bin/mcu-run" run --core "$core" --features "$features" --out "$out" "$@"
            echo '```'
        done
    } >"$out/runs.md"
}
run results/membership/records "$proofs"/default/*.proof
PSTK_MIN_SECURITY=127 run results/membership/records-128 "$proofs"/128/*.proof
cargo run -q -p compare -- membership-readme --dir results/membership

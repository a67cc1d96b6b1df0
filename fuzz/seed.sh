#!/usr/bin/env bash
# Seeds the fuzz corpora with valid proofs (n = 8, 64, 1024) of every backend and AIR.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p prover-host
mkdir -p fuzz/corpus/verify fuzz/corpus/proof_file
for backend in p3-babybear p3-goldilocks p3-m31 wf-goldilocks wf-babybear; do
    for n in 8 64 1024; do
        out="fuzz/corpus/verify/$backend-fib-n$n.proof"
        ./target/release/prover-host --backend "$backend" --air fib --n "$n" --out "$out" >/dev/null 2>&1
        cp "$out" fuzz/corpus/proof_file/
    done
done
# The completeness grid's shapes (issue 29; verifier-mcu/ci.sh proves some of them): small
# traces with parameters off the defaults, and chain16, so mutations start from every layout.
while read -r backend args; do
    name=$(tr -d ' -' <<<"$backend$args")
    # shellcheck disable=SC2086
    ./target/release/prover-host --backend "$backend" $args --out "fuzz/corpus/verify/$name.proof" >/dev/null
done <<'EOF'
p3-m31 --air fib --n 8 --queries 16
p3-m31 --air chain16 --n 8 --ext 6 --queries 20
p3-babybear --air fib --n 8 --log-blowup 3 --queries 32 --log-fold-arity 1 --log-final-poly-len 0
p3-babybear --air chain16 --n 16 --ext 8
p3-goldilocks --air fib --n 16 --log-blowup 3 --queries 32 --log-fold-arity 2 --log-final-poly-len 1
p3-goldilocks --air chain16 --n 8 --ext 3 --hash sha256
wf-goldilocks --air fib --n 8 --log-blowup 3 --queries 32 --log-fold-arity 2 --log-final-poly-len 1
wf-goldilocks --air chain16 --n 8 --ext 3 --hash sha256
wf-babybear --air fib --n 16 --log-blowup 4 --queries 24 --log-fold-arity 1 --log-final-poly-len 2
wf-babybear --air chain16 --n 8 --ext 5
EOF
# stwo-m31 (issue 45), when its nightly prover is built (`cargo build --release` in
# backends/stwo/prover): every AIR, fib at two lengths and at fold step 2, into the common
# corpus and into one of its own (verify-stwo), which a run aimed at the stwo path starts from.
if [ -x backends/stwo/prover/target/release/picostark-stwo-prover ]; then
    mkdir -p fuzz/corpus/verify-stwo
    while read -r args; do
        name=stwo-m31$(tr -d ' -' <<<"$args")
        # shellcheck disable=SC2086
        ./target/release/prover-host --backend stwo-m31 $args --out "fuzz/corpus/verify-stwo/$name.proof" >/dev/null
        cp "fuzz/corpus/verify-stwo/$name.proof" fuzz/corpus/verify/
    done <<'EOF2'
--air fib --n 8
--air fib --n 64
--air fib --n 64 --log-fold-arity 2
--air chain16 --n 8
--air membership --n 16
EOF2
fi
ls fuzz/corpus/verify | wc -l

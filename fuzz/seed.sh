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
ls fuzz/corpus/verify | wc -l

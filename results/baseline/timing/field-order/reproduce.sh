#!/usr/bin/env bash
# Field order (issue 13): the published BabyBear x quartic silicon window, rebuilt outside this
# repository from the zkmcu project's public sources and run through mcu-run (emulator + timing
# model). Nothing of zkmcu or its winterfell fork is copied into this repository: this script
# fetches them into $WORK. See README.md in this folder for what each step is for.
#
#   REPO=/path/to/picostark WORK=/tmp/field-order ./reproduce.sh
#
# Environment: REPO (a checkout of this repository; default: the one holding this script),
# WORK (scratch dir, default /tmp/field-order), OUT (records, default this folder),
# ZKMCU_GIT / WINTERFELL_GIT (clone URLs or local mirrors of github Niek-Kamer/zkmcu and
# Niek-Kamer/winterfell). Needs rustc with the thumbv8m.main-none-eabihf and
# riscv32imac-unknown-none-elf targets, QEMU 7.2 (as mcu-run), python3. About 20 min of
# builds on a 2-core machine.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=${REPO:-$(git -C "$HERE" rev-parse --show-toplevel)}
WORK=${WORK:-/tmp/field-order}
OUT=${OUT:-$HERE}
ZKMCU_GIT=${ZKMCU_GIT:-https://github.com/Niek-Kamer/zkmcu}
WINTERFELL_GIT=${WINTERFELL_GIT:-https://github.com/Niek-Kamer/winterfell}
PUBLISHED=b794d20     # code of the published runs (benchmarks/runs/2026-04-24-*-stark-fib-1024-babybear-q-kara, added by 3d0723e)
REBASED=98c7af5       # bench-core refactor, same verifier code (runs 2026-04-24-bench-core-*-stark-babybear)
FORK=f6d140b24312faadfdcac3c356b24a272ae16c26   # vendor/winterfell submodule at both commits
mkdir -p "$WORK" && cd "$WORK"
[ -d zkmcu.git ] || git clone -q --bare "$ZKMCU_GIT" zkmcu.git
[ -d winterfell.git ] || git clone -q --bare "$WINTERFELL_GIT" winterfell.git

# 1. zkmcu at each commit, the fork in vendor/winterfell. Workspace trimmed to the STARK crates
#    (the others need submodules the STARK firmware does not use); the embedded-hal fork
#    replaced by crates.io 1.0 (as for the Goldilocks board images, TIMING.md).
for c in $PUBLISHED $REBASED; do
  if [ ! -d zk-$c ]; then
    mkdir zk-$c && git -C zkmcu.git archive $c | tar -x -C zk-$c
    rm -rf zk-$c/vendor/winterfell && mkdir -p zk-$c/vendor/winterfell
    git -C winterfell.git archive $FORK | tar -x -C zk-$c/vendor/winterfell
    sed -i '/^embedded-hal = { git/d; /^substrate-bn = { path/d' zk-$c/Cargo.toml
    for m in zkmcu-verifier zkmcu-verifier-bls12 zkmcu-host-gen bench-rp2350-m33 bench-rp2350-m33-bls12 bench-rp2350-rv32 bench-rp2350-rv32-bls12; do
      sed -i "/^    \"crates\/$m\",\$/d" zk-$c/Cargo.toml
    done
  fi
  # 2. The board images (their own .cargo/config.toml: target-cpu=cortex-m33 on the M33).
  for k in m33 rv32; do
    (cd zk-$c/crates/bench-rp2350-$k-stark && cargo build --release --features babybear)
  done
  mkdir -p elf
  cp zk-$c/target/thumbv8m.main-none-eabihf/release/bench-rp2350-m33-stark elf/m33-tlsf-babybear-$c.elf
  cp zk-$c/target/riscv32imac-unknown-none-elf/release/bench-rp2350-rv32-stark elf/rv32-tlsf-babybear-$c.elf
done
# The board images with the published runs' toolchain, rustc 1.94.1, when installed: RV32 with
# its prebuilt standard library; the M33 with the standard library built from rust-src
# (rustup has no thumbv8m.main-none-eabihf library for 1.94.1 on this machine's mirror) as
# the prebuilt one is built (verifier-mcu/TIMING.md "Board layout of the published images").
if rustup +1.94.1 target list --installed 2>/dev/null | grep -q riscv32imac; then
  (cd zk-$PUBLISHED/crates/bench-rp2350-rv32-stark && cargo +1.94.1 build --release --features babybear --target-dir ../../target-1.94.1)
  cp zk-$PUBLISHED/target-1.94.1/riscv32imac-unknown-none-elf/release/bench-rp2350-rv32-stark elf/rv32-tlsf-babybear-$PUBLISHED-rustc1.94.1.elf
fi
if rustup +1.94.1 component list --installed 2>/dev/null | grep -q rust-src; then
  cat > stdwrap.sh <<'W'
#!/bin/bash
# rustc wrapper: the std crates without -Ctarget-cpu, with bootstrap's MIR flags
rustc=$1; shift; std=0; prev=
for a in "$@"; do [ "$prev" = --crate-name ] && case $a in core|alloc|compiler_builtins|rustc_std_workspace_core) std=1;; esac; prev=$a; done
[ $std = 0 ] && exec "$rustc" "$@"
out=(); skip=0
for a in "$@"; do
  if [ $skip = 1 ]; then skip=0; [[ $a == target-cpu=* ]] || out+=(-C "$a"); continue; fi
  [ "$a" = -C ] && { skip=1; continue; }; [[ $a == -Ctarget-cpu=* ]] || out+=("$a")
done
exec "$rustc" "${out[@]}" -Zinline-mir -Zinline-mir-preserve-debug -Zmir_strip_debuginfo=locals-in-tiny-functions
W
  chmod +x stdwrap.sh
  P=profile.release.package
  (cd zk-$PUBLISHED/crates/bench-rp2350-m33-stark && RUSTC_WRAPPER="$WORK/stdwrap.sh" RUSTC_BOOTSTRAP=1 \
     cargo +1.94.1 build --release --features babybear --target-dir ../../target-1.94.1 -Zbuild-std=core,alloc \
     --config $P.core.opt-level=3 --config $P.alloc.opt-level=3 --config $P.compiler_builtins.opt-level=3 \
     --config $P.compiler_builtins.codegen-units=10000 --config $P.rustc-std-workspace-core.opt-level=3 \
     --config 'target.thumbv8m.main-none-eabihf.rustflags=["-Zunstable-options","-Csymbol-mangling-version=legacy"]')
  cp zk-$PUBLISHED/target-1.94.1/thumbv8m.main-none-eabihf/release/bench-rp2350-m33-stark elf/m33-tlsf-babybear-$PUBLISHED-rustc1.94.1.elf
fi

# 3. The QEMU window image: this repository's firmware (stock-wf window, board layer, markers,
#    TLSF 256 KB behind the tracking wrapper on the M33, untracked on RV32), its winter-*
#    crates patched to the fork, and the window calling zkmcu's fibonacci_babybear::verify.
rm -rf fw && mkdir fw && git -C "$REPO" archive HEAD verifier-mcu/firmware | tar -x -C fw --strip-components=2
python3 - "$REPO" "$WORK/zk-$PUBLISHED" "$HERE/window.rs" <<'EOF'
import sys
repo, zk, window = sys.argv[1:]
t = open('fw/Cargo.toml').read()
for rel in ['../../core', '../../blocks/sha256', '../rp2350-sha256', '../../backends/plonky3', '../../backends/winterfell', '../../air']:
    t = t.replace(f'path = "{rel}"', 'path = "%s/verifier-mcu/firmware/%s"' % (repo, rel))
old = 'stock-wf-window = ["stock-wf"]'
assert old in t
t = t.replace(old, 'stock-wf-window = ["dep:zkmcu-verifier-stark"]')
t = t.replace('[dependencies]\n', '[dependencies]\nzkmcu-verifier-stark = { path = "%s/crates/zkmcu-verifier-stark", optional = true }\n' % zk, 1)
t += '\n[patch.crates-io]\n' + ''.join('%s = { path = "%s/vendor/winterfell/%s" }\n' % (n, zk, p) for n, p in [
    ('winterfell', 'winterfell'), ('winter-math', 'math'), ('winter-air', 'air'), ('winter-prover', 'prover'),
    ('winter-verifier', 'verifier'), ('winter-crypto', 'crypto'), ('winter-fri', 'fri'), ('winter-utils', 'utils/core'),
    ('winter-maybe-async', 'utils/maybe_async'), ('winter-rand-utils', 'utils/rand')])
open('fw/Cargo.toml', 'w').write(t)
m = open('fw/src/main.rs').read()
a = '#[cfg(any(feature = "stock-wf", feature = "stock-p3", feature = "hash-cal"))]\nmod stock;'
b = '    feature = "stock-wf",\n    feature = "stock-p3",'
assert a in m and b in m
m = m.replace(a, a.replace('"stock-wf",', '"stock-wf", feature = "stock-wf-window",'))
m = m.replace(b, '    feature = "stock-wf",\n    feature = "stock-wf-window",\n    feature = "stock-p3",')
open('fw/src/main.rs', 'w').write(m)
s = open('fw/src/stock.rs').read()
i = s.index('/// The published measurement window (feature `stock-wf-window`)')
j = s.index('#[cfg(feature = "stock-p3")]\nmod p3 {')
open('fw/src/stock.rs', 'w').write(s[:i] + open(window).read() + '\n' + s[j:])
EOF
export PSTK_HEAP_SIZE=262144 PSTK_ITERATIONS=3
(cd fw && CARGO_ENCODED_RUSTFLAGS=-Ctarget-cpu=cortex-m33 cargo build --release --target thumbv8m.main-none-eabihf \
   --features qemu,stock-wf-window --target-dir target/cortex-m33)
(cd fw && CARGO_ENCODED_RUSTFLAGS= cargo build --release --target riscv32imac-unknown-none-elf \
   --features qemu,stock-wf-window --target-dir target/rv32imac)
cp fw/target/cortex-m33/thumbv8m.main-none-eabihf/release/picostark-verifier-fw elf/qemu-m33-babybear-window.elf
cp fw/target/rv32imac/riscv32imac-unknown-none-elf/release/picostark-verifier-fw elf/qemu-rv32-babybear-window.elf

# 4. The interop proof (../shared/interop/zkmcu-fork/stark-fib-1024-babybear, the same bytes
#    as zkmcu's crates/zkmcu-vectors/data/stark-fib-1024-babybear) in a picostark envelope.
mkdir -p wrap/src
cat > wrap/Cargo.toml <<EOF
[package]
name = "wrap-babybear"
version = "0.1.0"
edition = "2021"
publish = false
[dependencies]
picostark-core = { path = "$REPO/core" }
[workspace]
EOF
cp "$HERE/wrap.rs" wrap/src/main.rs
(cd wrap && cargo run -q --release -- "$WORK/zk-$PUBLISHED/crates/zkmcu-vectors/data/stark-fib-1024-babybear" "$WORK/wf-babybear-ref-zkmcu.proof")

# 5. The runs (mcu-run of $REPO and its model_version and calibrated xip_miss, median of 7
#    placements).
(cd "$REPO" && cargo build --release -p mcu-run)
RUN="$REPO/target/release/mcu-run run --window stock-wf --repeat 2"
P="$WORK/wf-babybear-ref-zkmcu.proof"
for k in m33 rv32; do
  $RUN --core $k --elf elf/qemu-$k-babybear-window.elf --layout-elf elf/$k-tlsf-babybear-$PUBLISHED.elf --out "$OUT/$PUBLISHED" "$P"
  $RUN --core $k --elf elf/qemu-$k-babybear-window.elf --layout-elf elf/$k-tlsf-babybear-$REBASED.elf --out "$OUT/$REBASED" "$P"
  $RUN --core $k --elf elf/qemu-$k-babybear-window.elf --out "$OUT/no-layout" "$P"
done
for k in m33 rv32; do
  if [ -f elf/$k-tlsf-babybear-$PUBLISHED-rustc1.94.1.elf ]; then
    $RUN --core $k --elf elf/qemu-$k-babybear-window.elf --layout-elf elf/$k-tlsf-babybear-$PUBLISHED-rustc1.94.1.elf --out "$OUT/$PUBLISHED-rustc1.94.1" "$P"
  fi
done

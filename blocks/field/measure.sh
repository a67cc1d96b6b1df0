#!/usr/bin/env bash
# Counts the instructions of one QM31, BabyBear^4, BabyBear^5 and M31^6 product (ours and
# Plonky3 0.8's) on both RP2350 cores, from the `measure` probes (src/measure.rs) built as a
# static library with the firmware's code generation: opt-level s, fat LTO, one codegen
# unit, panic abort. Each probe loads two [u32; 4] through pointers and stores the product
# through a third, so its count includes those loads and stores, the prologue/epilogue and
# the return. Usage: blocks/field/measure.sh [--show SYMBOL TARGET]
set -euo pipefail
cd "$(dirname "$0")/../.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}" CARGO_INCREMENTAL=0
export CARGO_PROFILE_RELEASE_OPT_LEVEL=s CARGO_PROFILE_RELEASE_LTO=fat \
    CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1 CARGO_PROFILE_RELEASE_PANIC=abort \
    CARGO_PROFILE_RELEASE_DEBUG=false
OBJDUMP="${OBJDUMP:-llvm-objdump}"
SYMS=(pf_qm31_mul pf_p3_qm31_mul pf_bb4_mul pf_p3_bb4_mul pf_bb5_mul pf_p3_bb5_mul pf_m31_6_mul)

# name target rustflags objdump-mattr
VARIANTS=(
    "m33|thumbv8m.main-none-eabihf||--mattr=+dsp"
    "rv32imac|riscv32imac-unknown-none-elf|-C llvm-args=-disable-constant-hoisting|"
    "rv32imac+zb|riscv32imac-unknown-none-elf|-C target-feature=+zba,+zbb,+zbs,+zbkb -C llvm-args=-disable-constant-hoisting|--mattr=+zba,+zbb,+zbs,+zbkb"
)

lib() { echo "$CARGO_TARGET_DIR/$1/release/libpicostark_field.a"; }

build() { # target rustflags
    # The library copy is overwritten by each flag set: build and count one at a time.
    CARGO_ENCODED_RUSTFLAGS="$(printf '%s' "$2" | tr ' ' '\037')" \
        cargo rustc -q -p picostark-field --release --target "$1" --lib \
        --crate-type staticlib --features measure-p3
}

disasm() { # lib symbol mattr
    # shellcheck disable=SC2086
    "$OBJDUMP" -d --no-show-raw-insn $3 --disassemble-symbols="$2" "$1" 2>/dev/null |
        grep -E '^\s+[0-9a-f]+:\s' | grep -vE '\s\.(word|short|byte)\s'
}

if [[ "${1:-}" == --show ]]; then
    for v in "${VARIANTS[@]}"; do
        IFS='|' read -r name target flags mattr <<<"$v"
        [[ "$name" == "$3" ]] || continue
        build "$target" "$flags"
        disasm "$(lib "$target")" "$2" "$mattr"
    done
    exit 0
fi

echo "rustc: $(rustc --version)"
printf '%-14s %10s %8s %9s %7s %9s %7s %9s   %s\n' variant ours_qm31 p3_qm31 ours_bb4 p3_bb4 ours_bb5 p3_bb5 ours_m31_6 "mul-instrs (ours qm31 / bb4)"
for v in "${VARIANTS[@]}"; do
    IFS='|' read -r name target flags mattr <<<"$v"
    build "$target" "$flags"
    a="$(lib "$target")"
    counts=()
    for s in "${SYMS[@]}"; do
        counts+=("$(disasm "$a" "$s" "$mattr" | wc -l)")
    done
    muls() { disasm "$a" "$1" "$mattr" | grep -cE '\s(umull|umlal|umaal|mla|mul|mulhu|mulh|mulhsu|smull|smlal)\s' || true; }
    printf '%-14s %10s %8s %9s %7s %9s %7s %9s   %s / %s\n' "$name" "${counts[@]}" "$(muls pf_qm31_mul)" "$(muls pf_bb4_mul)"
done

//! `mcu-run run --profile`: where the measured instructions go, by function.
//!
//! The plugin counts executed instructions per translation block inside the measured
//! regions (every genuine iteration and the tampered one); here each block is charged to
//! the ELF function symbol that contains its start address. Inlined code is charged to the
//! function it was inlined into. Block granularity makes the total a close approximation of
//! the exact per-class count, which the report prints next to it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::elf::Elf;

/// The plugin's profile of measured window `i` alone, beside its block profile `raw`
/// (icount-plugin: `FILE.regionN`).
pub fn region_file(raw: &Path, i: usize) -> PathBuf {
    PathBuf::from(format!("{}.region{i}", raw.display()))
}

/// Instructions per function, highest first, from the plugin's `ADDR INSNS` lines.
pub fn by_function(raw: &str, elf: &Elf<'_>) -> Result<Vec<(String, u64)>, String> {
    by_function_column(raw, elf, 1, demangle)
}

/// XIP miss cycles per function symbol (as the ELF spells it: one generic instance each),
/// highest first, from the third column the plugin writes with the timing model
/// (`ADDR INSNS MISSCYCLES`; lines without it count 0).
pub fn misses_by_symbol(raw: &str, elf: &Elf<'_>) -> Result<Vec<(String, u64)>, String> {
    misses(raw, elf, |s| s.to_string())
}

/// XIP miss cycles per function, named as [`by_function`] names them (demangled, so the rows
/// line up with the instruction profile's), highest first.
pub fn misses_by_function(raw: &str, elf: &Elf<'_>) -> Result<Vec<(String, u64)>, String> {
    misses(raw, elf, demangle)
}

/// The functions with miss cycles (column 2), named by `name`.
fn misses(
    raw: &str,
    elf: &Elf<'_>,
    name: fn(&str) -> String,
) -> Result<Vec<(String, u64)>, String> {
    let mut rows = by_function_column(raw, elf, 2, name)?;
    rows.retain(|r| r.1 > 0);
    Ok(rows)
}

/// Column `col` (1: instructions, 2: miss cycles) of the plugin's lines, per function symbol
/// named by `name`.
fn by_function_column(
    raw: &str,
    elf: &Elf<'_>,
    col: usize,
    name: impl Fn(&str) -> String,
) -> Result<Vec<(String, u64)>, String> {
    let mut functions = elf.functions().map_err(|e| e.to_string())?;
    functions.sort_by_key(|f| f.0);
    let mut totals: HashMap<String, u64> = HashMap::new();
    for line in raw.lines() {
        let parts: Vec<&str> = line.split_whitespace().collect();
        let (Some(addr), Some(_)) = (parts.first(), parts.get(1)) else {
            continue;
        };
        let count = parts.get(col).copied().unwrap_or("0");
        let addr = addr
            .strip_prefix("0x")
            .and_then(|h| u32::from_str_radix(h, 16).ok())
            .ok_or_else(|| format!("bad profile line {line:?}"))?;
        let count: u64 = count
            .parse()
            .map_err(|_| format!("bad profile line {line:?}"))?;
        let i = functions.partition_point(|f| f.0 <= addr);
        let name = match i.checked_sub(1).map(|i| &functions[i]) {
            Some((start, size, sym)) if addr < start.saturating_add((*size).max(1)) => name(sym),
            _ => format!("{addr:#010x} (no symbol)"),
        };
        *totals.entry(name).or_insert(0) += count;
    }
    let mut out: Vec<(String, u64)> = totals.into_iter().collect();
    out.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    Ok(out)
}

/// The report: one line per function (instructions, share, cumulative share, name).
pub fn render(rows: &[(String, u64)], exact_total: u64, header: &str) -> String {
    let total: u64 = rows.iter().map(|r| r.1).sum();
    let mut s = format!(
        "# {header}\n# block-profile total {total} (exact count of the same regions: {exact_total})\n"
    );
    let mut cumulative = 0u64;
    for (name, n) in rows {
        cumulative += n;
        s.push_str(&format!(
            "{n:>12} {:>6.2}% {:>6.2}%  {name}\n",
            100.0 * *n as f64 / total.max(1) as f64,
            100.0 * cumulative as f64 / total.max(1) as f64
        ));
    }
    s
}

/// Rust symbol demangling: legacy (`_ZN` length-prefixed path `E`, hash segment dropped)
/// here, v0 (`_R`, with its generic arguments, without crate disambiguators) by
/// `rustc-demangle`'s alternate form; anything else is returned as is.
pub fn demangle(sym: &str) -> String {
    if sym.starts_with("_R") {
        return rustc_demangle::try_demangle(sym).map_or(sym.to_string(), |d| format!("{d:#}"));
    }
    let Some(body) = sym.strip_prefix("_ZN") else {
        return sym.to_string();
    };
    let mut rest = body;
    let mut parts: Vec<String> = Vec::new();
    while let Some(len_end) = rest.find(|c: char| !c.is_ascii_digit()) {
        if len_end == 0 {
            break;
        }
        let Ok(len) = rest[..len_end].parse::<usize>() else {
            break;
        };
        let Some(part) = rest.get(len_end..len_end + len) else {
            break;
        };
        parts.push(part.to_string());
        rest = &rest[len_end + len..];
    }
    if rest != "E" || parts.is_empty() {
        return sym.to_string();
    }
    if parts.len() > 1 {
        let last = parts.last().expect("non-empty");
        if last.len() == 17 && last.starts_with('h') {
            parts.pop();
        }
    }
    let unescape = |p: &str| -> String {
        let p = p
            .strip_prefix("_$")
            .map_or(p.to_string(), |r| format!("${r}"));
        p.replace("$LT$", "<")
            .replace("$GT$", ">")
            .replace("$RF$", "&")
            .replace("$BP$", "*")
            .replace("$C$", ",")
            .replace("$u20$", " ")
            .replace("$u27$", "'")
            .replace("$u5b$", "[")
            .replace("$u5d$", "]")
            .replace("$u7b$", "{")
            .replace("$u7d$", "}")
            .replace("$u3b$", ";")
            .replace("$u2b$", "+")
            .replace("$u22$", "\"")
            .replace("..", "::")
    };
    parts
        .iter()
        .map(|p| unescape(p))
        .collect::<Vec<_>>()
        .join("::")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn demangles_legacy_rust_symbols() {
        assert_eq!(
            demangle("_ZN11winter_math3fft10fft_inputs12fft_in_place17h9c8bfe97cf58f9f3E"),
            "winter_math::fft::fft_inputs::fft_in_place"
        );
        assert_eq!(
            demangle("_ZN72_$LT$winter_math..fields..f64..BaseElement$u20$as$u20$core..ops..Mul$GT$3mul17h0123456789abcdefE"),
            "<winter_math::fields::f64::BaseElement as core::ops::Mul>::mul"
        );
        assert_eq!(demangle("memcpy"), "memcpy");
        assert_eq!(
            demangle("_RINvCs6xxl1lAjzDf_1a1gINtB2_1WhKj3_EEB2_"),
            "a::g::<a::W<u8, 3>>"
        );
        assert_eq!(demangle("_ZN3fooX"), "_ZN3fooX");
    }

    #[test]
    fn instructions_and_miss_cycles_are_charged_by_function() {
        use crate::elf::tests::typed_elf;
        use crate::elf::EM_ARM;
        let elf = typed_elf(
            EM_ARM,
            0x1000_0000,
            &[(0x1000_0000, &[0u8; 64])],
            &[("f", 0x1000_0000, 16, 2), ("g", 0x1000_0020, 16, 2)],
        );
        let e = Elf::parse(&elf).unwrap();
        let raw = "0x10000000 10 7\n0x10000008 5\n0x10000020 3 2\n0x10000030 1 9\n";
        let f = |s: &str| s.to_string();
        assert_eq!(
            by_function(raw, &e).unwrap(),
            [(f("f"), 15), (f("g"), 3), (f("0x10000030 (no symbol)"), 1)]
        );
        assert_eq!(
            misses_by_symbol(raw, &e).unwrap(),
            [(f("0x10000030 (no symbol)"), 9), (f("f"), 7), (f("g"), 2)]
        );
        assert_eq!(
            misses_by_function(raw, &e).unwrap(),
            misses_by_symbol(raw, &e).unwrap()
        );
        assert!(by_function("zz 1\n", &e).is_err());
    }
}

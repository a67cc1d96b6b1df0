//! `mcu-run hot-set`: the functions the profiles find hot, as the link-section patterns the
//! firmware's code placements (`place-xip-ordered`, `place-hot-sram`) lay out together.
//!
//! Inputs: instruction profiles (`mcu-run board --profile` or `mcu-run run --profile`:
//! executed instructions per function, names demangled without hash) of one or both cores,
//! and the firmware images (ELFs) the list is for: the functions' sizes, and `--budget` holds
//! in each image separately (a function an image lacks costs it nothing). A function's score is its share of its profile's instructions, averaged
//! over every profile given (both cores, every backend), so the set is one list for both cores
//! where the names agree. A profile's counts may be instructions or the XIP miss cycles the
//! model charged to each function (`NAME.misses.txt` of `mcu-run board --profile`): the
//! committed lists rank by miss cycles. Functions are taken by score per byte (bytes: the largest size in
//! any image), highest first, while every image's total stays within `--budget`. A name covers every instance the ELF has
//! of it (generic instances share the demangled name); its pattern is `.text.` and the
//! symbol with its legacy hash (`17h<16 hex>E`) or LLVM suffix (`.N`) replaced by `*`, which
//! is how `-ffunction-sections` names the function's input section.

use std::collections::{BTreeMap, BTreeSet};

use crate::elf::Elf;
use crate::profile::demangle;

/// The section glob of a function symbol (see the module docs).
pub fn pattern(sym: &str) -> String {
    let base = if sym.starts_with("_ZN") {
        // `..17h0123456789abcdefE` (and a possible LLVM suffix after it).
        match sym.rfind("17h") {
            Some(i) => &sym[..i + 3],
            None => sym,
        }
    } else {
        match sym.rfind('.') {
            Some(i) if sym[i + 1..].bytes().all(|b| b.is_ascii_digit()) && i + 1 < sym.len() => {
                &sym[..i]
            }
            _ => sym,
        }
    };
    format!(".text.{base}*")
}

/// One profile: `(instructions, name)` per line of `profile::render`'s output.
pub fn parse_profile(text: &str) -> Result<Vec<(u64, String)>, String> {
    let mut out = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let mut it = line.split_whitespace();
        let n: u64 = it
            .next()
            .and_then(|n| n.parse().ok())
            .ok_or_else(|| format!("bad profile line {line:?}"))?;
        // Two percentage columns, then the name (which may contain spaces).
        let name = line
            .split('%')
            .nth(2)
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .ok_or_else(|| format!("bad profile line {line:?}"))?;
        out.push((n, name.to_string()));
    }
    Ok(out)
}

/// A firmware's functions by demangled name (every instance: their patterns and total size)
/// and, where it differs, by symbol (that instance alone: the exact section `.text.SYMBOL`),
/// so a profile may name either.
pub fn functions_by_name(elf: &[u8]) -> Result<BTreeMap<String, (BTreeSet<String>, u64)>, String> {
    let e = Elf::parse(elf).map_err(|e| e.to_string())?;
    let mut out: BTreeMap<String, (BTreeSet<String>, u64)> = BTreeMap::new();
    for (_, size, sym) in e.functions().map_err(|e| e.to_string())? {
        let name = demangle(&sym);
        if name != sym {
            let exact = out.entry(sym.clone()).or_default();
            exact.0.insert(format!(".text.{sym}"));
            exact.1 += u64::from(size);
        }
        let entry = out.entry(name).or_default();
        entry.0.insert(pattern(&sym));
        entry.1 += u64::from(size);
    }
    Ok(out)
}

/// One chosen function.
#[derive(Clone, Debug, PartialEq)]
pub struct Hot {
    pub name: String,
    /// Mean share of the profiles' instructions (0..1).
    pub score: f64,
    /// Bytes on the core where it is largest.
    pub bytes: u64,
    pub patterns: BTreeSet<String>,
}

/// The hot set: `profiles` parsed, `cores` the functions of each image; at most `budget`
/// bytes in every image.
pub fn choose(
    profiles: &[Vec<(u64, String)>],
    cores: &[BTreeMap<String, (BTreeSet<String>, u64)>],
    budget: u64,
) -> Vec<Hot> {
    let mut score: BTreeMap<&str, f64> = BTreeMap::new();
    for rows in profiles {
        let total: u64 = rows.iter().map(|r| r.0).sum();
        for (n, name) in rows {
            *score.entry(name).or_default() +=
                *n as f64 / total.max(1) as f64 / profiles.len() as f64;
        }
    }
    let mut candidates: Vec<Hot> = score
        .into_iter()
        .filter_map(|(name, score)| {
            let found: Vec<_> = cores.iter().filter_map(|c| c.get(name)).collect();
            let bytes = found.iter().map(|f| f.1).max()?;
            (bytes > 0).then(|| Hot {
                name: name.to_string(),
                score,
                bytes,
                patterns: found.iter().flat_map(|f| f.0.iter().cloned()).collect(),
            })
        })
        .collect();
    candidates.sort_by(|a, b| {
        (b.score / b.bytes as f64)
            .total_cmp(&(a.score / a.bytes as f64))
            .then_with(|| a.name.cmp(&b.name))
    });
    let mut used = vec![0u64; cores.len()];
    let mut out = Vec::new();
    for h in candidates {
        let sizes: Vec<u64> = cores
            .iter()
            .map(|c| c.get(&h.name).map_or(0, |f| f.1))
            .collect();
        if used.iter().zip(&sizes).all(|(u, s)| u + s <= budget) {
            for (u, s) in used.iter_mut().zip(&sizes) {
                *u += s;
            }
            out.push(h);
        }
    }
    out
}

/// The committed list: a header saying how it was made, then one pattern per line with the
/// function's name, score and size as a comment.
pub fn render(hot: &[Hot], header: &str) -> String {
    let mut s = String::new();
    for line in header.lines() {
        s.push_str(&format!("# {line}\n"));
    }
    let covered: f64 = hot.iter().map(|h| h.score).sum();
    let bytes: u64 = hot.iter().map(|h| h.bytes).sum();
    s.push_str(&format!(
        "# {} functions, {:.1} % of the profiles' counts (mean), {bytes} B (sum of each \
         function's largest size over the images)\n",
        hot.len(),
        100.0 * covered
    ));
    for h in hot {
        for p in &h.patterns {
            s.push_str(&format!(
                "{p}  # {:.2} % {} B {}\n",
                100.0 * h.score,
                h.bytes,
                h.name
            ));
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_drop_the_hash_and_llvm_suffix() {
        assert_eq!(
            pattern("_ZN6blake38portable17compress_in_place17h0123456789abcdefE"),
            ".text._ZN6blake38portable17compress_in_place17h*"
        );
        assert_eq!(pattern("memcpy"), ".text.memcpy*");
        assert_eq!(
            pattern("_RNvNtCscB4ypgrvJIh_4core3fmt5write.124"),
            ".text._RNvNtCscB4ypgrvJIh_4core3fmt5write*"
        );
    }

    #[test]
    fn profiles_parse_and_the_budget_holds_on_every_core() {
        let text = "# header\n# total\n     600  60.00%  60.00%  a::b\n     300  30.00%  90.00%  <x as y>::z\n     100  10.00% 100.00%  c\n";
        let rows = parse_profile(text).unwrap();
        assert_eq!(rows[1], (300, "<x as y>::z".to_string()));
        assert!(parse_profile("12 x\n").is_err());
        let core = |sizes: &[(&str, u64)]| {
            sizes
                .iter()
                .map(|(n, b)| (n.to_string(), (BTreeSet::from([format!(".text.{n}*")]), *b)))
                .collect::<BTreeMap<_, _>>()
        };
        // a: 60 % in 600 B (0.1 %/B); <x as y>::z: 30 % in 100 B; c: 10 % in 50 B (0.2 %/B).
        let m33 = core(&[("a::b", 600), ("<x as y>::z", 100), ("c", 50)]);
        let rv32 = core(&[("a::b", 400), ("<x as y>::z", 200)]);
        let hot = choose(&[rows.clone(), rows], &[m33, rv32], 700);
        // Per image: the second image lacks c, so c costs it nothing.
        let names: Vec<&str> = hot.iter().map(|h| h.name.as_str()).collect();
        // c (0.2 %/B), z (0.15 %/B on the larger image); a::b would exceed 700 B in the first.
        assert_eq!(names, ["c", "<x as y>::z"]);
        assert_eq!(hot[1].bytes, 200);
        let text = render(&hot, "made by a test");
        assert!(text.starts_with("# made by a test\n"));
        assert!(text.contains(".text.c*  # 10.00 % 50 B c\n"));
    }
}

//! `mcu-run hot-set`: the functions the profiles find hot, as the link-section patterns the
//! firmware's code placements (`place-xip-ordered`, `place-hot-sram`) lay out together.
//!
//! Inputs: profiles (`mcu-run board --profile` or `mcu-run run --profile`: executed
//! instructions per function by demangled name, or the XIP miss cycles the model charged to
//! each function by symbol, `NAME.misses.txt`; the committed lists rank by miss cycles) of
//! one or both cores, and the firmware images (ELFs) the list is for, each with the backends
//! it verifies: the functions' sizes, and `--budget` holds in each image separately (a
//! function an image lacks costs it nothing).
//!
//! Functions are grouped by their link-section pattern (`hot_list::pattern`: the path
//! without the symbol hash, so the list survives a rebuild and is one list for both cores).
//! A pattern covers every generic instance of its path and costs each image the bytes of all
//! the instances it has. Its score is its share of each profile's counts, averaged over every
//! profile given; patterns are taken by score per byte (bytes: the largest total in any
//! image), highest first, while every image's total stays within `--budget`. The list
//! records each image's total (`#@` lines), which `build.rs` checks at link time.

use std::collections::BTreeMap;

use crate::elf::Elf;
use crate::hot_list::{expected_bytes, glob, pattern, patterns, Expect};
use crate::profile::demangle;

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

/// One image's functions: bytes by pattern, the patterns of each demangled name (a profile
/// may name a function either way), and the image's core and backends.
#[derive(Debug, Default)]
pub struct Image {
    pub bytes: BTreeMap<String, u64>,
    pub names: BTreeMap<String, String>,
    /// `m33` or `rv32`.
    pub core: String,
    pub backends: Vec<String>,
    /// Every function symbol (`.text.SYMBOL` is its input section) and its size.
    pub symbols: Vec<(String, u64)>,
}

impl Image {
    pub fn parse(elf: &[u8], backends: &[&str]) -> Result<Self, String> {
        let e = Elf::parse(elf).map_err(|e| e.to_string())?;
        let core = match e.machine {
            40 => "m33",
            243 => "rv32",
            m => return Err(format!("e_machine {m} is neither Arm nor RISC-V")),
        };
        let mut backends: Vec<String> = backends.iter().map(|b| b.to_string()).collect();
        backends.sort();
        let mut image = Image {
            core: core.into(),
            backends,
            ..Image::default()
        };
        for (_, size, sym) in e.functions().map_err(|e| e.to_string())? {
            image.add(&sym, u64::from(size));
        }
        Ok(image)
    }

    /// One function symbol of `size` bytes.
    pub fn add(&mut self, sym: &str, size: u64) {
        self.symbols.push((sym.to_string(), size));
        let p = pattern(sym);
        *self.bytes.entry(p.clone()).or_default() += size;
        self.names.insert(demangle(sym), p);
    }

    /// The pattern a profile's name stands for: a symbol's own, or a demangled name's.
    fn pattern_of(&self, name: &str) -> Option<String> {
        let p = pattern(name);
        if self.bytes.contains_key(&p) {
            return Some(p);
        }
        self.names.get(name).cloned()
    }
}

/// One chosen pattern.
#[derive(Clone, Debug, PartialEq)]
pub struct Hot {
    pub pattern: String,
    /// A name it covers (demangled), for the reader.
    pub name: String,
    /// Mean share of the profiles' counts (0..1).
    pub score: f64,
    /// Bytes in the image where it is largest.
    pub bytes: u64,
}

/// The hot set: `profiles` parsed, `images` the functions of each image; at most `budget`
/// bytes in every image. Also each image's total.
pub fn choose(
    profiles: &[Vec<(u64, String)>],
    images: &[Image],
    budget: u64,
) -> (Vec<Hot>, Vec<Expect>) {
    let mut score: BTreeMap<String, (f64, String)> = BTreeMap::new();
    for rows in profiles {
        let total: u64 = rows.iter().map(|r| r.0).sum();
        for (n, name) in rows {
            let Some(p) = images.iter().find_map(|i| i.pattern_of(name)) else {
                continue;
            };
            let e = score.entry(p).or_insert_with(|| (0.0, demangle(name)));
            e.0 += *n as f64 / total.max(1) as f64 / profiles.len() as f64;
        }
    }
    let mut candidates: Vec<Hot> = score
        .into_iter()
        .filter_map(|(pattern, (score, name))| {
            let bytes = images
                .iter()
                .filter_map(|i| i.bytes.get(&pattern))
                .max()
                .copied()?;
            (bytes > 0).then_some(Hot {
                pattern,
                name,
                score,
                bytes,
            })
        })
        .collect();
    candidates.sort_by(|a, b| {
        (b.score / b.bytes as f64)
            .total_cmp(&(a.score / a.bytes as f64))
            .then_with(|| a.pattern.cmp(&b.pattern))
    });
    let mut used = vec![0u64; images.len()];
    let mut out = Vec::new();
    for h in candidates {
        let sizes: Vec<u64> = images
            .iter()
            .map(|i| i.bytes.get(&h.pattern).copied().unwrap_or(0))
            .collect();
        if used.iter().zip(&sizes).all(|(u, s)| u + s <= budget) {
            for (u, s) in used.iter_mut().zip(&sizes) {
                *u += s;
            }
            out.push(h);
        }
    }
    let expect = images
        .iter()
        .zip(used)
        .map(|(i, bytes)| Expect {
            core: i.core.clone(),
            backends: i.backends.clone(),
            bytes,
        })
        .collect();
    (out, expect)
}

/// The committed list: a header saying how it was made, each image's total (`#@`), then one
/// pattern per line with the function's name, score and size as a comment.
pub fn render(hot: &[Hot], expect: &[Expect], header: &str) -> String {
    let mut s = String::new();
    for line in header.lines() {
        s.push_str(&format!("# {line}\n"));
    }
    let covered: f64 = hot.iter().map(|h| h.score).sum();
    let bytes: u64 = hot.iter().map(|h| h.bytes).sum();
    s.push_str(&format!(
        "# {} patterns, {:.1} % of the profiles' counts (mean), {bytes} B (sum of each \
         pattern's largest size over the images)\n\
         # Bytes matched in each image (build.rs fails a link that places less than half):\n",
        hot.len(),
        100.0 * covered
    ));
    for e in expect {
        s.push_str(&e.line());
        s.push('\n');
    }
    for h in hot {
        s.push_str(&format!(
            "{}  # {:.2} % {} B {}\n",
            h.pattern,
            100.0 * h.score,
            h.bytes,
            h.name
        ));
    }
    s
}

/// Reads a rendered list back as `build.rs` does and checks it against the images: the
/// linker's globs take exactly the bytes the `#@` line of each image says (so the grouping
/// by pattern and the link agree).
pub fn verify(list: &str, images: &[Image]) -> Result<(), String> {
    let pats = patterns(list);
    for i in images {
        let backends: Vec<&str> = i.backends.iter().map(String::as_str).collect();
        let want = expected_bytes(list, &i.core, &backends)?
            .filter(|e| e.backends == i.backends)
            .ok_or_else(|| format!("no `#@ {} {}` line", i.core, backends.join(",")))?;
        let mut matched = 0;
        let mut strays = Vec::new();
        for (sym, size) in &i.symbols {
            let section = format!(".text.{sym}");
            if pats.iter().any(|p| glob(p, &section)) {
                matched += size;
                if !pats.contains(&pattern(sym).as_str()) {
                    strays.push(sym.as_str());
                }
            }
        }
        if matched != want.bytes {
            return Err(format!(
                "the list's globs match {matched} B of the {} image of {}, its `#@` line says {} \
                 (taken by another function's pattern: {strays:?})",
                i.core,
                backends.join(","),
                want.bytes
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: &str = "_ZN1x1a17h0000000000000001E";
    const Z: &str = "_ZN29_$LT$x..X$u20$as$u20$y..Y$GT$1z17h0000000000000002E";

    fn image(core: &str, backends: &[&str], syms: &[(&str, u64)]) -> Image {
        let mut i = Image {
            core: core.into(),
            backends: backends.iter().map(|b| b.to_string()).collect(),
            ..Image::default()
        };
        for (s, b) in syms {
            i.add(s, *b);
        }
        i
    }

    fn m33_again() -> Image {
        image("m33", &["wf-goldilocks"], &[(A, 600), (Z, 100), ("c", 50)])
    }

    #[test]
    fn profiles_parse_and_the_budget_holds_on_every_core() {
        let text = "# header\n# total\n     600  60.00%  60.00%  x::a\n     300  30.00%  90.00%  <x::X as y::Y>::z\n     100  10.00% 100.00%  c\n";
        let rows = parse_profile(text).unwrap();
        assert_eq!(rows[1], (300, "<x::X as y::Y>::z".to_string()));
        assert!(parse_profile("12 x\n").is_err());
        // x::a: 60 % in 600 B (0.1 %/B); z: 30 % in 200 B at most; c: 10 % in 50 B (0.2 %/B).
        let m33 = image("m33", &["wf-goldilocks"], &[(A, 600), (Z, 100), ("c", 50)]);
        // Another core: other hashes, the same paths.
        let rv32 = image(
            "rv32",
            &["wf-goldilocks"],
            &[
                ("_ZN1x1a17h00000000000000a1E", 400),
                (&Z.replace("02E", "b2E"), 200),
            ],
        );
        let (hot, expect) = choose(&[rows.clone(), rows], &[m33, rv32], 700);
        // Per image: the second image lacks c, so c costs it nothing; x::a would exceed 700 B
        // in the first.
        let names: Vec<&str> = hot.iter().map(|h| h.name.as_str()).collect();
        assert_eq!(names, ["c", "<x::X as y::Y>::z"]);
        assert_eq!(hot[1].bytes, 200);
        assert_eq!(expect[0].bytes, 150);
        assert_eq!(expect[1].bytes, 200);
        let text = render(&hot, &expect, "made by a test");
        assert!(text.starts_with("# made by a test\n"));
        assert!(text.contains(".text.c  # 10.00 % 50 B c\n"));
        assert!(text.contains("\n#@ m33 wf-goldilocks 150\n#@ rv32 wf-goldilocks 200\n"));
        let e = expected_bytes(&text, "rv32", &["wf-goldilocks"])
            .unwrap()
            .unwrap();
        assert_eq!(e.bytes, 200);
        assert_eq!(patterns(&text).len(), 2);
        verify(&text, &[m33_again()]).unwrap();
        // A list whose figure disagrees with what its globs take is refused.
        let wrong = text.replace("#@ m33 wf-goldilocks 150", "#@ m33 wf-goldilocks 151");
        assert!(verify(&wrong, &[m33_again()]).is_err());
    }

    #[test]
    fn a_list_from_one_build_matches_the_next() {
        // A miss profile names symbols with the hashes of the build it ran; the next build
        // (a crate moved) has other hashes and a second generic instance of x::a.
        let old = image("m33", &["p3-babybear"], &[(A, 100), (Z, 40)]);
        let misses = vec![(900, A.to_string()), (100, Z.to_string())];
        let (hot, _) = choose(&[misses], &[old], 1000);
        let list = render(&hot, &[], "test");
        let next = [
            ("_ZN1x1a17h1111111111111111E", 100),
            ("_ZN1x1a17h2222222222222222E", 120),
            ("_ZN1x1b17h3333333333333333E", 500),
        ];
        let placed: u64 = next
            .iter()
            .filter(|(s, _)| {
                patterns(&list)
                    .iter()
                    .any(|p| glob(p, &format!(".text.{s}")))
            })
            .map(|s| s.1)
            .sum();
        assert_eq!(placed, 220, "both instances of x::a, not x::b");
        // Profiles by demangled name find the same pattern as by symbol.
        let img = image("m33", &["p3-babybear"], &[(A, 100)]);
        assert_eq!(img.pattern_of("x::a"), img.pattern_of(A));
        assert_eq!(img.pattern_of("nowhere"), None);
    }
}

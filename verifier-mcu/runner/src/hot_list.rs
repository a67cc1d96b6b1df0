//! The hot-set list format (`verifier-mcu/firmware/link/hot-set*.txt`): written by
//! `mcu-run hot-set` (`hot_set.rs`), read by the firmware's `build.rs`, which includes this
//! file with `#[path]` (so it uses `std` only).
//!
//! A list holds one link-section glob per line (the first word; `#` starts a comment) and
//! lines `#@ CORE BACKENDS BYTES`: the bytes the list's patterns matched in an image of that
//! core (`m33`, `rv32`) verifying those backends (feature names, comma-separated) when the
//! list was made.
//!
//! The patterns name a function by what survives a rebuild ([`pattern`]): its path (legacy
//! mangling: the path of the function, with the `Self` type and trait of an impl) without
//! the symbol hash (`17h<16 hex>E`, which changes when a crate moves or a dependency
//! changes, and differs between the cores), and for `v0` symbols without the crate
//! disambiguators (`Cs<base-62>_`). Legacy names carry no generic arguments, so a pattern
//! covers every generic instance of its path; `mcu-run hot-set` charges each pattern the
//! bytes of all the instances an image has. A list can still go stale (a function renamed
//! or moved to another module): `build.rs` asserts at link time that the hot section holds
//! at least half of [`expected_bytes`] for the build, so a stale list fails the build
//! instead of silently placing a fraction of the set.

/// The link-section glob of a function symbol: `.text.` and the symbol with its hash
/// replaced by `?`s (legacy) or its crate disambiguators by `*` (v0), with `*` at the end
/// for an LLVM suffix (`.llvm.N`, `.N`); a plain name as it is (`.*` for a suffix).
pub fn pattern(sym: &str) -> String {
    let base = strip_llvm_suffix(sym);
    if base.starts_with("_ZN") {
        if let Some(i) = legacy_hash_at(base) {
            return format!(".text.{}17h????????????????E*", &base[..i]);
        }
    } else if base.starts_with("_R") {
        return format!(".text.{}*", without_disambiguators(base));
    }
    // A plain (C) name as it is: `memmove*` would also take `__aeabi_memmove8`'s section.
    if base.len() < sym.len() {
        format!(".text.{base}.*")
    } else {
        format!(".text.{base}")
    }
}

/// `sym` without a trailing `.` + digits or `.llvm.` + digits (LLVM's local-symbol suffixes).
fn strip_llvm_suffix(sym: &str) -> &str {
    let mut s = sym;
    if let Some(i) = s.rfind('.') {
        let tail = &s[i + 1..];
        if !tail.is_empty() && tail.bytes().all(|b| b.is_ascii_digit()) {
            s = &s[..i];
            if let Some(head) = s.strip_suffix(".llvm") {
                s = head;
            }
        }
    }
    s
}

/// Where a legacy symbol's hash component (`17h` + 16 hex digits + the closing `E`) starts,
/// if it ends with one.
fn legacy_hash_at(sym: &str) -> Option<usize> {
    let i = sym.len().checked_sub(20)?;
    let tail = sym.get(i..)?;
    let hex = tail.strip_prefix("17h")?.strip_suffix('E')?;
    (hex.len() == 16 && hex.bytes().all(|b| b.is_ascii_hexdigit())).then_some(i)
}

/// A v0 symbol with what changes when a crate moves or a dependency changes replaced by
/// `*`: each crate root's disambiguator (`Cs<base-62>_`, a hash of the crate's metadata) and
/// each back-reference's offset (`B<base-62>_`, which moves when a disambiguator's length
/// does). Generic arguments, impl and closure disambiguators (small indices) stay. A symbol
/// the walk does not understand keeps everything but its crate disambiguators.
fn without_disambiguators(sym: &str) -> String {
    let mut v = V0 {
        s: sym.as_bytes(),
        i: 2,
        out: String::from("_R"),
    };
    let walked = (|| {
        if v.peek()?.is_ascii_digit() {
            v.decimal()?; // encoding version
        }
        v.path()?;
        if v.i < v.s.len() {
            v.path()?; // instantiating crate
        }
        (v.i == v.s.len()).then_some(())
    })();
    if walked.is_some() {
        return v.out;
    }
    // Fallback: crate roots only, by their shape (`Cs`, base-62, `_`, then a digit).
    let b = sym.as_bytes();
    let mut out = String::with_capacity(sym.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'C' && b.get(i + 1) == Some(&b's') {
            let mut j = i + 2;
            while j < b.len() && b[j].is_ascii_alphanumeric() {
                j += 1;
            }
            if b.get(j) == Some(&b'_') && b.get(j + 1).is_some_and(u8::is_ascii_digit) {
                out.push_str("Cs*_");
                i = j + 1;
                continue;
            }
        }
        out.push(b[i] as char);
        i += 1;
    }
    out
}

/// A walk over a v0 symbol (the grammar of rustc's v0 mangling, RFC 2603) that copies it
/// to `out`, wildcarding crate disambiguators and back-reference offsets.
struct V0<'a> {
    s: &'a [u8],
    i: usize,
    out: String,
}

impl V0<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn take(&mut self) -> Option<u8> {
        let c = self.peek()?;
        self.i += 1;
        self.out.push(c as char);
        Some(c)
    }

    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.take();
            true
        } else {
            false
        }
    }

    /// `{0-9a-zA-Z} "_"`, copied or (`wild`) replaced by `*_`.
    fn base62(&mut self, wild: bool) -> Option<()> {
        let start = self.i;
        while self.peek()?.is_ascii_alphanumeric() {
            self.i += 1;
        }
        if self.peek()? != b'_' {
            return None;
        }
        if wild {
            self.out.push('*');
        } else {
            self.out
                .push_str(std::str::from_utf8(&self.s[start..self.i]).ok()?);
        }
        self.take().map(drop)
    }

    fn decimal(&mut self) -> Option<usize> {
        let start = self.i;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.take();
        }
        std::str::from_utf8(&self.s[start..self.i])
            .ok()?
            .parse()
            .ok()
    }

    /// `[disambiguator] ["u"] decimal ["_"] bytes`; a crate root's disambiguator is wild.
    fn identifier(&mut self, crate_root: bool) -> Option<()> {
        if self.eat(b's') {
            self.base62(crate_root)?;
        }
        self.eat(b'u');
        let len = self.decimal()?;
        self.eat(b'_');
        for _ in 0..len {
            self.take()?;
        }
        Some(())
    }

    fn backref(&mut self) -> Option<()> {
        self.base62(true)
    }

    fn path(&mut self) -> Option<()> {
        match self.take()? {
            b'C' => self.identifier(true),
            b'M' => {
                self.impl_path()?;
                self.ty()
            }
            b'X' => {
                self.impl_path()?;
                self.ty()?;
                self.path()
            }
            b'Y' => {
                self.ty()?;
                self.path()
            }
            b'N' => {
                if !self.take()?.is_ascii_alphabetic() {
                    return None;
                }
                self.path()?;
                self.identifier(false)
            }
            b'I' => {
                self.path()?;
                while !self.eat(b'E') {
                    self.generic_arg()?;
                }
                Some(())
            }
            b'B' => self.backref(),
            _ => None,
        }
    }

    fn impl_path(&mut self) -> Option<()> {
        if self.eat(b's') {
            self.base62(false)?;
        }
        self.path()
    }

    fn generic_arg(&mut self) -> Option<()> {
        if self.eat(b'L') {
            return self.base62(false);
        }
        if self.eat(b'K') {
            return self.konst();
        }
        self.ty()
    }

    fn konst(&mut self) -> Option<()> {
        if self.eat(b'p') {
            return Some(());
        }
        if self.eat(b'B') {
            return self.backref();
        }
        self.ty()?;
        self.eat(b'n');
        while self.peek()?.is_ascii_hexdigit() {
            self.take();
        }
        self.take().filter(|&c| c == b'_').map(drop)
    }

    fn lifetime(&mut self) -> Option<()> {
        if self.eat(b'L') {
            self.base62(false)?;
        }
        Some(())
    }

    fn binder(&mut self) -> Option<()> {
        if self.eat(b'G') {
            self.base62(false)?;
        }
        Some(())
    }

    fn ty(&mut self) -> Option<()> {
        match self.peek()? {
            b'a'..=b'z' => self.take().map(drop),
            b'A' => {
                self.take();
                self.ty()?;
                self.konst()
            }
            b'S' | b'P' | b'O' => {
                self.take();
                self.ty()
            }
            b'R' | b'Q' => {
                self.take();
                self.lifetime()?;
                self.ty()
            }
            b'T' => {
                self.take();
                while !self.eat(b'E') {
                    self.ty()?;
                }
                Some(())
            }
            b'F' => {
                self.take();
                self.binder()?;
                self.eat(b'U');
                if self.eat(b'K') && !self.eat(b'C') {
                    self.identifier(false)?;
                }
                while !self.eat(b'E') {
                    self.ty()?;
                }
                self.ty()
            }
            b'D' => {
                self.take();
                self.binder()?;
                while !self.eat(b'E') {
                    self.path()?;
                    while self.eat(b'p') {
                        self.identifier(false)?;
                        self.ty()?;
                    }
                }
                self.lifetime()
            }
            _ => self.path(),
        }
    }
}

/// Whether `text` matches the glob `pat` as the linker reads a section pattern: `*` any run
/// of characters, `?` one character, anything else itself.
pub fn glob(pat: &str, text: &str) -> bool {
    let (p, t) = (pat.as_bytes(), text.as_bytes());
    let (mut pi, mut ti) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() && (p[pi] == b'?' || p[pi] == t[ti]) {
            pi += 1;
            ti += 1;
        } else if pi < p.len() && p[pi] == b'*' {
            star = Some((pi, ti));
            pi += 1;
        } else if let Some((sp, st)) = star {
            pi = sp + 1;
            ti = st + 1;
            star = Some((sp, st + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == b'*')
}

/// The list's patterns: the first word of every line that is not empty or a comment.
pub fn patterns(list: &str) -> Vec<&str> {
    list.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split_whitespace().next())
        .collect()
}

/// One `#@` line: what the list matched in one image when it was made.
#[derive(Clone, Debug, PartialEq)]
pub struct Expect {
    /// `m33` or `rv32`.
    pub core: String,
    /// The backends the image verifies (firmware feature names), sorted.
    pub backends: Vec<String>,
    /// Bytes of the image's functions the patterns matched.
    pub bytes: u64,
}

impl Expect {
    /// The list line.
    pub fn line(&self) -> String {
        format!(
            "#@ {} {} {}",
            self.core,
            self.backends.join(","),
            self.bytes
        )
    }
}

/// The list's `#@` lines.
pub fn expectations(list: &str) -> Result<Vec<Expect>, String> {
    let mut out = Vec::new();
    for line in list.lines().filter_map(|l| l.trim().strip_prefix("#@")) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let bad = || format!("bad `#@ CORE BACKENDS BYTES` line {line:?}");
        let [core, backends, bytes] = words[..] else {
            return Err(bad());
        };
        if core != "m33" && core != "rv32" {
            return Err(bad());
        }
        let mut backends: Vec<String> = backends.split(',').map(str::to_string).collect();
        backends.sort();
        out.push(Expect {
            core: core.to_string(),
            backends,
            bytes: bytes.parse().map_err(|_| bad())?,
        });
    }
    Ok(out)
}

/// What a build of `core` verifying the backends `enabled` should place at least: the
/// largest `#@` figure of that core whose backends the build all has (an image with more
/// backends holds at least their functions), and its line. `None` when no line applies.
pub fn expected_bytes(list: &str, core: &str, enabled: &[&str]) -> Result<Option<Expect>, String> {
    Ok(expectations(list)?
        .into_iter()
        .filter(|e| e.core == core && e.backends.iter().all(|b| enabled.contains(&b.as_str())))
        .max_by_key(|e| e.bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One function's symbol as the list of commit 2fd271e names it, and the same path with
    /// another hash, as a rebuild after a crate move gives it.
    const BEFORE: &str = "_ZN17picostark_plonky34lean6reader4word17hd28fb0902a461402E";
    const AFTER: &str = "_ZN17picostark_plonky34lean6reader4word17h0c1e2f3a4b5c6d7eE";

    #[test]
    fn a_pattern_survives_a_rebuild_and_names_one_path() {
        let p = pattern(BEFORE);
        assert_eq!(
            p,
            ".text._ZN17picostark_plonky34lean6reader4word17h????????????????E*"
        );
        assert_eq!(pattern(AFTER), p);
        assert!(glob(&p, &format!(".text.{BEFORE}")));
        assert!(glob(&p, &format!(".text.{AFTER}")));
        assert!(glob(&p, &format!(".text.{AFTER}.llvm.1234")));
        // Another path that starts the same is not taken.
        assert!(!glob(
            &p,
            ".text._ZN17picostark_plonky34lean6reader5words17h0c1e2f3a4b5c6d7eE"
        ));
        assert!(!glob(
            &p,
            ".text._ZN17picostark_plonky34lean6reader4word5inner17h0c1e2f3a4b5c6d7eE"
        ));
        // A trait impl keeps its Self type and trait.
        let q = pattern("_ZN92_$LT$picostark_winterfell..field..quartic..Quartic$u20$as$u20$winter_utils..Randomizable$GT$17from_random_bytes17h914e9a5e96cc2b8bE.llvm.77");
        assert!(q.contains("Quartic$u20$as$u20$winter_utils..Randomizable"));
        assert!(!glob(&q, ".text._ZN92_$LT$picostark_winterfell..field..quintic..Quintic$u20$as$u20$winter_utils..Randomizable$GT$17from_random_bytes17h914e9a5e96cc2b8bE"));
    }

    #[test]
    fn v0_and_plain_symbols() {
        let p = pattern("_RNvNtCsjExpU34NpHf_17compiler_builtins3mem6memcpy");
        assert_eq!(p, ".text._RNvNtCs*_17compiler_builtins3mem6memcpy*");
        assert!(glob(
            &p,
            ".text._RNvNtCs9zZ1_17compiler_builtins3mem6memcpy"
        ));
        assert!(!glob(
            &p,
            ".text._RNvNtCs9zZ1_17compiler_builtins3mem7memmove"
        ));
        assert_eq!(
            pattern("_RNvNtCscB4ypgrvJIh_4core3fmt5write.124"),
            ".text._RNvNtCs*_4core3fmt5write*"
        );
        assert_eq!(pattern("memcpy"), ".text.memcpy");
        assert_eq!(pattern("memcpy.3"), ".text.memcpy.*");
        assert!(!glob(&pattern("__aeabi_memmove"), ".text.__aeabi_memmove8"));
        // No hash where one is expected: the symbol stays whole.
        assert_eq!(pattern("_ZN3foo3barE"), ".text._ZN3foo3barE");
    }

    /// v0 symbols rustc 1.95 gave a test program (`-C symbol-mangling-version=v0`): a generic
    /// function's instances, a trait impl's method on two instances, a closure in std with
    /// a backref-heavy path, a `dyn` argument.
    const V0: [&str; 6] = [
        "_RINvCs6xxl1lAjzDf_1a1gINtB2_1WhKj3_EEB2_",
        "_RINvCs6xxl1lAjzDf_1a1gINtB2_1WtKj5_EEB2_",
        "_RNvXCs6xxl1lAjzDf_1aINtB2_1WhKj3_ENtB2_2Tr1mB2_",
        "_RINvCs6xxl1lAjzDf_1a1gDNtB2_2TrEL_EB2_",
        "_RNCINvMs0_NtNtCsjrHSEGnQ3l9_3std4sync4onceNtB8_4Once15call_once_forceNCINvMNtBa_9once_lockINtB1b_8OnceLockINtNtBa_14reentrant_lock13ReentrantLockINtNtCsgEmfK2I1SDS_4core4cell7RefCellINtNtNtNtBc_2io8buffered10linewriter10LineWriterNtNtB31_5stdio9StdoutRawEEEE10initializeNCINvB1a_11get_or_initNCNvB3I_6stdout0E0zE0E0Bc_",
        "_RNSNvYNCINvNtCsjrHSEGnQ3l9_3std2rt10lang_startuE0INtNtNtCsgEmfK2I1SDS_4core3ops8function6FnOnceuE9call_once6vtableCs6xxl1lAjzDf_1a",
    ];

    #[test]
    fn v0_patterns_keep_generic_arguments_and_survive_new_disambiguators() {
        let p: Vec<String> = V0.iter().map(|s| pattern(s)).collect();
        assert_eq!(p[0], ".text._RINvCs*_1a1gINtB*_1WhKj3_EEB*_*");
        assert_eq!(p[2], ".text._RNvXCs*_1aINtB*_1WhKj3_ENtB*_2Tr1mB*_*");
        // Every backref and crate hash was found (the walk understood the symbol).
        for (sym, pat) in V0.iter().zip(&p) {
            assert!(glob(pat, &format!(".text.{sym}")), "{pat}");
            assert!(!pat.contains("Cs6x") && !pat.contains("B2_") && !pat.contains("B1a_"));
        }
        // Two instances of one function stay apart.
        assert_ne!(p[0], p[1]);
        assert!(!glob(&p[0], &format!(".text.{}", V0[1])));
        // The crate rebuilt elsewhere: a shorter disambiguator moves the backrefs.
        let rebuilt = "_RINvCsQ1_1a1gINtB9_1WhKj3_EEB9_";
        assert_eq!(pattern(rebuilt), p[0]);
        assert!(glob(&p[0], &format!(".text.{rebuilt}.llvm.42")));
    }

    #[test]
    fn globs() {
        assert!(glob("a*b?d", "aXXbcd"));
        assert!(glob("*", ""));
        assert!(!glob("a?", "a"));
        assert!(!glob("abc", "abcd"));
        assert!(glob("a*c*", "abcbc"));
    }

    #[test]
    fn expectations_pick_the_largest_image_the_build_covers() {
        let list = "# made by a test\n#@ m33 wf-goldilocks 30000\n#@ rv32 wf-goldilocks 29000\n\
                    #@ m33 p3-babybear 28000\n#@ m33 p3-babybear,wf-goldilocks 31000\n\
                    .text.a*  # 1 %\n\n.text.b*\n";
        assert_eq!(patterns(list), [".text.a*", ".text.b*"]);
        let e = |core, b: &[&str]| expected_bytes(list, core, b).unwrap().map(|e| e.bytes);
        assert_eq!(e("m33", &["wf-goldilocks"]), Some(30000));
        assert_eq!(e("rv32", &["wf-goldilocks"]), Some(29000));
        assert_eq!(e("m33", &["wf-goldilocks", "p3-babybear"]), Some(31000));
        assert_eq!(e("m33", &["p3-m31"]), None);
        assert_eq!(e("rv32", &["p3-babybear"]), None);
        let x = &expectations(list).unwrap()[3];
        assert_eq!(x.line(), "#@ m33 p3-babybear,wf-goldilocks 31000");
        assert!(expectations("#@ m33 wf-goldilocks\n").is_err());
        assert!(expectations("#@ m0 wf-goldilocks 1\n").is_err());
        assert!(expectations("#@ m33 wf-goldilocks many\n").is_err());
    }
}

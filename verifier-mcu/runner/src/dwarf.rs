//! Function names and inlined copies from an image's DWARF, for the timing model's board
//! layout (`mcu-run run --layout-elf`, `qemu::layout_map`).
//!
//! The board image inlines some functions that the QEMU image keeps out of line (in the
//! stock window mostly `winter_math::polynom::eval`), so the board's symbol table has no
//! address for them; its `DW_TAG_inlined_subroutine` entries do. Names are DWARF names
//! qualified by their namespaces, generic arguments included
//! (`winter_math::polynom::eval<...QuadExtension<...>, ...>`): two builds of the same source
//! give the same name where the mangled symbols differ by their hashes.

use std::collections::HashMap;

use gimli::{AttributeValue, EndianSlice, LittleEndian, Unit};
use object::{Object, ObjectSection};

type Reader<'a> = EndianSlice<'a, LittleEndian>;

/// One inlined copy of a function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InlinedCopy {
    /// The inlined function's qualified name.
    pub name: String,
    /// The scopes it sits in, innermost first: the functions it was inlined into, through
    /// any inlined copies, up to the out-of-line function that holds the code.
    pub callers: Vec<String>,
    /// Its code, sorted, half-open.
    pub ranges: Vec<(u32, u32)>,
}

impl InlinedCopy {
    pub fn bytes(&self) -> u64 {
        self.ranges.iter().map(|&(lo, hi)| u64::from(hi - lo)).sum()
    }
}

/// What [`read`] finds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DebugInfo {
    /// Out-of-line functions: lowest address and qualified name.
    pub functions: HashMap<u32, String>,
    pub inlined: Vec<InlinedCopy>,
}

/// A subprogram or inlined copy as the DIE walk meets it; names resolve after the walk,
/// because an `abstract_origin` may point forward or into another unit.
struct Scope {
    die: usize,
    ranges: Vec<(u32, u32)>,
    inlined: bool,
    /// Enclosing subprograms and inlined copies, innermost first.
    outer: Vec<usize>,
}

/// How many `abstract_origin` / `specification` links a name is followed through (Rust
/// emits at most two: concrete -> abstract -> declaration); bounds a malformed cycle.
const MAX_NAME_HOPS: usize = 8;

/// Reads the functions and inlined copies of a 32-bit ELF's DWARF. No `.debug_info` gives
/// an empty result; a malformed one an error.
pub fn read(elf: &[u8]) -> Result<DebugInfo, String> {
    let file = object::File::parse(elf).map_err(|e| format!("ELF: {e}"))?;
    let dwarf = gimli::Dwarf::load(|id| -> Result<Reader<'_>, String> {
        let data = match file.section_by_name(id.name()) {
            Some(s) => s.data().map_err(|e| format!("{}: {e}", id.name()))?,
            None => &[],
        };
        Ok(EndianSlice::new(data, LittleEndian))
    })?;
    let err = |e: gimli::Error| format!("DWARF: {e}");

    // DIE (global .debug_info offset) -> own qualified name, and -> the DIE it refers to.
    let mut names: HashMap<usize, String> = HashMap::new();
    let mut refs: HashMap<usize, usize> = HashMap::new();
    let mut scopes: Vec<Scope> = Vec::new();
    let mut headers = dwarf.units();
    while let Some(header) = headers.next().map_err(err)? {
        let unit = dwarf.unit(header).map_err(err)?;
        let Some(base) = unit.header.offset().as_debug_info_offset() else {
            continue;
        };
        // (depth, namespace name or None, enclosing-scope DIE or None)
        let mut stack: Vec<(isize, Option<String>, Option<usize>)> = Vec::new();
        let mut depth = 0isize;
        let mut cursor = unit.entries();
        while let Some((delta, entry)) = cursor.next_dfs().map_err(err)? {
            depth += delta;
            while stack.last().is_some_and(|s| s.0 >= depth) {
                stack.pop();
            }
            let die = base.0 + entry.offset().0;
            let tag = entry.tag();
            let own_name = match entry.attr_value(gimli::DW_AT_name).map_err(err)? {
                Some(v) => Some(attr_string(&dwarf, &unit, v)?),
                None => None,
            };
            match tag {
                gimli::DW_TAG_namespace
                | gimli::DW_TAG_structure_type
                | gimli::DW_TAG_enumeration_type
                | gimli::DW_TAG_union_type => {
                    stack.push((depth, own_name, None));
                }
                gimli::DW_TAG_subprogram | gimli::DW_TAG_inlined_subroutine => {
                    if let Some(n) = own_name {
                        let mut path: Vec<&str> =
                            stack.iter().filter_map(|s| s.1.as_deref()).collect();
                        path.push(&n);
                        names.insert(die, path.join("::"));
                    }
                    for at in [gimli::DW_AT_abstract_origin, gimli::DW_AT_specification] {
                        if let Some(target) = entry.attr_value(at).map_err(err)? {
                            if let Some(t) = die_ref(&unit, target) {
                                refs.insert(die, t);
                            }
                        }
                    }
                    let mut ranges = Vec::new();
                    let mut it = dwarf.die_ranges(&unit, entry).map_err(err)?;
                    while let Some(r) = it.next().map_err(err)? {
                        if let (Ok(lo), Ok(hi)) = (u32::try_from(r.begin), u32::try_from(r.end)) {
                            if lo < hi {
                                ranges.push((lo & !1, hi));
                            }
                        }
                    }
                    ranges.sort_unstable();
                    let outer: Vec<usize> = stack.iter().rev().filter_map(|s| s.2).collect();
                    if !ranges.is_empty() {
                        scopes.push(Scope {
                            die,
                            ranges,
                            inlined: tag == gimli::DW_TAG_inlined_subroutine,
                            outer,
                        });
                    }
                    stack.push((depth, None, Some(die)));
                }
                _ => {}
            }
        }
    }
    let name_of = |mut die: usize| -> Option<&String> {
        for _ in 0..MAX_NAME_HOPS {
            if let Some(n) = names.get(&die) {
                return Some(n);
            }
            die = *refs.get(&die)?;
        }
        None
    };
    let mut out = DebugInfo::default();
    for s in scopes {
        let Some(name) = name_of(s.die) else {
            continue;
        };
        if s.inlined {
            out.inlined.push(InlinedCopy {
                name: name.clone(),
                callers: s
                    .outer
                    .iter()
                    .filter_map(|&d| name_of(d).cloned())
                    .collect(),
                ranges: s.ranges,
            });
        } else if s.outer.is_empty() {
            out.functions.insert(s.ranges[0].0, name.clone());
        }
    }
    Ok(out)
}

fn attr_string(
    dwarf: &gimli::Dwarf<Reader<'_>>,
    unit: &Unit<Reader<'_>>,
    v: AttributeValue<Reader<'_>>,
) -> Result<String, String> {
    let s = dwarf
        .attr_string(unit, v)
        .map_err(|e| format!("DWARF: {e}"))?;
    Ok(s.to_string_lossy().into_owned())
}

/// A reference attribute as a global `.debug_info` offset.
fn die_ref(unit: &Unit<Reader<'_>>, v: AttributeValue<Reader<'_>>) -> Option<usize> {
    match v {
        AttributeValue::UnitRef(o) => o.to_debug_info_offset(&unit.header).map(|o| o.0),
        AttributeValue::DebugInfoRef(o) => Some(o.0),
        _ => None,
    }
}

/// Places the code of one of our functions, `[qlo, qhi)`, into a board copy occupying
/// `ranges` (sorted): each 8-byte cache line of ours goes to the board line at the same
/// fraction of the copy's bytes (its ranges laid end to end), keeping its offset inside the
/// line so that instruction alignment is unchanged. Returns `(lo, hi, board lo)` pieces,
/// merged where consecutive lines stay consecutive on the board.
pub fn place_proportionally(qlo: u32, qhi: u32, ranges: &[(u32, u32)]) -> Vec<(u32, u32, u32)> {
    let total: u64 = ranges
        .iter()
        .map(|&(lo, hi)| u64::from(hi.saturating_sub(lo)))
        .sum();
    let mut out: Vec<(u32, u32, u32)> = Vec::new();
    if total == 0 || qhi <= qlo {
        return out;
    }
    let len = u64::from(qhi - qlo);
    let mut at = qlo;
    while at < qhi {
        let end = (at & !7).saturating_add(8).min(qhi);
        // Line-relative, so that a copy as long as ours is the same lines in order.
        let mut pos = (u64::from((at & !7) - (qlo & !7)) * total / len).min(total - 1);
        let mut addr = ranges[ranges.len() - 1].0;
        for &(lo, hi) in ranges {
            let n = u64::from(hi.saturating_sub(lo));
            if pos < n {
                addr = lo + pos as u32;
                break;
            }
            pos -= n;
        }
        let to = (addr & !7) | (at & 7);
        match out.last_mut() {
            Some(p) if p.1 == at && p.2.wrapping_add(p.1 - p.0) == to => p.1 = end,
            _ => out.push((at, end, to)),
        }
        at = end;
    }
    out
}

/// The board copy of `name` to place our function in: among the copies inlined into one of
/// `callers` (the functions of ours that call it, when known) the one with the most bytes,
/// else the largest copy of all; ties go to the lowest address.
pub fn choose_copy<'a>(
    copies: &'a [InlinedCopy],
    name: &str,
    callers: &[String],
) -> Option<&'a InlinedCopy> {
    let of_name = || copies.iter().filter(move |c| c.name == name);
    let best = |it: &mut dyn Iterator<Item = &'a InlinedCopy>| {
        it.max_by_key(|c| (c.bytes(), std::cmp::Reverse(c.ranges[0].0)))
    };
    best(&mut of_name().filter(|c| c.callers.iter().any(|k| callers.contains(k))))
        .or_else(|| best(&mut of_name()))
}

/// Direct call and tail-call targets in `code` (loaded at `base`): Thumb-2 BL and B.W, or
/// RV32 JAL, C.JAL and C.J. Returns `(call site, target)`. Literal data decoded as code may
/// add a wrong pair; the caller only uses them to prefer one inlined copy over another.
pub fn direct_calls(code: &[u8], base: u32, riscv: bool) -> Vec<(u32, u32)> {
    let hw = |i: usize| code.get(i..i + 2).map(|b| u16::from_le_bytes([b[0], b[1]]));
    let sext = |v: u32, bits: u32| ((v << (32 - bits)) as i32 >> (32 - bits)) as u32;
    let mut out = Vec::new();
    let mut i = 0usize;
    while let Some(h1) = hw(i) {
        let pc = base.wrapping_add(i as u32);
        let h1 = u32::from(h1);
        let wide = if riscv {
            h1 & 3 == 3
        } else {
            matches!(h1 >> 11, 0b11101..=0b11111)
        };
        if !wide {
            // RV32C: C.JAL (funct3 001) and C.J (101), quadrant 1.
            if riscv && h1 & 3 == 1 && matches!(h1 >> 13, 0b001 | 0b101) {
                let b = |n: u32| (h1 >> n) & 1;
                let imm = (b(12) << 11)
                    | (b(11) << 4)
                    | (((h1 >> 9) & 3) << 8)
                    | (b(8) << 10)
                    | (b(7) << 6)
                    | (b(6) << 7)
                    | (((h1 >> 3) & 7) << 1)
                    | (b(2) << 5);
                out.push((pc, pc.wrapping_add(sext(imm, 12))));
            }
            i += 2;
            continue;
        }
        let Some(h2) = hw(i + 2) else { break };
        let h2 = u32::from(h2);
        if riscv {
            let w = h1 | (h2 << 16);
            if w & 0x7f == 0x6f {
                let imm = (((w >> 31) & 1) << 20)
                    | (((w >> 21) & 0x3ff) << 1)
                    | (((w >> 20) & 1) << 11)
                    | (((w >> 12) & 0xff) << 12);
                out.push((pc, pc.wrapping_add(sext(imm, 21))));
            }
        } else if h1 >> 11 == 0b11110 && matches!(h2 & 0xd000, 0xd000 | 0x9000) {
            // BL (0xd000) and B.W (0x9000): S:I1:I2:imm10:imm11:0.
            let s = (h1 >> 10) & 1;
            let i1 = !((h2 >> 13) ^ s) & 1;
            let i2 = !((h2 >> 11) ^ s) & 1;
            let imm =
                (s << 24) | (i1 << 23) | (i2 << 22) | ((h1 & 0x3ff) << 12) | ((h2 & 0x7ff) << 1);
            out.push((pc, pc.wrapping_add(4).wrapping_add(sext(imm, 25))));
        }
        i += 4;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proportional_placement_scales_lines_and_keeps_alignment() {
        // 32 bytes of ours into a 64-byte copy split over two ranges of 32.
        let ranges = [(0x1000_0100, 0x1000_0120), (0x1000_0200, 0x1000_0220)];
        let p = place_proportionally(0x8000_0010, 0x8000_0030, &ranges);
        // Line k of ours lands at byte 2k*8 of the copy: 0, 16 (first range), 32, 48 (second).
        assert_eq!(
            p,
            [
                (0x8000_0010, 0x8000_0018, 0x1000_0100),
                (0x8000_0018, 0x8000_0020, 0x1000_0110),
                (0x8000_0020, 0x8000_0028, 0x1000_0200),
                (0x8000_0028, 0x8000_0030, 0x1000_0210),
            ]
        );
        // The same size at the same offset in a line: one piece, moved as a whole.
        let same = place_proportionally(0x8000_0006, 0x8000_0026, &[(0x1000_0406, 0x1000_0426)]);
        assert_eq!(same, [(0x8000_0006, 0x8000_0026, 0x1000_0406)]);
        // A smaller copy: our lines share its lines, and nothing lands outside it.
        let small = place_proportionally(0x8000_0000, 0x8000_0040, &[(0x1000_0800, 0x1000_0810)]);
        assert!(small
            .iter()
            .all(|p| p.2 >= 0x1000_0800 && p.2 < 0x1000_0810));
        assert_eq!(small.first().map(|p| p.0), Some(0x8000_0000));
        assert_eq!(small.last().map(|p| p.1), Some(0x8000_0040));
        assert!(place_proportionally(0x8000_0000, 0x8000_0040, &[]).is_empty());
    }

    #[test]
    fn the_copy_in_our_caller_wins_over_a_larger_one() {
        let copy = |name: &str, caller: &str, lo: u32, len: u32| InlinedCopy {
            name: name.into(),
            callers: vec![caller.into(), "outer".into()],
            ranges: vec![(lo, lo + len)],
        };
        let copies = [
            copy("eval<A>", "fri::verify", 0x100, 0x20),
            copy("eval<A>", "composer::compose", 0x200, 0x80),
            copy("eval<B>", "fri::verify", 0x300, 0x400),
        ];
        let pick = |callers: &[&str]| {
            let c: Vec<String> = callers.iter().map(|s| s.to_string()).collect();
            choose_copy(&copies, "eval<A>", &c).map(|c| c.ranges[0].0)
        };
        assert_eq!(pick(&["fri::verify"]), Some(0x100));
        assert_eq!(pick(&[]), Some(0x200), "unknown caller: the largest copy");
        assert_eq!(pick(&["elsewhere"]), Some(0x200));
        assert_eq!(
            pick(&["outer"]),
            Some(0x200),
            "an outer scope counts as a caller"
        );
        assert_eq!(choose_copy(&copies, "eval<C>", &[]), None);
    }

    #[test]
    fn direct_calls_decode_thumb_and_rv32() {
        // Thumb: BL +0x100 at 0x1000 (f000 f87e), B.W to itself (f7ff bffe), a 16-bit NOP.
        let thumb = [0x00, 0xf0, 0x7e, 0xf8, 0xff, 0xf7, 0xfe, 0xbf, 0x00, 0xbf];
        assert_eq!(
            direct_calls(&thumb, 0x1000, false),
            [(0x1000, 0x1100), (0x1004, 0x1004)]
        );
        // RV32: jal ra, +0x800 (0x001000ef with imm[11]); c.j -2 (0xbffd); c.jal +4 (0x2011);
        // an ADDI (not a call).
        let jal: u32 = 0x0010_00ef;
        let mut rv = jal.to_le_bytes().to_vec();
        rv.extend_from_slice(&0xbffdu16.to_le_bytes());
        rv.extend_from_slice(&0x2011u16.to_le_bytes());
        rv.extend_from_slice(&0x0010_0093u32.to_le_bytes());
        assert_eq!(
            direct_calls(&rv, 0x8000_0000, true),
            [
                (0x8000_0000, 0x8000_0800),
                (0x8000_0004, 0x8000_0002),
                (0x8000_0006, 0x8000_000a)
            ]
        );
    }

    /// A 32-bit Arm ELF with only section headers: `.shstrtab`, then `sections`.
    fn elf_with_sections(sections: &[(&str, &[u8])]) -> Vec<u8> {
        let mut names = vec![0u8];
        let mut name_at = Vec::new();
        for n in std::iter::once(".shstrtab").chain(sections.iter().map(|s| s.0)) {
            name_at.push(names.len() as u32);
            names.extend_from_slice(n.as_bytes());
            names.push(0);
        }
        let mut f = vec![0u8; 52];
        f[0..4].copy_from_slice(b"\x7fELF");
        (f[4], f[5], f[6]) = (1, 1, 1);
        f[16..18].copy_from_slice(&2u16.to_le_bytes()); // ET_EXEC
        f[18..20].copy_from_slice(&crate::elf::EM_ARM.to_le_bytes());
        f[20..24].copy_from_slice(&1u32.to_le_bytes());
        f[40..42].copy_from_slice(&52u16.to_le_bytes());
        f[46..48].copy_from_slice(&40u16.to_le_bytes());
        f[48..50].copy_from_slice(&(sections.len() as u16 + 2).to_le_bytes());
        f[50..52].copy_from_slice(&1u16.to_le_bytes());
        let mut placed = Vec::new();
        for data in std::iter::once(names.as_slice()).chain(sections.iter().map(|s| s.1)) {
            placed.push((f.len() as u32, data.len() as u32));
            f.extend_from_slice(data);
        }
        while !f.len().is_multiple_of(4) {
            f.push(0);
        }
        let shoff = f.len() as u32;
        f[32..36].copy_from_slice(&shoff.to_le_bytes());
        f.extend_from_slice(&[0u8; 40]);
        for (k, (off, len)) in placed.iter().enumerate() {
            let mut sh = [0u8; 40];
            sh[0..4].copy_from_slice(&name_at[k].to_le_bytes());
            let kind: u32 = if k == 0 { 3 } else { 1 }; // SHT_STRTAB, SHT_PROGBITS
            sh[4..8].copy_from_slice(&kind.to_le_bytes());
            sh[16..20].copy_from_slice(&off.to_le_bytes());
            sh[20..24].copy_from_slice(&len.to_le_bytes());
            sh[32..36].copy_from_slice(&1u32.to_le_bytes());
            f.extend_from_slice(&sh);
        }
        f
    }

    #[test]
    fn inlined_copies_and_functions_are_read_from_dwarf() {
        // Abbreviations: 1 compile unit, 2 namespace, 3 abstract subprogram, 4 concrete
        // subprogram with a name, 5 inlined copy, 6 concrete subprogram named by its origin.
        #[rustfmt::skip]
        let abbrev: &[u8] = &[
            1, 0x11, 1, 0, 0,
            2, 0x39, 1, 0x03, 0x08, 0, 0,
            3, 0x2e, 0, 0x03, 0x08, 0x20, 0x0b, 0, 0,
            4, 0x2e, 1, 0x03, 0x08, 0x11, 0x01, 0x12, 0x06, 0, 0,
            5, 0x1d, 0, 0x31, 0x13, 0x11, 0x01, 0x12, 0x06, 0, 0,
            6, 0x2e, 0, 0x31, 0x13, 0x11, 0x01, 0x12, 0x06, 0, 0,
            0,
        ];
        let mut dies = vec![1u8, 2, b'm', 0];
        let eval = 11 + dies.len() as u32; // unit-relative offset (the header is 11 bytes)
        dies.extend_from_slice(b"\x03eval<u8>\0\x01");
        dies.extend_from_slice(b"\x04caller\0");
        dies.extend_from_slice(&0x1000u32.to_le_bytes());
        dies.extend_from_slice(&0x40u32.to_le_bytes());
        dies.push(5);
        dies.extend_from_slice(&eval.to_le_bytes());
        dies.extend_from_slice(&0x1010u32.to_le_bytes());
        dies.extend_from_slice(&0x10u32.to_le_bytes());
        dies.push(0); // end of caller's children
        dies.push(6);
        dies.extend_from_slice(&eval.to_le_bytes());
        dies.extend_from_slice(&0x2000u32.to_le_bytes());
        dies.extend_from_slice(&0x20u32.to_le_bytes());
        dies.extend_from_slice(&[0, 0]); // end of the namespace's and the unit's children
        let mut info = ((7 + dies.len()) as u32).to_le_bytes().to_vec();
        info.extend_from_slice(&4u16.to_le_bytes());
        info.extend_from_slice(&0u32.to_le_bytes());
        info.push(4);
        info.extend_from_slice(&dies);
        let elf = elf_with_sections(&[(".debug_abbrev", abbrev), (".debug_info", &info)]);
        let d = read(&elf).expect("the hand-made DWARF reads");
        assert_eq!(
            d.functions,
            [
                (0x1000, "m::caller".to_string()),
                (0x2000, "m::eval<u8>".to_string())
            ]
            .into_iter()
            .collect()
        );
        assert_eq!(
            d.inlined,
            [InlinedCopy {
                name: "m::eval<u8>".into(),
                callers: vec!["m::caller".into()],
                ranges: vec![(0x1010, 0x1020)],
            }]
        );
        // A reference past the unit: the copy has no name and is left out, no panic.
        let mut bad = info.clone();
        let at = 11 + dies.iter().position(|&b| b == 5).unwrap() + 1;
        bad[at..at + 4].copy_from_slice(&0xffffu32.to_le_bytes());
        let elf = elf_with_sections(&[(".debug_abbrev", abbrev), (".debug_info", &bad)]);
        if let Ok(d) = read(&elf) {
            assert!(d.inlined.is_empty());
        }
        // A truncated unit is an error.
        let elf = elf_with_sections(&[(".debug_abbrev", abbrev), (".debug_info", &info[..20])]);
        assert!(read(&elf).is_err());
    }

    #[test]
    fn no_debug_info_is_empty_and_garbage_is_an_error() {
        let mut elf =
            crate::elf::tests::tiny_elf(crate::elf::EM_ARM, 0x1000_0000, &[0; 16], ("f", 1));
        // The test ELF has no section-name table; point e_shstrndx at its string table.
        elf[50] = 1;
        assert_eq!(read(&elf), Ok(DebugInfo::default()));
        assert!(read(b"not an ELF").is_err());
    }
}

//! A minimal reader for 32-bit little-endian ELF files: the entry point and loadable segments
//! (for UF2 and the image checker) and the symbol table (for the marker addresses and the
//! layout symbols). Every offset is bounds-checked: a malformed file gives an error, never a
//! panic.

use std::fmt;

/// A loadable segment's file bytes and its load (physical) address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segment {
    pub paddr: u32,
    pub data: Vec<u8>,
}

/// Why an ELF file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ElfError(pub &'static str);

impl fmt::Display for ElfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad ELF file: {}", self.0)
    }
}

impl std::error::Error for ElfError {}

/// A parsed ELF32 LE file.
pub struct Elf<'a> {
    bytes: &'a [u8],
    /// `e_machine`: 40 = Arm, 243 = RISC-V.
    pub machine: u16,
    /// `e_entry` (Thumb bit included on Arm).
    pub entry: u32,
}

fn u16_at(b: &[u8], off: usize) -> Result<u16, ElfError> {
    b.get(off..off + 2)
        .map(|s| u16::from_le_bytes([s[0], s[1]]))
        .ok_or(ElfError("truncated"))
}

fn u32_at(b: &[u8], off: usize) -> Result<u32, ElfError> {
    b.get(off..off + 4)
        .map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
        .ok_or(ElfError("truncated"))
}

pub const EM_ARM: u16 = 40;
pub const EM_RISCV: u16 = 243;

impl<'a> Elf<'a> {
    pub fn parse(bytes: &'a [u8]) -> Result<Self, ElfError> {
        if bytes.get(0..4) != Some(b"\x7fELF") {
            return Err(ElfError("no ELF magic"));
        }
        if bytes.get(4) != Some(&1) || bytes.get(5) != Some(&1) {
            return Err(ElfError("not a 32-bit little-endian ELF"));
        }
        Ok(Elf {
            bytes,
            machine: u16_at(bytes, 18)?,
            entry: u32_at(bytes, 24)?,
        })
    }

    /// The `PT_LOAD` entries of the program header table.
    fn loads(&self) -> Result<Vec<Load>, ElfError> {
        let b = self.bytes;
        let (phoff, phentsize) = (u32_at(b, 28)? as usize, u16_at(b, 42)? as usize);
        if phentsize < 32 {
            return Err(ElfError("program header entry too small"));
        }
        let mut out = Vec::new();
        for i in 0..u16_at(b, 44)? as usize {
            let ph = phoff
                .checked_add(i * phentsize)
                .ok_or(ElfError("program header offset overflow"))?;
            if u32_at(b, ph)? != 1 {
                continue; // not PT_LOAD
            }
            out.push(Load {
                offset: u32_at(b, ph + 4)? as usize,
                vaddr: u32_at(b, ph + 8)?,
                paddr: u32_at(b, ph + 12)?,
                filesz: u32_at(b, ph + 16)? as usize,
                memsz: u32_at(b, ph + 20)?,
                flags: u32_at(b, ph + 24)?,
            });
        }
        Ok(out)
    }

    /// A segment's file bytes.
    fn file_bytes(&self, l: &Load) -> Result<Vec<u8>, ElfError> {
        l.offset
            .checked_add(l.filesz)
            .and_then(|end| self.bytes.get(l.offset..end))
            .map(<[u8]>::to_vec)
            .ok_or(ElfError("segment outside the file"))
    }

    /// The `PT_LOAD` segments with file bytes, by load address.
    pub fn load_segments(&self) -> Result<Vec<Segment>, ElfError> {
        let mut out = Vec::new();
        for l in self.loads()?.iter().filter(|l| l.filesz > 0) {
            out.push(Segment {
                paddr: l.paddr,
                data: self.file_bytes(l)?,
            });
        }
        out.sort_by_key(|s| s.paddr);
        Ok(out)
    }

    /// The `PT_LOAD` segments with file bytes that run elsewhere than they load (copied to
    /// SRAM at reset: `.data`, and code in the `code-in-ram` build), as
    /// `(run address, load address, bytes)`.
    pub fn copied_segments(&self) -> Result<Vec<(u32, u32, u32)>, ElfError> {
        let mut out: Vec<(u32, u32, u32)> = self
            .loads()?
            .iter()
            .filter(|l| l.filesz > 0 && l.vaddr != l.paddr)
            .map(|l| (l.vaddr, l.paddr, l.filesz as u32))
            .collect();
        out.sort_unstable();
        Ok(out)
    }

    /// The address ranges `[start, end)` of the non-writable `PT_LOAD` segments (code and
    /// read-only data: what the RP2350 runs from flash), by run (virtual) address. A segment
    /// loaded elsewhere than it runs (the `code-in-ram` build: copied from flash to SRAM at
    /// reset) runs from SRAM and is left out.
    pub fn read_only_ranges(&self) -> Result<Vec<(u32, u32)>, ElfError> {
        let mut out = Vec::new();
        for l in self.loads()?.iter().filter(|l| l.in_flash()) {
            let end = l
                .vaddr
                .checked_add(l.memsz)
                .ok_or(ElfError("segment wraps"))?;
            out.push((l.vaddr, end));
        }
        out.sort_unstable();
        Ok(out)
    }

    /// The read-only data the board reads through the XIP cache: the non-writable,
    /// non-executable segments of [`Elf::read_only_ranges`] with their bytes, by address.
    pub fn read_only_data(&self) -> Result<Vec<Segment>, ElfError> {
        const PF_X: u32 = 1;
        let mut out = Vec::new();
        for l in self.loads()?.iter() {
            if l.in_flash() && l.flags & PF_X == 0 && l.filesz > 0 {
                out.push(Segment {
                    paddr: l.vaddr,
                    data: self.file_bytes(l)?,
                });
            }
        }
        out.sort_by_key(|s| s.paddr);
        Ok(out)
    }

    /// The `PT_LOAD` segments with file bytes by run (virtual) address, and whether each is
    /// executable: `(run address, bytes, executable)`.
    pub fn run_segments(&self) -> Result<Vec<(u32, Vec<u8>, bool)>, ElfError> {
        const PF_X: u32 = 1;
        let mut out = Vec::new();
        for l in self.loads()?.iter().filter(|l| l.filesz > 0) {
            out.push((l.vaddr, self.file_bytes(l)?, l.flags & PF_X != 0));
        }
        out.sort_by_key(|s| s.0);
        Ok(out)
    }

    /// The file offset and the load address of `len` bytes at run address `vaddr`, when one
    /// `PT_LOAD` segment's file bytes hold them all. A segment copied at reset (`.data`) runs
    /// in SRAM and loads from flash: its file bytes are the load image, what a patch changes.
    fn locate(&self, vaddr: u32, len: usize) -> Result<Option<(usize, u32)>, ElfError> {
        Ok(self.loads()?.iter().find_map(|l| {
            let at = vaddr.checked_sub(l.vaddr)?;
            if (at as usize).checked_add(len)? > l.filesz {
                return None;
            }
            Some((l.offset + at as usize, l.paddr.checked_add(at)?))
        }))
    }

    /// The file offset of `len` bytes at run address `vaddr`, when one `PT_LOAD` segment's
    /// file bytes hold them all (for patching an image in place).
    pub fn file_offset(&self, vaddr: u32, len: usize) -> Result<Option<usize>, ElfError> {
        Ok(self.locate(vaddr, len)?.map(|(off, _)| off))
    }

    /// The load address of `len` bytes at run address `vaddr` (the same address unless a
    /// segment copied at reset holds them), when one `PT_LOAD` segment's file bytes hold them.
    pub fn load_address(&self, vaddr: u32, len: usize) -> Result<Option<u32>, ElfError> {
        Ok(self.locate(vaddr, len)?.map(|(_, paddr)| paddr))
    }

    /// The value of the symbol `name` from `.symtab`.
    pub fn symbol(&self, name: &str) -> Result<Option<u32>, ElfError> {
        Ok(self.sized_symbol(name)?.map(|(value, _)| value))
    }

    /// The value and size of the symbol `name` from `.symtab`.
    pub fn sized_symbol(&self, name: &str) -> Result<Option<(u32, u32)>, ElfError> {
        Ok(self
            .symbols()?
            .into_iter()
            .find(|s| s.name == name.as_bytes())
            .map(|s| (s.value, s.size)))
    }

    /// Value and size of the first symbol whose name contains `fragment` (for a Rust
    /// static, whose symbol name is mangled around its path).
    pub fn symbol_containing(&self, fragment: &str) -> Result<Option<(u32, u32)>, ElfError> {
        let fragment = fragment.as_bytes();
        Ok(self
            .symbols()?
            .into_iter()
            .find(|s| s.name.windows(fragment.len()).any(|w| w == fragment))
            .map(|s| (s.value, s.size)))
    }

    /// Function symbols (`STT_FUNC`) with their address (Thumb bit cleared) and size.
    pub fn functions(&self) -> Result<Vec<(u32, u32, String)>, ElfError> {
        Ok(self
            .symbols()?
            .into_iter()
            .filter(|s| s.info & 0xF == 2)
            .map(|s| {
                let name = String::from_utf8_lossy(s.name).into_owned();
                (s.value & !1, s.size, name)
            })
            .collect())
    }

    /// Data object symbols (`STT_OBJECT`) with their address and size.
    pub fn objects(&self) -> Result<Vec<(u32, u32, String)>, ElfError> {
        Ok(self
            .symbols()?
            .into_iter()
            .filter(|s| s.info & 0xF == 1)
            .map(|s| {
                (
                    s.value,
                    s.size,
                    String::from_utf8_lossy(s.name).into_owned(),
                )
            })
            .collect())
    }

    /// Addresses of the symbols that label data (`STT_NOTYPE`, e.g. the `$d` mapping
    /// symbols at each piece of data, and `STT_OBJECT`), sorted.
    pub fn data_labels(&self) -> Result<Vec<u32>, ElfError> {
        let mut out: Vec<u32> = self
            .symbols()?
            .into_iter()
            .filter(|s| s.info & 0xF <= 1 && !s.name.is_empty())
            .map(|s| s.value)
            .collect();
        out.sort_unstable();
        out.dedup();
        Ok(out)
    }

    /// Every entry of `.symtab`.
    fn symbols(&self) -> Result<Vec<Symbol<'a>>, ElfError> {
        let b = self.bytes;
        let shoff = u32_at(b, 32)? as usize;
        let shentsize = u16_at(b, 46)? as usize;
        let shnum = u16_at(b, 48)? as usize;
        if shentsize < 40 {
            return Err(ElfError("section header entry too small"));
        }
        let section = |i: usize| -> Result<(u32, usize, usize, usize, usize), ElfError> {
            let sh = shoff
                .checked_add(i * shentsize)
                .ok_or(ElfError("section header offset overflow"))?;
            Ok((
                u32_at(b, sh + 4)?,           // sh_type
                u32_at(b, sh + 16)? as usize, // sh_offset
                u32_at(b, sh + 20)? as usize, // sh_size
                u32_at(b, sh + 24)? as usize, // sh_link
                u32_at(b, sh + 36)? as usize, // sh_entsize
            ))
        };
        let mut out = Vec::new();
        for i in 0..shnum {
            let (kind, off, size, link, entsize) = section(i)?;
            if kind != 2 {
                continue; // not SHT_SYMTAB
            }
            let (_, str_off, str_size, _, _) = section(link)?;
            let strtab = str_off
                .checked_add(str_size)
                .and_then(|e| b.get(str_off..e))
                .ok_or(ElfError("string table outside the file"))?;
            let entsize = if entsize == 0 { 16 } else { entsize };
            for j in 0..size / entsize {
                let sym = off + j * entsize;
                let name_off = u32_at(b, sym)? as usize;
                let Some(rest) = strtab.get(name_off..) else {
                    continue;
                };
                let end = rest.iter().position(|&c| c == 0).unwrap_or(rest.len());
                out.push(Symbol {
                    name: &rest[..end],
                    value: u32_at(b, sym + 4)?,
                    size: u32_at(b, sym + 8)?,
                    info: *b.get(sym + 12).ok_or(ElfError("symbol outside the file"))?,
                });
            }
        }
        Ok(out)
    }
}

/// One `PT_LOAD` program header.
struct Load {
    offset: usize,
    vaddr: u32,
    paddr: u32,
    filesz: usize,
    memsz: u32,
    flags: u32,
}

impl Load {
    /// Read-only and run where it loads: fetched through the XIP cache on the board.
    fn in_flash(&self) -> bool {
        const PF_W: u32 = 2;
        self.flags & PF_W == 0 && self.memsz > 0 && self.vaddr == self.paddr
    }
}

/// One `.symtab` entry.
struct Symbol<'a> {
    name: &'a [u8],
    value: u32,
    size: u32,
    info: u8,
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A hand-made ELF32 LE file: one PT_LOAD segment and a symbol table with `sym`.
    pub(crate) fn tiny_elf(machine: u16, paddr: u32, data: &[u8], sym: (&str, u32)) -> Vec<u8> {
        test_elf(machine, paddr, &[(paddr, data)], &[(sym.0, sym.1, 0)])
    }

    /// A hand-made ELF32 LE file: `entry`, one PT_LOAD segment per `(address, bytes)` and a
    /// symbol table of `(name, value, size)`.
    pub(crate) fn test_elf(
        machine: u16,
        entry: u32,
        segments: &[(u32, &[u8])],
        symbols: &[(&str, u32, u32)],
    ) -> Vec<u8> {
        let typed: Vec<(&str, u32, u32, u8)> =
            symbols.iter().map(|&(n, v, s)| (n, v, s, 0)).collect();
        typed_elf(machine, entry, segments, &typed)
    }

    /// [`test_elf`] with each symbol's `st_info` (type in the low nibble: 1 object, 2
    /// function).
    pub(crate) fn typed_elf(
        machine: u16,
        entry: u32,
        segments: &[(u32, &[u8])],
        symbols: &[(&str, u32, u32, u8)],
    ) -> Vec<u8> {
        let mut f = vec![0u8; 52];
        f[0..4].copy_from_slice(b"\x7fELF");
        f[4] = 1;
        f[5] = 1;
        f[6] = 1;
        f[18..20].copy_from_slice(&machine.to_le_bytes());
        f[24..28].copy_from_slice(&entry.to_le_bytes());
        // program headers at 52, then the segments' bytes
        let phoff = 52u32;
        f[28..32].copy_from_slice(&phoff.to_le_bytes());
        f[42..44].copy_from_slice(&32u16.to_le_bytes());
        f[44..46].copy_from_slice(&(segments.len() as u16).to_le_bytes());
        let mut data_off = 52 + 32 * segments.len();
        for (paddr, data) in segments {
            let mut ph = vec![0u8; 32];
            ph[0..4].copy_from_slice(&1u32.to_le_bytes());
            ph[4..8].copy_from_slice(&(data_off as u32).to_le_bytes());
            ph[8..12].copy_from_slice(&paddr.to_le_bytes());
            ph[12..16].copy_from_slice(&paddr.to_le_bytes());
            ph[16..20].copy_from_slice(&(data.len() as u32).to_le_bytes());
            ph[20..24].copy_from_slice(&(data.len() as u32).to_le_bytes());
            f.extend_from_slice(&ph);
            data_off += data.len();
        }
        for (_, data) in segments {
            f.extend_from_slice(data);
        }
        // string table and symbol table
        let mut strtab = vec![0u8];
        let mut name_offsets = Vec::new();
        for (name, _, _, _) in symbols {
            name_offsets.push(strtab.len() as u32);
            strtab.extend_from_slice(name.as_bytes());
            strtab.push(0);
        }
        let str_off = f.len();
        f.extend_from_slice(&strtab);
        while !f.len().is_multiple_of(4) {
            f.push(0);
        }
        let sym_off = f.len();
        f.extend_from_slice(&[0u8; 16]); // null symbol
        for ((_, value, size, info), name_off) in symbols.iter().zip(&name_offsets) {
            let mut s = vec![0u8; 16];
            s[0..4].copy_from_slice(&name_off.to_le_bytes());
            s[4..8].copy_from_slice(&value.to_le_bytes());
            s[8..12].copy_from_slice(&size.to_le_bytes());
            s[12] = *info;
            f.extend_from_slice(&s);
        }
        let symtab_size = 16 * (symbols.len() as u32 + 1);
        // section headers: null, strtab, symtab
        let shoff = f.len();
        f.extend_from_slice(&[0u8; 40]);
        let mut sh = vec![0u8; 40];
        sh[4..8].copy_from_slice(&3u32.to_le_bytes());
        sh[16..20].copy_from_slice(&(str_off as u32).to_le_bytes());
        sh[20..24].copy_from_slice(&(strtab.len() as u32).to_le_bytes());
        f.extend_from_slice(&sh);
        let mut sh = vec![0u8; 40];
        sh[4..8].copy_from_slice(&2u32.to_le_bytes());
        sh[16..20].copy_from_slice(&(sym_off as u32).to_le_bytes());
        sh[20..24].copy_from_slice(&symtab_size.to_le_bytes());
        sh[24..28].copy_from_slice(&1u32.to_le_bytes());
        sh[36..40].copy_from_slice(&16u32.to_le_bytes());
        f.extend_from_slice(&sh);
        f[32..36].copy_from_slice(&(shoff as u32).to_le_bytes());
        f[46..48].copy_from_slice(&40u16.to_le_bytes());
        f[48..50].copy_from_slice(&3u16.to_le_bytes());
        f
    }

    #[test]
    fn reads_segments_and_symbols() {
        let elf = tiny_elf(
            EM_ARM,
            0x1000_0000,
            &[1, 2, 3],
            ("pstk_measure_start", 0x1000_0101),
        );
        let e = Elf::parse(&elf).unwrap();
        assert_eq!(e.machine, EM_ARM);
        let segs = e.load_segments().unwrap();
        assert_eq!(
            segs,
            vec![Segment {
                paddr: 0x1000_0000,
                data: vec![1, 2, 3]
            }]
        );
        assert_eq!(e.symbol("pstk_measure_start").unwrap(), Some(0x1000_0101));
        assert_eq!(e.symbol("pstk_measure_end").unwrap(), None);
        assert_eq!(e.entry, 0x1000_0000);
        let elf = test_elf(
            EM_ARM,
            0x1000_0139,
            &[(0x1000_0000, &[1; 8]), (0x2000_0000, &[2; 4])],
            &[
                ("_ZN2fw4heap8HEAP_MEM17h01E", 0x2000_0100, 4096),
                ("x", 1, 0),
            ],
        );
        let e = Elf::parse(&elf).unwrap();
        assert_eq!(e.entry, 0x1000_0139);
        assert_eq!(e.load_segments().unwrap().len(), 2);
        assert_eq!(
            e.symbol_containing("8HEAP_MEM").unwrap(),
            Some((0x2000_0100, 4096))
        );
        assert_eq!(e.symbol_containing("HEAP_END").unwrap(), None);
    }

    #[test]
    fn read_only_data_and_its_labels() {
        let mut elf = typed_elf(
            EM_ARM,
            0x1000_0000,
            &[
                (0x1000_0000, &[1; 8]),
                (0x1000_0008, &[2; 4]),
                (0x2000_0000, &[3; 4]),
            ],
            &[
                ("code", 0x1000_0001, 8, 2),
                ("TABLE", 0x1000_0008, 4, 1),
                ("$d", 0x1000_000a, 0, 0),
            ],
        );
        // p_flags: code R+X, data R, .data R+W.
        for (i, f) in [5u8, 4, 6].into_iter().enumerate() {
            elf[52 + 32 * i + 24] = f;
        }
        let e = Elf::parse(&elf).unwrap();
        let data = e.read_only_data().unwrap();
        assert_eq!(
            data,
            vec![Segment {
                paddr: 0x1000_0008,
                data: vec![2; 4]
            }]
        );
        assert_eq!(
            e.read_only_ranges().unwrap(),
            [(0x1000_0000, 0x1000_0008), (0x1000_0008, 0x1000_000c)]
        );
        assert_eq!(
            e.objects().unwrap(),
            [(0x1000_0008, 4, "TABLE".to_string())]
        );
        assert_eq!(e.data_labels().unwrap(), [0x1000_0008, 0x1000_000a]);
    }

    /// `test_elf` with segment `i` run at `vaddr` (its load address stays the one given).
    pub(crate) fn run_at(mut elf: Vec<u8>, i: usize, vaddr: u32) -> Vec<u8> {
        elf[52 + 32 * i + 8..52 + 32 * i + 12].copy_from_slice(&vaddr.to_le_bytes());
        elf
    }

    #[test]
    fn a_segment_copied_to_sram_is_found_by_its_run_address_at_its_load_image() {
        // `.rodata` in flash, then `.data` (a sized object in it) loaded right after it and
        // run at 0x20000000.
        let elf = run_at(
            test_elf(
                EM_ARM,
                0x1000_0000,
                &[(0x1000_0000, &[1; 8]), (0x1000_0008, &[5, 6, 7, 8])],
                &[("PSTK_PROOF_SRAM", 0x2000_0001, 3)],
            ),
            1,
            0x2000_0000,
        );
        let e = Elf::parse(&elf).unwrap();
        assert_eq!(
            e.sized_symbol("PSTK_PROOF_SRAM").unwrap(),
            Some((0x2000_0001, 3))
        );
        assert_eq!(e.load_address(0x2000_0001, 3).unwrap(), Some(0x1000_0009));
        let off = e.file_offset(0x2000_0001, 3).unwrap().unwrap();
        assert_eq!(elf[off..off + 3], [6, 7, 8]);
        assert_eq!(
            e.copied_segments().unwrap(),
            [(0x2000_0000, 0x1000_0008, 4)]
        );
        // Not by its load address (flash holds no segment that runs there), nor past its end.
        assert_eq!(e.file_offset(0x1000_0009, 1).unwrap(), None);
        assert_eq!(e.load_address(0x1000_0009, 1).unwrap(), None);
        assert_eq!(e.load_address(0x2000_0001, 4).unwrap(), None);
        // A segment that runs where it loads: the same address.
        assert_eq!(e.load_address(0x1000_0002, 4).unwrap(), Some(0x1000_0002));
    }

    #[test]
    fn truncated_files_are_errors_not_panics() {
        let elf = tiny_elf(EM_RISCV, 0x8000_0000, &[9; 10], ("x", 4));
        for len in 0..elf.len() {
            if let Ok(e) = Elf::parse(&elf[..len]) {
                let _ = e.load_segments();
                let _ = e.read_only_data();
                let _ = e.symbol("x");
                let _ = e.data_labels();
            }
        }
        assert!(Elf::parse(b"not an elf").is_err());
    }
}

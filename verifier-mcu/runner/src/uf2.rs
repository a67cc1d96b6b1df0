//! UF2 for the RP2350: the writer (512-byte blocks, each carrying 256 bytes of flash at a
//! 256-byte-aligned address, with the family ID flag set, after the RP2350-E10 block) and a
//! strict decoder the image checker and the tests read files back with.
//!
//! Erratum RP2350-E10: the boot ROM of A2 silicon can mistarget a drag-and-drop UF2 when
//! the flash holds a partition table. picotool's `--abs-block` (which the pico-sdk passes
//! for A2 support) therefore writes one extra block first: family "absolute"
//! ([`FAMILY_RP2350_ABSOLUTE`]) targeting [`E10_ADDR`], 256 bytes of 0xEF, numbered 0 of 2,
//! flagged with extension tags and carrying the RP2 "ignore block" tag
//! ([`EXTENSION_RP2_IGNORE_BLOCK`]) right after the payload. [`write()`] does the same; the
//! image's own blocks follow, numbered `0..N` of `N`.

use std::fmt;

use crate::elf::Segment;

pub const MAGIC_START0: u32 = 0x0A32_4655;
pub const MAGIC_START1: u32 = 0x9E5D_5157;
pub const MAGIC_END: u32 = 0x0AB1_6F30;
/// `familyID` present flag.
pub const FLAG_FAMILY_ID: u32 = 0x0000_2000;
/// Extension tags follow the payload.
pub const FLAG_EXTENSION_TAGS: u32 = 0x0000_8000;
/// RP2350 family "absolute" (an address anywhere, whatever the partition).
pub const FAMILY_RP2350_ABSOLUTE: u32 = 0xE48B_FF57;
/// RP2350, Arm Secure image.
pub const FAMILY_RP2350_ARM_S: u32 = 0xE48B_FF59;
/// RP2350, RISC-V image.
pub const FAMILY_RP2350_RISCV: u32 = 0xE48B_FF5A;
/// RP2350 flash (XIP) window.
pub const FLASH_START: u32 = 0x1000_0000;
pub const FLASH_END: u32 = 0x1100_0000;
/// Target of the RP2350-E10 block (the last page of the 16 MiB flash window).
pub const E10_ADDR: u32 = 0x10FF_FF00;
/// Payload byte of the RP2350-E10 block.
pub const E10_FILL: u8 = 0xEF;
/// RP2 "ignore block" extension tag word (size 4, tag 0x9957E3), right after the payload.
pub const EXTENSION_RP2_IGNORE_BLOCK: u32 = 0x9957_E304;

/// Payload bytes per block (the flash page size).
pub const PAGE: u32 = 256;
pub const BLOCK: usize = 512;
/// Offset of the payload in a block.
const DATA: usize = 32;

/// Writes the segments that lie in flash as UF2 blocks, after the RP2350-E10 block. Gaps
/// inside a 256-byte page are zero-filled; pages with no bytes are skipped. Segments outside
/// flash (RAM-only) are ignored; one that straddles the flash boundary is an error.
pub fn write(segments: &[Segment], family: u32) -> Result<Vec<u8>, String> {
    let mut pages: std::collections::BTreeMap<u32, [u8; 256]> = Default::default();
    for s in segments {
        let end = s.paddr as u64 + s.data.len() as u64;
        if s.paddr >= FLASH_END || end <= FLASH_START as u64 {
            continue;
        }
        if s.paddr < FLASH_START || end > FLASH_END as u64 {
            return Err(format!(
                "segment at {:#x} straddles the flash window",
                s.paddr
            ));
        }
        for (i, &byte) in s.data.iter().enumerate() {
            let addr = s.paddr + i as u32;
            let page = pages.entry(addr & !(PAGE - 1)).or_insert([0; 256]);
            page[(addr % PAGE) as usize] = byte;
        }
    }
    if pages.is_empty() {
        return Err("no loadable bytes in flash".into());
    }
    if pages.contains_key(&E10_ADDR) {
        return Err(format!(
            "the image uses the page at {E10_ADDR:#x}, which the RP2350-E10 block targets"
        ));
    }
    let total = pages.len() as u32;
    let mut out = Vec::with_capacity((pages.len() + 1) * BLOCK);
    out.extend_from_slice(&e10_block());
    for (n, (addr, data)) in pages.iter().enumerate() {
        out.extend_from_slice(&block(FLAG_FAMILY_ID, *addr, n as u32, total, family, data));
    }
    Ok(out)
}

/// One block with a full 256-byte payload.
fn block(flags: u32, addr: u32, n: u32, total: u32, family: u32, data: &[u8; 256]) -> [u8; BLOCK] {
    let mut block = [0u8; BLOCK];
    let words = [
        MAGIC_START0,
        MAGIC_START1,
        flags,
        addr,
        PAGE,
        n,
        total,
        family,
    ];
    for (i, w) in words.iter().enumerate() {
        block[i * 4..i * 4 + 4].copy_from_slice(&w.to_le_bytes());
    }
    block[DATA..DATA + 256].copy_from_slice(data);
    block[BLOCK - 4..].copy_from_slice(&MAGIC_END.to_le_bytes());
    block
}

/// The RP2350-E10 block, as picotool's `--abs-block` writes it.
pub fn e10_block() -> [u8; BLOCK] {
    let mut b = block(
        FLAG_FAMILY_ID | FLAG_EXTENSION_TAGS,
        E10_ADDR,
        0,
        2,
        FAMILY_RP2350_ABSOLUTE,
        &[E10_FILL; 256],
    );
    b[DATA + 256..DATA + 260].copy_from_slice(&EXTENSION_RP2_IGNORE_BLOCK.to_le_bytes());
    b
}

/// One decoded block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    pub flags: u32,
    pub addr: u32,
    pub payload_size: u32,
    pub number: u32,
    pub total: u32,
    /// `familyID` (or the file size when [`FLAG_FAMILY_ID`] is clear).
    pub family: u32,
    /// The 476-byte data area (payload, then extension tags or padding).
    pub data: Vec<u8>,
}

impl Block {
    /// The payload bytes (`payload_size` of the data area).
    pub fn payload(&self) -> &[u8] {
        &self.data[..self.payload_size as usize]
    }

    /// Whether this is the RP2350-E10 block exactly as [`e10_block`] (and picotool) write it.
    pub fn is_e10(&self) -> bool {
        self.flags == FLAG_FAMILY_ID | FLAG_EXTENSION_TAGS
            && self.addr == E10_ADDR
            && self.payload_size == PAGE
            && self.number == 0
            && self.total == 2
            && self.family == FAMILY_RP2350_ABSOLUTE
            && self.payload().iter().all(|&b| b == E10_FILL)
            && self.data[256..260] == EXTENSION_RP2_IGNORE_BLOCK.to_le_bytes()
            && self.data[260..].iter().all(|&b| b == 0)
    }
}

/// Why a UF2 file did not decode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Uf2Error {
    /// Index of the offending block (`None`: the file as a whole).
    pub block: Option<usize>,
    pub what: &'static str,
}

impl fmt::Display for Uf2Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.block {
            Some(i) => write!(f, "bad UF2 file: block {i}: {}", self.what),
            None => write!(f, "bad UF2 file: {}", self.what),
        }
    }
}

impl std::error::Error for Uf2Error {}

fn word(b: &[u8], i: usize) -> u32 {
    u32::from_le_bytes([b[i * 4], b[i * 4 + 1], b[i * 4 + 2], b[i * 4 + 3]])
}

/// Decodes every block: magics, a payload that fits the data area. Nothing else is judged
/// here (the image checker does that).
pub fn parse(bytes: &[u8]) -> Result<Vec<Block>, Uf2Error> {
    if bytes.is_empty() || !bytes.len().is_multiple_of(BLOCK) {
        return Err(Uf2Error {
            block: None,
            what: "length is not a positive multiple of 512 bytes",
        });
    }
    bytes
        .chunks_exact(BLOCK)
        .enumerate()
        .map(|(i, b)| {
            let err = |what| Uf2Error {
                block: Some(i),
                what,
            };
            if word(b, 0) != MAGIC_START0 || word(b, 1) != MAGIC_START1 || word(b, 127) != MAGIC_END
            {
                return Err(err("bad magic"));
            }
            let payload_size = word(b, 4);
            if payload_size > 476 {
                return Err(err("payload larger than the data area"));
            }
            Ok(Block {
                flags: word(b, 2),
                addr: word(b, 3),
                payload_size,
                number: word(b, 5),
                total: word(b, 6),
                family: word(b, 7),
                data: b[DATA..BLOCK - 4].to_vec(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn word(b: &[u8], i: usize) -> u32 {
        u32::from_le_bytes(b[i * 4..i * 4 + 4].try_into().unwrap())
    }

    #[test]
    fn block_format() {
        // 300 bytes at flash start, plus 4 bytes in another page, plus RAM data (ignored).
        let segs = vec![
            Segment {
                paddr: FLASH_START,
                data: (0..300).map(|i| i as u8).collect(),
            },
            Segment {
                paddr: FLASH_START + 0x1010,
                data: vec![0xAA; 4],
            },
            Segment {
                paddr: 0x2000_0000,
                data: vec![1; 64],
            },
        ];
        let file = write(&segs, FAMILY_RP2350_RISCV).unwrap();
        assert_eq!(file.len(), 4 * 512);
        // The RP2350-E10 block first, then the image.
        let uf2 = &file[512..];
        let addrs = [FLASH_START, FLASH_START + 256, FLASH_START + 0x1000];
        for (n, block) in uf2.chunks(512).enumerate() {
            assert_eq!(word(block, 0), MAGIC_START0);
            assert_eq!(word(block, 1), MAGIC_START1);
            assert_eq!(word(block, 2), FLAG_FAMILY_ID);
            assert_eq!(word(block, 3), addrs[n]);
            assert_eq!(word(block, 4), 256);
            assert_eq!(word(block, 5), n as u32);
            assert_eq!(word(block, 6), 3);
            assert_eq!(word(block, 7), FAMILY_RP2350_RISCV);
            assert_eq!(word(block, 127), MAGIC_END);
            // unused tail of the data area is zero
            assert!(block[32 + 256..508].iter().all(|&b| b == 0));
        }
        let decoded = parse(&file).unwrap();
        assert_eq!(decoded.len(), 4);
        assert!(decoded[0].is_e10());
        assert!(decoded[1..].iter().all(|b| !b.is_e10()));
        assert_eq!(decoded[3].addr, FLASH_START + 0x1000);
        assert_eq!(&decoded[3].payload()[0x10..0x14], &[0xAA; 4]);
        assert_eq!(uf2[32], 0);
        assert_eq!(uf2[32 + 255], 255);
        // second page: bytes 256..300, then zero fill
        assert_eq!(uf2[512 + 32], 0);
        assert_eq!(uf2[512 + 32 + 43], 43);
        assert_eq!(uf2[512 + 32 + 44], 0);
        // third page: 0xAA at offset 0x10
        assert_eq!(&uf2[1024 + 32 + 0x10..1024 + 32 + 0x14], &[0xAA; 4]);
        assert_eq!(uf2[1024 + 32 + 0x0F], 0);
    }

    #[test]
    fn empty_or_straddling_images_are_errors() {
        assert!(write(&[], FAMILY_RP2350_ARM_S).is_err());
        let s = Segment {
            paddr: FLASH_START - 4,
            data: vec![0; 8],
        };
        assert!(write(&[s], FAMILY_RP2350_ARM_S).is_err());
    }

    #[test]
    fn e10_block_is_the_one_picotool_writes() {
        // Field by field, from FINDINGS.md "RP2350 boot image and UF2" (picotool --abs-block).
        let b = e10_block();
        assert_eq!(word(&b, 0), 0x0A32_4655);
        assert_eq!(word(&b, 1), 0x9E5D_5157);
        assert_eq!(word(&b, 2), 0xA000); // family present + extension tags
        assert_eq!(word(&b, 3), 0x10FF_FF00);
        assert_eq!(word(&b, 4), 256);
        assert_eq!(word(&b, 5), 0);
        assert_eq!(word(&b, 6), 2);
        assert_eq!(word(&b, 7), 0xE48B_FF57);
        assert!(b[32..288].iter().all(|&x| x == 0xEF));
        assert_eq!(word(&b, 72), 0x9957_E304); // right after the payload
        assert!(b[292..508].iter().all(|&x| x == 0));
        assert_eq!(word(&b, 127), 0x0AB1_6F30);
        let d = parse(&b).unwrap();
        assert!(d[0].is_e10());
        // Any field off and it is not the E10 block.
        for (at, v) in [
            (9, 0x20),
            (12, 0x01),
            (20, 1),
            (24, 3),
            (28, 0x59),
            (40, 0xEE),
            (288, 0),
        ] {
            let mut bad = b;
            bad[at] = v;
            assert!(!parse(&bad).unwrap()[0].is_e10(), "byte {at} = {v:#x}");
        }
    }

    #[test]
    fn decoder_rejects_malformed_files() {
        let good = write(
            &[Segment {
                paddr: FLASH_START,
                data: vec![7; 10],
            }],
            FAMILY_RP2350_ARM_S,
        )
        .unwrap();
        assert_eq!(parse(&good).unwrap().len(), 2);
        assert!(parse(&[]).is_err());
        assert!(parse(&good[..1000]).is_err());
        let mut bad = good.clone();
        bad[512] ^= 1;
        assert_eq!(parse(&bad).unwrap_err().block, Some(1));
        let mut bad = good.clone();
        bad[1023] ^= 1;
        assert!(parse(&bad).is_err());
        let mut bad = good;
        bad[512 + 16..512 + 20].copy_from_slice(&477u32.to_le_bytes());
        assert!(parse(&bad).is_err());
    }

    #[test]
    fn an_image_reaching_the_e10_page_is_refused() {
        let s = Segment {
            paddr: E10_ADDR,
            data: vec![0; 4],
        };
        assert!(write(&[s], FAMILY_RP2350_ARM_S).is_err());
    }
}

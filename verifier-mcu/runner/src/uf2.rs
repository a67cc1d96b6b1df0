//! UF2 writer for the RP2350: 512-byte blocks, each carrying 256 bytes of flash at a
//! 256-byte-aligned address, with the family ID flag set.

use crate::elf::Segment;

pub const MAGIC_START0: u32 = 0x0A32_4655;
pub const MAGIC_START1: u32 = 0x9E5D_5157;
pub const MAGIC_END: u32 = 0x0AB1_6F30;
/// `familyID` present flag.
pub const FLAG_FAMILY_ID: u32 = 0x0000_2000;
/// RP2350, Arm Secure image.
pub const FAMILY_RP2350_ARM_S: u32 = 0xE48B_FF59;
/// RP2350, RISC-V image.
pub const FAMILY_RP2350_RISCV: u32 = 0xE48B_FF5A;
/// RP2350 flash (XIP) window.
pub const FLASH_START: u32 = 0x1000_0000;
pub const FLASH_END: u32 = 0x1100_0000;

const PAGE: u32 = 256;

/// Writes the segments that lie in flash as UF2 blocks. Gaps inside a 256-byte page are
/// zero-filled; pages with no bytes are skipped. Segments outside flash (RAM-only) are
/// ignored; one that straddles the flash boundary is an error.
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
    let total = pages.len() as u32;
    let mut out = Vec::with_capacity(pages.len() * 512);
    for (n, (addr, data)) in pages.iter().enumerate() {
        let mut block = [0u8; 512];
        let words = [
            MAGIC_START0,
            MAGIC_START1,
            FLAG_FAMILY_ID,
            *addr,
            PAGE,
            n as u32,
            total,
            family,
        ];
        for (i, w) in words.iter().enumerate() {
            block[i * 4..i * 4 + 4].copy_from_slice(&w.to_le_bytes());
        }
        block[32..32 + 256].copy_from_slice(data);
        block[508..512].copy_from_slice(&MAGIC_END.to_le_bytes());
        out.extend_from_slice(&block);
    }
    Ok(out)
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
        let uf2 = write(&segs, FAMILY_RP2350_RISCV).unwrap();
        assert_eq!(uf2.len(), 3 * 512);
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
}

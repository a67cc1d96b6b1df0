//! Host register model of the SHA256 block, as the datasheet describes it: CSR with
//! START / WDATA_RDY / SUM_VLD / ERR_WDATA_NOT_RDY / BSWAP, a WDATA port taking 16
//! words per block, 57 busy cycles per block, SUM0..SUM7. Time advances one cycle
//! per register access, so polls during the busy window are real loop iterations.
//! The compression itself is `sha2`'s; what is modelled is the register protocol.

use crate::*;

const IV: [u32; 8] = [
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];

/// One register access, in program order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Read(u32),
    Write(u32, u32),
}

pub struct Model {
    state: [u32; 8],
    words: [u32; 16],
    count: usize,
    busy: u32,
    bswap: bool,
    err: bool,
    /// Cleared by the first WDATA write of a block, set when its digest completes.
    sum_vld: bool,
    /// A SUM register was read while SUM_VLD was low (contents undefined).
    pub sum_read_invalid: bool,
    pub log: std::vec::Vec<Access>,
    pub blocks: usize,
}

impl Model {
    /// Out of reset: CSR reset value has BSWAP=1, and SUM_VLD/WDATA_RDY high.
    pub fn new() -> Self {
        Model {
            state: IV,
            words: [0; 16],
            count: 0,
            busy: 0,
            bswap: true,
            err: false,
            sum_vld: true,
            sum_read_invalid: false,
            log: std::vec::Vec::new(),
            blocks: 0,
        }
    }

    fn tick(&mut self) {
        if self.busy > 0 {
            self.busy -= 1;
            if self.busy == 0 {
                self.sum_vld = true;
            }
        }
    }

    fn csr(&self) -> u32 {
        let mut v = CSR_DMA_SIZE_WORD;
        if self.busy == 0 {
            v |= CSR_WDATA_RDY;
        }
        if self.sum_vld {
            v |= CSR_SUM_VLD;
        }
        if self.err {
            v |= CSR_ERR_WDATA_NOT_RDY;
        }
        if self.bswap {
            v |= CSR_BSWAP;
        }
        v
    }
}

impl Regs for Model {
    fn read(&mut self, offset: u32) -> u32 {
        self.log.push(Access::Read(offset));
        let v = match offset {
            CSR => self.csr(),
            o if (SUM0..SUM0 + 32).contains(&o) && o % 4 == 0 => {
                if !self.sum_vld {
                    self.sum_read_invalid = true;
                }
                self.state[((o - SUM0) / 4) as usize]
            }
            _ => 0,
        };
        self.tick();
        v
    }

    fn write(&mut self, offset: u32, value: u32) {
        self.log.push(Access::Write(offset, value));
        match offset {
            CSR => {
                self.bswap = value & CSR_BSWAP != 0;
                if value & CSR_ERR_WDATA_NOT_RDY != 0 {
                    self.err = false;
                }
                if value & CSR_START != 0 {
                    self.state = IV;
                    self.count = 0;
                    self.busy = 0;
                    self.sum_vld = true;
                }
            }
            WDATA => {
                if self.busy > 0 {
                    self.err = true;
                } else {
                    self.sum_vld = false;
                    self.words[self.count] = if self.bswap {
                        value.swap_bytes()
                    } else {
                        value
                    };
                    self.count += 1;
                    if self.count == 16 {
                        let mut block = [0u8; 64];
                        for (b, w) in block.chunks_exact_mut(4).zip(self.words) {
                            b.copy_from_slice(&w.to_be_bytes());
                        }
                        sha2::block_api::compress256(&mut self.state, &[block]);
                        self.count = 0;
                        self.blocks += 1;
                        // +1: this access's own tick below ends the first busy cycle.
                        self.busy = BUSY_CYCLES_PER_BLOCK + 1;
                    }
                }
            }
            _ => {}
        }
        self.tick();
    }
}

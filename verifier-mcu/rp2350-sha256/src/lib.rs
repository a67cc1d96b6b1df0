//! The driver for the RP2350's SHA-256 accelerator (datasheet section 12.13, block at
//! 0x400f8000, usable from either core: it is plain MMIO), kept board-side. The verifiers
//! hash through `picostark-sha256` (blocks/sha256); with this crate's `engine` feature (the
//! firmware's `rp2350` build) that crate's engine hooks are defined here (module `hooks`), so
//! every SHA-256 block of a verification goes through the engine.
//!
//! The engine keeps its own chaining state: START loads the SHA-256 IV and there is
//! no way to load an arbitrary state, so a `compress(state_in, block)` call cannot be
//! offered. The driver offers the two shapes the verifiers need instead:
//! - [`Sha256Engine::hash`]: a whole message, padded in software, one 16-word WDATA
//!   burst per 64-byte block (and, through [`BlockSink`], the same streamed);
//! - [`Sha256Engine::compress_from_iv`]: one unpadded block compressed from the IV,
//!   which is the Merkle node function of both protocols' SHA-256 configurations.
//!
//! Register access goes through [`Regs`], so the same code runs on the device
//! ([`Mmio`]) and against the host register model in the tests.
#![no_std]

#[cfg(test)]
extern crate std;

use picostark_sha256::{BlockSink, DigestWords};

/// Block base address (datasheet 12.13 / pico-sdk `SHA256_BASE`).
pub const SHA256_BASE: usize = 0x400f_8000;
/// Control and status register offset.
pub const CSR: u32 = 0x00;
/// Write-data register offset: one 32-bit message word per write.
pub const WDATA: u32 = 0x04;
/// SUM0 offset; SUM1..SUM7 follow at 4-byte steps.
pub const SUM0: u32 = 0x08;

/// CSR.START (write 1): load the IV, clear the counters, force WDATA_RDY and SUM_VLD.
pub const CSR_START: u32 = 1 << 0;
/// CSR.WDATA_RDY (RO): the core accepts WDATA writes; low for 57 cycles after each
/// 16th word while the block is digested.
pub const CSR_WDATA_RDY: u32 = 1 << 1;
/// CSR.SUM_VLD (RO): SUM0..SUM7 hold the digest of the blocks written so far.
pub const CSR_SUM_VLD: u32 = 1 << 2;
/// CSR.ERR_WDATA_NOT_RDY (write 1 to clear): a WDATA write arrived while not ready.
pub const CSR_ERR_WDATA_NOT_RDY: u32 = 1 << 4;
/// CSR.DMA_SIZE field (bits 9:8); 2 = 32-bit transfers, the reset value.
pub const CSR_DMA_SIZE_WORD: u32 = 2 << 8;
/// CSR.BSWAP: byte-swap each assembled little-endian bus word before the core sees
/// it (reset value 1), so a byte buffer read as little-endian words hashes as bytes.
pub const CSR_BSWAP: u32 = 1 << 12;
/// Bit of the SHA256 block in the RESETS registers.
pub const RESETS_BIT: u32 = 17;

/// Cycles the core is busy after each 16th WDATA word (datasheet CSR.WDATA_RDY).
pub const BUSY_CYCLES_PER_BLOCK: u32 = 57;

/// 32-bit register access at a byte offset from the block base.
pub trait Regs {
    fn read(&mut self, offset: u32) -> u32;
    fn write(&mut self, offset: u32, value: u32);
}

/// The device's registers, by volatile access at [`SHA256_BASE`].
pub struct Mmio(());

impl Mmio {
    /// # Safety
    /// Only on an RP2350 with the block out of reset, and with no other owner of
    /// the block (the engine state is global).
    pub const unsafe fn new() -> Self {
        Mmio(())
    }
}

impl Regs for Mmio {
    #[inline(always)]
    fn read(&mut self, offset: u32) -> u32 {
        // SAFETY: the constructor's contract: a valid, owned SHA256 register.
        unsafe { core::ptr::read_volatile((SHA256_BASE + offset as usize) as *const u32) }
    }
    #[inline(always)]
    fn write(&mut self, offset: u32, value: u32) {
        // SAFETY: as for `read`.
        unsafe { core::ptr::write_volatile((SHA256_BASE + offset as usize) as *mut u32, value) }
    }
}

/// The engine reported a WDATA write while it was not ready (CSR.ERR_WDATA_NOT_RDY):
/// the digest is not trustworthy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WdataNotReady;

/// How message bytes become WDATA words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ByteOrder {
    /// BSWAP=1: write bytes as little-endian words; the engine swaps them.
    EngineSwaps,
    /// BSWAP=0: the driver builds big-endian message words itself.
    DriverSwaps,
}

/// The SHA-256 engine behind a register interface.
pub struct Sha256Engine<R: Regs> {
    regs: R,
    order: ByteOrder,
}

impl<R: Regs> Sha256Engine<R> {
    pub fn new(regs: R, order: ByteOrder) -> Self {
        Sha256Engine { regs, order }
    }

    /// Gives the register interface back (the tests inspect the model through it).
    pub fn into_regs(self) -> R {
        self.regs
    }

    /// SHA-256 of `msg`; padding is done here, so every block is one WDATA burst.
    pub fn hash(&mut self, msg: &[u8]) -> Result<[u8; 32], WdataNotReady> {
        self.start();
        let mut blocks = msg.chunks_exact(64);
        for block in &mut blocks {
            self.write_block(block);
        }
        // FIPS 180-4 5.1.1: 0x80, zeros, then the bit length big-endian in the
        // last 8 bytes; one extra block when the tail leaves fewer than 9 bytes.
        let tail = blocks.remainder();
        let mut pad = [0u8; 128];
        pad[..tail.len()].copy_from_slice(tail);
        pad[tail.len()] = 0x80;
        let pad_len = if tail.len() < 56 { 64 } else { 128 };
        let bits = (msg.len() as u64).wrapping_mul(8);
        pad[pad_len - 8..pad_len].copy_from_slice(&bits.to_be_bytes());
        for block in pad[..pad_len].chunks_exact(64) {
            self.write_block(block);
        }
        self.finish()
    }

    /// The SHA-256 compression function applied to the IV and one unpadded block
    /// (not a SHA-256 digest of the block: no padding block follows).
    pub fn compress_from_iv(&mut self, block: &[u8; 64]) -> Result<[u8; 32], WdataNotReady> {
        self.start();
        self.write_block(block);
        self.finish()
    }

    fn csr_config(&self) -> u32 {
        match self.order {
            ByteOrder::EngineSwaps => CSR_DMA_SIZE_WORD | CSR_BSWAP,
            ByteOrder::DriverSwaps => CSR_DMA_SIZE_WORD,
        }
    }

    /// One CSR write: START plus the configuration, and a clear of a stale error.
    pub(crate) fn start(&mut self) {
        let csr = self.csr_config() | CSR_START | CSR_ERR_WDATA_NOT_RDY;
        self.regs.write(CSR, csr);
    }

    /// Polls WDATA_RDY (one CSR read when the engine is idle), then 16 WDATA writes.
    pub(crate) fn write_block(&mut self, block: &[u8]) {
        while self.regs.read(CSR) & CSR_WDATA_RDY == 0 {}
        for word in block.chunks_exact(4) {
            let bytes = [word[0], word[1], word[2], word[3]];
            let value = match self.order {
                ByteOrder::EngineSwaps => u32::from_le_bytes(bytes),
                ByteOrder::DriverSwaps => u32::from_be_bytes(bytes),
            };
            self.regs.write(WDATA, value);
        }
    }

    /// Polls SUM_VLD (the read that sees it also carries the error bit), then
    /// reads SUM0..SUM7; SUMn is the digest word H_n.
    pub(crate) fn finish(&mut self) -> Result<[u8; 32], WdataNotReady> {
        let mut out = [0; 8];
        self.finish_into(&mut out)?;
        Ok(picostark_sha256::digest_bytes(&out))
    }

    /// As [`Self::finish`], into `out` ([`DigestWords`]: word `i` is `SUMi.to_be()`).
    pub(crate) fn finish_into(&mut self, out: &mut DigestWords) -> Result<(), WdataNotReady> {
        let csr = loop {
            let csr = self.regs.read(CSR);
            if csr & CSR_SUM_VLD != 0 {
                break csr;
            }
        };
        if csr & CSR_ERR_WDATA_NOT_RDY != 0 {
            return Err(WdataNotReady);
        }
        for (i, o) in out.iter_mut().enumerate() {
            *o = self.regs.read(SUM0 + 4 * i as u32).to_be();
        }
        Ok(())
    }
}

/// The engine streams the blocks itself (START was written when the sink was made).
impl<R: Regs> BlockSink for Sha256Engine<R> {
    fn block(&mut self, block: &[u8; 64]) {
        self.write_block(block);
    }
    fn digest_into(mut self, out: &mut DigestWords) {
        engine_digest(&mut self, out)
    }
}

/// The engine's digest. A WDATA write while busy cannot come from the data hashed (the
/// driver polls WDATA_RDY before every block): it is a driver or hardware fault, not a
/// verdict on a proof, so it halts rather than returning a digest nobody can trust.
fn engine_digest<R: Regs>(engine: &mut Sha256Engine<R>, out: &mut DigestWords) {
    engine
        .finish_into(out)
        .expect("RP2350 SHA-256 engine: WDATA written while not ready")
}

/// `picostark-sha256`'s engine hooks, on the device's registers. The engine holds one
/// chaining state, so one hash holds it at a time; a hash started meanwhile runs in
/// software (same digest).
#[cfg(feature = "engine")]
pub mod hooks {
    use core::sync::atomic::{AtomicBool, Ordering};

    use super::{engine_digest, ByteOrder, Mmio, Sha256Engine};

    static IN_USE: AtomicBool = AtomicBool::new(false);

    fn device() -> Sha256Engine<Mmio> {
        // SAFETY: the firmware takes the block out of reset before verifying
        // (`firmware/src/hash_engine.rs`), and `IN_USE` makes the holder its only owner.
        Sha256Engine::new(unsafe { Mmio::new() }, ByteOrder::EngineSwaps)
    }

    #[no_mangle]
    pub fn pstk_sha256_engine_acquire() -> bool {
        if IN_USE.swap(true, Ordering::Acquire) {
            return false;
        }
        device().start();
        true
    }

    #[no_mangle]
    pub fn pstk_sha256_engine_block(block: &[u8; 64]) {
        device().write_block(block);
    }

    #[no_mangle]
    pub fn pstk_sha256_engine_digest(out: &mut [u32; 8]) {
        engine_digest(&mut device(), out)
    }

    #[no_mangle]
    pub fn pstk_sha256_engine_release() {
        IN_USE.store(false, Ordering::Release);
    }
}

#[cfg(test)]
mod model;
#[cfg(test)]
mod tests;

//! The verifiers' SHA-256: every 64-byte block goes through one call of a [`BlockSink`],
//! either the software compression [`pstk_sha256_compress`] or a hardware engine.
//!
//! A shared `no_std` building block: both backends' verifiers hash through it, so it sits on
//! the lowest floor beside `core`, and knows no board. With the crate feature `engine` each
//! hash first asks for the engine through four link-time hooks (module `engine`), which the
//! image's board defines: the RP2350 driver `verifier-mcu/rp2350-sha256` leases the chip's
//! engine, the firmware's QEMU boards always decline. Without the feature (host), or when the
//! hooks decline, the software runs. Under QEMU the timing model charges the engine's cost
//! per call of [`pstk_sha256_compress`] (`mcu-run run --sha256-engine` finds it by that
//! symbol), so the software path is laid out as one non-inlined call per block.
//!
//! The engine holds one chaining state, so two hashes cannot stream through it at once: a
//! hash started while another holds the engine runs in software (same digest).

#![no_std]

#[cfg(test)]
extern crate std;

/// SHA-256's initial state (FIPS 180-4, 5.3.3).
pub const IV: [u32; 8] = [
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];

/// Round constants (FIPS 180-4, 4.2.2).
const K: [u32; 64] = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
];

/// The SHA-256 compression function (FIPS 180-4, 6.2.2) on one block, in software.
///
/// The marker of the timing model's engine charge: one call per block, never inlined, and
/// calling nothing (the message schedule lives in a 16-word ring on the stack), so the
/// plugin's `offload=` range covers all of a block's instructions and nothing else.
/// Sixteen rounds are written out per loop pass, so the ring indices are constants and the
/// eight working variables rotate by name instead of by register moves.
#[no_mangle]
#[inline(never)]
pub extern "C" fn pstk_sha256_compress(state: &mut [u32; 8], block: &[u8; 64]) {
    let mut w: [u32; 16] = core::array::from_fn(|i| {
        u32::from_be_bytes([
            block[4 * i],
            block[4 * i + 1],
            block[4 * i + 2],
            block[4 * i + 3],
        ])
    });
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
    // One round on the named variables; `$j` is the round's index in the 16-word ring.
    macro_rules! round {
        ($pass:expr, $j:expr, $a:ident, $b:ident, $c:ident, $d:ident,
         $e:ident, $f:ident, $g:ident, $h:ident) => {{
            if $pass != 0 {
                let (w15, w2) = (w[($j + 1) & 15], w[($j + 14) & 15]);
                let s0 = w15.rotate_right(7) ^ w15.rotate_right(18) ^ (w15 >> 3);
                let s1 = w2.rotate_right(17) ^ w2.rotate_right(19) ^ (w2 >> 10);
                w[$j] = w[$j]
                    .wrapping_add(s0)
                    .wrapping_add(w[($j + 9) & 15])
                    .wrapping_add(s1);
            }
            let big_s1 = $e.rotate_right(6) ^ $e.rotate_right(11) ^ $e.rotate_right(25);
            let ch = $g ^ ($e & ($f ^ $g));
            let t1 = $h
                .wrapping_add(big_s1)
                .wrapping_add(ch)
                .wrapping_add(K[16 * $pass + $j])
                .wrapping_add(w[$j]);
            let big_s0 = $a.rotate_right(2) ^ $a.rotate_right(13) ^ $a.rotate_right(22);
            let maj = ($a & $b) | ($c & ($a | $b));
            $d = $d.wrapping_add(t1);
            $h = t1.wrapping_add(big_s0).wrapping_add(maj);
        }};
    }
    for pass in 0..4 {
        round!(pass, 0, a, b, c, d, e, f, g, h);
        round!(pass, 1, h, a, b, c, d, e, f, g);
        round!(pass, 2, g, h, a, b, c, d, e, f);
        round!(pass, 3, f, g, h, a, b, c, d, e);
        round!(pass, 4, e, f, g, h, a, b, c, d);
        round!(pass, 5, d, e, f, g, h, a, b, c);
        round!(pass, 6, c, d, e, f, g, h, a, b);
        round!(pass, 7, b, c, d, e, f, g, h, a);
        round!(pass, 8, a, b, c, d, e, f, g, h);
        round!(pass, 9, h, a, b, c, d, e, f, g);
        round!(pass, 10, g, h, a, b, c, d, e, f);
        round!(pass, 11, f, g, h, a, b, c, d, e);
        round!(pass, 12, e, f, g, h, a, b, c, d);
        round!(pass, 13, d, e, f, g, h, a, b, c);
        round!(pass, 14, c, d, e, f, g, h, a, b);
        round!(pass, 15, b, c, d, e, f, g, h, a);
    }
    for (s, v) in state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
        *s = s.wrapping_add(v);
    }
}

/// A digest as eight words in memory order: word `i` is `H_i.to_be()`, so the words' bytes
/// are the digest's 32 bytes on either core. The `_into` functions write one in place: a
/// `[u8; 32]` returned by value is moved with a `memcpy` call (byte-wise on the M33), and the
/// verifiers make one digest per Merkle node.
pub type DigestWords = [u32; 8];

/// The digest's 32 bytes.
pub fn digest_bytes(words: &DigestWords) -> [u8; 32] {
    // SAFETY: `[u32; 8]` is 32 initialised bytes; `[u8; 32]` has no alignment requirement.
    unsafe { core::mem::transmute::<DigestWords, [u8; 32]>(*words) }
}

/// `*state = IV`, once per Merkle node. The M33 copies the array with two load- and
/// store-multiples; on RV32 the array assignment is a `memcpy` call (32 bytes is past its
/// inline-copy limit at opt-level "s"), so there it is eight stores of constants.
#[inline(always)]
fn set_iv(state: &mut [u32; 8]) {
    if cfg!(target_arch = "arm") {
        *state = IV;
        return;
    }
    state[0] = IV[0];
    state[1] = IV[1];
    state[2] = IV[2];
    state[3] = IV[3];
    state[4] = IV[4];
    state[5] = IV[5];
    state[6] = IV[6];
    state[7] = IV[7];
}

/// A finished state, in place, as [`DigestWords`]; written out (a loop costs twice the
/// instructions, once per Merkle node).
#[inline(always)]
fn state_to_digest(state: &mut [u32; 8]) {
    state[0] = state[0].to_be();
    state[1] = state[1].to_be();
    state[2] = state[2].to_be();
    state[3] = state[3].to_be();
    state[4] = state[4].to_be();
    state[5] = state[5].to_be();
    state[6] = state[6].to_be();
    state[7] = state[7].to_be();
}

/// Where a hash's blocks go: one call per 64-byte block, then the digest.
pub trait BlockSink {
    fn block(&mut self, block: &[u8; 64]);
    fn digest_into(self, out: &mut DigestWords);

    fn digest(self) -> [u8; 32]
    where
        Self: Sized,
    {
        let mut out = [0; 8];
        self.digest_into(&mut out);
        digest_bytes(&out)
    }
}

/// The software compression from the initial state.
pub struct Software([u32; 8]);

impl Default for Software {
    fn default() -> Self {
        Software(IV)
    }
}

impl BlockSink for Software {
    fn block(&mut self, block: &[u8; 64]) {
        pstk_sha256_compress(&mut self.0, block);
    }
    fn digest_into(mut self, out: &mut DigestWords) {
        state_to_digest(&mut self.0);
        *out = self.0;
    }
}

/// A SHA-256 computation in progress: bytes in, one [`BlockSink::block`] per full block,
/// padding (FIPS 180-4, 5.1.1) at the end.
pub struct Stream<S: BlockSink> {
    buf: [u8; 64],
    fill: usize,
    len: u64,
    sink: S,
}

impl<S: BlockSink> Stream<S> {
    pub fn with_sink(sink: S) -> Self {
        Stream {
            buf: [0; 64],
            fill: 0,
            len: 0,
            sink,
        }
    }

    pub fn update(&mut self, mut bytes: &[u8]) {
        self.len = self.len.wrapping_add(bytes.len() as u64);
        if self.fill > 0 {
            let take = bytes.len().min(64 - self.fill);
            self.buf[self.fill..self.fill + take].copy_from_slice(&bytes[..take]);
            self.fill += take;
            bytes = &bytes[take..];
            if self.fill < 64 {
                return;
            }
            self.sink.block(&self.buf);
            self.fill = 0;
        }
        let mut blocks = bytes.chunks_exact(64);
        for block in &mut blocks {
            self.sink.block(block.try_into().expect("64-byte chunk"));
        }
        let tail = blocks.remainder();
        self.buf[..tail.len()].copy_from_slice(tail);
        self.fill = tail.len();
    }

    pub fn update_byte(&mut self, byte: u8) {
        self.len = self.len.wrapping_add(1);
        self.buf[self.fill] = byte;
        self.fill += 1;
        if self.fill == 64 {
            self.sink.block(&self.buf);
            self.fill = 0;
        }
    }

    /// The digest of the bytes given.
    pub fn finalize(self) -> [u8; 32] {
        self.pad().digest()
    }

    /// The digest of the bytes given, written into `out`.
    pub fn finalize_into(self, out: &mut DigestWords) {
        self.pad().digest_into(out)
    }

    /// Writes the padding blocks and gives the sink back, before its digest.
    pub fn pad(mut self) -> S {
        // The buffer holds earlier blocks' bytes past the tail.
        self.buf[self.fill..].fill(0);
        let sink = &mut self.sink;
        final_blocks(&mut self.buf, self.fill, self.len, |block| {
            sink.block(block)
        });
        self.sink
    }
}

/// The hooks an image's board defines (with `#[no_mangle]`) when the `engine` feature is on:
/// a hardware engine's driver, or hooks that always decline; the lease below is their only
/// caller.
#[cfg(feature = "engine")]
pub mod engine {
    extern "Rust" {
        /// Takes the engine and starts a hash (the engine's IV loaded), or returns `false`
        /// while another hash holds it.
        pub fn pstk_sha256_engine_acquire() -> bool;
        /// Gives the engine one 64-byte block of the hash in progress.
        pub fn pstk_sha256_engine_block(block: &[u8; 64]);
        /// Writes the digest of the blocks given (as [`super::DigestWords`]).
        pub fn pstk_sha256_engine_digest(out: &mut [u32; 8]);
        /// Frees the engine for the next hash.
        pub fn pstk_sha256_engine_release();
    }
}

#[cfg(feature = "engine")]
mod lease {
    use super::{engine, BlockSink, DigestWords};

    /// The engine, held by one hash from its start to the digest (or until dropped).
    pub struct Lease(());

    impl Lease {
        /// The engine, started, or `None` while another hash holds it.
        pub fn take() -> Option<Lease> {
            // SAFETY: the driver's hook; defined once per image by the engine's driver.
            unsafe { engine::pstk_sha256_engine_acquire() }.then_some(Lease(()))
        }
    }

    impl BlockSink for Lease {
        fn block(&mut self, block: &[u8; 64]) {
            // SAFETY: as in `take`; this lease holds the engine.
            unsafe { engine::pstk_sha256_engine_block(block) }
        }
        // `self` (and so the lease) is dropped after the digest is read.
        fn digest_into(self, out: &mut DigestWords) {
            // SAFETY: as in `block`.
            unsafe { engine::pstk_sha256_engine_digest(out) }
        }
    }

    impl Drop for Lease {
        fn drop(&mut self) {
            // SAFETY: as in `block`; the engine is given back once, by its holder.
            unsafe { engine::pstk_sha256_engine_release() }
        }
    }
}

/// This build's sink: the engine when the `engine` feature is on and its hooks lease it, else
/// the software compression.
pub enum Selected {
    Software(Software),
    #[cfg(feature = "engine")]
    Engine(lease::Lease),
}

impl Default for Selected {
    fn default() -> Self {
        #[cfg(feature = "engine")]
        if let Some(lease) = lease::Lease::take() {
            return Selected::Engine(lease);
        }
        Selected::Software(Software::default())
    }
}

impl BlockSink for Selected {
    fn block(&mut self, block: &[u8; 64]) {
        match self {
            Selected::Software(s) => s.block(block),
            #[cfg(feature = "engine")]
            Selected::Engine(l) => l.block(block),
        }
    }
    fn digest_into(self, out: &mut DigestWords) {
        match self {
            Selected::Software(s) => s.digest_into(out),
            #[cfg(feature = "engine")]
            Selected::Engine(l) => l.digest_into(out),
        }
    }
}

/// SHA-256 with this build's implementation.
pub type Sha256 = Stream<Selected>;

impl Sha256 {
    pub fn new() -> Self {
        Stream::with_sink(Selected::default())
    }
}

impl Default for Sha256 {
    fn default() -> Self {
        Self::new()
    }
}

/// SHA-256 of `bytes` (padded), with this build's implementation.
pub fn sha256(bytes: &[u8]) -> [u8; 32] {
    let mut out = [0; 8];
    sha256_into(bytes, &mut out);
    digest_bytes(&out)
}

/// SHA-256 of `bytes` (padded) into `out`. One message at once: the full blocks are
/// compressed where they lie and only the tail is copied, into the one padding buffer
/// (a [`Stream`] zeroes its own buffer, copies the tail there and zeroes it again to pad).
pub fn sha256_into(bytes: &[u8], out: &mut DigestWords) {
    #[cfg(feature = "engine")]
    if let Some(mut lease) = lease::Lease::take() {
        padded_blocks(bytes, |block| lease.block(block));
        return lease.digest_into(out);
    }
    set_iv(out);
    padded_blocks(bytes, |block| pstk_sha256_compress(out, block));
    state_to_digest(out);
}

/// Gives `put` the blocks of the padded message `bytes` (FIPS 180-4, 5.1.1).
fn padded_blocks(bytes: &[u8], mut put: impl FnMut(&[u8; 64])) {
    let mut blocks = bytes.chunks_exact(64);
    for block in &mut blocks {
        put(block.try_into().expect("64-byte chunk"));
    }
    let tail = blocks.remainder();
    let mut last = [0u8; 64];
    last[..tail.len()].copy_from_slice(tail);
    final_blocks(&mut last, tail.len(), bytes.len() as u64, put);
}

/// The padding of a message of `len` bytes whose last `fill` (< 64) bytes are at the start
/// of `last`, zeros after them: the 0x80 byte, zeros and the bit length, in one or two blocks
/// given to `put`. (The caller zeroes: the one-shot hash's buffer is zero already, and
/// zeroing it again cost about 4 k instructions per verification.)
#[inline(always)]
fn final_blocks(last: &mut [u8; 64], fill: usize, len: u64, mut put: impl FnMut(&[u8; 64])) {
    last[fill] = 0x80;
    if fill >= 56 {
        put(last);
        *last = [0; 64];
    }
    last[56..].copy_from_slice(&len.wrapping_mul(8).to_be_bytes());
    put(last);
}

/// The compression function on the initial state and one unpadded block (a Merkle node
/// of two 32-byte digests), with this build's implementation: one block, one call.
pub fn compress_from_iv(block: &[u8; 64]) -> [u8; 32] {
    let mut out = [0; 8];
    compress_from_iv_into(block, &mut out);
    digest_bytes(&out)
}

/// As [`compress_from_iv`], into `out`: the state is compressed where the digest goes.
pub fn compress_from_iv_into(block: &[u8; 64], out: &mut DigestWords) {
    #[cfg(feature = "engine")]
    if let Some(mut lease) = lease::Lease::take() {
        lease.block(block);
        return lease.digest_into(out);
    }
    set_iv(out);
    pstk_sha256_compress(out, block);
    state_to_digest(out);
}

#[cfg(test)]
mod tests;

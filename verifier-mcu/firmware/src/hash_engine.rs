//! The verifiers' hash in this firmware (issue 17): which implementation a proof's hash runs
//! with, and, on the board, the SHA-256 engine's bring-up.
//!
//! Both protocols hash SHA-256 through `picostark_sha256`, one call per 64-byte block. The
//! `rp2350` board build links the engine driver `rp2350_sha256` with its `engine` feature
//! (Cargo.toml), which defines that crate's engine hooks, so there the RP2350's SHA-256
//! block does the compressions. The QEMU builds (no such device) define hooks that decline,
//! so each hash asks for the engine as on the board and then runs the software compression,
//! and `mcu-run run --sha256-engine` has the timing model charge the engine's cost per call
//! in its place. BLAKE3 is always software.

use picostark_core::HashId;
// The engine hooks are defined in the driver; nothing here names it otherwise, and an
// unnamed crate is not linked.
#[cfg(feature = "rp2350")]
use rp2350_sha256 as _;

/// The `hash_impl` a run line states for a proof hashed with `hash`.
pub fn implementation(hash: HashId) -> &'static str {
    match hash {
        HashId::Blake3_256 => "blake3-software",
        HashId::Sha256 if cfg!(feature = "rp2350") => "sha256-engine",
        HashId::Sha256 => "sha256-software",
        HashId::Blake2s256 => "blake2s-software",
    }
}

/// The engine hooks of the QEMU boards: no engine, so every hash runs in software. The
/// firmware enables `picostark_sha256`'s `engine` feature in every build (Cargo.toml), so an
/// image without the driver must define them.
#[cfg(not(feature = "rp2350"))]
mod no_engine {
    #[no_mangle]
    pub fn pstk_sha256_engine_acquire() -> bool {
        false
    }

    // Never called: only a lease calls these, and no lease is ever taken.
    #[no_mangle]
    pub fn pstk_sha256_engine_block(_block: &[u8; 64]) {}

    #[no_mangle]
    pub fn pstk_sha256_engine_digest(_out: &mut [u32; 8]) {}

    #[no_mangle]
    pub fn pstk_sha256_engine_release() {}
}

/// Takes the SHA-256 block out of reset (RESETS bit 17) and waits until it is; the engine
/// driver assumes this has happened before the first hash.
#[cfg(feature = "rp2350")]
pub fn enable(resets: &rp235x_hal::pac::RESETS) {
    resets.reset().modify(|_, w| w.sha256().clear_bit());
    while resets.reset_done().read().sha256().bit_is_clear() {}
}

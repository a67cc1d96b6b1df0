//! The driver against the register model: digests equal `sha2`'s, and the register
//! sequence is the one the timing model charges for.

use crate::model::{Access, Model};
use crate::*;
use sha2::{Digest, Sha256};
use std::vec::Vec;

fn engine(order: ByteOrder) -> Sha256Engine<Model> {
    Sha256Engine::new(Model::new(), order)
}

fn reference(msg: &[u8]) -> [u8; 32] {
    Sha256::digest(msg).into()
}

/// Deterministic test bytes (xorshift64), so failures reproduce.
fn bytes(seed: u64, len: usize) -> Vec<u8> {
    let mut x = seed | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

fn hex(s: &str) -> [u8; 32] {
    let mut out = [0u8; 32];
    for (i, o) in out.iter_mut().enumerate() {
        *o = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap();
    }
    out
}

#[test]
fn fips_180_4_known_answers_both_byte_orders() {
    let cases: [(&[u8], &str); 3] = [
        (
            b"abc",
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
        ),
        (
            b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
        ),
        (
            b"",
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        ),
    ];
    for order in [ByteOrder::EngineSwaps, ByteOrder::DriverSwaps] {
        for (msg, want) in cases {
            assert_eq!(engine(order).hash(msg), Ok(hex(want)), "{order:?} {msg:?}");
        }
    }
}

#[test]
fn padding_boundary_lengths_match_sha2() {
    for order in [ByteOrder::EngineSwaps, ByteOrder::DriverSwaps] {
        for len in [55, 56, 63, 64, 65, 119, 120, 128] {
            let msg = bytes(len as u64, len);
            let mut e = engine(order);
            assert_eq!(e.hash(&msg), Ok(reference(&msg)), "{order:?} len {len}");
            // 9 bytes of padding at least: 55 fits one block, 56 needs two.
            let blocks = (len + 9).div_ceil(64);
            let model = e.into_regs();
            assert_eq!(model.blocks, blocks, "len {len}");
            assert!(!model.sum_read_invalid);
        }
    }
}

#[test]
fn random_inputs_match_sha2() {
    for seed in 1..200u64 {
        let len = (seed * 37 % 300) as usize;
        let msg = bytes(seed, len);
        assert_eq!(
            engine(ByteOrder::EngineSwaps).hash(&msg),
            Ok(reference(&msg))
        );
    }
}

#[test]
fn wrong_byte_order_gives_a_different_digest() {
    // The BSWAP setting matters: words written for BSWAP=1 into an engine left at
    // BSWAP=0 hash different message words.
    let mut model = Model::new();
    model.write(CSR, CSR_START);
    for w in b"abc\x80".chunks(4).chain([[0u8; 4].as_slice(); 14]) {
        model.write(WDATA, u32::from_le_bytes([w[0], w[1], w[2], w[3]]));
    }
    model.write(WDATA, 24u32.swap_bytes());
    while model.read(CSR) & CSR_SUM_VLD == 0 {}
    let sum0 = model.read(SUM0);
    assert_ne!(sum0, 0xba7816bf);
}

#[test]
fn compress_from_iv_is_one_unpadded_block() {
    let block: [u8; 64] = bytes(7, 64).try_into().unwrap();
    let mut state = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
        0x5be0cd19,
    ];
    sha2::block_api::compress256(&mut state, &[block]);
    let mut want = [0u8; 32];
    for (o, w) in want.chunks_exact_mut(4).zip(state) {
        o.copy_from_slice(&w.to_be_bytes());
    }
    let mut e = engine(ByteOrder::EngineSwaps);
    assert_eq!(e.compress_from_iv(&block), Ok(want));
    assert_ne!(want, reference(&block), "a padded digest would differ");
}

#[test]
fn start_resets_the_state_between_messages() {
    let mut e = engine(ByteOrder::EngineSwaps);
    let first = bytes(1, 100);
    assert_eq!(e.hash(&first), Ok(reference(&first)));
    assert_eq!(e.hash(b"abc"), Ok(reference(b"abc")));
}

#[test]
fn register_sequence_per_block() {
    // The sequence the timing model's offload charge counts: START write; per block
    // one CSR poll (idle engine) and 16 WDATA writes; after the last block CSR polls
    // until SUM_VLD, then 8 SUM reads.
    let mut e = engine(ByteOrder::EngineSwaps);
    e.compress_from_iv(&[0u8; 64]).unwrap();
    let log = e.into_regs().log;
    assert_eq!(
        log[0],
        Access::Write(
            CSR,
            CSR_START | CSR_ERR_WDATA_NOT_RDY | CSR_BSWAP | CSR_DMA_SIZE_WORD
        )
    );
    assert_eq!(log[1], Access::Read(CSR));
    assert!(log[2..18]
        .iter()
        .all(|a| matches!(a, Access::Write(WDATA, _))));
    let polls = log[18..]
        .iter()
        .take_while(|a| **a == Access::Read(CSR))
        .count();
    // Busy for 57 cycles at one model cycle per access: 57 polls see SUM_VLD low,
    // the 58th sees it high.
    assert_eq!(polls, BUSY_CYCLES_PER_BLOCK as usize + 1);
    let sums: Vec<_> = log[18 + polls..].to_vec();
    let want: Vec<_> = (0..8).map(|i| Access::Read(SUM0 + 4 * i)).collect();
    assert_eq!(sums, want);
}

#[test]
fn write_while_busy_is_reported() {
    // A driver that skipped the WDATA_RDY poll: the model flags the error, and the
    // driver's finish() turns the flag into a typed error.
    let mut model = Model::new();
    model.write(CSR, CSR_START | CSR_BSWAP);
    for _ in 0..17 {
        model.write(WDATA, 0);
    }
    assert_ne!(model.read(CSR) & CSR_ERR_WDATA_NOT_RDY, 0);
    let mut e = Sha256Engine::new(model, ByteOrder::EngineSwaps);
    assert_eq!(e.finish(), Err(WdataNotReady));
    // START clears it.
    assert_eq!(e.hash(b"abc"), Ok(reference(b"abc")));
}

/// The engine as `picostark-sha256`'s block sink: `sha2`'s digests whatever way the bytes
/// arrive, and the Merkle node function (one unpadded block from the IV).
mod interface {
    use super::*;
    use picostark_sha256::{BlockSink, Stream};

    fn started_engine() -> Sha256Engine<Model> {
        let mut e = engine(ByteOrder::EngineSwaps);
        e.start();
        e
    }

    /// The message fed in three ways: at once, byte by byte, and in uneven pieces.
    fn feed<S: BlockSink>(make: impl Fn() -> S, msg: &[u8]) -> [[u8; 32]; 3] {
        let mut whole = Stream::with_sink(make());
        whole.update(msg);
        let mut bytewise = Stream::with_sink(make());
        msg.iter().for_each(|b| bytewise.update_byte(*b));
        let mut pieces = Stream::with_sink(make());
        for (i, piece) in msg.chunks(23).enumerate() {
            let (a, b) = piece.split_at(i % piece.len().max(1));
            pieces.update(a);
            if let Some((first, rest)) = b.split_first() {
                pieces.update_byte(*first);
                pieces.update(rest);
            }
        }
        [whole.finalize(), bytewise.finalize(), pieces.finalize()]
    }

    #[test]
    fn engine_sink_matches_sha2_at_every_padding_boundary() {
        for len in (0..=200).chain([255, 256, 1000]) {
            let msg = bytes(len as u64 + 11, len);
            let want = reference(&msg);
            for got in feed(started_engine, &msg) {
                assert_eq!(got, want, "engine model, len {len}");
            }
        }
        let [got, ..] = feed(started_engine, b"abd");
        assert_ne!(got, reference(b"abc"));
    }

    #[test]
    fn compress_from_iv_matches_the_software_node_function() {
        for seed in 1..20u64 {
            let block: [u8; 64] = bytes(seed, 64).try_into().unwrap();
            let want = picostark_sha256::compress_from_iv(&block);
            assert_eq!(
                engine(ByteOrder::EngineSwaps).compress_from_iv(&block),
                Ok(want)
            );
            let mut other = block;
            other[63] ^= 1;
            assert_ne!(
                engine(ByteOrder::EngineSwaps).compress_from_iv(&other),
                Ok(want)
            );
        }
    }
}

//! The software sink and this build's one-shot functions against `sha2`: digests at every
//! padding boundary whatever way the bytes arrive, one sink call per 64-byte block.

use crate::*;
use sha2::Digest;
use std::vec::Vec;

fn reference(msg: &[u8]) -> [u8; 32] {
    sha2::Sha256::digest(msg).into()
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

/// Counts the blocks a sink is given (the timing model charges one engine call each).
struct Counted<S>(S, usize);

impl<S: BlockSink> BlockSink for Counted<S> {
    fn block(&mut self, block: &[u8; 64]) {
        self.1 += 1;
        self.0.block(block);
    }
    fn digest_into(self, out: &mut DigestWords) {
        self.0.digest_into(out)
    }
}

/// The message fed in three ways: at once, byte by byte, and in uneven pieces.
fn feed(msg: &[u8]) -> [[u8; 32]; 3] {
    let mut whole = Stream::with_sink(Software::default());
    whole.update(msg);
    let mut bytewise = Stream::with_sink(Software::default());
    msg.iter().for_each(|b| bytewise.update_byte(*b));
    let mut pieces = Stream::with_sink(Software::default());
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
fn software_matches_sha2_at_every_padding_boundary() {
    for len in (0..=200).chain([255, 256, 1000]) {
        let msg = bytes(len as u64 + 11, len);
        let want = reference(&msg);
        for got in feed(&msg) {
            assert_eq!(got, want, "software, len {len}");
        }
        assert_eq!(sha256(&msg), want, "this build, len {len}");
        assert_eq!(Sha256::new().finalize(), reference(b""));
    }
    assert_ne!(sha256(b"abd"), reference(b"abc"));
}

#[test]
fn one_sink_call_per_block() {
    for len in [0, 55, 56, 64, 119, 120, 300] {
        let msg = bytes(3, len);
        let mut h = Stream::with_sink(Counted(Software::default(), 0));
        h.update(&msg);
        let sink = h.pad();
        // 9 bytes of padding at least: 55 fits one block, 56 needs two.
        assert_eq!(sink.1, (len + 9).div_ceil(64), "len {len}");
        assert_eq!(sink.digest(), reference(&msg));
    }
}

#[test]
fn compress_from_iv_is_the_compression_of_one_unpadded_block() {
    for seed in 1..20u64 {
        let block: [u8; 64] = bytes(seed, 64).try_into().unwrap();
        let mut state = IV;
        sha2::block_api::compress256(&mut state, &[block]);
        let mut want = [0u8; 32];
        for (o, w) in want.chunks_exact_mut(4).zip(state) {
            o.copy_from_slice(&w.to_be_bytes());
        }
        assert_eq!(compress_from_iv(&block), want);
        let mut words = [0; 8];
        compress_from_iv_into(&block, &mut words);
        assert_eq!(digest_bytes(&words), want);
        let mut other = block;
        other[63] ^= 1;
        assert_ne!(compress_from_iv(&other), want);
    }
}

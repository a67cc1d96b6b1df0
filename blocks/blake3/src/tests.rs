//! Digests against the `blake3` crate, which defines the function.

use std::vec::Vec;

use super::*;

/// Bytes that differ at every position and between lengths (a zero input would hide a
/// misplaced word).
fn input(len: usize, seed: u32) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9e37_79b9) | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x as u8
        })
        .collect()
}

fn words_as_bytes(w: &[u32; 8]) -> [u8; 32] {
    let mut b = [0u8; 32];
    for (o, w) in b.chunks_exact_mut(4).zip(w) {
        o.copy_from_slice(&w.to_ne_bytes());
    }
    b
}

#[test]
fn schedule_is_the_permutation_applied_round_by_round() {
    const PERMUTATION: [usize; 16] = [2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8];
    assert_eq!(SCHEDULE[0], core::array::from_fn(|i| i));
    for r in 1..7 {
        let expected: [usize; 16] = core::array::from_fn(|i| SCHEDULE[r - 1][PERMUTATION[i]]);
        assert_eq!(SCHEDULE[r], expected, "round {r}");
    }
}

#[test]
fn every_length_to_past_three_chunks_agrees_with_the_crate() {
    for len in 0..=3 * CHUNK_LEN + 2 * BLOCK_LEN + 1 {
        let data = input(len, len as u32);
        let expected: [u8; 32] = blake3::hash(&data).into();
        assert_eq!(hash(&data), expected, "length {len}");
        let mut w = [0u32; 8];
        hash_words(&data, &mut w);
        assert_eq!(words_as_bytes(&w), expected, "length {len}, words");
    }
}

#[test]
fn tree_shapes_past_a_power_of_two_agree_with_the_crate() {
    // 5, 8, 9, 16 and 17 chunks: an unbalanced right side, full trees, one chunk beyond.
    for chunks in [5usize, 8, 9, 16, 17] {
        for extra in [0usize, 1, CHUNK_LEN - 1] {
            let len = (chunks - 1) * CHUNK_LEN + extra.max(1);
            let data = input(len, chunks as u32);
            let expected: [u8; 32] = blake3::hash(&data).into();
            assert_eq!(hash(&data), expected, "{chunks} chunks, length {len}");
        }
    }
}

#[test]
fn a_block_of_words_is_the_hash_of_its_bytes() {
    for seed in 0..64 {
        let data = input(64, seed);
        let mut block = [0u32; 16];
        for (w, b) in block.iter_mut().zip(data.chunks_exact(4)) {
            *w = u32::from_ne_bytes([b[0], b[1], b[2], b[3]]);
        }
        let mut out = [0u32; 8];
        hash_block_words(&block, &mut out);
        let expected: [u8; 32] = blake3::hash(&data).into();
        assert_eq!(words_as_bytes(&out), expected, "seed {seed}");
    }
}

#[test]
fn the_specification_test_vector_for_the_empty_input() {
    // BLAKE3's published digest of the empty string (its test_vectors.json, input_len 0).
    let expected = "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262";
    let got: std::string::String = hash(&[]).iter().map(|b| std::format!("{b:02x}")).collect();
    assert_eq!(got, expected);
}

#[test]
fn a_changed_byte_changes_the_digest() {
    let data = input(700, 7);
    let base = hash(&data);
    for i in [0, 63, 64, 699] {
        let mut t = data.clone();
        t[i] ^= 1;
        assert_ne!(hash(&t), base, "byte {i}");
    }
}

/// The counter sees every compression `hash` performs: the BLAKE3 tree's count for each
/// length (single block, chunk edges, parents). It counts this thread only, so the other
/// tests hashing beside it do not change the figure.
#[cfg(feature = "count")]
#[test]
fn the_counter_counts_the_tree_compressions() {
    use crate::count;
    // Another thread hashing while this one counts: none of it may be counted here.
    let other = std::thread::spawn(|| {
        count::reset();
        for _ in 0..200 {
            crate::hash(&input(4097, 3));
        }
        count::compressions()
    });
    for len in [0, 1, 64, 65, 1024, 1025, 2048, 4097] {
        let data = input(len, 9);
        count::reset();
        crate::hash(&data);
        assert_eq!(
            count::compressions(),
            count::compressions_for(len),
            "length {len}"
        );
    }
    assert_eq!(other.join().unwrap(), 200 * count::compressions_for(4097));
    count::stop();
    assert_eq!(count::compressions_for(1025), 18);
}

#[test]
fn inputs_at_every_word_offset_agree_with_the_crate() {
    // Full blocks are read in place when word-aligned and copied otherwise: both paths, over
    // one and several blocks and chunks.
    for len in [
        64,
        65,
        128,
        1000,
        CHUNK_LEN,
        CHUNK_LEN + 64,
        2 * CHUNK_LEN + 5,
    ] {
        let data = input(len + 3, len as u32);
        for offset in 0..4 {
            let slice = &data[offset..offset + len];
            let expected: [u8; 32] = blake3::hash(slice).into();
            assert_eq!(hash(slice), expected, "length {len}, offset {offset}");
        }
    }
}

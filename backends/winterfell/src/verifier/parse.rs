//! A bounded, borrowing parser for winterfell 0.13's `Proof::to_bytes()` layout.
//!
//! Upstream's `Proof::from_bytes` copies every section into its own `Vec` and pre-allocates
//! from lengths read from the input; it also refuses the zkmcu fork's extension tag 4. This
//! parser only splits the input into borrowed sections: every length is checked against the
//! bytes that remain before it is used, nothing is allocated, and trailing bytes are an error.
//! The sections' contents (digests, field elements, Merkle paths) are decoded later, against
//! the shapes the verifier expects.
//!
//! Layout (integers little-endian; `vint` is winter-utils' variable-length `usize`):
//!
//! ```text
//! context:     main_width u8, aux_width u8, aux_rands u8, log2(n) u8, meta_len u16, meta,
//!              modulus_len u8, modulus, options (10 bytes), num_constraints vint
//! num_unique_queries u8
//! commitments: len u16, digests
//! trace queries (one per segment): values (vint len + bytes), paths (vint len + bytes)
//! constraint queries: values, paths (as above)
//! OOD frame:   trace states (len u16 + bytes), quotient states (len u16 + bytes)
//! FRI proof:   num_layers u8, per layer values (len u32 + bytes) and paths (len u32 + bytes),
//!              remainder (len u16 + bytes), log2(num_partitions) u8
//! pow nonce u64
//! ```

use picostark_core::VerifyError;
use winter_math::FieldElement;
use winter_utils::SliceReader;

/// Upper bound on FRI layers: a domain of at most 2^32 points folded by at least 2.
pub const MAX_FRI_LAYERS: usize = 32;

pub(super) fn malformed(what: &'static str) -> VerifyError {
    VerifyError::MalformedProof(what)
}

/// Decodes the `i`-th element of type `E` from `bytes` (canonical encoding enforced).
pub fn element_at<E: FieldElement>(bytes: &[u8], i: usize) -> Result<E, VerifyError> {
    let at = i * E::ELEMENT_BYTES;
    let slice = bytes
        .get(at..at + E::ELEMENT_BYTES)
        .ok_or(malformed("field element out of range"))?;
    E::read_from(&mut SliceReader::new(slice)).map_err(|_| malformed("non-canonical field element"))
}

/// A cursor over untrusted bytes; every read is bounds-checked.
pub struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes, pos: 0 }
    }

    pub fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }

    pub fn take(&mut self, len: usize, what: &'static str) -> Result<&'a [u8], VerifyError> {
        if len > self.remaining() {
            return Err(malformed(what));
        }
        let out = &self.bytes[self.pos..self.pos + len];
        self.pos += len;
        Ok(out)
    }

    pub fn u8(&mut self, what: &'static str) -> Result<u8, VerifyError> {
        Ok(self.take(1, what)?[0])
    }

    pub fn u16(&mut self, what: &'static str) -> Result<u16, VerifyError> {
        let b = self.take(2, what)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    pub fn u32(&mut self, what: &'static str) -> Result<u32, VerifyError> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    pub fn u64(&mut self, what: &'static str) -> Result<u64, VerifyError> {
        let b = self.take(8, what)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }

    /// winter-utils' variable-length `usize`: the number of trailing zero bits of the first
    /// byte, plus one, is the encoded length (a zero first byte means 8 more bytes follow).
    /// Only the shortest form of a value is accepted (winter-utils writes it; upstream's
    /// reader would also take longer ones), so a proof has one encoding.
    pub fn vint(&mut self, what: &'static str) -> Result<u64, VerifyError> {
        let first = *self.bytes.get(self.pos).ok_or(malformed(what))?;
        let len = first.trailing_zeros() as usize + 1;
        let value = if len == 9 {
            self.take(1, what)?;
            self.u64(what)?
        } else {
            let b = self.take(len, what)?;
            let mut a = [0u8; 8];
            a[..len].copy_from_slice(b);
            u64::from_le_bytes(a) >> len
        };
        // `len` bytes carry 7 * len bits (64 for the 9-byte form); one byte fewer must not do.
        if len > 1 && value >> (7 * (len - 1)).min(63) == 0 {
            return Err(malformed("overlong variable-length integer"));
        }
        Ok(value)
    }

    /// A length-prefixed byte section whose length must fit in what remains.
    pub fn vint_bytes(&mut self, what: &'static str) -> Result<&'a [u8], VerifyError> {
        let len = self.vint(what)?;
        if len > self.remaining() as u64 {
            return Err(malformed(what));
        }
        self.take(len as usize, what)
    }
}

/// The raw `ProofOptions` bytes of the context.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawOptions {
    pub num_queries: u8,
    pub blowup: u8,
    pub grinding: u8,
    /// 1 = none, 2 = quadratic, 3 = cubic (upstream); 4 = quartic (the zkmcu fork).
    pub extension_tag: u8,
    pub fri_folding: u8,
    pub fri_remainder_max_degree: u8,
    pub batching_constraints: u8,
    pub batching_deep: u8,
    pub num_partitions: u8,
    pub hash_rate: u8,
}

/// One FRI layer's sections.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RawFriLayer<'a> {
    pub values: &'a [u8],
    pub paths: &'a [u8],
}

/// A winterfell proof split into borrowed sections.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawProof<'a> {
    pub main_width: u8,
    pub aux_width: u8,
    pub aux_rands: u8,
    pub log_n: u8,
    pub trace_meta: &'a [u8],
    pub modulus: &'a [u8],
    pub options: RawOptions,
    pub num_constraints: u64,
    pub num_unique_queries: u8,
    pub commitments: &'a [u8],
    pub trace_values: &'a [u8],
    pub trace_paths: &'a [u8],
    pub constraint_values: &'a [u8],
    pub constraint_paths: &'a [u8],
    pub ood_trace: &'a [u8],
    pub ood_quotient: &'a [u8],
    pub num_fri_layers: usize,
    pub fri_layers: [RawFriLayer<'a>; MAX_FRI_LAYERS],
    pub fri_remainder: &'a [u8],
    pub fri_log_partitions: u8,
    pub pow_nonce: u64,
}

impl<'a> RawProof<'a> {
    /// Splits `bytes` into sections. Only single-segment traces are accepted (the AIRs here
    /// have no auxiliary segment), so exactly one set of trace queries follows.
    pub fn parse(bytes: &'a [u8]) -> Result<Self, VerifyError> {
        let mut r = Reader::new(bytes);
        let main_width = r.u8("trace info")?;
        let aux_width = r.u8("trace info")?;
        let aux_rands = r.u8("trace info")?;
        let log_n = r.u8("trace info")?;
        let meta_len = r.u16("trace info")? as usize;
        let trace_meta = r.take(meta_len, "trace metadata")?;
        if aux_width != 0 || aux_rands != 0 {
            return Err(VerifyError::Unsupported("auxiliary trace segments"));
        }
        let modulus_len = r.u8("field modulus")? as usize;
        let modulus = r.take(modulus_len, "field modulus")?;
        let o = r.take(10, "proof options")?;
        let options = RawOptions {
            num_queries: o[0],
            blowup: o[1],
            grinding: o[2],
            extension_tag: o[3],
            fri_folding: o[4],
            fri_remainder_max_degree: o[5],
            batching_constraints: o[6],
            batching_deep: o[7],
            num_partitions: o[8],
            hash_rate: o[9],
        };
        let num_constraints = r.vint("number of constraints")?;
        let num_unique_queries = r.u8("number of queries")?;
        let commitments_len = r.u16("commitments")? as usize;
        let commitments = r.take(commitments_len, "commitments")?;
        let trace_values = r.vint_bytes("trace query values")?;
        let trace_paths = r.vint_bytes("trace query paths")?;
        let constraint_values = r.vint_bytes("constraint query values")?;
        let constraint_paths = r.vint_bytes("constraint query paths")?;
        let ood_len = r.u16("OOD frame")? as usize;
        let ood_trace = r.take(ood_len, "OOD frame")?;
        let ood_len = r.u16("OOD frame")? as usize;
        let ood_quotient = r.take(ood_len, "OOD frame")?;
        let num_fri_layers = r.u8("FRI layers")? as usize;
        if num_fri_layers > MAX_FRI_LAYERS {
            return Err(malformed("too many FRI layers"));
        }
        let mut fri_layers = [RawFriLayer::default(); MAX_FRI_LAYERS];
        for layer in fri_layers.iter_mut().take(num_fri_layers) {
            let len = r.u32("FRI layer values")? as usize;
            let values = r.take(len, "FRI layer values")?;
            let len = r.u32("FRI layer paths")? as usize;
            let paths = r.take(len, "FRI layer paths")?;
            *layer = RawFriLayer { values, paths };
        }
        let remainder_len = r.u16("FRI remainder")? as usize;
        let fri_remainder = r.take(remainder_len, "FRI remainder")?;
        let fri_log_partitions = r.u8("FRI partitions")?;
        let pow_nonce = r.u64("proof-of-work nonce")?;
        if r.remaining() != 0 {
            return Err(malformed("trailing bytes after the proof"));
        }
        Ok(RawProof {
            main_width,
            aux_width,
            aux_rands,
            log_n,
            trace_meta,
            modulus,
            options,
            num_constraints,
            num_unique_queries,
            commitments,
            trace_values,
            trace_paths,
            constraint_values,
            constraint_paths,
            ood_trace,
            ood_quotient,
            num_fri_layers,
            fri_layers,
            fri_remainder,
            fri_log_partitions,
            pow_nonce,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vint_matches_winter_utils_encoding() {
        use winter_utils::ByteWriter;
        for v in [
            0u64,
            1,
            5,
            127,
            128,
            300,
            1 << 20,
            u32::MAX as u64,
            u64::MAX,
        ] {
            let mut buf = alloc::vec::Vec::new();
            buf.write_usize(v as usize);
            let mut r = Reader::new(&buf);
            assert_eq!(r.vint("v").unwrap(), v);
            assert_eq!(r.remaining(), 0);
        }
        // Every longer form of a value is refused: `v` written in `len` bytes.
        let overlong = |v: u64, len: usize| -> alloc::vec::Vec<u8> {
            if len == 9 {
                let mut b = alloc::vec![0u8];
                b.extend_from_slice(&v.to_le_bytes());
                return b;
            }
            ((v << len) | (1 << (len - 1))).to_le_bytes()[..len].to_vec()
        };
        for (v, shortest) in [
            (0u64, 1),
            (5, 1),
            (127, 1),
            (128, 2),
            (1 << 20, 3),
            (1 << 56, 9),
        ] {
            assert_eq!(Reader::new(&overlong(v, shortest)).vint("v"), Ok(v));
            for len in shortest + 1..=9 {
                if len < 9 && v >> (7 * len) != 0 {
                    continue;
                }
                assert!(
                    Reader::new(&overlong(v, len)).vint("v").is_err(),
                    "{v} in {len}"
                );
            }
        }
        // A length that exceeds what remains is an error, not an allocation.
        let mut buf = alloc::vec::Vec::new();
        buf.write_usize(1 << 40);
        buf.extend_from_slice(&[1, 2, 3]);
        assert!(Reader::new(&buf).vint_bytes("x").is_err());
        assert!(Reader::new(&[]).vint("x").is_err());
    }
}

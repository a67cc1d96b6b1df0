//! The proof file: a self-describing, versioned envelope around a backend's proof bytes.
//!
//! Layout (all integers little-endian), format version 1:
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 4 | magic `PSTK` |
//! | 4 | 2 | format version (1) |
//! | 6 | 1 | backend id ([`BackendId`]) |
//! | 7 | 1 | base field id ([`FieldId`]); must be the backend's field |
//! | 8 | 1 | extension degree of the challenge field (1..=8) |
//! | 9 | 1 | hash id ([`HashId`]) |
//! | 10 | 1 | AIR id ([`AirId`]) |
//! | 11 | 1 | log2 of the trace length n (3..=32) |
//! | 12 | 1 | log2 of the blowup factor (1..=12) |
//! | 13 | 1 | proof-of-work bits before query sampling (0..=40) |
//! | 14 | 2 | number of FRI queries (1..=512) |
//! | 16 | 1 | log2 of the FRI folding arity (1..=4) |
//! | 17 | 1 | log2 of the FRI final polynomial length (0..=16) |
//! | 18 | 1 | number k of public inputs (0..=64) |
//! | 19 | 1 | reserved, 0 |
//! | 20 | f = 0 or 8 | the AIR's fingerprint, only when the AIR id byte is `custom` (0x80) |
//! | 20+f | 8k | public inputs, canonical field elements as u64 |
//! | 20+f+8k | 4 | payload length L |
//! | 24+f+8k | L | payload: the backend's own proof encoding |
//!
//! Parsing borrows from the input (the firmware parses straight from flash), allocates
//! nothing, checks every length against the bytes that remain and rejects trailing bytes.
//!
//! One encoding per proof: the envelope has fixed-width fields, and each backend's payload
//! reader accepts only the encoding its prover writes (minimal varints and vints, canonical
//! field elements, no trailing bytes; `docs/panic-inventory.md`, "Malleability"), the same on
//! the host and on a 32-bit MCU. A file that verifies has exactly one byte string.
//! The ranges above are the envelope's: each backend's `check_supported` narrows them to what
//! its verifier and the libraries it calls can take (e.g. at most 30 proof-of-work bits over
//! BabyBear; `docs/panic-inventory.md`).
//!
//! How a backend binds the header to its proof:
//!
//! - Plonky3 backends seed their transcript with [`ProofFile::statement_bytes`], the whole
//!   encoded header and public inputs: every header byte reaches every challenge.
//! - winterfell backends keep winterfell's transcript, seeded from the payload's own proof
//!   context and the public inputs, and require each header field to equal the payload's
//!   seeded counterpart (trace length, parameters, extension tag, field modulus; the AIR by
//!   the constraints they evaluate); payload option bytes outside the seed must take the one
//!   value our provers write.

use crate::error::FormatError;
use crate::ids::{AirId, BackendId, Domain, FieldId, HashId};

/// The four magic bytes that open every proof file.
pub const MAGIC: [u8; 4] = *b"PSTK";
/// The format version this build reads and writes.
pub const FORMAT_VERSION: u16 = 1;
/// Bytes before the public inputs.
pub const FIXED_HEADER_LEN: usize = 20;
/// Upper bound on the number of public inputs.
pub const MAX_PUBLIC_INPUTS: usize = 64;
/// Offset of the backend id byte (after the magic and the format version).
pub const BACKEND_OFFSET: usize = 6;

/// The backend id a proof file's header names, read from its one byte without parsing the
/// rest (for dispatch; [`ProofFile::parse`] checks the whole envelope). `None` when the file
/// is too short or the byte names no backend.
pub fn backend_of(bytes: &[u8]) -> Option<BackendId> {
    bytes
        .get(BACKEND_OFFSET)
        .copied()
        .and_then(BackendId::from_byte)
}

/// Which circle FRI a circle-domain proof ([`Domain::Circle`]) is made and verified with,
/// named by its header's folding parameters: folding 2 down to a constant is upstream
/// Plonky3's `CirclePcs` (byte-identical to upstream's proofs); every other pair is our
/// `WideCirclePcs`, folding lines by up to 16 with a final polynomial (issue 25).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CirclePcsKind {
    /// Upstream Plonky3 0.8's `CirclePcs`: `log_fold_arity = 1`, `log_final_poly_len = 0`.
    Upstream,
    /// Our `WideCirclePcs`: any other folding arity and final polynomial length.
    Wide,
}

impl CirclePcsKind {
    /// The `(log_fold_arity, log_final_poly_len)` that names [`CirclePcsKind::Upstream`].
    pub const UPSTREAM_FOLDING: (u8, u8) = (1, 0);

    /// The circle PCS these parameters name (the one place the choice is made).
    pub const fn of(params: &ProofParams) -> CirclePcsKind {
        let (arity, final_len) = Self::UPSTREAM_FOLDING;
        if params.log_fold_arity == arity && params.log_final_poly_len == final_len {
            CirclePcsKind::Upstream
        } else {
            CirclePcsKind::Wide
        }
    }
}

/// Protocol parameters that set soundness and proof size. The verifier trusts these only
/// after the security policy has checked them, and backends whose payload repeats them
/// check that both agree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ProofParams {
    /// log2 of the LDE blowup factor.
    pub log_blowup: u8,
    /// Number of FRI query repetitions.
    pub num_queries: u16,
    /// Proof-of-work (grinding) bits before the queries are sampled.
    pub pow_bits: u8,
    /// log2 of the FRI folding arity (the maximum, where a backend folds by less at times).
    pub log_fold_arity: u8,
    /// log2 of the length of the final FRI polynomial (winterfell: remainder degree + 1).
    pub log_final_poly_len: u8,
}

impl core::fmt::Display for ProofParams {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "blowup 2^{}, {} queries, {} PoW bits, folding 2^{}, final poly 2^{}",
            self.log_blowup,
            self.num_queries,
            self.pow_bits,
            self.log_fold_arity,
            self.log_final_poly_len
        )
    }
}

/// Everything in the envelope except the public inputs and the payload.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ProofHeader {
    pub backend: BackendId,
    pub field: FieldId,
    pub extension_degree: u8,
    pub hash: HashId,
    pub air: AirId,
    /// log2 of the trace length.
    pub log_n: u8,
    pub params: ProofParams,
}

impl ProofHeader {
    /// The trace length n.
    pub fn n(&self) -> u64 {
        1u64 << self.log_n
    }

    /// The circle PCS this header names, for a circle-domain backend; `None` for the others.
    pub const fn circle_pcs(&self) -> Option<CirclePcsKind> {
        match self.backend.domain() {
            Domain::Circle => Some(CirclePcsKind::of(&self.params)),
            Domain::TwoAdic => None,
        }
    }
}

/// Public inputs, borrowed from the file: `len()` canonical field elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PublicInputs<'a>(&'a [u8]);

impl<'a> PublicInputs<'a> {
    pub fn len(&self) -> usize {
        self.0.len() / 8
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn get(&self, i: usize) -> Option<u64> {
        let b = self.0.get(i * 8..i * 8 + 8)?;
        Some(u64::from_le_bytes(b.try_into().ok()?))
    }

    pub fn iter(&self) -> impl Iterator<Item = u64> + 'a {
        self.0
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]))
    }
}

/// A parsed proof file, borrowing its input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProofFile<'a> {
    pub header: ProofHeader,
    /// The encoded header and public inputs (everything before the payload length). The
    /// Plonky3 backends seed their transcript with it; the winterfell backends compare the
    /// header with the payload's seeded context instead (see the module documentation).
    pub statement_bytes: &'a [u8],
    pub public_inputs: PublicInputs<'a>,
    pub payload: &'a [u8],
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, len: usize) -> Result<&'a [u8], FormatError> {
        let available = self.bytes.len() - self.pos;
        if len > available {
            return Err(FormatError::Truncated {
                needed: len,
                available,
            });
        }
        let out = &self.bytes[self.pos..self.pos + len];
        self.pos += len;
        Ok(out)
    }

    fn u8(&mut self) -> Result<u8, FormatError> {
        Ok(self.take(1)?[0])
    }

    fn u16(&mut self) -> Result<u16, FormatError> {
        let b = self.take(2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    fn u32(&mut self) -> Result<u32, FormatError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

fn in_range(v: u32, lo: u32, hi: u32, what: &'static str) -> Result<(), FormatError> {
    if v < lo || v > hi {
        Err(FormatError::InvalidValue(what))
    } else {
        Ok(())
    }
}

impl<'a> ProofFile<'a> {
    /// Parses a proof file. Strict: every field is range-checked, trailing bytes are an
    /// error, and nothing is allocated.
    pub fn parse(bytes: &'a [u8]) -> Result<Self, FormatError> {
        let mut r = Reader { bytes, pos: 0 };
        if r.take(4).map_err(|_| FormatError::BadMagic)? != MAGIC {
            return Err(FormatError::BadMagic);
        }
        let version = r.u16()?;
        if version != FORMAT_VERSION {
            return Err(FormatError::UnsupportedVersion(version));
        }
        let b = r.u8()?;
        let backend = BackendId::from_byte(b).ok_or(FormatError::UnknownBackend(b))?;
        let b = r.u8()?;
        let field = FieldId::from_byte(b).ok_or(FormatError::UnknownField(b))?;
        if field != backend.field() {
            return Err(FormatError::InvalidValue(
                "field does not match the backend",
            ));
        }
        let extension_degree = r.u8()?;
        in_range(extension_degree.into(), 1, 8, "extension degree")?;
        let b = r.u8()?;
        let hash = HashId::from_byte(b).ok_or(FormatError::UnknownHash(b))?;
        let b = r.u8()?;
        // A custom AIR's fingerprint follows the fixed header (read below, in file order).
        let builtin_air = match b {
            AirId::CUSTOM_BYTE => None,
            _ => Some(AirId::from_byte(b).ok_or(FormatError::UnknownAir(b))?),
        };
        let log_n = r.u8()?;
        in_range(log_n.into(), 3, 32, "log2 trace length")?;
        let log_blowup = r.u8()?;
        in_range(log_blowup.into(), 1, 12, "log2 blowup")?;
        let pow_bits = r.u8()?;
        in_range(pow_bits.into(), 0, 40, "proof-of-work bits")?;
        let num_queries = r.u16()?;
        in_range(num_queries.into(), 1, 512, "number of queries")?;
        let log_fold_arity = r.u8()?;
        in_range(log_fold_arity.into(), 1, 4, "log2 folding arity")?;
        let log_final_poly_len = r.u8()?;
        in_range(
            log_final_poly_len.into(),
            0,
            16,
            "log2 final polynomial length",
        )?;
        let num_public = r.u8()? as usize;
        if num_public > MAX_PUBLIC_INPUTS {
            return Err(FormatError::InvalidValue("too many public inputs"));
        }
        if r.u8()? != 0 {
            return Err(FormatError::InvalidValue("reserved byte is not zero"));
        }
        let air = match builtin_air {
            Some(air) => air,
            None => {
                let b = r.take(8)?;
                AirId::Custom(u64::from_le_bytes([
                    b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
                ]))
            }
        };
        let public_inputs = PublicInputs(r.take(num_public * 8)?);
        let modulus = field.modulus();
        if public_inputs.iter().any(|v| v >= modulus) {
            return Err(FormatError::InvalidValue(
                "public input is not a canonical field element",
            ));
        }
        let statement_bytes = &bytes[..r.pos];
        let payload_len = r.u32()? as usize;
        let payload = r.take(payload_len)?;
        let trailing = bytes.len() - r.pos;
        if trailing != 0 {
            return Err(FormatError::TrailingBytes(trailing));
        }
        Ok(ProofFile {
            header: ProofHeader {
                backend,
                field,
                extension_degree,
                hash,
                air,
                log_n,
                params: ProofParams {
                    log_blowup,
                    num_queries,
                    pow_bits,
                    log_fold_arity,
                    log_final_poly_len,
                },
            },
            statement_bytes,
            public_inputs,
            payload,
        })
    }
}

/// Writes a proof file. Panics only on caller bugs (too many public inputs, payload over
/// 4 GiB), never on data read from outside.
#[cfg(feature = "alloc")]
pub fn encode(header: &ProofHeader, public_inputs: &[u64], payload: &[u8]) -> alloc::vec::Vec<u8> {
    assert!(
        public_inputs.len() <= MAX_PUBLIC_INPUTS,
        "too many public inputs"
    );
    let payload_len = u32::try_from(payload.len()).expect("payload over 4 GiB");
    let mut out = alloc::vec::Vec::with_capacity(
        FIXED_HEADER_LEN + 8 * public_inputs.len() + 4 + payload.len(),
    );
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    let p = &header.params;
    out.extend_from_slice(&[
        header.backend as u8,
        header.field as u8,
        header.extension_degree,
        header.hash as u8,
        header.air.byte(),
        header.log_n,
        p.log_blowup,
        p.pow_bits,
    ]);
    out.extend_from_slice(&p.num_queries.to_le_bytes());
    out.extend_from_slice(&[
        p.log_fold_arity,
        p.log_final_poly_len,
        public_inputs.len() as u8,
        0,
    ]);
    if let Some(fingerprint) = header.air.fingerprint() {
        out.extend_from_slice(&fingerprint.to_le_bytes());
    }
    for v in public_inputs {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(&payload_len.to_le_bytes());
    out.extend_from_slice(payload);
    out
}

/// The statement bytes ([`ProofFile::statement_bytes`]) a proof file with this header and
/// these public inputs will have: provers absorb them before proving.
#[cfg(feature = "alloc")]
pub fn statement_bytes(header: &ProofHeader, public_inputs: &[u64]) -> alloc::vec::Vec<u8> {
    let mut out = encode(header, public_inputs, &[]);
    out.truncate(out.len() - 4);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    fn header() -> ProofHeader {
        ProofHeader {
            backend: BackendId::P3BabyBear,
            field: FieldId::BabyBear,
            extension_degree: 4,
            hash: HashId::Blake3_256,
            air: AirId::Fibonacci,
            log_n: 10,
            params: ProofParams {
                log_blowup: 3,
                num_queries: 27,
                pow_bits: 16,
                log_fold_arity: 1,
                log_final_poly_len: 0,
            },
        }
    }

    fn sample() -> Vec<u8> {
        encode(&header(), &[1_369_371_767], &[9, 8, 7, 6, 5])
    }

    /// A custom AIR's fingerprint travels after the fixed header, inside the statement
    /// bytes (so a Plonky3 transcript absorbs it), and any change of it is another AIR.
    #[test]
    fn a_custom_air_round_trips_with_its_fingerprint() {
        let h = ProofHeader {
            air: AirId::Custom(0x0123_4567_89ab_cdef),
            ..header()
        };
        let bytes = encode(&h, &[5, 6], &[1, 2, 3]);
        assert_eq!(bytes.len(), FIXED_HEADER_LEN + 8 + 16 + 4 + 3);
        let file = ProofFile::parse(&bytes).unwrap();
        assert_eq!(file.header, h);
        assert_eq!(file.public_inputs.iter().collect::<Vec<_>>(), [5, 6]);
        assert_eq!(file.statement_bytes.len(), FIXED_HEADER_LEN + 8 + 16);
        assert_eq!(
            alloc::format!("{}", file.header.air),
            "custom-0123456789abcdef"
        );
        let mut other = bytes.clone();
        other[FIXED_HEADER_LEN] ^= 1;
        assert_eq!(
            ProofFile::parse(&other).unwrap().header.air,
            AirId::Custom(0x0123_4567_89ab_cdee)
        );
        for len in 0..bytes.len() {
            assert!(ProofFile::parse(&bytes[..len]).is_err());
        }
        assert_eq!(AirId::from_byte(AirId::CUSTOM_BYTE), None);
        assert_eq!(AirId::from_name("custom"), None);
    }

    #[test]
    fn round_trip() {
        let bytes = sample();
        let f = ProofFile::parse(&bytes).unwrap();
        assert_eq!(f.header, header());
        assert_eq!(f.public_inputs.len(), 1);
        assert_eq!(f.public_inputs.get(0), Some(1_369_371_767));
        assert_eq!(f.public_inputs.get(1), None);
        assert_eq!(f.payload, &[9, 8, 7, 6, 5]);
        assert_eq!(f.header.n(), 1024);
        assert_eq!(
            f.statement_bytes,
            statement_bytes(&header(), &[1_369_371_767])
        );
    }

    #[test]
    fn backend_of_reads_the_header_byte() {
        let mut h = header();
        for &b in BackendId::ALL {
            h.backend = b;
            h.field = b.field();
            assert_eq!(backend_of(&encode(&h, &[], &[])), Some(b));
        }
        assert_eq!(backend_of(&sample()[..BACKEND_OFFSET]), None);
        let mut bad = sample();
        bad[BACKEND_OFFSET] = 0;
        assert_eq!(backend_of(&bad), None);
    }

    #[test]
    fn circle_pcs_is_named_by_the_folding_parameters() {
        let mut h = header();
        assert_eq!(h.circle_pcs(), None);
        h.backend = BackendId::P3M31;
        assert_eq!(h.circle_pcs(), Some(CirclePcsKind::Upstream));
        for (a, f) in [(1, 1), (2, 0), (4, 2)] {
            h.params.log_fold_arity = a;
            h.params.log_final_poly_len = f;
            assert_eq!(h.circle_pcs(), Some(CirclePcsKind::Wide), "{a} {f}");
        }
    }

    #[test]
    fn every_truncation_is_a_typed_error() {
        let bytes = sample();
        for len in 0..bytes.len() {
            let err = ProofFile::parse(&bytes[..len]).unwrap_err();
            assert!(
                matches!(err, FormatError::Truncated { .. } | FormatError::BadMagic),
                "len {len}: {err:?}"
            );
        }
    }

    #[test]
    fn trailing_bytes_rejected() {
        let mut bytes = sample();
        bytes.push(0);
        assert_eq!(ProofFile::parse(&bytes), Err(FormatError::TrailingBytes(1)));
    }

    #[test]
    fn bad_fields_rejected() {
        let good = sample();
        let cases: &[(usize, u8, FormatError)] = &[
            (0, b'X', FormatError::BadMagic),
            (4, 2, FormatError::UnsupportedVersion(2)),
            (6, 99, FormatError::UnknownBackend(99)),
            (
                7,
                2,
                FormatError::InvalidValue("field does not match the backend"),
            ),
            (8, 0, FormatError::InvalidValue("extension degree")),
            (9, 7, FormatError::UnknownHash(7)),
            (10, 0, FormatError::UnknownAir(0)),
            (11, 2, FormatError::InvalidValue("log2 trace length")),
            (12, 0, FormatError::InvalidValue("log2 blowup")),
            (12, 13, FormatError::InvalidValue("log2 blowup")),
            (18, 65, FormatError::InvalidValue("too many public inputs")),
            (
                19,
                1,
                FormatError::InvalidValue("reserved byte is not zero"),
            ),
        ];
        for (offset, value, want) in cases {
            let mut bytes = good.clone();
            bytes[*offset] = *value;
            assert_eq!(
                ProofFile::parse(&bytes).unwrap_err(),
                *want,
                "offset {offset}"
            );
        }
    }

    #[test]
    fn non_canonical_public_input_rejected() {
        let bytes = encode(&header(), &[FieldId::BabyBear.modulus()], &[]);
        assert_eq!(
            ProofFile::parse(&bytes),
            Err(FormatError::InvalidValue(
                "public input is not a canonical field element"
            ))
        );
    }

    #[test]
    fn huge_payload_length_is_truncation_not_allocation() {
        let mut bytes = sample();
        let at = FIXED_HEADER_LEN + 8;
        bytes[at..at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(matches!(
            ProofFile::parse(&bytes),
            Err(FormatError::Truncated { needed, .. }) if needed == u32::MAX as usize
        ));
    }
}

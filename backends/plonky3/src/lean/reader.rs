//! An in-place reader of postcard-encoded Plonky3 proofs: the lean verifiers walk the borrowed
//! payload with it instead of decoding an owned `Proof` tree.
//!
//! It reproduces exactly what `postcard::from_bytes` accepts for the types in a proof (so a
//! verdict never depends on which decoder ran): varints as postcard reads them (non-minimal
//! encodings included, the last byte range-checked), `Option` tags 0/1, raw `u8`s, and field
//! elements through the field's own `Deserialize` (which rejects values `>= p`). Every length
//! the caller reads is compared with the value the header implies ([`Reader::expect_len`])
//! before anything is read under it, and nothing is ever allocated: slices borrow the payload.

use picostark_core::VerifyError;
use serde::de::{self, DeserializeSeed, Deserializer, SeqAccess, Visitor};
use serde::Deserialize;

/// The error of every malformed payload.
pub const MALFORMED: VerifyError = VerifyError::MalformedProof("payload is not a Plonky3 proof");

/// A cursor over a borrowed postcard payload.
#[derive(Clone, Debug)]
pub struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        Self { bytes, pos: 0 }
    }

    /// Bytes consumed so far.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// The next `n` bytes, borrowed.
    pub fn take(&mut self, n: usize) -> Result<&'a [u8], VerifyError> {
        let end = self.pos.checked_add(n).ok_or(MALFORMED)?;
        let slice = self.bytes.get(self.pos..end).ok_or(MALFORMED)?;
        self.pos = end;
        Ok(slice)
    }

    /// One raw byte (postcard's `u8`).
    pub fn byte(&mut self) -> Result<u8, VerifyError> {
        let b = *self.bytes.get(self.pos).ok_or(MALFORMED)?;
        self.pos += 1;
        Ok(b)
    }

    /// A varint of at most `max_bytes` bytes whose last byte is at most `last_max`, as
    /// postcard decodes it (overlong encodings accepted, as postcard does).
    fn varint(&mut self, max_bytes: usize, last_max: u8) -> Result<u64, VerifyError> {
        let mut out = 0u64;
        for i in 0..max_bytes {
            let b = self.byte()?;
            out |= u64::from(b & 0x7f) << (7 * i);
            if b & 0x80 == 0 {
                if i == max_bytes - 1 && b > last_max {
                    return Err(MALFORMED);
                }
                return Ok(out);
            }
        }
        Err(MALFORMED)
    }

    /// A `u64` (postcard varint, up to 10 bytes).
    pub fn u64(&mut self) -> Result<u64, VerifyError> {
        self.varint(10, 0x01)
    }

    /// A `usize` field: serde reads it as a `u64` and refuses what does not fit.
    pub fn usize(&mut self) -> Result<usize, VerifyError> {
        usize::try_from(self.u64()?).map_err(|_| MALFORMED)
    }

    /// A sequence length: postcard reads it as a varint of the target's pointer width.
    pub fn seq_len(&mut self) -> Result<usize, VerifyError> {
        let v = if usize::BITS == 64 {
            self.varint(10, 0x01)?
        } else {
            self.varint(5, 0x0f)?
        };
        usize::try_from(v).map_err(|_| MALFORMED)
    }

    /// A sequence length that must equal `expected` (a count the header fixes).
    pub fn expect_len(&mut self, expected: usize) -> Result<(), VerifyError> {
        if self.seq_len()? == expected {
            Ok(())
        } else {
            Err(VerifyError::MalformedProof(
                "a count in the proof differs from the one its header implies",
            ))
        }
    }

    /// An `Option` tag: `false` for `None`, `true` for `Some`.
    pub fn option(&mut self) -> Result<bool, VerifyError> {
        match self.byte()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(MALFORMED),
        }
    }

    /// A 32-byte digest (`[u8; 32]`: 32 raw bytes), borrowed.
    pub fn digest(&mut self) -> Result<&'a [u8; 32], VerifyError> {
        let s = self.take(32)?;
        s.try_into().map_err(|_| MALFORMED)
    }

    /// A value through its own `Deserialize` (a field or extension-field element), with the
    /// bytes it was read from. Only fixed-layout values are supported: tuples, arrays,
    /// structs and raw bytes; anything else is malformed.
    pub fn value<T: Deserialize<'a>>(&mut self) -> Result<(T, &'a [u8]), VerifyError> {
        let start = self.pos;
        let v = T::deserialize(Fixed { r: self }).map_err(|_| MALFORMED)?;
        Ok((v, &self.bytes[start..self.pos]))
    }

    /// A challenge-field element in the wire form of upstream's extension fields (`ExtField`
    /// serializes its coefficient array as a tuple): `EF::DIMENSION` base elements, each
    /// through `F`'s `Deserialize`. Unlike `EF`'s own `Deserialize` (which collects the array
    /// through a `Vec`), this allocates nothing.
    pub fn ext<F, EF>(&mut self) -> Result<EF, VerifyError>
    where
        F: Deserialize<'a> + p3_field::PrimeCharacteristicRing,
        EF: p3_field::BasedVectorSpace<F>,
    {
        let mut ok = true;
        let v = EF::from_basis_coefficients_fn(|_| match self.value::<F>() {
            Ok((f, _)) => f,
            Err(_) => {
                ok = false;
                F::ZERO
            }
        });
        if ok {
            Ok(v)
        } else {
            Err(MALFORMED)
        }
    }

    /// `n` values of type `T`, checked and discarded; returns the bytes they span.
    pub fn skip_values<T: Deserialize<'a>>(&mut self, n: usize) -> Result<&'a [u8], VerifyError> {
        let start = self.pos;
        for _ in 0..n {
            self.value::<T>()?;
        }
        Ok(&self.bytes[start..self.pos])
    }

    /// Succeeds only if every byte was consumed.
    pub fn finish(&self) -> Result<(), VerifyError> {
        if self.pos == self.bytes.len() {
            Ok(())
        } else {
            Err(VerifyError::MalformedProof("bytes after the encoded proof"))
        }
    }
}

/// The decode error: its message is dropped (formatting costs code and time on the MCU).
#[derive(Debug)]
pub struct FixedError;

impl core::fmt::Display for FixedError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("malformed fixed-layout value")
    }
}

impl de::StdError for FixedError {}

impl de::Error for FixedError {
    fn custom<T: core::fmt::Display>(_msg: T) -> Self {
        FixedError
    }
}

/// A serde deserializer for fixed-layout values in postcard's binary encoding.
struct Fixed<'r, 'a> {
    r: &'r mut Reader<'a>,
}

/// The `len` elements of a tuple, array or struct, in order.
struct FixedSeq<'r, 'a> {
    r: &'r mut Reader<'a>,
    left: usize,
}

impl<'de, 'r> SeqAccess<'de> for FixedSeq<'r, 'de> {
    type Error = FixedError;

    fn next_element_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, FixedError> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        seed.deserialize(Fixed { r: self.r }).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left)
    }
}

impl<'de, 'r> Deserializer<'de> for Fixed<'r, 'de> {
    type Error = FixedError;

    fn deserialize_any<V: Visitor<'de>>(self, _v: V) -> Result<V::Value, FixedError> {
        Err(FixedError)
    }

    fn deserialize_u8<V: Visitor<'de>>(self, v: V) -> Result<V::Value, FixedError> {
        let b = self.r.byte().map_err(|_| FixedError)?;
        v.visit_u8(b)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, v: V) -> Result<V::Value, FixedError> {
        v.visit_seq(FixedSeq {
            r: self.r,
            left: len,
        })
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        len: usize,
        v: V,
    ) -> Result<V::Value, FixedError> {
        self.deserialize_tuple(len, v)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, FixedError> {
        self.deserialize_tuple(fields.len(), v)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        v: V,
    ) -> Result<V::Value, FixedError> {
        v.visit_newtype_struct(self)
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        v: V,
    ) -> Result<V::Value, FixedError> {
        v.visit_unit()
    }

    fn is_human_readable(&self) -> bool {
        false
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit seq map enum identifier ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;
    use alloc::vec::Vec;
    use p3_baby_bear::BabyBear;
    use p3_field::extension::BinomialExtensionField;
    use p3_field::PrimeCharacteristicRing;
    use p3_goldilocks::Goldilocks;

    type Ef4 = BinomialExtensionField<BabyBear, 4>;

    #[test]
    fn varints_match_postcard_including_bounds() {
        for v in [0u64, 1, 127, 128, 300, 1 << 35, u64::MAX] {
            let bytes = postcard::to_allocvec(&v).unwrap();
            let mut r = Reader::new(&bytes);
            assert_eq!(r.u64().unwrap(), v);
            r.finish().unwrap();
        }
        // An overlong zero is accepted by postcard, so by us.
        assert_eq!(postcard::from_bytes::<u64>(&[0x80, 0x00]).unwrap(), 0);
        assert_eq!(Reader::new(&[0x80, 0x00]).u64().unwrap(), 0);
        // Ten bytes whose last exceeds one overflow a u64: both refuse.
        let over = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02];
        assert!(postcard::from_bytes::<u64>(&over).is_err());
        assert_eq!(Reader::new(&over).u64(), Err(MALFORMED));
        // Truncated.
        assert_eq!(Reader::new(&[0x80]).u64(), Err(MALFORMED));
    }

    #[test]
    fn lengths_are_checked_before_use() {
        let bytes = postcard::to_allocvec(&vec![7u8; 3]).unwrap();
        assert!(Reader::new(&bytes).expect_len(3).is_ok());
        assert!(Reader::new(&bytes).expect_len(4).is_err());
        // A huge claimed length is an error, never an allocation.
        let huge = [0xff, 0xff, 0xff, 0xff, 0x0f];
        assert!(Reader::new(&huge).expect_len(3).is_err());
    }

    #[test]
    fn field_elements_match_postcard_and_reject_non_canonical() {
        let vals = [
            BabyBear::ZERO,
            BabyBear::ONE,
            BabyBear::from_u32(123_456_789),
        ];
        for v in vals {
            let bytes = postcard::to_allocvec(&v).unwrap();
            let (got, raw) = Reader::new(&bytes).value::<BabyBear>().unwrap();
            assert_eq!(got, v);
            assert_eq!(raw, &bytes[..]);
        }
        // 0x78000001 = p (BabyBear), and 0xffffffff: both >= p.
        for bad in [0x7800_0001u32, u32::MAX] {
            let bytes = bad.to_le_bytes();
            assert!(postcard::from_bytes::<BabyBear>(&bytes).is_err());
            assert_eq!(
                Reader::new(&bytes).value::<BabyBear>().err(),
                Some(MALFORMED)
            );
        }
        let g = Goldilocks::from_u64(0xffff_ffff_0000_0000);
        let bytes = postcard::to_allocvec(&g).unwrap();
        assert_eq!(Reader::new(&bytes).value::<Goldilocks>().unwrap().0, g);
        let p = 0xffff_ffff_0000_0001u64.to_le_bytes();
        assert!(Reader::new(&p).value::<Goldilocks>().is_err());
    }

    #[test]
    fn extension_elements_match_postcard() {
        let e = Ef4::from_basis_coefficients_fn(|i| BabyBear::from_u32(1000 + i as u32));
        let bytes = postcard::to_allocvec(&vec![e, e]).unwrap();
        let mut r = Reader::new(&bytes);
        r.expect_len(2).unwrap();
        assert_eq!(r.value::<Ef4>().unwrap().0, e);
        let raw = r.skip_values::<Ef4>(1).unwrap();
        assert_eq!(raw.len(), 16);
        r.finish().unwrap();
        assert_eq!(
            Reader::new(&bytes[1..]).ext::<BabyBear, Ef4>().unwrap(),
            e,
            "ext reads what EF's Deserialize reads"
        );
        let g5 = p3_field::extension::BinomialExtensionField::<Goldilocks, 5>::from_basis_coefficients_fn(|i| {
            Goldilocks::from_u64(u64::MAX - 3 * i as u64 - 1_000_000_000)
        });
        let gb = postcard::to_allocvec(&g5).unwrap();
        let got: p3_field::extension::BinomialExtensionField<Goldilocks, 5> =
            Reader::new(&gb).ext::<Goldilocks, _>().unwrap();
        assert_eq!(got, g5);
        let g3 = p3_field::extension::CubicTrinomialExtensionField::<Goldilocks>::from_basis_coefficients_fn(|i| {
            Goldilocks::from_u64(7 + i as u64)
        });
        let gb = postcard::to_allocvec(&g3).unwrap();
        let got: p3_field::extension::CubicTrinomialExtensionField<Goldilocks> =
            Reader::new(&gb).ext::<Goldilocks, _>().unwrap();
        assert_eq!(got, g3);
        // A coefficient >= p is refused by both.
        let mut bad = bytes[1..17].to_vec();
        bad[12..16].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(postcard::from_bytes::<Ef4>(&bad).is_err());
        assert!(Reader::new(&bad).ext::<BabyBear, Ef4>().is_err());
        // One truncated byte short.
        let mut r = Reader::new(&bytes[..bytes.len() - 1]);
        r.expect_len(2).unwrap();
        assert_eq!(r.value::<Ef4>().unwrap().0, e);
        assert!(r.value::<Ef4>().is_err());
    }

    #[test]
    fn options_digests_and_trailing_bytes() {
        let v: (Option<u8>, Option<u8>, [u8; 32]) = (None, Some(9), [5; 32]);
        let bytes = postcard::to_allocvec(&v).unwrap();
        let mut r = Reader::new(&bytes);
        assert!(!r.option().unwrap());
        assert!(r.option().unwrap());
        assert_eq!(r.byte().unwrap(), 9);
        assert_eq!(r.digest().unwrap(), &[5; 32]);
        r.finish().unwrap();
        assert_eq!(Reader::new(&[2]).option(), Err(MALFORMED));
        let mut extra: Vec<u8> = bytes.clone();
        extra.push(0);
        let mut r = Reader::new(&extra);
        r.take(bytes.len()).unwrap();
        assert!(r.finish().is_err());
    }

    use p3_field::BasedVectorSpace;
}

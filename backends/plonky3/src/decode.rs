//! Bounded postcard decoding of untrusted proof payloads.
//!
//! serde pre-allocates a `Vec` from the length prefix it reads (up to 1 MiB per sequence),
//! and a payload of many tiny nested sequences can decode into far more memory than its
//! own size. On a microcontroller either one is a denial of service: allocation failure
//! halts the firmware. [`decode`] wraps postcard's deserializer so that every decoded
//! sequence element and map entry is charged its in-memory size against a budget
//! proportional to the payload, and the capacity hints serde sees never exceed what the
//! budget still allows. A payload over budget is a [`VerifyError::MalformedProof`].
//!
//! postcard also accepts overlong varints (trailing zero groups), so one proof has many
//! encodings. [`decode`] takes only the one postcard writes: the decoded value is serialized
//! again into a flavor that compares each byte with the payload (no buffer), and any
//! difference is malformed. The lean reader refuses the same encodings itself.

use core::cell::Cell;
use core::fmt;
use core::mem::size_of;

use picostark_core::VerifyError;
use postcard::ser_flavors::Flavor;
use serde::de::{
    self, DeserializeOwned, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess,
    VariantAccess, Visitor,
};

/// Decoded bytes allowed per payload byte, plus a fixed allowance. A valid proof of any
/// backend and AIR here decodes to 2.5 to 3.8 bytes per payload byte on a 64-bit host
/// (more for the smallest traces, which the fixed allowance covers; checked in tests),
/// less on 32-bit targets.
pub const BUDGET_PER_PAYLOAD_BYTE: usize = 4;
pub const BUDGET_FIXED: usize = 16 * 1024;
/// Sequences in valid proofs are shorter than this (query counts, Merkle paths, trace
/// widths) unless the final FRI polynomial is longer; those grow as they decode.
pub const MAX_PREALLOCATED_ELEMENTS: usize = 1024;

/// Decodes a postcard payload that must be consumed exactly, within the memory budget, and
/// be the value's one canonical encoding.
pub fn decode<T: DeserializeOwned + serde::Serialize>(payload: &[u8]) -> Result<T, VerifyError> {
    decode_charged(payload).map(|(value, _)| value)
}

/// `decode`, also returning how many decoded bytes were charged to the budget.
pub fn decode_charged<T: DeserializeOwned + serde::Serialize>(
    payload: &[u8],
) -> Result<(T, usize), VerifyError> {
    let (value, charged) = decode_any_encoding(payload)?;
    let canonical = postcard::serialize_with_flavor(&value, SameBytes { expected: payload })
        .is_ok_and(|rest: &[u8]| rest.is_empty());
    if !canonical {
        return Err(VerifyError::MalformedProof(
            "payload is not the canonical encoding of its proof",
        ));
    }
    Ok((value, charged))
}

/// A serializer output that stores nothing: it fails at the first byte that differs from
/// `expected` and resolves to what was not written.
struct SameBytes<'a> {
    expected: &'a [u8],
}

impl<'a> Flavor for SameBytes<'a> {
    type Output = &'a [u8];

    fn try_push(&mut self, byte: u8) -> postcard::Result<()> {
        match self.expected.split_first() {
            Some((&b, rest)) if b == byte => {
                self.expected = rest;
                Ok(())
            }
            _ => Err(postcard::Error::SerializeBufferFull),
        }
    }

    fn try_extend(&mut self, data: &[u8]) -> postcard::Result<()> {
        match self.expected.split_at_checked(data.len()) {
            Some((head, rest)) if head == data => {
                self.expected = rest;
                Ok(())
            }
            _ => Err(postcard::Error::SerializeBufferFull),
        }
    }

    fn finalize(self) -> postcard::Result<&'a [u8]> {
        Ok(self.expected)
    }
}

/// Decoding alone: every encoding postcard reads, canonical or not.
fn decode_any_encoding<T: DeserializeOwned>(payload: &[u8]) -> Result<(T, usize), VerifyError> {
    let limit = payload.len().saturating_mul(BUDGET_PER_PAYLOAD_BYTE) + BUDGET_FIXED;
    let budget = Budget(Cell::new(limit));
    let mut de = postcard::Deserializer::from_bytes(payload);
    let value = T::deserialize(Bounded {
        inner: &mut de,
        budget: &budget,
    });
    match value {
        Ok(v) => match de.finalize() {
            Ok([]) => Ok((v, limit - budget.0.get())),
            Ok(_) => Err(VerifyError::MalformedProof("bytes after the encoded proof")),
            Err(_) => Err(VerifyError::MalformedProof(
                "payload is not a Plonky3 proof",
            )),
        },
        Err(_) if budget.exhausted() => Err(VerifyError::MalformedProof(
            "payload decodes to more memory than its size allows",
        )),
        Err(_) => Err(VerifyError::MalformedProof(
            "payload is not a Plonky3 proof",
        )),
    }
}

/// Remaining decoded bytes; `usize::MAX` marks exhaustion.
struct Budget(Cell<usize>);

impl Budget {
    fn charge<E: de::Error>(&self, bytes: usize) -> Result<(), E> {
        match self.0.get().checked_sub(bytes) {
            Some(rest) if self.0.get() != usize::MAX => {
                self.0.set(rest);
                Ok(())
            }
            _ => {
                self.0.set(usize::MAX);
                Err(E::custom("decode budget exhausted"))
            }
        }
    }

    fn exhausted(&self) -> bool {
        self.0.get() == usize::MAX
    }

    /// A capacity hint the budget can pay for with elements of up to 64 bytes, and at most
    /// [`MAX_PREALLOCATED_ELEMENTS`]. A longer sequence grows as it decodes, each element
    /// paid for.
    fn cap_hint(&self, hint: Option<usize>) -> Option<usize> {
        let left = if self.exhausted() { 0 } else { self.0.get() };
        hint.map(|h| h.min(left / 64).min(MAX_PREALLOCATED_ELEMENTS))
    }
}

struct Bounded<'b, D> {
    inner: D,
    budget: &'b Budget,
}

struct BoundedVisitor<'b, V> {
    inner: V,
    budget: &'b Budget,
}

struct BoundedSeed<'b, S> {
    inner: S,
    budget: &'b Budget,
}

macro_rules! forward_deserialize {
    ($($method:ident),*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
            let budget = self.budget;
            self.inner.$method(BoundedVisitor { inner: visitor, budget })
        }
    )*};
}

impl<'de, 'b, D: Deserializer<'de>> Deserializer<'de> for Bounded<'b, D> {
    type Error = D::Error;

    forward_deserialize!(
        deserialize_any,
        deserialize_bool,
        deserialize_i8,
        deserialize_i16,
        deserialize_i32,
        deserialize_i64,
        deserialize_i128,
        deserialize_u8,
        deserialize_u16,
        deserialize_u32,
        deserialize_u64,
        deserialize_u128,
        deserialize_f32,
        deserialize_f64,
        deserialize_char,
        deserialize_str,
        deserialize_string,
        deserialize_bytes,
        deserialize_byte_buf,
        deserialize_option,
        deserialize_unit,
        deserialize_seq,
        deserialize_map,
        deserialize_identifier,
        deserialize_ignored_any
    );

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        let budget = self.budget;
        self.inner.deserialize_unit_struct(
            name,
            BoundedVisitor {
                inner: visitor,
                budget,
            },
        )
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        let budget = self.budget;
        self.inner.deserialize_newtype_struct(
            name,
            BoundedVisitor {
                inner: visitor,
                budget,
            },
        )
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        let budget = self.budget;
        self.inner.deserialize_tuple(
            len,
            TupleVisitor {
                inner: visitor,
                budget,
            },
        )
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        let budget = self.budget;
        self.inner.deserialize_tuple_struct(
            name,
            len,
            TupleVisitor {
                inner: visitor,
                budget,
            },
        )
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        let budget = self.budget;
        self.inner.deserialize_struct(
            name,
            fields,
            BoundedVisitor {
                inner: visitor,
                budget,
            },
        )
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        let budget = self.budget;
        self.inner.deserialize_enum(
            name,
            variants,
            BoundedVisitor {
                inner: visitor,
                budget,
            },
        )
    }

    fn is_human_readable(&self) -> bool {
        self.inner.is_human_readable()
    }
}

macro_rules! forward_visit {
    ($($method:ident($ty:ty)),*) => {$(
        fn $method<E: de::Error>(self, v: $ty) -> Result<Self::Value, E> {
            self.inner.$method(v)
        }
    )*};
}

impl<'de, 'b, V: Visitor<'de>> Visitor<'de> for BoundedVisitor<'b, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.inner.expecting(f)
    }

    forward_visit!(
        visit_bool(bool),
        visit_i8(i8),
        visit_i16(i16),
        visit_i32(i32),
        visit_i64(i64),
        visit_i128(i128),
        visit_u8(u8),
        visit_u16(u16),
        visit_u32(u32),
        visit_u64(u64),
        visit_u128(u128),
        visit_f32(f32),
        visit_f64(f64),
        visit_char(char),
        visit_str(&str),
        visit_borrowed_str(&'de str),
        visit_bytes(&[u8]),
        visit_borrowed_bytes(&'de [u8]),
        visit_string(alloc::string::String),
        visit_byte_buf(alloc::vec::Vec<u8>)
    );

    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        self.inner.visit_none()
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        self.inner.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        let budget = self.budget;
        self.inner.visit_some(Bounded { inner: d, budget })
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        let budget = self.budget;
        self.inner
            .visit_newtype_struct(Bounded { inner: d, budget })
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        let budget = self.budget;
        self.inner.visit_seq(Bounded { inner: seq, budget })
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        let budget = self.budget;
        self.inner.visit_map(Bounded { inner: map, budget })
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Self::Value, A::Error> {
        let budget = self.budget;
        self.inner.visit_enum(Bounded {
            inner: data,
            budget,
        })
    }
}

/// Visitor of a tuple or array: its length comes from the type, not from the input, and its
/// elements sit inline in a value already charged, so they are not charged again (this
/// halves the decode cost of digests and field-element arrays); anything they own is.
struct TupleVisitor<'b, V> {
    inner: V,
    budget: &'b Budget,
}

/// The elements of a tuple: unmetered themselves, metered inside.
struct TupleSeq<'b, A> {
    inner: A,
    budget: &'b Budget,
}

impl<'de, 'b, V: Visitor<'de>> Visitor<'de> for TupleVisitor<'b, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.inner.expecting(f)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        let budget = self.budget;
        self.inner.visit_seq(TupleSeq { inner: seq, budget })
    }

    // Anything else a format may send for a tuple is metered as usual.
    forward_visit!(
        visit_bool(bool),
        visit_u8(u8),
        visit_u64(u64),
        visit_i64(i64),
        visit_bytes(&[u8]),
        visit_borrowed_bytes(&'de [u8])
    );

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        let budget = self.budget;
        self.inner.visit_map(Bounded { inner: map, budget })
    }
}

impl<'de, 'b, A: SeqAccess<'de>> SeqAccess<'de> for TupleSeq<'b, A> {
    type Error = A::Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Self::Error> {
        let budget = self.budget;
        self.inner.next_element_seed(BoundedSeed {
            inner: seed,
            budget,
        })
    }

    fn size_hint(&self) -> Option<usize> {
        self.inner.size_hint()
    }
}

impl<'de, 'b, S: DeserializeSeed<'de>> DeserializeSeed<'de> for BoundedSeed<'b, S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        let budget = self.budget;
        self.inner.deserialize(Bounded { inner: d, budget })
    }
}

impl<'de, 'b, A: SeqAccess<'de>> SeqAccess<'de> for Bounded<'b, A> {
    type Error = A::Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Self::Error> {
        self.budget.charge(size_of::<T::Value>())?;
        let budget = self.budget;
        self.inner.next_element_seed(BoundedSeed {
            inner: seed,
            budget,
        })
    }

    fn size_hint(&self) -> Option<usize> {
        self.budget.cap_hint(self.inner.size_hint())
    }
}

impl<'de, 'b, A: MapAccess<'de>> MapAccess<'de> for Bounded<'b, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Self::Error> {
        self.budget.charge(size_of::<K::Value>())?;
        let budget = self.budget;
        self.inner.next_key_seed(BoundedSeed {
            inner: seed,
            budget,
        })
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, Self::Error> {
        self.budget.charge(size_of::<V::Value>())?;
        let budget = self.budget;
        self.inner.next_value_seed(BoundedSeed {
            inner: seed,
            budget,
        })
    }

    fn size_hint(&self) -> Option<usize> {
        self.budget.cap_hint(self.inner.size_hint())
    }
}

impl<'de, 'b, A: EnumAccess<'de>> EnumAccess<'de> for Bounded<'b, A> {
    type Error = A::Error;
    type Variant = Bounded<'b, A::Variant>;

    fn variant_seed<V: DeserializeSeed<'de>>(
        self,
        seed: V,
    ) -> Result<(V::Value, Self::Variant), Self::Error> {
        let budget = self.budget;
        let (value, variant) = self.inner.variant_seed(BoundedSeed {
            inner: seed,
            budget,
        })?;
        Ok((
            value,
            Bounded {
                inner: variant,
                budget,
            },
        ))
    }
}

impl<'de, 'b, A: VariantAccess<'de>> VariantAccess<'de> for Bounded<'b, A> {
    type Error = A::Error;

    fn unit_variant(self) -> Result<(), Self::Error> {
        self.inner.unit_variant()
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(
        self,
        seed: T,
    ) -> Result<T::Value, Self::Error> {
        let budget = self.budget;
        self.inner.newtype_variant_seed(BoundedSeed {
            inner: seed,
            budget,
        })
    }

    fn tuple_variant<V: Visitor<'de>>(
        self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        let budget = self.budget;
        self.inner.tuple_variant(
            len,
            BoundedVisitor {
                inner: visitor,
                budget,
            },
        )
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        let budget = self.budget;
        self.inner.struct_variant(
            fields,
            BoundedVisitor {
                inner: visitor,
                budget,
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;
    use alloc::vec::Vec;

    #[test]
    fn round_trips_within_budget() {
        let v: Vec<Vec<u32>> = vec![vec![1, 2, 3], vec![], vec![u32::MAX]];
        let bytes = postcard::to_allocvec(&v).unwrap();
        assert_eq!(decode::<Vec<Vec<u32>>>(&bytes).unwrap(), v);
    }

    #[test]
    fn huge_length_prefix_is_an_error_not_an_allocation() {
        // A sequence claiming 2^32 - 1 elements of 64 bytes, with none present.
        let bytes = [0xff, 0xff, 0xff, 0xff, 0x0f];
        assert!(decode::<Vec<[u64; 8]>>(&bytes).is_err());
    }

    #[test]
    fn many_tiny_sequences_exhaust_the_budget() {
        // 20,000 empty inner vectors: 20 KB of input, 240 KB (32-bit) to 480 KB decoded.
        let v: Vec<Vec<u8>> = vec![Vec::new(); 20_000];
        let bytes = postcard::to_allocvec(&v).unwrap();
        assert_eq!(
            decode::<Vec<Vec<u8>>>(&bytes),
            Err(VerifyError::MalformedProof(
                "payload decodes to more memory than its size allows"
            ))
        );
    }

    #[test]
    fn arrays_are_charged_once_as_elements_of_their_sequence() {
        let v: Vec<[u8; 32]> = vec![[7; 32]; 10];
        let bytes = postcard::to_allocvec(&v).unwrap();
        let (got, charged) = decode_charged::<Vec<[u8; 32]>>(&bytes).unwrap();
        assert_eq!(got, v);
        // One charge per element and one for the end-of-sequence probe; none per byte.
        assert_eq!(charged, 11 * 32);
        // A sequence inside a tuple is still metered.
        let t: Vec<(u8, Vec<u32>)> = vec![(1, vec![1, 2, 3])];
        let bytes = postcard::to_allocvec(&t).unwrap();
        let (_, charged) = decode_charged::<Vec<(u8, Vec<u32>)>>(&bytes).unwrap();
        assert_eq!(charged, 2 * size_of::<(u8, Vec<u32>)>() + 4 * 4);
    }

    #[test]
    fn overlong_varints_rejected() {
        let v: Vec<u32> = vec![1, 300];
        let bytes = postcard::to_allocvec(&v).unwrap();
        assert_eq!(decode::<Vec<u32>>(&bytes).unwrap(), v);
        // postcard itself reads each overlong form; decode refuses every one.
        let overlong = [
            vec![0x82, 0x00, 0x01, 0xac, 0x02], // the length in two bytes
            vec![0x02, 0x81, 0x00, 0xac, 0x02], // the element 1 in two bytes
            vec![0x02, 0x01, 0xac, 0x82, 0x80, 0x00], // 300 in four bytes
        ];
        for bytes in overlong {
            assert_eq!(postcard::from_bytes::<Vec<u32>>(&bytes).unwrap(), v);
            assert_eq!(
                decode::<Vec<u32>>(&bytes),
                Err(VerifyError::MalformedProof(
                    "payload is not the canonical encoding of its proof"
                )),
                "{bytes:02x?}"
            );
        }
    }

    #[test]
    fn trailing_bytes_rejected() {
        let mut bytes = postcard::to_allocvec(&vec![1u8, 2]).unwrap();
        bytes.push(0);
        assert_eq!(
            decode::<Vec<u8>>(&bytes),
            Err(VerifyError::MalformedProof("bytes after the encoded proof"))
        );
    }
}

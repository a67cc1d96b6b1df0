//! What every binomial extension of BabyBear here shares, written once: an element is
//! `repr(C)` over `[BabyBear; N]` (coefficients of `1, x, .., x^(N-1)`), so a slice of them is
//! a slice of base elements (the prover relies on it), and it serializes as `N` canonical
//! little-endian `u32`s in that order; a non-canonical coefficient is a deserialization error.
//! Each field keeps its own modulus, multiplication, inversion and Frobenius.

/// The coefficient-wise operations, conversions and (de)serialization of `$t`, a
/// `repr(C)` tuple struct over `[BabyBear; $n]` named `$name` in messages; `$i` lists the
/// coefficient indexes, so each operation is written out per coefficient (at opt-level "s",
/// `array::from_fn` and `map` left a loop on the M33: +2.7 % instructions for a wf-babybear
/// Fib-1024 verification, emulator).
macro_rules! babybear_extension {
    ($t:ident, $n:literal, $name:literal, [$($i:literal),+]) => {
        impl core::fmt::Debug for $t {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                write!(f, "({}", self.0[0])?;
                for c in &self.0[1..] {
                    write!(f, ", {c}")?;
                }
                write!(f, ")")
            }
        }

        impl core::fmt::Display for $t {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                core::fmt::Debug::fmt(self, f)
            }
        }

        impl core::ops::Add for $t {
            type Output = Self;
            #[inline(always)]
            fn add(self, r: Self) -> Self {
                $t([$(self.0[$i] + r.0[$i]),+])
            }
        }

        impl core::ops::Sub for $t {
            type Output = Self;
            #[inline(always)]
            fn sub(self, r: Self) -> Self {
                $t([$(self.0[$i] - r.0[$i]),+])
            }
        }

        impl core::ops::Neg for $t {
            type Output = Self;
            #[inline(always)]
            fn neg(self) -> Self {
                $t([$(-self.0[$i]),+])
            }
        }

        impl core::ops::Div for $t {
            type Output = Self;
            #[allow(clippy::suspicious_arithmetic_impl)]
            fn div(self, r: Self) -> Self {
                self * winter_math::FieldElement::inv(r)
            }
        }

        $crate::field::babybear::assign_ops!($t);

        impl From<BabyBear> for $t {
            fn from(v: BabyBear) -> Self {
                let mut c = [BabyBear::ZERO; $n];
                c[0] = v;
                $t(c)
            }
        }

        impl From<u32> for $t {
            fn from(v: u32) -> Self {
                BabyBear::from(v).into()
            }
        }

        impl From<u16> for $t {
            fn from(v: u16) -> Self {
                BabyBear::from(v).into()
            }
        }

        impl From<u8> for $t {
            fn from(v: u8) -> Self {
                BabyBear::from(v).into()
            }
        }

        impl TryFrom<u64> for $t {
            type Error = alloc::string::String;
            fn try_from(v: u64) -> Result<Self, alloc::string::String> {
                BabyBear::try_from(v).map(Into::into)
            }
        }

        impl TryFrom<u128> for $t {
            type Error = alloc::string::String;
            fn try_from(v: u128) -> Result<Self, alloc::string::String> {
                BabyBear::try_from(v).map(Into::into)
            }
        }

        impl TryFrom<&'_ [u8]> for $t {
            type Error = winter_utils::DeserializationError;
            fn try_from(bytes: &[u8]) -> Result<Self, winter_utils::DeserializationError> {
                if bytes.len() != 4 * $n {
                    return Err(winter_utils::DeserializationError::InvalidValue(
                        alloc::format!("a {} BabyBear element takes {} bytes", $name, 4 * $n),
                    ));
                }
                <Self as winter_utils::Deserializable>::read_from(
                    &mut winter_utils::SliceReader::new(bytes),
                )
            }
        }

        impl winter_math::ExtensionOf<BabyBear> for $t {
            #[inline(always)]
            fn mul_base(self, other: BabyBear) -> Self {
                $t([$(self.0[$i] * other),+])
            }
        }

        impl winter_utils::AsBytes for $t {
            fn as_bytes(&self) -> &[u8] {
                // SAFETY: `repr(C)` over `$n` `repr(transparent)` u32s: 4 * $n initialized bytes.
                unsafe { core::slice::from_raw_parts(self as *const Self as *const u8, 4 * $n) }
            }
        }

        impl winter_utils::Randomizable for $t {
            const VALUE_SIZE: usize = 4 * $n;

            /// `$n` canonical base elements, or nothing (most draws fail, so the rejection
            /// path builds no error value; the caller draws again).
            fn from_random_bytes(bytes: &[u8]) -> Option<Self> {
                if bytes.len() != 4 * $n {
                    return None;
                }
                let mut out = [BabyBear::ZERO; $n];
                for (o, chunk) in out.iter_mut().zip(bytes.chunks_exact(4)) {
                    *o = BabyBear::from_random_bytes(chunk)?;
                }
                Some($t(out))
            }
        }

        impl winter_utils::Serializable for $t {
            fn write_into<W: winter_utils::ByteWriter>(&self, target: &mut W) {
                for c in &self.0 {
                    c.write_into(target);
                }
            }

            fn get_size_hint(&self) -> usize {
                4 * $n
            }
        }

        impl winter_utils::Deserializable for $t {
            fn read_from<R: winter_utils::ByteReader>(
                source: &mut R,
            ) -> Result<Self, winter_utils::DeserializationError> {
                let mut out = [BabyBear::ZERO; $n];
                $(out[$i] = BabyBear::read_from(source)?;)+
                Ok($t(out))
            }
        }
    };
}
pub(crate) use babybear_extension;

/// The `FieldElement` items of a `babybear_extension!` type that only reinterpret memory
/// (used inside its `impl FieldElement`).
macro_rules! extension_slices {
    ($n:literal, $name:literal) => {
        fn base_element(&self, i: usize) -> BabyBear {
            match i {
                0..$n => self.0[i],
                _ => panic!("element index must be smaller than {}, but was {i}", $n),
            }
        }

        fn slice_as_base_elements(elements: &[Self]) -> &[BabyBear] {
            // SAFETY: `repr(C)` over `[BabyBear; $n]`: $n consecutive base elements each.
            unsafe {
                core::slice::from_raw_parts(
                    elements.as_ptr() as *const BabyBear,
                    elements.len() * $n,
                )
            }
        }

        fn slice_from_base_elements(elements: &[BabyBear]) -> &[Self] {
            assert!(
                elements.len().is_multiple_of($n),
                "number of base elements must be divisible by {}, but was {}",
                $n,
                elements.len()
            );
            // SAFETY: length checked; the type has the alignment of `BabyBear`.
            unsafe {
                core::slice::from_raw_parts(elements.as_ptr() as *const Self, elements.len() / $n)
            }
        }

        fn elements_as_bytes(elements: &[Self]) -> &[u8] {
            // SAFETY: 4 * $n initialized bytes per element.
            unsafe {
                core::slice::from_raw_parts(elements.as_ptr() as *const u8, elements.len() * 4 * $n)
            }
        }

        unsafe fn bytes_as_elements(
            bytes: &[u8],
        ) -> Result<&[Self], winter_utils::DeserializationError> {
            if !bytes.len().is_multiple_of(4 * $n) {
                return Err(winter_utils::DeserializationError::InvalidValue(
                    alloc::format!(
                        "number of bytes does not divide into whole {} elements",
                        $name
                    ),
                ));
            }
            if !(bytes.as_ptr() as usize).is_multiple_of(core::mem::align_of::<Self>()) {
                return Err(winter_utils::DeserializationError::InvalidValue(
                    alloc::format!("slice memory alignment is not valid for {} elements", $name),
                ));
            }
            // SAFETY: length and alignment checked; validity is the caller's contract.
            Ok(unsafe {
                core::slice::from_raw_parts(bytes.as_ptr() as *const Self, bytes.len() / (4 * $n))
            })
        }
    };
}
pub(crate) use extension_slices;

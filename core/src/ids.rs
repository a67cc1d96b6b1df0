//! Identifiers stored in the proof file: backend, base field, AIR and hash.
//!
//! Each has a fixed byte value (the on-disk encoding, never renumbered) and a stable text name
//! (used by the CLI, the firmware output and the reports).

use core::fmt;

macro_rules! byte_enum {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $var:ident = $val:literal, $text:literal;)* }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum $name { $($(#[$vm])* $var = $val,)* }

        impl $name {
            /// Every value, in encoding order.
            pub const ALL: &'static [$name] = &[$($name::$var,)*];

            /// Decodes the on-disk byte.
            pub fn from_byte(b: u8) -> Option<Self> {
                match b { $($val => Some($name::$var),)* _ => None }
            }

            /// The stable text name.
            pub fn name(self) -> &'static str {
                match self { $($name::$var => $text,)* }
            }

            /// Parses the text name.
            pub fn from_name(s: &str) -> Option<Self> {
                match s { $($text => Some($name::$var),)* _ => None }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}

/// Declares the backends: each one's on-disk byte, name, base field, protocol library and
/// evaluation domain, in one line. Everything else a backend is (its verifier and prover) is
/// bound to its id once, in the `picostark-registry` crate.
macro_rules! backends {
    ($($(#[$vm:meta])* $var:ident = $val:literal, $text:literal, $field:ident, $protocol:literal, $domain:ident;)*) => {
        byte_enum! {
            /// A proof system implementation (protocol library plus field configuration).
            BackendId { $($(#[$vm])* $var = $val, $text;)* }
        }

        impl BackendId {
            /// The base field this backend's proofs are over.
            pub const fn field(self) -> FieldId {
                match self { $(BackendId::$var => FieldId::$field,)* }
            }

            /// The protocol library: `"plonky3"`, `"winterfell"` or `"stwo"`.
            pub const fn protocol(self) -> &'static str {
                match self { $(BackendId::$var => $protocol,)* }
            }

            /// The domain the trace is evaluated over (and so which PCS family proves it).
            pub const fn domain(self) -> Domain {
                match self { $(BackendId::$var => Domain::$domain,)* }
            }
        }
    };
}

impl BackendId {
    /// The largest AIR constraint degree this backend proves as the AIR is written, if it
    /// has a bound below our AIRs'. stwo 2.3 proves constraint degree 2 in all, one of
    /// them the row selector that keeps a transition off the last row: an AIR above degree
    /// 1 is proved in its degree-reduced form (`picostark_air::reduce`), with intermediate
    /// columns.
    pub const fn max_air_degree(self) -> Option<usize> {
        match self {
            BackendId::StwoM31 => Some(1),
            _ => None,
        }
    }
}

/// The domain a backend evaluates its trace over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Domain {
    /// A multiplicative subgroup of order 2^k (two-adic FRI).
    TwoAdic,
    /// The circle group of a Mersenne-31 field (circle STARK, circle FRI).
    Circle,
}

backends! {
    /// Plonky3 uni-stark, BabyBear, two-adic FRI.
    P3BabyBear = 1, "p3-babybear", BabyBear, "plonky3", TwoAdic;
    /// Plonky3 uni-stark, Goldilocks, two-adic FRI.
    P3Goldilocks = 2, "p3-goldilocks", Goldilocks, "plonky3", TwoAdic;
    /// Plonky3 uni-stark, Mersenne-31, circle STARK.
    P3M31 = 3, "p3-m31", Mersenne31, "plonky3", Circle;
    /// Winterfell 0.13 proof, Goldilocks.
    WfGoldilocks = 4, "wf-goldilocks", Goldilocks, "winterfell", TwoAdic;
    /// Winterfell 0.13 proof, BabyBear.
    WfBabyBear = 5, "wf-babybear", BabyBear, "winterfell", TwoAdic;
    /// StarkWare's stwo 2.3 circle STARK, Mersenne-31 (QM31 challenges), its own FRI.
    StwoM31 = 6, "stwo-m31", Mersenne31, "stwo", Circle;
}

byte_enum! {
    /// The base field of the trace.
    FieldId {
        /// p = 2^31 - 2^27 + 1
        BabyBear = 1, "babybear";
        /// p = 2^64 - 2^32 + 1
        Goldilocks = 2, "goldilocks";
        /// p = 2^31 - 1
        Mersenne31 = 3, "m31";
    }
}

/// The statement being proved: one of the built-in AIRs (one header byte each), or an AIR
/// defined outside this workspace, named by its fingerprint (`picostark_air::fingerprint`: a
/// hash of its name and shape, written after the fixed header), so that no two AIRs pass for
/// each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AirId {
    /// Two-column Fibonacci: `s0' = s0 + s1`, `s1' = s1 + s0'`, `s0[0] = s1[0] = 1`,
    /// public input `s1[n-1]`.
    Fibonacci,
    /// Sixteen columns, one degree-3 mixing round per row; public inputs are four input
    /// words (first row) and four output words (last row).
    CubicChain16,
    /// Merkle membership with a nullifier (`picostark_air::membership`): one Poseidon2
    /// permutation per row over the backend's field; public inputs are the root, the
    /// nullifier, the signal hash and the scope hash.
    Membership,
    /// An AIR from outside the workspace, by its 64-bit fingerprint.
    Custom(u64),
}

impl AirId {
    /// The built-in AIRs.
    pub const ALL: &'static [AirId] = &[AirId::Fibonacci, AirId::CubicChain16, AirId::Membership];
    /// The header byte of [`AirId::Custom`] (its fingerprint follows the fixed header).
    pub const CUSTOM_BYTE: u8 = 0x80;

    /// The header byte.
    pub const fn byte(self) -> u8 {
        match self {
            AirId::Fibonacci => 1,
            AirId::CubicChain16 => 2,
            AirId::Membership => 3,
            AirId::Custom(_) => Self::CUSTOM_BYTE,
        }
    }

    /// A built-in AIR by its header byte (a custom AIR needs its fingerprint too).
    pub fn from_byte(b: u8) -> Option<Self> {
        Self::ALL.iter().copied().find(|a| a.byte() == b)
    }

    /// The text name: `custom` for every user AIR (its [`fmt::Display`] adds the
    /// fingerprint).
    pub fn name(self) -> &'static str {
        match self {
            AirId::Fibonacci => "fib",
            AirId::CubicChain16 => "chain16",
            AirId::Membership => "membership",
            AirId::Custom(_) => "custom",
        }
    }

    /// A built-in AIR by its text name.
    pub fn from_name(s: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|a| a.name() == s)
    }

    /// A custom AIR's fingerprint.
    pub const fn fingerprint(self) -> Option<u64> {
        match self {
            AirId::Custom(f) => Some(f),
            _ => None,
        }
    }
}

impl fmt::Display for AirId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AirId::Custom(fp) => write!(f, "custom-{fp:016x}"),
            _ => f.write_str(self.name()),
        }
    }
}

byte_enum! {
    /// The hash used for commitments and Fiat-Shamir.
    HashId {
        /// BLAKE3 with 256-bit output.
        Blake3_256 = 1, "blake3-256";
        /// SHA-256 (FIPS 180-4); the RP2350 has an engine for its compression function.
        Sha256 = 2, "sha256";
        /// BLAKE2s with 256-bit output (stwo's own Merkle channel).
        Blake2s256 = 3, "blake2s-256";
    }
}

impl FieldId {
    /// `floor(1000 * log2(p))`: the field size in milli-bits, for the security estimate
    /// (integer arithmetic only, so the estimate is the same on every target).
    pub fn log2_modulus_millibits(self) -> u32 {
        match self {
            // log2(2013265921) = 30.9069...
            FieldId::BabyBear => 30_906,
            // log2(2^64 - 2^32 + 1) = 63.99999999966...
            FieldId::Goldilocks => 63_999,
            // log2(2^31 - 1) = 30.99999999933...
            FieldId::Mersenne31 => 30_999,
        }
    }

    /// The modulus.
    pub fn modulus(self) -> u64 {
        match self {
            FieldId::BabyBear => 2_013_265_921,
            FieldId::Goldilocks => 0xFFFF_FFFF_0000_0001,
            FieldId::Mersenne31 => 0x7FFF_FFFF,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_bytes_round_trip() {
        for &b in BackendId::ALL {
            assert_eq!(BackendId::from_name(b.name()), Some(b));
            assert_eq!(BackendId::from_byte(b as u8), Some(b));
        }
        assert_eq!(BackendId::from_byte(0), None);
        assert_eq!(BackendId::from_name("p3-unknown"), None);
        for &f in FieldId::ALL {
            assert_eq!(FieldId::from_byte(f as u8), Some(f));
        }
        assert_eq!(HashId::from_byte(2), Some(HashId::Sha256));
        assert_eq!(HashId::from_name("sha256"), Some(HashId::Sha256));
        assert_eq!(HashId::from_byte(3), Some(HashId::Blake2s256));
        assert_eq!(HashId::from_byte(4), None);
    }
}

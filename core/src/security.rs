//! The one conjectured-security estimator used for every backend, and the verifier policy.
//!
//! # Formula
//!
//! For a proof over base field `F_p` with challenge field `F_{p^d}`, trace length `n`,
//! blowup `2^b`, `q` FRI queries and `g` proof-of-work bits before query sampling:
//!
//! ```text
//! query_bits = q * b + g
//! field_bits = floor(d * log2 p) - log2(n * 2^b)
//! hash_bits  = 128                      (collision resistance of BLAKE3-256)
//! security   = min(query_bits, field_bits, hash_bits) - 1
//! ```
//!
//! This is the ethSTARK conjecture (StarkWare, "ethSTARK Documentation", IACR ePrint
//! 2021/582, Conjecture 1 and Eq. (19)) in the form winterfell 0.13 implements it
//! (`winter_air::proof::ConjecturedSecurity::compute`: the minimum of the query term and the
//! extension-field term, minus one, capped by the hash), with one change that makes it
//! stricter: the field term subtracts `log2` of the LDE domain size, the size of the set
//! from which the out-of-domain point must avoid collisions (ethSTARK §5.10 counts the
//! DEEP/ALI error as roughly `|D_LDE| / |F|`). The same integer arithmetic runs on every
//! target, so the host, the firmware and the reports agree to the bit.

use crate::error::VerifyError;
use crate::ids::FieldId;
use crate::proof_file::{ProofHeader, ProofParams};

/// Collision resistance of BLAKE3-256, in bits.
pub const HASH_COLLISION_BITS: u32 = 128;

/// Conjectured security in bits (see the module documentation for the formula).
pub fn conjectured_security_bits(
    field: FieldId,
    extension_degree: u8,
    log_n: u8,
    params: &ProofParams,
) -> u32 {
    let query_bits =
        u32::from(params.num_queries) * u32::from(params.log_blowup) + u32::from(params.pow_bits);
    let ext_field_bits = u32::from(extension_degree) * field.log2_modulus_millibits() / 1000;
    let field_bits = ext_field_bits.saturating_sub(u32::from(log_n) + u32::from(params.log_blowup));
    query_bits
        .min(field_bits)
        .min(HASH_COLLISION_BITS)
        .saturating_sub(1)
}

/// What a verifier accepts before doing any heavy work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy {
    /// Minimum conjectured security in bits.
    pub min_security_bits: u32,
    /// Largest trace length (log2) the verifier will work on: bounds the verifier's work and
    /// memory for a hostile header.
    pub max_log_n: u8,
}

impl Policy {
    /// The default minimum security: 95 conjectured bits.
    pub const DEFAULT_MIN_SECURITY_BITS: u32 = 95;

    /// Checks a header against the policy and returns its security estimate.
    pub fn check(&self, header: &ProofHeader) -> Result<u32, VerifyError> {
        if header.log_n > self.max_log_n {
            return Err(VerifyError::Unsupported(
                "trace length above the policy's maximum",
            ));
        }
        let bits = conjectured_security_bits(
            header.field,
            header.extension_degree,
            header.log_n,
            &header.params,
        );
        if bits < self.min_security_bits {
            return Err(VerifyError::InsufficientSecurity {
                bits,
                required: self.min_security_bits,
            });
        }
        Ok(bits)
    }
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            min_security_bits: Self::DEFAULT_MIN_SECURITY_BITS,
            max_log_n: 24,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(log_blowup: u8, num_queries: u16, pow_bits: u8) -> ProofParams {
        ProofParams {
            log_blowup,
            num_queries,
            pow_bits,
            log_fold_arity: 3,
            log_final_poly_len: 5,
        }
    }

    #[test]
    fn winterfell_reference_parameters_give_95_bits() {
        // 32 queries at blowup 8: the query term (96) binds, as in winterfell's estimate.
        let p = params(3, 32, 0);
        assert_eq!(
            conjectured_security_bits(FieldId::Goldilocks, 2, 10, &p),
            95
        );
        assert_eq!(conjectured_security_bits(FieldId::BabyBear, 4, 10, &p), 95);
    }

    #[test]
    fn small_extension_is_limited_by_the_field_term() {
        let p = params(3, 27, 16);
        // BabyBear alone: 30 bits - 13 = 17, minus one.
        assert_eq!(conjectured_security_bits(FieldId::BabyBear, 1, 10, &p), 16);
        // M31^3: floor(92.99) = 92, minus log2(2^16 * 8) = 19, minus one: 72.
        assert_eq!(
            conjectured_security_bits(FieldId::Mersenne31, 3, 16, &p),
            72
        );
        // M31^4 reaches the query term: 27 * 3 + 16 - 1 = 96.
        assert_eq!(
            conjectured_security_bits(FieldId::Mersenne31, 4, 16, &p),
            96
        );
    }

    #[test]
    fn hash_caps_the_estimate() {
        let p = params(8, 100, 0);
        assert_eq!(
            conjectured_security_bits(FieldId::Goldilocks, 4, 10, &p),
            127
        );
    }
}

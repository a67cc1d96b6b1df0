//! The classes of damage the constant-time measurement applies to an honest proof (issue 46,
//! `prover-host tamper`, `results/constant-time/`): one place each, edited by the backend's
//! own decoder, so the tampered copy fails at a known check and a timing gap between it and
//! the honest proof is measured for that check.

use core::fmt;

use crate::error::Check;

/// Where a tampered copy of a proof was changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TamperClass {
    /// The statement's first public input (the envelope, not the payload).
    PublicInput,
    /// A trace value opened at the out-of-domain point.
    OodValue,
    /// A value of a trace row opened at a query.
    TraceOpening,
    /// A sibling digest of the trace commitment's Merkle opening.
    MerkleSibling,
    /// A value of the first FRI layer's opened rows.
    FriFoldValue,
    /// A coefficient of the FRI final polynomial (remainder).
    FinalPolynomial,
    /// The query proof-of-work witness (nonce).
    PowNonce,
}

impl TamperClass {
    /// Every class, in the order the measurement runs them.
    pub const ALL: [TamperClass; 7] = [
        TamperClass::PublicInput,
        TamperClass::OodValue,
        TamperClass::TraceOpening,
        TamperClass::MerkleSibling,
        TamperClass::FriFoldValue,
        TamperClass::FinalPolynomial,
        TamperClass::PowNonce,
    ];

    /// The class's stable name (the command line's and the records').
    pub fn name(self) -> &'static str {
        match self {
            TamperClass::PublicInput => "public-input",
            TamperClass::OodValue => "ood",
            TamperClass::TraceOpening => "trace-opening",
            TamperClass::MerkleSibling => "merkle-sibling",
            TamperClass::FriFoldValue => "fri-fold",
            TamperClass::FinalPolynomial => "final-poly",
            TamperClass::PowNonce => "pow-nonce",
        }
    }

    /// The class of a name from [`TamperClass::name`].
    pub fn from_name(name: &str) -> Option<TamperClass> {
        Self::ALL.into_iter().find(|c| c.name() == name)
    }
}

impl fmt::Display for TamperClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A tampered copy of a proof file and the check its verdict must name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tampered {
    /// The whole proof file, changed at one place.
    pub file: std::vec::Vec<u8>,
    /// The check that must reject it.
    pub expected: Check,
}

/// The proof file `bytes` with its first public input changed by one (the envelope: every
/// backend's statement), rejected at the out-of-domain constraints.
pub fn public_input(bytes: &[u8]) -> Result<Tampered, std::string::String> {
    let file = crate::ProofFile::parse(bytes).map_err(|e| std::format!("{e}"))?;
    let mut public: std::vec::Vec<u64> = file.public_inputs.iter().collect();
    let first = public.first_mut().ok_or("the proof has no public input")?;
    *first = if *first == 0 { 1 } else { *first - 1 };
    Ok(Tampered {
        file: crate::proof_file::encode(&file.header, &public, file.payload),
        expected: Check::OodConstraints,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_differ() {
        for (i, c) in TamperClass::ALL.iter().enumerate() {
            assert_eq!(TamperClass::from_name(c.name()), Some(*c));
            for d in &TamperClass::ALL[i + 1..] {
                assert_ne!(c.name(), d.name());
            }
        }
        assert_eq!(TamperClass::from_name("nonsense"), None);
    }
}

//! The verifiers' small-field arithmetic, written for 32-bit cores: Mersenne-31 with its
//! complex extension CM31, quartic extension QM31 and the sextic CM31\[u\]/(u^3 - 5) of the
//! proven track, and BabyBear (Montgomery form) with its quartic and quintic extensions;
//! Goldilocks in 32-bit limbs with its quadratic and cubic extensions ([`goldilocks`]).
//!
//! Why a crate of our own: a verifier on the RP2350 spends most of its field time in
//! extension-field products, and the generic towers of the STARK libraries reduce after every
//! base product. Here an extension product sums its 32x32->64-bit partial products in `u64`
//! (one `UMULL`/`UMLAL` each on the Cortex-M33, `mul`/`mulhu` on Hazard3) and reduces once
//! per output coefficient (issue 44). Every type stores the same words as Plonky3 0.8's
//! (`Mersenne31`, `QM31 = BinomialExtensionField<Complex<Mersenne31>, 2>`, `BabyBear`,
//! `BinomialExtensionField<BabyBear, 4>` and `<BabyBear, 5>`; the sextic: the words of the
//! Plonky3 backend's own `M31Sextic`), so values convert 1:1 through [`M31::raw`],
//! [`BabyBear::raw`] and the `from_raw` constructors.
//!
//! `no_std`, no allocation; the measurement wrappers (feature `measure`) are the only
//! `extern "C"` items.

#![no_std]

#[cfg(test)]
extern crate std;

mod babybear;
mod bb4;
mod bb5;
#[cfg(feature = "bench")]
pub mod bench;
mod cm31;
pub mod goldilocks;
mod m31;
mod m31_6;
#[cfg(feature = "measure")]
pub mod measure;
mod qm31;

pub use babybear::BabyBear;
pub use bb4::BabyBear4;
pub use bb5::BabyBear5;
pub use cm31::CM31;
pub use m31::M31;
pub use m31_6::M31Sextic;
pub use qm31::{qm31_dot, QM31};

/// The operations [`batch_inverse`] needs, implemented by every field of the crate.
pub trait Field: Copy {
    /// The multiplicative identity.
    const ONE: Self;
    /// The product `self * rhs`.
    fn mul(self, rhs: Self) -> Self;
    /// The inverse of `self`; zero maps to zero.
    fn inverse(self) -> Self;
}

/// Inverts every element of `xs` in place with one field inversion (Montgomery's trick:
/// prefix products forward, one inverse, then back), using `scratch` (at least `xs.len()`
/// long) for the prefix products.
///
/// All elements must be non-zero: one zero makes the shared inverse zero, and then every
/// output is zero.
///
/// # Panics
/// If `scratch` is shorter than `xs`.
pub fn batch_inverse<F: Field>(xs: &mut [F], scratch: &mut [F]) {
    let n = xs.len();
    if n == 0 {
        return;
    }
    let prefix = &mut scratch[..n];
    // prefix[i] = xs[0] * ... * xs[i - 1]
    let mut acc = F::ONE;
    for (p, &x) in prefix.iter_mut().zip(xs.iter()) {
        *p = acc;
        acc = acc.mul(x);
    }
    // inv = (xs[0] * ... * xs[i])^-1, walking i down.
    let mut inv = acc.inverse();
    for (x, &p) in xs.iter_mut().zip(prefix.iter()).rev() {
        let xi = *x;
        *x = inv.mul(p);
        inv = inv.mul(xi);
    }
}

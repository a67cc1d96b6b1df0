//! Instruction-count probes (feature `measure`): one `#[no_mangle] extern "C"` function per
//! product, each reading two `[u32; 4]` through pointers and writing the product through a
//! third, so a disassembly counts the product together with its 8 loads, 4 stores and the
//! call's entry and return (`measure.sh` builds them as a static library and counts).
//!
//! Why a module: the counts are the point of issue 44 and must come from the firmware's
//! code generation (opt-level `s`, fat LTO, one codegen unit), which only a separate build
//! of these probes reproduces without wiring the crate into a verifier. With `measure-p3`
//! the same probes wrap Plonky3 0.8's products (`a * b` of its types, whose words are ours).

use crate::{BabyBear4, BabyBear5, M31Sextic, QM31};

/// Our QM31 product.
#[no_mangle]
#[inline(never)]
pub extern "C" fn pf_qm31_mul(a: &[u32; 4], b: &[u32; 4], out: &mut [u32; 4]) {
    *out = QM31::from_raw(*a).mul(QM31::from_raw(*b)).raw();
}

/// Our BabyBear^4 product.
#[no_mangle]
#[inline(never)]
pub extern "C" fn pf_bb4_mul(a: &[u32; 4], b: &[u32; 4], out: &mut [u32; 4]) {
    *out = BabyBear4::from_raw(*a).mul(BabyBear4::from_raw(*b)).raw();
}

/// Our BabyBear^5 product.
#[no_mangle]
#[inline(never)]
pub extern "C" fn pf_bb5_mul(a: &[u32; 5], b: &[u32; 5], out: &mut [u32; 5]) {
    *out = BabyBear5::from_raw(*a).mul(BabyBear5::from_raw(*b)).raw();
}

/// Our Mersenne-31 sextic product.
#[no_mangle]
#[inline(never)]
pub extern "C" fn pf_m31_6_mul(a: &[u32; 6], b: &[u32; 6], out: &mut [u32; 6]) {
    *out = M31Sextic::from_raw(*a).mul(M31Sextic::from_raw(*b)).raw();
}

#[cfg(feature = "measure-p3")]
mod p3 {
    use p3_baby_bear::BabyBear;
    use p3_field::extension::BinomialExtensionField;
    use p3_mersenne_31::QM31;

    type BB4 = BinomialExtensionField<BabyBear, 4>;
    type BB5 = BinomialExtensionField<BabyBear, 5>;

    /// Plonky3's QM31 product (`QM31` is `repr(transparent)` down to `[u32; 4]`).
    #[no_mangle]
    #[inline(never)]
    pub extern "C" fn pf_p3_qm31_mul(a: &[u32; 4], b: &[u32; 4], out: &mut [u32; 4]) {
        // SAFETY: `QM31` is `repr(transparent)` over `[Complex<Mersenne31>; 2]`, `Complex`
        // over `[Mersenne31; 2]` and `Mersenne31` over `u32`: the layout of `[u32; 4]`. The
        // words are below 2^31, its invariant (the caller's duty, as for ours).
        let (x, y) = unsafe {
            (
                *(a as *const _ as *const QM31),
                *(b as *const _ as *const QM31),
            )
        };
        let z = x * y;
        // SAFETY: the same layout, read back.
        *out = unsafe { *(&z as *const QM31 as *const [u32; 4]) };
    }

    /// Plonky3's BabyBear^4 product.
    #[no_mangle]
    #[inline(never)]
    pub extern "C" fn pf_p3_bb4_mul(a: &[u32; 4], b: &[u32; 4], out: &mut [u32; 4]) {
        // SAFETY: `BinomialExtensionField<BabyBear, 4>` is `repr(transparent)` over
        // `[BabyBear; 4]` and `BabyBear` over its `u32` Montgomery word.
        let (x, y) = unsafe {
            (
                *(a as *const _ as *const BB4),
                *(b as *const _ as *const BB4),
            )
        };
        let z = x * y;
        // SAFETY: the same layout, read back.
        *out = unsafe { *(&z as *const BB4 as *const [u32; 4]) };
    }

    /// Plonky3's BabyBear^5 product.
    #[no_mangle]
    #[inline(never)]
    pub extern "C" fn pf_p3_bb5_mul(a: &[u32; 5], b: &[u32; 5], out: &mut [u32; 5]) {
        // SAFETY: as for `pf_p3_bb4_mul`, five words.
        let (x, y) = unsafe {
            (
                *(a as *const _ as *const BB5),
                *(b as *const _ as *const BB5),
            )
        };
        let z = x * y;
        // SAFETY: the same layout, read back.
        *out = unsafe { *(&z as *const BB5 as *const [u32; 5]) };
    }

    /// Plonky3 needs `alloc` linked; the probes never allocate.
    #[cfg(target_os = "none")]
    mod no_alloc {
        struct NoAlloc;
        // SAFETY: never hands out memory: every allocation fails.
        unsafe impl core::alloc::GlobalAlloc for NoAlloc {
            unsafe fn alloc(&self, _: core::alloc::Layout) -> *mut u8 {
                core::ptr::null_mut()
            }
            unsafe fn dealloc(&self, _: *mut u8, _: core::alloc::Layout) {}
        }
        #[global_allocator]
        static A: NoAlloc = NoAlloc;
    }
}

/// A static library for a bare-metal target needs one.
#[cfg(all(target_os = "none", not(test)))]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    loop {}
}

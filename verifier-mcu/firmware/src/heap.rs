//! The heap: the allocator chosen at build time (embedded-alloc 0.7 TLSF by default, LLFF
//! with `alloc-llff`, a bump allocator with `alloc-bump`) behind a wrapper that tracks the
//! bytes in use and their peak (not in the published window's RV32 build: see [`HEAP`]).
//!
//! The peak counts requested bytes (`Layout::size`), not the allocator's own overhead. For
//! the bump allocator, which never reuses freed memory until it is reset, the peak is its
//! high-water mark: the memory a verification really needs without an allocator. The bump
//! allocator is reset to its watermark after each verification, when everything allocated
//! since the mark has been freed.
//!
//! Out of memory: the wrapper remembers the last request the allocator refused. When the
//! standard library's allocation-error path then panics ("memory allocation of N bytes
//! failed"), the panic handler asks [`out_of_memory`] and prints (QEMU and RP2350 board)
//!
//! ```text
//! pstk1 oom requested=65536 align=8 in_use=350112 peak=371200 heap=393216
//! ```
//!
//! (bytes: the refused request, the bytes in use and their peak when it was refused, the
//! heap size); QEMU then exits with [`OOM_EXIT_CODE`]. A refused *fallible* request
//! (`try_reserve`, as for the firmware's tampered copy) is remembered too but reported only
//! if an allocation-error panic follows.

use core::alloc::{GlobalAlloc, Layout};
use core::mem::MaybeUninit;
use core::ptr::addr_of_mut;
use core::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use crate::config::HEAP_SIZE;

#[cfg(all(feature = "alloc-llff", feature = "alloc-bump"))]
compile_error!("choose at most one allocator feature: alloc-llff or alloc-bump");

#[cfg(not(any(feature = "alloc-llff", feature = "alloc-bump")))]
type Inner = embedded_alloc::TlsfHeap;
#[cfg(not(any(feature = "alloc-llff", feature = "alloc-bump")))]
const fn new_inner() -> Inner {
    embedded_alloc::TlsfHeap::empty()
}
/// The allocator's name in the output lines.
#[cfg(not(any(feature = "alloc-llff", feature = "alloc-bump")))]
pub const NAME: &str = "tlsf";

#[cfg(feature = "alloc-llff")]
type Inner = embedded_alloc::LlffHeap;
#[cfg(feature = "alloc-llff")]
const fn new_inner() -> Inner {
    embedded_alloc::LlffHeap::empty()
}
#[cfg(feature = "alloc-llff")]
pub const NAME: &str = "llff";

#[cfg(feature = "alloc-bump")]
type Inner = Bump;
#[cfg(feature = "alloc-bump")]
const fn new_inner() -> Inner {
    Bump::empty()
}
#[cfg(feature = "alloc-bump")]
pub const NAME: &str = "bump";

/// A bump allocator: frees only the most recent allocation; [`Bump::reset`] rewinds it.
#[allow(dead_code)]
pub struct Bump {
    start: AtomicUsize,
    next: AtomicUsize,
    end: AtomicUsize,
    high: AtomicUsize,
}

#[allow(dead_code)]
impl Bump {
    pub const fn empty() -> Self {
        Bump {
            start: AtomicUsize::new(0),
            next: AtomicUsize::new(0),
            end: AtomicUsize::new(0),
            high: AtomicUsize::new(0),
        }
    }

    /// # Safety
    /// `[start, start + size)` must be memory owned by the allocator from now on.
    pub unsafe fn init(&self, start: usize, size: usize) {
        self.start.store(start, Relaxed);
        self.next.store(start, Relaxed);
        self.end.store(start + size, Relaxed);
        self.high.store(start, Relaxed);
    }

    fn position(&self) -> usize {
        self.next.load(Relaxed)
    }

    fn reset(&self, to: usize) {
        self.next.store(to, Relaxed);
    }

    fn high_water(&self) -> usize {
        self.high.load(Relaxed) - self.start.load(Relaxed)
    }

    fn reset_high_water(&self) {
        self.high.store(self.next.load(Relaxed), Relaxed);
    }
}

unsafe impl GlobalAlloc for Bump {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let next = self.next.load(Relaxed);
        let Some(at) = next
            .checked_add(layout.align() - 1)
            .map(|v| v & !(layout.align() - 1))
        else {
            return core::ptr::null_mut();
        };
        match at.checked_add(layout.size()) {
            Some(end) if end <= self.end.load(Relaxed) => {
                self.next.store(end, Relaxed);
                if end > self.high.load(Relaxed) {
                    self.high.store(end, Relaxed);
                }
                at as *mut u8
            }
            _ => core::ptr::null_mut(),
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if ptr as usize + layout.size() == self.next.load(Relaxed) {
            self.next.store(ptr as usize, Relaxed);
        }
    }
}

#[cfg_attr(heap_untracked, allow(dead_code))]
/// Counts bytes in use and their peak around any allocator. `realloc` is the default
/// (allocate, copy, free), so a growing vector's old and new buffers both count.
pub struct Tracking<A> {
    inner: A,
    in_use: AtomicUsize,
    peak: AtomicUsize,
}

unsafe impl<A: GlobalAlloc> GlobalAlloc for Tracking<A> {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = self.inner.alloc(layout);
        if p.is_null() {
            // Only the failure path stores: the counts of successful runs are unchanged.
            REFUSED_SIZE.store(layout.size(), Relaxed);
            REFUSED_ALIGN.store(layout.align(), Relaxed);
            REFUSED_IN_USE.store(self.in_use.load(Relaxed), Relaxed);
        } else {
            // Single core, no allocation in interrupts: plain loads and stores suffice.
            let n = self.in_use.load(Relaxed) + layout.size();
            self.in_use.store(n, Relaxed);
            if n > self.peak.load(Relaxed) {
                self.peak.store(n, Relaxed);
            }
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        self.inner.dealloc(ptr, layout);
        self.in_use
            .store(self.in_use.load(Relaxed) - layout.size(), Relaxed);
    }
}

/// The global allocator: the chosen allocator behind [`Tracking`], except in the published
/// window's RV32 build (`heap_untracked`, set by build.rs for `stock-wf-window` on RV32):
/// the published Hazard3 runs had no wrapper, so that build has none either and reports
/// no heap figures (the bump allocator's high-water mark excepted).
#[cfg(not(heap_untracked))]
#[global_allocator]
static HEAP: Tracking<Inner> = Tracking {
    inner: new_inner(),
    in_use: AtomicUsize::new(0),
    peak: AtomicUsize::new(0),
};

#[cfg(heap_untracked)]
#[global_allocator]
static HEAP: Inner = new_inner();

fn inner() -> &'static Inner {
    #[cfg(not(heap_untracked))]
    {
        &HEAP.inner
    }
    #[cfg(heap_untracked)]
    {
        &HEAP
    }
}

static mut HEAP_MEM: [MaybeUninit<u8>; HEAP_SIZE] = [MaybeUninit::uninit(); HEAP_SIZE];

/// Hands the heap memory to the allocator. Call once, first thing after boot.
pub fn init() {
    static DONE: AtomicUsize = AtomicUsize::new(0);
    if DONE.swap(1, Relaxed) != 0 {
        return;
    }
    // SAFETY: runs once (guarded above); HEAP_MEM is used by nothing else.
    unsafe { inner().init(addr_of_mut!(HEAP_MEM) as usize, HEAP_SIZE) }
}

/// Bytes in use now (unknown without the tracking wrapper).
pub fn in_use() -> Option<usize> {
    #[cfg(not(heap_untracked))]
    {
        Some(HEAP.in_use.load(Relaxed))
    }
    #[cfg(heap_untracked)]
    {
        None
    }
}

/// Peak since [`reset_peak`] (bump: the high-water mark above its start).
pub fn peak() -> Option<usize> {
    #[cfg(feature = "alloc-bump")]
    {
        Some(inner().high_water())
    }
    #[cfg(all(not(feature = "alloc-bump"), not(heap_untracked)))]
    {
        Some(HEAP.peak.load(Relaxed))
    }
    #[cfg(all(not(feature = "alloc-bump"), heap_untracked))]
    {
        None
    }
}

/// Starts a new peak measurement.
pub fn reset_peak() {
    #[cfg(not(heap_untracked))]
    HEAP.peak.store(HEAP.in_use.load(Relaxed), Relaxed);
    #[cfg(feature = "alloc-bump")]
    inner().reset_high_water();
}

static WATERMARK: AtomicUsize = AtomicUsize::new(0);
static WATERMARK_IN_USE: AtomicUsize = AtomicUsize::new(0);

/// Remembers the current state: [`after_verify`] rewinds the bump allocator to it.
pub fn set_watermark() {
    #[cfg(feature = "alloc-bump")]
    WATERMARK.store(inner().position(), Relaxed);
    WATERMARK_IN_USE.store(in_use().unwrap_or(0), Relaxed);
}

/// Called after each verification: rewinds the bump allocator when nothing allocated since
/// the watermark is still live. Other allocators reuse freed memory themselves. Without the
/// tracking wrapper (only the published window's build, whose measured call consumes
/// everything allocated since the watermark: the proof clone) it rewinds unconditionally.
pub fn after_verify() {
    if in_use().unwrap_or(0) == WATERMARK_IN_USE.load(Relaxed) {
        #[cfg(feature = "alloc-bump")]
        inner().reset(WATERMARK.load(Relaxed));
    }
    let _ = &WATERMARK;
}

#[cfg(feature = "qemu")]
/// QEMU exit status of a run that ran out of heap (0 pass, 1-3 verify outcomes, 4 panic).
pub const OOM_EXIT_CODE: u32 = 5;

static REFUSED_SIZE: AtomicUsize = AtomicUsize::new(0);
static REFUSED_ALIGN: AtomicUsize = AtomicUsize::new(0);
static REFUSED_IN_USE: AtomicUsize = AtomicUsize::new(0);

/// The allocation the heap could not satisfy.
pub struct OutOfMemory {
    pub requested: usize,
    pub align: usize,
    pub in_use: usize,
    pub peak: usize,
}

impl OutOfMemory {
    /// Writes the `oom` line (see the module documentation).
    pub fn write_line<W: core::fmt::Write>(&self, w: &mut W) -> core::fmt::Result {
        writeln!(
            w,
            "{} oom requested={} align={} in_use={} peak={} heap={HEAP_SIZE}",
            picostark_core::record::LINE_PREFIX,
            self.requested,
            self.align,
            self.in_use,
            self.peak
        )
    }
}

/// Whether `message` is the standard library's allocation-error panic, checked without a
/// buffer as it is formatted.
struct AllocErrorMessage {
    matched: usize,
    differs: bool,
}

const ALLOC_ERROR_PREFIX: &[u8] = b"memory allocation of ";

impl core::fmt::Write for AllocErrorMessage {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        const PREFIX: &[u8] = ALLOC_ERROR_PREFIX;
        for &b in s.as_bytes() {
            if self.matched == PREFIX.len() {
                return Ok(());
            }
            if PREFIX[self.matched] != b {
                self.differs = true;
                return Err(core::fmt::Error);
            }
            self.matched += 1;
        }
        Ok(())
    }
}

/// The refused request behind this panic, if the panic is an allocation error.
pub fn out_of_memory(info: &core::panic::PanicInfo<'_>) -> Option<OutOfMemory> {
    let mut m = AllocErrorMessage {
        matched: 0,
        differs: false,
    };
    let _ = core::fmt::write(&mut m, format_args!("{}", info.message()));
    let requested = REFUSED_SIZE.load(Relaxed);
    if m.differs || m.matched < ALLOC_ERROR_PREFIX.len() || requested == 0 {
        return None;
    }
    Some(OutOfMemory {
        requested,
        align: REFUSED_ALIGN.load(Relaxed),
        in_use: REFUSED_IN_USE.load(Relaxed),
        peak: peak().unwrap_or(0),
    })
}

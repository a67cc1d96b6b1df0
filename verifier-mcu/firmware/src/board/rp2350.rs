//! RP2350 board layer, both cores (rp235x-hal 0.4): 150 MHz system clock from the 12 MHz
//! crystal, DWT CYCCNT (Cortex-M33) or `mcycle` (Hazard3) as the cycle counter, cross-checked
//! against TIMER0 (1 MHz), results over USB CDC serial. The proof is embedded at build time
//! (`PSTK_PROOF`). Protocol and line formats: `picostark_core::board`.
//!
//! - A run starts when the host sends the request line `pstk1 start` (`mcu-run capture` does),
//!   never on opening the port; each request runs the benchmark once, then the firmware waits
//!   for the next.
//! - Each measured window's cycle count is followed by a `clock` line (the rate the counter ran
//!   at against TIMER0) or an `error what=cycle-counter-*` line; one calibration window of
//!   10 ms precedes each run.
//! - Output never blocks for long: with the port closed (no DTR) a line is dropped at once,
//!   with an open port that stops reading after [`STALL_US`]; the next run starts with a
//!   `dropped` line counting what was lost.
//! - A panic (an out-of-memory is one: its `oom` line), a HardFault on the M33 or an exception
//!   on Hazard3 writes its line, then keeps serving USB and repeats the line on every new
//!   request, so a host that connects late still reads it. A fault before USB is up halts
//!   silently.
//!
//! - Headless: the word [`PSTK_HEADLESS`] is 0 in every image; `mcu-run board` sets it to 1
//!   in its copy of the image (an address patch: the image is otherwise the one flashed), and
//!   the firmware then skips the clock, timer and USB set-up and the host request (all of
//!   which wait on hardware that QEMU's plain memory never changes), runs the benchmark once
//!   with no output and calls [`pstk_verdict`] with the exit code. The measured windows are
//!   the same functions either way (`bench::pstk_measure_start` .. `pstk_measure_end`).
//!
//! Flash and capture: see verifier-mcu/README.md ("RP2350 board").

use core::fmt::{self, Write};
use core::mem::MaybeUninit;
use core::ptr::addr_of_mut;
use core::sync::atomic::{AtomicBool, Ordering};

use rp235x_hal as hal;

use hal::clocks::Clock;
use picostark_core::board::{
    check_counter, write_counter_line, write_dropped_line, write_fault_line, write_panic_line,
    FixedLine, RequestReader, Window,
};
use usb_device::class_prelude::UsbBusAllocator;
use usb_device::prelude::{StringDescriptors, UsbDevice, UsbDeviceBuilder, UsbVidPid};
use usbd_serial::SerialPort;

use crate::bench::{self, Board, LineBuf};
use crate::{config, heap};

/// The RP2350 boot ROM's image definition, in the first 4 KiB of flash.
#[link_section = ".start_block"]
#[used]
pub static IMAGE_DEF: hal::block::ImageDef = hal::block::ImageDef::secure_exe();

/// Program information for `picotool info`.
#[link_section = ".bi_entries"]
#[used]
pub static PICOTOOL_ENTRIES: [hal::binary_info::EntryAddr; 3] = [
    hal::binary_info::rp_program_name!(c"picostark-verifier"),
    hal::binary_info::rp_program_description!(
        c"Verifies an embedded STARK proof and prints pstk1 lines over USB serial"
    ),
    hal::binary_info::rp_cargo_version!(),
];

/// 0 on the board; 1 in `mcu-run board`'s patched copy of the image (module docs). Read
/// volatile, so the build cannot fold it.
#[no_mangle]
#[used]
pub static PSTK_HEADLESS: u32 = 0;

/// The genuine iterations of a run (`PSTK_ITERATIONS`), for `mcu-run board`: it counts that
/// many windows (the tampered one follows them).
#[no_mangle]
#[used]
pub static PSTK_ITERATIONS: u32 = config::ITERATIONS;

/// Written by [`pstk_verdict`] (a volatile store keeps the call and its argument).
static VERDICT: core::sync::atomic::AtomicU32 = core::sync::atomic::AtomicU32::new(u32::MAX);

/// Called with the run's exit code (0: every genuine iteration accepted and the tampered copy
/// rejected; `bench::Outcome::code`) after each run. `mcu-run board` stops here and reads the
/// argument register (r0 / a0).
#[no_mangle]
#[inline(never)]
pub extern "C" fn pstk_verdict(code: u32) {
    // SAFETY: a plain word-sized store to a static.
    unsafe { core::ptr::write_volatile(VERDICT.as_ptr(), code) };
}

/// The board without its peripherals (headless run under `mcu-run board`): the cycle
/// counter read as on the board, no output.
struct Headless;

impl Board for Headless {
    #[cfg(target_arch = "arm")]
    const CORE: &'static str = "m33";
    #[cfg(target_arch = "riscv32")]
    const CORE: &'static str = "rv32";
    const BOARD: &'static str = "rp2350";
    const COUNTER: &'static str = "cycles";
    const CLOCK_HZ: u32 = SYS_HZ;
    #[cfg(target_arch = "arm")]
    const COUNTER_BITS: u32 = 32;
    #[cfg(target_arch = "riscv32")]
    const COUNTER_BITS: u32 = 64;

    fn counter(&mut self) -> u64 {
        read_cycles()
    }

    fn emit(&mut self, _text: &str) {}
}

/// One run without peripherals, then [`pstk_verdict`] and an idle loop.
fn headless() -> ! {
    let outcome = bench::run(&mut Headless, config::EMBEDDED_PROOF);
    pstk_verdict(outcome.code());
    loop {
        core::hint::spin_loop();
    }
}

const XTAL_HZ: u32 = 12_000_000;
const SYS_HZ: u32 = 150_000_000;
/// A line the host has not taken within this long (µs) is dropped.
const STALL_US: u64 = 500_000;
/// The calibration window before each run (µs of TIMER0).
const CALIBRATION_US: u64 = 10_000;

type Bus = hal::usb::UsbBus;
type Timer0 = hal::Timer<hal::timer::CopyableTimer0>;

struct Rp2350 {
    usb: UsbDevice<'static, Bus>,
    serial: SerialPort<'static, Bus>,
    timer: Timer0,
    requests: RequestReader,
    /// A request arrived and has not started a run yet.
    requested: bool,
    /// `(timer µs, cycles)` at the start of the open measured window.
    window_start: Option<(u64, u64)>,
    /// Index of the next measured window in this run (as in the `iter` lines).
    window: u32,
    /// The `clock` / counter `error` line of the window just closed, written after the
    /// `iter` line the loop emits next.
    note: LineBuf,
    dropped_lines: u32,
    dropped_bytes: u64,
}

/// The board, reachable from the panic and fault handlers. Set once in `main`.
static mut BOARD: Option<Rp2350> = None;
static mut USB_BUS: MaybeUninit<UsbBusAllocator<Bus>> = MaybeUninit::uninit();

#[cfg(target_arch = "arm")]
fn read_cycles() -> u64 {
    u64::from(cortex_m::peripheral::DWT::cycle_count())
}

#[cfg(target_arch = "riscv32")]
fn read_cycles() -> u64 {
    riscv::register::mcycle::read64()
}

impl Rp2350 {
    fn now_us(&self) -> u64 {
        self.timer.get_counter().ticks()
    }

    /// Serves USB and reads the host's input for request lines.
    fn poll(&mut self) {
        let _ = self.usb.poll(&mut [&mut self.serial]);
        let mut input = [0u8; 64];
        if let Ok(n) = self.serial.read(&mut input) {
            if self.requests.push_all(&input[..n]) > 0 {
                self.requested = true;
            }
        }
    }

    fn take_request(&mut self) -> bool {
        core::mem::take(&mut self.requested)
    }

    /// Writes `text` unless no host is listening or the host stops taking it for
    /// [`STALL_US`]; what is not written is counted as dropped.
    fn write_bounded(&mut self, text: &str) {
        let mut rest = text.as_bytes();
        let mut last_progress = self.now_us();
        while !rest.is_empty() && self.serial.dtr() {
            self.poll();
            match self.serial.write(rest) {
                Ok(n) if n > 0 => {
                    rest = &rest[n..];
                    last_progress = self.now_us();
                }
                Ok(_) | Err(usb_device::UsbError::WouldBlock) => {}
                Err(_) => break,
            }
            if self.now_us().wrapping_sub(last_progress) > STALL_US {
                break;
            }
        }
        let flush_start = self.now_us();
        while rest.is_empty()
            && self.serial.dtr()
            && self.serial.flush().is_err()
            && self.now_us().wrapping_sub(flush_start) <= STALL_US
        {
            self.poll();
        }
        if !rest.is_empty() {
            self.dropped_lines += 1;
            self.dropped_bytes += rest.len() as u64;
        }
    }

    fn write_fmt_line(&mut self, f: impl FnOnce(&mut LineBuf) -> fmt::Result) {
        let mut line = LineBuf::new();
        if f(&mut line).is_ok() {
            self.write_bounded(line.as_str());
        }
    }

    /// Reports output lost since the last report.
    fn report_dropped(&mut self) {
        if self.dropped_lines > 0 {
            let (lines, bytes) = (self.dropped_lines, self.dropped_bytes);
            self.dropped_lines = 0;
            self.dropped_bytes = 0;
            self.write_fmt_line(|l| write_dropped_line(l, lines, bytes));
        }
    }

    /// Counts a fixed TIMER0 interval with the cycle counter and reports the rate.
    fn calibrate(&mut self) {
        let t0 = self.now_us();
        let c0 = read_cycles();
        let mut t1 = t0;
        while t1.wrapping_sub(t0) < CALIBRATION_US {
            t1 = self.now_us();
        }
        let c1 = read_cycles();
        let cycles = c1.wrapping_sub(c0) & counter_mask();
        let us = t1.wrapping_sub(t0);
        let check = check_counter(cycles, us, SYS_HZ.into(), Self::COUNTER_BITS);
        self.write_fmt_line(|l| {
            write_counter_line(l, Window::Calibration, cycles, us, SYS_HZ.into(), check)
        });
    }
}

fn counter_mask() -> u64 {
    match Rp2350::COUNTER_BITS {
        64.. => u64::MAX,
        bits => (1u64 << bits) - 1,
    }
}

impl Board for Rp2350 {
    #[cfg(target_arch = "arm")]
    const CORE: &'static str = "m33";
    #[cfg(target_arch = "riscv32")]
    const CORE: &'static str = "rv32";
    const BOARD: &'static str = "rp2350";
    const COUNTER: &'static str = "cycles";
    const CLOCK_HZ: u32 = SYS_HZ;
    #[cfg(target_arch = "arm")]
    const COUNTER_BITS: u32 = 32;
    #[cfg(target_arch = "riscv32")]
    const COUNTER_BITS: u32 = 64;

    /// Called just before and just after each measured call: also reads TIMER0 (outside the
    /// cycle reads, so the timer window holds the cycle window) and, at the end of a window,
    /// prepares its `clock` line.
    fn counter(&mut self) -> u64 {
        match self.window_start.take() {
            None => {
                let t = self.now_us();
                let c = read_cycles();
                self.window_start = Some((t, c));
                c
            }
            Some((t0, c0)) => {
                let c = read_cycles();
                let t = self.now_us();
                let cycles = c.wrapping_sub(c0) & counter_mask();
                let us = t.wrapping_sub(t0);
                let check = check_counter(cycles, us, SYS_HZ.into(), Self::COUNTER_BITS);
                let window = Window::Iter(self.window);
                self.window += 1;
                self.note.clear();
                if write_counter_line(&mut self.note, window, cycles, us, SYS_HZ.into(), check)
                    .is_err()
                {
                    self.note.clear();
                }
                c
            }
        }
    }

    fn emit(&mut self, text: &str) {
        self.write_bounded(text);
        if !self.note.as_str().is_empty() {
            let note = core::mem::replace(&mut self.note, LineBuf::new());
            self.write_bounded(note.as_str());
        }
    }
}

#[cfg(target_arch = "arm")]
fn start_counter() {
    if let Some(mut cp) = cortex_m::Peripherals::take() {
        cp.DCB.enable_trace();
        cp.DWT.enable_cycle_counter();
    }
}

#[cfg(target_arch = "riscv32")]
fn start_counter() {
    // mcountinhibit = 0: let mcycle count.
    // SAFETY: writes a machine-mode counter-control CSR only.
    unsafe { core::arch::asm!("csrw 0x320, zero") };
}

#[hal::entry]
fn main() -> ! {
    heap::init();
    // SAFETY: a read of a word-sized static.
    if unsafe { core::ptr::read_volatile(&raw const PSTK_HEADLESS) } != 0 {
        headless();
    }
    let mut pac = hal::pac::Peripherals::take().unwrap();
    let mut watchdog = hal::Watchdog::new(pac.WATCHDOG);
    // Also starts the 1 MHz tick generators TIMER0 counts.
    let clocks = hal::clocks::init_clocks_and_plls(
        XTAL_HZ,
        pac.XOSC,
        pac.CLOCKS,
        pac.PLL_SYS,
        pac.PLL_USB,
        &mut pac.RESETS,
        &mut watchdog,
    )
    .unwrap();
    let sys_hz = clocks.system_clock.freq().to_Hz();
    let timer = hal::Timer::new_timer0(pac.TIMER0, &mut pac.RESETS, &clocks);
    crate::hash_engine::enable(&pac.RESETS);
    start_counter();

    // SAFETY: runs once, before anything else can reach USB_BUS.
    let bus: &'static UsbBusAllocator<Bus> = unsafe {
        (*addr_of_mut!(USB_BUS)).write(UsbBusAllocator::new(hal::usb::UsbBus::new(
            pac.USB,
            pac.USB_DPRAM,
            clocks.usb_clock,
            true,
            &mut pac.RESETS,
        )))
    };
    let serial = SerialPort::new(bus);
    let usb = UsbDeviceBuilder::new(bus, UsbVidPid(0x16c0, 0x27dd))
        .strings(&[StringDescriptors::default()
            .manufacturer("picostark")
            .product("picostark verifier")
            .serial_number("PSTK1")])
        .unwrap()
        // rp235x-hal documents enumeration failures with usb-device's default of 8.
        .max_packet_size_0(64)
        .unwrap()
        .device_class(usbd_serial::USB_CLASS_CDC)
        .build();
    let board = Rp2350 {
        usb,
        serial,
        timer,
        requests: RequestReader::new(),
        requested: false,
        window_start: None,
        window: 0,
        note: LineBuf::new(),
        dropped_lines: 0,
        dropped_bytes: 0,
    };
    // SAFETY: single core, no interrupts; from here on the board is only reached through
    // this reference, or by the fault handlers, which never return.
    let board = unsafe { (*addr_of_mut!(BOARD)).insert(board) };

    loop {
        while !board.take_request() {
            board.poll();
        }
        board.report_dropped();
        if sys_hz != SYS_HZ {
            board.write_bounded("pstk1 error what=system-clock-not-150MHz\n");
        }
        board.calibrate();
        board.window = 0;
        board.window_start = None;
        let outcome = bench::run(board, config::EMBEDDED_PROOF);
        pstk_verdict(outcome.code());
        board.write_fmt_line(|l| writeln!(l, "pstk1 exit code={}", outcome.code()));
    }
}

extern "C" {
    static __flash_binary_end: u8;
}

#[cfg(target_arch = "arm")]
mod symbols {
    extern "C" {
        pub static __sidata: u8;
        pub static __sdata: u8;
        pub static __edata: u8;
        pub static __sbss: u8;
        pub static __ebss: u8;
        pub static _stack_end: u8;
    }
    pub use self::{
        __ebss as EBSS, __edata as EDATA, __sbss as SBSS, __sdata as SDATA, __sidata as SIDATA,
        _stack_end as STACK_BOTTOM,
    };
}

#[cfg(target_arch = "riscv32")]
mod symbols {
    extern "C" {
        pub static _sidata: u8;
        pub static _sdata: u8;
        pub static _edata: u8;
        pub static _sbss: u8;
        pub static _ebss: u8;
        pub static _estack: u8;
    }
    pub use self::{
        _ebss as EBSS, _edata as EDATA, _estack as STACK_BOTTOM, _sbss as SBSS, _sdata as SDATA,
        _sidata as SIDATA,
    };
}

fn addr(s: &u8) -> usize {
    s as *const u8 as usize
}

/// Flash image bytes before `.data`'s load image.
pub fn text_bytes() -> usize {
    let _ = &raw const __flash_binary_end;
    // SAFETY: linker symbols, only their addresses are used.
    unsafe { addr(&symbols::SIDATA) - 0x1000_0000 }
}

pub fn data_bytes() -> usize {
    // SAFETY: linker symbols, only their addresses are used.
    unsafe { addr(&symbols::EDATA) - addr(&symbols::SDATA) }
}

pub fn bss_bytes() -> usize {
    // SAFETY: linker symbols, only their addresses are used.
    unsafe { addr(&symbols::EBSS) - addr(&symbols::SBSS) }
}

/// Lowest address of the stack.
pub fn stack_bottom() -> usize {
    // SAFETY: linker symbol, only its address is used.
    unsafe { addr(&symbols::STACK_BOTTOM) }
}

/// A panic: the `oom` line for an allocation failure, else the `panic` line.
pub fn on_panic(info: &core::panic::PanicInfo<'_>) -> ! {
    if let Some(oom) = heap::out_of_memory(info) {
        fatal(|l| oom.write_line(l))
    }
    fatal(|l| write_panic_line(l, format_args!("{}", info.message())))
}

/// A fatal line: the message is cut to fit (on one line).
type FatalLine = FixedLine<256>;

static IN_FATAL: AtomicBool = AtomicBool::new(false);

/// Writes the line, then serves USB forever, repeating the line on each new request.
fn fatal(write: impl FnOnce(&mut FatalLine) -> fmt::Result) -> ! {
    // A fault inside this path (e.g. in the USB stack) must not recurse.
    if IN_FATAL.swap(true, Ordering::Relaxed) {
        loop {
            core::hint::spin_loop();
        }
    }
    let mut line = FatalLine::new();
    let _ = write(&mut line);
    // SAFETY: the run that held the board never resumes; single core, no interrupts.
    let Some(board) = (unsafe { (*addr_of_mut!(BOARD)).as_mut() }) else {
        // Before USB is up there is no one to tell.
        loop {
            core::hint::spin_loop();
        }
    };
    let text = line.as_line();
    board.note.clear();
    board.write_bounded(text);
    loop {
        board.poll();
        if board.take_request() {
            board.report_dropped();
            board.write_bounded(text);
        }
    }
}

/// Cortex-M33: every fault escalates to HardFault (MemManage, BusFault, UsageFault and
/// SecureFault are not enabled separately).
#[cfg(target_arch = "arm")]
#[cortex_m_rt::exception]
unsafe fn HardFault(frame: &cortex_m_rt::ExceptionFrame) -> ! {
    // SAFETY: reads of the System Control Block's fault status and address registers.
    let scb = unsafe { &*cortex_m::peripheral::SCB::PTR };
    let (cfsr, hfsr, mmfar, bfar) = (
        scb.cfsr.read(),
        scb.hfsr.read(),
        scb.mmfar.read(),
        scb.bfar.read(),
    );
    fatal(|l| {
        write_fault_line(
            l,
            "hardfault",
            &[
                ("pc", frame.pc()),
                ("lr", frame.lr()),
                ("xpsr", frame.xpsr()),
                ("cfsr", cfsr),
                ("hfsr", hfsr),
                ("mmfar", mmfar),
                ("bfar", bfar),
            ],
        )
    })
}

/// Hazard3: every exception (illegal instruction, misaligned or faulting access, ecall,
/// breakpoint) lands here; riscv-rt's trap entry saved the caller-saved registers.
#[cfg(target_arch = "riscv32")]
#[export_name = "ExceptionHandler"]
fn exception_handler(frame: &riscv_rt::TrapFrame) -> ! {
    let mcause = riscv::register::mcause::read().bits() as u32;
    let mepc = riscv::register::mepc::read() as u32;
    let mtval = riscv::register::mtval::read() as u32;
    fatal(|l| {
        write_fault_line(
            l,
            "exception",
            &[
                ("mcause", mcause),
                ("mepc", mepc),
                ("mtval", mtval),
                ("ra", frame.ra as u32),
            ],
        )
    })
}

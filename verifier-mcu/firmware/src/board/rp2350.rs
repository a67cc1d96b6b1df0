//! RP2350 board layer, both cores (rp235x-hal 0.4): 150 MHz system clock from the 12 MHz
//! crystal, DWT CYCCNT (Cortex-M33) or `mcycle` (Hazard3) as the cycle counter, results over
//! USB CDC serial once the host opens the port. The proof is embedded at build time
//! (`PSTK_PROOF`).
//!
//! Flash: convert the ELF with `mcu-run uf2 ELF OUT.uf2 --family rp2350-arm|rp2350-riscv`,
//! hold BOOTSEL while plugging the board in and copy the UF2 to the `RP2350` drive (or
//! `picotool load -x OUT.uf2` where picotool is installed). Then read the lines with any
//! serial terminal, e.g. `cat /dev/ttyACM0`.

use rp235x_hal as hal;

use hal::clocks::Clock;
use usb_device::class_prelude::UsbBusAllocator;
use usb_device::prelude::{StringDescriptors, UsbDevice, UsbDeviceBuilder, UsbVidPid};
use usbd_serial::SerialPort;

use crate::bench::{self, Board};
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

const XTAL_HZ: u32 = 12_000_000;
const SYS_HZ: u32 = 150_000_000;

struct Rp2350<'a> {
    usb: UsbDevice<'a, hal::usb::UsbBus>,
    serial: SerialPort<'a, hal::usb::UsbBus>,
}

impl Rp2350<'_> {
    fn poll(&mut self) {
        let _ = self.usb.poll(&mut [&mut self.serial]);
        // Discard anything the host sends.
        let mut sink = [0u8; 32];
        let _ = self.serial.read(&mut sink);
    }
}

impl Board for Rp2350<'_> {
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

    #[cfg(target_arch = "arm")]
    fn counter(&mut self) -> u64 {
        u64::from(cortex_m::peripheral::DWT::cycle_count())
    }

    #[cfg(target_arch = "riscv32")]
    fn counter(&mut self) -> u64 {
        riscv::register::mcycle::read64()
    }

    fn emit(&mut self, text: &str) {
        let mut rest = text.as_bytes();
        while !rest.is_empty() {
            self.poll();
            match self.serial.write(rest) {
                Ok(n) => rest = &rest[n..],
                Err(usb_device::UsbError::WouldBlock) => {}
                Err(_) => return,
            }
        }
        while self.serial.flush().is_err() {
            self.poll();
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
    let mut pac = hal::pac::Peripherals::take().unwrap();
    let mut watchdog = hal::Watchdog::new(pac.WATCHDOG);
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
    start_counter();

    let bus = UsbBusAllocator::new(hal::usb::UsbBus::new(
        pac.USB,
        pac.USB_DPRAM,
        clocks.usb_clock,
        true,
        &mut pac.RESETS,
    ));
    let serial = SerialPort::new(&bus);
    let usb = UsbDeviceBuilder::new(&bus, UsbVidPid(0x16c0, 0x27dd))
        .strings(&[StringDescriptors::default()
            .manufacturer("picostark")
            .product("picostark verifier")
            .serial_number("PSTK1")])
        .unwrap()
        .device_class(usbd_serial::USB_CLASS_CDC)
        .build();
    let mut board = Rp2350 { usb, serial };

    // Wait for the host to open the port, so no line is lost.
    while !board.serial.dtr() {
        board.poll();
    }
    if sys_hz != SYS_HZ {
        board.emit("pstk1 error what=system-clock-not-150MHz\n");
    }
    let _ = config::ITERATIONS;
    let outcome = bench::run(&mut board, config::EMBEDDED_PROOF);
    let mut line = bench::LineBuf::new();
    let _ = core::fmt::write(
        &mut line,
        format_args!("pstk1 exit code={}\n", outcome.code()),
    );
    board.emit(line.as_str());
    loop {
        board.poll();
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

pub fn on_panic(_info: &core::panic::PanicInfo<'_>) -> ! {
    loop {
        core::hint::spin_loop();
    }
}

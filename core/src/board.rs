//! The board protocol: what a host and the firmware on a real board (RP2350 over USB serial)
//! say to each other beyond the measurement lines of [`record`](crate::record), and the
//! arithmetic that checks the cycle counter against the chip's 1 MHz timer.
//!
//! Portable and allocation-free so that the firmware and the host (`mcu-run capture`) share
//! it and the host tests cover it.
//!
//! # Handshake
//!
//! The firmware does nothing until the host sends the request line [`REQUEST`] (`pstk1 start`,
//! ended by `\n` or `\r`); opening the port (DTR) alone does not start a run, so a tool that
//! opens the port first and reads later loses nothing. Each request starts one run; other
//! input lines are ignored ([`RequestReader`]).
//!
//! # Board lines
//!
//! ```text
//! pstk1 clock window=calibration cycles=1500017 timer_us=10000 measured_hz=150001700
//! pstk1 clock window=iter i=0 cycles=11200461 timer_us=74669 measured_hz=150001486
//! pstk1 error what=cycle-counter-not-counting window=iter i=0 cycles=0 timer_us=74669
//! pstk1 error what=cycle-counter-wrapped window=iter i=0 cycles=12 timer_us=30000000
//! pstk1 error what=cycle-counter-rate window=iter i=0 cycles=7 timer_us=74669 measured_hz=93 nominal_hz=150000000
//! pstk1 dropped lines=3 bytes=212
//! pstk1 panic message=<text, last on the line>
//! pstk1 fault kind=hardfault pc=0x10001234 lr=0x10000f01 ...
//! ```
//!
//! `clock` lines give the clock the cycle counter ran at, measured against the 1 MHz timer
//! over a window; an `error what=cycle-counter-*` line replaces it when the counter cannot be
//! trusted for that window ([`check_counter`]). `dropped` reports output lost while no host
//! was reading (the firmware never blocks on a closed port). `panic` and `fault` end the
//! firmware: it keeps serving USB and repeats the line on each new request.

use core::fmt::{self, Write};

use crate::record::LINE_PREFIX;

/// The request line the host sends to start one run (without its line end).
pub const REQUEST: &str = "pstk1 start";

/// Longest input line the firmware keeps; longer lines are discarded whole.
const REQUEST_BUF: usize = 32;

/// Reads the host's input byte by byte and recognises complete [`REQUEST`] lines.
///
/// Bounded: a line longer than the buffer is discarded up to its end, so noise cannot make a
/// request out of its tail.
#[derive(Clone, Debug)]
pub struct RequestReader {
    buf: [u8; REQUEST_BUF],
    len: usize,
    overflow: bool,
}

impl Default for RequestReader {
    fn default() -> Self {
        Self::new()
    }
}

impl RequestReader {
    pub const fn new() -> Self {
        RequestReader {
            buf: [0; REQUEST_BUF],
            len: 0,
            overflow: false,
        }
    }

    /// Feeds one byte; true when it completes a request line.
    pub fn push(&mut self, byte: u8) -> bool {
        if byte == b'\n' || byte == b'\r' {
            let line = &self.buf[..self.len];
            let is_request = !self.overflow && trim_ascii(line) == REQUEST.as_bytes();
            self.len = 0;
            self.overflow = false;
            return is_request;
        }
        if self.len == self.buf.len() {
            self.overflow = true;
        } else {
            self.buf[self.len] = byte;
            self.len += 1;
        }
        false
    }

    /// Feeds bytes; the number of request lines they complete.
    pub fn push_all(&mut self, bytes: &[u8]) -> usize {
        bytes.iter().filter(|&&b| self.push(b)).count()
    }
}

fn trim_ascii(mut s: &[u8]) -> &[u8] {
    while let [b' ' | b'\t', rest @ ..] = s {
        s = rest;
    }
    while let [rest @ .., b' ' | b'\t'] = s {
        s = rest;
    }
    s
}

/// Writes the request line (host side).
pub fn write_request_line<W: Write>(w: &mut W) -> fmt::Result {
    writeln!(w, "{REQUEST}")
}

/// What the cycle counter did over one window timed by the 1 MHz timer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CounterCheck {
    /// The counter ran at `measured_hz`, within [`RATE_TOLERANCE_PPM`] (plus the timer's
    /// resolution) of the nominal clock.
    Counting { measured_hz: u64 },
    /// The counter did not move while the timer did (e.g. DWT CYCCNT disabled because debug
    /// is disabled in OTP, or `mcountinhibit` set).
    NotCounting,
    /// The window is at least one counter period long at the nominal clock: the count is
    /// modulo `2^bits` and says nothing.
    Wrapped,
    /// The counter moved at a rate far from the nominal clock.
    Rate { measured_hz: u64 },
    /// The timer did not advance (window under 1 µs, or the timer is stopped): no check.
    NoTime,
}

/// Allowed deviation of the measured counter rate from the nominal clock, in parts per
/// million, on top of the timer's ±2 µs quantisation. The crystal is specified to tens of ppm;
/// 1 % is far above that and far below any real misconfiguration (a wrong PLL setting is off by
/// whole multiples).
pub const RATE_TOLERANCE_PPM: u64 = 10_000;

/// Checks `cycles` counted by a `counter_bits`-wide counter against `timer_us` microseconds of
/// the 1 MHz timer over the same window, for a nominal clock of `nominal_hz`.
pub fn check_counter(
    cycles: u64,
    timer_us: u64,
    nominal_hz: u64,
    counter_bits: u32,
) -> CounterCheck {
    if timer_us == 0 {
        return CounterCheck::NoTime;
    }
    // Cycles the nominal clock gives over the longest window the timer reading allows (each
    // timer read is quantised to 1 µs, so the real window is within ±1 µs of each end).
    let expected_max = (timer_us + 2).saturating_mul(nominal_hz) / 1_000_000;
    if counter_bits < 64 && expected_max >> counter_bits != 0 {
        return CounterCheck::Wrapped;
    }
    if cycles == 0 {
        return CounterCheck::NotCounting;
    }
    let measured_hz = measured_hz(cycles, timer_us);
    let expected_min = timer_us.saturating_sub(2).saturating_mul(nominal_hz) / 1_000_000;
    let slack = nominal_hz.saturating_mul(timer_us) / 1_000_000 * RATE_TOLERANCE_PPM / 1_000_000;
    let low = expected_min.saturating_sub(slack);
    let high = expected_max.saturating_add(slack);
    if (low..=high).contains(&cycles) {
        CounterCheck::Counting { measured_hz }
    } else {
        CounterCheck::Rate { measured_hz }
    }
}

/// `cycles` per `timer_us` microseconds, in Hz (rounded down; 0 when no time passed).
pub fn measured_hz(cycles: u64, timer_us: u64) -> u64 {
    if timer_us == 0 {
        return 0;
    }
    ((cycles as u128 * 1_000_000) / timer_us as u128).min(u64::MAX as u128) as u64
}

/// Which measurement window a `clock` line is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Window {
    /// A fixed busy-wait before the run, timed by the timer.
    Calibration,
    /// The measured call with this index (as in the `iter` line it follows).
    Iter(u32),
}

impl fmt::Display for Window {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Window::Calibration => f.write_str("window=calibration"),
            Window::Iter(i) => write!(f, "window=iter i={i}"),
        }
    }
}

/// Writes the `clock` line for a window, or the `error` line when [`check_counter`] says the
/// counter cannot be trusted there. Nothing for [`CounterCheck::NoTime`].
pub fn write_counter_line<W: Write>(
    w: &mut W,
    window: Window,
    cycles: u64,
    timer_us: u64,
    nominal_hz: u64,
    check: CounterCheck,
) -> fmt::Result {
    let p = LINE_PREFIX;
    match check {
        CounterCheck::Counting { measured_hz } => writeln!(
            w,
            "{p} clock {window} cycles={cycles} timer_us={timer_us} measured_hz={measured_hz}"
        ),
        CounterCheck::NotCounting => writeln!(
            w,
            "{p} error what=cycle-counter-not-counting {window} cycles={cycles} timer_us={timer_us}"
        ),
        CounterCheck::Wrapped => writeln!(
            w,
            "{p} error what=cycle-counter-wrapped {window} cycles={cycles} timer_us={timer_us}"
        ),
        CounterCheck::Rate { measured_hz } => writeln!(
            w,
            "{p} error what=cycle-counter-rate {window} cycles={cycles} timer_us={timer_us} \
             measured_hz={measured_hz} nominal_hz={nominal_hz}"
        ),
        CounterCheck::NoTime => Ok(()),
    }
}

/// Writes the `dropped` line: output lost while no host was reading.
pub fn write_dropped_line<W: Write>(w: &mut W, lines: u32, bytes: u64) -> fmt::Result {
    writeln!(w, "{LINE_PREFIX} dropped lines={lines} bytes={bytes}")
}

/// Writes the `panic` line; the message is last and kept on one line (line breaks and other
/// control characters become spaces).
pub fn write_panic_line<W: Write>(w: &mut W, message: fmt::Arguments<'_>) -> fmt::Result {
    write!(w, "{LINE_PREFIX} panic message=")?;
    OneLine(&mut *w).write_fmt(message)?;
    w.write_char('\n')
}

/// Writes a `fault` line: the fault's kind and its registers in hex.
pub fn write_fault_line<W: Write>(w: &mut W, kind: &str, registers: &[(&str, u32)]) -> fmt::Result {
    write!(w, "{LINE_PREFIX} fault kind={kind}")?;
    for (name, value) in registers {
        write!(w, " {name}={value:#010x}")?;
    }
    w.write_char('\n')
}

/// A fixed-capacity line for the fault paths (no heap, bounded stack): keeps what fits, cut
/// at a character boundary, and always ends in exactly one line break.
pub struct FixedLine<const N: usize> {
    buf: [u8; N],
    len: usize,
}

impl<const N: usize> Default for FixedLine<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> FixedLine<N> {
    pub const fn new() -> Self {
        assert!(N > 0, "a line needs room for its line break");
        FixedLine {
            buf: [0; N],
            len: 0,
        }
    }

    /// The text written so far, ended by a line break (added if missing).
    pub fn as_line(&mut self) -> &str {
        if self.buf[..self.len].last() != Some(&b'\n') {
            self.buf[self.len] = b'\n';
            self.len += 1;
        }
        core::str::from_utf8(&self.buf[..self.len]).unwrap_or("\n")
    }
}

impl<const N: usize> Write for FixedLine<N> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        for c in s.chars() {
            let mut utf8 = [0u8; 4];
            let bytes = c.encode_utf8(&mut utf8).as_bytes();
            // One byte stays free for the line break.
            if self.len + bytes.len() >= N {
                break;
            }
            self.buf[self.len..self.len + bytes.len()].copy_from_slice(bytes);
            self.len += bytes.len();
        }
        Ok(())
    }
}

/// Replaces control characters on their way to `W`.
struct OneLine<W>(W);

impl<W: Write> Write for OneLine<W> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        for c in s.chars() {
            self.0.write_char(if c.is_control() { ' ' } else { c })?;
        }
        Ok(())
    }
}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use super::*;
    use crate::record::parse_line;
    use alloc::string::String;

    const MHZ150: u64 = 150_000_000;

    #[test]
    fn request_lines_are_recognised_across_chunks_and_line_ends() {
        let mut r = RequestReader::new();
        assert_eq!(r.push_all(b"pstk1 st"), 0);
        assert_eq!(r.push_all(b"art\r\n"), 1);
        assert_eq!(r.push_all(b"  pstk1 start \npstk1 start\r"), 2);
        assert_eq!(r.push_all(b"\n\n\r"), 0);
    }

    #[test]
    fn other_input_is_not_a_request() {
        let mut r = RequestReader::new();
        for noise in [
            &b"pstk1 star\n"[..],
            b"pstk1 startx\n",
            b"xpstk1 start\n",
            b"PSTK1 START\n",
            b"pstk1  start\n",
        ] {
            assert_eq!(r.push_all(noise), 0, "{:?}", core::str::from_utf8(noise));
        }
        // A long line whose tail is the request is discarded whole, and the reader recovers.
        let mut long = [b'x'; 100];
        long[100 - REQUEST.len()..].copy_from_slice(REQUEST.as_bytes());
        assert_eq!(r.push_all(&long), 0);
        assert_eq!(r.push_all(b"\n"), 0);
        assert_eq!(r.push_all(b"pstk1 start\n"), 1);
    }

    #[test]
    fn request_line_round_trips() {
        let mut s = String::new();
        write_request_line(&mut s).unwrap();
        assert_eq!(RequestReader::new().push_all(s.as_bytes()), 1);
    }

    #[test]
    fn counter_check_accepts_the_nominal_rate_and_reports_it() {
        // 11,200,461 cycles at 150 MHz last 74,669.74 µs.
        assert_eq!(
            check_counter(11_200_461, 74_670, MHZ150, 32),
            CounterCheck::Counting {
                measured_hz: 149_999_477
            }
        );
        // Timer quantisation on a short window: 1,500 cycles over 9..11 µs readings.
        assert!(matches!(
            check_counter(1_500, 9, MHZ150, 32),
            CounterCheck::Counting { .. }
        ));
        assert!(matches!(
            check_counter(1_500, 11, MHZ150, 32),
            CounterCheck::Counting { .. }
        ));
        // 64-bit counters do not wrap in practice.
        assert!(matches!(
            check_counter(150_000_000 * 60, 60_000_000, MHZ150, 64),
            CounterCheck::Counting { .. }
        ));
    }

    #[test]
    fn counter_check_rejects_stopped_wrapped_and_wrong_rate_counters() {
        assert_eq!(
            check_counter(0, 74_670, MHZ150, 32),
            CounterCheck::NotCounting
        );
        // 2^32 cycles at 150 MHz is 28.63 s: a 30 s window wrapped, whatever the count says.
        assert_eq!(
            check_counter(12, 30_000_000, MHZ150, 32),
            CounterCheck::Wrapped
        );
        // 4.8 % slow, just inside one period: a rate error, not a wrap.
        assert_eq!(
            check_counter(4_000_000_000, 28_000_000, MHZ150, 32),
            CounterCheck::Rate {
                measured_hz: 142_857_142
            }
        );
        // Just below one period at the nominal rate: still checkable.
        assert!(matches!(
            check_counter(4_290_000_000, 28_600_000, MHZ150, 32),
            CounterCheck::Counting { .. }
        ));
        // A counter at the 12 MHz crystal instead of the 150 MHz PLL.
        assert_eq!(
            check_counter(896_040, 74_670, MHZ150, 32),
            CounterCheck::Rate {
                measured_hz: 12_000_000
            }
        );
        // 1.5 % fast is outside the tolerance, 0.5 % is inside.
        assert!(matches!(
            check_counter(152_250_000, 1_000_000, MHZ150, 32),
            CounterCheck::Rate { .. }
        ));
        assert!(matches!(
            check_counter(150_750_000, 1_000_000, MHZ150, 32),
            CounterCheck::Counting { .. }
        ));
        assert_eq!(check_counter(5, 0, MHZ150, 32), CounterCheck::NoTime);
    }

    #[test]
    fn board_lines_parse_with_the_record_parser() {
        let mut s = String::new();
        let check = check_counter(11_200_461, 74_670, MHZ150, 32);
        write_counter_line(&mut s, Window::Iter(2), 11_200_461, 74_670, MHZ150, check).unwrap();
        let l = parse_line(&s).unwrap();
        assert_eq!(l.kind, "clock");
        assert_eq!(l.get("window"), Some("iter"));
        assert_eq!(l.get_u64("i"), Some(2));
        assert_eq!(l.get_u64("measured_hz"), Some(149_999_477));

        s.clear();
        write_counter_line(
            &mut s,
            Window::Calibration,
            0,
            10_000,
            MHZ150,
            CounterCheck::NotCounting,
        )
        .unwrap();
        let l = parse_line(&s).unwrap();
        assert_eq!(l.kind, "error");
        assert_eq!(l.get("what"), Some("cycle-counter-not-counting"));
        assert_eq!(l.get("window"), Some("calibration"));

        s.clear();
        write_counter_line(&mut s, Window::Iter(0), 1, 0, MHZ150, CounterCheck::NoTime).unwrap();
        assert!(s.is_empty());

        s.clear();
        write_dropped_line(&mut s, 3, 212).unwrap();
        let l = parse_line(&s).unwrap();
        assert_eq!(
            (l.kind.as_str(), l.get_u64("bytes")),
            ("dropped", Some(212))
        );
    }

    #[test]
    fn fixed_lines_are_cut_at_a_character_and_end_in_one_break() {
        let mut l = FixedLine::<8>::new();
        write!(l, "abcdé€xyz").unwrap();
        // 7 bytes of room: "abcdé" is 6, "€" (3 bytes) does not fit and nothing after it.
        assert_eq!(l.as_line(), "abcdé\n");
        assert_eq!(l.as_line(), "abcdé\n");
        let mut l = FixedLine::<64>::new();
        write_panic_line(&mut l, format_args!("x")).unwrap();
        assert_eq!(l.as_line(), "pstk1 panic message=x\n");
        let mut l = FixedLine::<1>::new();
        write!(l, "abc").unwrap();
        assert_eq!(l.as_line(), "\n");
        let mut l = FixedLine::<24>::new();
        write_panic_line(&mut l, format_args!("{}", "long message")).unwrap();
        assert_eq!(l.as_line(), "pstk1 panic message=lon\n");
    }

    #[test]
    fn panic_and_fault_lines_stay_on_one_line() {
        let mut s = String::new();
        write_panic_line(&mut s, format_args!("bad\nthing {}\r\tat x", 7)).unwrap();
        assert_eq!(s, "pstk1 panic message=bad thing 7  at x\n");
        s.clear();
        write_fault_line(&mut s, "hardfault", &[("pc", 0x1000_1234), ("cfsr", 0x100)]).unwrap();
        assert_eq!(
            s,
            "pstk1 fault kind=hardfault pc=0x10001234 cfsr=0x00000100\n"
        );
        assert_eq!(parse_line(&s).unwrap().get("pc"), Some("0x10001234"));
    }
}

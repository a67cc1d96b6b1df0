//! `mcu-run capture`: a real board's runs from its USB serial port (`capture.rs`).

use std::path::PathBuf;

use crate::capture;

/// Record a real board's runs from its USB serial port.
///
/// Sends the firmware's request line (`picostark_core::board`), saves the `pstk1` lines to
/// `--out` until `--runs` `done` lines, and fails on a `panic`, `oom` or `fault` line, a run
/// that ended without its `done`, or `--timeout` seconds, keeping the partial log.
/// `compare report --in` reads the log.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The board's serial device (e.g. /dev/ttyACM0).
    #[arg(long, value_name = "DEV")]
    pub port: String,
    /// The log to write [default: device-TIME.log].
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// The port's baud rate.
    #[arg(long, value_name = "N", default_value_t = 115_200)]
    pub baud: u32,
    /// Seconds before the capture gives up.
    #[arg(long, value_name = "S", default_value_t = 600)]
    pub timeout: u64,
    /// The `done` lines to wait for.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub runs: u64,
}

pub fn run(args: Args) -> Result<(), String> {
    capture::run(&capture::Capture {
        port: args.port,
        out: args.out,
        baud: args.baud,
        timeout: args.timeout,
        runs: usize::try_from(args.runs).unwrap_or(usize::MAX),
    })
}

//! `compare`: the cross-protocol report of picostark.
//!
//! ```text
//! compare all [--out results] [--log-n 10,16] [--device-log FILE]...   prove, emulate, report
//! compare report --in PATH... --out DIR                               report from records/logs
//! compare ingest-log FILE [--out FILE.json]                            device log -> RunRecords
//! compare capture --port /dev/ttyACM0 [--out FILE] [--timeout S]       record a board's run
//! ```
//!
//! Inputs are run records (JSON, one object or an array) from `prover-host bench` (host) and
//! `mcu-run` (emulator), and logs in the firmware's `pstk1` line format from a board
//! (device). `input` and `device` read them, `table` makes the rows, `report` the sections
//! (`sections/`, one module each) and the files.

mod all;
mod baseline;
mod capture;
mod chart;
mod device;
mod doc;
mod input;
mod report;
mod sections;
mod stats;
mod table;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use picostark_core::Policy;

#[derive(Parser)]
#[command(name = "compare", about = "picostark cross-protocol report")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Prove Fib for every backend, run the emulated verifier on both cores, write the report.
    All(all::AllArgs),
    /// Write report.md, report.html, table.csv and table.json from records and logs.
    Report {
        /// Record files (JSON), device logs, or folders of them (read recursively).
        #[arg(long = "in", required = true, num_args = 1..)]
        inputs: Vec<PathBuf>,
        /// Output folder.
        #[arg(long)]
        out: PathBuf,
        /// Rows below this conjectured security are shown but never ranked.
        #[arg(long, default_value_t = Policy::DEFAULT_MIN_SECURITY_BITS)]
        min_security: u32,
    },
    /// Turn a device log (firmware line format) into run records (JSON array).
    IngestLog {
        file: PathBuf,
        /// Write the JSON here instead of standard output.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Record a device run from a serial port until the firmware's `done` line.
    Capture(capture::CaptureArgs),
}

fn main() -> ExitCode {
    let invocation = std::env::args().skip(1).collect::<Vec<_>>().join(" ");
    let result = match Cli::parse().command {
        Command::All(a) => all::run(&a, &invocation),
        Command::Report {
            inputs,
            out,
            min_security,
        } => report::run(&inputs, &out, min_security, &invocation, &[]).map(|_| ()),
        Command::IngestLog { file, out } => ingest(&file, out),
        Command::Capture(a) => capture::run(&a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("compare: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `compare ingest-log`: the complete runs of a device log as a JSON array of run records
/// (each run summarised on stderr, an incomplete one said and skipped).
fn ingest(file: &std::path::Path, out: Option<PathBuf>) -> Result<(), String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let mut records = Vec::new();
    for (i, run) in device::parse_device_log(&text).into_iter().enumerate() {
        let Ok(r) = run.map_err(|e| eprintln!("run {}: skipped: {e}", i + 1)) else {
            continue;
        };
        let c = &r.record;
        let cycles: Vec<f64> = c.cycles.iter().map(|&v| v as f64).collect();
        let median = stats::median(&cycles).map_or("-".into(), |m| format!("{m:.0}"));
        let (b, n, core, board) = (&c.backend, c.n, &c.core, &c.board);
        let tampered = r.tampered.as_deref().unwrap_or("-");
        eprintln!("run {}: {b} {} ext={} n={n} core={core} board={board} source={} iterations={} median cycles={median} tampered={tampered}", i + 1, c.field, c.extension, c.source, c.iterations);
        records.push(r.record);
    }
    if records.is_empty() {
        return Err(format!("{}: no complete pstk1 run", file.display()));
    }
    let json = serde_json::to_string_pretty(&records).map_err(|e| e.to_string())? + "\n";
    match out {
        Some(p) => std::fs::write(&p, json).map_err(|e| format!("{}: {e}", p.display())),
        None => {
            print!("{json}");
            Ok(())
        }
    }
}

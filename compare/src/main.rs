//! `compare`: the cross-protocol report of picostark.
//!
//! ```text
//! compare all [--out results] [--log-n 10,16] [--device-log FILE]...   prove, emulate, report
//! compare report --in PATH... --out DIR [--proofs DIR]                 report from records/logs
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
mod params;
mod report;
mod sections;
mod stats;
mod table;

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

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
        /// Folder of proof files: adds a parameters table and re-checks each row's security.
        #[arg(long)]
        proofs: Option<PathBuf>,
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
    Capture {
        /// Serial device, e.g. /dev/ttyACM0.
        #[arg(long)]
        port: String,
        /// Save the log here (default: device-TIME.log in the current folder).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Baud rate (ignored by USB CDC devices).
        #[arg(long, default_value_t = 115_200)]
        baud: u32,
        /// Give up after this many seconds.
        #[arg(long, default_value_t = 600)]
        timeout: u64,
        /// Stop after this many `done` lines.
        #[arg(long, default_value_t = 1)]
        runs: usize,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let invocation = std::env::args().skip(1).collect::<Vec<_>>().join(" ");
    let result = match cli.command {
        Command::All(a) => all::run(&a, &invocation),
        Command::Report {
            inputs,
            out,
            proofs,
            min_security,
        } => report::run(
            &inputs,
            &out,
            proofs.as_deref(),
            min_security,
            &invocation,
            &[],
        )
        .map(|_| ()),
        Command::IngestLog { file, out } => ingest_cmd(&file, out.as_deref()),
        Command::Capture {
            port,
            out,
            baud,
            timeout,
            runs,
        } => capture_cmd(&port, out, baud, timeout, runs),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("compare: {e}");
            ExitCode::FAILURE
        }
    }
}

fn ingest_cmd(file: &std::path::Path, out: Option<&std::path::Path>) -> Result<(), String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let mut records = Vec::new();
    for (i, run) in device::parse_device_log(&text).into_iter().enumerate() {
        match run {
            Ok(r) => {
                let c = &r.record;
                let cycles: Vec<f64> = c.cycles.iter().map(|&v| v as f64).collect();
                let median = stats::median(&cycles).map_or("-".into(), |m| format!("{m:.0}"));
                let (b, f, e, n, core, board) =
                    (&c.backend, &c.field, c.extension, c.n, &c.core, &c.board);
                let (src, it, t) = (
                    &c.source,
                    c.iterations,
                    r.tampered.as_deref().unwrap_or("-"),
                );
                eprintln!("run {}: {b} {f} ext={e} n={n} core={core} board={board} source={src} iterations={it} median cycles={median} tampered={t}", i + 1);
                records.push(r.record);
            }
            Err(e) => eprintln!("run {}: skipped: {e}", i + 1),
        }
    }
    if records.is_empty() {
        return Err(format!("{}: no complete pstk1 run", file.display()));
    }
    let json = serde_json::to_string_pretty(&records).map_err(|e| e.to_string())? + "\n";
    match out {
        Some(p) => std::fs::write(p, json).map_err(|e| format!("{}: {e}", p.display())),
        None => {
            print!("{json}");
            Ok(())
        }
    }
}

fn capture_cmd(
    port: &str,
    out: Option<PathBuf>,
    baud: u32,
    timeout: u64,
    runs: usize,
) -> Result<(), String> {
    let out = out.unwrap_or_else(|| {
        let t = report::utc_now()
            .replace([' ', ':'], "-")
            .replace("-UTC", "");
        PathBuf::from(format!("device-{t}.log"))
    });
    let mut file = std::fs::File::create(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let (text, stop) = capture::capture_port(
        port,
        baud,
        &mut file,
        runs.max(1),
        Duration::from_secs(timeout),
    )?;
    let complete = device::parse_device_log(&text)
        .iter()
        .filter(|r| r.is_ok())
        .count();
    eprintln!(
        "capture: {} ({complete} complete run(s)) -> {}",
        match &stop {
            capture::Stop::Done => "done".to_string(),
            capture::Stop::FirmwareError(l) => format!("firmware error: {l}"),
            capture::Stop::Timeout => format!("timed out after {timeout} s"),
            capture::Stop::Closed => "port closed".to_string(),
        },
        out.display()
    );
    if stop == capture::Stop::Done {
        Ok(())
    } else {
        Err("capture incomplete (the partial log was kept)".into())
    }
}

//! `compare`: the cross-protocol report of picostark.
//!
//! ```text
//! compare all [--out results] [--log-n 10,16] [--device-log FILE]...   prove, emulate, report
//! compare report [--results DIR] [--in PATH...] --out DIR            report from records/logs
//! ```
//!
//! A board's log is recorded by `mcu-run capture` (verifier-mcu/runner).
//!
//! Inputs are run records (JSON, one object or an array) from `prover-host bench` (host) and
//! `mcu-run` (emulator), and logs in the firmware's `pstk1` line format from a board
//! (device). `input` and `device` read them, `table` makes the rows, `report` the sections
//! (`sections/`, one module each) and the files.

mod all;
mod baseline;
mod chart;
mod device;
mod doc;
mod input;
mod membership;
mod report;
mod sections;
mod stats;
mod table;
mod zkmcu;

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
        #[arg(long = "in", num_args = 1.., required_unless_present = "results")]
        inputs: Vec<PathBuf>,
        /// A results folder: read its `raw/` and every track folder the main job reads
        /// (`report::TRACKS`) that it holds, besides any `--in`.
        #[arg(long)]
        results: Option<PathBuf>,
        /// Output folder.
        #[arg(long)]
        out: PathBuf,
        /// Rows below this conjectured security are shown but never ranked.
        #[arg(long, default_value_t = Policy::DEFAULT_MIN_SECURITY_BITS)]
        min_security: u32,
    },
    /// Re-render the tables of results/membership/README.md from its records (and the zkmcu
    /// figures); with --check, fail instead when one differs.
    MembershipReadme {
        /// The folder of the README and its record folders.
        #[arg(long, default_value = "results/membership")]
        dir: PathBuf,
        #[arg(long)]
        check: bool,
    },
}

fn main() -> ExitCode {
    let invocation = std::env::args().skip(1).collect::<Vec<_>>().join(" ");
    let result = match Cli::parse().command {
        Command::All(a) => all::run(&a, &invocation),
        Command::Report {
            mut inputs,
            results,
            out,
            min_security,
        } => {
            if let Some(r) = results {
                inputs.extend(report::track_dirs(&r));
            }
            report::run(&inputs, &out, min_security, &invocation, &[]).map(|_| ())
        }
        Command::MembershipReadme { dir, check } => membership::run(&dir, check),
    };
    let Err(e) = result else {
        return ExitCode::SUCCESS;
    };
    eprintln!("compare: {e}");
    ExitCode::FAILURE
}

//! `mcu-run`: the host side of the picostark firmware. `mcu-run --help` lists the
//! subcommands, `mcu-run SUBCOMMAND --help` explains one; each lives in its own module under
//! `cmd/` (its arguments and its `run`), the command line itself in `cli.rs`.
//!
//! Exit status: 0 success, 1 a command failed (a result not the expected one, a count that
//! differs between runs, a file that cannot be read...), 2 the command line did not parse.

mod board;
mod capture;
mod cli;
mod cmd;
mod dwarf;
mod elf;
mod field_bench;
mod hot_list;
mod hot_set;
mod image_check;
mod parts;
mod paths;
mod profile;
mod qemu;
mod record;
mod uf2;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().collect();
    let cli = cli::Cli::parse_from(&argv);
    // What followed the subcommand's name, as typed: the records that name their command.
    let invocation = argv.get(2..).unwrap_or_default();
    match cli.command.run(invocation) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mcu-run: {e}");
            ExitCode::FAILURE
        }
    }
}

//! The command line: one [`Cli`] with a subcommand each of whose arguments and body live in
//! `cmd/` (`cmd::run::Args` and `cmd::run::run` for `mcu-run run`, ...), and the value types
//! several subcommands share.

use clap::builder::PossibleValue;
use clap::{Parser, Subcommand, ValueEnum};

use crate::cmd;
use crate::image_check::Family;
use crate::qemu::{Core, Isa};

#[derive(Parser, Debug)]
#[command(
    name = "mcu-run",
    about = "Host runner for the picostark firmware: builds it, runs it under QEMU with the \
             instruction-count plugin and the RP2350 timing model, writes RunRecord JSON; also \
             writes and checks RP2350 UF2 images, runs board images, and captures a real \
             board's runs over USB serial",
    after_help = "Exit status: 0 success, 1 a command failed, 2 the command line did not parse.",
    // As the hand-made parser this replaced did: a flag given twice keeps its last value.
    args_override_self = true,
    arg_required_else_help = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    Run(cmd::run::Args),
    Board(cmd::board::Args),
    HotSet(cmd::hot_set::Args),
    Uf2(cmd::uf2::Args),
    CheckImage(cmd::check_image::Args),
    Tamper(cmd::tamper::Args),
    BringupProof(cmd::bringup::Args),
    Capture(cmd::capture::Args),
    ProfileParts(cmd::profile_parts::Args),
    FieldBench(cmd::field_bench::Args),
}

impl Command {
    /// Runs the subcommand; `invocation` is what followed its name on the command line, as
    /// typed (written into the outputs that name the command that made them).
    pub fn run(self, invocation: &[String]) -> Result<(), String> {
        match self {
            Command::Run(a) => cmd::run::run(a),
            Command::Board(a) => cmd::board::run(a),
            Command::HotSet(a) => cmd::hot_set::run(a, invocation),
            Command::Uf2(a) => cmd::uf2::run(a),
            Command::CheckImage(a) => cmd::check_image::run(a),
            Command::Tamper(a) => cmd::tamper::run(a),
            Command::BringupProof(a) => cmd::bringup::run(a),
            Command::Capture(a) => cmd::capture::run(a),
            Command::ProfileParts(a) => cmd::profile_parts::run(a),
            Command::FieldBench(a) => cmd::field_bench::run(a, invocation),
        }
    }
}

/// The verdict a run must end with (`--expect`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Expect {
    Accepted,
    Rejected,
}

impl Expect {
    pub fn name(self) -> &'static str {
        match self {
            Expect::Accepted => "accepted",
            Expect::Rejected => "rejected",
        }
    }
}

impl ValueEnum for Core {
    fn value_variants<'a>() -> &'a [Self] {
        &[Core::M33, Core::Rv32]
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.name()).help(match self {
            Core::M33 => "the Cortex-M33 (QEMU mps2-an505)",
            Core::Rv32 => "the Hazard3 RV32 core (QEMU virt)",
        }))
    }
}

impl ValueEnum for Isa {
    fn value_variants<'a>() -> &'a [Self] {
        &[Isa::Rp2350, Isa::Rv32imac]
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.name()).help(match self {
            Isa::Rp2350 => "RV32IMAC + Zba, Zbb, Zbs, Zbkb: what the RP2350's Hazard3 cores run",
            Isa::Rv32imac => "plain RV32IMAC, for other chips",
        }))
    }
}

impl ValueEnum for Family {
    fn value_variants<'a>() -> &'a [Self] {
        &[Family::Arm, Family::Riscv]
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.name()))
    }
}

#[cfg(test)]
#[path = "cli_tests.rs"]
mod tests;

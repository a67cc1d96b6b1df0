//! One module per `mcu-run` subcommand: its `Args` (the doc comments are its `--help`) and
//! its `run`.

pub mod board;
pub mod bringup;
pub mod capture;
pub mod check_image;
pub mod field_bench;
pub mod hot_set;
pub mod profile_parts;
pub mod run;
pub mod tamper;
pub mod uf2;

//! One module per report section, each returning a [`crate::doc::Section`]; the order they
//! are read in is [`crate::report::Report::sections`].

pub mod about;
pub mod answer;
pub mod circle;
pub mod cores;
pub mod hash;
pub mod matrix;
pub mod proven;
pub mod scaling;
pub mod workload;

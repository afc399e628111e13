//! `mlir-interp`: the execution engine of the reference interpreter.
//! The IR, parser and printer live in the `mlir-ir` crate.

pub mod cli;
pub mod float;

//! `mlir-interp`: the execution engine of the reference interpreter.
//! The IR, parser and printer live in the `mlir-ir` crate.

pub mod access;
pub mod args;
pub mod cli;
pub mod code;
pub mod debug;
pub mod dense;
pub mod dialects;
pub mod differential;
pub mod driver;
pub mod error;
pub mod exec;
pub mod float;
pub mod lane;
pub mod lend;
pub mod memory;
pub mod npy;
pub mod operands;
pub mod poison;
pub mod runtime;
pub mod scalar;
pub mod sem;
pub mod show;
pub mod trace;
pub mod value;
pub mod view;

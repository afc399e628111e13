//! One module per dialect, each with one entry point `exec` that matches on
//! the op kind; semantics are pure functions next to it.

pub mod arith;
pub mod builtin;
pub mod cf;
pub mod complex;
pub mod func;
pub mod index;
pub mod scf;
pub mod tensor;
pub mod ub;
pub mod vector;

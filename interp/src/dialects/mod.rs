//! One module per dialect, each with one entry point `exec` that matches on
//! the op kind; semantics are pure functions next to it.

pub mod affine;
pub mod arith;
pub mod bufferization;
pub mod builtin;
pub mod cf;
pub mod comb;
pub mod complex;
pub mod func;
pub mod index;
pub mod llvm;
pub mod math;
pub mod memref;
pub mod scf;
pub mod tensor;
pub mod ub;
pub mod vector;

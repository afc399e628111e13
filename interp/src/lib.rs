//! `mlir-interp`: a reference interpreter for MLIR. It runs `.mlir`
//! programs exactly (integers of any width, every float format, memrefs
//! as strided buffers) and reports undefined behaviour at the op that
//! commits it. The IR, parser and printer live in the `mlir-ir` crate.
//!
//! The library's entry points are at the root: [`Program`] (parse and
//! verify), [`Interpreter`] (call a function with [`Data`] scalars and
//! `ndarray` arrays as [`Tensor`]s, or [`Lent`] views; get [`Data`] back),
//! [`Error`] (classified, with the op's [`Location`]), and [`Observer`]
//! for watching a run op by op (see `examples/observer.rs`):
//!
//! ```
//! use mlir_interp::{Data, Interpreter, Program};
//! let p = Program::parse("t.mlir", "
//!   func.func @mean(%a: f64, %b: f64) -> f64 {
//!     %s = arith.addf %a, %b : f64
//!     %two = arith.constant 2.0 : f64
//!     %m = arith.divf %s, %two : f64
//!     return %m : f64
//!   }")?;
//! let r = Interpreter::new(&p)?.call("mean", vec![Data::F64(1.0).into(), Data::F64(2.0).into()])?;
//! assert_eq!(r, vec![Data::F64(1.5)]);
//! # Ok::<(), mlir_interp::Error>(())
//! ```
//!
//! The public modules below are the engine's own view of a run, for
//! observers and embedders: [`exec`] (the engine, its configuration and
//! the observer hook), [`value`] (runtime values), [`memory`] and [`view`]
//! (memrefs, as `ndarray` views), [`float`] (the exact float formats),
//! [`show`] (values as MLIR literals), [`trace`] (the `--trace` observer)
//! and [`error`]. Modules marked hidden serve the `mlir-interp` binary and
//! the test suite and are not part of the library's interface.

mod access;
mod api;
mod args;
mod block;
#[doc(hidden)]
pub mod cli;
mod code;
mod debug;
mod dense;
mod descriptor;
mod dialects;
#[doc(hidden)]
pub mod differential;
mod driver;
pub mod error;
pub mod exec;
#[doc(hidden)]
pub mod filecheck;
pub mod float;
mod fold;
mod fuzz;
pub mod gen;
mod lane;
mod last_use;
mod lend;
mod lit;
mod lit_expr;
pub mod memory;
mod names;
mod npy;
mod operands;
#[doc(hidden)]
pub mod passcheck;
mod poison;
mod reduce;
mod runner;
mod runtime;
mod scalar;
mod sem;
pub mod show;
mod sparse;
mod sparse_runtime;
mod stdsort;
mod textdiff;
pub mod trace;
pub mod value;
pub mod view;

pub use api::{Arg, Data, Detail, Element, Error, ErrorClass, Interpreter, Lent, Location, Program, Returned, Tensor};
pub use exec::{Config, Control, Engine, Frame, Interrupt, Observer};
// What public signatures mention, so that an embedder needs no other
// dependency (and cannot get a mismatched version of one): the IR crate
// and its ids (observers see `OpId`s), and the crates of the element and
// array types.
pub use mlir_ir;
pub use mlir_ir::ir::{BlockId, Module, OpId, RegionId, ValueId};
pub use {half, ndarray, num_complex};

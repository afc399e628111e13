//! One module per dialect, each with one entry point `exec` that matches on
//! the op kind; semantics are pure functions next to it. This module is the
//! one place that knows them all: it dispatches an op to its dialect and
//! hands that dispatch (with the runtime library) to the engine, which
//! imports no dialect.

use crate::error::{Error, ErrorKind, Result};
use crate::exec::{Config, Engine, Flow, Frame, Semantics};
use mlir_ir::ir::{Module, OpId};
use mlir_ir::ops::DialectOp;
use std::io::Write;

pub mod affine;
pub mod arith;
pub mod bufferization;
pub mod builtin;
pub mod cf;
pub mod comb;
pub mod complex;
pub mod func;
pub mod index;
pub mod linalg;
pub mod llvm;
pub mod math;
pub mod memref;
pub mod scf;
pub mod sparse_tensor;
pub mod tensor;
pub mod tosa;
pub mod ub;
pub mod vector;

/// Every dialect and the runtime library.
pub const SEMANTICS: Semantics = Semantics { op: exec, external: crate::runtime::call };

impl<'m> Engine<'m> {
    /// Loads `m` to run with every dialect and the runtime library.
    pub fn load(m: &'m Module, cfg: Config, out: Box<dyn Write + 'm>) -> Result<Engine<'m>> {
        Engine::with_semantics(m, cfg, out, SEMANTICS)
    }
}

/// Executes one op: one arm per dialect, each dialect's file matches its
/// own ops exhaustively.
fn exec(e: &mut Engine<'_>, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let kind = e.m.op(op).name.kind;
    match kind.dialect_op() {
        DialectOp::Builtin(o) => builtin::exec(e, fr, op, o),
        DialectOp::Func(o) => func::exec(e, fr, op, o),
        DialectOp::Cf(o) => cf::exec(e, fr, op, o),
        DialectOp::Arith(o) => arith::exec(e, fr, op, o),
        DialectOp::Index(o) => index::exec(e, fr, op, o),
        DialectOp::Ub(o) => ub::exec(e, fr, op, o),
        DialectOp::Scf(o) => scf::exec(e, fr, op, o),
        DialectOp::Vector(o) => vector::exec(e, fr, op, o),
        DialectOp::Math(o) => math::exec(e, fr, op, o),
        DialectOp::Memref(o) => memref::exec(e, fr, op, o),
        DialectOp::Affine(o) => affine::exec(e, fr, op, o),
        DialectOp::Tensor(o) => tensor::exec(e, fr, op, o),
        DialectOp::Linalg(o) => linalg::exec(e, fr, op, o),
        DialectOp::Complex(o) => complex::exec(e, fr, op, o),
        DialectOp::Bufferization(o) => bufferization::exec(e, fr, op, o),
        DialectOp::Comb(o) => comb::exec(e, fr, op, o),
        DialectOp::Llvm(o) => llvm::exec(e, fr, op, o),
        DialectOp::Tosa(o) => tosa::exec(e, fr, op, o),
        DialectOp::SparseTensor(o) => sparse_tensor::exec(e, fr, op, o),
        DialectOp::Unknown => unknown(e, fr, op),
    }
}

/// Ops the IR does not know: `vector.print` by name (older IR builds),
/// anything else is unsupported.
fn unknown(e: &mut Engine<'_>, fr: &mut Frame, op: OpId) -> Result<Flow> {
    match e.m.op_name(op) {
        "vector.print" => vector::print(e, fr, op),
        name => Err(Error::at(op, ErrorKind::Unsupported(format!("operation '{name}'")))),
    }
}

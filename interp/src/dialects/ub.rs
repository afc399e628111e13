//! The `ub` dialect: `ub.poison` makes a poison value (every element of a
//! shaped result) that remembers this op as its origin; reaching
//! `ub.unreachable` is immediate undefined behaviour.

use crate::error::{Error, ErrorKind, Result};
use crate::exec::{Engine, Flow, Frame};
use crate::value::{Poison, Scalar, Value};
use mlir_ir::ir::OpId;
use mlir_ir::ops::UbOp;

/// Executes one ub op.
pub fn exec(e: &mut Engine, fr: &mut Frame, op: OpId, kind: UbOp) -> Result<Flow> {
    match kind {
        UbOp::Poison => e.assign(fr, op, poison_of(e, op)?),
        UbOp::Unreachable => Err(Error::at(op, ErrorKind::Ub("reached 'ub.unreachable'".into()))),
    }
}

/// A poison value shaped like `op`'s result.
fn poison_of(e: &Engine, op: OpId) -> Result<Value> {
    let p = Scalar::Poison(Poison(op));
    match e.m.ctx.type_kind(e.result_type(op, 0)).shape() {
        Some(shape) => {
            let dims: Option<Vec<usize>> = shape.iter().map(|d| usize::try_from(*d).ok()).collect();
            let dims = dims.ok_or_else(|| Error::at(op, ErrorKind::Unsupported("poison of a dynamic shape".into())))?;
            crate::operands::filled(e, op, &dims, &p)
        }
        None => Ok(Value::from_scalar(p)),
    }
}

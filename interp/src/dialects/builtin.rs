//! The `builtin` dialect: `unrealized_conversion_cast` as an identity on
//! values (the only meaning it has once casts are reconciled).

use crate::error::{Error, ErrorKind, Result};
use crate::exec::{Engine, Flow, Frame};
use mlir_ir::ir::OpId;
use mlir_ir::ops::BuiltinOp;

/// Executes one builtin op.
pub fn exec(e: &mut Engine, fr: &mut Frame, op: OpId, kind: BuiltinOp) -> Result<Flow> {
    match kind {
        BuiltinOp::Module => Ok(Flow::Next),
        BuiltinOp::UnrealizedConversionCast => {
            let args = e.args(fr, op);
            if args.len() != e.m.op(op).results.len as usize {
                return Err(Error::at(op, ErrorKind::Unsupported("a conversion cast that is not one-to-one".into())));
            }
            e.assign_all(fr, op, args)
        }
    }
}

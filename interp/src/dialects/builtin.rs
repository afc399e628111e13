//! The `builtin` dialect: `unrealized_conversion_cast`, which in a partly
//! lowered module turns a value between its MLIR form and its LLVM form
//! (`crate::descriptor`), and is the identity otherwise.

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
            let mut out = Vec::with_capacity(args.len());
            for (i, v) in args.into_iter().enumerate() {
                let from = e.operand_type(op, i).ok_or_else(|| Error::unverified(op, "missing operand"))?;
                let to = e.result_type(op, i);
                out.push(crate::descriptor::convert(e, op, v, from, to)?);
            }
            e.assign_all(fr, op, out)
        }
    }
}

//! The `func` dialect: calls (direct, indirect, external runtime functions
//! bound by name), function constants and returns.

use crate::error::{Error, Result};
use crate::exec::{Engine, Flow, Frame};
use crate::value::Value;
use mlir_ir::ir::OpId;
use mlir_ir::ops::FuncOp;

/// Executes one func op.
pub fn exec(e: &mut Engine, fr: &mut Frame, op: OpId, kind: FuncOp) -> Result<Flow> {
    use FuncOp::*;
    match kind {
        Func => Ok(Flow::Next),
        Return => Ok(Flow::Exit(e.args(fr, op))),
        Call => call(e, fr, op),
        CallIndirect => call_indirect(e, fr, op),
        Constant => e.assign(fr, op, Value::Func(callee(e, op)?)),
    }
}

fn callee(e: &Engine, op: OpId) -> Result<crate::value::FuncRef> {
    e.aux[op.0 as usize].callee.ok_or_else(|| Error::unverified(op, "call without a callee"))
}

/// `func.call @f(args)`.
fn call(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let f = callee(e, op)?;
    let args = e.args(fr, op);
    let res = e.call(op, f, args)?;
    e.assign_all(fr, op, res)
}

/// `func.call_indirect %f(args)`.
fn call_indirect(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let mut args = e.args(fr, op);
    if args.is_empty() {
        return Err(Error::unverified(op, "call_indirect without a callee"));
    }
    let Value::Func(f) = args.remove(0) else {
        return Err(Error::unverified(op, "callee is not a function value"));
    };
    let res = e.call(op, f, args)?;
    e.assign_all(fr, op, res)
}

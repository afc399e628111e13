//! The `cf` dialect: unstructured branches with block arguments (the engine
//! copies them in parallel) and `cf.assert`. A poison branch condition or
//! switch flag is an error naming the op that made the poison.

use crate::error::{Error, ErrorKind, Result};
use crate::exec::{Engine, Flow, Frame};
use crate::operands::{cond_branch, successor, switch};
use mlir_ir::attrs::Attribute;
use mlir_ir::ir::OpId;
use mlir_ir::ops::CfOp;

/// Executes one cf op.
pub fn exec(e: &mut Engine, fr: &mut Frame, op: OpId, kind: CfOp) -> Result<Flow> {
    use CfOp::*;
    match kind {
        Br => Ok(Flow::Branch(successor(e, op, 0)?, e.args(fr, op))),
        CondBr => cond_branch(e, fr, op),
        Switch => switch(e, fr, op),
        Assert => assert(e, fr, op),
    }
}

/// `cf.assert %c, "msg"`: a false condition stops the run with the message.
fn assert(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    if e.cond(op, e.arg(fr, op, 0)?, "used as an assert condition")? {
        return Ok(Flow::Next);
    }
    let msg = match e.m.attr(op, "msg").map(|a| e.m.ctx.attr_kind(a)) {
        Some(Attribute::String { value, .. }) => String::from_utf8_lossy(value).into_owned(),
        _ => String::new(),
    };
    Err(Error::at(op, ErrorKind::Assert(msg)))
}

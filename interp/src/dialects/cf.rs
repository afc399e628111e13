//! The `cf` dialect: unstructured branches with block arguments (the engine
//! copies them in parallel) and `cf.assert`. A poison branch condition or
//! switch flag is an error naming the op that made the poison.

use crate::error::{Error, ErrorKind, Result};
use crate::exec::{Engine, Flow, Frame};
use crate::operands::{cond_branch, successor};
use crate::value::{Scalar, Value};
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

/// `cf.switch %flag : iN, [default: ^d(..), v: ^b(..), ...]`.
fn switch(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let flag = e.arg(fr, op, 0)?;
    e.observe(op, flag, "used as a switch flag")?;
    let Some(Scalar::Int(flag)) = flag.scalar() else {
        return Err(Error::at(op, ErrorKind::Invalid("switch flag is not an integer".into())));
    };
    let ncases = e.m.successors(op).len().saturating_sub(1);
    let hit = match &e.aux[op.0 as usize].constant {
        Some(Value::Array(cases)) => cases.iter().position(|c| c.as_int() == Some(flag)),
        _ => None,
    };
    let target = match hit {
        Some(i) if i < ncases => i + 1,
        _ => 0,
    };
    let mut start = 1;
    for i in 0..target {
        start += e.m.block(successor(e, op, i)?).args.len as usize;
    }
    let n = e.m.block(successor(e, op, target)?).args.len as usize;
    Ok(Flow::Branch(successor(e, op, target)?, e.args_in(fr, op, start..start + n)?))
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

//! The `cf` dialect: unstructured branches with block arguments (the engine
//! copies them in parallel) and `cf.assert`. A poison branch condition or
//! switch flag is an error naming the op that made the poison.

use crate::error::{Error, ErrorKind, Result};
use crate::exec::{Engine, Flow, Frame};
use crate::value::{Scalar, Value};
use mlir_ir::attrs::Attribute;
use mlir_ir::ir::OpId;
use mlir_ir::ops::CfOp;

/// Executes one cf op.
pub fn exec(e: &mut Engine, fr: &mut Frame, op: OpId, kind: CfOp) -> Result<Flow> {
    use CfOp::*;
    match kind {
        Br => Ok(Flow::Branch(succ(e, op, 0)?, e.args(fr, op))),
        CondBr => cond_br(e, fr, op),
        Switch => switch(e, fr, op),
        Assert => assert(e, fr, op),
    }
}

fn succ(e: &Engine, op: OpId, i: usize) -> Result<mlir_ir::ir::BlockId> {
    e.m.successors(op)
        .get(i)
        .copied()
        .ok_or_else(|| Error::at(op, ErrorKind::Invalid(format!("missing successor #{i}"))))
}

/// The number of arguments successor `i` takes (its operand segment size).
fn nargs(e: &Engine, op: OpId, i: usize) -> Result<usize> {
    Ok(e.m.block(succ(e, op, i)?).args.len as usize)
}

/// `cf.cond_br %c, ^t(..), ^f(..)`.
fn cond_br(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let c = e.cond(op, e.arg(fr, op, 0)?, "used as a branch condition")?;
    let nt = nargs(e, op, 0)?;
    let nf = nargs(e, op, 1)?;
    if c {
        Ok(Flow::Branch(succ(e, op, 0)?, e.args_in(fr, op, 1..1 + nt)?))
    } else {
        Ok(Flow::Branch(succ(e, op, 1)?, e.args_in(fr, op, 1 + nt..1 + nt + nf)?))
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
        start += nargs(e, op, i)?;
    }
    let n = nargs(e, op, target)?;
    Ok(Flow::Branch(succ(e, op, target)?, e.args_in(fr, op, start..start + n)?))
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

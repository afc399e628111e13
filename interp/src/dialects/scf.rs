//! The `scf` dialect: structured control flow runs its regions in the
//! caller's frame; `scf.yield`, `scf.condition`, `scf.reduce` and
//! `scf.reduce.return` leave their region with their operands.
//!
//! - `scf.for` compares signed unless `unsignedCmp` is set; a zero step
//!   loops until fuel runs out (SEMANTICS item 32).
//! - `scf.while` runs "before", then "after" while the condition holds.
//! - `scf.parallel` and `scf.forall` run their iterations sequentially in
//!   lexicographic order; reductions combine `(accumulator, new value)`;
//!   `scf.forall`'s shared outputs carry each iteration's parallel inserts
//!   to the next (overlapping inserts are a race the engine does not flag).
//! - Poison in a bound, step, condition or switch index is an error.

use crate::error::{Error, ErrorKind, Result};
use crate::exec::{Engine, Flow, Frame, UNSIGNED};
use crate::scalar::int_op;
use crate::value::{Int, Value};

use mlir_ir::ir::OpId;
use mlir_ir::ops::{OpKind, ScfOp};
use mlir_ir::types::DYNAMIC;

use crate::sem::int::{addi, cmpi, Out};

/// Executes one scf op.
pub fn exec(e: &mut Engine, fr: &mut Frame, op: OpId, kind: ScfOp) -> Result<Flow> {
    use ScfOp::*;
    match kind {
        For => for_loop(e, fr, op),
        If => if_op(e, fr, op),
        While => while_loop(e, fr, op),
        Condition | Yield | Reduce | ReduceReturn => Ok(Flow::Exit(e.args(fr, op))),
        ExecuteRegion => {
            let (_, vals) = e.run_region(fr, e.region(op, 0)?, Vec::new())?;
            e.assign_all(fr, op, vals)
        }
        IndexSwitch => index_switch(e, fr, op),
        Parallel => parallel(e, fr, op),
        Forall => forall(e, fr, op),
        InParallel => in_parallel(e, fr, op),
    }
}

/// An integer operand that must not be poison.
fn int_arg(e: &Engine, fr: &Frame, op: OpId, i: usize, what: &str) -> Result<Int> {
    let v = e.arg(fr, op, i)?;
    e.observe(op, v, what)?;
    v.as_int().ok_or_else(|| Error::unverified(op, "expected an integer operand"))
}

/// `iv < ub`, signed or unsigned.
fn below(w: u32, iv: &Int, ub: &Int, unsigned: bool) -> bool {
    int_op!(w, cmpi(if unsigned { 6 } else { 2 }, iv, ub)).unwrap_or(false)
}

/// `iv + step`, wrapping.
fn advance(op: OpId, w: u32, iv: &Int, step: &Int) -> Result<Int> {
    match int_op!(w, addi(iv, step, 0)) {
        Some(Out::Val(v)) => Ok(v),
        _ => Err(Error::unverified(op, "bad induction variable")),
    }
}

/// `scf.for %iv = %lb to %ub step %s iter_args(..)`.
fn for_loop(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let lb = int_arg(e, fr, op, 0, "used as a scf.for lower bound")?;
    let ub = int_arg(e, fr, op, 1, "used as a scf.for upper bound")?;
    let step = int_arg(e, fr, op, 2, "used as a scf.for step")?;
    let unsigned = e.aux[op.0 as usize].flags & UNSIGNED != 0;
    let w = lb.width();
    let body = e.region(op, 0)?;
    let mut iters = e.args_in(fr, op, 3..e.m.operands(op).len())?;
    let mut iv = lb;
    while below(w, &iv, &ub, unsigned) {
        let mut args = Vec::with_capacity(iters.len() + 1);
        args.push(Value::int(iv.clone()));
        args.extend(iters);
        iters = e.run_scoped(fr, body, args)?.1;
        iv = advance(op, w, &iv, &step)?;
    }
    e.assign_all(fr, op, iters)
}

/// `scf.if %c { } else { }`.
fn if_op(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let c = e.cond(op, e.arg(fr, op, 0)?, "used as a scf.if condition")?;
    let r = e.region(op, if c { 0 } else { 1 })?;
    if e.m.region(r).blocks.is_empty() {
        return e.assign_all(fr, op, Vec::new());
    }
    let (_, vals) = e.run_region(fr, r, Vec::new())?;
    e.assign_all(fr, op, vals)
}

/// `scf.while`: "before" decides with `scf.condition`, "after" feeds "before".
fn while_loop(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let (before, after) = (e.region(op, 0)?, e.region(op, 1)?);
    let mut args = e.args(fr, op);
    loop {
        let (term, mut vals) = e.run_region(fr, before, args)?;
        if vals.is_empty() {
            return Err(Error::unverified(term, "scf.condition without a condition"));
        }
        let c = vals.remove(0);
        if !e.cond(term, &c, "used as a scf.while condition")? {
            return e.assign_all(fr, op, vals);
        }
        args = e.run_region(fr, after, vals)?.1;
    }
}

/// `scf.index_switch %i case 1 {..} default {..}`: regions are the default,
/// then the cases in order.
fn index_switch(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let i = int_arg(e, fr, op, 0, "used as a scf.index_switch index")?;
    let key = i.to_i64();
    let hit = match &e.aux[op.0 as usize].constant {
        Some(Value::Array(cases)) => cases
            .iter()
            .position(|c| c.as_int().and_then(Int::to_i64).is_some() && c.as_int().and_then(Int::to_i64) == key),
        _ => None,
    };
    let r = e.region(op, hit.map_or(0, |h| h + 1))?;
    let (_, vals) = e.run_region(fr, r, Vec::new())?;
    e.assign_all(fr, op, vals)
}

/// Iterates the index space `lbs..ubs` by `steps` in lexicographic order,
/// calling `f` with the induction values.
fn nest(
    e: &mut Engine,
    op: OpId,
    lbs: &[Int],
    ubs: &[Int],
    steps: &[Int],
    f: &mut dyn FnMut(&mut Engine, Vec<Value>) -> Result<()>,
) -> Result<()> {
    let n = lbs.len();
    if n == 0 {
        return f(e, Vec::new());
    }
    if lbs.iter().zip(ubs).any(|(l, u)| !below(l.width(), l, u, false)) {
        return Ok(());
    }
    let mut ivs: Vec<Int> = lbs.to_vec();
    loop {
        f(e, ivs.iter().cloned().map(Value::int).collect())?;
        // Odometer increment, innermost dimension fastest.
        let mut d = n;
        loop {
            if d == 0 {
                return Ok(());
            }
            d -= 1;
            let w = ivs[d].width();
            ivs[d] = advance(op, w, &ivs[d], &steps[d])?;
            if below(w, &ivs[d], &ubs[d], false) {
                break;
            }
            ivs[d] = lbs[d].clone();
        }
    }
}

/// `scf.parallel`: bounds, steps, inits; the body ends in `scf.reduce`.
fn parallel(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let body = e.region(op, 0)?;
    let entry = *e.m.region(body).blocks.first().ok_or_else(|| Error::unverified(op, "empty body"))?;
    let n = e.m.block(entry).args.len as usize;
    let mut bounds = Vec::with_capacity(3 * n);
    for i in 0..3 * n {
        bounds.push(int_arg(e, fr, op, i, "used as a scf.parallel bound")?);
    }
    let mut acc = e.args_in(fr, op, 3 * n..e.m.operands(op).len())?;
    let (lbs, rest) = bounds.split_at(n);
    let (ubs, steps) = rest.split_at(n);
    nest(e, op, lbs, ubs, steps, &mut |e, ivs| {
        let (term, vals) = e.run_scoped(fr, body, ivs)?;
        let regions = e.m.regions(term).to_vec();
        if regions.len() != acc.len() || vals.len() != acc.len() {
            return Err(Error::unverified(term, "scf.reduce does not match the loop's results"));
        }
        for (i, r) in regions.into_iter().enumerate() {
            let args = vec![acc[i].clone(), vals[i].clone()];
            let mut out = e.run_region(fr, r, args)?.1;
            acc[i] = out.pop().ok_or_else(|| Error::unverified(term, "scf.reduce.return without a value"))?;
        }
        Ok(())
    })?;
    e.assign_all(fr, op, acc)
}

/// `scf.forall`: static or dynamic bounds; iterations run in order. Each
/// iteration sees the shared outputs as the earlier iterations left them
/// (what the bufferized loop's shared buffers hold) and its
/// `scf.forall.in_parallel` terminator returns them with its
/// `tensor.parallel_insert_slice`s applied.
fn forall(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let body = e.region(op, 0)?;
    let mut next = 0;
    let mut group = |e: &Engine, name: &str| -> Result<Vec<Int>> {
        let mut out = Vec::new();
        for s in e.i64s(op, name)? {
            if s == DYNAMIC {
                out.push(int_arg(e, fr, op, next, "used as a scf.forall bound")?);
                next += 1;
            } else {
                out.push(Int::from_i128(e.cfg.index_bits, i128::from(s)));
            }
        }
        Ok(out)
    };
    let lbs = group(e, "staticLowerBound")?;
    let ubs = group(e, "staticUpperBound")?;
    let steps = group(e, "staticStep")?;
    let mut outs = e.args_in(fr, op, next..e.m.operands(op).len())?;
    nest(e, op, &lbs, &ubs, &steps, &mut |e, mut ivs| {
        ivs.extend(outs.iter().cloned());
        let (term, vals) = e.run_scoped(fr, body, ivs)?;
        if vals.len() != outs.len() {
            return Err(Error::unverified(term, "scf.forall.in_parallel does not match the shared outputs"));
        }
        outs = vals;
        Ok(())
    })?;
    e.assign_all(fr, op, outs)
}

/// `scf.forall.in_parallel`: runs its `tensor.parallel_insert_slice`s, which
/// update the shared outputs (the last block arguments of the loop body) in
/// place, and leaves the body with the updated outputs.
fn in_parallel(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let m = e.m;
    let block = m.op(op).parent.ok_or_else(|| Error::unverified(op, "scf.forall.in_parallel outside a loop"))?;
    let loop_op = m.parent_op(op).ok_or_else(|| Error::unverified(op, "scf.forall.in_parallel outside a loop"))?;
    let n_outs = m.op(loop_op).results.len as usize;
    let args: Vec<_> = m.args(block).collect();
    let shared = args.get(args.len().saturating_sub(n_outs)..).unwrap_or(&[]).to_vec();
    for &r in m.regions(op) {
        for &b in &m.region(r).blocks {
            for &inner in &m.block(b).ops {
                if m.op(inner).name.kind != OpKind::TensorParallelInsertSlice {
                    return Err(Error::at(
                        inner,
                        ErrorKind::Unsupported(format!("'{}' inside scf.forall.in_parallel", m.op_name(inner))),
                    ));
                }
                let dest = *m.operands(inner).get(1).ok_or_else(|| Error::unverified(inner, "missing destination"))?;
                if !shared.contains(&dest) {
                    return Err(Error::unverified(
                        inner,
                        "tensor.parallel_insert_slice must insert into a shared output of the loop",
                    ));
                }
                e.exec_op(fr, inner)?;
            }
        }
    }
    Ok(Flow::Exit(shared.iter().map(|v| e.get(fr, *v).clone()).collect()))
}

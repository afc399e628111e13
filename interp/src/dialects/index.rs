//! The `index` dialect: the integer semantics of `arith` at the index width
//! (`--index-bitwidth`, default 64), without overflow flags. Division by
//! zero and signed INT_MIN / -1 are immediate UB; a shift by at least the
//! width is poison, as in `arith`.

use crate::error::{Error, Result};
use crate::exec::{Engine, Flow, Frame};
use crate::operands::{int2, int_cast};
use crate::scalar::int_op;
use crate::sem::int::*;
use crate::value::{Int, Value};
use mlir_ir::ir::OpId;
use mlir_ir::ops::IndexOp;

/// Executes one index op.
pub fn exec(e: &mut Engine, fr: &mut Frame, op: OpId, kind: IndexOp) -> Result<Flow> {
    use IndexOp::*;
    let pred = e.aux[op.0 as usize].pred;
    match kind {
        Constant | BoolConstant => constant(e, fr, op),
        Add => int2(e, fr, op, |w, a, b| int_op!(w, addi(a, b, 0))),
        Sub => int2(e, fr, op, |w, a, b| int_op!(w, subi(a, b, 0))),
        Mul => int2(e, fr, op, |w, a, b| int_op!(w, muli(a, b, 0))),
        Divs => int2(e, fr, op, |w, a, b| int_op!(w, divsi(a, b, 0))),
        Divu => int2(e, fr, op, |w, a, b| int_op!(w, divui(a, b, 0))),
        Ceildivs => int2(e, fr, op, |w, a, b| int_op!(w, ceildivsi(a, b))),
        Ceildivu => int2(e, fr, op, |w, a, b| int_op!(w, ceildivui(a, b))),
        Floordivs => int2(e, fr, op, |w, a, b| int_op!(w, floordivsi(a, b))),
        Rems => int2(e, fr, op, |w, a, b| int_op!(w, remsi(a, b))),
        Remu => int2(e, fr, op, |w, a, b| int_op!(w, remui(a, b))),
        Maxs => int2(e, fr, op, |w, a, b| int_op!(w, maxsi(a, b))),
        Maxu => int2(e, fr, op, |w, a, b| int_op!(w, maxui(a, b))),
        Mins => int2(e, fr, op, |w, a, b| int_op!(w, minsi(a, b))),
        Minu => int2(e, fr, op, |w, a, b| int_op!(w, minui(a, b))),
        Shl => int2(e, fr, op, |w, a, b| int_op!(w, shli(a, b, 0))),
        Shrs => int2(e, fr, op, |w, a, b| int_op!(w, shrsi(a, b, 0))),
        Shru => int2(e, fr, op, |w, a, b| int_op!(w, shrui(a, b, 0))),
        And => int2(e, fr, op, |_, a, b| Some(Out::Val(bitwise(a, b, |x, y| x & y, |x, y| x & y)))),
        Or => int2(e, fr, op, |_, a, b| Some(Out::Val(bitwise(a, b, |x, y| x | y, |x, y| x | y)))),
        Xor => int2(e, fr, op, |_, a, b| Some(Out::Val(bitwise(a, b, |x, y| x ^ y, |x, y| x ^ y)))),
        Cmp => int2(e, fr, op, |w, a, b| int_op!(w, cmpi(pred, a, b)).map(|c| Out::Val(Int::bool(c)))),
        Casts => cast(e, fr, op, true),
        Castu => cast(e, fr, op, false),
        Sizeof => e.assign(fr, op, Value::int(Int::from_u128(e.cfg.index_bits, u128::from(e.cfg.index_bits)))),
    }
}

fn constant(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let v = e.aux[op.0 as usize].constant.clone();
    let v = v.ok_or_else(|| Error::unverified(op, "constant without a value"))?;
    e.assign(fr, op, v)
}

/// `index.casts` (sign-extend or truncate) and `index.castu` (zero-extend or truncate).
fn cast(e: &Engine, fr: &mut Frame, op: OpId, signed: bool) -> Result<Flow> {
    int_cast(e, fr, op, |w, a, to| if signed { int_op!(w, extsi(a, to)) } else { int_op!(w, extui(a, to, 0)) })
}

//! Operand plumbing shared by the dialect files: elementwise integer ops
//! over scalars and vectors (read the operands, apply one pure function of
//! `crate::sem` per element, propagate poison, turn UB into an error at the
//! op, write the results), so `arith` and `index` share it without one
//! dialect importing the other.

use crate::error::{Error, ErrorKind, Result};
use crate::exec::{Engine, Flow, Frame};
use crate::sem::fp::To;
use crate::sem::int::Out;
use crate::value::{map1, map2, map2_pair, Int, Poison, Scalar};
use mlir_ir::ir::OpId;
use mlir_ir::types::TypeKind;

/// The operand types do not fit the op (the verifier admitted them).
pub fn bad_types(op: OpId) -> Error {
    Error::at(op, ErrorKind::Invalid("operand types do not match the op".into()))
}

/// Elementwise operands of different shapes.
pub fn bad_shape(op: OpId) -> impl Fn() -> Error {
    move || Error::at(op, ErrorKind::Invalid("operand shapes do not match".into()))
}

/// Turns an integer outcome into a scalar (or the UB error).
pub fn out(e: &Engine, op: OpId, o: Option<Out>) -> Result<Scalar> {
    match o {
        Some(Out::Val(i)) => Ok(Scalar::Int(i)),
        Some(Out::Poison) => Ok(Scalar::Poison(Poison(op))),
        Some(Out::Ub(m)) => Err(Error::at(op, ErrorKind::Ub(format!("{m} in '{}'", e.m.op_name(op))))),
        None => Err(Error::at(op, ErrorKind::Invalid("integer width out of range".into()))),
    }
}

/// The integer width of operand 0's elements.
pub fn operand_width(e: &Engine, op: OpId) -> Result<u32> {
    let t = e.operand_type(op, 0).ok_or_else(|| bad_types(op))?;
    e.int_width(e.elem_type(t)).ok_or_else(|| bad_types(op))
}

/// What result 0's elements are: an integer width or a float format.
pub fn result_to(e: &Engine, op: OpId) -> Result<To> {
    let t = e.elem_type(e.result_type(op, 0));
    if let TypeKind::Float(k) = e.m.ctx.type_kind(t) {
        return Ok(To::Float(*k));
    }
    e.int_width(t).map(To::Int).ok_or_else(|| bad_types(op))
}

/// A binary integer op, elementwise, poison in gives poison out.
pub fn int2(e: &Engine, fr: &mut Frame, op: OpId, f: impl Fn(u32, &Int, &Int) -> Option<Out>) -> Result<Flow> {
    let w = operand_width(e, op)?;
    let (a, b) = (e.arg(fr, op, 0)?, e.arg(fr, op, 1)?);
    let v = map2(
        a,
        b,
        |x, y| match (x, y) {
            (Scalar::Poison(p), _) | (_, Scalar::Poison(p)) => Ok(Scalar::Poison(*p)),
            (Scalar::Int(x), Scalar::Int(y)) => out(e, op, f(w, x, y)),
            _ => Err(bad_types(op)),
        },
        bad_shape(op),
    )?;
    e.assign(fr, op, v)
}

/// A binary integer op with two results (the extended ops).
pub fn int2x(e: &Engine, fr: &mut Frame, op: OpId, f: impl Fn(u32, &Int, &Int) -> Option<(Int, Int)>) -> Result<Flow> {
    let w = operand_width(e, op)?;
    let (a, b) = (e.arg(fr, op, 0)?, e.arg(fr, op, 1)?);
    let (lo, hi) = map2_pair(
        a,
        b,
        |x, y| match (x, y) {
            (Scalar::Poison(p), _) | (_, Scalar::Poison(p)) => Ok((Scalar::Poison(*p), Scalar::Poison(*p))),
            (Scalar::Int(x), Scalar::Int(y)) => match f(w, x, y) {
                Some((l, h)) => Ok((Scalar::Int(l), Scalar::Int(h))),
                None => Err(bad_types(op)),
            },
            _ => Err(bad_types(op)),
        },
        bad_shape(op),
    )?;
    e.assign_all(fr, op, vec![lo, hi])
}

/// An integer-to-integer cast at the result's width.
pub fn int_cast(e: &Engine, fr: &mut Frame, op: OpId, f: impl Fn(u32, &Int, u32) -> Option<Out>) -> Result<Flow> {
    let from = operand_width(e, op)?;
    let To::Int(to) = result_to(e, op)? else { return Err(bad_types(op)) };
    let w = from.max(to);
    let v = map1(
        e.arg(fr, op, 0)?,
        |x| match x {
            Scalar::Poison(p) => Ok(Scalar::Poison(*p)),
            Scalar::Int(i) => out(e, op, f(w, i, to)),
            Scalar::Float(_) | Scalar::Complex(..) => Err(bad_types(op)),
        },
        bad_shape(op),
    )?;
    e.assign(fr, op, v)
}

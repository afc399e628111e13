//! tosa's shape arithmetic (`!tosa.shape<N>` values: rank-1 arrays of
//! `index`), `tosa.dim`, and the variables: persistent tensors that
//! `variable_read` and `variable_write` share across the run.

use super::{int_at, int_attr, invalid, require, shape_operand};
use crate::error::{Error, Result};
use crate::exec::{Engine, Flow, Frame};
use crate::lane::Lane;
use crate::operands::{dense, dense_error};
use crate::value::{Dense, Int, Scalar, Value};
use mlir_ir::attrs::Attribute;
use mlir_ir::ir::OpId;
use mlir_ir::ops::{OpKind, TosaOp};
use std::rc::Rc;

/// A `!tosa.shape` value holding `dims`.
fn shape_value(e: &Engine, op: OpId, dims: &[i64]) -> Result<Value> {
    let w = e.cfg.index_bits;
    let elems: Vec<Scalar> = dims.iter().map(|d| Scalar::Int(Int::from_i128(w, i128::from(*d)))).collect();
    Dense::new(&[dims.len()], &elems, Some(Lane::Int(w)))
        .map(|d| Value::Array(Rc::new(d)))
        .map_err(|x| dense_error(op, x))
}

/// The binary and unary shape operators, elementwise on the sizes.
pub(super) fn arith(e: &mut Engine, fr: &mut Frame, op: OpId, kind: TosaOp) -> Result<Flow> {
    let a = shape_operand(e, fr, op, 0)?;
    let unary = matches!(kind, TosaOp::Exp2Shape | TosaOp::Log2CeilShape | TosaOp::Log2FloorShape);
    let b = if unary { a.clone() } else { shape_operand(e, fr, op, 1)? };
    if a.len() != b.len() {
        return Err(invalid(op, format!("shapes of lengths {} and {} differ", a.len(), b.len())));
    }
    let name = e.m.op_name(op);
    let mut out = Vec::with_capacity(a.len());
    for (&x, &y) in a.iter().zip(&b) {
        let nonneg_div = || -> Result<()> {
            if x < 0 || y < 1 {
                return Err(require(op, format!("{name} needs a dividend >= 0 and a divisor >= 1, got {x} and {y}")));
            }
            Ok(())
        };
        let overflow = || require(op, format!("{name} of {x} and {y} overflows"));
        out.push(match kind {
            TosaOp::AddShape => x.checked_add(y).ok_or_else(overflow)?,
            TosaOp::SubShape => x.checked_sub(y).ok_or_else(overflow)?,
            TosaOp::MulShape => x.wrapping_mul(y),
            TosaOp::MaxShape => x.max(y),
            TosaOp::MinShape => x.min(y),
            TosaOp::DivFloorShape => {
                nonneg_div()?;
                x / y
            }
            TosaOp::DivCeilShape => {
                nonneg_div()?;
                x / y + i64::from(x % y != 0)
            }
            TosaOp::ModShape => {
                nonneg_div()?;
                x % y
            }
            TosaOp::Exp2Shape => {
                if !(0..63).contains(&x) {
                    return Err(require(op, format!("exp2_shape of {x}: the exponent must be in 0..63")));
                }
                1i64 << x
            }
            TosaOp::Log2CeilShape | TosaOp::Log2FloorShape => {
                if x < 1 {
                    return Err(require(op, format!("{name} of {x}: the value must be >= 1")));
                }
                let floor = 63 - i64::from(x.leading_zeros());
                floor + i64::from(kind == TosaOp::Log2CeilShape && x != 1 << floor)
            }
            _ => return Err(Error::unverified(op, "not a shape operator")),
        });
    }
    let v = shape_value(e, op, &out)?;
    e.assign(fr, op, v)
}

/// `tosa.concat_shape`: the shapes one after another.
pub(super) fn concat(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let mut out = Vec::new();
    for i in 0..e.m.operands(op).len() {
        let s = shape_operand(e, fr, op, i)?;
        if s.is_empty() {
            return Err(invalid(op, format!("operand #{i} is an empty shape")));
        }
        out.extend(s);
    }
    let v = shape_value(e, op, &out)?;
    e.assign(fr, op, v)
}

/// `tosa.slice_shape %shape, %start, %size`: `size` sizes from `start`
/// (both one-element i32 tensors).
pub(super) fn slice(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let s = shape_operand(e, fr, op, 0)?;
    let (start, size) = (dense(e, fr, op, 1)?, dense(e, fr, op, 2)?);
    let (start, size) = (int_at(op, &start, 0)?, int_at(op, &size, 0)?);
    if size <= 0 || start < 0 || start + size > s.len() as i64 {
        return Err(invalid(op, format!("slice_shape of {} sizes from {start}, {size} long", s.len())));
    }
    let v = shape_value(e, op, &s[start as usize..(start + size) as usize])?;
    e.assign(fr, op, v)
}

/// `tosa.dim %t {axis}`: the size of one dimension, as a `!tosa.shape<1>`.
pub(super) fn dim(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let t = dense(e, fr, op, 0)?;
    let axis = int_attr(e, op, "axis")?;
    let d = usize::try_from(axis)
        .ok()
        .and_then(|a| t.shape().get(a))
        .copied()
        .ok_or_else(|| invalid(op, format!("axis {axis} of a rank-{} tensor", t.shape().len())))?;
    if d == 0 {
        return Err(require(op, format!("dimension {axis} has size 0")));
    }
    let v = shape_value(e, op, &[d as i64])?;
    e.assign(fr, op, v)
}

/// The `tosa.variable` op that declares `name` (a string attribute of `op`).
fn declaration(e: &Engine, op: OpId) -> Result<OpId> {
    let name = match e.m.attr(op, "name").map(|a| e.m.ctx.attr_kind(a)) {
        Some(Attribute::String { value, .. }) => value.clone(),
        _ => return Err(invalid(op, "a variable access without a 'name'")),
    };
    let found = (0..e.m.ops.len()).map(|i| OpId(i as u32)).find(|&o| {
        e.m.op(o).name.kind == OpKind::TosaVariable
            && matches!(e.m.attr(o, "sym_name").map(|a| e.m.ctx.attr_kind(a)), Some(Attribute::String { value, .. }) if *value == name)
    });
    found.ok_or_else(|| require(op, format!("no tosa.variable named '{}'", String::from_utf8_lossy(&name))))
}

/// `tosa.variable_read @v`: the last value written, or the initial value;
/// reading a variable never written fails a REQUIRE.
pub(super) fn read(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let decl = declaration(e, op)?;
    let v = match e.tosa_variables.get(&decl) {
        Some(v) => v.clone(),
        None => {
            let init = e.m.attr(decl, "initial_value").ok_or_else(|| {
                require(op, "reading a variable that has no initial value and was never written".to_owned())
            })?;
            let ty = match e.m.ctx.attr_kind(init) {
                Attribute::Dense { ty, .. } => *ty,
                _ => return Err(invalid(decl, "a variable's initial value must be a dense attribute")),
            };
            let v = e.attr_value(decl, init, ty)?;
            e.tosa_variables.insert(decl, v.clone());
            v
        }
    };
    check_type(e, op, &v, e.result_type(op, 0))?;
    e.assign(fr, op, v)
}

/// `tosa.variable_write @v, %x`.
pub(super) fn write(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let decl = declaration(e, op)?;
    let v = e.arg(fr, op, 0)?.clone();
    let (shape, elem) = declared(e, decl)?;
    if let Value::Array(d) = &v {
        let lane = crate::operands::lane_of(e, elem);
        if d.shape().iter().map(|x| *x as i64).collect::<Vec<_>>() != shape || lane.is_some_and(|l| l != d.lane()) {
            return Err(require(op, format!("writing a {:?} tensor to a variable of shape {shape:?}", d.shape())));
        }
    }
    e.tosa_variables.insert(decl, v);
    Ok(Flow::Next)
}

/// The declared shape and element type of a variable.
fn declared(e: &Engine, decl: OpId) -> Result<(Vec<i64>, mlir_ir::types::TypeId)> {
    let shape = match e.m.attr(decl, "var_shape").map(|a| e.m.ctx.attr_kind(a)) {
        Some(Attribute::Dense { values: mlir_ir::attrs::DenseValues::Ints(v), splat, ty }) => {
            let n = match e.m.ctx.type_kind(*ty) {
                mlir_ir::types::TypeKind::RankedTensor { shape, .. } => {
                    shape.first().copied().unwrap_or(0).max(0) as usize
                }
                _ => v.len(),
            };
            let vals: Vec<i64> = v.iter().map(|x| x.to_i64().unwrap_or(-1)).collect();
            if *splat && n != 1 {
                vec![vals.first().copied().unwrap_or(0); n]
            } else {
                vals
            }
        }
        _ => return Err(invalid(decl, "a tosa.variable without 'var_shape'")),
    };
    let elem = match e.m.attr(decl, "type").map(|a| e.m.ctx.attr_kind(a)) {
        Some(Attribute::Type(t)) => *t,
        _ => return Err(invalid(decl, "a tosa.variable without 'type'")),
    };
    Ok((shape, elem))
}

/// A variable's value must have the accessing op's type (a REQUIRE).
fn check_type(e: &Engine, op: OpId, v: &Value, ty: mlir_ir::types::TypeId) -> Result<()> {
    if let (Value::Array(d), mlir_ir::types::TypeKind::RankedTensor { shape, elem, .. }) = (v, e.m.ctx.type_kind(ty)) {
        let same = shape.len() == d.shape().len() && shape.iter().zip(d.shape()).all(|(a, b)| *a == *b as i64);
        if !same || crate::operands::lane_of(e, *elem).is_some_and(|l| l != d.lane()) {
            return Err(require(
                op,
                format!(
                    "the variable holds a {:?} tensor of {:?}, read as {}",
                    d.shape(),
                    d.lane(),
                    mlir_ir::printer::type_to_string(&e.m.ctx, ty)
                ),
            ));
        }
    }
    Ok(())
}

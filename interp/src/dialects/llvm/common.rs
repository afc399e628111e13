//! What the llvm dialect's files share: error constructors, type
//! attributes, the data layout and vector shapes.

use crate::error::{Error, ErrorKind, Result};
use crate::exec::Engine;
use crate::value::Value;
use mlir_ir::attrs::Attribute;
use mlir_ir::datalayout;
use mlir_ir::ir::OpId;
use mlir_ir::types::{TypeId, TypeKind};

/// The lane counts of vector type `ty` (scalable dims times vscale).
pub(super) fn vector_dims_of(e: &Engine, op: OpId, ty: TypeId) -> Result<Vec<usize>> {
    let TypeKind::Vector { shape, scalable, .. } = e.m.ctx.type_kind(ty) else {
        return Err(Error::unverified(op, "expected a vector type"));
    };
    let vs = e.cfg.vscale as usize;
    Ok(shape.iter().zip(scalable).map(|(n, s)| (*n).max(0) as usize * if *s { vs } else { 1 }).collect())
}

/// Lane `k` of a vector operand of a lane-wise op: an element of a vector
/// of numbers, a pointer of a vector of pointers (kept as an aggregate of
/// its lanes), and a scalar operand as itself, broadcast to every lane.
pub(super) fn lane_value(v: &Value, k: usize) -> Option<Value> {
    match v {
        Value::Array(d) if k < d.len() => Some(Value::from_scalar(d.get(k))),
        Value::Agg(xs) => xs.get(k).cloned(),
        Value::Array(_) => None,
        v => Some(v.clone()),
    }
}

/// The `n` lanes of a vector of pointers (a poison vector has poison lanes).
pub(super) fn ptr_lanes(op: OpId, v: &Value, n: usize) -> Result<Vec<Value>> {
    match v {
        Value::Agg(xs) if xs.len() == n => Ok(xs.to_vec()),
        // Poison of a vector type is built lane by lane as numbers are.
        Value::Array(d) if d.len() == n => Ok(d.iter().map(Value::from_scalar).collect()),
        v if v.as_poison().is_some() => Ok(vec![v.clone(); n]),
        _ => Err(Error::unverified(op, format!("expected a vector of {n} pointers"))),
    }
}

/// An unsupported-construct error at `op`.
pub(super) fn unsupported(op: OpId, what: impl Into<String>) -> Error {
    Error::at(op, ErrorKind::Unsupported(what.into()))
}

/// The type attribute `name` of `op`.
pub(super) fn type_attr(e: &Engine, op: OpId, name: &str) -> Result<TypeId> {
    match e.m.attr(op, name).map(|a| e.m.ctx.attr_kind(a)) {
        Some(Attribute::Type(t)) => Ok(*t),
        _ => Err(Error::unverified(op, format!("missing type attribute '{name}'"))),
    }
}

/// The layout of `ty`; a module that sets its own data layout is not
/// modelled (mlir-runner would follow it).
pub(super) fn layout(e: &Engine, op: OpId, ty: TypeId) -> Result<datalayout::Layout> {
    check_default_layout(e, op)?;
    datalayout::layout(&e.m.ctx, ty, e.cfg.index_bits).map_err(|msg| unsupported(op, msg))
}

/// Fails when the module sets its own data layout.
pub(super) fn check_default_layout(e: &Engine, op: OpId) -> Result<()> {
    match datalayout::custom_layout(e.m) {
        Some(name) => Err(unsupported(
            op,
            format!("the module's '{name}' attribute (only LLVM's default data layout is modelled)"),
        )),
        None => Ok(()),
    }
}

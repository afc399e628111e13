//! Values between their MLIR form and the form MLIR's LLVM lowering gives
//! them, for `builtin.unrealized_conversion_cast` (a partly lowered module
//! mixes both) and for runtime functions called with lowered arguments.
//!
//! - A ranked memref is its descriptor struct `{allocated ptr, aligned
//!   ptr, offset, sizes[rank], strides[rank]}`; an unranked one is
//!   `{rank, pointer to a ranked descriptor in memory}`.
//! - An n-D vector is nested arrays of its innermost 1-D vectors.
//! - A complex number is the struct `{re, im}`.
//! - A float of a format LLVM has no type for is the integer of its bits.
//!
//! The allocated pointer of a descriptor made here points at the start of
//! the buffer, the aligned one at the memref's base byte. Reading a
//! descriptor back takes its buffer from the aligned pointer (the one
//! every access goes through).

use crate::error::{Error, ErrorKind, Result};
use crate::exec::Engine;
use crate::memory::{AllocKind, Elem, Lane, MemRef, Ptr};
use crate::operands::elem_of;
use crate::value::{Int, Packed, Scalar, Value};
use mlir_ir::ir::OpId;
use mlir_ir::types::{TypeId, TypeKind};
use std::rc::Rc;

/// `v` of type `from` as a value of type `to`: the same value when both
/// types have one form here, else converted between the MLIR and LLVM
/// forms (in either direction).
pub fn convert(e: &mut Engine, op: OpId, v: Value, from: TypeId, to: TypeId) -> Result<Value> {
    let ctx = &e.m.ctx;
    // A float type the LLVM lowering has no type for (the small formats)
    // becomes the integer of its width: the same bits.
    let scalar_kind = |t: TypeId| match ctx.type_kind(e.elem_type(t)) {
        TypeKind::Float(k) => Some(Ok(*k)),
        TypeKind::Integer { width, .. } => Some(Err(*width)),
        _ => None,
    };
    if let (Some(a), Some(b)) = (scalar_kind(from), scalar_kind(to)) {
        if a.is_ok() != b.is_ok() {
            let lane = |x: &Scalar| -> Scalar {
                match (x, b) {
                    (Scalar::Float(f), Err(w)) => Scalar::Int(Int::from_u128(w, f.bits)),
                    (Scalar::Int(i), Ok(k)) => Scalar::Float(crate::float::from_bits(k, i.bits128().unwrap_or(0))),
                    (x, _) => x.clone(),
                }
            };
            return match &v {
                Value::Scalar(_) | Value::Wide(_) => {
                    Ok(Value::from_scalar(lane(&v.scalar().ok_or_else(|| Error::unverified(op, "a scalar"))?)))
                }
                Value::Array(d) => crate::operands::array(op, d.shape(), d.iter().map(|x| lane(&x)).collect()),
                _ => Ok(v),
            };
        }
    }
    // A function value and its address (a lowered `func.constant`).
    match (&v, ctx.type_kind(to)) {
        (Value::Func(f), TypeKind::LlvmPtr(_)) => return Ok(Value::Ptr(e.func_pointer(op, *f)?)),
        (Value::Ptr(p), TypeKind::Function { .. }) => {
            return e.func_at(p).map(Value::Func).ok_or_else(|| {
                Error::at(op, ErrorKind::Ub("a conversion cast of a pointer that is not a function's address".into()))
            })
        }
        _ => {}
    }
    let is_llvm = |t: TypeId| matches!(ctx.type_kind(t), TypeKind::LlvmStruct { .. } | TypeKind::LlvmArray { .. });
    if is_llvm(from) == is_llvm(to) || v.as_poison().is_some() {
        return Ok(v);
    }
    if let Some(Scalar::Complex(c)) = v.scalar() {
        let (re, im) = c.parts();
        return Ok(Value::Agg(Rc::from(vec![Value::float(re), Value::float(im)])));
    }
    match (v, ctx.type_kind(from).clone(), ctx.type_kind(to).clone()) {
        (Value::Memref(m), TypeKind::MemRef { .. }, _) => Ok(ranked_struct(&m)),
        (Value::Memref(m), TypeKind::UnrankedMemRef { .. }, _) => unranked_struct(e, op, &m),
        (Value::Agg(fs), _, TypeKind::MemRef { elem, .. }) => {
            let elem = elem_of(e, op, elem)?;
            Ok(Value::Memref(Rc::new(from_fields(op, &fs, elem, "a conversion cast")?)))
        }
        (Value::Agg(fs), _, TypeKind::UnrankedMemRef { elem, .. }) => {
            let elem = elem_of(e, op, elem)?;
            let (Some(rank), Some(Value::Ptr(d))) = (fs.first().and_then(Value::as_int), fs.get(1)) else {
                return Err(Error::unverified(op, "an unranked memref descriptor is {rank, pointer}"));
            };
            let rank = rank.to_i64().ok_or_else(|| Error::unverified(op, "bad rank"))?;
            Ok(Value::Memref(Rc::new(read_ranked(e, op, rank, d, elem, "a conversion cast")?)))
        }
        (Value::Array(d), TypeKind::Vector { .. }, _) => {
            let lanes: Vec<Scalar> = d.iter().collect();
            nest(op, d.shape(), &lanes)
        }
        (v @ Value::Agg(_), _, TypeKind::Vector { shape, .. }) => {
            let mut lanes = Vec::new();
            flatten(op, &v, &mut lanes)?;
            let dims: Vec<usize> = shape.iter().map(|d| (*d).max(0) as usize).collect();
            crate::operands::array(op, &dims, lanes)
        }
        (Value::Agg(fs), _, TypeKind::Complex(_)) => {
            match (fs.first().and_then(Value::as_float), fs.get(1).and_then(Value::as_float)) {
                (Some(re), Some(im)) => Ok(Value::from_scalar(Scalar::complex(re, im))),
                _ => Ok(Value::poison(op)),
            }
        }
        _ => {
            let (f, t) = (mlir_ir::printer::type_to_string(ctx, from), mlir_ir::printer::type_to_string(ctx, to));
            Err(Error::at(op, ErrorKind::Unsupported(format!("a conversion cast from {f} to {t}"))))
        }
    }
}

/// A 64-bit integer value.
fn i64v(x: i64) -> Value {
    Value::int(Int::from_i128(64, i128::from(x)))
}

/// The descriptor struct of ranked memref `m`.
pub fn ranked_struct(m: &MemRef) -> Value {
    let allocated = Value::Ptr(Ptr { buf: Some(m.buf.clone()), offset: 0 });
    let aligned = Value::Ptr(Ptr { buf: Some(m.buf.clone()), offset: m.base as i64 });
    let mut fields = vec![allocated, aligned, i64v(m.offset)];
    if m.rank() > 0 {
        fields.push(Value::Agg(m.sizes.iter().map(|x| i64v(*x)).collect()));
        fields.push(Value::Agg(m.strides.iter().map(|x| i64v(*x)).collect()));
    }
    Value::Agg(Rc::from(fields))
}

/// `{rank, pointer}` to a ranked descriptor of `m` written to fresh memory
/// (as the lowering stores it on the stack; here it lives for the run).
fn unranked_struct(e: &mut Engine, op: OpId, m: &MemRef) -> Result<Value> {
    let r = m.rank();
    let buf = e.mem.new_buffer(op, 24 + 16 * r, AllocKind::Tensor, 8)?;
    {
        let mut b = buf.borrow_mut();
        let mut put =
            |at: usize, x: u64| b.write_lane(at, Lane::Int(64), &Scalar::Int(Int::from_u128(64, u128::from(x))));
        let base = m.buf.borrow().addr;
        put(0, base);
        put(8, base + m.base as u64);
        put(16, m.offset as u64);
        for (k, (s, t)) in m.sizes.iter().zip(&m.strides).enumerate() {
            put(24 + 8 * k, *s as u64);
            put(24 + 8 * (r + k), *t as u64);
        }
    }
    let rank = Value::int(Int::from_u128(64, r as u128));
    Ok(Value::Agg(Rc::from(vec![rank, Value::Ptr(Ptr { buf: Some(buf), offset: 0 })])))
}

/// A memref from the fields of a ranked descriptor struct.
fn from_fields(op: OpId, fs: &[Value], elem: Elem, what: &str) -> Result<MemRef> {
    let int = |v: Option<&Value>| match v.and_then(Value::scalar) {
        Some(Scalar::Int(i)) => {
            i.to_u64().map(|x| x as i64).ok_or_else(|| Error::unverified(op, "bad descriptor field"))
        }
        Some(Scalar::Poison(p)) => Err(Error::at(
            op,
            ErrorKind::Poison { what: format!("a memref descriptor field read by {what}"), origin: p.0 },
        )),
        _ => Err(Error::unverified(op, "bad descriptor field")),
    };
    let ints = |v: Option<&Value>| -> Result<Vec<i64>> {
        match v {
            None => Ok(Vec::new()),
            Some(Value::Agg(xs)) => xs.iter().map(|x| int(Some(x))).collect(),
            Some(x) => int(Some(x)).map(|x| vec![x]),
        }
    };
    let aligned = match fs.get(1) {
        Some(Value::Ptr(p)) => p.clone(),
        Some(Value::Scalar(Packed::Poison(p))) => {
            let what = format!("the aligned pointer of a memref descriptor read by {what}");
            return Err(Error::at(op, ErrorKind::Poison { what, origin: p.0 }));
        }
        _ => return Err(Error::unverified(op, "a memref descriptor without an aligned pointer")),
    };
    let (offset, sizes, strides) = (int(fs.get(2))?, ints(fs.get(3))?, ints(fs.get(4))?);
    memref_at(op, &aligned, elem, offset, sizes, strides, what)
}

/// The memref whose aligned pointer is `aligned`.
fn memref_at(
    op: OpId,
    aligned: &Ptr,
    elem: Elem,
    offset: i64,
    sizes: Vec<i64>,
    strides: Vec<i64>,
    what: &str,
) -> Result<MemRef> {
    let Some(buf) = aligned.buf.clone() else {
        let msg = format!("{what} of a memref whose aligned pointer ({:#x}) is in no allocation", aligned.offset);
        return Err(Error::at(op, ErrorKind::Ub(msg)));
    };
    let base = usize::try_from(aligned.offset).map_err(|_| {
        Error::at(op, ErrorKind::Ub(format!("{what} of a memref whose aligned pointer is before its allocation")))
    })?;
    Ok(MemRef { buf, elem: Rc::new(elem), base, offset, sizes, strides, map: None, view: true })
}

/// The `i64` at byte `off` from `p`.
fn read_i64(e: &Engine, op: OpId, p: &Ptr, off: i64, what: &str) -> Result<i64> {
    let at = Value::Ptr(Ptr { buf: p.buf.clone(), offset: p.offset.wrapping_add(off) });
    let (buf, i) = crate::operands::place(e, op, &at, 8, &format!("{what} reading a memref descriptor"))?;
    let s = buf.borrow().read_lane(i, Lane::Int(64));
    match s {
        Scalar::Int(v) => Ok(v.to_u64().unwrap_or(0) as i64),
        Scalar::Poison(origin) => Err(Error::at(
            op,
            ErrorKind::Poison { what: format!("read by {what} from a memref descriptor"), origin: origin.0 },
        )),
        _ => Err(Error::unverified(op, "bad descriptor field")),
    }
}

/// The pointer stored at byte `off` from `p`.
pub fn read_ptr(e: &Engine, op: OpId, p: &Ptr, off: i64, what: &str) -> Result<Ptr> {
    let a = read_i64(e, op, p, off, what)?;
    Ok(e.mem.resolve(a as u64))
}

/// The rank stored at the start of an unranked descriptor `{rank, ptr}`.
pub fn read_rank(e: &Engine, op: OpId, p: &Ptr, what: &str) -> Result<i64> {
    read_i64(e, op, p, 0, what)
}

/// The memref described by the ranked descriptor in memory at `d`.
pub fn read_ranked(e: &Engine, op: OpId, rank: i64, d: &Ptr, elem: Elem, what: &str) -> Result<MemRef> {
    let rank = usize::try_from(rank)
        .ok()
        .filter(|r| *r <= 64)
        .ok_or_else(|| Error::unverified(op, format!("{what}: bad rank {rank}")))?;
    let aligned = read_ptr(e, op, d, 8, what)?;
    let offset = read_i64(e, op, d, 16, what)?;
    let field = |k: usize| read_i64(e, op, d, 24 + 8 * k as i64, what);
    let sizes = (0..rank).map(field).collect::<Result<Vec<_>>>()?;
    let strides = (rank..2 * rank).map(field).collect::<Result<Vec<_>>>()?;
    memref_at(op, &aligned, elem, offset, sizes, strides, what)
}

/// Nested arrays of 1-D vectors holding `lanes` of shape `shape`.
fn nest(op: OpId, shape: &[usize], lanes: &[Scalar]) -> Result<Value> {
    match shape {
        [] | [_] => crate::operands::array(op, shape, lanes.to_vec()),
        [n, rest @ ..] => {
            let step = rest.iter().product::<usize>();
            let parts =
                (0..*n).map(|k| nest(op, rest, &lanes[k * step..(k + 1) * step])).collect::<Result<Vec<_>>>()?;
            Ok(Value::Agg(Rc::from(parts)))
        }
    }
}

/// The lanes of nested arrays of vectors, in order.
fn flatten(op: OpId, v: &Value, out: &mut Vec<Scalar>) -> Result<()> {
    match v {
        Value::Agg(parts) => parts.iter().try_for_each(|p| flatten(op, p, out)),
        Value::Array(d) => {
            out.extend(d.iter());
            Ok(())
        }
        _ => Err(Error::unverified(op, "expected nested arrays of vectors")),
    }
}

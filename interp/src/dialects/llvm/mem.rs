//! Memory as the llvm dialect sees it: typed loads and stores of any
//! first-class type at LLVM's default data layout (integers, floats,
//! pointers, vectors, structs and arrays: a memref descriptor is a
//! struct), `llvm.alloca`, aggregates (`insertvalue`/`extractvalue`, and
//! the poison/zero values of aggregate types), and pointer/integer casts.
//!
//! A pointer stored in memory is its address (8 bytes, little-endian); a
//! pointer loaded back, or made by `inttoptr`, gets the allocation that
//! address lies in (one past the end included), so addresses that came
//! from a real allocation round-trip through integers and memory with
//! their provenance. An address in no allocation makes a pointer that is
//! undefined behaviour to dereference.

use super::common::{check_default_layout, layout, type_attr, unsupported, vector_dims_of};
use crate::error::{Error, ErrorKind, Result};
use crate::exec::Engine;
use crate::memory::{mem_ub, AllocKind, Buffer, Lane, Ptr, CONSTANT_GLOBAL};
use crate::operands::{alloc_name, place};
use crate::value::{Int, Packed, Scalar, Value};
use mlir_ir::attrs::{AttrId, Attribute};
use mlir_ir::datalayout;
use mlir_ir::ir::{OpId, ValueDef};
use mlir_ir::ops::OpKind;
use mlir_ir::types::{LlvmStructBody, TypeId, TypeKind};
use std::rc::Rc;

/// The most fields or elements an aggregate value may have: larger ones
/// (an `!llvm.array<1000000 x i8>` loaded whole) are refused rather than
/// built value by value.
const MAX_AGGREGATE: u64 = 1 << 16;

/// What a value of `ty` is made of, when it is an aggregate: its member
/// types in order.
fn members(e: &Engine, op: OpId, ty: TypeId) -> Result<Option<Vec<TypeId>>> {
    Ok(match e.m.ctx.type_kind(ty) {
        TypeKind::LlvmStruct { body: LlvmStructBody::Fields(fs), .. } => Some(fs.clone()),
        TypeKind::LlvmStruct { .. } => return Err(unsupported(op, "values of opaque or recursive struct types")),
        &TypeKind::LlvmArray { len, elem } => {
            if len > MAX_AGGREGATE {
                return Err(unsupported(op, format!("array values of {len} elements (at most {MAX_AGGREGATE})")));
            }
            Some(vec![elem; len as usize])
        }
        _ => None,
    })
}

/// The byte offset of each member of aggregate type `ty`.
fn offsets(e: &Engine, op: OpId, ty: TypeId) -> Result<Vec<u64>> {
    match e.m.ctx.type_kind(ty).clone() {
        TypeKind::LlvmStruct { packed, body: LlvmStructBody::Fields(fs), .. } => {
            layout(e, op, ty)?;
            let (offs, _, _) =
                datalayout::struct_layout(&e.m.ctx, &fs, packed, e.cfg.index_bits).map_err(|m| unsupported(op, m))?;
            Ok(offs)
        }
        TypeKind::LlvmArray { len, elem } => {
            let step = layout(e, op, elem)?.alloc;
            Ok((0..len.min(MAX_AGGREGATE)).map(|k| k * step).collect())
        }
        _ => Err(Error::unverified(op, "not an aggregate type")),
    }
}

/// A value of type `ty` every part of which is `leaf(scalar type)`:
/// poison or zero of a struct, array or vector type.
fn uniform(e: &Engine, op: OpId, ty: TypeId, leaf: &dyn Fn(TypeId) -> Result<Value>) -> Result<Value> {
    if let Some(ms) = members(e, op, ty)? {
        let vals = ms.iter().map(|t| uniform(e, op, *t, leaf)).collect::<Result<Vec<_>>>()?;
        return Ok(Value::Agg(Rc::from(vals)));
    }
    match e.m.ctx.type_kind(ty) {
        TypeKind::Vector { elem, .. } => {
            let dims = vector_dims_of(e, op, ty)?;
            let l = leaf(*elem)?;
            match l.scalar() {
                Some(s) => crate::operands::filled(e, op, &dims, &s),
                // A vector of pointers holds its lanes as an aggregate.
                None => Ok(Value::Agg(vec![l; dims.iter().product()].into())),
            }
        }
        _ => leaf(ty),
    }
}

/// Poison of type `ty` (aggregates hold poison in every member).
pub(super) fn poison_of(e: &Engine, op: OpId, ty: TypeId) -> Result<Value> {
    uniform(e, op, ty, &|_| Ok(Value::poison(op)))
}

/// `llvm.mlir.zero : T`: zero, +0.0 and null in every member.
pub(super) fn zero_of(e: &Engine, op: OpId, ty: TypeId) -> Result<Value> {
    uniform(e, op, ty, &|t| match e.m.ctx.type_kind(t) {
        TypeKind::Integer { width, .. } => Ok(Value::int(Int::from_u128(*width, 0))),
        TypeKind::Index => Ok(Value::int(Int::from_u128(e.cfg.index_bits, 0))),
        TypeKind::Float(k) => Ok(Value::float(crate::float::from_bits(*k, 0))),
        TypeKind::LlvmPtr(_) => Ok(Value::Ptr(Ptr::null())),
        _ => {
            let name = mlir_ir::printer::type_to_string(&e.m.ctx, t);
            Err(unsupported(op, format!("llvm.mlir.zero of type {name}")))
        }
    })
}

/// `llvm.mlir.constant` of struct or array type `ty`: an array attribute
/// with one element per member (`[1.5 : f32, 2.0 : f32]` for a complex
/// number's struct), or a dense attribute whose elements fill the
/// aggregate's scalars in order (`dense<[[1, 2], [3, 4]]> : vector<2x2xi16>`
/// for `!llvm.array<2 x vector<2xi16>>`).
pub(super) fn aggregate_constant(e: &Engine, op: OpId, a: AttrId, ty: TypeId) -> Result<Value> {
    match e.m.ctx.attr_kind(a) {
        Attribute::Array(items) => {
            let ms = members(e, op, ty)?
                .ok_or_else(|| Error::unverified(op, "an array attribute for a non-aggregate type"))?;
            if ms.len() != items.len() {
                return Err(Error::unverified(
                    op,
                    format!("{} values for an aggregate of {} members", items.len(), ms.len()),
                ));
            }
            let vals = ms
                .iter()
                .zip(items.iter())
                .map(|(t, x)| match members(e, op, *t)? {
                    Some(_) => aggregate_constant(e, op, *x, *t),
                    None => e.attr_value(op, *x, *t),
                })
                .collect::<Result<Vec<_>>>()?;
            Ok(Value::Agg(Rc::from(vals)))
        }
        Attribute::Dense { ty: aty, .. } => {
            let v = e.attr_value(op, a, *aty)?;
            let lanes: Vec<Scalar> = match (&v, v.scalar()) {
                (Value::Array(d), _) => d.iter().collect(),
                (_, Some(s)) => vec![s],
                _ => return Err(Error::unverified(op, "a dense constant that is not numbers")),
            };
            let mut it = lanes.into_iter();
            let v = fill(e, op, ty, &mut it)?;
            if it.next().is_some() {
                return Err(Error::unverified(op, "more constant elements than the aggregate holds"));
            }
            Ok(v)
        }
        _ => Err(unsupported(op, "this attribute as an aggregate constant")),
    }
}

/// A value of type `ty` whose scalars are taken in order from `lanes`.
fn fill(e: &Engine, op: OpId, ty: TypeId, lanes: &mut impl Iterator<Item = Scalar>) -> Result<Value> {
    let short = || Error::unverified(op, "fewer constant elements than the aggregate holds");
    if let Some(ms) = members(e, op, ty)? {
        let vals = ms.iter().map(|t| fill(e, op, *t, lanes)).collect::<Result<Vec<_>>>()?;
        return Ok(Value::Agg(Rc::from(vals)));
    }
    match e.m.ctx.type_kind(ty) {
        &TypeKind::Vector { elem, .. } => {
            let dims = vector_dims_of(e, op, ty)?;
            let n: usize = dims.iter().product();
            let xs = lanes.take(n).map(|x| recast(e, op, x, elem)).collect::<Result<Vec<Scalar>>>()?;
            if xs.len() != n {
                return Err(short());
            }
            crate::operands::array(op, &dims, xs)
        }
        _ => Ok(Value::from_scalar(recast(e, op, lanes.next().ok_or_else(short)?, ty)?)),
    }
}

/// Element `x` of a dense initializer as an element of type `ty`, as
/// LLVM's translation of `llvm.mlir.global` builds it when the two types
/// differ (mlir-opt accepts that): an element of the same width keeps its
/// bits (the translation copies the attribute's raw data), an integer of
/// another width is sign-extended or truncated (`sextOrTrunc`; `i1` is
/// zero-extended, a true bit becomes 1). The verifier has rejected floats
/// of another width, which the translation rejects.
pub(super) fn recast(e: &Engine, op: OpId, x: Scalar, ty: TypeId) -> Result<Scalar> {
    let k = e.m.ctx.type_kind(ty);
    Ok(match (x, k) {
        (Scalar::Int(i), &TypeKind::Integer { width, .. }) if i.width() != width => {
            let v = if i.width() == 1 { i.to_ubig() } else { i.to_sbig() };
            Scalar::Int(Int::from_big(width, &v))
        }
        (Scalar::Float(f), &TypeKind::Integer { width, .. }) if f.kind.bit_width() == width => {
            Scalar::Int(Int::from_u128(width, f.bits))
        }
        (Scalar::Int(i), &TypeKind::Float(kind)) if i.width() == kind.bit_width() => {
            Scalar::Float(crate::float::from_bits(kind, i.bits128().unwrap_or(0)))
        }
        (Scalar::Int(i), TypeKind::Float(_)) => {
            let msg = format!(
                "a dense initializer of i{} elements for a global of {} elements (LLVM's translation makes it zeros)",
                i.width(),
                mlir_ir::printer::type_to_string(&e.m.ctx, ty)
            );
            return Err(unsupported(op, msg));
        }
        (x, _) => x,
    })
}

/// The members of aggregate `v` of type `ty` (a poison aggregate has a
/// poison member everywhere).
fn parts(e: &Engine, op: OpId, ty: TypeId, v: &Value) -> Result<Rc<[Value]>> {
    // A complex number stored as its `{re, im}` struct (a global's
    // `complex` initializer).
    if let Some(Scalar::Complex(c)) = v.scalar() {
        let (re, im) = c.parts();
        return Ok(Rc::from(vec![Value::float(re), Value::float(im)]));
    }
    match v {
        Value::Agg(fs) => Ok(fs.clone()),
        Value::Scalar(Packed::Poison(_)) => match poison_of(e, op, ty)? {
            Value::Agg(fs) => Ok(fs),
            _ => Err(Error::unverified(op, "not an aggregate type")),
        },
        _ => Err(Error::unverified(op, "expected a struct or array value")),
    }
}

/// The position attribute of `insertvalue`/`extractvalue`.
fn position(e: &Engine, op: OpId) -> Result<Vec<usize>> {
    let pos = e.i64s(op, "position")?;
    pos.iter().map(|p| usize::try_from(*p).map_err(|_| Error::unverified(op, "negative position"))).collect()
}

/// `llvm.extractvalue %agg[i, j]`.
pub(super) fn extract_value(e: &Engine, op: OpId, agg: &Value) -> Result<Value> {
    let mut ty = e.operand_type(op, 0).ok_or_else(|| Error::unverified(op, "llvm.extractvalue without an operand"))?;
    let mut v = agg.clone();
    for k in position(e, op)? {
        let fs = parts(e, op, ty, &v)?;
        let ms = members(e, op, ty)?.ok_or_else(|| Error::unverified(op, "position out of bounds"))?;
        v = fs.get(k).cloned().ok_or_else(|| Error::unverified(op, "position out of bounds"))?;
        ty = ms[k];
    }
    Ok(v)
}

/// `llvm.insertvalue %x, %agg[i, j]`: a copy of the aggregate with the
/// member at the position replaced.
pub(super) fn insert_value(e: &Engine, op: OpId, agg: &Value, x: &Value) -> Result<Value> {
    let ty = e.operand_type(op, 0).ok_or_else(|| Error::unverified(op, "llvm.insertvalue without an operand"))?;
    let pos = position(e, op)?;
    replace(e, op, ty, agg, &pos, x)
}

fn replace(e: &Engine, op: OpId, ty: TypeId, agg: &Value, pos: &[usize], x: &Value) -> Result<Value> {
    let Some((&k, rest)) = pos.split_first() else { return Ok(x.clone()) };
    let fs = parts(e, op, ty, agg)?;
    let ms = members(e, op, ty)?.ok_or_else(|| Error::unverified(op, "position out of bounds"))?;
    let (Some(old), Some(mt)) = (fs.get(k), ms.get(k)) else {
        return Err(Error::unverified(op, "position out of bounds"));
    };
    let new = replace(e, op, *mt, old, rest, x)?;
    let mut v: Vec<Value> = fs.to_vec();
    v[k] = new;
    Ok(Value::Agg(Rc::from(v)))
}

/// The storage lane of scalar type `ty`.
fn lane_of(e: &Engine, op: OpId, ty: TypeId) -> Result<Lane> {
    match e.m.ctx.type_kind(ty) {
        TypeKind::Integer { width, .. } => Ok(Lane::Int(*width)),
        TypeKind::Index => Ok(Lane::Int(e.cfg.index_bits)),
        TypeKind::Float(k) => Ok(Lane::Float(*k)),
        _ => {
            let t = mlir_ir::printer::type_to_string(&e.m.ctx, ty);
            Err(unsupported(op, format!("memory accesses of type {t}")))
        }
    }
}

/// The lane of a vector's elements in memory and its width in bits.
fn vector_lane(e: &Engine, op: OpId, elem: TypeId) -> Result<(Lane, u32)> {
    let lane = lane_of(e, op, elem)?;
    let bits = match lane {
        Lane::Int(w) => w,
        Lane::Float(k) => k.bit_width(),
        Lane::Complex(_) => return Err(unsupported(op, "vectors of complex numbers in memory")),
    };
    Ok((lane, bits))
}

/// Writes vector lanes at byte `at`: each at its own bytes, or, for lanes
/// narrower than a byte or not a whole number of bytes, as LLVM packs
/// them (lane `k` at bits `k * bits`, little-endian); a byte holding any
/// bit of a poison lane is poison.
fn write_lanes(b: &mut Buffer, at: usize, lane: Lane, bits: u32, lanes: &[Scalar]) -> Option<()> {
    if bits.is_multiple_of(8) {
        for (k, s) in lanes.iter().enumerate() {
            b.write_lane(at + k * lane.bytes(), lane, s)?;
        }
        return Some(());
    }
    let bits = bits as usize;
    let nbytes = (lanes.len() * bits).div_ceil(8);
    for j in 0..nbytes {
        let (lo, hi) = (8 * j, 8 * j + 8);
        let mut byte = 0u8;
        let mut poison = None;
        for (k, s) in lanes.iter().enumerate().skip(lo / bits).take_while(|(k, _)| k * bits < hi) {
            let v = match s {
                Scalar::Int(i) => i.bits128()?,
                Scalar::Float(f) => f.bits,
                Scalar::Poison(p) => {
                    poison = Some(*p);
                    continue;
                }
                Scalar::Complex(..) => return None,
            };
            for bit in 0..bits {
                let at_bit = k * bits + bit;
                if (lo..hi).contains(&at_bit) && v >> bit & 1 == 1 {
                    byte |= 1 << (at_bit - lo);
                }
            }
        }
        match poison {
            Some(p) => b.write_lane(at + j, Lane::Int(8), &Scalar::Poison(p))?,
            None => b.write_bytes(at + j, &[byte]),
        }
    }
    Some(())
}

/// Reads `n` vector lanes at byte `at`, the inverse of [`write_lanes`].
fn read_lanes(b: &Buffer, at: usize, lane: Lane, bits: u32, n: usize) -> Vec<Scalar> {
    if bits.is_multiple_of(8) {
        return (0..n).map(|k| b.read_lane(at + k * lane.bytes(), lane)).collect();
    }
    let bits = bits as usize;
    (0..n)
        .map(|k| {
            let mut v = 0u128;
            for bit in 0..bits {
                let at_bit = k * bits + bit;
                match b.byte(at + at_bit / 8) {
                    Ok(x) => v |= u128::from(x >> (at_bit % 8) & 1) << bit,
                    Err(p) => return Scalar::Poison(p),
                }
            }
            match lane {
                Lane::Float(kind) => Scalar::Float(crate::float::from_bits(kind, v)),
                _ => Scalar::Int(Int::from_u128(bits as u32, v)),
            }
        })
        .collect()
}

/// Writes `v` of type `ty` at byte `at` of `b` (in range).
pub(super) fn write(e: &Engine, op: OpId, b: &mut Buffer, at: usize, ty: TypeId, v: &Value) -> Result<()> {
    let bad = || Error::unverified(op, "stored value does not match its type");
    if let Some(ms) = members(e, op, ty)? {
        let fs = parts(e, op, ty, v)?;
        for ((t, off), f) in ms.iter().zip(offsets(e, op, ty)?).zip(fs.iter()) {
            write(e, op, b, at + off as usize, *t, f)?;
        }
        return Ok(());
    }
    match (e.m.ctx.type_kind(ty), v) {
        (TypeKind::LlvmPtr(_), Value::Ptr(p)) => {
            let addr = p.addr_in(b);
            b.write_lane(at, Lane::Int(64), &Scalar::Int(Int::from_u128(64, u128::from(addr)))).ok_or_else(bad)
        }
        (TypeKind::LlvmPtr(_), Value::Scalar(Packed::Poison(p))) => {
            b.write_lane(at, Lane::Int(64), &Scalar::Poison(*p)).ok_or_else(bad)
        }
        (TypeKind::Vector { elem, .. }, Value::Array(_) | Value::Scalar(Packed::Poison(_))) => {
            let (lane, bits) = vector_lane(e, op, *elem)?;
            let lanes: Vec<Scalar> = match v {
                Value::Array(d) => d.iter().collect(),
                Value::Scalar(s) => vec![s.unpack(); vector_dims_of(e, op, ty)?.iter().product()],
                _ => return Err(bad()),
            };
            write_lanes(b, at, lane, bits, &lanes).ok_or_else(bad)
        }
        (_, Value::Scalar(_) | Value::Wide(_)) => {
            b.write_lane(at, lane_of(e, op, ty)?, &v.scalar().ok_or_else(bad)?).ok_or_else(bad)
        }
        _ => Err(bad()),
    }
}

/// Reads a value of type `ty` at byte `at` of `b` (in range).
fn read(e: &Engine, op: OpId, b: &Buffer, at: usize, ty: TypeId) -> Result<Value> {
    if let Some(ms) = members(e, op, ty)? {
        let vals = ms
            .iter()
            .zip(offsets(e, op, ty)?)
            .map(|(t, off)| read(e, op, b, at + off as usize, *t))
            .collect::<Result<Vec<_>>>()?;
        return Ok(Value::Agg(Rc::from(vals)));
    }
    match e.m.ctx.type_kind(ty) {
        TypeKind::LlvmPtr(_) => Ok(match b.read_lane(at, Lane::Int(64)) {
            Scalar::Int(a) => Value::Ptr(e.mem.resolve(a.to_u64().unwrap_or(0))),
            s => Value::from_scalar(s),
        }),
        TypeKind::Vector { elem, .. } => {
            let (lane, bits) = vector_lane(e, op, *elem)?;
            let dims = vector_dims_of(e, op, ty)?;
            let lanes = read_lanes(b, at, lane, bits, dims.iter().product());
            crate::operands::array(op, &dims, lanes)
        }
        _ => Ok(Value::from_scalar(b.read_lane(at, lane_of(e, op, ty)?))),
    }
}

/// The alignment an access of `ty` by `op` assumes: its `alignment`
/// attribute, else the type's ABI alignment. Only the ops that define
/// `alignment` read it: on the va_* intrinsics it is a discardable
/// attribute, which means nothing.
fn alignment(e: &Engine, op: OpId, ty: TypeId) -> Result<u64> {
    let inherent = matches!(
        e.m.op(op).name.kind,
        OpKind::LlvmLoad | OpKind::LlvmStore | OpKind::LlvmAtomicrmw | OpKind::LlvmCmpxchg
    );
    let attr = if inherent { e.ints_attr(op, "alignment")? } else { None };
    match attr.and_then(|v| v.first().copied()) {
        Some(a) if a > 0 => Ok(a as u64),
        _ => Ok(layout(e, op, ty)?.align),
    }
}

/// The buffer and byte offset of an access of `ty` through `p`: undefined
/// behaviour through poison, null, freed memory, out of bounds, or at an
/// address not aligned as the access assumes.
fn access(e: &Engine, op: OpId, p: &Value, ty: TypeId, what: &str) -> Result<(Rc<std::cell::RefCell<Buffer>>, usize)> {
    let l = layout(e, op, ty)?;
    let n = usize::try_from(l.store).map_err(|_| unsupported(op, "an access this large"))?;
    access_bytes(e, op, p, n, alignment(e, op, ty)?, what)
}

/// The buffer and byte offset of an `n`-byte access through `p` that
/// assumes `align`: undefined behaviour as for [`access`].
pub(super) fn access_bytes(
    e: &Engine,
    op: OpId,
    p: &Value,
    n: usize,
    align: u64,
    what: &str,
) -> Result<(Rc<std::cell::RefCell<Buffer>>, usize)> {
    let (buf, at) = place(e, op, p, n, what)?;
    let align = align.max(1);
    let addr = buf.borrow().addr + at as u64;
    if !addr.is_multiple_of(align) {
        let origin = buf.borrow().origin;
        // An alloca that names no alignment has the one LLVM gives it; say
        // which, since the IR does not show it.
        let unnamed = e.m.op(origin).name.kind == OpKind::LlvmAlloca && e.m.attr(origin, "alignment").is_none();
        let has = if unnamed {
            type_attr(e, origin, "elem_type").and_then(|t| alloca_alignment(e, origin, t)).ok()
        } else {
            None
        };
        let why = match has {
            Some(has) if is_static_alloca(e, origin) => format!(
                "; the llvm.alloca names no alignment, so as a static alloca (constant count, entry block) \
                 it has its type's preferred alignment, {has} byte(s)"
            ),
            Some(_) => format!(
                "; the llvm.alloca names no alignment, and as a dynamic alloca it starts {STACK_ALIGN}-byte aligned"
            ),
            None => String::new(),
        };
        return Err(mem_ub(
            op,
            origin,
            format!(
                "misaligned {what}: address {addr:#x} (offset {at} of {}) is not {align}-byte aligned{why}",
                alloc_name(e, origin)
            ),
        ));
    }
    Ok((buf, at))
}

/// `llvm.load %p : !llvm.ptr -> T`.
pub(super) fn load(e: &Engine, op: OpId, p: &Value) -> Result<Value> {
    load_typed(e, op, p, e.result_type(op, 0), "llvm.load")
}

/// `llvm.store %v, %p : T, !llvm.ptr`.
pub(super) fn store(e: &Engine, op: OpId, v: &Value, p: &Value) -> Result<()> {
    let ty = e.operand_type(op, 0).ok_or_else(|| Error::unverified(op, "llvm.store without a value"))?;
    store_typed(e, op, p, ty, v, "llvm.store")
}

/// A load of a `ty` through `p` by `op` (named `what` in messages).
pub(super) fn load_typed(e: &Engine, op: OpId, p: &Value, ty: TypeId, what: &str) -> Result<Value> {
    let (buf, at) = access(e, op, p, ty, what)?;
    let b = buf.borrow();
    read(e, op, &b, at, ty)
}

/// A store of `v` of type `ty` through `p` by `op`.
pub(super) fn store_typed(e: &Engine, op: OpId, p: &Value, ty: TypeId, v: &Value, what: &str) -> Result<()> {
    let (buf, at) = access(e, op, p, ty, what)?;
    let mut b = buf.borrow_mut();
    if let Some(why) = b.read_only {
        let origin = b.origin;
        drop(b);
        let name = alloc_name(e, origin);
        let msg = if why == CONSTANT_GLOBAL {
            format!("{what} into the constant global {name}")
        } else {
            format!("{what} into {why} ({name})")
        };
        return Err(mem_ub(op, origin, msg));
    }
    write(e, op, &mut b, at, ty, v)
}

/// `llvm.alloca %n x T`: stack memory for `n` values of `T`, freed when
/// the function returns (or at an `llvm.intr.stackrestore` before it).
pub(super) fn alloca(e: &mut Engine, op: OpId, n: &Value) -> Result<Value> {
    e.observe(op, n, "used as the element count of llvm.alloca")?;
    let Some(Scalar::Int(n)) = n.scalar() else {
        return Err(Error::unverified(op, "llvm.alloca count is not an integer"));
    };
    let ty = type_attr(e, op, "elem_type")?;
    let l = layout(e, op, ty)?;
    let too_big = || {
        Error::at(
            op,
            ErrorKind::Resource(format!("llvm.alloca of {} elements of {} bytes is too large", n.to_ubig(), l.alloc)),
        )
    };
    let bytes =
        n.to_u64().and_then(|n| n.checked_mul(l.alloc)).and_then(|b| usize::try_from(b).ok()).ok_or_else(too_big)?;
    let align = alloca_alignment(e, op, ty)?;
    let align = if is_static_alloca(e, op) { align } else { align.max(STACK_ALIGN) };
    let buf = e.mem.new_buffer_exact(op, bytes, AllocKind::Alloca, align)?;
    Ok(Value::Ptr(Ptr { buf: Some(buf), offset: 0 }))
}

/// The alignment `llvm.alloca` `op` of `ty` names: its `alignment`
/// attribute, else the type's preferred alignment (what LLVM writes in).
fn alloca_alignment(e: &Engine, op: OpId, ty: TypeId) -> Result<u64> {
    match e.ints_attr(op, "alignment")?.and_then(|v| v.first().copied()) {
        Some(a) if a > 0 => Ok(a as u64),
        _ => {
            check_default_layout(e, op)?;
            datalayout::pref_align(&e.m.ctx, ty, e.cfg.index_bits).map_err(|m| unsupported(op, m))
        }
    }
}

/// The stack alignment of mlir-runner's target, x86-64 (System V ABI):
/// LLVM keeps the stack pointer aligned to it, so every dynamically sized
/// allocation on the stack starts at a multiple of it.
const STACK_ALIGN: u64 = 16;

/// Whether `op` is what LLVM calls a static alloca (`isStaticAlloca`): in
/// its function's entry block with a constant count. LLVM gives a static
/// alloca a slot of the frame aligned as the alloca says (its `alignment`,
/// else the preferred alignment of its type, which MLIR's translation
/// writes in), and no more; any other alloca moves the stack pointer, so
/// it starts at [`STACK_ALIGN`]. LangRef lets the target choose ("the
/// value result of the allocation is guaranteed to be aligned to at least
/// that boundary"), and this is mlir-runner's choice. It matters for
/// MLIR's own lowerings of unranked memrefs (`memref.reshape` to an
/// unranked result, unranked call results): they allocate the descriptor
/// as `llvm.alloca %size x i8` (align 1) and store pointers and `i64`s
/// into it, which is well-defined at the address x86-64 gives it. A count
/// IRBuilder would fold to a constant (arithmetic on constants) is not
/// seen as constant here, so such an alloca gets the larger alignment.
fn is_static_alloca(e: &Engine, op: OpId) -> bool {
    let m = e.m;
    let constant_count = m.operands(op).first().is_some_and(|v| match m.value(*v).def {
        ValueDef::Result(d, _) => matches!(m.op(d).name.kind, OpKind::LlvmConstant | OpKind::ArithConstant),
        ValueDef::Arg(..) => false,
    });
    let entry = m.op(op).parent.is_some_and(|b| {
        let r = m.block(b).parent;
        r.is_some_and(|r| {
            m.region(r).blocks.first() == Some(&b)
                && m.region(r).parent.is_some_and(|f| matches!(m.op(f).name.kind, OpKind::LlvmFunc | OpKind::FuncFunc))
        })
    });
    constant_count && entry
}

/// `llvm.ptrtoint`: the address, truncated or zero-extended to the
/// result's width.
pub(super) fn ptr_to_int(e: &Engine, op: OpId, p: &Value) -> Result<Value> {
    let w = e.int_width(e.result_type(op, 0)).ok_or_else(|| unsupported(op, "llvm.ptrtoint to a vector"))?;
    match p {
        Value::Ptr(p) => Ok(Value::int(Int::from_u128(w, u128::from(p.addr())))),
        Value::Scalar(Packed::Poison(x)) => Ok(Value::from_scalar(Scalar::Poison(*x))),
        _ => Err(unsupported(op, "llvm.ptrtoint of a vector of pointers")),
    }
}

/// `llvm.inttoptr`: the pointer into the allocation at that address.
pub(super) fn int_to_ptr(e: &Engine, op: OpId, i: &Value) -> Result<Value> {
    match i.scalar() {
        Some(Scalar::Int(a)) => Ok(Value::Ptr(e.mem.resolve(a.to_ubig().iter_u64_digits().next().unwrap_or(0)))),
        Some(Scalar::Poison(x)) => Ok(Value::from_scalar(Scalar::Poison(x))),
        _ => Err(unsupported(op, "llvm.inttoptr of a vector")),
    }
}

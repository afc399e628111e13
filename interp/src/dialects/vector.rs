//! The `vector` dialect: vectors are `Value::Array`s that ops read and
//! rebuild, never mutate. The ops that touch memory (load/store, the masked,
//! gather and expand forms, transfers, `type_cast`) go through
//! `memory.rs`, so bounds, liveness and UB reports name the allocation;
//! their tensor forms are value semantics (see the book's "Vectors", "Vector
//! memory ops", docs/src/semantics/vector.md, for the bounds rules).
//!
//! Choices, with the LLVM 22 lowering (`convert-vector-to-llvm`) as the
//! reference:
//! - A dynamic `extract`/`insert` position that is out of bounds gives
//!   poison, as the `extractelement`/`insertelement` it lowers to do
//!   (LangRef, D47859): the extracted value, or the whole inserted vector.
//!   The static position -1 is the documented poison index.
//! - `reduction` of floats is sequential in lane order, starting from the
//!   accumulator, or from +0.0 (`add`) / 1.0 (`mul`) without one: the
//!   lowering emits `llvm.vector.reduce.fadd/fmul` without `reassoc`, which
//!   is an ordered reduction with that start value. `minnumf`/`maxnumf`
//!   fold with maxnum semantics, `minimumf`/`maximumf` with NaN-propagating
//!   ones; the accumulator is combined last.
//! - `multi_reduction` and `contract` reduce sequentially in lexicographic
//!   order of the reduced indices, starting from the accumulator, with a
//!   separately rounded multiply and add (LLVM 22's default lowering:
//!   `mulf` then an ordered `vector.reduction` with the accumulator).
//!   Exception, for a float `add` contraction without mask whose operands
//!   share the accumulator's type: where that lowering reaches a matmul or
//!   matvec shape (`ContractionOpToDotLowering`, possibly after unrolling
//!   batch and free dimensions), it sums the products from +0.0 and adds
//!   the accumulator last, so the interpreter does the same
//!   (`contract_lowers_to_dot`). `contract` promotes lhs/rhs elements to the
//!   accumulator's type (sign-extension for integers).
//! - `outerproduct` with a float accumulator and kind `add` is a fused
//!   multiply-add (it lowers to `vector.fma`); otherwise the product is
//!   combined with the accumulator by the kind.
//! - `vector.mask` runs its one maskable op (reduction, multi_reduction,
//!   contract, outerproduct) with the mask: disabled lanes do not take part
//!   in a reduction (start values as above, or ±inf for a masked float
//!   min/max without accumulator), disabled lanes of a vector result take
//!   the passthru, else the accumulator.
//! - Poison lanes move with the data; an arithmetic op on a poison lane
//!   makes its result lane poison.

use crate::error::{Error, ErrorKind, Result};
use crate::exec::{Engine, Flow, Frame};
use crate::float::{self, Round};
use crate::memory::{self, MemRef};
use crate::runtime;
use crate::scalar::int_op;
use crate::value::{Builder, Dense, Int, Poison, Scalar, Value};
use mlir_ir::affine::AffineExpr;
use mlir_ir::attrs::Attribute;
use mlir_ir::ir::OpId;
use mlir_ir::ops::{OpKind, VectorOp};
use mlir_ir::types::{TypeId, TypeKind};
use num_bigint::BigUint;
use std::rc::Rc;

use crate::operands::{
    array, count, dense, dense_error, dense_error_as, i64s, index_args, index_or_poison, memref_arg, next_index,
    scalars, tabulate,
};
use crate::sem::fp::{maximumf, maxnumf};
use crate::sem::int::{addi, bitwise, maxsi, maxui, minsi, minui, muli, Out};

/// Executes one vector op.
pub fn exec(e: &mut Engine, fr: &mut Frame, op: OpId, kind: VectorOp) -> Result<Flow> {
    use VectorOp::*;
    match kind {
        Broadcast | Splat => broadcast(e, fr, op),
        FromElements => from_elements(e, fr, op),
        ToElements => to_elements(e, fr, op),
        Extract => extract(e, fr, op),
        Extractelement => {
            let pos = element_position(e, fr, op, 1)?;
            extract_at(e, fr, op, &pos)
        }
        Insert => insert(e, fr, op),
        Insertelement => {
            let pos = element_position(e, fr, op, 2)?;
            insert_at(e, fr, op, &pos)
        }
        ScalableExtract => scalable_extract(e, fr, op),
        ScalableInsert => scalable_insert(e, fr, op),
        ExtractStridedSlice => extract_strided_slice(e, fr, op),
        InsertStridedSlice => insert_strided_slice(e, fr, op),
        Shuffle => shuffle(e, fr, op),
        Interleave => interleave(e, fr, op),
        Deinterleave => deinterleave(e, fr, op),
        Transpose => transpose(e, fr, op),
        ShapeCast => shape_cast(e, fr, op),
        Bitcast => bitcast(e, fr, op),
        Step => step(e, fr, op),
        Vscale => e.assign(fr, op, Value::int(Int::from_u128(e.cfg.index_bits, u128::from(e.cfg.vscale)))),
        CreateMask => create_mask(e, fr, op),
        ConstantMask => constant_mask(e, fr, op),
        Mask => mask(e, fr, op),
        Yield => Ok(Flow::Exit(e.args(fr, op))),
        Reduction => reduction(e, fr, op, None),
        MultiReduction => multi_reduction(e, fr, op, None),
        Scan => scan(e, fr, op),
        Contract => contract(e, fr, op, None),
        Outerproduct => outerproduct(e, fr, op, None),
        Fma => fma(e, fr, op),
        Print => print(e, fr, op),
        Load => vload(e, fr, op),
        Store => vstore(e, fr, op),
        Maskedload => maskedload(e, fr, op),
        Maskedstore => maskedstore(e, fr, op),
        Gather => gather(e, fr, op),
        Scatter => scatter(e, fr, op),
        Expandload => expandload(e, fr, op),
        Compressstore => compressstore(e, fr, op),
        TransferRead => transfer_read(e, fr, op, None),
        TransferWrite => transfer_write(e, fr, op, None),
        TypeCast => type_cast(e, fr, op),
    }
}

// ---- shared helpers (also used by tensor.rs) ------------------------------

/// The static shape of a vector type, scalable dims scaled by `vscale`.
pub fn vector_dims(e: &Engine, op: OpId, ty: TypeId) -> Result<Vec<usize>> {
    match e.m.ctx.type_kind(ty) {
        TypeKind::Vector { shape, scalable, .. } => shape
            .iter()
            .enumerate()
            .map(|(i, d)| {
                let n = usize::try_from(*d).map_err(|_| Error::unverified(op, "negative vector dimension"))?;
                if scalable.get(i).copied().unwrap_or(false) {
                    n.checked_mul(e.cfg.vscale as usize)
                        .ok_or_else(|| Error::unverified(op, "scalable dimension overflows"))
                } else {
                    Ok(n)
                }
            })
            .collect(),
        _ => Ok(Vec::new()),
    }
}

/// The poison of `op`.
fn poison(op: OpId) -> Scalar {
    Scalar::Poison(Poison(op))
}

/// A value of type `ty` that is poison everywhere.
fn poison_value(e: &Engine, op: OpId, ty: TypeId) -> Result<Value> {
    if matches!(e.m.ctx.type_kind(ty), TypeKind::Vector { .. }) {
        let dims = vector_dims(e, op, ty)?;
        tabulate(op, &dims, |_| Ok(poison(op)))
    } else {
        Ok(Value::from_scalar(poison(op)))
    }
}

/// Converts `a` to `usize` if `0 <= a < n`.
fn in_range(a: i64, n: usize) -> Option<usize> {
    usize::try_from(a).ok().filter(|x| *x < n)
}

// ---- construction ---------------------------------------------------------

/// `vector.broadcast`: a scalar or vector stretched to the result shape
/// (leading dims added, size-1 dims repeated).
fn broadcast(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let dims = vector_dims(e, op, e.result_type(op, 0))?;
    let src = dense(e, fr, op, 0)?;
    let b = src
        .broadcast(&dims)
        .map_err(|x| dense_error_as(op, x, || format!("cannot broadcast {:?} to {dims:?}", src.shape())))?;
    e.assign(fr, op, Value::Array(Rc::new(b)))
}

/// `vector.from_elements`: operands in row-major order.
fn from_elements(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let dims = vector_dims(e, op, e.result_type(op, 0))?;
    let elems = scalars(op, e.args(fr, op))?;
    let v = array(op, &dims, elems)?;
    e.assign(fr, op, v)
}

/// `vector.to_elements`: one result per element, row-major.
fn to_elements(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let a = dense(e, fr, op, 0)?;
    let vals = a.iter().map(Value::from_scalar).collect();
    e.assign_all(fr, op, vals)
}

/// `vector.step`: 0, 1, 2, ... as index.
fn step(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let dims = vector_dims(e, op, e.result_type(op, 0))?;
    let w = e.cfg.index_bits;
    let v = tabulate(op, &dims, |i| Ok(Scalar::Int(Int::from_u128(w, i.first().copied().unwrap_or(0) as u128))))?;
    e.assign(fr, op, v)
}

/// `vector.create_mask %a, %b`: lane `i` is set when every `i_d < a_d`
/// (negative bounds clamp to 0). A poison bound gives a poison mask.
fn create_mask(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let dims = vector_dims(e, op, e.result_type(op, 0))?;
    let mut bounds = Vec::with_capacity(dims.len());
    for v in e.args(fr, op) {
        match index_or_poison(op, &v)? {
            Some(b) => bounds.push(b),
            None => return e.assign(fr, op, tabulate(op, &dims, |_| Ok(poison(op)))?),
        }
    }
    let v = mask_value(op, &dims, &bounds)?;
    e.assign(fr, op, v)
}

/// `vector.constant_mask [a, b]`.
fn constant_mask(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let dims = vector_dims(e, op, e.result_type(op, 0))?;
    let bounds = i64s(e, op, "mask_dim_sizes")?;
    let v = mask_value(op, &dims, &bounds)?;
    e.assign(fr, op, v)
}

/// The i1 mask of `dims` whose set region is `[0, bounds_d)` in every dim;
/// 0-D masks take one bound.
fn mask_value(op: OpId, dims: &[usize], bounds: &[i64]) -> Result<Value> {
    if dims.is_empty() {
        let on = bounds.first().is_some_and(|b| *b > 0);
        return array(op, &[], vec![Scalar::Int(Int::bool(on))]);
    }
    if bounds.len() != dims.len() {
        return Err(Error::unverified(op, format!("{} mask bounds for a rank-{} mask", bounds.len(), dims.len())));
    }
    tabulate(op, dims, |i| Ok(Scalar::Int(Int::bool(i.iter().zip(bounds).all(|(x, b)| (*x as i64) < *b)))))
}

// ---- extract / insert -----------------------------------------------------

/// The position of `vector.extract`/`vector.insert`: static entries, with
/// `dynamic` (i64::MIN) ones taken from `dyn_args` in order. `None` entries
/// are poison (the -1 index, or a poison operand).
fn positions(e: &Engine, op: OpId, dyn_args: &[Value]) -> Result<Vec<Option<i64>>> {
    let mut next = dyn_args.iter();
    let mut out = Vec::new();
    for p in i64s(e, op, "static_position")? {
        if p == mlir_ir::types::DYNAMIC {
            let v = next.next().ok_or_else(|| Error::unverified(op, "missing dynamic position operand"))?;
            out.push(index_or_poison(op, v)?);
        } else {
            out.push(Some(p));
        }
    }
    Ok(out)
}

/// Checks a position against the leading dims; `None` when it is poison
/// or out of bounds (both give poison).
fn checked_position(pos: &[Option<i64>], dims: &[usize]) -> Option<Vec<usize>> {
    pos.iter().zip(dims).map(|(p, d)| p.and_then(|p| in_range(p, *d))).collect()
}

/// `vector.extract %v[pos]`: an element or a sub-vector.
fn extract(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let dyn_args = e.args_in(fr, op, 1..e.m.operands(op).len())?;
    let pos = positions(e, op, &dyn_args)?;
    extract_at(e, fr, op, &pos)
}

/// The position operand of `vector.extractelement`/`insertelement` at
/// `at`, if any (a 0-D vector has none).
fn element_position(e: &Engine, fr: &mut Frame, op: OpId, at: usize) -> Result<Vec<Option<i64>>> {
    if e.m.operands(op).len() > at {
        Ok(vec![index_or_poison(op, e.arg(fr, op, at)?)?])
    } else {
        Ok(Vec::new())
    }
}

/// `vector.extract` at a decoded position; out of bounds gives poison.
fn extract_at(e: &Engine, fr: &mut Frame, op: OpId, pos: &[Option<i64>]) -> Result<Flow> {
    let src = dense(e, fr, op, 0)?;
    let rty = e.result_type(op, 0);
    let Some(p) = checked_position(pos, src.shape()) else {
        return e.assign(fr, op, poison_value(e, op, rty)?);
    };
    let (shape, range) =
        src.block(&p).ok_or_else(|| Error::unverified(op, "position longer than the vector's rank"))?;
    if range.is_empty() {
        return Err(Error::unverified(op, "empty extract"));
    }
    let v = if p.len() < src.shape().len() && matches!(e.m.ctx.type_kind(rty), TypeKind::Vector { .. }) {
        Value::Array(Rc::new(src.gather(shape, range).map_err(|x| dense_error(op, x))?))
    } else {
        Value::from_scalar(src.get(range.start))
    };
    e.assign(fr, op, v)
}

/// `vector.insert %x, %v[pos]`.
fn insert(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let dyn_args = e.args_in(fr, op, 2..e.m.operands(op).len())?;
    let pos = positions(e, op, &dyn_args)?;
    insert_at(e, fr, op, &pos)
}

/// `vector.insert` at a decoded position; out of bounds gives poison.
fn insert_at(e: &Engine, fr: &mut Frame, op: OpId, pos: &[Option<i64>]) -> Result<Flow> {
    let item = dense(e, fr, op, 0)?;
    let dest = dense(e, fr, op, 1)?;
    let Some(p) = checked_position(pos, dest.shape()) else {
        return e.assign(fr, op, poison_value(e, op, e.result_type(op, 0))?);
    };
    let out = dest
        .with_block(&p, &item)
        .map_err(|x| dense_error_as(op, x, || "inserted value does not match the position's shape".into()))?;
    e.assign(fr, op, Value::Array(Rc::new(out)))
}

/// `vector.scalable.extract %v[pos]`: a 1-D slice along the last dim.
fn scalable_extract(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let src = dense(e, fr, op, 0)?;
    let dims = vector_dims(e, op, e.result_type(op, 0))?;
    let pos = usize::try_from(i64s(e, op, "pos")?.first().copied().unwrap_or(0))
        .map_err(|_| Error::unverified(op, "bad pos"))?;
    dims.len().checked_sub(1).ok_or_else(|| Error::unverified(op, "0-D scalable extract"))?;
    let at = last_dim_slice(op, src.shape(), &dims, pos)?;
    let v = src.gather(&dims, at).map_err(|x| dense_error(op, x))?;
    e.assign(fr, op, Value::Array(Rc::new(v)))
}

/// `vector.scalable.insert %x, %v[pos]`.
fn scalable_insert(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let item = dense(e, fr, op, 0)?;
    let dest = dense(e, fr, op, 1)?;
    let pos = usize::try_from(i64s(e, op, "pos")?.first().copied().unwrap_or(0))
        .map_err(|_| Error::unverified(op, "bad pos"))?;
    item.shape().len().checked_sub(1).ok_or_else(|| Error::unverified(op, "0-D scalable insert"))?;
    let at: Vec<usize> = last_dim_slice(op, dest.shape(), item.shape(), pos)?.collect();
    let v = dest.scatter(&at, &item).map_err(|x| dense_error(op, x))?;
    e.assign(fr, op, Value::Array(Rc::new(v)))
}

/// The row-major positions in a value of `shape` of a slice of `dims`
/// starting at `pos` along the last dim (the leading dims line up); a
/// slice past the end is undefined behaviour at its first lane outside.
fn last_dim_slice<'a>(
    op: OpId,
    shape: &'a [usize],
    dims: &'a [usize],
    pos: usize,
) -> Result<impl Iterator<Item = usize> + 'a> {
    let last = dims.len().saturating_sub(1);
    let n = shape.get(last).copied().unwrap_or(0);
    let leading_fit = dims.len() == shape.len() && dims[..last].iter().zip(shape).all(|(d, s)| d <= s);
    if !leading_fit {
        return Err(Error::unverified(op, "the slice's dims do not match the vector's"));
    }
    if dims[last] > 0 && pos.checked_add(dims[last]).is_none_or(|end| end > n) {
        let mut j = vec![0usize; dims.len()];
        j[last] = n.max(pos);
        return Err(ub_bounds(op, &j, shape));
    }
    let strides = crate::dense::row_major_strides(shape);
    Ok(crate::dense::positions(dims, &strides).collect::<Vec<_>>().into_iter().map(move |p| p + pos))
}

fn ub_bounds(op: OpId, idx: &[usize], shape: &[usize]) -> Error {
    Error::at(op, ErrorKind::Ub(format!("position {idx:?} outside vector of shape {shape:?}")))
}

/// `vector.extract_strided_slice`: offsets/sizes/strides on leading dims.
fn extract_strided_slice(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let src = dense(e, fr, op, 0)?;
    let offsets = i64s(e, op, "offsets")?;
    let strides = i64s(e, op, "strides")?;
    let dims = vector_dims(e, op, e.result_type(op, 0))?;
    let mut pos = Vec::with_capacity(count(op, &dims)?);
    let mut r = vec![0usize; dims.len()];
    for _ in 0..count(op, &dims)? {
        let mut j = r.clone();
        for (d, (o, s)) in offsets.iter().zip(&strides).enumerate() {
            j[d] = slice_index(op, *o, *s, r[d])?;
        }
        pos.push(src.linear(&j).ok_or_else(|| ub_bounds(op, &j, src.shape()))?);
        next_index(&mut r, &dims);
    }
    let v = src.gather(&dims, pos).map_err(|x| dense_error(op, x))?;
    e.assign(fr, op, Value::Array(Rc::new(v)))
}

/// `offset + i * stride`, checked.
fn slice_index(op: OpId, offset: i64, stride: i64, i: usize) -> Result<usize> {
    i64::try_from(i)
        .ok()
        .and_then(|i| i.checked_mul(stride))
        .and_then(|x| x.checked_add(offset))
        .and_then(|x| usize::try_from(x).ok())
        .ok_or_else(|| Error::unverified(op, format!("slice index {offset} + {i} * {stride} out of range")))
}

/// `vector.insert_strided_slice %src, %dst`: the source's dims are the
/// trailing dims of the destination.
fn insert_strided_slice(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let src = dense(e, fr, op, 0)?;
    let dest = dense(e, fr, op, 1)?;
    let offsets = i64s(e, op, "offsets")?;
    let strides = i64s(e, op, "strides")?;
    let (srank, drank) = (src.shape().len(), dest.shape().len());
    let lead = drank.checked_sub(srank).ok_or_else(|| Error::unverified(op, "source rank exceeds destination"))?;
    if offsets.len() != drank || strides.len() != srank {
        return Err(Error::unverified(op, "offsets/strides do not match the ranks"));
    }
    let mut pos = Vec::with_capacity(src.len());
    let mut idx = vec![0usize; srank];
    for _ in 0..src.len() {
        let mut j = Vec::with_capacity(drank);
        for o in &offsets[..lead] {
            j.push(usize::try_from(*o).map_err(|_| Error::unverified(op, "negative offset"))?);
        }
        for (d, i) in idx.iter().enumerate() {
            j.push(slice_index(op, offsets[lead + d], strides[d], *i)?);
        }
        pos.push(dest.linear(&j).ok_or_else(|| ub_bounds(op, &j, dest.shape()))?);
        next_index(&mut idx, src.shape());
    }
    let out = dest.scatter(&pos, &src).map_err(|x| dense_error(op, x))?;
    e.assign(fr, op, Value::Array(Rc::new(out)))
}

// ---- permutations ---------------------------------------------------------

/// The positions of leading-dim slice `i` of `d` (a 0-D value is one slice).
fn row(d: &Dense, i: usize) -> Option<std::ops::Range<usize>> {
    if d.shape().is_empty() {
        return (i == 0).then_some(0..1);
    }
    d.block(&[i]).map(|(_, r)| r)
}

/// `vector.shuffle %a, %b [mask]`: picks leading-dim slices of the
/// concatenation; -1 picks a poison slice.
fn shuffle(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let (a, b) = (dense(e, fr, op, 0)?, dense(e, fr, op, 1)?);
    let na = a.shape().first().copied().unwrap_or(1);
    let nb = b.shape().first().copied().unwrap_or(1);
    let dims = vector_dims(e, op, e.result_type(op, 0))?;
    let inner = count(op, dims.get(1..).unwrap_or(&[]))?;
    let mut out = Builder::new(&dims, None).map_err(|x| dense_error(op, x))?;
    for m in i64s(e, op, "mask")? {
        let pick = match usize::try_from(m) {
            Ok(i) if i < na => row(&a, i).map(|r| (&a, r)),
            Ok(i) if i - na < nb => row(&b, i - na).map(|r| (&b, r)),
            _ if m == -1 => {
                for _ in 0..inner {
                    out.push(&poison(op)).map_err(|x| dense_error(op, x))?;
                }
                continue;
            }
            _ => None,
        };
        let (src, r) =
            pick.ok_or_else(|| Error::unverified(op, format!("shuffle index {m} out of range 0..{}", na + nb)))?;
        for k in r {
            out.push(&src.get(k)).map_err(|x| dense_error(op, x))?;
        }
    }
    let v = out.finish().map_err(|x| dense_error(op, x))?;
    e.assign(fr, op, Value::Array(Rc::new(v)))
}

/// `vector.interleave %a, %b`: alternates lanes of the last dim.
fn interleave(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let (a, b) = (dense(e, fr, op, 0)?, dense(e, fr, op, 1)?);
    let dims = vector_dims(e, op, e.result_type(op, 0))?;
    if a.shape() != b.shape() || a.len() * 2 != dims.iter().product::<usize>() {
        return Err(Error::unverified(op, "interleave operands do not match the result"));
    }
    let mut out = Builder::new(&dims, Some(a.lane())).map_err(|x| dense_error(op, x))?;
    for k in 0..a.len() {
        out.push(&a.get(k)).map_err(|x| dense_error(op, x))?;
        out.push(&b.get(k)).map_err(|x| dense_error(op, x))?;
    }
    let v = out.finish().map_err(|x| dense_error(op, x))?;
    e.assign(fr, op, Value::Array(Rc::new(v)))
}

/// `vector.deinterleave %v`: even lanes of the last dim, then odd lanes.
fn deinterleave(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let a = dense(e, fr, op, 0)?;
    let dims = vector_dims(e, op, e.result_type(op, 0))?;
    if dims.len() != a.shape().len() || dims.is_empty() || a.len() != 2 * dims.iter().product::<usize>() {
        return Err(Error::unverified(op, "deinterleave result does not match its operand"));
    }
    // Lane j of the last dim is source lane 2j (+1 for the odd half).
    let mut by = crate::dense::row_major_strides(a.shape());
    if let Some(l) = by.last_mut() {
        *l *= 2;
    }
    let half = |odd: usize| -> Result<Value> {
        let at = crate::dense::positions(&dims, &by).map(|p| p + odd);
        Ok(Value::Array(Rc::new(a.gather(&dims, at).map_err(|x| dense_error(op, x))?)))
    };
    let (even, odd) = (half(0)?, half(1)?);
    e.assign_all(fr, op, vec![even, odd])
}

/// `vector.transpose %v, [perm]`: result dim `d` is source dim `perm[d]`.
fn transpose(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let a = dense(e, fr, op, 0)?;
    let perm: Vec<usize> = i64s(e, op, "permutation")?
        .into_iter()
        .map(|p| {
            in_range(p, a.shape().len())
                .ok_or_else(|| Error::unverified(op, format!("permutation entry {p} out of range")))
        })
        .collect::<Result<_>>()?;
    let t = a
        .transpose(&perm)
        .map_err(|x| dense_error_as(op, x, || "the permutation is not one of the rank's dims".into()))?;
    e.assign(fr, op, Value::Array(Rc::new(t)))
}

/// `vector.shape_cast`: same elements, row-major, new shape.
fn shape_cast(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let a = dense(e, fr, op, 0)?;
    let dims = vector_dims(e, op, e.result_type(op, 0))?;
    let v = a.reshape(&dims).map_err(|x| dense_error(op, x))?;
    e.assign(fr, op, Value::Array(Rc::new(v)))
}

// ---- bitcast --------------------------------------------------------------

/// The bit width and a decoder of element type `ty`.
fn elem_bits(e: &Engine, op: OpId, ty: TypeId) -> Result<u32> {
    match e.m.ctx.type_kind(ty) {
        TypeKind::Float(k) => Ok(k.bit_width()),
        _ => e.int_width(ty).ok_or_else(|| Error::unverified(op, "bitcast of a non-numeric element type")),
    }
}

/// `vector.bitcast`: reinterprets the last dim's bits (lane 0 in the low
/// bits, as on a little-endian target). A result lane that overlaps a
/// poison source lane is poison.
fn bitcast(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let a = dense(e, fr, op, 0)?;
    let sty = e.elem_type(e.operand_type(op, 0).ok_or_else(|| Error::unverified(op, "missing operand"))?);
    let rty = e.elem_type(e.result_type(op, 0));
    let (win, wout) = (elem_bits(e, op, sty)?, elem_bits(e, op, rty)?);
    let dims = vector_dims(e, op, e.result_type(op, 0))?;
    let kind = match e.m.ctx.type_kind(rty) {
        TypeKind::Float(k) => Some(*k),
        _ => None,
    };
    let in_row = a.shape().last().copied().unwrap_or(1).max(1);
    let out_row = dims.last().copied().unwrap_or(1).max(1);
    let flat: Vec<Scalar> = a.iter().collect();
    let mut elems = Vec::with_capacity(flat.len() / in_row * out_row);
    for row in flat.chunks(in_row) {
        let mut bits = BigUint::default();
        let mut poisoned = Vec::new();
        for (i, s) in row.iter().enumerate() {
            let lane = match s {
                Scalar::Int(x) => x.to_ubig().to_biguint().unwrap_or_default(),
                Scalar::Float(f) => BigUint::from(f.bits),
                Scalar::Poison(p) => {
                    poisoned.push((i, *p));
                    BigUint::default()
                }
                Scalar::Complex(..) => return Err(Error::unverified(op, "bitcast of complex lanes")),
            };
            bits |= lane << (i as u64 * u64::from(win));
        }
        let mask = (BigUint::from(1u8) << wout) - 1u8;
        for j in 0..out_row {
            let (lo, hi) = (j as u64 * u64::from(wout), (j as u64 + 1) * u64::from(wout));
            let hit = poisoned.iter().find(|(i, _)| {
                let (plo, phi) = (*i as u64 * u64::from(win), (*i as u64 + 1) * u64::from(win));
                plo < hi && lo < phi
            });
            let lane = (&bits >> lo) & &mask;
            elems.push(match (hit, kind) {
                (Some((_, p)), _) => Scalar::Poison(*p),
                (None, Some(k)) => Scalar::Float(float::from_bits(k, lane.try_into().unwrap_or(0u128))),
                (None, None) => Scalar::Int(Int::from_big(wout, &lane.into())),
            });
        }
    }
    let v = array(op, &dims, elems)?;
    e.assign(fr, op, v)
}

// ---- arithmetic -----------------------------------------------------------

/// A combining kind (`#vector.kind<...>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `add`.
    Add,
    /// `mul`.
    Mul,
    /// `minui`.
    MinUI,
    /// `minsi`.
    MinSI,
    /// `minnumf`.
    MinNumF,
    /// `maxui`.
    MaxUI,
    /// `maxsi`.
    MaxSI,
    /// `maxnumf`.
    MaxNumF,
    /// `and`.
    And,
    /// `or`.
    Or,
    /// `xor`.
    Xor,
    /// `minimumf`.
    MinimumF,
    /// `maximumf`.
    MaximumF,
}

/// The `kind` attribute of `op` (`add` when absent, as for `contract`).
pub fn kind_of(e: &Engine, op: OpId) -> Result<Kind> {
    let word = match e.m.attr(op, "kind").map(|a| e.m.ctx.attr_kind(a)) {
        Some(Attribute::Dialect { body, .. }) => {
            body.trim_start_matches(".kind").trim_start_matches('<').trim_end_matches('>').trim().to_string()
        }
        None => "add".to_string(),
        _ => return Err(Error::unverified(op, "malformed combining kind")),
    };
    Ok(match word.as_str() {
        "add" => Kind::Add,
        "mul" => Kind::Mul,
        "minui" => Kind::MinUI,
        "minsi" => Kind::MinSI,
        "minnumf" => Kind::MinNumF,
        "maxui" => Kind::MaxUI,
        "maxsi" => Kind::MaxSI,
        "maxnumf" => Kind::MaxNumF,
        "and" => Kind::And,
        "or" => Kind::Or,
        "xor" => Kind::Xor,
        "minimumf" => Kind::MinimumF,
        "maximumf" => Kind::MaximumF,
        w => return Err(Error::unverified(op, format!("unknown combining kind '{w}'"))),
    })
}

fn int_out(op: OpId, o: Option<Out>) -> Result<Scalar> {
    match o {
        Some(Out::Val(i)) => Ok(Scalar::Int(i)),
        Some(Out::Poison) => Ok(poison(op)),
        Some(Out::Ub(m)) => Err(Error::at(op, ErrorKind::Ub(m))),
        None => Err(Error::unverified(op, "integer width out of range")),
    }
}

/// `a <kind> b` on one lane; poison in gives poison out.
pub fn combine(op: OpId, k: Kind, a: &Scalar, b: &Scalar) -> Result<Scalar> {
    let ne = Round::NearestEven;
    match (a, b) {
        (Scalar::Poison(p), _) | (_, Scalar::Poison(p)) => Ok(Scalar::Poison(*p)),
        (Scalar::Int(x), Scalar::Int(y)) => {
            let w = x.width();
            let bits = |f: fn(u128, u128) -> u128,
                        g: fn(&num_bigint::BigInt, &num_bigint::BigInt) -> num_bigint::BigInt| {
                Ok(Scalar::Int(bitwise(x, y, f, g)))
            };
            match k {
                Kind::Add => int_out(op, int_op!(w, addi(x, y, 0))),
                Kind::Mul => int_out(op, int_op!(w, muli(x, y, 0))),
                Kind::MinUI => int_out(op, int_op!(w, minui(x, y))),
                Kind::MinSI => int_out(op, int_op!(w, minsi(x, y))),
                Kind::MaxUI => int_out(op, int_op!(w, maxui(x, y))),
                Kind::MaxSI => int_out(op, int_op!(w, maxsi(x, y))),
                Kind::And => bits(|p, q| p & q, |p, q| p & q),
                Kind::Or => bits(|p, q| p | q, |p, q| p | q),
                Kind::Xor => bits(|p, q| p ^ q, |p, q| p ^ q),
                _ => Err(Error::unverified(op, format!("combining kind {k:?} on integers"))),
            }
        }
        (Scalar::Float(x), Scalar::Float(y)) => Ok(Scalar::Float(match k {
            Kind::Add => float::add(*x, *y, ne),
            Kind::Mul => float::mul(*x, *y, ne),
            Kind::MinNumF => maxnumf(*x, *y, false),
            Kind::MaxNumF => maxnumf(*x, *y, true),
            Kind::MinimumF => maximumf(*x, *y, false),
            Kind::MaximumF => maximumf(*x, *y, true),
            _ => return Err(Error::unverified(op, format!("combining kind {k:?} on floats"))),
        })),
        _ => Err(Error::unverified(op, "combining lanes of different types")),
    }
}

/// The start value of a reduction without accumulator: the neutral
/// element the lowering uses, or `None` to start from the first lane.
fn neutral(k: Kind, sample: &Scalar, masked: bool) -> Option<Scalar> {
    match sample {
        Scalar::Int(x) => {
            let w = x.width();
            let ones = Int::from_i128(w, -1);
            let smax = Int::from_big(w, &((num_bigint::BigInt::from(1) << (w.max(1) - 1)) - 1));
            let smin = Int::from_big(w, &(num_bigint::BigInt::from(1) << (w.max(1) - 1)));
            Some(Scalar::Int(match k {
                Kind::Add | Kind::Or | Kind::Xor | Kind::MaxUI => Int::from_u128(w, 0),
                Kind::Mul => Int::from_u128(w, 1),
                Kind::And | Kind::MinUI => ones,
                Kind::MinSI => smax,
                Kind::MaxSI => smin,
                _ => return None,
            }))
        }
        Scalar::Float(f) => {
            let one = float::from_int(&num_bigint::BigInt::from(1), f.kind, Round::NearestEven).ok()?;
            let inf = float::div(one, float::from_bits(f.kind, 0), Round::NearestEven);
            match k {
                Kind::Add => Some(Scalar::Float(float::from_bits(f.kind, 0))),
                Kind::Mul => Some(Scalar::Float(one)),
                Kind::MinNumF | Kind::MinimumF if masked => Some(Scalar::Float(inf)),
                Kind::MaxNumF | Kind::MaximumF if masked => Some(Scalar::Float(float::neg(inf))),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Folds `lanes` with `k`, sequentially; `None` when there are none.
fn fold<'a>(
    op: OpId,
    k: Kind,
    start: Option<Scalar>,
    lanes: impl Iterator<Item = &'a Scalar>,
) -> Result<Option<Scalar>> {
    let mut acc = start;
    for s in lanes {
        acc = Some(match acc {
            None => s.clone(),
            Some(a) => combine(op, k, &a, s)?,
        });
    }
    Ok(acc)
}

/// The lanes of `mask` as booleans (poison lanes count as set: the
/// result then depends on a poison lane, so it is poison below).
fn mask_bits(op: OpId, m: &Dense) -> Result<Vec<Option<bool>>> {
    m.iter()
        .map(|s| match s {
            Scalar::Int(i) => Ok(Some(i.is_nonzero())),
            Scalar::Poison(_) => Ok(None),
            _ => Err(Error::unverified(op, "mask lanes must be i1")),
        })
        .collect()
}

/// `vector.reduction <kind>, %v [, %acc]`, optionally under a mask.
fn reduction(e: &Engine, fr: &mut Frame, op: OpId, mask: Option<&Dense>) -> Result<Flow> {
    let k = kind_of(e, op)?;
    let v = dense(e, fr, op, 0)?;
    let acc = if e.m.operands(op).len() > 1 {
        Some(e.arg(fr, op, 1)?.scalar().ok_or_else(|| Error::unverified(op, "bad accumulator"))?)
    } else {
        None
    };
    let bits = match mask {
        Some(m) => mask_bits(op, m)?,
        None => vec![Some(true); v.len()],
    };
    if bits.iter().any(Option::is_none) {
        return e.assign(fr, op, Value::from_scalar(poison(op)));
    }
    let all: Vec<Scalar> = v.iter().collect();
    let lanes: Vec<&Scalar> = all.iter().zip(&bits).filter(|(_, b)| **b == Some(true)).map(|(s, _)| s).collect();
    let sample =
        acc.clone().or_else(|| all.first().cloned()).ok_or_else(|| Error::unverified(op, "empty reduction"))?;
    let is_float = matches!(sample, Scalar::Float(_));
    let r = match (acc, is_float, k) {
        // Ordered fadd/fmul start from the accumulator itself.
        (Some(a), true, Kind::Add | Kind::Mul) => fold(op, k, Some(a), lanes.into_iter())?,
        (Some(a), _, _) => match fold(op, k, neutral(k, &sample, mask.is_some()), lanes.into_iter())? {
            Some(r) => Some(combine(op, k, &r, &a)?),
            None => Some(a),
        },
        (None, _, _) => fold(op, k, neutral(k, &sample, mask.is_some()), lanes.into_iter())?,
    };
    let r = r.ok_or_else(|| Error::unverified(op, "reduction of no lanes without a start value"))?;
    e.assign(fr, op, Value::from_scalar(r))
}

/// `vector.multi_reduction <kind>, %src, %acc [dims]`.
fn multi_reduction(e: &Engine, fr: &mut Frame, op: OpId, mask: Option<&Dense>) -> Result<Flow> {
    let k = kind_of(e, op)?;
    let src = dense(e, fr, op, 0)?;
    let acc = e.arg(fr, op, 1)?.clone();
    let rank = src.shape().len();
    let red: Vec<usize> = i64s(e, op, "reduction_dims")?
        .into_iter()
        .map(|d| in_range(d, rank).ok_or_else(|| Error::unverified(op, format!("reduction dim {d} out of range"))))
        .collect::<Result<_>>()?;
    let par: Vec<usize> = (0..rank).filter(|d| !red.contains(d)).collect();
    // The accumulator is a vector, or a scalar when every dim is reduced.
    let acc_shape: Vec<usize> = match &acc {
        Value::Array(a) => a.shape().to_vec(),
        Value::Scalar(_) | Value::Wide(_) => Vec::new(),
        _ => return Err(Error::unverified(op, "bad multi_reduction accumulator")),
    };
    // Row-major order over the source visits each output lane's reduced
    // lanes in lexicographic order, which is the order the lowering folds in.
    let pshape: Vec<usize> = par.iter().map(|d| src.shape()[*d]).collect();
    if count(op, &acc_shape)? != count(op, &pshape)? {
        return Err(Error::unverified(op, "accumulator shape does not match the parallel dims"));
    }
    let pstrides = row_major_strides(&pshape);
    if let (None, Some(c), None) = (mask, comb(k), &e.observer) {
        // Each source dim's stride into the output: 0 where it is reduced.
        let ostrides: Vec<usize> =
            (0..rank).map(|d| par.iter().position(|p| *p == d).map_or(0, |i| pstrides[i])).collect();
        let lanes = match &acc {
            Value::Array(a) => Some(a.clone()),
            _ => acc.scalar().and_then(|x| Dense::new(&[], &[x], Some(src.lane())).ok()).map(Rc::new),
        };
        if let Some(r) = lanes.and_then(|a| crate::fold::reduce(&src, &a, &ostrides, c)) {
            let v = if e.m.ctx.type_kind(e.result_type(op, 0)).shape().is_some() {
                Value::Array(Rc::new(r))
            } else {
                Value::from_scalar(r.get(0))
            };
            return e.assign(fr, op, v);
        }
    }
    let bits = match mask {
        Some(m) => mask_bits(op, m)?,
        None => vec![Some(true); src.len()],
    };
    let mut out: Vec<Scalar> = match &acc {
        Value::Array(a) => a.iter().collect(),
        Value::Scalar(x) => vec![x.unpack()],
        Value::Wide(x) => vec![(**x).clone()],
        _ => return Err(Error::unverified(op, "bad multi_reduction accumulator")),
    };
    let mut idx = vec![0usize; rank];
    for (flat, lane) in src.iter().enumerate() {
        let o: usize = par.iter().zip(&pstrides).map(|(d, s)| idx[*d] * s).sum();
        match bits.get(flat).copied().flatten() {
            Some(true) => out[o] = combine(op, k, &out[o], &lane)?,
            Some(false) => {}
            None => out[o] = poison(op),
        }
        next_index(&mut idx, src.shape());
    }
    let v = if e.m.ctx.type_kind(e.result_type(op, 0)).shape().is_some() {
        array(op, &acc_shape, out)?
    } else {
        Value::from_scalar(out.pop().ok_or_else(|| Error::unverified(op, "empty accumulator"))?)
    };
    e.assign(fr, op, v)
}

/// The host fold (`crate::fold`) of a combining kind, if it has one.
fn comb(k: Kind) -> Option<crate::fold::Comb> {
    use crate::fold::Comb;
    Some(match k {
        Kind::Add => Comb::Add,
        Kind::Mul => Comb::Mul,
        Kind::MaximumF => Comb::Maximum,
        Kind::MinimumF => Comb::Minimum,
        Kind::And => Comb::And,
        Kind::Or => Comb::Or,
        Kind::Xor => Comb::Xor,
        Kind::MinSI => Comb::MinS,
        Kind::MaxSI => Comb::MaxS,
        Kind::MinUI => Comb::MinU,
        Kind::MaxUI => Comb::MaxU,
        // maxnumf/minnumf count the choices they make (`sem::fp`).
        Kind::MinNumF | Kind::MaxNumF => return None,
    })
}

/// Element `idx` of `d` (a position the op's types guarantee in bounds).
fn lane_at(op: OpId, d: &Dense, idx: &[usize]) -> Result<Scalar> {
    d.linear(idx)
        .map(|i| d.get(i))
        .ok_or_else(|| Error::unverified(op, format!("lane {idx:?} outside a vector of {:?}", d.shape())))
}

/// Row-major strides of `shape` (in elements).
pub fn row_major_strides(shape: &[usize]) -> Vec<usize> {
    let mut s = vec![1usize; shape.len()];
    for d in (0..shape.len().saturating_sub(1)).rev() {
        s[d] = s[d + 1].saturating_mul(shape[d + 1]);
    }
    s
}

/// `vector.scan <kind>, %src, %init {reduction_dim, inclusive}`: prefix
/// reductions along one dim, plus the last prefix as the second result.
/// The initial value only seeds the exclusive scan: an inclusive scan starts
/// from the first element, as `LowerVectorScan.cpp` (the op's only lowering)
/// computes it and LLVM's integration test `scan.mlir` checks (the op was
/// designed with "the identity element is only used in the exclusive scan",
/// D117171).
fn scan(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let k = kind_of(e, op)?;
    let src = dense(e, fr, op, 0)?;
    let init = dense(e, fr, op, 1)?;
    let dim = i64s_one(e, op, "reduction_dim")?;
    let dim = in_range(dim, src.shape().len()).ok_or_else(|| Error::unverified(op, "reduction_dim out of range"))?;
    let inclusive = e.flag(op, "inclusive");
    let shape = src.shape().to_vec();
    let strides = row_major_strides(&shape);
    let mut out: Vec<Scalar> = src.iter().collect();
    let mut last: Vec<Scalar> = init.iter().collect();
    let mut idx = vec![0usize; shape.len()];
    // Walk every line along `dim`: iterate indices with idx[dim] == 0.
    let lines = count(op, &shape)? / shape[dim].max(1);
    let mut outer: Vec<usize> = shape.clone();
    outer[dim] = 1;
    for _ in 0..lines {
        let init_idx: Vec<usize> = idx.iter().enumerate().filter(|(d, _)| *d != dim).map(|(_, i)| *i).collect();
        let init_at =
            init.linear(&init_idx).ok_or_else(|| Error::unverified(op, "scan init does not match the source"))?;
        let start: usize = idx.iter().zip(&strides).map(|(i, s)| i * s).sum();
        let mut acc = last[init_at].clone();
        for i in 0..shape[dim] {
            let at = start + i * strides[dim];
            let x = src.get(at);
            let next = if inclusive && i == 0 { x } else { combine(op, k, &acc, &x)? };
            out[at] = if inclusive { next.clone() } else { acc.clone() };
            acc = next;
        }
        // The exclusive scan's second result is the last exclusive prefix.
        last[init_at] =
            if inclusive || shape[dim] == 0 { acc } else { out[start + (shape[dim] - 1) * strides[dim]].clone() };
        next_index(&mut idx, &outer);
    }
    e.assign_all(fr, op, vec![array(op, &shape, out)?, array(op, init.shape(), last)?])
}

fn i64s_one(e: &Engine, op: OpId, name: &str) -> Result<i64> {
    match e.m.attr(op, name).map(|a| e.m.ctx.attr_kind(a)) {
        Some(Attribute::Integer { value, .. }) => {
            value.to_i64().ok_or_else(|| Error::unverified(op, format!("'{name}' out of range")))
        }
        _ => Err(Error::unverified(op, format!("missing '{name}'"))),
    }
}

/// Promotes a lhs/rhs lane to the accumulator's element type: integers
/// sign-extend, floats extend exactly.
fn promote(op: OpId, s: &Scalar, to: &TypeKind, w: Option<u32>) -> Result<Scalar> {
    Ok(match (s, to) {
        (Scalar::Int(i), _) => match w {
            Some(w) if w != i.width() => Scalar::Int(Int::from_big(w, &i.to_sbig())),
            _ => s.clone(),
        },
        (Scalar::Float(f), TypeKind::Float(k)) if *k != f.kind => Scalar::Float(
            float::convert(*f, *k, Round::NearestEven)
                .map_err(|x| Error::at(op, ErrorKind::NoDefinedResult(x.to_string())))?,
        ),
        _ => s.clone(),
    })
}

/// The product of two lanes.
fn product(op: OpId, a: &Scalar, b: &Scalar) -> Result<Scalar> {
    combine(op, Kind::Mul, a, b)
}

/// `vector.contract`: for every point of the iteration space, in
/// lexicographic order, `acc[map_c(p)] = acc[map_c(p)] <kind> lhs[map_a(p)] * rhs[map_b(p)]`.
fn contract(e: &Engine, fr: &mut Frame, op: OpId, mask: Option<&Dense>) -> Result<Flow> {
    let k = kind_of(e, op)?;
    let (lhs, rhs) = (dense(e, fr, op, 0)?, dense(e, fr, op, 1)?);
    // The accumulator is a vector, or a scalar when every dim is reduced.
    let (acc, acc_shape): (Vec<Scalar>, Vec<usize>) = match e.arg(fr, op, 2)? {
        Value::Array(a) => (a.iter().collect(), a.shape().to_vec()),
        Value::Scalar(x) => (vec![x.unpack()], Vec::new()),
        Value::Wide(x) => (vec![(**x).clone()], Vec::new()),
        _ => return Err(Error::unverified(op, "bad contract accumulator")),
    };
    let maps: Vec<&mlir_ir::affine::AffineMap> = match e.m.attr(op, "indexing_maps").map(|a| e.m.ctx.attr_kind(a)) {
        Some(Attribute::Array(items)) => items
            .iter()
            .map(|a| match e.m.ctx.attr_kind(*a) {
                Attribute::AffineMap(m) => Ok(m),
                _ => Err(Error::unverified(op, "indexing_maps must hold affine maps")),
            })
            .collect::<Result<_>>()?,
        _ => return Err(Error::unverified(op, "missing indexing_maps")),
    };
    let [ma, mb, mc] = maps[..] else { return Err(Error::unverified(op, "contract needs three indexing maps")) };
    // The same maps as decoded at load, for every point.
    let [ca, cb, cc] = &e.aux[op.0 as usize].maps[..] else {
        return Err(Error::unverified(op, "contract needs three indexing maps"));
    };
    let n = ma.num_dims as usize;
    // Iteration-space sizes from the operands' shapes.
    let mut space = vec![None::<usize>; n];
    for (m, shape) in [(ma, lhs.shape()), (mb, rhs.shape()), (mc, &acc_shape[..])] {
        for (r, ex) in m.results.iter().enumerate() {
            if let mlir_ir::affine::AffineExpr::Dim(d) = ex {
                if let (Some(slot), Some(sz)) = (space.get_mut(*d as usize), shape.get(r)) {
                    *slot = Some(*sz);
                }
            }
        }
    }
    let space: Vec<usize> = space
        .into_iter()
        .map(|s| s.ok_or_else(|| Error::unverified(op, "iteration dim not used by any map")))
        .collect::<Result<_>>()?;
    let acc_kind = e.m.ctx.type_kind(e.elem_type(e.result_type(op, 0))).clone();
    let acc_w = e.int_width(e.elem_type(e.result_type(op, 0)));
    let bits = match mask {
        Some(m) => Some(mask_bits(op, m)?),
        None => None,
    };
    let iters = iterator_kinds(e, op)?;
    let dims_of = |m: &mlir_ir::affine::AffineMap| -> Vec<usize> {
        m.results
            .iter()
            .filter_map(|x| match x {
                mlir_ir::affine::AffineExpr::Dim(d) => Some(*d as usize),
                _ => None,
            })
            .collect()
    };
    let dot = mask.is_none()
        && k == Kind::Add
        && matches!(acc_kind, mlir_ir::types::TypeKind::Float(_))
        && same_elem_types(e, op)
        && contract_lowers_to_dot(&[dims_of(ma), dims_of(mb), dims_of(mc)], &iters);
    if mask.is_none() && k == Kind::Add && same_elem_types(e, op) && e.observer.is_none() {
        // Each operand's offset per iteration dim, when its map is a
        // projection (every result a dim).
        let strides = |m: &mlir_ir::affine::AffineMap, shape: &[usize]| -> Option<Vec<usize>> {
            let rm = row_major_strides(shape);
            let mut st = vec![0usize; n];
            for (r, ex) in m.results.iter().enumerate() {
                let mlir_ir::affine::AffineExpr::Dim(d) = ex else { return None };
                *st.get_mut(*d as usize)? += *rm.get(r)?;
            }
            Some(st)
        };
        let accd = match e.arg(fr, op, 2)? {
            Value::Array(a) => Some(a.clone()),
            _ => Dense::new(&acc_shape, &acc, Some(lhs.lane())).ok().map(Rc::new),
        };
        let (sa, sb, sc) = (strides(ma, lhs.shape()), strides(mb, rhs.shape()), strides(mc, &acc_shape));
        if let (Some(a), Some(sa), Some(sb), Some(sc)) = (accd, sa, sb, sc) {
            if let Some(r) = crate::fold::contract(&lhs, &rhs, &a, &space, [&sa, &sb, &sc], dot) {
                let v = if acc_shape.is_empty() && e.m.ctx.type_kind(e.result_type(op, 0)).shape().is_none() {
                    Value::from_scalar(r.get(0))
                } else {
                    Value::Array(Rc::new(r))
                };
                return e.assign(fr, op, v);
            }
        }
    }
    // The dot lowering sums from +0.0 and adds the accumulator afterwards.
    let mut out: Vec<Scalar> = if dot {
        acc.iter()
            .map(|x| match x {
                Scalar::Float(f) => Scalar::Float(float::from_bits(f.kind, 0)),
                other => other.clone(),
            })
            .collect()
    } else {
        acc.clone()
    };
    let acc_strides = row_major_strides(&acc_shape);
    let mut p = vec![0usize; n];
    let mut dims = vec![0i64; n];
    // Each map's results, and the same as lane indices, reused at every point.
    let [mut ia, mut ib, mut ic] = [ca, cb, cc].map(|c| (vec![0i64; c.results()], vec![0usize; c.results()]));
    // Map `c` at the point `dims` into `out`, as indices: they are in
    // range (the space comes from the shapes), a negative one a bug here.
    let ev = |c: &mlir_ir::affine::Compiled, dims: &[i64], (raw, out): &mut (Vec<i64>, Vec<usize>)| -> Result<()> {
        c.eval_into(dims, raw).map_err(|x| Error::unverified(op, format!("indexing map: {x:?}")))?;
        for (o, x) in out.iter_mut().zip(raw.iter()) {
            *o = usize::try_from(*x).map_err(|_| Error::unverified(op, "negative index"))?;
        }
        Ok(())
    };
    let total = count(op, &space)?;
    for flat in 0..total {
        let enabled = match &bits {
            Some(b) => b
                .get(flat)
                .copied()
                .ok_or_else(|| Error::unverified(op, "mask shape differs from the iteration space"))?,
            None => Some(true),
        };
        for (d, x) in dims.iter_mut().zip(&p) {
            *d = *x as i64;
        }
        ev(cc, &dims, &mut ic)?;
        let slot =
            ic.1.iter()
                .zip(&acc_shape)
                .zip(&acc_strides)
                .try_fold(0usize, |o, ((i, n), s)| (i < n).then_some(o + i * s));
        let slot = slot.filter(|o| *o < out.len()).ok_or_else(|| Error::unverified(op, "bad accumulator index"))?;
        let next = match enabled {
            Some(true) => {
                ev(ca, &dims, &mut ia)?;
                ev(cb, &dims, &mut ib)?;
                let a = promote(op, &lane_at(op, &lhs, &ia.1)?, &acc_kind, acc_w)?;
                let b = promote(op, &lane_at(op, &rhs, &ib.1)?, &acc_kind, acc_w)?;
                combine(op, k, &out[slot], &product(op, &a, &b)?)?
            }
            Some(false) => out[slot].clone(),
            None => poison(op),
        };
        out[slot] = next;
        next_index(&mut p, &space);
    }
    if dot {
        for (o, a) in out.iter_mut().zip(acc.iter()) {
            *o = combine(op, Kind::Add, o, a)?;
        }
    }
    let v = if acc_shape.is_empty() && e.m.ctx.type_kind(e.result_type(op, 0)).shape().is_none() {
        Value::from_scalar(out.into_iter().next().ok_or_else(|| Error::unverified(op, "empty accumulator"))?)
    } else {
        array(op, &acc_shape, out)?
    };
    e.assign(fr, op, v)
}

/// Whether each iterator of `op` is a reduction (`true`) or parallel.
fn iterator_kinds(e: &Engine, op: OpId) -> Result<Vec<bool>> {
    match e.m.attr(op, "iterator_types").map(|a| e.m.ctx.attr_kind(a)) {
        Some(Attribute::Array(items)) => items
            .iter()
            .map(|a| match e.m.ctx.attr_kind(*a) {
                Attribute::Dialect { body, .. } => Ok(body.contains("reduction")),
                Attribute::String { value, .. } => Ok(&**value == b"reduction"),
                _ => Err(Error::unverified(op, "iterator_types must hold iterator types")),
            })
            .collect(),
        _ => Err(Error::unverified(op, "missing iterator_types")),
    }
}

/// Whether lhs, rhs and accumulator of a contraction share one element type
/// (LLVM 22 lowers only such contractions through its generic patterns).
fn same_elem_types(e: &Engine, op: OpId) -> bool {
    let elem = |i: usize| e.elem_type(e.m.type_of(e.m.operands(op)[i]));
    e.m.operands(op).len() >= 3 && elem(0) == elem(2) && elem(1) == elem(2)
}

/// Whether LLVM 22's default contraction lowering (`ContractionOpLowering`
/// with the `dot` strategy) ends in `ContractionOpToDotLowering` for a
/// contraction with these indexing maps (result dims of lhs, rhs, acc) and
/// iterators (`true` = reduction). It follows the lowering's recursion:
/// the dot pattern is tried first; otherwise the first batch dimension, then
/// the first free lhs dimension, then the first free rhs dimension is
/// unrolled and the smaller contraction is matched again; a contraction
/// with only reduction dimensions left never reaches the dot pattern.
pub fn contract_lowers_to_dot(maps: &[Vec<usize>; 3], iters: &[bool]) -> bool {
    let [a, b, c] = maps;
    let (m, n, k) = (0, 1, 2);
    let eq = |x: &Vec<usize>, y: &[usize]| x.as_slice() == y;
    if iters.len() == 3 && !iters[0] && !iters[1] && iters[2] {
        let lhs_ok = eq(a, &[m, k]) || eq(a, &[k, m]);
        let rhs_ok = eq(b, &[k, n]) || eq(b, &[n, k]);
        let acc_ok = eq(c, &[m, n]) || eq(c, &[n, m]);
        if lhs_ok && rhs_ok && acc_ok {
            return true;
        }
    } else if iters.len() == 2 && !iters[0] && iters[1] {
        let (m, n) = (0, 1);
        let mat = |x: &Vec<usize>| eq(x, &[m, n]) || eq(x, &[n, m]);
        if eq(c, &[m]) && ((mat(a) && eq(b, &[n])) || (eq(a, &[n]) && mat(b))) {
            return true;
        }
    }
    // The generic lowering: which iterator gets unrolled next.
    let in_map = |map: &Vec<usize>, d: usize| map.contains(&d);
    let batch = (0..iters.len()).find(|&d| !iters[d] && in_map(a, d) && in_map(b, d));
    let contracting = |d: usize| iters[d] && in_map(a, d) && in_map(b, d);
    let free_lhs = a.iter().copied().find(|&d| !contracting(d));
    let free_rhs = b.iter().copied().find(|&d| !contracting(d));
    let Some(d) = batch.or(free_lhs).or(free_rhs) else { return false };
    let drop = |map: &Vec<usize>| -> Vec<usize> {
        map.iter().filter(|&&x| x != d).map(|&x| if x > d { x - 1 } else { x }).collect()
    };
    let sub_iters: Vec<bool> = iters.iter().enumerate().filter(|(i, _)| *i != d).map(|(_, r)| *r).collect();
    contract_lowers_to_dot(&[drop(a), drop(b), drop(c)], &sub_iters)
}

/// `vector.outerproduct %a, %b [, %acc]`: `a[i] * b[j]` (or `a[i] * b` when
/// `b` is a scalar), combined with the accumulator by the kind; a float
/// `add` with accumulator is fused.
fn outerproduct(e: &Engine, fr: &mut Frame, op: OpId, mask: Option<&Dense>) -> Result<Flow> {
    let k = kind_of(e, op)?;
    let a = dense(e, fr, op, 0)?;
    let b = e.arg(fr, op, 1)?.clone();
    let acc = if e.m.operands(op).len() > 2 { Some(dense(e, fr, op, 2)?) } else { None };
    let dims = vector_dims(e, op, e.result_type(op, 0))?;
    let bits = match mask {
        Some(m) => Some(mask_bits(op, m)?),
        None => None,
    };
    let mut flat = 0usize;
    let v = tabulate(op, &dims, |i| {
        let x = &lane_at(op, &a, &i[..1])?;
        let y = match &b {
            Value::Scalar(s) => s.unpack(),
            Value::Wide(s) => (**s).clone(),
            Value::Array(r) => r.get(i[1]),
            _ => return Err(Error::unverified(op, "bad outerproduct operand")),
        };
        let c = match &acc {
            Some(c) => Some(lane_at(op, c, i)?),
            None => None,
        };
        let enabled = match &bits {
            Some(bs) => {
                bs.get(flat).copied().ok_or_else(|| Error::unverified(op, "mask shape differs from the result"))?
            }
            None => Some(true),
        };
        flat += 1;
        match (enabled, c) {
            (None, _) => Ok(poison(op)),
            (Some(false), Some(c)) => Ok(c),
            (Some(false), None) => Ok(poison(op)),
            (Some(true), None) => product(op, x, &y),
            (Some(true), Some(c)) => match (x, &y, &c, k) {
                (Scalar::Float(p), Scalar::Float(q), Scalar::Float(r), Kind::Add) => {
                    Ok(Scalar::Float(float::fma(*p, *q, *r, Round::NearestEven)))
                }
                _ => combine(op, k, &product(op, x, &y)?, &c),
            },
        }
    })?;
    e.assign(fr, op, v)
}

/// `vector.fma %a, %b, %c`: fused, one rounding per lane.
fn fma(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    if let (Value::Array(a), Value::Array(b), Value::Array(c)) =
        (e.arg(fr, op, 0)?, e.arg(fr, op, 1)?, e.arg(fr, op, 2)?)
    {
        if let Some(d) = Dense::zip3_floats(a, b, c, |x, y, z| float::fma(x, y, z, Round::NearestEven)) {
            return e.assign(fr, op, Value::Array(Rc::new(d)));
        }
    }
    let (a, b, c) = (dense(e, fr, op, 0)?, dense(e, fr, op, 1)?, dense(e, fr, op, 2)?);
    if a.shape() != b.shape() || a.shape() != c.shape() {
        return Err(Error::unverified(op, "fma operand shapes differ"));
    }
    let elems = a
        .iter()
        .zip(b.iter())
        .zip(c.iter())
        .map(|((x, y), z)| match (x, y, z) {
            (Scalar::Poison(p), _, _) | (_, Scalar::Poison(p), _) | (_, _, Scalar::Poison(p)) => Ok(Scalar::Poison(p)),
            (Scalar::Float(x), Scalar::Float(y), Scalar::Float(z)) => {
                Ok(Scalar::Float(float::fma(x, y, z, Round::NearestEven)))
            }
            _ => Err(Error::unverified(op, "fma of non-float lanes")),
        })
        .collect::<Result<Vec<_>>>()?;
    let v = array(op, a.shape(), elems)?;
    e.assign(fr, op, v)
}

// ---- mask -----------------------------------------------------------------

/// `vector.mask %m[, %passthru] { op; vector.yield }`: runs the region's
/// maskable op under the mask; an empty region yields its values.
fn mask(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let m = dense(e, fr, op, 0)?;
    let m: &Dense = &m;
    let passthru = if e.m.operands(op).len() > 1 { Some(e.arg(fr, op, 1)?.clone()) } else { None };
    let region =
        e.m.regions(op).first().copied().ok_or_else(|| Error::unverified(op, "vector.mask without a region"))?;
    let block =
        *e.m.region(region).blocks.first().ok_or_else(|| Error::unverified(op, "vector.mask with an empty region"))?;
    let mut vals = Vec::new();
    for &inner in &e.m.block(block).ops.clone() {
        match e.m.op(inner).name.kind {
            OpKind::VectorReduction => reduction(e, fr, inner, Some(m))?,
            OpKind::VectorMultiReduction => multi_reduction(e, fr, inner, Some(m))?,
            OpKind::VectorContract => contract(e, fr, inner, Some(m))?,
            OpKind::VectorOuterproduct => outerproduct(e, fr, inner, Some(m))?,
            OpKind::VectorTransferRead => transfer_read(e, fr, inner, Some(m))?,
            OpKind::VectorTransferWrite => transfer_write(e, fr, inner, Some(m))?,
            OpKind::VectorYield => {
                vals = e.args(fr, inner);
                break;
            }
            _ => {
                return Err(Error::at(
                    inner,
                    ErrorKind::Unsupported(format!("'{}' under vector.mask", e.m.op_name(inner))),
                ))
            }
        };
    }
    if let Some(Value::Array(pt)) = passthru {
        // Disabled lanes of a vector result take the passthru.
        let bits = mask_bits(op, m)?;
        for v in vals.iter_mut() {
            if let Value::Array(r) = v {
                if r.shape() == pt.shape() && r.len() == bits.len() {
                    let elems = r
                        .iter()
                        .zip(pt.iter())
                        .zip(&bits)
                        .map(|((x, p), b)| match b {
                            Some(true) => x,
                            Some(false) => p,
                            None => poison(op),
                        })
                        .collect();
                    *v = array(op, r.shape(), elems)?;
                }
            }
        }
    }
    e.assign_all(fr, op, vals)
}

// ---- memory: load/store, masked forms, gather/scatter, transfers -----------

/// What a vector memory op reads or writes: a memref (bounds, liveness and
/// UB reports come from memory.rs, naming the allocation) or a tensor
/// value (value semantics: the op returns the updated copy).
enum Place {
    Mem(Rc<MemRef>),
    /// Copied on the first write (value semantics).
    Tensor(Rc<Dense>),
}

impl Place {
    /// Operand `i` of `op` as a place.
    fn of(e: &Engine, fr: &Frame, op: OpId, i: usize) -> Result<Place> {
        match e.arg(fr, op, i)? {
            Value::Memref(m) => Ok(Place::Mem(m.clone())),
            Value::Array(a) => Ok(Place::Tensor(a.clone())),
            // A sparse tensor is a ranked tensor to the verifier; mlir-opt's
            // sparsifier, not vector's lowering, would have to handle it.
            Value::Sparse(_) => Err(Error::at(
                op,
                ErrorKind::Unsupported(format!("{} on a sparse tensor (operand #{i})", e.m.op_name(op))),
            )),
            _ => Err(Error::unverified(op, format!("operand #{i} is not a memref or tensor"))),
        }
    }

    fn rank(&self) -> usize {
        match self {
            Place::Mem(m) => m.rank(),
            Place::Tensor(t) => t.shape().len(),
        }
    }

    /// The shape of one element: a memref's vector element shape, or
    /// nothing (tensor elements here are scalars).
    fn elem_shape(&self) -> Vec<usize> {
        match self {
            Place::Mem(m) => m.elem.vshape.clone(),
            Place::Tensor(_) => Vec::new(),
        }
    }

    /// The place for messages: the memref's type and allocation, or the
    /// tensor's shape.
    fn describe(&self) -> String {
        match self {
            Place::Mem(m) => m.describe(),
            Place::Tensor(t) => format!("tensor of shape {:?}", t.shape()),
        }
    }

    /// The extent of dim `d` (for the padding decision of transfers).
    fn size(&self, d: usize) -> i64 {
        match self {
            Place::Mem(m) => m.sizes.get(d).copied().unwrap_or(0),
            Place::Tensor(t) => t.shape().get(d).map_or(0, |n| *n as i64),
        }
    }

    /// The scalar elements at `base` + every position of `shape` on the
    /// trailing dims, as one value, when none needs a report or is poison
    /// (`MemRef::read_block`, `Dense::read_block`); `None` leaves the
    /// access to the per-element path, as does an observer (the tests
    /// compare both paths that way).
    fn read_block(&self, e: &Engine, base: &[i64], shape: &[usize]) -> Option<Dense> {
        if e.observer.is_some() {
            return None;
        }
        match self {
            Place::Mem(m) => m.read_block(base, shape),
            Place::Tensor(t) => t.read_block(base, shape),
        }
    }

    /// Writes `v` as the block at `base` (see [`Place::read_block`]);
    /// false when it wrote nothing.
    fn write_block(&mut self, e: &Engine, base: &[i64], v: &Dense) -> bool {
        if e.observer.is_some() {
            return false;
        }
        match self {
            Place::Mem(m) => m.write_block(base, v),
            Place::Tensor(t) => Rc::make_mut(t).write_block(base, v),
        }
    }

    /// The element at `idx`; out of bounds is undefined behaviour.
    fn get(&self, op: OpId, idx: &[i64], what: &str) -> Result<Value> {
        match self {
            Place::Mem(m) => m.load(op, idx, what),
            Place::Tensor(t) => {
                let p = tensor_pos(op, t.shape(), idx, what)?;
                Ok(Value::from_scalar(lane_at(op, t, &p)?))
            }
        }
    }

    /// Writes the element at `idx`; out of bounds is undefined behaviour.
    fn set(&mut self, op: OpId, idx: &[i64], v: Value, what: &str) -> Result<()> {
        match self {
            Place::Mem(m) => m.store(op, idx, &v, what),
            Place::Tensor(t) => {
                let p = tensor_pos(op, t.shape(), idx, what)?;
                let Some(s) = v.scalar() else { return Err(Error::unverified(op, "tensor elements must be scalars")) };
                let at = t.linear(&p).ok_or_else(|| Error::unverified(op, "tensor index"))?;
                Rc::make_mut(t).set(at, &s).map_err(|x| dense_error(op, x))
            }
        }
    }

    /// The index of the element `d` elements after `idx` in memory, as a
    /// gather/scatter lane addresses it (its offsets are "a displacement in
    /// units of elements from the starting element", and the LLVM lowering
    /// adds them to the element pointer). For a contiguous view this carries
    /// into the outer dims; `None` when the element is not one of the view's
    /// (outside it, or in the gap between its rows). Tensors and
    /// affine-map layouts are displaced in row-major index order.
    fn displaced(&self, idx: &[i64], d: i64) -> Option<Vec<i64>> {
        match self {
            Place::Mem(m) if m.map.is_none() => strided_displaced(&m.sizes, &m.strides, idx, d),
            Place::Mem(m) => row_major_displaced(&m.sizes, idx, d),
            Place::Tensor(t) => {
                let sizes: Vec<i64> = t.shape().iter().map(|n| i64::try_from(*n).unwrap_or(i64::MAX)).collect();
                row_major_displaced(&sizes, idx, d)
            }
        }
    }

    /// Undefined behaviour at `idx` not caught by a bounds check (duplicate
    /// scatter lanes): memory UB names the allocation.
    fn ub(&self, op: OpId, msg: String) -> Error {
        match self {
            Place::Mem(m) => memory::mem_ub(op, m.origin(), msg),
            Place::Tensor(_) => Error::at(op, ErrorKind::Ub(msg)),
        }
    }

    /// Ends a writing op: a tensor destination becomes the op's result.
    fn finish(self, e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
        match self {
            Place::Tensor(t) if e.m.op(op).results.len > 0 => e.assign(fr, op, Value::Array(t)),
            _ => Ok(Flow::Next),
        }
    }
}

/// The in-bounds index of the element at position `pos(idx) + d` of a
/// strided view, found by dividing by the strides from the largest down
/// (non-overlapping views have one answer) and checked by recomputing it.
fn strided_displaced(sizes: &[i64], strides: &[i64], idx: &[i64], d: i64) -> Option<Vec<i64>> {
    let mut pos = d;
    for (i, s) in idx.iter().zip(strides) {
        pos = pos.checked_add(i.checked_mul(*s)?)?;
    }
    let mut order: Vec<usize> = (0..sizes.len()).filter(|k| sizes[*k] > 1 && strides[*k] > 0).collect();
    order.sort_by_key(|k| std::cmp::Reverse(strides[*k]));
    let mut out = vec![0i64; sizes.len()];
    let mut rest = pos;
    for k in order {
        out[k] = rest.div_euclid(strides[k]).min(sizes[k] - 1).max(0);
        rest = rest.checked_sub(out[k].checked_mul(strides[k])?)?;
    }
    let inside = out.iter().zip(sizes).all(|(j, n)| (0..*n).contains(j));
    (rest == 0 && inside).then_some(out)
}

/// `idx` moved by `d` positions in the row-major order of `sizes`.
fn row_major_displaced(sizes: &[i64], idx: &[i64], d: i64) -> Option<Vec<i64>> {
    let mut lin: i64 = 0;
    for (i, n) in idx.iter().zip(sizes) {
        if !(0..*n).contains(i) {
            return None;
        }
        lin = lin.checked_mul(*n)?.checked_add(*i)?;
    }
    let mut lin = lin.checked_add(d)?;
    let total = sizes.iter().try_fold(1i64, |a, n| a.checked_mul(*n))?;
    if !(0..total).contains(&lin) {
        return None;
    }
    let mut out = vec![0i64; sizes.len()];
    for k in (0..sizes.len()).rev() {
        out[k] = lin % sizes[k];
        lin /= sizes[k];
    }
    Some(out)
}

/// `idx` checked against a tensor `shape`.
fn tensor_pos(op: OpId, shape: &[usize], idx: &[i64], what: &str) -> Result<Vec<usize>> {
    if idx.len() != shape.len() {
        return Err(Error::unverified(op, format!("{} indices for a tensor of rank {}", idx.len(), shape.len())));
    }
    idx.iter().zip(shape).map(|(i, n)| in_range(*i, *n)).collect::<Option<Vec<usize>>>().ok_or_else(|| {
        let dims: Vec<String> = shape.iter().map(usize::to_string).collect();
        Error::at(
            op,
            ErrorKind::Ub(format!(
                "out-of-bounds {what}: index {} outside a tensor of shape {}",
                memory::list(idx),
                dims.join("x")
            )),
        )
    })
}

/// Index operands `range` (poison there is observed: it would be an address).
fn indices(e: &Engine, fr: &Frame, op: OpId, range: std::ops::Range<usize>) -> Result<Vec<i64>> {
    index_args(e, fr, op, range, "used as a memory index")
}

/// The enabled lanes of a memory-op mask; a poison lane would decide
/// whether memory is touched, so it is observed.
fn enabled_lanes(op: OpId, m: &Dense) -> Result<Vec<bool>> {
    m.iter()
        .map(|s| match s {
            Scalar::Int(i) => Ok(i.is_nonzero()),
            Scalar::Poison(p) => Err(Error::at(
                op,
                ErrorKind::Poison { what: "used as a mask lane of a memory access".into(), origin: p.0 },
            )),
            _ => Err(Error::unverified(op, "mask lanes must be i1")),
        })
        .collect()
}

/// `base` with `pos` added to its trailing dims (the vector's dims cover
/// the innermost dims of the memref).
fn shifted(op: OpId, base: &[i64], pos: &[usize]) -> Result<Vec<i64>> {
    let lead = base
        .len()
        .checked_sub(pos.len())
        .ok_or_else(|| Error::unverified(op, "vector of higher rank than the memref"))?;
    let mut at = base.to_vec();
    for (k, p) in pos.iter().enumerate() {
        let d = lead + k;
        at[d] = i64::try_from(*p).ok().and_then(|p| at[d].checked_add(p)).ok_or_else(|| overflow(op, base))?;
    }
    Ok(at)
}

fn overflow(op: OpId, idx: &[i64]) -> Error {
    Error::at(op, ErrorKind::Ub(format!("memory index {} plus a lane offset overflows", memory::list(idx))))
}

/// Calls `f(k, pos)` for every position of `shape` in row-major order.
fn each_position(op: OpId, shape: &[usize], mut f: impl FnMut(usize, &[usize]) -> Result<()>) -> Result<()> {
    let n = count(op, shape)?;
    let mut pos = vec![0usize; shape.len()];
    for k in 0..n {
        f(k, &pos)?;
        next_index(&mut pos, shape);
    }
    Ok(())
}

/// The leading (per-lane) dims of a vector type whose trailing dims are
/// the memory element's own vector shape.
fn lane_dims(op: OpId, vdims: &[usize], eshape: &[usize]) -> Result<Vec<usize>> {
    let lead = vdims.len().checked_sub(eshape.len()).filter(|l| vdims[*l..] == *eshape);
    lead.map(|l| vdims[..l].to_vec()).ok_or_else(|| {
        Error::unverified(op, format!("vector shape {vdims:?} does not end with the element shape {eshape:?}"))
    })
}

/// Appends the lanes of one loaded element.
fn push_lanes(op: OpId, out: &mut Vec<Scalar>, v: Value) -> Result<()> {
    match (&v, v.scalar()) {
        (_, Some(s)) => out.push(s),
        (Value::Array(a), _) => out.extend(a.iter()),
        _ => return Err(Error::unverified(op, "bad memory element")),
    }
    Ok(())
}

/// Element `k` of a flat lane list, as a memory element of `eshape`.
fn element(op: OpId, flat: &[Scalar], k: usize, eshape: &[usize]) -> Result<Value> {
    let n: usize = eshape.iter().product();
    let part = k
        .checked_mul(n)
        .and_then(|s| flat.get(s..s.checked_add(n)?))
        .ok_or_else(|| Error::unverified(op, "lane count"))?;
    if eshape.is_empty() {
        return Ok(Value::from_scalar(part[0].clone()));
    }
    array(op, eshape, part.to_vec())
}

/// `vector.load %m[%i..]`: the vector's dims cover the memref's innermost
/// dims. A lane outside the view is reported as memory UB: the op doc
/// leaves out-of-bounds loads target-specific ("no assumptions should be
/// made on the value of elements loaded out of bounds").
fn vload(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let p = Place::of(e, fr, op, 0)?;
    let idx = indices(e, fr, op, 1..e.m.operands(op).len())?;
    let rdims = vector_dims(e, op, e.result_type(op, 0))?;
    if let Some(d) = p.read_block(e, &idx, &rdims) {
        return e.assign(fr, op, Value::Array(Rc::new(d)));
    }
    let mut lanes = Vec::new();
    each_position(op, &lane_dims(op, &rdims, &p.elem_shape())?, |_, pos| {
        push_lanes(op, &mut lanes, p.get(op, &shifted(op, &idx, pos)?, "vector.load")?)
    })?;
    e.assign(fr, op, array(op, &rdims, lanes)?)
}

/// `vector.store %v, %m[%i..]` (out of bounds as for `vector.load`).
fn vstore(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let v = dense(e, fr, op, 0)?;
    let mut p = Place::of(e, fr, op, 1)?;
    let idx = indices(e, fr, op, 2..e.m.operands(op).len())?;
    if p.write_block(e, &idx, &v) {
        return p.finish(e, fr, op);
    }
    let eshape = p.elem_shape();
    let flat: Vec<Scalar> = v.iter().collect();
    each_position(op, &lane_dims(op, v.shape(), &eshape)?, |k, pos| {
        p.set(op, &shifted(op, &idx, pos)?, element(op, &flat, k, &eshape)?, "vector.store")
    })?;
    p.finish(e, fr, op)
}

/// `vector.maskedload %m[%i..], %mask, %pass`: enabled lanes load (out of
/// bounds is UB), disabled lanes take the pass-through and may point
/// anywhere.
fn maskedload(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let n = e.m.operands(op).len();
    let p = Place::of(e, fr, op, 0)?;
    let idx = indices(e, fr, op, 1..n.saturating_sub(2))?;
    let on = enabled_lanes(op, &*dense(e, fr, op, n.saturating_sub(2))?)?;
    let pass = dense(e, fr, op, n.saturating_sub(1))?;
    let mut lanes = Vec::new();
    each_position(op, pass.shape(), |k, pos| match on.get(k) {
        Some(true) => {
            push_lanes(op, &mut lanes, p.get(op, &shifted(op, &idx, pos)?, "vector.maskedload (enabled lane)")?)
        }
        _ => push_lanes(op, &mut lanes, Value::from_scalar(pass.get(k))),
    })?;
    e.assign(fr, op, array(op, pass.shape(), lanes)?)
}

/// `vector.maskedstore %m[%i..], %mask, %v`: only enabled lanes store.
fn maskedstore(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let n = e.m.operands(op).len();
    let mut p = Place::of(e, fr, op, 0)?;
    let idx = indices(e, fr, op, 1..n.saturating_sub(2))?;
    let on = enabled_lanes(op, &*dense(e, fr, op, n.saturating_sub(2))?)?;
    let v = dense(e, fr, op, n.saturating_sub(1))?;
    each_position(op, v.shape(), |k, pos| match on.get(k) {
        Some(true) => {
            let x = Value::from_scalar(v.get(k));
            p.set(op, &shifted(op, &idx, pos)?, x, "vector.maskedstore (enabled lane)")
        }
        _ => Ok(()),
    })?;
    p.finish(e, fr, op)
}

/// The addresses of a gather/scatter: the element `index_vec[l]` elements
/// after `%base[%i..]` for every enabled lane `l` (see [`Place::displaced`]:
/// on a contiguous memref the offset carries from the innermost index into
/// the outer ones, as LLVM's `gather.mlir` integration test reads a 10x5
/// memref at offset 16 from `[0, 0]`); `None` for disabled lanes, whose
/// offsets are never looked at. A lane whose element is not in the view is
/// undefined behaviour.
fn gather_indices(
    e: &Engine,
    op: OpId,
    p: &Place,
    base: &[i64],
    offs: &Dense,
    on: &[bool],
    what: &str,
) -> Result<Vec<Option<Vec<i64>>>> {
    if base.is_empty() {
        return Err(Error::unverified(op, "gather/scatter on a rank-0 base"));
    }
    offs.iter()
        .zip(on)
        .map(|(o, on)| {
            if !on {
                return Ok(None);
            }
            let o = Value::from_scalar(o);
            e.observe(op, &o, "used as a gather/scatter offset")?;
            let o = o.scalar().ok_or_else(|| Error::unverified(op, "offset lane"))?;
            let d = o
                .as_int()
                .and_then(|i| i.to_sbig().try_into().ok())
                .ok_or_else(|| Error::unverified(op, "offset lane"))?;
            match p.displaced(base, d) {
                Some(at) => Ok(Some(at)),
                None => Err(p.ub(
                    op,
                    format!(
                        "out-of-bounds {what}: the element {d} elements after index {} is not in the {}",
                        memory::list(base),
                        p.describe()
                    ),
                )),
            }
        })
        .collect()
}

/// `vector.gather %base[%i..][%offs], %mask, %pass` on a memref or tensor.
fn gather(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let n = e.m.operands(op).len();
    let p = Place::of(e, fr, op, 0)?;
    let idx = indices(e, fr, op, 1..n.saturating_sub(3))?;
    let on = enabled_lanes(op, &*dense(e, fr, op, n.saturating_sub(2))?)?;
    let offs = dense(e, fr, op, n.saturating_sub(3))?;
    let addrs = gather_indices(e, op, &p, &idx, &offs, &on, "vector.gather (enabled lane)")?;
    let pass = dense(e, fr, op, n.saturating_sub(1))?;
    let mut lanes = Vec::with_capacity(pass.len());
    for (a, x) in addrs.iter().zip(pass.iter()) {
        match a {
            Some(at) => push_lanes(op, &mut lanes, p.get(op, at, "vector.gather (enabled lane)")?)?,
            None => lanes.push(x),
        }
    }
    e.assign(fr, op, array(op, pass.shape(), lanes)?)
}

/// `vector.scatter %base[%i..][%offs], %mask, %v`: enabled lanes store in
/// lane order. The op doc makes two enabled lanes with the same index
/// undefined ("If the index vector contains two or more duplicate indices,
/// the behavior is undefined"), so that is reported.
fn scatter(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let n = e.m.operands(op).len();
    let mut p = Place::of(e, fr, op, 0)?;
    let idx = indices(e, fr, op, 1..n.saturating_sub(3))?;
    let on = enabled_lanes(op, &*dense(e, fr, op, n.saturating_sub(2))?)?;
    let offs = dense(e, fr, op, n.saturating_sub(3))?;
    let addrs = gather_indices(e, op, &p, &idx, &offs, &on, "vector.scatter (enabled lane)")?;
    let v = dense(e, fr, op, n.saturating_sub(1))?;
    let mut seen = std::collections::HashMap::new();
    for (l, a) in addrs.iter().enumerate() {
        if let Some(at) = a {
            if let Some(first) = seen.insert(at.clone(), l) {
                return Err(p.ub(
                    op,
                    format!("vector.scatter: enabled lanes {first} and {l} both store to index {}", memory::list(at)),
                ));
            }
        }
    }
    for (a, x) in addrs.iter().zip(v.iter()) {
        if let Some(at) = a {
            p.set(op, at, Value::from_scalar(x), "vector.scatter (enabled lane)")?;
        }
    }
    p.finish(e, fr, op)
}

/// `vector.expandload %m[%i..], %mask, %pass`: the enabled lanes read
/// consecutive elements from `%i..` on, in lane order.
fn expandload(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let n = e.m.operands(op).len();
    let p = Place::of(e, fr, op, 0)?;
    let idx = indices(e, fr, op, 1..n.saturating_sub(2))?;
    let on = enabled_lanes(op, &*dense(e, fr, op, n.saturating_sub(2))?)?;
    let pass = dense(e, fr, op, n.saturating_sub(1))?;
    let mut next = 0usize;
    let mut lanes = Vec::with_capacity(pass.len());
    for (x, on) in pass.iter().zip(&on) {
        if *on {
            push_lanes(op, &mut lanes, p.get(op, &shifted(op, &idx, &[next])?, "vector.expandload (enabled lane)")?)?;
            next += 1;
        } else {
            lanes.push(x);
        }
    }
    e.assign(fr, op, array(op, pass.shape(), lanes)?)
}

/// `vector.compressstore %m[%i..], %mask, %v`: the enabled lanes are
/// stored to consecutive elements from `%i..` on.
fn compressstore(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let n = e.m.operands(op).len();
    let mut p = Place::of(e, fr, op, 0)?;
    let idx = indices(e, fr, op, 1..n.saturating_sub(2))?;
    let on = enabled_lanes(op, &*dense(e, fr, op, n.saturating_sub(2))?)?;
    let v = dense(e, fr, op, n.saturating_sub(1))?;
    let mut next = 0usize;
    for (x, on) in v.iter().zip(&on) {
        if *on {
            p.set(op, &shifted(op, &idx, &[next])?, Value::from_scalar(x), "vector.compressstore (enabled lane)")?;
            next += 1;
        }
    }
    p.finish(e, fr, op)
}

/// The decoded `permutation_map` and `in_bounds` of a transfer.
struct Transfer {
    /// For each vector dim: the source dim it walks, or `None` (broadcast).
    dims: Vec<Option<usize>>,
    /// For each vector dim: promised in bounds.
    in_bounds: Vec<bool>,
}

impl Transfer {
    fn of(e: &Engine, op: OpId, rank: usize) -> Result<Transfer> {
        let map = match e.m.attr(op, "permutation_map").map(|a| e.m.ctx.attr_kind(a)) {
            Some(Attribute::AffineMap(m)) => m.clone(),
            _ => return Err(Error::unverified(op, "missing 'permutation_map'")),
        };
        let dims = map
            .results
            .iter()
            .map(|r| match r {
                AffineExpr::Dim(d) if (*d as usize) < rank => Ok(Some(*d as usize)),
                AffineExpr::Const(0) => Ok(None),
                other => {
                    Err(Error::unverified(op, format!("permutation_map result {other:?} is not a source dim or 0")))
                }
            })
            .collect::<Result<Vec<_>>>()?;
        let in_bounds = match e.m.attr(op, "in_bounds").map(|a| e.m.ctx.attr_kind(a)) {
            Some(Attribute::Array(items)) => items.iter().map(|a| e.is_true(*a)).collect(),
            _ => vec![false; dims.len()],
        };
        Ok(Transfer { dims, in_bounds })
    }

    /// True when the vector's dims walk the source's trailing dims in
    /// order, none broadcast: the lanes are a block (`crate::block`).
    fn minor_identity(&self, rank: usize) -> bool {
        let lead = rank.wrapping_sub(self.dims.len());
        self.dims.len() <= rank && self.dims.iter().enumerate().all(|(j, d)| *d == Some(lead + j))
    }

    /// The mask lane of vector position `pos`: the mask is shaped like the
    /// non-broadcast vector dims in the order of the source dims they walk
    /// ("before any permutation or broadcasting", op doc).
    fn mask_lane(&self, pos: &[usize], vdims: &[usize]) -> usize {
        let mut walked: Vec<(usize, usize)> =
            self.dims.iter().enumerate().filter_map(|(j, d)| d.map(|d| (d, j))).collect();
        walked.sort_unstable();
        walked.iter().fold(0usize, |acc, (_, j)| acc.saturating_mul(vdims[*j]).saturating_add(pos[*j]))
    }

    /// The source index of vector position `pos`, or `None` when the lane
    /// runs past the end of a dim not promised in bounds (it reads the
    /// padding / is not written). Any other out-of-bounds index (a
    /// negative one, one on an `in_bounds` dim or a dim the vector does not
    /// walk) is left to the access, which reports it as UB.
    fn source(&self, op: OpId, place: &Place, base: &[i64], pos: &[usize]) -> Result<Option<Vec<i64>>> {
        let mut at = base.to_vec();
        for (j, d) in self.dims.iter().enumerate() {
            if let Some(d) = d {
                let p = i64::try_from(pos[j]).map_err(|_| overflow(op, base))?;
                at[*d] = at[*d].checked_add(p).ok_or_else(|| overflow(op, base))?;
            }
        }
        let past_end = self
            .dims
            .iter()
            .zip(&self.in_bounds)
            .any(|(d, ib)| d.is_some_and(|d| !ib && at[d] >= place.size(d) && base[d] >= 0));
        Ok(if past_end { None } else { Some(at) })
    }
}

/// `vector.transfer_read %src[%i..], %pad [, %mask]` on a memref or a
/// tensor; `outer` is the mask of an enclosing `vector.mask`.
fn transfer_read(e: &Engine, fr: &mut Frame, op: OpId, outer: Option<&Dense>) -> Result<Flow> {
    let p = Place::of(e, fr, op, 0)?;
    let r = p.rank();
    let idx = indices(e, fr, op, 1..1 + r)?;
    let pad = e.arg(fr, op, 1 + r)?.clone();
    let mask = match outer {
        Some(m) => Some(enabled_lanes(op, m)?),
        None if e.m.operands(op).len() > 2 + r => Some(enabled_lanes(op, &*dense(e, fr, op, 2 + r)?)?),
        None => None,
    };
    let t = Transfer::of(e, op, r)?;
    let rdims = vector_dims(e, op, e.result_type(op, 0))?;
    let vdims = lane_dims(op, &rdims, &p.elem_shape())?;
    if vdims.len() != t.dims.len() {
        return Err(Error::unverified(
            op,
            format!("permutation_map has {} results for a rank-{} vector", t.dims.len(), vdims.len()),
        ));
    }
    if mask.is_none() && t.minor_identity(r) {
        if let Some(d) = p.read_block(e, &idx, &rdims) {
            return e.assign(fr, op, Value::Array(Rc::new(d)));
        }
    }
    let mut lanes = Vec::new();
    each_position(op, &vdims, |_, pos| {
        let on = mask.as_ref().is_none_or(|m| m.get(t.mask_lane(pos, &vdims)).copied().unwrap_or(false));
        match t.source(op, &p, &idx, pos)? {
            Some(at) if on => push_lanes(op, &mut lanes, p.get(op, &at, "vector.transfer_read")?),
            _ => push_lanes(op, &mut lanes, pad.clone()),
        }
    })?;
    e.assign(fr, op, array(op, &rdims, lanes)?)
}

/// `vector.transfer_write %v, %dst[%i..] [, %mask]`: lanes masked off or
/// past the end of a dim not promised in bounds are not written.
fn transfer_write(e: &Engine, fr: &mut Frame, op: OpId, outer: Option<&Dense>) -> Result<Flow> {
    let v = dense(e, fr, op, 0)?;
    let mut p = Place::of(e, fr, op, 1)?;
    let r = p.rank();
    let idx = indices(e, fr, op, 2..2 + r)?;
    let mask = match outer {
        Some(m) => Some(enabled_lanes(op, m)?),
        None if e.m.operands(op).len() > 2 + r => Some(enabled_lanes(op, &*dense(e, fr, op, 2 + r)?)?),
        None => None,
    };
    let t = Transfer::of(e, op, r)?;
    let eshape = p.elem_shape();
    let vdims = lane_dims(op, v.shape(), &eshape)?;
    if vdims.len() != t.dims.len() {
        return Err(Error::unverified(
            op,
            format!("permutation_map has {} results for a rank-{} vector", t.dims.len(), vdims.len()),
        ));
    }
    if mask.is_none() && t.minor_identity(r) && p.write_block(e, &idx, &v) {
        return p.finish(e, fr, op);
    }
    let flat: Vec<Scalar> = v.iter().collect();
    each_position(op, &vdims, |k, pos| {
        let on = mask.as_ref().is_none_or(|m| m.get(t.mask_lane(pos, &vdims)).copied().unwrap_or(false));
        match t.source(op, &p, &idx, pos)? {
            Some(at) if on => p.set(op, &at, element(op, &flat, k, &eshape)?, "vector.transfer_write"),
            _ => Ok(()),
        }
    })?;
    p.finish(e, fr, op)
}

/// `vector.type_cast %m : memref<8x8xf32> to memref<vector<8x8xf32>>`: the
/// same bytes seen as one vector element (the source is a static,
/// contiguous memref, which the verifier requires).
fn type_cast(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let m = memref_arg(e, fr, op, 0)?;
    // The result may keep leading dims of the vector as memref dims:
    // memref<vector<3x4xf32>> to memref<3xvector<4xf32>>.
    let (shape, elem_ty) = match e.m.ctx.type_kind(e.result_type(op, 0)) {
        TypeKind::MemRef { shape, elem, .. } => (shape.clone(), *elem),
        _ => return Err(Error::unverified(op, "type_cast to a non-memref type")),
    };
    let elem = crate::operands::elem_of(e, op, elem_ty)?;
    let sizes: Vec<i64> = shape;
    let count = sizes.iter().try_fold(1usize, |a, d| usize::try_from(*d).ok().and_then(|d| a.checked_mul(d)));
    let want = count.and_then(|n| n.checked_mul(elem.bytes()));
    let bytes = m.num_elements().and_then(|n| n.checked_mul(m.elem.bytes()));
    if !m.is_contiguous() || bytes.is_none() || bytes != want {
        return Err(Error::unverified(
            op,
            format!("type_cast of {} to {}: not the same contiguous bytes", m.describe(), elem.name),
        ));
    }
    let base = usize::try_from(m.offset)
        .ok()
        .and_then(|o| o.checked_mul(m.elem.bytes()))
        .and_then(|b| b.checked_add(m.base))
        .ok_or_else(|| Error::unverified(op, format!("type_cast of {} at offset {}", m.describe(), m.offset)))?;
    let out = MemRef {
        elem: Rc::new(elem),
        base,
        offset: 0,
        strides: mlir_ir::layout::canonical_strides(&sizes),
        sizes,
        map: None,
        view: true,
        buf: m.buf.clone(),
    };
    e.assign(fr, op, Value::Memref(Rc::new(out)))
}

// ---- print ----------------------------------------------------------------

/// `vector.print`: formatting lives in `runtime.rs` with the other
/// mlir-runner printers.
pub fn print(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let args = e.args(fr, op);
    runtime::vector_print(e, op, args)?;
    Ok(Flow::Next)
}

#[cfg(test)]
mod tests {
    use super::{row_major_displaced, strided_displaced};
    use crate::exec::{Config, Engine};
    use mlir_ir::diag::Source;

    /// Runs `main` of `text` with `vscale`; returns the printed output.
    fn run(text: &str, vscale: u32) -> String {
        let src = Source::new("t.mlir", text);
        let m = mlir_ir::parse_and_verify(&src).unwrap_or_else(|d| panic!("{}", d.render(&src)));
        let mut buf = Vec::new();
        {
            let cfg = Config { vscale, ..Config::default() };
            let mut e = Engine::load(&m, cfg, Box::new(&mut buf)).unwrap();
            e.run_entry("main").unwrap_or_else(|x| panic!("{}", x.render(&m, &src)));
        }
        String::from_utf8(buf).unwrap()
    }

    /// Scalable dims hold `n * vscale` lanes (mlir-runner cannot run these
    /// on x86, so the expectations are derived by hand: the sum of
    /// 0..4*vscale-1 and 4*vscale ones).
    #[test]
    fn scalable_vectors_scale_with_vscale() {
        let t = r#"func.func @main() {
  %vs = vector.vscale
  vector.print %vs : index
  %f = arith.constant 1.0 : f32
  %v = vector.broadcast %f : f32 to vector<[4]xf32>
  %r = vector.reduction <add>, %v : vector<[4]xf32> into f32
  vector.print %r : f32
  %st = vector.step : vector<[4]xindex>
  %x = vector.reduction <add>, %st : vector<[4]xindex> into index
  vector.print %x : index
  %c1 = arith.constant 1 : index
  %m = vector.create_mask %c1, %vs : vector<2x[2]xi1>
  vector.print %m : vector<2x[2]xi1>
  return
}"#;
        assert_eq!(run(t, 1), "1\n4\n6\n( ( 1, 0 ), ( 0, 0 ) )\n");
        assert_eq!(run(t, 2), "2\n8\n28\n( ( 1, 1, 0, 0 ), ( 0, 0, 0, 0 ) )\n");
    }

    /// `vector.scan` has no LLVM lowering, only `LowerVectorScan.cpp`'s
    /// rewrite: the exclusive scan starts from the initial value and its
    /// second result is the last prefix; the inclusive one ignores it.
    #[test]
    fn scan_matches_the_documented_example() {
        let t = r#"func.func @main() {
  %v = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : vector<2x3xi32>
  %i = arith.constant dense<[10, 20]> : vector<2xi32>
  %r, %l = vector.scan <add>, %v, %i {inclusive = false, reduction_dim = 1 : i64} : vector<2x3xi32>, vector<2xi32>
  vector.print %r : vector<2x3xi32>
  vector.print %l : vector<2xi32>
  %r2, %l2 = vector.scan <add>, %v, %i {inclusive = true, reduction_dim = 1 : i64} : vector<2x3xi32>, vector<2xi32>
  vector.print %r2 : vector<2x3xi32>
  vector.print %l2 : vector<2xi32>
  return
}"#;
        assert_eq!(
            run(t, 1),
            "( ( 10, 11, 13 ), ( 20, 24, 29 ) )\n( 13, 29 )\n( ( 1, 3, 6 ), ( 4, 9, 15 ) )\n( 6, 15 )\n"
        );
    }

    /// `inclusive = 1 : i1` is the attribute `true` (mlir-opt prints it so).
    #[test]
    fn scan_reads_an_i1_flag_as_a_bool() {
        let t = r#"func.func @main() {
  %v = arith.constant dense<[1, 2, 3]> : vector<3xi32>
  %i = arith.constant dense<10> : vector<i32>
  %r, %l = vector.scan <add>, %v, %i {inclusive = 1 : i1, reduction_dim = 0 : i64} : vector<3xi32>, vector<i32>
  vector.print %r : vector<3xi32>
  return
}"#;
        assert_eq!(run(t, 1), "( 1, 3, 6 )\n");
    }

    /// Gather/scatter displacement: carries across rows of a contiguous
    /// view, lands on the next row of a strided one, and refuses the gaps
    /// between rows and anything outside.
    #[test]
    fn displacement_in_memory() {
        assert_eq!(strided_displaced(&[3, 5], &[5, 1], &[0, 3], 4), Some(vec![1, 2]));
        assert_eq!(strided_displaced(&[3, 5], &[5, 1], &[2, 1], -11), Some(vec![0, 0]));
        assert_eq!(strided_displaced(&[3, 5], &[5, 1], &[2, 4], 1), None);
        assert_eq!(strided_displaced(&[2, 2], &[5, 1], &[0, 0], 5), Some(vec![1, 0]));
        assert_eq!(strided_displaced(&[2, 2], &[5, 1], &[0, 1], 1), None);
        assert_eq!(strided_displaced(&[4], &[2], &[0], 1), None);
        assert_eq!(strided_displaced(&[4], &[2], &[0], 2), Some(vec![1]));
        assert_eq!(row_major_displaced(&[2, 3], &[0, 2], 2), Some(vec![1, 1]));
        assert_eq!(row_major_displaced(&[2, 3], &[0, 2], 4), None);
        assert_eq!(row_major_displaced(&[2, 3], &[0, 0], -1), None);
    }

    /// `vector.scalable.insert`/`extract` move a fixed-size slice at `pos`.
    #[test]
    fn scalable_insert_and_extract() {
        let t = r#"func.func @main() {
  %z = arith.constant 0 : i32
  %v = vector.broadcast %z : i32 to vector<[4]xi32>
  %s = arith.constant dense<[7, 8]> : vector<2xi32>
  %w = vector.scalable.insert %s, %v[2] : vector<2xi32> into vector<[4]xi32>
  vector.print %w : vector<[4]xi32>
  %x = vector.scalable.extract %w[0] : vector<4xi32> from vector<[4]xi32>
  vector.print %x : vector<4xi32>
  return
}"#;
        assert_eq!(run(t, 2), "( 0, 0, 7, 8, 0, 0, 0, 0 )\n( 0, 0, 7, 8 )\n");
    }
}

//! Operand plumbing shared by the dialect files: elementwise integer ops
//! over scalars and vectors (read the operands, apply one pure function of
//! `crate::sem` per element, propagate poison, turn UB into an error at the
//! op, write the results), so `arith` and `index` share it without one
//! dialect importing the other; the elementwise casts, float ops and
//! select that `arith` and `llvm` share; and the `!llvm.ptr` helpers the
//! llvm dialect and the runtime library both need.

use crate::dense::DenseError;
use crate::error::{Error, ErrorKind, Result};
use crate::exec::{Engine, Flow, Frame};
use crate::float::libm::{self, Fn1, LibmError};
use crate::float::{self, Float, Round};
use crate::memory::{mem_ub, AllocKind, AllocLayout, Buffer, Elem, Lane, MemRef};
use crate::sem::fp::To;
use crate::sem::int::Out;
use crate::sparse::{Entry, Scheme, SparseTensor};
use crate::value::{map1, map2, map2_pair, Builder, Dense, Int, Packed, Poison, Scalar, Value};
use mlir_ir::attrs::Attribute;
use mlir_ir::ir::OpId;
use mlir_ir::types::{TypeId, TypeKind};
use std::cell::RefCell;
use std::rc::Rc;

/// The operand types do not fit the op (the verifier admitted them).
#[inline]
pub fn bad_types(op: OpId) -> Error {
    Error::unverified(op, "operand types do not match the op")
}

/// Elementwise operands of different shapes. Verified IR gives them one
/// type, so only dynamic tensor sizes can disagree, at run time: the
/// elementwise contract is broken, undefined behaviour.
#[inline]
pub fn bad_shape(op: OpId) -> impl Fn() -> Error {
    move || Error::at(op, ErrorKind::Ub("elementwise operands whose dynamic sizes differ at run time".into()))
}

/// Turns an integer outcome into a scalar (or the UB error).
#[inline]
pub fn out(e: &Engine, op: OpId, o: Option<Out>) -> Result<Scalar> {
    match o {
        Some(Out::Val(i)) => Ok(Scalar::Int(i)),
        Some(Out::Poison) => Ok(Scalar::Poison(Poison(op))),
        Some(Out::Ub(m)) => Err(Error::at(op, ErrorKind::Ub(format!("{m} in '{}'", e.m.op_name(op))))),
        None => Err(Error::unverified(op, "integer width out of range")),
    }
}

/// The integer width of operand 0's elements.
#[inline]
pub fn operand_width(e: &Engine, op: OpId) -> Result<u32> {
    let t = e.operand_type(op, 0).ok_or_else(|| bad_types(op))?;
    e.int_width(e.elem_type(t)).ok_or_else(|| bad_types(op))
}

/// What result 0's elements are: an integer width or a float format.
#[inline]
pub fn result_to(e: &Engine, op: OpId) -> Result<To> {
    let t = e.elem_type(e.result_type(op, 0));
    if let TypeKind::Float(k) = e.m.ctx.type_kind(t) {
        return Ok(To::Float(*k));
    }
    e.int_width(t).map(To::Int).ok_or_else(|| bad_types(op))
}

/// A binary integer op, elementwise, poison in gives poison out.
#[inline]
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
#[inline]
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
#[inline]
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

// ---- vectors and tensors ----------------------------------------------------

/// Operand `i` as a dense array (a scalar reads as a 0-D array).
#[inline]
pub fn dense(e: &Engine, fr: &Frame, op: OpId, i: usize) -> Result<Rc<Dense>> {
    match e.arg(fr, op, i)? {
        Value::Array(a) => Ok(a.clone()),
        Value::Sparse(s) => sparse_elements(e, op, s),
        v @ (Value::Scalar(_) | Value::Wide(_)) => Dense::new(&[], &[v.scalar().ok_or_else(|| bad_types(op))?], None)
            .map(Rc::new)
            .map_err(|x| Error::unverified(op, format!("operand #{i}: {x:?}"))),
        _ => Err(Error::unverified(op, format!("operand #{i} is not a vector or tensor"))),
    }
}

/// Operand `i`, a vector or tensor the op updates into its result: taken
/// out of its slot when the op is its last read (`Engine::take_arg`), so
/// that `Engine::unique` updates it in place when nothing else holds it.
pub fn dense_owned(e: &Engine, fr: &mut Frame, op: OpId, i: usize) -> Result<Rc<Dense>> {
    match e.take_arg(fr, op, i)? {
        Value::Array(a) => Ok(a),
        Value::Sparse(s) => sparse_elements(e, op, &s),
        _ => Err(Error::unverified(op, format!("operand #{i} is not a vector or tensor"))),
    }
}

/// The elements of sparse tensor `s`, within the memory budget (a huge
/// tensor with few entries has a huge dense form).
pub fn sparse_elements(e: &Engine, op: OpId, s: &crate::sparse::SparseTensor) -> Result<Rc<Dense>> {
    let n = s.scheme.dim_sizes.iter().try_fold(1usize, |a, d| a.checked_mul(usize::try_from(*d).ok()?));
    e.mem.reserve(
        op,
        n.unwrap_or(usize::MAX).saturating_mul(s.scheme.lane.bytes()),
        "the elements of a sparse tensor",
    )?;
    s.dense().map_err(|x| sparse_error(op, x))
}

/// The error at `op` for a sparse tensor that could not be built or read.
pub fn sparse_error(op: OpId, e: crate::sparse::SparseError) -> Error {
    use crate::sparse::SparseError as S;
    match e {
        S::Ub(m) => Error::at(op, ErrorKind::Ub(m)),
        S::Unsupported(m) => Error::at(op, ErrorKind::Unsupported(m)),
        S::NotExplicit { stored, explicit } => Error::at(
            op,
            ErrorKind::Ub(format!(
                "storing {} in a sparse tensor whose explicitVal is {}",
                crate::show::scalar(&stored),
                crate::show::scalar(&explicit)
            )),
        ),
        S::Alloc(bytes) => {
            Error::at(op, ErrorKind::Resource(format!("the host could not allocate {bytes} bytes for a sparse tensor")))
        }
    }
}

/// The storage scheme of `ty` with dimension sizes `dims`, or `None` when
/// `ty` has no sparse encoding (a dense tensor).
pub fn sparse_scheme(e: &Engine, op: OpId, ty: TypeId, dims: &[usize]) -> Result<Option<Rc<crate::sparse::Scheme>>> {
    let Some(enc) = e.m.ctx.tensor_encoding(ty) else { return Ok(None) };
    let et = e.elem_type(ty);
    let lane = lane_of(e, et).ok_or_else(|| {
        let t = mlir_ir::printer::type_to_string(&e.m.ctx, et);
        Error::at(op, ErrorKind::Unsupported(format!("sparse tensors of {t}")))
    })?;
    let implicit = match enc.implicit_val {
        Some(a) => {
            e.attr_value(op, a, et)?.scalar().ok_or_else(|| Error::unverified(op, "implicitVal is not a scalar"))?
        }
        None => crate::sparse::zero(lane),
    };
    let dims: Vec<u64> = dims.iter().map(|d| *d as u64).collect();
    let mut s = crate::sparse::Scheme::new(enc, &dims, lane, implicit).map_err(|x| sparse_error(op, x))?;
    if let Some(a) = enc.explicit_val {
        let x =
            e.attr_value(op, a, et)?.scalar().ok_or_else(|| Error::unverified(op, "explicitVal is not a scalar"))?;
        s.explicit = Some(x);
    }
    // The storage every tensor of this scheme has, empty or not: the
    // positions (or, all dense, the values) of its leading dense levels.
    let per = if s.all_dense() { std::mem::size_of::<Scalar>() } else { 8 };
    let mut lead =
        s.lvl_sizes.iter().zip(&s.enc.lvl_types).take_while(|(_, t)| t.format == mlir_ir::sparse::LevelFormat::Dense);
    let n = lead.try_fold(1usize, |a, (n, _)| a.checked_mul(usize::try_from(*n).ok()?));
    e.mem.reserve(op, n.unwrap_or(usize::MAX).saturating_mul(per), "a sparse tensor's storage")?;
    Ok(Some(Rc::new(s)))
}

/// A new tensor of result 0's type and `shape` with unspecified contents
/// (`tensor.empty`, `alloc_tensor`): poison elements, or for a sparse type
/// no stored entry.
pub fn empty_tensor(e: &Engine, op: OpId, shape: &[usize]) -> Result<Value> {
    match sparse_scheme(e, op, e.result_type(op, 0), shape)? {
        Some(s) => {
            crate::sparse::SparseTensor::empty(s).map(|t| Value::Sparse(Rc::new(t))).map_err(|x| sparse_error(op, x))
        }
        None => filled(e, op, shape, &Scalar::Poison(Poison(op))),
    }
}

/// A value of `shape` with `x` in every element, in the result's element
/// lane, charged to the memory budget at its byte size.
pub fn filled(e: &Engine, op: OpId, shape: &[usize], x: &Scalar) -> Result<Value> {
    let lane = lane_of(e, e.elem_type(e.result_type(op, 0)));
    let bytes = count(op, shape)?.saturating_mul(lane.map_or(0, |l| l.bytes()));
    e.mem.reserve(op, bytes, "a tensor")?;
    Dense::splat(shape, x, lane).map(|d| Value::Array(Rc::new(d))).map_err(|x| dense_error(op, x))
}

/// The storage lane of scalar type `ty` (integer, index, float, complex).
pub fn lane_of(e: &Engine, ty: TypeId) -> Option<Lane> {
    e.lane_of(ty)
}

/// The error for a dense value `op` could not build: a host allocation
/// failure is a resource limit, anything else an interpreter bug.
pub fn dense_error(op: OpId, e: DenseError) -> Error {
    dense_error_as(op, e, || format!("the value's elements do not fit its type: {:?}", DenseError::Shape))
}

/// [`dense_error`], where a shape mismatch means what `shape` says (the
/// op's own diagnosis of a bad shape).
pub fn dense_error_as(op: OpId, e: DenseError, shape: impl FnOnce() -> String) -> Error {
    match e {
        DenseError::Shape => Error::unverified(op, shape()),
        DenseError::Alloc(bytes) => {
            Error::at(op, ErrorKind::Resource(format!("the host could not allocate {bytes} bytes for a value")))
        }
        e => Error::unverified(op, format!("the value's elements do not fit its type: {e:?}")),
    }
}

/// An array value of `shape` from row-major `elems`.
#[inline]
pub fn array(op: OpId, shape: &[usize], elems: Vec<Scalar>) -> Result<Value> {
    let n = elems.len();
    Value::dense(shape, &elems)
        .map_err(|e| Error::unverified(op, format!("{n} elements do not make a {shape:?} array: {e:?}")))
}

/// Builds an array of `shape` by evaluating `f` at every index, row-major.
#[inline]
pub fn tabulate(op: OpId, shape: &[usize], mut f: impl FnMut(&[usize]) -> Result<Scalar>) -> Result<Value> {
    let n = count(op, shape)?;
    let mut elems = Vec::with_capacity(n);
    let mut idx = vec![0usize; shape.len()];
    for _ in 0..n {
        elems.push(f(&idx)?);
        next_index(&mut idx, shape);
    }
    array(op, shape, elems)
}

/// The element count of `shape`, checked.
#[inline]
pub fn count(op: OpId, shape: &[usize]) -> Result<usize> {
    shape
        .iter()
        .try_fold(1usize, |a, d| a.checked_mul(*d))
        .ok_or_else(|| Error::unverified(op, "element count overflows"))
}

/// Advances a row-major odometer; wraps to all zeros after the last index.
#[inline]
pub fn next_index(idx: &mut [usize], shape: &[usize]) {
    for d in (0..idx.len()).rev() {
        idx[d] += 1;
        if idx[d] < shape[d] {
            return;
        }
        idx[d] = 0;
    }
}

/// The integer value of an index or integer attribute list: `array<i64: ..>`
/// or `[1 : i64, ..]`.
#[inline]
pub fn i64s(e: &Engine, op: OpId, name: &str) -> Result<Vec<i64>> {
    Ok(e.ints_attr(op, name)?.unwrap_or_default())
}

/// An index or integer scalar as a signed number; `None` for poison.
#[inline]
pub fn index_or_poison(op: OpId, v: &Value) -> Result<Option<i64>> {
    match v.scalar() {
        Some(Scalar::Int(i)) => Ok(Some(i.to_i64().unwrap_or(i64::MAX))),
        Some(Scalar::Poison(_)) => Ok(None),
        _ => Err(Error::unverified(op, "expected an index operand")),
    }
}

/// The scalars of a list of scalar values.
#[inline]
pub fn scalars(op: OpId, vals: Vec<Value>) -> Result<Vec<Scalar>> {
    vals.into_iter().map(|v| v.scalar().ok_or_else(|| Error::unverified(op, "expected scalar operands"))).collect()
}

// ---- memrefs and indices ----------------------------------------------------

/// The memref in `v`.
#[inline]
pub fn as_memref(op: OpId, v: &Value) -> Result<Rc<MemRef>> {
    match v {
        Value::Memref(m) => Ok(m.clone()),
        _ => Err(Error::unverified(op, "expected a memref operand")),
    }
}

/// Memref operand `i`.
#[inline]
pub fn memref_arg(e: &Engine, fr: &Frame, op: OpId, i: usize) -> Result<Rc<MemRef>> {
    as_memref(op, e.arg(fr, op, i)?)
}

/// An index (or integer) value as `i64`, failing on poison.
#[inline]
pub fn index_of(e: &Engine, op: OpId, v: &Value, what: &str) -> Result<i64> {
    e.observe(op, v, what)?;
    v.as_int().and_then(|i| i.to_i64()).ok_or_else(|| Error::unverified(op, "expected an index operand"))
}

/// Index operands `range` of `op`.
#[inline]
pub fn index_args(e: &Engine, fr: &Frame, op: OpId, range: std::ops::Range<usize>, what: &str) -> Result<Vec<i64>> {
    e.args_in(fr, op, range)?.iter().map(|v| index_of(e, op, v, what)).collect()
}

/// An index value.
#[inline]
pub fn index_value(e: &Engine, v: i64) -> Value {
    Value::int(Int::from_i128(e.cfg.index_bits, i128::from(v)))
}

// ---- memref storage ---------------------------------------------------------

/// Fresh tensor-owned storage holding `t`, as bufferization materializes a
/// tensor as a buffer (`to_buffer`, `buffer_cast`, a tensor passed to a
/// memref runtime function); `what` names the op for diagnostics.
#[inline]
pub fn tensor_storage(
    e: &mut Engine,
    at: OpId,
    elem_ty: TypeId,
    layout: AllocLayout,
    t: &Dense,
    what: &str,
) -> Result<MemRef> {
    let elem = elem_of(e, at, elem_ty)?;
    let sizes = t.shape().iter().map(|d| i64::try_from(*d).unwrap_or(i64::MAX)).collect();
    let m = e.mem.alloc(at, elem, sizes, layout, AllocKind::Tensor, 0)?;
    m.write_all(at, t, what)?;
    Ok(m)
}

/// `memref.realloc` of the 1-D heap buffer `src` to `n` elements of
/// `elem`: a new buffer holding the first elements, `src` freed (using it
/// afterwards is UB); a view or a buffer not from the heap is UB.
pub fn realloc(e: &mut Engine, op: OpId, src: &MemRef, elem: Elem, n: i64, align: u64) -> Result<MemRef> {
    src.check_live(op, "realloc")?;
    {
        let b = src.buf.borrow();
        if b.kind != AllocKind::Heap || src.view || src.base != 0 {
            return Err(mem_ub(op, b.origin, format!("realloc of {}, which is not a heap allocation", src.describe())));
        }
    }
    let dst = e.mem.alloc(op, elem, vec![n], AllocLayout::Identity, AllocKind::Heap, align)?;
    let keep = n.min(src.sizes.first().copied().unwrap_or(0));
    for i in 0..keep {
        let v = src.load(op, &[i], "realloc")?;
        dst.store(op, &[i], &v, "realloc")?;
    }
    e.mem.release(&src.buf, crate::memory::Freed::Realloc);
    Ok(dst)
}

/// The storage kind of element type `ty`, or an unsupported error at `at`.
#[inline]
pub fn elem_of(e: &Engine, at: OpId, ty: TypeId) -> Result<Elem> {
    let ctx = &e.m.ctx;
    let name: Rc<str> = mlir_ir::printer::type_to_string(ctx, ty).into();
    let lane_of = |t: TypeId| lane_of(e, t);
    let unsupported = || Error::at(at, ErrorKind::Unsupported(format!("memref elements of type {name}")));
    if let TypeKind::Vector { shape, elem, .. } = ctx.type_kind(ty) {
        let lane = lane_of(*elem).ok_or_else(unsupported)?;
        let scalable = match ctx.type_kind(ty) {
            TypeKind::Vector { scalable, .. } => scalable.clone(),
            _ => Vec::new(),
        };
        let vshape = shape
            .iter()
            .zip(scalable.iter().chain(std::iter::repeat(&false)))
            .map(|(d, s)| {
                let n = usize::try_from(*d).ok()?;
                if *s {
                    n.checked_mul(e.cfg.vscale as usize)
                } else {
                    Some(n)
                }
            })
            .collect::<Option<Vec<usize>>>()
            .ok_or_else(unsupported)?;
        return Ok(Elem::vector(lane, vshape, name, ty));
    }
    let lane = lane_of(ty).ok_or_else(unsupported)?;
    Ok(Elem::scalar(lane, name, ty))
}

// ---- pointers (`!llvm.ptr`) ---------------------------------------------------

/// The name of the global (or other allocation) `origin`, for messages.
pub fn alloc_name(e: &Engine, origin: OpId) -> String {
    let m = e.m;
    if let Some(Attribute::SymbolRef { root, .. }) = m.attr(origin, "callee").map(|a| m.ctx.attr_kind(a)) {
        return format!("the memory @{} returned", String::from_utf8_lossy(root));
    }
    match m.attr(origin, "sym_name").map(|a| m.ctx.attr_kind(a)) {
        Some(Attribute::String { value, .. }) => format!("@{}", String::from_utf8_lossy(value)),
        _ => format!("the allocation of '{}'", m.op_name(origin)),
    }
}

/// The buffer and byte index of an access of `n` bytes through `v`:
/// undefined behaviour through poison, null, a freed buffer or outside it.
pub fn place(e: &Engine, op: OpId, v: &Value, n: usize, what: &str) -> Result<(Rc<RefCell<Buffer>>, usize)> {
    e.observe(op, v, &format!("used as the address of {what}"))?;
    let Value::Ptr(p) = v else { return Err(Error::unverified(op, format!("the address of {what} is not a pointer"))) };
    let Some(buf) = p.buf.clone() else {
        return Err(Error::at(
            op,
            ErrorKind::Ub(format!("{what} through a null pointer (address {:#x}, no allocation)", p.offset)),
        ));
    };
    let (origin, len, freed, kind) = {
        let b = buf.borrow();
        (b.origin, b.len(), b.freed, b.kind)
    };
    if kind == AllocKind::Function {
        let name = alloc_name(e, origin);
        let msg = format!("{what} through a pointer to function {name}: a function's code is not data");
        return Err(Error::at(op, ErrorKind::Ub(msg)));
    }
    if let Some(how) = freed {
        let name = alloc_name(e, origin);
        return Err(mem_ub(
            op,
            origin,
            format!("use after free: {what} through a pointer into {name}, whose memory was {}", how.how()),
        ));
    }
    let at = usize::try_from(p.offset).ok().filter(|at| at.checked_add(n).is_some_and(|end| end <= len));
    match at {
        Some(at) => Ok((buf, at)),
        None => Err(mem_ub(
            op,
            origin,
            format!(
                "out-of-bounds {what}: {n} byte(s) at offset {} of {}, which has {len} bytes",
                p.offset,
                alloc_name(e, origin)
            ),
        )),
    }
}

/// The bytes of the NUL-terminated string at `p` (without the NUL), as
/// `printString`'s `fputs` reads them: undefined behaviour if the
/// allocation ends, or a byte was never written, before a NUL.
pub fn c_string(e: &Engine, op: OpId, p: &Value) -> Result<Vec<u8>> {
    let (buf, start) = place(e, op, p, 1, "printString")?;
    let b = buf.borrow();
    let mut out = Vec::new();
    for i in start..b.len() {
        match b.byte(i) {
            Ok(0) => return Ok(out),
            Ok(c) => out.push(c),
            Err(Poison(origin)) => {
                return Err(Error::at(
                    op,
                    ErrorKind::Poison {
                        what: format!("read by printString at offset {i} of {}", alloc_name(e, b.origin)),
                        origin,
                    },
                ))
            }
        }
    }
    Err(mem_ub(
        op,
        b.origin,
        format!(
            "printString reads past the end of {} ({} bytes): no NUL byte from offset {start} on",
            alloc_name(e, b.origin),
            b.len()
        ),
    ))
}

// ---- elementwise casts, float ops and select (arith and llvm) ------------

/// `bitcast` of one element to element type `to` (same bit width).
pub fn bitcast(op: OpId, s: &Scalar, to: To) -> Result<Scalar> {
    Ok(match (s, to) {
        (Scalar::Int(i), To::Float(k)) => Scalar::Float(float::from_bits(k, i.bits128().unwrap_or(0))),
        (Scalar::Float(f), To::Int(w)) => Scalar::Int(Int::from_u128(w, f.bits)),
        (Scalar::Float(f), To::Float(k)) => Scalar::Float(float::from_bits(k, f.bits)),
        (Scalar::Int(i), To::Int(w)) => Scalar::Int(Int::from_big(w, &i.to_ubig())),
        (Scalar::Poison(p), _) => Scalar::Poison(*p),
        (Scalar::Complex(..), _) => return Err(bad_types(op)),
    })
}

/// `sitofp`/`uitofp` of one element.
pub fn int_to_float(op: OpId, s: &Scalar, to: To, signed: bool, pol: float::Policy) -> Result<Scalar> {
    let (Scalar::Int(i), To::Float(k)) = (s, to) else { return Err(bad_types(op)) };
    let v = if signed { i.to_sbig() } else { i.to_ubig() };
    float::from_int_with(&v, k, Round::NearestEven, pol)
        .map(Scalar::Float)
        .map_err(|e| Error::at(op, ErrorKind::NoDefinedResult(e.to_string())))
}

/// `fptosi`/`fptoui` of one element: poison when the value does not fit.
pub fn float_to_int(op: OpId, s: &Scalar, to: To, signed: bool) -> Result<Scalar> {
    let (Scalar::Float(f), To::Int(w)) = (s, to) else { return Err(bad_types(op)) };
    Ok(match float::to_int(*f, w, signed) {
        Some(v) => Scalar::Int(Int::from_big(w, &v)),
        None => Scalar::Poison(Poison(op)),
    })
}

/// A float conversion of one element with rounding `r`.
pub fn convert(op: OpId, s: &Scalar, to: To, r: Round, pol: float::Policy) -> Result<Scalar> {
    let (Scalar::Float(f), To::Float(k)) = (s, to) else { return Err(bad_types(op)) };
    float::convert_with(*f, k, r, pol)
        .map(Scalar::Float)
        .map_err(|e| Error::at(op, ErrorKind::NoDefinedResult(e.to_string())))
}

/// Any other cast: `f` gets the element and the result element type.
pub fn cast(e: &Engine, fr: &mut Frame, op: OpId, f: impl Fn(&Scalar, To) -> Result<Scalar>) -> Result<Flow> {
    let to = result_to(e, op)?;
    let v = map1(
        e.arg(fr, op, 0)?,
        |x| match x {
            Scalar::Poison(p) => Ok(Scalar::Poison(*p)),
            _ => f(x, to),
        },
        bad_shape(op),
    )?;
    e.assign(fr, op, v)
}

/// A binary float op, elementwise.
pub fn float2(e: &Engine, fr: &mut Frame, op: OpId, f: impl Fn(Float, Float) -> Result<Scalar>) -> Result<Flow> {
    let (a, b) = (e.arg(fr, op, 0)?, e.arg(fr, op, 1)?);
    if let Some(v) = float_lanes(op, a, b, &f)? {
        return e.assign(fr, op, v);
    }
    let v = map2(
        a,
        b,
        |x, y| match (x, y) {
            (Scalar::Poison(p), _) | (_, Scalar::Poison(p)) => Ok(Scalar::Poison(*p)),
            (Scalar::Float(x), Scalar::Float(y)) => f(*x, *y),
            _ => Err(bad_types(op)),
        },
        bad_shape(op),
    )?;
    e.assign(fr, op, v)
}

/// `f` over two arrays of float lanes without poison, read straight from
/// their bytes; `None` for anything else (the scalar walk handles it).
pub(crate) fn float_lanes(
    op: OpId,
    a: &Value,
    b: &Value,
    f: impl Fn(Float, Float) -> Result<Scalar>,
) -> Result<Option<Value>> {
    let (Value::Array(x), Value::Array(y)) = (a, b) else { return Ok(None) };
    let (Some(xs), Some(ys), true) = (x.floats(), y.floats(), x.shape() == y.shape()) else { return Ok(None) };
    let mut out = Builder::new(x.shape(), None).map_err(|_| bad_shape(op)())?;
    for (p, q) in xs.zip(ys) {
        out.push(&f(p, q)?).map_err(|_| bad_types(op))?;
    }
    Ok(Some(Value::Array(std::rc::Rc::new(out.finish().map_err(|_| bad_shape(op)())?))))
}

/// A unary float op, elementwise.
pub fn float1(e: &Engine, fr: &mut Frame, op: OpId, f: impl Fn(Float) -> Float) -> Result<Flow> {
    float1_try(e, fr, op, |x| Ok(f(x)))
}

/// `f` over the lanes of an f32/f64 array without poison, read from and
/// written to the encoded words (no `Scalar` per lane), the first error
/// in lane order returned as the general path would; `None` for any other
/// operand, or a lane `f` gives in another format.
fn float_lanes1(v: &Value, f: &impl Fn(Float) -> Result<Float>) -> Result<Option<Dense>> {
    let Value::Array(a) = v else { return Ok(None) };
    let Lane::Float(kind @ (float::FloatKind::F32 | float::FloatKind::F64)) = a.lane() else { return Ok(None) };
    if a.has_poison() {
        return Ok(None);
    }
    let n = kind.bit_width() as usize / 8;
    let mut out = Vec::with_capacity(a.bytes().len());
    for lane in a.bytes().chunks_exact(n) {
        let r = f(Float { kind, bits: crate::lane::le_u128(lane) })?;
        if r.kind != kind {
            return Ok(None);
        }
        out.extend_from_slice(&r.bits.to_le_bytes()[..n]);
    }
    Ok(Dense::from_le_bytes(a.shape(), a.lane(), out).ok())
}

/// `arith.select` and `llvm.select`: an i1 condition picks whole operands, a shaped one picks
/// elements; a poison condition gives poison, the unpicked operand may be poison.
pub fn select(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let (c, t, f) = (e.arg(fr, op, 0)?, e.arg(fr, op, 1)?, e.arg(fr, op, 2)?);
    let v = match c {
        Value::Scalar(Packed::Poison(p)) => match t {
            Value::Array(_) => map1(t, |_| Ok(Scalar::Poison(*p)), bad_shape(op))?,
            _ => Value::from_scalar(Scalar::Poison(*p)),
        },
        Value::Scalar(Packed::Int { lo, hi, .. }) => {
            if *lo != 0 || *hi != 0 {
                t.clone()
            } else {
                f.clone()
            }
        }
        Value::Array(cs) => {
            let (Value::Array(ta), Value::Array(fa)) = (t, f) else { return Err(bad_types(op)) };
            if let Some(d) = crate::value::Dense::select(cs, ta, fa) {
                return e.assign(fr, op, Value::Array(std::rc::Rc::new(d)));
            }
            if ta.shape() != cs.shape() || fa.shape() != cs.shape() {
                return Err(bad_shape(op)());
            }
            let elems: Vec<Scalar> = cs
                .iter()
                .zip(ta.iter().zip(fa.iter()))
                .map(|(c, (x, y))| match c {
                    Scalar::Poison(p) => Scalar::Poison(p),
                    Scalar::Int(i) if i.is_nonzero() => x,
                    _ => y,
                })
                .collect();
            crate::operands::array(op, cs.shape(), elems)?
        }
        _ => return Err(bad_types(op)),
    };
    e.assign(fr, op, v)
}

// ---- branches (cf and llvm) ------------------------------------------------

/// Successor `i` of `op`.
pub fn successor(e: &Engine, op: OpId, i: usize) -> Result<mlir_ir::ir::BlockId> {
    e.m.successors(op).get(i).copied().ok_or_else(|| Error::unverified(op, format!("missing successor #{i}")))
}

/// `cf.switch`/`llvm.switch`: to the successor whose case value (decoded
/// at load) equals the flag, else to the default (successor 0).
pub fn switch(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let flag = e.arg(fr, op, 0)?;
    e.observe(op, flag, "used as a switch flag")?;
    let Some(Scalar::Int(flag)) = flag.scalar() else {
        return Err(Error::unverified(op, "switch flag is not an integer"));
    };
    let ncases = e.m.successors(op).len().saturating_sub(1);
    let hit = match &e.aux[op.0 as usize].constant {
        Some(Value::Array(cases)) => cases.iter().position(|c| c.as_int() == Some(&flag)),
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

/// `cf.cond_br` / `llvm.cond_br %c, ^t(..), ^f(..)`: the operands after the
/// condition split by the successors' argument counts; a poison condition
/// is an error naming its origin.
pub fn cond_branch(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let c = e.cond(op, e.arg(fr, op, 0)?, "used as a branch condition")?;
    let (t, f) = (successor(e, op, 0)?, successor(e, op, 1)?);
    let nt = e.m.block(t).args.len as usize;
    let nf = e.m.block(f).args.len as usize;
    if c {
        Ok(Flow::Branch(t, e.args_in(fr, op, 1..1 + nt)?))
    } else {
        Ok(Flow::Branch(f, e.args_in(fr, op, 1 + nt..1 + nt + nf)?))
    }
}

// ---- elementwise float and integer ops (math and llvm intrinsics) ---------

/// A libm failure as an engine error at `op`.
pub fn libm_error(e: &Engine, op: OpId, err: LibmError) -> Error {
    let name = e.m.op_name(op);
    match err {
        LibmError::Unsupported(_, kind) => Error::at(
            op,
            ErrorKind::Unsupported(format!("'{name}' on {}: no libm routine for this format", kind.name())),
        ),
        LibmError::NoResult(f) => Error::at(op, ErrorKind::NoDefinedResult(format!("'{name}': {f}"))),
    }
}

pub fn libm1(e: &Engine, fr: &mut Frame, op: OpId, f: Fn1) -> Result<Flow> {
    let pol = e.cfg.float_policy;
    float1_try(e, fr, op, |x| libm::unary(f, x, pol).map_err(|err| libm_error(e, op, err)))
}

/// A unary float op, elementwise; poison in gives poison out.
pub fn float1_try(e: &Engine, fr: &mut Frame, op: OpId, f: impl Fn(Float) -> Result<Float>) -> Result<Flow> {
    if let Some(v) = float_lanes1(e.arg(fr, op, 0)?, &f)? {
        return e.assign(fr, op, Value::Array(Rc::new(v)));
    }
    let v = map1(
        e.arg(fr, op, 0)?,
        |x| match x {
            Scalar::Poison(p) => Ok(Scalar::Poison(*p)),
            Scalar::Float(x) => f(*x).map(Scalar::Float),
            Scalar::Int(_) | Scalar::Complex(..) => Err(bad_types(op)),
        },
        bad_shape(op),
    )?;
    e.assign(fr, op, v)
}

/// A binary float op, elementwise.
pub fn float2_try(e: &Engine, fr: &mut Frame, op: OpId, f: impl Fn(Float, Float) -> Result<Float>) -> Result<Flow> {
    let (a, b) = (e.arg(fr, op, 0)?, e.arg(fr, op, 1)?);
    let v = map2(
        a,
        b,
        |x, y| match (x, y) {
            (Scalar::Poison(p), _) | (_, Scalar::Poison(p)) => Ok(Scalar::Poison(*p)),
            (Scalar::Float(x), Scalar::Float(y)) => f(*x, *y).map(Scalar::Float),
            _ => Err(bad_types(op)),
        },
        bad_shape(op),
    )?;
    e.assign(fr, op, v)
}

/// A ternary float op (`fma`, `clampf`), elementwise.
pub fn float3(e: &Engine, fr: &mut Frame, op: OpId, f: impl Fn(Float, Float, Float) -> Result<Float>) -> Result<Flow> {
    let args = [e.arg(fr, op, 0)?, e.arg(fr, op, 1)?, e.arg(fr, op, 2)?];
    let one = |xs: [&Scalar; 3]| match xs {
        [Scalar::Poison(p), _, _] | [_, Scalar::Poison(p), _] | [_, _, Scalar::Poison(p)] => Ok(Scalar::Poison(*p)),
        [Scalar::Float(a), Scalar::Float(b), Scalar::Float(c)] => f(*a, *b, *c).map(Scalar::Float),
        _ => Err(bad_types(op)),
    };
    let v = match args {
        [a @ (Value::Scalar(_) | Value::Wide(_)), b, c] if b.scalar().is_some() && c.scalar().is_some() => {
            let bad = || bad_types(op);
            Value::from_scalar(one([
                &a.scalar().ok_or_else(bad)?,
                &b.scalar().ok_or_else(bad)?,
                &c.scalar().ok_or_else(bad)?,
            ])?)
        }
        [Value::Array(a), Value::Array(b), Value::Array(c)] if a.shape() == b.shape() && a.shape() == c.shape() => {
            let elems = a.iter().zip(b.iter()).zip(c.iter()).map(|((x, y), z)| one([&x, &y, &z]));
            let elems = elems.collect::<Result<Vec<_>>>()?;
            array(op, a.shape(), elems)?
        }
        _ => return Err(bad_shape(op)()),
    };
    e.assign(fr, op, v)
}

/// A class test (`isnan`, ...): float in, i1 out.
pub fn float_class(e: &Engine, fr: &mut Frame, op: OpId, f: impl Fn(Float) -> bool) -> Result<Flow> {
    let v = map1(
        e.arg(fr, op, 0)?,
        |x| match x {
            Scalar::Poison(p) => Ok(Scalar::Poison(*p)),
            Scalar::Float(x) => Ok(Scalar::Int(Int::bool(f(*x)))),
            Scalar::Int(_) | Scalar::Complex(..) => Err(bad_types(op)),
        },
        bad_shape(op),
    )?;
    e.assign(fr, op, v)
}

/// A unary integer op, elementwise.
pub fn int1(e: &Engine, fr: &mut Frame, op: OpId, f: impl Fn(&Int) -> Int) -> Result<Flow> {
    let v = map1(
        e.arg(fr, op, 0)?,
        |x| match x {
            Scalar::Poison(p) => Ok(Scalar::Poison(*p)),
            Scalar::Int(i) => Ok(Scalar::Int(f(i))),
            Scalar::Float(_) | Scalar::Complex(..) => Err(bad_types(op)),
        },
        bad_shape(op),
    )?;
    e.assign(fr, op, v)
}

/// An elementwise op on two arrays by `lanes`, a host lane loop over their
/// bytes (`Dense::host2`, `Dense::host_cmpf`); `None` when the operands
/// are not two arrays it takes (scalars, poison lanes, other formats).
pub fn host_lanes(
    e: &Engine,
    fr: &mut Frame,
    op: OpId,
    lanes: impl Fn(&Dense, &Dense) -> Option<Dense>,
) -> Result<Option<Flow>> {
    let (Value::Array(a), Value::Array(b)) = (e.arg(fr, op, 0)?, e.arg(fr, op, 1)?) else { return Ok(None) };
    match lanes(a, b) {
        Some(d) => e.assign(fr, op, Value::Array(std::rc::Rc::new(d))).map(Some),
        None => Ok(None),
    }
}

/// A cast of an array on the host's conversions (`Dense::host_cast`),
/// `nan` giving the exact result of a NaN lane; `None` when the operand
/// is not an array it takes.
pub fn host_cast(
    e: &Engine,
    fr: &mut Frame,
    op: OpId,
    how: crate::dense::HostCast,
    nan: impl Fn(Float) -> Option<Float>,
) -> Result<Option<Flow>> {
    let Value::Array(a) = e.arg(fr, op, 0)? else { return Ok(None) };
    let to = match result_to(e, op)? {
        To::Int(w) => Lane::Int(w),
        To::Float(k) => Lane::Float(k),
    };
    match a.host_cast(to, how, nan) {
        Some(d) => e.assign(fr, op, Value::Array(Rc::new(d))).map(Some),
        None => Ok(None),
    }
}

// ---- sparse tensors seen by other dialects ------------------------------

/// A stored entry in dimension coordinates.
pub type DimEntry = (Vec<u64>, Scalar);

/// The dimension sizes of a tensor value.
pub fn dims_of(op: OpId, v: &Value) -> Result<Vec<usize>> {
    match v {
        Value::Sparse(s) => Ok(s.scheme.dim_sizes.iter().map(|d| *d as usize).collect()),
        Value::Array(a) => Ok(a.shape().to_vec()),
        _ => Err(Error::unverified(op, "operand is not a tensor")),
    }
}

/// The entries `t` stores, in storage order, in dimension coordinates.
pub fn dim_entries(op: OpId, t: &SparseTensor) -> Result<Vec<DimEntry>> {
    t.entries().into_iter().map(|(lvl, x)| Ok((t.scheme.to_dim(&lvl).map_err(|k| sparse_error(op, k))?, x))).collect()
}

/// The nonzero elements of `d` with their coordinates, in row-major order.
/// A poison element is UB: the lowering branches on comparing it with zero.
pub fn nonzeros(op: OpId, d: &Dense) -> Result<Vec<DimEntry>> {
    let shape = d.shape();
    let mut idx = vec![0usize; shape.len()];
    let mut out = Vec::new();
    for x in d.iter() {
        if let Scalar::Poison(p) = x {
            let what = format!("at {idx:?} compared with zero to convert the tensor to a sparse one");
            return Err(Error::at(op, ErrorKind::Poison { what, origin: p.0 }));
        }
        if crate::sparse::is_nonzero(&x) {
            out.push((idx.iter().map(|i| *i as u64).collect(), x));
        }
        crate::operands::next_index(&mut idx, shape);
    }
    Ok(out)
}

/// The tensor of `scheme` storing `entries` (dimension coordinates): in
/// level order, sorted when every level is ordered (the sparsifier sorts
/// through a COO), else in the order given.
pub fn sparse_store(op: OpId, scheme: Rc<Scheme>, entries: Vec<DimEntry>) -> Result<SparseTensor> {
    let mut lvl: Vec<Entry> = Vec::with_capacity(entries.len());
    for (d, x) in entries {
        lvl.push((scheme.to_lvl(&d).map_err(|x| sparse_error(op, x))?.into_boxed_slice(), x));
    }
    if scheme.enc.lvl_types.iter().all(|t| !t.nonordered) {
        // libstdc++'s std::sort, as the runtime sorts its COO: equal
        // coordinates (a non-unique source) end in the order it leaves them.
        crate::stdsort::std_sort(&mut lvl, &|a: &Entry, b: &Entry| a.0 < b.0);
    }
    SparseTensor::from_entries(scheme, &lvl).map_err(|x| sparse_error(op, x))
}

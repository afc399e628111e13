//! The `tensor` dialect: tensors are `Value::Array`s with value semantics
//! (every op builds a new array; operands are never mutated). Dynamic
//! sizes come from the runtime arrays and the ops' index operands.
//!
//! Undefined behaviour the dialect's documentation names is reported with
//! the op's location and the numbers involved: out-of-bounds `extract`,
//! `insert`, `dim`, slices and gather/scatter indices; a `cast` or
//! `reshape` whose static sizes disagree with the runtime ones.
//! `tensor.empty` has unspecified contents: its elements are poison (after
//! bufferization they are uninitialised memory, SEMANTICS item 30).

use crate::dense::row_major_strides;
use crate::error::{Error, ErrorKind, Result};
use crate::exec::{Engine, Flow, Frame};
use crate::value::{Dense, Int, Scalar, Value};
use mlir_ir::ir::{OpId, RegionId};
use mlir_ir::ops::TensorOp;
use mlir_ir::types::{TypeId, TypeKind, DYNAMIC};
use std::rc::Rc;

use crate::operands::{
    array, count, dense, dense_error, dense_owned, dim_entries, dims_of, empty_tensor, filled, i64s, index_or_poison,
    next_index, nonzeros, scalars, sparse_scheme, sparse_store,
};

/// Executes one tensor op.
pub fn exec(e: &mut Engine, fr: &mut Frame, op: OpId, kind: TensorOp) -> Result<Flow> {
    use TensorOp::*;
    match kind {
        Empty => empty(e, fr, op),
        Extract => extract(e, fr, op),
        Insert => insert(e, fr, op),
        FromElements => from_elements(e, fr, op),
        Generate => generate(e, fr, op),
        Splat => splat(e, fr, op),
        Dim => dim(e, fr, op),
        Rank => rank(e, fr, op),
        Cast => cast(e, fr, op),
        Reshape => reshape(e, fr, op),
        ExpandShape => expand_shape(e, fr, op),
        CollapseShape => collapse_shape(e, fr, op),
        ExtractSlice => extract_slice(e, fr, op),
        InsertSlice => insert_slice(e, fr, op),
        ParallelInsertSlice => parallel_insert_slice(e, fr, op),
        Pad => pad(e, fr, op),
        Concat => concat(e, fr, op),
        Bitcast => bitcast(e, fr, op),
        Gather => gather(e, fr, op),
        Scatter => scatter(e, fr, op),
        Yield => Ok(Flow::Exit(e.args(fr, op))),
    }
}

fn ub(op: OpId, msg: String) -> Error {
    Error::at(op, ErrorKind::Ub(msg))
}

/// The printed type of `ty` (for messages).
fn ty_text(e: &Engine, ty: TypeId) -> String {
    mlir_ir::printer::type_to_string(&e.m.ctx, ty)
}

/// The static shape of a ranked tensor type ([`DYNAMIC`] for `?`).
fn static_shape(e: &Engine, op: OpId, ty: TypeId) -> Result<Vec<i64>> {
    match e.m.ctx.type_kind(ty) {
        TypeKind::RankedTensor { shape, .. } | TypeKind::Vector { shape, .. } => Ok(shape.clone()),
        _ => Err(Error::unverified(op, format!("expected a ranked tensor, got {}", ty_text(e, ty)))),
    }
}

/// A size operand as `usize`; negative or poison sizes are UB.
fn size_of(op: OpId, v: &Value, what: &str) -> Result<usize> {
    match index_or_poison(op, v)? {
        Some(n) => usize::try_from(n).map_err(|_| ub(op, format!("negative {what} {n}"))),
        None => Err(Error::at(op, ErrorKind::Poison { what: format!("used as a {what}"), origin: poison_origin(v) })),
    }
}

fn poison_origin(v: &Value) -> OpId {
    v.find_poison().map(|p| p.0).unwrap_or(OpId(0))
}

/// The shape of result type `ty`, its `?` dims taken from `dyn_vals` in order.
fn result_shape(e: &Engine, op: OpId, ty: TypeId, dyn_vals: &[Value]) -> Result<Vec<usize>> {
    let mut next = dyn_vals.iter();
    let shape: Vec<usize> = static_shape(e, op, ty)?
        .into_iter()
        .map(|d| {
            if d == DYNAMIC {
                size_of(op, next.next().ok_or_else(|| Error::unverified(op, "missing dynamic size operand"))?, "size")
            } else {
                usize::try_from(d).map_err(|_| Error::unverified(op, "negative static size"))
            }
        })
        .collect::<Result<_>>()?;
    let n = shape.iter().try_fold(1usize, |a, d| a.checked_mul(*d)).unwrap_or(usize::MAX);
    e.mem.reserve(op, n.saturating_mul(std::mem::size_of::<Scalar>()), "the result tensor")?;
    Ok(shape)
}

/// Checks that the runtime shape of an operand agrees with the static
/// dims of type `ty` (UB otherwise: a type is a promise about sizes).
fn check_shape(e: &Engine, op: OpId, shape: &[usize], ty: TypeId) -> Result<()> {
    // An unranked result (`tensor.reshape` to `tensor<*xf32>`) takes any shape.
    if matches!(e.m.ctx.type_kind(ty), TypeKind::UnrankedTensor { .. }) {
        return Ok(());
    }
    let st = static_shape(e, op, ty)?;
    let ok = st.len() == shape.len() && st.iter().zip(shape).all(|(s, d)| *s == DYNAMIC || *s == *d as i64);
    if ok {
        Ok(())
    } else {
        Err(ub(op, format!("runtime shape {shape:?} does not match {}", ty_text(e, ty))))
    }
}

/// Reads index operands `range` as unsigned positions.
fn indices(e: &Engine, fr: &Frame, op: OpId, range: std::ops::Range<usize>) -> Result<Vec<i64>> {
    e.args_in(fr, op, range)?
        .iter()
        .map(|v| match index_or_poison(op, v)? {
            Some(i) => Ok(i),
            None => Err(Error::at(
                op,
                ErrorKind::Poison { what: "used as a tensor index".into(), origin: poison_origin(v) },
            )),
        })
        .collect()
}

/// The in-bounds position `idx` of a tensor of `shape`, or UB.
fn position(e: &Engine, op: OpId, idx: &[i64], shape: &[usize], ty: Option<TypeId>) -> Result<Vec<usize>> {
    let ok = idx.len() == shape.len() && idx.iter().zip(shape).all(|(i, d)| usize::try_from(*i).is_ok_and(|i| i < *d));
    if !ok {
        let t = ty.map(|t| ty_text(e, t)).unwrap_or_else(|| format!("{shape:?}"));
        return Err(ub(op, format!("out-of-bounds {}: index {idx:?} outside {t} of shape {shape:?}", e.m.op_name(op))));
    }
    Ok(idx.iter().map(|i| *i as usize).collect())
}

/// Operand ranges per segment.
fn ranges(e: &Engine, op: OpId) -> Result<Vec<std::ops::Range<usize>>> {
    let mut start = 0usize;
    e.segments(op)?
        .into_iter()
        .map(|n| {
            let r = start..start.checked_add(n).ok_or_else(|| Error::unverified(op, "bad segment"))?;
            start = r.end;
            Ok(r)
        })
        .collect()
}

/// A static/dynamic list (`static_offsets` and its operands).
fn mixed(e: &Engine, fr: &Frame, op: OpId, name: &str, range: std::ops::Range<usize>) -> Result<Vec<i64>> {
    let dyn_vals = indices(e, fr, op, range)?;
    let mut next = dyn_vals.into_iter();
    i64s(e, op, name)?
        .into_iter()
        .map(|s| {
            if s == DYNAMIC {
                next.next().ok_or_else(|| Error::unverified(op, format!("missing dynamic '{name}' operand")))
            } else {
                Ok(s)
            }
        })
        .collect()
}

// ---- construction ---------------------------------------------------------

/// `tensor.empty(%d..)`: unspecified contents, modelled as poison.
fn empty(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let ty = e.result_type(op, 0);
    let shape = result_shape(e, op, ty, &e.args(fr, op))?;
    let v = empty_tensor(e, op, &shape)?;
    e.assign(fr, op, v)
}

/// `tensor.from_elements`: operands in row-major order.
fn from_elements(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let shape = result_shape(e, op, e.result_type(op, 0), &[])?;
    let v = array(op, &shape, scalars(op, e.args(fr, op))?)?;
    e.assign(fr, op, v)
}

/// `tensor.splat %x[%d..]`.
fn splat(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let x = e.arg(fr, op, 0)?.scalar().ok_or_else(|| Error::unverified(op, "splat of a non-scalar"))?;
    let dyn_vals = e.args_in(fr, op, 1..e.m.operands(op).len())?;
    let shape = result_shape(e, op, e.result_type(op, 0), &dyn_vals)?;
    let v = filled(e, op, &shape, &x)?;
    e.assign(fr, op, v)
}

/// `tensor.generate %d.. { ^bb(%i..): tensor.yield %x }`: the body runs
/// once per element in row-major order.
fn generate(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let shape = result_shape(e, op, e.result_type(op, 0), &e.args(fr, op))?;
    let body =
        e.m.regions(op).first().copied().ok_or_else(|| Error::unverified(op, "tensor.generate without a body"))?;
    let mut elems = Vec::with_capacity(count(op, &shape)?);
    let mut idx = vec![0usize; shape.len()];
    for _ in 0..count(op, &shape)? {
        elems.push(body_element(e, fr, body, &idx)?);
        next_index(&mut idx, &shape);
    }
    e.assign(fr, op, array(op, &shape, elems)?)
}

// ---- element access -------------------------------------------------------

/// The element a `tensor.generate`/`tensor.pad` body yields at `idx`.
fn body_element(e: &mut Engine, fr: &mut Frame, body: RegionId, idx: &[usize]) -> Result<Scalar> {
    let w = e.cfg.index_bits;
    let args = idx.iter().map(|i| Value::int(Int::from_u128(w, *i as u128))).collect();
    let (term, mut vals) = e.run_region(fr, body, args)?;
    let v = vals.pop().ok_or_else(|| Error::unverified(term, "tensor.yield without a value"))?;
    v.scalar().ok_or_else(|| Error::unverified(term, "tensor.yield of a non-scalar"))
}

/// `tensor.extract %t[%i..]`; out of bounds is UB.
fn extract(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let t = dense(e, fr, op, 0)?;
    let idx = indices(e, fr, op, 1..e.m.operands(op).len())?;
    let p = position(e, op, &idx, t.shape(), e.operand_type(op, 0))?;
    let i = t.linear(&p).ok_or_else(|| Error::unverified(op, "bad index"))?;
    e.assign(fr, op, Value::from_scalar(t.get(i)))
}

/// `tensor.insert %x into %t[%i..]`; out of bounds is UB. The result is
/// `%t` updated in place when this is its last read (and no other value
/// shares it), else a copy.
fn insert(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let x = e.arg(fr, op, 0)?.scalar().ok_or_else(|| Error::unverified(op, "insert of a non-scalar"))?;
    if let Value::Sparse(_) = e.arg(fr, op, 1)? {
        return insert_sparse(e, fr, op, x);
    }
    let i = {
        let t = dense(e, fr, op, 1)?;
        let idx = indices(e, fr, op, 2..e.m.operands(op).len())?;
        let p = position(e, op, &idx, t.shape(), e.operand_type(op, 1))?;
        t.linear(&p).ok_or_else(|| Error::unverified(op, "bad index"))?
    };
    let mut t = dense_owned(e, fr, op, 1)?;
    e.unique(op, &mut t)?.set(i, &x).map_err(|k| Error::unverified(op, format!("insert: {k:?}")))?;
    e.assign(fr, op, Value::Array(t))
}

/// `tensor.insert` into a sparse tensor: a new stored entry, in the
/// order its level types allow (`crate::sparse::SparseTensor::insert`).
fn insert_sparse(e: &Engine, fr: &mut Frame, op: OpId, x: Scalar) -> Result<Flow> {
    let idx = indices(e, fr, op, 2..e.m.operands(op).len())?;
    let dims = idx
        .iter()
        .map(|i| u64::try_from(*i).map_err(|_| ub(op, format!("tensor.insert at negative index {i}"))))
        .collect::<Result<Vec<u64>>>()?;
    let Value::Sparse(s) = e.take_arg(fr, op, 1)? else { return Err(Error::unverified(op, "not a sparse tensor")) };
    let mut t = Rc::try_unwrap(s).unwrap_or_else(|s| (*s).clone());
    t.insert(&dims, x).map_err(|k| crate::operands::sparse_error(op, k))?;
    e.assign(fr, op, Value::Sparse(Rc::new(t)))
}

/// `tensor.dim %t, %i`; an index outside the rank is UB.
fn dim(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let t = dense(e, fr, op, 0)?;
    let i = indices(e, fr, op, 1..2)?[0];
    let d = usize::try_from(i)
        .ok()
        .and_then(|i| t.shape().get(i).copied())
        .ok_or_else(|| ub(op, format!("tensor.dim index {i} outside rank {}", t.shape().len())))?;
    e.assign(fr, op, Value::int(Int::from_u128(e.cfg.index_bits, d as u128)))
}

/// `tensor.rank %t`.
fn rank(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let t = dense(e, fr, op, 0)?;
    e.assign(fr, op, Value::int(Int::from_u128(e.cfg.index_bits, t.shape().len() as u128)))
}

// ---- reshaping ------------------------------------------------------------

/// `tensor.cast`: the data unchanged; the result's static sizes must hold.
fn cast(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let t = dense(e, fr, op, 0)?;
    let rty = e.result_type(op, 0);
    if matches!(e.m.ctx.type_kind(rty), TypeKind::RankedTensor { .. }) {
        check_shape(e, op, t.shape(), rty)?;
    }
    let v = e.arg(fr, op, 0)?.clone();
    e.assign(fr, op, v)
}

/// `tensor.reshape %t(%shape)`: row-major reinterpretation.
fn reshape(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let len = count(op, &dims_of(op, e.arg(fr, op, 0)?)?)?;
    let s = dense(e, fr, op, 1)?;
    let shape: Vec<usize> = s
        .iter()
        .map(|x| match x {
            Scalar::Int(i) => {
                let n = i.to_i64().unwrap_or(-1);
                usize::try_from(n).map_err(|_| ub(op, format!("negative reshape size {n}")))
            }
            _ => Err(ub(op, "poison reshape size".into())),
        })
        .collect::<Result<_>>()?;
    if count(op, &shape)? != len {
        return Err(ub(op, format!("tensor.reshape of {len} elements to shape {shape:?}")));
    }
    reshaped(e, fr, op, &shape)
}

/// `tensor.expand_shape`: the output shape is the result type with its
/// dynamic sizes from the `output_shape` operands.
fn expand_shape(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let src = dims_of(op, e.arg(fr, op, 0)?)?;
    let out = mixed(e, fr, op, "static_output_shape", 1..e.m.operands(op).len())?;
    let shape: Vec<usize> = out
        .iter()
        .map(|d| usize::try_from(*d).map_err(|_| ub(op, format!("negative size {d}"))))
        .collect::<Result<_>>()?;
    let groups = reassociation(e, op);
    // Each group's product must equal the source dim it expands.
    for (g, src) in groups.iter().zip(&src) {
        let p = count(op, &g.iter().map(|d| shape.get(*d).copied().unwrap_or(0)).collect::<Vec<_>>())?;
        if p != *src {
            return Err(ub(
                op,
                format!("expand_shape group {g:?} of sizes multiplying to {p} expands a dim of size {src}"),
            ));
        }
    }
    reshaped(e, fr, op, &shape)
}

/// The `[[0, 1], [2]]` reassociation of `op`, decoded at load.
fn reassociation(e: &Engine, op: OpId) -> Rc<[Vec<usize>]> {
    Rc::clone(&e.aux[op.0 as usize].groups)
}

/// `tensor.collapse_shape`: each group's sizes multiply into one dim.
fn collapse_shape(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let src = dims_of(op, e.arg(fr, op, 0)?)?;
    let groups = reassociation(e, op);
    let shape: Vec<usize> = groups
        .iter()
        .map(|g| count(op, &g.iter().map(|d| src.get(*d).copied().unwrap_or(0)).collect::<Vec<_>>()))
        .collect::<Result<_>>()?;
    reshaped(e, fr, op, &shape)
}

/// Operand 0 in row-major order, read as `shape` (checked against the
/// result type). A sparse result stores, as LLVM 22's sparsifier rewrites
/// the reshape (`foreach` over the source, inserting each entry at its
/// new coordinates), every entry a sparse source stores (its explicit
/// zeros too), or a dense source's nonzero elements.
fn reshaped(e: &Engine, fr: &mut Frame, op: OpId, shape: &[usize]) -> Result<Flow> {
    check_shape(e, op, shape, e.result_type(op, 0))?;
    let Some(scheme) = sparse_scheme(e, op, e.result_type(op, 0), shape)? else {
        let v = dense(e, fr, op, 0)?.reshape(shape).map_err(|x| dense_error(op, x))?;
        return e.assign(fr, op, Value::Array(Rc::new(v)));
    };
    let src = e.arg(fr, op, 0)?;
    let from = dims_of(op, src)?;
    let entries = match src {
        Value::Sparse(s) => dim_entries(op, s)?,
        _ => nonzeros(op, &*dense(e, fr, op, 0)?)?,
    };
    let moved = entries
        .into_iter()
        .map(|(c, x)| {
            let linear = c.iter().zip(&from).fold(0u64, |a, (i, n)| a * *n as u64 + i);
            let mut to = vec![0u64; shape.len()];
            let mut rest = linear;
            for (t, n) in to.iter_mut().zip(shape).rev() {
                *t = rest % (*n as u64).max(1);
                rest /= (*n as u64).max(1);
            }
            (to, x)
        })
        .collect();
    let t = sparse_store(op, scheme, moved)?;
    e.assign(fr, op, Value::Sparse(Rc::new(t)))
}

// ---- slices ---------------------------------------------------------------

/// Checks that a slice lies inside `shape` (undefined behaviour if not).
fn check_slice(op: OpId, offsets: &[i64], sizes: &[usize], strides: &[i64], shape: &[usize]) -> Result<()> {
    if offsets.len() != shape.len() || sizes.len() != shape.len() || strides.len() != shape.len() {
        return Err(Error::unverified(op, "slice parameters do not match the rank"));
    }
    // Bounds: the last element of each dim must be inside (UB otherwise).
    for d in 0..shape.len() {
        if sizes[d] == 0 {
            continue;
        }
        let last = (sizes[d] as i64 - 1).checked_mul(strides[d]).and_then(|x| x.checked_add(offsets[d]));
        let inside = offsets[d] >= 0 && last.is_some_and(|l| l >= 0 && (l as u64) < shape[d] as u64);
        if !inside {
            return Err(Error::at(
                op,
                ErrorKind::Ub(format!(
                    "out-of-bounds slice: offsets {offsets:?}, sizes {sizes:?}, strides {strides:?} outside shape {shape:?}"
                )),
            ));
        }
    }
    Ok(())
}

/// The source positions of a slice, row-major over its (full-rank) sizes.
fn slice_positions(
    op: OpId,
    offsets: &[i64],
    sizes: &[usize],
    strides: &[i64],
    shape: &[usize],
) -> Result<Vec<Vec<usize>>> {
    check_slice(op, offsets, sizes, strides, shape)?;
    let n = count(op, sizes)?;
    let mut out = Vec::with_capacity(n);
    let mut idx = vec![0usize; sizes.len()];
    for _ in 0..n {
        out.push(idx.iter().enumerate().map(|(d, i)| (offsets[d] + *i as i64 * strides[d]) as usize).collect());
        next_index(&mut idx, sizes);
    }
    Ok(out)
}

/// The row-major element positions in a tensor of `shape` of a slice,
/// row-major over its (full-rank) sizes.
fn slice_linear(op: OpId, offsets: &[i64], sizes: &[usize], strides: &[i64], shape: &[usize]) -> Result<Vec<usize>> {
    check_slice(op, offsets, sizes, strides, shape)?;
    let rs = row_major_strides(shape);
    // Inside the shape (checked), so every position fits an i64 and is >= 0.
    let start: i64 = offsets.iter().zip(&rs).map(|(o, r)| o * *r as i64).sum();
    let by: Vec<i64> = strides.iter().zip(&rs).map(|(s, r)| s * *r as i64).collect();
    let n = count(op, sizes)?;
    let mut out = Vec::with_capacity(n);
    let mut idx = vec![0usize; sizes.len()];
    for _ in 0..n {
        let at: i64 = start + idx.iter().zip(&by).map(|(i, b)| *i as i64 * b).sum::<i64>();
        out.push(at as usize);
        next_index(&mut idx, sizes);
    }
    Ok(out)
}

/// The sizes list as `usize`.
fn sizes_of(op: OpId, sizes: &[i64]) -> Result<Vec<usize>> {
    sizes.iter().map(|s| usize::try_from(*s).map_err(|_| ub(op, format!("negative slice size {s}")))).collect()
}

/// The shape of a slice of `sizes` with the (possibly rank-reduced) type
/// `ty`. Which unit dims are dropped is decided by the op's static sizes,
/// as MLIR's verifier decides it (`computeRankReductionMask`, matching
/// dynamic dims): a size given as a value is never dropped, even when it
/// is 1 at run time; a static 1 is dropped where it does not match the
/// next result dim.
fn reduced_shape(e: &Engine, op: OpId, sizes: &[usize], ty: TypeId) -> Result<Vec<usize>> {
    let st = static_shape(e, op, ty)?;
    if st.len() == sizes.len() {
        return Ok(sizes.to_vec());
    }
    let declared = i64s(e, op, "static_sizes")?;
    let bad = || Error::unverified(op, format!("slice sizes {sizes:?} do not reduce to {}", ty_text(e, ty)));
    let mut out = Vec::with_capacity(st.len());
    for (k, &s) in sizes.iter().enumerate() {
        let d = declared.get(k).copied().unwrap_or(DYNAMIC);
        let keep = st.get(out.len()).is_some_and(|&t| (d != 1 && (t == DYNAMIC || d == DYNAMIC)) || d == t);
        if keep {
            out.push(s);
        } else if d != 1 {
            return Err(bad());
        }
    }
    if out.len() != st.len() {
        return Err(bad());
    }
    Ok(out)
}

/// `tensor.extract_slice %t[offsets][sizes][strides]`.
fn extract_slice(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let r = ranges(e, op)?;
    let [_, ro, rs, rt] = r.as_slice() else { return Err(Error::unverified(op, "bad operand segments")) };
    let offsets = mixed(e, fr, op, "static_offsets", ro.clone())?;
    let sizes = sizes_of(op, &mixed(e, fr, op, "static_sizes", rs.clone())?)?;
    let strides = mixed(e, fr, op, "static_strides", rt.clone())?;
    if let Some(enc) = e.m.ctx.tensor_encoding(e.result_type(op, 0)) {
        return sparse_slice(e, fr, op, &enc.dim_slices, [&offsets, &strides], &sizes);
    }
    let t = dense(e, fr, op, 0)?;
    let pos = slice_linear(op, &offsets, &sizes, &strides, t.shape())?;
    let shape = reduced_shape(e, op, &sizes, e.result_type(op, 0))?;
    let v = t.gather(&shape, pos).map_err(|x| dense_error(op, x))?;
    e.assign(fr, op, Value::Array(Rc::new(v)))
}

/// `tensor.extract_slice` of a sparse tensor to its slice type: the
/// entries the source stores inside the slice, at slice coordinates, in
/// the source's order (what the sparsifier's loops over the slice visit).
/// The type's static offsets, sizes and strides must be the op's.
fn sparse_slice(
    e: &Engine,
    fr: &mut Frame,
    op: OpId,
    typed: &[mlir_ir::sparse::DimSlice],
    [offsets, strides]: [&[i64]; 2],
    sizes: &[usize],
) -> Result<Flow> {
    let Value::Sparse(src) = e.arg(fr, op, 0)? else {
        return Err(Error::at(op, ErrorKind::Unsupported("a sparse slice of a tensor without sparse storage".into())));
    };
    let shape: Vec<usize> = src.scheme.dim_sizes.iter().map(|d| *d as usize).collect();
    check_slice(op, offsets, sizes, strides, &shape)?;
    if let Some(s) = strides.iter().find(|s| **s < 1) {
        return Err(ub(op, format!("sparse slice stride {s}: the sparsifier divides coordinates by it")));
    }
    if reduced_shape(e, op, sizes, e.result_type(op, 0))?.len() != sizes.len() {
        return Err(Error::unverified(op, "a rank-reducing slice to a sparse type"));
    }
    for (d, t) in typed.iter().enumerate() {
        let got = [offsets[d], sizes[d] as i64, strides[d]];
        for (name, want, got) in [("offset", t.offset, got[0]), ("size", t.size, got[1]), ("stride", t.stride, got[2])]
        {
            if want != DYNAMIC && want != got {
                return Err(ub(op, format!("slice {name} {got} in dimension {d} where the result type says {want}")));
            }
        }
    }
    let scheme = sparse_scheme(e, op, e.result_type(op, 0), sizes)?
        .ok_or_else(|| Error::unverified(op, "a sparse slice type without an encoding"))?;
    let inside = dim_entries(op, src)?.into_iter().filter_map(|(c, x)| {
        let mut at = Vec::with_capacity(c.len());
        for (k, &i) in c.iter().enumerate() {
            let off = i as i64 - offsets[k];
            if off < 0 || off % strides[k] != 0 || off / strides[k] >= sizes[k] as i64 {
                return None;
            }
            at.push((off / strides[k]) as u64);
        }
        Some((at, x))
    });
    let t = sparse_store(op, scheme, inside.collect())?;
    e.assign(fr, op, Value::Sparse(Rc::new(t)))
}

/// `tensor.insert_slice %s into %t[offsets][sizes][strides]`.
fn insert_slice(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let r = ranges(e, op)?;
    let [_, _, ro, rs, rt] = r.as_slice() else { return Err(Error::unverified(op, "bad operand segments")) };
    let src = dense(e, fr, op, 0)?;
    let offsets = mixed(e, fr, op, "static_offsets", ro.clone())?;
    let sizes = sizes_of(op, &mixed(e, fr, op, "static_sizes", rs.clone())?)?;
    let strides = mixed(e, fr, op, "static_strides", rt.clone())?;
    let pos = slice_into(op, &src, &*dense(e, fr, op, 1)?, &offsets, &sizes, &strides)?;
    // In place when this is the destination's last read.
    let mut dest = dense_owned(e, fr, op, 1)?;
    e.unique(op, &mut dest)?.scatter_in_place(&pos, &src).map_err(|x| dense_error(op, x))?;
    e.assign(fr, op, Value::Array(dest))
}

/// The positions in `dest` of the slice `src` is written over
/// (`insert_slice` and `parallel_insert_slice`).
fn slice_into(
    op: OpId,
    src: &Dense,
    dest: &Dense,
    offsets: &[i64],
    sizes: &[usize],
    strides: &[i64],
) -> Result<Vec<usize>> {
    let pos = slice_linear(op, offsets, sizes, strides, dest.shape())?;
    if pos.len() != src.len() {
        return Err(Error::at(
            op,
            ErrorKind::Ub(format!("source of shape {:?} does not fill a slice of sizes {sizes:?}", src.shape())),
        ));
    }
    Ok(pos)
}

/// `tensor.parallel_insert_slice %src into %dest[..][..][..]`, run by
/// `scf.forall.in_parallel` (which checks that `%dest` is a shared output):
/// updates `%dest`'s value in place, so the loop sees the insertion.
fn parallel_insert_slice(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let r = ranges(e, op)?;
    let [_, _, ro, rs, rt] = r.as_slice() else { return Err(Error::unverified(op, "bad operand segments")) };
    let offsets = mixed(e, fr, op, "static_offsets", ro.clone())?;
    let sizes = sizes_of(op, &mixed(e, fr, op, "static_sizes", rs.clone())?)?;
    let strides = mixed(e, fr, op, "static_strides", rt.clone())?;
    let src = dense(e, fr, op, 0)?;
    let dest = *e.m.operands(op).get(1).ok_or_else(|| Error::unverified(op, "missing destination"))?;
    let Value::Array(cur) = e.get(fr, dest).clone() else {
        return Err(Error::unverified(op, "destination is not a tensor"));
    };
    let pos = slice_into(op, &src, &cur, &offsets, &sizes, &strides)?;
    let new = cur.scatter(&pos, &src).map_err(|x| dense_error(op, x))?;
    e.set(fr, dest, Value::Array(Rc::new(new)));
    Ok(Flow::Next)
}

/// `tensor.pad %t low[..] high[..] { ^bb(%i..): tensor.yield %x }`: the
/// body gives the value of every element outside the source.
fn pad(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let r = ranges(e, op)?;
    let [_, rl, rh] = r.as_slice() else { return Err(Error::unverified(op, "bad operand segments")) };
    let t = dense(e, fr, op, 0)?;
    let rank = t.shape().len();
    let low = mixed(e, fr, op, "static_low", rl.clone())?;
    let high = mixed(e, fr, op, "static_high", rh.clone())?;
    if low.len() != rank || high.len() != rank {
        return Err(Error::unverified(op, "padding does not match the rank"));
    }
    let shape: Vec<usize> = (0..rank)
        .map(|d| {
            let n = (t.shape()[d] as i64).checked_add(low[d]).and_then(|x| x.checked_add(high[d]));
            n.and_then(|n| usize::try_from(n).ok())
                .filter(|_| low[d] >= 0 && high[d] >= 0)
                .ok_or_else(|| ub(op, format!("padding low {:?} high {:?} of shape {:?}", low, high, t.shape())))
        })
        .collect::<Result<_>>()?;
    check_shape(e, op, &shape, e.result_type(op, 0))?;
    let body = e.m.regions(op).first().copied().ok_or_else(|| Error::unverified(op, "tensor.pad without a body"))?;
    let n = count(op, &shape)?;
    e.mem.reserve(op, n.saturating_mul(t.lane().bytes()), "the padded tensor")?;
    let mut out = crate::value::Builder::new(&shape, Some(t.lane())).map_err(|x| dense_error(op, x))?;
    let mut idx = vec![0usize; shape.len()];
    for _ in 0..n {
        let inside: Option<Vec<usize>> = idx
            .iter()
            .zip(&low)
            .zip(t.shape())
            .map(|((i, l), s)| (*i as i64).checked_sub(*l).and_then(|x| usize::try_from(x).ok()).filter(|x| x < s))
            .collect();
        let x = match inside {
            Some(p) => element(op, &t, &p)?,
            None => body_element(e, fr, body, &idx)?,
        };
        out.push(&x).map_err(|x| dense_error(op, x))?;
        next_index(&mut idx, &shape);
    }
    let v = out.finish().map_err(|x| dense_error(op, x))?;
    e.assign(fr, op, Value::Array(Rc::new(v)))
}

/// Element `p` of `t` (a position the caller checked).
fn element(op: OpId, t: &Dense, p: &[usize]) -> Result<Scalar> {
    t.linear(p)
        .map(|i| t.get(i))
        .ok_or_else(|| Error::unverified(op, format!("position {p:?} outside a tensor of {:?}", t.shape())))
}

/// `tensor.concat dim(d) %a, %b, ..`.
fn concat(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let d = i64s(e, op, "dim")?.first().copied().ok_or_else(|| Error::unverified(op, "missing dim"))?;
    let parts: Vec<Rc<Dense>> = (0..e.m.operands(op).len()).map(|i| dense(e, fr, op, i)).collect::<Result<_>>()?;
    let d = usize::try_from(d).map_err(|_| Error::unverified(op, "bad concat dim"))?;
    let first = parts.first().ok_or_else(|| Error::unverified(op, "tensor.concat of nothing"))?;
    let fits = |p: &Dense| {
        p.shape().len() == first.shape().len()
            && d < p.shape().len()
            && p.shape().iter().zip(first.shape()).enumerate().all(|(k, (a, b))| k == d || a == b)
    };
    if !parts.iter().all(|p| fits(p)) {
        let shapes: Vec<_> = parts.iter().map(|p| p.shape().to_vec()).collect();
        return Err(ub(op, format!("tensor.concat of mismatched shapes {shapes:?} along dim {d}")));
    }
    let mut shape = first.shape().to_vec();
    shape[d] = parts.iter().map(|p| p.shape()[d]).sum();
    check_shape(e, op, &shape, e.result_type(op, 0))?;
    // Row-major, each outer position holds every part's block in turn.
    let outer: usize = shape[..d].iter().product();
    let mut out = crate::value::Builder::new(&shape, Some(first.lane())).map_err(|x| dense_error(op, x))?;
    for o in 0..outer {
        for p in &parts {
            let block: usize = p.shape()[d..].iter().product();
            for k in o * block..(o + 1) * block {
                out.push(&p.get(k)).map_err(|x| dense_error(op, x))?;
            }
        }
    }
    let v = out.finish().map_err(|x| dense_error(op, x))?;
    e.assign(fr, op, Value::Array(Rc::new(v)))
}

/// `tensor.bitcast`: each element's bits reinterpreted (same width).
fn bitcast(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let t = dense(e, fr, op, 0)?;
    let rty = e.elem_type(e.result_type(op, 0));
    let to_float = match e.m.ctx.type_kind(rty) {
        TypeKind::Float(k) => Some(*k),
        _ => None,
    };
    let w = e.int_width(rty);
    let elems = t
        .iter()
        .map(|s| match (s, to_float, w) {
            (Scalar::Poison(p), _, _) => Ok(Scalar::Poison(p)),
            (Scalar::Int(i), Some(k), _) => Ok(Scalar::Float(crate::float::from_bits(k, i.bits128().unwrap_or(0)))),
            (Scalar::Float(f), Some(k), _) => Ok(Scalar::Float(crate::float::from_bits(k, f.bits))),
            (Scalar::Float(f), None, Some(w)) => Ok(Scalar::Int(Int::from_u128(w, f.bits))),
            (Scalar::Int(i), None, Some(w)) => Ok(Scalar::Int(Int::from_big(w, &i.to_ubig()))),
            _ => Err(Error::unverified(op, "unsupported tensor.bitcast element types")),
        })
        .collect::<Result<Vec<_>>>()?;
    e.assign(fr, op, array(op, t.shape(), elems)?)
}

// ---- gather / scatter -----------------------------------------------------

/// The coordinates in the last dim of `indices` at each leading position.
fn coords(op: OpId, indices: &Dense) -> Result<Vec<Vec<i64>>> {
    let k = indices.shape().last().copied().ok_or_else(|| Error::unverified(op, "0-D indices"))?;
    let flat: Vec<Scalar> = indices.iter().collect();
    flat.chunks(k.max(1))
        .map(|c| {
            c.iter()
                .map(|s| match s {
                    Scalar::Int(i) => Ok(i.to_i64().unwrap_or(i64::MAX)),
                    _ => Err(ub(op, "poison gather/scatter index".into())),
                })
                .collect()
        })
        .collect()
}

/// The source slices a gather/scatter coordinate addresses: dims in
/// `dims` fixed to the coordinate, the others full; UB when outside.
fn coord_slice(op: OpId, c: &[i64], dims: &[usize], shape: &[usize]) -> Result<Vec<Vec<usize>>> {
    let mut offsets = vec![0i64; shape.len()];
    let mut sizes = shape.to_vec();
    for (d, x) in dims.iter().zip(c) {
        let inside = usize::try_from(*x).is_ok_and(|x| x < shape[*d]);
        if !inside {
            return Err(ub(op, format!("out-of-bounds index {c:?} for dims {dims:?} of shape {shape:?}")));
        }
        offsets[*d] = *x;
        sizes[*d] = 1;
    }
    slice_positions(op, &offsets, &sizes, &vec![1; shape.len()], shape)
}

fn dims_attr(e: &Engine, op: OpId, name: &str) -> Result<Vec<usize>> {
    i64s(e, op, name)?.into_iter().map(|d| usize::try_from(d).map_err(|_| Error::unverified(op, "bad dims"))).collect()
}

/// `tensor.gather %src[%indices] gather_dims(..)`: for each coordinate,
/// the source slice with the gathered dims fixed (kept as size 1 or
/// dropped, per the result type).
fn gather(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let src = dense(e, fr, op, 0)?;
    let idx = dense(e, fr, op, 1)?;
    let dims = dims_attr(e, op, "gather_dims")?;
    let mut at = Vec::new();
    for c in coords(op, &idx)? {
        for p in coord_slice(op, &c, &dims, src.shape())? {
            at.push(src.linear(&p).ok_or_else(|| Error::unverified(op, "bad index"))?);
        }
    }
    let shape = result_shape(e, op, e.result_type(op, 0), &[]).or_else(|_| -> Result<Vec<usize>> {
        let mut s: Vec<usize> = idx.shape()[..idx.shape().len().saturating_sub(1)].to_vec();
        s.extend(src.shape().iter().enumerate().map(|(d, n)| if dims.contains(&d) { 1 } else { *n }));
        Ok(s)
    })?;
    let v = src.gather(&shape, at).map_err(|x| dense_error(op, x))?;
    e.assign(fr, op, Value::Array(Rc::new(v)))
}

/// `tensor.scatter %src into %dest[%indices] scatter_dims(..) unique`:
/// writes each source slice over the addressed destination slice; with
/// `unique`, two coordinates addressing the same slice are UB.
fn scatter(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let src = dense(e, fr, op, 0)?;
    let dest = dense(e, fr, op, 1)?;
    let idx = dense(e, fr, op, 2)?;
    let dims = dims_attr(e, op, "scatter_dims")?;
    let mut at = Vec::with_capacity(src.len());
    // A set, not a list: a scatter of n coordinates checks in O(n).
    let mut seen = rustc_hash::FxHashSet::default();
    for c in coords(op, &idx)? {
        if !seen.insert(c.clone()) {
            return Err(ub(op, format!("tensor.scatter coordinate {c:?} appears twice but the op is 'unique'")));
        }
        for p in coord_slice(op, &c, &dims, dest.shape())? {
            at.push(dest.linear(&p).ok_or_else(|| Error::unverified(op, "bad index"))?);
        }
    }
    if at.len() != src.len() {
        return Err(Error::unverified(op, "the scatter source does not match its coordinates' slices"));
    }
    // In place when this is the destination's last read.
    drop(dest);
    let mut dest = dense_owned(e, fr, op, 1)?;
    e.unique(op, &mut dest)?.scatter_in_place(&at, &src).map_err(|x| dense_error(op, x))?;
    e.assign(fr, op, Value::Array(dest))
}

#[cfg(test)]
mod tests {
    use crate::exec::{Config, Engine};
    use mlir_ir::diag::Source;

    fn run(text: &str) -> Result<String, String> {
        let src = Source::new("t.mlir", text);
        let m = mlir_ir::parse_and_verify(&src).map_err(|d| d.render(&src))?;
        let mut buf = Vec::new();
        let r = {
            let mut e = Engine::load(&m, Config::default(), Box::new(&mut buf)).map_err(|x| x.render(&m, &src))?;
            e.run_entry("main").map(|_| ()).map_err(|x| x.render(&m, &src))
        };
        r.map(|()| String::from_utf8_lossy(&buf).into_owned())
    }

    /// tensor.gather/scatter have no bufferization, so these follow the
    /// examples of the TensorOps documentation, worked by hand: gathering
    /// rows 2 and 0 of a 3x2 tensor, then scattering them back swapped.
    #[test]
    fn gather_and_scatter_follow_the_documented_semantics() {
        let t = r#"func.func @main() {
  %t = arith.constant dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi32>
  %idx = arith.constant dense<[[2], [0]]> : tensor<2x1xindex>
  %g = tensor.gather %t[%idx] gather_dims([0]) : (tensor<3x2xi32>, tensor<2x1xindex>) -> tensor<2x1x2xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = tensor.extract %g[%c0, %c0, %c1] : tensor<2x1x2xi32>
  %b = tensor.extract %g[%c1, %c0, %c0] : tensor<2x1x2xi32>
  vector.print %a : i32
  vector.print %b : i32
  %idx2 = arith.constant dense<[[0], [2]]> : tensor<2x1xindex>
  %s = tensor.scatter %g into %t[%idx2] scatter_dims([0]) unique : (tensor<2x1x2xi32>, tensor<3x2xi32>, tensor<2x1xindex>) -> tensor<3x2xi32>
  %c2 = arith.constant 2 : index
  %x = tensor.extract %s[%c0, %c0] : tensor<3x2xi32>
  %y = tensor.extract %s[%c2, %c1] : tensor<3x2xi32>
  %z = tensor.extract %s[%c1, %c1] : tensor<3x2xi32>
  vector.print %x : i32
  vector.print %y : i32
  vector.print %z : i32
  return
}"#;
        assert_eq!(run(t).unwrap(), "6\n1\n5\n2\n4\n");
        let bad = t.replace("dense<[[0], [2]]>", "dense<[[0], [3]]>");
        let err = run(&bad).unwrap_err();
        assert!(err.contains("out-of-bounds index [3] for dims [0] of shape [3, 2]"), "{err}");
    }

    /// tensor.bitcast reinterprets each element's bits.
    #[test]
    fn bitcast_reinterprets_bits() {
        let t = r#"func.func @main() {
  %t = arith.constant dense<[1.0, -2.0]> : tensor<2xf32>
  %b = tensor.bitcast %t : tensor<2xf32> to tensor<2xi32>
  %c1 = arith.constant 1 : index
  %x = tensor.extract %b[%c1] : tensor<2xi32>
  vector.print %x : i32
  return
}"#;
        assert_eq!(run(t).unwrap(), "-1073741824\n");
    }
}

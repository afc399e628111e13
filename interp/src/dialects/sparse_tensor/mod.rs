//! The `sparse_tensor` dialect, run directly: a tensor of a sparse type is
//! a `Value::Sparse` holding the storage its encoding prescribes
//! (`crate::sparse`), built and ordered as LLVM 22's sparse runtime builds
//! it, so the ops that expose storage (`values`, `positions`,
//! `coordinates`, `number_of_entries`, `foreach`, `print`) see what the
//! sparsified program sees. Other dialects read a sparse tensor's elements.
//!
//! The buffers `values`/`positions`/`coordinates` return are fresh copies:
//! the sparsifier hands out the storage itself, so a program that writes
//! into them changes the tensor there and not here (writing through them
//! is outside what the ops document).

mod buffers;

use crate::error::{Error, ErrorKind, Result};
use crate::exec::{Engine, Flow, Frame};
use crate::lane::Lane;
use crate::memory::AllocLayout;
use crate::operands::{
    dense, dim_entries, dims_of, index_value, nonzeros, sparse_error, sparse_scheme, sparse_store as store,
    tensor_storage, DimEntry,
};
use crate::sparse::{Entry, Scheme, SparseTensor};
use crate::value::{Dense, Int, Scalar, Value};
use mlir_ir::ir::OpId;
use mlir_ir::ops::SparseTensorOp;
use mlir_ir::sparse::LevelFormat;
use mlir_ir::types::{TypeId, TypeKind};
use std::rc::Rc;

/// Executes one sparse_tensor op.
pub fn exec(e: &mut Engine, fr: &mut Frame, op: OpId, kind: SparseTensorOp) -> Result<Flow> {
    use SparseTensorOp::*;
    match kind {
        Convert => convert(e, fr, op),
        New => new(e, fr, op),
        Out => out(e, fr, op),
        Assemble => assemble(e, fr, op),
        Concatenate => concatenate(e, fr, op),
        Disassemble => disassemble(e, fr, op),
        ReorderCoo => {
            let t = sparse_arg(e, fr, op, 0)?;
            let scheme = result_scheme(e, op, &dims_of(op, e.arg(fr, op, 0)?)?)?
                .ok_or_else(|| Error::unverified(op, "reorder_coo to a dense type"))?;
            let mut lvl = t.entries();
            crate::stdsort::std_sort(&mut lvl, &|a: &Entry, b: &Entry| a.0 < b.0);
            let t = SparseTensor::from_entries(scheme, &lvl).map_err(|x| sparse_error(op, x))?;
            e.assign(fr, op, Value::Sparse(Rc::new(t)))
        }
        Print => print(e, fr, op),
        Values => {
            let t = stored_arg(e, fr, op, 0)?;
            let d = Dense::new(&[t.nse()], &t.storage().values, Some(t.scheme.lane))
                .map_err(|x| crate::operands::dense_error(op, x))?;
            buffer(e, fr, op, &d)
        }
        Positions => {
            let t = stored_arg(e, fr, op, 0)?;
            let l = level_attr(e, op, &t)?;
            overhead(e, fr, op, &t.storage().positions[l])
        }
        Coordinates => {
            let t = stored_arg(e, fr, op, 0)?;
            let l = level_attr(e, op, &t)?;
            if t.scheme.enc.aos_coo_start() <= l {
                return Err(Error::at(op, ErrorKind::Unsupported("per-level coordinates of an AoS COO level".into())));
            }
            overhead(e, fr, op, &t.storage().coordinates[l])
        }
        CoordinatesBuffer => {
            let t = stored_arg(e, fr, op, 0)?;
            let c = t.aos_coordinates(t.scheme.enc.aos_coo_start());
            overhead(e, fr, op, &c)
        }
        NumberOfEntries => {
            let t = stored_arg(e, fr, op, 0)?;
            e.assign(fr, op, index_value(e, t.nse() as i64))
        }
        Lvl => {
            let t = sparse_arg(e, fr, op, 0)?;
            let l = crate::operands::index_args(e, fr, op, 1..2, "level")?[0];
            let n = usize::try_from(l).ok().and_then(|l| t.scheme.lvl_sizes.get(l).copied()).ok_or_else(|| {
                Error::at(
                    op,
                    ErrorKind::Ub(format!("sparse_tensor.lvl {l} outside the level rank {}", t.scheme.lvl_rank())),
                )
            })?;
            e.assign(fr, op, index_value(e, n as i64))
        }
        Load => load(e, fr, op),
        // Storage here is built as the runtime library builds it.
        HasRuntimeLibrary => e.assign(fr, op, Value::int(Int::bool(true))),
        Foreach => foreach(e, fr, op),
        Yield => Ok(Flow::Exit(e.args(fr, op))),
        CrdTranslate => crd_translate(e, fr, op),
        ReinterpretMap => reinterpret_map(e, fr, op),
        PushBack => buffers::push_back(e, fr, op),
        Sort => buffers::sort(e, fr, op),
        Expand => buffers::expand(e, fr, op),
        Compress => buffers::compress(e, fr, op),
        _ => Err(Error::at(op, ErrorKind::Unsupported(format!("operation '{}' (direct execution)", e.m.op_name(op))))),
    }
}

/// Operand `i`, a sparse tensor with its storage. A sparse-typed value
/// computed by an op without sparse semantics has elements but no known
/// storage: reading that storage is unsupported, never guessed.
fn sparse_arg(e: &Engine, fr: &Frame, op: OpId, i: usize) -> Result<Rc<SparseTensor>> {
    match e.arg(fr, op, i)? {
        Value::Sparse(s) => Ok(s.clone()),
        Value::Array(_) => Err(Error::at(
            op,
            ErrorKind::Unsupported(
                "the storage of this sparse tensor: the op that made it has no sparse semantics here yet \
                 (its elements are known, which entries are stored is not)"
                    .into(),
            ),
        )),
        _ => Err(Error::unverified(op, format!("operand #{i} is not a tensor"))),
    }
}

/// `sparse_tensor.crd_translate dim_to_lvl|lvl_to_dim [%c..] as #enc`:
/// the coordinates through the encoding's map or its inverse (a block
/// map's `floordiv` and `mod`). Coordinates are never negative: a
/// negative one is UB (the lowering divides unsigned).
fn crd_translate(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let enc = match e.m.attr(op, "encoder").map(|a| e.m.ctx.attr_kind(a)) {
        Some(mlir_ir::attrs::Attribute::SparseEncoding(enc)) => enc.clone(),
        _ => return Err(Error::unverified(op, "crd_translate without an encoding")),
    };
    let to_lvl = matches!(e.m.attr(op, "direction").map(|a| e.m.ctx.attr_kind(a)),
        Some(mlir_ir::attrs::Attribute::Dialect { body, .. }) if body.contains("dim_to_lvl"));
    let map = if to_lvl {
        enc.dim_to_lvl.clone()
    } else {
        enc.lvl_to_dim.clone().ok_or_else(|| {
            Error::at(op, ErrorKind::Unsupported("crd_translate through a map without an inverse".into()))
        })?
    };
    let crds = crate::operands::index_args(e, fr, op, 0..e.m.operands(op).len(), "used as a coordinate")?;
    if let Some(c) = crds.iter().find(|c| **c < 0) {
        return Err(Error::at(op, ErrorKind::Ub(format!("crd_translate of the negative coordinate {c}"))));
    }
    let out = map.eval(&crds, &[]).map_err(|x| Error::unverified(op, format!("the encoding's map: {x:?}")))?;
    let vals = out.into_iter().map(|c| index_value(e, c)).collect();
    e.assign_all(fr, op, vals)
}

/// `sparse_tensor.reinterpret_map %t : A to B`: the same storage seen
/// through the other type's map (a block-sparse tensor as its demapped
/// level tensor, or back), so the level sizes must agree.
fn reinterpret_map(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let mut t = (*sparse_arg(e, fr, op, 0)?).clone();
    t.finalize().map_err(|x| sparse_error(op, x))?;
    let ty = e.result_type(op, 0);
    let shape: Vec<i64> = match e.m.ctx.type_kind(ty) {
        TypeKind::RankedTensor { shape, .. } => shape.clone(),
        _ => return Err(Error::unverified(op, "reinterpret_map to a type that is not a ranked tensor")),
    };
    let enc = e.m.ctx.tensor_encoding(ty).ok_or_else(|| Error::unverified(op, "reinterpret_map to a dense type"))?;
    let lvls = &t.scheme.lvl_sizes;
    // A dynamic size is the one the levels give: one past the dimension
    // coordinate of the last level coordinates.
    let last: Vec<i64> = lvls.iter().map(|n| *n as i64 - 1).collect();
    let implied = match &enc.lvl_to_dim {
        Some(m) if lvls.iter().all(|n| *n > 0) => m.eval(&last, &[]).ok(),
        _ => None,
    };
    let mut dims = Vec::with_capacity(shape.len());
    for (d, n) in shape.iter().enumerate() {
        let size = if *n == mlir_ir::types::DYNAMIC {
            implied.as_ref().and_then(|v| v.get(d)).map(|c| c + 1)
        } else {
            Some(*n)
        };
        let size = size.and_then(|s| usize::try_from(s).ok()).ok_or_else(|| {
            Error::at(op, ErrorKind::Unsupported("reinterpret_map to a dynamic size the levels do not give".into()))
        })?;
        dims.push(size);
    }
    let scheme =
        result_scheme(e, op, &dims)?.ok_or_else(|| Error::unverified(op, "reinterpret_map to a dense type"))?;
    if scheme.lvl_sizes != *lvls {
        let what = format!("reinterpret_map of levels {lvls:?} to a type whose levels are {:?}", scheme.lvl_sizes);
        return Err(Error::at(op, ErrorKind::Ub(what)));
    }
    let storage = t.storage().clone();
    e.assign(fr, op, Value::Sparse(Rc::new(SparseTensor::from_storage(scheme, storage))))
}

/// Operand `i`, a sparse tensor whose storage the op exposes: a slice's
/// storage is its source's (the sparsifier's view; the runtime library
/// has no slices), which the direct run does not keep.
fn stored_arg(e: &Engine, fr: &Frame, op: OpId, i: usize) -> Result<Rc<SparseTensor>> {
    let t = sparse_arg(e, fr, op, i)?;
    if t.scheme.is_slice() {
        let what = format!("'{}' of a sparse tensor slice (it exposes the source's storage)", e.m.op_name(op));
        return Err(Error::at(op, ErrorKind::Unsupported(what)));
    }
    Ok(t)
}

/// The `level` attribute, within the level rank.
fn level_attr(e: &Engine, op: OpId, t: &SparseTensor) -> Result<usize> {
    let l = match e.m.attr(op, "level").map(|a| e.m.ctx.attr_kind(a)) {
        Some(mlir_ir::attrs::Attribute::Integer { value, .. }) => value.to_i64().unwrap_or(-1),
        _ => -1,
    };
    usize::try_from(l).ok().filter(|l| *l < t.scheme.lvl_rank()).ok_or_else(|| Error::unverified(op, "bad level"))
}

/// A 1-D result buffer holding `d`.
fn buffer(e: &mut Engine, fr: &mut Frame, op: OpId, d: &Dense) -> Result<Flow> {
    let et = memref_elem(e, op)?;
    let m = tensor_storage(e, op, et, AllocLayout::Identity, d, e.m.op_name(op))?;
    // The op's documentation: "Writing into the result of this operation
    // is undefined behavior" (the buffer is the tensor's own storage).
    m.buf.borrow_mut().read_only = Some("a sparse tensor's storage, which its buffer ops return read-only");
    e.assign(fr, op, Value::Memref(Rc::new(m)))
}

/// The element type of result 0, a memref.
fn memref_elem(e: &Engine, op: OpId) -> Result<TypeId> {
    match e.m.ctx.type_kind(e.result_type(op, 0)) {
        TypeKind::MemRef { elem, .. } => Ok(*elem),
        _ => Err(Error::unverified(op, "result is not a memref")),
    }
}

/// A positions or coordinates buffer: `xs` at the result's element width.
fn overhead(e: &mut Engine, fr: &mut Frame, op: OpId, xs: &[u64]) -> Result<Flow> {
    let et = memref_elem(e, op)?;
    let w = match e.m.ctx.type_kind(et) {
        TypeKind::Index => e.cfg.index_bits,
        TypeKind::Integer { width, .. } => *width,
        _ => return Err(Error::unverified(op, "overhead buffer of a non-integer type")),
    };
    let vals: Vec<Scalar> = xs.iter().map(|x| Scalar::Int(Int::from_u128(w, u128::from(*x)))).collect();
    let d = Dense::new(&[vals.len()], &vals, Some(crate::lane::Lane::Int(w)))
        .map_err(|x| crate::operands::dense_error(op, x))?;
    buffer(e, fr, op, &d)
}

/// The scheme of result 0 (a sparse type) for `dims`.
fn result_scheme(e: &Engine, op: OpId, dims: &[usize]) -> Result<Option<Rc<Scheme>>> {
    sparse_scheme(e, op, e.result_type(op, 0), dims)
}

/// `sparse_tensor.convert`: dense to sparse stores the nonzero elements
/// (`genIsNonzero`: NaN is stored, -0.0 is not); sparse to sparse stores
/// every stored entry of the source (its explicit zeros too), re-ordered
/// for the destination's levels; sparse to dense gives the elements.
fn convert(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let src = e.arg(fr, op, 0)?.clone();
    let dims = dims_of(op, &src)?;
    let Some(scheme) = result_scheme(e, op, &dims)? else {
        let d = dense(e, fr, op, 0)?;
        return e.assign(fr, op, Value::Array(d));
    };
    let dim_entries: Vec<DimEntry> = match &src {
        Value::Sparse(s) => dim_entries(op, s)?,
        _ => match listed_entries(e, op)? {
            Some(listed) => listed,
            None => nonzeros(op, &*dense(e, fr, op, 0)?)?,
        },
    };
    let to = scheme.lane;
    let dim_entries = dim_entries.into_iter().map(|(d, x)| Ok((d, cast(op, x, to)?))).collect::<Result<Vec<_>>>()?;
    let t = store(op, scheme, dim_entries)?;
    e.assign(fr, op, Value::Sparse(Rc::new(t)))
}

/// An element converted to lane `to` as the sparsifier's `genCast` does:
/// floats rounded to nearest even (`truncf`/`extf`), integers truncated or
/// sign-extended, `sitofp`, and `fptosi` (poison out of range).
fn cast(op: OpId, x: Scalar, to: Lane) -> Result<Scalar> {
    use crate::float::{self, Round};
    if Lane::of(&x) == Some(to) {
        return Ok(x);
    }
    let bad = || Error::at(op, ErrorKind::Unsupported(format!("converting {x:?} to a sparse tensor of {to:?}")));
    Ok(match (&x, to) {
        (Scalar::Float(f), Lane::Float(k)) => {
            Scalar::Float(float::convert(*f, k, Round::NearestEven).map_err(|_| bad())?)
        }
        (Scalar::Int(i), Lane::Int(w)) => Scalar::Int(Int::from_big(w, &i.to_sbig())),
        (Scalar::Int(i), Lane::Float(k)) => {
            Scalar::Float(float::from_int(&i.to_sbig(), k, Round::NearestEven).map_err(|_| bad())?)
        }
        (Scalar::Float(f), Lane::Int(w)) => match float::to_int(*f, w, true) {
            Some(v) => Scalar::Int(Int::from_big(w, &v)),
            None => Scalar::Poison(crate::value::Poison(op)),
        },
        _ => return Err(bad()),
    })
}

/// When operand 0 is an `arith.constant sparse<..>`, its listed entries
/// (explicit zeros included, a later duplicate winning): the sparsifier
/// converts such a constant without testing for zeros.
fn listed_entries(e: &Engine, op: OpId) -> Result<Option<Vec<DimEntry>>> {
    use mlir_ir::attrs::Attribute;
    let v = e.m.operands(op)[0];
    let mlir_ir::ir::ValueDef::Result(def, _) = e.m.value(v).def else { return Ok(None) };
    if e.m.op_name(def) != "arith.constant" {
        return Ok(None);
    }
    let Some(a) = e.m.attr(def, "value") else { return Ok(None) };
    let Attribute::Sparse { ty, indices, .. } = e.m.ctx.attr_kind(a) else { return Ok(None) };
    let Value::Array(all) = e.attr_value(def, a, *ty)? else { return Ok(None) };
    let ix = match e.m.ctx.attr_kind(*indices) {
        Attribute::Dense { ty: ity, .. } => match e.attr_value(def, *indices, *ity)? {
            Value::Array(ix) if !ix.is_empty() => ix.to_i64s().unwrap_or_default(),
            _ => Vec::new(),
        },
        _ => Vec::new(),
    };
    let rank = all.shape().len().max(1);
    let mut out: Vec<DimEntry> = Vec::new();
    for c in ix.chunks(rank) {
        let dims: Vec<u64> = c.iter().map(|i| *i as u64).collect();
        let at: Vec<usize> = c.iter().map(|i| *i as usize).collect();
        let Some(i) = all.linear(&at) else { return Err(Error::unverified(op, "sparse constant index out of shape")) };
        if !out.iter().any(|(d, _)| *d == dims) {
            out.push((dims, all.get(i)));
        }
    }
    Ok(Some(out))
}

/// The entries of tensor operand `i` in dimension coordinates: a sparse
/// tensor's stored ones in storage order, a dense tensor's every element
/// in row-major order (what `foreach` visits).
fn visited(e: &Engine, fr: &Frame, op: OpId, i: usize) -> Result<Vec<DimEntry>> {
    if let Value::Sparse(s) = e.arg(fr, op, i)? {
        return dim_entries(op, s);
    }
    let d = dense(e, fr, op, i)?;
    let shape = d.shape().to_vec();
    let mut idx = vec![0usize; shape.len()];
    let mut v = Vec::with_capacity(d.len());
    for x in d.iter() {
        v.push((idx.iter().map(|i| *i as u64).collect(), x));
        crate::operands::next_index(&mut idx, &shape);
    }
    Ok(v)
}

/// `sparse_tensor.concatenate %a, %b.. {dimension}` as LLVM 22 rewrites
/// it: each input's entries (`foreach`) shifted along the dimension by the
/// sizes before it and inserted; into a sparse result that is not all
/// dense only the nonzero values (`genIsNonzero`, explicit zeros of a
/// sparse input included), into a dense one over zeros.
fn concatenate(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let dim = match e.m.attr(op, "dimension").map(|a| e.m.ctx.attr_kind(a)) {
        Some(mlir_ir::attrs::Attribute::Integer { value, .. }) => value.to_i64().unwrap_or(0) as usize,
        _ => return Err(Error::unverified(op, "concatenate without a dimension")),
    };
    let n = e.m.operands(op).len();
    let mut shape = dims_of(op, e.arg(fr, op, 0)?)?;
    if dim >= shape.len() {
        return Err(Error::unverified(op, "concatenate dimension out of the rank"));
    }
    let mut sizes = Vec::with_capacity(n);
    for i in 0..n {
        sizes.push(dims_of(op, e.arg(fr, op, i)?)?[dim]);
    }
    shape[dim] = sizes.iter().sum();
    let scheme = result_scheme(e, op, &shape)?;
    let check_zero = scheme.as_ref().is_some_and(|s| !s.all_dense());
    let mut all = Vec::new();
    let mut offset = 0u64;
    for (i, size) in sizes.iter().enumerate() {
        for (mut c, x) in visited(e, fr, op, i)? {
            if check_zero {
                if let Scalar::Poison(p) = x {
                    let what = format!("at {c:?} of input #{i} compared with zero to concatenate into a sparse tensor");
                    return Err(Error::at(op, ErrorKind::Poison { what, origin: p.0 }));
                }
                if !crate::sparse::is_nonzero(&x) {
                    continue;
                }
            }
            c[dim] += offset;
            all.push((c, x));
        }
        offset += *size as u64;
    }
    let Some(scheme) = scheme else {
        let lane = e.lane_of(e.elem_type(e.result_type(op, 0))).ok_or_else(|| Error::unverified(op, "element type"))?;
        let mut d = Dense::splat(&shape, &crate::sparse::zero(lane), Some(lane))
            .map_err(|x| crate::operands::dense_error(op, x))?;
        for (c, x) in all {
            let at: Vec<usize> = c.iter().map(|v| *v as usize).collect();
            let k = d.linear(&at).ok_or_else(|| Error::unverified(op, "concatenated entry outside the result"))?;
            d.set(k, &x).map_err(|x| crate::operands::dense_error(op, x))?;
        }
        return e.assign(fr, op, Value::Array(Rc::new(d)));
    };
    let t = store(op, scheme, all)?;
    e.assign(fr, op, Value::Sparse(Rc::new(t)))
}

/// `sparse_tensor.new %file`: the `.mtx` or `.tns` file the runtime's
/// reader reads (its checks and messages), stored as the runtime stores
/// it (sorted; on a unique level the first of equal coordinates after the
/// sort is kept).
fn new(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let p = e.arg(fr, op, 0)?.clone();
    let name = String::from_utf8_lossy(&crate::operands::c_string(e, op, &p)?).into_owned();
    let ty = e.result_type(op, 0);
    let lane =
        e.lane_of(e.elem_type(ty)).ok_or_else(|| Error::at(op, ErrorKind::Unsupported("this element type".into())))?;
    let (dims, elems) = crate::sparse_runtime::read_tensor_file(op, &name, lane)?;
    let shape = match e.m.ctx.type_kind(ty) {
        TypeKind::RankedTensor { shape, .. } => shape.clone(),
        _ => return Err(Error::unverified(op, "sparse_tensor.new of a non-tensor type")),
    };
    let fits = shape.len() == dims.len()
        && shape.iter().zip(&dims).all(|(s, d)| *s == mlir_ir::types::DYNAMIC || *s as u64 == *d);
    if !fits {
        let shape: Vec<i64> = shape.iter().map(|s| if *s == mlir_ir::types::DYNAMIC { 0 } else { *s }).collect();
        return Err(Error::at(
            op,
            ErrorKind::Ub(format!(
                "sparse_tensor.new: the tensor type's shape {shape:?} does not match the dimension sizes {dims:?} in {name}"
            )),
        ));
    }
    let udims: Vec<usize> = dims.iter().map(|d| *d as usize).collect();
    let scheme =
        result_scheme(e, op, &udims)?.ok_or_else(|| Error::unverified(op, "sparse_tensor.new of a dense type"))?;
    e.charge(op, elems.len() as u64)?;
    for (c, _) in &elems {
        if let Some(d) = c.iter().zip(&dims).position(|(c, n)| c >= n) {
            return Err(Error::at(
                op,
                ErrorKind::Ub(format!(
                    "element at {:?} of {name} lies outside the tensor (dimension {d} of size {})",
                    c.iter().map(|x| x.wrapping_add(1)).collect::<Vec<_>>(),
                    dims[d]
                )),
            ));
        }
    }
    let t = store(op, scheme, elems)?;
    e.assign(fr, op, Value::Sparse(Rc::new(t)))
}

/// `sparse_tensor.out %t, %file`: the extended FROSTT text the runtime's
/// writer writes, entries in storage order (stdout for an empty name).
fn out(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let t = stored_arg(e, fr, op, 0)?;
    let p = e.arg(fr, op, 1)?.clone();
    // Its ODS destination is any type, which mlir-opt accepts; only a
    // pointer to a file name has a writer to run.
    if !matches!(p, Value::Ptr(_)) {
        let ty = mlir_ir::printer::type_to_string(&e.m.ctx, e.m.type_of(e.m.operands(op)[1]));
        return Err(Error::at(
            op,
            ErrorKind::Unsupported(format!(
                "sparse_tensor.out to a destination of type '{ty}' (only an !llvm.ptr file name)"
            )),
        ));
    }
    let name = String::from_utf8_lossy(&crate::operands::c_string(e, op, &p)?).into_owned();
    let entries = dim_entries(op, &t)?;
    let s = &t.scheme;
    let nse = t.nse();
    crate::sparse_runtime::write_tensor_file(
        e,
        op,
        name,
        &s.dim_sizes,
        nse,
        &entries,
        s.lane,
        crate::runtime::format_g,
    )?;
    Ok(Flow::Next)
}

/// The integers of a level buffer operand, at least `n` of them (the
/// assembled tensor reads that many: fewer is a read past its end).
fn level_ints(e: &Engine, fr: &Frame, op: OpId, i: usize, n: u64, what: &str) -> Result<Vec<u64>> {
    let d = dense(e, fr, op, i)?;
    if (d.len() as u64) < n {
        return Err(Error::at(
            op,
            ErrorKind::Ub(format!("the {what} buffer holds {} elements, the tensor stores {n}", d.len())),
        ));
    }
    let v = d.to_i64s().ok_or_else(|| Error::unverified(op, format!("{what} buffer of non-integers")))?;
    Ok(v.into_iter().take(n as usize).map(|x| x as u64).collect())
}

/// `sparse_tensor.assemble (%lvls..), %values`: the storage taken from the
/// buffers as the runtime's `kPack` takes it (positions sized by the
/// parent count, coordinates and values by the last position).
fn assemble(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let ty = e.result_type(op, 0);
    let shape: Vec<usize> = match e.m.ctx.type_kind(ty) {
        TypeKind::RankedTensor { shape, .. } => shape.iter().map(|d| usize::try_from(*d).unwrap_or(0)).collect(),
        _ => return Err(Error::unverified(op, "assemble of a non-tensor type")),
    };
    let scheme = result_scheme(e, op, &shape)?.ok_or_else(|| Error::unverified(op, "assemble to a dense type"))?;
    let levels = scheme.buffer_levels().ok_or_else(|| {
        Error::at(op, ErrorKind::Unsupported("assembling a singleton or n:m level outside a COO region".into()))
    })?;
    let n = e.m.operands(op).len();
    if levels.len() + 1 != n {
        return Err(Error::unverified(op, "assemble with another number of level buffers"));
    }
    let rank = scheme.lvl_rank();
    let mut st = crate::sparse::Storage {
        positions: vec![Vec::new(); rank],
        coordinates: vec![Vec::new(); rank],
        values: Vec::new(),
    };
    let mut parent = 1u64;
    let mut k = 0;
    let mut l = 0;
    while l < rank {
        let t = scheme.lvl_type(l);
        match t.format {
            LevelFormat::Compressed | LevelFormat::LooseCompressed => {
                let loose = t.format == LevelFormat::LooseCompressed;
                let np = if loose { parent.saturating_mul(2) } else { parent.saturating_add(1) };
                let pos = level_ints(e, fr, op, k, np, "positions")?;
                let nc = pos.last().copied().unwrap_or(0);
                st.positions[l] = pos;
                if levels[k + 1] == crate::sparse::BufferLevel::AosCoordinates(l) {
                    let trail = (rank - l) as u64;
                    let flat = level_ints(e, fr, op, k + 1, nc.saturating_mul(trail), "coordinates")?;
                    for j in l..rank {
                        st.coordinates[j] = flat.iter().skip(j - l).step_by(trail as usize).copied().collect();
                    }
                    parent = nc;
                    break;
                }
                st.coordinates[l] = level_ints(e, fr, op, k + 1, nc, "coordinates")?;
                parent = nc;
                k += 2;
            }
            _ => parent = parent.saturating_mul(scheme.lvl_sizes[l]),
        }
        l += 1;
    }
    let vals = dense(e, fr, op, n - 1)?;
    if (vals.len() as u64) < parent {
        return Err(Error::at(
            op,
            ErrorKind::Ub(format!("the values buffer holds {} elements, the tensor stores {parent}", vals.len())),
        ));
    }
    st.values = (0..parent as usize).map(|i| vals.get(i)).collect();
    let t = SparseTensor::from_storage(scheme, st);
    e.assign(fr, op, Value::Sparse(Rc::new(t)))
}

/// `sparse_tensor.disassemble %t out_lvls(..) out_vals(..)`: each buffer
/// copied to the front of its output tensor (a tensor too small is UB),
/// then the lengths used.
fn disassemble(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let t = stored_arg(e, fr, op, 0)?;
    let levels = t.scheme.buffer_levels().ok_or_else(|| {
        Error::at(op, ErrorKind::Unsupported("disassembling a singleton or n:m level outside a COO region".into()))
    })?;
    if e.m.operands(op).len() != levels.len() + 2 {
        return Err(Error::unverified(op, "disassemble with another number of level buffers"));
    }
    let st = t.storage();
    let mut tensors = Vec::with_capacity(levels.len() + 1);
    let mut lens = Vec::with_capacity(levels.len() + 1);
    let w = |e: &Engine, i: usize| -> Result<u32> {
        match e.m.ctx.type_kind(e.elem_type(e.operand_type(op, i).unwrap_or(e.result_type(op, 0)))) {
            TypeKind::Index => Ok(e.cfg.index_bits),
            TypeKind::Integer { width, .. } => Ok(*width),
            _ => Err(Error::unverified(op, "level buffer of non-integers")),
        }
    };
    for (k, b) in levels.iter().enumerate() {
        let xs = match *b {
            crate::sparse::BufferLevel::Positions(l) => st.positions[l].clone(),
            crate::sparse::BufferLevel::Coordinates(l) => st.coordinates[l].clone(),
            crate::sparse::BufferLevel::AosCoordinates(l) => t.aos_coordinates(l),
        };
        let bits = w(e, k + 1)?;
        let xs: Vec<Scalar> = xs.iter().map(|x| Scalar::Int(Int::from_u128(bits, u128::from(*x)))).collect();
        tensors.push(Value::Array(copy_front(e, fr, op, k + 1, &xs)?));
        lens.push(index_value(e, xs.len() as i64));
    }
    let nv = levels.len() + 1;
    tensors.push(Value::Array(copy_front(e, fr, op, nv, &st.values)?));
    lens.push(index_value(e, st.values.len() as i64));
    tensors.extend(lens);
    e.assign_all(fr, op, tensors)
}

/// A tensor of operand `i`'s shape whose first elements (row-major) are
/// `xs`; the rest are poison: the lowering returns a new buffer of which
/// only that front is written.
fn copy_front(e: &Engine, fr: &Frame, op: OpId, i: usize, xs: &[Scalar]) -> Result<Rc<Dense>> {
    let like = dense(e, fr, op, i)?;
    let poison = Scalar::Poison(crate::value::Poison(op));
    let mut d =
        Dense::splat(like.shape(), &poison, Some(like.lane())).map_err(|x| crate::operands::dense_error(op, x))?;
    if d.len() < xs.len() {
        return Err(Error::at(
            op,
            ErrorKind::Ub(format!("output buffer #{i} holds {} elements, the tensor stores {}", d.len(), xs.len())),
        ));
    }
    for (k, x) in xs.iter().enumerate() {
        d.set(k, x).map_err(|x| crate::operands::dense_error(op, x))?;
    }
    Ok(Rc::new(d))
}

/// `sparse_tensor.load %t [hasInserts]`: ends the insertions.
fn load(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let v = e.take_arg(fr, op, 0)?;
    let Value::Sparse(s) = v else { return e.assign(fr, op, v) };
    if e.m.attr(op, "hasInserts").is_none() || !s.has_pending() {
        return e.assign(fr, op, Value::Sparse(s));
    }
    let mut t = Rc::try_unwrap(s).unwrap_or_else(|s| (*s).clone());
    t.finalize().map_err(|x| sparse_error(op, x))?;
    e.assign(fr, op, Value::Sparse(Rc::new(t)))
}

/// `sparse_tensor.foreach in %t init(%r..)`: the body runs once per stored
/// entry in storage order, with the dimension coordinates, the value and
/// the running values; a dense tensor visits every element in row-major order.
fn foreach(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    if e.m.attr(op, "order").is_some() {
        return Err(Error::at(op, ErrorKind::Unsupported("sparse_tensor.foreach with an order".into())));
    }
    let body = e.m.regions(op).first().copied().ok_or_else(|| Error::unverified(op, "foreach without a body"))?;
    let mut acc = e.args_in(fr, op, 1..e.m.operands(op).len())?;
    for (dims, x) in visited(e, fr, op, 0)? {
        let mut args: Vec<Value> = dims.iter().map(|c| index_value(e, *c as i64)).collect();
        args.push(Value::from_scalar(x));
        args.extend(acc.iter().cloned());
        let (_, vals) = e.run_region(fr, body, args)?;
        acc = vals;
    }
    e.assign_all(fr, op, acc)
}

/// `sparse_tensor.print`: what LLVM 22's rewriting prints (nse, dim and
/// level sizes, each positions and coordinates array, the values).
fn print(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let t = stored_arg(e, fr, op, 0)?;
    let et = e.elem_type(e.operand_type(op, 0).ok_or_else(|| Error::unverified(op, "print without operand"))?);
    let s = &t.scheme;
    let list = |xs: &mut dyn Iterator<Item = String>| format!("( {} )", xs.collect::<Vec<_>>().join(", "));
    let mut out = format!("---- Sparse Tensor ----\nnse = {}\n", t.nse());
    out += &format!("dim = {}\n", list(&mut s.dim_sizes.iter().map(|d| d.to_string())));
    out += &format!("lvl = {}\n", list(&mut s.lvl_sizes.iter().map(|d| d.to_string())));
    let aos = s.enc.aos_coo_start();
    let st = t.storage();
    let pw = s.enc.pos_width;
    let cw = s.enc.crd_width;
    for l in 0..s.lvl_rank() {
        if s.has_positions(l) {
            out += &format!("pos[{l}] : {}\n", list(&mut st.positions[l].iter().map(|x| overhead_text(*x, pw))));
        }
        if s.has_coordinates(l) && l <= aos {
            let crd = if l == aos { t.aos_coordinates(l) } else { st.coordinates[l].clone() };
            out += &format!("crd[{l}] : {}\n", list(&mut crd.iter().map(|x| overhead_text(*x, cw))));
        }
    }
    let mut vals = Vec::with_capacity(st.values.len());
    for v in &st.values {
        vals.push(value_text(e, op, et, v)?);
    }
    out += &format!("values : {}\n----\n", list(&mut vals.into_iter()));
    crate::runtime::write_out(e, op, &out)?;
    Ok(Flow::Next)
}

/// An overhead entry as `vector.print` prints it at width `w` (0 is
/// `index`, unsigned; a fixed width prints signed).
fn overhead_text(x: u64, w: u32) -> String {
    match w {
        8 => (x as u8 as i8).to_string(),
        16 => (x as u16 as i16).to_string(),
        32 => (x as u32 as i32).to_string(),
        _ => x.to_string(),
    }
}

/// A stored value as `vector.print` prints it; complex values as
/// `( re, im )`, as the print rewriting splits them.
fn value_text(e: &Engine, op: OpId, et: TypeId, v: &Scalar) -> Result<String> {
    if let (Scalar::Complex(c), TypeKind::Complex(part)) = (v, e.m.ctx.type_kind(et)) {
        let (re, im) = c.parts();
        let part = *part;
        let re = crate::runtime::scalar_text(e, op, part, &Scalar::Float(re))?;
        let im = crate::runtime::scalar_text(e, op, part, &Scalar::Float(im))?;
        return Ok(format!("( {re}, {im} )"));
    }
    crate::runtime::scalar_text(e, op, et, v)
}
